//! The `played` table (migration 10): boards as played at a table — room, players, auction,
//! contract, declarer, result, score and play — stored with their deal, so that `export`
//! writes them back.

use rusqlite::params;
use rusqlite::types::ValueRef;
use rusqlite_migration::{HookError, HookResult};

use super::{At, StoreError, board_to_sql, insert_deal, key_from_sql};
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Seat};
use crate::model::contract::{Contract, Doubling};
use crate::model::game::{Auction, GameRecord};
use crate::model::index::DealIndex;
use crate::play::record::PlayRecord;

/// The tags of a played board the table keeps, in the order [`StoredPlayed::game`] gives them.
const PLAYERS: [Seat; 4] = [Seat::North, Seat::East, Seat::South, Seat::West];

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
                    .map_err(|error| StoreError::CorruptDeal { key: p.deal, error })?;
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
    /// [`StoreError::Sqlite`] if the query fails.
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

    /// The played boards stored with board `board` of set `set`, open room first, then in
    /// storing order.
    ///
    /// # Errors
    /// [`StoreError::CorruptPlay`] naming the row when a stored row is not a played board of
    /// its deal (changed outside dealdex); [`StoreError::CorruptKey`];
    /// [`StoreError::Sqlite`] if the query fails.
    pub fn played_in_set(&self, set: &str, board: u64) -> Result<Vec<StoredPlayed>, StoreError> {
        let path = &self.path;
        let board = board_to_sql(board)?;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT p.id, p.deal, p.board, p.room, p.north, p.east, p.south, p.west,
                        p.dealer, p.vulnerable, p.auction, p.notes, p.contract, p.declarer,
                        p.result, p.score, p.cards, p.event
                 FROM played p JOIN sets s ON s.id = p.set_id
                 WHERE s.name = ?1 AND p.board = ?2
                 ORDER BY ifnull(p.room, '') = 'Closed', p.id",
            )
            .at(path)?;
        let mut rows = stmt.query(params![set, board]).at(path)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().at(path)? {
            let id: i64 = row.get(0).at(path)?;
            let corrupt = |why: String| StoreError::CorruptPlay { id, why };
            let deal = key_from_sql(row.get_ref(1).at(path)?)?
                .to_deal()
                .map_err(|e| corrupt(format!("its deal: {e}")))?;
            let text = |i: usize| column_text(row, i, path, id);
            let seat = |t: Option<String>| seat_from(t, id);
            let dealer = seat(text(8)?)?.ok_or_else(|| corrupt("no dealer".into()))?;
            let vul = text(9)?.unwrap_or_default();
            let vulnerability =
                vul_from(&vul).ok_or_else(|| corrupt(format!("{vul:?} is not a vulnerability")))?;
            let tags = record_tags(row, path, id)?;
            let notes = text(11)?.map(|n| notes_from(&n)).unwrap_or_default();
            let auction = text(10)?.map(|a| Auction {
                first: dealer,
                calls: a
                    .split(' ')
                    .filter(|t| !t.is_empty())
                    .map(String::from)
                    .collect(),
                notes,
            });
            let play = match row.get_ref(16).at(path)? {
                ValueRef::Null => None,
                ValueRef::Blob(b) => {
                    let cards = b
                        .iter()
                        .map(|&i| {
                            Card::from_index(i as usize)
                                .ok_or_else(|| corrupt(format!("card byte {i} is not 0..51")))
                        })
                        .collect::<Result<Vec<Card>, StoreError>>()?;
                    let record = PlayRecord::from_play_order(&deal, &cards)
                        .map_err(|e| corrupt(e.to_string()))?;
                    record.to_pbn_play()
                }
                other => return Err(corrupt(format!("cards is {}", other.data_type()))),
            };
            let number = match row.get_ref(2).at(path)? {
                ValueRef::Integer(v) => u64::try_from(v).ok(),
                _ => None,
            };
            out.push(StoredPlayed {
                board: number,
                dealer,
                vulnerability,
                game: GameRecord {
                    tags,
                    auction,
                    play,
                    ..GameRecord::default()
                },
            });
        }
        Ok(out)
    }
}

/// Column `i` of a `played` row (`id`) as text, NULL as `None`; another type is a corrupt row.
pub(super) fn column_text(
    row: &rusqlite::Row<'_>,
    i: usize,
    path: &str,
    id: i64,
) -> Result<Option<String>, StoreError> {
    match row.get_ref(i).at(path)? {
        ValueRef::Null => Ok(None),
        ValueRef::Text(t) => Ok(Some(String::from_utf8_lossy(t).into_owned())),
        other => Err(StoreError::CorruptPlay {
            id,
            why: format!("column {i} is {}, not TEXT", other.data_type()),
        }),
    }
}

/// A seat column's text (`N`, `E`, `S`, `W`) as a seat, NULL as `None`.
pub(super) fn seat_from(t: Option<String>, id: i64) -> Result<Option<Seat>, StoreError> {
    t.map(|t| Seat::from_char(t.chars().next().unwrap_or('?')).ok_or(t))
        .transpose()
        .map_err(|t| StoreError::CorruptPlay {
            id,
            why: format!("{t:?} is not a seat"),
        })
}

/// The PBN tags a `played` row (as [`StoreReader::played_in_set`] selects it) keeps: Event
/// (the match's, migration 12), Room, the players, Contract, Declarer, Result (empty for a
/// board passed out), Score.
fn record_tags(
    row: &rusqlite::Row<'_>,
    path: &str,
    id: i64,
) -> Result<Vec<(String, String)>, StoreError> {
    let text = |i: usize| column_text(row, i, path, id);
    let mut tags: Vec<(String, String)> = Vec::new();
    if let Some(event) = text(17)? {
        tags.push(("Event".into(), event));
    }
    if let Some(room) = text(3)? {
        tags.push(("Room".into(), room));
    }
    for (k, s) in PLAYERS.iter().enumerate() {
        if let Some(name) = text(4 + k)? {
            tags.push((s.name().to_string(), name));
        }
    }
    let contract = text(12)?;
    // Passed out: PBN's "not applicable" for declarer and result.
    let passed = contract
        .as_deref()
        .is_some_and(|c| c.eq_ignore_ascii_case("pass"));
    if let Some(c) = contract {
        tags.push(("Contract".into(), c));
    }
    match seat_from(text(13)?, id)? {
        Some(d) => tags.push(("Declarer".into(), d.letter().to_string())),
        None if passed => tags.push(("Declarer".into(), String::new())),
        None => {}
    }
    match row.get_ref(14).at(path)? {
        ValueRef::Null if passed => tags.push(("Result".into(), String::new())),
        ValueRef::Null => {}
        ValueRef::Integer(r) => tags.push(("Result".into(), r.to_string())),
        other => {
            return Err(StoreError::CorruptPlay {
                id,
                why: format!("result is {}", other.data_type()),
            });
        }
    }
    if let Some(s) = text(15)? {
        tags.push(("Score".into(), s));
    }
    Ok(tags)
}
