//! The flags an error of the library is about, or that fix it, in the CLI's words.
//!
//! The library's messages name no flag (a Python caller has keywords, not flags): they name
//! the parameter in plain words (`boards "1-x": …`, `key file k.seed: …`) and say what would
//! fix it. [`super::report`] adds the flags in brackets, found here by the error's type and
//! variant: `dealdex: error: contract "8NT": not a contract (…) [--contract]`.

use std::error::Error;

use dealdex::query::ErrorKind as QueryKind;
use dealdex::workflow::event::EventKind;
use dealdex::workflow::generate::GenerateKind;
use dealdex::workflow::output::FileRole;
use dealdex::{ErrorKind, FormatError, FormatErrorKind, StoreError, StoreErrorKind};

/// The flags `e` or an error it holds ([`dealdex::causes`]) is about or that fix it, the
/// first that has any.
pub fn flags_for(e: &anyhow::Error) -> Option<String> {
    dealdex::causes(e.as_ref()).into_iter().find_map(flags_of)
}

/// A sample's error ([`dealdex::ErrorKind::Sample`]) with the flag it is about (`--where: …`,
/// `--hand "TEXT": …`); other errors as they are.
pub fn sample_error(e: anyhow::Error) -> anyhow::Error {
    use dealdex::{ErrorKind, SampleOption};
    let flag = match e.downcast_ref::<dealdex::Error>().map(dealdex::Error::kind) {
        Some(ErrorKind::Sample { option, .. }) => match option {
            SampleOption::Hand { text } => format!("--hand {text:?}"),
            SampleOption::Where => "--where".to_owned(),
            SampleOption::Predeal => "--predeal".to_owned(),
            SampleOption::Seed => "--seed".to_owned(),
        },
        _ => return e,
    };
    e.context(flag)
}

/// The flags `e` itself is about, or that fix it.
fn flags_of(e: &(dyn Error + 'static)) -> Option<String> {
    if let Some(kind) = e.downcast_ref::<dealdex::Error>().map(dealdex::Error::kind) {
        if let ErrorKind::SameFile { first, second, .. } = kind {
            return Some(format!(
                "{}, {}",
                flag_of_path(*first),
                flag_of_path(*second)
            ));
        }
        return kind_flags(kind).map(str::to_owned);
    }
    let found = (e.downcast_ref().and_then(format_flags)).or_else(|| {
        matches!(
            e.downcast_ref().map(StoreError::kind),
            Some(StoreErrorKind::NotDealdex { foreign: true, .. })
        )
        .then_some("--migrate-foreign, or another --db")
    });
    found.map(str::to_owned)
}

/// The flags of the engine's errors, by kind.
fn kind_flags(kind: &ErrorKind) -> Option<&'static str> {
    match kind {
        ErrorKind::Event(k) => event_flags(k),
        ErrorKind::Generate(k) => generate_flags(k),
        // The deal pipeline's (a source's, the outputs' plan, a render's).
        ErrorKind::FirstBoard { .. } => Some("--first-board"),
        ErrorKind::NoStore | ErrorKind::SolveNoDatabase => Some("--db"),
        ErrorKind::TooFewMatches { .. } => Some("--max-draws"),
        ErrorKind::Query(e) if matches!(e.kind(), QueryKind::PlayedOnly { .. }) => Some("--played"),
        ErrorKind::Filter { .. } => Some("--where"),
        // Only `lead --script` reads a script as a source.
        ErrorKind::Script(_) => Some("--script"),
        ErrorKind::FormatWithSeveral => Some("--to, --out"),
        ErrorKind::Render {
            over_limit: true, ..
        } => Some("--split"),
        // `dealer` and `lead`.
        ErrorKind::SetExists { .. } => Some("--store NEW-NAME"),
        // `lead`.
        ErrorKind::Contract(_) => Some("--contract"),
        ErrorKind::Seed { .. } => Some("--seed"),
        ErrorKind::SampleTooLarge(_) => Some("--deals"),
        ErrorKind::StoreNeedsWriter => Some("--store, --db"),
        // `sql`.
        ErrorKind::SqlTimeout { .. } => Some("--timeout SECS"),
        ErrorKind::SqlMemoryLimit { .. } => Some("--memory-limit MIB"),
        // `solve`.
        ErrorKind::NothingToSolve => Some("DEALS, FILES, --set NAME or --all"),
        ErrorKind::Vulnerability(_) => Some("--vul"),
        // `records`.
        ErrorKind::SheetExtension { .. } => Some("--out"),
        _ => None,
    }
}

/// The flags of an event's errors.
fn event_flags(e: &EventKind) -> Option<&'static str> {
    match e {
        EventKind::Phase { .. } => Some("--phase"),
        EventKind::ValueFormatNotUsed
        | EventKind::ValueFormatMissing
        | EventKind::ValueFormat(_) => Some("--value-format"),
        EventKind::ValueAlreadySet { .. } => Some("--replace"),
        EventKind::Boards(_)
        | EventKind::BoardsUnknown
        | EventKind::PhaseNeedsBoards { .. }
        | EventKind::PhaseBoardsFixed { .. } => Some("--boards N"),
        EventKind::Sessions { .. } | EventKind::PhaseNeedsSessions { .. } => Some("--session S"),
        EventKind::TooManyBoards { .. } => Some("--phase, --session"),
        EventKind::OutNotDirectory { .. } => Some("--out"),
        EventKind::PartialNeedsDealdex { .. } => Some("--partial"),
        _ => None,
    }
}

/// The flags of `generate`'s errors.
fn generate_flags(e: &GenerateKind) -> Option<&'static str> {
    match e {
        GenerateKind::NotABoardNumber { .. }
        | GenerateKind::BadBoardRange { .. }
        | GenerateKind::BigDealSetExhausted { .. } => Some("--boards"),
        GenerateKind::TooManyBoards { .. } => Some("--boards; --count for bulk runs"),
        GenerateKind::ZeroCount => Some("--count"),
        GenerateKind::ZeroStart => Some("--start"),
        GenerateKind::CounterOverflow => Some("--start, --count"),
        GenerateKind::BadBatch { .. } => Some("--batch"),
        GenerateKind::NothingToDo => Some("--out FILE, or no --no-db"),
        GenerateKind::BoardLimit { .. } => Some("--split"),
        GenerateKind::BadSeed(_) => Some("--seed"),
        GenerateKind::KeyFileExists { .. } => Some("--key-file, --seed-file"),
        GenerateKind::NeverMatches { .. } => Some("--where"),
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
