//! Reading the stored played boards by query (`dealdex query --played`): a query compiled by
//! the query compiler ([`SqlFilter`]) over one row a table's record, the `played` row
//! (migrations 10, 12) joined with its deal's features (`deal_features`, so deal terms such
//! as `hcp(N)` apply too), its judgement (`played_dd`) and its set. The clause is placed in
//! the statement as the compiler wrote it; its numbers, texts and the set name are bound.

use rusqlite::params_from_iter;
use rusqlite::types::Value;

use super::played::{PlayedTable, RowReader, TABLE_COLUMNS, TABLE_WIDTH};
use super::{At, StoreError, StoreReader};
#[cfg(doc)]
use crate::StoreErrorKind;
use crate::model::card::Seat;
use crate::query::SqlFilter;

/// One played board as a played search lists it: its table's record ([`PlayedTable`]: place,
/// players, contract, declarer, tricks), then score, par and double-dummy losses. Every
/// field is `None` where the record does not tell it (losses: the board is not judged,
/// `dealdex judge`; par: not computed yet).
///
/// JSON: [`PlayedTable`]'s fields, then these: `{"id": 7, …, "tricks": 9, "score_ns": 600,
/// "par_ns": 600, "leader": "W", "declarer_lost": 0, "defence_lost": 1, "lead_cost": 0}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FoundPlayed {
    /// The table's record, as every read of `played` gives it.
    #[serde(flatten)]
    pub table: PlayedTable,
    /// The table's score, North-South's view.
    pub score_ns: Option<i32>,
    /// The board's par score, North-South's view.
    pub par_ns: Option<i32>,
    /// The opening leader; its letter in JSON.
    #[serde(serialize_with = "crate::model::text::option_as_text")]
    pub leader: Option<Seat>,
    /// Tricks declarer's side gave away double dummy.
    pub declarer_lost: Option<u8>,
    /// Tricks the defence gave away double dummy.
    pub defence_lost: Option<u8>,
    /// Tricks the opening lead gave away double dummy.
    pub lead_cost: Option<u8>,
}

/// The statement of a played search and its values: `(sql, params)`.
fn played_search(
    filter: &SqlFilter,
    set: Option<&str>,
    limit: Option<u64>,
) -> (String, Vec<Value>) {
    let mut params: Vec<Value> = filter.params.iter().map(|&v| Value::Integer(v)).collect();
    params.extend(filter.texts.iter().map(|t| Value::Text(t.clone())));
    let scope = match set {
        Some(name) => {
            params.push(Value::Text(name.to_owned()));
            format!(" AND sets.name = ?{}", params.len())
        }
        None => String::new(),
    };
    // SQLite's LIMIT is a signed 64-bit integer: a larger limit is no limit.
    let limit = limit
        .map(|n| format!(" LIMIT {}", n.min(i64::MAX as u64)))
        .unwrap_or_default();
    let sql = format!(
        "SELECT {TABLE_COLUMNS}, played.score_ns, played.par_ns, played.leader, \
         played_dd.declarer_lost, played_dd.defence_lost, played_dd.lead_cost \
         FROM played JOIN deal_features ON deal_features.key = played.deal \
         LEFT JOIN played_dd ON played_dd.played = played.id \
         LEFT JOIN sets ON sets.id = played.set_id \
         WHERE ({}){scope} \
         ORDER BY played.event, sets.name, played.board, played.room, played.id{limit}",
        filter.clause
    );
    (sql, params)
}

impl StoreReader {
    /// The played boards matching `filter` (a query compiled by the query compiler's
    /// `Query::to_sql`, played terms and deal terms alike), only those imported into set
    /// `set` when given, at most `limit`, ordered by event, set, board, room and row.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the statement cannot be prepared (a `filter` not made by the
    /// query compiler) or fails while running; [`StoreErrorKind::CorruptPlay`] naming the row and
    /// column when a stored value is not what migrations 10 to 12 allow.
    pub fn find_played(
        &self,
        filter: &SqlFilter,
        set: Option<&str>,
        limit: Option<u64>,
    ) -> Result<Vec<FoundPlayed>, StoreError> {
        let path = &self.path;
        let (sql, params) = played_search(filter, set, limit);
        let mut stmt = self.conn.prepare(&sql).at(path)?;
        let mut rows = stmt.query(params_from_iter(&params)).at(path)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().at(path)? {
            let r = RowReader::new(row, path)?;
            let own = |i: usize| TABLE_WIDTH + i;
            let score = |i: usize, column: &str| {
                r.integer(own(i), column)?
                    .map(|v| {
                        i32::try_from(v)
                            .map_err(|_| r.corrupt(format!("{column} {v} is too large")))
                    })
                    .transpose()
            };
            out.push(FoundPlayed {
                table: r.table()?,
                score_ns: score(0, "score_ns")?,
                par_ns: score(1, "par_ns")?,
                leader: r.seat(own(2), "leader")?,
                declarer_lost: r.tricks(own(3), "declarer_lost")?,
                defence_lost: r.tricks(own(4), "defence_lost")?,
                lead_cost: r.tricks(own(5), "lead_cost")?,
            });
        }
        Ok(out)
    }

    /// The statement [`StoreReader::find_played`] runs, then `-- ?k = VALUE` for each
    /// parameter (`dealdex query --played --explain`).
    pub fn explain_find_played(
        filter: &SqlFilter,
        set: Option<&str>,
        limit: Option<u64>,
    ) -> String {
        let (sql, params) = played_search(filter, set, limit);
        let mut text = format!("{sql}\n");
        for (i, p) in params.iter().enumerate() {
            text.push_str(&format!("-- ?{} = {p:?}\n", i + 1));
        }
        text
    }
}
