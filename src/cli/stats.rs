//! `dealdex stats`: is a set honestly random? Card seats, suit patterns and HCP against the
//! exact theoretical probabilities, with chi-square tests.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use dealdex::DealIndex;
use dealdex::stats::SetStats;
use rayon::prelude::*;

use super::{DbArgs, bad, open_output, outputs};

#[derive(Args, Debug)]
#[command(after_help = "Without --set or FILE, every deal in the database.

Examples:
  dealdex stats --set club
  dealdex stats boards.pbn --json
  dealdex stats --plot stats.svg")]
pub struct StatsArgs {
    /// A deal file (any format dealdex reads) instead of the database.
    file: Option<PathBuf>,
    /// Only the deals of this set.
    #[arg(long, value_name = "NAME", conflicts_with = "file")]
    set: Option<String>,
    /// Also draw observed vs expected (patterns and HCP) as an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    #[command(flatten)]
    db: DbArgs,
}

/// Keys read from the database per parallel counting step.
const KEYS_PER_STEP: usize = 1 << 20;

pub fn run(a: StatsArgs, json: bool) -> anyhow::Result<()> {
    let stats = match &a.file {
        Some(path) => {
            let format = outputs::format_for(path, None)?;
            let boards = super::files::read_file(path, format, 1)?;
            let mut s = SetStats::new();
            for b in &boards {
                s.add(&b.deal);
            }
            s
        }
        None => {
            let store = dealdex::Store::open_read_only(&a.db.db)?;
            if let Some(name) = &a.set
                && store.set(name)?.is_none()
            {
                return Err(bad(format!(
                    "no set named {name:?} in {}",
                    a.db.db.display()
                )));
            }
            let count = |keys: &[DealIndex]| -> anyhow::Result<SetStats> {
                keys.par_chunks(1 << 14)
                    .map(|chunk| {
                        let mut s = SetStats::new();
                        for k in chunk {
                            s.add(&k.to_deal()?);
                        }
                        Ok(s)
                    })
                    .try_reduce(SetStats::new, |mut x, y| {
                        x.merge(y);
                        Ok(x)
                    })
            };
            let mut total = SetStats::new();
            let mut keys: Vec<DealIndex> = Vec::with_capacity(KEYS_PER_STEP);
            store.for_each_key(a.set.as_deref(), |key| -> anyhow::Result<()> {
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
        return Err(bad("no deals to analyse"));
    }
    let report = stats.report();
    let mut out = open_output(None)?;
    if json {
        writeln!(out, "{}", report.to_json())?;
    } else {
        write!(out, "{}", report.to_text())?;
    }
    out.flush()?;
    if let Some(p) = &a.plot {
        std::fs::write(p, report.to_svg()).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
    }
    Ok(())
}
