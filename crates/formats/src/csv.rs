//! CSV (FORMATS.md §9; Big Deal output.c): one line a board,
//! `"<N♠>","<N♥>","<N♦>","<N♣>","<E♠>",…,"<W♣>","<board>","<dealer>/<vul>"`.
//!
//! Holdings are rank letters `AKQJT98765432` (empty for a void), the dealer a seat letter and
//! the vulnerability `-`, `NS`, `EW` or `All`.

use super::stream::Chunking;
use super::text::{push_holding, push_u64, show_byte};
use super::{Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions};
use crate::model::board::Vulnerability;
use crate::model::card::{Seat, Suit};
use crate::model::deal::{Deal, Hand};
use crate::model::text::rank_index;

/// CSV (FORMATS.md §9): 16 quoted holdings (N♠ N♥ N♦ N♣, then E, S, W), the board number and
/// `dealer/vul`, one board a line.
///
/// The reader is tolerant: `\r\n`, white space around fields, unquoted fields, ranks in any
/// order and either case, `10` for the ten, `-` for a void; vulnerability `-`/`None`/`Love`,
/// `NS`, `EW`, `All`/`Both` (either case). Lines of 16 fields (holdings only) or 17 (plus the
/// board) are accepted too; empty lines are skipped. Board, dealer and vulnerability are
/// explicit when present.
pub struct Csv;

static INFO: FormatInfo = FormatInfo::new(
    "csv",
    &["csv"],
    "CSV holdings with board and dealer/vul (FORMATS.md §9)",
)
.numbered()
.cut(Chunking::Lines);

/// One field of a line: its text (without quotes) and the 1-based column where the text starts.
struct Field<'a> {
    text: &'a [u8],
    col: usize,
}

/// Splits a line into fields (quoted or not, white space around them ignored): the first 18
/// go into `fields`; returns how many the line has.
fn split_fields<'a>(
    line: &'a [u8],
    line_no: usize,
    fields: &mut [Field<'a>; 18],
) -> Result<usize, Error> {
    let mut count = 0usize;
    let mut i = 0usize;
    loop {
        while line.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
            i += 1;
        }
        let mut col = i + 1;
        let text;
        if line.get(i) == Some(&b'"') {
            col += 1;
            let start = i + 1;
            let Some(len) = line
                .get(start..)
                .and_then(|r| r.iter().position(|&c| c == b'"'))
            else {
                return Err(Error::malformed(
                    InputPosition::at_line_column(line_no, col),
                    "a quoted field without its closing quote",
                ));
            };
            text = &line[start..start + len];
            i = start + len + 1;
            while line.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
                i += 1;
            }
            if let Some(&c) = line.get(i)
                && c != b','
            {
                return Err(Error::malformed(
                    InputPosition::at_line_column(line_no, i + 1),
                    format!("found {} after a quoted field, expected ','", show_byte(c)),
                ));
            }
        } else {
            let start = i;
            while line.get(i).is_some_and(|&c| c != b',') {
                i += 1;
            }
            let mut t = &line[start..i];
            while let [rest @ .., b' ' | b'\t'] = t {
                t = rest;
            }
            text = t;
        }
        if let Some(f) = fields.get_mut(count) {
            *f = Field { text, col };
        }
        count += 1;
        if line.get(i) == Some(&b',') {
            i += 1;
        } else {
            return Ok(count);
        }
    }
}

/// Parses a holding of one suit (rank letters in any order, `10`, `-` for a void) into the
/// bits of `suit` in a card mask.
fn parse_holding(f: &Field, suit: usize, line: usize) -> Result<u64, Error> {
    let mut mask = 0u64;
    let t = f.text;
    if t == b"-" {
        return Ok(0);
    }
    let mut i = 0;
    while let Some(&c) = t.get(i) {
        let at = InputPosition::at_line_column(line, f.col + i);
        let (r, len) = match (c, t.get(i + 1)) {
            (b'1', Some(b'0')) => (4, 2),
            _ => (
                rank_index(c).ok_or_else(|| {
                    Error::malformed(
                        at.clone(),
                        format!(
                            "{} is not a rank (expected AKQJT98765432 or 10)",
                            show_byte(c)
                        ),
                    )
                })?,
                1,
            ),
        };
        let bit = 1u64 << (suit * 13 + r);
        if mask & bit != 0 {
            return Err(Error::malformed(
                at.clone(),
                format!("{} appears twice in one holding", show_byte(c)),
            ));
        }
        mask |= bit;
        i += len;
    }
    Ok(mask)
}

fn read_line(fields: &[Field], line: usize) -> Result<Board, Error> {
    let mut hands = [Hand::EMPTY; 4];
    for (k, f) in fields.iter().take(16).enumerate() {
        let m = parse_holding(f, k % 4, line)?;
        let h = &mut hands[k / 4];
        *h = Hand::from_mask(h.mask() | m);
    }
    let deal = Deal::new(hands)
        .map_err(|e| Error::not_a_deal(InputPosition::at_line(line), format!("not a deal: {e}")))?;
    let mut number = None;
    if let Some(f) = fields.get(16)
        && !f.text.is_empty()
    {
        let n = std::str::from_utf8(f.text)
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                Error::malformed(
                    InputPosition::at_line_column(line, f.col),
                    format!(
                        "board {:?} is not a board number (expected 1, 2, …)",
                        String::from_utf8_lossy(f.text)
                    ),
                )
            })?;
        number = Some(n);
    }
    let (mut dealer, mut vulnerability) = (None, None);
    if let Some(f) = fields.get(17)
        && !f.text.is_empty()
    {
        let bad = || {
            Error::malformed(
                InputPosition::at_line_column(line, f.col),
                format!(
                    "{:?} is not dealer/vulnerability (expected e.g. N/-, E/NS, S/EW, W/All)",
                    String::from_utf8_lossy(f.text)
                ),
            )
        };
        let s = std::str::from_utf8(f.text).map_err(|_| bad())?;
        let (d, v) = s.split_once('/').unwrap_or((s, ""));
        let mut dc = d.trim().chars();
        dealer = match (dc.next().and_then(Seat::from_char), dc.next()) {
            (Some(seat), None) => Some(seat),
            _ => return Err(bad()),
        };
        if !v.trim().is_empty() {
            vulnerability = Some(v.parse::<Vulnerability>().map_err(|_| bad())?);
        }
    }
    Ok(Board {
        number,
        dealer,
        vulnerability,
        ..Board::unnumbered(deal)
    })
}

impl DealFormat for Csv {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads one board a non-empty line.
    ///
    /// # Errors
    /// `LineColumn` for a line without 16 to 18 fields, a bad rank, board or dealer/vul;
    /// `Line` for holdings that are not a deal.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        let mut boards = Vec::with_capacity(data.len() / 80);
        let mut fields: [Field; 18] = std::array::from_fn(|_| Field { text: &[], col: 0 });
        for (l, raw) in data.split(|&c| c == b'\n').enumerate() {
            let line = l + 1;
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            if raw.iter().all(|c| c.is_ascii_whitespace()) {
                continue;
            }
            let count = split_fields(raw, line, &mut fields)?;
            if !(16..=18).contains(&count) {
                return Err(Error::malformed(
                    InputPosition::at_line_column(line, raw.len() + 1),
                    format!("found {count} fields, expected 18 (16 holdings, board, dealer/vul)"),
                ));
            }
            boards.push(read_line(&fields[..count], line)?);
        }
        Ok(boards)
    }

    /// Writes Big Deal's line for each board.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        for seat in Seat::ALL {
            let hand = b.deal.hand(seat);
            for suit in Suit::ALL {
                out.push(b'"');
                push_holding(out, hand.suit_mask(suit));
                out.extend_from_slice(b"\",");
            }
        }
        out.push(b'"');
        push_u64(out, b.number.unwrap_or(0));
        out.extend_from_slice(b"\",\"");
        out.push(b.dealer_or_default().letter() as u8);
        out.push(b'/');
        let vul = b.vulnerability_or_default();
        out.extend_from_slice(vul.spelled(["-", "NS", "EW", "All"]).as_bytes());
        out.extend_from_slice(b"\"\n");
    }
}
