//! A database opened for reading only: [`ReadOnlyStore`], a type with no writing method, for
//! the commands that only read (`query`, `export`, `stats`, `lookup`, `records`) and for SQL
//! written by the user (`dealdex sql`).
//!
//! `PRAGMA query_only` alone is not read-only: it lets `PRAGMA journal_mode=DELETE` take the
//! file out of WAL, and `ATTACH`/`VACUUM INTO` create files anywhere. [`ReadOnlyStore`]
//! closes every case with three independent locks:
//!
//! 1. the file is opened `SQLITE_OPEN_READONLY` (no page of it can be written) and
//!    `PRAGMA query_only` is on;
//! 2. at most 0 attached databases (`SQLITE_LIMIT_ATTACHED`), which also stops
//!    `VACUUM` and `VACUUM INTO` (both attach their target internally);
//! 3. an authorizer (`sqlite3_set_authorizer`) that allows only reading: `SELECT`, reading
//!    columns, functions, recursive CTEs, transactions, and the pragmas of
//!    [`REPORTING_PRAGMAS`] and [`SETTING_PRAGMAS`] (the latter without a value, i.e. as
//!    queries); it refuses everything else and records what it refused, so the error names
//!    it.

use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::limits::Limit;
use rusqlite::types::ValueRef;

use super::{At, StoreError, StoreErrorKind, StoreReader};

/// Pragmas that only report, whatever their argument (a table or index name, a row limit).
pub const REPORTING_PRAGMAS: &[&str] = &[
    "collation_list",
    "compile_options",
    "database_list",
    "foreign_key_check",
    "foreign_key_list",
    "function_list",
    "index_info",
    "index_list",
    "index_xinfo",
    "integrity_check",
    "module_list",
    "pragma_list",
    "quick_check",
    "table_info",
    "table_list",
    "table_xinfo",
];

/// Pragmas that report a setting when given no value (and would change it with one: that
/// form is refused).
pub const SETTING_PRAGMAS: &[&str] = &[
    "application_id",
    "auto_vacuum",
    "automatic_index",
    "busy_timeout",
    "cache_size",
    "cache_spill",
    "data_version",
    "encoding",
    "foreign_keys",
    "freelist_count",
    "journal_mode",
    "journal_size_limit",
    "locking_mode",
    "max_page_count",
    "mmap_size",
    "page_count",
    "page_size",
    "query_only",
    "recursive_triggers",
    "schema_version",
    "secure_delete",
    "synchronous",
    "temp_store",
    "user_version",
    "wal_autocheckpoint",
];

/// A database opened for reading only: every reading method of [`StoreReader`] (it
/// dereferences to one) and [`ReadOnlyStore::prepare`] for SQL the user writes, and no
/// method that writes. Opening never creates, migrates or writes the file.
///
/// Every statement prepared on it that would write (INSERT, UPDATE, DELETE, CREATE, DROP,
/// ALTER, REINDEX, ANALYZE), attach or detach a database, vacuum (in place or `INTO` a file),
/// or change a setting through a pragma is refused when it is prepared, before it runs;
/// reading statements and reporting pragmas (`table_info`, `integrity_check`,
/// `journal_mode` as a query, …) work. dealdex's SQL functions (`hcp`, `pbn`, …) are
/// registered.
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// # let path = dir.path().join("d.db");
/// # dealdex::Store::open(&path)?;
/// let db = dealdex::ReadOnlyStore::open(&path)?;
/// assert_eq!(db.deal_count()?, 0);
/// let mut query = db.prepare("SELECT count(*) AS n FROM deals")?;
/// assert_eq!(query.column_names(), ["n"]);
/// let mut count = None;
/// query.for_each_row(|row| {
///     count = row[0].as_i64().ok();
///     Ok::<_, dealdex::StoreError>(())
/// })?;
/// assert_eq!(count, Some(0));
/// let err = db.prepare("PRAGMA journal_mode = DELETE").unwrap_err();
/// assert!(err.to_string().contains("PRAGMA journal_mode = DELETE is refused"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Writing does not compile: the writing methods are [`Store`](crate::Store)'s alone.
///
/// ```compile_fail
/// # let dir = tempfile::tempdir()?;
/// # let path = dir.path().join("d.db");
/// # dealdex::Store::open(&path)?;
/// let mut db = dealdex::ReadOnlyStore::open(&path)?;
/// db.insert_deals(&[dealdex::DealIndex([0x4E; 13])])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ReadOnlyStore {
    reader: StoreReader,
    /// What the authorizer refused last, for the error message.
    refused: Arc<Mutex<Option<String>>>,
}

impl std::ops::Deref for ReadOnlyStore {
    type Target = StoreReader;

    fn deref(&self) -> &StoreReader {
        &self.reader
    }
}

impl ReadOnlyStore {
    /// Opens the existing database file at `path` for reading only, as it is: never
    /// creating the file, never migrating its schema, never writing a byte of it.
    ///
    /// The type has no writing method; beneath it the file is opened with SQLite's
    /// `SQLITE_OPEN_READONLY` flag, `PRAGMA query_only` is on, no database can be attached,
    /// and an authorizer refuses every statement that is not reading. The file must be at [`Store::SCHEMA_VERSION`](crate::Store::SCHEMA_VERSION): a reader's
    /// queries name the current tables and views, so an older file is refused rather than
    /// read half-way, and only a writing command upgrades it (by [`Store::open`](crate::Store::open)). The
    /// connection has the pragmas of [`Store::open`](crate::Store::open) that change no file (page cache,
    /// busy timeout; but temporary tables and sorts past the page cache go to files, so that a
    /// statement's memory stays within the connection's) and dealdex's SQL functions
    /// ([`crate::sqlfn::register`]: `hcp`, `dd_tricks`, `dd_par`, …), so the queries of
    /// [`StoreReader::find_deals`] work.
    ///
    /// The database file itself is never written. In WAL mode SQLite creates the `-wal` and
    /// `-shm` side files next to it when they are missing (a reader needs the shared-memory
    /// index) and, being read-only, leaves them there (an empty `-wal`); the next writer to
    /// close the file removes them.
    ///
    /// ```
    /// use dealdex::{DealIndex, ReadOnlyStore, Store, StoreErrorKind};
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("d.db");
    /// let key = DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?;
    /// Store::open(&path)?.insert_deals(&[key])?;
    ///
    /// let reader = ReadOnlyStore::open(&path)?;
    /// assert!(reader.contains(&key)?);
    ///
    /// let missing = dir.path().join("none.db");
    /// let err = ReadOnlyStore::open(&missing).unwrap_err();
    /// assert!(matches!(err.kind(), StoreErrorKind::NoDatabase { .. }));
    /// assert!(!missing.exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::NoDatabase`] if there is no file at `path` (none is created);
    /// [`StoreErrorKind::SchemaTooOld`] or [`StoreErrorKind::SchemaTooNew`] if the file's
    /// `user_version` is not [`Store::SCHEMA_VERSION`](crate::Store::SCHEMA_VERSION) (the file is left as it is);
    /// [`StoreErrorKind::Migration`] if its `user_version` is negative;
    /// [`StoreErrorKind::BadBusyTimeout`] as for [`Store::open`](crate::Store::open);
    /// [`StoreErrorKind::Sqlite`] if the file cannot be opened or is not an SQLite database.
    pub fn open(path: &Path) -> Result<ReadOnlyStore, StoreError> {
        let (conn, label) = super::open_read_only_connection(path)?;
        conn.set_limit(Limit::SQLITE_LIMIT_ATTACHED, 0).at(&label)?;
        // Sorts and temporary b-trees past the page cache spill to files, not to memory: a
        // large ORDER BY finishes within `workflow::sql`'s memory bound instead of reaching it.
        conn.execute_batch("PRAGMA temp_store = FILE;").at(&label)?;
        let refused = Arc::new(Mutex::new(None));
        let note = Arc::clone(&refused);
        conn.authorizer(Some(move |ctx: AuthContext<'_>| {
            let verdict = authorize(&ctx);
            // The first refusal ends the statement's preparation: it names the statement.
            if let Err(what) = &verdict
                && let Ok(mut slot) = note.lock()
                && slot.is_none()
            {
                *slot = Some(what.clone());
            }
            match verdict {
                Ok(()) => Authorization::Allow,
                Err(_) => Authorization::Deny,
            }
        }))
        .at(&label)?;
        Ok(ReadOnlyStore {
            reader: StoreReader { conn, path: label },
            refused,
        })
    }

    /// Prepares one statement for reading: the authorizer checks it here, before anything
    /// runs.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when the SQL does not parse, names an unknown table or
    /// function, or is refused as not read-only: then the message says what was refused,
    /// e.g. `dealdex.db: read-only: ATTACH DATABASE '/tmp/x' (or VACUUM INTO) is refused
    /// (dealdex sql only reads)`.
    pub fn prepare(&self, sql: &str) -> Result<ReadOnlyQuery<'_>, StoreError> {
        self.take_refused();
        let stmt = self
            .reader
            .conn
            .prepare(sql)
            .map_err(|e| self.error(e, sql))?;
        Ok(ReadOnlyQuery { stmt, store: self })
    }

    fn take_refused(&self) -> Option<String> {
        self.refused.lock().ok().and_then(|mut s| s.take())
    }

    /// SQLite's error, or for a refusal by the authorizer what was refused.
    fn error(&self, error: rusqlite::Error, sql: &str) -> StoreError {
        let auth = matches!(
            &error,
            rusqlite::Error::SqliteFailure(e, _) if e.code == rusqlite::ErrorCode::AuthorizationForStatementDenied
        );
        let error = match self.take_refused() {
            Some(what) if auth => {
                // CREATE and DROP are asked for as writes to the schema table first: the
                // statement's own words say more.
                let what = match what.contains(" sqlite_") {
                    true => sql.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
                    false => what,
                };
                rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_AUTH),
                    Some(format!(
                        "read-only: {what} is refused (dealdex sql only reads)"
                    )),
                )
            }
            _ => error,
        };
        StoreErrorKind::Sqlite {
            path: self.reader.path.clone(),
            error,
        }
        .into()
    }
}

/// The authorizer's policy: `Ok` for what only reads, else a description of the action.
fn authorize(ctx: &AuthContext<'_>) -> Result<(), String> {
    use AuthAction as A;
    match ctx.action {
        A::Select | A::Read { .. } | A::Function { .. } | A::Recursive => Ok(()),
        A::Transaction { .. } | A::Savepoint { .. } => Ok(()),
        A::Pragma {
            pragma_name,
            pragma_value,
        } => {
            let name = pragma_name.to_ascii_lowercase();
            let reporting = REPORTING_PRAGMAS.contains(&name.as_str())
                || (pragma_value.is_none() && SETTING_PRAGMAS.contains(&name.as_str()));
            if reporting {
                Ok(())
            } else {
                Err(match pragma_value {
                    Some(v) => format!("PRAGMA {pragma_name} = {v}"),
                    None => format!("PRAGMA {pragma_name}"),
                })
            }
        }
        // VACUUM attaches its target: a temporary database, or the file of VACUUM INTO.
        A::Attach { filename: "" } => Err("VACUUM (or ATTACH of a temporary database)".into()),
        A::Attach { filename } => Err(format!("ATTACH DATABASE '{filename}' (or VACUUM INTO)")),
        A::Detach { database_name } => Err(format!("DETACH DATABASE {database_name}")),
        A::Insert { table_name } => Err(format!("INSERT into {table_name}")),
        A::Update { table_name, .. } => Err(format!("UPDATE of {table_name}")),
        A::Delete { table_name } => Err(format!("DELETE from {table_name}")),
        A::CreateTable { table_name } | A::CreateTempTable { table_name } => {
            Err(format!("CREATE TABLE {table_name}"))
        }
        A::CreateIndex { index_name, .. } | A::CreateTempIndex { index_name, .. } => {
            Err(format!("CREATE INDEX {index_name}"))
        }
        A::CreateView { view_name } | A::CreateTempView { view_name } => {
            Err(format!("CREATE VIEW {view_name}"))
        }
        A::CreateTrigger { trigger_name, .. } | A::CreateTempTrigger { trigger_name, .. } => {
            Err(format!("CREATE TRIGGER {trigger_name}"))
        }
        A::CreateVtable { table_name, .. } => Err(format!("CREATE VIRTUAL TABLE {table_name}")),
        A::DropTable { table_name } | A::DropTempTable { table_name } => {
            Err(format!("DROP TABLE {table_name}"))
        }
        A::DropIndex { index_name, .. } | A::DropTempIndex { index_name, .. } => {
            Err(format!("DROP INDEX {index_name}"))
        }
        A::DropView { view_name } | A::DropTempView { view_name } => {
            Err(format!("DROP VIEW {view_name}"))
        }
        A::DropTrigger { trigger_name, .. } | A::DropTempTrigger { trigger_name, .. } => {
            Err(format!("DROP TRIGGER {trigger_name}"))
        }
        A::DropVtable { table_name, .. } => Err(format!("DROP TABLE {table_name}")),
        A::AlterTable { table_name, .. } => Err(format!("ALTER TABLE {table_name}")),
        A::Reindex { index_name } => Err(format!("REINDEX {index_name}")),
        A::Analyze { table_name } => Err(format!("ANALYZE {table_name}")),
        A::Unknown { code, .. } => Err(format!("an SQLite action (code {code})")),
        _ => Err("an SQLite action that is not reading".to_owned()),
    }
}

/// A statement prepared (and authorized) by [`ReadOnlyStore::prepare`].
#[derive(Debug)]
pub struct ReadOnlyQuery<'s> {
    stmt: rusqlite::Statement<'s>,
    store: &'s ReadOnlyStore,
}

impl ReadOnlyQuery<'_> {
    /// The result's column names, in order (none for a statement without a result).
    pub fn column_names(&self) -> Vec<String> {
        self.stmt
            .column_names()
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    /// Runs the statement and gives `row` each row's values in column order.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when the statement fails while running (a function's bad
    /// argument, a corrupt page, …); errors returned by `row` are passed through.
    pub fn for_each_row<E: From<StoreError>>(
        &mut self,
        mut row: impl FnMut(&[ValueRef<'_>]) -> Result<(), E>,
    ) -> Result<(), E> {
        let columns = self.stmt.column_count();
        let sql = self.stmt.expanded_sql().unwrap_or_default();
        let store = self.store;
        let mut rows = self.stmt.query([]).map_err(|e| store.error(e, &sql))?;
        while let Some(r) = rows.next().map_err(|e| store.error(e, &sql))? {
            let mut values = Vec::with_capacity(columns);
            for i in 0..columns {
                values.push(r.get_ref(i).map_err(|e| store.error(e, &sql))?);
            }
            row(&values)?;
        }
        Ok(())
    }
}
