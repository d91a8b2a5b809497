//! JSON lines (one object a line), hand-record numbers as strings: the lines
//! dealdex writes for numbered boards,
//! `{"board":1,"dealer":"N","vulnerable":"None","deal":"N:…","number":"…","scheme":"pavlicek","index":"…"}`
//! (deal from the dealer, FORMATS.md §4 deal string; number in the set's scheme, §1, as a
//! string since it exceeds 2⁵³, and the scheme's name; index as 26 hex digits, §2).

use std::borrow::Cow;

use serde::Deserialize;

use super::{Board, DealFormat, Error, FileBoards, FormatInfo, InputPosition, WriteOptions};
use crate::model::board::Vulnerability;
use crate::model::card::Seat;
use crate::model::deal_string::{parse_deal, parse_deal_bytes, push_deal, push_deal_bytes};
use crate::model::index::DealIndex;
use crate::model::number::Scheme;

/// JSON lines, numbers as strings (see the module documentation for the object).
///
/// The reader (serde_json) takes `deal` (a PBN deal string, any first seat), or `index` when
/// `deal` is absent (and checks that the two agree when both are given), and `board`,
/// `dealer` (`N`, `E`, `S`, `W`) and `vulnerable` (PBN spellings, §4) when present: they are
/// explicit. A `number` (a string) must be the deal's in `scheme` (Pavlicek when absent).
/// Other members are ignored; empty lines are skipped. A
/// `deal` that is empty, `?` or partial (two or more hands `-` or empty, as in a PBN
/// `[Deal]`, without an `index`) has no complete deal: the line is skipped and reported
/// ([`super::FileBoards::skipped`], docs/GUIDE.md "Deal files").
///
/// A file whose first character (after white space) is `[` is endplay's JSON instead
/// (`endplay.parsers.json.dump`, read as [`super::EndplayJson`] reads it), so that
/// endplay's `.json` files are read by their extension.
///
/// The writer writes one such line a board; a board whose explicit dealer or
/// vulnerability differ from its number's gets the same line with its own dealer and
/// vulnerability.
pub struct Json;

static INFO: FormatInfo = FormatInfo::new(
    "json",
    &["json", "jsonl", "ndjson"],
    "JSON lines, numbers as strings",
)
.numbered();

/// The members the reader uses.
#[derive(Deserialize)]
struct Line<'a> {
    board: Option<u64>,
    #[serde(borrow)]
    dealer: Option<Cow<'a, str>>,
    #[serde(borrow)]
    vulnerable: Option<Cow<'a, str>>,
    #[serde(borrow)]
    deal: Option<Cow<'a, str>>,
    #[serde(borrow)]
    index: Option<Cow<'a, str>>,
    #[serde(borrow)]
    number: Option<Cow<'a, str>>,
    #[serde(borrow)]
    scheme: Option<Cow<'a, str>>,
}

/// Reads one line: its board, or (inner `Err`) the board number of a line without a
/// complete deal.
fn read_line(
    raw: &[u8],
    line: usize,
    buf: &mut String,
) -> Result<Result<Board, Option<u64>>, Error> {
    let at = |m: String| Error::malformed(InputPosition::at_line(line), m);
    let l: Line = serde_json::from_slice(raw).map_err(|e| {
        Error::malformed(
            InputPosition::at_line_column(line, e.column().max(1)),
            format!("not a JSON board object: {e}"),
        )
    })?;
    let index = match &l.index {
        Some(s) => {
            Some(DealIndex::parse_hex(s.trim()).map_err(|e| at(format!("index {s:?}: {e}")))?)
        }
        None => None,
    };
    if l.board == Some(0) {
        return Err(at("board 0 (boards are numbered from 1)".into()));
    }
    let deal = match (&l.deal, index) {
        (Some(s), None) if matches!(s.trim(), "" | "?") => return Ok(Err(l.board)),
        (Some(s), index) => {
            // Fast path: a canonical deal string (as written) equals the index's deal
            // formatted from the same first seat, so it need not be parsed.
            let from_index = index.and_then(|i| i.to_deal().ok());
            let first = s.chars().next().and_then(Seat::from_char);
            let canonical = match (from_index, first) {
                (Some(d), Some(first)) => {
                    buf.clear();
                    push_deal(buf, &d, first);
                    (buf.as_str() == s.as_ref()).then_some(d)
                }
                _ => None,
            };
            match canonical {
                Some(d) => d,
                None => {
                    let d = match parse_deal(s) {
                        Ok(d) => d,
                        // A deal string with hands missing: partial (skipped) or completed
                        // as in a PBN file; else the string's own error.
                        Err(e) => match parse_deal_bytes(s.as_bytes()) {
                            Ok(Some(d)) => d,
                            Ok(None) if index.is_none() => return Ok(Err(l.board)),
                            // Several `-` hands: what is wrong with the known ones.
                            Err((off, known)) if e.to_string().contains("unknown hand (-)") => {
                                let column = crate::model::text::column(s.as_bytes(), off);
                                return Err(at(format!("deal {s:?}: column {column}: {known}")));
                            }
                            _ => return Err(at(format!("deal {s:?}: {e}"))),
                        },
                    };
                    if let Some(i) = index
                        && DealIndex::from_deal(&d) != i
                    {
                        return Err(at(format!(
                            "deal and index disagree (the deal's index is {})",
                            DealIndex::from_deal(&d)
                        )));
                    }
                    d
                }
            }
        }
        (None, Some(i)) => i.to_deal().map_err(|e| at(format!("index: {e}")))?,
        (None, None) => return Err(at("no \"deal\" or \"index\" member".into())),
    };
    check_number(&l, &deal).map_err(at)?;
    let dealer = match &l.dealer {
        None => None,
        Some(s) => {
            let mut c = s.trim().chars();
            match (c.next().and_then(Seat::from_char), c.next()) {
                (Some(seat), None) => Some(seat),
                _ => return Err(at(format!("dealer {s:?} is not N, E, S or W"))),
            }
        }
    };
    let vulnerability = match &l.vulnerable {
        None => None,
        Some(s) => Some(
            s.parse::<Vulnerability>()
                .map_err(|e| at(format!("vulnerable: {e}")))?,
        ),
    };
    Ok(Ok(Board {
        number: l.board,
        dealer,
        vulnerability,
        ..Board::unnumbered(deal)
    }))
}

/// Checks a line's `number` (a string, in its `scheme`, Pavlicek when absent) against its deal,
/// as `index` is: a number that is not the deal's is an error, not ignored.
fn check_number(l: &Line, deal: &crate::model::deal::Deal) -> Result<(), String> {
    let scheme = match &l.scheme {
        Some(s) => s.parse::<Scheme>().map_err(|e| format!("scheme: {e}"))?,
        None => Scheme::Pavlicek,
    };
    let Some(text) = &l.number else {
        return Ok(());
    };
    let n = crate::model::number::parse_scheme_number(text, scheme)
        .map_err(|e| format!("number {text:?}: {e}"))?;
    let own = deal.number(scheme);
    if n != own {
        return Err(format!(
            "number {text} is not the deal's (its {scheme} number is {own})"
        ));
    }
    Ok(())
}

/// A board's line : board `n`, its dealer and
/// vulnerability (explicit, else `n`'s), the deal from the dealer, its number in `scheme`
/// with the scheme's name, and its index.
fn push_line(out: &mut Vec<u8>, b: &Board, n: u64, scheme: Scheme) {
    use std::io::Write as _;
    let dealer = b.dealer_or_default();
    // Writing to a Vec cannot fail; every string written is from a fixed ASCII alphabet.
    let _ = write!(
        out,
        "{{\"board\":{n},\"dealer\":\"{dealer}\",\"vulnerable\":\"{}\",\"deal\":\"",
        b.vulnerability_or_default()
    );
    push_deal_bytes(out, &b.deal, dealer);
    let _ = writeln!(
        out,
        "\",\"number\":\"{}\",\"scheme\":\"{scheme}\",\"index\":\"{}\"}}",
        b.deal.number(scheme),
        DealIndex::from_deal(&b.deal)
    );
}

impl DealFormat for Json {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// JSON lines are cut after any line; a JSON array (endplay's) is read whole.
    fn chunking(&self, head: &[u8]) -> super::stream::Chunking {
        match head.iter().find(|c| !c.is_ascii_whitespace()) {
            Some(b'[') => super::stream::Chunking::Whole,
            _ => super::stream::Chunking::Lines,
        }
    }

    /// Reads one object a non-empty line; a line whose deal is empty, `?` or partial is
    /// skipped.
    ///
    /// # Errors
    /// `LineColumn` for a line that is not a JSON object of the right shape; `Line` for a bad
    /// deal, index, board, dealer or vulnerability, or a deal and index that disagree.
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        // A JSON array is never JSON lines: it is endplay's json.dump (or nothing).
        if data.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'[') {
            return super::EndplayJson.read_all(data);
        }
        let mut read = FileBoards {
            boards: Vec::with_capacity(data.len() / 190),
            ..FileBoards::default()
        };
        let mut buf = String::with_capacity(72);
        for (l, raw) in data.split(|&c| c == b'\n').enumerate() {
            if raw.iter().all(|c| c.is_ascii_whitespace()) {
                continue;
            }
            match read_line(raw, l + 1, &mut buf)? {
                Ok(b) => read.boards.push(b),
                Err(board) => read.skip_incomplete(board, Some(l + 1)),
            }
        }
        Ok(read)
    }

    /// Writes a board's line: the line for a board whose dealer and
    /// vulnerability are its number's, else the same members with its own; the hand-record
    /// number in `opts.scheme`.
    fn write_board(&self, b: &Board, opts: &WriteOptions, out: &mut Vec<u8>) {
        push_line(out, b, b.number.unwrap_or(0), opts.scheme);
    }
}
