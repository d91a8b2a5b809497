//! Contract choice (`dealdex contracts`, issue 39 item 2): the laws' scoring table against
//! DDS's par scores, the workflow over a stored set with known tables, the CLI's JSON.

use dealdex::ErrorKind;
use dealdex::formats::{Board, DealFormat, Pbn, WriteOptions};
use dealdex::workflow::contracts::{ContractsJob, Vulnerable, run};
use dealdex::workflow::pipeline::DealSource;
use dealdex::{Contract, Deal, DealIndex, NewSet, Scheme, Seat, Store, Vulnerability};

use crate::common::{dd_reference, dd_reference_table, dealdex, json_report, stderr};

/// Every par contract of the 200 DDS boards, played to its double-dummy result, scores
/// DDS's par score by `Contract::score` (doubled sacrifices, slams, both vulnerabilities).
#[test]
fn par_contracts_score_ddss_par_by_the_laws_table() {
    let mut checked = 0;
    for r in dd_reference() {
        let t = dd_reference_table(&r);
        let vul: Vulnerability = r["vul"].as_str().unwrap().parse().unwrap();
        let par = r["par"]["score"].as_i64().unwrap() as i32;
        for c in r["par"]["contracts"].as_array().unwrap() {
            // `7NTxE-1`: the contract, then its result (the table's tricks say it too).
            let text = c.as_str().unwrap();
            let c: Contract = text.split(['+', '-']).next().unwrap().parse().unwrap();
            let tricks = t.tricks(c.declarer, c.strain);
            let ns = matches!(c.declarer, Seat::North | Seat::South);
            let score = c.score(tricks, vul.is_vulnerable(c.declarer));
            assert_eq!(
                if ns { score } else { -score },
                par,
                "board {} {c}",
                r["board"]
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked} par contracts");
}

/// Fixture boards 2 to 6 (DDS's tables; vulnerability by board number: NS, EW, All, NS, EW).
fn five_boards() -> Vec<Board> {
    dd_reference()[1..6]
        .iter()
        .map(|r| {
            let deal: Deal = r["deal"].as_str().unwrap().parse().unwrap();
            Board {
                dd: Some(dd_reference_table(r)),
                ..Board::new(r["board"].as_u64().unwrap(), deal)
            }
        })
        .collect()
}

fn close(x: f64, want: f64) -> bool {
    (x - want).abs() < 1e-9
}

/// The five boards stored as a set with their tables, played in 4S:N, 3NT:S, 5D:N and 4H:E;
/// every expected figure worked out by hand from the fixture's tables (in the comments).
#[test]
fn a_stored_set_with_tables_is_played_without_solving() {
    let boards = five_boards();
    let keys: Vec<(u64, DealIndex)> = boards
        .iter()
        .map(|b| (b.number.unwrap(), DealIndex::from_deal(&b.deal)))
        .collect();
    let mut store = Store::open_in_memory().unwrap();
    let set = NewSet {
        name: "five".into(),
        first_board: 2,
        last_board: 6,
        scheme: Scheme::Pavlicek,
        generator: "test".into(),
        seed_sha256: None,
    };
    store.store_set(&set, &keys).unwrap();
    let tables: Vec<_> = boards
        .iter()
        .zip(&keys)
        .map(|(b, k)| (k.1, b.dd.unwrap()))
        .collect();
    store.store_dd(&tables).unwrap();
    let job = ContractsJob {
        source: DealSource::Set("five".into()),
        contracts: ["4S:N", "3NT:S", "5D:N", "4H:E"]
            .map(|c| c.parse().unwrap())
            .to_vec(),
        vulnerable: Vulnerable::Board,
        stop: None,
        keep_deals: false,
    };
    let mut pieces = 0;
    let r = run(&job, Some(&store), &mut |_| pieces += 1).unwrap();
    assert_eq!((r.deals, r.solved, pieces), (5, 0, 1));
    let make: Vec<f64> = r.contracts.iter().map(|c| c.make_percent).collect();
    // 4S:N takes 13 11 3 10 13; 3NT:S 1 11 3 0 0; 5D:N 1 10 13 11 0; 4H:E 11 13 10 4 0.
    assert_eq!(make, [80.0, 20.0, 40.0, 60.0]);
    let mut spread = [0u64; 14];
    (spread[3], spread[10], spread[11], spread[13]) = (1, 1, 1, 2);
    assert_eq!(r.contracts[0].tricks, spread);
    // 4S:N: +710 +450 −700 +620 +510, mean 318; sample variance 1,335,480 / 4.
    assert!(close(r.contracts[0].score.mean.unwrap(), 318.0));
    let se = r.contracts[0].score.standard_error.unwrap();
    assert!(close(se, (1_335_480.0f64 / 4.0 / 5.0).sqrt()), "{se}");
    // 3NT:S: −800 +460 −600 −900 −450; 4H:E (its side's score): +450 +710 +620 −300 −1000.
    assert!(close(r.contracts[1].score.mean.unwrap(), -458.0));
    assert!(close(r.contracts[3].score.mean.unwrap(), 96.0));
    // 4S:N against 3NT:S: 1510 −10 −100 1520 960 → 17 0 −3 17 14 IMPs; MP 1 0 0 1 1.
    assert!(close(r.imps[0][1].mean.unwrap(), 9.0));
    assert!(close(r.imps[1][0].mean.unwrap(), -9.0));
    assert!(close(r.matchpoints[0][1].mean.unwrap(), 0.6));
    assert!(close(r.matchpoints[1][0].mean.unwrap(), 0.4));
    // 4S:N against 4H:E, North–South's view: 710+450, 450+710, −700+620, 620−300, 510−1000
    // → 15 15 −2 8 −10 IMPs.
    assert!(close(r.imps[0][3].mean.unwrap(), 5.2));
    assert!(close(r.imps[3][0].mean.unwrap(), -5.2));
    assert!(close(r.matchpoints[0][3].mean.unwrap(), 0.6));
    for i in 0..4 {
        assert_eq!(r.imps[i][i].mean, Some(0.0));
        assert_eq!(r.matchpoints[i][i].mean, Some(0.5));
    }
    // Forced: nobody vulnerable, 4S:N scores +510 +450 −350 +420 +510.
    let job = ContractsJob {
        vulnerable: Vulnerable::Forced(Vulnerability::None),
        ..job
    };
    let r = run(&job, Some(&store), &mut |_| {}).unwrap();
    assert!(close(r.contracts[0].score.mean.unwrap(), 308.0));
    let text = r.to_string();
    assert!(text.contains("4S:N        80.0"), "{text}");
}

#[test]
fn no_contracts_and_no_deals_are_bad_input() {
    let store = Store::open_in_memory().unwrap();
    let job = ContractsJob {
        source: DealSource::Store,
        contracts: vec![],
        vulnerable: Vulnerable::Board,
        stop: None,
        keep_deals: false,
    };
    let e = run(&job, Some(&store), &mut |_| {}).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::NoContracts));
    let job = ContractsJob {
        contracts: vec!["3NT:S".parse().unwrap()],
        ..job
    };
    let e = run(&job, Some(&store), &mut |_| {}).unwrap_err();
    assert_eq!(dealdex::classify(&e), Some(dealdex::ErrorClass::BadInput));
}

/// The CLI over a PBN file carrying the tables: nothing solved, the hand-computed figures in
/// its JSON; a bad contract exits 2.
#[test]
fn cli_json_over_a_file_with_tables() {
    let dir = tempfile::tempdir().unwrap();
    let mut pbn = Vec::new();
    Pbn.write_header(&WriteOptions::default(), &mut pbn)
        .unwrap();
    Pbn.write_boards(&five_boards(), &WriteOptions::default(), &mut pbn)
        .unwrap();
    std::fs::write(dir.path().join("five.pbn"), pbn).unwrap();
    let (r, lines) = json_report(
        dir.path(),
        &[
            "contracts",
            "4S:N",
            "3NT:S",
            "--deals",
            "five.pbn",
            "--json",
        ],
    );
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(
        (r["deals"].as_u64(), r["solved"].as_u64()),
        (Some(5), Some(0))
    );
    assert_eq!(r["vulnerable"], "board");
    assert_eq!(r["contracts"][0]["contract"], "4S:N");
    assert_eq!(r["contracts"][0]["make_percent"], 80.0);
    assert_eq!(r["contracts"][0]["score"]["mean"], 318.0);
    assert_eq!(r["contracts"][0]["score"]["n"], 5);
    assert_eq!(r["imps"][0][1]["mean"], 9.0);
    assert_eq!(r["matchpoints"][1][0]["mean"], 0.4);
    let (r, _) = json_report(
        dir.path(),
        &[
            "contracts",
            "4S:N",
            "--deals",
            "five.pbn",
            "--vul",
            "None",
            "--json",
        ],
    );
    assert_eq!(
        (
            r["vulnerable"].as_str(),
            r["contracts"][0]["score"]["mean"].as_f64()
        ),
        (Some("None"), Some(308.0))
    );
    let out = dealdex(dir.path())
        .args(["contracts", "3NT:Q", "--deals", "five.pbn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// `dealdex contracts` against dealer's `evalcontract` on the same 200 boards (DDS's tables
/// in a PBN file): every one of the 70 undoubled contracts by North and by South, not
/// vulnerable and vulnerable, averages the same score. dealer prints the average truncated
/// toward zero (`%4d` of an integer division), so the contracts' exact means are truncated
/// the same way. dealer's table is dealdex's `evalcontract`, which follows dealer's source
/// (Debian's dealer 20211121 aborts on it).
#[test]
fn contract_scores_equal_dealers_evalcontract_table() {
    let dir = tempfile::tempdir().unwrap();
    let boards: Vec<Board> = dd_reference()
        .iter()
        .map(|r| Board {
            dd: Some(dd_reference_table(r)),
            ..Board::new(
                r["board"].as_u64().unwrap(),
                r["deal"].as_str().unwrap().parse().unwrap(),
            )
        })
        .collect();
    let mut pbn = Vec::new();
    Pbn.write_header(&WriteOptions::default(), &mut pbn)
        .unwrap();
    Pbn.write_boards(&boards, &WriteOptions::default(), &mut pbn)
        .unwrap();
    std::fs::write(dir.path().join("deals.pbn"), pbn).unwrap();
    std::fs::write(dir.path().join("eval.dl"), "action evalcontract\n").unwrap();
    let out = dealdex(dir.path())
        .args(["dealer", "--deals", "deals.pbn", "eval.dl"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    // dealer's table: `n: ` rows of `North/South` averages for levels 1-7, not vulnerable
    // first. table[vul][strain letter][level - 1] = (north, south).
    let mut table: Vec<std::collections::HashMap<char, Vec<(i64, i64)>>> = vec![];
    for line in text.lines() {
        if line.starts_with("Not Vulnerable") || line.starts_with("Vulnerable") {
            table.push(Default::default());
        } else if let Some((letter @ ("c" | "d" | "h" | "s" | "n"), cells)) = line.split_once(": ")
        {
            // `%4d/%4d ` a cell: 10 bytes.
            let cells = cells
                .as_bytes()
                .chunks(10)
                .map(|c| {
                    let c = std::str::from_utf8(c).unwrap();
                    let (n, s) = c.split_once('/').unwrap();
                    (n.trim().parse().unwrap(), s.trim().parse().unwrap())
                })
                .collect();
            let letter = letter.chars().next().unwrap();
            table.last_mut().unwrap().insert(letter, cells);
        }
    }
    assert_eq!(table.len(), 2, "{text}");
    let mut contracts = vec![];
    for level in 1..=7 {
        for (strain, _) in [("C", 'c'), ("D", 'd'), ("H", 'h'), ("S", 's'), ("NT", 'n')] {
            for seat in ["N", "S"] {
                contracts.push(format!("{level}{strain}:{seat}"));
            }
        }
    }
    let mut compared = 0;
    for (vul, name) in [(0, "None"), (1, "All")] {
        let mut args = vec!["contracts", "--deals", "deals.pbn", "--vul", name, "--json"];
        args.extend(contracts.iter().map(String::as_str));
        let (r, _) = json_report(dir.path(), &args);
        assert_eq!(
            (r["deals"].as_u64(), r["solved"].as_u64()),
            (Some(200), Some(0))
        );
        for c in r["contracts"].as_array().unwrap() {
            let text = c["contract"].as_str().unwrap();
            let level = usize::from(text.as_bytes()[0] - b'0');
            let letter = match &text[1..2] {
                "N" => 'n',
                s => s.to_ascii_lowercase().chars().next().unwrap(),
            };
            let (north, south) = table[vul][&letter][level - 1];
            let dealer = if text.ends_with(":N") { north } else { south };
            let mean = c["score"]["mean"].as_f64().unwrap();
            assert_eq!(mean.trunc() as i64, dealer, "{text} vulnerability {name}");
            compared += 1;
        }
    }
    assert_eq!(compared, 140);
    // The table is not all zeros: the comparison sees real scores.
    assert!(table[1][&'n'][2].0 != 0);
}

/// `contracts --count` deals its sample from the seed's stream around the predeal, filtered
/// by `--where`: the same deals `generate` deals with the same flags (the two reports agree
/// figure by figure), and the seed and deals drawn are reported.
#[test]
fn cli_over_a_dealt_sample_plays_generates_deals() {
    let dir = tempfile::tempdir().unwrap();
    let seed = "42".repeat(32);
    let dealt = [
        "--count",
        "4",
        "--seed",
        &seed,
        "--predeal",
        "S:AQ4.KJ52.K83.Q72 N:K32.AQ87.Q4.J985",
        "--where",
        "hcp(E) >= 8",
    ];
    let mut args = vec!["contracts", "3NT:S", "4H:S", "--vul", "None", "--json"];
    args.extend(dealt);
    let (r, _) = json_report(dir.path(), &args);
    assert_eq!(
        (r["deals"].as_u64(), r["solved"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(r["seed"].as_str(), Some(seed.as_str()));
    assert!(r["drawn"].as_u64().unwrap() >= 4, "{r}");
    let mut generate = vec!["generate", "--no-db", "-q", "--out", "dealt.pbn"];
    generate.extend(dealt);
    let out = dealdex(dir.path()).args(&generate).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let (file, _) = json_report(
        dir.path(),
        &[
            "contracts",
            "3NT:S",
            "4H:S",
            "--vul",
            "None",
            "--json",
            "--deals",
            "dealt.pbn",
        ],
    );
    for key in ["contracts", "imps", "matchpoints"] {
        assert_eq!(r[key], file[key], "{key}");
    }
    // A query no deal can satisfy with the predealt cards is refused before dealing.
    let mut args = vec![
        "contracts",
        "3NT:S",
        "--count",
        "2",
        "--where",
        "hcp(S) > 20",
    ];
    args.extend(&dealt[4..6]);
    let out = dealdex(dir.path()).args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("hcp(S)"), "{}", stderr(&out));
}
