//! The crate's one error type, in rust-csv's style: an [`Error`] holds an [`ErrorKind`]
//! ([`Error::kind`]), says where the problem is ([`Error::position`]), and its class follows
//! from its kind.

use std::fmt;
use std::path::PathBuf;

use crate::model::text::OptionalPlace;
use crate::model::{Classify, ErrorClass, InputPosition};

crate::classified! {
    /// Why a format refused a file or boards, a [`BoardWriter`](crate::BoardWriter)'s destination
    /// failed, or no format was chosen for a file. A reader's error names its place in the bytes
    /// it was given; the caller adds the file's name.
    ///
    /// ```
    /// use dealdex::{FormatErrorKind, formats};
    /// let pbn = formats::by_name("pbn").unwrap();
    /// let e = pbn.read_all(b"[Board \"1\"]\n[Deal \"N:AKQ\"]\n").unwrap_err();
    /// assert!(matches!(e.kind(), FormatErrorKind::Malformed { .. }));
    /// ```
    ///
    /// Its position ([`Error::position`]): for a reader's refusal, line and column (text
    /// formats) or record and byte offset (binary ones) in the bytes it was given, without the
    /// file; for a format's choice, the file and the line looked at. `None` for a problem of no
    /// place (a whole file, such as an empty one; a writer's).
    ///
    /// ```
    /// use dealdex::formats;
    /// let lin = formats::by_name("lin").unwrap();
    /// let e = lin.read_all(b"qx|o1|\nmd|x|\n").unwrap_err();
    /// let p = e.position().unwrap();
    /// assert_eq!((p.line, p.column), (Some(2), Some(4)));
    /// ```
    pub struct Error(Box<ErrorKind>), with position, from io
}

impl Error {
    /// A reader's [`ErrorKind::Malformed`] at `position`.
    pub(crate) fn malformed(position: InputPosition, message: impl Into<String>) -> Error {
        let message = message.into();
        ErrorKind::Malformed { position, message }.into()
    }

    /// A reader's [`ErrorKind::Truncated`] at `position`.
    pub(crate) fn truncated(position: InputPosition, message: impl Into<String>) -> Error {
        let message = message.into();
        ErrorKind::Truncated { position, message }.into()
    }

    /// A reader's [`ErrorKind::NotADeal`] at `position`.
    pub(crate) fn not_a_deal(position: InputPosition, message: impl Into<String>) -> Error {
        let message = message.into();
        ErrorKind::NotADeal { position, message }.into()
    }

    /// A writer's [`ErrorKind::Unwritable`].
    pub(crate) fn unwritable(message: impl Into<String>) -> Error {
        let message = message.into();
        ErrorKind::Unwritable { message }.into()
    }

    /// This error with a reader's position replaced by `moved(position)` (a piece's position
    /// counted from the file's start); other kinds are returned unchanged.
    pub(crate) fn moved(mut self, moved: impl FnOnce(&InputPosition) -> InputPosition) -> Error {
        if let ErrorKind::Malformed { position, .. }
        | ErrorKind::Truncated { position, .. }
        | ErrorKind::NotADeal { position, .. } = &mut *self.0
        {
            *position = moved(position);
        }
        self
    }
}

/// The kinds of [`Error`]. Lines, columns and records are 1-based; byte offsets 0-based,
/// from the start of the bytes the reader was given.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading: the bytes do not follow the format (a bad character, field, tag or key, a
    /// checksum or a header that does not match, parts of a record that disagree).
    #[error("{}{message}", PlacePrefix(position))]
    Malformed {
        /// Where: a line (and 1-based column), a byte offset, or a record and its offset;
        /// nowhere ([`InputPosition::is_nowhere`]) for a problem of the whole file.
        position: InputPosition,
        /// What was wrong, naming what was expected.
        message: String,
    },
    /// Reading: the file ends inside a record or its header.
    #[error("{}{message}", PlacePrefix(position))]
    Truncated {
        /// Where the cut record or header starts (as for [`ErrorKind::Malformed`]).
        position: InputPosition,
        /// What was cut, e.g. `truncated record: 100 of 156 bytes`.
        message: String,
    },
    /// Reading: the hands are well formed but are not a deal (a card twice, a hand of the
    /// wrong size).
    #[error("{}{message}", PlacePrefix(position))]
    NotADeal {
        /// Where the deal is (as for [`ErrorKind::Malformed`]).
        position: InputPosition,
        /// What is wrong with the hands.
        message: String,
    },
    /// Writing: a board the format cannot hold (no number, number 0 or above the format's
    /// limit, too many boards, boards the layout cannot place).
    #[error("{message}")]
    Unwritable {
        /// Which board or option, and the format's limit.
        message: String,
    },
    /// Writing: a [`BoardWriter`](crate::BoardWriter)'s destination refused the bytes.
    #[error(transparent)]
    Io(std::io::Error),
    /// A format name no registered format has.
    #[error("unknown format {name:?} (known: {})", crate::names())]
    UnknownName {
        /// The name as given.
        name: String,
    },
    /// A file whose extension selects no format, and no name given.
    #[error(
        "{}: cannot tell the format from the extension; name its format: {}",
        path.display(),
        crate::names()
    )]
    UnknownExtension {
        /// The file.
        path: PathBuf,
    },
    /// The first lines of a file fit more than one format (e.g. a dealer run that produced
    /// no deal: only its statistics lines).
    #[error(
        "{}{}the file could be any of {}: name its format",
        FilePrefix(path),
        OptionalPlace("line", *line),
        candidates.join(", ")
    )]
    AmbiguousContent {
        /// The file, when the error names it ([`choose_by_content`](crate::choose_by_content);
        /// `None` from [`detect`](fn@crate::detect), whose caller knows it).
        path: Option<PathBuf>,
        /// The 1-based line that was looked at, if any.
        line: Option<usize>,
        /// The registry names of the formats it fits.
        candidates: Vec<&'static str>,
    },
    /// The first lines of a file fit no format dealdex reads.
    #[error(
        "{}{}cannot tell the format ({reason}): name its format ({})",
        FilePrefix(path),
        OptionalPlace("line", *line),
        crate::names()
    )]
    UnknownContent {
        /// The file, as for [`ErrorKind::AmbiguousContent`].
        path: Option<PathBuf>,
        /// The 1-based line that was looked at, if any.
        line: Option<usize>,
        /// What was found there, e.g. `an empty file` or `endplay-dealer's printall`.
        reason: String,
    },
}

/// How a reader's error starts: its place as readers have always written it (`line 3: `,
/// `line 3, column 7: `, `byte 40: `, `record 2 (byte 88): `), nothing for no place.
struct PlacePrefix<'a>(&'a InputPosition);

impl fmt::Display for PlacePrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0;
        match (p.record, p.line, p.column, p.byte) {
            (Some(r), _, _, Some(b)) => write!(f, "record {r} (byte {b}): "),
            (None, Some(l), Some(c), _) => write!(f, "line {l}, column {c}: "),
            (None, Some(l), None, _) => write!(f, "line {l}: "),
            (None, None, _, Some(b)) => write!(f, "byte {b}: "),
            _ if p.is_nowhere() => Ok(()),
            _ => write!(f, "{p}: "),
        }
    }
}

/// `file: ` before a format choice's message when it names the file, nothing otherwise.
struct FilePrefix<'a>(&'a Option<PathBuf>);

impl fmt::Display for FilePrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(path) => write!(f, "{}: ", path.display()),
            None => Ok(()),
        }
    }
}

crate::classified!(ErrorKind);
impl Classify for ErrorKind {
    /// [`Io`](ErrorClass::Io) when a writer's destination failed; else
    /// [`BadInput`](ErrorClass::BadInput): a file the format refuses, boards it cannot hold, a
    /// name or a file whose format cannot be told are the caller's.
    fn class(&self) -> ErrorClass {
        match self {
            ErrorKind::Io(_) => ErrorClass::Io,
            _ => ErrorClass::BadInput,
        }
    }

    /// A reader's place (`None` when it is nowhere, a problem of the whole file); for a
    /// format's choice, the file (when named) and the line looked at; `None` for the other
    /// kinds.
    fn position(&self) -> Option<InputPosition> {
        let line = |line: &Option<usize>| line.map(InputPosition::at_line);
        match self {
            ErrorKind::Malformed { position, .. }
            | ErrorKind::Truncated { position, .. }
            | ErrorKind::NotADeal { position, .. } => {
                (!position.is_nowhere()).then(|| position.clone())
            }
            ErrorKind::UnknownExtension { path } => Some(InputPosition::new().with_file(path)),
            ErrorKind::AmbiguousContent { path, line: l, .. }
            | ErrorKind::UnknownContent { path, line: l, .. } => match path {
                Some(path) => Some(InputPosition::in_file(line(l), path)),
                None => line(l),
            },
            _ => None,
        }
    }

    /// The destination's I/O error, which the message shows (transparently).
    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ErrorKind::Io(error) => Some(error),
            _ => None,
        }
    }

    /// The kebab-case name of a format's refusal of bytes or boards: `malformed`,
    /// `truncated`, `not-a-deal` or `unwritable`; `None` for the other kinds.
    ///
    /// ```
    /// use dealdex::{Classify, formats};
    /// let pbn = formats::by_name("pbn").unwrap();
    /// let e = pbn.read_all(b"[Board \"1\"]\n[Deal \"N:AKQ\"]\n").unwrap_err();
    /// assert_eq!(e.format_kind(), Some("malformed"));
    /// ```
    fn format_kind(&self) -> Option<&'static str> {
        match self {
            ErrorKind::Malformed { .. } => Some("malformed"),
            ErrorKind::Truncated { .. } => Some("truncated"),
            ErrorKind::NotADeal { .. } => Some("not-a-deal"),
            ErrorKind::Unwritable { .. } => Some("unwritable"),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A format told by content names the file and the line looked at, in its message and
    /// its position; [`crate::detect`]'s own error only the line.
    #[test]
    fn a_format_choice_names_the_file_and_line() {
        let path = std::path::Path::new("run.txt");
        let e = crate::choose_by_content(path, b"\n\nhello world\n").unwrap_err();
        assert!(
            e.to_string().starts_with("run.txt: line 3: cannot tell"),
            "{e}"
        );
        let p = e.position().unwrap();
        assert_eq!((p.file.as_deref(), p.line), (Some(path), Some(3)));
        let e = crate::detect(b"\n\nhello world\n").unwrap_err();
        assert!(e.to_string().starts_with("line 3: cannot tell"), "{e}");
        assert_eq!(e.position(), Some(InputPosition::new().with_line(3)));
    }

    /// The refusals' kinds are named (Python's `format_kind`) and classed as bad input; a
    /// writer's destination is I/O.
    #[test]
    fn kinds_name_and_class() {
        let at = InputPosition::at_line(1);
        let named = [
            (Error::malformed(at.clone(), "m"), "malformed"),
            (Error::truncated(at.clone(), "t"), "truncated"),
            (Error::not_a_deal(at, "n"), "not-a-deal"),
            (Error::unwritable("u"), "unwritable"),
        ];
        for (e, name) in named {
            assert_eq!(
                (e.format_kind(), e.class()),
                (Some(name), ErrorClass::BadInput)
            );
        }
        let io = Error::from(std::io::Error::other("disk full"));
        assert_eq!((io.format_kind(), io.class()), (None, ErrorClass::Io));
        assert!(io.wrapped().is_some_and(|w| w.is::<std::io::Error>()));
        assert_eq!(io.to_string(), "disk full");
    }
}
