//! Bare PBN deal strings, one a line, as endplay's dealer (`endplay-dealer`, endplay 0.5.12)
//! writes for its `printpbn` action (no tags), with `-b` after a board number:
//!
//! ```text
//! N:AJ.9.Q32.AQJ7543 KT876.T76.AJ8.96 Q9542.AKJ2.K6.K2 3.Q8543.T9754.T8
//!   2 N:Q9.QT.A875.KT843 K6.A76542.T.Q765 JT854.J.QJ943.AJ A732.K983.K62.92
//! ```

use super::dealer_all::content_lines;
use super::stream::Chunking;
use super::{Board, DealFormat, Error, FileBoards, FormatInfo, InputPosition, WriteOptions};
use crate::model::card::Seat;
use crate::model::deal_string::{parse_deal_bytes, push_deal_bytes};
use crate::model::text::column;

/// PBN deal strings one a line (endplay 0.5.12's `endplay-dealer -a printpbn`): an optional
/// board number (endplay's `-b`, right-aligned in 3 characters, then a space), then the first
/// seat, `:` and four hands clockwise from it, `S.H.D.C` each (FORMATS.md §4 deal string).
///
/// # Reading
/// - The seat and colon are required (`N:`, `E:`, `S:` or `W:`, either case): lines without
///   them are [`super::OneLine`]'s. The board number, when given, is carried by the board;
///   no dealer or vulnerability.
/// - A deal with two or more hands unknown (`-`) or empty (`...`) is skipped and reported
///   ([`FileBoards::skipped`], [`NO_COMPLETE_DEAL`](super::NO_COMPLETE_DEAL)); one such
///   hand is completed from the other three.
/// - Empty lines and dealer's statistics lines (`Generated None hands`, `Produced 8 hands`,
///   `Initial random seed 7`, `Time needed 0.041s`, as `-v` adds) are skipped.
///
/// # Writing
/// endplay's line without `-b`: `N:` and the hands from North, ranks descending, `\n`.
///
/// # Errors
/// `LineColumn` for a line without the seat and colon, a bad board number, or a deal string's
/// problem (at its column in the line); the kind is [`NotADeal`](crate::ErrorKind::NotADeal) for hands
/// that are not 13 distinct cards each.
pub struct DealLines;

static INFO: FormatInfo = FormatInfo::new(
    "deal-lines",
    &["deals"],
    "PBN deal strings one a line (endplay-dealer printpbn)",
)
.cut(Chunking::Lines);

impl DealFormat for DealLines {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads every line (see [`DealLines`]); partial deals are skipped.
    ///
    /// # Errors
    /// See [`DealLines`].
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        let mut read = FileBoards::default();
        for (l, line) in content_lines(data) {
            // The error of kind `make` (a reader's constructor) at byte `off` of the line.
            let at = |off: usize, make: fn(InputPosition, String) -> Error, m: String| {
                make(InputPosition::at_line_column(l, column(line, off)), m)
            };
            let lead = line.iter().take_while(|c| c.is_ascii_whitespace()).count();
            let digits = line[lead..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let (number, start) = if digits > 0 {
                let n = std::str::from_utf8(&line[lead..lead + digits])
                    .ok()
                    .and_then(|t| t.parse::<u64>().ok())
                    .filter(|&n| n > 0)
                    .ok_or_else(|| {
                        at(
                            lead,
                            Error::malformed,
                            "a board number from 1 up to 2^64 - 1 was expected".into(),
                        )
                    })?;
                let gap = line[lead + digits..]
                    .iter()
                    .take_while(|c| c.is_ascii_whitespace())
                    .count();
                if gap == 0 {
                    return Err(at(
                        lead + digits,
                        Error::malformed,
                        "expected a space after the board number".into(),
                    ));
                }
                (Some(n), lead + digits + gap)
            } else {
                (None, lead)
            };
            let has_seat = line
                .get(start)
                .is_some_and(|&c| Seat::from_char(c.to_ascii_uppercase() as char).is_some())
                && line.get(start + 1) == Some(&b':');
            if !has_seat {
                return Err(at(
                    start,
                    Error::malformed,
                    "expected a PBN deal string starting with its first seat (as \"N:\")".into(),
                ));
            }
            match parse_deal_bytes(line[start..].trim_ascii_end()) {
                Ok(Some(deal)) => read.boards.push(Board {
                    number,
                    ..Board::unnumbered(deal)
                }),
                Ok(None) => read.skip_incomplete(number, Some(l)),
                Err((off, e)) => {
                    let make = match e.kind() {
                        crate::model::ErrorKind::PbnSyntax { .. } => Error::malformed,
                        _ => Error::not_a_deal,
                    };
                    return Err(at(start + off, make, e.to_string()));
                }
            }
        }
        Ok(read)
    }

    /// Writes endplay's line (see [`DealLines`]).
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        push_deal_bytes(out, &b.deal, Seat::North);
        out.push(b'\n');
    }
}
