//! `dealdex sql`: read-only SQL with the feature functions and view.

use std::path::Path;

use dealdex::{Seat, Seed};
use predicates::prelude::*;
use tempfile::TempDir;

use crate::common::dealdex;

#[test]
fn sql_reads_features_and_refuses_writes() {
    let dir = TempDir::new().unwrap();
    let seed = "42".repeat(32);
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-200", "--seed", &seed, "--name", "s", "--out", "s.pbn", "-q",
        ])
        .assert()
        .success();
    let seed: Seed = seed.parse().unwrap();
    let deals: Vec<dealdex::Deal> = (1..=200).map(|b| seed.board_deal(b)).collect();
    let want = deals
        .iter()
        .filter(|d| dealdex::features::hcp(d.hand(Seat::North)) >= 12)
        .count();
    dealdex(dir.path())
        .args([
            "sql",
            "SELECT count(*) FROM deal_features WHERE hcp_n >= 12",
        ])
        .assert()
        .success()
        .stdout(format!("count(*)\n{want}\n"));
    let d7 = &deals[6];
    dealdex(dir.path())
        .args([
            "sql",
            "SELECT pbn(deal), shape(deal, 'E') FROM set_boards WHERE board = 7",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "{d7}\t{}",
            dealdex::features::Shape::of(d7.hand(Seat::East))
        )));
    dealdex(dir.path())
        .args(["sql", "DELETE FROM deals"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "read-only: DELETE from deals is refused",
        ));
    dealdex(dir.path())
        .args(["sql", "SELECT hcp(key, 'Q') FROM deals"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("seat \"Q\""));
}

/// In `d`: boards 1-20 of seed `4242…42` generated to `s.pbn` and imported into set `s` of
/// `dealdex.db`.
fn import_20_boards(d: &Path) {
    dealdex(d)
        .args([
            "generate",
            "--boards",
            "1-20",
            "--seed",
            &"42".repeat(32),
            "--no-db",
        ])
        .args(["--out", "s.pbn", "-q"])
        .assert()
        .success();
    dealdex(d)
        .args(["import", "s.pbn", "--set", "s"])
        .assert()
        .success();
}

/// The names of the files in `d` other than the db's (`dealdex.db*`), sorted.
fn files_besides_the_db(d: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("dealdex.db"))
        .collect();
    names.sort();
    names
}

/// [`import_20_boards`]' db at `db` is as it was: still WAL, the same rows, the schema
/// version.
fn assert_store_unchanged(db: &Path) {
    let store = dealdex::Store::open(db).unwrap();
    let mode: String = store
        .connection()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    assert_eq!(store.deal_count().unwrap(), 20);
    assert_eq!(store.set_boards("s").unwrap().len(), 20);
    assert_eq!(
        store.schema_version().unwrap(),
        dealdex::Store::SCHEMA_VERSION
    );
}

/// Reading `d`'s db still works: SELECT, table-valued and reporting pragmas, setting
/// queries.
fn assert_reading_still_works(d: &Path) {
    for (sql, want) in [
        ("SELECT count(*) FROM deals", "count(*)\n20\n"),
        ("PRAGMA journal_mode", "journal_mode\nwal\n"),
        ("PRAGMA integrity_check", "integrity_check\nok\n"),
        (
            "SELECT name FROM pragma_table_info('sets') WHERE cid = 1",
            "name\nname\n",
        ),
        (
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT sum(i) FROM n",
            "sum(i)\n6\n",
        ),
    ] {
        dealdex(d)
            .args(["sql", sql])
            .assert()
            .success()
            .stdout(want);
    }
    dealdex(d)
        .args(["sql", "PRAGMA table_info(deals)"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("cid\tname\ttype"))
        .stdout(predicate::str::contains("\tkey\tBLOB\t"));
}

/// Every statement that would write, attach, vacuum or change a setting is refused with
/// exit 2 naming it, and leaves the database (and the file system) as it was.
#[test]
fn sql_is_truly_read_only() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    import_20_boards(d);
    let db = d.join("dealdex.db");
    let files = files_besides_the_db(d);
    let elsewhere = TempDir::new().unwrap();
    let attached = elsewhere.path().join("x.db");
    let vacuumed = elsewhere.path().join("v.db");
    let refused = [
        (
            "PRAGMA journal_mode=DELETE",
            "PRAGMA journal_mode = DELETE".to_owned(),
        ),
        ("PRAGMA query_only = 0", "PRAGMA query_only = 0".to_owned()),
        (
            "PRAGMA user_version = 9",
            "PRAGMA user_version = 9".to_owned(),
        ),
        (
            "PRAGMA wal_checkpoint(TRUNCATE)",
            "PRAGMA wal_checkpoint".to_owned(),
        ),
        (
            &format!("ATTACH DATABASE '{}' AS x", attached.display()),
            format!("ATTACH DATABASE '{}'", attached.display()),
        ),
        (
            &format!("VACUUM INTO '{}'", vacuumed.display()),
            format!("ATTACH DATABASE '{}' (or VACUUM INTO)", vacuumed.display()),
        ),
        ("VACUUM", "VACUUM".to_owned()),
        ("DETACH DATABASE main", "DETACH DATABASE main".to_owned()),
        (
            "INSERT INTO sets(name) VALUES ('x')",
            "INSERT into sets".to_owned(),
        ),
        ("UPDATE deals SET lens = 0", "UPDATE of deals".to_owned()),
        (
            "DELETE FROM set_boards",
            "DELETE from set_boards".to_owned(),
        ),
        ("DROP TABLE deals", "DROP TABLE deals".to_owned()),
        (
            "DROP VIEW deal_features",
            "DROP VIEW deal_features".to_owned(),
        ),
        ("CREATE TABLE t(a)", "CREATE TABLE t(a)".to_owned()),
        ("CREATE TEMP TABLE t(a)", "CREATE TEMP TABLE".to_owned()),
        ("CREATE INDEX i ON deals(lens)", "CREATE INDEX i".to_owned()),
        (
            "ALTER TABLE sets ADD COLUMN z",
            "ALTER TABLE sets".to_owned(),
        ),
        ("REINDEX", "REINDEX".to_owned()),
        ("ANALYZE", "ANALYZE".to_owned()),
    ];
    for (sql, what) in &refused {
        let out = dealdex(d).args(["sql", sql]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{sql}: {err}");
        assert!(err.contains(&format!("read-only: {what}")), "{sql}: {err}");
    }
    // Nothing changed: still WAL, same rows, no file created here or elsewhere.
    assert!(!attached.exists() && !vacuumed.exists());
    assert_eq!(files_besides_the_db(d), files);
    assert_store_unchanged(&db);

    assert_reading_still_works(d);
}

/// The same guarantees through the library type.
#[test]
fn read_only_store_refuses_and_names_what() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("d.db");
    dealdex::Store::open(&path).unwrap();
    let db = dealdex::ReadOnlyStore::open(&path).unwrap();
    let mut query = db.prepare("SELECT count(*) FROM deals").unwrap();
    assert_eq!(query.column_names(), ["count(*)"]);
    let mut got = Vec::new();
    query
        .for_each_row(|row| {
            got.push(row[0].as_i64().unwrap());
            Ok::<_, dealdex::StoreError>(())
        })
        .unwrap();
    assert_eq!(got, [0]);
    let err = db
        .prepare("INSERT INTO sets(name) VALUES ('x')")
        .unwrap_err();
    assert!(
        err.to_string().contains("INSERT into sets is refused"),
        "{err}"
    );
    // The connection itself refuses too, whatever the caller prepares on it.
    assert!(db.connection().execute("DELETE FROM deals", []).is_err());
    assert!(
        db.connection()
            .execute_batch("PRAGMA journal_mode = DELETE")
            .is_err()
    );
}

/// A file that is not an SQLite database (or a damaged one) is a corrupt store: bad input,
/// exit 2, the file named, for the commands that read it and those that store into it; the
/// file is left as it was.
#[test]
fn a_file_that_is_no_database_exits_2_naming_it() {
    let dir = TempDir::new().unwrap();
    let junk: Vec<u8> = (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(dir.path().join("notdb.db"), &junk).unwrap();
    std::fs::write(dir.path().join("one.hex"), "0EDCCBA0976F2DA4945D8E9DC0\n").unwrap();
    for args in [
        &["sql", "--db", "notdb.db", "SELECT 1"][..],
        &["import", "--db", "notdb.db", "one.hex"],
        &["stats", "--db", "notdb.db"],
        &["query", "--db", "notdb.db", "hcp(N) >= 10", "--count"],
    ] {
        dealdex(dir.path())
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("notdb.db: file is not a database"));
    }
    assert_eq!(std::fs::read(dir.path().join("notdb.db")).unwrap(), junk);
}

/// A recursive CTE without an end: it runs for ever unless something stops it.
const ENDLESS: &str =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

/// The same, concatenating 2,000 characters a row: its memory grows without bound.
const GROWING: &str = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) \
                       SELECT length(group_concat(hex(randomblob(1000)))) FROM c";

/// A small database for the bounds tests.
fn small_db() -> TempDir {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args(["generate", "--boards", "1-8", "--seed", &"42".repeat(32)])
        .args(["--name", "s", "--out", "s.pbn", "-q"])
        .assert()
        .success();
    dir
}

/// Issue 27, defect 3: an endless statement stops at `--timeout` with exit 2 naming the
/// limit and the flag (before: it ran for ever), and an ordinary one still runs under the
/// bounds.
#[test]
fn sql_timeout_stops_an_endless_statement() {
    let dir = small_db();
    let started = std::time::Instant::now();
    dealdex(dir.path())
        .args(["sql", "--timeout", "1", ENDLESS])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the statement ran longer than the time limit of 1 s and was stopped (a larger time limit lets it run, 0 for none) [--timeout SECS]",
        ));
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    dealdex(dir.path())
        .args(["sql", "--timeout", "5", "--memory-limit", "64"])
        .arg("SELECT count(*) FROM set_boards")
        .assert()
        .success()
        .stdout("count(*)\n8\n");
    // --timeout 0 lifts the limit: a statement that ends by itself is untouched.
    dealdex(dir.path())
        .args(["sql", "--timeout", "0", "--memory-limit", "0"])
        .arg("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) SELECT count(*) FROM c")
        .assert()
        .success()
        .stdout("count(*)\n100000\n");
}

/// Issue 27, defect 3: a statement whose memory grows without bound stops at
/// `--memory-limit` with exit 2 naming the limit and the flag (before: it grew until the
/// machine ran out), well before its time limit.
#[test]
fn sql_memory_limit_stops_a_growing_statement() {
    let dir = small_db();
    dealdex(dir.path())
        .args(["sql", "--memory-limit", "64", "--timeout", "120", GROWING])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the statement needed more than the memory limit of 64 MiB and was stopped (a larger memory limit lets it run, 0 for none) [--memory-limit MIB]",
        ));
    // Under the limit the same concatenation, with an end, gives its answer.
    dealdex(dir.path())
        .args(["sql", "--memory-limit", "64"])
        .arg("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000) SELECT length(group_concat(hex(randomblob(1000)))) FROM c")
        .assert()
        .success()
        .stdout(predicate::str::ends_with("\n2000999\n"));
}

/// Issue 38: a result counts against the bounds while it is handed over and printed. A
/// 60 MB blob is 60 MB in SQLite and 60 MB more in the row dealdex copies: past a 64 MiB
/// limit (before: only SQLite's heap counted, and the row printed as 120 MB of hex).
#[test]
fn sql_memory_limit_counts_the_rows_printed() {
    let dir = small_db();
    dealdex(dir.path())
        .args(["sql", "--memory-limit", "64", "SELECT zeroblob(60000000)"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stdout("zeroblob(60000000)\n")
        .stderr(predicate::str::contains(
            "the statement needed more than the memory limit of 64 MiB",
        ));
    // Under it the same blob prints.
    dealdex(dir.path())
        .args([
            "sql",
            "--memory-limit",
            "200",
            "SELECT length(hex(zeroblob(20000000)))",
        ])
        .assert()
        .success()
        .stdout("length(hex(zeroblob(20000000)))\n40000000\n");
}

/// Whether process `pid` catches SIGINT (Linux: bit 2 of `SigCgt` in its status).
fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGINT - 1)) != 0)
}

/// Issue 27, defect 3: Ctrl-C (SIGINT) stops a running statement: exit 130 and one line
/// saying so (before: the default action killed the process mid-statement).
#[test]
fn sql_ctrl_c_interrupts_a_running_statement() {
    let dir = small_db();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .current_dir(dir.path())
        .args(["sql", ENDLESS])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Wait until the handler is installed (the statement starts right after), then a bit.
    let waited = std::time::Instant::now();
    while !catches_sigint(pid) && waited.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let pid = libc::pid_t::try_from(pid).unwrap();
    // SAFETY: kill only sends a signal to our own child.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let sent = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(sent.elapsed().as_secs() < 10, "{:?}", sent.elapsed());
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "dealdex: error: sql: interrupted\n"
    );
}
