//! Recursive-descent parser with type checking: tokens → [`Cond`].
//!
//! Each parse step returns a typed [`Item`] (a condition, a number, a `shape(X)` /
//! `pattern(X)` awaiting its literal, or a literal) with its byte span, so a type error
//! names the operand at fault and its column. Sums are flattened into one [`Expr`] as they
//! are parsed, and each partial sum's range (from [`Term::bounds`]) is checked against
//! `i64` there, so evaluation (Rust or SQLite) can never overflow.

use std::str::FromStr;

use crate::model::board::Vulnerability;
use crate::model::card::{Card, Seat, Suit};
use crate::model::contract::Strain;
use crate::model::features::{Comparison, Side};

use super::lexer::{Kind, Token, error_at, tokenize};
use super::{
    AddOp, Cond, Error, Expr, MAX_DEPTH, MAX_SQL_DEPTH, MAX_SQL_PARAMS, MAX_SUM_TERMS, PlayedCond,
    PlayedNum, ShapeTest, Term, Who,
};

/// The functions of the language, as listed in error messages.
const FUNCTIONS: &str = "hcp, len, controls, ltc, longest, balanced, semibalanced, shape, pattern, dd, par, lead, lost; on a played board also contract, strain, declarer, room, player, north, east, south, west, event, level, doubled, result, tricks, score, par, board, lead_cost";

/// The names of a played board's numbers written without parentheses.
const PLAYED_NUMBERS: [(&str, PlayedNum); 8] = [
    ("level", PlayedNum::Level),
    ("doubled", PlayedNum::Doubled),
    ("result", PlayedNum::Result),
    ("tricks", PlayedNum::Tricks),
    ("score", PlayedNum::Score),
    ("par", PlayedNum::Par),
    ("board", PlayedNum::Board),
    ("lead_cost", PlayedNum::LeadCost),
];

/// The names of a played board's conditions, each compared with `=` or `!=` and a literal.
const PLAYED_SUBJECTS: [&str; 10] = [
    "contract", "strain", "declarer", "room", "player", "north", "east", "south", "west", "event",
];

/// The vulnerability names `par` takes, as listed in error messages.
const VULNERABILITIES: &str = "none, ns, ew, all, both, love";

/// What a parsed piece of the query is, before it is known to be used correctly.
enum Val {
    /// A condition (true or false for each deal).
    Cond(Cond),
    /// A number: a term or a sum (never a lone literal: those are [`Val::Int`]).
    Num(Expr),
    /// `shape(X)` (`exact == false`) or `pattern(X)` (`exact == true`): must be compared
    /// with a shape literal by `=` or `!=`.
    ShapeOf { seat: Seat, exact: bool },
    /// An integer literal; the byte span of its digits (they may also be a compact shape
    /// literal like `4432`).
    Int(i64, usize, usize),
    /// A dashed shape literal like `4-4-3-2`, with its byte span.
    Dashed(usize, usize),
}

/// A [`Val`] with the byte span of its source text.
struct Item {
    val: Val,
    start: usize,
    end: usize,
}

/// Parses and type-checks a whole query: the condition, and the 1-based column (in
/// characters) of each comparison (`a OP b`, `a in lo..hi`, not those of shapes) in the
/// order they are written, which is the order [`super::bounds`] meets them walking the
/// condition (a comparison never holds another one, and `and` / `or` keep their operands'
/// order).
pub(super) fn parse(src: &str) -> Result<(Cond, Vec<usize>), Error> {
    let tokens = tokenize(src)?;
    if tokens.len() == 1 {
        return Err(error_at(
            src,
            0,
            "empty query: expected a condition such as hcp(N) >= 12",
        ));
    }
    let mut p = Parser {
        src,
        tokens,
        pos: 0,
        comparisons: Vec::new(),
    };
    let item = p.or(0)?;
    let t = p.peek();
    match t.kind {
        Kind::End => {
            let cond = p.cond(item)?;
            let columns = super::lexer::columns(src, &p.comparisons);
            Ok((cond, columns))
        }
        Kind::RParen => Err(p.err(t, "unmatched ')'")),
        _ if matches!(item.val, Val::Cond(_)) => Err(p.err(
            t,
            format!(
                "unexpected {} after a complete condition (expected and, or, or the end of the query)",
                p.describe(t)
            ),
        )),
        _ => Err(p.err(
            t,
            format!(
                "unexpected {} after {} (expected a comparison operator such as >=)",
                p.describe(t),
                p.item_text(&item)
            ),
        )),
    }
}

struct Parser<'a> {
    src: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    /// The byte offset where each number comparison (`Cond::Cmp`, `Cond::Range`) parsed so
    /// far starts, in order.
    comparisons: Vec<usize>,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Token {
        self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn bump(&mut self) -> Token {
        let t = self.peek();
        if t.kind != Kind::End {
            self.pos += 1;
        }
        t
    }

    fn text(&self, t: Token) -> &'a str {
        &self.src[t.start..t.end]
    }

    fn item_text(&self, item: &Item) -> &'a str {
        &self.src[item.start..item.end]
    }

    fn is_keyword(&self, t: Token, kw: &str) -> bool {
        t.kind == Kind::Ident && self.text(t).eq_ignore_ascii_case(kw)
    }

    fn err(&self, t: Token, message: impl Into<String>) -> Error {
        error_at(self.src, t.start, message)
    }

    fn err_item(&self, item: &Item, message: impl Into<String>) -> Error {
        error_at(self.src, item.start, message)
    }

    /// How a token is named in messages: `'foo'`, or `end of query`.
    fn describe(&self, t: Token) -> String {
        match t.kind {
            Kind::End => "end of query".to_string(),
            _ => format!("'{}'", self.text(t)),
        }
    }

    fn deeper(&self, depth: usize, t: Token) -> Result<usize, Error> {
        if depth >= MAX_DEPTH {
            Err(self.err(
                t,
                format!(
                    "query nested too deeply (more than {MAX_DEPTH} levels of parentheses and not)"
                ),
            ))
        } else {
            Ok(depth + 1)
        }
    }

    /// `or := and (('or' | '||') and)*`
    fn or(&mut self, depth: usize) -> Result<Item, Error> {
        self.chain(depth, true)
    }

    /// `or` (with `or`) or `and` (without): its operands (`and`s or `not`s) joined by the
    /// operator, nested chains of the same operator flattened into one; a lone operand as it
    /// is.
    fn chain(&mut self, depth: usize, or: bool) -> Result<Item, Error> {
        let operand = |p: &mut Self| match or {
            true => p.and(depth),
            false => p.not(depth),
        };
        let at_operator = |p: &Self| match or {
            true => p.at_or(),
            false => p.at_and(),
        };
        let first = operand(self)?;
        if !at_operator(self) {
            return Ok(first);
        }
        let (start, mut end) = (first.start, first.end);
        let mut parts = Vec::new();
        push_flat(&mut parts, self.cond(first)?, or);
        while at_operator(self) {
            self.bump();
            let next = operand(self)?;
            end = next.end;
            push_flat(&mut parts, self.cond(next)?, or);
        }
        let cond = match or {
            true => Cond::Or(parts),
            false => Cond::And(parts),
        };
        self.shallow(Item {
            val: Val::Cond(cond),
            start,
            end,
        })
    }

    /// `item` if its SQL is at most [`MAX_SQL_DEPTH`] levels deep with at most
    /// [`MAX_SQL_PARAMS`] placeholders, else the error at its first column.
    fn shallow(&self, item: Item) -> Result<Item, Error> {
        let Val::Cond(c) = &item.val else {
            return Ok(item);
        };
        let depth = super::sql::depth(c);
        let why = if depth > MAX_SQL_DEPTH {
            format!(
                "query too deep: the SQL of the group starting here would nest {depth} levels (the limit is {MAX_SQL_DEPTH}, SQLite's 1000 less room for the statement); nest fewer long and/or groups or long sums inside one another"
            )
        } else {
            let params = super::sql::params(c);
            if params <= MAX_SQL_PARAMS {
                return Ok(item);
            }
            format!(
                "query too large: the group starting here holds {params} numbers in SQL (the limit is SQLite's {MAX_SQL_PARAMS}; balanced takes 28, semibalanced 52, a shape up to 24, a literal 1)"
            )
        };
        Err(self.err_item(&item, why))
    }

    fn at_or(&self) -> bool {
        let t = self.peek();
        t.kind == Kind::OrOp || self.is_keyword(t, "or")
    }

    fn at_and(&self) -> bool {
        let t = self.peek();
        t.kind == Kind::AndOp || self.is_keyword(t, "and")
    }

    /// `and := not (('and' | '&&') not)*`
    fn and(&mut self, depth: usize) -> Result<Item, Error> {
        self.chain(depth, false)
    }

    /// `not := ('not' | '!') not | comparison`
    fn not(&mut self, depth: usize) -> Result<Item, Error> {
        let t = self.peek();
        if t.kind == Kind::NotOp || self.is_keyword(t, "not") {
            let depth = self.deeper(depth, t)?;
            self.bump();
            let inner = self.not(depth)?;
            let end = inner.end;
            let c = self.cond(inner)?;
            return self.shallow(Item {
                val: Val::Cond(Cond::Not(Box::new(c))),
                start: t.start,
                end,
            });
        }
        self.comparison(depth)
    }

    /// `comparison := sum (CMP sum | 'in' INT '..' INT)?`
    fn comparison(&mut self, depth: usize) -> Result<Item, Error> {
        let left = self.sum(depth)?;
        let t = self.peek();
        let item = if let Kind::Cmp(op) = t.kind {
            self.bump();
            let right = self.sum(depth)?;
            let (start, end) = (left.start, right.end);
            let cond = self.compare(left, op, t, right)?;
            if let Cond::Cmp(..) = cond {
                self.comparisons.push(start);
            }
            Item {
                val: Val::Cond(cond),
                start,
                end,
            }
        } else if self.is_keyword(t, "in") {
            self.bump();
            let start = left.start;
            let term = self.number(left, "in")?;
            let lo = self.int_literal("after 'in'")?;
            let dots = self.bump();
            if dots.kind != Kind::DotDot {
                return Err(self.err(
                    dots,
                    format!("expected '..' in the range, found {}", self.describe(dots)),
                ));
            }
            let hi = self.int_literal("after '..'")?;
            if lo.0 > hi.0 {
                return Err(self.err(
                    lo.1,
                    format!(
                        "empty range {}..{}: the first bound exceeds the second",
                        lo.0, hi.0
                    ),
                ));
            }
            self.comparisons.push(start);
            Item {
                val: Val::Cond(Cond::Range(term, lo.0, hi.0)),
                start,
                end: hi.1.end,
            }
        } else {
            return Ok(left);
        };
        let t = self.peek();
        if matches!(t.kind, Kind::Cmp(_)) || self.is_keyword(t, "in") {
            return Err(self.err(
                t,
                "comparisons cannot be chained: join them with and, e.g. hcp(N) >= 12 and hcp(N) <= 14",
            ));
        }
        Ok(item)
    }

    /// `sum := primary (('+' | '-') primary)*`, left-associative, flattened into one
    /// [`Expr`] (a parenthesised sum after `-` has its signs flipped). Each operand must be
    /// a number; each partial sum, left to right, must stay within `i64` for every deal
    /// (by [`Term::bounds`]), else the error is at the operator that could overflow.
    fn sum(&mut self, depth: usize) -> Result<Item, Error> {
        let first = self.primary(depth)?;
        let t = self.peek();
        if !matches!(t.kind, Kind::Plus | Kind::Minus) {
            return Ok(first);
        }
        let start = first.start;
        let mut end = first.end;
        let mut expr = self.number(first, self.text(t))?;
        // The range of the sum so far (a parenthesised first operand had its partial sums
        // checked when it was parsed).
        let (mut lo, mut hi) = range(&expr);
        while let Kind::Plus | Kind::Minus = self.peek().kind {
            let op_tok = self.bump();
            let sub = op_tok.kind == Kind::Minus;
            let right = self.primary(depth)?;
            end = right.end;
            let r = self.number(right, self.text(op_tok))?;
            let signed = std::iter::once((AddOp::Add, r.first)).chain(r.rest);
            for (op, t) in signed {
                let op = match (op, sub) {
                    (AddOp::Add, false) | (AddOp::Sub, true) => AddOp::Add,
                    _ => AddOp::Sub,
                };
                let (a, b) = t.bounds();
                (lo, hi) = match op {
                    AddOp::Add => (lo + i128::from(a), hi + i128::from(b)),
                    AddOp::Sub => (lo - i128::from(b), hi - i128::from(a)),
                };
                if lo < i128::from(i64::MIN) || hi > i128::from(i64::MAX) {
                    let text = &self.src[start..end];
                    let (which, v, limit) = if hi > i128::from(i64::MAX) {
                        ("large", hi, i64::MAX)
                    } else {
                        ("small", lo, i64::MIN)
                    };
                    return Err(self.err(
                        op_tok,
                        format!(
                            "number out of range: {text} could be as {which} as {v} on some deal (the limit is {limit}; each term's range is in docs/query.md)"
                        ),
                    ));
                }
                if expr.rest.len() + 1 >= MAX_SUM_TERMS {
                    return Err(self.err(
                        op_tok,
                        format!(
                            "sum too long: more than {MAX_SUM_TERMS} terms (SQLite nests a sum one level per operator)"
                        ),
                    ));
                }
                expr.rest.push((op, t));
            }
        }
        Ok(Item {
            val: Val::Num(expr),
            start,
            end,
        })
    }

    /// An integer literal (for range bounds), with its token.
    fn int_literal(&mut self, after: &str) -> Result<(i64, Token), Error> {
        let t = self.bump();
        match t.kind {
            Kind::Int => match self.text(t).parse::<i64>() {
                Ok(v) => Ok((v, t)),
                Err(_) => Err(self.err(t, "number too large")),
            },
            _ => Err(self.err(
                t,
                format!(
                    "expected a whole number {after}, found {}",
                    self.describe(t)
                ),
            )),
        }
    }

    /// `primary := '(' or ')' | INT | SHAPE | call`
    fn primary(&mut self, depth: usize) -> Result<Item, Error> {
        let t = self.peek();
        match t.kind {
            Kind::LParen => {
                let depth = self.deeper(depth, t)?;
                self.bump();
                let inner = self.or(depth)?;
                let close = self.peek();
                match close.kind {
                    Kind::RParen => {
                        self.bump();
                        Ok(Item {
                            start: t.start,
                            end: close.end,
                            ..inner
                        })
                    }
                    Kind::End => Err(self.err(
                        t,
                        "unclosed '(': no matching ')' before the end of the query",
                    )),
                    _ => Err(self.err(
                        close,
                        format!(
                            "expected ')' to close the '(' at column {}, found {}",
                            super::lexer::column(self.src, t.start),
                            self.describe(close)
                        ),
                    )),
                }
            }
            Kind::Int => {
                self.bump();
                match self.text(t).parse::<i64>() {
                    Ok(v) => Ok(Item {
                        val: Val::Int(v, t.start, t.end),
                        start: t.start,
                        end: t.end,
                    }),
                    Err(_) => Err(self.err(t, "number too large")),
                }
            }
            Kind::Dashed => {
                self.bump();
                Ok(Item {
                    val: Val::Dashed(t.start, t.end),
                    start: t.start,
                    end: t.end,
                })
            }
            Kind::Ident => self.call(),
            Kind::Minus => Err(self.err(
                t,
                "unexpected '-': there are no negative numbers (write a difference such as 0 - 1, or move the term to the other side)",
            )),
            Kind::RParen => Err(self.err(
                t,
                "unmatched ')' (expected a condition, a number or '(' here)",
            )),
            Kind::End => Err(self.err(
                t,
                "unexpected end of query: expected a condition, a number or '('",
            )),
            _ => Err(self.err(
                t,
                format!(
                    "expected a condition, a number or '(', found {}",
                    self.describe(t)
                ),
            )),
        }
    }

    /// `call := NAME '(' arg (',' arg)* ')'`, checked against the function's signature.
    fn call(&mut self) -> Result<Item, Error> {
        let name_tok = self.bump();
        let name = self.text(name_tok).to_ascii_lowercase();
        if self.peek().kind != Kind::LParen {
            if let Some(&(_, n)) = PLAYED_NUMBERS.iter().find(|(k, _)| *k == name) {
                return Ok(Item {
                    val: num(Term::Played(n)),
                    start: name_tok.start,
                    end: name_tok.end,
                });
            }
            if PLAYED_SUBJECTS.contains(&name.as_str()) {
                return self.played_cond(name_tok, &name);
            }
        }
        let known = matches!(
            name.as_str(),
            "hcp"
                | "len"
                | "controls"
                | "ltc"
                | "longest"
                | "balanced"
                | "semibalanced"
                | "shape"
                | "pattern"
                | "dd"
                | "par"
                | "lead"
                | "lost"
        );
        let open = self.peek();
        if !known {
            return Err(self.unknown_name(name_tok, &name, open));
        }
        if open.kind != Kind::LParen {
            return Err(self.err(
                open,
                format!("expected '(' after {name}, found {}", self.describe(open)),
            ));
        }
        self.bump();
        let (args, close) = self.arguments(&name, open)?;
        let (start, end) = (name_tok.start, close.end);
        let (min, max, usage) = signature(&name);
        if args.len() < min {
            return Err(self.err(close, format!("missing argument: {usage}")));
        }
        if args.len() > max {
            return Err(self.err(args[max], format!("too many arguments: {usage}")));
        }
        let val = self.function(&name, &args)?;
        Ok(Item { val, start, end })
    }

    /// The error for `name` (lower case, at `name_tok`), which is no function: a keyword out
    /// of place, an unknown function (`open` is '('), or an unknown name.
    fn unknown_name(&self, name_tok: Token, name: &str, open: Token) -> Error {
        let what = self.text(name_tok);
        if matches!(name, "and" | "or" | "not" | "in") {
            self.err(
                name_tok,
                format!("unexpected keyword '{what}': expected a condition, a number or '('"),
            )
        } else if open.kind == Kind::LParen {
            self.err(
                name_tok,
                format!("unknown function '{what}' (known functions: {FUNCTIONS})"),
            )
        } else {
            self.err(
                name_tok,
                format!(
                    "unknown name '{what}': expected a function call such as hcp(N), a number, not or '(' (known functions: {FUNCTIONS})"
                ),
            )
        }
    }

    /// The arguments of `name(…)` after its `open`ing '(': names or suit symbols separated by
    /// commas, and the closing ')'.
    fn arguments(&mut self, name: &str, open: Token) -> Result<(Vec<Token>, Token), Error> {
        let mut args: Vec<Token> = Vec::new();
        let close = loop {
            let a = self.bump();
            match a.kind {
                Kind::Ident | Kind::SuitSymbol(_) => args.push(a),
                Kind::End => {
                    return Err(self.err(open, format!("unclosed '(' of {name}(…)")));
                }
                Kind::RParen if args.is_empty() => break a,
                _ => {
                    let what = match name {
                        "par" => "a side, vulnerability or seat",
                        "lead" => "a seat, strain or card",
                        _ => "a seat, side or suit",
                    };
                    return Err(self.err(
                        a,
                        format!(
                            "expected {what} as argument of {name}, found {}",
                            self.describe(a)
                        ),
                    ));
                }
            }
            let sep = self.bump();
            match sep.kind {
                Kind::Comma => {}
                Kind::RParen => break sep,
                Kind::End => {
                    return Err(self.err(open, format!("unclosed '(' of {name}(…)")));
                }
                _ => {
                    return Err(self.err(
                        sep,
                        format!(
                            "expected ',' or ')' in {name}(…), found {}",
                            self.describe(sep)
                        ),
                    ));
                }
            }
        };
        Ok((args, close))
    }

    /// The value of function `name` of `args`, as many as its signature takes.
    fn function(&self, name: &str, args: &[Token]) -> Result<Val, Error> {
        Ok(match name {
            "hcp" => num(Term::Hcp(self.who(args[0], name)?)),
            "controls" => num(Term::Controls(self.who(args[0], name)?)),
            "len" => {
                let who = self.who(args[0], name)?;
                num(Term::Len(who, self.suit(args[1])?))
            }
            "dd" => {
                // `declarer` and `strain`: the played board's (a played term).
                let played = |t: Token, word: &str| self.text(t).eq_ignore_ascii_case(word);
                let who = match played(args[0], "declarer") {
                    true => None,
                    false => Some(self.who(args[0], name)?),
                };
                let strain = match played(args[1], "strain") {
                    true => None,
                    false => Some(self.strain(args[1])?),
                };
                match (who, strain) {
                    (Some(who), Some(strain)) => num(Term::Dd(who, strain)),
                    (who, strain) => num(Term::PlayedDd(who, strain)),
                }
            }
            "lost" => {
                let side = self.text(args[0]).to_ascii_lowercase();
                num(Term::Played(match side.as_str() {
                    "declarer" => PlayedNum::DeclarerLost,
                    "defence" | "defense" => PlayedNum::DefenceLost,
                    _ => {
                        return Err(self.unknown(
                            args[0],
                            "side of the play",
                            "lost takes declarer or defence",
                        ));
                    }
                }))
            }
            "lead" => {
                let leader = self.seat(args[0], name)?;
                let strain = self.strain(args[1])?;
                num(Term::Lead(leader, strain, self.card(args[2])?))
            }
            "par" => {
                let side = self.side(args[0], name)?;
                let vul = self.vulnerability(args[1])?;
                let dealer = match args.get(2) {
                    None => Seat::North,
                    Some(&t) => self.dealer(t)?,
                };
                num(Term::Par(side, vul, dealer))
            }
            "ltc" => num(Term::Ltc(self.seat(args[0], name)?)),
            "longest" => num(Term::Longest(self.seat(args[0], name)?)),
            "balanced" => Val::Cond(Cond::Balanced(self.seat(args[0], name)?)),
            "semibalanced" => Val::Cond(Cond::SemiBalanced(self.seat(args[0], name)?)),
            "shape" => Val::ShapeOf {
                seat: self.seat(args[0], name)?,
                exact: false,
            },
            _ => Val::ShapeOf {
                seat: self.seat(args[0], name)?,
                exact: true,
            },
        })
    }

    /// `SUBJECT = LITERAL` or `SUBJECT != LITERAL` on a played board, `subject` (one of
    /// [`PLAYED_SUBJECTS`], lower case) read at `name_tok`.
    fn played_cond(&mut self, name_tok: Token, subject: &str) -> Result<Item, Error> {
        let op_tok = self.bump();
        let equal = match op_tok.kind {
            Kind::Cmp(Comparison::Eq) => true,
            Kind::Cmp(Comparison::Ne) => false,
            _ => {
                return Err(self.err(
                    op_tok,
                    format!(
                        "{subject} is compared with = or != only, e.g. {}, found {}",
                        played_example(subject),
                        self.describe(op_tok)
                    ),
                ));
            }
        };
        let lit = self.bump();
        let expected = || {
            self.err(
                lit,
                format!(
                    "expected {} after {subject} {}, e.g. {}, found {}",
                    played_literal(subject),
                    self.text(op_tok),
                    played_example(subject),
                    self.describe(lit)
                ),
            )
        };
        let text = self.text(lit);
        let quoted = || match lit.kind {
            Kind::Str => Ok(text[1..text.len() - 1].to_string()),
            _ => Err(expected()),
        };
        let cond = match subject {
            "contract" => match lit.kind {
                Kind::Contract => {
                    let c = crate::model::contract::Contract::from_pbn(text, Seat::North)
                        .ok_or_else(expected)?;
                    let doubled = match c.doubling {
                        crate::model::contract::Doubling::Undoubled => None,
                        crate::model::contract::Doubling::Doubled => Some(1),
                        crate::model::contract::Doubling::Redoubled => Some(2),
                    };
                    PlayedCond::Contract(Some((c.level, c.strain, doubled)))
                }
                Kind::Ident if text.eq_ignore_ascii_case("pass") => PlayedCond::Contract(None),
                _ => return Err(expected()),
            },
            "strain" => match lit.kind {
                Kind::Ident | Kind::SuitSymbol(_) => PlayedCond::Strain(self.strain(lit)?),
                _ => return Err(expected()),
            },
            "declarer" => match lit.kind {
                Kind::Ident => PlayedCond::Declarer(self.who(lit, "declarer")?),
                _ => return Err(expected()),
            },
            "room" => match text.to_ascii_lowercase().as_str() {
                "open" if lit.kind == Kind::Ident => PlayedCond::Room(true),
                "closed" if lit.kind == Kind::Ident => PlayedCond::Room(false),
                _ => return Err(expected()),
            },
            "event" => PlayedCond::Event(quoted()?),
            "player" => PlayedCond::Player(None, quoted()?),
            seat => {
                let seat =
                    Seat::from_char(seat.chars().next().unwrap_or('?')).ok_or_else(expected)?;
                PlayedCond::Player(Some(seat), quoted()?)
            }
        };
        let t = self.peek();
        if matches!(t.kind, Kind::Cmp(_)) {
            return Err(self.err(
                t,
                "comparisons cannot be chained: join them with and, e.g. contract = 3NT and result < 0",
            ));
        }
        Ok(Item {
            val: Val::Cond(Cond::Played(cond, equal)),
            start: name_tok.start,
            end: lit.end,
        })
    }

    /// A seat or side argument.
    fn who(&self, t: Token, func: &str) -> Result<Who, Error> {
        if let Kind::SuitSymbol(_) = t.kind {
            return Err(self.err(
                t,
                format!(
                    "{func} expects a seat or side here, found the suit {}",
                    self.text(t)
                ),
            ));
        }
        let w = self.text(t).to_ascii_lowercase();
        Ok(match w.as_str() {
            "n" | "north" => Who::Seat(Seat::North),
            "e" | "east" => Who::Seat(Seat::East),
            "s" | "south" => Who::Seat(Seat::South),
            "w" | "west" => Who::Seat(Seat::West),
            "ns" => Who::Side(Side::NorthSouth),
            "ew" => Who::Side(Side::EastWest),
            _ => {
                let hint = if parse_suit(&w).is_some() {
                    " (the seat comes first, e.g. len(S, spades))"
                } else {
                    ""
                };
                return Err(self.err(
                    t,
                    format!(
                        "unknown seat '{}' (seats: N, E, S, W, north, east, south, west; sides: NS, EW){hint}",
                        self.text(t)
                    ),
                ));
            }
        })
    }

    /// A single-seat argument.
    fn seat(&self, t: Token, func: &str) -> Result<Seat, Error> {
        match self.who(t, func)? {
            Who::Seat(s) => Ok(s),
            who => Err(self.wrong_who(
                t,
                who,
                &format!("{func} takes a single seat (N, E, S or W)"),
            )),
        }
    }

    /// A side argument (`par`'s first).
    fn side(&self, t: Token, func: &str) -> Result<Side, Error> {
        match self.who(t, func)? {
            Who::Side(s) => Ok(s),
            who => Err(self.wrong_who(t, who, &format!("{func} takes a side (NS or EW)"))),
        }
    }

    /// The dealer argument of `par`: a single seat.
    fn dealer(&self, t: Token) -> Result<Seat, Error> {
        const EXPECTED: &str = "the dealer (par's third argument) is a single seat (N, E, S or W)";
        match self.who(t, "par")? {
            Who::Seat(s) => Ok(s),
            who => Err(self.wrong_who(t, who, EXPECTED)),
        }
    }

    /// The type error for the seat or side `who` at `t` where another kind is `expected`:
    /// `type error: {expected}, not the side NS`.
    fn wrong_who(&self, t: Token, who: Who, expected: &str) -> Error {
        let found = match who {
            Who::Seat(_) => "seat",
            Who::Side(_) => "side",
        };
        self.err(
            t,
            format!("type error: {expected}, not the {found} {}", self.text(t)),
        )
    }

    /// A vulnerability name, as [`Vulnerability`]'s `FromStr` takes it (case-insensitive).
    fn vulnerability(&self, t: Token) -> Result<Vulnerability, Error> {
        self.parsed_ident::<Vulnerability>(t).ok_or_else(|| {
            self.unknown(
                t,
                "vulnerability",
                &format!("vulnerabilities: {VULNERABILITIES}"),
            )
        })
    }

    /// A strain: `notrump` (`nt`, `notrumps`) or a suit.
    fn strain(&self, t: Token) -> Result<Strain, Error> {
        if matches!(
            self.text(t).to_ascii_lowercase().as_str(),
            "notrump" | "notrumps" | "nt"
        ) {
            return Ok(Strain::NoTrump);
        }
        self.suit(t).map(Strain::Trumps).map_err(|_| {
            self.unknown(
                t,
                "strain",
                "strains: notrump, NT, spades, hearts, diamonds, clubs, S, H, D, C, ♠, ♥, ♦, ♣",
            )
        })
    }

    /// A card argument of `lead`: a suit letter and a rank (`SA`, `HT`, `H10`) or a rank
    /// and a suit letter (`AS`), any case ([`Card`]'s `FromStr`).
    fn card(&self, t: Token) -> Result<Card, Error> {
        self.parsed_ident::<Card>(t)
            .ok_or_else(|| self.unknown(t, "card", "a suit letter and a rank: SA, HT, H10, C2"))
    }

    /// A suit argument.
    fn suit(&self, t: Token) -> Result<Suit, Error> {
        let found = match t.kind {
            Kind::SuitSymbol(s) => Some(s),
            _ => parse_suit(&self.text(t).to_ascii_lowercase()),
        };
        found.ok_or_else(|| {
            self.unknown(
                t,
                "suit",
                "suits: spades, hearts, diamonds, clubs, S, H, D, C, ♠, ♥, ♦, ♣",
            )
        })
    }

    /// The identifier `t` parsed as a `T` (by its `FromStr`); `None` for another token or
    /// text `T` does not take.
    fn parsed_ident<T: FromStr>(&self, t: Token) -> Option<T> {
        match t.kind {
            Kind::Ident => self.text(t).parse::<T>().ok(),
            _ => None,
        }
    }

    /// The error for a token `t` that names no `what` (`suit`, `card`, …): `unknown suit 'x'
    /// ({known})`, `known` listing what it may be.
    fn unknown(&self, t: Token, what: &str, known: &str) -> Error {
        self.err(t, format!("unknown {what} '{}' ({known})", self.text(t)))
    }

    /// Checks that `item` is a condition.
    fn cond(&self, item: Item) -> Result<Cond, Error> {
        let text = self.item_text(&item);
        let why = match item.val {
            Val::Cond(c) => return Ok(c),
            Val::Num(_) | Val::Int(..) => {
                format!("{text} is a number, not a condition (compare it, e.g. {text} >= 12)")
            }
            Val::ShapeOf { .. } => {
                format!("{text} must be compared with a shape, e.g. {text} = 4432")
            }
            Val::Dashed(..) => {
                format!("the shape {text} is not a condition (write shape(N) = {text})")
            }
        };
        Err(self.err_item(&item, format!("type error: {why}")))
    }

    /// Checks that `item` is a number (term, sum or literal) used with `op`.
    fn number(&self, item: Item, op: &str) -> Result<Expr, Error> {
        let text = self.item_text(&item);
        let why = match item.val {
            Val::Num(e) => return Ok(e),
            Val::Int(v, ..) => return Ok(Expr::term(Term::Lit(v))),
            Val::Cond(_) => format!(
                "{text} is a condition (true or false), not a number, so it cannot be used with {op}"
            ),
            Val::ShapeOf { .. } => format!(
                "{text} is a shape, not a number: compare it with = or != and a shape like 4432"
            ),
            Val::Dashed(..) => format!(
                "{text} is a shape, not a number: it can only be compared with shape(X) or pattern(X) (to subtract, put spaces around -, e.g. 10 - 2)"
            ),
        };
        Err(self.err_item(&item, format!("type error: {why}")))
    }

    /// Builds `left op right`, type-checked.
    fn compare(
        &self,
        left: Item,
        op: Comparison,
        op_tok: Token,
        right: Item,
    ) -> Result<Cond, Error> {
        if let Val::ShapeOf { seat, exact } = left.val {
            return self.compare_shape(seat, exact, &left, op, op_tok, &right);
        }
        if let Val::ShapeOf { seat, exact } = right.val {
            return self.compare_shape(seat, exact, &right, op, op_tok, &left);
        }
        let op_text = self.text(op_tok);
        let l = self.number(left, op_text)?;
        let r = self.number(right, op_text)?;
        Ok(Cond::Cmp(l, op, r))
    }

    /// Builds `shape(X) op literal` (or `pattern(X) …`), type-checked.
    fn compare_shape(
        &self,
        seat: Seat,
        exact: bool,
        shape: &Item,
        op: Comparison,
        op_tok: Token,
        lit: &Item,
    ) -> Result<Cond, Error> {
        let shape_text = self.item_text(shape);
        let (a, b) = match lit.val {
            Val::Int(_, a, b) | Val::Dashed(a, b) => (a, b),
            _ => {
                return Err(self.err_item(
                lit,
                format!(
                    "type error: {shape_text} can only be compared with a shape literal such as 4432 or 4-4-3-2, not {}",
                    self.item_text(lit)
                ),
            ));
            }
        };
        let equal = match op {
            Comparison::Eq => true,
            Comparison::Ne => false,
            _ => {
                return Err(self.err(
                    op_tok,
                    format!(
                        "type error: shapes can only be compared with = or !=, not {}",
                        self.text(op_tok)
                    ),
                ));
            }
        };
        let mut lengths = self.shape_literal(a, b)?;
        if !exact {
            lengths.sort_unstable_by(|a, b| b.cmp(a));
        }
        Ok(Cond::Shape(ShapeTest {
            seat,
            lengths,
            exact,
            equal,
        }))
    }

    /// The four suit lengths of a shape literal: four digits (`4432`) or four numbers
    /// joined by `-` (`4-4-3-2`), each 0..=13, summing to 13.
    fn shape_literal(&self, start: usize, end: usize) -> Result<[u8; 4], Error> {
        let text = &self.src[start..end];
        let parts: Vec<u32> = if text.contains('-') {
            text.split('-')
                .map(|p| p.parse::<u32>().unwrap_or(u32::MAX))
                .collect()
        } else {
            text.chars()
                .map(|c| c.to_digit(10).unwrap_or(u32::MAX))
                .collect()
        };
        if parts.len() != 4 {
            return Err(error_at(
                self.src,
                start,
                format!(
                    "bad shape {text}: a shape has four suit lengths, written like 4432 or 4-4-3-2 (use dashes for a suit of 10 or more cards: 10-1-1-1)"
                ),
            ));
        }
        if parts.iter().any(|&p| p > 13) {
            return Err(error_at(
                self.src,
                start,
                format!("bad shape {text}: a suit length is at most 13"),
            ));
        }
        let sum: u32 = parts.iter().sum();
        if sum != 13 {
            return Err(error_at(
                self.src,
                start,
                format!("bad shape {text}: the suit lengths add up to {sum}, not 13"),
            ));
        }
        Ok([
            parts[0] as u8,
            parts[1] as u8,
            parts[2] as u8,
            parts[3] as u8,
        ])
    }
}

/// What a played board's `subject` is compared with, in words.
fn played_literal(subject: &str) -> &'static str {
    match subject {
        "contract" => "a contract (level and strain, X or XX if doubled) or pass",
        "strain" => "a strain",
        "declarer" => "a seat or side",
        "room" => "open or closed",
        "event" => "a text in double quotes",
        _ => "a player's name in double quotes",
    }
}

/// An example of a played board's condition on `subject`.
fn played_example(subject: &str) -> &'static str {
    match subject {
        "contract" => "contract = 3NT",
        "strain" => "strain = hearts",
        "declarer" => "declarer = N",
        "room" => "room = open",
        "event" => "event = \"Vanderbilt\"",
        "player" => "player = \"Fantoni\"",
        _ => "north = \"Fantoni\"",
    }
}

/// The signature of the function `name` (a known one): the fewest and the most
/// arguments it takes, and its usage for an error about them.
fn signature(name: &str) -> (usize, usize, &'static str) {
    let (min, max) = match name {
        "len" | "dd" => (2, 2),
        "par" => (2, 3),
        "lead" => (3, 3),
        _ => (1, 1),
    };
    let usage = match name {
        "par" => {
            "par takes a side, a vulnerability and optionally the dealer (North if left out), e.g. par(NS, none) or par(EW, all, W)"
        }
        "len" => "len takes a seat or side and a suit, e.g. len(S, spades)",
        "lead" => "lead takes the leader (a seat), a strain and a card, e.g. lead(W, notrump, SA)",
        "dd" => {
            "dd takes a declarer (seat or side) and a strain, e.g. dd(N, notrump) or dd(NS, spades); on a played board dd(declarer, strain)"
        }
        "lost" => "lost takes declarer or defence, e.g. lost(defence)",
        "hcp" => "hcp takes one seat or side, e.g. hcp(N) or hcp(NS)",
        "controls" => "controls takes one seat or side, e.g. controls(N)",
        "ltc" => "ltc takes one seat, e.g. ltc(N)",
        "longest" => "longest takes one seat, e.g. longest(N)",
        "balanced" => "balanced takes one seat, e.g. balanced(N)",
        "semibalanced" => "semibalanced takes one seat, e.g. semibalanced(N)",
        "shape" => "shape takes one seat, e.g. shape(N) = 4432",
        _ => "pattern takes one seat, e.g. pattern(N) = 5431",
    };
    (min, max, usage)
}

/// A number item's value.
fn num(t: Term) -> Val {
    Val::Num(Expr::term(t))
}

/// The range of `e`'s value over all deals, from [`Term::bounds`] (exact in `i128`).
pub(super) fn range(e: &Expr) -> (i128, i128) {
    range_by(e, &Term::bounds)
}

/// [`range`] with each term's bounds from `bounds`.
pub(super) fn range_by(e: &Expr, bounds: &dyn Fn(&Term) -> (i64, i64)) -> (i128, i128) {
    let (a, b) = bounds(&e.first);
    let (mut lo, mut hi) = (i128::from(a), i128::from(b));
    for (op, t) in &e.rest {
        let (a, b) = bounds(t);
        (lo, hi) = match op {
            AddOp::Add => (lo + i128::from(a), hi + i128::from(b)),
            AddOp::Sub => (lo - i128::from(b), hi - i128::from(a)),
        };
    }
    (lo, hi)
}

/// A suit name or letter (lower case), if it is one.
fn parse_suit(w: &str) -> Option<Suit> {
    Some(match w {
        "s" | "spade" | "spades" => Suit::Spades,
        "h" | "heart" | "hearts" => Suit::Hearts,
        "d" | "diamond" | "diamonds" => Suit::Diamonds,
        "c" | "club" | "clubs" => Suit::Clubs,
        _ => return None,
    })
}

/// Appends `c` to the operands of an `or` (`or == true`) or `and`, splicing in the
/// operands of a nested group of the same kind, so `(a and b) and c` is `and(a, b, c)`.
fn push_flat(parts: &mut Vec<Cond>, c: Cond, or: bool) {
    match (c, or) {
        (Cond::Or(inner), true) | (Cond::And(inner), false) => parts.extend(inner),
        (c, _) => parts.push(c),
    }
}
