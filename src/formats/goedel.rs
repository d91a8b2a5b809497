//! Big Deal's Gödel-number files, `.goe` (FORMATS.md §1c; Big Deal output.c `print_goedel`):
//! one deal a line as its 0-based Gödel number, 29 decimal digits in comma groups of three,
//! leading zeros and their commas shown as spaces (right-aligned in 38 columns):
//!
//! ```text
//! 37,782,193,101,396,257,249,524,963,846
//!    839,133,640,535,478,813,446,600,673
//! ```

use super::text::trim;
use super::{Board, DealFormat, FormatError, FormatInfo, InputPosition, WriteOptions};
use crate::model::deal::Deal;
use crate::model::number::{Scheme, parse_scheme_number};

/// Big Deal's `.goe` file (FORMATS.md §1c): a Gödel number (Big Deal's scheme, 0-based) a
/// line, as Big Deal prints it.
///
/// - Reading: each non-empty line is one number, with or without comma or `_` groups and
///   surrounding spaces (also `0x` hex), 0..=D−1. No board numbers: the lines are boards
///   from `--first-board` (1 when not given), in order.
/// - Writing: Big Deal's own layout, byte for byte: 38 columns, right-aligned, commas
///   between groups of three digits, `\n`.
///
/// # Errors
/// `LineColumn` for a character that is not a digit or group separator (the column of the
/// character), or a number outside 0..=D−1 (the line's first column).
pub struct Goedel;

static INFO: FormatInfo = FormatInfo {
    name: "goedel",
    extensions: &["goe"],
    description: "Big Deal's Gödel numbers, 0-based, one a line (FORMATS.md §1c)",
    board_numbers: false,
    max_board: None,
    streaming: true,
    board_set: true,
};

/// The width of Big Deal's number: 29 digits and 9 commas.
const WIDTH: usize = 38;

impl DealFormat for Goedel {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads one Gödel number a non-empty line (see [`Goedel`]).
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, FormatError> {
        let mut boards = Vec::with_capacity(data.len() / (WIDTH + 1));
        for (l, raw) in data.split(|&c| c == b'\n').enumerate() {
            let line = l + 1;
            let (body, lead) = trim(raw);
            if body.is_empty() {
                continue;
            }
            let text = std::str::from_utf8(body).map_err(|e| {
                FormatError::new(
                    InputPosition::at_line_column(line, lead + e.valid_up_to() + 1),
                    "not a Gödel number: a byte that is not ASCII (expected digits and commas)",
                )
            })?;
            let n = parse_scheme_number(text, Scheme::BigDeal).map_err(|e| {
                let column = match &e {
                    crate::NumberError::Syntax { column, .. } => lead + column,
                    _ => lead + 1,
                };
                FormatError::new(
                    InputPosition::at_line_column(line, column),
                    format!("not a Gödel number: {e}"),
                )
            })?;
            let deal = Deal::from_number(n, Scheme::BigDeal)
                .map_err(|e| FormatError::new(InputPosition::at_line(line), e.to_string()))?;
            boards.push(Board::unnumbered(deal));
        }
        Ok(boards)
    }

    /// Writes the board's Gödel number as Big Deal does.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        push_grouped(out, b.deal.number(Scheme::BigDeal));
    }
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

    #[test]
    fn numbers_are_grouped_and_aligned_as_big_deal_prints_them() {
        let mut out = Vec::new();
        push_grouped(&mut out, 0);
        push_grouped(&mut out, 1_234);
        push_grouped(&mut out, crate::DEALS - 1);
        let want = format!(
            "{:>38}\n{:>38}\n{}\n",
            "0", "1,234", "53,644,737,765,488,792,839,237,439,999"
        );
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }

    #[test]
    fn bad_lines_name_the_column() {
        let e = Goedel.read(b"\n  12,3x4\n").unwrap_err();
        assert_eq!(e.position, InputPosition::at_line_column(2, 7));
        let e = Goedel
            .read(b"53,644,737,765,488,792,839,237,440,000\n")
            .unwrap_err();
        assert!(e.to_string().contains("0..="), "{e}");
    }
}
