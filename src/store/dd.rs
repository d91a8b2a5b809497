//! The `dd` table (migration 05): double-dummy tables stored with their deal.

use rusqlite::types::ValueRef;
use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::{At, StoreError, insert_deal, key_from_sql};
use crate::dd::TrickTable;
use crate::model::index::DealIndex;

/// Inserts `dd` rows inside the caller's transaction, for deals already stored; a deal that
/// has a table keeps it. Returns how many rows were new.
pub(super) fn insert_dd_rows(
    tx: &rusqlite::Transaction<'_>,
    path: &str,
    tables: &[(DealIndex, TrickTable)],
) -> Result<u64, StoreError> {
    let mut stmt = tx
        .prepare_cached("INSERT OR IGNORE INTO dd(deal, tricks) VALUES (?1, ?2)")
        .at(path)?;
    let mut new = 0;
    for (key, table) in tables {
        new += stmt.execute(params![&key.0, &table.to_bytes()]).at(path)? as u64;
    }
    Ok(new)
}

impl super::Store {
    /// Stores double-dummy tables in one transaction, each with its deal (inserted when
    /// missing, with its features). A deal already solved keeps its stored table. Returns
    /// how many tables were new.
    ///
    /// ```
    /// use dealdex::{Deal, DealIndex, Store};
    /// let deal: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    ///     .parse()?;
    /// let key = DealIndex::from_deal(&deal);
    /// let table = dealdex::dd::solve(&deal);
    /// let mut store = Store::open_in_memory()?;
    /// assert_eq!(store.store_dd(&[(key, table)])?, 1);
    /// assert_eq!(store.store_dd(&[(key, table)])?, 0);
    /// assert_eq!(store.dd_table(&key)?, Some(table));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when SQLite fails (busy past the timeout, disk full, …);
    /// nothing is stored then.
    pub fn store_dd(&mut self, tables: &[(DealIndex, TrickTable)]) -> Result<u64, StoreError> {
        let path = &self.path;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .at(path)?;
        {
            let mut deal_stmt = tx.prepare_cached(super::INSERT_DEAL).at(path)?;
            for (key, _) in tables {
                insert_deal(&mut deal_stmt, key).at(path)?;
            }
        }
        let new = insert_dd_rows(&tx, path, tables)?;
        tx.commit().at(path)?;
        Ok(new)
    }

    /// The stored double-dummy table of a deal, `None` when it is not solved here.
    ///
    /// # Errors
    /// [`StoreError::CorruptDd`] when the stored row does not decode (changed outside
    /// dealdex); [`StoreError::Sqlite`] if the query fails.
    pub fn dd_table(&self, key: &DealIndex) -> Result<Option<TrickTable>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT tricks FROM dd WHERE deal = ?1")
            .at(&self.path)?;
        let raw: Option<Vec<u8>> = stmt
            .query_row([&key.0], |r| match r.get_ref(0)? {
                ValueRef::Blob(b) => Ok(b.to_vec()),
                _ => Ok(Vec::new()),
            })
            .optional()
            .at(&self.path)?;
        raw.map(|b| decode(key, &b)).transpose()
    }

    /// The stored tables of `keys` (in order; `None` where a deal is not solved).
    ///
    /// # Errors
    /// As [`Store::dd_table`](Self::dd_table).
    pub fn dd_tables(&self, keys: &[DealIndex]) -> Result<Vec<Option<TrickTable>>, StoreError> {
        keys.iter().map(|k| self.dd_table(k)).collect()
    }

    /// Up to `limit` stored deals without a table, in key order after `after` (from the
    /// start when `None`), only the boards of set `set` when given: how `solve --all` and
    /// `solve --set` walk a large database in bounded memory and resume where a killed run
    /// stopped.
    ///
    /// # Errors
    /// [`StoreError::CorruptKey`] for a stored key that is not 13 bytes;
    /// [`StoreError::Sqlite`] if the query fails.
    pub fn unsolved_keys(
        &self,
        set: Option<&str>,
        after: Option<&DealIndex>,
        limit: usize,
    ) -> Result<Vec<DealIndex>, StoreError> {
        let after = after.map(|k| k.0.to_vec()).unwrap_or_default();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let sql = match set {
            None => {
                "SELECT d.key FROM deals d WHERE d.key > ?1 \
                 AND NOT EXISTS (SELECT 1 FROM dd WHERE dd.deal = d.key) \
                 ORDER BY d.key LIMIT ?2"
            }
            Some(_) => {
                "SELECT DISTINCT b.deal FROM set_boards b JOIN sets s ON s.id = b.set_id \
                 WHERE s.name = ?3 AND b.deal > ?1 \
                 AND NOT EXISTS (SELECT 1 FROM dd WHERE dd.deal = b.deal) \
                 ORDER BY b.deal LIMIT ?2"
            }
        };
        let mut stmt = self.conn.prepare_cached(sql).at(&self.path)?;
        let mut rows = match set {
            None => stmt.query(params![after, limit]),
            Some(name) => stmt.query(params![after, limit, name]),
        }
        .at(&self.path)?;
        let mut keys = Vec::new();
        while let Some(r) = rows.next().at(&self.path)? {
            keys.push(key_from_sql(r.get_ref(0).at(&self.path)?)?);
        }
        Ok(keys)
    }

    /// How many stored deals have a double-dummy table.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] if the query fails.
    pub fn dd_count(&self) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn
            .query_row("SELECT count(*) FROM dd", [], |r| r.get(0))
            .at(&self.path)?;
        Ok(n as u64)
    }
}

fn decode(key: &DealIndex, bytes: &[u8]) -> Result<TrickTable, StoreError> {
    TrickTable::from_bytes(bytes).map_err(|error| StoreError::CorruptDd { key: *key, error })
}
