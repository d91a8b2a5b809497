//! Double-dummy solving (pons-dds) and par: full 20-result tables per second on one core
//! (`solve`, the five strains of one deal) and a batch on all cores (`solve_all`), on
//! random deals of the DD reference fixture; par from a stored table.

use criterion::{Criterion, criterion_group, criterion_main};
use dealdex::dd::TablePar;
use dealdex::{Deal, Seat, Vulnerability};

/// Boards 31.. of tests/fixtures/dd/dd-reference.jsonl: dealdex's random deals.
fn random_deals(n: usize) -> Vec<Deal> {
    include_str!("../tests/fixtures/dd/dd-reference.jsonl")
        .lines()
        .skip(30)
        .take(n)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["deal"].as_str().unwrap().parse().unwrap()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let deals = random_deals(8);
    let mut g = c.benchmark_group("dd");
    g.sample_size(10);
    g.bench_function("solve_all 8 random deals (all cores)", |b| {
        b.iter(|| dealdex::dd::solve_all(&deals))
    });
    let table = dealdex::dd::solve(&deals[0]);
    g.bench_function("par from a table", |b| {
        b.iter(|| table.par(Seat::East, Vulnerability::All))
    });
    g.bench_function("pack + unpack a table", |b| {
        b.iter(|| dealdex::dd::TrickTable::from_bytes(&table.to_bytes()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
