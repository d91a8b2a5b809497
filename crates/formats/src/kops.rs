//! KOPS `.rzd` (FORMATS.md §9; Big Deal output.c).
//!
//! A 13-byte header — the board count as 2 bytes little-endian, then 11 spaces — and 13 bytes
//! a board: byte `r` (rank `r`, 0 = ace … 12 = deuce) is
//! `seat(♠r) << 6 | seat(♥r) << 4 | seat(♦r) << 2 | seat(♣r)` with N = 0, E = 1, S = 2, W = 3.
//! The file carries no board numbers, dealers or vulnerability.
//!
//! This module also holds the rank-byte coding that CDS shares ([`push_rank_bytes`],
//! [`deal_from_rank_bytes`]).

use super::{
    Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions, check_numbers, write_each,
};
use crate::model::card::Seat;
use crate::model::deal::{Deal, Hand};

/// KOPS `.rzd` (FORMATS.md §9): 13-byte header with the board count, 13 bytes a board.
/// Not streaming: the header needs the count, so [`DealFormat::write_boards`] writes the whole
/// file (header included) in one call.
pub struct Kops;

static INFO: FormatInfo = FormatInfo::new("kops", &["rzd"], "KOPS .rzd (FORMATS.md §9)")
    .board_set()
    .whole();

/// KOPS seat codes by dealdex seat (N, E, S, W): N = 0, E = 1, S = 2, W = 3.
pub(crate) const KOPS_CODES: [u8; 4] = [0, 1, 2, 3];

/// Appends the 13 rank bytes of a deal (FORMATS.md §9): byte `r` (0 = ace … 12 = deuce) is
/// `code(♠r) << 6 | code(♥r) << 4 | code(♦r) << 2 | code(♣r)`, where `codes[seat.index()]` is
/// the format's two-bit code of each dealdex seat (KOPS: [`KOPS_CODES`]; CDS: W = 0 … S = 3).
pub(crate) fn push_rank_bytes(out: &mut Vec<u8>, deal: &Deal, codes: [u8; 4]) {
    let seats = deal.seat_codes();
    let mut bytes = [0u8; 13];
    for (r, b) in bytes.iter_mut().enumerate() {
        *b = codes[seats[r] as usize] << 6
            | codes[seats[13 + r] as usize] << 4
            | codes[seats[26 + r] as usize] << 2
            | codes[seats[39 + r] as usize];
    }
    out.extend_from_slice(&bytes);
}

/// Decodes 13 rank bytes (see [`push_rank_bytes`]); `seats[code]` is the dealdex seat of each
/// two-bit code. Extra bytes beyond 13 are ignored; missing ones leave their cards unplaced
/// (and so the deal invalid).
///
/// # Errors
/// The model's [`WrongCount`](crate::model::ErrorKind::WrongCount) or
/// [`DuplicateCard`](crate::model::ErrorKind::DuplicateCard) when the bytes do not give every
/// seat 13 cards.
pub(crate) fn deal_from_rank_bytes(
    bytes: &[u8],
    seats: [Seat; 4],
) -> Result<Deal, crate::model::Error> {
    let mut masks = [0u64; 4];
    for (r, &b) in bytes.iter().take(13).enumerate() {
        for (suit, shift) in [6u32, 4, 2, 0].into_iter().enumerate() {
            let seat = seats[(b >> shift & 3) as usize];
            masks[seat.index()] |= 1u64 << (suit * 13 + r);
        }
    }
    Deal::new(masks.map(Hand::from_mask))
}

/// The dealdex seat of each KOPS code.
const KOPS_SEATS: [Seat; 4] = [Seat::North, Seat::East, Seat::South, Seat::West];

/// The size of the header and of a record.
const RECORD: usize = 13;

impl DealFormat for Kops {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads the header and the records; boards are unnumbered.
    ///
    /// # Errors
    /// `Byte(0)` for a file shorter than the header or a count that differs from the number of
    /// records; `Record(r, offset)` for a truncated last record or one that is not a deal.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        let Some((header, body)) = data.split_at_checked(RECORD) else {
            return Err(Error::truncated(
                InputPosition::at_byte(0),
                format!(
                    "truncated header: {} of 13 bytes (expected a 2-byte board count and 11 spaces)",
                    data.len()
                ),
            ));
        };
        let count = u16::from_le_bytes([header[0], header[1]]) as usize;
        let records = body.len() / RECORD;
        let rest = body.len() % RECORD;
        if rest != 0 {
            let r = records + 1;
            return Err(Error::truncated(
                InputPosition::at_record(r, (RECORD + records * RECORD) as u64),
                format!("truncated record: {rest} of 13 bytes"),
            ));
        }
        if count != records {
            return Err(Error::malformed(
                InputPosition::at_byte(0),
                format!("the header gives {count} boards but the file holds {records} records"),
            ));
        }
        body.chunks_exact(RECORD)
            .enumerate()
            .map(|(i, rec)| {
                let deal = deal_from_rank_bytes(rec, KOPS_SEATS).map_err(|e| {
                    Error::not_a_deal(
                        InputPosition::at_record(i + 1, (RECORD + i * RECORD) as u64),
                        format!("not a deal: {e}"),
                    )
                })?;
                Ok(Board::unnumbered(deal))
            })
            .collect()
    }

    /// Checks that the boards are numbered (1 and up) and that their count fits the header.
    ///
    /// # Errors
    /// More than 65,535 boards (the count has 16 bits), or a board without a number or
    /// numbered 0.
    fn check_boards(&self, boards: &[Board], _opts: &WriteOptions) -> Result<(), Error> {
        check_numbers(&INFO, boards)?;
        board_count(boards).map(|_| ())
    }

    /// Writes the whole file: header with `boards.len()` as the count, then the records.
    fn write_checked(&self, boards: &[Board], opts: &WriteOptions, out: &mut Vec<u8>) {
        // check_boards has refused more boards than the count holds.
        let count = board_count(boards).unwrap_or(u16::MAX);
        out.reserve(RECORD * (boards.len() + 1));
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&[b' '; 11]);
        write_each(self, boards, opts, out);
    }

    /// Writes one 13-byte record (the header comes with [`DealFormat::write_checked`]).
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        push_rank_bytes(out, &b.deal, KOPS_CODES);
    }
}

/// The header's board count.
///
/// # Errors
/// More than 65,535 boards.
fn board_count(boards: &[Board]) -> Result<u16, Error> {
    u16::try_from(boards.len()).map_err(|_| {
        Error::unwritable(format!(
            "{} boards do not fit: kops holds at most 65535 (the count has 2 bytes)",
            boards.len()
        ))
    })
}
