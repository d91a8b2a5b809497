//! `dealdex query`, `dealdex stats` and `generate --where` end to end.

use std::path::Path;

use assert_cmd::Command;
use dealdex::features::{Shape, hcp};
use dealdex::query::Query;
use dealdex::{Seat, Seed};
use predicates::prelude::*;
use tempfile::TempDir;

fn dealdex(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dealdex"));
    c.current_dir(dir);
    c
}

const SEED: &str = "5151515151515151515151515151515151515151515151515151515151515151";

#[test]
fn query_counts_and_lists_what_a_rust_filter_finds() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args([
            "generate", "--count", "5000", "--seed", SEED, "--db", "q.db", "-q",
        ])
        .assert()
        .success();
    let seed: Seed = SEED.parse().unwrap();
    let deals: Vec<dealdex::Deal> = (1..=5000).map(|k| seed.board_deal(k)).collect();
    for expr in [
        "hcp(N) >= 15",
        "balanced(S) and hcp(NS) in 20..26",
        "shape(E) = 4432 or len(W, hearts) >= 6",
    ] {
        let q = Query::parse(expr).unwrap();
        let want = deals.iter().filter(|d| q.matches(d)).count();
        assert!(want > 0, "{expr}");
        dealdex(dir.path())
            .args(["query", expr, "--count", "--db", "q.db"])
            .assert()
            .success()
            .stdout(format!("{want}\n"));
        let out = dealdex(dir.path())
            .args(["query", expr, "--db", "q.db", "--format", "hex"])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap().lines().count(),
            want,
            "{expr}"
        );
    }
    // A direct check of one feature through the whole stack.
    let n15 = deals
        .iter()
        .filter(|d| hcp(d.hand(Seat::North)) >= 15)
        .count();
    dealdex(dir.path())
        .args(["query", "hcp(north) >= 15", "--count", "--db", "q.db"])
        .assert()
        .success()
        .stdout(format!("{n15}\n"));
    dealdex(dir.path())
        .args(["query", "hcp(N) >= 15", "--explain"])
        .assert()
        .success()
        .stdout(predicate::str::contains("hcp_n >= ?1"));
}

#[test]
fn bad_queries_exit_2_with_the_column() {
    let dir = TempDir::new().unwrap();
    for (expr, needle) in [
        ("hcp(X) >= 20", "column 5"),
        ("foo(N) > 1", "column 1"),
        ("hcp(N) and 3", "column"),
        ("(hcp(N) > 3", "column 1"),
        ("balanced(N) > 2", "column"),
    ] {
        dealdex(dir.path())
            .args(["query", expr, "--count"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(needle));
        dealdex(dir.path())
            .args([
                "generate", "--count", "5", "--where", expr, "--seed", SEED, "--no-db", "--out",
                "-",
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--where"));
    }
}

#[test]
fn generate_where_keeps_drawing_and_is_reproducible() {
    let dir = TempDir::new().unwrap();
    let args = [
        "generate",
        "--count",
        "300",
        "--where",
        "hcp(N) >= 18 and balanced(N)",
        "--seed",
        SEED,
        "--no-db",
        "--out",
        "-",
        "--format",
        "pbn",
    ];
    let one = dealdex(dir.path())
        .env("RAYON_NUM_THREADS", "1")
        .args(args)
        .output()
        .unwrap();
    let two = dealdex(dir.path())
        .env("RAYON_NUM_THREADS", "2")
        .args(args)
        .output()
        .unwrap();
    assert!(one.status.success());
    assert_eq!(one.stdout, two.stdout);
    assert!(String::from_utf8_lossy(&one.stderr).contains("drew "));
    let boards = dealdex::formats::DealFormat::read(&dealdex::formats::Pbn, &one.stdout).unwrap();
    assert_eq!(boards.len(), 300);
    // The first 300 matching boards of the stream, in order.
    let seed: Seed = SEED.parse().unwrap();
    let want: Vec<dealdex::Deal> = (1..)
        .map(|k| seed.board_deal(k))
        .filter(|d| hcp(d.hand(Seat::North)) >= 18 && Shape::of(d.hand(Seat::North)).is_balanced())
        .take(300)
        .collect();
    let got: Vec<dealdex::Deal> = boards.into_iter().map(|b| b.deal).collect();
    assert_eq!(got, want);
}

#[test]
fn stats_passes_a_random_set_and_fails_a_biased_one() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args([
            "generate",
            "--boards",
            "1-2000",
            "--seed",
            SEED,
            "--name",
            "fair",
            "--db",
            "s.db",
            "-q",
            "--out",
            "/dev/null",
            "--format",
            "hex",
        ])
        .assert()
        .success();
    dealdex(dir.path())
        .args([
            "stats", "--set", "fair", "--db", "s.db", "--plot", "fair.svg",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("passes").and(predicate::str::contains("fails").not()));
    assert!(
        std::fs::read_to_string(dir.path().join("fair.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    // Every deal with the ♠A in North.
    let seed: Seed = SEED.parse().unwrap();
    let biased: String = (1..)
        .map(|k| seed.board_deal(k))
        .filter(|d| d.seat_of(dealdex::Card::from_index(0).unwrap()) == Seat::North)
        .take(2000)
        .map(|d| format!("{}\n", dealdex::DealIndex::from_deal(&d)))
        .collect();
    std::fs::write(dir.path().join("biased.hex"), biased).unwrap();
    dealdex(dir.path())
        .args(["stats", "biased.hex", "--json"])
        .assert()
        .success()
        .stdout(predicate::str::is_match("\"passes\":\\s*false").unwrap());
}
