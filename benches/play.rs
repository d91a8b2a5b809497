//! Criterion benchmarks of issue 5's card systems: every card encoding both ways over the
//! 52 cards, and replaying a whole 13-trick play (seed 000 position, suit-following checks,
//! trick winners) plus its seed 004 game-state encoding. Run with
//! `cargo bench -p dealdex-benches --bench play`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dealdex::PlayState;
use dealdex::encoding::{
    card_byte, card_from_card_byte, card_from_hsdc_number, card_from_seat_array_slot,
    card_from_standard_card, card_from_unicode, hsdc_number, seat_array_slot, standard_card,
    unicode,
};
use dealdex::{Card, DEALS, Deal, Scheme, Seat};
use dealdex::{PlayRecord, Strain, trick_winner};

/// A legal 52-card play of `deal` in notrump: each seat plays its lowest card of the suit led
/// (or its lowest card), the winner leads its lowest card.
fn legal_play(deal: &Deal) -> Vec<Card> {
    let mut hands = *deal.hands();
    let mut leader = Seat::West;
    let mut out = Vec::with_capacity(52);
    for _ in 0..13 {
        let mut trick = [Card::from_index(0).unwrap(); 4];
        for j in 0..4 {
            let seat = leader.rotate(j);
            let hand = &mut hands[seat.index()];
            let card = if j == 0 {
                hand.cards().next()
            } else {
                let led = trick[0].suit();
                hand.cards()
                    .find(|c| c.suit() == led)
                    .or_else(|| hand.cards().next())
            }
            .unwrap();
            hand.remove(card);
            trick[j] = card;
            out.push(card);
        }
        leader = leader.rotate(trick_winner(&trick, Strain::NoTrump));
    }
    out
}

fn bench(c: &mut Criterion) {
    let cards: Vec<Card> = Card::all().collect();
    let mut g = c.benchmark_group("encodings");
    g.throughput(Throughput::Elements(52));
    g.bench_function("encode all five, 52 cards", |b| {
        b.iter(|| {
            for &card in black_box(&cards) {
                black_box((
                    seat_array_slot(card),
                    standard_card(card),
                    hsdc_number(card),
                    card_byte(card, true),
                    unicode(card),
                ));
            }
        })
    });
    let encoded: Vec<(u8, u32, u8, u8, u32)> = cards
        .iter()
        .map(|&c| {
            (
                seat_array_slot(c),
                standard_card(c),
                hsdc_number(c),
                card_byte(c, true),
                unicode(c),
            )
        })
        .collect();
    g.bench_function("decode all five (validated), 52 cards", |b| {
        b.iter(|| {
            for &(slot, std, n, byte, u) in black_box(&encoded) {
                black_box((
                    card_from_seat_array_slot(slot.into()).unwrap(),
                    card_from_standard_card(std).unwrap(),
                    card_from_hsdc_number(n.into()).unwrap(),
                    card_from_card_byte(byte).unwrap(),
                    card_from_unicode(u).unwrap(),
                ));
            }
        })
    });
    g.finish();

    let deal = Deal::from_number(DEALS / 3, Scheme::Pavlicek).unwrap();
    let order = legal_play(&deal);
    let record = PlayRecord::from_play_order(&deal, &order).unwrap();
    let mut g = c.benchmark_group("play");
    g.throughput(Throughput::Elements(1));
    g.bench_function("replay 13 tricks (checks and winners)", |b| {
        b.iter(|| {
            black_box(&record)
                .replay(black_box(&deal), Strain::NoTrump)
                .unwrap()
        })
    });
    g.bench_function("seed 004 state after 7 tricks: encode + decode", |b| {
        let state = PlayState::during(&deal, &record, 28).unwrap();
        b.iter(|| PlayState::decode(&black_box(&state).encode()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
