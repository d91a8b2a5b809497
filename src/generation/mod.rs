//! Where deals come from: dealdex's seeded ChaCha20 stream (with `--where` filtering),
//! predealt cards, and Big Deal's RIPEMD-160 stream.

pub mod bigdeal;
pub(crate) mod predeal;
pub mod shuffle;
pub(crate) mod stream;
