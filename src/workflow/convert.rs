//! The `convert` workflow: a deal file read through one format (FORMATS.md) and written
//! through another. Outputs that are all files of streaming formats get each piece of the
//! input as it is read, into temporary files put in place at the end (memory flat in the
//! file's size); other outputs are rendered in memory before anything is written.
//!
//! A job goes in ([`ConvertJob`]), a report comes out ([`ConvertReport`], serde);
//! standard-output files go to the writer the caller passes, so the library never prints.
//!
//! ```
//! use dealdex::workflow::output::Output;
//! use dealdex::formats;
//! use dealdex::workflow::convert::{ConvertJob, run};
//! let dir = tempfile::tempdir()?;
//! let input = dir.path().join("one.pbn");
//! std::fs::write(&input, "[Board \"1\"]\n[Deal \"N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432\"]\n")?;
//! let out = Output { path: None, format: formats::by_name("hex").unwrap() };
//! let job = ConvertJob::new(input, formats::by_name("pbn").unwrap(), vec![out]);
//! let mut stdout = Vec::new();
//! let report = run(&job, &mut stdout)?;
//! assert_eq!((report.boards, report.files.len()), (1, 1));
//! assert_eq!(report.files[0].bytes, stdout.len() as u64);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;

use crate::Classify;
use crate::formats::SkippedBoard;
use crate::formats::stream::read_stream;
use crate::formats::{DealFormat, WriteOptions};
use crate::workflow::input::{ReadFileError, read_deal_file_all, read_failure};
use crate::workflow::output::{
    ExportedFile, Output, RenderError, StagedFile, WriteError, render_set, write_rendered,
};

/// A convert job: one file in, its boards out to every output.
#[derive(Clone)]
pub struct ConvertJob {
    /// The file to read.
    pub input: PathBuf,
    /// The format to read it as.
    pub from: &'static dyn DealFormat,
    /// The outputs, each a file or standard output with its format.
    pub outputs: Vec<Output>,
    /// Number of the first board when the input carries no board numbers (1-based; `None`:
    /// 1, or what the file says, as DUP's trailer does); see
    /// [`crate::formats::ReadOptions::first_board`].
    pub first_board: Option<u64>,
    /// The event name for the formats that carry one (default: none).
    pub event: Option<String>,
    /// Hide the cards from dealing machines' displays where the format can.
    pub blind: bool,
    /// Cut outputs for formats with a board limit into files of 96 boards
    /// ([`render_set`]).
    pub split: bool,
}

impl ConvertJob {
    /// A job converting `input` (read as `from`) to `outputs`, with boards numbered from 1
    /// where the file has no numbers, no event, cards shown, not split.
    pub fn new(input: PathBuf, from: &'static dyn DealFormat, outputs: Vec<Output>) -> ConvertJob {
        ConvertJob {
            input,
            from,
            outputs,
            first_board: None,
            event: None,
            blind: false,
            split: false,
        }
    }
}

/// What a convert job did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConvertReport {
    /// The file read.
    pub input: PathBuf,
    /// The format it was read as (registry name).
    pub from: &'static str,
    /// Boards read.
    pub boards: u64,
    /// The first board's number (boards without one are numbered from the job's
    /// `first_board`).
    pub first_board: u64,
    /// The last board's number.
    pub last_board: u64,
    /// Boards of the input without a complete deal, not converted (see [`SkippedBoard`]).
    pub skipped: Vec<SkippedBoard>,
    /// What the reader ignored, each naming its line (e.g. an incomplete PBN table).
    pub warnings: Vec<String>,
    /// The files written, in order (standard output with `path` null).
    pub files: Vec<ExportedFile>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Why a conversion failed. Nothing is written unless every output rendered.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The input could not be read, its format refused it, or it holds no board.
    #[error(transparent)]
    Read(#[from] ReadFileError),
    /// An output format cannot hold the boards (nothing was written).
    #[error(transparent)]
    Render(#[from] RenderError),
    /// An output could not be written (files before it are written).
    #[error(transparent)]
    Write(#[from] WriteError),
}

impl Classify for ConvertError {
    /// An unreadable or refused input and an output format that cannot hold the boards are
    /// bad input; a failed write is I/O.
    fn class(&self) -> crate::ErrorClass {
        match self {
            ConvertError::Read(e) => e.class(),
            ConvertError::Render(_) => crate::ErrorClass::BadInput,
            ConvertError::Write(_) => crate::ErrorClass::Io,
        }
    }

    /// The input's position ([`ReadFileError`]'s) when it could not be read.
    fn position(&self) -> Option<crate::InputPosition> {
        match self {
            ConvertError::Read(e) => e.position(),
            _ => None,
        }
    }
}

/// Runs `job`. Outputs that are all files of streaming formats, not split: the input read
/// piece by piece, each piece written to every output as it comes. Otherwise: reads
/// the input's boards ([`read_deal_file`](crate::workflow::input::read_deal_file)), renders every output
/// ([`render_set`], the boards' numbers as the set's range), then writes them
/// ([`write_rendered`]; standard-output files to `stdout`).
///
/// # Errors
/// [`ConvertError`]: the input cannot be read, an output format cannot hold the boards
/// (nothing written), or an output cannot be written.
pub fn run(job: &ConvertJob, stdout: &mut dyn Write) -> Result<ConvertReport, ConvertError> {
    let started = Instant::now();
    let streamed = !job.split
        && job
            .outputs
            .iter()
            .all(|o| o.path.is_some() && o.format.info().streaming);
    if streamed {
        return run_streamed(job, started);
    }
    let read = read_deal_file_all(&job.input, job.from, job.first_board)?;
    let boards = read.boards;
    let first = boards.first().and_then(|b| b.number).unwrap_or(1);
    let last = boards.last().and_then(|b| b.number).unwrap_or(1);
    let opts = WriteOptions {
        event: job.event.clone().unwrap_or_default(),
        blind: job.blind,
        first_board: first,
        last_board: last,
        ..WriteOptions::default()
    };
    let files = render_set(&job.outputs, &boards, &opts, job.split)?;
    write_rendered(&files, stdout)?;
    Ok(ConvertReport {
        input: job.input.clone(),
        from: job.from.info().name,
        boards: boards.len() as u64,
        first_board: first,
        last_board: last,
        skipped: read.skipped,
        warnings: read.warnings,
        files: files.iter().map(ExportedFile::from).collect(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// [`run`] for outputs that are all files of streaming formats ([`crate::formats::FormatInfo::streaming`],
/// not split): the input is read piece by piece ([`read_stream`]) and each piece written to
/// every output as it comes, so memory stays that of a piece whatever the file's size. Each
/// output is written through a temporary file put in place only once the whole input has
/// been read and written ([`StagedFile`]): on any error no output is touched.
fn run_streamed(job: &ConvertJob, started: Instant) -> Result<ConvertReport, ConvertError> {
    let read_error = |error| ReadFileError::Io {
        path: job.input.clone(),
        error,
    };
    let mut input = std::fs::File::open(&job.input).map_err(read_error)?;
    let opts = WriteOptions {
        event: job.event.clone().unwrap_or_default(),
        blind: job.blind,
        first_board: job.first_board.unwrap_or(1),
        last_board: job.first_board.unwrap_or(1),
        ..WriteOptions::default()
    };
    struct Out<'a> {
        output: &'a Output,
        file: StagedFile,
        bytes: u64,
    }
    let mut outs: Vec<Out> = Vec::with_capacity(job.outputs.len());
    let mut buf = Vec::new();
    let render = |o: &Output, error| RenderError {
        output: o.label(),
        error,
        over_limit: false,
    };
    for output in &job.outputs {
        let path = output.path.as_deref().expect("streamed outputs are files");
        let mut file = StagedFile::create(path)?;
        buf.clear();
        output
            .format
            .write_header(&opts, &mut buf)
            .map_err(|e| render(output, e))?;
        file.write_all(&buf)
            .map_err(|e| WriteError::of(Some(path), e))?;
        outs.push(Out {
            output,
            file,
            bytes: buf.len() as u64,
        });
    }
    let (mut boards, mut first, mut last) = (0u64, None, 1u64);
    let (mut skipped, mut warnings) = (Vec::new(), Vec::new());
    let read_opts = crate::formats::ReadOptions {
        first_board: job.first_board,
    };
    let streamed = read_stream(job.from, &mut input, &read_opts, &mut |piece| {
        for o in &mut outs {
            buf.clear();
            o.output
                .format
                .write_boards(&piece.boards, &opts, &mut buf)
                .map_err(|e| ConvertError::Render(render(o.output, e)))?;
            o.file
                .write_all(&buf)
                .map_err(|e| WriteError::of(Some(o.file.path()), e))?;
            o.bytes += buf.len() as u64;
        }
        boards += piece.boards.len() as u64;
        first = first.or(piece.boards.first().and_then(|b| b.number));
        last = piece.boards.last().and_then(|b| b.number).unwrap_or(last);
        skipped.extend(piece.skipped);
        warnings.extend(piece.warnings);
        Ok::<(), ConvertError>(())
    });
    if let Err(e) = streamed {
        return Err(match read_failure(e, &job.input) {
            Ok(read) => read.into(),
            Err(consumer) => consumer,
        });
    }
    if boards == 0 {
        return Err(ReadFileError::Empty {
            path: job.input.clone(),
            format: job.from.info().name,
            skipped,
        }
        .into());
    }
    let mut files = Vec::with_capacity(outs.len());
    for o in &mut outs {
        buf.clear();
        o.output
            .format
            .write_footer(&opts, &mut buf)
            .map_err(|e| render(o.output, e))?;
        o.file
            .write_all(&buf)
            .map_err(|e| WriteError::of(Some(o.file.path()), e))?;
        files.push(ExportedFile {
            path: Some(o.file.path().to_owned()),
            format: o.output.format.info().name,
            boards,
            bytes: o.bytes + buf.len() as u64,
        });
    }
    // Every output complete: put them in place.
    for o in outs {
        o.file.commit()?;
    }
    Ok(ConvertReport {
        input: job.input.clone(),
        from: job.from.info().name,
        boards,
        first_board: first.unwrap_or(1),
        last_board: last,
        skipped,
        warnings,
        files,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// One line: the file converted, boards, and the files written (`dealdex convert` prints no
/// summary in text mode, only the reader's notes; this is the report's text for programs).
impl std::fmt::Display for ConvertReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files: Vec<String> = self.files.iter().map(|x| x.label()).collect();
        write!(
            f,
            "converted {} ({}): {} boards to {}; {:.2} s",
            self.input.display(),
            self.from,
            self.boards,
            files.join(", "),
            self.seconds
        )
    }
}
