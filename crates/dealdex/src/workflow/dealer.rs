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
//! use dealdex::workflow::dealer::{DealerRunJob, run};
//! use dealdex::workflow::pipeline::DealSource;
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
//!     source: Some(DealSource::Set("strong".into())),
//!     database: Some(db),
//!     ..DealerRunJob::new(script, DealerJob::default())
//! };
//! let report = run(&again, &mut Vec::new(), &mut |_| {})?;
//! assert_eq!((report.run.generated, report.run.produced), (3, 3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;

use serde::Serialize;

use crate::dd::TrickTable;
use crate::dealer::{
    self, DealFeed, DealerJob, DealerProgress, DealerReport, GivenDeal, GivenFeed, Script, Swapping,
};
use crate::formats::Board;
use crate::model::card::Seat;
use crate::model::deal::Deal;
use crate::model::index::DealIndex;
use crate::model::number::Scheme;
use crate::store::{NewSet, Store};
use crate::workflow::pipeline::{
    DealSink, DealSource, FileSource, OpenSource, ReadAs, ReadNotes, SetSink, SourceOptions,
    SourceRead,
};
use crate::{Error, ErrorKind, Result};

/// A dealer run: the script, dealer's settings, where the deals come from, the database and
/// what to store in it.
#[derive(Clone, Debug)]
pub struct DealerRunJob {
    /// The parsed script.
    pub script: Script,
    /// dealer's settings (`-g`, `-p`, `-s`, `-q`, the script's name, the date). Its feed and
    /// what it keeps are set by [`run`] from the source and the database.
    pub run: DealerJob,
    /// Where the deals come from: `None`, generated from dealdex's seeded stream
    /// ([`crate::dealer::seed_of`]); else given, in the source's order (a stored set in
    /// board order, every stored deal in key order, a deal file in file order, boards
    /// without a complete deal skipped).
    pub source: Option<DealSource>,
    /// The database: the deals of a stored source come from it (it must exist); `tricks()`
    /// answers from its stored tables for given deals; the tables the run solves are stored
    /// in it, and the produced deals with [`DealerRunJob::store_set`] (it is created when
    /// missing, except for a stored source). `None`: no database.
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
            source: None,
            database: None,
            store_set: None,
        }
    }

    /// What a meter of this run's progress counts: the deals to produce (`-p`, else the
    /// script's `produce`) when there is a bound, else the deals to generate.
    ///
    /// ```
    /// use dealdex::dealer::{DealerJob, DealerProgress, Script};
    /// use dealdex::workflow::dealer::DealerRunJob;
    /// let script = Script::parse("produce 3 condition hcp(north) >= 20").unwrap();
    /// let meter = DealerRunJob::new(script, DealerJob::default()).meter();
    /// assert_eq!(meter.length, 3);
    /// let (at, text) = meter.at(DealerProgress { generated: 17, produced: 2 });
    /// assert_eq!((at, text.as_str()), (2, "produced (17 generated)"));
    /// ```
    pub fn meter(&self) -> Meter {
        let produce = self.run.produce.unwrap_or(self.script.produce_limit());
        let generate = self.run.generate.unwrap_or(self.script.generate_limit());
        match produce {
            u64::MAX => Meter {
                length: generate,
                produced: false,
            },
            _ => Meter {
                length: produce,
                produced: true,
            },
        }
    }

    /// The given deals `dealdex dealer`'s flags name ([`DealerRunJob::source`]): the library
    /// of solved deals `library` (`-l FILE`, `-L FILE`), else the deal file `deals` (read as
    /// `read` says), else the stored set `set`, else every stored deal (`all`); `None`
    /// (generated deals) when none of them is given.
    ///
    /// ```
    /// use dealdex::workflow::dealer::{DealerRunJob, Library};
    /// use dealdex::workflow::pipeline::{DealSource, ReadAs};
    /// let lib = Some((Library::Gib, "library.dat".into()));
    /// let s = DealerRunJob::source_for(lib, None, ReadAs::default(), None, false);
    /// assert!(matches!(s, Some(DealSource::File(f)) if f.format.unwrap().info().name == "gib-library"));
    /// assert!(DealerRunJob::source_for(None, None, ReadAs::default(), None, false).is_none());
    /// ```
    pub fn source_for(
        library: Option<(Library, PathBuf)>,
        deals: Option<PathBuf>,
        read: ReadAs,
        set: Option<String>,
        all: bool,
    ) -> Option<DealSource> {
        if let Some((library, path)) = library {
            return Some(library.source(path));
        }
        match (&deals, &set, all) {
            (None, None, false) => None,
            _ => Some(DealSource::file_or_stored(deals, read, set)),
        }
    }

    /// The database of a run from `source` ([`DealerRunJob::source`]) as `dealdex dealer
    /// --db` names it: `db` when given; else [`crate::DEFAULT_DATABASE`] when the deals come
    /// from the store (a set, every stored deal) or the produced deals are stored as a set
    /// (`store_set`); else none: generated deals, or a deal file, use a database only when
    /// one is named.
    ///
    /// ```
    /// use dealdex::workflow::dealer::DealerRunJob;
    /// use dealdex::workflow::pipeline::DealSource;
    /// let set = DealSource::Set("club".into());
    /// assert_eq!(DealerRunJob::database_for(None, Some(&set), false), Some("dealdex.db".into()));
    /// assert_eq!(DealerRunJob::database_for(None, None, false), None);
    /// assert_eq!(DealerRunJob::database_for(Some("d.db".into()), None, false), Some("d.db".into()));
    /// ```
    pub fn database_for(
        db: Option<PathBuf>,
        source: Option<&DealSource>,
        store_set: bool,
    ) -> Option<PathBuf> {
        let needed = store_set || source.is_some_and(DealSource::is_stored);
        db.or_else(|| needed.then(|| crate::DEFAULT_DATABASE.into()))
    }
}

/// `dealdex dealer`'s options as typed, but the database and how a deal file is read (the
/// caller's): the script, dealer's settings, the given deals, the set to store, swapping,
/// DealerV2's predeal and parameters. With the `clap` feature they derive `clap::Args`, their
/// doc comments the help; [`DealerOptions::job`] loads the script and makes the job.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct DealerOptions {
    /// The script file; `-` or nothing for standard input.
    pub script: Option<PathBuf>,
    /// dealer's settings (the script's name is set by [`DealerOptions::job`]).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub run: DealerJob,
    /// Run over the boards of this stored set (in --db FILE, else dealdex.db).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "NAME", conflicts_with = "deals")
    )]
    pub set: Option<String>,
    /// Run over every deal stored in the database (--db FILE, else dealdex.db), in key order.
    #[cfg_attr(feature = "clap", arg(long, conflicts_with_all = ["set", "deals"]))]
    pub all: bool,
    /// Run over the boards of this deal file (any format dealdex reads).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub deals: Option<PathBuf>,
    /// How a deal file is read (`--from`, `--first-board`).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub read: crate::workflow::pipeline::ReadOptions,
    /// Run over the deals of GIB's library.dat FILE (gib-library) with their double-dummy
    /// tables, as dealer's -l: tricks() looks them up, nothing is solved.
    #[cfg_attr(feature = "clap", arg(short = 'l', value_name = "FILE",
        conflicts_with_all = ["set", "all", "deals", "rp_library"]))]
    pub gib_library: Option<PathBuf>,
    /// Run over the deals of Pavlicek's .zrd library FILE (rp-library) with their
    /// double-dummy tables, as DealerV2's -L: tricks() looks them up, nothing is solved.
    #[cfg_attr(feature = "clap", arg(short = 'L', value_name = "FILE",
        conflicts_with_all = ["set", "all", "deals"]))]
    pub rp_library: Option<PathBuf>,
    /// Store the produced deals as a new set NAME (in --db FILE, else dealdex.db).
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub store: Option<String>,
    /// No swapping: every deal is shuffled (the default).
    #[cfg_attr(feature = "clap", arg(short = '0', overrides_with_all = ["swap2", "swap3"]))]
    pub swap0: bool,
    /// 2-way swapping: after each shuffled deal, the deal with East's and West's hands
    /// exchanged (each counts as generated).
    #[cfg_attr(feature = "clap", arg(short = '2', overrides_with_all = ["swap0", "swap3"]))]
    pub swap2: bool,
    /// 3-way swapping: after each shuffled deal, the five other placings of its East, South
    /// and West hands (North stays; each counts as generated).
    #[cfg_attr(feature = "clap", arg(short = '3', overrides_with_all = ["swap0", "swap2"]))]
    pub swap3: bool,
    /// DealerV2's predeal on the command line: North's cards, holdings joined by commas
    /// (SAQ542,HKJ87,D32,CAK), added to the script's predeal (a card predealt elsewhere is an
    /// error).
    #[cfg_attr(feature = "clap", arg(short = 'N', value_name = "HOLDINGS"))]
    pub north: Option<String>,
    /// East's predealt cards, as -N.
    #[cfg_attr(feature = "clap", arg(short = 'E', value_name = "HOLDINGS"))]
    pub east: Option<String>,
    /// South's predealt cards, as -N.
    #[cfg_attr(feature = "clap", arg(short = 'S', value_name = "HOLDINGS"))]
    pub south: Option<String>,
    /// West's predealt cards, as -N.
    #[cfg_attr(feature = "clap", arg(short = 'W', value_name = "HOLDINGS"))]
    pub west: Option<String>,
    /// A script parameter (DealerV2's -0 … -9): $N in the script (N is 0 to 9) stands for
    /// TEXT, read as script text where it stands. Repeatable; the last one given for an N
    /// counts.
    #[cfg_attr(feature = "clap", arg(long = "param", value_name = "N=TEXT", value_parser = param))]
    pub params: Vec<(usize, String)>,
}

/// `--param`'s value: `N=TEXT`, N a digit 0 to 9.
#[cfg(feature = "clap")]
fn param(s: &str) -> std::result::Result<(usize, String), String> {
    let (n, text) = s.split_once('=').ok_or(format!("{s:?} is not N=TEXT"))?;
    match n.as_bytes() {
        [d] if d.is_ascii_digit() => Ok((usize::from(d - b'0'), text.to_owned())),
        _ => Err(format!("{n:?} is not a parameter number (0 to 9)")),
    }
}

impl DealerOptions {
    /// The job: the script loaded with the parameters and predeal ([`load_script`]), then
    /// the given deals ([`DealerRunJob::source_for`]), the database `db` or the default one
    /// where needed ([`DealerRunJob::database_for`]).
    ///
    /// # Errors
    /// [`load_script`]'s; an unknown `--from` format.
    pub fn job(&self, db: Option<PathBuf>) -> Result<DealerRunJob> {
        let predeal = [&self.north, &self.east, &self.south, &self.west].map(Option::as_deref);
        let (script, name) = load_script(self.script.as_deref(), &self.params, predeal)?;
        let run = DealerJob {
            script_name: Some(name),
            swapping: match (self.swap2, self.swap3) {
                (true, _) => Swapping::TwoWay,
                (_, true) => Swapping::ThreeWay,
                _ => Swapping::None,
            },
            ..self.run.clone()
        };
        let source = DealerRunJob::source_for(
            self.library(),
            self.deals.clone(),
            self.read.read_as()?,
            self.set.clone(),
            self.all,
        );
        Ok(DealerRunJob {
            database: DealerRunJob::database_for(db, source.as_ref(), self.store.is_some()),
            source,
            store_set: self.store.clone(),
            ..DealerRunJob::new(script, run)
        })
    }

    /// The library of solved deals `-l` or `-L` names.
    fn library(&self) -> Option<(Library, PathBuf)> {
        let gib = self.gib_library.clone().map(|p| (Library::Gib, p));
        gib.or(self.rp_library.clone().map(|p| (Library::Rp, p)))
    }

    /// The file the deals are read from (a library or a deal file), whose notes are shown.
    pub fn file(&self) -> Option<&Path> {
        (self.gib_library.as_deref().or(self.rp_library.as_deref())).or(self.deals.as_deref())
    }
}

/// A library of solved deals, read as dealer reads one instead of shuffling: every deal comes
/// with its double-dummy table, so `tricks()`, `evalcontract` and `par` look the tricks up and
/// nothing is solved. The run takes the deals in the file's order and ends with the file (or
/// at `produce` or `generate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    /// GIB's `library.dat` ([`crate::formats::GibLibrary`], 26 bytes a deal): `dealdex
    /// dealer -l FILE`, as Hans van Staveren's and suokko's dealer read `library.dat` with
    /// `-l` (theirs takes the number of deals to skip and looks for `library.dat` in fixed
    /// places; dealdex's takes the file and starts at its first deal).
    Gib,
    /// Pavlicek's RP `.zrd` library ([`crate::formats::RpLibrary`], 23 bytes a deal):
    /// `dealdex dealer -L FILE`, as DealerV2's `-L FILE` (DealerV2's `-s N` then starts at
    /// block N of the file and wraps around once at its end; dealdex starts at the first deal,
    /// its title records skipped, and stops at the end).
    Rp,
}

impl Library {
    /// The library's format.
    pub fn format(self) -> &'static dyn crate::formats::DealFormat {
        match self {
            Library::Gib => &crate::formats::GibLibrary,
            Library::Rp => &crate::formats::RpLibrary,
        }
    }

    /// The library file `path` as a source of given deals, read as this library's format
    /// whatever its name.
    pub fn source(self, path: impl Into<PathBuf>) -> DealSource {
        DealSource::File(FileSource {
            path: path.into(),
            format: Some(self.format()),
            first_board: None,
        })
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
    /// The file's boards skipped for want of a complete deal and its reader's warnings
    /// (for the notes).
    #[serde(skip)]
    pub file_notes: ReadNotes,
}

/// A script as `dealdex dealer` loads it, with its name for the report's closing lines (the
/// file's name; `-` for standard input): the file `path` (`None` or `-`: standard input) read
/// whole, parsed with the parameters `params` (`$N` stands for the text of the last pair
/// given for N, 0 to 9: DealerV2's `-0` … `-9`; [`Script::parse_with_params`]), and the
/// predealt holdings `predeal` of North, East, South and West added (DealerV2's
/// `-N`/`-E`/`-S`/`-W`; [`Script::add_predeal`]).
///
/// ```
/// use dealdex::Seat;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("strong.dei");
/// std::fs::write(&path, "condition hcp(north) >= $0")?;
/// let params = [(0, "20".to_owned())];
/// let predeal = [None, None, Some("SA"), None];
/// let (script, name) = dealdex::workflow::dealer::load_script(Some(&path), &params, predeal)?;
/// assert_eq!(name, "strong.dei");
/// assert_eq!(script.predeal[Seat::South.index()].count_ones(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::ScriptRead`] for the file not read, [`ErrorKind::ScriptTooLarge`],
/// [`ErrorKind::ScriptNotUtf8`], [`ErrorKind::ScriptParse`] for the script's error (line and
/// column), [`ErrorKind::Dealer`] for a predealt holding refused.
pub fn load_script(
    path: Option<&Path>,
    params: &[(usize, String)],
    predeal: [Option<&str>; 4],
) -> Result<(Script, String)> {
    let path = path.filter(|p| p.as_os_str() != "-");
    let read = |error| ErrorKind::ScriptRead {
        path: path.unwrap_or(Path::new("-")).to_owned(),
        error,
    };
    // At most MAX_SCRIPT_BYTES are read: a larger script is refused before it is parsed.
    let mut bytes = Vec::new();
    let limit = MAX_SCRIPT_BYTES + 1;
    match path {
        Some(p) => std::fs::File::open(p)
            .and_then(|f| f.take(limit).read_to_end(&mut bytes))
            .map_err(read)?,
        None => std::io::stdin()
            .lock()
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(read)?,
    };
    if bytes.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(ErrorKind::ScriptTooLarge {
            path: path.unwrap_or(Path::new("-")).to_owned(),
        }
        .into());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..offset];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + offset
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
        ErrorKind::ScriptNotUtf8 {
            path: path.unwrap_or(Path::new("-")).to_owned(),
            offset: offset as u64,
            line,
            column,
        }
    })?;
    let name = path.map_or("-".into(), |p| match p.file_name() {
        Some(n) => n.to_string_lossy().into_owned(),
        None => p.display().to_string(),
    });
    let mut values: [Option<String>; 10] = Default::default();
    for (n, value) in params {
        values[*n] = Some(value.clone());
    }
    let mut script =
        Script::parse_with_params(&text, &values).map_err(|error| ErrorKind::ScriptParse {
            path: path.unwrap_or(Path::new("-")).to_owned(),
            error,
        })?;
    for (seat, holdings) in Seat::ALL.into_iter().zip(predeal) {
        if let Some(h) = holdings {
            script.add_predeal(seat, h).map_err(ErrorKind::Dealer)?;
        }
    }
    Ok((script, name))
}

/// The largest dealer script [`load_script`] reads, in bytes (16 MiB: about 500,000
/// definitions, which take some 450 MB to compile; real scripts are a few KB).
pub const MAX_SCRIPT_BYTES: u64 = 16 << 20;

/// Given deals a piece holds: what a source's reader hands the run at a time.
const GIVEN_PIECE: usize = 4096;

/// The thread reading a source's given deals, a piece at a time, while the run pulls them
/// ([`GivenFeed`]): it sends each piece over a channel holding one, so it reads at most a
/// piece or two ahead of the run, and stops when the run has dropped the feed (its send
/// fails).
struct Producer {
    thread: std::thread::JoinHandle<Result<SourceRead>>,
    /// Deals the run pulled from the feed.
    pulled: Arc<AtomicU64>,
}

impl Producer {
    /// Starts the thread that reads `source`, and the feed the run pulls its deals from.
    fn spawn(source: OpenSource<Store>) -> Result<(Producer, GivenFeed)> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<GivenDeal>>(1);
        let pulled = Arc::new(AtomicU64::new(0));
        let count = Arc::clone(&pulled);
        let feed = GivenFeed::new(rx.into_iter().inspect(move |piece| {
            count.fetch_add(piece.len() as u64, Ordering::Relaxed);
        }));
        let thread = std::thread::Builder::new()
            .name("dealdex-given-deals".into())
            .spawn(move || produce(source, tx))
            .map_err(|e| ErrorKind::Dealer(e.into()))?;
        Ok((Producer { thread, pulled }, feed))
    }

    /// Waits for the thread (which stops once the feed is dropped) and returns what it read
    /// or why it failed.
    fn finish(self) -> Result<SourceRead> {
        match self.thread.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

/// Reads `source` into `tx` [`GIVEN_PIECE`] deals at a time, until its end or until the run
/// stops taking pieces.
fn produce(source: OpenSource<Store>, tx: SyncSender<Vec<GivenDeal>>) -> Result<SourceRead> {
    source.read(&mut |boards| {
        let mut deals = boards.into_iter().map(|b| GivenDeal {
            deal: b.deal,
            table: b.dd,
            board: b.number,
        });
        loop {
            let piece: Vec<GivenDeal> = deals.by_ref().take(GIVEN_PIECE).collect();
            if piece.is_empty() {
                return Ok(true);
            }
            if tx.send(piece).is_err() {
                // The run ended: it needs no more deals.
                return Ok(false);
            }
        }
    })
}

/// Where the produced deals and solved tables go, a block at a time (what
/// [`crate::dealer::run_into`] hands its `keep`).
enum Target<'s> {
    /// Nowhere (no database).
    Nothing,
    /// The solved tables into the database, a transaction a block.
    Tables(&'s mut Store),
    /// The produced deals as a new set, and the solved tables with it: one transaction.
    Set(SetSink<'s>),
}

/// What the run keeps, and how much of it was stored.
struct Keeper<'s> {
    target: Target<'s>,
    /// Tables newly stored so far.
    tables_stored: u64,
}

impl<'s> Keeper<'s> {
    /// What `job` keeps in `store`: the produced deals as the new set `store_set` (its
    /// writer begun: a taken name is refused here) with the solved tables, else the tables
    /// alone; nothing without a store.
    fn for_job(job: &DealerRunJob, store: Option<&'s mut Store>) -> Result<Self> {
        let target = match (store, &job.store_set) {
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
                Target::Set(SetSink::begin(s, &set).map_err(|e| e.set_taken(&path))?)
            }
            (Some(s), None) => Target::Tables(s),
            (None, _) => Target::Nothing,
        };
        Ok(Keeper {
            target,
            tables_stored: 0,
        })
    }
}

impl Keeper<'_> {
    /// A block's produced deals (the next boards of the set) and solved tables.
    fn keep(&mut self, deals: &[Deal], solved: &[(Deal, TrickTable)]) -> Result<()> {
        if !solved.is_empty() {
            let mut rows: Vec<(DealIndex, TrickTable)> = solved
                .iter()
                .map(|(d, t)| (DealIndex::from_deal(d), *t))
                .collect();
            rows.sort_unstable_by_key(|r| r.0);
            self.tables_stored += match &mut self.target {
                Target::Nothing => 0,
                Target::Tables(store) => store.store_dd(&rows)?,
                Target::Set(sink) => sink.writer().add_tables(&rows)?,
            };
        }
        if let Target::Set(sink) = &mut self.target
            && !deals.is_empty()
        {
            sink.write(deals.iter().map(|&d| Board::unnumbered(d)).collect())?;
        }
        Ok(())
    }
}

/// A meter of a dealer run's progress ([`DealerRunJob::meter`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meter {
    /// The deals that end the run: to produce, or else to generate.
    pub length: u64,
    /// True when it counts produced deals, false for generated ones.
    pub produced: bool,
}

impl Meter {
    /// Where `progress` stands on the meter, and the other count in words (`produced (17
    /// generated)`).
    pub fn at(&self, progress: DealerProgress) -> (u64, String) {
        let DealerProgress {
            generated,
            produced,
        } = progress;
        match self.produced {
            true => (produced, format!("produced ({generated} generated)")),
            false => (generated, format!("generated ({produced} produced)")),
        }
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
/// The file (named, with the position; an error found past the deals the run took is
/// returned after the run), the set or the database missing ([`ErrorKind::NoDatabase`]),
/// the set name taken ([`ErrorKind::SetExists`]), the store failing, an expression that
/// cannot be evaluated ([`ErrorKind::Eval`]: the given deal named), writing `out` or another
/// failure of the run ([`ErrorKind::Dealer`]). When the run fails nothing of the set is
/// stored (nor the tables, with `store_set`); without `store_set` the tables of the blocks
/// before the failure stay stored.
pub fn run(
    job: &DealerRunJob,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(DealerProgress),
) -> Result<DealerRunReport> {
    let uses_tricks = job.script.uses_tricks();
    let mut store = open_store(job, uses_tricks)?;
    let database = store.as_ref().map(|s| s.path().to_owned());
    // The source's errors (a missing file or set, a format not told) before anything runs.
    let tables = SourceOptions {
        tables: uses_tricks,
        ..SourceOptions::default()
    };
    let source = match &job.source {
        None => None,
        Some(s) => Some(s.open_owned(job.database.as_deref(), &tables)?),
    };
    let mut keeper = Keeper::for_job(job, store.as_mut())?;
    let mut dealer_job = job.run.clone();
    let (producer, name) = match source {
        None => {
            dealer_job.feed = DealFeed::Stream;
            (None, String::new())
        }
        Some(opened) => {
            let name = opened.facts().name.clone();
            let (producer, feed) = Producer::spawn(opened)?;
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
                .map_err(|e| dealer::ErrorKind::Sink(Box::new(e)).into())
        },
    );
    // The run is over: dropping its feed makes a producer still sending stop reading.
    drop(dealer_job);
    let deals_read = producer
        .as_ref()
        .map_or(0, |p| p.pulled.load(Ordering::Relaxed));
    let notes = producer.map(Producer::finish).transpose();
    let report = ran.map_err(|e| run_error(e, &name))?;
    // A reading error past the deals the run took: the run's error, nothing of the set kept.
    let read = notes?.unwrap_or_default();
    let Keeper {
        target,
        tables_stored,
    } = keeper;
    let stored_set = finish_set(target, job.store_set.as_deref())?;
    Ok(DealerRunReport {
        run: report,
        source: match &job.source {
            None => "stream",
            Some(DealSource::File(_)) => "file",
            Some(_) => "database",
        },
        deals_read,
        database,
        stored_set,
        tables_stored,
        file_notes: read.notes,
    })
}

/// Opens the database `job` needs: the existing one its deals are read from, else one
/// (created when missing) for the tables a script using `tricks` solves or for the set it
/// stores; none otherwise.
///
/// # Errors
/// [`ErrorKind::NoDatabase`] for a set to store without a database,
/// [`ErrorKind::SetExists`] for a set name taken, the store failing to open.
fn open_store(job: &DealerRunJob, uses_tricks: bool) -> Result<Option<Store>> {
    let from_db = job.source.as_ref().is_some_and(DealSource::is_stored);
    if job.store_set.is_some() && job.database.is_none() {
        return Err(ErrorKind::NoDatabase.into());
    }
    let store = match &job.database {
        Some(path) if from_db => Some(Store::open_existing(path)?),
        Some(path) if uses_tricks || job.store_set.is_some() => Some(Store::open(path)?),
        _ => None,
    };
    if let (Some(name), Some(s)) = (&job.store_set, &store)
        && s.set(name)?.is_some()
    {
        return Err(ErrorKind::SetExists {
            set: name.clone(),
            database: s.path().to_owned(),
        }
        .into());
    }
    Ok(store)
}

/// The run's error as [`run`] returns it: an expression failing on a given deal placed in
/// the source `name` (empty for no source) with the deal's number and board, a store
/// failing in the run's `keep` as its own error.
fn run_error(error: dealer::Error, name: &str) -> Error {
    match error.into_kind() {
        dealer::ErrorKind::Eval {
            deal,
            error,
            given: Some(g),
        } if !name.is_empty() => {
            let mut place = format!("{name}: deal {deal}");
            match g.board {
                Some(b) => place.push_str(&format!(" (board {b}, {})", g.deal)),
                None => place.push_str(&format!(" ({})", g.deal)),
            }
            ErrorKind::Eval { place, error }.into()
        }
        dealer::ErrorKind::Sink(e) => match e.downcast::<Error>() {
            Ok(e) => *e,
            Err(e) => ErrorKind::Dealer(dealer::ErrorKind::Sink(e).into()).into(),
        },
        kind => ErrorKind::Dealer(kind.into()).into(),
    }
}

/// Commits the set the run produced into `target` as `store_set`, when it stored one.
///
/// # Errors
/// The store failing to commit.
fn finish_set(target: Target<'_>, store_set: Option<&str>) -> Result<Option<StoredDealerSet>> {
    Ok(match (target, store_set) {
        (Target::Set(sink), Some(name)) => {
            let boards = sink.boards();
            sink.finish()?.map(|outcome| StoredDealerSet {
                name: name.to_owned(),
                boards,
                new_deals: outcome.new_deals,
            })
        }
        _ => None,
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
