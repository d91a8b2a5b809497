//! The statistics workflow (`dealdex stats`): how random a set of deals looks — card-seat,
//! pattern and HCP tables against their exact probabilities, chi-square tests (see
//! [`crate::stats`]) — for a deal file, a stored set or the whole database.
//!
//! ```
//! use dealdex::workflow::stats::{StatsJob, StatsSource, run};
//! use dealdex::{DealIndex, Seed, Store};
//!
//! let seed: Seed = "42".repeat(32).parse()?;
//! let keys: Vec<DealIndex> = (1..=1000).map(|k| DealIndex::from_deal(&seed.board_deal(k))).collect();
//! let mut store = Store::open_in_memory()?;
//! store.insert_deals(&keys)?;
//! let run = run(&StatsJob { source: StatsSource::Store { set: None } }, Some(&store))?;
//! assert_eq!(run.report.deals, 1000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::PathBuf;

use rayon::prelude::*;

use crate::Classify;
use crate::formats::DealFormat;
use crate::formats::SkippedBoard;
use crate::stats::{Report, SetStats};
use crate::workflow::input::{ReadFileError, read_deal_pieces};
use crate::{DealIndex, ErrorClass, StoreError, StoreReader};

/// Keys read from the database before they are counted in parallel (bounded memory:
/// 13 bytes each).
const KEYS_PER_STEP: usize = 1 << 20;

/// Which deals to analyse.
#[derive(Clone)]
pub enum StatsSource {
    /// Every board of a deal file, read through `format`.
    File {
        /// The file.
        path: PathBuf,
        /// Its format.
        format: &'static dyn DealFormat,
    },
    /// The deals of a stored set (`Some`) or every stored deal (`None`).
    Store {
        /// The set's name.
        set: Option<String>,
    },
}

/// A statistics job.
#[derive(Clone)]
pub struct StatsJob {
    /// The deals.
    pub source: StatsSource,
}

/// Why a statistics job failed.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    /// The deal file could not be read.
    #[error(transparent)]
    Read(#[from] ReadFileError),
    /// No set of that name in the database.
    #[error("no set named {set:?} in {database}")]
    NoSet {
        /// The name asked for.
        set: String,
        /// The database path.
        database: String,
    },
    /// There is no deal to analyse (an empty set or database).
    #[error("no deals to analyse")]
    NoDeals,
    /// The job reads the database and none was given.
    #[error("statistics of stored deals need a database")]
    NoStore,
    /// Reading the database failed, or a stored key is not a deal.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Classify for StatsError {
    /// An unreadable file, a missing set or nothing to analyse are bad input; store errors
    /// have their own class.
    fn class(&self) -> ErrorClass {
        match self {
            StatsError::Read(_) | StatsError::NoSet { .. } | StatsError::NoDeals => {
                ErrorClass::BadInput
            }
            StatsError::NoStore => ErrorClass::Internal,
            StatsError::Store(e) => e.class(),
        }
    }

    /// The deal file's position ([`ReadFileError`]'s) for a file that could not be read.
    fn position(&self) -> Option<crate::InputPosition> {
        match self {
            StatsError::Read(e) => e.position(),
            _ => None,
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

/// Counts the deals of the job's source (in parallel, on rayon's pool) and returns the
/// statistics report with the file's skipped boards and warnings.
///
/// # Errors
/// [`StatsError`]: an unreadable file, a missing set, no deals, a failed or corrupt read.
pub fn run(job: &StatsJob, store: Option<&StoreReader>) -> Result<StatsRun, StatsError> {
    let mut skipped = Vec::new();
    let mut warnings = Vec::new();
    let stats = match &job.source {
        StatsSource::File { path, format } => {
            // Piece by piece: memory flat in the file's size.
            let mut s = SetStats::new();
            let mut file = std::fs::File::open(path).map_err(|error| ReadFileError::Io {
                path: path.clone(),
                error,
            })?;
            let read = read_deal_pieces(&mut file, path, *format, None, &mut |boards| {
                for b in &boards {
                    s.add(&b.deal);
                }
            })?;
            (skipped, warnings) = (read.skipped, read.warnings);
            s
        }
        StatsSource::Store { set } => {
            let store = store.ok_or(StatsError::NoStore)?;
            if let Some(name) = set
                && store.set(name)?.is_none()
            {
                return Err(StatsError::NoSet {
                    set: name.clone(),
                    database: store.path().to_owned(),
                });
            }
            let mut total = SetStats::new();
            let mut keys: Vec<DealIndex> = Vec::with_capacity(KEYS_PER_STEP);
            store.for_each_key(set.as_deref(), |key| -> Result<(), StatsError> {
                keys.push(key);
                if keys.len() == KEYS_PER_STEP {
                    total.merge(count(&keys)?);
                    keys.clear();
                }
                Ok(())
            })?;
            total.merge(count(&keys)?);
            total
        }
    };
    if stats.deals() == 0 {
        return Err(StatsError::NoDeals);
    }
    Ok(StatsRun {
        report: stats.report(),
        skipped,
        warnings,
    })
}

/// The statistics of some keys, counted in parallel.
fn count(keys: &[DealIndex]) -> Result<SetStats, StatsError> {
    keys.par_chunks(1 << 14)
        .map(|chunk| {
            let mut s = SetStats::new();
            for &key in chunk {
                let deal = key
                    .to_deal()
                    .map_err(|error| StoreError::CorruptDeal { key, error })?;
                s.add(&deal);
            }
            Ok(s)
        })
        .try_reduce(SetStats::new, |mut x, y| {
            x.merge(y);
            Ok(x)
        })
}
