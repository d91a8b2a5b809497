//! The crate's one error type, in rust-csv's style: an [`Error`] holds an [`ErrorKind`]
//! ([`Error::kind`]), and its class follows from its kind. No kind is about a place in a text,
//! so no error has a position.

crate::classified! {
    /// Why a layout option was refused (boards per page, paper, ten style), or the PDF could not
    /// be made.
    ///
    /// ```
    /// use dealdex::records::{ErrorKind, Paper};
    /// let e = "a3".parse::<Paper>().unwrap_err();
    /// assert_eq!(e.to_string(), r#"paper "a3": expected a4 or letter"#);
    /// assert!(matches!(e.kind(), ErrorKind::Paper { .. }));
    /// ```
    #[derive(Clone, PartialEq, Eq)]
    pub struct Error(Box<ErrorKind>)
}

impl Error {
    /// A layout option's value refused: `found` as the text given, in the kind `kind` makes
    /// of it ([`ErrorKind::PerPage`], [`ErrorKind::Paper`], [`ErrorKind::TenStyle`]).
    pub(crate) fn refused(kind: fn(String) -> ErrorKind, found: &str) -> Error {
        kind(found.to_owned()).into()
    }
}

/// The kinds of [`Error`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A boards-per-page value other than 1, 2, 4 or 6 ([`PerPage`](crate::PerPage)'s
    /// `FromStr`).
    #[error("boards per page {found:?}: expected 1, 2, 4 or 6")]
    PerPage {
        /// The value given.
        found: String,
    },
    /// A paper name other than `a4` or `letter` ([`Paper`](crate::Paper)'s `FromStr`).
    #[error("paper {found:?}: expected a4 or letter")]
    Paper {
        /// The value given.
        found: String,
    },
    /// A ten style other than `10` or `T` ([`TenStyle`](crate::TenStyle)'s `FromStr`).
    #[error("ten style {found:?}: expected 10 or T")]
    TenStyle {
        /// The value given.
        found: String,
    },
    /// An embedded font could not be parsed.
    #[error("embedded font {font} could not be parsed")]
    FontParse {
        /// The font's file name.
        font: &'static str,
    },
    /// An embedded font could not be cut down to the characters the sheet uses.
    #[error("embedded font {font} could not be subset: {message}")]
    FontSubset {
        /// The font's file name.
        font: &'static str,
        /// What the subsetter said.
        message: String,
    },
    /// The PDF writer reported an error while writing the document.
    #[error("PDF writer: {message}")]
    PdfWrite {
        /// What the writer said.
        message: String,
    },
}

// Class: bad input for a layout option (the value is the caller's); internal for the PDF's
// kinds (the fonts and the sheet are dealdex's own).
crate::classified!(ErrorKind => class {
    ErrorKind::PerPage { .. } | ErrorKind::Paper { .. } | ErrorKind::TenStyle { .. } => BadInput,
    ErrorKind::FontParse { .. }
    | ErrorKind::FontSubset { .. }
    | ErrorKind::PdfWrite { .. } => Internal,
});
