//! A position during the play (the deal page's play-through, issue 52): each legal card of
//! the seat to play with its side's double-dummy tricks from there, as Bridge Solver Online
//! shows them. pons-dds's `SolveBoard` on the remaining cards and the current trick.

use dealdex_model::card::{Card, Seat, Suit};
use dealdex_model::contract::Strain;
use dealdex_model::deal::Hand;

use super::{card_results, to_pons_seat, to_pons_strain};

/// A position: the cards still held and the current trick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayPosition {
    /// The cards each seat still holds, North, East, South, West (the current trick's cards
    /// no longer held). Hands differ by at most one card: those who played to the current
    /// trick hold one fewer.
    pub hands: [Hand; 4],
    /// The contract's strain.
    pub strain: Strain,
    /// Who led to the current trick.
    pub leader: Seat,
    /// The current trick's cards so far, in play order (0 to 3).
    pub trick: Vec<Card>,
}

/// Each legal card of the seat to play in `position` with the tricks its side takes from
/// the remaining ones (the current trick included), double dummy; cards in suit order
/// (spades first), highest rank first. `None` when the position is not one of a play (hands
/// of the wrong sizes, a card both held and played, more than 3 cards in the trick).
///
/// ```
/// use dealdex::dd::{PlayPosition, play_tricks};
/// use dealdex::{Seat, Strain};
/// let deal: dealdex::Deal = "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432".parse()?;
/// let position = PlayPosition { hands: *deal.hands(), strain: Strain::NoTrump, leader: Seat::East, trick: vec![] };
/// let plays = play_tricks(&position).unwrap();
/// assert_eq!(plays.len(), 13); // East's every card may lead
/// assert!(plays.iter().all(|&(_, tricks)| tricks == 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_tricks(position: &PlayPosition) -> Option<Vec<(Card, u8)>> {
    let text = position.hands.map(|h| h.to_string()).join(" ");
    let remaining: contract_bridge::PartialDeal = format!("N:{text}").parse().ok()?;
    let played: Vec<contract_bridge::Card> =
        position.trick.iter().map(|&c| to_pons_card(c)).collect();
    let trick = pons_dds::CurrentTrick::from_slice(
        to_pons_strain(position.strain),
        to_pons_seat(position.leader),
        &played,
    )
    .ok()?;
    let board = pons_dds::Board::try_new(remaining, trick).ok()?;
    let found = pons_dds::solve_boards(&[pons_dds::Objective {
        board,
        target: pons_dds::Target::Legal,
    }]);
    found.first().map(card_results)
}

/// A card in pons-dds's vocabulary.
pub(crate) fn to_pons_card(card: Card) -> contract_bridge::Card {
    let suit = match card.suit() {
        Suit::Spades => contract_bridge::Suit::Spades,
        Suit::Hearts => contract_bridge::Suit::Hearts,
        Suit::Diamonds => contract_bridge::Suit::Diamonds,
        Suit::Clubs => contract_bridge::Suit::Clubs,
    };
    contract_bridge::Card {
        suit,
        rank: contract_bridge::hand::Rank::new(card.rank().value()),
    }
}
