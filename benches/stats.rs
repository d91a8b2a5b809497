//! Set-statistics benchmark: `SetStats::add` over 100,000 generated deals (throughput in
//! deals), `merge`, and `report`. Run with `cargo bench -p dealdex-benches --bench stats`.
//!
//! `dealdex stats` over a 10,000,000-deal database must take under 10 s, so `add` must run
//! well above 1 M deals/s on one core.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dealdex::Seed;
use dealdex::stats::SetStats;

const DEALS: usize = 100_000;

fn stats(c: &mut Criterion) {
    let seed = Seed([0x5A; 32]);
    let mut deals = vec![seed.board_deal(1); DEALS];
    seed.fill_deals(1, &mut deals);

    let mut group = c.benchmark_group("stats");
    group
        .throughput(Throughput::Elements(DEALS as u64))
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("add_100k", |b| {
        b.iter(|| {
            let mut s = SetStats::new();
            for d in black_box(&deals) {
                s.add(d);
            }
            s
        })
    });
    group.finish();

    let mut full = SetStats::new();
    full.add_all(&deals);
    let mut group = c.benchmark_group("stats");
    group.sample_size(20);
    group.bench_function("merge", |b| {
        b.iter(|| {
            let mut s = SetStats::new();
            s.merge(black_box(full.clone()));
            s
        })
    });
    group.bench_function("report", |b| b.iter(|| black_box(&full).report()));
    group.bench_function("report_to_text_json_svg", |b| {
        let r = full.report();
        b.iter(|| {
            let r = black_box(&r);
            (
                r.to_text().len(),
                serde_json::to_string(r).unwrap().len(),
                r.to_svg().len(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, stats);
criterion_main!(benches);
