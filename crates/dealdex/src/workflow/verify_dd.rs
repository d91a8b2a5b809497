//! `solve --verify`: re-solves stored double-dummy tables that dealdex did not solve (read
//! from files, or of unknown source) and reports every one that differs from a fresh solve.
//!
//! A Parquet archive carries no checksum, and a PBN file's tables are the file's word: `import`
//! stores them as given, recording the file they came from (migration 07). This job is how
//! to check them afterwards. A job goes in ([`VerifyJob`]), a report comes out
//! ([`VerifyReport`], serde), progress goes through a callback; the library never prints.

use std::collections::HashMap;
use std::time::Instant;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::Serialize;

use crate::Result;
use crate::dd::{DD_STRAINS, TrickTable, solve_all};
use crate::model::card::Seat;
use crate::model::deal::Deal;
use crate::model::index::DealIndex;
use crate::store::{DdSource, Store, StoreError, StoreErrorKind, StoredDd};

use super::solve::SolveProgress;

/// The seed of [`VerifyJob::sample`] when none is given: the same sample every run.
pub const DEFAULT_VERIFY_SEED: u64 = 27;

/// Stored tables read per page while walking the database.
const PAGE: usize = 4096;

/// Which stored tables to verify, and how. With the `clap` feature, `solve --verify`'s own
/// arguments (the set and the batch are `solve`'s, which the binary sets).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct VerifyJob {
    /// Only the tables of this stored set's boards; every stored table when `None`.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub set: Option<String>,
    /// With --verify: check a seeded random sample of this many tables, not all (all when
    /// there are no more than this).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", requires = "verify",
        value_parser = clap::value_parser!(u64).range(1..)))]
    pub sample: Option<u64>,
    /// With --verify --sample: the sample's seed (the same seed, the same tables of the
    /// same database).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SEED", requires = "sample",
        default_value_t = DEFAULT_VERIFY_SEED))]
    pub seed: u64,
    /// Deals per batch, solved together on all cores (at least 1).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub batch: usize,
    /// With --verify: replace each table that differs by the fresh solve (recorded as
    /// solved here), one transaction a batch; without it nothing stored changes.
    #[cfg_attr(feature = "clap", arg(long, requires = "verify"))]
    pub replace: bool,
}

/// One trick count that differs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellMismatch {
    /// The declarer: `N`, `E`, `S` or `W`.
    pub declarer: char,
    /// The strain: `NT`, `S`, `H`, `D` or `C`.
    pub strain: &'static str,
    /// Tricks in the stored table.
    pub stored: u8,
    /// Tricks in a fresh solve.
    pub solved: u8,
}

/// A board at which a deal is dealt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardRef {
    /// The set's name.
    pub set: String,
    /// The board number.
    pub board: u64,
}

/// A stored table that differs from a fresh solve.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableMismatch {
    /// The deal's 13-byte index, 26 hex digits.
    pub index: String,
    /// The deal as a PBN deal string.
    pub deal: String,
    /// Every stored board the deal is dealt at (set name, board), by set name then board.
    pub boards: Vec<BoardRef>,
    /// Where the stored table came from.
    pub source: DdSource,
    /// Every count that differs, declarers N E S W, strains NT S H D C.
    pub cells: Vec<CellMismatch>,
    /// The fresh solve replaced the stored table ([`VerifyJob::replace`]).
    pub replaced: bool,
}

/// What a verify job found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VerifyReport {
    /// The database verified, as the store names it (not in the JSON report).
    #[serde(skip)]
    pub database: String,
    /// The set verified, `None` for every stored table.
    pub set: Option<String>,
    /// Stored tables in scope that dealdex did not solve (from files, or of unknown source).
    pub candidates: u64,
    /// Of those, tables re-solved and compared (all, or the sample).
    pub checked: u64,
    /// Tables equal to a fresh solve.
    pub agreed: u64,
    /// Every table that differs, in key order.
    pub mismatches: Vec<TableMismatch>,
    /// Tables replaced by the fresh solve.
    pub replaced: u64,
    /// The sample size asked for (`None`: every table in scope).
    pub sample: Option<u64>,
    /// The seed of the sample (`None` without one).
    pub seed: Option<u64>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl VerifyReport {
    /// True when every table checked equals a fresh solve.
    pub fn verified(&self) -> bool {
        self.mismatches.is_empty()
    }
}

/// What `dealdex solve --verify` prints: each mismatch on a line ([`TableMismatch`]'s text),
/// then the summary: tables checked of those in scope, how many differ (and were replaced),
/// time.
///
/// ```
/// let r = dealdex::solve::VerifyReport {
///     database: "d.db".into(), candidates: 4, checked: 4, agreed: 4, ..Default::default()
/// };
/// assert_eq!(
///     r.to_string(),
///     "d.db: verified 4 of 4 double-dummy tables not solved here: all equal a fresh solve (0.0 s)"
/// );
/// ```
impl std::fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for m in &self.mismatches {
            writeln!(f, "{m}")?;
        }
        let scope = self
            .set
            .as_ref()
            .map_or(String::new(), |s| format!(" of set {s}"));
        let outcome = match self.mismatches.len() {
            0 => "all equal a fresh solve".to_owned(),
            k => format!(
                "{k} differ{} from a fresh solve{}",
                if k == 1 { "s" } else { "" },
                match self.replaced {
                    0 => String::new(),
                    r => format!(" ({r} replaced)"),
                }
            ),
        };
        write!(
            f,
            "{}: verified {} of {} double-dummy tables{scope} not solved here: {outcome} ({:.1} s)",
            self.database, self.checked, self.candidates, self.seconds
        )
    }
}

/// `deal HEX N:… (set NAME board B, …) from SOURCE: N NT stored 9, solved 8; …` — the line
/// `dealdex solve --verify` prints for a mismatch.
impl std::fmt::Display for TableMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "deal {} {}", self.index, self.deal)?;
        if !self.boards.is_empty() {
            let boards: Vec<String> = self
                .boards
                .iter()
                .map(|b| format!("set {} board {}", b.set, b.board))
                .collect();
            write!(f, " ({})", boards.join(", "))?;
        }
        write!(f, " from {}: ", self.source)?;
        let cells: Vec<String> = self
            .cells
            .iter()
            .map(|c| {
                format!(
                    "{} {} stored {}, solved {}",
                    c.declarer, c.strain, c.stored, c.solved
                )
            })
            .collect();
        f.write_str(&cells.join("; "))?;
        if self.replaced {
            f.write_str(" (replaced)")?;
        }
        Ok(())
    }
}

/// The counts of `stored` that differ from `solved`.
fn differing_cells(stored: &TrickTable, solved: &TrickTable) -> Vec<CellMismatch> {
    let mut out = Vec::new();
    for seat in Seat::ALL {
        for strain in DD_STRAINS {
            let (a, b) = (stored.tricks(seat, strain), solved.tricks(seat, strain));
            if a != b {
                out.push(CellMismatch {
                    declarer: seat.letter(),
                    strain: strain.as_str(),
                    stored: a,
                    solved: b,
                });
            }
        }
    }
    out
}

/// Every stored table in scope that dealdex did not solve, walked in pages; with a sample,
/// a uniform sample of that size (reservoir sampling, seeded), in key order. Returns the
/// tables and how many were in scope.
fn pick(store: &Store, job: &VerifyJob) -> Result<(Vec<StoredDd>, u64)> {
    let mut rng = ChaCha20Rng::seed_from_u64(job.seed);
    let mut kept: Vec<StoredDd> = Vec::new();
    let mut seen = 0u64;
    let mut after: Option<DealIndex> = None;
    loop {
        let page = store.dd_tables_to_verify(job.set.as_deref(), after.as_ref(), PAGE)?;
        let Some(last) = page.last() else { break };
        after = Some(last.key);
        for row in page {
            seen += 1;
            match job.sample {
                Some(n) if kept.len() as u64 >= n => {
                    // Keep the row with probability n / seen, in place of a random one.
                    let j = ((u128::from(rng.next_u64()) * u128::from(seen)) >> 64) as u64;
                    if j < n {
                        kept[j as usize] = row;
                    }
                }
                _ => kept.push(row),
            }
        }
    }
    kept.sort_unstable_by_key(|r| r.key);
    Ok((kept, seen))
}

/// Runs `job` on `store`: re-solves the stored tables in scope that dealdex did not solve
/// (all of them, or a seeded sample), a batch at a time on all cores, compares each with the
/// fresh solve and reports every one that differs, with the boards it is dealt at and the
/// file it came from. With [`VerifyJob::replace`] each batch's wrong tables are replaced in
/// one transaction (a kill loses nothing stored); otherwise nothing stored changes.
///
/// ```
/// use dealdex::solve::{VerifyJob, verify};
/// use dealdex::{DdSource, DealIndex, Store};
/// let deal: dealdex::Deal =
///     "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse()?;
/// let key = DealIndex::from_deal(&deal);
/// let mut rows = dealdex::dd::solve(&deal).rows();
/// rows[0][1] = 12; // North in spades: 12, not 13
/// let wrong = dealdex::dd::TrickTable::new(rows)?;
/// let mut store = Store::open_in_memory()?;
/// let source = DdSource::File { file: "x.parquet".into(), format: "parquet".into(), sha256: None };
/// store.store_dd_from(&[(key, wrong)], &source)?;
/// let job = VerifyJob { set: None, sample: None, seed: 27, batch: 64, replace: false };
/// let report = verify(&job, &mut store, &mut |_| {})?;
/// assert_eq!((report.checked, report.mismatches.len()), (1, 1));
/// assert_eq!(report.mismatches[0].cells[0].stored, 12);
/// assert_eq!(store.dd_table(&key)?, Some(wrong)); // nothing changed
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Store`](crate::ErrorKind::Store) when reading fails or a stored row does not
/// decode ([`StoreErrorKind::CorruptDeal`], [`StoreErrorKind::CorruptDd`],
/// [`StoreErrorKind::CorruptDdSource`]); with `replace`, when a replacement fails (that batch is
/// then not replaced; earlier ones are). A mismatch is no error: see
/// [`VerifyReport::verified`].
pub fn verify(
    job: &VerifyJob,
    store: &mut Store,
    progress: &mut dyn FnMut(SolveProgress),
) -> Result<VerifyReport> {
    let started = Instant::now();
    let (rows, candidates) = pick(store, job)?;
    let mut report = VerifyReport {
        database: store.path().to_owned(),
        set: job.set.clone(),
        candidates,
        sample: job.sample,
        seed: job.sample.map(|_| job.seed),
        ..VerifyReport::default()
    };
    let total = rows.len() as u64;
    progress(SolveProgress { done: 0, total });
    let mut sources: HashMap<i64, DdSource> = HashMap::new();
    for chunk in rows.chunks(job.batch.max(1)) {
        let deals = chunk
            .iter()
            .map(|r| {
                r.key
                    .to_deal()
                    .map_err(|error| StoreErrorKind::CorruptDeal { key: r.key, error }.into())
            })
            .collect::<Result<Vec<Deal>, StoreError>>()?;
        let solved = solve_all(&deals);
        let mut wrong: Vec<(DealIndex, TrickTable)> = Vec::new();
        let mut found: Vec<TableMismatch> = Vec::new();
        for ((row, deal), fresh) in chunk.iter().zip(&deals).zip(&solved) {
            report.checked += 1;
            if row.table == *fresh {
                report.agreed += 1;
                continue;
            }
            let source = match sources.get(&row.source) {
                Some(s) => s.clone(),
                None => {
                    let s = store.dd_source_by_id(row.source)?;
                    sources.insert(row.source, s.clone());
                    s
                }
            };
            let boards = store
                .boards_of(&row.key)?
                .into_iter()
                .map(|b| BoardRef {
                    set: b.set_name,
                    board: b.board,
                })
                .collect();
            found.push(TableMismatch {
                index: row.key.to_string(),
                deal: deal.to_string(),
                boards,
                source,
                cells: differing_cells(&row.table, fresh),
                replaced: false,
            });
            wrong.push((row.key, *fresh));
        }
        if job.replace && !wrong.is_empty() {
            report.replaced += store.replace_dd(&wrong)?;
            found.iter_mut().for_each(|m| m.replaced = true);
        }
        report.mismatches.extend(found);
        progress(SolveProgress {
            done: report.checked,
            total,
        });
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}
