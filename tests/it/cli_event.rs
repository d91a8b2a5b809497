//! End-to-end tests of Big Deal generation (`generate --bigdeal-*`, SQUAREDEAL.md §1) and of
//! SquareDeal events (`dealdex event …`, SQUAREDEAL.md §2–§4) on the published World Bridge
//! Games 2024 and Winter Championships 2025 files.

use std::path::Path;

use dealdex::formats::{self, Board};
use dealdex::{DealIndex, Scheme, Store};
use predicates::prelude::*;
use serde_json::Value;
use tempfile::TempDir;

use crate::common::{dealdex, fixture, json_report};

fn read_boards(path: &Path) -> Vec<Board> {
    let f = formats::by_path(path).unwrap();
    f.read(&std::fs::read(path).unwrap()).unwrap()
}

/// SQUAREDEAL.md §3: WBG 2024 session 1,1 as bigdealx is called by SquareDeal.
const WIZARD: &str = "hrzkVbQb9F0QhgIYEwfBUwKjNHDoGZ";
const ENTROPY: [&str; 3] = ["XMYxVBbJZaWXnJf233CI5MJo7buhPR", "NDMyNzUuOTE=", "original"];
const BOARD_1: &str = "N:AJ65.K82.AK8.J75 8.AQT75.QJT4.Q64 KT2..96532.KT983 Q9743.J9643.7.A2";

fn bigdeal_args() -> Vec<&'static str> {
    let mut a = vec!["generate", "--bigdeal-wizard", WIZARD];
    for e in ENTROPY {
        a.extend(["--bigdeal-entropy", e]);
    }
    a
}

#[test]
fn generate_bigdeal_reproduces_the_worked_example_in_every_format() {
    let dir = TempDir::new().unwrap();
    let mut args = bigdeal_args();
    args.extend([
        "--boards", "1-16", "--out", "s.pbn", "--out", "s.dup", "--out", "s.lin", "--out", "s.hex",
        "--name", "oprr01", "--json",
    ]);
    let (r, _) = json_report(dir.path(), &args);
    assert_eq!(
        (r["deals"].as_u64(), r["new_deals"].as_u64()),
        (Some(16), Some(16))
    );
    assert_eq!(r["set"]["name"], "oprr01");
    let published = read_boards(&fixture("squaredeal-wbg2024/OPRR01.pbn"));
    assert_eq!(published.len(), 16);
    assert_eq!(published[0].deal.to_string(), BOARD_1);
    for f in ["s.pbn", "s.dup", "s.lin", "s.hex"] {
        let got = read_boards(&dir.path().join(f));
        let deals: Vec<_> = got.iter().map(|b| b.deal).collect();
        let want: Vec<_> = published.iter().map(|b| b.deal).collect();
        assert_eq!(deals, want, "{f}");
    }
    let pbn = std::fs::read_to_string(dir.path().join("s.pbn")).unwrap();
    assert!(pbn.contains(&format!("[Deal \"{BOARD_1}\"]")));
    // The set is stored with the Big Deal scheme and no secret.
    let store = Store::open(&dir.path().join("dealdex.db")).unwrap();
    let info = store.set("oprr01").unwrap().unwrap();
    assert_eq!(info.scheme, Scheme::BigDeal);
    assert_eq!((info.first_board, info.last_board), (1, 16));
    let boards = store.set_boards("oprr01").unwrap();
    assert_eq!(boards[0], (1, DealIndex::from_deal(&published[0].deal)));
    assert_eq!(
        published[0].deal.number(Scheme::BigDeal),
        dealdex::bigdeal::BigDealStream::new(WIZARD.as_bytes(), &ENTROPY.map(str::as_bytes))
            .next()
            .unwrap()
    );
}

#[test]
fn generate_bigdeal_numbers_only_label_and_count_and_shards_agree() {
    let dir = TempDir::new().unwrap();
    let run = |extra: &[&str]| {
        let mut args = bigdeal_args();
        args.extend(extra);
        args.extend(["--format", "hex", "--out", "-", "--no-db", "-q"]);
        let out = dealdex(dir.path()).args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let strip = |s: &str| -> Vec<String> { s.lines().map(|l| l[..26].to_string()).collect() };
    let first16 = run(&["--boards", "1-16"]);
    // Boards 17-32 are the same 16 deals with other labels (SQUAREDEAL.md §1).
    let relabelled = run(&["--boards", "17-32"]);
    assert_eq!(strip(&first16), strip(&relabelled));
    assert!(relabelled.lines().next().unwrap().ends_with("-1"));
    let bulk = run(&["--count", "16"]);
    assert_eq!(strip(&first16), strip(&bulk));
    let whole = run(&["--count", "20000"]);
    let a = run(&["--count", "7000"]);
    let b = run(&["--count", "13000", "--start", "7001"]);
    assert_eq!(whole, a + &b);
}

#[test]
fn generate_bigdeal_rejects_mixed_sources() {
    let dir = TempDir::new().unwrap();
    let seed = "00".repeat(32);
    for extra in [
        vec!["--seed", seed.as_str(), "--boards", "1-4"],
        vec!["--where", "hcp(N) > 10", "--boards", "1-4"],
    ] {
        let mut args = bigdeal_args();
        args.extend(&extra);
        args.push("--no-db");
        dealdex(dir.path())
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("cannot be used with"));
    }
    dealdex(dir.path())
        .args([
            "generate",
            "--bigdeal-wizard",
            "w",
            "--boards",
            "1-4",
            "--no-db",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--bigdeal-entropy"));
    assert!(!dir.path().join("dealdex.db").exists());
}

/// A `--boards` range too large for a set held in memory is bad input (it used to panic
/// with a capacity overflow on the Big Deal stream, or run out of memory on a seed).
#[test]
fn generate_bigdeal_refuses_a_set_too_large_for_memory() {
    let dir = TempDir::new().unwrap();
    for range in [
        "18446744073709551615",
        "1-1048577",
        "5-18446744073709551615",
    ] {
        let mut args = bigdeal_args();
        args.extend(["--boards", range, "--out", "s.hex"]);
        let out = dealdex(dir.path()).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{range}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("boards \"{range}\": "))
                && err.contains("boards; a set has at most 1048576 (a bulk run counts deals instead) [--boards; --count for bulk runs]"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let seed = "00".repeat(32);
    dealdex(dir.path())
        .args(["generate", "--seed", &seed, "--boards", "1-1048577", "--out", "s.hex"])
        .assert()
        .code(2)
        .stderr("dealdex: error: boards \"1-1048577\": 1048577 boards; a set has at most 1048576 (a bulk run counts deals instead) [--boards; --count for bulk runs]\n");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

/// A directory where an output file goes (or a missing directory) stops `generate` before
/// anything is stored or written; it used to store the set and write the outputs before it,
/// then fail with exit code 1.
#[test]
fn generate_bigdeal_with_a_directory_in_the_way_changes_nothing() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("d.pbn")).unwrap();
    std::fs::write(d.join("a.hex"), "old\n").unwrap();
    for (out, want) in [
        (
            "d.pbn",
            "dealdex: error: d.pbn: is a directory, not a file; nothing was written or stored\n"
                .to_string(),
        ),
        (
            "no/x.pbn",
            format!(
                "dealdex: error: {}: no is not a directory; nothing was written or stored\n",
                Path::new("no").join("x.pbn").display()
            ),
        ),
    ] {
        for what in [["--boards", "4"], ["--count", "4"]] {
            let mut args = bigdeal_args();
            args.extend(what);
            args.extend(["--out", "a.hex", "--out", out, "--db", "g.db"]);
            let (code, _, err) = run(d, &args);
            assert_eq!(code, 2, "{args:?}");
            assert_eq!(err, want, "{args:?}");
            assert!(!d.join("g.db").exists(), "{args:?}");
            assert_eq!(std::fs::read(d.join("a.hex")).unwrap(), b"old\n");
        }
    }
    // Out of the way, a.hex is replaced whole and keeps no temporary file beside it.
    let mut args = bigdeal_args();
    args.extend(["--boards", "4", "--out", "a.hex", "--no-db"]);
    assert_eq!(run(d, &args).0, 0);
    assert_eq!(
        std::fs::read_to_string(d.join("a.hex"))
            .unwrap()
            .lines()
            .count(),
        4
    );
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.hex", "d.pbn"]);
}

/// Runs dealdex in `dir` and returns (exit code, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = dealdex(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs dealdex in `dir` with `args` and `--json`; returns the exit code, the JSON report on
/// stdout and stderr (the error line of a failed check).
fn json_run(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let mut args = args.to_vec();
    args.push("--json");
    let (code, out, err) = run(dir, &args);
    let report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{out:?}: {e}; {err}"));
    (code, report, err)
}

/// Every file in `dir` with its bytes.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = if p.is_file() {
                std::fs::read(&p).unwrap()
            } else {
                Vec::new()
            };
            (p.file_name().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    v.sort();
    v
}

/// `event new FILE --protocol squaredeal --phase PHASE` (TN `Cup`, DI `DJI`), then `event
/// publish FILE`, in `dir`; both must succeed.
fn published_squaredeal_event(dir: &Path, file: &str, phase: &str) {
    let new = [
        "event",
        "new",
        "--protocol",
        "squaredeal",
        "--name",
        "Cup",
        "--delayed-info",
        "DJI",
        "--phase",
        phase,
        file,
    ];
    for args in [&new[..], &["event", "publish", file]] {
        let (code, _, err) = run(dir, args);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
}

fn new_event(dir: &Path) {
    let (code, _, err) = run(
        dir,
        &[
            "event",
            "new",
            "T.sqd",
            "--name",
            "Test Cup 2026",
            "--delayed-info",
            "DJI close of 2 Jan 2026",
            "--phase",
            "3:1-8,9-16:RR#:Round robin #/3",
            "--phase",
            "1:?:FINAL:Final",
            "--phase",
            "0:2x6:TEAM##:Teams",
            "--protocol",
            "squaredeal",
        ],
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn new_publish_set_value_write_squaredeal_files() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    new_event(d);
    let sqd = std::fs::read_to_string(d.join("T.sqd")).unwrap();
    assert!(sqd.starts_with("# Description file of tournament for program SquareDeal 2.7\n"));
    assert!(sqd.contains("\nTN Test Cup 2026\nDI DJI close of 2 Jan 2026\n"));
    assert!(sqd.contains(
        "\nSN 3:1-8,9-16:RR#:Round robin #/3\nSN 1:?:FINAL:Final\nSN 0:1-6,7-12:TEAM##:Teams\n"
    ));
    assert!(!sqd.contains("KH") && !sqd.contains("DV"));

    // No value before publication: the keys must be committed first.
    let (code, _, err) = run(d, &["event", "set-value", "T.sqd", "1.5"]);
    assert_eq!(code, 2);
    assert!(err.contains("not published yet"), "{err}");

    let (r, _) = json_report(d, &["event", "publish", "T.sqd", "--json"]);
    assert_eq!(r["sessions"], 5);
    let sqk = std::fs::read(d.join("T.sqk")).unwrap();
    let text = String::from_utf8(sqk.clone()).unwrap();
    let lines: Vec<&str> = text.split_inclusive("\r\n").collect();
    assert_eq!(lines.len(), 5); // 1,1 1,2 1,3 2,1 3,0
    assert_eq!(lines.concat(), text);
    for (line, id) in lines.iter().zip(["1,1", "1,2", "1,3", "2,1", "3,0"]) {
        let key = line.strip_prefix(&format!("{id}:")).unwrap().trim_end();
        assert_eq!(key.len(), 60);
        assert!(key.bytes().all(|b| b.is_ascii_alphanumeric()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(d.join("T.sqk"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let sqd = std::fs::read_to_string(d.join("T.sqd")).unwrap();
    let kh = sqd.lines().last().unwrap().strip_prefix("KH ").unwrap();
    use sha2::Digest;
    assert_eq!(kh, hex::encode(sha2::Sha256::digest(&sqk)));
    assert_eq!(r["key_hash"], kh);

    // Publishing twice, or over an existing key file, is refused and changes nothing.
    let before = snapshot(d);
    let (code, _, err) = run(d, &["event", "publish", "T.sqd"]);
    assert_eq!(code, 2);
    assert!(err.contains("already published"), "{err}");
    assert_eq!(snapshot(d), before);

    let (code, out, err) = run(d, &["event", "set-value", "T.sqd", "44,882.13"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("34 34 2c 38 38 32 2e 31 33"), "{out}");
    assert!(out.contains("NDQsODgyLjEz"), "{out}");
    let sqd = std::fs::read_to_string(d.join("T.sqd")).unwrap();
    assert!(sqd.contains("\nDI DJI close of 2 Jan 2026\nDV 44,882.13\n"));
    let before = snapshot(d);
    let (code, _, err) = run(d, &["event", "set-value", "T.sqd", "44882.13"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("; it is replaced only when asked to [--replace]"),
        "{err}"
    );
    assert_eq!(snapshot(d), before);
}

#[test]
fn publish_refuses_to_overwrite_a_key_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    new_event(d);
    std::fs::write(d.join("T.sqk"), "old keys").unwrap();
    let before = snapshot(d);
    let (code, _, err) = run(d, &["event", "publish", "T.sqd"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "dealdex: error: T.sqk: the file exists; refusing to overwrite it"
    );
    assert_eq!(snapshot(d), before);
}

#[test]
fn malformed_description_files_name_the_line() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let kh = "bd4a46bea10ad8d20abd580f6be8869ef7772191ee9f6851cb1ab25df52a573e";
    for (name, text, want) in [
        (
            "sn.sqd",
            "TN x\r\nDI y\r\nSN 17:1-16,17-32:OPRR##:Open\r\nSN 3:20:R16:Round of 16\r\n"
                .to_string(),
            "sn.sqd: line 4: SN: file prefix \"R16\" has no '#' for the session number, but the phase has 3 sessions",
        ),
        (
            "kh.sqd",
            format!("TN x\nDI y\nSN 1:16:A:a\nKH {}Z{}\n", &kh[..10], &kh[11..]),
            "kh.sqd: line 4: KH: 'Z' at column 14 is not a hex digit",
        ),
        (
            "short.sqd",
            "TN x\nDI y\nSN 1:16:A:a\nKH abc\n".to_string(),
            "short.sqd: line 4: KH has 3 hex digits, expected 64",
        ),
    ] {
        std::fs::write(d.join(name), &text).unwrap();
        let before = snapshot(d);
        for args in [
            vec!["event", "publish", name],
            vec!["event", "set-value", name, "1.5"],
        ] {
            let (code, _, err) = run(d, &args);
            assert_eq!(code, 2, "{args:?}");
            assert!(err.contains(want), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1);
            assert_eq!(snapshot(d), before, "{args:?}");
        }
    }
    // Not UTF-8 (Latin-1 é): line, byte offset and column of the byte.
    std::fs::write(d.join("latin1.sqd"), b"TN Caf\xE9\r\nDI y\r\n").unwrap();
    let before = snapshot(d);
    for args in [
        &["event", "publish", "latin1.sqd"][..],
        &["event", "set-value", "latin1.sqd", "1.5"],
        &["event", "make", "latin1.sqd", "--out", "o"],
        &["event", "verify", "latin1.sqd", "."],
    ] {
        let (code, _, err) = run(d, args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(
            err,
            "dealdex: error: latin1.sqd: line 1: byte offset 6, column 7: byte 0xE9 is not UTF-8 text\n",
            "{args:?}"
        );
        assert_eq!(snapshot(d), before, "{args:?}");
    }
    for (phase, want) in [
        ("3:20", "expected nsessions:boards:fileprefix:description"),
        ("3:0-4:R#:r", "boards: \"0-4\""),
        ("3:16:R#:a:b", "may not contain ':'"),
        ("3:16:9R#:r", "must match ^[A-Za-z]"),
        // NxM lists are bounded before they are written out (these aborted out of memory).
        (
            "3:99999999999x1:R#:r",
            "phase \"3:99999999999x1:R#:r\": boards \"99999999999x1\": 99999999999 sessions of 1 boards; at most 10000 sessions, and board numbers stop at 9223372036854775807",
        ),
        (
            "3:5x4611686018427387904:R#:r",
            "boards \"5x4611686018427387904\": 5 sessions of 4611686018427387904 boards; at most 10000 sessions, and board numbers stop at 9223372036854775807",
        ),
        // Within the bounds, the list's own limits apply.
        (
            "3:10000x2000000:R#:r",
            "2000000 boards in a session; at most 1000000",
        ),
    ] {
        let (code, _, err) = run(
            d,
            &[
                "event",
                "new",
                "n.sqd",
                "--name",
                "x",
                "--delayed-info",
                "y",
                "--phase",
                phase,
                "--protocol",
                "squaredeal",
            ],
        );
        assert_eq!(code, 2, "{phase}");
        assert!(err.contains(want), "{phase}: {err}");
        assert!(!d.join("n.sqd").exists());
    }
}

/// A writable copy of a fixture event's .sqd and .sqk in `dir`.
fn copy_event(dir: &Path, fixture_dir: &str, stem: &str) {
    for ext in ["sqd", "sqk"] {
        let name = format!("{stem}.{ext}");
        std::fs::copy(fixture(&format!("{fixture_dir}/{name}")), dir.join(&name)).unwrap();
        let mut perm = std::fs::metadata(dir.join(&name)).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perm.set_readonly(false);
        std::fs::set_permissions(dir.join(&name), perm).unwrap();
    }
}

fn deal_lines(path: &Path) -> Vec<dealdex::Deal> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| format!("N:{l}").parse().unwrap())
        .collect()
}

#[test]
fn make_wbg2024_gives_the_published_deals_files_and_sets() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    copy_event(d, "squaredeal-wbg2024", "WBG2024");
    let (r, _) = json_report(
        d,
        &[
            "event",
            "make",
            "WBG2024.sqd",
            "--keys",
            "WBG2024.sqk",
            "--out",
            "boards",
            "--json",
        ],
    );
    assert_eq!(r["sessions"].as_array().unwrap().len(), 90);
    assert_eq!(r["boards"], 1186);
    assert_eq!(r["files"].as_array().unwrap().len(), 90);
    assert_eq!(r["sets_stored"], 90);
    for name in ["OPRR01", "OPRR02", "MXRR03", "R161", "FIN6"] {
        let ours = read_boards(&d.join(format!("boards/{name}.pbn")));
        let published = read_boards(&fixture(&format!("squaredeal-wbg2024/{name}.pbn")));
        let key = |b: &Board| {
            (
                b.number,
                b.dealer_or_default(),
                b.vulnerability_or_default(),
                b.deal,
            )
        };
        assert_eq!(
            ours.iter().map(key).collect::<Vec<_>>(),
            published.iter().map(key).collect::<Vec<_>>(),
            "{name}"
        );
    }
    // The whole event, sessions in file-name order, is the Big Deal repository's allpbn.
    let mut names: Vec<_> = std::fs::read_dir(d.join("boards"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let all: Vec<_> = names
        .iter()
        .flat_map(|p| read_boards(p).into_iter().map(|b| b.deal))
        .collect();
    assert_eq!(all, deal_lines(&fixture("bigdeal-wbg2024-deals.txt")));
    let store = Store::open(&d.join("dealdex.db")).unwrap();
    let info = store.set("WBG2024/OPRR02").unwrap().unwrap();
    assert_eq!((info.first_board, info.last_board), (17, 32));
    assert_eq!(info.scheme, Scheme::BigDeal);
    assert_eq!(store.deal_count().unwrap(), 1186);
    // Making again stores nothing new.
    let (r, _) = json_report(
        d,
        &[
            "event",
            "make",
            "WBG2024.sqd",
            "--phase",
            "1",
            "--session",
            "2",
            "--out",
            "boards",
            "--json",
        ],
    );
    assert_eq!(r["db"], "dealdex.db");
    assert_eq!(
        (
            r["sets_stored"].as_u64(),
            r["new_deals"].as_u64(),
            r["sets_already_stored"].as_u64()
        ),
        (Some(0), Some(0), Some(1))
    );
    assert_eq!(r["sessions"][0]["set"]["already_stored"], true);
}

#[test]
fn make_with_the_wrong_value_is_allpbn_minusone_and_the_db_refuses_it() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    copy_event(d, "squaredeal-wbg2024", "WBG2024");
    let sqd = std::fs::read_to_string(d.join("WBG2024.sqd")).unwrap();
    std::fs::write(
        d.join("WBG2024.sqd"),
        sqd.replace("DV 43275.91", "DV 43275.90"),
    )
    .unwrap();
    let (code, _, err) = run(
        d,
        &[
            "event",
            "make",
            "WBG2024.sqd",
            "--out",
            "minus",
            "--format",
            "hex",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let mut names: Vec<_> = std::fs::read_dir(d.join("minus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let all: Vec<_> = names
        .iter()
        .flat_map(|p| read_boards(p).into_iter().map(|b| b.deal))
        .collect();
    assert_eq!(
        all,
        deal_lines(&fixture("squaredeal-wbg2024/allpbn.minusone"))
    );
    // Back to the true value: the sets stored with the wrong one are refused, nothing written.
    std::fs::write(d.join("WBG2024.sqd"), &sqd).unwrap();
    let (code, _, err) = run(d, &["event", "make", "WBG2024.sqd", "--out", "true"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("set \"WBG2024/OPRR01\" already exists with other deals"),
        "{err}"
    );
    assert!(!d.join("true").exists());
}

#[test]
fn make_refuses_before_kh_and_dv_and_with_other_keys() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    new_event(d);
    std::fs::write(d.join("T.sqk"), "1,1:abc\r\n").unwrap();
    let args = ["event", "make", "T.sqd", "--out", "out"];
    let (code, _, err) = run(d, &args);
    assert_eq!(code, 2);
    assert!(err.contains("T.sqd: the event has no KH line"), "{err}");
    std::fs::remove_file(d.join("T.sqk")).unwrap();
    assert_eq!(run(d, &["event", "publish", "T.sqd"]).0, 0);
    let (code, _, err) = run(d, &args);
    assert_eq!(code, 2);
    assert!(err.contains("T.sqd: the event has no DV line"), "{err}");
    assert_eq!(run(d, &["event", "set-value", "T.sqd", "1234.56"]).0, 0);
    // Keys that do not hash to KH.
    let good = std::fs::read_to_string(d.join("T.sqk")).unwrap();
    let changed = good.replacen("1,2:", "1,2:X", 1);
    std::fs::write(d.join("other.sqk"), &changed).unwrap();
    let (code, _, err) = run(
        d,
        &[
            "event",
            "make",
            "T.sqd",
            "--keys",
            "other.sqk",
            "--out",
            "out",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("other.sqk: the keys hash to"), "{err}");
    assert!(err.contains("these are not the published keys"), "{err}");
    // A key file without session 1,3 (whose hash is then KH): the session is named.
    let missing: String = good
        .split_inclusive("\r\n")
        .filter(|l| !l.starts_with("1,3:"))
        .collect();
    std::fs::write(d.join("missing.sqk"), &missing).unwrap();
    use sha2::Digest;
    let sqd = std::fs::read_to_string(d.join("T.sqd")).unwrap();
    let kh = sqd
        .lines()
        .last()
        .unwrap()
        .strip_prefix("KH ")
        .unwrap()
        .to_string();
    let sqd2 = sqd.replace(&kh, &hex::encode(sha2::Sha256::digest(missing.as_bytes())));
    std::fs::write(d.join("M.sqd"), sqd2).unwrap();
    let (code, _, err) = run(
        d,
        &[
            "event",
            "make",
            "M.sqd",
            "--keys",
            "missing.sqk",
            "--out",
            "out",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("missing.sqk: the key file has no key for session 1,3 (RR3)"),
        "{err}"
    );
    // `?` and variable phases need their options when asked for explicitly.
    let (code, _, err) = run(
        d,
        &["event", "make", "T.sqd", "--phase", "2", "--out", "out"],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("phase 2 (FINAL) has ? boards: give the number of boards [--boards N]"),
        "{err}"
    );
    let (code, _, err) = run(
        d,
        &["event", "make", "T.sqd", "--phase", "3", "--out", "out"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("give the session [--session S]"), "{err}");
    assert!(!d.join("out").exists());
    assert!(!d.join("dealdex.db").exists());
}

#[test]
fn verify_wbg2024_published_sessions_pass() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let src = fixture("squaredeal-wbg2024");
    let (r, _) = json_report(
        d,
        &[
            "event",
            "verify",
            src.join("WBG2024.sqd").to_str().unwrap(),
            "--keys",
            src.join("WBG2024.sqk").to_str().unwrap(),
            "--published",
            src.join("WBG2024.sqd").to_str().unwrap(),
            src.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(r["key_hash"]["status"], "key_file");
    assert_eq!(
        r["key_hash"]["key_hash"],
        "bd4a46bea10ad8d20abd580f6be8869ef7772191ee9f6851cb1ab25df52a573e"
    );
    assert_eq!(r["published"]["differences"], Value::Array(vec![]));
    for (session, name, n) in [
        ("1,1", "OPRR01", 16),
        ("1,2", "OPRR02", 16),
        ("3,3", "MXRR03", 10),
        ("4,1", "R161", 20),
        ("7,6", "FIN6", 16),
    ] {
        let f = file_check(&r, name);
        let s = &f["session"];
        assert_eq!(format!("{},{}", s["phase"], s["first"]), session, "{f}");
        assert_eq!(
            (f["boards"].as_u64(), f["matches"].as_u64()),
            (Some(n), Some(n)),
            "{f}"
        );
        assert_eq!(f["status"], "verified", "{f}");
    }
    assert_eq!(
        (
            r["sessions_verified"].as_u64(),
            r["sessions"].as_u64(),
            r["sessions_without_file"].as_u64()
        ),
        (Some(5), Some(90), Some(85))
    );
    assert_eq!(r["problems"], Value::Array(vec![]));
}

/// The check of the file named `name` (without extension) in a verify report.
fn file_check<'r>(r: &'r Value, name: &str) -> &'r Value {
    r["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["session"]["name"] == name)
        .unwrap_or_else(|| panic!("no file {name} in {r}"))
}

#[test]
fn verify_wbg2024_with_the_wrong_value_reports_mismatches() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    copy_event(d, "squaredeal-wbg2024", "WBG2024");
    let sqd = std::fs::read_to_string(d.join("WBG2024.sqd")).unwrap();
    std::fs::write(d.join("W90.sqd"), sqd.replace("DV 43275.91", "DV 43275.90")).unwrap();
    let src = fixture("squaredeal-wbg2024");
    let (code, out, err) = run(
        d,
        &[
            "event",
            "verify",
            "W90.sqd",
            "--keys",
            "WBG2024.sqk",
            "--published",
            "WBG2024.sqd",
            src.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    // KH covers only the keys: it still verifies, the deals do not.
    assert!(out.contains("KH: ok"));
    assert!(out.contains("published copy: TN, DI, SN and KH unchanged"));
    let row = out.lines().find(|l| l.starts_with("1,1 OPRR01")).unwrap();
    assert!(row.ends_with("16        0  board 1"), "{row}");
    assert!(out.contains(
        "OPRR01.pbn: board 1: the file has N:AJ65.K82.AK8.J75 8.AQT75.QJT4.Q64 KT2..96532.KT983 Q9743.J9643.7.A2, the event makes N:"
    ));
    assert!(out.contains("FAILED: 5 of 5 files do not match the event"));
    assert!(out.contains("another DV or other keys"));
    assert_eq!(
        err.trim(),
        "dealdex: error: verification failed: 5 of 5 files do not match the event"
    );
}

#[test]
fn verify_wc2025_every_session_file_passes() {
    let dir = TempDir::new().unwrap();
    let src = fixture("squaredeal-wc2025");
    let (r, _) = json_report(
        dir.path(),
        &[
            "event",
            "verify",
            src.join("WC2025.sqd").to_str().unwrap(),
            src.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(r["delayed_value"], "44,882.13");
    assert_eq!(r["value_base64"], "NDQsODgyLjEz");
    // 63 files, all of sessions: 45 of one session, 18 joined.
    assert_eq!(r["files"].as_array().unwrap().len(), 63);
    assert_eq!(
        (
            r["session_files"].as_u64(),
            r["joined_files"].as_u64(),
            r["boards_compared"].as_u64()
        ),
        (Some(63), Some(18), Some(1147))
    );
    assert_eq!(
        (
            r["sessions_verified"].as_u64(),
            r["sessions"].as_u64(),
            r["sessions_without_file"].as_u64()
        ),
        (Some(45), Some(45), Some(0))
    );
    // The ? phase: BAMFIN sessions take their 15 boards from the files.
    for (name, n) in [("BAMFIN2", 15), ("SWISS01-03", 30)] {
        let f = file_check(&r, name);
        assert_eq!(
            (f["boards"].as_u64(), f["matches"].as_u64()),
            (Some(n), Some(n)),
            "{f}"
        );
        assert_eq!(f["status"], "verified", "{f}");
    }
    let joined = &file_check(&r, "SWISS01-03")["session"];
    assert_eq!(
        (joined["first"].as_u64(), joined["last"].as_u64()),
        (Some(1), Some(3))
    );
}

#[test]
fn verify_accepts_a_key_file_with_lf_line_ends() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let crlf = std::fs::read_to_string(fixture("squaredeal-wbg2024/WBG2024.sqk")).unwrap();
    std::fs::write(d.join("lf.sqk"), crlf.replace("\r\n", "\n")).unwrap();
    let src = fixture("squaredeal-wbg2024");
    let (r, _) = json_report(
        d,
        &[
            "event",
            "verify",
            src.join("WBG2024.sqd").to_str().unwrap(),
            "--keys",
            "lf.sqk",
            src.join("OPRR01.pbn").to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(r["key_hash"]["status"], "key_file", "{r}");
    assert_eq!(r["key_hash"]["crlf_form"], true, "{r}");
    assert_eq!(r["problems"], Value::Array(vec![]));
}

/// In `d`: [`new_event`]'s event, published (copied to `published.sqd`), its value set,
/// and its boards made into `boards/` by four `event make` runs; checks the files made.
fn make_published_event(d: &Path) {
    new_event(d);
    assert_eq!(run(d, &["event", "publish", "T.sqd"]).0, 0);
    std::fs::copy(d.join("T.sqd"), d.join("published.sqd")).unwrap();
    assert_eq!(run(d, &["event", "set-value", "T.sqd", "44,882.13"]).0, 0);
    for args in [
        vec!["event", "make", "T.sqd", "--out", "boards"],
        vec![
            "event", "make", "T.sqd", "--phase", "2", "--boards", "12", "--out", "boards",
            "--format", "pbn", "--format", "dup",
        ],
        vec![
            "event",
            "make",
            "T.sqd",
            "--phase",
            "3",
            "--session",
            "1-2",
            "--out",
            "boards",
        ],
        vec![
            "event",
            "make",
            "T.sqd",
            "--phase",
            "1",
            "--session",
            "2",
            "--reserve",
            "--out",
            "boards",
            "--format",
            "lin",
        ],
    ] {
        let (code, _, err) = run(d, &args);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    let mut names: Vec<String> = std::fs::read_dir(d.join("boards"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "FINAL.dup",
            "FINAL.pbn",
            "RR1.pbn",
            "RR2.pbn",
            "RR2reserve.lin",
            "RR3.pbn",
            "TEAM01.pbn",
            "TEAM02.pbn"
        ]
    );
    assert_eq!(read_boards(&d.join("boards/RR2.pbn"))[0].number, Some(9));
    assert_eq!(read_boards(&d.join("boards/TEAM02.pbn"))[0].number, Some(7));
    // Variable-phase sessions differ from each other (ses<S> in the entropy), reserve sets
    // from their sessions.
    assert_ne!(
        read_boards(&d.join("boards/TEAM01.pbn"))[0].deal,
        read_boards(&d.join("boards/TEAM02.pbn"))[0].deal
    );
    assert_ne!(
        read_boards(&d.join("boards/RR2.pbn"))[0].deal,
        read_boards(&d.join("boards/RR2reserve.lin"))[0].deal
    );
}

/// `event verify` (JSON) of the event `sqd` with the keys `keys` against `published.sqd`
/// and the files in `boards/` of `d`.
fn verify_published(d: &Path, sqd: &str, keys: &str) -> (i32, Value, String) {
    json_run(
        d,
        &[
            "event",
            "verify",
            sqd,
            "--keys",
            keys,
            "--published",
            "published.sqd",
            "boards",
        ],
    )
}

/// The files of a verify report that differ from the event.
fn differing_files(r: &Value) -> usize {
    r["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] == "differs")
        .count()
}

/// Writes `T.sqk` of `d` as `name` with one character of session 1,1's key changed.
fn write_changed_key(d: &Path, name: &str) {
    let keys = std::fs::read_to_string(d.join("T.sqk")).unwrap();
    let at = keys.find("1,1:").unwrap() + 4;
    let c = keys.as_bytes()[at];
    let mut changed = keys.clone().into_bytes();
    changed[at] = if c == b'a' { b'b' } else { b'a' };
    std::fs::write(d.join(name), &changed).unwrap();
}

/// Swaps North's and East's hands of the board at `index` of the PBN file `path`, rewriting
/// it: the deal string before and after.
fn swap_north_and_east(path: &Path, index: usize) -> (String, String) {
    let mut boards = read_boards(path);
    let deal = boards[index].deal;
    let text = deal.to_string();
    let hands: Vec<&str> = text[2..].split(' ').collect();
    let (n, e) = (hands[0], hands[1]);
    let swapped = format!("N:{e} {n} {} {}", hands[2], hands[3]);
    boards[index].deal = swapped.parse().unwrap();
    assert_ne!(boards[index].deal, deal);
    let bytes = formats::write_set(&formats::Pbn, &boards, &Default::default()).unwrap();
    std::fs::write(path, bytes).unwrap();
    (text, swapped)
}

#[test]
fn round_trip_new_publish_set_value_make_verify() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    make_published_event(d);
    let (code, r, err) = verify_published(d, "T.sqd", "T.sqk");
    assert_eq!(code, 0, "{r}{err}");
    assert_eq!(r["files"].as_array().unwrap().len(), 8);
    assert_eq!(
        (
            r["session_files"].as_u64(),
            r["joined_files"].as_u64(),
            r["boards_compared"].as_u64()
        ),
        (Some(8), Some(0), Some(68))
    );

    // A changed key: KH fails, and its session's deals.
    write_changed_key(d, "changed.sqk");
    let (code, r, _) = verify_published(d, "T.sqd", "changed.sqk");
    assert_eq!(code, 1);
    assert_eq!(r["key_hash"]["status"], "failed");
    let problem = r["key_hash"]["problem"].as_str().unwrap();
    assert!(problem.contains("SHA-256 of changed.sqk is"), "{problem}");
    assert!(
        problem.contains("these are not the published keys"),
        "{problem}"
    );
    let rr1 = file_check(&r, "RR1");
    assert_eq!(rr1["status"], "differs", "{rr1}");
    assert_eq!(rr1["mismatch"]["board"], 1, "{rr1}");
    assert_eq!(differing_files(&r), 1);

    // A changed value: every board differs.
    let sqd = std::fs::read_to_string(d.join("T.sqd")).unwrap();
    std::fs::write(d.join("V.sqd"), sqd.replace("DV 44,882.13", "DV 44882.13")).unwrap();
    let (code, r, _) = verify_published(d, "V.sqd", "T.sqk");
    assert_eq!(code, 1);
    assert_eq!(differing_files(&r), 8);

    // A changed TN: the published copy says so.
    std::fs::write(
        d.join("N.sqd"),
        sqd.replace("TN Test Cup 2026", "TN Test Cup 2027"),
    )
    .unwrap();
    let (code, r, _) = verify_published(d, "N.sqd", "T.sqk");
    assert_eq!(code, 1);
    assert_eq!(
        r["published"]["differences"][0],
        "TN differs from the published copy: published Some(\"Test Cup 2026\"), now Some(\"Test Cup 2027\")"
    );

    // A changed deal: North and East hands swapped on board 5 of RR3.
    let (text, swapped) = swap_north_and_east(&d.join("boards/RR3.pbn"), 4);
    let (code, r, _) = verify_published(d, "T.sqd", "T.sqk");
    assert_eq!(code, 1);
    let rr3 = file_check(&r, "RR3");
    assert_eq!(
        (rr3["boards"].as_u64(), rr3["matches"].as_u64()),
        (Some(8), Some(7)),
        "{rr3}"
    );
    assert_eq!(rr3["mismatch"]["board"], 5, "{rr3}");
    assert_eq!(rr3["mismatch"]["found"], swapped.as_str());
    assert_eq!(rr3["mismatch"]["expected"], text.as_str());
}

/// A run that would make more boards than fit in memory is refused before anything is made
/// (`--session 1-4294967295` of a variable phase used to take every gigabyte there was).
#[test]
fn make_refuses_a_run_too_large_for_memory() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    published_squaredeal_event(d, "V.sqd", "0:1000:V##:Open");
    assert_eq!(run(d, &["event", "set-value", "V.sqd", "12"]).0, 0);
    let before = snapshot(d);
    for sessions in ["1-4294967295", "1-1001"] {
        let (code, _, err) = run(
            d,
            &[
                "event",
                "make",
                "V.sqd",
                "--phase",
                "1",
                "--session",
                sessions,
                "--out",
                "o",
                "--db",
                "e.db",
            ],
        );
        assert_eq!(code, 2, "{err}");
        assert_eq!(
            err,
            format!(
                "dealdex: error: phase 1 (V##) sessions {sessions}: this run would make more than 1000000 boards, which are made in memory before anything is written; make fewer sessions at a time (one phase, or some of its sessions) [--phase, --session]\n"
            )
        );
        assert_eq!(snapshot(d), before, "nothing written");
    }
    // A run within the limit is made, also from far into a variable phase.
    let (code, _, err) = run(
        d,
        &[
            "event",
            "make",
            "V.sqd",
            "--phase",
            "1",
            "--session",
            "999-1000",
            "--out",
            "o",
            "--no-db",
            "-q",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
}

/// Something other than a file where `make` writes stops it before anything is written or
/// stored (a directory named like a session's file used to fail after the sets were stored
/// and the files before it written, with exit code 1; a file as --out said "File exists").
#[test]
fn make_with_a_directory_or_file_in_the_way_changes_nothing() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    published_squaredeal_event(d, "E.sqd", "2:3:R##:Open");
    assert_eq!(run(d, &["event", "set-value", "E.sqd", "12"]).0, 0);
    std::fs::write(d.join("out"), "not a directory").unwrap();
    std::fs::create_dir_all(d.join("o/R02.pbn")).unwrap();
    let before = snapshot(d);
    let make = |out: &str| run(d, &["event", "make", "E.sqd", "--out", out, "--db", "e.db"]);
    let (code, _, err) = make("out");
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "dealdex: error: out: exists and is not a directory; nothing was made [--out]\n"
    );
    let (code, _, err) = make("o");
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "dealdex: error: {}: exists and is not a file; nothing was made\n",
            Path::new("o").join("R02.pbn").display()
        )
    );
    // The db was created by opening it, but holds no set; no file was written.
    let store = Store::open(&d.join("e.db")).unwrap();
    assert!(store.set("E/R01").unwrap().is_none());
    let after: Vec<_> = snapshot(d)
        .into_iter()
        .filter(|(n, _)| !n.starts_with("e.db"))
        .collect();
    assert_eq!(after, before);
    assert_eq!(std::fs::read_dir(d.join("o")).unwrap().count(), 1);
    // Out of the way, the same command makes both sessions.
    std::fs::remove_dir(d.join("o/R02.pbn")).unwrap();
    let (code, _, err) = make("o");
    assert_eq!(code, 0, "{err}");
    assert!(store.set("E/R02").unwrap().is_some());
    assert!(d.join("o/R01.pbn").is_file() && d.join("o/R02.pbn").is_file());
}

/// Joined file names of a variable phase are bounded: `V01-4294967295` used to make verify
/// list four billion sessions (out of memory), and a joined file of sessions with a million
/// boards each made every one of their deals before comparing.
#[test]
fn verify_bounds_joined_names_of_a_variable_phase() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let seed = "11".repeat(32);
    published_squaredeal_event(d, "V.sqd", "0:1000000:V##:Open");
    assert_eq!(run(d, &["event", "set-value", "V.sqd", "12"]).0, 0);
    let generate = [
        "generate", "--seed", &seed, "--boards", "3", "--out", "x.pbn", "--no-db",
    ];
    assert_eq!(run(d, &generate).0, 0);
    std::fs::copy(d.join("x.pbn"), d.join("V01-4294967295.pbn")).unwrap();
    let (code, out, _) = run(d, &["event", "verify", "V.sqd", "V01-4294967295.pbn"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("FAILED: no hand record given matches a session of the event"),
        "{out}"
    );
    std::fs::rename(d.join("V01-4294967295.pbn"), d.join("V01-02.pbn")).unwrap();
    let (code, out, _) = run(d, &["event", "verify", "V.sqd", "V01-02.pbn"]);
    assert_eq!(code, 1);
    let row = out.lines().find(|l| l.contains("V01-02.pbn")).unwrap();
    assert!(
        row.ends_with("the event has more than 1000000 boards for these sessions, more than one file is compared with"),
        "{out}"
    );
}

/// `set-value` and `make` replace files through a temporary file of dealdex's own: a file
/// of the user's named `<file>.tmp` used to be overwritten and then renamed away.
#[test]
fn replacing_a_file_leaves_the_users_tmp_files_alone() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    published_squaredeal_event(d, "E.sqd", "1:2:R:Open");
    std::fs::create_dir(d.join("o")).unwrap();
    for f in ["E.sqd.tmp", "o/R.pbn.tmp"] {
        std::fs::write(d.join(f), "mine\n").unwrap();
    }
    assert_eq!(run(d, &["event", "set-value", "E.sqd", "12"]).0, 0);
    assert_eq!(
        run(d, &["event", "make", "E.sqd", "--out", "o", "--no-db"]).0,
        0
    );
    assert!(
        std::fs::read_to_string(d.join("E.sqd"))
            .unwrap()
            .contains("\nDV 12\n")
    );
    assert!(d.join("o/R.pbn").is_file());
    for f in ["E.sqd.tmp", "o/R.pbn.tmp"] {
        assert_eq!(std::fs::read_to_string(d.join(f)).unwrap(), "mine\n", "{f}");
    }
}

#[test]
fn verify_bad_input_exits_2() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    copy_event(d, "squaredeal-wbg2024", "WBG2024");
    std::fs::write(d.join("OPRR01.pbn"), "[Deal \"N:AKQ\"]\n").unwrap();
    let (code, _, err) = run(d, &["event", "verify", "WBG2024.sqd", "OPRR01.pbn"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("dealdex: error: OPRR01.pbn: "), "{err}");
    let (code, _, err) = run(
        d,
        &["event", "verify", "WBG2024.sqd", "--keys", "none.sqk", "."],
    );
    assert_eq!(code, 2);
    assert!(err.contains("none.sqk: "), "{err}");
    std::fs::write(d.join("bad.sqk"), "1,1:abc\r\n1,x:def\r\n").unwrap();
    let (code, _, err) = run(
        d,
        &["event", "verify", "WBG2024.sqd", "--keys", "bad.sqk", "."],
    );
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "dealdex: error: bad.sqk: line 2: \"1,x\" is not a session P,S (phase and session numbers, no padding)"
    );
}

/// Every file named on the command line must match the event: a good session file beside an
/// unrelated one fails naming it (exit 1), and a file that does not exist is exit 2.
#[test]
fn verify_fails_on_a_named_file_that_is_no_session_and_on_a_missing_one() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let src = fixture("squaredeal-wbg2024");
    std::fs::write(d.join("notes.pbn"), "[Board \"1\"]\n[Deal \"N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n").unwrap();
    let sqd = src.join("WBG2024.sqd");
    let sqk = src.join("WBG2024.sqk");
    let good = src.join("OPRR01.pbn");
    let args = |extra: &str| {
        vec![
            "event".to_owned(),
            "verify".to_owned(),
            sqd.display().to_string(),
            "--keys".to_owned(),
            sqk.display().to_string(),
            good.display().to_string(),
            extra.to_owned(),
        ]
    };
    let a = args("notes.pbn");
    let (code, out, err) = run(d, &a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("notes.pbn: not a file of any session"),
        "{out}"
    );
    assert!(!out.contains("verified: every file"), "{out}");
    let a = args("nosuch.pbn");
    let (code, out, err) = run(d, &a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("nosuch.pbn"), "{err}");
}

/// Hand records are read as every command reads deal files: a session's PBN saved as `.txt`
/// is told by its content and verifies; `--from` names the format, and the wrong one is bad
/// input (exit 2) naming the file.
#[test]
fn verify_reads_a_hand_record_by_its_content_or_from() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let src = fixture("squaredeal-wbg2024");
    std::fs::copy(src.join("OPRR01.pbn"), d.join("OPRR01.txt")).unwrap();
    let sqd = src.join("WBG2024.sqd");
    let sqk = src.join("WBG2024.sqk");
    let (sqd, sqk) = (sqd.to_str().unwrap(), sqk.to_str().unwrap());
    let (code, r, err) = json_run(d, &["event", "verify", sqd, "--keys", sqk, "OPRR01.txt"]);
    assert_eq!(code, 0, "{r}{err}");
    assert_eq!(file_check(&r, "OPRR01")["status"], "verified", "{r}");
    let (code, r, err) = json_run(
        d,
        &[
            "event",
            "verify",
            sqd,
            "--keys",
            sqk,
            "--from",
            "pbn",
            "OPRR01.txt",
        ],
    );
    assert_eq!(code, 0, "{r}{err}");
    let (code, _, err) = run(
        d,
        &[
            "event",
            "verify",
            sqd,
            "--keys",
            sqk,
            "--from",
            "dup",
            "OPRR01.txt",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("OPRR01.txt"), "{err}");
}
