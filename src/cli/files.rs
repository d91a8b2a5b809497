//! `dealdex convert`, `dealdex import` and `dealdex export`: deal files through the registry.

use std::path::PathBuf;

use clap::Args;
use dealdex::import::{self, ImportJob};
use dealdex::workflow::output::{OutputFiles, ToFormat, Writing, plan_outputs};
use dealdex::workflow::pipeline::ReadOptions;
use dealdex::workflow::{convert::ConvertJob, export::ExportJob};

use super::{StoreArgs, Text, print_notes, render, stdout};

#[derive(Args, Debug)]
#[command(after_help = format!("Formats (by extension or --from/--to): {}.
An input whose extension says nothing (none, .txt) is told by its content.
Files without board numbers are numbered from --first-board (docs/formats.md).

Examples:
  dealdex convert boards.pbn boards.dup
  dealdex convert hands.lin hands.pbn
  dealdex convert big.pbn big.dup --split", dealdex::formats::names_with_extensions()))]
pub struct ConvertArgs {
    /// Input file.
    input: PathBuf,
    /// Output file (`-` for stdout).
    output: PathBuf,
    #[command(flatten)]
    read: ReadOptions,
    #[command(flatten)]
    to: ToFormat,
    #[command(flatten)]
    write: Writing,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Each file is stored in one transaction: a file with a record that
cannot be read is rejected whole and changes nothing. Boards without a complete deal (an empty,
placeholder or partial deal, as auction-only boards of teaching files) are skipped and
named in the report; the other boards are stored. Plays (PBN [Play], LIN pc|) are replayed on
their deal and stored with it, with the table's players, contract, declarer and result.
An inconsistent played record (a card its seat does not hold or plays out of turn, a claim
without a count, a result the play contradicts, a contract or declarer the auction denies)
never rejects its file: what is consistent is kept and the record is reported by kind,
board, room and line. `dealdex lookup` shows the plays; `dealdex judge` judges them.

Examples:
  dealdex import hands.pbn session2.dup --set club-2026-11
  dealdex import archive/*.lin"
)]
pub struct ImportArgs {
    /// Files to import.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    job: ImportJob,
    #[command(flatten)]
    read: ReadOptions,
    #[command(flatten)]
    db: StoreArgs,
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex export --set boards --out boards.dup
  dealdex export --set boards --out boards.dlm --blind")]
pub struct ExportArgs {
    /// The set to export.
    #[arg(long, value_name = "NAME")]
    set: String,
    #[command(flatten)]
    output: OutputFiles,
    #[command(flatten)]
    write: Writing,
    #[command(flatten)]
    db: StoreArgs,
}

/// Prints the output's warnings on stderr (text mode).
fn warn(json: bool, warnings: &[String]) {
    for w in warnings.iter().filter(|_| !json) {
        eprintln!("dealdex: warning: {w}");
    }
}

pub fn convert(a: ConvertArgs, json: bool) -> anyhow::Result<()> {
    let source = a.read.source(Some(a.input.clone()), None)?;
    let job = ConvertJob {
        source,
        outputs: plan_outputs(std::slice::from_ref(&a.output), a.to.to.as_deref(), "pbn")?,
        writing: a.write,
    };
    let mut stdout = stdout();
    let report = dealdex::workflow::convert::run(&job, None, &mut stdout)?;
    if !json {
        print_notes(&a.input.display(), &report.notes);
    }
    warn(json, &report.output_warnings);
    // No summary in text mode: the notes say what matters.
    render(&mut stdout, &report, json, true, Text::Summary)
}

pub fn import(a: ImportArgs, json: bool) -> anyhow::Result<()> {
    // Every file's format is chosen before the database is touched.
    let paths = ImportJob::for_paths(&a.files, a.read.read_as()?);
    let job = ImportJob {
        files: paths.files,
        first_board: paths.first_board,
        ..a.job
    };
    let report = import::import_in(&job, &a.db.path(), a.db.migrate_foreign, &mut |o| {
        if !json {
            eprintln!("{o}");
        }
    })?;
    render(&mut stdout(), &report, json, false, Text::Summary)?;
    Ok(report.check()?)
}

pub fn export(a: ExportArgs, json: bool) -> anyhow::Result<()> {
    let outputs = a.output.plan("pbn")?;
    // Export only reads: it never creates, migrates or writes the database.
    let store = dealdex::ReadOnlyStore::open(&a.db.path())?;
    let job = ExportJob {
        set: a.set,
        outputs,
        writing: a.write,
    };
    let mut stdout = stdout();
    let report = dealdex::workflow::export::export(&job, &store, &mut stdout)?;
    warn(json, &report.written.warnings);
    // No summary in text mode: the files are the answer.
    render(&mut stdout, &report, json, true, Text::Summary)
}
