//! `dealdex number`, `dealdex deal` and `dealdex lookup`.

use anyhow::Context;
use clap::Args;
use dealdex::workflow::lookup::LookupJob;
use dealdex::workflow::number::{DealJob, NumberJob};
use dealdex::workflow::output::Writing;
use dealdex::{Deal, Scheme, formats, workflow};

use super::file_args::ReadArgs;
use super::{StoreArgs, Text, print, print_notes, render, stdout};

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex number 'N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432'
  dealdex number 0EDCCBA0976F2DA4945D8E9DC0 --scheme andrews
  dealdex number boards.pbn")]
pub struct NumberArgs {
    #[command(flatten)]
    job: NumberJob,
    #[command(flatten)]
    read: ReadArgs,
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex deal 1
  dealdex deal 1..1000000 --to hex | head
  dealdex deal 0xAD55E315634DDA658BF491FF --scheme bigdeal --to json")]
pub struct DealArgs {
    /// A hand-record number (decimal or 0x hex), or an inclusive range A..B.
    number: String,
    /// Numbering scheme: pavlicek, andrews or bigdeal.
    #[arg(long, default_value = "pavlicek")]
    scheme: Scheme,
    /// Output: pbn (deal strings), hex (indices) or json (JSON lines with the numbers) list
    /// the deals; any other format writes them as boards 1, 2, … (`deal 1..32 --to dup`).
    #[arg(long = "to", short = 'f', visible_alias = "format", default_value = "pbn",
          value_parser = parse_format)]
    format: &'static dyn formats::DealFormat,
    /// Output file (default stdout).
    #[arg(long, short, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    #[command(flatten)]
    write: Writing,
}

#[derive(Args, Debug)]
#[command(
    after_help = "A 26-hex-digit argument (optionally with -X) is an index, one with ':' a PBN
deal string, anything else a hand-record number (decimal or 0x hex)."
)]
pub struct LookupArgs {
    /// The deal: hex index, hand-record number or PBN deal string.
    deal: String,
    /// Scheme of a number argument and of the number shown.
    #[arg(long, default_value = "pavlicek")]
    scheme: Scheme,
    #[command(flatten)]
    db: StoreArgs,
}

pub fn number(a: NumberArgs, json: bool) -> anyhow::Result<()> {
    let job = NumberJob {
        read: a.read.read_as()?,
        ..a.job
    };
    let r = workflow::number::number(&job)?;
    print_notes(&job.argument, &r.notes);
    print(&r, json, Text::Answer)
}

/// `deal --to`: a registry format by name, either case (`jsonl` is `json`).
fn parse_format(s: &str) -> Result<&'static dyn formats::DealFormat, String> {
    let name = s.to_ascii_lowercase();
    formats::named(if name == "jsonl" { "json" } else { &name }).map_err(|e| e.to_string())
}

pub fn deal(a: DealArgs, json: bool) -> anyhow::Result<()> {
    let scheme = a.scheme;
    let (first, last) = workflow::number::parse_range(&a.number, scheme)?;
    let job = DealJob {
        first,
        last,
        scheme,
        format: a.format,
        out: a.out.filter(|p| p.as_os_str() != "-"),
        writing: a.write,
    };
    let mut stdout = stdout();
    let report = workflow::number::deal(&job, &mut stdout)?;
    // After the deals when they go to stdout too; no summary in text mode.
    render(&mut stdout, &report, json, true, Text::Summary)
}

pub fn lookup(a: LookupArgs, json: bool) -> anyhow::Result<()> {
    let deal = match dealdex::parse_deal_argument(&a.deal) {
        Some(d) => d.context("deal")?.0,
        None => Deal::from_number(dealdex::parse_scheme_number(&a.deal, a.scheme)?, a.scheme)?,
    };
    let job = LookupJob {
        deal,
        scheme: a.scheme,
        database: a.db.path(),
    };
    print(&workflow::lookup::run_in(&job)?, json, Text::Answer)
}
