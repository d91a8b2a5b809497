//! Criterion benchmarks of the query language's Rust evaluator (`Query::matches`, what
//! `generate --where` pays per deal) on typical queries over the same 4096 deals. Throughput
//! in deals. Run with `cargo bench -p dealdex-benches --bench query`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dealdex::query::Query;
use dealdex::{DEALS, Deal, Scheme};

const N: usize = 4096;

/// 4096 deals spread over the whole numbering (golden-ratio stepping through 1..=D).
fn deals() -> Vec<Deal> {
    let step = DEALS / 1_618_033_988_749 * 1_000_000_007;
    (0..N as u128)
        .map(|j| {
            let i = (j * step + j * j * 7919) % DEALS;
            Deal::from_number(i + 1, Scheme::Pavlicek).expect("rank below D")
        })
        .collect()
}

fn matches(c: &mut Criterion) {
    dealdex::warm_up();
    let deals = deals();
    let mut g = c.benchmark_group("query_matches");
    g.throughput(Throughput::Elements(N as u64));
    for (name, text) in [
        ("hcp_range_balanced", "hcp(N) in 20..21 and balanced(N)"),
        (
            "hcp_len_shape",
            "hcp(N) >= 20 and len(S, spades) >= 5 and shape(E) = 4432",
        ),
        ("balanced_15_17", "balanced(N) and hcp(N) in 15..17"),
        (
            "fit_side_ltc",
            "len(NS, hearts) >= 8 and hcp(NS) >= 25 and ltc(N) <= 7",
        ),
        (
            "shape_or_pattern",
            "shape(E) = 4432 or pattern(W) = 5-4-3-1 or controls(S) >= 6",
        ),
        (
            "sum_of_hcp",
            "hcp(N) + hcp(S) in 20..24 and len(N, spades) - len(N, hearts) >= 2",
        ),
    ] {
        let q = Query::parse(text).expect("valid query");
        g.bench_function(name, |b| {
            b.iter(|| deals.iter().filter(|d| q.matches(black_box(d))).count())
        });
    }
    g.finish();
}

criterion_group!(benches, matches);
criterion_main!(benches);
