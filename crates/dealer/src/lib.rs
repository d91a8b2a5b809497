//! dealer's simulation language (Hans van Staveren's `dealer`, as Debian ships it: package
//! `dealer` 20211121): parse a script ([`Script::parse`]), evaluate its expressions over a
//! [`Deal`](crate::model::deal::Deal) and run it ([`run`]): generate deals, keep those meeting the
//! condition, run the actions, and report counts, averages and frequency tables
//! ([`DealerReport`]).
//!
//! ```
//! use dealdex::dealer::{DealerJob, Script, run};
//! let script = Script::parse("produce 5\ncondition hcp(north) >= 20\naction average hcp(south)").unwrap();
//! let job = DealerJob { seed: Some(1), ..DealerJob::default() };
//! let mut out = Vec::new();
//! let report = run(&script, &job, &mut out, &mut |_| {}).unwrap();
//! assert_eq!(report.produced, 5);
//! ```
//!
//! # Where dealer's semantics differ from dealdex's query language
//! - All values are integers; `/` truncates toward zero and `%` is C's remainder; a
//!   comparison, `&&`, `||` and `!` give 0 or 1, and any non-zero value is true.
//! - `hcp` counts with the script's `pointcount` table (default 4-3-2-1), not always
//!   4-3-2-1 as the query language's `hcp`; `pt0`…`pt9` (`tens` … `c13`) with `altcount`.
//!   `altcount N` sets the table of `ptN` as dealer's manual says; Debian's dealer 20211121
//!   instead applies `altcount 0` to `hcp` and no other `altcount` to anything.
//! - `loser` is dealer's per-suit count (no adjustment), which equals the query language's
//!   `ltc` only for suits of at most three cards counted the same way.
//! - `shape(seat, …)` takes dealer's shape lists (`any`, `x`, `+`, `-`), not the query
//!   language's shape literals.
//! - `imps` uses dealer's own table (it gives 10 IMPs from 420 and 16 from 1250, one more
//!   than the WBF scale at those two steps), so results equal dealer's.
//! - `rnd(n)` draws from the run's own stream (0 ≤ value < n), reproducible with the seed.
//! - `cccc` and `quality` are Kaplan and Rubens' counts ×100, equal to dealer's.
//!
//! # Running, and where it differs from Debian's dealer 20211121
//! - Deals come from dealdex's simulation stream: seeded shuffles
//!   ([`Shuffler`](crate::generation::shuffle::Shuffler), dealing around the predealt cards; [`seed_of`]:
//!   `-s N` → a [`Seed`](crate::generation::stream::Seed)), not dealer's random generator, and not the numbered
//!   stream of `generate` (which tournament sets keep): a seed reproduces a run within
//!   dealdex, on any machine and any number of threads.
//! - Speed: deals are drawn on all cores in pieces of 512; a condition without `rnd` or
//!   `tricks` is compiled once into kernels (the query language's `features::hcp` under the
//!   default `pointcount`, suit lengths by bit count, constants folded into comparisons; a
//!   whole piece at a time when it cannot fail) and tested on the core that drew the piece,
//!   the deals then taken in order; when every action is an average or a frequency, the
//!   produced deals are counted a piece at a time on all cores and the counts added in order;
//!   in `&&` and `||` an operand with `tricks` is tried after a state-free one, so the solver
//!   runs only for the deals the other terms let through ([`DealerReport::solved`] counts its
//!   calls).
//! - Or from given deals ([`DealFeed::Given`], in [`DealerJob::feed`]): a stored set, every
//!   stored deal or a deal file, read by the dealer workflow
//!   (the engine's `workflow::dealer`, `dealdex dealer --set/--db/--deals`). They are taken in
//!   order; `generated` counts those tested (`generate` limits them, `produce` stops early,
//!   the run ends with the deals); a deal that does not hold the predealt cards or have the
//!   predealt suit lengths is skipped ([`DealerReport::skipped`]). A deal's given table
//!   answers `tricks` without solving ([`DealerReport::already_solved`]); the tables the run
//!   solves come back in [`DealerReport::solved_tables`] ([`DealerJob::keep_solved`]), the
//!   produced deals in [`DealerReport::kept`] ([`DealerJob::keep_produced`]), for the
//!   workflow to store.
//! - Defaults as dealer's: `generate` 10,000,000; `produce` 40 when an action prints deals
//!   (or there is no `action` statement: `printall`), else unlimited. An `action` statement
//!   with no action runs none (not `printall`), and then `produce` is unlimited too: every
//!   deal meeting the condition is counted, up to `generate`.
//! - Print layouts (`printall`, `printew`, `printoneline`, `printcompact`, `printpbn`,
//!   `print(seats)`), `printes`, `average` (C's `%g`) and `frequency` tables are dealer's bytes;
//!   `print(seats)` prints at the end, in the order of the actions. `printcompact (expr)` and
//!   `printoneline (expr)` print the value after the hands as dealer 20211121 does
//!   (`printoneline`: at the end of the line, after its last space; `printcompact`: on a line
//!   of its own).
//! - `predeal spades(north)==1` is enforced (dealer 20211121 accepts it and ignores it).
//! - `evalcontract` runs as dealer's source has it ([`EvalContract`]; Debian's 20211121 binary
//!   aborts on it): for each produced deal the double-dummy tricks of North and of South
//!   declaring in every strain (one solve per deal, shared with `tricks()`) are tallied, and
//!   the table of average undoubled scores (`%4d/%4d`, North/South, C's truncating division)
//!   is printed at the end, in the order of the actions. It takes no arguments in dealer (a
//!   `(` after it starts the next statement); DealerV2's `(NS|EW, contract, nv|vul)` is
//!   checked and then ignored; without deals it prints zeros where dealer divides by zero.
//! - Swapping (`-2`, `-3`, [`Swapping`]) gives dealer's deals in dealer's order, each counted
//!   as generated; a predeal (cards or lengths) on a seat that moves is refused
//!   ([`ErrorKind::SwapPredeal`]), where dealer 20211121 swaps the predealt hands anyway;
//!   over given deals it is refused too ([`ErrorKind::SwapGiven`]).
//! - `-t SECS` stops a run that has produced nothing after SECS seconds (checked after each
//!   block of deals) and reports it ([`DealerReport::timed_out`]); the CLI prints the report,
//!   as dealer does, and exits 1 (dealer too).
//! - `-u` prints the honours in lower case (`akqjt`) as dealer's manual says; Debian's 20211121
//!   binary accepts `-u` and prints upper case. `printpbn` keeps PBN's upper case.
//! - An `average` without deals prints `-nan`, as dealer's C `%g` of 0/0.
//! - Errors: a seat given more than 13 cards, a card predealt twice, a suit length predealt
//!   twice, an unknown or redefined identifier, a shape whose lengths do not make 13 cards
//!   (`3333`; with `x`, more than 13: `555x`), syntax, as dealer; and also predealt lengths
//!   the parser can tell are impossible (a length above 13, more predealt cards than the
//!   length, more than 13 cards for a seat or a suit), expressions nested deeper than the
//!   parser's limits, reversed frequency bounds and frequency tables too big for memory (an
//!   axis of more than [`MAX_FREQUENCY_VALUES`] values, a two-way table of more than
//!   [`MAX_FREQUENCY_CELLS`] cells, more than [`MAX_FREQUENCY_TOTAL_CELLS`] in all), all
//!   before any deal, each with its line and column ([`Error::position`]; dealer names the line
//!   of the token after the error). Predealt lengths that pass those checks but that no deal
//!   can have (a seat's or a suit's four lengths adding up to fewer than 13, seats needing
//!   more cards of their other suits than are left) are refused when the run starts, before
//!   any deal, by the dealer of predealt lengths
//!   ([`LengthDealer::new`](crate::generation::lengths::LengthDealer::new): [`ErrorKind::Predeal`]
//!   naming the seat or suit, without a line).
//!
//! # The grammar, as Debian's dealer 20211121 has it
//! - Newlines are white space: a statement, a definition or a condition may run over lines,
//!   and one ends where its grammar ends. A word followed by `(` is a call only when it names
//!   one of dealer's functions; any other word is a variable and the expression ends with it
//!   (`x = a or b` then `(hcp(north) > 10)` on a later line: a definition, then a condition).
//! - Keywords are lower case (`Produce` is an identifier); dealer's reserved words, and words
//!   its lexer reads as holdings (`SAK`), cards (`AS`), contracts (`x3N`) or shapes (`x5xx`),
//!   cannot name a variable; a variable is defined once.
//! - The first `generate` and the first `produce` count (the command line's `-g`, `-p` win
//!   over them); the last `condition`, `dealer` and `vulnerable`; each `action` statement
//!   replaces the actions before it, and `action` with no action runs none
//!   ([`Script::actions_given`]). A comma may end an action list.
//! - `printcompact` and `printoneline` take an optional expression in parentheses only:
//!   `action printoneline` then `hcp(north) > 15` is an action and a condition.
//! - Operators and precedences are C's, `?:` lowest and right to left (`a ? b : c ? d : e`),
//!   comparisons left to right (`3 > 2 > 1` is 0); `not`, `and`, `or` are `!`, `&&`, `||`.
//! - Shape lists: `any`, `x`, elements joined by `+`, `-`, `,` or nothing, applied in order.
//! - Where dealdex takes more than dealer: `#` and `//` comments anywhere (dealer: `#` at the
//!   start of a line); unary minus on any expression (dealer: only before a number, and not
//!   before a four-digit one: `-1000` is a syntax error there); holdings in any order
//!   (`SKA`); a comma after a seat in `predeal` and between predealt lengths; `vulnerable` in
//!   any case, `both` for `all`; no limit of 32 `shape` calls.
//!
//! # DealerV2's additions
//! DealerV2 (JGM's Dealer Version 2, `dealerv2/DealerV2_4` on GitHub, also taken over by the
//! Rust Dealer3), read and run as its user guide (V2.5.7) and its source have them:
//! - `dds(seat, strain)` is `tricks`; `title "…"` ([`Script::title`]); decimal constants are
//!   ×100 (`12.5` is 1250, `.25` is 25: at most two digits on each side of the point; also in
//!   `pointcount`, `altcount` and frequency bounds); `z3N` for `x3N` in `score`;
//!   `evalcontract (NS|EW, contract, nv|vul)` (checked, then Debian's table); François
//!   Dellacherie's `shape{compass, list}` (`5M(xxx)`, `4+c3+d(2+2+)`, `x[3-5]x[13]`,
//!   `(54xx):h>s,d>c` …), expanded into dealer's shapes as DealerV2's `fdp` does (Debian's
//!   `dealer.dpp` is the same pre-processor).
//! - `par(NS|EW [, none|ns|ew|both])` ([`Expr::Par`]): the par score of the deal's
//!   double-dummy table from the side's view, North-South bidding first (DDS's par as
//!   DealerV2 calls it), at the vulnerability given, else none (DealerV2's default without
//!   its `-P` option, which dealdex does not have; the script's `vulnerable` does not change
//!   it, in DealerV2 either). The table is the deal's one solve, shared with `tricks()`, or
//!   the given deal's table.
//! - `csvrpt (items)` and `printrpt (items)` ([`Action::CsvRpt`], [`Action::PrintRpt`]): a
//!   line a produced deal of expressions, `'strings'`, hands (`north`, `NS`, `deal`:
//!   `n AKQ.… `), `trix(seat)` and `trix(deal)` (the double-dummy tricks in clubs, diamonds,
//!   hearts, spades, notrump) and `parcontract [(vul)]` (`' 4S* by EW ns'`), the first after
//!   a space and the others after commas ([`CsvItem`]), DealerV2's bytes. `csvrpt` writes
//!   with the other output (DealerV2's without its `-C FILE` option, which dealdex does not
//!   have). `trix` and `parcontract` are items of these lists only, as in DealerV2 (not an
//!   alias of `tricks`).
//! - Script parameters `$0`…`$9` ([`Script::parse_with_params`]; the CLI's `--param N=TEXT`,
//!   DealerV2's `-0`…`-9`), and the command line's predeal `-N`, `-E`, `-S`, `-W HOLDINGS`
//!   ([`Script::add_predeal`]), added to the script's predeal (DealerV2 drops the script's
//!   predealt cards then; in dealdex a card predealt to two seats is an error).
//!
//! # suokko's dealer's `leadtricks`
//! `leadtricks(seat, strain)` (`leadtrick` too; [`Expr::LeadTricks`]), read and run as
//! suokko's dealer (<https://github.com/suokko/dealer>, 073741b) has it: `seat` declares in
//! `strain` (a suit or `notrump`) and its left-hand opponent leads; the value is per card
//! (the evaluator's `Value`), declarer's double-dummy tricks after each opening lead
//! ([`crate::dd::lead_tricks`], 13 less the defence's), one card of each run of equal cards
//! (the highest: the leader holding the card one rank above drops a card), in suit order and
//! from the highest rank down. One solve a deal, seat and strain, shared by every use.
//! - `+ - * / %`, comparisons, `!`, unary `-`, `score`, `imps` and `rnd` work card by card (a
//!   number goes with every card; two per-card values must be of the same leader).
//! - A condition, `&&`, `||` and `?:`'s condition are true when every card's value is; `&&`
//!   and `||` give a number.
//! - `printes`, `printoneline (expr)`, `printcompact (expr)`, DealerV2's report items and a
//!   two-way `frequency` take the mean of its cards, truncated toward zero (C's `int`).
//! - `average` counts each deal's mean of its cards ([`Average::mean_sum`]).
//! - `frequency ["label"] (expr, low, high)` whose `expr` may be per card is suokko's table
//!   ([`FrequencyLead`]): a column per lead card, a row per value (`Low`, `low..=high`,
//!   `High`), only the rows and columns with a count, each deal counting each of its cards.
//!
//! Where it differs from suokko's dealer: the leader need not be predealt (suokko's stops
//! unless its 13 cards are; dealdex keys its tables by card, so the cards may change from deal
//! to deal); a lone ♣2 lead is counted (suokko's card number 0 ends its list, dropping it);
//! a number on the left of a comparison with a per-card value is compared as written
//! (suokko's negates the reversed comparison: `9 < x` gives `x >= 9`); per-card values of two
//! leaders in one operation ([`ErrorKind::LeadersDiffer`]), `/` or `%` by zero, and a
//! frequency's value per card on one deal and a number on another
//! ([`ErrorKind::MixedFrequency`]) stop the run (suokko's goes on with values of its own).
//! suokko's one-way tables of numbers leave out empty rows and its `printoneline` ends
//! without a space: dealdex keeps Debian's layouts there.
//!
//! - `seed N` ([`Script::seed`]): the run's seed when `-s` is not given (the command line's
//!   wins, as in DealerV2); `seed 0` is no seed, a seed drawn from the operating system (DealerV2
//!   seeds from the kernel then). The deals are dealdex's stream of that seed, not DealerV2's.
//! - `ltc(seat[, suit])` ([`Expr::Ltc`], [`ltc`]): DealerV2's modern losing-trick count ×100
//!   in half losers from each suit's top three cards (`Qxx` 250, `AQ` 50, singleton `K` 50).
//! - Doubled and redoubled contracts in `score` (`z4Hx`, `z6Nxx`; [`ScoreContract::doubling`]),
//!   scored as duplicate bridge does, as DealerV2.
//! - `printns`, `printside (NS|EW)` ([`Action::PrintSide`]) and `export (seat|NS|EW)`
//!   ([`Action::Export`]) in DealerV2's bytes (DealerV2's `printew` is `printside (EW)`:
//!   dealdex's `printew` keeps Debian's layout); `export` writes with the other output, in the
//!   order of the actions (DealerV2's without `-X FILE`).
//! - `opener compass` ([`Script::opener`]) is read and kept: it names the opener of `opc`.
//! - DealerV2's `title` string ends at the end of its line when its closing quote is missing,
//!   as DealerV2's lexer ends it.
//! - `bktfreq ["label"] (expr, low, high, size)` and its two-way form `(expr, low, high,
//!   size, expr2, low2, high2, size2)` ([`Action::BktFreq`], [`Action::BktFreq2`]):
//!   `frequency` in buckets of `size` values (numbers or decimal constants), `1 + (high -
//!   low) / size` of them as DealerV2 counts (integer division: the last bucket starts at
//!   `high` or below it and counts up to its own end); a value below the first bucket is
//!   `Low`, past the last `High`. Printed at the end in DealerV2's bytes: the one-way table in
//!   dealer's layout after an empty line, each bucket named by its first value, `Low` and
//!   `High` only when counted; the two-way table as DealerV2's `Showing 2D freq with
//!   Description[ label ]`, every row and column with `Low`, `High` and `Sum`. A size of 0 or
//!   less, reversed bounds, or more buckets than `frequency` may have values are refused
//!   with their line (DealerV2 stops on a division by zero or a failed allocation); a per-card
//!   value counts the mean of its cards, truncated. DealerV2 writes past the end of its
//!   column totals when printing a two-way table, and aborts on it for some sizes (an across
//!   axis of 4, 8, … buckets); dealdex prints those tables.
//!
//! Refused by name ([`ErrorKind::Unsupported`]), with the line: `usereval` (it asks
//! DealerV2's external evaluation program, DealerServer, which dealdex does not run), `opc`
//! (DealerV2's external Optimal Point Count Perl program, `dop`). Not read: `startboard` (it
//! stays an identifier, as in Debian's dealer).

#![deny(missing_docs)]

// The crates below under their names in the engine (`crate::model::…`, `crate::dd::…`, …).
use dealdex_formats as formats;
use dealdex_generation as generation;
use dealdex_model as model;
use dealdex_model::classified;
use dealdex_solver as dd;

mod compile;
mod error;
mod eval;
mod evalcontract;
mod graph;
mod lexer;
mod parser;
mod run;
mod swap;

pub use error::{Error, ErrorKind};
pub use eval::{cccc, imps, ltc, quality, score};
pub use evalcontract::{EvalContract, STRAINS};
pub use parser::{MAX_FREQUENCY_CELLS, MAX_FREQUENCY_TOTAL_CELLS, MAX_FREQUENCY_VALUES};
pub use run::{
    Average, DealFeed, DealerJob, DealerProgress, DealerReport, Frequency, Frequency2,
    FrequencyLead, GivenDeal, GivenFeed, KeptSink, PrintSeats, Summary, parse_seconds, run,
    run_into, run_seed, seed_of,
};
pub use swap::Swapping;

use crate::model::board::Vulnerability;
use crate::model::card::{Card, Seat, Suit};
use crate::model::features::{Comparison, Side};

/// dealer's default `pointcount`, ace first: the Milton Work count (A 4, K 3, Q 2, J 1).
pub const MILTON: [i64; 13] = [4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// A parsed dealer script: its settings, identifier definitions, condition and actions.
#[derive(Clone, Debug)]
pub struct Script {
    /// `generate N`: the most deals to generate (None: dealer's default, 10,000,000).
    pub generate: Option<u64>,
    /// `produce N`: the most deals meeting the condition (None: 40 when an action prints
    /// deals, else no limit but `generate`).
    pub produce: Option<u64>,
    /// `dealer`: the dealer printed by `printpbn` (None: by board number).
    pub dealer: Option<Seat>,
    /// `vulnerable`: the vulnerability printed by `printpbn` (None: by board number).
    pub vulnerable: Option<crate::model::board::Vulnerability>,
    /// DealerV2's `title "…"` (the last one given), which DealerV2 prints on its reports and
    /// in the PBN output; dealdex keeps it here and prints it nowhere.
    pub title: Option<String>,
    /// Predealt cards of each seat (N, E, S, W order), as 52-bit masks.
    pub predeal: [u64; 4],
    /// Predealt suit lengths (`predeal spades(north)==1`): the seat gets exactly that many
    /// cards of the suit. dealdex deals them directly, uniform over the deals that have them
    /// and the predealt cards, without rejection
    /// ([`LengthDealer`](crate::generation::lengths::LengthDealer)); a given deal without them is
    /// skipped. Debian's dealer 20211121 parses this form but does not enforce it.
    pub predeal_lengths: Vec<(Seat, Suit, u8)>,
    /// The `pointcount` table, ace first.
    pub pointcount: [i64; 13],
    /// The ten `altcount` tables, ace first.
    pub altcount: [[i64; 13]; 10],
    /// The condition (None: always true).
    pub condition: Option<Expr>,
    /// The actions of the last `action` statement (each one replaces the actions before it,
    /// as in dealer). Empty without an `action` statement: `printall`, dealer's default.
    pub actions: Vec<Action>,
    /// True when the script has an `action` statement. Its list may be empty (`action` alone):
    /// then dealer runs no action at all (not `printall`) and `produce` has no default of 40.
    pub actions_given: bool,
    /// The identifiers' expressions, by the index [`Expr::Var`] holds.
    pub definitions: Vec<(String, Expr)>,
    /// DealerV2's `seed N` (the first one given): the run's seed when the command line gives
    /// none (`-s` wins, as in DealerV2). `seed 0` is kept as `Some(0)` and means no seed (a
    /// seed drawn from the operating system), as DealerV2's kernel-seeded RNG.
    pub seed: Option<u64>,
    /// DealerV2's `opener compass` (the last one given): the opener of its `opc` evaluation,
    /// which dealdex does not run; kept here and used by nothing.
    pub opener: Option<Seat>,
}

/// A contract of `score(…)`: level 1–7 and strain (None for notrump).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreContract {
    /// The level, 1..=7.
    pub level: u8,
    /// The trump suit; None for notrump.
    pub strain: Option<Suit>,
    /// DealerV2's doubled (`z4Hx`) and redoubled (`z4Hxx`) contracts, scored as duplicate
    /// bridge scores them ([`duplicate_score`](crate::model::contract::duplicate_score)).
    pub doubling: crate::model::contract::Doubling,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `||`, `or`
    Or,
    /// `&&`, `and`
    And,
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`: 1 when the comparison holds, else 0.
    Cmp(Comparison),
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

/// A set of suit lengths (♠ ♥ ♦ ♣) that `shape(seat, …)` accepts: one bit per
/// `s * 196 + h * 14 + d`.
#[derive(Clone, PartialEq, Eq)]
pub struct ShapeSet(pub Box<[u64; 43]>);

impl std::fmt::Debug for ShapeSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n: u32 = self.0.iter().map(|w| w.count_ones()).sum();
        write!(f, "ShapeSet({n} shapes)")
    }
}

impl ShapeSet {
    /// True when the lengths ♠ ♥ ♦ (♣ is the rest) are in the set.
    pub fn contains(&self, s: u32, h: u32, d: u32) -> bool {
        let i = (s * 196 + h * 14 + d) as usize;
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
}

/// An expression of the language.
#[derive(Clone, Debug)]
pub enum Expr {
    /// An integer.
    Num(i64),
    /// An identifier: index into [`Script::definitions`].
    Var(usize),
    /// `!x` / `not x`.
    Not(Box<Expr>),
    /// `-x`.
    Neg(Box<Expr>),
    /// `a op b`.
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `hcp(seat[, suit])` with the `pointcount` table.
    Hcp(Seat, Option<Suit>),
    /// `ptN(seat[, suit])` (and its synonyms) with `altcount` table N.
    Pt(u8, Seat, Option<Suit>),
    /// `spades(seat)` …: a suit length.
    Length(Seat, Suit),
    /// `control(seat[, suit])`: A = 2, K = 1.
    Control(Seat, Option<Suit>),
    /// `loser(seat[, suit])`.
    Loser(Seat, Option<Suit>),
    /// DealerV2's `ltc(seat[, suit])`: its modern losing-trick count in half losers, ×100
    /// (`AQ` 50, `Qxx` 250), from the suit's top three cards ([`ltc`]).
    Ltc(Seat, Option<Suit>),
    /// `shape(seat, list)`.
    Shape(Seat, ShapeSet),
    /// `hascard(seat, card)`.
    HasCard(Seat, Card),
    /// `tricks(seat, strain)` double dummy (strain None: notrump).
    Tricks(Seat, Option<Suit>),
    /// suokko's `leadtricks(seat, strain)`: `seat` declares in `strain` (None: notrump) and
    /// its left-hand opponent leads; the value is per card, the double-dummy tricks of
    /// declarer after each opening lead, one card of each run of equal cards (the highest),
    /// as suokko's dealer has it. Operators and functions work card by card; see the module
    /// docs for how conditions, prints, `average` and `frequency` take such a value.
    LeadTricks(Seat, Option<Suit>),
    /// `score(vul, contract, tricks)`.
    Score(bool, ScoreContract, Box<Expr>),
    /// `imps(x)`.
    Imps(Box<Expr>),
    /// `rnd(x)`.
    Rnd(Box<Expr>),
    /// `cccc(seat)` (Kaplan–Rubens, ×100).
    Cccc(Seat),
    /// `quality(seat, suit)` (Kaplan–Rubens suit quality, ×100).
    Quality(Seat, Suit),
    /// DealerV2's `par(NS|EW [, vul])`: the par score of the deal's double-dummy table, from
    /// the side's view (positive when it gains), North-South bidding first as in DealerV2,
    /// at the vulnerability given (none when left out: DealerV2's default without `-P`).
    Par(Side, Vulnerability),
}

/// One item of DealerV2's `csvrpt (…)` and `printrpt (…)` lists. The items are printed on one
/// line, the first after a space and each other after a comma.
#[derive(Clone, Debug)]
pub enum CsvItem {
    /// An expression, printed as a decimal integer.
    Expr(Expr),
    /// A string, printed between single quotes (`'S:'`).
    Str(String),
    /// Hands (`north`, `NS`, `deal`): the seats in the order North, East, South, West, each
    /// as `printoneline` shows it and followed by a space (`n AKQ.T9..AKQJT9876 `).
    Hands(Vec<Seat>),
    /// `trix(seat)`, `trix(deal)`: for each seat (North, East, South, West order) the
    /// double-dummy tricks it takes declaring in clubs, diamonds, hearts, spades and
    /// notrump, comma separated (`10,10,4,4,8`).
    Tricks(Vec<Seat>),
    /// `parcontract [(vul)]`: the first par contract of [`Expr::Par`]'s par at that
    /// vulnerability, as DealerV2 writes it between single quotes: level (2 wide), strain
    /// (`N S H D C`), `*` for a doubled sacrifice (else a space), `by`, the declarer (`N`, or
    /// `NS` when both partners make it), the vulnerability (`none`, `ns`, `ew`, `both`):
    /// `' 4S* by EW ns'`. A deal passed out is `' 0N  by N none'`.
    ParContract(Vulnerability),
}

/// One item of `printes`.
#[derive(Clone, Debug)]
pub enum EsItem {
    /// A string, printed as it is.
    Str(String),
    /// An expression, printed as a decimal integer.
    Expr(Expr),
    /// `\n`.
    Newline,
}

/// An action.
#[derive(Clone, Debug)]
pub enum Action {
    /// `printall`.
    PrintAll,
    /// `printew`.
    PrintEw,
    /// `printpbn`.
    PrintPbn,
    /// `printcompact [(expr)]`: a line a hand, then the value on a line of its own (as
    /// dealer 20211121 prints it).
    PrintCompact(Option<Expr>),
    /// `printoneline [(expr)]`: the four hands on one line, the value at its end after the
    /// last space (as dealer 20211121 prints it).
    PrintOneLine(Option<Expr>),
    /// `printes (items)`.
    PrintEs(Vec<EsItem>),
    /// `print(seats)`.
    Print(Vec<Seat>),
    /// `average ["label"] expr`.
    Average(Option<String>, Expr),
    /// `frequency ["label"] (expr, low, high)`.
    Frequency(Option<String>, Expr, i64, i64),
    /// `frequency ["label"] (expr, low, high, expr2, low2, high2)`.
    Frequency2(Option<String>, Expr, i64, i64, Expr, i64, i64),
    /// DealerV2's `bktfreq ["label"] (expr, low, high, size)`: a `frequency` whose rows are
    /// buckets of `size` values (`low..low + size`, …), `1 + (high - low) / size` of them
    /// (integer division, as DealerV2), between DealerV2's `Low` and `High`.
    BktFreq(Option<String>, Expr, i64, i64, i64),
    /// DealerV2's `bktfreq ["label"] (expr, low, high, size, expr2, low2, high2, size2)`: the
    /// two-way table of buckets, `expr` down and `expr2` across.
    BktFreq2(Option<String>, Expr, i64, i64, i64, Expr, i64, i64, i64),
    /// `evalcontract`: tallies the double-dummy tricks of North and South declaring in every
    /// strain; dealer's table of average scores is printed at the end (dealer 20211121 aborts
    /// on it). It takes no arguments in dealer; DealerV2's `(NS|EW, contract, nv|vul)` are
    /// checked and ignored.
    EvalContract,
    /// DealerV2's `csvrpt (items)`: a line of comma-separated items for each produced deal
    /// ([`CsvItem`]). DealerV2 writes it to the file of its `-C` option, else with the other
    /// output, as dealdex does.
    CsvRpt(Vec<CsvItem>),
    /// DealerV2's `printrpt (items)`: `csvrpt`'s line, always with the other output.
    PrintRpt(Vec<CsvItem>),
    /// DealerV2's `printns` and `printside (NS|EW)`: the side's two hands next to each other
    /// (South or West on the left), numbered, as DealerV2 prints them; the script's title
    /// above the first deal and after every tenth (after a form feed). dealer's `printew`
    /// keeps Debian's layout.
    PrintSide(Side),
    /// DealerV2's `export (seat)` and `export (NS|EW)`: each seat's hand as a predeal option
    /// of DealerV2's command line (`-N SAQ542,HKJ87,D32,CAK `), one line a deal (a side's two
    /// on one line), written with the other output (DealerV2's without its `-X FILE`).
    Export(Vec<Seat>),
}

impl Action {
    /// True for the actions that print deals (they make `produce`'s default 40).
    pub fn prints(&self) -> bool {
        !matches!(
            self,
            Action::Average(..)
                | Action::Frequency(..)
                | Action::Frequency2(..)
                | Action::BktFreq(..)
                | Action::BktFreq2(..)
                | Action::EvalContract
        )
    }
}

impl Script {
    /// Parses a script.
    ///
    /// # Errors
    /// An [`Error`] with the line and column of a syntax error, an unknown or redefined
    /// identifier, a card or a suit length predealt twice, a seat with more than 13 predealt
    /// cards, a bad value, a `$N` (no parameter is given: [`Script::parse_with_params`]) or a
    /// construct of DealerV2 dealdex does not run.
    pub fn parse(src: &str) -> Result<Script, Error> {
        parser::parse(src, &Default::default())
    }

    /// Parses a script with DealerV2's script parameters: `$0`…`$9` in the script (outside
    /// strings and comments) stand for the text of `params[0]`…`params[9]`, which is read as
    /// script text where the `$N` stands (one word or several: `"5xxx + x5xx"`, `north`,
    /// `"\"label\""` for a string). DealerV2 takes them from its options `-0`…`-9`.
    ///
    /// ```
    /// use dealdex::dealer::{ErrorKind, Script};
    /// let mut params: [Option<String>; 10] = Default::default();
    /// params[0] = Some("west".into());
    /// params[1] = Some("15".into());
    /// let s = Script::parse_with_params("condition hcp($0) >= $1", &params).unwrap();
    /// assert!(s.condition.is_some());
    /// let e = Script::parse_with_params("condition hcp($0) >= $2", &params).unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::UnsetParameter { message, .. } if message.contains("$2")));
    /// ```
    ///
    /// # Errors
    /// As [`Script::parse`]; a `$N` whose parameter is None is a
    /// [`ErrorKind::UnsetParameter`] error naming it, at the `$N`; an error inside a
    /// parameter's text is reported at its `$N`.
    pub fn parse_with_params(src: &str, params: &[Option<String>; 10]) -> Result<Script, Error> {
        parser::parse(src, params)
    }

    /// Adds DealerV2's command-line predeal of `seat` (its options `-N`, `-E`, `-S`, `-W`) to
    /// the script's: `holdings` is holdings joined by commas, each a suit letter and its cards
    /// (`SAQ542,HKJ87,D32,CAK`, as DealerV2's `export` writes them; letters in either case,
    /// spaces allowed, nothing at all for no card). The cards are added to those the script
    /// predeals to the seat (DealerV2 instead drops the script's predealt cards when the
    /// command line has any).
    ///
    /// ```
    /// use dealdex::Seat;
    /// use dealdex::dealer::Script;
    /// let mut s = Script::parse("predeal north SA").unwrap();
    /// s.add_predeal(Seat::North, "SK,hq").unwrap();
    /// assert_eq!(s.predeal[Seat::North.index()].count_ones(), 3);
    /// let e = s.add_predeal(Seat::South, "SA").unwrap_err();
    /// assert_eq!(e.to_string(), "predeal: -S SA: SA is predealt to North already");
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::Predeal`] naming the option, when a character is no suit letter or
    /// rank, a rank comes before any suit letter, a card is given twice, a card is predealt to
    /// another seat already (by the script or another option), the seat would get more than
    /// 13 cards, or the cards disagree with the script's predealt suit lengths. The script is
    /// then unchanged.
    pub fn add_predeal(&mut self, seat: Seat, holdings: &str) -> Result<(), Error> {
        let bad = |why: String| {
            Error::from(ErrorKind::Predeal(format!(
                "-{} {}: {why}",
                seat.letter(),
                holdings.trim()
            )))
        };
        let (mut suit, mut mask) = (None, 0u64);
        for ch in holdings.chars() {
            if ch == ',' || ch.is_whitespace() {
                continue;
            }
            if let Some(s) = Suit::from_char(ch).filter(|_| ch.is_ascii_alphabetic()) {
                suit = Some(s);
                continue;
            }
            let Some(rank) = crate::model::card::Rank::from_char(ch) else {
                return Err(bad(format!(
                    "`{ch}` is no suit letter (S H D C) or rank (AKQJT98765432)"
                )));
            };
            let Some(suit) = suit else {
                return Err(bad(format!("`{ch}` comes before any suit letter")));
            };
            let name = format!("{}{}", suit.letter(), rank.letter());
            let bit = 1u64 << Card::new(suit, rank).index();
            if mask & bit != 0 {
                return Err(bad(format!("{name} is given twice")));
            }
            if let Some(other) = Seat::ALL
                .into_iter()
                .find(|&o| o != seat && self.predeal[o.index()] & bit != 0)
            {
                return Err(bad(format!(
                    "{name} is predealt to {} already",
                    other.name()
                )));
            }
            mask |= bit;
        }
        let before = self.predeal[seat.index()];
        if (before | mask).count_ones() > 13 {
            return Err(bad(format!(
                "more than 13 cards for {} with the script's predeal",
                seat.name()
            )));
        }
        self.predeal[seat.index()] = before | mask;
        if let Some(why) = parser::lengths_conflict(self) {
            self.predeal[seat.index()] = before;
            return Err(bad(why));
        }
        Ok(())
    }

    /// True when the condition or an action uses `tricks` (so the deals' double-dummy
    /// tables are wanted).
    ///
    /// ```
    /// use dealdex::dealer::Script;
    /// assert!(Script::parse("t = tricks(north, spades)\naction average t").unwrap().uses_tricks());
    /// assert!(!Script::parse("condition hcp(north) > 20").unwrap().uses_tricks());
    /// ```
    pub fn uses_tricks(&self) -> bool {
        let graph = graph::Graph::of(self);
        let uses = |e: &Expr| graph.uses(e).tricks;
        self.condition.as_ref().is_some_and(uses)
            || self.actions.iter().any(|a| match a {
                Action::Average(_, e) => uses(e),
                Action::Frequency(_, e, ..) | Action::BktFreq(_, e, ..) => uses(e),
                Action::Frequency2(_, e, _, _, e2, ..) => uses(e) || uses(e2),
                Action::BktFreq2(_, e, _, _, _, e2, ..) => uses(e) || uses(e2),
                Action::PrintCompact(Some(e)) | Action::PrintOneLine(Some(e)) => uses(e),
                Action::PrintEs(items) => items.iter().any(|i| match i {
                    EsItem::Expr(e) => uses(e),
                    _ => false,
                }),
                Action::CsvRpt(items) | Action::PrintRpt(items) => items.iter().any(|i| match i {
                    CsvItem::Expr(e) => uses(e),
                    CsvItem::Tricks(_) | CsvItem::ParContract(_) => true,
                    CsvItem::Str(_) | CsvItem::Hands(_) => false,
                }),
                Action::EvalContract => true,
                _ => false,
            })
    }

    /// The number of deals to generate: `generate`, else dealer's default 10,000,000.
    pub fn generate_limit(&self) -> u64 {
        self.generate.unwrap_or(10_000_000)
    }

    /// The number of deals to produce: `produce`, else 40 when an action prints deals (or
    /// there is no `action` statement: `printall`), else no limit (an `action` statement
    /// with no action included: dealer then runs no action and produces every deal it
    /// generates).
    ///
    /// ```
    /// use dealdex::dealer::Script;
    /// assert_eq!(Script::parse("generate 100").unwrap().produce_limit(), 40);
    /// assert_eq!(Script::parse("generate 100\naction").unwrap().produce_limit(), u64::MAX);
    /// ```
    pub fn produce_limit(&self) -> u64 {
        match self.produce {
            Some(p) => p,
            None if !self.actions_given || self.actions.iter().any(Action::prints) => 40,
            None => u64::MAX,
        }
    }
}
