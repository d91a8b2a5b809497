//! `dealdex query`: the query language over the database (docs/query.md).

use std::path::PathBuf;

use clap::Args;
use dealdex::workflow::query::QueryOptions;

use super::{StoreArgs, Text, render, stdout};

#[derive(Args, Debug)]
#[command(
    after_help = "The language (docs/query.md): hcp(X), len(X, suit), controls(X), ltc(X),
longest(X), balanced(X), semibalanced(X), shape(X) = 4432, pattern(X) = 5431; X is a seat N E S W
or a side NS EW where it makes sense; comparisons = != < <= > >=, t in a..b, and, or, not, ().

Examples:
  dealdex query 'hcp(N) >= 20 and len(S, spades) >= 5' --count
  dealdex query 'shape(E) = 4432 and hcp(NS) in 20..24' --limit 10 --to pbn
  dealdex query 'balanced(N)' --set club --explain
  dealdex query 'hcp(NS) >= 25 and dd(NS, nt) >= 9' --explain --dialect spark
  dealdex query --played 'contract = 3NT and result < 0 and dd(declarer, strain) >= 9'
  dealdex query --played 'event = \"Bermuda Bowl\"' --report pairs --json

--explain --dialect spark prints one line, a Spark SQL predicate over the columns of a dealdex
Parquet archive for df.filter(…) (docs/query.md); it needs no database, and par(…), --set and
--limit are refused."
)]
pub struct QueryArgs {
    #[command(flatten)]
    options: QueryOptions,
    /// Output file (default stdout).
    #[arg(long, short, value_name = "FILE", conflicts_with = "played")]
    out: Option<PathBuf>,
    #[command(flatten)]
    db: StoreArgs,
}

pub fn run(a: QueryArgs, json: bool) -> anyhow::Result<()> {
    if let Some(job) = a.options.played_job()? {
        let answer = dealdex::workflow::played_query::run_on(&job, &a.db.path())?;
        return render(&mut stdout(), &answer, json, false, Text::Answer);
    }
    let job = a.options.job()?;
    // The deals (or the count: the text answer) go to --out, staged, else to stdout.
    let mut stdout = stdout();
    let (db, out) = (a.db.path(), a.out.as_deref());
    let report = dealdex::workflow::query::run_on(&job, &db, out, !json, &mut stdout)?;
    // With --out the deals went to the file; without it they precede the report. No summary
    // in text mode: the deals (or the count) are the answer.
    render(&mut stdout, &report, json, true, Text::Summary)
}
