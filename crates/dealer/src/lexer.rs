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

use super::Error;

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
pub(super) fn lex(src: &str, params: &Params) -> Result<Vec<Token>, Error> {
    lex_text(src, Some(params))
}

/// The tokens of `src`, ending with [`Tok::End`] when `params` is given; `params` None for a
/// parameter's text (no end token; a `$` there is refused).
fn lex_text(src: &str, params: Option<&Params>) -> Result<Vec<Token>, Error> {
    let mut lexer = Lexer {
        chars: src.chars().collect(),
        i: 0,
        line: 1,
        col: 1,
        params,
        out: Vec::new(),
    };
    while lexer.i < lexer.chars.len() {
        lexer.token()?;
    }
    if params.is_some() {
        lexer.push(Tok::End, lexer.line, lexer.col);
    }
    Ok(lexer.out)
}

/// A text being split into tokens: where the next character is, and the tokens so far.
struct Lexer<'p> {
    chars: Vec<char>,
    /// The next character's index in `chars`, its line and its column.
    i: usize,
    line: u64,
    col: u64,
    /// The script parameters (None in a parameter's text).
    params: Option<&'p Params>,
    out: Vec<Token>,
}

impl Lexer<'_> {
    /// Moves `n` characters on, counting lines and columns.
    fn advance(&mut self, n: usize) {
        for _ in 0..n {
            if self.chars.get(self.i) == Some(&'\n') {
                self.line += 1;
                self.col = 1;
            } else {
                self.col += 1;
            }
            self.i += 1;
        }
    }

    /// The number of digits from index `from` on.
    fn digits_from(&self, from: usize) -> usize {
        self.chars[from.min(self.chars.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    }

    /// Adds a token starting at `line` and `column`.
    fn push(&mut self, tok: Tok, line: u64, column: u64) {
        self.out.push(Token { tok, line, column });
    }

    /// Reads what starts at the next character: white space, a comment or a token.
    fn token(&mut self) -> Result<(), Error> {
        let c = self.chars[self.i];
        let next = self.chars.get(self.i + 1).copied();
        if c.is_whitespace() {
            self.advance(1);
        } else if c == '#' || (c == '/' && next == Some('/')) {
            while self.i < self.chars.len() && self.chars[self.i] != '\n' {
                self.advance(1);
            }
        } else if c == '/' && next == Some('*') {
            self.block_comment()?;
        } else if c == '"' {
            self.string()?;
        } else if c == '\\' && next == Some('n') {
            self.push(Tok::NewlineEsc, self.line, self.col);
            self.advance(2);
        } else if c == '$' && next.is_some_and(|d| d.is_ascii_digit()) {
            let n = next.and_then(|d| d.to_digit(10)).unwrap_or(0) as usize;
            self.parameter(n)?;
        } else if (c.is_ascii_digit()
            && self.chars.get(self.i + self.digits_from(self.i)) == Some(&'.'))
            || (c == '.' && next.is_some_and(|d| d.is_ascii_digit()))
        {
            self.decimal()?;
        } else if c.is_ascii_alphanumeric() || c == '_' {
            self.word()?;
        } else {
            self.punct(c)?;
        }
        Ok(())
    }

    /// Skips a `/* … */` comment.
    fn block_comment(&mut self) -> Result<(), Error> {
        let (l0, c0) = (self.line, self.col);
        self.advance(2);
        loop {
            if self.i >= self.chars.len() {
                return Err(Error::syntax(l0, c0, "comment /* not closed by */"));
            }
            if self.chars[self.i] == '*' && self.chars.get(self.i + 1) == Some(&'/') {
                self.advance(2);
                return Ok(());
            }
            self.advance(1);
        }
    }

    /// Reads a string in double quotes. DealerV2's `title` string also ends at the end of
    /// its line (DealerV2's lexer ends every string there; Debian's dealer reads on).
    fn string(&mut self) -> Result<(), Error> {
        let (l0, c0) = (self.line, self.col);
        let title =
            matches!(self.out.last(), Some(Token { tok: Tok::Word(w), .. }) if w == "title");
        self.advance(1);
        let mut s = String::new();
        loop {
            match self.chars.get(self.i) {
                Some('\n') if title => break,
                None => {
                    return Err(Error::syntax(l0, c0, "string not closed by \""));
                }
                Some('"') => {
                    self.advance(1);
                    break;
                }
                Some(&ch) => {
                    s.push(ch);
                    self.advance(1);
                }
            }
        }
        self.push(Tok::Str(s), l0, c0);
        Ok(())
    }

    /// Replaces `$n` by the tokens of the script parameter's text, each placed at the `$`.
    fn parameter(&mut self, n: usize) -> Result<(), Error> {
        let (line, col) = (self.line, self.col);
        let Some(params) = self.params else {
            return Err(Error::syntax(
                line,
                col,
                format!("a script parameter's text may not hold another one (${n})"),
            ));
        };
        let Some(text) = &params[n] else {
            return Err(Error::unset_parameter(
                line,
                col,
                format!("script parameter ${n} is not given"),
            ));
        };
        let toks = lex_text(text, None).map_err(|mut e| {
            if let Some((l, c, message)) = e.script_mut() {
                (*l, *c) = (line, col);
                *message = format!("in ${n} ({text:?}): {message}");
            }
            e
        })?;
        self.out.extend(toks.into_iter().map(|t| Token {
            line,
            column: col,
            ..t
        }));
        self.advance(2);
        Ok(())
    }

    /// Reads DealerV2's decimal constant: value ×100.
    fn decimal(&mut self) -> Result<(), Error> {
        let (i, l0, c0) = (self.i, self.line, self.col);
        let whole = self.digits_from(i);
        let frac = self.digits_from(i + whole + 1);
        let text: String = self.chars[i..i + whole + 1 + frac].iter().collect();
        if whole > 2 || frac > 2 {
            return Err(Error::bad_value(
                l0,
                c0,
                format!(
                    "decimal constant `{text}`: at most two digits before and two after the point (DealerV2's form)"
                ),
            ));
        }
        let digit = |k: usize| i64::from(self.chars[k] as u8 - b'0');
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
        self.advance(whole + 1 + frac);
        self.push(Tok::Decimal(value, text), l0, c0);
        Ok(())
    }

    /// Reads a word, or DealerV2's `shape{…}` when the word is `shape` and `{` follows.
    fn word(&mut self) -> Result<(), Error> {
        let (l0, c0) = (self.line, self.col);
        let mut s = String::new();
        while self.i < self.chars.len()
            && (self.chars[self.i].is_ascii_alphanumeric() || self.chars[self.i] == '_')
        {
            s.push(self.chars[self.i]);
            self.advance(1);
        }
        let rest = &self.chars[self.i..];
        let brace = self.i + rest.iter().take_while(|c| c.is_whitespace()).count();
        if s == "shape" && self.chars.get(brace) == Some(&'{') {
            return self.fd_shape(brace, l0, c0);
        }
        // Digits glued to a word that is no shape and no card (`tp<14and …`): a number, then
        // the word, as dealer's lexer reads them (a number is digits; a word starts with a
        // letter). A shape's digits go on with `x` or digits (`75xxany` is glued shapes, for
        // the parser); a card (`2C`) is two characters.
        let digits = s.chars().take_while(char::is_ascii_digit).count();
        let glued = s[digits..].starts_with(|c: char| c.is_ascii_alphabetic() && c != 'x');
        if digits > 0 && s.len() > 2 && glued {
            let rest = s.split_off(digits);
            self.push(Tok::Word(s), l0, c0);
            self.push(Tok::Word(rest), l0, c0 + digits as u64);
            return Ok(());
        }
        self.push(Tok::Word(s), l0, c0);
        Ok(())
    }

    /// Reads DealerV2's `shape{compass, …}` from its `{` at `brace` (the word `shape` read,
    /// at line `l0` and column `c0`): its text up to `}`, `$N` replaced.
    fn fd_shape(&mut self, brace: usize, l0: u64, c0: u64) -> Result<(), Error> {
        let Some(len) = self.chars[brace..].iter().position(|&c| c == '}') else {
            return Err(Error::syntax(l0, c0, "shape{ not closed by }"));
        };
        let raw: String = self.chars[brace + 1..brace + len].iter().collect();
        let text = self.fd_shape_text(&raw, l0, c0)?;
        let n = brace + len + 1 - self.i;
        self.advance(n);
        self.push(Tok::FdShape(text), l0, c0);
        Ok(())
    }

    /// The text `raw` of a `shape{…}` (at line `l0` and column `c0`) with each `$N` replaced
    /// by the script parameter's text.
    fn fd_shape_text(&self, raw: &str, l0: u64, c0: u64) -> Result<String, Error> {
        let mut text = String::new();
        let mut rest = raw;
        while let Some(k) = rest.find('$') {
            text.push_str(&rest[..k]);
            let n = rest[k + 1..].chars().next().and_then(|d| d.to_digit(10));
            let value = match (n, self.params) {
                (Some(n), Some(p)) => p[n as usize].as_deref().ok_or_else(|| {
                    Error::unset_parameter(
                        l0,
                        c0,
                        format!("script parameter ${n} is not given (in shape{{}})"),
                    )
                })?,
                _ => {
                    return Err(Error::syntax(
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
        Ok(text)
    }

    /// Reads an operator or a punctuation mark (`c` its first character).
    fn punct(&mut self, c: char) -> Result<(), Error> {
        let rest: String = self.chars[self.i..self.chars.len().min(self.i + 2)]
            .iter()
            .collect();
        let Some(p) = PUNCTS.iter().find(|p| rest.starts_with(**p)) else {
            return Err(Error::syntax(
                self.line,
                self.col,
                format!("unexpected character {c:?}"),
            ));
        };
        self.push(Tok::Punct(p), self.line, self.col);
        self.advance(p.len());
        Ok(())
    }
}
