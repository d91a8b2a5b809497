//! Hands and deals.

use std::fmt;

use crate::card::{Card, RANK_LETTERS, Seat, Suit};
use crate::error::{Error, ErrorKind};

/// A set of cards: bit `i` of the 52-bit mask is the card with suited-order number `i`
/// (♠A = bit 0 … ♣2 = bit 51).
///
/// ```
/// use dealdex::{Card, Hand};
/// let mut h = Hand::EMPTY;
/// h.insert(Card::from_index(0).unwrap());
/// assert_eq!(h.len(), 1);
/// assert_eq!(h.holding_string(dealdex::Suit::Spades), "A");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand(u64);

/// The mask of all 52 cards.
const FULL_DECK: u64 = (1 << 52) - 1;

impl Hand {
    /// The hand with no cards.
    pub const EMPTY: Hand = Hand(0);

    /// The hand with the given 52-bit mask; bits 52..64 are dropped.
    pub const fn from_mask(mask: u64) -> Hand {
        Hand(mask & FULL_DECK)
    }

    /// The 52-bit mask (bit `i` = card `i` in suited order).
    pub const fn mask(self) -> u64 {
        self.0
    }

    /// The number of cards, 0..=52.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when the hand holds no card.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the hand holds `card`.
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.index() & 1 == 1
    }

    /// Adds `card`; returns false when it was already there.
    pub fn insert(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 |= 1 << card.index();
        !had
    }

    /// Removes `card`; returns false when it was not there.
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.index());
        had
    }

    /// The cards in suited order (♠A first).
    pub fn cards(self) -> impl Iterator<Item = Card> {
        let mut m = self.0;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Card::from_index(i)
        })
    }

    /// The holding in `suit` as a 13-bit mask, bit 0 = ace … bit 12 = deuce.
    pub const fn suit_mask(self, suit: Suit) -> u16 {
        (self.0 >> (13 * suit as usize) & 0x1FFF) as u16
    }

    /// The number of cards held in `suit`, 0..=13.
    pub const fn suit_len(self, suit: Suit) -> usize {
        self.suit_mask(suit).count_ones() as usize
    }

    /// The holding in `suit` as rank letters from the ace down, e.g. `AQT2`; empty for a void.
    pub fn holding_string(self, suit: Suit) -> String {
        let mut s = String::with_capacity(13);
        push_holding(&mut s, self.suit_mask(suit));
        s
    }
}

/// Appends the rank letters of a 13-bit holding mask (bit 0 = ace), highest first.
pub fn push_holding(out: &mut String, mut mask: u16) {
    while mask != 0 {
        let r = mask.trailing_zeros() as usize;
        out.push(RANK_LETTERS[r] as char);
        mask &= mask - 1;
    }
}

impl fmt::Display for Hand {
    /// The PBN hand notation `S.H.D.C`, ranks descending, e.g. `AKQ.T9..AKQJT9876`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(16);
        for suit in Suit::ALL {
            if suit != Suit::Spades {
                s.push('.');
            }
            push_holding(&mut s, self.suit_mask(suit));
        }
        f.write_str(&s)
    }
}

/// A complete deal: 52 cards split 13/13/13/13 among North, East, South and West.
///
/// The constructors guarantee the invariant, so every `Deal` has a hand-record number
/// and a 13-byte index.
///
/// ```
/// use dealdex::{Deal, Seat};
/// let deal: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
///     .parse()
///     .unwrap();
/// assert_eq!(deal.hand(Seat::North).len(), 13);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    hands: [Hand; 4],
}

impl Deal {
    /// The deal where each seat holds one whole suit: North ♠, East ♥, South ♦, West ♣
    /// (suited order). A valid deal that costs nothing to make, e.g. to fill a buffer.
    ///
    /// ```
    /// use dealdex::{Deal, Seat, Suit};
    /// assert_eq!(Deal::BY_SUITS.hand(Seat::East).suit_len(Suit::Hearts), 13);
    /// ```
    pub const BY_SUITS: Deal = Deal {
        hands: [
            Hand(0x1fff),
            Hand(0x1fff << 13),
            Hand(0x1fff << 26),
            Hand(0x1fff << 39),
        ],
    };

    /// Builds a deal from four hands in N, E, S, W order.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateCard`] when two seats hold the same card (checked first), else
    /// [`ErrorKind::WrongCount`] naming the first seat without exactly 13 cards (neither with
    /// a column).
    pub fn new(hands: [Hand; 4]) -> Result<Deal, Error> {
        for (a, &ha) in hands.iter().enumerate() {
            for (b, &hb) in hands.iter().enumerate().skip(a + 1) {
                let both = ha.mask() & hb.mask();
                if both != 0 {
                    return Err(ErrorKind::DuplicateCard {
                        card: Card::from_index(both.trailing_zeros() as usize)
                            .expect("mask below 2^52"),
                        first: Seat::from_index(a),
                        second: Seat::from_index(b),
                        column: None,
                    }
                    .into());
                }
            }
        }
        for (i, h) in hands.iter().enumerate() {
            if h.len() != 13 {
                return Err(ErrorKind::WrongCount {
                    seat: Seat::from_index(i),
                    count: h.len(),
                    column: None,
                }
                .into());
            }
        }
        Ok(Deal { hands })
    }

    /// Builds a deal from the seat of each card in suited order.
    ///
    /// # Errors
    /// [`ErrorKind::WrongCount`] when a seat does not get exactly 13 cards.
    pub fn from_seats(seats: &[Seat; 52]) -> Result<Deal, Error> {
        let mut hands = [Hand::EMPTY; 4];
        for (i, s) in seats.iter().enumerate() {
            hands[s.index()].0 |= 1 << i;
        }
        Deal::new(hands)
    }

    /// Builds a deal from N, E, S, W card masks known to be a valid deal (checked in debug
    /// builds).
    pub fn from_masks_unchecked(masks: [u64; 4]) -> Deal {
        let hands = masks.map(Hand);
        debug_assert!(Deal::new(hands).is_ok());
        Deal { hands }
    }

    /// The hands in N, E, S, W order.
    pub const fn hands(&self) -> &[Hand; 4] {
        &self.hands
    }

    /// The hand of `seat`.
    pub const fn hand(&self, seat: Seat) -> Hand {
        self.hands[seat as usize]
    }

    /// The seat holding `card`.
    pub fn seat_of(&self, card: Card) -> Seat {
        let bit = 1u64 << card.index();
        let code = (self.hands[1].0 & bit != 0) as usize
            | ((self.hands[2].0 & bit != 0) as usize) << 1
            | ((self.hands[3].0 & bit != 0) as usize * 3);
        Seat::from_index(code)
    }

    /// Seat numbers (0 = N … 3 = W) of the 52 cards in suited order.
    pub fn seat_codes(&self) -> [u8; 52] {
        let mut out = [0u8; 52];
        for (seat, h) in self.hands.iter().enumerate().skip(1) {
            let mut m = h.0;
            while m != 0 {
                out[m.trailing_zeros() as usize] = seat as u8;
                m &= m - 1;
            }
        }
        out
    }

    /// A text diagram for the terminal, in the layout of seed 000 §3: North on top, West and
    /// East side by side, South below, each hand four lines ♠ ♥ ♦ ♣ (a void is `-`).
    ///
    /// ```
    /// # let deal: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse().unwrap();
    /// let d = deal.diagram();
    /// assert!(d.lines().next().unwrap().trim() == "♠ AKQJT98765432");
    /// ```
    pub fn diagram(&self) -> String {
        let line = |seat: Seat, suit: Suit| {
            let h = self.hand(seat).holding_string(suit);
            format!("{} {}", suit.symbol(), if h.is_empty() { "-" } else { &h })
        };
        let indent = " ".repeat(18);
        let mut out = String::new();
        for suit in Suit::ALL {
            out.push_str(&indent);
            out.push_str(&line(Seat::North, suit));
            out.push('\n');
        }
        for suit in Suit::ALL {
            let west = line(Seat::West, suit);
            let pad = 36usize.saturating_sub(west.chars().count());
            out.push_str(&west);
            out.push_str(&" ".repeat(pad));
            out.push_str(&line(Seat::East, suit));
            out.push('\n');
        }
        for suit in Suit::ALL {
            out.push_str(&indent);
            out.push_str(&line(Seat::South, suit));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_deal() -> Deal {
        Deal::new([
            Hand::from_mask(0x1FFF),
            Hand::from_mask(0x1FFF << 13),
            Hand::from_mask(0x1FFF << 26),
            Hand::from_mask(0x1FFF << 39),
        ])
        .unwrap()
    }

    #[test]
    fn constructor_names_seat_and_count() {
        let err = Deal::new([
            Hand::from_mask(0x1FFF),
            Hand::from_mask(0x0FFF << 13),
            Hand::from_mask(0x1FFF << 26),
            Hand::from_mask(0x1FFF << 39),
        ])
        .unwrap_err();
        assert_eq!(
            *err.kind(),
            ErrorKind::WrongCount {
                seat: Seat::East,
                count: 12,
                column: None
            }
        );
        assert_eq!(err.to_string(), "E holds 12 cards, expected 13");
        let err = Deal::new([
            Hand::from_mask(0x1FFF),
            Hand::from_mask(0x1FFF),
            Hand::from_mask(0x1FFF << 26),
            Hand::from_mask(0x1FFF << 39),
        ])
        .unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::DuplicateCard {
                first: Seat::North,
                second: Seat::East,
                ..
            }
        ));
    }

    #[test]
    fn seat_codes_round_trip() {
        let d = sorted_deal();
        let codes = d.seat_codes();
        assert_eq!(codes[0], 0);
        assert_eq!(codes[51], 3);
        assert_eq!(
            Deal::from_seats(&codes.map(|c| Seat::from_index(c as usize))).unwrap(),
            d
        );
        for c in Card::all() {
            assert_eq!(d.seat_of(c).index(), codes[c.index()] as usize);
        }
    }

    #[test]
    fn diagram_has_twelve_lines() {
        let d = sorted_deal().diagram();
        assert_eq!(d.lines().count(), 12);
        assert!(d.contains("♥ -"));
    }
}
