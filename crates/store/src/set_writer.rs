//! A set stored piece by piece ([`Store::begin_set`], [`SetWriter`]): the boards of a set too
//! large to hold (the produced deals of `dealer --store`) written as they come, with the
//! double-dummy tables solved beside them, in ONE transaction, so a run that fails stores no
//! partial set.

use rusqlite::{Connection, Transaction, TransactionBehavior, params};

use super::stored_dd::{DdSource, insert_dd_rows};
use super::{
    At, CHUNK, INSERT_BOARD_ONE, INSERT_BOARDS_CHUNK, INSERT_DEAL, NewSet, SetOutcome, Store,
    StoreError, StoreErrorKind, StoreReader, board_to_sql, insert_deal, insert_sorted_keys,
    sort_dedup_keys,
};
use crate::dd::TrickTable;
use crate::model::index::DealIndex;

/// One write transaction that stores a new set a piece of boards at a time
/// ([`Store::begin_set`]), and double-dummy tables with them ([`SetWriter::add_tables`]):
/// memory bounded by a piece however large the set. Nothing is stored until
/// [`SetWriter::finish`] (or [`SetWriter::finish_without_set`]) commits; dropped before, it
/// rolls back and stores nothing. It holds the database's write lock from
/// [`Store::begin_set`] to then: other writers of the file wait (their busy timeout).
pub struct SetWriter<'s> {
    /// The transaction; `None` once committed or rolled back.
    tx: Option<Transaction<'s>>,
    /// The connection, to restore its pragmas after the transaction.
    conn: &'s Connection,
    path: &'s str,
    set_id: i64,
    /// The last board added, when any.
    last: Option<u64>,
    boards: u64,
    new_deals: u64,
    /// The `set_boards(deal)` index was dropped at the start (the table was empty), to be
    /// made again by [`SetWriter::finish`]: the boards then go in 64 rows a statement.
    rebuild_index: bool,
}

impl Store {
    /// Starts storing the new set `set` piece by piece ([`SetWriter`]): an immediate
    /// transaction (it holds the write lock until committed or dropped) in which the set's
    /// row is made at once. `set.last_board` is replaced by what [`SetWriter::finish`] says.
    ///
    /// As [`Store::store_set`] does, foreign keys are switched off for the writer's
    /// transaction (each piece's deals are inserted just before its boards) and on again
    /// when it ends, whatever happens; the temporary store is in files meanwhile (the index
    /// made again at the end sorts there, not in memory).
    ///
    /// ```
    /// use dealdex::{DealIndex, NewSet, Scheme, Store};
    /// let mut store = Store::open_in_memory()?;
    /// let (a, b) = (DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?, DealIndex([0x4E; 13]));
    /// let set = NewSet {
    ///     name: "kept".into(), first_board: 1, last_board: 1, scheme: Scheme::Pavlicek,
    ///     generator: "doc test".into(), seed_sha256: None,
    /// };
    /// let mut w = store.begin_set(&set)?;
    /// assert_eq!(w.add(&[(1, a), (2, b)])?, 2);
    /// assert_eq!(w.add(&[(3, a)])?, 0); // stored by the piece before
    /// let outcome = w.finish(3)?;
    /// assert_eq!(outcome.new_deals, 2);
    /// assert_eq!(store.set_boards("kept")?, [(1, a), (2, b), (3, a)]);
    /// assert_eq!(store.set("kept")?.unwrap().last_board, 3);
    /// // A writer dropped unfinished stores nothing.
    /// let other = NewSet { name: "gone".into(), ..set };
    /// store.begin_set(&other)?.add(&[(1, a)])?;
    /// assert!(store.set("gone")?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::SetExists`] when a set of that name is stored (whatever its boards);
    /// [`StoreErrorKind::BoardOutOfRange`] for a `first_board` above `i64::MAX`;
    /// [`StoreErrorKind::Sqlite`] when the transaction cannot start (locked beyond the busy
    /// timeout, read-only file). Nothing is stored then.
    pub fn begin_set(&mut self, set: &NewSet) -> Result<SetWriter<'_>, StoreError> {
        let first = board_to_sql(set.first_board)?;
        let reader: &StoreReader = self;
        let (conn, path) = (&reader.conn, reader.path.as_str());
        let begun = relax(conn)
            .and_then(|()| Transaction::new_unchecked(conn, TransactionBehavior::Immediate));
        let tx = match begun.at(path) {
            Ok(tx) => tx,
            Err(e) => {
                let _ = restore(conn);
                return Err(e);
            }
        };
        // From here a failure drops the writer: rolled back, the pragmas restored.
        let mut writer = SetWriter {
            tx: Some(tx),
            conn,
            path,
            set_id: 0,
            last: None,
            boards: 0,
            new_deals: 0,
            rebuild_index: false,
        };
        let tx = writer.tx.as_ref().expect("just begun");
        let taken: bool = tx
            .query_row(
                "SELECT EXISTS(SELECT 1 FROM sets WHERE name = ?1)",
                [&set.name],
                |r| r.get(0),
            )
            .at(path)?;
        if taken {
            return Err(StoreErrorKind::SetExists {
                name: set.name.clone(),
            }
            .into());
        }
        tx.execute(
            "INSERT INTO sets(name, first_board, last_board, scheme, generator, seed_sha256)
             VALUES (?1, ?2, ?2, ?3, ?4, ?5)",
            params![
                set.name,
                first,
                set.scheme.name(),
                set.generator,
                set.seed_sha256
            ],
        )
        .at(path)?;
        writer.set_id = tx.last_insert_rowid();
        // No board stored yet: the `set_boards(deal)` index is made once at the end, in order,
        // instead of taking every board at a random place (see `insert_boards`).
        let empty: bool = tx
            .query_row("SELECT NOT EXISTS(SELECT 1 FROM set_boards)", [], |r| {
                r.get(0)
            })
            .at(path)?;
        if empty {
            tx.execute_batch("DROP INDEX set_boards_deal").at(path)?;
            writer.rebuild_index = true;
        }
        Ok(writer)
    }
}

impl SetWriter<'_> {
    /// The transaction (present until the writer ends).
    fn tx(&self) -> &Transaction<'_> {
        self.tx
            .as_ref()
            .expect("a writer's transaction lives as long as the writer")
    }

    /// The transaction and the path for errors, for the other tables' writers
    /// ([`SetWriter::add_leads`]).
    pub(super) fn transaction(&self) -> (&Transaction<'_>, &str) {
        (self.tx(), self.path)
    }

    /// Adds boards to the set, each `(board, deal)`, the boards in increasing order across
    /// calls; their deals are stored when new (with their features). Returns how many deals
    /// were new (not stored before, in the database or by an earlier piece).
    ///
    /// # Errors
    /// [`StoreErrorKind::DuplicateBoard`] for a board not above the one added before it (a
    /// board given twice, or out of order); [`StoreErrorKind::BoardOutOfRange`] above
    /// `i64::MAX`; [`StoreErrorKind::Sqlite`] when SQLite fails. The caller then drops the
    /// writer and nothing is stored.
    pub fn add(&mut self, boards: &[(u64, DealIndex)]) -> Result<u64, StoreError> {
        let mut rows = Vec::with_capacity(boards.len());
        for &(board, key) in boards {
            if self.last.is_some_and(|last| board <= last) {
                return Err(StoreErrorKind::DuplicateBoard { board }.into());
            }
            rows.push((board_to_sql(board)?, key));
            self.last = Some(board);
        }
        let mut keys: Vec<DealIndex> = boards.iter().map(|&(_, k)| k).collect();
        sort_dedup_keys(&mut keys);
        let new = self.insert(&keys, &rows)?;
        self.boards += rows.len() as u64;
        self.new_deals += new;
        Ok(new)
    }

    /// Inserts `keys` (sorted, distinct: the new deals counted) and the set's `rows`.
    fn insert(&self, keys: &[DealIndex], rows: &[(i64, DealIndex)]) -> Result<u64, StoreError> {
        let (tx, path, set_id) = (self.tx(), self.path, self.set_id);
        let new = insert_sorted_keys(tx, keys).at(path)?;
        let mut rest = rows;
        if self.rebuild_index {
            let mut chunks = rows.chunks_exact(CHUNK);
            let mut stmt = tx.prepare_cached(INSERT_BOARDS_CHUNK.as_str()).at(path)?;
            for chunk in &mut chunks {
                for (i, (board, key)) in chunk.iter().enumerate() {
                    stmt.raw_bind_parameter(3 * i + 1, set_id).at(path)?;
                    stmt.raw_bind_parameter(3 * i + 2, board).at(path)?;
                    stmt.raw_bind_parameter(3 * i + 3, key.0).at(path)?;
                }
                stmt.raw_execute().at(path)?;
            }
            rest = chunks.remainder();
        }
        let mut stmt = tx.prepare_cached(INSERT_BOARD_ONE).at(path)?;
        for (board, key) in rest {
            stmt.execute(params![set_id, board, &key.0]).at(path)?;
        }
        Ok(new)
    }

    /// Stores double-dummy tables solved by this build ([`DdSource::solved_here`]) in the
    /// writer's transaction, as [`Store::store_dd`] does in its own: each with its deal
    /// (inserted when missing); a deal already solved keeps its table. Returns how many
    /// tables were new. They are stored with the set, or not at all.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when SQLite fails (the caller then drops the writer).
    pub fn add_tables(&mut self, tables: &[(DealIndex, TrickTable)]) -> Result<u64, StoreError> {
        let (tx, path) = (self.tx(), self.path);
        {
            let mut stmt = tx.prepare_cached(INSERT_DEAL).at(path)?;
            for (key, _) in tables {
                insert_deal(&mut stmt, key).at(path)?;
            }
        }
        insert_dd_rows(tx, path, tables, &DdSource::solved_here())
    }

    /// The boards added so far.
    pub fn boards(&self) -> u64 {
        self.boards
    }

    /// Ends the set at `last_board` (its recorded range `first_board..=last_board`) and
    /// commits: the set, its deals and the tables added are stored together.
    ///
    /// # Errors
    /// [`StoreErrorKind::BoardOutOfRange`] above `i64::MAX`; [`StoreErrorKind::Sqlite`] when SQLite
    /// fails (nothing is stored then).
    pub fn finish(mut self, last_board: u64) -> Result<SetOutcome, StoreError> {
        let last = board_to_sql(last_board)?;
        let (tx, path) = (self.tx(), self.path);
        tx.execute(
            "UPDATE sets SET last_board = ?2 WHERE id = ?1",
            params![self.set_id, last],
        )
        .at(path)?;
        self.commit()?;
        Ok(SetOutcome {
            set_id: self.set_id,
            new_deals: self.new_deals,
            already_stored: false,
        })
    }

    /// Commits without the set: its row and boards are removed (the deals stay stored), the
    /// tables added are stored. For a run that produced nothing, which stores no set.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when SQLite fails (nothing is stored then).
    pub fn finish_without_set(mut self) -> Result<(), StoreError> {
        let (tx, path) = (self.tx(), self.path);
        tx.execute("DELETE FROM set_boards WHERE set_id = ?1", [self.set_id])
            .at(path)?;
        tx.execute("DELETE FROM sets WHERE id = ?1", [self.set_id])
            .at(path)?;
        self.commit()
    }

    /// Makes the dropped index again and commits; the pragmas restored.
    fn commit(&mut self) -> Result<(), StoreError> {
        let path = self.path;
        if self.rebuild_index {
            // The definition of migration 01, word for word.
            self.tx()
                .execute_batch("CREATE INDEX set_boards_deal ON set_boards(deal)")
                .at(path)?;
        }
        let tx = self.tx.take().expect("committed once");
        // A failed commit rolls back; the pragmas are restored either way.
        let committed = tx.commit().at(path);
        let restored = restore(self.conn).at(path);
        committed?;
        restored
    }
}

impl Drop for SetWriter<'_> {
    /// Rolls back what was not committed and restores the pragmas (which cannot change inside
    /// a transaction).
    fn drop(&mut self) {
        if let Some(tx) = self.tx.take() {
            let _ = tx.rollback();
            let _ = restore(self.conn);
        }
    }
}

/// The pragmas a writer changes for its transaction (they cannot change inside one): foreign
/// keys off (each piece's deals are inserted just before its boards, as [`Store::store_set`]
/// does), and temporary storage in files, not memory, so that the sort that makes the
/// `set_boards(deal)` index again stays in bounded memory however large the set (6,000,000
/// boards: 449 MB sorting in memory, 50 MB in files).
fn relax(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "foreign_keys", false)?;
    conn.pragma_update(None, "temp_store", "FILE")
}

/// The connection's pragmas again, as [`Store::open`] sets them.
fn restore(conn: &Connection) -> rusqlite::Result<()> {
    let keys = conn.pragma_update(None, "foreign_keys", true);
    let temp = conn.pragma_update(None, "temp_store", "MEMORY");
    keys.and(temp)
}
