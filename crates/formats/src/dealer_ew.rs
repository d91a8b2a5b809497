//! Debian `dealer`'s `printew` (Hans van Staveren's dealer, Debian package 20211121+ds-1):
//! West's and East's hands side by side, one line per suit, an empty line after each deal,
//! as bidding practice for the East-West pair:
//!
//! ```text
//! A K Q T 4           5
//! A Q T               8 3 2
//! -                   J T 8 7 6
//! K 8 7 6 3           A Q 9 4
//!
//! ```

use super::dealer_all::{content_lines, read_columns, suit_lines};
use super::{Board, DealFormat, DealerAll, Error, FileBoards, FormatInfo, WriteOptions};
use crate::model::card::Seat;
use crate::model::deal::Hand;

/// Debian `dealer`'s `printew` (dealer 20211121): four suit lines per deal (♠ first), West's
/// column padded to 20 characters then East's, each card its rank and a space, `-` for a void,
/// then an empty line. No board numbers, dealer or vulnerability.
///
/// # Reading
/// Two hands are not a deal: every deal of the file is skipped and reported
/// ([`FileBoards::skipped`], [`NO_COMPLETE_DEAL`](super::NO_COMPLETE_DEAL)), as the skip rule wants for two hands
/// missing. [`DealerEw::read_hands`] gives the two hands themselves. The columns are read as
/// [`super::DealerAll`] reads them (a West suit of 10 cards or more runs into East's column:
/// the split where each hand holds 13 cards is kept); dealer's statistics lines are skipped.
///
/// # Writing
/// dealer's own bytes for West's and East's hands of each board.
///
/// # Errors
/// `LineColumn` for a bad byte or a suit line that does not split into two columns; `Line`
/// for hands that are not 13 distinct cards each; `Truncated` when the file ends inside a deal.
pub struct DealerEw;

static INFO: FormatInfo = FormatInfo::new(
    "dealer-ew",
    &["ew"],
    "Debian dealer's printew, West and East only (dealer 20211121)",
);

/// The hands one deal of a file shows ([`DealerEw::read_hands`],
/// [`super::RedealLong::read_hands`]): the 1-based line where the deal starts and the hands
/// by seat (N, E, S, W), `None` for a hand the file does not show.
pub type ShownHands = (usize, [Option<Hand>; 4]);

/// The seats of `printew`'s columns.
const SEATS: [Seat; 2] = [Seat::West, Seat::East];

impl DealerEw {
    /// The hands of every deal in file order, by seat (N, E, S, W): West's and East's, `None`
    /// for North and South; with the 1-based line where each deal starts.
    ///
    /// # Errors
    /// As [`DealerEw`] reading.
    pub fn read_hands(&self, data: &[u8]) -> Result<Vec<ShownHands>, Error> {
        let mut out = Vec::new();
        let mut lines = content_lines(data).peekable();
        while let Some(&(l, _)) = lines.peek() {
            let suits = suit_lines(&mut lines, l, None)?;
            out.push((l, read_columns(&suits, &SEATS)?));
        }
        Ok(out)
    }
}

impl DealFormat for DealerEw {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// No boards: see [`DealerEw::read_all`].
    ///
    /// # Errors
    /// As [`DealerEw`] reading.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        Ok(self.read_all(data)?.boards)
    }

    /// Every deal skipped for want of North's and South's hands.
    ///
    /// # Errors
    /// As [`DealerEw`] reading.
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        // Two hands missing: never a deal, but the hands must still be sound.
        super::boards_of_shown_hands(self.read_hands(data)?)
    }

    /// Writes West's and East's hands in dealer's `printew` layout (dealer's columns,
    /// [`DealerAll::push_columns`]); `dealdex dealer`'s `printew` writes its deals through this.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        DealerAll::push_columns(out, &SEATS.map(|s| b.deal.hand(s)));
        out.push(b'\n');
    }
}
