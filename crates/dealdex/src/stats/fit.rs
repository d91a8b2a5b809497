//! Chi-square tests of fit with tail pooling and a correction for the dependence between
//! the cells of one deal.

use serde::Serialize;

use super::gamma::chi_square_sf;

/// The significance level of the tests: 0.1 %.
pub const SIGNIFICANCE: f64 = 0.001;

/// Cells whose expected count is below this are pooled into one bin before the test
/// (the usual rule of thumb for Pearson's chi-square approximation).
pub const MIN_EXPECTED: f64 = 5.0;

/// A cell (or the pooled bin) is an outlier when its standardized residual (O − E)/√E
/// exceeds this in absolute value: the two-sided 0.1 % point of the standard normal.
pub const OUTLIER_Z: f64 = 3.29;

/// A chi-square test of fit of one table.
///
/// **Bins.** Every cell with expected count ≥ [`MIN_EXPECTED`] is a bin of its own; all
/// cells below it (the tails: HCP 0–1 and 30+, the rarest patterns) are pooled into one bin.
/// If that bin is still expected below [`MIN_EXPECTED`], the remaining cell with the smallest
/// expectation joins it, until it reaches it or no cell is left. With fewer than two bins (too
/// few deals) there is no test.
///
/// **Statistic.** Pearson's X² = Σ (O − E)²/E over the bins, with nominal degrees of
/// freedom `df` = bins − 1 for the HCP and pattern tables and (52 − 1)(4 − 1) = 153 for the
/// card-seat table: each card is in exactly one seat (row sums = deals) *and* each seat holds
/// exactly 13 cards (column sums = 13 × deals).
///
/// **Dependence.** The four hands of a deal are not independent (their HCP sum to 40, their
/// suit lengths to 13 a suit), and neither are the 52 cards' seats, so X² is not exactly
/// χ²(df). It is asymptotically Σ λᵢ Zᵢ², with λᵢ the eigenvalues of the per-deal covariance
/// of the bin counts standardized by the expectations — computed exactly from the theoretical
/// distribution of *pairs* of hands of a deal ([`super::hcp_pair_counts`],
/// [`super::pattern_pair_counts`]) or of pairs of cards. The p-value uses the
/// Satterthwaite/Rao–Scott second-order match: X²/`scale` ~ χ²(`effective_df`), with
/// `scale` = Σλ²/Σλ and `effective_df` = (Σλ)²/Σλ². For the card seats all λ are 52/51 and
/// this is exact (`scale` = 52/51, `effective_df` = 153); for HCP and patterns `scale` is
/// within a few per cent of 1. Without dependence `scale` = 1 and `effective_df` = `df`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitTest {
    /// Pearson's X² = Σ (O − E)²/E over the bins.
    pub chi_square: f64,
    /// Nominal degrees of freedom: bins − 1, or 153 for the card-seat table.
    pub df: u64,
    /// The number of bins tested (unpooled cells, plus the pooled bin if any).
    pub bins: u64,
    /// The number of cells pooled into the tail bin (0 when none).
    pub pooled_cells: u64,
    /// The dependence correction's scale (1 for independent cells).
    pub scale: f64,
    /// The dependence correction's degrees of freedom.
    pub effective_df: f64,
    /// P(χ²(effective_df) ≥ chi_square/scale); `None` when there is no test (fewer than two
    /// bins, i.e. too few deals).
    pub p_value: Option<f64>,
    /// `p_value ≥` [`SIGNIFICANCE`]; `None` when there is no test.
    pub passes: Option<bool>,
}

impl FitTest {
    /// One line: `chi-square 12.3, df 20, p = 0.910 — passes at 0.1 %`, followed by the
    /// dependence correction in parentheses when it is not 1.
    pub fn summary(&self) -> String {
        let mut s = self.short_summary();
        if self.p_value.is_none() {
            return s;
        }
        if (self.scale - 1.0).abs() > 1e-9 || (self.effective_df - self.df as f64).abs() > 1e-6 {
            s.push_str(&format!(
                " (within-deal dependence: chi-square/{:.4} on {:.2} effective df)",
                self.scale, self.effective_df
            ));
        }
        if self.pooled_cells > 0 {
            s.push_str(&format!("; {} tail cells pooled", self.pooled_cells));
        }
        s
    }

    /// The first part of [`FitTest::summary`], without the correction and pooling notes:
    /// `chi-square 12.3, df 20, p = 0.910 — passes at 0.1 %`, or `no test: …`.
    pub fn short_summary(&self) -> String {
        let (Some(p), Some(passes)) = (self.p_value, self.passes) else {
            return format!(
                "no test: too few deals ({} bin{} with expected count ≥ {MIN_EXPECTED})",
                self.bins,
                if self.bins == 1 { "" } else { "s" }
            );
        };
        format!(
            "chi-square {:.1}, df {}, {} — {} at {} %",
            self.chi_square,
            self.df,
            format_p(p),
            if passes { "passes" } else { "FAILS" },
            SIGNIFICANCE * 100.0
        )
    }
}

/// `p = 0.912`, `p = 3.1e-7`, or `p < 1e-300` when it underflows.
fn format_p(p: f64) -> String {
    if p <= 0.0 {
        "p < 1e-300".to_string()
    } else if p < SIGNIFICANCE {
        format!("p = {p:.1e}")
    } else {
        format!("p = {p:.3}")
    }
}

/// The outcome of [`fit`]: the test, which cells were pooled, and the pooled bin's totals.
pub(crate) struct Fit {
    pub test: FitTest,
    /// Per cell: pooled into the tail bin.
    pub pooled: Vec<bool>,
    /// The pooled bin's observed and expected counts, if any cell was pooled.
    pub pooled_bin: Option<(u64, f64)>,
}

/// Tests `observed` (per cell, over `deals` deals) against `per_deal` (each cell's expected
/// count in one deal), with `cov(j, k)` the covariance of cells j and k's counts in one deal
/// and `constraints` the number of independent linear constraints on the cells (1, or 55 for
/// the card seats: 52 rows + 4 columns − 1) when no cell is pooled.
pub(crate) fn fit(
    observed: &[u64],
    per_deal: &[f64],
    cov: impl Fn(usize, usize) -> f64,
    deals: u64,
    constraints: u64,
) -> Fit {
    let n = deals as f64;
    let k = observed.len();
    let expected: Vec<f64> = per_deal.iter().map(|e| e * n).collect();
    let mut pooled: Vec<bool> = expected.iter().map(|&e| e < MIN_EXPECTED).collect();
    loop {
        let pooled_e: f64 = (0..k).filter(|&j| pooled[j]).map(|j| expected[j]).sum();
        if !pooled.iter().any(|&p| p) || pooled_e >= MIN_EXPECTED {
            break;
        }
        let smallest = (0..k)
            .filter(|&j| !pooled[j])
            .min_by(|&a, &b| expected[a].total_cmp(&expected[b]));
        match smallest {
            Some(j) => pooled[j] = true,
            None => break,
        }
    }
    // Bins: each unpooled cell, then the pooled cells together.
    let mut bins: Vec<Vec<usize>> = (0..k).filter(|&j| !pooled[j]).map(|j| vec![j]).collect();
    let tail: Vec<usize> = (0..k).filter(|&j| pooled[j]).collect();
    let pooled_cells = tail.len() as u64;
    let pooled_bin = (!tail.is_empty()).then(|| {
        (
            tail.iter().map(|&j| observed[j]).sum::<u64>(),
            tail.iter().map(|&j| expected[j]).sum::<f64>(),
        )
    });
    if !tail.is_empty() {
        bins.push(tail);
    }
    let nb = bins.len() as u64;
    let df = if pooled_cells == 0 {
        nb.saturating_sub(constraints)
    } else {
        nb.saturating_sub(1)
    };
    let mut test = FitTest {
        chi_square: 0.0,
        df,
        bins: nb,
        pooled_cells,
        scale: 1.0,
        effective_df: df as f64,
        p_value: None,
        passes: None,
    };
    if df == 0 || n == 0.0 {
        return Fit {
            test,
            pooled,
            pooled_bin,
        };
    }
    test.chi_square = bins
        .iter()
        .map(|b| {
            let o: u64 = b.iter().map(|&j| observed[j]).sum();
            let e: f64 = b.iter().map(|&j| expected[j]).sum();
            (o as f64 - e).powi(2) / e
        })
        .sum();
    // M = D^(-1/2) Σ D^(-1/2) over bins, Σ the per-deal covariance, D the per-deal means.
    let e_bin: Vec<f64> = bins
        .iter()
        .map(|b| b.iter().map(|&j| per_deal[j]).sum())
        .collect();
    let (mut tr, mut tr2) = (0.0, 0.0);
    for (x, bx) in bins.iter().enumerate() {
        for (y, by) in bins.iter().enumerate() {
            let s: f64 = bx
                .iter()
                .flat_map(|&j| by.iter().map(move |&l| (j, l)))
                .map(|(j, l)| cov(j, l))
                .sum();
            let m = s / (e_bin[x] * e_bin[y]).sqrt();
            if x == y {
                tr += m;
            }
            tr2 += m * m;
        }
    }
    if tr > 0.0 && tr2 > 0.0 {
        test.scale = tr2 / tr;
        test.effective_df = tr * tr / tr2;
    }
    let p = chi_square_sf(test.chi_square / test.scale, test.effective_df);
    test.p_value = Some(p);
    test.passes = Some(p >= SIGNIFICANCE);
    Fit {
        test,
        pooled,
        pooled_bin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn independent_multinomial_has_no_correction() {
        // One die roll a "deal": cov = diag(p) − p pᵀ.
        let p = [1.0 / 6.0; 6];
        let cov = |j: usize, k: usize| {
            if j == k {
                p[j] - p[j] * p[k]
            } else {
                -p[j] * p[k]
            }
        };
        let f = fit(&[10, 10, 10, 10, 10, 10], &p, cov, 60, 1);
        assert_eq!(f.test.df, 5);
        assert_eq!(f.test.chi_square, 0.0);
        assert!((f.test.scale - 1.0).abs() < 1e-12);
        assert!((f.test.effective_df - 5.0).abs() < 1e-12);
        assert_eq!(f.test.p_value, Some(1.0));
        // 60 rolls: (20−10)²/10 + 5·... — X² = 10 + 0 + 0 + 0 + 0 + 10 = 20 for a 20/0 split.
        let f = fit(&[20, 10, 10, 10, 10, 0], &p, cov, 60, 1);
        assert!((f.test.chi_square - 20.0).abs() < 1e-12);
        assert!((f.test.p_value.unwrap() - chi_square_sf(20.0, 5.0)).abs() < 1e-15);
    }

    #[test]
    fn small_cells_are_pooled_until_the_bin_reaches_five() {
        let p = [0.5, 0.3, 0.15, 0.04, 0.01];
        let cov = |j: usize, k: usize| {
            if j == k {
                p[j] - p[j] * p[k]
            } else {
                -p[j] * p[k]
            }
        };
        // 100 deals: expected 50, 30, 15, 4, 1 → cells 3 and 4 pooled (expected 5).
        let f = fit(&[50, 30, 15, 4, 1], &p, cov, 100, 1);
        assert_eq!(f.pooled, [false, false, false, true, true]);
        let (o, e) = f.pooled_bin.unwrap();
        assert_eq!(o, 5);
        assert!((e - 5.0).abs() < 1e-12);
        assert_eq!(f.test.bins, 4);
        assert_eq!(f.test.df, 3);
        // 50 deals: expected 25, 15, 7.5, 2, 0.5 → tail 2.5 < 5 takes the 7.5 cell too.
        let f = fit(&[25, 15, 7, 2, 1], &p, cov, 50, 1);
        assert_eq!(f.pooled, [false, false, true, true, true]);
        assert_eq!(f.test.df, 2);
        // 4 deals: everything below 5 → one bin, no test.
        let f = fit(&[2, 1, 1, 0, 0], &p, cov, 4, 1);
        assert_eq!(f.test.p_value, None);
        assert_eq!(f.test.passes, None);
    }
}
