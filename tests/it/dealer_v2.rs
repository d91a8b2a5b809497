//! DealerV2's statements, functions and actions that its own examples use (issue 49, item 5):
//! `seed N`, `ltc`, doubled and redoubled contracts in `score`, `printns`, `printside`,
//! `export`, `opener`, `bktfreq`, and `usereval` and `opc` refused by name. Each against what DealerV2
//! printed for dealdex's scripts of `tests/fixtures/dealer/v2/` (its README says how).

use std::process::Output;

use assert_cmd::Command;
use dealdex::dealer::{Action, ErrorKind, Script, ltc};

use crate::common::dealer::fixtures;

fn read(name: &str) -> String {
    std::fs::read_to_string(fixtures("v2").join(name)).unwrap()
}

/// `dealdex dealer ARGS…` (no `-s` unless given).
fn dealer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .arg("dealer")
        .args(args)
        .output()
        .unwrap()
}

/// `dealdex dealer v2/NAME.dei ARGS…`'s standard output, the run succeeding.
fn runs(name: &str, args: &[&str]) -> String {
    let path = fixtures("v2").join(format!("{name}.dei"));
    let mut all = vec![path.to_str().unwrap()];
    all.extend(args);
    let out = dealer(&all);
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A script on standard input: its output.
fn stdin(script: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .arg("dealer")
        .arg("-")
        .args(args)
        .write_stdin(script)
        .output()
        .unwrap()
}

/// The 13-bit holding (bit 0 = ace) of `cards` (`AQT9`, empty for a void).
fn holding(cards: &str) -> u64 {
    cards
        .chars()
        .map(|c| 1u64 << "AKQJT98765432".find(c).unwrap())
        .sum()
}

#[test]
fn ltc_is_dealer_v2s_on_every_hand_it_printed() {
    // ` n AQ7.AJT52.KQ9.T9 ,100,150,100,200,550`: North, ltc of ♠ ♥ ♦ ♣, ltc(north).
    let fixture = read("ltc.dealerv2");
    let mut seen = std::collections::BTreeSet::new();
    for line in fixture.lines() {
        let (hand, values) = line.trim_start()[2..].split_once(" ,").unwrap();
        let v: Vec<i64> = values.split(',').map(|x| x.parse().unwrap()).collect();
        let suits: Vec<u64> = hand.split('.').map(holding).collect();
        for (s, h) in suits.iter().enumerate() {
            assert_eq!(ltc(*h), v[s], "{line}: suit {s}");
            seen.insert(v[s]);
        }
        assert_eq!(suits.iter().map(|&h| ltc(h)).sum::<i64>(), v[4], "{line}");
    }
    // Every step of the count occurs in DealerV2's sample.
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [0, 50, 100, 150, 200, 250, 300]
    );
    // Its rule's corners, by hand: Qxx 2.5, AQ 0.5, singleton K 0.5, void 0, KJT 1.5.
    for (cards, want) in [("Q32", 250), ("AQ", 50), ("K", 50), ("", 0), ("KJT9", 150)] {
        assert_eq!(ltc(holding(cards)), want, "{cards}");
    }
    // Through the script: one run prints ltc(seat) and ltc(seat, suit) of a predealt hand.
    let out = stdin(
        "predeal north SAQ, HQ32, DKJT9, CK543\nproduce 1\naction printes(ltc(north), \" \", ltc(north, hearts), \" \", ltc(north, clubs), \\n)",
        &["-v", "-s", "1"],
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "650 250 200\n");
}

#[test]
fn doubled_and_redoubled_scores_are_dealer_v2s() {
    // Every contract, undoubled, doubled and redoubled, not vulnerable and vulnerable, 0-13
    // tricks: byte for byte as DealerV2 printed them.
    assert_eq!(runs("score", &["-v", "-s", "1"]), read("score.dealerv2"));
    let s = Script::parse("x = score(vul, z4Hxx, 10)").unwrap();
    assert!(matches!(
        s.definitions[0].1,
        dealdex::dealer::Expr::Score(true, c, _) if c.doubling == dealdex::Doubling::Redoubled
    ));
}

#[test]
fn printns_printside_and_export_are_dealer_v2s_bytes() {
    assert_eq!(runs("sides", &["-v", "-s", "1"]), read("sides.dealerv2"));
    assert_eq!(runs("export", &["-v", "-s", "1"]), read("export.dealerv2"));
}

#[test]
fn statistics_agree_with_dealer_v2s_over_its_seed() {
    // DealerV2: `Mean=  665.5610, Std Dev=  135.8240, Var=…, Sample Size=53422`.
    let want: Vec<(f64, f64, f64)> = read("stats.dealerv2")
        .lines()
        .filter_map(|l| {
            let num = |k: &str| -> f64 {
                let rest = &l[l.find(k).unwrap() + k.len()..];
                rest.split(',').next().unwrap().trim().parse().unwrap()
            };
            l.starts_with("Mean=")
                .then(|| (num("Mean="), num("Std Dev="), num("Sample Size=")))
        })
        .collect();
    assert_eq!(want.len(), 4);
    // dealdex runs the script's seed (no -s): other deals than DealerV2's, same statistics.
    let out = runs("stats", &[]);
    let got: Vec<f64> = out.lines().take(4).map(|l| l.parse().unwrap()).collect();
    let produced: f64 = out.lines().nth(5).unwrap()["Produced ".len()..]
        .trim_end_matches(" hands")
        .parse()
        .unwrap();
    assert!(out.contains("Initial random seed 20240601"), "{out}");
    for ((mean, sd, n), g) in want.iter().zip(&got) {
        let se = (sd * sd / n + sd * sd / produced).sqrt();
        assert!(
            (mean - g).abs() <= 4.0 * se,
            "{mean} vs {g} (se {se})\n{out}"
        );
    }
    // The share of deals meeting the condition agrees too (binomial, 4 standard errors).
    let p = want[0].2 / 100_000.0;
    let se = (2.0 * p * (1.0 - p) / 100_000.0).sqrt();
    assert!((produced / 100_000.0 - p).abs() <= 4.0 * se, "{produced}");
}

#[test]
fn seed_statement_seeds_the_run_and_the_command_line_wins() {
    let script = "seed 42\nproduce 3\naction printoneline\n";
    let plain = "produce 3\naction printoneline\n";
    let deals = |s: &str, args: &[&str]| {
        let out = stdin(s, args);
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    // `seed 42` is `-s 42`.
    assert_eq!(deals(script, &["-v"]), deals(plain, &["-v", "-s", "42"]));
    assert!(deals(script, &[]).contains("Initial random seed 42"));
    // The command line's seed wins over the script's, as in DealerV2.
    assert_eq!(
        deals(script, &["-v", "-s", "7"]),
        deals(plain, &["-v", "-s", "7"])
    );
    assert_ne!(deals(script, &["-v", "-s", "7"]), deals(script, &["-v"]));
    // `seed 0` is no seed (DealerV2 seeds from the kernel then): two runs differ.
    let zero = "seed 0\nproduce 3\naction printoneline\n";
    assert_ne!(deals(zero, &[]), deals(zero, &[]));
    // The first seed counts; `seed` not followed by a number stays a variable name.
    assert_eq!(Script::parse("seed 5\nseed 6").unwrap().seed, Some(5));
    assert!(
        Script::parse("seed = 3\ncondition seed > 2")
            .unwrap()
            .seed
            .is_none()
    );
}

#[test]
fn opener_is_read_and_bad_uses_exit_2_with_their_line() {
    let s = Script::parse("opener east\nproduce 1").unwrap();
    assert_eq!(s.opener, Some(dealdex::Seat::East));
    for (script, line, says) in [
        ("produce 1\naction printside(NE)", 2, "a side (NS or EW)"),
        ("produce 1\n\naction export(deal)", 3, "a seat or a side"),
        ("condition ltc(north, notrump) > 500", 1, "suit"),
        ("x = score(vul, z4Hxxx, 10)", 1, "is not a contract"),
        ("opener northwest", 1, "seat"),
    ] {
        let out = stdin(script, &["-s", "1"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{script}: {err}");
        assert!(err.contains(&format!("line {line}:")), "{script}: {err}");
        assert!(err.contains(says), "{script}: {err}");
    }
}

#[test]
fn usereval_and_opc_are_refused_naming_the_external_program() {
    for (script, names) in [
        (
            "produce 1\n\ncondition usereval(10, NS, 0) > 20",
            "external evaluation program (DealerServer",
        ),
        (
            "produce 1\n\ncondition opc(NS) > 2600",
            "Optimal Point Count program",
        ),
    ] {
        let out = stdin(script, &["-s", "1"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("line 3:") && err.contains(names), "{err}");
        let e = Script::parse(script).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Unsupported { .. }), "{e}");
    }
}

#[test]
fn an_unclosed_title_ends_with_its_line_as_in_dealer_v2() {
    let s = Script::parse("title \"No closing quote\nproduce 3\n").unwrap();
    assert_eq!(s.title.as_deref(), Some("No closing quote"));
    assert_eq!(s.produce, Some(3));
    // Other strings still need their quote.
    assert!(Script::parse("action average \"label\nhcp(north)").is_err());
}

#[test]
fn bktfreq_tables_are_dealer_v2s_bytes() {
    // One-way and two-way, labelled or not, Low, High, a bucket past `high`, negative
    // values, decimal bounds: byte for byte as DealerV2 printed them.
    assert_eq!(
        runs("bktfreq", &["-v", "-s", "1"]),
        read("bktfreq.dealerv2")
    );
    let s = Script::parse(
        "action bktfreq \"KnR\" (cccc(north), 5.00, 22.00, 0.50),\n\
         bktfreq (cccc(north), 10, 20.5, 2, hcp(north), 5, 22, 1)",
    )
    .unwrap();
    assert!(matches!(&s.actions[0], Action::BktFreq(Some(l), _, 500, 2200, 50) if l == "KnR"));
    assert!(matches!(
        s.actions[1],
        Action::BktFreq2(None, _, 10, 2050, 2, _, 5, 22, 1)
    ));
    // Statistics only: `produce` is not 40 (as for `frequency`).
    assert_eq!(s.produce_limit(), u64::MAX);
}

/// The counts of every table of `text` (dealer's closing lines after them): for each table
/// (in order), row name (`Low`, `900`, `High`) and column, the count; `Sum` rows and
/// columns left out.
fn bucket_counts(text: &str) -> std::collections::BTreeMap<(usize, String, usize), f64> {
    let mut counts = std::collections::BTreeMap::new();
    let (mut table, mut two_way) = (0, false);
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("Frequency ") || line.starts_with("Showing 2D") {
            table += 1;
            two_way = line.starts_with("Showing 2D");
            if two_way {
                lines.next(); // the columns' names
            }
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let ends = ["Generated", "Produced", "Initial", "Time", "Sum"];
        if words.is_empty() || ends.contains(&words[0]) {
            continue;
        }
        let cells = if two_way { words.len() - 2 } else { 1 };
        for (c, n) in words[1..=cells].iter().enumerate() {
            counts.insert((table, words[0].to_owned(), c), n.parse().unwrap());
        }
    }
    counts
}

#[test]
fn bktfreq_statistics_agree_with_dealer_v2s_over_its_seed() {
    let want_text = read("bktstats.dealerv2");
    let produced = |text: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with("Produced")).unwrap();
        line["Produced".len()..]
            .trim()
            .trim_end_matches(" hands")
            .parse()
            .unwrap()
    };
    // dealdex runs the script's seed (no -s): other deals than DealerV2's, same statistics.
    let got_text = runs("bktstats", &[]);
    assert!(
        got_text.contains("Initial random seed 20240602"),
        "{got_text}"
    );
    let (n1, n2) = (produced(&want_text), produced(&got_text));
    let (want, got) = (bucket_counts(&want_text), bucket_counts(&got_text));
    // The same tables, rows and columns (Low and High counted in both).
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        got.keys().collect::<Vec<_>>(),
        "{got_text}"
    );
    assert!(want.len() > 50, "{} cells", want.len());
    // Each bucket's share of the produced deals: within 5 standard errors (two binomial
    // samples, the pooled share's variance).
    for (key, &a) in &want {
        let b = got[key];
        let p = (a + b) / (n1 + n2);
        let se = (p * (1.0 - p) * (1.0 / n1 + 1.0 / n2)).sqrt();
        assert!(
            (a / n1 - b / n2).abs() <= 5.0 * se + 1e-12,
            "{key:?}: DealerV2 {a} of {n1}, dealdex {b} of {n2}\n{got_text}"
        );
    }
    // The share of deals meeting the condition agrees too (binomial, 4 standard errors).
    let p = n1 / 100_000.0;
    let se = (2.0 * p * (1.0 - p) / 100_000.0).sqrt();
    assert!((n2 / 100_000.0 - p).abs() <= 4.0 * se, "{n2}");
}

#[test]
fn bad_bucket_specifications_exit_2_with_their_line() {
    for (script, line, says) in [
        (
            "produce 1\n\naction bktfreq (hcp(north), 0, 10, 0)",
            3,
            "bucket size of 0",
        ),
        (
            "produce 1\naction bktfreq \"x\" (cccc(north), 10.0, 20.0, -0.5)",
            2,
            "bucket size of -50",
        ),
        (
            "produce 1\naction bktfreq (hcp(north), 10, 0, 1)",
            2,
            "bounds 10, 0",
        ),
        (
            "produce 1\naction\n bktfreq (hcp(north), 0, 10000000, 1)",
            3,
            "buckets",
        ),
        (
            "produce 1\naction bktfreq (hcp(north), 0, 2000, 1, hcp(south), 0, 2000, 1)",
            2,
            "cells",
        ),
        // The size may not be left out (DealerV2's grammar wants it on both axes).
        (
            "produce 1\naction bktfreq (hcp(north), 0, 10, 1, hcp(south), 0, 10)",
            2,
            "",
        ),
    ] {
        let out = stdin(script, &["-s", "1"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{script}: {err}");
        assert!(err.contains(&format!("line {line}:")), "{script}: {err}");
        assert!(err.contains(says), "{script}: {err}");
        assert!(out.stdout.is_empty(), "{script}");
    }
}
