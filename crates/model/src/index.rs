//! The 13-byte deal index and its 26-hex-character external form (FORMATS.md §2, seed 000 §2).
//!
//! One byte per rank, ace first. Each card's seat takes two bits, coded
//! **0 = South, 1 = West, 2 = North, 3 = East**; byte `r` is
//! `(S | H << 2) << 4 | (D | C << 2)` for the four cards of rank `r`. The bytes read as
//! big-endian hex give the external string, so SQLite's `hex(key)` prints it back.
//! An optional `-X` suffix (or `X-` prefix) holds one hex digit, the board number mod 16,
//! which fixes dealer and vulnerability by FORMATS.md §3.

use std::fmt;

use crate::board::{Vulnerability, board_dealer, board_vulnerability};
use crate::card::{Card, Seat};
use crate::deal::Deal;
use crate::error::{Error, ErrorKind};

/// The 13-byte index of a deal: a full-information key, unique per deal, ordered as the
/// hex strings are (FORMATS.md §2).
///
/// ```
/// use dealdex::{Deal, DealIndex};
/// let deal: Deal = "N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76"
///     .parse()
///     .unwrap();
/// let index = DealIndex::from_deal(&deal);
/// assert_eq!(index.to_string(), "0EDCCBA0976F2DA4945D8E9DC0");
/// assert_eq!(index.to_deal().unwrap(), deal);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DealIndex(pub [u8; 13]);

/// The two-bit seat code of FORMATS.md §2, by dealdex seat number (N, E, S, W).
const SEAT_CODE: [u8; 4] = [2, 3, 0, 1];
/// The dealdex seat number of each two-bit code (0 = S, 1 = W, 2 = N, 3 = E).
const CODE_SEAT: [u8; 4] = [2, 3, 0, 1];

/// `SPREAD7[x]` has bit j of the 7-bit `x` at bit 0 of byte j.
const SPREAD7: [u64; 128] = {
    let mut t = [0u64; 128];
    let mut x = 0;
    while x < 128 {
        let mut j = 0;
        while j < 7 {
            t[x] |= ((x as u64 >> j) & 1) << (8 * j);
            j += 1;
        }
        x += 1;
    }
    t
};

/// Ok when each of the four hand masks (N, E, S, W) holds 13 cards.
///
/// # Errors
/// [`ErrorKind::IndexWrongCount`] naming the first seat (in N, E, S, W order) that does not.
fn thirteen_each(hands: &[u64; 4]) -> Result<(), Error> {
    for (i, m) in hands.iter().enumerate() {
        let count = m.count_ones() as usize;
        if count != 13 {
            return Err(ErrorKind::IndexWrongCount {
                seat: Seat::from_index(i),
                count,
            }
            .into());
        }
    }
    Ok(())
}

impl DealIndex {
    /// Encodes a deal. Total: every deal has exactly one index.
    pub fn from_deal(deal: &Deal) -> DealIndex {
        // Bit 0 of a seat code is set for W and E, bit 1 for N and E.
        let hands = deal.hands();
        let lo = hands[1].mask() | hands[3].mask();
        let hi = hands[0].mask() | hands[1].mask();
        // Each suit's 13 bits (bit r = rank r) spread to bit 0 of byte r, then shifted to the
        // suit's place in the byte: ♠ bits 4-5, ♥ 6-7, ♦ 0-1, ♣ 2-3.
        let spread = |m: u64, suit: usize| -> u128 {
            let f = m >> (13 * suit);
            SPREAD7[(f & 0x7F) as usize] as u128 | (SPREAD7[(f >> 7 & 0x3F) as usize] as u128) << 56
        };
        let mut v = 0u128;
        for (suit, shift) in [(0, 4), (1, 6), (2, 0), (3, 2)] {
            v |= (spread(lo, suit) | spread(hi, suit) << 1) << shift;
        }
        let bytes = v.to_le_bytes();
        let mut out = [0u8; 13];
        out.copy_from_slice(&bytes[..13]);
        DealIndex(out)
    }

    /// Decodes the 13 bytes into a deal.
    ///
    /// # Errors
    /// [`ErrorKind::IndexWrongCount`] when the bytes do not give each seat 13 cards.
    pub fn to_deal(&self) -> Result<Deal, Error> {
        // Bit `shift` of every byte, bytes 0..13, as 13 contiguous bits: bit r from byte r.
        // The multiplication gathers bit 0 of each of 8 bytes into the top byte (the partial
        // products land on distinct bits, so nothing carries).
        let gather8 =
            |x: u64| (x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        let mut bytes = [0u8; 16];
        bytes[..13].copy_from_slice(&self.0);
        let v = u128::from_le_bytes(bytes);
        let (low, high) = (v as u64, (v >> 64) as u64);
        let gather13 = |shift: u32| gather8(low >> shift) | gather8(high >> shift) << 8;
        let (mut lo, mut hi) = (0u64, 0u64);
        // Suited order ♠ ♥ ♦ ♣; each suit's two code bits sit at this shift in the byte.
        for (suit, shift) in [4u32, 6, 0, 2].into_iter().enumerate() {
            lo |= gather13(shift) << (13 * suit);
            hi |= gather13(shift + 1) << (13 * suit);
        }
        // Codes: 0 = S, 1 = W, 2 = N, 3 = E (CODE_SEAT).
        const FULL: u64 = (1 << 52) - 1;
        let hands = [hi & !lo, hi & lo, !hi & !lo & FULL, lo & !hi];
        thirteen_each(&hands)?;
        // The four masks split the 52 cards (one seat code a card) and hold 13 each.
        Ok(Deal::from_masks_unchecked(hands))
    }

    /// The 13 bytes.
    pub const fn as_bytes(&self) -> &[u8; 13] {
        &self.0
    }

    /// Writes the 26 uppercase hex characters into `out`.
    pub fn write_hex(&self, out: &mut [u8; 26]) {
        const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
        for (i, &b) in self.0.iter().enumerate() {
            out[2 * i] = DIGITS[(b >> 4) as usize];
            out[2 * i + 1] = DIGITS[(b & 15) as usize];
        }
    }

    /// Parses exactly 26 hex characters (either case), with no suffix.
    ///
    /// # Errors
    /// [`ErrorKind::IndexLength`] or [`ErrorKind::IndexNotHex`] (with its 1-based column).
    /// The cards are not checked here: see [`DealIndex::to_deal`].
    pub fn parse_hex(s: &str) -> Result<DealIndex, Error> {
        parse_hex_at(s, 1)
    }

    /// The seed 000 two-bit seat code (0 = S, 1 = W, 2 = N, 3 = E) of a dealdex seat.
    pub const fn seat_code(seat: Seat) -> u8 {
        SEAT_CODE[seat as usize]
    }

    /// The seat of `card` according to this index.
    pub fn seat_of(&self, card: Card) -> Seat {
        let r = card.index() % 13;
        let shift = [4, 6, 0, 2][card.index() / 13];
        Seat::from_index(CODE_SEAT[(self.0[r] >> shift & 3) as usize] as usize)
    }
}

/// [`DealIndex::parse_hex`] of `s`, whose first character is at the 1-based column
/// `first_column` of the caller's text.
fn parse_hex_at(s: &str, first_column: usize) -> Result<DealIndex, Error> {
    let n = s.chars().count();
    if n != 26 {
        return Err(ErrorKind::IndexLength {
            found: n,
            column: first_column + n.min(26),
        }
        .into());
    }
    let mut out = [0u8; 13];
    for (i, c) in s.chars().enumerate() {
        let v = c.to_digit(16).ok_or_else(|| ErrorKind::IndexNotHex {
            column: first_column + i,
            found: c,
        })? as u8;
        out[i / 2] |= if i % 2 == 0 { v << 4 } else { v };
    }
    Ok(DealIndex(out))
}

impl fmt::Display for DealIndex {
    /// 26 uppercase hex characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 26];
        self.write_hex(&mut buf);
        f.write_str(std::str::from_utf8(&buf).expect("ascii"))
    }
}

/// A board's index: its deal's index with the optional board digit (board number mod 16,
/// which gives dealer and vulnerability), the full external form
/// `XXXXXXXXXXXXXXXXXXXXXXXXXX[-X]` of FORMATS.md §2.
///
/// ```
/// use dealdex::{BoardIndex, Seat, Vulnerability};
/// let h: BoardIndex = "0EDCCBA0976F2DA4945D8E9DC0-0".parse().unwrap();
/// assert_eq!(h.dealer(), Some(Seat::West));          // 0 = board 16
/// assert_eq!(h.vulnerability(), Some(Vulnerability::EastWest));
/// assert_eq!(h.to_string(), "0EDCCBA0976F2DA4945D8E9DC0-0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardIndex {
    /// The deal's 13-byte index.
    pub index: DealIndex,
    /// Board number mod 16 (0..16; 0 stands for board 16), when the suffix is present.
    pub cycle: Option<u8>,
}

impl BoardIndex {
    /// The index of `deal` with the suffix for `board` (1-based), or none.
    pub fn new(deal: &Deal, board: Option<u64>) -> BoardIndex {
        BoardIndex {
            index: DealIndex::from_deal(deal),
            cycle: board.map(|b| (b % 16) as u8),
        }
    }

    /// The dealer the suffix fixes, if present.
    pub fn dealer(&self) -> Option<Seat> {
        self.cycle.map(|c| board_dealer(c as u64))
    }

    /// The vulnerability the suffix fixes, if present.
    pub fn vulnerability(&self) -> Option<Vulnerability> {
        self.cycle.map(|c| board_vulnerability(c as u64))
    }
}

impl std::str::FromStr for BoardIndex {
    type Err = Error;

    /// Parses `HEX26`, `HEX26-X` or `X-HEX26` (hex digits in either case, surrounding white
    /// space ignored). Errors name the 1-based column of a bad character. The cards are not
    /// checked here: see [`DealIndex::to_deal`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lead = s.len() - s.trim_start().len();
        let t = s.trim();
        let digit = |c: char, column: usize| {
            c.to_digit(16)
                .map(|v| v as u8)
                .ok_or_else(|| Error::from(ErrorKind::IndexNotHex { column, found: c }))
        };
        let bytes = t.as_bytes();
        let n = t.chars().count();
        if n == 28 && bytes.len() == 28 && bytes[26] == b'-' {
            let index = parse_hex_at(&t[..26], lead + 1)?;
            let cycle = digit(t[27..].chars().next().expect("len 28"), lead + 28)?;
            return Ok(BoardIndex {
                index,
                cycle: Some(cycle),
            });
        }
        if n == 28 && bytes.len() == 28 && bytes[1] == b'-' {
            let cycle = digit(bytes[0] as char, lead + 1)?;
            let index = parse_hex_at(&t[2..], lead + 3)?;
            return Ok(BoardIndex {
                index,
                cycle: Some(cycle),
            });
        }
        if n == 26 {
            return Ok(BoardIndex {
                index: parse_hex_at(t, lead + 1)?,
                cycle: None,
            });
        }
        // The longest `-`-separated part is taken for the index: the error is at its 27th
        // character, or just after it when it is short.
        let (mut found, mut start, mut column) = (0, lead + 1, lead + 1);
        for part in t.split('-') {
            let len = part.chars().count();
            if len > found {
                (found, start) = (len, column);
            }
            column += len + 1;
        }
        Err(ErrorKind::IndexLength {
            found,
            column: start + found.min(26),
        }
        .into())
    }
}

impl fmt::Display for BoardIndex {
    /// `HEX26` or `HEX26-X` (uppercase; the trailing form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.index)?;
        if let Some(c) = self.cycle {
            write!(f, "-{:X}", c)?;
        }
        Ok(())
    }
}

/// Reads a deal given as one argument: a hex index (26 hex digits, with an optional `-X` or
/// `X-` board suffix) or a PBN deal string (any text with a `:`). The board number is the
/// one a hex index's suffix implies (1..=16: the same dealer and vulnerability as the real
/// board; suffix `0` is board 16), `None` for a deal string or an index without suffix.
///
/// `None` when the text is neither (it may be a file name or a hand-record number).
///
/// ```
/// use dealdex::parse_deal_argument;
/// let (deal, board) = parse_deal_argument("0EDCCBA0976F2DA4945D8E9DC0-0").unwrap()?;
/// assert_eq!(board, Some(16));
/// let (same, none) = parse_deal_argument(&deal.to_string()).unwrap()?;
/// assert_eq!((same, none), (deal, None));
/// assert!(parse_deal_argument("boards.pbn").is_none());
/// assert!(parse_deal_argument("N:AKQ").unwrap().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// An index's kind ([`ErrorKind::IndexLength`], [`ErrorKind::IndexNotHex`],
/// [`ErrorKind::IndexWrongCount`]) for a bad index, a deal string's ([`parse_deal`]) for a
/// bad deal string; the column is the argument's.
///
/// [`parse_deal`]: crate::deal_string::parse_deal
pub fn parse_deal_argument(text: &str) -> Option<Result<(Deal, Option<u64>), Error>> {
    let t = text.trim();
    let hexish = t.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    if hexish && (t.len() == 26 || t.len() == 28) {
        return Some((|| {
            let h = t.parse::<BoardIndex>()?;
            let board = h.cycle.map(|c| if c == 0 { 16 } else { u64::from(c) });
            Ok((h.index.to_deal()?, board))
        })());
    }
    if t.contains(':') {
        return Some(crate::deal_string::parse_deal(t).map(|d| (d, None)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Hand;
    use proptest::prelude::*;

    /// The decoding as FORMATS.md §2 states it, a card at a time: the reference for
    /// [`DealIndex::to_deal`].
    fn to_deal_card_by_card(index: &DealIndex) -> Result<Deal, Error> {
        let mut hands = [0u64; 4];
        for (r, &byte) in index.0.iter().enumerate() {
            let codes = [byte >> 4 & 3, byte >> 6 & 3, byte & 3, byte >> 2 & 3];
            for (suit, &code) in codes.iter().enumerate() {
                hands[CODE_SEAT[code as usize] as usize] |= 1 << (suit * 13 + r);
            }
        }
        thirteen_each(&hands)?;
        Ok(Deal::new(hands.map(Hand::from_mask)).expect("disjoint hands of 13 cards"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Any 13 bytes: the same deal or the same error as the card-by-card decoding.
        #[test]
        fn to_deal_matches_the_card_by_card_decoding(bytes in any::<[u8; 13]>()) {
            let index = DealIndex(bytes);
            prop_assert_eq!(index.to_deal(), to_deal_card_by_card(&index));
        }

        /// Every deal (from its hand-record number) comes back from its index.
        #[test]
        fn indices_of_deals_decode_to_them(n in 1u128..=crate::number::DEALS) {
            let deal = Deal::from_number(n, crate::number::Scheme::Pavlicek).unwrap();
            let index = DealIndex::from_deal(&deal);
            prop_assert_eq!(index.to_deal(), Ok(deal));
            prop_assert_eq!(to_deal_card_by_card(&index), Ok(deal));
        }
    }

    #[test]
    fn errors_name_the_column() {
        let refusal = |text: &str| text.parse::<BoardIndex>().unwrap_err().into_kind();
        let not_hex = |column, found| ErrorKind::IndexNotHex { column, found };
        let length = |found, column| ErrorKind::IndexLength { found, column };
        for (text, kind) in [
            ("0EDCCBA0976F2DA4945D8E9DCG", not_hex(26, 'G')),
            ("0EDCCBA0976F2DA4945D8E9DC", length(25, 26)),
            // Too long: the 27th character of the longest part (here after the `5-` prefix).
            (" 5-0EDCCBA0976F2DA4945D8E9DC00", length(27, 30)),
            ("0EDCCBA0976F2DA4945D8E9DC0-G", not_hex(28, 'G')),
            ("Z-0EDCCBA0976F2DA4945D8E9DC0", not_hex(1, 'Z')),
        ] {
            assert_eq!(refusal(text), kind, "{text}");
        }
        assert_eq!(
            refusal("0EDCCBA0976F2DA4945D8E9DC").to_string(),
            "deal index: column 26: found 25 characters, expected 26 hex digits (optionally \
             with -X)"
        );
        let e = DealIndex([0; 13]).to_deal().unwrap_err();
        assert_eq!(
            *e.kind(),
            ErrorKind::IndexWrongCount {
                seat: Seat::North,
                count: 0
            }
        );
    }

    #[test]
    fn leading_and_trailing_suffix() {
        let a: BoardIndex = "5-0edccba0976f2da4945d8e9dc0".parse().unwrap();
        let b: BoardIndex = "0EDCCBA0976F2DA4945D8E9DC0-5".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.dealer(), Some(Seat::North));
        assert_eq!(a.vulnerability(), Some(Vulnerability::NorthSouth));
    }
}
