//! Bernasconi BER (FORMATS.md §9; Big Deal output.c): 52 bytes a board, `'1'..'4'` (N, E, S,
//! W) for the seat of each card in suited order (♠A first), no separators.

use super::text::show_byte;
use super::{Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions};
use crate::model::deal::Deal;

/// Bernasconi BER (FORMATS.md §9): 52 seat digits a board, N = `1`, E = `2`, S = `3`,
/// W = `4`, in suited order. No board numbers, dealers or vulnerability. The writer adds
/// no separators (as Big Deal); the reader also accepts a `\n` or `\r\n` after each record.
pub struct Ber;

static INFO: FormatInfo = FormatInfo::new(
    "ber",
    &["ber"],
    "Bernasconi BER, 52 bytes a board (FORMATS.md §9)",
)
.board_set();

/// Bytes a record.
const RECORD: usize = 52;

impl DealFormat for Ber {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads 52-byte records (each optionally followed by `\n` or `\r\n`); boards are
    /// unnumbered.
    ///
    /// # Errors
    /// `Record(r, offset)`: at the offending byte for a byte other than `1`..`4`, at the
    /// record's start for a truncated record or one that does not give each seat 13 cards.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        let mut boards = Vec::with_capacity(data.len() / RECORD);
        let mut pos = 0usize;
        while pos < data.len() {
            let r = boards.len() + 1;
            let at = InputPosition::at_record(r, pos as u64);
            let Some(rec) = data.get(pos..pos + RECORD) else {
                return Err(Error::truncated(
                    at,
                    format!("truncated record: {} of 52 bytes", data.len() - pos),
                ));
            };
            let mut masks = [0u64; 4];
            for (i, &c) in rec.iter().enumerate() {
                let seat = c.wrapping_sub(b'1');
                if seat > 3 {
                    return Err(Error::malformed(
                        InputPosition::at_record(r, (pos + i) as u64),
                        format!(
                            "{} is not a seat (expected '1'..'4' for N, E, S, W)",
                            show_byte(c)
                        ),
                    ));
                }
                masks[seat as usize] |= 1u64 << i;
            }
            let deal = Deal::new(masks.map(crate::model::deal::Hand::from_mask))
                .map_err(|e| Error::not_a_deal(at, format!("not a deal: {e}")))?;
            boards.push(Board::unnumbered(deal));
            pos += RECORD;
            if data.get(pos) == Some(&b'\r') && data.get(pos + 1) == Some(&b'\n') {
                pos += 2;
            } else if data.get(pos) == Some(&b'\n') {
                pos += 1;
            }
        }
        Ok(boards)
    }

    /// Writes 52 seat digits a board, no separators.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        let mut rec = b.deal.seat_codes();
        for c in rec.iter_mut() {
            *c += b'1';
        }
        out.extend_from_slice(&rec);
    }
}
