//! The `dealdex` command: a thin clap layer over the library.
//!
//! Exit codes: 0 success (also when a reader closes the pipe early), 2 bad input (one line on
//! stderr), 1 any other failure.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => cli::report(e),
    }
}
