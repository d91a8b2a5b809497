//! Hand features: high-card points, suit lengths, shape, controls, losing-trick count,
//! balance, the longest suit, per seat and per partnership — the vocabulary of the query
//! language (`hcp(N) >= 20`, `shape(E) = 4432`, …), of `generate --where` and of the
//! statistics.
//!
//! # Definitions
//!
//! | feature | definition | range (13-card hand) |
//! | --- | --- | --- |
//! | [`hcp`] | Milton Work count: A = 4, K = 3, Q = 2, J = 1 | 0..=37 (40 in the deck) |
//! | [`suit_lengths`] | cards held in ♠ ♥ ♦ ♣ | each 0..=13, sum 13 |
//! | [`controls`] | A = 2, K = 1 | 0..=12 (12 in the deck) |
//! | [`Shape`] | the four lengths; sorted shape `5-4-3-1`, exact pattern `5431` | |
//! | [`Shape::is_balanced`] | sorted shape 4-3-3-3, 4-4-3-2 or 5-3-3-2 | |
//! | [`Shape::is_semi_balanced`] | balanced, or 5-4-2-2 or 6-3-2-2 | |
//! | [`losing_trick_count`] | basic LTC: per suit, the missing A, K, Q among the top min(length, 3) | 0..=12 |
//! | [`longest_suit`] | the longest suit, ties to the higher-ranking suit (♠ > ♥ > ♦ > ♣) | length 4..=13 |
//! | [`side_hcp`] | the HCP of the two hands of a partnership | 0..=40 |
//! | [`fit`] | the two hands' combined length in one suit | 0..=13 |
//!
//! Sources: the 4-3-2-1 count is the Milton Work point count; the losing-trick count is the
//! basic counting method of F. Dudley Courtenay (*The System the Experts Play*, 1934, sold in
//! Britain as *The Losing Trick Count*): an ace is never a loser, nor a king in a suit of two
//! or more cards, nor a queen in a suit of three or more, and a suit has at most three losers —
//! without later refinements (no half losers, Qxx is two losers, no adjustment for aces);
//! balanced and semi-balanced are the usual bidding-system classes.
//!
//! Every function takes any [`Hand`] (any set of cards, not only 13); the ranges in the
//! table are those of a hand of a [`Deal`].
//!
//! # Speed
//!
//! The counts work on the 52-bit card mask (bit `13·suit + 14 − rank`, FORMATS.md
//! "Conventions") without looping over cards: HCP and controls weight the honour bits of all
//! four suits at once and add the four 13-bit fields with one multiplication, the suit lengths
//! are four bit counts done in parallel in 16-bit lanes. All features of all four seats of a
//! deal cost a few tens of nanoseconds (`cargo bench -p dealdex-benches --bench features`).
//!
//! ```
//! use dealdex::features::{Shape, hcp, losing_trick_count};
//! use dealdex::{Deal, Seat};
//! let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
//!     .parse()
//!     .unwrap();
//! let north = deal.hand(Seat::North);
//! assert_eq!(hcp(north), 13); // A K J = 8, Q = 2, K = 3
//! assert_eq!(Shape::of(north).to_string(), "5-3-3-2");
//! assert!(Shape::of(north).is_balanced());
//! assert_eq!(losing_trick_count(north), 7); // AKJ52: Q; Q43: A K; K7: A; 962: 3
//! ```

use std::fmt;

use crate::card::{Seat, Suit};
use crate::deal::{Deal, Hand};

/// The four aces: bit 0 of each 13-bit suit field (♠A = 0, ♥A = 13, ♦A = 26, ♣A = 39).
const ACES: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
/// The four kings, the bit above each ace.
const KINGS: u64 = ACES << 1;
/// The four queens.
const QUEENS: u64 = ACES << 2;
/// The four jacks.
const JACKS: u64 = ACES << 3;
/// One 13-bit suit field.
const SUIT: u64 = 0x1FFF;

/// Adds the four 13-bit fields of `v` (whose sum stays below 2¹³, so no partial sum carries
/// into the next field): multiplying by `ACES` = 1 + 2¹³ + 2²⁶ + 2³⁹ stacks all four fields
/// into bits 39..52.
#[inline]
const fn sum_suit_fields(v: u64) -> u8 {
    ((v.wrapping_mul(ACES) >> 39) & SUIT) as u8
}

/// High-card points, the Milton Work count: A = 4, K = 3, Q = 2, J = 1.
///
/// 0..=37 for a 13-card hand (four aces, four kings, four queens and a jack); the four hands
/// of a deal sum to 40. Any card set may be given (at most 40).
///
/// ```
/// use dealdex::{Deal, Seat, features::hcp};
/// let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
///     .parse()
///     .unwrap();
/// assert_eq!(hcp(deal.hand(Seat::North)), 13); // ♠AKJ 4+3+1, ♥Q 2, ♦K 3
/// assert_eq!(hcp(deal.hand(Seat::East)), 19); // ♠Q 2, ♥AK 7, ♦AQ 6, ♣KJ 4
/// assert_eq!(Seat::ALL.map(|s| hcp(deal.hand(s))).iter().sum::<u8>(), 40);
/// ```
#[inline]
pub fn hcp(hand: Hand) -> u8 {
    let m = hand.mask();
    // Each suit field gets 4·A + 3·K + 2·Q + J (at most 10) in its bit 0.
    let v = 4 * (m & ACES) + 3 * ((m & KINGS) >> 1) + 2 * ((m & QUEENS) >> 2) + ((m & JACKS) >> 3);
    sum_suit_fields(v)
}

/// Suit lengths in suited order `[♠, ♥, ♦, ♣]`, each 0..=13, summing to the hand's size
/// (13 for a hand of a deal).
///
/// ```
/// use dealdex::{Deal, Seat, features::suit_lengths};
/// let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
///     .parse()
///     .unwrap();
/// assert_eq!(suit_lengths(deal.hand(Seat::North)), [5, 3, 2, 3]);
/// assert_eq!(suit_lengths(deal.hand(Seat::South)), [1, 7, 0, 5]);
/// ```
#[inline]
pub fn suit_lengths(hand: Hand) -> [u8; 4] {
    let m = hand.mask();
    // Move suit k's 13 bits to bits 16k..16k+13, then count the bits of the four 16-bit
    // lanes at once (the classic parallel bit count, stopped at lane width).
    let mut x = (m & SUIT)
        | ((m << 3) & (SUIT << 16))
        | ((m << 6) & (SUIT << 32))
        | ((m << 9) & (SUIT << 48));
    x -= (x >> 1) & 0x5555_5555_5555_5555;
    x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    x = (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    x += x >> 8; // the low byte of each lane is now its count
    [x as u8, (x >> 16) as u8, (x >> 32) as u8, (x >> 48) as u8]
}

/// Controls: A = 2, K = 1; 0..=12 for any hand, 12 in the deck.
///
/// ```
/// use dealdex::{Deal, Seat, features::controls};
/// let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
///     .parse()
///     .unwrap();
/// assert_eq!(controls(deal.hand(Seat::North)), 4); // ♠A 2 + ♠K 1 + ♦K 1
/// assert_eq!(controls(deal.hand(Seat::East)), 6); // ♥A 2 + ♥K 1 + ♦A 2 + ♣K 1
/// ```
#[inline]
pub fn controls(hand: Hand) -> u8 {
    let m = hand.mask();
    sum_suit_fields(2 * (m & ACES) + ((m & KINGS) >> 1))
}

/// A hand's shape: its four suit lengths in suited order `[♠, ♥, ♦, ♣]`.
///
/// `Display` gives the sorted shape, longest first, joined by `-` (`5-4-3-1`, `10-2-1-0`);
/// [`Shape::pattern`] gives the exact pattern in suit order (`5431` = 5 spades, 4 hearts,
/// 3 diamonds, 1 club).
///
/// ```
/// use dealdex::{Deal, Seat, features::Shape};
/// let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
///     .parse()
///     .unwrap();
/// let south = Shape::of(deal.hand(Seat::South));
/// assert_eq!(south, Shape([1, 7, 0, 5]));
/// assert_eq!(south.to_string(), "7-5-1-0");
/// assert_eq!(south.pattern(), "1705");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape(pub [u8; 4]);

/// Sorted shapes packed big-endian into a `u32`, for one comparison each.
const SORTED_4333: u32 = u32::from_be_bytes([4, 3, 3, 3]);
const SORTED_4432: u32 = u32::from_be_bytes([4, 4, 3, 2]);
const SORTED_5332: u32 = u32::from_be_bytes([5, 3, 3, 2]);
const SORTED_5422: u32 = u32::from_be_bytes([5, 4, 2, 2]);
const SORTED_6322: u32 = u32::from_be_bytes([6, 3, 2, 2]);

/// The pattern character of each length 0..=13: digits, then the rank letters of 10..=13.
const PATTERN_CHARS: &[u8; 14] = b"0123456789TJQK";

impl Shape {
    /// The shape of `hand` (its [`suit_lengths`]).
    ///
    /// ```
    /// use dealdex::{Deal, Seat, features::Shape};
    /// let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
    ///     .parse()
    ///     .unwrap();
    /// assert_eq!(Shape::of(deal.hand(Seat::West)), Shape([3, 0, 9, 1]));
    /// ```
    #[inline]
    pub fn of(hand: Hand) -> Shape {
        Shape(suit_lengths(hand))
    }

    /// The lengths sorted longest first, e.g. `[5, 4, 3, 1]` (which suit is which is lost).
    ///
    /// ```
    /// use dealdex::features::Shape;
    /// assert_eq!(Shape([1, 4, 3, 5]).sorted(), [5, 4, 3, 1]);
    /// ```
    #[inline]
    pub fn sorted(&self) -> [u8; 4] {
        // A five-comparator sorting network (descending), branch-free with max/min.
        let [a, b, c, d] = self.0;
        let (a, b) = (a.max(b), a.min(b));
        let (c, d) = (c.max(d), c.min(d));
        let (a, c) = (a.max(c), a.min(c));
        let (b, d) = (b.max(d), b.min(d));
        let (b, c) = (b.max(c), b.min(c));
        [a, b, c, d]
    }

    /// The exact pattern in suit order ♠ ♥ ♦ ♣, one character a suit: the length as a digit,
    /// and `T`, `J`, `Q`, `K` for 10, 11, 12, 13 (the rank letters of those values), so that
    /// every pattern is four characters and reads back one way only. 5 spades, 4 hearts,
    /// 3 diamonds, 1 club → `"5431"`; 10-1-1-1 with ten spades → `"T111"`.
    ///
    /// The [`Shape::of`] a hand never has a suit above 13; a `Shape` built by hand with one shows
    /// `?` there.
    ///
    /// ```
    /// use dealdex::features::Shape;
    /// assert_eq!(Shape([5, 4, 3, 1]).pattern(), "5431");
    /// assert_eq!(Shape([10, 1, 1, 1]).pattern(), "T111");
    /// assert_eq!(Shape([1, 0, 1, 11]).pattern(), "101J");
    /// assert_eq!(Shape([0, 13, 0, 0]).pattern(), "0K00");
    /// ```
    pub fn pattern(&self) -> String {
        self.0
            .iter()
            .map(|&l| PATTERN_CHARS.get(l as usize).map_or('?', |&c| c as char))
            .collect()
    }

    /// Balanced: the sorted shape is 4-3-3-3, 4-4-3-2 or 5-3-3-2 (for 13 cards: no void, no
    /// singleton, at most one doubleton).
    ///
    /// ```
    /// use dealdex::features::Shape;
    /// assert!(Shape([3, 3, 4, 3]).is_balanced()); // 4-3-3-3
    /// assert!(Shape([2, 4, 3, 4]).is_balanced()); // 4-4-3-2
    /// assert!(Shape([3, 2, 5, 3]).is_balanced()); // 5-3-3-2
    /// assert!(!Shape([5, 4, 2, 2]).is_balanced()); // two doubletons
    /// assert!(!Shape([4, 4, 4, 1]).is_balanced()); // singleton
    /// ```
    #[inline]
    pub fn is_balanced(&self) -> bool {
        let k = u32::from_be_bytes(self.sorted());
        k == SORTED_4333 || k == SORTED_4432 || k == SORTED_5332
    }

    /// Semi-balanced: balanced, or the sorted shape is 5-4-2-2 or 6-3-2-2 (for 13 cards: no
    /// void, no singleton, at most two doubletons).
    ///
    /// ```
    /// use dealdex::features::Shape;
    /// assert!(Shape([4, 3, 3, 3]).is_semi_balanced()); // balanced
    /// assert!(Shape([2, 5, 2, 4]).is_semi_balanced()); // 5-4-2-2
    /// assert!(Shape([2, 2, 3, 6]).is_semi_balanced()); // 6-3-2-2
    /// assert!(!Shape([7, 2, 2, 2]).is_semi_balanced()); // three doubletons
    /// assert!(!Shape([5, 4, 3, 1]).is_semi_balanced()); // singleton
    /// ```
    #[inline]
    pub fn is_semi_balanced(&self) -> bool {
        let k = u32::from_be_bytes(self.sorted());
        k == SORTED_4333
            || k == SORTED_4432
            || k == SORTED_5332
            || k == SORTED_5422
            || k == SORTED_6322
    }
}

impl fmt::Display for Shape {
    /// The sorted shape, longest first, joined by `-`: `5-4-3-1`, `10-2-1-0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Up to four lengths of three digits and three dashes.
        let mut buf = [0u8; 15];
        let mut n = 0;
        for (i, l) in self.sorted().into_iter().enumerate() {
            if i > 0 {
                buf[n] = b'-';
                n += 1;
            }
            if l >= 100 {
                buf[n] = b'0' + l / 100;
                n += 1;
            }
            if l >= 10 {
                buf[n] = b'0' + l / 10 % 10;
                n += 1;
            }
            buf[n] = b'0' + l % 10;
            n += 1;
        }
        f.write_str(std::str::from_utf8(&buf[..n]).expect("ASCII digits and dashes"))
    }
}

/// The losers of one suit, indexed by `min(length, 3) << 3 | (A, K, Q bits of the holding)`:
/// `min(length, 3)` minus the honours held among the top `min(length, 3)` of A, K, Q.
const LTC_BY_TOP: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        let top = (i >> 3) as u32;
        let considered = (i & 7) as u32 & ((1 << top) - 1);
        t[i] = (top - considered.count_ones()) as u8;
        i += 1;
    }
    t
};

/// Losing-trick count (basic LTC), 0..=12: the sum over the suits of the missing A, K, Q
/// among the top min(length, 3) honours of the suit:
///
/// - void: 0 losers;
/// - singleton: 1 unless it is the ace (singleton K = 1);
/// - doubleton: 2 minus the A and K held (AK = 0, Ax = Kx = KQ = 1, Qx = xx = 2);
/// - three or more cards: 3 minus the A, K, Q held (AKQ = 0, AKx = AQx = KQx = 1,
///   Axx = Kxx = Qxx = 2, xxx = 3); cards beyond the third never count.
///
/// (Courtenay's basic count, see the [module documentation](self).)
///
/// ```
/// use dealdex::{Deal, Seat, features::losing_trick_count};
/// let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
///     .parse()
///     .unwrap();
/// // ♠AKJ52: Q missing 1; ♥Q43: A K missing 2; ♦K7: A missing 1; ♣962: 3 → 7.
/// assert_eq!(losing_trick_count(deal.hand(Seat::North)), 7);
/// // ♠7 singleton 1; ♥JT98765: 3; ♦ void 0; ♣AQT87: K missing 1 → 5.
/// assert_eq!(losing_trick_count(deal.hand(Seat::South)), 5);
/// ```
#[inline]
pub fn losing_trick_count(hand: Hand) -> u8 {
    let m = hand.mask();
    let len = suit_lengths(hand);
    let mut losers = 0;
    for (s, &l) in len.iter().enumerate() {
        let top3 = (m >> (13 * s)) as usize & 7;
        losers += LTC_BY_TOP[(l.min(3) as usize) << 3 | top3];
    }
    losers
}

/// The longest suit and its length; among suits of equal length the higher-ranking one
/// (♠ > ♥ > ♦ > ♣) is given. An empty hand gives `(Suit::Spades, 0)`.
///
/// ```
/// use dealdex::{Deal, Seat, Suit, features::longest_suit};
/// let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
///     .parse()
///     .unwrap();
/// assert_eq!(longest_suit(deal.hand(Seat::West)), (Suit::Diamonds, 9));
/// // East is 4-3-2-4: spades and clubs tie, spades rank higher.
/// assert_eq!(longest_suit(deal.hand(Seat::East)), (Suit::Spades, 4));
/// ```
#[inline]
pub fn longest_suit(hand: Hand) -> (Suit, u8) {
    let l = suit_lengths(hand);
    // Key = length · 4 + (3 − suit): the maximum key is the longest, highest-ranking suit.
    let key = |s: usize| (l[s] as u32) << 2 | (3 - s as u32);
    let best = key(0).max(key(1)).max(key(2).max(key(3)));
    (Suit::from_index(3 - (best & 3) as usize), (best >> 2) as u8)
}

/// A partnership: North–South or East–West.
///
/// ```
/// use dealdex::{Seat, features::Side};
/// assert_eq!(Side::EastWest.seats(), [Seat::East, Seat::West]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// North and South.
    NorthSouth,
    /// East and West.
    EastWest,
}

impl Side {
    /// The two seats of the side, North/East first.
    ///
    /// ```
    /// use dealdex::{Seat, features::Side};
    /// assert_eq!(Side::NorthSouth.seats(), [Seat::North, Seat::South]);
    /// ```
    pub const fn seats(self) -> [Seat; 2] {
        match self {
            Side::NorthSouth => [Seat::North, Seat::South],
            Side::EastWest => [Seat::East, Seat::West],
        }
    }
}

/// The two hands of `side` as one card set (the hands of a deal never share a card).
#[inline]
fn side_cards(deal: &Deal, side: Side) -> Hand {
    let [a, b] = side.seats();
    Hand::from_mask(deal.hand(a).mask() | deal.hand(b).mask())
}

/// The combined HCP of the side's two hands, 0..=40; the two sides sum to 40.
///
/// ```
/// use dealdex::{Deal, features::{Side, side_hcp}};
/// let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
///     .parse()
///     .unwrap();
/// assert_eq!(side_hcp(&deal, Side::NorthSouth), 20); // North 13 + South 7
/// assert_eq!(side_hcp(&deal, Side::EastWest), 20); // East 19 + West 1
/// ```
#[inline]
pub fn side_hcp(deal: &Deal, side: Side) -> u8 {
    hcp(side_cards(deal, side))
}

/// The side's combined length in `suit` (its fit), 0..=13; the two sides sum to 13.
///
/// ```
/// use dealdex::{Deal, Suit, features::{Side, fit}};
/// let deal: Deal = "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3"
///     .parse()
///     .unwrap();
/// assert_eq!(fit(&deal, Side::NorthSouth, Suit::Hearts), 10); // North 3 + South 7
/// assert_eq!(fit(&deal, Side::EastWest, Suit::Diamonds), 11); // East 2 + West 9
/// ```
#[inline]
pub fn fit(deal: &Deal, side: Side, suit: Suit) -> u8 {
    side_cards(deal, side).suit_len(suit) as u8
}

/// A comparison of two numbers, as the filter languages write one between two features
/// (`hcp(N) >= 20`): the query language and dealer's both parse to it, evaluate it by
/// [`Comparison::holds`] and print it in their own spellings.
///
/// ```
/// use dealdex::features::Comparison;
/// assert_eq!(Comparison::from_symbol(">="), Some(Comparison::Ge));
/// assert!(Comparison::Ge.holds(20, 20) && !Comparison::Gt.holds(20, 20));
/// assert_eq!(Comparison::Lt.swapped(), Comparison::Gt); // 3 < x is x > 3
/// assert_eq!(Comparison::Ne.symbol(), "!=");
/// // Each reads back from its symbol; swapped, it holds of the swapped operands.
/// for c in Comparison::ALL {
///     assert_eq!(Comparison::from_symbol(c.symbol()), Some(c));
///     for (a, b) in [(1, 2), (2, 2), (3, 2)] {
///         assert_eq!(c.holds(a, b), c.swapped().holds(b, a), "{c:?} {a} {b}");
///     }
/// }
/// assert_eq!(Comparison::from_symbol("="), None); // the query language's `=` is its lexer's
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `==`: equal.
    Eq,
    /// `!=`: not equal.
    Ne,
    /// `<`: less than.
    Lt,
    /// `<=`: less than or equal.
    Le,
    /// `>`: greater than.
    Gt,
    /// `>=`: greater than or equal.
    Ge,
}

impl Comparison {
    /// The six comparisons, in the order of the variants.
    pub const ALL: [Comparison; 6] = [
        Comparison::Eq,
        Comparison::Ne,
        Comparison::Lt,
        Comparison::Le,
        Comparison::Gt,
        Comparison::Ge,
    ];

    /// Whether `a` compares to `b` so (`Lt`: `a < b`).
    #[inline]
    pub fn holds<T: Ord>(self, a: T, b: T) -> bool {
        match self {
            Comparison::Eq => a == b,
            Comparison::Ne => a != b,
            Comparison::Lt => a < b,
            Comparison::Le => a <= b,
            Comparison::Gt => a > b,
            Comparison::Ge => a >= b,
        }
    }

    /// The comparison with its operands swapped: `a op b` is `b op.swapped() a` (`<` and
    /// `>`, `<=` and `>=` trade places; `==` and `!=` stay).
    pub const fn swapped(self) -> Comparison {
        match self {
            Comparison::Lt => Comparison::Gt,
            Comparison::Le => Comparison::Ge,
            Comparison::Gt => Comparison::Lt,
            Comparison::Ge => Comparison::Le,
            same => same,
        }
    }

    /// The operator as C writes it, and dealer: `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub const fn symbol(self) -> &'static str {
        ["==", "!=", "<", "<=", ">", ">="][self as usize]
    }

    /// The comparison whose [`symbol`](Comparison::symbol) is `text`, if any.
    pub fn from_symbol(text: &str) -> Option<Comparison> {
        Comparison::ALL.into_iter().find(|c| c.symbol() == text)
    }
}
