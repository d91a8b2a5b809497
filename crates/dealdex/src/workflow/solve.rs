//! The `solve` workflow: double-dummy tables for given deals or for every unsolved deal of a
//! database, solved on all cores, stored in committed batches, resumable.
//!
//! A job goes in ([`SolveJob`]), a report comes out ([`SolveReport`], serde), progress goes
//! through a callback; the library never prints.

use std::time::Instant;

use serde::Serialize;

use std::path::Path;

use crate::dd::{Par, TablePar, TrickTable, solve_all};
use crate::formats::{self, Board, DealFormat};
use crate::model::board::Vulnerability;
use crate::model::card::Seat;
use crate::model::deal::Deal;
use crate::model::index::DealIndex;
use crate::store::{Store, StoreError, StoreErrorKind};
use crate::workflow::output::Output;
use crate::workflow::pipeline::{
    DealFiles, DealSink, DealSource, FileSource, ReadAs, SourceOptions,
};
use crate::{Error, ErrorKind, FormatError, FormatErrorKind, Result};

pub use super::verify_dd::{
    BoardRef, CellMismatch, DEFAULT_VERIFY_SEED, TableMismatch, VerifyJob, VerifyReport, verify,
};

/// Deals per committed batch by default: at ~7 deals/s a core, 64 deals are a few seconds
/// of work on 2 cores, so a kill loses little, while each transaction stays cheap.
pub const DEFAULT_SOLVE_BATCH: usize = 64;

/// What to solve.
#[derive(Clone, Debug)]
pub enum SolveSource {
    /// These boards, in order (a file's boards, a set's boards, one deal), each with its key,
    /// made once. Deals already solved in the store are read from it, not solved again.
    Items(Vec<SolveItem>),
    /// Every stored deal without a table, in key order (`solve --all`); needs a store. Par
    /// is for `dealer` and `vul` (default North, nobody vulnerable).
    Unsolved {
        /// Dealer for par.
        dealer: Option<Seat>,
        /// Vulnerability for par.
        vul: Option<Vulnerability>,
    },
}

/// A solve job.
#[derive(Clone, Debug)]
pub struct SolveJob {
    /// The deals.
    pub source: SolveSource,
    /// Deals per batch; each batch is solved on all cores, then committed in one
    /// transaction (at least 1).
    pub batch: usize,
}

/// What a solve job did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SolveReport {
    /// The database the tables were read from and stored in, as the store names it; `None`
    /// without a store (not in the JSON report).
    #[serde(skip)]
    pub database: Option<String>,
    /// Deals looked at.
    pub deals: u64,
    /// Deals solved by this run.
    pub solved: u64,
    /// Deals whose table was already stored (not solved again).
    pub already_solved: u64,
    /// Tables newly stored (0 without a store).
    pub stored: u64,
    /// Batches committed.
    pub batches: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// One deal to solve with what par needs (dealer, vulnerability) and where it came from.
#[derive(Clone, Debug)]
pub struct SolveItem {
    /// Its board number, when it came from a set or a numbered file board.
    pub board: Option<u64>,
    /// The deal's 13-byte key (the store's key), made once with the deal.
    pub key: DealIndex,
    /// The deal.
    pub deal: Deal,
    /// Dealer for par.
    pub dealer: Seat,
    /// Vulnerability for par.
    pub vul: Vulnerability,
    /// The board as read from a file (tags, auction, play) or a stored set, for output that
    /// keeps them.
    pub read: Option<Board>,
}

impl SolveItem {
    /// A deal given alone: dealer and vulnerability from `dealer`/`vul`, else from `board`
    /// (a hex index's `-X`), else North and nobody vulnerable.
    pub fn single(
        deal: Deal,
        board: Option<u64>,
        dealer: Option<Seat>,
        vul: Option<Vulnerability>,
    ) -> SolveItem {
        SolveItem {
            board: None,
            key: DealIndex::from_deal(&deal),
            deal,
            dealer: dealer.unwrap_or_else(|| board.map_or(Seat::North, crate::board_dealer)),
            vul: vul
                .unwrap_or_else(|| board.map_or(Vulnerability::None, crate::board_vulnerability)),
            read: None,
        }
    }

    /// The solved deal as `solve --format json` prints it.
    pub fn solved(&self, table: &TrickTable) -> SolvedDeal {
        SolvedDeal {
            board: self.board,
            deal: self.deal.to_string(),
            dealer: self.dealer.letter(),
            index: self.key.to_string(),
            par: table.par(self.dealer, self.vul),
            tricks: *table,
            vul: self.vul.to_string(),
        }
    }
}

impl SolveItem {
    /// The item as a PBN game with its double-dummy tags (`solve --format pbn`): the board as
    /// read (its other tags kept), else a new board numbered `k` (1-based in output order),
    /// with the dealer and vulnerability par was computed for.
    pub fn solved_board(&self, k: u64, table: &TrickTable) -> Board {
        let mut board = self
            .read
            .clone()
            .unwrap_or_else(|| Board::unnumbered(self.deal));
        board.number = Some(board.number.or(self.board).unwrap_or(k));
        board.dealer = Some(self.dealer);
        board.vulnerability = Some(self.vul);
        board.dd = Some(*table);
        board
    }
}

/// One solved deal: the JSON line of `dealdex solve --format json`
/// (`{"board":1,"deal":"N:…","dealer":"N","index":"…","par":{"score":420,"contracts":["4SN"]},
/// "tricks":{"N":{"NT":8,"S":10,…},…},"vul":"None"}`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolvedDeal {
    /// Board number, when known.
    pub board: Option<u64>,
    /// The deal as a PBN deal string.
    pub deal: String,
    /// Dealer par was computed for.
    pub dealer: char,
    /// The 13-byte index, 26 hex digits.
    pub index: String,
    /// Par for that dealer and vulnerability (score from North-South's view).
    pub par: Par,
    /// Tricks by declarer and strain.
    pub tricks: TrickTable,
    /// Vulnerability par was computed for (`None`, `NS`, `EW`, `All`).
    pub vul: String,
}

/// The boards of a stored set, in board order, with the board's dealer and vulnerability
/// unless `dealer`/`vul` override them.
///
/// # Errors
/// [`ErrorKind::SolveNoSet`] when the set does not exist; the store's failure or a stored key
/// that is no deal (the set is read as every command reads one, a [`DealSource::Set`]).
pub fn set_items(
    store: &Store,
    name: &str,
    dealer: Option<Seat>,
    vul: Option<Vulnerability>,
) -> Result<Vec<SolveItem>> {
    let source = DealSource::Set(name.to_owned()).open(Some(store), &SourceOptions::default());
    let (boards, _) = source
        .and_then(|s| s.read_all())
        .map_err(|e| match e.into_kind() {
            ErrorKind::NoSet { set, database } => ErrorKind::SolveNoSet { set, database },
            kind => kind,
        })?;
    Ok(boards_items(boards, dealer, vul))
}

/// The boards of a deal file, read whole through `format`, with each board's dealer and
/// vulnerability (from its tags, else its number) unless `dealer`/`vul` override them.
///
/// # Errors
/// The deal pipeline's read errors, naming the file and the position of what is wrong.
pub fn file_items(
    path: &Path,
    format: &'static dyn DealFormat,
    dealer: Option<Seat>,
    vul: Option<Vulnerability>,
) -> Result<Vec<SolveItem>> {
    let read = ReadAs {
        format: Some(format),
        first_board: None,
    };
    read_file_items(path, read, dealer, vul, &path.display().to_string())
}

/// The boards of a deal file as solve items, the file opened once ([`DealSource`]: the
/// format named, else its extension's, else its content's); a format not told is
/// [`ErrorKind::UnknownInput`], the solve argument `input` as given.
fn read_file_items(
    path: &Path,
    read: ReadAs,
    dealer: Option<Seat>,
    vul: Option<Vulnerability>,
    input: &str,
) -> Result<Vec<SolveItem>> {
    let source = DealSource::File(FileSource::new(path.to_owned(), read));
    let read = source
        .open(None, &SourceOptions::default())
        .and_then(|s| s.read_all());
    match read {
        Ok((boards, _)) => Ok(boards_items(boards, dealer, vul)),
        Err(e) => Err(match e.into_kind() {
            ErrorKind::Format(error) => ErrorKind::UnknownInput {
                input: input.to_owned(),
                error,
            },
            kind => kind,
        }
        .into()),
    }
}

/// The solve input that means standard input: a deal file read whole, in the format
/// `--from` names, else the one its first bytes show.
pub const STDIN_INPUT: &str = "-";

/// Solve items of boards read from a file: each board's dealer and vulnerability (from
/// its tags, else its number) unless `dealer`/`vul` override them.
fn boards_items(
    boards: Vec<Board>,
    dealer: Option<Seat>,
    vul: Option<Vulnerability>,
) -> Vec<SolveItem> {
    boards
        .into_iter()
        .map(|b| SolveItem {
            board: b.number,
            key: DealIndex::from_deal(&b.deal),
            dealer: dealer.unwrap_or_else(|| b.dealer_or_default()),
            vul: vul.unwrap_or_else(|| b.vulnerability_or_default()),
            deal: b.deal,
            read: Some(b),
        })
        .collect()
}

/// The deals of one solve argument (solve's `inputs` argument): a deal string or a hex index
/// ([`crate::parse_deal_argument`]) unless a file of that name exists; else a deal file
/// (standard input for [`STDIN_INPUT`]) read as `read` says: its format, or the one its
/// extension selects or, failing that, its content shows (`open_deal_file`, as the other
/// workflows choose formats).
///
/// ```
/// use dealdex::ErrorKind;
/// use dealdex::solve::input_items;
/// use dealdex::workflow::pipeline::ReadAs;
/// let items = input_items("0EDCCBA0976F2DA4945D8E9DC0-0", ReadAs::default(), None, None)?;
/// // Board 16 (the `-0` suffix): West deals, East-West vulnerable.
/// assert_eq!(items[0].dealer, dealdex::Seat::West);
/// let e = input_items("deals.doc", ReadAs::default(), None, None).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::UnknownInput { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Deal`] for a deal string or index that is no deal,
/// [`ErrorKind::UnknownInput`] when no format is named or told by the extension or the
/// content, the deal pipeline's read errors for a file that cannot be read (named as given;
/// standard input as `<stdin>`).
pub fn input_items(
    input: &str,
    read: ReadAs,
    dealer: Option<Seat>,
    vul: Option<Vulnerability>,
) -> Result<Vec<SolveItem>> {
    let path = Path::new(input);
    if input != STDIN_INPUT
        && !path.exists()
        && let Some(parsed) = crate::parse_deal_argument(input)
    {
        let (deal, board) = parsed.map_err(ErrorKind::Deal)?;
        return Ok(vec![SolveItem::single(deal, board, dealer, vul)]);
    }
    read_file_items(path, read, dealer, vul, input)
}

/// The message of [`ErrorKind::UnknownInput`]: solve's input is a deal, an index or a file,
/// and its option is `--from`.
pub(crate) fn format_message(input: &str, error: &FormatError) -> String {
    match error.kind() {
        FormatErrorKind::UnknownName { name } => format!("no format {name:?}"),
        FormatErrorKind::UnknownExtension { .. } => {
            format!(
                "{input}: not a deal, an index, or a file of a known extension (name its format)"
            )
        }
        // The detector's message (with the file) already says to name the format.
        _ => error.to_string(),
    }
}

/// Checks a solve request before anything is read: something to solve (deal arguments, a
/// set or all stored deals), a database file at `db` when the deals come from it, and the
/// default vulnerability `vul` (None, NS, EW or All), which it returns parsed.
///
/// ```
/// use dealdex::ErrorKind;
/// use dealdex::solve::check_request;
/// let db = std::path::Path::new("dealdex.db");
/// let nothing = check_request(&[], None, false, db, None).unwrap_err();
/// assert!(matches!(nothing.kind(), ErrorKind::NothingToSolve));
/// assert!(check_request(&["x.pbn".into()], None, false, db, Some("NS"))?.is_some());
/// # Ok::<(), dealdex::Error>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Vulnerability`], [`ErrorKind::NothingToSolve`], and [`ErrorKind::Store`]
/// with [`StoreErrorKind::NoDatabase`]; all bad input.
pub fn check_request(
    inputs: &[String],
    set: Option<&str>,
    all: bool,
    db: &Path,
    vul: Option<&str>,
) -> Result<Option<Vulnerability>> {
    let vul = vul
        .map(|v| v.parse().map_err(ErrorKind::Vulnerability))
        .transpose()?;
    if inputs.is_empty() && set.is_none() && !all {
        return Err(ErrorKind::NothingToSolve.into());
    }
    if (set.is_some() || all) && !db.exists() {
        return Err(StoreError::from(StoreErrorKind::NoDatabase {
            path: db.display().to_string(),
        })
        .into());
    }
    Ok(vul)
}

/// `dealdex solve`'s options as typed: what to solve, how a deal file is read, the output's
/// name and the batch. With the `clap` feature they derive `clap::Args`, their doc comments
/// the help; [`SolveOptions::request`] and [`SolveOptions::output`] resolve them.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SolveOptions {
    /// What to solve (its `read` is [`SolveOptions::read`] resolved).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub request: SolveRequest,
    /// Output: text (table and par per deal), json (JSON lines with par), or any deal-file
    /// format, each board with its table where the format holds one (pbn: the double-dummy
    /// tags `[DoubleDummyTricks]`, `[OptimumScore]`, `[ParContract]` and `[OptimumResultTable]`; a
    /// PBN input keeps its other tags).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "to",
            short = 'f',
            visible_alias = "format",
            value_name = "FORMAT"
        )
    )]
    pub to: Option<String>,
    /// How a deal file is read (`--from`, `--first-board`).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub read: crate::workflow::pipeline::ReadOptions,
    /// Deals per batch: solved on all cores, then committed in one transaction.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N",
        default_value_t = DEFAULT_SOLVE_BATCH as u64,
        value_parser = clap::value_parser!(u64).range(1..=1_000_000)))]
    pub batch: u64,
}

impl SolveOptions {
    /// The request with its deal files' reading resolved.
    ///
    /// # Errors
    /// An unknown `--from` format.
    pub fn request(&self) -> Result<SolveRequest> {
        let read = self.read.read_as()?;
        Ok(SolveRequest {
            read,
            ..self.request.clone()
        })
    }

    /// How each solved board is written: the output named ([`SolveOutput::named`]); else
    /// nothing but the report for every unsolved deal ([`SolveRequest::all`]), else JSON
    /// lines when the caller's report is JSON (`json`), else text.
    ///
    /// # Errors
    /// [`SolveOutput::named`]'s.
    pub fn output(&self, json: bool) -> Result<Option<SolveOutput>> {
        Ok(match (self.to.as_deref(), json) {
            (Some(name), _) => Some(SolveOutput::named(name)?),
            (None, _) if self.request.all => None,
            (None, true) => Some(SolveOutput::JsonLines),
            (None, false) => Some(SolveOutput::Text),
        })
    }
}

/// What `dealdex solve` is asked to solve, as its arguments give it: deals, a stored set, or
/// every stored deal that has no table yet ([`SolveRequest::open`] makes its source). With
/// the `clap` feature, those arguments but `read` ([`SolveOptions::request`] resolves
/// `--from`).
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SolveRequest {
    /// Deals to solve: PBN deal strings (`N:…`), hex indices (`-X` gives dealer and
    /// vulnerability), deal files in any format dealdex reads, or `-` for a deal file on
    /// standard input (its format told by --from, else by its content).
    pub inputs: Vec<String>,
    /// How the deal files are read (their format, their first board).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub read: ReadAs,
    /// Solve the boards of this stored set (after the inputs').
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME",
        conflicts_with_all = ["inputs", "all", "no_db"]))]
    pub set: Option<String>,
    /// Solve every stored deal that has no table yet (prints a summary only, unless
    /// --format is given).
    #[cfg_attr(feature = "clap", arg(long, conflicts_with_all = ["inputs", "no_db"]))]
    pub all: bool,
    /// Dealer for par where the input does not give one (default: from the board number,
    /// else N).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SEAT", value_parser = str::parse::<Seat>))]
    pub dealer: Option<Seat>,
    /// Vulnerability for par where the input does not give it: None, NS, EW or All
    /// (default: from the board number, else None).
    #[cfg_attr(feature = "clap", arg(long, value_name = "VUL"))]
    pub vul: Option<String>,
}

impl SolveRequest {
    /// The request's source, with its database at `db` (`None`: no database) opened: the
    /// request is checked first ([`check_request`]), the deals given are read before the
    /// database is touched ([`input_items`]), then the database is opened ([`open_store`])
    /// and the stored set's boards are added ([`set_items`]); with `all`, every unsolved
    /// deal ([`SolveSource::Unsolved`]).
    ///
    /// ```
    /// use dealdex::solve::{SolveRequest, SolveSource};
    /// let inputs = vec!["0EDCCBA0976F2DA4945D8E9DC0-0".to_owned()];
    /// let (source, store) = SolveRequest { inputs, ..SolveRequest::default() }.open(None)?;
    /// assert!(matches!(source, SolveSource::Items(items) if items.len() == 1));
    /// assert!(store.is_none());
    /// # Ok::<(), dealdex::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`check_request`], [`input_items`], [`open_store`] ([`ErrorKind::Store`]) and
    /// [`set_items`]; [`ErrorKind::SolveNoDatabase`] for a set or all stored deals without a
    /// database.
    pub fn open(&self, db: Option<&Path>) -> Result<(SolveSource, Option<Store>)> {
        let stored = self.set.is_some() || self.all;
        let (set, dealer) = (self.set.as_deref(), self.dealer);
        let vul = match db {
            Some(db) => check_request(&self.inputs, set, self.all, db, self.vul.as_deref())?,
            None if stored => return Err(ErrorKind::SolveNoDatabase.into()),
            None => check_request(
                &self.inputs,
                None,
                false,
                Path::new(""),
                self.vul.as_deref(),
            )?,
        };
        let mut items = Vec::new();
        for input in &self.inputs {
            items.extend(input_items(input, self.read, dealer, vul)?);
        }
        let store = open_store(db, stored)?;
        if let (Some(name), Some(s)) = (set, &store) {
            items.extend(set_items(s, name, dealer, vul)?);
        }
        let source = match self.all {
            true => SolveSource::Unsolved { dealer, vul },
            false => SolveSource::Items(items),
        };
        Ok((source, store))
    }
}

/// The database of a solve job at `db`, opened as its source needs: the deals of a stored
/// set or every unsolved deal (`stored`) are what is stored, so the file must exist and be a
/// dealdex database ([`Store::open_existing`]: never created or migrated for a request that
/// may fail); deals given are solved into a database opened for storing, created when
/// missing ([`Store::open`]). `None` (no database) gives `None`.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let db = dir.path().join("d.db");
/// assert!(dealdex::solve::open_store(Some(&db), true).is_err());
/// assert!(dealdex::solve::open_store(Some(&db), false)?.is_some());
/// assert!(dealdex::solve::open_store(None, true)?.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Store`]: the [`StoreError`] of [`Store::open_existing`] or [`Store::open`].
pub fn open_store(db: Option<&Path>, stored: bool) -> Result<Option<Store>> {
    let opened = db.map(|p| match stored {
        true => Store::open_existing(p),
        false => Store::open(p),
    });
    Ok(opened.transpose()?)
}

/// The database of a verify job ([`verify`]) at `db`: an existing dealdex database
/// ([`Store::open_existing`]) that holds the set `set` when one is named.
///
/// # Errors
/// [`ErrorKind::Store`] as [`Store::open_existing`]; [`ErrorKind::SolveNoSet`] when the set
/// is not stored.
pub fn open_verify_store(db: &Path, set: Option<&str>) -> Result<Store> {
    let store = Store::open_existing(db)?;
    match set {
        Some(name) if store.set(name)?.is_none() => Err(ErrorKind::SolveNoSet {
            set: name.to_owned(),
            database: store.path().to_owned(),
        }
        .into()),
        _ => Ok(store),
    }
}

/// The summary line `dealdex solve` prints: deals, solved now, already solved, tables
/// stored in the database (when there was one), time and rate.
impl std::fmt::Display for SolveReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let db = self.database.as_ref().map_or(String::new(), |p| {
            format!(", {} new tables stored in {p}", self.stored)
        });
        let rate = self.solved as f64 / self.seconds.max(1e-9);
        write!(
            f,
            "{} deals: {} solved, {} already solved{db}; {:.1} s ({rate:.1} deals/s)",
            self.deals, self.solved, self.already_solved, self.seconds
        )
    }
}

impl SolveItem {
    /// The deal and its table as `dealdex solve` prints them: a heading (board, dealer,
    /// vulnerability, deal), the table, par, and an empty line. Every line ends with a
    /// newline.
    pub fn text(&self, table: &TrickTable) -> String {
        let board = self.board.map_or(String::new(), |b| format!("board {b}  "));
        format!(
            "{board}dealer {}  vul {}  {}\n{table}\npar {}\n\n",
            self.dealer,
            self.vul,
            self.deal,
            table.par(self.dealer, self.vul)
        )
    }
}

/// Progress of a running job: deals done so far and the total when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveProgress {
    /// Deals done (solved or found solved).
    pub done: u64,
    /// Deals in the job.
    pub total: u64,
}

/// Runs `job`: per batch, reads the stored tables (when `store` is given), solves the rest
/// on all cores, commits the new tables in one transaction, then hands each board and its
/// table to `each` (in the job's order) and reports progress. A killed run loses at most
/// the batch in flight; running the job again solves only what is missing.
///
/// ```
/// use dealdex::solve::{SolveItem, SolveJob, SolveSource, run};
/// let deal: dealdex::Deal =
///     "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse()?;
/// let mut store = dealdex::Store::open_in_memory()?;
/// let items = vec![SolveItem::single(deal, None, None, None)];
/// let job = SolveJob { source: SolveSource::Items(items), batch: 64 };
/// let mut tables = Vec::new();
/// let report = run(&job, Some(&mut store), &mut |_| {}, &mut |_, t| {
///     tables.push(*t);
///     Ok::<(), dealdex::Error>(())
/// })?;
/// assert_eq!((report.solved, report.stored), (1, 1));
/// let again = run(&job, Some(&mut store), &mut |_| {}, &mut |_, _| Ok::<(), dealdex::Error>(()))?;
/// assert_eq!((again.solved, again.already_solved), (0, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Store`] when reading or storing fails (the batch in flight is then not
/// stored; earlier batches are), with [`StoreErrorKind::CorruptDeal`] for a stored key that is
/// no deal. [`SolveSource::Unsolved`] without a store does nothing. Errors from `each` stop
/// the job and are passed through.
pub fn run<E: From<Error>>(
    job: &SolveJob,
    mut store: Option<&mut Store>,
    progress: &mut dyn FnMut(SolveProgress),
    each: &mut dyn FnMut(&SolveItem, &TrickTable) -> Result<(), E>,
) -> Result<SolveReport, E> {
    let started = Instant::now();
    let batch = job.batch.max(1);
    let mut report = SolveReport {
        database: store.as_deref().map(|s| s.path().to_owned()),
        ..SolveReport::default()
    };
    match &job.source {
        SolveSource::Items(items) => {
            let total = items.len() as u64;
            progress(SolveProgress { done: 0, total });
            for chunk in items.chunks(batch) {
                let keys: Vec<DealIndex> = chunk.iter().map(|i| i.key).collect();
                let stored = match store.as_deref() {
                    Some(s) => s.dd_tables(&keys).map_err(Error::from)?,
                    None => vec![None; chunk.len()],
                };
                let tables = solve_missing(chunk, &stored);
                report.already_solved += stored.iter().filter(|t| t.is_some()).count() as u64;
                let new: Vec<(DealIndex, TrickTable)> = keys
                    .iter()
                    .zip(&tables)
                    .zip(&stored)
                    .filter(|(_, s)| s.is_none())
                    .map(|((k, t), _)| (*k, *t))
                    .collect();
                report.solved += new.len() as u64;
                if let Some(s) = store.as_deref_mut()
                    && !new.is_empty()
                {
                    report.stored += s.store_dd(&new).map_err(Error::from)?;
                    report.batches += 1;
                }
                for (item, table) in chunk.iter().zip(&tables) {
                    each(item, table)?;
                }
                report.deals += chunk.len() as u64;
                progress(SolveProgress {
                    done: report.deals,
                    total,
                });
            }
        }
        SolveSource::Unsolved { dealer, vul } => {
            let Some(s) = store else {
                return Ok(report);
            };
            let total = stored_count(s)?;
            progress(SolveProgress { done: 0, total });
            let mut after: Option<DealIndex> = None;
            loop {
                let keys = s
                    .unsolved_keys(None, after.as_ref(), batch)
                    .map_err(Error::from)?;
                let Some(last) = keys.last() else { break };
                after = Some(*last);
                let items = keys
                    .iter()
                    .map(|&key| {
                        let deal = key
                            .to_deal()
                            .map_err(|error| StoreErrorKind::CorruptDeal { key, error })?;
                        Ok(SolveItem {
                            key,
                            ..SolveItem::single(deal, None, *dealer, *vul)
                        })
                    })
                    .collect::<Result<Vec<SolveItem>, StoreError>>()
                    .map_err(Error::from)?;
                let deals: Vec<Deal> = items.iter().map(|i| i.deal).collect();
                let tables = solve_all(&deals);
                let new: Vec<(DealIndex, TrickTable)> =
                    keys.iter().copied().zip(tables.iter().copied()).collect();
                report.stored += s.store_dd(&new).map_err(Error::from)?;
                report.batches += 1;
                report.solved += new.len() as u64;
                report.deals += new.len() as u64;
                for (item, table) in items.iter().zip(&tables) {
                    each(item, table)?;
                }
                progress(SolveProgress {
                    done: report.deals,
                    total: total.max(report.deals),
                });
            }
        }
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Deals of `store` without a table.
fn stored_count(store: &Store) -> Result<u64> {
    Ok(store.deal_count()?.saturating_sub(store.dd_count()?))
}

/// How [`write()`] prints each solved board.
#[derive(Clone, Copy, Debug)]
pub enum SolveOutput {
    /// A heading (board, dealer, vulnerability, deal), the table and par, then an empty line
    /// ([`SolveItem::text`]).
    Text,
    /// One JSON object a line ([`SolvedDeal`]).
    JsonLines,
    /// A deal file of a registry format, each board with its table where the format holds
    /// one (PBN's double-dummy tags, Parquet's columns; [`SolveItem::solved_board`]: a board
    /// read from a file keeps its other tags), written as every command writes boards
    /// ([`DealFiles`]).
    Format(&'static dyn DealFormat),
}

/// The same output (formats by name).
impl PartialEq for SolveOutput {
    fn eq(&self, other: &SolveOutput) -> bool {
        match (self, other) {
            (SolveOutput::Format(a), SolveOutput::Format(b)) => a.info().name == b.info().name,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

impl SolveOutput {
    /// The output of `dealdex solve --to NAME`: `text`, `json` (solve's JSON lines, with
    /// par), else a registry format by its name.
    ///
    /// # Errors
    /// [`ErrorKind::OutputFormat`] ([`FormatErrorKind::UnknownName`]) for a name no format
    /// has.
    pub fn named(name: &str) -> Result<SolveOutput> {
        Ok(match name {
            "text" => SolveOutput::Text,
            "json" => SolveOutput::JsonLines,
            name => SolveOutput::Format(formats::named(name).map_err(ErrorKind::OutputFormat)?),
        })
    }
}

/// Runs `job` ([`run`]) and writes each board as it is solved to `out` (standard output:
/// its errors are named `stdout`), as `output` says (`None`: nothing but the report), in
/// the job's order, flushed at the end of each batch so that a reader of a pipe sees each
/// batch as soon as it is solved. Boards from [`SolveSource::Unsolved`], which have no
/// number, are numbered 1, 2, … in PBN.
///
/// ```
/// use dealdex::solve::{SolveItem, SolveJob, SolveOutput, SolveSource, write};
/// let deal: dealdex::Deal =
///     "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse()?;
/// let items = vec![SolveItem::single(deal, Some(16), None, None)];
/// let job = SolveJob { source: SolveSource::Items(items), batch: 64 };
/// let mut out = Vec::new();
/// let report = write(&job, None, Some(SolveOutput::JsonLines), &mut out, &mut |_| {})?;
/// assert_eq!(report.solved, 1);
/// let line = String::from_utf8(out)?;
/// assert!(line.starts_with(r#"{"board":null,"deal":"N:AKQJT98765432"#), "{line}");
/// assert!(line.contains(r#""dealer":"W""#)); // board 16 is dealt by West
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`run`]; [`ErrorKind::Write`] when writing fails (the tables of the batches solved so
/// far are stored), [`ErrorKind::Render`] when a registry format refuses a board.
pub fn write(
    job: &SolveJob,
    store: Option<&mut Store>,
    output: Option<SolveOutput>,
    out: &mut dyn std::io::Write,
    progress: &mut dyn FnMut(SolveProgress),
) -> Result<SolveReport> {
    if let Some(SolveOutput::Format(format)) = output {
        return write_boards(job, store, format, out, progress);
    }
    let failed = |error| Error::write(None, error);
    let batch = job.batch.max(1);
    let mut written = 0u64;
    let mut bytes = Vec::new();
    let report = run(job, store, progress, &mut |item, table| {
        written += 1;
        bytes.clear();
        match output {
            None | Some(SolveOutput::Format(_)) => return Ok(()),
            Some(SolveOutput::Text) => bytes.extend_from_slice(item.text(table).as_bytes()),
            Some(SolveOutput::JsonLines) => {
                let line = serde_json::to_string(&item.solved(table))
                    .map_err(|e| failed(std::io::Error::other(e)))?;
                bytes.extend_from_slice(line.as_bytes());
                bytes.push(b'\n');
            }
        }
        out.write_all(&bytes).map_err(failed)?;
        if written.is_multiple_of(batch as u64) {
            out.flush().map_err(failed)?;
        }
        Ok::<(), Error>(())
    })?;
    out.flush().map_err(failed)?;
    Ok(report)
}

/// [`write()`] in a registry format: the solved boards, a batch at a time, into a
/// [`FileSink`](crate::workflow::pipeline::FileSink) on `out`.
fn write_boards(
    job: &SolveJob,
    store: Option<&mut Store>,
    format: &'static dyn DealFormat,
    out: &mut dyn std::io::Write,
    progress: &mut dyn FnMut(SolveProgress),
) -> Result<SolveReport> {
    let output = Output { path: None, format };
    let mut sink = DealFiles::new(vec![output], formats::WriteOptions::default()).open(out)?;
    let batch = job.batch.max(1);
    let mut boards = Vec::with_capacity(batch);
    let mut written = 0u64;
    let report = run(job, store, progress, &mut |item, table| {
        written += 1;
        boards.push(item.solved_board(written, table));
        if boards.len() == batch {
            sink.write(std::mem::take(&mut boards))?;
        }
        Ok::<(), Error>(())
    })?;
    sink.write(boards)?;
    sink.finish()?;
    Ok(report)
}

/// The tables of `items`: the stored ones as they are, the others solved together (a deal
/// given twice is solved once).
fn solve_missing(items: &[SolveItem], stored: &[Option<TrickTable>]) -> Vec<TrickTable> {
    let mut missing: Vec<&SolveItem> = items
        .iter()
        .zip(stored)
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| i)
        .collect();
    missing.sort_unstable_by_key(|i| i.key);
    missing.dedup_by_key(|i| i.key);
    let deals: Vec<Deal> = missing.iter().map(|i| i.deal).collect();
    let solved: std::collections::HashMap<DealIndex, TrickTable> = missing
        .iter()
        .map(|i| i.key)
        .zip(solve_all(&deals))
        .collect();
    items
        .iter()
        .zip(stored)
        .map(|(i, s)| s.unwrap_or_else(|| solved[&i.key]))
        .collect()
}
