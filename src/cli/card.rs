//! `dealdex card`: one card in every encoding of the seed documents (dealdex::encoding).

use clap::{Args, ValueEnum};
use dealdex::workflow::card::{self, CardJob, CardSource};

use super::{Text, open_output, render};

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
    SeatArraySlot,
    #[value(name = "standard-card")]
    StandardCard,
    #[value(name = "seed003-number")]
    HsdcNumber,
    #[value(name = "seed003-display")]
    SymbolText,
    #[value(name = "seed004-byte")]
    CardByte,
    #[value(name = "unicode")]
    Unicode,
}

pub fn run(a: CardArgs, json: bool) -> anyhow::Result<()> {
    let from = match a.from {
        None => CardSource::Text,
        Some(From::SeatArraySlot) => CardSource::SeatArraySlot,
        Some(From::StandardCard) => CardSource::StandardCard,
        Some(From::HsdcNumber) => CardSource::HsdcNumber,
        Some(From::SymbolText) => CardSource::SymbolText,
        Some(From::CardByte) => CardSource::CardByte,
        Some(From::Unicode) => CardSource::Unicode,
    };
    let r = card::run(&CardJob {
        value: a.value,
        from,
    })?;
    render(&mut open_output(None)?, &r, json, false, Text::Answer)
}
