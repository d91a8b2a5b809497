//! `dealdex solve`: double-dummy tables and par for deals, files, stored sets or the whole
//! database, through the library's [`dealdex::solve`] workflow.

use clap::Args;
use dealdex::solve::{self, DEFAULT_SOLVE_BATCH, SolveJob, SolveOutput, SolveRequest};

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
    request: SolveRequest,
    #[command(flatten)]
    db: NoDbArgs,
    /// Output: text (table and par per deal), json (JSON lines with par), or any deal-file
    /// format, each board with its table where the format holds one (pbn: the double-dummy
    /// tags [DoubleDummyTricks], [OptimumScore], [ParContract] and [OptimumResultTable]; a
    /// PBN input keeps its other tags).
    #[arg(
        long = "to",
        short = 'f',
        visible_alias = "format",
        value_name = "FORMAT"
    )]
    format: Option<String>,
    #[command(flatten)]
    read: super::file_args::ReadArgs,
    /// Re-solve the stored tables that dealdex did not solve (read from files, or of unknown
    /// source) and report every one that differs (exit 1 if any): of the set given with
    /// --set, else of the whole database.
    #[arg(long, conflicts_with_all = ["inputs", "no_db", "format", "from", "first_board", "dealer", "vul"])]
    verify: bool,
    #[command(flatten)]
    check: solve::VerifyJob,
    /// Deals per batch: solved on all cores, then committed in one transaction.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SOLVE_BATCH as u64,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    batch: u64,
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
    let request = SolveRequest {
        read: a.read.read_as()?,
        ..a.request.clone()
    };
    // A file's errors name it (the pipeline's read errors).
    let (source, mut store) = request.open(a.db.path().as_deref())?;
    let job = SolveJob {
        source,
        batch: a.batch as usize,
    };
    // `--all` prints a summary only, unless --to is given; with --json the tables are JSON
    // lines too (unless --to says otherwise).
    let output = match (a.format.as_deref(), json) {
        (Some(name), _) => Some(SolveOutput::named(name)?),
        (None, _) if a.request.all => None,
        (None, true) => Some(SolveOutput::JsonLines),
        (None, false) => Some(SolveOutput::Text),
    };
    let mut out = stdout();
    let report = counted(a.quiet, SOLVED, |on_progress| {
        solve::write(&job, store.as_mut(), output, &mut out, on_progress)
    })?;
    render(&mut out, &report, json, a.quiet, Text::Summary)
}

/// `solve --verify`: the job from the arguments, each mismatch a line (or the report as one
/// JSON line), the summary, and a failure (exit 1) when a table differs.
fn verify(a: SolveArgs, json: bool) -> anyhow::Result<()> {
    let mut store = solve::open_verify_store(&a.db.db.path(), a.request.set.as_deref())?;
    let job = solve::VerifyJob {
        set: a.request.set.clone(),
        batch: a.batch as usize,
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
