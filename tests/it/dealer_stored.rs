//! `dealdex dealer` over stored deals and files (issue 29, item 3): a script runs over a
//! stored set, the whole database or a deal file instead of generated deals; `--store` keeps
//! the produced deals as a set; `tricks()` answers from stored or file tables and the tables
//! a run solves are stored. Bounded (issue 37, item 4): a file or a set is read no further
//! than the run goes, `--store` writes the set a block at a time, and `--db` alone names the
//! database without making it the source.

use std::path::Path;

use dealdex::dealer::{DealFeed, DealerJob, GivenDeal, GivenFeed, Script, run};
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
    // The whole database (--all) holds the same 300 deals.
    let (all, _) = json_report(dir, &["dealer", &script, "--all", "--db", "t.db", "--json"]);
    assert_eq!(all["source"], "database");
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
    let boards =
        crate::common::read_file(&dir.join("club.pbn"), formats::by_name("pbn").unwrap()).unwrap();
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
    let boards =
        crate::common::read_file(Path::new(file), formats::by_name("pbn").unwrap()).unwrap();
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
    let boards =
        crate::common::read_file(&dir.join("club.pbn"), formats::by_name("pbn").unwrap()).unwrap();
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
    let e = run(&["--all", "--db", "none.db"]);
    assert!(e.contains("no database at none.db"), "{e}");
    generate(dir, 4, "t.db", "club", Some("club.pbn"));
    let e = run(&["--set", "nope", "--db", "t.db"]);
    assert!(e.contains("no set named \"nope\""), "{e}");
    // Swapping permutes generated deals' hands; given deals are read as they are.
    for flag in ["-2", "-3"] {
        let e = run(&["--deals", "club.pbn", flag]);
        assert!(
            e.contains(&format!("{flag} swaps the hands of generated deals")),
            "{e}"
        );
    }
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
        feed: DealFeed::Given(GivenFeed::from_deals(
            deals.iter().map(|&d| GivenDeal::new(d)).collect(),
        )),
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
    // (A feed is read once: the second run has its own.)
    let short = DealerJob {
        generate: Some(10),
        feed: DealFeed::Given(GivenFeed::from_deals(
            deals.iter().map(|&d| GivenDeal::new(d)).collect(),
        )),
        ..job
    };
    assert_eq!(
        run(&script, &short, &mut Vec::new(), &mut |_| {})
            .unwrap()
            .generated,
        10
    );
}

/// `n` distinct deals as hex lines (26 digits each): deals 1..=n of the test seed.
fn hex_lines(n: u64) -> String {
    let seed: dealdex::Seed = SEED.parse().unwrap();
    (1..=n)
        .map(|k| format!("{}\n", dealdex::DealIndex::from_deal(&seed.board_deal(k))))
        .collect()
}

#[test]
fn a_deal_file_is_read_no_further_than_the_run_goes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // 200,000 good deals (5.4 MB: more than the reader's window of 4 MiB, and than the
    // run's first blocks), then lines no hex reader takes.
    let mut text = hex_lines(200_000);
    text.push_str("this is not a deal\n");
    text.push_str(&"garbage\n".repeat(1000));
    std::fs::write(dir.join("big.hex"), &text).unwrap();
    let script = write(
        dir,
        "s.dei",
        "produce 5\ncondition hcp(north) >= 10\naction printoneline\n",
    );
    // Read whole, the file fails; read as far as `produce 5` goes, it never gets there.
    let (r, lines) = json_report(dir, &["dealer", &script, "--deals", "big.hex", "--json"]);
    assert_eq!(r["produced"], 5);
    assert_eq!(deal_lines(&lines).len(), 5);
    assert_eq!(r["source"], "file");
    let read = r["deals_read"].as_u64().unwrap();
    assert!((5..200_000).contains(&read), "deals_read {read}");
    assert!(read >= r["generated"].as_u64().unwrap());
    // A run that goes that far meets the bad line: exit 2, naming the file and the line,
    // after the deals before it.
    let o = dealdex(dir)
        .args(["dealer", &script, "--deals", "big.hex", "-p", "1000000"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("big.hex: line 200001"), "{e}");
}

#[test]
fn a_stored_set_is_read_no_further_than_the_run_goes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    generate(dir, 60_000, "t.db", "club", None);
    let script = write(
        dir,
        "s.dei",
        "produce 5\ncondition hcp(north) >= 10\naction printoneline\n",
    );
    for source in [&["--set", "club"][..], &["--all"][..]] {
        let mut args = vec!["dealer", &script, "--db", "t.db", "--json"];
        args.extend(source);
        let (r, lines) = json_report(dir, &args);
        assert_eq!(r["produced"], 5, "{source:?}");
        assert_eq!(deal_lines(&lines).len(), 5);
        assert_eq!(r["source"], "database");
        let read = r["deals_read"].as_u64().unwrap();
        assert!((5..60_000).contains(&read), "{source:?}: deals_read {read}");
    }
    // The set's boards, pulled in order: the first five that match are the set's first.
    let (all, lines) = json_report(
        dir,
        &[
            "dealer", &script, "--set", "club", "--db", "t.db", "-p", "100000", "--json",
        ],
    );
    assert_eq!(all["deals_read"], 60_000);
    let (_, first) = json_report(
        dir,
        &["dealer", &script, "--set", "club", "--db", "t.db", "--json"],
    );
    assert_eq!(deal_lines(&first), deal_lines(&lines)[..5]);
}

/// The deals a generated run of `script` with seed `seed` produces, in order (the library's
/// run, keeping them).
fn produced_deals(script: &str, seed: u64) -> Vec<dealdex::Deal> {
    let job = DealerJob {
        seed: Some(seed),
        keep_produced: true,
        ..DealerJob::default()
    };
    let script = Script::parse(script).unwrap();
    run(&script, &job, &mut Vec::new(), &mut |_| {})
        .unwrap()
        .kept
}

#[test]
fn store_writes_a_large_set_block_by_block() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // 70,000 produced deals: several blocks of the run, each written to the set as it ends.
    let text = "produce 70000\ncondition hcp(north) >= 8\naction average hcp(north)\n";
    let script = write(dir, "s.dei", text);
    let (r, _) = json_report(
        dir,
        &[
            "dealer", &script, "-s", "3", "--store", "big", "--db", "t.db", "--json",
        ],
    );
    assert_eq!(r["source"], "stream");
    assert_eq!(r["produced"], 70_000);
    assert_eq!(r["stored_set"]["boards"], 70_000);
    let want: Vec<dealdex::DealIndex> = produced_deals(text, 3)
        .iter()
        .map(dealdex::DealIndex::from_deal)
        .collect();
    assert_eq!(want.len(), 70_000);
    let check = |name: &str, want: &[dealdex::DealIndex]| {
        let store = dealdex::Store::open(&dir.join("t.db")).unwrap();
        let boards = store.set_boards(name).unwrap();
        let keys: Vec<dealdex::DealIndex> = boards.iter().map(|&(_, k)| k).collect();
        assert_eq!(keys, want, "{name}");
        let numbers: Vec<u64> = boards.iter().map(|&(b, _)| b).collect();
        assert_eq!(numbers, (1..=want.len() as u64).collect::<Vec<_>>());
        let info = store.set(name).unwrap().unwrap();
        assert_eq!((info.first_board, info.last_board), (1, want.len() as u64));
        assert_eq!(store.integrity_check().unwrap(), "ok");
    };
    check("big", &want);
    // A second set into a database that has boards already (the index kept as it is).
    let small = "produce 100\ncondition hcp(north) >= 8\naction average hcp(north)\n";
    let script = write(dir, "small.dei", small);
    let (r, _) = json_report(
        dir,
        &[
            "dealer", &script, "-s", "4", "--store", "small", "--db", "t.db", "--json",
        ],
    );
    assert_eq!(r["stored_set"]["boards"], 100);
    let want: Vec<dealdex::DealIndex> = produced_deals(small, 4)
        .iter()
        .map(dealdex::DealIndex::from_deal)
        .collect();
    check("small", &want);
    // A run that fails after blocks were written stores no set: deal 9,085 of seed 1 is the
    // first with 26 HCP in North (a division by zero), after the blocks before it (at most
    // 4,096 deals each) were added to the set.
    let failing = write(
        dir,
        "fail.dei",
        "produce 1000000\naction printes(1 / (hcp(north) < 26), \"\")\n",
    );
    let deals_before = dealdex::Store::open(&dir.join("t.db"))
        .unwrap()
        .deal_count()
        .unwrap();
    let o = dealdex(dir)
        .args([
            "dealer", &failing, "-s", "1", "--store", "failed", "--db", "t.db",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o), "dealdex: error: deal 9085: division by zero\n");
    let store = dealdex::Store::open(&dir.join("t.db")).unwrap();
    assert!(store.set("failed").unwrap().is_none());
    assert_eq!(store.deal_count().unwrap(), deals_before);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn db_alone_names_the_database_and_the_deals_are_generated() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    generate(dir, 20, "t.db", "club", None);
    let script = write(
        dir,
        "s.dei",
        "produce 3\ncondition hcp(north) >= 12\naction printoneline\n",
    );
    // --store with --db: generated, stored in t.db.
    let (r, lines) = json_report(
        dir,
        &[
            "dealer", &script, "-s", "9", "--store", "kept", "--db", "t.db", "--json",
        ],
    );
    assert_eq!(r["source"], "stream");
    assert_eq!(r["deals_read"], 0);
    assert_eq!(r["stored_set"]["boards"], 3);
    let (back, again) = json_report(
        dir,
        &["dealer", &script, "--set", "kept", "--db", "t.db", "--json"],
    );
    assert_eq!(back["source"], "database");
    assert_eq!(deal_lines(&again), deal_lines(&lines));
    // --db alone: generated too (the same deals as without it).
    let (alone, with_db) = json_report(
        dir,
        &["dealer", &script, "-s", "9", "--db", "t.db", "--json"],
    );
    assert_eq!(alone["source"], "stream");
    assert_eq!(deal_lines(&with_db), deal_lines(&lines));
    // --all reads every stored deal; with --set or --deals it is refused (exit 2).
    let (every, _) = json_report(
        dir,
        &[
            "dealer", &script, "--all", "--db", "t.db", "-p", "1000", "--json",
        ],
    );
    assert_eq!(every["deals_read"], 23);
    let o = dealdex(dir)
        .args(["dealer", &script, "--all", "--set", "club", "--db", "t.db"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
