//! dealdex: generate, number, index, store and export contract-bridge deals.
//!
//! The data flows one way: seed → number → deal → index → store → export.
//! Specifications are cited by section: FORMATS.md (numbering, index, formats) and the seed
//! documents under `shared/seeds/`.
#![deny(missing_docs)]

mod error;
pub use error::ErrorClass;

mod board;
mod card;
mod deal;
mod index;

pub use board::{UnknownVulnerability, Vulnerability, board_dealer, board_vulnerability};
pub use card::{Card, Rank, Seat, Suit};
pub use deal::{Deal, DealError, Hand};
pub use index::{DealIndex, HexDeal, IndexError};
mod number;
mod pbn;

pub use number::{
    DEALS, NumberError, Scheme, number, parse_number, reference, unrank_range, warm_up,
};
pub use pbn::{PbnError, format_deal, parse_deal, push_deal};
mod generate;

pub use generate::{
    CHUNK, MatchingDeals, Seed, SeedError, first_matching, generate_chunks, generate_chunks_with,
    par_chunks_ordered,
};
mod output;

pub use output::{Format, Labels, PBN_HEADER, format_chunk, push_game};
mod store;

pub use store::{BoardExtras, ExtrasStored, NewPlay, StoredPlay};
pub use store::{
    NewSet, ReadOnlyQuery, ReadOnlyStore, SetBoard, SetInfo, SetOutcome, Store, StoreError,
};
pub mod formats;

pub use formats::{Board, DealFormat, FormatError, FormatInfo, WriteOptions};
pub mod features;
mod predeal;
pub mod query;
pub mod sqlfn;
pub mod stats;

pub use predeal::{Predeal, PredealError};
pub mod encoding;
pub mod protocol;

pub use encoding::{Encoding, EncodingError, Seed004Card, parse_card};
mod play;

pub use play::{
    BoardPlay, PlayError, PlayRecord, Position, Strain, Trick, TrickRecord, board_play,
    contract_of, trick_winner,
};
mod gamestate;

pub use gamestate::{GameStateError, Group, PlayState, decode_groups, encode_groups};
pub mod bigdeal;
pub mod event;

// Secret files: seeds and event keys, written once, to new files only.
pub mod secret;

// Double-dummy tables and par (pons-dds).
pub mod dd;
// What each command does, as library functions: job in, report out.
pub mod workflow;
pub use workflow::{export, import, solve};

/// README.md's Rust examples, compiled and run with the doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
