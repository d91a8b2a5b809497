//! The `import` workflow: deal files of any format into the store, with their plays and
//! double-dummy tables, each file whole or not at all.
//!
//! A job goes in ([`ImportJob`]), a report comes out ([`ImportReport`], serde), each file's
//! outcome goes to a callback as soon as it is known; the library never prints.
//!
//! Boards without a complete deal (auction-only boards of teaching and bidding files: an
//! empty, placeholder or partial deal, see [`formats::SkippedBoard`]) are skipped, not
//! stored, and named in the file's outcome; the file's other boards are stored. A malformed
//! deal still rejects the file whole.
//!
//! ```
//! use dealdex::import::{ImportJob, import};
//! use dealdex::{Store, formats};
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("one.pbn");
//! std::fs::write(&path, "[Board \"1\"]\n[Deal \"N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432\"]\n")?;
//! let job = ImportJob::new(vec![(path, formats::by_name("pbn").unwrap())]);
//! let mut store = Store::open_in_memory()?;
//! let report = import(&job, &mut store, &mut |_| {})?;
//! assert_eq!((report.boards_read, report.new_deals, report.rejected), (1, 1, 0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::dd::TrickTable;
use crate::formats::{self, Board, DealFormat, GameRecord, SkippedBoard};
use crate::model::index::DealIndex;
use crate::model::number::Scheme;
use crate::store::{
    DdSource, DealWriter, NewPlay, NewPlayed, NewSet, PlaysAndTables, PlaysAndTablesStored, Store,
    StoreError, StoreErrorKind,
};
use crate::workflow::input::skipped_names;
use crate::workflow::pipeline::{DealSource, FileSource, ReadAs, SourceOptions};
use crate::{Error, ErrorKind, InputPosition, ReadKind, Result};

/// Bytes of files read (in parallel) before their boards are stored.
const WINDOW_BYTES: u64 = 256 << 20;

/// Files larger than this (64 MiB) are read and, without a set, stored piece by piece
/// in one transaction rather than held whole ([`import`]).
pub const STREAM_FILE_BYTES: u64 = 64 << 20;

/// Boards gathered into one transaction when importing deals only (the default
/// [`ImportJob::batch`]).
pub const DEFAULT_IMPORT_BATCH: u64 = 1 << 20;

/// The largest [`ImportJob::batch`] the command line accepts: a batch's keys are held in
/// memory and sorted together (a file is never split, so a batch may hold more).
pub const MAX_IMPORT_BATCH: u64 = 1 << 24;

/// An import job: which files, read how, stored how. With the `clap` feature, `set`,
/// `batch` and `verify_tables` are arguments (the binary makes the files and the first
/// board from its own, [`ImportJob::for_paths`]).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct ImportJob {
    /// The files in order, each with the format to read it as; `None`: the one its first
    /// 64 KiB show, told as it is read (`open_deal_file`: each file is opened once).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub files: Vec<(PathBuf, Option<&'static dyn DealFormat>)>,
    /// Store each file's boards as this set (with several files: NAME-1, NAME-2, …, by
    /// their place in the files); none: deals only.
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub set: Option<String>,
    /// Number of the first board of a file that carries no board numbers (1-based; `None`:
    /// 1, or what the file says where it says something, as DUP's trailer does); see
    /// [`formats::ReadOptions::first_board`].
    #[cfg_attr(feature = "clap", arg(skip))]
    pub first_board: Option<u64>,
    /// Without --set: commit whole files, in the order given, once they hold N boards
    /// together; a kill or crash loses at most the files of the batch in flight, and
    /// rerunning the command stores the rest (a file stored piece by piece, past 64 MiB, is
    /// one transaction whose keys are inserted in sorted passes of N). With --set each file
    /// is its own transaction.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", default_value_t = DEFAULT_IMPORT_BATCH,
        conflicts_with = "set", value_parser = clap::value_parser!(u64).range(1..=MAX_IMPORT_BATCH)))]
    pub batch: u64,
    /// A switch another thread may turn on to stop the import (Ctrl-C in a program hosting
    /// dealdex): checked before each window of files is read and before each transaction;
    /// what was stored stays stored, and the report says the import stopped
    /// ([`ImportReport::stopped`]).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Solve every double-dummy table a file gives (a PBN's, a GIB or RP library's) before
    /// storing it, on every core: a table that differs from the solver's is reported (board
    /// and cells) and not stored; its deal is stored without it. About 30 ms a deal on each
    /// core; for a large library check a sample afterwards (`solve --verify --sample N`).
    #[cfg_attr(feature = "clap", arg(long))]
    pub verify_tables: bool,
}

impl ImportJob {
    /// A job for `files` with the defaults: deals only, boards numbered from 1, batches of
    /// [`DEFAULT_IMPORT_BATCH`] boards.
    pub fn new(files: Vec<(PathBuf, &'static dyn DealFormat)>) -> ImportJob {
        ImportJob {
            files: files.into_iter().map(|(p, f)| (p, Some(f))).collect(),
            set: None,
            first_board: None,
            batch: DEFAULT_IMPORT_BATCH,
            stop: None,
            verify_tables: false,
        }
    }

    /// [`ImportJob::new`] for the files `paths`, each read as `read` says: in its format,
    /// else the one its extension selects, else the one its content shows, told when the
    /// file is read (a file whose content shows none is rejected then, as a file that does
    /// not read is); its first board.
    pub fn for_paths(paths: &[PathBuf], read: ReadAs) -> ImportJob {
        ImportJob {
            files: paths.iter().map(|p| (p.clone(), read.format)).collect(),
            first_board: read.first_board,
            ..ImportJob::new(Vec::new())
        }
    }
}

/// What became of one file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileOutcome {
    /// The file.
    pub path: PathBuf,
    /// The format it was read as (its registry name, e.g. `pbn`).
    pub format: &'static str,
    /// Stored, or why not.
    #[serde(flatten)]
    pub result: FileResult,
}

/// A file stored, or rejected whole.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum FileResult {
    /// Stored in one transaction (with the others of its batch).
    Imported {
        /// The set it was stored as, if any.
        set: Option<String>,
        /// Boards read with a complete deal, all stored (new or duplicate).
        boards: u64,
        /// Boards skipped for want of a complete deal ([`SkippedBoard`]), in file order.
        skipped: Vec<SkippedBoard>,
        /// What the reader ignored (each naming its line), e.g. an incomplete PBN
        /// `[OptimumResultTable]`: the board was stored without it.
        warnings: Vec<String>,
        /// Deals new to the database.
        new_deals: u64,
        /// Play records read (replayed and valid).
        plays: u64,
        /// Play records new to the database.
        new_plays: u64,
        /// Boards played at a table (a game record naming a room, players, an auction, a
        /// contract, a result or play; `played` table, migration 10).
        played: u64,
        /// Played boards new to the database.
        new_played: u64,
        /// Records kept with what is consistent in them and what was not, each naming its
        /// board and table ([`formats::Inconsistency`]): the reader's and the records' own
        /// ([`formats::check_board`]).
        inconsistencies: Vec<formats::Inconsistency>,
        /// Double-dummy tables the file gives (one per deal).
        dd_tables: u64,
        /// Tables stored (the others were already stored, and agreed).
        new_dd_tables: u64,
        /// With [`ImportJob::verify_tables`]: tables the file gives that differ from the
        /// solver's, not stored (each named in `warnings`); not counted in `dd_tables`.
        dd_refused: u64,
    },
    /// The file read but holds no board, and is not refused for it: a LIN vugraph file of
    /// a header only (`vg`, `rs`, `pn` lines: a match whose boards were never recorded,
    /// common in BBO's archives), so that a run over a folder of matches goes on. Any other
    /// file without a board is [`FileResult::Rejected`].
    NoBoards {
        /// Why there are none, e.g. `header only`.
        reason: String,
    },
    /// Nothing of the file was stored.
    Rejected {
        /// Why, with the position in the file (board, line, column) where known.
        reason: Rejection,
    },
}

/// Why a file was rejected whole ([`FileResult::Rejected`]): the message `dealdex import`
/// prints after the file's name, and, when the file did not read, the reader's error with
/// its kind and position ([`Rejection::read_error`], [`Rejection::position`]). Serialized
/// as the message; a rejection is the caller's file, always bad input.
#[derive(Clone, Debug, derive_more::Display)]
#[display("{reason}")]
pub struct Rejection {
    reason: String,
    read: Option<Arc<Error>>,
}

impl Rejection {
    /// A file that did not read (a read kind of `error`, [`Error::read_kind`]):
    /// `error`, its message without the file's name.
    fn read(error: Error) -> Rejection {
        let message = error.to_string();
        let path = error.read_path().unwrap_or(Path::new(""));
        let name = format!("{}: ", path.display());
        Rejection {
            reason: message.strip_prefix(&name).unwrap_or(&message).to_owned(),
            read: Some(Arc::new(error)),
        }
    }

    /// Why, as the file's outcome says it (without the file's name).
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The reader's error when the file could not be read, its format refused it or it held
    /// no complete deal; `None` when it read but its content was refused (a play that does
    /// not replay, double-dummy tables that disagree, a board number too large, a set name
    /// taken).
    pub fn read_error(&self) -> Option<&Error> {
        self.read.as_deref()
    }

    /// What kind of read problem this is ([`Error::read_kind`]); `None` as for
    /// [`Rejection::read_error`].
    pub fn kind(&self) -> Option<ReadKind> {
        self.read_error().and_then(Error::read_kind)
    }
}

/// A rejection for what the file holds, not for reading it.
impl From<String> for Rejection {
    fn from(reason: String) -> Rejection {
        Rejection { reason, read: None }
    }
}

/// The same message and the same kind of read problem.
impl PartialEq for Rejection {
    fn eq(&self, other: &Rejection) -> bool {
        self.reason == other.reason && self.kind() == other.kind()
    }
}

/// The message, as a string.
impl Serialize for Rejection {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.reason)
    }
}

impl Rejection {
    /// The reader's position (the file, and the line and column or record and byte where
    /// the format gives them) when the file did not read; `None` otherwise.
    pub fn position(&self) -> Option<InputPosition> {
        self.read_error().and_then(Error::position)
    }
}

/// What an import job did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ImportReport {
    /// The database, as the store names it ([`crate::StoreReader::path`]; not in the JSON
    /// report).
    #[serde(skip)]
    pub database: String,
    /// Each file's outcome, in job order.
    pub files: Vec<FileOutcome>,
    /// Boards read from the files stored (with a complete deal).
    pub boards_read: u64,
    /// Boards of the files stored skipped for want of a complete deal.
    pub boards_skipped: u64,
    /// Deals new to the database.
    pub new_deals: u64,
    /// Boards whose deal was already stored (or came earlier in the job).
    pub duplicates: u64,
    /// Files rejected.
    pub rejected: usize,
    /// The job's stop switch ended the import early: the files not in [`Self::files`] were
    /// not stored.
    pub stopped: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// One line: the file, then `rejected: WHY`, or its boards read and stored (skipped boards
/// named), new deals, duplicates, plays, double-dummy tables and warnings — the line
/// `dealdex import` prints per file.
impl std::fmt::Display for FileOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.path.display();
        match &self.result {
            FileResult::Rejected { reason } => write!(f, "{name}: rejected: {reason}"),
            FileResult::NoBoards { reason } => {
                write!(f, "{name}: no boards: {reason} ({})", self.format)
            }
            FileResult::Imported {
                boards,
                skipped,
                warnings,
                new_deals,
                plays,
                new_plays,
                played,
                new_played,
                inconsistencies,
                dd_tables,
                new_dd_tables,
                dd_refused,
                ..
            } => {
                // Boards without a complete deal: "3 boards read, 2 stored, 1 skipped (board 5:
                // no complete deal)".
                match skipped.len() {
                    0 => write!(f, "{name}: {boards} boards read ({})", self.format)?,
                    k => write!(
                        f,
                        "{name}: {} boards read ({}), {boards} stored, {k} skipped ({})",
                        *boards + k as u64,
                        self.format,
                        skipped_names(skipped)
                    )?,
                }
                write!(f, ", {new_deals} new, {} duplicates", boards - new_deals)?;
                match plays {
                    0 => {}
                    1 => write!(f, "; 1 play ({new_plays} new)")?,
                    k => write!(f, "; {k} plays ({new_plays} new)")?,
                }
                match played {
                    0 => {}
                    1 => write!(f, "; 1 board played ({new_played} new)")?,
                    k => write!(f, "; {k} boards played ({new_played} new)")?,
                }
                if !inconsistencies.is_empty() {
                    let mut kinds: std::collections::BTreeMap<&str, usize> = Default::default();
                    for i in inconsistencies {
                        *kinds.entry(i.kind.name()).or_default() += 1;
                    }
                    let kinds: Vec<String> =
                        kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
                    write!(
                        f,
                        "; {} inconsistent record{} kept ({})",
                        inconsistencies.len(),
                        if inconsistencies.len() == 1 { "" } else { "s" },
                        kinds.join(", ")
                    )?;
                    inconsistencies
                        .iter()
                        .try_for_each(|i| write!(f, "; inconsistent: {i}"))?;
                }
                // The file's tables are stored as given (trusted like its deals), except for deals
                // solved here before, which were checked to agree.
                if *dd_tables > 0 {
                    write!(
                        f,
                        "; {dd_tables} double-dummy table{} ({new_dd_tables} new, stored as the file gives them; {} matched tables already stored)",
                        if *dd_tables == 1 { "" } else { "s" },
                        dd_tables - new_dd_tables
                    )?;
                }
                if *dd_refused > 0 {
                    write!(
                        f,
                        "; {dd_refused} double-dummy table{} not stored: they differ from the solver's",
                        if *dd_refused == 1 { "" } else { "s" }
                    )?;
                }
                warnings
                    .iter()
                    .try_for_each(|w| write!(f, "; warning: {w}"))
            }
        }
    }
}

/// The summary line `dealdex import` prints, naming the database: files imported of those
/// given, boards read (and skipped), new deals, duplicates, files rejected.
///
/// ```
/// use dealdex::import::ImportReport;
/// let r = ImportReport { database: "d.db".into(), ..Default::default() };
/// assert_eq!(
///     r.to_string(),
///     "imported 0 of 0 files into d.db: 0 boards read, 0 new, 0 duplicates, 0 files rejected"
/// );
/// ```
impl std::fmt::Display for ImportReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let read = match self.boards_skipped {
            0 => format!("{} boards read", self.boards_read),
            k => format!(
                "{} boards read, {} stored, {k} skipped (no complete deal)",
                self.boards_read + k,
                self.boards_read
            ),
        };
        write!(
            f,
            "imported {} of {} files into {}: {read}, {} new, {} duplicates, {} files rejected",
            self.files.len() - self.rejected,
            self.files.len(),
            self.database,
            self.new_deals,
            self.duplicates,
            self.rejected
        )
    }
}

impl ImportReport {
    /// Ok when every file was stored.
    ///
    /// # Errors
    /// [`ErrorKind::FilesRejected`] (bad input) when some file was rejected.
    pub fn check(&self) -> Result<()> {
        match self.rejected {
            0 => Ok(()),
            rejected => Err(ErrorKind::FilesRejected {
                rejected,
                files: self.files.len(),
            }
            .into()),
        }
    }
}

/// A file read and checked, ready to store.
struct Parsed {
    /// Each board's number (if known) and key, in file order: the deals themselves are not
    /// kept (13 bytes a board rather than a [`Board`]).
    keys: Vec<(Option<u64>, DealIndex)>,
    /// Boards of the file before these (a piece of a streamed file).
    before: usize,
    skipped: Vec<SkippedBoard>,
    warnings: Vec<String>,
    /// Records kept with what is consistent in them (the reader's first, then the records').
    inconsistencies: Vec<formats::Inconsistency>,
    plays_and_tables: PlaysAndTables,
    /// Tables refused for differing from the solver's ([`ImportJob::verify_tables`]).
    dd_refused: u64,
}

/// [`import`] into the database `db`, opened for it (created, migrated; a database another
/// program made only when `migrate_foreign`, [`Store::open_foreign`]): a database the import
/// creates and then stores nothing in is removed again, so that a refused import leaves no
/// file behind.
///
/// # Errors
/// [`ErrorKind::Store`] when `db` does not open, else [`import`]'s; a busy database is said
/// plainly ([`Error::explain_busy`]).
pub fn import_in(
    job: &ImportJob,
    db: &Path,
    migrate_foreign: bool,
    on_file: &mut dyn FnMut(&FileOutcome),
) -> Result<ImportReport> {
    let created = !db.exists();
    let forget = |stored: bool| (created && !stored).then(|| Store::remove_files(db));
    let opened = match migrate_foreign {
        true => Store::open_foreign(db),
        false => Store::open(db),
    };
    let mut store = opened.map_err(StoreError::explain_busy)?;
    let report = import(job, &mut store, on_file);
    drop(store);
    let report = report.inspect_err(|_| _ = forget(false));
    let report = report.map_err(Error::explain_busy)?;
    forget(report.new_deals + report.duplicates > 0);
    Ok(report)
}

/// Runs an import job against `store`, calling `on_file` with each file's outcome as soon as
/// it is known (a rejection can come before the outcome of an earlier file of its batch;
/// [`ImportReport::files`] is in job order). Files are read in parallel, a window of some 256 MiB at a
/// time, and stored in order; a file over [`STREAM_FILE_BYTES`] (or a pipe, a device) is read
/// piece by piece and, without a set, stored piece by piece in one transaction, so memory
/// stays flat in its size; a file that does not read, whose plays do not replay, whose
/// double-dummy tables disagree with each other or with stored ones, or (with a set) whose
/// set name is taken, is rejected whole and the job goes on.
///
/// # Errors
/// [`ErrorKind::Import`] when the store fails; files reported before it are stored.
pub fn import(
    job: &ImportJob,
    store: &mut Store,
    on_file: &mut dyn FnMut(&FileOutcome),
) -> Result<ImportReport> {
    let started = Instant::now();
    let mut outcomes = Outcomes {
        report: ImportReport {
            database: store.path().to_owned(),
            ..ImportReport::default()
        },
        order: Vec::with_capacity(job.files.len()),
        on_file,
    };
    // A file too large to hold (or of unknown size: a pipe, a device) is read piece by
    // piece; without a set its pieces are stored as they come, in one transaction.
    let sizes: Vec<Option<u64>> = job
        .files
        .iter()
        .map(|(p, _)| {
            std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file() && m.len() <= STREAM_FILE_BYTES)
                .map(|m| m.len())
        })
        .collect();
    for range in windows(&sizes) {
        if job.stopped() {
            outcomes.report.stopped = true;
            break;
        }
        let offset = range.start;
        let window = &job.files[range.clone()];
        if let ([(path, format)], None, None) = (window, sizes[range.start], &job.set) {
            let (format, result) = import_streamed(
                store,
                path,
                *format,
                job.first_board,
                job.batch,
                job.verify_tables,
            )?;
            outcomes.push(offset, file_outcome(path, format, result));
            continue;
        }
        let parsed = parse_window(store, window, job.first_board, job.verify_tables);
        let flow = match &job.set {
            Some(name) => store_sets(job, store, name, (offset, window), parsed, &mut outcomes)?,
            None => store_deals(job, store, (offset, window), parsed, &mut outcomes)?,
        };
        if flow.is_break() {
            outcomes.report.stopped = true;
            break;
        }
    }
    Ok(outcomes.finish(started))
}

impl ImportJob {
    /// True once the job's stop switch is on.
    fn stopped(&self) -> bool {
        super::stop_requested(self.stop.as_ref())
    }
}

/// The outcomes of an import job as they come: the report they add up to, and the
/// caller's callback.
struct Outcomes<'a> {
    /// The report so far, its files in the order their outcomes came.
    report: ImportReport,
    /// Each outcome's place in the job: rejections are known before the batch they would
    /// have joined is stored, so the report is put back in job order at the end.
    order: Vec<usize>,
    /// The caller's callback, told each outcome as soon as it is known.
    on_file: &'a mut dyn FnMut(&FileOutcome),
}

impl Outcomes<'_> {
    /// Adds the outcome of the job's file `k` to the report's counts and tells the caller.
    fn push(&mut self, k: usize, o: FileOutcome) {
        let report = &mut self.report;
        self.order.push(k);
        match &o.result {
            FileResult::Imported {
                boards,
                new_deals,
                skipped,
                ..
            } => {
                report.boards_read += boards;
                report.boards_skipped += skipped.len() as u64;
                report.new_deals += new_deals;
                report.duplicates += boards - new_deals;
            }
            FileResult::Rejected { .. } => report.rejected += 1,
            FileResult::NoBoards { .. } => {}
        }
        (self.on_file)(&o);
        report.files.push(o);
    }

    /// The report, its files in job order, timed from `started`.
    fn finish(self, started: Instant) -> ImportReport {
        let mut report = self.report;
        let mut placed: Vec<(usize, FileOutcome)> =
            self.order.into_iter().zip(report.files).collect();
        placed.sort_by_key(|(k, _)| *k);
        report.files = placed.into_iter().map(|(_, o)| o).collect();
        report.seconds = started.elapsed().as_secs_f64();
        report
    }
}

/// A window of the job's files: the place of its first file in the job, and its files.
type Window<'j> = (usize, &'j [(PathBuf, Option<&'static dyn DealFormat>)]);

/// Reads a window's files in parallel, then rejects those whose double-dummy tables differ
/// from stored ones.
fn parse_window(
    store: &Store,
    window: &[(PathBuf, Option<&'static dyn DealFormat>)],
    first_board: Option<u64>,
    verify_tables: bool,
) -> Vec<ParsedFile> {
    let parsed: Vec<ParsedFile> = window
        .par_iter()
        .map(|(path, format)| parse_file(path, *format, first_board, verify_tables))
        .collect();
    parsed
        .into_iter()
        .zip(window)
        .map(|((format, p), (path, _))| {
            let p = p.and_then(|p| {
                check_stored_dd(store, path, &p).map_err(|e| match e {
                    Check::Differs(msg) => Rejection::from(msg),
                    Check::Store(e) => Rejection::from(e.to_string()),
                })?;
                Ok(p)
            });
            (format, p)
        })
        .collect()
}

/// A file read whole: the name of the format it was read as (`unknown` when none was told)
/// and its boards, or why it is rejected.
type ParsedFile = (&'static str, Result<Parsed, Rejection>);

/// With a set: stores each file of a window that read as a set of its own, each in its own
/// transaction. Breaks when the job's stop switch is on before a file.
///
/// # Errors
/// [`ErrorKind::Import`] when the store fails; the window's files before it are stored.
fn store_sets(
    job: &ImportJob,
    store: &mut Store,
    name: &str,
    (offset, window): Window,
    parsed: Vec<ParsedFile>,
    outcomes: &mut Outcomes,
) -> Result<ControlFlow<()>> {
    for (j, ((path, _), (format, parsed))) in window.iter().zip(parsed).enumerate() {
        if job.stopped() {
            return Ok(ControlFlow::Break(()));
        }
        let result = match parsed {
            Ok(p) => {
                let set_name = match job.files.len() {
                    1 => name.to_owned(),
                    _ => format!("{name}-{}", offset + j + 1),
                };
                store_file_set(store, set_name, path, &p)?
            }
            Err(reason) => FileResult::Rejected { reason },
        };
        outcomes.push(offset + j, file_outcome(path, format, result));
    }
    Ok(ControlFlow::Continue(()))
}

/// Stores a file read as the set `set_name` in one transaction; a set name taken or a board
/// number given twice rejects the file.
///
/// # Errors
/// [`ErrorKind::Import`] naming the file when the store fails otherwise.
fn store_file_set(
    store: &mut Store,
    set_name: String,
    path: &Path,
    p: &Parsed,
) -> Result<FileResult> {
    let keyed: Vec<(u64, DealIndex)> = p.keys.iter().map(|&(n, k)| (n.unwrap_or(1), k)).collect();
    let set = NewSet {
        name: set_name.clone(),
        first_board: keyed.iter().map(|b| b.0).min().unwrap_or(1),
        last_board: keyed.iter().map(|b| b.0).max().unwrap_or(1),
        scheme: Scheme::Pavlicek,
        generator: format!("import {}", path.display()),
        seed_sha256: None,
    };
    match store.store_set_with_plays_and_tables(&set, &keyed, &p.plays_and_tables) {
        Ok((o, stored)) => Ok(imported(Some(set_name), p, o.new_deals, stored)),
        Err(e)
            if matches!(
                e.kind(),
                StoreErrorKind::SetExists { .. } | StoreErrorKind::DuplicateBoard { .. }
            ) =>
        {
            Ok(FileResult::Rejected {
                reason: e.to_string().into(),
            })
        }
        Err(error) => Err(ErrorKind::Import {
            file: Some(path.to_owned()),
            error,
        }
        .into()),
    }
}

/// Deals only: whole files of a window gathered into transactions of at least
/// [`ImportJob::batch`] boards (each file's keys one group, so the report stays per file),
/// the window's last batch committed whatever its size. Breaks when the job's stop switch is
/// on before a transaction.
///
/// # Errors
/// [`ErrorKind::Import`] when the store fails; the batches before it are stored.
fn store_deals(
    job: &ImportJob,
    store: &mut Store,
    (offset, window): Window,
    parsed: Vec<ParsedFile>,
    outcomes: &mut Outcomes,
) -> Result<ControlFlow<()>> {
    let mut batch: Vec<(&PathBuf, &'static str, Parsed)> = Vec::new();
    let mut places: Vec<usize> = Vec::new();
    let mut size = 0u64;
    let files = window.iter().zip(parsed).enumerate();
    let mut pending = files.peekable();
    while let Some((j, ((path, _), (format, parsed)))) = pending.next() {
        match parsed {
            Ok(p) => {
                size += p.keys.len() as u64;
                batch.push((path, format, p));
                places.push(offset + j);
            }
            Err(reason) => {
                let result = FileResult::Rejected { reason };
                outcomes.push(offset + j, file_outcome(path, format, result));
            }
        }
        if !batch.is_empty() && (size >= job.batch || pending.peek().is_none()) {
            if job.stopped() {
                return Ok(ControlFlow::Break(()));
            }
            for (k, o) in places.drain(..).zip(store_batch(store, &mut batch)?) {
                outcomes.push(k, o);
            }
            size = 0;
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// A file's outcome; a LIN file refused for holding no board (none skipped either) whose
/// first line is a vugraph header is [`FileResult::NoBoards`] instead.
fn file_outcome(path: &Path, format: &'static str, result: FileResult) -> FileOutcome {
    let result = match result {
        FileResult::Rejected { reason }
            if format == "lin" && no_board_at_all(&reason) && vugraph_header(path) =>
        {
            FileResult::NoBoards {
                reason: "header only".to_owned(),
            }
        }
        result => result,
    };
    FileOutcome {
        path: path.to_owned(),
        format,
        result,
    }
}

/// True when `reason` is a read that found no board and skipped none.
fn no_board_at_all(reason: &Rejection) -> bool {
    reason
        .read_error()
        .is_some_and(|e| matches!(e.kind(), ErrorKind::Empty { skipped, .. } if skipped.is_empty()))
}

/// True when the file `path` begins (after a byte-order mark or blank space) with a LIN
/// vugraph header's `vg|` (BBO's vugraph files, whose header names the event and teams);
/// false when it cannot be read again (standard input).
fn vugraph_header(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 64];
    let Ok(n) = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)) else {
        return false;
    };
    let head = head[..n]
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(&head[..n]);
    head.trim_ascii_start().starts_with(b"vg|")
}

fn imported(
    set: Option<String>,
    p: &Parsed,
    new_deals: u64,
    stored: PlaysAndTablesStored,
) -> FileResult {
    FileResult::Imported {
        set,
        boards: p.keys.len() as u64,
        skipped: p.skipped.clone(),
        warnings: p.warnings.clone(),
        new_deals,
        plays: p.plays_and_tables.plays.len() as u64,
        new_plays: stored.plays,
        played: p.plays_and_tables.played.len() as u64,
        new_played: stored.played,
        inconsistencies: p.inconsistencies.clone(),
        dd_tables: p.plays_and_tables.dd.len() as u64,
        new_dd_tables: stored.dd,
        dd_refused: p.dd_refused,
    }
}

/// Stores the files of a deals-only batch in one transaction; empties `batch`.
fn store_batch(
    store: &mut Store,
    batch: &mut Vec<(&PathBuf, &'static str, Parsed)>,
) -> Result<Vec<FileOutcome>> {
    let groups: Vec<Vec<DealIndex>> = batch
        .iter()
        .map(|(_, _, p)| p.keys.iter().map(|&(_, k)| k).collect())
        .collect();
    let plays_and_tables: Vec<PlaysAndTables> = batch
        .iter_mut()
        .map(|(_, _, p)| std::mem::take(&mut p.plays_and_tables))
        .collect();
    let counts = store
        .insert_deal_groups(&groups, &plays_and_tables)
        .map_err(|error| ErrorKind::Import { file: None, error })?;
    let out = batch
        .drain(..)
        .zip(plays_and_tables)
        .zip(counts)
        .map(
            |(((path, format, mut p), plays_and_tables), (new, stored))| {
                p.plays_and_tables = plays_and_tables;
                file_outcome(path, format, imported(None, &p, new, stored))
            },
        )
        .collect();
    Ok(out)
}

/// Cuts the files into windows of about [`WINDOW_BYTES`] (at least one file each); a file
/// to be streamed (size `None`) is a window of its own.
fn windows(sizes: &[Option<u64>]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0u64);
    for (i, size) in sizes.iter().enumerate() {
        let size = size.unwrap_or(u64::MAX);
        if i > start && bytes.saturating_add(size) > WINDOW_BYTES {
            out.push(start..i);
            start = i;
            bytes = 0;
        }
        bytes = bytes.saturating_add(size);
    }
    if start < sizes.len() {
        out.push(start..sizes.len());
    }
    out
}

/// Stores a file too large to hold, without a set: piece by piece in one transaction
/// ([`Store::begin_deals`]), so memory stays that of a piece whatever the file's size, and
/// a file rejected at its last board leaves nothing stored.
///
/// # Errors
/// [`ErrorKind::Import`] when the store fails (a file that does not read is a rejection).
fn import_streamed(
    store: &mut Store,
    path: &Path,
    format: Option<&'static dyn DealFormat>,
    first_board: Option<u64>,
    batch: u64,
    verify_tables: bool,
) -> Result<(&'static str, FileResult)> {
    let failed = |error: StoreError| ErrorKind::Import {
        file: Some(path.to_owned()),
        error,
    };
    let mut writer = store.begin_deals().map_err(failed)?;
    let (mut boards, mut plays, mut dd_tables, mut dd_refused) = (0u64, 0u64, 0u64, 0u64);
    let mut played = 0u64;
    let mut inconsistencies: Vec<formats::Inconsistency> = Vec::new();
    let mut skipped: Vec<SkippedBoard> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let mut pending = PendingPieces::new(batch);
    // The file is parsed on a thread of its own while the pieces before are stored.
    let (send, receive) = std::sync::mpsc::sync_channel::<Parsed>(0);
    let mut failure: Option<Result<String, StoreError>> = None;
    let read = std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            parse_pieces(path, format, first_board, verify_tables, &mut |p| {
                send.send(p)
                    .map_err(|_| Rejection::from(String::from("stopped")))
            })
        });
        for p in receive {
            match pending.add(&mut writer, &p) {
                Ok(()) => {}
                Err(Check::Differs(reason)) => {
                    failure = Some(Ok(reason));
                    break; // dropping the receiver stops the reader
                }
                Err(Check::Store(e)) => {
                    failure = Some(Err(e));
                    break;
                }
            }
            // Only counts and what the report names are kept.
            boards += p.keys.len() as u64;
            plays += p.plays_and_tables.plays.len() as u64;
            played += p.plays_and_tables.played.len() as u64;
            dd_tables += p.plays_and_tables.dd.len() as u64;
            dd_refused += p.dd_refused;
            skipped.extend(p.skipped);
            warnings.extend(p.warnings);
            inconsistencies.extend(p.inconsistencies);
        }
        reader.join().unwrap_or_else(|_| {
            let reason = Rejection::from(String::from("the reader stopped unexpectedly"));
            (UNKNOWN_FORMAT, Err(reason))
        })
    });
    let (format, read) = read;
    // Returning before the commit drops the writer, which rolls back every piece stored.
    match failure {
        Some(Err(e)) => return Err(failed(e).into()),
        Some(Ok(reason)) => {
            let reason = Rejection::from(reason);
            return Ok((format, FileResult::Rejected { reason }));
        }
        None => {}
    }
    let end = match read {
        Ok(end) => end,
        Err(reason) => return Ok((format, FileResult::Rejected { reason })),
    };
    if !pending.keys.is_empty() {
        pending.flush(&mut writer).map_err(failed)?;
    }
    // A file read to its end has a board (the source refuses one without).
    skipped = end.skipped;
    warnings.splice(0..0, end.warnings);
    inconsistencies.splice(0..0, end.inconsistencies);
    if let Some(sha256) = end.sha256.filter(|_| dd_tables > 0) {
        writer
            .file_hashed(&path.display().to_string(), &sha256)
            .map_err(failed)?;
    }
    writer.commit().map_err(failed)?;
    let imported = FileResult::Imported {
        set: None,
        boards,
        skipped,
        warnings,
        new_deals: pending.new_deals,
        plays,
        new_plays: pending.stored.plays,
        played,
        new_played: pending.stored.played,
        inconsistencies,
        dd_tables,
        new_dd_tables: pending.stored.dd,
        dd_refused,
    };
    Ok((format, imported))
}

/// A streamed file's pieces waiting for the store: their keys gathered up to `batch` and
/// inserted in one sorted pass, with their plays and tables (each pass touches the B-tree's
/// pages once: a pass a 4 MiB piece cost 60 % more CPU on 1,000,000 boards), and what the
/// passes so far stored.
struct PendingPieces {
    /// Keys gathered before a pass.
    batch: u64,
    keys: Vec<DealIndex>,
    plays_and_tables: PlaysAndTables,
    /// Deals new to the database, so far.
    new_deals: u64,
    /// Plays and tables new to the database, so far.
    stored: PlaysAndTablesStored,
}

impl PendingPieces {
    /// Nothing pending yet; a pass every `batch` keys.
    fn new(batch: u64) -> Self {
        PendingPieces {
            batch,
            keys: Vec::new(),
            plays_and_tables: PlaysAndTables::default(),
            new_deals: 0,
            stored: PlaysAndTablesStored::default(),
        }
    }

    /// Adds the piece `p` once its tables agree with those `writer` holds, storing what is
    /// pending when `batch` keys are.
    ///
    /// # Errors
    /// [`Check::Differs`] for a table differing from the stored one, [`Check::Store`] for
    /// the store failing.
    fn add(&mut self, writer: &mut DealWriter<'_>, p: &Parsed) -> Result<(), Check> {
        let keys: Vec<DealIndex> = p.plays_and_tables.dd.iter().map(|(k, _)| *k).collect();
        let tables = writer.dd_tables(&keys).map_err(Check::Store)?;
        differing_dd(p, tables)?;
        self.keys.extend(p.keys.iter().map(|&(_, k)| k));
        self.plays_and_tables
            .plays
            .extend(p.plays_and_tables.plays.iter().cloned());
        self.plays_and_tables
            .played
            .extend(p.plays_and_tables.played.iter().cloned());
        self.plays_and_tables
            .dd
            .extend(p.plays_and_tables.dd.iter().copied());
        if p.plays_and_tables.dd_source != DdSource::Unknown {
            self.plays_and_tables.dd_source = p.plays_and_tables.dd_source.clone();
        }
        match self.keys.len() as u64 >= self.batch {
            true => self.flush(writer).map_err(Check::Store),
            false => Ok(()),
        }
    }

    /// Stores what is pending in one sorted pass.
    ///
    /// # Errors
    /// The store failing.
    fn flush(&mut self, writer: &mut DealWriter<'_>) -> Result<(), StoreError> {
        let (new, s) = writer.add(std::mem::take(&mut self.keys), &self.plays_and_tables)?;
        self.plays_and_tables = PlaysAndTables {
            dd_source: self.plays_and_tables.dd_source.clone(),
            ..PlaysAndTables::default()
        };
        self.new_deals += new;
        self.stored.plays += s.plays;
        self.stored.played += s.played;
        self.stored.dd += s.dd;
        Ok(())
    }
}

/// The format name of a file whose format was not told.
const UNKNOWN_FORMAT: &str = "unknown";

/// Reads and checks one file whole; the error is the reason it is rejected (file name
/// removed).
fn parse_file(
    path: &Path,
    format: Option<&'static dyn DealFormat>,
    first_board: Option<u64>,
    verify_tables: bool,
) -> ParsedFile {
    let mut all: Option<Parsed> = None;
    let (format, read) = parse_pieces(path, format, first_board, verify_tables, &mut |piece| {
        match &mut all {
            None => all = Some(piece),
            Some(all) => all.append(piece),
        }
        Ok(())
    });
    let parsed = read.map(|end| {
        // A file read to its end has a board (the source refuses one without).
        let mut all = all.unwrap_or_else(|| Parsed::empty(DdSource::Unknown));
        all.add_end(end);
        all
    });
    (format, parsed)
}

impl Parsed {
    /// Adds what the file's end gave: its skipped boards, its reader's warnings (before the
    /// checks' own), and its hash, known now that it is read to its end.
    fn add_end(&mut self, end: FileEnd) {
        self.skipped = end.skipped;
        self.warnings.splice(0..0, end.warnings);
        self.inconsistencies.splice(0..0, end.inconsistencies);
        if let DdSource::File { sha256, .. } = &mut self.plays_and_tables.dd_source {
            *sha256 = end.sha256;
        }
    }

    fn empty(dd_source: DdSource) -> Parsed {
        Parsed {
            keys: Vec::new(),
            before: 0,
            skipped: Vec::new(),
            warnings: Vec::new(),
            inconsistencies: Vec::new(),
            plays_and_tables: PlaysAndTables {
                dd_source,
                ..PlaysAndTables::default()
            },
            dd_refused: 0,
        }
    }

    /// Adds the next piece of the same file.
    fn append(&mut self, piece: Parsed) {
        self.keys.extend(piece.keys);
        self.skipped.extend(piece.skipped);
        self.warnings.extend(piece.warnings);
        self.inconsistencies.extend(piece.inconsistencies);
        self.dd_refused += piece.dd_refused;
        self.plays_and_tables
            .plays
            .extend(piece.plays_and_tables.plays);
        self.plays_and_tables
            .played
            .extend(piece.plays_and_tables.played);
        self.plays_and_tables.dd.extend(piece.plays_and_tables.dd);
        if self.plays_and_tables.dd_source == DdSource::Unknown {
            self.plays_and_tables.dd_source = piece.plays_and_tables.dd_source;
        }
    }
}

/// What reading a file to its end gave, beside its pieces ([`parse_pieces`]).
struct FileEnd {
    /// The SHA-256 of its bytes; `None` for standard input.
    sha256: Option<[u8; 32]>,
    /// Its boards without a complete deal.
    skipped: Vec<SkippedBoard>,
    /// What its reader ignored, each naming its line.
    warnings: Vec<String>,
    /// Its records kept with what is consistent in them, as its reader found them.
    inconsistencies: Vec<formats::Inconsistency>,
}

/// Why reading a file through the pipeline stopped: the source's error or the file's
/// rejection by a check or by `sink`.
enum Stop {
    Source(Error),
    Rejected(Rejection),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Source(e)
    }
}

/// Reads one file piece by piece through the pipeline's file source ([`DealSource::File`]:
/// opened once, its format told from its first bytes when not given, hashed as it is read)
/// and hands each piece, checked, to `sink`: its keys (each deal's key made once), plays
/// replayed, double-dummy tables (a deal given two different tables anywhere in the file
/// rejects it). Returns the name of its format and what the end of the file gave, or the
/// reason the file is rejected (file name removed; a file with no board among them); pieces
/// already handed over are then to be undone. A table's source names the file; its hash is
/// filled in by the caller once the file is read ([`DdSource::File`]).
fn parse_pieces(
    path: &Path,
    format: Option<&'static dyn DealFormat>,
    first_board: Option<u64>,
    verify_tables: bool,
    sink: &mut dyn FnMut(Parsed) -> Result<(), Rejection>,
) -> (&'static str, Result<FileEnd, Rejection>) {
    let source = DealSource::File(FileSource {
        path: path.to_owned(),
        format,
        first_board,
    });
    let hashed = SourceOptions {
        hash: true,
        ..SourceOptions::default()
    };
    let (opened, format) = match source.open(None, &hashed) {
        Ok(o) => {
            let format = o.format().expect("a file has a format");
            (o, format)
        }
        Err(e) => return (UNKNOWN_FORMAT, Err(source_rejection(e, path))),
    };
    let mut tables: std::collections::HashMap<DealIndex, (TrickTable, String)> =
        std::collections::HashMap::new();
    let mut dd_source: Option<DdSource> = None;
    let mut records = 0usize;
    let result = opened.read(&mut |mut boards: Vec<Board>| -> Result<bool, Stop> {
        // SQLite cannot hold a board number above i64::MAX: refuse the file here, not after
        // its deals were stored.
        if let Some(board) = boards
            .iter()
            .filter_map(|b| b.number)
            .find(|&n| i64::try_from(n).is_err())
        {
            let reason = StoreErrorKind::BoardOutOfRange { board }.to_string();
            return Err(Stop::Rejected(Rejection::from(reason)));
        }
        let keys: Vec<(Option<u64>, DealIndex)> = boards
            .iter()
            .map(|b| (b.number, DealIndex::from_deal(&b.deal)))
            .collect();
        let mut warnings = Vec::new();
        let dd_refused = match verify_tables {
            true => refuse_wrong_tables(&mut boards, &keys, records, &mut warnings),
            false => 0,
        };
        let rejected = |reason: String| Stop::Rejected(Rejection::from(reason));
        let (plays, played, inconsistencies) = board_plays(&boards, &keys);
        let dd = board_dd(&boards, &keys, records, &mut tables).map_err(rejected)?;
        records += boards.len();
        let keys_len = boards.len();
        drop(boards);
        // The tables are stored as the file gives them: record which file (and its bytes'
        // hash, known at its end) so that `solve --verify` can find them.
        let source = match (&dd_source, dd.is_empty()) {
            (_, true) => DdSource::Unknown,
            (Some(s), false) => s.clone(),
            (None, false) => {
                let s = DdSource::File {
                    file: path.display().to_string(),
                    format: format.info().name.to_owned(),
                    sha256: None,
                };
                dd_source = Some(s.clone());
                s
            }
        };
        sink(Parsed {
            keys,
            before: records - keys_len,
            skipped: Vec::new(),
            warnings,
            inconsistencies,
            plays_and_tables: PlaysAndTables {
                plays,
                played,
                dd,
                dd_source: source,
            },
            dd_refused,
        })
        .map(|()| true)
        .map_err(Stop::Rejected)
    });
    let name = format.info().name;
    let stdin = path.as_os_str() == crate::workflow::pipeline::STDIN;
    match result {
        Ok(read) => (
            name,
            Ok(FileEnd {
                sha256: read.sha256.filter(|_| !stdin),
                skipped: read.notes.skipped,
                warnings: read.notes.warnings,
                inconsistencies: read.inconsistencies,
            }),
        ),
        Err(Stop::Source(e)) => (name, Err(source_rejection(e, path))),
        Err(Stop::Rejected(reason)) => (name, Err(reason)),
    }
}

/// A file that could not be opened or read, or whose format was not told, as a rejection.
fn source_rejection(e: Error, path: &Path) -> Rejection {
    match e.read_kind() {
        Some(_) => Rejection::read(e),
        None => {
            let message = e.to_string();
            let name = format!("{}: ", path.display());
            Rejection::from(message.strip_prefix(&name).unwrap_or(&message).to_owned())
        }
    }
}

/// `board N`, or `record K` (1-based) for a board without a number.
fn board_name(number: Option<u64>, i: usize) -> String {
    number.map_or_else(|| format!("record {}", i + 1), |n| format!("board {n}"))
}

/// The plays of a piece's boards (`keys` theirs) that replay ([`crate::board_play`]), the
/// boards played at a table, and what is inconsistent in their records
/// ([`formats::check_board`]: a play that does not replay is reported there and not stored).
fn board_plays(
    boards: &[Board],
    keys: &[(Option<u64>, DealIndex)],
) -> (Vec<NewPlay>, Vec<NewPlayed>, Vec<formats::Inconsistency>) {
    let (mut plays, mut played, mut found) = (Vec::new(), Vec::new(), Vec::new());
    for (b, &(number, key)) in boards.iter().zip(keys) {
        let Some(game) = b.game.as_deref() else {
            continue;
        };
        found.extend(formats::check_board(b));
        let play = crate::board_play(&b.deal, game).ok().flatten();
        let cards = play.as_ref().map(|p| p.record.cards()).unwrap_or_default();
        if let Some(play) = play {
            plays.push(NewPlay {
                deal: key,
                board: number,
                play,
            });
        }
        if is_played(game) {
            played.push(NewPlayed {
                deal: key,
                board: number,
                dealer: b.dealer_or_default(),
                vulnerability: b.vulnerability_or_default(),
                game: GameRecord {
                    tags: game.tags.clone(),
                    auction: game.auction.clone(),
                    ..GameRecord::default()
                },
                cards,
            });
        }
    }
    (plays, played, found)
}

/// True for a game record of a board played at a table: one naming a room or a player, or
/// holding an auction, a contract, a result or play.
fn is_played(game: &GameRecord) -> bool {
    let told = |name: &str| game.tag(name).is_some_and(|v| !v.is_empty() && v != "?");
    game.auction.is_some()
        || game.play.is_some()
        || [
            "Room", "North", "East", "South", "West", "Contract", "Result",
        ]
        .iter()
        .any(|t| told(t))
}

/// The double-dummy tables of a piece's boards ([`Board::dd`]) not given before in the file
/// (`seen`: each deal's table and the board that gave it); a deal given two different tables
/// rejects the file.
fn board_dd(
    boards: &[Board],
    keys: &[(Option<u64>, DealIndex)],
    before: usize,
    seen: &mut std::collections::HashMap<DealIndex, (TrickTable, String)>,
) -> Result<Vec<(DealIndex, TrickTable)>, String> {
    let mut out = Vec::new();
    for (i, (b, &(number, key))) in boards.iter().zip(keys).enumerate() {
        let Some(table) = b.dd else {
            continue;
        };
        let board = board_name(number, before + i);
        match seen.get(&key) {
            Some((t, first)) if *t != table => {
                return Err(format!(
                    "{board}: its double-dummy table differs from the one given at {first} for the same deal"
                ));
            }
            Some(_) => {}
            None => {
                seen.insert(key, (table, board));
                out.push((key, table));
            }
        }
    }
    Ok(out)
}

/// Solves the deals of a piece's boards that carry a table (`keys` theirs, `before` boards
/// earlier in the file) and takes away each table that differs from the solver's, with a
/// warning naming the board and the differing cells (`board 7: its double-dummy table
/// differs from the solver's (S in H: 9 given, 10 solved); stored without it`). Returns how
/// many were taken away.
fn refuse_wrong_tables(
    boards: &mut [Board],
    keys: &[(Option<u64>, DealIndex)],
    before: usize,
    warnings: &mut Vec<String>,
) -> u64 {
    let given: Vec<usize> = (0..boards.len())
        .filter(|&i| boards[i].dd.is_some())
        .collect();
    let deals: Vec<crate::Deal> = given.iter().map(|&i| boards[i].deal).collect();
    let mut refused = 0;
    for (&i, solved) in given.iter().zip(crate::dd::solve_all(&deals)) {
        let table = boards[i].dd.expect("a board that carries a table");
        if table == solved {
            continue;
        }
        let cells: Vec<String> = crate::Seat::ALL
            .iter()
            .flat_map(|&seat| crate::Strain::ALL.map(|strain| (seat, strain)))
            .filter(|&(seat, strain)| table.tricks(seat, strain) != solved.tricks(seat, strain))
            .map(|(seat, strain)| {
                format!(
                    "{} in {}: {} given, {} solved",
                    seat.letter(),
                    strain.as_str(),
                    table.tricks(seat, strain),
                    solved.tricks(seat, strain)
                )
            })
            .collect();
        warnings.push(format!(
            "{}: its double-dummy table differs from the solver's ({}); stored without it",
            board_name(keys[i].0, before + i),
            cells.join(", ")
        ));
        boards[i].dd = None;
        refused += 1;
    }
    refused
}

/// Why a file's tables were refused.
enum Check {
    Differs(String),
    Store(StoreError),
}

/// Refuses a file whose double-dummy tables differ from those stored for the same deals (a
/// deal is solved at most once per database, and a stored table is never replaced).
fn check_stored_dd(store: &Store, _path: &Path, p: &Parsed) -> Result<(), Check> {
    let dd = &p.plays_and_tables.dd;
    if dd.is_empty() {
        return Ok(());
    }
    let keys: Vec<DealIndex> = dd.iter().map(|(k, _)| *k).collect();
    let stored = store.dd_tables(&keys).map_err(Check::Store)?;
    differing_dd(p, stored)
}

/// [`check_stored_dd`] given the stored tables of the piece's tables' deals (in order).
fn differing_dd(p: &Parsed, stored: Vec<Option<TrickTable>>) -> Result<(), Check> {
    let dd = &p.plays_and_tables.dd;
    for ((key, given), stored) in dd.iter().zip(stored) {
        if let Some(stored) = stored
            && stored != *given
        {
            let (i, number) = p
                .keys
                .iter()
                .enumerate()
                .find(|(_, (_, k))| k == key)
                .map_or((0, None), |(i, &(n, _))| (i, n));
            let hex = |t: &TrickTable| {
                t.to_bytes()
                    .iter()
                    .map(|x| format!("{x:02x}"))
                    .collect::<String>()
            };
            return Err(Check::Differs(format!(
                "{}: its double-dummy table differs from the one stored for deal {key} (file: {}; stored: {})",
                board_name(number, p.before + i),
                hex(given),
                hex(&stored),
            )));
        }
    }
    Ok(())
}
