//! The card workflow (`dealdex card`): one card read from text or from a value in one of the
//! seed documents' encodings ([`crate::encoding`]), and its value in every encoding.
//!
//! ```
//! use dealdex::workflow::card::{CardJob, CardSource, run};
//! let report = run(&CardJob { value: "QC".into(), from: CardSource::Text })?;
//! assert_eq!(report.name, "queen of clubs");
//! assert_eq!(report.standard_card, 0x0400_8A1F);
//! assert_eq!(report.unicode, "U+1F0DD");
//! let back = run(&CardJob { value: "0x04008A1F".into(), from: CardSource::StandardCard })?;
//! assert_eq!(back, report);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use crate::encoding::{self, Encoding};
use crate::{Card, ErrorKind, ModelError, ModelErrorKind, Result};

/// How [`CardJob::value`] names the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardSource {
    /// Card text: `QC`, `CQ`, `♣Q`, `Q♣`, `10H`, `TH`, `h10` (any case; [`encoding::parse_card`]).
    Text,
    /// A slot 0..=51 of the 52-slot seat array (seed 000).
    SeatArraySlot,
    /// A seed 001 32-bit card.
    StandardCard,
    /// A card number 0..=51 in ♥ ♠ ♦ ♣ order, ranks ascending (seed 003).
    HsdcNumber,
    /// Rank then suit symbol, e.g. `Q♣` (seed 003's display value).
    SymbolText,
    /// A game-state card byte with a face-up flag (seed 004; its face bit is kept).
    CardByte,
    /// A Unicode code point (`U+1F0A1`, `0x1F0A1`, bare hex `1F0A1`) or the glyph itself.
    Unicode,
}

impl CardSource {
    /// The encodings a value can be read in, each with its name (the report's field name,
    /// and `dealdex card --from`'s value); card text has none.
    pub const ENCODINGS: [(&'static str, CardSource); 6] = [
        ("seed000-slot", CardSource::SeatArraySlot),
        ("standard-card", CardSource::StandardCard),
        ("seed003-number", CardSource::HsdcNumber),
        ("seed003-display", CardSource::SymbolText),
        ("seed004-byte", CardSource::CardByte),
        ("unicode", CardSource::Unicode),
    ];

    /// The encoding named `name` ([`CardSource::ENCODINGS`]), exactly.
    ///
    /// ```
    /// use dealdex::workflow::card::CardSource;
    /// assert_eq!(CardSource::named("standard-card"), Some(CardSource::StandardCard));
    /// assert_eq!(CardSource::named("text"), None);
    /// ```
    pub fn named(name: &str) -> Option<CardSource> {
        Self::ENCODINGS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, source)| source)
    }
}

/// The card to show: a value and how it names the card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardJob {
    /// The value as given (surrounding blanks are ignored). Numbers are decimal, `0x` hex or
    /// `0b` binary, with optional `_` separators.
    pub value: String,
    /// How to read it.
    pub from: CardSource,
}

/// `dealdex card`'s options as typed: the value, and its encoding unless it is card text.
/// With the `clap` feature they derive `clap::Args`, their doc comments the help;
/// [`CardOptions::job`] makes the [`CardJob`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct CardOptions {
    /// The card as text (QC, CQ, ♣Q, Q♣, 10H, TH, h10; any case), or with --from a value in
    /// that encoding.
    #[cfg_attr(feature = "clap", arg(allow_hyphen_values = true))]
    pub value: String,
    /// Read VALUE in this encoding instead of as card text.
    #[cfg_attr(feature = "clap", arg(long, value_name = "ENCODING", value_parser = encoding()))]
    pub from: Option<CardSource>,
}

/// `--from`'s value: one of [`CardSource::ENCODINGS`] (clap lists them and exits 2 otherwise).
#[cfg(feature = "clap")]
fn encoding() -> impl clap::builder::TypedValueParser<Value = CardSource> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    let names = CardSource::ENCODINGS.map(|(name, _)| name);
    PossibleValuesParser::new(names).map(|n| CardSource::named(&n).expect("a listed name"))
}

impl CardOptions {
    /// The job: the value read in its encoding, else as card text.
    pub fn job(&self) -> CardJob {
        CardJob {
            value: self.value.clone(),
            from: self.from.unwrap_or(CardSource::Text),
        }
    }
}

/// The card in every encoding; the JSON field names are the encodings' names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardReport {
    /// The card, suit letter first (`CQ`).
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub card: Card,
    /// Its name, e.g. `queen of clubs`.
    pub name: String,
    /// The slot in the 52-slot seat array (seed 000).
    #[serde(rename = "seed000-slot")]
    pub seat_array_slot: u8,
    /// Seed 001's 32-bit card.
    #[serde(rename = "standard-card")]
    pub standard_card: u32,
    /// The card number in ♥ ♠ ♦ ♣ order (seed 003).
    #[serde(rename = "seed003-number")]
    pub hsdc_number: u8,
    /// Rank then suit symbol (seed 003's display value).
    #[serde(rename = "seed003-display")]
    pub symbol_text: String,
    /// The game-state card byte (seed 004; face up unless a face-down byte was given).
    #[serde(rename = "seed004-byte")]
    pub card_byte: u8,
    /// Whether the card is face up (false only for a face-down seed 004 byte given).
    #[serde(rename = "seed004-face-up")]
    pub face_up: bool,
    /// The Unicode code point, `U+1F0DD`.
    pub unicode: String,
    /// The Unicode glyph.
    #[serde(rename = "unicode-glyph")]
    pub unicode_glyph: String,
}

/// One `name: value` line per encoding, as `dealdex card` prints them (no final newline).
///
/// ```
/// use dealdex::workflow::card::{CardJob, CardSource, run};
/// let r = run(&CardJob { value: "QC".into(), from: CardSource::Text })?;
/// assert!(r.to_string().starts_with("card: "));
/// assert_eq!(r.to_string().lines().count(), 7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl std::fmt::Display for CardReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (std, byte) = (self.standard_card, self.card_byte);
        writeln!(f, "card: {} ({})", self.card, self.name)?;
        writeln!(f, "seed000-slot: {}", self.seat_array_slot)?;
        writeln!(f, "standard-card: {std} (0x{std:08X})")?;
        writeln!(f, "seed003-number: {}", self.hsdc_number)?;
        writeln!(f, "seed003-display: {}", self.symbol_text)?;
        let face = if self.face_up { "face up" } else { "face down" };
        writeln!(f, "seed004-byte: 0x{byte:02X} (0b{byte:08b}, {face})")?;
        write!(f, "unicode: {} {}", self.unicode, self.unicode_glyph)
    }
}

/// Reads the job's card and computes its value in every encoding.
///
/// # Errors
/// [`ErrorKind::NotANumber`], [`ErrorKind::NotACodePoint`], or [`ErrorKind::Model`] for a
/// value that is no card in its encoding (out of range, inconsistent, bad text).
pub fn run(job: &CardJob) -> Result<CardReport> {
    let (card, face_up) = read(job)?;
    Ok(CardReport {
        card,
        name: encoding::card_name(card),
        seat_array_slot: encoding::seat_array_slot(card),
        standard_card: encoding::standard_card(card),
        hsdc_number: encoding::hsdc_number(card),
        symbol_text: encoding::symbol_text(card),
        card_byte: encoding::card_byte(card, face_up),
        face_up,
        unicode: format!("U+{:04X}", encoding::unicode(card)),
        unicode_glyph: encoding::unicode_char(card).to_string(),
    })
}

/// The card the job names, and its face (up unless a face-down seed 004 byte was given).
fn read(job: &CardJob) -> Result<(Card, bool)> {
    let v = job.value.trim();
    let number = |encoding: Encoding| -> Result<u64> {
        parse_int(v).ok_or_else(|| {
            ErrorKind::NotANumber {
                encoding,
                value: v.to_owned(),
            }
            .into()
        })
    };
    let numeric = |enc: Encoding| -> Result<Card> { Ok(enc.decode(number(enc)?)?) };
    let card = match job.from {
        CardSource::Text => encoding::parse_card(v)?,
        CardSource::SeatArraySlot => numeric(Encoding::SeatArraySlot)?,
        CardSource::StandardCard => numeric(Encoding::StandardCard)?,
        CardSource::HsdcNumber => numeric(Encoding::HsdcNumber)?,
        CardSource::SymbolText => encoding::card_from_symbol_text(v)?,
        CardSource::CardByte => {
            let n = number(Encoding::CardByte)?;
            let byte = u8::try_from(n).map_err(|_| {
                ModelError::from(ModelErrorKind::EncodingOutOfRange {
                    encoding: Encoding::CardByte,
                    value: n,
                    valid: "a card byte is 0..=255 (0x00..=0xFF)",
                })
            })?;
            let c = encoding::card_from_card_byte(byte)?;
            return Ok((c.card, c.face_up));
        }
        CardSource::Unicode => read_unicode(v)?,
    };
    Ok((card, true))
}

/// A unicode value: `U+1F0A1`, `0x1F0A1`, bare hex `1F0A1` or the glyph itself.
fn read_unicode(v: &str) -> Result<Card> {
    let mut chars = v.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && !c.is_ascii()
    {
        return Ok(encoding::card_from_unicode_char(c)?);
    }
    let digits = v
        .strip_prefix("U+")
        .or_else(|| v.strip_prefix("u+"))
        .or_else(|| v.strip_prefix("0x"))
        .or_else(|| v.strip_prefix("0X"))
        .unwrap_or(v);
    let code = u32::from_str_radix(digits, 16)
        .ok()
        .filter(|_| !digits.starts_with('+'))
        .ok_or_else(|| ErrorKind::NotACodePoint {
            value: v.to_owned(),
        })?;
    Ok(encoding::card_from_unicode(code)?)
}

/// A non-negative integer in decimal, `0x` hex or `0b` binary, with optional `_` separators.
fn parse_int(s: &str) -> Option<u64> {
    let t: String = s.trim().chars().filter(|&c| c != '_').collect();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b, 2)
    } else {
        (t.as_str(), 10)
    };
    if digits.is_empty() || digits.starts_with('+') {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}
