//! Set statistics: are the deals of a set honestly random?
//!
//! [`SetStats`] accumulates three tables over a set of deals — each card's seat (52 × 4),
//! the sorted suit pattern of every hand (4 hands a deal, 39 patterns) and every hand's HCP
//! (0..=37) — and [`SetStats::report`] sets them against the exact theoretical probabilities
//! (computed combinatorially in [`hcp_probabilities`], [`pattern_probabilities`]; each card is
//! in each seat with probability 1/4) with a chi-square test of fit per table and a list of
//! outlying cells. The [`Report`] renders as aligned text ([`Report::to_text`]), JSON
//! (the serde serialization of [`Report`]) and an SVG plot ([`Report::to_svg`]).
//!
//! Accumulate in parallel by giving each worker its own [`SetStats`] and merging:
//!
//! ```
//! use dealdex::{Deal, Seed, stats::SetStats};
//! use rayon::prelude::*;
//!
//! let seed = Seed([7; 32]);
//! let stats = (0..8u64)
//!     .into_par_iter()
//!     .map(|chunk| {
//!         let mut deals = vec![seed.board_deal(1); 1000];
//!         seed.fill_deals(1 + chunk * 1000, &mut deals);
//!         let mut s = SetStats::new();
//!         deals.iter().for_each(|d| s.add(d));
//!         s
//!     })
//!     .reduce(SetStats::new, |mut a, b| {
//!         a.merge(b);
//!         a
//!     });
//! assert_eq!(stats.deals(), 8000);
//! let report = stats.report();
//! assert!(report.hcp.test.passes.unwrap());
//! ```

mod estimate;
mod fit;
mod gamma;
mod report;
mod svg;
mod theory;

pub use estimate::Estimate;
pub use fit::{FitTest, MIN_EXPECTED, OUTLIER_Z, SIGNIFICANCE};
pub use gamma::{chi_square_sf, gamma_p, gamma_q, ln_gamma};
pub use report::{CardSeatRow, CardSeatTable, Outlier, PooledBin, Report, Row, Table};
pub use theory::{
    CARD_SEAT_PROBABILITY, HCP_VALUES, binomial, hand_pairs_total, hands_total, hcp_hand_counts,
    hcp_pair_counts, hcp_probabilities, pattern_hand_counts, pattern_pair_counts,
    pattern_probabilities, patterns,
};

use crate::model::card::{Card, Seat};
use crate::model::deal::Deal;
use crate::model::features::{Shape, hcp};

/// The number of sorted suit patterns of a 13-card hand (4-4-3-2, 5-3-3-2, … 13-0-0-0).
pub const PATTERN_COUNT: usize = 39;

/// The sorted patterns in descending lexicographic order, 13-0-0-0 first, 4-3-3-3 last.
const PATTERNS: [[u8; 4]; PATTERN_COUNT] = build_patterns();

const fn build_patterns() -> [[u8; 4]; PATTERN_COUNT] {
    let mut out = [[0u8; 4]; PATTERN_COUNT];
    let mut n = 0;
    let mut a: u8 = 13;
    while a >= 4 {
        let rest = 13 - a;
        let mut b = if a < rest { a } else { rest };
        loop {
            let rest2 = rest - b;
            let mut c = if b < rest2 { b } else { rest2 };
            // c ≥ d = rest2 − c.
            while 2 * c >= rest2 {
                out[n] = [a, b, c, rest2 - c];
                n += 1;
                if c == 0 {
                    break;
                }
                c -= 1;
            }
            if b == 0 {
                break;
            }
            b -= 1;
        }
        a -= 1;
    }
    assert!(n == PATTERN_COUNT);
    out
}

/// Pattern index of the suit lengths (♠, ♥, ♦) — clubs being 13 minus their sum — at
/// `(l♠ · 14 + l♥) · 14 + l♦`; 255 where the three exceed 13.
static PATTERN_OF: [u8; 14 * 14 * 14] = build_pattern_of();

const fn build_pattern_of() -> [u8; 14 * 14 * 14] {
    let mut out = [255u8; 14 * 14 * 14];
    let mut i = 0;
    while i < out.len() {
        let l = [(i / 196) as u8, (i / 14 % 14) as u8, (i % 14) as u8];
        if l[0] + l[1] + l[2] <= 13 {
            let mut s = [l[0], l[1], l[2], 13 - l[0] - l[1] - l[2]];
            // Sort descending (insertion sort; const-friendly).
            let mut j = 1;
            while j < 4 {
                let mut k = j;
                while k > 0 && s[k - 1] < s[k] {
                    let t = s[k];
                    s[k] = s[k - 1];
                    s[k - 1] = t;
                    k -= 1;
                }
                j += 1;
            }
            let mut p = 0;
            while p < PATTERN_COUNT {
                let q = PATTERNS[p];
                if q[0] == s[0] && q[1] == s[1] && q[2] == s[2] && q[3] == s[3] {
                    out[i] = p as u8;
                }
                p += 1;
            }
        }
        i += 1;
    }
    out
}

/// The index in [`patterns`] of a hand with suit lengths `l` (♠ ♥ ♦ ♣, summing to 13).
fn pattern_index(l: [u8; 4]) -> usize {
    PATTERN_OF[(l[0] as usize * 14 + l[1] as usize) * 14 + l[2] as usize] as usize
}

/// Counts over a set of deals: each card's seat, each hand's sorted suit pattern and each
/// hand's HCP. Cheap to create (≈ 2 KB) and to [`merge`](SetStats::merge), so workers can
/// accumulate separately.
///
/// ```
/// use dealdex::{Card, Deal, Seat, stats::SetStats};
/// let d: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
///     .parse()
///     .unwrap();
/// let mut s = SetStats::new();
/// s.add(&d);
/// assert_eq!(s.deals(), 1);
/// assert_eq!(s.hcp_count(10), 4);
/// assert_eq!(s.pattern_count([13, 0, 0, 0]), 4);
/// assert_eq!(s.card_seat_count(Card::from_index(0).unwrap(), Seat::North), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetStats {
    deals: u64,
    /// `[card][seat]`: deals with the card (suited order) in the seat (N, E, S, W).
    card_seat: [[u64; 4]; 52],
    /// Hands of each sorted pattern, in the order of [`PATTERNS`].
    patterns: [u64; PATTERN_COUNT],
    /// Hands of each HCP value.
    hcp: [u64; HCP_VALUES],
}

impl Default for SetStats {
    fn default() -> Self {
        SetStats::new()
    }
}

impl SetStats {
    /// Empty counts.
    pub const fn new() -> SetStats {
        SetStats {
            deals: 0,
            card_seat: [[0; 4]; 52],
            patterns: [0; PATTERN_COUNT],
            hcp: [0; HCP_VALUES],
        }
    }

    /// Counts one deal: its 52 card seats, and the pattern and HCP of its four hands.
    pub fn add(&mut self, deal: &Deal) {
        self.deals += 1;
        for (seat, &hand) in deal.hands().iter().enumerate() {
            let mut m = hand.mask();
            while m != 0 {
                self.card_seat[m.trailing_zeros() as usize][seat] += 1;
                m &= m - 1;
            }
            self.patterns[pattern_index(Shape::of(hand).0)] += 1;
            self.hcp[hcp(hand) as usize] += 1;
        }
    }

    /// Counts every deal of `deals`.
    pub fn add_all(&mut self, deals: &[Deal]) {
        for d in deals {
            self.add(d);
        }
    }

    /// Adds the counts of `other` (accumulated over other deals) to these.
    pub fn merge(&mut self, other: SetStats) {
        self.deals += other.deals;
        for (a, b) in self.card_seat.iter_mut().zip(&other.card_seat) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        for (x, y) in self.patterns.iter_mut().zip(&other.patterns) {
            *x += y;
        }
        for (x, y) in self.hcp.iter_mut().zip(&other.hcp) {
            *x += y;
        }
    }

    /// The number of deals counted.
    pub const fn deals(&self) -> u64 {
        self.deals
    }

    /// The number of hands counted: 4 a deal.
    pub const fn hands(&self) -> u64 {
        self.deals * 4
    }

    /// The number of deals in which `seat` holds `card`.
    pub const fn card_seat_count(&self, card: Card, seat: Seat) -> u64 {
        self.card_seat[card.index()][seat.index()]
    }

    /// The number of hands with `points` HCP; 0 above 37.
    pub fn hcp_count(&self, points: u8) -> u64 {
        self.hcp.get(points as usize).copied().unwrap_or(0)
    }

    /// The number of hands of each HCP value 0..=37 (index = HCP).
    pub const fn hcp_counts(&self) -> &[u64; HCP_VALUES] {
        &self.hcp
    }

    /// The number of hands whose sorted pattern is that of `lengths` (any order, e.g.
    /// `[4, 4, 3, 2]` or `[2, 3, 4, 4]` for 4-4-3-2); 0 unless the four lengths sum to 13.
    pub fn pattern_count(&self, lengths: [u8; 4]) -> u64 {
        if lengths.iter().map(|&l| l as u32).sum::<u32>() != 13 {
            return 0;
        }
        self.patterns[pattern_index(lengths)]
    }

    /// The number of hands of each sorted pattern, in the order of [`patterns`].
    pub const fn pattern_counts(&self) -> &[u64; PATTERN_COUNT] {
        &self.patterns
    }

    /// The report: each table against theory, with its chi-square test and outliers.
    pub fn report(&self) -> Report {
        report::build(self)
    }
}
