//! Compilation of a parsed query to one Spark SQL boolean expression over the columns of a
//! dealdex Parquet deal archive, for `df.filter(expr)`.
//!
//! Unlike [`super::sql`], literals are inlined (a predicate handed to Spark has no
//! parameters); they are the parsed `i64` values, printed in decimal. Everything else is
//! fixed text chosen from the parsed query's enums (column names, operators, `greatest`,
//! `CAST`, `CASE`), never copied from the query text. The output only uses constructs that
//! SQLite also accepts (with a `greatest` function registered), so tests/it/query_spark.rs
//! checks it against the library's evaluator in an in-memory SQLite table.

use std::fmt::Write;

use crate::model::card::{Seat, Suit};
use crate::model::contract::Strain;

use super::sql::permutations;
use super::{AddOp, Cond, Dialect, Error, ErrorKind, Expr, Term, Who, sql_comparison};

/// Compiles `c`, or names the first term the archive's columns cannot express (`par`,
/// `lead`).
pub(super) fn compile(c: &Cond) -> Result<String, Error> {
    if let Some(term) = super::eval::played_part(c) {
        return Err(ErrorKind::PlayedOnly {
            term,
            context: "the Spark dialect (a Parquet deal archive)",
        }
        .into());
    }
    if let Some(t) = first_missing(c) {
        return Err(ErrorKind::Dialect {
            dialect: Dialect::Spark,
            term: t.to_string(),
            reason: match t {
                Term::Lead(..) => {
                    "the Parquet archive has no opening-lead tricks (they are stored in the \
                     SQLite database by a lead analysis that stores its sample)"
                }
                _ => {
                    "the Parquet archive has double-dummy tricks (dd(X, strain)) but no par \
                     scores"
                }
            },
        }
        .into());
    }
    let mut out = String::new();
    cond(&mut out, c);
    Ok(out)
}

/// The first `par(…)` or `lead(…)` term of `c`, left to right: the archive has no column
/// for them.
fn first_missing(c: &Cond) -> Option<&Term> {
    fn in_expr(e: &Expr) -> Option<&Term> {
        e.terms()
            .find(|t| matches!(t, Term::Par(..) | Term::Lead(..)))
    }
    match c {
        Cond::Cmp(l, _, r) => in_expr(l).or_else(|| in_expr(r)),
        Cond::Range(e, ..) => in_expr(e),
        Cond::Not(inner) => first_missing(inner),
        Cond::And(parts) | Cond::Or(parts) => parts.iter().find_map(first_missing),
        Cond::Balanced(_) | Cond::SemiBalanced(_) | Cond::Shape(_) | Cond::Played(..) => None,
    }
}

/// `n`, `e`, `s`, `w`.
fn seat_col(s: Seat) -> char {
    s.letter().to_ascii_lowercase()
}

/// `s`, `h`, `d`, `c`.
fn suit_col(s: Suit) -> char {
    s.letter().to_ascii_lowercase()
}

/// `nt`, `s`, `h`, `d`, `c`: the strain part of `dd_<declarer>_<strain>`.
fn strain_col(s: Strain) -> &'static str {
    match s {
        Strain::NoTrump => "nt",
        Strain::Trumps(Suit::Spades) => "s",
        Strain::Trumps(Suit::Hearts) => "h",
        Strain::Trumps(Suit::Diamonds) => "d",
        Strain::Trumps(Suit::Clubs) => "c",
    }
}

/// The four length columns of `seat`, ♠ ♥ ♦ ♣.
fn len_cols(seat: Seat) -> [String; 4] {
    Suit::ALL.map(|suit| format!("len_{}_{}", seat_col(seat), suit_col(suit)))
}

/// Writes the column of one seat, or `(a + b)` over the side's two seats (as sql.rs does).
fn per_seat(out: &mut String, who: Who, col: impl Fn(&mut String, Seat)) {
    match who {
        Who::Seat(s) => col(out, s),
        Who::Side(side) => {
            let [a, b] = side.seats();
            out.push('(');
            col(out, a);
            out.push_str(" + ");
            col(out, b);
            out.push(')');
        }
    }
}

fn term(out: &mut String, t: &Term) {
    match *t {
        Term::Lit(v) => {
            let _ = write!(out, "{v}");
        }
        Term::Hcp(who) => per_seat(out, who, |o, s| {
            let _ = write!(o, "hcp_{}", seat_col(s));
        }),
        Term::Len(who, suit) => per_seat(out, who, |o, s| {
            let _ = write!(o, "len_{}_{}", seat_col(s), suit_col(suit));
        }),
        Term::Controls(who) => per_seat(out, who, |o, s| {
            let _ = write!(o, "controls_{}", seat_col(s));
        }),
        Term::Ltc(s) => {
            let _ = write!(out, "ltc_{}", seat_col(s));
        }
        Term::Longest(s) => {
            let _ = write!(out, "greatest({})", len_cols(s).join(", "));
        }
        Term::Dd(Who::Seat(s), strain) => {
            let _ = write!(out, "dd_{}_{}", seat_col(s), strain_col(strain));
        }
        // Refused by `compile` before any term is written; no value if it ever were.
        Term::Played(_) | Term::PlayedDd(..) => out.push_str("NULL"),
        // A side's better declarer, as TrickTable::side_tricks. The archive's dd columns
        // are NULL together (unsolved deal), so greatest is NULL exactly when SQLite's
        // subquery is.
        Term::Dd(Who::Side(side), strain) => {
            let [a, b] = side.seats();
            let st = strain_col(strain);
            let _ = write!(
                out,
                "greatest(dd_{}_{st}, dd_{}_{st})",
                seat_col(a),
                seat_col(b)
            );
        }
        Term::Par(..) | Term::Lead(..) => unreachable!("refused by compile"),
    }
}

/// A lone term as [`term`] writes it; a sum in parentheses, left to right, its first term
/// cast to BIGINT: the archive's small integer columns (and Spark's INT literals) would
/// otherwise add in a narrower type and overflow where the parser promised `i64`.
fn expr(out: &mut String, e: &Expr) {
    if e.rest.is_empty() {
        return term(out, &e.first);
    }
    out.push_str("(CAST(");
    term(out, &e.first);
    out.push_str(" AS BIGINT)");
    for (op, t) in &e.rest {
        out.push_str(match op {
            AddOp::Add => " + ",
            AddOp::Sub => " - ",
        });
        term(out, t);
    }
    out.push(')');
}

/// `(a AND b AND …)` of `parts`, each written by `write`.
fn all<T>(out: &mut String, parts: impl IntoIterator<Item = T>, write: impl Fn(&mut String, T)) {
    out.push('(');
    for (i, p) in parts.into_iter().enumerate() {
        if i > 0 {
            out.push_str(" AND ");
        }
        write(out, p);
    }
    out.push(')');
}

/// `(len_x_s = a AND len_x_h = b AND len_x_d = c AND len_x_c = d)`.
fn pattern(out: &mut String, cols: &[String; 4], lengths: [u8; 4]) {
    all(out, cols.iter().zip(lengths), |o, (col, l)| {
        let _ = write!(o, "{col} = {l}");
    });
}

fn cond(out: &mut String, c: &Cond) {
    match c {
        // Refused by `compile` before any condition is written.
        Cond::Played(..) => out.push_str("NULL"),
        Cond::Cmp(l, op, r) => {
            expr(out, l);
            let _ = write!(out, " {} ", sql_comparison(*op));
            expr(out, r);
        }
        Cond::Range(e, lo, hi) => {
            expr(out, e);
            let _ = write!(out, " BETWEEN {lo} AND {hi}");
        }
        // With 13 cards, every suit 2..=5 leaves 4-3-3-3, 4-4-3-2, 5-3-3-2 and 5-4-2-2;
        // the doubleton count drops the last (a second 5 cannot fit).
        Cond::Balanced(s) => {
            let cols = len_cols(*s);
            out.push('(');
            for col in &cols {
                let _ = write!(out, "{col} BETWEEN 2 AND 5 AND ");
            }
            out.push('(');
            for (i, col) in cols.iter().enumerate() {
                if i > 0 {
                    out.push_str(" + ");
                }
                let _ = write!(out, "CASE WHEN {col} = 2 THEN 1 ELSE 0 END");
            }
            out.push_str(") <= 1)");
        }
        // With 13 cards, every suit 2..=6 leaves exactly the balanced shapes, 5-4-2-2 and
        // 6-3-2-2 (7-2-2-2 needs a 7).
        Cond::SemiBalanced(s) => all(out, len_cols(*s), |o, col| {
            let _ = write!(o, "{col} BETWEEN 2 AND 6");
        }),
        Cond::Shape(t) => {
            if !t.equal {
                out.push_str("NOT ");
            }
            let cols = len_cols(t.seat);
            if t.exact {
                pattern(out, &cols, t.lengths);
            } else {
                // Row-value IN (VALUES …) is SQLite's; an OR of the distinct suit orders
                // is plain SQL everywhere.
                out.push('(');
                for (j, p) in permutations(t.lengths).into_iter().enumerate() {
                    if j > 0 {
                        out.push_str(" OR ");
                    }
                    pattern(out, &cols, p);
                }
                out.push(')');
            }
        }
        Cond::Not(inner) => {
            out.push_str("NOT (");
            cond(out, inner);
            out.push(')');
        }
        Cond::And(parts) | Cond::Or(parts) => {
            let sep = if matches!(c, Cond::And(_)) {
                " AND "
            } else {
                " OR "
            };
            chain(out, parts, sep);
        }
    }
}

/// `(a SEP b SEP …)`, balanced past [`super::sql::FLAT`] operands as in the SQLite dialect:
/// `((a AND …) AND (…))`, so that a long chain parses into a tree about log₂ n deep.
fn chain(out: &mut String, parts: &[Cond], sep: &str) {
    out.push('(');
    if parts.len() <= super::sql::FLAT {
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            cond(out, p);
        }
    } else {
        let (left, right) = parts.split_at(parts.len() / 2);
        chain(out, left, sep);
        out.push_str(sep);
        chain(out, right, sep);
    }
    out.push(')');
}
