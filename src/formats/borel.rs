//! Borel `.bhg` (FORMATS.md §9; Big Deal output.c).

use super::text::{show_byte, trim};
use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};
use crate::model::card::Seat;
use crate::model::deal::{Deal, Hand};

/// Borel `.bhg` (FORMATS.md §9; Big Deal output.c).
///
/// The file starts with one empty line; then one line of 52 letters a board: the four hands
/// clockwise starting with the dealer's, 13 letters each, every hand's cards ascending by card
/// number (1 = ♠A … 52 = ♣2); card `n` ≤ 26 is `'A' + n − 1`, else `'a' + n − 27`.
///
/// The file carries no board numbers, yet the rotation of each line depends on the board: the
/// line of board `b` starts with the dealer of board `b` (FORMATS.md §3: N, E, S, W for
/// boards 1, 2, 3, 4, …). dealdex takes `b` to be the line's position in the file (the first
/// board line is board 1), which is Big Deal's numbering when a set starts at board 1:
/// - the reader numbers nothing (the boards get numbers from the caller) and turns line `k`
///   (1-based, counting board lines only) with the dealer of board `k`, so a Borel file read
///   alone is numbered from 1;
/// - the writer turns each board by its position in the set (the first board of a
///   `write_boards` call is at `number − WriteOptions::first_board`, the others follow it), so
///   that reading the file back gives the same deals whatever board the set starts at and
///   whether or not numbers have gaps (for a consecutive set starting at 1, 5, 9, … this is
///   turning by the board number, as Big Deal does).
pub struct Borel;

static INFO: FormatInfo = FormatInfo {
    name: "borel",
    extensions: &["bhg"],
    description: "Borel .bhg letters (FORMATS.md §9)",
    board_numbers: false,
    max_board: None,
    streaming: true,
};

/// The Borel letter of the card with suited-order index `i` (0..52).
const LETTERS: &[u8; 52] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

impl DealFormat for Borel {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads one board per non-empty line (empty lines, the first one included, are skipped;
    /// `\r\n` and surrounding white space are accepted); boards are unnumbered.
    ///
    /// # Errors
    /// `LineColumn` for a line that is not 52 letters or holds a card twice; `Line` for a line
    /// that does not give each seat 13 cards.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, FormatError> {
        let mut boards = Vec::with_capacity(data.len() / 53);
        for (l, raw) in data.split(|&c| c == b'\n').enumerate() {
            let line = l + 1;
            let (body, lead) = trim(raw);
            if body.is_empty() {
                continue;
            }
            if body.len() != 52 {
                return Err(FormatError::new(
                    Location::LineColumn(line, lead + 1),
                    format!("found {} characters, expected 52 letters", body.len()),
                ));
            }
            let position = boards.len();
            let mut masks = [0u64; 4];
            let mut seen = 0u64;
            for (i, &c) in body.iter().enumerate() {
                let card = match c {
                    b'A'..=b'Z' => c - b'A',
                    b'a'..=b'z' => c - b'a' + 26,
                    _ => {
                        return Err(FormatError::new(
                            Location::LineColumn(line, lead + i + 1),
                            format!(
                                "{} is not a card letter (expected A-Z or a-z)",
                                show_byte(c)
                            ),
                        ));
                    }
                };
                let bit = 1u64 << card;
                if seen & bit != 0 {
                    return Err(FormatError::new(
                        Location::LineColumn(line, lead + i + 1),
                        format!("card letter {:?} appears twice", c as char),
                    ));
                }
                seen |= bit;
                masks[(position + i / 13) % 4] |= bit;
            }
            let deal = Deal::new(masks.map(Hand::from_mask)).map_err(|e| {
                FormatError::not_a_deal(Location::Line(line), format!("not a deal: {e}"))
            })?;
            boards.push(Board::unnumbered(deal));
        }
        Ok(boards)
    }

    /// Writes the empty first line.
    fn write_header(&self, _opts: &WriteOptions, out: &mut Vec<u8>) -> Result<(), FormatError> {
        out.push(b'\n');
        Ok(())
    }

    /// Writes one line a board, turned by the board's position in the set: the first board of
    /// this call is at `number − opts.first_board`, the others follow it (see the module
    /// documentation).
    ///
    /// # Errors
    /// A board without a number or numbered 0; nothing is appended then.
    fn write_boards(
        &self,
        boards: &[Board],
        opts: &WriteOptions,
        out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        self.check_boards(boards, opts)?;
        out.reserve(boards.len() * 53);
        // The set's first board is at position 0; this call's boards follow one another from
        // the position of the first one (u64 wrapping keeps residues mod 4: 4 divides 2^64).
        let start = boards
            .first()
            .and_then(|b| b.number)
            .unwrap_or(0)
            .wrapping_sub(opts.first_board);
        for (i, b) in boards.iter().enumerate() {
            push_line(out, &b.deal, start.wrapping_add(i as u64));
        }
        Ok(())
    }

    /// Writes one line turned by the board's position in the set, `number − opts.first_board`.
    fn write_board(&self, b: &Board, opts: &WriteOptions, out: &mut Vec<u8>) {
        let position = b.number.unwrap_or(0).wrapping_sub(opts.first_board);
        push_line(out, &b.deal, position);
    }
}

/// Appends the line of a deal at `position` in the set (0 = the set's first board), starting
/// with that board's dealer.
fn push_line(out: &mut Vec<u8>, deal: &Deal, position: u64) {
    let first = position % 4;
    let mut line = [b'\n'; 53];
    let mut k = 0;
    for h in 0..4 {
        let hand = deal.hand(Seat::from_index(first as usize + h));
        let mut m = hand.mask();
        while m != 0 {
            if let Some(slot) = line.get_mut(k) {
                *slot = LETTERS[m.trailing_zeros() as usize];
            }
            k += 1;
            m &= m - 1;
        }
    }
    out.extend_from_slice(&line);
}
