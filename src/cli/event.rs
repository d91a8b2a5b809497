//! `dealdex event`: verifiable championship events in SquareDeal's files (SQUAREDEAL.md
//! §2–§4): describe, publish (commit to the keys), record the delayed value, make the deals,
//! verify them.

use clap::{Args, Subcommand};
use dealdex::workflow::event::{
    self as flow, MakeOptions, NewJob, PublishJob, SetValueJob, VerifyJob,
};
use dealdex::workflow::pipeline::ReadOptions;

use super::{NoDbArgs, Text, print, render, stdout};

#[derive(Args, Debug)]
#[command(after_help = "The life of an event (SQUAREDEAL.md):
  dealdex event new WBG.sqd --name 'World Bridge Games' --delayed-info 'DJI close of 19 Oct' \\
      --phase '17:1-16,17-32:OPRR##:Open Round Robin #/17' --phase '3:20:R16#:Round of 16 #/3'
  dealdex event publish WBG.sqd            # keys to WBG.sqk (secret), KH into WBG.sqd: publish it
  dealdex event set-value WBG.sqd 43275.91 # once the delayed information is known
  dealdex event make WBG.sqd --keys WBG.sqk --out boards/
  dealdex event verify WBG.sqd --keys WBG.sqk --published WBG-as-published.sqd boards/")]
pub struct EventArgs {
    #[command(subcommand)]
    command: EventCommand,
}

#[derive(Subcommand, Debug)]
enum EventCommand {
    /// Describe a new event: name, delayed information, phases (writes NAME.sqd).
    New(NewJob),
    /// Draw every session's key (NAME.sqk, secret) and commit to them (KH in NAME.sqd).
    Publish(PublishJob),
    /// Record the delayed-information value (DV) once it is public.
    SetValue(SetValueJob),
    /// Make the deals of the event's sessions: files <prefix>.pbn (…) and sets in the db.
    Make(MakeArgs),
    /// Verify an event: KH, every key, the published copy, and every hand record given.
    Verify(VerifyArgs),
}

#[derive(Args, Debug)]
#[command(
    after_help = "Each session is stored in the database as the set <event file stem>/<session>.

Examples:
  dealdex event make WBG.sqd --keys WBG.sqk --out boards/
  dealdex event make WBG.sqd --keys WBG.sqk --phase 1 --session 3-5 --out boards/ --to pbn --to dup
  dealdex event make WC.sqd --phase 9 --boards 15 --out boards/      # a phase with ? boards
  dealdex event make WBG.sqd --phase 4 --session 2 --reserve --out boards/   # R162reserve"
)]
struct MakeArgs {
    #[command(flatten)]
    options: MakeOptions,
    #[command(flatten)]
    db: NoDbArgs,
    /// No report.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "SQUAREDEAL.md §4. Files are matched to sessions by name: <prefix>.<ext> is a
session, <prefix>reserve.<ext> its reserve set, and SquareDeal's joined files (SWISS01-03.pbn,
R161-2.pbn) the sessions they join, one after another. Any format dealdex reads will do; a
directory stands for the deal files in it. Boards are compared in file order (board numbers
only label them); a file's format is told by its extension, else its content (or
--from). A ? phase takes each session's board count from its file.
Exit code 0: everything verified; 1: something does not match; 2: unreadable input.

Examples:
  dealdex event verify WBG2024.sqd --keys WBG2024.sqk boards/
  dealdex event verify WBG2024.sqd --keys WBG2024.sqk --published WBG2024-published.sqd OPRR01.pbn"
)]
struct VerifyArgs {
    #[command(flatten)]
    job: VerifyJob,
    #[command(flatten)]
    read: ReadOptions,
}

/// Runs `dealdex event …`: the workflows of [`dealdex::workflow::event`], their reports
/// rendered as text or, with `--json`, as one JSON object on stdout.
pub fn run(a: EventArgs, json: bool) -> anyhow::Result<()> {
    match a.command {
        EventCommand::New(job) => print(&flow::new_event(&job)?, json, Text::Summary),
        EventCommand::Publish(job) => print(&flow::publish(&job)?, json, Text::Summary),
        EventCommand::SetValue(job) => {
            let r = flow::set_value(&job)?;
            // A value recorded is the answer; one that was already there is a note.
            let text = if r.recorded {
                Text::Answer
            } else {
                Text::Summary
            };
            print(&r, json, text)
        }
        EventCommand::Make(a) => {
            let report = flow::make(&a.options.job(a.db.path())?)?;
            render(&mut stdout(), &report, json, a.quiet, Text::Summary)
        }
        EventCommand::Verify(a) => {
            let job = VerifyJob {
                read: a.read.read_as()?,
                ..a.job
            };
            let r = flow::verify(&job)?;
            print(&r, json, Text::Answer)?;
            let problems = r.problems.join("; ");
            anyhow::ensure!(r.verified(), "verification failed: {problems}");
            Ok(())
        }
    }
}
