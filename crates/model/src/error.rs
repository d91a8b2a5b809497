//! The crate's one error type, in rust-csv's style: an [`Error`] holds an [`ErrorKind`]
//! ([`Error::kind`]), says where the problem is when it is in a text or in bytes
//! ([`Error::position`]), and its class follows from its kind.

use crate::card::{Card, Seat, Suit};
use crate::number::Scheme;
use crate::play::encoding::Encoding;
use crate::text::OptionalPlace;
use crate::{Classify, ErrorClass, InputPosition};

crate::classified! {
    /// Why a text, a number or bytes given to the model are not what they should be: a deal
    /// string, a hex index, a hand-record number, a card encoding, a play record, a game state,
    /// a name (seat, suit, strain, contract, vulnerability, scheme), or four hands that are not a
    /// deal. Its position ([`Error::position`]) is the 1-based column in a deal string, an index
    /// or a number, or the 0-based byte offset in a game state.
    ///
    /// ```
    /// let e = dealdex::parse_deal("N:AKQ.x").unwrap_err();
    /// assert_eq!(e.position().unwrap().column, Some(7));
    /// ```
    #[derive(Clone, PartialEq, Eq)]
    pub struct Error(Box<ErrorKind>), with position
}

impl Error {
    /// This error placed at the 1-based `column` of a deal string, when it is a deal
    /// string's kind without a column yet (the hands are not a deal, or a syntax problem
    /// found on bytes); other kinds are returned unchanged.
    pub(crate) fn at_column(mut self, at: usize) -> Error {
        if let ErrorKind::PbnSyntax { column, .. }
        | ErrorKind::WrongCount { column, .. }
        | ErrorKind::DuplicateCard { column, .. } = &mut *self.0
        {
            *column = Some(at);
        }
        self
    }
}

/// The kinds of [`Error`]. Columns are 1-based and count characters; byte offsets are
/// 0-based; tricks and places in a trick are 1-based; groups of a game state are 0-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A hex deal index without 26 hex characters (plus an optional `-X`).
    #[error(
        "deal index: column {column}: found {found} characters, expected 26 hex digits \
         (optionally with -X)"
    )]
    IndexLength {
        /// The number of characters found in the index part.
        found: usize,
        /// 1-based column (character position) in the input string: the 27th character of a
        /// too long index part, or the place of the first missing one.
        column: usize,
    },
    /// A hex deal index with a character that is not a hex digit.
    #[error("deal index: {found:?} at column {column} is not a hex digit")]
    IndexNotHex {
        /// 1-based column (character position) in the input string.
        column: usize,
        /// The offending character.
        found: char,
    },
    /// A deal index (13 bytes) well formed but giving a seat other than 13 cards.
    #[error("deal index gives {seat} {count} cards, expected 13")]
    IndexWrongCount {
        /// The first seat (N, E, S, W order) with a wrong count.
        seat: Seat,
        /// How many cards the index gives it.
        count: usize,
    },
    /// A character that has no place at that point of a PBN deal string or hand.
    #[error("{}{message}", OptionalPlace("column", *column))]
    PbnSyntax {
        /// 1-based column (character position) in the deal string; `None` only from
        /// [`parse_deal_bytes`](crate::deal_string::parse_deal_bytes), which gives the byte
        /// offset beside the error.
        column: Option<usize>,
        /// What was found and what was expected.
        message: String,
    },
    /// Four hands (or a deal string's) where a seat does not hold exactly 13 cards.
    #[error("{}{seat} holds {count} cards, expected 13", OptionalPlace("column", *column))]
    WrongCount {
        /// The first seat (in N, E, S, W order) with a wrong count.
        seat: Seat,
        /// How many cards it holds.
        count: usize,
        /// 1-based column (character position) of the start of the hand in a deal string;
        /// `None` for hands given as hands ([`Deal::new`](crate::deal::Deal::new)).
        column: Option<usize>,
    },
    /// Four hands (or a deal string's) where a card is held by two seats.
    #[error("{}{card} is held by both {first} and {second}", OptionalPlace("column", *column))]
    DuplicateCard {
        /// The card held twice (the lowest in suited order).
        card: Card,
        /// The first seat holding it.
        first: Seat,
        /// The second seat holding it.
        second: Seat,
        /// 1-based column (character position) of the card in the second hand holding it
        /// in a deal string; `None` for hands given as hands.
        column: Option<usize>,
    },
    /// A vulnerability spelling that PBN import does not know.
    #[error("unknown vulnerability {text:?} (expected None, NS, EW, All, Love, Both or -)")]
    UnknownVulnerability {
        /// The text as given.
        text: String,
    },
    /// A seat or a suit given as text that names none ([`Seat`]'s and [`Suit`]'s `FromStr`).
    #[error("{text:?} is not a {what} ({expected})")]
    UnknownName {
        /// The text as given.
        text: String,
        /// What it should have named: `seat` or `suit`.
        what: &'static str,
        /// The spellings taken, for the message.
        expected: &'static str,
    },
    /// A text that is not a strain ([`Strain`](crate::contract::Strain)'s `FromStr`).
    #[error("{text:?} is not a strain (expected S, H, D, C or NT)")]
    NotAStrain {
        /// The text as given.
        text: String,
    },
    /// A text that is not a contract with its declarer
    /// ([`Contract`](crate::contract::Contract)'s `FromStr`).
    #[error("{text:?} is not a contract with its declarer (expected e.g. 3NT:S, 4HX:N, 6CXX:E)")]
    NotAContract {
        /// The text as given.
        text: String,
    },
    /// A hand-record number that is not one of the scheme's: outside 1..=D (Pavlicek,
    /// Andrews) or 0..=D−1 (Big Deal).
    #[error(
        "hand-record number {number} is out of range: valid {scheme} numbers are {}..={}",
        scheme.first_number(),
        scheme.last_number()
    )]
    NumberOutOfRange {
        /// The number as given.
        number: String,
        /// The scheme it was read in.
        scheme: Scheme,
    },
    /// A text that is not a decimal or `0x` hex number.
    #[error("{input:?} is not a number: column {column} ({message})")]
    NumberSyntax {
        /// The text given.
        input: String,
        /// 1-based column of the first bad character.
        column: usize,
        /// What was expected.
        message: &'static str,
    },
    /// An unknown numbering scheme name.
    #[error("unknown numbering scheme {name:?} (expected pavlicek, andrews or bigdeal)")]
    UnknownScheme {
        /// The name as given.
        name: String,
    },
    /// A card encoding's number outside its range, e.g. seed 000 slot 53.
    #[error("{encoding} {value} is out of range: {valid}")]
    EncodingOutOfRange {
        /// The encoding the value was read in.
        encoding: Encoding,
        /// The value as given.
        value: u64,
        /// The valid range, in words.
        valid: &'static str,
    },
    /// A seed 001 32-bit value whose fields disagree or are not a card's, e.g.
    /// `32-bit card 0x00082347 (533319) is inconsistent: suit bit says hearts, ss bits say
    /// diamonds`.
    #[error("32-bit card 0x{value:08X} ({value}) is inconsistent: {reason}")]
    StandardCard {
        /// The 32-bit value.
        value: u32,
        /// Which fields disagree, or which field is not valid.
        reason: String,
    },
    /// A seed 004 card byte that is no bridge card (a group byte, a knight, a reserved rank).
    #[error("seed004 card byte 0x{byte:02X} (0b{byte:08b}) is not a bridge card: {reason}")]
    CardByte {
        /// The byte.
        byte: u8,
        /// What is wrong with it.
        reason: String,
    },
    /// A code point that is no bridge card (outside the suited rows, a knight, a joker, the
    /// card back, a reserved rank).
    #[error("U+{code:04X} is not a bridge card: {reason}")]
    Unicode {
        /// The code point.
        code: u32,
        /// What it is instead.
        reason: String,
    },
    /// Card text [`parse_card`](crate::play::encoding::parse_card) cannot read.
    #[error(
        "'{text}' is not a card: {reason} (write a rank and a suit, e.g. QC, CQ, ♣Q, 10H, TH, h10)"
    )]
    CardText {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Text that is not one of seed 003's 52 display values.
    #[error(
        "'{text}' is not a seed 003 display value: expected a rank 2..10, J, Q, K or A, then \
         one of ♥ ♠ ♦ ♣, e.g. 10♥ or Q♣"
    )]
    SymbolText {
        /// The text as given.
        text: String,
    },
    /// A name that is not one of [`Encoding::ALL`].
    #[error(
        "unknown encoding '{name}': expected seed000-slot, standard-card, seed003-number, \
         seed004-byte or unicode"
    )]
    UnknownEncoding {
        /// The name as given.
        name: String,
    },
    /// A play: the seat whose turn it is does not hold the card: another seat does, or it
    /// was played before (`holder` is `None`).
    #[error("trick {trick}, card {place} ({card}): it is {seat}'s turn but {}", match holder {
        Some(h) => format!("{h} holds {card}"),
        None => format!("{card} was played before"),
    })]
    NotHeld {
        /// 1-based trick number.
        trick: usize,
        /// 1-based place of the card in the trick, in play order.
        place: usize,
        /// The card.
        card: Card,
        /// The seat whose turn it was.
        seat: Seat,
        /// The seat holding the card, `None` when it was already played.
        holder: Option<Seat>,
    },
    /// A play: a revoke, the seat did not follow the suit led although it held a card of it.
    #[error("trick {trick}, card {place} ({card}): {seat} revokes: {} was led and {seat} holds {held}", led.letter())]
    Revoke {
        /// 1-based trick number.
        trick: usize,
        /// 1-based place of the card in the trick, in play order.
        place: usize,
        /// The card played.
        card: Card,
        /// The seat that played it.
        seat: Seat,
        /// The suit led.
        led: Suit,
        /// The highest card of the suit led that the seat held.
        held: Card,
    },
    /// A play: a trick led by a seat other than the winner of the trick before.
    #[error("trick {trick}: led by {found}, but {expected} won trick {}", trick - 1)]
    WrongLeader {
        /// 1-based trick number (2..=13).
        trick: usize,
        /// The winner of the trick before.
        expected: Seat,
        /// The seat that led.
        found: Seat,
    },
    /// A play: the opening lead is not made by declarer's left-hand opponent.
    #[error("trick 1: led by {found}, but with declarer {declarer} the opening lead is {}'s", declarer.next())]
    WrongOpeningLeader {
        /// Declarer.
        declarer: Seat,
        /// The seat that led.
        found: Seat,
    },
    /// A play: a trick with no card, more than four, or fewer than four before the last
    /// trick.
    #[error("trick {trick}: {count} cards (a trick has 4; only the last may have 1 to 3)")]
    TrickSize {
        /// 1-based trick number.
        trick: usize,
        /// How many cards it has.
        count: usize,
    },
    /// A play in PBN layout: a seat's card is missing (`-`) but a seat after it in play
    /// order has one, or a trick follows a short one.
    #[error("trick {trick}: {seat}'s card is not recorded but a card after it is")]
    Gap {
        /// 1-based trick number.
        trick: usize,
        /// The seat whose card is missing.
        seat: Seat,
    },
    /// A packed double-dummy table that is not [`crate::tricks::PACKED_LEN`] bytes.
    #[error(
        "a packed DD table has {} bytes, not {found}",
        crate::tricks::PACKED_LEN
    )]
    TableLength {
        /// The bytes given.
        found: usize,
    },
    /// A double-dummy table's trick count above 13.
    #[error("{declarer} declaring {strain}: {tricks} tricks (at most 13)")]
    TableTricks {
        /// The declarer.
        declarer: Seat,
        /// The strain.
        strain: crate::contract::Strain,
        /// The count found.
        tricks: u8,
    },
    /// A play of more than 13 tricks.
    #[error("{count} tricks: a play has at most 13")]
    TooManyTricks {
        /// How many tricks were given.
        count: usize,
    },
    /// A seed 000 slot value outside 0..=4.
    #[error("slot {slot} holds {value}: seed 000 values are 0 (played) and 1..=4 (W, N, E, S)")]
    BadSlot {
        /// The slot, 0..52.
        slot: usize,
        /// The value found.
        value: u8,
    },
    /// A game state: a card byte (top bit 0) where a group byte (top bit 1) must start the
    /// next group.
    #[error(
        "byte {offset}: 0x{byte:02X} is a card byte where a group byte (1NNNNNNN) must start group {group}"
    )]
    StateGroupExpected {
        /// 0-based byte offset of the byte.
        offset: usize,
        /// The byte.
        byte: u8,
        /// 0-based number of the group it should start.
        group: usize,
    },
    /// A game state: a group byte inside a group (the group holds fewer cards than its
    /// count says).
    #[error(
        "byte {offset}: group {group} (byte {start}) announces {count} cards but holds {found}: 0x{byte:02X} is a group byte"
    )]
    StateCountMismatch {
        /// 0-based byte offset of the unexpected group byte.
        offset: usize,
        /// 0-based number of the group.
        group: usize,
        /// 0-based byte offset of the group's group byte.
        start: usize,
        /// The card count the group byte announces.
        count: usize,
        /// How many card bytes follow before the next group byte.
        found: usize,
        /// The group byte found.
        byte: u8,
    },
    /// A game state that ends inside a group.
    #[error(
        "byte {offset}: the state ends, but group {group} (byte {start}) announces {count} cards and holds {found}"
    )]
    StateTruncated {
        /// 0-based byte offset of the end (the state's length in bytes).
        offset: usize,
        /// 0-based number of the group.
        group: usize,
        /// 0-based byte offset of the group's group byte.
        start: usize,
        /// The card count the group byte announces.
        count: usize,
        /// How many card bytes there are.
        found: usize,
    },
    /// Encoding a game state: a group of more than 127 cards.
    #[error("group {group} has {count} cards; a group byte holds at most 127")]
    StateGroupTooLarge {
        /// 0-based number of the group.
        group: usize,
        /// Its number of cards.
        count: usize,
    },
    /// Encoding a game state: a card byte with its top bit set.
    #[error("group {group}, card {card}: 0x{byte:02X} is not a card byte (top bit must be 0)")]
    StateNotACardByte {
        /// 0-based number of the group.
        group: usize,
        /// 0-based place of the card in the group.
        card: usize,
        /// The byte.
        byte: u8,
    },
    /// A game state with the wrong number of groups.
    #[error("byte {offset}: {found} groups, a {what} state has {expected}")]
    StateGroupCount {
        /// 0-based byte offset of the first surplus group byte, or the state's length (in
        /// bytes) when groups are missing.
        offset: usize,
        /// Groups found.
        found: usize,
        /// Groups expected.
        expected: usize,
        /// The kind of state.
        what: &'static str,
    },
    /// A game state with the wrong number of cards (and so of bytes).
    #[error(
        "byte {offset}: {cards} cards in {bytes} bytes; a {what} state has {expected_cards} cards in {expected_bytes} bytes"
    )]
    StateCardCount {
        /// 0-based byte offset of the state's end.
        offset: usize,
        /// Cards found.
        cards: usize,
        /// Bytes found.
        bytes: usize,
        /// Cards expected.
        expected_cards: usize,
        /// Bytes expected.
        expected_bytes: usize,
        /// The kind of state.
        what: &'static str,
    },
    /// A game state's card byte naming no card of a bridge deck (the knight 0xB or a
    /// reserved rank 0xE, 0xF).
    #[error("byte {offset}: card byte 0x{byte:02X} has rank 0x{:X}, which a bridge deck does not have", byte & 0xF)]
    StateBadCard {
        /// 0-based byte offset of the byte.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// A game state where a card appears twice.
    #[error("byte {offset}: {card} appears a second time (first at byte {first})")]
    StateDuplicateCard {
        /// 0-based byte offset of the second occurrence.
        offset: usize,
        /// 0-based byte offset of the first.
        first: usize,
        /// The card.
        card: Card,
    },
    /// A game state where a seat's hand and played cards do not add up to 13, or its
    /// played cards are not within one of every other seat's.
    #[error("byte {offset}: {seat} holds {held} cards and played {played}: {why}")]
    StateSeatCards {
        /// 0-based byte offset of the group byte of the seat's hand.
        offset: usize,
        /// The seat.
        seat: Seat,
        /// Cards in hand.
        held: usize,
        /// Cards played.
        played: usize,
        /// What is wrong.
        why: &'static str,
    },
}

crate::classified!(ErrorKind);
impl Classify for ErrorKind {
    /// Always [`BadInput`](ErrorClass::BadInput): the text, number, bytes or hands are the
    /// caller's.
    fn class(&self) -> ErrorClass {
        ErrorClass::BadInput
    }

    /// The 1-based column of a deal string's, an index's or a number's problem, or the
    /// 0-based byte offset of a game state's; `None` for the other kinds.
    fn position(&self) -> Option<InputPosition> {
        use ErrorKind as K;
        let column = |c: usize| Some(InputPosition::at_column(c));
        match self {
            K::IndexLength { column: c, .. }
            | K::IndexNotHex { column: c, .. }
            | K::NumberSyntax { column: c, .. } => column(*c),
            K::PbnSyntax { column: c, .. }
            | K::WrongCount { column: c, .. }
            | K::DuplicateCard { column: c, .. } => c.and_then(column),
            K::StateGroupExpected { offset, .. }
            | K::StateCountMismatch { offset, .. }
            | K::StateTruncated { offset, .. }
            | K::StateGroupCount { offset, .. }
            | K::StateCardCount { offset, .. }
            | K::StateBadCard { offset, .. }
            | K::StateDuplicateCard { offset, .. }
            | K::StateSeatCards { offset, .. } => Some(InputPosition::at_byte(*offset as u64)),
            _ => None,
        }
    }
}
