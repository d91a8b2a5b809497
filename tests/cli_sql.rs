//! `dealdex sql`: read-only SQL with the feature functions and view.

use std::path::Path;

use assert_cmd::Command;
use dealdex::{Seat, Seed};
use predicates::prelude::*;
use tempfile::TempDir;

fn dealdex(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dealdex"));
    c.current_dir(dir);
    c
}

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
        .stderr(predicate::str::contains("readonly"));
    dealdex(dir.path())
        .args(["sql", "SELECT hcp(key, 'Q') FROM deals"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("seat \"Q\""));
}
