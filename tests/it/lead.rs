//! Opening-lead problems (`dealdex lead`, `workflow::lead`): on a deal whose every lead DDS
//! has solved (tests/fixtures/dd/leads-300.jsonl), the report's tricks are DDS's and its
//! scores, IMPs and matchpoints those of the laws' table worked by hand; a dealt sample
//! gives the leader the hand asked for and is reproducible by its seed.

use std::path::Path;

use dealdex::ErrorKind;
use dealdex::workflow::lead::{LeadJob, LeadSample, run};
use dealdex::workflow::pipeline::DealSource;
use dealdex::{Contract, Doubling, Hand, Seat, Strain, Vulnerability};

use crate::common;

/// The first position of the fixture: 3NT by North, East on lead; DDS gives the defence 11
/// tricks after CA, CK, CQ, DA and D7, 10 after the others.
const DEAL: &str = "N:KT73.KT6.Q93.JT2 AJ6.975.A7.AKQ75 954.J8432.JT862. Q82.AQ.K54.98643";

fn three_nt(doubling: Doubling) -> Contract {
    Contract {
        level: 3,
        strain: Strain::NoTrump,
        doubling,
        declarer: Seat::North,
    }
}

fn one_deal_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("one.pbn");
    std::fs::write(&path, format!("[Board \"1\"]\n[Deal \"{DEAL}\"]\n\n")).unwrap();
    path
}

#[test]
fn one_solved_deal_gives_ddss_tricks_and_the_tables_scores() {
    let dir = tempfile::tempdir().unwrap();
    let job = LeadJob {
        contract: three_nt(Doubling::Undoubled),
        vulnerability: Vulnerability::None,
        sample: LeadSample::Deals(DealSource::file(one_deal_file(dir.path()))),
        store: None,
        stop: None,
    };
    let report = run(&job, None, &mut |_| {}).unwrap();
    assert_eq!((report.deals, report.leader), (1, Seat::East));
    let got: Vec<(String, f64, f64)> = report
        .cards
        .iter()
        .map(|c| (c.card.to_string(), c.mean_tricks, c.mean_score))
        .collect();
    let eleven = ["CA", "CK", "CQ", "DA", "D7"];
    for (card, tricks, score) in &got {
        let want = if eleven.contains(&card.as_str()) {
            11.0
        } else {
            10.0
        };
        assert_eq!(*tricks, want, "{card}");
        // Undoubled, not vulnerable: 50 a trick down (3NT down 6: +300, down 7: +350).
        assert_eq!(*score, if want == 11.0 { 350.0 } else { 300.0 }, "{card}");
    }
    assert_eq!(got.len(), 13);
    assert!(report.cards.iter().all(|c| c.defeat_percent == 100.0));
    let ca_s6 = report
        .pairs
        .iter()
        .find(|p| p.a.to_string() == "CA" && p.b.to_string() == "S6")
        .unwrap();
    // +350 against +300: 50 points, 2 IMPs; a trick more on the one deal: a top.
    assert_eq!(
        (ca_s6.a_better_percent, ca_s6.imps, ca_s6.matchpoints),
        (100.0, 2.0, 1.0)
    );
    assert_eq!(report.pairs.len(), 13 * 12);

    // Doubled: down 6 is 1400, down 7 is 1700 (100, 200, 200, then 300 each): 300 points,
    // 7 IMPs.
    let doubled = LeadJob {
        contract: three_nt(Doubling::Doubled),
        ..job
    };
    let report = run(&doubled, None, &mut |_| {}).unwrap();
    let score = |card: &str| {
        report
            .cards
            .iter()
            .find(|c| c.card.to_string() == card)
            .unwrap()
            .mean_score
    };
    assert_eq!((score("CA"), score("S6")), (1700.0, 1400.0));
    let pair = report
        .pairs
        .iter()
        .find(|p| p.a.to_string() == "CA" && p.b.to_string() == "S6")
        .unwrap();
    assert_eq!(pair.imps, 7.0);
}

/// The fixture's second position: spades by East, DDS gives the defence 4 tricks after
/// every lead. 3S then makes exactly (set on no deal, the defence scores −140) and 4S goes
/// one down (set on every deal, +50).
#[test]
fn defeat_percent_counts_the_deals_declarer_falls_short() {
    let dir = tempfile::tempdir().unwrap();
    for (level, set, score) in [(3, 0.0, -140.0), (4, 100.0, 50.0)] {
        let job = LeadJob {
            contract: Contract {
                level,
                strain: Strain::Trumps(dealdex::Suit::Spades),
                doubling: Doubling::Undoubled,
                declarer: Seat::East,
            },
            vulnerability: Vulnerability::None,
            sample: LeadSample::Deals(DealSource::file(one_deal_file(dir.path()))),
            store: None,
            stop: None,
        };
        let report = run(&job, None, &mut |_| {}).unwrap();
        assert_eq!(report.leader, Seat::South);
        for c in &report.cards {
            assert_eq!(
                (c.mean_tricks, c.defeat_percent, c.mean_score),
                (4.0, set, score),
                "{level}S by East, lead {}",
                c.card
            );
        }
    }
}

#[test]
fn a_dealt_sample_is_the_seeds_and_gives_the_leader_the_hand() {
    let hand: Hand = "S:AQ4 H:J D:KJ6543 C:632".parse().unwrap();
    let job = LeadJob {
        contract: Contract {
            level: 3,
            strain: Strain::NoTrump,
            doubling: Doubling::Undoubled,
            declarer: Seat::South,
        },
        vulnerability: Vulnerability::All,
        sample: LeadSample::Dealt {
            hand,
            seed: "42".repeat(32).parse().unwrap(),
            deals: 40,
            filter: Some(dealdex::query::Query::parse("hcp(S) >= 15").unwrap()),
            max_draws: None,
        },
        store: None,
        stop: None,
    };
    let a = run(&job, None, &mut |_| {}).unwrap();
    let b = run(&job, None, &mut |_| {}).unwrap();
    assert_eq!(a.leader, Seat::West);
    assert_eq!(a.deals, 40);
    assert!(a.drawn.unwrap() >= 40);
    // The leader's cards are the hand's.
    let cards: Vec<String> = a.cards.iter().map(|c| c.card.to_string()).collect();
    let mut want: Vec<String> = hand.cards().map(|c| c.to_string()).collect();
    want.sort();
    let mut sorted = cards.clone();
    sorted.sort();
    assert_eq!(sorted, want);
    // Same seed, same deals, same answers.
    assert_eq!(
        a.cards.iter().map(|c| c.mean_tricks).collect::<Vec<_>>(),
        b.cards.iter().map(|c| c.mean_tricks).collect::<Vec<_>>()
    );
    for c in &a.cards {
        assert_eq!(c.tricks.iter().sum::<u64>(), 40);
    }
}

#[test]
fn a_sample_whose_deals_give_the_leader_other_hands_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.pbn");
    let other = "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432";
    std::fs::write(
        &path,
        format!("[Board \"1\"]\n[Deal \"{DEAL}\"]\n\n[Board \"2\"]\n[Deal \"{other}\"]\n\n"),
    )
    .unwrap();
    let job = LeadJob {
        contract: three_nt(Doubling::Undoubled),
        vulnerability: Vulnerability::None,
        sample: LeadSample::Deals(DealSource::file(path)),
        store: None,
        stop: None,
    };
    let e = run(&job, None, &mut |_| {}).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::OtherHand {
                deal: 2,
                leader: Seat::East
            }
        ),
        "{e}"
    );
    // A hand of 12 cards reads (a hand is any set of cards) but is no leader's hand.
    let job = LeadJob {
        sample: LeadSample::Dealt {
            hand: "AQ4.J.KJ6543.63".parse().unwrap(),
            seed: "42".repeat(32).parse().unwrap(),
            deals: 5,
            filter: None,
            max_draws: None,
        },
        ..job
    };
    let e = run(&job, None, &mut |_| {}).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LeaderHand(12)), "{e}");
}

#[test]
fn cli_lead_prints_json_and_writes_csv() {
    let dir = tempfile::tempdir().unwrap();
    let seed = "42".repeat(32);
    let out = common::dealdex(dir.path())
        .args([
            "lead",
            "--hand",
            "AQ4.J.KJ6543.632",
            "--contract",
            "3NT",
            "--declarer",
            "S",
            "--deals",
            "12",
            "--seed",
            &seed,
            "--csv",
            "leads.csv",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["deals"], 12);
    assert_eq!(report["leader"], "W");
    assert_eq!(report["cards"].as_array().unwrap().len(), 13);
    assert_eq!(report["seed"], seed.as_str());
    let csv = std::fs::read_to_string(dir.path().join("leads.csv")).unwrap();
    assert_eq!(csv.lines().count(), 14);
    assert!(csv.starts_with("card,mean_tricks,"));
    // The text report names the contract and its declarer apart (it read "against 3NTS").
    let out = common::dealdex(dir.path())
        .args(["lead", "--hand", "AQ4.J.KJ6543.632", "--contract", "3NT"])
        .args(["--declarer", "S", "--deals", "4", "--seed", &seed])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Opening leads by W against 3NT by S (4 deals, vulnerability "),
        "{text}"
    );
    // A hand that is not 13 cards: bad input, exit 2.
    let out = common::dealdex(dir.path())
        .args([
            "lead",
            "--hand",
            "AQ4.J",
            "--contract",
            "3NT",
            "--declarer",
            "S",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The leader's hand of the stored-sample tests (West, against 3NT by South): ♠A ♠Q ♠4 ♥J
/// ♦K ♦J ♦6 ♦5 ♦4 ♦3 ♣6 ♣3 ♣2.
const WEST: &str = "AQ4.J.KJ6543.632";

/// `dealdex query EXPR --set SET --count --db d.db` in `dir`: the count.
fn query_count(dir: &Path, set: &str, expr: &str) -> u64 {
    let out = common::dealdex(dir)
        .args(["query", expr, "--set", set, "--count", "--db", "d.db"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{expr}: {}", common::stderr(&out));
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// `lead` of 3NT by South (JSON, db `d.db` in `dir`) with the `extra` arguments: the report.
fn lead_3nt_by_south(dir: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "lead",
        "--contract",
        "3NT",
        "--declarer",
        "S",
        "--db",
        "d.db",
        "--json",
    ];
    args.extend_from_slice(extra);
    common::json_report(dir, &args).0
}

/// The report's per-card distribution is what the query counts on set `w` of `dir`'s db:
/// for each card and each k, the deals on which the defence takes k or more after it.
fn assert_report_is_what_the_query_counts(dir: &Path, report: &serde_json::Value) {
    for card in report["cards"].as_array().unwrap().iter().take(4) {
        let name = card["card"].as_str().unwrap();
        let dist: Vec<u64> = card["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        for k in [2usize, 4, 5] {
            let want: u64 = dist[k..].iter().sum();
            let got = query_count(dir, "w", &format!("lead(W, nt, {name}) >= {k}"));
            assert_eq!(got, want, "{name} >= {k}");
        }
    }
}

/// Set `w` of `dir`'s db holds boards 1-8 (of `lead --seed <seed>`), West's leads against
/// notrump stored as lead_tricks solves them, board by board: the deals' keys.
fn assert_stored_rows_are_lead_tricks(dir: &Path, seed: &str) -> Vec<dealdex::DealIndex> {
    let store = dealdex::ReadOnlyStore::open(&dir.join("d.db")).unwrap();
    let boards = store.set_boards("w").unwrap();
    assert_eq!(boards.len(), 8);
    assert_eq!(
        boards.iter().map(|b| b.0).collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>()
    );
    let keys: Vec<dealdex::DealIndex> = boards.iter().map(|b| b.1).collect();
    let stored = store
        .stored_leads(&keys, Seat::West, Strain::NoTrump)
        .unwrap();
    let positions: Vec<dealdex::dd::LeadPosition> = keys
        .iter()
        .map(|k| dealdex::dd::LeadPosition {
            deal: k.to_deal().unwrap(),
            strain: Strain::NoTrump,
            leader: Seat::West,
        })
        .collect();
    let solved = dealdex::dd::lead_tricks(&positions);
    for (row, solved) in stored.iter().zip(&solved) {
        assert_eq!(row.unwrap(), dealdex::dd::lead_table(solved));
    }
    let info = store.set("w").unwrap().unwrap();
    assert!(info.generator.contains("lead 3NTS"), "{}", info.generator);
    assert_eq!(
        info.seed_sha256,
        Some(seed.parse::<dealdex::Seed>().unwrap().sha256())
    );
    keys
}

/// `lead --store` stores the sample and its per-card tricks; the query term reads the same
/// values the report counted and lead_tricks gives; `lead --set` reads them instead of
/// solving; a taken set name is refused and changes nothing.
#[test]
fn stored_leads_are_queried_reused_and_a_taken_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let seed = "42".repeat(32);
    let first = lead_3nt_by_south(
        dir.path(),
        &[
            "--hand", WEST, "--deals", "8", "--seed", &seed, "--store", "w",
        ],
    );
    assert_eq!(
        (first["solved"].as_u64(), first["looked_up"].as_u64()),
        (Some(8), Some(0))
    );
    assert_eq!(first["stored"]["set"], "w");
    assert_eq!(first["stored"]["boards"], 8);
    assert_eq!(first["stored"]["new_deals"], 8);
    assert_eq!(first["stored"]["new_leads"], 8);

    assert_report_is_what_the_query_counts(dir.path(), &first);

    let keys = assert_stored_rows_are_lead_tricks(dir.path(), &seed);

    // The stored sample again: every lead read, none solved, the same answers.
    let again = lead_3nt_by_south(dir.path(), &["--set", "w"]);
    assert_eq!(
        (again["solved"].as_u64(), again["looked_up"].as_u64()),
        (Some(0), Some(8))
    );
    assert!(again["stored"].is_null());
    assert_eq!(again["cards"], first["cards"]);
    assert_eq!(again["pairs"], first["pairs"]);

    // A taken name: bad input, refused before solving, nothing stored.
    let out = common::dealdex(dir.path())
        .args([
            "lead",
            "--hand",
            WEST,
            "--contract",
            "4S",
            "--declarer",
            "S",
            "--deals",
            "3",
            "--seed",
            &seed,
            "--store",
            "w",
            "--db",
            "d.db",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains("set \"w\" already exists"),
        "{}",
        common::stderr(&out)
    );
    let store = dealdex::ReadOnlyStore::open(&dir.path().join("d.db")).unwrap();
    assert_eq!(store.set_boards("w").unwrap().len(), 8);
    let spades = store
        .stored_leads(&keys, Seat::West, Strain::Trumps(dealdex::Suit::Spades))
        .unwrap();
    assert!(spades.iter().all(Option::is_none));
}

/// Where no leads are stored (another set, another strain or leader) or the leader does not
/// hold the card, the term is NULL: neither a comparison nor its negation holds. On the
/// stored leads, the SQL and the Rust evaluator (which solves) keep the same deals.
#[test]
fn lead_queries_are_null_without_stored_leads_and_agree_with_the_evaluator() {
    let dir = tempfile::tempdir().unwrap();
    let hand: Hand = WEST.parse().unwrap();
    let job = LeadJob {
        contract: Contract {
            level: 3,
            strain: Strain::NoTrump,
            doubling: Doubling::Undoubled,
            declarer: Seat::South,
        },
        vulnerability: Vulnerability::None,
        sample: LeadSample::Dealt {
            hand,
            seed: "17".repeat(32).parse().unwrap(),
            deals: 6,
            filter: None,
            max_draws: None,
        },
        store: Some("s".into()),
        stop: None,
    };
    // run() has no database to write.
    assert!(matches!(
        run(&job, None, &mut |_| {}).map_err(dealdex::Error::into_kind),
        Err(ErrorKind::StoreNeedsWriter)
    ));
    let path = dir.path().join("d.db");
    let mut store = dealdex::Store::open(&path).unwrap();
    let report = dealdex::workflow::lead::run_storing(&job, &mut store, &mut |_| {}).unwrap();
    assert_eq!(report.stored.as_ref().unwrap().new_leads, 6);
    // A set of other deals, without leads.
    let other: Vec<(u64, dealdex::DealIndex)> = (1..=5)
        .map(|b| {
            let d = "99"
                .repeat(32)
                .parse::<dealdex::Seed>()
                .unwrap()
                .board_deal(b);
            (b, dealdex::DealIndex::from_deal(&d))
        })
        .collect();
    store
        .store_set(
            &dealdex::NewSet {
                name: "plain".into(),
                first_board: 1,
                last_board: 5,
                scheme: dealdex::Scheme::Pavlicek,
                generator: "test".into(),
                seed_sha256: None,
            },
            &other,
        )
        .unwrap();
    drop(store);
    for (set, expr) in [
        ("plain", "lead(W, nt, SA) >= 0"),
        ("plain", "not lead(W, nt, SA) >= 0"),
        ("s", "lead(W, spades, SA) >= 0"),
        ("s", "not lead(W, spades, SA) >= 0"),
        ("s", "lead(E, nt, SA) >= 0 or lead(E, nt, SA) < 0"),
        ("s", "lead(W, nt, SK) >= 0"),
        ("s", "not lead(W, nt, SK) >= 0"),
    ] {
        assert_eq!(query_count(dir.path(), set, expr), 0, "{set}: {expr}");
    }
    assert_eq!(query_count(dir.path(), "s", "lead(W, nt, SA) >= 0"), 6);

    // SQL (stored leads) against Rust (solved) on the stored sample.
    let store = dealdex::ReadOnlyStore::open(&path).unwrap();
    let deals: Vec<(dealdex::DealIndex, dealdex::Deal)> = store
        .set_boards("s")
        .unwrap()
        .into_iter()
        .map(|(_, k)| (k, k.to_deal().unwrap()))
        .collect();
    let mut sizes = Vec::new();
    for expr in [
        "lead(W, nt, SA) > lead(W, nt, D5)",
        "not lead(W, nt, SA) > lead(W, nt, D5)",
        "lead(W, nt, DK) + lead(W, nt, C2) in 6..9 or hcp(N) > 12",
        "not (lead(W, nt, SK) >= 0 and hcp(E) > 10)",
        "lead(W, nt, HJ) >= 4 or not lead(W, nt, H2) < 3",
    ] {
        let q = dealdex::query::Query::parse(expr).unwrap();
        let mut sql: Vec<dealdex::DealIndex> = store
            .find_deals(&q.to_sql(), Some("s"), None)
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        sql.sort();
        let mut rust: Vec<dealdex::DealIndex> = deals
            .iter()
            .filter(|(_, d)| q.matches(d))
            .map(|(k, _)| *k)
            .collect();
        rust.sort();
        assert_eq!(sql, rust, "{expr}");
        sizes.push(rust.len());
    }
    // Not all empty or all full: the queries tell deals apart.
    assert!(sizes.iter().any(|&n| n > 0), "{sizes:?}");
    assert!(sizes.iter().any(|&n| n < deals.len()), "{sizes:?}");
}

/// `lead --script` deals its sample as `dealdex dealer` does with the leader's hand added to
/// the script's predeal (`-W`): the report equals the one over the deals dealer prints with
/// the same seed, and gives dealer's seed number and the deals drawn. A script that gives the
/// leader's cards to another seat, or a syntax error, is bad input.
#[test]
fn cli_lead_over_a_dealer_scripts_deals() {
    let dir = tempfile::tempdir().unwrap();
    let hand = "S:QT73 H:K84 D:J92 C:K65";
    std::fs::write(
        dir.path().join("1nt.dl"),
        "condition hcp(south) >= 15 && hcp(south) <= 17 && hcp(north) >= 10\naction printpbn\n",
    )
    .unwrap();
    let lead = ["lead", "--contract", "3NT", "--declarer", "S", "--json"];
    let mut args = lead.to_vec();
    args.extend([
        "--hand", hand, "--script", "1nt.dl", "--seed", "7", "--deals", "6",
    ]);
    let (scripted, _) = common::json_report(dir.path(), &args);
    assert_eq!(
        (scripted["deals"].as_u64(), scripted["seed"].as_str()),
        (Some(6), Some("7"))
    );
    assert!(scripted["drawn"].as_u64().unwrap() > 6, "{scripted}");
    let out = common::dealdex(dir.path())
        .args(["dealer", "1nt.dl", "-s", "7", "-p", "6", "-W"])
        .arg("SQ,ST,S7,S3,HK,H8,H4,DJ,D9,D2,CK,C6,C5")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    std::fs::write(dir.path().join("dealer.pbn"), &out.stdout).unwrap();
    let mut args = lead.to_vec();
    args.extend(["--file", "dealer.pbn"]);
    let (printed, _) = common::json_report(dir.path(), &args);
    assert_eq!(scripted["cards"], printed["cards"]);
    assert_eq!(scripted["pairs"], printed["pairs"]);
    for (script, error) in [
        ("predeal west SA\n", "more than 13 cards for West"),
        ("condition hcp(north) >\n", "line 2"),
    ] {
        std::fs::write(dir.path().join("bad.dl"), script).unwrap();
        let out = common::dealdex(dir.path())
            .args([
                "lead",
                "--hand",
                hand,
                "--contract",
                "3NT",
                "--declarer",
                "S",
            ])
            .args(["--script", "bad.dl", "--deals", "2"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
        assert!(
            common::stderr(&out).contains(error),
            "{}",
            common::stderr(&out)
        );
    }
}

#[test]
fn cli_lead_names_its_hand_flag_and_the_column() {
    let dir = tempfile::tempdir().unwrap();
    for (hand, error) in [
        (
            "AQ4.J.KJ6543.6x2",
            "--hand \"AQ4.J.KJ6543.6x2\": column 15: 'x' is not a rank",
        ),
        (
            "S:AQ4 X:J",
            "--hand \"S:AQ4 X:J\": column 7: \"X\" is not a suit",
        ),
        ("AQ4.J.KJ6543.63", "the leader's hand has 12 cards, not 13"),
        // With a script too, before the script runs.
        ("AQ4.J.KJ6543.63 ", "the leader's hand has 12 cards, not 13"),
    ] {
        let script = hand.ends_with(' ');
        let mut cmd = common::dealdex(dir.path());
        cmd.args([
            "lead",
            "--hand",
            hand,
            "--contract",
            "3NT",
            "--declarer",
            "S",
        ]);
        if script {
            std::fs::write(dir.path().join("any.dl"), "condition hcp(north) > 10\n").unwrap();
            cmd.args(["--script", "any.dl", "--deals", "2"]);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
        assert!(
            common::stderr(&out).contains(error),
            "{}",
            common::stderr(&out)
        );
    }
}
