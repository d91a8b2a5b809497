//! `dealdex stats`: is a set honestly random? Card seats, suit patterns and HCP against the
//! exact theoretical probabilities, with chi-square tests.

use std::path::PathBuf;

use clap::Args;
use dealdex::workflow::stats::StatsJob;

use super::{StoreArgs, Text, print};

#[derive(Args, Debug)]
#[command(after_help = "Without --set or FILE, every deal in the database.

Examples:
  dealdex stats --set club
  dealdex stats boards.pbn --json
  dealdex stats --plot stats.svg")]
pub struct StatsArgs {
    /// A deal file (any format dealdex reads) instead of the database.
    file: Option<PathBuf>,
    #[command(flatten)]
    read: super::file_args::ReadArgs,
    /// Only the deals of this set.
    #[arg(long, value_name = "NAME", conflicts_with = "file")]
    set: Option<String>,
    /// Also draw observed vs expected (patterns and HCP) as an SVG file, written whole or not
    /// at all (refused when it names FILE or the database).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    #[command(flatten)]
    db: StoreArgs,
}

pub fn run(a: StatsArgs, json: bool) -> anyhow::Result<()> {
    let source = a.read.source(a.file.clone(), a.set.clone())?;
    let job = StatsJob {
        source,
        plot: a.plot.clone(),
    };
    let run = dealdex::workflow::stats::run_in(&job, &a.db.path())?;
    if let Some(path) = &a.file {
        super::print_notes(&path.display(), &run.notes);
    }
    print(&run.report, json, Text::Answer)
}
