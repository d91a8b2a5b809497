//! End-to-end tests of the `dealdex` binary: reproducibility across thread counts and shards,
//! dedup in the store, every bad-input case (exit 2, one message, db untouched), pipes.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use dealdex::{Deal, DealIndex, Scheme, Seat, Store};
use predicates::prelude::*;
use tempfile::TempDir;

use crate::common::{self, dealdex};

const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const SEED2: &str = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100";

fn stdout_of(dir: &Path, args: &[&str], threads: &str) -> Vec<u8> {
    let out = dealdex(dir)
        .env("RAYON_NUM_THREADS", threads)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn same_seed_same_bytes_for_any_thread_count() {
    let dir = TempDir::new().unwrap();
    for format in ["hex", "pbn", "json"] {
        let args = [
            "generate", "--count", "40000", "--seed", SEED, "--format", format, "--out", "-", "-q",
        ];
        let one = stdout_of(dir.path(), &args, "1");
        let two = stdout_of(dir.path(), &args, "2");
        assert_eq!(one, two, "{format}");
        assert!(one.len() > 40000 * 26);
    }
    let args = [
        "generate", "--boards", "1-32", "--seed", SEED, "--no-db", "-q",
    ];
    assert_eq!(
        stdout_of(dir.path(), &args, "1"),
        stdout_of(dir.path(), &args, "2")
    );
}

#[test]
fn shards_concatenate_to_the_whole() {
    let dir = TempDir::new().unwrap();
    let run = |start: &str, count: &str| {
        stdout_of(
            dir.path(),
            &[
                "generate", "--count", count, "--start", start, "--seed", SEED, "--format", "hex",
                "--out", "-", "-q",
            ],
            "2",
        )
    };
    let whole = run("1", "50000");
    let mut parts = run("1", "17000");
    parts.extend(run("17001", "20000"));
    parts.extend(run("37001", "13000"));
    assert_eq!(parts, whole);
    // A tournament set is the same stream: boards 1-32 are the first 32 deals.
    let set = stdout_of(
        dir.path(),
        &[
            "generate", "--boards", "1-32", "--seed", SEED, "--format", "hex", "--no-db", "-q",
        ],
        "2",
    );
    let set = String::from_utf8(set).unwrap();
    let whole = String::from_utf8(whole).unwrap();
    for (s, w) in set.lines().zip(whole.lines()) {
        assert_eq!(
            s, w,
            "boards and bulk deals share the stream and the -X digit"
        );
    }
    assert_eq!(set.lines().count(), 32);
}

#[test]
fn golden_values_are_stable() {
    // The derivation is a published contract (README "Generation: how a set is derived from
    // its seed", crates/generation/src/stream.rs): these must never change. The expected values are
    // derived without dealdex, by tests/fixtures/seed-stream/derive.py (Python's standard
    // library: ChaCha20 from RFC 8439, the Pavlicek unrank and the index from FORMATS.md).
    let (derived, _) = common::derived_stream();
    let first: Vec<&common::DerivedBoard> = derived.iter().filter(|b| b.board <= 32).collect();
    assert_eq!(
        first.iter().map(|b| b.board).collect::<Vec<_>>(),
        (1..=32).collect::<Vec<_>>()
    );
    let dir = TempDir::new().unwrap();
    let hex = stdout_of(
        dir.path(),
        &[
            "generate", "--boards", "1-32", "--seed", SEED, "--format", "hex", "--no-db", "-q",
        ],
        "2",
    );
    let hex = String::from_utf8(hex).unwrap();
    let want: Vec<&str> = first.iter().map(|b| b.hex_line.as_str()).collect();
    assert_eq!(hex.lines().collect::<Vec<_>>(), want);
    assert!(hex.starts_with(GOLDEN), "{hex}");
    // JSON lines: the hand-record number and the deal from the dealer.
    let json = stdout_of(
        dir.path(),
        &[
            "generate", "--boards", "1-32", "--seed", SEED, "--format", "json", "--no-db", "-q",
        ],
        "2",
    );
    let json = String::from_utf8(json).unwrap();
    assert_eq!(json.lines().count(), 32);
    for (line, b) in json.lines().zip(&first) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["board"], b.board, "{line}");
        assert_eq!(v["number"], b.number.as_str(), "{line}");
        assert_eq!(v["deal"], b.deal.as_str(), "{line}");
        assert_eq!(
            format!("{}-{:X}", v["index"].as_str().unwrap(), b.board % 16),
            b.hex_line
        );
    }
    // The library gives the same deals.
    let seed: dealdex::Seed = SEED.parse().unwrap();
    for b in &first {
        let deal = seed.board_deal(b.board);
        assert_eq!(deal.number(Scheme::Pavlicek).to_string(), b.number);
        assert_eq!(
            format!("{}-{:X}", DealIndex::from_deal(&deal), b.board % 16),
            b.hex_line
        );
    }
}

/// Boards 1-3 of [`SEED`], pinned when the derivation was published (and the first three
/// lines of tests/fixtures/seed-stream/expected.txt).
const GOLDEN: &str =
    "4E68D9D7355102BCD2AC7E23E2-1\nE14106AE72C830E6F666C5B5FC-2\nB516728B85F1D6EC894CBA4F30-3\n";

/// The boards whose five candidates of their own block are all at least D take their rank
/// from the nonce-k keystream (step 3 of the derivation): derived without dealdex too.
#[test]
fn the_rejection_path_matches_the_derivation() {
    let (derived, _) = common::derived_stream();
    let rejected: Vec<&common::DerivedBoard> = derived.iter().filter(|b| b.step == 3).collect();
    assert!(rejected.len() >= 5, "{rejected:?}");
    let dir = TempDir::new().unwrap();
    let hex = stdout_of(
        dir.path(),
        &[
            "generate", "--count", "2000", "--seed", SEED, "--format", "hex", "--out", "-", "-q",
        ],
        "2",
    );
    let hex = String::from_utf8(hex).unwrap();
    let lines: Vec<&str> = hex.lines().collect();
    assert_eq!(lines.len(), 2000);
    for b in &derived {
        assert_eq!(lines[b.board as usize - 1], b.hex_line, "board {}", b.board);
    }
    // Alone (a shard of one board), through the library too.
    let seed: dealdex::Seed = SEED.parse().unwrap();
    for b in &rejected {
        let one = stdout_of(
            dir.path(),
            &[
                "generate",
                "--count",
                "1",
                "--start",
                &b.board.to_string(),
                "--seed",
                SEED,
                "--format",
                "hex",
                "--out",
                "-",
                "-q",
            ],
            "1",
        );
        assert_eq!(String::from_utf8(one).unwrap(), format!("{}\n", b.hex_line));
        assert_eq!(
            seed.board_deal(b.board)
                .number(Scheme::Pavlicek)
                .to_string(),
            b.number
        );
    }
}

#[test]
fn tournament_set_pbn_is_canonical_and_stored() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-32", "--seed", SEED, "--out", "set.pbn",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("32 new deals"));
    let text = std::fs::read_to_string(dir.path().join("set.pbn")).unwrap();
    assert!(text.starts_with("% PBN 2.1\n% EXPORT\n\n[Event \"set\"]\n[Site \"?\"]"));
    let boards =
        dealdex::formats::DealFormat::read(&dealdex::formats::Pbn, text.as_bytes()).unwrap();
    assert_eq!(boards.len(), 32);
    let seed: dealdex::Seed = SEED.parse().unwrap();
    for (j, b) in boards.iter().enumerate() {
        let n = j as u64 + 1;
        assert_eq!(b.number, Some(n));
        assert_eq!(b.dealer, Some(dealdex::board_dealer(n)));
        assert_eq!(b.vulnerability, Some(dealdex::board_vulnerability(n)));
        assert_eq!(b.deal, seed.board_deal(n));
    }
    // Deal tags start with the dealer.
    assert!(text.contains("[Dealer \"E\"]\n[Vulnerable \"NS\"]\n[Deal \"E:"));
    let store = Store::open(&dir.path().join("dealdex.db")).unwrap();
    assert_eq!(store.deal_count().unwrap(), 32);
    let info = store.set("set").unwrap().unwrap();
    assert_eq!((info.first_board, info.last_board), (1, 32));
    assert_eq!(info.seed_sha256, Some(seed.sha256()));
    assert_eq!(info.scheme, Scheme::Pavlicek);
    let stored = store.set_boards("set").unwrap();
    assert_eq!(stored[4], (5, DealIndex::from_deal(&seed.board_deal(5))));
    // No seed, and no hex of it, anywhere in the deal file.
    assert!(!text.contains(SEED));
}

#[test]
fn second_identical_generate_adds_nothing() {
    let dir = TempDir::new().unwrap();
    let args = [
        "generate", "--boards", "1-16", "--seed", SEED, "--name", "club", "--no-db",
    ];
    let args_db: Vec<&str> = args.iter().copied().filter(|a| *a != "--no-db").collect();
    dealdex(dir.path()).args(&args_db).assert().success();
    dealdex(dir.path())
        .args(&args_db)
        .assert()
        .success()
        .stderr(predicate::str::contains("already in"));
    let bulk = [
        "generate",
        "--count",
        "20000",
        "--seed",
        SEED,
        "--db",
        "dealdex.db",
    ];
    dealdex(dir.path())
        .args(bulk)
        .assert()
        .success()
        .stderr(predicate::str::contains("19984 new"));
    dealdex(dir.path())
        .args(bulk)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "; 0 new in dealdex.db, 20000 duplicates",
        ));
    let store = Store::open(&dir.path().join("dealdex.db")).unwrap();
    assert_eq!(store.deal_count().unwrap(), 20000);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn fresh_seed_goes_to_a_private_key_file_and_regenerates() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args(["generate", "--boards", "1-8", "--out", "a.pbn", "--no-db"])
        .assert()
        .success();
    let key = dir.path().join("a.pbn.seed");
    let meta = std::fs::metadata(&key).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }
    let key_text = std::fs::read_to_string(&key).unwrap();
    let seed_line = key_text.lines().find(|l| !l.starts_with('#')).unwrap();
    assert_eq!(seed_line.len(), 64);
    let a = std::fs::read_to_string(dir.path().join("a.pbn")).unwrap();
    assert!(!a.contains(seed_line));
    dealdex(dir.path())
        .args([
            "generate",
            "--boards",
            "1-8",
            "--out",
            "b.pbn",
            "--no-db",
            "--seed-file",
            "a.pbn.seed",
            "--name",
            "a",
            "--event",
            "a",
        ])
        .assert()
        .success();
    let b = std::fs::read_to_string(dir.path().join("b.pbn")).unwrap();
    assert_eq!(a, b);
}

#[test]
fn number_deal_and_lookup_agree() {
    let dir = TempDir::new().unwrap();
    let d1 = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    dealdex(dir.path())
        .args(["number", d1])
        .assert()
        .success()
        .stdout("1\n");
    dealdex(dir.path())
        .args([
            "number",
            "1B1B1B1B1B1B1B1B1B1B1B1B1B-5",
            "--scheme",
            "bigdeal",
        ])
        .assert()
        .success()
        .stdout("53644737765488792839237439999\n");
    dealdex(dir.path())
        .args(["deal", "10"])
        .assert()
        .success()
        .stdout("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.6 ..2.AKQJT9875432\n");
    dealdex(dir.path())
        .args(["deal", "10", "--scheme", "andrews"])
        .assert()
        .success()
        .stdout("N:AKQJT98765432... .AKQJT98765432.. ..AKQJ98765432.A ..T.KQJT98765432\n");
    dealdex(dir.path())
        .args(["deal", "1", "--format", "json"])
        .assert()
        .success()
        .stdout(format!(
            "{{\"number\":\"1\",\"scheme\":\"pavlicek\",\"deal\":\"{d1}\",\"index\":\"E4E4E4E4E4E4E4E4E4E4E4E4E4\"}}\n"
        ));
    // A range, in order, equal to the library's unranking.
    let out = stdout_of(dir.path(), &["deal", "1000..21000", "--format", "hex"], "2");
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 20001);
    let last = Deal::from_number(21000, Scheme::Pavlicek).unwrap();
    assert_eq!(
        text.lines().last().unwrap(),
        DealIndex::from_deal(&last).to_string()
    );
    // A PBN file's boards.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pbn-import-quirks.pbn"),
        dir.path().join("q.pbn"),
    )
    .unwrap();
    let quirk: Deal = "W:458T.45TJQ.7.3QA 6KA.2KA.234.8TJK J92.3.KQT865.965 37Q.6789.9JA.247"
        .parse()
        .unwrap();
    dealdex(dir.path())
        .args(["number", "q.pbn"])
        .assert()
        .success()
        .stdout(format!("1 {}\n", quirk.number(Scheme::Pavlicek)));
    // Lookup after storing a set names the set and board.
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-4", "--seed", SEED, "--name", "s4", "-q",
        ])
        .assert()
        .success();
    let seed: dealdex::Seed = SEED.parse().unwrap();
    let d3 = seed.board_deal(3);
    dealdex(dir.path())
        .args(["lookup", &DealIndex::from_deal(&d3).to_string()])
        .assert()
        .success()
        .stdout(predicate::str::contains("set \"s4\" board 3"))
        .stdout(predicate::str::contains(format!(
            "number  {} (pavlicek)",
            d3.number(Scheme::Pavlicek)
        )))
        .stdout(predicate::str::contains(dealdex::format_deal(
            &d3,
            Seat::North,
        )));
    dealdex(dir.path())
        .args(["lookup", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("stored  no"))
        .stdout(predicate::str::contains("♠ AKQJT98765432"));
}

/// Deal count, sets and integrity of a db, to compare before and after a failed command.
fn db_state(path: &Path) -> (u64, Vec<(u64, DealIndex)>, String) {
    let s = Store::open(path).unwrap();
    (
        s.deal_count().unwrap(),
        s.set_boards("base").unwrap(),
        s.integrity_check().unwrap(),
    )
}

/// Each case's arguments are bad input: dealdex exits 2 with a short message holding the
/// case's text (no panic), and leaves alone the db in `dir` (made first, with set `base`,
/// boards 1-8 of [`SEED`]).
fn assert_bad_input_leaves_the_db_alone(dir: &Path, cases: &[(Vec<&str>, &str)]) {
    dealdex(dir)
        .args([
            "generate", "--boards", "1-8", "--seed", SEED, "--name", "base", "-q",
        ])
        .assert()
        .success();
    let db = dir.join("dealdex.db");
    let before = db_state(&db);
    for (args, needle) in cases {
        let out = dealdex(dir).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if !args[0].starts_with("deal") || !err.contains("Usage") {
            assert!(err.trim_end().lines().count() <= 3, "{args:?}: {err}");
        }
        assert_eq!(db_state(&db), before, "{args:?} changed the db");
    }
}

#[test]
fn bad_generate_input_exits_2_with_one_line_and_leaves_the_db_alone() {
    let dir = TempDir::new().unwrap();
    let bad_seed = format!("{}g", &SEED[..63]);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["generate", "--boards", "0-5", "--seed", SEED],
            "boards are numbered from 1",
        ),
        (
            vec!["generate", "--boards", "9-2", "--seed", SEED],
            "1 <= A <= B",
        ),
        (
            vec!["generate", "--boards", "1-x", "--seed", SEED],
            "not a board number",
        ),
        (
            vec!["generate", "--boards", "1-4", "--seed", "abc"],
            "expected 64 hex digits",
        ),
        (
            vec!["generate", "--boards", "1-4", "--seed", &bad_seed],
            "column 64",
        ),
        (
            vec![
                "generate", "--boards", "1-4", "--seed", SEED2, "--name", "base",
            ],
            "already exists",
        ),
        (
            vec![
                "generate", "--boards", "1-4", "--seed", SEED, "--out", "x.doc",
            ],
            "--to",
        ),
        (
            vec!["generate", "--count", "0", "--seed", SEED],
            "at least 1",
        ),
        (
            vec!["generate", "--count", "5", "--start", "0", "--seed", SEED],
            "1-based",
        ),
    ];
    assert_bad_input_leaves_the_db_alone(dir.path(), &cases);
}

#[test]
fn bad_deals_to_number_exit_2_with_one_line_and_leave_the_db_alone() {
    let dir = TempDir::new().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "number",
                "N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
            ],
            "N holds 12 cards",
        ),
        (
            vec![
                "number",
                "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543X",
            ],
            "column 69",
        ),
        (
            vec![
                "number",
                "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432..",
            ],
            "fifth suit",
        ),
        (
            vec![
                "number",
                "N:AA.KQJT98765432.. .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
            ],
            "twice",
        ),
        (
            vec![
                "number",
                "N:AKQJT98765432... AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432",
            ],
            "held by both",
        ),
        (
            vec!["number", "0EDCCBA0976F2DA4945D8E9DCZ"],
            "not a PBN deal string",
        ),
        (
            vec!["number", "0EDCCBA0976F2DA4945D8E9DC"],
            "not a PBN deal string",
        ),
        (vec!["number", "00000000000000000000000000"], "13"),
        (vec!["number", "no-such-file.pbn"], "not a PBN deal string"),
    ];
    assert_bad_input_leaves_the_db_alone(dir.path(), &cases);
    // A bad PBN file names the line.
    std::fs::write(
        dir.path().join("bad.pbn"),
        "[Board \"1\"]\n[Deal \"N:AKQ\"]\n",
    )
    .unwrap();
    dealdex(dir.path())
        .args(["number", "bad.pbn"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.pbn: line 2"));
}

#[test]
fn bad_deal_and_lookup_input_exits_2_with_one_line_and_leaves_the_db_alone() {
    let dir = TempDir::new().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["deal", "0"], "out of range"),
        (
            vec!["deal", "53644737765488792839237440001"],
            "1..=53644737765488792839237440000",
        ),
        (vec!["deal", "5..3"], "below the start"),
        (vec!["deal", "12x"], "column 3"),
        (vec!["lookup", "0"], "out of range"),
        (vec!["lookup", "N:AKQ"], "expected 4"),
        (vec!["deal", "1", "--scheme", "nope"], "nope"),
    ];
    assert_bad_input_leaves_the_db_alone(dir.path(), &cases);
}

/// Runs `cmd` with stdout a pipe, reads its first line, closes the pipe and waits: the
/// process must notice the closed pipe (EPIPE) and end by itself within `limit`, with exit
/// status 0 and nothing on stderr. Gives the first line.
fn first_line_then_closed_pipe(mut cmd: std::process::Command, limit: Duration) -> String {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    {
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut first).unwrap();
        // Dropped here: the read end of the pipe closes.
    }
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running {limit:?} after its reader closed the pipe (EPIPE ignored?); \
                 stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    // Killed by SIGPIPE would be no exit code at all; an error exit names the pipe.
    assert_eq!(
        out.status.code(),
        Some(0),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    first
}

#[test]
fn closed_pipe_ends_quietly() {
    let dir = TempDir::new().unwrap();
    // A trillion deals: at a million deals a second, 11 days if the closed pipe went
    // unnoticed, so ending within 30 s means the writer stopped on EPIPE.
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_dealdex"));
    cmd.current_dir(dir.path()).args([
        "generate",
        "--count",
        "1000000000000",
        "--seed",
        SEED,
        "--format",
        "hex",
        "--out",
        "-",
        "--no-db",
        "-q",
    ]);
    let (derived, _) = common::derived_stream();
    let first = first_line_then_closed_pipe(cmd, Duration::from_secs(30));
    assert_eq!(first, format!("{}\n", derived[0].hex_line));
    // Nothing else was made: no database, no file.
    assert_eq!(common::entries(dir.path()), Vec::<String>::new());
    // `deal` over a range as long: the same.
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_dealdex"));
    cmd.current_dir(dir.path())
        .args(["deal", "1..1000000000000", "--format", "hex"]);
    let first = first_line_then_closed_pipe(cmd, Duration::from_secs(30));
    assert_eq!(first, "E4E4E4E4E4E4E4E4E4E4E4E4E4\n");
}

#[test]
fn help_on_every_subcommand() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("generate"));
    for sub in ["generate", "number", "deal", "lookup"] {
        dealdex(dir.path())
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(
                predicate::str::contains("Usage: dealdex ")
                    .and(predicate::str::contains("Examples").or(predicate::str::contains("--db"))),
            );
    }
}

/// `--version` names the processor and the paths the hot loops take (every benchmark row
/// records it); `DEALDEX_PORTABLE=1` forces the portable ones, and the same seed gives the
/// same deals on either path.
#[test]
fn version_names_the_cpu_and_the_portable_paths_deal_the_same() {
    let dir = TempDir::new().unwrap();
    let version = |portable: bool| {
        let mut cmd = dealdex(dir.path());
        if portable {
            cmd.env("DEALDEX_PORTABLE", "1");
        } else {
            cmd.env_remove("DEALDEX_PORTABLE");
        }
        let out = cmd.arg("--version").output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let native = version(false);
    assert!(
        native.contains("cpu: ") && native.contains("shuffle select: "),
        "{native}"
    );
    let portable = version(true);
    assert!(
        portable
            .contains("shuffle select: portable; unrank: portable, forced by DEALDEX_PORTABLE=1"),
        "{portable}"
    );
    let script = dir.path().join("s.dlr");
    std::fs::write(
        &script,
        "produce 40\ncondition hcp(north) >= 12\naction printoneline\n",
    )
    .unwrap();
    let deals = |portable: &str| {
        let out = dealdex(dir.path())
            .env("DEALDEX_PORTABLE", portable)
            .args(["dealer", "-s", "7", "-v"])
            .arg(&script)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(deals("0"), deals("1"));
    let args = [
        "generate", "--count", "1000", "--seed", SEED, "--format", "hex", "--out", "-", "-q",
        "--no-db",
    ];
    let numbered = |portable: &str| {
        let out = dealdex(dir.path())
            .env("DEALDEX_PORTABLE", portable)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    assert_eq!(numbered("0"), numbered("1"));
}
