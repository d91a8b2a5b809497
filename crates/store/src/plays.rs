//! The `plays` table (migration 04): play records stored with their deal.

use rusqlite::params;

use super::played::RowReader;
use super::{At, StoreError, board_to_sql, insert_deal};
#[cfg(doc)]
use crate::StoreErrorKind;
use crate::model::card::Seat;
use crate::model::contract::Strain;
use crate::model::index::DealIndex;
use crate::play::record::{BoardPlay, PlayRecord};

/// A play to store with [`crate::Store::store_plays`]: the deal, the board it was played at
/// and the validated play ([`board_play`](crate::play::record::board_play)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPlay {
    /// The deal played.
    pub deal: DealIndex,
    /// The board number in its file, if it has one (at most `i64::MAX`).
    pub board: Option<u64>,
    /// The play: strain, declarer and the record in play order.
    pub play: BoardPlay,
}

/// A stored play, as [`StoreReader::plays_of`](crate::StoreReader::plays_of) returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPlay {
    /// The set it was imported into, if any.
    pub set_name: Option<String>,
    /// The board number, if known.
    pub board: Option<u64>,
    /// The play. Its record's trick leaders are the holders of each trick's first card.
    pub play: BoardPlay,
}

/// Each play's board number as SQL stores it, checked before any transaction starts.
pub(super) fn play_boards(plays: &[NewPlay]) -> Result<Vec<Option<i64>>, StoreError> {
    plays
        .iter()
        .map(|p| p.board.map(board_to_sql).transpose())
        .collect()
}

/// Inserts plays (and their deals when missing) inside the caller's transaction, so that
/// they commit together with the deals or set they belong to; `boards` from
/// [`play_boards`]. Returns how many plays were new.
pub(super) fn insert_plays(
    tx: &rusqlite::Transaction<'_>,
    path: &str,
    set_id: Option<i64>,
    plays: &[NewPlay],
    boards: &[Option<i64>],
) -> Result<u64, StoreError> {
    let mut new = 0u64;
    let mut deal_stmt = tx.prepare_cached(super::INSERT_DEAL).at(path)?;
    let mut stmt = tx.prepare_cached(INSERT_PLAY).at(path)?;
    for (p, board) in plays.iter().zip(boards) {
        insert_deal(&mut deal_stmt, &p.deal).at(path)?;
        let Some(leader) = p.play.record.opening_leader() else {
            continue; // an empty record: nothing to store
        };
        let cards: Vec<u8> = p
            .play
            .record
            .cards()
            .iter()
            .map(|c| c.index() as u8)
            .collect();
        new += stmt
            .execute(params![
                &p.deal.0,
                set_id,
                board,
                p.play.strain.map(|s| s.as_str()),
                p.play.declarer.map(seat_letter),
                seat_letter(leader),
                cards,
            ])
            .at(path)? as u64;
    }
    Ok(new)
}

const INSERT_PLAY: &str = "INSERT OR IGNORE INTO plays(deal, set_id, board, strain, declarer, \
                           leader, cards) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

fn seat_letter(s: Seat) -> String {
    s.letter().to_string()
}

impl super::Store {
    /// Stores plays in one transaction, each with its deal (inserted when missing) and, when
    /// `set_id` is given, the set it belongs to. A play already stored for the same deal,
    /// set and board with the same cards is not stored again. Returns how many were new.
    ///
    /// ```
    /// use dealdex::formats::Pbn;
    /// use dealdex::{DealFormat, DealIndex, NewPlay, Store, board_play};
    /// let data = std::fs::read("../../tests/fixtures/pbn-spec-example.pbn")?;
    /// let board = Pbn.read(&data)?.remove(0);
    /// let play = board_play(&board.deal, board.game.as_ref().unwrap())?.unwrap();
    /// let mut store = Store::open_in_memory()?;
    /// let new = NewPlay { deal: DealIndex::from_deal(&board.deal), board: board.number, play };
    /// assert_eq!(store.store_plays(None, std::slice::from_ref(&new))?, 1);
    /// assert_eq!(store.store_plays(None, std::slice::from_ref(&new))?, 0);
    /// let stored = store.plays_of(&new.deal)?;
    /// assert_eq!(stored[0].play, new.play);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StoreErrorKind::BoardOutOfRange`] for a board above `i64::MAX`; [`StoreErrorKind::Sqlite`]
    /// when SQLite fails (e.g. `set_id` names no set: a foreign key). Nothing is stored then.
    pub fn store_plays(
        &mut self,
        set_id: Option<i64>,
        plays: &[NewPlay],
    ) -> Result<u64, StoreError> {
        let boards = play_boards(plays)?;
        let (tx, path) = self.write_transaction()?;
        let new = insert_plays(&tx, path, set_id, plays, &boards)?;
        tx.commit().at(path)?;
        Ok(new)
    }
}

impl super::StoreReader {
    /// The plays stored for a deal, ordered by set name (plays in no set first), board and
    /// storing order.
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptPlay`] naming the row and what is wrong when a stored row is not
    /// a play of its deal (changed outside dealdex): a column of the wrong type, a strain or
    /// seat that is none, empty cards or a card byte above 51, a negative board, cards that
    /// do not replay on the deal; [`StoreErrorKind::CorruptKey`];
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn plays_of(&self, key: &DealIndex) -> Result<Vec<StoredPlay>, StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT p.id, s.name, p.board, p.strain, p.declarer, p.cards, p.deal
                 FROM plays p LEFT JOIN sets s ON s.id = p.set_id
                 WHERE p.deal = ?1 ORDER BY s.name, p.board, p.id",
            )
            .at(path)?;
        let mut rows = stmt.query([&key.0]).at(path)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().at(path)? {
            // Every column is read as what it may hold, so that a value of another type
            // (the file changed outside dealdex) is named with its row and column.
            let r = RowReader::new(row, path)?;
            let corrupt = |why: String| r.corrupt(why);
            let deal = r.deal(6)?;
            let strain = match r.text(3, "strain")? {
                None => None,
                Some(t) => Some(
                    t.parse::<Strain>()
                        .map_err(|e| corrupt(format!("strain: {e}")))?,
                ),
            };
            let declarer = r.seat(4, "declarer")?;
            let cards = match r.cards(5)? {
                Some(cards) if cards.is_empty() => return Err(corrupt("cards is empty".into())),
                Some(cards) => cards,
                None => return Err(corrupt("cards is not a BLOB".into())),
            };
            let board = r.board(2)?;
            let set_name = r.text(1, "its set's name")?;
            let record =
                PlayRecord::from_play_order(&deal, &cards).map_err(|e| corrupt(e.to_string()))?;
            record.check(&deal).map_err(|e| corrupt(e.to_string()))?;
            out.push(StoredPlay {
                set_name,
                board,
                play: BoardPlay {
                    strain,
                    declarer,
                    record,
                    cut_by: None,
                },
            });
        }
        Ok(out)
    }
}
