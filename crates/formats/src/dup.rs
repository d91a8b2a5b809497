//! Duplimate DUP files, 156 bytes a board (FORMATS.md §5; the Duplimate "Convert" document and
//! Big Deal output.c `print_dup_common`).
//!
//! | offset | bytes | content |
//! |---|---|---|
//! | 0 | 78 | BRI part: N, E, S as two-digit card numbers 01..52 (see [`super::Bri`]) |
//! | 78 | 68 | DGE part: N, E, S, W with CP437 suit symbols (see [`super::Dge`]) |
//! | 146 | 1 | `Y`: random hands |
//! | 147 | 1 | `N`: not counting backwards |
//! | 148 | 3 | the board the machine starts at, left-aligned, space-padded (Big Deal: `1`) |
//! | 151 | 2 | copies of each board, likewise (dealdex writes `0`, like Big Deal) |
//! | 153 | 3 | Big Deal: the number of boards, two digits (`05`, `10`, `28`) and a space |
//!
//! The deal is read from the BRI part. The DGE part must show the same deal unless it is all
//! spaces (the "blind" variant that keeps the cards off the machine's screen, which Big Deal
//! writes on board 1). DUP records carry no board numbers: Big Deal's trailer always says
//! "start at board 1" and gives the count of boards, whatever boards the file holds (its
//! boards 11–20 end `YN1  0 10 `), so a file of boards 11–20 is told apart from one of
//! boards 1–10 only by `--first-board`.

use super::bri::{BRI_PART_LEN, PartRecords, check_records};
use super::dge::DGE_PART_LEN;
use super::{
    Board, Bri, DealFormat, Dge, Error, FileBoards, FormatInfo, InputPosition, ReadOptions,
    WriteOptions, check_board_limit, number_records,
};

/// Duplimate DUP, 156 bytes a board (FORMATS.md §5): the BRI part, the DGE part and a 10-byte
/// trailer `YN<start:3><copies:2><count:3>` (fields left-aligned, space-padded). Boards 1..99
/// only.
///
/// Reading: the deal comes from the BRI part; a DGE part that is not all spaces must hold
/// the same deal. Boards are numbered from [`ReadOptions::first_board`] when given (it
/// overrides the trailer), else from the first record's trailer start field when it is a
/// number 1..999 (Big Deal's `1`; dealdex before issue 26 wrote the set's first board
/// there), else from 1; [`DealFormat::read`] numbers from the trailer alone. Errors are at
/// [`InputPosition::at_record`] (record number, byte offset of the bad field or of the record): a
/// partial last record (`truncated record: N of 156 bytes`), a bad BRI or DGE part, or a DGE
/// part that disagrees with the BRI part.
///
/// Writing: Big Deal's trailer (output.c `print_dup_common`): start `1`, copies `0`, and the
/// number of boards in the whole set (`opts.boards`, else one more than `opts.last_board −
/// opts.first_board`) as two digits
/// and a space, e.g. `YN1  0 10 ` for boards 11–20; with `opts.blind` the DGE part of board 1
/// is 68 spaces. A board number or set bound outside 1..99 is an error and nothing is written.
pub struct Dup;

/// The length of a DUP record (FORMATS.md §5).
const RECORD_LEN: usize = 156;

/// The offset of the DGE part in a record.
const DGE_AT: usize = BRI_PART_LEN;

/// The offset of the trailer in a record.
const TRAILER_AT: usize = BRI_PART_LEN + DGE_PART_LEN;

/// The offset and length of the trailer's lowest-board field.
const LOWEST_AT: usize = TRAILER_AT + 2;

/// The DGE part of a blind board: 68 spaces.
const BLIND_DGE: [u8; DGE_PART_LEN] = [b' '; DGE_PART_LEN];

static INFO: FormatInfo = FormatInfo::new(
    "dup",
    &["dup"],
    "Duplimate DUP, 156 bytes a board (FORMATS.md §5)",
)
.board_set()
.max_board(99);

/// Parses a trailer number field: digits, surrounded by spaces or NULs (left-aligned as
/// written, but any alignment is accepted). `None` for anything else, for 0 and for an empty
/// field.
fn parse_field(field: &[u8]) -> Option<u64> {
    let pad = |b: &u8| *b == b' ' || *b == 0;
    let first = field.iter().position(|b| !pad(b))?;
    let last = field.iter().rposition(|b| !pad(b))?;
    let digits = field.get(first..=last)?;
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // At most 3 digits: no overflow.
    let n = digits
        .iter()
        .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    (n > 0).then_some(n)
}

/// The trailer Big Deal writes for a set of `count` boards (at most 99): `Y`, `N`, start
/// `1`, copies `0`, the count as two digits, a space.
fn trailer(count: u64) -> [u8; 10] {
    let mut t = *b"YN1  0 00 ";
    t[7] = b'0' + (count / 10 % 10) as u8;
    t[8] = b'0' + (count % 10) as u8;
    t
}

impl DealFormat for Dup {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads 156-byte records (FORMATS.md §5). An empty file has no boards.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        check_records(data, RECORD_LEN)?;
        let lowest = data.get(LOWEST_AT..LOWEST_AT + 3).and_then(parse_field);
        let mut boards = Vec::with_capacity(data.len() / RECORD_LEN);
        for (r, rec) in data.chunks_exact(RECORD_LEN).enumerate() {
            let start = (r * RECORD_LEN) as u64;
            let deal = Bri::decode_part(rec, r + 1, start)?;
            let dge = rec.get(DGE_AT..TRAILER_AT).unwrap_or_default();
            if !dge.iter().all(|&b| b == b' ') {
                let shown = Dge::decode_part(dge, r + 1, start + DGE_AT as u64)?;
                if shown != deal {
                    return Err(Error::malformed(
                        InputPosition::at_record(r + 1, start + DGE_AT as u64),
                        format!(
                            "the DGE part shows {shown}, the BRI part {deal} (expected the \
                             same deal, or 68 spaces)"
                        ),
                    ));
                }
            }
            boards.push(Board {
                number: lowest.map(|l| l + r as u64),
                ..Board::unnumbered(deal)
            });
        }
        Ok(boards)
    }

    /// Reads as [`Dup::read`], the boards numbered from `opts.first_board` when given; else,
    /// when the trailer gives start 1 (as Big Deal's does for every set), with a warning that
    /// the file cannot tell boards 1–10 from 11–20.
    ///
    /// # Errors
    /// As [`Dup::read`].
    fn read_numbered(&self, data: &[u8], opts: &ReadOptions) -> Result<FileBoards, Error> {
        let mut boards = self.read(data)?;
        let mut warnings = Vec::new();
        if let Some(first) = opts.first_board {
            boards.iter_mut().for_each(|b| b.number = None);
            super::number_boards(&mut boards, first);
        } else if boards.first().is_some_and(|b| b.number == Some(1)) {
            warnings.push(
                "read as boards 1, 2, …: a DUP trailer says \"start at board 1\" whatever \
                 boards the file holds (Big Deal writes it so for every set); give \
                 the first board if this set starts at another board"
                    .to_owned(),
            );
        }
        let mut read = FileBoards {
            boards,
            warnings,
            ..FileBoards::default()
        };
        number_records(&mut read, 1);
        Ok(read)
    }

    /// Checks the set's bounds (`opts.first_board`, `opts.last_board`) and the numbers the
    /// boards have against 1..99.
    fn check_boards(&self, boards: &[Board], opts: &WriteOptions) -> Result<(), Error> {
        check_board_limit(&INFO, opts.first_board)?;
        check_board_limit(&INFO, opts.last_board)?;
        for n in boards.iter().filter_map(|b| b.number) {
            check_board_limit(&INFO, n)?;
        }
        Ok(())
    }

    /// Writes one 156-byte record (FORMATS.md §5, Big Deal output.c).
    fn write_board(&self, b: &Board, opts: &WriteOptions, out: &mut Vec<u8>) {
        Bri::push_part(&b.deal, out);
        if opts.blind && b.number == Some(1) {
            out.extend_from_slice(&BLIND_DGE);
        } else {
            Dge::push_part(&b.deal, out);
        }
        let count = opts
            .boards
            .unwrap_or(opts.last_board.saturating_sub(opts.first_board) + 1);
        out.extend_from_slice(&trailer(count));
    }
}
