//! The `played_dd` table (migration 11): each played board's play judged double dummy, the
//! tricks declarer's side can take before the lead and after each card, stored once.

use rusqlite::params;

use super::played::RowReader;
use super::{At, Store, StoreError, StoreReader};
#[cfg(doc)]
use crate::StoreErrorKind;
use crate::model::board::Vulnerability;
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
    /// What the tricks add up to (migration 12), for a judged board; `None` for a fault,
    /// or as read back from a board judged before migration 12 and not summed yet.
    pub summary: Option<JudgedSummary>,
}

/// A judged board's summary (migration 12's `played_dd` columns): tricks given away double
/// dummy by each side and by the opening lead, each 0..=13
/// (`dealdex_solver::analysis::PlayAnalysis`'s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgedSummary {
    /// Tricks declarer's side gave away.
    pub declarer_lost: u8,
    /// Tricks the defence gave away.
    pub defence_lost: u8,
    /// Tricks the opening lead gave away.
    pub lead_cost: u8,
}

/// A judged board whose summary is not stored yet ([`StoreReader::judged_without_summary`]):
/// the board as [`PlayedToJudge`] gives it and its stored tricks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedToSum {
    /// The board.
    pub board: PlayedToJudge,
    /// Its stored `played_dd.tricks`.
    pub tricks: Vec<u8>,
}

/// A played board whose par is not stored yet ([`StoreReader::played_without_par`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedToPar {
    /// Its row (`played.id`).
    pub id: i64,
    /// The deal played.
    pub deal: DealIndex,
    /// The dealer.
    pub dealer: Seat,
    /// The vulnerability.
    pub vulnerability: Vulnerability,
}

/// A [`PlayedToJudge`] from a row whose first five columns are `played`'s id, deal,
/// contract, declarer and cards.
fn to_judge_row(row: &rusqlite::Row<'_>, path: &str) -> Result<PlayedToJudge, StoreError> {
    let r = RowReader::new(row, path)?;
    Ok(PlayedToJudge {
        id: r.id,
        deal: r.key(1)?,
        contract: r.required(r.text(2, "contract")?, "contract")?,
        declarer: r.required_seat(3, "declarer")?,
        cards: r.required(r.cards(4)?, "cards")?,
    })
}

impl StoreReader {
    /// The rows of `sql` (a statement over `played` with `?1` the row to start after and
    /// `?2` the limit), each read by `read` (given the row and the database's label).
    fn page<T>(
        &self,
        sql: &str,
        after: i64,
        limit: usize,
        mut read: impl FnMut(&rusqlite::Row<'_>, &str) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let path = &self.path;
        let mut stmt = self.conn.prepare_cached(sql).at(path)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut rows = stmt.query(params![after, limit]).at(path)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().at(path)? {
            out.push(read(row, path)?);
        }
        Ok(out)
    }

    /// Up to `limit` played boards with a declarer, a contract and at least one card, whose
    /// row is above `after` and that have no judgement stored, in row order.
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptPlay`] for a row whose declarer or cards are not a seat and
    /// cards; [`StoreErrorKind::CorruptKey`]; [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn played_to_judge(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<PlayedToJudge>, StoreError> {
        self.page(
            "SELECT p.id, p.deal, p.contract, p.declarer, p.cards FROM played p
                 WHERE p.id > ?1 AND p.cards IS NOT NULL AND p.declarer IS NOT NULL
                   AND p.contract IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM played_dd d WHERE d.played = p.id)
                 ORDER BY p.id LIMIT ?2",
            after,
            limit,
            to_judge_row,
        )
    }

    /// Up to `limit` judged boards (tricks stored) above row `after` whose summary
    /// (migration 12) is not stored: those judged before it. In row order.
    ///
    /// # Errors
    /// As [`StoreReader::played_to_judge`].
    pub fn judged_without_summary(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<JudgedToSum>, StoreError> {
        self.page(
            "SELECT p.id, p.deal, p.contract, p.declarer, p.cards, d.tricks FROM played p
                 JOIN played_dd d ON d.played = p.id
                 WHERE p.id > ?1 AND d.tricks IS NOT NULL AND d.declarer_lost IS NULL
                   AND p.cards IS NOT NULL AND p.declarer IS NOT NULL
                   AND p.contract IS NOT NULL
                 ORDER BY p.id LIMIT ?2",
            after,
            limit,
            |row, path| {
                Ok(JudgedToSum {
                    board: to_judge_row(row, path)?,
                    tricks: row.get(5).at(path)?,
                })
            },
        )
    }

    /// Up to `limit` played boards above row `after` without a stored par (migration 12's
    /// `played.par_ns`), in row order.
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptPlay`] for a row whose dealer or vulnerability is not one;
    /// [`StoreErrorKind::CorruptKey`]; [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn played_without_par(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<PlayedToPar>, StoreError> {
        self.page(
            "SELECT id, deal, dealer, vulnerable FROM played
                 WHERE id > ?1 AND par_ns IS NULL ORDER BY id LIMIT ?2",
            after,
            limit,
            |row, path| {
                let r = RowReader::new(row, path)?;
                Ok(PlayedToPar {
                    id: r.id,
                    deal: r.key(1)?,
                    dealer: r.required_seat(2, "dealer")?,
                    vulnerability: r.vulnerability(3)?,
                })
            },
        )
    }

    /// Every stored judgement, in the order of the played boards' rows.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn judged_played(&self) -> Result<Vec<JudgedPlayed>, StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT played, tricks, fault, declarer_lost, defence_lost, lead_cost
                 FROM played_dd ORDER BY played",
            )
            .at(path)?;
        let rows = stmt
            .query_map([], |r| {
                let tricks: Option<Vec<u8>> = r.get(1)?;
                let fault: Option<String> = r.get(2)?;
                let lost: [Option<u8>; 3] = [r.get(3)?, r.get(4)?, r.get(5)?];
                let summary = match lost {
                    [Some(declarer_lost), Some(defence_lost), Some(lead_cost)] => {
                        Some(JudgedSummary {
                            declarer_lost,
                            defence_lost,
                            lead_cost,
                        })
                    }
                    _ => None,
                };
                Ok(JudgedPlayed {
                    id: r.get(0)?,
                    tricks: tricks.ok_or_else(|| fault.unwrap_or_default()),
                    summary,
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
    /// [`StoreErrorKind::Sqlite`] when SQLite fails, e.g. a judgement of a row that does not exist.
    pub fn store_judged(&mut self, judged: &[JudgedPlayed]) -> Result<u64, StoreError> {
        let (tx, path) = self.write_transaction()?;
        let mut new = 0u64;
        {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO played_dd (played, tricks, fault, declarer_lost,
                     defence_lost, lead_cost) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .at(path)?;
            for j in judged {
                let (tricks, fault) = match &j.tricks {
                    Ok(t) => (Some(t.as_slice()), None),
                    Err(f) => (None, Some(f.as_str())),
                };
                let s = j.summary.as_ref();
                new += stmt
                    .execute(params![
                        j.id,
                        tricks,
                        fault,
                        s.map(|s| s.declarer_lost),
                        s.map(|s| s.defence_lost),
                        s.map(|s| s.lead_cost)
                    ])
                    .at(path)? as u64;
            }
        }
        tx.commit().at(path)?;
        Ok(new)
    }

    /// Stores the summaries of boards already judged (those judged before migration 12), in
    /// one transaction; `(played.id, summary)` pairs. Returns how many rows changed.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when SQLite fails; nothing is stored then.
    pub fn store_judged_summaries(
        &mut self,
        summaries: &[(i64, JudgedSummary)],
    ) -> Result<u64, StoreError> {
        self.update_each(
            "UPDATE played_dd SET declarer_lost = ?2, defence_lost = ?3, lead_cost = ?4
             WHERE played = ?1",
            summaries,
            |&(id, s)| {
                [
                    id,
                    s.declarer_lost.into(),
                    s.defence_lost.into(),
                    s.lead_cost.into(),
                ]
            },
        )
    }

    /// Stores played boards' par scores (North-South's view, migration 12's
    /// `played.par_ns`), `(played.id, par)` pairs, in one transaction. Returns how many
    /// rows changed.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when SQLite fails; nothing is stored then.
    pub fn store_played_par(&mut self, pars: &[(i64, i32)]) -> Result<u64, StoreError> {
        self.update_each(
            "UPDATE played SET par_ns = ?2 WHERE id = ?1",
            pars,
            |&(id, par)| [id, par.into()],
        )
    }

    /// Runs the update `sql` once an item, its parameters `bind(item)`, in one transaction.
    fn update_each<T, const N: usize>(
        &mut self,
        sql: &str,
        items: &[T],
        bind: impl Fn(&T) -> [i64; N],
    ) -> Result<u64, StoreError> {
        let (tx, path) = self.write_transaction()?;
        let mut changed = 0u64;
        {
            let mut stmt = tx.prepare_cached(sql).at(path)?;
            for item in items {
                let values = bind(item);
                changed += stmt
                    .execute(rusqlite::params_from_iter(values.iter()))
                    .at(path)? as u64;
            }
        }
        tx.commit().at(path)?;
        Ok(changed)
    }
}
