//! Reading the stored played boards by query (`dealdex query --played`): a query compiled by
//! the query compiler ([`SqlFilter`]) over one row a table's record, the `played` row
//! (migrations 10, 12) joined with its deal's features (`deal_features`, so deal terms such
//! as `hcp(N)` apply too), its judgement (`played_dd`) and its set. The clause is placed in
//! the statement as the compiler wrote it; its numbers, texts and the set name are bound.

use rusqlite::params_from_iter;
use rusqlite::types::Value;

use super::{At, StoreError, StoreReader};
use crate::query::SqlFilter;

/// One played board as a played search lists it: its place, players, contract, result,
/// score, par and double-dummy losses. Every field is `None` where the record does not tell
/// it (losses: the board is not judged, `dealdex judge`; par: not computed yet).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FoundPlayed {
    /// The row (`played.id`).
    pub id: i64,
    /// The set the board was imported into.
    pub set: Option<String>,
    /// The board number.
    pub board: Option<u64>,
    /// `Open` or `Closed`.
    pub room: Option<String>,
    /// The event (LIN `vg|`'s first field, PBN's Event tag).
    pub event: Option<String>,
    /// The players, North, East, South, West.
    pub players: [Option<String>; 4],
    /// The contract as stored (`3NT`, `4HX`, `Pass`).
    pub contract: Option<String>,
    /// Declarer's seat letter.
    pub declarer: Option<String>,
    /// Declarer's tricks, 0..=13.
    pub tricks: Option<u8>,
    /// The table's score, North-South's view.
    pub score_ns: Option<i32>,
    /// The board's par score, North-South's view.
    pub par_ns: Option<i32>,
    /// The opening leader's seat letter.
    pub leader: Option<String>,
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
        "SELECT played.id, sets.name, played.board, played.room, played.event, played.north, \
         played.east, played.south, played.west, played.contract, played.declarer, \
         played.result, played.score_ns, played.par_ns, played.leader, \
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
    /// [`StoreError::Sqlite`] if the statement cannot be prepared (a `filter` not made by the
    /// query compiler) or fails while running.
    pub fn find_played(
        &self,
        filter: &SqlFilter,
        set: Option<&str>,
        limit: Option<u64>,
    ) -> Result<Vec<FoundPlayed>, StoreError> {
        let path = &self.path;
        let (sql, params) = played_search(filter, set, limit);
        let mut stmt = self.conn.prepare(&sql).at(path)?;
        let rows = stmt
            .query_map(params_from_iter(&params), |r| {
                Ok(FoundPlayed {
                    id: r.get(0)?,
                    set: r.get(1)?,
                    board: r
                        .get::<_, Option<i64>>(2)?
                        .and_then(|b| u64::try_from(b).ok()),
                    room: r.get(3)?,
                    event: r.get(4)?,
                    players: [r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?],
                    contract: r.get(9)?,
                    declarer: r.get(10)?,
                    tricks: r.get(11)?,
                    score_ns: r.get(12)?,
                    par_ns: r.get(13)?,
                    leader: r.get(14)?,
                    declarer_lost: r.get(15)?,
                    defence_lost: r.get(16)?,
                    lead_cost: r.get(17)?,
                })
            })
            .at(path)?;
        rows.collect::<Result<Vec<_>, _>>().at(path)
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
