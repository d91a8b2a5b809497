//! Every played card judged double dummy (`dd::analyse_plays`, issue 53) on boards with real
//! play: the 32 boards of a vugraph match (crates/solver/tests/fixtures/vugraph, Nicolas
//! Hammond's archive, MIT) and 100 seeded deals with random legal plays (whole, or cut as a
//! claim cuts them, every strain and declarer).
//!
//! Against DDS itself (`--features dds`): every value DDS's `AnalysePlayBin` gives equals
//! dealdex's, on all 132 boards, and `--solver dds` gives the same analyses. Without DDS:
//! each value equals the one computed independently from the position it follows (pons-dds's
//! `SolveBoard` of every legal card there, `dd::play_tricks`), on every card of 4 boards (12
//! with `DEALDEX_FULL_TESTS=1`: each position's solve is slow, about 0.6 s of CPU a board, and
//! CI's dds step compares all 132 with DDS); the first equals the DD table's entry.

use dealdex::dd::{PlayPosition, PlayedBoard, Solver, analyse_plays, play_tricks};
use dealdex::formats;
use dealdex::{Card, Deal, Scheme, Seat, Strain, Suit, board_play, trick_winner};

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use crate::common::full_tests;

/// The vugraph match's boards with a play and a contract (both rooms).
fn vugraph_boards() -> Vec<PlayedBoard> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/solver/tests/fixtures/vugraph/00001.lin"
    );
    let data = std::fs::read(path).unwrap();
    let boards = formats::by_path(std::path::Path::new(path))
        .unwrap()
        .read(&data)
        .unwrap();
    boards
        .iter()
        .filter_map(|b| {
            let played = board_play(&b.deal, b.game.as_deref()?).unwrap()?;
            Some(PlayedBoard {
                deal: b.deal,
                strain: played.strain?,
                declarer: played.declarer?,
                cards: played.record.cards(),
            })
        })
        .collect()
}

/// `n` seeded deals, each with a random strain and declarer and a random legal play: all 52
/// cards for half of them, else cut after a random number of cards (a claim).
fn random_boards(n: usize) -> Vec<PlayedBoard> {
    let mut rng = ChaCha20Rng::seed_from_u64(53);
    // 0..n, uniform enough for n ≤ 53.
    fn below(rng: &mut ChaCha20Rng, n: usize) -> usize {
        (rng.next_u64() % n as u64) as usize
    }
    let strains = [
        Strain::NoTrump,
        Strain::Trumps(Suit::Spades),
        Strain::Trumps(Suit::Hearts),
        Strain::Trumps(Suit::Diamonds),
        Strain::Trumps(Suit::Clubs),
    ];
    (0..n)
        .map(|_| {
            let number = 1
                + (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) % 10u128.pow(28);
            let deal = Deal::from_number(number, Scheme::Pavlicek).unwrap();
            let strain = strains[below(&mut rng, 5)];
            let declarer = Seat::ALL[below(&mut rng, 4)];
            let mut hands = *deal.hands();
            let mut leader = declarer.next();
            let mut cards = Vec::new();
            for _ in 0..13 {
                let mut trick: Vec<Card> = Vec::new();
                for j in 0..4 {
                    let hand = &mut hands[leader.rotate(j).index()];
                    let led = trick.first().map(|c| c.suit());
                    let follow: Vec<Card> =
                        hand.cards().filter(|c| Some(c.suit()) == led).collect();
                    let legal = if follow.is_empty() {
                        hand.cards().collect()
                    } else {
                        follow
                    };
                    let card = legal[below(&mut rng, legal.len())];
                    hand.remove(card);
                    trick.push(card);
                }
                let [a, b, c, d] = trick[..] else {
                    unreachable!()
                };
                leader = leader.rotate(trick_winner(&[a, b, c, d], strain));
                cards.extend(trick);
            }
            if below(&mut rng, 2) == 0 {
                cards.truncate(below(&mut rng, 53));
            }
            PlayedBoard {
                deal,
                strain,
                declarer,
                cards,
            }
        })
        .collect()
}

/// The 132 boards: the match's 32, then 100 random plays.
fn boards() -> Vec<PlayedBoard> {
    let mut boards = vugraph_boards();
    assert_eq!(boards.len(), 32, "the match's 32 played boards");
    boards.extend(random_boards(100));
    boards
}

/// Declarer's side's tricks before the lead and after each card, each computed alone from its
/// position: the tricks declarer's side has won, plus the best the side to play can do there
/// (`play_tricks`, pons-dds's SolveBoard of every legal card) from its own or the other
/// side's view.
fn position_by_position(board: &PlayedBoard) -> Vec<u8> {
    let declarer_side = |s: Seat| s.index() % 2 == board.declarer.index() % 2;
    let mut hands = *board.deal.hands();
    let mut leader = board.opening_leader();
    let mut trick: Vec<Card> = Vec::new();
    let mut won = 0u8;
    let mut values = Vec::new();
    for k in 0..=board.cards.len() {
        let left = 13 - (k / 4) as u8;
        let value = if k == 52 {
            won
        } else {
            let position = PlayPosition {
                hands,
                strain: board.strain,
                leader,
                trick: trick.clone(),
            };
            let best = play_tricks(&position)
                .unwrap()
                .iter()
                .map(|&(_, t)| t)
                .max()
                .unwrap();
            let to_play = leader.rotate(trick.len());
            won + if declarer_side(to_play) {
                best
            } else {
                left - best
            }
        };
        values.push(value);
        let Some(&card) = board.cards.get(k) else {
            break;
        };
        let seat = leader.rotate(trick.len());
        assert!(hands[seat.index()].remove(card));
        trick.push(card);
        if let [a, b, c, d] = trick[..] {
            leader = leader.rotate(trick_winner(&[a, b, c, d], board.strain));
            won += u8::from(declarer_side(leader));
            trick.clear();
        }
    }
    values
}

#[test]
fn every_value_equals_the_position_solved_alone() {
    let boards = boards();
    let step = if full_tests() { 12 } else { 4 };
    // Every step-th board, the match's and random ones alike.
    let chosen: Vec<PlayedBoard> = boards.iter().step_by(132 / step).cloned().collect();
    let found = Solver::Pons.with(|| analyse_plays(&chosen, 2)).unwrap();
    for (board, analysis) in chosen.iter().zip(found) {
        let analysis = analysis.unwrap();
        assert_eq!(analysis.tricks, position_by_position(board), "{board:?}");
        let table = dealdex::dd::solve(&board.deal);
        assert_eq!(
            analysis.tricks[0],
            table.tricks(board.declarer, board.strain),
            "{board:?}"
        );
    }
}

/// The match's play reads as the players played it: each board's last value is what declarer
/// made where the play ran to the end, and costs add up.
#[test]
fn the_match_is_judged_with_costs_that_add_up() {
    let boards = vugraph_boards();
    let found = Solver::Pons.with(|| analyse_plays(&boards, 2)).unwrap();
    let mut lost = (0u32, 0u32);
    for (board, a) in boards.iter().zip(found) {
        let a = a.unwrap();
        assert_eq!(a.tricks.len(), board.cards.len() + 1);
        let net = i32::from(a.tricks[0]) - i32::from(*a.tricks.last().unwrap());
        assert_eq!(net, i32::from(a.declarer_lost) - i32::from(a.defence_lost));
        let costs: u32 = a.costs.iter().map(|c| u32::from(c.tricks)).sum();
        assert_eq!(
            costs,
            u32::from(a.declarer_lost) + u32::from(a.defence_lost)
        );
        assert_eq!(a.lead_cost, Some(a.tricks[1].saturating_sub(a.tricks[0])));
        lost.0 += u32::from(a.declarer_lost);
        lost.1 += u32::from(a.defence_lost);
    }
    // Experts at a vugraph table still give tricks away, double dummy.
    assert!(lost.0 > 0 && lost.1 > 0, "{lost:?}");
}

/// A play with an illegal card is refused with the card's position, the other boards judged.
#[test]
fn an_illegal_card_is_refused_by_position() {
    let mut boards = vugraph_boards();
    boards.truncate(3);
    // The second board's fifth card swapped for the first trick's lead: played before.
    boards[1].cards[4] = boards[1].cards[0];
    let found = analyse_plays(&boards, 2);
    assert!(found[0].is_ok() && found[2].is_ok());
    let err = found[1].as_ref().unwrap_err();
    assert!(
        matches!(
            err.kind(),
            dealdex::dd::DdErrorKind::IllegalCard { position: 5, .. }
        ),
        "{err:?}"
    );
    assert!(err.to_string().starts_with("card 5 of the play, "), "{err}");
}

/// Every value DDS's own `AnalysePlayBin` gives (the first 48 cards' and the value before the
/// lead) equals dealdex's on all 132 boards, and the analyses with `--solver dds` (DDS's, its
/// forced last trick completed) are dealdex's.
#[cfg(feature = "dds")]
#[test]
fn dds_analyse_play_gives_every_value() {
    dealdex_dds::install();
    let boards = boards();
    let pons = Solver::Pons.with(|| analyse_plays(&boards, 2)).unwrap();
    let mut compared = 0;
    for (board, ours) in boards.iter().zip(&pons) {
        let ours = ours.as_ref().unwrap();
        let theirs = dealdex_dds::analyse_play(
            &board.deal,
            board.strain,
            board.opening_leader(),
            &board.cards,
        );
        assert_eq!(theirs.len(), board.cards.len().min(48) + 1, "{board:?}");
        assert_eq!(theirs[..], ours.tricks[..theirs.len()], "{board:?}");
        compared += theirs.len();
    }
    assert!(compared > 132 * 20, "{compared} values compared");
    let dds = Solver::Dds.with(|| analyse_plays(&boards, 2)).unwrap();
    assert_eq!(dds, pons);
}

/// The speed measurement of benches/RESULTS.md ("Every played card judged double dummy"):
/// cards analysed a second over the 132 boards on 2 threads, by pons-dds and by DDS's own
/// `AnalysePlayBin` (each board a task on the same two solver threads), printed. Run with
/// `cargo test --release --features dds --test slow -- --ignored --nocapture measure_`.
#[cfg(feature = "dds")]
#[test]
#[ignore = "a measurement, not a check"]
fn measure_analyse_play_speed() {
    dealdex_dds::install();
    let boards = boards();
    let cards: usize = boards.iter().map(|b| b.cards.len()).sum();
    for round in 1..=3 {
        for solver in [Solver::Pons, Solver::Dds] {
            let (start, cpu) = (std::time::Instant::now(), cpu_seconds());
            let found = solver.with(|| analyse_plays(&boards, 2)).unwrap();
            let (secs, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu);
            assert!(found.iter().all(Result::is_ok));
            println!(
                "round {round}: {solver}: {} boards, {cards} cards in {secs:.2} s wall, {cpu:.2} s CPU: {:.0} cards/s, {:.0} cards per CPU second",
                boards.len(),
                cards as f64 / secs,
                cards as f64 / cpu
            );
        }
    }
}

/// This process's user and system CPU time so far, in seconds (/proc/self/stat's utime and
/// stime, in clock ticks of 1/100 s).
#[cfg(feature = "dds")]
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // The fields after the command's parenthesis: state is field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}
