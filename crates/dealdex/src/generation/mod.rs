//! Where deals come from: dealdex's seeded ChaCha20 stream (with `--where` filtering),
//! predealt cards, and Big Deal's RIPEMD-160 stream.

pub mod bigdeal;
/// Predealt suit lengths (dealer's `predeal spades(north)==10`) dealt directly, exactly
/// uniformly, without rejection.
pub mod lengths;
pub(crate) mod predeal;
pub mod shuffle;
pub(crate) mod stream;
