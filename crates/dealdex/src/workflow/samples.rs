//! The deals `dealdex contracts` and `dealdex lead` analyse, built from their options' texts
//! (the same for the CLI's flags and `dealdex serve`'s forms): dealt now from a seed (around
//! a fixed hand, with a predeal, a query or a dealer script), the stored deals a query
//! matches, or the deals the caller names otherwise (a file or a stored set).
//!
//! ```
//! use dealdex::workflow::pipeline::DealSource;
//! use dealdex::workflow::samples::{ContractsSample, contracts_source};
//! let spec = ContractsSample { filter: Some("hcp(N) >= 20"), set: Some("club".into()), ..ContractsSample::default() };
//! let source = contracts_source(&spec, || unreachable!())?;
//! assert!(matches!(source, DealSource::Matching { set: Some(_), .. }));
//! # Ok::<(), dealdex::workflow::samples::SampleError>(())
//! ```

use crate::dealer::Script;
use crate::query::Query;
use crate::workflow::lead::{LeadError, LeadSample};
use crate::workflow::pipeline::{DealSource, StreamFilter};
use crate::{ErrorClass, GenerationError, Hand, ModelError, Predeal, Seed};

/// Why the options do not name a sample. Each names the option it is about
/// ([`SampleError::option`]) for the caller to say.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    /// The query does not parse (its column in the error).
    #[error(transparent)]
    Query(crate::query::Error),
    /// The predeal does not parse.
    #[error(transparent)]
    Predeal(GenerationError),
    /// The seed does not parse, or no fresh one could be had from the operating system.
    #[error(transparent)]
    Seed(GenerationError),
    /// The hand does not parse.
    #[error("{error}")]
    Hand {
        /// The hand's text.
        text: String,
        /// Why it does not parse (with its column).
        error: ModelError,
    },
    /// A lead sample's seed or shape is refused by the lead workflow.
    #[error(transparent)]
    Lead(LeadError),
}

impl SampleError {
    /// The option the error is about: `where`, `predeal`, `seed`, `hand`.
    pub fn option(&self) -> &'static str {
        match self {
            SampleError::Query(_) => "where",
            SampleError::Predeal(_) => "predeal",
            SampleError::Seed(_) | SampleError::Lead(_) => "seed",
            SampleError::Hand { .. } => "hand",
        }
    }
}

crate::classified!(SampleError);
impl crate::Classify for SampleError {
    /// The wrapped error's class (bad input but for the operating system's randomness).
    fn class(&self) -> ErrorClass {
        crate::classify(self.inner()).unwrap_or(ErrorClass::BadInput)
    }

    /// The query's column.
    fn position(&self) -> Option<crate::InputPosition> {
        match self {
            SampleError::Query(e) => crate::Classify::position(e),
            _ => None,
        }
    }

    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.inner())
    }
}

impl SampleError {
    fn inner(&self) -> &(dyn std::error::Error + 'static) {
        match self {
            SampleError::Query(e) => e,
            SampleError::Predeal(e) | SampleError::Seed(e) => e,
            SampleError::Hand { error, .. } => error,
            SampleError::Lead(e) => e,
        }
    }
}

/// The seed `text` (64 hex digits), or a fresh one from the operating system.
fn seed(text: Option<&str>) -> Result<Seed, SampleError> {
    match text {
        Some(s) => s.parse().map_err(SampleError::Seed),
        None => Seed::from_os().map_err(SampleError::Seed),
    }
}

/// A query's text, parsed.
fn query(text: Option<&str>) -> Result<Option<Query>, SampleError> {
    text.map(Query::parse)
        .transpose()
        .map_err(SampleError::Query)
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
/// [`SampleError`] for a query, predeal or seed that does not parse; `otherwise`'s error.
pub fn contracts_source<E: From<SampleError>>(
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
                .map_err(SampleError::Predeal)?;
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
/// [`SampleError`] for a hand, seed or query that does not parse.
pub fn lead_sample(spec: LeadAround<'_>) -> Result<LeadSample, SampleError> {
    let hand: Hand = spec.hand.parse().map_err(|error| SampleError::Hand {
        text: spec.hand.to_owned(),
        error,
    })?;
    let bad_seed = |text: &str, reason: String| {
        SampleError::Lead(LeadError::Seed {
            text: text.to_owned(),
            reason,
        })
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
            None => Seed::from_os().map_err(SampleError::Seed)?,
        },
        deals: spec.deals,
        filter: query(spec.filter)?,
        max_draws: crate::workflow::generate::max_draws(spec.max_draws),
    })
}
