//! `dealdex card`: one card in every encoding of the seed documents (dealdex::encoding).

use clap::Args;
use dealdex::workflow::card::{self, CardOptions};

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
    #[command(flatten)]
    options: CardOptions,
}

pub fn run(a: CardArgs, json: bool) -> anyhow::Result<()> {
    let r = card::run(&a.options.job())?;
    print(&r, json, Text::Answer)
}
