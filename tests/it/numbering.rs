//! Published vectors (FORMATS.md §1–§2, vectors.json), fixture round trips and properties of
//! the three numbering schemes, the 13-byte index and PBN deal strings.

use dealdex::{BoardIndex, DEALS, Deal, DealIndex, Scheme, Seat, reference};
use proptest::prelude::*;

fn vectors() -> serde_json::Value {
    serde_json::from_str(include_str!("../fixtures/vectors.json")).unwrap()
}

fn scheme(name: &str) -> Scheme {
    name.parse().unwrap()
}

#[test]
fn published_number_vectors_both_directions() {
    let v = vectors();
    assert_eq!(v["D"].as_str().unwrap(), DEALS.to_string());
    let list = v["numbers"].as_array().unwrap();
    assert!(list.len() >= 7);
    for case in list {
        let s = scheme(case["scheme"].as_str().unwrap());
        let n: u128 = case["number"].as_str().unwrap().parse().unwrap();
        let deal: Deal = case["deal"].as_str().unwrap().parse().unwrap();
        assert_eq!(deal.number(s), n, "{s} rank of {deal}");
        assert_eq!(Deal::from_number(n, s).unwrap(), deal, "{s} unrank of {n}");
        assert_eq!(
            Deal::from_number(n, s).unwrap().to_string(),
            case["deal"].as_str().unwrap()
        );
    }
    // Big Deal shares the first and last deals with the others (lex and colex agree at the
    // ends), numbered 0-based as Big Deal prints them: 0 and D − 1.
    for case in list
        .iter()
        .filter(|c| c["number"] == "1" || c["number"] == v["D"])
    {
        let n: u128 = case["number"].as_str().unwrap().parse().unwrap();
        let deal: Deal = case["deal"].as_str().unwrap().parse().unwrap();
        assert_eq!(deal.number(Scheme::BigDeal), n - 1);
        assert_eq!(Deal::from_number(n - 1, Scheme::BigDeal).unwrap(), deal);
    }
}

#[test]
fn pavlicek_north_holds_all_spades_exactly_up_to_the_published_bound() {
    let last = 84_478_098_072_866_400u128;
    let spades = 0x1FFFu64;
    for n in [1, 2, last / 2, last - 1, last] {
        assert_eq!(
            Deal::from_number(n, Scheme::Pavlicek)
                .unwrap()
                .hand(Seat::North)
                .mask()
                & spades,
            spades
        );
    }
    assert_ne!(
        Deal::from_number(last + 1, Scheme::Pavlicek)
            .unwrap()
            .hand(Seat::North)
            .mask()
            & spades,
        spades
    );
}

#[test]
fn andrews_worked_example_positions() {
    let v = vectors();
    let ex = &v["andrews_positions_example"];
    let deal: Deal = ex["deal"].as_str().unwrap().parse().unwrap();
    let pos = |key: &str| -> Vec<usize> {
        ex[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as usize)
            .collect()
    };
    // Recompute the published positions from the deal.
    let codes = deal.seat_codes();
    let among = |seat: u8| -> Vec<usize> {
        codes
            .iter()
            .filter(|&&s| s >= seat)
            .enumerate()
            .filter(|(_, s)| **s == seat)
            .map(|(p, _)| p)
            .collect()
    };
    assert_eq!(among(0), pos("north"));
    assert_eq!(among(1), pos("east_among_39"));
    assert_eq!(among(2), pos("south_among_26"));
    // And the number built from them by the published formula.
    let binom = |n: usize, k: usize| -> u128 {
        (0..k).fold(1u128, |a, j| a * (n - j) as u128 / (j as u128 + 1))
    };
    let colex =
        |p: Vec<usize>| -> u128 { p.iter().enumerate().map(|(j, &a)| binom(a, j + 1)).sum() };
    let i = colex(pos("south_among_26"))
        + binom(26, 13) * (colex(pos("east_among_39")) + binom(39, 13) * colex(pos("north")));
    assert_eq!(deal.number(Scheme::Andrews), i + 1);
}

#[test]
fn published_hex_vectors_both_directions() {
    let v = vectors();
    for case in v["hex_index"].as_array().unwrap() {
        let deal: Deal = case["deal"].as_str().unwrap().parse().unwrap();
        let hex = case["hex"].as_str().unwrap();
        assert_eq!(DealIndex::from_deal(&deal).to_string(), hex);
        assert_eq!(DealIndex::parse_hex(hex).unwrap().to_deal().unwrap(), deal);
        assert_eq!(
            DealIndex::parse_hex(&hex.to_lowercase())
                .unwrap()
                .to_deal()
                .unwrap(),
            deal
        );
    }
    // n=1 and n=D vectors of §2 tie the index to the numbering.
    assert_eq!(
        DealIndex::from_deal(&Deal::from_number(1, Scheme::Pavlicek).unwrap()).to_string(),
        "E4E4E4E4E4E4E4E4E4E4E4E4E4"
    );
    assert_eq!(
        DealIndex::from_deal(&Deal::from_number(DEALS, Scheme::Pavlicek).unwrap()).to_string(),
        "1B1B1B1B1B1B1B1B1B1B1B1B1B"
    );
}

#[test]
fn hex_suffix_matches_the_board_cycle() {
    let v = vectors();
    let deal = Deal::from_number(12345, Scheme::Pavlicek).unwrap();
    for case in v["board_cycle"].as_array().unwrap() {
        let board = case["board"].as_u64().unwrap();
        let h = BoardIndex::new(&deal, Some(board));
        let text = h.to_string();
        let back: BoardIndex = text.parse().unwrap();
        assert_eq!(back, h);
        assert_eq!(
            back.dealer().unwrap().to_string(),
            case["dealer"].as_str().unwrap()
        );
        assert_eq!(
            back.vulnerability().unwrap().to_string(),
            case["vulnerable"].as_str().unwrap()
        );
        assert_eq!(
            text.as_bytes()[27] as char,
            format!("{:X}", board % 16).chars().next().unwrap()
        );
    }
}

#[test]
fn every_wbg2024_deal_round_trips() {
    let text = include_str!("../fixtures/bigdeal-wbg2024-deals.txt");
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let deal: Deal = format!("N:{line}").parse().unwrap();
        assert_eq!(
            dealdex::format_deal(&deal, Seat::North),
            format!("N:{}", line.trim())
        );
        for s in Scheme::ALL {
            let n = deal.number(s);
            assert!((1..=DEALS).contains(&n));
            assert_eq!(Deal::from_number(n, s).unwrap(), deal);
        }
        let key = DealIndex::from_deal(&deal);
        assert_eq!(
            key.to_string()
                .parse::<BoardIndex>()
                .unwrap()
                .index
                .to_deal()
                .unwrap(),
            deal
        );
        for first in Seat::ALL {
            assert_eq!(
                dealdex::format_deal(&deal, first).parse::<Deal>().unwrap(),
                deal
            );
        }
        count += 1;
    }
    assert_eq!(count, 1186);
}

fn rank_strategy() -> impl Strategy<Value = u128> {
    prop_oneof![0..DEALS, 0..1000u128, (DEALS - 1000)..DEALS,]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rank_unrank_identity_every_scheme(i in rank_strategy()) {
        for s in Scheme::ALL {
            let n = s.first_number() + i;
            let d = Deal::from_number(n, s).unwrap();
            prop_assert_eq!(d.number(s), n);
            prop_assert_eq!(d.rank(s), i);
        }
    }

    #[test]
    fn fast_paths_equal_the_bigint_reference(i in rank_strategy()) {
        let p = Deal::from_number(i + 1, Scheme::Pavlicek).unwrap();
        prop_assert_eq!(p.seat_codes(), reference::pavlicek_unrank(i));
        prop_assert_eq!(reference::pavlicek_rank(&p.seat_codes()), i);
        let a = Deal::from_number(i + 1, Scheme::Andrews).unwrap();
        prop_assert_eq!(a.seat_codes(), reference::andrews_unrank(i));
        prop_assert_eq!(reference::andrews_rank(&a.seat_codes()), i);
        let b = Deal::from_number(i, Scheme::BigDeal).unwrap();
        prop_assert_eq!(b.seat_codes(), reference::bigdeal_unrank(i));
        prop_assert_eq!(reference::bigdeal_rank(&b.seat_codes()), i);
        // The same deal, numbered in the other schemes, agrees with the reference too.
        prop_assert_eq!(p.number(Scheme::Andrews) - 1, reference::andrews_rank(&p.seat_codes()));
        prop_assert_eq!(p.number(Scheme::BigDeal), reference::bigdeal_rank(&p.seat_codes()));
    }

    #[test]
    fn hex_and_pbn_round_trip(i in rank_strategy(), board in 1u64..200, first in 0usize..4) {
        let d = Deal::from_number(i + 1, Scheme::Pavlicek).unwrap();
        let h = BoardIndex::new(&d, Some(board));
        let back: BoardIndex = h.to_string().parse().unwrap();
        prop_assert_eq!(back.index.to_deal().unwrap(), d);
        prop_assert_eq!(back.dealer(), Some(dealdex::board_dealer(board)));
        let pbn = dealdex::format_deal(&d, Seat::from_index(first));
        prop_assert_eq!(pbn.parse::<Deal>().unwrap(), d);
    }

    #[test]
    fn bulk_unrank_equals_single(first in 1u128..(DEALS - 20), len in 0usize..20) {
        let mut out = vec![Deal::from_number(1, Scheme::Pavlicek).unwrap(); len];
        for s in Scheme::ALL {
            dealdex::unrank_range(first, s, &mut out).unwrap();
            for (j, d) in out.iter().enumerate() {
                prop_assert_eq!(*d, Deal::from_number(first + j as u128, s).unwrap());
            }
        }
    }
}

#[test]
fn bulk_unrank_rejects_ranges_past_d() {
    let mut out = vec![Deal::from_number(1, Scheme::Pavlicek).unwrap(); 3];
    assert!(dealdex::unrank_range(DEALS - 1, Scheme::Pavlicek, &mut out).is_err());
    assert!(dealdex::unrank_range(0, Scheme::Pavlicek, &mut out).is_err());
    dealdex::unrank_range(DEALS - 2, Scheme::Pavlicek, &mut out).unwrap();
    assert_eq!(out[2].number(Scheme::Pavlicek), DEALS);
}

/// The bulk unrank behind `generate` (AVX2 or tables, 8 or 4 deals at a time) over 2,000,000
/// seeded random numbers: each deal ranks back to its number through the separate rank code,
/// and every 20th equals the num-bigint reference unrank.
#[test]
fn bulk_unrank_of_two_million_random_numbers() {
    let seed: dealdex::Seed = "9c".repeat(32).parse().unwrap();
    let n = 2_000_000;
    let mut ranks = vec![0u128; n];
    seed.fill_ranks(0, &mut ranks);
    let mut deals = vec![Deal::from_number(1, Scheme::Pavlicek).unwrap(); n];
    seed.fill_deals(0, &mut deals);
    for (k, (&i, d)) in ranks.iter().zip(&deals).enumerate() {
        assert_eq!(d.number(Scheme::Pavlicek), i + 1, "board {k}");
        if k % 20 == 0 {
            assert_eq!(d.seat_codes(), reference::pavlicek_unrank(i), "board {k}");
        }
    }
}
