//! `dealdex query`: the query language over the database (docs/query.md).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use dealdex::Store;
use dealdex::formats::{Board, WriteOptions};
use dealdex::query::Query;

use super::outputs;
use super::{DbArgs, bad, open_output};

#[derive(Args, Debug)]
#[command(
    after_help = "The language (docs/query.md): hcp(X), len(X, suit), controls(X), ltc(X),
longest(X), balanced(X), semibalanced(X), shape(X) = 4432, pattern(X) = 5431; X is a seat N E S W
or a side NS EW where it makes sense; comparisons = != < <= > >=, t in a..b, and, or, not, ().

Examples:
  dealdex query 'hcp(N) >= 20 and len(S, spades) >= 5' --count
  dealdex query 'shape(E) = 4432 and hcp(NS) in 20..24' --limit 10 --format pbn
  dealdex query 'balanced(N)' --set club --explain"
)]
pub struct QueryArgs {
    /// The expression.
    expr: String,
    /// Print only the number of matching deals.
    #[arg(long)]
    count: bool,
    /// At most this many deals.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// Only the deals of this set (listed with their board numbers).
    #[arg(long, value_name = "NAME")]
    set: Option<String>,
    /// Show the SQL and its parameters instead of running it.
    #[arg(long)]
    explain: bool,
    /// Output format (any registered format; default hex).
    #[arg(long, short, value_name = "FORMAT")]
    format: Option<String>,
    /// Output file (default stdout).
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    db: DbArgs,
}

pub fn run(a: QueryArgs, _json: bool) -> anyhow::Result<()> {
    let q = Query::parse(&a.expr).map_err(|e| bad(format!("query: {e}")))?;
    let filter = q.to_sql();
    let set = a.set.as_deref();
    let mut out = open_output(a.out.as_deref())?;
    if a.explain {
        let text = match a.count {
            true => Store::explain_count_deals(&filter, set),
            false => Store::explain_find_deals(&filter, set, a.limit),
        };
        out.write_all(text.as_bytes())?;
        return Ok(out.flush()?);
    }
    let store = Store::open_read_only(&a.db.db)?;
    if a.count {
        writeln!(out, "{}", store.count_deals(&filter, set)?)?;
        return Ok(out.flush()?);
    }
    let format = outputs::format_by_name(a.format.as_deref().unwrap_or("hex"))?;
    let mut boards = Vec::new();
    store.for_each_match(&filter, set, a.limit, |key, number| {
        boards.push(Board {
            number: number.or(Some(boards.len() as u64 + 1)),
            ..Board::new(0, key.to_deal()?)
        });
        Ok::<_, anyhow::Error>(())
    })?;
    if boards.is_empty() {
        return Ok(out.flush()?);
    }
    let opts = WriteOptions {
        first_board: 1,
        last_board: boards.len() as u64,
        ..WriteOptions::default()
    };
    let bytes = dealdex::formats::write_set(format, &boards, &opts)
        .map_err(|e| bad(format!("{}: {e}", format.info().name)))?;
    out.write_all(&bytes)?;
    Ok(out.flush()?)
}
