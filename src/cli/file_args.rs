//! The options of every command that reads or writes deal files, declared once: how a file
//! is read ([`ReadArgs`]: `--from`, `--first-board`, resolved here into the library's
//! [`ReadAs`]) and where sets are written ([`OutArgs`]; how: the library's
//! [`Writing`](dealdex::workflow::output::Writing)); the output files
//! themselves are planned and checked by [`dealdex::workflow::output::plan_outputs`].

use std::path::PathBuf;

use dealdex::formats;
use dealdex::workflow::pipeline::{DealSource, ReadAs};

/// An output's format, `--to` (alias `--format`, `-f`), by default from its extension.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ToArg {
    #[arg(long = "to", short = 'f', visible_alias = "format", value_name = "FORMAT",
          help = super::output_format_help(None))]
    pub to: Option<String>,
}

/// Where the deal files a command writes go and in which formats, the same for every
/// command that writes sets of deals (`generate`, `export`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct OutArgs {
    /// Output file (`-` for stdout), repeatable: each file's extension picks its format (see
    /// `dealdex convert --help` for the formats and their extensions); none: stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Vec<PathBuf>,
    #[command(flatten)]
    pub to: ToArg,
}

/// How the deal files a command reads are read, the same for every command.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ReadArgs {
    #[arg(long = "from", alias = "input-format", value_name = "FORMAT",
          help = super::input_format_help())]
    from: Option<String>,
    /// Number of the first board when a file carries no board numbers (default 1, or DUP's
    /// trailer; at most 2^63 - 1); Borel lines are turned by these boards' dealers, CDS
    /// board bytes counted from it.
    #[arg(long, value_name = "N", value_parser = formats::parse_first_board)]
    first_board: Option<u64>,
}

impl ReadArgs {
    /// The flags resolved: the format by its name.
    pub fn read_as(&self) -> Result<ReadAs, dealdex::Error> {
        ReadAs::named(self.from.as_deref(), self.first_board)
    }

    /// The deals of `file` read as these flags say, else of the stored set `set`, else every
    /// stored deal.
    pub fn source(
        &self,
        file: Option<PathBuf>,
        set: Option<String>,
    ) -> Result<DealSource, dealdex::Error> {
        Ok(DealSource::file_or_stored(file, self.read_as()?, set))
    }
}
