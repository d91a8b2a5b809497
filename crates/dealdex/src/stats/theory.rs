//! Exact theoretical distributions of a random deal, computed combinatorially with exact
//! integer counts (`u128`) and only turned into `f64` at the end.
//!
//! A deal gives each seat a uniformly random 13-card hand; there are
//! C(52,13) = 635,013,559,600 hands. Any two seats' hands are a uniformly random pair of
//! disjoint hands: C(52,13)·C(39,13) ordered pairs. The pair distributions give the
//! within-deal covariances the fit tests correct for (see [`super::FitTest`]).

use std::sync::OnceLock;

use super::{PATTERN_COUNT, PATTERNS, pattern_index};

/// Honour ranks and their high-card points: ace 4, king 3, queen 2, jack 1.
const HONOUR_POINTS: [usize; 4] = [4, 3, 2, 1];

/// The number of HCP values a 13-card hand can have: 0..=37.
pub const HCP_VALUES: usize = 38;

/// The binomial coefficient C(`n`, `k`) exactly; 0 when `k > n`.
///
/// Returns `None` if the result (or an intermediate product, at most C(n,k)·n) overflows
/// `u128`, which cannot happen for `n ≤ 52`.
///
/// ```
/// use dealdex::stats::binomial;
/// assert_eq!(binomial(52, 13), Some(635_013_559_600));
/// assert_eq!(binomial(4, 5), Some(0));
/// ```
pub fn binomial(n: u32, k: u32) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        // r = C(n, i) here, and C(n, i+1) = C(n, i)·(n−i)/(i+1) exactly.
        r = r.checked_mul(u128::from(n - i))? / u128::from(i + 1);
    }
    Some(r)
}

/// C(n, k) for the small arguments used here (n ≤ 52), which never overflow.
fn c(n: usize, k: usize) -> u128 {
    binomial(n as u32, k as u32).unwrap_or(0)
}

/// The number of distinct 13-card hands, C(52,13) = 635,013,559,600.
pub fn hands_total() -> u128 {
    c(52, 13)
}

/// The number of ordered pairs of disjoint 13-card hands (two seats of one deal),
/// C(52,13)·C(39,13).
pub fn hand_pairs_total() -> u128 {
    c(52, 13) * c(39, 13)
}

/// The number of 13-card hands with each HCP value 0..=37 (index = HCP).
///
/// Counted by choosing `k` of the 16 honours with point sum `h` (a DP over the four honour
/// ranks, C(4, j) ways to take `j` cards of a rank) times C(36, 13−k) ways to fill the hand
/// with non-honours. The counts sum to C(52,13).
pub fn hcp_hand_counts() -> [u128; HCP_VALUES] {
    // ways[k][h]: ways to choose k honours worth h points.
    let mut ways = [[0u128; 41]; 17];
    ways[0][0] = 1;
    for points in HONOUR_POINTS {
        let mut next = [[0u128; 41]; 17];
        for k in 0..=16 {
            for h in 0..=40 {
                let w = ways[k][h];
                if w == 0 {
                    continue;
                }
                for j in 0..=4 {
                    if k + j <= 16 && h + j * points <= 40 {
                        next[k + j][h + j * points] += w * c(4, j);
                    }
                }
            }
        }
        ways = next;
    }
    let mut out = [0u128; HCP_VALUES];
    for (k, row) in ways.iter().enumerate().take(14) {
        for (h, &w) in row.iter().enumerate().take(HCP_VALUES) {
            out[h] += w * c(36, 13 - k);
        }
    }
    out
}

/// The probability of each HCP value 0..=37 for a random 13-card hand (index = HCP):
/// [`hcp_hand_counts`] over C(52,13). P(10) ≈ 0.0941.
pub fn hcp_probabilities() -> [f64; HCP_VALUES] {
    let total = hands_total() as f64;
    hcp_hand_counts().map(|n| n as f64 / total)
}

/// The number of hands of each sorted suit pattern, in the order of [`patterns`].
///
/// For a pattern with lengths l₁ ≥ l₂ ≥ l₃ ≥ l₄: (number of distinct ways to assign the
/// lengths to the four suits, 4!/Π(multiplicity!)) × Π C(13, lᵢ). The counts sum to C(52,13).
pub fn pattern_hand_counts() -> [u128; PATTERN_COUNT] {
    PATTERNS.map(|p| {
        let mut orders = 24u128;
        let mut i = 0;
        while i < 4 {
            let mut j = i;
            while j < 4 && p[j] == p[i] {
                j += 1;
            }
            orders /= (1..=(j - i) as u128).product::<u128>();
            i = j;
        }
        orders * p.iter().map(|&l| c(13, l as usize)).product::<u128>()
    })
}

/// The probability of each sorted suit pattern for a random 13-card hand, in the order of
/// [`patterns`]: [`pattern_hand_counts`] over C(52,13). 4-4-3-2 ≈ 0.2155.
pub fn pattern_probabilities() -> [f64; PATTERN_COUNT] {
    let total = hands_total() as f64;
    pattern_hand_counts().map(|n| n as f64 / total)
}

/// The 39 sorted suit patterns (longest first, e.g. `[4, 4, 3, 2]`) in dealdex's fixed
/// order: descending lexicographic, from 13-0-0-0 to 4-3-3-3.
pub fn patterns() -> &'static [[u8; 4]; PATTERN_COUNT] {
    &PATTERNS
}

/// The probability that a given card is in a given seat: 1/4 (the seats are exchangeable).
pub const CARD_SEAT_PROBABILITY: f64 = 0.25;

/// Ordered pairs of disjoint hands (two seats of one deal) by the HCP of each:
/// `[h1][h2]`, summing to [`hand_pairs_total`].
///
/// For each honour rank the first hand takes `a` of its 4 cards and the second `b` of the
/// rest (C(4,a)·C(4−a,b) ways); the non-honours fill up the hands in C(36, 13−k₁)·C(23+k₁,
/// 13−k₂) ways.
pub fn hcp_pair_counts() -> &'static [[u128; HCP_VALUES]; HCP_VALUES] {
    static PAIRS: OnceLock<[[u128; HCP_VALUES]; HCP_VALUES]> = OnceLock::new();
    PAIRS.get_or_init(|| {
        // Every (a, b) split of one rank's four cards, with its number of ways.
        let splits: Vec<(usize, usize, u128)> = (0..=4)
            .flat_map(|a| (0..=4 - a).map(move |b| (a, b, c(4, a) * c(4 - a, b))))
            .collect();
        let mut out = [[0u128; HCP_VALUES]; HCP_VALUES];
        for s0 in &splits {
            for s1 in &splits {
                for s2 in &splits {
                    for s3 in &splits {
                        let s = [s0, s1, s2, s3];
                        let k1: usize = s.iter().map(|x| x.0).sum();
                        let k2: usize = s.iter().map(|x| x.1).sum();
                        if k1 > 13 || k2 > 13 {
                            continue;
                        }
                        let h1: usize = s.iter().zip(HONOUR_POINTS).map(|(x, p)| x.0 * p).sum();
                        let h2: usize = s.iter().zip(HONOUR_POINTS).map(|(x, p)| x.1 * p).sum();
                        let w: u128 = s.iter().map(|x| x.2).product();
                        out[h1][h2] += w * c(36, 13 - k1) * c(23 + k1, 13 - k2);
                    }
                }
            }
        }
        out
    })
}

/// Ordered pairs of disjoint hands (two seats of one deal) by the sorted pattern of each,
/// `[p1][p2]` in the order of [`patterns`], summing to [`hand_pairs_total`].
///
/// Enumerates the first hand's suit lengths l and the second's m (each summing to 13, with
/// lᵢ + mᵢ ≤ 13): Π C(13, lᵢ)·C(13−lᵢ, mᵢ) ways.
pub fn pattern_pair_counts() -> &'static [[u128; PATTERN_COUNT]; PATTERN_COUNT] {
    static PAIRS: OnceLock<[[u128; PATTERN_COUNT]; PATTERN_COUNT]> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let mut out = [[0u128; PATTERN_COUNT]; PATTERN_COUNT];
        for l in compositions() {
            let pl = pattern_index(l);
            for m in compositions() {
                if (0..4).any(|i| l[i] + m[i] > 13) {
                    continue;
                }
                let w: u128 = (0..4)
                    .map(|i| c(13, l[i] as usize) * c(13 - l[i] as usize, m[i] as usize))
                    .product();
                out[pl][pattern_index(m)] += w;
            }
        }
        out
    })
}

/// All 560 ways to write 13 as an ordered sum of four lengths 0..=13.
fn compositions() -> impl Iterator<Item = [u8; 4]> {
    (0..=13u8).flat_map(|a| {
        (0..=13 - a).flat_map(move |b| (0..=13 - a - b).map(move |c| [a, b, c, 13 - a - b - c]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_tables_have_the_single_hand_marginals() {
        let c39 = c(39, 13);
        let hcp = hcp_hand_counts();
        let pairs = hcp_pair_counts();
        for h in 0..HCP_VALUES {
            assert_eq!(pairs[h].iter().sum::<u128>(), hcp[h] * c39, "hcp {h}");
            assert_eq!(
                (0..HCP_VALUES).map(|g| pairs[g][h]).sum::<u128>(),
                hcp[h] * c39
            );
        }
        let pat = pattern_hand_counts();
        let pairs = pattern_pair_counts();
        for p in 0..PATTERN_COUNT {
            assert_eq!(pairs[p].iter().sum::<u128>(), pat[p] * c39, "pattern {p}");
        }
        assert_eq!(compositions().count(), 560);
    }

    #[test]
    fn impossible_pairs_are_zero() {
        // Two hands cannot both hold 21+ HCP (only 40 in the deck) ...
        assert_eq!(hcp_pair_counts()[21][21], 0);
        assert!(hcp_pair_counts()[20][20] > 0);
        // Two solid 13-card suits: 4 suits for the first hand, 3 left for the second.
        let solid = PATTERNS.iter().position(|p| p == &[13, 0, 0, 0]).unwrap();
        assert_eq!(pattern_pair_counts()[solid][solid], 4 * 3);
    }
}
