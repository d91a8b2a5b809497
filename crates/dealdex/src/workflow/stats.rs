//! The statistics workflow (`dealdex stats`): how random a set of deals looks — card-seat,
//! pattern and HCP tables against their exact probabilities, chi-square tests (see
//! [`crate::stats`]) — for a deal file, a stored set or the whole database.
//!
//! ```
//! use dealdex::workflow::pipeline::DealSource;
//! use dealdex::workflow::stats::{StatsJob, run};
//! use dealdex::{DealIndex, Seed, Store};
//!
//! let seed: Seed = "42".repeat(32).parse()?;
//! let keys: Vec<DealIndex> = (1..=1000).map(|k| DealIndex::from_deal(&seed.board_deal(k))).collect();
//! let mut store = Store::open_in_memory()?;
//! store.insert_deals(&keys)?;
//! let run = run(&StatsJob::new(DealSource::Store), Some(&store))?;
//! assert_eq!(run.report.deals, 1000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::Classify;
use crate::formats::{Board, SkippedBoard};
use crate::stats::{Report, SetStats};
use crate::workflow::output::{FileRole, ReportOutput, check_distinct};
use crate::workflow::pipeline::{self, DealSink, DealSource, SourceOptions};
use crate::{ErrorClass, ReadOnlyStore, StoreReader};

/// A statistics job.
#[derive(Clone, Debug)]
pub struct StatsJob {
    /// The deals: a deal file, a stored set, or every stored deal.
    pub source: DealSource,
    /// Also draw observed against expected (patterns and HCP) as an SVG file
    /// ([`Report::to_svg`]), written whole or not at all; `None`: no plot.
    pub plot: Option<PathBuf>,
}

impl StatsJob {
    /// The statistics of `source`, without a plot.
    pub fn new(source: DealSource) -> StatsJob {
        StatsJob { source, plot: None }
    }
}

/// Why a statistics job failed.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    /// The deals could not be read: an unreadable file, no database, no such set, the store
    /// failing or holding a key that is no deal.
    #[error(transparent)]
    Pipeline(#[from] pipeline::Error),
    /// There is no deal to analyse (an empty set or database).
    #[error("no deals to analyse")]
    NoDeals,
}

crate::classified!(StatsError);
impl Classify for StatsError {
    /// Nothing to analyse is bad input; the source's errors have its class.
    fn class(&self) -> ErrorClass {
        match self {
            StatsError::Pipeline(e) => e.class(),
            StatsError::NoDeals => ErrorClass::BadInput,
        }
    }

    /// The deal file's position for a file that could not be read.
    fn position(&self) -> Option<crate::InputPosition> {
        match self {
            StatsError::Pipeline(e) => e.position(),
            _ => None,
        }
    }

    /// The source's error, the plot's.
    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StatsError::Pipeline(e) => Some(e),
            StatsError::NoDeals => None,
        }
    }
}

/// The statistics of a job, with what reading a deal file left out.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsRun {
    /// The statistics ([`Report::to_text`], [`Report::to_svg`], serde for JSON).
    pub report: Report,
    /// Boards of the deal file without a complete deal, not counted (none for the store).
    pub skipped: Vec<SkippedBoard>,
    /// What the file's reader ignored, each naming its line.
    pub warnings: Vec<String>,
}

/// Counts the deals of the job's source a piece at a time (each piece in parallel, on
/// rayon's pool: memory flat in the source's size; [`SetStats`] is the sink) and returns
/// the statistics report with the file's skipped boards and warnings, the plot written
/// when asked for. `store` is the database of a stored source.
///
/// # Errors
/// [`StatsError`]: a plot that is the deal file, an unreadable file, a missing set, no
/// deals, a failed or corrupt read, a plot that cannot be written.
pub fn run(job: &StatsJob, store: Option<&StoreReader>) -> Result<StatsRun, StatsError> {
    if let (Some(plot), DealSource::File(f)) = (&job.plot, &job.source) {
        check_distinct(&[(FileRole::Plot, plot), (FileRole::Input, &f.path)])?;
    }
    let source = job.source.open(store, &SourceOptions::default())?;
    let mut total = SetStats::new();
    let read = pipeline::drain(source, &mut total, |_| Ok::<(), StatsError>(()))?;
    if total.deals() == 0 {
        return Err(StatsError::NoDeals);
    }
    let report = total.report();
    if let Some(plot) = &job.plot {
        let mut no_stdout = std::io::sink();
        let mut out = ReportOutput::create(Some(plot), &mut no_stdout)?;
        out.write_all(report.to_svg().as_bytes())
            .map_err(|e| pipeline::Error::write(Some(plot), e))?;
        out.finish()?;
    }
    Ok(StatsRun {
        report,
        skipped: read.skipped,
        warnings: read.warnings,
    })
}

/// Runs `job` ([`run`]) with the database file `db`, opened read-only for a stored source
/// (a deal file needs none).
///
/// # Errors
/// [`StatsError::Paths`] for a plot that is the database; [`StatsError::Source`]
/// ([`pipeline::ErrorKind::Store`]) when the database does not open; then as [`run`].
pub fn run_in(job: &StatsJob, db: &Path) -> Result<StatsRun, StatsError> {
    if let Some(plot) = &job.plot {
        check_distinct(&[(FileRole::Plot, plot), (FileRole::Database, db)])?;
    }
    let store = match job.source.is_stored() {
        true => Some(ReadOnlyStore::open(db).map_err(pipeline::Error::from)?),
        false => None,
    };
    run(job, store.as_deref())
}

impl From<std::convert::Infallible> for StatsError {
    fn from(never: std::convert::Infallible) -> StatsError {
        match never {}
    }
}

/// The statistics as a sink: each piece counted in parallel, the counts merged.
impl DealSink for SetStats {
    type Written = Report;
    type Error = std::convert::Infallible;

    fn write(&mut self, boards: Vec<Board>) -> Result<(), Self::Error> {
        self.merge(count(&boards));
        Ok(())
    }

    fn finish(self) -> Result<Report, Self::Error> {
        Ok(self.report())
    }
}

/// The statistics of some boards, counted in parallel.
fn count(boards: &[Board]) -> SetStats {
    boards
        .par_chunks(1 << 12)
        .map(|chunk| {
            let mut s = SetStats::new();
            for b in chunk {
                s.add(&b.deal);
            }
            s
        })
        .reduce(SetStats::new, |mut x, y| {
            x.merge(y);
            x
        })
}
