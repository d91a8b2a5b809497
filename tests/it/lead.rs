//! Opening-lead problems (`dealdex lead`, `workflow::lead`): on a deal whose every lead DDS
//! has solved (tests/fixtures/dd/leads-300.jsonl), the report's tricks are DDS's and its
//! scores, IMPs and matchpoints those of the laws' table worked by hand; a dealt sample
//! gives the leader the hand asked for and is reproducible by its seed.

use dealdex::workflow::lead::{LeadError, LeadJob, LeadSample, parse_hand, run};
use dealdex::workflow::pipeline::DealSource;
use dealdex::{Contract, Penalty, Seat, Strain, Vulnerability};

use crate::common;

/// The first position of the fixture: 3NT by North, East on lead; DDS gives the defence 11
/// tricks after CA, CK, CQ, DA and D7, 10 after the others.
const DEAL: &str = "N:KT73.KT6.Q93.JT2 AJ6.975.A7.AKQ75 954.J8432.JT862. Q82.AQ.K54.98643";

fn three_nt(penalty: Penalty) -> Contract {
    Contract {
        level: 3,
        strain: Strain::NoTrump,
        penalty,
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
        contract: three_nt(Penalty::Undoubled),
        vulnerability: Vulnerability::None,
        sample: LeadSample::Deals(DealSource::file(one_deal_file(dir.path()))),
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
    assert!(report.cards.iter().all(|c| c.set_percent == 100.0));
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
        contract: three_nt(Penalty::Doubled),
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
fn set_percent_counts_the_deals_declarer_falls_short() {
    let dir = tempfile::tempdir().unwrap();
    for (level, set, score) in [(3, 0.0, -140.0), (4, 100.0, 50.0)] {
        let job = LeadJob {
            contract: Contract {
                level,
                strain: Strain::Trumps(dealdex::Suit::Spades),
                penalty: Penalty::Undoubled,
                declarer: Seat::East,
            },
            vulnerability: Vulnerability::None,
            sample: LeadSample::Deals(DealSource::file(one_deal_file(dir.path()))),
        };
        let report = run(&job, None, &mut |_| {}).unwrap();
        assert_eq!(report.leader, Seat::South);
        for c in &report.cards {
            assert_eq!(
                (c.mean_tricks, c.set_percent, c.mean_score),
                (4.0, set, score),
                "{level}S by East, lead {}",
                c.card
            );
        }
    }
}

#[test]
fn a_dealt_sample_is_the_seeds_and_gives_the_leader_the_hand() {
    let hand = parse_hand("S:AQ4 H:J D:KJ6543 C:632").unwrap();
    assert_eq!(hand, parse_hand("AQ4.J.KJ6543.632").unwrap());
    let job = LeadJob {
        contract: Contract {
            level: 3,
            strain: Strain::NoTrump,
            penalty: Penalty::Undoubled,
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
        contract: three_nt(Penalty::Undoubled),
        vulnerability: Vulnerability::None,
        sample: LeadSample::Deals(DealSource::file(path)),
    };
    let e = run(&job, None, &mut |_| {}).unwrap_err();
    assert!(
        matches!(
            e,
            LeadError::OtherHand {
                deal: 2,
                leader: Seat::East
            }
        ),
        "{e}"
    );
    assert!(parse_hand("AQ4.J.KJ6543.63").is_err());
    assert!(parse_hand("S:AQ4 X:J").is_err());
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
