//! `dealdex dealer`: run a script of dealer's simulation language (issue 29).

use std::io::Read;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use dealdex::dealer::{DealerJob, Script};

use super::{Text, open_output, render};

#[derive(Args, Debug)]
#[command(
    after_help = "The script is dealer's input language (Debian's dealer 20211121): generate, \
produce, predeal, condition, action … Deals come from dealdex's seeded stream (SHA-256 of the -s \
number), not dealer's random stream: -s makes a run reproducible within dealdex.

Examples:
  dealdex dealer Descr.1c -s 1
  echo 'produce 3 condition hcp(north) >= 20' | dealdex dealer - -s 7"
)]
pub struct DealerArgs {
    /// The script file; `-` or nothing for standard input.
    script: Option<PathBuf>,
    /// The most deals to produce (deals meeting the condition).
    #[arg(short = 'p', value_name = "N")]
    produce: Option<u64>,
    /// The most deals to generate.
    #[arg(short = 'g', value_name = "N")]
    generate: Option<u64>,
    /// The seed (a number): the same seed gives the same deals.
    #[arg(short = 's', value_name = "SEED")]
    seed: Option<u64>,
    /// Suppress printpbn's output.
    #[arg(short = 'q')]
    quiet: bool,
    /// As Debian's dealer: leave out the closing lines (Generated …, Produced …, seed, time).
    #[arg(short = 'v')]
    verbose: bool,
}

pub fn run(a: DealerArgs, json: bool) -> anyhow::Result<()> {
    let (text, name) = match &a.script {
        Some(p) if p.as_os_str() != "-" => (
            std::fs::read_to_string(p).with_context(|| p.display().to_string())?,
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
        ),
        _ => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s)?;
            (s, "-".to_owned())
        }
    };
    let script = Script::parse(&text)?;
    let job = DealerJob {
        generate: a.generate,
        produce: a.produce,
        seed: a.seed,
        quiet: a.quiet,
        script_name: Some(name),
        date: None,
    };
    let mut out = open_output(None)?;
    let mut report = dealdex::dealer::run(&script, &job, &mut out, &mut |_| {})?;
    report.verbose = !a.verbose;
    render(&mut out, &report, json, false, Text::Answer)
}
