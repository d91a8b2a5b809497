//! Evaluation of a parsed query against one deal, in Rust, via [`crate::model::features`].
//!
//! No allocation: each term is computed from the deal's hand masks when it is reached,
//! and `and` / `or` stop at the first operand that decides them. A `dd(…)` or `par(…)`
//! term solves the deal (a tenth of a second or more) the first time one is reached, once
//! per deal; `and` and `or` try their operands without such a term first (a sum with one
//! counts as one), so the solver runs only for deals the cheaper conditions leave
//! undecided. Sums are computed left to right in `i64`; the parser has refused every sum
//! whose partial sums could overflow, so the plain operators are exact here.
//!
//! A `lead(SEAT, strain, CARD)` term solves every lead of that leader in that strain
//! ([`crate::dd::lead_tricks`]) the first time one is reached, once per deal, leader and
//! strain. For a card the leader does not hold it has no value, as SQL's NULL: a sum or a
//! comparison with it is unknown (`None`), and conditions follow SQL's three-valued logic
//! (`not` unknown is unknown; `and` is false if an operand is false, else unknown if one
//! is; `or` is true if an operand is true, else unknown if one is). A deal matches only a
//! query that is true, as SQL's `WHERE` keeps only true rows, so the two ends agree.

use std::cell::OnceCell;

use crate::dd::{TablePar, TrickTable};
use crate::model::card::Seat;
use crate::model::contract::Strain;

use crate::model::deal::Deal;
use crate::model::features::{self, Shape};

use super::{AddOp, Cond, Expr, Term, Who};

/// What one deal's evaluation solves when first needed: its double-dummy table, and the
/// per-card lead tricks ([`crate::dd::lead_table`]) of each leader and strain.
#[derive(Default)]
pub(super) struct Table {
    /// The double-dummy table.
    dd: OnceCell<TrickTable>,
    /// The lead tables, at `leader.index() * 5 + ` the strain's place in [`Strain::ALL`].
    leads: [OnceCell<[u8; 52]>; 20],
}

impl Table {
    /// Nothing solved yet.
    pub(super) fn new() -> Table {
        Table::default()
    }

    /// Whether anything was solved (a table or a lead table).
    pub(super) fn solved(&self) -> bool {
        self.dd.get().is_some() || self.leads.iter().any(|l| l.get().is_some())
    }

    /// The deal's double-dummy table, solved on first use.
    fn dd(&self, deal: &Deal) -> &TrickTable {
        self.dd.get_or_init(|| crate::dd::solve(deal))
    }

    /// The deal's lead table for `leader` and `strain`, solved on first use.
    fn leads(&self, deal: &Deal, leader: Seat, strain: Strain) -> &[u8; 52] {
        let place = Strain::ALL.iter().position(|&s| s == strain).unwrap_or(0);
        self.leads[leader.index() * 5 + place].get_or_init(|| {
            let position = crate::dd::LeadPosition {
                deal: *deal,
                strain,
                leader,
            };
            crate::dd::lead_table(&crate::dd::lead_tricks(&[position])[0])
        })
    }
}

impl From<TrickTable> for Table {
    /// A given double-dummy table (leads still solved when asked for).
    fn from(table: TrickTable) -> Table {
        Table {
            dd: OnceCell::from(table),
            ..Table::default()
        }
    }
}

/// The value of a number term for `deal`; `None` for a lead of a card not held.
#[inline]
pub(super) fn term(t: &Term, deal: &Deal, dd: &Table) -> Option<i64> {
    Some(i64::from(match *t {
        Term::Lit(v) => return Some(v),
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
            let table = dd.dd(deal);
            match who {
                Who::Seat(s) => table.tricks(s, strain),
                Who::Side(side) => table.side_tricks(side, strain),
            }
        }
        Term::Par(side, vul, dealer) => {
            let table = dd.dd(deal);
            return Some(i64::from(table.par(dealer, vul).score_for(side)));
        }
        Term::Lead(leader, strain, card) => match dd.leads(deal, leader, strain)[card.index()] {
            crate::dd::NOT_HELD => return None,
            t => t,
        },
        // A deal alone has no played board: no value (the callers refuse such a query
        // first, naming the term: `Query::deal_only`).
        Term::Played(_) | Term::PlayedDd(..) => return None,
    }))
}

/// The value of a number (a term or a sum, left to right) for `deal`; `None` when a term
/// has none.
#[inline]
pub(super) fn expr(e: &Expr, deal: &Deal, dd: &Table) -> Option<i64> {
    let mut v = term(&e.first, deal, dd)?;
    for (op, t) in &e.rest {
        let x = term(t, deal, dd)?;
        // Cannot overflow: the parser checked each partial sum's range (Term::bounds).
        v = match op {
            AddOp::Add => v + x,
            AddOp::Sub => v - x,
        };
    }
    Some(v)
}

/// Whether `deal` satisfies `c`: `Some(true)` or `Some(false)`, `None` when unknown (a
/// `lead(…)` of a card not held decides it; SQL's three-valued logic).
pub(super) fn cond(c: &Cond, deal: &Deal, dd: &Table) -> Option<bool> {
    Some(match c {
        Cond::Cmp(l, op, r) => {
            let (a, b) = (expr(l, deal, dd)?, expr(r, deal, dd)?);
            op.holds(a, b)
        }
        Cond::Range(e, lo, hi) => (*lo..=*hi).contains(&expr(e, deal, dd)?),
        Cond::Balanced(s) => Shape::of(deal.hand(*s)).is_balanced(),
        Cond::SemiBalanced(s) => Shape::of(deal.hand(*s)).is_semi_balanced(),
        Cond::Shape(t) => t.holds(Shape::of(deal.hand(t.seat))),
        Cond::Played(..) => return None,
        Cond::Not(inner) => !cond(inner, deal, dd)?,
        // In a plan (`plan`), operands without dd(…) / par(…) / lead(…) come first: they
        // decide most deals without the solver.
        Cond::And(parts) => return kleene(parts, deal, dd, false),
        Cond::Or(parts) => return kleene(parts, deal, dd, true),
    })
}

/// `and` (`decider` false) or `or` (`decider` true) of `parts` in three-valued logic: the
/// first operand equal to `decider` decides; else unknown if one was, else `!decider`.
fn kleene(parts: &[Cond], deal: &Deal, dd: &Table, decider: bool) -> Option<bool> {
    let mut unknown = false;
    for p in parts {
        match cond(p, deal, dd) {
            Some(v) if v == decider => return Some(decider),
            Some(_) => {}
            None => unknown = true,
        }
    }
    (!unknown).then_some(!decider)
}

/// `c` with the operands of every `and` / `or` reordered for [`cond`]: those without
/// `dd(…)`, `par(…)` or `lead(…)` first, then those with one, each in their order. Done once per
/// query: sorting per deal cost two walks of every operand (a query of 1,000 `and`ed
/// conditions spent 30% of its time there).
pub(super) fn plan(c: &Cond) -> Cond {
    match c {
        Cond::Not(inner) => Cond::Not(Box::new(plan(inner))),
        Cond::And(parts) | Cond::Or(parts) => {
            let (cheap, dear): (Vec<&Cond>, Vec<&Cond>) = parts.iter().partition(|p| !solves(p));
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
        Cond::Balanced(_) | Cond::SemiBalanced(_) | Cond::Shape(_) | Cond::Played(..) => 1,
    }
}

/// The canonical text of the first term or condition of `c` about a played board, left to
/// right; `None` when `c` has none.
pub(super) fn played_part(c: &Cond) -> Option<String> {
    let in_expr = |e: &Expr| {
        e.terms()
            .find(|t| matches!(t, Term::Played(_) | Term::PlayedDd(..)))
            .map(ToString::to_string)
    };
    match c {
        Cond::Cmp(l, _, r) => in_expr(l).or_else(|| in_expr(r)),
        Cond::Range(e, ..) => in_expr(e),
        Cond::Not(inner) => played_part(inner),
        Cond::And(parts) | Cond::Or(parts) => parts.iter().find_map(played_part),
        Cond::Played(..) => Some(
            crate::Query {
                cond: c.clone(),
                plan: c.clone(),
                columns: Vec::new(),
            }
            .to_string(),
        ),
        Cond::Balanced(_) | Cond::SemiBalanced(_) | Cond::Shape(_) => None,
    }
}

/// Whether `c` has a `dd(…)` or `par(…)` term anywhere (in a sum too).
pub(super) fn uses_dd(c: &Cond) -> bool {
    has_term(c, &|t| matches!(t, Term::Dd(..) | Term::Par(..)))
}

/// Whether `c` has a `lead(…)` term anywhere (in a sum too).
pub(super) fn uses_leads(c: &Cond) -> bool {
    has_term(c, &|t| matches!(t, Term::Lead(..)))
}

/// Whether evaluating `c` may solve the deal: a `dd(…)`, `par(…)` or `lead(…)` term.
pub(super) fn solves(c: &Cond) -> bool {
    uses_dd(c) || uses_leads(c)
}

/// Whether `c` has a term `which` accepts anywhere (in a sum too).
fn has_term(c: &Cond, which: &dyn Fn(&Term) -> bool) -> bool {
    let t = |e: &Expr| e.terms().any(which);
    match c {
        Cond::Cmp(l, _, r) => t(l) || t(r),
        Cond::Range(x, ..) => t(x),
        Cond::Not(inner) => has_term(inner, which),
        Cond::And(parts) | Cond::Or(parts) => parts.iter().any(|p| has_term(p, which)),
        _ => false,
    }
}
