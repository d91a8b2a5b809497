//! `dealdex stats`: is a set honestly random? Card seats, suit patterns and HCP against the
//! exact theoretical probabilities, with chi-square tests.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use dealdex::stats::SetStats;
use dealdex::{DealIndex, Store};
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
    /// JSON instead of text tables.
    #[arg(long)]
    json: bool,
    /// Also draw observed vs expected (patterns and HCP) as an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    #[command(flatten)]
    db: DbArgs,
}

/// Keys read from the database per parallel counting step.
const KEYS_PER_STEP: usize = 1 << 20;

pub fn run(a: StatsArgs) -> anyhow::Result<()> {
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
            if !a.db.db.exists() {
                return Err(bad(format!("no database at {}", a.db.db.display())));
            }
            let store = Store::open(&a.db.db)?;
            if let Some(name) = &a.set
                && store.set(name)?.is_none()
            {
                return Err(bad(format!(
                    "no set named {name:?} in {}",
                    a.db.db.display()
                )));
            }
            let conn = store.connection();
            let mut stmt = match &a.set {
                Some(_) => conn.prepare(
                    "SELECT deal FROM set_boards JOIN sets ON sets.id = set_id WHERE sets.name = ?1",
                )?,
                None => conn.prepare("SELECT key FROM deals")?,
            };
            let mut rows = match &a.set {
                Some(name) => stmt.query([name])?,
                None => stmt.query([])?,
            };
            let mut total = SetStats::new();
            let mut keys: Vec<DealIndex> = Vec::with_capacity(KEYS_PER_STEP);
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
            while let Some(row) = rows.next()? {
                let key = row.get_ref(0)?.as_blob()?;
                keys.push(DealIndex(
                    key.try_into()
                        .map_err(|_| bad("a stored key is not 13 bytes"))?,
                ));
                if keys.len() == KEYS_PER_STEP {
                    total.merge(count(&keys)?);
                    keys.clear();
                }
            }
            total.merge(count(&keys)?);
            total
        }
    };
    if stats.deals() == 0 {
        return Err(bad("no deals to analyse"));
    }
    let report = stats.report();
    let mut out = open_output(None)?;
    if a.json {
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
