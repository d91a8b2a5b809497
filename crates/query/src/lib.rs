//! The deal query language: `hcp(N) >= 20 and len(S, spades) >= 5 and shape(E) = 4432`,
//! `hcp(N) + hcp(S) in 20..24`, `par(NS, none) > 0`. On the model, the solver (for `dd`, `par`
//! and `lead` terms) and the generation crate (its chunk size) only.
//!
//! One parsed [`Query`] serves several ends: [`Query::matches`] evaluates it on a [`Deal`] in
//! Rust (for `generate --where`), [`Query::to_sql`] compiles it to a parameterised
//! SQLite `WHERE` clause over the `deals` table (for `query`), and [`Query::to_spark_sql`]
//! to a Spark SQL predicate over a Parquet archive's columns (for `query --dialect spark`). Both give the same answer
//! for every deal. The full reference, with more examples, is `docs/query.md`.
//!
//! # Language
//!
//! Keywords, function names, seats, sides, suits, strains and vulnerabilities are
//! case-insensitive. Whitespace separates tokens and is otherwise ignored. Columns in
//! errors count characters (Unicode scalar values) from 1.
//!
//! | item | spelling |
//! | --- | --- |
//! | seat | `N` `E` `S` `W`, `north` `east` `south` `west` |
//! | side (partnership) | `NS`, `EW` |
//! | vulnerability | `none` (`love`), `ns`, `ew`, `all` (`both`) |
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
//! | `ltc(X)` | losing-trick count, 0..=12 ([`crate::model::features::losing_trick_count`]) | seat |
//! | `longest(X)` | length of the longest suit, 4..=13 | seat |
//! | `dd(X, strain)` | double-dummy tricks of X in `strain` (`notrump`, `nt` or a suit), 0..=13; a side: its better declarer ([`crate::dd`]) | seat or side, strain |
//! | `par(side, vul)`, `par(side, vul, dealer)` | the par score ([`crate::dd::TablePar::par`]) from `side`'s view (`NS`: as North-South score it; `EW`: negated) at vulnerability `vul`, `dealer` dealing (North when left out; it matters only when both sides can make the same level); within ±7600 | side, vulnerability, seat |
//! | `lead(X, strain, card)` | the defence's double-dummy tricks, 0..=13, after X leads `card` (`SA`, `HT`, `H10`, `C2`) against a contract in `strain` declared by X's right-hand opponent ([`crate::dd::lead_tricks`]; the level does not matter); no value when X does not hold the card (see below) | seat, strain, card |
//! | `0`, `12`, … | a non-negative integer literal up to `i64::MAX` | |
//! | `a + b`, `a - b` | sum, difference of numbers, left to right | numbers |
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
//! A `lead(…)` term of a card its seat does not hold has no value, as SQL's NULL: a sum or
//! comparison with it is unknown, `not` of an unknown condition is unknown, `and` is false
//! when an operand is false and otherwise unknown when one is, `or` true when an operand is
//! true and otherwise unknown when one is; a deal matches only when the whole query is
//! true. So `lead(W, nt, SA) > lead(W, nt, H2)` and its negation both leave out a deal on
//! which West lacks the ♠A (write `lead(W, nt, SA) <= lead(W, nt, H2)` for the other
//! deals where West holds both).
//!
//! `not` binds tighter than `and`, which binds tighter than `or`; a comparison binds
//! tighter than all three, so `not hcp(N) > 10` is `not (hcp(N) > 10)`; `+` and `-` bind
//! tighter still, so `hcp(N) + hcp(S) >= 25` compares the sum. Comparisons do not chain
//! (`1 < hcp(N) < 5` is an error). A shape literal has four lengths of 0..=13
//! summing to 13: four digits (`4432`) or four numbers joined by `-` (`4-4-3-2`; needed
//! for a suit of 10 or more cards, `10-1-1-1`). The literal may stand on either side
//! (`4432 = shape(E)`). A `-` right between two digits belongs to a dashed shape literal
//! (`10-2` is a bad shape, `10 - 2` a difference); there are no negative literals (write
//! `0 - 5`).
//!
//! Sums are left-associative and printed flattened (`a - (b - c)` prints as `a - b + c`).
//! Values are `i64` in Rust and in SQLite; so that no deal can overflow, a sum is refused
//! when a partial sum, left to right (of the whole sum as computed, and of each
//! parenthesised sum as written), could leave the `i64` range on some deal, judged from
//! each term's range in the table above (`hcp(N) + 9223372036854775807 > 0` is refused,
//! `9223372036854775807 - hcp(N) > 0` is not). Within range both ends compute every sum
//! exactly.
//!
//! Grammar (EBNF; `CMP` is a comparison operator, `NAME` a name made of ASCII letters,
//! digits and `_`):
//!
//! ```text
//! query      = or END
//! or         = and { ("or" | "||") and }
//! and        = not { ("and" | "&&") not }
//! not        = ("not" | "!") not | comparison
//! comparison = sum [ CMP sum | "in" INT ".." INT ]
//! sum        = primary { ("+" | "-") primary }
//! primary    = "(" or ")" | INT | SHAPE | NAME "(" arg { "," arg } ")"
//! arg        = NAME | "♠" | "♥" | "♦" | "♣"
//! ```
//!
//! Parentheses and `not` nest at most [`MAX_DEPTH`] deep (so no input can exhaust the
//! stack), a sum has at most [`MAX_SUM_TERMS`] terms, and the SQL a query compiles to is at
//! most [`MAX_SQL_DEPTH`] levels deep (SQLite's limit is 1000) with at most
//! [`MAX_SQL_PARAMS`] numbers. A chain of `and` (or of
//! `or`) may have any number of operands: the Rust evaluator runs through them in a loop,
//! and the SQL writes them as a balanced tree, so 10,000 `and`ed conditions compile to an
//! expression some 20 levels deep.
//!
//! # Errors
//!
//! [`Query::parse`] returns a [`Error`] with the 1-based column of the offending
//! token for: an empty query; a character that starts no token; an unknown function
//! (the message lists the known ones); an unknown seat, side or suit; a wrong number of
//! arguments; a side given to a seat-only function (`ltc(NS)`), a seat as `par`'s side or a
//! side as its dealer; an unknown vulnerability (the message lists the names); type errors
//! (a number used as a condition, `hcp(N) and 3`; a condition compared or added,
//! `balanced(N) > 2`, `hcp(N) + balanced(S)`; a shape compared with anything but a shape
//! literal by `=` or `!=`, or added); a sum that could overflow (at the operator); a `-`
//! where a number should start (there are no negative literals); a bad shape literal (not
//! four lengths, or not summing to 13); unbalanced parentheses (an unclosed `(` is
//! reported at its own column, an unmatched `)` at its column); trailing input after a
//! complete condition; chained comparisons; an empty range `in 5..3`; a number above
//! `i64::MAX`; nesting deeper than [`MAX_DEPTH`]; a sum of more than [`MAX_SUM_TERMS`]
//! terms (at the operator past the limit); a group whose SQL would be more than
//! [`MAX_SQL_DEPTH`] levels deep or need more than [`MAX_SQL_PARAMS`] placeholders (at the
//! group's first column).
//!
//! # SQL
//!
//! [`Query::to_sql`] targets the table `deals` with the INTEGER columns
//! `hcp_n hcp_e hcp_s hcp_w`, `len_<seat>_<suit>` (seat `n e s w`, suit `s h d c`;
//! `len_n_s` is North's spades) and `lens_<seat>` (the four lengths packed as ♠ + 16·♥ +
//! 256·♦ + 4096·♣, migration 06's view), the 13-byte BLOB column `key`, and the SQL
//! functions `controls(key, 'N')`, `ltc(key, 'N')` and `longest(key, 'N')` registered on the
//! connection by the caller. A `dd(X, strain)` term is the subquery `(SELECT dd_tricks(tricks, 'X', 'S') FROM
//! dd WHERE dd.deal = key)` over migration 05's table: NULL, so no comparison holds, for a
//! deal not solved. A `par(side, vul, dealer)` term is the same subquery of
//! `dd_par(tricks, 'W', 'All')` (the engine's `store::sqlfn`: North-South's score), negated
//! (`-dd_par(…)`) for `EW`. A `lead(X, strain, card)` term is the subquery `(SELECT
//! lead_card(leads.tricks, 'SA') FROM leads WHERE leads.deal = key AND leads.leader = 'W'
//! AND leads.strain = 'NT')` over migration 08's table (what `dealdex lead --store` solved):
//! NULL, so no comparison holds, for a deal whose leads by X in that strain are not stored,
//! and for a card X does not hold. A sum is `(a + b - c)`. [`Query::matches`] solves the deal
//! instead (once per call, after the cheaper operands of each `and`/`or`), and
//! [`Query::matches_with_dd`] reads a given table. Each literal becomes a placeholder
//! `?1`, `?2`, … numbered in order of appearance, its value in [`SqlFilter::params`]; no
//! text of the query is copied into the clause (the only string literals are fixed seat,
//! side, strain and vulnerability tokens). See [`Query::to_sql`] for the mapping of each
//! construct.
//!
//! ```
//! use dealdex::query::Query;
//! let q = Query::parse("hcp(N) >= 18 and len(S, spades) >= 5").unwrap();
//! let sql = q.to_sql();
//! assert_eq!(sql.clause, "(hcp_n >= ?1 AND len_s_s >= ?2)");
//! assert_eq!(sql.params, [18, 5]);
//!
//! let q = Query::parse("hcp(N) + hcp(S) in 20..24 and par(EW, all, W) >= 100").unwrap();
//! assert_eq!(
//!     q.to_sql().clause,
//!     "((hcp_n + hcp_s) BETWEEN ?1 AND ?2 AND \
//!      (SELECT -dd_par(tricks, 'W', 'All') FROM dd WHERE dd.deal = key) >= ?3)"
//! );
//! assert_eq!(Query::parse("hcp(N) - (hcp(S) - 1) > 0").unwrap().to_string(), "hcp(N) - hcp(S) + 1 > 0");
//!
//! let err = Query::parse("hcp(X) > 3").unwrap_err();
//! assert_eq!(err.to_string(), "column 5: unknown seat 'X' (seats: N, E, S, W, north, east, south, west; sides: NS, EW)");
//! ```
//!
//! # Spark SQL
//!
//! [`Query::to_spark_sql`] compiles the same query to one Spark SQL boolean expression, with
//! literals inline, over the columns of a dealdex Parquet deal archive (`hcp_<seat>`,
//! `len_<seat>_<suit>`, `controls_<seat>`, `ltc_<seat>`, `dd_<seat>_<strain>`, the last
//! NULL for an unsolved deal), so that `df.filter(expr)` keeps the deals the SQLite clause
//! counts. `par(…)` and `lead(…)` have no column there and are refused with a
//! [`Error`].
//! [`Dialect`] names the two targets.

#![deny(missing_docs)]

use std::fmt;
use std::str::FromStr;

// The model and the solver under their names in the engine (`crate::model::…`, `crate::dd::…`).
use dealdex_model as model;
use dealdex_model::classified;
use dealdex_solver as dd;

use crate::dd::TrickTable;
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Seat, Suit};
use crate::model::contract::Strain;
use crate::model::deal::{Deal, Hand};
use crate::model::features;
use crate::model::features::{Comparison, Side};

mod bounds;
mod error;
mod eval;
mod lexer;
mod parser;
mod spark;
mod sql;

pub use error::{Error, ErrorKind};

/// Deals a chunk of [`first_matching`](dealdex_generation::stream::first_matching) covers when the query may solve double dummy.
const DD_CHUNK: usize = 4;

/// The query size ([`Query::size`]) up to which [`first_matching`](dealdex_generation::stream::first_matching) works in chunks of
/// [`CHUNK`](dealdex_generation::stream::CHUNK) deals; a larger query gets proportionally fewer deals a chunk (at least
/// [`MIN_QUERY_CHUNK`]), so the chunks in flight past the last match, decided for nothing,
/// stay a few milliseconds' work. Before, a query of 1,000 conditions tested some 130,000
/// deals (8 chunks of 16,384) to find 2, 3.5 s.
const QUERY_CHUNK_SIZE: usize = 16;

/// The fewest deals a chunk of [`first_matching`](dealdex_generation::stream::first_matching) covers for a query without `dd` /
/// `par`.
const MIN_QUERY_CHUNK: usize = 16;

/// How deeply parentheses and `not` may nest in a query (a deeper query is refused with a
/// [`Error`] rather than risk the stack).
pub const MAX_DEPTH: usize = 100;

/// How many terms one sum may have (`a + b - c` has 3; a parenthesised sum counts its own
/// terms): a longer sum is refused with a [`Error`] at the operator past the limit.
/// SQLite nests a sum one level per operator, and refuses expressions more than 1000 deep.
pub const MAX_SUM_TERMS: usize = 256;

/// How deep the expression tree of a query's SQL may be, as [`Query::to_sql`] writes it
/// (SQLite refuses more than 1000 levels; the rest is left for the statement around the
/// clause). Chains of `and` / `or` are written balanced, about log₂ n levels for n
/// operands, so only a query nesting many long chains, or long sums, inside one another
/// comes near it; such a query is refused with a [`Error`] at the group that
/// crosses the limit.
pub const MAX_SQL_DEPTH: usize = 900;

/// How many numbers a query may hold, as [`Query::to_sql`] counts its placeholders:
/// SQLite's limit of 32,766 a statement. Each literal is one, `balanced(X)` 28,
/// `semibalanced(X)` 52, `shape(X) = …` up to 24 and `pattern(X) = …` 1; a query past the
/// limit is refused with a [`Error`] at the group that crosses it.
pub const MAX_SQL_PARAMS: usize = 32_766;

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
///
/// Two queries are equal when their conditions are (the columns of the text they were
/// parsed from do not count).
#[derive(Clone, Debug)]
pub struct Query {
    /// The condition as written (for `Display` and the SQL compilers, which order
    /// operands themselves).
    cond: Cond,
    /// The same condition with the operands of each `and` / `or` that have a `dd(…)` or
    /// `par(…)` term moved last (stably): what [`Query::matches`] evaluates, so it need not
    /// sort them for every deal.
    plan: Cond,
    /// The 1-based column of each number comparison of `cond`, in written order (for the
    /// errors of [`Query::never_matches`]).
    columns: Vec<usize>,
}

impl PartialEq for Query {
    /// Equal conditions (`plan` follows from `cond`; columns do not count).
    fn eq(&self, other: &Query) -> bool {
        self.cond == other.cond
    }
}

impl Eq for Query {}

/// A query compiled to SQL: a boolean expression usable as `WHERE <clause>` over the
/// `deals` table, with numbered placeholders `?1`, `?2`, … whose values are `params`
/// in order (`params[0]` binds `?1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlFilter {
    /// The boolean SQL expression. A compound condition is wrapped in parentheses, so it
    /// can be combined with other conditions by `AND` as it is.
    pub clause: String,
    /// The values of the numbers' placeholders, `params[k - 1]` for `?k`.
    pub params: Vec<i64>,
    /// The texts of a played board's conditions (`player = "…"`, `event = "…"`), bound
    /// after the numbers: `texts[j]` for `?(params.len() + j + 1)`. Empty for a query
    /// without them.
    pub texts: Vec<String>,
}

/// The SQL dialect a query is compiled to.
///
/// ```
/// use dealdex::query::Dialect;
/// assert_eq!(Dialect::from_name("spark"), Some(Dialect::Spark));
/// assert_eq!(Dialect::Spark.name(), "spark");
/// assert_eq!(Dialect::default(), Dialect::Sqlite);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// SQLite over the store's `deals` table and SQL functions, with placeholders:
    /// [`Query::to_sql`] (what `dealdex query` runs).
    #[default]
    Sqlite,
    /// Spark SQL over the columns of a dealdex Parquet deal archive, literals inline:
    /// [`Query::to_spark_sql`] (for `df.filter(expr)`).
    Spark,
}

impl Dialect {
    /// Every dialect, [`Dialect::Sqlite`] first.
    pub const ALL: [Dialect; 2] = [Dialect::Sqlite, Dialect::Spark];

    /// The lower-case name: `sqlite` or `spark`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Sqlite => "sqlite",
            Dialect::Spark => "spark",
        }
    }

    /// The dialect named `name` (as [`Dialect::name`] gives it, any case), if any.
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Dialect {
    /// `SQLite` or `Spark`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Sqlite => "SQLite",
            Dialect::Spark => "Spark",
        })
    }
}

/// A comparison operator in SQL, SQLite's and Spark's alike: `=` and `<>` for C's `==` and `!=`.
fn sql_comparison(op: Comparison) -> &'static str {
    match op {
        Comparison::Eq => "=",
        Comparison::Ne => "<>",
        op => op.symbol(),
    }
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
    /// The par score from a side's view at a vulnerability, with a dealer.
    Par(Side, Vulnerability, Seat),
    /// The defence's double-dummy tricks after the leader leads the card against a contract
    /// in the strain declared by the leader's right-hand opponent; no value (SQL's NULL)
    /// when the leader does not hold the card.
    Lead(Seat, Strain, Card),
    /// A number of the played board (`dealdex query --played`).
    Played(PlayedNum),
    /// Double-dummy tricks on a played board's deal of a declarer (`None`: the board's
    /// declarer) in a strain (`None`: the contract's); at least one is `None`.
    PlayedDd(Option<Who>, Option<Strain>),
}

/// A number of a played board: its row of the store's `played` table (migration 10, 12) and
/// its judgement (`played_dd`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlayedNum {
    /// The contract's level, 1..=7.
    Level,
    /// 0 undoubled, 1 doubled, 2 redoubled.
    Doubled,
    /// Declarer's tricks over the contract (negative: down), -13..=6.
    Result,
    /// Declarer's tricks, 0..=13.
    Tricks,
    /// The table's score from North-South's view.
    Score,
    /// The board's par score from North-South's view.
    Par,
    /// The board number.
    Board,
    /// Tricks declarer's side gave away double dummy.
    DeclarerLost,
    /// Tricks the defence gave away double dummy.
    DefenceLost,
    /// Tricks the opening lead gave away double dummy.
    LeadCost,
}

impl PlayedNum {
    /// The name as the query writes it.
    const fn name(self) -> &'static str {
        match self {
            PlayedNum::Level => "level",
            PlayedNum::Doubled => "doubled",
            PlayedNum::Result => "result",
            PlayedNum::Tricks => "tricks",
            PlayedNum::Score => "score",
            PlayedNum::Par => "par",
            PlayedNum::Board => "board",
            PlayedNum::DeclarerLost => "lost(declarer)",
            PlayedNum::DefenceLost => "lost(defence)",
            PlayedNum::LeadCost => "lead_cost",
        }
    }
}

/// A condition on a played board compared by `=` or `!=` with a literal.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PlayedCond {
    /// `contract = 3NT`: the level and strain (doubled or not), and the doubling (1 or 2)
    /// when the literal names it (`4SX`); `None`: `contract = pass`, passed out.
    Contract(Option<(u8, Strain, Option<u8>)>),
    /// `strain = hearts`: the contract's strain.
    Strain(Strain),
    /// `declarer = N`, `declarer = NS`.
    Declarer(Who),
    /// `room = open` (`true`) or `room = closed`.
    Room(bool),
    /// `player = "…"` (any seat, `None`) or `north = "…"`: a player's name, any case.
    Player(Option<Seat>, String),
    /// `event = "…"`: the event's name, any case.
    Event(String),
}

/// `+` or `-` in a sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AddOp {
    Add,
    Sub,
}

/// A number: a term, or a sum `first ± rest[0] ± rest[1] …` evaluated left to right.
///
/// Parenthesised sums are flattened when parsed (`a - (b - c)` is `a - b + c`), so equal
/// sums have one form, and the parser has checked that no partial sum, left to right, can
/// leave the `i64` range ([`Term::bounds`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Expr {
    first: Term,
    /// Empty for a lone term (no allocation).
    rest: Vec<(AddOp, Term)>,
}

impl Expr {
    /// A lone term.
    fn term(t: Term) -> Expr {
        Expr {
            first: t,
            rest: Vec::new(),
        }
    }

    /// The term, when the expression is a lone term.
    fn single(&self) -> Option<&Term> {
        self.rest.is_empty().then_some(&self.first)
    }

    /// Every term, the first one included.
    fn terms(&self) -> impl Iterator<Item = &Term> {
        std::iter::once(&self.first).chain(self.rest.iter().map(|(_, t)| t))
    }
}

impl Term {
    /// [`Term::bounds`] over the deals that hold the predealt cards `fixed` (N, E, S, W):
    /// HCP, suit lengths and controls narrowed to what the seats' own cards and the best of
    /// the undealt ones allow; every other term keeps its bounds.
    fn bounds_given(&self, fixed: &[Hand; 4]) -> (i64, i64) {
        let seats = |who: Who| match who {
            Who::Seat(s) => vec![s],
            Who::Side(side) => side.seats().to_vec(),
        };
        // Cards the seats hold and may still get: theirs, and the best `room` undealt ones.
        let held = |who: Who| {
            let seats = seats(who);
            let mine = seats.iter().fold(0u64, |m, s| m | fixed[s.index()].mask());
            let room = 13 * seats.len() - mine.count_ones() as usize;
            (Hand::from_mask(mine), room)
        };
        let free = Hand::from_mask(((1u64 << 52) - 1) & !fixed.iter().fold(0, |m, h| m | h.mask()));
        // The most `room` undealt cards can add, each card worth `value`.
        let best = |room: usize, value: &dyn Fn(Hand) -> u8| -> i64 {
            let mut values: Vec<u8> = free
                .cards()
                .map(|c| value(Hand::from_mask(1 << c.index())))
                .collect();
            values.sort_unstable_by(|a, b| b.cmp(a));
            values.iter().take(room).map(|&v| i64::from(v)).sum()
        };
        let narrowed = |who: Who, value: &dyn Fn(Hand) -> u8| {
            let (mine, room) = held(who);
            let lo = i64::from(value(mine));
            (lo, lo + best(room, value))
        };
        let (lo, hi) = self.bounds();
        let (a, b) = match *self {
            Term::Hcp(who) => narrowed(who, &features::hcp),
            Term::Controls(who) => narrowed(who, &features::controls),
            Term::Len(who, suit) => {
                let in_suit = |h: Hand| h.suit_len(suit) as u8;
                narrowed(who, &in_suit)
            }
            _ => (lo, hi),
        };
        (a.max(lo), b.min(hi))
    }

    /// The least and greatest value the term can take on any deal (a superset is fine:
    /// the parser uses it to refuse sums that could overflow `i64`).
    fn bounds(&self) -> (i64, i64) {
        match *self {
            Term::Lit(v) => (v, v),
            Term::Hcp(Who::Seat(_)) => (0, 37),
            Term::Hcp(Who::Side(_)) => (0, 40),
            Term::Len(..) | Term::Dd(..) | Term::Lead(..) => (0, 13),
            Term::Controls(_) | Term::Ltc(_) => (0, 12),
            Term::Longest(_) => (4, 13),
            Term::PlayedDd(..) => (0, 13),
            Term::Played(n) => match n {
                PlayedNum::Level => (1, 7),
                PlayedNum::Doubled => (0, 2),
                PlayedNum::Result => (-13, 6),
                PlayedNum::Score | PlayedNum::Par => (-PAR_BOUND, PAR_BOUND),
                PlayedNum::Board => (0, i64::MAX),
                PlayedNum::Tricks
                | PlayedNum::DeclarerLost
                | PlayedNum::DefenceLost
                | PlayedNum::LeadCost => (0, 13),
            },
            // No contract scores more than 7NT redoubled vulnerable down 13: 7600.
            Term::Par(..) => (-PAR_BOUND, PAR_BOUND),
        }
    }
}

/// The bound of `|par(…)|` used for the overflow check of sums: no contract scores more
/// than 7NT redoubled, vulnerable, down 13 (400 + 12 × 600 = 7600).
const PAR_BOUND: i64 = 7600;

/// A condition.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Cond {
    Cmp(Expr, Comparison, Expr),
    /// `expr in lo..hi`, inclusive, `lo <= hi`.
    Range(Expr, i64, i64),
    Balanced(Seat),
    SemiBalanced(Seat),
    Shape(ShapeTest),
    Not(Box<Cond>),
    /// Two or more operands, none itself an `And`.
    And(Vec<Cond>),
    /// Two or more operands, none itself an `Or`.
    Or(Vec<Cond>),
    /// A played board's condition; `false` for `!=`.
    Played(PlayedCond, bool),
}

/// `shape(seat) = …` (`exact == false`, `lengths` sorted longest first) or
/// `pattern(seat) = …` (`exact`, lengths in suit order ♠ ♥ ♦ ♣); `equal == false` for `!=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ShapeTest {
    seat: Seat,
    lengths: [u8; 4],
    exact: bool,
    equal: bool,
}

impl ShapeTest {
    /// True when a hand of shape `shape` (the seat's) passes the test.
    fn holds(self, shape: features::Shape) -> bool {
        let got = if self.exact { shape.0 } else { shape.sorted() };
        (got == self.lengths) == self.equal
    }
}

impl Query {
    /// Parses and type-checks a query (the language of the [module docs](self)).
    ///
    /// # Errors
    /// An [`Error`] with the 1-based column of the first problem found; see the
    /// module docs for the list. Never panics, whatever the input.
    ///
    /// ```
    /// use dealdex::query::Query;
    /// assert!(Query::parse("shape(E) = 4-4-3-2 or not balanced(W)").is_ok());
    /// let e = Query::parse("ltc(NS) < 7").unwrap_err();
    /// assert_eq!(e.column(), Some(5));
    /// ```
    pub fn parse(text: &str) -> Result<Query, Error> {
        parser::parse(text).map(|(cond, columns)| Query {
            plan: eval::plan(&cond),
            cond,
            columns,
        })
    }

    /// Why no deal can match the query, when each term's range alone shows it (the ranges
    /// in the [module docs](self)' table): a comparison that can never hold
    /// (`hcp(N) > 37`, `len(S, hearts) < 0`, `longest(E) in 0..3`) or always holds
    /// (`hcp(N) <= 37`), folded through `not`, `and` and `or`. `None` when the ranges do
    /// not decide it: the query may still be very rare (`hcp(N) >= 36`) or impossible for a
    /// reason the ranges do not see (`hcp(N) > 20 and hcp(N) < 10`), but it is never
    /// `Some` for a query some deal matches. A sum's range is the sum of its terms' ranges.
    /// Cost: one walk of the query. `generate --where` refuses such a query before drawing
    /// a deal.
    ///
    /// The [`Error`] has the column of the first comparison that decides it, and says
    /// why: `column 1: hcp(N) > 37 can never hold: a hand has 0 to 37 HCP; so no deal can
    /// match the query` (an `or` of impossible comparisons lists up to four, each with its
    /// column).
    ///
    /// ```
    /// use dealdex::query::Query;
    /// let e = Query::parse("balanced(N) and hcp(N) > 37").unwrap().never_matches().unwrap();
    /// assert_eq!(e.column(), Some(17));
    /// assert!(e.to_string().starts_with("column 17: hcp(N) > 37 can never hold: a hand has 0 to 37 HCP"));
    /// assert!(Query::parse("len(N, spades) > 13 or len(S, hearts) < 0").unwrap().never_matches().is_some());
    /// assert!(Query::parse("not hcp(NS) <= 40").unwrap().never_matches().is_some());
    /// // Rare, not impossible; and what the ranges cannot see.
    /// assert!(Query::parse("hcp(N) >= 36").unwrap().never_matches().is_none());
    /// assert!(Query::parse("hcp(N) > 20 and hcp(N) < 10").unwrap().never_matches().is_none());
    /// ```
    pub fn never_matches(&self) -> Option<Error> {
        bounds::never(&self.cond, &self.columns, None)
    }

    /// [`Query::never_matches`] over the deals that hold the predealt cards `fixed` (N, E,
    /// S, W; 13 cards or fewer each, none twice): the seats' HCP, suit lengths and controls
    /// are bounded by their own cards and the best undealt ones, so a query the predeal
    /// rules out is refused before any deal is drawn. The error says so (`with the predealt
    /// cards, hcp(S) is 0 to 3`).
    ///
    /// ```
    /// use dealdex::{Hand, Predeal};
    /// use dealdex::query::Query;
    /// let p = Predeal::parse("N:AKQJ.AKQ.AKQ.AKQ").unwrap();
    /// let q = Query::parse("hcp(S) >= 10").unwrap();
    /// assert!(q.never_matches().is_none());
    /// let e = q.never_matches_given(&p.fixed()).unwrap();
    /// assert!(e.to_string().contains("with the predealt cards, hcp(S) is 0 to 3"), "{e}");
    /// assert!(Query::parse("hcp(S) >= 3").unwrap().never_matches_given(&p.fixed()).is_none());
    /// ```
    pub fn never_matches_given(&self, fixed: &[Hand; 4]) -> Option<Error> {
        bounds::never(&self.cond, &self.columns, Some(fixed))
    }

    /// Whether `deal` satisfies the query, computed in Rust with [`crate::model::features`].
    /// Allocates nothing; `and` / `or` stop at the first deciding operand. `dd(…)` and
    /// `par(…)` solve the deal ([`crate::dd::solve`]) when first reached, once per call,
    /// after the operands without them; see [`Query::matches_with_dd`] to pass a table.
    /// `lead(SEAT, strain, CARD)` solves that leader's leads in that strain
    /// ([`crate::dd::lead_tricks`]) when first reached, once per call; for a card the leader
    /// does not hold it has no value, and the query is evaluated in SQL's three-valued logic
    /// (a comparison with no value is unknown, `not` unknown is unknown): the deal matches
    /// only when the query is true, as the compiled SQL's `WHERE` decides.
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
        eval::cond(&self.plan, deal, &eval::Table::new()) == Some(true)
    }

    /// Like [`Query::matches`], but `dd(…)` and `par(…)` read `table`, the deal's
    /// double-dummy table (for instance the one the store holds, the engine's `StoreReader::dd_table`),
    /// instead of solving the deal. `table` must be `deal`'s own table; the answer is then
    /// the same as [`Query::matches`] gives, and the same as the compiled SQL gives for a
    /// stored, solved deal.
    ///
    /// ```
    /// use dealdex::{Deal, query::Query};
    /// let d: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    ///     .parse()
    ///     .unwrap();
    /// let table = dealdex::dd::solve(&d);
    /// let q = Query::parse("par(NS, none) = 1510 and dd(N, spades) - dd(N, hearts) = 13").unwrap();
    /// assert!(q.matches_with_dd(&d, &table));
    /// ```
    pub fn matches_with_dd(&self, deal: &Deal, table: &TrickTable) -> bool {
        eval::cond(&self.plan, deal, &eval::Table::from(*table)) == Some(true)
    }

    /// [`Query::matches`], and whether it solved the deal to decide it (`true` only for a
    /// query with `dd(…)`, `par(…)` or `lead(…)` terms, on a deal its cheaper operands left
    /// undecided; at most one double-dummy solve per call, and one lead solve a leader and
    /// strain).
    ///
    /// ```
    /// use dealdex::{Deal, query::Query};
    /// let d: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    ///     .parse()
    ///     .unwrap();
    /// let q = Query::parse("hcp(N) = 10 and par(NS, none) > 0").unwrap();
    /// assert_eq!(q.matches_counting_solves(&d), (true, true));
    /// let q = Query::parse("hcp(N) > 10 and par(NS, none) > 0").unwrap();
    /// assert_eq!(q.matches_counting_solves(&d), (false, false));
    /// ```
    pub fn matches_counting_solves(&self, deal: &Deal) -> (bool, bool) {
        let table = eval::Table::new();
        let matched = eval::cond(&self.plan, deal, &table) == Some(true);
        (matched, table.solved())
    }

    /// Whether the query has a `dd(…)` or `par(…)` term, so that evaluating it needs the
    /// deal's double-dummy table ([`Query::matches`] solves the deal; the compiled SQL
    /// reads the stored table and matches no unsolved deal).
    ///
    /// ```
    /// use dealdex::query::Query;
    /// assert!(Query::parse("hcp(N) > 10 or par(EW, all) > 0").unwrap().uses_dd());
    /// assert!(!Query::parse("hcp(N) + hcp(S) >= 25").unwrap().uses_dd());
    /// ```
    pub fn uses_dd(&self) -> bool {
        eval::uses_dd(&self.cond)
    }

    /// Whether the query has a `lead(…)` term, so that evaluating it needs the deal's
    /// opening-lead tricks ([`Query::matches`] solves the leads; the compiled SQL reads
    /// migration 08's `leads` table and matches no deal whose leads are not stored).
    ///
    /// ```
    /// use dealdex::query::Query;
    /// assert!(Query::parse("lead(W, nt, SA) > lead(W, nt, H2)").unwrap().uses_leads());
    /// assert!(!Query::parse("dd(N, nt) >= 9").unwrap().uses_leads());
    /// ```
    pub fn uses_leads(&self) -> bool {
        eval::uses_leads(&self.cond)
    }

    /// Whether the query has a term or condition about a played board (`contract = 3NT`,
    /// `result < 0`, `lost(defence)`, `dd(declarer, strain)`, …): only the SQL over the
    /// store's played boards answers it ([`Query::to_sql`] then names the columns of the
    /// `played` and `played_dd` rows, which the engine's played search joins).
    ///
    /// ```
    /// use dealdex::query::Query;
    /// assert!(Query::parse("contract = 3NT and result < 0 and dd(declarer, strain) >= 9").unwrap().uses_played());
    /// assert!(!Query::parse("dd(N, nt) >= 9").unwrap().uses_played());
    /// ```
    pub fn uses_played(&self) -> bool {
        eval::played_part(&self.cond).is_some()
    }

    /// `Ok` for a query of deals alone; for one with a played board's term (see
    /// [`Query::uses_played`]), the error naming its first such term, where `context` (`a
    /// search of deals`, `generate --where`) has deals only. [`Query::matches`] gives such a
    /// term no value (the deal does not match): callers that have no played board check
    /// here first.
    ///
    /// # Errors
    /// [`ErrorKind::PlayedOnly`] naming the term and `context`.
    ///
    /// ```
    /// use dealdex::query::Query;
    /// let e = Query::parse("hcp(N) > 10 and lost(defence) >= 1").unwrap().deal_only("generate --where").unwrap_err();
    /// assert!(e.to_string().starts_with("lost(defence) is about a played board: generate --where has deals only"));
    /// ```
    pub fn deal_only(&self, context: &'static str) -> Result<(), Error> {
        match eval::played_part(&self.cond) {
            None => Ok(()),
            Some(term) => Err(ErrorKind::PlayedOnly { term, context }.into()),
        }
    }

    /// How many conditions and terms the query has (`hcp(N) + hcp(S) >= 20 and
    /// balanced(N)` has 6: the `and`, the comparison, `balanced` and three terms): at most what [`Query::matches`]
    /// evaluates on one deal, besides any double-dummy solve. Generation sizes its chunks of
    /// work by it, so a huge query decides few deals past the last one it needs.
    ///
    /// ```
    /// use dealdex::query::Query;
    /// assert_eq!(Query::parse("hcp(N) + hcp(S) >= 20 and balanced(N)").unwrap().size(), 6);
    /// ```
    pub fn size(&self) -> usize {
        eval::size(&self.cond)
    }

    /// How many deals a chunk of work of [`first_matching`](dealdex_generation::stream::first_matching) should cover when it tests
    /// this query: [`CHUNK`](dealdex_generation::stream::CHUNK) for a small query, proportionally fewer for a large one
    /// (at least 16), and 4 for a query with `dd(…)`, `par(…)` or `lead(…)` terms, whose
    /// double-dummy solve takes some 0.3 s a deal. The chunks decided in parallel past the last match are
    /// work done for nothing; this keeps them to a few milliseconds (seconds with a solve).
    ///
    /// ```
    /// use dealdex::query::Query;
    /// assert_eq!(Query::parse("hcp(N) >= 20").unwrap().search_chunk(), dealdex::CHUNK);
    /// assert_eq!(Query::parse("hcp(N) >= 20 and par(NS, none) > 0").unwrap().search_chunk(), 4);
    /// ```
    pub fn search_chunk(&self) -> usize {
        if eval::solves(&self.cond) {
            return DD_CHUNK;
        }
        let scale = self.size().div_ceil(QUERY_CHUNK_SIZE).max(1);
        (dealdex_generation::stream::CHUNK / scale).max(MIN_QUERY_CHUNK)
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
    /// | `dd(N, nt)` | `(SELECT dd_tricks(tricks, 'N', 'NT') FROM dd WHERE dd.deal = key)` |
    /// | `par(NS, none)` | `(SELECT dd_par(tricks, 'N', 'None') FROM dd WHERE dd.deal = key)` |
    /// | `par(EW, all, W)` | `(SELECT -dd_par(tricks, 'W', 'All') FROM dd WHERE dd.deal = key)` |
    /// | `lead(W, nt, SA)` | `(SELECT lead_card(leads.tricks, 'SA') FROM leads WHERE leads.deal = key AND leads.leader = 'W' AND leads.strain = 'NT')` |
    /// | `a + b - c` | `(a + b - c)` |
    /// | literal `20` | `?k`, 20 appended to `params` |
    /// | `a >= b` (`=` `!=` `<` `<=` `>` `>=`) | `a >= b` (`=` `<>` `<` `<=` `>` `>=`) |
    /// | `a in 20..21` | `a BETWEEN ?k AND ?k+1` |
    /// | `balanced(N)`, `semibalanced(N)` | `lens_n IN (?1, …)`: the packed suit orders of the balanced (28) or semi-balanced (52) shapes |
    /// | `shape(E) = 4432` | `lens_e IN (?1, ?2, …)`, one packed value per distinct suit order, in decreasing lexicographic order of the lengths |
    /// | `shape(E) != 4432` | the same with `NOT IN` |
    /// | `pattern(N) = 5431` | `lens_n = ?1` (5 + 16·4 + 256·3 + 4096·1) |
    /// | `pattern(N) != 5431` | `lens_n <> ?1` |
    /// | `not c` | `NOT (c)` |
    /// | `c and d and e` | `(c AND d AND e)`, cheapest first: stored columns, shape tests, then functions and subqueries; past 8 operands split in halves, `((c AND … ) AND (…))`, keeping that order, so the tree is about log₂ n deep |
    /// | `c or d` | `(c OR d)`, ordered the same way |
    ///
    /// Indexed columns stay bare on their side of a comparison (`hcp_n >= ?1`), so SQLite
    /// can use an index on them. When a top-level condition bounds a seat's HCP at 20 or
    /// more, the clause ends with the implied literal term `AND hcp_<seat> >= 20`, the
    /// condition of the store's partial index for that seat (docs/query.md). The parser keeps
    /// the clause within SQLite's expression depth of 1000 ([`MAX_SQL_DEPTH`]) and its 32,766
    /// parameters ([`MAX_SQL_PARAMS`]).
    ///
    /// ```
    /// use dealdex::query::Query;
    /// let q = Query::parse("hcp(NS) in 20..25 or not pattern(W) = 5431").unwrap();
    /// let sql = q.to_sql();
    /// assert_eq!(
    ///     sql.clause,
    ///     "((hcp_n + hcp_s) BETWEEN ?1 AND ?2 OR NOT (lens_w = ?3))"
    /// );
    /// // West's 5-4-3-1 (♠ ♥ ♦ ♣) packed as ♠ + 16·♥ + 256·♦ + 4096·♣.
    /// assert_eq!(sql.params, [20, 25, 5 + 16 * 4 + 256 * 3 + 4096]);
    /// ```
    pub fn to_sql(&self) -> SqlFilter {
        sql::compile(&self.cond)
    }

    /// Compiles the query to one self-contained Spark SQL boolean expression over the
    /// columns of a dealdex Parquet deal archive, for `df.filter(expr)`: it keeps exactly
    /// the rows whose deals [`Query::to_sql`] keeps in the store (and, for a solved deal,
    /// [`Query::matches`] accepts).
    ///
    /// Columns assumed (integers; `<seat>` is `n e s w`, `<suit>` `s h d c`, `<strain>`
    /// `nt s h d c`): `hcp_<seat>`, `len_<seat>_<suit>`, `controls_<seat>` (A=2 K=1),
    /// `ltc_<seat>` ([`crate::model::features::losing_trick_count`]) and
    /// `dd_<seat>_<strain>` (double-dummy tricks of that declarer), the last NULL, all 20
    /// together, for an unsolved deal. Literals are inlined as decimal integers; no text of
    /// the query is copied. Every construct:
    ///
    /// | query | Spark SQL |
    /// | --- | --- |
    /// | `hcp(N)`, `len(N, hearts)`, `controls(N)`, `ltc(N)` | `hcp_n`, `len_n_h`, `controls_n`, `ltc_n` |
    /// | `hcp(NS)` (also `len`, `controls`) | `(hcp_n + hcp_s)` |
    /// | `longest(N)` | `greatest(len_n_s, len_n_h, len_n_d, len_n_c)` |
    /// | `dd(N, nt)` | `dd_n_nt` |
    /// | `dd(EW, hearts)` | `greatest(dd_e_h, dd_w_h)` (the better declarer) |
    /// | `a + b - c` | `(CAST(a AS BIGINT) + b - c)` (64-bit, as in Rust and SQLite) |
    /// | literal `20` | `20` |
    /// | `a >= b` (`=` `!=` `<` `<=` `>` `>=`) | `a >= b` (`=` `<>` `<` `<=` `>` `>=`) |
    /// | `a in 20..21` | `a BETWEEN 20 AND 21` |
    /// | `balanced(N)` | `(len_n_s BETWEEN 2 AND 5 AND … AND (CASE WHEN len_n_s = 2 THEN 1 ELSE 0 END + …) <= 1)`: no suit outside 2..=5, at most one doubleton |
    /// | `semibalanced(N)` | `(len_n_s BETWEEN 2 AND 6 AND … AND len_n_c BETWEEN 2 AND 6)` |
    /// | `pattern(N) = 5431` | `(len_n_s = 5 AND len_n_h = 4 AND len_n_d = 3 AND len_n_c = 1)` |
    /// | `shape(N) = 4333` | `((len_n_s = 4 AND …) OR …)`, one group per distinct suit order, in decreasing lexicographic order |
    /// | `shape(X) != …`, `pattern(X) != …` | `NOT` the same |
    /// | `not c`, `c and d`, `c or d` | `NOT (c)`, `(c AND d)`, `(c OR d)` |
    ///
    /// An unsolved deal's NULL `dd` makes its comparisons NULL, which `NOT`, `AND` and `OR`
    /// treat as in SQLite (three-valued logic), so the two dialects keep the same rows.
    /// The expression is also valid SQLite given a `greatest` function.
    ///
    /// # Errors
    /// [`Error`] naming the first `par(…)` or `lead(…)` term: the archive has no par
    /// scores and no lead tricks.
    ///
    /// ```
    /// use dealdex::query::Query;
    /// let q = Query::parse("hcp(NS) in 20..25 and not pattern(W) = 5431 or dd(N, nt) >= 9").unwrap();
    /// assert_eq!(
    ///     q.to_spark_sql().unwrap(),
    ///     "(((hcp_n + hcp_s) BETWEEN 20 AND 25 AND \
    ///      NOT ((len_w_s = 5 AND len_w_h = 4 AND len_w_d = 3 AND len_w_c = 1))) OR dd_n_nt >= 9)"
    /// );
    /// let e = Query::parse("par(NS, none) > 0").unwrap().to_spark_sql().unwrap_err();
    /// assert!(e.to_string().starts_with("par(NS, none) is not available in the Spark dialect"));
    /// ```
    pub fn to_spark_sql(&self) -> Result<String, Error> {
        spark::compile(&self.cond)
    }
}

impl FromStr for Query {
    type Err = Error;

    /// Same as [`Query::parse`].
    fn from_str(s: &str) -> Result<Query, Error> {
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
                write!(f, "len({w}, {})", suit.name())
            }
            Term::Controls(w) => write!(f, "controls({w})"),
            Term::Ltc(s) => write!(f, "ltc({})", s.letter()),
            Term::Longest(s) => write!(f, "longest({})", s.letter()),
            Term::Dd(w, strain) => write!(f, "dd({w}, {})", strain_name(*strain)),
            Term::Lead(s, strain, card) => {
                write!(f, "lead({}, {}, {card})", s.letter(), strain_name(*strain))
            }
            Term::Played(n) => f.write_str(n.name()),
            Term::PlayedDd(who, strain) => {
                match who {
                    Some(w) => write!(f, "dd({w}, ")?,
                    None => f.write_str("dd(declarer, ")?,
                }
                f.write_str(strain.map_or("strain", strain_name))?;
                f.write_str(")")
            }
            Term::Par(side, vul, dealer) => {
                let vul = vul.spelled(["none", "ns", "ew", "all"]);
                write!(f, "par({}, {vul}", Who::Side(*side))?;
                if *dealer != Seat::North {
                    write!(f, ", {}", dealer.letter())?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A strain as the canonical text writes it: `notrump`, `spades`, …
fn strain_name(strain: Strain) -> &'static str {
    match strain {
        Strain::NoTrump => "notrump",
        Strain::Trumps(suit) => suit.name(),
    }
}

impl fmt::Display for Expr {
    /// `a + b - c`: the terms joined by their operators, no parentheses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.first)?;
        for (op, t) in &self.rest {
            let op = match op {
                AddOp::Add => "+",
                AddOp::Sub => "-",
            };
            write!(f, " {op} {t}")?;
        }
        Ok(())
    }
}

/// Writes `c`; `And` / `Or` operands of lower precedence get parentheses.
fn write_cond(f: &mut fmt::Formatter<'_>, c: &Cond) -> fmt::Result {
    match c {
        Cond::Cmp(l, op, r) => {
            // The query's own spelling: `=` as SQL, `!=` as C.
            let op = match op {
                Comparison::Eq => "=",
                op => op.symbol(),
            };
            write!(f, "{l} {op} {r}")
        }
        Cond::Range(t, lo, hi) => write!(f, "{t} in {lo}..{hi}"),
        Cond::Balanced(s) => write!(f, "balanced({})", s.letter()),
        Cond::SemiBalanced(s) => write!(f, "semibalanced({})", s.letter()),
        Cond::Shape(t) => {
            let l = t.lengths;
            write!(
                f,
                "{}({}) {} {}-{}-{}-{}",
                if t.exact { "pattern" } else { "shape" },
                t.seat.letter(),
                if t.equal { "=" } else { "!=" },
                l[0],
                l[1],
                l[2],
                l[3]
            )
        }
        Cond::Played(p, equal) => {
            let op = if *equal { "=" } else { "!=" };
            match p {
                PlayedCond::Contract(None) => write!(f, "contract {op} pass"),
                PlayedCond::Contract(Some((level, strain, doubled))) => {
                    let x = match doubled {
                        Some(d) => "X".repeat(usize::from(*d)),
                        None => String::new(),
                    };
                    write!(f, "contract {op} {level}{}{x}", strain.as_str())
                }
                PlayedCond::Strain(strain) => write!(f, "strain {op} {}", strain_name(*strain)),
                PlayedCond::Declarer(w) => write!(f, "declarer {op} {w}"),
                PlayedCond::Room(open) => {
                    write!(f, "room {op} {}", if *open { "open" } else { "closed" })
                }
                PlayedCond::Player(None, name) => write!(f, "player {op} \"{name}\""),
                PlayedCond::Player(Some(seat), name) => {
                    write!(f, "{} {op} \"{name}\"", seat.name().to_ascii_lowercase())
                }
                PlayedCond::Event(name) => write!(f, "event {op} \"{name}\""),
            }
        }
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

#[cfg(test)]
mod tests;
