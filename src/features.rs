//! Hand features: HCP, suit lengths, shape, controls, losing-trick count, balance, per seat
//! and per partnership. (First version: the API the query language and statistics build on.)

use std::fmt;

use crate::card::{Seat, Suit};
use crate::deal::{Deal, Hand};

/// Honour points of each card of a suit mask (bit 0 = ace … bit 12 = deuce): A=4 K=3 Q=2 J=1.
const HCP_BY_RANK: [u8; 13] = [4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// High-card points (A=4, K=3, Q=2, J=1), 0..=37.
///
/// ```
/// let d: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse().unwrap();
/// assert_eq!(dealdex::features::hcp(d.hand(dealdex::Seat::North)), 10);
/// ```
pub fn hcp(hand: Hand) -> u8 {
    Suit::ALL
        .iter()
        .map(|&s| {
            let m = hand.suit_mask(s);
            (0..4)
                .map(|r| HCP_BY_RANK[r] * ((m >> r) & 1) as u8)
                .sum::<u8>()
        })
        .sum()
}

/// Suit lengths in suited order ♠ ♥ ♦ ♣, each 0..=13, summing to the hand's size.
pub fn suit_lengths(hand: Hand) -> [u8; 4] {
    Suit::ALL.map(|s| hand.suit_len(s) as u8)
}

/// Controls: A=2, K=1, 0..=12.
pub fn controls(hand: Hand) -> u8 {
    Suit::ALL
        .iter()
        .map(|&s| {
            let m = hand.suit_mask(s);
            2 * (m & 1) as u8 + ((m >> 1) & 1) as u8
        })
        .sum()
}

/// A hand's shape: its four suit lengths in suited order (♠ ♥ ♦ ♣).
///
/// `Display` gives the sorted shape `5-4-3-1`; [`Shape::pattern`] the exact pattern in suit
/// order, e.g. `5431` for 5 spades, 4 hearts, 3 diamonds and 1 club.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape(pub [u8; 4]);

impl Shape {
    /// The shape of `hand`.
    pub fn of(hand: Hand) -> Shape {
        Shape(suit_lengths(hand))
    }

    /// The lengths sorted longest first, e.g. `[5, 4, 3, 1]`.
    pub fn sorted(&self) -> [u8; 4] {
        let mut s = self.0;
        s.sort_unstable_by(|a, b| b.cmp(a));
        s
    }

    /// The exact pattern in suit order as a number written with one digit a suit (a 10+ card
    /// suit takes two digits): 5 spades, 4 hearts, 3 diamonds, 1 club → `"5431"`.
    pub fn pattern(&self) -> String {
        self.0.iter().map(|l| l.to_string()).collect()
    }

    /// Balanced: 4-3-3-3, 4-4-3-2 or 5-3-3-2.
    pub fn is_balanced(&self) -> bool {
        matches!(self.sorted(), [4, 3, 3, 3] | [4, 4, 3, 2] | [5, 3, 3, 2])
    }

    /// Semi-balanced: balanced, or 5-4-2-2 or 6-3-2-2 (no singleton or void, at most two
    /// doubletons).
    pub fn is_semi_balanced(&self) -> bool {
        self.is_balanced() || matches!(self.sorted(), [5, 4, 2, 2] | [6, 3, 2, 2])
    }
}

impl fmt::Display for Shape {
    /// The sorted shape, e.g. `5-4-3-1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.sorted();
        write!(f, "{}-{}-{}-{}", s[0], s[1], s[2], s[3])
    }
}

/// Losing-trick count (basic LTC), 0..=12: in each suit, among its top min(length, 3) cards,
/// count the missing A, K, Q (a singleton counts only a missing ace, a doubleton a missing A
/// and K; a void counts 0).
pub fn losing_trick_count(hand: Hand) -> u8 {
    Suit::ALL
        .iter()
        .map(|&s| {
            let m = hand.suit_mask(s);
            let len = m.count_ones() as u8;
            let top = len.min(3);
            // The honours A, K, Q among positions 0..top that are held.
            let held = (0..top).filter(|&r| (m >> r) & 1 == 1).count() as u8;
            top - held
        })
        .sum()
}

/// The longest suit and its length; ties go to the higher-ranking suit (♠ first).
pub fn longest_suit(hand: Hand) -> (Suit, u8) {
    let l = suit_lengths(hand);
    let mut best = 0;
    for i in 1..4 {
        if l[i] > l[best] {
            best = i;
        }
    }
    (Suit::from_index(best), l[best])
}

/// A partnership: North–South or East–West.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// North and South.
    NorthSouth,
    /// East and West.
    EastWest,
}

impl Side {
    /// The two seats of the side.
    pub const fn seats(self) -> [Seat; 2] {
        match self {
            Side::NorthSouth => [Seat::North, Seat::South],
            Side::EastWest => [Seat::East, Seat::West],
        }
    }
}

/// The combined HCP of a side, 0..=40.
pub fn side_hcp(deal: &Deal, side: Side) -> u8 {
    side.seats().iter().map(|&s| hcp(deal.hand(s))).sum()
}

/// The side's combined length in `suit` (its fit), 0..=13.
pub fn fit(deal: &Deal, side: Side, suit: Suit) -> u8 {
    side.seats()
        .iter()
        .map(|&s| deal.hand(s).suit_len(suit) as u8)
        .sum()
}
