//! `dealdex query`: the query language over the database (docs/query.md).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use dealdex::formats::{Board, WriteOptions};
use dealdex::query::Query;
use dealdex::{DealIndex, Store};
use rusqlite::types::Value;

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

pub fn run(a: QueryArgs) -> anyhow::Result<()> {
    let q = Query::parse(&a.expr).map_err(|e| bad(format!("query: {e}")))?;
    let filter = q.to_sql();
    let mut params: Vec<Value> = filter.params.iter().map(|&v| Value::Integer(v)).collect();
    let (from, order) = match &a.set {
        Some(name) => {
            params.push(Value::Text(name.clone()));
            (
                format!(
                    "deal_features JOIN set_boards ON set_boards.deal = deal_features.key \
                     JOIN sets ON sets.id = set_boards.set_id \
                     WHERE sets.name = ?{} AND ({})",
                    params.len(),
                    filter.clause
                ),
                " ORDER BY set_boards.board",
            )
        }
        None => (
            format!("deal_features WHERE {}", filter.clause),
            " ORDER BY deal_features.key",
        ),
    };
    let limit = a.limit.map(|n| format!(" LIMIT {n}")).unwrap_or_default();
    let sql = if a.count {
        format!("SELECT count(*) FROM {from}")
    } else if a.set.is_some() {
        format!("SELECT deal_features.key, set_boards.board FROM {from}{order}{limit}")
    } else {
        format!("SELECT deal_features.key, NULL FROM {from}{order}{limit}")
    };
    let mut out = open_output(a.out.as_deref())?;
    if a.explain {
        writeln!(out, "{sql}")?;
        for (i, p) in params.iter().enumerate() {
            writeln!(out, "-- ?{} = {p:?}", i + 1)?;
        }
        return Ok(out.flush()?);
    }
    if !a.db.db.exists() {
        return Err(bad(format!("no database at {}", a.db.db.display())));
    }
    let store = Store::open(&a.db.db)?;
    let conn = store.connection();
    let mut stmt = conn.prepare(&sql)?;
    if a.count {
        let n: i64 = stmt.query_row(rusqlite::params_from_iter(params.iter()), |r| r.get(0))?;
        writeln!(out, "{n}")?;
        return Ok(out.flush()?);
    }
    let format = outputs::format_by_name(a.format.as_deref().unwrap_or("hex"))?;
    let mut rows = stmt.query(rusqlite::params_from_iter(params.iter()))?;
    let mut boards = Vec::new();
    while let Some(row) = rows.next()? {
        let key: Vec<u8> = row.get(0)?;
        let key = DealIndex(
            key.as_slice()
                .try_into()
                .map_err(|_| bad("stored key is not 13 bytes"))?,
        );
        let number: Option<i64> = row.get(1)?;
        let deal = key.to_deal()?;
        boards.push(Board {
            number: number.map(|n| n as u64).or(Some(boards.len() as u64 + 1)),
            ..Board::new(0, deal)
        });
    }
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
