//! The recursive-descent parser of dealer's input language.

use std::collections::HashMap;

use super::graph::{Uses, uses_of};
use super::lexer::{Params, Tok, Token, lex};
use super::{Action, BinOp, CsvItem, Error, EsItem, Expr, MILTON, ScoreContract, Script, ShapeSet};
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Rank, Seat, Suit};
use crate::model::contract::Doubling;
use crate::model::features::{Comparison, Side};

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

/// dealer's reserved words (Debian's `scan.l`): they cannot name a variable.
const RESERVED: &[&str] = &[
    "and",
    "or",
    "not",
    "generate",
    "produce",
    "dealer",
    "vulnerable",
    "predeal",
    "pointcount",
    "altcount",
    "condition",
    "action",
    "print",
    "printall",
    "printpbn",
    "printew",
    "printcompact",
    "printoneline",
    "printes",
    "evalcontract",
    "nv",
    "vul",
    "ns",
    "NS",
    "ew",
    "EW",
    "all",
    "none",
    "average",
    "frequency",
    "north",
    "east",
    "south",
    "west",
    "club",
    "clubs",
    "diamond",
    "diamonds",
    "heart",
    "hearts",
    "spade",
    "spades",
    "notrump",
    "notrumps",
    "hcp",
    "hcps",
    "pt0",
    "pt1",
    "pt2",
    "pt3",
    "pt4",
    "pt5",
    "pt6",
    "pt7",
    "pt8",
    "pt9",
    "ten",
    "tens",
    "jack",
    "jacks",
    "queen",
    "queens",
    "king",
    "kings",
    "ace",
    "aces",
    "top2",
    "top3",
    "top4",
    "top5",
    "c13",
    "loser",
    "losers",
    "control",
    "controls",
    "quality",
    "cccc",
    "trick",
    "tricks",
    "score",
    "imp",
    "imps",
    "hascard",
    "shape",
    "any",
    "rnd",
];

/// The words that start an action (DealerV2's that dealdex does not run included: they are
/// refused by name).
const ACTIONS: &[&str] = &[
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
    "csvrpt",
    "printrpt",
    "printns",
    "printside",
    "bktfreq",
    "export",
];

/// DealerV2's functions that dealdex does not evaluate: called, they are refused by name.
const UNSUPPORTED_FUNCTIONS: &[&str] = &["opc", "usereval"];

/// DealerV2's items of `csvrpt` and `printrpt` lists that are no expression: called elsewhere,
/// they are refused with a note saying where they belong.
const CSV_ONLY: &[&str] = &["trix", "parcontract"];

/// How deep expressions may nest (parentheses, unary operators, `?:`): deeper ones are refused
/// rather than risk the stack.
pub const MAX_DEPTH: usize = 200;

/// How deep an expression's tree may be, counting through the identifiers it uses (a long
/// chain `a + b + …` is as deep as it has terms): the evaluator recurses that deep.
pub const MAX_TREE_DEPTH: usize = 2_000;

/// The most `rnd` draws one evaluation of a definition may take. Dealer draws anew at every
/// use of a definition that uses `rnd` (it is not one value a deal), so `d1 = d0 + d0`, …,
/// with `d0 = rnd(10)` doubles the draws at each level: refused past this many rather than
/// run for ever.
pub const MAX_RND_DRAWS: u64 = 1 << 20;

/// How many values a `frequency` table may have on one axis.
pub const MAX_FREQUENCY_VALUES: i64 = 100_000;

/// How many cells a two-way `frequency` table may have, its low and high rows and columns
/// counted: (rows + 2) × (columns + 2). A bigger one is refused before any deal (its counts
/// would take 8 bytes a cell).
pub const MAX_FREQUENCY_CELLS: i64 = 1_000_000;

/// How many cells the `frequency` tables of a script may have in all (a one-way table has
/// its values + 2).
pub const MAX_FREQUENCY_TOTAL_CELLS: i64 = 10_000_000;

/// The number of buckets of a `bktfreq` axis whose bounds and size passed its checks:
/// `1 + (high - low) / size`, as DealerV2 counts them (the last bucket starts at or below
/// `high`).
pub(super) fn buckets(lo: i64, hi: i64, size: i64) -> i64 {
    1 + hi.saturating_sub(lo) / size.max(1)
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    names: HashMap<String, usize>,
    /// The tree depth of each definition (see [`MAX_TREE_DEPTH`]).
    def_depths: Vec<usize>,
    /// The `rnd` draws one evaluation of each definition takes (see [`MAX_RND_DRAWS`]).
    def_draws: Vec<u64>,
    /// What each definition uses (the graph's [`Uses`], for [`Parser::uses_lead`]).
    def_uses: Vec<Uses>,
    /// Where each definition's identifier is.
    def_lines: Vec<u64>,
    /// The token after the last `evalcontract` when it is `(`: the statement it starts gets a
    /// note if it fails (Debian's `evalcontract` takes no arguments).
    after_evalcontract: Option<usize>,
    script: Script,
}

pub(super) fn parse(src: &str, params: &Params) -> Result<Script, Error> {
    let mut p = Parser {
        toks: lex(src, params)?,
        pos: 0,
        depth: 0,
        names: HashMap::new(),
        def_depths: Vec::new(),
        def_draws: Vec::new(),
        def_uses: Vec::new(),
        def_lines: Vec::new(),
        after_evalcontract: None,
        script: Script {
            generate: None,
            produce: None,
            dealer: None,
            vulnerable: None,
            title: None,
            predeal: [0; 4],
            predeal_lengths: Vec::new(),
            pointcount: MILTON,
            altcount: ALTCOUNT,
            condition: None,
            actions: Vec::new(),
            actions_given: false,
            definitions: Vec::new(),
            seed: None,
            opener: None,
        },
    };
    while p.peek() != &Tok::End {
        let start = p.pos;
        if let Err(mut e) = p.statement() {
            if p.after_evalcontract == Some(start)
                && let Some((_, _, message)) = e.script_mut()
            {
                message.push_str(
                    " (after evalcontract, which takes no arguments in Debian's dealer; \
                     DealerV2's are (NS or EW, contract, nv or vul))",
                );
            }
            return Err(e);
        }
    }
    Ok(p.script)
}

/// True when `w` is a function of dealer (DealerV2's `dds` and `par` too): a call when `(`
/// follows.
fn is_function(w: &str) -> bool {
    matches!(
        w,
        "hcp"
            | "hcps"
            | "control"
            | "controls"
            | "loser"
            | "losers"
            | "ltc"
            | "cccc"
            | "quality"
            | "shape"
            | "hascard"
            | "tricks"
            | "trick"
            | "dds"
            | "leadtricks"
            | "leadtrick"
            | "par"
            | "score"
            | "imps"
            | "imp"
            | "rnd"
    ) || suit_of(w).is_some()
        || pt_of(w).is_some()
}

/// Why `w` cannot name a variable, if it cannot: dealer reads it as a reserved word, a number,
/// a holding (`SAK`), a card (`AS`), a contract (`x3N`) or a shape (`x5xx`).
fn not_a_name(w: &str) -> Option<&'static str> {
    let c: Vec<char> = w.chars().collect();
    if RESERVED.contains(&w) {
        return Some("is one of dealer's reserved words");
    }
    if !c[0].is_ascii_alphabetic() {
        return Some("does not start with a letter");
    }
    let holding = suit_letter(c[0]).is_some() && {
        let mut order = "AKQJT98765432".chars();
        c[1..].iter().all(|ch| order.any(|o| o == *ch))
    };
    if holding {
        return Some("is a holding to dealer");
    }
    if c.len() == 2 && "23456789TJQKA".contains(c[0]) && suit_letter(c[1]).is_some() {
        return Some("is a card to dealer");
    }
    if c.len() == 3 && c[0] == 'x' && ('1'..='7').contains(&c[1]) && "CDHSN".contains(c[2]) {
        return Some("is a contract to dealer");
    }
    if c.len() == 4 && c.iter().all(|ch| *ch == 'x' || ch.is_ascii_digit()) {
        return Some("is a shape to dealer");
    }
    None
}

/// DealerV2's sides (`NS`, `EW`, upper case only).
fn side_of(w: &str) -> Option<Side> {
    match w {
        "NS" => Some(Side::NorthSouth),
        "EW" => Some(Side::EastWest),
        _ => None,
    }
}

/// DealerV2's vulnerabilities of `par` and `parcontract`: `none`, `ns`, `ew`, `both` or
/// `all` (dealdex takes them in any case).
fn vulnerability_of(w: &str) -> Option<Vulnerability> {
    match w.to_ascii_lowercase().as_str() {
        "none" => Some(Vulnerability::None),
        "ns" => Some(Vulnerability::NorthSouth),
        "ew" => Some(Vulnerability::EastWest),
        "both" | "all" => Some(Vulnerability::All),
        _ => None,
    }
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

/// dealer's name of a suit in its messages: `Spade`, `Heart`, `Diamond`, `Club`.
fn suit_name(suit: Suit) -> &'static str {
    ["Spade", "Heart", "Diamond", "Club"][suit.index()]
}

/// A contract word: `x3N` (dealer), or DealerV2's `z3N`, `x4Sx`, `z4Sxx`, with its doubling
/// (0, 1 for `x`, 2 for `xx`).
fn contract_of(w: &str) -> Option<(ScoreContract, u8)> {
    let ch: Vec<char> = w.chars().collect();
    if !(3..=5).contains(&ch.len()) || !matches!(ch[0], 'x' | 'z') {
        return None;
    }
    let level = ch[1].to_digit(10).filter(|l| (1..=7).contains(l))? as u8;
    let strain = match ch[2] {
        'N' => None,
        c => Some(suit_letter(c)?),
    };
    if !ch[3..].iter().all(|&c| c == 'x') {
        return None;
    }
    let doubling = match ch.len() {
        3 => Doubling::Undoubled,
        4 => Doubling::Doubled,
        _ => Doubling::Redoubled,
    };
    Some((
        ScoreContract {
            level,
            strain,
            doubling,
        },
        ch.len() as u8 - 3,
    ))
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

/// Every order of a shape's four suits (`any`): the positions each order takes them from.
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

    /// The error `kind` ([`Error::syntax`] …) at the current token.
    fn err(&self, kind: fn(u64, u64, String) -> Error, msg: impl Into<String>) -> Error {
        let (l, c) = self.here();
        kind(l, c, msg.into())
    }

    fn describe(&self) -> String {
        match self.peek() {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Decimal(_, t) => format!("`{t}`"),
            Tok::FdShape(t) => format!("`shape{{{t}}}`"),
            Tok::Str(s) => format!("string {s:?}"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::NewlineEsc => "`\\n`".into(),
            Tok::End => "the end of the script".into(),
        }
    }

    fn syntax(&self, expected: &str) -> Error {
        self.err(
            Error::syntax,
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

    fn expect(&mut self, p: &str) -> Result<(), Error> {
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

    /// A whole number (`-` allowed); a decimal constant is refused here.
    fn number(&mut self) -> Result<i64, Error> {
        let neg = self.eat("-");
        if let Tok::Decimal(_, t) = self.peek() {
            return Err(self.err(Error::bad_value, format!("`{t}` is not a whole number")));
        }
        let Some(w) = self.word() else {
            return Err(self.syntax("a number"));
        };
        let v: i64 = w
            .parse()
            .map_err(|_| self.err(Error::bad_value, format!("`{w}` is not a number")))?;
        self.next();
        Ok(if neg { -v } else { v })
    }

    /// A number or DealerV2's decimal constant (×100), `-` allowed.
    fn value(&mut self) -> Result<i64, Error> {
        if let Tok::Decimal(v, _) = *self.peek_at(usize::from(self.is_punct("-"))) {
            let neg = self.eat("-");
            self.next();
            return Ok(if neg { -v } else { v });
        }
        self.number()
    }

    /// True when a number or a decimal constant (after an optional `-`) is next.
    fn value_next(&self) -> bool {
        let k = usize::from(self.is_punct("-"));
        match self.peek_at(k) {
            Tok::Word(w) => w.parse::<i64>().is_ok(),
            Tok::Decimal(..) => true,
            _ => false,
        }
    }

    fn count(&mut self, what: &str) -> Result<u64, Error> {
        let (l, c) = self.here();
        let v = self.number()?;
        u64::try_from(v).map_err(|_| Error::bad_value(l, c, format!("{what}: {v} is negative")))
    }

    fn seat(&mut self) -> Result<Seat, Error> {
        self.named(seat_of, "a seat (north, east, south, west)")
    }

    fn suit(&mut self) -> Result<Suit, Error> {
        self.named(suit_of, "a suit (spades, hearts, diamonds, clubs)")
    }

    /// The next word as `of` reads it (a seat, a suit, …), taken; else the syntax error
    /// naming the `expected` word.
    fn named<T>(&mut self, of: fn(&str) -> Option<T>, expected: &str) -> Result<T, Error> {
        match self.word().and_then(of) {
            Some(v) => {
                self.next();
                Ok(v)
            }
            None => Err(self.syntax(expected)),
        }
    }

    /// A `pointcount` or `altcount` table: up to 13 values, ace first (decimal constants
    /// allowed, as DealerV2 has them).
    fn count_table(&mut self, what: &str) -> Result<[i64; 13], Error> {
        let mut t = [0i64; 13];
        let mut i = 0;
        while self.value_next() {
            if i == 13 {
                return Err(self.err(Error::bad_value, format!("{what}: more than 13 values")));
            }
            t[i] = self.value()?;
            i += 1;
        }
        Ok(t)
    }

    fn statement(&mut self) -> Result<(), Error> {
        let Some(w) = self.word().map(str::to_owned) else {
            // dealer allows the word `condition` to be left out.
            let e = self.top_expr()?;
            self.script.condition = Some(e);
            return Ok(());
        };
        match w.as_str() {
            // The first `generate` and `produce` count, as in dealer.
            "generate" => {
                self.next();
                let n = self.count("generate")?;
                self.script.generate.get_or_insert(n);
            }
            "produce" => {
                self.next();
                let n = self.count("produce")?;
                self.script.produce.get_or_insert(n);
            }
            "dealer" => {
                self.next();
                self.script.dealer = Some(self.seat()?);
            }
            "vulnerable" => {
                self.next();
                self.script.vulnerable = Some(self.vulnerable_argument()?);
            }
            "predeal" => {
                self.next();
                self.predeal()?;
            }
            "pointcount" => {
                self.next();
                self.script.pointcount = self.count_table("pointcount")?;
            }
            "altcount" => {
                self.next();
                self.altcount()?;
            }
            "condition" => {
                self.next();
                let e = self.top_expr()?;
                self.script.condition = Some(e);
            }
            "action" => {
                self.next();
                self.action_list()?;
            }
            // DealerV2's `seed N`: the run's seed when the command line gives none (the first
            // one counts). DealerV2's lexer reads `seed` then digits, whatever follows.
            "seed" if matches!(self.peek_at(1), Tok::Word(n) if n.bytes().all(|b| b.is_ascii_digit())) =>
            {
                self.next();
                let n = self.count("seed")?;
                self.script.seed.get_or_insert(n);
            }
            // DealerV2's `opener compass`: the opener of its `opc` (not run by dealdex).
            "opener" if self.peek_at(1) != &Tok::Punct("=") => {
                self.next();
                self.script.opener = Some(self.seat()?);
            }
            // DealerV2's `title "…"` (a word `title` without a string is an identifier).
            "title" if matches!(self.peek_at(1), Tok::Str(_)) => {
                self.next();
                if let Tok::Str(t) = self.next() {
                    self.script.title = Some(t);
                }
            }
            _ if self.peek_at(1) == &Tok::Punct("=") => self.definition(w)?,
            _ => {
                let e = self.top_expr()?;
                self.script.condition = Some(e);
            }
        }
        Ok(())
    }

    /// The argument of the `vulnerable` statement: none, NS, EW, all (or both), in any case.
    fn vulnerable_argument(&mut self) -> Result<Vulnerability, Error> {
        let v = match self.word().map(str::to_ascii_lowercase).as_deref() {
            Some("none") => Vulnerability::None,
            Some("ns") => Vulnerability::NorthSouth,
            Some("ew") => Vulnerability::EastWest,
            Some("all") | Some("both") => Vulnerability::All,
            _ => return Err(self.syntax("none, NS, EW or all")),
        };
        self.next();
        Ok(v)
    }

    /// The rest of `altcount N …`: the table number (0..9), then its values.
    fn altcount(&mut self) -> Result<(), Error> {
        let (l, c) = self.here();
        let n = self.number()?;
        if !(0..=9).contains(&n) {
            return Err(Error::bad_value(l, c, format!("altcount: {n} is not 0..9")));
        }
        self.script.altcount[n as usize] = self.count_table("altcount")?;
        Ok(())
    }

    /// The list after `action`. Each `action` statement replaces the actions before it, as
    /// in dealer; its list may be empty. The frequency tables together have at most
    /// [`MAX_FREQUENCY_TOTAL_CELLS`] cells.
    fn action_list(&mut self) -> Result<(), Error> {
        self.script.actions.clear();
        self.script.actions_given = true;
        let mut cells = 0;
        while self.action_next() {
            let (l, c) = self.here();
            let a = self.action()?;
            cells += self.table_cells(&a);
            if cells > MAX_FREQUENCY_TOTAL_CELLS {
                return Err(Error::bad_value(
                    l,
                    c,
                    format!(
                        "frequency: the tables have more than {MAX_FREQUENCY_TOTAL_CELLS} cells in all"
                    ),
                ));
            }
            self.script.actions.push(a);
            // dealer accepts a comma after the last action.
            if !self.eat(",") {
                break;
            }
        }
        Ok(())
    }

    /// The cells of an action's frequency table, with the low and high rows and columns
    /// (0 for an action that keeps no table).
    fn table_cells(&self, a: &Action) -> i64 {
        match a {
            // suokko's per-card table: a column for each lead card, at most 13.
            Action::Frequency(_, e, lo, hi) if self.uses_lead(e) => (hi - lo + 3) * 13,
            Action::Frequency(_, _, lo, hi) => hi - lo + 3,
            Action::Frequency2(_, _, lo, hi, _, lo2, hi2) => (hi - lo + 3) * (hi2 - lo2 + 3),
            Action::BktFreq(_, _, lo, hi, size) => buckets(*lo, *hi, *size) + 2,
            Action::BktFreq2(_, _, lo, hi, size, _, lo2, hi2, size2) => {
                (buckets(*lo, *hi, *size) + 2) * (buckets(*lo2, *hi2, *size2) + 2)
            }
            _ => 0,
        }
    }

    /// `name = expr`: a new identifier (dealer refuses a reserved word and a second
    /// definition of a name).
    fn definition(&mut self, w: String) -> Result<(), Error> {
        let (l, c) = self.here();
        if let Some(why) = not_a_name(&w) {
            return Err(Error::syntax(
                l,
                c,
                format!("syntax error: `{w}` {why}: it cannot name a variable"),
            ));
        }
        if let Some(&i) = self.names.get(&w) {
            return Err(Error::redefined_identifier(
                l,
                c,
                format!(
                    "redefined variable `{w}` (defined on line {})",
                    self.def_lines[i]
                ),
            ));
        }
        self.next();
        self.next();
        let e = self.top_expr()?;
        let depth = self.tree_depth(&e);
        let draws = self.rnd_draws(&e);
        if draws > MAX_RND_DRAWS {
            return Err(Error::bad_value(
                l,
                c,
                format!(
                    "`{w}` draws rnd more than {MAX_RND_DRAWS} times a deal (dealer draws anew at \
                     every use of a definition that uses rnd, and these definitions double it)"
                ),
            ));
        }
        self.def_draws.push(draws);
        self.def_uses.push(uses_of(&self.def_uses, &e, None));
        self.def_depths.push(depth);
        self.def_lines.push(l);
        let idx = self.script.definitions.len();
        self.script.definitions.push((w.clone(), e));
        self.names.insert(w, idx);
        Ok(())
    }

    fn predeal(&mut self) -> Result<(), Error> {
        let mut any = false;
        loop {
            if let Some(suit) = self.word().and_then(suit_of)
                && self.peek_at(1) == &Tok::Punct("(")
            {
                self.predeal_length(suit)?;
                any = true;
                // (Debian's dealer wants no comma here; dealdex takes one.)
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
                self.predeal_holding(seat)?;
                let holding_follows = self.is_punct(",")
                    && matches!(self.peek_at(1), Tok::Word(w) if w.chars().next().and_then(suit_letter).is_some() && seat_of(w).is_none() && !RESERVED.contains(&w.as_str()));
                if !holding_follows {
                    break;
                }
                self.next();
            }
        }
    }

    /// A predealt suit length, `spades(north)==1` (North gets exactly one spade), from the
    /// suit word on: each seat's suit set once, 0..13 cards.
    fn predeal_length(&mut self, suit: Suit) -> Result<(), Error> {
        let (l, c) = self.here();
        self.next();
        self.next();
        let seat = self.seat()?;
        self.expect(")")?;
        self.expect("==")?;
        let n = self.number()?;
        if let Some((_, _, k)) = self
            .script
            .predeal_lengths
            .iter()
            .find(|(s, u, _)| *s == seat && *u == suit)
        {
            return Err(Error::suit_length_predealt_twice(
                l,
                c,
                format!(
                    "{}'s {} suit has length already set to {k} (predeal)",
                    seat.name(),
                    suit_name(suit)
                ),
            ));
        }
        if !(0..=13).contains(&n) {
            return Err(Error::too_many_cards(
                l,
                c,
                format!(
                    "Suit lengths too long for {}: {n} {} (predeal)",
                    seat.name(),
                    suit.letter()
                ),
            ));
        }
        self.script.predeal_lengths.push((seat, suit, n as u8));
        self.check_lengths(l, c)
    }

    /// One predealt holding of `seat`, such as `SAQ542`: the suit letter, then upper-case
    /// cards, none dealt before, at most 13 for the seat.
    fn predeal_holding(&mut self, seat: Seat) -> Result<(), Error> {
        let (l, c) = self.here();
        let Some(w) = self.word().map(str::to_owned) else {
            return Err(self.syntax("a holding such as SAQ542"));
        };
        let mut chars = w.chars();
        let suit = chars.next().and_then(suit_letter).ok_or_else(|| {
            self.err(
                Error::bad_value,
                format!("predeal: `{w}` is not a holding (suit letter S, H, D or C, then cards)"),
            )
        })?;
        self.next();
        for ch in chars {
            let rank = Rank::from_char(ch)
                .filter(|_| ch.is_ascii_uppercase() || ch.is_ascii_digit())
                .ok_or_else(|| {
                    Error::bad_value(
                        l,
                        c,
                        format!("predeal: `{ch}` in `{w}` is not a card (AKQJT98765432)"),
                    )
                })?;
            let bit = 1u64 << Card::new(suit, rank).index();
            if self.script.predeal.iter().any(|m| m & bit != 0) {
                return Err(Error::card_predealt_twice(
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
                return Err(Error::too_many_cards(
                    l,
                    c,
                    format!(
                        "More than 13 cards for one player: {} (predeal)",
                        seat.name()
                    ),
                ));
            }
        }
        self.check_lengths(l, c)
    }

    /// The predealt suit lengths agree with each other and with the predealt cards
    /// ([`lengths_conflict`]), else an error at line `l`, column `c`.
    fn check_lengths(&self, l: u64, c: u64) -> Result<(), Error> {
        match lengths_conflict(&self.script) {
            Some(message) => Err(Error::too_many_cards(l, c, message)),
            None => Ok(()),
        }
    }

    /// True when an action is next (a comma after the last action ends the list).
    fn action_next(&self) -> bool {
        self.word().is_some_and(|w| ACTIONS.contains(&w))
    }

    fn action(&mut self) -> Result<Action, Error> {
        let (l, c) = self.here();
        let Some(w) = self.word().map(str::to_owned) else {
            return Err(self.syntax("an action"));
        };
        self.next();
        Ok(match w.as_str() {
            "printall" => Action::PrintAll,
            "printew" => Action::PrintEw,
            "printpbn" => Action::PrintPbn,
            "printcompact" => Action::PrintCompact(self.action_argument()?),
            "printoneline" => Action::PrintOneLine(self.action_argument()?),
            "printes" => self.printes()?,
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
            "frequency" => self.frequency(l, c)?,
            // DealerV2's bucket frequency.
            "bktfreq" => self.bktfreq(l, c)?,
            // DealerV2's side-by-side hands (its `printew` is `printside (EW)`; dealdex's
            // keeps Debian's layout).
            "printns" => Action::PrintSide(Side::NorthSouth),
            "printside" => {
                self.expect("(")?;
                let side = self
                    .word()
                    .and_then(side_of)
                    .ok_or_else(|| self.syntax("a side (NS or EW) in printside(…)"))?;
                self.next();
                self.expect(")")?;
                Action::PrintSide(side)
            }
            "export" => {
                self.expect("(")?;
                let seats = match self.word() {
                    Some(w) if seat_of(w).is_some() => vec![seat_of(w).expect("a seat")],
                    Some(w) if side_of(w).is_some() => side_of(w).expect("a side").seats().to_vec(),
                    _ => return Err(self.syntax("a seat or a side (NS or EW) in export(…)")),
                };
                self.next();
                self.expect(")")?;
                Action::Export(seats)
            }
            "csvrpt" => Action::CsvRpt(self.csv_list()?),
            "printrpt" => Action::PrintRpt(self.csv_list()?),
            "evalcontract" => self.evalcontract()?,
            _ => {
                return Err(Error::unsupported(
                    l,
                    c,
                    format!("DealerV2's action `{w}` is not supported by dealdex"),
                ));
            }
        })
    }

    /// The rest of `printes (…)`: strings, `\n` and expressions, comma separated.
    fn printes(&mut self) -> Result<Action, Error> {
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
        Ok(Action::PrintEs(items))
    }

    /// The rest of `frequency ["label"] (expr, lo, hi[, expr, lo, hi])`, the action at line
    /// `l`, column `c`: a two-way table has at most [`MAX_FREQUENCY_CELLS`] cells.
    fn frequency(&mut self, l: u64, c: u64) -> Result<Action, Error> {
        let label = self.label();
        self.expect("(")?;
        let e = self.top_expr()?;
        let (lo, hi) = self.frequency_axis()?;
        if self.eat(")") {
            return Ok(Action::Frequency(label, e, lo, hi));
        }
        self.expect(",")?;
        let e2 = self.top_expr()?;
        let (lo2, hi2) = self.frequency_axis()?;
        self.expect(")")?;
        let cells = (hi - lo + 3) * (hi2 - lo2 + 3);
        if cells > MAX_FREQUENCY_CELLS {
            return Err(Error::bad_value(
                l,
                c,
                format!(
                    "frequency: a table of {} × {} values ({cells} cells with the low and high rows and columns; at most {MAX_FREQUENCY_CELLS})",
                    hi - lo + 1,
                    hi2 - lo2 + 1
                ),
            ));
        }
        Ok(Action::Frequency2(label, e, lo, hi, e2, lo2, hi2))
    }

    /// The rest of DealerV2's `bktfreq`, the action at line `l`, column `c`: `frequency`'s
    /// grammar with a bucket size after each axis's bounds (decimal constants allowed, ×100
    /// as everywhere); a two-way table has at most [`MAX_FREQUENCY_CELLS`] cells.
    fn bktfreq(&mut self, l: u64, c: u64) -> Result<Action, Error> {
        let label = self.label();
        self.expect("(")?;
        let e = self.top_expr()?;
        let (lo, hi, size) = self.bucket_axis()?;
        if self.eat(")") {
            return Ok(Action::BktFreq(label, e, lo, hi, size));
        }
        self.expect(",")?;
        let e2 = self.top_expr()?;
        let (lo2, hi2, size2) = self.bucket_axis()?;
        self.expect(")")?;
        let (n, n2) = (buckets(lo, hi, size), buckets(lo2, hi2, size2));
        let cells = (n + 2) * (n2 + 2);
        if cells > MAX_FREQUENCY_CELLS {
            return Err(Error::bad_value(
                l,
                c,
                format!(
                    "bktfreq: a table of {n} × {n2} buckets ({cells} cells with the low and high rows and columns; at most {MAX_FREQUENCY_CELLS})"
                ),
            ));
        }
        Ok(Action::BktFreq2(
            label, e, lo, hi, size, e2, lo2, hi2, size2,
        ))
    }

    /// The rest of `evalcontract`. Debian's dealer: no arguments (a `(` after it starts the
    /// next statement). DealerV2: `evalcontract (NS|EW, contract, nv|vul)`, parsed and
    /// checked; dealdex prints Debian's table either way.
    fn evalcontract(&mut self) -> Result<Action, Error> {
        if self.is_punct("(") && matches!(self.peek_at(1), Tok::Word(w) if w == "NS" || w == "EW") {
            self.next();
            self.next();
            self.expect(",").map_err(|_| self.evalcontract_syntax())?;
            let cw = self.word().unwrap_or("").to_owned();
            if contract_of(&cw).is_none() {
                return Err(self.evalcontract_syntax());
            }
            self.next();
            self.expect(",").map_err(|_| self.evalcontract_syntax())?;
            if !matches!(self.word(), Some("nv" | "vul")) {
                return Err(self.evalcontract_syntax());
            }
            self.next();
            self.expect(")").map_err(|_| self.evalcontract_syntax())?;
        } else if self.is_punct("(") {
            self.after_evalcontract = Some(self.pos);
        }
        Ok(Action::EvalContract)
    }

    fn evalcontract_syntax(&self) -> Error {
        self.syntax(
            "DealerV2's evalcontract arguments: a side (NS or EW), a contract (x3N, z4Hx) and nv or vul",
        )
    }

    /// DealerV2's `(item, …)` of `csvrpt` and `printrpt` ([`CsvItem`]).
    fn csv_list(&mut self) -> Result<Vec<CsvItem>, Error> {
        self.expect("(")?;
        let mut items = vec![self.csv_item()?];
        while self.eat(",") {
            items.push(self.csv_item()?);
        }
        self.expect(")")?;
        Ok(items)
    }

    /// True when the word at hand is `w` and no variable of the script is named so (a
    /// variable named like one of DealerV2's keywords stays the variable).
    fn keyword(&self, w: &str) -> bool {
        self.is_word(w) && !self.names.contains_key(w)
    }

    /// One item of a `csvrpt` or `printrpt` list: a string, a seat, a side, `deal`,
    /// `trix(seat)`, `trix(deal)`, `parcontract [(vul)]`, or an expression.
    fn csv_item(&mut self) -> Result<CsvItem, Error> {
        if let Tok::Str(s) = self.peek().clone() {
            self.next();
            return Ok(CsvItem::Str(s));
        }
        if let Some(seats) = self.seats_item() {
            self.next();
            return Ok(CsvItem::Hands(seats));
        }
        if self.keyword("trix") && self.peek_at(1) == &Tok::Punct("(") {
            self.next();
            self.next();
            let seats = match self.word().and_then(seat_of) {
                Some(seat) => vec![seat],
                None if self.is_word("deal") => Seat::ALL.to_vec(),
                None => return Err(self.syntax("a seat or `deal` in trix(…)")),
            };
            self.next();
            self.expect(")")?;
            return Ok(CsvItem::Tricks(seats));
        }
        if self.keyword("parcontract") {
            self.next();
            let vul = match self.eat("(") {
                true => {
                    let v = self.vulnerability()?;
                    self.expect(")")?;
                    v
                }
                false => Vulnerability::None,
            };
            return Ok(CsvItem::ParContract(vul));
        }
        Ok(CsvItem::Expr(self.top_expr()?))
    }

    /// The seats of a hands item at hand (`north`, `NS`, `deal`), in the order North, East,
    /// South, West.
    fn seats_item(&self) -> Option<Vec<Seat>> {
        let w = self.word()?;
        if let Some(seat) = seat_of(w) {
            return Some(vec![seat]);
        }
        if let Some(side) = side_of(w) {
            return Some(side.seats().to_vec());
        }
        self.keyword("deal").then(|| Seat::ALL.to_vec())
    }

    /// A vulnerability of `par` or `parcontract` (`none`, `ns`, `ew`, `both`, `all`).
    fn vulnerability(&mut self) -> Result<Vulnerability, Error> {
        self.named(vulnerability_of, "a vulnerability (none, ns, ew, both)")
    }

    /// `printcompact` and `printoneline`'s optional `(expr)`.
    fn action_argument(&mut self) -> Result<Option<Expr>, Error> {
        if !self.eat("(") {
            return Ok(None);
        }
        let e = self.top_expr()?;
        self.expect(")")?;
        Ok(Some(e))
    }

    /// A frequency axis: `low <= high`, at most [`MAX_FREQUENCY_VALUES`] values.
    fn check_bounds(&self, lo: i64, hi: i64) -> Result<(), Error> {
        if hi < lo || hi.saturating_sub(lo) >= MAX_FREQUENCY_VALUES {
            return Err(self.err(Error::bad_value,
                format!(
                    "frequency: bounds {lo}, {hi} (the low bound first, at most {MAX_FREQUENCY_VALUES} values)"
                ),
            ));
        }
        Ok(())
    }

    /// An axis's bounds after its expression: `, low, high`.
    fn bounds(&mut self) -> Result<(i64, i64), Error> {
        self.expect(",")?;
        let lo = self.value()?;
        self.expect(",")?;
        let hi = self.value()?;
        Ok((lo, hi))
    }

    /// A `frequency` axis after its expression: `, low, high`, as [`Parser::check_bounds`]
    /// takes them.
    fn frequency_axis(&mut self) -> Result<(i64, i64), Error> {
        let (lo, hi) = self.bounds()?;
        self.check_bounds(lo, hi)?;
        Ok((lo, hi))
    }

    /// A `bktfreq` axis after its expression: `, low, high, size`, each a number or a
    /// decimal constant; `low <= high`, `size > 0`, at most [`MAX_FREQUENCY_VALUES`] buckets
    /// (DealerV2 divides by a size of 0 and allocates a negative count for reversed bounds).
    fn bucket_axis(&mut self) -> Result<(i64, i64, i64), Error> {
        let (lo, hi) = self.bounds()?;
        self.expect(",")?;
        let size = self.value()?;
        let why = if size <= 0 {
            Some(format!("a bucket size of {size} (it must be above 0)"))
        } else if hi < lo {
            Some(format!("bounds {lo}, {hi} (the low bound first)"))
        } else if buckets(lo, hi, size) > MAX_FREQUENCY_VALUES {
            Some(format!(
                "{} buckets of {size} from {lo} to {hi} (at most {MAX_FREQUENCY_VALUES})",
                buckets(lo, hi, size)
            ))
        } else {
            None
        };
        match why {
            Some(why) => Err(self.err(Error::bad_value, format!("bktfreq: {why}"))),
            None => Ok((lo, hi, size)),
        }
    }

    fn label(&mut self) -> Option<String> {
        if let Tok::Str(s) = self.peek().clone() {
            self.next();
            Some(s)
        } else {
            None
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

    /// Whether `e` uses suokko's `leadtricks`, through the definitions it names (its value
    /// may then be per card): the graph's [`uses_of`] over the definitions read so far.
    fn uses_lead(&self, e: &Expr) -> bool {
        uses_of(&self.def_uses, e, None).lead
    }

    /// The `rnd` draws one evaluation of `e` takes, through the definitions it names (each
    /// use of one that draws draws again), saturating (an explicit stack, as
    /// [`Parser::tree_depth`]).
    fn rnd_draws(&self, e: &Expr) -> u64 {
        let mut draws = 0u64;
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match e {
                Expr::Var(i) => draws = draws.saturating_add(self.def_draws[*i]),
                Expr::Rnd(a) => {
                    draws = draws.saturating_add(1);
                    stack.push(a);
                }
                Expr::Not(a) | Expr::Neg(a) | Expr::Imps(a) | Expr::Score(_, _, a) => stack.push(a),
                Expr::Bin(_, a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
                Expr::Cond(a, b, c) => {
                    stack.push(a);
                    stack.push(b);
                    stack.push(c);
                }
                _ => {}
            }
        }
        draws
    }

    /// An expression of a statement or action ([`Parser::expr`]: refused when its tree is
    /// deeper than [`MAX_TREE_DEPTH`]).
    fn top_expr(&mut self) -> Result<Expr, Error> {
        self.expr()
    }

    /// expr := or ('?' expr ':' expr)?, at most [`MAX_DEPTH`] deep.
    fn expr(&mut self) -> Result<Expr, Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(
                Error::bad_value,
                format!("expression nested more than {MAX_DEPTH} deep"),
            ));
        }
        let (l, c) = self.here();
        let e = self.expr_inner();
        self.depth -= 1;
        let e = e?;
        let d = self.tree_depth(&e);
        if d > MAX_TREE_DEPTH {
            return Err(Error::bad_value(
                l,
                c,
                format!("expression {d} levels deep (at most {MAX_TREE_DEPTH})"),
            ));
        }
        Ok(e)
    }

    fn expr_inner(&mut self) -> Result<Expr, Error> {
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
            Tok::Punct("==") => (BinOp::Cmp(Comparison::Eq), 2),
            Tok::Punct("!=") => (BinOp::Cmp(Comparison::Ne), 2),
            Tok::Punct("<") => (BinOp::Cmp(Comparison::Lt), 3),
            Tok::Punct("<=") => (BinOp::Cmp(Comparison::Le), 3),
            Tok::Punct(">") => (BinOp::Cmp(Comparison::Gt), 3),
            Tok::Punct(">=") => (BinOp::Cmp(Comparison::Ge), 3),
            Tok::Punct("+") => (BinOp::Add, 4),
            Tok::Punct("-") => (BinOp::Sub, 4),
            Tok::Punct("*") => (BinOp::Mul, 5),
            Tok::Punct("/") => (BinOp::Div, 5),
            Tok::Punct("%") => (BinOp::Rem, 5),
            _ => return None,
        })
    }

    /// Left-associative binary operators of level `level` and above.
    fn binary(&mut self, level: usize) -> Result<Expr, Error> {
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
                    Error::bad_value,
                    format!("more than {MAX_TREE_DEPTH} terms in a row"),
                ));
            }
            self.next();
            let right = self.binary(level + 1)?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, Error> {
        if self.depth > MAX_DEPTH {
            return Err(self.err(
                Error::bad_value,
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

    fn unary_inner(&mut self) -> Result<Expr, Error> {
        if self.eat("!") || (self.is_word("not") && self.next() != Tok::End) {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, Error> {
        if self.eat("(") {
            let e = self.expr()?;
            self.expect(")")?;
            return Ok(e);
        }
        if let Tok::Decimal(v, _) = *self.peek() {
            self.next();
            return Ok(Expr::Num(v));
        }
        if let Tok::FdShape(text) = self.peek().clone() {
            let e = self.fd_shape(&text)?;
            self.next();
            return Ok(e);
        }
        let Some(w) = self.word().map(str::to_owned) else {
            return Err(self.syntax("an expression"));
        };
        if let Ok(v) = w.parse::<i64>() {
            self.next();
            return Ok(Expr::Num(v));
        }
        self.name_or_call(w)
    }

    /// The expression the word `w` (not read yet) starts: a call of one of dealer's
    /// functions, or a defined variable.
    fn name_or_call(&mut self, w: String) -> Result<Expr, Error> {
        let (l, c) = self.here();
        // A word followed by `(` is a call only when it names one of dealer's functions (a
        // defined variable stays a variable): otherwise the expression ends with the word and
        // the `(` starts the next statement.
        let paren = self.peek_at(1) == &Tok::Punct("(") && !self.names.contains_key(&w);
        if paren && CSV_ONLY.contains(&w.as_str()) {
            return Err(Error::syntax(
                l,
                c,
                format!(
                    "syntax error: DealerV2's `{w}(…)` is an item of csvrpt and printrpt lists, not an expression"
                ),
            ));
        }
        if paren && UNSUPPORTED_FUNCTIONS.contains(&w.as_str()) {
            return Err(Error::unsupported(
                l,
                c,
                match w.as_str() {
                    "usereval" => "DealerV2's function `usereval` is not supported by dealdex: it \
                         asks DealerV2's external evaluation program (DealerServer, the user \
                         evaluation server of its UserEval directory, started by DealerV2), \
                         which dealdex does not run"
                        .to_owned(),
                    "opc" => "DealerV2's function `opc` is not supported by dealdex: it asks \
                         DealerV2's external Optimal Point Count program (the Perl program dop \
                         of DOP4DealerV2), which dealdex does not run"
                        .to_owned(),
                    _ => format!("DealerV2's function `{w}` is not supported by dealdex"),
                },
            ));
        }
        if !(paren && is_function(&w)) {
            return match self.names.get(&w) {
                Some(&i) => {
                    self.next();
                    Ok(Expr::Var(i))
                }
                None => Err(Error::unknown_identifier(
                    l,
                    c,
                    format!("unknown variable `{w}`"),
                )),
            };
        }
        self.next();
        self.next();
        let e = self.call(&w, l, c)?;
        self.expect(")")?;
        Ok(e)
    }

    /// The call of dealer's function `w` (at line `l`, column `c`) from its arguments on (its
    /// `(` read, its `)` not).
    fn call(&mut self, w: &str, l: u64, c: u64) -> Result<Expr, Error> {
        Ok(match w {
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
            "ltc" => {
                let s = self.seat()?;
                Expr::Ltc(s, self.opt_suit()?)
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
            "hascard" => self.hascard_call()?,
            // DealerV2's `dds` is `tricks`.
            "tricks" | "trick" | "dds" => {
                let (seat, strain) = self.tricks_call()?;
                Expr::Tricks(seat, strain)
            }
            // suokko's dealer: the opening leader's per-card tricks.
            "leadtricks" | "leadtrick" => {
                let (seat, strain) = self.tricks_call()?;
                Expr::LeadTricks(seat, strain)
            }
            "score" => self.score_call()?,
            "par" => self.par_call()?,
            "imps" | "imp" => Expr::Imps(Box::new(self.expr()?)),
            "rnd" => Expr::Rnd(Box::new(self.expr()?)),
            _ => {
                if let Some(suit) = suit_of(w) {
                    Expr::Length(self.seat()?, suit)
                } else if let Some(n) = pt_of(w) {
                    let s = self.seat()?;
                    Expr::Pt(n, s, self.opt_suit()?)
                } else {
                    return Err(Error::syntax(
                        l,
                        c,
                        format!("syntax error: unknown function `{w}`"),
                    ));
                }
            }
        })
    }

    /// `hascard(seat, card)`'s arguments.
    fn hascard_call(&mut self) -> Result<Expr, Error> {
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
                    Error::bad_value,
                    format!("hascard: `{cw}` is not a card (rank then suit, e.g. AS, TC)"),
                )
            })?;
        self.next();
        Ok(Expr::HasCard(s, card))
    }

    /// `tricks(seat, strain)`'s arguments (`leadtricks`' too): the seat and the strain (None
    /// for notrump).
    fn tricks_call(&mut self) -> Result<(Seat, Option<Suit>), Error> {
        let s = self.seat()?;
        self.expect(",")?;
        let strain =
            match self.word() {
                Some("notrump" | "notrumps") => None,
                _ => Some(self.suit().map_err(|_| {
                    self.syntax("a strain (spades, hearts, diamonds, clubs, notrump)")
                })?),
            };
        if strain.is_none() {
            self.next();
        }
        Ok((s, strain))
    }

    /// `score(vul|nv, contract, tricks)`'s arguments (DealerV2's doubled `z4Hx` and redoubled
    /// `z4Hxx` too).
    fn score_call(&mut self) -> Result<Expr, Error> {
        let vul = match self.word() {
            Some("vul") => true,
            Some("nv") => false,
            _ => return Err(self.syntax("vul or nv")),
        };
        self.next();
        self.expect(",")?;
        let cw = self.word().unwrap_or("").to_owned();
        let Some((contract, _)) = contract_of(&cw) else {
            return Err(self.err(Error::bad_value,
                format!(
                    "score: `{cw}` is not a contract (x or z, level, strain, then x or xx when doubled: x3N, z4Hx)"
                ),
            ));
        };
        self.next();
        self.expect(",")?;
        Ok(Expr::Score(vul, contract, Box::new(self.expr()?)))
    }

    /// DealerV2's `par(NS|EW [, vul])`'s arguments.
    fn par_call(&mut self) -> Result<Expr, Error> {
        let side = self.named(side_of, "a side (NS or EW) in par(…)")?;
        let vul = match self.eat(",") {
            true => self.vulnerability()?,
            false => Vulnerability::None,
        };
        Ok(Expr::Par(side, vul))
    }

    fn opt_suit(&mut self) -> Result<Option<Suit>, Error> {
        if self.eat(",") {
            Ok(Some(self.suit()?))
        } else {
            Ok(None)
        }
    }

    /// DealerV2's `shape{compass, list}` (François Dellacherie's shapes, [`fd`]): the list
    /// expanded into dealer's shapes as DealerV2's `fdp` does, then taken as `shape(…)`.
    fn fd_shape(&self, text: &str) -> Result<Expr, Error> {
        let bad = |msg: String| self.err(Error::bad_value, format!("shape{{}}: {msg}"));
        let (compass, list) = text.split_once(',').ok_or_else(|| {
            bad("a compass and a comma first, as in shape{north, 5M(xxx)}".into())
        })?;
        let seat = seat_of(compass.trim())
            .ok_or_else(|| bad(format!("`{}` is not a compass", compass.trim())))?;
        let mut set = ShapeSet(Box::new([0; 43]));
        for (add, any, w) in fd::expand(list).map_err(bad)? {
            let pat = shape_word(&w).ok_or_else(|| bad(format!("`{w}` is not a shape")))?;
            let cards: u32 = pat.iter().flatten().sum();
            if cards > 13 || (pat.iter().all(Option::is_some) && cards != 13) {
                return Err(bad(format!("wrong number of cards in shape `{w}`")));
            }
            apply_shape(&mut set, &pat, any, add);
        }
        Ok(Expr::Shape(seat, set))
    }

    /// `[prefix] [any] shape ([prefix] [any] shape)*`, a prefix `+`, `,` (add), `-` (take
    /// away) or none (add), into the set of lengths it accepts. As in dealer, a shape without
    /// `x` has 13 cards and one with `x` at most 13.
    /// When the word at hand is shape elements written without spaces ([`glued_shapes`]),
    /// puts its elements in its place, as dealer's lexer reads them.
    fn split_glued_shapes(&mut self) {
        let Some(parts) = self
            .word()
            .filter(|w| *w != "any" && shape_word(w).is_none())
            .and_then(glued_shapes)
        else {
            return;
        };
        let (line, column) = self.here();
        let tokens: Vec<Token> = parts
            .into_iter()
            .map(|w| Token {
                tok: Tok::Word(w),
                line,
                column,
            })
            .collect();
        self.toks.splice(self.pos..=self.pos, tokens);
    }

    fn shape_list(&mut self) -> Result<ShapeSet, Error> {
        let mut set = ShapeSet(Box::new([0; 43]));
        loop {
            let add = if self.eat("+") || self.eat(",") {
                true
            } else {
                !self.eat("-")
            };
            self.split_glued_shapes();
            let any = self.is_word("any");
            if any {
                self.next();
                self.split_glued_shapes();
            }
            let w = self.word().unwrap_or("").to_owned();
            let pat = shape_word(&w).ok_or_else(|| {
                self.err(
                    Error::bad_value,
                    format!("shape: `{w}` is not a shape (four digits or x, e.g. 5xxx, 4333)"),
                )
            })?;
            let cards: u32 = pat.iter().flatten().sum();
            if pat.iter().all(Option::is_some) && cards != 13 {
                return Err(self.err(
                    Error::bad_value,
                    format!("wrong number of cards in shape `{w}`: {cards}, not 13 (shape)"),
                ));
            }
            if cards > 13 {
                return Err(self.err(
                    Error::bad_value,
                    format!(
                        "too many cards in ambiguous shape `{w}`: {cards}, more than 13 (shape)"
                    ),
                ));
            }
            self.next();
            apply_shape(&mut set, &pat, any, add);
            // Another element follows after `+`, `-` or `,`, or right away (dealer's
            // `shapelist shapelistel`).
            let more = self.is_punct("+")
                || self.is_punct("-")
                || self.is_punct(",")
                || self.is_word("any")
                || self.word().and_then(shape_word).is_some()
                || self.word().and_then(glued_shapes).is_some();
            if !more {
                return Ok(set);
            }
        }
    }
}

/// Why the script's predealt suit lengths disagree with each other or with its predealt
/// cards, if they do: a seat has more predealt cards in a suit than its length there, or the
/// cards a seat or a suit must get (a length, else the predealt cards) add up to more than 13.
pub(super) fn lengths_conflict(script: &Script) -> Option<String> {
    let lengths = &script.predeal_lengths;
    let cards = |seat: Seat, suit: Suit| {
        (script.predeal[seat.index()] >> (suit.index() as u32 * 13) & 0x1fff).count_ones() as u64
    };
    let length = |seat: Seat, suit: Suit| {
        lengths
            .iter()
            .find(|(s, u, _)| *s == seat && *u == suit)
            .map(|(_, _, k)| u64::from(*k))
    };
    let need = |seat, suit| length(seat, suit).unwrap_or_else(|| cards(seat, suit));
    let too_long = |seat: Seat, suit: Suit, why: String| {
        let n = length(seat, suit).unwrap_or(0);
        format!(
            "Suit lengths too long for {}: {n} {} (predeal: {why})",
            seat.name(),
            suit.letter()
        )
    };
    for &(seat, suit, k) in lengths {
        let held = cards(seat, suit);
        if held > u64::from(k) {
            return Some(too_long(
                seat,
                suit,
                format!("{held} {} predealt to it", suit_name(suit).to_lowercase()),
            ));
        }
    }
    for &(seat, suit, _) in lengths {
        if Suit::ALL.iter().map(|&u| need(seat, u)).sum::<u64>() > 13 {
            return Some(too_long(seat, suit, "more than 13 cards".into()));
        }
        if Seat::ALL.iter().map(|&s| need(s, suit)).sum::<u64>() > 13 {
            return Some(too_long(
                seat,
                suit,
                format!("too many {}s", suit_name(suit)),
            ));
        }
    }
    None
}

/// The elements of a word that is shape elements written without spaces (`75xxany`,
/// `56xx55xx`: dealer's lexer reads a shape or `any` at a time, so they are a list), or None
/// when the word is not such a run.
fn glued_shapes(w: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut rest = w;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("any") {
            parts.push("any".to_owned());
            rest = r;
        } else if rest.len() >= 4 && rest.is_char_boundary(4) && shape_word(&rest[..4]).is_some() {
            parts.push(rest[..4].to_owned());
            rest = &rest[4..];
        } else {
            return None;
        }
    }
    (parts.len() > 1).then_some(parts)
}

/// Adds to `set` (or takes away) the lengths that match `pat` (`any`: in any order).
fn apply_shape(set: &mut ShapeSet, pat: &[Option<u32>; 4], any: bool, add: bool) {
    // The pattern's distinct orders (one without `any`), each walked over the lengths it
    // leaves free only: a script's hundreds of shapes cost microseconds, not a scan of
    // every shape in every order each.
    let mut orders: Vec<[Option<u32>; 4]> = match any {
        true => PERMS.iter().map(|p| p.map(|i| pat[i])).collect(),
        false => vec![*pat],
    };
    orders.sort_unstable();
    orders.dedup();
    let lengths = |q: Option<u32>| match q {
        Some(v) => v..=v,
        None => 0..=13,
    };
    for p in orders {
        for s in lengths(p[0]) {
            for h in lengths(p[1]) {
                for d in lengths(p[2]) {
                    let Some(c) = 13u32.checked_sub(s + h + d) else {
                        continue;
                    };
                    if p[3].is_some_and(|v| v != c) {
                        continue;
                    }
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
}

/// François Dellacherie's shapes, as DealerV2 reads `shape{compass, list}`: its `fdp`
/// (François's `dpp` with `Dist.pm` 1.2A) expands the list into dealer's shapes, and this
/// does the same.
///
/// The list's elements are joined by `+` or `-` with white space around (a `+` or `-` next
/// to a digit is part of the element). An element is four suits, in order ♠ ♥ ♦ ♣ unless
/// suit letters (`s`, `h`, `d`, `c`) follow the lengths: a length `5`, `x` (any), `5+` (5 to
/// 9), `3-` (0 to 3), `[013-5]` (one of); `(…)` around the last suits permutes them (around
/// all four: dealer's `any`); `M` a major and `m` a minor (one of each at most, not beside a
/// suit letter of their kind); `:cond` keeps the shapes whose lengths `s`, `h`, `d`, `c`
/// (`M`, `m` too) meet `cond` (numbers, `+`, `-`, `*`, `<`, `<=`, `>`, `>=`, `==`, `!=`,
/// parentheses, `,` for and, `or`). Where `fdp` gives something no one would mean (upper-case suit letters, a sign
/// left dangling, a comparison chain, a length of 10 or more but through `x`) the element
/// is refused.
mod fd {
    use crate::model::features::Comparison;

    /// The suits' letters in dealer's order.
    const SUITS: [char; 4] = ['s', 'h', 'd', 'c'];

    /// The list expanded: (add, any, four-character shape) in order.
    pub(super) fn expand(list: &str) -> Result<Vec<(bool, bool, String)>, String> {
        let mut out = Vec::new();
        for (add, item) in split(list)? {
            let shapes = staveren(&item)?;
            if shapes.is_empty() {
                // DealerV2 takes it and matches nothing: refused, as `shape(north, 77xx)` is.
                return Err(format!(
                    "`{}` matches no hand: its suit lengths cannot add up to 13",
                    item.trim()
                ));
            }
            for shape in shapes {
                let (any, w) = match shape.strip_prefix("any ") {
                    Some(w) => (true, w.to_owned()),
                    None => (false, shape),
                };
                out.push((add, any, w));
            }
        }
        Ok(out)
    }

    /// The elements and their signs: split at `+` or `-` with white space on both sides.
    fn split(list: &str) -> Result<Vec<(bool, String)>, String> {
        let c: Vec<char> = list.chars().collect();
        let mut items = Vec::new();
        let (mut add, mut start, mut i) = (true, 0, 0);
        while i < c.len() {
            let ws = c[i..].iter().take_while(|c| c.is_whitespace()).count();
            if ws > 0
                && matches!(c.get(i + ws), Some('+' | '-'))
                && c.get(i + ws + 1).is_some_and(|c| c.is_whitespace())
            {
                let item: String = c[start..i].iter().collect();
                if item.trim().is_empty() {
                    return Err(format!("a sign without a shape before it in `{list}`"));
                }
                items.push((add, item));
                add = c[i + ws] == '+';
                i += ws + 1;
                start = i;
            } else {
                i += ws.max(1);
            }
        }
        let item: String = c[start..].iter().collect();
        if item.trim().is_empty() {
            return Err(format!("a sign without a shape after it in `{list}`"));
        }
        items.push((add, item));
        Ok(items)
    }

    /// `_staveren_expand`: `M` and `m` spelt out, each alternative parsed, the shapes reduced.
    fn staveren(item: &str) -> Result<Vec<String>, String> {
        for (letter, kind, pair) in [('m', "minor", ['d', 'c']), ('M', "major", ['s', 'h'])] {
            let n = item.matches(letter).count();
            let beside = item
                .split(':')
                .any(|part| part.contains(letter) && part.contains(pair));
            if n > 1 || beside {
                return Err(format!(
                    "`{}`: one {kind} `{letter}` at most, and no {} letter beside it",
                    item.trim(),
                    kind
                ));
            }
        }
        let mut alternatives = vec![item.to_owned()];
        for (letter, pair) in [('m', ['d', 'c']), ('M', ['s', 'h'])] {
            alternatives = alternatives
                .iter()
                .flat_map(|a| match a.contains(letter) {
                    true => pair
                        .iter()
                        .map(|p| a.replacen(letter, &p.to_string(), 1))
                        .collect(),
                    false => vec![a.clone()],
                })
                .collect();
        }
        let mut all = Vec::new();
        for a in &alternatives {
            all.extend(parse_shape(a)?);
        }
        reduce(all, None)
    }

    /// `_parse_shape`: one element (no `M`, `m`) into dealer's shapes.
    fn parse_shape(exp: &str) -> Result<Vec<String>, String> {
        let (shape, logical) = match exp.rfind(':') {
            Some(k) => (&exp[..k], Some(&exp[k + 1..])),
            None => (exp, None),
        };
        let what = exp.trim();
        if shape.chars().any(|c| "SHDC".contains(c)) {
            return Err(format!(
                "`{what}`: suit letters are lower case (s, h, d, c)"
            ));
        }
        let perm = suit_order(shape, what)?;
        let shape: String = shape
            .chars()
            .filter(|c| !SUITS.contains(c) && !c.is_whitespace())
            .collect();
        let mut results =
            if let Some(inner) = shape.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
                let shapes = develop(inner, 13, 13, what)?;
                if logical.is_none() {
                    return Ok(any_shapes(&shapes));
                }
                permute_all(&shapes)
            } else if let Some(open) = shape.rfind('(').filter(|&k| k > 0 && shape.ends_with(')')) {
                let (fixed, float) = (&shape[..open], &shape[open + 1..shape.len() - 1]);
                let mut v = Vec::new();
                for fx in develop(fixed, 0, 13, what)? {
                    let max = 13 - count(&fx, what)?;
                    let min = if fx.contains('x') { 0 } else { max };
                    for fl in permute_all(&develop(float, min, max, what)?) {
                        v.push(format!("{fx}{fl}"));
                    }
                }
                v
            } else if !shape.contains(['(', ')']) {
                develop(&shape, 13, 13, what)?
            } else {
                return Err(format!("`{what}` is not a shape"));
            };
        for r in &results {
            if r.chars().count() != 4 {
                return Err(format!("`{what}` does not give four suits"));
            }
        }
        results = reduce(results, perm.as_deref())?;
        let Some(logical) = logical else {
            return Ok(results);
        };
        logical_filter(results, logical, what)
    }

    /// Where the k-th length of a shape written with suit letters (`5s4h…`) goes, as an index
    /// into [`SUITS`]; `None` when the shape has no suit letters (lengths in suit order).
    fn suit_order(shape: &str, what: &str) -> Result<Option<Vec<usize>>, String> {
        let letters: Vec<char> = shape.chars().filter(|c| SUITS.contains(c)).collect();
        let mut order = letters.clone();
        order.extend(SUITS.iter().filter(|s| !letters.contains(s)));
        if order.len() != 4 {
            return Err(format!("`{what}`: a suit letter twice"));
        }
        Ok((!letters.is_empty()).then(|| {
            order
                .iter()
                .map(|c| SUITS.iter().position(|s| s == c).unwrap_or(0))
                .collect()
        }))
    }

    /// The `any` shapes of a parenthesised shape with no condition: each shape's lengths
    /// longest first, `any 5431`, sorted without repeats.
    fn any_shapes(shapes: &[String]) -> Vec<String> {
        let mut any: Vec<String> = shapes
            .iter()
            .map(|s| {
                let mut c: Vec<char> = s.chars().collect();
                c.sort_by(|a, b| b.cmp(a));
                format!("any {}", c.into_iter().collect::<String>())
            })
            .collect();
        any.sort();
        any.dedup();
        any
    }

    /// The shapes of `results` that satisfy the condition after `:` (`logical`): the `x`
    /// suits the condition names are developed into lengths first.
    fn logical_filter(
        results: Vec<String>,
        logical: &str,
        what: &str,
    ) -> Result<Vec<String>, String> {
        let cond = Cond::parse(logical).map_err(|e| format!("`{what}`: {e}"))?;
        let mut concrete = Vec::new();
        for r in results {
            let mut c: Vec<char> = r.chars().collect();
            let mut open = false;
            for (i, s) in SUITS.iter().enumerate() {
                if c[i] == 'x' && logical.contains(*s) {
                    c[i] = '=';
                    open = true;
                }
            }
            if open {
                let spec: String = c
                    .iter()
                    .map(|&ch| {
                        if ch == '=' {
                            "0+".to_owned()
                        } else {
                            ch.to_string()
                        }
                    })
                    .collect();
                concrete.extend(develop(&spec, 13, 13, what)?);
            } else {
                concrete.push(r);
            }
        }
        let mut kept = Vec::new();
        for r in reduce(concrete, None)? {
            let len: Vec<i64> = r
                .chars()
                .map(|c| c.to_digit(10).map_or(-1, i64::from))
                .collect();
            if cond.holds(&len) {
                kept.push(r);
            }
        }
        Ok(kept)
    }

    /// The number of known cards of a shape (`x` counts none).
    fn count(shape: &str, what: &str) -> Result<u32, String> {
        let n = shape.chars().filter_map(|c| c.to_digit(10)).sum();
        if n > 13 {
            return Err(format!("`{what}` gives more than 13 cards"));
        }
        Ok(n)
    }

    /// `_expand_shape`: every shape the lengths allow with at most `max` known cards and, when
    /// no suit is `x`, at least `min`.
    fn develop(spec: &str, min: u32, max: u32, what: &str) -> Result<Vec<String>, String> {
        let c: Vec<char> = spec.chars().collect();
        let mut ranges: Vec<Vec<char>> = Vec::new();
        let mut i = 0;
        while i < c.len() {
            if c[i] == 'x' {
                ranges.push(vec!['x']);
                i += 1;
            } else if let Some(d) = c[i].to_digit(10) {
                let signs = c[i + 1..]
                    .iter()
                    .take_while(|c| matches!(c, '+' | '-'))
                    .count();
                let r: Vec<u32> = match (signs, c.get(i + 1)) {
                    (0, _) => vec![d],
                    (1, Some('+')) => (d..=9).collect(),
                    (1, _) => (0..=d).collect(),
                    _ => return Err(format!("`{what}`: `{}` has two signs", c[i])),
                };
                ranges.push(
                    r.into_iter()
                        .filter_map(|d| char::from_digit(d, 10))
                        .collect(),
                );
                i += 1 + signs;
            } else if c[i] == '[' {
                let Some(len) = c[i..].iter().position(|&c| c == ']') else {
                    return Err(format!("`{what}`: `[` not closed by `]`"));
                };
                let class = &c[i + 1..i + len];
                if class.is_empty() || !class.iter().all(|c| c.is_ascii_digit() || *c == '-') {
                    return Err(format!("`{what}`: `[…]` holds digits and ranges only"));
                }
                let mut keep = [false; 10];
                let mut k = 0;
                while k < class.len() {
                    let a = class[k];
                    if class.get(k + 1) == Some(&'-') && k + 2 < class.len() {
                        let (lo, hi) = (a, class[k + 2]);
                        if !a.is_ascii_digit() || !hi.is_ascii_digit() || lo > hi {
                            return Err(format!("`{what}`: bad range in `[…]`"));
                        }
                        for d in lo..=hi {
                            keep[d as usize - '0' as usize] = true;
                        }
                        k += 3;
                    } else {
                        if let Some(d) = a.to_digit(10) {
                            keep[d as usize] = true;
                        }
                        k += 1;
                    }
                }
                ranges.push(
                    (0..10u32)
                        .filter(|&d| keep[d as usize])
                        .filter_map(|d| char::from_digit(d, 10))
                        .collect(),
                );
                i += len + 1;
            } else {
                return Err(format!("`{what}`: `{}` has no place in a shape", c[i]));
            }
        }
        let joker = ranges.iter().any(|r| r == &['x']);
        let mut out = Vec::new();
        let mut stack = vec![(String::new(), 0u32)];
        while let Some((prefix, n)) = stack.pop() {
            let depth = prefix.chars().count();
            if depth == ranges.len() {
                if joker || n >= min {
                    out.push(prefix);
                }
                continue;
            }
            for &ch in ranges[depth].iter().rev() {
                let m = n + ch.to_digit(10).unwrap_or(0);
                if m <= max {
                    stack.push((format!("{prefix}{ch}"), m));
                }
            }
        }
        Ok(out)
    }

    /// Every ordering of each shape's characters.
    fn permute_all(shapes: &[String]) -> Vec<String> {
        let mut out = Vec::new();
        for s in shapes {
            let c: Vec<char> = s.chars().collect();
            let mut idx: Vec<usize> = (0..c.len()).collect();
            permutations(&mut idx, 0, &mut |p| {
                out.push(p.iter().map(|&k| c[k]).collect())
            });
        }
        out.sort();
        out.dedup();
        out
    }

    fn permutations(idx: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
        if k == idx.len() {
            f(idx);
            return;
        }
        for j in k..idx.len() {
            idx.swap(k, j);
            permutations(idx, k + 1, f);
            idx.swap(k, j);
        }
    }

    /// `_reduce`: a single `x` (or any `x` when the known cards are 13) becomes the rest of
    /// the cards (below 10); then the suit letters' order is applied; duplicates go.
    fn reduce(shapes: Vec<String>, perm: Option<&[usize]>) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for s in shapes {
            let rest = 13 - count(&s, &s)?;
            let xs = s.matches('x').count();
            let mut s = if (xs == 1 || rest == 0) && rest < 10 {
                s.replace('x', &rest.to_string())
            } else {
                s
            };
            if let Some(perm) = perm {
                let c: Vec<char> = s.chars().collect();
                let mut placed = c.clone();
                for (k, &to) in perm.iter().enumerate() {
                    if let (Some(slot), Some(&ch)) = (placed.get_mut(to), c.get(k)) {
                        *slot = ch;
                    }
                }
                s = placed.into_iter().collect();
            }
            out.push(s);
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// A condition after `:` (Perl's precedences, as `fdp` evaluates it).
    enum Cond {
        Num(i64),
        Suit(usize),
        Neg(Box<Cond>),
        Add(Box<Cond>, Box<Cond>, bool),
        Mul(Box<Cond>, Box<Cond>),
        Cmp(Box<Cond>, Comparison, Box<Cond>),
        And(Box<Cond>, Box<Cond>),
        Or(Box<Cond>, Box<Cond>),
    }

    impl Cond {
        fn parse(text: &str) -> Result<Cond, String> {
            let mut toks = Vec::new();
            let c: Vec<char> = text.chars().collect();
            let mut i = 0;
            while i < c.len() {
                let two: String = c[i..c.len().min(i + 2)].iter().collect();
                if c[i].is_whitespace() {
                    i += 1;
                } else if c[i].is_ascii_digit() {
                    let n = c[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                    toks.push(c[i..i + n].iter().collect::<String>());
                    i += n;
                } else if two == "or" && !c.get(i + 2).is_some_and(|c| c.is_alphanumeric()) {
                    toks.push("or".into());
                    i += 2;
                } else if SUITS.contains(&c[i])
                    && !c.get(i + 1).is_some_and(|c| c.is_alphanumeric())
                {
                    toks.push(c[i].to_string());
                    i += 1;
                } else if ["<=", ">=", "==", "!="].contains(&two.as_str()) {
                    toks.push(two);
                    i += 2;
                } else if "<>+-*(),".contains(c[i]) {
                    toks.push(c[i].to_string());
                    i += 1;
                } else {
                    return Err(format!(
                        "`{}` has no place in a shape's condition (lengths s h d c, numbers, + - *, < <= > >= == !=, parentheses, `,` for and, `or`)",
                        c[i]
                    ));
                }
            }
            let mut p = CondParser {
                toks,
                pos: 0,
                depth: 0,
            };
            let e = p.or()?;
            if p.pos != p.toks.len() {
                return Err(format!("`{}` out of place in the condition", p.toks[p.pos]));
            }
            Ok(e)
        }

        fn value(&self, len: &[i64]) -> i64 {
            match self {
                Cond::Num(n) => *n,
                Cond::Suit(i) => len[*i],
                Cond::Neg(a) => a.value(len).wrapping_neg(),
                Cond::Add(a, b, plus) => match plus {
                    true => a.value(len).wrapping_add(b.value(len)),
                    false => a.value(len).wrapping_sub(b.value(len)),
                },
                Cond::Mul(a, b) => a.value(len).wrapping_mul(b.value(len)),
                Cond::Cmp(a, op, b) => i64::from(op.holds(a.value(len), b.value(len))),
                Cond::And(a, b) => i64::from(a.value(len) != 0 && b.value(len) != 0),
                Cond::Or(a, b) => i64::from(a.value(len) != 0 || b.value(len) != 0),
            }
        }

        fn holds(&self, len: &[i64]) -> bool {
            self.value(len) != 0
        }
    }

    struct CondParser {
        toks: Vec<String>,
        pos: usize,
        /// How deep `(` and unary `-` nest (at most [`super::MAX_DEPTH`]).
        depth: usize,
    }

    impl CondParser {
        fn peek(&self) -> Option<&str> {
            self.toks.get(self.pos).map(String::as_str)
        }

        /// The comparison operator at the current token, if it is one.
        fn comparison(&self) -> Option<Comparison> {
            self.peek().and_then(Comparison::from_symbol)
        }

        /// `operand (op operand)*`, joined from the left by `join`.
        fn left_chain(
            &mut self,
            op: &str,
            operand: fn(&mut Self) -> Result<Cond, String>,
            join: fn(Box<Cond>, Box<Cond>) -> Cond,
        ) -> Result<Cond, String> {
            let mut a = operand(self)?;
            while self.peek() == Some(op) {
                self.pos += 1;
                a = join(Box::new(a), Box::new(operand(self)?));
            }
            Ok(a)
        }

        fn or(&mut self) -> Result<Cond, String> {
            self.left_chain("or", Self::and, Cond::Or)
        }

        fn and(&mut self) -> Result<Cond, String> {
            self.left_chain(",", Self::cmp, Cond::And)
        }

        fn cmp(&mut self) -> Result<Cond, String> {
            let a = self.sum()?;
            let Some(op) = self.comparison() else {
                return Ok(a);
            };
            self.pos += 1;
            let b = self.sum()?;
            if self.comparison().is_some() {
                return Err("comparisons in a row (Perl refuses them)".into());
            }
            Ok(Cond::Cmp(Box::new(a), op, Box::new(b)))
        }

        fn sum(&mut self) -> Result<Cond, String> {
            let mut a = self.product()?;
            while let Some(op @ ("+" | "-")) = self.peek() {
                let plus = op == "+";
                self.pos += 1;
                a = Cond::Add(Box::new(a), Box::new(self.product()?), plus);
            }
            Ok(a)
        }

        fn product(&mut self) -> Result<Cond, String> {
            self.left_chain("*", Self::unary, Cond::Mul)
        }

        fn unary(&mut self) -> Result<Cond, String> {
            let Some(t) = self.peek().map(str::to_owned) else {
                return Err("the condition ends early".into());
            };
            self.pos += 1;
            self.depth += 1;
            if self.depth > super::MAX_DEPTH {
                return Err("the condition nests too deep".into());
            }
            let e = self.atom(&t);
            self.depth -= 1;
            e
        }

        fn atom(&mut self, t: &str) -> Result<Cond, String> {
            Ok(match t {
                "-" => Cond::Neg(Box::new(self.unary()?)),
                "(" => {
                    let e = self.or()?;
                    if self.peek() != Some(")") {
                        return Err("`(` not closed by `)`".into());
                    }
                    self.pos += 1;
                    e
                }
                _ => {
                    if let Some(i) = SUITS.iter().position(|s| s.to_string() == t) {
                        Cond::Suit(i)
                    } else if let Ok(n) = t.parse() {
                        Cond::Num(n)
                    } else {
                        return Err(format!("`{t}` out of place in the condition"));
                    }
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn parse(src: &str) -> Result<Script, Error> {
        super::parse(src, &Default::default())
    }

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
        assert!(matches!(
            parse(&deep).unwrap_err().into_kind(),
            ErrorKind::BadValue { .. }
        ));
        let unary = format!("condition {}1", "-".repeat(10_000));
        assert!(matches!(
            parse(&unary).unwrap_err().into_kind(),
            ErrorKind::BadValue { .. }
        ));
        let chain = format!("condition 1{}", " + 1".repeat(100_000));
        assert!(matches!(
            parse(&chain).unwrap_err().into_kind(),
            ErrorKind::BadValue { .. }
        ));
        let mut defs = String::from("a0 = 1\n");
        for i in 1..3000 {
            defs.push_str(&format!("a{i} = a{} + 1\n", i - 1));
        }
        assert!(matches!(
            parse(&defs).unwrap_err().into_kind(),
            ErrorKind::BadValue { .. }
        ));
        let wide = "action frequency (hcp(north), 0, 1000000000)";
        assert!(matches!(
            parse(wide).unwrap_err().into_kind(),
            ErrorKind::BadValue { .. }
        ));
        let reversed = "action frequency (hcp(north), 5, 0)";
        assert!(matches!(
            parse(reversed).unwrap_err().into_kind(),
            ErrorKind::BadValue { .. }
        ));
    }

    #[test]
    fn francois_shapes_expand_to_as_many_shapes_as_dealer_v2_says() {
        // DealerV2_4 User Guide V1c, "FDshape": its examples and the number of dealer's
        // shapes fdp makes of them (with DealerV2's Dist.pm 1.2A: every comma is `and`).
        for (text, want) in [
            // The guide says 38; Debian's dealer.dpp (the same Dist.pm for one comma) gives 32.
            (" (5xxx):h+s>=9 or c>6,d<3", 32),
            (" (5+xxx):h+s>=9 or c>6,d<3", 175),
            (" x5+xx:h>s,h>=d,h>=c or h==s", 124),
            ("5+Mxxx:s>=d,s>=c or h>=d,h>=c", 242),
            (" [13]c[2-5]d[34]hx ", 16),
            (" 5h(431) ", 6),
            (" (5431) + (5422) + (5044) ", 3),
        ] {
            let got = fd::expand(text).unwrap();
            assert_eq!(got.len(), want, "{text}: {got:?}");
        }
        let got = fd::expand(" 53(14)").unwrap();
        assert_eq!(
            got,
            [(true, false, "5314".into()), (true, false, "5341".into())]
        );
        let deep = format!(" 5xxx:{}h>1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(fd::expand(&deep).is_err());
        let got = fd::expand(" (54xx) - 5xxx").unwrap();
        assert_eq!(
            got,
            [(true, true, "xx54".into()), (false, false, "5xxx".into())]
        );
    }

    #[test]
    fn dealer_v2_par_and_report_lists() {
        let s = parse(
            "condition par(NS) > par (EW, both)\n\
             action csvrpt(\"x\", north, EW, deal, trix(south), trix(deal), parcontract,\n\
             parcontract(ew), hcp(west) + 1), printrpt(NS)",
        )
        .unwrap();
        let Some(Expr::Bin(BinOp::Cmp(Comparison::Gt), a, b)) = &s.condition else {
            panic!("a comparison")
        };
        assert!(matches!(
            **a,
            Expr::Par(Side::NorthSouth, Vulnerability::None)
        ));
        assert!(matches!(**b, Expr::Par(Side::EastWest, Vulnerability::All)));
        let [Action::CsvRpt(items), Action::PrintRpt(ns)] = &s.actions[..] else {
            panic!("two report actions")
        };
        let (n, e, so, w) = (Seat::North, Seat::East, Seat::South, Seat::West);
        let hands = |i: usize| match &items[i] {
            CsvItem::Hands(seats) => seats.clone(),
            other => panic!("{other:?}"),
        };
        assert!(matches!(&items[0], CsvItem::Str(x) if x == "x"));
        assert_eq!(
            (hands(1), hands(2), hands(3)),
            (vec![n], vec![e, w], vec![n, e, so, w])
        );
        assert!(matches!(&items[4], CsvItem::Tricks(t) if t == &[so]));
        assert!(matches!(&items[5], CsvItem::Tricks(t) if t.len() == 4));
        assert!(matches!(
            items[6],
            CsvItem::ParContract(Vulnerability::None)
        ));
        assert!(matches!(
            items[7],
            CsvItem::ParContract(Vulnerability::EastWest)
        ));
        assert!(matches!(items[8], CsvItem::Expr(Expr::Bin(BinOp::Add, ..))));
        assert!(matches!(&ns[..], [CsvItem::Hands(s)] if s == &[n, so]));
        // Lists are DealerV2's actions: each prints, so produce defaults to 40.
        assert_eq!(s.produce_limit(), 40);
        // `par` refused no more; a side in lower case is no side (as DealerV2).
        let e = parse("condition par(ns) > 0").unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::Syntax {
                    line: 1,
                    column: 15,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn precedence_is_cs() {
        let s = parse("a = 1 + 2 * 3 == 7 && !0 ? -2 : 5 % 3").unwrap();
        assert!(matches!(s.definitions[0].1, Expr::Cond(..)));
    }
}
