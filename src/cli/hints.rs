//! The flags an error of the library is about, or that fix it, in the CLI's words.
//!
//! The library's messages name no flag (a Python caller has keywords, not flags): they name
//! the parameter in plain words (`boards "1-x": …`, `key file k.seed: …`) and say what would
//! fix it. [`super::report`] adds the flags in brackets, found here by the error's type and
//! variant: `dealdex: error: contract "8NT": not a contract (…) [--contract]`.

use std::error::Error;

use dealdex::workflow::dealer::DealerRunError;
use dealdex::workflow::event::EventJobError;
use dealdex::workflow::generate::GenerateError;
use dealdex::workflow::lead::LeadError;
use dealdex::workflow::output::FileRole;
use dealdex::workflow::pipeline::{self, ErrorKind};
use dealdex::workflow::records::RecordsError;
use dealdex::workflow::solve::SolveInputError;
use dealdex::workflow::sql::SqlError;
use dealdex::{FormatError, FormatErrorKind, StoreError};

/// The flags `e` or an error it holds ([`dealdex::causes`]) is about or that fix it, the
/// first that has any.
pub fn flags_for(e: &anyhow::Error) -> Option<String> {
    dealdex::causes(e.as_ref()).into_iter().find_map(flags_of)
}

/// The flags `e` itself is about, or that fix it.
fn flags_of(e: &(dyn Error + 'static)) -> Option<String> {
    let pipeline = e
        .downcast_ref::<pipeline::Error>()
        .map(pipeline::Error::kind);
    if let Some(ErrorKind::SameFile { first, second, .. }) = pipeline {
        return Some(format!(
            "{}, {}",
            flag_of_path(*first),
            flag_of_path(*second)
        ));
    }
    let found = (e.downcast_ref().and_then(event_flags))
        .or_else(|| e.downcast_ref().and_then(generate_flags))
        .or_else(|| e.downcast_ref().and_then(lead_flags))
        .or_else(|| pipeline.and_then(pipeline_flags))
        .or_else(|| e.downcast_ref().and_then(sql_flags))
        .or_else(|| e.downcast_ref().and_then(format_flags))
        .or_else(|| e.downcast_ref().and_then(solve_flags))
        .or_else(|| other_flags(e));
    found.map(str::to_owned)
}

/// The flags of the errors of other types: one variant each.
fn other_flags(e: &(dyn Error + 'static)) -> Option<&'static str> {
    let variant = |yes: bool, flags: &'static str| yes.then_some(flags);
    variant(
        matches!(
            e.downcast_ref(),
            Some(StoreError::NotDealdex { foreign: true, .. })
        ),
        "--migrate-foreign, or another --db",
    )
    .or_else(|| {
        variant(
            matches!(e.downcast_ref(), Some(DealerRunError::SetExists { .. })),
            "--store NEW-NAME",
        )
    })
    .or_else(|| {
        variant(
            matches!(e.downcast_ref(), Some(RecordsError::SheetExtension { .. })),
            "--out",
        )
    })
}

/// The flags of an event's errors.
fn event_flags(e: &EventJobError) -> Option<&'static str> {
    match e {
        EventJobError::Phase { .. } => Some("--phase"),
        EventJobError::ValueFormatNotUsed
        | EventJobError::ValueFormatMissing
        | EventJobError::ValueFormat(_) => Some("--value-format"),
        EventJobError::ValueAlreadySet { .. } => Some("--replace"),
        EventJobError::Boards(_)
        | EventJobError::BoardsUnknown
        | EventJobError::PhaseNeedsBoards { .. }
        | EventJobError::PhaseBoardsFixed { .. } => Some("--boards N"),
        EventJobError::Sessions { .. } | EventJobError::PhaseNeedsSessions { .. } => {
            Some("--session S")
        }
        EventJobError::TooManyBoards { .. } => Some("--phase, --session"),
        EventJobError::OutNotDirectory { .. } => Some("--out"),
        EventJobError::PartialNeedsDealdex { .. } => Some("--partial"),
        _ => None,
    }
}

/// The flags of `generate`'s errors.
fn generate_flags(e: &GenerateError) -> Option<&'static str> {
    match e {
        GenerateError::NotABoardNumber { .. }
        | GenerateError::BadBoardRange { .. }
        | GenerateError::BigDealSetExhausted { .. } => Some("--boards"),
        GenerateError::TooManyBoards { .. } => Some("--boards; --count for bulk runs"),
        GenerateError::ZeroCount => Some("--count"),
        GenerateError::ZeroStart => Some("--start"),
        GenerateError::CounterOverflow => Some("--start, --count"),
        GenerateError::BadBatch { .. } => Some("--batch"),
        GenerateError::NothingToDo => Some("--out FILE, or no --no-db"),
        GenerateError::BoardLimit { .. } => Some("--split"),
        GenerateError::BadSeed(_) => Some("--seed"),
        GenerateError::KeyFileExists { .. } => Some("--key-file, --seed-file"),
        GenerateError::NeverMatches { .. } => Some("--where"),
        _ => None,
    }
}

/// The flags of `lead`'s errors.
fn lead_flags(e: &LeadError) -> Option<&'static str> {
    match e {
        LeadError::Contract(_) => Some("--contract"),
        LeadError::Seed { .. } => Some("--seed"),
        LeadError::TooManyDeals(_) => Some("--deals"),
        LeadError::Script(_) => Some("--script"),
        LeadError::SetExists { .. } => Some("--store NEW-NAME"),
        LeadError::StoreNeedsWriter => Some("--store, --db"),
        _ => None,
    }
}

/// The flags of the deal pipeline's errors (a source's, the outputs' plan, a render's).
fn pipeline_flags(e: &ErrorKind) -> Option<&'static str> {
    match e {
        ErrorKind::FirstBoard { .. } => Some("--first-board"),
        ErrorKind::NoStore => Some("--db"),
        ErrorKind::TooFewMatches { .. } => Some("--max-draws"),
        ErrorKind::Filter { .. } => Some("--where"),
        // Only `lead --script` reads a script as a source.
        ErrorKind::Script(_) => Some("--script"),
        ErrorKind::FormatWithSeveral => Some("--to, --out"),
        ErrorKind::Render {
            over_limit: true, ..
        } => Some("--split"),
        _ => None,
    }
}

/// The flags of `sql`'s errors.
fn sql_flags(e: &SqlError) -> Option<&'static str> {
    match e {
        SqlError::Timeout { .. } => Some("--timeout SECS"),
        SqlError::MemoryLimit { .. } => Some("--memory-limit MIB"),
        _ => None,
    }
}

/// The flags of a format choice's errors (none for a format's refusal of a file).
fn format_flags(e: &FormatError) -> Option<&'static str> {
    match e.kind() {
        FormatErrorKind::UnknownExtension { .. } => Some("--from (an input) or --to (an output)"),
        FormatErrorKind::AmbiguousContent { .. } | FormatErrorKind::UnknownContent { .. } => {
            Some("--from")
        }
        _ => None,
    }
}

/// The flags of `solve`'s errors.
fn solve_flags(e: &SolveInputError) -> Option<&'static str> {
    match e {
        SolveInputError::Nothing => Some("DEALS, FILES, --set NAME or --all"),
        SolveInputError::NoDatabase => Some("--db"),
        SolveInputError::Vul(_) => Some("--vul"),
        _ => None,
    }
}

/// The flag of a path an [`ErrorKind::SameFile`] names by what it is.
fn flag_of_path(role: FileRole) -> &'static str {
    match role {
        FileRole::Output => "--out",
        FileRole::Database => "--db",
        FileRole::KeyFile => "--key-file",
        FileRole::SeedFile => "--seed-file",
        FileRole::Input => "FILE",
        FileRole::DealFile => "--file",
        FileRole::Script => "--script",
        FileRole::CsvTable => "--csv",
        FileRole::Plot => "--plot",
        FileRole::JsonReport => "--json",
    }
}
