//! The crate's one error type in rust-csv's style, [`StoreError`], and its kinds
//! ([`StoreErrorKind`]), which decide its class.

use std::time::Duration;

#[cfg(doc)]
use crate::ReadOnlyStore;
use crate::Store;
use crate::model::index::DealIndex;
#[cfg(doc)]
use crate::model::number::Scheme;
use crate::model::{Classify, ErrorClass};

crate::classified! {
    /// What went wrong in a [`Store`] call: its kind ([`StoreError::kind`],
    /// [`StoreError::into_kind`]) says what, and decides its class ([`Classify::class`]: bad
    /// input, a corrupt store, busy or internal). [`StoreError::position`] is always `None`
    /// (no kind is about a place in a text; the message names the database).
    ///
    /// Errors from SQLite and from the schema migrations carry the database path (or
    /// `:memory:`) in their message, e.g. `dealdex.db: database is locked`.
    ///
    /// ```
    /// use dealdex::{Classify, ErrorClass, StoreError, StoreErrorKind};
    /// let e = StoreError::from(StoreErrorKind::CorruptBoard { value: -5 });
    /// assert_eq!(e.to_string(), "stored board number -5 is negative");
    /// assert_eq!((e.class(), e.position()), (ErrorClass::CorruptStore, None));
    /// assert!(matches!(e.into_kind(), StoreErrorKind::CorruptBoard { value: -5 }));
    /// ```
    pub struct StoreError(Box<StoreErrorKind>), with position
}

/// The kinds of [`StoreError`]: what failed, with the database path, row, set or board it is
/// about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// SQLite failed: cannot open the file, not a database, locked by another writer
    /// (`database is locked` after the busy timeout), disk full, a constraint, ….
    ///
    /// The message is `PATH: SQLITE MESSAGE`; the rusqlite error is in `error` (not
    /// repeated as [`std::error::Error::source`], to keep chained messages short).
    #[error("{path}: {error}")]
    Sqlite {
        /// The database path as given to [`Store::open`], or `:memory:`.
        path: String,
        /// The underlying rusqlite error.
        error: rusqlite::Error,
    },
    /// The schema could not be brought to the current version: the file was written by a
    /// newer dealdex (its `user_version` is ahead), its `user_version` is invalid, or a
    /// migration's SQL failed.
    #[error("{path}: cannot migrate the schema: {}", migration_message(.error))]
    Migration {
        /// The database path as given to [`Store::open`], or `:memory:`.
        path: String,
        /// The underlying rusqlite_migration error.
        error: rusqlite_migration::Error,
    },
    /// [`Store::store_set`]: a set of that name exists with a different seed hash or
    /// different boards.
    #[error("set {name:?} already exists with different content")]
    SetExists {
        /// The set name.
        name: String,
    },
    /// [`Store::store_set`]: the boards given hold the same board number twice with
    /// different deals.
    #[error("board {board} is given twice with different deals")]
    DuplicateBoard {
        /// The board number.
        board: u64,
    },
    /// A board number (or a set's first/last board) above `i64::MAX`, which SQLite's
    /// signed 64-bit INTEGER cannot hold.
    #[error("board number {board} is too large to store (maximum {})", i64::MAX)]
    BoardOutOfRange {
        /// The board number.
        board: u64,
    },
    /// A key read from the file is not a 13-byte BLOB (the file was altered outside dealdex).
    #[error("stored deal key has {len} bytes, expected 13")]
    CorruptKey {
        /// The stored value's size in bytes (a TEXT's byte length, 8 for a number, 0 for NULL).
        len: usize,
    },
    /// A seed hash read from the file is neither NULL nor a 32-byte BLOB.
    #[error("stored seed hash has {len} bytes, expected 32")]
    CorruptSeedHash {
        /// The stored value's size in bytes (as for [`StoreErrorKind::CorruptKey`]).
        len: usize,
    },
    /// A stored 13-byte key does not decode to a deal (the file was altered outside
    /// dealdex).
    #[error("stored deal key {key}: {error}")]
    CorruptDeal {
        /// The key as stored.
        key: DealIndex,
        /// Why it is not a deal.
        error: crate::model::Error,
    },
    /// A double-dummy table read from the file (migration 05's `dd.tricks`) does not decode.
    #[error("stored DD table of deal {key}: {error}")]
    CorruptDd {
        /// The deal whose row is bad.
        key: DealIndex,
        /// What is wrong with it.
        error: crate::model::Error,
    },
    /// A row of `leads` (migration 08) that dealdex does not write: not 52 bytes, a count
    /// above 13, or other cards than the leader holds in the deal.
    #[error("stored leads of deal {key} by {leader}: {why}")]
    CorruptLeads {
        /// The deal whose row is bad.
        key: DealIndex,
        /// The row's leader.
        leader: crate::model::card::Seat,
        /// What is wrong with it.
        why: String,
    },
    /// A `dd_sources` row (migration 07) that dealdex does not write: an unknown `kind`, or
    /// a `sha256` that is not 32 bytes.
    #[error("stored source {id} of double-dummy tables: {what}")]
    CorruptDdSource {
        /// The row's id.
        id: i64,
        /// What is wrong with it.
        what: String,
    },
    /// A set's `scheme` read from the file is not the name of a [`Scheme`] (dealdex writes
    /// only [`Scheme::name`]s).
    #[error(
        "stored numbering scheme {value:?} is not one dealdex knows (pavlicek, andrews, bigdeal)"
    )]
    CorruptScheme {
        /// The stored value.
        value: String,
    },
    /// A board number read from the file is negative.
    #[error("stored board number {value} is negative")]
    CorruptBoard {
        /// The stored value.
        value: i64,
    },
    /// A row of `plays` (migration 04) that is not a legal play of its deal.
    #[error("stored play {id}: {why}")]
    CorruptPlay {
        /// The row's id.
        id: i64,
        /// What is wrong with it.
        why: String,
    },
    /// [`ReadOnlyStore::open`]: there is no file at the path (a
    /// reader never creates one). Displays as `no database at PATH`.
    #[error("no database at {path}")]
    NoDatabase {
        /// The database path as given.
        path: String,
    },
    /// The file exists but is no dealdex database: its schema version (`PRAGMA
    /// user_version`) is 0, and it is empty or holds other tables. The commands that work on
    /// what is stored ([`Store::open_existing`], [`ReadOnlyStore::open`]) refuse it, and
    /// [`Store::open`] refuses one with other tables (a foreign SQLite file) rather than add
    /// dealdex's tables to it ([`Store::open_foreign`] does, on request). Nothing is written.
    #[error(
        "{path} is not a dealdex database ({}); it was left as it is",
        if *foreign {
            "an SQLite file with other tables: dealdex's tables can be added beside them \
             (migrate foreign), or name another database"
        } else {
            "an empty file, or an SQLite file without dealdex's tables"
        }
    )]
    NotDealdex {
        /// The database path as given.
        path: String,
        /// True when the file holds tables of its own.
        foreign: bool,
    },
    /// [`ReadOnlyStore::open`]: the file's schema (`PRAGMA
    /// user_version`) is older than [`Store::SCHEMA_VERSION`]. A reader never upgrades a
    /// file; any command that writes to it ([`Store::open`]: `dealdex import`,
    /// `dealdex generate`) does, and the message says so. Version 0 is a file without
    /// dealdex's schema (e.g. an empty file).
    #[error(
        "{path}: schema version {found} is older than version {expected}, which this dealdex \
         reads; reading does not upgrade a file: a command that writes to it (e.g. dealdex \
         import or dealdex generate) upgrades it first"
    )]
    SchemaTooOld {
        /// The database path as given.
        path: String,
        /// The file's `user_version`.
        found: usize,
        /// [`Store::SCHEMA_VERSION`].
        expected: usize,
    },
    /// [`ReadOnlyStore::open`]: the file's schema (`PRAGMA
    /// user_version`) is newer than [`Store::SCHEMA_VERSION`]: a newer dealdex wrote it.
    #[error(
        "{path}: schema version {found} is newer than version {expected}, which this dealdex \
         reads: the file was written by a newer dealdex"
    )]
    SchemaTooNew {
        /// The database path as given.
        path: String,
        /// The file's `user_version`.
        found: usize,
        /// [`Store::SCHEMA_VERSION`].
        expected: usize,
    },
    /// [`Store::open`]: the `DEALDEX_BUSY_TIMEOUT` environment variable is not a number of
    /// seconds between 0 and 86400.
    #[error(
        "DEALDEX_BUSY_TIMEOUT={value:?}: expected the seconds a writer waits for another \
         writer's lock (0 to 86400, e.g. 60 or 0.5)"
    )]
    BadBusyTimeout {
        /// The variable's value.
        value: String,
    },
    /// A busy database said plainly ([`StoreError::explain_busy`]): another process kept
    /// the write lock past the busy timeout, and nothing of the failed transaction was
    /// stored.
    #[error(
        "database is busy: another process is writing {path}; waited {} for it, this \
         transaction stored nothing (DEALDEX_BUSY_TIMEOUT sets the wait in seconds)",
        waited.map_or_else(|| "the busy timeout".to_owned(), |d| format!("{} s", d.as_secs_f64()))
    )]
    Busy {
        /// The database path as given.
        path: String,
        /// The busy timeout waited ([`Store::busy_timeout`]); `None` when
        /// `DEALDEX_BUSY_TIMEOUT` cannot be read.
        waited: Option<Duration>,
    },
}

impl StoreError {
    /// True when SQLite gave up waiting for another connection's lock (`SQLITE_BUSY`, shown
    /// as `database is locked`): another process kept a write transaction open beyond the
    /// busy timeout ([`Store::busy_timeout`]). Nothing of the failed call was stored.
    pub fn is_busy(&self) -> bool {
        self.kind().is_busy()
    }

    /// This error with a busy database ([`StoreError::is_busy`]) said plainly, as
    /// [`StoreErrorKind::Busy`]: which file another process is writing, how long this one
    /// waited for it, that nothing of the failed transaction was stored, and how to wait
    /// longer. Other errors are returned as they are.
    ///
    /// ```
    /// use dealdex::{StoreError, StoreErrorKind};
    /// let e = StoreError::from(StoreErrorKind::NoDatabase { path: "d.db".into() });
    /// assert_eq!(e.explain_busy().to_string(), "no database at d.db");
    /// ```
    pub fn explain_busy(self) -> StoreError {
        let path = match self.kind() {
            StoreErrorKind::Sqlite { path, .. } | StoreErrorKind::Migration { path, .. }
                if self.is_busy() =>
            {
                path.clone()
            }
            _ => return self,
        };
        StoreErrorKind::Busy {
            path,
            waited: Store::busy_timeout().ok(),
        }
        .into()
    }
}

impl StoreErrorKind {
    /// [`StoreError::is_busy`] of a kind: [`StoreErrorKind::Busy`], or SQLite's
    /// `SQLITE_BUSY` in a SQLite or migration failure.
    fn is_busy(&self) -> bool {
        matches!(self, StoreErrorKind::Busy { .. })
            || self.sqlite_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
    }

    /// SQLite's primary result code, for SQLite's and the migrations' errors.
    fn sqlite_code(&self) -> Option<rusqlite::ErrorCode> {
        match self {
            StoreErrorKind::Sqlite { error, .. } => error.sqlite_error_code(),
            StoreErrorKind::Migration {
                error: rusqlite_migration::Error::RusqliteError { err, .. },
                ..
            } => err.sqlite_error_code(),
            _ => None,
        }
    }
}

crate::classified!(StoreErrorKind);
impl Classify for StoreErrorKind {
    /// A set that exists with other content, a board number SQLite cannot hold, a bad
    /// `DEALDEX_BUSY_TIMEOUT` or a missing file are bad input; rows or schemas dealdex does
    /// not write, and a file SQLite finds is no database or a damaged one, are a corrupt
    /// store; a lock held past the busy timeout is busy; other SQLite and migration failures
    /// are internal.
    fn class(&self) -> ErrorClass {
        use StoreErrorKind as E;
        match self {
            E::SetExists { .. }
            | E::DuplicateBoard { .. }
            | E::BoardOutOfRange { .. }
            | E::BadBusyTimeout { .. }
            | E::NoDatabase { .. }
            | E::NotDealdex { .. } => ErrorClass::BadInput,
            E::CorruptPlay { .. }
            | E::CorruptKey { .. }
            | E::CorruptDd { .. }
            | E::CorruptLeads { .. }
            | E::CorruptDdSource { .. }
            | E::CorruptDeal { .. }
            | E::CorruptBoard { .. }
            | E::CorruptSeedHash { .. }
            | E::CorruptScheme { .. }
            | E::SchemaTooOld { .. }
            | E::SchemaTooNew { .. } => ErrorClass::CorruptStore,
            e if e.is_busy() => ErrorClass::Busy,
            e if matches!(
                e.sqlite_code(),
                Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt)
            ) =>
            {
                ErrorClass::CorruptStore
            }
            _ => ErrorClass::Internal,
        }
    }
}

/// The migration error without the migration's whole SQL text, which rusqlite_migration
/// puts in its message.
fn migration_message(error: &rusqlite_migration::Error) -> String {
    use rusqlite_migration::{Error, MigrationDefinitionError};
    match error {
        Error::RusqliteError { err, .. } => err.to_string(),
        Error::MigrationDefinition(MigrationDefinitionError::DatabaseTooFarAhead) => {
            "the file's schema version is newer than this dealdex knows".to_owned()
        }
        other => other.to_string(),
    }
}

/// Attaches the database path to rusqlite errors; a busy database (another writer held the
/// lock past the timeout) becomes [`StoreErrorKind::Busy`], which says so plainly, whatever
/// command met it.
pub(crate) trait At<T> {
    /// `self`'s error as [`StoreErrorKind::Sqlite`] at `path`, or busy said plainly.
    fn at(self, path: &str) -> Result<T, StoreError>;
}

impl<T> At<T> for rusqlite::Result<T> {
    fn at(self, path: &str) -> Result<T, StoreError> {
        self.map_err(|error| {
            StoreError::from(StoreErrorKind::Sqlite {
                path: path.to_owned(),
                error,
            })
            .explain_busy()
        })
    }
}
