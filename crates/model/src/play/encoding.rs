//! Card encodings of the seed documents, each a conversion to and from [`Card`]. The Rust
//! names say what each value is; the CLI and JSON names (`seed000-slot`, …) and the table
//! below say which seed document defines it.
//!
//! Every encoding is exhaustive over the 52 cards of a bridge deck: encoding never fails, and
//! decoding accepts exactly the 52 values (or texts) that encoding produces, with the face-up
//! bit of seed 004 as the only free field. Anything else is an [`Error`] that names the
//! bad value and says what is wrong with it.
//!
//! | encoding (CLI name) | library | value | source |
//! |---|---|---|---|
//! | `seed000-slot` | [`seat_array_slot`]: the card's slot in the 52-slot seat array | 0..=51, `suit*13 + (14 - rank)`, suits ♠ ♥ ♦ ♣ (= [`Card::index`]) | seed 000 §1, FORMATS.md §11 |
//! | `standard-card` | [`standard_card`]: the 32-bit card of poker evaluators | 32 bits `xxxbbbbb bbbbbbbb cdhsrrrr sspppppp` | seed 001, FORMATS.md §11 |
//! | `seed003-number` | [`hsdc_number`]: a card number in ♥ ♠ ♦ ♣ order, ranks ascending | 0..=51, `suit*13 + rank`, suits ♥ ♠ ♦ ♣, ranks 2 = 0 … A = 12 | seed 003, FORMATS.md §11 |
//! | `seed003-display` | [`symbol_text`]: rank then suit symbol | text: rank (`2`…`10`, `J`, `Q`, `K`, `A`) then suit symbol, e.g. `10♥` | seed 003 `getCardDisplayValue` |
//! | `seed004-byte` | [`card_byte`]: a game-state card byte with a face-up flag ([`FacedCard`]) | one byte `0 F SS RRRR`: face-up bit, suit ♠=00 ♦=01 ♣=10 ♥=11, rank A=0 … K=0xD | seed 004, FORMATS.md §11 |
//! | `unicode` | [`unicode`]: the Unicode playing-card code point | code point U+1F0A1…U+1F0DE, `0x1F001 + ({A,C,D,B}[suit] << 4) + rank` | seed 004 "Relation to Unicode" |
//!
//! The user's card text (`QC`, `CQ`, `♣Q`, `Q♣`, `10H`, `TH`, `h10`) is read by
//! [`parse_card`], which is also `Card::from_str`.
//!
//! ```
//! use dealdex::{Card, encoding};
//! let c: Card = "Q♣".parse().unwrap();
//! assert_eq!(encoding::seat_array_slot(c), 41);
//! assert_eq!(encoding::standard_card(c), 67144223);
//! assert_eq!(encoding::hsdc_number(c), 49); // seed 003: "49 represents Queen of Clubs"
//! assert_eq!(encoding::card_byte(c, true), 0x6C);
//! assert_eq!(encoding::unicode(c), 0x1F0DD);
//! assert_eq!(encoding::card_from_standard_card(67144223), Ok(c));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::card::{Card, Rank, Suit};
use crate::error::{Error, ErrorKind};

/// The card encodings `dealdex card` converts, by the names the CLI and its JSON use.
///
/// Every one of them has a numeric value ([`Encoding::encode`], [`Encoding::decode`]); the
/// seed 003 display text, which is not a number, has its own functions
/// ([`symbol_text`], [`card_from_symbol_text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `seed000-slot`: the slot 0..=51 of seed 000's 52-slot seat array (see
    /// [`seat_array_slot`]).
    SeatArraySlot,
    /// `standard-card`: seed 001's 32-bit card (see [`standard_card`]).
    StandardCard,
    /// `seed003-number`: seed 003's card number 0..=51, suits ♥ ♠ ♦ ♣ and ranks ascending
    /// (see [`hsdc_number`]).
    HsdcNumber,
    /// `seed004-byte`: seed 004's game-state card byte with its face-up flag (see
    /// [`card_byte`]); encodes face up.
    CardByte,
    /// `unicode`: the Unicode playing-card code point (see [`unicode`]).
    Unicode,
}

impl Encoding {
    /// The five numeric encodings, in the order `dealdex card` prints them.
    pub const ALL: [Encoding; 5] = [
        Encoding::SeatArraySlot,
        Encoding::StandardCard,
        Encoding::HsdcNumber,
        Encoding::CardByte,
        Encoding::Unicode,
    ];

    /// The encoding's name: `seed000-slot`, `standard-card`, `seed003-number`,
    /// `seed004-byte` or `unicode`.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::SeatArraySlot => "seed000-slot",
            Encoding::StandardCard => "standard-card",
            Encoding::HsdcNumber => "seed003-number",
            Encoding::CardByte => "seed004-byte",
            Encoding::Unicode => "unicode",
        }
    }

    /// The card's value in this encoding (seed004-byte: face up; unicode: the code point).
    pub fn encode(self, card: Card) -> u32 {
        match self {
            Encoding::SeatArraySlot => seat_array_slot(card).into(),
            Encoding::StandardCard => standard_card(card),
            Encoding::HsdcNumber => hsdc_number(card).into(),
            Encoding::CardByte => card_byte(card, true).into(),
            Encoding::Unicode => unicode(card),
        }
    }

    /// The card with `value` in this encoding (seed004-byte: either face; the face is
    /// dropped, see [`card_from_card_byte`] to keep it).
    ///
    /// Errors: [`ErrorKind::EncodingOutOfRange`] for a value wider than the encoding (a slot or
    /// number ≥ 52, a byte > 0xFF, a 32-bit value ≥ 2³²), else the error of the encoding's
    /// own decoder.
    pub fn decode(self, value: u64) -> Result<Card, Error> {
        let out_of_range = |valid: &'static str| self.out_of_range(value, valid);
        match self {
            Encoding::SeatArraySlot => {
                let v = u32::try_from(value).map_err(|_| out_of_range(SLOTS))?;
                card_from_seat_array_slot(v)
            }
            Encoding::HsdcNumber => {
                let v = u32::try_from(value).map_err(|_| out_of_range(NUMBERS))?;
                card_from_hsdc_number(v)
            }
            Encoding::StandardCard => {
                let v = u32::try_from(value)
                    .map_err(|_| out_of_range("a standard card has 32 bits (0..=0xFFFFFFFF)"))?;
                card_from_standard_card(v)
            }
            Encoding::CardByte => {
                let v = u8::try_from(value)
                    .map_err(|_| out_of_range("a card byte is 0..=255 (0x00..=0xFF)"))?;
                card_from_card_byte(v).map(|c| c.card)
            }
            Encoding::Unicode => {
                let v = u32::try_from(value)
                    .map_err(|_| out_of_range("bridge cards are U+1F0A1..=U+1F0DE"))?;
                card_from_unicode(v)
            }
        }
    }

    /// [`ErrorKind::EncodingOutOfRange`]: `value` is outside this encoding's range, which
    /// `valid` says.
    fn out_of_range(self, value: u64, valid: &'static str) -> Error {
        ErrorKind::EncodingOutOfRange {
            encoding: self,
            value,
            valid,
        }
        .into()
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = Error;

    /// Parses an encoding's name (as [`Encoding::name`] writes it, either case).
    ///
    /// Errors: [`ErrorKind::UnknownEncoding`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                ErrorKind::UnknownEncoding {
                    name: s.to_string(),
                }
                .into()
            })
    }
}

const SLOTS: &str = "seed 000 slots are 0..=51";
const NUMBERS: &str = "seed 003 card numbers are 0..=51";

/// The card of `suit` with rank value `v` (2..=14; callers pass only valid values).
fn card_of(suit: Suit, v: u8) -> Card {
    Card::new(suit, Rank::new(v).expect("rank value in 2..=14"))
}

/// A rank as the seeds write it in messages: `2` … `10`, `J`, `Q`, `K`, `A`.
fn rank_word(v: u8) -> &'static str {
    SEED003_RANKS[usize::from(v - 2)]
}

/// The card's name in English words, e.g. `queen of clubs`, `ten of hearts`.
pub fn card_name(card: Card) -> String {
    const WORDS: [&str; 13] = [
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
        "king", "ace",
    ];
    format!(
        "{} of {}",
        WORDS[usize::from(card.rank().value() - 2)],
        card.suit().name()
    )
}

// ---------------------------------------------------------------------------------------------
// Seed 000: the 52-slot array.

/// The card's slot in the 52-slot seat array of seed 000 (the array that holds each card's
/// seat), 0..=51: `suit*13 + (14 - rank)` with suits ♠ ♥ ♦ ♣ and ranks
/// 2..=14, i.e. ♠A = 0, ♥7 = 20, ♣2 = 51 (seed 000 §1; the same number as [`Card::index`]).
pub fn seat_array_slot(card: Card) -> u8 {
    card.suit().index() as u8 * 13 + (14 - card.rank().value())
}

/// The card in seed 000 slot `slot` (0..=51): rank `14 - (slot mod 13)`, suit
/// `slot div 13` in the order ♠ ♥ ♦ ♣ (seed 000 §1).
///
/// Errors: [`ErrorKind::EncodingOutOfRange`] for a slot ≥ 52.
pub fn card_from_seat_array_slot(slot: u32) -> Result<Card, Error> {
    if slot >= 52 {
        return Err(Encoding::SeatArraySlot.out_of_range(slot.into(), SLOTS));
    }
    let suit = Suit::from_index((slot / 13) as usize);
    Ok(card_of(suit, 14 - (slot % 13) as u8))
}

// ---------------------------------------------------------------------------------------------
// Seed 001: the 32-bit "standard card".

/// The primes of the ranks 2..=A (seed 001's table).
const PRIMES: [u32; 13] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41];

/// The `ss` bits of a suit: clubs 00, diamonds 01, hearts 10, spades 11 (seed 001): the
/// suited order ([`Suit::index`]) reversed.
const fn ss_bits(s: Suit) -> u32 {
    3 - s.index() as u32
}

/// The suit with `ss` bits `ss` (0..=3).
const fn suit_of_ss(ss: u32) -> Suit {
    Suit::from_index(3 - (ss & 3) as usize)
}

/// Position of a suit's bit in the `cdhs` nibble: spades 0, hearts 1, diamonds 2, clubs 3
/// (the suited order, [`Suit::index`]).
const fn cdhs_position(s: Suit) -> u32 {
    s.index() as u32
}

/// The suit of `cdhs` bit position `p` (0..=3).
const fn suit_of_cdhs(p: u32) -> Suit {
    Suit::from_index(p as usize)
}

/// The card's seed 001 32-bit value `xxxbbbbb bbbbbbbb cdhsrrrr sspppppp`:
///
/// - bits 16..=28 (`b`): one bit for the rank, 2 = bit 16 … A = bit 28;
/// - bits 12..=15 (`cdhs`): one bit for the suit, spades = bit 12, hearts 13, diamonds 14,
///   clubs 15;
/// - bits 8..=11 (`rrrr`): the rank 0..=12 (2 = 0 … A = 12);
/// - bits 6..=7 (`ss`): the suit, clubs 00, diamonds 01, hearts 10, spades 11;
/// - bits 0..=5 (`pppppp`): the rank's prime, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41;
/// - bits 29..=31 (`xxx`) are 0.
///
/// The seed's table of 52 values is authoritative and this function reproduces it, e.g. ♠2 =
/// 69826, ♥5 = 533383 = 0x00082387, ♣A = 268471337. The seed's worked example for ♥5,
/// `0x00082347 = 533319`, disagrees with its own table (and key) in the two `ss` bits: it
/// has 01 (diamonds) where the `cdhs` bit says hearts, so [`card_from_standard_card`]
/// rejects it.
pub fn standard_card(card: Card) -> u32 {
    let r = u32::from(card.rank().value() - 2);
    let s = card.suit();
    (1 << (16 + r))
        | (1 << (12 + cdhs_position(s)))
        | (r << 8)
        | (ss_bits(s) << 6)
        | PRIMES[r as usize]
}

/// The card with seed 001 32-bit value `value` (layout at [`standard_card`]).
///
/// All fields are checked against each other: `xxx` must be 0, exactly one rank bit and one
/// suit bit must be set, the rank nibble must be 0..=12 and name the rank bit's rank, `ss`
/// must name the suit bit's suit and the prime must be the rank's. So exactly the 52 values
/// of the seed's table decode.
///
/// Errors: [`ErrorKind::StandardCard`] naming the first field that is wrong, e.g. "rank
/// bit says Q, rank nibble says 5".
pub fn card_from_standard_card(value: u32) -> Result<Card, Error> {
    let fail = |reason: String| Err(Error::from(ErrorKind::StandardCard { value, reason }));
    let xxx = value >> 29;
    if xxx != 0 {
        return fail(format!("bits 29-31 (xxx) are 0b{xxx:03b}; they must be 0"));
    }
    let rank_bits = (value >> 16) & 0x1FFF;
    let rank_list = |bits: u32| -> String {
        (0..13)
            .filter(|i| (bits >> i) & 1 == 1)
            .map(|i| rank_word(i as u8 + 2))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match rank_bits.count_ones() {
        0 => return fail("no rank bit (bits 16-28) is set".into()),
        1 => {}
        n => {
            return fail(format!(
                "{n} rank bits are set ({}); exactly one must be",
                rank_list(rank_bits)
            ));
        }
    }
    let r = rank_bits.trailing_zeros();
    let cdhs = (value >> 12) & 0xF;
    match cdhs.count_ones() {
        0 => return fail("no suit bit (cdhs, bits 12-15) is set".into()),
        1 => {}
        n => {
            let names: Vec<&str> = (0..4)
                .filter(|i| (cdhs >> i) & 1 == 1)
                .map(|i| suit_of_cdhs(i).name())
                .collect();
            return fail(format!(
                "{n} suit bits are set ({}); exactly one must be",
                names.join(", ")
            ));
        }
    }
    let suit = suit_of_cdhs(cdhs.trailing_zeros());
    let nibble = (value >> 8) & 0xF;
    if nibble > 12 {
        return fail(format!(
            "rank nibble is {nibble}; ranks are 0 (2) ..= 12 (A), and the rank bit says {}",
            rank_word(r as u8 + 2)
        ));
    }
    if nibble != r {
        return fail(format!(
            "rank bit says {}, rank nibble says {}",
            rank_word(r as u8 + 2),
            rank_word(nibble as u8 + 2)
        ));
    }
    let ss = (value >> 6) & 3;
    if ss != ss_bits(suit) {
        return fail(format!(
            "suit bit says {}, ss bits ({ss:02b}) say {}",
            suit.name(),
            suit_of_ss(ss).name()
        ));
    }
    let prime = value & 0x3F;
    if prime != PRIMES[r as usize] {
        return fail(format!(
            "prime is {prime}, but the {}'s prime is {}",
            rank_word(r as u8 + 2),
            PRIMES[r as usize]
        ));
    }
    Ok(card_of(suit, r as u8 + 2))
}

// ---------------------------------------------------------------------------------------------
// Seed 003: the 0..51 number and its display value.

/// Seed 003's suits in its order: hearts, spades, diamonds, clubs.
const SEED003_SUITS: [Suit; 4] = [Suit::Hearts, Suit::Spades, Suit::Diamonds, Suit::Clubs];

/// Seed 003's `SUITES` display strings, in its suit order.
const SEED003_SYMBOLS: [&str; 4] = ["♥", "♠", "♦", "♣"];

/// Seed 003's `RANKS` display strings, 2 … A.
const SEED003_RANKS: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];

/// The suit's position in seed 003's order (hearts 0, spades 1, diamonds 2, clubs 3).
fn seed003_suit(s: Suit) -> u8 {
    match s {
        Suit::Hearts => 0,
        Suit::Spades => 1,
        Suit::Diamonds => 2,
        Suit::Clubs => 3,
    }
}

/// The card's number 0..=51 in hearts-spades-diamonds-clubs order, ranks ascending (seed
/// 003's card number): `suit*13 + rank` with suits hearts 0, spades 1,
/// diamonds 2, clubs 3 and ranks 2 = 0 … A = 12, i.e. ♥2 = 0, ♠3 = 14, ♣Q = 49, ♣A = 51
/// (seed 003 "PlayingCard"; its examples are 14 = 3 of spades and 49 = queen of clubs).
pub fn hsdc_number(card: Card) -> u8 {
    seed003_suit(card.suit()) * 13 + (card.rank().value() - 2)
}

/// The card with seed 003 number `n` (0..=51): suit `n div 13` (♥ ♠ ♦ ♣), rank `n mod 13`
/// (2 … A), seed 003 `getSuiteOfCard` / `getRankOfCard`.
///
/// Errors: [`ErrorKind::EncodingOutOfRange`] for `n` ≥ 52.
pub fn card_from_hsdc_number(n: u32) -> Result<Card, Error> {
    if n >= 52 {
        return Err(Encoding::HsdcNumber.out_of_range(n.into(), NUMBERS));
    }
    Ok(card_of(
        SEED003_SUITS[(n / 13) as usize],
        (n % 13) as u8 + 2,
    ))
}

/// The card as text, rank then suit symbol (seed 003's display value): `RANKS[rank]` then `SUITES[suit]`, e.g. `10♥`, `Q♣`,
/// `A♠` (seed 003 `getCardDisplayValue`).
///
/// The seed's `RANKS` are `2`…`10`, `J`, `Q`, `K`, `A`. Its `SUITES` array reached us with
/// its four strings empty (the glyphs were lost); we use ♥ ♠ ♦ ♣, the symbols of its suits
/// hearts, spades, diamonds, clubs in its order (FORMATS.md §11 writes them so).
pub fn symbol_text(card: Card) -> String {
    let n = usize::from(hsdc_number(card));
    format!("{}{}", SEED003_RANKS[n % 13], SEED003_SYMBOLS[n / 13])
}

/// The card with seed 003 display value `text`, exactly as [`symbol_text`] writes it
/// (surrounding white space and an emoji variation selector after the suit are ignored).
///
/// Errors: [`ErrorKind::SymbolText`] for any other text (use [`parse_card`] for the
/// tolerant forms).
pub fn card_from_symbol_text(text: &str) -> Result<Card, Error> {
    let t = text.trim().trim_end_matches(['\u{FE0F}', '\u{FE0E}']);
    for (si, sym) in SEED003_SYMBOLS.iter().enumerate() {
        if let Some(rank) = t.strip_suffix(sym)
            && let Some(ri) = SEED003_RANKS.iter().position(|r| *r == rank)
        {
            return Ok(
                card_from_hsdc_number((si * 13 + ri) as u32).expect("seed 003 number below 52")
            );
        }
    }
    Err(ErrorKind::SymbolText {
        text: text.to_string(),
    }
    .into())
}

// ---------------------------------------------------------------------------------------------
// Seed 004: the card byte and Unicode.

/// A card with its face: what a seed 004 card byte ([`card_byte`]) holds, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FacedCard {
    /// The card.
    pub card: Card,
    /// Bit 6 of the byte: true = face up and visible, false = face down.
    pub face_up: bool,
}

/// The suit's 2-bit code in seed 004: ♠ = 00, ♦ = 01, ♣ = 10, ♥ = 11.
const fn seed004_suit(s: Suit) -> u8 {
    match s {
        Suit::Spades => 0,
        Suit::Diamonds => 1,
        Suit::Clubs => 2,
        Suit::Hearts => 3,
    }
}

/// The suit with seed 004 code `b` (0..=3).
const fn suit_of_seed004(b: u8) -> Suit {
    [Suit::Spades, Suit::Diamonds, Suit::Clubs, Suit::Hearts][(b & 3) as usize]
}

/// Unicode's row (second-last hex digit) of each seed 004 suit code: ♠ A, ♦ C, ♣ D, ♥ B —
/// the seed's `{A,C,D,B}[S]`.
const UNICODE_ROW: [u32; 4] = [0xA, 0xC, 0xD, 0xB];

/// The rank's seed 004 (and Unicode) value: A = 0x0, 2 … 10 = 0x1 … 0x9, J = 0xA, Q = 0xC,
/// K = 0xD (0xB, the Knight/Cavalier, is skipped: a bridge deck has none).
const fn seed004_rank(r: Rank) -> u8 {
    match r.value() {
        14 => 0x0,
        11 => 0xA,
        12 => 0xC,
        13 => 0xD,
        v => v - 1,
    }
}

/// The rank value 2..=14 of seed 004 rank code `code` (0..=15), or why there is none.
fn rank_of_seed004(code: u8) -> Result<u8, &'static str> {
    match code {
        0x0 => Ok(14),
        0x1..=0x9 => Ok(code + 1),
        0xA => Ok(11),
        0xB => Err("rank 0xB is the Knight/Cavalier, and a bridge deck has no knight"),
        0xC => Ok(12),
        0xD => Ok(13),
        0xE => Err("rank 0xE is reserved (reserved-R)"),
        _ => Err("rank 0xF is reserved (reserved-S)"),
    }
}

/// The card's byte in a compact game state with its face-up flag (seed 004's card byte),
/// `0 F SS RRRR`: bit 7 = 0 (a card byte, not a group byte),
/// bit 6 = `face_up`, bits 5..=4 = suit (♠ 00, ♦ 01, ♣ 10, ♥ 11), bits 3..=0 = rank (A = 0,
/// 2 … 10 = 1 … 9, J = 0xA, Q = 0xC, K = 0xD), e.g. face-up ♣Q = 0x6C, face-down ♠A = 0x00
/// (seed 004 "Encoding of the Card Byte").
pub fn card_byte(card: Card, face_up: bool) -> u8 {
    (u8::from(face_up) << 6) | (seed004_suit(card.suit()) << 4) | seed004_rank(card.rank())
}

/// The card and face-up bit of seed 004 card byte `byte` (layout at [`card_byte`]).
///
/// Errors: [`ErrorKind::CardByte`] for a byte with bit 7 set (a group byte), rank
/// 0xB (the Knight/Cavalier) or a reserved rank 0xE, 0xF.
pub fn card_from_card_byte(byte: u8) -> Result<FacedCard, Error> {
    let fail = |reason: String| Err(Error::from(ErrorKind::CardByte { byte, reason }));
    if byte & 0x80 != 0 {
        return fail(format!(
            "bit 7 is set, so it is a group byte (a group of {} cards), not a card byte",
            byte & 0x7F
        ));
    }
    let suit = suit_of_seed004(byte >> 4);
    match rank_of_seed004(byte & 0xF) {
        Ok(v) => Ok(FacedCard {
            card: card_of(suit, v),
            face_up: byte & 0x40 != 0,
        }),
        Err(why) => fail(why.to_string()),
    }
}

/// The card's Unicode playing-card code point, `0x1F001 + ({A,C,D,B}[S] << 4) + R` with S the
/// seed 004 suit code and R the seed 004 rank code (seed 004 "Relation to Unicode"), e.g.
/// ♠A = U+1F0A1, ♥10 = U+1F0BA, ♦K = U+1F0CE, ♣Q = U+1F0DD.
pub fn unicode(card: Card) -> u32 {
    let s = seed004_suit(card.suit());
    0x1F001 + (UNICODE_ROW[usize::from(s)] << 4) + u32::from(seed004_rank(card.rank()))
}

/// The card's Unicode playing-card character (the code point of [`unicode`]), e.g. `🂡`.
pub fn unicode_char(card: Card) -> char {
    char::from_u32(unicode(card)).expect("playing-card code points are characters")
}

/// The card with Unicode code point `code` (the inverse of [`unicode`]): U+1F0A1…U+1F0AE
/// spades, U+1F0B1… hearts, U+1F0C1… diamonds, U+1F0D1… clubs, ace first, without the
/// knights U+1F0xC.
///
/// Errors: [`ErrorKind::Unicode`] for a code point outside the four suited rows, a
/// card back or unassigned column 0, a knight, a joker or unassigned column F (seed 004
/// rank 0xE, reserved).
pub fn card_from_unicode(code: u32) -> Result<Card, Error> {
    let fail = |reason: String| Err(Error::from(ErrorKind::Unicode { code, reason }));
    if !(0x1F0A0..=0x1F0FF).contains(&code) {
        return fail("it is outside the playing cards block U+1F0A0..U+1F0FF".into());
    }
    let row = (code >> 4) & 0xF;
    let col = code & 0xF;
    let Some(s) = UNICODE_ROW.iter().position(|&r| r == row) else {
        return fail("U+1F0E0..U+1F0FF are the tarot trumps, not suited cards".into());
    };
    let suit = suit_of_seed004(s as u8);
    if col == 0 {
        return fail(if code == 0x1F0A0 {
            "it is the playing card back".into()
        } else {
            "column 0 of a suit's row is not a card".into()
        });
    }
    match rank_of_seed004((col - 1) as u8) {
        Ok(v) => Ok(card_of(suit, v)),
        Err(_) if col == 0xC => fail(format!(
            "it is the knight of {} (seed 004 rank 0xB), and a bridge deck has no knight",
            suit.name()
        )),
        Err(why) => {
            let what = match code {
                0x1F0BF => "the red joker",
                0x1F0CF => "the black joker",
                0x1F0DF => "the white joker",
                _ => "unassigned",
            };
            fail(format!("it is {what}; in seed 004 {why}"))
        }
    }
}

/// The card with Unicode playing-card character `c` ([`card_from_unicode`] of its code
/// point).
///
/// Errors: as [`card_from_unicode`].
pub fn card_from_unicode_char(c: char) -> Result<Card, Error> {
    card_from_unicode(c.into())
}

// ---------------------------------------------------------------------------------------------
// Card text.

/// Reads the user's card text: a rank and a suit in either order, any case, e.g. `QC`, `CQ`,
/// `♣Q`, `Q♣`, `10H`, `TH`, `h10`, `♥10`.
///
/// The suit is a letter `S H D C` or a symbol `♠ ♥ ♦ ♣` (also `♤ ♡ ♢ ♧`, and an emoji
/// variation selector after it is ignored); the rank is one of `A K Q J T 9 … 2` or `10`.
/// Surrounding white space is ignored. No suit letter is a rank letter, so the order is
/// never ambiguous.
///
/// Errors: [`ErrorKind::CardText`] saying what is missing or wrong.
pub fn parse_card(text: &str) -> Result<Card, Error> {
    let fail = |reason: &'static str| {
        Err(Error::from(ErrorKind::CardText {
            text: text.to_string(),
            reason,
        }))
    };
    let chars: Vec<char> = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, '\u{FE0F}' | '\u{FE0E}'))
        .collect();
    if chars.is_empty() {
        return fail("it is empty");
    }
    let (suit, rank) = if let Some(s) = Suit::from_char(chars[0]) {
        (s, &chars[1..])
    } else if let Some(s) = chars.last().copied().and_then(Suit::from_char) {
        (s, &chars[..chars.len() - 1])
    } else {
        return fail("no suit (S H D C or ♠ ♥ ♦ ♣) at its start or end");
    };
    let rank = match rank {
        [] => return fail("it has a suit but no rank"),
        ['1', '0'] => Rank::TEN,
        [c] => match Rank::from_char(*c) {
            Some(r) => r,
            None => return fail("the rank is not one of A K Q J T 9 8 7 6 5 4 3 2 or 10"),
        },
        _ => return fail("the rank is not one of A K Q J T 9 8 7 6 5 4 3 2 or 10"),
    };
    Ok(Card::new(suit, rank))
}

impl FromStr for Card {
    type Err = Error;

    /// [`parse_card`]: `QC`, `CQ`, `♣Q`, `Q♣`, `10H`, `TH`, `h10`, …
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_card(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_examples() {
        let h5 = card_of(Suit::Hearts, 5);
        assert_eq!(standard_card(h5), 533383);
        assert!(card_from_standard_card(0x0008_2347).is_err());
        assert_eq!(seat_array_slot(card_of(Suit::Hearts, 7)), 20);
        assert_eq!(hsdc_number(card_of(Suit::Spades, 3)), 14);
        assert_eq!(unicode(card_of(Suit::Spades, 14)), 0x1F0A1);
    }
}
