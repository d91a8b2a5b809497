//! `dealdex generate`: arguments into a [`GenerateJob`], the library's workflow
//! ([`dealdex::workflow::generate`]), and its report as text on stderr or JSON on stdout.

use clap::{ArgGroup, Args};
use dealdex::Store;
use dealdex::workflow::generate::{self as wf, GenerateOptions, Progress};

use super::{NoDbArgs, Text, progress_bar, render, stdout};

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("what").required(true).args(["boards", "count"])))]
#[command(after_help = "Examples:
  dealdex generate --boards 1-32 --out boards.pbn
  dealdex generate --count 10000000 --to hex --out deals.hex
  dealdex generate --count 1000000 --start 1000001 --seed <64 hex> --db big.db")]
pub struct GenerateArgs {
    #[command(flatten)]
    options: GenerateOptions,
    #[command(flatten)]
    output: dealdex::workflow::output::OutputFiles,
    #[command(flatten)]
    write: dealdex::workflow::output::Writing,
    #[command(flatten)]
    db: NoDbArgs,
    /// No progress bar and no summary.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(a: GenerateArgs, json: bool) -> anyhow::Result<()> {
    let job = (a.options).job(&a.output, a.write.clone(), &a.db.store_choice())?;
    let bulk = a.options.boards.is_none();
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
