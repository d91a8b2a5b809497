//! Compilation of a parsed query to a parameterised SQLite `WHERE` clause over `deals`.
//!
//! Every number of the query becomes a numbered placeholder `?k` with its value in
//! [`SqlFilter::params`]; the only other text emitted is fixed by this module (column
//! names, function names, operators, and the string literals of a fixed vocabulary:
//! seats `'N'` `'E'` `'S'` `'W'`, sides `'NS'` `'EW'`, strains `'NT'` `'S'` `'H'` `'D'`
//! `'C'`, vulnerabilities `'None'` `'NS'` `'EW'` `'All'` and cards `'SA'` … `'C2'`), chosen
//! from the parsed query's enums, never copied from its text.

use std::fmt::Write;

use crate::model::card::{Seat, Suit};
use crate::model::features::{Comparison, Shape, Side};

use super::{AddOp, Cond, Expr, PlayedCond, PlayedNum, SqlFilter, Term, Who, sql_comparison};

/// The HCP from which migration 03's partial indexes `deals_strong_<seat>` hold a hand
/// (`WHERE hcp_<seat> >= 20`).
const INDEXED_HCP: i64 = 20;

/// Compiles `c` into a clause and its parameters.
///
/// SQLite uses a partial index only when the query states the index's own condition, so
/// for each seat whose HCP a top-level condition bounds at [`INDEXED_HCP`] or more the
/// clause gets the literal term `AND hcp_<seat> >= 20` (implied, so the rows are the same).
pub(super) fn compile(c: &Cond) -> SqlFilter {
    let mut b = Builder {
        clause: String::new(),
        params: Vec::new(),
        texts: Vec::new(),
    };
    b.cond(c);
    // Texts are bound after the numbers: their markers become `?{numbers + j + 1}`.
    for (j, _) in b.texts.iter().enumerate() {
        let k = b.params.len() + j + 1;
        b.clause = b.clause.replace(&text_marker(j), &format!("?{k}"));
    }
    for seat in Seat::ALL {
        if implies_indexed_hcp(c, seat) {
            let _ = write!(b.clause, " AND hcp_{} >= {INDEXED_HCP}", seat_col(seat));
        }
    }
    SqlFilter {
        clause: b.clause,
        params: b.params,
        texts: b.texts,
    }
}

/// The placeholder of text `j` while the clause is written (no other text of the clause
/// holds a control character), replaced by its number at the end of [`compile`].
fn text_marker(j: usize) -> String {
    format!("\u{1}{j}\u{1}")
}

/// Whether `c` (or one of its top-level `and` operands) implies `hcp(seat) >= INDEXED_HCP`.
fn implies_indexed_hcp(c: &Cond, seat: Seat) -> bool {
    let hcp = Term::Hcp(Who::Seat(seat));
    match c {
        Cond::And(all) => all.iter().any(|c| implies_indexed_hcp(c, seat)),
        Cond::Range(e, lo, _) => e.single() == Some(&hcp) && *lo >= INDEXED_HCP,
        Cond::Cmp(l, op, r) => {
            let (Some(l), Some(r)) = (l.single(), r.single()) else {
                return false;
            };
            let (op, bound) = match (l, r) {
                (l, Term::Lit(v)) if *l == hcp => (*op, *v),
                (Term::Lit(v), r) if *r == hcp => (op.swapped(), *v),
                _ => return false,
            };
            match op {
                Comparison::Eq | Comparison::Ge => bound >= INDEXED_HCP,
                Comparison::Gt => bound >= INDEXED_HCP - 1,
                _ => false,
            }
        }
        _ => false,
    }
}

struct Builder {
    clause: String,
    params: Vec<i64>,
    texts: Vec<String>,
}

/// The lower-case seat letter used in column names: `n`, `e`, `s`, `w`.
fn seat_col(s: Seat) -> char {
    s.letter().to_ascii_lowercase()
}

/// The lower-case suit letter used in column names: `s`, `h`, `d`, `c`.
fn suit_col(s: Suit) -> char {
    s.letter().to_ascii_lowercase()
}

impl Builder {
    /// Appends a test that seat `s` has a shape in `class` ([`Shape::is_balanced`] or
    /// [`Shape::is_semi_balanced`], so the SQL and [`crate::Query::matches`] share one
    /// definition): the view's packed lengths `lens_<seat>` (migration 06: ♠ + 16·♥ + 256·♦ +
    /// 4096·♣) must be one of the class's packed suit-length vectors, in increasing order,
    /// each a placeholder like every other number. Over 100 M stored deals this costs a few
    /// ns a row where the key-decoding SQL function `balanced(key, 'N')` it replaced cost
    /// about 220 ns.
    fn shape_class(&mut self, s: Seat, class: fn(&Shape) -> bool) {
        let mut codes = Vec::new();
        for spades in 0..=13u8 {
            for hearts in 0..=13 - spades {
                for diamonds in 0..=13 - spades - hearts {
                    let lengths = [spades, hearts, diamonds, 13 - spades - hearts - diamonds];
                    if class(&Shape(lengths)) {
                        codes.push(packed(lengths));
                    }
                }
            }
        }
        codes.sort_unstable();
        let _ = write!(self.clause, "lens_{} IN (", seat_col(s));
        for (i, code) in codes.into_iter().enumerate() {
            if i > 0 {
                self.clause.push_str(", ");
            }
            self.param(i64::from(code));
        }
        self.clause.push(')');
    }

    /// Appends a placeholder for the text `t`.
    fn text(&mut self, t: &str) {
        self.clause.push_str(&text_marker(self.texts.len()));
        self.texts.push(t.to_owned());
    }

    /// Appends a played board's condition (without its negation): stored columns of the
    /// `played` row, a column that does not tell it compared as an empty text or 0, so that
    /// the condition is true or false on every board.
    fn played_cond(&mut self, p: &PlayedCond) {
        match p {
            PlayedCond::Contract(None) => {
                self.clause
                    .push_str("upper(ifnull(played.contract, '')) = 'PASS'");
            }
            PlayedCond::Contract(Some((level, strain, doubled))) => {
                self.clause.push_str("(ifnull(played.level, 0) = ");
                self.param(i64::from(*level));
                let _ = write!(
                    self.clause,
                    " AND ifnull(played.strain, '') = '{}'",
                    strain.as_str()
                );
                if let Some(d) = doubled {
                    self.clause.push_str(" AND ifnull(played.doubled, 0) = ");
                    self.param(i64::from(*d));
                }
                self.clause.push(')');
            }
            PlayedCond::Strain(strain) => {
                let _ = write!(
                    self.clause,
                    "ifnull(played.strain, '') = '{}'",
                    strain.as_str()
                );
            }
            PlayedCond::Declarer(Who::Seat(s)) => {
                let _ = write!(
                    self.clause,
                    "ifnull(played.declarer, '') = '{}'",
                    s.letter()
                );
            }
            PlayedCond::Declarer(Who::Side(side)) => {
                let [a, b] = side_seats(*side);
                let _ = write!(
                    self.clause,
                    "ifnull(played.declarer, '') IN ('{}', '{}')",
                    a.letter(),
                    b.letter()
                );
            }
            PlayedCond::Room(open) => {
                let room = if *open { "Open" } else { "Closed" };
                let _ = write!(self.clause, "ifnull(played.room, '') = '{room}'");
            }
            PlayedCond::Event(name) => {
                self.clause
                    .push_str("trim(ifnull(played.event, '')) = trim(");
                self.text(name);
                self.clause.push_str(") COLLATE NOCASE");
            }
            PlayedCond::Player(seat, name) => {
                let seats = match seat {
                    Some(s) => vec![*s],
                    None => Seat::ALL.to_vec(),
                };
                self.text(name);
                let marker = text_marker(self.texts.len() - 1);
                self.clause.truncate(self.clause.len() - marker.len());
                self.clause.push('(');
                for (i, s) in seats.iter().enumerate() {
                    if i > 0 {
                        self.clause.push_str(" OR ");
                    }
                    // One text, its placeholder written once a seat.
                    let _ = write!(
                        self.clause,
                        "trim(ifnull(played.{}, '')) = trim({marker}) COLLATE NOCASE",
                        s.name().to_ascii_lowercase()
                    );
                }
                self.clause.push(')');
            }
        }
    }

    /// Appends a placeholder for `v`.
    fn param(&mut self, v: i64) {
        self.params.push(v);
        let k = self.params.len();
        let _ = write!(self.clause, "?{k}");
    }

    /// Appends `f(key, 'X')` for each seat of `who`, summed in parentheses for a side.
    fn per_seat(&mut self, who: Who, one: impl Fn(&mut String, Seat)) {
        match who {
            Who::Seat(s) => one(&mut self.clause, s),
            Who::Side(side) => {
                let [a, b] = side_seats(side);
                self.clause.push('(');
                one(&mut self.clause, a);
                self.clause.push_str(" + ");
                one(&mut self.clause, b);
                self.clause.push(')');
            }
        }
    }

    fn term(&mut self, t: &Term) {
        match *t {
            Term::Lit(v) => self.param(v),
            Term::Hcp(who) => self.per_seat(who, |out, s| {
                let _ = write!(out, "hcp_{}", seat_col(s));
            }),
            Term::Len(who, suit) => self.per_seat(who, |out, s| {
                let _ = write!(out, "len_{}_{}", seat_col(s), suit_col(suit));
            }),
            Term::Controls(who) => self.per_seat(who, |out, s| func(out, "controls", s)),
            Term::Ltc(s) => func(&mut self.clause, "ltc", s),
            Term::Longest(s) => func(&mut self.clause, "longest", s),
            // The table of the row's deal (migration 05's dd.deal = deals.key); NULL, so
            // no comparison holds, when the deal is not solved.
            Term::Dd(who, strain) => {
                let _ = write!(
                    self.clause,
                    "(SELECT dd_tricks(tricks, '{who}', '{}') FROM dd WHERE dd.deal = key)",
                    strain.as_str()
                );
            }
            // The same subquery; dd_par gives N-S's score, negated for E-W.
            Term::Par(side, vul, dealer) => {
                let minus = match side {
                    Side::NorthSouth => "",
                    Side::EastWest => "-",
                };
                let _ = write!(
                    self.clause,
                    "(SELECT {minus}dd_par(tricks, '{}', '{}') FROM dd WHERE dd.deal = key)",
                    dealer.letter(),
                    vul.pbn()
                );
            }
            // Columns of the played row (migrations 10 and 12) and of its judgement
            // (played_dd, migrations 11 and 12): NULL where the board does not tell it.
            Term::Played(n) => self.clause.push_str(match n {
                PlayedNum::Level => "played.level",
                PlayedNum::Doubled => "played.doubled",
                PlayedNum::Result => "(played.result - played.level - 6)",
                PlayedNum::Tricks => "played.result",
                PlayedNum::Score => "played.score_ns",
                PlayedNum::Par => "played.par_ns",
                PlayedNum::Board => "played.board",
                PlayedNum::DeclarerLost => "played_dd.declarer_lost",
                PlayedNum::DefenceLost => "played_dd.defence_lost",
                PlayedNum::LeadCost => "played_dd.lead_cost",
            }),
            // The played deal's table (dd_tricks refuses a NULL seat or strain: a board
            // without a contract has no value).
            Term::PlayedDd(who, strain) => {
                let who = match who {
                    Some(w) => format!("'{w}'"),
                    None => "played.declarer".to_owned(),
                };
                let strain = match strain {
                    Some(s) => format!("'{}'", s.as_str()),
                    None => "played.strain".to_owned(),
                };
                let _ = write!(
                    self.clause,
                    "(CASE WHEN played.declarer IS NOT NULL AND played.strain IS NOT NULL THEN \
                     (SELECT dd_tricks(tricks, {who}, {strain}) FROM dd \
                     WHERE dd.deal = played.deal) END)"
                );
            }
            // Migration 08's row of the deal, leader and strain; NULL, so no comparison
            // holds, when the leads are not stored or the leader does not hold the card.
            Term::Lead(leader, strain, card) => {
                let _ = write!(
                    self.clause,
                    "(SELECT lead_card(leads.tricks, '{card}') FROM leads WHERE leads.deal = key \
                     AND leads.leader = '{}' AND leads.strain = '{}')",
                    leader.letter(),
                    strain.as_str()
                );
            }
        }
    }

    /// A lone term as [`Builder::term`] writes it; a sum in parentheses, left to right:
    /// `(a + b - c)`.
    fn expr(&mut self, e: &Expr) {
        if e.rest.is_empty() {
            return self.term(&e.first);
        }
        self.clause.push('(');
        self.term(&e.first);
        for (op, t) in &e.rest {
            self.clause.push_str(match op {
                AddOp::Add => " + ",
                AddOp::Sub => " - ",
            });
            self.term(t);
        }
        self.clause.push(')');
    }

    fn cond(&mut self, c: &Cond) {
        match c {
            Cond::Cmp(l, op, r) => {
                self.expr(l);
                let _ = write!(self.clause, " {} ", sql_comparison(*op));
                self.expr(r);
            }
            Cond::Range(e, lo, hi) => {
                self.expr(e);
                self.clause.push_str(" BETWEEN ");
                self.param(*lo);
                self.clause.push_str(" AND ");
                self.param(*hi);
            }
            Cond::Balanced(s) => self.shape_class(*s, Shape::is_balanced),
            Cond::SemiBalanced(s) => self.shape_class(*s, Shape::is_semi_balanced),
            // One comparison of the packed lengths (migration 06's lens_<seat>) where four of
            // the length columns, or a row-value list, cost four extractions a row.
            Cond::Shape(t) => {
                let _ = write!(self.clause, "lens_{} ", seat_col(t.seat));
                if t.exact {
                    self.clause.push_str(if t.equal { "= " } else { "<> " });
                    self.param(i64::from(packed(t.lengths)));
                } else {
                    self.clause
                        .push_str(if t.equal { "IN (" } else { "NOT IN (" });
                    for (j, p) in permutations(t.lengths).iter().enumerate() {
                        if j > 0 {
                            self.clause.push_str(", ");
                        }
                        self.param(i64::from(packed(*p)));
                    }
                    self.clause.push(')');
                }
            }
            Cond::Played(p, true) => self.played_cond(p),
            Cond::Played(p, false) => {
                self.clause.push_str("NOT (");
                self.played_cond(p);
                self.clause.push(')');
            }
            Cond::Not(inner) => {
                self.clause.push_str("NOT (");
                self.cond(inner);
                self.clause.push(')');
            }
            Cond::And(parts) | Cond::Or(parts) => {
                let sep = if matches!(c, Cond::And(_)) {
                    " AND "
                } else {
                    " OR "
                };
                // SQLite evaluates the operands in the order written and stops at the first
                // that decides: the cheapest go first (a stable sort by cost keeps the
                // query's order among equals), so a full scan runs a shape test or a Rust
                // function only for the rows the stored columns leave undecided.
                let mut ordered: Vec<&Cond> = parts.iter().collect();
                ordered.sort_by_key(|p| cost(p));
                self.chain(&ordered, sep);
            }
        }
    }

    /// Appends `(a SEP b SEP …)` for at most [`FLAT`] operands; a longer chain is split in
    /// halves, each written the same way: `((a AND … AND h) AND (i AND …))`. The operands
    /// keep their order (SQLite still tries them left to right and stops at the first that
    /// decides), and the tree SQLite builds is about log₂ n deep instead of n (it refuses
    /// an expression more than 1000 deep).
    fn chain(&mut self, operands: &[&Cond], sep: &str) {
        self.clause.push('(');
        if operands.len() <= FLAT {
            for (i, p) in operands.iter().enumerate() {
                if i > 0 {
                    self.clause.push_str(sep);
                }
                self.cond(p);
            }
        } else {
            let (left, right) = operands.split_at(operands.len() / 2);
            self.chain(left, sep);
            self.clause.push_str(sep);
            self.chain(right, sep);
        }
        self.clause.push(')');
    }
}

/// Operands of `and` / `or` written as one flat chain in SQL; longer chains are balanced
/// ([`Builder::chain`]).
pub(super) const FLAT: usize = 8;

/// An upper bound of the depth of the expression tree SQLite builds for `c`'s SQL (as
/// [`compile`] writes it, view columns expanded to their definitions: a stored feature
/// counts 4, a function call 5, a `dd` subquery 6), for refusing a query SQLite would
/// refuse ([`super::MAX_SQL_DEPTH`]).
pub(super) fn depth(c: &Cond) -> usize {
    let term = |t: &Term| match t {
        Term::Lit(_) => 1,
        Term::Hcp(Who::Seat(_)) | Term::Len(Who::Seat(_), _) => 4,
        Term::Hcp(_) | Term::Len(..) => 5,
        Term::Ltc(_) | Term::Longest(_) | Term::Controls(Who::Seat(_)) => 5,
        Term::Controls(_) => 6,
        Term::Dd(..) | Term::Par(..) | Term::Lead(..) => 6,
        Term::Played(_) => 3,
        Term::PlayedDd(..) => 8,
    };
    // A sum is left-deep: one level per operator.
    let expr = |e: &Expr| e.terms().map(term).max().unwrap_or(1) + e.rest.len();
    match c {
        Cond::Cmp(l, _, r) => 1 + expr(l).max(expr(r)),
        Cond::Range(e, ..) => 1 + expr(e),
        Cond::Balanced(_) | Cond::SemiBalanced(_) | Cond::Shape(_) | Cond::Played(..) => 6,
        Cond::Not(inner) => 1 + depth(inner),
        Cond::And(parts) | Cond::Or(parts) => {
            let deepest = parts.iter().map(depth).max().unwrap_or(1);
            chain_depth(parts.len()) + deepest
        }
    }
}

/// How many placeholders [`compile`] writes for `c` (SQLite allows at most
/// [`super::MAX_SQL_PARAMS`] in a statement).
pub(super) fn params(c: &Cond) -> usize {
    let expr = |e: &Expr| e.terms().filter(|t| matches!(t, Term::Lit(_))).count();
    match c {
        Cond::Cmp(l, _, r) => expr(l) + expr(r),
        Cond::Range(e, ..) => expr(e) + 2,
        Cond::Balanced(_) => BALANCED_CODES,
        Cond::SemiBalanced(_) => SEMI_BALANCED_CODES,
        Cond::Shape(t) if t.exact => 1,
        Cond::Shape(t) => permutations(t.lengths).len(),
        // A level and a doubling, or one text.
        Cond::Played(..) => 2,
        Cond::Not(inner) => params(inner),
        Cond::And(parts) | Cond::Or(parts) => parts.iter().map(params).sum(),
    }
}

/// The suit-length vectors of the balanced shapes (4-3-3-3, 4-4-3-2, 5-3-3-2), each a
/// placeholder of [`Builder::shape_class`].
const BALANCED_CODES: usize = 4 + 12 + 12;

/// The same for the semi-balanced shapes (also 5-4-2-2 and 6-3-2-2).
const SEMI_BALANCED_CODES: usize = BALANCED_CODES + 12 + 12;

/// The levels [`Builder::chain`] adds above its deepest operand for `n` operands (an upper
/// bound: each half is charged as if it held the deepest operand).
pub(super) fn chain_depth(n: usize) -> usize {
    if n <= FLAT {
        n.saturating_sub(1)
    } else {
        1 + chain_depth(n.div_ceil(2))
    }
}

/// Four suit lengths (♠ ♥ ♦ ♣) packed as in the view's `lens_<seat>` columns.
fn packed(lengths: [u8; 4]) -> u32 {
    lengths
        .iter()
        .rev()
        .fold(0, |acc, &l| acc * 16 + u32::from(l))
}

/// How much the SQL of `c` costs a row, for ordering the operands of `and` / `or`: 0 for
/// arithmetic on stored columns, 1 for a shape test (a lookup in a list), 2 for a Rust
/// function (`controls`, `ltc`, `longest`) or a `dd` or `leads` subquery.
fn cost(c: &Cond) -> u8 {
    let t = |e: &Expr| {
        let calls = e.terms().any(|t| {
            matches!(
                t,
                Term::Controls(_)
                    | Term::Ltc(_)
                    | Term::Longest(_)
                    | Term::Dd(..)
                    | Term::Par(..)
                    | Term::Lead(..)
                    | Term::PlayedDd(..)
            )
        });
        if calls { 2 } else { 0 }
    };
    match c {
        Cond::Cmp(l, _, r) => t(l).max(t(r)),
        Cond::Range(x, ..) => t(x),
        Cond::Not(inner) => cost(inner),
        Cond::And(parts) | Cond::Or(parts) => parts.iter().map(cost).max().unwrap_or(0),
        Cond::Balanced(_) | Cond::SemiBalanced(_) | Cond::Shape(_) | Cond::Played(..) => 1,
    }
}

/// Appends `name(key, 'X')` for seat X.
fn func(out: &mut String, name: &str, s: Seat) {
    let _ = write!(out, "{name}(key, '{}')", s.letter());
}

/// The two seats of a side, in N, E, S, W order.
fn side_seats(side: Side) -> [Seat; 2] {
    side.seats()
}

/// The distinct orderings of four suit lengths, in decreasing lexicographic order
/// (`[4,4,3,2]` first). 1 to 24 of them.
pub(super) fn permutations(lengths: [u8; 4]) -> Vec<[u8; 4]> {
    let mut out = Vec::with_capacity(24);
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    if a != b && a != c && a != d && b != c && b != d && c != d {
                        out.push([lengths[a], lengths[b], lengths[c], lengths[d]]);
                    }
                }
            }
        }
    }
    out.sort_unstable_by(|x, y| y.cmp(x));
    out.dedup();
    out
}
