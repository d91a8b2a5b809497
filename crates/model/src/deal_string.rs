//! PBN deal strings and PBN 2.1 files (FORMATS.md §4; tistis.nl/pbn, PBN 2.1).
//!
//! Import is tolerant (any first seat, any rank order, `10` for ten, one unknown hand `-`
//! completed from the other three, tags in any order, `{…}` comments and `;` lines skipped);
//! export is canonical (`<dealer>:` first, ranks descending, the mandatory tags in order).
//! Whole PBN files are read and written by `dealdex::formats::Pbn`, which reads and writes its
//! `[Deal]` tags with the codec here.

use crate::card::{Card, RANK_LETTERS, Seat, Suit};
use crate::deal::{Deal, Hand};
use crate::error::{Error, ErrorKind};
use crate::text::{char_at, column, rank_index};

/// Parses a PBN deal string such as `N:AKQ.T9.5432.AK2 …` into a deal.
///
/// Accepted (FORMATS.md §4 import): the first seat `N:`/`E:`/`S:`/`W:` (either case; `N`
/// assumed when missing), four hands clockwise from it separated by white space, each
/// `S.H.D.C` with ranks in any order and `10` for the ten, and at most one hand `-`
/// (unknown) which gets the 13 cards the others do not hold.
///
/// # Errors
/// [`ErrorKind::PbnSyntax`] with the 1-based column of a bad character, a missing or extra
/// hand or suit, or a card written twice in one hand; [`ErrorKind::WrongCount`] or
/// [`ErrorKind::DuplicateCard`] when the hands are not 13 distinct cards each, with the column
/// of the hand with the wrong count or of the card held twice.
///
/// ```
/// use dealdex::ModelErrorKind;
/// let e = dealdex::parse_deal("N:AKQ.x").unwrap_err();
/// assert!(matches!(e.kind(), ModelErrorKind::PbnSyntax { column: Some(7), .. }));
/// assert_eq!(e.position().unwrap().column, Some(7));
/// ```
///
/// ```
/// let d = dealdex::parse_deal("W:458T.45TJQ.7.3QA 6KA.2KA.234.8TJK J92.3.KQT865.965 37Q.6789.9JA.247").unwrap();
/// assert_eq!(dealdex::format_deal(&d, dealdex::Seat::North),
///     "N:AK6.AK2.432.KJT8 J92.3.KQT865.965 Q73.9876.AJ9.742 T854.QJT54.7.AQ3");
/// ```
pub fn parse_deal(s: &str) -> Result<Deal, Error> {
    let to_error = |(offset, error): (usize, Error)| error.at_column(column(s.as_bytes(), offset));
    match parse_deal_text(s.as_bytes(), Text::String) {
        Ok(Some(deal)) => Ok(deal),
        // A string is never read as a partial deal, so this does not happen.
        Ok(None) => Err(to_error(syntax_at(0, "no complete deal"))),
        Err(e) => Err(to_error(e)),
    }
}

/// Parses a PBN file's `[Deal]` value (on bytes that may be Latin-1) with the byte offset of
/// the first problem from the left: the bad character, the card held twice (at its second
/// copy), else the hand with a wrong count. The error is [`parse_deal`]'s without the column
/// (the caller places the offset in its file): [`ErrorKind::PbnSyntax`] for the text,
/// [`ErrorKind::WrongCount`] or [`ErrorKind::DuplicateCard`] for hands that are not a deal.
///
/// Besides the deals [`parse_deal`] accepts, a value may be *partial* (the skip rule of
/// docs/GUIDE.md "Deal files"): two or more hands unknown (`-`) or empty (`...`), or no hands at all
/// after the seat, give `Ok(None)` (no complete deal: the board is skipped). One such hand
/// is completed from the other three, as [`parse_deal`] completes `-`. A hand of more than
/// 13 cards, three or four hands that do not hold 13 each, a card held twice and every
/// syntax problem stay errors.
///
/// # Errors
/// The byte offset and the error, as above.
pub fn parse_deal_bytes(v: &[u8]) -> Result<Option<Deal>, (usize, Error)> {
    parse_deal_text(v, Text::Value)
}

/// What a deal string is read from: the two differ only where noted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Text {
    /// A `&str` given to [`parse_deal`]: any Unicode white space separates hands, and the
    /// problems of the hands as a set (a card in two hands, a wrong count) come after every
    /// syntax problem, as [`Deal::new`] finds them.
    String,
    /// A PBN file's tag value ([`parse_deal_bytes`]): ASCII white space separates hands, the
    /// first problem from the left is the error, and a partial deal is no deal (`None`).
    Value,
}

/// A syntax problem at the byte offset `offset`, without its column (the caller places it).
fn syntax_at(offset: usize, message: impl Into<String>) -> (usize, Error) {
    let kind = ErrorKind::PbnSyntax {
        column: None,
        message: message.into(),
    };
    (offset, kind.into())
}

/// The length of the white space at `v[p]`, 0 for none.
fn space_at(v: &[u8], p: usize, text: Text) -> usize {
    match v.get(p) {
        Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c') => 1,
        Some(&c) if c >= 0x80 && text == Text::String => {
            let c = char_at(v, p);
            if c.is_whitespace() { c.len_utf8() } else { 0 }
        }
        _ => 0,
    }
}

/// Reads the hand `S.H.D.C` in `v[start..end]` (not `-`), calling `card(index, offset)` for
/// each card (its suited-order index and its byte offset).
fn scan_hand(
    v: &[u8],
    start: usize,
    end: usize,
    mut card: impl FnMut(usize, usize) -> Result<(), (usize, Error)>,
) -> Result<(), (usize, Error)> {
    let (mut suit, mut from) = (0, start);
    for (i, &c) in v.iter().enumerate().take(end).skip(start) {
        if c == b'.' {
            scan_ranks(v, from, i, suit, &mut card)?;
            if suit == 3 {
                return Err(syntax_at(i, "a fifth suit in one hand (expected S.H.D.C)"));
            }
            (suit, from) = (suit + 1, i + 1);
        }
    }
    scan_ranks(v, from, end, suit, &mut card)?;
    if suit != 3 {
        return Err(syntax_at(
            end,
            format!("hand has {} suits, expected 4 (S.H.D.C)", suit + 1),
        ));
    }
    Ok(())
}

/// Reads the ranks of suit `suit` (0 for spades) in `v[start..end]`, `10` for the ten,
/// calling `card(index, offset)` for each card.
fn scan_ranks(
    v: &[u8],
    start: usize,
    end: usize,
    suit: usize,
    card: &mut impl FnMut(usize, usize) -> Result<(), (usize, Error)>,
) -> Result<(), (usize, Error)> {
    let mut i = start;
    while i < end {
        let at = i;
        let rank = if v[i] == b'1' && i + 1 < end && v[i + 1] == b'0' {
            i += 1;
            Some(4)
        } else {
            rank_index(v[i])
        };
        let Some(rank) = rank else {
            return Err(syntax_at(
                at,
                format!(
                    "{:?} is not a rank (expected AKQJT98765432 or 10)",
                    char_at(v, at)
                ),
            ));
        };
        card(suit * 13 + rank, at)?;
        i += 1;
    }
    Ok(())
}

/// Reads a hand written suit by suit, `S:AQ4 H:J D:KJ6543 C:632`: white-space separated
/// `SUIT:RANKS` in any order, each suit at most once, a missing suit or `-` a void.
fn scan_lettered_hand(
    v: &[u8],
    mut card: impl FnMut(usize, usize) -> Result<(), (usize, Error)>,
) -> Result<(), (usize, Error)> {
    let mut given = [false; 4];
    let mut i = 0;
    while i < v.len() {
        // White space as a deal string's (any Unicode white space: `space_at`).
        match space_at(v, i, Text::String) {
            0 => {}
            n => {
                i += n;
                continue;
            }
        }
        let start = i;
        while i < v.len() && space_at(v, i, Text::String) == 0 {
            i += 1;
        }
        let token = &v[start..i];
        let shown = |b: &[u8]| format!("{:?}", String::from_utf8_lossy(b));
        let Some(colon) = token.iter().position(|&c| c == b':') else {
            return Err(syntax_at(
                start,
                format!("{} is not SUIT:RANKS", shown(token)),
            ));
        };
        let letter = std::str::from_utf8(&token[..colon]).ok().and_then(|l| {
            let mut chars = l.chars();
            chars.next().filter(|_| chars.next().is_none())
        });
        let Some(suit) = letter.and_then(Suit::from_char) else {
            return Err(syntax_at(
                start,
                format!("{} is not a suit (S, H, D, C)", shown(&token[..colon])),
            ));
        };
        if std::mem::replace(&mut given[suit as usize], true) {
            return Err(syntax_at(
                start,
                format!("{} is given twice", suit.letter()),
            ));
        }
        if &v[start + colon + 1..i] != b"-" {
            scan_ranks(v, start + colon + 1, i, suit as usize, &mut card)?;
        }
    }
    Ok(())
}

impl std::str::FromStr for Hand {
    type Err = Error;

    /// A hand (any number of cards, each once) from its PBN text, `AQ4.J.KJ6543.632` (spades
    /// first, ranks in any order, `T` or `10` for the ten, white space around it ignored), or
    /// suit by suit, `S:AQ4 H:J D:KJ6543 C:632` (any order; a suit left out or `-` is void).
    /// Callers that need 13 cards check [`Hand::len`].
    ///
    /// ```
    /// use dealdex::Hand;
    /// let hand: Hand = "AQ4.J.KJ6543.632".parse()?;
    /// assert_eq!("S:AQ4 H:J D:KJ6543 C:632".parse::<Hand>()?, hand);
    /// assert_eq!((hand.len(), hand.to_string()), (13, "AQ4.J.KJ6543.632".to_owned()));
    /// assert_eq!("AK.x..".parse::<Hand>().unwrap_err().to_string(),
    ///     r#"column 4: 'x' is not a rank (expected AKQJT98765432 or 10)"#);
    /// # Ok::<(), dealdex::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::PbnSyntax`] with the 1-based column (in characters) of a character that is
    /// not a rank, a missing or fifth suit, a card written twice, a suit given twice or a
    /// token that is not `SUIT:RANKS`.
    fn from_str(text: &str) -> Result<Hand, Error> {
        let v = text.as_bytes();
        let mut hand = Hand::EMPTY;
        let add = |index: usize, at: usize| {
            let card = Card::from_index(index).expect("a suit's rank: below 52");
            match hand.insert(card) {
                true => Ok(()),
                false => Err(syntax_at(at, format!("{card} appears twice in the hand"))),
            }
        };
        let scanned = match text.contains(':') {
            true => scan_lettered_hand(v, add),
            false => {
                let start = text.len() - text.trim_start().len();
                scan_hand(v, start, text.trim_end().len(), add)
            }
        };
        scanned.map_err(|(offset, error)| error.at_column(column(v, offset)))?;
        Ok(hand)
    }
}

/// The deal string parser behind [`parse_deal`] and [`parse_deal_bytes`]; `None` is a
/// partial deal (only for [`Text::Value`]).
fn parse_deal_text(v: &[u8], text: Text) -> Result<Option<Deal>, (usize, Error)> {
    let partial = text == Text::Value;
    let skip = |mut p: usize| loop {
        match space_at(v, p, text) {
            0 => return p,
            n => p += n,
        }
    };
    let mut pos = skip(0);
    let mut first = Seat::North;
    if let Some(seat) = first_seat(v, pos, text)? {
        first = seat;
        pos += 2;
    }
    let mut masks = [0u64; 4];
    let mut known = [false; 4];
    // Where each seat's hand starts and ends.
    let mut spans = [(0usize, 0usize); 4];
    let mut all = 0u64;
    let mut count = 0;
    let mut unknown_hand = None;
    // Partial deals: the hands written `-`.
    let mut unknown = [false; 4];
    loop {
        pos = skip(pos);
        if pos >= v.len() {
            break;
        }
        if count == 4 {
            return Err(syntax_at(pos, "more than four hands"));
        }
        let start = pos;
        while pos < v.len() && space_at(v, pos, text) == 0 {
            pos += 1;
        }
        let seat = first.rotate(count);
        let s = seat.index();
        spans[s] = (start, pos);
        count += 1;
        if v.get(start..pos) == Some(b"-") {
            if partial {
                unknown[s] = true;
                continue;
            }
            if unknown_hand.is_some() {
                return Err(syntax_at(start, "more than one unknown hand (-)"));
            }
            unknown_hand = Some(s);
            continue;
        }
        known[s] = true;
        scan_hand(v, start, pos, |index, at| {
            let bit = 1u64 << index;
            let Some(card) = Card::from_index(index) else {
                return Ok(());
            };
            if masks[s] & bit != 0 {
                return Err(syntax_at(at, format!("{card} appears twice in one hand")));
            }
            if all & bit != 0 && text == Text::Value {
                let other = (0..4).find(|&o| masks[o] & bit != 0).unwrap_or(0);
                let error = ErrorKind::DuplicateCard {
                    card,
                    first: Seat::from_index(other),
                    second: seat,
                    column: None,
                };
                return Err((at, error.into()));
            }
            masks[s] |= bit;
            all |= bit;
            Ok(())
        })?;
    }
    if partial && count == 0 {
        // `[Deal "N:"]`: a seat and no hands.
        return Ok(None);
    }
    if count < 4 {
        return Err(syntax_at(
            v.len(),
            format!("found {count} hands, expected 4"),
        ));
    }
    if partial && !complete_partial(&mut masks, known, unknown, &spans, first)? {
        return Ok(None);
    }
    if let Some(s) = unknown_hand {
        masks[s] = !all & ((1u64 << 52) - 1);
    }
    Deal::new(masks.map(Hand::from_mask))
        .map(Some)
        .map_err(|error| (deal_error_offset(v, &spans, &error), error))
}

/// The seat of a deal string's `N:` prefix at `v[pos..]`, `None` without a prefix; an
/// error when the character before the colon is not a seat letter.
fn first_seat(v: &[u8], pos: usize, text: Text) -> Result<Option<Seat>, (usize, Error)> {
    let seat_len = match text {
        Text::String if pos < v.len() => char_at(v, pos).len_utf8(),
        _ => 1,
    };
    if v.get(pos + seat_len) != Some(&b':') {
        return Ok(None);
    }
    match v.get(pos) {
        Some(&c) if c.is_ascii() => Seat::from_char(c as char),
        _ => None,
    }
    .map(Some)
    .ok_or_else(|| {
        syntax_at(
            pos,
            format!(
                "{:?} is not a seat (expected N, E, S or W)",
                char_at(v, pos)
            ),
        )
    })
}

/// A partial deal's check and completion (`masks`, per seat index, the cards read; `known`,
/// the hands written; `unknown`, the hands written `-`; `spans`, where each hand is written;
/// `first`, the first hand's seat): each hand written holds at most 13 cards, and 13 unless
/// two or more hands are missing (unknown or written empty). One missing hand gets the
/// cards left. False when two or more are missing (the deal stays partial).
fn complete_partial(
    masks: &mut [u64; 4],
    known: [bool; 4],
    unknown: [bool; 4],
    spans: &[(usize, usize); 4],
    first: Seat,
) -> Result<bool, (usize, Error)> {
    let missing: Vec<usize> = (0..4).filter(|&i| unknown[i] || masks[i] == 0).collect();
    for k in 0..4 {
        let seat = first.rotate(k);
        let s = seat.index();
        let n = masks[s].count_ones() as usize;
        if known[s] && (n > 13 || (missing.len() < 2 && n != 13 && !missing.contains(&s))) {
            let error = ErrorKind::WrongCount {
                seat,
                count: n,
                column: None,
            };
            return Err((spans[s].0, error.into()));
        }
    }
    let all = masks.iter().fold(0, |a, m| a | m);
    match missing[..] {
        [] => {}
        [m] => masks[m] = !all & ((1u64 << 52) - 1),
        _ => return Ok(false),
    }
    Ok(true)
}

/// Where [`Deal::new`]'s `error` points in the deal string `v` (`spans`, where each seat's
/// hand is written, by seat index): the hand with the wrong count, or the card in the
/// second hand holding it.
fn deal_error_offset(v: &[u8], spans: &[(usize, usize); 4], error: &Error) -> usize {
    match *error.kind() {
        ErrorKind::DuplicateCard { card, second, .. } => {
            let (start, end) = spans[second.index()];
            let mut at = start;
            let _ = scan_hand(v, start, end, |index, offset| {
                if index == card.index() {
                    at = offset;
                }
                Ok(())
            });
            at
        }
        ErrorKind::WrongCount { seat, .. } => spans[seat.index()].0,
        // Deal::new gives no other kind.
        _ => 0,
    }
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
    // The deal string is ASCII.
    if let Ok(s) = std::str::from_utf8(&deal_string(deal, first)) {
        out.push_str(s);
    }
}

/// Appends the canonical PBN deal string of [`format_deal`] to `out` as bytes.
pub fn push_deal_bytes(out: &mut Vec<u8>, deal: &Deal, first: Seat) {
    out.extend_from_slice(&deal_string(deal, first));
}

/// The length of a canonical deal string: `N:`, then four hands of 13 ranks and 3 dots with a
/// space between hands.
const DEAL_LEN: usize = 69;

/// The canonical deal string of [`format_deal`].
fn deal_string(deal: &Deal, first: Seat) -> [u8; DEAL_LEN] {
    let mut s = [0u8; DEAL_LEN];
    let mut at = 0;
    // A deal fills exactly the 69 bytes; `get_mut` keeps this free of panics even so.
    let mut put = |b: u8| {
        if let Some(slot) = s.get_mut(at) {
            *slot = b;
        }
        at += 1;
    };
    put(first.letter() as u8);
    put(b':');
    for k in 0..4 {
        if k > 0 {
            put(b' ');
        }
        let hand = deal.hand(first.rotate(k));
        for suit in Suit::ALL {
            if suit != Suit::Spades {
                put(b'.');
            }
            let mut m = hand.suit_mask(suit);
            while m != 0 {
                put(RANK_LETTERS[m.trailing_zeros() as usize]);
                m &= m - 1;
            }
        }
    }
    s
}

impl std::str::FromStr for Deal {
    type Err = Error;

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

#[cfg(test)]
mod tests {
    use super::*;

    fn syntax(column: usize, message: impl Into<String>) -> Error {
        ErrorKind::PbnSyntax {
            column: Some(column),
            message: message.into(),
        }
        .into()
    }

    proptest::proptest! {
        /// Any set of cards reads back from its PBN text and from its suits by letter, in
        /// any order of the suits, with `10` for the ten.
        #[test]
        fn hands_read_back_in_both_forms(mask in 0u64..1 << 52, turn in 0usize..4) {
            let hand = Hand::from_mask(mask);
            proptest::prop_assert_eq!(hand.to_string().parse::<Hand>(), Ok(hand));
            let mut suits: Vec<String> = Suit::ALL
                .iter()
                .map(|&s| format!("{}:{}", s.letter(), hand.holding_string(s)))
                .collect();
            suits.rotate_left(turn);
            let lettered = suits.join(" ").replace('T', "10");
            proptest::prop_assert_eq!(lettered.parse::<Hand>(), Ok(hand));
        }
    }

    #[test]
    fn hand_text_errors_name_the_column() {
        let message = |text: &str| text.parse::<Hand>().unwrap_err().to_string();
        assert_eq!(
            message("AK.A.A.A.A"),
            "column 9: a fifth suit in one hand (expected S.H.D.C)"
        );
        assert_eq!(
            message("AK.A.A"),
            "column 7: hand has 3 suits, expected 4 (S.H.D.C)"
        );
        assert_eq!(message("AKA..."), "column 3: SA appears twice in the hand");
        assert_eq!(message("S:AK H:Q S:2"), "column 10: S is given twice");
        assert_eq!(
            message("S:AK X:Q"),
            r#"column 6: "X" is not a suit (S, H, D, C)"#
        );
        assert_eq!(message("S:AK Q"), r#"column 6: "Q" is not SUIT:RANKS"#);
        assert_eq!(
            "S:- H: D:AKQ".parse::<Hand>().unwrap().to_string(),
            "..AKQ."
        );
        assert_eq!("  .AK10..  ".parse::<Hand>().unwrap().to_string(), ".AKT..");
        // Any white space between suits, as between a deal string's hands.
        assert_eq!(
            "S:AQ4\u{a0}H:J\tC:2".parse::<Hand>().unwrap().to_string(),
            "AQ4.J..2"
        );
    }

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
        assert!(matches!(
            e.kind(),
            ErrorKind::PbnSyntax {
                column: Some(1),
                ..
            }
        ));
        let e = parse_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.").unwrap_err();
        assert!(e.to_string().contains("found 3 hands"));
        let e = parse_deal("N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
            .unwrap_err();
        assert_eq!(
            *e.kind(),
            ErrorKind::WrongCount {
                seat: Seat::North,
                count: 12,
                column: Some(3)
            }
        );
        assert_eq!(e.to_string(), "column 3: N holds 12 cards, expected 13");
        // A card held by two hands: the column of its second holder's copy (West's ♠A).
        let e = parse_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. A...KQJT98765432")
            .unwrap_err();
        assert_eq!(e.to_string(), "column 54: SA is held by both N and W");
        // An unknown hand completed with too few cards: the column of the `-`.
        let e = parse_deal("N:AKQJT98765432... - ..AKQJT98765432. ...AKQJT9876543").unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::WrongCount {
                    column: Some(20),
                    ..
                }
            ),
            "{e}"
        );
        // A second unknown hand: its own column.
        let e = parse_deal("N:AKQJT98765432... - - ...AKQJT98765432").unwrap_err();
        assert_eq!(e, syntax(22, "more than one unknown hand (-)"));
        let e =
            parse_deal("N:AA.... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432").unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::PbnSyntax {
                column: Some(4),
                ..
            }
        ));
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

    #[test]
    fn file_values_and_strings_differ_in_order_and_spaces() {
        // ♠A in North's and East's hands, then a bad rank in West's: a file's value reports
        // the first problem from the left, a string its syntax problem first.
        let s = "N:AKQJT98765432... A.KQJT98765432.. ..AKQJT98765432. ...AKQJT987654X";
        let (offset, e) = parse_deal_bytes(s.as_bytes()).unwrap_err();
        assert_eq!(
            (offset, e.to_string()),
            (19, "SA is held by both N and E".to_string())
        );
        assert!(matches!(
            e.kind(),
            ErrorKind::DuplicateCard { column: None, .. }
        ));
        assert_eq!(
            parse_deal(s).unwrap_err().to_string(),
            "column 68: 'X' is not a rank (expected AKQJT98765432 or 10)"
        );
        // Unicode white space separates hands in a string only.
        let t = "N:AKQJT98765432...\u{a0}.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
        assert!(parse_deal(t).is_ok());
        let (offset, e) = parse_deal_bytes(t.as_bytes()).unwrap_err();
        assert_eq!(
            (offset, e.to_string()),
            (
                18,
                "'\\u{a0}' is not a rank (expected AKQJT98765432 or 10)".to_string()
            )
        );
        assert!(matches!(
            e.kind(),
            ErrorKind::PbnSyntax { column: None, .. }
        ));
        // A character that is not ASCII is never a rank.
        let e = parse_deal("N:ŁKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432");
        assert!(
            matches!(
                e.as_ref().map_err(Error::kind),
                Err(ErrorKind::PbnSyntax {
                    column: Some(3),
                    ..
                })
            ),
            "{e:?}"
        );
    }

    #[test]
    fn deal_strings_as_text_and_bytes() {
        let d = parse_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
            .unwrap();
        let mut bytes = Vec::new();
        push_deal_bytes(&mut bytes, &d, Seat::East);
        assert_eq!(bytes, format_deal(&d, Seat::East).as_bytes());
        assert_eq!(
            format_deal(&d, Seat::East),
            "E:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432..."
        );
    }
}
