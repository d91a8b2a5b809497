//! Reading played boards whole (`played`, migration 10) with their judgement (`played_dd`,
//! migration 11), as the engine's played-board view ([`StoreReader::played_rows`]) shows them:
//! of one set, one deal, one row or the whole database.

use rusqlite::params;
use rusqlite::types::ValueRef;

use super::{At, StoreError, StoreReader, board_from_sql, key_from_sql};
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Seat};
use crate::model::index::DealIndex;

/// Which played boards [`StoreReader::played_rows`] reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayedSelection {
    /// Every played board of the database.
    All,
    /// The played boards imported into this set (`import --set`, or the file's own set).
    Set(String),
    /// The tables that played this deal, in any set.
    Deal(DealIndex),
    /// One played board, by its row (`played.id`).
    Id(i64),
}

/// A played board as stored, with its judgement when `dealdex judge` stored one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedRow {
    /// Its row (`played.id`).
    pub id: i64,
    /// The deal played.
    pub deal: DealIndex,
    /// The set it was imported into, if any.
    pub set: Option<String>,
    /// The board number in its file, if it had one.
    pub board: Option<u64>,
    /// `Open` or `Closed`, when the file says.
    pub room: Option<String>,
    /// The players' names, North, East, South, West; `None` when not told.
    pub players: [Option<String>; 4],
    /// The dealer.
    pub dealer: Seat,
    /// The vulnerability.
    pub vulnerability: Vulnerability,
    /// The calls from the dealer as PBN tokens (`1NT`, `Pass`, `X`, note references `=k=`
    /// after the call they explain); `None` without an auction.
    pub auction: Option<Vec<String>>,
    /// The notes the references name: number and text.
    pub notes: Vec<(u32, String)>,
    /// The contract as stored (`4HX`, `3NT`, `Pass`), when told.
    pub contract: Option<String>,
    /// Declarer, when told (none when passed out).
    pub declarer: Option<Seat>,
    /// The tricks declarer took, 0..=13, when told.
    pub result: Option<u8>,
    /// The score as the file gives it (`NS 620`), when told.
    pub score: Option<String>,
    /// The cards in play order, the opening lead first; empty without play.
    pub cards: Vec<Card>,
    /// The stored judgement: declarer's side's tricks before the lead then after each card
    /// (one more than `cards`), or why the board could not be judged; `None` when not judged.
    pub judgement: Option<Result<Vec<u8>, String>>,
}

/// The columns read, in [`PlayedRow`]'s order; the filter (`?1`) picks the selection.
const SELECT_PLAYED: &str = "SELECT p.id, p.deal, s.name, p.board, p.room, p.north, p.east,
        p.south, p.west, p.dealer, p.vulnerable, p.auction, p.notes, p.contract, p.declarer,
        p.result, p.score, p.cards, d.tricks, d.fault
     FROM played p LEFT JOIN sets s ON s.id = p.set_id LEFT JOIN played_dd d ON d.played = p.id";

/// Set, then board, open room before closed, then storing order: `export`'s order.
const ORDER_PLAYED: &str = "ORDER BY p.set_id, p.board, ifnull(p.room, '') = 'Closed', p.id";

impl StoreReader {
    /// The played boards `which` names, with their judgements: by set (in storing order of
    /// the sets), board number, open room first, then storing order. An empty list when none
    /// is stored (an unknown set or row included).
    ///
    /// # Errors
    /// [`StoreError::CorruptPlay`] naming the row when a stored value is not what migration
    /// 10 or 11 allows (changed outside dealdex); [`StoreError::CorruptKey`];
    /// [`StoreError::Sqlite`] if the query fails.
    pub fn played_rows(&self, which: &PlayedSelection) -> Result<Vec<PlayedRow>, StoreError> {
        let path = &self.path;
        let (filter, value): (&str, rusqlite::types::Value) = match which {
            PlayedSelection::All => ("?1 IS NULL", rusqlite::types::Value::Null),
            PlayedSelection::Set(name) => ("s.name = ?1", name.clone().into()),
            PlayedSelection::Deal(key) => ("p.deal = ?1", key.0.to_vec().into()),
            PlayedSelection::Id(id) => ("p.id = ?1", (*id).into()),
        };
        let sql = format!("{SELECT_PLAYED} WHERE {filter} {ORDER_PLAYED}");
        let mut stmt = self.conn.prepare_cached(&sql).at(path)?;
        let mut rows = stmt.query(params![value]).at(path)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().at(path)? {
            out.push(played_row(row, path)?);
        }
        Ok(out)
    }
}

/// One row of [`SELECT_PLAYED`].
fn played_row(row: &rusqlite::Row<'_>, path: &str) -> Result<PlayedRow, StoreError> {
    let id: i64 = row.get(0).at(path)?;
    let corrupt = |why: String| StoreError::CorruptPlay { id, why };
    let text = |i: usize| super::played::column_text(row, i, path, id);
    let seat = |i: usize| super::played::seat_from(text(i)?, id);
    let blob = |i: usize| -> Result<Option<Vec<u8>>, StoreError> {
        match row.get_ref(i).at(path)? {
            ValueRef::Null => Ok(None),
            ValueRef::Blob(b) => Ok(Some(b.to_vec())),
            other => Err(corrupt(format!("column {i} is {}", other.data_type()))),
        }
    };
    let vul = text(10)?.unwrap_or_default();
    let vulnerability = super::played::vul_from(&vul)
        .ok_or_else(|| corrupt(format!("{vul:?} is not a vulnerability")))?;
    let board = match row.get_ref(3).at(path)? {
        ValueRef::Integer(b) => Some(board_from_sql(b)?),
        _ => None,
    };
    let result = match row.get_ref(15).at(path)? {
        ValueRef::Integer(r) => Some(
            u8::try_from(r)
                .ok()
                .filter(|r| *r <= 13)
                .ok_or_else(|| corrupt(format!("result {r}")))?,
        ),
        _ => None,
    };
    let cards = blob(17)?
        .unwrap_or_default()
        .into_iter()
        .map(|b| Card::from_index(usize::from(b)).ok_or_else(|| corrupt(format!("card byte {b}"))))
        .collect::<Result<Vec<Card>, StoreError>>()?;
    let judgement = match (blob(18)?, text(19)?) {
        (Some(tricks), _) if tricks.len() == cards.len() + 1 => Some(Ok(tricks)),
        (Some(tricks), _) => {
            return Err(corrupt(format!(
                "{} judged values for {} cards",
                tricks.len(),
                cards.len()
            )));
        }
        (None, Some(fault)) => Some(Err(fault)),
        (None, None) => None,
    };
    Ok(PlayedRow {
        id,
        deal: key_from_sql(row.get_ref(1).at(path)?)?,
        set: text(2)?,
        board,
        room: text(4)?,
        players: [text(5)?, text(6)?, text(7)?, text(8)?],
        dealer: seat(9)?.ok_or_else(|| corrupt("no dealer".into()))?,
        vulnerability,
        auction: text(11)?.map(|a| a.split_whitespace().map(String::from).collect()),
        notes: text(12)?
            .map(|n| super::played::notes_from(&n))
            .unwrap_or_default(),
        contract: text(13)?,
        declarer: seat(14)?,
        result,
        score: text(16)?,
        cards,
        judgement,
    })
}
