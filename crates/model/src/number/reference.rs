//! Straightforward reference implementations of the three numbering schemes on num-bigint,
//! written to follow the published algorithms step by step (FORMATS.md §1). They are slow
//! and exist to check the fast paths: the tests prove both agree.
//!
//! All functions take and return 0-based ranks (hand-record number − 1) and seat codes in
//! suited order (0 = N, 1 = E, 2 = S, 3 = W).

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

fn big(v: u64) -> BigUint {
    BigUint::from(v)
}

/// D = 52! / (13!)⁴ computed from factorials.
pub fn deals() -> BigUint {
    let fact = |n: u64| (1..=n).fold(BigUint::one(), |f, k| f * big(k));
    fact(52) / (fact(13) * fact(13) * fact(13) * fact(13))
}

fn binomial(n: usize, k: usize) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    (0..k).fold(BigUint::one(), |acc, j| {
        acc * big((n - j) as u64) / big(j as u64 + 1)
    })
}

/// Pavlicek unrank (FORMATS.md §1a): for each card in suited order, try N, E, S, W; each seat
/// with cards left owns `x = k * left / c` of the remaining deals.
///
/// Panics if `rank` is not below D (reference code: the caller checks).
pub fn pavlicek_unrank(rank: u128) -> [u8; 52] {
    let mut i = BigUint::from(rank);
    let mut k = deals();
    assert!(i < k, "rank below D");
    let mut left = [13u64; 4];
    let mut c = 52u64;
    let mut out = [0u8; 52];
    for slot in out.iter_mut() {
        for (seat, n) in left.iter_mut().enumerate() {
            if *n == 0 {
                continue;
            }
            let x = &k * big(*n) / big(c);
            if i < x {
                *slot = seat as u8;
                *n -= 1;
                k = x;
                break;
            }
            i -= x;
        }
        c -= 1;
    }
    out
}

/// Pavlicek rank: the inverse of [`pavlicek_unrank`], adding the `x` of every seat tried
/// before each card's seat.
pub fn pavlicek_rank(seats: &[u8; 52]) -> u128 {
    let mut i = BigUint::zero();
    let mut k = deals();
    let mut left = [13u64; 4];
    let mut c = 52u64;
    for &card_seat in seats {
        for (seat, n) in left.iter_mut().enumerate() {
            if *n == 0 {
                continue;
            }
            let x = &k * big(*n) / big(c);
            if seat == card_seat as usize {
                *n -= 1;
                k = x;
                break;
            }
            i += x;
        }
        c -= 1;
    }
    i.to_u128().expect("below D < 2^96")
}

/// Positions, in the cards still undealt (suited order), of the cards held by `seat`.
fn positions(seats: &[u8; 52], seat: u8) -> Vec<usize> {
    seats
        .iter()
        .filter(|&&s| s >= seat)
        .enumerate()
        .filter(|&(_, &s)| s == seat)
        .map(|(p, _)| p)
        .collect()
}

/// Andrews rank (FORMATS.md §1b): each hand's positions `a_0 < … < a_12` among the cards
/// left, ranked colexicographically as `Σ C(a_j, j+1)`; `i = s + C(26,13)·(e + C(39,13)·n)`.
pub fn andrews_rank(seats: &[u8; 52]) -> u128 {
    let part = |seat| -> BigUint {
        positions(seats, seat)
            .iter()
            .enumerate()
            .map(|(j, &a)| binomial(a, j + 1))
            .sum()
    };
    let i = part(2) + binomial(26, 13) * (part(1) + binomial(39, 13) * part(0));
    i.to_u128().expect("below D")
}

/// Big Deal rank (FORMATS.md §1c): each hand's positions among the cards left, ranked
/// lexicographically, i.e. by counting the 13-subsets that come first in lexicographic order
/// (those that agree on `a_0..a_{j-1}` and have a smaller `j`-th element).
pub fn bigdeal_rank(seats: &[u8; 52]) -> u128 {
    let part = |seat, m: usize| -> BigUint {
        let pos = positions(seats, seat);
        let mut r = BigUint::zero();
        let mut prev: Option<usize> = None;
        for (j, &a) in pos.iter().enumerate() {
            let from = prev.map_or(0, |p| p + 1);
            for x in from..a {
                // subsets with this prefix and x at place j: choose the rest above x.
                r += binomial(m - 1 - x, 13 - 1 - j);
            }
            prev = Some(a);
        }
        r
    };
    let i = part(2, 26) + binomial(26, 13) * (part(1, 39) + binomial(39, 13) * part(0, 52));
    i.to_u128().expect("below D")
}

/// Unranks by the mixed radix and a subset unranker shared by Andrews and Big Deal: assigns
/// North, East, South in turn the subset `subset(part, m)` of the cards left.
fn unrank_mixed(rank: u128, subset: impl Fn(BigUint, usize) -> Vec<usize>) -> [u8; 52] {
    let i = BigUint::from(rank);
    let c26 = binomial(26, 13);
    let c39 = binomial(39, 13);
    let parts = [&i / (&c26 * &c39), &i / &c26 % &c39, &i % &c26];
    let mut out = [3u8; 52];
    let mut left: Vec<usize> = (0..52).collect();
    for (seat, part) in parts.into_iter().enumerate() {
        let chosen = subset(part, left.len());
        for &p in &chosen {
            out[left[p]] = seat as u8;
        }
        left = left
            .iter()
            .enumerate()
            .filter(|(p, _)| !chosen.contains(p))
            .map(|(_, &c)| c)
            .collect();
    }
    out
}

/// Andrews unrank: for j = 13 down to 1, the largest `a` with `C(a, j) ≤ r` is the j-th
/// position; subtract and go on.
pub fn andrews_unrank(rank: u128) -> [u8; 52] {
    unrank_mixed(rank, |mut r, m| {
        let mut pos = vec![0; 13];
        let mut a = m;
        for j in (1..=13).rev() {
            a -= 1;
            while binomial(a, j) > r {
                a -= 1;
            }
            r -= binomial(a, j);
            pos[j - 1] = a;
        }
        pos
    })
}

/// Big Deal unrank: choose positions left to right; at each place skip candidates while the
/// number of subsets starting with them is not more than what is left of the rank.
pub fn bigdeal_unrank(rank: u128) -> [u8; 52] {
    unrank_mixed(rank, |mut r, m| {
        let mut pos = Vec::with_capacity(13);
        let mut x = 0;
        for j in 0..13 {
            loop {
                let count = binomial(m - 1 - x, 13 - 1 - j);
                if r < count {
                    break;
                }
                r -= count;
                x += 1;
            }
            pos.push(x);
            x += 1;
        }
        pos
    })
}
