//! The event workflows: `dealdex event new | publish | set-value | make | verify` as library
//! functions (SQUAREDEAL.md §2–§4, docs/event-protocol.md).
//!
//! The domain code — parsing `.sqd`/`.sqk` files, deriving a session's deals, comparing a
//! hand record — lives in [`crate::event`] and [`crate::event::protocol`]; these workflows
//! orchestrate it: each takes a job struct (paths and options, already typed), reads and
//! writes the files, stores sets where asked, and returns a report that derives
//! `serde::Serialize`. They never print. Every failure is a [`crate::Error`] naming what
//! was wrong and where (file, line, phase, session, board), with an [`ErrorClass`]: the
//! event's own kinds are [`EventKind`]s ([`ErrorKind::Event`](crate::ErrorKind::Event)), a
//! hand record's, the store's and a secret file's the engine's shared kinds.
//!
//! - [`new_event`]: writes a new description file ([`NewJob`] → [`NewReport`]).
//! - [`publish`]: draws the keys into a new secret key file and commits to them with KH
//!   ([`PublishJob`] → [`PublishReport`]).
//! - [`set_value`]: records the delayed value DV ([`SetValueJob`] → [`SetValueReport`]).
//! - [`make`]: makes sessions' deals into files and stored sets ([`MakeJob`] →
//!   [`MakeReport`]).
//! - [`verify`]: checks KH, the keys, a published copy and hand records ([`VerifyJob`] →
//!   [`VerifyReport`]); a failed check is in the report, not an error.
//!
//! ```
//! use dealdex::event::Protocol;
//! use dealdex::workflow::event::{NewJob, PublishJob, SetValueJob, new_event, publish, set_value};
//! let dir = tempfile::tempdir()?;
//! let sqd = dir.path().join("CUP.sqd");
//! let mut job = NewJob::new(&sqd, "Cup", "DJIA close, two decimals", vec!["2:8:RR#:Round robin".into()]);
//! job.value_format = Some("decimal:2".into());
//! assert_eq!(new_event(&job)?.sessions, 2);
//! let published = publish(&PublishJob { file: sqd.clone(), keys: None })?;
//! assert_eq!((published.sessions, published.key_hash.len()), (2, 64));
//! let value = set_value(&SetValueJob { file: sqd, value: "44882.13".into(), replace: false })?;
//! assert_eq!(value.protocol, Protocol::Dealdex.name());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod describe;
mod make;
mod text;
mod verify;

use std::path::{Path, PathBuf};

pub use describe::{
    NewJob, NewReport, PublishJob, PublishReport, SetValueJob, SetValueReport, new_event, publish,
    set_value,
};
pub use make::{
    MAX_RUN_BOARDS, MadeFile, MadeSession, MakeJob, MakeOptions, MakeReport, StoredSet, make,
    parse_boards, parse_sessions,
};
pub use verify::{
    FileCheck, FileOutcome, FileSession, KeyHashCheck, KeysCheck, PublishedCheck, VerifyJob,
    VerifyReport, verify,
};

use crate::FormatError;
use crate::event::{self, Event, Keys};
use crate::secret::SecretFile;
use crate::{ErrorClass, InputPosition, Result};

/// The event workflows' own kinds of error ([`ErrorKind::Event`](crate::ErrorKind::Event)):
/// why an event workflow stopped. Unless a variant says otherwise nothing was written or
/// stored. Messages name the file (and, through the inner error, the line), the phase, the
/// session or the board; options are named as `dealdex event` spells them (`--phase`,
/// `--boards`, …), the job fields of the same names.
#[derive(Debug, derive_more::Display)]
#[non_exhaustive]
pub enum EventKind {
    /// An input file (`.sqd`, `.sqk`, a directory of hand records) could not be read.
    #[display("{}: {error}", path.display())]
    Read {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// A `.sqd` or `.sqk` file is malformed or not UTF-8 (SQUAREDEAL.md §2,
    /// docs/event-protocol.md §1–§2); the inner error gives the line.
    #[display("{}: {error}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its line.
        error: event::Error,
    },
    /// The keys do not match the event's commitments: SHA-256 of the key file is not KH
    /// (SQUAREDEAL.md §4), the manifest does not hash to KH or a key not to its SH line
    /// (docs/event-protocol.md §2, §4), or a session has no key. `path` is the file at
    /// fault: the description file when its own lines changed, else the key file.
    #[display("{}: {error}", path.display())]
    Keys {
        /// The description or key file.
        path: PathBuf,
        /// What does not match, naming the session where there is one.
        error: event::Error,
    },
    /// The event in the description file cannot do what was asked: no KH or DV yet, a value
    /// outside the declared format VF, keys that cannot be committed, a session it cannot
    /// make.
    #[display("{}: {error}", path.display())]
    Event {
        /// The description file.
        path: PathBuf,
        /// Why.
        error: event::Error,
    },
    /// A request about the event that it cannot satisfy (no such phase or session).
    #[display("{_0}")]
    Request(event::Error),
    /// A text field (TN, DI, DV, a phase's description) the description file could not
    /// keep as given.
    #[display("{_0}")]
    Field(FieldProblem),
    /// `--phase SPEC` of [`NewJob::phases`] is not a phase SquareDeal's dialogue would
    /// accept (SQUAREDEAL.md §2).
    #[display("phase {spec:?}: {problem}")]
    Phase {
        /// The spec as given.
        spec: String,
        /// What is wrong with it.
        problem: PhaseSpecProblem,
    },
    /// Two phases would write files of the same name.
    #[display("phases {first} and {second} both name a session {name:?}")]
    SameSessionName {
        /// The earlier phase, 1-based.
        first: usize,
        /// The later phase, 1-based.
        second: usize,
        /// The session (file) name both make.
        name: String,
    },
    /// `--value-format` given for SquareDeal's protocol, whose DV is free text.
    #[display("a value format belongs to the dealdex protocol: SquareDeal's DV is free text")]
    ValueFormatNotUsed,
    /// The dealdex protocol without `--value-format` (docs/event-protocol.md §3).
    #[display(
        "the dealdex protocol needs a value format (decimal:D, integer or hex:N): the one spelling the delayed value will have, committed before the event"
    )]
    ValueFormatMissing,
    /// `--value-format` is none of the formats (docs/event-protocol.md §3).
    #[display("value format: {_0}")]
    ValueFormat(event::Error),
    /// Something exists where a new file was to be created; nothing was written.
    #[display("{}: the file exists; refusing to overwrite it", path.display())]
    Exists {
        /// The path.
        path: PathBuf,
    },
    /// `publish` of an event that already has KH: its keys are never drawn again.
    #[display("{}: already published (KH {key_hash}); its keys are not drawn again", path.display())]
    AlreadyPublished {
        /// The description file.
        path: PathBuf,
        /// Its KH, 64 lowercase hex digits.
        key_hash: String,
    },
    /// `publish` of an event that already has DV (SQUAREDEAL.md §5: the value must become
    /// known after the commitment).
    #[display(
        "{}: DV is already set: the delayed value must become known only after the keys are committed (remove the DV line)",
        path.display()
    )]
    ValueBeforeKeys {
        /// The description file.
        path: PathBuf,
    },
    /// `publish` of a description file without a field it needs.
    #[display("{}: {missing}", path.display())]
    Incomplete {
        /// The description file.
        path: PathBuf,
        /// What is missing: `no tournament name (TN)`, `no delayed-information description
        /// (DI)` or `no phases (SN lines)`.
        missing: &'static str,
    },
    /// The operating system's random source failed while drawing keys.
    #[display("{_0}")]
    Random(event::Error),
    /// `set-value` before `publish`.
    #[display(
        "{}: not published yet (no KH): publish first, so that the keys are committed before the value is known",
        path.display()
    )]
    NotPublishedYet {
        /// The description file.
        path: PathBuf,
    },
    /// `set-value` of an event with another DV, without [`SetValueJob::replace`].
    #[display("{}: DV is already {value:?}; it is replaced only when asked to", path.display())]
    ValueAlreadySet {
        /// The description file.
        path: PathBuf,
        /// The DV it holds.
        value: String,
    },
    /// The value would not be read back from the description file exactly as given.
    #[display("the value {value:?} would not be read back exactly from {}", path.display())]
    ValueNotKept {
        /// The description file.
        path: PathBuf,
        /// The value.
        value: String,
    },
    /// `--boards ?` for a `?` phase: the count must be given.
    #[display("boards ?: give the number of boards")]
    BoardsUnknown,
    /// `--boards` is not a board list (SQUAREDEAL.md §2).
    #[display("boards: {_0}")]
    Boards(event::Error),
    /// `--session` is not `S` or `A-B`.
    #[display("session {spec:?}: {problem}")]
    Sessions {
        /// The text given.
        spec: String,
        /// What is wrong: a part that is no session number, or A > B.
        problem: String,
    },
    /// A `?` phase asked for without a board count.
    #[display("phase {phase} ({prefix}) has ? boards: give the number of boards")]
    PhaseNeedsBoards {
        /// The phase, 1-based.
        phase: u32,
        /// Its file prefix.
        prefix: String,
    },
    /// A board count for a phase whose SN line fixes its boards.
    #[display(
        "phase {phase} ({prefix}) has its boards fixed in the .sqd ({boards}); a number of boards is for ? phases"
    )]
    PhaseBoardsFixed {
        /// The phase, 1-based.
        phase: u32,
        /// Its file prefix.
        prefix: String,
        /// Its boards as the SN line gives them.
        boards: String,
    },
    /// A variable phase asked for without its sessions.
    #[display("phase {phase} ({prefix}) has a variable number of sessions: give the session")]
    PhaseNeedsSessions {
        /// The phase, 1-based.
        phase: u32,
        /// Its file prefix.
        prefix: String,
    },
    /// A session beyond the phase's last.
    #[display("phase {phase} ({prefix}) has sessions 1..{sessions}, not {session}")]
    NoSuchSession {
        /// The phase, 1-based.
        phase: u32,
        /// Its file prefix.
        prefix: String,
        /// Its number of sessions.
        sessions: u32,
        /// The session asked for.
        session: u32,
    },
    /// The run would make more than [`MAX_RUN_BOARDS`] boards (all made in memory first).
    #[display(
        "phase {phase} ({prefix}) sessions {first}-{last}: this run would make more than {MAX_RUN_BOARDS} boards, which are made in memory before anything is written; make fewer sessions at a time (one phase, or some of its sessions)"
    )]
    TooManyBoards {
        /// The phase, 1-based.
        phase: u32,
        /// Its file prefix.
        prefix: String,
        /// The first session asked for.
        first: u32,
        /// The last session asked for.
        last: u32,
    },
    /// No session to make; the notes say which phases were skipped and why.
    #[display("no session to make{}", notes.iter().map(|n| format!("; {n}")).collect::<String>())]
    NothingToMake {
        /// Why each phase was skipped.
        notes: Vec<String>,
    },
    /// A format cannot hold a session's boards.
    #[display("{}: {error}", path.display())]
    Render {
        /// The file it was for.
        path: PathBuf,
        /// Why.
        error: FormatError,
    },
    /// A stored set of the same name holds other deals (another DV, other keys); nothing
    /// was made.
    #[display(
        "{}: set {set:?} already exists with other deals (made with another value or other keys?); nothing was made",
        db.display()
    )]
    SetConflict {
        /// The database file.
        db: PathBuf,
        /// The set.
        set: String,
    },
    /// `--out` exists and is no directory; nothing was made.
    #[display("{}: exists and is not a directory; nothing was made", path.display())]
    OutNotDirectory {
        /// The path.
        path: PathBuf,
    },
    /// Something other than a regular file where a session's file goes; nothing was made.
    #[display("{}: exists and is not a file; nothing was made", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// `--partial` for a SquareDeal event, whose KH covers the whole key file.
    #[display(
        "{}: a partial check needs the dealdex protocol: SquareDeal's KH covers the whole key file",
        path.display()
    )]
    PartialNeedsDealdex {
        /// The description file.
        path: PathBuf,
    },
    /// Writing a file or creating a directory failed (`make` then replaces none of its
    /// files: they are put in place all or none).
    #[display("{}: {error}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
}

impl EventKind {
    /// [`ErrorClass::Io`] for a file that could not be written; [`ErrorClass::Internal`]
    /// for a failed random source; [`ErrorClass::BadInput`] for everything else.
    pub(crate) fn class(&self) -> ErrorClass {
        match self {
            EventKind::Write { .. } => ErrorClass::Io,
            EventKind::Random(_) => ErrorClass::Internal,
            _ => ErrorClass::BadInput,
        }
    }

    /// Where the problem is, when it is in a file: the file, and the line for a malformed
    /// `.sqd` or `.sqk` file. `None` for errors about options or the event as a whole.
    pub(crate) fn position(&self) -> Option<InputPosition> {
        use EventKind as E;
        match self {
            E::Malformed { path, error } | E::Keys { path, error } | E::Event { path, error } => {
                Some(InputPosition::in_file(error.position(), path))
            }
            E::Read { path, .. } => Some(InputPosition::new().with_file(path)),
            _ => None,
        }
    }

    /// The error the message shows: a file's I/O error, the event crate's, a format's.
    pub(crate) fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        use EventKind as E;
        match self {
            E::Read { error, .. } | E::Write { error, .. } => Some(error),
            E::Malformed { error, .. }
            | E::Keys { error, .. }
            | E::Event { error, .. }
            | E::Request(error)
            | E::ValueFormat(error)
            | E::Random(error)
            | E::Boards(error) => Some(error),
            E::Render { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// What is wrong with a one-line text the description file must keep exactly: TN, DI, DV
/// or a phase's description (SQUAREDEAL.md §2). `field` is the option's name (`--name`,
/// `--delayed-info`) or `the value`, `the description`.
#[derive(Clone, Debug, PartialEq, Eq, derive_more::Display)]
pub enum FieldProblem {
    /// Nothing given.
    #[display("{field} is empty")]
    Empty {
        /// The field.
        field: &'static str,
    },
    /// A control character (a line end, a tab): the field must be one line.
    #[display(
        "{field} {value:?} contains the control character {character:?}: it must be one line"
    )]
    Control {
        /// The field.
        field: &'static str,
        /// The text given.
        value: String,
        /// The first control character.
        character: char,
    },
    /// White space at either end, which the file loses.
    #[display("{field} {value:?} starts or ends with white space, which the .sqd file cannot keep")]
    Whitespace {
        /// The field.
        field: &'static str,
        /// The text given.
        value: String,
    },
}

/// What is wrong with a `--phase` spec `nsessions:boards:fileprefix:description`.
#[derive(Clone, Debug, PartialEq, Eq, derive_more::Display)]
pub enum PhaseSpecProblem {
    /// Fewer than four `:`-separated fields.
    #[display("expected nsessions:boards:fileprefix:description")]
    Shape,
    /// A `:` in the description (SquareDeal cuts the line there).
    #[display("the description may not contain ':' (SquareDeal cuts it there)")]
    Colon,
    /// The description cannot be kept as given.
    #[display("{_0}")]
    Description(FieldProblem),
    /// `NxM` boards beyond the bounds: N sessions of M boards.
    #[display(
        "boards {boards:?}: {sessions} sessions of {per_session} boards; at most {} sessions, and board numbers stop at {}",
        event::MAX_SESSIONS,
        i64::MAX
    )]
    TooLarge {
        /// The boards field as given.
        boards: String,
        /// N.
        sessions: u64,
        /// M.
        per_session: u64,
    },
    /// The SN line it makes is not valid ([`event::Phase::parse`]).
    #[display("{_0}")]
    Invalid(event::Error),
    /// A variable number of sessions under the dealdex protocol (docs/event-protocol.md §1).
    #[display(
        "the dealdex protocol needs a number of sessions: declare the most the phase may need (unused keys are revealed and ignored)"
    )]
    Variable,
    /// The file prefix of an earlier phase.
    #[display("file prefix {prefix:?} is already used by phase {phase}")]
    PrefixUsed {
        /// The prefix.
        prefix: String,
        /// The earlier phase, 1-based.
        phase: usize,
    },
}

/// Checks a TN/DI/DV text: one line, not empty, no white space at either end (the file
/// could not keep it), no control characters.
fn check_field(field: &'static str, v: &str) -> Result<(), FieldProblem> {
    if v.is_empty() {
        return Err(FieldProblem::Empty { field });
    }
    if let Some(character) = v.chars().find(|c| c.is_control()) {
        return Err(FieldProblem::Control {
            field,
            value: v.to_owned(),
            character,
        });
    }
    if v.trim() != v {
        return Err(FieldProblem::Whitespace {
            field,
            value: v.to_owned(),
        });
    }
    Ok(())
}

/// Reads and parses a `.sqd` file, returning its text and the event.
fn read_event(path: &Path) -> Result<(String, Event)> {
    let (bytes, ev) = read_parsed(path, Event::parse_bytes)?;
    let text = String::from_utf8(bytes).expect("parse_bytes checked UTF-8");
    Ok((text, ev))
}

/// Reads and parses a `.sqk` file.
fn read_keys(path: &Path) -> Result<Keys> {
    Ok(read_parsed(path, Keys::parse)?.1)
}

/// The bytes of the event's file `path` and what `parse` makes of them:
/// [`EventKind::Read`] when it cannot be read, [`EventKind::Malformed`] when `parse`
/// refuses it.
fn read_parsed<T>(
    path: &Path,
    parse: impl FnOnce(&[u8]) -> std::result::Result<T, event::Error>,
) -> Result<(Vec<u8>, T)> {
    let bytes = std::fs::read(path).map_err(|error| EventKind::Read {
        path: path.to_owned(),
        error,
    })?;
    let parsed = parse(&bytes).map_err(|error| EventKind::Malformed {
        path: path.to_owned(),
        error,
    })?;
    Ok((bytes, parsed))
}

/// The file a failed key check is about: the description file when its own lines are wrong
/// (KH does not match the manifest, no VF, no KH), else the key file.
fn blamed<'p>(e: &event::Error, sqd: &'p Path, keys: &'p Path) -> &'p Path {
    use event::ErrorKind as K;
    match e.kind() {
        K::ManifestHash { .. }
        | K::NotPublished
        | K::NoValueFormat
        | K::CommitNeedsDealdex
        | K::CommitmentsNeedDealdex
        | K::NoKeyFor { .. }
        | K::NoSuchPhase { .. }
        | K::NoSuchSession { .. }
        | K::TooManyBoards { .. }
        | K::CounterExhausted { .. }
        | K::UnknownProtocol { .. } => sqd,
        _ => keys,
    }
}

/// The key file beside a description file: same name, extension `.sqk`.
pub fn default_keys(sqd: &Path) -> PathBuf {
    sqd.with_extension("sqk")
}

/// A published event's two files, as `make` and `verify` take them (with the `clap` feature,
/// their arguments): the description and its keys.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct EventFiles {
    /// The event's description file (`.sqd`), published (KH) and with its value (DV).
    pub file: PathBuf,
    /// The key file, revealed after the event (default: the description file with
    /// extension `.sqk`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub keys: Option<PathBuf>,
}

impl EventFiles {
    /// The description file `file` with the key file beside it ([`default_keys`]).
    pub fn new(file: &Path) -> EventFiles {
        EventFiles {
            file: file.to_owned(),
            keys: None,
        }
    }

    /// The key file: [`EventFiles::keys`], else the default beside the description.
    pub fn keys_path(&self) -> PathBuf {
        self.keys
            .clone()
            .unwrap_or_else(|| default_keys(&self.file))
    }

    /// The event and its keys, read and parsed, with the key file's path.
    ///
    /// # Errors
    /// [`EventKind::Read`] or [`EventKind::Malformed`] for either file.
    fn read(&self) -> Result<(Event, Keys, PathBuf)> {
        let (_, ev) = read_event(&self.file)?;
        let keys_path = self.keys_path();
        let keys = read_keys(&keys_path)?;
        Ok((ev, keys, keys_path))
    }
}

/// Writes `bytes` to `path` whole ([`crate::workflow::output::write_whole`]: a failure leaves the old
/// file as it was, and the temporary name is dealdex's own).
fn replace_file(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::workflow::output::write_whole(path, bytes).map_err(|error| {
        EventKind::Write {
            path: path.to_owned(),
            error,
        }
        .into()
    })
}

/// Creates a new file (never overwriting, never following a symbolic link) with `bytes`;
/// `private` makes it a secret file ([`crate::secret::write_new`]: mode 0600 from the start).
fn create_new(path: &Path, bytes: &[u8], private: bool) -> Result<()> {
    let exists = || EventKind::Exists {
        path: path.to_owned(),
    };
    if private {
        return crate::secret::write_new(path, bytes).map_err(|e| match SecretFile::of(e) {
            Ok(SecretFile::Exists { .. }) => exists().into(),
            Ok(problem) => problem.into(),
            Err(e) => e,
        });
    }
    use std::io::Write;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(mut f) => f.write_all(bytes).map_err(|error| {
            let _ = std::fs::remove_file(path);
            EventKind::Write {
                path: path.to_owned(),
                error,
            }
            .into()
        }),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(exists().into()),
        Err(error) => Err(EventKind::Write {
            path: path.to_owned(),
            error,
        }
        .into()),
    }
}
