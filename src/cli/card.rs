//! `dealdex card`: one card in every encoding of the seed documents (dealdex::encoding).

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use dealdex::workflow::card::{self, CardJob, CardSource};

use super::{Text, print};

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
    #[arg(long, value_name = "ENCODING", value_parser = encoding())]
    from: Option<CardSource>,
}

/// `--from`'s value: one of [`CardSource::ENCODINGS`] (clap lists them and exits 2 otherwise).
fn encoding() -> impl TypedValueParser<Value = CardSource> {
    let names = CardSource::ENCODINGS.map(|(name, _)| name);
    PossibleValuesParser::new(names).map(|n| CardSource::named(&n).expect("a listed name"))
}

pub fn run(a: CardArgs, json: bool) -> anyhow::Result<()> {
    let r = card::run(&CardJob {
        value: a.value,
        from: a.from.unwrap_or(CardSource::Text),
    })?;
    print(&r, json, Text::Answer)
}
