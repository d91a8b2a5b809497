//! The contract-choice workflow (`dealdex contracts`, issue 39 item 2): given contracts with
//! their declarers (`3NT:S 4H:N 5D:N 6H:N`), how each fares over a sample of deals played
//! double dummy: make %, mean score at the vulnerability, the distribution of tricks, and the
//! pairwise matrices of expected IMPs and matchpoints of each against each, with standard
//! errors. The tricks come from the deals' double-dummy tables: a file's own, else the stored
//! ones ([`SourceOptions::tables`]); a deal without one is solved here
//! ([`crate::dd::solve_all`]; its table is not stored).
//!
//! Scores are the laws' ([`Contract::score`], Law 77), IMPs the WBF scale
//! ([`crate::imps`]).
//!
//! **Whose view.** A contract's mean score is its declaring side's. The pairwise entries
//! compare, deal by deal, contract A (the row) with contract B (the column) as two tables of
//! a team match would: the score difference A − B from the view of the side that declares
//! both when they are declared by the same side, else from North–South's view (A by North,
//! B by East: A's North–South score minus B's North–South score). Either way each matrix is
//! antisymmetric: IMPs(B, A) = −IMPs(A, B) and MP(B, A) = 1 − MP(A, B). Matchpoints score 1
//! when A's score is the higher, ½ when equal, 0 when lower.
//!
//! ```
//! use dealdex::workflow::contracts::{ContractsJob, Vulnerable, run};
//! use dealdex::workflow::pipeline::DealSource;
//! use dealdex::{DealIndex, Seed, Store, Vulnerability};
//!
//! let seed: Seed = "42".repeat(32).parse()?;
//! let keys: Vec<DealIndex> = (1..=4).map(|k| DealIndex::from_deal(&seed.board_deal(k))).collect();
//! let mut store = Store::open_in_memory()?;
//! store.insert_deals(&keys)?;
//! let job = ContractsJob {
//!     source: DealSource::Store,
//!     contracts: vec!["3NT:S".parse()?, "4H:N".parse()?],
//!     vulnerable: Vulnerable::Forced(Vulnerability::None),
//!     stop: None,
//!     keep_deals: true,
//! };
//! let report = run(&job, Some(&store), &mut |_| {})?;
//! assert_eq!((report.deals, report.solved), (4, 4));
//! assert_eq!(report.imps[0][1].mean, report.imps[1][0].mean.map(|m| -m));
//! assert_eq!(report.deal_tricks.len(), 4 * 2); // each deal's tricks in each contract
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::dd::{TrickTable, solve_all};
use crate::formats::Board;
use crate::model::contract::{Contract, imps};
use crate::stats::Estimate;
use crate::workflow::pipeline::{DealSource, DealStream, ReadNotes, SourceOptions, StreamSource};
use crate::{ErrorKind, ReadOnlyStore, Result, Seat, StoreReader, Vulnerability};

/// A contract-choice job.
#[derive(Clone, Debug)]
pub struct ContractsJob {
    /// The deals: a deal file, a stored set, the store, the deals a query matches, or a
    /// generated stream.
    pub source: DealSource,
    /// The contracts to compare, each with its declarer ([`Contract::declarer`]), doubled or
    /// not ([`Contract::doubling`]); in the report's order.
    pub contracts: Vec<Contract>,
    /// The vulnerability each deal is scored at.
    pub vulnerable: Vulnerable,
    /// A switch another thread may turn on to stop the job before the next piece of deals
    /// (Ctrl-C in a program hosting dealdex): the job then fails with
    /// [`crate::ErrorKind::Stopped`].
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Keep every deal and each contract's tricks on it in the report
    /// ([`ContractsReport::sample`], [`ContractsReport::deal_tricks`]): 13 + k bytes a deal,
    /// for a program that looks at single deals; off, memory stays a piece's.
    pub keep_deals: bool,
}

/// `dealdex contracts`' options as typed: the contracts and where the deals come from. With
/// the `clap` feature they derive `clap::Args`, their doc comments the help;
/// [`ContractsOptions::job`] parses them into a [`ContractsJob`].
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct ContractsOptions {
    /// The contracts: level, strain, X or XX, then `:` and the declarer (3NT:S 4HX:N).
    #[cfg_attr(feature = "clap", arg(required = true, value_name = "CONTRACT"))]
    pub contracts: Vec<Contract>,
    /// A deal file (any format dealdex reads) instead of the database.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE",
        conflicts_with_all = ["set", "filter", "count"]))]
    pub deals: Option<std::path::PathBuf>,
    /// Deal this many deals (a seed's numbered stream, completing --predeal; with --where,
    /// this many matching deals) instead of reading stored ones.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", conflicts_with = "set"))]
    pub count: Option<u64>,
    /// With --count: the fixed cards, e.g. 'S:AQ4.KJ52.K83.Q72 N:.Q987..' (seat-prefixed
    /// partial hands in PBN notation).
    #[cfg_attr(feature = "clap", arg(long, value_name = "HANDS", requires = "count"))]
    pub predeal: Option<String>,
    /// With --count: 256-bit seed as 64 hex digits (default: a fresh one, shown in the report).
    #[cfg_attr(feature = "clap", arg(long, value_name = "HEX", requires = "count"))]
    pub seed: Option<String>,
    /// With --count and --where: give up after drawing this many deals [default:
    /// 1,000,000,000, as generate's; 0: no bound].
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "N", requires = "count", requires = "filter")
    )]
    pub max_draws: Option<u64>,
    /// How a deal file is read (`--from`, `--first-board`).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub read: crate::workflow::pipeline::ReadOptions,
    /// Only the deals of this stored set.
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub set: Option<String>,
    /// Only the deals this query matches, e.g. 'hcp(N) + hcp(S) >= 25': stored ones, or
    /// with --count the dealt ones.
    #[cfg_attr(feature = "clap", arg(long = "where", value_name = "EXPR"))]
    pub filter: Option<String>,
    /// Score every deal at this vulnerability (None, NS, EW, All), not each board's.
    #[cfg_attr(feature = "clap", arg(long, value_name = "VUL"))]
    pub vul: Option<Vulnerability>,
}

impl ContractsOptions {
    /// The job these options describe ([`contracts_source`]).
    ///
    /// # Errors
    /// [`contracts_source`]'s: [`crate::ErrorKind::Sample`] for a query, predeal or seed that
    /// does not parse; an unknown `--from` format.
    ///
    /// [`contracts_source`]: crate::workflow::samples::contracts_source
    pub fn job(&self) -> Result<ContractsJob> {
        use crate::workflow::samples::{ContractsSample, contracts_source};
        let spec = ContractsSample {
            count: self.count,
            filter: self.filter.as_deref(),
            predeal: self.predeal.as_deref(),
            seed: self.seed.as_deref(),
            max_draws: self.max_draws,
            set: self.set.clone(),
        };
        let file_or_set = || self.read.source(self.deals.clone(), self.set.clone());
        Ok(ContractsJob {
            source: contracts_source(&spec, file_or_set)?,
            contracts: self.contracts.clone(),
            vulnerable: self.vul.map_or(Vulnerable::Board, Vulnerable::Forced),
            stop: None,
            keep_deals: false,
        })
    }
}

/// The vulnerability a deal is scored at; JSON `"board"`, else the forced one's PBN name
/// (`"None"`, `"NS"`, `"EW"`, `"All"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vulnerable {
    /// Each board's: the vulnerability its file or set gives, else its board number's
    /// (FORMATS.md §3), else none (the whole store's deals have no board numbers).
    Board,
    /// This vulnerability on every deal.
    Forced(Vulnerability),
}

impl Serialize for Vulnerable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            Vulnerable::Board => "board",
            Vulnerable::Forced(v) => v.pbn(),
        })
    }
}

/// How far a job is, after each piece of deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContractsProgress {
    /// Deals played so far.
    pub deals: u64,
    /// Of them, deals solved here (they had no table).
    pub solved: u64,
}

/// One contract over the deals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContractResult {
    /// The contract and declarer as the job names them, e.g. `3NT:S`, `4HX:N`.
    pub contract: String,
    /// Percent of the deals on which declarer takes level + 6 tricks or more (0..=100).
    pub make_percent: f64,
    /// The declaring side's score in points (Law 77, at each deal's vulnerability).
    pub score: Estimate,
    /// `tricks[t]`: the deals on which declarer takes `t` tricks (0..=13).
    pub tricks: [u64; 14],
}

/// The report of a contract-choice job (serde for `--json`; `Display` is its text).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContractsReport {
    /// Deals played.
    pub deals: u64,
    /// Of them, deals solved here (no table in the file or the store; not stored).
    pub solved: u64,
    /// The vulnerability the deals are scored at.
    pub vulnerable: Vulnerable,
    /// Each contract, in the job's order.
    pub contracts: Vec<ContractResult>,
    /// `imps[a][b]`: the mean IMPs of contract `a` against contract `b` (see the module docs
    /// for whose view), with its standard error; 0 on the diagonal.
    pub imps: Vec<Vec<Estimate>>,
    /// `matchpoints[a][b]`: the mean matchpoints of `a` against `b` (1 more, ½ equal, 0
    /// less), 0..=1, with its standard error; ½ on the diagonal.
    pub matchpoints: Vec<Vec<Estimate>>,
    /// A generated sample's seed (64 hex digits), to deal it again; `None` for deals read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// A filtered generated sample's deals drawn to find its deals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawn: Option<u64>,
    /// Wall time of the job, in seconds (reading, solving and scoring).
    pub seconds: f64,
    /// A deal file's boards without a complete deal, not played, and what its reader
    /// ignored.
    #[serde(skip)]
    pub notes: ReadNotes,
    /// With [`ContractsJob::keep_deals`]: the deals played, in order; else empty.
    #[serde(skip)]
    pub sample: Vec<crate::Deal>,
    /// With [`ContractsJob::keep_deals`]: `deal_tricks[d * k + i]`, declarer's tricks on deal
    /// `d` of `sample` in contract `i` (k contracts); else empty.
    #[serde(skip)]
    pub deal_tricks: Vec<u8>,
}

/// Sums of a quantity and of its square over the deals (exact in integers).
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    n: u64,
    sum: i128,
    squares: i128,
}

impl Sums {
    fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.squares += i128::from(x) * i128::from(x);
    }

    /// The mean and its standard error, the sums scaled by `scale`.
    fn estimate(&self, scale: f64) -> Estimate {
        let n = self.n as f64;
        let mean = self.sum as f64 / n;
        let standard_error = (self.n >= 2).then(|| {
            // n·Σx² − (Σx)², exact, over n(n − 1).
            let spread = (i128::from(self.n) * self.squares - self.sum * self.sum) as f64;
            (spread / (n * (n - 1.0)) / n).sqrt() * scale
        });
        Estimate {
            n: self.n,
            mean: (self.n > 0).then_some(mean * scale),
            standard_error,
        }
    }
}

/// The running totals of a job.
struct Tally {
    /// Per contract: made, score sums, trick counts.
    made: Vec<u64>,
    scores: Vec<Sums>,
    tricks: Vec<[u64; 14]>,
    /// Per pair (a × k + b): IMPs and matchpoints in half points.
    imps: Vec<Sums>,
    halves: Vec<Sums>,
    /// Scratch: each contract's North–South score and its declaring side's on this deal.
    ns: Vec<i64>,
}

impl Tally {
    fn new(k: usize) -> Tally {
        Tally {
            made: vec![0; k],
            scores: vec![Sums::default(); k],
            tricks: vec![[0; 14]; k],
            imps: vec![Sums::default(); k * k],
            halves: vec![Sums::default(); k * k],
            ns: vec![0; k],
        }
    }

    /// Plays every contract on one deal of table `t` at vulnerability `vul`.
    fn add(&mut self, contracts: &[Contract], t: &TrickTable, vul: Vulnerability) {
        let k = contracts.len();
        for (i, c) in contracts.iter().enumerate() {
            let tricks = t.tricks(c.declarer, c.strain);
            let score = i64::from(c.score(tricks, vul.is_vulnerable(c.declarer)));
            self.made[i] += u64::from(tricks >= c.level + 6);
            self.scores[i].add(score);
            self.tricks[i][usize::from(tricks)] += 1;
            self.ns[i] = if ns(c.declarer) { score } else { -score };
        }
        for a in 0..k {
            for b in 0..k {
                let (ca, cb) = (&contracts[a], &contracts[b]);
                // The side both declare, else North–South.
                let ew = !ns(ca.declarer) && !ns(cb.declarer);
                let d = if ew {
                    self.ns[b] - self.ns[a]
                } else {
                    self.ns[a] - self.ns[b]
                };
                self.imps[a * k + b].add(imps(d));
                self.halves[a * k + b].add(1 + d.signum());
            }
        }
    }
}

/// True for North and South.
fn ns(seat: Seat) -> bool {
    matches!(seat, Seat::North | Seat::South)
}

/// The contract and declarer as the job names them: `3NT:S`, `4HX:N`, `6CXX:E`.
pub fn contract_name(c: &Contract) -> String {
    format!(
        "{}{}{}:{}",
        c.level,
        c.strain.as_str(),
        c.doubling.suffix().to_ascii_uppercase(),
        c.declarer.letter()
    )
}

/// Deals solved between two looks at [`ContractsJob::stop`] (a full table is 0.16–0.3 s of one
/// core, a hard deal more: 16 took 6.5–10.6 s from Ctrl-C to the stop on two cores, python's
/// test_interrupt; 4 is still 20 strains for the solver's threads to share).
const STOP_BATCH: usize = 4;

/// Runs `job`: reads the deals a piece at a time with their tables (solving, on every core,
/// those without one), plays every contract on each, and reports; `progress` after each
/// piece. `store` is the database of a stored source, and where a file's deals find stored
/// tables (none: a file's deals without a table of their own are solved).
///
/// # Errors
/// [`ErrorKind::NoContracts`], an unreadable file, a missing set, no deals
/// ([`ErrorKind::NoDeals`]), a failed or corrupt read; [`ErrorKind::Stopped`] when the job's
/// stop switch was turned on.
pub fn run(
    job: &ContractsJob,
    store: Option<&StoreReader>,
    progress: &mut dyn FnMut(ContractsProgress),
) -> Result<ContractsReport> {
    let started = Instant::now();
    let k = job.contracts.len();
    if k == 0 {
        return Err(ErrorKind::NoContracts.into());
    }
    let source = job.source.open(store, &SourceOptions::WITH_TABLES)?;
    let mut tally = Tally::new(k);
    let (mut sample, mut deal_tricks) = (Vec::new(), Vec::new());
    let (mut deals, mut solved) = (0u64, 0u64);
    let stopped = || super::stop_requested(job.stop.as_ref());
    let read = source.read(&mut |boards: Vec<Board>| -> Result<bool> {
        if stopped() {
            return Err(STOPPED.into());
        }
        let unsolved: Vec<_> = boards
            .iter()
            .filter(|b| b.dd.is_none())
            .map(|b| b.deal)
            .collect();
        // In batches, so a stop switched on meanwhile is seen within one.
        let mut tables = Vec::with_capacity(unsolved.len());
        for batch in unsolved.chunks(STOP_BATCH) {
            if stopped() {
                return Err(STOPPED.into());
            }
            tables.extend(solve_all(batch));
        }
        let mut fresh = tables.into_iter();
        solved += unsolved.len() as u64;
        for b in &boards {
            let table = match b.dd {
                Some(t) => t,
                None => fresh.next().expect("a table for every unsolved deal"),
            };
            let vul = match job.vulnerable {
                Vulnerable::Board => b.vulnerability_or_default(),
                Vulnerable::Forced(v) => v,
            };
            tally.add(&job.contracts, &table, vul);
            if job.keep_deals {
                sample.push(b.deal);
                deal_tricks.extend(
                    job.contracts
                        .iter()
                        .map(|c| table.tricks(c.declarer, c.strain)),
                );
            }
        }
        deals += boards.len() as u64;
        progress(ContractsProgress { deals, solved });
        Ok(true)
    })?;
    if deals == 0 {
        return Err(ErrorKind::NoDeals {
            to: "play the contracts on",
        }
        .into());
    }
    let contracts = (0..k)
        .map(|i| ContractResult {
            contract: contract_name(&job.contracts[i]),
            make_percent: 100.0 * tally.made[i] as f64 / deals as f64,
            score: tally.scores[i].estimate(1.0),
            tricks: tally.tricks[i],
        })
        .collect();
    let matrix = |sums: &[Sums], scale: f64| -> Vec<Vec<Estimate>> {
        (0..k)
            .map(|a| (0..k).map(|b| sums[a * k + b].estimate(scale)).collect())
            .collect()
    };
    Ok(ContractsReport {
        deals,
        solved,
        vulnerable: job.vulnerable,
        contracts,
        imps: matrix(&tally.imps, 1.0),
        matchpoints: matrix(&tally.halves, 0.5),
        seed: match &job.source {
            DealSource::Stream(StreamSource {
                stream: DealStream::Seeded(seed),
                ..
            }) => Some(seed.to_string()),
            _ => None,
        },
        drawn: read.drawn,
        seconds: started.elapsed().as_secs_f64(),
        notes: read.notes,
        sample,
        deal_tricks,
    })
}

/// Runs `job` ([`run`]) with the database file `db`: opened read-only for a stored source,
/// and for a deal file when it exists (its stored tables spare solving); none for a
/// generated stream.
///
/// # Errors
/// [`ErrorKind::Store`] when the database does not open; then as [`run`].
pub fn run_in(
    job: &ContractsJob,
    db: &Path,
    progress: &mut dyn FnMut(ContractsProgress),
) -> Result<ContractsReport> {
    let open = match &job.source {
        DealSource::File(_) => db.exists(),
        DealSource::Stream(_) => false,
        _ => true,
    };
    let store = match open {
        true => Some(ReadOnlyStore::open(db)?),
        false => None,
    };
    run(job, store.as_deref(), progress)
}

/// The job's stop switch seen on.
const STOPPED: ErrorKind = ErrorKind::Stopped {
    before: "the last deal was played",
};

/// `+1.23 ± 0.04` (`± —` without a standard error, `—` without a mean), `decimals` after
/// the point.
fn estimate(e: &Estimate, decimals: usize, signed: bool) -> String {
    let mean = match (e.mean, signed) {
        (None, _) => return "—".into(),
        (Some(m), true) => format!("{m:+.decimals$}"),
        (Some(m), false) => format!("{m:.decimals$}"),
    };
    match e.standard_error {
        Some(se) => format!("{mean} ± {se:.decimals$}"),
        None => format!("{mean} ± —"),
    }
}

impl fmt::Display for ContractsReport {
    /// The contracts (make %, mean score, tricks), then the IMP and matchpoint matrices, row
    /// against column.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let vul = match self.vulnerable {
            Vulnerable::Board => "each board's vulnerability".to_owned(),
            Vulnerable::Forced(v) => format!("vulnerability {v}"),
        };
        writeln!(
            f,
            "{} deals ({} solved here), {vul}, double dummy",
            self.deals, self.solved
        )?;
        if let Some(seed) = &self.seed {
            match self.drawn {
                Some(drawn) => writeln!(f, "dealt from seed {seed}, {drawn} deals drawn")?,
                None => writeln!(f, "dealt from seed {seed}")?,
            }
        }
        let width = self
            .contracts
            .iter()
            .map(|c| c.contract.len())
            .max()
            .unwrap_or(0)
            .max(8);
        writeln!(
            f,
            "{:<width$}  {:>6}  {:>18}  tricks (% of deals)",
            "contract", "make %", "score ± s.e."
        )?;
        for c in &self.contracts {
            let spread: Vec<String> = (0..14)
                .filter(|&t| c.tricks[t] > 0)
                .map(|t| {
                    let pct = 100.0 * c.tricks[t] as f64 / self.deals as f64;
                    format!("{t}:{pct:.1}")
                })
                .collect();
            writeln!(
                f,
                "{:<width$}  {:>6.1}  {:>18}  {}",
                c.contract,
                c.make_percent,
                estimate(&c.score, 1, true),
                spread.join(" ")
            )?;
        }
        let matrix = |f: &mut fmt::Formatter<'_>,
                      title: &str,
                      m: &[Vec<Estimate>],
                      signed: bool|
         -> fmt::Result {
            writeln!(f, "\n{title}")?;
            write!(f, "{:<width$}", "")?;
            for c in &self.contracts {
                write!(f, "  {:>16}", c.contract)?;
            }
            writeln!(f)?;
            for (row, c) in m.iter().zip(&self.contracts) {
                write!(f, "{:<width$}", c.contract)?;
                for e in row {
                    write!(f, "  {:>16}", estimate(e, 2, signed))?;
                }
                writeln!(f)?;
            }
            Ok(())
        };
        matrix(
            f,
            "IMPs of row against column (the declaring side's view; North-South's between sides)",
            &self.imps,
            true,
        )?;
        matrix(
            f,
            "matchpoints of row against column (1 more, 0.5 equal, 0 less)",
            &self.matchpoints,
            false,
        )?;
        write!(f, "{:.3} s", self.seconds)
    }
}
