//! The options of every command that reads or writes deal files, declared once: how a file
//! is read ([`ReadArgs`]: `--from`, `--first-board`, the library's) and where sets are written ([`OutArgs`]; how: the library's
//! [`Writing`](dealdex::workflow::output::Writing)); the output files
//! themselves are planned and checked by [`dealdex::workflow::output::plan_outputs`].

use std::path::PathBuf;

/// An output's format, `--to` (alias `--format`, `-f`), by default from its extension.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ToArg {
    #[arg(long = "to", short = 'f', visible_alias = "format", value_name = "FORMAT",
          help = dealdex::workflow::output::to_help(None))]
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

/// How the deal files a command reads are read, the same for every command: the library's.
pub use dealdex::workflow::pipeline::ReadOptions as ReadArgs;
