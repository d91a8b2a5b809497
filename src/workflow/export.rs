//! Deal files out: rendering a set for each output (cut for a dealing machine's board limit
//! with `split`), writing files so that a failed write loses nothing, and the `export`
//! workflow (a stored set, with the double-dummy tables of its solved deals, to files).
//!
//! A job goes in ([`ExportJob`]), a report comes out ([`ExportReport`], serde); output for
//! standard output goes to the writer the caller passes, so the library never prints.
//!
//! ```
//! use dealdex::export::{ExportJob, Output, export};
//! use dealdex::{DealIndex, NewSet, Seed, Store, formats};
//! let seed: Seed = "42".repeat(32).parse()?;
//! let keys: Vec<(u64, DealIndex)> =
//!     (1..=4).map(|n| (n, DealIndex::from_deal(&seed.board_deal(n)))).collect();
//! let mut store = Store::open_in_memory()?;
//! let set = NewSet { name: "club".into(), first_board: 1, last_board: 4,
//!                    scheme: dealdex::Scheme::Pavlicek, generator: "doc".into(), seed_sha256: None };
//! store.store_set(&set, &keys)?;
//! let job = ExportJob::new("club", vec![Output { path: None, format: formats::by_name("pbn").unwrap() }]);
//! let mut stdout = Vec::new();
//! let report = export(&job, &store, &mut stdout)?;
//! assert_eq!((report.boards, report.files.len()), (4, 1));
//! assert!(String::from_utf8(stdout)?.contains("[Event \"club\"]"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::formats::{self, Board, DealFormat, FormatError, WriteOptions};
use crate::model::index::{DealIndex, IndexError};
use crate::store::{SetInfo, Store, StoreError};

/// Boards per file when `split` cuts a set for a machine's board limit: a multiple of 16,
/// so that renumbered boards keep their dealer and vulnerability.
pub const SPLIT_BOARDS: u64 = 96;

/// One output: a file (or standard output) and its format.
#[derive(Clone, Copy)]
pub struct Output<P = PathBuf> {
    /// The file; `None` for standard output.
    pub path: Option<P>,
    /// The format written.
    pub format: &'static dyn DealFormat,
}

impl<P: AsRef<Path>> Output<P> {
    /// The name used in messages: the path, or `stdout`.
    pub fn label(&self) -> String {
        self.path
            .as_ref()
            .map_or("stdout".to_string(), |p| p.as_ref().display().to_string())
    }
}

/// Why outputs could not be planned ([`plan_outputs`], [`check_output_paths`]). Nothing is
/// written or stored when planning fails.
#[derive(Debug, thiserror::Error)]
pub enum OutputPlanError {
    /// An unknown format name, or a file whose extension names none.
    #[error(transparent)]
    Format(#[from] formats::ChooseFormatError),
    /// A format name given with several output files.
    #[error(
        "--format applies to a single --out; with several, each file's extension names its format"
    )]
    FormatWithSeveral,
    /// An output path that is a directory.
    #[error("{}: is a directory, not a file; nothing was written or stored", path.display())]
    IsADirectory {
        /// The path.
        path: PathBuf,
    },
    /// An output path in a directory that does not exist.
    #[error("{}: {} is not a directory; nothing was written or stored", path.display(), parent.display())]
    NoDirectory {
        /// The path.
        path: PathBuf,
        /// Its parent, which is not a directory.
        parent: PathBuf,
    },
}

impl OutputPlanError {
    /// This error's [`ErrorClass`](crate::ErrorClass): always
    /// [`BadInput`](crate::ErrorClass::BadInput).
    pub fn class(&self) -> crate::ErrorClass {
        crate::ErrorClass::BadInput
    }
}

/// Turns output paths and a format name into outputs. No path means standard output in
/// `format` or `default`; `-` is standard output, and it and `/dev/null` take `format` or
/// `default`; one other file takes `format` or its extension's; several files take their
/// extensions' formats (and no `format`).
///
/// ```
/// use std::path::PathBuf;
/// use dealdex::export::plan_outputs;
/// let outs = plan_outputs(&[PathBuf::from("a.dup"), PathBuf::from("-")], None, "pbn")?;
/// assert_eq!(outs[0].format.info().name, "dup");
/// assert!(outs[1].path.is_none());
/// assert_eq!(plan_outputs(&[], Some("hex"), "pbn")?[0].format.info().name, "hex");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`OutputPlanError::Format`] or [`OutputPlanError::FormatWithSeveral`].
pub fn plan_outputs(
    paths: &[PathBuf],
    format: Option<&str>,
    default: &str,
) -> Result<Vec<Output>, OutputPlanError> {
    if paths.is_empty() {
        return Ok(vec![Output {
            path: None,
            format: formats::named(format.unwrap_or(default))?,
        }]);
    }
    if format.is_some() && paths.len() > 1 {
        return Err(OutputPlanError::FormatWithSeveral);
    }
    paths
        .iter()
        .map(|p| {
            let stdout = p.as_os_str() == "-";
            let fmt = if stdout || p == Path::new("/dev/null") {
                formats::named(format.unwrap_or(default))?
            } else {
                formats::choose(p, format)?
            };
            Ok(Output {
                path: (!stdout).then(|| p.clone()),
                format: fmt,
            })
        })
        .collect()
}

/// Checks output paths (`-` is standard output) before anything is made or stored.
///
/// # Errors
/// [`OutputPlanError::IsADirectory`] for a directory where a file goes,
/// [`OutputPlanError::NoDirectory`] for a file in a directory that does not exist.
pub fn check_output_paths(paths: &[PathBuf]) -> Result<(), OutputPlanError> {
    for p in paths.iter().filter(|p| p.as_os_str() != "-") {
        if p.is_dir() {
            return Err(OutputPlanError::IsADirectory { path: p.clone() });
        }
        if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty())
            && !parent.is_dir()
        {
            return Err(OutputPlanError::NoDirectory {
                path: p.clone(),
                parent: parent.to_owned(),
            });
        }
    }
    Ok(())
}

/// One rendered file, in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedFile {
    /// Where it goes; `None` for standard output.
    pub path: Option<PathBuf>,
    /// The format's registry name.
    pub format: &'static str,
    /// Boards in it.
    pub boards: u64,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// A set that a format cannot hold (e.g. board 100 in DUP): the output and why.
#[derive(Debug, thiserror::Error)]
#[error("{output}: {error}{}", if *.over_limit { "; give --split to cut the set into files of 96 boards" } else { "" })]
pub struct RenderError {
    /// The output's label (path or `stdout`).
    pub output: String,
    /// The format's error, naming the board.
    pub error: FormatError,
    /// True when the set exceeds the format's board limit (splitting would help).
    pub over_limit: bool,
}

/// Renders `boards` for every output, in memory, before anything is written (so a limit error
/// leaves no file behind). With `split`, a file output whose format has a board limit the
/// set exceeds gets files `<stem>-<k>.<ext>` of [`SPLIT_BOARDS`] boards renumbered from 1.
///
/// # Errors
/// [`RenderError`] when a format cannot hold the set (board number, count or options).
pub fn render_set<P: AsRef<Path>>(
    outputs: &[Output<P>],
    boards: &[Board],
    opts: &WriteOptions,
    split: bool,
) -> Result<Vec<RenderedFile>, RenderError> {
    let mut files = Vec::new();
    let last = boards.iter().filter_map(|b| b.number).max().unwrap_or(0);
    for o in outputs {
        let info = o.format.info();
        let over = info.max_board.is_some_and(|m| last > m);
        let fail = |error| RenderError {
            output: o.label(),
            error,
            over_limit: over,
        };
        if let Some(path) = o.path.as_ref().filter(|_| split && over) {
            for (k, part) in boards.chunks(SPLIT_BOARDS as usize).enumerate() {
                let renumbered: Vec<Board> = part
                    .iter()
                    .enumerate()
                    .map(|(j, b)| Board {
                        number: Some(j as u64 + 1),
                        ..b.clone()
                    })
                    .collect();
                let bytes = formats::write_set(o.format, &renumbered, opts).map_err(fail)?;
                files.push(RenderedFile {
                    path: Some(split_path(path.as_ref(), k + 1)),
                    format: info.name,
                    boards: part.len() as u64,
                    bytes,
                });
            }
            continue;
        }
        let bytes = formats::write_set(o.format, boards, opts).map_err(fail)?;
        files.push(RenderedFile {
            path: o.path.as_ref().map(|p| p.as_ref().to_owned()),
            format: info.name,
            boards: boards.len() as u64,
            bytes,
        });
    }
    Ok(files)
}

/// `dir/stem-k.ext` for part `k` (1-based) of a split set.
pub fn split_path(path: &Path, k: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{k}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    path.with_file_name(name)
}

/// Writes `bytes` to the regular file `path` so that a failed write loses nothing: a new
/// file is created and removed again on failure; an existing one is replaced through
/// `.<name>.dealdex-<pid>.tmp` beside it and a rename (keeping its permissions), so it stays
/// as it was until the new content is complete.
///
/// # Errors
/// The I/O error of creating, writing or renaming (the path is the caller's to name).
pub fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let Ok(old) = std::fs::metadata(path) else {
        // A new file: nothing to protect, and creating one inode (not two) per file keeps
        // `export --split` of 10,417 DUP files at the speed of plain writes.
        let written = std::fs::File::create_new(path).and_then(|mut f| f.write_all(bytes));
        if let Err(e) = written {
            if e.kind() != std::io::ErrorKind::AlreadyExists {
                let _ = std::fs::remove_file(path);
            }
            return Err(e);
        }
        return Ok(());
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.dealdex-{}.tmp", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        // No fsync: the rename is what keeps a failed write from clobbering the old file.
        f.write_all(bytes)?;
        std::fs::set_permissions(&tmp, old.permissions())?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(())
}

/// Writes rendered files: a regular (or new) file whole with [`write_whole`], a special
/// file (e.g. `/dev/null`) directly, and standard-output files to `stdout`.
///
/// # Errors
/// [`WriteError`] naming the file that could not be written; files before it are written.
pub fn write_rendered(files: &[RenderedFile], stdout: &mut dyn Write) -> Result<(), WriteError> {
    for f in files {
        let Some(p) = f.path.as_deref().filter(|p| p.as_os_str() != "-") else {
            stdout
                .write_all(&f.bytes)
                .map_err(|error| WriteError { path: None, error })?;
            continue;
        };
        let fail = |error| WriteError {
            path: Some(p.to_owned()),
            error,
        };
        if std::fs::metadata(p).map_or(true, |m| m.is_file()) {
            write_whole(p, &f.bytes).map_err(fail)?;
        } else {
            std::fs::OpenOptions::new()
                .write(true)
                .open(p)
                .and_then(|mut w| w.write_all(&f.bytes))
                .map_err(fail)?;
        }
    }
    stdout
        .flush()
        .map_err(|error| WriteError { path: None, error })
}

/// A file that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("{}: {error}", path.as_ref().map_or("stdout".to_owned(), |p| p.display().to_string()))]
pub struct WriteError {
    /// The file; `None` for standard output.
    pub path: Option<PathBuf>,
    /// The I/O error (`BrokenPipe` when a reader of standard output went away).
    pub error: std::io::Error,
}

/// An export job: a stored set to files.
#[derive(Clone)]
pub struct ExportJob {
    /// The set's name.
    pub set: String,
    /// The outputs, each a file or standard output with its format.
    pub outputs: Vec<Output>,
    /// The event name for the formats that carry one (default: the set's name).
    pub event: Option<String>,
    /// Hide the cards from dealing machines' displays where the format can.
    pub blind: bool,
    /// Cut the set for formats with a board limit (see [`render_set`]).
    pub split: bool,
}

impl ExportJob {
    /// A job writing set `set` to `outputs`, with the set's name as event, cards shown,
    /// not split.
    pub fn new(set: &str, outputs: Vec<Output>) -> ExportJob {
        ExportJob {
            set: set.to_owned(),
            outputs,
            event: None,
            blind: false,
            split: false,
        }
    }
}

/// One file an export wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExportedFile {
    /// The file; `None` for standard output.
    pub path: Option<PathBuf>,
    /// The format's registry name.
    pub format: &'static str,
    /// Boards in it.
    pub boards: u64,
    /// Its size in bytes.
    pub bytes: u64,
}

/// The report's entry for a rendered file: its path, format, boards and size.
impl From<&RenderedFile> for ExportedFile {
    fn from(f: &RenderedFile) -> ExportedFile {
        ExportedFile {
            path: f.path.clone(),
            format: f.format,
            boards: f.boards,
            bytes: f.bytes.len() as u64,
        }
    }
}

/// What an export job did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExportReport {
    /// The set.
    pub set: String,
    /// Boards of the set.
    pub boards: u64,
    /// Boards whose deal is solved (their double-dummy tables go out with them where the
    /// format carries them: PBN).
    pub solved: u64,
    /// The files written, in order.
    pub files: Vec<ExportedFile>,
}

/// Why an export failed. Nothing is written unless every output rendered.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// No set of that name.
    #[error("no set named {set:?} in {database}")]
    NoSet {
        /// The name asked for.
        set: String,
        /// The database, as the store names it ([`Store::path`]).
        database: String,
    },
    /// A stored key that is not a deal (the file was changed outside dealdex).
    #[error("set {set:?} board {board}: stored key {key}: {error}")]
    CorruptKey {
        /// The set.
        set: String,
        /// The board.
        board: u64,
        /// The stored key.
        key: DealIndex,
        /// Why it is no deal.
        error: IndexError,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A format cannot hold the set.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A file could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// A stored set's row and its boards in board order, each solved deal with its double-dummy
/// table (what [`export`] writes and the records workflow prints).
///
/// # Errors
/// [`ExportError::NoSet`], [`ExportError::CorruptKey`] for a stored key that is no deal, or
/// [`ExportError::Store`] when reading fails.
pub fn stored_set(store: &Store, set: &str) -> Result<(SetInfo, Vec<Board>), ExportError> {
    let info = store.set(set)?.ok_or_else(|| ExportError::NoSet {
        set: set.to_owned(),
        database: store.path().to_owned(),
    })?;
    let rows = store.set_boards(set)?;
    let keys: Vec<DealIndex> = rows.iter().map(|(_, k)| *k).collect();
    rows.iter()
        .zip(store.dd_tables(&keys)?)
        .map(|(&(n, key), dd)| {
            let deal = key.to_deal().map_err(|error| ExportError::CorruptKey {
                set: set.to_owned(),
                board: n,
                key,
                error,
            })?;
            Ok(Board {
                dd,
                ..Board::new(n, deal)
            })
        })
        .collect::<Result<Vec<Board>, ExportError>>()
        .map(|boards| (info, boards))
}

/// Exports a stored set: its boards in board order, each solved deal with its double-dummy
/// table, rendered for every output before any is written, standard-output files to
/// `stdout`.
///
/// # Errors
/// [`ExportError`]: no such set, a corrupt stored key, the store failing, a format that cannot
/// hold the set (nothing written), or a file that cannot be written.
pub fn export(
    job: &ExportJob,
    store: &Store,
    stdout: &mut dyn Write,
) -> Result<ExportReport, ExportError> {
    let (info, boards) = stored_set(store, &job.set)?;
    let solved = boards.iter().filter(|b| b.dd.is_some()).count() as u64;
    let opts = WriteOptions {
        event: job.event.clone().unwrap_or_else(|| info.name.clone()),
        blind: job.blind,
        first_board: info.first_board,
        last_board: info.last_board,
        scheme: info.scheme,
    };
    let files = render_set(&job.outputs, &boards, &opts, job.split)?;
    write_rendered(&files, stdout)?;
    Ok(ExportReport {
        set: info.name,
        boards: boards.len() as u64,
        solved,
        files: files.iter().map(ExportedFile::from).collect(),
    })
}
