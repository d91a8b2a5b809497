//! Every played card judged double dummy (`dd::analyse_plays`, issue 53): cards analysed a
//! second by pons-dds on two threads, over 16 seeded deals each played out in full by a fixed
//! rule (every seat its lowest legal card, in notrump and in spades). Run with
//! `cargo bench -p dealdex-benches --bench play_analysis`. DDS's own `AnalysePlayBin` on the
//! same kind of boards: tests/slow/play_analysis.rs's `measure_analyse_play_speed`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dealdex::dd::{PlayedBoard, analyse_plays};
use dealdex::{Card, Deal, Scheme, Seat, Strain, Suit, trick_winner};

/// A legal 52-card play: each seat plays its lowest card of the suit led (or its lowest
/// card), the winner of a trick leading the next.
fn lowest_play(deal: &Deal, strain: Strain, leader: Seat) -> Vec<Card> {
    let mut hands = *deal.hands();
    let mut leader = leader;
    let mut out = Vec::with_capacity(52);
    for _ in 0..13 {
        let mut trick = Vec::with_capacity(4);
        for j in 0..4 {
            let hand = &mut hands[leader.rotate(j).index()];
            let led = trick.first().map(|c: &Card| c.suit());
            let card = hand
                .cards()
                .filter(|c| Some(c.suit()) == led)
                .last()
                .or_else(|| hand.cards().last())
                .expect("a card left");
            hand.remove(card);
            trick.push(card);
        }
        let [a, b, c, d] = trick[..] else {
            unreachable!("four cards a trick")
        };
        leader = leader.rotate(trick_winner(&[a, b, c, d], strain));
        out.extend(trick);
    }
    out
}

fn bench(c: &mut Criterion) {
    let boards: Vec<PlayedBoard> = (1..=8u128)
        .flat_map(|n| {
            let deal = Deal::from_number(n * 1_000_003, Scheme::Pavlicek).expect("a deal number");
            [Strain::NoTrump, Strain::Trumps(Suit::Spades)].map(|strain| PlayedBoard {
                deal,
                strain,
                declarer: Seat::South,
                cards: lowest_play(&deal, strain, Seat::West),
            })
        })
        .collect();
    let cards: usize = boards.iter().map(|b| b.cards.len()).sum();
    let mut g = c.benchmark_group("play_analysis");
    g.sample_size(10);
    g.throughput(Throughput::Elements(cards as u64));
    g.bench_function("analyse_plays 16 boards, 832 cards (2 threads)", |b| {
        b.iter(|| analyse_plays(&boards, 2))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
