//! Deal-set output formats of the core: PBN files, hex index lines and JSON lines.
//!
//! Formatting works on a chunk of consecutive deals into a byte buffer, so the callers can
//! format chunks in parallel and write them in order. Boards are written by the format
//! registry's writers ([`crate::formats::Pbn`], [`crate::formats::Hex`],
//! [`crate::formats::Json`]); only the lines of deals without board semantics (hex lines
//! without `-X`, deals listed by number) are written here.

use std::path::Path;

use crate::formats::{self, Board, DealFormat, WriteOptions};
use crate::model::card::Seat;
use crate::model::deal::Deal;
use crate::model::deal_string::push_deal_bytes;
use crate::model::index::DealIndex;
use crate::model::number::Scheme;

/// The first lines of a PBN 2.1 export file.
pub const PBN_HEADER: &str = formats::pbn::HEADER;

/// Appends one PBN export game for `board` (1-based): an empty separator line, then the
/// mandatory tags in export order with dealer and vulnerability from FORMATS.md §3, the deal
/// from the dealer, and `?` for every unknown value. `event` is written as given (`?` when
/// empty; a `"` becomes `'`). This is the game [`crate::formats::Pbn`] writes for the board.
pub fn push_game(b: &mut String, event: &str, board: u64, deal: &Deal) {
    let mut game = Vec::with_capacity(360);
    let event = formats::pbn::event_value(event, false);
    formats::pbn::write_game(&mut game, &Board::new(board, *deal), &event);
    // `event` is UTF-8 and the rest ASCII.
    if let Ok(s) = std::str::from_utf8(&game) {
        b.push_str(s);
    }
}

/// An output format for deal sets.
///
/// ```
/// use dealdex::Format;
/// assert_eq!(Format::from_path("set.pbn".as_ref()), Some(Format::Pbn));
/// assert_eq!("json".parse::<Format>().unwrap(), Format::Json);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PBN 2.1 export games (FORMATS.md §4); for deals listed by number, PBN deal strings.
    Pbn,
    /// One 26-hex-digit index a line (FORMATS.md §2), with `-X` when boards are numbered.
    Hex,
    /// One JSON object a line; hand-record numbers are strings (they exceed 2⁵³).
    Json,
}

impl Format {
    /// The format a file name's extension implies: `.pbn`; `.hex`/`.txt`; `.json`/`.jsonl`/
    /// `.ndjson`. `None` for other extensions.
    pub fn from_path(path: &Path) -> Option<Format> {
        let format = formats::by_path(path)?;
        [Format::Pbn, Format::Hex, Format::Json]
            .into_iter()
            .find(|f| f.name() == format.info().name)
    }

    /// The format's name: `pbn`, `hex` or `json`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Pbn => "pbn",
            Format::Hex => "hex",
            Format::Json => "json",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    /// Parses `pbn`, `hex` or `json` (also `jsonl`), either case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "pbn" => Ok(Format::Pbn),
            "hex" => Ok(Format::Hex),
            "json" | "jsonl" => Ok(Format::Json),
            _ => Err(format!("unknown format {s:?} (expected pbn, hex or json)")),
        }
    }
}

/// How the deals of a chunk are labelled in the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// Tournament boards: deal `j` is board `first + j`, with dealer and vulnerability.
    Boards,
    /// Bulk deals with no board semantics (hex lines carry no `-X`, PBN and JSON still number
    /// them from `first`).
    Plain,
    /// Deals listed by hand-record number: deal `j` has number `first + j` in the scheme.
    Numbers(Scheme),
}

/// Appends the formatted deals to `out`: deal `j` is labelled `first + j` as `labels` says.
/// `header` adds the PBN file header (give it for the first chunk only). `event` fills PBN's
/// `[Event]` tag.
///
/// ```
/// # let deal: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse().unwrap();
/// let mut out = Vec::new();
/// dealdex::format_chunk(&mut out, dealdex::Format::Hex, dealdex::Labels::Boards, 16, &[deal], false, "");
/// assert_eq!(out, b"E4E4E4E4E4E4E4E4E4E4E4E4E4-0\n");
/// ```
pub fn format_chunk(
    out: &mut Vec<u8>,
    format: Format,
    labels: Labels,
    first: u128,
    deals: &[Deal],
    header: bool,
    event: &str,
) {
    use std::io::Write as _;
    // Deal `j`'s board (boards and plain deals are numbered within u64).
    let board = |j: usize, d: &Deal| Board::new((first + j as u128) as u64, *d);
    let opts = WriteOptions::default();
    match (format, labels) {
        (Format::Hex, Labels::Boards) => {
            for (j, d) in deals.iter().enumerate() {
                formats::Hex.write_board(&board(j, d), &opts, out);
            }
        }
        (Format::Hex, _) => {
            out.reserve(deals.len() * 27);
            for d in deals {
                formats::hex::push_index_line(out, d, None);
            }
        }
        (Format::Pbn, Labels::Numbers(_)) => {
            if header {
                out.extend_from_slice(PBN_HEADER.as_bytes());
            }
            // Numbered deals are listed as PBN deal strings, one a line.
            for d in deals {
                push_deal_bytes(out, d, Seat::North);
                out.push(b'\n');
            }
        }
        (Format::Pbn, _) => {
            if header {
                out.extend_from_slice(PBN_HEADER.as_bytes());
            }
            let event = formats::pbn::event_value(event, false);
            for (j, d) in deals.iter().enumerate() {
                formats::pbn::write_game(out, &board(j, d), &event);
            }
        }
        (Format::Json, Labels::Numbers(scheme)) => {
            for (j, d) in deals.iter().enumerate() {
                // Writing to a Vec cannot fail; every string written is from a fixed ASCII
                // alphabet: no escaping needed.
                let _ = write!(
                    out,
                    "{{\"number\":\"{}\",\"scheme\":\"{scheme}\",\"deal\":\"",
                    first + j as u128
                );
                push_deal_bytes(out, d, Seat::North);
                let _ = writeln!(out, "\",\"index\":\"{}\"}}", DealIndex::from_deal(d));
            }
        }
        (Format::Json, _) => {
            for (j, d) in deals.iter().enumerate() {
                formats::Json.write_board(&board(j, d), &opts, out);
            }
        }
    }
}
