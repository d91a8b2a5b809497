//! SQLite storage of deals and named board sets: dealdex's store, on the model, the solver's
//! tables and the query language (compiled to SQL here).
//!
//! One file holds three tables (schema in `migrations/`, embedded in the binary):
//! `deals`, every distinct 13-byte [`DealIndex`] once; `sets`, named collections of
//! boards; and `set_boards`, which deal sits at which board of which set. A deal shared by
//! several sets is stored once. The `plays` table (migration 04) holds play records with
//! their deal ([`Store::store_plays`], [`StoreReader::plays_of`](crate::StoreReader::plays_of)).
//! The `leads` table (migration 08) holds the defence's tricks after each opening lead
//! ([`Store::store_leads`], [`StoreReader::stored_leads`](crate::StoreReader::stored_leads)).
//!
//! Every writing call is one transaction: it commits whole or changes nothing. The file
//! runs in WAL mode with `synchronous=NORMAL`: a committed transaction survives a crash
//! of the program; after a power loss or OS crash the last few commits may be missing,
//! but the file is always consistent.
//!
//! Several processes may use one file at once: readers never wait (WAL), and writers take
//! turns, one transaction at a time, each waiting up to [`Store::DEFAULT_BUSY_TIMEOUT`]
//! (60 s, or the seconds in the `DEALDEX_BUSY_TIMEOUT` environment variable) for another's
//! transaction to end; past that the call fails with a busy error
//! ([`StoreError::is_busy`]) and changes nothing.
//!
//! Readers ([`ReadOnlyStore::open`]) never create, migrate or
//! write the file: a file at an older schema version is upgraded only by a writer
//! ([`Store::open`]), and a reader refuses it until then. Their queries by compiled query
//! and scope ([`StoreReader::find_deals`](crate::StoreReader::find_deals), [`StoreReader::count_deals`](crate::StoreReader::count_deals), [`StoreReader::for_each_key`](crate::StoreReader::for_each_key)) are
//! in `search.rs`.

#![deny(missing_docs)]

use std::path::Path;
use std::time::Duration;

// The crates below under their names in the engine (`crate::model::…`, `crate::dd::…`, …).
use dealdex_model as model;
use dealdex_model::classified;
use dealdex_model::play;
use dealdex_query as query;
use dealdex_solver as dd;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use rusqlite_migration::{HookError, HookResult, M, Migrations};

use crate::model::index::DealIndex;
use crate::model::number::Scheme;

mod error;
pub mod heap;
mod leads;
mod played;
mod played_dd;
mod played_search;
mod played_view;
mod plays;
mod readonly;
mod search;
mod set_writer;
pub mod sqlfn;
mod stored_dd;

use error::At;
pub use error::{StoreError, StoreErrorKind};
pub use leads::LeadTable;
pub use played::{NewPlayed, PlayedTable, StoredPlayed};
pub use played_dd::{JudgedPlayed, JudgedSummary, JudgedToSum, PlayedToJudge, PlayedToPar};
pub use played_search::FoundPlayed;
pub use played_view::{PlayedRow, PlayedSelection};
pub use plays::{NewPlay, StoredPlay};
pub use set_writer::SetWriter;
pub use stored_dd::{DdSource, StoredDd};

/// The plays and double-dummy tables a deal file carries besides its deals, stored in the
/// same transaction as them by [`Store::store_set_with_plays_and_tables`] and
/// [`Store::insert_deal_groups`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlaysAndTables {
    /// Validated play records (migration 04).
    pub plays: Vec<NewPlay>,
    /// Boards as played at a table (migration 10): room, players, auction, contract,
    /// declarer, result, score and play.
    pub played: Vec<NewPlayed>,
    /// Double-dummy tables the file gives (migration 05), each with its deal, which must be
    /// among the deals stored with it.
    pub dd: Vec<(DealIndex, crate::dd::TrickTable)>,
    /// Where those tables came from (migration 07), recorded with each new one;
    /// [`DdSource::Unknown`] by default.
    pub dd_source: DdSource,
}

/// How many of the plays and tables of a [`PlaysAndTables`] were new to the database.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PlaysAndTablesStored {
    /// New play records.
    pub plays: u64,
    /// New played boards (a table's record already stored is not stored again).
    pub played: u64,
    /// New double-dummy tables (a deal already solved keeps its table).
    pub dd: u64,
}
pub use readonly::{ReadOnlyQuery, ReadOnlyStore};

/// The environment variable that overrides [`Store::DEFAULT_BUSY_TIMEOUT`]: seconds, e.g.
/// `60` or `0.5`, at most a day.
const BUSY_TIMEOUT_VAR: &str = "DEALDEX_BUSY_TIMEOUT";

/// The busy timeout for new connections: `DEALDEX_BUSY_TIMEOUT` seconds when set, else
/// [`Store::DEFAULT_BUSY_TIMEOUT`].
fn busy_timeout_setting() -> Result<Duration, StoreError> {
    let Some(raw) = std::env::var_os(BUSY_TIMEOUT_VAR) else {
        return Ok(Store::DEFAULT_BUSY_TIMEOUT);
    };
    let text = raw.to_string_lossy();
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| (0.0..=86_400.0).contains(s))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            StoreErrorKind::BadBusyTimeout {
                value: text.into_owned(),
            }
            .into()
        })
}

/// Switches the connection's file to WAL mode (a no-op when it is already).
///
/// Changing the journal mode needs an exclusive lock, and SQLite reports SQLITE_BUSY for it
/// at once, without calling the busy handler, while another connection has the file open
/// (six processes creating one new file hit this in about one run in three). So the pragma
/// is retried here until `timeout` has passed, as the busy handler would have waited.
fn set_wal_mode(conn: &Connection, timeout: Duration) -> rusqlite::Result<()> {
    let start = std::time::Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        // journal_mode answers with a row, which execute_batch accepts.
        match conn.execute_batch("PRAGMA journal_mode = WAL;") {
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && start.elapsed() < timeout =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            done => return done,
        }
    }
}

/// The schema migrations, in order: the `migrations/NN-name/up.sql` files, embedded in the
/// binary and applied in `NN` order; [`Store::SCHEMA_VERSION`] counts them.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../../../migrations/01-initial/up.sql")),
        M::up_with_hook(
            include_str!("../../../migrations/02-features/up.sql"),
            backfill_features,
        ),
        M::up(include_str!("../../../migrations/03-indexed-hcp/up.sql")),
        M::up(include_str!("../../../migrations/04-play/up.sql")),
        M::up(include_str!("../../../migrations/05-dd/up.sql")),
        M::up(include_str!("../../../migrations/06-packed-lengths/up.sql")),
        M::up(include_str!("../../../migrations/07-dd-source/up.sql")),
        M::up(include_str!("../../../migrations/08-leads/up.sql")),
        M::up(include_str!("../../../migrations/09-lead-source/up.sql")),
        M::up(include_str!("../../../migrations/10-played/up.sql")),
        M::up(include_str!("../../../migrations/11-played-dd/up.sql")),
        M::up_with_hook(
            include_str!("../../../migrations/12-played-judged/up.sql"),
            played::backfill_contract_columns,
        ),
    ])
}

/// The stored features of a deal: each seat's HCP (N, E, S, W; the `hcp_<seat>` columns of
/// migration 03) and `lens` (4 bits a seat and suit: N♠ lowest, then N♥ … W♣; migration 02).
pub(crate) fn stored_features(deal: &crate::model::deal::Deal) -> ([i64; 4], i64) {
    let mut hcp = [0i64; 4];
    let mut lens = 0u64;
    for (t, hand) in deal.hands().iter().enumerate() {
        hcp[t] = crate::model::features::hcp(*hand) as i64;
        for (u, l) in crate::model::features::suit_lengths(*hand)
            .iter()
            .enumerate()
        {
            lens |= (*l as u64) << (4 * (4 * t + u));
        }
    }
    (hcp, lens as i64)
}

/// Migration 02's hook: fills the packed features of every deal stored before it.
fn backfill_features(tx: &rusqlite::Transaction) -> HookResult {
    let mut keys = Vec::new();
    {
        let mut stmt = tx.prepare("SELECT key FROM deals")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let k = row
                .get_ref(0)?
                .as_blob()
                .map_err(|e| HookError::Hook(format!("a stored key is not a BLOB: {e}")))?;
            let bytes: [u8; 13] = k.try_into().map_err(|_| {
                HookError::Hook(format!("a stored key has {} bytes, not 13", k.len()))
            })?;
            keys.push(DealIndex(bytes));
        }
    }
    let mut stmt = tx.prepare("UPDATE deals SET hcp4 = ?2, lens = ?3 WHERE key = ?1")?;
    for key in keys {
        let deal = key
            .to_deal()
            .map_err(|e| HookError::Hook(format!("stored key {key}: {e}")))?;
        let ([n, e, s, w], lens) = stored_features(&deal);
        let hcp4 = n | e << 6 | s << 12 | w << 18;
        stmt.execute(params![&key.0, hcp4, lens])?;
    }
    Ok(())
}

/// The most bytes of a database file a read-only connection maps into memory: SQLite's own
/// default ceiling (`SQLITE_MAX_MMAP_SIZE`, 0x7fff0000), so about 2 GiB (a 60 M-deal file).
/// Mapped pages are the operating system's file cache, shared, not the process's heap; a
/// writer never shrinks the file under a reader (dealdex does not vacuum), which is what
/// would make a mapped read fail.
pub(crate) const READ_ONLY_MMAP: u64 = 0x7fff_0000;

/// What [`Store::open_checked`] accepts at the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Existing {
    /// Only a dealdex database (any schema version from 1).
    Dealdex,
    /// No file, an empty database, or a dealdex database.
    NewOrDealdex,
    /// Anything SQLite opens (foreign tables are kept beside dealdex's).
    Any,
}

/// Opens an existing file for reading only (see [`ReadOnlyStore::open`]): read-only
/// flags, `query_only`, the pragmas that touch no file, the schema version checked (never
/// migrated) and dealdex's SQL functions. Returns the connection and the path label.
///
/// The file is read through a memory map (its first [`READ_ONLY_MMAP`] bytes): a scan of the
/// deals then reads the operating system's cached pages where they are instead of copying
/// each into the connection's page cache (issue 52: a count over 10 M deals spent about an
/// eighth of its time in those copies).
pub(crate) fn open_read_only_connection(path: &Path) -> Result<(Connection, String), StoreError> {
    let label = path.display().to_string();
    let timeout = busy_timeout_setting()?;
    // Without SQLITE_OPEN_CREATE a missing file is not created but only reported as
    // "unable to open database file": say what is wrong.
    if matches!(path.try_exists(), Ok(false)) {
        return Err(StoreErrorKind::NoDatabase { path: label }.into());
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    heap::install();
    let conn = Connection::open_with_flags(path, flags).at(&label)?;
    conn.busy_timeout(timeout).at(&label)?;
    conn.execute_batch(
        "PRAGMA cache_size = -32768;
         PRAGMA temp_store = MEMORY;
         PRAGMA query_only = ON;",
    )
    .at(&label)?;
    conn.execute_batch(&format!("PRAGMA mmap_size = {READ_ONLY_MMAP};"))
        .at(&label)?;
    check_schema_version(&conn, &label)?;
    crate::sqlfn::register(&conn).at(&label)?;
    Ok((conn, label))
}

/// The file's schema version (`PRAGMA user_version`) and whether it holds any table, view,
/// index or trigger, reading only, in one statement: one snapshot, so a dealdex creating the
/// file at the same time (its migration commits the tables and the version together) is seen
/// before or after, never half way as a file of other tables.
fn schema_state(conn: &Connection, path: &str) -> Result<(i64, bool), StoreError> {
    conn.query_row(
        "SELECT (SELECT user_version FROM pragma_user_version),
                EXISTS (SELECT 1 FROM sqlite_master)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .at(path)
}

/// Refuses a file whose `user_version` is not [`Store::SCHEMA_VERSION`], reading only.
fn check_schema_version(conn: &Connection, path: &str) -> Result<(), StoreError> {
    let (found, foreign) = schema_state(conn, path)?;
    let expected = Store::SCHEMA_VERSION;
    match usize::try_from(found) {
        Ok(found) if found == expected => Ok(()),
        Ok(0) => Err(StoreErrorKind::NotDealdex {
            path: path.to_owned(),
            foreign,
        }
        .into()),
        Ok(found) if found < expected => Err(StoreErrorKind::SchemaTooOld {
            path: path.to_owned(),
            found,
            expected,
        }
        .into()),
        Ok(found) => Err(StoreErrorKind::SchemaTooNew {
            path: path.to_owned(),
            found,
            expected,
        }
        .into()),
        Err(_) => Err(StoreErrorKind::Migration {
            path: path.to_owned(),
            error: rusqlite_migration::Error::InvalidUserVersion,
        }
        .into()),
    }
}

/// Inserts a deal with its stored features (migrations 02 and 03), one row a statement.
const INSERT_DEAL: &str = "INSERT OR IGNORE INTO deals(key, hcp_n, hcp_e, hcp_s, hcp_w, lens) \
                           VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// Values bound per row of [`INSERT_DEAL`].
const ROW_PARAMS: usize = 6;

const INSERT_BOARD_ONE: &str = "INSERT INTO set_boards(set_id, board, deal) VALUES (?,?,?)";

/// [`INSERT_BOARD_ONE`] with [`CHUNK`] rows, for a table without the `set_boards(deal)`
/// index ([`insert_boards`]).
static INSERT_BOARDS_CHUNK: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let rows = vec!["(?,?,?)"; CHUNK].join(",");
    format!("INSERT INTO set_boards(set_id, board, deal) VALUES {rows}")
});

/// Rows per multi-row deal `INSERT`: 64 rows a statement amortise the per-statement cost.
const CHUNK: usize = 64;

/// [`INSERT_DEAL`] with [`CHUNK`] rows.
static INSERT_DEALS_CHUNK: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let rows = vec!["(?,?,?,?,?,?)"; CHUNK].join(",");
    format!("INSERT OR IGNORE INTO deals(key, hcp_n, hcp_e, hcp_s, hcp_w, lens) VALUES {rows}")
});

/// Inserts one deal with its stored features; 1 when it was new, 0 when already stored.
fn insert_deal(stmt: &mut rusqlite::CachedStatement<'_>, key: &DealIndex) -> rusqlite::Result<u64> {
    bind_deal_row(stmt, 0, key)?;
    // INSERT OR IGNORE counts only the rows it inserted (sqlite3_changes).
    Ok(stmt.raw_execute()? as u64)
}

/// Binds row `row` (0-based) of a deal `INSERT`: the key and its stored features.
fn bind_deal_row(
    stmt: &mut rusqlite::CachedStatement<'_>,
    row: usize,
    key: &DealIndex,
) -> rusqlite::Result<()> {
    let deal = key.to_deal().map_err(|e| {
        rusqlite::Error::ToSqlConversionFailure(format!("deal index {key}: {e}").into())
    })?;
    let (hcp, lens) = stored_features(&deal);
    let first = ROW_PARAMS * row + 1;
    stmt.raw_bind_parameter(first, key.0)?;
    for (i, h) in hcp.into_iter().enumerate() {
        stmt.raw_bind_parameter(first + 1 + i, h)?;
    }
    stmt.raw_bind_parameter(first + 5, lens)
}

/// A set to store with [`Store::store_set`].
///
/// The store does not check that the boards lie between `first_board` and `last_board`:
/// those two record the range the set was made for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSet {
    /// Unique name of the set (see [`StoreReader::unused_set_name`](crate::StoreReader::unused_set_name)).
    pub name: String,
    /// First board number of the range, at most `i64::MAX`.
    pub first_board: u64,
    /// Last board number of the range (inclusive), at most `i64::MAX`.
    pub last_board: u64,
    /// The numbering scheme that mapped boards to deals (stored as its [`Scheme::name`]).
    pub scheme: Scheme,
    /// Name and version of the program that made the deals.
    pub generator: String,
    /// SHA-256 of the seed, never the seed itself; `None` when there is no seed (imports).
    pub seed_sha256: Option<[u8; 32]>,
}

/// What [`Store::store_set`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetOutcome {
    /// The set's row id in `sets`.
    pub set_id: i64,
    /// How many deals were not in the store before (0 when `already_stored`).
    pub new_deals: u64,
    /// The identical set was already stored; nothing was written.
    pub already_stored: bool,
}

/// One board of one set, as returned by [`StoreReader::boards_of`](crate::StoreReader::boards_of).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SetBoard {
    /// The set's name.
    pub set_name: String,
    /// The board number within the set.
    pub board: u64,
}

/// Every column of a stored set, as returned by [`StoreReader::set`](crate::StoreReader::set).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetInfo {
    /// Row id in `sets` (the `set_id` of [`SetOutcome`]).
    pub id: i64,
    /// Unique name.
    pub name: String,
    /// First board number of the range.
    pub first_board: u64,
    /// Last board number of the range (inclusive).
    pub last_board: u64,
    /// The numbering scheme that mapped boards to deals.
    pub scheme: Scheme,
    /// Generator name and version.
    pub generator: String,
    /// When the set was stored: UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub created_at: String,
    /// SHA-256 of the seed, if one was recorded.
    pub seed_sha256: Option<[u8; 32]>,
}

/// The database file the `dealdex` binary uses when `--db` is not given: `dealdex.db` in the
/// current directory. The library itself never opens a file it was not given.
pub const DEFAULT_DATABASE: &str = "dealdex.db";

/// A dealdex database: one SQLite connection with the schema applied.
///
/// ```
/// use dealdex::{DealIndex, Store};
/// let mut store = Store::open_in_memory()?;
/// let key = DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?;
/// assert_eq!(store.insert_deals(&[key, key])?, 1);
/// assert!(store.contains(&key)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Store {
    reader: StoreReader,
}

/// What every open database can do: read. [`Store`] (which also writes) and
/// [`ReadOnlyStore`] (which cannot) both dereference to it, so a workflow that only reads
/// takes a `&StoreReader` and works on either.
///
/// ```
/// use dealdex::{DealIndex, ReadOnlyStore, Store, StoreReader};
/// fn stored(db: &StoreReader, key: &DealIndex) -> Result<bool, dealdex::StoreError> {
///     db.contains(key)
/// }
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("d.db");
/// let key = DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?;
/// let mut store = Store::open(&path)?;
/// store.insert_deals(&[key])?;
/// assert!(stored(&store, &key)?);
/// let reader = ReadOnlyStore::open(&path)?;
/// assert!(stored(&reader, &key)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct StoreReader {
    conn: Connection,
    /// The path as given, for error messages; `:memory:` in memory.
    path: String,
}

impl std::ops::Deref for Store {
    type Target = StoreReader;

    fn deref(&self) -> &StoreReader {
        &self.reader
    }
}

/// Writing methods reach the connection through this; a [`StoreReader`] has no method that
/// takes `&mut self`, so nothing outside the store can write through it.
impl std::ops::DerefMut for Store {
    fn deref_mut(&mut self) -> &mut StoreReader {
        &mut self.reader
    }
}

impl Store {
    /// How long [`Store::open`] lets a connection wait for another connection's write
    /// transaction to end, unless the `DEALDEX_BUSY_TIMEOUT` environment variable says
    /// otherwise. A bulk batch of 8 Mi keys into a large file can hold the write lock for
    /// several seconds, so rusqlite's default of 5 s made a second bulk writer fail.
    pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(60);

    /// The schema version this build reads and writes: the number of migrations it knows,
    /// recorded in a file's `PRAGMA user_version` by [`Store::open`].
    ///
    /// ```
    /// let store = dealdex::Store::open_in_memory()?;
    /// assert_eq!(store.schema_version()?, dealdex::Store::SCHEMA_VERSION);
    /// # Ok::<(), dealdex::StoreError>(())
    /// ```
    pub const SCHEMA_VERSION: usize = 12;

    /// Removes the database file `path` and SQLite's side files beside it (`-wal`, `-shm`,
    /// `-journal`), ignoring those that are not there: for a command that created the file
    /// and stored nothing in it, so that a refused request leaves no file behind. Close every
    /// connection to it first.
    pub fn remove_files(path: &Path) {
        let _ = std::fs::remove_file(path);
        for side in ["-wal", "-shm", "-journal"] {
            let mut p = path.as_os_str().to_owned();
            p.push(side);
            let _ = std::fs::remove_file(p);
        }
    }

    /// Opens the database file at `path`, creating it if missing (with 32 KiB pages), sets
    /// the connection's pragmas (WAL journal, `synchronous=NORMAL`, `foreign_keys=ON`, a
    /// page cache of at most 32 MiB (bulk inserts gain nothing from more: random keys defeat
    /// any cache smaller than the file), temporary tables in memory) and applies the pending
    /// schema migrations, in order, in one transaction.
    ///
    /// Another connection's write lock is waited for up to [`Store::DEFAULT_BUSY_TIMEOUT`]
    /// (60 s), or the seconds in the `DEALDEX_BUSY_TIMEOUT` environment variable (`0` fails
    /// at once); [`Store::busy_timeout`] tells which. Processes opening a new file at the same
    /// time are safe: one applies the migrations, the others wait for it.
    ///
    /// # Errors
    /// [`StoreErrorKind::BadBusyTimeout`] if `DEALDEX_BUSY_TIMEOUT` is set but not a number of
    /// seconds from 0 to 86400 (checked before the file is touched);
    /// [`StoreErrorKind::Sqlite`] if the file cannot be opened or created, is not an SQLite
    /// database, or a pragma fails (e.g. the file or its directory is read-only);
    /// [`StoreErrorKind::Migration`] if the file's schema version is newer than this build
    /// knows or a migration fails (the file is then left at its old version). Either is
    /// [`StoreError::is_busy`] when another process held the write lock past the timeout.
    ///
    /// An SQLite file that holds other tables and no dealdex schema (a foreign database) is
    /// refused with [`StoreErrorKind::NotDealdex`] before anything is written: see
    /// [`Store::open_foreign`].
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::open_checked(path, Existing::NewOrDealdex).map_err(StoreError::explain_busy)
    }

    /// [`Store::open`], but an SQLite file with other tables of its own is taken too: dealdex's
    /// tables are added beside them (`--migrate-foreign`).
    ///
    /// # Errors
    /// As [`Store::open`], but for [`StoreErrorKind::NotDealdex`].
    pub fn open_foreign(path: &Path) -> Result<Store, StoreError> {
        Store::open_checked(path, Existing::Any).map_err(StoreError::explain_busy)
    }

    /// Opens `path` as [`Store::open`] does once `existing` allows what is there; the check
    /// reads only, before any pragma or migration writes.
    fn open_checked(path: &Path, existing: Existing) -> Result<Store, StoreError> {
        let label = path.display().to_string();
        let timeout = busy_timeout_setting()?;
        if existing == Existing::Dealdex && !path.exists() {
            return Err(StoreErrorKind::NoDatabase { path: label }.into());
        }
        heap::install();
        let conn = Connection::open(path).at(&label)?;
        conn.busy_timeout(timeout).at(&label)?;
        if existing != Existing::Any
            && let (0, foreign) = schema_state(&conn, &label)?
            && (foreign || existing == Existing::Dealdex)
        {
            return Err(StoreErrorKind::NotDealdex {
                path: label,
                foreign,
            }
            .into());
        }
        Store::init(conn, label, timeout)
    }

    /// Opens the database file at `path` as [`Store::open`] does, but only when it exists:
    /// for the commands that work on what is stored and may write to it (`solve --set`,
    /// `--all` and `--verify`, `records --set --solve`, `dealer --set` and `--all`, and
    /// `dealer --deals` looking up stored tables), where a new empty file would only hide a
    /// wrong path. The commands that only read (`export`, `records --set`, `query`, `sql`, …)
    /// open a [`ReadOnlyStore`].
    ///
    /// ```
    /// use dealdex::{Store, StoreErrorKind};
    /// let dir = tempfile::tempdir()?;
    /// let missing = dir.path().join("none.db");
    /// let err = Store::open_existing(&missing).unwrap_err();
    /// assert!(matches!(err.kind(), StoreErrorKind::NoDatabase { .. }));
    /// assert_eq!(err.to_string(), format!("no database at {}", missing.display()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::NoDatabase`] (bad input) when there is no file at `path`;
    /// [`StoreErrorKind::NotDealdex`] when the file has no dealdex schema (an empty file, or an
    /// SQLite file of other tables), which is left as it is; otherwise as [`Store::open`].
    pub fn open_existing(path: &Path) -> Result<Store, StoreError> {
        Store::open_checked(path, Existing::Dealdex)
    }

    /// How long a connection made by [`Store::open`] waits for another connection's write
    /// lock: the seconds in `DEALDEX_BUSY_TIMEOUT` when set, else
    /// [`Store::DEFAULT_BUSY_TIMEOUT`].
    ///
    /// ```
    /// # if std::env::var_os("DEALDEX_BUSY_TIMEOUT").is_none() {
    /// assert_eq!(dealdex::Store::busy_timeout()?, std::time::Duration::from_secs(60));
    /// # }
    /// # Ok::<(), dealdex::StoreError>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::BadBusyTimeout`] if the variable is set but not a number of seconds
    /// from 0 to 86400.
    pub fn busy_timeout() -> Result<Duration, StoreError> {
        busy_timeout_setting()
    }

    /// Opens a new, empty database in memory, set up as by [`Store::open`] (but its
    /// journal stays in memory). It vanishes when dropped.
    ///
    /// ```
    /// let store = dealdex::Store::open_in_memory()?;
    /// assert_eq!(store.deal_count()?, 0);
    /// assert_eq!(store.schema_version()?, 12);
    /// # Ok::<(), dealdex::StoreError>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if SQLite cannot allocate the database;
    /// [`StoreErrorKind::Migration`] if the embedded migrations fail.
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let label = ":memory:".to_owned();
        heap::install();
        let conn = Connection::open_in_memory().at(&label)?;
        Store::init(conn, label, Duration::ZERO)
    }

    fn init(mut conn: Connection, path: String, timeout: Duration) -> Result<Store, StoreError> {
        // page_size only takes effect on a new, empty file, so it comes first; 32 KiB
        // pages made 1M-key batches ~1.4x faster than 4 KiB ones (fewer WAL frames per
        // commit).
        conn.execute_batch("PRAGMA page_size = 32768;").at(&path)?;
        set_wal_mode(&conn, timeout).at(&path)?;
        conn.execute_batch(
            "PRAGMA synchronous = NORMAL;
             PRAGMA foreign_keys = ON;
             PRAGMA cache_size = -32768;
             PRAGMA temp_store = MEMORY;",
        )
        .at(&path)?;
        // Before the migrations: the feature view (version 2) is defined over these functions.
        crate::sqlfn::register(&conn).at(&path)?;
        // Processes opening a new file together: the migrations run in IMMEDIATE
        // transactions, so the second waits (busy timeout) for the first's to commit instead
        // of failing to upgrade its read lock; it then finds the tables made (its own
        // migration fails on them and rolls back) and the version current, which is success.
        conn.set_transaction_behavior(TransactionBehavior::Immediate);
        let migrated = migrations().to_latest(&mut conn);
        conn.set_transaction_behavior(TransactionBehavior::Deferred);
        if let Err(error) = migrated
            && !matches!(migrations().pending_migrations(&conn), Ok(0))
        {
            return Err(StoreErrorKind::Migration { path, error }.into());
        }
        Ok(Store {
            reader: StoreReader { conn, path },
        })
    }

    /// Inserts deals, skipping those already stored, in one transaction, and returns
    /// how many were new. Duplicates within `keys` count once.
    ///
    /// This is also the bulk-loading call: feed millions of deals as successive batches
    /// (say 1,000,000 keys each). Each call commits on its own, so an error or a crash
    /// loses at most the batch in flight; every batch committed before stays, and the
    /// file stays consistent. The keys are sorted first (a borrowed slice is copied, a `Vec` sorted in place), so SQLite walks its
    /// B-tree once, in key order. Keys are stored as given, not checked to be deals.
    /// Measured in release: 10 batches of 1M random keys into a new file average about
    /// 1.5M new keys/s (the first batch is fastest; later ones touch every page).
    ///
    /// ```
    /// use dealdex::{DealIndex, Store};
    /// let mut store = Store::open_in_memory()?;
    /// let a = DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?;
    /// let b = DealIndex([0x4E; 13]); // S: all spades, W: hearts, N: diamonds, E: clubs
    /// assert_eq!(store.insert_deals(&[a, b, a])?, 2);
    /// assert_eq!(store.insert_deals(&[b])?, 0);
    /// assert_eq!(store.insert_deals(vec![a, b])?, 0); // a Vec is taken as it is, not copied
    /// assert_eq!(store.deal_count()?, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when SQLite fails (database locked by another writer beyond
    /// the busy timeout, disk full, read-only file, …); the batch is then rolled back
    /// whole.
    pub fn insert_deals<'k>(
        &mut self,
        keys: impl Into<std::borrow::Cow<'k, [DealIndex]>>,
    ) -> Result<u64, StoreError> {
        // Keys given by value are sorted in place: a bulk load holds each batch once.
        let mut sorted = keys.into().into_owned();
        if sorted.is_empty() {
            return Ok(0);
        }
        sort_dedup_keys(&mut sorted);
        let (tx, path) = self.write_transaction()?;
        let new = insert_sorted_keys(&tx, &sorted).at(path)?;
        tx.commit().at(path)?;
        Ok(new)
    }

    /// Inserts several groups of keys (e.g. the boards of several files) in ONE transaction,
    /// each with its plays and double-dummy tables (`plays_and_tables[g]` for group `g`; missing
    /// entries, or an empty `plays_and_tables`, mean none) stored in the same transaction, so a crash
    /// never leaves a group stored without them. Returns per group, in order, how many of
    /// its keys were new (not in the database nor in an earlier group) and what of its
    /// plays and tables was new. Small groups are where this pays: each transaction rewrites every
    /// page it touches, so 10,000 files of 96 boards took 32 s one transaction each. A table
    /// is stored only for a deal that has none (a deal is solved at most once per database:
    /// compare first with [`StoreReader::dd_tables`] to refuse a file that disagrees).
    ///
    /// ```
    /// use dealdex::{DealIndex, Store};
    /// let mut store = Store::open_in_memory()?;
    /// let a = DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?;
    /// let b = DealIndex([0x4E; 13]);
    /// let counts = store.insert_deal_groups(&[vec![a], vec![a, b]], &[])?;
    /// assert_eq!(counts.iter().map(|(new, _)| *new).collect::<Vec<_>>(), [1, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::BoardOutOfRange`] for a play's board above `i64::MAX` (before anything
    /// is written); [`StoreErrorKind::Sqlite`] when SQLite fails; the whole transaction is then
    /// rolled back, so no group is stored.
    pub fn insert_deal_groups(
        &mut self,
        groups: &[Vec<DealIndex>],
        plays_and_tables: &[PlaysAndTables],
    ) -> Result<Vec<(u64, PlaysAndTablesStored)>, StoreError> {
        let play_boards = plays_and_tables
            .iter()
            .map(|e| plays::play_boards(&e.plays))
            .collect::<Result<Vec<_>, _>>()?;
        let (tx, path) = self.write_transaction()?;
        let counts = if let [only] = groups {
            let mut sorted = only.clone();
            sort_dedup_keys(&mut sorted);
            vec![insert_sorted_keys(&tx, &sorted).at(path)?]
        } else {
            group_counts(&tx, path, groups)?
        };
        let mut out = Vec::with_capacity(groups.len());
        for (g, deals) in counts.into_iter().enumerate() {
            let stored = match (plays_and_tables.get(g), play_boards.get(g)) {
                (Some(t), Some(b)) => insert_plays_and_tables(&tx, path, None, t, b)?,
                _ => PlaysAndTablesStored::default(),
            };
            out.push((deals, stored));
        }
        tx.commit().at(path)?;
        Ok(out)
    }
}

/// One write transaction that stores deals with their plays and double-dummy tables piece by
/// piece ([`Store::begin_deals`]): how `import` stores a file too large to hold, whole or not
/// at all, in memory bounded by a piece. Dropped without [`DealWriter::commit`], it rolls
/// back: nothing it added is stored.
pub struct DealWriter<'s> {
    tx: rusqlite::Transaction<'s>,
    path: &'s str,
    /// The last `dd_sources` row before the transaction: rows past it are this writer's.
    sources_before: i64,
}

impl Store {
    /// Starts a [`DealWriter`] (an immediate transaction: it holds the write lock until it is
    /// committed or dropped).
    ///
    /// ```
    /// use dealdex::{PlaysAndTables, DealIndex, Store};
    /// let mut store = Store::open_in_memory()?;
    /// let a = DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?;
    /// let mut w = store.begin_deals()?;
    /// assert_eq!(w.add(vec![a], &PlaysAndTables::default())?.0, 1);
    /// assert_eq!(w.add(vec![a], &PlaysAndTables::default())?.0, 0); // stored by the piece before
    /// w.commit()?;
    /// assert_eq!(store.deal_count()?, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when the transaction cannot start (locked beyond the busy
    /// timeout, read-only file).
    pub fn begin_deals(&mut self) -> Result<DealWriter<'_>, StoreError> {
        let (tx, path) = self.write_transaction()?;
        let sources_before = tx
            .query_row("SELECT coalesce(max(id), 0) FROM dd_sources", [], |r| {
                r.get(0)
            })
            .at(path)?;
        Ok(DealWriter {
            tx,
            path,
            sources_before,
        })
    }

    /// An immediate write transaction and the path for errors: it takes the write lock
    /// before reading, so what a writer checks (a set's existence, the name it chooses) and
    /// what it inserts see the same database.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when the transaction cannot start (locked beyond the busy
    /// timeout, read-only file).
    fn write_transaction(&mut self) -> Result<(rusqlite::Transaction<'_>, &str), StoreError> {
        let StoreReader {
            ref mut conn,
            ref path,
        } = self.reader;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .at(path)?;
        Ok((tx, path))
    }
}

impl DealWriter<'_> {
    /// Adds one piece: its deals (`keys`, any order, repeats allowed) and their plays and
    /// tables, as [`Store::insert_deal_groups`] does for one group.
    /// Returns (new deals: not stored before, in the database or by an earlier piece; what of
    /// the plays and tables was new).
    ///
    /// # Errors
    /// [`StoreErrorKind::BoardOutOfRange`] for a play's board above `i64::MAX`;
    /// [`StoreErrorKind::Sqlite`] when SQLite fails. Either way the caller drops the writer and
    /// nothing is stored.
    pub fn add(
        &mut self,
        mut keys: Vec<DealIndex>,
        plays_and_tables: &PlaysAndTables,
    ) -> Result<(u64, PlaysAndTablesStored), StoreError> {
        let play_boards = plays::play_boards(&plays_and_tables.plays)?;
        sort_dedup_keys(&mut keys);
        let new = insert_sorted_keys(&self.tx, &keys).at(self.path)?;
        let stored =
            insert_plays_and_tables(&self.tx, self.path, None, plays_and_tables, &play_boards)?;
        Ok((new, stored))
    }

    /// The stored tables of `keys` (in order; `None` where a deal is not solved), as
    /// [`StoreReader::dd_tables`](crate::StoreReader::dd_tables) sees them inside this transaction.
    ///
    /// # Errors
    /// As [`StoreReader::dd_table`](crate::StoreReader::dd_table).
    pub fn dd_tables(
        &self,
        keys: &[DealIndex],
    ) -> Result<Vec<Option<crate::dd::TrickTable>>, StoreError> {
        keys.iter()
            .map(|k| stored_dd::dd_table_on(&self.tx, self.path, k))
            .collect()
    }

    /// Records the SHA-256 of the file `file` (its bytes, known once it is read to its
    /// end) in the `dd_sources` rows this writer added for it without one: the tables of a
    /// file stored piece by piece come before its last byte.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when SQLite fails.
    pub fn file_hashed(&mut self, file: &str, sha256: &[u8; 32]) -> Result<(), StoreError> {
        self.tx
            .execute(
                "UPDATE dd_sources SET sha256 = ?1 \
                 WHERE kind = 'file' AND file = ?2 AND sha256 IS NULL AND id > ?3",
                params![sha256.as_slice(), file, self.sources_before],
            )
            .at(self.path)?;
        Ok(())
    }

    /// Stores everything added.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when the commit fails (nothing is stored then).
    pub fn commit(self) -> Result<(), StoreError> {
        self.tx.commit().at(self.path)
    }
}

/// Inserts the keys of several groups in one sorted pass (B-tree order), each counted for
/// the first group that holds it; returns the counts per group.
fn group_counts(
    tx: &rusqlite::Transaction<'_>,
    path: &str,
    groups: &[Vec<DealIndex>],
) -> Result<Vec<u64>, StoreError> {
    // All keys in one sorted pass (B-tree order), each counted for the first group that
    // holds it.
    let mut tagged: Vec<(DealIndex, usize)> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, keys)| keys.iter().map(move |&k| (k, g)))
        .collect();
    tagged.sort_unstable();
    tagged.dedup_by_key(|(k, _)| *k);
    let mut counts = vec![0u64; groups.len()];
    let mut stmt = tx.prepare_cached(INSERT_DEAL).at(path)?;
    for (key, g) in &tagged {
        counts[*g] += insert_deal(&mut stmt, key).at(path)?;
    }
    Ok(counts)
}

impl Store {
    /// Stores a set in one transaction: its deals (those already stored are shared), the
    /// `sets` row and one `set_boards` row per `(board, deal)` pair of `boards` (in any
    /// order; a pair given twice counts once).
    ///
    /// If a set named `set.name` exists with the same `seed_sha256` and exactly the same
    /// `(board, deal)` pairs, nothing is written and the outcome has `already_stored`
    /// (its other columns are not compared).
    ///
    /// ```
    /// use dealdex::{DealIndex, NewSet, Store};
    /// let mut store = Store::open_in_memory()?;
    /// let key = DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?;
    /// let set = NewSet {
    ///     name: "club-night".into(),
    ///     first_board: 1,
    ///     last_board: 1,
    ///     scheme: dealdex::Scheme::Pavlicek,
    ///     generator: "doc test".into(),
    ///     seed_sha256: None,
    /// };
    /// let first = store.store_set(&set, &[(1, key)])?;
    /// assert_eq!((first.new_deals, first.already_stored), (1, false));
    /// let again = store.store_set(&set, &[(1, key)])?;
    /// assert_eq!((again.set_id, again.already_stored), (first.set_id, true));
    /// assert!(store.store_set(&set, &[(2, key)]).is_err()); // same name, other boards
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// All of them leave the database unchanged.
    /// - [`StoreErrorKind::SetExists`]: a set of that name exists with another seed hash or
    ///   other boards.
    /// - [`StoreErrorKind::DuplicateBoard`]: `boards` gives one board two different deals.
    /// - [`StoreErrorKind::BoardOutOfRange`]: a board number, `first_board` or `last_board`
    ///   exceeds `i64::MAX`.
    /// - [`StoreErrorKind::CorruptKey`], [`StoreErrorKind::CorruptSeedHash`],
    ///   [`StoreErrorKind::CorruptBoard`]: the existing set of that name holds bad data.
    /// - [`StoreErrorKind::Sqlite`]: SQLite failed (locked, disk full, …).
    pub fn store_set(
        &mut self,
        set: &NewSet,
        boards: &[(u64, DealIndex)],
    ) -> Result<SetOutcome, StoreError> {
        Ok(self
            .store_set_with_plays_and_tables(set, boards, &PlaysAndTables::default())?
            .0)
    }

    /// [`Store::store_set`] with the set's plays and double-dummy tables stored in the same
    /// transaction (so a crash never leaves the set without them); returns the outcome and
    /// what of the plays and tables was new. When the identical set is already stored, its
    /// plays and tables not yet stored are added. A table is stored only for a deal that has
    /// none.
    ///
    /// # Errors
    /// As [`Store::store_set`]; also [`StoreErrorKind::BoardOutOfRange`] for a play's board
    /// above `i64::MAX`. Nothing is stored on error.
    pub fn store_set_with_plays_and_tables(
        &mut self,
        set: &NewSet,
        boards: &[(u64, DealIndex)],
        plays_and_tables: &PlaysAndTables,
    ) -> Result<(SetOutcome, PlaysAndTablesStored), StoreError> {
        let (_, outcome, stored) = self.store_set_as(set, boards, plays_and_tables, false)?;
        Ok((outcome, stored))
    }

    /// [`Store::store_set`] under the first of `set.name`, `<name>-2`, `<name>-3`, … that is
    /// free or already holds the identical set (same seed hash, same `(board, deal)` pairs),
    /// chosen inside the set's write transaction: two processes storing sets of one base
    /// name at once get different names, and storing the same set again finds it (the
    /// outcome has `already_stored`) instead of storing a copy. Returns the name chosen.
    ///
    /// ```
    /// use dealdex::{DealIndex, NewSet, Store};
    /// let mut store = Store::open_in_memory()?;
    /// let key = DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?;
    /// let set = NewSet {
    ///     name: "club".into(),
    ///     first_board: 1,
    ///     last_board: 1,
    ///     scheme: dealdex::Scheme::Pavlicek,
    ///     generator: "doc test".into(),
    ///     seed_sha256: Some([7; 32]),
    /// };
    /// assert_eq!(store.store_set_unique(&set, &[(1, key)])?.0, "club");
    /// let (name, again) = store.store_set_unique(&set, &[(1, key)])?;
    /// assert_eq!((name.as_str(), again.already_stored), ("club", true));
    /// let other = NewSet { seed_sha256: Some([8; 32]), ..set };
    /// assert_eq!(store.store_set_unique(&other, &[(1, key)])?.0, "club-2");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Store::store_set`], except that a name taken by another set is no error;
    /// [`StoreErrorKind::SetExists`] only when 1,000,000 names are taken.
    pub fn store_set_unique(
        &mut self,
        set: &NewSet,
        boards: &[(u64, DealIndex)],
    ) -> Result<(String, SetOutcome), StoreError> {
        let (name, outcome, _) =
            self.store_set_as(set, boards, &PlaysAndTables::default(), true)?;
        Ok((name, outcome))
    }

    /// [`Store::store_set_with_plays_and_tables`]; with `unique`, under the first free or
    /// identical name ([`Store::store_set_unique`]). Returns the name stored under.
    fn store_set_as(
        &mut self,
        set: &NewSet,
        boards: &[(u64, DealIndex)],
        plays_and_tables: &PlaysAndTables,
        unique: bool,
    ) -> Result<(String, SetOutcome, PlaysAndTablesStored), StoreError> {
        let play_boards = plays::play_boards(&plays_and_tables.plays)?;
        let first = board_to_sql(set.first_board)?;
        let last = board_to_sql(set.last_board)?;
        let mut rows = boards
            .iter()
            .map(|&(b, k)| Ok((board_to_sql(b)?, k)))
            .collect::<Result<Vec<(i64, DealIndex)>, StoreError>>()?;
        rows.sort_unstable();
        rows.dedup();
        if let Some(w) = rows.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(StoreErrorKind::DuplicateBoard {
                board: w[0].0 as u64,
            }
            .into());
        }

        // Every board's deal is inserted in the same transaction just before the boards, so
        // the per-row foreign-key lookup into `deals` proves nothing and cost 3.7 s of 5.2 s
        // for a 1,000,000-board set. It is switched off for this transaction only (the pragma
        // cannot change inside one) and back on whatever happens.
        self.reader
            .conn
            .pragma_update(None, "foreign_keys", false)
            .at(&self.reader.path)?;
        let result = self.store_set_unchecked(
            set,
            unique,
            (first, last),
            &rows,
            (plays_and_tables, &play_boards),
        );
        let restored = self
            .conn
            .pragma_update(None, "foreign_keys", true)
            .at(&self.reader.path);
        let outcome = result?;
        restored?;
        Ok(outcome)
    }

    /// The transaction of [`Store::store_set`] (with `unique`, of
    /// [`Store::store_set_unique`]), run with foreign keys off.
    fn store_set_unchecked(
        &mut self,
        set: &NewSet,
        unique: bool,
        (first, last): (i64, i64),
        rows: &[(i64, DealIndex)],
        (plays_and_tables, play_boards): (&PlaysAndTables, &[Option<i64>]),
    ) -> Result<(String, SetOutcome, PlaysAndTablesStored), StoreError> {
        let (tx, path) = self.write_transaction()?;
        let mut name = set.name.clone();
        for n in 2u32.. {
            let existing = tx
                .query_row(
                    "SELECT id, seed_sha256 FROM sets WHERE name = ?1",
                    [&name],
                    |r| Ok((r.get::<_, i64>(0)?, seed_from_sql(r.get_ref(1)?))),
                )
                .optional()
                .at(path)?;
            let Some((set_id, seed)) = existing else {
                break;
            };
            // The boards are read only when the seed hash matches.
            let same = seed? == set.seed_sha256 && {
                let stored = read_set_boards(&tx, set_id, path)?;
                stored.len() == rows.len()
                    && stored
                        .iter()
                        .zip(rows)
                        .all(|(&(b, k), &(rb, rk))| b as i64 == rb && k == rk)
            };
            if same {
                let new_plays = insert_plays_and_tables(
                    &tx,
                    path,
                    Some(set_id),
                    plays_and_tables,
                    play_boards,
                )?;
                tx.commit().at(path)?;
                let outcome = SetOutcome {
                    set_id,
                    new_deals: 0,
                    already_stored: true,
                };
                return Ok((name, outcome, new_plays));
            }
            if !unique || n > 1_000_000 {
                // Dropping `tx` rolls back a transaction that wrote nothing.
                return Err(StoreErrorKind::SetExists { name }.into());
            }
            name = format!("{}-{n}", set.name);
        }

        let mut keys: Vec<DealIndex> = rows.iter().map(|&(_, k)| k).collect();
        sort_dedup_keys(&mut keys);
        let new_deals = insert_sorted_keys(&tx, &keys).at(path)?;
        tx.execute(
            "INSERT INTO sets(name, first_board, last_board, scheme, generator, seed_sha256)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                name,
                first,
                last,
                set.scheme.name(),
                set.generator,
                set.seed_sha256
            ],
        )
        .at(path)?;
        let set_id = tx.last_insert_rowid();
        insert_boards(&tx, set_id, rows).at(path)?;
        let new_plays =
            insert_plays_and_tables(&tx, path, Some(set_id), plays_and_tables, play_boards)?;
        tx.commit().at(path)?;
        let outcome = SetOutcome {
            set_id,
            new_deals,
            already_stored: false,
        };
        Ok((name, outcome, new_plays))
    }
}

/// Sorts keys into B-tree order (SQLite's BLOB order: bytes compared from the first) on
/// rayon's threads, in place, and drops repeats: what [`insert_sorted_keys`] takes.
fn sort_dedup_keys(keys: &mut Vec<DealIndex>) {
    use rayon::slice::ParallelSliceMut as _;
    keys.par_sort_unstable();
    keys.dedup();
}

/// Inserts keys that are sorted and distinct; returns how many were new.
///
/// The CHECK of `deals.key` (a 13-byte blob) is off for these statements and on again after,
/// whatever happens: each key is a [`DealIndex`], so it cannot fail. Because the CHECK calls
/// functions, which may fail halfway through a statement, SQLite otherwise keeps a statement
/// journal: a copy of every page that a 64-row statement touches. That was 21 % of a bulk
/// ingest's instructions (callgrind, 300,000 deals: 2,851 M with the CHECK, 2,254 M without).
fn insert_sorted_keys(conn: &Connection, keys: &[DealIndex]) -> rusqlite::Result<u64> {
    conn.pragma_update(None, "ignore_check_constraints", true)?;
    let inserted = insert_sorted_keys_unchecked(conn, keys);
    let restored = conn.pragma_update(None, "ignore_check_constraints", false);
    let new = inserted?;
    restored?;
    Ok(new)
}

/// [`insert_sorted_keys`] with the CHECK constraints already off.
fn insert_sorted_keys_unchecked(conn: &Connection, keys: &[DealIndex]) -> rusqlite::Result<u64> {
    let mut new = 0u64;
    let mut chunks = keys.chunks_exact(CHUNK);
    if chunks.len() > 0 {
        let mut stmt = conn.prepare_cached(INSERT_DEALS_CHUNK.as_str())?;
        for chunk in &mut chunks {
            for (i, key) in chunk.iter().enumerate() {
                bind_deal_row(&mut stmt, i, key)?;
            }
            // INSERT OR IGNORE counts only the rows it inserted (sqlite3_changes).
            new += stmt.raw_execute()? as u64;
        }
    }
    let mut stmt = conn.prepare_cached(INSERT_DEAL)?;
    for key in chunks.remainder() {
        new += insert_deal(&mut stmt, key)?;
    }
    Ok(new)
}

/// Inserts the boards of set `set_id`.
///
/// A large set into a table holding fewer boards than it brings (a new database, say) is
/// inserted with the `set_boards(deal)` index dropped and rebuilt after, in the same
/// transaction: the rows arrive in board order, so each would otherwise insert into that index
/// at a random place, while `CREATE INDEX` sorts the keys once and writes the index in order.
/// Stores a file's plays (of the set `set_id`, when given) and double-dummy tables in `tx`;
/// what of them was new.
fn insert_plays_and_tables(
    tx: &rusqlite::Transaction<'_>,
    path: &str,
    set_id: Option<i64>,
    plays_and_tables: &PlaysAndTables,
    play_boards: &[Option<i64>],
) -> Result<PlaysAndTablesStored, StoreError> {
    let t = plays_and_tables;
    Ok(PlaysAndTablesStored {
        plays: match t.plays.is_empty() {
            true => 0,
            false => plays::insert_plays(tx, path, set_id, &t.plays, play_boards)?,
        },
        played: played::insert_played(tx, path, set_id, &t.played)?,
        dd: stored_dd::insert_dd_rows(tx, path, &t.dd, &t.dd_source)?,
    })
}

fn insert_boards(
    conn: &Connection,
    set_id: i64,
    rows: &[(i64, DealIndex)],
) -> rusqlite::Result<()> {
    let rebuild = rows.len() >= DEFERRED_INDEX_BOARDS && {
        let stored: i64 = conn.query_row("SELECT count(*) FROM set_boards", [], |r| r.get(0))?;
        stored <= rows.len() as i64
    };
    if rebuild {
        conn.execute_batch("DROP INDEX set_boards_deal")?;
    }
    // With the index on `deal`, one row a statement: 64-row statements ran 3x slower
    // (4.6 s against 1.5 s for 1,000,000 boards). Without it, 64 rows a statement.
    let mut rest = rows;
    if rebuild {
        let mut chunks = rows.chunks_exact(CHUNK);
        let mut stmt = conn.prepare_cached(INSERT_BOARDS_CHUNK.as_str())?;
        for chunk in &mut chunks {
            for (i, (board, key)) in chunk.iter().enumerate() {
                stmt.raw_bind_parameter(3 * i + 1, set_id)?;
                stmt.raw_bind_parameter(3 * i + 2, board)?;
                stmt.raw_bind_parameter(3 * i + 3, key.0)?;
            }
            stmt.raw_execute()?;
        }
        rest = chunks.remainder();
    }
    let mut stmt = conn.prepare_cached(INSERT_BOARD_ONE)?;
    for (board, key) in rest {
        stmt.execute(params![set_id, board, &key.0])?;
    }
    if rebuild {
        // The definition of migration 01, word for word.
        conn.execute_batch("CREATE INDEX set_boards_deal ON set_boards(deal)")?;
    }
    Ok(())
}

/// The smallest set whose boards are inserted with the `set_boards(deal)` index rebuilt
/// after ([`insert_boards`]); below it the rebuild of the boards already stored costs more
/// than the random inserts it saves.
const DEFERRED_INDEX_BOARDS: usize = 50_000;

/// The boards of set `set_id`, ordered by board.
fn read_set_boards(
    conn: &Connection,
    set_id: i64,
    path: &str,
) -> Result<Vec<(u64, DealIndex)>, StoreError> {
    let mut stmt = conn
        .prepare_cached("SELECT board, deal FROM set_boards WHERE set_id = ?1 ORDER BY board")
        .at(path)?;
    let mut rows = stmt.query([set_id]).at(path)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().at(path)? {
        let board = board_from_sql(row.get(0).at(path)?)?;
        let key = key_from_sql(row.get_ref(1).at(path)?)?;
        out.push((board, key));
    }
    Ok(out)
}

fn board_to_sql(board: u64) -> Result<i64, StoreError> {
    i64::try_from(board).map_err(|_| StoreErrorKind::BoardOutOfRange { board }.into())
}

/// A stored scheme name: exactly one of the [`Scheme::name`]s dealdex writes.
fn scheme_from_sql(value: String) -> Result<Scheme, StoreError> {
    Scheme::ALL
        .into_iter()
        .find(|s| s.name() == value)
        .ok_or(StoreErrorKind::CorruptScheme { value }.into())
}

fn board_from_sql(value: i64) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(|_| StoreErrorKind::CorruptBoard { value }.into())
}

/// Size in bytes of a stored value that is not what we expect.
fn value_len(value: ValueRef<'_>) -> usize {
    match value {
        ValueRef::Null => 0,
        ValueRef::Integer(_) | ValueRef::Real(_) => 8,
        ValueRef::Text(t) | ValueRef::Blob(t) => t.len(),
    }
}

/// A blob of exactly `N` bytes; else the length the value has ([`value_len`]).
fn fixed_blob<const N: usize>(value: ValueRef<'_>) -> Result<[u8; N], usize> {
    match value {
        ValueRef::Blob(b) => <[u8; N]>::try_from(b).map_err(|_| b.len()),
        other => Err(value_len(other)),
    }
}

fn key_from_sql(value: ValueRef<'_>) -> Result<DealIndex, StoreError> {
    fixed_blob(value)
        .map(DealIndex)
        .map_err(|len| StoreErrorKind::CorruptKey { len }.into())
}

fn seed_from_sql(value: ValueRef<'_>) -> Result<Option<[u8; 32]>, StoreError> {
    match value {
        ValueRef::Null => Ok(None),
        value => fixed_blob(value)
            .map(Some)
            .map_err(|len| StoreErrorKind::CorruptSeedHash { len }.into()),
    }
}

impl StoreReader {
    /// The database path as given to [`Store::open`] (or `:memory:`), as errors name it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The underlying connection, for queries this module does not offer. Writing
    /// through it bypasses the store's checks.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// The schema version recorded in the file (`PRAGMA user_version`): the number of
    /// migrations applied, [`Store::SCHEMA_VERSION`] for the current schema.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the query fails; [`StoreErrorKind::Migration`] if the
    /// recorded version is negative.
    pub fn schema_version(&self) -> Result<usize, StoreError> {
        let v: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .at(&self.path)?;
        usize::try_from(v).map_err(|_| {
            StoreErrorKind::Migration {
                path: self.path.clone(),
                error: rusqlite_migration::Error::InvalidUserVersion,
            }
            .into()
        })
    }

    /// A set name not yet used: `base` if free, else the first free of `base-2`,
    /// `base-3`, ….
    ///
    /// ```
    /// let store = dealdex::Store::open_in_memory()?;
    /// assert_eq!(store.unused_set_name("club")?, "club");
    /// # Ok::<(), dealdex::StoreError>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if a query fails.
    pub fn unused_set_name(&self, base: &str) -> Result<String, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT EXISTS(SELECT 1 FROM sets WHERE name = ?1)")
            .at(&self.path)?;
        let mut name = base.to_owned();
        let mut n: u64 = 1;
        while stmt
            .query_row([&name], |r| r.get::<_, bool>(0))
            .at(&self.path)?
        {
            n += 1;
            name = format!("{base}-{n}");
        }
        Ok(name)
    }

    /// Whether the deal is stored.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn contains(&self, key: &DealIndex) -> Result<bool, StoreError> {
        self.conn
            .prepare_cached("SELECT EXISTS(SELECT 1 FROM deals WHERE key = ?1)")
            .and_then(|mut s| s.query_row([&key.0], |r| r.get(0)))
            .at(&self.path)
    }

    /// Every board at which the deal appears, ordered by set name then board number;
    /// empty if it is in no set (even if stored by [`Store::insert_deals`]).
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptBoard`] for a negative stored board number;
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn boards_of(&self, key: &DealIndex) -> Result<Vec<SetBoard>, StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT s.name, b.board FROM set_boards b JOIN sets s ON s.id = b.set_id
                 WHERE b.deal = ?1 ORDER BY s.name, b.board",
            )
            .at(path)?;
        let mut rows = stmt.query([&key.0]).at(path)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().at(path)? {
            out.push(SetBoard {
                set_name: row.get(0).at(path)?,
                board: board_from_sql(row.get(1).at(path)?)?,
            });
        }
        Ok(out)
    }

    /// The number of distinct deals stored.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn deal_count(&self) -> Result<u64, StoreError> {
        self.row_count("deals")
    }

    /// The number of rows of `table`, one of the store's tables.
    fn row_count(&self, table: &str) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .at(&self.path)?;
        Ok(n.unsigned_abs())
    }

    /// The set named `name`, or `None`.
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptSeedHash`], [`StoreErrorKind::CorruptBoard`] or
    /// [`StoreErrorKind::CorruptScheme`] for bad stored values; [`StoreErrorKind::Sqlite`] if the
    /// query fails or a column has the wrong type.
    pub fn set(&self, name: &str) -> Result<Option<SetInfo>, StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT id, name, first_board, last_board, scheme, generator, created_at,
                        seed_sha256
                 FROM sets WHERE name = ?1",
            )
            .at(path)?;
        let mut rows = stmt.query([name]).at(path)?;
        let Some(row) = rows.next().at(path)? else {
            return Ok(None);
        };
        let id = row.get(0).at(path)?;
        let name = row.get(1).at(path)?;
        let first_board = board_from_sql(row.get(2).at(path)?)?;
        let last_board = board_from_sql(row.get(3).at(path)?)?;
        let scheme: String = row.get(4).at(path)?;
        let generator = row.get(5).at(path)?;
        let created_at = row.get(6).at(path)?;
        let seed_sha256 = seed_from_sql(row.get_ref(7).at(path)?)?;
        Ok(Some(SetInfo {
            id,
            name,
            first_board,
            last_board,
            scheme: scheme_from_sql(scheme)?,
            generator,
            created_at,
            seed_sha256,
        }))
    }

    /// The names of the stored sets, oldest first (in the order they were stored).
    ///
    /// ```
    /// let store = dealdex::Store::open_in_memory()?;
    /// assert!(store.set_names()?.is_empty());
    /// # Ok::<(), dealdex::StoreError>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn set_names(&self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT name FROM sets ORDER BY id")
            .at(&self.path)?;
        let names = stmt
            .query_map([], |r| r.get(0))
            .at(&self.path)?
            .collect::<Result<Vec<String>, _>>()
            .at(&self.path)?;
        Ok(names)
    }

    /// The `(board, deal)` pairs of the set named `name`, ordered by board; empty if no
    /// set has that name (tell the cases apart with [`StoreReader::set`](crate::StoreReader::set)).
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptKey`] or [`StoreErrorKind::CorruptBoard`] for bad stored values;
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn set_boards(&self, name: &str) -> Result<Vec<(u64, DealIndex)>, StoreError> {
        let id: Option<i64> = self
            .conn
            .query_row("SELECT id FROM sets WHERE name = ?1", [name], |r| r.get(0))
            .optional()
            .at(&self.path)?;
        match id {
            Some(id) => read_set_boards(&self.conn, id, &self.path),
            None => Ok(Vec::new()),
        }
    }

    /// Runs SQLite's `PRAGMA integrity_check` and `PRAGMA foreign_key_check`; returns
    /// `"ok"` when both find nothing, else their findings, one per line.
    ///
    /// ```
    /// let store = dealdex::Store::open_in_memory()?;
    /// assert_eq!(store.integrity_check()?, "ok");
    /// # Ok::<(), dealdex::StoreError>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the checks cannot run (e.g. the file is not a database).
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        let path = &self.path;
        let mut lines = Vec::new();
        let mut stmt = self.conn.prepare("PRAGMA integrity_check").at(path)?;
        let mut rows = stmt.query([]).at(path)?;
        while let Some(row) = rows.next().at(path)? {
            let line: String = row.get(0).at(path)?;
            if line != "ok" {
                lines.push(line);
            }
        }
        let mut stmt = self.conn.prepare("PRAGMA foreign_key_check").at(path)?;
        let mut rows = stmt.query([]).at(path)?;
        while let Some(row) = rows.next().at(path)? {
            let table: String = row.get(0).at(path)?;
            let parent: String = row.get(2).at(path)?;
            lines.push(format!(
                "foreign key violation: a row of {table} references a missing row of {parent}"
            ));
        }
        Ok(if lines.is_empty() {
            "ok".to_owned()
        } else {
            lines.join("\n")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_migrations_are_valid() {
        migrations().validate().unwrap();
    }

    #[test]
    fn schema_version_counts_the_migrations() {
        crate::heap::install();
        let mut conn = Connection::open_in_memory().unwrap();
        crate::sqlfn::register(&conn).unwrap();
        assert_eq!(
            migrations().pending_migrations(&conn).unwrap(),
            Store::SCHEMA_VERSION as i32
        );
        migrations().to_latest(&mut conn).unwrap();
        let v: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, Store::SCHEMA_VERSION as i64);
        check_schema_version(&conn, ":memory:").unwrap();
    }

    #[test]
    fn insert_sql_binds_key_and_stored_features() {
        assert_eq!(INSERT_DEAL.matches('?').count(), ROW_PARAMS);
        assert_eq!(INSERT_DEALS_CHUNK.matches('?').count(), ROW_PARAMS * CHUNK);
    }
}
