//! The `dealdex` command: a thin clap layer over the library.
//!
//! Exit codes: 0 success (also when a reader closes the pipe early), 2 bad input (one line on
//! stderr), 1 any other failure.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // DDS itself as `--solver dds`, in a binary built with the `dds` feature.
    #[cfg(feature = "dds")]
    dealdex_dds::install();
    // `dealdex dealer` parses only its own arguments: a short script's whole run takes a few
    // milliseconds, and building every command's parser would be a fifth of it (issue 37).
    let run = if std::env::args_os().nth(1).is_some_and(|a| a == "dealer") {
        cli::run_dealer(cli::DealerCli::parse_from(std::env::args_os().skip(1)))
    } else {
        cli::run(cli::Cli::parse())
    };
    match run {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => cli::report(e),
    }
}
