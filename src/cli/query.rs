//! `dealdex number`, `dealdex deal` and `dealdex lookup`.

use std::io::Write;

use anyhow::Context;
use clap::Args;
use dealdex::export::WriteError;
use dealdex::workflow::lookup::{LookupJob, PlayView};
use dealdex::workflow::number::{DealJob, DealJobError, NumberJob};
use dealdex::{Deal, Format, Scheme, workflow};

use super::{DbArgs, open_output, parse_scheme};

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex number 'N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432'
  dealdex number 0EDCCBA0976F2DA4945D8E9DC0 --scheme andrews
  dealdex number boards.pbn")]
pub struct NumberArgs {
    /// A PBN deal string (`N:…`), a 26-hex-digit index (optionally `-X`), or a deal file
    /// (any format dealdex reads; prints `board number` lines).
    deal: String,
    /// Numbering scheme: pavlicek, andrews or bigdeal.
    #[arg(long, default_value = "pavlicek", value_parser = parse_scheme)]
    scheme: Scheme,
    /// Format of a deal file (default: from its extension).
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex deal 1
  dealdex deal 1..1000000 --format hex | head
  dealdex deal 0xAD55E315634DDA658BF49200 --scheme bigdeal --format json")]
pub struct DealArgs {
    /// A hand-record number (decimal or 0x hex), or an inclusive range A..B.
    number: String,
    /// Numbering scheme: pavlicek, andrews or bigdeal.
    #[arg(long, default_value = "pavlicek", value_parser = parse_scheme)]
    scheme: Scheme,
    /// Output: pbn (deal strings), hex (indices) or json (JSON lines).
    #[arg(long, short, default_value = "pbn")]
    format: Format,
    /// Output file (default stdout).
    #[arg(long, short, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
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
    #[arg(long, default_value = "pavlicek", value_parser = parse_scheme)]
    scheme: Scheme,
    #[command(flatten)]
    db: DbArgs,
}

pub fn number(a: NumberArgs, json: bool) -> anyhow::Result<()> {
    let job = NumberJob {
        argument: a.deal,
        format: a.format,
        scheme: a.scheme,
    };
    let r = workflow::number::number(&job)?;
    if !r.skipped.is_empty() {
        let summary = dealdex::import::skipped_summary(&r.skipped);
        eprintln!("dealdex: {}: {summary}", job.argument);
    }
    for w in &r.warnings {
        eprintln!("dealdex: {}: warning: {w}", job.argument);
    }
    let mut out = open_output(None)?;
    if json {
        writeln!(out, "{}", serde_json::to_string(&r)?)?;
    } else {
        for d in &r.deals {
            match d.board {
                Some(b) => writeln!(out, "{b} {}", d.number)?,
                None => writeln!(out, "{}", d.number)?,
            }
        }
    }
    Ok(out.flush()?)
}

pub fn deal(a: DealArgs, json: bool) -> anyhow::Result<()> {
    let (first, last) = workflow::number::parse_range(&a.number)?;
    let job = DealJob {
        first,
        last,
        scheme: a.scheme,
        format: a.format,
        out: a.out.filter(|p| p.as_os_str() != "-"),
    };
    let mut stdout = open_output(None)?;
    let report = workflow::number::deal(&job, &mut stdout).map_err(|e| match e {
        // Standard output's error as such: a closed pipe ends quietly.
        DealJobError::Write(WriteError { path: None, error }) => anyhow::Error::from(error),
        e => e.into(),
    })?;
    if json {
        // After the deals when they go to stdout too.
        writeln!(stdout, "{}", serde_json::to_string(&report)?)?;
        stdout.flush()?;
    }
    Ok(())
}

pub fn lookup(a: LookupArgs, json: bool) -> anyhow::Result<()> {
    let deal = match dealdex::parse_deal_argument(&a.deal) {
        Some(d) => d.context("deal")?.0,
        None => Deal::from_number(dealdex::parse_number(&a.deal)?, a.scheme)?,
    };
    let db = &a.db.db;
    let store = match db.exists() {
        true => Some(dealdex::Store::open_read_only(db)?),
        false => None,
    };
    let job = LookupJob {
        deal,
        scheme: a.scheme,
    };
    let r = dealdex::workflow::lookup::run(&job, store.as_ref())?;
    let mut out = open_output(None)?;
    if json {
        writeln!(out, "{}", serde_json::to_string(&r)?)?;
        return Ok(out.flush()?);
    }
    writeln!(out, "deal    {}", r.deal)?;
    writeln!(out, "index   {}", r.index)?;
    writeln!(out, "number  {} ({})", r.number, r.scheme)?;
    match (&store, r.stored) {
        (None, _) => writeln!(out, "stored  no (no database at {})", db.display())?,
        (Some(_), false) => writeln!(out, "stored  no (not in {})", db.display())?,
        (Some(_), true) if r.boards.is_empty() => {
            writeln!(out, "stored  yes, in {} (in no set)", db.display())?
        }
        (Some(_), true) => {
            let list: Vec<String> = r
                .boards
                .iter()
                .map(|b| format!("set {:?} board {}", b.set, b.board))
                .collect();
            writeln!(out, "stored  yes, in {}: {}", db.display(), list.join(", "))?;
        }
    }
    writeln!(out)?;
    write!(out, "{}", r.deal.diagram())?;
    if let Some(dd) = &r.dd {
        writeln!(out)?;
        writeln!(out, "double dummy (tricks by declarer and strain)")?;
        writeln!(out, "{}", dd.tricks)?;
        let at = dd.board.map_or(String::new(), |b| format!("board {b}, "));
        writeln!(
            out,
            "par     {} ({at}dealer {}, vul {})",
            dd.par, dd.dealer, dd.vul
        )?;
    }
    for p in &r.plays {
        writeln!(out)?;
        write_play(&mut out, p)?;
    }
    Ok(out.flush()?)
}

/// A stored play, trick by trick with winners.
fn write_play(out: &mut dyn Write, p: &PlayView) -> anyhow::Result<()> {
    let mut head = String::from("play    ");
    match (&p.set, p.board) {
        (Some(set), Some(b)) => head.push_str(&format!("set {set:?} board {b}: ")),
        (Some(set), None) => head.push_str(&format!("set {set:?}: ")),
        (None, Some(b)) => head.push_str(&format!("board {b}: ")),
        (None, None) => {}
    }
    let strain = p.strain.map_or("unknown".into(), |s| s.to_string());
    let declarer = p.declarer.map_or("unknown".into(), |d| d.to_string());
    head.push_str(&format!("strain {strain}, declarer {declarer}"));
    writeln!(out, "{head}")?;
    for (t, tr) in p.tricks.iter().enumerate() {
        let result = match (tr.complete, tr.winner) {
            (true, Some(w)) => format!("won by {w}"),
            (true, None) => "won by ?".to_string(),
            (false, _) => "(play stopped)".to_string(),
        };
        writeln!(
            out,
            "trick {}: lead {}  {}  {result}",
            t + 1,
            tr.leader,
            tr.cards.join(" ")
        )?;
    }
    writeln!(out, "tricks  N-S {}, E-W {}", p.won[0], p.won[1])?;
    Ok(())
}
