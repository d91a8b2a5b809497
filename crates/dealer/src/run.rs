//! Running a script: generation, the condition, the actions and the report.

use std::fmt;
use std::io::Write;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use rayon::prelude::*;

use super::compile::{Column, Kernel, Program, cheap_first};
use super::eval::{Ctx, Value};
use super::evalcontract::EvalContract;
use super::graph::{Graph, Memo};
use super::parser::buckets;
use super::swap::Swapping;
use super::{Action, CsvItem, Error, ErrorKind, EsItem, Expr, Script};
use crate::dd::{Par, TablePar, TrickTable};
use crate::formats::pbn::{GameLayout, write_game};
use crate::formats::{
    Board, DealFormat, DealerAll, DealerCompact, DealerEw, GameRecord, OneLine, WriteOptions,
};
use crate::generation::lengths::LengthDealer;
use crate::generation::predeal::Predeal;
use crate::generation::shuffle::{PIECE, Shuffler};
use crate::generation::stream::Seed;
use crate::model::board::Vulnerability;
use crate::model::card::{Seat, Suit};
use crate::model::contract::{Doubling, Strain};
use crate::model::deal::{Deal, Hand};
use crate::model::features::Side;

/// How to run a script: dealer's command-line settings (with the `clap` feature, the flags
/// of `dealdex dealer` that set them one to one: -p, -g, -s, -q, -t, -u).
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct DealerJob {
    /// The most deals to produce (deals meeting the condition; overrides the script's
    /// `produce`).
    #[cfg_attr(feature = "clap", arg(short = 'p', value_name = "N"))]
    pub produce: Option<u64>,
    /// The most deals to generate (overrides the script's `generate`).
    #[cfg_attr(feature = "clap", arg(short = 'g', value_name = "N"))]
    pub generate: Option<u64>,
    /// The seed (a number): the same seed gives the same deals; none draws one from the
    /// operating system (and the report says it).
    #[cfg_attr(feature = "clap", arg(short = 's', value_name = "SEED"))]
    pub seed: Option<u64>,
    /// Suppress printpbn's output.
    #[cfg_attr(feature = "clap", arg(short = 'q'))]
    pub quiet: bool,
    /// The script's file name, for `printpbn`'s `[Event]` tag.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub script_name: Option<String>,
    /// The date `printpbn` writes (`YYYY.MM.DD`); None: today's (UTC).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub date: Option<String>,
    /// Where the deals come from: dealdex's seeded stream (the default) or given deals.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub feed: DealFeed,
    /// Keep the produced deals in [`DealerReport::kept`] (to store them as a set, say).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub keep_produced: bool,
    /// Keep the double-dummy tables the run solves in [`DealerReport::solved_tables`] (to
    /// store them, say).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub keep_solved: bool,
    /// `-0`, `-2`, `-3`: after each shuffled deal, the deals made by permuting its East and
    /// West (or East, South and West) hands, each counted as generated. A predeal or
    /// predealt length on a seat that moves is refused ([`ErrorKind::SwapPredeal`]).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub swapping: Swapping,
    /// Stop when no deal has met the condition after SECS seconds (checked after each block
    /// of deals): the report is printed and says so (its `timed_out`), and the command's
    /// exit status is 1.
    #[cfg_attr(feature = "clap", arg(short = 't', value_name = "SECS", value_parser = parse_seconds))]
    pub time_limit: Option<Duration>,
    /// Print the honours AKQJT as akqjt in the hands of printall, printew, printoneline,
    /// printcompact and print(seats) (dealer's manual; Debian's dealer 20211121 accepts -u
    /// and prints upper case). printpbn keeps PBN's upper case.
    #[cfg_attr(feature = "clap", arg(short = 'u'))]
    pub lowercase: bool,
    /// A switch another thread may turn on to stop the run (Ctrl-C in a program hosting
    /// dealdex): checked before each block of deals, it ends the run with
    /// [`ErrorKind::Stopped`].
    #[cfg_attr(feature = "clap", arg(skip))]
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// `-t`'s value: a number of seconds, ≥ 0 and finite (as a message otherwise, which clap
/// prints, exiting 2).
///
/// ```
/// use dealdex::dealer::parse_seconds;
/// assert_eq!(parse_seconds("1.5").unwrap().as_millis(), 1500);
/// assert!(parse_seconds("-1").is_err());
/// ```
///
/// # Errors
/// The text, as a message, when it is not such a number.
pub fn parse_seconds(s: &str) -> std::result::Result<Duration, String> {
    let t: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    Duration::try_from_secs_f64(t).map_err(|_| format!("{s:?} is not a number of seconds (≥ 0)"))
}

/// A deal given to a run ([`DealFeed::Given`]) with its double-dummy table when one is
/// known (`tricks()` then answers from the table instead of solving the deal) and its board
/// number when its source has one (for errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GivenDeal {
    /// The deal.
    pub deal: Deal,
    /// Its double-dummy table, when known.
    pub table: Option<TrickTable>,
    /// Its board number in its source, when known.
    pub board: Option<u64>,
}

impl GivenDeal {
    /// A deal without a table or a board number.
    pub fn new(deal: Deal) -> GivenDeal {
        GivenDeal {
            deal,
            table: None,
            board: None,
        }
    }
}

/// Given deals, pulled a piece at a time while the run needs more: the run holds at most a
/// piece and a block of them, and stops pulling when `produce` is reached, so a source read
/// lazily (a file, a database) is read no further than the run goes.
#[derive(Clone)]
pub struct GivenFeed(
    std::sync::Arc<std::sync::Mutex<Box<dyn Iterator<Item = Vec<GivenDeal>> + Send>>>,
);

impl GivenFeed {
    /// A feed of the pieces `pieces` yields, in order (an empty piece is skipped; the feed
    /// ends with the iterator).
    pub fn new(pieces: impl Iterator<Item = Vec<GivenDeal>> + Send + 'static) -> GivenFeed {
        GivenFeed(std::sync::Arc::new(std::sync::Mutex::new(Box::new(pieces))))
    }

    /// A feed of deals already in memory.
    pub fn from_deals(deals: Vec<GivenDeal>) -> GivenFeed {
        GivenFeed::new(std::iter::once(deals))
    }

    /// The next piece, or None at the end.
    fn next_piece(&self) -> Option<Vec<GivenDeal>> {
        let mut pieces = self.0.lock().unwrap_or_else(|e| e.into_inner());
        pieces.find(|p| !p.is_empty())
    }
}

impl fmt::Debug for GivenFeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GivenFeed")
    }
}

/// Where a run's deals come from.
#[derive(Clone, Debug, Default)]
pub enum DealFeed {
    /// Generated from dealdex's stream for the seed ([`seed_of`]), with the script's
    /// predealt cards and suit lengths.
    #[default]
    Stream,
    /// These deals, in order, instead of generating. A deal that does not hold the
    /// script's predealt cards, or does not have its predealt suit lengths, is skipped
    /// ([`DealerReport::skipped`]) and not counted as generated; `generate` then limits the
    /// deals tested, and the run ends when the deals do.
    Given(GivenFeed),
}

/// How far a run is.
#[derive(Clone, Copy, Debug)]
pub struct DealerProgress {
    /// Deals generated so far.
    pub generated: u64,
    /// Deals that met the condition so far.
    pub produced: u64,
}

/// `average`'s result.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Average {
    /// The label, if any.
    pub label: Option<String>,
    /// The number of produced deals averaged over.
    pub count: u64,
    /// The sum of the values that are numbers.
    pub sum: i64,
    /// The sum of the means of the per-card values (suokko's `leadtricks`): a deal whose
    /// value is per card counts the mean of its cards' values, here (suokko's dealer).
    pub mean_sum: f64,
    /// The sum of the squares of the values (for a standard error).
    pub sum_squares: f64,
    /// The mean (sum / count; 0 without deals).
    pub mean: f64,
}

/// A one-dimensional `frequency` table, or DealerV2's `bktfreq` (its rows buckets of `size`
/// values).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Frequency {
    /// The label, if any.
    pub label: Option<String>,
    /// The lowest value counted in a row.
    pub low: i64,
    /// The first value of the last row (`frequency`: the highest value counted in a row).
    pub high: i64,
    /// The values a row counts: 1 for `frequency`; `bktfreq`'s bucket size (row `i` counts
    /// `low + i·size .. low + (i + 1)·size`).
    pub size: i64,
    /// Deals with a value below `low`.
    pub below: u64,
    /// The rows' counts, in order.
    pub counts: Vec<u64>,
    /// Deals with a value above the last row's.
    pub above: u64,
}

/// A two-dimensional `frequency` table, or DealerV2's two-way `bktfreq` (its rows and
/// columns buckets of `size` and `size2` values).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Frequency2 {
    /// The label, if any.
    pub label: Option<String>,
    /// The first expression's lower bound.
    pub low: i64,
    /// The first expression's upper bound (`bktfreq`: the first value of its last bucket).
    pub high: i64,
    /// The values a row counts (1 for `frequency`, `bktfreq`'s bucket size).
    pub size: i64,
    /// The second expression's lower bound.
    pub low2: i64,
    /// The second expression's upper bound (`bktfreq`: the first value of its last bucket).
    pub high2: i64,
    /// The values a column counts.
    pub size2: i64,
    /// Counts: a row per first value or bucket (below `low`, `low..=high`, above), a column
    /// per second value the same way.
    pub counts: Vec<Vec<u64>>,
}

/// The row of `v` on an axis of `n` rows of `size` values from `low`: 0 below `low`, `1..=n`
/// the rows, `n + 1` above the last.
fn axis_row(v: i64, low: i64, size: i64, n: usize) -> usize {
    if v < low {
        return 0;
    }
    let i = match size {
        1 => v.abs_diff(low),
        _ => v.abs_diff(low) / size.max(1).unsigned_abs(),
    };
    match usize::try_from(i) {
        Ok(i) if i < n => i + 1,
        _ => n + 1,
    }
}

/// suokko's `frequency` of a per-card value (`leadtricks`): a row per value (below `low`,
/// `low..=high`, above `high`), a column per opening lead card, each deal counting each of
/// its cards once.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FrequencyLead {
    /// The label, if any.
    pub label: Option<String>,
    /// The lowest value counted on its own.
    pub low: i64,
    /// The highest value counted on its own.
    pub high: i64,
    /// The columns' cards (`SA`, `H7`), those with a count, in suit order (spades, hearts,
    /// diamonds, clubs) and from the highest rank down.
    pub cards: Vec<String>,
    /// Counts: a row per value (below `low`, `low..=high`, above `high`), a column per card
    /// of `cards`.
    pub counts: Vec<Vec<u64>>,
    /// While the run counts: a row per value, a column per card of the pack (suited order);
    /// `cards` and `counts` are made of it at the end.
    #[serde(skip)]
    by_card: Vec<[u64; 52]>,
}

impl FrequencyLead {
    /// The row of value `v`: 0 below `low`, then `low..=high`, the last above `high`.
    fn row(&self, v: i64) -> usize {
        if v < self.low {
            0
        } else if v > self.high {
            (self.high - self.low + 2) as usize
        } else {
            (v - self.low + 1) as usize
        }
    }

    /// Makes `cards` and `counts` of the counts by card: the cards with a count, in order.
    fn settle(&mut self) {
        let used: Vec<usize> = (0..52)
            .filter(|&c| self.by_card.iter().any(|r| r[c] > 0))
            .collect();
        self.cards = used
            .iter()
            .map(|&c| {
                crate::model::card::Card::from_index(c).map_or(String::new(), |c| c.to_string())
            })
            .collect();
        self.counts = self
            .by_card
            .iter()
            .map(|r| used.iter().map(|&c| r[c]).collect())
            .collect();
    }
}

/// One summary of the run, in the order of the script's actions.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Summary {
    /// `average`.
    Average(Average),
    /// `frequency` of one expression.
    Frequency(Frequency),
    /// `frequency` of two expressions.
    Frequency2(Frequency2),
    /// `frequency` of a per-card value (suokko's `leadtricks`): a column per lead card.
    FrequencyLead(FrequencyLead),
    /// DealerV2's `bktfreq` of one expression, printed in DealerV2's layout.
    BktFreq(Frequency),
    /// DealerV2's `bktfreq` of two expressions, printed in DealerV2's layout.
    BktFreq2(Frequency2),
    /// `print(seats)`: the produced deals, printed at the end a seat at a time.
    Print(PrintSeats),
    /// `evalcontract`: the double-dummy tricks of North and South declaring, tallied; its
    /// text is dealer's table of average scores.
    EvalContract(Box<EvalContract>),
}

/// `print(seats)`'s deals: dealer prints them at the end of the run, one seat's hands of
/// every deal after another's, four deals a row, a form feed after each seat.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PrintSeats {
    /// The seats, in the order given (`N`, `E`, `S`, `W`).
    pub seats: Vec<char>,
    /// The produced deals as PBN deal strings (`N:…`).
    pub deals: Vec<String>,
    /// The deals themselves, for the text.
    #[serde(skip)]
    pub hands: Vec<Deal>,
    /// `-u`: the honours in lower case in the text.
    #[serde(skip)]
    pub lowercase: bool,
}

/// The report of a run: dealer's closing lines and the summaries.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DealerReport {
    /// Deals generated.
    pub generated: u64,
    /// Deals that met the condition (the actions ran on these).
    pub produced: u64,
    /// The seed (`-s`, else the one drawn), as a string. Over given deals
    /// ([`DealFeed::Given`]) it seeds only `rnd`.
    pub seed: String,
    /// Seconds the run took.
    pub seconds: f64,
    /// Deals solved double dummy (solver calls): for `tricks` one a deal, for suokko's
    /// `leadtricks` one a deal, seat and strain.
    pub solved: u64,
    /// Deals whose `tricks` were answered from a given table ([`DealFeed::Given`]), not
    /// solved.
    pub already_solved: u64,
    /// Given deals skipped for not holding the script's predealt cards or suit lengths
    /// ([`DealFeed::Given`]; 0 for a stream).
    pub skipped: u64,
    /// The averages and frequency tables, in the order of the actions.
    pub summaries: Vec<Summary>,
    /// True when `-t`'s time ran out before any deal met the condition.
    pub timed_out: bool,
    /// False with `-v`: the closing lines (`Generated …`) are not printed.
    #[serde(skip)]
    pub verbose: bool,
    /// The produced deals in order, with [`DealerJob::keep_produced`] (else empty).
    #[serde(skip)]
    pub kept: Vec<Deal>,
    /// The tables the run solved, each with its deal, in the order solved, with
    /// [`DealerJob::keep_solved`] (else empty); tables given with the deals are not in it.
    #[serde(skip)]
    pub solved_tables: Vec<(Deal, TrickTable)>,
}

/// C's `%g`: six significant digits, trailing zeros dropped.
pub(crate) fn format_g(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return format!("{x}");
    }
    let exp = x.abs().log10().floor() as i32;
    let e = format!("{:.5e}", x);
    let (mant, ex) = e.split_once('e').expect("e format");
    let ex: i32 = ex.parse().expect("exponent");
    let exp = if ex != exp { ex } else { exp };
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            s
        }
    };
    if !(-4..6).contains(&exp) {
        let m = trim(mant.to_owned());
        format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    } else {
        trim(format!("{:.*}", (5 - exp).max(0) as usize, x))
    }
}

impl fmt::Display for DealerReport {
    /// dealer's text: the summaries as dealer prints them, then (unless `-v`) the closing
    /// lines `Generated N hands`, `Produced N hands`, `Initial random seed S`,
    /// `Time needed    X.XXX sec`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.summaries {
            match s {
                // dealer prints C's `%g` of 0/0 without deals.
                Summary::Average(a) if a.count == 0 => match &a.label {
                    Some(l) => writeln!(f, "{l}: -nan")?,
                    None => writeln!(f, "-nan")?,
                },
                Summary::Average(a) => match &a.label {
                    Some(l) => writeln!(f, "{l}: {}", format_g(a.mean))?,
                    None => writeln!(f, "{}", format_g(a.mean))?,
                },
                // DealerV2's `bktfreq`: dealer's layout, a bucket's first value naming its
                // row, after an empty line.
                Summary::Frequency(q) | Summary::BktFreq(q) => {
                    if matches!(s, Summary::BktFreq(_)) {
                        writeln!(f)?;
                    }
                    writeln!(f, "Frequency {}:", q.label.as_deref().unwrap_or(""))?;
                    if q.below > 0 {
                        writeln!(f, "Low\t{:8}", q.below)?;
                    }
                    for (i, c) in q.counts.iter().enumerate() {
                        writeln!(f, "{:5}\t{c:8}", q.low + i as i64 * q.size)?;
                    }
                    if q.above > 0 {
                        writeln!(f, "High\t{:8}", q.above)?;
                    }
                }
                Summary::BktFreq2(q) => write_bktfreq2(f, q)?,
                Summary::Frequency2(q) => write_frequency2(f, q)?,
                Summary::FrequencyLead(q) => write_frequency_lead(f, q)?,
                Summary::Print(p) => write_print_seats(f, p)?,
                Summary::EvalContract(e) => write!(f, "{e}")?,
            }
        }
        if self.verbose {
            writeln!(f, "Generated {} hands", self.generated)?;
            writeln!(f, "Produced {} hands", self.produced)?;
            writeln!(f, "Initial random seed {}", self.seed)?;
            writeln!(f, "Time needed {:8.3} sec", self.seconds)?;
        }
        Ok(())
    }
}

/// DealerV2's two-way `bktfreq` table: every row and column, `Low` and `High` too, with
/// the sums of each row and column, after an empty line.
fn write_bktfreq2(f: &mut fmt::Formatter<'_>, q: &Frequency2) -> fmt::Result {
    writeln!(f)?;
    let label = q.label.as_deref().unwrap_or("");
    writeln!(f, "Showing 2D freq with Description[ {label} ]")?;
    write!(f, "         Low")?;
    let cols = q.counts.first().map_or(0, Vec::len);
    for c in 0..cols.saturating_sub(2) {
        write!(f, " {:6}", q.low2 + c as i64 * q.size2)?;
    }
    writeln!(f, "   High    Sum")?;
    let last = q.counts.len().saturating_sub(1);
    let leader = |r: usize, _: &[u64]| {
        Some(match r {
            0 => " Low ".to_owned(),
            r if r == last => " High".to_owned(),
            r => format!("{:4} ", q.low + (r as i64 - 1) * q.size),
        })
    };
    write_count_rows(f, &q.counts, cols, CountCell::Spaced, leader, " Sum ")
}

/// dealer's two-way `frequency` table: a row for each value of the first expression, a
/// column for each of the second, `Low` and `High` too, with the sums; an empty line after.
fn write_frequency2(f: &mut fmt::Formatter<'_>, q: &Frequency2) -> fmt::Result {
    writeln!(f, "Frequency {}:", q.label.as_deref().unwrap_or(""))?;
    write!(f, "    {:>7}", "Low")?;
    for v in q.low2..=q.high2 {
        write!(f, "{v:7}")?;
    }
    writeln!(f, "{:>7}{:>7}", "High", "Sum")?;
    let cols = q.counts.first().map_or(0, Vec::len);
    let last = q.counts.len().saturating_sub(1);
    let leader = |r: usize, _: &[u64]| Some(value_leader(r, last, q.low));
    write_count_rows(f, &q.counts, cols, CountCell::Dealer, leader, "Sum ")?;
    writeln!(f)
}

/// suokko's per-card `frequency` table: only the rows and the columns with a count, a
/// column per lead card, with the sums; an empty line after.
fn write_frequency_lead(f: &mut fmt::Formatter<'_>, q: &FrequencyLead) -> fmt::Result {
    writeln!(f, "Frequency {}:", q.label.as_deref().unwrap_or(""))?;
    write!(f, "    ")?;
    for card in &q.cards {
        write!(f, "     {card}")?;
    }
    writeln!(f, "    Sum")?;
    let last = q.counts.len().saturating_sub(1);
    // Only the rows with a count.
    let leader = |r: usize, row: &[u64]| {
        (!row.iter().all(|&n| n == 0)).then(|| value_leader(r, last, q.low))
    };
    write_count_rows(
        f,
        &q.counts,
        q.cards.len(),
        CountCell::Spaced,
        leader,
        "Sum ",
    )?;
    writeln!(f)
}

/// How a two-way frequency table writes a count: dealer's `{:7}`, or DealerV2's and suokko's
/// space and `{:6}`.
#[derive(Clone, Copy)]
enum CountCell {
    Dealer,
    Spaced,
}

impl CountCell {
    fn write(self, f: &mut fmt::Formatter<'_>, n: u64) -> fmt::Result {
        match self {
            CountCell::Dealer => write!(f, "{n:7}"),
            CountCell::Spaced => write!(f, " {n:6}"),
        }
    }
}

/// The 4-character leader of row `r` of a two-way table of one value a row, the rows below
/// and above the range first and `last`: `Low `, `High`, else the row's value from `low` on.
fn value_leader(r: usize, last: usize, low: i64) -> String {
    match r {
        0 => "Low ".to_owned(),
        r if r == last => "High".to_owned(),
        r => format!("{:4}", low + r as i64 - 1),
    }
}

/// Writes the rows of a two-way frequency table and its sums: each row of `counts` that
/// `leader(r, row)` gives a leader (`None` leaves the row out) after it, with its counts and
/// their sum as `cell`; then the row `sum_leader` with the sum of each of the `columns`
/// columns (of the rows written) and the total.
fn write_count_rows(
    f: &mut fmt::Formatter<'_>,
    counts: &[Vec<u64>],
    columns: usize,
    cell: CountCell,
    leader: impl Fn(usize, &[u64]) -> Option<String>,
    sum_leader: &str,
) -> fmt::Result {
    let mut sums = vec![0u64; columns];
    for (r, row) in counts.iter().enumerate() {
        let Some(lead) = leader(r, row) else {
            continue;
        };
        f.write_str(&lead)?;
        for (c, n) in row.iter().enumerate() {
            cell.write(f, *n)?;
            sums[c] += n;
        }
        cell.write(f, row.iter().sum())?;
        writeln!(f)?;
    }
    f.write_str(sum_leader)?;
    for n in &sums {
        cell.write(f, *n)?;
    }
    cell.write(f, sums.iter().sum())?;
    writeln!(f)
}

/// `print(seats)`'s text: each seat's hands of every deal, four deals a row in printall's
/// columns, a form feed after each seat.
fn write_print_seats(f: &mut fmt::Formatter<'_>, p: &PrintSeats) -> fmt::Result {
    for &letter in &p.seats {
        let seat = Seat::from_char(letter).expect("a seat letter");
        write!(f, "\n\n{} hands:\n\n\n\n", seat.name())?;
        for (row, chunk) in p.hands.chunks(4).enumerate() {
            for i in 0..chunk.len() {
                write!(f, "{:<20}", format!("{:4}.", row * 4 + i + 1))?;
            }
            writeln!(f)?;
            // printall's columns, a deal a column.
            let hands: Vec<Hand> = chunk.iter().map(|d| d.hand(seat)).collect();
            let mut text = Vec::with_capacity(4 * 80);
            DealerAll::push_columns(&mut text, &hands);
            if p.lowercase {
                text.make_ascii_lowercase();
            }
            f.write_str(&String::from_utf8_lossy(&text))?;
            writeln!(f)?;
        }
        write!(f, "\x0c")?;
    }
    Ok(())
}

/// The generation seed of dealer seed `n`: SHA-256 of `dealdex dealer seed ` and `n` in
/// decimal. A run's deals are the simulation stream of that seed
/// ([`Shuffler`](crate::generation::shuffle::Shuffler), dealing around the predealt cards;
/// with predealt suit lengths, [`LengthDealer`], which deals them directly): deal `k` is deal
/// `(k−1) mod 512` of piece `(k−1) / 512`; reproducible on any machine and any number of
/// threads, but not dealer's own random stream.
pub fn seed_of(n: u64) -> Seed {
    let digest = Sha256::digest(format!("dealdex dealer seed {n}").as_bytes());
    let mut bytes = [0u8; 32];
    bytes.copy_from_slice(&digest);
    Seed(bytes)
}

/// Writes `text` (hands and numbers: [`crate::formats`]' writers' bytes) to `out`, the
/// honours `AKQJT` in lower case when `lower` (`-u`).
fn write_cased(out: &mut dyn Write, text: &mut [u8], lower: bool) -> std::io::Result<()> {
    if lower {
        text.make_ascii_lowercase();
    }
    out.write_all(text)
}

/// DealerV2's `printside (side)`: the deal's number (`produced`) and the two players' names,
/// then a line a suit (spades first) of South's or West's cards then North's or East's, each
/// card followed by a space and the left hand padded to ten cards, `- ` for a void; a blank
/// line after. Into `buf`.
fn print_side(buf: &mut Vec<u8>, deal: &Deal, side: Side, produced: u64) {
    let seats = match side {
        Side::NorthSouth => [Seat::South, Seat::North],
        Side::EastWest => [Seat::West, Seat::East],
    };
    let _ = writeln!(
        buf,
        "{produced:4}. {:<5}              {:<5}",
        seats[0].name(),
        seats[1].name()
    );
    for suit in Suit::ALL {
        buf.extend_from_slice(b"     ");
        for (i, &seat) in seats.iter().enumerate() {
            let h = deal.hand(seat).mask() >> (suit as u32 * 13) & 0x1fff;
            let mut cards = 0;
            for r in 0..13 {
                if h >> r & 1 == 1 {
                    buf.extend_from_slice(&[b"AKQJT98765432"[r], b' ']);
                    cards += 1;
                }
            }
            if cards == 0 {
                buf.extend_from_slice(b"- ");
                cards = 1;
            }
            if i == 0 {
                for _ in cards..10 {
                    buf.extend_from_slice(b"  ");
                }
            }
        }
        buf.push(b'\n');
    }
    buf.push(b'\n');
}

/// DealerV2's `export (seat)`: `-N` and the seat's holdings as its command line's predeal
/// takes them, suit letter then cards, spades first, comma separated, a void left out, a space
/// at the end (`-N SAQ542,HKJ87,D32,CAK `). Into `buf`.
fn export_hand(buf: &mut Vec<u8>, deal: &Deal, seat: Seat) {
    buf.extend_from_slice(&[b'-', seat.letter() as u8, b' ']);
    let mut first = true;
    for suit in Suit::ALL {
        let h = deal.hand(seat).mask() >> (suit as u32 * 13) & 0x1fff;
        if h == 0 {
            continue;
        }
        if !first {
            buf.push(b',');
        }
        first = false;
        buf.push(suit.letter() as u8);
        for r in 0..13 {
            if h >> r & 1 == 1 {
                buf.push(b"AKQJT98765432"[r]);
            }
        }
    }
    buf.push(b' ');
}

/// DealerV2's `trix(…)`: the tricks of each seat of `seats` declaring in clubs, diamonds,
/// hearts, spades and notrump, comma separated.
fn tricks_text(table: &TrickTable, seats: &[Seat]) -> String {
    let strains = [
        Strain::Trumps(Suit::Clubs),
        Strain::Trumps(Suit::Diamonds),
        Strain::Trumps(Suit::Hearts),
        Strain::Trumps(Suit::Spades),
        Strain::NoTrump,
    ];
    let tricks: Vec<String> = seats
        .iter()
        .flat_map(|&seat| strains.map(|strain| table.tricks(seat, strain).to_string()))
        .collect();
    tricks.join(",")
}

/// DealerV2's `parcontract` text of `par` at `vul` (without its quotes): the first par
/// contract's level (2 wide) and strain (`N S H D C`), `*` when it is a doubled sacrifice
/// (else a space), `by` and its declarer (`NS` or `EW` when the next par contract is the same
/// by the partner: DDS's side), then the vulnerability (`none`, `ns`, `ew`, `both`):
/// ` 4S* by EW ns`. Passed out: ` 0N  by N none`, as DDS's empty par reads there.
fn par_contract_text(par: &Par, vul: Vulnerability) -> String {
    let vul = vul.spelled(["none", "ns", "ew", "both"]);
    let Some(first) = par.contracts.first() else {
        return format!(" 0N  by N {vul}");
    };
    let c = first.contract;
    let strain = match c.strain {
        Strain::NoTrump => 'N',
        Strain::Trumps(suit) => suit.letter(),
    };
    let doubled = if c.doubling == Doubling::Undoubled {
        ' '
    } else {
        '*'
    };
    let partner = Seat::ALL[(c.declarer.index() + 2) % 4];
    let pair = par.contracts.get(1).is_some_and(|next| {
        let d = next.contract;
        (d.level, d.strain, d.doubling, d.declarer) == (c.level, c.strain, c.doubling, partner)
    });
    let by = match (pair, c.declarer) {
        (true, Seat::North | Seat::South) => "NS".to_owned(),
        (true, _) => "EW".to_owned(),
        (false, seat) => seat.letter().to_string(),
    };
    format!("{:2}{strain}{doubled} by {by} {vul}", c.level)
}

/// Today's date (UTC) as `YYYY.MM.DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y}.{m:02}.{d:02}")
}

/// The value of `e` over the context's deal: by its kernel `k` in `program` when it has one.
fn value<'a>(
    program: &Program<'a>,
    k: &Option<Kernel<'a>>,
    ctx: &mut Ctx,
    e: &Expr,
) -> Result<i64, Error> {
    match k {
        Some(k) => program.run(k, &ctx.deal, ctx.memo),
        None => ctx.int(e),
    }
}

/// What a compiled condition said of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// False (zero).
    Fail,
    /// True (non-zero).
    Pass,
    /// An evaluation error, raised when the deal is reached.
    Error,
}

impl Summary {
    /// Counts one deal's value `v` (and `w`, a 2-D frequency's second value) in an average
    /// or a frequency table; other summaries are left alone.
    fn tally(&mut self, v: i64, w: i64) {
        match self {
            Summary::Average(a) => {
                a.count += 1;
                a.sum = a.sum.wrapping_add(v);
                a.sum_squares += (v as f64) * (v as f64);
            }
            Summary::Frequency(q) | Summary::BktFreq(q) => {
                let n = q.counts.len();
                match axis_row(v, q.low, q.size, n) {
                    0 => q.below += 1,
                    r if r > n => q.above += 1,
                    r => q.counts[r - 1] += 1,
                }
            }
            Summary::Frequency2(q) | Summary::BktFreq2(q) => {
                // Row and column: 0 below, 1.. the values, the last above.
                let (rows, cols) = (q.counts.len(), q.counts.first().map_or(0, Vec::len));
                let r = axis_row(v, q.low, q.size, rows.saturating_sub(2));
                let c = axis_row(w, q.low2, q.size2, cols.saturating_sub(2));
                q.counts[r][c] += 1;
            }
            Summary::Print(_) | Summary::EvalContract(_) | Summary::FrequencyLead(_) => {}
        }
    }

    /// Counts one deal's value of an average or a one-way frequency that may be per card
    /// (suokko's `leadtricks`): an average counts the mean of the cards' values, a
    /// [`FrequencyLead`] each card in its column.
    ///
    /// # Errors
    /// [`ErrorKind::MixedFrequency`] for a per-card value in a table of numbers or the
    /// reverse.
    fn tally_value(&mut self, v: &Value) -> Result<(), Error> {
        match (self, v) {
            (Summary::Average(a), Value::Cards(_)) => {
                let m = v.mean();
                a.count += 1;
                a.mean_sum += m;
                a.sum_squares += m * m;
            }
            (Summary::FrequencyLead(q), Value::Cards(cards)) => {
                for &(card, x) in cards {
                    let r = q.row(x);
                    q.by_card[r][card.index()] += 1;
                }
            }
            (Summary::FrequencyLead(_), Value::Num(_))
            | (Summary::Frequency(_), Value::Cards(_)) => {
                return Err(ErrorKind::MixedFrequency.into());
            }
            (s, v) => s.tally(v.int(), 0),
        }
        Ok(())
    }

    /// The same summary with nothing counted.
    fn emptied(&self) -> Summary {
        let mut s = self.clone();
        match &mut s {
            Summary::Average(a) => (a.count, a.sum, a.sum_squares, a.mean_sum) = (0, 0, 0.0, 0.0),
            Summary::Frequency(q) | Summary::BktFreq(q) => {
                (q.below, q.above) = (0, 0);
                q.counts.fill(0);
            }
            Summary::Frequency2(q) | Summary::BktFreq2(q) => {
                q.counts.iter_mut().for_each(|r| r.fill(0))
            }
            Summary::FrequencyLead(q) => q.by_card.iter_mut().for_each(|r| r.fill(0)),
            Summary::Print(_) | Summary::EvalContract(_) => {}
        }
        s
    }

    /// Adds what `other` (the same summary, over other deals) counted.
    fn merge(&mut self, other: &Summary) {
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        match (self, other) {
            (Summary::Average(a), Summary::Average(b)) => {
                a.count += b.count;
                a.sum = a.sum.wrapping_add(b.sum);
                a.sum_squares += b.sum_squares;
                a.mean_sum += b.mean_sum;
            }
            (Summary::Frequency(a), Summary::Frequency(b))
            | (Summary::BktFreq(a), Summary::BktFreq(b)) => {
                a.below += b.below;
                a.above += b.above;
                add(&mut a.counts, &b.counts);
            }
            (Summary::Frequency2(a), Summary::Frequency2(b))
            | (Summary::BktFreq2(a), Summary::BktFreq2(b)) => {
                a.counts
                    .iter_mut()
                    .zip(&b.counts)
                    .for_each(|(x, y)| add(x, y));
            }
            (Summary::FrequencyLead(a), Summary::FrequencyLead(b)) => {
                a.by_card
                    .iter_mut()
                    .zip(&b.by_card)
                    .for_each(|(x, y)| add(x, y));
            }
            _ => {}
        }
    }
}

/// Runs statistics-only actions (every action an average or a frequency, each compiled to
/// a column kernel in `columns` and a kernel in `kernels`) over the produced deals `deals`:
/// a piece at a time on all cores, the pieces' counts added in order into `summaries`.
///
/// # Errors
/// The first deal (its index in `deals`) whose value cannot be computed (an overflow: a
/// piece whose column overflowed is computed again deal by deal, to find it).
fn tally_columns<'a>(
    program: &Program<'a>,
    columns: &[[Option<Column<'a>>; 2]],
    kernels: &[[Option<Kernel<'a>>; 2]],
    deals: &[Deal],
    summaries: &mut [Summary],
) -> Result<(), (usize, Error)> {
    let tally = |(p, piece): (usize, &[Deal])| -> Result<Vec<Summary>, (usize, Error)> {
        let mut part: Vec<Summary> = summaries.iter().map(Summary::emptied).collect();
        let (mut v, mut w) = ([0i64; PIECE], [0i64; PIECE]);
        let (v, w) = (&mut v[..piece.len()], &mut w[..piece.len()]);
        for ((summary, [c, c2]), [k, k2]) in part.iter_mut().zip(columns).zip(kernels) {
            let mut exact = program.run_column(c.as_ref().expect("a column kernel"), piece, v);
            if let Some(c2) = c2 {
                exact &= program.run_column(c2, piece, w);
            }
            if !exact {
                let mut memo = program.memo();
                for (i, d) in piece.iter().enumerate() {
                    let at = |e| (p * PIECE + i, e);
                    v[i] = program
                        .run(k.as_ref().expect("a kernel"), d, &mut memo)
                        .map_err(at)?;
                    if let Some(k2) = k2 {
                        w[i] = program.run(k2, d, &mut memo).map_err(at)?;
                    }
                }
            }
            for (&x, &y) in v.iter().zip(w.iter()) {
                summary.tally(x, y);
            }
        }
        Ok(part)
    };
    let parts: Vec<Vec<Summary>> = match deals.len() <= SMALL {
        true => deals
            .chunks(PIECE)
            .enumerate()
            .map(tally)
            .collect::<Result<_, _>>()?,
        false => deals
            .par_chunks(PIECE)
            .enumerate()
            .map(tally)
            .collect::<Result<_, _>>()?,
    };
    for part in &parts {
        for (s, p) in summaries.iter_mut().zip(part) {
            s.merge(p);
        }
    }
    Ok(())
}

/// Deals a block or a tally takes on the calling thread instead of all cores: a run that
/// ends within its first block never starts the thread pool (its start-up is most of a
/// short run's time).
const SMALL: usize = 2 * PIECE;

/// Tests `deals` (at most [`PIECE`]) with the compiled condition: its column kernel when it
/// has one (a piece at a time), else `k` deal by deal; a verdict for each.
fn test<'a>(
    program: &Program<'a>,
    k: &Kernel<'a>,
    column: Option<&Column<'a>>,
    deals: &[Deal],
    verdicts: &mut [Verdict],
) {
    if let Some(c) = column {
        let mut values = [0i64; PIECE];
        let values = &mut values[..deals.len()];
        // An overflow: the deals again one by one, which says where it is an error.
        if program.run_column(c, deals, values) {
            for (v, &x) in verdicts.iter_mut().zip(values.iter()) {
                *v = if x != 0 { Verdict::Pass } else { Verdict::Fail };
            }
            return;
        }
    }
    let mut memo = program.memo();
    for (d, v) in deals.iter().zip(verdicts) {
        memo.next_deal();
        *v = match program.run(k, d, &mut memo) {
            Ok(0) => Verdict::Fail,
            Ok(_) => Verdict::Pass,
            Err(_) => Verdict::Error,
        };
    }
}

/// Runs `script` as dealer would: deals are generated (see [`seed_of`]), or taken in order
/// from the job's [`DealFeed::Given`] deals, until `generate` deals or `produce` of them meet
/// the condition (or the given deals end); the actions run on each produced deal, printing
/// deals to `out`; the report holds the counts and the summaries, and the produced deals
/// and solved tables the job keeps ([`DealerReport::kept`], [`DealerReport::solved_tables`]).
/// `progress` is called after every block of deals.
///
/// # Errors
/// [`ErrorKind::Eval`] when an expression cannot be evaluated (division by zero, `rnd(n)`
/// with n ≤ 0), [`ErrorKind::Io`] when writing to `out` fails, [`ErrorKind::Seed`]
/// without `-s` when the operating system gives no seed, [`ErrorKind::Predeal`] and
/// [`ErrorKind::SwapPredeal`] for a predeal that cannot be dealt,
/// [`ErrorKind::SwapGiven`] for swapping over given deals, and
/// [`ErrorKind::Stopped`] when the job's stop switch is turned on.
pub fn run(
    script: &Script,
    job: &DealerJob,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(DealerProgress),
) -> Result<DealerReport, Error> {
    let (mut kept, mut solved_tables) = (Vec::new(), Vec::new());
    let mut report = run_into(script, job, out, progress, &mut |deals, tables| {
        kept.extend_from_slice(deals);
        solved_tables.extend_from_slice(tables);
        Ok(())
    })?;
    report.kept = kept;
    report.solved_tables = solved_tables;
    Ok(report)
}

/// What [`run_into`] hands over after each block: the block's produced deals (with
/// [`DealerJob::keep_produced`]) and the tables it solved, each with its deal (with
/// [`DealerJob::keep_solved`]). An error it returns ends the run ([`ErrorKind::Sink`]).
pub type KeptSink<'a> = dyn FnMut(&[Deal], &[(Deal, TrickTable)]) -> Result<(), Error> + 'a;

/// [`run`], handing the produced deals and solved tables the job keeps to `keep` a block at a
/// time instead of holding them (the report's `kept` and `solved_tables` stay empty): memory
/// bounded by a block, however many deals are produced.
///
/// # Errors
/// As [`run`], and what `keep` returns.
pub fn run_into(
    script: &Script,
    job: &DealerJob,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(DealerProgress),
    keep: &mut KeptSink<'_>,
) -> Result<DealerReport, Error> {
    let start = Instant::now();
    let seed_n = seed_number(job, script)?;
    let seed = seed_of(seed_n);
    let generate = job.generate.unwrap_or(script.generate_limit());
    let produce = job.produce.unwrap_or(script.produce_limit());
    let predeal = predeal_of(script)?;
    check_swapping(script, job)?;
    let list = actions_of(script);
    // The condition with `tricks` tried last. Definitions are compiled once each (`graph`,
    // `program`), shared ones computed once a deal.
    let graph = Graph::of(script);
    let condition = script.condition.as_ref().map(|c| cheap_first(c, &graph));
    let compiled = Compiled::new(script, &graph, condition.as_ref(), &list);
    let mut draws = Draws::new(script, &seed, predeal.as_ref())?;
    let mut block = Block::new(compiled.kernel.is_some());
    let actions = Actions::new(script, job, &compiled, &list, out, seed_n);
    let mut run = Run::new(script, job, &compiled, produce, actions);
    let mut timed_out = false;
    while run.generated < generate && run.produced < produce {
        run.check_stop()?;
        if let Some(limit) = job.time_limit
            && run.produced == 0
            && start.elapsed() >= limit
        {
            timed_out = true;
            break;
        }
        let n = block.next_len(generate - run.generated);
        let (given, first_given, n) = match &job.feed {
            DealFeed::Stream => {
                let last = generate - run.generated <= n as u64;
                let n = draws.draw_stream(&compiled, job.swapping, &mut block, n, last);
                (&[][..], 0, n)
            }
            DealFeed::Given(feed) => {
                let (first, given) = draws.pull_given(feed, n, &mut block.deals);
                if given.is_empty() {
                    break;
                }
                (given, first, given.len())
            }
        };
        // Deals not tested as they were drawn (given, or swapped) are tested here.
        if !(given.is_empty() && job.swapping == Swapping::None) {
            compiled.test_block(&block.deals[..n], &mut block.verdicts[..n]);
        }
        let (deals, verdicts) = (&block.deals[..n], &block.verdicts[..n]);
        if run.take_block(deals, verdicts, given, first_given)? {
            break;
        }
        run.end_block(keep)?;
        progress(DealerProgress {
            generated: run.generated,
            produced: run.produced,
        });
    }
    run.finish(keep, start, timed_out)
}

/// The run's seed number: `-s`'s ([`DealerJob::seed`]), else the script's DealerV2
/// `seed N` (but `seed 0`, which DealerV2 seeds from the kernel), else drawn from the
/// operating system.
fn seed_number(job: &DealerJob, script: &Script) -> Result<u64, Error> {
    run_seed(job.seed, script)
}

/// The seed number a run of `script` with `-s seed` uses: `seed`, else the script's DealerV2
/// `seed N` (but `seed 0`, which DealerV2 seeds from the kernel), else one drawn from the
/// operating system (a new one each call).
///
/// # Errors
/// [`ErrorKind::Seed`] when the operating system's random source fails.
pub fn run_seed(seed: Option<u64>, script: &Script) -> Result<u64, Error> {
    Ok(match seed.or(script.seed.filter(|&s| s != 0)) {
        Some(s) => s,
        None => {
            let s = Seed::from_os().map_err(|e| Error::from(ErrorKind::Seed(e.to_string())))?;
            u64::from_le_bytes(s.0[..8].try_into().expect("8 bytes"))
        }
    })
}

/// The script's predealt cards as a [`Predeal`] (None when it predeals no card).
fn predeal_of(script: &Script) -> Result<Option<Predeal>, Error> {
    if script.predeal.iter().all(|&m| m == 0) {
        return Ok(None);
    }
    // The parser refuses a card predealt twice and a hand of more than 13 cards.
    Predeal::from_hands(script.predeal.map(Hand::from_mask))
        .map(Some)
        .ok_or_else(|| {
            ErrorKind::Predeal("a card predealt twice or a hand of more than 13".into()).into()
        })
}

/// Refuses swapping (`-2`, `-3`) over given deals, or that moves a seat with predealt cards
/// or lengths: swapping moves whole hands, so the predeal would not hold.
fn check_swapping(script: &Script, job: &DealerJob) -> Result<(), Error> {
    let flag = match job.swapping {
        Swapping::None => return Ok(()),
        Swapping::TwoWay => "-2",
        Swapping::ThreeWay => "-3",
    };
    if let DealFeed::Given(_) = job.feed {
        return Err(ErrorKind::SwapGiven { flag }.into());
    }
    for &seat in job.swapping.moved() {
        if script.predeal[seat.index()] != 0 || script.predeal_lengths.iter().any(|l| l.0 == seat) {
            return Err(ErrorKind::SwapPredeal {
                flag,
                seat: seat.name(),
                also: if flag == "-2" { " and South" } else { "" },
            }
            .into());
        }
    }
    Ok(())
}

/// The summaries of the script's actions, nothing counted yet: one for each average,
/// frequency, `print(seats)` and `evalcontract`, in the order of the actions.
fn summaries_of(script: &Script, job: &DealerJob, graph: &Graph) -> Vec<Summary> {
    script
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::Average(l, _) => Some(Summary::Average(Average {
                label: l.clone(),
                count: 0,
                sum: 0,
                mean_sum: 0.0,
                sum_squares: 0.0,
                mean: 0.0,
            })),
            // A per-card value (`leadtricks`): suokko's table, a column per lead card.
            Action::Frequency(l, e, lo, hi) if graph.per_card(e) => {
                Some(Summary::FrequencyLead(FrequencyLead {
                    label: l.clone(),
                    low: *lo,
                    high: *hi,
                    cards: Vec::new(),
                    counts: Vec::new(),
                    by_card: vec![[0; 52]; (hi - lo + 3).max(2) as usize],
                }))
            }
            Action::Frequency(l, _, lo, hi) => Some(Summary::Frequency(Frequency {
                label: l.clone(),
                low: *lo,
                high: *hi,
                size: 1,
                below: 0,
                counts: vec![0; (hi - lo + 1).max(0) as usize],
                above: 0,
            })),
            Action::Frequency2(l, _, lo, hi, _, lo2, hi2) => {
                Some(Summary::Frequency2(Frequency2 {
                    label: l.clone(),
                    low: *lo,
                    high: *hi,
                    size: 1,
                    low2: *lo2,
                    high2: *hi2,
                    size2: 1,
                    counts: vec![
                        vec![0; (hi2 - lo2 + 3).max(2) as usize];
                        (hi - lo + 3).max(2) as usize
                    ],
                }))
            }
            // DealerV2's buckets: `1 + (high - low) / size` of them, the last starting at
            // `high` or below it.
            Action::BktFreq(l, _, lo, hi, size) => {
                let n = buckets(*lo, *hi, *size);
                Some(Summary::BktFreq(Frequency {
                    label: l.clone(),
                    low: *lo,
                    high: lo + (n - 1) * size,
                    size: *size,
                    below: 0,
                    counts: vec![0; n as usize],
                    above: 0,
                }))
            }
            Action::BktFreq2(l, _, lo, hi, size, _, lo2, hi2, size2) => {
                let (n, n2) = (buckets(*lo, *hi, *size), buckets(*lo2, *hi2, *size2));
                Some(Summary::BktFreq2(Frequency2 {
                    label: l.clone(),
                    low: *lo,
                    high: lo + (n - 1) * size,
                    size: *size,
                    low2: *lo2,
                    high2: lo2 + (n2 - 1) * size2,
                    size2: *size2,
                    counts: vec![vec![0; n2 as usize + 2]; n as usize + 2],
                }))
            }
            Action::Print(seats) => Some(Summary::Print(PrintSeats {
                seats: seats.iter().map(|s| s.letter()).collect(),
                deals: Vec::new(),
                hands: Vec::new(),
                lowercase: job.lowercase,
            })),
            Action::EvalContract => Some(Summary::EvalContract(Box::default())),
            _ => None,
        })
        .collect()
}

/// The actions a produced deal gets: the script's, or dealer's default `printall` when it
/// has no `action` statement (an `action` statement with no action runs none).
fn actions_of(script: &Script) -> Vec<&Action> {
    if script.actions.is_empty() && !script.actions_given {
        vec![&Action::PrintAll]
    } else {
        script.actions.iter().collect()
    }
}

/// Whether a given deal holds the script's predealt cards and has its predealt suit lengths
/// (a given deal that does not is skipped).
fn fits_predeal(script: &Script, deal: &Deal) -> bool {
    let holds = Seat::ALL.iter().all(|&s| {
        let m = script.predeal[s.index()];
        deal.hand(s).mask() & m == m
    });
    holds
        && script.predeal_lengths.iter().all(|&(seat, suit, n)| {
            (deal.hand(seat).mask() >> (suit as u32 * 13) & 0x1fff).count_ones() == u32::from(n)
        })
}

/// A run's compiled script: the condition and the kernels of the condition and the actions.
/// Only expressions without state (no `rnd`, no `tricks`) have kernels; the rest is left to
/// the evaluator.
struct Compiled<'a> {
    /// The script's definitions and what they use.
    graph: &'a Graph,
    /// The shared definitions' kernels, which the others read.
    program: Program<'a>,
    /// The condition, with `tricks` tried last.
    condition: Option<&'a Expr>,
    /// The condition's kernel: the deals are then tested on all cores.
    kernel: Option<Kernel<'a>>,
    /// The condition's column kernel, when it cannot fail: tested a piece at a time.
    column: Option<Column<'a>>,
    /// The kernels of each action's average or frequency expressions.
    action_kernels: Vec<[Option<Kernel<'a>>; 2]>,
    /// Whether the condition uses `leadtricks` (then the evaluator's [`Value`] decides it).
    condition_lead: bool,
    /// Whether each action's average or frequency expressions use `leadtricks`.
    action_lead: Vec<[bool; 2]>,
    /// When every action is an average or a frequency with column kernels, those kernels:
    /// the produced deals of a block are counted together, a piece at a time on all cores.
    stat_columns: Option<Vec<[Option<Column<'a>>; 2]>>,
}

impl<'a> Compiled<'a> {
    /// Compiles `condition` and the expressions of `actions` (`graph` is the script's graph).
    fn new(
        script: &'a Script,
        graph: &'a Graph,
        condition: Option<&'a Expr>,
        actions: &[&'a Action],
    ) -> Compiled<'a> {
        let program = Program::new(script, graph);
        let kernel = condition.and_then(|c| program.compile(c));
        let column = condition.and_then(|c| program.compile_column(c));
        let action_kernels = actions
            .iter()
            .map(|&a| match a {
                Action::Average(_, e) | Action::Frequency(_, e, ..) | Action::BktFreq(_, e, ..) => {
                    [program.compile(e), None]
                }
                Action::Frequency2(_, e, _, _, e2, ..)
                | Action::BktFreq2(_, e, _, _, _, e2, ..) => {
                    [program.compile(e), program.compile(e2)]
                }
                _ => [None, None],
            })
            .collect();
        let stat_columns = actions
            .iter()
            .map(|&a| match a {
                Action::Average(_, e) | Action::Frequency(_, e, ..) | Action::BktFreq(_, e, ..) => {
                    Some([Some(program.compile_column(e)?), None])
                }
                Action::Frequency2(_, e, _, _, e2, ..)
                | Action::BktFreq2(_, e, _, _, _, e2, ..) => Some([
                    Some(program.compile_column(e)?),
                    Some(program.compile_column(e2)?),
                ]),
                _ => None,
            })
            .collect();
        let lead = |e: &Expr| graph.uses(e).lead;
        let action_lead = actions
            .iter()
            .map(|&a| match a {
                Action::Average(_, e) | Action::Frequency(_, e, ..) | Action::BktFreq(_, e, ..) => {
                    [lead(e), false]
                }
                Action::Frequency2(_, e, _, _, e2, ..)
                | Action::BktFreq2(_, e, _, _, _, e2, ..) => [lead(e), lead(e2)],
                _ => [false, false],
            })
            .collect();
        Compiled {
            graph,
            program,
            condition,
            condition_lead: condition.is_some_and(lead),
            action_lead,
            kernel,
            column,
            action_kernels,
            stat_columns,
        }
    }

    /// Tests `deals` with the condition's kernel (when it has one) a piece at a time, on all
    /// cores (on the calling thread for a small block), a verdict for each deal.
    fn test_block(&self, deals: &[Deal], verdicts: &mut [Verdict]) {
        let Some(k) = &self.kernel else {
            return;
        };
        let check = |(deals, verdicts): (&[Deal], &mut [Verdict])| {
            test(&self.program, k, self.column.as_ref(), deals, verdicts)
        };
        if deals.len() <= SMALL {
            deals
                .chunks(PIECE)
                .zip(verdicts.chunks_mut(PIECE))
                .for_each(check);
        } else {
            deals
                .par_chunks(PIECE)
                .zip(verdicts.par_chunks_mut(PIECE))
                .for_each(check);
        }
    }
}

/// Deals a block holds at most when each deal is tested in turn; a compiled condition,
/// which tests them on all cores, takes 8 times as many (fewer hand-overs between threads).
const BLOCK: usize = 4096;

/// The deals of the block in hand and the compiled condition's verdict on each, grown with
/// the blocks: a short run touches only the memory its first blocks use.
struct Block {
    /// The block's deals (the first ones; the rest is left from larger blocks).
    deals: Vec<Deal>,
    /// Each deal's verdict when the compiled condition tested it.
    verdicts: Vec<Verdict>,
    /// The next block's size: the first blocks are smaller, doubling up to `most`, so a
    /// script that produces what it wants within a few thousand deals draws no more than it
    /// needs (a whole first block cost short runs more than the deals they use).
    next: usize,
    /// The largest block.
    most: usize,
}

impl Block {
    /// Room for no deal yet; `compiled`: the condition has a kernel.
    fn new(compiled: bool) -> Block {
        Block {
            deals: Vec::new(),
            verdicts: Vec::new(),
            next: 2 * PIECE,
            most: if compiled { 8 * BLOCK } else { BLOCK },
        }
    }

    /// The size of the next block, `remaining` deals before `generate`; room is made for it.
    fn next_len(&mut self, remaining: u64) -> usize {
        let n = (remaining as usize).min(self.next);
        self.next = (2 * self.next).min(self.most);
        if self.deals.len() < n {
            self.deals.resize(n, Deal::BY_SUITS);
            self.verdicts.resize(n, Verdict::Fail);
        }
        n
    }
}

/// Where a run's deals come from, and how far it has taken them.
struct Draws {
    /// The stream's deals around the predealt cards.
    shuffler: Shuffler,
    /// Predealt suit lengths are dealt directly, uniform over the deals that have them.
    length_dealer: Option<LengthDealer>,
    /// The stream's next piece.
    next_piece: u64,
    /// Given deals pulled from the feed and not yet taken (the first `pending_at` are taken).
    pending: Vec<GivenDeal>,
    /// Given deals taken by the blocks before (see `pending`).
    pending_at: usize,
    /// The given deals taken so far.
    drawn: u64,
}

impl Draws {
    /// The stream of `seed` with the script's predealt cards and suit lengths.
    fn new(script: &Script, seed: &Seed, predeal: Option<&Predeal>) -> Result<Draws, Error> {
        let shuffler = Shuffler::new(seed, predeal);
        let length_dealer = match script.predeal_lengths.is_empty() {
            true => None,
            false => Some(
                LengthDealer::new(seed, script.predeal, &script.predeal_lengths)
                    .map_err(|e| Error::from(ErrorKind::Predeal(e.to_string())))?,
            ),
        };
        Ok(Draws {
            shuffler,
            length_dealer,
            next_piece: 0,
            pending: Vec::new(),
            pending_at: 0,
            drawn: 0,
        })
    }

    /// Draws the stream's next `n` deals into `block` (`last`: the run's last block), on all
    /// cores, each piece from its own place in the stream: the same deals whatever the number
    /// of threads. Without swapping, the compiled condition tests each piece as it is drawn.
    /// Returns the number of deals, swapped ones included.
    fn draw_stream(
        &mut self,
        compiled: &Compiled<'_>,
        swapping: Swapping,
        block: &mut Block,
        n: usize,
        last: bool,
    ) -> usize {
        // Swapping (-2, -3): a block ends on a whole group of deals (but at `generate`), and
        // one deal of each group is drawn.
        let wanted = swapping.whole(n, last);
        let shuffles = swapping.shuffles(wanted);
        let test_now = swapping == Swapping::None;
        let draw = |(i, (piece, verdicts)): (usize, (&mut [Deal], &mut [Verdict]))| {
            match &self.length_dealer {
                Some(l) => l.fill(self.next_piece + i as u64, piece),
                None => self.shuffler.fill(self.next_piece + i as u64, piece),
            }
            if let (Some(k), true) = (&compiled.kernel, test_now) {
                test(
                    &compiled.program,
                    k,
                    compiled.column.as_ref(),
                    piece,
                    verdicts,
                );
            }
        };
        let deals = &mut block.deals[..shuffles];
        let verdicts = &mut block.verdicts[..shuffles];
        // On one thread, drawn here: handing each block to the pool's one worker and waiting
        // for it cost two thread wake-ups a block (5 % of a never-true script's time).
        if shuffles <= SMALL || rayon::current_num_threads() == 1 {
            deals
                .chunks_mut(PIECE)
                .zip(verdicts.chunks_mut(PIECE))
                .enumerate()
                .for_each(draw);
        } else {
            deals
                .par_chunks_mut(PIECE)
                .zip(verdicts.par_chunks_mut(PIECE))
                .enumerate()
                .for_each(draw);
        }
        self.next_piece += shuffles.div_ceil(PIECE) as u64;
        // Swapping: the shuffled deals, each followed by its permutations.
        swapping.expand(&mut block.deals[..wanted], shuffles)
    }

    /// The next block of given deals, at most `n`, copied into `deals`: pieces are pulled from
    /// `feed` until a block's worth is pending or the feed ends. Returns how many given deals
    /// the blocks before took, and the block (empty at the end of the feed).
    fn pull_given(
        &mut self,
        feed: &GivenFeed,
        n: usize,
        deals: &mut [Deal],
    ) -> (u64, &[GivenDeal]) {
        self.pending.drain(..self.pending_at);
        while self.pending.len() < n
            && let Some(piece) = feed.next_piece()
        {
            self.pending.extend(piece);
        }
        let block = &self.pending[..n.min(self.pending.len())];
        let first = self.drawn;
        if block.is_empty() {
            return (first, block);
        }
        self.pending_at = block.len();
        for (slot, g) in deals.iter_mut().zip(block) {
            *slot = g.deal;
        }
        self.drawn += block.len() as u64;
        (first, block)
    }
}

/// A run in progress: the deals are taken in order, counted, tested, and the produced ones
/// given to the actions.
struct Run<'r, 'a> {
    script: &'a Script,
    job: &'r DealerJob,
    compiled: &'r Compiled<'a>,
    /// The most deals to produce.
    produce: u64,
    /// The definitions' values for the deal in hand, for the evaluator and the actions'
    /// kernels.
    memo: Memo,
    /// `rnd`'s state (the seed number to start).
    rnd: u64,
    /// Deals solved double dummy.
    solved: u64,
    /// Deals generated (given deals tested).
    generated: u64,
    /// Deals that met the condition.
    produced: u64,
    /// Given deals skipped for not fitting the predeal.
    skipped: u64,
    /// Given deals whose `tricks` were answered from their table.
    already_solved: u64,
    /// The block's produced deals, handed to `keep` after the block.
    kept: Vec<Deal>,
    /// The tables the block solved, handed to `keep` after the block.
    solved_tables: Vec<(Deal, TrickTable)>,
    /// The actions, and what they print and count.
    actions: Actions<'r, 'a>,
}

impl<'r, 'a> Run<'r, 'a> {
    /// A run of `script` with nothing taken yet, producing at most `produce` deals.
    fn new(
        script: &'a Script,
        job: &'r DealerJob,
        compiled: &'r Compiled<'a>,
        produce: u64,
        actions: Actions<'r, 'a>,
    ) -> Run<'r, 'a> {
        Run {
            script,
            job,
            compiled,
            produce,
            memo: compiled.program.memo(),
            rnd: actions.seed_n,
            solved: 0,
            generated: 0,
            produced: 0,
            skipped: 0,
            already_solved: 0,
            kept: Vec::new(),
            solved_tables: Vec::new(),
            actions,
        }
    }

    /// [`ErrorKind::Stopped`] when the job's stop switch is on.
    fn check_stop(&self) -> Result<(), Error> {
        if self
            .job
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(ErrorKind::Stopped {
                generated: self.generated,
                produced: self.produced,
            }
            .into());
        }
        Ok(())
    }

    /// Takes the block's deals in order (`verdicts`: the compiled condition's); `given` holds
    /// them as given (empty for the stream), `first_given` given deals being taken before.
    /// True when the run has produced its `produce` deals (the rest of the block is left).
    fn take_block(
        &mut self,
        deals: &[Deal],
        verdicts: &[Verdict],
        given: &[GivenDeal],
        first_given: u64,
    ) -> Result<bool, Error> {
        let n = deals.len();
        // Deals the compiled condition refused are only counted.
        let count_only = self.compiled.kernel.is_some() && given.is_empty();
        let mut j = 0;
        while j < n {
            if count_only {
                let refused = verdicts[j..n]
                    .iter()
                    .position(|&v| v != Verdict::Fail)
                    .unwrap_or(n - j);
                self.generated += refused as u64;
                j += refused;
                if j == n {
                    break;
                }
            }
            let deal = &deals[j];
            let verdict = verdicts[j];
            j += 1;
            if !given.is_empty() && !fits_predeal(self.script, deal) {
                self.skipped += 1;
                continue;
            }
            self.generated += 1;
            let number = match given.is_empty() {
                true => self.generated,
                false => first_given + j as u64,
            };
            if self.take_deal(deal, verdict, given.get(j - 1), number)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Tests `deal`, the `number`th (`given` as given), and, when it meets the condition,
    /// produces it and runs the actions on it. True when the run has produced its `produce`
    /// deals.
    fn take_deal(
        &mut self,
        deal: &Deal,
        verdict: Verdict,
        given: Option<&GivenDeal>,
        number: u64,
    ) -> Result<bool, Error> {
        let table = given.and_then(|g| g.table);
        self.memo.next_deal();
        let mut ctx = Ctx {
            script: self.script,
            graph: self.compiled.graph,
            memo: &mut self.memo,
            deal: *deal,
            table,
            rnd: &mut self.rnd,
            solved: &mut self.solved,
            tricks_used: false,
            leads: Vec::new(),
        };
        let wrap = |error| -> Error {
            ErrorKind::Eval {
                deal: number,
                error,
                given: given.map(|g| Box::new(*g)),
            }
            .into()
        };
        let compiled = self.compiled;
        let ok = match (&compiled.condition, &compiled.kernel) {
            (Some(_), Some(k)) => match verdict {
                Verdict::Pass => true,
                Verdict::Fail => false,
                // The kernel again, for its error.
                Verdict::Error => compiled.program.run(k, deal, ctx.memo).map_err(wrap)? != 0,
            },
            (Some(c), None) if compiled.condition_lead => ctx.value(c).map_err(wrap)?.truth(),
            (Some(c), None) => ctx.eval(c).map_err(wrap)? != 0,
            (None, _) => true,
        };
        let keep_solved = self.job.keep_solved;
        if !ok {
            let (tables, already) = (&mut self.solved_tables, &mut self.already_solved);
            settle(&ctx, table, keep_solved, tables, already);
            return Ok(false);
        }
        self.produced += 1;
        if self.job.keep_produced {
            self.kept.push(*deal);
        }
        self.actions
            .on_deal(&mut ctx, deal, self.produced, number, &wrap)?;
        let (tables, already) = (&mut self.solved_tables, &mut self.already_solved);
        settle(&ctx, table, keep_solved, tables, already);
        Ok(self.produced >= self.produce)
    }

    /// After a block: the statistics-only actions count its produced deals, and its kept
    /// deals and solved tables are handed to `keep`.
    fn end_block(&mut self, keep: &mut KeptSink<'_>) -> Result<(), Error> {
        self.actions.tally_block()?;
        if !self.kept.is_empty() || !self.solved_tables.is_empty() {
            keep(&self.kept, &self.solved_tables)?;
            self.kept.clear();
            self.solved_tables.clear();
        }
        Ok(())
    }

    /// Ends the run (the last block's deals counted and handed over, the averages' means) and
    /// reports it; `start`: when it started.
    fn finish(
        mut self,
        keep: &mut KeptSink<'_>,
        start: Instant,
        timed_out: bool,
    ) -> Result<DealerReport, Error> {
        self.end_block(keep)?;
        let mut summaries = self.actions.summaries;
        for s in &mut summaries {
            if let Summary::Average(a) = s
                && a.count > 0
            {
                a.mean = (a.sum as f64 + a.mean_sum) / a.count as f64;
            }
            if let Summary::FrequencyLead(q) = s {
                q.settle();
            }
        }
        Ok(DealerReport {
            generated: self.generated,
            produced: self.produced,
            seed: self.actions.seed_n.to_string(),
            seconds: start.elapsed().as_secs_f64(),
            solved: self.solved,
            already_solved: self.already_solved,
            skipped: self.skipped,
            summaries,
            timed_out,
            verbose: true,
            kept: Vec::new(),
            solved_tables: Vec::new(),
        })
    }
}

/// A run's actions: where they print and what they count.
struct Actions<'r, 'a> {
    /// The actions, in order ([`actions_of`]).
    list: &'r [&'a Action],
    script: &'a Script,
    job: &'r DealerJob,
    compiled: &'r Compiled<'a>,
    /// Where the deals are printed.
    out: &'r mut dyn Write,
    /// `printpbn`'s `[Event]` (`Hand simulated by dealer with file NAME, seed N`, NAME `-`
    /// for no script file) and `[Date]`.
    event: String,
    date: String,
    /// The seed number, for `rnd` and the report (`printpbn`'s `[Event]` holds it too).
    seed_n: u64,
    /// `printpbn`'s board: the script's dealer and vulnerability and dealer's tags (made for
    /// the first deal printed, then given each deal and its number).
    pbn: Option<Board>,
    /// The bytes of the deal being printed, as the format writers make them.
    buf: Vec<u8>,
    /// The options of the format writers (their defaults: dealer's layouts use none).
    write_opts: WriteOptions,
    /// The summaries, in the order of the actions ([`summaries_of`]).
    summaries: Vec<Summary>,
    /// The block's produced deals, for the statistics-only actions
    /// ([`Compiled::stat_columns`]), and their numbers (for an error).
    produced_deals: Vec<Deal>,
    produced_numbers: Vec<u64>,
    /// DealerV2's `printside`: the script's title is printed before the next side printed
    /// (the first, then after each tenth deal's form feed).
    side_title_due: bool,
}

impl<'r, 'a> Actions<'r, 'a> {
    /// The actions `list` of `script`, printing to `out`, nothing counted yet.
    fn new(
        script: &'a Script,
        job: &'r DealerJob,
        compiled: &'r Compiled<'a>,
        list: &'r [&'a Action],
        out: &'r mut dyn Write,
        seed_n: u64,
    ) -> Actions<'r, 'a> {
        Actions {
            list,
            script,
            job,
            compiled,
            out,
            event: format!(
                "Hand simulated by dealer with file {}, seed {seed_n}",
                job.script_name.as_deref().unwrap_or("-")
            ),
            date: job.date.clone().unwrap_or_else(today),
            seed_n,
            pbn: None,
            buf: Vec::with_capacity(512),
            write_opts: WriteOptions::default(),
            summaries: summaries_of(script, job, compiled.graph),
            produced_deals: Vec::new(),
            produced_numbers: Vec::new(),
            side_title_due: true,
        }
    }

    /// Runs the actions on `deal`, the `produced`th produced deal and the `number`th
    /// generated or given (`ctx` evaluates over it, `wrap` makes its evaluation errors);
    /// statistics-only actions keep it for after the block.
    fn on_deal(
        &mut self,
        ctx: &mut Ctx<'_>,
        deal: &Deal,
        produced: u64,
        number: u64,
        wrap: &dyn Fn(Error) -> Error,
    ) -> Result<(), Error> {
        let compiled = self.compiled;
        if compiled.stat_columns.is_some() {
            self.produced_deals.push(*deal);
            self.produced_numbers.push(number);
            return Ok(());
        }
        // The summary of the next action that has one.
        let mut k = 0;
        let kernels = compiled.action_kernels.iter().zip(&compiled.action_lead);
        for (&a, (ks, lead)) in self.list.iter().zip(kernels) {
            match a {
                Action::Print(_) => {
                    if let Summary::Print(p) = &mut self.summaries[k] {
                        p.hands.push(*deal);
                        p.deals
                            .push(crate::model::deal_string::format_deal(deal, Seat::North));
                    }
                    k += 1;
                }
                Action::EvalContract => {
                    let table = ctx.table();
                    if let Summary::EvalContract(e) = &mut self.summaries[k] {
                        e.add(&table);
                    }
                    k += 1;
                }
                Action::Average(_, e) | Action::Frequency(_, e, ..) | Action::BktFreq(_, e, ..)
                    if lead[0] =>
                {
                    let v = ctx.value(e).map_err(wrap)?;
                    self.summaries[k].tally_value(&v).map_err(wrap)?;
                    k += 1;
                }
                Action::Average(_, e) | Action::Frequency(_, e, ..) | Action::BktFreq(_, e, ..) => {
                    let v = value(&compiled.program, &ks[0], ctx, e).map_err(wrap)?;
                    self.summaries[k].tally(v, 0);
                    k += 1;
                }
                Action::Frequency2(_, e, _, _, e2, ..)
                | Action::BktFreq2(_, e, _, _, _, e2, ..) => {
                    let v = value(&compiled.program, &ks[0], ctx, e).map_err(wrap)?;
                    let w = value(&compiled.program, &ks[1], ctx, e2).map_err(wrap)?;
                    self.summaries[k].tally(v, w);
                    k += 1;
                }
                _ => self.print(a, ctx, deal, produced, wrap)?,
            }
        }
        Ok(())
    }

    /// Runs a printing action on `deal`, the `produced`th produced deal.
    fn print(
        &mut self,
        a: &Action,
        ctx: &mut Ctx<'_>,
        deal: &Deal,
        produced: u64,
        wrap: &dyn Fn(Error) -> Error,
    ) -> Result<(), Error> {
        let (out, lower) = (&mut *self.out, self.job.lowercase);
        let (buf, opts) = (&mut self.buf, &self.write_opts);
        buf.clear();
        // Each layout is its format's writer's (crate::formats), `-u` lower-casing its bytes.
        match a {
            Action::PrintAll => {
                DealerAll.write_board(&Board::new(produced, *deal), opts, buf);
                write_cased(out, buf, lower)?;
            }
            Action::PrintEw => {
                DealerEw.write_board(&Board::unnumbered(*deal), opts, buf);
                write_cased(out, buf, lower)?;
            }
            // One line (`n AKQ.… e … `), the value after its last space; or a line a hand,
            // the value on a line of its own (dealer 20211121).
            Action::PrintOneLine(e) => {
                OneLine::push_hands(buf, deal, &Seat::ALL, b' ');
                write_cased(out, buf, lower)?;
                if let Some(e) = e {
                    write!(out, "{}", ctx.int(e).map_err(wrap)?)?;
                }
                writeln!(out)?;
            }
            Action::PrintCompact(e) => {
                DealerCompact.write_board(&Board::unnumbered(*deal), opts, buf);
                write_cased(out, buf, lower)?;
                if let Some(e) = e {
                    writeln!(out, "{}", ctx.int(e).map_err(wrap)?)?;
                }
            }
            Action::PrintPbn if !self.job.quiet => self.write_pbn(deal, produced)?,
            Action::PrintPbn => {}
            Action::CsvRpt(items) | Action::PrintRpt(items) => {
                write_report_line(out, buf, items, ctx, deal, lower, wrap)?
            }
            Action::PrintSide(side) => {
                let title = self.script.title.as_deref().filter(|t| !t.is_empty());
                if let Some(title) = title
                    && self.side_title_due
                {
                    writeln!(out, "{:18}[{title}]", "")?;
                    self.side_title_due = false;
                }
                print_side(buf, deal, *side, produced);
                out.write_all(buf)?;
                if produced.is_multiple_of(10) && title.is_some() {
                    write!(out, "\x0c")?;
                    self.side_title_due = true;
                }
            }
            Action::Export(seats) => {
                for (i, &seat) in seats.iter().enumerate() {
                    if i > 0 {
                        buf.push(b' ');
                    }
                    export_hand(buf, deal, seat);
                }
                buf.push(b'\n');
                out.write_all(buf)?;
            }
            Action::PrintEs(items) => {
                for it in items {
                    match it {
                        EsItem::Str(s) => write!(out, "{s}")?,
                        EsItem::Newline => writeln!(out)?,
                        EsItem::Expr(e) => write!(out, "{}", ctx.int(e).map_err(wrap)?)?,
                    }
                }
            }
            // Gathered into summaries by `on_deal`.
            Action::Print(_)
            | Action::EvalContract
            | Action::Average(..)
            | Action::Frequency(..)
            | Action::Frequency2(..)
            | Action::BktFreq(..)
            | Action::BktFreq2(..) => {}
        }
        Ok(())
    }

    /// `printpbn`: `deal`, the `produced`th produced deal, as a PBN game in dealer's layout
    /// ([`GameLayout::Dealer`]) with dealer's tags: `[Event "Hand simulated by dealer with
    /// file NAME, seed N"]`, Site and the players `-`, the date, Board the produced count,
    /// the script's dealer and vulnerability (else the board's), Declarer, Contract and
    /// Result `?`.
    fn write_pbn(&mut self, deal: &Deal, produced: u64) -> std::io::Result<()> {
        let (script, date) = (self.script, &self.date);
        let board = self.pbn.get_or_insert_with(|| {
            let tags = [
                ("Site", "-"),
                ("Date", date),
                ("West", "-"),
                ("North", "-"),
                ("East", "-"),
                ("South", "-"),
                ("Declarer", "?"),
                ("Contract", "?"),
                ("Result", "?"),
            ];
            Board {
                dealer: script.dealer,
                vulnerability: script.vulnerable,
                game: Some(Box::new(GameRecord {
                    tags: tags.map(|(n, v)| (n.to_owned(), v.to_owned())).to_vec(),
                    ..GameRecord::default()
                })),
                ..Board::unnumbered(*deal)
            }
        });
        board.number = Some(produced);
        board.deal = *deal;
        self.buf.clear();
        write_game(
            &mut self.buf,
            board,
            self.event.as_bytes(),
            GameLayout::Dealer,
        );
        self.out.write_all(&self.buf)
    }

    /// Counts the block's produced deals in the statistics-only actions' summaries
    /// ([`Compiled::stat_columns`]).
    ///
    /// # Errors
    /// [`ErrorKind::Eval`] for the first deal whose value cannot be computed.
    fn tally_block(&mut self) -> Result<(), Error> {
        if let Some(columns) = &self.compiled.stat_columns {
            let program = &self.compiled.program;
            let kernels = &self.compiled.action_kernels;
            let deals = &self.produced_deals;
            tally_columns(program, columns, kernels, deals, &mut self.summaries).map_err(
                |(i, error)| -> Error {
                    ErrorKind::Eval {
                        deal: self.produced_numbers[i],
                        error,
                        given: None,
                    }
                    .into()
                },
            )?;
            self.produced_deals.clear();
            self.produced_numbers.clear();
        }
        Ok(())
    }
}

/// DealerV2's `csvrpt` and `printrpt`: the items of `deal`, comma separated, on a line that
/// starts with a space (hands as dealer's `printoneline` writes them, made in `buf`).
fn write_report_line(
    out: &mut dyn Write,
    buf: &mut Vec<u8>,
    items: &[CsvItem],
    ctx: &mut Ctx<'_>,
    deal: &Deal,
    lower: bool,
    wrap: &dyn Fn(Error) -> Error,
) -> Result<(), Error> {
    for (i, it) in items.iter().enumerate() {
        out.write_all(if i == 0 { b" " } else { b"," })?;
        match it {
            CsvItem::Expr(e) => write!(out, "{}", ctx.int(e).map_err(wrap)?)?,
            CsvItem::Str(s) => write!(out, "'{s}'")?,
            CsvItem::Hands(seats) => {
                buf.clear();
                OneLine::push_hands(buf, deal, seats, b' ');
                write_cased(out, buf, lower)?;
            }
            CsvItem::Tricks(seats) => {
                let table = ctx.table();
                out.write_all(tricks_text(&table, seats).as_bytes())?;
            }
            CsvItem::ParContract(vul) => {
                let par = ctx.table().par(Seat::North, *vul);
                write!(out, "'{}'", par_contract_text(&par, *vul))?;
            }
        }
    }
    writeln!(out)?;
    Ok(())
}

/// After a deal's condition (and actions): counts a given table that `tricks` used, and
/// keeps a table the deal's evaluation solved when `keep`.
fn settle(
    ctx: &Ctx<'_>,
    given: Option<TrickTable>,
    keep: bool,
    solved_tables: &mut Vec<(Deal, TrickTable)>,
    already_solved: &mut u64,
) {
    match (given, ctx.table) {
        (Some(_), _) if ctx.tricks_used => *already_solved += 1,
        (None, Some(t)) if keep => solved_tables.push((ctx.deal, t)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::ParContract;

    #[test]
    fn par_contract_text_is_dealer_v2s() {
        // DealerV2's reference lines (ddsParContract_s317): ` 3N  by NS both`, ` 4H  by N
        // both`, ` 4S* by EW ns`.
        // (score, par contracts as Contract's FromStr reads them, vulnerability, text).
        let cases: [(i32, &[&str], Vulnerability, &str); 5] = [
            (
                600,
                &["3NTN", "3NTS"],
                Vulnerability::All,
                " 3N  by NS both",
            ),
            (620, &["4HN", "4SS"], Vulnerability::None, " 4H  by N none"),
            (
                300,
                &["4SXE", "4SXW"],
                Vulnerability::NorthSouth,
                " 4S* by EW ns",
            ),
            (-1440, &["6CW"], Vulnerability::EastWest, " 6C  by W ew"),
            (0, &[], Vulnerability::None, " 0N  by N none"),
        ];
        for (score, contracts, vulnerability, text) in cases {
            let contracts = contracts
                .iter()
                .map(|c| ParContract {
                    contract: c.parse().unwrap(),
                    result: 0,
                })
                .collect();
            let par = Par { score, contracts };
            assert_eq!(par_contract_text(&par, vulnerability), text, "{par:?}");
        }
    }

    #[test]
    fn trix_lists_clubs_to_notrump_a_seat_at_a_time() {
        // Declarers N E S W, strains NT ♠ ♥ ♦ ♣ in the table; trix prints ♣ ♦ ♥ ♠ NT.
        let table = TrickTable::new([
            [1, 2, 3, 4, 5],
            [6, 7, 8, 9, 10],
            [11, 12, 13, 0, 1],
            [2, 3, 4, 5, 6],
        ])
        .unwrap();
        assert_eq!(tricks_text(&table, &[Seat::North]), "5,4,3,2,1");
        assert_eq!(
            tricks_text(&table, &[Seat::East, Seat::West]),
            "10,9,8,7,6,6,5,4,3,2"
        );
    }
}
