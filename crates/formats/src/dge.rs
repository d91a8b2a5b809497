//! DGE files, 128 bytes a board (FORMATS.md §6; Big Deal output.c `print_dge`), and the
//! 68-byte *DGE part* they share with Duplimate DUP records (FORMATS.md §5).
//!
//! The DGE part holds the hands of North, East, South and West, 17 bytes each: the CP437 suit
//! symbols 0x06 (♠), 0x03 (♥), 0x04 (♦), 0x05 (♣), each followed by that suit's ranks as the
//! uppercase letters `AKQJT98765432` (ten is `T`; `10` and lowercase are not accepted).
//! dealdex writes ranks descending and reads them in any order within a suit.
//!
//! A DGE record is the DGE part and 60 NUL bytes. On input the 60 padding bytes may hold
//! anything, but the file must be a whole number of 128-byte records. DGE files carry no
//! board numbers, dealers or vulnerabilities.

use super::bri::{PartRecords, part_bytes};
use super::{Error, FormatInfo, InputPosition};
use crate::model::card::{Card, RANK_LETTERS, Seat, Suit};
use crate::model::deal::{Deal, Hand};

/// DGE, 128 bytes a board (FORMATS.md §6): the 68-byte DGE part (N, E, S, W, each the suit
/// symbols 0x06 0x03 0x04 0x05 followed by rank letters `AKQJT98765432`), then 60 NUL bytes.
/// No board numbers (the caller numbers the boards). Streaming: every record stands alone.
///
/// Reading fails with [`InputPosition::at_record`] (record number, byte offset of the bad byte or of
/// the record) for a file whose length is not a multiple of 128 (`truncated record: N of 128
/// bytes`), a byte that is neither the expected suit symbol nor a rank letter, a card given
/// twice, or a hand without exactly 13 cards.
pub struct Dge;

/// The length of a DGE part: four hands of 4 suit symbols and 13 rank letters (FORMATS.md §5).
pub(crate) const DGE_PART_LEN: usize = 68;

/// The CP437 suit symbols in suited order: ♠ 0x06, ♥ 0x03, ♦ 0x04, ♣ 0x05.
const SYMBOLS: [u8; 4] = [0x06, 0x03, 0x04, 0x05];

/// For every byte: the rank's position in `AKQJT98765432` (0 = ace … 12 = deuce), or
/// [`NOT_A_RANK`].
const RANK_OF_BYTE: [u8; 256] = {
    let mut t = [NOT_A_RANK; 256];
    let mut i = 0;
    while i < 13 {
        t[RANK_LETTERS[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Marks a byte that is not a rank letter in [`RANK_OF_BYTE`].
const NOT_A_RANK: u8 = 0xFF;

const INFO: &FormatInfo =
    &FormatInfo::new("dge", &["dge"], "DGE, 128 bytes a board (FORMATS.md §6)").board_set();

/// Describes a byte for an error message: `'x' (0x78)` when printable, else `byte 0x06`.
fn show(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}' (0x{b:02X})", b as char)
    } else {
        format!("byte 0x{b:02X}")
    }
}

/// DGE records: the DGE part and 60 NULs (the frame is BRI's, see [`PartRecords`]).
impl PartRecords for Dge {
    const INFO: &'static FormatInfo = INFO;
    const SPACES: usize = 0;

    /// The DGE part of `deal` (FORMATS.md §5): for N, E, S, W the suit symbols 0x06 0x03 0x04
    /// 0x05, each followed by the suit's ranks descending (68 bytes, a deal's hands holding 13
    /// cards).
    fn push_part(deal: &Deal, out: &mut Vec<u8>) {
        for hand in deal.hands() {
            for (suit, &symbol) in Suit::ALL.iter().zip(&SYMBOLS) {
                out.push(symbol);
                let mut m = hand.suit_mask(*suit);
                while m != 0 {
                    out.push(RANK_LETTERS[m.trailing_zeros() as usize]);
                    m &= m - 1;
                }
            }
        }
    }

    /// Decodes a DGE part (its first 68 bytes; FORMATS.md §5) into a deal.
    ///
    /// `record` is the 1-based record number and `start` the file offset of the part's first
    /// byte; errors are at `InputPosition::at_record(record, offset of the bad byte)`, or of the hand's
    /// first byte for a hand without 13 cards.
    ///
    /// # Errors
    /// A byte that is neither the next suit symbol nor a rank letter, a card given twice, a
    /// hand without exactly 13 cards, or a part shorter than 68 bytes.
    fn decode_part(part: &[u8], record: usize, start: u64) -> Result<Deal, Error> {
        let part = part_bytes::<DGE_PART_LEN>(part, "DGE", record, start)?;
        let at = |pos: usize| InputPosition::at_record(record, start + pos as u64);
        let mut hands = [0u64; 4];
        let mut used = 0u64;
        let mut pos = 0usize;
        for seat in Seat::ALL {
            let hand_start = pos;
            for (s, suit) in Suit::ALL.iter().enumerate() {
                let symbol = SYMBOLS[s];
                match part.get(pos) {
                    Some(&b) if b == symbol => pos += 1,
                    found => {
                        let found =
                            found.map_or("the end of the DGE part".to_string(), |&b| show(b));
                        let before = if s > 0 || seat != Seat::North {
                            "a rank letter AKQJT98765432 or "
                        } else {
                            ""
                        };
                        return Err(Error::malformed(
                            at(pos),
                            format!(
                                "found {found} (expected {before}0x{symbol:02X}, the {} symbol \
                                 opening {}'s {})",
                                suit.symbol(),
                                seat.name(),
                                suit.name()
                            ),
                        ));
                    }
                }
                while let Some(&b) = part.get(pos) {
                    let r = RANK_OF_BYTE[usize::from(b)];
                    if r == NOT_A_RANK {
                        break;
                    }
                    let index = s * 13 + usize::from(r);
                    let bit = 1u64 << index;
                    if used & bit != 0 {
                        let card = Card::from_index(index)
                            .map(|c| c.to_string())
                            .unwrap_or_default();
                        return Err(Error::malformed(
                            at(pos),
                            format!(
                                "{}: card {card} is given twice (expected 52 different cards)",
                                seat.name()
                            ),
                        ));
                    }
                    used |= bit;
                    hands[seat.index()] |= bit;
                    if hands[seat.index()].count_ones() > 13 {
                        return Err(Error::malformed(
                            at(pos),
                            format!(
                                "{}: a 14th card (expected 13 cards a hand, then the next suit \
                                 symbol)",
                                seat.name()
                            ),
                        ));
                    }
                    pos += 1;
                }
            }
            let count = hands[seat.index()].count_ones();
            if count != 13 {
                return Err(Error::malformed(
                    at(hand_start),
                    format!("{} holds {count} cards (expected 13)", seat.name()),
                ));
            }
        }
        // Four hands of 13 cards and 4 symbols fill exactly the 68 bytes.
        Deal::new(hands.map(Hand::from_mask))
            .map_err(|e| Error::malformed(at(0), format!("{e} (expected a deal)")))
    }
}
