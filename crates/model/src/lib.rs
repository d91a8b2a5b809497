//! dealdex's bridge model and its codecs, the bottom of its crates: seats, suits, ranks and
//! cards; hands and deals; boards (dealer and vulnerability); the 13-byte index; hand-record
//! numbers in the three schemes (FORMATS.md §1–§3); PBN deal strings; hand features (HCP,
//! shape, …). Beside them, the bridge vocabulary the crates above share: strains, contracts
//! and tricks; the game a file records beside a deal (tags, auction, play) and the play of a
//! board ([`play`]); the text helpers of the letter codecs; the crate's one error type
//! ([`Error`], its [`ErrorKind`]); and the error vocabulary every dealdex error speaks
//! ([`Classify`], [`ErrorClass`], [`InputPosition`], [`classified!`]).
//!
//! It uses no other dealdex crate, no SQLite and no thread pool: Cargo keeps the layer rule.
//! Users reach it through the engine, `dealdex`, which re-exports what it makes public.
#![deny(missing_docs)]

mod vocabulary;
pub use vocabulary::{Classify, ErrorClass, InputPosition};
mod error;
pub use error::{Error, ErrorKind};
#[doc(hidden)]
pub mod classify;
pub use classify::{as_classify, classify};

pub mod board;
pub mod card;
pub mod contract;
pub mod cpu;
pub mod deal;
pub mod deal_string;
pub mod features;
pub mod game;
pub mod index;
pub mod number;
pub mod play;
pub mod text;
pub mod tricks;
