//! HRF (FORMATS.md §10, from the Duplimate "Convert" document; only partly known).
//!
//! 128 bytes a board: the board number in decimal, then the hands of N, E, S and W, each as
//! `S…H…D…C…` (every suit letter written, ranks descending), e.g.
//! `1SJ987HJT7643DA4CQSHKQ2DQT9CAK98543SAQ42HA8DKJ762CJ2SKT653H95D853CT76`.
//! What the rest of the record holds is unpublished: dealdex assumes nothing that matters
//! and writes spaces up to byte 128; the reader ignores whatever follows the four hands.

use super::bri::read_record_boards;
use super::text::{parse_letter_hand, push_letter_hand, push_u64, show_byte};
use super::{Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions};
use crate::model::card::Seat;
use crate::model::deal::{Deal, Hand};

/// HRF (FORMATS.md §10): 128-byte records, the board number and the four hands N, E, S, W as
/// `S…H…D…C…`, padded with spaces (the rest of the record is unpublished; see the module
/// documentation).
pub struct Hrf;

static INFO: FormatInfo =
    FormatInfo::new("hrf", &["hrf"], "HRF, 128 bytes a board (FORMATS.md §10)").numbered();

/// Bytes a record.
const RECORD: usize = 128;

fn read_record(rec: &[u8; RECORD], r: usize, base: u64) -> Result<Board, Error> {
    let byte_err = |off: usize, msg: String| {
        Error::malformed(InputPosition::at_record(r, base + off as u64), msg)
    };
    let digits = rec.iter().take_while(|c| c.is_ascii_digit()).count();
    let number = std::str::from_utf8(&rec[..digits])
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .filter(|&n| n > 0)
        .ok_or_else(|| {
            let found = if digits == 0 {
                rec.first().map_or("nothing".into(), |&c| show_byte(c))
            } else {
                format!("{:?}", String::from_utf8_lossy(&rec[..digits]))
            };
            byte_err(
                0,
                format!("found {found}, expected the board number (1, 2, …)"),
            )
        })?;
    let mut hands = [Hand::EMPTY; 4];
    let mut pos = digits;
    for (k, h) in hands.iter_mut().enumerate() {
        let (hand, end) =
            parse_letter_hand(rec, pos, true).map_err(|e| byte_err(e.offset, e.message))?;
        if end == pos {
            let found = rec
                .get(pos)
                .map_or("the end of the record".into(), |&c| show_byte(c));
            return Err(byte_err(
                pos,
                format!(
                    "found {found}, expected {}'s hand (S…H…D…C…)",
                    Seat::from_index(k).name()
                ),
            ));
        }
        *h = hand;
        pos = end;
    }
    let deal = Deal::new(hands).map_err(|e| {
        Error::not_a_deal(
            InputPosition::at_record(r, base),
            format!("not a deal: {e}"),
        )
    })?;
    Ok(Board::new(number, deal))
}

impl DealFormat for Hrf {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads 128-byte records: the board number, then four hands; the rest is ignored.
    ///
    /// # Errors
    /// `Record(r, offset)`: at the record's start for a truncated record or hands that are
    /// not a deal, at the offending byte for a missing board number or a bad hand.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        read_record_boards::<RECORD>(data, read_record)
    }

    /// Writes 128 bytes a board: number, hands N, E, S, W, spaces.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        let start = out.len();
        push_u64(out, b.number.unwrap_or(0));
        for seat in Seat::ALL {
            push_letter_hand(out, b.deal.hand(seat));
        }
        out.resize(start + RECORD, b' ');
    }
}
