//! `dealdex number`, `dealdex deal` and `dealdex lookup`.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use clap::Args;
use dealdex::workflow::lookup::{LookupJob, PlayView};
use dealdex::{Deal, DealIndex, Format, HexDeal, Labels, Scheme};

use super::{DbArgs, bad, open_output, parse_scheme};

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

/// A deal given on the command line as a hex index or a PBN deal string; `None` if it is
/// neither (it may be a file or a number).
fn parse_inline_deal(s: &str) -> Option<anyhow::Result<Deal>> {
    parse_inline_board(s).map(|r| r.map(|(deal, _)| deal))
}

/// A deal given on the command line, with the board number a hex index's `-X` suffix
/// implies (1..=16: the same dealer and vulnerability as the real board): `None` when the
/// text is neither a hex index nor a PBN deal string.
pub(super) fn parse_inline_board(s: &str) -> Option<anyhow::Result<(Deal, Option<u64>)>> {
    let t = s.trim();
    let hexish = t.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    if hexish && (t.len() == 26 || t.len() == 28) {
        return Some((|| {
            let h = t.parse::<HexDeal>()?;
            let board = h.cycle.map(|c| if c == 0 { 16 } else { u64::from(c) });
            Ok((h.index.to_deal()?, board))
        })());
    }
    if t.contains(':') {
        return Some(
            dealdex::parse_deal(t)
                .map(|d| (d, None))
                .map_err(anyhow::Error::from),
        );
    }
    None
}

/// One deal of `number --json`: hand-record numbers are strings (they exceed 2^53).
#[derive(serde::Serialize)]
struct NumberedDeal {
    /// The board number, for a deal file's boards.
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<u64>,
    /// The deal's 26-hex-digit index.
    index: String,
    /// Its hand-record number in the scheme, in decimal.
    number: String,
}

/// The report of `number --json`.
#[derive(serde::Serialize)]
struct NumberReport {
    scheme: &'static str,
    deals: Vec<NumberedDeal>,
}

impl NumberedDeal {
    fn new(board: Option<u64>, deal: &Deal, scheme: Scheme) -> NumberedDeal {
        NumberedDeal {
            board,
            index: DealIndex::from_deal(deal).to_string(),
            number: deal.number(scheme).to_string(),
        }
    }
}

pub fn number(a: NumberArgs, json: bool) -> anyhow::Result<()> {
    let mut out = open_output(None)?;
    let deals: Vec<(Option<u64>, Deal)> = match parse_inline_deal(&a.deal) {
        Some(deal) => vec![(None, deal.context("deal")?)],
        None => {
            let path = Path::new(&a.deal);
            if !path.is_file() {
                return Err(bad(format!(
                    "{:?} is not a PBN deal string (N:…), a 26-hex-digit index or a deal file",
                    a.deal
                )));
            }
            let format = super::outputs::format_for(path, a.format.as_deref())?;
            super::files::read_file(path, format, 1)?
                .iter()
                .map(|b| (Some(b.number.expect("numbered")), b.deal))
                .collect()
        }
    };
    if json {
        let report = NumberReport {
            scheme: a.scheme.name(),
            deals: deals
                .iter()
                .map(|(board, deal)| NumberedDeal::new(*board, deal, a.scheme))
                .collect(),
        };
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
        return Ok(out.flush()?);
    }
    for (board, deal) in &deals {
        match board {
            Some(b) => writeln!(out, "{b} {}", deal.number(a.scheme))?,
            None => writeln!(out, "{}", deal.number(a.scheme))?,
        }
    }
    Ok(out.flush()?)
}

/// The report of `deal --json`: numbers are strings (they exceed 2^53).
#[derive(serde::Serialize)]
struct DealReport {
    scheme: &'static str,
    first: String,
    last: String,
    deals: u64,
    format: &'static str,
    /// The output file; null for stdout.
    out: Option<std::path::PathBuf>,
}

pub fn deal(a: DealArgs, json: bool) -> anyhow::Result<()> {
    let (first, last) = match a.number.split_once("..") {
        Some((x, y)) => (
            dealdex::parse_number(x).context("range start")?,
            dealdex::parse_number(y.trim_start_matches('=')).context("range end")?,
        ),
        None => {
            let n = dealdex::parse_number(&a.number)?;
            (n, n)
        }
    };
    if last < first {
        return Err(bad(format!(
            "range {}: the end is below the start",
            a.number
        )));
    }
    let count = u64::try_from(last - first + 1)
        .map_err(|_| bad("range too long: at most 2^64 - 1 deals"))?;
    let mut out = open_output(a.out.as_deref())?;
    dealdex::warm_up();
    dealdex::par_chunks_ordered(
        count,
        |offset, len| {
            let start = first + offset as u128;
            let mut deals = vec![Deal::from_number(1, a.scheme).expect("1 is valid"); len];
            dealdex::unrank_range(start, a.scheme, &mut deals).expect("range checked");
            let mut buf = Vec::with_capacity(len * 80);
            dealdex::format_chunk(
                &mut buf,
                a.format,
                Labels::Numbers(a.scheme),
                start,
                &deals,
                false,
                "",
            );
            buf
        },
        |buf: Vec<u8>| out.write_all(&buf),
    )?;
    out.flush()?;
    if json {
        let report = DealReport {
            scheme: a.scheme.name(),
            first: first.to_string(),
            last: last.to_string(),
            deals: count,
            format: match a.format {
                Format::Pbn => "pbn",
                Format::Hex => "hex",
                Format::Json => "json",
            },
            out: a.out.clone().filter(|p| p.as_os_str() != "-"),
        };
        // After the deals when they go to stdout too.
        let mut stdout = open_output(None)?;
        writeln!(stdout, "{}", serde_json::to_string(&report)?)?;
        stdout.flush()?;
    }
    Ok(())
}

pub fn lookup(a: LookupArgs, json: bool) -> anyhow::Result<()> {
    let deal = match parse_inline_deal(&a.deal) {
        Some(d) => d.context("deal")?,
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
