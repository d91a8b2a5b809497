//! `dealdex contracts`: contracts compared over deals played double dummy, through the
//! library's [`dealdex::workflow::contracts`] workflow.

use std::path::PathBuf;

use clap::Args;
use dealdex::workflow::contracts::{ContractsJob, Vulnerable, run_in};
use dealdex::workflow::samples::{ContractsSample, contracts_source};
use dealdex::{Contract, Vulnerability};

use super::{DbArgs, Text, print, progress_bar};

#[derive(Args, Debug)]
#[command(
    after_help = "Without --deals, --set or --count, every stored deal; --where keeps the \
stored deals a query matches, or with --count the dealt ones. Stored tables are used; deals \
without one are solved (not stored).

Examples:
  dealdex contracts 3NT:S 4H:N 5D:N 6H:N --set club
  dealdex contracts 4SX:E 5H:N --deals boards.pbn --vul All --json
  dealdex contracts 3NT:S 4H:S --count 1000 --predeal 'S:AQ4.KJ52.K83.Q72' \\
      --where 'hcp(N) in 10..12 and len(N, hearts) = 4' --vul None --seed <64 hex>"
)]
pub struct ContractsArgs {
    /// The contracts: level, strain, X or XX, then `:` and the declarer (3NT:S 4HX:N).
    #[arg(required = true, value_name = "CONTRACT")]
    contracts: Vec<Contract>,
    /// A deal file (any format dealdex reads) instead of the database.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["set", "where_", "count"])]
    deals: Option<PathBuf>,
    /// Deal this many deals (a seed's numbered stream, completing --predeal; with --where,
    /// this many matching deals) instead of reading stored ones.
    #[arg(long, value_name = "N", conflicts_with = "set")]
    count: Option<u64>,
    /// With --count: the fixed cards, e.g. 'S:AQ4.KJ52.K83.Q72 N:.Q987..' (seat-prefixed
    /// partial hands in PBN notation).
    #[arg(long, value_name = "HANDS", requires = "count")]
    predeal: Option<String>,
    /// With --count: 256-bit seed as 64 hex digits (default: a fresh one, shown in the report).
    #[arg(long, value_name = "HEX", requires = "count")]
    seed: Option<String>,
    /// With --count and --where: give up after drawing this many deals [default:
    /// 1,000,000,000, as generate's; 0: no bound].
    #[arg(long, value_name = "N", requires = "count", requires = "where_")]
    max_draws: Option<u64>,
    #[command(flatten)]
    read: super::file_args::ReadArgs,
    /// Only the deals of this stored set.
    #[arg(long, value_name = "NAME")]
    set: Option<String>,
    /// Only the deals this query matches, e.g. 'hcp(N) + hcp(S) >= 25': stored ones, or
    /// with --count the dealt ones.
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
    let spec = ContractsSample {
        count: a.count,
        filter: a.where_.as_deref(),
        predeal: a.predeal.as_deref(),
        seed: a.seed.as_deref(),
        max_draws: a.max_draws,
        set: a.set.clone(),
    };
    let file_or_set =
        || -> anyhow::Result<_> { Ok(a.read.source(a.deals.clone(), a.set.clone())?) };
    let source = contracts_source(&spec, file_or_set).map_err(super::sample_error)?;
    let job = ContractsJob {
        source,
        contracts: a.contracts.clone(),
        vulnerable: a.vul.map_or(Vulnerable::Board, Vulnerable::Forced),
        stop: None,
        keep_deals: false,
    };
    let bar = progress_bar(a.quiet, "{spinner} {human_pos} deals played {msg}");
    let report = run_in(&job, &a.db.path(), &mut |p| {
        bar.set_position(p.deals);
        bar.set_message(format!("({} solved)", p.solved));
    })?;
    bar.finish_and_clear();
    if let Some(path) = &a.deals {
        super::print_notes(&path.display(), &report.notes);
    }
    print(&report, json, Text::Answer)
}
