//! Played boards (issue 53): what a game record says about a board played at a table — the
//! room, the players, the auction with its alerts and explanations, the contract, declarer,
//! the play, the claim or result and the score — and the inconsistencies found in such
//! records.
//!
//! A [`GameRecord`] keeps all of it in PBN's terms (PBN 2.1 §3–§5), so that every format that
//! carries a game converts it and the store keeps it: the tags `Room` (`Open` or `Closed`),
//! `West`, `North`, `East`, `South`, `Contract` (`4HX`, `3NT`, `Pass`), `Declarer`, `Result`
//! (the tricks declarer took, claimed or played out) and `Score`, and the `[Auction]` and
//! `[Play]` sections. [`PlayedBoard`] is the typed view of them; [`check_board`] finds what
//! in a record contradicts the rest of it.

use std::fmt;

use serde::Serialize;

use super::{Board, GameRecord};
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Seat};
use crate::model::contract::{Contract, Strain, auction_contract, contract_of, declarer_of};
use crate::model::play::record::board_play;

/// The table a board was played at in a team match: PBN's `Room` tag, LIN's `qx|o…|` (open
/// room) or `qx|c…|` (closed room).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    /// The open room (LIN `o`, PBN `Open`).
    Open,
    /// The closed room (LIN `c`, PBN `Closed`).
    Closed,
}

impl Room {
    /// The room as PBN's `Room` tag spells it: `Open` or `Closed`.
    pub const fn pbn(self) -> &'static str {
        match self {
            Room::Open => "Open",
            Room::Closed => "Closed",
        }
    }

    /// The room a PBN `Room` tag names (`Open`, `Closed`, either case); `None` for anything
    /// else.
    pub fn from_pbn(value: &str) -> Option<Room> {
        let v = value.trim();
        if v.eq_ignore_ascii_case("open") {
            Some(Room::Open)
        } else if v.eq_ignore_ascii_case("closed") {
            Some(Room::Closed)
        } else {
            None
        }
    }

    /// LIN's letter for the room in `qx|`: `o` or `c`.
    pub const fn lin(self) -> u8 {
        match self {
            Room::Open => b'o',
            Room::Closed => b'c',
        }
    }

    /// The room of a game record's `Room` tag, if it names one.
    pub fn of(game: &GameRecord) -> Option<Room> {
        game.tag("Room").and_then(Room::from_pbn)
    }
}

impl fmt::Display for Room {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Room::Open => "open room",
            Room::Closed => "closed room",
        })
    }
}

/// One call of an auction as played: the PBN call token (`Pass`, `X`, `XX`, `1NT`, `4S`) and
/// the explanation given for it. An alerted call without an explanation has an empty one
/// (LIN `mb|2D!|`, a PBN note with no text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Call {
    /// The call, a PBN token.
    pub call: String,
    /// The alert's explanation; `Some("")` for an alert without one, `None` when the call
    /// was not alerted.
    pub explanation: Option<String>,
}

/// A board as played at one table: the typed view of a [`GameRecord`] ([`played_board`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedBoard {
    /// The board number.
    pub number: Option<u64>,
    /// The room, in a team match.
    pub room: Option<Room>,
    /// The players by seat (`players[seat.index()]`, N, E, S, W); `None` when the record
    /// does not name one (a PBN `?` or empty tag).
    pub players: [Option<String>; 4],
    /// The dealer.
    pub dealer: Seat,
    /// The vulnerability.
    pub vulnerability: Vulnerability,
    /// The auction in order from the dealer.
    pub auction: Vec<Call>,
    /// The final contract with its doubling and declarer ([`contract_of`]); `None` when
    /// passed out or unknown.
    pub contract: Option<Contract>,
    /// The board was passed out (a `Contract` tag `Pass`, or four passes).
    pub passed_out: bool,
    /// The cards played, in play order (up to 52; fewer after a claim); empty when the
    /// record has no play or its play does not replay on the deal ([`check_board`] says why).
    pub play: Vec<Card>,
    /// The tricks declarer took (`Result` tag, 0..=13): claimed (LIN `mc|`) or played out.
    pub result: Option<u8>,
    /// The score as the record gives it (PBN `Score` tag, e.g. `NS 620`).
    pub score: Option<String>,
}

/// The played board a board's game record describes; `None` for a board without one.
pub fn played_board(b: &Board) -> Option<PlayedBoard> {
    let game = b.game.as_deref()?;
    let players = [Seat::North, Seat::East, Seat::South, Seat::West].map(|s| {
        game.tag(s.name())
            .filter(|v| !v.is_empty() && *v != "?")
            .map(str::to_owned)
    });
    let play = match board_play(&b.deal, game) {
        Ok(Some(p)) => p.record.cards(),
        _ => Vec::new(),
    };
    Some(PlayedBoard {
        number: b.number,
        room: Room::of(game),
        players,
        dealer: b.dealer_or_default(),
        vulnerability: b.vulnerability_or_default(),
        auction: calls(game),
        contract: contract_of(game),
        passed_out: passed_out(game),
        play,
        result: result_tag(game),
        score: game
            .tag("Score")
            .filter(|v| !v.is_empty())
            .map(str::to_owned),
    })
}

/// The calls of a record's auction with the notes attached to them (a `=k=` token explains
/// the call before it).
fn calls(game: &GameRecord) -> Vec<Call> {
    let Some(a) = &game.auction else {
        return Vec::new();
    };
    let mut out: Vec<Call> = Vec::new();
    for t in &a.calls {
        if t.len() >= 3 && t.starts_with('=') && t.ends_with('=') {
            let k: Option<u32> = t[1..t.len() - 1].parse().ok();
            let text = a.notes.iter().find(|(n, _)| Some(*n) == k);
            if let Some(last) = out.last_mut() {
                last.explanation = Some(text.map_or(String::new(), |(_, s)| s.clone()));
            }
        } else if t.eq_ignore_ascii_case("AP") {
            for _ in 0..3 {
                out.push(Call {
                    call: "Pass".into(),
                    explanation: None,
                });
            }
        } else {
            out.push(Call {
                call: t.clone(),
                explanation: None,
            });
        }
    }
    out
}

/// True when the record says the board was passed out: a `Contract` tag `Pass`, or an
/// auction of four passes and nothing else.
fn passed_out(game: &GameRecord) -> bool {
    if game
        .tag("Contract")
        .is_some_and(|c| c.eq_ignore_ascii_case("pass"))
    {
        return true;
    }
    game.auction.as_ref().is_some_and(|a| {
        let calls: Vec<&String> = a.calls.iter().filter(|t| !t.starts_with('=')).collect();
        calls.len() >= 4
            && calls
                .iter()
                .all(|t| t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("p"))
    })
}

/// A record's `Result` tag as declarer's tricks, 0..=13; `None` for anything else.
pub fn result_tag(game: &GameRecord) -> Option<u8> {
    game.tag("Result")
        .and_then(|r| r.parse::<u8>().ok())
        .filter(|&r| r <= 13)
}

/// What is left of a play cut short by an illegal card, as an inconsistency's detail ends:
/// `tricks` whole tricks and `cards` cards of the next one kept.
pub(crate) fn play_kept(tricks: usize, cards: usize) -> String {
    match (tricks, cards) {
        (0, 0) => "no card of the play is kept".to_owned(),
        (t, 0) => format!("the play is kept up to trick {t}"),
        (t, i) => format!("the play is kept up to card {i} of trick {}", t + 1),
    }
}

/// What kind of inconsistency a record has ([`Inconsistency`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InconsistencyKind {
    /// A card that is not the player's to play: not in the hand, played twice, a revoke, a
    /// trick led by the wrong seat. The play is kept up to the card before it; not kept when
    /// that leaves no card, or when a PBN `[Play]` names no contract and replays under no
    /// strain.
    IllegalCard,
    /// A value that is no card (LIN `pc|`): the play is kept up to the card before it.
    BadCard,
    /// A value that is no call (LIN `mb|`): the call is left out.
    BadCall,
    /// A claim without a trick count (LIN `mc||`, or a count above 13): no result from it.
    ClaimWithoutCount,
    /// The result contradicts the play: declarer claimed fewer tricks than were already
    /// won, more than the defence left, or a play of 13 tricks counts otherwise.
    ResultContradictsPlay,
    /// The file's result for the table (LIN `rs|`) differs from its claim (`mc|`); the claim
    /// is kept.
    ResultMismatch,
    /// The contract the file states (LIN `rs|`, PBN `Contract` tag) is not the auction's;
    /// the auction's is kept.
    ContractMismatch,
    /// The declarer the file states (LIN `rs|`, PBN `Declarer` tag) is not the auction's, or
    /// the opening lead is not from declarer's left.
    WrongDeclarer,
}

impl InconsistencyKind {
    /// The kind as reports name it, e.g. `illegal-card`.
    pub const fn name(self) -> &'static str {
        match self {
            InconsistencyKind::IllegalCard => "illegal-card",
            InconsistencyKind::BadCard => "bad-card",
            InconsistencyKind::BadCall => "bad-call",
            InconsistencyKind::ClaimWithoutCount => "claim-without-count",
            InconsistencyKind::ResultContradictsPlay => "result-contradicts-play",
            InconsistencyKind::ResultMismatch => "result-mismatch",
            InconsistencyKind::ContractMismatch => "contract-mismatch",
            InconsistencyKind::WrongDeclarer => "wrong-declarer",
        }
    }
}

/// An inconsistent record: kept with what is consistent in it, and reported (never an error:
/// one bad board does not reject its file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Inconsistency {
    /// What is wrong.
    pub kind: InconsistencyKind,
    /// The board number, when known.
    pub board: Option<u64>,
    /// The room (table), when the record names one.
    pub room: Option<Room>,
    /// The 1-based line where the record starts (or where the fault is), when the format
    /// has lines and the reader knows it.
    pub line: Option<usize>,
    /// What was found and what was kept, e.g. `♦2 played a second time in trick 6; the play
    /// is kept up to trick 5`.
    pub detail: String,
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.board {
            Some(n) => write!(f, "board {n}")?,
            None => f.write_str("a board")?,
        }
        if let Some(r) = self.room {
            write!(f, ", {r}")?;
        }
        if let Some(l) = self.line {
            write!(f, " (line {l})")?;
        }
        write!(f, ": {}: {}", self.kind.name(), self.detail)
    }
}

/// The inconsistencies of a board's game record that the board itself shows (what its
/// reader dropped is the reader's to report): a play that does not replay on the deal
/// ([`InconsistencyKind::IllegalCard`], [`InconsistencyKind::WrongDeclarer`]), `Contract` or
/// `Declarer` tags that are not the auction's, a `Result` that contradicts the play. Empty for
/// a board without a game record.
pub fn check_board(b: &Board) -> Vec<Inconsistency> {
    let Some(game) = b.game.as_deref() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut push = |kind, detail: String| {
        found.push(Inconsistency {
            kind,
            board: b.number,
            room: Room::of(game),
            line: None,
            detail,
        });
    };
    // The tags against the auction.
    if let Some(auction) = game.auction.as_ref().and_then(auction_contract)
        && let Some(bid) = game.tag("Contract")
        && Strain::from_bid(bid).is_some()
    {
        match Contract::from_pbn(bid, auction.declarer) {
            Some(c) if c != auction => push(
                InconsistencyKind::ContractMismatch,
                format!(
                    "the Contract tag says {bid}, the auction {}; the auction's is kept",
                    contract_text(&auction)
                ),
            ),
            _ => {}
        }
        if let Some(d) = declarer_of(&GameRecord {
            tags: game
                .tags
                .iter()
                .filter(|(n, _)| n == "Declarer" || n == "Contract")
                .cloned()
                .collect(),
            ..GameRecord::default()
        }) && d != auction.declarer
        {
            push(
                InconsistencyKind::WrongDeclarer,
                format!(
                    "the Declarer tag says {}, the auction {}",
                    d.name(),
                    auction.declarer.name()
                ),
            );
        }
    }
    // The play on the deal, then the result against it.
    match board_play(&b.deal, game) {
        Err(e) => {
            let kind = if matches!(e.kind(), crate::model::ErrorKind::WrongOpeningLeader { .. }) {
                InconsistencyKind::WrongDeclarer
            } else {
                InconsistencyKind::IllegalCard
            };
            push(kind, format!("{e}; the play is not kept"));
        }
        Ok(Some(p)) => {
            if let Some(e) = &p.cut_by {
                let tricks = p.record.tricks();
                let kept = match tricks.last().map(|t| t.cards.len()) {
                    Some(n) if n < 4 => play_kept(tricks.len() - 1, n),
                    _ => play_kept(tricks.len(), 0),
                };
                push(InconsistencyKind::IllegalCard, format!("{e}; {kept}"));
            }
            if let (Some(c), Some(result)) = (contract_of(game), result_tag(game))
                && let Ok(tricks) = p.record.replay(&b.deal, c.strain)
            {
                let side = |s: Seat| s.index() % 2 == c.declarer.index() % 2;
                let won = tricks.iter().filter(|t| side(t.winner)).count() as u8;
                let lost = tricks.len() as u8 - won;
                let complete = tricks.len() == 13;
                if (complete && result != won) || result < won || result + lost > 13 {
                    push(
                        InconsistencyKind::ResultContradictsPlay,
                        format!(
                            "result {result} tricks, but declarer won {won} and the defence {lost} of the {} tricks played",
                            tricks.len()
                        ),
                    );
                }
            }
        }
        Ok(None) => {}
    }
    found
}

/// A contract as a PBN `Contract` tag writes it: `4HX`, `3NT`.
pub fn contract_text(c: &Contract) -> String {
    let strain = match c.strain {
        Strain::NoTrump => "NT".to_string(),
        Strain::Trumps(s) => s.letter().to_string(),
    };
    let doubling = c.doubling.suffix().to_ascii_uppercase();
    format!("{}{strain}{doubling}", c.level)
}
