//! Debian `dealer`'s `printcompact` (Hans van Staveren's dealer, Debian package
//! 20211121+ds-1): four lines per deal, one per hand, with the value of
//! `printcompact (expr)`'s expression on a fifth line when one is given:
//!
//! ```text
//! n J63.K764.KQ9532.
//! e 5.832.JT876.AQ94
//! s 9872.J95.A4.JT52
//! w AKQT4.AQT..K8763
//! ```

use super::dealer_all::content_lines;
use super::oneline::read_hand;
use super::{Board, DealFormat, Error, FormatInfo, InputPosition, OneLine, WriteOptions};
use crate::model::card::Seat;
use crate::model::deal::{Deal, Hand};
use crate::model::text::column;

/// Debian `dealer`'s `printcompact` (dealer 20211121): per deal the lines `n <hand>`,
/// `e <hand>`, `s <hand>`, `w <hand>`, each hand `S.H.D.C` (ranks descending, a void empty),
/// no space at the end; no board numbers, dealer or vulnerability.
///
/// # Reading
/// The four seat lines in the order n, e, s, w (either case); after them at most one line
/// holding a whole number (`printcompact (hcp(north))`'s value), ignored. dealer's
/// statistics lines and empty lines are skipped. Ranks as [`super::OneLine`] reads them.
///
/// # Writing
/// dealer's four lines per board.
///
/// # Errors
/// `LineColumn` for a line that is not the seat due (the column of what was found), a bad
/// hand (as [`super::OneLine`]), something after a hand, a line after the deal that is not a
/// number; `Line` for hands that are not a deal; `Truncated` when the file ends inside one.
pub struct DealerCompact;

static INFO: FormatInfo = FormatInfo::new(
    "dealer-compact",
    &["compact"],
    "Debian dealer's printcompact, a line per hand (dealer 20211121)",
);

/// True when `line` is one whole number, as dealer prints an expression's value.
fn is_number(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    let digits = t.strip_prefix(b"-").unwrap_or(t);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

impl DealFormat for DealerCompact {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads every deal (see [`DealerCompact`]).
    ///
    /// # Errors
    /// See [`DealerCompact`].
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        let mut boards = Vec::new();
        let mut lines = content_lines(data).peekable();
        while let Some(&(start, first)) = lines.peek() {
            if !boards.is_empty() && is_number(first) {
                lines.next();
                if let Some(&(l, next)) = lines.peek()
                    && is_number(next)
                {
                    return Err(Error::malformed(
                        InputPosition::at_line_column(l, 1),
                        "a second expression value after a deal (expected the next deal's \
                         \"n <hand>\")",
                    ));
                }
                continue;
            }
            let mut hands = [Hand::EMPTY; 4];
            for seat in Seat::ALL {
                let (l, line) = lines.next().ok_or_else(|| {
                    Error::truncated(
                        InputPosition::at_line(start),
                        format!("the deal ends before {seat}'s line"),
                    )
                })?;
                let letter = seat.letter().to_ascii_lowercase() as u8;
                if line.first().map(u8::to_ascii_lowercase) != Some(letter)
                    || line.get(1) != Some(&b' ')
                {
                    return Err(Error::malformed(
                        InputPosition::at_line_column(l, 1),
                        format!(
                            "expected {seat}'s line \"{} <hand>\" (dealer's printcompact gives \
                             n, e, s, w in turn)",
                            letter as char
                        ),
                    ));
                }
                // At least the seat letter and its space (checked above).
                let end = 2.max(
                    line.len()
                        - line
                            .iter()
                            .rev()
                            .take_while(|c| c.is_ascii_whitespace())
                            .count(),
                );
                let at = |(off, m): (usize, String)| {
                    Error::malformed(InputPosition::at_line_column(l, column(line, off)), m)
                };
                if let Some(p) = line[2..end].iter().position(|c| c.is_ascii_whitespace()) {
                    return Err(at((
                        2 + p,
                        "more than a hand on the line (expected \"n S.H.D.C\")".into(),
                    )));
                }
                hands[seat.index()] = read_hand(line, 2, end.max(2)).map_err(at)?;
            }
            let deal = Deal::new(hands)
                .map_err(|e| Error::not_a_deal(InputPosition::at_line(start), e.to_string()))?;
            boards.push(Board::unnumbered(deal));
        }
        Ok(boards)
    }

    /// Writes dealer's four lines for one board: dealer's hands a line each
    /// ([`OneLine::push_hands`]). `dealdex dealer`'s `printcompact` writes its deals through
    /// this (its expression's value follows on a line of its own).
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        OneLine::push_hands(out, &b.deal, &Seat::ALL, b'\n');
    }
}
