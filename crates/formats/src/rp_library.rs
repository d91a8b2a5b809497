//! Richard Pavlicek's solved-deal library `rpdd.zrd` ("Random Solved Deals", rpbridge.net
//! `rsd.txt`: 10,485,760 deals), which DealerV2 reads with `-L` (J. G. Morse's DealerV2 and
//! Show_RP_DB, whose `rpdd_10First.zrd` and `rpdd_10Last.zrd` hold its first and last ten
//! deals). 23 bytes (184 bits) a deal, no header; bits are numbered from the least
//! significant bit of byte 0 (bit 8 is the least significant of byte 1), as `rsd.txt`'s
//! "Bitmap" column and DealerV2's bit fields count them:
//!
//! | bits | content |
//! |---|---|
//! | 0–103 | the 52 cards in the order ♠A ♠K … ♠2, ♥A … ♥2, ♦A … ♦2, ♣A … ♣2, 2 bits each: 00 = West, 01 = North, 10 = East, 11 = South |
//! | 104–183 | five strains in the order NT ♠ ♥ ♦ ♣, 16 bits each: the double-dummy tricks (0–13) West, North, East, South make as declarer, 4 bits each |
//!
//! So byte 0's low two bits are ♠A's seat, and each strain is two bytes: West in the low
//! nibble of the first, North in its high nibble, East and South likewise in the second.
//!
//! DealerV2 also writes *title records* into its own `.zrd` files: 23 bytes whose first
//! 28 bits are zero (which would give the first 14 cards to West) and whose last 19 hold a
//! piece of a title. They hold no deal: the reader skips them (each reported as a skipped
//! record) and the writer writes none.

use super::bri::take_each_record;
use super::stream::Chunking;
use super::{Board, DealFormat, Error, FileBoards, FormatInfo, InputPosition, WriteOptions};
use crate::dd::TrickTable;
use crate::model::card::Seat;
use crate::model::deal::{Deal, Hand};

/// Pavlicek's RP `.zrd` library: 23 bytes a deal, the deal and its 20 double-dummy trick
/// counts (see the module documentation for the layout). Every board read carries its table
/// ([`Board::dd`]); writing needs one on every board.
pub struct RpLibrary;

static INFO: FormatInfo = FormatInfo::new(
    "rp-library",
    &["zrd"],
    "Pavlicek's RP solved-deal library (.zrd, DealerV2 -L), 23 bytes a deal with its DD table",
)
.cut(Chunking::Records(RECORD));

/// Bytes a record.
const RECORD: usize = 23;

/// Bytes of the 52 card owners.
const CARDS: usize = 13;

/// The seat of each 2-bit code: 00 = W, 01 = N, 10 = E, 11 = S.
const SEAT_OF_CODE: [Seat; 4] = [Seat::West, Seat::North, Seat::East, Seat::South];

/// The 4-bit trick counts of a strain in file order: W, N, E, S.
const DECLARER_OF_NIBBLE: [Seat; 4] = [Seat::West, Seat::North, Seat::East, Seat::South];

/// The reason given for a skipped title record.
const TITLE_RECORD: &str = "a DealerV2 title record (its first 28 bits zero): no deal";

/// The 2-bit code of `seat` (the inverse of [`SEAT_OF_CODE`]).
fn code_of(seat: Seat) -> u8 {
    match seat {
        Seat::West => 0,
        Seat::North => 1,
        Seat::East => 2,
        Seat::South => 3,
    }
}

/// True for DealerV2's title records: the first 28 bits (14 cards' owners) zero.
fn is_title(rec: &[u8]) -> bool {
    rec.first_chunk::<4>()
        .is_some_and(|b| b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] & 0x0F == 0)
}

/// Decodes one record; `r` is its 1-based number, `start` its offset in the file.
fn decode(rec: &[u8; RECORD], r: usize, start: u64) -> Result<Board, Error> {
    let at = |offset: usize| InputPosition::at_record(r, start + offset as u64);
    let mut masks = [0u64; 4];
    for card in 0..52 {
        let code = (rec[card / 4] >> (2 * (card % 4))) & 3;
        masks[SEAT_OF_CODE[code as usize] as usize] |= 1u64 << card;
    }
    let deal = Deal::new(masks.map(Hand::from_mask))
        .map_err(|e| Error::not_a_deal(at(0), format!("not a deal: {e}")))?;
    let mut tricks = [[0u8; 5]; 4];
    for (strain, name) in crate::dd::DD_STRAINS.iter().enumerate() {
        for (n, declarer) in DECLARER_OF_NIBBLE.iter().enumerate() {
            let byte = CARDS + 2 * strain + n / 2;
            let t = (rec[byte] >> (4 * (n % 2))) & 0xF;
            if t > 13 {
                return Err(Error::malformed(
                    at(byte),
                    format!("{t} tricks for {declarer} declaring in {name} (expected 0..13)"),
                ));
            }
            tricks[*declarer as usize][strain] = t;
        }
    }
    let table = TrickTable::new(tricks).map_err(|e| Error::malformed(at(CARDS), e.to_string()))?;
    Ok(Board {
        dd: Some(table),
        ..Board::unnumbered(deal)
    })
}

/// Encodes one record: the deal and `table`.
fn encode(deal: &Deal, table: &TrickTable, out: &mut Vec<u8>) {
    let mut rec = [0u8; RECORD];
    for (card, &seat) in deal.seat_codes().iter().enumerate() {
        rec[card / 4] |= code_of(Seat::from_index(seat as usize)) << (2 * (card % 4));
    }
    let rows = table.rows();
    for strain in 0..5 {
        for (n, declarer) in DECLARER_OF_NIBBLE.iter().enumerate() {
            rec[CARDS + 2 * strain + n / 2] |= rows[*declarer as usize][strain] << (4 * (n % 2));
        }
    }
    out.extend_from_slice(&rec);
}

impl DealFormat for RpLibrary {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads 23-byte records, each a deal with its table (boards unnumbered), skipping
    /// DealerV2's title records.
    ///
    /// # Errors
    /// `Record(r, offset)`: a truncated last record, hands that are not a deal, a trick count
    /// above 13.
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        let mut read = FileBoards {
            boards: Vec::with_capacity(data.len() / RECORD),
            ..FileBoards::default()
        };
        take_each_record::<RECORD>(data, |rec, r, start| {
            if is_title(rec) {
                read.skip(None, None, TITLE_RECORD);
            } else {
                read.boards.push(decode(rec, r, start)?);
            }
            Ok(())
        })?;
        Ok(read)
    }

    /// Every board needs its double-dummy table.
    fn check_boards(&self, boards: &[Board], _opts: &WriteOptions) -> Result<(), Error> {
        super::check_tables(&INFO, boards)
    }

    /// Writes one 23-byte record. A board without a table (which
    /// [`DealFormat::check_boards`] refuses) is written with none of its bytes.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        if let Some(table) = &b.dd {
            encode(&b.deal, table, out);
        }
    }
}
