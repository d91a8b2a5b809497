//! An error and the errors it holds, for callers that look for a particular one (the CLI's
//! flags for an error, Python's keywords): [`causes`].

use std::error::Error;

use crate::workflow::dealer::DealerRunError;
use crate::workflow::event::EventJobError;
use crate::workflow::generate::GenerateError;
use crate::workflow::lead::LeadError;
use crate::workflow::query::QueryWorkflowError;
use crate::workflow::records::RecordsError;
use crate::workflow::solve::SolveInputError;

/// `e` and every error it holds, depth first: its sources, the error
/// [`Classify::wrapped`](crate::Classify::wrapped) shows, and the error a transparent variant
/// of a workflow's error holds (`#[error(transparent)]` gives the inner error's message and
/// sources, so the inner error itself is not among the sources).
///
/// ```
/// use dealdex::{FormatError, FormatErrorKind};
/// use dealdex::workflow::generate::GenerateError;
/// use dealdex::workflow::pipeline::{self, ErrorKind};
/// let unknown = FormatError::from(FormatErrorKind::UnknownExtension { path: "x.zzz".into() });
/// let e = GenerateError::from(pipeline::Error::from(ErrorKind::OutputFormat(unknown)));
/// // Two transparent layers: the message is the inner error's, and it is no source.
/// assert!(e.to_string().starts_with("x.zzz: cannot tell the format"));
/// assert!(std::error::Error::source(&e).is_none());
/// assert!(dealdex::causes(&e).iter().any(|c| c.is::<FormatError>()));
/// ```
pub fn causes<'a>(e: &'a (dyn Error + 'static)) -> Vec<&'a (dyn Error + 'static)> {
    let mut out = Vec::new();
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        out.push(x);
        todo.extend(x.source());
        todo.extend(crate::as_classify(x).and_then(crate::Classify::wrapped));
        todo.extend(transparent(x));
    }
    out
}

/// The error a transparent variant of a workflow's error holds.
fn transparent<'a>(e: &'a (dyn Error + 'static)) -> Option<&'a (dyn Error + 'static)> {
    if let Some(GenerateError::Pipeline(x)) = e.downcast_ref() {
        return Some(x);
    }
    if let Some(GenerateError::Store(x)) = e.downcast_ref() {
        return Some(x);
    }
    if let Some(e) = e.downcast_ref::<LeadError>() {
        return match e {
            LeadError::Source(x) => Some(x),
            LeadError::Store(x) => Some(x),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<SolveInputError>() {
        return match e {
            SolveInputError::Source(x) => Some(x),
            SolveInputError::Store(x) => Some(x),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<DealerRunError>() {
        return match e {
            DealerRunError::Source(x) => Some(x),
            DealerRunError::Store(x) => Some(x),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<QueryWorkflowError>() {
        return match e {
            QueryWorkflowError::Store(x) => Some(x),
            QueryWorkflowError::Pipeline(x) => Some(x),
            _ => None,
        };
    }
    if let Some(e) = e.downcast_ref::<RecordsError>() {
        return match e {
            RecordsError::Pipeline(x) => Some(x),
            RecordsError::Store(x) => Some(x),
            _ => None,
        };
    }
    if let Some(EventJobError::Store(x)) = e.downcast_ref() {
        return Some(x);
    }
    None
}
