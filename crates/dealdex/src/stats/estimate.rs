//! A value estimated over a sample with its standard error: what `contracts` reports of each
//! contract's score and each pair's IMPs and matchpoints, and `query --played --report` of
//! each player's lead errors, tricks lost and boards at par.

use std::fmt;

use serde::Serialize;

/// A mean over `n` values and its standard error (the sample standard deviation over √n). A
/// share of hits is the mean of 0/1 values, with its binomial standard error
/// `sqrt(p(1 − p)/n)`. `mean` is `None` over no value, `standard_error` also over one.
///
/// JSON: `{"n": 40, "mean": 0.125, "standard_error": 0.052}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Estimate {
    /// Values it is over.
    pub n: u64,
    /// The mean (a share: hits over `n`).
    pub mean: Option<f64>,
    /// Its standard error.
    pub standard_error: Option<f64>,
}

impl Estimate {
    /// The share of `hits` among `n`, with its binomial standard error.
    ///
    /// ```
    /// use dealdex::stats::Estimate;
    /// let e = Estimate::share(1, 4);
    /// assert_eq!((e.n, e.mean), (4, Some(0.25)));
    /// assert!((e.standard_error.unwrap() - (0.25f64 * 0.75 / 4.0).sqrt()).abs() < 1e-12);
    /// assert_eq!(Estimate::share(0, 0).mean, None);
    /// ```
    pub fn share(hits: u64, n: u64) -> Estimate {
        if n == 0 {
            return Estimate::default();
        }
        let p = hits as f64 / n as f64;
        Estimate {
            n,
            mean: Some(p),
            standard_error: Some((p * (1.0 - p) / n as f64).sqrt()),
        }
    }

    /// The mean of `values`, with the standard error of the mean.
    ///
    /// ```
    /// use dealdex::stats::Estimate;
    /// let e = Estimate::mean_of(&[1.0, 2.0, 3.0]);
    /// assert_eq!((e.n, e.mean), (3, Some(2.0)));
    /// assert!((e.standard_error.unwrap() - (1.0f64 / 3.0).sqrt()).abs() < 1e-12);
    /// assert_eq!(Estimate::mean_of(&[5.0]).standard_error, None);
    /// ```
    pub fn mean_of(values: &[f64]) -> Estimate {
        let n = values.len();
        if n == 0 {
            return Estimate::default();
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let standard_error = (n > 1).then(|| {
            let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            (var / n as f64).sqrt()
        });
        Estimate {
            n: n as u64,
            mean: Some(mean),
            standard_error,
        }
    }
}

/// `0.123 ± 0.045 (n 40)`, or `- (n 0)`.
impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.mean, self.standard_error) {
            (Some(v), Some(se)) => write!(f, "{v:.3} ± {se:.3} (n {})", self.n),
            (Some(v), None) => write!(f, "{v:.3} (n {})", self.n),
            _ => write!(f, "- (n {})", self.n),
        }
    }
}
