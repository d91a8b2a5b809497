//! GIB's solved-deal library `library.dat` (M. Ginsberg's GIB; read by dealer's `-l` since Hans
//! van Staveren's dealer, and by suokko's dealer, whose `Examples/library.dat` is a 100-deal
//! sample and whose `genddslib` writes the format from DDS). 26 bytes a deal, no header, all
//! numbers big-endian ("network byte order" in dealer's source):
//!
//! | offset | bytes | content |
//! |---|---|---|
//! | 0 | 4 × 4 | one 32-bit word a suit, in the order ♣ ♦ ♥ ♠; in a word, bits `2k`..`2k+1` (from the least significant) hold the seat of the suit's `k`-th card from the top (ace `k = 0` … deuce `k = 12`): 0 = N, 1 = E, 2 = S, 3 = W; bits 26–31 are zero |
//! | 16 | 5 × 2 | one 16-bit word a strain, in the order NT ♣ ♦ ♥ ♠; nibble `j` (bits `4j`..`4j+3`) is for the opening leader `j` (0 = N, 1 = E, 2 = S, 3 = W), so for the declarer on the leader's right (W, N, E, S): East–West's double-dummy tricks |
//!
//! Every count is East–West's: North or South declaring takes 13 minus the nibble. Hans van
//! Staveren's and Henk Uijterwaal's dealer read it so (`true_dd`: `get_tricks((l + 1) % 4,
//! (c + 1) % 5)`, the nibble of the seat after declarer `l`, then "the number of tricks EW
//! can get. If the user wanted NS, we have to subtract 13"). suokko's dealer turns each word
//! the other way (`rotl(…, 4)`, the nibble of the seat before declarer), so its `tricks()`
//! on a library deal gives the partner's count; the 100-deal sample agrees with dealdex's
//! solver read as the original dealer reads it (`tests/it/libraries.rs`). The records carry
//! no board number, dealer or vulnerability.

use super::bri::read_record_boards;
use super::stream::Chunking;
use super::{Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions};
use crate::dd::TrickTable;
use crate::model::card::Seat;
use crate::model::deal::{Deal, Hand};

/// GIB's `library.dat`: 26 bytes a deal, the deal and its 20 double-dummy trick counts (see
/// the module documentation for the layout). Every board read carries its table
/// ([`Board::dd`]); writing needs one on every board.
pub struct GibLibrary;

static INFO: FormatInfo = FormatInfo::new(
    "gib-library",
    &["dat"],
    "GIB's solved-deal library library.dat, 26 bytes a deal with its DD table",
)
.cut(Chunking::Records(RECORD));

/// Bytes a record.
const RECORD: usize = 26;

/// Bytes of the four suit words.
const CARDS: usize = 16;

/// Suit words in file order (♣ ♦ ♥ ♠) as dealdex's suit index (♠ = 0 … ♣ = 3).
const SUIT_OF_WORD: [usize; 4] = [3, 2, 1, 0];

/// Strain words in file order (NT ♣ ♦ ♥ ♠) as [`crate::dd::DD_STRAINS`] indices (NT ♠ ♥ ♦ ♣).
const STRAIN_OF_WORD: [usize; 5] = [0, 4, 3, 2, 1];

/// A strain word's nibbles from the most significant: the leaders W, S, E, N, so the
/// declarers S, E, N, W.
const DECLARER_OF_NIBBLE: [Seat; 4] = [Seat::South, Seat::East, Seat::North, Seat::West];

/// The declarer's tricks from East–West's count (and back: the map is its own inverse).
fn declarer_tricks(declarer: Seat, east_west: u8) -> u8 {
    match declarer {
        Seat::North | Seat::South => 13 - east_west,
        Seat::East | Seat::West => east_west,
    }
}

/// Decodes one record; `r` is its 1-based number, `start` its offset in the file.
fn decode(rec: &[u8; RECORD], r: usize, start: u64) -> Result<Board, Error> {
    let at = |offset: usize| InputPosition::at_record(r, start + offset as u64);
    let mut masks = [0u64; 4];
    for (w, word) in rec[..CARDS].chunks_exact(4).enumerate() {
        let bits = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        if bits >> 26 != 0 {
            return Err(Error::malformed(
                at(w * 4),
                format!(
                    "suit word {bits:#010x}: bits 26–31 are not zero (expected 13 cards of 2 \
                     bits, ace lowest)"
                ),
            ));
        }
        for k in 0..13 {
            let seat = (bits >> (2 * k)) & 3;
            let card = SUIT_OF_WORD[w] * 13 + k;
            masks[seat as usize] |= 1u64 << card;
        }
    }
    let deal = Deal::new(masks.map(Hand::from_mask))
        .map_err(|e| Error::not_a_deal(at(0), format!("not a deal: {e}")))?;
    let mut tricks = [[0u8; 5]; 4];
    for (w, word) in rec[CARDS..RECORD].chunks_exact(2).enumerate() {
        let bits = u16::from_be_bytes([word[0], word[1]]);
        for (n, declarer) in DECLARER_OF_NIBBLE.iter().enumerate() {
            let east_west = ((bits >> (12 - 4 * n)) & 0xF) as u8;
            if east_west > 13 {
                return Err(Error::malformed(
                    at(CARDS + 2 * w + n / 2),
                    format!(
                        "{east_west} tricks for East–West with {declarer} declaring (expected \
                         0..13)"
                    ),
                ));
            }
            tricks[*declarer as usize][STRAIN_OF_WORD[w]] = declarer_tricks(*declarer, east_west);
        }
    }
    // Every count is 0..=13 here.
    let table = TrickTable::new(tricks).map_err(|e| Error::malformed(at(CARDS), e.to_string()))?;
    Ok(Board {
        dd: Some(table),
        ..Board::unnumbered(deal)
    })
}

/// Encodes one record: the deal and `table`.
fn encode(deal: &Deal, table: &TrickTable, out: &mut Vec<u8>) {
    let codes = deal.seat_codes();
    let mut words = [0u32; 4];
    for (w, word) in words.iter_mut().enumerate() {
        let suit = SUIT_OF_WORD[w];
        for k in 0..13 {
            *word |= u32::from(codes[suit * 13 + k]) << (2 * k);
        }
    }
    for word in words {
        out.extend_from_slice(&word.to_be_bytes());
    }
    let rows = table.rows();
    for strain in STRAIN_OF_WORD {
        let mut bits = 0u16;
        for (n, declarer) in DECLARER_OF_NIBBLE.iter().enumerate() {
            let tricks = rows[*declarer as usize][strain];
            bits |= u16::from(declarer_tricks(*declarer, tricks)) << (12 - 4 * n);
        }
        out.extend_from_slice(&bits.to_be_bytes());
    }
}

impl DealFormat for GibLibrary {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads 26-byte records, each a deal with its table; boards are unnumbered.
    ///
    /// # Errors
    /// `Record(r, offset)`: a truncated last record, a suit word with its top bits set, hands
    /// that are not a deal, a trick count above 13.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        read_record_boards::<RECORD>(data, decode)
    }

    /// Every board needs its double-dummy table.
    fn check_boards(&self, boards: &[Board], _opts: &WriteOptions) -> Result<(), Error> {
        super::check_tables(&INFO, boards)
    }

    /// Writes one 26-byte record. A board without a table (which
    /// [`DealFormat::check_boards`] refuses) is written with none of its bytes.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        if let Some(table) = &b.dd {
            encode(&b.deal, table, out);
        }
    }
}
