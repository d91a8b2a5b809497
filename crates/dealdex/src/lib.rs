//! dealdex: generate, number, index, store and export contract-bridge deals.
//!
//! The data flows one way: seed → number → deal → index → store → export.
//! Specifications are cited by section: FORMATS.md (numbering, index, formats) and the seed
//! documents under `shared/seeds/`.
//!
//! Feature `clap`: the jobs whose fields are what a user types (`NumberJob`, `ImportJob`,
//! `SolveRequest`, `solve::VerifyJob`, the event's `NewJob`, `PublishJob`, `SetValueJob`,
//! `MakeJob`, `VerifyJob`, `EventFiles`; dealer's `DealerJob`), the options as typed of the
//! jobs that hold parsed values (`GenerateOptions`, `LeadOptions`, `ContractsOptions`,
//! `RecordsOptions`, `StatsOptions`, `QueryOptions`, `SqlOptions`, `DealOptions`,
//! `LookupOptions`, `CardOptions`, `DealerOptions`, `SolveOptions`, the event's `MakeOptions`:
//! each with a `job()` (or `request()`) that parses them, returning `dealdex::Error`) and the
//! option groups every command shares (`workflow::output::Writing`,
//! `workflow::pipeline::ReadOptions`, the `workflow::database` groups) derive `clap::Args`,
//! their doc comments the help: the `dealdex` binary parses into them.
#![deny(missing_docs)]

// The bridge model, its codecs and the error vocabulary are the crate below this one,
// dealdex-model (crates/model), under the names the engine's modules use: `crate::model::…`,
// `crate::play::…`, and `crate::classified!(Type);` beside each error type's `impl Classify`.
use dealdex_model as model;
pub(crate) use dealdex_model::classified;
pub use dealdex_model::{Classify, ErrorClass, InputPosition, as_classify, classify};
mod causes;
pub use causes::{causes, closed_stdout};
// The engine's one error type (rust-csv's style): a boxed kind, its class and position.
mod error;
pub use error::{Error, ErrorKind, ReadKind, Result, SampleOption};
#[cfg(test)]
mod error_registry;

pub use model::board::{Vulnerability, board_dealer, board_vulnerability};
pub use model::card::{Card, Rank, Seat, Suit};
pub use model::contract::{
    Contract, Doubling, Strain, Trick, contract_of, duplicate_score, imps, trick_winner,
};
pub use model::cpu;
pub use model::deal::{Deal, Hand};
pub use model::deal_string::{format_deal, parse_deal, push_deal};
pub use model::features;
pub use model::index::{BoardIndex, DealIndex, parse_deal_argument};
pub use model::number::{
    DEALS, Scheme, number, parse_number, parse_scheme_number, reference, unrank_range, warm_up,
};
/// The model's one error type (a deal string, index, number, card encoding, play, game state
/// or name refused, or hands that are not a deal) and its kinds.
pub use model::{Error as ModelError, ErrorKind as ModelErrorKind};

// Where deals come from: the seeded stream, predealt cards, Big Deal's stream.
use dealdex_generation as generation;
pub use generation::bigdeal;
pub use generation::lengths;
pub use generation::predeal::Predeal;
pub use generation::shuffle;
pub use generation::stream::{
    CHUNK, DrawProgress, MatchingDeals, Seed, first_matching, first_matching_within,
    generate_chunks, generate_chunks_with, par_chunks_ordered,
};
/// Generation's one error type (a seed, a predeal or predealt lengths refused) and its kinds.
pub use generation::{Error as GenerationError, ErrorKind as GenerationErrorKind};

// The SQLite store: deals keyed by index, sets, plays, double-dummy tables, SQL functions.
use dealdex_store as store;
pub use store::sqlfn;
pub use store::{
    DEFAULT_DATABASE, DealWriter, NewSet, ReadOnlyQuery, ReadOnlyStore, SetBoard, SetInfo,
    SetOutcome, Store, StoreError, StoreErrorKind, StoreReader,
};
pub use store::{
    DdSource, LeadTable, NewPlay, NewPlayed, PlayedRow, PlayedSelection, PlayedTable,
    PlaysAndTables, PlaysAndTablesStored, StoredDd, StoredPlay, StoredPlayed,
};

// Deal files: the registry of formats, each with its reader and writer.
pub use dealdex_formats as formats;
pub use formats::{Board, DealFormat, FormatInfo, WriteOptions};
/// The formats' one error type (a file or boards a format refuses, a writer's destination
/// that fails, a format that cannot be chosen) and its kinds.
pub use formats::{Error as FormatError, ErrorKind as FormatErrorKind};

// The query language and set statistics.
pub use dealdex_query as query;
pub mod stats;

// The play of the cards: play records, game states, card encodings.
use dealdex_model::play;
pub use play::encoding;
pub use play::encoding::{Encoding, FacedCard, parse_card};
pub use play::gamestate::{Group, PlayState, decode_groups, encode_groups};
pub use play::record::{BoardPlay, CardLayout, PlayRecord, TrickRecord, board_play};

// Double-dummy tables and par: the crate dealdex-solver (crates/solver, pons-dds), below the
// engine.
pub use dealdex_solver as dd;

// Printable hand records: the sheet of diagrams, HCP, tables and par, as HTML or PDF (the
// crate dealdex-records, crates/records; its one error type is `dealdex::records::Error`).
pub use dealdex_records as records;

// Championship events: SquareDeal's files and dealdex's protocol (the crate dealdex-event).
pub use dealdex_event as event;

// Secret files: seeds and event keys, written once, to new files only.
pub mod secret;

// dealer's simulation language: scripts parsed, evaluated over deals and run (issue 29).
pub use dealdex_dealer as dealer;

// What each command does, as library functions: job in, report out.
pub mod workflow;
pub use workflow::{import, judge, solve};

/// README.md's Rust examples, compiled and run with the doctests.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// docs/ARCHITECTURE.md's Rust examples (dealdex as a library), compiled and run with the
/// doctests.
#[doc = include_str!("../../../docs/ARCHITECTURE.md")]
#[cfg(doctest)]
pub struct ArchitectureDoctests;

/// docs/GUIDE.md's Rust examples (none yet: its shell sessions are fenced `text` or `sh`, which
/// rustdoc skips; an unmarked fence would be compiled as Rust).
#[doc = include_str!("../../../docs/GUIDE.md")]
#[cfg(doctest)]
pub struct GuideDoctests;

/// docs/formats.md's Rust examples (none yet; as for docs/GUIDE.md).
#[doc = include_str!("../../../docs/formats.md")]
#[cfg(doctest)]
pub struct FormatsDoctests;

/// docs/database.md's Rust examples (none yet; as for docs/GUIDE.md).
#[doc = include_str!("../../../docs/database.md")]
#[cfg(doctest)]
pub struct DatabaseDoctests;

/// docs/TESTS.md's Rust examples (none yet; as for docs/GUIDE.md).
#[doc = include_str!("../../../docs/TESTS.md")]
#[cfg(doctest)]
pub struct TestsDoctests;
