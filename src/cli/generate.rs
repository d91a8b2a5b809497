//! `dealdex generate`: tournament sets (--boards) and bulk generation (--count).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::{ArgGroup, Args};
use dealdex::bigdeal::BigDealStream;
use dealdex::formats::Board;
use dealdex::{Deal, DealIndex, NewSet, Scheme, Seed, Store};
use indicatif::{ProgressBar, ProgressStyle};

use super::outputs::{self, Output};
use super::{bad, open_output, show_progress};

/// Keys inserted per store transaction in bulk mode (the default `--batch`). Random keys
/// dirty most of the B-tree's leaf pages in every transaction, so fewer, larger batches write
/// far less WAL: 4 Mi keys (2 × 54 MB of keys in memory) ran 10 M deals 25 % faster than
/// 1 Mi keys.
const BATCH: u64 = 1 << 22;

/// The smallest `--batch`: below it the per-transaction cost dominates (each commit rewrites
/// every B-tree page its random keys touch).
const MIN_BATCH: u64 = 1000;

/// The largest `--batch`: a batch is held in memory twice (keys and their sorted copy).
const MAX_BATCH: u64 = 1 << 24;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("what").required(true).args(["boards", "count"])))]
#[command(after_help = "Examples:
  dealdex generate --boards 1-32 --out boards.pbn
  dealdex generate --count 10000000 --format hex --out deals.hex
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
    /// [default: 4194304].
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "boards",
        value_parser = clap::value_parser!(u64).range(MIN_BATCH..=MAX_BATCH)
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
    /// Output file (`-` for stdout), repeatable: each file's extension picks its format
    /// (pbn, dup, dlm, bri, dge, lin, csv, ber, bhg, rzd, cds, hrf, hex, json).
    #[arg(long, short, value_name = "FILE")]
    out: Vec<PathBuf>,
    /// Output format for a single --out or stdout (see `dealdex convert --help` for the list).
    #[arg(long, short, value_name = "FORMAT")]
    format: Option<String>,
    #[command(flatten)]
    write: outputs::WriteArgs,
    /// SQLite database to store the deals in.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Do not store anything in a database.
    #[arg(long, conflicts_with = "db")]
    no_db: bool,
    /// Name of the tournament set in the database (default: from the output file's name).
    #[arg(long, requires = "boards")]
    name: Option<String>,
    /// Fixed cards, the rest dealt uniformly among the consistent deals, e.g.
    /// 'N:AKQ.A.. S:.KQJT9.2.' (seat-prefixed partial hands in PBN notation).
    #[arg(long, value_name = "HANDS")]
    predeal: Option<String>,
    /// Keep only deals matching this query-language expression (see `dealdex query --help`),
    /// drawing until enough match: e.g. 'hcp(N) in 20..21 and balanced(N)'.
    #[arg(long = "where", value_name = "EXPR")]
    filter: Option<String>,
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

/// `, solved K double dummy` for a query with `dd`/`par` terms (the deals its cheaper
/// conditions left undecided), else nothing.
fn solved_note(solved: u64, uses_dd: bool) -> String {
    match uses_dd {
        true => format!(", solved {solved} double dummy"),
        false => String::new(),
    }
}

/// Parses `--predeal`, with the column in the error.
fn parse_predeal(a: &GenerateArgs) -> anyhow::Result<Option<dealdex::Predeal>> {
    a.predeal
        .as_deref()
        .map(|t| dealdex::Predeal::parse(t).map_err(|e| bad(e.to_string())))
        .transpose()
}

/// Parses `--where`, with the query's column in the error.
fn parse_filter(a: &GenerateArgs) -> anyhow::Result<Option<dealdex::query::Query>> {
    a.filter
        .as_deref()
        .map(|text| dealdex::query::Query::parse(text).map_err(|e| bad(format!("--where: {e}"))))
        .transpose()
}

/// Where the seed came from.
struct SeedChoice {
    seed: Seed,
    fresh: bool,
}

/// The Big Deal stream of `--bigdeal-wizard` and `--bigdeal-entropy`, when given.
fn bigdeal_stream(a: &GenerateArgs) -> Option<BigDealStream> {
    let w = a.bigdeal.bigdeal_wizard.as_ref()?;
    let e: Vec<&[u8]> = a
        .bigdeal
        .bigdeal_entropy
        .iter()
        .map(|e| e.as_bytes())
        .collect();
    Some(BigDealStream::new(w.as_bytes(), &e))
}

/// What a set made by `generate` records about its source in the store: scheme, generator and
/// the SHA-256 of the seed (of bigdealx's two seeds for a Big Deal run).
fn set_source(seed: &SeedChoice, bigdeal: Option<&BigDealStream>) -> (Scheme, String, [u8; 32]) {
    let version = concat!("dealdex ", env!("CARGO_PKG_VERSION"));
    match bigdeal {
        Some(b) => (
            Scheme::BigDeal,
            format!("{version} (bigdealx stream)"),
            b.sha256(),
        ),
        None => (Scheme::Pavlicek, version.into(), seed.seed.sha256()),
    }
}

/// Runs a bulk generation's `make` and `consume` over boards `first ..= first + count − 1`:
/// the seeded parallel pipeline, or the Big Deal stream chunk by chunk (hashing and
/// unranking in parallel inside each chunk).
fn run_chunks<T, M, C>(
    seed: &Seed,
    predeal: Option<&dealdex::Predeal>,
    bigdeal: Option<BigDealStream>,
    (first, count): (u64, u64),
    make: M,
    mut consume: C,
) -> anyhow::Result<()>
where
    T: Send,
    M: Fn(u64, &[Deal]) -> T + Sync,
    C: FnMut(T) -> anyhow::Result<()>,
{
    let Some(mut stream) = bigdeal else {
        return dealdex::generate_chunks_with(seed, predeal, first, count, make, consume);
    };
    stream.skip_boards(first - 1);
    let mut done = 0u64;
    while done < count {
        let len = (count - done).min(dealdex::CHUNK as u64) as usize;
        let deals = stream.take_deals(len);
        if deals.len() < len {
            return Err(bad(
                "the Big Deal stream's 32-bit counter ran out before the last board",
            ));
        }
        consume(make(first + done, &deals))?;
        done += len as u64;
    }
    Ok(())
}

fn choose_seed(a: &GenerateArgs) -> anyhow::Result<SeedChoice> {
    if a.bigdeal.bigdeal_wizard.is_some() {
        // Not used: the Big Deal stream is the source.
        return Ok(SeedChoice {
            seed: Seed([0; 32]),
            fresh: false,
        });
    }
    if let Some(s) = &a.seed {
        return Ok(SeedChoice {
            seed: s.parse().context("--seed")?,
            fresh: false,
        });
    }
    if let Some(p) = &a.seed_file {
        let text = std::fs::read_to_string(p).map_err(|e| bad(format!("{}: {e}", p.display())))?;
        let (n, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .ok_or_else(|| bad(format!("{}: no seed line", p.display())))?;
        let seed = line
            .parse()
            .with_context(|| format!("{}: line {}", p.display(), n + 1))?;
        return Ok(SeedChoice { seed, fresh: false });
    }
    Ok(SeedChoice {
        seed: Seed::from_os()?,
        fresh: true,
    })
}

/// The most boards a tournament set (`--boards`) may have: the set is made, rendered and
/// stored in memory whole.
const MAX_SET_BOARDS: u64 = 1 << 20;

/// Parses `A-B` or `N` (= 1-N) into an inclusive board range of numbers ≥ 1, at most
/// [`MAX_SET_BOARDS`] boards.
fn parse_boards(s: &str) -> anyhow::Result<(u64, u64)> {
    let num = |t: &str| -> anyhow::Result<u64> {
        t.trim()
            .parse::<u64>()
            .map_err(|_| bad(format!("--boards {s:?}: {t:?} is not a board number")))
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (1, num(s)?),
    };
    if a == 0 || b < a {
        return Err(bad(format!(
            "--boards {s:?}: expected A-B with 1 <= A <= B (boards are numbered from 1)"
        )));
    }
    // A tournament set is held (and rendered) in memory whole.
    if b - a >= MAX_SET_BOARDS {
        return Err(bad(format!(
            "--boards {s:?}: {} boards; a set has at most {MAX_SET_BOARDS} (use --count for bulk runs)",
            u128::from(b - a) + 1
        )));
    }
    Ok((a, b))
}

/// Saves a fresh seed before any deal leaves the process, to a new file only
/// ([`dealdex::secret`]): `--key-file` must not exist (exit 2 naming it otherwise); the
/// default name, when taken, gives way to the next free one (`s.pbn-2.seed`, …). Returns the
/// file written, with a note when the default name was taken.
fn save_seed(
    a: &GenerateArgs,
    db: Option<&Path>,
    seed: &Seed,
    what: &str,
) -> anyhow::Result<(PathBuf, String)> {
    let text = |path: &Path| {
        format!(
            "# dealdex generation seed: secret; it regenerates {what}\n# use: dealdex generate --seed-file {} …\n{seed}\n",
            path.display()
        )
        .into_bytes()
    };
    if let Some(p) = &a.key_file {
        return match dealdex::secret::write_new(p, &text(p)) {
            Ok(()) => Ok((p.clone(), String::new())),
            Err(e @ dealdex::secret::SecretFileError::Exists { .. }) => Err(bad(format!(
                "--key-file {e} (it may hold the seed of an earlier set: name another --key-file, or reuse that seed with --seed-file)"
            ))),
            Err(e) => Err(e.into()),
        };
    }
    let default = default_key_path(a, db, seed);
    let written = dealdex::secret::write_next_free(&default, text)?;
    let note = if written == default {
        String::new()
    } else {
        format!(" ({} exists and is kept)", default.display())
    };
    Ok((written, note))
}

/// The default key file for a fresh seed: `<out>.seed` when the output is a regular file,
/// else `<db stem>-<sha>.seed` beside the database, else `dealdex-<sha>.seed` here.
fn default_key_path(a: &GenerateArgs, db: Option<&Path>, seed: &Seed) -> PathBuf {
    let tag: String = seed.sha256()[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if let Some(out) = a.out.first()
        && out.as_os_str() != "-"
        && std::fs::metadata(out).map(|m| m.is_file()).unwrap_or(true)
    {
        let mut s = out.clone().into_os_string();
        s.push(".seed");
        return s.into();
    }
    if let Some(db) = db {
        let stem = db
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        return db.with_file_name(format!("{stem}-{tag}.seed"));
    }
    PathBuf::from(format!("dealdex-{tag}.seed"))
}

pub fn run(a: GenerateArgs, _json: bool) -> anyhow::Result<()> {
    outputs::check_paths(&a.out)?;
    match &a.boards {
        Some(r) => {
            let range = parse_boards(r)?;
            tournament(&a, range)
        }
        None => bulk(&a, a.count.expect("clap group")),
    }
}

fn tournament(a: &GenerateArgs, (first, last): (u64, u64)) -> anyhow::Result<()> {
    let outputs = outputs::plan(&a.out, a.format.as_deref(), "pbn")?;
    let filter = parse_filter(a)?;
    let predeal = parse_predeal(a)?;
    let seed = choose_seed(a)?;
    let db_path = (!a.no_db).then(|| a.db.clone().unwrap_or_else(|| "dealdex.db".into()));
    let mut store = match &db_path {
        Some(p) => Some(Store::open(p)?),
        None => None,
    };
    let base = a.name.clone().unwrap_or_else(|| {
        a.out
            .first()
            .filter(|p| p.as_os_str() != "-")
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("boards-{first}-{last}"))
    });
    let name = match (&a.name, &store) {
        (None, Some(s)) => s.unused_set_name(&base)?,
        _ => base,
    };

    let count = last - first + 1;
    let mut drawn = None;
    let bigdeal = bigdeal_stream(a);
    let deals: Vec<Deal> = match &filter {
        _ if bigdeal.is_some() => {
            let mut stream = bigdeal.clone().expect("checked");
            let deals = stream.take_deals(usize::try_from(count).unwrap_or(usize::MAX));
            if deals.len() as u64 != count {
                return Err(bad(format!(
                    "--boards {first}-{last}: the Big Deal stream's 32-bit counter runs out first"
                )));
            }
            deals
        }
        Some(q) => {
            let found =
                dealdex::first_matching(&seed.seed, predeal.as_ref(), first, count, q, &mut |_| {});
            drawn = Some((found.drawn, found.solved, q.uses_dd()));
            found.deals
        }
        None => {
            let mut deals = Vec::with_capacity(count.min(1 << 24) as usize);
            dealdex::generate_chunks_with(
                &seed.seed,
                predeal.as_ref(),
                first,
                count,
                |_, d| d.to_vec(),
                |d| {
                    deals.extend(d);
                    Ok::<(), anyhow::Error>(())
                },
            )?;
            deals
        }
    };
    let boards: Vec<Board> = deals
        .iter()
        .enumerate()
        .map(|(j, d)| Board::new(first + j as u64, *d))
        .collect();
    // Render every output first: a format's limit error must leave no trace.
    let opts = a.write.options(&name, first, last);
    let files = outputs::render(&outputs, &boards, &opts, a.write.split)?;

    let key_file = match seed.fresh {
        true => Some(save_seed(
            a,
            db_path.as_deref(),
            &seed.seed,
            &format!("set {name:?}, boards {first}-{last}"),
        )?),
        false => None,
    };
    let mut stored = None;
    if let Some(store) = &mut store {
        let keyed: Vec<(u64, DealIndex)> = boards
            .iter()
            .map(|b| (b.number.expect("numbered"), DealIndex::from_deal(&b.deal)))
            .collect();
        let (scheme, generator, sha) = set_source(&seed, bigdeal.as_ref());
        let set = NewSet {
            name: name.clone(),
            first_board: first,
            last_board: last,
            scheme: scheme.name().into(),
            generator,
            seed_sha256: Some(sha),
        };
        stored = Some(store.store_set(&set, &keyed)?);
    }
    outputs::write_files(&files)?;

    if !a.quiet {
        let mut msg = format!("boards {first}-{last}: {count} deals");
        if let Some((n, solved, dd)) = drawn {
            msg += &format!(" (drew {n} to find them{})", solved_note(solved, dd));
        }
        if let (Some(o), Some(p)) = (&stored, &db_path) {
            if o.already_stored {
                msg += &format!("; set {name:?} already in {} (unchanged)", p.display());
            } else {
                msg += &format!(
                    "; set {name:?} stored in {} ({} new deals, {} already there)",
                    p.display(),
                    o.new_deals,
                    count - o.new_deals
                );
            }
        }
        for f in &files {
            if let Some(p) = &f.path {
                msg += &format!("; written to {}", p.display());
            }
        }
        if let Some((k, note)) = &key_file {
            msg += &format!("; seed saved to {}{note} (keep it secret)", k.display());
        }
        eprintln!("{msg}");
    }
    Ok(())
}

/// What one chunk of a bulk run carries from the workers to the writer.
struct Chunk {
    len: usize,
    /// Formatted bytes per streaming output.
    bytes: Vec<Vec<u8>>,
    keys: Vec<DealIndex>,
    /// The boards themselves, when a non-streaming output needs the whole set.
    boards: Vec<Board>,
}

/// Boards a non-streaming output may collect in memory in a bulk run.
const MAX_COLLECTED: u64 = 1 << 20;

fn bulk(a: &GenerateArgs, count: u64) -> anyhow::Result<()> {
    if count == 0 {
        return Err(bad("--count must be at least 1"));
    }
    if a.start == 0 {
        return Err(bad("--start is 1-based: the first deal is 1"));
    }
    let last = a
        .start
        .checked_add(count - 1)
        .ok_or_else(|| bad("--start + --count overflows the 64-bit deal counter"))?;
    let use_db = !a.no_db && (a.db.is_some() || a.out.is_empty());
    let db_path = use_db.then(|| a.db.clone().unwrap_or_else(|| "dealdex.db".into()));
    if db_path.is_none() && a.out.is_empty() {
        return Err(bad(
            "nothing to do: give --out FILE, or drop --no-db to store the deals",
        ));
    }
    let outs: Vec<Output> = if a.out.is_empty() {
        Vec::new()
    } else {
        outputs::plan(&a.out, a.format.as_deref(), "hex")?
    };
    for o in &outs {
        let info = o.format.info();
        if let Some(max) = info.max_board
            && last > max
            && !a.write.split
        {
            return Err(bad(format!(
                "{}: {} holds boards 1..{max}, this run ends at {last} (give --split)",
                o.label(),
                info.name
            )));
        }
        if (!info.streaming || a.write.split && info.max_board.is_some()) && count > MAX_COLLECTED {
            return Err(bad(format!(
                "{}: {} is written in one piece; at most {MAX_COLLECTED} boards",
                o.label(),
                info.name
            )));
        }
    }
    let filter = parse_filter(a)?;
    let predeal = parse_predeal(a)?;
    let seed = choose_seed(a)?;
    let mut store = match &db_path {
        Some(p) => Some(Store::open(p).map_err(|e| store_failed(e, p))?),
        None => None,
    };
    if let Some(q) = &filter {
        return bulk_filtered(
            a,
            count,
            (q, predeal.as_ref()),
            &seed,
            store.as_mut(),
            db_path.as_deref(),
            &outs,
        );
    }
    if seed.fresh {
        let (k, note) = save_seed(
            a,
            db_path.as_deref(),
            &seed.seed,
            &format!("deals {}..{last}", a.start),
        )?;
        if !a.quiet {
            eprintln!("seed saved to {}{note} (keep it secret)", k.display());
        }
    }
    let opts = a.write.options("", a.start, last);
    // Streaming outputs get their bytes chunk by chunk; the others collect the boards.
    let streamed: Vec<&Output> = outs
        .iter()
        .filter(|o| {
            o.format.info().streaming && !(a.write.split && o.format.info().max_board.is_some())
        })
        .collect();
    let collected: Vec<&Output> = outs
        .iter()
        .filter(|o| !streamed.iter().any(|s| std::ptr::eq(*s, *o)))
        .collect();
    let mut writers = Vec::new();
    for o in &streamed {
        let mut w = open_output(o.path.as_deref())?;
        let mut head = Vec::new();
        o.format
            .write_header(&opts, &mut head)
            .map_err(|e| bad(format!("{}: {e}", o.label())))?;
        w.write_all(&head)?;
        writers.push(w);
    }

    let bar = if show_progress(a.quiet) {
        let b = ProgressBar::new(count);
        b.set_style(
            ProgressStyle::with_template(
                "{bar:40} {human_pos}/{human_len} deals {per_sec} eta {eta}",
            )
            .expect("static template"),
        );
        b
    } else {
        ProgressBar::hidden()
    };

    let started = Instant::now();
    let want_keys = store.is_some();
    let batch = a.batch.unwrap_or(BATCH) as usize;
    let db = db_path.clone().unwrap_or_default();
    let keep_boards = !collected.is_empty();
    let mut new_deals = 0u64;
    let mut pending: Vec<DealIndex> = Vec::new();
    let mut all_boards: Vec<Board> = Vec::new();
    let mut generated = 0u64;
    run_chunks(
        &seed.seed,
        predeal.as_ref(),
        bigdeal_stream(a),
        (a.start, count),
        |first, deals| -> anyhow::Result<Chunk> {
            let boards: Vec<Board> = deals
                .iter()
                .enumerate()
                .map(|(j, d)| Board::new(first + j as u64, *d))
                .collect();
            let mut bytes = Vec::with_capacity(streamed.len());
            for o in &streamed {
                let mut buf = Vec::new();
                o.format
                    .write_boards(&boards, &opts, &mut buf)
                    .map_err(|e| bad(format!("{}: {e}", o.label())))?;
                bytes.push(buf);
            }
            let keys = if want_keys {
                deals.iter().map(DealIndex::from_deal).collect()
            } else {
                Vec::new()
            };
            Ok(Chunk {
                len: deals.len(),
                bytes,
                keys,
                boards: if keep_boards { boards } else { Vec::new() },
            })
        },
        |chunk: anyhow::Result<Chunk>| -> anyhow::Result<()> {
            let chunk = chunk?;
            for (w, b) in writers.iter_mut().zip(&chunk.bytes) {
                w.write_all(b)?;
            }
            if let Some(s) = &mut store {
                // Exactly `batch` deals a transaction, committed in stream order: after a
                // kill the database holds deals start .. start + k·batch − 1 for some k.
                pending.extend_from_slice(&chunk.keys);
                while pending.len() >= batch {
                    new_deals += s
                        .insert_deals(&pending[..batch])
                        .map_err(|e| store_failed(e, &db))?;
                    pending.drain(..batch);
                }
            }
            all_boards.extend(chunk.boards);
            generated += chunk.len as u64;
            bar.set_position(generated);
            Ok(())
        },
    )?;
    if let Some(s) = &mut store
        && !pending.is_empty()
    {
        new_deals += s.insert_deals(&pending).map_err(|e| store_failed(e, &db))?;
    }
    for (o, w) in streamed.iter().zip(writers.iter_mut()) {
        let mut tail = Vec::new();
        o.format
            .write_footer(&opts, &mut tail)
            .map_err(|e| bad(format!("{}: {e}", o.label())))?;
        w.write_all(&tail)?;
        w.flush()?;
    }
    if !collected.is_empty() {
        let owned: Vec<Output> = collected
            .iter()
            .map(|o| Output {
                path: o.path.clone(),
                format: o.format,
            })
            .collect();
        let files = outputs::render(&owned, &all_boards, &opts, a.write.split)?;
        outputs::write_files(&files)?;
    }
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    if !a.quiet {
        let mut msg = format!(
            "generated {generated} deals in {secs:.2} s ({:.0} deals/s)",
            generated as f64 / secs.max(1e-9)
        );
        if let Some(p) = &db_path {
            msg += &format!(
                "; {new_deals} new in {}, {} duplicates",
                p.display(),
                generated - new_deals
            );
        }
        eprintln!("{msg}");
    }
    Ok(())
}

/// `generate --count N --where EXPR`: the first N matching deals of the stream, numbered from
/// `--start`, kept in memory (32 bytes a deal), then written and stored like a bulk run.
fn bulk_filtered(
    a: &GenerateArgs,
    count: u64,
    (query, predeal): (&dealdex::query::Query, Option<&dealdex::Predeal>),
    seed: &SeedChoice,
    store: Option<&mut Store>,
    db_path: Option<&Path>,
    outs: &[Output],
) -> anyhow::Result<()> {
    if seed.fresh {
        let (k, note) = save_seed(
            a,
            db_path,
            &seed.seed,
            &format!("{count} deals matching {:?}", a.filter),
        )?;
        if !a.quiet {
            eprintln!("seed saved to {}{note} (keep it secret)", k.display());
        }
    }
    let bar = if show_progress(a.quiet) {
        let b = ProgressBar::new(count);
        b.set_style(
            ProgressStyle::with_template(
                "{bar:40} {human_pos}/{human_len} matching deals {per_sec} eta {eta}",
            )
            .expect("static template"),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let started = Instant::now();
    let found = dealdex::first_matching(&seed.seed, predeal, a.start, count, query, &mut |n| {
        bar.set_position(n)
    });
    let (deals, drawn) = (found.deals, found.drawn);
    bar.finish_and_clear();
    let boards: Vec<Board> = deals
        .iter()
        .enumerate()
        .map(|(j, d)| Board::new(a.start + j as u64, *d))
        .collect();
    let last = a.start + count - 1;
    let opts = a.write.options("", a.start, last);
    let files = outputs::render(outs, &boards, &opts, a.write.split)?;
    let mut new_deals = 0;
    if let Some(s) = store {
        let keys: Vec<DealIndex> = deals.iter().map(DealIndex::from_deal).collect();
        for batch in keys.chunks(a.batch.unwrap_or(BATCH) as usize) {
            new_deals += s
                .insert_deals(batch)
                .map_err(|e| store_failed(e, db_path.unwrap_or(Path::new(""))))?;
        }
    }
    outputs::write_files(&files)?;
    let secs = started.elapsed().as_secs_f64();
    if !a.quiet {
        let mut msg = format!(
            "{count} matching deals in {secs:.2} s ({:.0} matching deals/s); drew {drawn} deals ({:.3} % matched{})",
            count as f64 / secs.max(1e-9),
            100.0 * count as f64 / drawn.max(1) as f64,
            solved_note(found.solved, query.uses_dd())
        );
        if let Some(p) = db_path {
            msg += &format!(
                "; {new_deals} new in {}, {} duplicates",
                p.display(),
                count - new_deals
            );
        }
        eprintln!("{msg}");
    }
    Ok(())
}

/// The error of a store call writing to `db`, with a busy database said plainly: another
/// process kept the write lock past the busy timeout (`DEALDEX_BUSY_TIMEOUT`), and nothing of
/// the failed transaction was stored. Other errors pass through.
pub(super) fn store_failed(e: dealdex::StoreError, db: &Path) -> anyhow::Error {
    if !e.is_busy() {
        return e.into();
    }
    let waited = Store::busy_timeout().map_or_else(
        |_| "the busy timeout".to_owned(),
        |d| format!("{} s", d.as_secs_f64()),
    );
    anyhow::anyhow!(
        "database is busy: another process is writing {}; waited {waited} for it, this transaction stored nothing (DEALDEX_BUSY_TIMEOUT sets the wait in seconds)",
        db.display()
    )
}
