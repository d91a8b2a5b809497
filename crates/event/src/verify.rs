//! Third-party verification helpers (SQUAREDEAL.md §4, step 4): which session a hand-record
//! file is, and a board-by-board comparison of its deals with the regenerated ones.

use std::ops::RangeInclusive;

use crate::model::board::Board;
use crate::model::deal::Deal;

/// What a file name says about the sessions it holds, within one phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameMatch {
    /// One session (its number, ≥ 1).
    Session(u32),
    /// The joined file of sessions `a..=b` (a < b), as SquareDeal writes `SWISS01-03`: their
    /// boards one after another.
    Joined(u32, u32),
}

/// A hand-record file recognised as (part of) an event: see [`super::Event::match_file`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileMatch {
    /// Phase number, 1-based.
    pub phase: u32,
    /// Which session or sessions.
    pub name: NameMatch,
    /// A reserve set (`…reserve`).
    pub reserve: bool,
}

impl FileMatch {
    /// The sessions the file holds, in order.
    pub fn sessions(&self) -> RangeInclusive<u32> {
        match self.name {
            NameMatch::Session(s) => s..=s,
            NameMatch::Joined(a, b) => a..=b,
        }
    }
}

/// The first board where a file and the event differ.
///
/// JSON: `{"position": 3, "board": 3, "found": "N:…", "expected": "N:…"}` (the deals as PBN
/// deal strings).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mismatch {
    /// 1-based position of the board in the file (and in the regenerated sequence).
    pub position: usize,
    /// The file's board number there, when it has one.
    pub board: Option<u64>,
    /// The file's deal there (`None`: the file has fewer boards).
    #[serde(serialize_with = "crate::model::text::option_as_text")]
    pub found: Option<Deal>,
    /// The event's deal there (`None`: the file has more boards).
    #[serde(serialize_with = "crate::model::text::option_as_text")]
    pub expected: Option<Deal>,
}

impl Mismatch {
    /// Where: `board N`, or `position N` when the file numbers no board there.
    pub fn at(&self) -> String {
        self.board
            .map_or(format!("position {}", self.position), |b| {
                format!("board {b}")
            })
    }
}

/// The result of comparing a file's boards with the event's deals, position by position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Boards the event makes for the file's sessions.
    pub expected: usize,
    /// Boards in the file.
    pub found: usize,
    /// Positions where the file's deal equals the event's (four hands compared).
    pub matches: usize,
    /// The first position that differs (or where one side has no board), if any.
    pub first_mismatch: Option<Mismatch>,
}

impl Comparison {
    /// True when the file has exactly the event's boards.
    pub fn ok(&self) -> bool {
        self.first_mismatch.is_none()
    }
}

/// Compares a file's boards with the deals the event makes, in order: the k-th board of the
/// file against the k-th deal (board numbers only label the boards, SQUAREDEAL.md §1).
///
/// ```
/// use dealdex::{Deal, Scheme, formats::Board};
/// let d1 = Deal::from_number(1, Scheme::Pavlicek).unwrap();
/// let d2 = Deal::from_number(2, Scheme::Pavlicek).unwrap();
/// let c = dealdex::event::compare(&[d1, d2], &[Board::new(17, d1), Board::new(18, d1)]);
/// assert_eq!((c.matches, c.first_mismatch.unwrap().board), (1, Some(18)));
/// ```
pub fn compare(expected: &[Deal], found: &[Board]) -> Comparison {
    let mut matches = 0;
    let mut first_mismatch = None;
    for k in 0..expected.len().max(found.len()) {
        let e = expected.get(k);
        let f = found.get(k);
        if let (Some(e), Some(f)) = (e, f)
            && *e == f.deal
        {
            matches += 1;
            continue;
        }
        if first_mismatch.is_none() {
            first_mismatch = Some(Mismatch {
                position: k + 1,
                board: f.and_then(|b| b.number),
                found: f.map(|b| b.deal),
                expected: e.copied(),
            });
        }
    }
    Comparison {
        expected: expected.len(),
        found: found.len(),
        matches,
        first_mismatch,
    }
}
