//! The dealer family's one-line output: `printoneline` of Hans van Staveren's `dealer` (and
//! of DealerV2 and Dealer3, which read it back), one deal a line, as simulation scripts pipe
//! deals around. Checked against the Debian `dealer` package's output
//! (`tests/fixtures/field/README.md` gives the commands):
//!
//! ```text
//! n 653.A94.T8.AKJ74 e KT9.KQT83.Q7.Q85 s AQ872.76.AKJ64.3 w J4.J52.9532.T962
//! ```
//!
//! (the line ends in a space after the last hand; lower-case seat letters; a void is an empty
//! suit between dots).

use super::text::{push_dotted_hand, show_byte};
use super::{Board, DealFormat, Error, FormatInfo, InputPosition, WriteOptions};
use crate::model::card::Seat;
use crate::model::deal::{Deal, Hand};
use crate::model::text::{column, rank_index};

/// dealer's `printoneline` (Hans van Staveren's `dealer`, DealerV2, Dealer3): one deal a
/// line, `n <hand> e <hand> s <hand> w <hand> `.
///
/// # Reading
/// - Each non-empty line is a deal: four pairs of a seat letter (`n`, `e`, `s`, `w`, either
///   case, each once, in any order) and its hand `S.H.D.C` (ranks in any order, either case,
///   `10` for the ten, a void empty, as in `KT2..AK86542.AK6`), separated by spaces or tabs.
///   After the fourth hand only numbers may follow, read past: the values of the expression
///   that `printoneline (expr)` appends (`… w J4.J52.9532.T962 12`). Anything else there (a
///   second deal, other text) is an error: one deal a line.
/// - Lines end in `\n`, `\r\n` or a lone `\r` (old Mac files), all read alike.
/// - The statistics dealer prints after the deals (`Generated 20 hands`, `Produced 20 hands`,
///   `Initial random seed 15`, `Time needed    0.000 sec`) and empty lines are skipped.
/// - No board numbers, dealer or vulnerability: boards are numbered in order.
/// - endplay's dealer (`endplay-dealer`, endplay 0.5.12) writes the same line without seat
///   letters, the hands in the order N, E, S, W (`AJ.9.Q32.AQJ7543 KT876.T76.AJ8.96 … `),
///   and with `-b` a board number first (`  1 AJ.9.Q32.AQJ7543 …`): a line whose first word
///   holds a dot is read so, a first word of digits is its board number (carried by the
///   board). Seat letters and hands without them never mix on one line.
///
/// # Writing
/// dealer's own line: `n`, `e`, `s`, `w` with each hand's suits `S.H.D.C` ranks descending,
/// a space after every hand (the line ends in one), `\n`.
///
/// # Errors
/// `LineColumn` for a missing or unknown seat letter, a seat given twice, a bad rank, a
/// hand without four suits, a card twice in a hand, a line of fewer than four hands, a word
/// after the fourth hand that is not a number (a second deal on the line), or hands that
/// are not a deal (the column of the hand with a wrong count or of the card's
/// second holder).
pub struct OneLine;

static INFO: FormatInfo = FormatInfo::new(
    "oneline",
    &["oneline"],
    "dealer's printoneline, one deal a line (dealer, DealerV2, Dealer3)",
);

/// The first words of the statistics lines dealer prints after the deals.
pub(crate) const TRAILER: [&[u8]; 4] = [
    b"Generated ",
    b"Produced ",
    b"Initial random seed",
    b"Time needed",
];

impl DealFormat for OneLine {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// One record a line: cut after any line; a file with lines ending in a lone CR (no LF
    /// to cut at) is read whole.
    fn chunking(&self, head: &[u8]) -> super::stream::Chunking {
        let lone_cr = head
            .iter()
            .enumerate()
            .any(|(i, &c)| c == b'\r' && head.get(i + 1).is_some_and(|&n| n != b'\n'));
        match lone_cr {
            true => super::stream::Chunking::Whole,
            false => super::stream::Chunking::Lines,
        }
    }

    /// Reads one deal a line (see [`OneLine`]).
    ///
    /// # Errors
    /// See [`OneLine`].
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        let mut boards = Vec::with_capacity(data.len() / 72);
        for (i, line) in lines(data).enumerate() {
            if line.iter().all(|c| c.is_ascii_whitespace())
                || TRAILER.iter().any(|t| line.starts_with(t))
            {
                continue;
            }
            let (number, deal) = read_line(line).map_err(|(off, message)| {
                Error::malformed(
                    InputPosition::at_line_column(i + 1, column(line, off)),
                    message,
                )
            })?;
            boards.push(Board {
                number,
                ..Board::unnumbered(deal)
            });
        }
        Ok(boards)
    }

    /// Writes dealer's line (see [`OneLine`], [`OneLine::push_hands`]); `dealdex dealer`'s
    /// `printoneline` writes its deals through [`OneLine::push_hands`] too.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        OneLine::push_hands(out, &b.deal, &Seat::ALL, b' ');
        out.push(b'\n');
    }
}

impl OneLine {
    /// Appends the hands of `seats` (in that order) of `deal` as dealer writes them, each as
    /// its lower-case seat letter, a space and the hand `S.H.D.C` (ranks descending, a void
    /// empty), followed by `sep`: `n AKQ.T9..AKQJT9876 ` with `sep` a space. The one writer
    /// of dealer's hands: the [`OneLine`] line is all four seats with spaces then `\n`,
    /// [`super::DealerCompact`]'s lines all four with `\n`; `dealdex dealer`'s `printoneline`
    /// (its expression's value then follows the last space) and its report items' hands
    /// (DealerV2's `csvrpt`, `printrpt`) write through this too.
    pub fn push_hands(out: &mut Vec<u8>, deal: &Deal, seats: &[Seat], sep: u8) {
        for &seat in seats {
            out.push(seat.letter().to_ascii_lowercase() as u8);
            out.push(b' ');
            push_dotted_hand(out, deal.hand(seat));
            out.push(sep);
        }
    }
}

/// The lines of `data` without their ends: a line ends in `\n`, `\r\n` or a lone `\r`.
fn lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(data);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.iter().position(|&c| c == b'\n' || c == b'\r') {
            Some(p) => {
                let end = match (text[p], text.get(p + 1)) {
                    (b'\r', Some(b'\n')) => p + 2,
                    _ => p + 1,
                };
                rest = Some(&text[end..]);
                Some(&text[..p])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// True for a value `printoneline (expr)` prints after the hands: an optionally signed
/// decimal number (`12`, `-3`, `0.75`).
fn is_value(word: &[u8]) -> bool {
    let digits = word.strip_prefix(b"-").unwrap_or(word);
    let mut parts = digits.splitn(2, |&c| c == b'.');
    let whole = parts.next().unwrap_or_default();
    let fraction = parts.next();
    !whole.is_empty()
        && whole.iter().all(u8::is_ascii_digit)
        && fraction.is_none_or(|f| !f.is_empty() && f.iter().all(u8::is_ascii_digit))
}

/// Checks what follows the fourth hand (from `p`): only values ([`is_value`]); the error is at
/// the first other word (a second deal, or garbage).
fn check_rest(line: &[u8], mut p: usize) -> Result<(), (usize, String)> {
    while let Some((s, e)) = word(line, p) {
        if !is_value(&line[s..e]) {
            return Err((
                s,
                format!(
                    "{:?} after the fourth hand: one deal a line (only the numbers of \
                     printoneline (expr) may follow the hands)",
                    String::from_utf8_lossy(&line[s..e])
                ),
            ));
        }
        p = e;
    }
    Ok(())
}

/// The next word of `line` from `p`: its start and end, `None` at the end of the line.
fn word(line: &[u8], mut p: usize) -> Option<(usize, usize)> {
    while line.get(p).is_some_and(|&c| c == b' ' || c == b'\t') {
        p += 1;
    }
    if p >= line.len() {
        return None;
    }
    let start = p;
    while line.get(p).is_some_and(|&c| c != b' ' && c != b'\t') {
        p += 1;
    }
    Some((start, p))
}

/// One line's board number (endplay's `-b`) and deal; the error is the byte offset of the
/// problem and what it is.
fn read_line(line: &[u8]) -> Result<(Option<u64>, Deal), (usize, String)> {
    let mut hands = [Hand::EMPTY; 4];
    let mut given: [Option<usize>; 4] = [None; 4];
    let mut p = 0;
    let mut number = None;
    if let Some((s, e)) = word(line, 0)
        && line[s..e].iter().all(u8::is_ascii_digit)
    {
        let n = std::str::from_utf8(&line[s..e])
            .ok()
            .and_then(|t| t.parse::<u64>().ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                (
                    s,
                    "a board number from 1 up to 2^64 - 1 was expected".to_string(),
                )
            })?;
        number = Some(n);
        p = e;
    }
    if word(line, p).is_some_and(|(s, e)| line[s..e].contains(&b'.')) {
        // endplay's line: four hands N, E, S, W without seat letters.
        for seat in Seat::ALL {
            let Some((hs, he)) = word(line, p) else {
                return Err((
                    line.len(),
                    format!("{seat} has no hand (expected four hands S.H.D.C, N E S W)"),
                ));
            };
            hands[seat.index()] = read_hand(line, hs, he)?;
            given[seat.index()] = Some(hs);
            p = he;
        }
        check_rest(line, p)?;
        return deal_of(hands, &given).map(|d| (number, d));
    }
    if number.is_some() {
        return Err((
            p,
            "expected four hands S.H.D.C after the board number".into(),
        ));
    }
    for k in 0..4 {
        let Some((s, e)) = word(line, p) else {
            return Err((
                line.len(),
                format!("found {k} hands, expected 4 (n, e, s and w, each with its hand)"),
            ));
        };
        let seat = match &line[s..e] {
            [c] => Seat::from_char(c.to_ascii_uppercase() as char),
            _ => None,
        }
        .ok_or_else(|| {
            (
                s,
                format!(
                    "{:?} is not a seat letter (expected n, e, s or w before each hand)",
                    String::from_utf8_lossy(&line[s..e])
                ),
            )
        })?;
        if given[seat.index()].is_some() {
            return Err((s, format!("{seat} is given twice")));
        }
        let Some((hs, he)) = word(line, e) else {
            return Err((line.len(), format!("{seat} has no hand (expected S.H.D.C)")));
        };
        hands[seat.index()] = read_hand(line, hs, he)?;
        given[seat.index()] = Some(hs);
        p = he;
    }
    check_rest(line, p)?;
    deal_of(hands, &given).map(|d| (None, d))
}

/// The deal of four hands read from the offsets `given`; the error is at the hand with a
/// wrong count or the second holder of a card.
fn deal_of(hands: [Hand; 4], given: &[Option<usize>; 4]) -> Result<Deal, (usize, String)> {
    Deal::new(hands).map_err(|error| {
        let at = match *error.kind() {
            crate::model::ErrorKind::WrongCount { seat, .. } => given[seat.index()],
            crate::model::ErrorKind::DuplicateCard { second, .. } => given[second.index()],
            // Deal::new gives no other kind.
            _ => None,
        };
        (at.unwrap_or(0), error.to_string())
    })
}

/// The hand `S.H.D.C` in `line[start..end]`.
pub(crate) fn read_hand(line: &[u8], start: usize, end: usize) -> Result<Hand, (usize, String)> {
    let mut mask = 0u64;
    let mut suit = 0usize;
    let mut i = start;
    while i < end {
        let c = line[i];
        if c == b'.' {
            suit += 1;
            if suit > 3 {
                return Err((i, "a fifth suit in one hand (expected S.H.D.C)".into()));
            }
            i += 1;
            continue;
        }
        let rank = if c == b'1' && line.get(i + 1) == Some(&b'0') && i + 1 < end {
            i += 1;
            Some(4)
        } else {
            rank_index(c)
        };
        let Some(rank) = rank else {
            return Err((
                i,
                format!(
                    "{} is not a rank (expected AKQJT98765432 or 10)",
                    show_byte(c)
                ),
            ));
        };
        let bit = 1u64 << (suit * 13 + rank);
        if mask & bit != 0 {
            return Err((i, "a card twice in one hand".into()));
        }
        mask |= bit;
        i += 1;
    }
    if suit != 3 {
        return Err((
            end,
            format!("hand has {} suits, expected 4 (S.H.D.C)", suit + 1),
        ));
    }
    Ok(Hand::from_mask(mask))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_error;

    const LINE: &str =
        "n 653.A94.T8.AKJ74 e KT9.KQT83.Q7.Q85 s AQ872.76.AKJ64.3 w J4.J52.9532.T962 \n";

    #[test]
    fn reads_and_writes_dealers_line() {
        let boards = OneLine.read(LINE.as_bytes()).unwrap();
        assert_eq!(boards.len(), 1);
        assert_eq!(
            boards[0].deal.to_string(),
            "N:653.A94.T8.AKJ74 KT9.KQT83.Q7.Q85 AQ872.76.AKJ64.3 J4.J52.9532.T962"
        );
        let mut out = Vec::new();
        OneLine.write_board(&boards[0], &WriteOptions::default(), &mut out);
        assert_eq!(out, LINE.as_bytes());
    }

    /// Three lines of dealer's `printoneline`, the first with an expression's value.
    const THREE: [&str; 3] = [
        "n 653.A94.T8.AKJ74 e KT9.KQT83.Q7.Q85 s AQ872.76.AKJ64.3 w J4.J52.9532.T962 12",
        "n T.AKJ32.AQ42.QJ5 e K6.QT8754.95.AT4 s QJ872.96.KJT3.76 w A9543..876.K9832 ",
        "AJ.9.Q32.AQJ7543 KT876.T76.AJ8.96 Q9542.AKJ2.K6.K2 3.Q8543.T9754.T8 ",
    ];

    /// CRLF and CR line ends read as LF ones do: every deal, in order (a CR-only file was
    /// read as its first line, the other deals dropped).
    #[test]
    fn cr_and_crlf_line_ends_read_as_lf() {
        let lf = OneLine
            .read(format!("{}\n", THREE.join("\n")).as_bytes())
            .unwrap();
        assert_eq!(lf.len(), 3);
        for end in ["\r\n", "\r"] {
            let data = format!("{}{end}", THREE.join(end));
            assert_eq!(OneLine.read(data.as_bytes()).unwrap(), lf, "{end:?}");
            // Read piece by piece as convert and import do.
            let mut cursor = data.as_bytes();
            let mut got = Vec::new();
            super::super::stream::read_stream::<()>(
                &OneLine,
                &mut cursor,
                &super::super::ReadOptions::default(),
                &mut |p| {
                    got.extend(p.boards);
                    Ok(())
                },
            )
            .unwrap();
            let deals: Vec<_> = got.iter().map(|b| b.deal).collect();
            let want: Vec<_> = lf.iter().map(|b| b.deal).collect();
            assert_eq!(deals, want, "{end:?} streamed");
        }
        // An error on the third CR-ended line names line 3.
        let bad = format!("{}\r{}\rn x\r", THREE[0], THREE[1]);
        let e = OneLine.read(bad.as_bytes()).unwrap_err();
        assert_eq!(e.position().unwrap().line, Some(3), "{e}");
    }

    /// A line holding two deals, or anything but the expression values dealer and endplay
    /// print after the hands, is an error at the first word that does not belong (it was
    /// ignored, and the second deal dropped).
    #[test]
    fn two_deals_or_garbage_on_a_line_are_errors() {
        let two = format!("{}{}", THREE[1], THREE[1]);
        let (e, at) = read_error(&OneLine, two);
        assert_eq!(at, InputPosition::at_line_column(1, 77), "{e}");
        assert!(e.to_string().contains("one deal a line"), "{e}");
        let two = format!("{}\n{}{}\n", THREE[0], THREE[2], THREE[2]);
        let (e, at) = read_error(&OneLine, two);
        assert_eq!(at, InputPosition::at_line_column(2, 69), "{e}");
        let garbage = format!("{}garbage\n", THREE[1]);
        let (e, at) = read_error(&OneLine, garbage);
        assert_eq!(at, InputPosition::at_line_column(1, 77), "{e}");
        // Values after the hands are read past: one or more numbers.
        for tail in ["12", "-3", "12 7", "0.75", "12\t"] {
            let line = format!("{}{tail}\n", THREE[1]);
            assert_eq!(OneLine.read(line.as_bytes()).unwrap().len(), 1, "{tail:?}");
        }
    }

    #[test]
    fn errors_name_the_column() {
        let (e, at) = read_error(
            &OneLine,
            b"n 653.A94.T8.AKJ74 e KT9.KQT83.Q7.Q85 s AQ872.76.AKJ64.3 w J4.J52.9532.T96X",
        );
        assert_eq!(at, InputPosition::at_line_column(1, 75), "{e}");
        let (e, at) = read_error(
            &OneLine,
            b"n 653.A94.T8.AKJ74 e KT9.KQT83.Q7.Q85 s AQ872.76.AKJ64.3 w J4.J52.9532.T96",
        );
        assert_eq!(at, InputPosition::at_line_column(1, 60), "{e}");
        assert!(e.to_string().contains("W holds 12"), "{e}");
        let (e, at) = read_error(&OneLine, b"x 653.A94.T8.AKJ74");
        assert_eq!(at, InputPosition::at_line_column(1, 1), "{e}");
    }
}
