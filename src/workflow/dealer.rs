//! The dealer workflow (`dealdex dealer`): a script of dealer's language run over generated
//! deals, or over given ones (a stored set, every stored deal, a deal file), with the
//! double-dummy tables the database or the file holds, and the produced deals and the solved
//! tables stored.
//!
//! A job goes in ([`DealerRunJob`]), a report comes out ([`DealerRunReport`], serde), deals
//! printed by the script's actions go to the writer the caller passes, progress through a
//! callback; the library never prints. The run itself is [`crate::dealer::run_into`]: the
//! given deals are read a piece at a time while it runs, and the produced deals and solved
//! tables stored a block at a time, so memory is bounded however large the source or the run.
//!
//! ```
//! use dealdex::dealer::{DealerJob, Script};
//! use dealdex::workflow::dealer::{DealerRunJob, DealerSource, run};
//! let dir = tempfile::tempdir()?;
//! let db = dir.path().join("d.db");
//! let script = Script::parse("produce 3\ncondition hcp(north) >= 12\naction printoneline")?;
//! // Three deals stored as the set `strong`, then read back from it.
//! let job = DealerRunJob {
//!     store_set: Some("strong".into()),
//!     database: Some(db.clone()),
//!     ..DealerRunJob::new(script.clone(), DealerJob { seed: Some(1), ..DealerJob::default() })
//! };
//! let first = run(&job, &mut Vec::new(), &mut |_| {})?;
//! assert_eq!(first.stored_set.as_ref().unwrap().boards, 3);
//! let again = DealerRunJob {
//!     source: DealerSource::Database { set: Some("strong".into()) },
//!     database: Some(db),
//!     ..DealerRunJob::new(script, DealerJob::default())
//! };
//! let report = run(&again, &mut Vec::new(), &mut |_| {})?;
//! assert_eq!((report.run.generated, report.run.produced), (3, 3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;

use serde::Serialize;

use crate::Classify;
use crate::dd::TrickTable;
use crate::dealer::{
    DealFeed, DealerError, DealerJob, DealerProgress, DealerReport, EvalError, GivenDeal,
    GivenFeed, Script,
};
use crate::formats::{self, ChooseFormatError, DealFormat, SkippedBoard};
use crate::model::deal::Deal;
use crate::model::index::DealIndex;
use crate::model::number::Scheme;
use crate::store::{NewSet, SetWriter, Store, StoreError};
use crate::workflow::input::{ReadFileError, read_deal_pieces_until};

/// Where a run's deals come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DealerSource {
    /// Generated from dealdex's seeded stream ([`crate::dealer::seed_of`]).
    #[default]
    Stream,
    /// The deals of the job's database: the boards of the set named, in board order, or
    /// with `None` every stored deal, in key order (the order of
    /// [`StoreReader::for_each_key`](crate::StoreReader::for_each_key)).
    Database {
        /// The set, or `None` for every stored deal.
        set: Option<String>,
    },
    /// The boards of a deal file, in file order (boards without a complete deal skipped, as
    /// every reader does), through the format named (`--from`), else the one its extension
    /// selects or its content shows ([`formats::choose_input`]).
    File {
        /// The file.
        path: PathBuf,
        /// The format's name, when given.
        format: Option<String>,
    },
}

/// A dealer run: the script, dealer's settings, where the deals come from, the database and
/// what to store in it.
#[derive(Clone, Debug)]
pub struct DealerRunJob {
    /// The parsed script.
    pub script: Script,
    /// dealer's settings (`-g`, `-p`, `-s`, `-q`, the script's name, the date). Its feed and
    /// what it keeps are set by [`run`] from the source and the database.
    pub run: DealerJob,
    /// Where the deals come from.
    pub source: DealerSource,
    /// The database: the deals of [`DealerSource::Database`] come from it (it must exist);
    /// `tricks()` answers from its stored tables for given deals; the tables the run solves
    /// are stored in it, and the produced deals with [`DealerRunJob::store_set`] (it is
    /// created when missing, except for [`DealerSource::Database`]). `None`: no database.
    pub database: Option<PathBuf>,
    /// Store the produced deals in the database as a new set of this name, boards 1, 2, …
    /// in the order produced (needs a database; a name already taken is refused before
    /// anything runs). They are written a block at a time, in one transaction committed
    /// after the run (which holds the database's write lock meanwhile): a failed run stores
    /// no set. A run that produces nothing stores no set.
    pub store_set: Option<String>,
}

impl DealerRunJob {
    /// A job generating deals as `run` says, without a database.
    pub fn new(script: Script, run: DealerJob) -> DealerRunJob {
        DealerRunJob {
            script,
            run,
            source: DealerSource::Stream,
            database: None,
            store_set: None,
        }
    }
}

/// The set a run stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoredDealerSet {
    /// Its name.
    pub name: String,
    /// Its boards (the produced deals), numbered 1 to `boards`.
    pub boards: u64,
    /// Deals not stored in the database before.
    pub new_deals: u64,
}

/// What a dealer run did: dealer's report (its fields at the top level of the JSON) and
/// what was read and stored.
#[derive(Clone, Debug, Serialize)]
pub struct DealerRunReport {
    /// The run's report: counts, seed, time, summaries.
    #[serde(flatten)]
    pub run: DealerReport,
    /// Where the deals came from: `stream`, `database` or `file`.
    pub source: &'static str,
    /// Given deals the run pulled from the set, the database or the file (0 for the
    /// stream): the run takes them a piece at a time and stops taking at `produce` (or
    /// `generate`), so this is the deals tested and skipped, plus at most the rest of the
    /// last block or piece pulled, not the source's size.
    pub deals_read: u64,
    /// The database, as the store names it, when one was used.
    pub database: Option<String>,
    /// The set stored (`store_set`), if any.
    pub stored_set: Option<StoredDealerSet>,
    /// Double-dummy tables newly stored in the database (those the run solved).
    pub tables_stored: u64,
    /// The file's boards skipped for want of a complete deal (for the notes).
    #[serde(skip)]
    pub file_skipped: Vec<SkippedBoard>,
    /// The file reader's warnings (for the notes).
    #[serde(skip)]
    pub file_warnings: Vec<String>,
}

/// Why a dealer run failed. Without a set to store, the tables solved in the blocks before
/// the failure stay stored; with one, nothing is stored (the set and the tables share one
/// transaction).
#[derive(Debug, thiserror::Error)]
pub enum DealerRunError {
    /// No format was named and the file's extension and content tell none (or the name is
    /// no format's).
    #[error(transparent)]
    Format(#[from] ChooseFormatError),
    /// The deal file could not be read (its name and the position in it are in the error):
    /// before the run when it cannot be opened, after it when a fault lies past the deals the
    /// run took.
    #[error(transparent)]
    Read(#[from] ReadFileError),
    /// No set of that name in the database.
    #[error("no set {set:?} in {database}")]
    NoSet {
        /// The name asked for.
        set: String,
        /// The database, as the store names it.
        database: String,
    },
    /// `store_set` names a set the database already has.
    #[error("set {set:?} already exists in {database} (give --store a new name)")]
    SetExists {
        /// The name asked for.
        set: String,
        /// The database, as the store names it.
        database: String,
    },
    /// Deals from a database, or a set to store, without a database.
    #[error("no database given")]
    NoDatabase,
    /// The database failed (or is missing, or holds a key that is no deal).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An expression could not be evaluated on a given deal, named here (its source, its
    /// 1-based place there, its board number when known, the deal).
    #[error("{place}")]
    Eval {
        /// Where the deal is: `club.pbn: deal 5 (board 5, N:AKQ…)`.
        place: String,
        /// What went wrong.
        #[source]
        error: EvalError,
    },
    /// The run failed (an evaluation error on a generated deal, writing the deals, the
    /// seed, the predeal).
    #[error(transparent)]
    Run(#[from] DealerError),
}

impl Classify for DealerRunError {
    /// A missing set or database, a taken set name, a bad file and an expression that cannot
    /// be evaluated are bad input; the store's and the run's errors have their own class.
    fn class(&self) -> crate::ErrorClass {
        match self {
            DealerRunError::Format(e) => e.class(),
            DealerRunError::Read(e) => e.class(),
            DealerRunError::Store(e) => e.class(),
            DealerRunError::Run(e) => e.class(),
            DealerRunError::NoSet { .. }
            | DealerRunError::SetExists { .. }
            | DealerRunError::NoDatabase
            | DealerRunError::Eval { .. } => crate::ErrorClass::BadInput,
        }
    }

    /// The file's position (line and column, or record) when it could not be read or its
    /// format not told.
    fn position(&self) -> Option<crate::InputPosition> {
        match self {
            DealerRunError::Format(e) => e.position(),
            DealerRunError::Read(e) => e.position(),
            _ => None,
        }
    }
}

/// Given deals a piece holds: what a source's reader hands the run at a time.
const GIVEN_PIECE: usize = 4096;

/// A source of given deals opened, checked and ready to be read ([`open_source`]): what can
/// fail before the run (a missing file, a format not told, a missing set) has failed.
enum Opened {
    /// A deal file, with the database whose stored tables fill in those the file lacks.
    File {
        path: PathBuf,
        format: &'static dyn DealFormat,
        file: std::fs::File,
        tables: Option<Store>,
    },
    /// A database (its own connection): the boards of a set, or every stored deal.
    Database {
        store: Store,
        set: Option<String>,
        tables: bool,
    },
}

/// The thread reading a source's given deals, a piece at a time, while the run pulls them
/// ([`GivenFeed`]): it sends each piece over a channel holding one, so it reads at most a
/// piece or two ahead of the run, and stops when the run has dropped the feed (its send
/// fails).
struct Producer {
    thread: std::thread::JoinHandle<Result<FileNotes, DealerRunError>>,
    /// Deals the run pulled from the feed.
    pulled: Arc<AtomicU64>,
}

/// What a file's reader noted besides its deals (nothing for a database).
#[derive(Default)]
struct FileNotes {
    skipped: Vec<SkippedBoard>,
    warnings: Vec<String>,
}

/// Why a producer stopped before its source's end.
enum Halt {
    /// The run ended: it needs no more deals.
    Gone,
    /// Reading failed.
    Failed(DealerRunError),
}

impl From<StoreError> for Halt {
    fn from(e: StoreError) -> Halt {
        Halt::Failed(e.into())
    }
}

/// A producer's piece in the making, and where it goes.
struct Pieces<'a> {
    tx: SyncSender<Vec<GivenDeal>>,
    piece: Vec<GivenDeal>,
    /// The database whose stored tables fill in those the deals lack (a script with
    /// `tricks`).
    tables: Option<&'a Store>,
}

impl Pieces<'_> {
    /// Adds a deal; sends the piece when full.
    fn push(&mut self, deal: GivenDeal) -> Result<(), Halt> {
        self.piece.push(deal);
        match self.piece.len() >= GIVEN_PIECE {
            true => self.send(),
            false => Ok(()),
        }
    }

    /// Sends the piece in the making (if any), its deals' stored tables filled in first.
    fn send(&mut self) -> Result<(), Halt> {
        if self.piece.is_empty() {
            return Ok(());
        }
        let mut piece = std::mem::replace(&mut self.piece, Vec::with_capacity(GIVEN_PIECE));
        if let Some(store) = self.tables {
            let keys: Vec<DealIndex> = piece
                .iter()
                .filter(|g| g.table.is_none())
                .map(|g| DealIndex::from_deal(&g.deal))
                .collect();
            let mut stored = store.dd_tables(&keys)?.into_iter();
            for g in piece.iter_mut().filter(|g| g.table.is_none()) {
                g.table = stored.next().flatten();
            }
        }
        self.tx.send(piece).map_err(|_| Halt::Gone)
    }
}

/// A stored key as a given deal.
fn stored_deal(key: DealIndex, board: Option<u64>) -> Result<GivenDeal, StoreError> {
    let deal = key
        .to_deal()
        .map_err(|error| StoreError::CorruptDeal { key, error })?;
    Ok(GivenDeal {
        board,
        ..GivenDeal::new(deal)
    })
}

/// Opens the job's source of given deals (`None` for the stream), checking what can be
/// checked before the run: the file opens and its format is told, the database and the set
/// exist. `store` is the job's database, opened; `tricks`: the script uses `tricks`, so the
/// stored tables of the given deals are looked up. Also returns the source's name in errors
/// (the file, `set NAME of DB`, or the database).
fn open_source(
    job: &DealerRunJob,
    store: Option<&Store>,
    tricks: bool,
) -> Result<Option<(Opened, String)>, DealerRunError> {
    match &job.source {
        DealerSource::Stream => Ok(None),
        DealerSource::File { path, format } => {
            let format = formats::choose_input(path, format.as_deref())?;
            let file = std::fs::File::open(path).map_err(|error| ReadFileError::Io {
                path: path.clone(),
                error,
            })?;
            let tables = match (&job.database, tricks) {
                (Some(db), true) => Some(Store::open_existing(db)?),
                _ => None,
            };
            let name = path.display().to_string();
            let path = path.clone();
            Ok(Some((
                Opened::File {
                    path,
                    format,
                    file,
                    tables,
                },
                name,
            )))
        }
        DealerSource::Database { set } => {
            let (Some(main), Some(db)) = (store, &job.database) else {
                return Err(DealerRunError::NoDatabase);
            };
            if let Some(name) = set
                && main.set(name)?.is_none()
            {
                return Err(DealerRunError::NoSet {
                    set: name.clone(),
                    database: main.path().to_owned(),
                });
            }
            let name = match set {
                Some(s) => format!("set {s:?} of {}", main.path()),
                None => main.path().to_owned(),
            };
            let opened = Opened::Database {
                store: Store::open_existing(db)?,
                set: set.clone(),
                tables: tricks,
            };
            Ok(Some((opened, name)))
        }
    }
}

impl Opened {
    /// Starts the thread that reads the deals, and the feed the run pulls them from.
    fn spawn(self) -> Result<(Producer, GivenFeed), DealerRunError> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<GivenDeal>>(1);
        let pulled = Arc::new(AtomicU64::new(0));
        let count = Arc::clone(&pulled);
        let feed = GivenFeed::new(rx.into_iter().inspect(move |piece| {
            count.fetch_add(piece.len() as u64, Ordering::Relaxed);
        }));
        let thread = std::thread::Builder::new()
            .name("dealdex-given-deals".into())
            .spawn(move || self.produce(tx))
            .map_err(|e| DealerRunError::Run(DealerError::Io(e)))?;
        Ok((Producer { thread, pulled }, feed))
    }

    /// Reads the source into `tx` a piece at a time, until its end or until the run stops
    /// taking pieces.
    fn produce(self, tx: SyncSender<Vec<GivenDeal>>) -> Result<FileNotes, DealerRunError> {
        let piece = Vec::with_capacity(GIVEN_PIECE);
        let halted = |h: Halt| match h {
            Halt::Gone => Ok(FileNotes::default()),
            Halt::Failed(e) => Err(e),
        };
        match self {
            Opened::File {
                path,
                format,
                mut file,
                tables,
            } => {
                let mut pieces = Pieces {
                    tx,
                    piece,
                    tables: tables.as_ref(),
                };
                let mut halt = None;
                let read = read_deal_pieces_until(&mut file, &path, format, None, &mut |boards| {
                    for b in boards {
                        let deal = GivenDeal {
                            deal: b.deal,
                            table: b.dd,
                            board: b.number,
                        };
                        if let Err(h) = pieces.push(deal) {
                            halt = Some(h);
                            return false;
                        }
                    }
                    true
                });
                if let Some(h) = halt {
                    return halted(h);
                }
                let read = read?;
                if let Err(h) = pieces.send() {
                    return halted(h);
                }
                Ok(FileNotes {
                    skipped: read.skipped,
                    warnings: read.warnings,
                })
            }
            Opened::Database { store, set, tables } => {
                let mut pieces = Pieces {
                    tx,
                    piece,
                    tables: tables.then_some(&store),
                };
                let walked = match &set {
                    Some(name) => store.for_each_set_board(name, |board, key| {
                        pieces.push(stored_deal(key, Some(board))?)
                    }),
                    None => store.for_each_key(None, |key| pieces.push(stored_deal(key, None)?)),
                };
                match walked.and_then(|()| pieces.send()) {
                    Ok(()) => Ok(FileNotes::default()),
                    Err(h) => halted(h),
                }
            }
        }
    }
}

impl Producer {
    /// Waits for the thread (which stops once the feed is dropped) and returns what it read
    /// or why it failed.
    fn finish(self) -> Result<FileNotes, DealerRunError> {
        match self.thread.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

/// Where the produced deals and solved tables go, a block at a time (what
/// [`crate::dealer::run_into`] hands its `keep`).
enum Target<'s> {
    /// Nowhere (no database).
    Nothing,
    /// The solved tables into the database, a transaction a block.
    Tables(&'s mut Store),
    /// The produced deals as a new set, and the solved tables with it: one transaction.
    Set(SetWriter<'s>),
}

/// What the run keeps, and how much of it was stored.
struct Keeper<'s> {
    target: Target<'s>,
    /// Boards added to the set so far.
    boards: u64,
    /// Tables newly stored so far.
    tables_stored: u64,
}

impl Keeper<'_> {
    /// A block's produced deals (the next boards of the set) and solved tables.
    fn keep(&mut self, deals: &[Deal], solved: &[(Deal, TrickTable)]) -> Result<(), StoreError> {
        if !solved.is_empty() {
            let mut rows: Vec<(DealIndex, TrickTable)> = solved
                .iter()
                .map(|(d, t)| (DealIndex::from_deal(d), *t))
                .collect();
            rows.sort_unstable_by_key(|r| r.0);
            self.tables_stored += match &mut self.target {
                Target::Nothing => 0,
                Target::Tables(store) => store.store_dd(&rows)?,
                Target::Set(writer) => writer.add_tables(&rows)?,
            };
        }
        if let Target::Set(writer) = &mut self.target
            && !deals.is_empty()
        {
            let boards: Vec<(u64, DealIndex)> = (self.boards + 1..)
                .zip(deals)
                .map(|(n, d)| (n, DealIndex::from_deal(d)))
                .collect();
            writer.add(&boards)?;
            self.boards += boards.len() as u64;
        }
        Ok(())
    }
}

/// Runs the job: opens the database when the job needs one, opens the source of given deals
/// (the file, the set or the database; its errors come before anything runs), then runs the
/// script ([`crate::dealer::run_into`]; deals printed to `out`, `progress` after each block)
/// while a thread reads the given deals a piece at a time (with, when the script uses
/// `tricks`, the stored tables of those the file does not solve): reading stops when the run
/// does, at `produce` or `generate`. The produced deals and the tables the run solves are
/// stored a block at a time: without `store_set`, the tables in a transaction a block; with
/// it, the deals as the set `store_set` and the tables with them, in one transaction
/// committed after the run. Memory stays bounded by a piece and a block, however many deals
/// are read or produced. A table the file gives is used, not stored.
///
/// # Errors
/// [`DealerRunError`]: the file (named, with the position; an error found past the deals
/// the run took is returned after the run), the set or the database missing, the set name
/// taken, the store failing, an expression that cannot be evaluated (the given deal named),
/// writing `out`. When the run fails nothing of the set is stored (nor the tables, with
/// `store_set`); without `store_set` the tables of the blocks before the failure stay stored.
pub fn run(
    job: &DealerRunJob,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(DealerProgress),
) -> Result<DealerRunReport, DealerRunError> {
    let uses_tricks = job.script.uses_tricks();
    let from_db = matches!(job.source, DealerSource::Database { .. });
    if job.store_set.is_some() && job.database.is_none() {
        return Err(DealerRunError::NoDatabase);
    }
    let mut store = match &job.database {
        Some(path) if from_db => Some(Store::open_existing(path)?),
        Some(path) if uses_tricks || job.store_set.is_some() => Some(Store::open(path)?),
        _ => None,
    };
    let database = store.as_ref().map(|s| s.path().to_owned());
    if let (Some(name), Some(s)) = (&job.store_set, &store)
        && s.set(name)?.is_some()
    {
        return Err(DealerRunError::SetExists {
            set: name.clone(),
            database: s.path().to_owned(),
        });
    }
    let source = open_source(job, store.as_ref(), uses_tricks)?;
    let target = match (&mut store, &job.store_set) {
        (Some(s), Some(name)) => {
            let script = job.run.script_name.as_deref().unwrap_or("-");
            let set = NewSet {
                name: name.clone(),
                first_board: 1,
                last_board: 1,
                scheme: Scheme::Pavlicek,
                generator: format!("dealdex dealer {script}"),
                seed_sha256: None,
            };
            let path = s.path().to_owned();
            Target::Set(s.begin_set(&set).map_err(|e| match e {
                StoreError::SetExists { name } => DealerRunError::SetExists {
                    set: name,
                    database: path,
                },
                e => e.into(),
            })?)
        }
        (Some(s), None) => Target::Tables(s),
        (None, _) => Target::Nothing,
    };
    let mut keeper = Keeper {
        target,
        boards: 0,
        tables_stored: 0,
    };
    let mut dealer_job = job.run.clone();
    let (producer, name) = match source {
        None => {
            dealer_job.feed = DealFeed::Stream;
            (None, String::new())
        }
        Some((opened, name)) => {
            let (producer, feed) = opened.spawn()?;
            dealer_job.feed = DealFeed::Given(feed);
            (Some(producer), name)
        }
    };
    dealer_job.keep_produced = job.store_set.is_some();
    dealer_job.keep_solved = database.is_some();
    let ran = crate::dealer::run_into(
        &job.script,
        &dealer_job,
        out,
        progress,
        &mut |deals, tables| {
            keeper
                .keep(deals, tables)
                .map_err(|e| DealerError::Sink(Box::new(e)))
        },
    );
    // The run is over: dropping its feed makes a producer still sending stop reading.
    drop(dealer_job);
    let deals_read = producer
        .as_ref()
        .map_or(0, |p| p.pulled.load(Ordering::Relaxed));
    let notes = producer.map(Producer::finish).transpose();
    let report = match ran {
        Ok(r) => r,
        Err(DealerError::Eval {
            deal,
            error,
            given: Some(g),
        }) if !name.is_empty() => {
            let mut place = format!("{name}: deal {deal}");
            match g.board {
                Some(b) => place.push_str(&format!(" (board {b}, {})", g.deal)),
                None => place.push_str(&format!(" ({})", g.deal)),
            }
            return Err(DealerRunError::Eval { place, error });
        }
        Err(DealerError::Sink(e)) => {
            return Err(match e.downcast::<StoreError>() {
                Ok(e) => DealerRunError::Store(*e),
                Err(e) => DealerRunError::Run(DealerError::Sink(e)),
            });
        }
        Err(e) => return Err(e.into()),
    };
    // A reading error past the deals the run took: the run's error, nothing of the set kept.
    let notes = notes?.unwrap_or_default();
    let Keeper {
        target,
        boards,
        tables_stored,
    } = keeper;
    let stored_set = match (target, &job.store_set) {
        (Target::Set(writer), Some(name)) if boards > 0 => {
            let outcome = writer.finish(boards)?;
            Some(StoredDealerSet {
                name: name.clone(),
                boards,
                new_deals: outcome.new_deals,
            })
        }
        (Target::Set(writer), _) => {
            writer.finish_without_set()?;
            None
        }
        _ => None,
    };
    Ok(DealerRunReport {
        run: report,
        source: match job.source {
            DealerSource::Stream => "stream",
            DealerSource::Database { .. } => "database",
            DealerSource::File { .. } => "file",
        },
        deals_read,
        database,
        stored_set,
        tables_stored,
        file_skipped: notes.skipped,
        file_warnings: notes.warnings,
    })
}

/// dealer's text ([`DealerReport`]'s), then, unless `-v`, a line each for the given deals
/// skipped, the tables taken from the database or the file, the tables stored and the set
/// stored, where there are any.
impl fmt::Display for DealerRunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.run)?;
        if !self.run.verbose {
            return Ok(());
        }
        if self.source != "stream" {
            writeln!(f, "Read {} deals ({})", self.deals_read, self.source)?;
        }
        if self.run.skipped > 0 {
            writeln!(
                f,
                "Skipped {} deals not holding the predealt cards",
                self.run.skipped
            )?;
        }
        if self.run.solved > 0 || self.run.already_solved > 0 {
            writeln!(
                f,
                "Double dummy: {} solved, {} from stored tables",
                self.run.solved, self.run.already_solved
            )?;
        }
        if let Some(db) = &self.database {
            if self.tables_stored > 0 {
                writeln!(f, "Stored {} new tables in {db}", self.tables_stored)?;
            }
            if let Some(s) = &self.stored_set {
                writeln!(f, "Stored set {} ({} boards) in {db}", s.name, s.boards)?;
            }
        }
        Ok(())
    }
}
