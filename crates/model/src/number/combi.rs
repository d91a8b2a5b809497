//! Fast Andrews (FORMATS.md §1b) and Big Deal (§1c) numbering on native integers.
//!
//! Both split the 0-based rank as `i = s + C(26,13)·(e + C(39,13)·n)`, where n, e and s rank
//! North's cards among all 52, East's among the 39 left and South's among the 26 left (positions
//! in suited order). Andrews ranks each 13-subset colexicographically; Big Deal
//! lexicographically, which is the colex rank of the mirrored positions `m−1−a` counted from
//! the top: `lex = C(m,13) − 1 − colex(m−1−a)`.

use crate::deal::Deal;

/// Binomials C(n, k) for n ≤ 52, k ≤ 13.
pub const BINOM: [[u64; 14]; 53] = {
    let mut t = [[0u64; 14]; 53];
    let mut n = 0;
    while n < 53 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 14 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

const C26: u128 = BINOM[26][13] as u128;
const C39: u128 = BINOM[39][13] as u128;

/// Which order 13-subsets are ranked in.
#[derive(Clone, Copy)]
pub enum Order {
    /// Colexicographic (Andrews).
    Colex,
    /// Lexicographic (Big Deal).
    Lex,
}

/// Ranks 13 ascending positions among `m` in the given order.
fn rank_subset(pos: &[usize; 13], m: usize, order: Order) -> u64 {
    match order {
        Order::Colex => pos.iter().enumerate().map(|(j, &a)| BINOM[a][j + 1]).sum(),
        Order::Lex => {
            let colex: u64 = pos
                .iter()
                .enumerate()
                .map(|(j, &a)| BINOM[m - 1 - a][13 - j])
                .sum();
            BINOM[m][13] - 1 - colex
        }
    }
}

/// Unranks a 13-subset of `m` positions, ascending.
fn unrank_subset(rank: u64, m: usize, order: Order) -> [usize; 13] {
    let (mut r, mirror) = match order {
        Order::Colex => (rank, false),
        Order::Lex => (BINOM[m][13] - 1 - rank, true),
    };
    let mut out = [0usize; 13];
    let mut a = m;
    for j in (1..=13).rev() {
        a -= 1;
        while BINOM[a][j] > r {
            a -= 1;
        }
        r -= BINOM[a][j];
        out[j - 1] = a;
    }
    if mirror {
        out.reverse();
        for p in out.iter_mut() {
            *p = m - 1 - *p;
        }
    }
    out
}

/// The 0-based rank of `deal` in the Andrews (colex) or Big Deal (lex) scheme.
pub fn rank(deal: &Deal, order: Order) -> u128 {
    let mut remaining: u64 = (1 << 52) - 1;
    let mut parts = [0u64; 3];
    for (seat, part) in parts.iter_mut().enumerate() {
        let m = remaining.count_ones() as usize;
        let hand = deal.hands()[seat].mask();
        let mut pos = [0usize; 13];
        let mut h = hand;
        for p in pos.iter_mut() {
            let card = h.trailing_zeros();
            *p = (remaining & ((1u64 << card) - 1)).count_ones() as usize;
            h &= h - 1;
        }
        *part = rank_subset(&pos, m, order);
        remaining &= !hand;
    }
    parts[2] as u128 + C26 * (parts[1] as u128 + C39 * parts[0] as u128)
}

/// The deal with 0-based rank `i` (below D) in the Andrews or Big Deal scheme.
pub fn unrank(i: u128, order: Order) -> Deal {
    let parts = [
        (i / (C26 * C39)) as u64,
        (i / C26 % C39) as u64,
        (i % C26) as u64,
    ];
    let mut remaining: u64 = (1 << 52) - 1;
    let mut masks = [0u64; 4];
    for (seat, &part) in parts.iter().enumerate() {
        let m = remaining.count_ones() as usize;
        let mut cards = [0u32; 52];
        let mut r = remaining;
        for c in cards.iter_mut().take(m) {
            *c = r.trailing_zeros();
            r &= r - 1;
        }
        for p in unrank_subset(part, m, order) {
            masks[seat] |= 1 << cards[p];
        }
        remaining &= !masks[seat];
    }
    masks[3] = remaining;
    Deal::from_masks_unchecked(masks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_ranks_are_bijective_on_a_small_case() {
        // All 13-subsets of 14 positions: ranks 0..14 in both orders, inverse of unrank.
        for order in [Order::Colex, Order::Lex] {
            for rank in 0..14u64 {
                let pos = unrank_subset(rank, 14, order);
                assert!(pos.windows(2).all(|w| w[0] < w[1]));
                assert_eq!(rank_subset(&pos, 14, order), rank);
            }
        }
        // Lex order: {0..12} first, {1..13} last.
        let first: [usize; 13] = std::array::from_fn(|j| j);
        assert_eq!(rank_subset(&first, 14, Order::Lex), 0);
        let last: [usize; 13] = std::array::from_fn(|j| j + 1);
        assert_eq!(rank_subset(&last, 14, Order::Lex), 13);
    }
}
