//! The engine's one error type, in rust-csv's style (issue 51): an [`Error`] holds an
//! [`ErrorKind`] ([`Error::kind`]), says where the problem is when it is in a file or a
//! text ([`Error::position`]), and its class follows from its kind. Every fallible public
//! function of the engine returns it ([`Result`]): reading a deal file, opening a source,
//! planning, rendering and writing outputs, and each workflow's own refusals.
//!
//! The kinds every workflow may meet (the deal pipeline's, the store's, a few shared ones)
//! are variants of their own; so are a workflow's kinds when it has few. The two workflows
//! with many kinds of their own hold them in one variant each: [`ErrorKind::Generate`]
//! ([`GenerateKind`]) and [`ErrorKind::Event`] ([`EventKind`]). Those are plain enums (a
//! message, no error of their own): only [`Error`] is an error. A lower crate's error a kind
//! holds (the store's, a format's, dealer's, …) is its
//! [`Classify::wrapped`](crate::Classify::wrapped) where the message shows it, so
//! [`crate::causes`] finds it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::formats::SkippedBoard;
use crate::play::encoding::Encoding;
use crate::secret::SecretFile;
use crate::workflow::dealer::MAX_SCRIPT_BYTES;
use crate::workflow::event::EventKind;
use crate::workflow::generate::GenerateKind;
use crate::workflow::input::skipped_note;
use crate::workflow::lead::MAX_SAMPLE;
use crate::workflow::output::FileRole;
use crate::workflow::solve::format_message;
use crate::{
    Classify, ErrorClass, FormatError, InputPosition, ModelError, Seat, StoreError, StoreErrorKind,
};

/// The engine's result: [`Error`] unless another error type is named.
pub type Result<T, E = Error> = std::result::Result<T, E>;

crate::classified! {
    /// Why the engine could not do what was asked: its kind ([`Error::kind`]), with its place
    /// where it has one ([`Error::position`]): for a deal file that cannot be read, always the
    /// file, and for a format's refusal the line and column, or the record and byte offset, that
    /// the reader gives ([`FormatError`]'s position); the column of a deal, a number or an
    /// expression given as text; a script's or a key file's line; `None` for the kinds about no
    /// place.
    ///
    /// ```
    /// use dealdex::{ErrorKind, ReadKind};
    /// use dealdex::workflow::pipeline::{DealSource, FileSource, ReadAs};
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("bad.pbn");
    /// std::fs::write(&path, "[Board \"1\"]\n[Deal \"N:AKQ.x\"]\n")?;
    /// let source = DealSource::File(FileSource::new(path.clone(), ReadAs::default()));
    /// let e = source.open(None, &Default::default()).and_then(|s| s.read_all()).unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::Refused { .. }));
    /// assert_eq!(e.read_kind(), Some(ReadKind::Format("malformed")));
    /// let p = e.position().unwrap();
    /// assert_eq!((p.file.as_deref(), p.line), (Some(path.as_path()), Some(2)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub struct Error(Box<ErrorKind>), with position
}

impl Error {
    /// What kind of problem reading a deal file this is ([`ReadKind`]); `None` for the
    /// kinds that are not a file's read.
    pub fn read_kind(&self) -> Option<ReadKind> {
        match self.kind() {
            ErrorKind::Read { .. } => Some(ReadKind::Io),
            // A reader's error is one of its refusals, each named.
            ErrorKind::Refused { error, .. } => {
                Some(ReadKind::Format(error.format_kind().unwrap_or("malformed")))
            }
            ErrorKind::Empty { .. } => Some(ReadKind::Empty),
            _ => None,
        }
    }

    /// The deal file a read error is about; `None` for the kinds that are not a file's
    /// read.
    pub fn read_path(&self) -> Option<&Path> {
        match self.kind() {
            ErrorKind::Read { path, .. }
            | ErrorKind::Refused { path, .. }
            | ErrorKind::Empty { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The error of writing `path` (`None`: standard output): the error `error` carries
    /// when it carries a [`ErrorKind::Write`] (a staged file's errors name their file),
    /// else `error` with `path`.
    pub fn write(path: Option<&Path>, error: std::io::Error) -> Error {
        let carries = |e: &Error| matches!(e.kind(), ErrorKind::Write { .. });
        if error
            .get_ref()
            .and_then(|e| e.downcast_ref::<Error>())
            .is_some_and(carries)
        {
            let kind = error.kind();
            return match error.into_inner().map(|e| e.downcast::<Error>()) {
                Some(Ok(w)) => *w,
                _ => ErrorKind::Write {
                    path: path.map(Path::to_owned),
                    error: kind.into(),
                }
                .into(),
            };
        }
        ErrorKind::Write {
            path: path.map(Path::to_owned),
            error,
        }
        .into()
    }

    /// This error with the store's refusal of a taken set name
    /// ([`StoreErrorKind::SetExists`]) said as [`ErrorKind::SetExists`], in the database
    /// `database`; the other kinds as they are.
    pub(crate) fn set_taken(self, database: &str) -> Error {
        match self.into_kind() {
            ErrorKind::Store(e) => match e.into_kind() {
                StoreErrorKind::SetExists { name } => ErrorKind::SetExists {
                    set: name,
                    database: database.to_owned(),
                },
                kind => ErrorKind::Store(kind.into()),
            },
            kind => kind,
        }
        .into()
    }

    /// This error with a busy database said plainly ([`StoreError::explain_busy`]): the
    /// store's error a kind holds explained, the other kinds as they are.
    pub fn explain_busy(self) -> Error {
        match self.into_kind() {
            ErrorKind::Store(e) => ErrorKind::Store(e.explain_busy()),
            ErrorKind::Import { file, error } => ErrorKind::Import {
                file,
                error: error.explain_busy(),
            },
            kind => kind,
        }
        .into()
    }
}

/// `From<T> for Error` for each inner type `T` and the kind `ErrorKind::Variant(T)` it is
/// made into, so that `?` lifts it.
macro_rules! from_inner {
    ($($t:ty => $variant:ident),+ $(,)?) => {$(
        impl From<$t> for Error {
            fn from(inner: $t) -> Error {
                ErrorKind::$variant(inner).into()
            }
        }
    )+};
}

// A format error where a source's format is chosen, the store's, the model's (a number, a
// card or a deal refused), the two workflows' kinds and a secret file's problem.
from_inner!(
    FormatError => Format,
    StoreError => Store,
    ModelError => Model,
    GenerateKind => Generate,
    EventKind => Event,
    SecretFile => Secret,
);

/// The sinks of memory never fail.
impl From<std::convert::Infallible> for Error {
    fn from(never: std::convert::Infallible) -> Error {
        match never {}
    }
}

/// The kinds of [`Error`]: first those of the deal pipeline (a deal file read or refused,
/// a source's and a sink's failures, output planning), then those several workflows share,
/// then each workflow's own.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A deal file could not be read.
    #[error("{}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// A deal file's format refused it (line, column, byte or record in the error).
    #[error("{}: {error}", path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// Where and why.
        error: FormatError,
    },
    /// A deal file holds no board with a complete deal.
    #[error("{}: no boards found (read as {format}){}", path.display(), skipped_note(skipped))]
    Empty {
        /// The file.
        path: PathBuf,
        /// The format it was read as.
        format: &'static str,
        /// The boards skipped for want of a complete deal.
        skipped: Vec<SkippedBoard>,
    },
    /// A source file's format is not told: an unknown name, or neither extension nor
    /// content shows one.
    #[error(transparent)]
    Format(FormatError),
    /// No set of that name in the database.
    #[error("no set named {set:?} in {database}")]
    NoSet {
        /// The name asked for.
        set: String,
        /// The database, as the store names it.
        database: String,
    },
    /// A first board outside 1..=[`crate::formats::MAX_BOARD_NUMBER`] (`--first-board`,
    /// [`crate::formats::check_first_board`]); nothing was read.
    #[error("first board {first}: {reason}")]
    FirstBoard {
        /// The first board asked for.
        first: u64,
        /// What is expected ([`crate::formats::check_first_board`]'s message).
        reason: String,
    },
    /// A stored source without a database.
    #[error("stored deals need a database")]
    NoStore,
    /// The store failed, holds a key that is no deal, or refused the boards.
    #[error(transparent)]
    Store(StoreError),
    /// Big Deal's stream ended before the deals asked for (its counter space is finite,
    /// SQUAREDEAL.md §1).
    #[error("Big Deal's stream ends before deal {first_missing}")]
    Exhausted {
        /// The first deal it could not make.
        first_missing: u64,
    },
    /// A filtered stream found fewer matching deals than asked within its draw bound.
    #[error(
        "only {matched} of the {drawn} deals drawn met the constraints; {wanted} were asked for (raise the draw limit or loosen them)"
    )]
    TooFewMatches {
        /// Deals drawn.
        drawn: u64,
        /// Deals that matched.
        matched: u64,
        /// Deals asked for.
        wanted: u64,
    },
    /// A dealer script's run as a source failed
    /// ([`DealSource::Script`](crate::workflow::pipeline::DealSource::Script)), or the
    /// script of a lead sample could not take the leader's hand (its predeal gives those
    /// cards to another seat).
    #[error("script: {0}")]
    Script(crate::dealer::Error),
    /// A filter no deal can satisfy, or a filter on Big Deal's stream (its deals are
    /// dealt in order, not drawn).
    #[error("where {query:?}: {reason}")]
    Filter {
        /// The expression, as given.
        query: String,
        /// Why it cannot filter the stream.
        reason: String,
    },
    /// An output's unknown format name, or an output file whose extension names none.
    #[error(transparent)]
    OutputFormat(FormatError),
    /// A format name given with several output files.
    #[error(
        "a format applies to a single output; with several, each file's extension names its format"
    )]
    FormatWithSeveral,
    /// An output path that is a directory.
    #[error("{}: is a directory, not a file; nothing was written or stored", path.display())]
    IsADirectory {
        /// The path.
        path: PathBuf,
    },
    /// An output path in a directory that does not exist.
    #[error("{}: {} is not a directory; nothing was written or stored", path.display(), parent.display())]
    NoDirectory {
        /// The path.
        path: PathBuf,
        /// Its parent, which is not a directory.
        parent: PathBuf,
    },
    /// Two files of a command that are one file (the output and the key file, the output
    /// and the database, …): the second would destroy what the first holds.
    #[error("{first} and {second} name the same file, {}; give them different files (nothing was created, written or stored)", path.display())]
    SameFile {
        /// What the first path is.
        first: FileRole,
        /// What the second path is.
        second: FileRole,
        /// The path, as the first gave it.
        path: PathBuf,
    },
    /// A set that an output's format cannot hold (e.g. board 100 in DUP): the output and
    /// why.
    #[error("{output}: {error}{}", if *.over_limit { "; split the set into files of 96 boards" } else { "" })]
    Render {
        /// The output's label (path or `stdout`).
        output: String,
        /// The format's error, naming the board.
        error: FormatError,
        /// True when the set exceeds the format's board limit (splitting would help).
        over_limit: bool,
    },
    /// A file (or standard output) that could not be written.
    #[error("{}: {error}", path.as_ref().map_or("stdout".to_owned(), |p| p.display().to_string()))]
    Write {
        /// The file; `None` for standard output.
        path: Option<PathBuf>,
        /// The I/O error (`BrokenPipe` when a reader of standard output went away).
        error: std::io::Error,
    },

    // Shared by several workflows.
    /// A new set's name that the database already has (`dealer`, `lead`).
    #[error("set {set:?} already exists in {database} (store it under a new name)")]
    SetExists {
        /// The name asked for.
        set: String,
        /// The database, as the store names it.
        database: String,
    },
    /// No deal to work on: an empty set, file or database (`stats`, `contracts`, `lead`).
    #[error("no deals to {to}")]
    NoDeals {
        /// What the deals were for: `analyse`, `play the contracts on`, `solve`.
        to: &'static str,
    },
    /// A job's stop switch was turned on (`lead`, `contracts`).
    #[error("stopped before {before}")]
    Stopped {
        /// What was not done: `the sample was solved`, `the last deal was played`.
        before: &'static str,
    },
    /// A deal string or hex index given as text that is no deal (`number`, `solve`).
    #[error("deal: {0}")]
    Deal(ModelError),
    /// A number, card value or deal that the model refuses (`deal`'s single number,
    /// `card`'s value in its encoding).
    #[error(transparent)]
    Model(ModelError),
    /// A secret file (a seed, event keys) not written ([`crate::secret`]).
    #[error("{0}")]
    Secret(SecretFile),

    // `number` and `deal`.
    /// Neither a deal nor an existing file (`number`).
    #[error("{argument:?} is not a PBN deal string (N:…), a 26-hex-digit index or a deal file")]
    NotADeal {
        /// The argument as given.
        argument: String,
    },
    /// A range whose start is no hand-record number (`deal`).
    #[error("range start")]
    RangeStart(#[source] ModelError),
    /// A range whose end is no hand-record number (`deal`).
    #[error("range end")]
    RangeEnd(#[source] ModelError),
    /// A range `A..B` with B < A (`deal`).
    #[error("range {range}: the end is below the start")]
    EndBelowStart {
        /// The range as given.
        range: String,
    },
    /// A range of 2^64 deals or more (`deal`).
    #[error("range too long: at most 2^64 - 1 deals")]
    RangeTooLong,
    /// A range too long for a format written in one piece (`deal`).
    #[error(
        "{format} is written in one piece: at most {max} deals (a streaming format, e.g. pbn or hex, takes any range)"
    )]
    TooManyToCollect {
        /// The format's name.
        format: &'static str,
        /// The most boards it may collect.
        max: u64,
    },

    // `card`.
    /// A numeric encoding's value that is not a number.
    #[error("{encoding}: '{value}' is not a number (decimal, 0x hex or 0b binary)")]
    NotANumber {
        /// The encoding it was read in.
        encoding: Encoding,
        /// The value as given (trimmed).
        value: String,
    },
    /// A unicode value that is not a code point.
    #[error("unicode: '{value}' is not a code point (write U+1F0A1, 0x1F0A1 or the glyph)")]
    NotACodePoint {
        /// The value as given (trimmed).
        value: String,
    },

    // `contracts`.
    /// No contract to compare.
    #[error("no contract to compare (name one or more, e.g. 3NT:S 4H:N)")]
    NoContracts,

    // `records`.
    /// The sheet's file name has an extension that names no
    /// [`SheetFormat`](crate::workflow::records::SheetFormat).
    #[error("{}: the sheet is written as .html or .pdf", .path.display())]
    SheetExtension {
        /// The sheet's path as given.
        path: PathBuf,
    },
    /// The PDF could not be made (the records crate's [`Error`](crate::records::Error)).
    #[error(transparent)]
    Pdf(crate::records::Error),

    // `import`.
    /// The store failed while importing (busy past the timeout, disk full, …): the
    /// transaction in flight was rolled back; files reported before were stored.
    #[error("{}{error}", file.as_ref().map(|p| format!("{}: ", p.display())).unwrap_or_default())]
    Import {
        /// The file being stored, when one transaction was one file.
        file: Option<PathBuf>,
        /// The store's error.
        error: StoreError,
    },
    /// Files of an import job were rejected
    /// ([`ImportReport::check`](crate::workflow::import::ImportReport::check)); the others
    /// were stored.
    #[error("{rejected} of {files} files rejected")]
    FilesRejected {
        /// Files rejected.
        rejected: usize,
        /// Files in the job.
        files: usize,
    },

    // `sql`.
    /// The statement does not compile, is refused (it would write, attach, or change a
    /// setting), or fails while running: bad input, with SQLite's reason.
    #[error("sql: {0}")]
    SqlStatement(StoreError),
    /// The row callback failed to write a row (e.g. a closed pipe).
    #[error("writing the result: {0}")]
    SqlOutput(#[source] std::io::Error),
    /// The statement ran past [`SqlJob::timeout`](crate::workflow::sql::SqlJob::timeout)
    /// and was stopped (nothing is wrong with the database; rows already handed to the
    /// callback stay handed).
    #[error(
        "sql: the statement ran longer than the time limit of {} s and was stopped (a larger time limit lets it run, 0 for none)",
        .limit.as_secs_f64()
    )]
    SqlTimeout {
        /// The limit that was reached.
        limit: Duration,
    },
    /// SQLite held more than
    /// [`SqlJob::memory_limit`](crate::workflow::sql::SqlJob::memory_limit), or could not
    /// allocate within twice it.
    #[error(
        "sql: the statement needed more than the memory limit of {} MiB and was stopped (a larger memory limit lets it run, 0 for none)",
        .limit / (1 << 20)
    )]
    SqlMemoryLimit {
        /// The limit that was reached, in bytes.
        limit: u64,
    },
    /// [`SqlJob::interrupt`](crate::workflow::sql::SqlJob::interrupt) was set (Ctrl-C) and
    /// the statement stopped.
    #[error("sql: interrupted")]
    SqlInterrupted,

    // `contracts` and `lead`.
    /// A sample option of `contracts` or `lead` that does not parse
    /// ([`crate::workflow::samples`]): the option, and the parser's error (a query's, a
    /// predeal's, a seed's or a hand's, with its column where it has one).
    #[error("{error}")]
    Sample {
        /// The option the error is about.
        option: SampleOption,
        /// The parser's error.
        error: Box<dyn std::error::Error + Send + Sync + 'static>,
    },

    // `query`.
    /// The expression does not parse (the error names the column).
    #[error("query: {0}")]
    Query(crate::query::Error),
    /// The query has a term the dialect cannot express (`par` in Spark).
    #[error("query: {0}")]
    Dialect(crate::query::Error),
    /// A Spark predicate was asked for with a set scope or a limit, which a predicate
    /// cannot carry (the text says which).
    #[error(
        "query: the Spark dialect gives only a predicate for df.filter(…), which cannot hold {0}"
    )]
    NotInPredicate(&'static str),
    /// The query job needs the database (count, find) and none was given: the caller's
    /// mistake.
    #[error("the query needs a database")]
    QueryNoStore,
    /// The format cannot hold the matching deals (e.g. more boards than DUP holds).
    #[error("{format}: {error}")]
    QueryWrite {
        /// The output format's name.
        format: &'static str,
        /// Why it refused them.
        error: FormatError,
    },
    /// Writing the query's output failed.
    #[error(transparent)]
    Io(std::io::Error),

    // `solve`.
    /// An input that is no deal, of a format neither named nor told by its extension (or a
    /// format name no format has).
    #[error("{}", format_message(input, error))]
    UnknownInput {
        /// The input as given.
        input: String,
        /// Why no format was chosen.
        error: FormatError,
    },
    /// No set of that name to solve.
    #[error("no set {set:?} in {database}")]
    SolveNoSet {
        /// The name asked for.
        set: String,
        /// The database path.
        database: String,
    },
    /// No deals, no set and not all stored deals to solve.
    #[error("nothing to solve: give deals, deal files, a stored set or all stored deals")]
    NothingToSolve,
    /// A stored set or every unsolved deal asked for without a database.
    #[error("a stored set, or all stored deals, needs a database")]
    SolveNoDatabase,
    /// A vulnerability that is none of None, NS, EW, All.
    #[error("vulnerability: {0}")]
    Vulnerability(ModelError),

    // `lead`.
    /// The leader's hand is not 13 cards.
    #[error("the leader's hand has {0} cards, not 13")]
    LeaderHand(usize),
    /// The contract's text does not read (PBN's form: a level 1 to 7, a strain, then `X` or
    /// `XX`).
    #[error(
        "contract {0:?}: not a contract (a level 1 to 7, a strain C, D, H, S or NT, then X or XX: 3NT, 4S, 5DX)"
    )]
    Contract(String),
    /// The seed's text does not read: the text and what is wrong with it.
    #[error("seed {text:?}: {reason}")]
    Seed {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// The lead sample would hold more than [`MAX_SAMPLE`] deals.
    #[error(
        "{0} deals: a lead sample holds at most {MAX_SAMPLE} deals (it is held whole while its leads are solved)"
    )]
    SampleTooLarge(u64),
    /// A lead sample to store given to a run that has no database to write: the caller's
    /// mistake.
    #[error("storing the sample needs a database opened for writing")]
    StoreNeedsWriter,
    /// A deal of the lead sample gives the leader another hand than the first deal does.
    #[error(
        "deal {deal} gives the leader ({leader}) another hand than the first deal: a lead problem is one hand"
    )]
    OtherHand {
        /// The deal's place in the sample (1-based).
        deal: u64,
        /// The leader.
        leader: Seat,
    },

    // `dealer`.
    /// The dealer workflow's deals from a database, or a set to store, without a database.
    #[error("no database given")]
    NoDatabase,
    /// A script's expression could not be evaluated on a given deal, named here (its
    /// source, its 1-based place there, its board number when known, the deal).
    #[error("{place}")]
    Eval {
        /// Where the deal is: `club.pbn: deal 5 (board 5, N:AKQ…)`.
        place: String,
        /// What went wrong (an expression's kind of [`crate::dealer::ErrorKind`]).
        #[source]
        error: crate::dealer::Error,
    },
    /// A dealer run failed (an evaluation error on a generated deal, writing the deals, the
    /// seed, the predeal), or a predealt holding given with a script is refused.
    #[error(transparent)]
    Dealer(crate::dealer::Error),
    /// A predeal (fixed cards) that does not parse: `generate`'s
    /// ([`crate::workflow::generate::GenerateOptions`]).
    #[error(transparent)]
    Predeal(crate::GenerationError),
    /// A script file (or standard input, `-`) could not be read.
    #[error("{}: {error}", path.display())]
    ScriptRead {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// A script larger than [`MAX_SCRIPT_BYTES`].
    #[error("{}: larger than {} MiB: a dealer script that size is not one (at most {MAX_SCRIPT_BYTES} bytes)", path.display(), MAX_SCRIPT_BYTES >> 20)]
    ScriptTooLarge {
        /// The script file (`-` for standard input).
        path: PathBuf,
    },
    /// A script that is not UTF-8 text: the first byte that is not, 0-based, and its line
    /// and column (1-based, the column in bytes).
    #[error("{}: line {line}, column {column} (byte {offset}): not UTF-8 text (a dealer script is text; save it as UTF-8)", path.display())]
    ScriptNotUtf8 {
        /// The script file (`-` for standard input).
        path: PathBuf,
        /// The offset of the first byte that is not UTF-8, 0-based.
        offset: u64,
        /// Its line, 1-based.
        line: usize,
        /// Its column, 1-based, in bytes.
        column: usize,
    },
    /// A script that does not parse: the file (`-` for standard input), then the script's
    /// error with its line and column (`bad.dei: line 4: syntax error: …`).
    #[error("{}: {error}", if path.as_os_str() == "-" { "standard input".into() } else { path.display().to_string() })]
    ScriptParse {
        /// The script file.
        path: PathBuf,
        /// Where and why it does not parse.
        error: crate::dealer::Error,
    },

    // The workflows with many kinds of their own.
    /// `generate`'s own kinds: board ranges, counts, key files, filters.
    #[error("{0}")]
    Generate(GenerateKind),
    /// The event workflows' own kinds: `.sqd` and `.sqk` files, keys, sessions.
    #[error("{0}")]
    Event(EventKind),
}

/// What kind of problem reading a deal file is ([`Error::read_kind`]), as import's reports
/// name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "format")]
pub enum ReadKind {
    /// The file could not be read ([`ErrorKind::Read`]).
    Io,
    /// The format's reader refused it ([`ErrorKind::Refused`]), for this reason: its
    /// kind's name, `malformed`, `truncated` or `not-a-deal`
    /// ([`Classify::format_kind`]).
    Format(&'static str),
    /// It holds no board with a complete deal ([`ErrorKind::Empty`]).
    Empty,
}

crate::classified!(ErrorKind);
impl Classify for ErrorKind {
    /// The class of the error a kind holds (the store's, a format's, a script's, a PDF's)
    /// where it has one; [`Io`](ErrorClass::Io) for a write that failed;
    /// [`Interrupted`](ErrorClass::Interrupted) for a job stopped;
    /// [`Internal`](ErrorClass::Internal) for a job its caller built wrong (a query without
    /// its database, a lead sample to store without a writer); the workflows' own kinds'
    /// classes; [`BadInput`](ErrorClass::BadInput) for everything else (a file, a text, a
    /// name or an option that is the caller's).
    fn class(&self) -> ErrorClass {
        use ErrorKind as K;
        match self {
            K::Format(e) => e.class(),
            K::Store(e) | K::Import { error: e, .. } => e.class(),
            K::Script(e) | K::Dealer(e) | K::ScriptParse { error: e, .. } => e.class(),
            K::Pdf(e) => e.class(),
            K::Write { .. } | K::SqlOutput(_) | K::Io(_) => ErrorClass::Io,
            K::Stopped { .. } | K::SqlInterrupted => ErrorClass::Interrupted,
            K::QueryNoStore | K::StoreNeedsWriter => ErrorClass::Internal,
            K::Secret(s) => s.class(),
            K::ScriptRead { error, .. } => script_read_class(error),
            K::Generate(k) => k.class(),
            K::Event(k) => k.class(),
            K::Sample { error, .. } => crate::classify(&**error).unwrap_or(ErrorClass::BadInput),
            _ => ErrorClass::BadInput,
        }
    }

    /// A deal file's position (always the file; within it the format's place); a source
    /// format's, a script's, an expression's or a text's position; a script file's line and
    /// column; the workflows' own kinds' positions; `None` for the other kinds.
    fn position(&self) -> Option<InputPosition> {
        use ErrorKind as K;
        match self {
            K::Refused { path, error } => Some(InputPosition::in_file(error.position(), path)),
            K::Read { path, .. } | K::Empty { path, .. } => {
                Some(InputPosition::in_file(None, path))
            }
            K::Format(e) | K::UnknownInput { error: e, .. } => e.position(),
            K::Script(e) | K::ScriptParse { error: e, .. } => e.position(),
            K::Deal(e) | K::Model(e) => e.position(),
            K::Query(e) => e.position(),
            K::ScriptNotUtf8 {
                path,
                offset,
                line,
                column,
            } => Some(
                InputPosition::at_line_column(*line, *column)
                    .with_file(path)
                    .with_byte(*offset),
            ),
            K::Generate(k) => k.position(),
            K::Event(k) => k.position(),
            K::Sample { error, .. } => crate::as_classify(&**error).and_then(Classify::position),
            K::Predeal(e) => e.position(),
            _ => None,
        }
    }

    /// The lower crate's error the message shows (an I/O error, a format's, the store's,
    /// dealer's, the query language's, the model's, a PDF's; a closed pipe on standard output
    /// is seen there); `None` for the kinds that hold none, whose inner error is their
    /// source, and for a solve input whose format is not told (its message says what to do,
    /// in solve's words).
    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        use ErrorKind as K;
        match self {
            K::Read { error, .. }
            | K::Write { error, .. }
            | K::Io(error)
            | K::ScriptRead { error, .. } => Some(error),
            K::Refused { error, .. }
            | K::Format(error)
            | K::OutputFormat(error)
            | K::Render { error, .. }
            | K::QueryWrite { error, .. } => Some(error),
            K::Store(e) | K::Import { error: e, .. } | K::SqlStatement(e) => Some(e),
            K::Script(e) | K::Dealer(e) | K::ScriptParse { error: e, .. } => Some(e),
            K::Query(e) | K::Dialect(e) => Some(e),
            K::Deal(e) | K::Model(e) | K::Vulnerability(e) => Some(e),
            K::Pdf(e) => Some(e),
            K::Sample { error, .. } => Some(&**error),
            K::Secret(s) => s.wrapped(),
            K::Generate(k) => k.wrapped(),
            K::Event(k) => k.wrapped(),
            _ => None,
        }
    }
}

/// A script file that is not there, a directory, unreadable or not text is bad input (the
/// file is the caller's, as a deal file is); another read failure is I/O.
fn script_read_class(error: &std::io::Error) -> ErrorClass {
    use std::io::ErrorKind;
    match error.kind() {
        ErrorKind::NotFound
        | ErrorKind::IsADirectory
        | ErrorKind::NotADirectory
        | ErrorKind::PermissionDenied
        | ErrorKind::InvalidData
        | ErrorKind::InvalidFilename => ErrorClass::BadInput,
        _ => ErrorClass::Io,
    }
}

/// The option of a sample ([`ErrorKind::Sample`]) whose text does not parse, for the caller to
/// name in its own words (the CLI's flag, a form's field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleOption {
    /// The query the deals must match.
    Where,
    /// The fixed cards.
    Predeal,
    /// The seed.
    Seed,
    /// The leader's hand, with its text.
    Hand {
        /// The hand's text as given.
        text: String,
    },
}
