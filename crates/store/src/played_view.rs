//! Reading played boards whole (`played`, migrations 10 and 12) with their judgement
//! (`played_dd`, migration 11): as the engine's played-board view ([`StoreReader::played_rows`])
//! shows them, of one set, one deal, one row or the whole database, and as `export` writes
//! them back ([`StoreReader::played_in_set`]). Both are one read ([`PlayedRow`]), whose
//! table part ([`PlayedTable`]) a played search shares.

use rusqlite::params_from_iter;
use rusqlite::types::Value;

use super::played::{PLAYERS, PlayedTable, RowReader, TABLE_COLUMNS, TABLE_WIDTH, notes_from};
use super::{At, StoreError, StoreErrorKind, StoreReader, StoredPlayed, board_to_sql};
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Seat};
use crate::model::game::{Auction, GameRecord};
use crate::model::index::DealIndex;
use crate::play::record::PlayRecord;

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
    /// Its row, set, board, room, event, players, contract, declarer and tricks.
    pub table: PlayedTable,
    /// The deal played.
    pub deal: DealIndex,
    /// The dealer.
    pub dealer: Seat,
    /// The vulnerability.
    pub vulnerability: Vulnerability,
    /// The calls from the dealer as PBN tokens (`1NT`, `Pass`, `X`, note references `=k=`
    /// after the call they explain); `None` without an auction.
    pub auction: Option<Vec<String>>,
    /// The notes the references name: number and text.
    pub notes: Vec<(u32, String)>,
    /// The score as the file gives it (`NS 620`), when told.
    pub score: Option<String>,
    /// The cards in play order, the opening lead first; empty without play.
    pub cards: Vec<Card>,
    /// The stored judgement: declarer's side's tricks before the lead then after each card
    /// (one more than `cards`), or why the board could not be judged; `None` when not judged.
    pub judgement: Option<Result<Vec<u8>, String>>,
}

/// [`TABLE_COLUMNS`] then [`PlayedRow`]'s own, in its order; a filter follows.
const SELECT_PLAYED: &str = "played.deal, played.dealer, played.vulnerable, played.auction, \
     played.notes, played.score, played.cards, played_dd.tricks, played_dd.fault \
     FROM played LEFT JOIN sets ON sets.id = played.set_id \
     LEFT JOIN played_dd ON played_dd.played = played.id";

/// Set, then board, open room before closed, then storing order: `export`'s order.
const ORDER_PLAYED: &str =
    "ORDER BY played.set_id, played.board, ifnull(played.room, '') = 'Closed', played.id";

impl StoreReader {
    /// The played boards `which` names, with their judgements: by set (in storing order of
    /// the sets), board number, open room first, then storing order. An empty list when none
    /// is stored (an unknown set or row included).
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptPlay`] naming the row and column when a stored value is not what
    /// migrations 10 to 12 allow (changed outside dealdex); [`StoreErrorKind::CorruptKey`];
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn played_rows(&self, which: &PlayedSelection) -> Result<Vec<PlayedRow>, StoreError> {
        let (filter, value): (&str, Value) = match which {
            PlayedSelection::All => ("?1 IS NULL", Value::Null),
            PlayedSelection::Set(name) => ("sets.name = ?1", name.clone().into()),
            PlayedSelection::Deal(key) => ("played.deal = ?1", key.0.to_vec().into()),
            PlayedSelection::Id(id) => ("played.id = ?1", (*id).into()),
        };
        self.played_where(filter, &[value])
    }

    /// The played boards stored with board `board` of set `set`, open room first, then in
    /// storing order, as records `export` writes.
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptPlay`] naming the row when a stored row is not a played board of
    /// its deal (changed outside dealdex); [`StoreErrorKind::CorruptKey`];
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn played_in_set(&self, set: &str, board: u64) -> Result<Vec<StoredPlayed>, StoreError> {
        let board = board_to_sql(board)?;
        self.played_where(
            "sets.name = ?1 AND played.board = ?2",
            &[set.to_owned().into(), board.into()],
        )?
        .into_iter()
        .map(stored_played)
        .collect()
    }

    /// The played boards matching `filter` (over `played`, `sets` and `played_dd`, with
    /// `values` bound), in [`ORDER_PLAYED`].
    fn played_where(&self, filter: &str, values: &[Value]) -> Result<Vec<PlayedRow>, StoreError> {
        let path = &self.path;
        let sql = format!("SELECT {TABLE_COLUMNS}, {SELECT_PLAYED} WHERE {filter} {ORDER_PLAYED}");
        let mut stmt = self.conn.prepare_cached(&sql).at(path)?;
        let mut rows = stmt.query(params_from_iter(values)).at(path)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().at(path)? {
            out.push(played_row(&RowReader::new(row, path)?)?);
        }
        Ok(out)
    }
}

/// One row of [`SELECT_PLAYED`].
fn played_row(r: &RowReader<'_, '_>) -> Result<PlayedRow, StoreError> {
    let own = |i: usize| TABLE_WIDTH + i;
    let cards = r.cards(own(6))?.unwrap_or_default();
    let judgement = match (
        r.blob(own(7), "its judged tricks")?,
        r.text(own(8), "fault")?,
    ) {
        (Some(tricks), _) if tricks.len() == cards.len() + 1 => Some(Ok(tricks)),
        (Some(tricks), _) => {
            return Err(r.corrupt(format!(
                "{} judged values for {} cards",
                tricks.len(),
                cards.len()
            )));
        }
        (None, Some(fault)) => Some(Err(fault)),
        (None, None) => None,
    };
    Ok(PlayedRow {
        table: r.table()?,
        deal: r.key(own(0))?,
        dealer: r.required_seat(own(1), "dealer")?,
        vulnerability: r.vulnerability(own(2))?,
        auction: r
            .text(own(3), "auction")?
            .map(|a| a.split_whitespace().map(String::from).collect()),
        notes: r
            .text(own(4), "notes")?
            .map(|n| notes_from(&n))
            .unwrap_or_default(),
        score: r.text(own(5), "score")?,
        cards,
        judgement,
    })
}

/// A row as the record `export` writes: its tags ([`record_tags`]), its auction with the
/// notes, and its play in PBN's layout.
fn stored_played(row: PlayedRow) -> Result<StoredPlayed, StoreError> {
    let corrupt = |why: String| {
        StoreError::from(StoreErrorKind::CorruptPlay {
            id: row.table.id,
            why,
        })
    };
    let play = match row.cards.is_empty() {
        true => None,
        false => {
            let deal = row
                .deal
                .to_deal()
                .map_err(|e| corrupt(format!("its deal: {e}")))?;
            PlayRecord::from_play_order(&deal, &row.cards)
                .map_err(|e| corrupt(e.to_string()))?
                .to_pbn_play()
        }
    };
    Ok(StoredPlayed {
        board: row.table.board,
        dealer: row.dealer,
        vulnerability: row.vulnerability,
        game: GameRecord {
            tags: record_tags(&row.table, row.score),
            auction: row.auction.map(|calls| Auction {
                first: row.dealer,
                calls,
                notes: row.notes,
            }),
            play,
            ..GameRecord::default()
        },
    })
}

/// The PBN tags a played board keeps: Event (the match's, migration 12), Room, the players,
/// Contract, Declarer, Result (empty for a board passed out), Score.
fn record_tags(table: &PlayedTable, score: Option<String>) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tag = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            tags.push((name.to_owned(), v));
        }
    };
    tag("Event", table.event.clone());
    tag("Room", table.room.clone());
    for (seat, name) in PLAYERS.iter().zip(&table.players) {
        tag(seat.name(), name.clone());
    }
    // Passed out: PBN's "not applicable" for declarer and result.
    let passed = table
        .contract
        .as_deref()
        .is_some_and(|c| c.eq_ignore_ascii_case("pass"));
    let or_passed = |v: Option<String>| v.or_else(|| passed.then(String::new));
    tag("Contract", table.contract.clone());
    tag(
        "Declarer",
        or_passed(table.declarer.map(|d| d.letter().to_string())),
    );
    tag("Result", or_passed(table.tricks.map(|t| t.to_string())));
    tag("Score", score);
    tags
}
