//! `dealdex dealer` over stored deals and files (issue 29, item 3): a script runs over a
//! stored set, the whole database or a deal file instead of generated deals; `--store` keeps
//! the produced deals as a set; `tricks()` answers from stored or file tables and the tables
//! a run solves are stored.

use std::path::Path;

use dealdex::dealer::{DealFeed, DealerJob, Script, run};
use dealdex::formats;

use crate::common::{dealdex, fixture, json_report, stderr};

/// A 64-hex-digit seed for `generate`.
const SEED: &str = "4242424242424242424242424242424242424242424242424242424242424242";

/// Writes `text` to `dir/name` and returns its path as a string.
fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// `dealdex generate --boards 1-N` into `db` as set `name`, also written to `out` when given.
fn generate(dir: &Path, boards: u64, db: &str, name: &str, out: Option<&str>) {
    let range = format!("1-{boards}");
    let mut args = vec![
        "generate", "--boards", &range, "--seed", SEED, "--db", db, "--name", name, "-q",
    ];
    if let Some(o) = out {
        args.extend(["-o", o]);
    }
    let o = dealdex(dir).args(&args).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The deal lines dealer's printoneline wrote (the lines starting `n `).
fn deal_lines(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("n "))
        .cloned()
        .collect()
}

#[test]
fn a_stored_set_produces_what_the_query_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    generate(dir, 300, "t.db", "club", None);
    let script = write(
        dir,
        "s.dei",
        "condition hcp(north) >= 15 && spades(south) >= 4\naction average hcp(north)\n",
    );
    let (r, _) = json_report(
        dir,
        &["dealer", &script, "--set", "club", "--db", "t.db", "--json"],
    );
    let (q, _) = json_report(
        dir,
        &[
            "query",
            "hcp(N) >= 15 and len(S, spades) >= 4",
            "--set",
            "club",
            "--db",
            "t.db",
            "--count",
            "--json",
        ],
    );
    assert_eq!(r["generated"], 300);
    assert_eq!(r["produced"], q["count"]);
    assert!(r["produced"].as_u64().unwrap() > 0);
    assert_eq!(
        (r["source"].as_str(), r["deals_read"].as_u64()),
        (Some("database"), Some(300))
    );
    assert_eq!(r["solved"], 0);
    // The whole database (--db alone) holds the same 300 deals.
    let (all, _) = json_report(dir, &["dealer", &script, "--db", "t.db", "--json"]);
    assert_eq!(
        (all["generated"].clone(), all["produced"].clone()),
        (r["generated"].clone(), r["produced"].clone())
    );
    // -g limits the deals tested, -p stops early.
    let (g, _) = json_report(
        dir,
        &[
            "dealer", &script, "--set", "club", "--db", "t.db", "-g", "50", "--json",
        ],
    );
    assert_eq!(g["generated"], 50);
    let (p, _) = json_report(
        dir,
        &[
            "dealer", &script, "--set", "club", "--db", "t.db", "-p", "2", "--json",
        ],
    );
    assert_eq!(p["produced"], 2);
    assert!(p["generated"].as_u64().unwrap() < 300);
    // Reading never changes the database: no set, no deal added.
    let (sets, _) = json_report(
        dir,
        &["query", "hcp(N) >= 0", "--db", "t.db", "--count", "--json"],
    );
    assert_eq!(sets["count"], 300);
}

#[test]
fn a_deal_file_gives_printoneline_of_exactly_its_deals() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    generate(dir, 60, "t.db", "club", Some("club.pbn"));
    // Every board, in file order: printoneline is the file's deals in dealer's layout.
    let script = write(dir, "all.dei", "produce 1000\naction printoneline\n");
    let (r, lines) = json_report(dir, &["dealer", &script, "--deals", "club.pbn", "--json"]);
    assert_eq!(
        (r["generated"].as_u64(), r["produced"].as_u64()),
        (Some(60), Some(60))
    );
    assert_eq!(r["source"], "file");
    let boards = dealdex::workflow::input::read_deal_file(
        &dir.join("club.pbn"),
        formats::by_name("pbn").unwrap(),
        None,
    )
    .unwrap();
    let expected: Vec<String> = boards
        .iter()
        .map(|b| {
            let hands: Vec<String> = dealdex::Seat::ALL
                .iter()
                .map(|&s| format!("{} {} ", s.letter().to_ascii_lowercase(), b.deal.hand(s)))
                .collect();
            hands.concat()
        })
        .collect();
    assert_eq!(deal_lines(&lines), expected);
    // The oneline format dealdex writes is the same layout: --from reads it back.
    let o = dealdex(dir)
        .args(["convert", "club.pbn", "club.txt", "--to", "oneline"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let (r2, lines2) = json_report(
        dir,
        &[
            "dealer", &script, "--deals", "club.txt", "--from", "oneline", "--json",
        ],
    );
    assert_eq!(r2["produced"], 60);
    assert_eq!(deal_lines(&lines2), expected);
    // A condition keeps the deals it keeps over generated deals.
    let strong = write(
        dir,
        "s.dei",
        "produce 1000\ncondition hcp(north) >= 15\naction printoneline\n",
    );
    let (_, kept) = json_report(dir, &["dealer", &strong, "--deals", "club.pbn", "--json"]);
    let want: Vec<String> = boards
        .iter()
        .zip(&expected)
        .filter(|(b, _)| dealdex::features::hcp(b.deal.hand(dealdex::Seat::North)) >= 15)
        .map(|(_, l)| l.clone())
        .collect();
    assert_eq!(deal_lines(&kept), want);
}

#[test]
fn store_keeps_exactly_the_produced_deals_as_a_set() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let script = write(
        dir,
        "s.dei",
        "produce 7\ncondition hcp(north) >= 14\naction printoneline\n",
    );
    let (r, lines) = json_report(
        dir,
        &["dealer", &script, "-s", "5", "--store", "strong", "--json"],
    );
    assert_eq!(r["produced"], 7);
    assert_eq!(r["stored_set"]["name"], "strong");
    assert_eq!(r["stored_set"]["boards"], 7);
    let produced = deal_lines(&lines);
    let o = dealdex(dir)
        .args(["export", "--set", "strong", "--to", "oneline", "-o", "-"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let exported: Vec<String> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(deal_lines(&exported), produced);
    // The name is taken: refused before running (exit 2), the set unchanged.
    let again = dealdex(dir)
        .args(["dealer", &script, "-s", "6", "--store", "strong"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(again.stdout.is_empty());
    assert!(
        stderr(&again).contains("set \"strong\" already exists"),
        "{}",
        stderr(&again)
    );
    // Stored deals read back through --set produce the same lines.
    let all = write(dir, "all.dei", "action printoneline\n");
    let (back, lines) = json_report(dir, &["dealer", &all, "--set", "strong", "--json"]);
    assert_eq!(back["generated"], 7);
    assert_eq!(deal_lines(&lines), produced);
    // --store over a stored set keeps the produced deals of the set, in its order (in
    // dealdex.db as the set read, without --db).
    let (f, _) = json_report(
        dir,
        &[
            "dealer", &all, "--set", "strong", "-p", "3", "--store", "first3", "--json",
        ],
    );
    assert_eq!(f["stored_set"]["boards"], 3);
    let (_, lines) = json_report(dir, &["dealer", &all, "--set", "first3", "--json"]);
    assert_eq!(deal_lines(&lines), produced[..3]);
}

/// Four deals that solve in a moment (each seat holds one suit).
const ONE_SUITERS: &str = r#"[Board "1"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]

[Board "2"]
[Deal "N:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432..."]

[Board "3"]
[Deal "N:..AKQJT98765432. ...AKQJT98765432 AKQJT98765432... .AKQJT98765432.."]

[Board "4"]
[Deal "N:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432."]
"#;

const TRICKS: &str = "action printes(tricks(north, spades), \" \", tricks(east, hearts), \" \", tricks(south, notrump), \\n)\n";

/// `dealdex solve FILE --no-db --to json`: per deal, (N spades, E hearts, S notrump).
fn solve_answers(dir: &Path, file: &str) -> Vec<String> {
    let o = dealdex(dir)
        .args(["solve", file, "--no-db", "--to", "json", "-q"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let t = &v["tricks"];
            format!("{} {} {}", t["N"]["S"], t["E"]["H"], t["S"]["NT"])
        })
        .collect()
}

/// dealer's printes lines: `a b c` per deal.
fn printes_answers(lines: &[String]) -> Vec<String> {
    lines.to_vec()
}

#[test]
fn tricks_from_stored_tables_solve_nothing_the_second_time() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(dir, "one.pbn", ONE_SUITERS);
    let script = write(dir, "t.dei", TRICKS);
    let expected = solve_answers(dir, "one.pbn");
    assert_eq!(expected.len(), 4);
    // A file with a database: solved once, stored, then read.
    let (first, lines) = json_report(
        dir,
        &[
            "dealer", &script, "--deals", "one.pbn", "--db", "t.db", "--json",
        ],
    );
    assert_eq!(
        (first["solved"].as_u64(), first["tables_stored"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(printes_answers(&lines), expected);
    let (second, lines) = json_report(
        dir,
        &[
            "dealer", &script, "--deals", "one.pbn", "--db", "t.db", "--json",
        ],
    );
    assert_eq!(
        (second["solved"].as_u64(), second["already_solved"].as_u64()),
        (Some(0), Some(4))
    );
    assert_eq!(second["tables_stored"], 0);
    assert_eq!(printes_answers(&lines), expected);
    // A stored set: its deals' tables are those stored by the file's run.
    let o = dealdex(dir)
        .args(["import", "one.pbn", "--set", "one", "--db", "t.db"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let (set, lines) = json_report(
        dir,
        &["dealer", &script, "--set", "one", "--db", "t.db", "--json"],
    );
    assert_eq!(
        (set["solved"].as_u64(), set["already_solved"].as_u64()),
        (Some(0), Some(4))
    );
    assert_eq!(printes_answers(&lines), expected);
    // A stored set solved by the run: stored, and `dealdex solve --set` solves nothing more.
    let o = dealdex(dir)
        .args(["import", "one.pbn", "--set", "fresh", "--db", "u.db"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let (fresh, _) = json_report(
        dir,
        &[
            "dealer", &script, "--set", "fresh", "--db", "u.db", "--json",
        ],
    );
    assert_eq!(
        (fresh["solved"].as_u64(), fresh["tables_stored"].as_u64()),
        (Some(4), Some(4))
    );
    let (solve, _) = json_report(
        dir,
        &[
            "solve", "--set", "fresh", "--db", "u.db", "--to", "json", "--json",
        ],
    );
    assert_eq!(
        (solve["solved"].as_u64(), solve["already_solved"].as_u64()),
        (Some(0), Some(4))
    );
}

#[test]
fn tricks_answer_from_a_pbn_files_tables_without_solving() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let script = write(dir, "t.dei", &format!("produce 12\n{TRICKS}"));
    let file = fixture("dd/composer-style.pbn");
    let file = file.to_str().unwrap();
    let (r, lines) = json_report(dir, &["dealer", &script, "--deals", file, "--json"]);
    assert_eq!(
        (r["solved"].as_u64(), r["already_solved"].as_u64()),
        (Some(0), Some(12))
    );
    let boards = dealdex::workflow::input::read_deal_file(
        Path::new(file),
        formats::by_name("pbn").unwrap(),
        None,
    )
    .unwrap();
    let from_file: Vec<String> = boards[..12]
        .iter()
        .map(|b| {
            let t = b.dd.expect("the fixture's tables");
            let s = |seat, strain| t.tricks(seat, strain);
            use dealdex::{Seat, Strain, Suit};
            format!(
                "{} {} {}",
                s(Seat::North, Strain::Trumps(Suit::Spades)),
                s(Seat::East, Strain::Trumps(Suit::Hearts)),
                s(Seat::South, Strain::NoTrump)
            )
        })
        .collect();
    assert_eq!(printes_answers(&lines), from_file);
}

#[test]
fn given_deals_without_the_predealt_cards_are_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    generate(dir, 200, "t.db", "club", Some("club.pbn"));
    let script = write(
        dir,
        "p.dei",
        "predeal north SA\nproduce 1000\naction printoneline\n",
    );
    let (r, lines) = json_report(
        dir,
        &["dealer", &script, "--set", "club", "--db", "t.db", "--json"],
    );
    let boards = dealdex::workflow::input::read_deal_file(
        &dir.join("club.pbn"),
        formats::by_name("pbn").unwrap(),
        None,
    )
    .unwrap();
    let holding = boards
        .iter()
        .filter(|b| {
            let h = b.deal.hand(dealdex::Seat::North);
            h.holding_string(dealdex::Suit::Spades).starts_with('A')
        })
        .count() as u64;
    assert_eq!(r["generated"].as_u64(), Some(holding));
    let generated = r["generated"].as_u64().unwrap();
    assert_eq!(generated + r["skipped"].as_u64().unwrap(), 200);
    let lines = deal_lines(&lines);
    assert_eq!(lines.len() as u64, generated);
    assert!(lines.iter().all(|l| l.starts_with("n A")), "{lines:?}");
}

#[test]
fn bad_inputs_exit_2_naming_the_file_and_position() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let script = write(dir, "s.dei", "action printoneline\n");
    let run = |args: &[&str]| {
        let o = dealdex(dir)
            .arg("dealer")
            .arg(&script)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
        stderr(&o)
    };
    let e = run(&["--deals", "missing.pbn"]);
    assert!(e.contains("missing.pbn"), "{e}");
    write(dir, "bad.pbn", "[Board \"1\"]\n[Deal \"N:AKQ.x\"]\n");
    let e = run(&["--deals", "bad.pbn"]);
    assert!(e.contains("bad.pbn: line 2, column"), "{e}");
    let e = run(&["--db", "none.db"]);
    assert!(e.contains("no database at none.db"), "{e}");
    generate(dir, 4, "t.db", "club", Some("club.pbn"));
    let e = run(&["--set", "nope", "--db", "t.db"]);
    assert!(e.contains("no set \"nope\""), "{e}");
    // An expression that fails on a given deal names the file, the deal and its board.
    let zero = write(dir, "z.dei", "condition hcp(north) / 0 > 1\n");
    let o = dealdex(dir)
        .args(["dealer", &zero, "--deals", "club.pbn"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("club.pbn: deal 1 (board 1, N:") && e.ends_with("division by zero\n"),
        "{e}"
    );
}

#[test]
fn a_run_takes_given_deals_in_order() {
    let seed: dealdex::Seed = SEED.parse().unwrap();
    let deals: Vec<dealdex::Deal> = (1..=50).map(|k| seed.board_deal(k)).collect();
    let script = Script::parse("condition hcp(south) >= 12\naction average hcp(south)").unwrap();
    let job = DealerJob {
        feed: DealFeed::Given(deals.iter().map(|&d| (d, None)).collect()),
        keep_produced: true,
        ..DealerJob::default()
    };
    let report = run(&script, &job, &mut Vec::new(), &mut |_| {}).unwrap();
    let want: Vec<dealdex::Deal> = deals
        .iter()
        .copied()
        .filter(|d| dealdex::features::hcp(d.hand(dealdex::Seat::South)) >= 12)
        .collect();
    assert_eq!(report.generated, 50);
    assert_eq!(report.kept, want);
    assert_eq!(report.produced, want.len() as u64);
    // The feed ends the run before `generate` does; `generate` ends it before the feed.
    let short = DealerJob {
        generate: Some(10),
        ..job
    };
    assert_eq!(
        run(&script, &short, &mut Vec::new(), &mut |_| {})
            .unwrap()
            .generated,
        10
    );
}
