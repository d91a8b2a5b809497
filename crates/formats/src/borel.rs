//! Borel `.bhg` (FORMATS.md §9; Big Deal output.c).

use super::text::{show_byte, trim};
use super::{
    Board, DealFormat, Error, FileBoards, FormatInfo, InputPosition, ReadOptions, WriteOptions,
    number_records,
};
use crate::model::card::Seat;
use crate::model::deal::{Deal, Hand};

/// Borel `.bhg` (FORMATS.md §9; Big Deal output.c `print_borel`).
///
/// The file starts with one empty line; then one line of 52 letters a board: the four hands
/// clockwise starting with the dealer's, 13 letters each, every hand's cards ascending by card
/// number (1 = ♠A … 52 = ♣2); card `n` ≤ 26 is `'A' + n − 1`, else `'a' + n − 27`.
///
/// The file carries no board numbers, yet each line starts with its board's dealer
/// (FORMATS.md §3: N, E, S, W for boards 1, 2, 3, 4, …, whatever board the set starts at):
/// - the reader takes the lines to be consecutive boards from
///   [`ReadOptions::first_board`](super::ReadOptions) (1 when not given) and turns each line by
///   its board's dealer; [`DealFormat::read`] reads from board 1. A file of boards 11–20 read
///   without `--first-board 11` has every deal turned 180° (as with Big Deal's own files,
///   nothing in the file tells);
/// - the writer turns each board by its number's dealer, as Big Deal does.
pub struct Borel;

static INFO: FormatInfo =
    FormatInfo::new("borel", &["bhg"], "Borel .bhg letters (FORMATS.md §9)").board_set();

/// The warning of a Borel file read without its first board.
const UNTOLD_FIRST_BOARD: &str = "read as boards 1, 2, …: a Borel file carries no board \
    numbers, and each line starts with its board's dealer, so a set that starts at another \
    board has its hands on the wrong seats unless the first board is given";

/// The Borel letter of the card with suited-order index `i` (0..52).
const LETTERS: &[u8; 52] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

impl DealFormat for Borel {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads one board per non-empty line (empty lines, the first one included, are skipped;
    /// `\r\n` and surrounding white space are accepted), the first line as board 1's.
    ///
    /// # Errors
    /// `LineColumn` for a line that is not 52 letters or holds a card twice; `Line` for a line
    /// that does not give each seat 13 cards.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        read_lines(data, 1)
    }

    /// Reads the lines as boards `first_board`, `first_board + 1`, … (1 when not given, with
    /// a warning: the seats depend on it), each turned by its board's dealer, and numbers them
    /// so.
    ///
    /// # Errors
    /// As [`Borel::read`].
    fn read_numbered(&self, data: &[u8], opts: &ReadOptions) -> Result<FileBoards, Error> {
        let first = opts.first_board.unwrap_or(1);
        let mut read = FileBoards {
            boards: read_lines(data, first)?,
            ..FileBoards::default()
        };
        if opts.first_board.is_none() && !read.boards.is_empty() {
            read.warnings.push(UNTOLD_FIRST_BOARD.to_owned());
        }
        number_records(&mut read, first);
        Ok(read)
    }

    /// Writes the empty first line.
    fn write_header(&self, _opts: &WriteOptions, out: &mut Vec<u8>) -> Result<(), Error> {
        out.push(b'\n');
        Ok(())
    }

    /// Writes one line turned by the board's dealer (the dealer of its number; a board
    /// without a number is written as board 1).
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        push_line(out, &b.deal, b.number.unwrap_or(1));
    }
}

/// Reads the board lines of a file, the first one as board `first`'s: line `k` (0-based,
/// counting board lines) starts with the dealer of board `first + k`.
fn read_lines(data: &[u8], first: u64) -> Result<Vec<Board>, Error> {
    // Seat index (N = 0) of the first line's dealer: board 1 is North's.
    let first_dealer = (first.wrapping_sub(1) % 4) as usize;
    let mut boards = Vec::with_capacity(data.len() / 53);
    for (l, raw) in data.split(|&c| c == b'\n').enumerate() {
        let line = l + 1;
        let (body, lead) = trim(raw);
        if body.is_empty() {
            continue;
        }
        if body.len() != 52 {
            return Err(Error::malformed(
                InputPosition::at_line_column(line, lead + 1),
                format!("found {} characters, expected 52 letters", body.len()),
            ));
        }
        let dealer = first_dealer + boards.len();
        let mut masks = [0u64; 4];
        let mut seen = 0u64;
        for (i, &c) in body.iter().enumerate() {
            let card = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                _ => {
                    return Err(Error::malformed(
                        InputPosition::at_line_column(line, lead + i + 1),
                        format!(
                            "{} is not a card letter (expected A-Z or a-z)",
                            show_byte(c)
                        ),
                    ));
                }
            };
            let bit = 1u64 << card;
            if seen & bit != 0 {
                return Err(Error::malformed(
                    InputPosition::at_line_column(line, lead + i + 1),
                    format!("card letter {:?} appears twice", c as char),
                ));
            }
            seen |= bit;
            masks[(dealer + i / 13) % 4] |= bit;
        }
        let deal = Deal::new(masks.map(Hand::from_mask)).map_err(|e| {
            Error::not_a_deal(InputPosition::at_line(line), format!("not a deal: {e}"))
        })?;
        boards.push(Board::unnumbered(deal));
    }
    Ok(boards)
}

/// Appends the line of board `number`'s deal, starting with that board's dealer.
fn push_line(out: &mut Vec<u8>, deal: &Deal, number: u64) {
    let first = (number.wrapping_sub(1) % 4) as usize;
    let mut line = [b'\n'; 53];
    let mut k = 0;
    for h in 0..4 {
        let hand = deal.hand(Seat::from_index(first + h));
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
