//! A play-through (`dealdex serve`'s deal page, issue 52): a deal, a contract and the cards
//! played so far; the position they reach, and each legal card of the seat to play with the
//! tricks declarer's side takes in all if it is played, double dummy (as Bridge Solver Online
//! shows them).
//!
//! ```
//! use dealdex::workflow::play::{PlayJob, run};
//! use dealdex::{Contract, Seat};
//! let deal: dealdex::Deal = "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432".parse()?;
//! let contract = Contract::from_pbn("7NT", Seat::North).unwrap();
//! let report = run(&PlayJob { deal, contract, played: vec!["ST".parse()?] })?;
//! assert_eq!((report.next, report.trick.len()), (Some(Seat::South), 1)); // dummy plays next
//! assert!(report.cards.iter().all(|c| c.tricks == 13 && c.card.starts_with('S')));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use crate::dd::{PlayPosition, play_tricks};
use crate::{Card, Contract, Deal, ErrorClass, Seat, trick_winner};

/// A deal, its contract and the cards played so far.
#[derive(Clone, Debug)]
pub struct PlayJob {
    /// The deal.
    pub deal: Deal,
    /// The contract and its declarer (the opening leader is declarer's left).
    pub contract: Contract,
    /// The cards played, in order from the opening lead (at most 52).
    pub played: Vec<Card>,
}

/// The position the play reached and each legal card's result.
#[derive(Clone, Debug, Serialize)]
pub struct PlayReport {
    /// The seat to play (its letter in JSON); `None` once 52 cards are played (`null`).
    #[serde(serialize_with = "crate::model::text::option_as_text")]
    pub next: Option<Seat>,
    /// Tricks won so far by declarer's side.
    pub declarer_tricks: u8,
    /// Tricks won so far by the defence.
    pub defence_tricks: u8,
    /// Who led to the current trick (its letter in JSON).
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub leader: Seat,
    /// The current trick's cards so far (`SA`), in play order.
    pub trick: Vec<String>,
    /// The cards each seat still holds, North first, in PBN's `S.H.D.C`.
    pub hands: Vec<String>,
    /// Each legal card of the seat to play with declarer's side's tricks in all (those won
    /// and those to come) if it is played, double dummy; spades first, ranks descending.
    pub cards: Vec<PlayOption>,
}

/// A legal card and its result.
#[derive(Clone, Debug, Serialize)]
pub struct PlayOption {
    /// The card (`SA`, `HT`).
    pub card: String,
    /// Declarer's side's tricks in all, 0..=13.
    pub tricks: u8,
}

/// Why a play cannot be followed.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// A card played is not in the hand of the seat whose turn it is.
    #[error("card {number} ({card}): {seat} does not hold it")]
    NotHeld {
        /// Its place in the play, from 1.
        number: usize,
        /// The card.
        card: Card,
        /// The seat to play.
        seat: &'static str,
    },
    /// A card played does not follow suit when the seat holds the suit led.
    #[error("card {number} ({card}): {seat} must follow to the suit led")]
    Revoke {
        /// Its place in the play, from 1.
        number: usize,
        /// The card.
        card: Card,
        /// The seat to play.
        seat: &'static str,
    },
    /// More than 52 cards.
    #[error("{0} cards played: a deal has 52")]
    TooMany(usize),
}

crate::classified!(PlayError);
impl crate::Classify for PlayError {
    /// Bad input: the play asked for is not one.
    fn class(&self) -> ErrorClass {
        ErrorClass::BadInput
    }
}

/// Follows `job`'s play and solves the position it reaches.
///
/// # Errors
/// [`PlayError`] when a card is not held by the seat to play, revokes, or more than 52
/// cards are given.
pub fn run(job: &PlayJob) -> Result<PlayReport, PlayError> {
    if job.played.len() > 52 {
        return Err(PlayError::TooMany(job.played.len()));
    }
    let strain = job.contract.strain;
    let mut hands = *job.deal.hands();
    let mut leader = job.contract.declarer.next();
    let mut trick: Vec<Card> = Vec::new();
    let mut declarer_tricks = 0u8;
    for (i, &card) in job.played.iter().enumerate() {
        let seat = leader.rotate(trick.len());
        let hand = &mut hands[seat.index()];
        let error = |revoke| match revoke {
            false => PlayError::NotHeld {
                number: i + 1,
                card,
                seat: seat.name(),
            },
            true => PlayError::Revoke {
                number: i + 1,
                card,
                seat: seat.name(),
            },
        };
        if !hand.contains(card) {
            return Err(error(false));
        }
        if let Some(led) = trick.first()
            && card.suit() != led.suit()
            && hand.suit_len(led.suit()) > 0
        {
            return Err(error(true));
        }
        hand.remove(card);
        trick.push(card);
        if let Ok(four) = <[Card; 4]>::try_from(trick.as_slice()) {
            let winner = leader.rotate(trick_winner(&four, strain));
            declarer_tricks += u8::from(same_side(winner, job.contract.declarer));
            leader = winner;
            trick.clear();
        }
    }
    let done = (job.played.len() / 4) as u8;
    let next = leader.rotate(trick.len());
    let cards = match job.played.len() {
        52 => Vec::new(),
        _ => {
            let position = PlayPosition {
                hands,
                strain,
                leader,
                trick: trick.clone(),
            };
            let ours = same_side(next, job.contract.declarer);
            let left = 13 - done;
            play_tricks(&position)
                .unwrap_or_default()
                .into_iter()
                .map(|(card, tricks)| PlayOption {
                    card: card.to_string(),
                    tricks: declarer_tricks + if ours { tricks } else { left - tricks },
                })
                .collect()
        }
    };
    Ok(PlayReport {
        next: (job.played.len() < 52).then_some(next),
        declarer_tricks,
        defence_tricks: done - declarer_tricks,
        leader,
        trick: trick.iter().map(Card::to_string).collect(),
        hands: hands.iter().map(ToString::to_string).collect(),
        cards,
    })
}

/// Whether `a` and `b` are partners (or the same seat).
fn same_side(a: Seat, b: Seat) -> bool {
    a.index() % 2 == b.index() % 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal() -> Deal {
        let seed: crate::Seed = "42".repeat(32).parse().unwrap();
        seed.board_deal(7)
    }

    /// Before any card, the best lead gives declarer the table's tricks; after a card, the
    /// best reply keeps the result that card had.
    #[test]
    fn results_agree_with_the_table_and_follow_the_play() {
        let deal = deal();
        let contract = Contract::from_pbn("3NT", Seat::South).unwrap();
        let table = crate::dd::solve(&deal);
        let start = run(&PlayJob {
            deal,
            contract,
            played: vec![],
        })
        .unwrap();
        assert_eq!((start.next, start.cards.len()), (Some(Seat::West), 13));
        let best = start.cards.iter().map(|c| c.tricks).min().unwrap();
        assert_eq!(best, table.tricks(Seat::South, crate::Strain::NoTrump));
        let lead = &start.cards[0];
        let after = run(&PlayJob {
            deal,
            contract,
            played: vec![lead.card.parse().unwrap()],
        })
        .unwrap();
        assert_eq!(after.next, Some(Seat::North));
        let best_reply = after.cards.iter().map(|c| c.tricks).max().unwrap();
        assert_eq!(best_reply, lead.tricks);
    }

    /// Played out card by card (each time the first legal card): after the 52nd nobody is to
    /// play (`null` in JSON), the tricks are all won, and no card is left to offer.
    #[test]
    fn a_played_out_deal_has_nobody_to_play() {
        let deal = deal();
        let contract = Contract::from_pbn("3NT", Seat::South).unwrap();
        let mut played = Vec::new();
        while played.len() < 52 {
            let r = run(&PlayJob {
                deal,
                contract,
                played: played.clone(),
            })
            .unwrap();
            assert!(r.next.is_some(), "card {}", played.len() + 1);
            played.push(r.cards[0].card.parse().unwrap());
        }
        let end = run(&PlayJob {
            deal,
            contract,
            played,
        })
        .unwrap();
        assert_eq!(end.next, None);
        assert_eq!(end.declarer_tricks + end.defence_tricks, 13);
        assert!(end.cards.is_empty());
        assert_eq!(
            serde_json::to_value(&end).unwrap()["next"],
            serde_json::Value::Null
        );
    }

    /// A card not held, and a revoke, are refused with their place.
    #[test]
    fn bad_plays_are_refused() {
        let deal = deal();
        let contract = Contract::from_pbn("4S", Seat::North).unwrap();
        let east = deal.hand(Seat::East);
        let south = deal.hand(Seat::South);
        let not_east = south.cards().next().unwrap();
        let e = run(&PlayJob {
            deal,
            contract,
            played: vec![not_east],
        })
        .unwrap_err();
        assert!(matches!(e, PlayError::NotHeld { number: 1, .. }), "{e}");
        // East leads a suit South holds; South plays another suit.
        let lead = east.cards().find(|c| south.suit_len(c.suit()) > 0).unwrap();
        if let Some(other) = south.cards().find(|c| c.suit() != lead.suit()) {
            let e = run(&PlayJob {
                deal,
                contract,
                played: vec![lead, other],
            })
            .unwrap_err();
            assert!(matches!(e, PlayError::Revoke { number: 2, .. }), "{e}");
        }
    }
}
