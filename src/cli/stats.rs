//! `dealdex stats`: is a set honestly random? Card seats, suit patterns and HCP against the
//! exact theoretical probabilities, with chi-square tests.

use clap::Args;
use dealdex::workflow::stats::StatsOptions;

use super::{StoreArgs, Text, print};

#[derive(Args, Debug)]
#[command(after_help = "Without --set or FILE, every deal in the database.

Examples:
  dealdex stats --set club
  dealdex stats boards.pbn --json
  dealdex stats --plot stats.svg")]
pub struct StatsArgs {
    #[command(flatten)]
    options: StatsOptions,
    #[command(flatten)]
    db: StoreArgs,
}

pub fn run(a: StatsArgs, json: bool) -> anyhow::Result<()> {
    let job = a.options.job()?;
    let run = dealdex::workflow::stats::run_in(&job, &a.db.path())?;
    if let Some(path) = &a.options.file {
        super::print_notes(&path.display(), &run.notes);
    }
    print(&run.report, json, Text::Answer)
}
