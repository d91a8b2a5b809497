//! redeal's default (`-f short`) output (anntzer/redeal on GitHub, commit 5709783, run as
//! `python -m redeal`): one deal a line, the hands N, E, S, W separated by a space, each
//! suit its symbol and its ranks, then redeal's `Tries: N` after an empty line:
//!
//! ```text
//! ♠K32♥A7♦8653♣KQT2 ♠AQ876♥9654♦KJT♣A ♠J95♥QJ32♦74♣9743 ♠T4♥KT8♦AQ92♣J865
//!
//! Tries: 1
//! ```
//!
//! When its standard output is not UTF-8, redeal writes ` S`, ` H`, ` D`, ` C` (a space and
//! the letter) instead of the symbols. The suit segments here are shared with
//! [`super::redeal_long`].

use super::dealer_all::lines_but;
use super::text::show_byte;
use super::{Board, DealFormat, Error, FileBoards, FormatInfo, InputPosition, WriteOptions};
use crate::model::card::{RANK_LETTERS, Seat, Suit};
use crate::model::deal::{Deal, Hand};
use crate::model::text::column;

/// redeal's short output (redeal commit 5709783, `python -m redeal`, its default `-f short`).
///
/// # Reading
/// - Each line is a deal: hands in the order N, E, S, W, each `♠…♥…♦…♣…` (all four suits,
///   an empty one a void, ranks `AKQJT98765432`), or with the letters `S`, `H`, `D`, `C` as
///   redeal writes them without UTF-8; spaces between suits and hands are free.
/// - `-o` prints fewer hands and does not say whose: a line of one to three hands is
///   skipped and reported ([`FileBoards::skipped`],
///   [`NO_COMPLETE_DEAL`](super::NO_COMPLETE_DEAL), with a warning), since the seats cannot
///   be told.
/// - Lines starting `Tries:` and empty lines are skipped. No board numbers, dealer or
///   vulnerability.
///
/// # Writing
/// redeal's UTF-8 line: the four hands from North with the symbols `♠♥♦♣`, ranks
/// descending, a space between hands, `\n` (without the `Tries:` line).
///
/// # Errors
/// `LineColumn` (column in characters) for a byte that is not a suit symbol, rank or space,
/// a rank before any suit, a rank twice in a suit, suits out of order, more than four hands;
/// `Line` for four hands that are not a deal.
pub struct Redeal;

static INFO: FormatInfo = FormatInfo::new(
    "redeal",
    &["redeal"],
    "redeal's short output, ♠♥♦♣ hands one deal a line (redeal 5709783)",
);

/// One suit of a redeal hand as printed: where its symbol is and the ranks after it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    /// The symbol's 0-based byte offset in the line.
    pub byte: usize,
    /// The symbol's 0-based column in characters (redeal pads by characters).
    pub col: usize,
    /// The suit's index (0 = ♠ … 3 = ♣).
    pub suit: usize,
    /// The ranks, bit 0 the ace.
    pub mask: u16,
}

/// The suit symbol at byte `i` of `line`: its suit index and length in bytes.
fn symbol(line: &[u8], i: usize) -> Option<(usize, usize)> {
    match line.get(i..i + 3) {
        Some([0xE2, 0x99, 0xA0]) => return Some((0, 3)),
        Some([0xE2, 0x99, 0xA5]) => return Some((1, 3)),
        Some([0xE2, 0x99, 0xA6]) => return Some((2, 3)),
        Some([0xE2, 0x99, 0xA3]) => return Some((3, 3)),
        _ => {}
    }
    match line.get(i) {
        Some(b'S') => Some((0, 1)),
        Some(b'H') => Some((1, 1)),
        Some(b'D') => Some((2, 1)),
        Some(b'C') => Some((3, 1)),
        _ => None,
    }
}

/// The suit segments of a redeal line, in order.
///
/// # Errors
/// The byte offset and message of a byte that is not a symbol, rank or space, a rank before
/// any symbol, or a rank twice in one suit.
pub(crate) fn segments(line: &[u8]) -> Result<Vec<Segment>, (usize, String)> {
    let mut out: Vec<Segment> = Vec::new();
    let mut i = 0;
    let mut col = 0;
    while i < line.len() {
        if let Some((suit, len)) = symbol(line, i) {
            out.push(Segment {
                byte: i,
                col,
                suit,
                mask: 0,
            });
            i += len;
            col += 1;
            continue;
        }
        let c = line[i];
        if c == b' ' {
            i += 1;
            col += 1;
            continue;
        }
        let Some(r) = RANK_LETTERS.iter().position(|&x| x == c) else {
            return Err((
                i,
                format!(
                    "{} is not a card (expected a suit ♠♥♦♣ or S H D C, a rank \
                     AKQJT98765432, or a space)",
                    show_byte(c)
                ),
            ));
        };
        let Some(seg) = out.last_mut() else {
            return Err((i, "a rank before any suit symbol".into()));
        };
        if seg.mask & (1 << r) != 0 {
            return Err((i, "a rank twice in one suit".into()));
        }
        seg.mask |= 1 << r;
        i += 1;
        col += 1;
    }
    Ok(out)
}

/// The hand of four segments in the order ♠, ♥, ♦, ♣.
///
/// # Errors
/// The byte offset and message of the first segment out of order.
pub(crate) fn hand_of(segs: &[Segment]) -> Result<Hand, (usize, String)> {
    let mut mask = 0u64;
    for (k, s) in segs.iter().enumerate() {
        if s.suit != k {
            return Err((
                s.byte,
                format!(
                    "{} where {} was due (each hand gives ♠, ♥, ♦, ♣ in turn)",
                    Suit::from_index(s.suit).symbol(),
                    Suit::from_index(k).symbol()
                ),
            ));
        }
        mask |= u64::from(s.mask) << (13 * k);
    }
    Ok(Hand::from_mask(mask))
}

/// Appends a suit as redeal prints it: its symbol, then the ranks descending.
pub(crate) fn push_suit(out: &mut Vec<u8>, hand: Hand, suit: Suit) {
    let mut buf = [0u8; 4];
    out.extend_from_slice(suit.symbol().encode_utf8(&mut buf).as_bytes());
    super::text::push_holding(out, hand.suit_mask(suit));
}

/// True for redeal's closing `Tries: N` line.
pub(crate) fn is_tries(line: &[u8]) -> bool {
    line.starts_with(b"Tries:")
}

impl DealFormat for Redeal {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads every line; lines of fewer than four hands are skipped (see [`Redeal`]).
    ///
    /// # Errors
    /// See [`Redeal`].
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        let mut read = FileBoards::default();
        for (l, line) in lines_but(data, is_tries) {
            let at = |(off, m): (usize, String)| {
                Error::malformed(InputPosition::at_line_column(l, column(line, off)), m)
            };
            let segs = segments(line).map_err(at)?;
            if segs.len() > 16 {
                return Err(at((
                    segs[16].byte,
                    "more than four hands on the line".into(),
                )));
            }
            let mut hands = Vec::with_capacity(4);
            for chunk in segs.chunks(4) {
                if chunk.len() < 4 {
                    return Err(at((
                        line.len(),
                        format!(
                            "the last hand has {} suits, expected 4 (♠, ♥, ♦, ♣)",
                            chunk.len()
                        ),
                    )));
                }
                hands.push(hand_of(chunk).map_err(at)?);
            }
            match <[Hand; 4]>::try_from(hands) {
                Ok(hands) => {
                    let deal = Deal::new(hands)
                        .map_err(|e| Error::not_a_deal(InputPosition::at_line(l), e.to_string()))?;
                    read.boards.push(Board::unnumbered(deal));
                }
                Err(hands) => {
                    if read.skipped.is_empty() {
                        read.warnings.push(format!(
                            "line {l}: {} hands without their seats (redeal's -o): lines of \
                             fewer than four hands are skipped",
                            hands.len()
                        ));
                    }
                    read.skip_incomplete(None, Some(l));
                }
            }
        }
        Ok(read)
    }

    /// Writes redeal's UTF-8 line (see [`Redeal`]).
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        for seat in Seat::ALL {
            if seat != Seat::North {
                out.push(b' ');
            }
            for suit in Suit::ALL {
                push_suit(out, b.deal.hand(seat), suit);
            }
        }
        out.push(b'\n');
    }
}
