//! The `judge` workflow: every card of the stored played boards judged double dummy
//! ([`crate::dd::analyse_plays`]) and stored once (`played_dd`, migration 11), in batches.
//!
//! A job goes in ([`JudgeJob`]), a report comes out ([`JudgeReport`], serde), progress goes
//! to a callback after each batch stored. Each batch is one transaction: a failed write
//! loses nothing stored before it, and rerunning the job judges only the boards without a
//! judgement.
//!
//! It also writes what migration 12 adds: each judged board's summary (tricks lost by
//! declarer and by the defence, the opening lead's cost; computed again from the stored
//! tricks for boards judged before it) and every played board's par score (`played.par_ns`,
//! from the deal's stored double-dummy table, or one solved and stored now).

use std::time::Instant;

use serde::Serialize;

use crate::dd::{PlayAnalysis, PlayedBoard, SolveWatch, TablePar, analyse_plays, solve_on};
use crate::model::contract::parse_bid;
use crate::store::{JudgedPlayed, JudgedSummary, PlayedToJudge, Store, StoreErrorKind};
use crate::{ErrorKind, Result};

/// Played boards judged and stored together (one transaction).
pub const DEFAULT_JUDGE_BATCH: usize = 256;

/// A judge job: how many boards a transaction holds, on how many threads.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct JudgeJob {
    /// Played boards per batch: judged on all cores, then committed in one transaction.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", default_value_t = DEFAULT_JUDGE_BATCH,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000)))]
    pub batch: usize,
    /// Solver threads (at least 1).
    #[cfg_attr(feature = "clap", arg(skip = rayon::current_num_threads()))]
    pub threads: usize,
}

impl Default for JudgeJob {
    /// Batches of [`DEFAULT_JUDGE_BATCH`] on every core.
    fn default() -> Self {
        JudgeJob {
            batch: DEFAULT_JUDGE_BATCH,
            threads: rayon::current_num_threads(),
        }
    }
}

/// What a judge job did. JSON: numbers, as every count of a report.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct JudgeReport {
    /// Played boards judged (new judgements stored).
    pub boards: u64,
    /// Cards judged on them.
    pub cards: u64,
    /// Boards that could not be judged (a contract with no strain, an illegal card), stored
    /// with why so that they are not tried again.
    pub faults: u64,
    /// Tricks declarer's side gave away, double dummy, summed over the boards.
    pub declarer_lost: u64,
    /// Tricks the defence gave away, summed over the boards.
    pub defence_lost: u64,
    /// Boards judged before migration 12 whose summary was written now.
    pub summarised: u64,
    /// Played boards whose par score was written.
    pub par_boards: u64,
    /// Deals solved double dummy for their par (their tables stored).
    pub solved: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Cards judged a second of wall-clock time.
    pub cards_per_second: f64,
}

/// `judged 38 boards (1,020 cards, 0 faults): declarer lost 12 tricks, the defence 9;
/// 900 cards a second; par of 40 boards (20 deals solved)`: the line `dealdex judge` prints.
impl std::fmt::Display for JudgeReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "judged {} played boards ({} cards, {} not judgeable): declarer lost {} tricks, the defence {}; {:.0} cards a second",
            self.boards,
            self.cards,
            self.faults,
            self.declarer_lost,
            self.defence_lost,
            self.cards_per_second
        )?;
        if self.par_boards > 0 || self.summarised > 0 {
            write!(
                f,
                "; par of {} boards ({} deals solved){}",
                self.par_boards,
                self.solved,
                match self.summarised {
                    0 => String::new(),
                    n => format!(", {n} earlier judgements summed"),
                }
            )?;
        }
        Ok(())
    }
}

/// The strain of a stored contract (`4HX` → hearts, `3NT` → notrump); `None` for a pass or
/// a contract that names none.
fn strain_of(contract: &str) -> Option<crate::Strain> {
    parse_bid(contract.trim_end_matches(['X', 'x'])).map(|(_, s)| s)
}

/// What the `played_dd` summary columns keep of an analysis.
fn summary(a: &PlayAnalysis) -> JudgedSummary {
    JudgedSummary {
        declarer_lost: a.declarer_lost,
        defence_lost: a.defence_lost,
        lead_cost: a.lead_cost.unwrap_or(0),
    }
}

/// The analysis of a board judged before from its stored tricks
/// ([`PlayAnalysis::from_tricks`]); `None` when the stored row does not replay (changed
/// outside dealdex) — it is then left without a summary.
fn analysis_of(p: &PlayedToJudge, tricks: Vec<u8>) -> Option<PlayAnalysis> {
    let board = PlayedBoard {
        deal: p.deal.to_deal().ok()?,
        strain: strain_of(&p.contract)?,
        declarer: p.declarer,
        cards: p.cards.clone(),
    };
    let seats = board.seats().ok()?;
    if tricks.len() != seats.len() + 1 {
        return None;
    }
    let played: Vec<_> = seats.into_iter().zip(p.cards.iter().copied()).collect();
    Some(PlayAnalysis::from_tricks(p.declarer, &played, tricks))
}

/// Writes the summaries of boards judged before migration 12, a batch at a time; returns
/// how many.
fn sum_old_judgements(job: &JudgeJob, store: &mut Store) -> Result<u64> {
    let (mut after, mut done) = (0i64, 0u64);
    loop {
        let todo = store
            .judged_without_summary(after, job.batch.max(1))
            .map_err(ErrorKind::Store)?;
        let Some(last) = todo.last() else {
            return Ok(done);
        };
        after = last.board.id;
        let rows: Vec<(i64, JudgedSummary)> = todo
            .into_iter()
            .filter_map(|t| Some((t.board.id, summary(&analysis_of(&t.board, t.tricks)?))))
            .collect();
        done += store
            .store_judged_summaries(&rows)
            .map_err(ErrorKind::Store)?;
    }
}

/// Writes the par score of every played board without one, a batch at a time, solving and
/// storing the tables of deals without one on `job.threads` threads (the solver `judge`
/// plays with); returns (boards, deals solved).
fn fill_par(job: &JudgeJob, store: &mut Store) -> Result<(u64, u64)> {
    let (mut after, mut boards, mut solved) = (0i64, 0u64, 0u64);
    loop {
        let todo = store
            .played_without_par(after, job.batch.max(1))
            .map_err(ErrorKind::Store)?;
        let Some(last) = todo.last() else {
            return Ok((boards, solved));
        };
        after = last.id;
        let keys: Vec<_> = todo.iter().map(|p| p.deal).collect();
        let mut tables = store.dd_tables(&keys).map_err(ErrorKind::Store)?;
        let mut missing: Vec<_> = keys
            .iter()
            .zip(&tables)
            .filter(|(_, t)| t.is_none())
            .map(|(k, _)| *k)
            .collect();
        missing.sort_unstable();
        missing.dedup();
        let deals = missing
            .iter()
            .map(|&key| {
                key.to_deal().map_err(|error| {
                    ErrorKind::Store(StoreErrorKind::CorruptDeal { key, error }.into())
                })
            })
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let watch = SolveWatch::new();
        let solved_now = solve_on(&deals, job.threads.max(1), &watch)
            .unwrap_or_else(|_| unreachable!("an unwatched solve is never stopped"));
        let new: Vec<_> = missing.into_iter().zip(solved_now).collect();
        solved += store.store_dd(&new).map_err(ErrorKind::Store)?;
        for (k, t) in keys.iter().zip(tables.iter_mut()) {
            if t.is_none() {
                *t = new.iter().find(|(n, _)| n == k).map(|(_, t)| *t);
            }
        }
        let pars: Vec<(i64, i32)> = todo
            .iter()
            .zip(&tables)
            .filter_map(|(p, t)| Some((p.id, t.as_ref()?.par(p.dealer, p.vulnerability).score)))
            .collect();
        boards += store.store_played_par(&pars).map_err(ErrorKind::Store)?;
    }
}

/// Judges one batch: each board's judgement (its tricks along the play, or why it cannot be
/// judged) and, when judged, its [`PlayAnalysis`].
pub(crate) fn judge_batch(
    todo: &[PlayedToJudge],
    threads: usize,
) -> Vec<(JudgedPlayed, Option<PlayAnalysis>)> {
    let mut boards = Vec::new();
    let mut places = Vec::new();
    let mut out: Vec<(JudgedPlayed, Option<PlayAnalysis>)> = Vec::with_capacity(todo.len());
    for (i, p) in todo.iter().enumerate() {
        let board = strain_of(&p.contract)
            .ok_or_else(|| format!("contract {:?} names no strain", p.contract))
            .and_then(|strain| {
                let deal = p.deal.to_deal().map_err(|e| e.to_string())?;
                Ok(PlayedBoard {
                    deal,
                    strain,
                    declarer: p.declarer,
                    cards: p.cards.clone(),
                })
            });
        let tricks = match board {
            Ok(b) => {
                boards.push(b);
                places.push(i);
                Ok(Vec::new())
            }
            Err(fault) => Err(fault),
        };
        out.push((
            JudgedPlayed {
                id: p.id,
                tricks,
                summary: None,
            },
            None,
        ));
    }
    for (i, a) in places.into_iter().zip(analyse_plays(&boards, threads)) {
        match a {
            Ok(a) => {
                out[i].0.tricks = Ok(a.tricks.clone());
                out[i].0.summary = Some(summary(&a));
                out[i].1 = Some(a);
            }
            Err(e) => out[i].0.tricks = Err(e.to_string()),
        }
    }
    out
}

/// Runs a judge job against `store`: the played boards with play and no judgement, a batch
/// at a time, judged on `job.threads` threads and stored in one transaction a batch;
/// `on_batch` gets the report so far after each.
///
/// ```
/// use dealdex::judge::{JudgeJob, judge};
/// let mut store = dealdex::Store::open_in_memory()?;
/// let report = judge(&JudgeJob::default(), &mut store, &mut |_| {})?;
/// assert_eq!((report.boards, report.cards), (0, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Store`] when the store fails; the batches before are stored.
pub fn judge(
    job: &JudgeJob,
    store: &mut Store,
    on_batch: &mut dyn FnMut(&JudgeReport),
) -> Result<JudgeReport> {
    let started = Instant::now();
    let mut report = JudgeReport::default();
    let mut after = 0i64;
    loop {
        let todo = store
            .played_to_judge(after, job.batch.max(1))
            .map_err(ErrorKind::Store)?;
        let Some(last) = todo.last() else { break };
        after = last.id;
        let judged = judge_batch(&todo, job.threads.max(1));
        let rows: Vec<JudgedPlayed> = judged.iter().map(|(j, _)| j.clone()).collect();
        store.store_judged(&rows).map_err(ErrorKind::Store)?;
        for (_, a) in &judged {
            match a {
                Some(a) => {
                    report.boards += 1;
                    report.cards += a.tricks.len() as u64 - 1;
                    report.declarer_lost += u64::from(a.declarer_lost);
                    report.defence_lost += u64::from(a.defence_lost);
                }
                None => report.faults += 1,
            }
        }
        report.seconds = started.elapsed().as_secs_f64();
        on_batch(&report);
    }
    report.summarised = sum_old_judgements(job, store)?;
    (report.par_boards, report.solved) = fill_par(job, store)?;
    report.seconds = started.elapsed().as_secs_f64();
    report.cards_per_second = match report.seconds {
        s if s > 0.0 => report.cards as f64 / s,
        _ => 0.0,
    };
    Ok(report)
}
