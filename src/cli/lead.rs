//! `dealdex lead`: which card to lead against a contract, double dummy over a sample of
//! deals dealt around the leader's hand (or read from a file or the database).

use std::io::Write;

use clap::Args;
use dealdex::workflow::lead::{self as wf, LeadOptions};
use dealdex::workflow::output::ReportOutput;

use super::{StoreArgs, Text, print};

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex lead --hand 'S:AQ4 H:J D:KJ6543 C:632' --contract 3NT --declarer S --deals 1000
  dealdex lead --hand AQ4.J.KJ6543.632 --contract 4SX --declarer E --vul EW \\
      --where 'hcp(E) >= 15 and len(E, spades) >= 5' --deals 5000 --seed <64 hex>
  dealdex lead --hand AQ4.J.KJ6543.632 --contract 3NT --declarer S --script 1nt.dl --seed 7
  dealdex lead --hand AQ4.J.KJ6543.632 --contract 3NT --declarer S --deals 500 --store w3nt
  dealdex query --set w3nt 'lead(W, nt, SA) > lead(W, nt, D5)' --count
  dealdex lead --contract 3NT --declarer S --set sample --json")]
pub struct LeadArgs {
    #[command(flatten)]
    options: LeadOptions,
    #[command(flatten)]
    db: StoreArgs,
}

pub fn run(a: LeadArgs, json: bool) -> anyhow::Result<()> {
    let job = a.options.job()?;
    let mut stdout = super::stdout();
    let csv = a.options.csv_output(&a.db.path(), json, &mut stdout)?;
    let text = csv
        .as_ref()
        .is_none_or(|c| matches!(c, ReportOutput::File(_)));
    let bar = super::progress_bar(json, "{spinner} {pos}/{len} deals solved");
    let report = wf::run_in(&job, &a.db.path(), &mut |p| match p {
        wf::LeadProgress::Dealt(n) => bar.set_length(n),
        wf::LeadProgress::Solved(n) => bar.set_position(n),
    })?;
    bar.finish_and_clear();
    if let (Some(seed), None, false) = (&report.seed, &a.options.seed, json) {
        // A fresh seed: said, so that the sample can be dealt again.
        eprintln!("dealdex: seed {seed} (give --seed {seed} to deal the same sample)");
    }
    // `--csv -`: the table as CSV on standard output, in place of the text.
    if text {
        print(&report, json, Text::Answer)?;
    }
    if let Some(mut csv) = csv {
        csv.write_all(report.to_csv().as_bytes())?;
        csv.finish()?;
    }
    Ok(())
}
