//! Tokens of dealer's input language, each with its 1-based line and column.
//!
//! Words are runs of ASCII letters, digits and `_`: keywords, identifiers, numbers, shapes
//! (`4333`, `x5xx`), cards (`AS`, `9S`), holdings (`SAQ542`) and contracts (`x3N`) are all
//! words, told apart by the parser from where they stand (as dealer's own lexer does with its
//! start conditions). Newlines are white space. Comments: `#` and `//` to the end of the line,
//! `/* … */` anywhere (Debian's dealer takes `#` only at the start of a line and `//` only
//! before a newline; dealdex takes them anywhere).
//!
//! DealerV2's additions: a decimal constant (`12.5`, `.25`, `15.`: at most two digits before
//! and two after the point) is its value ×100 ([`Tok::Decimal`]); `$0`…`$9` are replaced by
//! the text of the script parameter, lexed where it stands (not inside strings or comments);
//! `shape{…}` is one token ([`Tok::FdShape`]), read by the parser.

use super::{ScriptError, ScriptErrorKind};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// A word (see the module docs).
    Word(String),
    /// DealerV2's decimal constant, ×100 (`12.5` is 1250), with its text.
    Decimal(i64, String),
    /// François Dellacherie's `shape{…}` (DealerV2): the text between the braces, script
    /// parameters replaced.
    FdShape(String),
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

/// The script parameters `$0`…`$9` (None: not given).
pub(super) type Params = [Option<String>; 10];

/// Splits `src` into tokens, ending with [`Tok::End`]; `$N` is replaced by the tokens of
/// `params[N]` (an error names a `$N` that is not given).
pub(super) fn lex(src: &str, params: &Params) -> Result<Vec<Token>, ScriptError> {
    lex_text(src, Some(params))
}

/// The tokens of `src`, ending with [`Tok::End`] when `params` is given; `params` None for a
/// parameter's text (no end token; a `$` there is refused).
fn lex_text(src: &str, params: Option<&Params>) -> Result<Vec<Token>, ScriptError> {
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
    let digits_from = |from: usize| {
        chars[from.min(chars.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
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
        } else if c == '$' && next.is_some_and(|d| d.is_ascii_digit()) {
            let n = next.and_then(|d| d.to_digit(10)).unwrap_or(0) as usize;
            let at =
                |message: String| ScriptError::new(ScriptErrorKind::Syntax, line, col, message);
            let Some(params) = params else {
                return Err(at(format!(
                    "a script parameter's text may not hold another one (${n})"
                )));
            };
            let Some(text) = &params[n] else {
                return Err(ScriptError::new(
                    ScriptErrorKind::UnsetParameter,
                    line,
                    col,
                    format!("script parameter ${n} is not given"),
                ));
            };
            let toks = lex_text(text, None).map_err(|e| {
                ScriptError::new(
                    e.kind,
                    line,
                    col,
                    format!("in ${n} ({text:?}): {}", e.message),
                )
            })?;
            out.extend(toks.into_iter().map(|t| Token {
                line,
                column: col,
                ..t
            }));
            advance(&mut i, &mut line, &mut col, 2);
        } else if (c.is_ascii_digit() && chars.get(i + digits_from(i)) == Some(&'.'))
            || (c == '.' && next.is_some_and(|d| d.is_ascii_digit()))
        {
            // DealerV2's decimal constant: value ×100.
            let (l0, c0) = (line, col);
            let whole = digits_from(i);
            let frac = digits_from(i + whole + 1);
            let text: String = chars[i..i + whole + 1 + frac].iter().collect();
            if whole > 2 || frac > 2 {
                return Err(ScriptError::new(
                    ScriptErrorKind::BadValue,
                    l0,
                    c0,
                    format!(
                        "decimal constant `{text}`: at most two digits before and two after the point (DealerV2's form)"
                    ),
                ));
            }
            let digit = |k: usize| i64::from(chars[k] as u8 - b'0');
            let mut value = 0;
            for k in i..i + whole {
                value = value * 10 + digit(k);
            }
            value *= 100;
            if frac >= 1 {
                value += 10 * digit(i + whole + 1);
            }
            if frac == 2 {
                value += digit(i + whole + 2);
            }
            advance(&mut i, &mut line, &mut col, whole + 1 + frac);
            out.push(Token {
                tok: Tok::Decimal(value, text),
                line: l0,
                column: c0,
            });
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let (l0, c0) = (line, col);
            let mut s = String::new();
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                s.push(chars[i]);
                advance(&mut i, &mut line, &mut col, 1);
            }
            let brace = i + chars[i..].iter().take_while(|c| c.is_whitespace()).count();
            if s == "shape" && chars.get(brace) == Some(&'{') {
                // DealerV2's `shape{compass, …}`: its text up to `}`, `$N` replaced.
                let Some(len) = chars[brace..].iter().position(|&c| c == '}') else {
                    return Err(ScriptError::new(
                        ScriptErrorKind::Syntax,
                        l0,
                        c0,
                        "shape{ not closed by }",
                    ));
                };
                let raw: String = chars[brace + 1..brace + len].iter().collect();
                let mut text = String::new();
                let mut rest = raw.as_str();
                while let Some(k) = rest.find('$') {
                    text.push_str(&rest[..k]);
                    let n = rest[k + 1..].chars().next().and_then(|d| d.to_digit(10));
                    let value = match (n, params) {
                        (Some(n), Some(p)) => p[n as usize].as_deref().ok_or_else(|| {
                            ScriptError::new(
                                ScriptErrorKind::UnsetParameter,
                                l0,
                                c0,
                                format!("script parameter ${n} is not given (in shape{{}})"),
                            )
                        })?,
                        _ => {
                            return Err(ScriptError::new(
                                ScriptErrorKind::Syntax,
                                l0,
                                c0,
                                "shape{}: `$` not followed by a digit, or in a parameter's text",
                            ));
                        }
                    };
                    text.push_str(value);
                    rest = &rest[k + 2..];
                }
                text.push_str(rest);
                let n = brace + len + 1 - i;
                advance(&mut i, &mut line, &mut col, n);
                out.push(Token {
                    tok: Tok::FdShape(text),
                    line: l0,
                    column: c0,
                });
                continue;
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
    if params.is_some() {
        out.push(Token {
            tok: Tok::End,
            line,
            column: col,
        });
    }
    Ok(out)
}
