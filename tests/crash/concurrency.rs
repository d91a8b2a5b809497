//! Concurrent use of one database (issue 10, item 5).
//!
//! The decision: writers take turns, one transaction at a time, and each waits for the
//! other's transaction up to the busy timeout (60 s, or `DEALDEX_BUSY_TIMEOUT` seconds), so two
//! bulk writers both succeed; a writer that waited the whole timeout exits 1 with "database is
//! busy: …" and stores nothing of the transaction it was waiting to run. Readers never wait
//! (WAL) and see whole transactions only: whole batches.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use dealdex::{Seed, Store};
use rusqlite::Connection;

const BIN: &str = env!("CARGO_BIN_EXE_dealdex");

fn seed_hex(byte: u8) -> String {
    Seed([byte; 32]).to_string()
}

/// `dealdex generate --count N --seed <byte…> --db DB` plus `extra`, not yet started.
fn generate(db: &Path, count: u64, seed: u8, extra: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(["generate", "--count", &count.to_string(), "--seed"])
        .arg(seed_hex(seed))
        .arg("--db")
        .arg(db)
        .args(extra)
        .env_remove("DEALDEX_BUSY_TIMEOUT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn finish(child: Child, what: &str) -> Output {
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{what} failed: {}", stderr(&out));
    out
}

fn count(conn: &Connection) -> rusqlite::Result<u64> {
    conn.query_row("SELECT count(*) FROM deals", [], |r| r.get::<_, i64>(0))
        .map(i64::unsigned_abs)
}

fn integrity(db: &Path) -> String {
    Store::open(db).unwrap().integrity_check().unwrap()
}

/// Writes a hex deal file of `n` deals of `seed`'s stream.
fn hex_file(path: &Path, seed: u8, n: u64) {
    let out = Command::new(BIN)
        .args(["generate", "--count", &n.to_string(), "--seed"])
        .arg(seed_hex(seed))
        .args(["--no-db", "--format", "hex", "-q", "--out"])
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Each writer's batch and number of batches. The batch sizes share only the factor 8, so
/// i·B1 + j·B2 with i ≤ 12, j ≤ 8 names i and j: a count tells how many batches of each
/// writer a reader saw.
const B1: u64 = 16_384;
const N1: u64 = 12;
const B2: u64 = 25_000;
const N2: u64 = 8;

/// The (i, j) with i·B1 + j·B2 = `n`, i ≤ N1, j ≤ N2.
fn whole_batches(n: u64) -> Option<(u64, u64)> {
    (0..=N1)
        .flat_map(|i| (0..=N2).map(move |j| (i, j)))
        .find(|&(i, j)| i * B1 + j * B2 == n)
}

#[test]
fn two_bulk_writers_both_finish_and_a_reader_sees_only_whole_batches() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("shared.db");
    // Both start on a file that does not exist yet: one makes the schema, the other waits.
    let b1 = B1.to_string();
    let b2 = B2.to_string();
    let w1 = generate(&db, N1 * B1, 0x41, &["--batch", &b1])
        .spawn()
        .unwrap();
    let w2 = generate(&db, N2 * B2, 0x42, &["--batch", &b2])
        .spawn()
        .unwrap();

    let done = AtomicBool::new(false);
    let (seen, outs) = std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let mut seen: Vec<u64> = Vec::new();
            let mut conn: Option<Connection> = None;
            loop {
                let last_round = done.load(Ordering::SeqCst);
                if conn.is_none() && db.exists() {
                    conn = Some(Connection::open(&db).unwrap());
                }
                if let Some(c) = &conn {
                    match count(c) {
                        Ok(n) => {
                            if seen.last() != Some(&n) {
                                seen.push(n);
                            }
                        }
                        // Before the first writer's migration commits.
                        Err(e) if e.to_string().contains("no such table") => {
                            assert!(seen.is_empty(), "the deals table vanished: {e}");
                        }
                        Err(e) => panic!("the reader failed: {e}"),
                    }
                }
                if last_round {
                    return seen;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        // The reader stops whatever the writers did; their results are checked after.
        let outs = (w1.wait_with_output(), w2.wait_with_output());
        done.store(true, Ordering::SeqCst);
        (reader.join().unwrap(), outs)
    });
    let outs = (outs.0.unwrap(), outs.1.unwrap());
    for (k, out) in [(1, &outs.0), (2, &outs.1)] {
        assert!(out.status.success(), "writer {k} failed: {}", stderr(out));
    }

    let (i_seen, j_seen): (Vec<u64>, Vec<u64>) = seen
        .iter()
        .map(|&n| {
            whole_batches(n).unwrap_or_else(|| {
                panic!("the reader saw {n} deals: not whole batches of {B1} and {B2}")
            })
        })
        .unzip();
    let both_partial = i_seen
        .iter()
        .zip(&j_seen)
        .filter(|&(&i, &j)| (0 < i && i < N1) && (0 < j && j < N2))
        .count();
    println!(
        "reader saw {} distinct counts, {both_partial} with both writers mid-way: {seen:?}",
        seen.len()
    );
    assert!(seen.is_sorted(), "the count went down: {seen:?}");
    assert_eq!(seen.last(), Some(&(N1 * B1 + N2 * B2)), "final count");
    assert!(
        seen.len() >= 4,
        "the reader saw only {seen:?}: it did not read during the ingest"
    );
    assert!(
        stderr(&outs.0).contains(&format!("; {} new in ", N1 * B1)),
        "{}",
        stderr(&outs.0)
    );
    assert!(
        stderr(&outs.1).contains(&format!("; {} new in ", N2 * B2)),
        "{}",
        stderr(&outs.1)
    );
    let conn = Connection::open(&db).unwrap();
    assert_eq!(count(&conn).unwrap(), N1 * B1 + N2 * B2);
    assert_eq!(integrity(&db), "ok");
}

#[test]
fn writers_starting_together_on_a_new_file_all_succeed() {
    // Several processes creating the same file: one applies the migrations, the others wait
    // for it instead of failing with "table deals already exists" or "database is locked".
    for round in 0..3u8 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("new.db");
        let children: Vec<Child> = (0..6u8)
            .map(|k| {
                generate(&db, 2_000, 0x50 + 6 * round + k, &["-q"])
                    .spawn()
                    .unwrap()
            })
            .collect();
        for (k, c) in children.into_iter().enumerate() {
            finish(c, &format!("round {round}, writer {k}"));
        }
        let conn = Connection::open(&db).unwrap();
        assert_eq!(count(&conn).unwrap(), 12_000, "round {round}");
        assert_eq!(integrity(&db), "ok");
    }
}

/// A database with `n` deals, and a connection holding its write lock (an open
/// `BEGIN IMMEDIATE` transaction that wrote a row nobody else may see yet).
fn locked_db(dir: &Path, n: u64) -> (std::path::PathBuf, Store) {
    let db = dir.join("locked.db");
    finish(generate(&db, n, 0x60, &[]).spawn().unwrap(), "setup");
    let store = Store::open(&db).unwrap();
    store
        .connection()
        .execute_batch(
            "BEGIN IMMEDIATE;
             INSERT INTO sets(name, first_board, last_board, scheme, generator)
             VALUES ('held', 1, 1, 'pavlicek', 'tests/concurrency.rs');",
        )
        .unwrap();
    (db, store)
}

#[test]
fn writers_wait_out_another_writers_long_transaction() {
    // A bulk batch of 4 Mi keys into a large file holds the write lock for seconds (two
    // 12.6 M-deal writers: the second failed after 10.7 s with rusqlite's 5 s timeout). Here
    // the lock is held 6.5 s; generate and import must wait and then succeed.
    const HOLD: Duration = Duration::from_millis(6_500);
    let dir = tempfile::tempdir().unwrap();
    let (db, holder) = locked_db(dir.path(), 1_000);
    let file = dir.path().join("more.hex");
    hex_file(&file, 0x61, 3_000);
    let started = Instant::now();
    let gen_child = generate(&db, 5_000, 0x62, &[]).spawn().unwrap();
    let import_child = Command::new(BIN)
        .arg("import")
        .arg(&file)
        .arg("--db")
        .arg(&db)
        .env_remove("DEALDEX_BUSY_TIMEOUT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(HOLD);
    holder.connection().execute_batch("COMMIT").unwrap();
    let g = finish(gen_child, "generate");
    let i = finish(import_child, "import");
    let waited = started.elapsed();
    assert!(waited >= HOLD, "{waited:?}");
    assert!(stderr(&g).contains("; 5000 new in "), "{}", stderr(&g));
    assert!(
        stderr(&i).contains("3000 boards read, 3000 new, 0 duplicates"),
        "{}",
        stderr(&i)
    );
    assert_eq!(holder.deal_count().unwrap(), 9_000);
    assert!(holder.set("held").unwrap().is_some());
    assert_eq!(holder.integrity_check().unwrap(), "ok");
}

#[test]
fn a_writer_past_its_busy_timeout_exits_1_with_a_clear_message_and_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (db, holder) = locked_db(dir.path(), 1_000);
    let file = dir.path().join("more.hex");
    hex_file(&file, 0x71, 3_000);
    let expected = format!(
        "database is busy: another process is writing {}; waited 0.5 s for it, this transaction stored nothing (DEALDEX_BUSY_TIMEOUT sets the wait in seconds)",
        db.display()
    );

    let started = Instant::now();
    let mut gen_cmd = generate(&db, 5_000, 0x72, &[]);
    let gen_child = gen_cmd.env("DEALDEX_BUSY_TIMEOUT", "0.5").spawn().unwrap();
    let out = gen_child.wait_with_output().unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stderr(&out), format!("dealdex: error: {expected}\n"));
    assert!(took < Duration::from_secs(4), "gave up after {took:?}");

    for set in [None, Some("more")] {
        let mut cmd = Command::new(BIN);
        cmd.arg("import").arg(&file).arg("--db").arg(&db);
        if let Some(name) = set {
            cmd.args(["--set", name]);
        }
        let out = cmd.env("DEALDEX_BUSY_TIMEOUT", "0.5").output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    }

    holder.connection().execute_batch("ROLLBACK").unwrap();
    assert_eq!(holder.deal_count().unwrap(), 1_000, "nothing was stored");
    assert!(holder.set("more").unwrap().is_none());
    assert_eq!(holder.integrity_check().unwrap(), "ok");
}

#[test]
fn a_busy_timeout_that_is_not_seconds_is_refused_before_the_file_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("never.db");
    for value in ["soon", "-1", "1e9", "NaN"] {
        let mut cmd = generate(&db, 10, 0x01, &[]);
        let out = cmd.env("DEALDEX_BUSY_TIMEOUT", value).output().unwrap();
        // A bad setting is bad input: exit 2.
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "dealdex: error: DEALDEX_BUSY_TIMEOUT={value:?}: expected the seconds a writer waits for another writer's lock (0 to 86400, e.g. 60 or 0.5)\n"
            )
        );
        assert!(!db.exists(), "{value}: the database was created");
    }
}
