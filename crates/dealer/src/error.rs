//! The crate's one error type, in rust-csv's style: an [`Error`] holds an [`ErrorKind`]
//! ([`Error::kind`]); a script's problem has its line and column ([`Error::position`]), and
//! the class follows from the kind.

use crate::model::{Classify, ErrorClass, InputPosition};
use crate::run::GivenDeal;

/// The nine kinds of a script's problem as one pattern, binding their line, column and
/// message to the three names given: one list for [`Error::script_mut`] and the position.
#[rustfmt::skip] // one kind a line
macro_rules! script_kinds {
    ($line:ident, $column:ident, $message:ident) => {
        ErrorKind::Syntax { line: $line, column: $column, message: $message }
        | ErrorKind::UnknownIdentifier { line: $line, column: $column, message: $message }
        | ErrorKind::CardPredealtTwice { line: $line, column: $column, message: $message }
        | ErrorKind::TooManyCards { line: $line, column: $column, message: $message }
        | ErrorKind::BadValue { line: $line, column: $column, message: $message }
        | ErrorKind::RedefinedIdentifier { line: $line, column: $column, message: $message }
        | ErrorKind::SuitLengthPredealtTwice { line: $line, column: $column, message: $message }
        | ErrorKind::UnsetParameter { line: $line, column: $column, message: $message }
        | ErrorKind::Unsupported { line: $line, column: $column, message: $message }
    };
}

crate::classified! {
    /// Why a script was refused (it does not parse, or asks for what cannot be), an expression
    /// could not be evaluated on a deal, or a run failed.
    ///
    /// Its position ([`Error::position`]) is the 1-based line and column of a script's problem.
    pub struct Error(Box<ErrorKind>), with position, from io
}

impl Error {
    /// The line, column and message of a script's problem, to be changed (a parameter's
    /// error placed at its `$N`, a hint added); `None` for the other kinds.
    pub(crate) fn script_mut(&mut self) -> Option<(&mut u64, &mut u64, &mut String)> {
        match &mut *self.0 {
            script_kinds!(line, column, message) => Some((line, column, message)),
            _ => None,
        }
    }

    /// `/` or `%` by zero ([`ErrorKind::DivisionByZero`]), for `ok_or_else`: the kernels
    /// box an error only when there is one.
    pub(crate) fn division_by_zero() -> Error {
        ErrorKind::DivisionByZero.into()
    }

    /// A result past 64 bits ([`ErrorKind::Overflow`]), for `ok_or_else`.
    pub(crate) fn overflow() -> Error {
        ErrorKind::Overflow.into()
    }
}

/// Writes `Error`'s constructor of each kind of a script's problem (`Error::syntax(line,
/// column, message)` …): the nine differ only in their kind.
macro_rules! script_constructors {
    ($($name:ident => $kind:ident),+ $(,)?) => {
        impl Error {
            $(
                #[doc = concat!(
                    "A script's problem at `line` and `column` ([`ErrorKind::",
                    stringify!($kind),
                    "`])."
                )]
                pub(crate) fn $name(line: u64, column: u64, message: impl Into<String>) -> Error {
                    let message = message.into();
                    ErrorKind::$kind { line, column, message }.into()
                }
            )+
        }
    };
}

script_constructors!(
    syntax => Syntax,
    unknown_identifier => UnknownIdentifier,
    card_predealt_twice => CardPredealtTwice,
    too_many_cards => TooManyCards,
    bad_value => BadValue,
    redefined_identifier => RedefinedIdentifier,
    suit_length_predealt_twice => SuitLengthPredealtTwice,
    unset_parameter => UnsetParameter,
    unsupported => Unsupported,
);

/// The kinds of [`Error`]: a script's problems (each with its 1-based line and column, in
/// characters, and a message naming the construct; displayed as `line N: message`), an
/// expression's on a deal, and a run's.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A token where the grammar has no place for it, or input ending early.
    #[error("line {line}: {message}")]
    Syntax {
        /// The 1-based line.
        line: u64,
        /// The 1-based column (characters).
        column: u64,
        /// The message, naming the construct.
        message: String,
    },
    /// An identifier used before it is defined.
    #[error("line {line}: {message}")]
    UnknownIdentifier {
        /// The 1-based line.
        line: u64,
        /// The 1-based column (characters).
        column: u64,
        /// The message, naming the identifier.
        message: String,
    },
    /// A card predealt twice.
    #[error("line {line}: {message}")]
    CardPredealtTwice {
        /// The 1-based line.
        line: u64,
        /// The 1-based column (characters).
        column: u64,
        /// The message, naming the card.
        message: String,
    },
    /// A seat given more than 13 predealt cards, or predealt lengths the parser can tell are
    /// impossible.
    #[error("line {line}: {message}")]
    TooManyCards {
        /// The 1-based line.
        line: u64,
        /// The 1-based column (characters).
        column: u64,
        /// The message, naming the seat or suit.
        message: String,
    },
    /// A bad card, holding, shape, contract or number, or an expression nested too deep.
    #[error("line {line}: {message}")]
    BadValue {
        /// The 1-based line.
        line: u64,
        /// The 1-based column (characters).
        column: u64,
        /// The message, naming the value.
        message: String,
    },
    /// A variable defined twice (`a = 1` … `a = 0`): dealer refuses it.
    #[error("line {line}: {message}")]
    RedefinedIdentifier {
        /// The 1-based line.
        line: u64,
        /// The 1-based column (characters).
        column: u64,
        /// The message, naming the variable and its first definition's line.
        message: String,
    },
    /// A seat's suit length predealt twice (`predeal spades(north)==3 spades(north)==4`).
    #[error("line {line}: {message}")]
    SuitLengthPredealtTwice {
        /// The 1-based line.
        line: u64,
        /// The 1-based column (characters).
        column: u64,
        /// The message, naming the seat and suit.
        message: String,
    },
    /// A script parameter `$0`…`$9` used in the script but not given
    /// ([`Script::parse_with_params`](crate::Script::parse_with_params)).
    #[error("line {line}: {message}")]
    UnsetParameter {
        /// The 1-based line.
        line: u64,
        /// The 1-based column (characters).
        column: u64,
        /// The message, naming the parameter.
        message: String,
    },
    /// A construct of DealerV2 that dealdex does not run (`usereval`, `opc`).
    #[error("line {line}: {message}")]
    Unsupported {
        /// The 1-based line.
        line: u64,
        /// The 1-based column (characters).
        column: u64,
        /// The message, naming the construct.
        message: String,
    },
    /// `/` or `%` by zero.
    #[error("division by zero")]
    DivisionByZero,
    /// `+`, `-`, `*` or a minus sign whose result is past dealer's integers (64 bits here:
    /// −9223372036854775808..=9223372036854775807); dealdex stops rather than wrap.
    #[error("integer overflow: a result past -9223372036854775808..9223372036854775807")]
    Overflow,
    /// `rnd(n)` with n ≤ 0.
    #[error("rnd({0}): the bound must be positive")]
    BadRnd(i64),
    /// Two per-card values (`leadtricks`) of different opening leaders in one operation:
    /// their cards differ.
    #[error("leadtricks: an operation on the per-card values of two different opening leaders")]
    LeadersDiffer,
    /// `frequency (expr, low, high)` whose `expr` was per card (`leadtricks`) on one deal and
    /// a number on another (`c ? leadtricks(…) : 0`): one table cannot count both.
    #[error(
        "frequency: the expression is per card (leadtricks) on one deal and a number on another"
    )]
    MixedFrequency,
    /// An expression could not be evaluated on a deal: the deal, then (as the source) why.
    #[error("deal {deal}")]
    Eval {
        /// The 1-based number of the generated deal; with
        /// [`DealFeed::Given`](crate::DealFeed::Given), its 1-based place among the given
        /// deals (skipped deals counted).
        deal: u64,
        /// What went wrong: [`DivisionByZero`](ErrorKind::DivisionByZero),
        /// [`Overflow`](ErrorKind::Overflow), [`BadRnd`](ErrorKind::BadRnd),
        /// [`LeadersDiffer`](ErrorKind::LeadersDiffer) or
        /// [`MixedFrequency`](ErrorKind::MixedFrequency).
        #[source]
        error: Error,
        /// The given deal ([`DealFeed::Given`](crate::DealFeed::Given); None for a generated
        /// one).
        given: Option<Box<GivenDeal>>,
    },
    /// What the run's produced deals or solved tables were handed to
    /// ([`run_into`](crate::run_into)) failed.
    #[error("{0}")]
    Sink(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The operating system's random source failed (no `-s`).
    #[error("no seed: {0}")]
    Seed(String),
    /// Writing the deals failed.
    #[error("writing: {0}")]
    Io(#[source] std::io::Error),
    /// The job's [`DealerJob::stop`](crate::DealerJob::stop) switch was turned on; what was
    /// printed stays printed.
    #[error("stopped after {generated} deals generated, {produced} produced")]
    Stopped {
        /// Deals generated before the stop.
        generated: u64,
        /// Deals produced before the stop.
        produced: u64,
    },
    /// The predeal could not be set up, or a command-line predeal
    /// ([`Script::add_predeal`](crate::Script::add_predeal)) is refused.
    #[error("predeal: {0}")]
    Predeal(String),
    /// Swapping (`-2`, `-3`) would move a predealt hand (dealer 20211121 swaps it anyway and
    /// breaks the predeal).
    #[error(
        "{flag} moves {seat}'s hand, which has predealt cards or lengths: predeal only seats that stay (North{also})"
    )]
    SwapPredeal {
        /// `-2` or `-3`.
        flag: &'static str,
        /// The predealt seat that moves.
        seat: &'static str,
        /// `" and South"` for `-2`, else empty.
        also: &'static str,
    },
    /// Swapping (`-2`, `-3`) asked for over given deals
    /// ([`DealFeed::Given`](crate::DealFeed::Given)): it permutes the hands of each shuffled
    /// deal, and given deals are read as they are.
    #[error(
        "{flag} swaps the hands of generated deals; the given deals are read as they are: drop {flag}"
    )]
    SwapGiven {
        /// `-2` or `-3`.
        flag: &'static str,
    },
}

crate::classified!(ErrorKind);
impl Classify for ErrorKind {
    /// [`Io`](ErrorClass::Io) for writing, the seed and the sink,
    /// [`Interrupted`](ErrorClass::Interrupted) when stopped, else
    /// [`BadInput`](ErrorClass::BadInput): the script asked for it.
    fn class(&self) -> ErrorClass {
        match self {
            ErrorKind::Io(_) | ErrorKind::Seed(_) | ErrorKind::Sink(_) => ErrorClass::Io,
            ErrorKind::Stopped { .. } => ErrorClass::Interrupted,
            _ => ErrorClass::BadInput,
        }
    }

    /// The line and column of a script's offending token; `None` for the other kinds.
    fn position(&self) -> Option<InputPosition> {
        match self {
            script_kinds!(line, column, _message) => {
                Some(InputPosition::new().with_line(*line).with_column(*column))
            }
            _ => None,
        }
    }
}
