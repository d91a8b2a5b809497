//! `dealdex dealer`: run a script of dealer's simulation language (issue 29).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use dealdex::dealer::{DealerJob, DealerProgress, Swapping};
use dealdex::workflow::dealer::{DealerRunJob, Library, load_script};

use super::{DbArgs, Text, drawn_bar, file_args::ReadArgs, print_notes, render, stdout};

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
    /// The script file; `-` or nothing for standard input.
    script: Option<PathBuf>,
    #[command(flatten)]
    run: DealerJob,
    /// As Debian's dealer: leave out the closing lines (Generated …, Produced …, seed, time).
    #[arg(short = 'v')]
    verbose: bool,
    #[command(flatten)]
    db: DbArgs,
    /// Run over the boards of this stored set (in --db FILE, else dealdex.db).
    #[arg(long, value_name = "NAME", conflicts_with = "deals")]
    set: Option<String>,
    /// Run over every deal stored in the database (--db FILE, else dealdex.db), in key order.
    #[arg(long, conflicts_with_all = ["set", "deals"])]
    all: bool,
    /// Run over the boards of this deal file (any format dealdex reads).
    #[arg(long, value_name = "FILE")]
    deals: Option<PathBuf>,
    #[command(flatten)]
    read: ReadArgs,
    /// Run over the deals of GIB's library.dat FILE (gib-library) with their double-dummy
    /// tables, as dealer's -l: tricks() looks them up, nothing is solved.
    #[arg(short = 'l', value_name = "FILE", conflicts_with_all = ["set", "all", "deals", "rp_library"])]
    gib_library: Option<PathBuf>,
    /// Run over the deals of Pavlicek's .zrd library FILE (rp-library) with their
    /// double-dummy tables, as DealerV2's -L: tricks() looks them up, nothing is solved.
    #[arg(short = 'L', value_name = "FILE", conflicts_with_all = ["set", "all", "deals"])]
    rp_library: Option<PathBuf>,
    /// Store the produced deals as a new set NAME (in --db FILE, else dealdex.db).
    #[arg(long, value_name = "NAME")]
    store: Option<String>,
    /// A progress meter on standard error (deals produced of -p, or generated of -g).
    #[arg(short = 'm')]
    meter: bool,
    /// No swapping: every deal is shuffled (the default).
    #[arg(short = '0', overrides_with_all = ["swap2", "swap3"])]
    swap0: bool,
    /// 2-way swapping: after each shuffled deal, the deal with East's and West's hands
    /// exchanged (each counts as generated).
    #[arg(short = '2', overrides_with_all = ["swap0", "swap3"])]
    swap2: bool,
    /// 3-way swapping: after each shuffled deal, the five other placings of its East, South
    /// and West hands (North stays; each counts as generated).
    #[arg(short = '3', overrides_with_all = ["swap0", "swap2"])]
    swap3: bool,
    /// DealerV2's predeal on the command line: North's cards, holdings joined by commas
    /// (SAQ542,HKJ87,D32,CAK), added to the script's predeal (a card predealt elsewhere is an
    /// error).
    #[arg(short = 'N', value_name = "HOLDINGS")]
    north: Option<String>,
    /// East's predealt cards, as -N.
    #[arg(short = 'E', value_name = "HOLDINGS")]
    east: Option<String>,
    /// South's predealt cards, as -N.
    #[arg(short = 'S', value_name = "HOLDINGS")]
    south: Option<String>,
    /// West's predealt cards, as -N.
    #[arg(short = 'W', value_name = "HOLDINGS")]
    west: Option<String>,
    /// A script parameter (DealerV2's -0 … -9): $N in the script (N is 0 to 9) stands for
    /// TEXT, read as script text where it stands. Repeatable; the last one given for an N
    /// counts.
    #[arg(long = "param", value_name = "N=TEXT", value_parser = param)]
    params: Vec<(usize, String)>,
}

pub fn run(a: DealerArgs, json: bool) -> anyhow::Result<()> {
    let predeal = [&a.north, &a.east, &a.south, &a.west].map(Option::as_deref);
    let (script, name) = load_script(a.script.as_deref(), &a.params, predeal)?;
    let run = DealerJob {
        script_name: Some(name),
        swapping: match (a.swap2, a.swap3) {
            (true, _) => Swapping::TwoWay,
            (_, true) => Swapping::ThreeWay,
            _ => Swapping::None,
        },
        ..a.run
    };
    // --db names the database; only -l, -L, --deals, --set and --all say where the deals
    // come from.
    let gib = a.gib_library.clone().map(|p| (Library::Gib, p));
    let library = gib.or(a.rp_library.clone().map(|p| (Library::Rp, p)));
    let file = library
        .as_ref()
        .map(|(_, p)| p)
        .or(a.deals.as_ref())
        .cloned();
    let source = DealerRunJob::source_for(library, a.deals, a.read.read_as()?, a.set, a.all);
    let job = DealerRunJob {
        database: DealerRunJob::database_for(a.db.db, source.as_ref(), a.store.is_some()),
        source,
        store_set: a.store,
        ..DealerRunJob::new(script, run)
    };
    let mut out = stdout();
    let result = meter(a.meter, &job, |on_progress| {
        dealdex::workflow::dealer::run(&job, &mut out, on_progress)
    });
    let mut report = result?;
    if let Some(path) = &file {
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

/// Runs `run` with `-m`'s meter when `shown`: produced deals against -p (or the script's
/// produce), else generated deals against -g (or the script's generate).
fn meter<T>(
    shown: bool,
    job: &DealerRunJob,
    run: impl FnOnce(&mut dyn FnMut(DealerProgress)) -> T,
) -> T {
    let produce = job.run.produce.unwrap_or(job.script.produce_limit());
    let generate = job.run.generate.unwrap_or(job.script.generate_limit());
    let by_produced = produce != u64::MAX;
    let bar = match shown {
        true => drawn_bar("{bar:40} {percent:>3}% {human_pos}/{human_len} {msg}"),
        false => indicatif::ProgressBar::hidden(),
    };
    bar.set_length(if by_produced { produce } else { generate });
    let result = run(&mut |p: DealerProgress| match by_produced {
        true => {
            bar.set_position(p.produced);
            bar.set_message(format!("produced ({} generated)", p.generated));
        }
        false => {
            bar.set_position(p.generated);
            bar.set_message(format!("generated ({} produced)", p.produced));
        }
    });
    bar.finish_and_clear();
    result
}

/// `--param`'s value: `N=TEXT`, N a digit 0 to 9 (clap exits 2 otherwise).
fn param(s: &str) -> Result<(usize, String), String> {
    let (n, text) = s.split_once('=').ok_or(format!("{s:?} is not N=TEXT"))?;
    match n.as_bytes() {
        [d] if d.is_ascii_digit() => Ok((usize::from(d - b'0'), text.to_owned())),
        _ => Err(format!("{n:?} is not a parameter number (0 to 9)")),
    }
}
