//! CDS (FORMATS.md §9; Big Deal output.c): 14 bytes a board, the board number as one byte
//! (1..255) and the 13 KOPS rank bytes with seat codes W = 0, N = 1, E = 2, S = 3.

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};
use crate::formats::kops::{deal_from_rank_bytes, push_rank_bytes};
use crate::model::card::Seat;

/// CDS (FORMATS.md §9): per board a board-number byte (1..255) and 13 rank bytes coded as
/// KOPS's but with W = 0, N = 1, E = 2, S = 3. No header, no separators; boards above 255 do
/// not fit.
pub struct Cds;

static INFO: FormatInfo = FormatInfo {
    name: "cds",
    extensions: &["cds"],
    description: "CDS, board byte + 13 KOPS bytes (FORMATS.md §9)",
    board_numbers: true,
    max_board: Some(255),
    streaming: true,
};

/// CDS seat codes by dealdex seat (N, E, S, W): N = 1, E = 2, S = 3, W = 0.
const CDS_CODES: [u8; 4] = [1, 2, 3, 0];
/// The dealdex seat of each CDS code.
const CDS_SEATS: [Seat; 4] = [Seat::West, Seat::North, Seat::East, Seat::South];
/// Bytes a record.
const RECORD: usize = 14;

impl DealFormat for Cds {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads 14-byte records; each board gets its number from the first byte.
    ///
    /// # Errors
    /// `Record(r, offset)` for a truncated record, a board byte 0, or bytes that are not a
    /// deal.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, FormatError> {
        let mut boards = Vec::with_capacity(data.len() / RECORD);
        for (i, rec) in data.chunks(RECORD).enumerate() {
            let at = Location::Record(i + 1, (i * RECORD) as u64);
            if rec.len() < RECORD {
                return Err(FormatError::truncated(
                    at,
                    format!("truncated record: {} of 14 bytes", rec.len()),
                ));
            }
            if rec[0] == 0 {
                return Err(FormatError::new(
                    at,
                    "board number 0 (expected a board byte 1..255)",
                ));
            }
            let deal = deal_from_rank_bytes(&rec[1..], CDS_SEATS)
                .map_err(|e| FormatError::not_a_deal(at, format!("not a deal: {e}")))?;
            boards.push(Board::new(u64::from(rec[0]), deal));
        }
        Ok(boards)
    }

    /// Writes 14 bytes a board.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        out.push(b.number.unwrap_or(0) as u8);
        push_rank_bytes(out, &b.deal, CDS_CODES);
    }
}
