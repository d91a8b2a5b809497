//! Hex index lines (FORMATS.md §2): one 26-hex-digit deal index a line, with the `-X` suffix
//! (board number mod 16, `0` for board 16) that fixes dealer and vulnerability by §3.

use super::stream::Chunking;
use super::{Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions};
use crate::model::board::{board_dealer, board_vulnerability};
use crate::model::deal::Deal;
use crate::model::index::{BoardIndex, DealIndex};

/// Hex index lines (FORMATS.md §2): `XXXXXXXXXXXXXXXXXXXXXXXXXX-X`, one board a line.
///
/// The reader accepts the index with or without the suffix, the suffix also leading
/// (`X-…`), either case, empty lines and `#` comments (to the end of the line). The suffix
/// gives an explicit dealer and vulnerability, not a board number (it is only the number
/// mod 16): boards read have `number: None`.
///
/// The writer writes the suffix from the board number; when a board's explicit dealer or
/// vulnerability differ from its number's, it writes the digit of the 16-board cycle with
/// that dealer and vulnerability (every pair occurs exactly once in the cycle).
pub struct Hex;

static INFO: FormatInfo = FormatInfo::new(
    "hex",
    &["hex", "txt"],
    "hex index lines with -X (FORMATS.md §2)",
)
.cut(Chunking::Lines);

const DIGITS: &[u8; 16] = b"0123456789ABCDEF";

impl DealFormat for Hex {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads one index a line.
    ///
    /// # Errors
    /// `LineColumn` for a character that is not a hex digit (or not UTF-8); `Line` for a line
    /// of the wrong length or an index that does not give each seat 13 cards.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        let mut boards = Vec::with_capacity(data.len() / 29);
        for (l, raw) in data.split(|&c| c == b'\n').enumerate() {
            let line = l + 1;
            let raw = raw
                .iter()
                .position(|&c| c == b'#')
                .map_or(raw, |p| &raw[..p]);
            if raw.iter().all(|c| c.is_ascii_whitespace()) {
                continue;
            }
            let text = std::str::from_utf8(raw).map_err(|e| {
                Error::malformed(
                    InputPosition::at_line_column(line, e.valid_up_to() + 1),
                    "not UTF-8 text (expected 26 hex digits)",
                )
            })?;
            let index_err = |e: crate::model::Error| {
                let position = match *e.kind() {
                    crate::model::ErrorKind::IndexNotHex { column, .. }
                    | crate::model::ErrorKind::IndexLength { column, .. } => {
                        InputPosition::at_line_column(line, column)
                    }
                    _ => InputPosition::at_line(line),
                };
                Error::malformed(position, e.to_string())
            };
            let hd: BoardIndex = text.parse().map_err(index_err)?;
            let deal = hd.index.to_deal().map_err(index_err)?;
            boards.push(Board {
                dealer: hd.dealer(),
                vulnerability: hd.vulnerability(),
                ..Board::unnumbered(deal)
            });
        }
        Ok(boards)
    }

    /// Writes `HEX26-X` a line.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        let n = b.number.unwrap_or(0);
        let cycle = if b.dealer.is_none() && b.vulnerability.is_none() {
            n % 16
        } else {
            let (d, v) = (b.dealer_or_default(), b.vulnerability_or_default());
            (0..16)
                .find(|&c| board_dealer(c) == d && board_vulnerability(c) == v)
                .unwrap_or(n % 16)
        };
        push_index_line(out, &b.deal, Some(cycle));
    }
}

/// Appends a deal's index line: the 26 hex digits, then `-X` for the place `cycle` (0..16) in
/// the 16-board cycle when given, then `\n`.
pub(crate) fn push_index_line(out: &mut Vec<u8>, deal: &Deal, cycle: Option<u64>) {
    let mut buf = [0u8; 26];
    DealIndex::from_deal(deal).write_hex(&mut buf);
    out.extend_from_slice(&buf);
    if let Some(c) = cycle {
        out.extend_from_slice(&[b'-', DIGITS[(c % 16) as usize]]);
    }
    out.push(b'\n');
}
