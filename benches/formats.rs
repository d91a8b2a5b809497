//! Criterion benchmarks of every registered format's writer and reader, 10,000 boards each
//! (99 for the formats limited to 99 boards). Throughput is in boards.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dealdex::formats::{self, Board, WriteOptions};
use std::hint::black_box;

fn boards(n: usize) -> Vec<Board> {
    let seed = dealdex::Seed([9; 32]);
    let mut deals = vec![dealdex::Deal::from_number(1, dealdex::Scheme::Pavlicek).unwrap(); n];
    seed.fill_deals(1, &mut deals);
    deals
        .into_iter()
        .enumerate()
        .map(|(j, d)| Board::new(j as u64 + 1, d))
        .collect()
}

fn bench_formats(c: &mut Criterion) {
    let mut g = c.benchmark_group("formats");
    for f in formats::registry() {
        let info = f.info();
        let n = info.max_board.map_or(10_000, |m| m.min(10_000) as usize);
        let set = boards(n);
        let opts = WriteOptions {
            first_board: 1,
            last_board: n as u64,
            ..WriteOptions::default()
        };
        let bytes = formats::write_set(*f, &set, &opts).expect("writable");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(format!("write_{}", info.name), |b| {
            b.iter(|| formats::write_set(*f, black_box(&set), &opts).unwrap())
        });
        g.bench_function(format!("read_{}", info.name), |b| {
            b.iter(|| f.read(black_box(&bytes)).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench_formats);
criterion_main!(benches);
