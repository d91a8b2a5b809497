//! Deal files out: rendering a set for each output (cut for a dealing machine's board limit
//! with `split`), writing files so that a failed write loses nothing, and the `export`
//! workflow (a stored set, with the double-dummy tables of its solved deals, to files).
//!
//! A job goes in ([`ExportJob`]), a report comes out ([`ExportReport`], serde); output for
//! standard output goes to the writer the caller passes, so the library never prints.
//!
//! ```
//! use dealdex::workflow::export::{ExportJob, export};
//! use dealdex::workflow::output::Output;
//! use dealdex::{DealIndex, NewSet, Seed, Store, formats};
//! let seed: Seed = "42".repeat(32).parse()?;
//! let keys: Vec<(u64, DealIndex)> =
//!     (1..=4).map(|n| (n, DealIndex::from_deal(&seed.board_deal(n)))).collect();
//! let mut store = Store::open_in_memory()?;
//! let set = NewSet { name: "club".into(), first_board: 1, last_board: 4,
//!                    scheme: dealdex::Scheme::Pavlicek, generator: "doc".into(), seed_sha256: None };
//! store.store_set(&set, &keys)?;
//! let job = ExportJob::new("club", vec![Output { path: None, format: formats::by_name("pbn").unwrap() }]);
//! let mut stdout = Vec::new();
//! let report = export(&job, &store, &mut stdout)?;
//! assert_eq!((report.boards, report.written.files.len()), (4, 1));
//! assert!(String::from_utf8(stdout)?.contains("[Event \"club\"]"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;

use serde::Serialize;

use crate::formats::WriteOptions;
use crate::store::StoreReader;
use crate::workflow::output::{Output, Writing};
use crate::workflow::pipeline::{self, DealSink, DealSource, SourceOptions, Written};
use crate::{Error, Result};

/// An export job: a stored set to files.
#[derive(Clone)]
pub struct ExportJob {
    /// The set's name.
    pub set: String,
    /// The outputs, each a file or standard output with its format.
    pub outputs: Vec<Output>,
    /// Event (default: the set's name), blind, split.
    pub writing: Writing,
}

impl ExportJob {
    /// A job writing set `set` to `outputs`, with the set's name as event, cards shown,
    /// not split.
    pub fn new(set: &str, outputs: Vec<Output>) -> ExportJob {
        ExportJob {
            set: set.to_owned(),
            outputs,
            writing: Writing::default(),
        }
    }
}

/// What an export job did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExportReport {
    /// The set.
    pub set: String,
    /// Boards of the set.
    pub boards: u64,
    /// Boards whose deal is solved (their double-dummy tables go out with them where the
    /// format carries them: PBN).
    pub solved: u64,
    /// The files written, in order, and what an output cannot keep (the set's board
    /// numbers, to a format without them, for a set that does not start at 1).
    #[serde(flatten)]
    pub written: Written,
}

/// Exports a stored set: the set as a source (its boards in board order, each solved deal
/// with its double-dummy table) into a sink of the job's outputs, written with the set's
/// range, scheme and name as event; standard-output files to `stdout`.
///
/// # Errors
/// No such set, a corrupt stored key, the store failing, a format that cannot hold the set
/// (nothing written: nothing is written unless every output rendered), or a file that cannot
/// be written.
pub fn export(
    job: &ExportJob,
    store: &StoreReader,
    stdout: &mut dyn Write,
) -> Result<ExportReport> {
    let source = DealSource::Set(job.set.clone()).open(Some(store), &SourceOptions::WITH_TABLES)?;
    let info = source
        .facts()
        .set
        .clone()
        .expect("a set source has its row");
    let options = WriteOptions {
        first_board: info.first_board,
        last_board: info.last_board,
        scheme: info.scheme,
        ..WriteOptions::default()
    };
    let files = job
        .writing
        .files(job.outputs.clone(), &info.name, options, true);
    let mut sink = files.open(stdout)?;
    let mut solved = 0u64;
    let read = pipeline::drain(source, &mut sink, |boards| {
        solved += boards.iter().filter(|b| b.dd.is_some()).count() as u64;
        Ok::<(), Error>(())
    })?;
    let written = sink.finish()?;
    Ok(ExportReport {
        set: info.name,
        boards: read.boards,
        solved,
        written,
    })
}

/// One line: the set, boards, and the files written.
impl std::fmt::Display for ExportReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files: Vec<String> = self.written.files.iter().map(|x| x.label()).collect();
        write!(
            f,
            "exported set {} ({} boards) to {}",
            self.set,
            self.boards,
            files.join(", ")
        )
    }
}
