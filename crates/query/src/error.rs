//! The crate's one error type, in rust-csv's style: an [`Error`] holds an [`ErrorKind`]
//! ([`Error::kind`]); a query text's problem has its column ([`Error::column`]).

use crate::Dialect;
use crate::model::{Classify, ErrorClass, InputPosition};

/// Why a query was refused: its text does not parse or cannot hold, or a dialect cannot
/// express one of its terms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct Error(Box<ErrorKind>);

impl Error {
    /// A problem at the 1-based `column` (in characters) of the query's text.
    pub(crate) fn syntax(column: usize, message: impl Into<String>) -> Error {
        ErrorKind::Syntax {
            column,
            message: message.into(),
        }
        .into()
    }

    /// The 1-based column (in characters) of a text's problem; `None` for a dialect's.
    pub fn column(&self) -> Option<usize> {
        match self.kind() {
            ErrorKind::Syntax { column, .. } => Some(*column),
            ErrorKind::Dialect { .. } | ErrorKind::PlayedOnly { .. } => None,
        }
    }
}

/// The kinds of [`Error`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text does not parse, or no deal can match it: the 1-based column (in characters)
    /// of the offending token and a message. Displays as `column N: message`.
    #[error("column {column}: {message}")]
    Syntax {
        /// 1-based column, counted in characters (Unicode scalar values); one past the last
        /// character for errors at the end of the query.
        column: usize,
        /// What is wrong, in words, often with the expected forms.
        message: String,
    },
    /// A parsed query cannot be compiled to a dialect: one of its terms has no counterpart in
    /// the dialect's columns (`par(…)` and `lead(…)` in [`Dialect::Spark`]). Displays as
    /// `par(NS, none) is not available in the Spark dialect: …`.
    #[error("{term} is not available in the {dialect} dialect: {reason}")]
    Dialect {
        /// The dialect asked for.
        dialect: Dialect,
        /// The first term it cannot express, in the query's canonical text (`par(NS, none)`).
        term: String,
        /// Why, and what is available instead.
        reason: &'static str,
    },
    /// A term or condition about a played board (`contract = 3NT`, `lost(defence)`,
    /// `dd(declarer, strain)`) where only deals are searched: only the SQL over the stored
    /// played boards answers it (the CLI's played search). Displays as `contract = 3NT is
    /// about a played board: …`.
    #[error(
        "{term} is about a played board: {context} has deals only (a search of the played boards answers it)"
    )]
    PlayedOnly {
        /// The first such term, in the query's canonical text.
        term: String,
        /// What was asked: `a search of deals`, `generate --where`, `the Spark dialect`.
        context: &'static str,
    },
}

crate::classified!(Error => boxed ErrorKind);

crate::classified!(ErrorKind);
impl Classify for ErrorKind {
    /// Always [`BadInput`](ErrorClass::BadInput): the query is the caller's.
    fn class(&self) -> ErrorClass {
        ErrorClass::BadInput
    }

    /// The text's column, for a problem in the text.
    fn position(&self) -> Option<InputPosition> {
        match self {
            ErrorKind::Syntax { column, .. } => Some(InputPosition::at_column(*column)),
            ErrorKind::Dialect { .. } | ErrorKind::PlayedOnly { .. } => None,
        }
    }
}
