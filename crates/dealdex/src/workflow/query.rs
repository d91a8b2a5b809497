//! The query workflow (`dealdex query`): count, list or explain the stored deals that match an
//! expression of the query language (docs/query.md).
//!
//! ```
//! use dealdex::workflow::query::{QueryJob, QueryMode};
//! use dealdex::{DealIndex, Seed, Store};
//!
//! let seed: Seed = "42".repeat(32).parse()?;
//! let keys: Vec<DealIndex> = (1..=100).map(|k| DealIndex::from_deal(&seed.board_deal(k))).collect();
//! let mut store = Store::open_in_memory()?;
//! store.insert_deals(&keys)?;
//! let job = QueryJob::new("hcp(NS) >= 0", QueryMode::Count)?;
//! let report = dealdex::workflow::query::run(&job, Some(&store), &mut Vec::new())?;
//! assert_eq!(report.count, 100);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::formats::{Board, DealFormat, WriteOptions};
use crate::query::{Dialect, Query};
use crate::workflow::output::{FileRole, Output, ReportOutput, check_distinct};
use crate::workflow::pipeline::{DealFiles, DealSink, DealSource, FileSink, SourceOptions};
use crate::{Error, ErrorKind, ReadOnlyStore, Result, StoreReader};

/// What a query job does with the matching deals.
#[derive(Clone, Copy)]
pub enum QueryMode {
    /// Count them (the count goes into the report, nothing is written).
    Count,
    /// Write them to the output in a deal format: the set's board numbers with a set scope,
    /// else numbered 1.. in key order; at most `limit` deals.
    Find {
        /// The output format (any of the registry's).
        format: &'static dyn DealFormat,
        /// At most this many deals.
        limit: Option<u64>,
    },
    /// Write what the query compiles to instead of running it (no database needed). In
    /// [`Dialect::Sqlite`], the statement `query` would run and its parameters; `count`
    /// selects the counting statement. In [`Dialect::Spark`], the predicate alone
    /// ([`Query::to_spark_sql`]) on one line, the same for `count` or not; a `limit` or a set
    /// scope is refused (a predicate has neither).
    Explain {
        /// Explain the `Count` statement rather than the `Find` one.
        count: bool,
        /// The limit of the `Find` statement.
        limit: Option<u64>,
        /// The target: the store's SQLite, or Spark over a Parquet archive.
        dialect: Dialect,
    },
}

/// A query to run: the parsed expression, the scope and the mode.
#[derive(Clone)]
pub struct QueryJob {
    /// The expression as the user wrote it (for the report).
    pub expr: String,
    /// The parsed expression.
    pub query: Query,
    /// Only the deals of this stored set; `None` for every stored deal.
    pub set: Option<String>,
    /// Count, find or explain.
    pub mode: QueryMode,
}

impl QueryJob {
    /// A job over every stored deal.
    ///
    /// # Errors
    /// [`ErrorKind::Query`] when `expr` is not a valid expression (the error gives the
    /// column), or has a played board's term (a search of played boards is
    /// [`crate::workflow::played_query`]'s).
    pub fn new(expr: &str, mode: QueryMode) -> Result<QueryJob> {
        let query = Query::parse(expr).map_err(ErrorKind::Query)?;
        query
            .deal_only("a search of deals")
            .map_err(ErrorKind::Query)?;
        Ok(QueryJob {
            expr: expr.to_owned(),
            query,
            set: None,
            mode,
        })
    }
}

/// `dealdex query`'s options as typed. With the `clap` feature they derive `clap::Args`,
/// their doc comments the help; [`QueryOptions::job`] parses them into a [`QueryJob`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct QueryOptions {
    /// The expression.
    pub expr: String,
    /// Print only the number of matching deals.
    #[cfg_attr(feature = "clap", arg(long))]
    pub count: bool,
    /// At most this many deals.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub limit: Option<u64>,
    /// Only the deals of this set (listed with their board numbers).
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub set: Option<String>,
    /// Show the SQL and its parameters instead of running it.
    #[cfg_attr(feature = "clap", arg(long))]
    pub explain: bool,
    /// The SQL --explain shows: sqlite (the statement run on the database) or spark (a
    /// predicate over a Parquet archive's columns; needs --explain).
    #[cfg_attr(feature = "clap", arg(long, value_name = "DIALECT", default_value = "sqlite",
        value_parser = parse_dialect, requires_if("spark", "explain")))]
    pub dialect: Dialect,
    /// Search the played boards (the table records `import` stored from match files)
    /// instead of deals: list each matching record (board, room, contract, declarer,
    /// tricks, score, par, double-dummy losses); played terms such as contract = 3NT,
    /// result < 0, lost(defence), player = "…" need it.
    #[cfg_attr(feature = "clap", arg(long, conflicts_with_all = ["dialect", "to", "count", "explain"]))]
    pub played: bool,
    /// With --played: a report over the matching boards instead of the list, by players or
    /// pairs (opening-lead and defence double-dummy error rates with standard errors;
    /// score against par per event).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "BY",
            value_enum,
            requires = "played",
            conflicts_with = "limit"
        )
    )]
    pub report: Option<crate::workflow::played_query::ReportBy>,
    /// The found deals' format, a registry name (`None`: hex).
    #[cfg_attr(feature = "clap", arg(long = "to", short = 'f', visible_alias = "format",
        value_name = "FORMAT", help = crate::workflow::output::to_help(Some("hex"))))]
    pub to: Option<String>,
}

/// A dialect by its name, the message listing the names.
#[cfg(feature = "clap")]
fn parse_dialect(s: &str) -> std::result::Result<Dialect, String> {
    Dialect::from_name(s).ok_or_else(|| format!("unknown dialect '{s}' (dialects: sqlite, spark)"))
}

impl QueryOptions {
    /// The played job (`--played`): the report asked for, else the list of records (at
    /// most `--limit`); `None` without `--played`. `--count` and `--explain` are the
    /// caller's (the list's count, [`StoreReader::explain_find_played`]).
    ///
    /// # Errors
    /// [`ErrorKind::Query`] for the expression.
    pub fn played_job(&self) -> Result<Option<crate::workflow::played_query::PlayedQueryJob>> {
        use crate::workflow::played_query::{PlayedQueryJob, PlayedQueryView};
        if !self.played {
            return Ok(None);
        }
        let view = match self.report {
            Some(by) => PlayedQueryView::Report(by),
            None => PlayedQueryView::Boards { limit: self.limit },
        };
        let mut job = PlayedQueryJob::new(&self.expr, view)?;
        job.set = self.set.clone();
        Ok(Some(job))
    }

    /// The job: explain (counting or not), count, or find the deals written in
    /// [`QueryOptions::to`]'s format.
    ///
    /// # Errors
    /// [`ErrorKind::Query`] for the expression ([`QueryJob::new`]); the format's error for an
    /// unknown format name.
    pub fn job(&self) -> Result<QueryJob> {
        let mode = match (self.explain, self.count) {
            (true, count) => QueryMode::Explain {
                count,
                limit: self.limit,
                dialect: self.dialect,
            },
            (false, true) => QueryMode::Count,
            (false, false) => QueryMode::Find {
                format: crate::formats::named(self.to.as_deref().unwrap_or("hex"))?,
                limit: self.limit,
            },
        };
        let mut job = QueryJob::new(&self.expr, mode)?;
        job.set = self.set.clone();
        Ok(job)
    }
}

/// What a query job did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueryReport {
    /// The expression.
    pub expr: String,
    /// The set scope, if any.
    pub set: Option<String>,
    /// `count`, `find` or `explain`.
    pub mode: &'static str,
    /// Matching deals (count), or deals written (find); 0 for explain.
    pub count: u64,
    /// The format the deals were written in (find only).
    pub format: Option<&'static str>,
    /// Bytes written to the output (find and explain).
    pub bytes: u64,
    /// `spark` when the explanation is a Spark predicate; absent otherwise (SQLite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<&'static str>,
    /// The Spark predicate (explain in [`Dialect::Spark`] only; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicate: Option<String>,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// Checks that the set scope, if any, names a stored set: an unknown set is an error, not an
/// empty result.
///
/// # Errors
/// [`ErrorKind::NoSet`], or the store's error.
fn check_set(store: &StoreReader, set: Option<&str>) -> Result<()> {
    match set {
        Some(name) if store.set(name)?.is_none() => Err(ErrorKind::NoSet {
            set: name.to_owned(),
            database: store.path().to_owned(),
        }
        .into()),
        _ => Ok(()),
    }
}

/// The stored deals matching `job`'s expression, as boards: with a set scope
/// (`job.set`) the set's boards in board order with their stored numbers, else every stored
/// deal in key order numbered 1, 2, …; at most `limit`. What [`QueryMode::Find`] writes, for
/// callers that want the boards themselves (Python's `Database.query`).
///
/// # Errors
/// No such set ([`ErrorKind::NoSet`]), the store failing or holding a key that is no deal.
pub fn find_boards(job: &QueryJob, store: &StoreReader, limit: Option<u64>) -> Result<Vec<Board>> {
    let (mut boards, _) = job
        .source(limit)
        .open(Some(store), &SourceOptions::default())?
        .read_all()?;
    crate::formats::number_boards(&mut boards, 1);
    Ok(boards)
}

impl QueryJob {
    /// The deals the job finds, as a source ([`DealSource::Matching`]).
    pub fn source(&self, limit: Option<u64>) -> DealSource {
        DealSource::Matching {
            query: self.query.clone(),
            set: self.set.clone(),
            limit,
        }
    }
}

/// Runs a query job: counts into the report, or writes the matching deals (or the explained
/// SQL) to `out`. `store` may be `None` for [`QueryMode::Explain`] only.
///
/// # Errors
/// [`ErrorKind::QueryNoStore`] for a mode that needs a store without one, a failed read,
/// [`ErrorKind::QueryWrite`] for a format that cannot hold the matches, [`ErrorKind::Io`]
/// for a failed write; for a Spark explanation, [`ErrorKind::Dialect`] for a `par` term,
/// [`ErrorKind::NotInPredicate`] for a set scope or a limit.
pub fn run(
    job: &QueryJob,
    store: Option<&StoreReader>,
    out: &mut dyn Write,
) -> Result<QueryReport> {
    let start = Instant::now();
    let filter = job.query.to_sql();
    let set = job.set.as_deref();
    let mut report = QueryReport {
        expr: job.expr.clone(),
        set: job.set.clone(),
        mode: "explain",
        count: 0,
        format: None,
        bytes: 0,
        dialect: None,
        predicate: None,
        seconds: 0.0,
    };
    match job.mode {
        QueryMode::Explain {
            dialect: Dialect::Spark,
            limit,
            ..
        } => {
            if set.is_some() {
                return Err(ErrorKind::NotInPredicate(
                    "a set scope (the archive's rows belong to no stored set)",
                )
                .into());
            }
            if limit.is_some() {
                return Err(ErrorKind::NotInPredicate("a limit (apply it in Spark)").into());
            }
            let predicate = job.query.to_spark_sql().map_err(ErrorKind::Dialect)?;
            writeln!(out, "{predicate}").map_err(ErrorKind::Io)?;
            report.bytes = predicate.len() as u64 + 1;
            report.dialect = Some(Dialect::Spark.name());
            report.predicate = Some(predicate);
        }
        QueryMode::Explain {
            count,
            limit,
            dialect: Dialect::Sqlite,
        } => {
            let text = match count {
                true => StoreReader::explain_count_deals(&filter, set),
                false => StoreReader::explain_find_deals(&filter, set, limit),
            };
            out.write_all(text.as_bytes()).map_err(ErrorKind::Io)?;
            report.bytes = text.len() as u64;
        }
        QueryMode::Count => {
            let store = store.ok_or(ErrorKind::QueryNoStore)?;
            check_set(store, set)?;
            report.mode = "count";
            report.count = store.count_deals(&filter, set)?;
        }
        QueryMode::Find { format, limit } => {
            let store = store.ok_or(ErrorKind::QueryNoStore)?;
            report.mode = "find";
            report.format = Some(format.info().name);
            (report.count, report.bytes) = write_matches(job, store, format, limit, out)?;
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// The matches of `job`, a piece at a time, into `out` in `format` (nothing written when
/// none matches): the deals and the bytes written. A format's refusal names the format
/// ([`ErrorKind::QueryWrite`]), a failed write is [`ErrorKind::Io`].
fn write_matches(
    job: &QueryJob,
    store: &StoreReader,
    format: &'static dyn DealFormat,
    limit: Option<u64>,
    out: &mut dyn Write,
) -> Result<(u64, u64)> {
    let source = job
        .source(limit)
        .open(Some(store), &SourceOptions::default())?;
    let output = Output { path: None, format };
    // The output, moved into the sink when the first piece comes.
    let mut unopened: Option<&mut dyn Write> = Some(out);
    let mut sink: Option<FileSink<'_>> = None;
    let sink_error = |e: Error| -> Error {
        match e.into_kind() {
            ErrorKind::Render { error, .. } => ErrorKind::QueryWrite {
                format: format.info().name,
                error,
            },
            ErrorKind::Write { error, .. } => ErrorKind::Io(error),
            kind => kind,
        }
        .into()
    };
    let read = source.read(&mut |boards| -> Result<bool> {
        let open = match &mut sink {
            Some(open) => open,
            None => {
                let new = DealFiles::new(vec![output.clone()], WriteOptions::default());
                let out = unopened.take().expect("opened once");
                sink.insert(new.open(out).map_err(sink_error)?)
            }
        };
        open.write(boards).map_err(sink_error)?;
        Ok(true)
    })?;
    let bytes = match sink {
        Some(open) => open.finish().map_err(sink_error)?.files[0].bytes,
        None => 0,
    };
    Ok((read.boards, bytes))
}

/// Runs `job` ([`run`]) on the database file `db`, opened read-only unless the job only
/// explains (which needs none), writing to the file `out`, else (`None` or `-`) to
/// `stdout`; with `count_line` a count ([`QueryMode::Count`]) is written there too, as one
/// line. The file is staged ([`ReportOutput`]): it appears whole once everything is written,
/// or not at all (an old file kept). An `out` that is the database is refused before
/// anything is opened (but for an explanation, which reads no database).
///
/// ```
/// use dealdex::workflow::query::{QueryJob, QueryMode, run_on};
/// let dir = tempfile::tempdir()?;
/// let db = dir.path().join("d.db");
/// dealdex::Store::open(&db)?;
/// let job = QueryJob::new("hcp(N) >= 0", QueryMode::Count)?;
/// let mut stdout = Vec::new();
/// assert_eq!(run_on(&job, &db, None, true, &mut stdout)?.count, 0);
/// assert_eq!(stdout, b"0\n");
/// assert!(run_on(&job, &db, Some(&db), true, &mut stdout).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::SameFile`] for an `out` that is `db`; [`ErrorKind::Store`] when the database
/// does not open; [`ErrorKind::Write`] when the file cannot be created or put in place; then
/// as [`run`].
pub fn run_on(
    job: &QueryJob,
    db: &Path,
    out: Option<&Path>,
    count_line: bool,
    stdout: &mut dyn Write,
) -> Result<QueryReport> {
    let explain = matches!(job.mode, QueryMode::Explain { .. });
    if let Some(p) = out
        && !explain
    {
        check_distinct(&[(FileRole::Output, p), (FileRole::Database, db)])?;
    }
    let store = match explain {
        true => None,
        false => Some(ReadOnlyStore::open(db)?),
    };
    let mut writer = ReportOutput::create(out, stdout)?;
    let report = run(job, store.as_deref(), &mut writer)?;
    if count_line && matches!(job.mode, QueryMode::Count) {
        writeln!(writer, "{}", report.count).map_err(ErrorKind::Io)?;
    }
    writer.finish()?;
    Ok(report)
}

/// One line: the query, its mode and count.
impl std::fmt::Display for QueryReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {} deals", self.expr, self.mode, self.count)
    }
}
