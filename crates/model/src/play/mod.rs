//! The play of the cards: play records and tricks (seed 000), positions during play as
//! seed 004 game states, and the card encodings of the seed documents.

pub mod encoding;
pub mod gamestate;
pub mod record;
