//! Issue 50, the third fault hunt: each defect it found, reproduced through the command as a
//! user runs it (exit code, the one line on standard error, every file as it was), so that the
//! tests hold through the redesign of the sources and sinks that follows.

use std::path::Path;

use crate::common::{self, dealdex, entries};

/// The hunt's lead problem (`L` in the issue): South declares 3NT, West leads from this hand.
const LEAD: [&str; 5] = ["lead", "--hand", "AQ4.J.KJ6543.632", "--declarer", "S"];

/// Every file of `dir` with its bytes, to show that a refused command changed nothing.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    entries(dir)
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap_or_default();
            (n, bytes)
        })
        .collect()
}

/// Runs dealdex in `dir`, expects exit code 2 and one line on standard error holding each of
/// `names`, and every file of `dir` left as it was.
fn refused(dir: &Path, args: &[&str], names: &[&str]) {
    let before = snapshot(dir);
    let out = dealdex(dir).args(args).output().unwrap();
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for name in names {
        assert!(
            err.contains(name),
            "{args:?}: {err:?} does not name {name:?}"
        );
    }
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(snapshot(dir), before, "{args:?} changed the directory");
}

/// Runs dealdex in `dir` and expects success (the setup of a test).
fn succeeds(dir: &Path, args: &[&str]) {
    let out = dealdex(dir).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", common::stderr(&out));
}

fn lead_with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    LEAD.iter().copied().chain(extra.iter().copied()).collect()
}

#[test]
fn a_contract_that_does_not_read_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    for contract in ["8NT", "0NT", "7NTXXX", ""] {
        let args = lead_with(&["--contract", contract, "--deals", "2"]);
        refused(dir.path(), &args, &["--contract", &format!("{contract:?}")]);
    }
}

#[test]
fn a_seed_that_does_not_read_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let args = lead_with(&["--contract", "3NT", "--seed", "zz", "--deals", "2"]);
    refused(dir.path(), &args, &["--seed", "\"zz\""]);
    // With --script the seed is dealer's number (-s), not 64 hex digits: said so.
    std::fs::write(dir.path().join("s.dei"), "condition hcp(south) > 5\n").unwrap();
    let hex = "ab".repeat(32);
    let args = lead_with(&["--contract", "3NT", "--script", "s.dei", "--seed", &hex]);
    refused(dir.path(), &args, &["--seed", "dealer's seed number"]);
}

#[test]
fn a_dealer_script_that_is_missing_a_directory_or_not_text_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    refused(dir.path(), &["dealer", "missing.dei"], &["missing.dei"]);
    std::fs::create_dir(dir.path().join("scripts")).unwrap();
    refused(dir.path(), &["dealer", "scripts"], &["scripts"]);
    std::fs::write(dir.path().join("latin1.dei"), b"produce 1\n# caf\xe9\n").unwrap();
    refused(
        dir.path(),
        &["dealer", "latin1.dei"],
        &["latin1.dei", "line 2", "column 6", "byte 15", "UTF-8"],
    );
}

#[test]
fn csv_naming_the_database_or_the_deal_file_is_refused_and_both_stay() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A stored sample in l3.db, and the same deals in a file.
    let out = dealdex(d)
        .args(lead_with(&["--contract", "3NT", "--deals", "3", "--seed"]))
        .arg("11".repeat(32))
        .args(["--store", "x", "--db", "l3.db"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    succeeds(
        d,
        &[
            "export",
            "--set",
            "x",
            "--db",
            "l3.db",
            "--out",
            "sample.pbn",
        ],
    );
    let args = lead_with(&[
        "--contract",
        "3NT",
        "--deals",
        "3",
        "--store",
        "y",
        "--db",
        "l3.db",
        "--csv",
        "l3.db",
    ]);
    refused(d, &args, &["--csv", "l3.db", "--db"]);
    // Spelled another way, the same file.
    let args = [
        "lead",
        "--contract",
        "3NT",
        "--declarer",
        "S",
        "--file",
        "sample.pbn",
        "--csv",
        "./sample.pbn",
        "--db",
        "l3.db",
    ];
    refused(d, &args, &["--csv", "--file", "sample.pbn"]);
}

#[test]
fn csv_to_standard_output_writes_no_file_named_dash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = dealdex(d)
        .args(lead_with(&[
            "--contract",
            "3NT",
            "--deals",
            "2",
            "--csv",
            "-",
        ]))
        .args(["--seed", &"22".repeat(32)])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(!d.join("-").exists(), "a file named '-'");
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().next().unwrap_or_default();
    assert!(header.contains(',') && header.contains("card"), "{text}");
    // Every line is a CSV row of the same width: the text table is not mixed in.
    let width = header.split(',').count();
    assert!(
        text.lines().all(|l| l.split(',').count() == width),
        "{text}"
    );
}

#[test]
fn a_csv_that_cannot_be_written_fails_first_and_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = lead_with(&[
        "--contract",
        "3NT",
        "--deals",
        "2",
        "--store",
        "w",
        "--db",
        "l.db",
        "--csv",
        "no/such/dir/t.csv",
    ]);
    let out = dealdex(d).args(&args).output().unwrap();
    let err = common::stderr(&out);
    assert!(!out.status.success());
    assert!(err.contains("t.csv"), "{err}");
    // Nothing stored: the database was not even made.
    assert_eq!(entries(d), Vec::<String>::new());
}

#[test]
fn a_sample_read_from_a_file_or_set_refuses_the_flags_that_deal_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = dealdex(d)
        .args(lead_with(&[
            "--contract",
            "3NT",
            "--deals",
            "2",
            "--csv",
            "-",
        ]))
        .args(["--seed", &"33".repeat(32), "--store", "s", "--db", "l.db"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    succeeds(
        d,
        &["export", "--set", "s", "--db", "l.db", "--out", "s.pbn"],
    );
    std::fs::write(d.join("s.dei"), "condition hcp(south) > 5\n").unwrap();
    let hex = "44".repeat(32);
    let dealing: [&[&str]; 4] = [
        &["--where", "hcp(N) >= 10"],
        &["--script", "s.dei"],
        &["--seed", &hex],
        &["--max-draws", "100"],
    ];
    for flags in dealing {
        for sample in [["--file", "s.pbn"], ["--set", "s"]] {
            let mut args = vec![
                "lead",
                "--contract",
                "3NT",
                "--declarer",
                "S",
                "--db",
                "l.db",
            ];
            args.extend(sample);
            args.extend(flags);
            let before = snapshot(d);
            let out = dealdex(d).args(&args).output().unwrap();
            let err = common::stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains(flags[0]) && err.contains(sample[0]),
                "{args:?}: {err}"
            );
            assert_eq!(snapshot(d), before, "{args:?}");
        }
    }
}

#[test]
fn a_rejected_import_makes_no_database() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bad.pbn"), "garbage\n").unwrap();
    let out = dealdex(d)
        .args(["import", "bad.pbn", "--db", "new.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    assert_eq!(entries(d), ["bad.pbn"]);
    // An existing database stays, byte for byte.
    succeeds(
        d,
        &[
            "generate",
            "--boards",
            "1-2",
            "--seed",
            &"55".repeat(32),
            "--db",
            "old.db",
            "--out",
            "two.pbn",
        ],
    );
    let before = snapshot(d);
    let out = dealdex(d)
        .args(["import", "bad.pbn", "--db", "old.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    assert_eq!(snapshot(d), before);
}

#[test]
fn a_fd_shape_no_hand_can_have_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for shape in ["7M(7xx)", "99M(xxx)", "5M(xxx) + 7m(7xx)"] {
        let script = format!("produce 1\ncondition shape{{north, {shape}}}\n");
        std::fs::write(d.join("fd.dei"), script).unwrap();
        refused(
            d,
            &["dealer", "fd.dei", "-s", "1"],
            &["line 2", "matches no hand"],
        );
    }
    // A shape some hand has still runs.
    std::fs::write(
        d.join("fd.dei"),
        "produce 1\ncondition shape{north, 5M(xxx)}\n",
    )
    .unwrap();
    succeeds(d, &["dealer", "fd.dei", "-s", "1"]);
}

/// `d0 = <first>`, then `dN = dN-1 + dN-1` up to `d<last>`, the condition on the last.
fn doubling_chain(first: &str, last: usize) -> String {
    let mut s = format!("produce 1\nd0 = {first}\n");
    for i in 1..=last {
        s += &format!("d{i} = d{} + d{}\n", i - 1, i - 1);
    }
    s + &format!("condition d{last} >= 0\naction printoneline\n")
}

#[test]
fn definitions_doubling_rnd_draws_are_refused_not_run_for_ever() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Dealer draws anew at each use of a definition with rnd: d21 takes 2^21 draws a deal.
    std::fs::write(d.join("chain.dei"), doubling_chain("rnd(10)", 30)).unwrap();
    refused(
        d,
        &["dealer", "chain.dei", "-s", "1"],
        &["line 23", "`d21`", "rnd"],
    );
    // Without rnd a definition is one value a deal: 60 levels run at once.
    std::fs::write(d.join("chain.dei"), doubling_chain("hcp(north)", 60)).unwrap();
    succeeds(d, &["dealer", "chain.dei", "-s", "1"]);
}

#[test]
fn a_held_lock_is_said_as_documented_by_every_storing_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    succeeds(
        d,
        &[
            "generate",
            "--boards",
            "1-2",
            "--seed",
            &"66".repeat(32),
            "--db",
            "lk.db",
            "--out",
            "lk.pbn",
        ],
    );
    // Another process's write transaction, held open through the commands below.
    let lock = rusqlite::Connection::open(d.join("lk.db")).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let hex = "77".repeat(32);
    let storing: [&[&str]; 3] = [
        &["import", "lk.pbn", "--db", "lk.db"],
        &[
            "lead",
            "--hand",
            "AQ4.J.KJ6543.632",
            "--declarer",
            "S",
            "--contract",
            "3NT",
            "--deals",
            "2",
            "--seed",
            &hex,
            "--store",
            "z",
            "--db",
            "lk.db",
        ],
        &[
            "generate", "--boards", "1-2", "--seed", &hex, "--db", "lk.db", "--out", "g.pbn",
        ],
    ];
    for args in storing {
        let out = dealdex(d)
            .env("DEALDEX_BUSY_TIMEOUT", "1")
            .args(args)
            .output()
            .unwrap();
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("database is busy: another process is writing")
                && !err.contains("database is locked"),
            "{args:?}: {err}"
        );
    }
    lock.execute_batch("ROLLBACK").unwrap();
}

#[test]
fn a_script_past_the_size_bound_is_refused_before_parsing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let line = format!("# {}\n", "x".repeat(1021));
    let mut script = String::from("produce 1\n");
    while script.len() <= dealdex::workflow::dealer::MAX_SCRIPT_BYTES as usize {
        script += &line;
    }
    std::fs::write(d.join("huge.dei"), &script).unwrap();
    refused(
        d,
        &["dealer", "huge.dei", "-s", "1"],
        &["huge.dei", "16 MiB"],
    );
    // Through standard input too.
    let out = dealdex(d)
        .args(["dealer", "-", "-s", "1"])
        .write_stdin(script)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
}

#[test]
fn a_lead_sample_past_the_bound_is_refused_before_dealing() {
    let dir = tempfile::tempdir().unwrap();
    for deals in ["18446744073709551615", "1000001"] {
        let args = lead_with(&["--contract", "3NT", "--deals", deals, "--seed", "ab"]);
        // (The seed is checked first: give a good one.)
        let hex = "88".repeat(32);
        let args: Vec<&str> = args
            .into_iter()
            .map(|a| if a == "ab" { hex.as_str() } else { a })
            .collect();
        refused(dir.path(), &args, &["--deals", deals, "1000000"]);
    }
}

#[test]
fn per_card_frequency_tables_count_toward_the_cell_bound() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 99 one-way tables of 100,001 rows, a column per lead card: past the 10 M cells.
    let mut script = String::from("produce 1\naction\n");
    for i in 0..99 {
        let sep = if i < 98 { "," } else { "" };
        script += &format!("frequency (leadtricks(south, notrump), 0, 99998){sep}\n");
    }
    std::fs::write(d.join("freq.dei"), script).unwrap();
    refused(d, &["dealer", "freq.dei", "-s", "1"], &["cells in all"]);
}

#[test]
fn digits_glued_to_a_word_read_as_dealer_reads_them() {
    // Practice-Bidding-Scenarios' Bergen_Raises: `tp>10 and tp<14and shape(…)`, which Debian's
    // dealer reads as `14 and`.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let glued = "produce 3\ntp = hcp(south)\ncondition tp>10 and tp<14and shape(south, any 4xxx)\naction printoneline\n";
    let spaced = glued.replace("14and", "14 and");
    let run = |script: &str| {
        std::fs::write(d.join("g.dei"), script).unwrap();
        let out = dealdex(d)
            .args(["dealer", "g.dei", "-s", "5"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", common::stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b) = (run(glued), run(&spaced));
    let deals = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with("n "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(deals(&a).len(), 3, "{a}");
    assert_eq!(deals(&a), deals(&b));
}

#[test]
fn convert_refuses_board_numbers_past_what_a_database_holds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    succeeds(
        d,
        &[
            "generate",
            "--count",
            "3",
            "--seed",
            &"99".repeat(32),
            "--out",
            "three.hex",
        ],
    );
    let max = "9223372036854775807";
    refused(
        d,
        &["convert", "three.hex", "big.pbn", "--first-board", max],
        &["--first-board", max, "past"],
    );
    // Up to the maximum itself is fine.
    succeeds(
        d,
        &[
            "convert",
            "three.hex",
            "top.pbn",
            "--first-board",
            "9223372036854775805",
        ],
    );
}

#[test]
fn files_of_nothing_but_skipped_boards_are_refused_not_held() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 120,000 PBN games without a deal (2.8 MB: a single piece), and a deal file that
    // `/dev/zero` stands for as a solved-deal library (its zero records are skipped).
    let empty: String = "[Board \"1\"]\n[Deal \"\"]\n\n".repeat(120_000);
    std::fs::write(d.join("empty.pbn"), empty).unwrap();
    let bound = "more than 100000 boards skipped";
    refused(
        d,
        &["convert", "empty.pbn", "o.pbn", "--from", "pbn"],
        &[bound, "empty.pbn"],
    );
    refused(
        d,
        &["convert", "/dev/zero", "z.pbn", "--from", "rp-library"],
        &[bound],
    );
    // import reports each file, then the total.
    let out = dealdex(d)
        .args(["import", "empty.pbn", "--db", "e.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).contains(bound),
        "{}",
        common::stderr(&out)
    );
    assert!(!d.join("e.db").exists());
    std::fs::write(
        d.join("s.dei"),
        "condition hcp(north) > 10\naction printall\n",
    )
    .unwrap();
    refused(d, &["dealer", "s.dei", "--deals", "empty.pbn"], &[bound]);
    let lead = [
        "lead",
        "--contract",
        "3NT",
        "--declarer",
        "S",
        "--file",
        "empty.pbn",
    ];
    refused(d, &lead, &[bound]);
    // At the bound, a file converts (each skipped board reported) its one deal.
    let mut under: String = "[Board \"1\"]\n[Deal \"\"]\n\n".repeat(100_000);
    under.push_str("[Board \"2\"]\n[Deal \"N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432\"]\n");
    std::fs::write(d.join("under.pbn"), under).unwrap();
    succeeds(d, &["convert", "under.pbn", "u.hex"]);
    assert_eq!(
        std::fs::read_to_string(d.join("u.hex"))
            .unwrap()
            .lines()
            .count(),
        1
    );
}

#[test]
fn a_lead_of_a_card_the_predeal_gives_away_is_refused_before_drawing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // West holds no ♥A: the lead term has no value on any deal, negated or not.
    for query in [
        "lead(W, nt, HA) >= 0",
        "not lead(W, nt, HA) >= 0",
        "lead(W, nt, HA) >= 0 and hcp(N) > 5",
    ] {
        let args = [
            "generate",
            "--count",
            "1",
            "--predeal",
            "W:AQ4.J.KJ6543.632",
            "--where",
            query,
            "--out",
            "o.hex",
        ];
        refused(d, &args, &["has no value", "West does not hold HA"]);
    }
    // Undecided: another operand may hold; and a lead of a card West holds.
    for query in ["lead(W, nt, HA) >= 0 or hcp(N) > 5", "lead(W, nt, SA) >= 0"] {
        let args = [
            "generate",
            "--count",
            "1",
            "--predeal",
            "W:AQ4.J.KJ6543.632",
            "--where",
            query,
            "--out",
            "o.hex",
        ];
        succeeds(d, &args);
    }
}

#[test]
fn a_dup_of_a_set_with_gaps_counts_the_boards_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deal = "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432";
    let pbn = format!("[Board \"4\"]\n[Deal \"{deal}\"]\n\n[Board \"8\"]\n[Deal \"{deal}\"]\n");
    std::fs::write(d.join("gaps.pbn"), pbn).unwrap();
    succeeds(d, &["convert", "gaps.pbn", "gaps.dup"]);
    let dup = std::fs::read(d.join("gaps.dup")).unwrap();
    assert_eq!(dup.len(), 2 * 156);
    // Big Deal's trailer: start 1, copies 0, two boards (not 8 − 4 + 1).
    for record in dup.chunks(156) {
        assert_eq!(&record[146..156], b"YN1  0 02 ");
    }
}

#[test]
fn dealer_arithmetic_past_64_bits_stops_with_the_deal_not_wraps() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let max = "9223372036854775807";
    // The compiled condition (a column a piece at a time), an average (statistics-only
    // actions, tallied a block at a time), the interpreter (`rnd` keeps a condition out of
    // the compiled kernels) and a minus sign.
    for (name, script) in [
        ("column.dei", format!("condition {max} + hcp(north) > 0\n")),
        (
            "average.dei",
            format!("condition hcp(north) > 10\naction average {max} * hcp(south)\n"),
        ),
        ("rnd.dei", format!("condition rnd(2) + {max} > 0\n")),
        ("neg.dei", format!("condition -(-{max} - hcp(east)) > 0\n")),
    ] {
        std::fs::write(d.join(name), script).unwrap();
        let before = snapshot(d);
        let out = dealdex(d)
            .args(["dealer", name, "-s", "1", "-g", "1000"])
            .output()
            .unwrap();
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.starts_with("dealdex: error: deal ") && err.contains("integer overflow"),
            "{name}: {err}"
        );
        assert_eq!(snapshot(d), before);
    }
    // An overflow only where the operand is not needed (`||` whose left side holds) is no
    // error: the same deals as without that operand.
    let run = |condition: &str| {
        let script = format!("generate 5000\ncondition {condition}\naction average hcp(north)\n");
        std::fs::write(d.join("or.dei"), script).unwrap();
        let out = dealdex(d)
            .args(["dealer", "or.dei", "-s", "1"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{condition}: {}",
            common::stderr(&out)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        // Less the run's time.
        text.lines()
            .filter(|l| !l.contains("Time"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let spare = format!("hcp(north) > 20 || (hcp(north) > 20) * {max} * 2 > 0");
    assert_eq!(run(&spare), run("hcp(north) > 20"));
}
