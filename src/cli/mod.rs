//! Argument parsing, dispatch and error reporting for the `dealdex` binary.

mod card;
mod contracts;
mod dealer;
mod event;
mod files;
mod generate;
mod hints;
mod judge;
mod lead;
mod number;
mod query;
mod records;
mod serve;
mod solve;
mod sql;
mod stats;

use std::fmt::Display;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
// The database option groups are the library's; the commands name them as they did.
use dealdex::ErrorClass;
use dealdex::workflow::database::{
    Database as DbArgs, OptionalDatabase as NoDbArgs, StoreDatabase as StoreArgs,
};
use dealdex::workflow::pipeline::ReadNotes;
use dealdex::workflow::report::{self, Text};
use dealdex::workflow::solve::SolveProgress;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// dealdex: generate, number, index, store and export contract-bridge deals.
#[derive(Parser, Debug)]
#[command(name = "dealdex", version, long_version = long_version(), about, long_about = None)]
pub struct Cli {
    #[command(flatten)]
    globals: Globals,
    #[command(subcommand)]
    command: Command,
}

/// `dealdex dealer …` alone, the same arguments and help as the `dealer` subcommand of [`Cli`]
/// (main.rs parses it when the first argument is `dealer`).
#[derive(Parser, Debug)]
#[command(name = "dealdex-dealer", bin_name = "dealdex dealer", version,
          long_version = long_version(), about = dealer::ABOUT)]
pub struct DealerCli {
    #[command(flatten)]
    globals: Globals,
    #[command(flatten)]
    args: dealer::DealerArgs,
}

/// The flags every command takes.
#[derive(Args, Debug)]
struct Globals {
    /// Print the command's report as one JSON object on stdout instead of text (every
    /// command; deal output that goes to stdout comes first, the report last).
    #[arg(long, global = true)]
    json: bool,
    /// The double-dummy solver of every command that solves: pons (pons-dds, the default)
    /// or dds (DDS itself; a build with `--features dds`). Same tricks, different speed.
    #[arg(
        long,
        global = true,
        value_name = "SOLVER",
        env = "DEALDEX_SOLVER",
        display_order = 900
    )]
    solver: Option<dealdex::dd::Solver>,
}

impl Globals {
    /// Makes `--solver` the process's solver; `--json`.
    fn apply(&self) -> anyhow::Result<bool> {
        self.solver.map(dealdex::dd::Solver::select).transpose()?;
        Ok(self.json)
    }
}

/// `--version`'s text: the version, then this machine's processor and the paths the hot loops
/// take on it (`dealdex::cpu`), which every benchmark row records.
fn long_version() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let cpu = dealdex::cpu::cpu().summary();
        format!("{}\ncpu: {cpu}", env!("CARGO_PKG_VERSION"))
    })
}

/// Runs `dealdex dealer`.
pub fn run_dealer(cli: DealerCli) -> anyhow::Result<()> {
    dealer::run(cli.args, cli.globals.apply()?)
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate a tournament set (--boards) or millions of deals (--count) from a seed.
    Generate(generate::GenerateArgs),
    /// Print the hand-record number of a deal (PBN deal string, hex index or PBN file).
    Number(number::NumberArgs),
    /// Print the deal with a hand-record number, or every deal of a range A..B.
    Deal(number::DealArgs),
    /// Show a deal (by hex index, number or PBN string): diagram, index, number, sets.
    Lookup(number::LookupArgs),
    /// Convert a deal file to another format (PBN, DUP, DLM, BRI, DGE, LIN, CSV, …).
    Convert(files::ConvertArgs),
    /// Import deal files into the database (one transaction per file).
    Import(files::ImportArgs),
    /// Export a stored set to deal files.
    Export(files::ExportArgs),
    /// Find stored deals with the query language, e.g. 'hcp(N) >= 20 and len(S, spades) >= 5'.
    Query(query::QueryArgs),
    /// Run read-only SQL over the database, with dealdex's feature functions.
    Sql(sql::SqlArgs),
    /// Check a set, a file or the whole database for randomness (chi-square tests).
    Stats(stats::StatsArgs),
    /// Which card to lead against a contract: every lead solved double dummy over a sample.
    Lead(lead::LeadArgs),
    /// Show a card in every encoding of the seed documents, or read one (--from).
    Card(card::CardArgs),
    /// Compare contracts (3NT:S 4H:N …) over deals played double dummy: make %, scores, IMPs.
    Contracts(contracts::ContractsArgs),
    /// Every card of the stored played boards judged double dummy (tricks declarer's side can
    /// take before and after it), stored once.
    Judge(judge::JudgeArgs),
    /// Double-dummy tables and par: for deals, deal files, a stored set or the whole database.
    Solve(solve::SolveArgs),
    /// Printable hand records of a set or a deal file: diagrams, HCP, tables and par, as HTML
    /// or PDF.
    Records(records::RecordsArgs),
    /// Championship events in SquareDeal's files: new, publish, set-value, make, verify.
    Event(event::EventArgs),
    #[command(about = dealer::ABOUT)]
    Dealer(dealer::DealerArgs),
    /// The database, simulations and analyses in the browser: a local web page and its JSON API.
    Serve(serve::ServeArgs),
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let json = cli.globals.apply()?;
    match cli.command {
        Command::Generate(a) => generate::run(a, json),
        Command::Number(a) => number::number(a, json),
        Command::Deal(a) => number::deal(a, json),
        Command::Lookup(a) => number::lookup(a, json),
        Command::Solve(a) => solve::run(a, json),
        Command::Judge(a) => judge::run(a, json),
        Command::Contracts(a) => contracts::run(a, json),
        Command::Convert(a) => files::convert(a, json),
        Command::Import(a) => files::import(a, json),
        Command::Export(a) => files::export(a, json),
        Command::Query(a) => query::run(a, json),
        Command::Sql(a) => sql::run(a, json),
        Command::Stats(a) => stats::run(a, json),
        Command::Lead(a) => lead::run(a, json),
        Command::Card(a) => card::run(a, json),
        Command::Event(a) => event::run(a, json),
        Command::Records(a) => records::run(a, json),
        Command::Dealer(a) => dealer::run(a, json),
        Command::Serve(a) => serve::run(a, json),
    }
}

/// Prints the error in one line, a sample's after the flag it is about and the flags that fix
/// others in brackets where the library error has such a fix ([`hints`]), and picks the exit code: 0 for a closed pipe, 130 for an
/// interrupted command (Ctrl-C, [`ErrorClass::Interrupted`]), 2 for bad input (an error in
/// the cause chain whose [`ErrorClass`] is an input class, [`dealdex::classify`]), 1
/// otherwise.
pub fn report(e: anyhow::Error) -> ExitCode {
    if dealdex::closed_stdout(e.as_ref()) {
        return ExitCode::SUCCESS;
    }
    let e = hints::sample_error(e);
    let mut msg = format!("{e:#}").replace('\n', " ");
    if let Some(flags) = hints::flags_for(&e) {
        msg = format!("{msg} [{flags}]");
    }
    let _ = writeln!(io::stderr(), "dealdex: error: {msg}");
    ExitCode::from(match dealdex::classify(&*e) {
        Some(ErrorClass::Interrupted) => 130,
        Some(class) if class.is_input() => 2,
        _ => 1,
    })
}

/// Standard output, buffered (1 MiB).
fn stdout() -> BufWriter<io::Stdout> {
    BufWriter::with_capacity(1 << 20, io::stdout())
}

/// A progress bar drawn with `template` on standard error when it is a terminal and not
/// `quiet`, else a hidden one.
fn progress_bar(quiet: bool, template: &str) -> ProgressBar {
    match !quiet && io::stderr().is_terminal() {
        true => drawn_bar(template),
        false => ProgressBar::hidden(),
    }
}

/// A progress bar drawn with `template` on standard error.
fn drawn_bar(template: &str) -> ProgressBar {
    ProgressBar::new(0).with_style(ProgressStyle::with_template(template).expect("static template"))
}

/// Runs `run` with a progress bar drawn with `template` (unless `quiet`, [`progress_bar`]) of
/// the deals or tables done, cleared at the end.
fn counted<T>(
    quiet: bool,
    template: &str,
    run: impl FnOnce(&mut dyn FnMut(SolveProgress)) -> T,
) -> T {
    let bar = progress_bar(quiet, template);
    let result = run(&mut |p| {
        bar.set_length(p.total);
        bar.set_position(p.done);
    });
    bar.finish_and_clear();
    result
}

/// Prints the notes of a deal file read ([`ReadNotes::lines`]) on stderr.
fn print_notes(name: &dyn Display, notes: &ReadNotes) {
    for n in notes.lines(name) {
        eprintln!("dealdex: {n}");
    }
}

/// [`report::render`] with standard error for summaries.
fn render<R: Serialize + Display + ?Sized>(
    out: &mut dyn Write,
    report: &R,
    json: bool,
    quiet: bool,
    text: Text,
) -> anyhow::Result<()> {
    Ok(report::render(
        out,
        &mut io::stderr(),
        report,
        json,
        quiet,
        text,
    )?)
}

/// [`render`] on standard output, not quiet.
fn print<R: Serialize + Display + ?Sized>(
    report: &R,
    json: bool,
    text: Text,
) -> anyhow::Result<()> {
    render(&mut stdout(), report, json, false, text)
}
