//! Issue 40's yardstick for the numbered stream: the naive program of its kind. ChaCha20
//! (rand_chacha, a fixed 32-byte seed) and a Fisher–Yates shuffle of the 52 cards a deal
//! (rand's `shuffle`), each deal written as its 26-hex-digit index (FORMATS.md §2) and a
//! newline, on one thread. Its deals are not dealdex's (no hand-record number behind them):
//! it measures what a plain loop costs a deal. `naive_stream COUNT > FILE` (default 10^7).
use std::io::Write;

use rand::SeedableRng;
use rand::seq::SliceRandom;

/// Index seat codes (FORMATS.md §2: 0 = South, 1 = West, 2 = North, 3 = East) of N, E, S, W.
const SEAT_CODE: [u8; 4] = [2, 3, 0, 1];
const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn main() -> std::io::Result<()> {
    let count: u64 = std::env::args()
        .nth(1)
        .map_or(10_000_000, |s| s.parse().expect("COUNT"));
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([0x5a; 32]);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    // The seat (N E S W = 0..4) of each card in suited order (♠A … ♣2).
    let mut seats: [u8; 52] = std::array::from_fn(|card| (card / 13) as u8);
    let mut line = [b'\n'; 27];
    for _ in 0..count {
        seats.shuffle(&mut rng);
        for rank in 0..13 {
            let code = |suit: usize| SEAT_CODE[seats[13 * suit + rank] as usize];
            line[2 * rank] = HEX[(code(0) | code(1) << 2) as usize];
            line[2 * rank + 1] = HEX[(code(2) | code(3) << 2) as usize];
        }
        out.write_all(&line)?;
    }
    out.flush()
}
