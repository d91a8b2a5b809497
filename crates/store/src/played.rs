//! The `played` table (migration 10): boards as played at a table — room, players, auction,
//! contract, declarer, result, score and play — stored with their deal, so that `export`
//! writes them back.

use rusqlite::params;
use rusqlite::types::ValueRef;
use rusqlite_migration::{HookError, HookResult};

use super::{At, StoreError, StoreErrorKind, board_to_sql, insert_deal, key_from_sql};
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Seat};
use crate::model::contract::{Contract, Doubling};
use crate::model::deal::Deal;
use crate::model::game::GameRecord;
use crate::model::index::DealIndex;

/// The players' seats, in the order of the table's columns and [`PlayedTable::players`].
pub(super) const PLAYERS: [Seat; 4] = [Seat::North, Seat::East, Seat::South, Seat::West];

/// A board as played at a table, to store with the set it was imported into: its deal,
/// number, dealer and vulnerability, and its game record, of which the `played` table keeps
/// the tags `Room`, `North`, `East`, `South`, `West`, `Contract`, `Declarer`, `Result`,
/// `Score`, the auction with its notes, and the play (`cards`, validated by the caller:
/// [`crate::play::record::board_play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPlayed {
    /// The deal played.
    pub deal: DealIndex,
    /// The board number in its file, if it has one (at most `i64::MAX`).
    pub board: Option<u64>,
    /// The dealer.
    pub dealer: Seat,
    /// The vulnerability.
    pub vulnerability: Vulnerability,
    /// The record: tags, auction, notes (its play is not read: see `cards`).
    pub game: GameRecord,
    /// The cards played, in play order (empty without play).
    pub cards: Vec<Card>,
}

/// A played board as the store gives it back ([`crate::StoreReader::played_in_set`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPlayed {
    /// The board number, if known.
    pub board: Option<u64>,
    /// The dealer.
    pub dealer: Seat,
    /// The vulnerability.
    pub vulnerability: Vulnerability,
    /// The record: the tags kept (room, players, contract, declarer, result, score), the
    /// auction and the play in PBN's layout.
    pub game: GameRecord,
}

fn vul_text(v: Vulnerability) -> &'static str {
    v.pbn()
}

pub(super) fn vul_from(t: &str) -> Option<Vulnerability> {
    [
        Vulnerability::None,
        Vulnerability::NorthSouth,
        Vulnerability::EastWest,
        Vulnerability::All,
    ]
    .into_iter()
    .find(|v| v.pbn() == t)
}

/// The stored `notes` column (one `k:text` a line) as numbered notes.
pub(super) fn notes_from(text: &str) -> Vec<(u32, String)> {
    text.lines()
        .filter_map(|l| {
            let (k, t) = l.split_once(':')?;
            Some((k.parse::<u32>().ok()?, t.to_string()))
        })
        .collect()
}

/// A tag's value, `None` when missing, empty or `?`.
fn tag<'a>(game: &'a GameRecord, name: &str) -> Option<&'a str> {
    game.tag(name).filter(|v| !v.is_empty() && *v != "?")
}

/// What migration 12 derives from a played board's contract, declarer, result and
/// vulnerability: `(level, strain, doubled, score_ns)` as the `played` columns of those names
/// hold them (`strain` `NT`, `S`, …; `doubled` 0..=2; `score_ns` North-South's score, 0 when
/// passed out); each `None` when the record does not tell it.
pub(super) fn contract_columns(
    contract: Option<&str>,
    declarer: Option<Seat>,
    result: Option<i64>,
    vulnerability: Vulnerability,
) -> (Option<i64>, Option<&'static str>, Option<i64>, Option<i64>) {
    let Some(text) = contract else {
        return (None, None, None, None);
    };
    if text.trim().eq_ignore_ascii_case("pass") {
        return (None, None, None, Some(0));
    }
    let Some(c) = declarer
        .and_then(|d| Contract::from_pbn(text, d))
        .or_else(|| {
            // Without a declarer the contract is still told: any seat gives its level and strain.
            Contract::from_pbn(text, Seat::North).map(|c| Contract {
                declarer: Seat::North,
                ..c
            })
        })
    else {
        return (None, None, None, None);
    };
    let doubled = match c.doubling {
        Doubling::Undoubled => 0,
        Doubling::Doubled => 1,
        Doubling::Redoubled => 2,
    };
    let score = match (declarer, result.and_then(|r| u8::try_from(r).ok())) {
        (Some(_), Some(tricks)) if tricks <= 13 => {
            Some(i64::from(c.score_ns(tricks, vulnerability)))
        }
        _ => None,
    };
    (
        Some(i64::from(c.level)),
        Some(c.strain.as_str()),
        Some(doubled),
        score,
    )
}

/// Migration 12's hook: fills `level`, `strain`, `doubled` and `score_ns` of every played
/// board stored before it ([`contract_columns`]).
pub(super) fn backfill_contract_columns(tx: &rusqlite::Transaction) -> HookResult {
    let mut rows = Vec::new();
    {
        let mut stmt =
            tx.prepare("SELECT id, contract, declarer, result, vulnerable FROM played")?;
        let mut q = stmt.query([])?;
        while let Some(r) = q.next()? {
            let declarer: Option<String> = r.get(2)?;
            let vul: String = r.get(4)?;
            rows.push((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<String>>(1)?,
                declarer
                    .and_then(|d| d.chars().next())
                    .and_then(Seat::from_char),
                r.get::<_, Option<i64>>(3)?,
                vul_from(&vul).ok_or_else(|| {
                    HookError::Hook(format!("played row: {vul:?} is not a vulnerability"))
                })?,
            ));
        }
    }
    let mut stmt = tx.prepare(
        "UPDATE played SET level = ?2, strain = ?3, doubled = ?4, score_ns = ?5 WHERE id = ?1",
    )?;
    for (id, contract, declarer, result, vul) in rows {
        let (level, strain, doubled, score) =
            contract_columns(contract.as_deref(), declarer, result, vul);
        stmt.execute(params![id, level, strain, doubled, score])?;
    }
    Ok(())
}

/// Inserts played boards (and their deals when missing) inside the caller's transaction;
/// returns how many were new.
pub(super) fn insert_played(
    tx: &rusqlite::Transaction<'_>,
    path: &str,
    set_id: Option<i64>,
    played: &[NewPlayed],
) -> Result<u64, StoreError> {
    let mut new = 0u64;
    let mut deal_stmt = tx.prepare_cached(super::INSERT_DEAL).at(path)?;
    let mut stmt = tx.prepare_cached(INSERT_PLAYED).at(path)?;
    for p in played {
        let board = p.board.map(board_to_sql).transpose()?;
        insert_deal(&mut deal_stmt, &p.deal).at(path)?;
        let g = &p.game;
        let auction = g.auction.as_ref().map(|a| a.calls.join(" "));
        let notes = g.auction.as_ref().filter(|a| !a.notes.is_empty()).map(|a| {
            a.notes
                .iter()
                .map(|(k, t)| format!("{k}:{}", t.replace('\n', " ")))
                .collect::<Vec<_>>()
                .join("\n")
        });
        let declarer = tag(g, "Declarer")
            .and_then(|d| d.chars().next())
            .and_then(Seat::from_char)
            .map(|s| s.letter().to_string());
        let result: Option<i64> = tag(g, "Result")
            .and_then(|r| r.parse::<i64>().ok())
            .filter(|r| (0..=13).contains(r));
        let room = tag(g, "Room").filter(|r| *r == "Open" || *r == "Closed");
        let seat = declarer
            .as_deref()
            .and_then(|d| d.chars().next())
            .and_then(Seat::from_char);
        let (level, strain, doubled, score_ns) =
            contract_columns(tag(g, "Contract"), seat, result, p.vulnerability);
        let cards: Option<Vec<u8>> =
            (!p.cards.is_empty()).then(|| p.cards.iter().map(|c| c.index() as u8).collect());
        let leader = match p.cards.first() {
            Some(&c) => {
                let deal = p
                    .deal
                    .to_deal()
                    .map_err(|error| StoreErrorKind::CorruptDeal { key: p.deal, error })?;
                Some(deal.seat_of(c).letter().to_string())
            }
            None => None,
        };
        new += stmt
            .execute(params![
                &p.deal.0,
                set_id,
                board,
                room,
                tag(g, "North"),
                tag(g, "East"),
                tag(g, "South"),
                tag(g, "West"),
                p.dealer.letter().to_string(),
                vul_text(p.vulnerability),
                auction,
                notes,
                tag(g, "Contract"),
                declarer,
                result,
                tag(g, "Score"),
                leader,
                cards,
                tag(g, "Event"),
                level,
                strain,
                doubled,
                score_ns,
            ])
            .at(path)? as u64;
    }
    Ok(new)
}

const INSERT_PLAYED: &str = "INSERT OR IGNORE INTO played(deal, set_id, board, room, north, \
     east, south, west, dealer, vulnerable, auction, notes, contract, declarer, result, score, \
     leader, cards, event, level, strain, doubled, score_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, \
     ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)";

impl super::StoreReader {
    /// True when set `set` has played boards stored with it.
    ///
    /// # Errors
    /// [`StoreErrorKind::Sqlite`] if the query fails.
    pub fn set_has_played(&self, set: &str) -> Result<bool, StoreError> {
        self.conn
            .prepare_cached(
                "SELECT EXISTS(SELECT 1 FROM played p JOIN sets s ON s.id = p.set_id
                 WHERE s.name = ?1)",
            )
            .at(&self.path)?
            .query_row([set], |r| r.get(0))
            .at(&self.path)
    }
}

/// A table's record of a played board as every read of `played` gives it: the part
/// [`crate::PlayedRow`] (the whole record) and [`crate::FoundPlayed`] (a played search's
/// match) share. Every field but `id` is `None` where the record does not tell it.
///
/// JSON (flattened into [`crate::FoundPlayed`] and the engine's played-board view):
/// `{"id": 7, "set": "match", "board": 3, "room": "Open", "event": "…", "north": "…",
/// "east": null, "south": "…", "west": "…", "contract": "3NT", "declarer": "S", "tricks": 9}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PlayedTable {
    /// Its row (`played.id`).
    pub id: i64,
    /// The set it was imported into.
    pub set: Option<String>,
    /// The board number in its file.
    pub board: Option<u64>,
    /// `Open` or `Closed`.
    pub room: Option<String>,
    /// The event (LIN `vg|`'s first field, PBN's Event tag; migration 12).
    pub event: Option<String>,
    /// The players, North, East, South, West; in JSON the keys `north` … `west`, as the
    /// PBN tags and the query language's terms name them.
    #[serde(flatten, serialize_with = "players_by_seat")]
    pub players: [Option<String>; 4],
    /// The contract as stored (`4HX`, `3NT`, `Pass`).
    pub contract: Option<String>,
    /// Declarer (none when passed out); its letter in JSON.
    #[serde(serialize_with = "crate::model::text::option_as_text")]
    pub declarer: Option<Seat>,
    /// The tricks declarer took, 0..=13 (the `Result` tag).
    pub tricks: Option<u8>,
}

/// The players as a map from the seats' lower-case names (`north` … `west`), the names
/// `null` where the record has none.
fn players_by_seat<S: serde::Serializer>(
    players: &[Option<String>; 4],
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(4))?;
    for (seat, name) in PLAYERS.iter().zip(players) {
        map.serialize_entry(&seat.name().to_ascii_lowercase(), name)?;
    }
    map.end()
}

/// [`PlayedTable`]'s columns, in its order: a read of `played` selects them first (joined
/// with `sets`), and [`RowReader::table`] reads them.
pub(super) const TABLE_COLUMNS: &str = "played.id, sets.name, played.board, played.room, \
     played.event, played.north, played.east, played.south, played.west, played.contract, \
     played.declarer, played.result";

/// How many columns [`TABLE_COLUMNS`] names: a read's own columns come after them.
pub(super) const TABLE_WIDTH: usize = 12;

/// One stored row of `played` or `plays` (its id in column 0), each column read as the type
/// its migration gives it: a value of another type or out of range (the file changed
/// outside dealdex) is [`StoreErrorKind::CorruptPlay`] naming the row and the column.
pub(super) struct RowReader<'a, 'stmt> {
    row: &'a rusqlite::Row<'stmt>,
    path: &'a str,
    /// The row's id.
    pub id: i64,
}

impl<'a, 'stmt> RowReader<'a, 'stmt> {
    /// The reader of `row` of the database `path`.
    pub fn new(row: &'a rusqlite::Row<'stmt>, path: &'a str) -> Result<Self, StoreError> {
        let id = row.get(0).at(path)?;
        Ok(RowReader { row, path, id })
    }

    /// The error naming this row and what is wrong with it.
    pub fn corrupt(&self, why: String) -> StoreError {
        StoreErrorKind::CorruptPlay { id: self.id, why }.into()
    }

    fn value(&self, i: usize) -> Result<ValueRef<'_>, StoreError> {
        self.row.get_ref(i).at(self.path)
    }

    /// Text column `i` (named `column`), NULL as `None`.
    pub fn text(&self, i: usize, column: &str) -> Result<Option<String>, StoreError> {
        match self.value(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Text(t) => Ok(Some(String::from_utf8_lossy(t).into_owned())),
            other => Err(self.corrupt(format!("{column} is {}, not TEXT", other.data_type()))),
        }
    }

    /// Seat column `i` (`N`, `E`, `S` or `W`), NULL as `None`.
    pub fn seat(&self, i: usize, column: &str) -> Result<Option<Seat>, StoreError> {
        self.text(i, column)?
            .map(|t| {
                let mut c = t.chars();
                match (c.next().and_then(Seat::from_char), c.next()) {
                    (Some(s), None) => Ok(s),
                    _ => Err(self.corrupt(format!("{column} {t:?} is not a seat"))),
                }
            })
            .transpose()
    }

    /// `value` of column `column`, which the row must have.
    pub fn required<T>(&self, value: Option<T>, column: &str) -> Result<T, StoreError> {
        value.ok_or_else(|| self.corrupt(format!("no {column}")))
    }

    /// Seat column `i` that the row must have (the dealer).
    pub fn required_seat(&self, i: usize, column: &str) -> Result<Seat, StoreError> {
        self.required(self.seat(i, column)?, column)
    }

    /// Vulnerability column `i` (`None`, `NS`, `EW`, `All`).
    pub fn vulnerability(&self, i: usize) -> Result<Vulnerability, StoreError> {
        let vul = self.text(i, "vulnerable")?.unwrap_or_default();
        vul_from(&vul).ok_or_else(|| self.corrupt(format!("{vul:?} is not a vulnerability")))
    }

    /// Integer column `i` (named `column`), NULL as `None`.
    pub fn integer(&self, i: usize, column: &str) -> Result<Option<i64>, StoreError> {
        match self.value(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Integer(v) => Ok(Some(v)),
            other => Err(self.corrupt(format!("{column} is {}, not INTEGER", other.data_type()))),
        }
    }

    /// Board number column `i`, NULL as `None`.
    pub fn board(&self, i: usize) -> Result<Option<u64>, StoreError> {
        self.integer(i, "board")?
            .map(|v| u64::try_from(v).map_err(|_| self.corrupt(format!("board {v} is negative"))))
            .transpose()
    }

    /// A count of tricks (0..=13) in column `i`, NULL as `None`.
    pub fn tricks(&self, i: usize, column: &str) -> Result<Option<u8>, StoreError> {
        self.integer(i, column)?
            .map(|v| {
                u8::try_from(v)
                    .ok()
                    .filter(|v| *v <= 13)
                    .ok_or_else(|| self.corrupt(format!("{column} {v} is not 0..=13")))
            })
            .transpose()
    }

    /// BLOB column `i` (named `column`), NULL as `None`.
    pub fn blob(&self, i: usize, column: &str) -> Result<Option<Vec<u8>>, StoreError> {
        match self.value(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Blob(b) => Ok(Some(b.to_vec())),
            _ => Err(self.corrupt(format!("{column} is not a BLOB"))),
        }
    }

    /// The cards column `i` (one byte a card, [`Card::index`]), in play order; NULL as `None`.
    pub fn cards(&self, i: usize) -> Result<Option<Vec<Card>>, StoreError> {
        self.blob(i, "cards")?
            .map(|b| {
                b.into_iter()
                    .map(|i| {
                        Card::from_index(usize::from(i))
                            .ok_or_else(|| self.corrupt(format!("card byte {i} is not 0..51")))
                    })
                    .collect()
            })
            .transpose()
    }

    /// The deal key column `i`.
    ///
    /// # Errors
    /// [`StoreErrorKind::CorruptKey`] when it is not 13 bytes.
    pub fn key(&self, i: usize) -> Result<DealIndex, StoreError> {
        key_from_sql(self.value(i)?)
    }

    /// The deal of key column `i`, whole.
    pub fn deal(&self, i: usize) -> Result<Deal, StoreError> {
        self.key(i)?
            .to_deal()
            .map_err(|e| self.corrupt(format!("its deal: {e}")))
    }

    /// The [`TABLE_COLUMNS`] at the start of the row.
    pub fn table(&self) -> Result<PlayedTable, StoreError> {
        let player = |i: usize| self.text(5 + i, PLAYERS[i].name());
        Ok(PlayedTable {
            id: self.id,
            set: self.text(1, "its set's name")?,
            board: self.board(2)?,
            room: self.text(3, "room")?,
            event: self.text(4, "event")?,
            players: [player(0)?, player(1)?, player(2)?, player(3)?],
            contract: self.text(9, "contract")?,
            declarer: self.seat(10, "declarer")?,
            tricks: self.tricks(11, "result")?,
        })
    }
}
