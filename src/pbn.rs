//! PBN deal strings and PBN 2.1 files (FORMATS.md §4; tistis.nl/pbn, PBN 2.1).
//!
//! Import is tolerant (any first seat, any rank order, `10` for ten, one unknown hand `-`
//! completed from the other three, tags in any order, `{…}` comments and `;` lines skipped);
//! export is canonical (`<dealer>:` first, ranks descending, the mandatory tags in order).
//! Whole PBN files are read and written by [`crate::formats::Pbn`].

use crate::board::{board_dealer, board_vulnerability};
use crate::card::{Card, Rank, Seat, Suit};
use crate::deal::{Deal, DealError, Hand, push_holding};

/// What is wrong with a PBN deal string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PbnError {
    /// A character that has no place at that point of a deal string.
    #[error("column {column}: {message}")]
    Syntax {
        /// 1-based column (character position) in the deal string.
        column: usize,
        /// What was found and what was expected.
        message: String,
    },
    /// The hands parse but are not a deal (wrong count, card held by two hands).
    #[error("column {column}: {error}")]
    Deal {
        /// 1-based column: the start of the hand with the wrong count, or the card's place
        /// in the second hand holding it.
        column: usize,
        /// What is wrong with the hands.
        error: DealError,
    },
}

fn syntax(column: usize, message: impl Into<String>) -> PbnError {
    PbnError::Syntax {
        column,
        message: message.into(),
    }
}

/// Parses a PBN deal string such as `N:AKQ.T9.5432.AK2 …` into a deal.
///
/// Accepted (FORMATS.md §4 import): the first seat `N:`/`E:`/`S:`/`W:` (either case; `N`
/// assumed when missing), four hands clockwise from it separated by white space, each
/// `S.H.D.C` with ranks in any order and `10` for the ten, and at most one hand `-`
/// (unknown) which gets the 13 cards the others do not hold.
///
/// # Errors
/// [`PbnError::Syntax`] with the 1-based column of a bad character, a missing or extra hand
/// or suit, or a card written twice in one hand; [`PbnError::Deal`] when the hands are not
/// 13 distinct cards each, with the column of the hand with the wrong count or of the card
/// held twice.
///
/// ```
/// let d = dealdex::parse_deal("W:458T.45TJQ.7.3QA 6KA.2KA.234.8TJK J92.3.KQT865.965 37Q.6789.9JA.247").unwrap();
/// assert_eq!(dealdex::format_deal(&d, dealdex::Seat::North),
///     "N:AK6.AK2.432.KJT8 J92.3.KQT865.965 Q73.9876.AJ9.742 T854.QJT54.7.AQ3");
/// ```
pub fn parse_deal(s: &str) -> Result<Deal, PbnError> {
    let chars: Vec<char> = s.chars().collect();
    let mut pos = 0;
    while pos < chars.len() && chars[pos].is_whitespace() {
        pos += 1;
    }
    let mut first = Seat::North;
    if pos + 1 < chars.len() && chars[pos + 1] == ':' {
        first = Seat::from_char(chars[pos]).ok_or_else(|| {
            syntax(
                pos + 1,
                format!("{:?} is not a seat (expected N, E, S or W)", chars[pos]),
            )
        })?;
        pos += 2;
    }
    let mut hands: [Option<Hand>; 4] = [None; 4];
    // Per seat: the 1-based column where its hand starts, and where each of its cards is.
    let mut starts = [0usize; 4];
    let mut columns = [[0usize; 52]; 4];
    let mut unknown = None;
    let mut count = 0;
    loop {
        while pos < chars.len() && chars[pos].is_whitespace() {
            pos += 1;
        }
        if pos >= chars.len() {
            break;
        }
        if count == 4 {
            return Err(syntax(pos + 1, "more than four hands"));
        }
        let start = pos;
        while pos < chars.len() && !chars[pos].is_whitespace() {
            pos += 1;
        }
        let seat = first.rotate(count).index();
        starts[seat] = start + 1;
        hands[seat] = parse_hand(&chars[start..pos], start + 1, &mut columns[seat])?;
        if hands[seat].is_none() {
            if unknown.is_some() {
                return Err(syntax(start + 1, "more than one unknown hand (-)"));
            }
            unknown = Some(seat);
        }
        count += 1;
    }
    if count < 4 {
        return Err(syntax(
            chars.len() + 1,
            format!("found {count} hands, expected 4"),
        ));
    }
    let known_mask = hands.iter().flatten().fold(0u64, |m, h| m | h.mask());
    let full = hands.map(|h| h.unwrap_or(Hand::from_mask(!known_mask)));
    Deal::new(full).map_err(|error| {
        let column = match error {
            DealError::WrongCount { seat, .. } => starts[seat.index()],
            DealError::DuplicateCard { card, second, .. } => columns[second.index()][card.index()],
        };
        PbnError::Deal { column, error }
    })
}

/// Parses one hand `S.H.D.C` (or `-`); `column` is the 1-based column of its first char, and
/// `columns[card]` gets the column of each card read.
fn parse_hand(
    chars: &[char],
    column: usize,
    columns: &mut [usize; 52],
) -> Result<Option<Hand>, PbnError> {
    if chars == ['-'] {
        return Ok(None);
    }
    let mut hand = Hand::EMPTY;
    let mut suit = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = column + i;
        if c == '.' {
            suit += 1;
            if suit > 3 {
                return Err(syntax(col, "a fifth suit in one hand (expected S.H.D.C)"));
            }
            i += 1;
            continue;
        }
        let rank = if c == '1' && chars.get(i + 1) == Some(&'0') {
            i += 1;
            Rank::TEN
        } else {
            Rank::from_char(c).ok_or_else(|| {
                syntax(
                    col,
                    format!("{c:?} is not a rank (expected AKQJT98765432 or 10)"),
                )
            })?
        };
        let card = Card::new(Suit::from_index(suit), rank);
        if !hand.insert(card) {
            return Err(syntax(col, format!("{card} appears twice in one hand")));
        }
        columns[card.index()] = col;
        i += 1;
    }
    if suit != 3 {
        return Err(syntax(
            column + chars.len(),
            format!("hand has {} suits, expected 4 (S.H.D.C)", suit + 1),
        ));
    }
    Ok(Some(hand))
}

/// Formats a deal as a canonical PBN deal string: `<first>:` then the four hands clockwise
/// from `first`, each `S.H.D.C` with ranks descending (FORMATS.md §4 export).
///
/// ```
/// # let d: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse().unwrap();
/// assert_eq!(dealdex::format_deal(&d, dealdex::Seat::West),
///     "W:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.");
/// ```
pub fn format_deal(deal: &Deal, first: Seat) -> String {
    let mut s = String::with_capacity(69);
    push_deal(&mut s, deal, first);
    s
}

/// Appends the canonical PBN deal string of [`format_deal`] to `out`.
pub fn push_deal(out: &mut String, deal: &Deal, first: Seat) {
    out.push(first.letter());
    out.push(':');
    for k in 0..4 {
        if k > 0 {
            out.push(' ');
        }
        let hand = deal.hand(first.rotate(k));
        for suit in Suit::ALL {
            if suit != Suit::Spades {
                out.push('.');
            }
            push_holding(out, hand.suit_mask(suit));
        }
    }
}

impl std::str::FromStr for Deal {
    type Err = PbnError;

    /// Parses a PBN deal string, as [`parse_deal`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_deal(s)
    }
}

impl std::fmt::Display for Deal {
    /// The canonical PBN deal string with North first.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_deal(self, Seat::North))
    }
}

/// The first lines of a PBN 2.1 export file.
pub const PBN_HEADER: &str = "% PBN 2.1\n% EXPORT\n";

/// Appends one PBN export game for `board` (1-based): an empty separator line, then the
/// mandatory tags in export order with dealer and vulnerability from FORMATS.md §3, the deal
/// from the dealer, and `?` for every unknown value. `event` is written as given (`?` when
/// empty; a `"` becomes `'`).
pub fn push_game(b: &mut String, event: &str, board: u64, deal: &Deal) {
    use std::fmt::Write as _;
    let dealer = board_dealer(board);
    let event = if event.is_empty() {
        "?".into()
    } else {
        event.replace('"', "'")
    };
    b.push('\n');
    let _ = write!(
        b,
        "[Event \"{event}\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"{board}\"]\n\
         [West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n\
         [Dealer \"{dealer}\"]\n[Vulnerable \"{}\"]\n[Deal \"",
        board_vulnerability(board),
    );
    push_deal(b, deal, dealer);
    b.push_str("\"]\n[Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n[Result \"?\"]\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_name_the_column() {
        let e = parse_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543X")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "column 69: 'X' is not a rank (expected AKQJT98765432 or 10)"
        );
        let e = parse_deal("X:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
            .unwrap_err();
        assert!(matches!(e, PbnError::Syntax { column: 1, .. }));
        let e = parse_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.").unwrap_err();
        assert!(e.to_string().contains("found 3 hands"));
        let e = parse_deal("N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
            .unwrap_err();
        assert_eq!(
            e,
            PbnError::Deal {
                column: 3,
                error: DealError::WrongCount {
                    seat: Seat::North,
                    count: 12
                }
            }
        );
        assert_eq!(e.to_string(), "column 3: N holds 12 cards, expected 13");
        // A card held by two hands: the column of its second holder's copy (West's ♠A).
        let e = parse_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. A...KQJT98765432")
            .unwrap_err();
        assert_eq!(e.to_string(), "column 54: SA is held by both N and W");
        // An unknown hand completed with too few cards: the column of the `-`.
        let e = parse_deal("N:AKQJT98765432... - ..AKQJT98765432. ...AKQJT9876543").unwrap_err();
        assert!(matches!(e, PbnError::Deal { column: 20, .. }), "{e}");
        // A second unknown hand: its own column.
        let e = parse_deal("N:AKQJT98765432... - - ...AKQJT98765432").unwrap_err();
        assert_eq!(e, syntax(22, "more than one unknown hand (-)"));
        let e =
            parse_deal("N:AA.... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432").unwrap_err();
        assert!(matches!(e, PbnError::Syntax { column: 4, .. }));
    }

    #[test]
    fn tolerant_import() {
        let canonical = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
        let d = parse_deal(canonical).unwrap();
        let variants = [
            "n:23456789TJQKA... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
            "E:.AKQJ1098765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432...",
            "N:AKQJT98765432... - ..AKQJT98765432. ...AKQJT98765432",
            "  N:AKQJT98765432...   .AKQJT98765432..\t..AKQJT98765432. ...AKQJT98765432  ",
        ];
        for v in variants {
            assert_eq!(parse_deal(v).unwrap(), d, "{v}");
        }
        assert_eq!(format_deal(&d, Seat::North), canonical);
    }
}
