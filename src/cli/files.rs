//! `dealdex convert`, `dealdex import` and `dealdex export`: deal files through the registry.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use dealdex::Store;
use dealdex::export::{ExportError, ExportJob};
use dealdex::formats::SkippedBoard;
use dealdex::import::{FileOutcome, FileResult, ImportJob};
use dealdex::workflow::convert::{ConvertError, ConvertJob};

use super::outputs::{self, Output};
use super::{DbArgs, bad, store_failed};

#[derive(Args, Debug)]
#[command(
    after_help = "Formats (by extension or --from/--to): pbn, dup, dlm, bri, dge, lin, csv,
ber, borel (.bhg), kops (.rzd), cds, hrf, hex, json, oneline (dealer's printoneline).

Examples:
  dealdex convert boards.pbn boards.dup
  dealdex convert hands.lin hands.pbn
  dealdex convert big.pbn big.dup --split"
)]
pub struct ConvertArgs {
    /// Input file.
    input: PathBuf,
    /// Output file (`-` for stdout).
    output: PathBuf,
    /// Input format (default: from the input's extension).
    #[arg(long, value_name = "FORMAT")]
    from: Option<String>,
    /// Output format (default: from the output's extension).
    #[arg(long, value_name = "FORMAT")]
    to: Option<String>,
    /// Number of the first board when the input carries no board numbers.
    #[arg(long, value_name = "N", default_value_t = 1)]
    first_board: u64,
    #[command(flatten)]
    write: outputs::WriteArgs,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Each file is read whole and stored in one transaction: a file with any bad
record is rejected whole and changes nothing. Boards without a complete deal (an empty,
placeholder or partial deal, as auction-only boards of teaching files) are skipped and
named in the report; the other boards are stored. Plays (PBN [Play], LIN pc|) are replayed on
their deal and stored with it: a play that revokes or plays a card its seat does not hold
rejects the file (exit 2, naming the board and trick). `dealdex lookup` shows them.

Examples:
  dealdex import hands.pbn session2.dup --set club-2026-11
  dealdex import archive/*.lin"
)]
pub struct ImportArgs {
    /// Files to import.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Store each file's boards as this set (with several files: NAME-1, NAME-2, …).
    #[arg(long, value_name = "NAME")]
    set: Option<String>,
    /// Input format (default: from each file's extension).
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// Number of the first board when a file carries no board numbers.
    #[arg(long, value_name = "N", default_value_t = 1)]
    first_board: u64,
    /// Without --set: commit whole files, in the order given, once they hold N boards
    /// together; a kill or crash loses at most the files of the batch in flight, and
    /// rerunning the command stores the rest. (With --set each file is its own transaction.)
    #[arg(
        long,
        value_name = "N",
        default_value_t = IMPORT_BATCH_BOARDS,
        conflicts_with = "set",
        value_parser = clap::value_parser!(u64).range(MIN_IMPORT_BATCH..=MAX_IMPORT_BATCH)
    )]
    batch: u64,
    #[command(flatten)]
    db: DbArgs,
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex export --set boards --out boards.dup
  dealdex export --set boards --out boards.dlm --blind")]
pub struct ExportArgs {
    /// The set to export.
    #[arg(long, value_name = "NAME")]
    set: String,
    /// Output file(s), repeatable (`-` for stdout); the extension picks the format.
    #[arg(long, short, value_name = "FILE", required = true)]
    out: Vec<PathBuf>,
    /// Output format for a single --out.
    #[arg(long, short, value_name = "FORMAT")]
    format: Option<String>,
    #[command(flatten)]
    write: outputs::WriteArgs,
    #[command(flatten)]
    db: DbArgs,
}

pub fn convert(a: ConvertArgs, json: bool) -> anyhow::Result<()> {
    let from = outputs::format_for(&a.input, a.from.as_deref())?;
    let out = outputs::plan(std::slice::from_ref(&a.output), a.to.as_deref(), "pbn")?;
    outputs::check_paths(std::slice::from_ref(&a.output))?;
    let job = ConvertJob {
        input: a.input.clone(),
        from,
        outputs: out,
        first_board: a.first_board,
        event: a.write.event.clone(),
        blind: a.write.blind,
        split: a.write.split,
    };
    let mut stdout = super::open_output(None)?;
    let report = dealdex::workflow::convert::run(&job, &mut stdout).map_err(|e| match e {
        // The writer's error as such: a closed pipe ends quietly.
        ConvertError::Write(w) => anyhow::Error::from(w),
        e => e.into(),
    })?;
    if json {
        writeln!(stdout, "{}", serde_json::to_string(&report)?)?;
        stdout.flush()?;
    } else {
        file_notes(&a.input, &report.skipped, &report.warnings);
    }
    Ok(())
}

/// The skipped boards and reader warnings of a deal file, on stderr.
pub(super) fn file_notes(path: &Path, skipped: &[SkippedBoard], warnings: &[String]) {
    if !skipped.is_empty() {
        eprintln!(
            "dealdex: {}: {}",
            path.display(),
            dealdex::import::skipped_summary(skipped)
        );
    }
    for w in warnings {
        eprintln!("dealdex: {}: warning: {w}", path.display());
    }
}

/// Boards gathered into one transaction when importing deals only (the default `--batch`).
const IMPORT_BATCH_BOARDS: u64 = dealdex::import::DEFAULT_IMPORT_BATCH;

/// The smallest import `--batch` (a file is never split, so a batch may hold more).
const MIN_IMPORT_BATCH: u64 = 1;

/// The largest import `--batch`: a batch's keys are held in memory and sorted together.
const MAX_IMPORT_BATCH: u64 = 1 << 24;

/// One file's line of the import report on stderr.
fn file_line(o: &FileOutcome) -> String {
    let name = o.path.display();
    match &o.result {
        FileResult::Rejected { reason } => format!("{name}: rejected: {reason}"),
        FileResult::Imported {
            boards,
            skipped,
            warnings,
            new_deals,
            plays,
            new_plays,
            dd_tables,
            new_dd_tables,
            ..
        } => {
            let plays = match plays {
                0 => String::new(),
                1 => format!("; 1 play ({new_plays} new)"),
                k => format!("; {k} plays ({new_plays} new)"),
            };
            // The file's tables are stored as given (trusted like its deals), except for
            // deals solved here before, which were checked to agree.
            let dd = match dd_tables {
                0 => String::new(),
                k => format!(
                    "; {k} double-dummy table{} ({new_dd_tables} new, stored as the file gives them; {} matched tables already stored)",
                    if *k == 1 { "" } else { "s" },
                    k - new_dd_tables
                ),
            };
            // Boards without a complete deal: "3 boards read, 2 stored, 1 skipped (board 5:
            // no complete deal)".
            let read = match skipped.len() {
                0 => format!("{boards} boards read ({})", o.format),
                k => format!(
                    "{} boards read ({}), {boards} stored, {k} skipped ({})",
                    *boards + k as u64,
                    o.format,
                    dealdex::import::skipped_names(skipped)
                ),
            };
            let warnings: String = warnings.iter().map(|w| format!("; warning: {w}")).collect();
            format!(
                "{name}: {read}, {new_deals} new, {} duplicates{plays}{dd}{warnings}",
                boards - new_deals
            )
        }
    }
}

pub fn import(a: ImportArgs, json: bool) -> anyhow::Result<()> {
    // Resolve every file's format before touching the database.
    let files = a
        .files
        .iter()
        .map(|p| Ok((p.clone(), outputs::format_for(p, a.format.as_deref())?)))
        .collect::<anyhow::Result<_>>()?;
    let job = ImportJob {
        files,
        set: a.set.clone(),
        first_board: a.first_board,
        batch: a.batch,
    };
    let db = &a.db.db;
    let mut store = Store::open(db).map_err(|e| store_failed(e, db))?;
    let report = dealdex::import::import(&job, &mut store, &mut |o| {
        if !json {
            eprintln!("{}", file_line(o));
        }
    })
    .map_err(|e| match e.file {
        Some(path) => store_failed(*e.error, db).context(path.display().to_string()),
        None => store_failed(*e.error, db),
    })?;
    let n = job.files.len();
    if json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        let read = match report.boards_skipped {
            0 => format!("{} boards read", report.boards_read),
            k => format!(
                "{} boards read, {} stored, {k} skipped (no complete deal)",
                report.boards_read + k,
                report.boards_read
            ),
        };
        eprintln!(
            "imported {} of {n} files into {}: {read}, {} new, {} duplicates, {} files rejected",
            n - report.rejected,
            db.display(),
            report.new_deals,
            report.duplicates,
            report.rejected
        );
    }
    if report.rejected > 0 {
        return Err(bad(format!("{} of {n} files rejected", report.rejected)));
    }
    Ok(())
}

pub fn export(a: ExportArgs, json: bool) -> anyhow::Result<()> {
    let outs: Vec<Output> = outputs::plan(&a.out, a.format.as_deref(), "pbn")?;
    outputs::check_paths(&a.out)?;
    if !a.db.db.exists() {
        return Err(bad(format!("no database at {}", a.db.db.display())));
    }
    let store = Store::open(&a.db.db)?;
    let job = ExportJob {
        set: a.set.clone(),
        outputs: outs,
        event: a.write.event.clone(),
        blind: a.write.blind,
        split: a.write.split,
    };
    let mut stdout = super::open_output(None)?;
    let report = dealdex::export::export(&job, &store, &mut stdout).map_err(|e| match e {
        ExportError::NoSet { set } => bad(format!("no set named {set:?} in {}", a.db.db.display())),
        ExportError::Render(e) => bad(e.to_string()),
        e => e.into(),
    })?;
    if json {
        writeln!(stdout, "{}", serde_json::to_string(&report)?)?;
        stdout.flush()?;
    }
    Ok(())
}
