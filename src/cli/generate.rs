//! `dealdex generate`: tournament sets (--boards) and bulk generation (--count).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::{ArgGroup, Args};
use dealdex::{Deal, DealIndex, Format, Labels, NewSet, Scheme, Seed, Store};
use indicatif::{ProgressBar, ProgressStyle};

use super::{bad, open_output, show_progress};

/// Keys inserted per store transaction in bulk mode. Random keys dirty most of the B-tree's
/// leaf pages in every transaction, so fewer, larger batches write far less WAL: 4 Mi keys
/// (2 × 54 MB of keys in memory) ran 10 M deals 25 % faster than 1 Mi keys.
const BATCH: usize = 1 << 22;

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
    /// 256-bit seed as 64 hex digits; without it a seed comes from the OS and is saved to a
    /// key file (mode 0600).
    #[arg(long, value_name = "HEX", conflicts_with = "seed_file")]
    seed: Option<String>,
    /// Read the seed from a key file written by an earlier run.
    #[arg(long, value_name = "FILE")]
    seed_file: Option<PathBuf>,
    /// Where to write a new seed (default: next to the output, `<out>.seed`).
    #[arg(long, value_name = "FILE")]
    key_file: Option<PathBuf>,
    /// Output file (`-` for stdout); its extension picks the format unless --format.
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Output format: pbn, hex or json (JSON lines).
    #[arg(long, short, value_name = "FORMAT")]
    format: Option<Format>,
    /// SQLite database to store the deals in.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Do not store anything in a database.
    #[arg(long, conflicts_with = "db")]
    no_db: bool,
    /// Name of the tournament set in the database (default: from the output file's name).
    #[arg(long, requires = "boards")]
    name: Option<String>,
    /// PBN [Event] tag (default: the set's name).
    #[arg(long)]
    event: Option<String>,
    /// No progress bar and no summary.
    #[arg(long, short)]
    quiet: bool,
}

/// Where the seed came from.
struct SeedChoice {
    seed: Seed,
    fresh: bool,
}

fn choose_seed(a: &GenerateArgs) -> anyhow::Result<SeedChoice> {
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

/// Parses `A-B` or `N` (= 1-N) into an inclusive board range of numbers ≥ 1.
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
    Ok((a, b))
}

/// Writes a fresh seed to `path` with mode 0600, before any deal leaves the process.
fn write_key_file(path: &Path, seed: &Seed, what: &str) -> anyhow::Result<()> {
    let mut opts = OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts
        .open(path)
        .with_context(|| format!("cannot write the seed key file {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    writeln!(
        f,
        "# dealdex generation seed: secret; it regenerates {what}\n# use: dealdex generate --seed-file {} …\n{seed}",
        path.display()
    )?;
    f.sync_all()?;
    Ok(())
}

/// The key file for a fresh seed: --key-file, else `<out>.seed` when the output is a regular
/// file, else `<db stem>-<sha>.seed` beside the database, else `dealdex-<sha>.seed` here.
fn key_path(a: &GenerateArgs, db: Option<&Path>, seed: &Seed) -> PathBuf {
    if let Some(p) = &a.key_file {
        return p.clone();
    }
    let tag: String = seed.sha256()[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if let Some(out) = &a.out
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

fn output_format(a: &GenerateArgs, default: Format) -> anyhow::Result<Format> {
    if let Some(f) = a.format {
        return Ok(f);
    }
    match &a.out {
        Some(p) if p.as_os_str() != "-" && p != Path::new("/dev/null") => Format::from_path(p)
            .ok_or_else(|| {
                bad(format!(
                    "{}: cannot tell the format from the extension; give --format pbn|hex|json",
                    p.display()
                ))
            }),
        _ => Ok(default),
    }
}

pub fn run(a: GenerateArgs) -> anyhow::Result<()> {
    match &a.boards {
        Some(r) => {
            let range = parse_boards(r)?;
            tournament(&a, range)
        }
        None => bulk(&a, a.count.expect("clap group")),
    }
}

fn tournament(a: &GenerateArgs, (first, last): (u64, u64)) -> anyhow::Result<()> {
    let format = output_format(a, Format::Pbn)?;
    let seed = choose_seed(a)?;
    let db_path = (!a.no_db).then(|| a.db.clone().unwrap_or_else(|| "dealdex.db".into()));
    let mut store = match &db_path {
        Some(p) => Some(Store::open(p)?),
        None => None,
    };
    let base = a.name.clone().unwrap_or_else(|| {
        a.out
            .as_ref()
            .filter(|p| p.as_os_str() != "-")
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("boards-{first}-{last}"))
    });
    let name = match (&a.name, &store) {
        (None, Some(s)) => s.unused_set_name(&base)?,
        _ => base,
    };
    let key_file = seed
        .fresh
        .then(|| key_path(a, db_path.as_deref(), &seed.seed));
    if let Some(k) = &key_file {
        write_key_file(
            k,
            &seed.seed,
            &format!("set {name:?}, boards {first}-{last}"),
        )?;
    }

    let count = last - first + 1;
    let mut deals: Vec<Deal> = Vec::with_capacity(count.min(1 << 24) as usize);
    dealdex::generate_chunks(
        &seed.seed,
        first,
        count,
        |_, d| d.to_vec(),
        |d| {
            deals.extend(d);
            Ok::<(), anyhow::Error>(())
        },
    )?;

    let mut stored = None;
    if let Some(store) = &mut store {
        let boards: Vec<(u64, DealIndex)> = deals
            .iter()
            .enumerate()
            .map(|(j, d)| (first + j as u64, DealIndex::from_deal(d)))
            .collect();
        let set = NewSet {
            name: name.clone(),
            first_board: first,
            last_board: last,
            scheme: Scheme::Pavlicek.name().into(),
            generator: concat!("dealdex ", env!("CARGO_PKG_VERSION")).into(),
            seed_sha256: Some(seed.seed.sha256()),
        };
        stored = Some(store.store_set(&set, &boards)?);
    }

    let mut out = open_output(a.out.as_deref())?;
    let mut buf = Vec::new();
    let event = a.event.clone().unwrap_or_else(|| name.clone());
    dealdex::format_chunk(
        &mut buf,
        format,
        Labels::Boards,
        first as u128,
        &deals,
        true,
        &event,
    );
    out.write_all(&buf)?;
    out.flush()?;

    if !a.quiet {
        let mut msg = format!("boards {first}-{last}: {count} deals");
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
        if let Some(o) = a.out.as_ref().filter(|p| p.as_os_str() != "-") {
            msg += &format!("; {} written to {}", format.name(), o.display());
        }
        if let Some(k) = &key_file {
            msg += &format!("; seed saved to {} (keep it secret)", k.display());
        }
        eprintln!("{msg}");
    }
    Ok(())
}

/// What one chunk of a bulk run carries from the workers to the writer.
struct Chunk {
    len: usize,
    bytes: Vec<u8>,
    keys: Vec<DealIndex>,
}

fn bulk(a: &GenerateArgs, count: u64) -> anyhow::Result<()> {
    if count == 0 {
        return Err(bad("--count must be at least 1"));
    }
    if a.start == 0 {
        return Err(bad("--start is 1-based: the first deal is 1"));
    }
    if a.start.checked_add(count - 1).is_none() {
        return Err(bad("--start + --count overflows the 64-bit deal counter"));
    }
    let use_db = !a.no_db && (a.db.is_some() || a.out.is_none());
    let db_path = use_db.then(|| a.db.clone().unwrap_or_else(|| "dealdex.db".into()));
    let format = a
        .out
        .as_ref()
        .map(|_| output_format(a, Format::Hex))
        .transpose()?;
    if db_path.is_none() && a.out.is_none() {
        return Err(bad(
            "nothing to do: give --out FILE, or drop --no-db to store the deals",
        ));
    }
    let seed = choose_seed(a)?;
    let mut store = match &db_path {
        Some(p) => Some(Store::open(p)?),
        None => None,
    };
    if seed.fresh {
        let k = key_path(a, db_path.as_deref(), &seed.seed);
        write_key_file(
            &k,
            &seed.seed,
            &format!("deals {}..{}", a.start, a.start + (count - 1)),
        )?;
        if !a.quiet {
            eprintln!("seed saved to {} (keep it secret)", k.display());
        }
    }
    let mut out = match &a.out {
        Some(p) => Some(open_output(Some(p))?),
        None => None,
    };

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
    let mut new_deals = 0u64;
    let mut pending: Vec<DealIndex> = Vec::new();
    let mut generated = 0u64;
    let event = a.event.clone().unwrap_or_default();
    dealdex::generate_chunks(
        &seed.seed,
        a.start,
        count,
        |first, deals| {
            let mut bytes = Vec::new();
            if let Some(f) = format {
                let header = first == a.start;
                dealdex::format_chunk(
                    &mut bytes,
                    f,
                    Labels::Plain,
                    first as u128,
                    deals,
                    header,
                    &event,
                );
            }
            let keys = if want_keys {
                deals.iter().map(DealIndex::from_deal).collect()
            } else {
                Vec::new()
            };
            Chunk {
                len: deals.len(),
                bytes,
                keys,
            }
        },
        |chunk: Chunk| -> anyhow::Result<()> {
            if let Some(o) = &mut out {
                o.write_all(&chunk.bytes)?;
            }
            if let Some(s) = &mut store {
                pending.extend_from_slice(&chunk.keys);
                if pending.len() >= BATCH {
                    new_deals += s.insert_deals(&pending)?;
                    pending.clear();
                }
            }
            generated += chunk.len as u64;
            bar.set_position(generated);
            Ok(())
        },
    )?;
    if let Some(s) = &mut store
        && !pending.is_empty()
    {
        new_deals += s.insert_deals(&pending)?;
    }
    if let Some(o) = &mut out {
        o.flush()?;
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
