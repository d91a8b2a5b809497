//! Expressions compiled once per run into kernels: closures over a deal that call the same
//! feature functions as the query language's `--where` (`features::hcp`, suit lengths by bit
//! count), with constants folded into comparisons, instead of walking the syntax tree for
//! every deal. A kernel gives the same value as [`Ctx::eval`](super::eval::Ctx::eval), the
//! reference evaluator (a test compares them on every fixture script).
//!
//! Only expressions without state compile: `rnd` draws from the run's one sequence and
//! `tricks` shares a deal's double-dummy table with the actions, so those stay with the
//! evaluator. [`cheap_first`] reorders `&&` and `||` so that a `tricks` operand is tried
//! last: the solver runs only for the deals every other term lets through.

use super::eval::{EvalError, hand_value, imps, score, table_sum};
use super::{BinOp, Expr, Script};
use crate::model::card::Suit;
use crate::model::deal::{Deal, Hand};
use crate::model::features;

/// A compiled expression: its value over a deal (dealer's integer semantics).
pub(super) type Kernel<'a> = Box<dyn Fn(&Deal) -> Result<i64, EvalError> + Send + Sync + 'a>;

/// The Milton Work count, ace first: `pointcount`'s default.
const MILTON: [i64; 13] = [4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];

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
        Expr::Hcp(seat, suit) if script.pointcount == MILTON => {
            let (seat, only) = (*seat, suit_mask(*suit));
            Box::new(move |d| {
                let hand = Hand::from_mask(d.hand(seat).mask() & only);
                Ok(i64::from(features::hcp(hand)))
            })
        }
        Expr::Hcp(seat, suit) => {
            let (seat, suit) = (*seat, *suit);
            Box::new(move |d| Ok(table_sum(d.hand(seat).mask(), suit, &script.pointcount)))
        }
        Expr::Length(seat, suit) => {
            let (seat, only) = (*seat, suit_mask(Some(*suit)));
            Box::new(move |d| Ok(i64::from((d.hand(seat).mask() & only).count_ones())))
        }
        Expr::Shape(seat, set) => {
            let seat = *seat;
            Box::new(move |d| {
                let [s, h, di, _] = features::suit_lengths(d.hand(seat));
                Ok(i64::from(set.contains(
                    u32::from(s),
                    u32::from(h),
                    u32::from(di),
                )))
            })
        }
        Expr::Control(seat, None) => {
            let seat = *seat;
            Box::new(move |d| Ok(i64::from(features::controls(d.hand(seat)))))
        }
        Expr::HasCard(seat, card) => {
            let (seat, card) = (*seat, *card);
            Box::new(move |d| Ok(i64::from(d.hand(seat).contains(card))))
        }
        Expr::Score(vul, c, t) => {
            let (vul, c, t) = (*vul, *c, k(t));
            Box::new(move |d| Ok(score(vul, c.level, c.strain, t(d)?)))
        }
        Expr::Imps(x) => {
            let x = k(x);
            Box::new(move |d| Ok(imps(x(d)?)))
        }
        // The other functions of one hand: the evaluator's own code.
        leaf => Box::new(move |d| {
            Ok(hand_value(leaf, d, script).expect("a state-free leaf is a hand's value"))
        }),
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
    /// evaluator's value on 1,024 deals.
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
             && imps(score(vul, x4S, 10 + losers(north) / 2)) != -7\naction average hcp(north)"
                .into(),
        ));
        assert!(texts.len() > 20, "{} scripts", texts.len());
        let mut checked = 0;
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
                for piece in 0..2 {
                    shuffler.fill(piece, &mut deals);
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
