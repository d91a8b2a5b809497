//! Store benchmark: one `insert_deals` batch of 100,000 random deal keys into a fresh
//! database file (throughput in keys), and the stages of that batch apart (issue 16, item 4):
//! the stored features of each key (decode, HCP and suit lengths of four hands) and the sort.
//! The insert's own share is the whole batch minus those two. Run with
//! `cargo bench -p dealdex-benches --bench store`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use dealdex::{DealIndex, Seat, Store, features};

const KEYS: usize = 100_000;

/// Random valid deal indexes (FORMATS.md §2) from a xorshift64 shuffle of 52 seat codes.
fn random_keys(mut state: u64, n: usize) -> Vec<DealIndex> {
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n)
        .map(|_| {
            let mut codes: [u8; 52] = std::array::from_fn(|i| (i / 13) as u8);
            for i in (1..52).rev() {
                codes.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            DealIndex(std::array::from_fn(|r| {
                let [s, h, d, c] = [0, 1, 2, 3].map(|suit| codes[suit * 13 + r]);
                (s | h << 2) << 4 | (d | c << 2)
            }))
        })
        .collect()
}

fn insert(c: &mut Criterion) {
    let keys = random_keys(0x9E37_79B9_7F4A_7C15, KEYS);
    let mut group = c.benchmark_group("store");
    group
        .throughput(Throughput::Elements(KEYS as u64))
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("insert_deals_100k_fresh_file", |b| {
        b.iter_batched(
            || {
                let dir = tempfile::tempdir().expect("temp dir");
                let store = Store::open(&dir.path().join("bench.db")).expect("open");
                (dir, store)
            },
            |(dir, mut store)| {
                let new = store.insert_deals(black_box(&keys)).expect("insert");
                assert_eq!(new, KEYS as u64);
                // Returned so that closing the file is not timed.
                (dir, store)
            },
            BatchSize::PerIteration,
        );
    });
    group.bench_function("stage_features_100k", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for key in black_box(&keys) {
                let deal = key.to_deal().expect("valid key");
                for seat in Seat::ALL {
                    let hand = deal.hand(seat);
                    sum += u64::from(features::hcp(hand));
                    sum += features::suit_lengths(hand)[0] as u64;
                }
            }
            sum
        });
    });
    group.bench_function("stage_sort_100k", |b| {
        b.iter_batched(
            || keys.clone(),
            |mut batch| {
                // As the store sorts a batch, on one thread here.
                batch.sort_unstable();
                batch
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

criterion_group!(benches, insert);
criterion_main!(benches);
