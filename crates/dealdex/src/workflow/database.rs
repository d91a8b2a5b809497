//! Which database a command uses, as typed: `--db`, with `--migrate-foreign` for the commands
//! that store, or with `--no-db` for those that can do without one. One declaration for every
//! command (with the `clap` feature they derive `clap::Args`, their doc comments the help).

use std::path::PathBuf;

use crate::workflow::generate::StoreChoice;

/// `--db`: the database file.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct Database {
    /// SQLite database file (default: dealdex.db, where the command uses one).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub db: Option<PathBuf>,
}

impl Database {
    /// The database file: the one given, else [`crate::DEFAULT_DATABASE`].
    pub fn path(&self) -> PathBuf {
        self.db.clone().unwrap_or(crate::DEFAULT_DATABASE.into())
    }
}

/// `--db` and `--migrate-foreign`, for the commands that may store.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct StoreDatabase {
    /// The database file.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub db: Database,
    /// Storing commands: add dealdex's tables to an SQLite file that holds other tables
    /// (refused without it, and the file left as it is).
    #[cfg_attr(feature = "clap", arg(long))]
    pub migrate_foreign: bool,
}

impl StoreDatabase {
    /// The database file ([`Database::path`]).
    pub fn path(&self) -> PathBuf {
        self.db.path()
    }
}

/// `--db` and `--no-db`, for the commands that can do without a database.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct OptionalDatabase {
    /// The database file.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub db: Database,
    /// Use no database: nothing is read from or stored in one.
    #[cfg_attr(feature = "clap", arg(long, conflicts_with = "db"))]
    pub no_db: bool,
}

impl OptionalDatabase {
    /// The database file ([`Database::path`]), `None` with `no_db`.
    pub fn path(&self) -> Option<PathBuf> {
        (!self.no_db).then(|| self.db.path())
    }

    /// Where a generate run stores, as asked: nowhere with `no_db`, the file given, else the
    /// default policy.
    pub fn store_choice(&self) -> StoreChoice {
        match (self.no_db, &self.db.db) {
            (true, _) => StoreChoice::Never,
            (false, Some(p)) => StoreChoice::File(p.clone()),
            (false, None) => StoreChoice::Default,
        }
    }
}
