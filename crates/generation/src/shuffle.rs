//! The simulation stream of `dealdex dealer`: seeded shuffles, as the fastest dealer programs
//! deal, for runs of millions of deals where only the statistics matter.
//!
//! Tournament sets keep the value-stable, numbered stream of [`Seed`] (ChaCha20 → hand-record
//! number → deal, FORMATS.md §5): every board has a number anyone can check. A simulation
//! needs no numbers, only uniform, independent deals, and many of them; this stream draws
//! them about eight times faster:
//!
//! - The stream is cut into pieces of [`PIECE`] deals. Piece `p`'s generator is
//!   xoshiro256++ (`rand_xoshiro`), seeded with the 32 bytes at offset `32 p` of the ChaCha20
//!   keystream of the run's seed with nonce 1 (the board stream uses nonce 0). Pieces are
//!   independent, so any number of threads draws the same deals.
//! - Each deal picks North's, East's and South's missing cards one by one among the cards
//!   still undealt (a partial Fisher–Yates shuffle; West gets the rest): pick `t` is uniform
//!   in `0..m - t`, where `m` is the number of cards not predealt, and takes the pick-th
//!   undealt card in suited order.
//! - The picks come from 64-bit words by multiplication (a word `r` gives `⌊r·n / 2⁶⁴⌋` and
//!   keeps `r·n mod 2⁶⁴` for the next pick): a deal's picks are cut, in order, into at most
//!   four batches whose ranges multiply to at most 2⁵⁴, one word a batch; a word whose
//!   remainder falls below `2⁶⁴ mod product` is redrawn (fewer than one in 1,024), which
//!   makes every pick exactly uniform (Lemire's batched ranged integers).
//! - [`LANES`] deals are drawn side by side, and the stream takes their words batch by batch:
//!   for each batch in turn, the next `LANES` words of the piece's generator, word `l` for
//!   lane `l`; then each lane whose word is refused, in lane order, redraws from the next
//!   words, one at a time, until one is accepted.
//! - The picks are computed for all of a deal's batches side by side: the `LANES` words of
//!   every batch drawn first, then the batches' first multiplications together, then their
//!   second ones, and so on, which lets the processor overlap them. When one of those words
//!   is refused, the generator goes back to before them and the lanes' picks are drawn again
//!   batch by batch, as the stream has them: the same deals either way (only the order of
//!   the work differs while no word is refused).
//!
//! - The pick-th undealt card is found one of two ways ([`cpu`](crate::model::cpu) decides,
//!   once a process): with BMI2's `pdep`, one instruction a card, where `pdep` is fast
//!   (Intel; AMD from Zen 3); else by turning all of a deal's picks into ranks among the
//!   free cards at once, 16 or 32 deals side by side in byte vectors (`decode`), which
//!   needs nothing beyond the baseline instruction set. `DEALDEX_PORTABLE=1` forces the
//!   second, without AVX2 (what ARM machines run). The decode path also halves the
//!   multiplications: two consecutive picks of a batch, of ranges `n` and `n − 1`, come from
//!   one product by `n·(n − 1)`, whose high half is `first·(n − 1) + second` and whose low half
//!   is the word the two products in turn leave; the pair is split for 16 or 32 deals at once.
//!
//! The deals are uniform over the deals with the predealt cards, and value-stable: the same
//! seed gives the same deals on every machine (every path computes the same picks and cards,
//! and so do the side-by-side and batch-by-batch draws).

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::predeal::Predeal;
use super::stream::Seed;
use crate::model::cpu::{SelectPath, cpu};
use crate::model::deal::Deal;

/// Deals a piece of the stream holds; piece `p` holds deals `p·PIECE + 1 ..= (p+1)·PIECE`
/// (1-based).
pub const PIECE: usize = 512;

/// Deals drawn side by side.
pub const LANES: usize = 8;

/// A word's picks have ranges multiplying to at most 2^BATCH_BITS: a word is redrawn with
/// probability below 2^(BATCH_BITS − 64).
const BATCH_BITS: u32 = 54;

/// The most batches a deal needs (4 for every number of free cards and picks: checked in
/// [`Shuffler::new`]); the first multiplications of every batch are done side by side.
const SLOTS: usize = 4;

/// The row of [`Picks`] that takes the picks of a slot without one at that step.
const PAD_ROW: usize = 52;

/// A deal's picks in every lane: pick `t` of lane `l` at `[t][POSITION[l]]`, and a row
/// for the padding of [`Step`]s.
type Picks = [[u32; LANES]; PAD_ROW + 1];

/// Where each lane's pick is kept in a row of [`Picks`]: lanes `i` and `i + 4` side by
/// side, the order in which two 4-lane vectors of 64-bit products interleave into one of
/// 32-bit picks without a shuffle.
const POSITION: [usize; LANES] = [0, 2, 4, 6, 1, 3, 5, 7];

/// The `j`-th multiplication of every batch: by `n[b]` (the range of batch `b`'s `j`-th
/// pick, or 1 past its last), into row `row[b]` of [`Picks`] ([`PAD_ROW`] past its last).
#[derive(Clone, Copy, Debug)]
struct Step {
    n: [u64; SLOTS],
    row: [u8; SLOTS],
}

/// All 52 cards, one bit each in suited order.
const ALL: u64 = (1 << 52) - 1;

/// The picks one 64-bit word gives.
#[derive(Clone, Copy, Debug)]
struct Batch {
    /// The first pick (0-based).
    first: u8,
    /// The number of picks.
    len: u8,
    /// `2⁶⁴ mod product`: a remainder below it is redrawn.
    threshold: u64,
    /// Its products on the decode path: `Shuffler::products[first_product..end_product]`.
    first_product: u8,
    end_product: u8,
}

/// One product of the decode path's draw: a word times the range of its next pick, or of
/// its next two (`n·(n − 1)`, whose high half is the mixed-radix number `first·(n − 1) +
/// second`, split later for a row of deals at once by [`Split`]: half the multiplications).
#[derive(Clone, Copy, Debug)]
struct Product {
    /// The range: `n` or `n·(n − 1)`.
    n: u64,
    /// The row of the ranks (one pick) or of the pairs (two: the pair's index in
    /// [`Shuffler::splits`]) its high half goes to.
    row: u8,
    /// Whether it takes two picks.
    pair: bool,
}

/// How a row of pairs `v = first·d + second` becomes its two picks (`d` = the second's
/// range): `first = ⌊v·magic / 2^(16 + shift)⌋`, exact for every `v` below `(d + 1)·d`
/// (checked in [`Shuffler::new`]), a 16-bit high multiplication every vector unit has.
#[derive(Clone, Copy, Debug)]
struct Split {
    /// The row of the ranks of the first pick (the second's is the next one).
    row: u8,
    d: u16,
    magic: u16,
    shift: u8,
}

/// The most pairs a deal's picks make (52 picks at most).
const PAIR_ROWS: usize = 26;

/// The [`Split`] constants dividing by `d` exactly for every `v` below `(d + 1)·d`, if any.
fn split_by(d: u16) -> Option<(u16, u8)> {
    let bound = (u32::from(d) + 1) * u32::from(d);
    (0..16u8).rev().find_map(|shift| {
        let k = 16 + u32::from(shift);
        let magic = (1u64 << k).div_ceil(u64::from(d));
        let magic = u16::try_from(magic).ok()?;
        (0..bound)
            .all(|v| (v * u32::from(magic)) >> k == v / u32::from(d))
            .then_some((magic, shift))
    })
}

/// Deals from a seed by seeded shuffles (module docs), with optional predealt cards.
///
/// ```
/// use dealdex::{Seat, Seed};
/// use dealdex::shuffle::Shuffler;
/// let shuffler = Shuffler::new(&Seed([7; 32]), None);
/// let mut deals = [Seed([0; 32]).board_deal(1); 3];
/// shuffler.fill(0, &mut deals);
/// let mut again = deals;
/// shuffler.fill(0, &mut again);
/// assert_eq!(deals, again);
/// assert_eq!(deals[0].hand(Seat::West).len(), 13);
/// ```
#[derive(Clone, Debug)]
pub struct Shuffler {
    seed: Seed,
    /// Predealt cards, N E S W.
    fixed: [u64; 4],
    /// Cards North, East and South still need.
    need: [u8; 3],
    /// Cards not predealt.
    free: u64,
    /// Picks a deal takes: the cards North, East and South need.
    picks: usize,
    /// The bit of the free card of each rank (0-based, suited order) among the free cards;
    /// the rest 0.
    bit_at: [u64; 256],
    batches: Vec<Batch>,
    /// The batches' multiplications, step by step side by side.
    steps: Vec<Step>,
    /// The decode path's products, batch by batch.
    products: Vec<Product>,
    /// The decode path's pairs and how each is split.
    splits: Vec<Split>,
}

impl Shuffler {
    /// The stream of `seed`, dealing around `predeal`'s cards when given.
    pub fn new(seed: &Seed, predeal: Option<&Predeal>) -> Shuffler {
        let fixed = predeal.map_or([0; 4], |p| p.fixed().map(|h| h.mask()));
        let need = [0, 1, 2].map(|s| 13 - fixed[s].count_ones() as u8);
        let free = ALL & !(fixed[0] | fixed[1] | fixed[2] | fixed[3]);
        let m = free.count_ones() as usize;
        let picks = need.iter().map(|&n| n as usize).sum::<usize>();
        let mut batches = Vec::new();
        let (mut products, mut splits) = (Vec::new(), Vec::new());
        let mut first = 0;
        while first < picks {
            let (mut product, mut len) = (1u128, 0);
            while first + len < picks && product * ((m - first - len) as u128) <= 1 << BATCH_BITS {
                product *= (m - first - len) as u128;
                len += 1;
            }
            let product = product as u64;
            let start = products.len() as u8;
            let mut t = first;
            while t < first + len {
                let n = (m - t) as u64;
                let split = (t + 1 < first + len)
                    .then(|| split_by(n as u16 - 1))
                    .flatten();
                if let Some((magic, shift)) = split {
                    products.push(Product {
                        n: n * (n - 1),
                        row: splits.len() as u8,
                        pair: true,
                    });
                    splits.push(Split {
                        row: t as u8,
                        d: n as u16 - 1,
                        magic,
                        shift,
                    });
                    t += 2;
                } else {
                    products.push(Product {
                        n,
                        row: t as u8,
                        pair: false,
                    });
                    t += 1;
                }
            }
            batches.push(Batch {
                first: first as u8,
                len: len as u8,
                threshold: product.wrapping_neg() % product,
                first_product: start,
                end_product: products.len() as u8,
            });
            first += len;
        }
        assert!(
            batches.len() <= SLOTS,
            "a deal's picks need at most {SLOTS} words"
        );
        let longest = batches
            .iter()
            .map(|b| usize::from(b.len))
            .max()
            .unwrap_or(0);
        let steps = (0..longest)
            .map(|j| {
                let mut step = Step {
                    n: [1; SLOTS],
                    row: [PAD_ROW as u8; SLOTS],
                };
                for (b, batch) in batches.iter().enumerate() {
                    if j < usize::from(batch.len) {
                        let t = usize::from(batch.first) + j;
                        step.n[b] = (m - t) as u64;
                        step.row[b] = t as u8;
                    }
                }
                step
            })
            .collect();
        let mut bit_at = [0u64; 256];
        let mut rest = free;
        for b in bit_at.iter_mut().take(m) {
            *b = rest & rest.wrapping_neg();
            rest &= rest - 1;
        }
        Shuffler {
            seed: *seed,
            fixed,
            need,
            free,
            picks,
            bit_at,
            batches,
            steps,
            products,
            splits,
        }
    }

    /// Fills `out` (at most [`PIECE`] deals) with the first deals of piece `piece` (0-based).
    ///
    /// The work takes this machine's select path ([`cpu`]: `pdep`
    /// where it is fast, else the byte-vector decode); every path gives the same deals.
    ///
    /// # Panics
    /// When `out` holds more than [`PIECE`] deals.
    pub fn fill(&self, piece: u64, out: &mut [Deal]) {
        self.fill_with(cpu().select, piece, out);
    }

    /// [`Shuffler::fill`] on the given path.
    ///
    /// # Panics
    /// When `out` holds more than [`PIECE`] deals, or the path needs an instruction this
    /// machine lacks.
    fn fill_with(&self, path: SelectPath, piece: u64, out: &mut [Deal]) {
        assert!(out.len() <= PIECE, "a piece holds {PIECE} deals");
        let mut rng = self.piece_rng(piece);
        match path {
            #[cfg(target_arch = "x86_64")]
            SelectPath::Pdep => {
                assert!(
                    std::arch::is_x86_feature_detected!("bmi2")
                        && std::arch::is_x86_feature_detected!("avx2"),
                    "the pdep path needs BMI2 and AVX2"
                );
                // SAFETY: BMI2 and AVX2 are present, checked just above.
                unsafe { self.fill_pdep(&mut rng, out) }
            }
            #[cfg(target_arch = "x86_64")]
            SelectPath::Avx2 => {
                assert!(
                    std::arch::is_x86_feature_detected!("avx2"),
                    "the avx2 path needs AVX2"
                );
                // SAFETY: AVX2 is present, checked just above.
                unsafe { self.fill_decoded_avx2(&mut rng, out) }
            }
            #[cfg(not(target_arch = "x86_64"))]
            SelectPath::Pdep | SelectPath::Avx2 => panic!("the {} path needs x86-64", path.name()),
            SelectPath::Portable => self.fill_decoded::<16>(&mut rng, out),
        }
    }

    /// The `pdep` path: [`LANES`] deals at a time, one `pdep` a card.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,avx2")]
    fn fill_pdep(&self, rng: &mut Xoshiro256PlusPlus, out: &mut [Deal]) {
        let mut picks = [[0u32; LANES]; PAD_ROW + 1];
        for chunk in out.chunks_mut(LANES) {
            self.draw_picks(rng, &mut picks);
            let masks = self.select_pdep(&picks);
            for (d, m) in chunk.iter_mut().zip(masks) {
                *d = Deal::from_masks_unchecked(m);
            }
        }
    }

    /// The decode path with AVX2: 32 deals a byte vector.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn fill_decoded_avx2(&self, rng: &mut Xoshiro256PlusPlus, out: &mut [Deal]) {
        self.fill_decoded::<32>(rng, out)
    }

    /// The decode path, `W` deals at a time (a multiple of [`LANES`]): the picks of
    /// `W / LANES` groups of lanes drawn in turn (the stream's order), turned into ranks among
    /// the free cards side by side ([`decode`]), and each deal's cards read off its ranks.
    #[inline(always)]
    fn fill_decoded<const W: usize>(&self, rng: &mut Xoshiro256PlusPlus, out: &mut [Deal]) {
        let n = self.picks;
        // Row t: pick t of every deal, lane l of group g in column `g·LANES + l`.
        let mut ranks = [[0u8; W]; PAD_ROW];
        // Row k: pair k of every deal.
        let mut pairs = [[0u16; W]; PAIR_ROWS];
        for chunk in out.chunks_mut(W) {
            for g in 0..W / LANES {
                self.draw_ranks(rng, &mut ranks, &mut pairs, g * LANES);
            }
            // The pairs' two picks each, a row of deals at once (a 16-bit high product, a
            // shift, a low product and a subtraction, in any vector unit).
            for (s, v) in self.splits.iter().zip(&pairs) {
                let first: [u16; W] = std::array::from_fn(|c| {
                    ((u32::from(v[c]) * u32::from(s.magic)) >> 16) as u16 >> s.shift
                });
                let row = usize::from(s.row);
                ranks[row] = first.map(|x| x as u8);
                ranks[row + 1] = std::array::from_fn(|c| (v[c] - first[c] * s.d) as u8);
            }
            decode(&mut ranks[..n]);
            for (column, d) in chunk.iter_mut().enumerate() {
                let bit = |t: usize| self.bit_at[usize::from(ranks[t][column])];
                let mut masks = [0u64; 4];
                if self.need == [13; 3] {
                    // No predeal (the common case), unrolled.
                    for (seat, mask) in masks.iter_mut().take(3).enumerate() {
                        *mask = (13 * seat..13 * seat + 13).fold(0, |m, t| m | bit(t));
                    }
                } else {
                    let mut t = 0;
                    for (mask, &need) in masks.iter_mut().zip(&self.need) {
                        for _ in 0..need {
                            *mask |= bit(t);
                            t += 1;
                        }
                    }
                }
                masks[3] = self.free & !(masks[0] | masks[1] | masks[2]);
                for (mask, fixed) in masks.iter_mut().zip(self.fixed) {
                    *mask |= fixed;
                }
                *d = Deal::from_masks_unchecked(masks);
            }
        }
    }

    /// The next [`LANES`] deals' picks into columns `base..base + LANES` of `ranks` (lane
    /// order), as [`Shuffler::draw_picks`] draws them, by 64×64-bit products (one
    /// instruction or two on every 64-bit CPU) rather than the vector-friendly 32-bit ones.
    #[inline(always)]
    fn draw_ranks<const W: usize>(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        ranks: &mut [[u8; W]; PAD_ROW],
        pairs: &mut [[u16; W]; PAIR_ROWS],
        base: usize,
    ) {
        let saved = rng.clone();
        let mut words = [[0u64; LANES]; SLOTS];
        self.draw_words(rng, &mut words);
        // A batch's lanes side by side, a product a pick or two ([`Product`]): eight
        // independent products a row, which keeps the multiplier busy (one lane's chain at a
        // time waits on each product).
        for (b, words) in self.batches.iter().zip(words.iter_mut()) {
            // In registers through the batch (through `words` they went to memory and back
            // at every product).
            let mut w = *words;
            for p in &self.products[usize::from(b.first_product)..usize::from(b.end_product)] {
                let row = usize::from(p.row);
                if p.pair {
                    let lanes: &mut [u16; LANES] =
                        (&mut pairs[row][base..base + LANES]).try_into().unwrap();
                    for (v, x) in lanes.iter_mut().zip(w.iter_mut()) {
                        let full = u128::from(*x) * u128::from(p.n);
                        // A volatile store: plain ones were gathered into a vector, the
                        // eight products' halves crossing one by one into vector registers.
                        // SAFETY: `v` is a valid, aligned, exclusive reference.
                        unsafe { std::ptr::write_volatile(v, (full >> 64) as u16) };
                        *x = full as u64;
                    }
                } else {
                    let lanes: &mut [u8; LANES] =
                        (&mut ranks[row][base..base + LANES]).try_into().unwrap();
                    for (pick, x) in lanes.iter_mut().zip(w.iter_mut()) {
                        let full = u128::from(*x) * u128::from(p.n);
                        *pick = (full >> 64) as u8;
                        *x = full as u64;
                    }
                }
            }
            *words = w;
        }
        let redraw = self.refused(&words);
        if redraw {
            // Rare (a few % of groups): the batch-by-batch draw, as the pdep path's.
            *rng = saved;
            let mut picks = [[0u32; LANES]; PAD_ROW + 1];
            self.picks_in_turn(rng, &mut picks);
            for (row, p) in ranks.iter_mut().zip(&picks).take(self.picks) {
                for (l, &position) in POSITION.iter().enumerate() {
                    row[base + l] = p[position] as u8;
                }
            }
            // The pairs as the products would have left them (the splits remake the picks).
            for (s, v) in self.splits.iter().zip(pairs.iter_mut()) {
                let row = usize::from(s.row);
                for c in base..base + LANES {
                    v[c] = u16::from(ranks[row][c]) * s.d + u16::from(ranks[row + 1][c]);
                }
            }
        }
    }

    /// The next [`LANES`] deals' picks, side by side when no word is refused, else batch by
    /// batch (the same picks either way).
    #[inline(always)]
    fn draw_picks(&self, rng: &mut Xoshiro256PlusPlus, picks: &mut Picks) {
        if !self.picks_at_once(rng, picks) {
            self.picks_in_turn(rng, picks);
        }
    }

    /// Piece `piece`'s generator (module docs).
    fn piece_rng(&self, piece: u64) -> Xoshiro256PlusPlus {
        let mut key = ChaCha20Rng::from_seed(self.seed.0);
        key.set_stream(1);
        key.set_word_pos(8 * u128::from(piece));
        let mut seed = [0u8; 32];
        key.fill_bytes(&mut seed);
        Xoshiro256PlusPlus::from_seed(seed)
    }

    /// The lanes' hand masks from their picks, BMI2's `pdep` finding the pick-th undealt
    /// card.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,avx2")]
    fn select_pdep(&self, picks: &Picks) -> [[u64; 4]; LANES] {
        // Lane by lane in the order of [`POSITION`]: `rest[p]` is the undealt cards of the
        // lane at position `p`.
        let mut out = [[0u64; 4]; LANES];
        let mut rest = [self.free; LANES];
        let mut t = 0;
        for (seat, (&need, &fixed)) in self.need.iter().zip(&self.fixed).enumerate() {
            let before = rest;
            for _ in 0..need {
                for (left, &pick) in rest.iter_mut().zip(&picks[t]) {
                    // The pick-th set bit of `left` (pick below its count).
                    *left ^= std::arch::x86_64::_pdep_u64(1 << pick, *left);
                }
                t += 1;
            }
            // The seat's new cards: those that left the undealt ones.
            for (o, &p) in out.iter_mut().zip(&POSITION) {
                o[seat] = fixed | (before[p] ^ rest[p]);
            }
        }
        for (o, &p) in out.iter_mut().zip(&POSITION) {
            o[3] = self.fixed[3] | rest[p];
        }
        out
    }

    /// The picks of every batch from one word each per lane, all batches' words drawn first
    /// and their multiplications done side by side ([`Step`]). Returns false, with `rng`
    /// where it was, when a word must be redrawn: [`Shuffler::picks_in_turn`] then draws
    /// them as the stream defines (a batch's redraws before the next batch's words).
    #[inline(always)]
    fn picks_at_once(&self, rng: &mut Xoshiro256PlusPlus, picks: &mut Picks) -> bool {
        let saved = rng.clone();
        let mut words = [[0u64; LANES]; SLOTS];
        self.draw_words(rng, &mut words);
        for step in &self.steps {
            for ((r, &n), &row) in words.iter_mut().zip(&step.n).zip(&step.row) {
                multiply(r, n, &mut picks[usize::from(row)]);
            }
        }
        let redraw = self.refused(&words);
        if redraw {
            *rng = saved;
        }
        !redraw
    }

    /// Every batch's [`LANES`] words into `words`, batch by batch (a deal's words side by
    /// side, before any is checked); rows past the last batch are left as they are. Filled in
    /// place: returned by value, the 256 bytes were copied by a `memmove` call on every group
    /// of deals (3 % of the portable path's time).
    #[inline(always)]
    fn draw_words(&self, rng: &mut Xoshiro256PlusPlus, words: &mut [[u64; LANES]; SLOTS]) {
        for w in words.iter_mut().take(self.batches.len()) {
            for x in w {
                *x = rng.next_u64();
            }
        }
    }

    /// Whether a lane's word of some batch, after its multiplications, falls below the
    /// batch's threshold: then the stream redraws it (module docs).
    #[inline(always)]
    fn refused(&self, words: &[[u64; LANES]; SLOTS]) -> bool {
        self.batches
            .iter()
            .zip(words)
            .any(|(b, r)| r.iter().any(|&x| x < b.threshold))
    }

    /// The picks batch by batch, each batch's words drawn, and any redrawn, before the next
    /// batch's (the stream's definition).
    fn picks_in_turn(&self, rng: &mut Xoshiro256PlusPlus, picks: &mut Picks) {
        let m = u64::from(self.free.count_ones());
        for b in &self.batches {
            let mut r = [0u64; LANES];
            for x in &mut r {
                *x = rng.next_u64();
            }
            let (first, len) = (usize::from(b.first), usize::from(b.len));
            for (t, lane_picks) in picks.iter_mut().enumerate().skip(first).take(len) {
                multiply(&mut r, m - t as u64, lane_picks);
            }
            for (lane, &x) in r.iter().enumerate() {
                if x < b.threshold {
                    self.redraw(rng, b, lane, picks);
                }
            }
        }
    }

    /// Redraws lane `lane`'s picks of batch `b` from the next words until one is accepted.
    #[cold]
    fn redraw(&self, rng: &mut Xoshiro256PlusPlus, b: &Batch, lane: usize, picks: &mut Picks) {
        let m = u128::from(self.free.count_ones());
        let (first, len) = (usize::from(b.first), usize::from(b.len));
        loop {
            let mut x = rng.next_u64();
            for (t, p) in picks.iter_mut().enumerate().skip(first).take(len) {
                let full = u128::from(x) * (m - t as u128);
                p[POSITION[lane]] = (full >> 64) as u32;
                x = full as u64;
            }
            if x >= b.threshold {
                return;
            }
        }
    }
}

/// One pick in every lane: `⌊r·n / 2⁶⁴⌋` into `picks`, and `r` becomes `r·n mod 2⁶⁴`.
#[inline(always)]
fn multiply(r: &mut [u64; LANES], n: u64, picks: &mut [u32; LANES]) {
    let mut hi = [0u64; LANES];
    for (x, h) in r.iter_mut().zip(&mut hi) {
        // r·n as a 70-bit number, from two 32×32-bit products (which vectorize).
        let lo = (*x & 0xffff_ffff) * n;
        *h = (*x >> 32) * n + (lo >> 32);
        *x = (*h << 32) | (lo & 0xffff_ffff);
    }
    // Lanes i and i + 4 into one 64-bit word: the pick of i low, of i + 4 high (POSITION).
    let mut pair = [0u64; LANES / 2];
    for (i, w) in pair.iter_mut().enumerate() {
        *w = (hi[i] >> 32) | (hi[i + 4] & !0xffff_ffff);
    }
    for (i, w) in pair.iter().enumerate() {
        picks[2 * i] = *w as u32;
        picks[2 * i + 1] = (*w >> 32) as u32;
    }
}

/// Turns each deal's picks into ranks among the free cards, `W` deals side by side: row `t`
/// holds pick `t` of every deal, a rank among the cards still undealt before it, and becomes
/// that card's rank among all the free cards.
///
/// Backwards from the last pick: once the rows after `t` are ranks among the cards undealt
/// before pick `t + 1`, each of them at or above pick `t`'s rank moves up by one (the card
/// pick `t` took was below it), which makes them ranks among the cards undealt before pick
/// `t`. The picks of a deal are distinct cards, so no two ranks tie. 39 picks take 741
/// compare-and-adds, each a byte-vector instruction or two for all `W` deals, where a select
/// over a bit mask costs a loop or a table walk a card without `pdep`.
#[inline(always)]
fn decode<const W: usize>(rows: &mut [[u8; W]]) {
    // Row j's rank is its pick moved up past each earlier pick t at or below it, taken from
    // t = j − 1 down to 0 with the picks as drawn (a row's own moves come later, from the
    // picks before it). `x ≥ k` is `x > k − 1` in signed bytes (ranks are below 52): one
    // compare and one subtract for all W deals. The rows are taken BLOCK at a time, each in
    // a register, so that one load of a pick serves BLOCK rows and their chains of
    // compare-and-subtract overlap. Thirteen rows, a seat's picks, fill 13 of the 16 vector
    // registers SSE2 and AVX2 have (NEON has 32), and 39 picks are three whole blocks.
    const BLOCK: usize = 13;
    let mut below = [[0i8; W]; PAD_ROW];
    for (b, row) in below.iter_mut().zip(rows.iter()) {
        for (b, &k) in b.iter_mut().zip(row) {
            *b = k as i8 - 1;
        }
    }
    let step = |x: &mut [i8; W], b: &[i8; W]| {
        for (x, &b) in x.iter_mut().zip(b) {
            *x = x.wrapping_add(i8::from(*x > b));
        }
    };
    let mut first = 0;
    while first < rows.len() {
        let len = BLOCK.min(rows.len() - first);
        let mut x = [[0i8; W]; BLOCK];
        for (x, row) in x.iter_mut().zip(&rows[first..first + len]) {
            *x = row.map(|k| k as i8);
        }
        // The picks inside the block, row by row: row first + i takes first + i − 1 down to
        // first, in a register (the rows' chains are independent, so the processor overlaps
        // them; taken pick by pick across rows, the rows went through memory). (A padding row
        // past the end takes padding picks, both unused; `below` has rows to spare.)
        for (i, x) in x.iter_mut().enumerate().skip(1) {
            let mut row = *x;
            for b in below[first..first + i].iter().rev() {
                step(&mut row, b);
            }
            *x = row;
        }
        // The picks before the block, every row of it (a padding row past the end takes
        // them too, unused).
        for b in below[..first].iter().rev() {
            for x in &mut x {
                step(x, b);
            }
        }
        for (row, x) in rows[first..first + len].iter_mut().zip(&x) {
            *row = x.map(|x| x as u8);
        }
        first += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::card::Seat;

    fn deals(shuffler: &Shuffler, piece: u64, n: usize) -> Vec<Deal> {
        let mut out = vec![Seed([0; 32]).board_deal(1); n];
        shuffler.fill(piece, &mut out);
        out
    }

    /// The bit of the `k`-th set bit of `set` (0-based; `k` below the count of set bits): the
    /// stream's definition of a pick, one bit at a time.
    fn nth_bit(k: u32, mut set: u64) -> u64 {
        for _ in 0..k {
            set &= set - 1;
        }
        set & set.wrapping_neg()
    }

    /// The stream as the module docs define it, one lane and one card at a time: each lane's
    /// picks take the pick-th undealt card in suited order.
    fn by_definition(s: &Shuffler, piece: u64, n: usize) -> Vec<Deal> {
        let mut rng = s.piece_rng(piece);
        let mut picks = [[0u32; LANES]; PAD_ROW + 1];
        let mut out = Vec::new();
        while out.len() < n {
            s.draw_picks(&mut rng, &mut picks);
            for &p in &POSITION {
                let mut rest = s.free;
                let mut masks = s.fixed;
                let mut t = 0;
                for (seat, &need) in s.need.iter().enumerate() {
                    for _ in 0..need {
                        let card = nth_bit(picks[t][p], rest);
                        rest ^= card;
                        masks[seat] |= card;
                        t += 1;
                    }
                }
                masks[3] |= rest;
                out.push(Deal::from_masks_unchecked(masks));
            }
        }
        out.truncate(n);
        out
    }

    /// The paths this machine can run.
    fn paths() -> Vec<SelectPath> {
        let mut paths = vec![SelectPath::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                paths.push(SelectPath::Avx2);
                if std::arch::is_x86_feature_detected!("bmi2") {
                    paths.push(SelectPath::Pdep);
                }
            }
        }
        paths
    }

    #[test]
    fn every_path_deals_as_the_definition() {
        let p = Predeal::parse("N:AK.Q.. E:J.. S:...AKQJT98 W:2.3.4.5").unwrap();
        // Seven free cards: North, East and South pick among 7, 6, 5 and 4 (paired on the
        // decode path, split by 6 and 4), West takes the other three.
        let heavy =
            Predeal::parse("N:AKQJT98765.AK.. E:.QJT98765.AKQ. S:..JT98765432.AK W:4.4..QJT98765")
                .unwrap();
        for (seed, predeal) in [(3, None), (4, Some(&p)), (5, Some(&heavy))] {
            let s = Shuffler::new(&Seed([seed; 32]), predeal);
            for piece in [0, 5] {
                let want = by_definition(&s, piece, PIECE);
                for path in paths() {
                    for n in [PIECE, 37, 1] {
                        let mut got = vec![Seed([0; 32]).board_deal(1); n];
                        s.fill_with(path, piece, &mut got);
                        assert_eq!(got, want[..n], "{path:?}, {n} deals, piece {piece}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_pair_of_picks_splits_exactly() {
        // Every range a pair's second pick can have (2 and up: a pair's ranges are n·(n − 1)
        // with n ≥ 2, or the pick is drawn alone); `split_by` checks each v itself, so this
        // says that no pair of a deal without predeal is left unpaired.
        for d in 2..=51 {
            assert!(split_by(d).is_some(), "d = {d}");
        }
        assert_eq!(split_by(51), Some((41121, 5)));
    }

    #[test]
    fn decoding_gives_the_ranks_the_picks_select() {
        // Picks 1, 1, 0 among 0..4: cards 1, then 2 (the second of 0, 2, 3), then 0.
        let mut rows = [[1u8; 16], [1; 16], [0; 16]];
        decode(&mut rows);
        assert_eq!(rows.map(|r| r[7]), [1, 2, 0]);
    }

    #[test]
    fn a_shorter_fill_is_a_prefix_and_pieces_differ() {
        let s = Shuffler::new(&Seed([9; 32]), None);
        let full = deals(&s, 2, PIECE);
        assert_eq!(deals(&s, 2, 13), full[..13]);
        assert_ne!(deals(&s, 3, 13), full[..13]);
        for d in &full {
            for seat in Seat::ALL {
                assert_eq!(d.hand(seat).len(), 13);
            }
        }
    }

    #[test]
    fn predealt_cards_stay_with_their_seats() {
        let p = Predeal::parse("N:AKQJ.AKQ.AKQ.AKQ E:T98.JT9.JT9.JT9").unwrap();
        let s = Shuffler::new(&Seed([1; 32]), Some(&p));
        for d in deals(&s, 0, PIECE) {
            assert_eq!(d.hand(Seat::North).to_string(), "AKQJ.AKQ.AKQ.AKQ");
            assert_eq!(
                d.hand(Seat::East).mask() & p.fixed()[1].mask(),
                p.fixed()[1].mask()
            );
            assert_eq!(d.hand(Seat::East).len(), 13);
        }
    }

    /// Six cards left (North and East need two, South and West one): all 180 completions
    /// come up equally often (chi-square at 0.1 %, 179 degrees of freedom: 243.2), over
    /// pieces and lanes and the batches' redraws.
    #[test]
    fn every_completion_is_equally_likely() {
        let p =
            Predeal::parse("N:AKQJT987654... E:32.AKQJT9876.. S:.5432.AKQJT987. W:..65432.AKQJT98")
                .unwrap();
        let s = Shuffler::new(&Seed([5; 32]), Some(&p));
        let mut counts = std::collections::HashMap::new();
        let pieces = 352;
        for piece in 0..pieces {
            for d in deals(&s, piece, PIECE) {
                let key = [Seat::North, Seat::East, Seat::South].map(|seat| d.hand(seat).mask());
                *counts.entry(key).or_insert(0u32) += 1;
            }
        }
        assert_eq!(counts.len(), 180);
        let expected = (pieces as usize * PIECE) as f64 / 180.0;
        let chi2: f64 = counts
            .values()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 243.2, "chi-square {chi2}");
    }

    /// Value stability: the first deal of a seed's stream, pinned (a regression check: only
    /// this module defines the stream).
    #[test]
    fn the_stream_is_value_stable() {
        let s = Shuffler::new(&Seed([0x11; 32]), None);
        assert_eq!(
            deals(&s, 0, 1)[0].to_string(),
            "N:AT3.KJ5.T98763.6 J974.QT98.4.K742 865.63.AKJ5.T953 KQ2.A742.Q2.AQJ8"
        );
    }

    /// Value stability over many deals: a digest of the first 64 pieces of two streams, one
    /// with predealt cards, pinned (a few % of the lanes' draws take a redraw, so both the
    /// side-by-side path and the batch-by-batch one are in it).
    #[test]
    fn many_deals_are_value_stable() {
        let digest = |s: &Shuffler| {
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            for piece in 0..64 {
                for d in deals(s, piece, PIECE) {
                    for seat in Seat::ALL {
                        h = (h ^ d.hand(seat).mask()).wrapping_mul(0x100_0000_01b3);
                    }
                }
            }
            h
        };
        let plain = Shuffler::new(&Seed([0x11; 32]), None);
        let p = Predeal::parse("N:AK.Q.. S:...AKQJT98").unwrap();
        let predealt = Shuffler::new(&Seed([0x22; 32]), Some(&p));
        assert_eq!(
            [digest(&plain), digest(&predealt)],
            [0x994f_38fb_9d45_3f9f, 0xcc9a_b174_0e79_79c5]
        );
    }

    #[test]
    fn nth_bit_counts_from_the_lowest_bit() {
        assert_eq!(nth_bit(0, 0b1011_0100), 0b100);
        assert_eq!(nth_bit(2, 0b1011_0100), 0b10_0000);
        assert_eq!(nth_bit(3, 0b1011_0100), 0b1000_0000);
    }
}
