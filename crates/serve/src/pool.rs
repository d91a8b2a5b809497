//! The server's open read-only connections to its database ([`Stores`]), kept between
//! requests in two pools, one a [`Lane`]: opening a connection per request (the file's schema
//! read and checked, dealdex's SQL functions registered, a cold page cache) was most of a deal
//! page's time under load (benches/RESULTS.md, issue 52).
//!
//! Each pool bounds how many requests of its lane read at once, so a queue of slow reads
//! (counts and pages of a query, facets, SQL, downloads) never holds the connections the
//! quick ones (a deal, the list of sets) need: a request waits for a connection without
//! holding a thread, then works on the blocking pool. Every connection is a
//! [`ReadOnlyStore`], with its guards (read-only file, no attached database, the authorizer);
//! one left inside a transaction by the SQL box (`BEGIN`) is closed rather than reused, so
//! that no request reads another's snapshot.

use std::path::PathBuf;
use std::time::Duration;

use deadpool::managed::{Manager, Metrics, Pool, PoolError, RecycleError, RecycleResult};
use dealdex::ReadOnlyStore;

use crate::{Error, ErrorKind, blocking};

/// Which pool a request reads through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    /// Reads of a few rows: a deal, the stored sets, a set's boards.
    Quick,
    /// Reads that may scan the deals: a query's count and page, its download, facets, the
    /// SQL box, a set's export.
    Scan,
}

/// The connections a [`Lane::Quick`] pool keeps open, at most: a few a core, since each
/// read is short and much of it waits on the file.
pub(crate) const QUICK_CONNECTIONS: usize = 8;

/// How long a request waits for a connection before it is answered busy (503).
pub(crate) const CONNECTION_WAIT: Duration = Duration::from_secs(30);

/// Opens [`ReadOnlyStore`]s on the database file for a pool.
#[derive(Debug)]
struct Opener {
    db: PathBuf,
}

impl Manager for Opener {
    type Type = ReadOnlyStore;
    type Error = Error;

    async fn create(&self) -> Result<ReadOnlyStore, Error> {
        let db = self.db.clone();
        // Opening reads the file: on the blocking pool, as every read.
        blocking(move || ReadOnlyStore::open(&db).map_err(Error::engine)).await
    }

    async fn recycle(&self, store: &mut ReadOnlyStore, _: &Metrics) -> RecycleResult<Error> {
        match store.connection().is_autocommit() {
            true => Ok(()),
            false => Err(RecycleError::message("left inside a transaction")),
        }
    }
}

/// The server's two pools of read-only connections over its database.
#[derive(Debug)]
pub(crate) struct Stores {
    quick: Pool<Opener>,
    scan: Pool<Opener>,
}

impl Stores {
    /// Pools over the database file `db` (opened when first needed: a file that is not there
    /// yet is the requests' error, not the server's). The scan lane holds a connection a
    /// core ([`dealdex::cpu`]'s count): a count that scans already uses every core.
    pub(crate) fn new(db: PathBuf) -> Stores {
        let pool = |size: usize| {
            Pool::builder(Opener { db: db.clone() })
                .max_size(size)
                .wait_timeout(Some(CONNECTION_WAIT))
                .runtime(deadpool::Runtime::Tokio1)
                .build()
                // Only a time bound without a runtime fails to build, and one is given.
                .expect("a pool with a runtime builds")
        };
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Stores {
            quick: pool(QUICK_CONNECTIONS),
            scan: pool(cores.max(2)),
        }
    }

    /// Runs `work` with a connection of `lane`'s pool on the blocking pool, once one is free.
    ///
    /// # Errors
    /// The engine's error when no connection opens (no database file, not a dealdex
    /// database); [`ErrorKind::Busy`] after [`CONNECTION_WAIT`] without a free connection;
    /// then `work`'s error.
    pub(crate) async fn read<T: Send + 'static>(
        &self,
        lane: Lane,
        work: impl FnOnce(&ReadOnlyStore) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        let pool = match lane {
            Lane::Quick => &self.quick,
            Lane::Scan => &self.scan,
        };
        let store = pool.get().await.map_err(|e| match e {
            PoolError::Backend(e) => e,
            PoolError::Timeout(_) => ErrorKind::Busy(format!(
                "no database connection came free in {} s: the server is saturated, try again",
                CONNECTION_WAIT.as_secs()
            ))
            .into(),
            e => ErrorKind::Internal(format!("the database connections failed: {e}")).into(),
        })?;
        blocking(move || work(&store)).await
    }
}
