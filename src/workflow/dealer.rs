//! The dealer workflow (`dealdex dealer`): a script of dealer's language run over generated
//! deals, or over given ones (a stored set, every stored deal, a deal file), with the
//! double-dummy tables the database or the file holds, and the produced deals and the solved
//! tables stored.
//!
//! A job goes in ([`DealerRunJob`]), a report comes out ([`DealerRunReport`], serde), deals
//! printed by the script's actions go to the writer the caller passes, progress through a
//! callback; the library never prints. The run itself is [`crate::dealer::run`].
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

use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use crate::Classify;
use crate::dd::TrickTable;
use crate::dealer::{
    DealFeed, DealerError, DealerJob, DealerProgress, DealerReport, EvalError, GivenDeal, GivenFeed,
    Script,
};
use crate::formats::{self, ChooseFormatError, SkippedBoard};
use crate::model::deal::Deal;
use crate::model::index::DealIndex;
use crate::model::number::Scheme;
use crate::store::{NewSet, Store, StoreError};
use crate::workflow::input::{ReadFileError, read_deal_file_all};

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
    /// anything runs). A run that produces nothing stores no set.
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
    /// Deals read from the set, the database or the file (0 for the stream).
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

/// Why a dealer run failed. Tables solved and sets stored before the failure stay stored;
/// a failed store stores nothing of its own transaction.
#[derive(Debug, thiserror::Error)]
pub enum DealerRunError {
    /// No format was named and the file's extension and content tell none (or the name is
    /// no format's).
    #[error(transparent)]
    Format(#[from] ChooseFormatError),
    /// The deal file could not be read (its name and the position in it are in the error).
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

/// The given deals of a source, with their tables and what names them in errors.
struct Given {
    deals: Vec<GivenDeal>,
    /// The source's name in errors: the file, or `set NAME`, or the database.
    name: String,
    skipped: Vec<SkippedBoard>,
    warnings: Vec<String>,
}

/// The deals of `source` (none for the stream), with the tables the file gives; the
/// database's tables are filled in later.
fn given_deals(source: &DealerSource, store: Option<&Store>) -> Result<Given, DealerRunError> {
    match source {
        DealerSource::Stream => Ok(Given {
            deals: Vec::new(),
            name: String::new(),
            skipped: Vec::new(),
            warnings: Vec::new(),
        }),
        DealerSource::File { path, format } => {
            let format = formats::choose_input(path, format.as_deref())?;
            let read = read_deal_file_all(path, format, None)?;
            Ok(Given {
                deals: read
                    .boards
                    .iter()
                    .map(|b| GivenDeal {
                        deal: b.deal,
                        table: b.dd,
                        board: b.number,
                    })
                    .collect(),
                name: path.display().to_string(),
                skipped: read.skipped,
                warnings: read.warnings,
            })
        }
        DealerSource::Database { set } => {
            let store = store.ok_or(DealerRunError::NoDatabase)?;
            let (boards, keys): (Vec<Option<u64>>, Vec<DealIndex>) = match set {
                Some(name) => {
                    if store.set(name)?.is_none() {
                        return Err(DealerRunError::NoSet {
                            set: name.clone(),
                            database: store.path().to_owned(),
                        });
                    }
                    let rows = store.set_boards(name)?;
                    rows.into_iter().map(|(b, k)| (Some(b), k)).unzip()
                }
                None => {
                    let mut keys = Vec::new();
                    store.for_each_key(None, |k| {
                        keys.push(k);
                        Ok::<(), StoreError>(())
                    })?;
                    (vec![None; keys.len()], keys)
                }
            };
            let deals = keys
                .iter()
                .zip(boards)
                .map(|(&key, board)| {
                    let deal = key
                        .to_deal()
                        .map_err(|error| StoreError::CorruptDeal { key, error })?;
                    Ok(GivenDeal {
                        board,
                        ..GivenDeal::new(deal)
                    })
                })
                .collect::<Result<Vec<GivenDeal>, StoreError>>()?;
            let name = match set {
                Some(s) => format!("set {s:?} of {}", store.path()),
                None => store.path().to_owned(),
            };
            Ok(Given {
                deals,
                name,
                skipped: Vec::new(),
                warnings: Vec::new(),
            })
        }
    }
}

/// Deals a store lookup of tables reads at once.
const TABLE_BATCH: usize = 4096;

/// Runs the job: opens the database when the job needs one, reads the given deals (and,
/// when the script uses `tricks`, the stored tables of those the file does not solve), runs
/// the script ([`crate::dealer::run`]; deals printed to `out`, `progress` after each block),
/// then stores the tables the run solved (one transaction) and the produced deals as the set
/// `store_set` (another). A table the file gives is used, not stored.
///
/// # Errors
/// [`DealerRunError`]: the file (named, with the position), the set or the database missing,
/// the set name taken, the store failing, an expression that cannot be evaluated (the given
/// deal named), writing `out`. Nothing is stored when the run fails; when storing the set
/// fails, the solved tables are already stored.
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
    if let (Some(name), Some(s)) = (&job.store_set, &store)
        && s.set(name)?.is_some()
    {
        return Err(DealerRunError::SetExists {
            set: name.clone(),
            database: s.path().to_owned(),
        });
    }
    let mut given = given_deals(&job.source, store.as_ref())?;
    if uses_tricks && let Some(s) = &store {
        for chunk in given.deals.chunks_mut(TABLE_BATCH) {
            let keys: Vec<DealIndex> = chunk.iter().map(|g| DealIndex::from_deal(&g.deal)).collect();
            for (slot, table) in chunk.iter_mut().zip(s.dd_tables(&keys)?) {
                if slot.table.is_none() {
                    slot.table = table;
                }
            }
        }
    }
    let deals_read = given.deals.len() as u64;
    let mut dealer_job = job.run.clone();
    dealer_job.feed = match job.source {
        DealerSource::Stream => DealFeed::Stream,
        _ => DealFeed::Given(GivenFeed::from_deals(std::mem::take(&mut given.deals))),
    };
    dealer_job.keep_produced = job.store_set.is_some();
    dealer_job.keep_solved = store.is_some();
    let mut report = match crate::dealer::run(&job.script, &dealer_job, out, progress) {
        Ok(r) => r,
        Err(DealerError::Eval {
            deal,
            error,
            given: Some(g),
        }) if !given.name.is_empty() => {
            let mut place = format!("{}: deal {deal}", given.name);
            match g.board {
                Some(b) => place.push_str(&format!(" (board {b}, {})", g.deal)),
                None => place.push_str(&format!(" ({})", g.deal)),
            }
            return Err(DealerRunError::Eval { place, error });
        }
        Err(e) => return Err(e.into()),
    };
    let mut tables_stored = 0;
    let mut stored_set = None;
    if let Some(s) = &mut store {
        let tables: HashMap<DealIndex, TrickTable> = report
            .solved_tables
            .iter()
            .map(|(d, t)| (DealIndex::from_deal(d), *t))
            .collect();
        if !tables.is_empty() {
            let mut rows: Vec<(DealIndex, TrickTable)> = tables.into_iter().collect();
            rows.sort_unstable_by_key(|r| r.0);
            tables_stored = s.store_dd(&rows)?;
        }
        if let Some(name) = &job.store_set
            && !report.kept.is_empty()
        {
            stored_set = Some(store_produced(s, name, &report.kept, job)?);
        }
    }
    report.kept.clear();
    report.solved_tables.clear();
    Ok(DealerRunReport {
        run: report,
        source: match job.source {
            DealerSource::Stream => "stream",
            DealerSource::Database { .. } => "database",
            DealerSource::File { .. } => "file",
        },
        deals_read,
        database: store.as_ref().map(|s| s.path().to_owned()),
        stored_set,
        tables_stored,
        file_skipped: given.skipped,
        file_warnings: given.warnings,
    })
}

/// Stores `deals` as the new set `name`, boards 1, 2, … in order.
fn store_produced(
    store: &mut Store,
    name: &str,
    deals: &[Deal],
    job: &DealerRunJob,
) -> Result<StoredDealerSet, DealerRunError> {
    let boards: Vec<(u64, DealIndex)> = (1..)
        .zip(deals)
        .map(|(n, d)| (n, DealIndex::from_deal(d)))
        .collect();
    let script = job.run.script_name.as_deref().unwrap_or("-");
    let set = NewSet {
        name: name.to_owned(),
        first_board: 1,
        last_board: boards.len() as u64,
        scheme: Scheme::Pavlicek,
        generator: format!("dealdex dealer {script}"),
        seed_sha256: None,
    };
    let outcome = store.store_set(&set, &boards).map_err(|e| match e {
        StoreError::SetExists { name } => DealerRunError::SetExists {
            set: name,
            database: store.path().to_owned(),
        },
        e => e.into(),
    })?;
    Ok(StoredDealerSet {
        name: name.to_owned(),
        boards: boards.len() as u64,
        new_deals: outcome.new_deals,
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
