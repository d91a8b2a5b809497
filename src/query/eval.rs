//! Evaluation of a parsed query against one deal, in Rust, via [`crate::features`].
//!
//! No allocation: each term is computed from the deal's hand masks when it is reached,
//! and `and` / `or` stop at the first operand that decides them.

use crate::deal::Deal;
use crate::features::{self, Shape};

use super::{CmpOp, Cond, Term, Who};

/// The value of a number term for `deal`.
#[inline]
pub(super) fn term(t: &Term, deal: &Deal) -> i64 {
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
    })
}

/// Whether `deal` satisfies `c`.
pub(super) fn cond(c: &Cond, deal: &Deal) -> bool {
    match c {
        Cond::Cmp(l, op, r) => {
            let (a, b) = (term(l, deal), term(r, deal));
            match op {
                CmpOp::Eq => a == b,
                CmpOp::Ne => a != b,
                CmpOp::Lt => a < b,
                CmpOp::Le => a <= b,
                CmpOp::Gt => a > b,
                CmpOp::Ge => a >= b,
            }
        }
        Cond::Range(t, lo, hi) => (*lo..=*hi).contains(&term(t, deal)),
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
        Cond::Not(inner) => !cond(inner, deal),
        Cond::And(parts) => parts.iter().all(|p| cond(p, deal)),
        Cond::Or(parts) => parts.iter().any(|p| cond(p, deal)),
    }
}
