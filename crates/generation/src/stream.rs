//! Reproducible uniformly random deals from a 256-bit seed.
//!
//! # Derivation (stable: a set can be re-derived from its seed by any program)
//!
//! The deal of board `k` (1-based, any `u64` ≥ 1) depends only on the seed and `k`:
//!
//! 1. Take the ChaCha20 keystream (20 rounds, original Bernstein layout: 64-bit block counter,
//!    64-bit nonce) with key = the 32 seed bytes and nonce = 0. Block `k` (64 bytes, counter
//!    = k) is read as 16 little-endian 32-bit words `w0..w15`.
//! 2. Candidates `x_j = w(3j) + w(3j+1)·2³² + w(3j+2)·2⁶⁴` for j = 0..5 (words 0..15; w15 is
//!    unused). The first `x_j < D` is the board's rank (0-based).
//! 3. If none is below D (probability 0.323⁵ ≈ 0.35 %), continue with the keystream of the same
//!    key and nonce = k, from its block 0: successive 3-word candidates as above, until one is
//!    below D. (Nonce k ≥ 1 never meets the nonce-0 stream of step 1.)
//! 4. The deal is the Pavlicek unrank (FORMATS.md §1a) of that rank: its hand-record number
//!    is rank + 1.
//!
//! This is rand_chacha's `ChaCha20Rng::from_seed(seed)` with `set_word_pos(16·k)` for step 1
//! and `set_stream(k)` for step 3. Rejection keeps the rank exactly uniform below D, so every
//! deal is equally likely. Because each board has its own block, any range of boards can be
//! generated alone, in any order, on any number of threads, with identical results.

use std::fmt;
use std::sync::mpsc;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::error::{Error, ErrorKind};
use crate::model::deal::Deal;
use crate::model::number::{DEALS, Scheme, unrank_many};
use crate::predeal::Predeal;

/// A 256-bit generation seed, written as 64 hex characters.
///
/// ```
/// use dealdex::Seed;
/// let s: Seed = "00".repeat(32).parse().unwrap();
/// assert_eq!(s.to_string(), "0".repeat(64));
/// assert!("abc".parse::<Seed>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A fresh seed from the operating system's CSPRNG.
    ///
    /// # Errors
    /// [`ErrorKind::OsRandom`] when the OS source fails.
    pub fn from_os() -> Result<Seed, Error> {
        use rand::TryRng;
        let mut s = [0u8; 32];
        rand::rngs::SysRng
            .try_fill_bytes(&mut s)
            .map_err(|e| ErrorKind::OsRandom(e.to_string()))?;
        Ok(Seed(s))
    }

    /// SHA-256 of the 32 seed bytes: what the store records instead of the seed.
    pub fn sha256(&self) -> [u8; 32] {
        Sha256::digest(self.0).into()
    }

    /// The 0-based Pavlicek rank of board `k`'s deal (see the module docs), below D.
    pub fn board_rank(&self, k: u64) -> u128 {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_word_pos(16 * k as u128);
        let mut words = [0u32; 16];
        for w in words.iter_mut() {
            *w = rng.next_u32();
        }
        self.rank_from_block(k, &words)
    }

    /// Steps 2 and 3 of the derivation for board `k` given its 16-word block.
    fn rank_from_block(&self, k: u64, w: &[u32; 16]) -> u128 {
        self.rank_below(k, w, DEALS)
    }

    /// Steps 2 and 3 with candidates masked to the bit length of `bound` and accepted below
    /// it (for `bound` = D the mask keeps all 96 bits: the plain derivation).
    fn rank_below(&self, k: u64, w: &[u32; 16], bound: u128) -> u128 {
        let mask = if bound <= 1 {
            0
        } else {
            u128::MAX >> (bound - 1).leading_zeros()
        };
        for j in 0..5 {
            let x = w[3 * j] as u128 | (w[3 * j + 1] as u128) << 32 | (w[3 * j + 2] as u128) << 64;
            if x & mask < bound {
                return x & mask;
            }
        }
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_stream(k);
        loop {
            let x = rng.next_u32() as u128
                | (rng.next_u32() as u128) << 32
                | (rng.next_u32() as u128) << 64;
            if x & mask < bound {
                return x & mask;
            }
        }
    }

    /// Fills `out` with the deals of boards `first, first+1, …` completing `predeal`: the
    /// derivation of the module docs with the bound D replaced by the number of completions
    /// (candidates masked to its bit length) and the Pavlicek unrank by
    /// [`Predeal::complete`].
    pub fn fill_predealt(&self, predeal: &Predeal, first: u64, out: &mut [Deal]) {
        let mut rng = self.stream_at(first);
        let mut block = [0u8; 64];
        for (j, o) in out.iter_mut().enumerate() {
            rng.fill_bytes(&mut block);
            let words: [u32; 16] = std::array::from_fn(|w| {
                u32::from_le_bytes(block[4 * w..4 * w + 4].try_into().expect("4 bytes"))
            });
            let rank = self.rank_below(first + j as u64, &words, predeal.completions());
            *o = predeal.complete(rank);
        }
    }

    /// The deal of board `k` (1-based).
    ///
    /// ```
    /// let seed: dealdex::Seed = "11".repeat(32).parse().unwrap();
    /// let d = seed.board_deal(7);
    /// assert_eq!(d.number(dealdex::Scheme::Pavlicek), seed.board_rank(7) + 1);
    /// ```
    pub fn board_deal(&self, k: u64) -> Deal {
        Deal::from_number(self.board_rank(k) + 1, Scheme::Pavlicek).expect("rank below D")
    }

    /// Fills `out` with the deals of boards `first, first+1, …` in order, reading the keystream
    /// sequentially (much faster than [`Seed::board_deal`] per board).
    pub fn fill_deals(&self, first: u64, out: &mut [Deal]) {
        // Small batches keep the ranks in L1 between drawing and unranking.
        const BATCH: usize = 64;
        let mut rng = self.stream_at(first);
        let mut ranks = [0u128; BATCH];
        for (c, deals) in out.chunks_mut(BATCH).enumerate() {
            let ranks = &mut ranks[..deals.len()];
            self.draw_ranks(&mut rng, first + (c * BATCH) as u64, ranks);
            unrank_many(ranks, Scheme::Pavlicek, deals);
        }
    }

    /// Fills `out` with the 0-based Pavlicek ranks ([`Seed::board_rank`]) of boards
    /// `first, first+1, …`.
    pub fn fill_ranks(&self, first: u64, out: &mut [u128]) {
        let mut rng = self.stream_at(first);
        self.draw_ranks(&mut rng, first, out);
    }

    /// The nonce-0 keystream positioned at board `first`'s block.
    fn stream_at(&self, first: u64) -> ChaCha20Rng {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_word_pos(16 * first as u128);
        rng
    }

    /// Draws the ranks of boards `first, first+1, …` from `rng`, positioned at `first`.
    fn draw_ranks(&self, rng: &mut ChaCha20Rng, first: u64, out: &mut [u128]) {
        let mut block = [0u8; 64];
        for (j, o) in out.iter_mut().enumerate() {
            // One whole keystream block per board: the 16 words, little-endian.
            rng.fill_bytes(&mut block);
            let words: [u32; 16] = std::array::from_fn(|w| {
                u32::from_le_bytes(block[4 * w..4 * w + 4].try_into().expect("4 bytes"))
            });
            *o = self.rank_from_block(first + j as u64, &words);
        }
    }
}

impl fmt::Display for Seed {
    /// 64 lowercase hex characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Seed {
    /// Shows only the SHA-256 prefix: seeds are secrets and must not leak into logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = self.sha256();
        write!(
            f,
            "Seed(sha256 {:02x}{:02x}{:02x}{:02x}…)",
            h[0], h[1], h[2], h[3]
        )
    }
}

impl std::str::FromStr for Seed {
    type Err = Error;

    /// Parses 64 hex characters (either case; surrounding white space ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lead = s.len() - s.trim_start().len();
        let t = s.trim();
        let n = t.chars().count();
        if n != 64 {
            return Err(ErrorKind::SeedLength { found: n }.into());
        }
        let mut out = [0u8; 32];
        for (i, c) in t.chars().enumerate() {
            let v = c.to_digit(16).ok_or(ErrorKind::SeedNotHex {
                column: lead + i + 1,
                found: c,
            })? as u8;
            out[i / 2] |= if i % 2 == 0 { v << 4 } else { v };
        }
        Ok(Seed(out))
    }
}

/// Deals a chunk of work covers in [`generate_chunks`].
pub const CHUNK: usize = 16_384;

/// Generates boards `first ..= first + count − 1` in parallel (rayon) and hands the results to
/// `consume` in board order, in bounded memory.
///
/// Chunks of [`CHUNK`] consecutive boards are generated and passed to `make` (which runs on the
/// worker threads: format or encode there) together with the chunk's first board number;
/// `consume` runs on the calling thread and receives each chunk's result in order. At most a
/// few windows of chunks are in flight, so memory does not grow with `count`.
///
/// # Errors
/// The first error `consume` returns; generation stops soon after it.
///
/// ```
/// let seed: dealdex::Seed = "22".repeat(32).parse().unwrap();
/// let mut n = 0;
/// dealdex::generate_chunks(&seed, 1, 40_000, |first, deals| (first, deals.len()), |(first, len)| {
///     assert_eq!(first, 1 + n as u64);
///     n += len;
///     Ok::<(), ()>(())
/// }).unwrap();
/// assert_eq!(n, 40_000);
/// ```
pub fn generate_chunks<T: Send, E>(
    seed: &Seed,
    first: u64,
    count: u64,
    make: impl Fn(u64, &[Deal]) -> T + Sync,
    consume: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E> {
    generate_chunks_with(seed, None, first, count, make, consume)
}

/// [`generate_chunks`] with an optional predeal: the deals complete it
/// ([`Seed::fill_predealt`]).
///
/// # Errors
/// The first error `consume` returns.
pub fn generate_chunks_with<T, E, M, C>(
    seed: &Seed,
    predeal: Option<&Predeal>,
    first: u64,
    count: u64,
    make: M,
    consume: C,
) -> Result<(), E>
where
    T: Send,
    M: Fn(u64, &[Deal]) -> T + Sync,
    C: FnMut(T) -> Result<(), E>,
{
    generate_chunks_sized(seed, predeal, (first, count), CHUNK, make, consume)
}

/// [`generate_chunks_with`] in chunks of `chunk` deals.
fn generate_chunks_sized<T: Send, E>(
    seed: &Seed,
    predeal: Option<&Predeal>,
    (first, count): (u64, u64),
    chunk: usize,
    make: impl Fn(u64, &[Deal]) -> T + Sync,
    consume: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E> {
    crate::model::number::warm_up();
    par_chunks_sized(
        count,
        chunk,
        |offset, len| {
            let start = first + offset;
            let mut deals = vec![Deal::from_masks_unchecked(PLACEHOLDER); len];
            match predeal {
                Some(p) => seed.fill_predealt(p, start, &mut deals),
                None => seed.fill_deals(start, &mut deals),
            }
            make(start, &deals)
        },
        consume,
    )
}

/// What [`first_matching`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MatchingDeals {
    /// The matching deals, in stream order (not serialized: a report carries counts).
    #[serde(skip)]
    pub deals: Vec<Deal>,
    /// Deals drawn from the stream to find them: the last match's place in the stream,
    /// counted from the first deal drawn (1-based); when [`first_matching_within`] found
    /// fewer than asked, every deal it drew (its bound).
    pub drawn: u64,
    /// Deals the predicate was tested on: those drawn, and those tested in parallel past the
    /// last match (work done for nothing, kept small by the caller's chunk size).
    pub tested: u64,
}

/// How a search of [`first_matching_within`] is going: reported once a chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawProgress {
    /// Deals drawn from the stream so far (all of them tested).
    pub drawn: u64,
    /// Of those, deals that matched.
    pub matched: u64,
}

/// Draws deals `first, first + 1, …` of the seed's stream (completing `predeal` when given)
/// and keeps those `matches` accepts until `want` of them matched: generation that stops
/// early, on all cores. Reproducible: the result is the first `want` matching deals of the
/// stream, whatever the thread count. `progress` is called with the number found so far, on
/// the calling thread, once a chunk.
///
/// The deals are tested on rayon's threads in chunks of `chunk` deals (at least 1), a few
/// windows of chunks in flight, so some deals past the last match are tested for nothing: a
/// fast test suits [`CHUNK`], a slow one wants fewer, to keep that waste to a few
/// milliseconds (the engine's `query::Query::search_chunk` sizes the chunks for a query).
///
/// The stream has 2^64 deals, so a test that no deal passes runs for ever: refuse those
/// first (a query's `Query::never_matches`, in the engine), and bound the draws of rare
/// ones with [`first_matching_within`].
///
/// ```
/// use dealdex::{Seed, query::Query};
/// let seed: Seed = "11".repeat(32).parse()?;
/// let strong = Query::parse("hcp(N) >= 20")?;
/// let (chunk, test) = (strong.search_chunk(), |d: &dealdex::Deal| strong.matches(d));
/// let found = dealdex::first_matching(&seed, None, (1, 5), chunk, test, &mut |_| {});
/// assert_eq!(found.deals.len(), 5);
/// assert!(found.deals.iter().all(|d| strong.matches(d)));
/// assert!(found.drawn >= 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn first_matching(
    seed: &Seed,
    predeal: Option<&Predeal>,
    (first, want): (u64, u64),
    chunk: usize,
    matches: impl Fn(&Deal) -> bool + Sync,
    progress: &mut dyn FnMut(u64),
) -> MatchingDeals {
    first_matching_within(
        seed,
        predeal,
        (first, want),
        u64::MAX,
        chunk,
        matches,
        &mut |p| progress(p.matched),
    )
}

/// [`first_matching`] that draws at most `max_draws` deals (deals `first ..= first +
/// max_draws − 1` of the stream, and never past the stream's end): when fewer than `want`
/// of those match, it returns the ones that did, with `drawn` = the deals drawn (all of
/// them). So `deals.len() < want` says the bound was reached; the result is still
/// reproducible (the matches among exactly those deals). `progress` gets the deals drawn
/// and matched so far, on the calling thread, once a chunk.
///
/// ```
/// use dealdex::{Seed, query::Query};
/// let seed: Seed = "11".repeat(32).parse()?;
/// // Possible, but about 1 deal in 10^10 or so: not within 20,000 draws.
/// let rare = Query::parse("hcp(N) >= 36")?;
/// let (chunk, test) = (rare.search_chunk(), |d: &dealdex::Deal| rare.matches(d));
/// let found =
///     dealdex::first_matching_within(&seed, None, (1, 2), 20_000, chunk, test, &mut |_| {});
/// assert_eq!((found.deals.len(), found.drawn), (0, 20_000));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn first_matching_within(
    seed: &Seed,
    predeal: Option<&Predeal>,
    (first, want): (u64, u64),
    max_draws: u64,
    chunk: usize,
    matches: impl Fn(&Deal) -> bool + Sync,
    progress: &mut dyn FnMut(DrawProgress),
) -> MatchingDeals {
    /// Stops the stream once enough deals matched.
    struct Enough;
    let mut out = MatchingDeals {
        deals: Vec::with_capacity(want.min(1 << 24) as usize),
        ..MatchingDeals::default()
    };
    if want == 0 {
        return out;
    }
    let tested = std::sync::atomic::AtomicU64::new(0);
    // Board u64::MAX is not drawn: the stream ends at u64::MAX − 1, as it always has here.
    let draws = max_draws.min(u64::MAX - first);
    let _stopped = generate_chunks_sized(
        seed,
        predeal,
        (first, draws),
        chunk,
        |start, deals| {
            tested.fetch_add(deals.len() as u64, std::sync::atomic::Ordering::Relaxed);
            let hits: Vec<(u64, Deal)> = deals
                .iter()
                .enumerate()
                .filter(|(_, d)| matches(d))
                .map(|(j, d)| (start + j as u64, *d))
                .collect();
            (deals.len() as u64, hits)
        },
        |(len, hits): (u64, Vec<(u64, Deal)>)| -> Result<(), Enough> {
            for (ordinal, d) in hits {
                out.deals.push(d);
                if out.deals.len() as u64 == want {
                    out.drawn = ordinal - first + 1;
                    return Err(Enough);
                }
            }
            out.drawn += len;
            progress(DrawProgress {
                drawn: out.drawn,
                matched: out.deals.len() as u64,
            });
            Ok(())
        },
    );
    out.tested = tested.into_inner();
    out
}

/// Runs `make(offset, len)` over `0..count` in chunks of [`CHUNK`] on rayon's threads and
/// hands the results to `consume` on the calling thread in offset order, with at most a few
/// windows of chunks in flight (bounded memory whatever `count`).
///
/// # Errors
/// The first error `consume` returns; the workers stop after the window they are in.
///
/// ```
/// let mut next = 0;
/// dealdex::par_chunks_ordered(100_000, |offset, len| (offset, len), |(offset, len)| {
///     assert_eq!(offset, next);
///     next += len as u64;
///     Ok::<(), ()>(())
/// }).unwrap();
/// assert_eq!(next, 100_000);
/// ```
pub fn par_chunks_ordered<T, E, M, C>(count: u64, make: M, consume: C) -> Result<(), E>
where
    T: Send,
    M: Fn(u64, usize) -> T + Sync,
    C: FnMut(T) -> Result<(), E>,
{
    par_chunks_sized(count, CHUNK, make, consume)
}

/// [`par_chunks_ordered`] in chunks of `chunk` (at least 1) items.
fn par_chunks_sized<T, E, M, C>(count: u64, chunk: usize, make: M, mut consume: C) -> Result<(), E>
where
    T: Send,
    M: Fn(u64, usize) -> T + Sync,
    C: FnMut(T) -> Result<(), E>,
{
    let chunk = chunk.max(1) as u64;
    let chunks = count.div_ceil(chunk);
    let window = (rayon::current_num_threads() * 4) as u64;
    let (tx, rx) = mpsc::sync_channel::<T>(window as usize * 2);
    std::thread::scope(|scope| {
        let make = &make;
        scope.spawn(move || {
            let mut w0 = 0;
            while w0 < chunks {
                let w1 = (w0 + window).min(chunks);
                let results: Vec<T> = (w0..w1)
                    .into_par_iter()
                    .map(|c| {
                        let offset = c * chunk;
                        make(offset, (count - offset).min(chunk) as usize)
                    })
                    .collect();
                for r in results {
                    if tx.send(r).is_err() {
                        return; // the consumer stopped
                    }
                }
                w0 = w1;
            }
        });
        // rx moves in here so that an early return drops it, which makes the producer's next
        // send fail and stop; the scope then joins it.
        let rx = rx;
        for r in rx.iter() {
            consume(r)?;
        }
        Ok(())
    })
}

/// A valid deal to fill buffers with before they are overwritten.
const PLACEHOLDER: [u64; 4] = [0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_and_single_board_agree() {
        let seed: Seed = "0123456789abcdef".repeat(4).parse().unwrap();
        let mut ranks = vec![0u128; 300];
        seed.fill_ranks(5, &mut ranks);
        for (j, &i) in ranks.iter().enumerate() {
            assert_eq!(seed.board_rank(5 + j as u64), i);
            assert!(i < DEALS);
        }
    }

    #[test]
    fn fallback_stream_is_reached_and_uniform_below_d() {
        // Over enough boards some need the fallback (p ≈ 0.35 %); all stay below D.
        let seed = Seed([7; 32]);
        let mut fallbacks = 0;
        for k in 1..3000u64 {
            let mut rng = ChaCha20Rng::from_seed(seed.0);
            rng.set_word_pos(16 * k as u128);
            let w: Vec<u32> = (0..16).map(|_| rng.next_u32()).collect();
            let any = (0..5).any(|j| {
                (w[3 * j] as u128 | (w[3 * j + 1] as u128) << 32 | (w[3 * j + 2] as u128) << 64)
                    < DEALS
            });
            if !any {
                fallbacks += 1;
            }
            assert!(seed.board_rank(k) < DEALS);
        }
        assert!(fallbacks > 0 && fallbacks < 40, "{fallbacks}");
    }

    #[test]
    fn seed_errors_name_the_column() {
        let mut s = "a".repeat(64);
        s.replace_range(9..10, "g");
        assert_eq!(
            s.parse::<Seed>().unwrap_err().into_kind(),
            ErrorKind::SeedNotHex {
                column: 10,
                found: 'g'
            }
        );
    }
}
