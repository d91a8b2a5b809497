//! Big Deal 2.0's deal stream (`bigdealx`), bit for bit (SQUAREDEAL.md §1).
//!
//! Inputs: a *wizard* string W (bigdealx `-W`) and one or more *entropy* strings E1, E2, …
//! (`-e`). Then
//!
//! ```text
//! seed_random = RIPEMD-160(E1 || E2 || …)        (all entropy bytes in order, one hash)
//! seed_owner  = RIPEMD-160(W)
//! for counter c = 1, 2, 3, …                     (continues across boards)
//!     h = RIPEMD-160(LE32(c) || seed_random || seed_owner)     (44 bytes hashed)
//!     g = the first 12 bytes of h as a big-endian 96-bit integer
//!     accept g if g < D, else try the next counter
//! ```
//!
//! The k-th accepted g is the deal of the k-th board of the run: its Big Deal Gödel number
//! (FORMATS.md §1c, 0-based), so the deal is `Deal::from_number(g, Scheme::BigDeal)`.
//! Board numbers only label the output: the deals depend on how many boards are drawn, not on
//! their numbers.
//!
//! ```
//! use dealdex::bigdeal::BigDealStream;
//! // SQUAREDEAL.md §3: World Bridge Games 2024, session 1,1.
//! let mut s = BigDealStream::new(
//!     b"hrzkVbQb9F0QhgIYEwfBUwKjNHDoGZ",
//!     &[b"XMYxVBbJZaWXnJf233CI5MJo7buhPRNDMyNzUuOTE=original"],
//! );
//! assert_eq!(
//!     s.next_deal().unwrap().to_string(),
//!     "N:AJ65.K82.AK8.J75 8.AQT75.QJT4.Q64 KT2..96532.KT983 Q9743.J9643.7.A2"
//! );
//! ```

use rayon::prelude::*;
use ripemd::{Digest, Ripemd160};

use crate::model::deal::Deal;
use crate::model::number::{DEALS, Scheme, unrank_many};

/// One counter of the stream: the candidate it hashed to and whether it was accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The counter c (1-based).
    pub counter: u32,
    /// g, the first 12 bytes of the counter's hash as a big-endian integer (< 2⁹⁶).
    pub value: u128,
    /// True when g < D: g is then the next board's Gödel number.
    pub accepted: bool,
}

/// bigdealx's deal stream for one run (SQUAREDEAL.md §1): an iterator over the 0-based Big
/// Deal Gödel numbers of boards 1, 2, 3, … of the run.
///
/// The iterator ends (returns `None`) only when the 32-bit counter is exhausted, after about
/// 2.9 × 10⁹ boards; bigdealx would wrap around there.
#[derive(Clone, Debug)]
pub struct BigDealStream {
    seed_random: [u8; 20],
    seed_owner: [u8; 20],
    /// The last counter hashed (0 before the first).
    counter: u32,
    /// How many counters were rejected so far.
    rejected: u64,
    /// How many boards were drawn so far.
    boards: u64,
}

/// Counters hashed per parallel batch in [`BigDealStream::fill_numbers`].
const BATCH: usize = 1 << 14;

impl BigDealStream {
    /// A stream for wizard `wizard` and entropy strings `entropies` (bigdealx's `-W` and
    /// `-e` arguments, as bytes, in order), positioned before board 1.
    pub fn new(wizard: &[u8], entropies: &[&[u8]]) -> BigDealStream {
        let mut h = Ripemd160::new();
        for e in entropies {
            h.update(e);
        }
        BigDealStream {
            seed_random: h.finalize().into(),
            seed_owner: Ripemd160::digest(wizard).into(),
            counter: 0,
            rejected: 0,
            boards: 0,
        }
    }

    /// RIPEMD-160 of the concatenated entropy strings (20 bytes).
    pub fn seed_random(&self) -> [u8; 20] {
        self.seed_random
    }

    /// RIPEMD-160 of the wizard string (20 bytes).
    pub fn seed_owner(&self) -> [u8; 20] {
        self.seed_owner
    }

    /// SHA-256 of `seed_random || seed_owner` (40 bytes): what the store records for a set
    /// made from this stream (the two seeds determine every deal; they are not stored).
    pub fn sha256(&self) -> [u8; 32] {
        use sha2::{Digest as _, Sha256};
        let mut h = Sha256::new();
        h.update(self.seed_random);
        h.update(self.seed_owner);
        h.finalize().into()
    }

    /// The last counter hashed so far (0 before the first board).
    pub fn counter(&self) -> u32 {
        self.counter
    }

    /// How many counters were rejected (g ≥ D) so far.
    pub fn rejected(&self) -> u64 {
        self.rejected
    }

    /// How many boards were drawn so far.
    pub fn boards(&self) -> u64 {
        self.boards
    }

    /// g for counter `c`: the first 12 bytes of RIPEMD-160(LE32(c) || seed_random ||
    /// seed_owner), big-endian.
    pub fn candidate(&self, c: u32) -> u128 {
        let mut h = Ripemd160::new();
        h.update(c.to_le_bytes());
        h.update(self.seed_random);
        h.update(self.seed_owner);
        let d = h.finalize();
        d[..12].iter().fold(0u128, |g, &b| g << 8 | b as u128)
    }

    /// Hashes the next counter and returns what it gave; an accepted step is the next board
    /// (it counts in [`BigDealStream::boards`]). `None` once the 32-bit counter is exhausted.
    pub fn step(&mut self) -> Option<Step> {
        let counter = self.counter.checked_add(1)?;
        self.counter = counter;
        let value = self.candidate(counter);
        let accepted = value < DEALS;
        if accepted {
            self.boards += 1;
        } else {
            self.rejected += 1;
        }
        Some(Step {
            counter,
            value,
            accepted,
        })
    }

    /// The next board's deal. `None` once the 32-bit counter is exhausted.
    pub fn next_deal(&mut self) -> Option<Deal> {
        let g = self.next()?;
        Some(Deal::from_rank(g, Scheme::BigDeal).expect("g < D"))
    }

    /// Fills `out` with the Gödel numbers of the next `out.len()` boards, hashing large runs
    /// in parallel (rayon); the result is what [`Iterator::next`] would give one by one.
    /// Returns how many were filled: fewer than `out.len()` only when the counter runs out.
    pub fn fill_numbers(&mut self, out: &mut [u128]) -> usize {
        let mut filled = 0;
        while filled < out.len() {
            let want = out.len() - filled;
            if want < 64 {
                match self.next() {
                    Some(g) => {
                        out[filled] = g;
                        filled += 1;
                        continue;
                    }
                    None => break,
                }
            }
            // Acceptance is about 0.323 rejected a counter: hash a batch with some margin,
            // keep the accepted values in order up to `want`, and resume after the last used.
            let remaining = (u32::MAX - self.counter) as usize;
            let n = (want + want / 2 + 16).min(BATCH).min(remaining);
            if n == 0 {
                break;
            }
            let base = self.counter;
            let values: Vec<u128> = (1..=n as u32)
                .into_par_iter()
                .map(|j| self.candidate(base + j))
                .collect();
            for (j, &g) in values.iter().enumerate() {
                if filled == out.len() {
                    break;
                }
                self.counter = base + j as u32 + 1;
                if g < DEALS {
                    out[filled] = g;
                    filled += 1;
                    self.boards += 1;
                } else {
                    self.rejected += 1;
                }
            }
        }
        filled
    }

    /// Fills `out` with the deals of the next `out.len()` boards (hashing and unranking in
    /// parallel). Returns how many were filled (fewer only when the counter runs out).
    pub fn fill_deals(&mut self, out: &mut [Deal]) -> usize {
        let mut g = vec![0u128; out.len()];
        let n = self.fill_numbers(&mut g);
        const PART: usize = 1024;
        out[..n]
            .par_chunks_mut(PART)
            .zip(g[..n].par_chunks(PART))
            .for_each(|(o, g)| unrank_many(g, Scheme::BigDeal, o));
        n
    }

    /// The deals of the next `n` boards (fewer only when the counter runs out).
    ///
    /// Memory grows with the deals actually drawn, batch by batch (nothing is reserved for
    /// `n` up front): a huge `n`, even `usize::MAX`, ends when the counter does.
    pub fn take_deals(&mut self, n: usize) -> Vec<Deal> {
        let blank = Deal::from_rank(0, Scheme::BigDeal).expect("0 < D");
        let mut out = Vec::new();
        while out.len() < n {
            let k = (n - out.len()).min(BATCH);
            let start = out.len();
            out.resize(start + k, blank);
            let got = self.fill_deals(&mut out[start..]);
            if got < k {
                out.truncate(start + got);
                break;
            }
        }
        out
    }

    /// Skips the next `n` boards (for runs that start after board 1).
    pub fn skip_boards(&mut self, n: u64) {
        let mut buf = vec![0u128; BATCH];
        let mut left = n;
        while left > 0 {
            let k = left.min(BATCH as u64) as usize;
            if self.fill_numbers(&mut buf[..k]) < k {
                return;
            }
            left -= k as u64;
        }
    }
}

impl Iterator for BigDealStream {
    type Item = u128;

    /// The next board's 0-based Gödel number (below D).
    fn next(&mut self) -> Option<u128> {
        loop {
            let s = self.step()?;
            if s.accepted {
                return Some(s.value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02X}")).collect()
    }

    const W: &[u8] = b"hrzkVbQb9F0QhgIYEwfBUwKjNHDoGZ";
    const E: &[u8] = b"XMYxVBbJZaWXnJf233CI5MJo7buhPRNDMyNzUuOTE=original";

    /// SQUAREDEAL.md §3: the seeds of WBG 2024 session 1,1.
    #[test]
    fn seeds_of_the_worked_example() {
        let s = BigDealStream::new(W, &[E]);
        assert_eq!(
            hex(&s.seed_random()),
            "648CC374641E68A57C20772F6ACF5D4565033E8F"
        );
        assert_eq!(
            hex(&s.seed_owner()),
            "E092AB0CCAAF9C6CD9C3708642E5E8523C695C89"
        );
    }

    /// The entropy strings are hashed as one concatenation, however they are split.
    #[test]
    fn entropy_split_does_not_matter() {
        let a = BigDealStream::new(W, &[E]);
        let b = BigDealStream::new(W, &[&E[..30], &E[30..42], &E[42..]]);
        assert_eq!(a.seed_random(), b.seed_random());
        let c = BigDealStream::new(W, &[&E[..49]]);
        assert_ne!(a.seed_random(), c.seed_random());
    }

    /// SQUAREDEAL.md §3: counters 10, 11, 14, 17 are rejected; 16 boards use counters 1–20.
    #[test]
    fn rejected_counters_of_the_worked_example() {
        let mut s = BigDealStream::new(W, &[E]);
        let mut rejected = Vec::new();
        let mut accepted = 0;
        while accepted < 16 {
            let step = s.step().unwrap();
            if step.accepted {
                accepted += 1;
            } else {
                assert!(step.value >= DEALS);
                rejected.push(step.counter);
            }
        }
        assert_eq!(rejected, [10, 11, 14, 17]);
        assert_eq!(s.counter(), 20);
        assert_eq!(s.rejected(), 4);
        assert_eq!(s.boards(), 16);
    }

    #[test]
    fn board_1_of_the_worked_example() {
        let mut s = BigDealStream::new(W, &[E]);
        assert_eq!(
            s.next_deal().unwrap().to_string(),
            "N:AJ65.K82.AK8.J75 8.AQT75.QJT4.Q64 KT2..96532.KT983 Q9743.J9643.7.A2"
        );
        assert_eq!(s.counter(), 1);
    }

    /// Near the end of the 32-bit counter, asking for more deals than are left gives the
    /// rest (this used to allocate `n` deals up front: `usize::MAX` panicked).
    #[test]
    fn take_deals_stops_at_the_end_of_the_counter() {
        let mut s = BigDealStream::new(W, &[E]);
        s.counter = u32::MAX - 100;
        let mut probe = s.clone();
        let left = probe.by_ref().count();
        assert!(left > 0 && left <= 100, "{left}");
        let deals = s.take_deals(usize::MAX);
        assert_eq!(deals.len(), left);
        assert_eq!(s.counter(), u32::MAX);
        assert_eq!(s.next_deal(), None);
    }

    /// Bulk filling (parallel hashing) gives the one-by-one stream, counters and all.
    #[test]
    fn bulk_equals_one_by_one() {
        let mut one = BigDealStream::new(b"w", &[b"e1", b"e2"]);
        let mut bulk = one.clone();
        let seq: Vec<u128> = one.by_ref().take(40_000).collect();
        let mut got = vec![0u128; 40_000];
        assert_eq!(bulk.fill_numbers(&mut got[..7]), 7);
        assert_eq!(bulk.fill_numbers(&mut got[7..]), 40_000 - 7);
        assert_eq!(seq, got);
        assert_eq!(one.counter(), bulk.counter());
        assert_eq!(one.rejected(), bulk.rejected());
        let mut deals = bulk.clone().take_deals(100);
        let mut again = bulk.clone();
        for d in deals.drain(..) {
            assert_eq!(Some(d), again.next_deal());
        }
        let mut skipped = BigDealStream::new(b"w", &[b"e1", b"e2"]);
        skipped.skip_boards(40_000);
        assert_eq!(skipped.next(), bulk.next());
    }
}
