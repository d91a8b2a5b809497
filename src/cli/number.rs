//! `dealdex number`, `dealdex deal` and `dealdex lookup`.

use clap::Args;
use dealdex::workflow;
use dealdex::workflow::lookup::LookupOptions;
use dealdex::workflow::number::{DealOptions, NumberJob};

use super::{StoreArgs, Text, print, print_notes, render, stdout};

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex number 'N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432'
  dealdex number 0EDCCBA0976F2DA4945D8E9DC0 --scheme andrews
  dealdex number boards.pbn")]
pub struct NumberArgs {
    #[command(flatten)]
    job: NumberJob,
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex deal 1
  dealdex deal 1..1000000 --to hex | head
  dealdex deal 0xAD55E315634DDA658BF491FF --scheme bigdeal --to json")]
pub struct DealArgs {
    #[command(flatten)]
    options: DealOptions,
}

#[derive(Args, Debug)]
#[command(
    after_help = "A 26-hex-digit argument (optionally with -X) is an index, one with ':' a PBN
deal string, anything else a hand-record number (decimal or 0x hex)."
)]
pub struct LookupArgs {
    #[command(flatten)]
    options: LookupOptions,
    #[command(flatten)]
    db: StoreArgs,
}

pub fn number(a: NumberArgs, json: bool) -> anyhow::Result<()> {
    let r = workflow::number::number(&a.job)?;
    print_notes(&a.job.argument, &r.notes);
    print(&r, json, Text::Answer)
}

pub fn deal(a: DealArgs, json: bool) -> anyhow::Result<()> {
    let job = a.options.job()?;
    let mut stdout = stdout();
    let report = workflow::number::deal(&job, &mut stdout)?;
    // After the deals when they go to stdout too; no summary in text mode.
    render(&mut stdout, &report, json, true, Text::Summary)
}

pub fn lookup(a: LookupArgs, json: bool) -> anyhow::Result<()> {
    let job = a.options.job(a.db.path())?;
    print(&workflow::lookup::run_in(&job)?, json, Text::Answer)
}
