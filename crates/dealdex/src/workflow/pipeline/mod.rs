//! The deal pipeline: every command that reads or writes deals runs source → step → sink.
//! A [`DealSource`] says where the boards come from (a deal file or standard input with its
//! format, a stored set, the whole store) and hands them over a bounded piece at a time; a
//! step (convert, statistics, a dealer script, a sheet) works on each piece; a [`DealSink`]
//! writes them (registry-format files, staged and renamed, or standard output).
//!
//! ```
//! use dealdex::formats::{self, WriteOptions};
//! use dealdex::workflow::output::Output;
//! use dealdex::workflow::pipeline::{DealSink, DealSource, SourceError, SinkError, SourceOptions};
//! let dir = tempfile::tempdir()?;
//! let input = dir.path().join("one.txt");
//! std::fs::write(&input, "0EDCCBA0976F2DA4945D8E9DC0\n")?; // told from its content: hex
//! let source = DealSource::file(&input).open(None, &SourceOptions::default())?;
//! let pbn = Output { path: Some(dir.path().join("one.pbn")), format: formats::by_name("pbn").unwrap() };
//! let mut stdout = std::io::sink();
//! let mut sink = DealSink::new(vec![pbn], WriteOptions::default()).open(&mut stdout)?;
//! #[derive(Debug, thiserror::Error)]
//! enum Failed { #[error(transparent)] Source(#[from] SourceError), #[error(transparent)] Sink(#[from] SinkError) }
//! source.read(&mut |boards| -> Result<bool, Failed> { sink.write(boards)?; Ok(true) })?;
//! let written = sink.finish()?;
//! assert_eq!(written.files[0].boards, 1);
//! assert!(std::fs::read_to_string(dir.path().join("one.pbn"))?.contains("[Deal \"N:"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod sink;
mod source;

pub use sink::{DealSink, OpenSink, PieceRenderer, RenderedPiece, SinkError, Written};
pub use source::{
    DealSource, DealStream, FileSource, OpenSource, STDIN, STORED_PIECE, SourceError, SourceFacts,
    SourceOptions, SourceRead, StreamFilter, StreamSource, open_deal_file,
};

/// Why a run from a source straight into a sink (`convert`, `export`) failed. Nothing is put in
/// place unless every output is written.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The source could not be read: a file that cannot be read or told, its format refusing
    /// it, no boards, no such set, the store failing.
    #[error(transparent)]
    Read(#[from] SourceError),
    /// An output format cannot hold the boards, or an output could not be written.
    #[error(transparent)]
    Write(#[from] SinkError),
}

// The source's or the sink's error.
crate::classified!(PipelineError => wraps Read, Write);
