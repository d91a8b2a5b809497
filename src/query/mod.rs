//! The deal query language: `hcp(N) >= 20 and len(S, spades) >= 5 and shape(E) = 4432`.
//!
//! One parsed [`Query`] serves two ends: [`Query::matches`] evaluates it on a [`Deal`] in
//! Rust (for `generate --where`), and [`Query::to_sql`] compiles it to a parameterised
//! SQLite `WHERE` clause over the `deals` table (for `query`). Both give the same answer
//! for every deal. The full reference, with more examples, is `docs/query.md`.
//!
//! # Language
//!
//! Keywords, function names, seats, sides and suits are case-insensitive. Whitespace
//! separates tokens and is otherwise ignored. Columns in errors count characters
//! (Unicode scalar values) from 1.
//!
//! | item | spelling |
//! | --- | --- |
//! | seat | `N` `E` `S` `W`, `north` `east` `south` `west` |
//! | side (partnership) | `NS`, `EW` |
//! | suit | `spades` `hearts` `diamonds` `clubs` (also singular), `S` `H` `D` `C`, `♠` `♥` `♦` `♣` (and `♤` `♡` `♢` `♧`) |
//!
//! A seat argument and a suit argument are told apart by position, so in `len(S, S)` the
//! first `S` is South and the second spades.
//!
//! Number-valued terms (all integers):
//!
//! | term | value | argument |
//! | --- | --- | --- |
//! | `hcp(X)` | high-card points A=4 K=3 Q=2 J=1, 0..=37 (a side: the sum, 0..=40) | seat or side |
//! | `len(X, suit)` | cards held in `suit`, 0..=13 (a side: the fit, the sum of both hands) | seat or side, suit |
//! | `controls(X)` | controls A=2 K=1, 0..=12 (a side: the sum) | seat or side |
//! | `ltc(X)` | losing-trick count, 0..=12 ([`crate::features::losing_trick_count`]) | seat |
//! | `longest(X)` | length of the longest suit, 4..=13 | seat |
//! | `dd(X, strain)` | double-dummy tricks of X in `strain` (`notrump`, `nt` or a suit), 0..=13; a side: its better declarer ([`crate::dd`]) | seat or side, strain |
//! | `0`, `12`, … | a non-negative integer literal up to `i64::MAX` | |
//!
//! Conditions (true or false for each deal):
//!
//! | condition | meaning |
//! | --- | --- |
//! | `a OP b` | `a` and `b` numbers, `OP` one of `=` `==` `!=` `<>` `<` `<=` `>` `>=` |
//! | `a in lo..hi` | `lo <= a <= hi`, `lo` and `hi` integer literals with `lo <= hi` |
//! | `balanced(X)` | X's shape is 4-3-3-3, 4-4-3-2 or 5-3-3-2 |
//! | `semibalanced(X)` | balanced, or 5-4-2-2 or 6-3-2-2 |
//! | `shape(X) = 4432` | X's sorted shape is 4-4-3-2, in any suit order (also written `4-4-3-2`, or in any digit order: `3442`) |
//! | `pattern(X) = 5431` | exactly 5 ♠, 4 ♥, 3 ♦, 1 ♣ (also `5-4-3-1`) |
//! | `shape(X) != …`, `pattern(X) != …` | the negation |
//! | `not c`, `!c` | negation |
//! | `c and d`, `c && d` | both |
//! | `c or d`, `c \|\| d` | either |
//! | `( … )` | grouping |
//!
//! `not` binds tighter than `and`, which binds tighter than `or`; a comparison binds
//! tighter than all three, so `not hcp(N) > 10` is `not (hcp(N) > 10)`. Comparisons do
//! not chain (`1 < hcp(N) < 5` is an error). A shape literal has four lengths of 0..=13
//! summing to 13: four digits (`4432`) or four numbers joined by `-` (`4-4-3-2`; needed
//! for a suit of 10 or more cards, `10-1-1-1`). The literal may stand on either side
//! (`4432 = shape(E)`).
//!
//! Grammar (EBNF; `CMP` is a comparison operator, `NAME` a name made of ASCII letters,
//! digits and `_`):
//!
//! ```text
//! query      = or END
//! or         = and { ("or" | "||") and }
//! and        = not { ("and" | "&&") not }
//! not        = ("not" | "!") not | comparison
//! comparison = primary [ CMP primary | "in" INT ".." INT ]
//! primary    = "(" or ")" | INT | SHAPE | NAME "(" arg { "," arg } ")"
//! arg        = NAME | "♠" | "♥" | "♦" | "♣"
//! ```
//!
//! Parentheses and `not` nest at most [`MAX_DEPTH`] deep (so no input can exhaust the
//! stack).
//!
//! # Errors
//!
//! [`Query::parse`] returns a [`QueryError`] with the 1-based column of the offending
//! token for: an empty query; a character that starts no token; an unknown function
//! (the message lists the known ones); an unknown seat, side or suit; a wrong number of
//! arguments; a side given to a seat-only function (`ltc(NS)`); type errors (a number
//! used as a condition, `hcp(N) and 3`; a condition compared, `balanced(N) > 2`; a shape
//! compared with anything but a shape literal by `=` or `!=`); a bad shape literal (not
//! four lengths, or not summing to 13); unbalanced parentheses (an unclosed `(` is
//! reported at its own column, an unmatched `)` at its column); trailing input after a
//! complete condition; chained comparisons; an empty range `in 5..3`; a number above
//! `i64::MAX`; nesting deeper than [`MAX_DEPTH`].
//!
//! # SQL
//!
//! [`Query::to_sql`] targets the table `deals` with the INTEGER columns
//! `hcp_n hcp_e hcp_s hcp_w` and `len_<seat>_<suit>` (seat `n e s w`, suit `s h d c`;
//! `len_n_s` is North's spades), the 13-byte BLOB column `key`, and the SQL functions
//! `controls(key, 'N')`, `ltc(key, 'N')`, `longest(key, 'N')`, `balanced(key, 'N')` and
//! `semibalanced(key, 'N')` (the last two 0 or 1) registered on the connection by the
//! caller. A `dd(X, strain)` term is the subquery `(SELECT dd_tricks(tricks, 'X', 'S') FROM
//! dd WHERE dd.deal = key)` over migration 05's table: NULL, so no comparison holds, for a
//! deal not solved. [`Query::matches`] solves the deal instead (once per call, after the
//! cheaper operands of each `and`/`or`). Each literal becomes a placeholder `?1`, `?2`, … numbered in order of
//! appearance, its value in [`SqlFilter::params`]; no text of the query is copied into
//! the clause. See [`Query::to_sql`] for the mapping of each construct.
//!
//! ```
//! use dealdex::query::Query;
//! let q = Query::parse("hcp(N) >= 18 and len(S, spades) >= 5").unwrap();
//! let sql = q.to_sql();
//! assert_eq!(sql.clause, "(hcp_n >= ?1 AND len_s_s >= ?2)");
//! assert_eq!(sql.params, [18, 5]);
//!
//! let err = Query::parse("hcp(X) > 3").unwrap_err();
//! assert_eq!(err.to_string(), "column 5: unknown seat 'X' (seats: N, E, S, W, north, east, south, west; sides: NS, EW)");
//! ```

use std::fmt;
use std::str::FromStr;

use crate::card::{Seat, Suit};
use crate::deal::Deal;
use crate::features::Side;
use crate::play::Strain;

mod eval;
mod lexer;
mod parser;
mod sql;

/// How deeply parentheses and `not` may nest in a query (a deeper query is refused with a
/// [`QueryError`] rather than risk the stack).
pub const MAX_DEPTH: usize = 100;

/// A parsed, type-checked deal query.
///
/// Build it with [`Query::parse`] (or `str::parse`); test deals with [`Query::matches`];
/// compile it to SQL with [`Query::to_sql`]. `Display` prints a canonical form that
/// parses back to an equal query: lower-case names, seat letters, dashed shapes, and
/// parentheses only where precedence needs them.
///
/// ```
/// use dealdex::query::Query;
/// let q: Query = "HCP(north) IN 20..21 && Balanced(N)".parse().unwrap();
/// assert_eq!(q.to_string(), "hcp(N) in 20..21 and balanced(N)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    cond: Cond,
}

/// A query compiled to SQL: a boolean expression usable as `WHERE <clause>` over the
/// `deals` table, with numbered placeholders `?1`, `?2`, … whose values are `params`
/// in order (`params[0]` binds `?1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlFilter {
    /// The boolean SQL expression. A compound condition is wrapped in parentheses, so it
    /// can be combined with other conditions by `AND` as it is.
    pub clause: String,
    /// The values of the placeholders, `params[k - 1]` for `?k`.
    pub params: Vec<i64>,
}

/// Why a query text was refused: the 1-based column (in characters) of the offending
/// token and a message. Displays as `column N: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct QueryError {
    /// 1-based column, counted in characters (Unicode scalar values); one past the last
    /// character for errors at the end of the query.
    pub column: usize,
    /// What is wrong, in words, often with the expected forms.
    pub message: String,
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A seat or a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    Seat(Seat),
    Side(Side),
}

/// A number-valued term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    Lit(i64),
    Hcp(Who),
    Len(Who, Suit),
    Controls(Who),
    Ltc(Seat),
    Longest(Seat),
    /// Double-dummy tricks of a declarer (a side: its better declarer) in a strain.
    Dd(Who, Strain),
}

/// A condition.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Cond {
    Cmp(Term, CmpOp, Term),
    /// `term in lo..hi`, inclusive, `lo <= hi`.
    Range(Term, i64, i64),
    Balanced(Seat),
    SemiBalanced(Seat),
    /// `shape(seat) = …` (`exact == false`, `lengths` sorted longest first) or
    /// `pattern(seat) = …` (`exact`, lengths in suit order ♠ ♥ ♦ ♣); `equal == false` for
    /// `!=`.
    Shape {
        seat: Seat,
        lengths: [u8; 4],
        exact: bool,
        equal: bool,
    },
    Not(Box<Cond>),
    /// Two or more operands, none itself an `And`.
    And(Vec<Cond>),
    /// Two or more operands, none itself an `Or`.
    Or(Vec<Cond>),
}

impl Query {
    /// Parses and type-checks a query (the language of the [module docs](self)).
    ///
    /// # Errors
    /// A [`QueryError`] with the 1-based column of the first problem found; see the
    /// module docs for the list. Never panics, whatever the input.
    ///
    /// ```
    /// use dealdex::query::Query;
    /// assert!(Query::parse("shape(E) = 4-4-3-2 or not balanced(W)").is_ok());
    /// let e = Query::parse("ltc(NS) < 7").unwrap_err();
    /// assert_eq!(e.column, 5);
    /// ```
    pub fn parse(text: &str) -> Result<Query, QueryError> {
        parser::parse(text).map(|cond| Query { cond })
    }

    /// Whether `deal` satisfies the query, computed in Rust with [`crate::features`].
    /// Allocates nothing; `and` / `or` stop at the first deciding operand.
    ///
    /// ```
    /// use dealdex::{Deal, query::Query};
    /// let d: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    ///     .parse()
    ///     .unwrap();
    /// assert!(Query::parse("hcp(N) = 10 and pattern(E) = 0-13-0-0").unwrap().matches(&d));
    /// assert!(!Query::parse("balanced(S)").unwrap().matches(&d));
    /// ```
    pub fn matches(&self, deal: &Deal) -> bool {
        eval::cond(&self.cond, deal, &eval::Table::new())
    }

    /// Compiles the query to a `WHERE` clause over the table `deals` (see the module docs
    /// for the columns and SQL functions it needs).
    ///
    /// | query | SQL |
    /// | --- | --- |
    /// | `hcp(N)` | `hcp_n` |
    /// | `hcp(NS)` | `(hcp_n + hcp_s)` |
    /// | `len(N, hearts)` | `len_n_h` |
    /// | `len(NS, hearts)` | `(len_n_h + len_s_h)` |
    /// | `controls(N)`, `ltc(N)`, `longest(N)` | `controls(key, 'N')`, … |
    /// | `controls(EW)` | `(controls(key, 'E') + controls(key, 'W'))` |
    /// | literal `20` | `?k`, 20 appended to `params` |
    /// | `a >= b` (`=` `!=` `<` `<=` `>` `>=`) | `a >= b` (`=` `<>` `<` `<=` `>` `>=`) |
    /// | `a in 20..21` | `a BETWEEN ?k AND ?k+1` |
    /// | `balanced(N)`, `semibalanced(N)` | `balanced(key, 'N')`, `semibalanced(key, 'N')` |
    /// | `shape(E) = 4432` | `(len_e_s, len_e_h, len_e_d, len_e_c) IN (VALUES (?1, ?2, ?3, ?4), …)`, one row per distinct suit order, in decreasing lexicographic order |
    /// | `shape(E) != 4432` | the same with `NOT IN` |
    /// | `pattern(N) = 5431` | `(len_n_s = ?1 AND len_n_h = ?2 AND len_n_d = ?3 AND len_n_c = ?4)` |
    /// | `pattern(N) != 5431` | `NOT (…)` of the same |
    /// | `not c` | `NOT (c)` |
    /// | `c and d and e` | `(c AND d AND e)` |
    /// | `c or d` | `(c OR d)` |
    ///
    /// Indexed columns stay bare on their side of a comparison (`hcp_n >= ?1`), so SQLite
    /// can use an index on them. When a top-level condition bounds a seat's HCP at 20 or
    /// more, the clause ends with the implied literal term `AND hcp_<seat> >= 20`, the
    /// condition of the store's partial index for that seat (docs/query.md). SQLite's own limits (999 … 32766 parameters, expression
    /// depth 1000) apply when the clause is prepared; only huge queries reach them.
    ///
    /// ```
    /// use dealdex::query::Query;
    /// let q = Query::parse("hcp(NS) in 20..25 or not pattern(W) = 5431").unwrap();
    /// let sql = q.to_sql();
    /// assert_eq!(
    ///     sql.clause,
    ///     "((hcp_n + hcp_s) BETWEEN ?1 AND ?2 OR NOT ((len_w_s = ?3 AND len_w_h = ?4 AND len_w_d = ?5 AND len_w_c = ?6)))"
    /// );
    /// assert_eq!(sql.params, [20, 25, 5, 4, 3, 1]);
    /// ```
    pub fn to_sql(&self) -> SqlFilter {
        sql::compile(&self.cond)
    }
}

impl FromStr for Query {
    type Err = QueryError;

    /// Same as [`Query::parse`].
    fn from_str(s: &str) -> Result<Query, QueryError> {
        Query::parse(s)
    }
}

impl fmt::Display for Query {
    /// The canonical text of the query, e.g. `hcp(N) in 20..21 and balanced(N)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_cond(f, &self.cond)
    }
}

impl fmt::Display for Who {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Who::Seat(s) => write!(f, "{}", s.letter()),
            Who::Side(Side::NorthSouth) => f.write_str("NS"),
            Who::Side(Side::EastWest) => f.write_str("EW"),
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Lit(v) => write!(f, "{v}"),
            Term::Hcp(w) => write!(f, "hcp({w})"),
            Term::Len(w, suit) => {
                let name = ["spades", "hearts", "diamonds", "clubs"][suit.index()];
                write!(f, "len({w}, {name})")
            }
            Term::Controls(w) => write!(f, "controls({w})"),
            Term::Ltc(s) => write!(f, "ltc({})", s.letter()),
            Term::Longest(s) => write!(f, "longest({})", s.letter()),
            Term::Dd(w, strain) => match strain {
                Strain::NoTrump => write!(f, "dd({w}, notrump)"),
                Strain::Trumps(suit) => {
                    let name = ["spades", "hearts", "diamonds", "clubs"][suit.index()];
                    write!(f, "dd({w}, {name})")
                }
            },
        }
    }
}

/// Writes `c`; `And` / `Or` operands of lower precedence get parentheses.
fn write_cond(f: &mut fmt::Formatter<'_>, c: &Cond) -> fmt::Result {
    match c {
        Cond::Cmp(l, op, r) => {
            let op = match op {
                CmpOp::Eq => "=",
                CmpOp::Ne => "!=",
                CmpOp::Lt => "<",
                CmpOp::Le => "<=",
                CmpOp::Gt => ">",
                CmpOp::Ge => ">=",
            };
            write!(f, "{l} {op} {r}")
        }
        Cond::Range(t, lo, hi) => write!(f, "{t} in {lo}..{hi}"),
        Cond::Balanced(s) => write!(f, "balanced({})", s.letter()),
        Cond::SemiBalanced(s) => write!(f, "semibalanced({})", s.letter()),
        Cond::Shape {
            seat,
            lengths: l,
            exact,
            equal,
        } => write!(
            f,
            "{}({}) {} {}-{}-{}-{}",
            if *exact { "pattern" } else { "shape" },
            seat.letter(),
            if *equal { "=" } else { "!=" },
            l[0],
            l[1],
            l[2],
            l[3]
        ),
        Cond::Not(inner) => f
            .write_str("not ")
            .and_then(|_| write_grouped(f, inner, matches!(**inner, Cond::And(_) | Cond::Or(_)))),
        Cond::And(parts) | Cond::Or(parts) => {
            let and = matches!(c, Cond::And(_));
            for (i, p) in parts.iter().enumerate() {
                if i > 0 {
                    f.write_str(if and { " and " } else { " or " })?;
                }
                write_grouped(f, p, and && matches!(p, Cond::Or(_)))?;
            }
            Ok(())
        }
    }
}

/// Writes `c`, in parentheses when `paren`.
fn write_grouped(f: &mut fmt::Formatter<'_>, c: &Cond, paren: bool) -> fmt::Result {
    if paren {
        f.write_str("(")?;
        write_cond(f, c)?;
        f.write_str(")")
    } else {
        write_cond(f, c)
    }
}
