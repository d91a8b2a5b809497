//! End-to-end tests of the format commands: generate into several formats, convert between
//! them, import (one transaction per file, rejected files change nothing) and export.

use std::path::Path;

use dealdex::formats::{self, DealFormat};
use dealdex::{Deal, DealIndex, Seed, Store};
use predicates::prelude::*;
use tempfile::TempDir;

use crate::common::{self, dealdex};

const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

fn deals_of(path: &Path) -> Vec<Deal> {
    let format = formats::by_path(path).unwrap();
    let data = std::fs::read(path).unwrap();
    format
        .read(&data)
        .unwrap()
        .into_iter()
        .map(|b| b.deal)
        .collect()
}

fn seed_deals(range: std::ops::RangeInclusive<u64>) -> Vec<Deal> {
    let seed: Seed = SEED.parse().unwrap();
    range.map(|b| seed.board_deal(b)).collect()
}

const MACHINE_AND_TEXT: [&str; 14] = [
    "pbn", "dup", "dlm", "bri", "dge", "lin", "csv", "ber", "bhg", "rzd", "cds", "hrf", "hex",
    "json",
];

#[test]
fn generate_writes_every_format_and_they_agree() {
    let dir = TempDir::new().unwrap();
    let mut args = vec![
        "generate", "--boards", "1-24", "--seed", SEED, "--no-db", "-q",
    ];
    let names: Vec<String> = MACHINE_AND_TEXT
        .iter()
        .map(|e| format!("set.{e}"))
        .collect();
    for n in &names {
        args.push("--out");
        args.push(n);
    }
    dealdex(dir.path()).args(&args).assert().success();
    let expected = seed_deals(1..=24);
    for n in &names {
        assert_eq!(deals_of(&dir.path().join(n)), expected, "{n}");
    }
}

#[test]
fn convert_between_formats_keeps_deals_and_boards() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-32", "--seed", SEED, "--no-db", "-q", "--out", "a.pbn",
        ])
        .assert()
        .success();
    let expected = seed_deals(1..=32);
    // PBN → DUP → BRI → DGE → DLM → LIN → PBN, each step checked.
    let chain = ["a.dup", "a.bri", "a.dge", "a.dlm", "a.lin", "b.pbn"];
    let mut from = "a.pbn".to_string();
    for to in chain {
        dealdex(dir.path())
            .args(["convert", &from, to])
            .assert()
            .success();
        assert_eq!(deals_of(&dir.path().join(to)), expected, "{from} -> {to}");
        from = to.to_string();
    }
    // Board numbers, dealer and vulnerability survive PBN → LIN → PBN.
    let data = std::fs::read(dir.path().join("b.pbn")).unwrap();
    let boards = formats::Pbn.read(&data).unwrap();
    for (j, b) in boards.iter().enumerate() {
        let n = j as u64 + 1;
        assert_eq!(b.number, Some(n));
        assert_eq!(b.dealer_or_default(), dealdex::board_dealer(n));
        assert_eq!(
            b.vulnerability_or_default(),
            dealdex::board_vulnerability(n)
        );
    }
}

#[test]
fn machine_limits_error_or_split() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-120", "--seed", SEED, "--out", "big.dup", "--db", "x.db",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--split"));
    assert!(!dir.path().join("big.dup").exists());
    // Nothing was stored either.
    assert_eq!(
        Store::open(&dir.path().join("x.db"))
            .unwrap()
            .deal_count()
            .unwrap(),
        0
    );
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-120", "--seed", SEED, "--out", "big.dup", "--split",
            "--no-db", "-q",
        ])
        .assert()
        .success();
    let expected = seed_deals(1..=120);
    assert_eq!(deals_of(&dir.path().join("big-1.dup")), expected[..96]);
    assert_eq!(deals_of(&dir.path().join("big-2.dup")), expected[96..]);
}

#[test]
fn import_counts_and_rejects_whole_files() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-16", "--seed", SEED, "--no-db", "-q", "--out", "s.pbn",
            "--out", "s.dlm",
        ])
        .assert()
        .success();
    dealdex(dir.path())
        .args(["import", "s.pbn", "--set", "club", "--db", "i.db"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "16 boards read (pbn), 16 new, 0 duplicates",
        ));
    dealdex(dir.path())
        .args(["import", "s.dlm", "--db", "i.db"])
        .assert()
        .success()
        .stderr(predicate::str::contains("0 new, 16 duplicates"));
    let db = dir.path().join("i.db");
    let before = Store::open(&db).unwrap().deal_count().unwrap();
    // A DLM line with a wrong checksum rejects the whole file.
    let dlm = std::fs::read_to_string(dir.path().join("s.dlm")).unwrap();
    let line = dlm.lines().find(|l| l.starts_with("Board 03=")).unwrap();
    let mut broken = line.to_string();
    let last = broken.pop().unwrap();
    broken.push(if last == '0' { '1' } else { '0' });
    std::fs::write(dir.path().join("bad.dlm"), dlm.replace(line, &broken)).unwrap();
    // A truncated DUP record, too.
    let other: Vec<u8> = {
        dealdex(dir.path())
            .args([
                "generate",
                "--boards",
                "1-4",
                "--seed",
                &"ab".repeat(32),
                "--no-db",
                "-q",
                "--out",
                "o.dup",
            ])
            .assert()
            .success();
        let mut d = std::fs::read(dir.path().join("o.dup")).unwrap();
        d.truncate(156 * 3 + 100);
        d
    };
    std::fs::write(dir.path().join("short.dup"), other).unwrap();
    dealdex(dir.path())
        .args(["import", "bad.dlm", "short.dup", "--db", "i.db"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.dlm: rejected"))
        .stderr(predicate::str::contains("line"))
        .stderr(predicate::str::contains("short.dup: rejected"))
        .stderr(predicate::str::contains("156"));
    let store = Store::open(&db).unwrap();
    assert_eq!(store.deal_count().unwrap(), before);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn export_equals_generate_output() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-32", "--seed", SEED, "--name", "ev", "--db", "e.db", "-q",
            "--out", "g.dup", "--out", "g.dlm", "--out", "g.pbn",
        ])
        .assert()
        .success();
    for ext in ["dup", "dlm", "pbn"] {
        let out = format!("x.{ext}");
        dealdex(dir.path())
            .args(["export", "--set", "ev", "--db", "e.db", "--out", &out])
            .assert()
            .success();
        assert_eq!(
            std::fs::read(dir.path().join(&out)).unwrap(),
            std::fs::read(dir.path().join(format!("g.{ext}"))).unwrap(),
            "{ext}"
        );
    }
    dealdex(dir.path())
        .args(["export", "--set", "nope", "--db", "e.db", "--out", "n.pbn"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no set named"));
    // An output in a missing directory, or a directory as the output, is bad input found
    // before anything is read or written.
    std::fs::create_dir(dir.path().join("d.pbn")).unwrap();
    for (args, want) in [
        (
            [
                "export",
                "--set",
                "ev",
                "--db",
                "e.db",
                "--out",
                "nodir/x.pbn",
            ]
            .as_slice(),
            "nodir is not a directory",
        ),
        (
            ["export", "--set", "ev", "--db", "e.db", "--out", "d.pbn"].as_slice(),
            "is a directory, not a file",
        ),
        (
            ["convert", "g.pbn", "nodir/x.dup"].as_slice(),
            "nodir is not a directory",
        ),
    ] {
        dealdex(dir.path())
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(want));
    }
    assert!(!dir.path().join("nodir").exists());
    let first = DealIndex::from_deal(&seed_deals(1..=1)[0]);
    assert!(
        Store::open(&dir.path().join("e.db"))
            .unwrap()
            .contains(&first)
            .unwrap()
    );
}

#[test]
fn bad_files_name_the_place() {
    let dir = TempDir::new().unwrap();
    let cases: [(&str, &[u8], &str); 4] = [
        ("a.pbn", b"[Board \"1\"]\n[Deal \"N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543\"]\n", "line 2"),
        ("b.pbn", b"[Board \"1\"]\n[Deal \"N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543Z\"]\n", "line 2"),
        ("c.lin", b"qx|o1|rh||ah|Board 1|sv|0|pg||\n", "md"),
        ("d.dup", b"12345", "record 1"),
    ];
    for (name, data, needle) in cases {
        std::fs::write(dir.path().join(name), data).unwrap();
        dealdex(dir.path())
            .args(["convert", name, "out.pbn"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(name))
            .stderr(predicate::str::contains(needle));
    }
}

/// `import --json`: one report object on stdout, a status per file, counts that add up.
#[test]
fn import_json_reports_each_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    dealdex(d)
        .args([
            "generate", "--boards", "1-8", "--seed", SEED, "--out", "a.pbn", "--no-db",
        ])
        .assert()
        .success();
    std::fs::write(d.join("bad.pbn"), "[Board \"1\"]\n[Deal \"N:AKQ.xyz\"]\n").unwrap();
    let out = dealdex(d)
        .args(["import", "a.pbn", "bad.pbn", "a.pbn", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a rejected file: exit 2");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert_eq!(files[0]["status"], "imported");
    assert_eq!(files[0]["format"], "pbn");
    assert_eq!(files[0]["boards"], 8);
    assert_eq!(files[0]["new_deals"], 8);
    assert_eq!(files[1]["status"], "rejected");
    let reason = files[1]["reason"].as_str().unwrap();
    assert!(reason.starts_with("line 2, column "), "{reason}");
    assert_eq!(files[2]["new_deals"], 0, "the same deals again");
    assert_eq!(report["boards_read"], 16);
    assert_eq!(report["new_deals"], 8);
    assert_eq!(report["duplicates"], 8);
    assert_eq!(report["rejected"], 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("boards read"),
        "with --json the per-file lines do not go to stderr: {err}"
    );
}

/// `export --json`: the files go out as before, then one report object on stdout.
#[test]
fn export_json_reports_the_files_written() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    dealdex(d)
        .args([
            "generate", "--boards", "1-120", "--seed", SEED, "--out", "big.pbn",
        ])
        .assert()
        .success();
    let out = dealdex(d)
        .args([
            "export", "--set", "big", "--out", "big.dup", "--out", "big2.pbn", "--split", "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["set"], "big");
    assert_eq!(report["boards"], 120);
    assert_eq!(report["solved"], 0);
    let files = report["files"].as_array().unwrap();
    let summary: Vec<(String, String, u64)> = files
        .iter()
        .map(|f| {
            (
                f["path"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_owned(),
                f["format"].as_str().unwrap().to_owned(),
                f["boards"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("big-1.dup".to_owned(), "dup".to_owned(), 96),
            ("big-2.dup".to_owned(), "dup".to_owned(), 24),
            ("big2.pbn".to_owned(), "pbn".to_owned(), 120),
        ]
    );
    for f in files {
        let path = Path::new(f["path"].as_str().unwrap());
        let path = if path.is_absolute() {
            path.to_owned()
        } else {
            d.join(path)
        };
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            f["bytes"].as_u64().unwrap()
        );
    }
    assert_eq!(deals_of(&d.join("big2.pbn")), seed_deals(1..=120));
}

/// Requests on what is stored (export, records, solve of a set) never create or migrate a
/// database: on an SQLite file of someone else's tables, or an empty file, they fail with
/// exit 2 and leave it byte for byte as it was. A storing command refuses a foreign file too
/// unless `--migrate-foreign` is given.
#[test]
fn failed_requests_leave_foreign_and_empty_files_as_they_were() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let foreign = d.join("foreign.db");
    {
        let conn = rusqlite::Connection::open(&foreign).unwrap();
        conn.execute_batch("CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES ('mine');")
            .unwrap();
    }
    std::fs::write(d.join("empty.db"), b"").unwrap();
    let pbn = d.join("b.pbn");
    dealdex(d)
        .args([
            "generate",
            "--boards",
            "1-2",
            "--seed",
            &"5".repeat(64),
            "--no-db",
        ])
        .args(["--out", pbn.to_str().unwrap()])
        .assert()
        .success();
    for db in ["foreign.db", "empty.db"] {
        let before = std::fs::read(d.join(db)).unwrap();
        for args in [
            vec!["export", "--set", "x", "--out", "o.pbn"],
            vec!["records", "--set", "x", "--out", "r.html"],
            vec!["records", "--set", "x", "--out", "r.html", "--solve"],
            vec!["solve", "--set", "x"],
        ] {
            let out = dealdex(d).args(&args).args(["--db", db]).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{db} {args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("not a dealdex database"),
                "{db} {args:?}: {err}"
            );
            assert_eq!(std::fs::read(d.join(db)).unwrap(), before, "{db} {args:?}");
        }
    }
    // Storing into the foreign file: refused unless asked for, then beside its own table.
    let before = std::fs::read(&foreign).unwrap();
    dealdex(d)
        .args(["import", pbn.to_str().unwrap(), "--db", "foreign.db"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--migrate-foreign"));
    assert_eq!(std::fs::read(&foreign).unwrap(), before);
    dealdex(d)
        .args([
            "import",
            pbn.to_str().unwrap(),
            "--db",
            "foreign.db",
            "--migrate-foreign",
        ])
        .assert()
        .success();
    let conn = rusqlite::Connection::open(&foreign).unwrap();
    let mine: String = conn
        .query_row("SELECT x FROM notes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mine, "mine");
    assert_eq!(
        dealdex::ReadOnlyStore::open(&foreign)
            .unwrap()
            .deal_count()
            .unwrap(),
        2
    );
    // An empty file is a new database to a storing command.
    dealdex(d)
        .args(["import", pbn.to_str().unwrap(), "--db", "empty.db"])
        .assert()
        .success();
}

/// One flag vocabulary (issue 28): the input format is `--from` and the output format `--to`
/// (alias `--format`) on every command; the old spellings still work, hidden.
#[test]
fn input_is_from_and_output_is_to_on_every_command_old_spellings_kept() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let gen_ok = |args: &[&str]| {
        let out = dealdex(d).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", common::stderr(&out));
        out.stdout
    };
    gen_ok(&[
        "generate",
        "--boards",
        "1-4",
        "--seed",
        &"1".repeat(64),
        "--to",
        "hex",
    ]);
    gen_ok(&[
        "generate",
        "--boards",
        "1-4",
        "--seed",
        &"1".repeat(64),
        "--out",
        "b.txt",
        "--to",
        "hex",
    ]);
    // Input: --from. `--format` names an output everywhere (issue 38): a command that only
    // reads refuses it, pointing at --from.
    gen_ok(&["import", "--from", "hex", "b.txt", "--db", "i.db"]);
    gen_ok(&["number", "--from", "hex", "b.txt"]);
    gen_ok(&["records", "--from", "hex", "b.txt", "--out", "r.html"]);
    for command in ["import", "number", "records"] {
        dealdex(d)
            .args([command, "--format", "hex", "b.txt"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "a similar argument exists: '--from'",
            ));
    }
    for flag in ["--from", "--input-format"] {
        gen_ok(&["solve", flag, "hex", "b.txt", "--no-db", "--to", "json"]);
    }
    // Output: --to, --format and -f give the same bytes.
    let outs: Vec<Vec<u8>> = ["--to", "--format", "-f"]
        .iter()
        .map(|flag| gen_ok(&["deal", "1..3", flag, "hex"]))
        .collect();
    assert!(outs.iter().all(|o| *o == outs[0] && !o.is_empty()));
    gen_ok(&["convert", "b.txt", "c.out", "--from", "hex", "--to", "json"]);
    gen_ok(&[
        "convert", "b.txt", "d.out", "--from", "hex", "--format", "json",
    ]);
    assert_eq!(
        std::fs::read(d.join("c.out")).unwrap(),
        std::fs::read(d.join("d.out")).unwrap()
    );
    // Every command's help lists every registered format, Parquet included.
    let help = |args: &[&str]| String::from_utf8(gen_ok(args)).unwrap();
    for args in [
        &["convert", "--help"][..],
        &["import", "--help"],
        &["export", "--help"],
        &["generate", "--help"],
        &["query", "--help"],
        &["records", "--help"],
        &["event", "make", "--help"],
        &["solve", "--help"],
        &["number", "--help"],
    ] {
        let text = help(args);
        for f in formats::registry() {
            assert!(
                text.contains(f.info().name),
                "{args:?} does not list {}",
                f.info().name
            );
        }
    }
}

/// Defect (issue: convert's DUP trailer): `convert` to DUP writes Big Deal's trailer with the
/// number of boards in the set (`YN1  0 10 ` for boards 11–20, FORMATS.md §5), byte for byte
/// Big Deal's own file of the same boards, whether the input is a PBN (boards numbered) or a
/// Gödel file read with `--first-board`.
#[test]
fn convert_to_dup_writes_big_deals_trailer_with_the_board_count() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for (prefix, input, first) in [
        ("bd11-20", "bd11-20.pbn", None),
        ("bd3-10", "bd3-10.pbn", None),
        ("bd29-56", "bd29-56.goe", Some("29")),
    ] {
        let fixture = common::fixture(&format!("bigdeal-ranges/{input}"));
        let out = format!("{prefix}.dup");
        let mut args = vec!["convert", fixture.to_str().unwrap(), &out];
        if let Some(f) = first {
            args.extend(["--first-board", f]);
        }
        let run = dealdex(d).args(&args).output().unwrap();
        assert!(run.status.success(), "{args:?}: {}", common::stderr(&run));
        let ours = std::fs::read(d.join(&out)).unwrap();
        let theirs =
            std::fs::read(common::fixture(&format!("bigdeal-ranges/{prefix}.dup"))).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&ours[ours.len() - 10..]),
            String::from_utf8_lossy(&theirs[theirs.len() - 10..]),
            "{input}: the trailer"
        );
        assert!(ours == theirs, "{input}: not Big Deal's {prefix}.dup");
    }
}

/// Defect (issue: silent renumbering): boards 11–20 converted to a format without board
/// numbers (hex, oneline) would read back as 1–10 without a word. `convert` says so on
/// standard error, naming the first board and `--first-board 11`, and reading the file back
/// with `--first-board 11` gives boards 11–20 again. Boards 1..n need no warning.
#[test]
fn convert_warns_when_the_output_drops_board_numbers_and_first_board_restores_them() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let pbn = common::fixture("bigdeal-ranges/bd11-20.pbn");
    let want: Vec<u64> = (11..=20).collect();
    for ext in ["hex", "oneline"] {
        let out = format!("x.{ext}");
        let run = dealdex(d)
            .args(["convert", pbn.to_str().unwrap(), &out])
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", common::stderr(&run));
        let err = common::stderr(&run);
        assert!(
            err.contains("warning")
                && err.contains(&out)
                && err.contains("board 11")
                && err.contains("the first board given as 11"),
            "{ext}: {err}"
        );
        let back = format!("back-{ext}.pbn");
        dealdex(d)
            .args(["convert", &out, &back, "--first-board", "11"])
            .assert()
            .success();
        let data = std::fs::read(d.join(&back)).unwrap();
        let numbers: Vec<u64> = formats::Pbn
            .read(&data)
            .unwrap()
            .iter()
            .map(|b| b.number.unwrap())
            .collect();
        assert_eq!(numbers, want, "{ext}");
        // The deals, dealers and vulnerabilities are those of the original boards.
        let original = formats::Pbn.read(&std::fs::read(&pbn).unwrap()).unwrap();
        let again = formats::Pbn.read(&data).unwrap();
        for (a, b) in original.iter().zip(&again) {
            assert_eq!(
                (a.deal, a.dealer_or_default(), a.vulnerability_or_default()),
                (b.deal, b.dealer_or_default(), b.vulnerability_or_default()),
                "{ext}"
            );
        }
    }
    // Boards 1..n read back as they are: no warning. A format with board numbers: none.
    dealdex(d)
        .args(["convert", "back-hex.pbn", "y.pbn"])
        .assert()
        .success()
        .stderr(predicate::str::contains("first board").not());
    dealdex(d)
        .args(["convert", "x.hex", "ones.hex"])
        .assert()
        .success()
        .stderr(predicate::str::contains("first board").not());
    // JSON: the warning is in the report.
    let (report, _) =
        common::json_report(d, &["convert", pbn.to_str().unwrap(), "z.hex", "--json"]);
    let notes = report["output_warnings"]
        .as_array()
        .expect("output_warnings");
    assert_eq!(notes.len(), 1, "{report}");
    assert!(
        notes[0]
            .as_str()
            .unwrap()
            .contains("the first board given as 11"),
        "{report}"
    );
}

/// Defect (issue: saturated board numbers): `convert --first-board` past the largest board
/// number dealdex stores (2^63 − 1, what `import` takes) is refused with exit 2, naming the
/// flag and the maximum, and writes nothing; it used to number every board u64::MAX.
#[test]
fn convert_refuses_a_first_board_past_the_maximum_as_import_does() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let goe = common::fixture("bigdeal-ranges/bd11-20.goe");
    for command in ["convert", "import"] {
        let mut args = vec![command, goe.to_str().unwrap()];
        if command == "convert" {
            args.push("out.pbn");
        } else {
            args.extend(["--db", "x.db"]);
        }
        for big in ["18446744073709551600", "9223372036854775808"] {
            let first = format!("--first-board={big}");
            let mut a = args.clone();
            a.push(&first);
            dealdex(d).args(&a).assert().code(2).stderr(
                predicate::str::contains("--first-board")
                    .and(predicate::str::contains("9223372036854775807")),
            );
        }
        assert!(!d.join("out.pbn").exists(), "{command}");
    }
    // The maximum itself is taken for the first of the file's ten boards only when the last
    // stays within it (issue 50: boards past it were written, which import refuses).
    for (first, ok) in [
        ("9223372036854775798", true),
        ("9223372036854775799", false),
    ] {
        let run = dealdex(d)
            .args([
                "convert",
                goe.to_str().unwrap(),
                "max.pbn",
                "--first-board",
                first,
            ])
            .assert();
        match ok {
            true => {
                run.success();
            }
            false => {
                run.code(2);
            }
        }
    }
}

/// Defect (issue: PBN → DLM → PBN lost the event): DLM's Headline carries the set's event
/// (FORMATS.md §7): `convert` writes the PBN's `[Event]` there and reads it back as every
/// board's `[Event]`; `--event` still names it when given.
#[test]
fn pbn_to_dlm_and_back_keeps_the_event() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    dealdex(d)
        .args([
            "generate",
            "--boards",
            "1-4",
            "--seed",
            SEED,
            "--no-db",
            "-q",
            "--out",
            "a.pbn",
            "--event",
            "Club night",
        ])
        .assert()
        .success();
    let events = |name: &str| -> Vec<String> {
        let text = std::fs::read_to_string(d.join(name)).unwrap();
        text.lines()
            .filter(|l| l.starts_with("[Event "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(events("a.pbn"), vec!["[Event \"Club night\"]"; 4]);
    dealdex(d)
        .args(["convert", "a.pbn", "a.dlm"])
        .assert()
        .success();
    let dlm = std::fs::read_to_string(d.join("a.dlm")).unwrap();
    assert!(dlm.contains("\nHeadline=Club night\n"), "{dlm}");
    dealdex(d)
        .args(["convert", "a.dlm", "b.pbn"])
        .assert()
        .success();
    assert_eq!(events("b.pbn"), vec!["[Event \"Club night\"]"; 4]);
    assert_eq!(deals_of(&d.join("b.pbn")), seed_deals(1..=4));
    dealdex(d)
        .args(["convert", "a.pbn", "c.dlm", "--event", "Cup"])
        .assert()
        .success();
    let dlm = std::fs::read_to_string(d.join("c.dlm")).unwrap();
    assert!(dlm.contains("\nHeadline=Cup\n"), "{dlm}");
}

/// `convert -` reads standard input, its format told from its content (hex lines here) or
/// named with `--from`; the deals are those of the same file converted by path.
#[test]
fn convert_reads_standard_input() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let deals = seed_deals(1..=3);
    let text: String = deals
        .iter()
        .map(|deal| format!("{}\n", DealIndex::from_deal(deal)))
        .collect();
    dealdex(d)
        .args(["convert", "-", "told.pbn"])
        .write_stdin(text.clone())
        .assert()
        .success();
    assert_eq!(deals_of(&d.join("told.pbn")), deals);
    dealdex(d)
        .args(["convert", "-", "named.pbn", "--from", "hex"])
        .write_stdin(text)
        .assert()
        .success();
    assert_eq!(deals_of(&d.join("named.pbn")), deals);
    // What no format reads is refused, standard input named.
    dealdex(d)
        .args(["convert", "-", "bad.pbn", "--from", "hex"])
        .write_stdin("not a deal\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<stdin>: line 1"));
    assert!(!d.join("bad.pbn").exists());
}

/// Every command that reads a deal file takes the same `--from` and `--first-board` (issue
/// 51 item 4): a hex file under a name that says nothing, numbered from board 5, reads the
/// same through convert (which now takes `-f` as export does), number, stats and lead.
#[test]
fn every_reading_command_takes_from_and_first_board() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let deals = seed_deals(1..=3);
    let hex: String = deals
        .iter()
        .map(|deal| format!("{}\n", DealIndex::from_deal(deal)))
        .collect();
    // `.dat` names no deal format: only --from says it.
    std::fs::write(d.join("deals.dat"), &hex).unwrap();
    let from = ["--from", "hex", "--first-board", "5"];
    dealdex(d)
        .args(["convert", "deals.dat", "out.txt", "-f", "pbn"])
        .args(from)
        .assert()
        .success();
    let pbn = std::fs::read_to_string(d.join("out.txt")).unwrap();
    assert!(
        pbn.contains("[Board \"5\"]") && pbn.contains("[Board \"7\"]"),
        "{pbn}"
    );
    dealdex(d)
        .args(["number", "deals.dat"])
        .args(from)
        .assert()
        .success()
        .stdout(predicate::str::contains("7 "));
    dealdex(d)
        .args(["stats", "deals.dat", "--json"])
        .args(from)
        .assert()
        .success()
        .stdout(predicate::str::contains("\"deals\":3"));
    // Without --from the file is refused by its name, naming the flag that reads it.
    let out = dealdex(d).args(["stats", "deals.dat"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
}

/// `deal` and `solve` write every registry format (issue 51 item 4): `deal 1..32 --to dup`
/// is a 32-board DUP file of deals 1..32 as boards 1..32; `solve --to lin` writes the solved
/// boards as LIN; a board limit is refused with nothing written.
#[test]
fn deal_and_solve_write_every_registry_format() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    dealdex(d)
        .args(["deal", "1..32", "--to", "dup", "--out", "first.dup"])
        .assert()
        .success();
    let boards = formats::by_name("dup")
        .unwrap()
        .read_numbered(
            &std::fs::read(d.join("first.dup")).unwrap(),
            &formats::ReadOptions::default(),
        )
        .unwrap()
        .boards;
    assert_eq!(boards.len(), 32);
    for (k, b) in (1u128..).zip(&boards) {
        assert_eq!(
            b.deal,
            Deal::from_number(k, dealdex::Scheme::Pavlicek).unwrap()
        );
        assert_eq!(b.number, Some(k as u64));
    }
    let out = dealdex(d)
        .args(["deal", "1..100", "--to", "dup", "--out", "big.dup"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    assert!(!d.join("big.dup").exists());
    let hex = DealIndex::from_deal(&boards[0].deal).to_string();
    let lin = dealdex(d)
        .args(["solve", &hex, "--no-db", "--to", "lin", "-q"])
        .output()
        .unwrap();
    assert!(lin.status.success(), "{}", common::stderr(&lin));
    let back = formats::by_name("lin").unwrap().read(&lin.stdout).unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].deal, boards[0].deal);
}
