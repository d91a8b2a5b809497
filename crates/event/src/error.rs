//! The crate's one error type, in rust-csv's style: an [`Error`] holds an [`ErrorKind`]
//! ([`Error::kind`]), says on which line of a `.sqd` or `.sqk` file the problem is
//! ([`Error::position`]), and its class follows from its kind.

use std::fmt;

use crate::model::InputPosition;
use crate::protocol::ValueFormat;
use crate::{MAX_SESSION_BOARDS, MAX_SESSIONS, SessionId};

crate::classified! {
    /// What is wrong with an event, its files or a request about it: a malformed description
    /// (`.sqd`) or key (`.sqk`) file, an SN line or a `boards` field, keys that do not match the
    /// event's commitments, a delayed value outside its declared format, a phase or session the
    /// event does not have, or the operating system's random source failing. Its position
    /// ([`Error::position`]) is the 1-based line of a malformed `.sqd` or `.sqk` file (the file
    /// itself is named by the workflow error that read it, whose position adds it: the engine's
    /// `dealdex::workflow::event::EventKind`); the other kinds are about the event as a whole.
    ///
    /// ```
    /// use dealdex::event::{ErrorKind, Event};
    /// let e = Event::parse("TN x\nSN 2:1?:A#:a\n").unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::Sqd { line: 2, .. }));
    /// assert_eq!(e.position().unwrap().line, Some(2));
    /// ```
    #[derive(Clone, PartialEq, Eq)]
    pub struct Error(Box<ErrorKind>), with position
}

impl Error {
    /// This error placed in an SN line's `boards` field, when it is a kind of a `boards`
    /// field: its message then starts `SN: boards: `. Other kinds are returned unchanged.
    pub(crate) fn in_sn_line(mut self) -> Error {
        if let ErrorKind::NotABoardNumber { in_sn, .. }
        | ErrorKind::BoardNumberTooLarge { in_sn, .. }
        | ErrorKind::NotABoardRange { in_sn, .. }
        | ErrorKind::BoardsBeyondLast { in_sn, .. }
        | ErrorKind::TooManySessionBoards { in_sn, .. } = &mut *self.0
        {
            *in_sn = true;
        }
        self
    }
}

/// The kinds of [`Error`]. Lines are 1-based; phases and sessions are 1-based (session 0 is
/// the single key of a variable phase).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A line of a `.sqd` file is malformed, or the file is not UTF-8 (SQUAREDEAL.md §2,
    /// docs/event-protocol.md §1).
    #[error("line {line}: {message}")]
    Sqd {
        /// 1-based line number.
        line: usize,
        /// What is wrong, naming the field.
        message: String,
    },
    /// A line of a `.sqk` file is malformed (SQUAREDEAL.md §2).
    #[error("line {line}: {message}")]
    Sqk {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The key file has no key for a session of a fixed phase (or for a variable phase).
    #[error("the key file has no key for session {session} ({name})")]
    MissingKey {
        /// The session (`P,S`, or `P,0` for a variable phase).
        session: SessionId,
        /// The session's file name.
        name: String,
    },
    /// SHA-256 of the key file is not the event's KH.
    #[error("the keys hash to {found}, but KH is {expected}: these are not the published keys")]
    KeyHash {
        /// KH from the `.sqd`, 64 lowercase hex digits.
        expected: String,
        /// SHA-256 of the key file (over its CRLF form), 64 lowercase hex digits.
        found: String,
    },
    /// dealdex protocol: SHA-256 of the event's manifest is not its KH (a committed field
    /// changed since publication, or the KH line did).
    #[error(
        "the event's manifest hashes to {found}, but KH is {expected}: a committed line (PV, TN, DI, VF, SN or SH) changed since publication"
    )]
    ManifestHash {
        /// KH from the `.sqd`, 64 lowercase hex digits.
        expected: String,
        /// SHA-256 of the manifest, 64 lowercase hex digits.
        found: String,
    },
    /// dealdex protocol: a session key does not match its SH commitment, or has none.
    #[error("the key of session {session} {why}")]
    KeyCommitment {
        /// The session.
        session: SessionId,
        /// What is wrong (`does not match its SH line`, `has no SH line`).
        why: String,
    },
    /// A value format (a `VF` value) that is none of the formats (docs/event-protocol.md §3).
    #[error(
        "unknown value format {text:?}: expected decimal:D (D = 0..9), integer or hex:N (N = 1..128)"
    )]
    UnknownValueFormat {
        /// The text as given.
        text: String,
    },
    /// dealdex protocol: the delayed value does not match the declared value format (VF).
    #[error("delayed value {value:?} does not match the declared format {format}: {why}")]
    ValueMismatch {
        /// The value as given.
        value: String,
        /// The declared format.
        format: ValueFormat,
        /// What is wrong, in words.
        why: String,
    },
    /// The event has no KH line: it has not been published.
    #[error("the event has no KH line: it is not published yet (run `dealdex event publish`)")]
    NotPublished,
    /// The event has no DV line.
    #[error(
        "the event has no DV line: record the delayed-information value first (`dealdex event set-value`)"
    )]
    NoValue,
    /// A protocol name that is neither `squaredeal` nor `dealdex`
    /// ([`Protocol`](crate::Protocol)'s `from_str`).
    #[error("unknown protocol {name:?} (known: dealdex, squaredeal)")]
    UnknownProtocol {
        /// The name as given.
        name: String,
    },
    /// More boards asked of a session's deals than memory can hold.
    #[error("{count} boards is too many")]
    TooManyBoards {
        /// The boards asked for.
        count: u64,
    },
    /// More boards asked of a Big Deal stream than its 32-bit counter gives.
    #[error("{count} boards exhaust Big Deal's 32-bit counter")]
    CounterExhausted {
        /// The boards asked for.
        count: u64,
    },
    /// A dealdex-protocol event without a VF line (the delayed value's format), which its
    /// manifest needs.
    #[error("the event has no VF line (the delayed value's format)")]
    NoValueFormat,
    /// Committing to each key ([`Event::commit_keys`](crate::Event::commit_keys)) asked of a
    /// SquareDeal event.
    #[error(
        "only a dealdex-protocol event commits to each key (SquareDeal's KH is the hash of the key file)"
    )]
    CommitNeedsDealdex,
    /// Checking per-key commitments
    /// ([`Event::check_commitments`](crate::Event::check_commitments)) asked of a SquareDeal
    /// event.
    #[error("a SquareDeal event commits to the whole key file, not to each key")]
    CommitmentsNeedDealdex,
    /// The keys given to [`Event::commit_keys`](crate::Event::commit_keys) have no key for a
    /// session of the event.
    #[error("the keys have no session {session}")]
    NoKeyFor {
        /// The session without a key.
        session: SessionId,
    },
    /// A phase number the event does not have.
    #[error("there is no phase {phase}: the event has phases 1..{phases}")]
    NoSuchPhase {
        /// The phase asked for (1-based).
        phase: u32,
        /// How many phases the event has.
        phases: usize,
    },
    /// A session number its phase does not have.
    #[error(
        "phase {} has no session {} (it has {})",
        session.phase,
        session.session,
        if *sessions == 0 {
            "sessions 1, 2, 3, …".to_string()
        } else {
            format!("sessions 1..{sessions}")
        }
    )]
    NoSuchSession {
        /// The session asked for.
        session: SessionId,
        /// How many sessions its phase has (0: a variable number).
        sessions: u32,
    },
    /// The operating system's random source failed (drawing session keys).
    #[error("cannot read the operating system's random source: {0}")]
    OsRandom(String),
    /// A `boards` field (an SN line's or one given alone, [`Boards::parse`](crate::Boards::parse)):
    /// a board number that is not a run of ASCII digits (empty included).
    #[error("{}{text:?} is not a board number", SnBoards(*in_sn))]
    NotABoardNumber {
        /// The text where a board number was expected.
        text: String,
        /// The field is an SN line's: the message starts `SN: boards: `.
        in_sn: bool,
    },
    /// A `boards` field: a board number too large for 64 bits.
    #[error("{}{text:?} is too large a board number", SnBoards(*in_sn))]
    BoardNumberTooLarge {
        /// The number as written.
        text: String,
        /// The field is an SN line's: the message starts `SN: boards: `.
        in_sn: bool,
    },
    /// A `boards` field: an entry `a-b` with a = 0 or b < a (or a count N of 0).
    #[error(
        "{}{entry:?} is not a board range a-b with 1 <= a <= b (or a count N)",
        SnBoards(*in_sn)
    )]
    NotABoardRange {
        /// The entry of the comma list.
        entry: String,
        /// The field is an SN line's: the message starts `SN: boards: `.
        in_sn: bool,
    },
    /// A `boards` field: an entry whose last board is beyond `i64::MAX` (what SQLite holds).
    #[error("{}{entry:?}: board numbers stop at {}", SnBoards(*in_sn), i64::MAX)]
    BoardsBeyondLast {
        /// The entry of the comma list.
        entry: String,
        /// The field is an SN line's: the message starts `SN: boards: `.
        in_sn: bool,
    },
    /// A `boards` field: an entry of more than [`MAX_SESSION_BOARDS`] boards.
    #[error(
        "{}{entry:?}: {boards} boards in a session; at most {MAX_SESSION_BOARDS}",
        SnBoards(*in_sn)
    )]
    TooManySessionBoards {
        /// The entry of the comma list.
        entry: String,
        /// How many boards it has.
        boards: u64,
        /// The field is an SN line's: the message starts `SN: boards: `.
        in_sn: bool,
    },
    /// An SN line ([`Phase::parse`](crate::Phase::parse)) with fewer than three
    /// `:`-separated fields.
    #[error("SN {text:?}: expected nsessions:boards:fileprefix:description")]
    PhaseShape {
        /// The SN line's text after `SN `.
        text: String,
    },
    /// An SN line whose `nsessions` is not a run of ASCII digits.
    #[error("SN: nsessions {value:?} is not a number")]
    SessionsNotANumber {
        /// The field as written.
        value: String,
    },
    /// An SN line whose `nsessions` is above [`MAX_SESSIONS`].
    #[error("SN: nsessions {value:?} is too large (at most {MAX_SESSIONS})")]
    TooManySessions {
        /// The field as written.
        value: String,
    },
    /// An SN line whose file prefix is not `^[A-Za-z][A-Za-z0-9#_-]*$`.
    #[error("SN: file prefix {prefix:?} must match ^[A-Za-z][A-Za-z0-9#_-]*$")]
    PrefixChars {
        /// The file prefix.
        prefix: String,
    },
    /// An SN line whose file prefix has two runs of `#`.
    #[error(
        "SN: file prefix {prefix:?} has two runs of '#' (one is replaced by the session number)"
    )]
    PrefixTwoRuns {
        /// The file prefix.
        prefix: String,
    },
    /// An SN line whose file prefix has no `#`, but whose phase has several (or a variable
    /// number of) sessions.
    #[error(
        "SN: file prefix {prefix:?} has no '#' for the session number, but the phase has {} sessions",
        if *sessions == 0 { "a variable number of".to_string() } else { sessions.to_string() }
    )]
    PrefixNoRun {
        /// The file prefix.
        prefix: String,
        /// The number of sessions (0: variable).
        sessions: u32,
    },
}

/// `SN: boards: ` before the message of a `boards` field's kind when the field is an SN
/// line's; nothing for a field given alone.
struct SnBoards(bool);

impl fmt::Display for SnBoards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 {
            f.write_str("SN: boards: ")?;
        }
        Ok(())
    }
}

// Class: internal when the operating system's random source failed; bad input for
// everything else (malformed files, keys that do not match, requests the event cannot
// satisfy). Position: the 1-based line of a malformed `.sqd` or `.sqk` file.
crate::classified!(ErrorKind => class {
    ErrorKind::OsRandom(_) => Internal,
    _ => BadInput,
}, position {
    ErrorKind::Sqd { line, .. } | ErrorKind::Sqk { line, .. } => InputPosition::at_line(*line),
});
