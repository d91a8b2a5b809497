//! BRI files, 128 bytes a board (FORMATS.md §6; Big Deal output.c `print_bri`), and the
//! 78-byte *BRI part* they share with Duplimate DUP records (FORMATS.md §5).
//!
//! The BRI part is 39 two-digit ASCII card numbers: North's 13, East's 13, South's 13; West
//! holds the 13 cards not named. Card numbers are the suited order plus one: ♠A = `01` …
//! ♠2 = `13`, ♥A = `14` … ♣2 = `52`. dealdex writes each hand ascending (as Big Deal does) and
//! reads the numbers of a hand in any order.
//!
//! A BRI record is the BRI part, 32 spaces and 18 NUL bytes. On input the 50 padding bytes
//! may hold anything, but the file must be a whole number of 128-byte records. BRI files
//! carry no board numbers, dealers or vulnerabilities.
//!
//! The 128-byte record frame (a part, padding, no board numbers) is shared with DGE files
//! ([`super::Dge`]): see [`PartRecords`].

use super::{Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions};
use crate::model::card::{Card, Seat};
use crate::model::deal::{Deal, Hand};

/// BRI, 128 bytes a board (FORMATS.md §6): the 78-byte BRI part (N, E, S as two-digit card
/// numbers 01..52, West implied), 32 spaces, 18 NUL bytes. No board numbers (the caller
/// numbers the boards). Streaming: every record stands alone.
///
/// Reading fails with [`InputPosition::at_record`] (record number, byte offset of the bad field or of
/// the record) for a file whose length is not a multiple of 128 (`truncated record: N of 128
/// bytes`), a card number that is not two ASCII digits, a number outside 01..52, or a card
/// given twice.
pub struct Bri;

/// The length of a BRI part: 39 card numbers of two ASCII digits (FORMATS.md §5).
pub(crate) const BRI_PART_LEN: usize = 78;

/// The length of a BRI or DGE file record (FORMATS.md §6).
const RECORD_LEN: usize = 128;

/// The two ASCII digits of card number `i + 1` for each suited-order card `i` (0..52).
const CARD_DIGITS: [[u8; 2]; 52] = {
    let mut t = [[0u8; 2]; 52];
    let mut i = 0;
    while i < 52 {
        let n = i as u8 + 1;
        t[i] = [b'0' + n / 10, b'0' + n % 10];
        i += 1;
    }
    t
};

const INFO: &FormatInfo =
    &FormatInfo::new("bri", &["bri"], "BRI, 128 bytes a board (FORMATS.md §6)").board_set();

/// The first `N` bytes of a deal part (a `name` part of `N` bytes, FORMATS.md §5), `record`
/// being the 1-based record number and `start` the part's offset in the file.
///
/// # Errors
/// [`ErrorKind::Malformed`](crate::ErrorKind::Malformed) at the part's start when it is
/// shorter.
pub(crate) fn part_bytes<'a, const N: usize>(
    part: &'a [u8],
    name: &str,
    record: usize,
    start: u64,
) -> Result<&'a [u8; N], Error> {
    part.first_chunk::<N>().ok_or_else(|| {
        Error::malformed(
            InputPosition::at_record(record, start),
            format!("{name} part has {} bytes (expected {N})", part.len()),
        )
    })
}

/// Checks that `data` is a whole number of `len`-byte records.
///
/// # Errors
/// `truncated record: N of LEN bytes` at `InputPosition::at_record(r, start)` of the partial last
/// record.
pub(crate) fn check_records(data: &[u8], len: usize) -> Result<(), Error> {
    let rest = data.len() % len;
    if rest != 0 {
        let whole = data.len() / len;
        return Err(Error::truncated(
            InputPosition::at_record(whole + 1, (whole * len) as u64),
            format!("truncated record: {rest} of {len} bytes"),
        ));
    }
    Ok(())
}

/// Hands each `N`-byte record of `data` in file order to `take(record, number, offset)`
/// (1-based record number, 0-based byte offset of its start).
///
/// # Errors
/// The first error of `take`; `truncated record: K of N bytes` at
/// `InputPosition::at_record(r, start)` of a partial last record (once the whole records
/// before it are taken).
pub(crate) fn take_each_record<const N: usize>(
    data: &[u8],
    mut take: impl FnMut(&[u8; N], usize, u64) -> Result<(), Error>,
) -> Result<(), Error> {
    for (i, rec) in data.chunks(N).enumerate() {
        let start = (i * N) as u64;
        let Some(rec) = rec.first_chunk::<N>() else {
            return Err(Error::truncated(
                InputPosition::at_record(i + 1, start),
                format!("truncated record: {} of {N} bytes", rec.len()),
            ));
        };
        take(rec, i + 1, start)?;
    }
    Ok(())
}

/// The boards of a file of `N`-byte records, each decoded by `decode(record, number, offset)`
/// ([`take_each_record`]).
///
/// # Errors
/// As [`take_each_record`].
pub(crate) fn read_record_boards<const N: usize>(
    data: &[u8],
    decode: impl Fn(&[u8; N], usize, u64) -> Result<Board, Error>,
) -> Result<Vec<Board>, Error> {
    let mut boards = Vec::with_capacity(data.len() / N);
    take_each_record::<N>(data, |rec, r, start| {
        boards.push(decode(rec, r, start)?);
        Ok(())
    })?;
    Ok(boards)
}

/// Reads a file of fixed-size records, each decoded by `decode(record, number, offset)`
/// (1-based record number, 0-based byte offset); boards come back without numbers.
pub(crate) fn read_fixed_records(
    data: &[u8],
    len: usize,
    decode: impl Fn(&[u8], usize, u64) -> Result<Deal, Error>,
) -> Result<Vec<Board>, Error> {
    check_records(data, len)?;
    data.chunks_exact(len)
        .enumerate()
        .map(|(r, rec)| decode(rec, r + 1, (r * len) as u64).map(Board::unnumbered))
        .collect()
}

/// A file of 128-byte records, each a deal part (FORMATS.md §5) and padding (FORMATS.md §6):
/// what BRI and DGE files share. Every implementor is a streaming [`DealFormat`] without board
/// numbers: boards are read unnumbered and written whatever their numbers.
pub(crate) trait PartRecords: Send + Sync {
    /// The format's fixed facts.
    const INFO: &'static FormatInfo;
    /// How many spaces follow the part in a record written; NUL bytes fill the rest.
    const SPACES: usize;
    /// Appends the part of `deal`.
    fn push_part(deal: &Deal, out: &mut Vec<u8>);
    /// Decodes the part at the start of a record (1-based `record` at file offset `start`).
    ///
    /// # Errors
    /// [`Error`] at [`InputPosition::at_record`] naming the bad field.
    fn decode_part(part: &[u8], record: usize, start: u64) -> Result<Deal, Error>;
}

impl<T: PartRecords> DealFormat for T {
    fn info(&self) -> &'static FormatInfo {
        T::INFO
    }

    /// Reads 128-byte records (FORMATS.md §6); the padding after the part is not checked.
    /// Boards come back without numbers.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        read_fixed_records(data, RECORD_LEN, T::decode_part)
    }

    /// Takes any board: the records carry no numbers.
    fn check_boards(&self, _boards: &[Board], _opts: &WriteOptions) -> Result<(), Error> {
        Ok(())
    }

    /// Writes one 128-byte record: the part, then the padding (Big Deal output.c).
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        let start = out.len();
        T::push_part(&b.deal, out);
        out.resize(out.len() + T::SPACES, b' ');
        out.resize(start + RECORD_LEN, 0);
    }
}

/// BRI records: the BRI part, 32 spaces, 18 NULs.
impl PartRecords for Bri {
    const INFO: &'static FormatInfo = INFO;
    const SPACES: usize = 32;

    /// The BRI part of `deal` (FORMATS.md §5): North's, East's and South's cards as two-digit
    /// card numbers 01..52, each hand ascending (78 bytes, a deal's hands holding 13 cards).
    fn push_part(deal: &Deal, out: &mut Vec<u8>) {
        for hand in &deal.hands()[..3] {
            let mut m = hand.mask();
            while m != 0 {
                out.extend_from_slice(&CARD_DIGITS[m.trailing_zeros() as usize]);
                m &= m - 1;
            }
        }
    }

    /// Decodes a BRI part (its first 78 bytes; FORMATS.md §5) into a deal: 13 card numbers each
    /// for North, East and South in any order within a hand, West getting the other 13.
    ///
    /// `record` is the 1-based record number and `start` the file offset of the part's first
    /// byte; errors are at `InputPosition::at_record(record, offset of the bad field)`.
    ///
    /// # Errors
    /// A field that is not two ASCII digits, a number outside 01..52, a card given twice, or a
    /// part shorter than 78 bytes.
    fn decode_part(part: &[u8], record: usize, start: u64) -> Result<Deal, Error> {
        let part = part_bytes::<BRI_PART_LEN>(part, "BRI", record, start)?;
        let mut hands = [0u64; 4];
        let mut used = 0u64;
        let (fields, _) = part.as_chunks::<2>();
        for (i, field) in fields.iter().enumerate() {
            let seat = Seat::from_index(i / 13);
            let at = InputPosition::at_record(record, start + 2 * i as u64);
            let what = || format!("{}'s card {} of 13", seat.name(), i % 13 + 1);
            let [hi, lo] = *field;
            if !hi.is_ascii_digit() || !lo.is_ascii_digit() {
                return Err(Error::malformed(
                    at,
                    format!(
                        "{}: \"{}\" is not a card number (expected two ASCII digits 01..52)",
                        what(),
                        field.escape_ascii()
                    ),
                ));
            }
            let n = (hi - b'0') * 10 + (lo - b'0');
            if !(1..=52).contains(&n) {
                return Err(Error::malformed(
                    at,
                    format!(
                        "{}: card {n:02} is not a card number (expected 01..52)",
                        what()
                    ),
                ));
            }
            let bit = 1u64 << (n - 1);
            if used & bit != 0 {
                let card = Card::from_index(usize::from(n - 1))
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default();
                return Err(Error::malformed(
                    at,
                    format!(
                        "{}: card {n:02}{card} is given twice (expected 39 different cards)",
                        what()
                    ),
                ));
            }
            used |= bit;
            hands[seat.index()] |= bit;
        }
        hands[3] = ((1u64 << 52) - 1) & !used;
        Deal::new(hands.map(Hand::from_mask))
            .map_err(|e| Error::not_a_deal(InputPosition::at_record(record, start), e.to_string()))
    }
}
