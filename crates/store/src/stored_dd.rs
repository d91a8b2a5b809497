//! The `dd` table (migration 05): double-dummy tables stored with their deal, and where each
//! came from (migration 07: `dd.source`, a row of `dd_sources`).

use rusqlite::types::ValueRef;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use super::{At, StoreError, StoreErrorKind, insert_deal, key_from_sql};
use crate::dd::TrickTable;
use crate::model::index::DealIndex;

/// The `dd_sources` row of tables stored before migration 07 (`dd.source`'s default).
const UNKNOWN_SOURCE: i64 = 1;

/// Where a stored double-dummy table came from (migration 07's `dd_sources`).
///
/// Serialized with a `kind` tag: `{"kind":"solved","solver":"pons-dds 0.2.0"}`,
/// `{"kind":"file","file":"club.parquet","format":"parquet","sha256":"9f…"}` (the hash in 64
/// hex digits), `{"kind":"unknown"}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DdSource {
    /// Stored before the database recorded sources (schema version 6 or older): solved here
    /// or imported, the schema did not say. `solve --verify` checks these as it checks files'.
    #[default]
    Unknown,
    /// Solved by dealdex.
    Solved {
        /// The solver and its version, e.g. `pons-dds 0.2.0` ([`crate::dd::Solver::name`]).
        solver: String,
    },
    /// Read from a deal file by `import`, stored as the file gives it.
    File {
        /// The file's name as given to `import`.
        file: String,
        /// The format it was read as (`parquet`, `pbn`, …).
        format: String,
        /// SHA-256 of the file's bytes as read, when known.
        #[serde(serialize_with = "hex_hash")]
        sha256: Option<[u8; 32]>,
    },
}

/// A hash as 64 lowercase hex digits (`null` when absent).
fn hex_hash<S: serde::Serializer>(h: &Option<[u8; 32]>, s: S) -> Result<S::Ok, S::Error> {
    match h {
        Some(h) => s.serialize_str(&hex::encode(h)),
        None => s.serialize_none(),
    }
}

impl DdSource {
    /// The source of tables solved now: the selected solver ([`crate::dd::Solver::current`],
    /// [`crate::dd::Solver::name`]).
    pub fn solved_here() -> DdSource {
        DdSource::Solved {
            solver: crate::dd::Solver::current().name().to_owned(),
        }
    }

    /// Whether a table of this source was solved by dealdex (else `solve --verify` checks
    /// it).
    pub fn is_solved(&self) -> bool {
        matches!(self, DdSource::Solved { .. })
    }
}

/// `solved by pons-dds 0.2.0`, `file club.parquet (parquet, sha256 9f86d081…)`, `unknown
/// (stored before schema version 7)`.
impl std::fmt::Display for DdSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DdSource::Unknown => f.write_str("unknown (stored before schema version 7)"),
            DdSource::Solved { solver } => write!(f, "solved by {solver}"),
            DdSource::File {
                file,
                format,
                sha256,
            } => {
                write!(f, "file {file} ({format}")?;
                if let Some(h) = sha256 {
                    write!(f, ", sha256 {}", hex::encode(h))?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A stored table with its deal and the `dd_sources` row it came from
/// ([`StoreReader::dd_tables_to_verify`](crate::StoreReader::dd_tables_to_verify)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredDd {
    /// The deal.
    pub key: DealIndex,
    /// Its stored table.
    pub table: TrickTable,
    /// The id of its `dd_sources` row ([`StoreReader::dd_source_by_id`](crate::StoreReader::dd_source_by_id)).
    pub source: i64,
}

/// The `dd_sources` row for `source` inside the caller's transaction: 1 for unknown, the
/// solver's shared row (made when missing), or a new row for a file. Returns the id and
/// whether the row is new and of a file (removed again when no table uses it).
pub(super) fn source_id(
    tx: &rusqlite::Transaction<'_>,
    path: &str,
    source: &DdSource,
) -> Result<(i64, bool), StoreError> {
    match source {
        DdSource::Unknown => Ok((UNKNOWN_SOURCE, false)),
        DdSource::Solved { solver } => {
            let found: Option<i64> = tx
                .prepare_cached(
                    "SELECT id FROM dd_sources WHERE kind = 'solved' AND solver = ?1 \
                     ORDER BY id LIMIT 1",
                )
                .and_then(|mut s| s.query_row([solver], |r| r.get(0)).optional())
                .at(path)?;
            if let Some(id) = found {
                return Ok((id, false));
            }
            tx.execute(
                "INSERT INTO dd_sources(kind, solver) VALUES ('solved', ?1)",
                [solver],
            )
            .at(path)?;
            Ok((tx.last_insert_rowid(), false))
        }
        DdSource::File {
            file,
            format,
            sha256,
        } => {
            tx.execute(
                "INSERT INTO dd_sources(kind, file, format, sha256) VALUES ('file', ?1, ?2, ?3)",
                params![file, format, sha256.as_ref().map(|h| h.as_slice())],
            )
            .at(path)?;
            Ok((tx.last_insert_rowid(), true))
        }
    }
}

/// Inserts `dd` rows from `source` inside the caller's transaction, for deals already
/// stored; a deal that has a table keeps it (and its source). Returns how many rows were new.
/// [`super::Store::dd_table`] on `conn` (the store's connection or a transaction on it).
pub(super) fn dd_table_on(
    conn: &rusqlite::Connection,
    path: &str,
    key: &DealIndex,
) -> Result<Option<TrickTable>, StoreError> {
    let mut stmt = conn
        .prepare_cached("SELECT tricks FROM dd WHERE deal = ?1")
        .at(path)?;
    let raw: Option<Vec<u8>> = stmt
        .query_row([&key.0], |r| match r.get_ref(0)? {
            ValueRef::Blob(b) => Ok(b.to_vec()),
            _ => Ok(Vec::new()),
        })
        .optional()
        .at(path)?;
    raw.map(|b| decode(key, &b)).transpose()
}

pub(super) fn insert_dd_rows(
    tx: &rusqlite::Transaction<'_>,
    path: &str,
    tables: &[(DealIndex, TrickTable)],
    source: &DdSource,
) -> Result<u64, StoreError> {
    if tables.is_empty() {
        return Ok(0);
    }
    let (id, fresh) = source_id(tx, path, source)?;
    let mut stmt = tx
        .prepare_cached("INSERT OR IGNORE INTO dd(deal, tricks, source) VALUES (?1, ?2, ?3)")
        .at(path)?;
    let mut new = 0;
    for (key, table) in tables {
        new += stmt
            .execute(params![&key.0, &table.to_bytes(), id])
            .at(path)? as u64;
    }
    if fresh && new == 0 {
        tx.execute("DELETE FROM dd_sources WHERE id = ?1", [id])
            .at(path)?;
    }
    Ok(new)
}

impl super::Store {
    /// Stores double-dummy tables solved by this build ([`DdSource::solved_here`]) in one
    /// transaction, each with its deal (inserted when missing, with its features). A deal
    /// already solved keeps its stored table. Returns how many tables were new.
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
    /// [`StoreErrorKind::Sqlite`] when SQLite fails (busy past the timeout, disk full, …);
    /// nothing is stored then.
    pub fn store_dd(&mut self, tables: &[(DealIndex, TrickTable)]) -> Result<u64, StoreError> {
        self.store_dd_from(tables, &DdSource::solved_here())
    }

    /// [`Store::store_dd`](super::Store::store_dd) with the tables' source recorded as `source` (migration 07).
    ///
    /// # Errors
    /// As [`Store::store_dd`](super::Store::store_dd); nothing is stored then.
    pub fn store_dd_from(
        &mut self,
        tables: &[(DealIndex, TrickTable)],
        source: &DdSource,
    ) -> Result<u64, StoreError> {
        let (tx, path) = self.write_transaction()?;
        {
            let mut deal_stmt = tx.prepare_cached(super::INSERT_DEAL).at(path)?;
            for (key, _) in tables {
                insert_deal(&mut deal_stmt, key).at(path)?;
            }
        }
        let new = insert_dd_rows(&tx, path, tables, source)?;
        tx.commit().at(path)?;
        Ok(new)
    }

    /// Replaces the stored tables of deals already solved by tables solved by this build
    /// ([`DdSource::solved_here`]), in one transaction (`solve --verify --replace`); a deal
    /// without a stored table is left without one. Returns how many rows were replaced.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when SQLite fails; nothing is replaced then.
    pub fn replace_dd(&mut self, tables: &[(DealIndex, TrickTable)]) -> Result<u64, StoreError> {
        let (tx, path) = self.write_transaction()?;
        let (id, _) = source_id(&tx, path, &DdSource::solved_here())?;
        let mut replaced = 0;
        {
            let mut stmt = tx
                .prepare_cached("UPDATE dd SET tricks = ?2, source = ?3 WHERE deal = ?1")
                .at(path)?;
            for (key, table) in tables {
                replaced += stmt
                    .execute(params![&key.0, &table.to_bytes(), id])
                    .at(path)? as u64;
            }
        }
        tx.commit().at(path)?;
        Ok(replaced)
    }
}

fn decode(key: &DealIndex, bytes: &[u8]) -> Result<TrickTable, StoreError> {
    TrickTable::from_bytes(bytes)
        .map_err(|error| StoreErrorKind::CorruptDd { key: *key, error }.into())
}

impl super::StoreReader {
    /// Where the stored table of a deal came from (migration 07), `None` when it is not
    /// solved here.
    ///
    /// ```
    /// use dealdex::{DdSource, DealIndex, Store};
    /// let deal: dealdex::Deal =
    ///     "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse()?;
    /// let key = DealIndex::from_deal(&deal);
    /// let mut store = Store::open_in_memory()?;
    /// assert_eq!(store.dd_source(&key)?, None);
    /// store.store_dd(&[(key, dealdex::dd::solve(&deal))])?;
    /// assert_eq!(store.dd_source(&key)?, Some(DdSource::solved_here()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptDdSource`] for a source row dealdex does not write;
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn dd_source(&self, key: &DealIndex) -> Result<Option<DdSource>, StoreError> {
        let id: Option<i64> = self
            .conn
            .prepare_cached("SELECT source FROM dd WHERE deal = ?1")
            .and_then(|mut s| s.query_row([&key.0], |r| r.get(0)).optional())
            .at(&self.path)?;
        id.map(|id| self.dd_source_by_id(id)).transpose()
    }

    /// The `dd_sources` row `id` (a [`StoredDd::source`]); an id without a row reads as
    /// [`DdSource::Unknown`].
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptDdSource`] for an unknown `kind`, a missing solver or file name,
    /// or a hash that is not 32 bytes; [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn dd_source_by_id(&self, id: i64) -> Result<DdSource, StoreError> {
        type Row = (
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            Option<Vec<u8>>,
        );
        let row: Option<Row> = self
            .conn
            .prepare_cached(
                "SELECT kind, solver, file, format, sha256 FROM dd_sources WHERE id = ?1",
            )
            .and_then(|mut s| {
                s.query_row([id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                })
                .optional()
            })
            .at(&self.path)?;
        let corrupt = |what: &str| {
            StoreError::from(StoreErrorKind::CorruptDdSource {
                id,
                what: what.to_owned(),
            })
        };
        let Some((kind, solver, file, format, sha256)) = row else {
            return Ok(DdSource::Unknown);
        };
        match kind.as_str() {
            "unknown" => Ok(DdSource::Unknown),
            "solved" => Ok(DdSource::Solved {
                solver: solver.ok_or_else(|| corrupt("kind 'solved' without a solver"))?,
            }),
            "file" => Ok(DdSource::File {
                file: file.ok_or_else(|| corrupt("kind 'file' without a file name"))?,
                format: format.unwrap_or_default(),
                sha256: sha256
                    .map(|h| <[u8; 32]>::try_from(h.as_slice()))
                    .transpose()
                    .map_err(|_| corrupt("sha256 is not 32 bytes"))?,
            }),
            other => Err(corrupt(&format!("unknown kind {other:?}"))),
        }
    }

    /// Up to `limit` stored tables not solved by dealdex (read from files, or of unknown
    /// source), in key order after `after` (from the start when `None`), only those of the
    /// boards of set `set` when given: how `solve --verify` walks a large database in
    /// bounded memory.
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptKey`] for a stored key that is not 13 bytes,
    /// [`StoreErrorKind::CorruptDd`] for a table that does not decode;
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn dd_tables_to_verify(
        &self,
        set: Option<&str>,
        after: Option<&DealIndex>,
        limit: usize,
    ) -> Result<Vec<StoredDd>, StoreError> {
        let sql = (
            "SELECT dd.deal, dd.tricks, dd.source FROM dd \
             LEFT JOIN dd_sources s ON s.id = dd.source \
             WHERE dd.deal > ?1 AND s.kind IS NOT 'solved' \
             ORDER BY dd.deal LIMIT ?2",
            "SELECT DISTINCT dd.deal, dd.tricks, dd.source FROM set_boards b \
             JOIN sets t ON t.id = b.set_id JOIN dd ON dd.deal = b.deal \
             LEFT JOIN dd_sources s ON s.id = dd.source \
             WHERE t.name = ?3 AND b.deal > ?1 AND s.kind IS NOT 'solved' \
             ORDER BY dd.deal LIMIT ?2",
        );
        self.deal_page(sql, set, after, limit, |r| {
            let key = key_from_sql(r.get_ref(0).at(&self.path)?)?;
            let bytes = match r.get_ref(1).at(&self.path)? {
                ValueRef::Blob(b) => b.to_vec(),
                _ => Vec::new(),
            };
            Ok(StoredDd {
                key,
                table: decode(&key, &bytes)?,
                source: r.get(2).at(&self.path)?,
            })
        })
    }

    /// The stored double-dummy table of a deal, `None` when it is not solved here.
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptDd`] when the stored row does not decode (changed outside
    /// dealdex); [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn dd_table(&self, key: &DealIndex) -> Result<Option<TrickTable>, StoreError> {
        dd_table_on(&self.conn, &self.path, key)
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
    /// [`StoreErrorKind::CorruptKey`] for a stored key that is not 13 bytes;
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn unsolved_keys(
        &self,
        set: Option<&str>,
        after: Option<&DealIndex>,
        limit: usize,
    ) -> Result<Vec<DealIndex>, StoreError> {
        let sql = (
            "SELECT d.key FROM deals d WHERE d.key > ?1 \
             AND NOT EXISTS (SELECT 1 FROM dd WHERE dd.deal = d.key) \
             ORDER BY d.key LIMIT ?2",
            "SELECT DISTINCT b.deal FROM set_boards b JOIN sets s ON s.id = b.set_id \
             WHERE s.name = ?3 AND b.deal > ?1 \
             AND NOT EXISTS (SELECT 1 FROM dd WHERE dd.deal = b.deal) \
             ORDER BY b.deal LIMIT ?2",
        );
        self.deal_page(sql, set, after, limit, |r| {
            key_from_sql(r.get_ref(0).at(&self.path)?)
        })
    }

    /// Up to `limit` rows of a query in deal key order after `after` (from the start when
    /// `None`): `sql.0` over all deals, `sql.1` over the boards of set `set` (`?3`), each
    /// with `?1` the key to start after and `?2` the limit; `row` reads a row.
    fn deal_page<T>(
        &self,
        (all, in_set): (&str, &str),
        set: Option<&str>,
        after: Option<&DealIndex>,
        limit: usize,
        mut row: impl FnMut(&rusqlite::Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let after = after.map(|k| k.0.to_vec()).unwrap_or_default();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let sql = if set.is_some() { in_set } else { all };
        let mut stmt = self.conn.prepare_cached(sql).at(&self.path)?;
        let mut rows = match set {
            None => stmt.query(params![after, limit]),
            Some(name) => stmt.query(params![after, limit, name]),
        }
        .at(&self.path)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().at(&self.path)? {
            out.push(row(r)?);
        }
        Ok(out)
    }

    /// How many stored deals have a double-dummy table.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn dd_count(&self) -> Result<u64, StoreError> {
        self.row_count("dd")
    }
}
