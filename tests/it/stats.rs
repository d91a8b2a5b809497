//! Set statistics: exact theory, counting, chi-square tests, report outputs.

use dealdex::features::{Shape, hcp};
use dealdex::stats::{
    self, PATTERN_COUNT, Report, SetStats, binomial, chi_square_sf, gamma_p, gamma_q, hands_total,
    hcp_hand_counts, hcp_probabilities, ln_gamma, pattern_hand_counts, pattern_probabilities,
    patterns,
};
use dealdex::{Card, Deal, Hand, Seat, Seed};
use rayon::prelude::*;

const SOLID: &str = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
const HAND_MADE: &str = "N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 7654.8765.8765.7 32.432.432.65432";

fn deal(s: &str) -> Deal {
    s.parse().expect("valid deal")
}

fn pattern_probability(sorted: [u8; 4]) -> f64 {
    let i = patterns()
        .iter()
        .position(|p| *p == sorted)
        .expect("a pattern");
    pattern_probabilities()[i]
}

/// Accumulates boards `1..=count` of `seed` in parallel chunks, merging the parts.
fn accumulate(seed: &Seed, count: u64, keep: impl Fn(&Deal) -> bool + Sync) -> SetStats {
    const CHUNK: u64 = 16_384;
    (0..count.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let first = 1 + c * CHUNK;
            let len = CHUNK.min(count - c * CHUNK) as usize;
            let mut deals = vec![deal(SOLID); len];
            seed.fill_deals(first, &mut deals);
            let mut s = SetStats::new();
            for d in deals.iter().filter(|d| keep(d)) {
                s.add(d);
            }
            s
        })
        .reduce(SetStats::new, |mut a, b| {
            a.merge(b);
            a
        })
}

// ---------------------------------------------------------------- exact theory

#[test]
fn hcp_theory_is_exact_and_matches_known_values() {
    let counts = hcp_hand_counts();
    assert_eq!(hands_total(), 635_013_559_600);
    assert_eq!(counts.iter().sum::<u128>(), hands_total());
    // Hand-checked counts: a Yarborough is 13 of the 36 non-honours; 37 HCP is AKQ of every
    // suit plus one jack; 36 HCP is AKQ of every suit plus a non-honour (36 ways) or plus
    // two jacks less a queen (4 · C(4,2) = 24 ways).
    assert_eq!(counts[0], binomial(36, 13).unwrap());
    assert_eq!(counts[37], 4);
    assert_eq!(counts[36], 36 + 24);
    let p = hcp_probabilities();
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // Known values: P(10 HCP) = 9.41 %, the mode; P(0) ≈ 0.364 % (1 in 275).
    assert!((p[10] - 0.0941).abs() < 0.00005, "P(10) = {}", p[10]);
    assert!((p[0] - 0.003639).abs() < 0.000001, "P(0) = {}", p[0]);
    let mode = (0..38).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
    assert_eq!(mode, 10);
    // Mean HCP of a hand is exactly 10.
    let mean: f64 = p.iter().enumerate().map(|(h, x)| h as f64 * x).sum();
    assert!((mean - 10.0).abs() < 1e-12);
}

#[test]
fn pattern_theory_is_exact_and_matches_known_values() {
    assert_eq!(patterns().len(), 39);
    assert_eq!(PATTERN_COUNT, 39);
    for p in patterns() {
        assert_eq!(p.iter().map(|&l| l as u32).sum::<u32>(), 13);
        assert!(p.windows(2).all(|w| w[0] >= w[1]), "{p:?} sorted");
    }
    let mut unique = patterns().to_vec();
    unique.dedup();
    assert_eq!(unique.len(), 39);
    let counts = pattern_hand_counts();
    assert_eq!(counts.iter().sum::<u128>(), hands_total());
    // 4-3-3-3: 4 choices of the long suit × C(13,4) × C(13,3)³; 13-0-0-0: 4 hands.
    let c = |n, k| binomial(n, k).unwrap();
    let i4333 = patterns().iter().position(|p| *p == [4, 3, 3, 3]).unwrap();
    assert_eq!(counts[i4333], 4 * c(13, 4) * c(13, 3).pow(3));
    let solid = patterns().iter().position(|p| *p == [13, 0, 0, 0]).unwrap();
    assert_eq!(counts[solid], 4);
    let p = pattern_probabilities();
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((pattern_probability([4, 4, 3, 2]) - 0.2155).abs() < 0.00005);
    assert!((pattern_probability([5, 3, 3, 2]) - 0.1552).abs() < 0.00005);
    assert!((pattern_probability([4, 3, 3, 3]) - 0.1054).abs() < 0.00005);
    assert!((pattern_probability([5, 4, 3, 1]) - 0.1293).abs() < 0.00005);
}

#[test]
fn binomial_is_exact_and_reports_overflow() {
    assert_eq!(binomial(52, 13), Some(635_013_559_600));
    assert_eq!(binomial(39, 13), Some(8_122_425_444));
    assert_eq!(binomial(13, 0), Some(1));
    assert_eq!(binomial(3, 4), Some(0));
    assert_eq!(binomial(1000, 500), None);
}

// ---------------------------------------------------------------- incomplete gamma

/// e^(−x) Σ_{j<k} x^j/j!, the Poisson form of Q(k, x) for integer k, in log space.
fn poisson_q(k: u32, x: f64) -> f64 {
    let mut ln_fact = 0.0;
    let mut sum = 0.0;
    for j in 0..k {
        if j > 0 {
            ln_fact += (j as f64).ln();
        }
        sum += (j as f64 * x.ln() - x - ln_fact).exp();
    }
    sum
}

#[test]
fn ln_gamma_matches_factorials_and_known_values() {
    let mut fact = 1.0f64;
    for n in 1..=30u32 {
        if n > 1 {
            fact *= (n - 1) as f64;
        }
        let got = ln_gamma(n as f64);
        assert!(
            (got - fact.ln()).abs() <= 1e-13 * fact.ln().max(1.0),
            "ln Γ({n})"
        );
    }
    assert!((ln_gamma(0.5) - 0.572_364_942_924_700_1).abs() < 1e-14);
    assert!((ln_gamma(100.0) - 359.134_205_369_575_4).abs() < 1e-11);
    assert!((ln_gamma(0.1) - 2.252_712_651_734_206).abs() < 1e-13);
    assert!(ln_gamma(0.0).is_nan());
    assert!(ln_gamma(-1.0).is_nan());
}

#[test]
fn gamma_q_matches_closed_forms() {
    // Integer a: the Poisson sum, across both the series and the continued-fraction branch.
    for k in [1u32, 2, 3, 7, 14, 50, 78, 80] {
        for x in [0.1, 0.5, 1.0, 5.0, 10.0, 40.0, 77.0, 79.5, 100.0, 150.0] {
            let want = poisson_q(k, x);
            let got = gamma_q(k as f64, x);
            assert!(
                (got - want).abs() <= 1e-12 * want.max(1e-300) + 1e-300,
                "Q({k}, {x}) = {got}, want {want}"
            );
            assert!((gamma_p(k as f64, x) + got - 1.0).abs() < 1e-14);
        }
    }
    // a = 1/2: Q(1/2, x) = erfc(√x) (tabulated values), and Q(a+1, x) = Q(a, x) +
    // x^a e^(−x)/Γ(a+1) carries them to a = 3/2, 5/2.
    let erfc = [
        (0.25, 0.479_500_122_186_953_5),
        (1.0, 0.157_299_207_050_285_13),
        (4.0, 0.004_677_734_981_047_266),
        (9.0, 2.209_049_699_858_544e-5),
        (25.0, 1.537_459_794_428_035e-12),
    ];
    for (x, e) in erfc {
        let q = gamma_q(0.5, x);
        assert!((q - e).abs() <= 1e-13 * e, "Q(1/2, {x}) = {q}, want {e}");
        let mut want = e;
        let mut a: f64 = 0.5;
        for _ in 0..2 {
            want += (a * x.ln() - x - ln_gamma(a + 1.0)).exp();
            a += 1.0;
            let got = gamma_q(a, x);
            assert!(
                (got - want).abs() <= 1e-12 * want,
                "Q({a}, {x}) = {got}, want {want}"
            );
        }
    }
    // Tabulated chi-square critical values.
    assert!((chi_square_sf(18.307_038_053_275_146, 10.0) - 0.05).abs() < 1e-12);
    assert!((chi_square_sf(10.827_566_170_662_733, 1.0) - 0.001).abs() < 1e-13);
    assert!((chi_square_sf(3.841_458_820_694_124, 1.0) - 0.05).abs() < 1e-13);
    // df = 2: Q(1, x/2) = e^(−x/2).
    assert!((chi_square_sf(200.0, 2.0) - (-100f64).exp()).abs() < 1e-55);
    // Edges and bad input.
    assert_eq!(gamma_q(3.0, 0.0), 1.0);
    assert_eq!(gamma_q(3.0, f64::INFINITY), 0.0);
    assert!(gamma_q(0.0, 1.0).is_nan());
    assert!(gamma_q(1.0, -1.0).is_nan());
    assert!(gamma_q(f64::NAN, 1.0).is_nan());
    assert!(chi_square_sf(1.0, -2.0).is_nan());
}

// ---------------------------------------------------------------- counting

#[test]
fn direct_counts_on_hand_checked_deals() {
    let solid = deal(SOLID);
    let made = deal(HAND_MADE);
    let mut s = SetStats::new();
    s.add(&solid);
    s.add(&made);
    assert_eq!(s.deals(), 2);
    assert_eq!(s.hands(), 8);
    // HCP: solid suits 10 each; hand-made N 37, E 3, S 0, W 0.
    let mut want_hcp = [0u64; 38];
    want_hcp[10] = 4;
    want_hcp[37] = 1;
    want_hcp[3] = 1;
    want_hcp[0] = 2;
    assert_eq!(s.hcp_counts(), &want_hcp);
    assert_eq!(s.hcp_count(37), 1);
    assert_eq!(s.hcp_count(200), 0);
    // Patterns: 4 × 13-0-0-0; N and E 4-3-3-3, S 4-4-4-1, W 5-3-3-2; any order of lengths.
    assert_eq!(s.pattern_count([13, 0, 0, 0]), 4);
    assert_eq!(s.pattern_count([3, 3, 4, 3]), 2);
    assert_eq!(s.pattern_count([1, 4, 4, 4]), 1);
    assert_eq!(s.pattern_count([2, 3, 3, 5]), 1);
    assert_eq!(s.pattern_count([4, 4, 3, 2]), 0);
    assert_eq!(s.pattern_count([4, 4, 4, 4]), 0);
    assert_eq!(s.pattern_counts().iter().sum::<u64>(), 8);
    // Card seats: ♠A N twice, ♥A E (solid) and N (made), ♣2 W twice, ♣7 W then S.
    let card = |i| Card::from_index(i).unwrap();
    assert_eq!(s.card_seat_count(card(0), Seat::North), 2);
    assert_eq!(s.card_seat_count(card(13), Seat::East), 1);
    assert_eq!(s.card_seat_count(card(13), Seat::North), 1);
    assert_eq!(s.card_seat_count(card(51), Seat::West), 2);
    assert_eq!(s.card_seat_count(card(46), Seat::West), 1);
    assert_eq!(s.card_seat_count(card(46), Seat::South), 1);
    for c in Card::all() {
        let row: u64 = Seat::ALL.iter().map(|&st| s.card_seat_count(c, st)).sum();
        assert_eq!(row, 2);
    }
}

#[test]
fn counts_match_brute_force_and_merge_matches_sequential() {
    let seed = Seed([9; 32]);
    let mut deals = vec![deal(SOLID); 3000];
    seed.fill_deals(1, &mut deals);
    let mut seq = SetStats::new();
    seq.add_all(&deals);
    // Brute force from the public Deal / features API.
    let mut seat_counts = [[0u64; 4]; 52];
    let mut hcps = [0u64; 38];
    let mut pats = std::collections::HashMap::<[u8; 4], u64>::new();
    for d in &deals {
        for c in Card::all() {
            seat_counts[c.index()][d.seat_of(c).index()] += 1;
        }
        for seat in Seat::ALL {
            let h = d.hand(seat);
            hcps[hcp(h) as usize] += 1;
            let mut l = [0u8; 4];
            for c in h.cards() {
                l[c.suit().index()] += 1;
            }
            l.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(l, Shape::of(h).sorted());
            *pats.entry(l).or_default() += 1;
        }
    }
    assert_eq!(seq.hcp_counts(), &hcps);
    for c in Card::all() {
        for st in Seat::ALL {
            assert_eq!(
                seq.card_seat_count(c, st),
                seat_counts[c.index()][st.index()]
            );
        }
    }
    for p in patterns() {
        assert_eq!(
            seq.pattern_count(*p),
            pats.get(p).copied().unwrap_or(0),
            "{p:?}"
        );
    }
    // Merging parts in any split gives the same counts.
    let mut merged = SetStats::new();
    for part in deals.chunks(777) {
        let mut s = SetStats::default();
        s.add_all(part);
        merged.merge(s);
    }
    assert_eq!(merged, seq);
    assert_eq!(merged.report(), seq.report());
}

// ---------------------------------------------------------------- tests of fit

#[test]
fn a_million_generated_deals_pass_all_three_tests() {
    let t = std::time::Instant::now();
    let s = accumulate(&Seed([1; 32]), 1_000_000, |_| true);
    let report = s.report();
    eprintln!(
        "1,000,000 deals generated, counted, reported in {:?}",
        t.elapsed()
    );
    eprintln!("HCP:      {}", report.hcp.test.summary());
    eprintln!("patterns: {}", report.patterns.test.summary());
    eprintln!("cards:    {}", report.card_seats.test.summary());
    assert_eq!(report.deals, 1_000_000);
    assert_eq!(report.hands, 4_000_000);
    assert_eq!(s.hcp_counts().iter().sum::<u64>(), 4_000_000);
    for t in [
        &report.hcp.test,
        &report.patterns.test,
        &report.card_seats.test,
    ] {
        assert_eq!(t.passes, Some(true), "{}", t.summary());
        assert!(t.p_value.unwrap() >= 0.001);
    }
    assert_eq!(report.passes(), Some(true));
    // With 4,000,000 hands only the far tails are pooled: HCP 0..=29 and the 31 most likely
    // patterns are tested cell by cell.
    assert!(report.hcp.rows[..30].iter().all(|r| !r.pooled));
    assert!(report.hcp.rows[32..].iter().all(|r| r.pooled));
    assert_eq!(report.hcp.test.df, report.hcp.test.bins - 1);
    // The card-seat test: (52−1)(4−1) df and the exact dependence correction 52/51.
    let cs = &report.card_seats.test;
    assert_eq!(cs.df, 153);
    assert_eq!(cs.bins, 208);
    assert!((cs.scale - 52.0 / 51.0).abs() < 1e-12, "{}", cs.scale);
    assert!(
        (cs.effective_df - 153.0).abs() < 1e-9,
        "{}",
        cs.effective_df
    );
    // HCP and pattern corrections are small.
    for t in [&report.hcp.test, &report.patterns.test] {
        assert!((t.scale - 1.0).abs() < 0.05, "{}", t.scale);
        assert!((t.effective_df - t.df as f64).abs() < 0.1 * t.df as f64);
    }
    // Row arithmetic: expected = probability × hands; residual = (O − E)/√E.
    let r = &report.hcp.rows[10];
    assert_eq!(r.value, "10");
    assert!((r.expected - r.probability * 4e6).abs() < 1e-6);
    assert!((r.residual - (r.observed as f64 - r.expected) / r.expected.sqrt()).abs() < 1e-12);
    assert_eq!(report.patterns.rows[0].value, "4-4-3-2");
}

#[test]
fn spade_ace_always_north_fails_the_card_seat_test_only() {
    // Keep only the generated deals with ♠A in North: the hands' multiset is unaffected by
    // which seat holds ♠A, so HCP and patterns still pass; card seats fail.
    let spade_ace = Card::from_index(0).unwrap();
    let s = accumulate(&Seed([2; 32]), 400_000, |d| {
        d.seat_of(spade_ace) == Seat::North
    });
    assert!(s.deals() > 90_000 && s.deals() < 110_000, "{}", s.deals());
    let report = s.report();
    let cs = &report.card_seats.test;
    assert_eq!(cs.passes, Some(false), "{}", cs.summary());
    assert!(cs.p_value.unwrap() < 1e-100);
    assert!(report.card_seats.test.summary().contains("FAILS at 0.1 %"));
    let cells: Vec<&str> = report
        .card_seats
        .outliers
        .iter()
        .map(|o| o.cell.as_str())
        .collect();
    for want in ["SA N", "SA E", "SA S", "SA W"] {
        assert!(cells.contains(&want), "{want} in {cells:?}");
    }
    assert!(report.card_seats.rows[0].outlier.iter().all(|&f| f));
    assert_eq!(
        report.hcp.test.passes,
        Some(true),
        "{}",
        report.hcp.test.summary()
    );
    assert_eq!(report.patterns.test.passes, Some(true));
    assert_eq!(report.passes(), Some(false));
}

#[test]
fn one_deal_repeated_fails_everything() {
    let mut s = SetStats::new();
    let d = deal(HAND_MADE);
    for _ in 0..5000 {
        s.add(&d);
    }
    let report = s.report();
    assert_eq!(report.hcp.test.passes, Some(false));
    assert_eq!(report.patterns.test.passes, Some(false));
    assert_eq!(report.card_seats.test.passes, Some(false));
    // HCP 37 (expected ≈ 0) is pooled, and the pooled bin is the outlier.
    assert!(report.hcp.rows[37].pooled);
    assert!(report.hcp.pooled.as_ref().unwrap().outlier);
    assert!(report.hcp.outliers.iter().any(|o| o.cell == "pooled"));
    assert!(report.hcp.outliers.iter().any(|o| o.cell == "0"));
}

#[test]
fn too_few_deals_give_no_test_and_no_panic() {
    for n in [0, 1, 3] {
        let mut s = SetStats::new();
        for _ in 0..n {
            s.add(&deal(HAND_MADE));
        }
        let r = s.report();
        assert_eq!(r.card_seats.test.p_value, None);
        assert_eq!(r.passes(), None);
        assert!(r.to_text().contains("no test"));
        let v: serde_json::Value = serde_json::to_value(&r).unwrap();
        assert!(v["card_seats"]["test"]["p_value"].is_null());
        assert!(r.to_svg().starts_with("<svg"));
        for row in &r.hcp.rows {
            assert!(row.residual.is_finite());
        }
    }
}

// ---------------------------------------------------------------- outputs

fn small_report() -> Report {
    accumulate(&Seed([5; 32]), 50_000, |_| true).report()
}

#[test]
fn text_report_has_aligned_tables_and_summaries() {
    let r = small_report();
    let text = r.to_text();
    assert!(text.starts_with("Set statistics: 50000 deals, 200000 hands"));
    for title in ["HCP per hand", "Sorted suit pattern per hand", "Card seats"] {
        assert!(text.contains(title), "{title}");
    }
    // One summary line per table.
    let summaries: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("chi-square "))
        .collect();
    assert_eq!(summaries.len(), 3, "{summaries:?}");
    for s in summaries {
        assert!(
            s.contains(", df ") && s.contains("p = ") && s.contains("at 0.1 %"),
            "{s}"
        );
    }
    // The HCP table: header, 38 rows and the pooled line share column positions.
    let lines: Vec<&str> = text.lines().collect();
    let head = lines.iter().position(|l| l.starts_with("value")).unwrap();
    let obs_end = lines[head].find("observed").unwrap() + "observed".len();
    for l in &lines[head + 1..head + 40] {
        assert!(l.as_bytes()[obs_end - 1].is_ascii_digit(), "{l:?}");
        assert_eq!(l.as_bytes()[obs_end], b' ', "{l:?}");
    }
    assert!(lines[head + 11].starts_with("10 "));
    assert!(lines[head + 39].starts_with("pooled ("));
    // Card table: 52 card lines.
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("SA ") || l.starts_with("C2 "))
            .count(),
        2
    );
}

#[test]
fn json_round_trips_with_the_expected_keys() {
    let r = small_report();
    let v: serde_json::Value = serde_json::to_value(&r).expect("valid JSON");
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for k in [
        "deals",
        "hands",
        "significance",
        "outlier_z",
        "hcp",
        "patterns",
        "card_seats",
    ] {
        assert!(keys.contains(&k), "{k} in {keys:?}");
    }
    assert_eq!(v["deals"].as_u64(), Some(50_000));
    assert_eq!(v["hands"].as_u64(), Some(200_000));
    assert_eq!(v["significance"].as_f64(), Some(0.001));
    for t in ["hcp", "patterns"] {
        let table = &v[t];
        for k in ["title", "rows", "pooled", "test", "outliers"] {
            assert!(table.get(k).is_some(), "{t}.{k}");
        }
        for k in [
            "chi_square",
            "df",
            "bins",
            "pooled_cells",
            "scale",
            "effective_df",
            "p_value",
            "passes",
        ] {
            assert!(table["test"].get(k).is_some(), "{t}.test.{k}");
        }
    }
    assert_eq!(v["hcp"]["rows"].as_array().unwrap().len(), 38);
    assert_eq!(v["patterns"]["rows"].as_array().unwrap().len(), 39);
    let row = &v["hcp"]["rows"][10];
    assert_eq!(row["value"], "10");
    assert_eq!(row["observed"].as_u64(), Some(r.hcp.rows[10].observed));
    assert!(row["observed"].is_u64(), "counts are integers");
    let p = row["probability"].as_f64().unwrap();
    assert!((p - r.hcp.rows[10].probability).abs() < 1e-15 * p);
    assert_eq!(v["hcp"]["test"]["df"].as_u64(), Some(r.hcp.test.df));
    assert_eq!(v["hcp"]["test"]["passes"].as_bool(), r.hcp.test.passes);
    let cards = v["card_seats"]["rows"].as_array().unwrap();
    assert_eq!(cards.len(), 52);
    assert_eq!(cards[0]["card"], "SA");
    let obs: Vec<u64> = cards[0]["observed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(obs, r.card_seats.rows[0].observed);
    assert_eq!(obs.iter().sum::<u64>(), 50_000);
    assert_eq!(v["card_seats"]["test"]["df"].as_u64(), Some(153));
    // serde_json::to_value has the same shape (numbers may differ in the last bit).
    let direct = serde_json::to_value(&r).unwrap();
    assert_eq!(direct.as_object().unwrap().len(), keys.len());
    assert_eq!(direct["card_seats"]["rows"][51]["card"], "C2");
    assert_eq!(
        direct["card_seats"]["rows"][51]["observed"],
        v["card_seats"]["rows"][51]["observed"]
    );
}

/// Checks that the tags of an XML text are balanced and returns the element names opened.
fn balanced_tags(xml: &str) -> Result<Vec<String>, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        if text.contains('>') {
            return Err(format!("stray '>' before {:?}", &rest[start..start + 20]));
        }
        let end = rest[start..].find('>').ok_or("unclosed '<'")? + start;
        let tag = &rest[start + 1..end];
        if !tag.matches('"').count().is_multiple_of(2) {
            return Err(format!("odd quotes in <{tag}>"));
        }
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().ok_or(format!("</{name}> without opening"))?;
            if open != name.trim() {
                return Err(format!("<{open}> closed by </{name}>"));
            }
        } else {
            let name: String = tag
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '/')
                .collect();
            names.push(name.clone());
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        rest = &rest[end + 1..];
    }
    if !stack.is_empty() {
        return Err(format!("unclosed {stack:?}"));
    }
    // Every '&' starts an entity.
    for (i, _) in xml.match_indices('&') {
        let ent = &xml[i..xml[i..].find(';').map_or(xml.len(), |j| i + j + 1)];
        if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&ent) {
            return Err(format!("bad entity {ent}"));
        }
    }
    Ok(names)
}

#[test]
fn svg_is_balanced_xml_with_both_series_axes_and_legend() {
    let r = small_report();
    let svg = r.to_svg();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    let names = balanced_tags(&svg).expect("balanced");
    assert_eq!(names[0], "svg");
    assert_eq!(names.iter().filter(|n| *n == "svg").count(), 1);
    // Two panels: 21 pattern bars (20 + other) and 38 HCP bars per series.
    assert_eq!(svg.matches("class=\"observed\"").count(), 21 + 38);
    assert_eq!(svg.matches("class=\"expected\"").count(), 21 + 38);
    assert!(svg.contains(">other</text>"));
    assert!(svg.contains(">4-4-3-2</text>"));
    assert!(svg.contains(">observed</text>"));
    assert!(svg.contains(">expected (exact theory)</text>"));
    assert_eq!(svg.matches("class=\"axis-label\"").count(), 4);
    assert!(svg.contains(">hands</text>"));
    assert!(svg.contains("high-card points"));
    assert!(svg.contains("sorted suit pattern"));
    // The tests' results are in the panel subtitles.
    assert!(svg.contains(&r.hcp.test.short_summary()));
    // The checker rejects what it should.
    assert!(balanced_tags("<svg><g></svg>").is_err());
    assert!(balanced_tags("<svg>a & b</svg>").is_err());
}

#[test]
fn stats_module_constants() {
    assert_eq!(stats::SIGNIFICANCE, 0.001);
    assert_eq!(stats::OUTLIER_Z, 3.29);
    assert_eq!(stats::MIN_EXPECTED, 5.0);
    assert_eq!(stats::CARD_SEAT_PROBABILITY, 0.25);
    // 3.29 is the two-sided 0.1 % normal point: P(|Z| > 3.29) = erfc(3.29/√2) ≈ 0.001.
    let two_sided = gamma_q(0.5, 3.29f64 * 3.29 / 2.0);
    assert!((two_sided - 0.001).abs() < 0.00001, "{two_sided}");
    let _ = Hand::EMPTY;
}
