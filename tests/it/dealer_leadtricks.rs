//! suokko's dealer's `leadtricks(seat, strain)` in `dealdex dealer` (issue 39 item 1): the
//! per-card tricks of the opening lead, its tables and averages, against suokko's dealer's
//! own output on the same deals (`tests/fixtures/dealer/leadtricks/`, its README says how it
//! was made) and against the solver's lead tricks ([`dealdex::dd::lead_tricks`]).

use std::path::PathBuf;
use std::process::Output;

use assert_cmd::Command;
use dealdex::dd::{LeadPosition, lead_tricks};
use dealdex::dealer::{DealFeed, DealerJob, GivenDeal, GivenFeed, Script, Summary, run};
use dealdex::formats::{DealFormat, GibLibrary};
use dealdex::{Card, Deal, Seat, Strain, Suit};

use crate::common::dealer::fixtures;
use crate::common::{dealdex as dealdex_in, fixture, stderr};

fn dir() -> PathBuf {
    fixtures("leadtricks")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

/// `dealdex dealer` with `args`, the script on standard input.
fn dealer_stdin(script: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .arg("dealer")
        .args(args)
        .write_stdin(script)
        .output()
        .unwrap()
}

/// What suokko's dealer keeps of the leader's cards with declarer's tricks: the opening
/// leads as the solver gives them (every card, the defence's tricks), the highest card of
/// each run of equal cards only (the leader holding the card one rank above drops a card).
fn suokkos_leads(deal: &Deal, declarer: Seat, strain: Strain) -> Vec<(Card, i64)> {
    let leader = declarer.next();
    let all = lead_tricks(&[LeadPosition {
        deal: *deal,
        strain,
        leader,
    }])
    .remove(0);
    let hand = deal.hand(leader);
    let mut kept = Vec::new();
    for &(card, defence) in &all {
        let above = dealdex::Rank::new(card.rank().value() + 1);
        let equal_above = above.is_some_and(|r| hand.contains(Card::new(card.suit(), r)));
        if equal_above {
            // Equal cards win the same tricks: the card kept stands for this one.
            let (_, t) = all
                .iter()
                .find(|(c, _)| Some(c.rank()) == above && c.suit() == card.suit())
                .unwrap();
            assert_eq!(*t, defence, "{card} and the card above it");
        } else {
            kept.push((card, 13 - i64::from(defence)));
        }
    }
    kept
}

#[test]
fn tables_averages_and_prints_are_suokkos_bytes_on_its_deals() {
    // suokko's dealer (073741b, built with its DDS) ran leadtricks.dei: its deals, given back
    // to dealdex, give the same frequency tables (a column per lead card), averages and
    // printes values. suokko's printoneline has no space at the end of the line, dealdex's
    // (Debian's dealer's) has one.
    let want = read("leadtricks.suokko-out");
    let tmp = tempfile::tempdir().unwrap();
    let deals: String = want
        .lines()
        .filter(|l| l.starts_with("n "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(deals.lines().count(), 10);
    let file = tmp.path().join("deals.txt");
    std::fs::write(&file, deals).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .arg("dealer")
        .arg(dir().join("leadtricks.dei"))
        .arg("--deals")
        .arg(&file)
        .args(["--from", "oneline", "-s", "1", "-v"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let got: String = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| match l.starts_with("n ") {
            true => format!(
                "{}\n",
                l.strip_suffix(' ').expect("dealdex's trailing space")
            ),
            false => format!("{l}\n"),
        })
        .collect();
    assert_eq!(got, want);
    // West's QJT5 92 AK32 753: one column for each run of equal cards.
    assert!(
        got.contains(
            "         SQ     S5     H9     H2     DA     D3     C7     C5     C3    Sum\n"
        ),
        "{got}"
    );
}

#[test]
fn per_card_values_are_the_solvers_lead_tricks() {
    // One deal, two declarers and strains: each table has one count a card, in the row of
    // declarer's tricks after that lead; the average is the mean over the cards kept.
    let deal: Deal = "N:A742.Q8654.7.K84 83.JT7.QJT54.J62 K96.AK3.986.AQT9 QJT5.92.AK32.753"
        .parse()
        .unwrap();
    let script = Script::parse(
        "nt = leadtricks(south, notrump)\n\
         action frequency \"nt\" (nt, 0, 13), frequency \"hearts\" (leadtricks(east, hearts), 0, 13),\n\
         average \"nt\" nt, average \"down\" (9 - nt > 0)",
    )
    .unwrap();
    let job = DealerJob {
        seed: Some(1),
        feed: DealFeed::Given(GivenFeed::from_deals(vec![GivenDeal::new(deal)])),
        ..DealerJob::default()
    };
    let mut out = Vec::new();
    let report = run(&script, &job, &mut out, &mut |_| {}).unwrap();
    assert_eq!(report.produced, 1);
    // One solve for each (declarer, strain): `nt` is named twice and solved once.
    assert_eq!(report.solved, 2);
    let checks = [
        (0, Seat::South, Strain::NoTrump),
        (1, Seat::East, Strain::Trumps(Suit::Hearts)),
    ];
    for (i, declarer, strain) in checks {
        let Summary::FrequencyLead(q) = &report.summaries[i] else {
            panic!("{:?}", report.summaries[i]);
        };
        let want = suokkos_leads(&deal, declarer, strain);
        let cards: Vec<String> = want.iter().map(|(c, _)| c.to_string()).collect();
        assert_eq!(q.cards, cards, "{declarer:?} {strain:?}");
        for (col, &(card, tricks)) in want.iter().enumerate() {
            for (row, counts) in q.counts.iter().enumerate() {
                let here = row as i64 - 1 == tricks;
                assert_eq!(counts[col], u64::from(here), "{card} row {row}");
            }
        }
    }
    let nt = suokkos_leads(&deal, Seat::South, Strain::NoTrump);
    assert_eq!(nt.len(), 9, "West's QJT5.92.AK32.753: nine runs");
    let mean = nt.iter().map(|&(_, t)| t as f64).sum::<f64>() / nt.len() as f64;
    let down = nt.iter().filter(|&&(_, t)| t < 9).count() as f64 / nt.len() as f64;
    let Summary::Average(a) = &report.summaries[2] else {
        panic!()
    };
    assert!((a.mean - mean).abs() < 1e-12, "{} {mean}", a.mean);
    let Summary::Average(d) = &report.summaries[3] else {
        panic!()
    };
    assert!((d.mean - down).abs() < 1e-12, "{} {down}", d.mean);
}

#[test]
fn over_a_library_the_leader_need_not_be_predealt() {
    // dealer's -l: the library's deals (different leaders' hands), keyed by card: a column for
    // every card that was a lead on some deal, in suit order, each deal's leads counted.
    let boards = GibLibrary
        .read(&std::fs::read(fixture("libraries/library.dat")).unwrap())
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("t.dei");
    std::fs::write(
        &script,
        "produce 3\naction frequency \"lead\" (leadtricks(east, spades), 0, 13)\n",
    )
    .unwrap();
    let lib = fixture("libraries/library.dat");
    let out = dealdex_in(tmp.path())
        .args(["dealer", script.to_str().unwrap(), "-l"])
        .arg(&lib)
        .args(["--json", "-s", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let q = &r["summaries"][0];
    assert_eq!(q["kind"], "frequency_lead", "{r}");
    let mut want = vec![[0u64; 14]; 52];
    for b in &boards[..3] {
        for (card, tricks) in suokkos_leads(&b.deal, Seat::East, Strain::Trumps(Suit::Spades)) {
            want[card.index()][tricks as usize] += 1;
        }
    }
    let cards: Vec<String> = (0..52)
        .filter(|&i| want[i].iter().any(|&n| n > 0))
        .map(|i| Card::from_index(i).unwrap().to_string())
        .collect();
    let got_cards: Vec<String> = q["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(got_cards, cards);
    for (col, name) in cards.iter().enumerate() {
        let index = (0..52)
            .find(|&i| Card::from_index(i).unwrap().to_string() == *name)
            .unwrap();
        for t in 0..14usize {
            // Row 0 is below 0 (none), row t + 1 holds t tricks.
            assert_eq!(q["counts"][t + 1][col], want[index][t], "{name} {t}");
        }
    }
}

#[test]
fn a_generated_run_keeps_the_condition_on_every_card() {
    // The stream, West predealt: `nt >= 6` holds for every lead of every produced deal.
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .arg("dealer")
        .arg(dir().join("leadtricks.dei"))
        .args(["-s", "1", "-p", "3"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "Frequency 3NT by South:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(
        table.first().is_some_and(|h| h.ends_with("C3    Sum")),
        "{text}"
    );
    assert!(!table.iter().any(|l| l.starts_with("Low")), "{text}");
    assert_eq!(
        table.last().map(|l| l.trim_end().ends_with(" 27")),
        Some(true),
        "{text}"
    );
}

#[test]
fn bad_uses_are_errors_with_their_place_or_deal_not_panics() {
    let cases: [(&str, &str); 4] = [
        (
            "condition leadtricks(south) > 3\n",
            "line 1: syntax error: expected `,`",
        ),
        (
            "condition\n  leadtricks(south, nt) > 3\n",
            "line 2: syntax error: expected a strain",
        ),
        (
            "x = leadtricks(south, hearts) - leadtricks(north, hearts)\nproduce 2\naction average x\n",
            "deal 1: leadtricks: an operation on the per-card values of two different opening leaders",
        ),
        (
            "produce 30\naction frequency (hcp(north) > 10 ? leadtricks(south, notrump) : 0, 0, 13)\n",
            "frequency: the expression is per card (leadtricks) on one deal and a number on another",
        ),
    ];
    for (script, want) in cases {
        let out = dealer_stdin(script, &["-s", "1"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{script}: {err}");
        assert!(err.contains(want), "{script}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // The column of a syntax error too.
    let e = Script::parse("condition\n  leadtricks(south, nt) > 3\n").unwrap_err();
    let at = e.position().unwrap();
    assert_eq!((at.line, at.column), (Some(2), Some(21)), "{e}");
}
