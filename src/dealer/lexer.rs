//! Tokens of dealer's input language, each with its 1-based line and column.
//!
//! Words are runs of ASCII letters, digits and `_`: keywords, identifiers, numbers, shapes
//! (`4333`, `x5xx`), cards (`AS`, `9S`), holdings (`SAQ542`) and contracts (`x3N`) are all
//! words, told apart by the parser from where they stand (as dealer's own lexer does with its
//! start conditions). Comments: `#` and `//` to the end of the line, `/* … */` anywhere.

use super::{ScriptError, ScriptErrorKind};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// A word (see the module docs).
    Word(String),
    /// A string in double quotes (may span lines; no escapes, as in dealer).
    Str(String),
    /// An operator or punctuation mark.
    Punct(&'static str),
    /// `\n` outside a string (printes' newline).
    NewlineEsc,
    /// The end of the script.
    End,
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub tok: Tok,
    pub line: u64,
    pub column: u64,
}

const PUNCTS: [&str; 22] = [
    "==", "!=", "<=", ">=", "&&", "||", "(", ")", ",", "+", "-", "*", "/", "%", "!", "?", ":", "<",
    ">", "=", "[", "]",
];

/// Splits `src` into tokens, ending with [`Tok::End`].
pub(super) fn lex(src: &str) -> Result<Vec<Token>, ScriptError> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u64, 1u64);
    let advance = |i: &mut usize, line: &mut u64, col: &mut u64, n: usize| {
        for _ in 0..n {
            if chars.get(*i) == Some(&'\n') {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
            *i += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            advance(&mut i, &mut line, &mut col, 1);
        } else if c == '#' || (c == '/' && next == Some('/')) {
            while i < chars.len() && chars[i] != '\n' {
                advance(&mut i, &mut line, &mut col, 1);
            }
        } else if c == '/' && next == Some('*') {
            let (l0, c0) = (line, col);
            advance(&mut i, &mut line, &mut col, 2);
            loop {
                if i >= chars.len() {
                    return Err(ScriptError::new(
                        ScriptErrorKind::Syntax,
                        l0,
                        c0,
                        "comment /* not closed by */",
                    ));
                }
                if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    advance(&mut i, &mut line, &mut col, 2);
                    break;
                }
                advance(&mut i, &mut line, &mut col, 1);
            }
        } else if c == '"' {
            let (l0, c0) = (line, col);
            advance(&mut i, &mut line, &mut col, 1);
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None => {
                        return Err(ScriptError::new(
                            ScriptErrorKind::Syntax,
                            l0,
                            c0,
                            "string not closed by \"",
                        ));
                    }
                    Some('"') => {
                        advance(&mut i, &mut line, &mut col, 1);
                        break;
                    }
                    Some(&ch) => {
                        s.push(ch);
                        advance(&mut i, &mut line, &mut col, 1);
                    }
                }
            }
            out.push(Token {
                tok: Tok::Str(s),
                line: l0,
                column: c0,
            });
        } else if c == '\\' && next == Some('n') {
            out.push(Token {
                tok: Tok::NewlineEsc,
                line,
                column: col,
            });
            advance(&mut i, &mut line, &mut col, 2);
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let (l0, c0) = (line, col);
            let mut s = String::new();
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                s.push(chars[i]);
                advance(&mut i, &mut line, &mut col, 1);
            }
            out.push(Token {
                tok: Tok::Word(s),
                line: l0,
                column: c0,
            });
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let Some(p) = PUNCTS.iter().find(|p| rest.starts_with(**p)) else {
                return Err(ScriptError::new(
                    ScriptErrorKind::Syntax,
                    line,
                    col,
                    format!("unexpected character {c:?}"),
                ));
            };
            out.push(Token {
                tok: Tok::Punct(p),
                line,
                column: col,
            });
            advance(&mut i, &mut line, &mut col, p.len());
        }
    }
    out.push(Token {
        tok: Tok::End,
        line,
        column: col,
    });
    Ok(out)
}
