//! Queries no deal can match, found from each term's range alone: an interval analysis.
//!
//! Every number term has a range that holds on every deal ([`Term::bounds`], from the
//! feature definitions: a hand has 0 to 37 HCP, a suit 0 to 13 cards, …), so a sum has a
//! range too (the sum of its terms' ranges, which may be wider than the truth: it never
//! leaves out a value the sum can take). A comparison whose two sides' ranges make it false
//! whatever the values (`hcp(N) > 37`, `len(S, hearts) < 0`) *can never hold*; one they make
//! true whatever the values (`hcp(N) <= 37`) *always holds*. The verdicts fold through
//! `not` (swapped), `and` (never if an operand never holds, always if all always hold) and
//! `or` (always if an operand always holds, never if none can hold). Anything else (shapes,
//! `balanced`, a comparison the ranges leave open) is unknown, so the analysis is
//! conservative: it calls a query impossible only when no deal can match it, and says
//! nothing of a query that is merely rare (`hcp(N) >= 36`) or impossible for a reason the
//! ranges do not see (`hcp(N) > 20 and hcp(N) < 10`, `hcp(N) + hcp(S) > 40`).

use std::fmt;

use super::parser::range_by;
use super::{Cond, Error, PlayedNum, Term, Who};
use crate::model::card::Seat;
use crate::model::deal::Hand;
use crate::model::features::Comparison;

/// How many of the comparisons that make a query impossible its error lists.
const LISTED: usize = 4;

/// A comparison whose outcome is the same on every deal.
#[derive(Clone, Copy)]
struct Fixed<'a> {
    /// Its 1-based column in the query.
    column: usize,
    /// The comparison.
    cond: &'a Cond,
    /// Its outcome on every deal.
    outcome: Outcome,
}

/// A comparison's outcome on a deal, in the query's three-valued logic.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Holds,
    Fails,
    /// A term has no value (`lead(W, nt, HA)` where West does not hold ♥A): the comparison
    /// is neither true nor false, so `not` leaves it so, and a query left so matches nothing.
    NoValue,
}

/// What the analysis knows of a condition: that it always holds, never does, or never has a
/// value (with the comparisons that decide it), or nothing.
enum Known<'a> {
    Always(Vec<Fixed<'a>>),
    Never(Vec<Fixed<'a>>),
    NoValue(Vec<Fixed<'a>>),
    /// False or without a value, never true (`and` of an operand without a value and
    /// another the ranges leave open).
    NeverTrue(Vec<Fixed<'a>>),
    Unknown,
}

/// Why no deal can match `cond`, when its terms' ranges show it: the error names the column
/// of the first comparison that decides it. `columns` are the comparisons' columns in the
/// order they are written ([`super::parser::parse`]).
/// With `predealt` (N, E, S, W), over the deals that hold those cards
/// ([`Term::bounds_given`]).
pub(super) fn never(cond: &Cond, columns: &[usize], predealt: Option<&[Hand; 4]>) -> Option<Error> {
    let mut next = 0;
    let bounds = |t: &Term| match predealt {
        Some(fixed) => t.bounds_given(fixed),
        None => t.bounds(),
    };
    let no_value = |t: &Term| predealt.is_some_and(|fixed| never_held(t, fixed));
    let terms = Terms {
        bounds: &bounds,
        no_value: &no_value,
    };
    match known(cond, columns, &mut next, &terms) {
        Known::Never(fixed) | Known::NoValue(fixed) | Known::NeverTrue(fixed) => {
            Some(error(&fixed, &bounds))
        }
        Known::Always(_) | Known::Unknown => None,
    }
}

/// How the analysis sees a term: its range ([`Term::bounds`], or [`Term::bounds_given`] a
/// predeal), and whether it has no value on any deal (a lead of a card the predeal gives
/// another seat).
struct Terms<'a> {
    bounds: &'a Bounds<'a>,
    no_value: &'a dyn Fn(&Term) -> bool,
}

/// True when `t` is `lead(SEAT, strain, CARD)` and the predealt cards `fixed` keep the card
/// from the leader: another seat holds it, or the leader's 13 cards are all predealt
/// without it.
fn never_held(t: &Term, fixed: &[Hand; 4]) -> bool {
    let Term::Lead(leader, _, card) = *t else {
        return false;
    };
    let bit = 1u64 << card.index();
    let elsewhere = Seat::ALL
        .iter()
        .any(|&s| s != leader && fixed[s.index()].mask() & bit != 0);
    let own = fixed[leader.index()].mask();
    elsewhere || (own.count_ones() == 13 && own & bit == 0)
}

/// The verdict on `c`; `next` counts the comparisons met so far (every one is visited, in
/// written order, so each finds its column). Kleene's logic, as the query is evaluated: a
/// comparison with a term of no value has none; `not` keeps it so; `and` is false when an
/// operand is, `or` true when an operand is, and otherwise without a value when an operand
/// is; what the verdicts cannot decide is unknown.
fn known<'a>(c: &'a Cond, columns: &[usize], next: &mut usize, terms: &Terms<'_>) -> Known<'a> {
    match c {
        Cond::Cmp(..) | Cond::Range(..) => {
            let column = columns.get(*next).copied().unwrap_or(1);
            *next += 1;
            let outcome = match cond_terms(c).any(|t| (terms.no_value)(t)) {
                true => Some(Outcome::NoValue),
                false => outcome(c, terms.bounds).map(|holds| match holds {
                    true => Outcome::Holds,
                    false => Outcome::Fails,
                }),
            };
            let Some(outcome) = outcome else {
                return Known::Unknown;
            };
            let fixed = vec![Fixed {
                column,
                cond: c,
                outcome,
            }];
            match outcome {
                Outcome::Holds => Known::Always(fixed),
                Outcome::Fails => Known::Never(fixed),
                Outcome::NoValue => Known::NoValue(fixed),
            }
        }
        Cond::Balanced(_) | Cond::SemiBalanced(_) | Cond::Shape(_) | Cond::Played(..) => {
            Known::Unknown
        }
        Cond::Not(inner) => match known(inner, columns, next, terms) {
            Known::Always(f) => Known::Never(f),
            Known::Never(f) => Known::Always(f),
            Known::NoValue(f) => Known::NoValue(f),
            // True where it was false.
            Known::NeverTrue(_) | Known::Unknown => Known::Unknown,
        },
        Cond::And(parts) | Cond::Or(parts) => {
            let and = matches!(c, Cond::And(_));
            // Every operand is visited (each comparison must meet its column).
            let verdicts: Vec<Known<'a>> = parts
                .iter()
                .map(|p| known(p, columns, next, terms))
                .collect();
            // `and`: one operand that never holds decides it; all must always hold for it
            // to; an operand without a value, or never true, keeps it from being true.
            // `or`: one that always holds decides it; all must be false or without a value
            // for it never to hold.
            let mut all = Vec::new();
            let (mut unknown, mut no_value, mut never_true) = (false, false, false);
            for v in verdicts {
                match (v, and) {
                    (Known::Never(f), true) => return Known::Never(f),
                    (Known::Always(f), false) => return Known::Always(f),
                    (Known::Always(f), true) | (Known::Never(f), false) => all.extend(f),
                    (Known::NoValue(f), _) => {
                        no_value = true;
                        all.extend(f);
                    }
                    (Known::NeverTrue(f), _) => {
                        never_true = true;
                        all.extend(f);
                    }
                    (Known::Unknown, _) => unknown = true,
                }
            }
            match (and, unknown, never_true, no_value) {
                // `and`: false or without a value as soon as one operand cannot be true.
                (true, _, true, _) | (true, true, false, true) => Known::NeverTrue(all),
                (true, false, false, true) => Known::NoValue(all),
                (true, false, false, false) => Known::Always(all),
                // `or`: never true only when no operand can be.
                (false, true, ..) => Known::Unknown,
                (false, false, true, _) => Known::NeverTrue(all),
                (false, false, false, true) => Known::NoValue(all),
                (false, false, false, false) => Known::Never(all),
                (true, true, false, false) => Known::Unknown,
            }
        }
    }
}

/// The terms of a comparison, left side first.
fn cond_terms(c: &Cond) -> Box<dyn Iterator<Item = &Term> + '_> {
    match c {
        Cond::Cmp(l, _, r) => Box::new(l.terms().chain(r.terms())),
        Cond::Range(e, ..) => Box::new(e.terms()),
        _ => Box::new(std::iter::empty()),
    }
}

/// Whether the comparison `c` holds on every deal (`Some(true)`), on none (`Some(false)`),
/// or depends on the deal as far as its terms' ranges tell (`None`).
fn outcome(c: &Cond, bounds: &Bounds<'_>) -> Option<bool> {
    let range = |e| range_by(e, bounds);
    match c {
        Cond::Cmp(l, op, r) => {
            // The range of l − r, exact in i128 (each side's range is within i64).
            let ((l_lo, l_hi), (r_lo, r_hi)) = (range(l), range(r));
            let (lo, hi) = (l_lo - r_hi, l_hi - r_lo);
            let (always, never) = match op {
                Comparison::Eq => (lo == 0 && hi == 0, lo > 0 || hi < 0),
                Comparison::Ne => (lo > 0 || hi < 0, lo == 0 && hi == 0),
                Comparison::Lt => (hi < 0, lo >= 0),
                Comparison::Le => (hi <= 0, lo > 0),
                Comparison::Gt => (lo > 0, hi <= 0),
                Comparison::Ge => (lo >= 0, hi < 0),
            };
            decided(always, never)
        }
        Cond::Range(e, from, to) => {
            let (a, b) = range(e);
            let (from, to) = (i128::from(*from), i128::from(*to));
            decided(a >= from && b <= to, b < from || a > to)
        }
        _ => None,
    }
}

/// `Some(true)` when `always`, `Some(false)` when `never`, else `None`.
fn decided(always: bool, never: bool) -> Option<bool> {
    match (always, never) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    }
}

/// The range of a term in words, as the feature defines it (`None` for a literal).
fn fact(t: &Term) -> Option<&'static str> {
    Some(match t {
        Term::Lit(_) => return None,
        Term::Hcp(Who::Seat(_)) => "a hand has 0 to 37 HCP",
        Term::Hcp(Who::Side(_)) => "a side has 0 to 40 HCP",
        Term::Len(Who::Seat(_), _) => "a hand holds 0 to 13 cards of a suit",
        Term::Len(Who::Side(_), _) => "a side holds 0 to 13 cards of a suit",
        Term::Controls(Who::Seat(_)) => "a hand has 0 to 12 controls",
        Term::Controls(Who::Side(_)) => "a side has 0 to 12 controls",
        Term::Ltc(_) => "a hand has 0 to 12 losers",
        Term::Longest(_) => "a hand's longest suit has 4 to 13 cards",
        Term::Dd(..) => "a declarer takes 0 to 13 tricks",
        Term::Par(..) => "a par score is within -7600 to 7600",
        Term::Lead(..) => "the defence takes 0 to 13 tricks",
        Term::PlayedDd(..) => "a declarer takes 0 to 13 tricks",
        Term::Played(n) => match n {
            PlayedNum::Level => "a contract's level is 1 to 7",
            PlayedNum::Doubled => "doubled is 0 to 2",
            PlayedNum::Result => "a result is -13 to +6",
            PlayedNum::Score | PlayedNum::Par => "a score is within -7600 to 7600",
            PlayedNum::Board => "a board number is 0 or more",
            PlayedNum::Tricks => "declarer takes 0 to 13 tricks",
            PlayedNum::DeclarerLost | PlayedNum::DefenceLost | PlayedNum::LeadCost => {
                "a side gives away 0 to 13 tricks"
            }
        },
    })
}

/// Why the comparison `c` is decided: the ranges of its terms, in words (a term the
/// predealt cards narrow, `bounds` giving less than [`Term::bounds`], says so).
fn reason(c: &Cond, bounds: &Bounds<'_>) -> String {
    let terms: Vec<&Term> = cond_terms(c).collect();
    let mut facts: Vec<String> = Vec::new();
    let narrowed = terms.iter().filter_map(|t| {
        let (lo, hi) = bounds(t);
        (bounds(t) != t.bounds()).then(|| format!("with the predealt cards, {t} is {lo} to {hi}"))
    });
    let general = terms
        .iter()
        .filter_map(|t| (bounds(t) == t.bounds()).then(|| fact(t)).flatten());
    for f in narrowed.chain(general.map(str::to_owned)) {
        if !facts.contains(&f) {
            facts.push(f);
        }
    }
    if facts.is_empty() {
        "it compares fixed numbers".to_owned()
    } else {
        facts.join(", and ")
    }
}

/// Why a comparison has no value: the lead term whose card the predeal keeps from the leader.
fn lead_reason(c: &Cond) -> String {
    cond_terms(c)
        .find_map(|t| match t {
            Term::Lead(leader, _, card) => Some(format!(
                "with the predealt cards, {} does not hold {card}, so {t} has none",
                leader.name()
            )),
            _ => None,
        })
        .unwrap_or_default()
}

/// How the analysis bounds a term: [`Term::bounds`], or [`Term::bounds_given`] a predeal.
type Bounds<'a> = dyn Fn(&Term) -> (i64, i64) + 'a;

/// A condition in the query's canonical text.
struct Show<'a>(&'a Cond);

impl fmt::Display for Show<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::write_cond(f, self.0)
    }
}

/// The error for a query its comparisons `fixed` make impossible (at least one), at the
/// first one's column: `hcp(N) > 37 can never hold: a hand has 0 to 37 HCP; no deal can
/// match the query`, more of them listed with their columns.
fn error(fixed: &[Fixed<'_>], bounds: &Bounds<'_>) -> Error {
    let item = |x: &Fixed<'_>| match x.outcome {
        Outcome::Holds => format!("{} always holds: {}", Show(x.cond), reason(x.cond, bounds)),
        Outcome::Fails => format!(
            "{} can never hold: {}",
            Show(x.cond),
            reason(x.cond, bounds)
        ),
        Outcome::NoValue => format!(
            "{} has no value on any deal: {}",
            Show(x.cond),
            lead_reason(x.cond)
        ),
    };
    let mut message = fixed.first().map(item).unwrap_or_default();
    for x in fixed.iter().skip(1).take(LISTED - 1) {
        message.push_str(&format!("; at column {}, {}", x.column, item(x)));
    }
    if fixed.len() > LISTED {
        message.push_str(&format!(
            "; and {} more such comparisons",
            fixed.len() - LISTED
        ));
    }
    message.push_str("; so no deal can match the query");
    Error::syntax(fixed.first().map_or(1, |x| x.column), message)
}
