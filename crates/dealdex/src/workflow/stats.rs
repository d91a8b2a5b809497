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

use crate::formats::Board;
use crate::stats::{Report, SetStats};
use crate::workflow::output::{FileRole, ReportOutput, check_distinct};
use crate::workflow::pipeline::{self, DealSink, DealSource, ReadNotes, SourceOptions};
use crate::{Error, ErrorKind, ReadOnlyStore, Result, StoreReader};

/// `dealdex stats`' options as typed. With the `clap` feature they derive `clap::Args`,
/// their doc comments the help; [`StatsOptions::job`] makes the [`StatsJob`].
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct StatsOptions {
    /// A deal file (any format dealdex reads) instead of the database.
    pub file: Option<PathBuf>,
    /// How a deal file is read (`--from`, `--first-board`).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub read: crate::workflow::pipeline::ReadOptions,
    /// Only the deals of this set.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "NAME", conflicts_with = "file")
    )]
    pub set: Option<String>,
    /// Also draw observed vs expected (patterns and HCP) as an SVG file, written whole or not
    /// at all (refused when it names FILE or the database).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE.svg"))]
    pub plot: Option<PathBuf>,
}

impl StatsOptions {
    /// The job: the deal file, else the stored set, else every stored deal.
    ///
    /// # Errors
    /// An unknown `--from` format.
    pub fn job(&self) -> Result<StatsJob> {
        Ok(StatsJob {
            source: self.read.source(self.file.clone(), self.set.clone())?,
            plot: self.plot.clone(),
        })
    }
}

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

/// The statistics of a job, with what reading a deal file left out.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsRun {
    /// The statistics ([`Report::to_text`], [`Report::to_svg`], serde for JSON).
    pub report: Report,
    /// The deal file's boards without a complete deal, not counted (none for the store),
    /// and what its reader ignored.
    pub notes: ReadNotes,
}

/// Counts the deals of the job's source a piece at a time (each piece in parallel, on
/// rayon's pool: memory flat in the source's size; [`SetStats`] is the sink) and returns
/// the statistics report with the file's skipped boards and warnings, the plot written
/// when asked for. `store` is the database of a stored source.
///
/// # Errors
/// A plot that is the deal file ([`ErrorKind::SameFile`]), an unreadable file, a missing
/// set, no deals ([`ErrorKind::NoDeals`]), a failed or corrupt read, a plot that cannot be
/// written.
pub fn run(job: &StatsJob, store: Option<&StoreReader>) -> Result<StatsRun> {
    if let (Some(plot), DealSource::File(f)) = (&job.plot, &job.source) {
        check_distinct(&[(FileRole::Plot, plot), (FileRole::Input, &f.path)])?;
    }
    let source = job.source.open(store, &SourceOptions::default())?;
    let mut total = SetStats::new();
    let read = pipeline::drain(source, &mut total, |_| Ok::<(), Error>(()))?;
    if total.deals() == 0 {
        return Err(ErrorKind::NoDeals { to: "analyse" }.into());
    }
    let report = total.report();
    if let Some(plot) = &job.plot {
        let mut no_stdout = std::io::sink();
        let mut out = ReportOutput::create(Some(plot), &mut no_stdout)?;
        out.write_all(report.to_svg().as_bytes())
            .map_err(|e| Error::write(Some(plot), e))?;
        out.finish()?;
    }
    Ok(StatsRun {
        report,
        notes: read.notes,
    })
}

/// Runs `job` ([`run`]) with the database file `db`, opened read-only for a stored source
/// (a deal file needs none).
///
/// # Errors
/// [`ErrorKind::SameFile`] for a plot that is the database; [`ErrorKind::Store`] when the
/// database does not open; then as [`run`].
pub fn run_in(job: &StatsJob, db: &Path) -> Result<StatsRun> {
    if let Some(plot) = &job.plot {
        check_distinct(&[(FileRole::Plot, plot), (FileRole::Database, db)])?;
    }
    let store = match job.source.is_stored() {
        true => Some(ReadOnlyStore::open(db)?),
        false => None,
    };
    run(job, store.as_deref())
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
