//! Criterion benchmarks of championship-set generation on one core: Big Deal's RIPEMD-160
//! stream (SQUAREDEAL.md §1) to Gödel numbers and to deals, and a dealdex-event/1 session
//! (docs/event-protocol.md §5: SHA-256 seed, then ChaCha20 generation). Run with
//! `cargo bench -p dealdex-benches --bench bigdeal`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dealdex::bigdeal::BigDealStream;
use dealdex::event::protocol::session_seed;

const N: usize = 4096;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("championship");
    g.throughput(Throughput::Elements(N as u64));
    let new = || {
        BigDealStream::new(
            b"hrzkVbQb9F0QhgIYEwfBUwKjNHDoGZ",
            &[b"XMYxVBbJZaWXnJf233CI5MJo7buhPRNDMyNzUuOTE=original"],
        )
    };
    g.bench_function("Big Deal stream: Gödel numbers (one at a time)", |b| {
        b.iter(|| {
            let mut s = new();
            for _ in 0..N {
                black_box(s.next());
            }
        })
    });
    g.bench_function("Big Deal stream: deals", |b| {
        b.iter(|| black_box(new().take_deals(N)))
    });
    g.bench_function("dealdex-event/1 session: seed + deals", |b| {
        b.iter(|| {
            let seed = session_seed(&[1; 32], "44882.13", 1, 1, false, &"A".repeat(60));
            let mut out = vec![seed.board_deal(0); N];
            seed.fill_deals(0, &mut out);
            black_box(out)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
