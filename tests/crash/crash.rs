//! Crash safety (issue 10, item 3): `generate --count` and `import` killed with SIGKILL at
//! seeded pseudo-random moments, then checked and rerun.
//!
//! After every kill the database must pass `PRAGMA integrity_check`, hold exactly a prefix of
//! the committed batches (the first k·batch deals of the stream or of the files, in order; for
//! `import --set` the first k sets, each with all its boards), and rerunning the same command
//! must finish with exactly the expected rows. The kill moments are spread over the command's
//! measured run time; each test asserts that most kills landed while the command was running
//! and that many left a partial database, so it cannot pass by killing too late.
//!
//! The moments come from a seed printed by each test; `CRASH_SEED=<n>` replays a run.

#![cfg(unix)]

use std::collections::HashMap;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dealdex::{Deal, DealIndex, Seed};
use rusqlite::{Connection, OpenFlags};

const BIN: &str = env!("CARGO_BIN_EXE_dealdex");

/// The kill loops run one at a time: each measures the command's run time and spreads its
/// kills over it, which other loops running alongside would distort.
static SERIAL: Mutex<()> = Mutex::new(());

/// Deals of the bulk run, and its `--batch`: 20 batches.
const GEN_COUNT: u64 = 30_000;
const GEN_BATCH: u64 = 1_500;

/// Import files, boards a file, and the deals-only `--batch`: 2 files a batch, 20 batches.
const FILES: usize = 40;
const FILE_BOARDS: usize = 750;
const IMPORT_BATCH: u64 = 1_500;

/// Files of the `import --set` run: one set (and one transaction) each.
const SET_FILES: usize = 20;

/// Kills per loop.
const GEN_KILLS: usize = 20;
const IMPORT_KILLS: usize = 20;
const SET_KILLS: usize = 12;

/// splitmix64: reproducible kill moments.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The kill-moment seed: `CRASH_SEED` when set, else a fixed one per test; printed.
fn kill_rng(test: &str, default: u64) -> Rng {
    let seed = std::env::var("CRASH_SEED")
        .ok()
        .map(|s| s.trim().parse::<u64>().expect("CRASH_SEED is a u64"))
        .unwrap_or(default);
    println!("{test}: kill moments from seed {seed} (replay with CRASH_SEED={seed})");
    Rng(seed)
}

fn seed(byte: u8) -> Seed {
    Seed([byte; 32])
}

/// Deals 1..=n of `seed`'s stream, as `generate --count n --seed …` makes them.
fn stream_keys(seed: &Seed, n: u64) -> Vec<DealIndex> {
    let mut deals = vec![Deal::from_number(1, dealdex::Scheme::Pavlicek).unwrap(); n as usize];
    seed.fill_deals(1, &mut deals);
    deals.iter().map(DealIndex::from_deal).collect()
}

/// What a database holds, read without dealdex.
#[derive(Debug, Default)]
struct Snapshot {
    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check` findings; "ok" when none.
    integrity: String,
    /// Every stored deal.
    deals: Vec<DealIndex>,
    /// Each set's boards' deals, in board order, by set name.
    sets: HashMap<String, Vec<(i64, DealIndex)>>,
}

fn key(row: &rusqlite::Row<'_>, i: usize) -> DealIndex {
    DealIndex(row.get::<_, Vec<u8>>(i).unwrap().try_into().unwrap())
}

fn snapshot(db: &Path) -> Snapshot {
    if !db.exists() {
        return Snapshot {
            integrity: "ok".into(),
            ..Snapshot::default()
        };
    }
    let conn = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_WRITE).unwrap();
    let mut findings = Vec::new();
    let mut stmt = conn.prepare("PRAGMA integrity_check").unwrap();
    let rows = stmt.query_map([], |r| r.get::<_, String>(0)).unwrap();
    findings.extend(rows.map(Result::unwrap).filter(|l| l != "ok"));
    let mut stmt = conn.prepare("PRAGMA foreign_key_check").unwrap();
    let rows = stmt.query_map([], |r| r.get::<_, String>(0)).unwrap();
    findings.extend(rows.map(|t| format!("foreign key violation in {}", t.unwrap())));
    let integrity = if findings.is_empty() {
        "ok".to_owned()
    } else {
        findings.join("; ")
    };
    let has_schema: bool = conn
        .query_row(
            "SELECT EXISTS(SELECT 1 FROM sqlite_master WHERE name = 'set_boards')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    if !has_schema {
        return Snapshot {
            integrity,
            ..Snapshot::default()
        };
    }
    let mut stmt = conn.prepare("SELECT key FROM deals").unwrap();
    let deals = stmt
        .query_map([], |r| Ok(key(r, 0)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut sets: HashMap<String, Vec<(i64, DealIndex)>> = HashMap::new();
    let mut stmt = conn.prepare("SELECT name FROM sets").unwrap();
    for name in stmt.query_map([], |r| r.get::<_, String>(0)).unwrap() {
        sets.insert(name.unwrap(), Vec::new());
    }
    let mut stmt = conn
        .prepare(
            "SELECT s.name, b.board, b.deal FROM set_boards b JOIN sets s ON s.id = b.set_id
             ORDER BY s.name, b.board",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, key(r, 2)))
        })
        .unwrap();
    for row in rows {
        let (name, board, deal) = row.unwrap();
        sets.get_mut(&name).unwrap().push((board, deal));
    }
    Snapshot {
        integrity,
        deals,
        sets,
    }
}

/// Removes the database and its WAL files.
fn remove_db(db: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = db.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}

/// The same set of deals, whatever the order.
fn same_deals(stored: &[DealIndex], expected: &[DealIndex]) -> bool {
    let mut a = stored.to_vec();
    let mut b = expected.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Runs `args` to completion; panics unless it exits 0. Returns stderr and the wall time.
fn run_ok(args: &[String]) -> (String, Duration) {
    let start = Instant::now();
    let out = Command::new(BIN)
        .args(args)
        .env_remove("DEALDEX_BUSY_TIMEOUT")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "dealdex {} failed ({}): {stderr}",
        args.join(" "),
        out.status
    );
    (stderr, took)
}

/// The run time of the command under test: three complete runs on a fresh database first,
/// then every rerun after a kill, so the estimate follows the machine's load.
struct RunTime(Vec<Duration>);

impl RunTime {
    fn measure(args: &[String], db: &Path) -> RunTime {
        RunTime(
            (0..3)
                .map(|_| {
                    remove_db(db);
                    run_ok(args).1
                })
                .collect(),
        )
    }

    fn add(&mut self, took: Duration) {
        self.0.push(took);
    }

    /// The median of the last five runs.
    fn estimate(&self) -> Duration {
        let mut last: Vec<Duration> = self.0.iter().rev().take(5).copied().collect();
        last.sort();
        last[last.len() / 2]
    }

    /// A kill moment: the fraction `u` of 1.1 × the estimate.
    fn moment(&self, u: f64) -> Duration {
        self.estimate().mul_f64(1.1 * u)
    }
}

/// Starts `args`, sleeps `delay`, sends SIGKILL; true when the kill found it running (the
/// process died of the signal), false when it had already exited (it must have succeeded).
fn kill_after(args: &[String], delay: Duration) -> bool {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("DEALDEX_BUSY_TIMEOUT")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    child.kill().unwrap();
    let status = child.wait().unwrap();
    match status.signal() {
        Some(9) => true, // SIGKILL
        _ => {
            assert!(
                status.success(),
                "dealdex {} failed: {status}",
                args.join(" ")
            );
            false
        }
    }
}

/// What the kills of one loop found.
#[derive(Debug, Default)]
struct Tally {
    kills: usize,
    /// The process was still running when killed.
    mid_run: usize,
    /// The kill left some but not all batches committed.
    partial: usize,
    /// The kill left nothing committed.
    empty: usize,
}

impl Tally {
    fn record(&mut self, mid_run: bool, committed: usize, total: usize) {
        self.kills += 1;
        self.mid_run += usize::from(mid_run);
        self.partial += usize::from(committed > 0 && committed < total);
        self.empty += usize::from(committed == 0);
    }

    /// Most kills must land mid-run and a fair share between batches. Kill moments spread
    /// over 1.1 × the estimated run time land after completion about 1 time in 11 and
    /// between the first and the last commit about 2 times in 3 on an idle machine; the
    /// bounds leave room for a busy one, whose run times vary.
    fn check(&self, test: &str) {
        println!(
            "{test}: {} kills, {} mid-run ({} with some but not all batches committed, {} with none), {} after completion",
            self.kills,
            self.mid_run,
            self.partial,
            self.empty,
            self.kills - self.mid_run
        );
        assert!(
            self.mid_run * 2 >= self.kills,
            "{test}: only {} of {} kills landed mid-run",
            self.mid_run,
            self.kills
        );
        assert!(
            self.partial * 5 >= self.kills,
            "{test}: only {} of {} kills landed between batches",
            self.partial,
            self.kills
        );
    }
}

/// A temporary directory, in `/dev/shm` when there is one. A SIGKILL kills the process, not
/// the kernel: what dealdex wrote before it is in the page cache either way, so memory-backed
/// files test the same thing, and their fsyncs cost nothing, which keeps run times (and the
/// kill moments) even on a machine whose disk is busy.
fn scratch_dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir()
        && let Ok(dir) = tempfile::Builder::new()
            .prefix("dealdex-crash")
            .tempdir_in(shm)
    {
        return dir;
    }
    tempfile::tempdir().unwrap()
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn killed_bulk_generation_keeps_a_prefix_of_whole_batches_and_a_rerun_completes() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let test = "generate --count";
    let dir = scratch_dir();
    let db = dir.path().join("bulk.db");
    let s = seed(0x11);
    let expected = stream_keys(&s, GEN_COUNT);
    let mut args = strings(&["generate", "--count"]);
    args.push(GEN_COUNT.to_string());
    args.extend(strings(&["--seed", &s.to_string(), "--db"]));
    args.push(db.display().to_string());
    args.extend(strings(&["--batch", &GEN_BATCH.to_string()]));

    let rerun_says = |_n: u64, missing: u64| format!("; {missing} new in ");
    kill_loop(
        test,
        &db,
        &args,
        &expected,
        (GEN_BATCH, GEN_KILLS, 0xC0FF_EE01),
        rerun_says,
    );
}

/// Kills `args` at `kills` seeded moments (a fresh `db` each time) and checks after each
/// kill: integrity, that the stored deals are exactly the first whole `batch`es of
/// `expected` (or all of them), and that the rerun stores exactly the rest, its stderr
/// saying `rerun_says(stored, missing)`.
fn kill_loop(
    test: &str,
    db: &Path,
    args: &[String],
    expected: &[DealIndex],
    (batch, kills, rng_default): (u64, usize, u64),
    rerun_says: impl Fn(u64, u64) -> String,
) {
    let total = expected.len() as u64;
    let mut run_time = RunTime::measure(args, db);
    assert!(same_deals(&snapshot(db).deals, expected));
    println!("{test}: a complete run takes {:?}", run_time.estimate());
    let mut rng = kill_rng(test, rng_default);
    let batches = (total / batch) as usize;
    let mut tally = Tally::default();
    for i in 0..kills {
        remove_db(db);
        let delay = run_time.moment(rng.unit());
        let mid_run = kill_after(args, delay);
        let after = snapshot(db);
        let n = after.deals.len();
        println!(
            "{test}: kill {i} at {delay:?}: {} run, {n} deals stored",
            if mid_run { "mid" } else { "after the" }
        );
        assert_eq!(after.integrity, "ok", "kill {i}: integrity");
        assert!(
            (n as u64).is_multiple_of(batch) || n as u64 == total,
            "kill {i}: {n} deals is not a whole number of {batch}-deal batches"
        );
        assert!(
            same_deals(&after.deals, &expected[..n]),
            "kill {i}: the {n} stored deals are not the first {n} of the stream or files"
        );
        tally.record(mid_run, n / batch as usize, batches);

        // The rerun stores exactly the rest.
        let (stderr, took) = run_ok(args);
        run_time.add(took);
        let missing = total - n as u64;
        let says = rerun_says(n as u64, missing);
        assert!(
            stderr.contains(&says),
            "kill {i}: rerun should store {missing} new deals ({says:?}): {stderr}"
        );
        let done = snapshot(db);
        assert_eq!(done.integrity, "ok", "kill {i}: integrity after the rerun");
        assert_eq!(
            done.deals.len() as u64,
            total,
            "kill {i}: rows after the rerun"
        );
        assert!(
            same_deals(&done.deals, expected),
            "kill {i}: deals after the rerun"
        );
    }
    tally.check(test);
}

/// Writes `files` hex files of [`FILE_BOARDS`] distinct deals each; returns their paths and
/// deals in order.
fn import_files(dir: &Path, byte: u8, files: usize) -> (Vec<PathBuf>, Vec<Vec<DealIndex>>) {
    let all = stream_keys(&seed(byte), (files * FILE_BOARDS) as u64);
    let mut paths = Vec::new();
    let mut keys = Vec::new();
    for (f, chunk) in all.chunks(FILE_BOARDS).enumerate() {
        let path = dir.join(format!("part{f:03}.hex"));
        let text: String = chunk.iter().map(|k| format!("{k}\n")).collect();
        std::fs::write(&path, text).unwrap();
        paths.push(path);
        keys.push(chunk.to_vec());
    }
    (paths, keys)
}

#[test]
fn killed_import_keeps_a_prefix_of_whole_batches_and_a_rerun_completes() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let test = "import --batch";
    let dir = scratch_dir();
    let db = dir.path().join("import.db");
    let (paths, files) = import_files(dir.path(), 0x22, FILES);
    let expected: Vec<DealIndex> = files.concat();
    let total = expected.len() as u64;
    let mut args = strings(&["import"]);
    args.extend(paths.iter().map(|p| p.display().to_string()));
    args.extend(strings(&["--db", &db.display().to_string()]));
    args.extend(strings(&["--batch", &IMPORT_BATCH.to_string()]));

    let rerun_says =
        |n: u64, missing: u64| format!("{total} boards read, {missing} new, {n} duplicates");
    let plan = (IMPORT_BATCH, IMPORT_KILLS, 0xC0FF_EE02);
    kill_loop(test, &db, &args, &expected, plan, rerun_says);
}

#[test]
fn killed_set_import_keeps_whole_sets_in_file_order_and_a_rerun_completes() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let test = "import --set";
    let dir = scratch_dir();
    let db = dir.path().join("sets.db");
    let (paths, files) = import_files(dir.path(), 0x33, SET_FILES);
    let mut args = strings(&["import"]);
    args.extend(paths.iter().map(|p| p.display().to_string()));
    args.extend(strings(&[
        "--db",
        &db.display().to_string(),
        "--set",
        "club",
    ]));
    // Set `club-k` holds file k's deals at boards 1, 2, … (hex files carry no numbers).
    let expected_set = |k: usize| -> Vec<(i64, DealIndex)> {
        files[k]
            .iter()
            .enumerate()
            .map(|(j, d)| (j as i64 + 1, *d))
            .collect()
    };

    let mut run_time = RunTime::measure(&args, &db);
    assert_eq!(snapshot(&db).sets.len(), SET_FILES);
    println!("{test}: a complete run takes {:?}", run_time.estimate());
    let mut rng = kill_rng(test, 0xC0FF_EE03);
    let mut tally = Tally::default();
    for i in 0..SET_KILLS {
        remove_db(&db);
        let delay = run_time.moment(rng.unit());
        let mid_run = kill_after(&args, delay);
        let after = snapshot(&db);
        let k = after.sets.len();
        println!(
            "{test}: kill {i} at {delay:?}: {} run, {k} sets stored",
            if mid_run { "mid" } else { "after the" }
        );
        assert_eq!(after.integrity, "ok", "kill {i}: integrity");
        // The sets are club-1 … club-k, each with every board of its file: no set row
        // without all its boards, no set after a missing one.
        for (j, _) in files.iter().enumerate().take(k) {
            let name = format!("club-{}", j + 1);
            let boards = after
                .sets
                .get(&name)
                .unwrap_or_else(|| panic!("kill {i}: {k} sets stored but not {name}"));
            assert_eq!(boards, &expected_set(j), "kill {i}: set {name}'s boards");
        }
        assert!(
            same_deals(&after.deals, &files[..k].concat()),
            "kill {i}: the stored deals are not those of the {k} stored sets"
        );
        tally.record(mid_run, k, SET_FILES);

        let (stderr, took) = run_ok(&args);
        run_time.add(took);
        assert!(
            stderr.contains(&format!(
                "imported {SET_FILES} of {SET_FILES} files into {}",
                db.display()
            )),
            "kill {i}: rerun: {stderr}"
        );
        let done = snapshot(&db);
        assert_eq!(done.integrity, "ok", "kill {i}: integrity after the rerun");
        assert_eq!(done.sets.len(), SET_FILES, "kill {i}: sets after the rerun");
        for j in 0..SET_FILES {
            assert_eq!(
                done.sets[&format!("club-{}", j + 1)],
                expected_set(j),
                "kill {i}: set club-{} after the rerun",
                j + 1
            );
        }
        assert!(same_deals(&done.deals, &files.concat()));
    }
    tally.check(test);
}
