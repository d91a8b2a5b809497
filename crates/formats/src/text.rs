//! Text helpers the letter formats share (LIN, CSV, HRF, PBN, Borel, BER, …): `S…H…D…C…`
//! hands, holdings, decimal numbers, trimming, bytes shown in messages. The rank and suit
//! letters' classes, columns and characters of messages are the model's
//! (`crate::model::text`), which the PBN deal string codec uses too.

use crate::model::card::{RANK_LETTERS, Suit};
use crate::model::deal::Hand;
use crate::model::text::{CLASS, ONE, SUIT};

/// Appends the decimal digits of `n`.
pub(crate) fn push_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends a hand as `S.H.D.C`, ranks descending, a void empty (`KT2..AK86542.AK6`): PBN's
/// hand and dealer's `printoneline`/`printcompact` hand.
pub(crate) fn push_dotted_hand(out: &mut Vec<u8>, hand: Hand) {
    for suit in Suit::ALL {
        if suit != Suit::Spades {
            out.push(b'.');
        }
        push_holding(out, hand.suit_mask(suit));
    }
}

/// Appends the rank letters (`AKQJT98765432`) of a 13-bit holding, bit 0 = ace, highest first.
pub(crate) fn push_holding(out: &mut Vec<u8>, mut mask: u16) {
    while mask != 0 {
        out.push(RANK_LETTERS[mask.trailing_zeros() as usize]);
        mask &= mask - 1;
    }
}

/// Appends a hand as `S…H…D…C…` (every suit letter, ranks descending; FORMATS.md §8, §10).
pub(crate) fn push_letter_hand(out: &mut Vec<u8>, hand: Hand) {
    for (suit, letter) in Suit::ALL.into_iter().zip(*b"SHDC") {
        out.push(letter);
        push_holding(out, hand.suit_mask(suit));
    }
}

/// The suit index of a suit letter (`S`, `H`, `D`, `C`, either case).
pub(crate) fn suit_index(c: u8) -> Option<usize> {
    let k = CLASS[c as usize].wrapping_sub(SUIT);
    (k < 4).then_some(k as usize)
}

/// A problem in a text field: the 0-based byte offset and what was wrong.
#[derive(Debug)]
pub(crate) struct TextError {
    /// 0-based offset into the data given to the parser.
    pub offset: usize,
    /// What was found and what was expected.
    pub message: String,
}

/// A byte for an error message: the character for printable ASCII, else its hex value.
pub(crate) fn show_byte(c: u8) -> String {
    if c.is_ascii_graphic() || c == b' ' {
        format!("{:?}", c as char)
    } else {
        format!("byte 0x{c:02X}")
    }
}

/// Parses one hand written as suit letters each followed by its ranks (`S…H…D…C…`,
/// FORMATS.md §8 and §10) from `data[start..]`: ranks either case, `10` for the ten.
///
/// With `in_order`, suits must come S, H, D, C and a suit letter at or before the current suit
/// ends the hand (HRF, where hands follow one another without separator); otherwise suits
/// may come in any order. The hand also ends at the end of `data` or at the first byte that
/// is neither a suit letter nor a rank; the returned offset is where it ended (the caller
/// decides whether what follows is acceptable).
///
/// # Errors
/// A rank before any suit letter, or a card twice in the hand (offset of the offending byte).
pub(crate) fn parse_letter_hand(
    data: &[u8],
    start: usize,
    in_order: bool,
) -> Result<(Hand, usize), TextError> {
    let mut mask = 0u64;
    let mut suit = 4usize; // none yet
    let mut i = start;
    while let Some(&c) = data.get(i) {
        let k = CLASS[c as usize];
        let (r, len) = if k < 13 {
            (k as usize, 1)
        } else if (SUIT..SUIT + 4).contains(&k) {
            let s = (k - SUIT) as usize;
            if in_order && suit < 4 && s <= suit {
                break;
            }
            suit = s;
            i += 1;
            continue;
        } else if k == ONE && data.get(i + 1) == Some(&b'0') {
            (4, 2)
        } else {
            break;
        };
        if suit >= 4 {
            return Err(TextError {
                offset: i,
                message: format!(
                    "rank {} before any suit letter (expected S, H, D or C first)",
                    show_byte(c)
                ),
            });
        }
        let bit = 1u64 << (suit * 13 + r);
        if mask & bit != 0 {
            return Err(TextError {
                offset: i,
                message: format!(
                    "{}{} appears twice in one hand",
                    Suit::from_index(suit).letter(),
                    RANK_LETTERS[r] as char
                ),
            });
        }
        mask |= bit;
        i += len;
    }
    Ok((Hand::from_mask(mask), i))
}

/// Splits the ASCII white space off both ends of `v`: the rest and how many bytes led.
pub(crate) fn trim(v: &[u8]) -> (&[u8], usize) {
    let lead = v.iter().take_while(|c| c.is_ascii_whitespace()).count();
    let rest = &v[lead..];
    let tail = rest
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_whitespace())
        .count();
    (&rest[..rest.len() - tail], lead)
}
