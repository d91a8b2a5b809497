//! Evaluation of a parsed query against one deal, in Rust, via [`crate::model::features`].
//!
//! No allocation: each term is computed from the deal's hand masks when it is reached,
//! and `and` / `or` stop at the first operand that decides them. A `dd(…)` or `par(…)`
//! term solves the deal (a tenth of a second or more) the first time one is reached, once
//! per deal; `and` and `or` try their operands without such a term first (a sum with one
//! counts as one), so the solver runs only for deals the cheaper conditions leave
//! undecided. Sums are computed left to right in `i64`; the parser has refused every sum
//! whose partial sums could overflow, so the plain operators are exact here.

use std::cell::OnceCell;

use crate::dd::TrickTable;

use crate::model::deal::Deal;
use crate::model::features::{self, Shape};

use super::{AddOp, CmpOp, Cond, Expr, Term, Who};

/// The deal's double-dummy table, solved when first needed.
pub(super) type Table = OnceCell<TrickTable>;

/// The value of a number term for `deal`.
#[inline]
pub(super) fn term(t: &Term, deal: &Deal, dd: &Table) -> i64 {
    i64::from(match *t {
        Term::Lit(v) => return v,
        Term::Hcp(Who::Seat(s)) => features::hcp(deal.hand(s)),
        Term::Hcp(Who::Side(side)) => features::side_hcp(deal, side),
        Term::Len(Who::Seat(s), suit) => deal.hand(s).suit_len(suit) as u8,
        Term::Len(Who::Side(side), suit) => features::fit(deal, side, suit),
        Term::Controls(Who::Seat(s)) => features::controls(deal.hand(s)),
        Term::Controls(Who::Side(side)) => side
            .seats()
            .iter()
            .map(|&s| features::controls(deal.hand(s)))
            .sum(),
        Term::Ltc(s) => features::losing_trick_count(deal.hand(s)),
        Term::Longest(s) => features::longest_suit(deal.hand(s)).1,
        Term::Dd(who, strain) => {
            let table = dd.get_or_init(|| crate::dd::solve(deal));
            match who {
                Who::Seat(s) => table.tricks(s, strain),
                Who::Side(side) => table.side_tricks(side, strain),
            }
        }
        Term::Par(side, vul, dealer) => {
            let table = dd.get_or_init(|| crate::dd::solve(deal));
            return i64::from(table.par(dealer, vul).score_for(side));
        }
    })
}

/// The value of a number (a term or a sum, left to right) for `deal`.
#[inline]
pub(super) fn expr(e: &Expr, deal: &Deal, dd: &Table) -> i64 {
    let mut v = term(&e.first, deal, dd);
    for (op, t) in &e.rest {
        let x = term(t, deal, dd);
        // Cannot overflow: the parser checked each partial sum's range (Term::bounds).
        v = match op {
            AddOp::Add => v + x,
            AddOp::Sub => v - x,
        };
    }
    v
}

/// Whether `deal` satisfies `c`.
pub(super) fn cond(c: &Cond, deal: &Deal, dd: &Table) -> bool {
    match c {
        Cond::Cmp(l, op, r) => {
            let (a, b) = (expr(l, deal, dd), expr(r, deal, dd));
            match op {
                CmpOp::Eq => a == b,
                CmpOp::Ne => a != b,
                CmpOp::Lt => a < b,
                CmpOp::Le => a <= b,
                CmpOp::Gt => a > b,
                CmpOp::Ge => a >= b,
            }
        }
        Cond::Range(e, lo, hi) => (*lo..=*hi).contains(&expr(e, deal, dd)),
        Cond::Balanced(s) => Shape::of(deal.hand(*s)).is_balanced(),
        Cond::SemiBalanced(s) => Shape::of(deal.hand(*s)).is_semi_balanced(),
        Cond::Shape {
            seat,
            lengths,
            exact,
            equal,
        } => {
            let shape = Shape::of(deal.hand(*seat));
            let got = if *exact { shape.0 } else { shape.sorted() };
            (got == *lengths) == *equal
        }
        Cond::Not(inner) => !cond(inner, deal, dd),
        // In a plan (`plan`), operands without dd(…) / par(…) come first: they decide most
        // deals without the solver.
        Cond::And(parts) => parts.iter().all(|p| cond(p, deal, dd)),
        Cond::Or(parts) => parts.iter().any(|p| cond(p, deal, dd)),
    }
}

/// `c` with the operands of every `and` / `or` reordered for [`cond`]: those without
/// `dd(…)` or `par(…)` first, then those with one, each in their order. Done once per
/// query: sorting per deal cost two walks of every operand (a query of 1,000 `and`ed
/// conditions spent 30% of its time there).
pub(super) fn plan(c: &Cond) -> Cond {
    match c {
        Cond::Not(inner) => Cond::Not(Box::new(plan(inner))),
        Cond::And(parts) | Cond::Or(parts) => {
            let (cheap, dear): (Vec<&Cond>, Vec<&Cond>) = parts.iter().partition(|p| !uses_dd(p));
            let parts = cheap.into_iter().chain(dear).map(plan).collect();
            match c {
                Cond::And(_) => Cond::And(parts),
                _ => Cond::Or(parts),
            }
        }
        leaf => leaf.clone(),
    }
}

/// How many conditions and terms `c` has.
pub(super) fn size(c: &Cond) -> usize {
    match c {
        Cond::Cmp(l, _, r) => 1 + l.terms().count() + r.terms().count(),
        Cond::Range(e, ..) => 1 + e.terms().count(),
        Cond::Not(inner) => 1 + size(inner),
        Cond::And(parts) | Cond::Or(parts) => 1 + parts.iter().map(size).sum::<usize>(),
        Cond::Balanced(_) | Cond::SemiBalanced(_) | Cond::Shape { .. } => 1,
    }
}

/// Whether `c` has a `dd(…)` or `par(…)` term anywhere (in a sum too).
pub(super) fn uses_dd(c: &Cond) -> bool {
    let t = |e: &Expr| e.terms().any(|t| matches!(t, Term::Dd(..) | Term::Par(..)));
    match c {
        Cond::Cmp(l, _, r) => t(l) || t(r),
        Cond::Range(x, ..) => t(x),
        Cond::Not(inner) => uses_dd(inner),
        Cond::And(parts) | Cond::Or(parts) => parts.iter().any(uses_dd),
        _ => false,
    }
}
