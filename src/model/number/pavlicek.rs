//! Fast Pavlicek rank/unrank (FORMATS.md §1a) on native integers.
//!
//! The published algorithm computes `x = k * left[seat] / c` for each card and seat. That
//! quotient is the number of deals of the remaining cards once the card goes to `seat`, i.e. a
//! multinomial coefficient of the remaining seat counts. We tabulate every multinomial
//! `(n+e+s+w)! / (n! e! s! w!)` for counts 0..=13 (15⁴ entries with a zero row for count −1),
//! so each card costs three table loads, two additions and three comparisons: no
//! multiplication or division at all. Unranking interleaves several deals in one loop so that
//! their dependency chains (each card's choice needs the previous one's counts) overlap.

use std::sync::LazyLock;

use crate::model::deal::Deal;

/// Table dimension per seat: counts −1..=13 stored at 0..=14.
const DIM: usize = 15;
/// Index step of one card less for N, E, S, W.
const STRIDE: [usize; 4] = [DIM * DIM * DIM, DIM * DIM, DIM, 1];
/// Index of the full deal (13, 13, 13, 13).
const START: usize = 14 * (STRIDE[0] + STRIDE[1] + STRIDE[2] + STRIDE[3]);

/// Multinomials by (n+1, e+1, s+1, w+1); zero where a count is −1.
static TABLE: LazyLock<Box<[u128]>> = LazyLock::new(|| {
    let mut t = vec![0u128; DIM * DIM * DIM * DIM].into_boxed_slice();
    for n in 1..DIM {
        for e in 1..DIM {
            for s in 1..DIM {
                for w in 1..DIM {
                    let p = n * STRIDE[0] + e * STRIDE[1] + s * STRIDE[2] + w;
                    t[p] = if n + e + s + w == 4 {
                        1
                    } else {
                        STRIDE.iter().map(|d| t[p - d]).sum()
                    };
                }
            }
        }
    }
    t
});

/// Cards dealt before every remaining count fits in 64 bits: from 35 cards left, the largest
/// multinomial is below 2⁶³.
const WIDE_CARDS: usize = 17;

/// The same table truncated to 64 bits; exact for states with at most 35 cards left, the
/// only ones looked up after [`WIDE_CARDS`] cards.
static TABLE64: LazyLock<Box<[u64]>> = LazyLock::new(|| TABLE.iter().map(|&v| v as u64).collect());

/// Forces the table so that the first timed call does not pay for it.
pub(crate) fn warm_up() {
    LazyLock::force(&TABLE64);
}

/// Rank of seat codes (0 = N … 3 = W, suited order): the 0-based Pavlicek index.
pub(crate) fn rank_codes(codes: &[u8; 52]) -> u128 {
    let t = &**TABLE;
    let mut p = START;
    let mut r = 0u128;
    for &s in &codes[..WIDE_CARDS] {
        let a = t[p - STRIDE[0]];
        let b = a + t[p - STRIDE[1]];
        let c = b + t[p - STRIDE[2]];
        r += [0, a, b, c][s as usize & 3];
        p -= STRIDE[s as usize & 3];
    }
    let t = &**TABLE64;
    let mut r64 = 0u64;
    for &s in &codes[WIDE_CARDS..] {
        let a = t[p - STRIDE[0]];
        let b = a + t[p - STRIDE[1]];
        let c = b + t[p - STRIDE[2]];
        r64 += [0, a, b, c][s as usize & 3];
        p -= STRIDE[s as usize & 3];
    }
    r + r64 as u128
}

/// The 0-based Pavlicek index of `deal`.
pub(crate) fn rank(deal: &Deal) -> u128 {
    rank_codes(&deal.seat_codes())
}

/// The deal with 0-based Pavlicek index `i`; `i` must be below D.
pub(crate) fn unrank(i: u128) -> Deal {
    Deal::from_masks_unchecked(unrank_lanes::<1>(&[i])[0])
}

/// Unranks `LANES` indices at once, interleaved card by card.
#[inline(always)]
fn unrank_lanes<const LANES: usize>(idx: &[u128; LANES]) -> [[u64; 4]; LANES] {
    let t = &**TABLE;
    let mut wide = *idx;
    let mut p = [START; LANES];
    let mut masks = [[0u64; 4]; LANES];
    for card in 0..WIDE_CARDS {
        for l in 0..LANES {
            let q = p[l];
            let a = t[q - STRIDE[0]];
            let b = a + t[q - STRIDE[1]];
            let c = b + t[q - STRIDE[2]];
            let x = wide[l];
            let s = (x >= a) as usize + (x >= b) as usize + (x >= c) as usize;
            wide[l] = x - [0, a, b, c][s];
            p[l] = q - STRIDE[s];
            masks[l][s] |= 1 << card;
        }
    }
    let t = &**TABLE64;
    let mut i = wide.map(|x| x as u64);
    for card in WIDE_CARDS..52 {
        for l in 0..LANES {
            let q = p[l];
            let a = t[q - STRIDE[0]];
            let b = a + t[q - STRIDE[1]];
            let c = b + t[q - STRIDE[2]];
            let x = i[l];
            let s = (x >= a) as usize + (x >= b) as usize + (x >= c) as usize;
            i[l] = x - [0, a, b, c][s];
            p[l] = q - STRIDE[s];
            masks[l][s] |= 1 << card;
        }
    }
    masks
}

/// Unranks every index in `idx` into `out` (same length), several deals at a time.
pub(crate) fn unrank_many(idx: &[u128], out: &mut [Deal]) {
    const L: usize = 4;
    assert_eq!(idx.len(), out.len());
    let mut chunks = idx.chunks_exact(L);
    let mut outs = out.chunks_exact_mut(L);
    for (c, o) in (&mut chunks).zip(&mut outs) {
        let masks = unrank_lanes::<L>(c.try_into().expect("chunk of L"));
        for (d, m) in o.iter_mut().zip(masks) {
            *d = Deal::from_masks_unchecked(m);
        }
    }
    for (&i, o) in chunks.remainder().iter().zip(outs.into_remainder()) {
        *o = unrank(i);
    }
}
