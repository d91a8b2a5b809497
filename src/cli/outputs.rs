//! Output files through the format registry: the writing options, and the library's format
//! choice and output planning ([`dealdex::formats::choose`], [`dealdex::export::plan_outputs`])
//! as `anyhow` results.

use std::path::{Path, PathBuf};

use dealdex::formats::{self, DealFormat};

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

/// Looks up `--format NAME`.
pub fn format_by_name(name: &str) -> anyhow::Result<&'static dyn DealFormat> {
    Ok(formats::named(name)?)
}

/// The format of `path`: `--format` when given, else the extension's.
pub fn format_for(path: &Path, format: Option<&str>) -> anyhow::Result<&'static dyn DealFormat> {
    Ok(formats::choose(path, format)?)
}

/// Turns `--out` files and `--format` into outputs ([`dealdex::export::plan_outputs`]).
pub fn plan(outs: &[PathBuf], format: Option<&str>, default: &str) -> anyhow::Result<Vec<Output>> {
    Ok(dealdex::export::plan_outputs(outs, format, default)?)
}

/// Checks output paths before anything is made or stored
/// ([`dealdex::export::check_output_paths`]).
pub fn check_paths(paths: &[PathBuf]) -> anyhow::Result<()> {
    Ok(dealdex::export::check_output_paths(paths)?)
}
