//! The deal model and its codecs: seats, suits, ranks and cards; hands and deals; boards
//! (dealer and vulnerability); the 13-byte index; hand-record numbers in the three schemes;
//! PBN deal strings; and hand features (HCP, shape, …). Beside them, the bridge vocabulary
//! the layers above share: strains, contracts and tricks; the game a file records beside a
//! deal (tags, auction, play); and the text helpers of the letter codecs.
//!
//! The model is the bottom layer: it imports nothing of the crate but itself and the error
//! vocabulary (`.ci/layers.sh` checks it).

pub(crate) mod board;
pub(crate) mod card;
pub(crate) mod contract;
pub mod cpu;
pub(crate) mod deal;
pub(crate) mod deal_string;
pub mod features;
pub(crate) mod game;
pub(crate) mod index;
pub(crate) mod number;
pub(crate) mod text;
