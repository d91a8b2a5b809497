//! Issue 37, item 3: predealt suit lengths (`predeal spades(north)==10`) are dealt directly,
//! uniform over the deals that have them, so a possible predeal never fails by chance (it
//! did by rejection: ten spades and three hearts for North failed with seed 1).

use dealdex::dealer::{DealerJob, Script, Summary, run};
use dealdex::{Seat, Suit};

use crate::common::dealer::{chi2_critical, chi2_homogeneity};

fn run_seeded(text: &str, seed: u64) -> dealdex::dealer::DealerReport {
    let script = Script::parse(text).unwrap();
    let job = DealerJob {
        seed: Some(seed),
        keep_produced: true,
        ..DealerJob::default()
    };
    run(&script, &job, &mut Vec::new(), &mut |_| {}).unwrap()
}

#[test]
fn ten_spades_and_three_hearts_are_dealt_with_every_seed() {
    let text = "predeal spades(north)==10, hearts(north)==3\ngenerate 2000\n\
                action average hcp(north)";
    for seed in 1..=5 {
        let report = run_seeded(text, seed);
        assert_eq!(
            (report.generated, report.produced),
            (2000, 2000),
            "seed {seed}"
        );
        for d in &report.kept {
            let north = d.hand(Seat::North);
            assert_eq!(north.suit_len(Suit::Spades), 10, "{d}");
            assert_eq!(north.suit_len(Suit::Hearts), 3, "{d}");
        }
    }
}

#[test]
fn lengths_with_predealt_cards_and_on_every_seat() {
    let text = "predeal north SAK, HQ\npredeal spades(north)==4, spades(east)==0, \
                spades(south)==9, clubs(west)==13\ngenerate 500\naction average hcp(south)";
    let report = run_seeded(text, 9);
    assert_eq!(report.produced, 500);
    for d in &report.kept {
        let len = |s: Seat, u: Suit| d.hand(s).suit_len(u);
        assert_eq!(
            [
                len(Seat::North, Suit::Spades),
                len(Seat::East, Suit::Spades),
                len(Seat::South, Suit::Spades),
                len(Seat::West, Suit::Clubs)
            ],
            [4, 0, 9, 13],
            "{d}"
        );
        assert!(d.to_string().starts_with("N:AK"), "{d}");
    }
}

/// Dealt directly or met by a condition over unconstrained deals, North's HCP with exactly
/// five spades and East's heart length have the same distribution (chi-square homogeneity
/// at 0.1 %).
#[test]
fn dealt_lengths_are_distributed_as_deals_that_meet_them() {
    let stats = "action frequency (hcp(north), 0, 37), frequency (hearts(east), 0, 13)";
    let direct = run_seeded(
        &format!("predeal spades(north)==5\ngenerate 60000\n{stats}"),
        4,
    );
    let filtered = run_seeded(
        &format!("condition spades(north) == 5\nproduce 60000\n{stats}"),
        5,
    );
    assert_eq!(direct.produced, 60000);
    for (a, b) in direct.summaries.iter().zip(&filtered.summaries) {
        let (Summary::Frequency(a), Summary::Frequency(b)) = (a, b) else {
            panic!("frequency tables")
        };
        let counts = |c: &[u64]| c.iter().map(|&x| x as f64).collect::<Vec<_>>();
        let (chi2, df) = chi2_homogeneity(&counts(&a.counts), &counts(&b.counts));
        assert!(chi2 < chi2_critical(df), "chi2 {chi2} over {df} df");
    }
}
