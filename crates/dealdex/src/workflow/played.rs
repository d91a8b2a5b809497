//! Played boards read back whole (issue 53): each table's record — board, room, players,
//! dealer, vulnerability, auction, contract, declarer, result, score, the cards in play order
//! with the seat of each — and, when judged (`dealdex judge`), each card's double-dummy value
//! and cost, the tricks each side lost and the opening lead's cost
//! ([`PlayAnalysis::from_tricks`]). `dealdex serve`'s played-board page and the Python
//! package's `Database.played` read them so.
//!
//! ```
//! use dealdex::workflow::played::{PlayedJob, run};
//! use dealdex::PlayedSelection;
//! let store = dealdex::Store::open_in_memory()?;
//! let report = run(&PlayedJob { selection: PlayedSelection::All, judge_now: false }, &store)?;
//! assert!(report.boards.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use crate::dd::PlayAnalysis;
use crate::store::{PlayedRow, PlayedSelection, PlayedTable, PlayedToJudge};
use crate::{ErrorKind, Result, Seat, StoreReader, Vulnerability};

/// Which played boards to read, and whether to judge those without a stored judgement.
#[derive(Clone, Debug)]
pub struct PlayedJob {
    /// The boards: a set's, a deal's, one row, or all.
    pub selection: PlayedSelection,
    /// Judge now, double dummy, the boards with play, a contract and a declarer that have no
    /// judgement stored (nothing is stored: `dealdex judge` stores). False: they are shown
    /// unjudged.
    pub judge_now: bool,
}

/// The played boards read, in the store's order (set, board, open room first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedReport {
    /// The boards.
    pub boards: Vec<PlayedView>,
}

/// One played board: a table's record and its judgement.
///
/// JSON: the table's fields ([`PlayedTable`]'s, as a played search gives them: `{"id": 7,
/// "set": "match", "board": 3, "room": "Open", "event": "…", "north": "Meckstroth", …,
/// "contract": "3NT", "declarer": "S", "tricks": 9`), then `"index": "…", "deal": "N:…",
/// "dealer": "S", "vulnerability": "EW", "auction": [{"call": "1NT", "note": "15-17"}, …],
/// "score": "NS 600", "cards": [{"card": "HQ", "seat": "W", "dd": 9, "cost": 0}, …],
/// "analysis": {…}, "judged_now": false, "fault": null}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedView {
    /// Its row in the store (`/played/<id>` in `dealdex serve`), set, board, room, event,
    /// players, contract, declarer and tricks.
    #[serde(flatten)]
    pub table: PlayedTable,
    /// The deal's 13-byte index as 26 hex digits.
    pub index: String,
    /// The deal as a PBN deal string, North first.
    pub deal: String,
    /// The dealer (its letter in JSON: `N`, `E`, `S` or `W`).
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub dealer: Seat,
    /// The vulnerability (`None`, `NS`, `EW` or `All` in JSON).
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub vulnerability: Vulnerability,
    /// The calls from the dealer with the note explaining each (alerts, LIN's `an`);
    /// `None` when the record has no auction.
    pub auction: Option<Vec<CallView>>,
    /// The score as the record gives it (`NS 620`).
    pub score: Option<String>,
    /// The cards in play order, the opening lead first (fewer than 52 after a claim).
    pub cards: Vec<CardView>,
    /// The play judged double dummy, when it is (stored by `dealdex judge`, or with
    /// [`PlayedJob::judge_now`] judged for this report).
    pub analysis: Option<PlayAnalysis>,
    /// True when `analysis` was judged for this report, not read from the store.
    pub judged_now: bool,
    /// Why the play could not be judged (a contract naming no strain, an illegal card).
    pub fault: Option<String>,
    /// What judging it needs, while it has play, a contract and a declarer and no judgement
    /// ([`judge_unjudged`]).
    #[serde(skip)]
    unjudged: Option<PlayedToJudge>,
}

/// One call of an auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CallView {
    /// The call as PBN writes it: `1NT`, `Pass`, `X`, `XX`.
    pub call: String,
    /// The note explaining it, if any.
    pub note: Option<String>,
}

/// One card of the play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    /// The card, suit then rank (`SA`, `HT`).
    pub card: String,
    /// Who played it: `N`, `E`, `S` or `W`.
    pub seat: char,
    /// Declarer's side's tricks after it, won and to come, double dummy (0..=13); `None`
    /// when not judged.
    pub dd: Option<u8>,
    /// The tricks it cost its side, double dummy (0 for a card that costs nothing); `None`
    /// when not judged.
    pub cost: Option<u8>,
}

/// Reads the played boards `job.selection` names from `store` with each judgement stored
/// ([`read`]), and with [`PlayedJob::judge_now`] judges the others ([`judge_unjudged`]).
///
/// # Errors
/// As [`read`].
pub fn run(job: &PlayedJob, store: &StoreReader) -> Result<PlayedReport> {
    let mut report = read(&job.selection, store)?;
    if job.judge_now {
        judge_unjudged(&mut report);
    }
    Ok(report)
}

/// The played boards `selection` names, with each judgement stored.
///
/// # Errors
/// [`ErrorKind::NoSet`] for a set that is not stored; [`ErrorKind::Store`] when the read
/// fails or a row is corrupt (its deal, its cards).
pub fn read(selection: &PlayedSelection, store: &StoreReader) -> Result<PlayedReport> {
    if let PlayedSelection::Set(name) = selection
        && store.set(name)?.is_none()
    {
        return Err(ErrorKind::NoSet {
            set: name.clone(),
            database: store.path().to_owned(),
        }
        .into());
    }
    let rows = store.played_rows(selection).map_err(ErrorKind::Store)?;
    Ok(PlayedReport {
        boards: rows.iter().map(view).collect::<Result<Vec<_>>>()?,
    })
}

/// Judges, double dummy, the boards of `report` with play, a contract and a declarer that
/// have no judgement (on the current rayon pool's threads; nothing is stored: `dealdex
/// judge` stores), marking them [`PlayedView::judged_now`]. Needs no database: a caller
/// holding a connection reads ([`read`]), lets it go, then judges.
pub fn judge_unjudged(report: &mut PlayedReport) {
    let (places, todo): (Vec<usize>, Vec<PlayedToJudge>) = report
        .boards
        .iter_mut()
        .enumerate()
        .filter_map(|(i, b)| Some((i, b.unjudged.take()?)))
        .unzip();
    let judged = super::judge::judge_batch(&todo, rayon::current_num_threads());
    for (i, (judged, analysis)) in places.into_iter().zip(judged) {
        let b = &mut report.boards[i];
        b.judged_now = true;
        match analysis {
            Some(a) => judge_cards(b, a),
            None => b.fault = Some(fault_or(judged.tricks.err().unwrap_or_default())),
        }
    }
}

/// A fault's text, or a word when the judge gave none.
fn fault_or(fault: impl Into<String>) -> String {
    let fault = fault.into();
    match fault.is_empty() {
        true => "not judged".into(),
        false => fault,
    }
}

/// The view of a stored row, with its stored judgement.
fn view(r: &PlayedRow) -> Result<PlayedView> {
    let deal = r.deal.to_deal().map_err(|error| {
        ErrorKind::Store(crate::StoreErrorKind::CorruptDeal { key: r.deal, error }.into())
    })?;
    let note = |k: u32| {
        r.notes
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, t)| t.clone())
    };
    let auction = r.auction.as_ref().map(|tokens| {
        let mut calls: Vec<CallView> = Vec::new();
        for t in tokens {
            // `=k=` explains the call before it.
            let reference = t
                .strip_prefix('=')
                .and_then(|t| t.strip_suffix('='))
                .and_then(|k| k.parse::<u32>().ok());
            match (reference, calls.last_mut()) {
                (Some(k), Some(last)) => last.note = note(k),
                (Some(_), None) => {}
                (None, _) => calls.push(CallView {
                    call: t.clone(),
                    note: None,
                }),
            }
        }
        calls
    });
    let t = &r.table;
    let mut view = PlayedView {
        table: t.clone(),
        index: r.deal.to_string(),
        deal: deal.to_string(),
        dealer: r.dealer,
        vulnerability: r.vulnerability,
        auction,
        score: r.score.clone(),
        cards: r
            .cards
            .iter()
            .map(|&c| CardView {
                card: c.to_string(),
                seat: deal.seat_of(c).letter(),
                dd: None,
                cost: None,
            })
            .collect(),
        analysis: None,
        judged_now: false,
        fault: None,
        unjudged: None,
    };
    match (&r.judgement, t.declarer) {
        (Some(Ok(tricks)), Some(declarer)) => {
            let played: Vec<_> = r.cards.iter().map(|&c| (deal.seat_of(c), c)).collect();
            judge_cards(
                &mut view,
                PlayAnalysis::from_tricks(declarer, &played, tricks.clone()),
            );
        }
        (Some(Ok(_)), None) => view.fault = Some("judged, but no declarer is stored".into()),
        (Some(Err(fault)), _) => view.fault = Some(fault_or(fault.as_str())),
        (None, _) => {
            view.unjudged = match (&t.contract, t.declarer, r.cards.is_empty()) {
                (Some(contract), Some(declarer), false) => Some(PlayedToJudge {
                    id: t.id,
                    deal: r.deal,
                    contract: contract.clone(),
                    declarer,
                    cards: r.cards.clone(),
                }),
                _ => None,
            }
        }
    }
    Ok(view)
}

/// Sets each card's value and cost from `analysis`, and keeps it.
fn judge_cards(view: &mut PlayedView, analysis: PlayAnalysis) {
    for (k, c) in view.cards.iter_mut().enumerate() {
        c.dd = analysis.tricks.get(k + 1).copied();
        c.cost = Some(
            analysis
                .costs
                .iter()
                .find(|cost| cost.position == k + 1)
                .map_or(0, |cost| cost.tricks),
        );
    }
    view.analysis = Some(analysis);
}
