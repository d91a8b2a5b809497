//! The evaluator: an [`Expr`] over a [`Deal`] with dealer's semantics (see the module docs of
//! [`crate`]).

use super::graph::{Graph, Memo};
use super::{BinOp, Error, ErrorKind, Expr, Script};
use crate::dd::{LeadPosition, TablePar, TrickTable};
use crate::model::card::{Card, Seat, Suit};
use crate::model::contract::{Doubling, Strain, duplicate_score};
use crate::model::deal::Deal;

/// A value of the language: a number, or suokko's per-card tricks (`leadtricks`) and what
/// operators make of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A number.
    Num(i64),
    /// A value per card: the opening leader's cards, the highest of each run of equal cards
    /// only (suit order, then from the highest rank down), each with its value. Never empty.
    Cards(Vec<(Card, i64)>),
}

impl Value {
    /// dealer's truth (conditions, `&&`, `||`, `?:`): a number is true when not 0; a per-card
    /// value when every card's is (suokko's dealer).
    pub fn truth(&self) -> bool {
        match self {
            Value::Num(v) => *v != 0,
            Value::Cards(c) => c.iter().all(|&(_, v)| v != 0),
        }
    }

    /// The value as one integer (printed values, a two-way `frequency`): a per-card value
    /// gives the mean of its cards' values, truncated toward zero (suokko's C `int`
    /// division).
    pub fn int(&self) -> i64 {
        match self {
            Value::Num(v) => *v,
            Value::Cards(c) => {
                c.iter().fold(0i64, |s, &(_, v)| s.wrapping_add(v)) / (c.len().max(1) as i64)
            }
        }
    }

    /// The value as a float (`average`): a per-card value gives the mean of its cards'
    /// values (suokko's dealer).
    pub fn mean(&self) -> f64 {
        match self {
            Value::Num(v) => *v as f64,
            Value::Cards(c) => {
                c.iter().map(|&(_, v)| v as f64).sum::<f64>() / (c.len().max(1) as f64)
            }
        }
    }

    /// `f` of each value (the number, or each card's).
    fn map(self, f: impl Fn(i64) -> Result<i64, Error>) -> Result<Value, Error> {
        Ok(match self {
            Value::Num(v) => Value::Num(f(v)?),
            Value::Cards(mut c) => {
                for (_, v) in &mut c {
                    *v = f(*v)?;
                }
                Value::Cards(c)
            }
        })
    }

    /// `f` of the two values card by card: a number goes with every card of a per-card
    /// value; two per-card values must hold the same cards (one opening leader).
    fn zip(self, other: Value, f: impl Fn(i64, i64) -> Result<i64, Error>) -> Result<Value, Error> {
        Ok(match (self, other) {
            (Value::Num(x), Value::Num(y)) => Value::Num(f(x, y)?),
            (Value::Cards(mut c), Value::Num(y)) => {
                for (_, x) in &mut c {
                    *x = f(*x, y)?;
                }
                Value::Cards(c)
            }
            (Value::Num(x), Value::Cards(mut c)) => {
                for (_, y) in &mut c {
                    *y = f(x, *y)?;
                }
                Value::Cards(c)
            }
            (Value::Cards(mut c), Value::Cards(d)) => {
                if c.len() != d.len() || c.iter().zip(&d).any(|(a, b)| a.0 != b.0) {
                    return Err(ErrorKind::LeadersDiffer.into());
                }
                for ((_, x), &(_, y)) in c.iter_mut().zip(&d) {
                    *x = f(*x, y)?;
                }
                Value::Cards(c)
            }
        })
    }
}

/// The opening leads of `leader` with declarer's tricks after each (`defence`: the leader's
/// side's tricks of every card, [`crate::dd::lead_tricks`]), the highest card of each run of
/// equal cards only, as DDS reports them and suokko's dealer keeps them: a card stays unless
/// the leader holds the card one rank above it in its suit (then both win the same tricks).
pub(super) fn lead_values(deal: &Deal, leader: Seat, defence: &[(Card, u8)]) -> Vec<(Card, i64)> {
    let mask = deal.hand(leader).mask();
    defence
        .iter()
        .filter(|(c, _)| {
            let i = c.index();
            i % 13 == 0 || mask >> (i - 1) & 1 == 0
        })
        .map(|&(c, t)| (c, 13 - i64::from(t)))
        .collect()
}

/// dealer's IMP table: a difference above `IMP_STEPS[i]` is worth at least `i + 1` IMPs.
/// It is not the WBF scale of [`crate::model::contract::imps`]: dealer steps at 410 and 1240
/// where the WBF steps at 420 and 1290 (a difference of 420 is 10 IMPs to dealer, 9 to the
/// WBF; 1250 to 1290 is 16 to dealer, 15 to the WBF), and `imps()` in a script answers as
/// dealer does.
const IMP_STEPS: [i64; 24] = [
    10, 40, 80, 120, 160, 210, 260, 310, 360, 410, 490, 590, 740, 890, 1090, 1240, 1490, 1740,
    1990, 2240, 2490, 2990, 3490, 3990,
];

/// dealer's `imps(x)`: the IMPs of a score difference, with its sign, on dealer's table
/// (`IMP_STEPS`).
pub fn imps(x: i64) -> i64 {
    let n = IMP_STEPS.iter().filter(|&&t| x.abs() > t).count() as i64;
    if x < 0 { -n } else { n }
}

/// dealer's `score(vul, contract, tricks)`: declarer's score, undoubled, by the laws' table
/// ([`duplicate_score`]; any number of tricks, as dealer takes it).
pub fn score(vul: bool, level: u8, strain: Option<Suit>, tricks: i64) -> i64 {
    let strain = strain.map_or(Strain::NoTrump, Strain::Trumps);
    duplicate_score(level, strain, Doubling::Undoubled, vul, tricks)
}

/// `score(vul, contract, tricks)` of a contract word, doubled (`z4Hx`) and redoubled
/// (`z4Hxx`) too: the duplicate score, as DealerV2 scores it.
pub(super) fn contract_score(vul: bool, c: &super::ScoreContract, tricks: i64) -> i64 {
    let strain = c.strain.map_or(Strain::NoTrump, Strain::Trumps);
    duplicate_score(c.level, strain, c.doubling, vul, tricks)
}

/// DealerV2's `ltc` of a 13-bit holding (bit 0 = ace): its modern losing-trick count ×100, in
/// half losers, from the suit's top three cards (the nine down to the two alike, `x`), as
/// DealerV2 2.5 counts it:
///
/// | losers | top cards |
/// |---|---|
/// | 0 | void, `A`, `AK`, `AKQ` |
/// | 0.5 | `K`, `AQ`, `AKJ`, `AQJ` |
/// | 1 | `x`, `T`, `J`, `Q`, `Ax`, `AT`, `AJ`, `Kx`, `KT`, `KJ`, `KQ`, `AKx`, `AKT`, `AQx`, `AQT`, `KQx`, `KQT`, `KQJ` |
/// | 1.5 | `AJT`, `KJT` |
/// | 2 | `xx`, `Tx`, `Jx`, `JT`, `Qx`, `QT`, `QJ`, `Axx`, `ATx`, `AJx`, `Kxx`, `KTx`, `KJx`, `QJx`, `QJT` |
/// | 2.5 | `Qxx`, `QTx` |
/// | 3 | `xxx`, `Txx`, `Jxx`, `JTx` |
///
/// ```
/// use dealdex::dealer::ltc;
/// assert_eq!(ltc(0b101), 50); // AQ
/// assert_eq!(ltc(0b100 | 1 << 12 | 1 << 11), 250); // Q32
/// ```
pub fn ltc(h: u64) -> i64 {
    // The top three cards, honours by name and the others as x.
    let mut top = [b'-'; 3];
    for (slot, r) in top.iter_mut().zip((0..13).filter(|r| h >> r & 1 == 1)) {
        *slot = if r < 5 { b"AKQJT"[r] } else { b'x' };
    }
    match &top {
        b"---" | b"A--" | b"AK-" | b"AKQ" => 0,
        b"K--" | b"AQ-" | b"AKJ" | b"AQJ" => 50,
        b"AJT" | b"KJT" => 150,
        b"xx-" | b"Tx-" | b"Jx-" | b"JT-" | b"Qx-" | b"QT-" | b"QJ-" | b"Axx" | b"ATx" | b"AJx"
        | b"Kxx" | b"KTx" | b"KJx" | b"QJx" | b"QJT" => 200,
        b"Qxx" | b"QTx" => 250,
        b"xxx" | b"Txx" | b"Jxx" | b"JTx" => 300,
        _ => 100,
    }
}

/// Kaplan and Rubens' suit quality (The Bridge World, October 1982) ×100 of a 13-bit holding
/// (bit 0 = ace): the 4-3-2-1 count plus tens and nines (suits of up to six cards) or the
/// missing queen and jack (longer suits), times the length, divided by 10.
pub fn quality(h: u64) -> i64 {
    let len = h.count_ones() as i64;
    if len == 0 {
        return 0;
    }
    let has = |rank: u32| h >> rank & 1 == 1; // 0 = A, 1 = K, 2 = Q, 3 = J, 4 = T, 5 = 9, 6 = 8
    let honours = (0..4).filter(|&r| has(r)).count();
    // Half points.
    let mut q: i64 = [8, 6, 4, 2]
        .iter()
        .enumerate()
        .filter(|(r, _)| has(*r as u32))
        .map(|(_, v)| v)
        .sum();
    if len > 6 {
        let missing = if has(2) { 0 } else { 4 } + if has(3) { 0 } else { 2 };
        let cap = match len {
            7 => 2,
            8 => 4,
            _ => 6,
        };
        q += missing.min(cap);
    } else {
        if has(4) {
            q += if honours >= 2 || has(3) { 2 } else { 1 };
        }
        if has(5) && (has(4) || honours == 2 || has(6)) {
            q += 1;
        }
    }
    q * len * 5
}

/// Kaplan and Rubens' hand evaluation (`cccc`, "the four C's") ×100 of a 52-bit hand: per
/// suit its [`quality`] plus protected high cards (A 3, K 2 or ½ alone, Q 1 or ¾ without A
/// or K, ¾ / ½ doubleton, J ½ / ¼ with two / one higher honour, T ¼ with two higher or with
/// the 9 and one higher), plus shortness (void 3, singleton 2, doubleton 1, one point less
/// in all), less ½ for 4-3-3-3.
pub fn cccc(mask: u64) -> i64 {
    let mut total = 0;
    let mut shortness = 0;
    let mut lens = [0u32; 4];
    for (i, suit) in Suit::ALL.into_iter().enumerate() {
        let h = holding(mask, suit);
        let len = h.count_ones();
        lens[i] = len;
        let has = |rank: u32| h >> rank & 1 == 1;
        let higher = |n: u32| (0..n).filter(|&r| has(r)).count();
        // Quarter points.
        let mut v = 0;
        if has(0) {
            v += 12;
        }
        if has(1) {
            v += if len >= 2 { 8 } else { 2 };
        }
        if has(2) {
            let ak = has(0) || has(1);
            v += match (len, ak) {
                (1, _) => 0,
                (2, true) => 3,
                (2, false) => 2,
                (_, true) => 4,
                (_, false) => 3,
            };
        }
        if has(3) {
            v += match higher(3) {
                2 => 2,
                1 => 1,
                _ => 0,
            };
        }
        if has(4) && (higher(4) == 2 || (has(5) && higher(4) == 1)) {
            v += 1;
        }
        shortness += match len {
            0 => 3,
            1 => 2,
            2 => 1,
            _ => 0,
        };
        total += v * 25 + quality(h);
    }
    total += (shortness - 1).max(0) * 100;
    lens.sort_unstable();
    if lens == [3, 3, 3, 4] {
        total -= 50;
    }
    total
}

/// One `leadtricks` solve of a deal: declarer, strain (None: notrump) and the defence's
/// tricks after each card of the opening leader ([`crate::dd::lead_tricks`]).
pub(super) type LeadSolve = (Seat, Option<Suit>, Vec<(Card, u8)>);

/// The state of evaluating over one deal: the deal, its double-dummy table once solved (or
/// given), the `rnd` stream, the count of deals solved, whether `tricks` was evaluated, and
/// the definitions' values computed for the deal (each computed once, but those with `rnd`,
/// which dealer draws anew at every use).
pub(super) struct Ctx<'a> {
    pub script: &'a Script,
    pub graph: &'a Graph,
    pub memo: &'a mut Memo,
    pub deal: Deal,
    pub table: Option<TrickTable>,
    pub rnd: &'a mut u64,
    pub solved: &'a mut u64,
    pub tricks_used: bool,
    /// `leadtricks`' solves of the deal: declarer, strain and the defence's tricks of each
    /// card ([`crate::dd::lead_tricks`]), each solved once a deal.
    pub leads: Vec<LeadSolve>,
}

/// The 13-bit holding of `suit` in `mask` (bit 0 = ace … bit 12 = deuce).
fn holding(mask: u64, suit: Suit) -> u64 {
    mask >> (suit as u32 * 13) & 0x1fff
}

/// The sum of `table`'s values (ace first) over the cards of `mask`, or of its `suit`: one
/// bit count per rank that counts, all suits at once.
pub(super) fn table_sum(mask: u64, suit: Option<Suit>, table: &[i64; 13]) -> i64 {
    /// The four aces: bit 0 of each suit's 13-bit field.
    const ACES: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
    let m = match suit {
        Some(s) => mask & 0x1fff << (s as u32 * 13),
        None => mask,
    };
    let mut total = 0;
    for (rank, &value) in table.iter().enumerate() {
        if value != 0 {
            total += value * i64::from((m & ACES << rank).count_ones());
        }
    }
    total
}

fn per_suit(mask: u64, suit: Option<Suit>, f: impl Fn(u64) -> i64) -> i64 {
    match suit {
        Some(s) => f(holding(mask, s)),
        None => Suit::ALL.iter().map(|&s| f(holding(mask, s))).sum(),
    }
}

fn losers(h: u64) -> i64 {
    let (a, k, q) = (h & 1, h >> 1 & 1, h >> 2 & 1);
    match h.count_ones() {
        0 => 0,
        1 => 1 - a as i64,
        2 => 2 - (a + k) as i64,
        _ => 3 - (a + k + q) as i64,
    }
}

fn truth(b: bool) -> i64 {
    i64::from(b)
}

/// The value of an expression that depends on the deal's hands alone (`hcp`, `ptN`, suit
/// lengths, `control`, `loser`, `shape`, `hascard`, `cccc`, `quality`); None for any other.
pub(super) fn hand_value(e: &Expr, deal: &Deal, script: &Script) -> Option<i64> {
    let hand = |seat: Seat| deal.hand(seat).mask();
    Some(match e {
        Expr::Hcp(seat, suit) => table_sum(hand(*seat), *suit, &script.pointcount),
        Expr::Pt(n, seat, suit) => table_sum(hand(*seat), *suit, &script.altcount[*n as usize]),
        Expr::Length(seat, suit) => holding(hand(*seat), *suit).count_ones() as i64,
        Expr::Control(seat, suit) => per_suit(hand(*seat), *suit, |h| {
            2 * (h & 1) as i64 + (h >> 1 & 1) as i64
        }),
        Expr::Loser(seat, suit) => per_suit(hand(*seat), *suit, losers),
        Expr::Ltc(seat, suit) => per_suit(hand(*seat), *suit, ltc),
        Expr::Shape(seat, set) => {
            let m = hand(*seat);
            let l = |s| holding(m, s).count_ones();
            truth(set.contains(l(Suit::Spades), l(Suit::Hearts), l(Suit::Diamonds)))
        }
        Expr::HasCard(seat, card) => truth(deal.hand(*seat).contains(*card)),
        Expr::Cccc(seat) => cccc(hand(*seat)),
        Expr::Quality(seat, suit) => quality(holding(hand(*seat), *suit)),
        _ => return None,
    })
}

/// `x op y` for an operator other than `&&` and `||` (those are decided on their operands'
/// truth and give 0 or 1 too).
fn binary(op: BinOp, x: i64, y: i64) -> Result<i64, Error> {
    Ok(match op {
        BinOp::Cmp(c) => truth(c.holds(x, y)),
        BinOp::Add => x.checked_add(y).ok_or_else(Error::overflow)?,
        BinOp::Sub => x.checked_sub(y).ok_or_else(Error::overflow)?,
        BinOp::Mul => x.checked_mul(y).ok_or_else(Error::overflow)?,
        BinOp::Div => x.checked_div(y).ok_or_else(Error::division_by_zero)?,
        BinOp::Rem => x.checked_rem(y).ok_or_else(Error::division_by_zero)?,
        BinOp::And => truth(x != 0 && y != 0),
        BinOp::Or => truth(x != 0 || y != 0),
    })
}

/// `rnd(n)`: the next draw of the run's stream (SplitMix64 over `state`), 0 ≤ value < n.
fn draw(state: &mut u64, n: i64) -> Result<i64, Error> {
    if n <= 0 {
        return Err(ErrorKind::BadRnd(n).into());
    }
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    Ok(((u128::from(z) * n as u128) >> 64) as i64)
}

impl Ctx<'_> {
    /// The deal's double-dummy table, solved once per deal: `tricks()` and `evalcontract`
    /// share it.
    pub fn table(&mut self) -> TrickTable {
        self.tricks_used = true;
        match self.table {
            Some(t) => t,
            None => {
                let t = crate::dd::solve(&self.deal);
                *self.solved += 1;
                self.table = Some(t);
                t
            }
        }
    }

    /// The value of `e` over the deal.
    pub fn eval(&mut self, e: &Expr) -> Result<i64, Error> {
        Ok(match e {
            Expr::Num(v) => *v,
            Expr::Var(i) => {
                let i = *i;
                if let Some(v) = self.memo.get(i) {
                    return Ok(v);
                }
                let script = self.script;
                let v = self.eval(&script.definitions[i].1)?;
                if !self.graph.def_uses(i).rnd {
                    self.memo.set(i, v);
                }
                v
            }
            Expr::Not(a) => truth(self.eval(a)? == 0),
            Expr::Neg(a) => self.eval(a)?.checked_neg().ok_or_else(Error::overflow)?,
            Expr::Cond(c, a, b) => {
                if self.eval(c)? != 0 {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::Bin(BinOp::And, a, b) => truth(self.eval(a)? != 0 && self.eval(b)? != 0),
            Expr::Bin(BinOp::Or, a, b) => truth(self.eval(a)? != 0 || self.eval(b)? != 0),
            Expr::Bin(op, a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                binary(*op, x, y)?
            }
            Expr::Tricks(seat, strain) => {
                let table = self.table();
                let strain = strain.map_or(Strain::NoTrump, Strain::Trumps);
                i64::from(table.tricks(*seat, strain))
            }
            // DealerV2's par: North-South bid first (DDS's par with North dealing).
            Expr::Par(side, vul) => {
                let table = self.table();
                i64::from(table.par(Seat::North, *vul).score_for(*side))
            }
            Expr::Score(vul, c, t) => {
                let t = self.eval(t)?;
                contract_score(*vul, c, t)
            }
            Expr::Imps(x) => imps(self.eval(x)?),
            Expr::Rnd(x) => {
                let n = self.eval(x)?;
                draw(self.rnd, n)?
            }
            // Not reached: an expression with `leadtricks` goes to `value` (callers ask the
            // graph); as a number, the mean of its cards, truncated.
            Expr::LeadTricks(..) => self.value(e)?.int(),
            leaf => hand_value(leaf, &self.deal, self.script)
                .expect("every other expression is a hand's value"),
        })
    }

    /// The per-card tricks of `leadtricks(declarer, strain)` over the deal: the opening
    /// leads of declarer's left-hand opponent, solved once a deal (counted in `solved`).
    fn lead_tricks(&mut self, declarer: Seat, strain: Option<Suit>) -> Vec<(Card, i64)> {
        let leader = declarer.next();
        let found = self
            .leads
            .iter()
            .position(|(s, t, _)| *s == declarer && *t == strain);
        let i = match found {
            Some(i) => i,
            None => {
                let position = LeadPosition {
                    deal: self.deal,
                    strain: strain.map_or(Strain::NoTrump, Strain::Trumps),
                    leader,
                };
                let cards = crate::dd::lead_tricks(&[position])
                    .pop()
                    .unwrap_or_default();
                *self.solved += 1;
                self.leads.push((declarer, strain, cards));
                self.leads.len() - 1
            }
        };
        lead_values(&self.deal, leader, &self.leads[i].2)
    }

    /// `e` over the deal as one integer: [`Ctx::eval`]'s number, or, when `e` uses
    /// `leadtricks`, [`Value::int`] of its [`Ctx::value`] (the mean of a per-card value,
    /// truncated, as suokko's dealer prints it).
    pub fn int(&mut self, e: &Expr) -> Result<i64, Error> {
        match self.graph.uses(e).lead {
            true => Ok(self.value(e)?.int()),
            false => self.eval(e),
        }
    }

    /// The value of `e` over the deal, per card where `leadtricks` makes it so (suokko's
    /// dealer): operators and `score`, `imps`, `rnd` work card by card (a number with every
    /// card), `&&`, `||` and `?:`'s condition take [`Value::truth`]. An expression without
    /// `leadtricks` is [`Ctx::eval`]'s number.
    pub fn value(&mut self, e: &Expr) -> Result<Value, Error> {
        Ok(match e {
            Expr::LeadTricks(seat, strain) => Value::Cards(self.lead_tricks(*seat, *strain)),
            // A definition with `leadtricks` is computed at each use (its solves are kept).
            Expr::Var(i) => {
                let script = self.script;
                match script.definitions.get(*i) {
                    Some((_, d)) if self.graph.def_uses(*i).lead => self.value(d)?,
                    _ => Value::Num(self.eval(e)?),
                }
            }
            Expr::Not(a) => self.value(a)?.map(|v| Ok(truth(v == 0)))?,
            Expr::Neg(a) => self
                .value(a)?
                .map(|v| v.checked_neg().ok_or_else(Error::overflow))?,
            Expr::Cond(c, a, b) => {
                if self.value(c)?.truth() {
                    self.value(a)?
                } else {
                    self.value(b)?
                }
            }
            Expr::Bin(BinOp::And, a, b) => {
                Value::Num(truth(self.value(a)?.truth() && self.value(b)?.truth()))
            }
            Expr::Bin(BinOp::Or, a, b) => {
                Value::Num(truth(self.value(a)?.truth() || self.value(b)?.truth()))
            }
            Expr::Bin(op, a, b) => {
                let (x, y) = (self.value(a)?, self.value(b)?);
                let op = *op;
                x.zip(y, |x, y| binary(op, x, y))?
            }
            Expr::Score(vul, c, t) => self.value(t)?.map(|t| Ok(contract_score(*vul, c, t)))?,
            Expr::Imps(x) => self.value(x)?.map(|v| Ok(imps(v)))?,
            Expr::Rnd(x) => match self.value(x)? {
                Value::Num(n) => Value::Num(draw(self.rnd, n)?),
                Value::Cards(mut c) => {
                    // A draw for each card, in the cards' order.
                    for (_, v) in &mut c {
                        *v = draw(self.rnd, *v)?;
                    }
                    Value::Cards(c)
                }
            },
            _ => Value::Num(self.eval(e)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imps_follow_dealers_table() {
        let cases = [
            (0, 0),
            (10, 0),
            (15, 1),
            (45, 2),
            (410, 9),
            (420, 10),
            (1290, 16),
            (1500, 17),
            (4000, 24),
            (-420, -10),
        ];
        for (x, want) in cases {
            assert_eq!(imps(x), want, "imps({x})");
        }
    }

    #[test]
    fn scores_match_dealers() {
        assert_eq!(score(false, 1, Some(Suit::Clubs), 7), 70);
        assert_eq!(score(true, 3, None, 10), 630);
        assert_eq!(score(false, 6, Some(Suit::Spades), 13), 1010);
        assert_eq!(score(true, 7, None, 13), 2220);
        assert_eq!(score(true, 5, Some(Suit::Diamonds), 9), -200);
        assert_eq!(score(false, 4, Some(Suit::Hearts), 5), -250);
    }

    /// dealer's table and the WBF's differ only between 411 and 420 and between 1241 and 1290.
    #[test]
    fn dealers_imps_differ_from_the_wbf_scale_at_two_steps() {
        for x in -5000i64..=5000 {
            let differs = matches!(x.abs(), 411..=420 | 1241..=1290);
            let wbf = crate::model::contract::imps(x);
            assert_eq!(imps(x) != wbf, differs, "imps({x})");
            if differs {
                assert_eq!(imps(x), wbf + x.signum(), "imps({x})");
            }
        }
    }
}
