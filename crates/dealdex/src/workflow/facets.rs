//! Facets of a query's matches (`dealdex serve`'s query page, issue 52): how many matching
//! deals have each HCP by seat, each shape by seat, each double-dummy trick count of
//! North-South in notrump and each par score, every value with the query-language term that
//! narrows the query to it (`hcp(N) = 12`, `shape(N) = 4-4-3-2`, `dd(NS, nt) = 9`,
//! `par(NS, none) = 420`), as datasette shows facets beside its rows.
//!
//! Counted over the first [`FacetJob::limit`] matches in the order `dealdex query` lists
//! them (key order: the index's bytes are uniform over random deals, so a prefix is a fair
//! sample; FORMATS.md §2), or a set's boards in board order; [`FacetReport::complete`]
//! says whether that was all of them. The double-dummy facets read stored tables only: a
//! deal without one counts as "not solved", which no term selects.
//!
//! ```
//! use dealdex::workflow::facets::{FacetJob, run};
//! use dealdex::{DealIndex, Seed, Store};
//! let seed: Seed = "42".repeat(32).parse()?;
//! let keys: Vec<DealIndex> = (1..=50).map(|k| DealIndex::from_deal(&seed.board_deal(k))).collect();
//! let mut store = Store::open_in_memory()?;
//! store.insert_deals(&keys)?;
//! let report = run(&FacetJob::new(dealdex::query::Query::parse("hcp(N) >= 0")?), &store)?;
//! assert_eq!(report.counted, 50);
//! let hcp_n = &report.facets[0];
//! assert_eq!(hcp_n.name, "hcp(N)");
//! assert_eq!(hcp_n.values.iter().map(|v| v.count).sum::<u64>(), 50);
//! assert!(hcp_n.values[0].term.as_deref().unwrap().starts_with("hcp(N) = "));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use serde::Serialize;

use crate::dd::TablePar;
use crate::features::{Shape, Side, hcp};
use crate::query::Query;
use crate::{DealIndex, Seat, StoreError, StoreErrorKind, StoreReader, Strain, Vulnerability};

/// How many matches the facets count by default: 100,000 (some 0.5 s on one core).
pub const DEFAULT_FACET_LIMIT: u64 = 100_000;

/// The most values a facet lists (the most frequent; HCP and tricks list all of theirs).
pub const MAX_FACET_VALUES: usize = 15;

/// Which deals to count facets over.
#[derive(Clone, Debug)]
pub struct FacetJob {
    /// The query.
    pub query: Query,
    /// Only the boards of this stored set; `None`: every stored deal.
    pub set: Option<String>,
    /// Count at most this many matches.
    pub limit: u64,
}

impl FacetJob {
    /// Facets of `query` over every stored deal, at most [`DEFAULT_FACET_LIMIT`] matches.
    pub fn new(query: Query) -> FacetJob {
        FacetJob {
            query,
            set: None,
            limit: DEFAULT_FACET_LIMIT,
        }
    }
}

/// The facets of a query's matches.
#[derive(Clone, Debug, Serialize)]
pub struct FacetReport {
    /// Matches counted.
    pub counted: u64,
    /// Whether they are every match (false: the first [`FacetJob::limit`]).
    pub complete: bool,
    /// `hcp(N)`, `hcp(E)`, `hcp(S)`, `hcp(W)`, `shape(N)` … `shape(W)`, `dd(NS, nt)`,
    /// `par(NS, none)`, in this order.
    pub facets: Vec<Facet>,
}

/// One facet: a term of the query language and how many matches have each of its values.
#[derive(Clone, Debug, Serialize)]
pub struct Facet {
    /// The term, as the query language writes it (`hcp(N)`).
    pub name: String,
    /// The values: HCP and tricks in ascending order, shapes and par scores most frequent
    /// first (at most [`MAX_FACET_VALUES`]).
    pub values: Vec<FacetValue>,
}

/// A facet's value and its count.
#[derive(Clone, Debug, Serialize)]
pub struct FacetValue {
    /// The value as text (`12`, `4-4-3-2`, `-100`, or `not solved`).
    pub value: String,
    /// Matches counted with it.
    pub count: u64,
    /// The condition selecting it (`hcp(N) = 12`), to add to the query with `and`; `None`
    /// for "not solved".
    pub term: Option<String>,
}

/// The value of a deal without a stored table, in the double-dummy facets.
const NOT_SOLVED: &str = "not solved";

/// Counts of one facet by value, in the value's order.
type Tally<K> = BTreeMap<K, u64>;

/// Counts the facets of `job`'s matches in `store`.
///
/// # Errors
/// [`StoreError`] when the database cannot be read, or a stored table does not decode.
pub fn run(job: &FacetJob, store: &StoreReader) -> Result<FacetReport, StoreError> {
    let filter = job.query.to_sql();
    let mut keys = Vec::new();
    // One past the limit tells "exactly the limit" from "more".
    let asked = job.limit.saturating_add(1);
    store.for_each_match(&filter, job.set.as_deref(), Some(asked), |key, _| {
        keys.push(key);
        Ok::<(), StoreError>(())
    })?;
    let complete = keys.len() as u64 <= job.limit;
    keys.truncate(usize::try_from(job.limit).unwrap_or(usize::MAX));
    let mut hcps: [Tally<u8>; 4] = Default::default();
    let mut shapes: [Tally<String>; 4] = Default::default();
    let mut tricks: Tally<Option<u8>> = Tally::new();
    let mut pars: Tally<Option<i32>> = Tally::new();
    for key in &keys {
        tally_hands(key, &mut hcps, &mut shapes)?;
        let table = store.dd_table(key)?;
        *tricks
            .entry(table.map(|t| t.side_tricks(Side::NorthSouth, Strain::NoTrump)))
            .or_default() += 1;
        *pars
            .entry(table.map(|t| t.par(Seat::North, Vulnerability::None).score))
            .or_default() += 1;
    }
    let mut facets = Vec::new();
    for (seat, tally) in Seat::ALL.iter().zip(hcps) {
        facets.push(facet(format!("hcp({})", seat.letter()), tally, false));
    }
    for (seat, tally) in Seat::ALL.iter().zip(shapes) {
        facets.push(facet(format!("shape({})", seat.letter()), tally, true));
    }
    facets.push(facet("dd(NS, nt)".into(), tricks, false));
    facets.push(facet("par(NS, none)".into(), pars, true));
    Ok(FacetReport {
        counted: keys.len() as u64,
        complete,
        facets,
    })
}

/// Adds the HCP and shape of `key`'s four hands to the tallies.
fn tally_hands(
    key: &DealIndex,
    hcps: &mut [Tally<u8>; 4],
    shapes: &mut [Tally<String>; 4],
) -> Result<(), StoreError> {
    let deal = key
        .to_deal()
        .map_err(|error| StoreErrorKind::CorruptDeal { key: *key, error })?;
    for (i, &seat) in Seat::ALL.iter().enumerate() {
        let hand = deal.hand(seat);
        *hcps[i].entry(hcp(hand)).or_default() += 1;
        *shapes[i].entry(Shape::of(hand).to_string()).or_default() += 1;
    }
    Ok(())
}

/// A value of a facet: its text, and the condition selecting it.
trait FacetKey {
    /// The text (`None`: a deal without a table).
    fn text(&self) -> Option<String>;

    /// The condition of facet `name` selecting this value (`None`: none does).
    fn term(&self, name: &str) -> Option<String> {
        self.text().map(|t| format!("{name} = {t}"))
    }
}

impl FacetKey for u8 {
    fn text(&self) -> Option<String> {
        Some(self.to_string())
    }
}

impl FacetKey for String {
    fn text(&self) -> Option<String> {
        Some(self.clone())
    }
}

impl FacetKey for Option<u8> {
    fn text(&self) -> Option<String> {
        self.as_ref().and_then(FacetKey::text)
    }
}

/// A par score from North-South's view; the query language has no negative literal, so
/// East-West's gains are selected from their side (`par(EW, none) = 100`).
impl FacetKey for Option<i32> {
    fn text(&self) -> Option<String> {
        self.map(|s| s.to_string())
    }

    fn term(&self, _: &str) -> Option<String> {
        self.map(|s| match s < 0 {
            true => format!("par(EW, none) = {}", s.unsigned_abs()),
            false => format!("par(NS, none) = {s}"),
        })
    }
}

/// The facet `name` from its tally: in value order, or most frequent first; at most
/// [`MAX_FACET_VALUES`] values.
fn facet<K: FacetKey>(name: String, tally: Tally<K>, by_count: bool) -> Facet {
    let mut values: Vec<FacetValue> = tally
        .into_iter()
        .map(|(k, count)| FacetValue {
            value: k.text().unwrap_or_else(|| NOT_SOLVED.to_owned()),
            count,
            term: k.term(&name),
        })
        .collect();
    if by_count {
        // Stable: equal counts keep the value order.
        values.sort_by_key(|v| std::cmp::Reverse(v.count));
        values.truncate(MAX_FACET_VALUES);
    }
    Facet { name, values }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Deal, Store};

    /// Every term a facet offers parses, and selects exactly the deals it counted.
    #[test]
    fn terms_select_what_they_count() {
        let spades: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
            .parse()
            .unwrap();
        let seed: crate::Seed = "17".repeat(32).parse().unwrap();
        let mut keys: Vec<DealIndex> = (1..=40)
            .map(|k| DealIndex::from_deal(&seed.board_deal(k)))
            .collect();
        keys.push(DealIndex::from_deal(&spades));
        let mut store = Store::open_in_memory().unwrap();
        store.insert_deals(&keys).unwrap();
        let all = Query::parse("hcp(N) >= 0").unwrap();
        let report = run(&FacetJob::new(all), &store).unwrap();
        assert_eq!((report.counted, report.complete), (41, true));
        let names: Vec<&str> = report.facets.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names[..5],
            ["hcp(N)", "hcp(E)", "hcp(S)", "hcp(W)", "shape(N)"]
        );
        for f in &report.facets[..8] {
            assert_eq!(
                f.values.iter().map(|v| v.count).sum::<u64>(),
                41,
                "{}",
                f.name
            );
            assert_terms_select(&store, f);
        }
        let shape_n = &report.facets[4];
        assert!(
            shape_n
                .values
                .iter()
                .any(|v| v.value == "13-0-0-0" && v.count == 1)
        );
        // Nothing is solved: one "not solved" value, which no term selects.
        let dd = &report.facets[8];
        assert_eq!(dd.values.len(), 1);
        assert_eq!(
            (dd.values[0].value.as_str(), dd.values[0].count),
            (NOT_SOLVED, 41)
        );
        assert!(dd.values[0].term.is_none());
        // Solved: every par and trick term selects what was counted (EW's gains from
        // their side).
        let tables: Vec<_> = keys[..12]
            .iter()
            .map(|k| (*k, crate::dd::solve(&k.to_deal().unwrap())))
            .collect();
        store.store_dd(&tables).unwrap();
        let all = Query::parse("hcp(N) >= 0").unwrap();
        let report = run(&FacetJob::new(all), &store).unwrap();
        for f in &report.facets[8..] {
            let solved: u64 = f
                .values
                .iter()
                .filter(|v| v.term.is_some())
                .map(|v| v.count)
                .sum();
            assert_eq!(solved, 12, "{}", f.name);
            assert_terms_select(&store, f);
        }
    }

    /// Each term of `f` parses and selects as many deals of `store` as `f` counted.
    fn assert_terms_select(store: &Store, f: &Facet) {
        for v in &f.values {
            let Some(term) = v.term.as_deref() else {
                continue;
            };
            let q = Query::parse(term).unwrap();
            let n = store.count_deals(&q.to_sql(), None).unwrap();
            assert_eq!(n, v.count, "{term}");
        }
    }

    /// A limit below the matches counts that many and says so.
    #[test]
    fn a_limit_counts_a_prefix() {
        let seed: crate::Seed = "18".repeat(32).parse().unwrap();
        let keys: Vec<DealIndex> = (1..=30)
            .map(|k| DealIndex::from_deal(&seed.board_deal(k)))
            .collect();
        let mut store = Store::open_in_memory().unwrap();
        store.insert_deals(&keys).unwrap();
        let job = FacetJob {
            limit: 10,
            ..FacetJob::new(Query::parse("hcp(N) >= 0").unwrap())
        };
        let report = run(&job, &store).unwrap();
        assert_eq!((report.counted, report.complete), (10, false));
    }
}
