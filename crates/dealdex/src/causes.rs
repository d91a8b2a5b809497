//! An error and the errors it holds, for callers that look for a particular one (the CLI's
//! flags for an error, Python's keywords): [`causes`].

use std::error::Error;

/// `e` and every error it holds, depth first: its sources, and the error
/// [`Classify::wrapped`](crate::Classify::wrapped) shows (an error a message shows without
/// giving it as its source: the store's, a format's, an I/O error inside a
/// [`crate::Error`]).
///
/// ```
/// use dealdex::{ErrorKind, FormatError, FormatErrorKind};
/// let unknown = FormatError::from(FormatErrorKind::UnknownExtension { path: "x.zzz".into() });
/// let e = dealdex::Error::from(ErrorKind::OutputFormat(unknown));
/// // A transparent kind: the message is the inner error's, and it is no source.
/// assert!(e.to_string().starts_with("x.zzz: cannot tell the format"));
/// assert!(std::error::Error::source(&e).is_none());
/// assert!(dealdex::causes(&e).iter().any(|c| c.is::<FormatError>()));
/// ```
pub fn causes<'a>(e: &'a (dyn Error + 'static)) -> Vec<&'a (dyn Error + 'static)> {
    let mut out = Vec::new();
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        out.push(x);
        todo.extend(x.source());
        todo.extend(crate::as_classify(x).and_then(crate::Classify::wrapped));
    }
    out
}
