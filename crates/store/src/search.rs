//! Reading the stored deals by query and scope (`dealdex query`, `dealdex stats`).
//!
//! A query arrives compiled ([`SqlFilter`], from [`crate::query::Query::to_sql`]): its
//! clause is SQL written by the query compiler and is placed in the statement as it is; its
//! values, and the set name, are bound as parameters, never spliced.
//!
//! Every call here takes a scope, `set: Option<&str>`, as [`StoreReader::unsolved_keys`](crate::StoreReader::unsolved_keys) does:
//! - `None`: every stored deal, once each, in key order (the order of [`DealIndex`]'s bytes,
//!   which is the order of its hex form);
//! - `Some(name)`: the boards of the set named `name`, in board order, with their board
//!   numbers; a deal at two boards of the set counts twice. No set of that name: no deals
//!   (tell that case apart with [`StoreReader::set`](crate::StoreReader::set)).

use std::fmt::Write as _;

use rusqlite::params_from_iter;
use rusqlite::types::Value;

use super::{At, StoreError, board_from_sql, key_from_sql};
#[cfg(doc)]
use crate::StoreErrorKind;
use crate::model::index::DealIndex;
#[cfg(doc)]
use crate::query::Query;
use crate::query::SqlFilter;

/// What a search statement returns.
#[derive(Clone, Copy)]
enum Want {
    /// One row: the number of matches.
    Count,
    /// A row a match, `(key, board or NULL)`, at most `limit` of them.
    Deals { limit: Option<u64> },
}

/// A search statement: its SQL and the values of its placeholders (`params[k - 1]` for
/// `?k`).
struct Search {
    sql: String,
    params: Vec<Value>,
}

impl Search {
    /// The statement for `filter` over the scope `set`.
    fn new(filter: &SqlFilter, set: Option<&str>, want: Want) -> Search {
        let mut params: Vec<Value> = filter.params.iter().map(|&v| Value::Integer(v)).collect();
        params.extend(filter.texts.iter().map(|t| Value::Text(t.clone())));
        let (from, order) = match set {
            Some(name) => {
                params.push(Value::Text(name.to_owned()));
                (
                    format!(
                        "deal_features JOIN set_boards ON set_boards.deal = deal_features.key \
                         JOIN sets ON sets.id = set_boards.set_id \
                         WHERE sets.name = ?{} AND ({})",
                        params.len(),
                        filter.clause
                    ),
                    " ORDER BY set_boards.board",
                )
            }
            None => (
                format!("deal_features WHERE {}", filter.clause),
                " ORDER BY deal_features.key",
            ),
        };
        let sql = match want {
            Want::Count => format!("SELECT count(*) FROM {from}"),
            Want::Deals { limit } => {
                // SQLite's LIMIT is a signed 64-bit integer: a larger limit is no limit.
                let limit = limit
                    .map(|n| format!(" LIMIT {}", n.min(i64::MAX as u64)))
                    .unwrap_or_default();
                let board = match set {
                    Some(_) => "set_boards.board",
                    None => "NULL",
                };
                format!("SELECT deal_features.key, {board} FROM {from}{order}{limit}")
            }
        };
        Search { sql, params }
    }

    /// The SQL on one line, then `-- ?k = VALUE` for each parameter.
    fn explain(&self) -> String {
        let mut text = format!("{}\n", self.sql);
        for (i, p) in self.params.iter().enumerate() {
            let _ = writeln!(text, "-- ?{} = {p:?}", i + 1);
        }
        text
    }
}

impl super::StoreReader {
    /// How many deals match `filter` (a query compiled by [`Query::to_sql`]) in the scope
    /// `set`: stored deals, each once, for `None`; boards of the set named `name` for
    /// `Some(name)`, so a deal at two boards counts twice (0 when there is no such set: tell
    /// that case apart with [`StoreReader::set`](crate::StoreReader::set)).
    ///
    /// Over every stored deal (`set` `None`) of a database file, a count that SQLite would
    /// answer by scanning the whole table runs on all of rayon's threads, each with its own
    /// read-only connection over one range of keys (by first byte), and the counts are
    /// summed: over 100 M deals, 3.5 s on 2 cores where one connection took 5.2 s. A count
    /// that an index answers (`hcp(N) >= 20`) runs on this connection alone.
    ///
    /// ```
    /// # use dealdex::{Deal, DealIndex, NewSet, Store};
    /// use dealdex::query::Query;
    /// # let spades: Deal =
    /// #     "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse()?;
    /// # let clubs: Deal =
    /// #     "N:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.".parse()?;
    /// # let (a, b) = (DealIndex::from_deal(&spades), DealIndex::from_deal(&clubs));
    /// # let mut store = Store::open_in_memory()?;
    /// # let set = NewSet {
    /// #     name: "club".into(), first_board: 1, last_board: 3, scheme: dealdex::Scheme::Pavlicek,
    /// #     generator: "doc test".into(), seed_sha256: None,
    /// # };
    /// // `store` holds deals `a` (North: 13 spades) and `b`, and the set "club" with
    /// // `a` at boards 1 and 3, `b` at board 2.
    /// store.store_set(&set, &[(1, a), (2, b), (3, a)])?;
    /// let filter = Query::parse("len(N, spades) = 13")?.to_sql();
    /// assert_eq!(store.count_deals(&filter, None)?, 1);
    /// assert_eq!(store.count_deals(&filter, Some("club"))?, 2);
    /// assert_eq!(store.count_deals(&filter, Some("no such set"))?, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the statement cannot be prepared (a `filter` not made by
    /// the query compiler) or fails while running (e.g. a corrupt stored key given to a
    /// feature function).
    pub fn count_deals(&self, filter: &SqlFilter, set: Option<&str>) -> Result<u64, StoreError> {
        if set.is_none()
            && let Some(n) = self.count_in_key_ranges(filter)?
        {
            return Ok(n);
        }
        let search = Search::new(filter, set, Want::Count);
        let n: i64 = self
            .conn
            .prepare(&search.sql)
            .and_then(|mut stmt| stmt.query_row(params_from_iter(&search.params), |r| r.get(0)))
            .at(&self.path)?;
        Ok(n.unsigned_abs())
    }

    /// [`StoreReader::count_deals`](crate::StoreReader::count_deals) over every stored deal, one key range a thread; `None` when
    /// that would not pay: one thread, a database in memory, or a plan that is not a full
    /// scan (an index narrows the rows).
    fn count_in_key_ranges(&self, filter: &SqlFilter) -> Result<Option<u64>, StoreError> {
        use rayon::prelude::*;
        let threads = rayon::current_num_threads().min(256);
        let file = match self.conn.path() {
            Some(f) if !f.is_empty() && threads > 1 => std::path::PathBuf::from(f),
            _ => return Ok(None),
        };
        let search = Search::new(filter, None, Want::Count);
        let plan_scans = self
            .conn
            .prepare(&format!("EXPLAIN QUERY PLAN {}", search.sql))
            .and_then(|mut stmt| {
                let details =
                    stmt.query_map(params_from_iter(&search.params), |r| r.get::<_, String>(3))?;
                details
                    .map(|d| d.map(|d| d.starts_with("SCAN")))
                    .collect::<rusqlite::Result<Vec<bool>>>()
            })
            .at(&self.path)?;
        if !plan_scans.contains(&true) {
            return Ok(None);
        }
        // Range i holds the keys whose first byte is in 256·i/threads .. 256·(i+1)/threads;
        // the index's first byte is uniform over random deals (FORMATS.md §2), so the ranges
        // hold about as many deals each.
        let k = search.params.len();
        let label = self.path.as_str();
        let counts = (0..threads)
            .into_par_iter()
            .map(|i| {
                let (conn, _) = super::open_read_only_connection(&file)?;
                let low = vec![(256 * i / threads) as u8];
                let mut params = search.params.clone();
                params.push(Value::Blob(if i == 0 { Vec::new() } else { low }));
                let mut sql = format!(
                    "SELECT count(*) FROM deal_features WHERE ({}) AND key >= ?{}",
                    filter.clause,
                    k + 1
                );
                if i + 1 < threads {
                    params.push(Value::Blob(vec![(256 * (i + 1) / threads) as u8]));
                    let _ = write!(sql, " AND key < ?{}", k + 2);
                }
                conn.prepare(&sql)
                    .and_then(|mut stmt| stmt.query_row(params_from_iter(&params), |r| r.get(0)))
                    .at(label)
                    .map(i64::unsigned_abs)
            })
            .collect::<Result<Vec<u64>, StoreError>>()?;
        Ok(Some(counts.into_iter().sum()))
    }

    /// The deals that match `filter` (a query compiled by [`Query::to_sql`]), at most
    /// `limit` of them (`None`: all), as `(key, board)` pairs:
    /// - `set` `None`: every stored deal once, in key order (the order of the 13 bytes, which
    ///   is that of the hex form), `board` `None`;
    /// - `set` `Some(name)`: the boards of the set named `name`, in board order, `board`
    ///   the board number; a deal at two boards comes twice; no such set, no deals.
    ///
    /// Collects them all; [`StoreReader::for_each_match`](crate::StoreReader::for_each_match) streams them.
    ///
    /// ```
    /// # use dealdex::{Deal, DealIndex, NewSet, Store};
    /// use dealdex::query::Query;
    /// # let spades: Deal =
    /// #     "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse()?;
    /// # let clubs: Deal =
    /// #     "N:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.".parse()?;
    /// # let (a, b) = (DealIndex::from_deal(&spades), DealIndex::from_deal(&clubs));
    /// # let mut store = Store::open_in_memory()?;
    /// # let set = NewSet {
    /// #     name: "club".into(), first_board: 1, last_board: 3, scheme: dealdex::Scheme::Pavlicek,
    /// #     generator: "doc test".into(), seed_sha256: None,
    /// # };
    /// // `store` holds deals `a` (North: 13 spades) and `b`, and the set "club" with
    /// // `a` at boards 1 and 3, `b` at board 2.
    /// store.store_set(&set, &[(1, a), (2, b), (3, a)])?;
    /// let filter = Query::parse("len(N, spades) = 13")?.to_sql();
    /// assert_eq!(store.find_deals(&filter, None, None)?, [(a, None)]);
    /// assert_eq!(
    ///     store.find_deals(&filter, Some("club"), None)?,
    ///     [(a, Some(1)), (a, Some(3))]
    /// );
    /// assert_eq!(store.find_deals(&filter, Some("club"), Some(1))?, [(a, Some(1))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`StoreReader::for_each_match`](crate::StoreReader::for_each_match).
    pub fn find_deals(
        &self,
        filter: &SqlFilter,
        set: Option<&str>,
        limit: Option<u64>,
    ) -> Result<Vec<(DealIndex, Option<u64>)>, StoreError> {
        let mut found = Vec::new();
        self.for_each_match(filter, set, limit, |key, board| {
            found.push((key, board));
            Ok::<_, StoreError>(())
        })?;
        Ok(found)
    }

    /// [`StoreReader::find_deals`](crate::StoreReader::find_deals) streamed: calls `found(key, board)` for each match, in order,
    /// holding one row at a time; stops at the first error `found` returns.
    ///
    /// ```
    /// # use dealdex::{Deal, DealIndex, Store};
    /// use dealdex::query::Query;
    /// # let spades: Deal =
    /// #     "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse()?;
    /// let mut store = Store::open_in_memory()?;
    /// store.insert_deals(&[DealIndex::from_deal(&spades)])?;
    /// let filter = Query::parse("hcp(N) = 10 and balanced(N)")?.to_sql();
    /// let mut deals = Vec::new();
    /// store.for_each_match(&filter, None, Some(10), |key, _board| {
    ///     deals.push(key.to_deal()?);
    ///     Ok::<_, Box<dyn std::error::Error>>(())
    /// })?;
    /// assert!(deals.is_empty()); // 13-0-0-0 is not balanced
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptKey`] for a stored key that is not a 13-byte BLOB;
    /// [`StoreErrorKind::CorruptBoard`] for a negative stored board number;
    /// [`StoreErrorKind::Sqlite`] as for [`StoreReader::count_deals`](crate::StoreReader::count_deals); any error of `found`, as it is.
    pub fn for_each_match<E: From<StoreError>>(
        &self,
        filter: &SqlFilter,
        set: Option<&str>,
        limit: Option<u64>,
        mut found: impl FnMut(DealIndex, Option<u64>) -> Result<(), E>,
    ) -> Result<(), E> {
        let path = &self.path;
        let search = Search::new(filter, set, Want::Deals { limit });
        let mut stmt = self.conn.prepare(&search.sql).at(path)?;
        let mut rows = stmt.query(params_from_iter(&search.params)).at(path)?;
        while let Some(row) = rows.next().at(path)? {
            let key = key_from_sql(row.get_ref(0).at(path)?)?;
            let board = match row.get::<_, Option<i64>>(1).at(path)? {
                Some(b) => Some(board_from_sql(b)?),
                None => None,
            };
            found(key, board)?;
        }
        Ok(())
    }

    /// Calls `key` with every stored deal's key, once each and in key order, for `set`
    /// `None`; with the deal of each board of the set named `name`, in board order, for
    /// `Some(name)` (nothing when there is no such set). One row is held at a time, so a
    /// database of any size is walked in bounded memory; stops at the first error `key`
    /// returns.
    ///
    /// ```
    /// # use dealdex::{DealIndex, NewSet, Store};
    /// let mut store = Store::open_in_memory()?;
    /// let (a, b) = (DealIndex([0x4E; 13]), DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?);
    /// let set = NewSet {
    ///     name: "club".into(), first_board: 1, last_board: 2, scheme: dealdex::Scheme::Pavlicek,
    ///     generator: "doc test".into(), seed_sha256: None,
    /// };
    /// store.store_set(&set, &[(1, a), (2, a)])?;
    /// store.insert_deals(&[b])?;
    /// let mut keys = Vec::new();
    /// store.for_each_key(None, |k| Ok::<_, dealdex::StoreError>(keys.push(k)))?;
    /// assert_eq!(keys, [b, a]); // key order: 0E… before 4E…
    /// keys.clear();
    /// store.for_each_key(Some("club"), |k| Ok::<_, dealdex::StoreError>(keys.push(k)))?;
    /// assert_eq!(keys, [a, a]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptKey`] for a stored key that is not a 13-byte BLOB;
    /// [`StoreErrorKind::Sqlite`] if the query fails; any error of `key`, as it is.
    pub fn for_each_key<E: From<StoreError>>(
        &self,
        set: Option<&str>,
        mut key: impl FnMut(DealIndex) -> Result<(), E>,
    ) -> Result<(), E> {
        let path = &self.path;
        let sql = match set {
            None => "SELECT key FROM deals ORDER BY key",
            Some(_) => {
                "SELECT b.deal FROM set_boards b JOIN sets s ON s.id = b.set_id \
                 WHERE s.name = ?1 ORDER BY b.board"
            }
        };
        let mut stmt = self.conn.prepare(sql).at(path)?;
        let mut rows = match set {
            None => stmt.query([]),
            Some(name) => stmt.query([name]),
        }
        .at(path)?;
        while let Some(row) = rows.next().at(path)? {
            key(key_from_sql(row.get_ref(0).at(path)?)?)?;
        }
        Ok(())
    }

    /// Calls `board(number, key)` with each board of the set named `name`, in board order
    /// (nothing when there is no such set: tell that case apart with
    /// [`StoreReader::set`](crate::StoreReader::set)): [`StoreReader::set_boards`](crate::StoreReader::set_boards) streamed, one row
    /// held at a time, so a set of any size is walked in bounded memory; stops at the first
    /// error `board` returns (a caller that has read enough returns its own error to stop).
    ///
    /// ```
    /// # use dealdex::{DealIndex, NewSet, Store};
    /// let mut store = Store::open_in_memory()?;
    /// let (a, b) = (DealIndex([0x4E; 13]), DealIndex::parse_hex("0EDCCBA0976F2DA4945D8E9DC0")?);
    /// let set = NewSet {
    ///     name: "club".into(), first_board: 1, last_board: 9, scheme: dealdex::Scheme::Pavlicek,
    ///     generator: "doc test".into(), seed_sha256: None,
    /// };
    /// store.store_set(&set, &[(9, b), (1, a), (5, a)])?;
    /// let mut boards = Vec::new();
    /// store.for_each_set_board("club", |n, k| Ok::<_, dealdex::StoreError>(boards.push((n, k))))?;
    /// assert_eq!(boards, [(1, a), (5, a), (9, b)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptKey`] for a stored key that is not a 13-byte BLOB;
    /// [`StoreErrorKind::CorruptBoard`] for a negative stored board number;
    /// [`StoreErrorKind::Sqlite`] if the query fails; any error of `board`, as it is.
    pub fn for_each_set_board<E: From<StoreError>>(
        &self,
        name: &str,
        mut board: impl FnMut(u64, DealIndex) -> Result<(), E>,
    ) -> Result<(), E> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare(
                "SELECT b.board, b.deal FROM set_boards b JOIN sets s ON s.id = b.set_id \
                 WHERE s.name = ?1 ORDER BY b.board",
            )
            .at(path)?;
        let mut rows = stmt.query([name]).at(path)?;
        while let Some(row) = rows.next().at(path)? {
            let number = board_from_sql(row.get(0).at(path)?)?;
            board(number, key_from_sql(row.get_ref(1).at(path)?)?)?;
        }
        Ok(())
    }
}

impl super::StoreReader {
    /// The statement [`StoreReader::count_deals`](crate::StoreReader::count_deals) runs, for showing (`dealdex query --count
    /// --explain`): the SQL on the first line, then one line `-- ?k = VALUE` per
    /// placeholder, VALUE in rusqlite's `Debug` form (`Integer(15)`, `Text("club")`); every
    /// line ends in `\n`. Needs no database.
    ///
    /// ```
    /// use dealdex::query::Query;
    /// let filter = Query::parse("hcp(N) >= 15")?.to_sql();
    /// let text = dealdex::StoreReader::explain_count_deals(&filter, Some("club"));
    /// assert!(text.starts_with("SELECT count(*) FROM deal_features JOIN set_boards "));
    /// assert!(text.ends_with("\n-- ?1 = Integer(15)\n-- ?2 = Text(\"club\")\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain_count_deals(filter: &SqlFilter, set: Option<&str>) -> String {
        Search::new(filter, set, Want::Count).explain()
    }

    /// The statement [`StoreReader::find_deals`](crate::StoreReader::find_deals) and [`StoreReader::for_each_match`](crate::StoreReader::for_each_match) run, shown as by
    /// [`StoreReader::explain_count_deals`](crate::StoreReader::explain_count_deals) (`dealdex query --explain`). Needs no database.
    ///
    /// ```
    /// use dealdex::query::Query;
    /// let filter = Query::parse("hcp(N) >= 15")?.to_sql();
    /// let text = dealdex::StoreReader::explain_find_deals(&filter, None, Some(10));
    /// let (sql, params) = text.split_once('\n').unwrap();
    /// assert!(sql.starts_with("SELECT deal_features.key, NULL FROM deal_features WHERE "));
    /// assert!(sql.ends_with(" ORDER BY deal_features.key LIMIT 10"));
    /// assert_eq!(params, "-- ?1 = Integer(15)\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain_find_deals(filter: &SqlFilter, set: Option<&str>, limit: Option<u64>) -> String {
        Search::new(filter, set, Want::Deals { limit }).explain()
    }
}
