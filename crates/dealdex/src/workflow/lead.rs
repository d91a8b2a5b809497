//! The opening-lead workflow (`dealdex lead`): which card to lead against a contract, double
//! dummy over a sample of deals. The sample is dealt around the leader's hand (the other
//! three hands at random, optionally only those a query-language expression accepts), or
//! read from a file or the store; every card the leader holds is solved on every deal in one
//! call per deal ([`crate::dd::lead_tricks`], equal cards expanded), and the report gives,
//! per card, the defence's mean tricks with their standard error, how often the contract is
//! set, the distribution of tricks and the defence's mean score, and for each pair of cards
//! how often one beats the other with the IMPs and matchpoints it gains.
//!
//! With a database, the leads stored there for a deal of the sample (by an earlier
//! `lead --store`, migration 08's `leads` table, for this leader and strain) are read, not
//! solved again; with [`LeadJob::store`] the sample is stored as a new set, numbered 1..N in
//! sample order, with every deal's per-card tricks, in one transaction ([`run_storing`]),
//! for `lead --set` and the query language's `lead(SEAT, strain, CARD)` afterwards.
//!
//! ```
//! use dealdex::workflow::lead::{LeadJob, LeadSample, run};
//! use dealdex::{Contract, Doubling, Seat, Strain, Vulnerability};
//! let hand: dealdex::Hand = "AQ4.J.KJ6543.632".parse()?;
//! let job = LeadJob {
//!     contract: Contract { level: 3, strain: Strain::NoTrump, doubling: Doubling::Undoubled,
//!                          declarer: Seat::South },
//!     vulnerability: Vulnerability::None,
//!     sample: LeadSample::Dealt { hand, seed: "42".repeat(32).parse()?, deals: 20,
//!                                 filter: None, max_draws: None },
//!     store: None,
//!     stop: None,
//! };
//! let report = run(&job, None, &mut |_| {})?;
//! assert_eq!((report.deals, report.cards.len()), (20, 13));
//! assert_eq!(report.leader, Seat::West);
//! assert_eq!((report.solved, report.looked_up), (20, 0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use crate::dd::{LeadPosition, lead_table, lead_tricks};
use crate::dealer::Script;
use crate::formats::Board;
use crate::model::contract::{Contract, imps};
use crate::query::Query;
use crate::workflow::output::{FileRole, ReportOutput, check_distinct};
use crate::workflow::pipeline::{
    DealSink, DealSource, ScriptSource, SetSink, SourceOptions, StreamFilter,
};
use crate::{
    Card, Deal, DealIndex, ErrorKind, Hand, LeadTable, NewSet, Predeal, Result, Scheme, Seat, Seed,
    Store, StoreReader, Vulnerability,
};

/// Deals solved a call: each call's positions are spread over the solver's threads.
const SOLVE_BATCH: usize = 64;

/// An opening-lead problem: the contract and where the deals come from.
#[derive(Clone, Debug)]
pub struct LeadJob {
    /// The contract (its declarer: the leader is declarer's left-hand opponent).
    pub contract: Contract,
    /// The vulnerability the scores are counted at.
    pub vulnerability: Vulnerability,
    /// The deals.
    pub sample: LeadSample,
    /// Store the sample as the new set of this name (its boards 1..N in sample order) with
    /// every deal's per-card tricks (`lead --store NAME`): [`run_storing`], or [`run_in`],
    /// which opens the database for writing then. `None`: store nothing.
    pub store: Option<String>,
    /// A switch another thread may turn on to stop the job between two batches of deals
    /// solved (Ctrl-C in a program hosting dealdex): the job then fails with
    /// [`ErrorKind::Stopped`], storing nothing.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// `dealdex lead`'s options as typed: the contract, and the sample (dealt around a hand, or
/// read from a file or a stored set). With the `clap` feature they derive `clap::Args`, their
/// doc comments the help; [`LeadOptions::job`] parses them into a [`LeadJob`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct LeadOptions {
    /// The leader's hand: PBN (AQ4.J.KJ6543.632) or by suit (S:AQ4 H:J D:KJ6543 C:632).
    #[cfg_attr(feature = "clap", arg(long, value_name = "HAND",
        required_unless_present_any = ["set", "file"]))]
    pub hand: Option<String>,
    /// The contract: level and strain, X doubled, XX redoubled (3NT, 4S, 5DX).
    #[cfg_attr(feature = "clap", arg(long, value_name = "CONTRACT"))]
    pub contract: String,
    /// The declarer (N, E, S, W); the leader is on declarer's left.
    #[cfg_attr(feature = "clap", arg(long, value_name = "SEAT", value_parser = str::parse::<Seat>))]
    pub declarer: Seat,
    /// The vulnerability scores are counted at: None, NS, EW, All.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "VUL", default_value = "None")
    )]
    pub vul: Vulnerability,
    /// How many deals to deal around the hand.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", default_value_t = 1000,
        conflicts_with_all = ["set", "file"]))]
    pub deals: u64,
    /// Only deals this query-language expression accepts (the other hands' constraints).
    #[cfg_attr(feature = "clap", arg(long = "where", value_name = "EXPR",
        conflicts_with_all = ["script", "set", "file"]))]
    pub filter: Option<String>,
    /// Only deals this dealer script's condition accepts (its predeal too; the leader's hand
    /// is added to it), dealt as `dealdex dealer` deals them; its actions are not run.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE", requires = "hand",
        conflicts_with_all = ["set", "file"]))]
    pub script: Option<std::path::PathBuf>,
    /// With --where or --script: give up after drawing this many deals [default: with --where
    /// 1,000,000,000 (0: no bound), as generate's; with --script the script's `generate`,
    /// else dealer's 10,000,000].
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", conflicts_with_all = ["set", "file"]))]
    pub max_draws: Option<u64>,
    /// 256-bit seed as 64 hex digits; with --script dealer's seed number (-s) (default: a
    /// fresh one, shown in the report).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SEED", conflicts_with_all = ["set", "file"]))]
    pub seed: Option<String>,
    /// A sample dealt earlier: a deal file (any format dealdex reads).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE", conflicts_with_all = ["hand", "set"]))]
    pub file: Option<std::path::PathBuf>,
    /// How a deal file is read (`--from`, `--first-board`).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub read: crate::workflow::pipeline::ReadOptions,
    /// A sample dealt earlier: a stored set.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "NAME", conflicts_with = "hand")
    )]
    pub set: Option<String>,
    /// Store the sample as this new set (boards 1..N in sample order) with every deal's
    /// per-card tricks, for `lead --set NAME` and the query term lead(SEAT, strain, CARD).
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub store: Option<String>,
    /// Also write the per-card table as CSV to this file, whole or not at all (`-`: on
    /// standard output, in place of the text table); refused when it names the database, the
    /// deal file or the script.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE.csv"))]
    pub csv: Option<std::path::PathBuf>,
}

impl LeadOptions {
    /// [`LeadOptions::csv`]'s output begun now, before any deal is dealt (a path that cannot
    /// be written fails first, with nothing stored; written whole or not at all), or `stdout`
    /// (`-`), once checked to be none of the files the job reads nor the database `db`, nor
    /// standard output when the report goes there (`report_on_stdout`). `None`: no CSV.
    ///
    /// # Errors
    /// [`ErrorKind::SameFile`] for a file named twice; [`ErrorKind::Write`] for a file that
    /// cannot be created.
    pub fn csv_output<'o>(
        &self,
        db: &std::path::Path,
        report_on_stdout: bool,
        stdout: &'o mut dyn std::io::Write,
    ) -> Result<Option<ReportOutput<'o>>> {
        let Some(csv) = self.csv.as_deref() else {
            return Ok(None);
        };
        if report_on_stdout && csv.as_os_str() == "-" {
            let (first, second) = (FileRole::CsvTable, FileRole::JsonReport);
            let path = csv.to_owned();
            return Err(ErrorKind::SameFile {
                first,
                second,
                path,
            }
            .into());
        }
        let mut files = vec![(FileRole::CsvTable, csv), (FileRole::Database, db)];
        files.extend(self.file.as_deref().map(|f| (FileRole::DealFile, f)));
        files.extend(self.script.as_deref().map(|s| (FileRole::Script, s)));
        check_distinct(&files)?;
        Ok(Some(ReportOutput::create(Some(csv), stdout)?))
    }

    /// The job these options describe: the contract parsed, then the sample (the script
    /// loaded, the hand, seed and query parsed; without a hand, the file or the set).
    ///
    /// # Errors
    /// [`ErrorKind::Contract`] for a contract that does not parse; an unknown `--from` format
    /// ([`crate::workflow::pipeline::ReadOptions::read_as`]); [`load_script`]'s;
    /// [`lead_sample`]'s ([`ErrorKind::Sample`], [`ErrorKind::Seed`]).
    ///
    /// [`load_script`]: crate::workflow::dealer::load_script
    /// [`lead_sample`]: crate::workflow::samples::lead_sample
    pub fn job(&self) -> Result<LeadJob> {
        let contract = Contract::from_pbn(&self.contract, self.declarer)
            .ok_or_else(|| ErrorKind::Contract(self.contract.clone()))?;
        let sample = match &self.hand {
            None => LeadSample::Deals(self.read.source(self.file.clone(), self.set.clone())?),
            Some(hand) => {
                let script = match self.script.as_deref() {
                    Some(path) => {
                        Some(crate::workflow::dealer::load_script(Some(path), &[], [None; 4])?.0)
                    }
                    None => None,
                };
                crate::workflow::samples::lead_sample(crate::workflow::samples::LeadAround {
                    hand,
                    deals: self.deals,
                    seed: self.seed.as_deref(),
                    filter: self.filter.as_deref(),
                    script,
                    max_draws: self.max_draws,
                })?
            }
        };
        Ok(LeadJob {
            contract,
            vulnerability: self.vul,
            sample,
            store: self.store.clone(),
            stop: None,
        })
    }
}

/// [`run_storing`] on the database file `db` (created when missing) when the job stores
/// ([`LeadJob::store`]); else [`run`] on it opened read-only when the sample is stored, and
/// without a database otherwise.
///
/// # Errors
/// As [`run`] and [`run_storing`]; [`ErrorKind::Store`] when the database does not open.
pub fn run_in(
    job: &LeadJob,
    db: &std::path::Path,
    progress: &mut dyn FnMut(LeadProgress),
) -> Result<LeadReport> {
    if job.store.is_some() {
        let mut store = Store::open(db)?;
        return run_storing(job, &mut store, progress);
    }
    let store = match &job.sample {
        LeadSample::Deals(source) if source.is_stored() => Some(crate::ReadOnlyStore::open(db)?),
        _ => None,
    };
    run(job, store.as_deref(), progress)
}

/// The most deals a lead problem's sample holds: the sample is held whole while its leads
/// are solved (about 220 bytes a deal with its tables), and a million deals take hours to
/// solve on a few cores.
pub const MAX_SAMPLE: u64 = 1_000_000;

/// The deals of a lead problem.
#[derive(Clone, Debug)]
pub enum LeadSample {
    /// `deals` deals of `seed`'s stream dealt around the leader's `hand` (the others at
    /// random), those `filter` accepts when given (at most `max_draws` drawn; `None`: no
    /// bound).
    Dealt {
        /// The leader's 13 cards.
        hand: Hand,
        /// The stream's seed.
        seed: Seed,
        /// How many deals.
        deals: u64,
        /// Only the deals this expression accepts (constraints on the other hands).
        filter: Option<Query>,
        /// The most deals drawn to find them.
        max_draws: Option<u64>,
    },
    /// `deals` deals a dealer script produces (its `condition`, with its predeal and the
    /// leader's `hand` added to it), dealt as `dealdex dealer` deals them: from dealer's seed
    /// number `seed` (`-s`; `None`: a fresh one, reported), at most `generate` drawn
    /// (`None`: the script's `generate`, else dealer's 10,000,000). The script's actions
    /// are not run.
    Script {
        /// The leader's 13 cards.
        hand: Hand,
        /// The script ([`Script::parse`]).
        script: Box<Script>,
        /// How many deals.
        deals: u64,
        /// dealer's seed number.
        seed: Option<u64>,
        /// The most deals drawn.
        generate: Option<u64>,
    },
    /// The deals of a file, a stored set or the store, which must all give the leader the
    /// same hand (a sample dealt earlier, e.g. `generate --predeal … --where …`).
    Deals(DealSource),
}

/// What the lead problem found, per card and per pair of cards; serde for `--json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeadReport {
    /// The contract, e.g. `3NTS`.
    pub contract: String,
    /// The opening leader (`N`, `E`, `S`, `W`).
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub leader: Seat,
    /// The vulnerability scores are counted at (`None`, `NS`, `EW`, `All`).
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub vulnerability: Vulnerability,
    /// Deals in the sample.
    pub deals: u64,
    /// Deals whose leads were solved here.
    pub solved: u64,
    /// Deals whose leads were read from the database (stored by an earlier `lead --store`
    /// for this leader and strain), not solved again.
    pub looked_up: u64,
    /// What [`LeadJob::store`] stored; `None` when the job stores nothing.
    pub stored: Option<LeadStored>,
    /// With a filter or a script: deals drawn to find them.
    pub drawn: Option<u64>,
    /// The seed the deals were dealt from, to deal them again: 64 hex digits, or dealer's
    /// seed number (`-s`) for a script's sample; `None` for a sample read.
    pub seed: Option<String>,
    /// The leader's cards, in suit order and from the highest down.
    pub cards: Vec<LeadCard>,
    /// Every ordered pair of different cards.
    pub pairs: Vec<LeadPair>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The sample's deals, in order (not in the JSON report: a program's to keep).
    #[serde(skip)]
    pub sample: Vec<Deal>,
    /// `deal_tricks[d][c]`: the defence's tricks on deal `d` of `sample` after the leader's
    /// card `c` (the order of `cards`); not in the JSON report.
    #[serde(skip)]
    pub deal_tricks: Vec<[u8; 13]>,
}

/// What `lead --store NAME` stored: the sample as a set, and the per-card tricks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeadStored {
    /// The set's name.
    pub set: String,
    /// Its boards: the sample's deals, numbered 1..N in sample order.
    pub boards: u64,
    /// Deals the database did not hold before.
    pub new_deals: u64,
    /// Rows of per-card tricks the database did not hold before (one a deal for this
    /// leader and strain; a deal stored earlier keeps its row).
    pub new_leads: u64,
}

/// One lead over the sample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeadCard {
    /// The card led.
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub card: Card,
    /// Mean tricks the defence takes after it.
    pub mean_tricks: f64,
    /// The standard error of that mean.
    pub tricks_se: f64,
    /// Per cent of deals on which the contract is defeated.
    pub defeat_percent: f64,
    /// Deals on which the defence takes 0, 1, … 13 tricks.
    pub tricks: [u64; 14],
    /// The defence's mean score (the negative of declarer's) at the vulnerability.
    pub mean_score: f64,
    /// The standard error of that mean.
    pub score_se: f64,
}

/// Lead `a` against lead `b` over the sample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeadPair {
    /// The first lead.
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub a: Card,
    /// The second lead.
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub b: Card,
    /// Per cent of deals on which `a` gives the defence more tricks than `b`.
    pub a_better_percent: f64,
    /// Per cent of deals on which `b` gives more.
    pub b_better_percent: f64,
    /// The defence's mean IMPs leading `a` at one table and `b` at the other.
    pub imps: f64,
    /// The standard error of those IMPs.
    pub imps_se: f64,
    /// The defence's mean matchpoints leading `a` against `b`: 1 a deal it takes more tricks,
    /// ½ as many, 0 fewer.
    pub matchpoints: f64,
}

/// Progress of a lead job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeadProgress {
    /// The sample is ready: this many deals.
    Dealt(u64),
    /// Deals whose leads are known so far: read from the database, or solved.
    Solved(u64),
}

/// Runs a lead problem: deals (or reads) the sample, solves every lead on every deal, and
/// reports. `store` is the database of a stored sample; the leads it holds for a deal of
/// the sample (this leader and strain) are read instead of solved.
///
/// # Errors
/// [`ErrorKind::LeaderHand`] for a hand that is not 13 cards, deals that cannot be read or
/// give the leader other hands ([`ErrorKind::OtherHand`]), too few matching deals, no deal
/// at all ([`ErrorKind::NoDeals`]), a stored row that does not read;
/// [`ErrorKind::StoreNeedsWriter`] for a job with [`LeadJob::store`] (see [`run_storing`]).
pub fn run(
    job: &LeadJob,
    store: Option<&StoreReader>,
    progress: &mut dyn FnMut(LeadProgress),
) -> Result<LeadReport> {
    if job.store.is_some() {
        return Err(ErrorKind::StoreNeedsWriter.into());
    }
    let solved = solve_sample(job, store, progress)?;
    Ok(report(job, &solved, None))
}

/// [`run`] on the writable database `store`, and with [`LeadJob::store`] the sample stored
/// as that new set (boards 1..N in sample order; its generator `dealdex VERSION lead
/// CONTRACT`, its seed's SHA-256 for a dealt sample) with every deal's per-card tricks
/// (migration 08), in one transaction after the last deal is solved: a failure stores
/// nothing, and what was stored before stays. A deal whose leads were stored keeps its row.
///
/// ```
/// use dealdex::workflow::lead::{LeadJob, LeadSample, run_storing};
/// use dealdex::{Contract, Doubling, Seat, Store, Strain, Vulnerability};
/// let hand: dealdex::Hand = "AQ4.J.KJ6543.632".parse()?;
/// let mut job = LeadJob {
///     contract: Contract { level: 3, strain: Strain::NoTrump, doubling: Doubling::Undoubled,
///                          declarer: Seat::South },
///     vulnerability: Vulnerability::None,
///     sample: LeadSample::Dealt { hand, seed: "42".repeat(32).parse()?, deals: 3,
///                                 filter: None, max_draws: None },
///     store: Some("leads".into()),
///     stop: None,
/// };
/// let mut store = Store::open_in_memory()?;
/// let report = run_storing(&job, &mut store, &mut |_| {})?;
/// assert_eq!(report.stored.unwrap().new_leads, 3);
/// assert_eq!(store.set("leads")?.unwrap().last_board, 3);
/// // The same deals again: read from the database, not solved.
/// job.store = None;
/// let again = run_storing(&job, &mut store, &mut |_| {})?;
/// assert_eq!((again.solved, again.looked_up), (0, 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`run`]; [`ErrorKind::SetExists`] (before anything is solved) when the set's name is
/// taken; [`ErrorKind::Store`] when storing fails.
pub fn run_storing(
    job: &LeadJob,
    store: &mut Store,
    progress: &mut dyn FnMut(LeadProgress),
) -> Result<LeadReport> {
    if let Some(name) = &job.store
        && store.set(name)?.is_some()
    {
        return Err(ErrorKind::SetExists {
            set: name.clone(),
            database: store.path().to_owned(),
        }
        .into());
    }
    let solved = solve_sample(job, Some(store), progress)?;
    let stored = match &job.store {
        None => None,
        Some(name) => {
            let database = store.path().to_owned();
            Some(store_sample(job, store, name, &solved).map_err(|e| e.set_taken(&database))?)
        }
    };
    Ok(report(job, &solved, stored))
}

/// A sample with every deal's per-card tricks.
struct Solved {
    /// When the job started.
    started: std::time::Instant,
    /// The opening leader.
    leader: Seat,
    /// The sample: its deals in order, the deals drawn to find them, its seed.
    sample: Sample,
    /// Each deal's per-card tricks ([`lead_table`]).
    tables: Vec<LeadTable>,
    /// How many of them were read from the database.
    looked_up: u64,
}

/// Deals (or reads) the sample and finds every deal's per-card tricks: read from `store`
/// when it holds them for this leader and strain, else solved.
fn solve_sample(
    job: &LeadJob,
    store: Option<&StoreReader>,
    progress: &mut dyn FnMut(LeadProgress),
) -> Result<Solved> {
    let started = std::time::Instant::now();
    let leader = job.contract.declarer.next();
    let sample = sample(job, leader, store)?;
    let deals = &sample.deals;
    let Some(first) = deals.first() else {
        return Err(ErrorKind::NoDeals { to: "solve" }.into());
    };
    let hand = first.hand(leader);
    if let Some(k) = deals.iter().position(|d| d.hand(leader) != hand) {
        return Err(ErrorKind::OtherHand {
            deal: k as u64 + 1,
            leader,
        }
        .into());
    }
    progress(LeadProgress::Dealt(deals.len() as u64));
    let strain = job.contract.strain;
    let mut tables: Vec<Option<LeadTable>> = match store {
        Some(store) => {
            let keys: Vec<DealIndex> = deals.iter().map(DealIndex::from_deal).collect();
            store.stored_leads(&keys, leader, strain)?
        }
        None => vec![None; deals.len()],
    };
    let looked_up = tables.iter().filter(|t| t.is_some()).count() as u64;
    if looked_up > 0 {
        progress(LeadProgress::Solved(looked_up));
    }
    let missing: Vec<usize> = (0..deals.len()).filter(|&i| tables[i].is_none()).collect();
    let mut known = looked_up;
    for batch in missing.chunks(SOLVE_BATCH) {
        if super::stop_requested(job.stop.as_ref()) {
            return Err(ErrorKind::Stopped {
                before: "the sample was solved",
            }
            .into());
        }
        let positions: Vec<LeadPosition> = batch
            .iter()
            .map(|&i| LeadPosition {
                deal: deals[i],
                strain,
                leader,
            })
            .collect();
        for (&i, solved) in batch.iter().zip(lead_tricks(&positions)) {
            tables[i] = Some(lead_table(&solved));
        }
        known += batch.len() as u64;
        progress(LeadProgress::Solved(known));
    }
    Ok(Solved {
        started,
        leader,
        sample,
        tables: tables.into_iter().flatten().collect(),
        looked_up,
    })
}

/// Stores the solved sample as the set `name` with its per-card tricks, in one transaction.
fn store_sample(
    job: &LeadJob,
    store: &mut Store,
    name: &str,
    solved: &Solved,
) -> Result<LeadStored> {
    let boards = solved.sample.deals.len() as u64;
    let set = NewSet {
        name: name.to_owned(),
        first_board: 1,
        last_board: boards,
        scheme: Scheme::Pavlicek,
        generator: format!(
            "dealdex {} lead {}",
            env!("CARGO_PKG_VERSION"),
            job.contract
        ),
        seed_sha256: match &job.sample {
            LeadSample::Dealt { seed, .. } => Some(seed.sha256()),
            LeadSample::Script { .. } | LeadSample::Deals(_) => None,
        },
    };
    let mut sink = SetSink::begin(store, &set)?;
    sink.write(
        solved
            .sample
            .deals
            .iter()
            .map(|&d| Board::unnumbered(d))
            .collect(),
    )?;
    let rows: Vec<(DealIndex, LeadTable)> = solved
        .sample
        .deals
        .iter()
        .map(DealIndex::from_deal)
        .zip(solved.tables.iter().copied())
        .collect();
    let new_leads = sink
        .writer()
        .add_leads(solved.leader, job.contract.strain, &rows)?;
    let new_deals = sink.finish()?.map_or(0, |set| set.new_deals);
    Ok(LeadStored {
        set: name.to_owned(),
        boards,
        new_deals,
        new_leads,
    })
}

/// The report of a solved sample.
fn report(job: &LeadJob, solved: &Solved, stored: Option<LeadStored>) -> LeadReport {
    let leader = solved.leader;
    // The leader's cards in suit order, from the highest down (lead_tricks' order).
    let cards: Vec<Card> = solved.sample.deals[0].hand(leader).cards().collect();
    // tricks[d][c]: the defence's tricks on deal d after the leader's c-th card.
    let tricks: Vec<[u8; 13]> = solved
        .tables
        .iter()
        .map(|table| {
            let mut row = [0u8; 13];
            for (slot, card) in row.iter_mut().zip(&cards) {
                *slot = table[card.index()];
            }
            row
        })
        .collect();
    let vulnerable = job.vulnerability.is_vulnerable(job.contract.declarer);
    let defence_score = |t: u8| -job.contract.score(13 - t, vulnerable);
    let n = tricks.len() as f64;
    let cards_report: Vec<LeadCard> = cards
        .iter()
        .enumerate()
        .map(|(c, &card)| {
            let column: Vec<u8> = tricks.iter().map(|row| row[c]).collect();
            let mut distribution = [0u64; 14];
            for &t in &column {
                distribution[usize::from(t)] += 1;
            }
            let (mean_tricks, tricks_se) = mean_se(column.iter().map(|&t| f64::from(t)));
            let (mean_score, score_se) =
                mean_se(column.iter().map(|&t| f64::from(defence_score(t))));
            // Declarer needs level + 6 tricks: the defence defeats the contract with 8 − level.
            let needed = 8 - job.contract.level;
            let defeated = column.iter().filter(|&&t| t >= needed).count() as f64;
            LeadCard {
                card,
                mean_tricks,
                tricks_se,
                defeat_percent: 100.0 * defeated / n,
                tricks: distribution,
                mean_score,
                score_se,
            }
        })
        .collect();
    let mut pairs = Vec::new();
    for (i, &a) in cards.iter().enumerate() {
        for (j, &b) in cards.iter().enumerate().filter(|&(j, _)| j != i) {
            let (mut a_better, mut b_better) = (0u64, 0u64);
            for row in &tricks {
                match row[i].cmp(&row[j]) {
                    std::cmp::Ordering::Greater => a_better += 1,
                    std::cmp::Ordering::Less => b_better += 1,
                    std::cmp::Ordering::Equal => {}
                }
            }
            let (imps_mean, imps_se) = mean_se(tricks.iter().map(|row| {
                let gain = i64::from(defence_score(row[i]) - defence_score(row[j]));
                imps(gain) as f64
            }));
            let ties = n - (a_better + b_better) as f64;
            pairs.push(LeadPair {
                a,
                b,
                a_better_percent: 100.0 * a_better as f64 / n,
                b_better_percent: 100.0 * b_better as f64 / n,
                imps: imps_mean,
                imps_se,
                matchpoints: (a_better as f64 + ties / 2.0) / n,
            });
        }
    }
    LeadReport {
        contract: job.contract.to_string(),
        leader,
        vulnerability: job.vulnerability,
        deals: tricks.len() as u64,
        solved: tricks.len() as u64 - solved.looked_up,
        looked_up: solved.looked_up,
        stored,
        drawn: solved.sample.drawn,
        seed: solved.sample.seed.clone(),
        cards: cards_report,
        pairs,
        seconds: solved.started.elapsed().as_secs_f64(),
        sample: solved.sample.deals.clone(),
        deal_tricks: tricks,
    }
}

/// A lead problem's deals.
struct Sample {
    /// The deals, in order.
    deals: Vec<Deal>,
    /// With a filter or a script: the deals drawn to find them.
    drawn: Option<u64>,
    /// The seed they were dealt from: 64 hex digits, or dealer's seed number for a script.
    seed: Option<String>,
}

/// The sample's deals, dealt or read.
fn sample(job: &LeadJob, leader: Seat, store: Option<&StoreReader>) -> Result<Sample> {
    if let LeadSample::Dealt { hand, .. } | LeadSample::Script { hand, .. } = &job.sample
        && hand.len() != 13
    {
        return Err(ErrorKind::LeaderHand(hand.len()).into());
    }
    if let LeadSample::Dealt { deals, .. } | LeadSample::Script { deals, .. } = &job.sample
        && *deals > MAX_SAMPLE
    {
        return Err(ErrorKind::SampleTooLarge(*deals).into());
    }
    match &job.sample {
        LeadSample::Dealt {
            hand,
            seed,
            deals,
            filter,
            max_draws,
        } => {
            let mut fixed = [Hand::EMPTY; 4];
            fixed[leader.index()] = *hand;
            // The seed's stream around the hand, filtered: the deals `generate --predeal
            // --where` deals with the same seed.
            let source = DealSource::dealt(
                *seed,
                *deals,
                Some(Predeal::from_hands(fixed).expect("one hand of 13 cards")),
                filter.clone().map(|query| StreamFilter {
                    query,
                    max_draws: *max_draws,
                }),
            );
            let (boards, read) = source.open(None, &SourceOptions::default())?.read_all()?;
            Ok(Sample {
                deals: boards.into_iter().map(|b| b.deal).collect(),
                drawn: read.drawn,
                seed: Some(seed.to_string()),
            })
        }
        LeadSample::Script {
            hand,
            script,
            deals,
            seed,
            generate,
        } => {
            let mut script = (**script).clone();
            let holdings: Vec<String> = hand.cards().map(|c| c.to_string()).collect();
            script
                .add_predeal(leader, &holdings.join(","))
                .map_err(ErrorKind::Script)?;
            // The script's stream around the hand: the deals `dealdex dealer -s SEED` produces.
            let source = ScriptSource::new(script, *seed, *deals, *generate)?;
            let seed = source.seed;
            let (boards, read) = DealSource::Script(Box::new(source))
                .open(None, &SourceOptions::default())?
                .read_all()?;
            Ok(Sample {
                deals: boards.into_iter().map(|b| b.deal).collect(),
                drawn: read.drawn,
                seed: Some(seed.to_string()),
            })
        }
        LeadSample::Deals(source) => {
            let (boards, _) = source.open(store, &SourceOptions::default())?.read_all()?;
            if boards.len() as u64 > MAX_SAMPLE {
                return Err(ErrorKind::SampleTooLarge(boards.len() as u64).into());
            }
            Ok(Sample {
                deals: boards.into_iter().map(|b| b.deal).collect(),
                drawn: None,
                seed: None,
            })
        }
    }
}

/// The mean of `values` and its standard error (0 for fewer than two values).
fn mean_se(values: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let (n, sum) = values
        .clone()
        .fold((0.0, 0.0), |(n, s), v| (n + 1.0, s + v));
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let mean = sum / n;
    if n < 2.0 {
        return (mean, 0.0);
    }
    let var = values.map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

impl LeadReport {
    /// The per-card table as CSV: a header line, then a line a card (`card,mean_tricks,
    /// tricks_se,defeat_percent,mean_score,score_se,t0,…,t13`, the last 14 the deals on which
    /// the defence takes 0…13 tricks).
    pub fn to_csv(&self) -> String {
        let mut out = String::from("card,mean_tricks,tricks_se,defeat_percent,mean_score,score_se");
        for t in 0..14 {
            out.push_str(&format!(",t{t}"));
        }
        out.push('\n');
        for c in &self.cards {
            out.push_str(&format!(
                "{},{:.4},{:.4},{:.2},{:.2},{:.2}",
                c.card, c.mean_tricks, c.tricks_se, c.defeat_percent, c.mean_score, c.score_se
            ));
            for n in c.tricks {
                out.push_str(&format!(",{n}"));
            }
            out.push('\n');
        }
        out
    }
}

/// A table: a line a card (mean tricks ± SE, defeat %, mean score), best first; then, when the
/// database took part, how many deals were solved and read, and what was stored.
impl std::fmt::Display for LeadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `3NTS` as `3NT by S`: declarer sits at the leader's right.
        let declarer = self.leader.rotate(3).letter();
        let bid = self
            .contract
            .strip_suffix(declarer)
            .unwrap_or(&self.contract);
        writeln!(
            f,
            "Opening leads by {} against {bid} by {declarer} ({} deals, vulnerability {}):",
            self.leader.letter(),
            self.deals,
            self.vulnerability.pbn()
        )?;
        writeln!(f, "lead  tricks ± se  defeat %   score ± se")?;
        let mut order: Vec<&LeadCard> = self.cards.iter().collect();
        order.sort_by(|a, b| b.mean_tricks.total_cmp(&a.mean_tricks));
        for c in order {
            writeln!(
                f,
                "{:<4}  {:5.2} ± {:4.2}  {:6.1}  {:+7.1} ± {:5.1}",
                c.card.to_string(),
                c.mean_tricks,
                c.tricks_se,
                c.defeat_percent,
                c.mean_score,
                c.score_se
            )?;
        }
        if self.looked_up > 0 || self.stored.is_some() {
            writeln!(
                f,
                "Leads solved on {} deals, read from the database for {}.",
                self.solved, self.looked_up
            )?;
        }
        if let Some(s) = &self.stored {
            writeln!(
                f,
                "Stored set {:?}: {} boards ({} new deals) and their leads ({} new rows).",
                s.set, s.boards, s.new_deals, s.new_leads
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_standard_error() {
        let (m, se) = mean_se([1.0, 2.0, 3.0, 4.0].into_iter());
        assert_eq!(m, 2.5);
        // Sample variance 5/3, over 4 values.
        assert!((se - (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
    }
}
