//! The number workflows: `dealdex number` (a deal string, a hex index or a deal file → the
//! deals' hand-record numbers) and `dealdex deal` (a number or a range `A..B` → the deals,
//! listed as PBN deal strings, hex indices or JSON lines, made in parallel chunks).
//!
//! ```
//! use dealdex::workflow::number::{DealJob, NumberJob, deal, number, parse_range};
//! use dealdex::{Scheme, formats};
//!
//! let job = NumberJob::new("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432");
//! let report = number(&job)?;
//! assert_eq!(report.deals[0].number, "1");
//!
//! let (first, last) = parse_range("1..3", Scheme::Pavlicek)?;
//! let job = DealJob { format: formats::by_name("hex").unwrap(), ..DealJob::new(first, last) };
//! let mut out = Vec::new();
//! let report = deal(&job, &mut out)?;
//! assert_eq!(report.deals, 3);
//! assert_eq!(String::from_utf8(out)?.lines().count(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::formats::{self, Board, DealFormat};
use crate::model::card::Seat;
use crate::model::deal_string::push_deal_bytes;
use crate::workflow::output::{Output, ReportOutput, Writing};
use crate::workflow::pipeline::{
    DealSink, DealSource, FileSource, ReadNotes, ReadOptions, SourceOptions,
};
use crate::{Deal, DealIndex, Error, ErrorKind, Result, Scheme, parse_deal_argument};

/// A `number` job: what to number, and in which scheme (with the `clap` feature, the
/// arguments).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct NumberJob {
    /// A PBN deal string (`N:…`), a 26-hex-digit index (optionally `-X`), or a deal file
    /// (any format dealdex reads; prints `board number` lines).
    #[cfg_attr(feature = "clap", arg(id = "deal", value_name = "DEAL"))]
    pub argument: String,
    /// How a deal file is read (its format by name, its first board), resolved first.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub read: ReadOptions,
    /// Numbering scheme: pavlicek, andrews or bigdeal.
    #[cfg_attr(feature = "clap", arg(long, default_value = "pavlicek"))]
    pub scheme: Scheme,
}

impl NumberJob {
    /// A job numbering `argument` in the Pavlicek scheme, a file's format from its extension.
    pub fn new(argument: impl Into<String>) -> NumberJob {
        NumberJob {
            argument: argument.into(),
            read: ReadOptions::default(),
            scheme: Scheme::Pavlicek,
        }
    }
}

/// One numbered deal. Hand-record numbers are strings (they exceed 2^53).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NumberedDeal {
    /// The board number, for a deal file's boards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<u64>,
    /// The deal's 26-hex-digit index.
    pub index: String,
    /// Its hand-record number in the scheme, in decimal.
    pub number: String,
}

/// What a `number` job found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NumberReport {
    /// The scheme's name.
    pub scheme: &'static str,
    /// The deals, in file order.
    pub deals: Vec<NumberedDeal>,
    /// A deal file's boards without a complete deal, skipped, and what its reader ignored
    /// (not in the JSON report).
    #[serde(skip)]
    pub notes: ReadNotes,
}

/// Numbers the job's deal, or every board of its deal file (read whole, boards numbered
/// from 1 where the file has no numbers, boards without a complete deal skipped).
///
/// # Errors
/// [`ErrorKind::Deal`] for a bad deal string or index, [`ErrorKind::NotADeal`] for an
/// argument that is neither a deal nor a file; an unknown format, or a file that cannot be
/// read (the deal pipeline's kinds).
pub fn number(job: &NumberJob) -> Result<NumberReport> {
    let read_as = job.read.read_as()?;
    let mut report = NumberReport {
        scheme: job.scheme.name(),
        deals: Vec::new(),
        notes: ReadNotes::default(),
    };
    let numbered = |board, deal: &Deal| NumberedDeal {
        board,
        index: DealIndex::from_deal(deal).to_string(),
        number: deal.number(job.scheme).to_string(),
    };
    if let Some(deal) = parse_deal_argument(&job.argument) {
        let (deal, _) = deal.map_err(ErrorKind::Deal)?;
        report.deals.push(numbered(None, &deal));
        return Ok(report);
    }
    let path = Path::new(&job.argument);
    if !path.is_file() {
        return Err(ErrorKind::NotADeal {
            argument: job.argument.clone(),
        }
        .into());
    }
    let source = DealSource::File(FileSource::new(path.to_owned(), read_as))
        .open(None, &SourceOptions::default())?;
    let read = source.read(&mut |boards| -> Result<bool> {
        report
            .deals
            .extend(boards.iter().map(|b| numbered(b.number, &b.deal)));
        Ok(true)
    })?;
    report.notes = read.notes;
    Ok(report)
}

/// `dealdex deal`'s options as typed. With the `clap` feature they derive `clap::Args`,
/// their doc comments the help; [`DealOptions::job`] parses the number or range.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct DealOptions {
    /// A hand-record number (decimal or 0x hex), or an inclusive range A..B.
    pub number: String,
    /// Numbering scheme: pavlicek, andrews or bigdeal.
    #[cfg_attr(feature = "clap", arg(long, default_value = "pavlicek"))]
    pub scheme: Scheme,
    /// Output: pbn (deal strings), hex (indices) or json (JSON lines with the numbers) list
    /// the deals; any other format writes them as boards 1, 2, … (`deal 1..32 --to dup`).
    #[cfg_attr(feature = "clap", arg(long = "to", short = 'f', visible_alias = "format",
        default_value = "pbn", value_parser = deal_format))]
    pub format: &'static dyn DealFormat,
    /// Output file (default stdout).
    #[cfg_attr(feature = "clap", arg(long, short, value_name = "FILE"))]
    pub out: Option<PathBuf>,
    /// Event (default: none; not in a listing), blind, split.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub writing: Writing,
}

/// `deal --to`: a registry format by name, either case (`jsonl` is `json`).
#[cfg(feature = "clap")]
fn deal_format(s: &str) -> std::result::Result<&'static dyn DealFormat, String> {
    let name = s.to_ascii_lowercase();
    formats::named(if name == "jsonl" { "json" } else { &name }).map_err(|e| e.to_string())
}

impl DealOptions {
    /// The job: the number or range parsed ([`parse_range`]), `-` as the output meaning the
    /// caller's writer.
    ///
    /// # Errors
    /// [`parse_range`]'s.
    pub fn job(&self) -> Result<DealJob> {
        let (first, last) = parse_range(&self.number, self.scheme)?;
        Ok(DealJob {
            first,
            last,
            scheme: self.scheme,
            format: self.format,
            out: self.out.clone().filter(|p| p.as_os_str() != "-"),
            writing: self.writing.clone(),
        })
    }
}

/// A `deal` job: the deals numbered `first..=last` in `scheme`, listed in `format`.
#[derive(Clone, Debug)]
pub struct DealJob {
    /// The first number (1-based).
    pub first: u128,
    /// The last number (inclusive).
    pub last: u128,
    /// The numbering scheme.
    pub scheme: Scheme,
    /// The format: a listing for the registry's `pbn` (a PBN deal string a line, no file
    /// header), `hex` (a 26-hex-digit index a line) and `json` (a JSON line a deal:
    /// `{"number":"…","scheme":"…","deal":"N:…","index":"…"}`), [`DEAL_LIST_FORMATS`]; any
    /// other registry format writes the deals as boards 1, 2, … in range order, as every
    /// command writes boards ([`DealFiles`](crate::workflow::pipeline::DealFiles); a format
    /// written in one piece holds at most
    /// [`MAX_COLLECTED`](crate::workflow::generate::MAX_COLLECTED) boards).
    pub format: &'static dyn DealFormat,
    /// The output file, written through a temporary file beside it and renamed when whole
    /// ([`ReportOutput`]: a failed write keeps the old file); `None` for the writer given to
    /// [`deal`].
    pub out: Option<PathBuf>,
    /// Event (default: none; not in a listing), blind, split.
    pub writing: Writing,
}

impl DealJob {
    /// Deals `first..=last` (Pavlicek's numbers) listed as PBN deal strings on the writer
    /// given to [`deal`].
    pub fn new(first: u128, last: u128) -> DealJob {
        DealJob {
            first,
            last,
            scheme: Scheme::Pavlicek,
            format: formats::by_name("pbn").expect("the registry has pbn"),
            out: None,
            writing: Writing::default(),
        }
    }
}

/// What a `deal` job wrote. Numbers are strings (they exceed 2^53).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealReport {
    /// The scheme's name.
    pub scheme: &'static str,
    /// The first number.
    pub first: String,
    /// The last number.
    pub last: String,
    /// Deals written.
    pub deals: u64,
    /// The format's name.
    pub format: &'static str,
    /// The output file; null for standard output.
    pub out: Option<PathBuf>,
}

/// The formats a `deal` listing is written in ([`DealJob::format`]).
pub const DEAL_LIST_FORMATS: [&str; 3] = ["pbn", "hex", "json"];

/// Parses a hand-record number of `scheme` (decimal with `,` or `_` groups, or `0x` hex,
/// [`crate::parse_scheme_number`]) or an inclusive range `A..B` (also `A..=B`) into
/// `(first, last)`.
///
/// ```
/// use dealdex::Scheme;
/// use dealdex::workflow::number::parse_range;
/// assert_eq!(parse_range("7", Scheme::Pavlicek)?, (7, 7));
/// assert_eq!(parse_range("1..=0x10", Scheme::Pavlicek)?, (1, 16));
/// assert_eq!(parse_range("0..2", Scheme::BigDeal)?, (0, 2));
/// assert!(parse_range("0..2", Scheme::Andrews).is_err());
/// assert!(parse_range("5..3", Scheme::Pavlicek).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::RangeStart`], [`ErrorKind::RangeEnd`], [`ErrorKind::Model`] (a single
/// number) or [`ErrorKind::EndBelowStart`].
pub fn parse_range(text: &str, scheme: Scheme) -> Result<(u128, u128)> {
    let number = |t: &str| crate::parse_scheme_number(t, scheme);
    let (first, last) = match text.split_once("..") {
        Some((x, y)) => (
            number(x).map_err(ErrorKind::RangeStart)?,
            number(y.trim_start_matches('=')).map_err(ErrorKind::RangeEnd)?,
        ),
        None => {
            let n = number(text)?;
            (n, n)
        }
    };
    if last < first {
        return Err(ErrorKind::EndBelowStart {
            range: text.to_owned(),
        }
        .into());
    }
    Ok((first, last))
}

/// Writes the job's deals, made in parallel chunks and written in order, to its file or
/// (no file) to `stdout`, which is flushed.
///
/// # Errors
/// [`ErrorKind::EndBelowStart`], [`ErrorKind::RangeTooLong`] (checked before anything is
/// written), [`ErrorKind::Model`] for a number outside the scheme's range,
/// [`ErrorKind::TooManyToCollect`], or the output's failure (the deal pipeline's kinds).
pub fn deal(job: &DealJob, stdout: &mut dyn Write) -> Result<DealReport> {
    if job.last < job.first {
        return Err(ErrorKind::EndBelowStart {
            range: format!("{}..{}", job.first, job.last),
        }
        .into());
    }
    let count = u64::try_from(job.last - job.first + 1).map_err(|_| ErrorKind::RangeTooLong)?;
    let format = job.format.info().name;
    // The range's ends must be deals (the chunks assume it).
    Deal::from_number(job.first, job.scheme)?;
    Deal::from_number(job.last, job.scheme)?;
    if !DEAL_LIST_FORMATS.contains(&format) {
        return deal_boards(job, count, stdout);
    }
    let failed = |error| Error::write(job.out.as_deref(), error);
    // A file appears whole or not at all: a failed write keeps the old one.
    let mut out = ReportOutput::create(job.out.as_deref(), stdout)?;
    crate::warm_up();
    crate::par_chunks_ordered(
        count,
        |offset, len| {
            let deals = unranked(job.first, job.scheme, offset, len);
            let mut buf = Vec::with_capacity(len * 80);
            let start = job.first + u128::from(offset);
            push_listing(&mut buf, format, job.scheme, start, &deals);
            buf
        },
        |buf: Vec<u8>| out.write_all(&buf),
    )
    .map_err(failed)?;
    out.finish()?;
    Ok(DealReport {
        scheme: job.scheme.name(),
        first: job.first.to_string(),
        last: job.last.to_string(),
        deals: count,
        format,
        out: job.out.clone(),
    })
}

/// The deals `range` of `scheme` (offsets `offset..offset + len` from `first`), made from
/// their numbers.
fn unranked(first: u128, scheme: Scheme, offset: u64, len: usize) -> Vec<Deal> {
    let mut deals = vec![Deal::from_number(1, scheme).expect("1 is valid"); len];
    crate::unrank_range(first + u128::from(offset), scheme, &mut deals).expect("range checked");
    deals
}

/// [`deal`] in a registry format that is not a listing: the deals as boards 1, 2, … through
/// a [`FileSink`](crate::workflow::pipeline::FileSink), each piece rendered where it is made.
fn deal_boards(job: &DealJob, count: u64, stdout: &mut dyn Write) -> Result<DealReport> {
    let output = Output {
        path: job.out.clone(),
        format: job.format,
    };
    let options = formats::WriteOptions {
        last_board: count,
        scheme: job.scheme,
        ..formats::WriteOptions::default()
    };
    let files = job.writing.files(vec![output], "", options, true);
    let max = crate::workflow::generate::MAX_COLLECTED;
    if !files.streams() && count > max {
        let format = job.format.info().name;
        return Err(ErrorKind::TooManyToCollect { format, max }.into());
    }
    let mut sink = files.open(stdout)?;
    let renderer = sink.renderer();
    crate::warm_up();
    crate::par_chunks_ordered(
        count,
        |offset, len| {
            let deals = unranked(job.first, job.scheme, offset, len);
            let boards = (offset + 1..)
                .zip(deals)
                .map(|(n, d)| Board::new(n, d))
                .collect();
            renderer.render(boards)
        },
        |piece| sink.write_rendered(piece?),
    )?;
    sink.finish()?;
    Ok(DealReport {
        scheme: job.scheme.name(),
        first: job.first.to_string(),
        last: job.last.to_string(),
        deals: count,
        format: job.format.info().name,
        out: job.out.clone(),
    })
}

/// Appends deals `first`, `first + 1`, … of `scheme` as the listing `format` (a name of
/// [`DEAL_LIST_FORMATS`]) writes them: PBN deal strings from North, hex indices, or JSON
/// lines with the number as a string (numbers exceed 2^53).
fn push_listing(out: &mut Vec<u8>, format: &str, scheme: Scheme, first: u128, deals: &[Deal]) {
    for (j, d) in deals.iter().enumerate() {
        match format {
            "hex" => {
                let mut digits = [0u8; 26];
                DealIndex::from_deal(d).write_hex(&mut digits);
                out.extend_from_slice(&digits);
            }
            "json" => {
                let number = first + j as u128;
                // Every string written is from a fixed ASCII alphabet: no escaping needed.
                out.extend_from_slice(
                    format!("{{\"number\":\"{number}\",\"scheme\":\"{scheme}\",\"deal\":\"")
                        .as_bytes(),
                );
                push_deal_bytes(out, d, Seat::North);
                out.extend_from_slice(
                    format!("\",\"index\":\"{}\"}}", DealIndex::from_deal(d)).as_bytes(),
                );
            }
            _ => push_deal_bytes(out, d, Seat::North),
        }
        out.push(b'\n');
    }
}

/// One line: the numbers listed, how many, in which format, where.
impl std::fmt::Display for DealReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let out = self
            .out
            .as_ref()
            .map_or("stdout".to_owned(), |p| p.display().to_string());
        write!(
            f,
            "{} deals {}..{} ({}) as {} to {out}",
            self.deals, self.first, self.last, self.scheme, self.format
        )
    }
}

/// What `dealdex number` prints: each deal's number, a line each, after its board number when
/// the deal came from a numbered board (no final newline).
impl std::fmt::Display for NumberReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, d) in self.deals.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            match d.board {
                Some(b) => write!(f, "{b} {}", d.number)?,
                None => write!(f, "{}", d.number)?,
            }
        }
        Ok(())
    }
}
