//! `dealdex card`: one card in every encoding of the seed documents (dealdex::encoding).

use std::io::Write;

use clap::{Args, ValueEnum};
use dealdex::Card;
use dealdex::encoding::{self, Encoding, EncodingError};
use serde::Serialize;

use super::{bad, open_output};

#[derive(Args, Debug)]
#[command(
    after_help = "Prints one 'name: value' line per encoding: seed000-slot (seed 000),
standard-card (seed 001, decimal and hex), seed003-number and seed003-display (seed 003),
seed004-byte (seed 004, hex and binary) and unicode (code point and glyph).

Numbers are decimal, 0x hex or 0b binary; a unicode value is U+1F0A1, 0x1F0A1, bare hex
digits (1F0A1) or the glyph itself.

Examples:
  dealdex card QC
  dealdex card '♣Q' --json
  dealdex card --from standard-card 533383
  dealdex card --from unicode U+1F0A1
  dealdex card --from seed004-byte 0x2C"
)]
pub struct CardArgs {
    /// The card as text (QC, CQ, ♣Q, Q♣, 10H, TH, h10; any case), or with --from a value in
    /// that encoding.
    #[arg(allow_hyphen_values = true)]
    value: String,
    /// Read VALUE in this encoding instead of as card text.
    #[arg(long, value_enum, value_name = "ENCODING")]
    from: Option<From>,
}

/// The encodings `--from` accepts.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum From {
    #[value(name = "seed000-slot")]
    Seed000Slot,
    #[value(name = "standard-card")]
    StandardCard,
    #[value(name = "seed003-number")]
    Seed003Number,
    #[value(name = "seed003-display")]
    Seed003Display,
    #[value(name = "seed004-byte")]
    Seed004Byte,
    #[value(name = "unicode")]
    Unicode,
}

/// The `--json` object: field names are the encoding names.
#[derive(Serialize)]
struct CardJson {
    card: String,
    name: String,
    #[serde(rename = "seed000-slot")]
    seed000_slot: u8,
    #[serde(rename = "standard-card")]
    standard_card: u32,
    #[serde(rename = "seed003-number")]
    seed003_number: u8,
    #[serde(rename = "seed003-display")]
    seed003_display: String,
    #[serde(rename = "seed004-byte")]
    seed004_byte: u8,
    #[serde(rename = "seed004-face-up")]
    seed004_face_up: bool,
    unicode: String,
    #[serde(rename = "unicode-glyph")]
    unicode_glyph: String,
}

pub fn run(a: CardArgs, json: bool) -> anyhow::Result<()> {
    let (card, face_up) = read(&a).map_err(|e| bad(e.to_string()))?;
    let mut out = open_output(None)?;
    let byte = encoding::seed004_byte(card, face_up);
    let code = encoding::unicode(card);
    if json {
        let j = CardJson {
            card: card.to_string(),
            name: encoding::card_name(card),
            seed000_slot: encoding::seed000_slot(card),
            standard_card: encoding::standard_card(card),
            seed003_number: encoding::seed003_number(card),
            seed003_display: encoding::seed003_display(card),
            seed004_byte: byte,
            seed004_face_up: face_up,
            unicode: format!("U+{code:04X}"),
            unicode_glyph: encoding::unicode_char(card).to_string(),
        };
        writeln!(out, "{}", serde_json::to_string(&j)?)?;
    } else {
        let std = encoding::standard_card(card);
        writeln!(out, "card: {card} ({})", encoding::card_name(card))?;
        writeln!(out, "seed000-slot: {}", encoding::seed000_slot(card))?;
        writeln!(out, "standard-card: {std} (0x{std:08X})")?;
        writeln!(out, "seed003-number: {}", encoding::seed003_number(card))?;
        writeln!(out, "seed003-display: {}", encoding::seed003_display(card))?;
        let face = if face_up { "face up" } else { "face down" };
        writeln!(out, "seed004-byte: 0x{byte:02X} (0b{byte:08b}, {face})")?;
        writeln!(
            out,
            "unicode: U+{code:04X} {}",
            encoding::unicode_char(card)
        )?;
    }
    out.flush()?;
    Ok(())
}

/// The card the arguments name, and its face (up unless a face-down seed 004 byte was given).
fn read(a: &CardArgs) -> Result<(Card, bool), String> {
    let v = a.value.trim();
    let number = |enc: Encoding| -> Result<u64, String> {
        parse_int(v)
            .ok_or_else(|| format!("{enc}: '{v}' is not a number (decimal, 0x hex or 0b binary)"))
    };
    let numeric = |enc: Encoding| -> Result<Card, String> {
        enc.decode(number(enc)?).map_err(|e| e.to_string())
    };
    let card = match a.from {
        None => encoding::parse_card(v).map_err(|e| e.to_string())?,
        Some(From::Seed000Slot) => numeric(Encoding::Seed000Slot)?,
        Some(From::StandardCard) => numeric(Encoding::StandardCard)?,
        Some(From::Seed003Number) => numeric(Encoding::Seed003Number)?,
        Some(From::Seed003Display) => {
            encoding::card_from_seed003_display(v).map_err(|e| e.to_string())?
        }
        Some(From::Seed004Byte) => {
            let n = number(Encoding::Seed004Byte)?;
            let byte = u8::try_from(n).map_err(|_| {
                EncodingError::OutOfRange {
                    encoding: Encoding::Seed004Byte,
                    value: n,
                    valid: "a card byte is 0..=255 (0x00..=0xFF)",
                }
                .to_string()
            })?;
            let c = encoding::card_from_seed004_byte(byte).map_err(|e| e.to_string())?;
            return Ok((c.card, c.face_up));
        }
        Some(From::Unicode) => read_unicode(v)?,
    };
    Ok((card, true))
}

/// A unicode value: `U+1F0A1`, `0x1F0A1`, bare hex `1F0A1` or the glyph itself.
fn read_unicode(v: &str) -> Result<Card, String> {
    let mut chars = v.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && !c.is_ascii()
    {
        return encoding::card_from_unicode_char(c).map_err(|e| e.to_string());
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
        .ok_or_else(|| {
            format!("unicode: '{v}' is not a code point (write U+1F0A1, 0x1F0A1 or the glyph)")
        })?;
    encoding::card_from_unicode(code).map_err(|e| e.to_string())
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
