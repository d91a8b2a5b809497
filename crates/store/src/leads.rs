//! The `leads` table (migration 08): the defence's double-dummy tricks after each opening
//! lead, a row a deal, leader and strain, in the 52-byte layout of [`crate::dd::lead_table`]
//! (what `dealdex lead --store` solved; the query language's `lead(SEAT, strain, CARD)`
//! reads it through the SQL function `lead_card`), and the solver that solved it (migration
//! 09: `leads.source`, a `dd_sources` row).

use rusqlite::types::ValueRef;
use rusqlite::{OptionalExtension, params};

use super::stored_dd::source_id;
use super::{
    At, DdSource, INSERT_DEAL, SetWriter, Store, StoreError, StoreErrorKind, StoreReader,
    insert_deal,
};
use crate::dd::NOT_HELD;
use crate::model::card::Seat;
use crate::model::contract::Strain;
use crate::model::index::DealIndex;

/// A deal's per-card lead tricks for one leader and strain ([`crate::dd::lead_table`]):
/// `tricks[card.index()]` the defence's tricks, 0..=13, after the leader leads that card,
/// [`NOT_HELD`] for a card the leader does not hold.
pub type LeadTable = [u8; 52];

/// The `leader` column's text of a seat: `N`, `E`, `S`, `W`.
fn leader_sql(leader: Seat) -> String {
    leader.letter().to_string()
}

/// Inserts `leads` rows for `leader` and `strain` inside the caller's transaction, each with
/// its deal (inserted when missing) and the selected solver as its source
/// ([`DdSource::solved_here`]); a row already stored keeps its tricks and source. Returns how
/// many rows were new.
fn insert_lead_rows(
    tx: &rusqlite::Transaction<'_>,
    path: &str,
    leader: Seat,
    strain: Strain,
    rows: &[(DealIndex, LeadTable)],
) -> Result<u64, StoreError> {
    {
        let mut stmt = tx.prepare_cached(INSERT_DEAL).at(path)?;
        for (key, _) in rows {
            insert_deal(&mut stmt, key).at(path)?;
        }
    }
    if rows.is_empty() {
        return Ok(0);
    }
    let (source, _) = source_id(tx, path, &DdSource::solved_here())?;
    let mut stmt = tx
        .prepare_cached(
            "INSERT OR IGNORE INTO leads(deal, leader, strain, tricks, source) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .at(path)?;
    let (leader, strain) = (leader_sql(leader), strain.as_str());
    let mut new = 0;
    for (key, tricks) in rows {
        new += stmt
            .execute(params![&key.0, leader, strain, &tricks[..], source])
            .at(path)? as u64;
    }
    Ok(new)
}

impl Store {
    /// Stores per-card lead tricks of `leader` against a contract in `strain` (declared by
    /// the leader's right-hand opponent), each `(deal, table)` with its deal (inserted when
    /// missing), in one transaction. A deal whose leads are stored for that leader and
    /// strain keeps them. Returns how many rows were new.
    ///
    /// ```
    /// use dealdex::dd::{LeadPosition, lead_table, lead_tricks};
    /// use dealdex::{DealIndex, Seat, Store, Strain};
    /// let deal: dealdex::Deal =
    ///     "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432".parse()?;
    /// let (leader, strain) = (Seat::East, Strain::NoTrump);
    /// let table = lead_table(&lead_tricks(&[LeadPosition { deal, strain, leader }])[0]);
    /// let key = DealIndex::from_deal(&deal);
    /// let mut store = Store::open_in_memory()?;
    /// assert_eq!(store.store_leads(leader, strain, &[(key, table)])?, 1);
    /// assert_eq!(store.store_leads(leader, strain, &[(key, table)])?, 0);
    /// assert_eq!(store.stored_leads(&[key], leader, strain)?, [Some(table)]);
    /// assert_eq!(store.stored_leads(&[key], Seat::West, strain)?, [None]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when SQLite fails (busy past the timeout, disk full, …);
    /// nothing is stored then.
    pub fn store_leads(
        &mut self,
        leader: Seat,
        strain: Strain,
        rows: &[(DealIndex, LeadTable)],
    ) -> Result<u64, StoreError> {
        let (tx, path) = self.write_transaction()?;
        let new = insert_lead_rows(&tx, path, leader, strain, rows)?;
        tx.commit().at(path)?;
        Ok(new)
    }
}

impl SetWriter<'_> {
    /// Stores per-card lead tricks in the writer's transaction, as [`Store::store_leads`]
    /// does in its own: with the set, or not at all. Returns how many rows were new.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] when SQLite fails (the caller then drops the writer).
    pub fn add_leads(
        &mut self,
        leader: Seat,
        strain: Strain,
        rows: &[(DealIndex, LeadTable)],
    ) -> Result<u64, StoreError> {
        let (tx, path) = self.transaction();
        insert_lead_rows(tx, path, leader, strain, rows)
    }
}

impl StoreReader {
    /// The stored per-card lead tricks of each deal of `keys` for `leader` and `strain`, in
    /// the order of `keys`: `None` for a deal without them (not stored, or its leads solved
    /// for another leader or strain only).
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptLeads`] for a row that is not 52 bytes, holds a count above 13,
    /// or whose held cards (the bytes other than [`NOT_HELD`]) are not the leader's 13 cards
    /// of the deal; [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn stored_leads(
        &self,
        keys: &[DealIndex],
        leader: Seat,
        strain: Strain,
    ) -> Result<Vec<Option<LeadTable>>, StoreError> {
        let path = self.path.as_str();
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT tricks FROM leads WHERE deal = ?1 AND leader = ?2 AND strain = ?3",
            )
            .at(path)?;
        let leader_text = leader_sql(leader);
        keys.iter()
            .map(|key| {
                let raw: Option<Vec<u8>> = stmt
                    .query_row(params![&key.0, leader_text, strain.as_str()], |r| {
                        Ok(match r.get_ref(0)? {
                            ValueRef::Blob(b) => b.to_vec(),
                            _ => Vec::new(),
                        })
                    })
                    .optional()
                    .at(path)?;
                raw.map(|bytes| decode(key, leader, &bytes)).transpose()
            })
            .collect()
    }

    /// Where the stored leads of `key` for `leader` and `strain` came from: the solver that
    /// solved them (`Solved`), or [`DdSource::Unknown`] for rows stored before schema version
    /// 9 (solved by pons-dds, its version unrecorded); `None` when none are stored.
    ///
    /// ```
    /// use dealdex::dd::{LeadPosition, lead_table, lead_tricks};
    /// use dealdex::{DdSource, DealIndex, Seat, Store, Strain};
    /// let deal: dealdex::Deal =
    ///     "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432".parse()?;
    /// let (leader, strain) = (Seat::East, Strain::NoTrump);
    /// let table = lead_table(&lead_tricks(&[LeadPosition { deal, strain, leader }])[0]);
    /// let key = DealIndex::from_deal(&deal);
    /// let mut store = Store::open_in_memory()?;
    /// store.store_leads(leader, strain, &[(key, table)])?;
    /// assert_eq!(store.lead_source(&key, leader, strain)?, Some(DdSource::solved_here()));
    /// assert_eq!(store.lead_source(&key, Seat::South, strain)?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptDdSource`] for a source row dealdex does not write;
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn lead_source(
        &self,
        key: &DealIndex,
        leader: Seat,
        strain: Strain,
    ) -> Result<Option<DdSource>, StoreError> {
        let id: Option<i64> = self
            .conn
            .prepare_cached(
                "SELECT source FROM leads WHERE deal = ?1 AND leader = ?2 AND strain = ?3",
            )
            .and_then(|mut s| {
                s.query_row(params![&key.0, leader_sql(leader), strain.as_str()], |r| {
                    r.get(0)
                })
                .optional()
            })
            .at(&self.path)?;
        id.map(|id| self.dd_source_by_id(id)).transpose()
    }
}

/// A stored `leads.tricks` of `key`'s deal and `leader`, checked.
fn decode(key: &DealIndex, leader: Seat, bytes: &[u8]) -> Result<LeadTable, StoreError> {
    let corrupt = |why: String| {
        StoreError::from(StoreErrorKind::CorruptLeads {
            key: *key,
            leader,
            why,
        })
    };
    let table: LeadTable = bytes
        .try_into()
        .map_err(|_| corrupt(format!("{} bytes, expected 52", bytes.len())))?;
    if let Some(t) = table.iter().find(|&&t| t > 13 && t != NOT_HELD) {
        return Err(corrupt(format!("a card's count is {t}, above 13")));
    }
    let held = table
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != NOT_HELD)
        .fold(0u64, |m, (i, _)| m | 1 << i);
    let deal = key
        .to_deal()
        .map_err(|error| StoreErrorKind::CorruptDeal { key: *key, error })?;
    if held != deal.hand(leader).mask() {
        return Err(corrupt("its cards are not the leader's".to_owned()));
    }
    Ok(table)
}
