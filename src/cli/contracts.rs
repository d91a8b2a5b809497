//! `dealdex contracts`: contracts compared over deals played double dummy, through the
//! library's [`dealdex::workflow::contracts`] workflow.

use std::path::PathBuf;

use clap::Args;
use dealdex::workflow::contracts::{ContractsJob, Vulnerable, run_in};
use dealdex::workflow::pipeline::DealSource;
use dealdex::{Contract, Vulnerability};

use super::{DbArgs, Text, print, progress_bar};

#[derive(Args, Debug)]
#[command(
    after_help = "Without --deals or --set, every stored deal; --where keeps the stored \
deals a query matches. Stored tables are used; deals without one are solved (not stored).

Examples:
  dealdex contracts 3NT:S 4H:N 5D:N 6H:N --set club
  dealdex contracts 4SX:E 5H:N --deals boards.pbn --vul All --json"
)]
pub struct ContractsArgs {
    /// The contracts: level, strain, X or XX, then `:` and the declarer (3NT:S 4HX:N).
    #[arg(required = true, value_name = "CONTRACT")]
    contracts: Vec<Contract>,
    /// A deal file (any format dealdex reads) instead of the database.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["set", "where_"])]
    deals: Option<PathBuf>,
    #[arg(long = "from", value_name = "FORMAT", requires = "deals", help = super::input_format_help())]
    from: Option<String>,
    /// Only the deals of this stored set.
    #[arg(long, value_name = "NAME")]
    set: Option<String>,
    /// Only the stored deals this query matches, e.g. 'hcp(N) + hcp(S) >= 25'.
    #[arg(long = "where", value_name = "EXPR")]
    where_: Option<String>,
    /// Score every deal at this vulnerability (None, NS, EW, All), not each board's.
    #[arg(long, value_name = "VUL")]
    vul: Option<Vulnerability>,
    #[command(flatten)]
    db: DbArgs,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(a: ContractsArgs, json: bool) -> anyhow::Result<()> {
    let source = match &a.where_ {
        Some(text) => DealSource::Matching {
            query: dealdex::query::Query::parse(text)?,
            set: a.set.clone(),
            limit: None,
        },
        None => DealSource::from_flags(a.deals.clone(), a.from.as_deref(), a.set.clone(), None)?,
    };
    let job = ContractsJob {
        source,
        contracts: a.contracts.clone(),
        vulnerable: a.vul.map_or(Vulnerable::Board, Vulnerable::Forced),
    };
    let bar = progress_bar(a.quiet, "{spinner} {human_pos} deals played {msg}");
    let report = run_in(&job, &a.db.path(), &mut |p| {
        bar.set_position(p.deals);
        bar.set_message(format!("({} solved)", p.solved));
    })?;
    bar.finish_and_clear();
    if let Some(path) = &a.deals {
        super::print_notes(&path.display(), &report.skipped, &report.warnings);
    }
    print(&report, json, false, Text::Answer)
}
