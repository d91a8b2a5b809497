//! `dealdex dealer` and `dealdex::dealer` (issue 29, milestone 1): Debian's example scripts
//! parse; script errors name their line; the operator-order example prints what dealer
//! prints; print layouts are dealer's bytes on the same deals; statistics agree with dealer's
//! reference outputs (averages within 4 standard errors, frequency tables by chi-square at
//! 0.1 %).

use std::path::PathBuf;

use assert_cmd::Command;
use dealdex::dealer::{DealerJob, DealerReport, ErrorKind, Script, Summary, run};

use crate::common::dealer::{
    assert_summaries_agree, chi2_critical, chi2_homogeneity, refer_summaries,
};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealer")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

fn run_script(text: &str, job: &DealerJob) -> (DealerReport, String) {
    let script = Script::parse(text).unwrap();
    let mut out = Vec::new();
    let report = run(&script, job, &mut out, &mut |_| {}).unwrap();
    (report, String::from_utf8(out).unwrap())
}

fn seeded(seed: u64) -> DealerJob {
    DealerJob {
        seed: Some(seed),
        ..DealerJob::default()
    }
}

#[test]
fn every_debian_example_parses() {
    let mut n = 0;
    for e in std::fs::read_dir(dir()).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("Descr.") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if let Err(e) = Script::parse(&text) {
            panic!("{name}: {e}");
        }
        n += 1;
    }
    assert_eq!(n, 17);
}

#[test]
fn script_errors_name_their_line() {
    // dealer prints `line 2: Card predealt twice` for this one.
    let e = Script::parse("predeal north SAK, HA\npredeal south SA\n").unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::CardPredealtTwice { line: 2, .. }),
        "{e}"
    );
    assert!(
        e.to_string().starts_with("line 2: Card predealt twice"),
        "{e}"
    );
    // dealer prints `line 3: unknown variable`.
    let e = Script::parse("x = 3\ncondition\n hcp(north) > y\n").unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::UnknownIdentifier {
                line: 3,
                column: 15,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("unknown variable `y`"), "{e}");
    // dealer prints `line 2: syntax error`.
    let e = Script::parse("condition hcp(north) >\n").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Syntax { line: 2, .. }), "{e}");
    // dealer prints `line 2: More than 13 cards for one player`.
    let e = Script::parse("\npredeal north SAKQJT98765, HAKQJ\n").unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::TooManyCards { line: 2, .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with("line 2: More than 13 cards for one player"),
        "{e}"
    );
    for bad in [
        "condition shape(north, 5xx)",
        "condition hascard(north, S)",
        "condition hcp(northeast)",
        "action frequency (hcp(north), 0)",
        "condition score(vul, 3N, 9)",
        "action average \"x\"",
        "condition 1 /* open",
        "condition \"open",
        "condition $",
    ] {
        let e = Script::parse(bad).unwrap_err();
        assert_eq!(e.position().and_then(|p| p.line), Some(1), "{bad}: {e}");
    }
}

#[test]
fn the_cli_exits_2_with_the_line_and_generates_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("bad.dei");
    std::fs::write(&p, "produce 3\npredeal north SAK, HA\npredeal south SA\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .arg("dealer")
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}: line 3: Card predealt twice", p.display())),
        "{err}"
    );
    // From standard input, and through `lead --script`, the error says where too.
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-"])
        .write_stdin("condition hcp(north) >\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("standard input: line 2: syntax error"),
        "{err}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .current_dir(tmp.path())
        .args([
            "lead",
            "--hand",
            "AQ4.J.KJ6543.632",
            "--contract",
            "3NT",
            "--declarer",
            "S",
        ])
        .args(["--deals", "5", "--script"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}: line 3: Card predealt twice", p.display())),
        "{err}"
    );
}

#[test]
fn operator_order_prints_what_dealer_prints() {
    let (report, out) = run_script(&read("Descr.test_operator_order"), &seeded(13));
    let refer = read("Refer.test_operator_order");
    let want: String = refer
        .lines()
        .take_while(|l| !l.starts_with("Generated"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(out, want);
    assert_eq!((report.generated, report.produced), (1, 1));
    let text = report.to_string();
    assert!(
        text.starts_with(
            "Generated 1 hands\nProduced 1 hands\nInitial random seed 13\nTime needed "
        ),
        "{text}"
    );
}

#[test]
fn print_layouts_are_dealers_bytes() {
    for i in 1..=3 {
        let name = format!("deal{i}.dei");
        let script = read(&format!("layouts/{name}"));
        let job = DealerJob {
            seed: Some(5),
            script_name: Some(name.clone()),
            date: Some("2026.11.25".into()),
            ..DealerJob::default()
        };
        let (report, out) = run_script(&script, &job);
        assert_eq!(report.produced, 4);
        let mut text = out;
        let mut r = report.clone();
        r.verbose = false;
        text.push_str(&r.to_string());
        assert_eq!(text, read(&format!("layouts/deal{i}.out")), "{name}");
    }
}

#[test]
fn print_actions_write_what_convert_writes() {
    // One layout, one writer: each print action's bytes are what `convert --to` writes for
    // the same deals (read back from printoneline), and printpbn's games read back as its
    // deals with the boards' numbers, the script's dealer and the boards' vulnerabilities.
    let run_action = |action: &str| {
        let text =
            format!("dealer west\nproduce 12\ncondition hcp(north) >= 10\naction {action}\n");
        run_script(&text, &seeded(9)).1
    };
    let oneline = dealdex::formats::by_name("oneline").unwrap();
    let boards = oneline
        .read_all(run_action("printoneline").as_bytes())
        .unwrap()
        .boards;
    assert_eq!(boards.len(), 12);
    for (action, format) in [
        ("printoneline", "oneline"),
        ("printall", "dealer-all"),
        ("printew", "dealer-ew"),
        ("printcompact", "dealer-compact"),
    ] {
        let f = dealdex::formats::by_name(format).unwrap();
        let written = dealdex::formats::write_set(f, &boards, &Default::default()).unwrap();
        assert_eq!(
            run_action(action),
            String::from_utf8(written).unwrap(),
            "{action}"
        );
    }
    let pbn = dealdex::formats::by_name("pbn").unwrap();
    let games = pbn
        .read_all(run_action("printpbn").as_bytes())
        .unwrap()
        .boards;
    assert_eq!(games.len(), 12);
    for (k, (game, board)) in games.iter().zip(&boards).enumerate() {
        let n = k as u64 + 1;
        assert_eq!((game.number, game.deal), (Some(n), board.deal));
        assert_eq!(game.dealer, Some(dealdex::Seat::West));
        assert_eq!(game.vulnerability, Some(dealdex::board_vulnerability(n)));
    }
}

#[test]
fn print_seats_is_dealers_bytes() {
    // print(seats) collects the deals and prints them at the end, in the order of the
    // actions among averages and frequencies: five deals (two rows), voids, a 10-card suit.
    let (report, out) = run_script(&read("layouts/print.dei"), &seeded(5));
    let mut r = report.clone();
    r.verbose = false;
    assert_eq!(out + &r.to_string(), read("layouts/print.out"));
}

#[test]
fn the_same_seed_gives_the_same_deals() {
    let s = "produce 5\naction printoneline";
    assert_eq!(run_script(s, &seeded(3)).1, run_script(s, &seeded(3)).1);
    assert_ne!(run_script(s, &seeded(3)).1, run_script(s, &seeded(4)).1);
    let (_, out) = run_script(
        "produce 2\npredeal south SAQ542, HKJ87, D32, CAK\naction printoneline",
        &seeded(1),
    );
    for line in out.lines() {
        assert!(line.contains(" s AQ542.KJ87.32.AK "), "{line}");
    }
}

/// The deals and their order do not depend on the number of threads: a block is drawn and its
/// condition tested on all cores, then taken in order (with and without a predeal, a condition
/// that crosses blocks, and an `average`).
#[test]
fn one_thread_or_two_give_the_same_output() {
    let tmp = tempfile::tempdir().unwrap();
    for (k, text) in [
        "produce 3000\ncondition hcp(north) >= 15 && shape(south, any 4333 + any 4432)\n\
         action printoneline, average hcp(east)\n",
        "predeal north SAKQ, HAK\nproduce 500\ncondition hcp(south) >= 10\naction printoneline\n",
    ]
    .iter()
    .enumerate()
    {
        let p = tmp.path().join(format!("s{k}.dei"));
        std::fs::write(&p, text).unwrap();
        let run = |threads: &str| {
            let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
                .args(["dealer", "-s", "3"])
                .arg(&p)
                .env("RAYON_NUM_THREADS", threads)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = String::from_utf8(out.stdout).unwrap();
            // Everything but the time taken.
            text.lines()
                .filter(|l| !l.starts_with("Time needed"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let one = run("1");
        assert!(one.lines().count() > 500, "{one}");
        assert_eq!(one, run("2"), "script {k}");
    }
}

/// Deal `k` of a run is deal `(k−1) mod 512` of piece `(k−1) / 512` of the seed's simulation
/// stream ([`dealdex::dealer::seed_of`], [`dealdex::shuffle::Shuffler`]), drawn one piece at a
/// time here: the blocks drawn on all cores start where they should.
#[test]
fn deal_k_is_deal_k_of_the_simulation_stream() {
    use dealdex::shuffle::{PIECE, Shuffler};
    let text = "produce 9000\ncondition hcp(north) >= 0\naction printoneline\n";
    let (_, out) = run_script(text, &seeded(11));
    let seed = dealdex::dealer::seed_of(11);
    let shuffler = Shuffler::new(&seed, None);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("n ")).collect();
    assert_eq!(lines.len(), 9000);
    let mut piece = vec![seed.board_deal(1); PIECE];
    for (k, line) in lines.iter().enumerate().step_by(7) {
        shuffler.fill((k / PIECE) as u64, &mut piece);
        let pbn = piece[k % PIECE].to_string();
        let hands: Vec<&str> = pbn.trim_start_matches("N:").split(' ').collect();
        let want = format!(
            "n {} e {} s {} w {} ",
            hands[0], hands[1], hands[2], hands[3]
        );
        assert_eq!(*line, want, "deal {}", k + 1);
    }
}

/// A reference frequency table of a `Refer.*` file: the rows after `Frequency {label}:`.
fn refer_table(refer: &str, label: &str) -> Vec<(i64, f64)> {
    let head = format!("Frequency {label}:");
    refer
        .lines()
        .skip_while(|l| *l != head)
        .skip(1)
        .map_while(|l| {
            let (v, c) = l.split_once('\t')?;
            Some((v.trim().parse().ok()?, c.trim().parse().ok()?))
        })
        .collect()
}

fn ours_table(report: &DealerReport, label: &str) -> Vec<(i64, f64)> {
    report
        .summaries
        .iter()
        .find_map(|s| match s {
            Summary::Frequency(f) if f.label.as_deref().unwrap_or("") == label => Some(
                f.counts
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (f.low + i as i64, c as f64))
                    .collect(),
            ),
            _ => None,
        })
        .unwrap()
}

fn check_table(report: &DealerReport, refer: &str, label: &str) {
    let want = refer_table(refer, label);
    let got = ours_table(report, label);
    assert_eq!(
        want.iter().map(|w| w.0).collect::<Vec<_>>(),
        got.iter().map(|g| g.0).collect::<Vec<_>>(),
        "{label}: the same rows"
    );
    let a: Vec<f64> = got.iter().map(|g| g.1).collect();
    let b: Vec<f64> = want.iter().map(|w| w.1).collect();
    let (chi, df) = chi2_homogeneity(&a, &b);
    assert!(
        chi < chi2_critical(df),
        "{label}: chi-square {chi} on {df} df"
    );
}

/// Mean and variance of a frequency table.
fn moments(t: &[(i64, f64)]) -> (f64, f64, f64) {
    let n: f64 = t.iter().map(|x| x.1).sum();
    let mean = t.iter().map(|(v, c)| *v as f64 * c).sum::<f64>() / n;
    let var = t
        .iter()
        .map(|(v, c)| (*v as f64 - mean).powi(2) * c)
        .sum::<f64>()
        / n;
    (n, mean, var)
}

#[test]
fn one_club_statistics_match_dealers_reference() {
    let refer = read("Refer.1c");
    let (report, _) = run_script(&read("Descr.1c"), &seeded(29));
    assert_eq!(report.produced, 100_000);
    check_table(&report, &refer, "Number of clubs");
    let (n_ref, mean_ref, var) = moments(&refer_table(&refer, "Number of clubs"));
    assert!(
        (mean_ref - 4.37588).abs() < 1e-4,
        "the reference table's mean is its average"
    );
    let Summary::Average(a) = &report.summaries[0] else {
        panic!("average first")
    };
    let se = (var / a.count as f64 + var / n_ref).sqrt();
    assert!(
        (a.mean - 4.37588).abs() < 4.0 * se,
        "mean {} vs 4.37588 (se {se})",
        a.mean
    );
    // The rate of acceptance: dealer generated 718495 for 100000.
    let p: f64 = 100_000.0 / 718_495.0;
    let expected = 100_000.0 / p;
    let sd = (100_000.0 * (1.0 - p)).sqrt() / p;
    assert!((report.generated as f64 - expected).abs() < 4.0 * sd * 2f64.sqrt());
}

#[test]
fn controls_and_junk_stayman_tables_match_dealers_reference() {
    let (report, _) = run_script(&read("Descr.controls"), &seeded(29));
    check_table(&report, &read("Refer.controls"), "controls");
    let (report, _) = run_script(
        &read("Descr.blue_team"),
        &DealerJob {
            produce: Some(20_000),
            ..seeded(29)
        },
    );
    let refer = read("Refer.blue_team");
    assert!(refer_table(&refer, "").len() == 7);
    check_table(&report, &refer, "");
}

#[test]
fn frequency_average_and_printes_are_dealers_bytes() {
    // One deal three times: 1-D tables with Low/High rows, 2-D tables, averages with and
    // without a label, printes, imps and score, against dealer's own output (-v: without the
    // closing lines).
    let (report, out) = run_script(&read("layouts/freq.dei"), &seeded(5));
    let mut r = report.clone();
    r.verbose = false;
    assert_eq!(out + &r.to_string(), read("layouts/freq.out"));
}

#[test]
fn hand_evaluation_equals_dealers_on_the_same_deals() {
    // layouts/features*.dei: every hand-evaluation function (hcp, control, loser, pt0..pt9 and
    // their synonyms, suit lengths, shape lists, hascard) of each seat of three deals, with
    // the default counts and with pointcount overridden; features*.out is dealer's output.
    let mut n = 0;
    for e in std::fs::read_dir(dir().join("layouts")).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.starts_with("features") && name.ends_with(".dei")) {
            continue;
        }
        let (_, out) = run_script(&std::fs::read_to_string(&path).unwrap(), &seeded(5));
        let want = std::fs::read_to_string(path.with_extension("out")).unwrap();
        assert_eq!(out, want, "{name}");
        n += 1;
    }
    assert_eq!(n, 24);
}

/// Every average within 4 standard errors of the reference's, every frequency table by
/// chi-square at 0.1 %, for the statistical examples, run as they are (capped with `-p`
/// where noted: the test compares two samples of different sizes).
#[test]
fn statistical_examples_match_dealers_references() {
    for (name, produce) in [
        ("6c", None),
        ("vvga2", None),
        ("weaktwo", None),
        ("stayman", None),
        ("junkstayman", None),
        ("hm1dr2d", Some(20_000)),
        ("controls", None),
        ("1c", None),
    ] {
        let job = DealerJob {
            produce,
            ..seeded(2029)
        };
        let (report, _) = run_script(&read(&format!("Descr.{name}")), &job);
        let (want, n_ref) = refer_summaries(&read(&format!("Refer.{name}")));
        assert_summaries_agree(name, &want, n_ref, &report.summaries);
    }
}

/// Every example runs; the printing ones produce what they ask for.
#[test]
fn every_example_runs() {
    for (name, produced) in [
        ("2nt", 10),
        ("blue_team", 10),
        ("notrump", 100),
        ("pbn", 10),
        ("yarb", 10),
        ("you_hold", 25),
    ] {
        let (report, out) = run_script(&read(&format!("Descr.{name}")), &seeded(7));
        assert_eq!(report.produced, produced, "{name}");
        assert!(!(out + &report.to_string()).is_empty(), "{name}");
    }
    let job = DealerJob {
        generate: Some(200_000),
        ..seeded(7)
    };
    let (report, _) = run_script(&read("Descr.test_dealer"), &job);
    assert_eq!(report.produced, 200_000);
    let (report, _) = run_script(&read("Descr.evaluation"), &seeded(7));
    assert_eq!(report.produced, 1);
    assert_eq!(report.summaries.len(), 76);
}

#[test]
fn evaluation_example_prints_dealers_reference_for_its_deal() {
    // Refer.evaluation shows North's hand (print(north)); with that hand predealt the output
    // depends on nothing else, so it must be dealer's, byte for byte, but the closing lines.
    let script = format!(
        "predeal north HA854, DJT832, CAK32\n{}",
        read("Descr.evaluation")
    );
    let (report, out) = run_script(&script, &seeded(6));
    let mut r = report.clone();
    r.verbose = false;
    let refer = read("Refer.evaluation");
    let want = &refer[..refer.find("Generated 1 hands").unwrap()];
    assert_eq!(out + &r.to_string(), want);
}

#[test]
fn the_cli_reads_standard_input_and_gives_json() {
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-", "-s", "3", "--json"])
        .write_stdin("produce 5 condition hcp(north) >= 15\naction average \"s\" hcp(south), frequency (spades(north), 0, 13)")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["produced"], 5);
    assert_eq!(v["seed"], "3");
    assert_eq!(v["summaries"][0]["kind"], "average");
    assert_eq!(v["summaries"][0]["count"], 5);
    assert_eq!(v["summaries"][1]["kind"], "frequency");
    assert_eq!(v["summaries"][1]["counts"].as_array().unwrap().len(), 14);
    // The text: dealer's closing lines; -v leaves them out as Debian's dealer does.
    let text = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-s", "3", "-p", "2"])
        .write_stdin("action printoneline")
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(
        &lines[2..5],
        [
            "Generated 2 hands",
            "Produced 2 hands",
            "Initial random seed 3"
        ]
    );
    assert!(lines[5].starts_with("Time needed ") && lines[5].ends_with(" sec"));
    let quiet = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-s", "3", "-p", "2", "-v"])
        .write_stdin("action printoneline")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(quiet.stdout).unwrap(),
        format!("{}\n{}\n", lines[0], lines[1])
    );
}

#[test]
fn cccc_and_quality_equal_dealers_on_1500_deals() {
    // layouts/knr.out: dealer's printoneline of 1500 random deals, each followed by cccc and
    // the four qualities of North, then of South.
    let text = read("layouts/knr.out");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3000);
    let mut long = 0;
    for pair in lines.chunks(2) {
        let hands: Vec<&str> = pair[0].split_whitespace().skip(1).step_by(2).collect();
        let deal: dealdex::Deal = format!("N:{}", hands.join(" ")).parse().unwrap();
        let want: Vec<i64> = pair[1]
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        for (k, seat) in [dealdex::Seat::North, dealdex::Seat::South]
            .into_iter()
            .enumerate()
        {
            let mask = deal.hand(seat).mask();
            assert_eq!(
                dealdex::dealer::cccc(mask),
                want[k * 5],
                "{} {seat}",
                pair[0]
            );
            for (j, suit) in dealdex::Suit::ALL.into_iter().enumerate() {
                let h = mask >> (suit as u32 * 13) & 0x1fff;
                long += usize::from(h.count_ones() > 6);
                assert_eq!(
                    dealdex::dealer::quality(h),
                    want[k * 5 + 1 + j],
                    "{} {seat} {suit}",
                    pair[0]
                );
            }
        }
    }
    assert!(long > 50, "long suits are covered: {long}");
}

#[test]
fn predealt_suit_lengths_hold_on_every_deal() {
    let script = "produce 300\npredeal north SA\npredeal spades(north)==1 hearts(south)==5\naction printoneline";
    let (report, out) = run_script(script, &seeded(1));
    assert_eq!(report.produced, 300);
    for line in out.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f[1].split('.').next().unwrap(), "A", "{line}");
        assert_eq!(f[5].split('.').nth(1).unwrap().len(), 5, "{line}");
    }
    for (bad, line) in [
        ("produce 1\npredeal spades(north)==14", 2),
        ("predeal north SAK\npredeal spades(north)==1", 2),
        ("predeal spades(north)==8 spades(south)==6", 1),
        ("\n\npredeal spades(north)==13 hearts(north)==1", 3),
    ] {
        let e = Script::parse(bad).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::TooManyCards { line: l, .. } if *l == line),
            "{bad}: {e}"
        );
        assert!(e.to_string().contains("Suit lengths too long for"), "{e}");
    }
}

/// Averages and frequency tables counted a piece at a time on all cores (every action a
/// statistic) equal those counted deal by deal (the same script with a `printes` that prints
/// nothing, which makes the run take each deal's actions in turn), over 40,000 deals.
#[test]
fn statistics_counted_by_pieces_equal_those_counted_deal_by_deal() {
    let stats = "produce 40000\ncondition hcp(north) >= 12 && shape(north, any 4333 + any 5332)\n\
                 action average \"s\" hcp(south) * 2 - spades(south), \
                 frequency \"sp\" (spades(north), 0, 13), \
                 frequency \"2d\" (hcp(east), 3, 17, clubs(west), 1, 5)";
    let (pieces, _) = run_script(stats, &seeded(23));
    let (deal_by_deal, printed) = run_script(&format!("{stats}, printes(\"\")"), &seeded(23));
    assert_eq!(printed, "");
    assert_eq!(pieces.produced, 40000);
    assert_eq!(pieces.generated, deal_by_deal.generated);
    let json = |r: &DealerReport| serde_json::to_value(&r.summaries).unwrap();
    assert_eq!(json(&pieces), json(&deal_by_deal));
}
