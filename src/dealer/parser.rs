//! The recursive-descent parser of dealer's input language.

use std::collections::HashMap;

use super::lexer::{Tok, Token, lex};
use super::{
    Action, BinOp, EsItem, Expr, MILTON, ScoreContract, Script, ScriptError, ScriptErrorKind,
    ShapeSet,
};
use crate::model::card::{Card, Rank, Seat, Suit};

/// Default `altcount` tables (ace first): tens, jacks, queens, kings, aces, top2 … top5, c13.
const ALTCOUNT: [[i64; 13]; 10] = {
    let mut t = [[0; 13]; 10];
    t[0][4] = 1;
    t[1][3] = 1;
    t[2][2] = 1;
    t[3][1] = 1;
    t[4][0] = 1;
    let mut n = 5;
    while n < 9 {
        let mut r = 0;
        while r < n - 3 {
            t[n][r] = 1;
            r += 1;
        }
        n += 1;
    }
    t[9][0] = 6;
    t[9][1] = 4;
    t[9][2] = 2;
    t[9][3] = 1;
    t
};

/// Words that start a statement or an action: they end an expression or an optional one.
const KEYWORDS: &[&str] = &[
    "generate",
    "produce",
    "dealer",
    "vulnerable",
    "predeal",
    "pointcount",
    "altcount",
    "condition",
    "action",
    "printall",
    "printew",
    "printpbn",
    "printcompact",
    "printoneline",
    "printes",
    "print",
    "average",
    "frequency",
    "evalcontract",
];

/// How deep expressions may nest (parentheses, unary operators, `?:`): deeper ones are refused
/// rather than risk the stack.
pub const MAX_DEPTH: usize = 200;

/// How deep an expression's tree may be, counting through the identifiers it uses (a long
/// chain `a + b + …` is as deep as it has terms): the evaluator recurses that deep.
pub const MAX_TREE_DEPTH: usize = 2_000;

/// How many values a `frequency` table may have on one axis.
pub const MAX_FREQUENCY_VALUES: i64 = 100_000;

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    names: HashMap<String, usize>,
    /// The tree depth of each definition (see [`MAX_TREE_DEPTH`]).
    def_depths: Vec<usize>,
    script: Script,
}

pub(super) fn parse(src: &str) -> Result<Script, ScriptError> {
    let mut p = Parser {
        toks: lex(src)?,
        pos: 0,
        depth: 0,
        names: HashMap::new(),
        def_depths: Vec::new(),
        script: Script {
            generate: None,
            produce: None,
            dealer: None,
            vulnerable: None,
            predeal: [0; 4],
            predeal_lengths: Vec::new(),
            pointcount: MILTON,
            altcount: ALTCOUNT,
            condition: None,
            actions: Vec::new(),
            definitions: Vec::new(),
        },
    };
    while p.peek() != &Tok::End {
        p.statement()?;
    }
    Ok(p.script)
}

fn seat_of(w: &str) -> Option<Seat> {
    match w {
        "north" => Some(Seat::North),
        "east" => Some(Seat::East),
        "south" => Some(Seat::South),
        "west" => Some(Seat::West),
        _ => None,
    }
}

fn suit_of(w: &str) -> Option<Suit> {
    match w {
        "spade" | "spades" => Some(Suit::Spades),
        "heart" | "hearts" => Some(Suit::Hearts),
        "diamond" | "diamonds" => Some(Suit::Diamonds),
        "club" | "clubs" => Some(Suit::Clubs),
        _ => None,
    }
}

/// The altcount number of a `ptN` name or synonym.
fn pt_of(w: &str) -> Option<u8> {
    Some(match w {
        "tens" | "ten" => 0,
        "jack" | "jacks" => 1,
        "queen" | "queens" => 2,
        "king" | "kings" => 3,
        "ace" | "aces" => 4,
        "top2" => 5,
        "top3" => 6,
        "top4" => 7,
        "top5" => 8,
        "c13" => 9,
        _ => {
            let d = w.strip_prefix("pt")?;
            if d.len() == 1 {
                d.parse().ok()?
            } else {
                return None;
            }
        }
    })
}

fn suit_letter(c: char) -> Option<Suit> {
    match c {
        'S' => Some(Suit::Spades),
        'H' => Some(Suit::Hearts),
        'D' => Some(Suit::Diamonds),
        'C' => Some(Suit::Clubs),
        _ => None,
    }
}

/// Parses one shape word (`4333`, `x5xx`) into four lengths (None = `x`).
fn shape_word(w: &str) -> Option<[Option<u32>; 4]> {
    let c: Vec<char> = w.chars().collect();
    if c.len() != 4 {
        return None;
    }
    let mut out = [None; 4];
    for (o, ch) in out.iter_mut().zip(c) {
        *o = match ch {
            'x' | 'X' => None,
            d => Some(d.to_digit(10)?),
        };
    }
    Some(out)
}

fn matches_pattern(len: [u32; 4], pat: &[Option<u32>; 4], any: bool) -> bool {
    let direct = |p: &[Option<u32>; 4]| p.iter().zip(len).all(|(q, l)| q.is_none_or(|q| q == l));
    if !any {
        return direct(pat);
    }
    // Every permutation of the pattern's positions.
    const PERMS: [[usize; 4]; 24] = {
        let mut out = [[0; 4]; 24];
        let mut n = 0;
        let mut a = 0;
        while a < 4 {
            let mut b = 0;
            while b < 4 {
                let mut c = 0;
                while c < 4 {
                    if a != b && a != c && b != c && a + b + c >= 3 && a + b + c <= 6 {
                        let d = 6 - a - b - c;
                        out[n] = [a, b, c, d];
                        n += 1;
                    }
                    c += 1;
                }
                b += 1;
            }
            a += 1;
        }
        out
    };
    PERMS
        .iter()
        .any(|p| direct(&[pat[p[0]], pat[p[1]], pat[p[2]], pat[p[3]]]))
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn here(&self) -> (u64, u64) {
        let t = &self.toks[self.pos];
        (t.line, t.column)
    }

    fn err(&self, kind: ScriptErrorKind, msg: impl Into<String>) -> ScriptError {
        let (l, c) = self.here();
        ScriptError::new(kind, l, c, msg)
    }

    fn describe(&self) -> String {
        match self.peek() {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Str(s) => format!("string {s:?}"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::NewlineEsc => "`\\n`".into(),
            Tok::End => "the end of the script".into(),
        }
    }

    fn syntax(&self, expected: &str) -> ScriptError {
        self.err(
            ScriptErrorKind::Syntax,
            format!(
                "syntax error: expected {expected}, found {}",
                self.describe()
            ),
        )
    }

    fn next(&mut self) -> Tok {
        let t = self.toks[self.pos].tok.clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        let yes = self.is_punct(p);
        if yes {
            self.next();
        }
        yes
    }

    fn expect(&mut self, p: &str) -> Result<(), ScriptError> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(self.syntax(&format!("`{p}`")))
        }
    }

    fn word(&self) -> Option<&str> {
        match self.peek() {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }

    fn is_word(&self, w: &str) -> bool {
        self.word() == Some(w)
    }

    fn number(&mut self) -> Result<i64, ScriptError> {
        let neg = self.eat("-");
        let Some(w) = self.word() else {
            return Err(self.syntax("a number"));
        };
        let v: i64 = w
            .parse()
            .map_err(|_| self.err(ScriptErrorKind::BadValue, format!("`{w}` is not a number")))?;
        self.next();
        Ok(if neg { -v } else { v })
    }

    fn count(&mut self, what: &str) -> Result<u64, ScriptError> {
        let (l, c) = self.here();
        let v = self.number()?;
        u64::try_from(v).map_err(|_| {
            ScriptError::new(
                ScriptErrorKind::BadValue,
                l,
                c,
                format!("{what}: {v} is negative"),
            )
        })
    }

    fn seat(&mut self) -> Result<Seat, ScriptError> {
        match self.word().and_then(seat_of) {
            Some(s) => {
                self.next();
                Ok(s)
            }
            None => Err(self.syntax("a seat (north, east, south, west)")),
        }
    }

    fn suit(&mut self) -> Result<Suit, ScriptError> {
        match self.word().and_then(suit_of) {
            Some(s) => {
                self.next();
                Ok(s)
            }
            None => Err(self.syntax("a suit (spades, hearts, diamonds, clubs)")),
        }
    }

    fn statement(&mut self) -> Result<(), ScriptError> {
        let Some(w) = self.word().map(str::to_owned) else {
            // dealer allows the word `condition` to be left out.
            let e = self.top_expr()?;
            self.script.condition = Some(e);
            return Ok(());
        };
        match w.as_str() {
            "generate" => {
                self.next();
                self.script.generate = Some(self.count("generate")?);
            }
            "produce" => {
                self.next();
                self.script.produce = Some(self.count("produce")?);
            }
            "dealer" => {
                self.next();
                self.script.dealer = Some(self.seat()?);
            }
            "vulnerable" => {
                self.next();
                let v = match self.word().map(str::to_ascii_lowercase).as_deref() {
                    Some("none") => "None",
                    Some("ns") => "NS",
                    Some("ew") => "EW",
                    Some("all") | Some("both") => "All",
                    _ => return Err(self.syntax("none, NS, EW or all")),
                };
                self.next();
                self.script.vulnerable = Some(v);
            }
            "predeal" => {
                self.next();
                self.predeal()?;
            }
            "pointcount" => {
                self.next();
                let mut t = [0i64; 13];
                let mut i = 0;
                while self.word().is_some_and(|w| w.parse::<i64>().is_ok()) {
                    if i == 13 {
                        return Err(
                            self.err(ScriptErrorKind::BadValue, "pointcount: more than 13 values")
                        );
                    }
                    t[i] = self.number()?;
                    i += 1;
                }
                self.script.pointcount = t;
            }
            "altcount" => {
                self.next();
                let (l, c) = self.here();
                let n = self.number()?;
                if !(0..=9).contains(&n) {
                    return Err(ScriptError::new(
                        ScriptErrorKind::BadValue,
                        l,
                        c,
                        format!("altcount: {n} is not 0..9"),
                    ));
                }
                let mut t = [0i64; 13];
                let mut i = 0;
                while self.word().is_some_and(|w| w.parse::<i64>().is_ok()) {
                    if i == 13 {
                        return Err(
                            self.err(ScriptErrorKind::BadValue, "altcount: more than 13 values")
                        );
                    }
                    t[i] = self.number()?;
                    i += 1;
                }
                self.script.altcount[n as usize] = t;
            }
            "condition" => {
                self.next();
                let e = self.top_expr()?;
                self.script.condition = Some(e);
            }
            "action" => {
                self.next();
                loop {
                    let a = self.action()?;
                    self.script.actions.push(a);
                    // dealer accepts a comma after the last action.
                    if !self.eat(",") || self.action_ends() {
                        break;
                    }
                }
            }
            _ if self.peek_at(1) == &Tok::Punct("=") && !KEYWORDS.contains(&w.as_str()) => {
                self.next();
                self.next();
                let e = self.top_expr()?;
                let depth = self.tree_depth(&e);
                self.def_depths.push(depth);
                let idx = self.script.definitions.len();
                self.script.definitions.push((w.clone(), e));
                self.names.insert(w, idx);
            }
            _ => {
                let e = self.top_expr()?;
                self.script.condition = Some(e);
            }
        }
        Ok(())
    }

    fn predeal(&mut self) -> Result<(), ScriptError> {
        let mut any = false;
        loop {
            if let Some(suit) = self.word().and_then(suit_of)
                && self.peek_at(1) == &Tok::Punct("(")
            {
                // `spades(north)==1`: North gets exactly one spade.
                let (l, c) = self.here();
                self.next();
                self.next();
                let seat = self.seat()?;
                self.expect(")")?;
                self.expect("==")?;
                let n = self.number()?;
                let fixed = (self.script.predeal[seat.index()] >> (suit as u32 * 13) & 0x1fff)
                    .count_ones() as i64;
                let others: i64 = self
                    .script
                    .predeal_lengths
                    .iter()
                    .filter(|(s, u, _)| *u == suit && *s != seat)
                    .map(|(_, _, k)| i64::from(*k))
                    .sum();
                let seat_total: i64 = self
                    .script
                    .predeal_lengths
                    .iter()
                    .filter(|(s, u, _)| *s == seat && *u != suit)
                    .map(|(_, _, k)| i64::from(*k))
                    .sum();
                if !(fixed..=13).contains(&n) || n + others > 13 || n + seat_total > 13 {
                    return Err(ScriptError::new(
                        ScriptErrorKind::TooManyCards,
                        l,
                        c,
                        format!(
                            "Suit lengths too long for {}: {n} {} (predeal)",
                            seat.name(),
                            suit.letter()
                        ),
                    ));
                }
                self.script
                    .predeal_lengths
                    .retain(|(s, u, _)| !(*s == seat && *u == suit));
                self.script.predeal_lengths.push((seat, suit, n as u8));
                any = true;
                self.eat(",");
                continue;
            }
            let Some(seat) = self.word().and_then(seat_of) else {
                if any {
                    return Ok(());
                }
                return Err(self.syntax("a seat after predeal"));
            };
            any = true;
            self.next();
            self.eat(",");
            loop {
                let (l, c) = self.here();
                let Some(w) = self.word().map(str::to_owned) else {
                    return Err(self.syntax("a holding such as SAQ542"));
                };
                let mut chars = w.chars();
                let suit = chars.next().and_then(suit_letter).ok_or_else(|| {
                    self.err(
                        ScriptErrorKind::BadValue,
                        format!(
                            "predeal: `{w}` is not a holding (suit letter S, H, D or C, then cards)"
                        ),
                    )
                })?;
                self.next();
                for ch in chars {
                    let rank = Rank::from_char(ch)
                        .filter(|_| ch.is_ascii_uppercase() || ch.is_ascii_digit())
                        .ok_or_else(|| {
                            ScriptError::new(
                                ScriptErrorKind::BadValue,
                                l,
                                c,
                                format!("predeal: `{ch}` in `{w}` is not a card (AKQJT98765432)"),
                            )
                        })?;
                    let bit = 1u64 << Card::new(suit, rank).index();
                    if self.script.predeal.iter().any(|m| m & bit != 0) {
                        return Err(ScriptError::new(
                            ScriptErrorKind::CardPredealtTwice,
                            l,
                            c,
                            format!(
                                "Card predealt twice: {}{} (predeal)",
                                suit.letter(),
                                rank.letter()
                            ),
                        ));
                    }
                    let m = &mut self.script.predeal[seat.index()];
                    *m |= bit;
                    if m.count_ones() > 13 {
                        return Err(ScriptError::new(
                            ScriptErrorKind::TooManyCards,
                            l,
                            c,
                            format!(
                                "More than 13 cards for one player: {} (predeal)",
                                seat.name()
                            ),
                        ));
                    }
                }
                let holding_follows = self.is_punct(",")
                    && matches!(self.peek_at(1), Tok::Word(w) if w.chars().next().and_then(suit_letter).is_some() && seat_of(w).is_none() && !KEYWORDS.contains(&w.as_str()));
                if !holding_follows {
                    break;
                }
                self.next();
            }
        }
    }

    /// True when no action follows a comma: the end, or a statement's keyword or definition.
    fn action_ends(&self) -> bool {
        match self.peek() {
            Tok::End => true,
            Tok::Word(w) => {
                matches!(
                    w.as_str(),
                    "generate"
                        | "produce"
                        | "dealer"
                        | "vulnerable"
                        | "predeal"
                        | "pointcount"
                        | "altcount"
                        | "condition"
                        | "action"
                ) || self.peek_at(1) == &Tok::Punct("=")
            }
            _ => false,
        }
    }

    fn action(&mut self) -> Result<Action, ScriptError> {
        let Some(w) = self.word().map(str::to_owned) else {
            return Err(self.syntax("an action"));
        };
        self.next();
        Ok(match w.as_str() {
            "printall" => Action::PrintAll,
            "printew" => Action::PrintEw,
            "printpbn" => Action::PrintPbn,
            "printcompact" => Action::PrintCompact(self.optional_expr()?),
            "printoneline" => Action::PrintOneLine(self.optional_expr()?),
            "printes" => {
                self.expect("(")?;
                let mut items = Vec::new();
                loop {
                    match self.peek().clone() {
                        Tok::Str(s) => {
                            self.next();
                            items.push(EsItem::Str(s));
                        }
                        Tok::NewlineEsc => {
                            self.next();
                            items.push(EsItem::Newline);
                        }
                        _ => items.push(EsItem::Expr(self.top_expr()?)),
                    }
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(")")?;
                Action::PrintEs(items)
            }
            "print" => {
                self.expect("(")?;
                let mut seats = vec![self.seat()?];
                while self.eat(",") {
                    seats.push(self.seat()?);
                }
                self.expect(")")?;
                Action::Print(seats)
            }
            "average" => {
                let label = self.label();
                Action::Average(label, self.top_expr()?)
            }
            "frequency" => {
                let label = self.label();
                self.expect("(")?;
                let e = self.top_expr()?;
                self.expect(",")?;
                let lo = self.number()?;
                self.expect(",")?;
                let hi = self.number()?;
                self.check_bounds(lo, hi)?;
                if self.eat(")") {
                    Action::Frequency(label, e, lo, hi)
                } else {
                    self.expect(",")?;
                    let e2 = self.top_expr()?;
                    self.expect(",")?;
                    let lo2 = self.number()?;
                    self.expect(",")?;
                    let hi2 = self.number()?;
                    self.check_bounds(lo2, hi2)?;
                    self.expect(")")?;
                    Action::Frequency2(label, e, lo, hi, e2, lo2, hi2)
                }
            }
            "evalcontract" => {
                if self.eat("(") {
                    let mut depth = 1;
                    while depth > 0 {
                        match self.next() {
                            Tok::Punct("(") => depth += 1,
                            Tok::Punct(")") => depth -= 1,
                            Tok::End => return Err(self.syntax("`)`")),
                            _ => {}
                        }
                    }
                }
                Action::EvalContract
            }
            _ => {
                self.pos -= 1;
                return Err(self.syntax("an action (printall, printew, printpbn, printcompact, printoneline, printes, print, average, frequency, evalcontract)"));
            }
        })
    }

    /// A frequency axis: `low <= high`, at most [`MAX_FREQUENCY_VALUES`] values.
    fn check_bounds(&self, lo: i64, hi: i64) -> Result<(), ScriptError> {
        if hi < lo || hi.saturating_sub(lo) >= MAX_FREQUENCY_VALUES {
            return Err(self.err(
                ScriptErrorKind::BadValue,
                format!(
                    "frequency: bounds {lo}, {hi} (the low bound first, at most {MAX_FREQUENCY_VALUES} values)"
                ),
            ));
        }
        Ok(())
    }

    fn label(&mut self) -> Option<String> {
        if let Tok::Str(s) = self.peek().clone() {
            self.next();
            Some(s)
        } else {
            None
        }
    }

    fn optional_expr(&mut self) -> Result<Option<Expr>, ScriptError> {
        let starts = match self.peek() {
            Tok::Punct(p) => matches!(*p, "(" | "-" | "!"),
            Tok::Word(w) => !KEYWORDS.contains(&w.as_str()) && self.peek_at(1) != &Tok::Punct("="),
            _ => false,
        };
        if starts {
            Ok(Some(self.expr()?))
        } else {
            Ok(None)
        }
    }

    /// The depth of `e`'s tree, through the definitions it uses (an explicit stack: the tree
    /// may be deeper than the call stack allows).
    fn tree_depth(&self, e: &Expr) -> usize {
        let mut max = 0;
        let mut stack = vec![(e, 1usize)];
        while let Some((e, d)) = stack.pop() {
            let mut here = d;
            match e {
                Expr::Var(i) => here = d + self.def_depths[*i],
                Expr::Not(a) | Expr::Neg(a) | Expr::Imps(a) | Expr::Rnd(a) => {
                    stack.push((a, d + 1))
                }
                Expr::Score(_, _, a) => stack.push((a, d + 1)),
                Expr::Bin(_, a, b) => {
                    stack.push((a, d + 1));
                    stack.push((b, d + 1));
                }
                Expr::Cond(a, b, c) => {
                    stack.push((a, d + 1));
                    stack.push((b, d + 1));
                    stack.push((c, d + 1));
                }
                _ => {}
            }
            max = max.max(here);
        }
        max
    }

    /// An expression of a statement or action ([`Parser::expr`]: refused when its tree is
    /// deeper than [`MAX_TREE_DEPTH`]).
    fn top_expr(&mut self) -> Result<Expr, ScriptError> {
        self.expr()
    }

    /// expr := or ('?' expr ':' expr)?, at most [`MAX_DEPTH`] deep.
    fn expr(&mut self) -> Result<Expr, ScriptError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(
                ScriptErrorKind::BadValue,
                format!("expression nested more than {MAX_DEPTH} deep"),
            ));
        }
        let (l, c) = self.here();
        let e = self.expr_inner();
        self.depth -= 1;
        let e = e?;
        let d = self.tree_depth(&e);
        if d > MAX_TREE_DEPTH {
            return Err(ScriptError::new(
                ScriptErrorKind::BadValue,
                l,
                c,
                format!("expression {d} levels deep (at most {MAX_TREE_DEPTH})"),
            ));
        }
        Ok(e)
    }

    fn expr_inner(&mut self) -> Result<Expr, ScriptError> {
        let c = self.binary(0)?;
        if self.eat("?") {
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr()?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        Ok(c)
    }

    /// The binary operator at the current token and its level (0 = `||` … 5 = `*`).
    fn binop(&self) -> Option<(BinOp, usize)> {
        Some(match self.peek() {
            Tok::Punct("||") => (BinOp::Or, 0),
            Tok::Word(w) if w == "or" => (BinOp::Or, 0),
            Tok::Punct("&&") => (BinOp::And, 1),
            Tok::Word(w) if w == "and" => (BinOp::And, 1),
            Tok::Punct("==") => (BinOp::Eq, 2),
            Tok::Punct("!=") => (BinOp::Ne, 2),
            Tok::Punct("<") => (BinOp::Lt, 3),
            Tok::Punct("<=") => (BinOp::Le, 3),
            Tok::Punct(">") => (BinOp::Gt, 3),
            Tok::Punct(">=") => (BinOp::Ge, 3),
            Tok::Punct("+") => (BinOp::Add, 4),
            Tok::Punct("-") => (BinOp::Sub, 4),
            Tok::Punct("*") => (BinOp::Mul, 5),
            Tok::Punct("/") => (BinOp::Div, 5),
            Tok::Punct("%") => (BinOp::Rem, 5),
            _ => return None,
        })
    }

    /// Left-associative binary operators of level `level` and above.
    fn binary(&mut self, level: usize) -> Result<Expr, ScriptError> {
        if level > 5 {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        let mut terms = 1;
        while let Some((op, l)) = self.binop() {
            if l != level {
                break;
            }
            terms += 1;
            if terms > MAX_TREE_DEPTH {
                return Err(self.err(
                    ScriptErrorKind::BadValue,
                    format!("more than {MAX_TREE_DEPTH} terms in a row"),
                ));
            }
            self.next();
            let right = self.binary(level + 1)?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, ScriptError> {
        if self.depth > MAX_DEPTH {
            return Err(self.err(
                ScriptErrorKind::BadValue,
                format!("expression nested more than {MAX_DEPTH} deep"),
            ));
        }
        if self.is_punct("!") || self.is_punct("-") || self.is_word("not") {
            self.depth += 1;
            let e = self.unary_inner();
            self.depth -= 1;
            return e;
        }
        self.primary()
    }

    fn unary_inner(&mut self) -> Result<Expr, ScriptError> {
        if self.eat("!") || (self.is_word("not") && self.next() != Tok::End) {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, ScriptError> {
        if self.eat("(") {
            let e = self.expr()?;
            self.expect(")")?;
            return Ok(e);
        }
        let Some(w) = self.word().map(str::to_owned) else {
            return Err(self.syntax("an expression"));
        };
        if let Ok(v) = w.parse::<i64>() {
            self.next();
            return Ok(Expr::Num(v));
        }
        let (l, c) = self.here();
        let call = self.peek_at(1) == &Tok::Punct("(");
        if !call {
            return match self.names.get(&w) {
                Some(&i) => {
                    self.next();
                    Ok(Expr::Var(i))
                }
                None => Err(ScriptError::new(
                    ScriptErrorKind::UnknownIdentifier,
                    l,
                    c,
                    format!("unknown variable `{w}`"),
                )),
            };
        }
        self.next();
        self.next();
        let e = match w.as_str() {
            "hcp" | "hcps" => {
                let s = self.seat()?;
                Expr::Hcp(s, self.opt_suit()?)
            }
            "control" | "controls" => {
                let s = self.seat()?;
                Expr::Control(s, self.opt_suit()?)
            }
            "loser" | "losers" => {
                let s = self.seat()?;
                Expr::Loser(s, self.opt_suit()?)
            }
            "cccc" => Expr::Cccc(self.seat()?),
            "quality" => {
                let s = self.seat()?;
                self.expect(",")?;
                Expr::Quality(s, self.suit()?)
            }
            "shape" => {
                let s = self.seat()?;
                self.expect(",")?;
                Expr::Shape(s, self.shape_list()?)
            }
            "hascard" => {
                let s = self.seat()?;
                self.expect(",")?;
                let cw = self.word().unwrap_or("").to_owned();
                let ch: Vec<char> = cw.chars().collect();
                let card = (ch.len() == 2)
                    .then(|| {
                        let r = Rank::from_char(ch[0]).filter(|_| !ch[0].is_ascii_lowercase())?;
                        Some(Card::new(suit_letter(ch[1])?, r))
                    })
                    .flatten()
                    .ok_or_else(|| {
                        self.err(
                            ScriptErrorKind::BadValue,
                            format!("hascard: `{cw}` is not a card (rank then suit, e.g. AS, TC)"),
                        )
                    })?;
                self.next();
                Expr::HasCard(s, card)
            }
            "tricks" | "trick" => {
                let s = self.seat()?;
                self.expect(",")?;
                let strain = match self.word() {
                    Some("notrump" | "notrumps") => None,
                    _ => Some(self.suit().map_err(|_| {
                        self.syntax("a strain (spades, hearts, diamonds, clubs, notrump)")
                    })?),
                };
                if strain.is_none() {
                    self.next();
                }
                Expr::Tricks(s, strain)
            }
            "score" => {
                let vul = match self.word() {
                    Some("vul") => true,
                    Some("nv") => false,
                    _ => return Err(self.syntax("vul or nv")),
                };
                self.next();
                self.expect(",")?;
                let cw = self.word().unwrap_or("").to_owned();
                let ch: Vec<char> = cw.chars().collect();
                let contract = (ch.len() == 3 && ch[0] == 'x')
                    .then(|| {
                        let level = ch[1].to_digit(10).filter(|l| (1..=7).contains(l))? as u8;
                        let strain = match ch[2] {
                            'N' => None,
                            c => Some(suit_letter(c)?),
                        };
                        Some(ScoreContract { level, strain })
                    })
                    .flatten()
                    .ok_or_else(|| {
                        self.err(
                            ScriptErrorKind::BadValue,
                            format!("score: `{cw}` is not a contract (x, level, strain: x3N, x4S)"),
                        )
                    })?;
                self.next();
                self.expect(",")?;
                Expr::Score(vul, contract, Box::new(self.expr()?))
            }
            "imps" | "imp" => Expr::Imps(Box::new(self.expr()?)),
            "rnd" => Expr::Rnd(Box::new(self.expr()?)),
            _ => {
                if let Some(suit) = suit_of(&w) {
                    Expr::Length(self.seat()?, suit)
                } else if let Some(n) = pt_of(&w) {
                    let s = self.seat()?;
                    Expr::Pt(n, s, self.opt_suit()?)
                } else {
                    return Err(ScriptError::new(
                        ScriptErrorKind::Syntax,
                        l,
                        c,
                        format!("syntax error: unknown function `{w}`"),
                    ));
                }
            }
        };
        self.expect(")")?;
        Ok(e)
    }

    fn opt_suit(&mut self) -> Result<Option<Suit>, ScriptError> {
        if self.eat(",") {
            Ok(Some(self.suit()?))
        } else {
            Ok(None)
        }
    }

    /// `[any] shape (('+' | '-' | ',') [any] shape)*` into the set of lengths it accepts.
    fn shape_list(&mut self) -> Result<ShapeSet, ScriptError> {
        let mut set = ShapeSet(Box::new([0; 43]));
        let mut add = true;
        loop {
            let any = self.is_word("any");
            if any {
                self.next();
            }
            let w = self.word().unwrap_or("").to_owned();
            let pat = shape_word(&w).ok_or_else(|| {
                self.err(
                    ScriptErrorKind::BadValue,
                    format!("shape: `{w}` is not a shape (four digits or x, e.g. 5xxx, 4333)"),
                )
            })?;
            self.next();
            for s in 0..=13u32 {
                for h in 0..=13 - s {
                    for d in 0..=13 - s - h {
                        let len = [s, h, d, 13 - s - h - d];
                        if matches_pattern(len, &pat, any) {
                            let i = (s * 196 + h * 14 + d) as usize;
                            if add {
                                set.0[i / 64] |= 1 << (i % 64);
                            } else {
                                set.0[i / 64] &= !(1 << (i % 64));
                            }
                        }
                    }
                }
            }
            add = if self.eat("+") || self.eat(",") {
                true
            } else if self.eat("-") {
                false
            } else {
                return Ok(set);
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn altcount_sets_the_table_of_its_pt() {
        let s = parse("altcount 1 0 0 0 5\npointcount 1 1").unwrap();
        assert_eq!(s.altcount[1], [0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(s.altcount[0], ALTCOUNT[0]);
        assert_eq!(s.pointcount, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(ALTCOUNT[8], [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(ALTCOUNT[5], [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn shapes_with_any_x_plus_and_minus() {
        let s = parse("condition shape(north, any 4333 + 54xx - any 0xxx)").unwrap();
        let Some(Expr::Shape(_, set)) = &s.condition else {
            panic!("a shape")
        };
        assert!(set.contains(3, 4, 3) && set.contains(5, 4, 2) && set.contains(4, 3, 3));
        assert!(!set.contains(5, 4, 4) && !set.contains(4, 4, 3));
        let n: u32 = set.0.iter().map(|w| w.count_ones()).sum();
        // 4 permutations of 4333 and 54xx with no void: 54(1..3)(3..1) = 3.
        assert_eq!(n, 7);
    }

    #[test]
    fn deep_scripts_are_refused_not_overflowed() {
        let deep = format!("condition {}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(parse(&deep).unwrap_err().kind, ScriptErrorKind::BadValue);
        let unary = format!("condition {}1", "-".repeat(10_000));
        assert_eq!(parse(&unary).unwrap_err().kind, ScriptErrorKind::BadValue);
        let chain = format!("condition 1{}", " + 1".repeat(100_000));
        assert_eq!(parse(&chain).unwrap_err().kind, ScriptErrorKind::BadValue);
        let mut defs = String::from("a0 = 1\n");
        for i in 1..3000 {
            defs.push_str(&format!("a{i} = a{} + 1\n", i - 1));
        }
        assert_eq!(parse(&defs).unwrap_err().kind, ScriptErrorKind::BadValue);
        let wide = "action frequency (hcp(north), 0, 1000000000)";
        assert_eq!(parse(wide).unwrap_err().kind, ScriptErrorKind::BadValue);
        let reversed = "action frequency (hcp(north), 5, 0)";
        assert_eq!(parse(reversed).unwrap_err().kind, ScriptErrorKind::BadValue);
    }

    #[test]
    fn precedence_is_cs() {
        let s = parse("a = 1 + 2 * 3 == 7 && !0 ? -2 : 5 % 3").unwrap();
        assert!(matches!(s.definitions[0].1, Expr::Cond(..)));
    }
}
