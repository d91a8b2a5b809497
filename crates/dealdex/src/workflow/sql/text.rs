//! A statement's result as `dealdex sql` prints it: tab-separated text, or one JSON object.

use std::cell::RefCell;
use std::io::Write;

use super::{SqlJob, SqlReport, SqlValue, run_job};
use crate::{ErrorKind, ReadOnlyStore, Result};

/// Runs `job` on `store` ([`run_job`]) and writes its result to `out`: as text, the column
/// names (when the statement has a result) then a line a row, the values tab-separated in
/// their text form ([`SqlValue`]'s `Display`), each row as it comes; with `json`, once the
/// last row is read, one line `{"columns": [names], "rows": [[values], …]}` (values as
/// [`SqlValue`] serializes them). `out` is not flushed.
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// # let path = dir.path().join("d.db");
/// # dealdex::Store::open(&path)?;
/// use dealdex::workflow::sql::{SqlJob, write_result};
/// let store = dealdex::ReadOnlyStore::open(&path)?;
/// let job = SqlJob::new("SELECT 1 AS a, 'x' AS b, NULL AS c");
/// let (mut text, mut json) = (Vec::new(), Vec::new());
/// write_result(&job, &store, false, &mut text)?;
/// write_result(&job, &store, true, &mut json)?;
/// assert_eq!(String::from_utf8(text)?, "a\tb\tc\n1\tx\tNULL\n");
/// assert_eq!(String::from_utf8(json)?, "{\"columns\":[\"a\",\"b\",\"c\"],\"rows\":[[1,\"x\",null]]}\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`run_job`]; [`ErrorKind::SqlOutput`] when `out` cannot be written.
pub fn write_result(
    job: &SqlJob,
    store: &ReadOnlyStore,
    json: bool,
    out: &mut dyn Write,
) -> Result<SqlReport> {
    // Both callbacks write to `out`.
    let out = RefCell::new(out);
    let mut rows: Vec<Vec<SqlValue>> = Vec::new();
    let mut line = String::new();
    let report = run_job(
        job,
        store,
        &mut |names| match json || names.is_empty() {
            true => Ok(()),
            false => writeln!(out.borrow_mut(), "{}", names.join("\t")),
        },
        &mut |values| {
            if json {
                rows.push(values.to_vec());
                return Ok(());
            }
            line.clear();
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    line.push('\t');
                }
                line.push_str(&v.to_string());
            }
            writeln!(out.borrow_mut(), "{line}")
        },
    )?;
    if json {
        let result = serde_json::json!({"columns": report.columns, "rows": rows});
        writeln!(out.into_inner(), "{result}").map_err(ErrorKind::SqlOutput)?;
    }
    Ok(report)
}
