//! Where deals come from: dealdex's seeded ChaCha20 stream (with `--where` filtering),
//! predealt cards, Big Deal's RIPEMD-160 stream, and the simulation stream of `dealdex
//! dealer` (seeded shuffles around predealt cards, predealt suit lengths dealt directly).
//! Depends on the model only.

#![deny(missing_docs)]

// The model under its name in the engine (`crate::model::…`).
use dealdex_model as model;
use dealdex_model::classified;

pub mod bigdeal;
mod error;
/// Predealt suit lengths (dealer's `predeal spades(north)==10`) dealt directly, exactly
/// uniformly, without rejection.
pub mod lengths;
pub mod predeal;
pub mod shuffle;
pub mod stream;

pub use error::{Error, ErrorKind};
