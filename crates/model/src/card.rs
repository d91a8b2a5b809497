//! Seats, suits, ranks and cards.
//!
//! Cards are numbered 0..52 in *suited order* (FORMATS.md "Conventions"; seed 000 §1):
//! ♠A = 0, ♠K = 1, … ♠2 = 12, ♥A = 13, … ♣2 = 51, i.e. `card = suit * 13 + (14 - rank)`.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind};

/// One of the four seats at the table, in clockwise order N, E, S, W.
///
/// The discriminant (0..4) is dealdex's own seat number; every file format has its
/// own seat digit and converts at the edge (FORMATS.md "Conventions").
///
/// ```
/// use dealdex::Seat;
/// assert_eq!(Seat::North.next(), Seat::East);
/// assert_eq!(Seat::from_char('w'), Some(Seat::West));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// North (0).
    North = 0,
    /// East (1).
    East = 1,
    /// South (2).
    South = 2,
    /// West (3).
    West = 3,
}

impl Seat {
    /// The four seats in clockwise order starting with North.
    pub const ALL: [Seat; 4] = [Seat::North, Seat::East, Seat::South, Seat::West];

    /// The seat with dealdex number `i` (0 = N … 3 = W), taken modulo 4.
    pub const fn from_index(i: usize) -> Seat {
        Seat::ALL[i & 3]
    }

    /// dealdex's seat number: 0 = N, 1 = E, 2 = S, 3 = W.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The next seat clockwise (N → E → S → W → N).
    pub const fn next(self) -> Seat {
        Seat::from_index(self as usize + 1)
    }

    /// The seat `steps` places clockwise from this one.
    pub const fn rotate(self, steps: usize) -> Seat {
        Seat::from_index(self as usize + steps)
    }

    /// The seat's letter: `N`, `E`, `S` or `W`.
    pub const fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self as usize]
    }

    /// The seat's full name, e.g. `North`.
    pub const fn name(self) -> &'static str {
        ["North", "East", "South", "West"][self as usize]
    }

    /// Parses a seat letter (`N`, `E`, `S`, `W`, either case); `None` for anything else.
    pub fn from_char(c: char) -> Option<Seat> {
        match c.to_ascii_uppercase() {
            'N' => Some(Seat::North),
            'E' => Some(Seat::East),
            'S' => Some(Seat::South),
            'W' => Some(Seat::West),
            _ => None,
        }
    }
}

/// `text` as one of `names` (full names, any case) or, when it is one character, by
/// `from_char`.
fn by_name<T: Copy>(
    text: &str,
    names: [(&str, T); 4],
    from_char: fn(char) -> Option<T>,
    what: &'static str,
    expected: &'static str,
) -> Result<T, Error> {
    let mut chars = text.chars();
    let one = match (chars.next(), chars.next()) {
        (Some(c), None) => from_char(c),
        _ => None,
    };
    one.or_else(|| {
        names
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(text))
            .map(|&(_, t)| t)
    })
    .ok_or_else(|| {
        ErrorKind::UnknownName {
            text: text.to_owned(),
            what,
            expected,
        }
        .into()
    })
}

impl FromStr for Seat {
    type Err = Error;

    /// A seat by its letter or its name, in either case: `N`, `e`, `South`, `west`.
    ///
    /// ```
    /// use dealdex::Seat;
    /// assert_eq!("w".parse::<Seat>()?, Seat::West);
    /// assert_eq!("North".parse::<Seat>()?, Seat::North);
    /// assert_eq!("X".parse::<Seat>().unwrap_err().to_string(), r#""X" is not a seat (N, E, S, W)"#);
    /// # Ok::<(), dealdex::ModelError>(())
    /// ```
    fn from_str(text: &str) -> Result<Seat, Error> {
        let names = Seat::ALL.map(|s| (s.name(), s));
        by_name(text, names, Seat::from_char, "seat", "N, E, S, W")
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One of the four suits, in rank order ♠ ♥ ♦ ♣ (the suited order of FORMATS.md).
///
/// ```
/// use dealdex::Suit;
/// assert_eq!(Suit::Hearts.index(), 1);
/// assert_eq!(Suit::Clubs.symbol(), '♣');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Spades (0).
    Spades = 0,
    /// Hearts (1).
    Hearts = 1,
    /// Diamonds (2).
    Diamonds = 2,
    /// Clubs (3).
    Clubs = 3,
}

impl Suit {
    /// The four suits in suited order ♠ ♥ ♦ ♣.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit with number `i` (0 = ♠ … 3 = ♣), taken modulo 4.
    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i & 3]
    }

    /// The suit's number in suited order: 0 = ♠, 1 = ♥, 2 = ♦, 3 = ♣.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit's letter: `S`, `H`, `D` or `C`.
    pub const fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    /// The suit's symbol: `♠`, `♥`, `♦` or `♣`.
    pub const fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self as usize]
    }

    /// Parses a suit letter (`S`, `H`, `D`, `C`, either case) or symbol (`♠♥♦♣`, also the
    /// white variants `♤♡♢♧`); `None` for anything else.
    pub fn from_char(c: char) -> Option<Suit> {
        match c {
            'S' | 's' | '♠' | '♤' => Some(Suit::Spades),
            'H' | 'h' | '♥' | '♡' => Some(Suit::Hearts),
            'D' | 'd' | '♦' | '♢' => Some(Suit::Diamonds),
            'C' | 'c' | '♣' | '♧' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

impl Suit {
    /// The suit's name in lower case: `spades`, `hearts`, `diamonds` or `clubs` (as the
    /// query and dealer languages, the letter codecs' messages and the formats spell it).
    pub const fn name(self) -> &'static str {
        ["spades", "hearts", "diamonds", "clubs"][self as usize]
    }
}

impl FromStr for Suit {
    type Err = Error;

    /// A suit by its letter or symbol ([`Suit::from_char`]) or its name in either case:
    /// `S`, `h`, `♦`, `clubs`.
    ///
    /// ```
    /// use dealdex::Suit;
    /// assert_eq!("h".parse::<Suit>()?, Suit::Hearts);
    /// assert_eq!("♣".parse::<Suit>()?, Suit::Clubs);
    /// assert_eq!("Diamonds".parse::<Suit>()?, Suit::Diamonds);
    /// assert!("N".parse::<Suit>().is_err());
    /// # Ok::<(), dealdex::ModelError>(())
    /// ```
    fn from_str(text: &str) -> Result<Suit, Error> {
        let names = Suit::ALL.map(|s| (s.name(), s));
        by_name(text, names, Suit::from_char, "suit", "S, H, D, C")
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A card rank, 2..=14 (jack 11, queen 12, king 13, ace 14).
///
/// ```
/// use dealdex::Rank;
/// assert_eq!(Rank::from_char('T'), Some(Rank::TEN));
/// assert_eq!(Rank::ACE.letter(), 'A');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The deuce (2).
    pub const TWO: Rank = Rank(2);
    /// The ten (10), written `T`.
    pub const TEN: Rank = Rank(10);
    /// The jack (11).
    pub const JACK: Rank = Rank(11);
    /// The queen (12).
    pub const QUEEN: Rank = Rank(12);
    /// The king (13).
    pub const KING: Rank = Rank(13);
    /// The ace (14).
    pub const ACE: Rank = Rank(14);

    /// The rank with value `v` (2..=14); `None` outside that range.
    pub const fn new(v: u8) -> Option<Rank> {
        if v >= 2 && v <= 14 {
            Some(Rank(v))
        } else {
            None
        }
    }

    /// The rank's value, 2..=14.
    pub const fn value(self) -> u8 {
        self.0
    }

    /// The rank's letter in `AKQJT98765432`.
    pub const fn letter(self) -> char {
        RANK_LETTERS[(14 - self.0) as usize] as char
    }

    /// Parses a rank letter (`AKQJT98765432`, either case); `None` otherwise.
    /// (`10` is two characters; parsers of text formats accept it themselves.)
    pub fn from_char(c: char) -> Option<Rank> {
        let c = c.to_ascii_uppercase() as u8;
        RANK_LETTERS
            .iter()
            .position(|&l| l == c)
            .map(|p| Rank(14 - p as u8))
    }
}

/// Rank letters from the ace down, the order they are written in hands.
pub const RANK_LETTERS: &[u8; 13] = b"AKQJT98765432";

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A card, numbered 0..52 in suited order: ♠A = 0 … ♠2 = 12, ♥A = 13 … ♣2 = 51
/// (seed 000 §1 slot order: `card = suit * 13 + (14 - rank)`).
///
/// ```
/// use dealdex::{Card, Rank, Suit};
/// let c = Card::new(Suit::Hearts, Rank::new(7).unwrap());
/// assert_eq!(c.index(), 20); // seed 000: slot 20 is the ♥7
/// assert_eq!(c.to_string(), "H7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The card of `suit` and `rank`.
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 13 + (14 - rank.0))
    }

    /// The card with suited-order number `i` (0..52); `None` for 52 and above.
    pub const fn from_index(i: usize) -> Option<Card> {
        if i < 52 { Some(Card(i as u8)) } else { None }
    }

    /// The card's suited-order number, 0..52.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 as usize / 13)
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        Rank(14 - self.0 % 13)
    }

    /// All 52 cards in suited order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52u8).map(Card)
    }
}

impl fmt::Display for Card {
    /// Suit letter then rank letter, e.g. `SA`, `CT` (the PBN play notation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.suit().letter(), self.rank().letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suited_order_matches_seed_000_slots() {
        for slot in 0..52usize {
            let c = Card::from_index(slot).unwrap();
            assert_eq!(c.rank().value() as usize, 14 - slot % 13);
            assert_eq!(c.suit().index(), slot / 13);
            assert_eq!(Card::new(c.suit(), c.rank()), c);
        }
        assert_eq!(Card::from_index(0).unwrap().to_string(), "SA");
        assert_eq!(Card::from_index(51).unwrap().to_string(), "C2");
        assert!(Card::from_index(52).is_none());
    }

    #[test]
    fn letters_round_trip() {
        for v in 2..=14 {
            let r = Rank::new(v).unwrap();
            assert_eq!(Rank::from_char(r.letter()), Some(r));
        }
        assert_eq!(Rank::new(1), None);
        assert_eq!(Rank::new(15), None);
        for s in Seat::ALL {
            assert_eq!(Seat::from_char(s.letter()), Some(s));
        }
        for s in Suit::ALL {
            assert_eq!(Suit::from_char(s.letter()), Some(s));
            assert_eq!(Suit::from_char(s.symbol()), Some(s));
        }
    }
}
