//! One error story: every library error type implements [`Classify`] beside its definition,
//! so it has an [`ErrorClass`] and a caller maps failures to outcomes in one place (the
//! binary: bad input → exit 2, everything else → exit 1), for a typed error or, through
//! [`classify`](crate::classify), for any `&dyn Error` and its sources.
//!
//! Errors about text or a file the caller gave also say where the problem is: as in
//! rust-csv, they have [`Classify::position`], an [`InputPosition`] with whatever is known
//! (file, line, column, byte offset, record). A crate's error type is, as rust-csv's, one
//! `Error` holding an `ErrorKind` (`kind()`, naming what went wrong), the kind deciding its
//! class and position (this crate's: [`Error`](crate::Error)).
//!
//! This module knows no error type of the crate: each type's class, position and kind are
//! written next to it (this crate's in error.rs).

use std::path::{Path, PathBuf};

/// Where in the input an error is: whatever the error knows of it. A deal string's error
/// knows a column; a text file reader's, a line and often a column; a binary file reader's,
/// a record and a byte offset; an error of a workflow that read a file, also the file.
///
/// Lines, columns and records are 1-based; a byte offset is 0-based, from the start of the
/// file (or string). Columns count characters for text given on the command line and bytes
/// for files, as the error's message says.
///
/// ```
/// use dealdex::InputPosition;
/// let p = InputPosition::new().with_line(3).with_column(7);
/// assert_eq!((p.line, p.column, p.byte, &p.file), (Some(3), Some(7), None, &None));
/// assert_eq!(p.with_file("a.pbn").to_string(), "a.pbn: line 3, column 7");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[non_exhaustive]
pub struct InputPosition {
    /// The file, when the error is about one and knows its name.
    pub file: Option<PathBuf>,
    /// The 1-based line.
    pub line: Option<u64>,
    /// The 1-based column within the line (or within a one-line text such as a deal string).
    pub column: Option<u64>,
    /// The 0-based byte offset from the start of the file.
    pub byte: Option<u64>,
    /// The 1-based record (board) of a binary file.
    pub record: Option<u64>,
}

impl InputPosition {
    /// A position that knows nothing yet (add to it with the `with_` methods).
    pub fn new() -> InputPosition {
        InputPosition::default()
    }

    /// This position in the file `file`.
    pub fn with_file(mut self, file: impl AsRef<Path>) -> InputPosition {
        self.file = Some(file.as_ref().to_owned());
        self
    }

    /// This position at the 1-based line `line`.
    pub fn with_line(mut self, line: u64) -> InputPosition {
        self.line = Some(line);
        self
    }

    /// This position at the 1-based column `column`.
    pub fn with_column(mut self, column: u64) -> InputPosition {
        self.column = Some(column);
        self
    }

    /// This position at the 0-based byte offset `byte`.
    pub fn with_byte(mut self, byte: u64) -> InputPosition {
        self.byte = Some(byte);
        self
    }

    /// This position in the 1-based record `record`.
    pub fn with_record(mut self, record: u64) -> InputPosition {
        self.record = Some(record);
        self
    }

    /// The 1-based line `line` (readers' positions are `usize`, counted in memory).
    pub fn at_line(line: usize) -> InputPosition {
        InputPosition::new().with_line(line as u64)
    }

    /// The 1-based column `column` of a one-line text (a deal string, a seed, a query).
    pub fn at_column(column: usize) -> InputPosition {
        InputPosition::new().with_column(column as u64)
    }

    /// The 1-based line `line` and 1-based column `column`.
    pub fn at_line_column(line: usize, column: usize) -> InputPosition {
        InputPosition::at_line(line).with_column(column as u64)
    }

    /// The 0-based byte offset `byte` (binary formats).
    pub fn at_byte(byte: u64) -> InputPosition {
        InputPosition::new().with_byte(byte)
    }

    /// The 1-based record (board) `record` of a binary file and the 0-based offset `byte` of
    /// the problem (the record's start for whole-record errors such as truncation).
    pub fn at_record(record: usize, byte: u64) -> InputPosition {
        InputPosition::new()
            .with_record(record as u64)
            .with_byte(byte)
    }

    /// True when the position knows nothing: no file, line, column, byte or record.
    pub fn is_nowhere(&self) -> bool {
        *self == InputPosition::default()
    }

    /// `position` (or a position knowing nothing) in the file `file`: what a workflow error
    /// that names its file reports for an inner error's position.
    pub fn in_file(position: Option<InputPosition>, file: &Path) -> InputPosition {
        position.unwrap_or_default().with_file(file)
    }
}

/// `file: record R, line L, column C, byte B`, leaving out what is not known.
impl std::fmt::Display for InputPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(r) = self.record {
            parts.push(format!("record {r}"));
        }
        if let Some(l) = self.line {
            parts.push(format!("line {l}"));
        }
        if let Some(c) = self.column {
            parts.push(format!("column {c}"));
        }
        if let Some(b) = self.byte {
            parts.push(format!("byte {b}"));
        }
        match (&self.file, parts.is_empty()) {
            (Some(file), true) => write!(f, "{}", file.display()),
            (Some(file), false) => write!(f, "{}: {}", file.display(), parts.join(", ")),
            (None, _) => f.write_str(&parts.join(", ")),
        }
    }
}

/// What kind of failure an error is, independent of where it happened.
///
/// Every library error type has one, through [`Classify::class`]. The `dealdex` binary maps
/// [`ErrorClass::BadInput`] and [`ErrorClass::CorruptStore`] to exit code 2,
/// [`ErrorClass::Interrupted`] to 130 and the others to exit code 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorClass {
    /// The user's input is wrong: an argument, a file's content, a name that does not exist.
    /// Nothing was stored or written because of it.
    BadInput,
    /// A database file holds something dealdex never writes (changed outside dealdex), or its
    /// schema is one this dealdex does not read. Treated like bad input: the file is the input.
    CorruptStore,
    /// Another process held the database's write lock past the busy timeout; the same call
    /// may succeed later.
    Busy,
    /// Reading or writing a file or stream failed (disk full, permissions, a closed pipe).
    Io,
    /// Anything else: SQLite failures, a bug.
    Internal,
    /// The user stopped the work (Ctrl-C in `dealdex sql`); the binary exits 130, as a shell
    /// does for a process ended by SIGINT.
    Interrupted,
}

impl ErrorClass {
    /// True for the classes the binary reports with exit code 2 (bad input, corrupt store).
    pub fn is_input(self) -> bool {
        matches!(self, ErrorClass::BadInput | ErrorClass::CorruptStore)
    }
}

/// What dealdex knows of one of its errors: its [`ErrorClass`] and, for errors about text or
/// a file the caller gave, where the problem is.
///
/// Every public error type of the library implements it, next to its definition, and
/// registers there for [`classify`](crate::classify) (a unit test fails for one that does
/// not).
/// An error that wraps another usually takes the class and position of the one it wraps.
///
/// ```
/// use dealdex::{Classify, ErrorClass};
/// let e = dealdex::parse_deal("N:AKQ.x").unwrap_err();
/// assert_eq!(e.class(), ErrorClass::BadInput);
/// assert_eq!(e.position().unwrap().column, Some(7));
/// ```
pub trait Classify: std::error::Error {
    /// This error's [`ErrorClass`].
    fn class(&self) -> ErrorClass;

    /// Where in the input the problem is, with whatever the error knows of it (see
    /// [`InputPosition`]); `None` for errors about no particular place (the default).
    fn position(&self) -> Option<InputPosition> {
        None
    }

    /// The error this one reports in its message without giving it as its
    /// [`source`](std::error::Error::source) (kept out of the chain so that chained messages
    /// do not repeat it), e.g. a file reader's I/O error. Callers that want its details (an
    /// operating system's error code, a format error's kind) look here as well as along the
    /// sources; `None` for errors that hide none (the default).
    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        None
    }

    /// When this error is a deal file format's refusal of bytes or boards (a reader's or
    /// writer's error of the formats crate, the engine's `FormatError`), the kebab-case name
    /// of its kind: `malformed`, `truncated`, `not-a-deal` or `unwritable`. `None` for other errors (the default), also for those that wrap a format
    /// error (they give it as their source or [`wrapped`](Classify::wrapped) error). Lets a
    /// caller such as the Python module name a format error without knowing its type.
    ///
    /// ```
    /// use dealdex::{Classify, formats};
    /// let pbn = formats::by_name("pbn").unwrap();
    /// let e = pbn.read_all(b"[Board \"1\"]\n[Deal \"N:AKQ\"]\n").unwrap_err();
    /// assert_eq!(e.format_kind(), Some("malformed"));
    /// ```
    fn format_kind(&self) -> Option<&'static str> {
        None
    }
}
