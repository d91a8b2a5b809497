//! Criterion benchmarks of the hand features (`dealdex::features`): each feature over the
//! same 4096 deals, then one combined pass computing every feature for all four seats and
//! both sides (what `generate --where` and the database ingest pay per deal).
//!
//! Throughput: per-seat features are counted in hands (4 × 4096), the side features and the
//! combined pass in deals (4096). Run with `cargo bench -p dealdex-benches --bench features`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dealdex::features::{
    Shape, Side, controls, fit, hcp, longest_suit, losing_trick_count, side_hcp, suit_lengths,
};
use dealdex::{DEALS, Deal, Scheme, Suit};

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

/// Benchmarks `f` applied to every hand of every deal (throughput in hands).
fn per_hand<T>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    deals: &[Deal],
    f: impl Fn(dealdex::Hand) -> T,
) {
    g.bench_function(name, |b| {
        b.iter(|| {
            for d in deals {
                for &h in black_box(d).hands() {
                    black_box(f(h));
                }
            }
        })
    });
}

fn features(c: &mut Criterion) {
    dealdex::warm_up();
    let deals = deals();

    let mut g = c.benchmark_group("features_per_hand");
    g.throughput(Throughput::Elements(4 * N as u64));
    per_hand(&mut g, "hcp", &deals, hcp);
    per_hand(&mut g, "suit_lengths", &deals, suit_lengths);
    per_hand(&mut g, "controls", &deals, controls);
    per_hand(&mut g, "shape_of", &deals, Shape::of);
    per_hand(&mut g, "shape_sorted", &deals, |h| Shape::of(h).sorted());
    per_hand(&mut g, "shape_balanced", &deals, |h| {
        Shape::of(h).is_balanced()
    });
    per_hand(&mut g, "shape_semi_balanced", &deals, |h| {
        Shape::of(h).is_semi_balanced()
    });
    per_hand(&mut g, "shape_pattern", &deals, |h| Shape::of(h).pattern());
    per_hand(&mut g, "shape_display", &deals, |h| {
        Shape::of(h).to_string()
    });
    per_hand(&mut g, "losing_trick_count", &deals, losing_trick_count);
    per_hand(&mut g, "longest_suit", &deals, longest_suit);
    g.finish();

    let mut g = c.benchmark_group("features_per_deal");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("side_hcp_both_sides", |b| {
        b.iter(|| {
            for d in &deals {
                let d = black_box(d);
                black_box((side_hcp(d, Side::NorthSouth), side_hcp(d, Side::EastWest)));
            }
        })
    });
    g.bench_function("fit_both_sides_all_suits", |b| {
        b.iter(|| {
            for d in &deals {
                let d = black_box(d);
                for side in [Side::NorthSouth, Side::EastWest] {
                    for suit in Suit::ALL {
                        black_box(fit(d, side, suit));
                    }
                }
            }
        })
    });
    // Every feature for all four seats and both sides, without the allocating text forms
    // (pattern, Display): the numbers a filter or an ingest row needs.
    g.bench_function("all_features_all_seats", |b| {
        b.iter(|| {
            for d in &deals {
                let d = black_box(d);
                for &h in d.hands() {
                    let shape = Shape::of(h);
                    black_box((
                        hcp(h),
                        controls(h),
                        losing_trick_count(h),
                        longest_suit(h),
                        shape.sorted(),
                        shape.is_balanced(),
                        shape.is_semi_balanced(),
                        shape,
                    ));
                }
                for side in [Side::NorthSouth, Side::EastWest] {
                    black_box(side_hcp(d, side));
                    for suit in Suit::ALL {
                        black_box(fit(d, side, suit));
                    }
                }
            }
        })
    });
    // The same plus the exact pattern string of each hand (one allocation a hand).
    g.bench_function("all_features_all_seats_with_pattern", |b| {
        b.iter(|| {
            for d in &deals {
                let d = black_box(d);
                for &h in d.hands() {
                    let shape = Shape::of(h);
                    black_box((
                        hcp(h),
                        controls(h),
                        losing_trick_count(h),
                        longest_suit(h),
                        shape.sorted(),
                        shape.is_balanced(),
                        shape.is_semi_balanced(),
                        shape.pattern(),
                    ));
                }
                for side in [Side::NorthSouth, Side::EastWest] {
                    black_box(side_hcp(d, side));
                    for suit in Suit::ALL {
                        black_box(fit(d, side, suit));
                    }
                }
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = features
}
criterion_main!(benches);
