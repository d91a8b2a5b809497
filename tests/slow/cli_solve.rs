//! `dealdex solve`: tables and par printed and stored, resumable after a kill, and `lookup`
//! showing them. Expected numbers come from DDS (tests/fixtures/dd/dd-reference.jsonl).

use std::path::Path;
use std::time::Duration;

use dealdex::formats::DealFormat as _;
use dealdex::{Deal, DealIndex, Store};
use tempfile::TempDir;

use crate::common::dealdex;

/// Set `club`: boards 1-16 of a fixed seed, stored in `d/dealdex.db` (not solved).
fn generate_club(d: &Path) {
    dealdex(d)
        .args(["generate", "--boards", "1-16", "--seed", &"3c".repeat(32)])
        .args(["--name", "club", "--out", "club.pbn", "-q"])
        .assert()
        .success();
}

/// `dealdex query --count --set club EXPR` in `d`, checked to succeed: the count printed.
fn club_count(d: &Path, expr: &str) -> String {
    let out = dealdex(d)
        .args(["query", "--count", "--set", "club", expr])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn reference() -> Vec<serde_json::Value> {
    include_str!("../fixtures/dd/dd-reference.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_deal_string_prints_its_table_and_par() {
    let dir = TempDir::new().unwrap();
    let r = &reference()[1]; // board 2: a 13-card spade suit in North, dealer E, NS vulnerable
    let out = dealdex(dir.path())
        .args([
            "solve",
            r["deal"].as_str().unwrap(),
            "--dealer",
            "E",
            "--vul",
            "NS",
        ])
        .args(["--no-db", "-q"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut want = String::from("    NT  S  H  D  C\n");
    for seat in ["N", "E", "S", "W"] {
        want.push_str(seat);
        for strain in ["NT", "S", "H", "D", "C"] {
            want.push_str(&format!(
                " {:>2}",
                r["tricks"][seat][strain].as_u64().unwrap()
            ));
        }
        want.push('\n');
    }
    assert!(text.contains(&want), "{text}\nwant\n{want}");
    let contracts: Vec<&str> = r["par"]["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let score = r["par"]["score"].as_i64().unwrap();
    assert!(
        text.contains(&format!("par {score:+} {}", contracts.join(" "))),
        "{text}"
    );
    assert!(
        !dir.path().join("dealdex.db").exists(),
        "--no-db wrote a database"
    );
}

/// A PBN file of reference boards (their numbers give the reference's dealer and
/// vulnerability): JSON lines equal DDS's tables and par, the tables are stored, and a
/// second run solves nothing.
#[test]
fn a_file_is_solved_stored_and_not_solved_again() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let refs: Vec<_> = reference().into_iter().take(12).collect();
    let mut pbn = String::new();
    for r in &refs {
        pbn.push_str(&format!(
            "[Board \"{}\"]\n[Dealer \"{}\"]\n[Vulnerable \"{}\"]\n[Deal \"{}\"]\n\n",
            r["board"],
            r["dealer"].as_str().unwrap(),
            r["vul"].as_str().unwrap(),
            r["deal"].as_str().unwrap()
        ));
    }
    std::fs::write(d.join("ref.pbn"), pbn).unwrap();
    let out = dealdex(d)
        .args(["solve", "ref.pbn", "--format", "json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("12 deals: 12 solved, 0 already solved, 9 new tables stored"),
        "{err}"
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), refs.len());
    for (got, r) in lines.iter().zip(&refs) {
        assert_eq!(got["board"], r["board"]);
        assert_eq!(got["tricks"], r["tricks"], "board {}", r["board"]);
        assert_eq!(got["par"], r["par"], "board {}", r["board"]);
        let deal: Deal = r["deal"].as_str().unwrap().parse().unwrap();
        assert_eq!(got["index"], DealIndex::from_deal(&deal).to_string());
    }
    let store = Store::open(&d.join("dealdex.db")).unwrap();
    assert_eq!(store.dd_count().unwrap(), 9);
    drop(store);
    let out = dealdex(d).args(["solve", "ref.pbn"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("12 deals: 0 solved, 12 already solved, 0 new tables"),
        "{err}"
    );

    // lookup shows the stored table and par.
    let first: Deal = refs[0]["deal"].as_str().unwrap().parse().unwrap();
    let out = dealdex(d)
        .args(["lookup", &DealIndex::from_deal(&first).to_string()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("double dummy"), "{text}");
    assert!(text.contains("par     +1510 7SN 7SS"), "{text}");
}

/// `--solver dds` (and `DEALDEX_SOLVER=dds`) solves with DDS itself: the reference's tables,
/// recorded as DDS's; an unknown solver is bad input (exit 2) that names the solvers.
#[cfg(feature = "dds")]
#[test]
fn the_solver_flag_chooses_dds_and_records_it() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let r = &reference()[4];
    let deal = r["deal"].as_str().unwrap();
    for run in [
        dealdex(d)
            .args(["--solver", "dds", "solve", deal, "--format", "json"])
            .output(),
        dealdex(d)
            .env("DEALDEX_SOLVER", "DDS")
            .args(["solve", deal, "--format", "json", "--no-db"])
            .output(),
    ] {
        let out = run.unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(got["tricks"], r["tricks"]);
    }
    let store = Store::open(&d.join("dealdex.db")).unwrap();
    let key = DealIndex::from_deal(&deal.parse::<Deal>().unwrap());
    assert_eq!(
        store.dd_source(&key).unwrap().unwrap().to_string(),
        format!("solved by {}", dealdex::dd::Solver::Dds.name())
    );

    let out = dealdex(d)
        .args(["--solver", "dds9", "solve", deal])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the solvers are pons and dds"), "{err}");
}

/// Kill `solve --set` mid-run a few times: the tables stored are always those of the
/// set's first k boards (batches commit in board order, whole), each right; the last run
/// finishes the rest and says how many were already solved.
#[test]
fn a_killed_solve_resumes_and_loses_at_most_the_batch_in_flight() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    dealdex(d)
        .args(["generate", "--boards", "1-24", "--seed", &"5a".repeat(32)])
        .args(["--name", "s", "--no-db", "--out", "s.pbn", "-q"])
        .assert()
        .success();
    dealdex(d)
        .args(["import", "s.pbn", "--set", "s"])
        .assert()
        .success();
    let db = d.join("dealdex.db");
    let boards: Vec<DealIndex> = Store::open(&db)
        .unwrap()
        .set_boards("s")
        .unwrap()
        .into_iter()
        .map(|(_, k)| k)
        .collect();
    let mut mid_run = 0;
    for kill_after_ms in [600u64, 900, 1200] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dealdex"))
            .current_dir(d)
            .args(["solve", "--set", "s", "--batch", "2", "-q"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(kill_after_ms));
        if child.try_wait().unwrap().is_none() {
            mid_run += 1;
        }
        child.kill().unwrap();
        child.wait().unwrap();
        let store = Store::open(&db).unwrap();
        assert_eq!(store.integrity_check().unwrap(), "ok");
        let solved: Vec<bool> = boards
            .iter()
            .map(|k| store.dd_table(k).unwrap().is_some())
            .collect();
        let k = solved.iter().take_while(|s| **s).count();
        assert!(
            solved[k..].iter().all(|s| !s),
            "not a prefix of the set: {solved:?}"
        );
    }
    assert!(mid_run >= 1, "every kill came after the run had ended");
    let before = Store::open(&db).unwrap().dd_count().unwrap();
    let out = dealdex(d).args(["solve", "--set", "s"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "24 deals: {} solved, {before} already solved",
            24 - before
        )),
        "{err}"
    );
    let store = Store::open(&db).unwrap();
    assert_eq!(store.dd_count().unwrap(), 24);
    // Every stored table, however interrupted its run, is the deal's own.
    let deals: Vec<Deal> = boards.iter().map(|k| k.to_deal().unwrap()).collect();
    let fresh = dealdex::dd::solve_all(&deals);
    for (k, t) in boards.iter().zip(&fresh) {
        assert_eq!(store.dd_table(k).unwrap().as_ref(), Some(t));
    }
}

#[test]
fn solve_all_solves_only_what_is_missing_and_bad_input_exits_2() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    dealdex(d)
        .args([
            "generate",
            "--count",
            "6",
            "--seed",
            &"07".repeat(32),
            "--db",
            "x.db",
            "-q",
        ])
        .assert()
        .success();
    let out = dealdex(d)
        .args(["solve", "--all", "--db", "x.db"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("6 deals: 6 solved"), "{err}");
    assert!(
        out.stdout.is_empty(),
        "--all prints tables only with --format"
    );
    let out = dealdex(d)
        .args(["solve", "--all", "--db", "x.db"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("0 deals: 0 solved"));

    for (args, msg) in [
        (vec!["solve"], "nothing to solve"),
        (
            vec!["solve", "--set", "nope", "--db", "x.db"],
            "no set \"nope\"",
        ),
        (
            vec!["solve", "--all", "--db", "missing.db"],
            "no database at missing.db",
        ),
        (
            vec!["solve", "N:AKQ.AKQ.AKQ.AKQX - - -", "--no-db"],
            "deal: ",
        ),
        (
            vec!["solve", "boards.xyz", "--no-db"],
            "boards.xyz: not a deal",
        ),
        (
            vec![
                "solve",
                "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
                "--vul",
                "both ways",
                "--no-db",
            ],
            "--vul",
        ),
    ] {
        let out = dealdex(d).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

/// The query language answers `dd(…)` from the stored tables: the same deals as the Rust
/// evaluation (which solves), and none while the set is unsolved.
#[test]
fn query_dd_on_a_solved_database() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    generate_club(d);
    let expr = "dd(NS, notrump) >= 7 and hcp(NS) <= 26";
    let count = |d: &Path| club_count(d, expr);
    assert_eq!(count(d), "0", "unsolved deals match no dd() condition");
    dealdex(d)
        .args(["solve", "--set", "club", "-q"])
        .assert()
        .success();
    let q = dealdex::query::Query::parse(expr).unwrap();
    let want = Store::open(&d.join("dealdex.db"))
        .unwrap()
        .set_boards("club")
        .unwrap()
        .iter()
        .filter(|(_, k)| q.matches(&k.to_deal().unwrap()))
        .count();
    assert!(
        want > 0 && want < 16,
        "the test expression selects some boards: {want}"
    );
    assert_eq!(count(d), want.to_string());
}

/// Tables as another program wrote them (DDS's numbers in Bridge Composer's tags) are
/// imported without solving, answer `dd` queries, go out again with `export`, and a file
/// whose table differs from a stored one is refused naming the board, storing nothing.
#[test]
fn pbn_tables_are_imported_exported_and_checked_against_stored_ones() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::copy("tests/fixtures/dd/composer-style.pbn", d.join("dd.pbn")).unwrap();
    let refs = reference();
    let distinct: std::collections::HashSet<&str> =
        refs.iter().map(|r| r["deal"].as_str().unwrap()).collect();
    let out = dealdex(d)
        .args(["import", "dd.pbn", "--set", "composer"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let n = distinct.len();
    assert!(
        err.contains(&format!(
            "; {n} double-dummy tables ({n} new, stored as the file gives them; 0 matched"
        )),
        "{err}"
    );
    let store = Store::open(&d.join("dealdex.db")).unwrap();
    assert_eq!(store.dd_count().unwrap(), n as u64);
    drop(store);

    // Nothing left to solve; queries answer from the imported tables.
    let out = dealdex(d)
        .args(["solve", "--set", "composer"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("200 deals: 0 solved, 200 already solved"),
        "{err}"
    );
    let expected = distinct
        .iter()
        .filter(|deal| {
            let r = refs.iter().find(|r| r["deal"] == **deal).unwrap();
            r["tricks"]["N"]["NT"].as_u64().unwrap() >= 9
        })
        .count();
    let out = dealdex(d)
        .args(["query", "--count", "dd(N, notrump) >= 9"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        expected.to_string()
    );

    // Export writes the tables and DDS's par back.
    let out = dealdex(d)
        .args([
            "export", "--set", "composer", "--out", "-", "--format", "pbn",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("[DoubleDummyTricks \"").count(), 200);
    for r in &refs {
        let game = text
            .split("\n\n")
            .find(|g| g.contains(&format!("[Board \"{}\"]", r["board"])))
            .unwrap();
        assert!(
            game.contains(&format!("[OptimumScore \"NS {}\"]", r["par"]["score"])),
            "{game}"
        );
    }

    // A file that disagrees with a stored table: refused, naming the board; nothing stored.
    let first = &refs[0];
    let t = &first["tricks"];
    let hex: String = ["N", "S", "E", "W"]
        .iter()
        .flat_map(|s| ["NT", "S", "H", "D", "C"].map(|st| t[s][st].as_u64().unwrap()))
        .map(|n| char::from_digit((n as u32 + 1) % 14, 16).unwrap())
        .collect();
    std::fs::write(
        d.join("wrong.pbn"),
        format!(
            "[Board \"8\"]\n[Deal \"{}\"]\n\n[Board \"7\"]\n[Deal \"{}\"]\n[DoubleDummyTricks \"{hex}\"]\n",
            "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432",
            first["deal"].as_str().unwrap()
        ),
    )
    .unwrap();
    let deals_before = Store::open(&d.join("dealdex.db"))
        .unwrap()
        .deal_count()
        .unwrap();
    let out = dealdex(d).args(["import", "wrong.pbn"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "wrong.pbn: rejected: board 7: its double-dummy table differs from the one stored"
        ),
        "{err}"
    );
    let store = Store::open(&d.join("dealdex.db")).unwrap();
    assert_eq!(store.dd_count().unwrap(), n as u64);
    assert_eq!(store.deal_count().unwrap(), deals_before);
}

/// generate → solve → PBN with the double-dummy tags, in one pipeline; the PBN output of
/// `solve` imports into another database without solving again.
#[test]
fn a_generated_set_goes_to_pbn_with_its_tables() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let seed = "5".repeat(64);
    let ok = |args: &[&str]| {
        let out = dealdex(d).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    ok(&[
        "generate", "--boards", "1-4", "--seed", &seed, "--out", "club.pbn",
    ]);
    let solved = ok(&["solve", "--set", "club", "--format", "pbn", "-q"]);
    let text = String::from_utf8(solved.stdout).unwrap();
    assert!(text.starts_with("% PBN 2.1\n"), "{text}");
    assert_eq!(text.matches("[OptimumResultTable \"").count(), 4);
    let exported = ok(&["export", "--set", "club", "--out", "-"]);
    let exported = String::from_utf8(exported.stdout).unwrap();
    for tag in [
        "[DoubleDummyTricks \"",
        "[OptimumScore \"",
        "[ParContract \"",
    ] {
        let lines = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| l.starts_with(tag))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(lines(&text), lines(&exported), "{tag}");
        assert_eq!(lines(&text).len(), 4);
    }
    std::fs::write(d.join("solved.pbn"), &text).unwrap();
    ok(&["import", "solved.pbn", "--db", "other.db"]);
    let out = ok(&["solve", "solved.pbn", "--db", "other.db"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("4 deals: 0 solved, 4 already solved"), "{err}");
}

/// The issue's own queries on a solved database: `dd` with a sum of HCP, and par.
#[test]
fn dd_with_sums_and_par_query_a_solved_set() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    generate_club(d);
    dealdex(d)
        .args(["solve", "--set", "club", "-q"])
        .assert()
        .success();
    let store = Store::open(&d.join("dealdex.db")).unwrap();
    let boards = store.set_boards("club").unwrap();
    for expr in [
        "dd(N, notrump) >= 9 and hcp(N) + hcp(S) <= 22",
        "par(NS, none) > 0",
        "par(EW, all, W) >= 100 or dd(E, spades) - dd(N, spades) >= 2",
    ] {
        let q = dealdex::query::Query::parse(expr).unwrap();
        // Expected from the stored tables through the Rust evaluator.
        let want = boards
            .iter()
            .filter(|(_, k)| {
                let table = store.dd_table(k).unwrap().unwrap();
                q.matches_with_dd(&k.to_deal().unwrap(), &table)
            })
            .count();
        assert_eq!(club_count(d, expr), want.to_string(), "{expr}");
    }
}

/// `generate --where` with a `dd` term solves only the deals the cheaper condition lets
/// through, and says how many it solved.
#[test]
fn generate_where_dd_reports_the_deals_it_solved() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let out = dealdex(d)
        .args([
            "generate",
            "--boards",
            "1-2",
            "--seed",
            &"7e".repeat(32),
            "--no-db",
        ])
        .args(["--where", "hcp(NS) >= 26 and dd(NS, notrump) >= 10"])
        .args(["--out", "strong.pbn"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let grab = |after: &str, before: char| -> u64 {
        let at = err
            .find(after)
            .unwrap_or_else(|| panic!("{after:?} in {err}"))
            + after.len();
        err[at..]
            .split(before)
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    let drawn = grab("(drew ", ' ');
    let solved = grab("solved ", ' ');
    // The strong deals of boards `from..=to` of the stream itself.
    let seed: dealdex::Seed = "7e".repeat(32).parse().unwrap();
    let cheap = dealdex::query::Query::parse("hcp(NS) >= 26").unwrap();
    let strong = |from: u64, to: u64| {
        (from..=to)
            .filter(|&b| cheap.matches(&seed.board_deal(b)))
            .count() as u64
    };
    let before = strong(1, drawn);
    assert!(before >= 2, "{err}");
    // Solved: the strong deals drawn, plus those of the chunks in flight past the last
    // match (a window of 4 chunks a thread, 4 deals a chunk: 64 deals on up to 4 threads).
    let after = strong(drawn + 1, drawn + 64);
    assert!(
        solved >= before && solved <= before + after,
        "{solved} solved, {before} strong deals drawn, {after} in the next 64: {err}"
    );
    assert!(solved < drawn, "{err}");
    let boards = dealdex::formats::Pbn
        .read(&std::fs::read(d.join("strong.pbn")).unwrap())
        .unwrap();
    for b in boards {
        let table = dealdex::dd::solve(&b.deal);
        assert!(
            table.side_tricks(
                dealdex::features::Side::NorthSouth,
                dealdex::Strain::NoTrump
            ) >= 10
        );
    }
}

/// JSON lines of `dealdex solve ARGS --no-db --format json -q`, fed `stdin`.
fn solve_json(d: &Path, args: &[&str], stdin: &str) -> Vec<serde_json::Value> {
    let out = dealdex(d)
        .arg("solve")
        .args(args)
        .args(["--no-db", "--format", "json", "-q"])
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn keys_piped_to_standard_input_are_solved_as_when_given_as_arguments() {
    let dir = TempDir::new().unwrap();
    // Four reference deals as hex indices with the `-X` suffix of their board number.
    let keys: Vec<String> = reference()[3..7]
        .iter()
        .map(|r| {
            let deal: Deal = r["deal"].as_str().unwrap().parse().unwrap();
            let board = r["board"].as_u64().unwrap();
            format!("{}-{:X}", DealIndex::from_deal(&deal), board % 16)
        })
        .collect();
    let piped = solve_json(
        dir.path(),
        &["-", "--input-format", "hex", "--batch", "2"],
        &(keys.join("\n") + "\n"),
    );
    let args: Vec<&str> = keys.iter().map(String::as_str).collect();
    let given = solve_json(dir.path(), &args, "");
    assert_eq!(piped.len(), keys.len());
    for ((p, g), r) in piped.iter().zip(&given).zip(&reference()[3..7]) {
        for field in ["index", "tricks", "par", "dealer", "vul"] {
            assert_eq!(p[field], g[field], "{field} of {}", g["index"]);
        }
        assert_eq!(p["tricks"], r["tricks"]);
        assert_eq!(p["dealer"], r["dealer"]);
    }

    // Without --from, standard input's format is told from its content, as convert's is
    // (the same source: the pipeline's file or standard input, opened once).
    let told = solve_json(
        dir.path(),
        &["-", "--batch", "2"],
        &(keys.join("\n") + "\n"),
    );
    assert_eq!(told, piped);
    // Content that shows no format: bad input, said plainly.
    let out = dealdex(dir.path())
        .args(["solve", "-", "--no-db"])
        .write_stdin("shopping list\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>"), "{err}");
    // A bad line is named by its place on standard input.
    let out = dealdex(dir.path())
        .args(["solve", "-", "--input-format", "hex", "--no-db"])
        .write_stdin(format!("{}\nnot a key\n", keys[0]))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>: line 2"), "{err}");
}
