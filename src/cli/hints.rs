//! The flags an error of the library is about, or that fix it, in the CLI's words.
//!
//! The library's messages name no flag (a Python caller has keywords, not flags): they name
//! the parameter in plain words (`boards "1-x": …`, `key file k.seed: …`) and say what would
//! fix it. [`super::report`] adds the flags in brackets, found here by the error's type and
//! variant: `dealdex: error: contract "8NT": not a contract (…) [--contract]`.

use std::error::Error;

use dealdex::StoreError;
use dealdex::formats::{ChooseFormatError, DetectError};
use dealdex::workflow::dealer::DealerRunError;
use dealdex::workflow::event::EventJobError;
use dealdex::workflow::generate::GenerateError;
use dealdex::workflow::lead::LeadError;
use dealdex::workflow::output::{OutputPlanError, RenderError};
use dealdex::workflow::pipeline::SourceError;
use dealdex::workflow::records::RecordsError;
use dealdex::workflow::solve::SolveInputError;
use dealdex::workflow::sql::SqlError;

/// The flags `e` or an error it holds ([`dealdex::causes`]) is about or that fix it, the
/// first that has any.
pub fn flags_for(e: &anyhow::Error) -> Option<String> {
    dealdex::causes(e.as_ref()).into_iter().find_map(flags_of)
}

/// The flags `e` itself is about, or that fix it.
fn flags_of(e: &(dyn Error + 'static)) -> Option<String> {
    let flags = |f: &str| Some(f.to_owned());
    if let Some(e) = e.downcast_ref::<EventJobError>() {
        return match e {
            EventJobError::Phase { .. } => flags("--phase"),
            EventJobError::ValueFormatNotUsed
            | EventJobError::ValueFormatMissing
            | EventJobError::ValueFormat(_) => flags("--value-format"),
            EventJobError::ValueAlreadySet { .. } => flags("--replace"),
            EventJobError::Boards(_)
            | EventJobError::BoardsUnknown
            | EventJobError::PhaseNeedsBoards { .. }
            | EventJobError::PhaseBoardsFixed { .. } => flags("--boards N"),
            EventJobError::Sessions { .. } | EventJobError::PhaseNeedsSessions { .. } => {
                flags("--session S")
            }
            EventJobError::TooManyBoards { .. } => flags("--phase, --session"),
            EventJobError::OutNotDirectory { .. } => flags("--out"),
            EventJobError::UnknownFormat { .. } => flags("--to"),
            EventJobError::PartialNeedsDealdex { .. } => flags("--partial"),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<GenerateError>() {
        return match e {
            GenerateError::NotABoardNumber { .. }
            | GenerateError::BadBoardRange { .. }
            | GenerateError::BigDealSetExhausted { .. } => flags("--boards"),
            GenerateError::TooManyBoards { .. } => flags("--boards; --count for bulk runs"),
            GenerateError::ZeroCount => flags("--count"),
            GenerateError::ZeroStart => flags("--start"),
            GenerateError::CounterOverflow => flags("--start, --count"),
            GenerateError::BadBatch { .. } => flags("--batch"),
            GenerateError::NothingToDo => flags("--out FILE, or no --no-db"),
            GenerateError::BoardLimit { .. } => flags("--split"),
            GenerateError::BadSeed(_) => flags("--seed"),
            GenerateError::KeyFileExists { .. } => flags("--key-file, --seed-file"),
            GenerateError::NeverMatches { .. } => flags("--where"),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<LeadError>() {
        return match e {
            LeadError::Contract(_) => flags("--contract"),
            LeadError::Seed { .. } => flags("--seed"),
            LeadError::CsvClash { .. } => flags("--csv"),
            LeadError::TooManyDeals(_) => flags("--deals"),
            LeadError::Script(_) => flags("--script"),
            LeadError::SetExists { .. } => flags("--store NEW-NAME"),
            LeadError::StoreNeedsWriter => flags("--store, --db"),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<SourceError>() {
        return match e {
            SourceError::FirstBoard { .. } => flags("--first-board"),
            SourceError::NoStore => flags("--db"),
            SourceError::TooFewMatches { .. } => flags("--max-draws"),
            SourceError::Filter { .. } => flags("--where"),
            _ => None,
        };
    }
    if let Some(OutputPlanError::SameFile { first, second, .. }) = e.downcast_ref() {
        return Some(format!("{}, {}", flag_of_path(first), flag_of_path(second)));
    }
    if let Some(e) = e.downcast_ref::<OutputPlanError>() {
        return matches!(e, OutputPlanError::FormatWithSeveral).then(|| "--to, --out".to_owned());
    }
    if let Some(e) = e.downcast_ref::<RenderError>() {
        return e.over_limit.then(|| "--split".to_owned());
    }
    if let Some(e) = e.downcast_ref::<SqlError>() {
        return match e {
            SqlError::Timeout { .. } => flags("--timeout SECS"),
            SqlError::MemoryLimit { .. } => flags("--memory-limit MIB"),
            _ => None,
        };
    }
    if e.is::<DetectError>() {
        return flags("--from");
    }
    if let Some(e) = e.downcast_ref::<ChooseFormatError>() {
        return match e {
            ChooseFormatError::UnknownExtension { .. } => {
                flags("--from (an input) or --to (an output)")
            }
            ChooseFormatError::Undetected { .. } => flags("--from"),
            ChooseFormatError::UnknownName { .. } => None,
        };
    }
    if let Some(StoreError::NotDealdex { foreign: true, .. }) = e.downcast_ref() {
        return flags("--migrate-foreign, or another --db");
    }
    if let Some(DealerRunError::SetExists { .. }) = e.downcast_ref() {
        return flags("--store NEW-NAME");
    }
    if let Some(RecordsError::SheetExtension { .. }) = e.downcast_ref() {
        return flags("--out");
    }
    if let Some(e) = e.downcast_ref::<SolveInputError>() {
        return match e {
            SolveInputError::Nothing => flags("DEALS, FILES, --set NAME or --all"),
            SolveInputError::NoDatabase => flags("--db"),
            SolveInputError::Vul(_) => flags("--vul"),
            _ => None,
        };
    }
    None
}

/// The flag of a path an [`OutputPlanError::SameFile`] names by what it is.
fn flag_of_path(what: &str) -> &str {
    match what {
        "output" => "--out",
        "database" => "--db",
        "key file" => "--key-file",
        "seed file" => "--seed-file",
        other => other,
    }
}
