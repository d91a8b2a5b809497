//! The `convert` workflow: a deal file read through one format (FORMATS.md) and written
//! through another, as a [`DealSource`] into a [`DealSink`]: outputs that are all files of
//! streaming formats get each piece of the input as it is read, into temporary files put in
//! place at the end (memory flat in the file's size); other outputs are rendered in memory
//! before anything is written.
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
//! let report = run(&job, None, &mut stdout)?;
//! assert_eq!((report.boards, report.files.len()), (1, 1));
//! assert_eq!(report.files[0].bytes, stdout.len() as u64);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;

use crate::formats::WriteOptions;
use crate::workflow::output::{ExportedFile, Output, Writing};
use crate::workflow::pipeline::{self, DealSink, DealSource, ReadNotes, SourceOptions};
use crate::{Error, ErrorKind, Result, StoreReader};

/// A convert job: one source's boards out to every output.
#[derive(Clone)]
pub struct ConvertJob {
    /// The boards: a deal file (its format and first board in it), a stored set, the
    /// whole store.
    pub source: DealSource,
    /// The outputs, each a file or standard output with its format.
    pub outputs: Vec<Output>,
    /// Event (default: none), blind, split.
    pub writing: Writing,
}

impl ConvertJob {
    /// A job converting `input` (read as `from`, boards numbered from 1 where the file has
    /// no numbers) to `outputs`, with no event, cards shown, not split.
    pub fn new(
        input: PathBuf,
        from: &'static dyn crate::formats::DealFormat,
        outputs: Vec<Output>,
    ) -> ConvertJob {
        ConvertJob {
            source: DealSource::File(crate::workflow::pipeline::FileSource {
                path: input,
                format: Some(from),
                first_board: None,
            }),
            outputs,
            writing: Writing::default(),
        }
    }
}

/// What a convert job did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConvertReport {
    /// The file read (`<stdin>` for standard input), or the set or database.
    pub input: PathBuf,
    /// The format it was read as (registry name; `store` for stored deals).
    pub from: &'static str,
    /// Boards read.
    pub boards: u64,
    /// The first board's number (boards without one are numbered from the job's
    /// `first_board`).
    pub first_board: u64,
    /// The last board's number.
    pub last_board: u64,
    /// Boards of the input without a complete deal, not converted (see [`SkippedBoard`](crate::formats::SkippedBoard)),
    /// and what the reader ignored, each naming its line (e.g. an incomplete PBN table).
    #[serde(flatten)]
    pub notes: ReadNotes,
    /// What an output cannot keep, each naming the output ([`Written::warnings`](crate::workflow::pipeline::Written::warnings): board
    /// numbers a format without them drops).
    pub output_warnings: Vec<String>,
    /// The files written, in order (standard output with `path` null).
    pub files: Vec<ExportedFile>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Runs `job`: source → sink ([`crate::workflow::pipeline`]). The source is read a piece
/// at a time; outputs that are all files of streaming formats get each piece as it comes
/// (memory flat in the input's size), others are rendered at the end; nothing is put in
/// place unless every output is written. Standard-output files go to `stdout`. `store` is
/// the database of a stored source.
///
/// # Errors
/// The input cannot be read, an output format cannot hold the boards (nothing written:
/// nothing is written unless every output rendered), or an output cannot be written.
pub fn run(
    job: &ConvertJob,
    store: Option<&StoreReader>,
    stdout: &mut dyn Write,
) -> Result<ConvertReport> {
    let started = Instant::now();
    let source = job.source.open(store, &SourceOptions::default())?;
    let facts = source.facts().clone();
    let first_told = match &job.source {
        DealSource::File(f) => f.first_board,
        _ => facts.set.as_ref().map(|s| s.first_board),
    };
    let options = WriteOptions {
        first_board: first_told.unwrap_or(1),
        last_board: first_told.unwrap_or(1),
        ..WriteOptions::default()
    };
    let files = job.writing.files(job.outputs.clone(), "", options, false);
    let mut sink = files.open(stdout)?;
    let (mut first, mut last) = (None, 1u64);
    let read = pipeline::drain(source, &mut sink, |boards| {
        // Numbered from a first board near the maximum, the last boards would pass it: refused
        // before anything is written, as import refuses such boards.
        let max = crate::formats::MAX_BOARD_NUMBER;
        if let Some(n) = boards.iter().filter_map(|b| b.number).find(|&n| n > max) {
            return Err(Error::from(ErrorKind::FirstBoard {
                first: first_told.unwrap_or(1),
                reason: format!(
                    "the file's boards would be numbered past {max} (board {n}), the largest board number a database holds"
                ),
            }));
        }
        first = first.or(boards.first().and_then(|b| b.number));
        last = boards.last().and_then(|b| b.number).unwrap_or(last);
        Ok::<(), Error>(())
    })?;
    let written = sink.finish()?;
    Ok(ConvertReport {
        input: PathBuf::from(&facts.name),
        from: facts.format.unwrap_or("store"),
        boards: read.boards,
        first_board: first.unwrap_or(1),
        last_board: last,
        notes: read.notes,
        output_warnings: written.warnings,
        files: written.files,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Classify;
    use crate::formats::{self, MAX_BOARD_NUMBER};

    /// A library job's first board past [`MAX_BOARD_NUMBER`] is refused before the input is
    /// read (it used to number the boards up to `u64::MAX` and then stay there).
    #[test]
    fn a_first_board_past_the_maximum_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.hex");
        std::fs::write(&input, "E4E4E4E4E4E4E4E4E4E4E4E4E4\n".repeat(3)).unwrap();
        let out = Output {
            path: None,
            format: formats::by_name("pbn").unwrap(),
        };
        let mut job = ConvertJob::new(input, formats::by_name("hex").unwrap(), vec![out]);
        let set_first = |job: &mut ConvertJob, first| match &mut job.source {
            DealSource::File(f) => f.first_board = Some(first),
            _ => unreachable!("a file job"),
        };
        for first in [0, MAX_BOARD_NUMBER + 1, u64::MAX - 1] {
            set_first(&mut job, first);
            let mut stdout = Vec::new();
            let e = run(&job, None, &mut stdout).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::FirstBoard { first: f, .. } if *f == first),
                "{e}"
            );
            assert_eq!(e.class(), crate::ErrorClass::BadInput);
            assert!(e.to_string().contains("9223372036854775807"), "{e}");
            assert!(stdout.is_empty());
        }
        set_first(&mut job, MAX_BOARD_NUMBER - 2);
        let mut stdout = Vec::new();
        let report = run(&job, None, &mut stdout).unwrap();
        assert_eq!(report.last_board, MAX_BOARD_NUMBER);
    }
}
