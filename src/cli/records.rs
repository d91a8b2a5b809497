//! `dealdex records`: printable hand records of a stored set or a deal file, through the
//! library's [`dealdex::workflow::records`] workflow.

use std::path::PathBuf;

use clap::Args;
use dealdex::records::{Paper, PerPage, RecordOptions, TenStyle};
use dealdex::workflow::records::{RecordsJob, SheetFormat, run_in};

use super::{DbArgs, Text, counted, render, stdout};

#[derive(Args, Debug)]
#[command(
    after_help = "The sheet: a header with event, date and set; per board a diagram
(N top, W left, E right, S bottom; vulnerable seats marked red), board number, dealer,
vulnerability and HCP, and for solved boards the double-dummy table and par.

Examples:
  dealdex records --set club --out club.pdf
  dealdex records --set club --out club.html --per-page 6 --paper letter
  dealdex records boards.pbn --solve --out boards.pdf"
)]
pub struct RecordsArgs {
    /// A deal file (any format dealdex reads) instead of a stored set; the tables stored in
    /// the database are shown when it exists, and --solve stores new ones there.
    #[arg(
        value_name = "DEAL_FILE",
        conflicts_with = "set",
        required_unless_present = "set"
    )]
    input: Option<PathBuf>,
    /// The stored set to print.
    #[arg(long, value_name = "NAME")]
    set: Option<String>,
    /// The sheet: FILE.html (self-contained, prints from any browser) or FILE.pdf.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Boards per page: 1, 2, 4 or 6.
    #[arg(long, value_name = "N", default_value = "4")]
    per_page: PerPage,
    /// Paper: a4 or letter (portrait).
    #[arg(long, value_name = "PAPER", default_value = "a4")]
    paper: Paper,
    /// A ten as `10` or `T`.
    #[arg(long, value_name = "10|T", default_value = "10")]
    ten: TenStyle,
    /// A plain sheet: no double-dummy table or par even for solved boards.
    #[arg(long)]
    hide_analysis: bool,
    /// Solve the boards that have no table yet (and store the tables), so every board
    /// shows its table and par.
    #[arg(long, conflicts_with = "hide_analysis")]
    solve: bool,
    /// Event name in the header (default: the set's name, else the file's [Event]).
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    /// Date in the header (default: the day the set was stored, else the file's [Date]).
    #[arg(long, value_name = "DATE")]
    date: Option<String>,
    #[command(flatten)]
    read: super::file_args::ReadArgs,
    #[command(flatten)]
    db: DbArgs,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(a: RecordsArgs, json: bool) -> anyhow::Result<()> {
    let format = SheetFormat::for_sheet(&a.out)?;
    // clap requires a deal file or --set.
    let source = a
        .read
        .source(a.input.clone().filter(|_| a.set.is_none()), a.set.clone())?;
    let job = RecordsJob {
        source,
        out: a.out.clone(),
        format,
        options: RecordOptions {
            paper: a.paper,
            per_page: a.per_page,
            ten: a.ten,
            hide_analysis: a.hide_analysis,
        },
        solve: a.solve,
        event: a.event.clone(),
        date: a.date.clone(),
    };
    // Only --solve solves.
    let template = "{bar:40} {human_pos}/{human_len} deals solved {eta}";
    let report = counted(a.quiet || !a.solve, template, |on_progress| {
        run_in(&job, &a.db.path(), on_progress)
    })?;
    render(&mut stdout(), &report, json, a.quiet, Text::Answer)
}
