//! End-to-end tests of Big Deal generation (`generate --bigdeal-*`, SQUAREDEAL.md §1) and of
//! SquareDeal events (`dealdex event …`, SQUAREDEAL.md §2–§4) on the published World Bridge
//! Games 2024 and Winter Championships 2025 files.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use dealdex::formats::{self, Board};
use dealdex::{DealIndex, Scheme, Store};
use predicates::prelude::*;
use tempfile::TempDir;

fn dealdex(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dealdex"));
    c.current_dir(dir);
    c
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

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
        "--name", "oprr01",
    ]);
    dealdex(dir.path())
        .args(&args)
        .assert()
        .success()
        .stderr(predicate::str::contains("16 new deals"));
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
    assert_eq!(info.scheme, "bigdeal");
    assert_eq!((info.first_board, info.last_board), (1, 16));
    let boards = store.set_boards("oprr01").unwrap();
    assert_eq!(boards[0], (1, DealIndex::from_deal(&published[0].deal)));
    assert_eq!(
        published[0].deal.number(Scheme::BigDeal),
        dealdex::bigdeal::BigDealStream::new(WIZARD.as_bytes(), &ENTROPY.map(str::as_bytes))
            .next()
            .unwrap()
            + 1
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
