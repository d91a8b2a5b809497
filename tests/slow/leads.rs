//! Every opening lead's double-dummy result against DDS itself: the 300 positions of
//! `tests/fixtures/dd/leads-300.jsonl` (DDS's SolveBoard with solutions = 3 through PyPI's
//! endplay, equal cards expanded; 100 seeded deals, three contracts each, every strain and
//! declarer), every one of the leader's 13 cards. All 300 when `DEALDEX_FULL_TESTS=1`
//! (`.ci/run` sets it; every fourth for DDS itself), every tenth otherwise.

use dealdex::dd::{LeadPosition, Solver, lead_tricks};
use dealdex::{Deal, Seat, Strain};

/// A position and DDS's tricks for the defence after each lead (`SA`, `HT`, …).
fn reference() -> Vec<(LeadPosition, Vec<(String, u8)>)> {
    let text = include_str!("../fixtures/dd/leads-300.jsonl");
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let deal: Deal = v["deal"].as_str().unwrap().parse().unwrap();
            let strain = match v["strain"].as_str().unwrap() {
                "N" => Strain::NoTrump,
                s => Strain::from_bid(&format!("1{s}")).expect("a strain"),
            };
            let seat = |k: &str| Seat::from_char(v[k].as_str().unwrap().chars().next().unwrap());
            let leader = seat("leader").unwrap();
            assert_eq!(
                seat("declarer").unwrap().next(),
                leader,
                "the leader is declarer's LHO"
            );
            let mut tricks: Vec<(String, u8)> = v["defence_tricks"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(card, t)| (card.clone(), t.as_u64().unwrap() as u8))
                .collect();
            tricks.sort();
            (
                LeadPosition {
                    deal,
                    strain,
                    leader,
                },
                tricks,
            )
        })
        .collect()
}

#[test]
fn every_lead_of_300_positions_matches_dds() {
    leads_match_dds(Solver::Pons);
}

/// The same positions solved by DDS itself (3.1, through dds-bridge-sys).
#[cfg(feature = "dds")]
#[test]
fn dds_itself_gives_every_lead_of_the_reference() {
    dealdex_dds::install();
    leads_match_dds(Solver::Dds);
}

fn leads_match_dds(solver: Solver) {
    let all = reference();
    assert_eq!(all.len(), 300);
    let step = crate::dd::subset_step(solver);
    let chosen: Vec<_> = all.into_iter().step_by(step).collect();
    let positions: Vec<LeadPosition> = chosen.iter().map(|(p, _)| *p).collect();
    let ours = solver.with(|| lead_tricks(&positions)).unwrap();
    let mut differing = Vec::new();
    for ((position, theirs), ours) in chosen.iter().zip(&ours) {
        let mut ours: Vec<(String, u8)> = ours.iter().map(|(c, t)| (c.to_string(), *t)).collect();
        ours.sort();
        assert_eq!(ours.len(), 13);
        if &ours != theirs {
            differing.push(format!("{position:?}: ours {ours:?}, DDS {theirs:?}"));
        }
    }
    assert!(
        differing.is_empty(),
        "{} positions differ:\n{}",
        differing.len(),
        differing.join("\n")
    );
}
