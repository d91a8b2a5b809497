//! Criterion benchmarks of the hot paths: Pavlicek unrank and rank, the other schemes, the
//! 13-byte index and the seeded deal stream. Throughput is in deals.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use dealdex::formats::DealFormat as _;
use dealdex::{DEALS, Deal, DealIndex, Scheme};
use std::hint::black_box;

const N: usize = 4096;

fn ranks() -> Vec<u128> {
    // A fixed spread of 0-based ranks below D (golden-ratio stepping).
    let step = DEALS / 1_618_033_988_749 * 1_000_000_007;
    (0..N as u128)
        .map(|j| (j * step + j * j * 7919) % DEALS)
        .collect()
}

fn numbering(c: &mut Criterion) {
    dealdex::warm_up();
    let ranks = ranks();
    let deals: Vec<Deal> = ranks
        .iter()
        .map(|&i| Deal::from_number(i + 1, Scheme::Pavlicek).unwrap())
        .collect();
    let mut g = c.benchmark_group("numbering");
    g.throughput(Throughput::Elements(N as u64));
    for scheme in Scheme::ALL {
        g.bench_function(format!("unrank_one_{scheme}"), |b| {
            b.iter(|| {
                for &i in &ranks {
                    black_box(Deal::from_number(black_box(i) + 1, scheme).unwrap());
                }
            })
        });
        g.bench_function(format!("rank_{scheme}"), |b| {
            b.iter(|| {
                for d in &deals {
                    black_box(black_box(d).number(scheme));
                }
            })
        });
    }
    g.bench_function("unrank_bulk_pavlicek", |b| {
        let mut out = deals.clone();
        b.iter(|| {
            dealdex::unrank_range(black_box(1_000_000_007), Scheme::Pavlicek, &mut out).unwrap()
        })
    });
    g.bench_function("index_encode", |b| {
        b.iter(|| {
            for d in &deals {
                black_box(DealIndex::from_deal(black_box(d)));
            }
        })
    });
    g.bench_function("index_decode", |b| {
        let keys: Vec<DealIndex> = deals.iter().map(DealIndex::from_deal).collect();
        b.iter(|| {
            for k in &keys {
                black_box(black_box(k).to_deal().unwrap());
            }
        })
    });
    g.bench_function("pbn_format", |b| {
        b.iter_batched(
            || String::with_capacity(80),
            |mut s| {
                for d in &deals {
                    s.clear();
                    dealdex::push_deal(&mut s, black_box(d), dealdex::Seat::North);
                }
                s
            },
            BatchSize::SmallInput,
        )
    });
    let seed: dealdex::Seed = "5a".repeat(32).parse().unwrap();
    g.bench_function("stream_ranks", |b| {
        let mut out = vec![0u128; N];
        b.iter(|| seed.fill_ranks(black_box(1_000_001), &mut out))
    });
    g.bench_function("stream_deals", |b| {
        let mut out = deals.clone();
        b.iter(|| seed.fill_deals(black_box(1_000_001), &mut out))
    });
    let boards: Vec<dealdex::formats::Board> = (1..)
        .zip(&deals)
        .map(|(n, d)| dealdex::formats::Board::new(n, *d))
        .collect();
    let opts = dealdex::formats::WriteOptions::default();
    g.bench_function("hex_lines", |b| {
        let mut buf = Vec::with_capacity(N * 27);
        b.iter(|| {
            buf.clear();
            dealdex::formats::Hex
                .write_boards(black_box(&boards), &opts, &mut buf)
                .unwrap();
        })
    });
    g.finish();
}

criterion_group!(benches, numbering);
criterion_main!(benches);
