//! redeal's `-f long` output (anntzer/redeal on GitHub, commit 5709783): each deal as a
//! diagram, North above, West and East beside each other, South below, an empty line after:
//!
//! ```text
//! ␣␣␣␣␣␣␣
//!        ♠K32
//!        ♥A7
//!        ♦8653
//!        ♣KQT2
//! ␣␣␣␣␣␣␣␣␣␣␣␣␣␣
//! ♠T4           ♠AQ876
//! ♥KT8          ♥9654
//! ♦AQ92         ♦KJT
//! ♣J865         ♣A
//! ␣␣␣␣␣␣␣
//!        ♠J95
//!        ♥QJ32
//!        ♦74
//!        ♣9743
//!
//! ```
//!
//! (`␣` a space: the three parts each start with a line of 7, 14 and 7 spaces.)

use super::redeal::{Segment, hand_of, is_tries, push_suit, segments};
use super::{Board, DealFormat, Error, FileBoards, FormatInfo, InputPosition, WriteOptions};
use crate::model::card::{Seat, Suit};
use crate::model::deal::Hand;
use crate::model::text::column;

/// redeal's long output (redeal commit 5709783, `python -m redeal -f long`).
///
/// # Reading
/// - A deal is a run of non-empty lines made of parts of five lines: a line of spaces (7
///   for North's and South's part, 14 for West's and East's), then the suits ♠, ♥, ♦, ♣.
///   North's and South's lines are 7 spaces and the suit; a West-East line is West's suit
///   padded to 14 characters, then East's. The symbols may be ` S`, ` H`, ` D`, ` C`, as
///   redeal writes them without UTF-8.
/// - `-o` leaves hands out: North's or South's part is then missing, West's or East's column
///   empty. One hand missing is completed from the other three; two or more: the deal is
///   skipped and reported ([`FileBoards::skipped`], [`NO_COMPLETE_DEAL`](super::NO_COMPLETE_DEAL));
///   [`RedealLong::read_hands`] gives the hands shown.
/// - Lines starting `Tries:` and empty lines between deals are skipped. No board numbers,
///   dealer or vulnerability.
///
/// # Writing
/// redeal's UTF-8 diagram of the four hands, an empty line after it.
///
/// # Errors
/// `LineColumn` for a part that does not start with 7 or 14 spaces, a line that is not the
/// suit due, a suit in neither West's nor East's column, a hand shown in some lines of its
/// part only, parts out of order, a bad byte (as [`super::Redeal`]); `Line` for hands that are
/// not a deal; `Truncated` for a part of fewer than five lines.
pub struct RedealLong;

static INFO: FormatInfo = FormatInfo::new(
    "redeal-long",
    &["redeal-long"],
    "redeal's -f long diagrams (redeal 5709783)",
);

/// The column where East's suits start in a West-East line.
const EAST: usize = 14;

/// The spaces that open North's and South's part.
const SIDE: usize = 7;

impl RedealLong {
    /// The hands every deal shows, in file order, by seat (N, E, S, W), `None` for a hand
    /// redeal's `-o` left out; with the 1-based line where each deal starts.
    ///
    /// # Errors
    /// As [`RedealLong`] reading.
    pub fn read_hands(&self, data: &[u8]) -> Result<Vec<super::dealer_ew::ShownHands>, Error> {
        let lines: Vec<&[u8]> = data
            .split(|&c| c == b'\n')
            .map(|raw| raw.strip_suffix(b"\r").unwrap_or(raw))
            .collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            if lines[i].is_empty() || is_tries(lines[i]) {
                i += 1;
                continue;
            }
            let start = i;
            let mut end = i;
            while end < lines.len() && !lines[end].is_empty() {
                end += 1;
            }
            out.push((start + 1, read_block(&lines, start, end)?));
            i = end;
        }
        Ok(out)
    }
}

/// The hands of the deal in `lines[start..end]`.
fn read_block(lines: &[&[u8]], start: usize, end: usize) -> Result<[Option<Hand>; 4], Error> {
    let mut hands: [Option<Hand>; 4] = [None; 4];
    let mut seen_we = false;
    let mut p = start;
    while p < end {
        let head = lines[p];
        let l = p + 1;
        if !head.iter().all(|&c| c == b' ') || (head.len() != SIDE && head.len() != EAST) {
            return Err(Error::malformed(
                InputPosition::at_line_column(l, 1),
                "expected a line of 7 spaces (North's or South's part) or 14 (West's and \
                 East's) before the four suits",
            ));
        }
        if p + 5 > end {
            return Err(Error::truncated(
                InputPosition::at_line(l),
                format!("the part has {} suit lines, expected 4", end - p - 1),
            ));
        }
        let suits = &lines[p + 1..p + 5];
        if head.len() == SIDE {
            let seat = if seen_we { Seat::South } else { Seat::North };
            if hands[seat.index()].is_some() || (seat == Seat::South && p + 5 < end) {
                return Err(Error::malformed(
                    InputPosition::at_line_column(l, 1),
                    "parts out of order (expected North's, West's and East's, South's)",
                ));
            }
            hands[seat.index()] = Some(side_hand(suits, p, seat)?);
        } else {
            if seen_we {
                return Err(Error::malformed(
                    InputPosition::at_line_column(l, 1),
                    "a second West-East part in one deal",
                ));
            }
            seen_we = true;
            let [west, east] = west_east_hands(suits, p)?;
            hands[Seat::West.index()] = west;
            hands[Seat::East.index()] = east;
        }
        p += 5;
    }
    if !seen_we {
        return Err(Error::malformed(
            InputPosition::at_line_column(start + 1, 1),
            "a deal without West's and East's part (14 spaces, then four lines)",
        ));
    }
    Ok(hands)
}

/// An error at byte `off` of `line`, suit line `k` (0..4) of the part whose head is
/// `lines[p]`.
fn suit_line_error(p: usize, k: usize, line: &[u8]) -> impl Fn((usize, String)) -> Error {
    move |(off, m)| {
        Error::malformed(
            InputPosition::at_line_column(p + k + 2, column(line, off)),
            m,
        )
    }
}

/// The hand of the suits shown (`segs`), an error at the part's first suit line
/// (`suits[0]`, the part's head being `lines[p]`).
fn part_hand(segs: &[Segment], suits: &[&[u8]], p: usize) -> Result<Hand, Error> {
    hand_of(segs).map_err(|(off, m)| {
        Error::malformed(
            InputPosition::at_line_column(p + 2, column(suits[0], off)),
            m,
        )
    })
}

/// North's or South's hand (`seat`) from a part's four suit lines (`suits`, after the head
/// `lines[p]`): each line holds its suit alone, after 7 spaces.
fn side_hand(suits: &[&[u8]], p: usize, seat: Seat) -> Result<Hand, Error> {
    let mut segs = Vec::with_capacity(4);
    for (k, line) in suits.iter().enumerate() {
        let at = suit_line_error(p, k, line);
        let s = segments(line).map_err(&at)?;
        match s[..] {
            [one] if one.suit != k => return Err(at((one.byte, suit_due(k)))),
            [one] if one.col == SIDE || one.col == SIDE + 1 => segs.push(one),
            _ => {
                return Err(at((
                    0,
                    format!("expected {seat}'s suit after 7 spaces, alone on the line"),
                )));
            }
        }
    }
    part_hand(&segs, suits, p)
}

/// West's and East's hands from the West-East part's four suit lines (`suits`, after the
/// head `lines[p]`), `None` for a hand not shown: West's suits start in the first column,
/// East's in the 15th; a hand is shown in all four lines (a void as its bare symbol) or in
/// none.
fn west_east_hands(suits: &[&[u8]], p: usize) -> Result<[Option<Hand>; 2], Error> {
    // Each line's West and East suit, when shown.
    let mut cols: [[Option<Segment>; 4]; 2] = [[None; 4]; 2];
    for (k, line) in suits.iter().enumerate() {
        let at = suit_line_error(p, k, line);
        for s in segments(line).map_err(&at)? {
            if s.suit != k {
                return Err(at((s.byte, suit_due(k))));
            }
            let side = if s.col <= 1 { 0 } else { 1 };
            if (side == 1 && s.col < EAST) || cols[side][k].is_some() {
                return Err(at((
                    s.byte,
                    "a suit in neither West's column (from the first character) nor \
                     East's (from the 15th), or two in one"
                        .into(),
                )));
            }
            cols[side][k] = Some(s);
        }
    }
    let mut hands = [None; 2];
    for (side, seat) in [(0, Seat::West), (1, Seat::East)] {
        let shown: Vec<_> = cols[side].iter().flatten().copied().collect();
        if shown.is_empty() {
            continue;
        }
        if let Some(k) = cols[side].iter().position(Option::is_none) {
            return Err(Error::malformed(
                InputPosition::at_line_column(p + k + 2, 1),
                format!("{seat}'s suit is missing from this line (shown in the others)"),
            ));
        }
        hands[side] = Some(part_hand(&shown, suits, p)?);
    }
    Ok(hands)
}

/// The message for a suit line holding another suit than line `k`'s.
fn suit_due(k: usize) -> String {
    format!(
        "expected {} on this line (each part gives ♠, ♥, ♦, ♣ in turn)",
        Suit::from_index(k).symbol()
    )
}

impl DealFormat for RedealLong {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads every deal; those with two or more hands left out are skipped.
    ///
    /// # Errors
    /// See [`RedealLong`].
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        super::boards_of_shown_hands(self.read_hands(data)?)
    }

    /// Writes redeal's UTF-8 diagram (see [`RedealLong`]).
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        let side = |out: &mut Vec<u8>, seat: Seat| {
            out.extend_from_slice(b"       \n");
            for suit in Suit::ALL {
                out.extend_from_slice(b"       ");
                push_suit(out, b.deal.hand(seat), suit);
                out.push(b'\n');
            }
        };
        side(out, Seat::North);
        out.extend_from_slice(&[b' '; EAST]);
        out.push(b'\n');
        for suit in Suit::ALL {
            let start = out.len();
            push_suit(out, b.deal.hand(Seat::West), suit);
            // Padded in characters: the symbol is one character of three bytes.
            let chars = out.len() - start - 2;
            out.resize(out.len() + EAST.saturating_sub(chars), b' ');
            push_suit(out, b.deal.hand(Seat::East), suit);
            out.push(b'\n');
        }
        side(out, Seat::South);
        out.push(b'\n');
    }
}
