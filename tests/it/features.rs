//! Hand features (`dealdex::features`): hand-checked values on known deals, a table of
//! single-suit losing-trick counts, the balanced / semi-balanced classes over every 13-card
//! shape, and property tests against a direct count written here independently (walking the
//! 13 cards of each hand through `Hand::cards()`), with the deck invariants (40 HCP, 12
//! controls, 13 cards a suit).

use std::cmp::Reverse;

use dealdex::features::{
    Shape, Side, controls, fit, hcp, longest_suit, losing_trick_count, side_hcp, suit_lengths,
};
use dealdex::{Card, DEALS, Deal, Hand, Rank, Scheme, Seat, Suit};
use proptest::prelude::*;

use Suit::{Clubs, Diamonds, Hearts, Spades};

fn deal(pbn: &str) -> Deal {
    pbn.parse()
        .unwrap_or_else(|e| panic!("test deal {pbn:?}: {e}"))
}

/// Everything the features say about one hand, for table-driven checks.
#[derive(Debug, PartialEq)]
struct Expected {
    hcp: u8,
    lengths: [u8; 4],
    sorted: &'static str,
    pattern: &'static str,
    controls: u8,
    ltc: u8,
    balanced: bool,
    semi_balanced: bool,
    longest: (Suit, u8),
}

fn actual(h: Hand) -> Expected {
    let shape = Shape::of(h);
    Expected {
        hcp: hcp(h),
        lengths: suit_lengths(h),
        sorted: shape.to_string().leak(),
        pattern: shape.pattern().leak(),
        controls: controls(h),
        ltc: losing_trick_count(h),
        balanced: shape.is_balanced(),
        semi_balanced: shape.is_semi_balanced(),
        longest: longest_suit(h),
    }
}

/// Checks the four hands of `d` against `want` (N, E, S, W), the side HCP and the fits.
fn check_deal(d: &Deal, want: [Expected; 4], side_hcps: [u8; 2], fits: [[u8; 4]; 2]) {
    for (seat, want) in Seat::ALL.into_iter().zip(want) {
        assert_eq!(actual(d.hand(seat)), want, "{seat} of {d}");
    }
    for (i, side) in [Side::NorthSouth, Side::EastWest].into_iter().enumerate() {
        assert_eq!(side_hcp(d, side), side_hcps[i], "{side:?} HCP of {d}");
        for suit in Suit::ALL {
            assert_eq!(
                fit(d, side, suit),
                fits[i][suit.index()],
                "{side:?} {suit} fit"
            );
        }
    }
}

#[test]
fn deal_a_balanced_hands_void_and_singleton() {
    let d = deal("N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3");
    check_deal(
        &d,
        [
            // North AKJ52.Q43.K7.962
            Expected {
                hcp: 13, // ♠A4 K3 J1 = 8, ♥Q2 = 10, ♦K3 = 13, ♣ 0
                lengths: [5, 3, 2, 3],
                sorted: "5-3-3-2",
                pattern: "5323",
                controls: 4,          // ♠A2 K1, ♦K1
                ltc: 7,               // ♠AKJ: Q → 1; ♥Q43: A K → 2; ♦K7: A → 1; ♣962 → 3
                balanced: true,       // 5-3-3-2
                semi_balanced: true,  // balanced hands are semi-balanced
                longest: (Spades, 5), // unique
            },
            // East QT98.AK2.AQ.KJ54
            Expected {
                hcp: 19, // ♠Q2, ♥A4 K3 = 7, ♦A4 Q2 = 6, ♣K3 J1 = 4 → 2+7+6+4
                lengths: [4, 3, 2, 4],
                sorted: "4-4-3-2",
                pattern: "4324",
                controls: 6,    // ♥A2 K1, ♦A2, ♣K1
                ltc: 6,         // ♠QT9: A K → 2; ♥AK2: Q → 1; ♦AQ: K → 1; ♣KJ5: A Q → 2
                balanced: true, // 4-4-3-2
                semi_balanced: true,
                longest: (Spades, 4), // ♠4 = ♣4, spades rank higher
            },
            // South 7.JT98765..AQT87
            Expected {
                hcp: 7, // ♥J1, ♣A4 Q2
                lengths: [1, 7, 0, 5],
                sorted: "7-5-1-0",
                pattern: "1705",
                controls: 2, // ♣A
                ltc: 5,      // ♠7 singleton → 1; ♥JT9 → 3; ♦ void → 0; ♣AQT: K → 1
                balanced: false,
                semi_balanced: false, // void and singleton
                longest: (Hearts, 7),
            },
            // West 643..JT9865432.3
            Expected {
                hcp: 1, // ♦J
                lengths: [3, 0, 9, 1],
                sorted: "9-3-1-0",
                pattern: "3091",
                controls: 0,
                ltc: 7, // ♠643 → 3; ♥ void → 0; ♦JT9 → 3; ♣3 singleton → 1
                balanced: false,
                semi_balanced: false,
                longest: (Diamonds, 9),
            },
        ],
        [20, 20], // NS 13 + 7, EW 19 + 1
        [
            [6, 10, 2, 8], // NS ♠5+1 ♥3+7 ♦2+0 ♣3+5
            [7, 3, 11, 5], // EW ♠4+3 ♥3+0 ♦2+9 ♣4+1
        ],
    );
}

#[test]
fn deal_b_maximum_hand_4333_5422_6322() {
    let d = deal("N:AKQJ.AKQ.AKQ.AKQ T9876.J2.JT98.JT 543.T98765.32.98 2.43.7654.765432");
    check_deal(
        &d,
        [
            // North AKQJ.AKQ.AKQ.AKQ: the most HCP a hand can hold
            Expected {
                hcp: 37, // 4 × (A4 K3 Q2) = 36, ♠J1
                lengths: [4, 3, 3, 3],
                sorted: "4-3-3-3",
                pattern: "4333",
                controls: 12, // all four aces and kings: 4 × 3
                ltc: 0,       // A K Q in every suit
                balanced: true,
                semi_balanced: true,
                longest: (Spades, 4),
            },
            // East T9876.J2.JT98.JT
            Expected {
                hcp: 3, // ♥J ♦J ♣J
                lengths: [5, 2, 4, 2],
                sorted: "5-4-2-2",
                pattern: "5242",
                controls: 0,
                ltc: 10,             // ♠T98 → 3; ♥J2 → 2; ♦JT9 → 3; ♣JT → 2
                balanced: false,     // two doubletons
                semi_balanced: true, // 5-4-2-2
                longest: (Spades, 5),
            },
            // South 543.T98765.32.98
            Expected {
                hcp: 0,
                lengths: [3, 6, 2, 2],
                sorted: "6-3-2-2",
                pattern: "3622",
                controls: 0,
                ltc: 10, // 3 + 3 + 2 + 2
                balanced: false,
                semi_balanced: true, // 6-3-2-2
                longest: (Hearts, 6),
            },
            // West 2.43.7654.765432
            Expected {
                hcp: 0,
                lengths: [1, 2, 4, 6],
                sorted: "6-4-2-1",
                pattern: "1246",
                controls: 0,
                ltc: 9, // ♠2 → 1; ♥43 → 2; ♦765 → 3; ♣765 → 3
                balanced: false,
                semi_balanced: false, // singleton
                longest: (Clubs, 6),
            },
        ],
        [37, 3],
        [
            [7, 9, 5, 5], // NS ♠4+3 ♥3+6 ♦3+2 ♣3+2
            [6, 4, 8, 8], // EW ♠5+1 ♥2+2 ♦4+4 ♣2+6
        ],
    );
}

#[test]
fn deal_c_singleton_honours_and_length_ties() {
    let d = deal("N:K.Q5.AJ432.KQ432 A.AK.KQT98.AJT98 QJ9876.JT9876.7. T5432.432.65.765");
    check_deal(
        &d,
        [
            // North K.Q5.AJ432.KQ432
            Expected {
                hcp: 15, // ♠K3, ♥Q2, ♦A4 J1, ♣K3 Q2 → 3+2+5+5
                lengths: [1, 2, 5, 5],
                sorted: "5-5-2-1",
                pattern: "1255",
                controls: 4, // ♠K1, ♦A2, ♣K1
                ltc: 6,      // singleton K → 1; doubleton Q5: A K → 2; ♦AJ4: K Q → 2; ♣KQ4: A → 1
                balanced: false,
                semi_balanced: false,
                longest: (Diamonds, 5), // ♦5 = ♣5, diamonds rank higher
            },
            // East A.AK.KQT98.AJT98
            Expected {
                hcp: 21, // ♠A4, ♥A4 K3, ♦K3 Q2, ♣A4 J1 → 4+7+5+5
                lengths: [1, 2, 5, 5],
                sorted: "5-5-2-1",
                pattern: "1255",
                controls: 8, // ♠A2, ♥A2 K1, ♦K1, ♣A2
                ltc: 3,      // singleton A → 0; AK → 0; ♦KQT: A → 1; ♣AJT: K Q → 2
                balanced: false,
                semi_balanced: false,
                longest: (Diamonds, 5),
            },
            // South QJ9876.JT9876.7.-
            Expected {
                hcp: 4, // ♠Q2 J1, ♥J1
                lengths: [6, 6, 1, 0],
                sorted: "6-6-1-0",
                pattern: "6610",
                controls: 0,
                ltc: 6, // ♠QJ9: A K → 2; ♥JT9 → 3; ♦7 → 1; ♣ void → 0
                balanced: false,
                semi_balanced: false,
                longest: (Spades, 6), // ♠6 = ♥6, spades rank higher
            },
            // West T5432.432.65.765
            Expected {
                hcp: 0,
                lengths: [5, 3, 2, 3],
                sorted: "5-3-3-2",
                pattern: "5323",
                controls: 0,
                ltc: 11, // 3 + 3 + 2 + 3
                balanced: true,
                semi_balanced: true,
                longest: (Spades, 5),
            },
        ],
        [19, 21], // NS 15 + 4, EW 21 + 0
        [
            [7, 8, 6, 5], // NS ♠1+6 ♥2+6 ♦5+1 ♣5+0
            [6, 5, 7, 8], // EW ♠1+5 ♥2+3 ♦5+2 ♣5+3
        ],
    );
}

#[test]
fn deal_d_doubleton_honours_ten_card_suit_three_way_tie() {
    let d = deal("N:K2.KQ.A2.Q765432 Q.AJ43.KQJ3.AKJT AJT9876543.2.T9. .T98765.87654.98");
    check_deal(
        &d,
        [
            // North K2.KQ.A2.Q765432
            Expected {
                hcp: 14, // ♠K3, ♥K3 Q2, ♦A4, ♣Q2 → 3+5+4+2
                lengths: [2, 2, 2, 7],
                sorted: "7-2-2-2",
                pattern: "2227",
                controls: 4, // ♠K1, ♥K1, ♦A2
                ltc: 5, // K2: A → 1; KQ: A → 1 (Q not counted in a doubleton); A2: K → 1; ♣Q76: A K → 2
                balanced: false,
                semi_balanced: false, // three doubletons
                longest: (Clubs, 7),
            },
            // East Q.AJ43.KQJ3.AKJT
            Expected {
                hcp: 21, // ♠Q2, ♥A4 J1, ♦K3 Q2 J1, ♣A4 K3 J1 → 2+5+6+8
                lengths: [1, 4, 4, 4],
                sorted: "4-4-4-1",
                pattern: "1444",
                controls: 6, // ♥A2, ♦K1, ♣A2 K1
                ltc: 5,      // singleton Q → 1; ♥AJ4: K Q → 2; ♦KQJ: A → 1; ♣AKJ: Q → 1
                balanced: false,
                semi_balanced: false, // singleton
                longest: (Hearts, 4), // ♥ = ♦ = ♣ = 4, hearts rank highest
            },
            // South AJT9876543.2.T9.-
            Expected {
                hcp: 5, // ♠A4 J1
                lengths: [10, 1, 2, 0],
                sorted: "10-2-1-0",
                pattern: "T120", // ten spades → T: one character a suit
                controls: 2,
                ltc: 5, // ♠AJT: K Q → 2; ♥2 → 1; ♦T9 → 2; ♣ void → 0
                balanced: false,
                semi_balanced: false,
                longest: (Spades, 10),
            },
            // West -.T98765.87654.98
            Expected {
                hcp: 0,
                lengths: [0, 6, 5, 2],
                sorted: "6-5-2-0",
                pattern: "0652",
                controls: 0,
                ltc: 8, // ♠ void → 0; ♥T98 → 3; ♦876 → 3; ♣98 → 2
                balanced: false,
                semi_balanced: false,
                longest: (Hearts, 6),
            },
        ],
        [19, 21], // NS 14 + 5, EW 21 + 0
        [
            [12, 3, 4, 7], // NS ♠2+10 ♥2+1 ♦2+2 ♣7+0
            [1, 10, 9, 6], // EW ♠1+0 ♥4+6 ♦4+5 ♣4+2
        ],
    );
}

#[test]
fn deal_e_thirteen_card_suits() {
    let d = deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432");
    let patterns = ["K000", "0K00", "00K0", "000K"]; // 13 → K
    for (seat, pattern) in Seat::ALL.into_iter().zip(patterns) {
        let suit = Suit::from_index(seat.index());
        let mut lengths = [0; 4];
        lengths[suit.index()] = 13;
        assert_eq!(
            actual(d.hand(seat)),
            Expected {
                hcp: 10, // A4 K3 Q2 J1
                lengths,
                sorted: "13-0-0-0",
                pattern,
                controls: 3, // A2 K1
                ltc: 0,      // AKQ, three voids
                balanced: false,
                semi_balanced: false,
                longest: (suit, 13),
            }
        );
    }
    assert_eq!(side_hcp(&d, Side::NorthSouth), 20);
    assert_eq!(fit(&d, Side::NorthSouth, Spades), 13); // North's 13 spades
    assert_eq!(fit(&d, Side::NorthSouth, Hearts), 0); // East holds them
    assert_eq!(fit(&d, Side::EastWest, Clubs), 13);
}

/// A hand with `holding` (rank letters, `x` for a small card taken from 2 upward) in `suit`.
fn holding(suit: Suit, holding: &str) -> Hand {
    let mut h = Hand::EMPTY;
    let mut spot = 2;
    for c in holding.chars() {
        let rank = if c == 'x' {
            spot += 1;
            Rank::new(spot - 1).unwrap()
        } else {
            Rank::from_char(c).unwrap()
        };
        assert!(h.insert(Card::new(suit, rank)), "{holding}: {c} twice");
    }
    h
}

#[test]
fn losing_tricks_of_single_suits() {
    let table: &[(&str, u8)] = &[
        ("", 0),        // void
        ("A", 0),       // singleton: the ace alone is no loser
        ("K", 1),       // singleton king: 1 (only a missing ace counts)
        ("Q", 1),       //
        ("x", 1),       //
        ("AK", 0),      // doubleton: missing A and K count
        ("AQ", 1),      // K missing
        ("Ax", 1),      //
        ("KQ", 1),      // A missing; Q is not among the top two honours
        ("Kx", 1),      //
        ("Qx", 2),      // A K missing
        ("xx", 2),      //
        ("AKQ", 0),     // three or more: missing A, K, Q count
        ("AKx", 1),     //
        ("AQx", 1),     //
        ("KQx", 1),     //
        ("AJT", 2),     // K Q missing
        ("Axx", 2),     //
        ("Kxx", 2),     //
        ("Qxx", 2),     //
        ("QJT", 2),     // A K missing; the J does not help
        ("xxx", 3),     //
        ("AKQJT", 0),   //
        ("KQJTx", 1),   //
        ("xxxxxxx", 3), // never more than 3 a suit
        ("AKQJT98765432", 0),
    ];
    for &(cards, want) in table {
        for suit in Suit::ALL {
            assert_eq!(
                losing_trick_count(holding(suit, cards)),
                want,
                "{suit} {cards:?}"
            );
        }
    }
    // Four suits add: xxx xxx xxx xxxx = 12, the maximum.
    let h = Hand::from_mask(
        holding(Spades, "xxx").mask()
            | holding(Hearts, "xxx").mask()
            | holding(Diamonds, "xxx").mask()
            | holding(Clubs, "xxxx").mask(),
    );
    assert_eq!(losing_trick_count(h), 12);
}

/// Every sorted 13-card shape, longest first (39 of them).
fn all_sorted_shapes() -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    for a in 0..=13u8 {
        for b in 0..=a {
            for c in 0..=b {
                if a + b + c <= 13 && 13 - a - b - c <= c {
                    out.push([a, b, c, 13 - a - b - c]);
                }
            }
        }
    }
    out
}

/// The 24 orders of four suits.
fn permutations() -> Vec<[usize; 4]> {
    let mut out = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                let Some(d) = 6usize.checked_sub(a + b + c) else {
                    continue;
                };
                if a != b && a != c && b != c && d < 4 && d != a && d != b && d != c {
                    out.push([a, b, c, d]);
                }
            }
        }
    }
    assert_eq!(out.len(), 24);
    out
}

#[test]
fn balanced_classes_over_every_shape_and_permutation() {
    let shapes = all_sorted_shapes();
    assert_eq!(shapes.len(), 39);
    let balanced = [[4, 3, 3, 3], [4, 4, 3, 2], [5, 3, 3, 2]];
    let semi_only = [[5, 4, 2, 2], [6, 3, 2, 2]];
    for s in shapes {
        // Every order of the four lengths over the suits.
        for p in permutations() {
            let shape = Shape(p.map(|i| s[i]));
            assert_eq!(shape.sorted(), s);
            assert_eq!(shape.is_balanced(), balanced.contains(&s), "{shape:?}");
            assert_eq!(
                shape.is_semi_balanced(),
                balanced.contains(&s) || semi_only.contains(&s),
                "{shape:?}"
            );
            let dashed = s.map(|l| l.to_string()).join("-");
            assert_eq!(shape.to_string(), dashed);
        }
    }
}

#[test]
fn patterns_are_four_characters_and_unambiguous() {
    // With two digits for 10+ these two would both read "10111".
    assert_eq!(Shape([10, 1, 1, 1]).pattern(), "T111");
    assert_eq!(Shape([1, 0, 1, 11]).pattern(), "101J");
    assert_eq!(Shape([0, 1, 12, 0]).pattern(), "01Q0");
    assert_eq!(Shape([0, 0, 0, 13]).pattern(), "000K");
    // Not a hand's shape, but no panic either.
    assert_eq!(Shape([14, 0, 0, 0]).pattern(), "?000");
    assert_eq!(Shape([200, 0, 0, 0]).to_string(), "200-0-0-0");
    let mut seen = std::collections::HashSet::new();
    for s in all_sorted_shapes() {
        for p in permutations() {
            let shape = Shape(p.map(|i| s[i]));
            let pat = shape.pattern();
            assert_eq!(pat.chars().count(), 4);
            seen.insert((pat, shape));
        }
    }
    // Distinct shapes give distinct patterns.
    let pats: std::collections::HashSet<_> = seen.iter().map(|(p, _)| p.clone()).collect();
    let shapes: std::collections::HashSet<_> = seen.iter().map(|(_, s)| *s).collect();
    assert_eq!(pats.len(), shapes.len());
}

#[test]
fn empty_and_full_card_sets() {
    let empty = Hand::EMPTY;
    assert_eq!(hcp(empty), 0);
    assert_eq!(controls(empty), 0);
    assert_eq!(suit_lengths(empty), [0; 4]);
    assert_eq!(losing_trick_count(empty), 0);
    assert_eq!(longest_suit(empty), (Spades, 0));
    let all = Hand::from_mask(u64::MAX);
    assert_eq!(hcp(all), 40);
    assert_eq!(controls(all), 12);
    assert_eq!(suit_lengths(all), [13; 4]);
    assert_eq!(losing_trick_count(all), 0);
    assert_eq!(longest_suit(all), (Spades, 13));
}

// ---------------------------------------------------------------------------------------
// The direct count: one pass over the cards, nothing shared with the library's code.

/// A hand's features counted card by card.
#[derive(Debug, PartialEq)]
struct Direct {
    hcp: u8,
    lengths: [u8; 4],
    controls: u8,
    ltc: u8,
    longest: (Suit, u8),
    sorted: String,
    pattern: String,
    balanced: bool,
    semi_balanced: bool,
}

fn direct(hand: Hand) -> Direct {
    let mut ranks: [Vec<u8>; 4] = Default::default();
    for card in hand.cards() {
        ranks[card.suit().index()].push(card.rank().value());
    }
    let mut hcp = 0;
    let mut controls = 0;
    for &r in ranks.iter().flatten() {
        hcp += match r {
            14 => 4,
            13 => 3,
            12 => 2,
            11 => 1,
            _ => 0,
        };
        controls += match r {
            14 => 2,
            13 => 1,
            _ => 0,
        };
    }
    let lengths = ranks.clone().map(|r| r.len() as u8);
    // LTC: a suit of length L is judged on the first min(L, 3) of A, K, Q; each missing one
    // is a loser.
    let mut ltc = 0;
    for suit_ranks in &ranks {
        let considered = suit_ranks.len().min(3);
        for honour in &[14u8, 13, 12][..considered] {
            if !suit_ranks.contains(honour) {
                ltc += 1;
            }
        }
    }
    let best = (0..4).max_by_key(|&s| (lengths[s], Reverse(s))).unwrap();
    let mut desc = lengths.to_vec();
    desc.sort();
    desc.reverse();
    let sorted = desc
        .iter()
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join("-");
    let pattern = lengths
        .iter()
        .map(|&l| match l {
            0..=9 => char::from(b'0' + l),
            10 => 'T',
            11 => 'J',
            12 => 'Q',
            13 => 'K',
            _ => unreachable!("a suit has 13 cards"),
        })
        .collect();
    let balanced = ["4-3-3-3", "4-4-3-2", "5-3-3-2"].contains(&sorted.as_str());
    let semi_balanced = balanced || ["5-4-2-2", "6-3-2-2"].contains(&sorted.as_str());
    Direct {
        hcp,
        lengths,
        controls,
        ltc,
        longest: (Suit::from_index(best), lengths[best]),
        sorted,
        pattern,
        balanced,
        semi_balanced,
    }
}

/// The library's answer in the same form.
fn library(hand: Hand) -> Direct {
    let shape = Shape::of(hand);
    Direct {
        hcp: hcp(hand),
        lengths: suit_lengths(hand),
        controls: controls(hand),
        ltc: losing_trick_count(hand),
        longest: longest_suit(hand),
        sorted: shape.to_string(),
        pattern: shape.pattern(),
        balanced: shape.is_balanced(),
        semi_balanced: shape.is_semi_balanced(),
    }
}

/// Every feature of every seat and side of `d` against the direct count, and the deck
/// invariants.
fn check_against_direct(d: &Deal) {
    let counts = Seat::ALL.map(|s| direct(d.hand(s)));
    for (seat, want) in Seat::ALL.into_iter().zip(&counts) {
        assert_eq!(&library(d.hand(seat)), want, "{seat} of {d}");
        assert_eq!(want.lengths.iter().sum::<u8>(), 13, "{seat} of {d}");
        assert!(want.hcp <= 37 && want.ltc <= 12, "{seat} of {d}");
    }
    for side in [Side::NorthSouth, Side::EastWest] {
        let [a, b] = side.seats().map(|s| &counts[s.index()]);
        assert_eq!(side_hcp(d, side), a.hcp + b.hcp, "{side:?} of {d}");
        for suit in Suit::ALL {
            let i = suit.index();
            assert_eq!(
                fit(d, side, suit),
                a.lengths[i] + b.lengths[i],
                "{side:?} {suit}"
            );
        }
    }
    // The deck: 40 HCP, 12 controls, 13 cards of each suit.
    assert_eq!(counts.iter().map(|c| c.hcp).sum::<u8>(), 40, "{d}");
    assert_eq!(counts.iter().map(|c| c.controls).sum::<u8>(), 12, "{d}");
    for suit in 0..4 {
        assert_eq!(
            counts.iter().map(|c| c.lengths[suit]).sum::<u8>(),
            13,
            "{d}"
        );
    }
    assert_eq!(
        side_hcp(d, Side::NorthSouth) + side_hcp(d, Side::EastWest),
        40
    );
    for suit in Suit::ALL {
        assert_eq!(
            fit(d, Side::NorthSouth, suit) + fit(d, Side::EastWest, suit),
            13
        );
    }
}

#[test]
fn known_deals_agree_with_the_direct_count() {
    for pbn in [
        "N:AKJ52.Q43.K7.962 QT98.AK2.AQ.KJ54 7.JT98765..AQT87 643..JT9865432.3",
        "N:AKQJ.AKQ.AKQ.AKQ T9876.J2.JT98.JT 543.T98765.32.98 2.43.7654.765432",
        "N:K.Q5.AJ432.KQ432 A.AK.KQT98.AJT98 QJ9876.JT9876.7. T5432.432.65.765",
        "N:K2.KQ.A2.Q765432 Q.AJ43.KQJ3.AKJT AJT9876543.2.T9. .T98765.87654.98",
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    ] {
        check_against_direct(&deal(pbn));
    }
}

#[test]
fn every_holding_of_every_suit_agrees_with_the_direct_count() {
    for suit in Suit::ALL {
        for holding in 0..1u64 << 13 {
            let h = Hand::from_mask(holding << (13 * suit.index()));
            assert_eq!(library(h), direct(h), "{suit} holding {h}");
        }
    }
}

#[test]
fn first_and_last_deals_and_a_block_agree_with_the_direct_count() {
    let mut block = vec![Deal::from_number(1, Scheme::Pavlicek).unwrap(); 2000];
    for first in [1, DEALS / 3, DEALS - 1999] {
        dealdex::unrank_range(first, Scheme::Pavlicek, &mut block).unwrap();
        for d in &block {
            check_against_direct(d);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_deals_agree_with_the_direct_count(n in 1..=DEALS) {
        let d = Deal::from_number(n, Scheme::Pavlicek).unwrap();
        check_against_direct(&d);
    }

    #[test]
    fn any_card_set_agrees_with_the_direct_count(mask in any::<u64>()) {
        let h = Hand::from_mask(mask);
        let want = direct(h);
        let got = library(h);
        prop_assert_eq!(got.hcp, want.hcp);
        prop_assert_eq!(got.lengths, want.lengths);
        prop_assert_eq!(got.controls, want.controls);
        prop_assert_eq!(got.ltc, want.ltc);
        prop_assert_eq!(got.longest, want.longest);
        prop_assert_eq!(got.pattern, want.pattern);
        prop_assert_eq!(got.sorted, want.sorted);
    }
}
