//! The SQL workflow (`dealdex sql`): one statement over a database opened truly read-only
//! ([`ReadOnlyStore`]), with dealdex's SQL functions, its rows handed to a callback.
//!
//! A statement is bounded ([`SqlJob`]): in time (SQLite's progress handler stops it past the
//! deadline, [`DEFAULT_TIMEOUT`]), in memory (SQLite's hard heap limit,
//! [`DEFAULT_MEMORY_LIMIT`]) and by a flag another thread (a Ctrl-C handler) may set. A
//! recursive CTE without an end, or a `group_concat` over one, fails with
//! [`SqlError::Timeout`] or [`SqlError::MemoryLimit`] instead of running for ever.
//!
//! ```
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("d.db");
//! # dealdex::Store::open(&path)?;
//! use dealdex::workflow::sql::{SqlValue, run};
//! let store = dealdex::ReadOnlyStore::open(&path)?;
//! let mut rows = Vec::new();
//! let report = run("SELECT count(*) AS n FROM deals", &store, &mut |_| Ok(()), &mut |r| {
//!     rows.push(r.to_vec());
//!     Ok(())
//! })?;
//! assert_eq!(report.columns, ["n"]);
//! assert_eq!(rows, [[SqlValue::Integer(0)]]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use serde::{Serialize, Serializer};

use crate::{ErrorClass, ReadOnlyStore, StoreError};
use rusqlite::types::ValueRef;

/// How long a statement may run by default (`dealdex sql --timeout 60`): 60 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// How much memory SQLite may hold while a statement runs by default (`dealdex sql
/// --memory-limit 1024`): 1 GiB, in bytes.
pub const DEFAULT_MEMORY_LIMIT: u64 = 1 << 30;

/// SQLite virtual-machine instructions between two checks of the deadline, the memory held
/// and the interrupt flag (a check costs some 50 ns; 1,000 instructions take a few µs).
const CHECK_EVERY: std::ffi::c_int = 1_000;

/// One statement to run and its bounds.
///
/// ```
/// use dealdex::workflow::sql::{DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT, SqlJob};
/// let job = SqlJob::new("SELECT 1");
/// assert_eq!(job.timeout, Some(DEFAULT_TIMEOUT));
/// assert_eq!(job.memory_limit, Some(DEFAULT_MEMORY_LIMIT));
/// ```
#[derive(Clone, Debug)]
pub struct SqlJob {
    /// The SQL statement (one).
    pub sql: String,
    /// How long the statement may run, from its preparation to its last row (the row
    /// callback's time included); `None`: no limit. Past it the statement stops with
    /// [`SqlError::Timeout`].
    pub timeout: Option<Duration>,
    /// How many bytes SQLite may hold in all while the statement runs, its page cache (up
    /// to 32 MiB) included; `None`: no limit. The statement stops with
    /// [`SqlError::MemoryLimit`] once SQLite holds more (checked with the deadline), and no
    /// allocation may take SQLite past twice the limit: its hard heap limit, set there so
    /// that a string doubling its buffer fails loudly rather than silently, is process-wide
    /// (it also bounds other SQLite connections of the process meanwhile) and is restored
    /// when the call returns.
    pub memory_limit: Option<u64>,
    /// A flag another thread sets to stop the statement (e.g. a Ctrl-C handler): it is
    /// checked every few thousand SQLite instructions and before each row, and stops the
    /// statement with [`SqlError::Interrupted`]. `None`: no flag.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl SqlJob {
    /// `sql` with the default bounds: [`DEFAULT_TIMEOUT`], [`DEFAULT_MEMORY_LIMIT`], no
    /// interrupt flag.
    pub fn new(sql: impl Into<String>) -> SqlJob {
        SqlJob {
            sql: sql.into(),
            timeout: Some(DEFAULT_TIMEOUT),
            memory_limit: Some(DEFAULT_MEMORY_LIMIT),
            interrupt: None,
        }
    }
}

/// One value of a result row.
#[derive(Clone, Debug, PartialEq)]
pub enum SqlValue {
    /// SQL NULL (JSON `null`, text `NULL`).
    Null,
    /// A 64-bit integer (JSON number).
    Integer(i64),
    /// A double (JSON number).
    Real(f64),
    /// Text (JSON string; invalid UTF-8 replaced).
    Text(String),
    /// A BLOB (JSON and text: upper-case hex, e.g. a deal key's 26 digits).
    Blob(Vec<u8>),
}

impl SqlValue {
    fn from_ref(v: ValueRef<'_>) -> SqlValue {
        match v {
            ValueRef::Null => SqlValue::Null,
            ValueRef::Integer(i) => SqlValue::Integer(i),
            ValueRef::Real(r) => SqlValue::Real(r),
            ValueRef::Text(t) => SqlValue::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => SqlValue::Blob(b.to_vec()),
        }
    }
}

/// The text form `dealdex sql` prints: `NULL`, the number, the text, or the BLOB as
/// upper-case hex.
impl std::fmt::Display for SqlValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SqlValue::Null => f.write_str("NULL"),
            SqlValue::Integer(i) => write!(f, "{i}"),
            SqlValue::Real(r) => write!(f, "{r}"),
            SqlValue::Text(t) => f.write_str(t),
            SqlValue::Blob(b) => b.iter().try_for_each(|byte| write!(f, "{byte:02X}")),
        }
    }
}

impl Serialize for SqlValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SqlValue::Null => s.serialize_none(),
            SqlValue::Integer(i) => s.serialize_i64(*i),
            SqlValue::Real(r) => s.serialize_f64(*r),
            SqlValue::Text(t) => s.serialize_str(t),
            SqlValue::Blob(_) => s.collect_str(self),
        }
    }
}

/// What a statement returned.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SqlReport {
    /// The result's column names (none for a statement without a result).
    pub columns: Vec<String>,
    /// Rows returned.
    pub rows: u64,
}

/// Why a statement failed.
#[derive(Debug, thiserror::Error)]
pub enum SqlError {
    /// The statement does not compile, is refused (it would write, attach, or change a
    /// setting), or fails while running: bad input, with SQLite's reason.
    #[error("sql: {0}")]
    Statement(StoreError),
    /// The row callback failed to write a row (e.g. a closed pipe).
    #[error("writing the result: {0}")]
    Output(#[source] std::io::Error),
    /// The statement ran past [`SqlJob::timeout`] and was stopped (nothing is wrong with
    /// the database; rows already handed to the callback stay handed).
    #[error(
        "sql: the statement ran longer than the time limit of {} s and was stopped (dealdex sql --timeout SECS sets the limit, 0 for none)",
        .limit.as_secs_f64()
    )]
    Timeout {
        /// The limit that was reached.
        limit: Duration,
    },
    /// SQLite held more than [`SqlJob::memory_limit`], or could not allocate within twice
    /// it.
    #[error(
        "sql: the statement needed more than the memory limit of {} MiB and was stopped (dealdex sql --memory-limit MIB sets the limit, 0 for none)",
        .limit / (1 << 20)
    )]
    MemoryLimit {
        /// The limit that was reached, in bytes.
        limit: u64,
    },
    /// [`SqlJob::interrupt`] was set (Ctrl-C) and the statement stopped.
    #[error("sql: interrupted")]
    Interrupted,
}

impl crate::Classify for SqlError {
    /// Bad input for the statement (it is the input, and a statement past its time or
    /// memory limit was refused), I/O for the output, [`ErrorClass::Interrupted`] when
    /// stopped by the interrupt flag.
    fn class(&self) -> ErrorClass {
        match self {
            SqlError::Statement(_) | SqlError::Timeout { .. } | SqlError::MemoryLimit { .. } => {
                ErrorClass::BadInput
            }
            SqlError::Output(_) => ErrorClass::Io,
            SqlError::Interrupted => ErrorClass::Interrupted,
        }
    }
}

/// Runs one statement with the default bounds of [`SqlJob::new`]; see [`run_job`].
///
/// # Errors
/// As [`run_job`].
pub fn run(
    sql: &str,
    store: &ReadOnlyStore,
    columns: &mut dyn FnMut(&[String]) -> std::io::Result<()>,
    row: &mut dyn FnMut(&[SqlValue]) -> std::io::Result<()>,
) -> Result<SqlReport, SqlError> {
    run_job(&SqlJob::new(sql), store, columns, row)
}

/// Why the progress handler stopped the statement.
const RUNNING: u8 = 0;
const TIMED_OUT: u8 = 1;
const INTERRUPTED: u8 = 2;
const OVER_MEMORY: u8 = 3;

/// Runs `job`'s statement within its bounds: gives `columns` the result's column names once
/// (before any row, also when there is none), then `row` each row's values in column order;
/// the first error of `row` stops the statement.
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// # let path = dir.path().join("d.db");
/// # dealdex::Store::open(&path)?;
/// use dealdex::workflow::sql::{SqlError, SqlJob, run_job};
/// let store = dealdex::ReadOnlyStore::open(&path)?;
/// let mut job = SqlJob::new("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c");
/// job.timeout = Some(std::time::Duration::from_millis(200));
/// let err = run_job(&job, &store, &mut |_| Ok(()), &mut |_| Ok(())).unwrap_err();
/// assert!(matches!(err, SqlError::Timeout { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SqlError::Statement`] when the statement does not compile, is refused by the read-only
/// connection, or fails while running; [`SqlError::Timeout`], [`SqlError::MemoryLimit`] or
/// [`SqlError::Interrupted`] when it was stopped by a bound; [`SqlError::Output`] with the
/// error of `row`.
pub fn run_job(
    job: &SqlJob,
    store: &ReadOnlyStore,
    columns: &mut dyn FnMut(&[String]) -> std::io::Result<()>,
    row: &mut dyn FnMut(&[SqlValue]) -> std::io::Result<()>,
) -> Result<SqlReport, SqlError> {
    let conn = store.connection();
    let stopped = Arc::new(AtomicU8::new(RUNNING));
    let deadline = job.timeout.map(|t| Instant::now() + t);
    let flag = job.interrupt.clone();
    let memory = job
        .memory_limit
        .map(|m| i64::try_from(m).unwrap_or(i64::MAX));
    let why = Arc::clone(&stopped);
    conn.progress_handler(
        CHECK_EVERY,
        Some(move || {
            let reason = if flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                INTERRUPTED
            } else if deadline.is_some_and(|d| Instant::now() >= d) {
                TIMED_OUT
            } else if memory.is_some_and(|m| sqlite_memory_used() > m) {
                OVER_MEMORY
            } else {
                return false;
            };
            why.store(reason, Ordering::Relaxed);
            true
        }),
    )
    .map_err(|error| {
        SqlError::Statement(StoreError::Sqlite {
            path: store.path().to_owned(),
            error,
        })
    })?;
    let heap = job
        .memory_limit
        .map(|m| HeapLimit::set(m.saturating_mul(2)));
    let result = run_bounded(job, store, columns, row);
    drop(heap);
    // Handlers hold no state past the call; a failure to remove one leaves a closure
    // that only reads a finished deadline and flag.
    let _ = conn.progress_handler(0, None::<fn() -> bool>);
    result.map_err(|e| match (stopped.load(Ordering::Relaxed), &e) {
        (INTERRUPTED, _) => SqlError::Interrupted,
        (TIMED_OUT, _) => SqlError::Timeout {
            limit: job.timeout.unwrap_or_default(),
        },
        (OVER_MEMORY, _) => SqlError::MemoryLimit {
            limit: job.memory_limit.unwrap_or_default(),
        },
        (_, SqlError::Statement(StoreError::Sqlite { error, .. }))
            if error.sqlite_error_code() == Some(rusqlite::ErrorCode::OutOfMemory) =>
        {
            match job.memory_limit {
                Some(limit) => SqlError::MemoryLimit { limit },
                None => e,
            }
        }
        _ => e,
    })
}

/// The statement's run, the bounds set.
fn run_bounded(
    job: &SqlJob,
    store: &ReadOnlyStore,
    columns: &mut dyn FnMut(&[String]) -> std::io::Result<()>,
    row: &mut dyn FnMut(&[SqlValue]) -> std::io::Result<()>,
) -> Result<SqlReport, SqlError> {
    let interrupted = || {
        job.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    };
    let mut query = store.prepare(&job.sql).map_err(SqlError::Statement)?;
    let mut report = SqlReport {
        columns: query.column_names(),
        rows: 0,
    };
    columns(&report.columns).map_err(SqlError::Output)?;
    let mut values = Vec::new();
    query.for_each_row(|refs| -> Result<(), SqlError> {
        if interrupted() {
            return Err(SqlError::Interrupted);
        }
        values.clear();
        values.extend(refs.iter().map(|&v| SqlValue::from_ref(v)));
        row(&values).map_err(SqlError::Output)?;
        report.rows += 1;
        Ok(())
    })?;
    Ok(report)
}

/// The bytes SQLite holds now, process-wide.
fn sqlite_memory_used() -> i64 {
    // SAFETY: sqlite3_memory_used takes no argument and only reads SQLite's counters.
    unsafe { rusqlite::ffi::sqlite3_memory_used() }
}

/// SQLite's process-wide hard heap limit, set for a scope and restored when dropped.
struct HeapLimit {
    /// The limit before (0: none).
    before: i64,
}

impl HeapLimit {
    /// Sets the hard heap limit to `bytes` (at least 1: 0 would lift the limit).
    fn set(bytes: u64) -> HeapLimit {
        let bytes = i64::try_from(bytes).unwrap_or(i64::MAX).max(1);
        // SAFETY: sqlite3_hard_heap_limit64 only reads and writes SQLite's global memory
        // settings under its own mutex; any non-negative value is valid.
        let before = unsafe { rusqlite::ffi::sqlite3_hard_heap_limit64(bytes) };
        HeapLimit { before }
    }
}

impl Drop for HeapLimit {
    fn drop(&mut self) {
        // SAFETY: as in `set`; `before` is a value SQLite returned (non-negative).
        unsafe { rusqlite::ffi::sqlite3_hard_heap_limit64(self.before.max(0)) };
    }
}

impl From<StoreError> for SqlError {
    fn from(e: StoreError) -> SqlError {
        SqlError::Statement(e)
    }
}
