//! A script's definitions as a graph: what each definition uses (`rnd`, `tricks`, an operation
//! that can fail), worked out once, bottom-up, and how often each is named; and the per-deal
//! memo that lets a definition named many times be computed once a deal.
//!
//! A definition only names earlier ones (the parser refuses an identifier before its
//! definition), so one pass in definition order fills the table, and asking what an
//! expression uses walks that expression alone, never the definitions behind its
//! identifiers: time and memory linear in the script's size, however definitions share each
//! other (`d1 = d0 + d0`, …, `d60 = d59 + d59` is 60 small entries, not 2^60 nodes).

use super::{Action, BinOp, CsvItem, EsItem, Expr, Script};

/// What an expression uses, through the definitions it names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Uses {
    /// `rnd`: draws from the run's one sequence.
    pub rnd: bool,
    /// `tricks`: needs the deal's double-dummy table.
    pub tricks: bool,
    /// `/` or `%` by anything but a positive constant: may fail (division by zero).
    pub can_fail: bool,
    /// suokko's `leadtricks`: solves the opening leads, and may give a per-card value
    /// (the evaluator's `Value`, not a number).
    pub lead: bool,
}

impl Uses {
    fn or(self, other: Uses) -> Uses {
        Uses {
            rnd: self.rnd || other.rnd,
            tricks: self.tricks || other.tricks,
            can_fail: self.can_fail || other.can_fail,
            lead: self.lead || other.lead,
        }
    }

    /// True with `rnd`, `tricks` or `leadtricks`: such an expression is evaluated deal after
    /// deal, by the evaluator, not compiled.
    pub fn has_state(self) -> bool {
        self.rnd || self.tricks || self.lead
    }
}

/// The definitions' graph of a script (module docs).
#[derive(Clone, Debug)]
pub(super) struct Graph {
    /// What each definition uses, by its index.
    uses: Vec<Uses>,
    /// How many times each definition is named in the script (definitions, condition and
    /// actions).
    named: Vec<u32>,
    /// Whether each definition's value may be per card ([`Graph::per_card`]), by its index.
    per_card: Vec<bool>,
}

impl Graph {
    /// The graph of `script`'s definitions.
    pub fn of(script: &Script) -> Graph {
        let mut g = Graph {
            uses: Vec::with_capacity(script.definitions.len()),
            named: vec![0; script.definitions.len()],
            per_card: Vec::with_capacity(script.definitions.len()),
        };
        for (_, e) in &script.definitions {
            let u = g.walk(e);
            g.uses.push(u);
            let p = u.lead && g.per_card(e);
            g.per_card.push(p);
        }
        let mut roots: Vec<&Expr> = script.condition.iter().collect();
        for a in &script.actions {
            match a {
                Action::Average(_, e) | Action::Frequency(_, e, ..) | Action::BktFreq(_, e, ..) => {
                    roots.push(e)
                }
                Action::Frequency2(_, e, _, _, e2, ..) => roots.extend([e, e2]),
                Action::BktFreq2(_, e, _, _, _, e2, ..) => roots.extend([e, e2]),
                Action::PrintCompact(Some(e)) | Action::PrintOneLine(Some(e)) => roots.push(e),
                Action::PrintEs(items) => roots.extend(items.iter().filter_map(|i| match i {
                    EsItem::Expr(e) => Some(e),
                    _ => None,
                })),
                Action::CsvRpt(items) | Action::PrintRpt(items) => {
                    roots.extend(items.iter().filter_map(|i| match i {
                        CsvItem::Expr(e) => Some(e),
                        _ => None,
                    }))
                }
                _ => {}
            }
        }
        for e in roots {
            g.walk(e);
        }
        g
    }

    /// What `e` uses, through the definitions it names; counts the names it holds.
    fn walk(&mut self, e: &Expr) -> Uses {
        uses_of(&self.uses, e, Some(&mut self.named))
    }

    /// What `e` uses, through the definitions it names (a walk of `e` alone).
    pub fn uses(&self, e: &Expr) -> Uses {
        uses_of(&self.uses, e, None)
    }

    /// True when `e`'s value may be per card, not a number: suokko's `leadtricks`, and what
    /// arithmetic, comparisons, `!`, `score`, `imps` and `rnd` make of it, through the
    /// definitions `e` names; `&&` and `||` give a number, and `c ? a : b` may be per card
    /// when `a` or `b` may be. A walk of `e` alone.
    pub fn per_card(&self, e: &Expr) -> bool {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match e {
                Expr::LeadTricks(..) => return true,
                // A definition whose value may be per card.
                Expr::Var(i) if self.per_card.get(*i).copied().unwrap_or(false) => return true,
                Expr::Not(a)
                | Expr::Neg(a)
                | Expr::Imps(a)
                | Expr::Rnd(a)
                | Expr::Score(_, _, a) => stack.push(a),
                Expr::Bin(BinOp::And | BinOp::Or, ..) => {}
                Expr::Bin(_, a, b) | Expr::Cond(_, a, b) => stack.extend([&**a, &**b]),
                _ => {}
            }
        }
        false
    }

    /// What definition `i` uses.
    pub fn def_uses(&self, i: usize) -> Uses {
        self.uses[i]
    }

    /// True when definition `i` is computed once a deal and kept ([`Memo`]): it is named
    /// more than once, has no `rnd` (dealer draws anew at every use of such a definition) and
    /// is more than a number or a function of one hand. A definition named once is computed
    /// where it is named.
    pub fn memoised(&self, i: usize, script: &Script) -> bool {
        self.named[i] > 1
            && !self.uses[i].rnd
            && matches!(
                script.definitions[i].1,
                Expr::Var(_)
                    | Expr::Not(_)
                    | Expr::Neg(_)
                    | Expr::Bin(..)
                    | Expr::Cond(..)
                    | Expr::Score(..)
                    | Expr::Imps(_)
            )
    }

    /// The number of definitions.
    pub fn len(&self) -> usize {
        self.uses.len()
    }
}

/// What `e` uses, given what each definition uses (`defs`); each identifier met is counted in
/// `named` when given.
pub(super) fn uses_of(defs: &[Uses], e: &Expr, mut named: Option<&mut [u32]>) -> Uses {
    // An identifier without a definition (not made by the parser) counts as using
    // everything: the evaluator, which reports it, takes it.
    const UNKNOWN: Uses = Uses {
        rnd: true,
        tricks: true,
        can_fail: true,
        lead: true,
    };
    let mut u = Uses::default();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Var(i) => {
                if let Some(n) = named.as_deref_mut().and_then(|n| n.get_mut(*i)) {
                    *n += 1;
                }
                u = u.or(defs.get(*i).copied().unwrap_or(UNKNOWN));
            }
            Expr::Rnd(a) => {
                u.rnd = true;
                stack.push(a);
            }
            Expr::Tricks(..) | Expr::Par(..) => u.tricks = true,
            Expr::LeadTricks(..) => u.lead = true,
            Expr::Not(a) | Expr::Neg(a) | Expr::Imps(a) | Expr::Score(_, _, a) => stack.push(a),
            Expr::Bin(op, a, b) => {
                if matches!(op, BinOp::Div | BinOp::Rem) && !matches!(**b, Expr::Num(v) if v > 0) {
                    u.can_fail = true;
                }
                stack.push(a);
                stack.push(b);
            }
            Expr::Cond(c, a, b) => stack.extend([&**c, &**a, &**b]),
            _ => {}
        }
    }
    u
}

/// The values of the definitions computed for the deal in hand: a definition's value is kept
/// from its first use to the next deal ([`Memo::next_deal`]).
#[derive(Clone, Debug)]
pub(super) struct Memo {
    /// The deal each slot's value belongs to.
    stamp: Vec<u32>,
    value: Vec<i64>,
    /// The deal in hand.
    now: u32,
}

impl Memo {
    /// A memo for `n` definitions.
    pub fn new(n: usize) -> Memo {
        Memo {
            stamp: vec![0; n],
            value: vec![0; n],
            now: 1,
        }
    }

    /// Forgets every value: the next deal starts.
    #[inline]
    pub fn next_deal(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.fill(0);
            self.now = 1;
        }
    }

    /// Definition `i`'s value for the deal in hand, when computed.
    #[inline]
    pub fn get(&self, i: usize) -> Option<i64> {
        (self.stamp[i] == self.now).then(|| self.value[i])
    }

    /// Keeps definition `i`'s value for the deal in hand.
    #[inline]
    pub fn set(&mut self, i: usize, v: i64) {
        self.stamp[i] = self.now;
        self.value[i] = v;
    }
}
