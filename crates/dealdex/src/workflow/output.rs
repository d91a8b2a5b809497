//! Deal files out: which files a command writes and in which formats (planning, checked
//! before anything happens), rendering a set for each output (cut for a dealing machine's
//! board limit with `split`), and writing files so that a failed write loses nothing (a
//! temporary file renamed onto the target, [`Staged`]). `export`, `convert`, `generate`,
//! `deal`, `query`, `records` and `event make` write through here.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::formats::{self, Board, DealFormat, WriteOptions};
use crate::{Error, ErrorKind};

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

/// The help of an output's `--to` (alias `--format`) with its default (`None`: from the
/// output's extension): the registry's formats.
#[cfg(feature = "clap")]
pub fn to_help(default: Option<&str>) -> String {
    let default = default.map_or(": from the output's extension".into(), |d| format!(" {d}"));
    format!(
        "Output format (default{default}): {}",
        crate::formats::names()
    )
}

/// How a job writes its sets of deals, the same for every job that writes them (`generate`,
/// `convert`, `export`, `deal`): the event name, the cards hidden, the set cut for a machine's
/// board limit. With the `clap` feature, the options `--blind`, `--split` and `--event`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct Writing {
    /// Hide the cards from dealing machines' displays (DUP without the DGE part on board 1,
    /// DLM Status=Sealed).
    #[cfg_attr(feature = "clap", arg(long))]
    pub blind: bool,
    /// Cut sets that exceed a format's board limit (DUP, DLM: 99) into files
    /// `<name>-1.dup`, `<name>-2.dup`, … of 96 boards renumbered from 1 ([`render_set`]).
    #[cfg_attr(feature = "clap", arg(long))]
    pub split: bool,
    /// Event name for the formats that carry one (PBN `[Event]`, DLM Headline; default: the
    /// set's name where there is one).
    #[cfg_attr(feature = "clap", arg(long))]
    pub event: Option<String>,
}

impl Writing {
    /// A sink of `outputs` written this way: `options` with this event (else `default_event`)
    /// and blindness, split as asked, the set's bounds those of `options` when `bounds_given`.
    pub fn files(
        &self,
        outputs: Vec<Output>,
        default_event: &str,
        options: WriteOptions,
        bounds_given: bool,
    ) -> crate::workflow::pipeline::DealFiles {
        let event = self
            .event
            .clone()
            .unwrap_or_else(|| default_event.to_owned());
        crate::workflow::pipeline::DealFiles {
            bounds_given,
            split: self.split,
            ..crate::workflow::pipeline::DealFiles::new(
                outputs,
                WriteOptions {
                    event,
                    blind: self.blind,
                    ..options
                },
            )
        }
    }
}

/// An output's format by name, the same for every command that writes deal files: with the
/// `clap` feature, `--to` (alias `--format`, `-f`); `None`: from the output's extension.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct ToFormat {
    /// The format's registry name ([`formats::named`]).
    #[cfg_attr(feature = "clap", arg(long = "to", short = 'f', visible_alias = "format",
        value_name = "FORMAT", help = to_help(None)))]
    pub to: Option<String>,
}

/// Where a command's sets of deals go and in which formats, the same for every command that
/// writes them (`generate`, `export`): with the `clap` feature, `--out` (repeatable) and
/// `--to`; planned and checked by [`OutputFiles::plan`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct OutputFiles {
    /// Output file (`-` for stdout), repeatable: each file's extension picks its format (see
    /// `dealdex convert --help` for the formats and their extensions); none: stdout.
    #[cfg_attr(feature = "clap", arg(long, short, value_name = "FILE"))]
    pub out: Vec<PathBuf>,
    /// The format of every output.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub to: ToFormat,
}

impl OutputFiles {
    /// [`plan_outputs`] of these files and format, `default` the format of standard output.
    ///
    /// # Errors
    /// [`plan_outputs`]' errors.
    pub fn plan(&self, default: &str) -> Result<Vec<Output>, Error> {
        plan_outputs(&self.out, self.to.to.as_deref(), default)
    }
}

/// What a file is to a command, for [`check_distinct`] and [`ErrorKind::SameFile`]'s
/// message (its words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileRole {
    /// A file written (deals, a listing).
    Output,
    /// The database.
    Database,
    /// A new key file, where a fresh seed is saved.
    KeyFile,
    /// A seed file read.
    SeedFile,
    /// The deal file a command reads (its argument).
    Input,
    /// A deal file given as a sample (`lead`'s).
    DealFile,
    /// A dealer script read.
    Script,
    /// A CSV table written.
    CsvTable,
    /// A plot written (SVG).
    Plot,
    /// The report written as JSON on standard output.
    JsonReport,
}

impl std::fmt::Display for FileRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileRole::Output => "output",
            FileRole::Database => "database",
            FileRole::KeyFile => "key file",
            FileRole::SeedFile => "seed file",
            FileRole::Input => "input file",
            FileRole::DealFile => "deal file",
            FileRole::Script => "script",
            FileRole::CsvTable => "CSV table",
            FileRole::Plot => "plot",
            FileRole::JsonReport => "JSON report",
        })
    }
}

/// Turns output paths and a format name into outputs, the paths checked first
/// ([`check_output_paths`]). No path means standard output in `format` or `default`; `-` is
/// standard output, and it and `/dev/null` take `format` or `default`; one other file takes
/// `format` or its extension's; several files take their extensions' formats (and no
/// `format`).
///
/// ```
/// use std::path::PathBuf;
/// use dealdex::workflow::output::plan_outputs;
/// let outs = plan_outputs(&[PathBuf::from("a.dup"), PathBuf::from("-")], None, "pbn")?;
/// assert_eq!(outs[0].format.info().name, "dup");
/// assert!(outs[1].path.is_none());
/// assert_eq!(plan_outputs(&[], Some("hex"), "pbn")?[0].format.info().name, "hex");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The errors of [`check_output_paths`]; [`ErrorKind::OutputFormat`] or
/// [`ErrorKind::FormatWithSeveral`].
pub fn plan_outputs(
    paths: &[PathBuf],
    format: Option<&str>,
    default: &str,
) -> Result<Vec<Output>, Error> {
    check_output_paths(paths)?;
    if paths.is_empty() {
        return Ok(vec![Output {
            path: None,
            format: formats::named(format.unwrap_or(default)).map_err(ErrorKind::OutputFormat)?,
        }]);
    }
    if format.is_some() && paths.len() > 1 {
        return Err(ErrorKind::FormatWithSeveral.into());
    }
    paths
        .iter()
        .map(|p| {
            let stdout = p.as_os_str() == "-";
            let fmt = if stdout || p == Path::new("/dev/null") {
                formats::named(format.unwrap_or(default))
            } else {
                formats::choose(p, format)
            }
            .map_err(ErrorKind::OutputFormat)?;
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
/// [`ErrorKind::IsADirectory`] for a directory where a file goes,
/// [`ErrorKind::NoDirectory`] for a file in a directory that does not exist.
pub fn check_output_paths(paths: &[PathBuf]) -> Result<(), Error> {
    for p in paths.iter().filter(|p| p.as_os_str() != "-") {
        if p.is_dir() {
            return Err(ErrorKind::IsADirectory { path: p.clone() }.into());
        }
        if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty())
            && !parent.is_dir()
        {
            return Err(ErrorKind::NoDirectory {
                path: p.clone(),
                parent: parent.to_owned(),
            }
            .into());
        }
    }
    Ok(())
}

/// `path` as the file system resolves it, for telling whether two paths name one file: the
/// whole path canonicalised when it exists, else its parent directory canonicalised and its
/// file name (an output need not exist yet); as given when neither resolves.
///
/// ```
/// use std::path::Path;
/// use dealdex::workflow::output::resolved_path;
/// let here = std::env::current_dir()?.canonicalize()?;
/// assert_eq!(resolved_path(Path::new("./no-such-file.pbn")), here.join("no-such-file.pbn"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn resolved_path(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let parent = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (parent.canonicalize(), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_owned(),
    }
}

/// True when `a` and `b` name the same file ([`resolved_path`]): `same.pbn`,
/// `./same.pbn` and `dir/../same.pbn` do.
pub fn same_file(a: &Path, b: &Path) -> bool {
    resolved_path(a) == resolved_path(b)
}

/// Checks that files of different roles are different files, before anything is opened:
/// each `(role, path)` against the others (`-`, standard output, is no file; two outputs
/// may share a role).
///
/// ```
/// use std::path::Path;
/// use dealdex::workflow::output::{FileRole, check_distinct};
/// let (out, db) = (FileRole::Output, FileRole::Database);
/// assert!(check_distinct(&[(out, Path::new("a.csv")), (db, Path::new("./a.csv"))]).is_err());
/// assert!(check_distinct(&[(out, Path::new("-")), (db, Path::new("-"))]).is_ok());
/// ```
///
/// # Errors
/// [`ErrorKind::SameFile`] naming the first two roles that share a file.
pub fn check_distinct(files: &[(FileRole, &Path)]) -> Result<(), Error> {
    let files: Vec<_> = files.iter().filter(|(_, p)| p.as_os_str() != "-").collect();
    for (i, &&(first, a)) in files.iter().enumerate() {
        for &&(second, b) in &files[i + 1..] {
            if first != second && same_file(a, b) {
                return Err(ErrorKind::SameFile {
                    first,
                    second,
                    path: a.to_owned(),
                }
                .into());
            }
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

/// Renders `boards` for every output, in memory, before anything is written (so a limit error
/// leaves no file behind). With `split`, a file output whose format has a board limit the
/// set exceeds gets files `<stem>-<k>.<ext>` of [`SPLIT_BOARDS`] boards renumbered from 1.
///
/// # Errors
/// [`ErrorKind::Render`] when a format cannot hold the set (board number, count or options).
pub fn render_set<P: AsRef<Path>>(
    outputs: &[Output<P>],
    boards: &[Board],
    opts: &WriteOptions,
    split: bool,
) -> Result<Vec<RenderedFile>, Error> {
    let mut files = Vec::new();
    let last = boards.iter().filter_map(|b| b.number).max().unwrap_or(0);
    for o in outputs {
        let info = o.format.info();
        let over = info.max_board.is_some_and(|m| last > m);
        let fail = |error| -> Error {
            ErrorKind::Render {
                output: o.label(),
                error,
                over_limit: over,
            }
            .into()
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

/// Where a [`Staged`] file's bytes go until it is committed.
#[derive(Debug)]
enum Place {
    /// A temporary file beside the target, renamed onto it by [`Staged::commit`] (with the
    /// old target's permissions, if there was one).
    Temp {
        tmp: PathBuf,
        permissions: Option<std::fs::Permissions>,
    },
    /// The target itself, created new (no file was there): removed again unless committed.
    New,
    /// A special file (`/dev/null`, a pipe, a device), written in place: nothing to undo.
    Special,
}

/// A file being written so that a failed write loses nothing: the bytes go to
/// `.<name>.dealdex-<pid>-<k>.tmp` beside the target (created exclusively), which
/// [`Staged::commit`] renames onto it; until then the target stays as it was, and dropping
/// an uncommitted `Staged` removes what it wrote. A special file (e.g. `/dev/null`) is written
/// in place. One helper serves whole files ([`write_whole`], [`write_rendered`]) and
/// streamed ones ([`StagedFile`]).
#[derive(Debug)]
pub struct Staged {
    target: PathBuf,
    place: Place,
    committed: bool,
}

/// Temporary files made by this process so far (their names must differ).
static STAGED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl Staged {
    /// Starts writing `path` through a temporary file beside it (`new_in_place`: a path where
    /// no file exists is created directly instead, one inode less, and removed on failure),
    /// or in place for a special file. Returns the guard and the file to write.
    ///
    /// # Errors
    /// The I/O error of creating the file (the path is the caller's to name).
    fn begin(path: &Path, new_in_place: bool) -> std::io::Result<(Staged, std::fs::File)> {
        let old = std::fs::metadata(path).ok();
        if let Some(m) = old.as_ref().filter(|m| !m.is_file()) {
            if m.is_dir() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            let f = std::fs::OpenOptions::new().write(true).open(path)?;
            return Ok((Staged::with(path, Place::Special), f));
        }
        if old.is_none() && new_in_place {
            match std::fs::File::create_new(path) {
                Ok(f) => return Ok((Staged::with(path, Place::New), f)),
                // Another process made it meanwhile: replace it like an existing file.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let k = STAGED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = path.with_file_name(format!(".{name}.dealdex-{}-{k}.tmp", std::process::id()));
        let f = std::fs::File::create_new(&tmp)?;
        let permissions = old.map(|m| m.permissions());
        Ok((Staged::with(path, Place::Temp { tmp, permissions }), f))
    }

    fn with(target: &Path, place: Place) -> Staged {
        Staged {
            target: target.to_owned(),
            place,
            committed: false,
        }
    }

    /// The file being written (the target, not the temporary file).
    pub fn path(&self) -> &Path {
        &self.target
    }

    /// Puts the written file in place: renames the temporary file onto the target (a
    /// target created new or written in place is already there). Write and flush everything
    /// first.
    ///
    /// # Errors
    /// The I/O error of setting the permissions or renaming (the temporary file is removed).
    pub fn commit(mut self) -> std::io::Result<()> {
        if let Place::Temp { tmp, permissions } = &self.place {
            if let Some(p) = permissions {
                std::fs::set_permissions(tmp, p.clone())?;
            }
            // No fsync: the rename is what keeps a failed write from clobbering the old file.
            std::fs::rename(tmp, &self.target)?;
        }
        self.committed = true;
        Ok(())
    }
}

/// Removes what an uncommitted file wrote: its temporary file, or the target it created.
impl Drop for Staged {
    fn drop(&mut self) {
        if self.committed {
            return;
        }
        match &self.place {
            Place::Temp { tmp, .. } => {
                let _ = std::fs::remove_file(tmp);
            }
            Place::New => {
                let _ = std::fs::remove_file(&self.target);
            }
            Place::Special => {}
        }
    }
}

/// A file streamed through [`Staged`] (`generate --count --out`, `deal A..B --out`,
/// `query --out`), buffered: it appears at its path, whole, only when
/// [`StagedFile::commit`] succeeds; a failed or abandoned write leaves the old file (or no
/// file) and no temporary file. Its write errors name the file.
#[derive(Debug)]
pub struct StagedFile {
    staged: Staged,
    out: std::io::BufWriter<std::fs::File>,
}

impl StagedFile {
    /// Bytes buffered before a write reaches the file.
    const BUFFER: usize = 1 << 20;

    /// Starts writing `path` (a new or regular file through a temporary file beside it, a
    /// special file in place).
    ///
    /// # Errors
    /// [`ErrorKind::Write`] naming `path` when the file cannot be created.
    pub fn create(path: &Path) -> Result<StagedFile, Error> {
        let (staged, f) = Staged::begin(path, false).map_err(|error| -> Error {
            ErrorKind::Write {
                path: Some(path.to_owned()),
                error,
            }
            .into()
        })?;
        Ok(StagedFile {
            staged,
            out: std::io::BufWriter::with_capacity(Self::BUFFER, f),
        })
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        self.staged.path()
    }

    /// Flushes and puts the file in place ([`Staged::commit`]).
    ///
    /// # Errors
    /// [`ErrorKind::Write`] naming the file; the old file (if any) is kept and the temporary file
    /// removed.
    pub fn commit(mut self) -> Result<(), Error> {
        let path = self.path().to_owned();
        let fail = |error| -> Error {
            ErrorKind::Write {
                path: Some(path.clone()),
                error,
            }
            .into()
        };
        self.out.flush().map_err(fail)?;
        self.staged.commit().map_err(fail)
    }

    /// The I/O error `error` of this file, with its path in the message (kind kept).
    fn named(&self, error: std::io::Error) -> std::io::Error {
        std::io::Error::new(
            error.kind(),
            Error::from(ErrorKind::Write {
                path: Some(self.path().to_owned()),
                error,
            }),
        )
    }
}

/// Where a report, a table, a plot or a sheet goes: a file written whole ([`StagedFile`]:
/// it appears only when [`ReportOutput::finish`] succeeds, an old file kept otherwise) or
/// standard output (the caller's writer, `-` or no path). Check its path against the
/// command's other files first ([`check_distinct`]).
///
/// ```
/// use std::io::Write;
/// use dealdex::workflow::output::ReportOutput;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("table.csv");
/// let mut stdout = Vec::new();
/// let mut out = ReportOutput::create(Some(&path), &mut stdout)?;
/// out.write_all(b"card,tricks\n")?;
/// assert!(!path.exists(), "whole or not at all");
/// out.finish()?;
/// assert_eq!(std::fs::read(&path)?, b"card,tricks\n");
/// assert!(stdout.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub enum ReportOutput<'o> {
    /// A file, through a temporary file beside it.
    File(StagedFile),
    /// Standard output.
    Stdout(&'o mut dyn Write),
}

impl<'o> ReportOutput<'o> {
    /// Starts writing `path` (`None` or `-`: `stdout`).
    ///
    /// # Errors
    /// [`ErrorKind::Write`] naming `path` when the file cannot be created.
    pub fn create(path: Option<&Path>, stdout: &'o mut dyn Write) -> Result<Self, Error> {
        Ok(match path.filter(|p| p.as_os_str() != "-") {
            Some(p) => ReportOutput::File(StagedFile::create(p)?),
            None => ReportOutput::Stdout(stdout),
        })
    }

    /// Flushes, and puts a file in place.
    ///
    /// # Errors
    /// [`ErrorKind::Write`] naming the file (or standard output); an old file is kept.
    pub fn finish(self) -> Result<(), Error> {
        match self {
            ReportOutput::File(f) => f.commit(),
            ReportOutput::Stdout(out) => out.flush().map_err(|e| Error::write(None, e)),
        }
    }
}

/// Writes to the file or standard output; a file's errors carry a [`ErrorKind::Write`] naming it.
impl Write for ReportOutput<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            ReportOutput::File(f) => f.write(buf),
            ReportOutput::Stdout(out) => out.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            ReportOutput::File(f) => f.write_all(buf),
            ReportOutput::Stdout(out) => out.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            ReportOutput::File(f) => f.flush(),
            ReportOutput::Stdout(out) => out.flush(),
        }
    }
}

/// Writes to the temporary file; errors carry a [`ErrorKind::Write`] naming the target.
impl Write for StagedFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf).map_err(|e| self.named(e))
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.out.write_all(buf).map_err(|e| self.named(e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush().map_err(|e| self.named(e))
    }
}

/// Starts the stateful writer's file `path` through [`Staged`]: the guard (commit it once
/// the writer has finished) and the file.
///
/// # Errors
/// [`ErrorKind::Write`] naming `path`.
pub fn stage_file(path: &Path) -> Result<(Staged, std::fs::File), Error> {
    Staged::begin(path, false).map_err(|error| -> Error {
        ErrorKind::Write {
            path: Some(path.to_owned()),
            error,
        }
        .into()
    })
}

/// Writes `bytes` to `path` so that a failed write loses nothing ([`Staged`]): a new file
/// is created and removed again on failure; an existing one is replaced through a temporary
/// file beside it and a rename (keeping its permissions), so it stays as it was until the
/// new content is complete; a special file is written in place.
///
/// # Errors
/// The I/O error of creating, writing or renaming (the path is the caller's to name).
pub fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let (staged, mut f) = Staged::begin(path, true)?;
    f.write_all(bytes)?;
    drop(f);
    staged.commit()
}

/// Writes rendered files, all or none: every file is written first (a new file in place,
/// an existing one to a temporary file beside it, a special file such as `/dev/null`
/// directly, see [`Staged`]), and only when all are written are the temporary files renamed
/// onto their targets; a failure removes what was written, so the old files stay and no new
/// one appears (`export --split` writes all its parts or none). Standard-output files then
/// go to `stdout`, in order.
///
/// # Errors
/// [`ErrorKind::Write`] naming the file that could not be written (or renamed).
pub fn write_rendered(files: &[RenderedFile], stdout: &mut dyn Write) -> Result<(), Error> {
    let mut staged = Vec::new();
    for f in files {
        let Some(p) = f.path.as_deref().filter(|p| p.as_os_str() != "-") else {
            continue;
        };
        let fail = |error| -> Error {
            ErrorKind::Write {
                path: Some(p.to_owned()),
                error,
            }
            .into()
        };
        let (s, mut w) = Staged::begin(p, true).map_err(fail)?;
        staged.push(s);
        w.write_all(&f.bytes).map_err(fail)?;
    }
    for s in staged {
        let path = s.path().to_owned();
        s.commit().map_err(|error| -> Error {
            ErrorKind::Write {
                path: Some(path),
                error,
            }
            .into()
        })?;
    }
    for f in files {
        if f.path.as_deref().is_none_or(|p| p.as_os_str() == "-") {
            stdout
                .write_all(&f.bytes)
                .map_err(|error| Error::from(ErrorKind::Write { path: None, error }))?;
        }
    }
    stdout
        .flush()
        .map_err(|error| Error::from(ErrorKind::Write { path: None, error }))
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

impl ExportedFile {
    /// The file as reports name it: its path (`stdout` for standard output) and format.
    pub fn label(&self) -> String {
        let path = self
            .path
            .as_ref()
            .map_or("stdout".to_owned(), |p| p.display().to_string());
        format!("{path} ({})", self.format)
    }
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
