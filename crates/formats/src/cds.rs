//! CDS (FORMATS.md §9; Big Deal output.c `print_cds`): 14 bytes a board, the board number
//! mod 256 as one byte and the 13 KOPS rank bytes with seat codes W = 0, N = 1, E = 2, S = 3.

use super::{
    Board, DealFormat, Error, FileBoards, FormatInfo, InputPosition, ReadOptions, WriteOptions,
};
use crate::bri::take_each_record;
use crate::kops::{deal_from_rank_bytes, push_rank_bytes};
use crate::model::card::Seat;

/// CDS (FORMATS.md §9): per board a board-number byte and 13 rank bytes coded as KOPS's but
/// with W = 0, N = 1, E = 2, S = 3. No header, no separators.
///
/// The board byte is the board number mod 256, as Big Deal writes it (`putc(boardno)`):
/// boards 250–264 are the bytes 250…255, 0, 1…8.
/// - Reading: the first record is board `opts.first_board` when given (its number mod 256
///   must be the record's byte), else the byte itself (0 read as 256); each later record is
///   the first number above the previous board's whose value mod 256 is its byte, so a file's
///   boards ascend and a byte not above the one before counts on past the next multiple of
///   256. A file of boards 257–270 read without `--first-board 257` is boards 1–14.
/// - Writing: any board number ≥ 1, its byte the number mod 256.
pub struct Cds;

static INFO: FormatInfo = FormatInfo::new(
    "cds",
    &["cds"],
    "CDS, board byte + 13 KOPS bytes (FORMATS.md §9)",
)
.numbered();

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

    /// Reads 14-byte records, numbered from the first record's byte (see [`Cds`]).
    ///
    /// # Errors
    /// As [`Cds::read_numbered`].
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        read_records(data, None)
    }

    /// Reads 14-byte records, the first one numbered `opts.first_board` when given (see
    /// [`Cds`]).
    ///
    /// # Errors
    /// `Record(r, offset)` for a truncated record or bytes that are not a deal;
    /// `Record(1, 0)` when `opts.first_board` mod 256 is not the first record's byte.
    fn read_numbered(&self, data: &[u8], opts: &ReadOptions) -> Result<FileBoards, Error> {
        Ok(FileBoards {
            boards: read_records(data, opts.first_board)?,
            ..FileBoards::default()
        })
    }

    /// Writes 14 bytes a board: the board number mod 256, then the rank bytes.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        out.push(b.number.unwrap_or(0) as u8);
        push_rank_bytes(out, &b.deal, CDS_CODES);
    }
}

/// The records of a CDS file, numbered from `first` (or the first byte) on as [`Cds`] says.
fn read_records(data: &[u8], first: Option<u64>) -> Result<Vec<Board>, Error> {
    let mut boards = Vec::with_capacity(data.len() / RECORD);
    let mut previous: Option<u64> = None;
    take_each_record::<RECORD>(data, |rec, r, start| {
        let at = InputPosition::at_record(r, start);
        let byte = u64::from(rec[0]);
        let number = match (previous, first) {
            (Some(p), _) => {
                // The first number above `p` that is `byte` mod 256.
                let above = p.saturating_add(1);
                above.saturating_add(byte.wrapping_sub(above) % 256)
            }
            (None, Some(f)) if f % 256 == byte && f > 0 => f,
            (None, Some(f)) => {
                return Err(Error::malformed(
                    at,
                    format!(
                        "the first board byte is {byte}, but the first board given, {f}, is {} mod 256 \
                         (CDS holds each board number mod 256)",
                        f % 256
                    ),
                ));
            }
            (None, None) if byte == 0 => 256,
            (None, None) => byte,
        };
        let deal = deal_from_rank_bytes(&rec[1..], CDS_SEATS)
            .map_err(|e| Error::not_a_deal(at, format!("not a deal: {e}")))?;
        boards.push(Board::new(number, deal));
        previous = Some(number);
        Ok(())
    })?;
    Ok(boards)
}
