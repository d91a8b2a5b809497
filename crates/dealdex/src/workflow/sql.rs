//! The SQL workflow (`dealdex sql`): one statement over a database opened truly read-only
//! ([`ReadOnlyStore`]), with dealdex's SQL functions, its rows handed to a callback.
//!
//! A statement is bounded ([`SqlJob`]): in time (SQLite's progress handler stops it past the
//! deadline, [`DEFAULT_TIMEOUT`]), in memory (what SQLite allocates on the thread running it,
//! and the copy of each row, [`DEFAULT_MEMORY_LIMIT`]: per statement, so threads running
//! statements side by side do not share one bound) and by a flag another thread (a Ctrl-C
//! handler) may set. Rows count while they are handed over and printed. A recursive CTE
//! without an end, a `group_concat` over one, or a 900 MB `zeroblob`, fails with
//! [`ErrorKind::SqlTimeout`] or [`ErrorKind::SqlMemoryLimit`] instead of running for ever.
//!
//! ```
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("d.db");
//! # dealdex::Store::open(&path)?;
//! use dealdex::workflow::sql::{SqlJob, SqlValue, run_job};
//! let store = dealdex::ReadOnlyStore::open(&path)?;
//! let mut rows = Vec::new();
//! let job = SqlJob::new("SELECT count(*) AS n FROM deals");
//! let report = run_job(&job, &store, &mut |_| Ok(()), &mut |r| {
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

use crate::{Error, ErrorKind, ReadOnlyStore, Result, StoreError, StoreErrorKind};
use rusqlite::types::ValueRef;

mod text;
pub use text::write_result;

/// How long a statement may run by default (`dealdex sql --timeout 60`): 60 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// How much memory a statement's connection may hold by default (`dealdex sql
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
    /// [`ErrorKind::SqlTimeout`].
    pub timeout: Option<Duration>,
    /// How many bytes the statement may hold; `None`: no limit. Per statement, not
    /// process-wide (statements on other threads neither count nor are stopped): what SQLite
    /// allocates on the calling thread while it runs (page cache, temporary b-trees — sorts
    /// and temporary tables past the 32 MiB cache spill to files, see
    /// [`ReadOnlyStore::open`] — and values being built, checked every few thousand SQLite
    /// instructions) plus the copy of the row being handed over. Past it the statement stops
    /// with [`ErrorKind::SqlMemoryLimit`]. Where SQLite was initialised before dealdex opened a
    /// connection, SQLite's whole heap counts instead.
    pub memory_limit: Option<u64>,
    /// A flag another thread sets to stop the statement (e.g. a Ctrl-C handler): it is
    /// checked every few thousand SQLite instructions and before each row, and stops the
    /// statement with [`ErrorKind::SqlInterrupted`]. `None`: no flag.
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

/// `dealdex sql`'s options as typed: the statement and its bounds in whole seconds and
/// mebibytes. With the `clap` feature they derive `clap::Args`, their doc comments the help;
/// [`SqlOptions::job`] makes the [`SqlJob`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SqlOptions {
    /// The SQL statement (one statement; results as tab-separated lines with a header).
    pub sql: String,
    /// Stop the statement after SECS seconds, with exit 2 (0: no limit).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SECS", default_value_t = 60))]
    pub timeout: u64,
    /// Stop the statement when it would hold more than MIB mebibytes (SQLite's heap for it,
    /// and the row being printed), with exit 2 (0: no limit).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "MIB", default_value_t = 1024)
    )]
    pub memory_limit: u64,
}

impl SqlOptions {
    /// The job: the bounds in [`Duration`] and bytes (0: none), stopped by `interrupt`.
    pub fn job(&self, interrupt: Option<Arc<AtomicBool>>) -> SqlJob {
        SqlJob {
            sql: self.sql.clone(),
            timeout: (self.timeout > 0).then(|| Duration::from_secs(self.timeout)),
            memory_limit: (self.memory_limit > 0)
                .then(|| self.memory_limit.saturating_mul(1 << 20)),
            interrupt,
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
/// use dealdex::workflow::sql::{SqlJob, run_job};
/// let store = dealdex::ReadOnlyStore::open(&path)?;
/// let mut job = SqlJob::new("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c");
/// job.timeout = Some(std::time::Duration::from_millis(200));
/// let err = run_job(&job, &store, &mut |_| Ok(()), &mut |_| Ok(())).unwrap_err();
/// assert!(matches!(err.kind(), dealdex::ErrorKind::SqlTimeout { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::SqlStatement`] when the statement does not compile, is refused by the
/// read-only connection, or fails while running; [`ErrorKind::SqlTimeout`],
/// [`ErrorKind::SqlMemoryLimit`] or [`ErrorKind::SqlInterrupted`] when it was stopped by a
/// bound; [`ErrorKind::SqlOutput`] with the error of `row`.
pub fn run_job(
    job: &SqlJob,
    store: &ReadOnlyStore,
    columns: &mut dyn FnMut(&[String]) -> std::io::Result<()>,
    row: &mut dyn FnMut(&[SqlValue]) -> std::io::Result<()>,
) -> Result<SqlReport> {
    let conn = store.connection();
    let stopped = Arc::new(AtomicU8::new(RUNNING));
    let deadline = job.timeout.map(|t| Instant::now() + t);
    let flag = job.interrupt.clone();
    let memory = job
        .memory_limit
        .map(|m| i64::try_from(m).unwrap_or(i64::MAX));
    let held = Held::since_now();
    // Every allocation is bounded too: the progress handler looks only every
    // CHECK_EVERY instructions, and one of them may double a string (1.44 GB held under a
    // 1 GiB limit before issue 50).
    let _bound = memory.map(crate::store::heap::limit_thread);
    let why = Arc::clone(&stopped);
    conn.progress_handler(
        CHECK_EVERY,
        Some(move || {
            let reason = if flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                INTERRUPTED
            } else if deadline.is_some_and(|d| Instant::now() >= d) {
                TIMED_OUT
            } else if memory.is_some_and(|m| held.bytes() > m)
                || crate::store::heap::limit_refused()
            {
                OVER_MEMORY
            } else {
                return false;
            };
            why.store(reason, Ordering::Relaxed);
            true
        }),
    )
    .map_err(|error| {
        ErrorKind::SqlStatement(
            StoreErrorKind::Sqlite {
                path: store.path().to_owned(),
                error,
            }
            .into(),
        )
    })?;
    let result = run_bounded(job, store, &held, columns, row);
    // Handlers hold no state past the call; a failure to remove one leaves a closure
    // that only reads a finished deadline and flag.
    let _ = conn.progress_handler(0, None::<fn() -> bool>);
    result.map_err(|e| match (stopped.load(Ordering::Relaxed), e.kind()) {
        (INTERRUPTED, _) => ErrorKind::SqlInterrupted.into(),
        (TIMED_OUT, _) => ErrorKind::SqlTimeout {
            limit: job.timeout.unwrap_or_default(),
        }
        .into(),
        (OVER_MEMORY, _) => ErrorKind::SqlMemoryLimit {
            limit: job.memory_limit.unwrap_or_default(),
        }
        .into(),
        (_, ErrorKind::SqlStatement(s))
            if matches!(
                s.kind(),
                StoreErrorKind::Sqlite { error, .. } if matches!(
                    error.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::OutOfMemory | rusqlite::ErrorCode::TooBig)
                )
            ) =>
        {
            match job.memory_limit {
                Some(limit) => ErrorKind::SqlMemoryLimit { limit }.into(),
                None => e,
            }
        }
        _ => e,
    })
}

/// The statement's run, the bounds set: the progress handler watches SQLite's steps, this
/// the rows, which count against the bounds while they are handed over and printed (a row is
/// a copy of its values, held beside SQLite's, and its callback's time is the statement's).
fn run_bounded(
    job: &SqlJob,
    store: &ReadOnlyStore,
    held: &Held,
    columns: &mut dyn FnMut(&[String]) -> std::io::Result<()>,
    row: &mut dyn FnMut(&[SqlValue]) -> std::io::Result<()>,
) -> Result<SqlReport> {
    let interrupted = || {
        job.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    };
    let started = Instant::now();
    let mut query = store.prepare(&job.sql).map_err(ErrorKind::SqlStatement)?;
    let mut report = SqlReport {
        columns: query.column_names(),
        rows: 0,
    };
    columns(&report.columns).map_err(ErrorKind::SqlOutput)?;
    let mut values = Vec::new();
    let stop = |kind: ErrorKind| Err(RowError(kind.into()));
    query
        .for_each_row(|refs| -> Result<(), RowError> {
            if interrupted() {
                return stop(ErrorKind::SqlInterrupted);
            }
            if let Some(limit) = job.memory_limit {
                let copy: u64 = refs.iter().map(|v| value_bytes(*v)).sum();
                let sqlite = u64::try_from(held.bytes()).unwrap_or(0);
                if sqlite.saturating_add(copy) > limit {
                    return stop(ErrorKind::SqlMemoryLimit { limit });
                }
            }
            values.clear();
            values.extend(refs.iter().map(|&v| SqlValue::from_ref(v)));
            if let Err(e) = row(&values) {
                return stop(ErrorKind::SqlOutput(e));
            }
            report.rows += 1;
            if let Some(limit) = job.timeout
                && started.elapsed() > limit
            {
                return stop(ErrorKind::SqlTimeout { limit });
            }
            Ok(())
        })
        .map_err(|e| e.0)?;
    Ok(report)
}

/// The bytes a copy of `v` holds (its text or blob; 8 for a number).
fn value_bytes(v: ValueRef<'_>) -> u64 {
    match v {
        ValueRef::Text(b) | ValueRef::Blob(b) => b.len() as u64,
        _ => 8,
    }
}

/// The heap a statement holds: what SQLite allocated on the thread stepping it since it
/// began ([`crate::store::heap`], per thread), or SQLite's whole heap where those counters
/// are unavailable (SQLite initialised before dealdex opened a connection).
#[derive(Clone, Copy)]
struct Held {
    start: Option<i64>,
}

impl Held {
    /// From now, on the calling thread.
    fn since_now() -> Held {
        Held {
            start: crate::store::heap::thread_bytes(),
        }
    }

    /// The bytes held now.
    fn bytes(&self) -> i64 {
        match (self.start, crate::store::heap::thread_bytes()) {
            (Some(start), Some(now)) => now - start,
            // SAFETY: a plain read of SQLite's counter.
            _ => unsafe { rusqlite::ffi::sqlite3_memory_used() },
        }
    }
}

/// Why the rows stopped: the row's own refusal, or SQLite failing while running the
/// statement ([`ErrorKind::SqlStatement`]: the statement is the input).
struct RowError(Error);

impl From<StoreError> for RowError {
    fn from(e: StoreError) -> RowError {
        RowError(ErrorKind::SqlStatement(e).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 50: SQLite never holds more than the limit on the statement's thread, not even
    /// between two looks of the progress handler (a `group_concat` doubles its string in one
    /// instruction): the statement stops, and the peak stays under the limit.
    #[test]
    fn the_memory_limit_holds_at_every_allocation() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.db");
        crate::Store::open(&path).unwrap();
        let store = ReadOnlyStore::open(&path).unwrap();
        let mut job = SqlJob::new(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000) \
             SELECT length(group_concat(hex(randomblob(1000)))) FROM c",
        );
        let limit = 48 << 20;
        job.memory_limit = Some(limit);
        crate::store::heap::reset_peak();
        let start = crate::store::heap::thread_bytes().unwrap();
        let e = run_job(&job, &store, &mut |_| Ok(()), &mut |_| Ok(())).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::SqlMemoryLimit { .. }), "{e}");
        let peak = crate::store::heap::peak() - start;
        assert!(peak <= limit as i64, "peak {peak} over the limit {limit}");
        assert!(
            peak > (limit / 2) as i64,
            "peak {peak}: the statement grew to near the limit"
        );
    }

    /// Issue 38, item 5: the memory bound is the statement's connection's. A statement with
    /// a 16 MiB limit running on one thread neither stops nor is stopped by a statement on
    /// another thread, without a limit, that builds a 100 MB string meanwhile. With the
    /// process-wide hard heap limit (twice the 16 MiB while the first ran) the second failed
    /// for want of memory, and the first could stop for the second's memory.
    #[test]
    fn the_memory_limit_bounds_its_own_connection_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.db");
        crate::Store::open(&path).unwrap();
        let limited = std::thread::spawn({
            let path = path.clone();
            move || {
                let store = ReadOnlyStore::open(&path).unwrap();
                let mut job = SqlJob::new(
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) \
                     SELECT count(*) FROM c",
                );
                job.timeout = Some(Duration::from_secs(3));
                job.memory_limit = Some(16 << 20);
                run_job(&job, &store, &mut |_| Ok(()), &mut |_| Ok(()))
            }
        });
        // The first statement is running (and held the old process-wide limit) by now.
        std::thread::sleep(Duration::from_millis(500));
        let store = ReadOnlyStore::open(&path).unwrap();
        let mut job = SqlJob::new(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 50000) \
             SELECT length(group_concat(hex(randomblob(1000)))) FROM c",
        );
        job.memory_limit = None;
        let mut got = Vec::new();
        run_job(&job, &store, &mut |_| Ok(()), &mut |r| {
            got.push(r.to_vec());
            Ok(())
        })
        .expect("no limit on this connection");
        assert_eq!(got, [[SqlValue::Integer(100_049_999)]]);
        let first = limited.join().unwrap().unwrap_err();
        assert!(
            matches!(first.kind(), ErrorKind::SqlTimeout { .. }),
            "{first}"
        );
    }
}
