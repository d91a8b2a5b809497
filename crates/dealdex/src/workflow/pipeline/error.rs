//! The deal pipeline's one error type, in rust-csv's style: an [`Error`] holds an
//! [`ErrorKind`] ([`Error::kind`]), says where the problem is when it is in a file
//! ([`Error::position`]), and its class follows from its kind. Reading a deal file, opening
//! a source, planning outputs, rendering and writing them all fail with it.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::formats::SkippedBoard;
use crate::workflow::input::skipped_note;
use crate::workflow::output::FileRole;
use crate::{Classify, ErrorClass, FormatError, InputPosition, StoreError};

/// Why deals could not be read from their source or written to their sink, or the outputs
/// could not be planned.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Error(Box<ErrorKind>);

impl Error {
    /// Where the problem is: for a deal file that cannot be read, always the file, and for
    /// a format's refusal the line and column, or the record and byte offset, that the
    /// reader gives ([`FormatError`]'s position); a format's or a script's own position
    /// for those kinds; `None` for the other kinds.
    ///
    /// ```
    /// use dealdex::workflow::pipeline::{DealSource, ErrorKind, FileSource, ReadAs, ReadKind};
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
    pub fn position(&self) -> Option<InputPosition> {
        self.kind().position()
    }

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
}

impl From<FormatError> for Error {
    /// A source file's format not told ([`ErrorKind::Format`]).
    fn from(error: FormatError) -> Error {
        ErrorKind::Format(error).into()
    }
}

impl From<StoreError> for Error {
    fn from(error: StoreError) -> Error {
        ErrorKind::Store(error).into()
    }
}

/// The kinds of [`Error`].
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
    /// A dealer script's run failed ([`super::DealSource::Script`]).
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

crate::classified!(Error => boxed ErrorKind);

crate::classified!(ErrorKind);
impl Classify for ErrorKind {
    /// A deal file that cannot be read or told, a missing set or database, outputs that
    /// cannot be planned, a set a format cannot hold are bad input; a store's, a format's
    /// and a script's error have their own class; a write is [`Io`](ErrorClass::Io).
    fn class(&self) -> ErrorClass {
        use ErrorKind as K;
        match self {
            K::Format(e) => e.class(),
            K::Store(e) => e.class(),
            K::Script(e) => e.class(),
            K::Write { .. } => ErrorClass::Io,
            _ => ErrorClass::BadInput,
        }
    }

    /// A deal file's position (always the file; within it the format's place); a source
    /// format's or a script's position; `None` for the other kinds.
    fn position(&self) -> Option<InputPosition> {
        use ErrorKind as K;
        match self {
            K::Refused { path, error } => Some(InputPosition::in_file(error.position(), path)),
            K::Read { path, .. } | K::Empty { path, .. } => {
                Some(InputPosition::in_file(None, path))
            }
            K::Format(e) => e.position(),
            K::Script(e) => e.position(),
            _ => None,
        }
    }

    /// The I/O error, the format's, the store's or the script's error the message shows.
    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        use ErrorKind as K;
        match self {
            K::Read { error, .. } | K::Write { error, .. } => Some(error),
            K::Refused { error, .. } | K::Format(error) | K::OutputFormat(error) => Some(error),
            K::Store(e) => Some(e),
            K::Script(e) => Some(e),
            _ => None,
        }
    }
}
