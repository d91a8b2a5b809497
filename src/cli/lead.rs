//! `dealdex lead`: which card to lead against a contract, double dummy over a sample of
//! deals dealt around the leader's hand (or read from a file or the database).

use std::path::PathBuf;

use clap::Args;
use dealdex::workflow::lead::{self as wf, LeadJob, LeadSample};
use dealdex::workflow::pipeline::DealSource;
use dealdex::{Contract, Seat, Vulnerability};

use super::{StoreArgs, Text, print};

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex lead --hand 'S:AQ4 H:J D:KJ6543 C:632' --contract 3NT --declarer S --deals 1000
  dealdex lead --hand AQ4.J.KJ6543.632 --contract 4SX --declarer E --vul EW \\
      --where 'hcp(E) >= 15 and len(E, spades) >= 5' --deals 5000 --seed <64 hex>
  dealdex lead --hand AQ4.J.KJ6543.632 --contract 3NT --declarer S --script 1nt.dl --seed 7
  dealdex lead --hand AQ4.J.KJ6543.632 --contract 3NT --declarer S --deals 500 --store w3nt
  dealdex query --set w3nt 'lead(W, nt, SA) > lead(W, nt, D5)' --count
  dealdex lead --contract 3NT --declarer S --set sample --json")]
pub struct LeadArgs {
    /// The leader's hand: PBN (AQ4.J.KJ6543.632) or by suit (S:AQ4 H:J D:KJ6543 C:632).
    #[arg(long, value_name = "HAND", required_unless_present_any = ["set", "file"])]
    hand: Option<String>,
    /// The contract: level and strain, X doubled, XX redoubled (3NT, 4S, 5DX).
    #[arg(long, value_name = "CONTRACT")]
    contract: String,
    /// The declarer (N, E, S, W); the leader is on declarer's left.
    #[arg(long, value_name = "SEAT", value_parser = parse_seat)]
    declarer: Seat,
    /// The vulnerability scores are counted at: None, NS, EW, All.
    #[arg(long, value_name = "VUL", default_value = "None")]
    vul: Vulnerability,
    /// How many deals to deal around the hand.
    #[arg(long, value_name = "N", default_value_t = 1000, conflicts_with_all = ["set", "file"])]
    deals: u64,
    /// Only deals this query-language expression accepts (the other hands' constraints).
    #[arg(long = "where", value_name = "EXPR", conflicts_with = "script")]
    filter: Option<String>,
    /// Only deals this dealer script's condition accepts (its predeal too; the leader's hand
    /// is added to it), dealt as `dealdex dealer` deals them; its actions are not run.
    #[arg(long, value_name = "FILE", requires = "hand")]
    script: Option<PathBuf>,
    /// With --where or --script: give up after drawing this many deals [default: no bound;
    /// with --script the script's `generate`, else 10,000,000].
    #[arg(long, value_name = "N")]
    max_draws: Option<u64>,
    /// 256-bit seed as 64 hex digits; with --script dealer's seed number (-s) (default: a
    /// fresh one, shown in the report).
    #[arg(long, value_name = "SEED")]
    seed: Option<String>,
    /// A sample dealt earlier: a deal file (any format dealdex reads).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["hand", "set"])]
    file: Option<PathBuf>,
    /// A sample dealt earlier: a stored set.
    #[arg(long, value_name = "NAME", conflicts_with = "hand")]
    set: Option<String>,
    /// Store the sample as this new set (boards 1..N in sample order) with every deal's
    /// per-card tricks, for `lead --set NAME` and the query term lead(SEAT, strain, CARD).
    #[arg(long, value_name = "NAME")]
    store: Option<String>,
    /// Also write the per-card table as CSV to this file.
    #[arg(long, value_name = "FILE.csv")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    db: StoreArgs,
}

fn parse_seat(text: &str) -> Result<Seat, String> {
    let mut chars = text.chars();
    match (chars.next().and_then(Seat::from_char), chars.next()) {
        (Some(seat), None) => Ok(seat),
        _ => Err(format!("{text:?} is not a seat (N, E, S, W)")),
    }
}

pub fn run(a: LeadArgs, json: bool) -> anyhow::Result<()> {
    let contract = Contract::from_pbn(&a.contract, a.declarer).ok_or_else(|| {
        anyhow::anyhow!("--contract {:?}: not a contract (3NT, 4S, 5DX)", a.contract)
    })?;
    let sample = match (&a.hand, &a.file, &a.set) {
        (Some(hand), _, _) if a.script.is_some() => {
            let path = a.script.as_deref();
            let (script, _) = dealdex::workflow::dealer::load_script(path, &[], [None; 4])?;
            LeadSample::Script {
                hand: wf::parse_hand(hand)?,
                script: Box::new(script),
                deals: a.deals,
                seed: a
                    .seed
                    .as_deref()
                    .map(str::parse)
                    .transpose()
                    .map_err(|e| anyhow::anyhow!("--seed (dealer's seed number): {e}"))?,
                generate: a.max_draws,
            }
        }
        (Some(hand), _, _) => LeadSample::Dealt {
            hand: wf::parse_hand(hand)?,
            seed: match &a.seed {
                Some(s) => s.parse().map_err(|e| anyhow::anyhow!("--seed: {e}"))?,
                None => dealdex::Seed::from_os()?,
            },
            deals: a.deals,
            filter: a
                .filter
                .as_deref()
                .map(dealdex::query::Query::parse)
                .transpose()?,
            max_draws: a.max_draws,
        },
        _ => LeadSample::Deals(DealSource::from_flags(
            a.file.clone(),
            None,
            a.set.clone(),
            None,
        )?),
    };
    let job = LeadJob {
        contract,
        vulnerability: a.vul,
        sample,
        store: a.store.clone(),
    };
    let bar = super::progress_bar(json, "{spinner} {pos}/{len} deals solved");
    let report = wf::run_in(&job, &a.db.path(), &mut |p| match p {
        wf::LeadProgress::Dealt(n) => bar.set_length(n),
        wf::LeadProgress::Solved(n) => bar.set_position(n),
    })?;
    bar.finish_and_clear();
    if let Some(path) = &a.csv {
        std::fs::write(path, report.to_csv())
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    print(&report, json, false, Text::Answer)
}
