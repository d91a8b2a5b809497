//! Big Deal's Gödel-number files, `.goe` (FORMATS.md §1c; Big Deal output.c `print_goedel`):
//! one deal a line as its 0-based Gödel number, 29 decimal digits in comma groups of three,
//! leading zeros and their commas shown as spaces (right-aligned in 38 columns):
//!
//! ```text
//! 37,782,193,101,396,257,249,524,963,846
//!    839,133,640,535,478,813,446,600,673
//! ```

use super::text::trim;
use super::{Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions};
use crate::model::deal::Deal;
use crate::model::number::{Scheme, parse_scheme_number};

/// Big Deal's `.goe` file (FORMATS.md §1c): a Gödel number (Big Deal's scheme, 0-based) a
/// line, as Big Deal prints it.
///
/// - Reading: each non-empty line is one number, with or without comma or `_` groups and
///   surrounding spaces (also `0x` hex), 0..=D−1, lines ending in `\n` or `\r\n`. Big Deal's
///   numbers have a fixed width: a number with comma groups, and every number of a file whose
///   first number is 38 columns wide, must fill 38 columns (leading spaces included) with
///   groups of three digits after the first, so a file cut inside a number is an error, not a
///   smaller number. No board numbers: the lines are boards from `--first-board` (1 when not
///   given), in order.
/// - Writing: Big Deal's own layout, byte for byte: 38 columns, right-aligned, commas
///   between groups of three digits, `\n`.
///
/// # Errors
/// `LineColumn` for a character that is not a digit or group separator (the column of the
/// character), or a number outside 0..=D−1 (the line's first column); line, column and byte
/// offset of the number for one not 38 columns wide where Big Deal's layout is required (a
/// number cut short), or of the group for a comma group that is not three digits.
pub struct Goedel;

static INFO: FormatInfo = FormatInfo::new(
    "goedel",
    &["goe"],
    "Big Deal's Gödel numbers, 0-based, one a line (FORMATS.md §1c)",
)
.board_set();

/// The width of Big Deal's number: 29 digits and 9 commas.
const WIDTH: usize = 38;

impl DealFormat for Goedel {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads one Gödel number a non-empty line (see [`Goedel`]).
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        let mut boards = Vec::with_capacity(data.len() / (WIDTH + 1));
        let mut fixed = None;
        let mut line_start = 0usize;
        for (l, raw) in data.split(|&c| c == b'\n').enumerate() {
            let line = l + 1;
            let at = line_start;
            line_start += raw.len() + 1;
            let (body, lead) = trim(raw);
            if body.is_empty() {
                continue;
            }
            let text = std::str::from_utf8(body).map_err(|e| {
                Error::malformed(
                    InputPosition::at_line_column(line, lead + e.valid_up_to() + 1),
                    "not a Gödel number: a byte that is not ASCII (expected digits and commas)",
                )
            })?;
            let n = parse_scheme_number(text, Scheme::BigDeal).map_err(|e| {
                let column = match e.kind() {
                    crate::model::ErrorKind::NumberSyntax { column, .. } => lead + column,
                    _ => lead + 1,
                };
                Error::malformed(
                    InputPosition::at_line_column(line, column),
                    format!("not a Gödel number: {e}"),
                )
            })?;
            check_layout(body, lead, line, at, &mut fixed)?;
            let deal = Deal::from_number(n, Scheme::BigDeal)
                .map_err(|e| Error::malformed(InputPosition::at_line(line), e.to_string()))?;
            boards.push(Board::unnumbered(deal));
        }
        Ok(boards)
    }

    /// Writes the board's Gödel number as Big Deal does.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        push_grouped(out, b.deal.number(Scheme::BigDeal));
    }
}

/// Checks a number's layout against Big Deal's, which gives a number cut short away (a file
/// truncated inside its last line): the number `body` starts at 0-based column `lead` of the
/// line `line` starting at byte `at`. A number with comma groups is Big Deal's, and so is every
/// number of a file whose first number is [`WIDTH`] columns wide (`fixed`, set by the first
/// call): such a number must fill [`WIDTH`] columns, leading spaces included, and its groups
/// after the first must be three digits. Numbers typed without groups in a file that does not
/// start with Big Deal's layout are not checked.
fn check_layout(
    body: &[u8],
    lead: usize,
    line: usize,
    at: usize,
    fixed: &mut Option<bool>,
) -> Result<(), Error> {
    let width = lead + body.len();
    let fixed = *fixed.get_or_insert(width == WIDTH);
    let grouped = body.contains(&b',');
    if !(grouped || fixed) {
        return Ok(());
    }
    let place = |offset: usize| {
        InputPosition::at_line_column(line, lead + offset + 1)
            .with_byte((at + lead + offset) as u64)
    };
    if width != WIDTH {
        return Err(Error::malformed(
            place(0),
            format!(
                "a Gödel number {width} columns wide: Big Deal's are {WIDTH}, right-aligned \
                 (29 digits in comma groups), so this one is cut short (a truncated file?)"
            ),
        ));
    }
    let mut offset = 0;
    for (i, group) in body.split(|&c| c == b',').enumerate() {
        let ok = match i {
            0 => (1..=3).contains(&group.len()),
            _ => group.len() == 3,
        };
        if !ok {
            return Err(Error::malformed(
                place(offset),
                format!(
                    "a comma group of {} digits: Big Deal's groups after the first are three \
                     digits",
                    group.len()
                ),
            ));
        }
        offset += group.len() + 1;
    }
    Ok(())
}

/// Appends `n` with commas between groups of three digits, right-aligned in [`WIDTH`]
/// columns, and `\n`.
fn push_grouped(out: &mut Vec<u8>, n: u128) {
    let digits = n.to_string();
    let mut text = Vec::with_capacity(WIDTH);
    for (i, d) in digits.bytes().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(b',');
        }
        text.push(d);
    }
    out.extend(std::iter::repeat_n(b' ', WIDTH.saturating_sub(text.len())));
    out.extend_from_slice(&text);
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_error;

    #[test]
    fn numbers_are_grouped_and_aligned_as_big_deal_prints_them() {
        let mut out = Vec::new();
        push_grouped(&mut out, 0);
        push_grouped(&mut out, 1_234);
        push_grouped(&mut out, crate::model::number::DEALS - 1);
        let want = format!(
            "{:>38}\n{:>38}\n{}\n",
            "0", "1,234", "53,644,737,765,488,792,839,237,439,999"
        );
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }

    /// Big Deal's own file of boards 11–20 (`tests/fixtures/bigdeal-ranges/bd11-20.goe`).
    fn big_deal_file() -> Vec<u8> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/bigdeal-ranges/bd11-20.goe"
        );
        std::fs::read(path).unwrap()
    }

    /// A file cut inside its last number (no newline after it) is an error naming the last
    /// line and the byte where its number starts, not a tenth deal with a smaller number.
    /// Big Deal's numbers are 38 columns wide, right-aligned: a shorter one is cut short.
    #[test]
    fn a_number_cut_short_is_an_error_naming_line_and_byte() {
        let file = big_deal_file();
        assert_eq!(Goedel.read(&file).unwrap().len(), 10);
        let last_start = file[..file.len() - 1]
            .iter()
            .rposition(|&c| c == b'\n')
            .unwrap()
            + 1;
        let last = &file[last_start..file.len() - 1];
        assert_eq!(last.len(), WIDTH);
        let digits_at = last.iter().position(|&c| c != b' ').unwrap();
        // Every cut after the first digit and before the line is whole.
        for cut in last_start + digits_at + 1..file.len() - 1 {
            let e = Goedel
                .read(&file[..cut])
                .expect_err(&format!("cut at byte {cut}"));
            assert_eq!(e.position().unwrap().line, Some(10), "cut at {cut}: {e}");
            assert_eq!(
                e.position().unwrap().byte,
                Some((last_start + digits_at) as u64),
                "cut at {cut}: {e}"
            );
            assert!(e.to_string().contains("38"), "cut at {cut}: {e}");
        }
        // The whole line without its newline, or with CRLF line ends, is a whole number.
        assert_eq!(Goedel.read(&file[..file.len() - 1]).unwrap().len(), 10);
        let crlf: Vec<u8> = file
            .iter()
            .flat_map(|&c| {
                if c == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![c]
                }
            })
            .collect();
        assert_eq!(Goedel.read(&crlf).unwrap(), Goedel.read(&file).unwrap());
    }

    /// Comma groups are Big Deal's: three digits after the first group, in 38 columns; a
    /// shorter line with commas is a number cut short wherever it is.
    #[test]
    fn comma_groups_must_be_big_deals() {
        let (_, at) = read_error(&Goedel, b"37,782,193,101,396,257,249,524,96\n");
        assert_eq!(at, InputPosition::at_line_column(1, 1).with_byte(0));
        // 38 columns, but a group of two digits.
        let (e, at) = read_error(&Goedel, b"\n     37,782,193,101,396,257,249,524,96\n");
        assert_eq!(at, InputPosition::at_line_column(2, 37).with_byte(37));
        assert!(e.to_string().contains("three digits"), "{e}");
        let (_, at) = read_error(&Goedel, b"   37,782,193,101,396,257,249,524\n");
        assert_eq!(at, InputPosition::at_line_column(1, 4).with_byte(3));
        // Numbers without comma groups (typed by hand) are read as they are.
        let n = Goedel.read(b"1234\n0x10\n1_000\n").unwrap();
        assert_eq!(n.len(), 3);
    }

    #[test]
    fn bad_lines_name_the_column() {
        let (_, at) = read_error(&Goedel, b"\n  12,3x4\n");
        assert_eq!(at, InputPosition::at_line_column(2, 7));
        let e = Goedel
            .read(b"53,644,737,765,488,792,839,237,440,000\n")
            .unwrap_err();
        assert!(e.to_string().contains("0..="), "{e}");
    }
}
