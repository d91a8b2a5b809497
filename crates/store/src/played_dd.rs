//! The `played_dd` table (migration 11): each played board's play judged double dummy, the
//! tricks declarer's side can take before the lead and after each card, stored once.

use rusqlite::params;
use rusqlite::types::ValueRef;

use super::{At, Store, StoreError, StoreReader, key_from_sql};
use crate::model::card::{Card, Seat};
use crate::model::index::DealIndex;

/// A stored played board with play not judged yet ([`StoreReader::played_to_judge`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedToJudge {
    /// Its row (`played.id`), the key its judgement is stored under.
    pub id: i64,
    /// The deal played.
    pub deal: DealIndex,
    /// The contract as stored (`4HX`, `3NT`).
    pub contract: String,
    /// Declarer.
    pub declarer: Seat,
    /// The cards in play order, the opening lead first (1..=52).
    pub cards: Vec<Card>,
}

/// A played board's judgement as stored ([`Store::store_judged`],
/// [`StoreReader::judged_played`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedPlayed {
    /// The played board's row (`played.id`).
    pub id: i64,
    /// The tricks declarer's side can take before the lead then after each card (one more
    /// than the cards, each 0..=13), or why the board could not be judged.
    pub tricks: Result<Vec<u8>, String>,
}

impl StoreReader {
    /// Up to `limit` played boards with a declarer, a contract and at least one card, whose
    /// row is above `after` and that have no judgement stored, in row order.
    ///
    /// # Errors
    /// [`StoreError::CorruptPlay`] for a row whose declarer or cards are not a seat and
    /// cards; [`StoreError::CorruptKey`]; [`StoreError::Sqlite`] if the query fails.
    pub fn played_to_judge(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<PlayedToJudge>, StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT p.id, p.deal, p.contract, p.declarer, p.cards FROM played p
                 WHERE p.id > ?1 AND p.cards IS NOT NULL AND p.declarer IS NOT NULL
                   AND p.contract IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM played_dd d WHERE d.played = p.id)
                 ORDER BY p.id LIMIT ?2",
            )
            .at(path)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut rows = stmt.query(params![after, limit]).at(path)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().at(path)? {
            let id: i64 = row.get(0).at(path)?;
            let corrupt = |why: String| StoreError::CorruptPlay { id, why };
            let deal = key_from_sql(row.get_ref(1).at(path)?)?;
            let contract: String = row.get(2).at(path)?;
            let declarer: String = row.get(3).at(path)?;
            let declarer = declarer
                .chars()
                .next()
                .and_then(Seat::from_char)
                .ok_or_else(|| corrupt(format!("{declarer:?} is not a seat")))?;
            let cards = match row.get_ref(4).at(path)? {
                ValueRef::Blob(b) => b
                    .iter()
                    .map(|&i| Card::from_index(usize::from(i)))
                    .collect::<Option<Vec<Card>>>()
                    .ok_or_else(|| corrupt("a card byte above 51".into()))?,
                other => return Err(corrupt(format!("cards is {}", other.data_type()))),
            };
            out.push(PlayedToJudge {
                id,
                deal,
                contract,
                declarer,
                cards,
            });
        }
        Ok(out)
    }

    /// Every stored judgement, in the order of the played boards' rows.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] if the query fails.
    pub fn judged_played(&self) -> Result<Vec<JudgedPlayed>, StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT played, tricks, fault FROM played_dd ORDER BY played")
            .at(path)?;
        let rows = stmt
            .query_map([], |r| {
                let tricks: Option<Vec<u8>> = r.get(1)?;
                let fault: Option<String> = r.get(2)?;
                Ok(JudgedPlayed {
                    id: r.get(0)?,
                    tricks: tricks.ok_or_else(|| fault.unwrap_or_default()),
                })
            })
            .at(path)?;
        rows.collect::<Result<Vec<_>, _>>().at(path)
    }
}

impl Store {
    /// Stores judgements in one transaction; a board already judged keeps its row. Returns
    /// how many rows were new. A failed write stores none of them (what earlier calls stored
    /// stays).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when SQLite fails, e.g. a judgement of a row that does not exist.
    pub fn store_judged(&mut self, judged: &[JudgedPlayed]) -> Result<u64, StoreError> {
        let (tx, path) = self.write_transaction()?;
        let mut new = 0u64;
        {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO played_dd (played, tricks, fault) VALUES (?1, ?2, ?3)",
                )
                .at(path)?;
            for j in judged {
                let (tricks, fault) = match &j.tricks {
                    Ok(t) => (Some(t.as_slice()), None),
                    Err(f) => (None, Some(f.as_str())),
                };
                new += stmt.execute(params![j.id, tricks, fault]).at(path)? as u64;
            }
        }
        tx.commit().at(path)?;
        Ok(new)
    }
}
