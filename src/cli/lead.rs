//! `dealdex lead`: which card to lead against a contract, double dummy over a sample of
//! deals dealt around the leader's hand (or read from a file or the database).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use dealdex::ErrorKind;
use dealdex::workflow::lead::{self as wf, LeadJob, LeadSample};
use dealdex::workflow::output::{FileRole, ReportOutput, check_distinct};
use dealdex::workflow::samples::{LeadAround, lead_sample};
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
    #[arg(long, value_name = "SEAT", value_parser = str::parse::<Seat>)]
    declarer: Seat,
    /// The vulnerability scores are counted at: None, NS, EW, All.
    #[arg(long, value_name = "VUL", default_value = "None")]
    vul: Vulnerability,
    /// How many deals to deal around the hand.
    #[arg(long, value_name = "N", default_value_t = 1000, conflicts_with_all = ["set", "file"])]
    deals: u64,
    /// Only deals this query-language expression accepts (the other hands' constraints).
    #[arg(long = "where", value_name = "EXPR", conflicts_with_all = ["script", "set", "file"])]
    filter: Option<String>,
    /// Only deals this dealer script's condition accepts (its predeal too; the leader's hand
    /// is added to it), dealt as `dealdex dealer` deals them; its actions are not run.
    #[arg(long, value_name = "FILE", requires = "hand", conflicts_with_all = ["set", "file"])]
    script: Option<PathBuf>,
    /// With --where or --script: give up after drawing this many deals [default: with --where
    /// 1,000,000,000 (0: no bound), as generate's; with --script the script's `generate`,
    /// else dealer's 10,000,000].
    #[arg(long, value_name = "N", conflicts_with_all = ["set", "file"])]
    max_draws: Option<u64>,
    /// 256-bit seed as 64 hex digits; with --script dealer's seed number (-s) (default: a
    /// fresh one, shown in the report).
    #[arg(long, value_name = "SEED", conflicts_with_all = ["set", "file"])]
    seed: Option<String>,
    /// A sample dealt earlier: a deal file (any format dealdex reads).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["hand", "set"])]
    file: Option<PathBuf>,
    #[command(flatten)]
    read: super::file_args::ReadArgs,
    /// A sample dealt earlier: a stored set.
    #[arg(long, value_name = "NAME", conflicts_with = "hand")]
    set: Option<String>,
    /// Store the sample as this new set (boards 1..N in sample order) with every deal's
    /// per-card tricks, for `lead --set NAME` and the query term lead(SEAT, strain, CARD).
    #[arg(long, value_name = "NAME")]
    store: Option<String>,
    /// Also write the per-card table as CSV to this file, whole or not at all (`-`: on
    /// standard output, in place of the text table); refused when it names the database, the
    /// deal file or the script.
    #[arg(long, value_name = "FILE.csv")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    db: StoreArgs,
}

pub fn run(a: LeadArgs, json: bool) -> anyhow::Result<()> {
    let contract = Contract::from_pbn(&a.contract, a.declarer)
        .ok_or_else(|| dealdex::Error::from(ErrorKind::Contract(a.contract.clone())))?;
    let sample = sample(&a)?;
    let job = LeadJob {
        contract,
        vulnerability: a.vul,
        sample,
        store: a.store.clone(),
        stop: None,
    };
    let mut stdout = super::stdout();
    let csv = csv_output(&a, json, &mut stdout)?;
    let text = csv
        .as_ref()
        .is_none_or(|c| matches!(c, ReportOutput::File(_)));
    let bar = super::progress_bar(json, "{spinner} {pos}/{len} deals solved");
    let report = wf::run_in(&job, &a.db.path(), &mut |p| match p {
        wf::LeadProgress::Dealt(n) => bar.set_length(n),
        wf::LeadProgress::Solved(n) => bar.set_position(n),
    })?;
    bar.finish_and_clear();
    if let (Some(seed), None, false) = (&report.seed, &a.seed, json) {
        // A fresh seed: said, so that the sample can be dealt again.
        eprintln!("dealdex: seed {seed} (give --seed {seed} to deal the same sample)");
    }
    // `--csv -`: the table as CSV on standard output, in place of the text.
    if text {
        print(&report, json, Text::Answer)?;
    }
    if let Some(mut csv) = csv {
        csv.write_all(report.to_csv().as_bytes())?;
        csv.finish()?;
    }
    Ok(())
}

/// The sample the flags name: dealt around `--hand` (by the seed, or by `--script`), or the
/// deals of `--file` or `--set`.
fn sample(a: &LeadArgs) -> anyhow::Result<LeadSample> {
    let Some(hand) = &a.hand else {
        return Ok(LeadSample::Deals(
            a.read.source(a.file.clone(), a.set.clone())?,
        ));
    };
    let script = match a.script.as_deref() {
        Some(path) => Some(dealdex::workflow::dealer::load_script(Some(path), &[], [None; 4])?.0),
        None => None,
    };
    let spec = LeadAround {
        hand,
        deals: a.deals,
        seed: a.seed.as_deref(),
        filter: a.filter.as_deref(),
        script,
        max_draws: a.max_draws,
    };
    lead_sample(spec).map_err(|e| super::sample_error(e.into()))
}

/// `--csv`'s file begun now, before any deal is dealt (a path that cannot be written fails
/// first, with nothing stored; written whole or not at all), or standard output (`-`), after
/// checking that it is none of the files the command reads.
fn csv_output<'o>(
    a: &LeadArgs,
    json: bool,
    stdout: &'o mut dyn Write,
) -> anyhow::Result<Option<ReportOutput<'o>>> {
    let Some(csv) = a.csv.as_deref() else {
        return Ok(None);
    };
    if json && csv.as_os_str() == "-" {
        Err(dealdex::Error::from(ErrorKind::SameFile {
            first: FileRole::CsvTable,
            second: FileRole::JsonReport,
            path: csv.to_owned(),
        }))?;
    }
    let db = a.db.path();
    let mut files = vec![(FileRole::CsvTable, csv), (FileRole::Database, &db)];
    files.extend(a.file.as_deref().map(|f| (FileRole::DealFile, f)));
    files.extend(a.script.as_deref().map(|s| (FileRole::Script, s)));
    check_distinct(&files)?;
    Ok(Some(ReportOutput::create(Some(csv), stdout)?))
}
