//! Expressions compiled once per run into kernels: closures that call the same feature
//! functions as the query language's `--where` (`features::hcp`, suit lengths by bit count),
//! with constants folded into comparisons, instead of walking the syntax tree for every deal.
//! A [`Kernel`] takes one deal (short-circuiting `&&`, `||` and `?:` as dealer does); a
//! [`Column`] takes a piece of deals at once, one closure call a node a piece, for an
//! expression that cannot fail. Both give the value of
//! [`Ctx::eval`](super::eval::Ctx::eval), the reference evaluator (a test compares all three
//! on every fixture script).
//!
//! Definitions are a graph ([`Graph`]), not text to paste: a definition named once is
//! compiled where it is named; one named more often is compiled once into the [`Program`] and
//! its value kept for the deal (a kernel's [`Memo`]) or the piece (a column's cache), so every
//! definition is computed at most once a deal and compile time and memory stay linear in the
//! script's size.
//!
//! Only expressions without state compile: `rnd` draws from the run's one sequence and
//! `tricks` shares a deal's double-dummy table with the actions, so those stay with the
//! evaluator. [`cheap_first`] reorders `&&` and `||` so that a `tricks` operand is tried
//! last: the solver runs only for the deals every other term lets through.

use super::Error;
use super::eval::{contract_score, hand_value, imps};
use super::graph::{Graph, Memo};
use super::{BinOp, Expr, MILTON, Script, ShapeSet};
use crate::model::card::{Card, Seat, Suit};
use crate::model::deal::{Deal, Hand};
use crate::model::features;
use crate::model::features::Comparison;

/// What a kernel reads besides the deal: the program's shared definitions and the values
/// already computed for the deal.
pub(super) struct Frame<'k, 'a> {
    defs: &'k [Option<Kernel<'a>>],
    memo: &'k mut Memo,
}

/// A compiled expression: its value over a deal (dealer's integer semantics).
pub(super) type Kernel<'a> =
    Box<dyn Fn(&Deal, &mut Frame<'_, 'a>) -> Result<i64, Error> + Send + Sync + 'a>;

/// What a column kernel reads besides the deals: the program's shared definitions, the
/// columns already computed for these deals, and, for the operand of a short-circuit
/// (`&&`, `||`, `?:`) taken on some of the piece's deals only, the frame of the whole and
/// which of its deals these are (so a definition computed there is gathered, not computed
/// again).
pub(super) struct ColumnFrame<'k, 'a> {
    defs: &'k [Option<Column<'a>>],
    /// Shared definitions' columns computed over this frame's deals, by definition.
    cache: Vec<(usize, Vec<i64>)>,
    /// The number of this frame's deals.
    len: usize,
    /// The enclosing frame and the rows of its deals this frame's deals are.
    parent: Option<(&'k ColumnFrame<'k, 'a>, &'k [u32])>,
}

impl ColumnFrame<'_, '_> {
    /// Definition `i`'s column over this frame's deals, computed by this frame.
    fn own(&self, i: usize) -> Option<&[i64]> {
        self.cache
            .iter()
            .find(|(d, _)| *d == i)
            .map(|(_, v)| v.as_slice())
    }

    /// Writes definition `i`'s column over this frame's deals to `out` and returns true,
    /// when this frame or an enclosing one has computed it.
    fn cached_into(&self, i: usize, out: &mut [i64]) -> bool {
        if let Some(v) = self.own(i) {
            out.copy_from_slice(v);
            return true;
        }
        let Some((parent, rows)) = self.parent else {
            return false;
        };
        let mut whole = scratch(parent.len);
        let found = parent.cached_into(i, &mut whole);
        if found {
            for (o, &r) in out.iter_mut().zip(rows) {
                *o = whole[r as usize];
            }
        }
        give_back(whole);
        found
    }
}

impl Drop for ColumnFrame<'_, '_> {
    fn drop(&mut self) {
        for (_, v) in self.cache.drain(..) {
            give_back(v);
        }
    }
}

thread_local! {
    /// Columns no longer used, kept for the next piece: a piece's kernels then allocate
    /// nothing once the first pieces have run.
    static SCRATCH: std::cell::RefCell<Vec<Vec<i64>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A column of `n` zeros, from [`SCRATCH`] when it has one.
fn scratch(n: usize) -> Vec<i64> {
    match SCRATCH.with_borrow_mut(Vec::pop) {
        Some(mut v) => {
            v.clear();
            v.resize(n, 0);
            v
        }
        None => vec![0; n],
    }
}

/// Keeps `v` in [`SCRATCH`] for [`scratch`] (up to 256 columns a thread).
fn give_back(v: Vec<i64>) {
    SCRATCH.with_borrow_mut(|pool| {
        if pool.len() < 256 {
            pool.push(v);
        }
    });
}

/// Runs `k` over the deals of `rows` (indices into `deals`, ascending) only, in a frame
/// under `f`, and writes its values to `out` at those rows; the other rows of `out` are
/// left alone. When most rows are wanted, `k` runs over all the deals instead (it cannot
/// fail, so computing it where it is not needed changes nothing).
fn on_rows<'a>(
    k: &Column<'a>,
    deals: &[Deal],
    rows: &[u32],
    out: &mut [i64],
    f: &mut ColumnFrame<'_, 'a>,
) {
    if rows.is_empty() {
        return;
    }
    if rows.len() * 4 >= deals.len() * 3 {
        let mut all = scratch(deals.len());
        k(deals, &mut all, f);
        for &r in rows {
            out[r as usize] = all[r as usize];
        }
        give_back(all);
        return;
    }
    let picked: Vec<Deal> = rows.iter().map(|&r| deals[r as usize]).collect();
    let mut values = scratch(rows.len());
    let mut sub = ColumnFrame {
        defs: f.defs,
        cache: Vec::new(),
        len: picked.len(),
        parent: Some((&*f, rows)),
    };
    k(&picked, &mut values, &mut sub);
    drop(sub);
    for (&r, &v) in rows.iter().zip(&values) {
        out[r as usize] = v;
    }
    give_back(values);
}

/// The rows of `values` that are non-zero (`true`) or zero (`false`).
fn rows_where(values: &[i64], nonzero: bool) -> Vec<u32> {
    // Without branches: every row is written, and the count moves on past the wanted ones.
    let mut rows = vec![0; values.len()];
    let mut n = 0;
    for (i, &v) in values.iter().enumerate() {
        rows[n] = i as u32;
        n += usize::from((v != 0) == nonzero);
    }
    rows.truncate(n);
    rows
}

/// A compiled expression over many deals at once: `out[i]` becomes its value over
/// `deals[i]` (both the same length). `&&`, `||` and `?:` take their second operand (or
/// branch) only over the deals that need it ([`on_rows`]); any other operand is computed for
/// every deal, which gives the same values because such an expression cannot fail.
pub(super) type Column<'a> =
    Box<dyn Fn(&[Deal], &mut [i64], &mut ColumnFrame<'_, 'a>) + Send + Sync + 'a>;

/// The kernels of a script's shared definitions (those [`Graph::memoised`] names), compiled
/// once, in definition order; the condition's and the actions' kernels read them.
pub(super) struct Program<'a> {
    script: &'a Script,
    graph: &'a Graph,
    defs: Vec<Option<Kernel<'a>>>,
    columns: Vec<Option<Column<'a>>>,
}

impl<'a> Program<'a> {
    /// Compiles the shared definitions of `script` (`graph` is its graph).
    pub fn new(script: &'a Script, graph: &'a Graph) -> Program<'a> {
        let mut p = Program {
            script,
            graph,
            defs: Vec::with_capacity(graph.len()),
            columns: Vec::with_capacity(graph.len()),
        };
        for (i, (_, e)) in script.definitions.iter().enumerate() {
            let uses = graph.def_uses(i);
            let shared = graph.memoised(i, script) && !uses.has_state();
            let k = shared.then(|| p.kernel(e));
            let c = (shared && !uses.can_fail).then(|| p.column(e));
            p.defs.push(k);
            p.columns.push(c);
        }
        p
    }

    /// Compiles `e`; None when it (or a definition it names) uses `rnd` or `tricks`.
    pub fn compile(&self, e: &'a Expr) -> Option<Kernel<'a>> {
        if self.graph.uses(e).has_state() {
            return None;
        }
        Some(self.kernel(e))
    }

    /// Compiles `e` for whole pieces of deals; None when it has state (`rnd`, `tricks`) or
    /// could fail (a `/` or `%` by anything but a positive constant).
    pub fn compile_column(&self, e: &'a Expr) -> Option<Column<'a>> {
        let uses = self.graph.uses(e);
        if uses.has_state() || uses.can_fail {
            return None;
        }
        Some(self.column(e))
    }

    /// A memo for the evaluation of this program's kernels (one per thread).
    pub fn memo(&self) -> Memo {
        Memo::new(self.defs.len())
    }

    /// The value of the kernel `k` over `deal` (a new deal for `memo`).
    #[inline]
    pub fn run(&self, k: &Kernel<'a>, deal: &Deal, memo: &mut Memo) -> Result<i64, Error> {
        memo.next_deal();
        k(
            deal,
            &mut Frame {
                defs: &self.defs,
                memo,
            },
        )
    }

    /// The values of the column kernel `c` over `deals`, into `out` (the same length); false
    /// when an arithmetic operation overflowed on some deal. The column computes operands
    /// of `&&`, `||` and `?:` on deals that do not need them, so an overflow there may be no
    /// error: the caller evaluates the deals again with [`Program::run`], which says.
    #[must_use]
    pub fn run_column(&self, c: &Column<'a>, deals: &[Deal], out: &mut [i64]) -> bool {
        let mut frame = ColumnFrame {
            defs: &self.columns,
            cache: Vec::new(),
            len: deals.len(),
            parent: None,
        };
        OVERFLOWED.set(false);
        c(deals, out, &mut frame);
        !OVERFLOWED.replace(false)
    }

    /// The kernel of a state-free expression.
    fn kernel(&self, e: &'a Expr) -> Kernel<'a> {
        let k = |e: &'a Expr| self.kernel(e);
        match e {
            Expr::Num(v) => {
                let v = *v;
                Box::new(move |_, _| Ok(v))
            }
            Expr::Var(i) if self.defs.get(*i).is_some_and(Option::is_some) => {
                let i = *i;
                Box::new(move |d, f| {
                    if let Some(v) = f.memo.get(i) {
                        return Ok(v);
                    }
                    let defs = f.defs;
                    let v = defs[i].as_ref().expect("a shared definition's kernel")(d, f)?;
                    f.memo.set(i, v);
                    Ok(v)
                })
            }
            Expr::Var(i) => k(&self.script.definitions[*i].1),
            Expr::Not(a) => {
                let a = k(a);
                Box::new(move |d, f| Ok(i64::from(a(d, f)? == 0)))
            }
            Expr::Neg(a) => {
                let a = k(a);
                Box::new(move |d, f| a(d, f)?.checked_neg().ok_or_else(Error::overflow))
            }
            Expr::Cond(c, a, b) => {
                let (c, a, b) = (k(c), k(a), k(b));
                Box::new(move |d, f| if c(d, f)? != 0 { a(d, f) } else { b(d, f) })
            }
            Expr::Bin(BinOp::And, a, b) => {
                let (a, b) = (k(a), k(b));
                Box::new(move |d, f| Ok(i64::from(a(d, f)? != 0 && b(d, f)? != 0)))
            }
            Expr::Bin(BinOp::Or, a, b) => {
                let (a, b) = (k(a), k(b));
                Box::new(move |d, f| Ok(i64::from(a(d, f)? != 0 || b(d, f)? != 0)))
            }
            Expr::Bin(op, a, b) => self.binary(*op, a, b),
            Expr::Score(vul, c, t) => {
                let (vul, c, t) = (*vul, *c, k(t));
                Box::new(move |d, f| Ok(contract_score(vul, &c, t(d, f)?)))
            }
            Expr::Imps(x) => {
                let x = k(x);
                Box::new(move |d, f| Ok(imps(x(d, f)?)))
            }
            leaf => {
                let script = self.script;
                let leaf = Leaf::of(leaf, script);
                Box::new(move |d, _| Ok(leaf.value(d, script)))
            }
        }
    }

    /// `a op b` for an arithmetic or comparison operator; a comparison with a constant on
    /// the right (`hcp(north) >= 15`) folds the constant in.
    fn binary(&self, op: BinOp, a: &'a Expr, b: &'a Expr) -> Kernel<'a> {
        /// `a op v` for the comparison `f`.
        fn against<'a>(
            a: Kernel<'a>,
            v: i64,
            f: impl Fn(i64, i64) -> bool + Send + Sync + 'a,
        ) -> Kernel<'a> {
            Box::new(move |d, fr| Ok(i64::from(f(a(d, fr)?, v))))
        }
        /// `a op b` for the operation `f`.
        fn both<'a>(
            a: Kernel<'a>,
            b: Kernel<'a>,
            f: impl Fn(i64, i64) -> Result<i64, Error> + Send + Sync + 'a,
        ) -> Kernel<'a> {
            Box::new(move |d, fr| {
                let x = a(d, fr)?;
                f(x, b(d, fr)?)
            })
        }
        let ka = self.kernel(a);
        // One closure per comparison (not `c.holds` in one closure), so that each is compiled
        // with its operator and no match runs per deal.
        if let (BinOp::Cmp(c), Expr::Num(v)) = (op, b) {
            let v = *v;
            return match c {
                Comparison::Eq => against(ka, v, |x, y| x == y),
                Comparison::Ne => against(ka, v, |x, y| x != y),
                Comparison::Lt => against(ka, v, |x, y| x < y),
                Comparison::Le => against(ka, v, |x, y| x <= y),
                Comparison::Gt => against(ka, v, |x, y| x > y),
                Comparison::Ge => against(ka, v, |x, y| x >= y),
            };
        }
        let kb = self.kernel(b);
        match op {
            BinOp::Cmp(c) => match c {
                Comparison::Eq => both(ka, kb, |x, y| Ok(i64::from(x == y))),
                Comparison::Ne => both(ka, kb, |x, y| Ok(i64::from(x != y))),
                Comparison::Lt => both(ka, kb, |x, y| Ok(i64::from(x < y))),
                Comparison::Le => both(ka, kb, |x, y| Ok(i64::from(x <= y))),
                Comparison::Gt => both(ka, kb, |x, y| Ok(i64::from(x > y))),
                Comparison::Ge => both(ka, kb, |x, y| Ok(i64::from(x >= y))),
            },
            BinOp::Add => both(ka, kb, |x, y| x.checked_add(y).ok_or_else(Error::overflow)),
            BinOp::Sub => both(ka, kb, |x, y| x.checked_sub(y).ok_or_else(Error::overflow)),
            BinOp::Mul => both(ka, kb, |x, y| x.checked_mul(y).ok_or_else(Error::overflow)),
            BinOp::Div => both(ka, kb, |x, y| {
                x.checked_div(y).ok_or_else(Error::division_by_zero)
            }),
            BinOp::Rem => both(ka, kb, |x, y| {
                x.checked_rem(y).ok_or_else(Error::division_by_zero)
            }),
            BinOp::And | BinOp::Or => unreachable!("compiled by kernel"),
        }
    }

    /// The column kernel of an expression [`Program::compile_column`] accepts.
    fn column(&self, e: &'a Expr) -> Column<'a> {
        let c = |e: &'a Expr| self.column(e);
        match e {
            Expr::Num(v) => {
                let v = *v;
                Box::new(move |_, out, _| out.fill(v))
            }
            Expr::Var(i) if self.columns.get(*i).is_some_and(Option::is_some) => {
                let i = *i;
                Box::new(move |deals, out, f| {
                    if f.cached_into(i, out) {
                        return;
                    }
                    let defs = f.defs;
                    defs[i].as_ref().expect("a shared definition's column")(deals, out, f);
                    let mut kept = scratch(out.len());
                    kept.copy_from_slice(out);
                    f.cache.push((i, kept));
                })
            }
            Expr::Var(i) => c(&self.script.definitions[*i].1),
            Expr::Not(a) => map(c(a), |x| i64::from(x == 0)),
            Expr::Neg(a) => map_checked(c(a), |x| x.overflowing_neg()),
            Expr::Cond(k, a, b) => {
                let (k, a, b) = (c(k), c(a), c(b));
                Box::new(move |deals, out, f| {
                    k(deals, out, f);
                    let (yes, no) = (rows_where(out, true), rows_where(out, false));
                    on_rows(&a, deals, &yes, out, f);
                    on_rows(&b, deals, &no, out, f);
                })
            }
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) if !matches!(**b, Expr::Num(_)) => {
                let (a, b) = (c(a), c(b));
                // `a && b`: b over the deals where a holds; `a || b`: where a does not.
                let and = *op == BinOp::And;
                Box::new(move |deals, out, f| {
                    a(deals, out, f);
                    let rows = rows_where(out, and);
                    for x in out.iter_mut() {
                        *x = i64::from(*x != 0);
                    }
                    on_rows(&b, deals, &rows, out, f);
                    for &r in &rows {
                        let x = &mut out[r as usize];
                        *x = i64::from(*x != 0);
                    }
                })
            }
            Expr::Bin(op, a, b) => self.column_binary(*op, a, b),
            Expr::Score(vul, k, t) => {
                let (vul, k) = (*vul, *k);
                map(c(t), move |t| contract_score(vul, &k, t))
            }
            Expr::Imps(x) => map(c(x), imps),
            leaf => {
                let script = self.script;
                let leaf = Leaf::of(leaf, script);
                Box::new(move |deals, out, _| {
                    for (x, d) in out.iter_mut().zip(deals) {
                        *x = leaf.value(d, script);
                    }
                })
            }
        }
    }

    /// The column kernel of `a op b` for an arithmetic or comparison operator (or `&&`, `||`
    /// with a constant); a constant on the right (`hcp(north) >= 15`) is folded in, and each
    /// comparison gets its own closure, so that no match runs per row.
    fn column_binary(&self, op: BinOp, a: &'a Expr, b: &'a Expr) -> Column<'a> {
        let a = self.column(a);
        if let Expr::Num(v) = *b {
            return match op {
                BinOp::Cmp(cmp) => match cmp {
                    Comparison::Eq => map(a, move |x| i64::from(x == v)),
                    Comparison::Ne => map(a, move |x| i64::from(x != v)),
                    Comparison::Lt => map(a, move |x| i64::from(x < v)),
                    Comparison::Le => map(a, move |x| i64::from(x <= v)),
                    Comparison::Gt => map(a, move |x| i64::from(x > v)),
                    Comparison::Ge => map(a, move |x| i64::from(x >= v)),
                },
                BinOp::Add => map_checked(a, move |x| x.overflowing_add(v)),
                BinOp::Sub => map_checked(a, move |x| x.overflowing_sub(v)),
                BinOp::Mul => map_checked(a, move |x| x.overflowing_mul(v)),
                // v > 0 (compile_column): no division by zero, no overflow.
                BinOp::Div => map(a, move |x| x / v),
                BinOp::Rem => map(a, move |x| x % v),
                BinOp::And => map(a, move |x| i64::from(x != 0 && v != 0)),
                BinOp::Or => map(a, move |x| i64::from(x != 0 || v != 0)),
            };
        }
        let b = self.column(b);
        match op {
            BinOp::Cmp(cmp) => match cmp {
                Comparison::Eq => zip(a, b, |x, y| i64::from(x == y)),
                Comparison::Ne => zip(a, b, |x, y| i64::from(x != y)),
                Comparison::Lt => zip(a, b, |x, y| i64::from(x < y)),
                Comparison::Le => zip(a, b, |x, y| i64::from(x <= y)),
                Comparison::Gt => zip(a, b, |x, y| i64::from(x > y)),
                Comparison::Ge => zip(a, b, |x, y| i64::from(x >= y)),
            },
            BinOp::Add => zip_checked(a, b, i64::overflowing_add),
            BinOp::Sub => zip_checked(a, b, i64::overflowing_sub),
            BinOp::Mul => zip_checked(a, b, i64::overflowing_mul),
            BinOp::And => zip(a, b, |x, y| i64::from(x != 0 && y != 0)),
            BinOp::Or => zip(a, b, |x, y| i64::from(x != 0 || y != 0)),
            BinOp::Div | BinOp::Rem => unreachable!("refused by compile_column"),
        }
    }
}

/// `out[i] = f(a's value)`.
fn map<'a>(a: Column<'a>, f: impl Fn(i64) -> i64 + Send + Sync + 'a) -> Column<'a> {
    // Never overflows: the flag is a constant false, folded away.
    map_checked(a, move |x| (f(x), false))
}

thread_local! {
    /// Set when a column kernel's `+`, `-`, `*` or minus sign overflowed on some row
    /// ([`Program::run_column`] clears it and reports it).
    static OVERFLOWED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `out[i] = f(a's value)` for an arithmetic `f` that says whether it overflowed: the
/// overflow is noted in [`OVERFLOWED`] (one check a piece, so the loop stays branch-free).
fn map_checked<'a>(a: Column<'a>, f: impl Fn(i64) -> (i64, bool) + Send + Sync + 'a) -> Column<'a> {
    Box::new(move |deals, out, fr| {
        a(deals, out, fr);
        let mut any = false;
        for x in out.iter_mut() {
            let (v, o) = f(*x);
            *x = v;
            any |= o;
        }
        if any {
            OVERFLOWED.set(true);
        }
    })
}

/// [`zip`] for an arithmetic `f` that says whether it overflowed ([`map_checked`]).
fn zip_checked<'a>(
    a: Column<'a>,
    b: Column<'a>,
    f: impl Fn(i64, i64) -> (i64, bool) + Send + Sync + 'a,
) -> Column<'a> {
    Box::new(move |deals, out, fr| {
        a(deals, out, fr);
        let mut right = scratch(deals.len());
        b(deals, &mut right, fr);
        let mut any = false;
        for (x, &y) in out.iter_mut().zip(&right) {
            let (v, o) = f(*x, y);
            *x = v;
            any |= o;
        }
        give_back(right);
        if any {
            OVERFLOWED.set(true);
        }
    })
}

/// `out[i] = f(a's value, b's value)`.
fn zip<'a>(
    a: Column<'a>,
    b: Column<'a>,
    f: impl Fn(i64, i64) -> i64 + Send + Sync + 'a,
) -> Column<'a> {
    // Never overflows: the flag is a constant false, folded away.
    zip_checked(a, b, move |x, y| (f(x, y), false))
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
pub(super) fn cheap_first(e: &Expr, graph: &Graph) -> Expr {
    let go = |e: &Expr| Box::new(cheap_first(e, graph));
    match e {
        Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
            let (ua, ub) = (graph.uses(a), graph.uses(b));
            let swap = (ua.tricks || ua.lead) && !ub.has_state() && !ua.rnd;
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
    use super::super::graph::Memo;
    use super::super::{Action, EsItem};
    use super::*;
    use crate::generation::shuffle::{PIECE, Shuffler};
    use crate::generation::stream::Seed;

    /// The evaluator's value of `e` over `deal`, a new deal for `memo` (no table, `rnd`'s
    /// state 0).
    fn evaluate(
        script: &Script,
        graph: &Graph,
        memo: &mut Memo,
        deal: &Deal,
        e: &Expr,
    ) -> Result<i64, Error> {
        let (mut rnd, mut solved) = (0, 0);
        memo.next_deal();
        Ctx {
            script,
            graph,
            memo,
            deal: *deal,
            table: None,
            rnd: &mut rnd,
            solved: &mut solved,
            tricks_used: false,
            leads: Vec::new(),
        }
        .eval(e)
    }

    /// Every state-free expression of the fixture scripts (Debian's examples and the
    /// layouts' scripts), plus a few of our own with another `pointcount`, gives the
    /// evaluator's value on 1,024 deals, by its kernel and by its column kernel.
    #[test]
    fn kernels_equal_the_evaluator_on_every_fixture_script() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dealer");
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
        // Shared definitions (computed once a deal, kept in the memo), levelled as BBO's
        // practice scripts level them, one that may fail, and one named once (inlined).
        texts.push((
            "shared".into(),
            "nsHcp = hcp(north) + hcp(south)\nlong = spades(north) >= 5 or hearts(north) >= 5\n\
             c1 = nsHcp >= 20 and long\nc2 = nsHcp < 30 and not long\nkeep06 = c1 or c2\n\
             keep015 = keep06 and (nsHcp > 22 ? c1 : c2)\nratio = nsHcp / (hcp(east) - 5)\n\
             once = top3(north, spades) * 2\n\
             condition keep015 or keep06 and nsHcp != 25\naction average nsHcp + once, \
             frequency (keep015 + keep06 + c1, 0, 3), average ratio > 2 and keep06"
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
                    Action::Average(_, e)
                    | Action::Frequency(_, e, ..)
                    | Action::BktFreq(_, e, ..) => exprs.push(e),
                    Action::Frequency2(_, e, _, _, e2, ..) => exprs.extend([e, e2]),
                    Action::BktFreq2(_, e, _, _, _, e2, ..) => exprs.extend([e, e2]),
                    Action::PrintEs(items) => exprs.extend(items.iter().filter_map(|i| match i {
                        EsItem::Expr(e) => Some(e),
                        _ => None,
                    })),
                    _ => {}
                }
            }
            let shuffler = Shuffler::new(&Seed([42; 32]), None);
            let graph = Graph::of(&script);
            let program = Program::new(&script, &graph);
            let (mut memo, mut eval_memo) = (program.memo(), program.memo());
            for e in exprs {
                let Some(k) = program.compile(e) else {
                    continue;
                };
                let column = program.compile_column(e);
                // Errors compared by their messages (an `Error` has no `==`).
                let mut kernel = |d: &Deal| {
                    memo.next_deal();
                    program.run(&k, d, &mut memo).map_err(|e| e.to_string())
                };
                for piece in 0..2 {
                    shuffler.fill(piece, &mut deals);
                    if let Some(c) = &column {
                        let mut values = vec![0; deals.len()];
                        assert!(program.run_column(c, &deals, &mut values));
                        for (d, v) in deals.iter().zip(values) {
                            assert_eq!(Ok(v), kernel(d), "{name}: column {e:?} on {d}");
                        }
                        columns += 1;
                    }
                    for d in &deals {
                        let want = evaluate(&script, &graph, &mut eval_memo, d, e)
                            .map_err(|e| e.to_string());
                        assert_eq!(kernel(d), want, "{name}: {e:?} on {d}");
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
        let e = cheap_first(script.condition.as_ref().unwrap(), &Graph::of(&script));
        let Expr::Bin(BinOp::Or, left, right) = &e else {
            panic!("{e:?}")
        };
        // `tricks && hcp` becomes `hcp && tricks`; `rnd && tricks` keeps its order (rnd has state).
        assert!(
            matches!(&**left, Expr::Bin(BinOp::And, a, _) if matches!(**a, Expr::Bin(BinOp::Cmp(Comparison::Ge), ref h, _) if matches!(**h, Expr::Hcp(..)))),
            "{left:?}"
        );
        assert!(
            matches!(&**right, Expr::Bin(BinOp::And, a, _) if matches!(**a, Expr::Bin(BinOp::Cmp(Comparison::Eq), ref r, _) if matches!(**r, Expr::Rnd(..)))),
            "{right:?}"
        );
    }

    /// `d1 = d0 + d0`, …, `d60 = d59 + d59`: 2^60 terms inlined, 61 shared definitions
    /// compiled once; each computed once a deal by the kernel, the column kernel and the
    /// evaluator alike (a chain of 26 took 3.9 GB before definitions were shared).
    #[test]
    fn a_chain_of_shared_definitions_is_computed_once_each() {
        let mut text = String::from("d0 = hcp(north) + 1\n");
        for i in 1..=50 {
            text.push_str(&format!("d{i} = d{} + d{}\n", i - 1, i - 1));
        }
        text.push_str("condition d50 != 0\naction average d50 / 1024");
        let script = Script::parse(&text).unwrap();
        let graph = Graph::of(&script);
        let program = Program::new(&script, &graph);
        let e = script.condition.as_ref().unwrap();
        let Expr::Bin(_, d50, _) = e else { panic!() };
        let k = program.compile(d50).unwrap();
        let c = program.compile_column(d50).unwrap();
        let mut deals = vec![Seed([0; 32]).board_deal(1); PIECE];
        Shuffler::new(&Seed([3; 32]), None).fill(0, &mut deals);
        let mut column = vec![0; PIECE];
        assert!(program.run_column(&c, &deals, &mut column));
        let mut memo = program.memo();
        for (d, col) in deals.iter().zip(column) {
            let want = (i64::from(features::hcp(d.hand(Seat::North))) + 1)
                .checked_mul(1 << 50)
                .unwrap();
            memo.next_deal();
            assert_eq!(program.run(&k, d, &mut memo).ok(), Some(want));
            assert_eq!(col, want);
            let mut eval_memo = program.memo();
            let value = evaluate(&script, &graph, &mut eval_memo, d, d50);
            assert_eq!(value.ok(), Some(want));
        }
    }

    /// A definition with `rnd` is drawn anew at every use, as dealer does (it re-walks the
    /// definition's tree): `r - r` is not always 0.
    #[test]
    fn a_definition_with_rnd_is_drawn_at_every_use() {
        let script = Script::parse("r = rnd(1000)\ncondition r - r != 0").unwrap();
        let graph = Graph::of(&script);
        let mut memo = Memo::new(graph.len());
        let (mut rnd, mut solved) = (7u64, 0);
        let mut differ = 0;
        for _ in 0..100 {
            memo.next_deal();
            let mut ctx = Ctx {
                script: &script,
                graph: &graph,
                memo: &mut memo,
                deal: Seed([0; 32]).board_deal(1),
                table: None,
                rnd: &mut rnd,
                solved: &mut solved,
                tricks_used: false,
                leads: Vec::new(),
            };
            differ += ctx.eval(script.condition.as_ref().unwrap()).unwrap();
        }
        assert!(differ > 90, "{differ}");
    }
}
