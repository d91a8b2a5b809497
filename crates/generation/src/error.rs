//! The crate's one error type, in rust-csv's style: an [`Error`] holds an [`ErrorKind`]
//! ([`Error::kind`]), says where the problem is when it is in a text ([`Error::position`]),
//! and its class follows from its kind.

use crate::model::InputPosition;
use crate::model::card::{Seat, Suit};

crate::classified! {
    /// Why a seed, a predeal or predealt suit lengths were refused, or the operating system's
    /// random source failed.
    #[derive(Clone, PartialEq, Eq)]
    pub struct Error(Box<ErrorKind>)
}

/// The kinds of [`Error`]. Lengths are numbers of cards (0..=13); columns are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Not 64 characters.
    #[error("seed has {found} characters, expected 64 hex digits (256 bits)")]
    SeedLength {
        /// The number of characters found.
        found: usize,
    },
    /// A character that is not a hex digit.
    #[error("seed: {found:?} at column {column} is not a hex digit")]
    SeedNotHex {
        /// 1-based column of the character.
        column: usize,
        /// The character.
        found: char,
    },
    /// The operating system's random source failed.
    #[error("cannot read the operating system's random source: {0}")]
    OsRandom(String),
    /// A predeal's text (`N:AKQ.A.. S:.KQJT9.2.`) that does not parse or cannot be dealt.
    #[error("predeal: column {column}: {message}")]
    Predeal {
        /// 1-based column in the text.
        column: usize,
        /// What was wrong and what was expected.
        message: String,
    },
    /// The predealt cards are not a partial deal: a bit above 51, a card given to two seats,
    /// or a seat with more than 13 cards.
    #[error("predealt cards: {message}")]
    Predealt {
        /// What is wrong.
        message: String,
    },
    /// A length above 13.
    #[error(
        "predeal {}({})=={length}: a suit has 13 cards",
        .suit.name(),
        .seat.name().to_lowercase()
    )]
    TooLong {
        /// The seat.
        seat: Seat,
        /// The suit.
        suit: Suit,
        /// The length given.
        length: u8,
    },
    /// The same seat and suit given two different lengths.
    #[error(
        "predeal {}({}) is given two lengths, {first} and {second}",
        .suit.name(),
        .seat.name().to_lowercase()
    )]
    Contradiction {
        /// The seat.
        seat: Seat,
        /// The suit.
        suit: Suit,
        /// The first length given.
        first: u8,
        /// The other length given.
        second: u8,
    },
    /// A length below the seat's predealt cards of the suit.
    #[error(
        "predeal {}({})=={length}: {} has {predealt} predealt {}",
        .suit.name(),
        .seat.name().to_lowercase(),
        .seat.name(),
        .suit.name()
    )]
    BelowPredealt {
        /// The seat.
        seat: Seat,
        /// The suit.
        suit: Suit,
        /// The length given.
        length: u8,
        /// The seat's predealt cards of the suit.
        predealt: u8,
    },
    /// A seat's predealt lengths plus its predealt cards of the suits without a length add up
    /// to more than 13 cards.
    #[error(
        "{} would hold {cards} cards: its predealt lengths ({}) and its predealt cards of the \
         other suits add up to more than 13",
        .seat.name(),
        and_list(&.suits.iter().map(|s| s.name()).collect::<Vec<_>>())
    )]
    SeatOverfull {
        /// The seat.
        seat: Seat,
        /// The suits with a predealt length for the seat, in suit order.
        suits: Vec<Suit>,
        /// The cards the seat would hold.
        cards: u8,
    },
    /// A seat has a predealt length in all four suits, adding up to fewer than 13 cards.
    #[error("{}'s four predealt suit lengths add up to {cards}, not 13", .seat.name())]
    SeatShort {
        /// The seat.
        seat: Seat,
        /// The sum of its four lengths.
        cards: u8,
    },
    /// A suit's predealt lengths plus its predealt cards held by seats without a length in
    /// the suit add up to more than 13 cards.
    #[error(
        "{}: the predealt lengths of {} and the other seats' predealt {} add up to {cards}, \
         more than the suit's 13",
        .suit.name(),
        and_list(&.seats.iter().map(|s| s.name()).collect::<Vec<_>>()),
        .suit.name()
    )]
    SuitOverfull {
        /// The suit.
        suit: Suit,
        /// The seats with a predealt length in the suit, in seat order.
        seats: Vec<Seat>,
        /// The cards of the suit predealt.
        cards: u8,
    },
    /// All four seats have a predealt length in a suit, adding up to fewer than 13 cards.
    #[error(
        "the four predealt {} lengths add up to {cards}, not 13",
        .suit.name()
    )]
    SuitShort {
        /// The suit.
        suit: Suit,
        /// The sum of the four lengths.
        cards: u8,
    },
    /// Some seats need more cards of the suits they have no length in than those suits have
    /// left (after the predealt cards and the other seats' lengths).
    #[error(
        "{} need {need} more cards from {} (their suits without a predealt length), which \
         have only {left} left",
        and_list(&.seats.iter().map(|s| s.name()).collect::<Vec<_>>()),
        and_list(&.suits.iter().map(|s| s.name()).collect::<Vec<_>>())
    )]
    Shortage {
        /// The seats, in seat order.
        seats: Vec<Seat>,
        /// The suits in which at least one of the seats has no predealt length, in suit
        /// order.
        suits: Vec<Suit>,
        /// The cards the seats still need outside their predealt lengths.
        need: u8,
        /// The cards of those suits left for them.
        left: u8,
    },
}

/// Names joined with commas and a final "and".
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

// Class: I/O when the operating system's random source failed; else bad input, the seed,
// predeal or lengths being the caller's. Position: the 1-based column of a seed's character
// that is not a hex digit, or of a predeal's problem.
crate::classified!(ErrorKind => class {
    ErrorKind::OsRandom(_) => Io,
    _ => BadInput,
}, position {
    ErrorKind::SeedNotHex { column, .. } | ErrorKind::Predeal { column, .. } => {
        InputPosition::at_column(*column)
    }
});
