//! Expressions compiled once per run into kernels: closures that call the same feature
//! functions as the query language's `--where` (`features::hcp`, suit lengths by bit count),
//! with constants folded into comparisons, instead of walking the syntax tree for every deal.
//! A [`Kernel`] takes one deal (short-circuiting `&&`, `||` and `?:` as dealer does); a
//! [`Column`] takes a piece of deals at once, one closure call a node a piece, for an
//! expression that cannot fail. Both give the value of
//! [`Ctx::eval`](super::eval::Ctx::eval), the reference evaluator (a test compares all three
//! on every fixture script).
//!
//! Only expressions without state compile: `rnd` draws from the run's one sequence and
//! `tricks` shares a deal's double-dummy table with the actions, so those stay with the
//! evaluator. [`cheap_first`] reorders `&&` and `||` so that a `tricks` operand is tried
//! last: the solver runs only for the deals every other term lets through.

use super::eval::{EvalError, hand_value, imps, score};
use super::{BinOp, Expr, MILTON, Script, ShapeSet};
use crate::model::card::{Card, Seat, Suit};
use crate::model::deal::{Deal, Hand};
use crate::model::features;

/// A compiled expression: its value over a deal (dealer's integer semantics).
pub(super) type Kernel<'a> = Box<dyn Fn(&Deal) -> Result<i64, EvalError> + Send + Sync + 'a>;

/// Compiles `e`; None when it (or a definition it names) uses `rnd` or `tricks`.
pub(super) fn compile<'a>(e: &'a Expr, script: &'a Script) -> Option<Kernel<'a>> {
    if e.has_state(&script.definitions) {
        return None;
    }
    Some(kernel(e, script))
}

/// The kernel of a state-free expression.
fn kernel<'a>(e: &'a Expr, script: &'a Script) -> Kernel<'a> {
    let k = |e: &'a Expr| kernel(e, script);
    match e {
        Expr::Num(v) => {
            let v = *v;
            Box::new(move |_| Ok(v))
        }
        Expr::Var(i) => k(&script.definitions[*i].1),
        Expr::Not(a) => {
            let a = k(a);
            Box::new(move |d| Ok(i64::from(a(d)? == 0)))
        }
        Expr::Neg(a) => {
            let a = k(a);
            Box::new(move |d| Ok(a(d)?.wrapping_neg()))
        }
        Expr::Cond(c, a, b) => {
            let (c, a, b) = (k(c), k(a), k(b));
            Box::new(move |d| if c(d)? != 0 { a(d) } else { b(d) })
        }
        Expr::Bin(BinOp::And, a, b) => {
            let (a, b) = (k(a), k(b));
            Box::new(move |d| Ok(i64::from(a(d)? != 0 && b(d)? != 0)))
        }
        Expr::Bin(BinOp::Or, a, b) => {
            let (a, b) = (k(a), k(b));
            Box::new(move |d| Ok(i64::from(a(d)? != 0 || b(d)? != 0)))
        }
        Expr::Bin(op, a, b) => binary(*op, a, b, script),
        Expr::Score(vul, c, t) => {
            let (vul, c, t) = (*vul, *c, k(t));
            Box::new(move |d| Ok(score(vul, c.level, c.strain, t(d)?)))
        }
        Expr::Imps(x) => {
            let x = k(x);
            Box::new(move |d| Ok(imps(x(d)?)))
        }
        leaf => {
            let leaf = Leaf::of(leaf, script);
            Box::new(move |d| Ok(leaf.value(d, script)))
        }
    }
}

/// `a op b` for an arithmetic or comparison operator; a comparison with a constant on the
/// right (`hcp(north) >= 15`) folds the constant in.
fn binary<'a>(op: BinOp, a: &'a Expr, b: &'a Expr, script: &'a Script) -> Kernel<'a> {
    /// `a op v` for the comparison `f`.
    fn against<'a>(
        a: Kernel<'a>,
        v: i64,
        f: impl Fn(i64, i64) -> bool + Send + Sync + 'a,
    ) -> Kernel<'a> {
        Box::new(move |d| Ok(i64::from(f(a(d)?, v))))
    }
    /// `a op b` for the operation `f`.
    fn both<'a>(
        a: Kernel<'a>,
        b: Kernel<'a>,
        f: impl Fn(i64, i64) -> Result<i64, EvalError> + Send + Sync + 'a,
    ) -> Kernel<'a> {
        Box::new(move |d| f(a(d)?, b(d)?))
    }
    let ka = kernel(a, script);
    if let Expr::Num(v) = *b {
        match op {
            BinOp::Eq => return against(ka, v, |x, y| x == y),
            BinOp::Ne => return against(ka, v, |x, y| x != y),
            BinOp::Lt => return against(ka, v, |x, y| x < y),
            BinOp::Le => return against(ka, v, |x, y| x <= y),
            BinOp::Gt => return against(ka, v, |x, y| x > y),
            BinOp::Ge => return against(ka, v, |x, y| x >= y),
            _ => {}
        }
    }
    let kb = kernel(b, script);
    match op {
        BinOp::Eq => both(ka, kb, |x, y| Ok(i64::from(x == y))),
        BinOp::Ne => both(ka, kb, |x, y| Ok(i64::from(x != y))),
        BinOp::Lt => both(ka, kb, |x, y| Ok(i64::from(x < y))),
        BinOp::Le => both(ka, kb, |x, y| Ok(i64::from(x <= y))),
        BinOp::Gt => both(ka, kb, |x, y| Ok(i64::from(x > y))),
        BinOp::Ge => both(ka, kb, |x, y| Ok(i64::from(x >= y))),
        BinOp::Add => both(ka, kb, |x, y| Ok(x.wrapping_add(y))),
        BinOp::Sub => both(ka, kb, |x, y| Ok(x.wrapping_sub(y))),
        BinOp::Mul => both(ka, kb, |x, y| Ok(x.wrapping_mul(y))),
        BinOp::Div => both(ka, kb, |x, y| {
            x.checked_div(y).ok_or(EvalError::DivisionByZero)
        }),
        BinOp::Rem => both(ka, kb, |x, y| {
            x.checked_rem(y).ok_or(EvalError::DivisionByZero)
        }),
        BinOp::And | BinOp::Or => unreachable!("compiled by kernel"),
    }
}

/// A compiled expression over many deals at once: `out[i]` becomes its value over
/// `deals[i]` (both the same length). Every operand is computed for every deal (no
/// short-circuit), which gives the same values because such an expression cannot fail.
pub(super) type Column<'a> = Box<dyn Fn(&[Deal], &mut [i64]) + Send + Sync + 'a>;

/// Compiles `e` for whole pieces of deals; None when it has state (`rnd`, `tricks`) or could
/// fail (a `/` or `%` by anything but a positive constant).
pub(super) fn compile_column<'a>(e: &'a Expr, script: &'a Script) -> Option<Column<'a>> {
    let can_fail = |e: &Expr| matches!(e, Expr::Bin(BinOp::Div | BinOp::Rem, _, b) if !matches!(**b, Expr::Num(v) if v > 0));
    if e.has_state(&script.definitions) || e.mentions(&script.definitions, &can_fail) {
        return None;
    }
    Some(column(e, script))
}

/// `out[i] = f(a's value)`.
fn map<'a>(a: Column<'a>, f: impl Fn(i64) -> i64 + Send + Sync + 'a) -> Column<'a> {
    Box::new(move |deals, out| {
        a(deals, out);
        for x in out.iter_mut() {
            *x = f(*x);
        }
    })
}

/// `out[i] = f(a's value, b's value)`.
fn zip<'a>(
    a: Column<'a>,
    b: Column<'a>,
    f: impl Fn(i64, i64) -> i64 + Send + Sync + 'a,
) -> Column<'a> {
    Box::new(move |deals, out| {
        a(deals, out);
        let mut right = vec![0; deals.len()];
        b(deals, &mut right);
        for (x, y) in out.iter_mut().zip(right) {
            *x = f(*x, y);
        }
    })
}

/// The column kernel of an expression [`compile_column`] accepts.
fn column<'a>(e: &'a Expr, script: &'a Script) -> Column<'a> {
    let c = |e: &'a Expr| column(e, script);
    match e {
        Expr::Num(v) => {
            let v = *v;
            Box::new(move |_, out| out.fill(v))
        }
        Expr::Var(i) => c(&script.definitions[*i].1),
        Expr::Not(a) => map(c(a), |x| i64::from(x == 0)),
        Expr::Neg(a) => map(c(a), i64::wrapping_neg),
        Expr::Cond(k, a, b) => {
            let (k, a, b) = (c(k), c(a), c(b));
            Box::new(move |deals, out| {
                k(deals, out);
                let (mut yes, mut no) = (vec![0; deals.len()], vec![0; deals.len()]);
                a(deals, &mut yes);
                b(deals, &mut no);
                for ((x, y), n) in out.iter_mut().zip(yes).zip(no) {
                    *x = if *x != 0 { y } else { n };
                }
            })
        }
        Expr::Bin(op, a, b) => {
            if let Expr::Num(v) = **b {
                let a = c(a);
                return match op {
                    BinOp::Eq => map(a, move |x| i64::from(x == v)),
                    BinOp::Ne => map(a, move |x| i64::from(x != v)),
                    BinOp::Lt => map(a, move |x| i64::from(x < v)),
                    BinOp::Le => map(a, move |x| i64::from(x <= v)),
                    BinOp::Gt => map(a, move |x| i64::from(x > v)),
                    BinOp::Ge => map(a, move |x| i64::from(x >= v)),
                    BinOp::Add => map(a, move |x| x.wrapping_add(v)),
                    BinOp::Sub => map(a, move |x| x.wrapping_sub(v)),
                    BinOp::Mul => map(a, move |x| x.wrapping_mul(v)),
                    // v > 0 (compile_column): no division by zero, no overflow.
                    BinOp::Div => map(a, move |x| x / v),
                    BinOp::Rem => map(a, move |x| x % v),
                    BinOp::And => map(a, move |x| i64::from(x != 0 && v != 0)),
                    BinOp::Or => map(a, move |x| i64::from(x != 0 || v != 0)),
                };
            }
            let (a, b) = (c(a), c(b));
            match op {
                BinOp::Eq => zip(a, b, |x, y| i64::from(x == y)),
                BinOp::Ne => zip(a, b, |x, y| i64::from(x != y)),
                BinOp::Lt => zip(a, b, |x, y| i64::from(x < y)),
                BinOp::Le => zip(a, b, |x, y| i64::from(x <= y)),
                BinOp::Gt => zip(a, b, |x, y| i64::from(x > y)),
                BinOp::Ge => zip(a, b, |x, y| i64::from(x >= y)),
                BinOp::Add => zip(a, b, i64::wrapping_add),
                BinOp::Sub => zip(a, b, i64::wrapping_sub),
                BinOp::Mul => zip(a, b, i64::wrapping_mul),
                BinOp::And => zip(a, b, |x, y| i64::from(x != 0 && y != 0)),
                BinOp::Or => zip(a, b, |x, y| i64::from(x != 0 || y != 0)),
                BinOp::Div | BinOp::Rem => unreachable!("refused by compile_column"),
            }
        }
        Expr::Score(vul, k, t) => {
            let (vul, k) = (*vul, *k);
            map(c(t), move |t| score(vul, k.level, k.strain, t))
        }
        Expr::Imps(x) => map(c(x), imps),
        leaf => {
            let leaf = Leaf::of(leaf, script);
            Box::new(move |deals, out| {
                for (x, d) in out.iter_mut().zip(deals) {
                    *x = leaf.value(d, script);
                }
            })
        }
    }
}

/// A function of the deal's hands, with what it needs worked out once: the query language's
/// feature kernels where dealer's meaning is theirs.
enum Leaf<'a> {
    /// `hcp` under the default `pointcount` (4-3-2-1): `features::hcp` of the seat's cards
    /// in the mask.
    Milton(Seat, u64),
    /// A suit length: the seat's cards in the mask.
    Length(Seat, u64),
    /// `shape`: the seat's suit lengths in the set.
    Shape(Seat, &'a ShapeSet),
    /// `control(seat)`: `features::controls`.
    Controls(Seat),
    /// `hascard`.
    HasCard(Seat, Card),
    /// Any other function of the hands: the evaluator's own code.
    Other(&'a Expr),
}

impl<'a> Leaf<'a> {
    /// The leaf of `e`, a function of the hands (not an operator, a number or `rnd`/`tricks`).
    fn of(e: &'a Expr, script: &Script) -> Leaf<'a> {
        match e {
            Expr::Hcp(seat, suit) if script.pointcount == MILTON => {
                Leaf::Milton(*seat, suit_mask(*suit))
            }
            Expr::Length(seat, suit) => Leaf::Length(*seat, suit_mask(Some(*suit))),
            Expr::Shape(seat, set) => Leaf::Shape(*seat, set),
            Expr::Control(seat, None) => Leaf::Controls(*seat),
            Expr::HasCard(seat, card) => Leaf::HasCard(*seat, *card),
            other => Leaf::Other(other),
        }
    }

    /// The leaf's value over `d`.
    #[inline(always)]
    fn value(&self, d: &Deal, script: &Script) -> i64 {
        match *self {
            Leaf::Milton(seat, only) => {
                i64::from(features::hcp(Hand::from_mask(d.hand(seat).mask() & only)))
            }
            Leaf::Length(seat, only) => i64::from((d.hand(seat).mask() & only).count_ones()),
            Leaf::Shape(seat, set) => {
                let [s, h, di, _] = features::suit_lengths(d.hand(seat));
                i64::from(set.contains(u32::from(s), u32::from(h), u32::from(di)))
            }
            Leaf::Controls(seat) => i64::from(features::controls(d.hand(seat))),
            Leaf::HasCard(seat, card) => i64::from(d.hand(seat).contains(card)),
            Leaf::Other(e) => {
                hand_value(e, d, script).expect("a state-free leaf is a hand's value")
            }
        }
    }
}

/// The cards of `suit` (all 52 for None), one bit each in suited order.
fn suit_mask(suit: Option<Suit>) -> u64 {
    match suit {
        Some(s) => 0x1fff << (s as u32 * 13),
        None => (1 << 52) - 1,
    }
}

/// `e` with the operands of every `&&` and `||` swapped where the left one uses `tricks` and
/// the right one neither `tricks` nor `rnd`: the same value (operands without state can be
/// taken in either order), and the solver runs only for deals the other operand does not
/// decide.
pub(super) fn cheap_first(e: &Expr, script: &Script) -> Expr {
    let defs = &script.definitions;
    let go = |e: &Expr| Box::new(cheap_first(e, script));
    match e {
        Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
            let swap = a.uses_tricks(defs) && !b.has_state(defs) && !a.uses_rnd(defs);
            if swap {
                Expr::Bin(*op, go(b), go(a))
            } else {
                Expr::Bin(*op, go(a), go(b))
            }
        }
        Expr::Bin(op, a, b) => Expr::Bin(*op, go(a), go(b)),
        Expr::Not(a) => Expr::Not(go(a)),
        Expr::Neg(a) => Expr::Neg(go(a)),
        Expr::Cond(c, a, b) => Expr::Cond(go(c), go(a), go(b)),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::eval::Ctx;
    use super::super::{Action, EsItem};
    use super::*;
    use crate::generation::shuffle::{PIECE, Shuffler};
    use crate::generation::stream::Seed;

    /// Every state-free expression of the fixture scripts (Debian's examples and the
    /// layouts' scripts), plus a few of our own with another `pointcount`, gives the
    /// evaluator's value on 1,024 deals, by its kernel and by its column kernel.
    #[test]
    fn kernels_equal_the_evaluator_on_every_fixture_script() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dealer");
        let mut texts: Vec<(String, String)> = Vec::new();
        for sub in ["", "/layouts"] {
            for entry in std::fs::read_dir(format!("{dir}{sub}")).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if name.starts_with("Descr.") || name.ends_with(".dei") {
                    texts.push((name, std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        texts.push((
            "own".into(),
            "pointcount 6 4 3 2 1 1\ncondition hcp(north) + hcp(south, hearts) * 2 > 20 \
             && (spades(east) % 3 == 1 || !(hcp(west) - 7 >= 0 ? 1 : 0)) \
             && imps(score(vul, x4S, 10 + losers(north) / 2)) != -7\naction average hcp(north), \
             frequency (spades(north) * 3 - hcp(south) % 5 + (hearts(west) > 3 ? 2 : -1), -5, 40), \
             average !(hcp(east) >= 10 || clubs(east) < 2) && hascard(east, AS)"
                .into(),
        ));
        assert!(texts.len() > 20, "{} scripts", texts.len());
        let (mut checked, mut columns) = (0, 0);
        let mut deals = vec![Seed([0; 32]).board_deal(1); PIECE];
        for (name, text) in &texts {
            let script = match Script::parse(text) {
                Ok(s) => s,
                Err(_) if name.starts_with("error") || name.starts_with("bad") => continue,
                Err(e) => panic!("{name}: {e}"),
            };
            let mut exprs: Vec<&Expr> = script.condition.iter().collect();
            for a in &script.actions {
                match a {
                    Action::Average(_, e) | Action::Frequency(_, e, ..) => exprs.push(e),
                    Action::Frequency2(_, e, _, _, e2, ..) => exprs.extend([e, e2]),
                    Action::PrintEs(items) => exprs.extend(items.iter().filter_map(|i| match i {
                        EsItem::Expr(e) => Some(e),
                        _ => None,
                    })),
                    _ => {}
                }
            }
            let shuffler = Shuffler::new(&Seed([42; 32]), None);
            for e in exprs {
                let Some(k) = compile(e, &script) else {
                    continue;
                };
                let column = compile_column(e, &script);
                for piece in 0..2 {
                    shuffler.fill(piece, &mut deals);
                    if let Some(c) = &column {
                        let mut values = vec![0; deals.len()];
                        c(&deals, &mut values);
                        for (d, v) in deals.iter().zip(values) {
                            assert_eq!(Ok(v), k(d), "{name}: column {e:?} on {d}");
                        }
                        columns += 1;
                    }
                    for d in &deals {
                        let (mut rnd, mut solved) = (0, 0);
                        let mut ctx = Ctx {
                            script: &script,
                            deal: *d,
                            table: None,
                            rnd: &mut rnd,
                            solved: &mut solved,
                            tricks_used: false,
                        };
                        assert_eq!(k(d), ctx.eval(e), "{name}: {e:?} on {d}");
                    }
                }
                checked += 1;
            }
        }
        assert!(checked > 40, "{checked} expressions");
        assert!(columns > 60, "{columns} column pieces");
    }

    #[test]
    fn tricks_are_tried_after_the_other_operand() {
        let script = Script::parse(
            "condition tricks(south, notrump) >= 9 && hcp(north) >= 15 || rnd(2) == 0 && tricks(north, spades) > 8",
        )
        .unwrap();
        let e = cheap_first(script.condition.as_ref().unwrap(), &script);
        let Expr::Bin(BinOp::Or, left, right) = &e else {
            panic!("{e:?}")
        };
        // `tricks && hcp` becomes `hcp && tricks`; `rnd && tricks` keeps its order (rnd has state).
        assert!(
            matches!(&**left, Expr::Bin(BinOp::And, a, _) if matches!(**a, Expr::Bin(BinOp::Ge, ref h, _) if matches!(**h, Expr::Hcp(..)))),
            "{left:?}"
        );
        assert!(
            matches!(&**right, Expr::Bin(BinOp::And, a, _) if matches!(**a, Expr::Bin(BinOp::Eq, ref r, _) if matches!(**r, Expr::Rnd(..)))),
            "{right:?}"
        );
    }
}
