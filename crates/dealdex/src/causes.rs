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

/// True when `e` says that standard output's reader went away (a closed pipe: a command
/// piped into `head` has done nothing wrong): a `BrokenPipe` I/O error, or a
/// [`ErrorKind::Write`](crate::ErrorKind::Write) of standard output, in `e` or an error it
/// holds (as [`causes`] finds them). A file's write error is not, nor what it holds.
///
/// ```
/// use std::io;
/// let pipe = dealdex::Error::write(None, io::ErrorKind::BrokenPipe.into());
/// assert!(dealdex::closed_stdout(&pipe));
/// let file = dealdex::Error::write(Some("a.pbn".as_ref()), io::ErrorKind::BrokenPipe.into());
/// assert!(!dealdex::closed_stdout(&file));
/// ```
pub fn closed_stdout(e: &(dyn Error + 'static)) -> bool {
    let kind = (e.downcast_ref::<crate::Error>().map(crate::Error::kind))
        .or_else(|| e.downcast_ref::<crate::ErrorKind>());
    if let Some(crate::ErrorKind::Write { path, error }) = kind {
        return path.is_none() && error.kind() == std::io::ErrorKind::BrokenPipe;
    }
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        return io.kind() == std::io::ErrorKind::BrokenPipe;
    }
    let wrapped = crate::as_classify(e).and_then(|c| c.wrapped());
    e.source().into_iter().chain(wrapped).any(closed_stdout)
}
