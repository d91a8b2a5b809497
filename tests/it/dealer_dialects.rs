//! The dialects of dealer's language (issue 37): what Debian's dealer 20211121 does that
//! dealdex did not yet (an empty `action` runs no action; `printoneline (expr)` and
//! `printcompact (expr)` print the value), and DealerV2's additions that script collections
//! use (`par`, `parcontract`, `csvrpt`, `printrpt`, `trix`, the command line's predeal and
//! script parameters), each against that program's documented output: the scripts and outputs
//! of `tests/fixtures/dealer/dialects/` (its README says where each comes from).

use std::path::PathBuf;
use std::process::Output;

use assert_cmd::Command;
use dealdex::dd::TablePar;
use dealdex::dealer::{DealerJob, Script, run};

use crate::common::dealer::{fixtures, run_fixture};

fn dir() -> PathBuf {
    fixtures("dialects")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

/// `dealdex dealer NAME.dei -s 1 ARGS…`.
fn dealdex(name: &str, args: &[&str]) -> Output {
    run_fixture("dialects", name, args)
}

/// The standard output of a run that must succeed.
fn runs(name: &str, args: &[&str]) -> String {
    let out = dealdex(name, args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// The first `n` lines of `text`.
fn head(text: &str, n: usize) -> Vec<&str> {
    text.lines().take(n).collect()
}

#[test]
fn an_empty_action_runs_no_action_and_produces_every_deal() {
    // Debian's dealer: `generate 1000` then `action` alone prints no deal and produces the
    // 1000 deals it generates (no default of 40).
    let debian = read("empty_action.dealer-out");
    assert_eq!(
        head(&debian, 2),
        ["Generated 1000 hands", "Produced 1000 hands"]
    );
    let out = runs("empty_action", &[]);
    assert_eq!(head(&out, 2), head(&debian, 2), "{out}");
    assert_eq!(out.lines().count(), 4, "only the closing lines: {out}");
    let s = Script::parse(&read("empty_action.dei")).unwrap();
    assert!(s.actions_given && s.actions.is_empty());
    assert_eq!(s.produce_limit(), u64::MAX);
    // With a condition: no deal printed, the run goes on to `generate` (Debian: 2000
    // generated, 34 of its deals produced).
    let debian = read("empty_action_condition.dealer-out");
    assert_eq!(debian.lines().next(), Some("Generated 2000 hands"));
    let out = runs("empty_action_condition", &[]);
    assert_eq!(out.lines().next(), Some("Generated 2000 hands"), "{out}");
    let produced: u64 = out.lines().nth(1).unwrap()["Produced ".len()..]
        .trim_end_matches(" hands")
        .parse()
        .unwrap();
    assert!((1..200).contains(&produced), "{out}");
    assert_eq!(out.lines().count(), 4, "{out}");
    // Without an action statement the default stays printall, 40 deals.
    let s = Script::parse("generate 1000").unwrap();
    assert_eq!(s.produce_limit(), 40);
    let mut out = Vec::new();
    let job = DealerJob {
        seed: Some(1),
        ..DealerJob::default()
    };
    let report = run(&s, &job, &mut out, &mut |_| {}).unwrap();
    assert_eq!(report.produced, 40);
    assert!(String::from_utf8(out).unwrap().starts_with("   1.\n"));
}

#[test]
fn printoneline_and_printcompact_print_their_values_as_dealer() {
    // One deal predealt in full: every deal is the same, so dealdex prints Debian's bytes.
    let out = runs("print_values", &["-v"]);
    assert_eq!(out, read("print_values.dealer-out"));
    assert!(out.contains(" w J.K82.AKQ532.T87 10\n"), "{out}");
    assert!(out.contains("w J.K82.AKQ532.T87\n113\n"), "{out}");
    assert!(out.contains("w J.K82.AKQ532.T87\n-52\n"), "{out}");
}

/// `dealdex dealer NAME.dei --deals NAME.pbn -s 1 -v`: the deals of a DealerV2 reference
/// output, with their double-dummy tables (solved once by `dealdex solve`, `make.sh`).
fn over_reference_deals(name: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .arg("dealer")
        .arg(dir().join(format!("{name}.dei")))
        .arg("--deals")
        .arg(dir().join(format!("{name}.pbn")))
        .args(["-s", "1", "-v"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn csvrpt_and_printrpt_are_dealer_v2s_bytes() {
    // DealerV2's regression references: csvrpt (deal, trix(deal)) and four printrpt lines
    // (strings, deal, NS, west, an expression, trix of one seat) on the same deals.
    for name in ["csv_trix_deal", "printrpt_show"] {
        assert_eq!(
            over_reference_deals(name),
            read(&format!("{name}.dealerv2-out")),
            "{name}"
        );
    }
    let out = over_reference_deals("csv_trix_deal");
    assert!(
        out.starts_with(
            " n J.AK97.J83.KJ863 e 953.QJT.T97542.2 s AKQT84.3.A6.AQ75 w 762.86542.KQ.T94 \
             ,13,9,10,13,13,0,4,3,0,0,13,9,10,13,13,0,4,3,0,0\n"
        ),
        "{out}"
    );
}

#[test]
fn par_is_dealer_v2s_on_its_reference_deals() {
    // DealerV2's printrpt(deal, "…", par(NS, ns), "…", par(EW, both)) on five deals.
    let out = over_reference_deals("par_printrpt");
    assert_eq!(out, read("par_printrpt.dealerv2-out"));
    assert!(
        out.contains(",'Par for NS Vul NS=',300,'Par for both Vul EW=',-500\n"),
        "{out}"
    );
}

/// DealerV2's `parcontract` text of DDS's `SidesParBin` result for North-South bidding first
/// (what DealerV2 calls): its first contract, `NS`/`EW` when DDS names the side (the pair
/// expanded into two contracts by the partners).
fn sides_par_contract(par: &pons_dds::Par, vul: &str) -> String {
    let Some(first) = par.contracts.first() else {
        return format!(" 0N  by N {vul}");
    };
    let strain = match first.contract.bid.strain {
        contract_bridge::Strain::Clubs => 'C',
        contract_bridge::Strain::Diamonds => 'D',
        contract_bridge::Strain::Hearts => 'H',
        contract_bridge::Strain::Spades => 'S',
        contract_bridge::Strain::Notrump => 'N',
    };
    let doubled = match first.overtricks < 0 {
        true => '*',
        false => ' ',
    };
    let pair = par.contracts.get(1).is_some_and(|next| {
        next.contract == first.contract && next.declarer == first.declarer.partner()
    });
    let by = match (pair, first.declarer) {
        (true, contract_bridge::Seat::North | contract_bridge::Seat::South) => "NS".to_owned(),
        (true, _) => "EW".to_owned(),
        (false, seat) => format!("{seat:?}")[..1].to_owned(),
    };
    format!(
        "{:2}{strain}{doubled} by {by} {vul}",
        first.contract.bid.level.get()
    )
}

/// A board's trick table in tests/fixtures/dd/dd-reference.jsonl (`tricks`, by seat
/// letter and strain).
fn reference_table(b: &serde_json::Value) -> dealdex::dd::TrickTable {
    let strains = ["NT", "S", "H", "D", "C"];
    let seats = ["N", "E", "S", "W"];
    dealdex::dd::TrickTable::new(
        seats.map(|d| strains.map(|s| b["tricks"][d][s].as_u64().unwrap() as u8)),
    )
    .unwrap()
}

/// A trick table as DDS's rows: clubs, diamonds, hearts, spades, notrump; N, E, S, W each.
fn dds_rows(t: &dealdex::dd::TrickTable) -> [pons_dds::TrickCountRow; 5] {
    [
        dealdex::Strain::Trumps(dealdex::Suit::Clubs),
        dealdex::Strain::Trumps(dealdex::Suit::Diamonds),
        dealdex::Strain::Trumps(dealdex::Suit::Hearts),
        dealdex::Strain::Trumps(dealdex::Suit::Spades),
        dealdex::Strain::NoTrump,
    ]
    .map(|s| {
        let [n, e, so, w] = dealdex::Seat::ALL.map(|seat| t.tricks(seat, s));
        pons_dds::TrickCountRow::new(n, e, so, w)
    })
}

#[test]
fn par_and_parcontract_are_dds_sides_par_on_the_reference_tables() {
    // The 200 deals of tests/fixtures/dd/dd-reference.jsonl with their tables (DDS through
    // endplay): nothing is solved. par and parcontract at every vulnerability equal DDS's
    // SidesParBin for North-South first (as DealerV2 calls it), and where the board's dealer
    // is North or South, the reference's own par score (DDS's DealerParBin) at its
    // vulnerability.
    use dealdex::dealer::{DealFeed, GivenDeal, GivenFeed};
    let text = include_str!("../fixtures/dd/dd-reference.jsonl");
    let boards: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let given: Vec<GivenDeal> = boards
        .iter()
        .map(|b| GivenDeal {
            table: Some(reference_table(b)),
            ..GivenDeal::new(b["deal"].as_str().unwrap().parse().unwrap())
        })
        .collect();
    let script = Script::parse(
        "action printrpt(par(NS), par(NS, ns), par(NS, ew), par(NS, both),\n\
         par(EW), par(EW, ns), par(EW, ew), par(EW, both),\n\
         parcontract, parcontract(ns), parcontract(ew), parcontract(both), parcontract(none))",
    )
    .unwrap();
    assert_eq!(script.produce_limit(), 40);
    let job = DealerJob {
        seed: Some(1),
        produce: Some(1000),
        feed: DealFeed::Given(GivenFeed::from_deals(given)),
        ..DealerJob::default()
    };
    let mut out = Vec::new();
    let report = run(&script, &job, &mut out, &mut |_| {}).unwrap();
    assert_eq!((report.produced, report.solved), (200, 0));
    assert_eq!(report.already_solved, 200);
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 200);
    let vuls = [
        (pons_dds::Vulnerability::NONE, "none", "None"),
        (pons_dds::Vulnerability::NS, "ns", "NS"),
        (pons_dds::Vulnerability::EW, "ew", "EW"),
        (pons_dds::Vulnerability::ALL, "both", "All"),
    ];
    let mut checked_against_reference = 0;
    for (b, line) in boards.iter().zip(&lines) {
        let rows = dds_rows(&reference_table(b));
        let mut want_scores = Vec::new();
        let mut want_contracts = Vec::new();
        for (vul, word, _) in vuls {
            let [ns_first, _] = pons_dds::calculate_pars(pons_dds::TrickCountTable(rows), vul);
            want_scores.push(ns_first.score);
            want_contracts.push(format!("'{}'", sides_par_contract(&ns_first, word)));
        }
        let mut want: Vec<String> = want_scores.iter().map(|s| s.to_string()).collect();
        want.extend(want_scores.iter().map(|s| (-s).to_string()));
        want.extend(want_contracts.iter().cloned());
        want.push(want_contracts[0].clone());
        assert_eq!(
            *line,
            format!(" {}", want.join(",")),
            "board {}",
            b["board"]
        );
        // The reference's par (DealerParBin, its board's dealer and vulnerability).
        if matches!(b["dealer"].as_str(), Some("N" | "S")) {
            let k = vuls
                .iter()
                .position(|v| Some(v.2) == b["vul"].as_str())
                .unwrap();
            assert_eq!(
                i64::from(want_scores[k]),
                b["par"]["score"].as_i64().unwrap(),
                "board {}",
                b["board"]
            );
            checked_against_reference += 1;
        }
    }
    assert!(
        checked_against_reference >= 90,
        "{checked_against_reference}"
    );
    // Board 1: North and South make 7♠ (+1510 not vulnerable), the line as DealerV2 prints it.
    assert!(
        lines[0].starts_with(" 1510,2210,1510,2210,-1510,"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("' 7S  by NS none'"), "{}", lines[0]);
}

#[test]
fn par_trix_and_tricks_share_one_solve_a_deal() {
    // tricks() in the condition, par, trix and parcontract in the actions: one solve a
    // deal, and what the line prints is that table's.
    let script = Script::parse(
        "produce 3\ncondition tricks(north, notrump) >= 0\n\
         action printrpt(par(NS), par(EW, ns), trix(north), parcontract(both)), average dds(south, spades)",
    )
    .unwrap();
    assert!(script.uses_tricks());
    let job = DealerJob {
        seed: Some(3),
        keep_solved: true,
        ..DealerJob::default()
    };
    let mut out = Vec::new();
    let report = run(&script, &job, &mut out, &mut |_| {}).unwrap();
    assert_eq!((report.produced, report.solved), (3, 3));
    let out = String::from_utf8(out).unwrap();
    for (line, (_, table)) in out.lines().zip(&report.solved_tables) {
        use dealdex::{Seat, Strain, Suit, Vulnerability};
        let ns = table.par(Seat::North, Vulnerability::None).score;
        let ew = -table.par(Seat::North, Vulnerability::NorthSouth).score;
        let trix: Vec<String> = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades]
            .map(Strain::Trumps)
            .into_iter()
            .chain([Strain::NoTrump])
            .map(|s| table.tricks(Seat::North, s).to_string())
            .collect();
        let want = format!(" {ns},{ew},{},'", trix.join(","));
        assert!(line.starts_with(&want), "{line} / {want}");
        assert!(line.ends_with(" both'"), "{line}");
    }
    // An action list with par only needs the tables too.
    assert!(
        Script::parse("action average par(NS)")
            .unwrap()
            .uses_tricks()
    );
    assert!(
        Script::parse("action printrpt(parcontract)")
            .unwrap()
            .uses_tricks()
    );
    assert!(Script::parse("action evalcontract").unwrap().uses_tricks());
    assert!(
        !Script::parse("action printrpt(NS, \"x\")")
            .unwrap()
            .uses_tricks()
    );
}

/// `dealdex dealer SCRIPT -s 1 -v ARGS…` with the script on standard input.
fn dealdex_stdin(script: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(["dealer", "-", "-s", "1", "-v"])
        .args(args)
        .write_stdin(script)
        .output()
        .unwrap()
}

/// Exit 2, nothing dealt, and the message.
fn exits_2(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "nothing is dealt: {err}");
    err
}

#[test]
fn command_line_predeal_is_added_to_the_scripts() {
    // The script predeals North's ace of spades; -N adds the king and the queen of hearts
    // (DealerV2's export form, lower case too), -S the ace of hearts.
    let script = "produce 5\npredeal north SA\naction printrpt(NS)\n";
    let out = dealdex_stdin(script, &["-N", "sk,HQ", "-S", "HA"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    for line in text.lines() {
        let deal: Vec<&str> = line.split_whitespace().collect();
        // ` n S.H.D.C s S.H.D.C ,…`: North's spades start AK, hearts hold Q; South's hearts A.
        assert_eq!((deal[0], deal[2]), ("n", "s"), "{line}");
        let north: Vec<&str> = deal[1].split('.').collect();
        let south: Vec<&str> = deal[3].split('.').collect();
        assert!(
            north[0].starts_with("AK") && north[1].contains('Q'),
            "{line}"
        );
        assert!(south[1].starts_with('A'), "{line}");
    }
    // The library call the CLI makes.
    let mut s = Script::parse(script).unwrap();
    s.add_predeal(dealdex::Seat::North, "SK, HQ").unwrap();
    assert_eq!(s.predeal[0].count_ones(), 3);
    s.add_predeal(dealdex::Seat::West, "").unwrap();
    assert_eq!(s.predeal[3], 0);
}

#[test]
fn command_line_predeal_conflicts_exit_2_naming_the_option() {
    let script = "produce 2\npredeal north SA\npredeal hearts(south) == 1\naction printoneline\n";
    for (args, want) in [
        (
            &["-S", "SA"][..],
            "predeal: -S SA: SA is predealt to North already",
        ),
        (
            &["-E", "HK", "-W", "HK"],
            "-W HK: HK is predealt to East already",
        ),
        (&["-E", "SKK"], "-E SKK: SK is given twice"),
        (&["-E", "SKX"], "-E SKX: `X` is no suit letter"),
        (&["-E", "K,SA"], "-E K,SA: `K` comes before any suit letter"),
        (
            &["-N", "DAKQJT98765432"],
            "-N DAKQJT98765432: more than 13 cards for North",
        ),
        (
            &["-S", "HAK"],
            "-S HAK: Suit lengths too long for South: 1 H (predeal: 2 heart predealt to it)",
        ),
    ] {
        let err = exits_2(&dealdex_stdin(script, args));
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn script_parameters_come_from_param() {
    // DealerV2's -0 … -9: $0 is a seat, $1 a number, $2 a whole action.
    let script = "produce 4\ncondition hcp($0) >= $1\naction $2\n";
    let out = dealdex_stdin(
        script,
        &[
            "--param",
            "0=south",
            "--param",
            "1=30",
            "--param",
            "2=printrpt(hcp(south))",
            "--param",
            "1=15",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    // The last --param 1 counts: 15, not 30.
    for line in text.lines() {
        let hcp: i64 = line.trim().parse().unwrap();
        assert!(hcp >= 15, "{text}");
    }
    // A parameter the script uses and the command line does not give: the script's error,
    // at its line.
    let err = exits_2(&dealdex_stdin(script, &["--param", "0=south"]));
    assert!(
        err.contains("line 2: script parameter $1 is not given"),
        "{err}"
    );
    // Not N=TEXT with N a digit: clap's error, exit 2.
    for bad in ["10=x", "x=1", "1"] {
        let err = exits_2(&dealdex_stdin(script, &["--param", bad]));
        assert!(err.contains("--param"), "{bad}: {err}");
    }
}

#[test]
fn bad_dealer_v2_items_are_script_errors_with_their_place() {
    for (text, line, column, want) in [
        ("condition par(north) > 0", 1, 15, "a side (NS or EW)"),
        ("condition\n  par(NS, red) > 0", 2, 11, "a vulnerability"),
        ("condition trix(north) > 3", 1, 11, "csvrpt and printrpt"),
        (
            "action printoneline(parcontract(ns))",
            1,
            21,
            "csvrpt and printrpt",
        ),
        ("action csvrpt()", 1, 15, "an expression"),
        (
            "action printrpt(\"x\", trix(NS))",
            1,
            27,
            "a seat or `deal`",
        ),
        (
            "action printrpt(parcontract(vul))",
            1,
            29,
            "a vulnerability",
        ),
    ] {
        let e = Script::parse(text).unwrap_err();
        let dealdex::dealer::ErrorKind::Syntax {
            line: l,
            column: c,
            message,
        } = e.kind()
        else {
            panic!("{text}: {e}")
        };
        assert_eq!((*l, *c), (line, column), "{text}: {e}");
        assert!(message.contains(want), "{text}: {e}");
        let err = exits_2(&dealdex_stdin(text, &[]));
        assert!(err.contains(&format!("line {line}:")), "{text}: {err}");
    }
    // A variable named like one of DealerV2's list words stays the variable in a list.
    let s = Script::parse("deal = 7\naction printrpt(deal, NS)").unwrap();
    let mut out = Vec::new();
    let job = DealerJob {
        seed: Some(1),
        produce: Some(1),
        ..DealerJob::default()
    };
    run(&s, &job, &mut out, &mut |_| {}).unwrap();
    assert!(String::from_utf8(out).unwrap().starts_with(" 7,n "));
}
