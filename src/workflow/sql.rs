//! The SQL workflow (`dealdex sql`): one statement over a database opened truly read-only
//! ([`ReadOnlyStore`]), with dealdex's SQL functions, its rows handed to a callback.
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

use serde::{Serialize, Serializer};

use crate::{ErrorClass, ReadOnlyStore, StoreError};
use rusqlite::types::ValueRef;

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
}

impl SqlError {
    /// This error's [`ErrorClass`]: bad input for the statement (it is the input), I/O for
    /// the output.
    pub fn class(&self) -> ErrorClass {
        match self {
            SqlError::Statement(_) => ErrorClass::BadInput,
            SqlError::Output(_) => ErrorClass::Io,
        }
    }
}

/// Runs one statement: gives `columns` the result's column names once (before any row, also
/// when there is none), then `row` each row's values in column order; the first error of
/// `row` stops the statement.
///
/// # Errors
/// [`SqlError::Statement`] when the statement does not compile, is refused by the read-only
/// connection, or fails while running; [`SqlError::Output`] with the error of `row`.
pub fn run(
    sql: &str,
    store: &ReadOnlyStore,
    columns: &mut dyn FnMut(&[String]) -> std::io::Result<()>,
    row: &mut dyn FnMut(&[SqlValue]) -> std::io::Result<()>,
) -> Result<SqlReport, SqlError> {
    let mut query = store.prepare(sql).map_err(SqlError::Statement)?;
    let mut report = SqlReport {
        columns: query.column_names(),
        rows: 0,
    };
    columns(&report.columns).map_err(SqlError::Output)?;
    let mut values = Vec::new();
    query.for_each_row(|refs| -> Result<(), SqlError> {
        values.clear();
        values.extend(refs.iter().map(|&v| SqlValue::from_ref(v)));
        row(&values).map_err(SqlError::Output)?;
        report.rows += 1;
        Ok(())
    })?;
    Ok(report)
}

impl From<StoreError> for SqlError {
    fn from(e: StoreError) -> SqlError {
        SqlError::Statement(e)
    }
}
