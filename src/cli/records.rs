//! `dealdex records`: printable hand records of a stored set or a deal file, through the
//! library's [`dealdex::workflow::records`] workflow.

use clap::Args;
use dealdex::workflow::records::{RecordsOptions, run_in};

use super::{DbArgs, Text, counted, render, stdout};

#[derive(Args, Debug)]
#[command(
    after_help = "The sheet: a header with event, date and set; per board a diagram
(N top, W left, E right, S bottom; vulnerable seats marked red), board number, dealer,
vulnerability and HCP, and for solved boards the double-dummy table and par.

Examples:
  dealdex records --set club --out club.pdf
  dealdex records --set club --out club.html --per-page 6 --paper letter
  dealdex records boards.pbn --solve --out boards.pdf"
)]
pub struct RecordsArgs {
    #[command(flatten)]
    options: RecordsOptions,
    #[command(flatten)]
    db: DbArgs,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(a: RecordsArgs, json: bool) -> anyhow::Result<()> {
    let job = a.options.job()?;
    // Only --solve solves.
    let template = "{bar:40} {human_pos}/{human_len} deals solved {eta}";
    let report = counted(a.quiet || !a.options.solve, template, |on_progress| {
        run_in(&job, &a.db.path(), on_progress)
    })?;
    render(&mut stdout(), &report, json, a.quiet, Text::Answer)
}
