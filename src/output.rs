//! Deal-set output formats of the core: PBN files, hex index lines and JSON lines.
//!
//! Formatting works on a chunk of consecutive deals into a byte buffer, so the callers can
//! format chunks in parallel and write them in order.

use std::path::Path;

use crate::board::{board_dealer, board_vulnerability};
use crate::card::Seat;
use crate::deal::Deal;
use crate::index::DealIndex;
use crate::number::Scheme;
use crate::pbn::{PBN_HEADER, push_deal, push_game};

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
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "pbn" => Some(Format::Pbn),
            "hex" | "txt" => Some(Format::Hex),
            "json" | "jsonl" | "ndjson" => Some(Format::Json),
            _ => None,
        }
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
    match format {
        Format::Hex => {
            let suffix = labels == Labels::Boards;
            out.reserve(deals.len() * if suffix { 29 } else { 27 });
            let mut buf = [0u8; 26];
            for (j, d) in deals.iter().enumerate() {
                DealIndex::from_deal(d).write_hex(&mut buf);
                out.extend_from_slice(&buf);
                if suffix {
                    let c = ((first + j as u128) % 16) as usize;
                    out.extend_from_slice(&[b'-', b"0123456789ABCDEF"[c]]);
                }
                out.push(b'\n');
            }
        }
        Format::Pbn => {
            let mut s = String::with_capacity(deals.len() * 330 + 32);
            if header {
                s.push_str(PBN_HEADER);
            }
            for (j, d) in deals.iter().enumerate() {
                match labels {
                    Labels::Numbers(_) => {
                        // Numbered deals are listed as PBN deal strings, one a line.
                        push_deal(&mut s, d, Seat::North);
                        s.push('\n');
                    }
                    _ => push_game(&mut s, event, (first + j as u128) as u64, d),
                }
            }
            out.extend_from_slice(s.as_bytes());
        }
        Format::Json => {
            use std::fmt::Write as _;
            let mut s = String::with_capacity(deals.len() * 200);
            for (j, d) in deals.iter().enumerate() {
                let label = first + j as u128;
                let index = DealIndex::from_deal(d);
                // Every string written is from a fixed ASCII alphabet: no escaping needed.
                match labels {
                    Labels::Numbers(scheme) => {
                        let _ = write!(
                            s,
                            "{{\"number\":\"{label}\",\"scheme\":\"{scheme}\",\"deal\":\""
                        );
                        push_deal(&mut s, d, Seat::North);
                    }
                    _ => {
                        let board = label as u64;
                        let dealer = board_dealer(board);
                        let _ = write!(
                            s,
                            "{{\"board\":{board},\"dealer\":\"{dealer}\",\"vulnerable\":\"{}\",\"deal\":\"",
                            board_vulnerability(board)
                        );
                        push_deal(&mut s, d, dealer);
                        let _ = write!(s, "\",\"number\":\"{}", d.number(Scheme::Pavlicek));
                    }
                }
                let _ = writeln!(s, "\",\"index\":\"{index}\"}}");
            }
            out.extend_from_slice(s.as_bytes());
        }
    }
}
