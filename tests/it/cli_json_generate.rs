//! `--json` reports of `generate`, `convert`, `number` and `deal` (issue 12), and the
//! generate workflow called as a library.

use dealdex::ErrorKind;
use dealdex::workflow::generate::{self, GenerateJob, GenerateKind, Mode, Source};
use dealdex::workflow::output::Output;
use dealdex::{Classify, Seed, Store, formats};
use serde_json::Value;
use tempfile::TempDir;

use crate::common::{dealdex, json_report};

const SEED: &str = "2b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfe";

#[test]
fn generate_boards_json_reports_the_set() {
    let dir = TempDir::new().unwrap();
    let args = [
        "generate", "--boards", "1-16", "--seed", SEED, "--out", "s.pbn", "--out", "s.dup",
        "--name", "club", "--json",
    ];
    let (r, before) = json_report(dir.path(), &args);
    assert!(before.is_empty(), "only the report on stdout: {before:?}");
    assert_eq!(r["mode"], "set");
    assert_eq!(r["scheme"], "pavlicek");
    assert_eq!(
        (r["first_board"].as_u64(), r["last_board"].as_u64()),
        (Some(1), Some(16))
    );
    assert_eq!(r["deals"], 16);
    assert_eq!(r["set"]["name"], "club");
    assert_eq!(r["set"]["stored"], true);
    assert_eq!(r["set"]["already_stored"], false);
    assert_eq!(r["new_deals"], 16);
    assert_eq!(r["duplicates"], 0);
    assert_eq!(r["database"], "dealdex.db");
    assert!(r["seed_file"].is_null(), "a given seed is not saved");
    let files = r["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    for (f, (path, format)) in files.iter().zip([("s.pbn", "pbn"), ("s.dup", "dup")]) {
        assert_eq!(
            (f["path"].as_str(), f["format"].as_str()),
            (Some(path), Some(format))
        );
        assert_eq!(f["boards"], 16);
        let size = std::fs::metadata(dir.path().join(path)).unwrap().len();
        assert_eq!(f["bytes"].as_u64(), Some(size));
    }

    // Again: the set is already stored, nothing is new.
    let (r, _) = json_report(dir.path(), &args);
    assert_eq!(r["set"]["already_stored"], true);
    assert_eq!(
        (r["new_deals"].as_u64(), r["duplicates"].as_u64()),
        (Some(0), Some(16))
    );
}

#[test]
fn generate_boards_json_to_stdout_comes_after_the_deals_and_names_the_fresh_seed() {
    let dir = TempDir::new().unwrap();
    let (r, deals) = json_report(
        dir.path(),
        &[
            "generate", "--boards", "4", "--format", "hex", "--no-db", "--json",
        ],
    );
    assert_eq!(deals.len(), 4, "{deals:?}");
    assert!(deals[0].ends_with("-1"), "{deals:?}");
    assert!(r["set"]["stored"] == false && r["new_deals"].is_null());
    assert_eq!(r["files"][0]["path"], Value::Null);
    assert_eq!(r["files"][0]["bytes"], 4 * 29);
    let key = r["seed_file"].as_str().expect("a fresh seed is saved");
    assert!(dir.path().join(key).is_file(), "{key}");
}

#[test]
fn generate_count_json_reports_counts_files_and_duplicates() {
    let dir = TempDir::new().unwrap();
    let args = [
        "generate", "--count", "20000", "--seed", SEED, "--out", "d.hex", "--db", "big.db",
        "--batch", "5000", "--json",
    ];
    let (r, before) = json_report(dir.path(), &args);
    assert!(before.is_empty(), "{before:?}");
    assert_eq!(r["mode"], "bulk");
    assert_eq!(r["deals"], 20000);
    assert_eq!(
        (r["first_board"].as_u64(), r["last_board"].as_u64()),
        (Some(1), Some(20000))
    );
    assert!(r["set"].is_null());
    assert_eq!(
        (r["new_deals"].as_u64(), r["duplicates"].as_u64()),
        (Some(20000), Some(0))
    );
    assert_eq!(r["database"], "big.db");
    assert_eq!(r["files"][0]["path"], "d.hex");
    assert_eq!(r["files"][0]["format"], "hex");
    assert_eq!(r["files"][0]["boards"], 20000);
    let size = std::fs::metadata(dir.path().join("d.hex")).unwrap().len();
    assert_eq!(r["files"][0]["bytes"].as_u64(), Some(size));
    assert!(r["seconds"].as_f64().unwrap() >= 0.0);

    let (r, _) = json_report(dir.path(), &args);
    assert_eq!(
        (r["new_deals"].as_u64(), r["duplicates"].as_u64()),
        (Some(0), Some(20000))
    );
}

#[test]
fn generate_count_where_json_reports_deals_drawn() {
    let dir = TempDir::new().unwrap();
    let (r, deals) = json_report(
        dir.path(),
        &[
            "generate",
            "--count",
            "5",
            "--seed",
            SEED,
            "--where",
            "hcp(N) >= 20",
            "--out",
            "-",
            "--format",
            "hex",
            "--no-db",
            "--json",
        ],
    );
    assert_eq!(deals.len(), 5, "{deals:?}");
    assert_eq!(r["deals"], 5);
    assert!(r["drawn"].as_u64().unwrap() >= 5);
    assert!(r["solved"].is_null(), "no dd terms");
    assert!(r["new_deals"].is_null());
}

#[test]
fn convert_json_reports_the_input_and_the_files() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-8", "--seed", SEED, "--out", "in.pbn", "--no-db", "-q",
        ])
        .assert()
        .success();
    let (r, before) = json_report(dir.path(), &["convert", "in.pbn", "out.dup", "--json"]);
    assert!(before.is_empty(), "{before:?}");
    assert_eq!(r["input"], "in.pbn");
    assert_eq!(r["from"], "pbn");
    assert_eq!(r["boards"], 8);
    assert_eq!(
        (r["first_board"].as_u64(), r["last_board"].as_u64()),
        (Some(1), Some(8))
    );
    assert_eq!(r["files"][0]["path"], "out.dup");
    assert_eq!(r["files"][0]["format"], "dup");
    let size = std::fs::metadata(dir.path().join("out.dup")).unwrap().len();
    assert_eq!(r["files"][0]["bytes"].as_u64(), Some(size));

    // To stdout: the converted boards first, the report last.
    let (r, lines) = json_report(
        dir.path(),
        &["convert", "in.pbn", "-", "--to", "hex", "--json"],
    );
    assert_eq!(lines.len(), 8, "{lines:?}");
    assert_eq!(r["files"][0]["path"], Value::Null);
}

#[test]
fn number_json_gives_numbers_as_strings() {
    let dir = TempDir::new().unwrap();
    let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    let (r, _) = json_report(dir.path(), &["number", deal, "--json"]);
    assert_eq!(r["scheme"], "pavlicek");
    let d = &r["deals"][0];
    assert_eq!(d["number"], "1", "a string, not a JSON number");
    assert_eq!(d["index"], "E4E4E4E4E4E4E4E4E4E4E4E4E4");
    assert!(d.get("board").is_none());

    let (r, _) = json_report(
        dir.path(),
        &["number", deal, "--scheme", "andrews", "--json"],
    );
    assert_eq!(r["scheme"], "andrews");
    let big = r["deals"][0]["number"].as_str().unwrap();
    assert!(big.parse::<u128>().is_ok(), "{big}");

    // A deal file: one entry a board, with its board number.
    dealdex(dir.path())
        .args([
            "generate", "--boards", "1-3", "--seed", SEED, "--out", "s.pbn", "--no-db", "-q",
        ])
        .assert()
        .success();
    let (r, _) = json_report(dir.path(), &["number", "s.pbn", "--json"]);
    let deals = r["deals"].as_array().unwrap();
    assert_eq!(deals.len(), 3);
    for (k, d) in deals.iter().enumerate() {
        assert_eq!(d["board"].as_u64(), Some(k as u64 + 1));
        assert!(d["number"].as_str().unwrap().parse::<u128>().is_ok());
    }
}

#[test]
fn deal_json_reports_the_range_after_the_deals() {
    let dir = TempDir::new().unwrap();
    let (r, deals) = json_report(dir.path(), &["deal", "1..5", "--format", "hex", "--json"]);
    assert_eq!(deals.len(), 5, "{deals:?}");
    assert_eq!(r["deals"], 5);
    assert_eq!(
        (r["first"].as_str(), r["last"].as_str()),
        (Some("1"), Some("5"))
    );
    assert_eq!(r["scheme"], "pavlicek");
    assert_eq!(r["format"], "hex");
    assert!(r["out"].is_null());

    // Numbers past 2^53 stay exact.
    let (r, _) = json_report(
        dir.path(),
        &[
            "deal",
            "53644737765488792839237440000",
            "--out",
            "one.pbn",
            "--json",
        ],
    );
    assert_eq!(r["first"], "53644737765488792839237440000");
    assert_eq!(r["deals"], 1);
    assert_eq!(r["out"], "one.pbn");
}

/// The workflow as a library: the same set twice in one store, then a bulk run over the
/// same deals; every report says what was new.
#[test]
fn library_generate_reports_new_and_already_stored_deals() {
    let seed: Seed = SEED.parse().unwrap();
    let mut store = Store::open_in_memory().unwrap();
    let pbn = formats::by_name("pbn").unwrap();
    let job = GenerateJob {
        name: Some("lib".into()),
        ..GenerateJob::set(
            1,
            32,
            Source::Seed(seed),
            vec![Output {
                path: None,
                format: pbn,
            }],
        )
    };
    let mut stdout = Vec::new();
    let first = generate::run(&job, Some(&mut store), &mut stdout, &mut |_| {}).unwrap();
    assert_eq!(first.mode, Mode::Set);
    assert_eq!(
        (first.deals, first.new_deals, first.duplicates),
        (32, Some(32), Some(0))
    );
    let set = first.set.as_ref().unwrap();
    assert!(set.stored && !set.already_stored);
    assert_eq!(first.files.len(), 1);
    assert_eq!(first.files[0].bytes, stdout.len() as u64);
    assert_eq!(store.deal_count().unwrap(), 32);

    let second = generate::run(&job, Some(&mut store), &mut Vec::new(), &mut |_| {}).unwrap();
    assert!(second.set.as_ref().unwrap().already_stored);
    assert_eq!((second.new_deals, second.duplicates), (Some(0), Some(32)));

    // A bulk run over deals 1..=40 of the same stream: 8 new, 32 already stored.
    let mut progress = Vec::new();
    let bulk = GenerateJob::bulk(1, 40, Source::Seed(seed), Vec::new());
    let third = generate::run(&bulk, Some(&mut store), &mut Vec::new(), &mut |p| {
        if let generate::Progress::Done(n) = p {
            progress.push(n);
        }
    })
    .unwrap();
    assert_eq!(third.mode, Mode::Bulk);
    assert_eq!((third.new_deals, third.duplicates), (Some(8), Some(32)));
    assert_eq!(progress.last(), Some(&40));
    assert_eq!(store.deal_count().unwrap(), 40);

    // Bad input is typed and classed, and found before anything is stored.
    let none = GenerateJob::bulk(1, 0, Source::Seed(seed), Vec::new());
    let err = generate::run(&none, Some(&mut store), &mut Vec::new(), &mut |_| {}).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Generate(GenerateKind::ZeroCount)),
        "{err}"
    );
    assert_eq!(err.class(), dealdex::ErrorClass::BadInput);
    let idle = GenerateJob::bulk(1, 10, Source::Seed(seed), Vec::new());
    let err = generate::run(&idle, None, &mut Vec::new(), &mut |_| {}).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Generate(GenerateKind::NothingToDo)),
        "{err}"
    );
}
