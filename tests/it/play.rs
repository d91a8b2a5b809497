//! The play of the cards (src/play.rs, seed 000's array and play record, seed 003's trick) and
//! seed 004's game state (src/gamestate.rs): fixtures replayed, random legal plays, revokes,
//! byte round trips and malformed states.

use dealdex::formats::{self, Board, Play};
use dealdex::{
    Card, CardLayout, Deal, ModelError, ModelErrorKind, PlayRecord, PlayState, Scheme, Seat,
    Strain, Suit, TrickRecord, board_play, contract_of, decode_groups, encode_groups, trick_winner,
};
use proptest::prelude::*;

/// `r` with its error's kind, to compare with an expected kind.
fn kind<T>(r: Result<T, ModelError>) -> Result<T, ModelErrorKind> {
    r.map_err(ModelError::into_kind)
}

fn read_fixture(name: &str) -> Vec<Board> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let data = std::fs::read(&path).unwrap();
    formats::by_path(std::path::Path::new(&path))
        .unwrap()
        .read(&data)
        .unwrap()
}

fn card(s: &str) -> Card {
    Card::all().find(|c| c.to_string() == s).unwrap()
}

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(card).collect()
}

/// Checks a fixture's play: it replays legally under its contract's strain and each trick's
/// computed winner is the seat that leads the next trick in the record.
fn replays_with_winners_leading(board: &Board) -> (Strain, Vec<dealdex::Trick>) {
    let game = board.game.as_deref().unwrap();
    let bp = board_play(&board.deal, game).unwrap().unwrap();
    let strain = bp.strain.unwrap();
    let tricks = bp.record.replay(&board.deal, strain).unwrap();
    let records = bp.record.tricks();
    for (t, trick) in tricks.iter().enumerate() {
        assert_eq!(trick.leader, records[t].leader);
        if let Some(next) = records.get(t + 1) {
            assert_eq!(trick.winner, next.leader, "trick {}", t + 1);
        }
    }
    // The record goes back to the reader's PBN layout unchanged.
    let mut pbn = game.play.clone().unwrap();
    while pbn
        .tricks
        .last()
        .is_some_and(|r| r.iter().all(Option::is_none))
    {
        pbn.tricks.pop();
    }
    assert_eq!(bp.record.to_pbn_play(), Some(pbn));
    (strain, tricks)
}

#[test]
fn pbn_spec_example_replays_legally() {
    let boards = read_fixture("pbn-spec-example.pbn");
    let (strain, tricks) = replays_with_winners_leading(&boards[0]);
    assert_eq!(strain, Strain::Trumps(Suit::Hearts));
    // Six complete tricks and trick 7 cut short after South's ♥2.
    assert_eq!(tricks.len(), 6);
    let winners: Vec<Seat> = tricks.iter().map(|t| t.winner).collect();
    use Seat::*;
    assert_eq!(winners, [North, South, North, North, North, South]);
    // Trick 1: West leads ♠K and North ruffs with the ♥3.
    assert_eq!(tricks[0].cards.to_vec(), cards("SK H3 S4 S3"));
    assert_eq!(tricks[0].leader, West);
    // Trick 6: North leads ♦K, East ruffs ♥5, South overruffs ♥7.
    assert_eq!(tricks[5].cards.to_vec(), cards("DK H5 H7 D4"));
    let bp = board_play(&boards[0].deal, boards[0].game.as_deref().unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(bp.declarer, Some(South));
    let last = bp.record.tricks().last().unwrap();
    assert_eq!((last.leader, last.cards.clone()), (South, cards("H2")));
    // After the 25 cards, the seed 000 array has 25 zero slots and 27 cards in hand.
    let p = bp.record.check(&boards[0].deal).unwrap();
    assert_eq!(p.slots().iter().filter(|&&v| v == 0).count(), 25);
    assert_eq!(p.slots()[card("H2").index()], 0);
    assert_eq!(p.slots()[card("SA").index()], 3); // East's ♠A, never played
}

#[test]
fn lin_fixture_replays_legally() {
    let boards = read_fixture("lin-with-play.lin");
    let (strain, tricks) = replays_with_winners_leading(&boards[0]);
    assert_eq!(strain, Strain::Trumps(Suit::Spades));
    assert_eq!(tricks.len(), 13);
    // 4♠ by East: the defence (N-S) takes one trick, trick 12.
    let ns = tricks
        .iter()
        .filter(|t| matches!(t.winner, Seat::North | Seat::South))
        .count();
    assert_eq!(ns, 1);
    assert_eq!(tricks[11].winner, Seat::South);
    assert_eq!(tricks[0].leader, Seat::South); // declarer East's left-hand opponent
    assert_eq!(tricks[0].cards.to_vec(), cards("C5 C2 CK CA"));
}

#[test]
fn pbn_import_quirks_replays_legally() {
    let boards = read_fixture("pbn-import-quirks.pbn");
    let (strain, tricks) = replays_with_winners_leading(&boards[0]);
    assert_eq!(strain, Strain::NoTrump);
    assert_eq!(tricks.len(), 13);
    assert_eq!(tricks[0].winner, Seat::East); // ♦K holds the first trick
}

#[test]
fn unknown_contract_takes_the_order_of_the_first_legal_strain() {
    let mut board = read_fixture("pbn-spec-example.pbn").remove(0);
    let game = board.game.as_deref_mut().unwrap();
    game.auction = None;
    for (name, value) in game.tags.iter_mut() {
        if name == "Contract" || name == "Declarer" {
            *value = "?".into();
        }
    }
    assert_eq!(contract_of(game), None);
    let bp = board_play(&board.deal, game).unwrap().unwrap();
    assert_eq!((bp.strain, bp.declarer), (None, None));
    // Notrump and spades leave a gap in trick 7 (North would lead it); hearts replays.
    let known = read_fixture("pbn-spec-example.pbn").remove(0);
    let expected = board_play(&known.deal, known.game.as_deref().unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(bp.record, expected.record);
}

#[test]
fn an_opening_lead_by_the_wrong_seat_is_rejected() {
    let mut board = read_fixture("pbn-spec-example.pbn").remove(0);
    let game = board.game.as_deref_mut().unwrap();
    game.play.as_mut().unwrap().leader = Seat::North;
    let err = board_play(&board.deal, game).unwrap_err();
    assert_eq!(
        *err.kind(),
        ModelErrorKind::WrongOpeningLeader {
            declarer: Seat::South,
            found: Seat::North
        }
    );
    assert_eq!(
        err.to_string(),
        "trick 1: led by N, but with declarer S the opening lead is W's"
    );
}

#[test]
fn a_revoke_in_the_spec_example_names_trick_and_card() {
    let mut board = read_fixture("pbn-spec-example.pbn").remove(0);
    let game = board.game.as_deref_mut().unwrap();
    let play = game.play.as_mut().unwrap();
    // East (column 2) plays ♥5 to trick 2 (clubs led, East holds ♣QJT6) and ♣6 in trick 6.
    play.tricks[1][2] = Some(card("H5"));
    play.tricks[5][2] = Some(card("C6"));
    // The play is kept up to the card before the revoke: trick 1 and the ♣ lead of trick 2.
    let kept = board_play(&board.deal, game).unwrap().unwrap();
    let tricks = kept.record.tricks();
    assert_eq!(
        (tricks.len(), tricks[0].cards.len(), &tricks[1].cards[..]),
        (2, 4, &[card("C2")][..])
    );
    let err = kept.cut_by.expect("the revoke cut the play short");
    assert_eq!(
        *err.kind(),
        ModelErrorKind::Revoke {
            trick: 2,
            place: 2,
            card: card("H5"),
            seat: Seat::East,
            led: Suit::Clubs,
            held: card("CQ"),
        }
    );
    assert_eq!(
        err.to_string(),
        "trick 2, card 2 (H5): E revokes: C was led and E holds CQ"
    );
}

#[test]
fn pbn_layout_gaps_are_errors() {
    let boards = read_fixture("pbn-spec-example.pbn");
    let mut play = boards[0].game.as_deref().unwrap().play.clone().unwrap();
    let hearts = Strain::Trumps(Suit::Hearts);
    // Trick 3 is led by South: West's card (after South's) missing while North's is there.
    play.tricks[2][0] = None;
    assert_eq!(
        kind(PlayRecord::from_pbn_play(&play, hearts)),
        Err(ModelErrorKind::Gap {
            trick: 3,
            seat: Seat::West
        })
    );
    // A short trick followed by another.
    let mut play = boards[0].game.as_deref().unwrap().play.clone().unwrap();
    play.tricks.push([None, None, Some(card("SA")), None]);
    assert_eq!(
        kind(PlayRecord::from_pbn_play(&play, hearts)),
        Err(ModelErrorKind::Gap {
            trick: 7,
            seat: Seat::West
        })
    );
}

#[test]
fn record_shapes_are_checked() {
    let t = |leader, s: &str| TrickRecord {
        leader,
        cards: cards(s),
    };
    assert_eq!(
        kind(PlayRecord::new(vec![
            t(Seat::West, "SA SK"),
            t(Seat::North, "S2 S3 S4 S5")
        ])),
        Err(ModelErrorKind::TrickSize { trick: 1, count: 2 })
    );
    assert_eq!(
        kind(PlayRecord::new(vec![t(Seat::West, "")])),
        Err(ModelErrorKind::TrickSize { trick: 1, count: 0 })
    );
    assert_eq!(
        kind(PlayRecord::new(vec![t(Seat::West, "S2"); 14])),
        Err(ModelErrorKind::TooManyTricks { count: 14 })
    );
    assert_eq!(
        kind(CardLayout::from_slots([5; 52])),
        Err(ModelErrorKind::BadSlot { slot: 0, value: 5 })
    );
}

#[test]
fn group_bytes_encode_and_decode() {
    assert_eq!(
        encode_groups(&[&[0x41, 0x3D], &[], &[0x00]]).unwrap(),
        [0x82, 0x41, 0x3D, 0x80, 0x81, 0x00]
    );
    assert_eq!(
        kind(encode_groups(&[&[0x80]])),
        Err(ModelErrorKind::StateNotACardByte {
            group: 0,
            card: 0,
            byte: 0x80
        })
    );
    assert_eq!(
        kind(encode_groups(&[&[0u8; 128]])),
        Err(ModelErrorKind::StateGroupTooLarge {
            group: 0,
            count: 128
        })
    );
    let g = decode_groups(&[0x82, 0x41, 0x3D, 0x80, 0x81, 0x00]).unwrap();
    assert_eq!(g.len(), 3);
    assert_eq!((g[2].offset, g[2].cards), (4, &[0x00][..]));
    assert!(decode_groups(&[]).unwrap().is_empty());
}

// ---------------------------------------------------------------------------------------------
// Random legal plays.

/// A tiny xorshift64 generator driven by a proptest seed.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x % n as u64) as usize
    }
}

/// A random legal play of all 13 tricks: leaders follow the winners under `strain`.
fn random_play(deal: &Deal, strain: Strain, opening: Seat, seed: u64) -> PlayRecord {
    let mut rng = XorShift(seed | 1);
    let mut hands = *deal.hands();
    let mut leader = opening;
    let mut tricks = Vec::new();
    for _ in 0..13 {
        let mut played = Vec::new();
        for i in 0..4 {
            let seat = leader.rotate(i);
            let hand = hands[seat.index()];
            let all: Vec<Card> = hand.cards().collect();
            let legal: Vec<Card> = match played.first() {
                Some(&lead) => {
                    let follow: Vec<Card> = all
                        .iter()
                        .copied()
                        .filter(|c: &Card| c.suit() == Card::suit(lead))
                        .collect();
                    if follow.is_empty() { all } else { follow }
                }
                None => all,
            };
            let c = legal[rng.below(legal.len())];
            hands[seat.index()].remove(c);
            played.push(c);
        }
        let four = [played[0], played[1], played[2], played[3]];
        tricks.push(TrickRecord {
            leader,
            cards: played,
        });
        leader = leader.rotate(trick_winner(&four, strain));
    }
    PlayRecord::new(tricks).unwrap()
}

fn any_deal() -> impl Strategy<Value = Deal> {
    (1u128..=dealdex::DEALS).prop_map(|n| Deal::from_number(n, Scheme::Pavlicek).unwrap())
}

fn any_strain() -> impl Strategy<Value = Strain> {
    (0usize..5).prop_map(|i| Strain::ALL[i])
}

fn any_seat() -> impl Strategy<Value = Seat> {
    (0usize..4).prop_map(Seat::from_index)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn array_after_k_tricks_is_hands_minus_played(
        deal in any_deal(), strain in any_strain(), opening in any_seat(), seed: u64, k in 0usize..=13,
    ) {
        let record = random_play(&deal, strain, opening, seed);
        prop_assert_eq!(record.replay(&deal, strain).unwrap().len(), 13);
        let first_k = PlayRecord::new(record.tricks()[..k].to_vec()).unwrap();
        let p = first_k.check(&deal).unwrap();
        let mut expected = *deal.hands();
        for (seat, c) in first_k.seated_cards() {
            prop_assert!(expected[seat.index()].remove(c));
        }
        for seat in Seat::ALL {
            prop_assert_eq!(p.hand(seat), expected[seat.index()]);
            prop_assert_eq!(p.hand(seat).len(), 13 - k);
        }
        prop_assert_eq!(p.played().len(), 4 * k);
        for c in Card::all() {
            let v = p.slots()[c.index()];
            match p.holder(c) {
                Some(s) => prop_assert!(expected[s.index()].contains(c) && v != 0),
                None => prop_assert_eq!(v, 0),
            }
        }
        // The PBN layout goes there and back under the same strain.
        let pbn: Play = record.to_pbn_play().unwrap();
        prop_assert_eq!(&PlayRecord::from_pbn_play(&pbn, strain).unwrap(), &record);
        // Play order alone gives the record back too.
        prop_assert_eq!(&PlayRecord::from_play_order(&deal, &record.cards()).unwrap(), &record);
    }

    #[test]
    fn a_revoke_is_always_caught(
        deal in any_deal(), strain in any_strain(), opening in any_seat(), seed: u64, pick: u64,
    ) {
        let record = random_play(&deal, strain, opening, seed);
        // Every place where the seat to play holds the suit led and another suit: a revoke
        // is possible there.
        let mut hands = *deal.hands();
        let mut chances = Vec::new();
        for (t, tr) in record.tricks().iter().enumerate() {
            let led = tr.cards[0].suit();
            for (i, &c) in tr.cards.iter().enumerate() {
                let seat = tr.leader.rotate(i);
                let h = hands[seat.index()];
                if i > 0 && h.suit_len(led) > 0 && h.suit_len(led) < h.len() {
                    let off: Vec<Card> = h.cards().filter(|x| x.suit() != led).collect();
                    chances.push((t, i, off));
                }
                hands[seat.index()].remove(c);
            }
        }
        prop_assume!(!chances.is_empty());
        let (t, i, off) = &chances[(pick % chances.len() as u64) as usize];
        let (t, i) = (*t, *i);
        let bad_card = off[(pick / 7 % off.len() as u64) as usize];
        let mut tricks = record.tricks()[..t].to_vec();
        let mut cut = record.tricks()[t].clone();
        cut.cards.truncate(i);
        cut.cards.push(bad_card);
        tricks.push(cut.clone());
        let bad = PlayRecord::new(tricks).unwrap();
        let err = bad.check(&deal).unwrap_err();
        let seat = cut.leader.rotate(i);
        match err.kind() {
            ModelErrorKind::Revoke { trick, place, card, seat: s, led, held } => {
                prop_assert_eq!(*trick, t + 1);
                prop_assert_eq!(*place, i + 1);
                prop_assert_eq!(*card, bad_card);
                prop_assert_eq!(*s, seat);
                prop_assert_eq!(*led, cut.cards[0].suit());
                prop_assert_eq!(held.suit(), *led);
            }
            other => prop_assert!(false, "expected a revoke, got {other:?}"),
        }
        prop_assert_eq!(bad.replay(&deal, strain).unwrap_err(), err.clone());
        let message = err.to_string();
        let prefix = format!("trick {}, card {} ({bad_card})", t + 1, i + 1);
        prop_assert!(message.starts_with(&prefix), "{}", message);
        prop_assert!(message.contains("revokes"), "{}", message);
    }

    #[test]
    fn a_card_out_of_turn_is_caught(
        deal in any_deal(), strain in any_strain(), opening in any_seat(), seed: u64, t in 0usize..13,
    ) {
        let record = random_play(&deal, strain, opening, seed);
        // Trick t's second and third cards swapped: each is now played by the wrong seat.
        let mut tricks = record.tricks().to_vec();
        tricks[t].cards.swap(1, 2);
        let err = PlayRecord::new(tricks).unwrap().check(&deal).unwrap_err();
        let leader = record.tricks()[t].leader;
        prop_assert_eq!(err.into_kind(), ModelErrorKind::NotHeld {
            trick: t + 1,
            place: 2,
            card: record.tricks()[t].cards[2],
            seat: leader.rotate(1),
            holder: Some(leader.rotate(2)),
        });
    }

    #[test]
    fn game_state_round_trips(
        deal in any_deal(), strain in any_strain(), opening in any_seat(), seed: u64, k in 0usize..=52,
    ) {
        let record = random_play(&deal, strain, opening, seed);
        let state = PlayState::during(&deal, &record, k).unwrap();
        let bytes = state.encode();
        prop_assert_eq!(bytes.len(), PlayState::BYTES);
        let groups = decode_groups(&bytes).unwrap();
        prop_assert_eq!(groups.len(), 8);
        // Hands face down, played cards face up.
        for (g, group) in groups.iter().enumerate() {
            for &b in group.cards {
                prop_assert_eq!(b & 0x40 != 0, g >= 4);
            }
        }
        let back = PlayState::decode(&bytes).unwrap();
        prop_assert_eq!(&back, &state);
        prop_assert_eq!(back.deal().unwrap(), deal);
        prop_assert_eq!(back.layout.played().len(), k);
        let cards = record.cards();
        for seat in Seat::ALL {
            let mine: Vec<Card> = record
                .seated_cards()
                .take(k)
                .filter(|(s, _)| *s == seat)
                .map(|(_, c)| c)
                .collect();
            prop_assert_eq!(&back.played[seat.index()], &mine);
        }
        prop_assert_eq!(cards.len(), 52);
    }

    #[test]
    fn malformed_game_states_name_the_offset(
        deal in any_deal(), strain in any_strain(), opening in any_seat(), seed: u64, k in 8usize..=40,
        at in 0usize..52,
    ) {
        let record = random_play(&deal, strain, opening, seed);
        let bytes = PlayState::during(&deal, &record, k).unwrap().encode();
        let groups: Vec<(usize, usize)> = decode_groups(&bytes)
            .unwrap()
            .iter()
            .map(|g| (g.offset, g.cards.len()))
            .collect();
        // The byte offset of card `at` among the 52.
        let mut card_offsets = Vec::new();
        for &(o, n) in &groups {
            card_offsets.extend(o + 1..o + 1 + n);
        }
        let off = card_offsets[at];

        // A card byte of a rank a bridge deck lacks.
        for rank in [0xB, 0xE, 0xF] {
            let mut b = bytes.clone();
            b[off] = b[off] & 0xF0 | rank;
            prop_assert_eq!(
                kind(PlayState::decode(&b)),
                Err(ModelErrorKind::StateBadCard { offset: off, byte: b[off] })
            );
        }
        // A card twice (card `at` copied over another card).
        let other = card_offsets[(at + 1) % 52];
        let mut b = bytes.clone();
        b[other] = b[off];
        let (first, second) = (off.min(other), off.max(other));
        let dup = PlayState::decode(&b).unwrap_err();
        let is_dup = matches!(*dup.kind(), ModelErrorKind::StateDuplicateCard { offset, first: f, .. } if offset == second && f == first);
        prop_assert!(is_dup, "{:?}", dup);
        // The state must start with a group byte.
        let mut b = bytes.clone();
        b.remove(0);
        prop_assert!(
            matches!(kind(PlayState::decode(&b)), Err(ModelErrorKind::StateGroupExpected { offset: 0, .. })),
            "{:?}", PlayState::decode(&b)
        );
        // A group byte whose count is one too many reaches the next group byte, or the end.
        let g = at % 8;
        let (o, n) = groups[g];
        let mut b = bytes.clone();
        b[o] += 1;
        let expected = if g == 7 {
            ModelErrorKind::StateTruncated { offset: 60, group: 7, start: o, count: n + 1, found: n }
        } else {
            ModelErrorKind::StateCountMismatch {
                offset: o + 1 + n, group: g, start: o, count: n + 1, found: n, byte: bytes[o + 1 + n],
            }
        };
        prop_assert_eq!(kind(PlayState::decode(&b)), Err(expected));
        // One too few: the last card byte stands where the next group byte should be.
        if n > 0 {
            let mut b = bytes.clone();
            b[o] -= 1;
            prop_assert_eq!(
                kind(PlayState::decode(&b)),
                Err(ModelErrorKind::StateGroupExpected { offset: o + n, byte: bytes[o + n], group: g + 1 })
            );
        }
        // Wrong group order: a seat's hand and played pile swapped (k >= 8: every seat has
        // played, so the pile and hand sizes differ and the played counts are out of step).
        let s = at % 4;
        if groups[s].1.abs_diff(groups[s + 4].1) > 1 {
            let parts: Vec<&[u8]> = (0..8)
                .map(|i| match i {
                    i if i == s => s + 4,
                    i if i == s + 4 => s,
                    i => i,
                })
                .map(|j| {
                    let (o, n) = groups[j];
                    &bytes[o + 1..o + 1 + n]
                })
                .collect();
            let err = PlayState::decode(&encode_groups(&parts).unwrap()).unwrap_err();
            let is_seat = matches!(err.kind(), ModelErrorKind::StateSeatCards { .. });
            prop_assert!(is_seat, "{:?}", err);
        }
        // A surplus group, and a state cut short.
        let mut b = bytes.clone();
        b.push(0x80);
        let err = PlayState::decode(&b);
        let ok = matches!(kind(err.clone()), Err(ModelErrorKind::StateGroupCount { offset: 60, found: 9, expected: 8, .. }));
        prop_assert!(ok, "{:?}", err);
        let b = &bytes[..59];
        let err = PlayState::decode(b);
        let ok = matches!(kind(err.clone()), Err(ModelErrorKind::StateTruncated { offset: 59, .. }));
        prop_assert!(ok, "{:?}", err);
    }
}

#[test]
fn game_state_errors_read_well() {
    let deal = read_fixture("pbn-spec-example.pbn").remove(0).deal;
    let mut bytes = PlayState::new(&deal).encode();
    bytes[0] = 0x8C;
    assert_eq!(
        PlayState::decode(&bytes).unwrap_err().to_string(),
        format!(
            "byte 13: 0x{:02X} is a card byte where a group byte (1NNNNNNN) must start group 1",
            bytes[13]
        )
    );
    let mut bytes = PlayState::new(&deal).encode();
    bytes.extend_from_slice(&[0x80]);
    assert_eq!(
        PlayState::decode(&bytes).unwrap_err().to_string(),
        "byte 60: 9 groups, a bridge play state has 8"
    );
    // Moving a card from West's hand to North's: 12 + 14 cards.
    let state = PlayState::new(&deal);
    let bytes = state.encode();
    let groups = decode_groups(&bytes).unwrap();
    let (w, n) = (groups[0].cards, groups[1].cards);
    let mut north = n.to_vec();
    north.push(w[0]);
    let mut parts: Vec<&[u8]> = vec![&w[1..], &north];
    parts.extend(groups[2..].iter().map(|g| g.cards));
    let moved = encode_groups(&parts).unwrap();
    assert_eq!(
        PlayState::decode(&moved).unwrap_err().to_string(),
        "byte 0: W holds 12 cards and played 0: a seat has 13 cards in all"
    );
}
