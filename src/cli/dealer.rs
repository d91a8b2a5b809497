//! `dealdex dealer`: run a script of dealer's simulation language (issue 29).

use clap::Args;
use dealdex::dealer::DealerProgress;
use dealdex::workflow::dealer::{DealerOptions, DealerRunJob};
use std::io::Write;

use super::{DbArgs, Text, drawn_bar, print_notes, render, stdout};

/// The command's one-line description (`dealdex --help`, `dealdex dealer --help`).
pub const ABOUT: &str =
    "Run a script of dealer's simulation language (generate, produce, condition, action …)";

#[derive(Args, Debug)]
#[command(
    version,
    after_help = "The script is dealer's input language (Debian's dealer 20211121): generate, \
produce, predeal, condition, action … Deals come from dealdex's simulation stream (seeded shuffles, \
drawn on all cores), not dealer's random stream: -s makes a run reproducible within dealdex, on any \
machine and any number of threads.

Given deals (--set, --all, --deals; -l FILE is --deals FILE --from gib-library, -L FILE is
--deals FILE --from rp-library) are run over in order as generated deals are, read as the run
goes: -g limits the deals tested, -p (or produce) stops the run and the reading early, and a
deal without the script's predealt cards (or suit lengths) is skipped, not counted as
generated. tricks() answers from the tables the database or the file (PBN's double-dummy
tags, a library's tables) holds, and the tables a run solves are stored in the database when
there is one: a second run solves nothing. dealer's -l N skips N deals of the library.dat it
finds; dealdex's -l and -L start at the first deal and end with the last.

--db FILE is where --set and --all read, where tables are read and stored and where --store
keeps its set; alone it changes no source: the deals are generated. --store writes the
produced deals as they come (boards 1, 2, …) in one transaction: a failed run stores no set.

-N/-E/-S/-W and --param are DealerV2's (its -0 … -9; dealdex's -0 is dealer's no-swapping
flag). A predeal on a seat that -2 or -3 moves is refused. evalcontract prints dealer's table
of average scores (double dummy, North and South declaring).

Examples:
  dealdex dealer Descr.1c -s 1
  dealdex dealer Descr.1c -s 1 -3 -m
  echo 'produce 3 condition hcp(north) >= 20' | dealdex dealer - -s 7
  dealdex dealer strong.dei -s 1 -p 100 --store strong
  dealdex dealer tricks.dei --set club --db club.db
  dealdex dealer tricks.dei --all --db club.db
  dealdex dealer tricks.dei --deals boards.pbn
  dealdex dealer tricks.dei -l library.dat
  dealdex dealer tricks.dei -L rpdd.zrd -p 1000
  dealdex dealer opener.dei -S SAKQ2,HK2,DAJ5,C432 --param 0=15 --param 1=north"
)]
pub struct DealerArgs {
    #[command(flatten)]
    options: DealerOptions,
    /// As Debian's dealer: leave out the closing lines (Generated …, Produced …, seed, time).
    #[arg(short = 'v')]
    verbose: bool,
    #[command(flatten)]
    db: DbArgs,
    /// A progress meter on standard error (deals produced of -p, or generated of -g).
    #[arg(short = 'm')]
    meter: bool,
}

pub fn run(a: DealerArgs, json: bool) -> anyhow::Result<()> {
    // --db names the database; only -l, -L, --deals, --set and --all say where the deals
    // come from.
    let job = a.options.job(a.db.db.clone())?;
    let mut out = stdout();
    let result = meter(a.meter, &job, |on_progress| {
        dealdex::workflow::dealer::run(&job, &mut out, on_progress)
    });
    let mut report = result?;
    if let Some(path) = a.options.file() {
        out.flush()?;
        print_notes(&path.display(), &report.file_notes);
    }
    report.run.verbose = !a.verbose;
    render(&mut out, &report, json, false, Text::Answer)?;
    if report.run.timed_out {
        anyhow::bail!(
            "-t {}: no deal met the condition in that time ({} generated)",
            job.run.time_limit.unwrap_or_default().as_secs_f64(),
            report.run.generated
        );
    }
    Ok(())
}

/// Runs `run` with `-m`'s meter when `shown` ([`DealerRunJob::meter`]).
fn meter<T>(
    shown: bool,
    job: &DealerRunJob,
    run: impl FnOnce(&mut dyn FnMut(DealerProgress)) -> T,
) -> T {
    let meter = job.meter();
    let bar = match shown {
        true => drawn_bar("{bar:40} {percent:>3}% {human_pos}/{human_len} {msg}"),
        false => indicatif::ProgressBar::hidden(),
    };
    bar.set_length(meter.length);
    let result = run(&mut |p| {
        let (at, text) = meter.at(p);
        bar.set_position(at);
        bar.set_message(text);
    });
    bar.finish_and_clear();
    result
}
