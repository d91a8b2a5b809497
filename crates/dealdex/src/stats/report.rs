//! The statistics report: tables, tests, outliers; text and JSON output.

use serde::Serialize;

use super::fit::{Fit, FitTest, MIN_EXPECTED, OUTLIER_Z, SIGNIFICANCE, fit};
use super::theory::{
    CARD_SEAT_PROBABILITY, HCP_VALUES, hand_pairs_total, hcp_pair_counts, hcp_probabilities,
    pattern_hand_counts, pattern_pair_counts, pattern_probabilities,
};
use super::{PATTERN_COUNT, PATTERNS, SetStats};
use crate::model::card::{Card, Seat};
use crate::model::features::Shape;

/// The statistics of a set of deals against theory: the HCP, suit-pattern and card-seat
/// tables, each with its chi-square test ([`FitTest`]) and outliers.
///
/// Counts are integers, probabilities and expected counts `f64`. Serializes (serde) to the
/// JSON of [`Report`] (its serde serialization), with keys `deals`, `hands`, `significance`, `outlier_z`,
/// `hcp`, `patterns`, `card_seats`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Deals counted.
    pub deals: u64,
    /// Hands counted (4 a deal).
    pub hands: u64,
    /// The tests' significance level, [`SIGNIFICANCE`] (0.001).
    pub significance: f64,
    /// The outlier threshold on |standardized residual|, [`OUTLIER_Z`] (3.29).
    pub outlier_z: f64,
    /// HCP of every hand, values 0..=37 in order.
    pub hcp: Table,
    /// Sorted suit pattern of every hand, the 39 patterns from the most likely (4-4-3-2).
    pub patterns: Table,
    /// Each card's seat.
    pub card_seats: CardSeatTable,
}

/// A one-way table (HCP or pattern) of hands against theory.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// What is counted, e.g. `HCP per hand`.
    pub title: String,
    /// One row per value.
    pub rows: Vec<Row>,
    /// The tail bin that cells with small expectations were pooled into, if any.
    pub pooled: Option<PooledBin>,
    /// The chi-square test of fit over the bins.
    pub test: FitTest,
    /// Bins whose |residual| exceeds [`OUTLIER_Z`], in table order.
    pub outliers: Vec<Outlier>,
}

/// One value of a [`Table`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The value: an HCP count (`10`) or a sorted pattern (`4-4-3-2`).
    pub value: String,
    /// Hands observed with this value.
    pub observed: u64,
    /// The exact probability of the value for a random hand.
    pub probability: f64,
    /// Expected hands: probability × hands.
    pub expected: f64,
    /// Standardized residual (O − E)/√E (0 when E = 0).
    pub residual: f64,
    /// The cell was pooled into the tail bin (and is tested only as part of it).
    pub pooled: bool,
    /// |residual| > [`OUTLIER_Z`] (only unpooled cells are flagged).
    pub outlier: bool,
}

/// The bin of pooled tail cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PooledBin {
    /// The values pooled, in table order.
    pub cells: Vec<String>,
    /// Observed count of the bin.
    pub observed: u64,
    /// Expected count of the bin.
    pub expected: f64,
    /// Standardized residual of the bin.
    pub residual: f64,
    /// |residual| > [`OUTLIER_Z`].
    pub outlier: bool,
}

/// A flagged cell or bin.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outlier {
    /// The cell: `10`, `4-4-3-2`, `pooled`, or card and seat `SA N`.
    pub cell: String,
    /// Observed count.
    pub observed: u64,
    /// Expected count.
    pub expected: f64,
    /// Standardized residual (O − E)/√E.
    pub residual: f64,
}

/// The card-seat table: 52 cards × 4 seats, each cell expected deals/4.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardSeatTable {
    /// The probability of each cell, 1/4.
    pub probability: f64,
    /// The expected count of each cell, deals/4.
    pub expected: f64,
    /// One row per card in suited order (♠A first).
    pub rows: Vec<CardSeatRow>,
    /// The chi-square test of fit over the 208 cells.
    pub test: FitTest,
    /// Cells whose |residual| exceeds [`OUTLIER_Z`].
    pub outliers: Vec<Outlier>,
}

/// One card's seats.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardSeatRow {
    /// The card, suit letter then rank letter (`SA`, `CT`).
    pub card: String,
    /// Deals with the card in N, E, S, W.
    pub observed: [u64; 4],
    /// Standardized residuals (O − E)/√E for N, E, S, W.
    pub residuals: [f64; 4],
    /// |residual| > [`OUTLIER_Z`] for N, E, S, W.
    pub outlier: [bool; 4],
}

/// (O − E)/√E, 0 when E is 0.
fn residual(o: u64, e: f64) -> f64 {
    if e > 0.0 {
        (o as f64 - e) / e.sqrt()
    } else {
        0.0
    }
}

/// Builds a one-way table of hands from cell labels, counts, probabilities and pair
/// probabilities `q[j][k]` (two seats of a deal).
fn hand_table(
    title: &str,
    labels: &[String],
    observed: &[u64],
    p: &[f64],
    q: impl Fn(usize, usize) -> f64,
    deals: u64,
) -> Table {
    // Per deal, cell j's count is the sum of 4 hands' indicators: mean 4p, covariance
    // 4(p_j δ_jk − p_j p_k) + 12(q_jk − p_j p_k) (12 ordered pairs of distinct seats).
    let per_deal: Vec<f64> = p.iter().map(|x| 4.0 * x).collect();
    let cov = |j: usize, k: usize| {
        let d = if j == k { p[j] } else { 0.0 };
        4.0 * (d - p[j] * p[k]) + 12.0 * (q(j, k) - p[j] * p[k])
    };
    let Fit {
        test,
        pooled,
        pooled_bin,
    } = fit(observed, &per_deal, cov, deals, 1);
    let hands = (deals * 4) as f64;
    let mut outliers = Vec::new();
    let rows: Vec<Row> = (0..labels.len())
        .map(|j| {
            let expected = p[j] * hands;
            let residual = residual(observed[j], expected);
            let outlier = !pooled[j] && residual.abs() > OUTLIER_Z;
            if outlier {
                outliers.push(Outlier {
                    cell: labels[j].clone(),
                    observed: observed[j],
                    expected,
                    residual,
                });
            }
            Row {
                value: labels[j].clone(),
                observed: observed[j],
                probability: p[j],
                expected,
                residual,
                pooled: pooled[j],
                outlier,
            }
        })
        .collect();
    let pooled = pooled_bin.map(|(o, e)| {
        let r = residual(o, e);
        let outlier = test.p_value.is_some() && r.abs() > OUTLIER_Z;
        if outlier {
            outliers.push(Outlier {
                cell: "pooled".to_string(),
                observed: o,
                expected: e,
                residual: r,
            });
        }
        PooledBin {
            cells: (0..labels.len())
                .filter(|&j| pooled[j])
                .map(|j| labels[j].clone())
                .collect(),
            observed: o,
            expected: e,
            residual: r,
            outlier,
        }
    });
    Table {
        title: title.to_string(),
        rows,
        pooled,
        test,
        outliers,
    }
}

/// The report of `s` (see [`SetStats::report`]).
pub(crate) fn build(s: &SetStats) -> Report {
    let deals = s.deals;
    let pairs_total = hand_pairs_total() as f64;

    let hcp_p = hcp_probabilities();
    let hcp_q = hcp_pair_counts();
    let hcp_labels: Vec<String> = (0..HCP_VALUES).map(|h| h.to_string()).collect();
    let hcp = hand_table(
        "HCP per hand",
        &hcp_labels,
        &s.hcp,
        &hcp_p,
        |j, k| hcp_q[j][k] as f64 / pairs_total,
        deals,
    );

    // Patterns from the most likely down (exact integer counts decide the order).
    let counts = pattern_hand_counts();
    let mut order: Vec<usize> = (0..PATTERN_COUNT).collect();
    order.sort_by(|&a, &b| counts[b].cmp(&counts[a]));
    let pat_p_all = pattern_probabilities();
    let pat_q = pattern_pair_counts();
    let pat_labels: Vec<String> = order
        .iter()
        .map(|&i| Shape(PATTERNS[i]).to_string())
        .collect();
    let pat_obs: Vec<u64> = order.iter().map(|&i| s.patterns[i]).collect();
    let pat_p: Vec<f64> = order.iter().map(|&i| pat_p_all[i]).collect();
    let patterns = hand_table(
        "Sorted suit pattern per hand",
        &pat_labels,
        &pat_obs,
        &pat_p,
        |j, k| pat_q[order[j]][order[k]] as f64 / pairs_total,
        deals,
    );

    Report {
        deals,
        hands: deals * 4,
        significance: SIGNIFICANCE,
        outlier_z: OUTLIER_Z,
        hcp,
        patterns,
        card_seats: card_seat_table(s),
    }
}

/// The card-seat table and its test.
fn card_seat_table(s: &SetStats) -> CardSeatTable {
    let deals = s.deals;
    // Cell c·4 + seat. Per deal: P(card in seat) = 1/4; two different cards are in the same
    // seat with probability (13/52)(12/51), in two given different seats (13/52)(13/51).
    let observed: Vec<u64> = s.card_seat.iter().flatten().copied().collect();
    let per_deal = vec![CARD_SEAT_PROBABILITY; 52 * 4];
    let pp = CARD_SEAT_PROBABILITY * CARD_SEAT_PROBABILITY;
    let same_seat = 13.0 * 12.0 / (52.0 * 51.0);
    let other_seat = 13.0 * 13.0 / (52.0 * 51.0);
    let cov = |j: usize, k: usize| match (j / 4 == k / 4, j % 4 == k % 4) {
        (true, true) => CARD_SEAT_PROBABILITY - pp,
        (true, false) => -pp,
        (false, true) => same_seat - pp,
        (false, false) => other_seat - pp,
    };
    let Fit { test, pooled, .. } = fit(&observed, &per_deal, cov, deals, 52 + 4 - 1);
    let expected = deals as f64 * CARD_SEAT_PROBABILITY;
    let mut outliers = Vec::new();
    let rows = Card::all()
        .map(|card| {
            let c = card.index();
            let obs = s.card_seat[c];
            let residuals = obs.map(|o| residual(o, expected));
            let outlier =
                std::array::from_fn(|i| !pooled[c * 4 + i] && residuals[i].abs() > OUTLIER_Z);
            for seat in Seat::ALL {
                let i = seat.index();
                if outlier[i] {
                    outliers.push(Outlier {
                        cell: format!("{card} {seat}"),
                        observed: obs[i],
                        expected,
                        residual: residuals[i],
                    });
                }
            }
            CardSeatRow {
                card: card.to_string(),
                observed: obs,
                residuals,
                outlier,
            }
        })
        .collect();
    CardSeatTable {
        probability: CARD_SEAT_PROBABILITY,
        expected,
        rows,
        test,
        outliers,
    }
}

/// Right-aligns the cells of each column to a common width, two spaces apart.
fn align(out: &mut String, rows: &[Vec<String>]) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c > 0 {
                line.push_str("  ");
            }
            // The first column (labels) and the last (flags) align left, numbers right.
            if c == 0 || c + 1 == cols {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', pad));
            } else {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

impl Table {
    /// The table as aligned text: a title line, a header, one line per value (`pooled` or
    /// `OUTLIER` in the flag column), the pooled bin, and the test's summary line.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}\n", self.title);
        let mut rows = vec![
            ["value", "observed", "expected", "residual", "flag"]
                .map(String::from)
                .to_vec(),
        ];
        for r in &self.rows {
            let flag = match (r.pooled, r.outlier) {
                (_, true) => "OUTLIER",
                (true, false) => "pooled",
                (false, false) => "",
            };
            rows.push(vec![
                r.value.clone(),
                r.observed.to_string(),
                format!("{:.2}", r.expected),
                format!("{:+.2}", r.residual),
                flag.to_string(),
            ]);
        }
        if let Some(p) = &self.pooled {
            rows.push(vec![
                format!("pooled ({} cells)", p.cells.len()),
                p.observed.to_string(),
                format!("{:.2}", p.expected),
                format!("{:+.2}", p.residual),
                if p.outlier { "OUTLIER" } else { "" }.to_string(),
            ]);
        }
        align(&mut out, &rows);
        out.push_str(&self.test.summary());
        out.push('\n');
        out
    }
}

impl CardSeatTable {
    /// The table as aligned text: one line per card with its N, E, S, W counts and
    /// residuals, the seats flagged as outliers, and the test's summary line.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "Card seats (expected {:.2} deals per card and seat)\n",
            self.expected
        );
        let mut rows = vec![
            [
                "card", "N", "E", "S", "W", "z N", "z E", "z S", "z W", "flag",
            ]
            .map(String::from)
            .to_vec(),
        ];
        for r in &self.rows {
            let mut row = vec![r.card.clone()];
            row.extend(r.observed.iter().map(u64::to_string));
            row.extend(r.residuals.iter().map(|z| format!("{z:+.2}")));
            let flagged: Vec<String> = Seat::ALL
                .iter()
                .filter(|s| r.outlier[s.index()])
                .map(|s| s.letter().to_string())
                .collect();
            row.push(if flagged.is_empty() {
                String::new()
            } else {
                format!("OUTLIER {}", flagged.join(" "))
            });
            rows.push(row);
        }
        align(&mut out, &rows);
        out.push_str(&self.test.summary());
        out.push('\n');
        out
    }
}

impl Report {
    /// The report as text: a header, then the HCP, pattern and card-seat tables, each ending
    /// with its one-line test summary, then the outliers of all tables.
    ///
    /// ```
    /// let text = dealdex::stats::SetStats::new().report().to_text();
    /// assert!(text.contains("0 deals"));
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "Set statistics: {} deals, {} hands; tests at the {} % level (cells expected \
             below {MIN_EXPECTED} pooled), outliers |z| > {}\n\n",
            self.deals,
            self.hands,
            self.significance * 100.0,
            self.outlier_z
        );
        out.push_str(&self.hcp.to_text());
        out.push('\n');
        out.push_str(&self.patterns.to_text());
        out.push('\n');
        out.push_str(&self.card_seats.to_text());
        out.push('\n');
        let all: Vec<(&str, &Outlier)> = [
            ("HCP", &self.hcp.outliers),
            ("pattern", &self.patterns.outliers),
            ("card seat", &self.card_seats.outliers),
        ]
        .into_iter()
        .flat_map(|(t, o)| o.iter().map(move |x| (t, x)))
        .collect();
        if all.is_empty() {
            out.push_str("Outliers: none\n");
        } else {
            out.push_str("Outliers:\n");
            for (t, o) in all {
                out.push_str(&format!(
                    "  {t} {}: observed {}, expected {:.2}, z = {:+.2}\n",
                    o.cell, o.observed, o.expected, o.residual
                ));
            }
        }
        out
    }

    /// Whether all three tests pass at [`SIGNIFICANCE`]; `None` if any table had too few
    /// deals for a test.
    pub fn passes(&self) -> Option<bool> {
        Some(self.hcp.test.passes? && self.patterns.test.passes? && self.card_seats.test.passes?)
    }
}

/// The report as text ([`Report::to_text`]), as `dealdex stats` prints it; its JSON is the
/// serde serialization of [`Report`] (counts as integers, probabilities, expectations,
/// residuals and statistics as numbers, a missing p-value as `null`).
impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_text())
    }
}
