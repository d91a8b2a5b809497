//! `dealdex contracts`: contracts compared over deals played double dummy, through the
//! library's [`dealdex::workflow::contracts`] workflow.

use clap::Args;
use dealdex::workflow::contracts::{ContractsOptions, run_in};

use super::{DbArgs, Text, print, progress_bar};

#[derive(Args, Debug)]
#[command(
    after_help = "Without --deals, --set or --count, every stored deal; --where keeps the \
stored deals a query matches, or with --count the dealt ones. Stored tables are used; deals \
without one are solved (not stored).

Examples:
  dealdex contracts 3NT:S 4H:N 5D:N 6H:N --set club
  dealdex contracts 4SX:E 5H:N --deals boards.pbn --vul All --json
  dealdex contracts 3NT:S 4H:S --count 1000 --predeal 'S:AQ4.KJ52.K83.Q72' \\
      --where 'hcp(N) in 10..12 and len(N, hearts) = 4' --vul None --seed <64 hex>"
)]
pub struct ContractsArgs {
    #[command(flatten)]
    options: ContractsOptions,
    #[command(flatten)]
    db: DbArgs,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(a: ContractsArgs, json: bool) -> anyhow::Result<()> {
    let job = a.options.job()?;
    let bar = progress_bar(a.quiet, "{spinner} {human_pos} deals played {msg}");
    let report = run_in(&job, &a.db.path(), &mut |p| {
        bar.set_position(p.deals);
        bar.set_message(format!("({} solved)", p.solved));
    })?;
    bar.finish_and_clear();
    if let Some(path) = &a.options.deals {
        super::print_notes(&path.display(), &report.notes);
    }
    print(&report, json, Text::Answer)
}
