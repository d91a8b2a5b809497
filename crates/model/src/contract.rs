//! The bridge vocabulary of contracts and tricks: strains, bids, contracts (level, strain,
//! doubling, declarer) and the winner of a trick.
//!
//! - [`Strain`] says which suit, if any, is trumps; [`trick_winner`] applies it, and
//!   [`Trick`] is a completed trick as seed 003 has it: the four cards in play order, the
//!   leader and the winner.
//! - [`Contract`] is a final contract, as an auction ([`auction_contract`]), a game's PBN tags
//!   ([`contract_of`]) and par (`dealdex::dd::Par`) name it.

use std::fmt;
use std::str::FromStr;

use crate::card::{Card, Seat, Suit};
use crate::error::{Error, ErrorKind};
use crate::game::{Auction, GameRecord};

/// The strain of a contract: a trump suit or notrump.
///
/// ```
/// use dealdex::{Strain, Suit};
/// assert_eq!("NT".parse::<Strain>(), Ok(Strain::NoTrump));
/// assert_eq!(Strain::from_bid("4S"), Some(Strain::Trumps(Suit::Spades)));
/// assert_eq!(Strain::from_bid("5HX"), Some(Strain::Trumps(Suit::Hearts)));
/// assert_eq!(Strain::Trumps(Suit::Hearts).to_string(), "H");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strain {
    /// A suit contract: this suit is trumps.
    Trumps(Suit),
    /// Notrump: the highest card of the suit led wins.
    NoTrump,
}

impl Strain {
    /// The five strains, notrump first, then ♠ ♥ ♦ ♣ (the order
    /// [`board_play`](crate::play::record::board_play) tries them in when the contract is
    /// unknown).
    pub const ALL: [Strain; 5] = [
        Strain::NoTrump,
        Strain::Trumps(Suit::Spades),
        Strain::Trumps(Suit::Hearts),
        Strain::Trumps(Suit::Diamonds),
        Strain::Trumps(Suit::Clubs),
    ];

    /// The trump suit; `None` for notrump.
    pub const fn trump(self) -> Option<Suit> {
        match self {
            Strain::Trumps(s) => Some(s),
            Strain::NoTrump => None,
        }
    }

    /// The strain's PBN name: `S`, `H`, `D`, `C` or `NT`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Strain::Trumps(Suit::Spades) => "S",
            Strain::Trumps(Suit::Hearts) => "H",
            Strain::Trumps(Suit::Diamonds) => "D",
            Strain::Trumps(Suit::Clubs) => "C",
            Strain::NoTrump => "NT",
        }
    }

    /// The strain of a bid or PBN contract such as `1C`, `3NT`, `2N`, `4S`, `5HX`, `6NTXX`
    /// (level 1..7, either case, doubles ignored); `None` for anything else (`Pass`, `?`, …).
    pub fn from_bid(token: &str) -> Option<Strain> {
        bid_strain(token.trim().to_ascii_uppercase().trim_end_matches('X'))
    }
}

/// The level and strain of a bid as an auction writes it: `1C`, `3NT`, `2N`, `4S` (level 1..7,
/// upper case, nothing after the strain); `None` for anything else (`Pass`, `X`, `1S!`, …).
pub fn parse_bid(token: &str) -> Option<(u8, Strain)> {
    let b = token.as_bytes();
    let level = match b.first() {
        Some(&c @ b'1'..=b'7') => c - b'0',
        _ => return None,
    };
    let strain = match b.get(1..)? {
        b"C" => Strain::Trumps(Suit::Clubs),
        b"D" => Strain::Trumps(Suit::Diamonds),
        b"H" => Strain::Trumps(Suit::Hearts),
        b"S" => Strain::Trumps(Suit::Spades),
        b"NT" | b"N" => Strain::NoTrump,
        _ => return None,
    };
    Some((level, strain))
}

/// The strain of a bid as an auction writes it ([`parse_bid`]'s strain).
pub fn bid_strain(token: &str) -> Option<Strain> {
    parse_bid(token).map(|(_, strain)| strain)
}

impl fmt::Display for Strain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Strain {
    type Err = Error;

    /// Parses `S`, `H`, `D`, `C` (or a suit symbol) and `NT` or `N`, either case.
    ///
    /// # Errors
    /// [`ErrorKind::NotAStrain`], naming the text, when it is none of these.
    fn from_str(s: &str) -> Result<Strain, Error> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("NT") || t.eq_ignore_ascii_case("N") {
            return Ok(Strain::NoTrump);
        }
        let mut chars = t.chars();
        match (chars.next().and_then(Suit::from_char), chars.next()) {
            (Some(suit), None) => Ok(Strain::Trumps(suit)),
            _ => Err(ErrorKind::NotAStrain { text: s.to_owned() }.into()),
        }
    }
}

/// Whether a contract is doubled or redoubled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Doubling {
    /// Neither doubled nor redoubled.
    #[default]
    Undoubled,
    /// Doubled.
    Doubled,
    /// Redoubled.
    Redoubled,
}

impl Doubling {
    /// The doubling as par and hand records write it after the strain: nothing, `x` or `xx`
    /// (a PBN `Contract` tag writes `X`, `XX`).
    pub const fn suffix(self) -> &'static str {
        match self {
            Doubling::Undoubled => "",
            Doubling::Doubled => "x",
            Doubling::Redoubled => "xx",
        }
    }
}

/// A final contract: its level, strain, doubling and declarer, as an auction and a game's PBN
/// tags name it ([`contract_of`]), and par (`dealdex::dd::Par`).
///
/// ```
/// use dealdex::{Contract, Doubling, Seat, Strain, Suit};
/// let c = Contract {
///     level: 5,
///     strain: Strain::Trumps(Suit::Clubs),
///     doubling: Doubling::Doubled,
///     declarer: Seat::East,
/// };
/// assert_eq!(c.to_string(), "5CxE");
/// assert_eq!(Contract::from_pbn("5cx", Seat::East), Some(c));
/// assert_eq!(Contract::from_pbn("Pass", Seat::East), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    /// Level 1..=7.
    pub level: u8,
    /// The strain.
    pub strain: Strain,
    /// Undoubled, doubled or redoubled.
    pub doubling: Doubling,
    /// The declarer.
    pub declarer: Seat,
}

impl Contract {
    /// The contract a PBN `Contract` tag names (`1C`, `3NT`, `2N`, `4S`, `5HX`, `6NTXX`: level
    /// 1..7, either case, `X` doubled, `XX` redoubled), played by `declarer`; `None` for
    /// anything else (`Pass`, `?`, …).
    pub fn from_pbn(tag: &str, declarer: Seat) -> Option<Contract> {
        let t = tag.trim().to_ascii_uppercase();
        let bid = t.trim_end_matches('X');
        let doubling = match t.len() - bid.len() {
            0 => Doubling::Undoubled,
            1 => Doubling::Doubled,
            2 => Doubling::Redoubled,
            _ => return None,
        };
        let (level, strain) = parse_bid(bid)?;
        Some(Contract {
            level,
            strain,
            doubling,
            declarer,
        })
    }
}

impl Contract {
    /// Declarer's duplicate score when declarer takes `tricks` tricks (0..=13) with declarer's
    /// side `vulnerable`: [`duplicate_score`] of the contract's level, strain and doubling.
    /// In points, positive when the contract makes, negative (the defenders' score, negated)
    /// when it goes down.
    ///
    /// ```
    /// use dealdex::{Contract, Doubling, Seat, Strain, Suit};
    /// let four_spades_doubled = Contract::from_pbn("4SX", Seat::North).unwrap();
    /// assert_eq!(four_spades_doubled.score(10, false), 590);
    /// assert_eq!(four_spades_doubled.score(7, true), -800);
    /// ```
    pub fn score(&self, tricks: u8, vulnerable: bool) -> i32 {
        let s = duplicate_score(
            self.level,
            self.strain,
            self.doubling,
            vulnerable,
            i64::from(tricks),
        );
        // |score| ≤ 7,600 for any level and 0..=13 tricks.
        s as i32
    }

    /// The table's score from North-South's view when declarer takes `tricks` tricks on a
    /// board of `vulnerability`: [`Contract::score`] at declarer's side's vulnerability,
    /// negated when East or West declares (so `+620` is North-South's, `-620` East-West's).
    ///
    /// ```
    /// use dealdex::{Contract, Seat, Vulnerability};
    /// let c = Contract::from_pbn("4S", Seat::East).unwrap();
    /// assert_eq!(c.score_ns(10, Vulnerability::EastWest), -620);
    /// assert_eq!(c.score_ns(9, Vulnerability::NorthSouth), 50);
    /// ```
    pub fn score_ns(&self, tricks: u8, vulnerability: crate::board::Vulnerability) -> i32 {
        let own = self.score(tricks, vulnerability.is_vulnerable(self.declarer));
        match self.declarer {
            Seat::North | Seat::South => own,
            Seat::East | Seat::West => -own,
        }
    }
}

/// Declarer's score at duplicate by the scoring table of the Laws (Laws of Duplicate Bridge
/// 2017, Law 77) for a contract of `level` (1..=7) in `strain` with `doubling`, declarer's side
/// `vulnerable`, when declarer takes `tricks` tricks. In points: positive when the contract
/// makes, negative when it goes down (the defenders' score, negated).
///
/// - Made: the trick score of the contracted tricks (♣♦ 20 a trick, ♥♠ 30, notrump 40 for
///   the first and 30 for the others; ×2 doubled, ×4 redoubled), overtricks (undoubled at
///   the trick value; doubled 100 a trick, 200 vulnerable; redoubled twice that), 50 for the
///   insult when doubled (100 redoubled), a game bonus of 300 (500 vulnerable) when the trick
///   score is 100 or more, else 50 for a part score, and 500/750 for a small slam, 1000/1500
///   for a grand slam (not vulnerable/vulnerable).
/// - Down: undoubled 50 a trick (100 vulnerable); doubled 100, 200, 200, then 300 a trick not
///   vulnerable, 200 then 300 a trick vulnerable; redoubled twice the doubled figures.
///
/// `tricks` is not checked against 0..=13: a count outside it scores as the table extends
/// (dealer's `score()` takes any number).
///
/// ```
/// use dealdex::{Doubling, Strain, duplicate_score};
/// assert_eq!(duplicate_score(3, Strain::NoTrump, Doubling::Undoubled, true, 10), 630);
/// ```
pub fn duplicate_score(
    level: u8,
    strain: Strain,
    doubling: Doubling,
    vulnerable: bool,
    tricks: i64,
) -> i64 {
    let level = i64::from(level);
    let need = level + 6;
    let factor = match doubling {
        Doubling::Undoubled => 1,
        Doubling::Doubled => 2,
        Doubling::Redoubled => 4,
    };
    if tricks < need {
        let down = need - tricks;
        let points = match (doubling, vulnerable) {
            (Doubling::Undoubled, false) => 50 * down,
            (Doubling::Undoubled, true) => 100 * down,
            // 100, 300, 500, then 300 a trick more.
            (_, false) => match down {
                1..=3 => 200 * down - 100,
                _ => 300 * down - 400,
            },
            // 200, then 300 a trick more.
            (_, true) => 300 * down - 100,
        };
        // Redoubled undertricks are twice the doubled ones.
        let points = match doubling {
            Doubling::Redoubled => 2 * points,
            _ => points,
        };
        return -points;
    }
    let per = match strain {
        Strain::Trumps(Suit::Clubs | Suit::Diamonds) => 20,
        _ => 30,
    };
    let first = if strain == Strain::NoTrump { 10 } else { 0 };
    let contracted = (per * level + first) * factor;
    let over = tricks - need;
    let overtricks = match (doubling, vulnerable) {
        (Doubling::Undoubled, _) => per * over,
        (_, false) => 50 * factor * over,
        (_, true) => 100 * factor * over,
    };
    let insult = match doubling {
        Doubling::Undoubled => 0,
        Doubling::Doubled => 50,
        Doubling::Redoubled => 100,
    };
    let game = match (contracted >= 100, vulnerable) {
        (false, _) => 50,
        (true, false) => 300,
        (true, true) => 500,
    };
    let slam = match (level, vulnerable) {
        (6, false) => 500,
        (6, true) => 750,
        (7, false) => 1000,
        (7, true) => 1500,
        _ => 0,
    };
    contracted + overtricks + insult + game + slam
}

/// The IMPs of a score difference by the WBF's international match-point scale (0–10
/// points 0 IMPs, 20–40 1, …, 370–420 9, …, 1100–1290 15, …, 4000 and more 24), with the
/// difference's sign. `difference` is in points (any integer; the scale's steps are at the
/// multiples of ten scores take).
///
/// ```
/// assert_eq!(dealdex::imps(620 - 170), 10);
/// assert_eq!(dealdex::imps(-1430), -16);
/// ```
pub fn imps(difference: i64) -> i64 {
    /// A difference above `STEPS[i]` is worth at least `i + 1` IMPs.
    const STEPS: [i64; 24] = [
        10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290, 1490, 1740,
        1990, 2240, 2490, 2990, 3490, 3990,
    ];
    let n = STEPS.iter().filter(|&&t| difference.abs() > t).count() as i64;
    if difference < 0 { -n } else { n }
}

/// `<level><strain><x?><declarer>`, e.g. `4SN`, `3NTS`, `5CxE` (the contracts of par,
/// tests/fixtures/dd/README.md).
impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}{}",
            self.level,
            self.strain.as_str(),
            self.doubling.suffix(),
            self.declarer.letter()
        )
    }
}

impl FromStr for Contract {
    type Err = Error;

    /// Parses a contract and its declarer: level 1..7, strain (`C`, `D`, `H`, `S`, `NT` or
    /// `N`), `X` doubled or `XX` redoubled, then the declarer's seat, after a `:` or not
    /// (`3NT:S`, `4hx:n`, `6CXXE`; either case), so [`Contract`]'s `Display` (`5CxE`) reads
    /// back.
    ///
    /// ```
    /// use dealdex::{Contract, Doubling, Seat};
    /// let c: Contract = "4HX:N".parse()?;
    /// assert_eq!((c.level, c.doubling, c.declarer), (4, Doubling::Doubled, Seat::North));
    /// assert_eq!(c.to_string().parse::<Contract>()?, c);
    /// # Ok::<(), dealdex::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::NotAContract`], naming the text, for anything else.
    fn from_str(s: &str) -> Result<Contract, Error> {
        let err = || Error::from(ErrorKind::NotAContract { text: s.to_owned() });
        let t = s.trim();
        let (bid, seat) = match t.split_once(':') {
            Some((bid, seat)) => (bid.trim(), seat.trim()),
            None => t.split_at(t.len() - t.chars().last().map_or(0, char::len_utf8)),
        };
        let mut chars = seat.chars();
        let declarer = match (chars.next().and_then(Seat::from_char), chars.next()) {
            (Some(seat), None) => seat,
            _ => return Err(err()),
        };
        Contract::from_pbn(bid, declarer).ok_or_else(err)
    }
}

/// The contract of an auction (PBN call tokens, either case): the last bid, doubled or
/// redoubled by the calls after it, and its declarer, the first player of the declaring side
/// to bid that strain. Calls are `Pass`/`P`, `X`, `XX`, `-` and bids ([`parse_bid`]); `AP`
/// ends the auction; other tokens (note references, annotated calls) take no turn. `None`
/// when nobody bid.
pub fn auction_contract(a: &Auction) -> Option<Contract> {
    let mut bids: Vec<(Seat, Strain)> = Vec::new();
    let mut level = 0;
    let mut doubling = Doubling::Undoubled;
    let mut k = 0usize;
    for t in &a.calls {
        let u = t.to_ascii_uppercase();
        if u == "AP" {
            break;
        }
        if let Some((l, strain)) = parse_bid(&u) {
            bids.push((a.first.rotate(k), strain));
            (level, doubling) = (l, Doubling::Undoubled);
        } else if u == "X" {
            doubling = Doubling::Doubled;
        } else if u == "XX" {
            doubling = Doubling::Redoubled;
        } else if !matches!(u.as_str(), "PASS" | "P" | "-") {
            continue; // note references and other annotations take no turn
        }
        k += 1;
    }
    let &(last, strain) = bids.last()?;
    bids.iter()
        .find(|(s, st)| s.index() % 2 == last.index() % 2 && *st == strain)
        .map(|&(declarer, _)| Contract {
            level,
            strain,
            doubling,
            declarer,
        })
}

/// A game's final contract, when its record names it: the PBN `Contract` tag (e.g. `5HX`,
/// `3NT`; [`Contract::from_pbn`]) played by the `Declarer` tag's seat, else, when the
/// `Contract` tag names no bid (`Pass`, `?`, empty or missing), the contract of the auction
/// (LIN `mb|` records, or a PBN `[Auction]`): the last bid, declarer the first player of that
/// side to bid its strain. `None` when neither names a whole contract (a `Contract` tag
/// without a `Declarer` tag is not completed from the auction).
///
/// ```
/// use dealdex::formats::GameRecord;
/// use dealdex::{Contract, Doubling, Seat, Strain, Suit, contract_of};
/// let g = GameRecord {
///     tags: vec![("Declarer".into(), "S".into()), ("Contract".into(), "5HX".into())],
///     ..GameRecord::default()
/// };
/// let five_hearts_doubled = Contract {
///     level: 5,
///     strain: Strain::Trumps(Suit::Hearts),
///     doubling: Doubling::Doubled,
///     declarer: Seat::South,
/// };
/// assert_eq!(contract_of(&g), Some(five_hearts_doubled));
/// ```
pub fn contract_of(game: &GameRecord) -> Option<Contract> {
    match game.tag("Contract") {
        Some(bid) if Strain::from_bid(bid).is_some() => {
            Contract::from_pbn(bid, tag_declarer(game)?)
        }
        _ => game.auction.as_ref().and_then(auction_contract),
    }
}

/// The seat of a game's `Declarer` tag (`N`, `E`, `S` or `W`); `None` for anything else.
fn tag_declarer(game: &GameRecord) -> Option<Seat> {
    let mut c = game.tag("Declarer")?.chars();
    match (c.next().and_then(Seat::from_char), c.next()) {
        (Some(s), None) => Some(s),
        _ => None,
    }
}

/// The strain of a game's contract as far as its record says it: [`contract_of`]'s, else the
/// `Contract` tag's (named without a declarer).
pub fn strain_of(game: &GameRecord) -> Option<Strain> {
    match contract_of(game) {
        Some(c) => Some(c.strain),
        None => game.tag("Contract").and_then(Strain::from_bid),
    }
}

/// The declarer of a game's contract as far as its record says it: [`contract_of`]'s, else
/// the `Declarer` tag's (with no `Contract` tag, or one that names no whole contract).
pub fn declarer_of(game: &GameRecord) -> Option<Seat> {
    match contract_of(game) {
        Some(c) => Some(c.declarer),
        None => tag_declarer(game),
    }
}

/// The index (0..4, in play order) of the card that wins a trick: the highest trump if any
/// was played, else the highest card of the suit led (`cards[0]`'s suit).
///
/// ```
/// use dealdex::{Card, Rank, Strain, Suit, trick_winner};
/// let c = |s, r| Card::new(s, Rank::new(r).unwrap());
/// let t = [c(Suit::Hearts, 2), c(Suit::Hearts, 4), c(Suit::Spades, 2), c(Suit::Hearts, 14)];
/// assert_eq!(trick_winner(&t, Strain::NoTrump), 3);
/// assert_eq!(trick_winner(&t, Strain::Trumps(Suit::Spades)), 2);
/// ```
pub fn trick_winner(cards: &[Card; 4], strain: Strain) -> usize {
    let trump = strain.trump();
    let mut best = 0;
    for i in 1..4 {
        let (c, b) = (cards[i], cards[best]);
        let beats = if c.suit() == b.suit() {
            c.rank() > b.rank()
        } else {
            Some(c.suit()) == trump
        };
        if beats {
            best = i;
        }
    }
    best
}

/// A completed trick, as seed 003 has it: the four cards in play order, the seat that led
/// and the seat that won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Trick {
    /// The cards in play order: `cards[i]` is played by `leader.rotate(i)`.
    pub cards: [Card; 4],
    /// The seat that led to the trick.
    pub leader: Seat,
    /// The seat that won it ([`trick_winner`] under the strain).
    pub winner: Seat,
}

impl Trick {
    /// The trick `cards` (play order) led by `leader`, with its winner under `strain`.
    pub fn new(leader: Seat, cards: [Card; 4], strain: Strain) -> Trick {
        Trick {
            cards,
            leader,
            winner: leader.rotate(trick_winner(&cards, strain)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strains_parse() {
        for s in Strain::ALL {
            assert_eq!(s.as_str().parse::<Strain>(), Ok(s));
        }
        assert_eq!(Strain::from_bid("3nt"), Some(Strain::NoTrump));
        assert_eq!(Strain::from_bid("2N"), Some(Strain::NoTrump));
        assert_eq!(Strain::from_bid("6NTXX"), Some(Strain::NoTrump));
        assert_eq!(Strain::from_bid("Pass"), None);
        assert_eq!(Strain::from_bid("8S"), None);
        assert_eq!(Strain::from_bid("?"), None);
        assert!("Z".parse::<Strain>().is_err());
    }

    /// Scores worked out by hand from Law 77's table (not from the code).
    #[test]
    fn scores_follow_the_laws_table() {
        // (contract, tricks taken, vulnerable, points), worked out in the comment: the
        // declarer's when the contract makes, else the defenders' (the score is then negative).
        let cases = [
            // 1NT=: 40 + part score 50.
            ("1NT:N", 7, false, 90),
            // 3NT+1 vul: 100 + 30 + game 500.
            ("3NT:S", 10, true, 630),
            // 4S-1 doubled, not vul: 100.
            ("4SX:E", 9, false, 100),
            // 4S-3 doubled vul: 200 + 300 + 300.
            ("4SX:N", 7, true, 800),
            // 4S-4 doubled not vul: 100 + 200 + 200 + 300.
            ("4SX:N", 6, false, 800),
            // 6C= vul: 120 + game 500 + slam 750.
            ("6C:W", 12, true, 1370),
            // 7NTXX= vul: 220 × 4 = 880 + game 500 + grand 1500 + insult 100.
            ("7NTXX:S", 13, true, 2980),
            // 1CX=: 40 + part score 50 + insult 50, at either vulnerability.
            ("1CX:N", 7, false, 140),
            ("1CX:N", 7, true, 140),
            // 2HXX+1 not vul: 60 × 4 = 240 + game 300 + overtrick 200 + insult 100.
            ("2HXX:E", 9, false, 840),
            // 2SX= vul: 120 + game 500 + insult 50; +1 adds 200.
            ("2SX:N", 8, true, 670),
            ("2SX:N", 9, true, 870),
            // 1NTXX-1 vul: 2 × 200.
            ("1NTXX:W", 6, true, 400),
            // 3NTXX-2 not vul: 2 × (100 + 200).
            ("3NTXX:W", 7, false, 600),
            // 5D-2 undoubled vul: 200; 4H+2 not vul: 120 + 60 + 300.
            ("5D:N", 9, true, 200),
            ("4H:N", 12, false, 480),
            // 7NTX-13 not vul: 100 + 200 + 200 + 10 × 300.
            ("7NTX:N", 0, false, 3500),
            // 3CX= not vul: 120 ≥ 100 is game: 120 + 300 + 50.
            ("3CX:S", 9, false, 470),
        ];
        for (text, tricks, vul, points) in cases {
            let c: Contract = text.parse().unwrap();
            let score = if tricks >= c.level + 6 {
                points
            } else {
                -points
            };
            assert_eq!(
                c.score(tricks, vul),
                score,
                "{text} taking {tricks}, vul {vul}"
            );
        }
    }

    /// The WBF scale at its edges.
    #[test]
    fn imps_follow_the_wbf_scale() {
        let cases = [
            (0, 0),
            (10, 0),
            (20, 1),
            (40, 1),
            (50, 2),
            (370, 9),
            (420, 9),
            (430, 10),
            (1290, 15),
            (1300, 16),
            (3990, 23),
            (4000, 24),
            (9000, 24),
            (-420, -9),
            (-430, -10),
        ];
        for (x, want) in cases {
            assert_eq!(imps(x), want, "imps({x})");
        }
    }

    #[test]
    fn contracts_parse_with_their_declarer() {
        let c: Contract = "3NT:S".parse().unwrap();
        assert_eq!(
            (c.level, c.strain, c.declarer),
            (3, Strain::NoTrump, Seat::South)
        );
        let c: Contract = " 6cxx : e ".parse().unwrap();
        assert_eq!((c.doubling, c.declarer), (Doubling::Redoubled, Seat::East));
        assert_eq!(
            "5CxE".parse::<Contract>().unwrap().doubling,
            Doubling::Doubled
        );
        for bad in [
            "", "3NT", "3NT:", "3NT:Q", "8S:N", "3NT:SN", ":N", "4SXXX:N", "é",
        ] {
            assert!(bad.parse::<Contract>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn winner_follows_trumps_then_suit_led() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        let t = [c("C5"), c("C2"), c("CK"), c("CA")];
        assert_eq!(trick_winner(&t, Strain::Trumps(Suit::Spades)), 3);
        let t = [c("H2"), c("H4"), c("S2"), c("HA")];
        assert_eq!(trick_winner(&t, Strain::Trumps(Suit::Spades)), 2);
        assert_eq!(trick_winner(&t, Strain::NoTrump), 3);
        let t = [c("D5"), c("C2"), c("D4"), c("H3")];
        assert_eq!(trick_winner(&t, Strain::Trumps(Suit::Spades)), 0);
    }

    #[test]
    fn declarer_is_first_of_side_to_bid_strain() {
        let a = Auction {
            first: Seat::North,
            calls: "1C 1S Pass 2S Pass 3D Pass 4S Pass Pass Pass"
                .split(' ')
                .map(String::from)
                .collect(),
            notes: vec![],
        };
        assert_eq!(
            auction_contract(&a),
            Some(Contract {
                level: 4,
                strain: Strain::Trumps(Suit::Spades),
                doubling: Doubling::Undoubled,
                declarer: Seat::East,
            })
        );
    }

    #[test]
    fn auction_contract_is_doubled_by_the_calls_after_the_last_bid() {
        let auction = |calls: &str| Auction {
            first: Seat::West,
            calls: calls.split(' ').map(String::from).collect(),
            notes: vec![],
        };
        let c = auction_contract(&auction("1NT =1= X XX Pass Pass Pass")).unwrap();
        assert_eq!(
            (c.level, c.doubling, c.declarer),
            (1, Doubling::Redoubled, Seat::West)
        );
        let c = auction_contract(&auction("Pass 1H X 2H X AP")).unwrap();
        assert_eq!(
            (c.level, c.doubling, c.declarer),
            (2, Doubling::Doubled, Seat::North)
        );
        let c = auction_contract(&auction("1S X 2S AP")).unwrap();
        assert_eq!(
            (c.level, c.doubling, c.declarer),
            (2, Doubling::Undoubled, Seat::West)
        );
        assert_eq!(auction_contract(&auction("Pass Pass Pass Pass")), None);
    }

    #[test]
    fn pbn_contracts_parse_with_their_penalty() {
        let c = |tag| Contract::from_pbn(tag, Seat::North).map(|c| (c.level, c.strain, c.doubling));
        assert_eq!(c("3NT"), Some((3, Strain::NoTrump, Doubling::Undoubled)));
        assert_eq!(c(" 6nxx "), Some((6, Strain::NoTrump, Doubling::Redoubled)));
        assert_eq!(
            c("4Sx"),
            Some((4, Strain::Trumps(Suit::Spades), Doubling::Doubled))
        );
        for bad in ["Pass", "?", "", "8S", "4SXXX", "X"] {
            assert_eq!(c(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_game_names_its_contract_by_tags_else_by_auction() {
        let game = |tags: &[(&str, &str)], calls: Option<&str>| GameRecord {
            tags: tags
                .iter()
                .map(|&(n, v)| (n.to_owned(), v.to_owned()))
                .collect(),
            auction: calls.map(|calls| Auction {
                first: Seat::North,
                calls: calls.split(' ').map(String::from).collect(),
                notes: vec![],
            }),
            ..GameRecord::default()
        };
        let hearts = Strain::Trumps(Suit::Hearts);
        let spades = Strain::Trumps(Suit::Spades);
        let auction = Some("1S Pass 4S AP");
        // Both tags: the tags, whatever the auction says.
        let g = game(&[("Contract", "4H"), ("Declarer", "E")], auction);
        assert_eq!(
            contract_of(&g).map(|c| (c.strain, c.declarer)),
            Some((hearts, Seat::East))
        );
        // A bid without declarer: no contract, the tag's strain, no declarer.
        let g = game(&[("Contract", "4H"), ("Declarer", "?")], auction);
        assert_eq!(contract_of(&g), None);
        assert_eq!((strain_of(&g), declarer_of(&g)), (Some(hearts), None));
        // No bid in the tags: the auction's contract.
        let g = game(&[("Contract", "?"), ("Declarer", "W")], auction);
        assert_eq!(
            (strain_of(&g), declarer_of(&g)),
            (Some(spades), Some(Seat::North))
        );
        // Neither: the Declarer tag alone.
        let g = game(&[("Declarer", "W")], None);
        assert_eq!(contract_of(&g), None);
        assert_eq!((strain_of(&g), declarer_of(&g)), (None, Some(Seat::West)));
    }
}
