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
//! assert_eq!((report.boards, report.files.len()), (4, 1));
//! assert!(String::from_utf8(stdout)?.contains("[Event \"club\"]"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;

use serde::Serialize;

use crate::formats::{Board, WriteOptions};
use crate::model::index::{DealIndex, IndexError};
use crate::store::{SetInfo, StoreError, StoreReader};
use crate::workflow::output::{
    ExportedFile, Output, RenderError, WriteError, render_set, write_rendered,
};

/// An export job: a stored set to files.
#[derive(Clone)]
pub struct ExportJob {
    /// The set's name.
    pub set: String,
    /// The outputs, each a file or standard output with its format.
    pub outputs: Vec<Output>,
    /// The event name for the formats that carry one (default: the set's name).
    pub event: Option<String>,
    /// Hide the cards from dealing machines' displays where the format can.
    pub blind: bool,
    /// Cut the set for formats with a board limit (see [`render_set`]).
    pub split: bool,
}

impl ExportJob {
    /// A job writing set `set` to `outputs`, with the set's name as event, cards shown,
    /// not split.
    pub fn new(set: &str, outputs: Vec<Output>) -> ExportJob {
        ExportJob {
            set: set.to_owned(),
            outputs,
            event: None,
            blind: false,
            split: false,
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
    /// The files written, in order.
    pub files: Vec<ExportedFile>,
}

/// Why an export failed. Nothing is written unless every output rendered.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// No set of that name.
    #[error("no set named {set:?} in {database}")]
    NoSet {
        /// The name asked for.
        set: String,
        /// The database, as the store names it ([`StoreReader::path`]).
        database: String,
    },
    /// A stored key that is not a deal (the file was changed outside dealdex).
    #[error("set {set:?} board {board}: stored key {key}: {error}")]
    CorruptKey {
        /// The set.
        set: String,
        /// The board.
        board: u64,
        /// The stored key.
        key: DealIndex,
        /// Why it is no deal.
        error: IndexError,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A format cannot hold the set.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A file could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
}

impl crate::Classify for ExportError {
    /// No such set and a format that cannot hold the set are bad input; a stored key that
    /// is no deal is a corrupt store; a store error has the store's class; a file that
    /// cannot be written is I/O.
    fn class(&self) -> crate::ErrorClass {
        use crate::ErrorClass;
        match self {
            ExportError::NoSet { .. } => ErrorClass::BadInput,
            ExportError::CorruptKey { .. } => ErrorClass::CorruptStore,
            ExportError::Store(e) => e.class(),
            ExportError::Render(e) => e.class(),
            ExportError::Write(e) => e.class(),
        }
    }
}

/// A stored set's row and its boards in board order, each solved deal with its double-dummy
/// table (what [`export`] writes and the records workflow prints).
///
/// # Errors
/// [`ExportError::NoSet`], [`ExportError::CorruptKey`] for a stored key that is no deal, or
/// [`ExportError::Store`] when reading fails.
pub fn stored_set(store: &StoreReader, set: &str) -> Result<(SetInfo, Vec<Board>), ExportError> {
    let info = store.set(set)?.ok_or_else(|| ExportError::NoSet {
        set: set.to_owned(),
        database: store.path().to_owned(),
    })?;
    let rows = store.set_boards(set)?;
    let keys: Vec<DealIndex> = rows.iter().map(|(_, k)| *k).collect();
    rows.iter()
        .zip(store.dd_tables(&keys)?)
        .map(|(&(n, key), dd)| {
            let deal = key.to_deal().map_err(|error| ExportError::CorruptKey {
                set: set.to_owned(),
                board: n,
                key,
                error,
            })?;
            Ok(Board {
                dd,
                ..Board::new(n, deal)
            })
        })
        .collect::<Result<Vec<Board>, ExportError>>()
        .map(|boards| (info, boards))
}

/// Exports a stored set: its boards in board order, each solved deal with its double-dummy
/// table, rendered for every output before any is written, standard-output files to
/// `stdout`.
///
/// # Errors
/// [`ExportError`]: no such set, a corrupt stored key, the store failing, a format that cannot
/// hold the set (nothing written), or a file that cannot be written.
pub fn export(
    job: &ExportJob,
    store: &StoreReader,
    stdout: &mut dyn Write,
) -> Result<ExportReport, ExportError> {
    let (info, boards) = stored_set(store, &job.set)?;
    let solved = boards.iter().filter(|b| b.dd.is_some()).count() as u64;
    let opts = WriteOptions {
        event: job.event.clone().unwrap_or_else(|| info.name.clone()),
        blind: job.blind,
        first_board: info.first_board,
        last_board: info.last_board,
        scheme: info.scheme,
    };
    let files = render_set(&job.outputs, &boards, &opts, job.split)?;
    write_rendered(&files, stdout)?;
    Ok(ExportReport {
        set: info.name,
        boards: boards.len() as u64,
        solved,
        files: files.iter().map(ExportedFile::from).collect(),
    })
}

/// One line: the set, boards, and the files written.
impl std::fmt::Display for ExportReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files: Vec<String> = self.files.iter().map(|x| x.label()).collect();
        write!(
            f,
            "exported set {} ({} boards) to {}",
            self.set,
            self.boards,
            files.join(", ")
        )
    }
}
