//! A report as a command shows it: one JSON line, or its text (`Display`) as the answer or as
//! a summary beside the data the command writes ([`render`]).

use std::fmt::Display;
use std::io::Write;

use serde::Serialize;

use crate::Error;

/// Where a report's text goes ([`render`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Text {
    /// With the command's output: the report is its answer (`lookup`, `records`, `card`,
    /// `solve --verify`).
    Answer,
    /// Beside the output (a terminal's standard error): a summary of the data the command
    /// writes to its output (`import`, `generate`, `solve`, `event`).
    Summary,
}

/// Renders `report`: one JSON line on `out` when `json`, else its text (`Display`) on `out`
/// ([`Text::Answer`], ending in a newline unless empty) or as a line on `summary`
/// ([`Text::Summary`]), nothing when `quiet`. `out` is flushed.
///
/// ```
/// use dealdex::workflow::report::{Text, render};
/// let (mut out, mut summary) = (Vec::new(), Vec::new());
/// render(&mut out, &mut summary, &serde_json::json!({"boards": "32"}), true, false, Text::Summary)?;
/// assert_eq!((&out[..], &summary[..]), (&b"{\"boards\":\"32\"}\n"[..], &b""[..]));
/// render(&mut out, &mut summary, &"32 boards", false, false, Text::Summary)?;
/// assert_eq!(summary, b"32 boards\n");
/// # Ok::<(), dealdex::Error>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Write`](crate::ErrorKind::Write) (no path: standard output) when `out` or
/// `summary` fails, as a closed pipe does.
pub fn render<R: Serialize + Display + ?Sized>(
    out: &mut dyn Write,
    summary: &mut dyn Write,
    report: &R,
    json: bool,
    quiet: bool,
    text: Text,
) -> Result<(), Error> {
    let written = match (json, quiet, text) {
        (true, _, _) => serde_json::to_writer(&mut *out, report)
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n")),
        (false, true, _) => Ok(()),
        (false, false, Text::Answer) => {
            let mut text = report.to_string();
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            out.write_all(text.as_bytes())
        }
        (false, false, Text::Summary) => writeln!(summary, "{report}"),
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| Error::write(None, e))
}
