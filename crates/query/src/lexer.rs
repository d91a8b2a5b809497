//! Tokens of the query language, each with its byte span in the query text.

use crate::model::card::Suit;
use crate::model::features::Comparison;

use super::Error;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A name: ASCII letters, digits and `_`, starting with a letter or `_` (keywords,
    /// functions, seats, sides, suits; matched case-insensitively by the parser).
    Ident,
    /// A run of decimal digits (an integer, or a compact shape literal like `4432`).
    Int,
    /// A dashed shape literal: digit runs joined by `-` with nothing between, e.g.
    /// `4-4-3-2` or `10-1-1-1` (so `10-2` is one, a bad shape; `10 - 2` is a difference).
    Dashed,
    /// A suit symbol `♠♥♦♣` (or the white variants `♤♡♢♧`).
    SuitSymbol(Suit),
    /// A contract literal: a level 1..7 and a strain with nothing between, doubled or not
    /// (`3NT`, `4s`, `5HX`, `6NXX`); the parser reads it with the model's contract parser.
    Contract,
    /// A double-quoted text, `"Fantoni"` (no escapes; it ends at the next `"`); the span
    /// holds the quotes.
    Str,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// `..`
    DotDot,
    /// `+`
    Plus,
    /// `-` (outside a dashed shape literal)
    Minus,
    /// A comparison operator.
    Cmp(Comparison),
    /// `&&`
    AndOp,
    /// `||`
    OrOp,
    /// `!` (not followed by `=`)
    NotOp,
    /// The end of the query.
    End,
}

/// One token: its kind and byte span `start..end` in the query text.
#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// The 1-based column (in characters) of byte offset `byte` of `src`.
pub(super) fn column(src: &str, byte: usize) -> usize {
    src.get(..byte).map_or(0, |s| s.chars().count()) + 1
}

/// The 1-based columns (in characters) of the byte offsets `bytes` of `src`, given in any
/// order, counted in one pass over the text: a column counted from the start for each of a
/// long query's comparisons made parsing it quadratic (a third of the time for 200 kB).
pub(super) fn columns(src: &str, bytes: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..bytes.len()).collect();
    order.sort_unstable_by_key(|&k| bytes[k]);
    let mut out = vec![1; bytes.len()];
    let (mut at, mut chars) = (0, 0);
    for k in order {
        if let Some(s) = src.get(at..bytes[k]) {
            chars += s.chars().count();
            at = bytes[k];
        }
        out[k] = chars + 1;
    }
    out
}

/// A [`Error`] at byte offset `byte` of `src`.
pub(super) fn error_at(src: &str, byte: usize, message: impl Into<String>) -> Error {
    Error::syntax(column(src, byte), message)
}

/// Splits `src` into tokens, ending with one [`Kind::End`] token at `src.len()`.
///
/// # Errors
/// A character that starts no token (column of that character), a lone `&`, `|` or `.`,
/// and an integer above `i64::MAX`.
///
/// A `-` right between two digits belongs to a dashed shape literal (`4-4-3-2`); any other
/// `-` is [`Kind::Minus`].
pub(super) fn tokenize(src: &str) -> Result<Vec<Token>, Error> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(c) = src[i..].chars().next() {
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let start = i;
        let (kind, end) = match c {
            'a'..='z' | 'A'..='Z' | '_' => {
                let len = bytes[i..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                (Kind::Ident, i + len)
            }
            '1'..='7' if contract_len(&bytes[i..]) > 0 => {
                (Kind::Contract, i + contract_len(&bytes[i..]))
            }
            '"' => match src[i + 1..].find('"') {
                Some(close) => (Kind::Str, i + close + 2),
                None => {
                    return Err(error_at(
                        src,
                        start,
                        "unclosed '\"': a text runs to the next '\"'",
                    ));
                }
            },
            '0'..='9' => number(src, start)?,
            c => punctuation(src, start, c)?,
        };
        i = end;
        out.push(Token { kind, start, end });
    }
    out.push(Token {
        kind: Kind::End,
        start: src.len(),
        end: src.len(),
    });
    Ok(out)
}

/// The number token at `start`: an integer, or a dashed shape literal (`4-4-3-2`), and
/// where it ends.
fn number(src: &str, start: usize) -> Result<(Kind, usize), Error> {
    let bytes = src.as_bytes();
    let mut i = digits_end(bytes, start);
    let mut dashed = false;
    while i + 1 < bytes.len() && bytes[i] == b'-' && bytes[i + 1].is_ascii_digit() {
        dashed = true;
        i = digits_end(bytes, i + 1);
    }
    if !dashed && src[start..i].parse::<i64>().is_err() {
        return Err(error_at(
            src,
            start,
            format!("number {} is too large", &src[start..i]),
        ));
    }
    Ok((if dashed { Kind::Dashed } else { Kind::Int }, i))
}

/// The punctuation token `c` at `start` begins (one or two ASCII bytes, or one suit
/// symbol), and where it ends.
fn punctuation(src: &str, start: usize, c: char) -> Result<(Kind, usize), Error> {
    let next = src.as_bytes().get(start + 1).copied();
    let (kind, len) = match (c, next) {
        ('(', _) => (Kind::LParen, 1),
        (')', _) => (Kind::RParen, 1),
        (',', _) => (Kind::Comma, 1),
        ('+', _) => (Kind::Plus, 1),
        ('-', _) => (Kind::Minus, 1),
        ('.', Some(b'.')) => (Kind::DotDot, 2),
        ('=', Some(b'=')) => (Kind::Cmp(Comparison::Eq), 2),
        ('=', _) => (Kind::Cmp(Comparison::Eq), 1),
        ('!', Some(b'=')) => (Kind::Cmp(Comparison::Ne), 2),
        ('!', _) => (Kind::NotOp, 1),
        ('<', Some(b'=')) => (Kind::Cmp(Comparison::Le), 2),
        ('<', Some(b'>')) => (Kind::Cmp(Comparison::Ne), 2),
        ('<', _) => (Kind::Cmp(Comparison::Lt), 1),
        ('>', Some(b'=')) => (Kind::Cmp(Comparison::Ge), 2),
        ('>', _) => (Kind::Cmp(Comparison::Gt), 1),
        ('&', Some(b'&')) => (Kind::AndOp, 2),
        ('|', Some(b'|')) => (Kind::OrOp, 2),
        _ => match Suit::from_char(c) {
            Some(s) if !c.is_ascii() => (Kind::SuitSymbol(s), c.len_utf8()),
            _ => {
                let hint = match c {
                    '&' => " (did you mean && or and?)",
                    '|' => " (did you mean || or or?)",
                    '.' => " (a range is written a..b)",
                    _ => "",
                };
                return Err(error_at(
                    src,
                    start,
                    format!("unexpected character {c:?}{hint}"),
                ));
            }
        },
    };
    Ok((kind, start + len))
}

/// The length of the contract literal `bytes` starts with (a level 1..7, a strain `C`,
/// `D`, `H`, `S`, `N` or `NT`, then `X` or `XX`, any case, and no letter, digit or `_`
/// after), 0 when it starts with none.
fn contract_len(bytes: &[u8]) -> usize {
    let upper: Vec<u8> = bytes.iter().take(6).map(u8::to_ascii_uppercase).collect();
    let strain = match upper.get(1..) {
        Some([b'N', b'T', ..]) => 2,
        Some([b'C' | b'D' | b'H' | b'S' | b'N', ..]) => 1,
        _ => return 0,
    };
    let mut end = 1 + strain;
    while end < 1 + strain + 2 && upper.get(end) == Some(&b'X') {
        end += 1;
    }
    match bytes.get(end) {
        Some(b) if b.is_ascii_alphanumeric() || *b == b'_' => 0,
        _ => end,
    }
}

/// The end of the run of ASCII digits starting at `i`.
fn digits_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    i
}
