//! `dealdex solve`: double-dummy tables and par for deals, files, stored sets or the whole
//! database, through the library's [`dealdex::solve`] workflow.

use clap::Args;
use dealdex::solve::{self, SolveJob, SolveOptions};

use super::{NoDbArgs, Text, counted, print, render, stdout};

#[derive(Args, Debug)]
#[command(
    after_help = "Solved tables are stored (table `dd`, one row a deal) and never solved
again: a killed run loses at most one batch, and running it again finishes the rest.

Examples:
  dealdex solve 'N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432'
  dealdex solve 4E68D9D7355102BCD2AC7E23E2-1
  dealdex solve boards.pbn --to json
  dealdex solve - --from hex --no-db --to json < keys.hex
  dealdex solve --set club
  dealdex solve --all --db big.db
  dealdex solve --verify --all --db big.db          # re-solve the tables read from files
  dealdex solve --verify --set club --sample 50 --json

--verify checks the tables files gave (they carry no checksum) against fresh solves; it
changes nothing stored unless --replace is given."
)]
pub struct SolveArgs {
    #[command(flatten)]
    options: SolveOptions,
    #[command(flatten)]
    db: NoDbArgs,
    /// Re-solve the stored tables that dealdex did not solve (read from files, or of unknown
    /// source) and report every one that differs (exit 1 if any): of the set given with
    /// --set, else of the whole database.
    #[arg(long, conflicts_with_all = ["inputs", "no_db", "to", "from", "first_board", "dealer", "vul"])]
    verify: bool,
    #[command(flatten)]
    check: solve::VerifyJob,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
}

/// The progress bars' templates.
const SOLVED: &str = "{bar:40} {human_pos}/{human_len} deals solved {per_sec} eta {eta}";
const VERIFIED: &str = "{bar:40} {human_pos}/{human_len} tables verified {per_sec} eta {eta}";

pub fn run(a: SolveArgs, json: bool) -> anyhow::Result<()> {
    if a.verify {
        return verify(a, json);
    }
    // A file's errors name it (the pipeline's read errors).
    let (source, mut store) = a.options.request()?.open(a.db.path().as_deref())?;
    let batch = a.options.batch as usize;
    let job = SolveJob { source, batch };
    // `--all` prints a summary only, unless --to is given; with --json the tables are JSON
    // lines too (unless --to says otherwise).
    let output = a.options.output(json)?;
    let mut out = stdout();
    let report = counted(a.quiet, SOLVED, |on_progress| {
        solve::write(&job, store.as_mut(), output, &mut out, on_progress)
    })?;
    render(&mut out, &report, json, a.quiet, Text::Summary)
}

/// `solve --verify`: the job from the arguments, each mismatch a line (or the report as one
/// JSON line), the summary, and a failure (exit 1) when a table differs.
fn verify(a: SolveArgs, json: bool) -> anyhow::Result<()> {
    let mut store = solve::open_verify_store(&a.db.db.path(), a.options.request.set.as_deref())?;
    let job = solve::VerifyJob {
        set: a.options.request.set.clone(),
        batch: a.options.batch as usize,
        ..a.check
    };
    let report = counted(a.quiet, VERIFIED, |on_progress| {
        solve::verify(&job, &mut store, on_progress)
    })?;
    print(&report, json, Text::Answer)?;
    anyhow::ensure!(
        report.verified(),
        "verification failed: {} of {} double-dummy tables checked differ from a fresh solve",
        report.mismatches.len(),
        report.checked
    );
    Ok(())
}
