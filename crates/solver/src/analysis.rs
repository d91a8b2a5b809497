//! Every played card judged double dummy (issue 53): the tricks declarer's side can take,
//! counting those already won, before the opening lead and after each card of a board's play,
//! as DDS's `AnalysePlayBin` gives them; and from those, the tricks each side gave away and on
//! which cards.
//!
//! pons-dds's `analyse_play` (its port of `AnalysePlayBin`) does the search by default; with
//! [`Solver::Dds`] it is DDS's own `AnalysePlayBin`, whose last trick (forced: one card a
//! hand) this module completes.

use std::sync::atomic::{AtomicUsize, Ordering};

use dealdex_model::card::{Card, Seat, Suit};
use dealdex_model::contract::{Strain, trick_winner};
use dealdex_model::deal::Deal;
use serde::{Deserialize, Serialize};

use super::{
    DdError, DdErrorKind, Solver, WARM_SOLVER, dds, solver_pool, to_pons_deal, to_pons_seat,
};
use super::{position::to_pons_card, to_pons_strain};

/// A board as it was played: the deal, the contract's strain and declarer, and the cards in
/// play order from the opening lead. The play may stop anywhere (a claim ends it, even in the
/// middle of a trick); it has at most 52 cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedBoard {
    /// The deal.
    pub deal: Deal,
    /// The contract's strain.
    pub strain: Strain,
    /// Declarer: the opening leader is the seat after (declarer's left-hand opponent).
    pub declarer: Seat,
    /// The cards played, in order, the opening lead first.
    pub cards: Vec<Card>,
}

impl PlayedBoard {
    /// The seat that leads to the first trick: declarer's left-hand opponent.
    pub fn opening_leader(&self) -> Seat {
        self.declarer.next()
    }

    /// The seat that played each card, in play order; checks every card as it goes.
    ///
    /// # Errors
    /// [`DdErrorKind::IllegalCard`] for the first card that cannot be played where it is, with
    /// its position in the play (1 = the opening lead) and why ([`PlayFault`]).
    pub fn seats(&self) -> Result<Vec<Seat>, DdError> {
        let mut hands = *self.deal.hands();
        let mut leader = self.opening_leader();
        let mut trick: Vec<Card> = Vec::with_capacity(4);
        let mut seats = Vec::with_capacity(self.cards.len());
        for (k, &card) in self.cards.iter().enumerate() {
            let seat = leader.rotate(trick.len());
            let fault = |fault| {
                DdError::from(DdErrorKind::IllegalCard {
                    position: k + 1,
                    card,
                    seat,
                    fault,
                })
            };
            if k >= 52 {
                return Err(fault(PlayFault::TooMany));
            }
            if !hands[seat.index()].contains(card) {
                return Err(fault(
                    match Seat::ALL
                        .into_iter()
                        .find(|s| hands[s.index()].contains(card))
                    {
                        Some(holder) => PlayFault::HeldBy(holder),
                        None => PlayFault::AlreadyPlayed,
                    },
                ));
            }
            let hand = &mut hands[seat.index()];
            if let Some(led) = trick.first().map(|c| c.suit())
                && card.suit() != led
                && hand.cards().any(|c| c.suit() == led)
            {
                return Err(fault(PlayFault::Revoke(led)));
            }
            hand.remove(card);
            trick.push(card);
            seats.push(seat);
            if let [a, b, c, d] = trick[..] {
                leader = leader.rotate(trick_winner(&[a, b, c, d], self.strain));
                trick.clear();
            }
        }
        Ok(seats)
    }

    /// Tricks declarer's side takes in the whole play when the last trick is forced (each
    /// hand holding one card once the first 48 are played): those won in the first twelve
    /// tricks and the thirteenth as the four last cards fall. `None` before the 48th card.
    /// The play must be legal ([`PlayedBoard::seats`]).
    fn forced_total(&self) -> Option<u8> {
        if self.cards.len() < 48 {
            return None;
        }
        let mut hands = *self.deal.hands();
        let mut leader = self.opening_leader();
        let mut won = 0;
        let declarer_side = |seat: Seat| seat.index() % 2 == self.declarer.index() % 2;
        for t in 0..13 {
            let cards: [Card; 4] = std::array::from_fn(|j| {
                let seat = leader.rotate(j);
                let card = match self.cards.get(4 * t + j) {
                    Some(&c) => c,
                    // Past the play's end only the last trick is left: each hand's one card.
                    None => hands[seat.index()].cards().next().expect("one card a hand"),
                };
                hands[seat.index()].remove(card);
                card
            });
            leader = leader.rotate(trick_winner(&cards, self.strain));
            won += u8::from(declarer_side(leader));
        }
        Some(won)
    }
}

/// Why a card of a play cannot be played where it is ([`DdErrorKind::IllegalCard`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayFault {
    /// Another seat holds it (the play is out of turn, or the card was given to the wrong
    /// seat).
    HeldBy(Seat),
    /// It was played before.
    AlreadyPlayed,
    /// The seat holds a card of the suit led and did not follow.
    Revoke(Suit),
    /// A 53rd card.
    TooMany,
}

impl std::fmt::Display for PlayFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayFault::HeldBy(s) => write!(f, "it is {}'s card", s.name()),
            PlayFault::AlreadyPlayed => f.write_str("it was played before"),
            PlayFault::Revoke(s) => {
                write!(f, "a revoke: the seat holds {} and must follow", s.name())
            }
            PlayFault::TooMany => f.write_str("a deal has 52 cards"),
        }
    }
}

/// One card that cost its side tricks, double dummy: after it, declarer's side can take fewer
/// tricks (a card of declarer or dummy) or more (a defender's card) than before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardCost {
    /// The card's position in the play, 1 = the opening lead.
    pub position: usize,
    /// Who played it, as the seat's letter in JSON (`"N"`).
    #[serde(
        serialize_with = "dealdex_model::text::as_text",
        deserialize_with = "dealdex_model::text::from_text"
    )]
    pub seat: Seat,
    /// The card, as suit and rank letters in JSON (`"SQ"`).
    #[serde(
        serialize_with = "dealdex_model::text::as_text",
        deserialize_with = "dealdex_model::text::from_text"
    )]
    pub card: Card,
    /// The tricks it cost its side, 1..=13.
    pub tricks: u8,
}

/// A board's play judged double dummy: declarer's side's tricks along the play, and the
/// tricks each side gave away and on which cards.
///
/// The tricks are DDS's `AnalysePlayBin` values: `tricks[0]` before the opening lead (the DD
/// table's entry for this declarer and strain), `tricks[k]` after the `k`-th card; each counts
/// the tricks declarer's side has already won and can still take, double dummy, 0..=13.
/// Double dummy, no card can gain its side a trick: every change is a cost.
/// `declarer_lost − defence_lost = tricks[0] − tricks[last]`.
///
/// JSON: `{"declarer": "S", "tricks": [9, 9, 8, …], "declarer_lost": 1, "defence_lost": 0,
/// "costs": [{"position": 2, "seat": "W", "card": "HQ", "tricks": 1}], "lead_cost": 0}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayAnalysis {
    /// Declarer, as the seat's letter in JSON.
    #[serde(
        serialize_with = "dealdex_model::text::as_text",
        deserialize_with = "dealdex_model::text::from_text"
    )]
    pub declarer: Seat,
    /// Declarer's side's tricks before the lead and after each card: one more than the cards.
    pub tricks: Vec<u8>,
    /// Tricks declarer's side gave away, the sum of its cards' costs.
    pub declarer_lost: u8,
    /// Tricks the defence gave away, the sum of its cards' costs.
    pub defence_lost: u8,
    /// Every card that cost its side, in play order.
    pub costs: Vec<CardCost>,
    /// What the opening lead cost the defence (0 for a lead that costs nothing); `None` when
    /// no card was played.
    pub lead_cost: Option<u8>,
}

impl PlayAnalysis {
    /// The judgement of `board`'s play from its tricks along the play (`tricks[0]` before the
    /// lead, then one a card, as [`analyse_plays`] gives and a store keeps them). `played` is
    /// each card with the seat that played it ([`PlayedBoard::seats`]), in play order.
    ///
    /// ```
    /// use dealdex::dd::PlayAnalysis;
    /// use dealdex::{Card, Seat};
    /// // South declares; West leads (costs nothing), North's card costs one, East's costs one.
    /// let card = |c: &str| c.parse::<Card>().unwrap();
    /// let played = [(Seat::West, card("HQ")), (Seat::North, card("H2")), (Seat::East, card("H3"))];
    /// let a = PlayAnalysis::from_tricks(Seat::South, &played, vec![9, 9, 8, 9]);
    /// assert_eq!((a.declarer_lost, a.defence_lost, a.lead_cost), (1, 1, Some(0)));
    /// assert_eq!(a.costs[0].position, 2);
    /// ```
    ///
    /// # Panics
    /// When `tricks` is not one longer than `played`.
    pub fn from_tricks(declarer: Seat, played: &[(Seat, Card)], tricks: Vec<u8>) -> PlayAnalysis {
        assert_eq!(
            tricks.len(),
            played.len() + 1,
            "one value before the play, one a card"
        );
        let mut costs = Vec::new();
        let (mut declarer_lost, mut defence_lost) = (0u8, 0u8);
        for (k, (&(seat, card), pair)) in played.iter().zip(tricks.windows(2)).enumerate() {
            let ours = seat.index() % 2 == declarer.index() % 2;
            let (before, after) = (i16::from(pair[0]), i16::from(pair[1]));
            let lost = if ours { before - after } else { after - before };
            if lost > 0 {
                let lost = lost as u8;
                if ours {
                    declarer_lost += lost;
                } else {
                    defence_lost += lost;
                }
                costs.push(CardCost {
                    position: k + 1,
                    seat,
                    card,
                    tricks: lost,
                });
            }
        }
        let lead_cost = tricks.get(1).map(|&after| after.saturating_sub(tricks[0]));
        PlayAnalysis {
            declarer,
            tricks,
            declarer_lost,
            defence_lost,
            costs,
            lead_cost,
        }
    }
}

/// One board's play judged double dummy: [`analyse_plays`] of one board, on the current
/// rayon pool's number of threads.
///
/// ```
/// use dealdex::dd::{PlayedBoard, analyse_play};
/// use dealdex::{Card, Seat, Strain};
/// // North holds every top card: in notrump East's lead and everything after make 13 for N-S.
/// let deal: dealdex::Deal = "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432".parse()?;
/// let cards: Vec<Card> = ["ST", "S3", "S2", "SA"].iter().map(|c| c.parse()).collect::<Result<_, _>>()?;
/// let board = PlayedBoard { deal, strain: Strain::NoTrump, declarer: Seat::North, cards };
/// let a = analyse_play(&board)?;
/// assert_eq!(a.tricks, [13, 13, 13, 13, 13]);
/// assert_eq!((a.declarer_lost, a.defence_lost), (0, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`analyse_plays`].
pub fn analyse_play(board: &PlayedBoard) -> Result<PlayAnalysis, DdError> {
    analyse_plays(std::slice::from_ref(board), rayon::current_num_threads())
        .pop()
        .expect("one result a board")
}

/// Judges the play of each board double dummy on `threads` threads (at least 1) of the
/// solver's pools ([`solve_on`](super::solve_on)'s), with the solver in use
/// ([`Solver::current`]); results in the order of `boards`. A board is one unit of work,
/// notrump boards handed out first (their searches are the long ones). About 900 cards a
/// second of one core with pons-dds, 1.06–1.10× DDS's `AnalysePlayBin` (benches/RESULTS.md, "Every
/// played card judged double dummy").
///
/// # Errors
/// For a board whose play is not legal, [`DdErrorKind::IllegalCard`] naming the first card that is
/// not (its position, 1-based, its seat and [`PlayFault`]); the other boards are judged.
pub fn analyse_plays(boards: &[PlayedBoard], threads: usize) -> Vec<Result<PlayAnalysis, DdError>> {
    let checked: Vec<Result<Vec<Seat>, DdError>> = boards.iter().map(PlayedBoard::seats).collect();
    let mut order: Vec<usize> = (0..boards.len()).filter(|&i| checked[i].is_ok()).collect();
    order.sort_by_key(|&i| boards[i].strain != Strain::NoTrump);
    let solver = Solver::current();
    let next = AtomicUsize::new(0);
    let work = || -> Vec<(usize, Vec<u8>)> {
        let mut done = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let tricks = match solver {
                Solver::Pons => pons_tricks(&boards[i]),
                Solver::Dds => dds_tricks(&boards[i]),
            };
            done.push((i, tricks));
        }
        done
    };
    let parts = match solver_pool(threads.clamp(1, order.len().max(1))) {
        Some(pool) => pool.broadcast(|_| work()),
        None => vec![work()],
    };
    let mut tricks: Vec<Option<Vec<u8>>> = vec![None; boards.len()];
    for (i, t) in parts.into_iter().flatten() {
        tricks[i] = Some(t);
    }
    checked
        .into_iter()
        .zip(tricks)
        .zip(boards)
        .map(|((seats, tricks), board)| {
            let seats = seats?;
            let tricks = tricks.expect("every legal play analysed");
            let played: Vec<(Seat, Card)> =
                seats.into_iter().zip(board.cards.iter().copied()).collect();
            Ok(PlayAnalysis::from_tricks(board.declarer, &played, tricks))
        })
        .collect()
}

/// pons-dds's `analyse_play` of a legal play, on this thread's warm solver.
fn pons_tricks(board: &PlayedBoard) -> Vec<u8> {
    let remaining = contract_bridge::PartialDeal::from(to_pons_deal(&board.deal));
    let trick = pons_dds::CurrentTrick::new(
        to_pons_strain(board.strain),
        to_pons_seat(board.opening_leader()),
    );
    let trace = pons_dds::PlayTrace {
        board: pons_dds::Board::try_new(remaining, trick)
            .expect("a full deal before the first card is a board"),
        cards: board.cards.iter().map(|&c| to_pons_card(c)).collect(),
    };
    WARM_SOLVER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let solver =
            slot.get_or_insert_with(|| pons_dds::Solver::new(contract_bridge::Strain::Notrump));
        let found = solver
            .try_analyse_play(&trace)
            .expect("a play checked legal is analysed");
        found.tricks.iter().map(|t| t.get()).collect()
    })
}

/// DDS's `AnalysePlayBin` of a legal play, its forced last trick completed: DDS stops after
/// the 48th card; every value after it is the play's final count.
fn dds_tricks(board: &PlayedBoard) -> Vec<u8> {
    let dds = dds().expect("Solver::select refuses a solver not installed");
    let mut tricks = dds.analyse_play(
        &board.deal,
        board.strain,
        board.opening_leader(),
        &board.cards,
    );
    if let Some(total) = board.forced_total() {
        tricks.resize(board.cards.len() + 1, total);
    }
    tricks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal() -> Deal {
        "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432"
            .parse()
            .unwrap()
    }

    fn board(cards: &str) -> PlayedBoard {
        PlayedBoard {
            deal: deal(),
            strain: Strain::NoTrump,
            declarer: Seat::North,
            cards: cards
                .split_whitespace()
                .map(|c| c.parse().unwrap())
                .collect(),
        }
    }

    fn fault(cards: &str) -> (usize, Seat, PlayFault) {
        match board(cards).seats().map_err(DdError::into_kind) {
            Err(DdErrorKind::IllegalCard {
                position,
                seat,
                fault,
                ..
            }) => (position, seat, fault),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn illegal_cards_are_named_by_position_seat_and_fault() {
        // East leads; South holds spades and plays a heart.
        assert_eq!(
            fault("ST H3"),
            (2, Seat::South, PlayFault::Revoke(Suit::Spades))
        );
        // North's ace played by East.
        assert_eq!(fault("SA"), (1, Seat::East, PlayFault::HeldBy(Seat::North)));
        // East's ten again in trick two (North won trick one and leads).
        assert_eq!(
            fault("ST S3 S2 SA ST"),
            (5, Seat::North, PlayFault::AlreadyPlayed)
        );
        let e = board("ST H3").seats().unwrap_err();
        assert_eq!(
            e.to_string(),
            "card 2 of the play, H3 by South: a revoke: the seat holds spades and must follow"
        );
    }

    #[test]
    fn costs_follow_the_side_that_played() {
        let b = board("ST S3 S2 SA SK");
        let played: Vec<(Seat, Card)> = b.seats().unwrap().into_iter().zip(b.cards).collect();
        let a = PlayAnalysis::from_tricks(Seat::North, &played, vec![10, 11, 11, 12, 12, 10]);
        assert_eq!(a.lead_cost, Some(1));
        assert_eq!((a.declarer_lost, a.defence_lost), (2, 2));
        let at: Vec<(usize, u8)> = a.costs.iter().map(|c| (c.position, c.tricks)).collect();
        assert_eq!(at, [(1, 1), (3, 1), (5, 2)]);
        assert_eq!(a.costs[2].card.to_string(), "SK");
        assert_eq!(a.costs[2].seat, Seat::North);
        let json = serde_json::to_string(&a).unwrap();
        assert!(json.contains(r#""seat":"E""#), "{json}");
        let back: PlayAnalysis = serde_json::from_str(&json).unwrap();
        assert_eq!(back, a);
    }

    /// A legal play of `deal`'s 52 cards: each seat plays its first card (in suited order)
    /// of the suit led, else its first card.
    fn full_play(deal: &Deal, strain: Strain, leader: Seat) -> Vec<Card> {
        let mut hands = *deal.hands();
        let mut leader = leader;
        let mut out = Vec::new();
        for _ in 0..13 {
            let mut trick: Vec<Card> = Vec::new();
            for j in 0..4 {
                let hand = &mut hands[leader.rotate(j).index()];
                let led = trick.first().map(|c| c.suit());
                let card = hand
                    .cards()
                    .find(|c| Some(c.suit()) == led)
                    .or_else(|| hand.cards().next())
                    .unwrap();
                hand.remove(card);
                trick.push(card);
            }
            leader = leader.rotate(trick_winner(
                &[trick[0], trick[1], trick[2], trick[3]],
                strain,
            ));
            out.extend(trick);
        }
        out
    }

    #[test]
    fn the_forced_last_trick_ends_the_play_as_the_search_does() {
        for n in 1..=6u128 {
            let deal = Deal::from_number(
                n * 7_919_000_000_000_000_000_000_000,
                dealdex_model::number::Scheme::Pavlicek,
            )
            .unwrap();
            for (strain, declarer) in [
                (Strain::NoTrump, Seat::South),
                (Strain::Trumps(Suit::Hearts), Seat::East),
            ] {
                let cards = full_play(&deal, strain, declarer.next());
                let full = PlayedBoard {
                    deal,
                    strain,
                    declarer,
                    cards,
                };
                let a = analyse_play(&full).unwrap();
                assert_eq!(a.tricks.len(), 53);
                assert_eq!(full.forced_total(), Some(a.tricks[52]));
                // Cut inside the last trick: the same total.
                let cut = PlayedBoard {
                    cards: full.cards[..50].to_vec(),
                    ..full.clone()
                };
                assert_eq!(cut.forced_total(), Some(a.tricks[52]));
                assert_eq!(analyse_play(&cut).unwrap().tricks[..], a.tricks[..51]);
                assert_eq!(
                    PlayedBoard {
                        cards: full.cards[..47].to_vec(),
                        ..full
                    }
                    .forced_total(),
                    None
                );
            }
        }
    }
}
