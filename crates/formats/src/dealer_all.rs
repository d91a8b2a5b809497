//! Debian `dealer`'s `printall` (Hans van Staveren's dealer, Debian package 20211121+ds-1):
//! each deal as a board header and four suit lines, the hands side by side, N, E, S, W:
//!
//! ```text
//!    1.
//! A Q T 6 5 4 2       K 7                 9 8 3               J
//! 5                   Q J T 7 4 3         A 9 6               K 8 2
//! T 8 6               7 4                 J 9                 A K Q 5 3 2
//! A 5                 K Q 6               J 9 4 3 2           T 8 7
//!
//! ```
//!
//! Each card is its rank and a space, a void is `- `, and every column but the last is padded
//! to 20 characters (a column of 10 cards or more is not: the next one follows right after
//! it). The columns of this module are shared with [`super::dealer_ew`].

use super::text::show_byte;
use super::{Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions};
use crate::model::card::{RANK_LETTERS, Seat, Suit};
use crate::model::deal::{Deal, Hand};
use crate::model::text::{column, rank_index};

/// Debian `dealer`'s `printall` (dealer 20211121, the default action): a header `%4d.` with
/// the deal's number (1, 2, … in the run), then one line per suit (♠ first) holding the four
/// hands' cards in columns N, E, S, W, then an empty line.
///
/// # Reading
/// - Board numbers are the headers' (dealer numbers its deals 1, 2, …, as its `printpbn`
///   numbers the boards of the same run); dealer and vulnerability follow the number.
/// - A card is a rank letter `AKQJT98765432` and a space, descending within a column; a void
///   is `-`. Columns are 20 characters wide, but one of 10 or more cards runs into the next:
///   the reader tries every split the layout allows and keeps the one where every hand holds
///   13 cards (an overflow can only be split one way then).
/// - dealer's statistics lines (`Generated 8 hands`, `Produced …`, `Initial random seed …`,
///   `Time needed …`) and empty lines are skipped.
///
/// # Writing
/// dealer's own bytes: `format!("{:4}.\n", number)`, the four suit lines (each column padded
/// to 20 characters but the last, every card followed by a space), an empty line.
///
/// # Errors
/// `LineColumn` for a line that is not a header where one is due, a byte that is not a rank,
/// `-` or a space, ranks out of order, a suit line that does not split into four columns; `Line`
/// for a deal whose columns give no deal (a card twice, a hand without 13 cards) or more
/// than one; `Truncated` when the file ends inside a deal.
pub struct DealerAll;

static INFO: FormatInfo = FormatInfo::new(
    "dealer-all",
    &["all"],
    "Debian dealer's printall, hands side by side (dealer 20211121)",
)
.numbered();

/// The width of a column of dealer's `printall` and `printew` (all but the last are padded).
const WIDTH: usize = 20;

/// True for the statistics lines dealer prints after the deals (and endplay's dealer too).
pub(crate) fn is_trailer(line: &[u8]) -> bool {
    super::oneline::TRAILER.iter().any(|t| line.starts_with(t))
}

/// A file's lines without `\r`, numbered from 1, with the empty and statistics lines left out.
pub(crate) fn content_lines(data: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    lines_but(data, is_trailer)
}

/// A file's lines without `\r`, numbered from 1, with the empty lines and those `noise` is
/// true for left out.
pub(crate) fn lines_but(
    data: &[u8],
    noise: impl Fn(&[u8]) -> bool,
) -> impl Iterator<Item = (usize, &[u8])> {
    data.split(|&c| c == b'\n')
        .enumerate()
        .filter_map(move |(i, raw)| {
            let line = raw.strip_suffix(b"\r").unwrap_or(raw);
            (!(line.iter().all(|c| c.is_ascii_whitespace()) || noise(line)))
                .then_some((i + 1, line))
        })
}

/// Every way the suit line `line` splits into `ncols` columns of dealer's layout: each split
/// is the columns' 13-bit holdings (bit 0 the ace).
///
/// # Errors
/// The byte offset and message of a bad byte, or of where no split gets past.
pub(crate) fn splits(line: &[u8], ncols: usize) -> Result<Vec<Vec<u16>>, (usize, String)> {
    if let Some(p) = line
        .iter()
        .position(|&c| c != b' ' && c != b'-' && !RANK_LETTERS.contains(&c))
    {
        return Err((
            p,
            format!(
                "{} is not a card (expected a rank AKQJT98765432, - for a void, or spaces)",
                show_byte(line[p])
            ),
        ));
    }
    let mut out = Vec::new();
    let mut far = 0;
    walk(line, 0, ncols, &mut Vec::new(), &mut out, &mut far);
    if out.is_empty() {
        return Err((
            far,
            format!(
                "the line does not split into {ncols} columns of dealer's layout (cards as \
                 \"A K 5 \" in descending order, - for a void, columns 20 characters wide)"
            ),
        ));
    }
    Ok(out)
}

/// Adds to `out` every split of `line` from `pos` into the columns not yet in `cur`.
fn walk(
    line: &[u8],
    pos: usize,
    ncols: usize,
    cur: &mut Vec<u16>,
    out: &mut Vec<Vec<u16>>,
    far: &mut usize,
) {
    *far = (*far).max(pos);
    let spaced = |i: usize| line.get(i).is_none_or(|&c| c == b' ');
    // Tries to end the current column (`mask`, text up to `end`) there.
    let mut close = |mask: u16, end: usize, cur: &mut Vec<u16>, far: &mut usize| {
        cur.push(mask);
        if cur.len() == ncols {
            if line[end.min(line.len())..].iter().all(|&c| c == b' ') {
                out.push(cur.clone());
            }
        } else {
            let next = pos + WIDTH.max(end - pos);
            if next < line.len() && line[end..next].iter().all(|&c| c == b' ') {
                walk(line, next, ncols, cur, out, far);
            }
        }
        cur.pop();
    };
    match line.get(pos) {
        Some(b'-') if spaced(pos + 1) => close(0, (pos + 2).min(line.len()), cur, far),
        Some(&c) if rank_index(c).is_some() => {
            let mut mask = 0u16;
            let mut last = None;
            let mut i = pos;
            while let Some(r) = line.get(i).and_then(|&c| rank_index(c)) {
                if last.is_some_and(|l| r <= l) || !spaced(i + 1) {
                    *far = (*far).max(i);
                    break;
                }
                mask |= 1 << r;
                last = Some(r);
                i += 2;
                close(mask, i.min(line.len()), cur, far);
            }
        }
        _ => {}
    }
}

/// The next four lines of `lines` (♠, ♥, ♦, ♣): the suit lines of the deal `number` (or of
/// the deal, without one) starting at line `l`.
///
/// # Errors
/// Truncated at line `l` when the file ends first: `deal N ends after K of its 4 suit lines`.
pub(crate) fn suit_lines<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a [u8])>,
    l: usize,
    number: Option<u64>,
) -> Result<[(usize, &'a [u8]); 4], Error> {
    let mut suits = [(0usize, &b""[..]); 4];
    for (k, s) in suits.iter_mut().enumerate() {
        *s = lines.next().ok_or_else(|| {
            let deal = match number {
                Some(n) => format!("deal {n}"),
                None => "the deal".to_owned(),
            };
            Error::truncated(
                InputPosition::at_line(l),
                format!("{deal} ends after {k} of its 4 suit lines"),
            )
        })?;
    }
    Ok(suits)
}

/// The deals the suit lines `lines` (4 lines: ♠, ♥, ♦, ♣) can hold in `seats`' columns, each
/// hand 13 cards: the hands by seat, `None` for the seats not shown.
///
/// # Errors
/// The problem's location and message: a line that does not split, no split that is a deal
/// (the first split's problem), or more than one.
pub(crate) fn read_columns(
    lines: &[(usize, &[u8]); 4],
    seats: &[Seat],
) -> Result<[Option<Hand>; 4], Error> {
    let mut options = Vec::with_capacity(4);
    for &(l, line) in lines {
        let s = splits(line, seats.len()).map_err(|(off, m)| {
            Error::malformed(InputPosition::at_line_column(l, column(line, off)), m)
        })?;
        options.push(s);
    }
    let first = lines[0].0;
    let mut found: Option<[Option<Hand>; 4]> = None;
    let mut problem = None;
    for a in &options[0] {
        for b in &options[1] {
            for c in &options[2] {
                for d in &options[3] {
                    let mut hands = [None; 4];
                    for (k, seat) in seats.iter().enumerate() {
                        let mask = u64::from(a[k])
                            | u64::from(b[k]) << 13
                            | u64::from(c[k]) << 26
                            | u64::from(d[k]) << 39;
                        hands[seat.index()] = Some(Hand::from_mask(mask));
                    }
                    match check_hands(&hands) {
                        Ok(()) if found.is_some() => {
                            return Err(Error::malformed(
                                InputPosition::at_line(first),
                                "the columns of this deal split more than one way into hands \
                                 of 13 cards (a column of 10 cards or more runs into the next)",
                            ));
                        }
                        Ok(()) => found = Some(hands),
                        Err(m) => {
                            problem.get_or_insert(m);
                        }
                    }
                }
            }
        }
    }
    found.ok_or_else(|| {
        Error::not_a_deal(
            InputPosition::at_line(first),
            problem.unwrap_or_else(|| "no deal".into()),
        )
    })
}

/// Checks that the hands given hold 13 cards each and no card twice.
fn check_hands(hands: &[Option<Hand>; 4]) -> Result<(), String> {
    let mut all = 0u64;
    for (i, h) in hands.iter().enumerate() {
        let Some(h) = h else { continue };
        if h.len() != 13 {
            return Err(format!(
                "{} holds {} cards, expected 13",
                Seat::from_index(i),
                h.len()
            ));
        }
        if all & h.mask() != 0 {
            return Err(format!(
                "{} holds a card another hand holds",
                Seat::from_index(i)
            ));
        }
        all |= h.mask();
    }
    Ok(())
}

impl DealerAll {
    /// Appends `hands` side by side in dealer's columns: four lines, one per suit (♠ first),
    /// each card its rank and a space, a void `- `, every column but the last padded to 20
    /// characters. The one writer of dealer's columns: [`DealerAll`] writes N, E, S, W,
    /// [`super::DealerEw`] West and East, and `dealdex dealer` writes `printall` and `printew`
    /// through those and `print(seats)` (a seat's hands of up to four deals) through this.
    pub fn push_columns(out: &mut Vec<u8>, hands: &[Hand]) {
        for suit in Suit::ALL {
            push_suit_line(out, hands, suit);
        }
    }
}

/// Appends one suit line of `hands`' holdings in dealer's columns.
fn push_suit_line(out: &mut Vec<u8>, hands: &[Hand], suit: Suit) {
    for (k, hand) in hands.iter().enumerate() {
        let start = out.len();
        let mut m = hand.suit_mask(suit);
        if m == 0 {
            out.extend_from_slice(b"- ");
        }
        while m != 0 {
            out.push(RANK_LETTERS[m.trailing_zeros() as usize]);
            out.push(b' ');
            m &= m - 1;
        }
        if k + 1 < hands.len() {
            let pad = WIDTH.saturating_sub(out.len() - start);
            out.resize(out.len() + pad, b' ');
        }
    }
    out.push(b'\n');
}

/// Appends dealer's header of deal `number`: C's `%4d.` and a line end (`   7.`, `12345.`).
fn push_header(out: &mut Vec<u8>, number: u64) {
    let digits = number.checked_ilog10().map_or(1, |l| l as usize + 1);
    out.resize(out.len() + 4usize.saturating_sub(digits), b' ');
    super::text::push_u64(out, number);
    out.extend_from_slice(b".\n");
}

/// The header's board number: `line` is white space, digits, `.`, white space.
fn header(line: &[u8]) -> Option<u64> {
    let t = line.trim_ascii();
    let digits = t.strip_suffix(b".")?;
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

impl DealFormat for DealerAll {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads every deal (see [`DealerAll`]).
    ///
    /// # Errors
    /// See [`DealerAll`].
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        let mut boards = Vec::new();
        let mut lines = content_lines(data);
        while let Some((l, line)) = lines.next() {
            let number = header(line).filter(|&n| n > 0).ok_or_else(|| {
                Error::malformed(
                    InputPosition::at_line_column(l, 1),
                    "expected dealer's board header (as \"   1.\") before each deal",
                )
            })?;
            let suits = suit_lines(&mut lines, l, Some(number))?;
            let hands = read_columns(&suits, &Seat::ALL)?;
            let deal = Deal::new(hands.map(|h| h.unwrap_or(Hand::EMPTY)))
                .map_err(|e| Error::not_a_deal(InputPosition::at_line(l), e.to_string()))?;
            boards.push(Board::new(number, deal));
        }
        Ok(boards)
    }

    /// Writes dealer's `printall` bytes for one board (see [`DealerAll`]); `dealdex dealer`'s
    /// `printall` writes its deals through this, numbered by the produced count.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        push_header(out, b.number.unwrap_or(0));
        DealerAll::push_columns(out, &Seat::ALL.map(|s| b.deal.hand(s)));
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflowing_column_splits_by_counts() {
        // South's 10 spades run into West's 3 (dealer 20211121's bytes for such a deal): one
        // split, since West's 3 is below South's 5 only if it is West's.
        let line = b"2                   4                   A K Q J T 9 8 7 6 5 3 ";
        assert_eq!(
            splits(line, 4).unwrap(),
            vec![vec![1 << 12, 1 << 10, 0x3FF, 1 << 11]]
        );
        // South's 10 or 11 spades and West's 2 or 1: only the counts of the hands can tell.
        let line = b"2                   3                   A K Q J T 9 8 7 6 5 4 - ";
        assert_eq!(splits(line, 4).unwrap().len(), 1);
        let line = b"-                   -                   A K Q J T 9 8 7 6 5 4 3 ";
        assert_eq!(splits(line, 4).unwrap().len(), 2);
        let e = splits(b"A K X", 4).unwrap_err();
        assert_eq!(e.0, 4);
        assert!(splits(b"K A ", 1).is_err());
    }

    #[test]
    fn header_needs_digits_and_a_dot() {
        assert_eq!(header(b"   1."), Some(1));
        assert_eq!(header(b"12345."), Some(12345));
        assert_eq!(header(b"   1"), None);
        assert_eq!(header(b"."), None);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for data in [&b"   1.\nA\n"[..], b"x", b"   1.\n-\n-\n-\n-\n", b"   0.\n"] {
            assert!(DealerAll.read(data).is_err());
        }
    }
}
