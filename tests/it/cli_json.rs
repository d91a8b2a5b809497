//! `--json` reports of `query`, `lookup`, `sql`, `solve` and `stats` (issue 12), and the
//! query, lookup and stats workflows called as a library.

use std::path::Path;

use dealdex::ErrorKind;
use dealdex::workflow::lookup::{self, LookupJob};
use dealdex::workflow::pipeline::DealSource;
use dealdex::workflow::query::{self, QueryJob, QueryMode};
use dealdex::workflow::stats::{self, StatsJob};
use dealdex::{Classify, Deal, DealIndex, ErrorClass, Scheme, Seed, Store};
use serde_json::Value;
use tempfile::TempDir;

use crate::common::{dealdex, json_report};

const SEED: &str = "2b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfe";

/// Four 13-card suits: every table entry is 0 or 13, par is a grand slam.
const SOLID: &str = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";

/// A database in `dir` holding set "club" (boards 1-16 of SEED).
fn club(dir: &Path) {
    dealdex(dir)
        .args([
            "generate", "--boards", "1-16", "--seed", SEED, "--name", "club", "--no-db",
        ])
        .args(["--out", "club.pbn"])
        .assert()
        .success();
    dealdex(dir)
        .args(["import", "club.pbn", "--set", "club"])
        .assert()
        .success();
}

#[test]
fn query_json_counts_finds_and_explains() {
    let dir = TempDir::new().unwrap();
    club(dir.path());
    let (count, rest) = json_report(dir.path(), &["query", "hcp(N) >= 0", "--count", "--json"]);
    assert!(
        rest.is_empty(),
        "--count --json prints only the report: {rest:?}"
    );
    assert_eq!(count["mode"], "count");
    assert_eq!(count["count"], 16);
    assert_eq!(count["expr"], "hcp(N) >= 0");

    let (find, deals) = json_report(
        dir.path(),
        &[
            "query",
            "hcp(N) >= 0",
            "--set",
            "club",
            "--limit",
            "5",
            "--json",
        ],
    );
    assert_eq!(find["mode"], "find");
    assert_eq!(find["count"], 5);
    assert_eq!(find["format"], "hex");
    assert_eq!(find["set"], "club");
    assert_eq!(deals.len(), 5, "the deals precede the report");
    let bytes: usize = deals.iter().map(|l| l.len() + 1).sum();
    assert_eq!(find["bytes"], bytes as u64);

    let (explain, sql) = json_report(
        dir.path(),
        &["query", "hcp(N) >= 25", "--count", "--explain", "--json"],
    );
    assert_eq!(explain["mode"], "explain");
    assert!(sql.join("\n").contains("SELECT"), "{sql:?}");

    // A bad expression is still exit 2 with the column.
    let out = dealdex(dir.path())
        .args(["query", "hcp(N) >=", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn lookup_json_gives_sets_and_numbers_as_strings() {
    let dir = TempDir::new().unwrap();
    club(dir.path());
    let seed: Seed = SEED.parse().unwrap();
    let deal = seed.board_deal(3);
    let index = DealIndex::from_deal(&deal).to_string();
    let (r, rest) = json_report(dir.path(), &["lookup", &index, "--json"]);
    assert!(rest.is_empty());
    assert_eq!(r["stored"], true);
    assert_eq!(r["index"], index.as_str());
    assert_eq!(r["deal"], deal.to_string());
    assert_eq!(r["number"], deal.number(Scheme::Pavlicek).to_string());
    assert_eq!(r["boards"][0]["set"], "club");
    assert_eq!(r["boards"][0]["board"], 3);
    assert!(r["dd"].is_null(), "not solved yet");

    let (r, _) = json_report(dir.path(), &["lookup", SOLID, "--json"]);
    assert_eq!(r["stored"], false);
    assert_eq!(r["number"], "1", "a number is a string");
}

#[test]
fn sql_json_gives_columns_and_typed_rows() {
    let dir = TempDir::new().unwrap();
    club(dir.path());
    let (r, rest) = json_report(
        dir.path(),
        &[
            "sql",
            "SELECT board, hex(deal) AS k, deal, NULL AS n, 0.5 AS x FROM set_boards ORDER BY board LIMIT 2",
            "--json",
        ],
    );
    assert!(rest.is_empty());
    assert_eq!(
        r["columns"],
        serde_json::json!(["board", "k", "deal", "n", "x"])
    );
    let rows = r["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][0], 1);
    assert_eq!(
        rows[0][1], rows[0][2],
        "a BLOB is upper-case hex, as hex() gives"
    );
    assert!(rows[0][3].is_null());
    assert_eq!(rows[0][4], 0.5);
    // Refused statements are still bad input.
    let out = dealdex(dir.path())
        .args(["sql", "DELETE FROM deals", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn solve_json_reports_the_run_after_the_lines() {
    let dir = TempDir::new().unwrap();
    let (r, lines) = json_report(
        dir.path(),
        &["solve", SOLID, "--format", "json", "--no-db", "--json"],
    );
    assert_eq!(
        (r["deals"].as_u64(), r["solved"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(r["stored"], 0);
    assert_eq!(lines.len(), 1, "one solved deal line before the report");
    let line: Value = serde_json::from_str(&lines[0]).unwrap();
    // Without --format, --json makes the tables JSON lines too.
    let (_, plain) = json_report(dir.path(), &["solve", SOLID, "--no-db", "--json"]);
    assert_eq!(plain, lines);
    assert_eq!(line["tricks"]["N"]["S"], 13);
    assert_eq!(line["tricks"]["N"]["NT"], 0);
    assert_eq!(line["tricks"]["W"]["C"], 13);
    assert!(!line["par"]["contracts"].as_array().unwrap().is_empty());
}

#[test]
fn stats_json_is_one_object() {
    let dir = TempDir::new().unwrap();
    club(dir.path());
    let out = dealdex(dir.path())
        .args(["stats", "--set", "club", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    // The whole of stdout is one (pretty-printed) object.
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["deals"], 16);
}

#[test]
fn workflows_called_as_a_library_report_what_they_did() {
    let seed: Seed = SEED.parse().unwrap();
    let deals: Vec<Deal> = (1..=200).map(|k| seed.board_deal(k)).collect();
    let keys: Vec<DealIndex> = deals.iter().map(DealIndex::from_deal).collect();
    let mut store = Store::open_in_memory().unwrap();
    store.insert_deals(&keys).unwrap();

    // Query: a count equal to a direct count over the deals.
    let expected = deals
        .iter()
        .filter(|d| dealdex::features::hcp(d.hand(dealdex::Seat::North)) >= 12)
        .count() as u64;
    let job = QueryJob::new("hcp(N) >= 12", QueryMode::Count).unwrap();
    let r = query::run(&job, Some(&store), &mut Vec::new()).unwrap();
    assert_eq!(r.count, expected);
    // Find writes exactly the matching deals.
    let format = dealdex::formats::by_name("hex").unwrap();
    let job = QueryJob::new(
        "hcp(N) >= 12",
        QueryMode::Find {
            format,
            limit: None,
        },
    )
    .unwrap();
    let mut out = Vec::new();
    let r = query::run(&job, Some(&store), &mut out).unwrap();
    assert_eq!(r.count, expected);
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count() as u64, expected);
    // A bad expression is a typed, bad-input error naming the column.
    let e = QueryJob::new("hcp(N) >= ", QueryMode::Count).err().unwrap();
    assert!(matches!(e.kind(), ErrorKind::Query(_)));
    assert_eq!(e.class(), ErrorClass::BadInput);

    // Lookup: stored, in no set, unsolved.
    let r = lookup::run(
        &LookupJob {
            deal: deals[7],
            scheme: Scheme::Andrews,
            database: "d.db".into(),
        },
        Some(&store),
    )
    .unwrap();
    assert!(r.stored && r.boards.is_empty() && r.dd.is_none());
    assert_eq!(r.number, deals[7].number(Scheme::Andrews).to_string());

    // Stats: the deal count, and a missing set is bad input.
    let all = StatsJob::new(DealSource::Store);
    assert_eq!(stats::run(&all, Some(&store)).unwrap().report.deals, 200);
    let none = StatsJob::new(DealSource::Set("nope".into()));
    let e = stats::run(&none, Some(&store)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::NoSet { .. }));
    assert_eq!(e.class(), ErrorClass::BadInput);
}
