//! The deal model and its codecs: seats, suits, ranks and cards; hands and deals; boards
//! (dealer and vulnerability); the 13-byte index; hand-record numbers in the three schemes;
//! PBN deal strings; and hand features (HCP, shape, …).

pub(crate) mod board;
pub(crate) mod card;
pub(crate) mod deal;
pub(crate) mod deal_string;
pub mod features;
pub(crate) mod index;
pub(crate) mod number;
