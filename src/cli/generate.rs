//! `dealdex generate`: arguments into a [`GenerateJob`], the library's workflow
//! ([`dealdex::workflow::generate`]), and its report as text on stderr or JSON on stdout.

use std::path::PathBuf;

use anyhow::Context;
use clap::{ArgGroup, Args};
use dealdex::Store;
use dealdex::workflow::generate::{
    self as wf, Boards, Filter, GenerateJob, Progress, Source, StoreChoice,
};

use super::{NoDbArgs, Text, file_args, progress_bar, render, stdout};

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("what").required(true).args(["boards", "count"])))]
#[command(after_help = "Examples:
  dealdex generate --boards 1-32 --out boards.pbn
  dealdex generate --count 10000000 --to hex --out deals.hex
  dealdex generate --count 1000000 --start 1000001 --seed <64 hex> --db big.db")]
pub struct GenerateArgs {
    /// Tournament set: board range A-B (or N for 1-N), with dealer and vulnerability by board.
    #[arg(long, value_name = "RANGE")]
    boards: Option<String>,
    /// Bulk generation: this many deals, streamed in bounded memory.
    #[arg(long, value_name = "N")]
    count: Option<u64>,
    /// First deal of a bulk run (1-based); shards of one seed concatenate to the whole.
    #[arg(long, value_name = "K", default_value_t = 1, requires = "count")]
    start: u64,
    /// Bulk runs: commit to the database every N deals, in stream order; a kill or crash
    /// loses at most the batch in flight, and rerunning the command stores the rest
    /// [default: 8388608].
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "boards",
        value_parser = clap::value_parser!(u64).range(wf::MIN_BATCH..=wf::MAX_BATCH)
    )]
    batch: Option<u64>,
    /// 256-bit seed as 64 hex digits; without it a seed comes from the OS and is saved to a
    /// key file (mode 0600).
    #[arg(long, value_name = "HEX", conflicts_with = "seed_file")]
    seed: Option<String>,
    /// Read the seed from a key file written by an earlier run.
    #[arg(long, value_name = "FILE")]
    seed_file: Option<PathBuf>,
    #[command(flatten)]
    bigdeal: Box<BigDealArgs>,
    /// Where to write a new seed (default: next to the output, `<out>.seed`).
    #[arg(long, value_name = "FILE")]
    key_file: Option<PathBuf>,
    #[command(flatten)]
    output: file_args::OutArgs,
    #[command(flatten)]
    write: dealdex::workflow::output::Writing,
    #[command(flatten)]
    db: NoDbArgs,
    /// Name of the tournament set in the database (default: from the output file's name).
    #[arg(long, requires = "boards")]
    name: Option<String>,
    /// Fixed cards, the rest dealt uniformly among the consistent deals, e.g.
    /// 'N:AKQ.A.. S:.KQJT9.2.' (seat-prefixed partial hands in PBN notation).
    #[arg(long, value_name = "HANDS")]
    predeal: Option<String>,
    /// Keep only deals matching this query-language expression (see `dealdex query --help`),
    /// drawing until enough match: e.g. 'hcp(N) in 20..21 and balanced(N)'. A query no deal
    /// can match by its terms' ranges ('hcp(N) > 37') is refused at once (exit 2, naming the
    /// column); a terminal shows deals drawn a second and matches so far.
    #[arg(long = "where", value_name = "EXPR")]
    filter: Option<String>,
    /// With --where (and with or without --predeal): give up after drawing N deals without
    /// finding enough matches (exit 2, saying how many matched; nothing stored or written); 0
    /// for no bound [default: 1000000000, some minutes; about three times longer with
    /// --predeal, whose cards the check of impossible queries does not see].
    #[arg(long, value_name = "N", requires = "filter")]
    max_draws: Option<u64>,
    /// No progress bar and no summary.
    #[arg(long, short)]
    quiet: bool,
}

/// The Big Deal source of `generate` (SQUAREDEAL.md §1), instead of a seed.
#[derive(Args, Debug)]
struct BigDealArgs {
    /// Big Deal instead of a seed: the wizard string (bigdealx -W). With --bigdeal-entropy
    /// the deals are exactly bigdealx's (SQUAREDEAL.md §1), numbered in the Big Deal scheme.
    #[arg(
        long,
        value_name = "W",
        requires = "bigdeal_entropy",
        conflicts_with_all = ["seed", "seed_file", "key_file", "predeal", "filter"]
    )]
    bigdeal_wizard: Option<String>,
    /// Big Deal entropy string (bigdealx -e), repeatable: all are hashed in order as one.
    #[arg(long, value_name = "E", requires = "bigdeal_wizard")]
    bigdeal_entropy: Vec<String>,
}

/// The arguments as a job, checked (with the database to open, if any).
fn job(a: &GenerateArgs) -> anyhow::Result<GenerateJob> {
    let boards = Boards::from_flags(a.boards.as_deref(), a.start, a.count, a.batch)?;
    let choice = match (a.db.no_db, &a.db.db.db) {
        (true, _) => StoreChoice::Never,
        (false, Some(p)) => StoreChoice::File(p.clone()),
        (false, None) => StoreChoice::Default,
    };
    let db = boards.database(&choice, !a.output.out.is_empty());
    let storing = db.is_some();
    let outputs = boards.outputs(&a.output.out, a.output.to.to.as_deref())?;
    let filter = a
        .filter
        .as_deref()
        .map(Filter::parse)
        .transpose()
        .context("--where")?;
    let predeal = a
        .predeal
        .as_deref()
        .map(dealdex::Predeal::parse)
        .transpose()?;
    let job = GenerateJob {
        boards,
        source: Source::from_flags(
            a.bigdeal
                .bigdeal_wizard
                .as_deref()
                .map(|w| (w, &*a.bigdeal.bigdeal_entropy)),
            a.seed.as_deref(),
            a.seed_file.as_deref(),
            a.key_file.clone(),
        )?,
        predeal,
        filter,
        max_draws: wf::max_draws(a.max_draws),
        outputs,
        name: a.name.clone(),
        writing: a.write.clone(),
        db,
    };
    wf::check(&job, storing)?;
    Ok(job)
}

pub fn run(a: GenerateArgs, json: bool) -> anyhow::Result<()> {
    let job = job(&a)?;
    let bulk = a.boards.is_none();
    // A busy database is said plainly.
    let mut store = job
        .db
        .as_deref()
        .map(Store::open)
        .transpose()
        .map_err(dealdex::StoreError::explain_busy)?;
    let talk = !a.quiet && !json;
    let mut bar = indicatif::ProgressBar::hidden();
    let mut drawing = std::time::Instant::now();
    let mut on_progress = |p: Progress<'_>| match p {
        Progress::SeedSaved {
            path,
            default_taken,
        } if bulk && talk => eprintln!("{}", wf::seed_saved_text(path, default_taken)),
        Progress::SeedSaved { .. } => {}
        Progress::Started { total, matching } => {
            // With a filter the rate that matters is the draws': the message carries it.
            let template = match matching {
                true => "{bar:40} {human_pos}/{human_len} matching deals; {msg}",
                false => "{bar:40} {human_pos}/{human_len} deals {per_sec} eta {eta}",
            };
            bar = progress_bar(a.quiet, template);
            bar.set_length(total);
            drawing = std::time::Instant::now();
        }
        Progress::Done(n) => bar.set_position(n),
        // The matches so far are the bar's position (Done).
        Progress::Drawn { drawn, .. } => {
            let rate = drawn as f64 / drawing.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "drew {} ({} deals/s)",
                indicatif::HumanCount(drawn),
                indicatif::HumanCount(rate as u64),
            ));
        }
        Progress::Finished => bar.finish_and_clear(),
    };
    let mut stdout = stdout();
    let report = wf::run(&job, store.as_mut(), &mut stdout, &mut on_progress)
        .map_err(dealdex::Error::explain_busy)?;
    render(&mut stdout, &report, json, a.quiet, Text::Summary)
}
