//! The deals `dealdex contracts` and `dealdex lead` analyse, built from their options' texts
//! (the same for the CLI's flags and `dealdex serve`'s forms): dealt now from a seed (around
//! a fixed hand, with a predeal, a query or a dealer script), the stored deals a query
//! matches, or the deals the caller names otherwise (a file or a stored set).
//!
//! ```
//! use dealdex::workflow::pipeline::DealSource;
//! use dealdex::workflow::samples::{ContractsSample, contracts_source};
//! let spec = ContractsSample { filter: Some("hcp(N) >= 20"), set: Some("club".into()), ..ContractsSample::default() };
//! let source = contracts_source::<dealdex::Error>(&spec, || unreachable!())?;
//! assert!(matches!(source, DealSource::Matching { set: Some(_), .. }));
//! # Ok::<(), dealdex::Error>(())
//! ```

use crate::dealer::Script;
use crate::query::Query;
use crate::workflow::lead::LeadSample;
use crate::workflow::pipeline::{DealSource, StreamFilter};
use crate::{Error, ErrorKind, Hand, Predeal, SampleOption, Seed};

/// `error` as the sample option `option`'s ([`ErrorKind::Sample`]).
pub(crate) fn refused(
    option: SampleOption,
    error: impl std::error::Error + Send + Sync + 'static,
) -> Error {
    ErrorKind::Sample {
        option,
        error: Box::new(error),
    }
    .into()
}

/// The seed `text` (64 hex digits), or a fresh one from the operating system.
fn seed(text: Option<&str>) -> Result<Seed, Error> {
    match text {
        Some(s) => s.parse().map_err(|e| refused(SampleOption::Seed, e)),
        None => Seed::from_os().map_err(|e| refused(SampleOption::Seed, e)),
    }
}

/// A query's text, parsed.
fn query(text: Option<&str>) -> Result<Option<Query>, Error> {
    text.map(|t| {
        let q = Query::parse(t)?;
        q.deal_only("a sample of deals")?;
        Ok::<Query, crate::query::Error>(q)
    })
    .transpose()
    .map_err(|e| refused(SampleOption::Where, e))
}

/// `dealdex contracts`' sample options.
#[derive(Clone, Debug, Default)]
pub struct ContractsSample<'a> {
    /// Deal this many deals now instead of reading stored ones.
    pub count: Option<u64>,
    /// Only the deals this query matches (stored ones, or with `count` the dealt ones).
    pub filter: Option<&'a str>,
    /// With `count`: the fixed cards.
    pub predeal: Option<&'a str>,
    /// With `count`: the seed, 64 hex digits (none: a fresh one).
    pub seed: Option<&'a str>,
    /// With `count` and `filter`: the most deals drawn (none: generate's default).
    pub max_draws: Option<u64>,
    /// Only the deals of this stored set.
    pub set: Option<String>,
}

/// The deals `spec` names: dealt (with `count`), the stored ones a query matches (in the
/// set, when one is named), or, with neither, `otherwise()` (a file or the stored deals).
///
/// # Errors
/// [`ErrorKind::Sample`] for a query, predeal or seed that does not parse; `otherwise`'s
/// error.
pub fn contracts_source<E: From<Error>>(
    spec: &ContractsSample<'_>,
    otherwise: impl FnOnce() -> Result<DealSource, E>,
) -> Result<DealSource, E> {
    let filter = query(spec.filter)?;
    Ok(match (spec.count, filter) {
        (Some(count), filter) => {
            let predeal = spec
                .predeal
                .map(Predeal::parse)
                .transpose()
                .map_err(|e| refused(SampleOption::Predeal, e))?;
            let filter = filter.map(|query| StreamFilter {
                query,
                max_draws: crate::workflow::generate::max_draws(spec.max_draws),
            });
            DealSource::dealt(seed(spec.seed)?, count, predeal, filter)
        }
        (None, Some(query)) => DealSource::Matching {
            query,
            set: spec.set.clone(),
            limit: None,
        },
        (None, None) => otherwise()?,
    })
}

/// `dealdex lead`'s sample options, with a hand to deal around.
#[derive(Clone, Debug)]
pub struct LeadAround<'a> {
    /// The leader's hand.
    pub hand: &'a str,
    /// The deals to deal.
    pub deals: u64,
    /// The seed: 64 hex digits, or with a script dealer's seed number; none: a fresh one.
    pub seed: Option<&'a str>,
    /// Only deals this query accepts (without a script).
    pub filter: Option<&'a str>,
    /// Only deals this dealer script accepts (its predeal too).
    pub script: Option<Script>,
    /// The most deals drawn (none: the defaults).
    pub max_draws: Option<u64>,
}

/// The sample dealt around `spec.hand`: by the script when there is one (dealer's seed
/// number), else by the seed with the query.
///
/// # Errors
/// [`ErrorKind::Sample`] for a hand or query that does not parse; [`ErrorKind::Seed`] for a
/// seed.
pub fn lead_sample(spec: LeadAround<'_>) -> Result<LeadSample, Error> {
    let hand: Hand = spec.hand.parse().map_err(|e| {
        let text = spec.hand.to_owned();
        refused(SampleOption::Hand { text }, e)
    })?;
    let bad_seed = |text: &str, reason: String| -> Error {
        ErrorKind::Seed {
            text: text.to_owned(),
            reason,
        }
        .into()
    };
    if let Some(script) = spec.script {
        let seed = spec.seed.map(|s| {
            s.parse().map_err(|_| {
                let reason = format!(
                    "with a script, dealer's seed number: a whole number 0 to {}",
                    u64::MAX
                );
                bad_seed(s, reason)
            })
        });
        return Ok(LeadSample::Script {
            hand,
            script: Box::new(script),
            deals: spec.deals,
            seed: seed.transpose()?,
            generate: spec.max_draws,
        });
    }
    Ok(LeadSample::Dealt {
        hand,
        seed: match spec.seed {
            Some(s) => s.parse().map_err(|e| bad_seed(s, format!("{e}")))?,
            None => seed(None)?,
        },
        deals: spec.deals,
        filter: query(spec.filter)?,
        max_draws: crate::workflow::generate::max_draws(spec.max_draws),
    })
}
