//! `dealdex convert`, `dealdex import` and `dealdex export`: deal files through the registry.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use dealdex::dd::TrickTable;
use dealdex::formats::{self, Board, DealFormat};
use dealdex::{BoardExtras, DealIndex, ExtrasStored, NewPlay, NewSet, Store};

use super::generate::store_failed;
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
    #[command(flatten)]
    write: outputs::WriteArgs,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Each file is read whole and stored in one transaction: a file with any bad
record is rejected whole and changes nothing. Plays (PBN [Play], LIN pc|) are replayed on
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
    outputs::check_paths(std::slice::from_ref(&a.output))?;
    let boards = read_file(&a.input, from, a.first_board)?;
    let opts = a.write.options(
        "",
        boards.first().and_then(|b| b.number).unwrap_or(1),
        boards.last().and_then(|b| b.number).unwrap_or(1),
    );
    let files = outputs::render(&out, &boards, &opts, a.write.split)?;
    outputs::write_files(&files)
}

/// Bytes of files read (in parallel) before their boards are stored.
const IMPORT_WINDOW_BYTES: u64 = 256 << 20;

/// Boards gathered into one transaction when importing deals only (the default `--batch`).
const IMPORT_BATCH_BOARDS: u64 = 1 << 20;

/// The smallest import `--batch` (a file is never split, so a batch may hold more).
const MIN_IMPORT_BATCH: u64 = 1;

/// The largest import `--batch`: a batch's keys are held in memory and sorted together.
const MAX_IMPORT_BATCH: u64 = 1 << 24;

/// Cuts the files into windows of about [`IMPORT_WINDOW_BYTES`] (at least one file each).
fn windows<T>(plan: &[(T, u64)]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0u64);
    for (i, (_, size)) in plan.iter().enumerate() {
        if i > start && bytes + size > IMPORT_WINDOW_BYTES {
            out.push(start..i);
            start = i;
            bytes = 0;
        }
        bytes += size;
    }
    if start < plan.len() {
        out.push(start..plan.len());
    }
    out
}

/// Counts of an import run.
#[derive(Default)]
struct Tally {
    read: u64,
    new: u64,
    rejected: usize,
}

impl Tally {
    fn file(
        &mut self,
        path: &Path,
        format: &'static dyn DealFormat,
        boards: usize,
        new: u64,
        extras: &BoardExtras,
        stored: ExtrasStored,
    ) {
        self.read += boards as u64;
        self.new += new;
        let plays = match (extras.plays.len(), stored.plays) {
            (0, _) => String::new(),
            (1, n) => format!("; 1 play ({n} new)"),
            (k, n) => format!("; {k} plays ({n} new)"),
        };
        // The file's tables are stored as given (trusted like its deals), except for deals
        // solved here before, which were checked to agree.
        let dd = match (extras.dd.len(), stored.dd) {
            (0, _) => String::new(),
            (k, n) => format!(
                "; {k} double-dummy table{} ({n} new, stored as the file gives them; {} matched tables already stored)",
                if k == 1 { "" } else { "s" },
                k as u64 - n
            ),
        };
        eprintln!(
            "{}: {boards} boards read ({}), {new} new, {} duplicates{plays}{dd}",
            path.display(),
            format.info().name,
            boards as u64 - new
        );
    }

    fn reject(&mut self, path: &Path, e: &anyhow::Error) {
        let msg = format!("{e:#}");
        let name = path.display().to_string();
        match msg.strip_prefix(&format!("{name}: ")) {
            Some(rest) => eprintln!("{name}: rejected: {rest}"),
            None => eprintln!("{name}: rejected: {msg}"),
        }
        self.rejected += 1;
    }
}

/// The double-dummy tables of a file's boards (PBN tags, [`Board::dd`]), one per deal; a deal
/// given two different tables is bad input naming the file and board.
fn board_dd(path: &Path, boards: &[Board]) -> anyhow::Result<Vec<(DealIndex, TrickTable)>> {
    let mut out: Vec<(DealIndex, TrickTable, String)> = Vec::new();
    for (i, b) in boards.iter().enumerate() {
        let Some(table) = b.dd else {
            continue;
        };
        let key = DealIndex::from_deal(&b.deal);
        let board = board_name(b, i);
        match out.iter().find(|(k, _, _)| *k == key) {
            Some((_, t, first)) if *t != table => {
                return Err(bad(format!(
                    "{}: {board}: its double-dummy table differs from the one given at {first} for the same deal",
                    path.display()
                )));
            }
            Some(_) => {}
            None => out.push((key, table, board)),
        }
    }
    Ok(out.into_iter().map(|(k, t, _)| (k, t)).collect())
}

/// `board N`, or `record K` (1-based) for a board without a number.
fn board_name(b: &Board, i: usize) -> String {
    b.number
        .map_or_else(|| format!("record {}", i + 1), |n| format!("board {n}"))
}

/// Refuses a file whose double-dummy tables differ from those stored for the same deals
/// (a deal is solved at most once per database, and a stored table is never replaced).
fn check_stored_dd(
    store: &Store,
    path: &Path,
    boards: &[Board],
    dd: &[(DealIndex, TrickTable)],
) -> anyhow::Result<()> {
    if dd.is_empty() {
        return Ok(());
    }
    let keys: Vec<DealIndex> = dd.iter().map(|(k, _)| *k).collect();
    for ((key, given), stored) in dd.iter().zip(store.dd_tables(&keys)?) {
        if let Some(stored) = stored
            && stored != *given
        {
            let (i, b) = boards
                .iter()
                .enumerate()
                .find(|(_, b)| DealIndex::from_deal(&b.deal) == *key)
                .expect("the table came from one of the boards");
            return Err(bad(format!(
                "{}: {}: its double-dummy table differs from the one stored for deal {key} \
                 (file: {}; stored: {})",
                path.display(),
                board_name(b, i),
                given
                    .to_bytes()
                    .iter()
                    .map(|x| format!("{x:02x}"))
                    .collect::<String>(),
                stored
                    .to_bytes()
                    .iter()
                    .map(|x| format!("{x:02x}"))
                    .collect::<String>(),
            )));
        }
    }
    Ok(())
}

/// The plays of a file's boards, replayed and validated ([`dealdex::board_play`]); a play
/// that does not replay is bad input naming the file and board.
fn board_plays(path: &Path, boards: &[Board]) -> anyhow::Result<Vec<NewPlay>> {
    let mut out = Vec::new();
    for (i, b) in boards.iter().enumerate() {
        let Some(game) = b.game.as_deref() else {
            continue;
        };
        let play = dealdex::board_play(&b.deal, game).map_err(|e| {
            bad(format!(
                "{}: {}: play: {e}",
                path.display(),
                board_name(b, i)
            ))
        })?;
        if let Some(play) = play {
            out.push(NewPlay {
                deal: DealIndex::from_deal(&b.deal),
                board: b.number,
                play,
            });
        }
    }
    Ok(out)
}

pub fn import(a: ImportArgs) -> anyhow::Result<()> {
    use rayon::prelude::*;
    // Resolve every file's format before touching the database.
    let plan: Vec<(&PathBuf, &'static dyn DealFormat)> = a
        .files
        .iter()
        .map(|p| Ok((p, outputs::format_for(p, a.format.as_deref())?)))
        .collect::<anyhow::Result<_>>()?;
    let sized: Vec<(usize, u64)> = plan
        .iter()
        .enumerate()
        .map(|(i, (p, _))| (i, std::fs::metadata(p).map_or(0, |m| m.len())))
        .collect();
    let db = &a.db.db;
    let mut store = Store::open(db).map_err(|e| store_failed(e, db))?;
    let mut t = Tally::default();
    for range in windows(&sized) {
        let offset = range.start;
        let window = &plan[range];
        // Files are parsed in parallel and stored in order; a file that does not parse is
        // rejected whole before anything of it reaches the database.
        let parsed: Vec<anyhow::Result<(Vec<Board>, BoardExtras)>> = window
            .par_iter()
            .map(|(path, format)| {
                let boards = read_file(path, *format, a.first_board)?;
                // SQLite cannot hold a board number above i64::MAX: refuse the file here,
                // not after its deals were stored (the plays and sets are stored later).
                if let Some(board) = boards
                    .iter()
                    .filter_map(|b| b.number)
                    .find(|&n| i64::try_from(n).is_err())
                {
                    return Err(dealdex::StoreError::BoardOutOfRange { board }.into());
                }
                let plays = board_plays(path, &boards)?;
                let dd = board_dd(path, &boards)?;
                Ok((boards, BoardExtras { plays, dd }))
            })
            .collect();
        match &a.set {
            Some(name) => {
                for (j, ((path, format), boards)) in window.iter().zip(parsed).enumerate() {
                    let (boards, extras) = match boards.and_then(|(b, e)| {
                        check_stored_dd(&store, path, &b, &e.dd)?;
                        Ok((b, e))
                    }) {
                        Ok(b) => b,
                        Err(e) => {
                            t.reject(path, &e);
                            continue;
                        }
                    };
                    let k = offset + j;
                    let name = if plan.len() > 1 {
                        format!("{name}-{}", k + 1)
                    } else {
                        name.clone()
                    };
                    let keyed: Vec<(u64, DealIndex)> = boards
                        .iter()
                        .map(|b| (b.number.expect("numbered"), DealIndex::from_deal(&b.deal)))
                        .collect();
                    let set = NewSet {
                        name,
                        first_board: keyed.iter().map(|b| b.0).min().unwrap_or(1),
                        last_board: keyed.iter().map(|b| b.0).max().unwrap_or(1),
                        scheme: "pavlicek".into(),
                        generator: format!("import {}", path.display()),
                        seed_sha256: None,
                    };
                    match store.store_set_with_extras(&set, &keyed, &extras) {
                        Ok((o, stored)) => {
                            t.file(path, *format, boards.len(), o.new_deals, &extras, stored);
                        }
                        Err(e @ dealdex::StoreError::SetExists { .. })
                        | Err(e @ dealdex::StoreError::DuplicateBoard { .. }) => {
                            t.reject(path, &e.into());
                        }
                        Err(e) => {
                            return Err(store_failed(e, db)).context(path.display().to_string());
                        }
                    }
                }
            }
            None => {
                // Deals only: gather whole files into large transactions (each file's keys
                // are one group, so the report stays per file).
                let mut groups: Vec<Vec<DealIndex>> = Vec::new();
                type Member<'p> = (&'p PathBuf, &'static dyn DealFormat, BoardExtras);
                let mut members: Vec<Member> = Vec::new();
                let mut size = 0;
                let flush = |store: &mut Store,
                             groups: &mut Vec<Vec<DealIndex>>,
                             members: &mut Vec<Member>,
                             t: &mut Tally|
                 -> anyhow::Result<()> {
                    // Each file's plays and tables commit with its deals, in the same
                    // transaction.
                    let extras: Vec<BoardExtras> = members
                        .iter_mut()
                        .map(|m| std::mem::take(&mut m.2))
                        .collect();
                    let counts = store
                        .insert_deal_groups_with_extras(groups, &extras)
                        .map_err(|e| store_failed(e, db))?;
                    for (((path, format, _), extras), (g, (n, stored))) in
                        members.iter().zip(&extras).zip(groups.iter().zip(counts))
                    {
                        t.file(path, *format, g.len(), n, extras, stored);
                    }
                    groups.clear();
                    members.clear();
                    Ok(())
                };
                for ((path, format), boards) in window.iter().zip(parsed) {
                    match boards.and_then(|(b, e)| {
                        check_stored_dd(&store, path, &b, &e.dd)?;
                        Ok((b, e))
                    }) {
                        Ok((b, extras)) => {
                            size += b.len();
                            groups.push(b.iter().map(|b| DealIndex::from_deal(&b.deal)).collect());
                            members.push((path, *format, extras));
                            if size as u64 >= a.batch {
                                flush(&mut store, &mut groups, &mut members, &mut t)?;
                                size = 0;
                            }
                        }
                        Err(e) => t.reject(path, &e),
                    }
                }
                if !groups.is_empty() {
                    flush(&mut store, &mut groups, &mut members, &mut t)?;
                }
            }
        }
    }
    eprintln!(
        "imported {} of {} files into {}: {} boards read, {} new, {} duplicates, {} files rejected",
        plan.len() - t.rejected,
        plan.len(),
        db.display(),
        t.read,
        t.new,
        t.read - t.new,
        t.rejected
    );
    if t.rejected > 0 {
        return Err(bad(format!(
            "{} of {} files rejected",
            t.rejected,
            plan.len()
        )));
    }
    Ok(())
}

pub fn export(a: ExportArgs) -> anyhow::Result<()> {
    let outs: Vec<Output> = outputs::plan(&a.out, a.format.as_deref(), "pbn")?;
    outputs::check_paths(&a.out)?;
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
    // Solved deals carry their tables (PBN writes them as double-dummy tags).
    let keys: Vec<DealIndex> = rows.iter().map(|(_, k)| *k).collect();
    let mut boards = boards;
    for (b, table) in boards.iter_mut().zip(store.dd_tables(&keys)?) {
        b.dd = table;
    }
    let opts = a
        .write
        .options(&info.name, info.first_board, info.last_board);
    let files = outputs::render(&outs, &boards, &opts, a.write.split)?;
    outputs::write_files(&files)
}
