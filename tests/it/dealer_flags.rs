//! `dealdex dealer`'s second milestone (issue 29): `evalcontract` (dealer's table over
//! double-dummy tricks, scored independently by `tests/fixtures/dealer/layouts/evalcontract.py`),
//! swapping (`-2`, `-3`, dealer 20211121's order and counts), `-t`, `-u`, `-V`.

use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::Command;
use dealdex::dealer::{
    DealerJob, DealerReport, Error, ErrorKind, EvalContract, Script, Summary, Swapping, run,
};
use dealdex::{Deal, Seat};

fn layouts(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealer/layouts");
    std::fs::read_to_string(p.join(name)).unwrap()
}

fn run_script(text: &str, job: &DealerJob) -> Result<(DealerReport, String), Error> {
    let script = Script::parse(text).unwrap();
    let mut out = Vec::new();
    let report = run(&script, job, &mut out, &mut |_| {})?;
    Ok((report, String::from_utf8(out).unwrap()))
}

fn seeded(seed: u64) -> DealerJob {
    DealerJob {
        seed: Some(seed),
        ..DealerJob::default()
    }
}

/// The deals whose double-dummy tricks `layouts/evalcontract.py` holds (from `dealdex solve`).
const DEALS: [&str; 3] = [
    "N:2.T98.K752.KJT84 5.J7642.986.9763 AQ8.AQ5.QJT.AQ52 KJT97643.K3.A43.",
    "N:87432.A43.Q3.J74 .J95.T86.AQ98532 KQJT9.K8.KJ5.KT6 A65.QT762.A9742.",
    "N:QJ972.QJ.8.J9643 K43.93.AQT3.A852 T5.K86542.K95.KT A86.AT7.J7642.Q7",
];

/// The script predealing every card of `DEALS[0]`.
const PREDEAL_FIRST: &str = "predeal north S2, HT98, DK752, CKJT84\n\
predeal east S5, HJ7642, D986, C9763\npredeal south SAQ8, HAQ5, DQJT, CAQ52\n\
predeal west SKJT97643, HK3, DA43\n";

#[test]
fn evalcontract_table_is_dealers_over_three_deals() {
    let mut e = EvalContract::default();
    for d in DEALS {
        let deal: Deal = d.parse().unwrap();
        e.add(&dealdex::dd::solve(&deal));
    }
    assert_eq!(e.deals, 3);
    // North makes 11 tricks in clubs on the first deal, 5 and 6 on the others.
    assert_eq!(
        (e.tricks[0][0][11], e.tricks[0][0][5], e.tricks[0][0][6]),
        (1, 1, 1)
    );
    assert_eq!(e.to_string(), layouts("evalcontract3.out"));
    // Without deals dealer divides by zero; dealdex prints zeros.
    assert!(
        EvalContract::default()
            .to_string()
            .contains("c:    0/   0    0/   0 ")
    );
}

#[test]
fn evalcontract_runs_at_the_end_in_action_order_with_one_solve_a_deal() {
    // The deal predealt in full, twice; tricks() in the condition and evalcontract share the
    // deal's one double-dummy solve; the table comes after the average, as its action does.
    let script = format!(
        "{PREDEAL_FIRST}produce 2\ncondition tricks(south, notrump) == 11\n\
         action average hcp(south), evalcontract, printes(\"x\", \\n)\n"
    );
    let (report, out) = run_script(&script, &seeded(1)).unwrap();
    assert_eq!(out, "x\nx\n");
    assert_eq!((report.produced, report.solved), (2, 2));
    let Summary::EvalContract(e) = &report.summaries[1] else {
        panic!("{:?}", report.summaries)
    };
    assert_eq!(e.deals, 2);
    let mut r = report.clone();
    r.verbose = false;
    assert_eq!(
        r.to_string(),
        format!("21\n{}", layouts("evalcontract1.out"))
    );
    // --json: the tallies as arrays (side, strain, tricks).
    let json = serde_json::to_value(&report).unwrap();
    let s = &json["summaries"][1];
    assert_eq!(s["kind"], "eval_contract");
    assert_eq!(s["tricks"][1][4][11], 2, "South takes 11 tricks in notrump");
    assert_eq!(s["tricks"].as_array().unwrap().len(), 2);
}

/// The printoneline lines of a run, as deals.
fn deals_of(out: &str) -> Vec<Deal> {
    out.lines()
        .map(|l| {
            let hands: Vec<&str> = l.split_whitespace().skip(1).step_by(2).collect();
            format!("N:{}", hands.join(" ")).parse().unwrap()
        })
        .collect()
}

#[test]
fn swapping_makes_dealers_groups_across_blocks() {
    // -3: 4100 deals cross the first block of deals (4092 = 682 whole groups); every group
    // of six is the shuffled deal and dealer's five placings of its E, S, W hands, each
    // counted as generated. The last group is cut at -g as dealer cuts it.
    for (swapping, ways) in [(Swapping::ThreeWay, 6), (Swapping::TwoWay, 2)] {
        let job = DealerJob {
            swapping,
            generate: Some(4100),
            produce: Some(10_000),
            ..seeded(4)
        };
        let (report, out) = run_script("action printoneline", &job).unwrap();
        assert_eq!((report.generated, report.produced), (4100, 4100));
        let deals = deals_of(&out);
        assert_eq!(deals.len(), 4100);
        for (g, group) in deals.chunks(ways).enumerate() {
            for (k, d) in group.iter().enumerate() {
                assert_eq!(*d, swapping.permute(&group[0], k), "group {g} deal {k}");
            }
        }
        // Shuffled deals differ from group to group.
        assert_ne!(deals[0], deals[ways]);
        assert_ne!(deals[4092 - ways], deals[4092]);
    }
    // -3 -g 4, as dealer: 4 generated, the first group cut.
    let job = DealerJob {
        swapping: Swapping::ThreeWay,
        generate: Some(4),
        ..seeded(4)
    };
    let (report, out) = run_script("action printoneline", &job).unwrap();
    assert_eq!((report.generated, report.produced), (4, 4));
    let deals = deals_of(&out);
    assert_eq!(deals[3], Swapping::ThreeWay.permute(&deals[0], 3));
}

#[test]
fn swapping_keeps_a_predeal_on_seats_that_stay_and_refuses_the_others() {
    let job = |swapping| DealerJob {
        swapping,
        ..seeded(2)
    };
    let (_, out) = run_script(
        "predeal north SAK\nproduce 12\naction printoneline",
        &job(Swapping::ThreeWay),
    )
    .unwrap();
    assert!(
        deals_of(&out)
            .iter()
            .all(|d| d.hand(Seat::North).to_string().starts_with("AK"))
    );
    let (_, out) = run_script(
        "predeal south HAKQ\npredeal clubs(north)==5\nproduce 12\naction printoneline",
        &job(Swapping::TwoWay),
    )
    .unwrap();
    for d in deals_of(&out) {
        assert!(d.hand(Seat::South).to_string().contains(".AKQ"), "{d}");
        assert_eq!(
            d.hand(Seat::North)
                .to_string()
                .rsplit('.')
                .next()
                .unwrap()
                .len(),
            5
        );
    }
    for (text, swapping, seat) in [
        ("predeal south SAK", Swapping::ThreeWay, "South"),
        ("predeal east SAK", Swapping::TwoWay, "East"),
        ("predeal hearts(west)==4", Swapping::TwoWay, "West"),
    ] {
        let e = run_script(text, &job(swapping)).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::SwapPredeal { .. }), "{e}");
        assert!(e.to_string().contains(seat), "{e}");
    }
    // The CLI: exit 2, nothing printed.
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-", "-3"])
        .write_stdin("predeal west SA\nproduce 1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn time_limit_stops_a_run_that_produces_nothing() {
    let script = "generate 1000000000\ncondition hcp(north) > 37\naction average hcp(north)";
    let job = DealerJob {
        time_limit: Some(Duration::from_millis(300)),
        ..seeded(1)
    };
    let (report, _) = run_script(script, &job).unwrap();
    assert!(report.timed_out);
    assert_eq!(report.produced, 0);
    assert!(report.generated > 0 && report.seconds < 10.0, "{report:?}");
    // dealer prints the averages (-nan without deals) and its closing lines, and exits 1.
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-", "-t", "0.3", "-s", "1"])
        .write_stdin(script)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("-nan\nGenerated "), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("-t 0.3"));
    // A run that produces is not stopped.
    let job = DealerJob {
        time_limit: Some(Duration::from_secs(600)),
        produce: Some(20),
        ..seeded(1)
    };
    let (report, _) = run_script(
        "condition hcp(north) >= 20\naction average hcp(north)",
        &job,
    )
    .unwrap();
    assert!(!report.timed_out);
    assert_eq!(report.produced, 20);
    // A bad -t is bad input.
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-", "-t", "soon"])
        .write_stdin("produce 1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn lowercase_prints_the_honours_in_lower_case_but_pbn() {
    let script = layouts("deal1.dei");
    let job = DealerJob {
        date: Some("2026.11.25".into()),
        script_name: Some("deal1.dei".into()),
        ..seeded(5)
    };
    let (report, upper) = run_script(&script, &job).unwrap();
    let (lower_report, lower) = run_script(
        &script,
        &DealerJob {
            lowercase: true,
            ..job
        },
    )
    .unwrap();
    assert_eq!(upper, layouts("deal1.out")[..upper.len()]);
    // Every line but printpbn's tags is the upper-case line in lower case.
    let mut pbn = 0;
    for (u, l) in upper.lines().zip(lower.lines()) {
        if u.starts_with('[') {
            assert_eq!(u, l);
            pbn += 1;
        } else {
            assert_eq!(u.to_ascii_lowercase(), l);
        }
    }
    assert!(pbn > 0 && lower.contains("a k"));
    let hands: String = lower.lines().filter(|l| !l.starts_with('[')).collect();
    assert!(!hands.contains(['A', 'K', 'Q', 'J', 'T']), "{hands}");
    assert_eq!(report.produced, lower_report.produced);
}

#[test]
fn version_and_help_as_clap_gives() {
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-V"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains(env!("CARGO_PKG_VERSION"))
    );
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-h"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in ["-u", "-m", "-t <SECS>", "-0", "-2", "-3", "evalcontract"] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    // `dealdex dealer …` parses only the dealer's arguments (main.rs); the whole command line
    // (a global flag first) takes the subcommand's path: the two give the same help and errors.
    for args in [
        &["--help"][..],
        &["--bogus"],
        &["-p", "x"],
        &["-S"],
        &["--param", "x"],
    ] {
        let alone = Command::new(env!("CARGO_BIN_EXE_dealdex"))
            .arg("dealer")
            .args(args)
            .output()
            .unwrap();
        let whole = Command::new(env!("CARGO_BIN_EXE_dealdex"))
            .args(["--json", "dealer"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(alone.status.code(), whole.status.code(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&alone.stdout),
            String::from_utf8_lossy(&whole.stdout),
            "{args:?}"
        );
        assert_eq!(
            String::from_utf8_lossy(&alone.stderr),
            String::from_utf8_lossy(&whole.stderr),
            "{args:?}"
        );
    }
}

/// `DealerJob::stop`: a run whose switch another thread turns on ends with
/// `ErrorKind::Stopped` (an interrupted error), having generated some deals and printed
/// those it produced.
#[test]
fn the_stop_switch_ends_a_run_with_stopped() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = Arc::new(AtomicBool::new(false));
    let job = DealerJob {
        generate: Some(u64::MAX / 4),
        stop: Some(stop.clone()),
        ..seeded(7)
    };
    // No deal has 38+ HCP in North and 3+ in South: the run would never end by itself.
    let result = std::thread::scope(|s| {
        let run = s.spawn(|| run_script("condition hcp(north) > 37 && hcp(south) > 2\n", &job));
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
        run.join().unwrap()
    });
    let Err(e) = result else {
        panic!("not stopped: {result:?}");
    };
    let ErrorKind::Stopped {
        generated,
        produced,
    } = *e.kind()
    else {
        panic!("not stopped: {e}");
    };
    assert!(generated > 0 && produced == 0, "{e}");
    assert_eq!(
        dealdex::classify(&e),
        Some(dealdex::ErrorClass::Interrupted)
    );
}
