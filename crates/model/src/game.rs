//! What a game records beside its deal: tags, the auction, the play and commentary (PBN
//! games and LIN records), kept so that conversions between the formats that carry it lose
//! nothing. The formats read and write it (`crate::formats`, which makes it public); the
//! contract rules read it (`crate::contract`).

use crate::card::{Card, Seat};

/// What a PBN game or LIN record holds beyond the deal, kept so that conversions between the
/// formats that carry it lose nothing.
///
/// Two records are equal when they say the same: their [`GameRecord::source`] (how the file
/// spelled them) is not compared.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// Every tag in file order, as `(name, value)`, unknown ones included (PBN tags; LIN
    /// fields are mapped to the PBN tag names they correspond to, e.g. players). A PBN game in
    /// dealdex's own export layout keeps only a known Event here: its other tags are `?` or
    /// held by the board's fields.
    pub tags: Vec<(String, String)>,
    /// The auction, if recorded.
    pub auction: Option<Auction>,
    /// The play, if recorded.
    pub play: Option<Play>,
    /// Commentary blocks (`{…}`) and `;` comment lines, in order, without their delimiters.
    pub comments: Vec<String>,
    /// The record's own bytes in the file it was read from, when its reader keeps them (LIN):
    /// a writer of the same format writes them back unchanged while the board still says what
    /// was read ([`SourceText::digest`]), so that a file read and written again is the same
    /// file byte for byte.
    pub source: Option<Box<SourceText>>,
}

impl PartialEq for GameRecord {
    fn eq(&self, other: &GameRecord) -> bool {
        self.tags == other.tags
            && self.auction == other.auction
            && self.play == other.play
            && self.comments == other.comments
    }
}

impl Eq for GameRecord {}

/// A record's bytes as its file has them ([`GameRecord::source`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceText {
    /// The name of the format that read them (e.g. `lin`); only its writer uses them.
    pub format: &'static str,
    /// The bytes, from the end of the previous record to the start of the next (the first
    /// record's include what comes before it, e.g. a LIN file's `vg|`, `rs|` and `pn|`
    /// header; the last one's what comes after it).
    pub bytes: Vec<u8>,
    /// The reader's digest of the board as read from these bytes; a writer compares it with
    /// the digest of the board it is given, and writes the bytes only when they are equal.
    pub digest: u64,
}

impl GameRecord {
    /// The value of the first tag called `name`, trimmed; `None` when there is none.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.trim())
    }
}

/// An auction: the first caller and the calls in order (PBN tokens such as `1NT`, `Pass`,
/// `X`, `XX`, `AP`, with note references like `=1=` kept as their own tokens).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Auction {
    /// The seat that makes the first call (the dealer).
    pub first: Seat,
    /// The call tokens in order.
    pub calls: Vec<String>,
    /// Notes `(number, text)` referred to by `=n=` tokens.
    pub notes: Vec<(u32, String)>,
}

/// The play (PBN `[Play]` section, FORMATS.md §4): the opening leader and, for each trick, the
/// four cards in PBN's own column layout: `tricks[t][j]` is the card that seat
/// `leader.rotate(j)` played to trick `t`, whoever led that trick (so the columns are fixed
/// seats, not play order). A card not recorded is `None` (PBN `-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The seat that leads to the first trick (the `[Play]` tag's value).
    pub leader: Seat,
    /// Tricks in order; `tricks[t][j]` is the card of seat `leader.rotate(j)` in trick `t`.
    pub tricks: Vec<[Option<Card>; 4]>,
}
