//! One error story: every library error has a [`ErrorClass`], so a caller maps failures to
//! outcomes in one place (the binary: bad input → exit 2, everything else → exit 1).

/// What kind of failure an error is, independent of where it happened.
///
/// Every library error type has a `class()` method returning one of these. The `dealdex`
/// binary maps [`ErrorClass::BadInput`] and [`ErrorClass::CorruptStore`] to exit code 2 and
/// the others to exit code 1.
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
            | E::NoDatabase { .. } => ErrorClass::BadInput,
            E::CorruptPlay { .. }
            | E::CorruptKey { .. }
            | E::CorruptDd { .. }
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
