//! `dealdex convert`, `dealdex import` and `dealdex export`: deal files through the registry.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use dealdex::formats::{self, Board, DealFormat, WriteOptions};
use dealdex::{DealIndex, NewSet, Store};

use super::outputs::{self, Output};
use super::{DbArgs, bad};

#[derive(Args, Debug)]
#[command(
    after_help = "Formats (by extension or --from/--to): pbn, dup, dlm, bri, dge, lin, csv,
ber, borel (.bhg), kops (.rzd), cds, hrf, hex, json.

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
    /// Hide the cards on dealing machines' displays (DUP, DLM).
    #[arg(long)]
    blind: bool,
    /// Cut sets over a format's board limit into files of 96 boards renumbered from 1.
    #[arg(long)]
    split: bool,
    /// Event name for the formats that carry one.
    #[arg(long)]
    event: Option<String>,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Each file is read whole and stored in one transaction: a file with any bad
record is rejected whole and changes nothing.

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
    /// Hide the cards on dealing machines' displays (DUP, DLM).
    #[arg(long)]
    blind: bool,
    /// Cut sets over a format's board limit into files of 96 boards renumbered from 1.
    #[arg(long)]
    split: bool,
    /// Event name (default: the set's name).
    #[arg(long)]
    event: Option<String>,
    #[command(flatten)]
    db: DbArgs,
}

/// Reads a deal file whole through its format; errors name the file.
pub(super) fn read_file(
    path: &Path,
    format: &'static dyn DealFormat,
    first_board: u64,
) -> anyhow::Result<Vec<Board>> {
    let data = std::fs::read(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let mut boards = format
        .read(&data)
        .map_err(|e| bad(format!("{}: {e}", path.display())))?;
    if boards.is_empty() {
        return Err(bad(format!(
            "{}: no boards found (read as {})",
            path.display(),
            format.info().name
        )));
    }
    formats::number_boards(&mut boards, first_board);
    Ok(boards)
}

pub fn convert(a: ConvertArgs) -> anyhow::Result<()> {
    let from = outputs::format_for(&a.input, a.from.as_deref())?;
    let out = outputs::plan(std::slice::from_ref(&a.output), a.to.as_deref(), "pbn")?;
    let boards = read_file(&a.input, from, a.first_board)?;
    let opts = WriteOptions {
        event: a.event.clone().unwrap_or_default(),
        blind: a.blind,
        first_board: boards.first().and_then(|b| b.number).unwrap_or(1),
        last_board: boards.last().and_then(|b| b.number).unwrap_or(1),
    };
    let files = outputs::render(&out, &boards, &opts, a.split)?;
    outputs::write_files(&files)
}

pub fn import(a: ImportArgs) -> anyhow::Result<()> {
    // Resolve every file's format before touching the database.
    let plan: Vec<(&PathBuf, &'static dyn DealFormat)> = a
        .files
        .iter()
        .map(|p| Ok((p, outputs::format_for(p, a.format.as_deref())?)))
        .collect::<anyhow::Result<_>>()?;
    let mut store = Store::open(&a.db.db)?;
    let (mut read, mut new, mut dup, mut rejected) = (0u64, 0u64, 0u64, 0usize);
    for (k, (path, format)) in plan.iter().enumerate() {
        let boards = match read_file(path, *format, a.first_board) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{}: rejected: {e:#}", path.display());
                rejected += 1;
                continue;
            }
        };
        let keyed: Vec<(u64, DealIndex)> = boards
            .iter()
            .map(|b| (b.number.expect("numbered"), DealIndex::from_deal(&b.deal)))
            .collect();
        let added = match &a.set {
            Some(name) => {
                let name = if plan.len() > 1 {
                    format!("{name}-{}", k + 1)
                } else {
                    name.clone()
                };
                let set = NewSet {
                    name,
                    first_board: keyed.iter().map(|b| b.0).min().unwrap_or(1),
                    last_board: keyed.iter().map(|b| b.0).max().unwrap_or(1),
                    scheme: "pavlicek".into(),
                    generator: format!("import {}", path.display()),
                    seed_sha256: None,
                };
                match store.store_set(&set, &keyed) {
                    Ok(o) => o.new_deals,
                    Err(e @ dealdex::StoreError::SetExists { .. })
                    | Err(e @ dealdex::StoreError::DuplicateBoard { .. }) => {
                        eprintln!("{}: rejected: {e}", path.display());
                        rejected += 1;
                        continue;
                    }
                    Err(e) => return Err(e).context(path.display().to_string()),
                }
            }
            None => {
                let keys: Vec<DealIndex> = keyed.iter().map(|b| b.1).collect();
                store
                    .insert_deals(&keys)
                    .context(path.display().to_string())?
            }
        };
        read += boards.len() as u64;
        new += added;
        dup += boards.len() as u64 - added;
        eprintln!(
            "{}: {} boards read ({}), {added} new, {} duplicates",
            path.display(),
            boards.len(),
            format.info().name,
            boards.len() as u64 - added
        );
    }
    eprintln!(
        "imported {} of {} files into {}: {read} boards read, {new} new, {dup} duplicates, {rejected} files rejected",
        plan.len() - rejected,
        plan.len(),
        a.db.db.display()
    );
    if rejected > 0 {
        return Err(bad(format!("{rejected} of {} files rejected", plan.len())));
    }
    Ok(())
}

pub fn export(a: ExportArgs) -> anyhow::Result<()> {
    let outs: Vec<Output> = outputs::plan(&a.out, a.format.as_deref(), "pbn")?;
    if !a.db.db.exists() {
        return Err(bad(format!("no database at {}", a.db.db.display())));
    }
    let store = Store::open(&a.db.db)?;
    let info = store
        .set(&a.set)?
        .ok_or_else(|| bad(format!("no set named {:?} in {}", a.set, a.db.db.display())))?;
    let rows = store.set_boards(&a.set)?;
    let boards = rows
        .iter()
        .map(|(n, key)| {
            Ok(Board::new(
                *n,
                key.to_deal()
                    .with_context(|| format!("set {:?} board {n}: stored key {key}", a.set))?,
            ))
        })
        .collect::<anyhow::Result<Vec<Board>>>()?;
    let opts = WriteOptions {
        event: a.event.clone().unwrap_or(info.name.clone()),
        blind: a.blind,
        first_board: info.first_board,
        last_board: info.last_board,
    };
    let files = outputs::render(&outs, &boards, &opts, a.split)?;
    outputs::write_files(&files)
}
