//! The records workflow: a stored set or a deal file to a printable hand-record sheet,
//! HTML or PDF ([`crate::records`]), solving the unsolved boards first when asked.
//!
//! ```
//! use dealdex::records::RecordOptions;
//! use dealdex::workflow::records::{RecordsJob, RecordsStore, SheetFormat, run};
//! use dealdex::workflow::pipeline::DealSource;
//! use dealdex::{DealIndex, NewSet, Seed, Store};
//! let seed: Seed = "42".repeat(32).parse()?;
//! let keys: Vec<(u64, DealIndex)> =
//!     (1..=6).map(|n| (n, DealIndex::from_deal(&seed.board_deal(n)))).collect();
//! let mut store = Store::open_in_memory()?;
//! let set = NewSet { name: "club".into(), first_board: 1, last_board: 6,
//!                    scheme: dealdex::Scheme::Pavlicek, generator: "doc".into(), seed_sha256: None };
//! store.store_set(&set, &keys)?;
//! let dir = std::env::temp_dir().join(format!("dealdex-doc-records-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let out = dir.join("club.html");
//! let job = RecordsJob::new(DealSource::Set("club".into()), out.clone(), SheetFormat::Html);
//! let report = run(&job, Some(RecordsStore::Reading(&store)), &mut |_| {})?;
//! assert_eq!((report.boards, report.pages, report.analysed), (6, 2, 0));
//! assert!(std::fs::read_to_string(&out)?.contains("Board 6"));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::dd::TrickTable;
use crate::records::{RecordBoard, RecordOptions, RecordSheet, SheetHeader, html, pdf};
use crate::store::{ReadOnlyStore, Store, StoreReader};
use crate::workflow::output::write_whole;
use crate::workflow::pipeline::{DealSource, SourceOptions};
use crate::workflow::solve::{
    DEFAULT_SOLVE_BATCH, SolveItem, SolveJob, SolveProgress, SolveSource,
};
use crate::{Error, ErrorKind, Result};

/// The sheet's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SheetFormat {
    /// One self-contained HTML file (inline CSS, no scripts, no fetches), for a browser's print.
    Html,
    /// PDF, with the suit symbols' font embedded.
    Pdf,
}

impl SheetFormat {
    /// The format a file name's extension selects: `.html`/`.htm` or `.pdf` (any case).
    pub fn from_path(path: &Path) -> Option<SheetFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "html" | "htm" => Some(SheetFormat::Html),
            "pdf" => Some(SheetFormat::Pdf),
            _ => None,
        }
    }

    /// The format of the sheet file `path` ([`SheetFormat::from_path`]).
    ///
    /// # Errors
    /// [`ErrorKind::SheetExtension`] when the extension is neither `.html`/`.htm` nor
    /// `.pdf`.
    pub fn for_sheet(path: &Path) -> Result<SheetFormat> {
        SheetFormat::from_path(path).ok_or_else(|| {
            ErrorKind::SheetExtension {
                path: path.to_owned(),
            }
            .into()
        })
    }
}

/// `dealdex records`' options as typed: the boards, the sheet file and its layout. With the
/// `clap` feature they derive `clap::Args`, their doc comments the help;
/// [`RecordsOptions::job`] makes the [`RecordsJob`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct RecordsOptions {
    /// A deal file (any format dealdex reads) instead of a stored set; the tables stored in
    /// the database are shown when it exists, and --solve stores new ones there.
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "DEAL_FILE",
            conflicts_with = "set",
            required_unless_present = "set"
        )
    )]
    pub input: Option<PathBuf>,
    /// How a deal file is read (`--from`, `--first-board`).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub read: crate::workflow::pipeline::ReadOptions,
    /// The stored set to print.
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub set: Option<String>,
    /// The sheet: FILE.html (self-contained, prints from any browser) or FILE.pdf.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub out: PathBuf,
    /// Boards per page: 1, 2, 4 or 6.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", default_value = "4"))]
    pub per_page: crate::records::PerPage,
    /// Paper: a4 or letter (portrait).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "PAPER", default_value = "a4")
    )]
    pub paper: crate::records::Paper,
    /// A ten as `10` or `T`.
    #[cfg_attr(feature = "clap", arg(long, value_name = "10|T", default_value = "10"))]
    pub ten: crate::records::TenStyle,
    /// A plain sheet: no double-dummy table or par even for solved boards.
    #[cfg_attr(feature = "clap", arg(long))]
    pub hide_analysis: bool,
    /// Solve the boards that have no table yet (and store the tables), so every board
    /// shows its table and par.
    #[cfg_attr(feature = "clap", arg(long, conflicts_with = "hide_analysis"))]
    pub solve: bool,
    /// Event name in the header (default: the set's name, else the file's `[Event]`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub event: Option<String>,
    /// Date in the header (default: the day the set was stored, else the file's `[Date]`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "DATE"))]
    pub date: Option<String>,
}

impl RecordsOptions {
    /// The job these options describe: the sheet's format by its extension, then the boards
    /// (the stored set, else the deal file).
    ///
    /// # Errors
    /// [`SheetFormat::for_sheet`]'s; an unknown `--from` format.
    pub fn job(&self) -> Result<RecordsJob> {
        let format = SheetFormat::for_sheet(&self.out)?;
        let file = self.input.clone().filter(|_| self.set.is_none());
        Ok(RecordsJob {
            source: self.read.source(file, self.set.clone())?,
            out: self.out.clone(),
            format,
            options: RecordOptions {
                paper: self.paper,
                per_page: self.per_page,
                ten: self.ten,
                hide_analysis: self.hide_analysis,
            },
            solve: self.solve,
            event: self.event.clone(),
            date: self.date.clone(),
        })
    }
}

/// A records job: boards in, one sheet file out.
#[derive(Clone)]
pub struct RecordsJob {
    /// The boards: a stored set (with the tables stored for its deals) or a deal file
    /// (with their dealer and vulnerability from the file, else from the board number, and
    /// the tables the file carries, PBN `[OptimumResultTable]`/`[DoubleDummyTricks]`, or
    /// with a store the stored ones).
    pub source: DealSource,
    /// The file written (replaced whole: a failed write leaves an old file as it was).
    pub out: PathBuf,
    /// HTML or PDF.
    pub format: SheetFormat,
    /// Paper, boards per page, ten style, analysis hidden or not.
    pub options: RecordOptions,
    /// Solve the boards that have no table first (and store the tables when there is a
    /// store), so every board shows its table and par.
    pub solve: bool,
    /// The header's event name (default: the set's name, else the file's first `[Event]`,
    /// else the file's name).
    pub event: Option<String>,
    /// The header's date (default: the day the set was stored, else the file's first
    /// `[Date]`).
    pub date: Option<String>,
}

impl RecordsJob {
    /// A job with the default layout (A4, 4 boards a page, `10`, analysis shown), nothing
    /// solved, header from the source.
    pub fn new(source: DealSource, out: PathBuf, format: SheetFormat) -> RecordsJob {
        RecordsJob {
            source,
            out,
            format,
            options: RecordOptions::default(),
            solve: false,
            event: None,
            date: None,
        }
    }
}

/// What a records job did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecordsReport {
    /// The file written.
    pub path: PathBuf,
    /// HTML or PDF.
    pub format: SheetFormat,
    /// The layout used.
    pub options: RecordOptions,
    /// The header printed.
    pub header: SheetHeader,
    /// Boards on the sheet.
    pub boards: u64,
    /// Pages: boards ÷ boards per page, rounded up.
    pub pages: u64,
    /// Boards printed with their table and par.
    pub analysed: u64,
    /// Boards solved by this run (`solve`).
    pub solved_now: u64,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Wall-clock seconds, solving included.
    pub seconds: f64,
}

/// `wrote FILE: N boards on P A4 pages (4 a page), K with table and par (S solved now)`:
/// the line `dealdex records` prints.
impl std::fmt::Display for RecordsReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "wrote {}: {} boards on {} {} pages ({} a page), {} with table and par",
            self.path.display(),
            self.boards,
            self.pages,
            match self.options.paper {
                crate::records::Paper::A4 => "A4",
                crate::records::Paper::Letter => "Letter",
            },
            self.options.per_page.get(),
            self.analysed,
        )?;
        match self.solved_now {
            0 => Ok(()),
            n => write!(f, " ({n} solved now)"),
        }
    }
}

/// Runs `job`: gathers the boards and their tables, solves the unsolved ones when
/// `job.solve` (storing the tables when `store` is given; progress through `progress`),
/// renders the sheet, and writes it whole.
///
/// # Errors
/// No database for a set, no such set, a corrupt stored key, an unreadable deal file (with
/// its position), the store failing, the PDF failing ([`ErrorKind::Pdf`]), or the file not
/// being written. Nothing is written unless the sheet rendered.
pub fn run(
    job: &RecordsJob,
    store: Option<RecordsStore<'_>>,
    progress: &mut dyn FnMut(SolveProgress),
) -> Result<RecordsReport> {
    let started = Instant::now();
    let reader = store.as_ref().map(|s| match s {
        RecordsStore::Reading(r) => *r,
        RecordsStore::Writing(w) => &***w,
    });
    let (mut header, mut boards) = gather(job, reader)?;
    let store = match store {
        Some(RecordsStore::Writing(w)) => Some(w),
        _ => None,
    };
    if let Some(event) = &job.event {
        header.event = event.clone();
    }
    if job.date.is_some() {
        header.date = job.date.clone();
    }
    let mut solved_now = 0;
    if job.solve {
        let missing: Vec<usize> = (0..boards.len())
            .filter(|&i| boards[i].dd.is_none())
            .collect();
        let items = missing
            .iter()
            .map(|&i| SolveItem::single(boards[i].deal, None, None, None))
            .collect();
        let solve_job = SolveJob {
            source: SolveSource::Items(items),
            batch: DEFAULT_SOLVE_BATCH,
        };
        let mut tables: Vec<TrickTable> = Vec::with_capacity(missing.len());
        let mut keep = |_: &SolveItem, t: &TrickTable| -> Result<()> {
            tables.push(*t);
            Ok(())
        };
        let report = crate::workflow::solve::run(&solve_job, store, progress, &mut keep)?;
        solved_now = report.solved;
        for (i, t) in missing.into_iter().zip(tables) {
            boards[i].dd = Some(t);
        }
    }
    let sheet = RecordSheet {
        header,
        boards,
        options: job.options,
    };
    let bytes = match job.format {
        SheetFormat::Html => html::render(&sheet).into_bytes(),
        SheetFormat::Pdf => pdf::render(&sheet).map_err(ErrorKind::Pdf)?,
    };
    write_whole(&job.out, &bytes).map_err(|error| Error::write(Some(&job.out), error))?;
    let analysed = sheet
        .boards
        .iter()
        .filter(|b| sheet.shows_analysis(b))
        .count() as u64;
    Ok(RecordsReport {
        path: job.out.clone(),
        format: job.format,
        options: job.options,
        boards: sheet.boards.len() as u64,
        pages: sheet.page_count() as u64,
        analysed,
        solved_now,
        bytes: bytes.len() as u64,
        seconds: started.elapsed().as_secs_f64(),
        header: sheet.header,
    })
}

/// Runs `job` ([`run`]) with the database file `db`, opened as its source needs: for a deal
/// file, the database when the file exists (its stored tables are shown, and the tables
/// `job.solve` finds are stored there), else none; for a stored set, read only
/// ([`ReadOnlyStore`]), or when the job solves, an existing dealdex database that keeps the
/// tables it finds ([`Store::open_existing`]: never created or migrated here).
///
/// # Errors
/// [`ErrorKind::Store`] when the database does not open (no file for a set, a file that
/// is no dealdex database); then as [`run`].
pub fn run_in(
    job: &RecordsJob,
    db: &Path,
    progress: &mut dyn FnMut(SolveProgress),
) -> Result<RecordsReport> {
    let (mut writer, mut reader) = (None, None);
    match &job.source {
        DealSource::File(_) if db.exists() => writer = Some(Store::open(db)?),
        DealSource::File(_) => {}
        _ if job.solve => writer = Some(Store::open_existing(db)?),
        _ => reader = Some(ReadOnlyStore::open(db)?),
    }
    let store = match (writer.as_mut(), reader.as_deref()) {
        (Some(w), _) => Some(RecordsStore::Writing(w)),
        (None, Some(r)) => Some(RecordsStore::Reading(r)),
        (None, None) => None,
    };
    run(job, store, progress)
}

/// The database a records job reads a set (and stored tables) from: read only, or, for a
/// job that solves, a store that keeps the tables it solves.
pub enum RecordsStore<'a> {
    /// Reading only: tables solved by the job are not stored.
    Reading(&'a StoreReader),
    /// Reading, and storing the tables the job solves.
    Writing(&'a mut Store),
}

/// The header and boards of the job's source, with the tables known without solving (the
/// file's, else the stored ones).
fn gather(
    job: &RecordsJob,
    store: Option<&StoreReader>,
) -> Result<(SheetHeader, Vec<RecordBoard>)> {
    let source = job.source.open(store, &SourceOptions::WITH_TABLES)?;
    let facts = source.facts().clone();
    let (read, _) = source.read_all()?;
    let tag = |name: &str| {
        read.iter()
            .filter_map(|b| b.game.as_ref())
            .flat_map(|g| g.tags.iter())
            .find(|(k, v)| k == name && !v.is_empty() && v != "?" && !v.starts_with('#'))
            // PBN escapes `"` and `\` in a tag value (PBN 2.1 §2.4): show them plain.
            .map(|(_, v)| crate::formats::pbn::unescape(v))
    };
    let header = match &facts.set {
        Some(info) => SheetHeader {
            event: info.name.clone(),
            date: info.created_at.get(..10).map(str::to_owned),
            set: Some(info.name.clone()),
        },
        None => SheetHeader {
            event: tag("Event").unwrap_or_else(|| {
                Path::new(&facts.name)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            }),
            date: tag("Date").map(|d| d.replace('.', "-")),
            set: None,
        },
    };
    let boards = read
        .iter()
        .enumerate()
        .map(|(i, b)| RecordBoard {
            number: b.number.unwrap_or(i as u64 + 1),
            dealer: b.dealer_or_default(),
            vulnerability: b.vulnerability_or_default(),
            deal: b.deal,
            dd: b.dd,
        })
        .collect();
    Ok((header, boards))
}
