//! The deal pipeline: every command that reads or writes deals runs source → step → sink.
//! A [`DealSource`] says where the boards come from (a deal file or standard input with its
//! format, a stored set, the whole store) and hands them over a bounded piece at a time; a
//! step (convert, statistics, a dealer script, a sheet) works on each piece; a [`DealSink`]
//! takes them: deal files and standard output ([`FileSink`], opened from [`DealFiles`]),
//! a stored set ([`SetSink`]), the boards themselves in memory (`Vec<Board>`). [`drain`] is
//! the loop from one to the other.
//!
//! ```
//! use dealdex::formats::{self, WriteOptions};
//! use dealdex::workflow::output::Output;
//! use dealdex::workflow::pipeline::{self, DealFiles, DealSink, DealSource, SourceOptions};
//! let dir = tempfile::tempdir()?;
//! let input = dir.path().join("one.txt");
//! std::fs::write(&input, "0EDCCBA0976F2DA4945D8E9DC0\n")?; // told from its content: hex
//! let source = DealSource::file(&input).open(None, &SourceOptions::default())?;
//! let pbn = Output { path: Some(dir.path().join("one.pbn")), format: formats::by_name("pbn").unwrap() };
//! let mut stdout = std::io::sink();
//! let mut sink = DealFiles::new(vec![pbn], WriteOptions::default()).open(&mut stdout)?;
//! pipeline::drain(source, &mut sink, |_| Ok::<(), dealdex::Error>(()))?;
//! let written = sink.finish()?;
//! assert_eq!(written.files[0].boards, 1);
//! assert!(std::fs::read_to_string(dir.path().join("one.pbn"))?.contains("[Deal \"N:"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod set_sink;
mod sink;
mod source;

pub use set_sink::SetSink;
pub use sink::{
    DealFiles, FileSink, PieceRenderer, PreparedFiles, RenderedPiece, Written, commit_all,
};
pub use source::{
    DealSource, DealStream, FileSource, FoundDeals, OpenSource, ReadAs, ReadNotes, ReadOptions,
    STDIN, STORED_PIECE, ScriptSource, SourceFacts, SourceOptions, SourceRead, StreamFilter,
    StreamSource,
};

use crate::Error;
use crate::formats::Board;

/// Where boards go, a piece at a time and in order: deal files and standard output
/// ([`FileSink`]), a stored set ([`SetSink`]), memory (`Vec<Board>`). Each sink owns how it
/// makes its writes safe (staged files, a transaction): nothing is put in place before
/// [`DealSink::finish`], and a sink dropped unfinished leaves no trace (standard output,
/// written as it comes, excepted).
pub trait DealSink {
    /// What the sink reports when finished (the files written, the set stored, the boards).
    type Written;
    /// Why it failed: [`Error`] for files and the store,
    /// [`Infallible`](std::convert::Infallible) in memory.
    type Error;

    /// Takes the next piece of boards.
    ///
    /// # Errors
    /// A format refusing a board, a file or the store failing.
    fn write(&mut self, boards: Vec<Board>) -> Result<(), Self::Error>;

    /// Puts everything written in place, all or nothing.
    ///
    /// # Errors
    /// A format that cannot hold the whole set, a file or the store failing (nothing put
    /// in place).
    fn finish(self) -> Result<Self::Written, Self::Error>;
}

/// Boards kept in memory, in order: for a caller that wants the boards themselves.
impl DealSink for Vec<Board> {
    type Written = Vec<Board>;
    type Error = std::convert::Infallible;

    fn write(&mut self, boards: Vec<Board>) -> Result<(), Self::Error> {
        self.extend(boards);
        Ok(())
    }

    fn finish(self) -> Result<Vec<Board>, Self::Error> {
        Ok(self)
    }
}

/// The loop from a source to a sink: every piece of `source` is shown to `inspect` (which
/// may refuse it) and then written to `sink`, until the source ends. The sink is not
/// finished: its caller does that, after what else it must do first.
///
/// # Errors
/// The source's error or the sink's, as `E` (e.g. [`Error`]); `inspect`'s error as
/// it is.
pub fn drain<R, S, E>(
    source: OpenSource<R>,
    sink: &mut S,
    mut inspect: impl FnMut(&[Board]) -> Result<(), E>,
) -> Result<SourceRead, E>
where
    R: std::ops::Deref<Target = crate::StoreReader>,
    S: DealSink + ?Sized,
    E: From<Error> + From<S::Error>,
{
    source.read(&mut |boards| -> Result<bool, E> {
        inspect(&boards)?;
        sink.write(boards)?;
        Ok(true)
    })
}
