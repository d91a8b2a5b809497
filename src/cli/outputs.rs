//! Output files through the format registry: the writing options and choosing each output's
//! format (rendering and writing are the library's: [`dealdex::export`]).

use std::path::{Path, PathBuf};

use dealdex::formats::{self, DealFormat};

use super::bad;

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

/// One output: a file (or stdout) and its format.
pub use dealdex::export::Output;

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
