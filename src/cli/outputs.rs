//! Output files through the format registry: choosing formats, rendering whole sets (with
//! `--split` for machines' board limits) and streaming bulk runs chunk by chunk.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use dealdex::formats::{self, Board, DealFormat, WriteOptions};

use super::{bad, open_output};

/// The writing options shared by `generate`, `convert` and `export`.
#[derive(clap::Args, Debug, Clone)]
pub struct WriteArgs {
    /// Hide the cards from dealing machines' displays (DUP without the DGE part on board 1,
    /// DLM Status=Sealed).
    #[arg(long)]
    pub blind: bool,
    /// Cut sets that exceed a format's board limit (DUP, DLM: 99) into files
    /// `<name>-1.dup`, `<name>-2.dup`, … of 96 boards renumbered from 1.
    #[arg(long)]
    pub split: bool,
    /// Event name for the formats that carry one (PBN [Event], DLM Headline; default: the
    /// set's name where there is one).
    #[arg(long)]
    pub event: Option<String>,
}

impl WriteArgs {
    /// The options for a set of boards `first..=last`, with `default_event` when no --event.
    pub fn options(&self, default_event: &str, first: u64, last: u64) -> WriteOptions {
        WriteOptions {
            event: self
                .event
                .clone()
                .unwrap_or_else(|| default_event.to_string()),
            blind: self.blind,
            first_board: first,
            last_board: last,
        }
    }
}

/// One output: a file (or stdout) and its format.
pub struct Output {
    /// `None` for stdout.
    pub path: Option<PathBuf>,
    /// The format written.
    pub format: &'static dyn DealFormat,
}

impl Output {
    /// The name used in messages: the path, or `stdout`.
    pub fn label(&self) -> String {
        self.path
            .as_ref()
            .map_or("stdout".to_string(), |p| p.display().to_string())
    }
}

/// The names of every registered format, for messages.
pub fn format_names() -> String {
    formats::registry()
        .iter()
        .map(|f| f.info().name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Looks up `--format NAME`.
pub fn format_by_name(name: &str) -> anyhow::Result<&'static dyn DealFormat> {
    formats::by_name(name).ok_or_else(|| {
        bad(format!(
            "unknown format {name:?} (known: {})",
            format_names()
        ))
    })
}

/// The format of `path`: `--format` when given, else the extension's.
pub fn format_for(path: &Path, format: Option<&str>) -> anyhow::Result<&'static dyn DealFormat> {
    if let Some(f) = format {
        return format_by_name(f);
    }
    formats::by_path(path).ok_or_else(|| {
        bad(format!(
            "{}: cannot tell the format from the extension; give --format ({})",
            path.display(),
            format_names()
        ))
    })
}

/// Turns `--out` files and `--format` into outputs. No `--out` means stdout in `--format` or
/// `default`; `-` is stdout; several `--out` files take their formats from their extensions.
pub fn plan(outs: &[PathBuf], format: Option<&str>, default: &str) -> anyhow::Result<Vec<Output>> {
    if outs.is_empty() {
        return Ok(vec![Output {
            path: None,
            format: format_by_name(format.unwrap_or(default))?,
        }]);
    }
    if format.is_some() && outs.len() > 1 {
        return Err(bad(
            "--format applies to a single --out; with several, each file's extension names its format",
        ));
    }
    outs.iter()
        .map(|p| {
            let stdout = p.as_os_str() == "-";
            let fmt = if stdout || p == Path::new("/dev/null") {
                format_by_name(format.unwrap_or(default))?
            } else {
                format_for(p, format)?
            };
            Ok(Output {
                path: (!stdout).then(|| p.clone()),
                format: fmt,
            })
        })
        .collect()
}

/// Boards per file when `--split` cuts a set for a machine's board limit: a multiple of 16,
/// so that renumbered boards keep their dealer and vulnerability.
pub const SPLIT_BOARDS: u64 = 96;

/// Renders a whole set for every output, in memory, before anything is written: a limit
/// error leaves no file behind. With `split`, a format with a board limit gets files
/// `<stem>-<k>.<ext>` of [`SPLIT_BOARDS`] boards renumbered from 1.
pub fn render(
    outputs: &[Output],
    boards: &[Board],
    opts: &WriteOptions,
    split: bool,
) -> anyhow::Result<Vec<(Option<PathBuf>, Vec<u8>)>> {
    let mut files = Vec::new();
    for o in outputs {
        let info = o.format.info();
        let last = boards.iter().filter_map(|b| b.number).max().unwrap_or(0);
        let over = info.max_board.is_some_and(|m| last > m);
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
                let bytes =
                    formats::write_set(o.format, &renumbered, opts).with_context(|| o.label())?;
                files.push((Some(split_path(path, k + 1)), bytes));
            }
            continue;
        }
        let bytes = formats::write_set(o.format, boards, opts).map_err(|e| {
            let hint = if over {
                "; give --split to cut the set into files of 96 boards"
            } else {
                ""
            };
            bad(format!("{}: {e}{hint}", o.label()))
        })?;
        files.push((o.path.clone(), bytes));
    }
    Ok(files)
}

/// `dir/stem-k.ext` for part `k` of a split set.
fn split_path(path: &Path, k: usize) -> PathBuf {
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

/// Checks output paths before anything is made or stored: a directory where a file goes,
/// or a file in a directory that does not exist, is bad input naming the path.
pub fn check_paths(paths: &[PathBuf]) -> anyhow::Result<()> {
    for p in paths.iter().filter(|p| p.as_os_str() != "-") {
        if p.is_dir() {
            return Err(bad(format!(
                "{}: is a directory, not a file; nothing was written or stored",
                p.display()
            )));
        }
        if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty())
            && !parent.is_dir()
        {
            return Err(bad(format!(
                "{}: {} is not a directory; nothing was written or stored",
                p.display(),
                parent.display()
            )));
        }
    }
    Ok(())
}

/// Writes rendered files. A regular file (or a new one) is written whole through a
/// temporary file beside it and a rename, so a failed write leaves the old file as it was;
/// stdout and other special files are written directly.
pub fn write_files(files: &[(Option<PathBuf>, Vec<u8>)]) -> anyhow::Result<()> {
    for (path, bytes) in files {
        if let Some(p) = path.as_deref()
            && p.as_os_str() != "-"
            && std::fs::metadata(p).map_or(true, |m| m.is_file())
        {
            write_whole(p, bytes)?;
            continue;
        }
        let mut out = open_output(path.as_deref())?;
        out.write_all(bytes)?;
        out.flush()?;
    }
    Ok(())
}

/// Writes `bytes` to the regular file `path` so that a failed write loses nothing: a new
/// file is created and removed again on failure; an existing one is replaced through
/// `.<name>.dealdex-<pid>.tmp` beside it and a rename (keeping its permissions), so it stays
/// as it was until the new content is complete.
pub fn write_whole(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let fail = |e: std::io::Error| anyhow::anyhow!("{}: {e}", path.display());
    let existing = std::fs::metadata(path).ok();
    let Some(old) = existing else {
        // A new file: nothing to protect, and creating one inode (not two) per file keeps
        // `export --split` of 10,417 DUP files at the speed of plain writes.
        let written = std::fs::File::create_new(path).and_then(|mut f| f.write_all(bytes));
        if let Err(e) = written {
            if e.kind() != std::io::ErrorKind::AlreadyExists {
                let _ = std::fs::remove_file(path);
            }
            return Err(fail(e));
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
        return Err(fail(e));
    }
    Ok(())
}
