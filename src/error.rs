//! One error story: every library error has a [`ErrorClass`], so a caller maps failures to
//! outcomes in one place (the binary: bad input → exit 2, everything else → exit 1).
//!
//! Errors about text or a file the caller gave also say where the problem is: as in
//! rust-csv, they have `position()`, an [`InputPosition`] with whatever is known (file, line,
//! column, byte offset, record), and most have `kind()`, a small `Copy` enum naming what went
//! wrong without the message.

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

    /// `position` (or a position knowing nothing) in the file `file`: what a workflow error
    /// that names its file reports for an inner error's position.
    pub(crate) fn in_file(position: Option<InputPosition>, file: &Path) -> InputPosition {
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
/// Every library error type has a `class()` method returning one of these. The `dealdex`
/// binary maps [`ErrorClass::BadInput`] and [`ErrorClass::CorruptStore`] to exit code 2,
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

impl crate::StoreError {
    /// This error's [`ErrorClass`]: a set that exists with other content, a board number
    /// SQLite cannot hold, a bad `DEALDEX_BUSY_TIMEOUT` or a missing file are bad input; rows
    /// or schemas dealdex does not write are a corrupt store; a lock held past the busy
    /// timeout is busy; other SQLite and migration failures are internal.
    pub fn class(&self) -> ErrorClass {
        use crate::StoreError as E;
        match self {
            E::SetExists { .. }
            | E::DuplicateBoard { .. }
            | E::BoardOutOfRange { .. }
            | E::BadBusyTimeout { .. }
            | E::NoDatabase { .. }
            | E::NotDealdex { .. } => ErrorClass::BadInput,
            E::CorruptPlay { .. }
            | E::CorruptKey { .. }
            | E::CorruptDd { .. }
            | E::CorruptDdSource { .. }
            | E::CorruptDeal { .. }
            | E::CorruptBoard { .. }
            | E::CorruptSeedHash { .. }
            | E::CorruptScheme { .. }
            | E::SchemaTooOld { .. }
            | E::SchemaTooNew { .. } => ErrorClass::CorruptStore,
            e if e.is_busy() => ErrorClass::Busy,
            _ => ErrorClass::Internal,
        }
    }
}

/// Errors that are always bad input: parsing what the user typed or a file they gave.
macro_rules! bad_input_class {
    ($($t:ty),* $(,)?) => {$(
        impl $t {
            /// This error's [`ErrorClass`]: always [`ErrorClass::BadInput`] (it describes
            /// text or a file the caller gave).
            pub fn class(&self) -> ErrorClass {
                ErrorClass::BadInput
            }
        }
    )*};
}

bad_input_class!(
    crate::PbnError,
    crate::IndexError,
    crate::NumberError,
    crate::SeedError,
    crate::DealError,
    crate::FormatError,
    crate::import::ReadFileError,
    crate::event::BoardsError,
    crate::event::PhaseError,
    crate::event::protocol::ProtocolError,
    crate::workflow::event::PhaseSpecError,
    crate::PredealError,
    crate::query::QueryError,
    crate::query::DialectError,
    crate::EncodingError,
    crate::PlayError,
    crate::StrainError,
    crate::GameStateError,
    crate::dd::DdError,
    crate::export::RenderError,
);

impl crate::event::EventError {
    /// This error's [`ErrorClass`]: [`ErrorClass::Internal`] when the operating system's
    /// random source failed; [`ErrorClass::BadInput`] for everything else (malformed files,
    /// keys that do not match, requests the event cannot satisfy).
    pub fn class(&self) -> ErrorClass {
        match self {
            crate::event::EventError::Os(_) => ErrorClass::Internal,
            _ => ErrorClass::BadInput,
        }
    }
}

impl crate::secret::SecretFileError {
    /// This error's [`ErrorClass`]: [`ErrorClass::BadInput`] when something exists at the
    /// path (a secret is never overwritten), [`ErrorClass::Io`] when creating or writing the
    /// file failed.
    pub fn class(&self) -> ErrorClass {
        match self {
            crate::secret::SecretFileError::Exists { .. } => ErrorClass::BadInput,
            _ => ErrorClass::Io,
        }
    }
}

impl crate::export::WriteError {
    /// This error's [`ErrorClass`]: always [`ErrorClass::Io`].
    pub fn class(&self) -> ErrorClass {
        ErrorClass::Io
    }
}

impl crate::export::ExportError {
    /// This error's [`ErrorClass`]: no such set and a format that cannot hold the set are
    /// bad input; a stored key that is no deal is a corrupt store; a store error has the
    /// store's class; a file that cannot be written is I/O.
    pub fn class(&self) -> ErrorClass {
        use crate::export::ExportError as E;
        match self {
            E::NoSet { .. } => ErrorClass::BadInput,
            E::CorruptKey { .. } => ErrorClass::CorruptStore,
            E::Store(e) => e.class(),
            E::Render(e) => e.class(),
            E::Write(e) => e.class(),
        }
    }
}

/// The errors whose only position is a column of a one-line text (a query, a predeal, a deal
/// index, a seed, a number given on the command line).
macro_rules! column_position {
    ($t:ty, $doc:literal, |$e:ident| $column:expr) => {
        impl $t {
            #[doc = $doc]
            pub fn position(&self) -> Option<InputPosition> {
                let $e = self;
                let column: Option<usize> = $column;
                column.map(|c| InputPosition::new().with_column(c as u64))
            }
        }
    };
}

column_position!(
    crate::query::QueryError,
    "Where the problem is: the 1-based column, in characters, of the offending token.",
    |e| Some(e.column)
);
column_position!(
    crate::PredealError,
    "Where the problem is: the 1-based column in the predeal text.",
    |e| Some(e.column)
);
column_position!(
    crate::IndexError,
    "Where the problem is: the 1-based column in the index text for a wrong length or a \
     character that is not a hex digit; `None` for a seat that gets the wrong number of cards.",
    |e| match e {
        crate::IndexError::WrongLength { column, .. }
        | crate::IndexError::NotHex { column, .. } => Some(*column),
        _ => None,
    }
);
column_position!(
    crate::SeedError,
    "Where the problem is: the 1-based column of a character that is not a hex digit; \
     `None` for the other errors.",
    |e| match e {
        crate::SeedError::NotHex { column, .. } => Some(*column),
        _ => None,
    }
);
column_position!(
    crate::NumberError,
    "Where the problem is: the 1-based column of the first bad character of a number that \
     does not parse; `None` for the other errors.",
    |e| match e {
        crate::NumberError::Syntax { column, .. } => Some(*column),
        _ => None,
    }
);

/// What kind of problem an [`EventError`](crate::event::EventError) is
/// ([`EventError::kind`](crate::event::EventError::kind)); the message says more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum EventErrorKind {
    /// A line of the description (`.sqd`) file is malformed, or the file is not UTF-8.
    MalformedDescription,
    /// A line of the key (`.sqk`) file is malformed.
    MalformedKeys,
    /// The key file has no key for a session.
    MissingKey,
    /// The key file does not hash to KH.
    KeyHash,
    /// The manifest does not hash to KH (dealdex protocol).
    ManifestHash,
    /// A key does not match its SH commitment, or has none (dealdex protocol).
    KeyCommitment,
    /// The delayed value does not match the declared value format (dealdex protocol).
    Value,
    /// The event has no KH line.
    NotPublished,
    /// The event has no DV line.
    NoValue,
    /// A request the event cannot satisfy: no such phase or session, no key for a
    /// session to commit to, more boards than can be made.
    Request,
    /// A protocol name that is not known.
    UnknownProtocol,
    /// A dealdex-protocol event without a VF line.
    NoValueFormat,
    /// Per-key commitments asked of a SquareDeal event.
    NeedsDealdexProtocol,
    /// The operating system's random source failed.
    Random,
}

impl crate::event::EventError {
    /// What kind of problem this is.
    ///
    /// ```
    /// use dealdex::event::{Event, EventErrorKind};
    /// let e = Event::parse("TN x\nSN 2:1?:A#:a\n").unwrap_err();
    /// assert_eq!(e.kind(), EventErrorKind::MalformedDescription);
    /// ```
    pub fn kind(&self) -> EventErrorKind {
        use crate::event::EventError as E;
        match self {
            E::Sqd { .. } => EventErrorKind::MalformedDescription,
            E::Sqk { .. } => EventErrorKind::MalformedKeys,
            E::MissingKey { .. } => EventErrorKind::MissingKey,
            E::KeyHash { .. } => EventErrorKind::KeyHash,
            E::ManifestHash { .. } => EventErrorKind::ManifestHash,
            E::KeyCommitment { .. } => EventErrorKind::KeyCommitment,
            E::Value(_) => EventErrorKind::Value,
            E::NotPublished => EventErrorKind::NotPublished,
            E::NoValue => EventErrorKind::NoValue,
            E::UnknownProtocol { .. } => EventErrorKind::UnknownProtocol,
            E::NoValueFormat => EventErrorKind::NoValueFormat,
            E::CommitNeedsDealdex | E::CommitmentsNeedDealdex => {
                EventErrorKind::NeedsDealdexProtocol
            }
            E::TooManyBoards { .. }
            | E::CounterExhausted { .. }
            | E::NoKeyFor { .. }
            | E::NoSuchPhase { .. }
            | E::NoSuchSession { .. } => EventErrorKind::Request,
            E::Os(_) => EventErrorKind::Random,
        }
    }

    /// Where the problem is: the 1-based line of a malformed `.sqd` or `.sqk` file (the
    /// file itself is named by the workflow error that read it,
    /// [`EventJobError::position`](crate::workflow::event::EventJobError::position));
    /// `None` for the other errors, which are about the event as a whole.
    ///
    /// ```
    /// let e = dealdex::event::Event::parse("TN x\nSN 2:1?:A#:a\n").unwrap_err();
    /// assert_eq!(e.position().unwrap().line, Some(2));
    /// ```
    pub fn position(&self) -> Option<InputPosition> {
        use crate::event::EventError as E;
        match self {
            E::Sqd { line, .. } | E::Sqk { line, .. } => {
                Some(InputPosition::new().with_line(*line as u64))
            }
            _ => None,
        }
    }
}

impl crate::workflow::event::EventJobError {
    /// Where the problem is, when it is in a file: the file, and the line for a malformed
    /// `.sqd` or `.sqk` file or the reader's position for a hand record that could not be
    /// read. `None` for errors about options or the event as a whole.
    pub fn position(&self) -> Option<InputPosition> {
        use crate::workflow::event::EventJobError as E;
        match self {
            E::Malformed { path, error } | E::Keys { path, error } | E::Event { path, error } => {
                Some(InputPosition::in_file(error.position(), path))
            }
            E::Read { path, .. } | E::UnknownFormat { path } => {
                Some(InputPosition::new().with_file(path))
            }
            E::DealFile(e) => e.position(),
            _ => None,
        }
    }
}
