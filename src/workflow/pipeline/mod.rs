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
//! let mut sink = DealSink::new(vec![pbn], WriteOptions::default()).open()?;
//! #[derive(Debug, thiserror::Error)]
//! enum Failed { #[error(transparent)] Source(#[from] SourceError), #[error(transparent)] Sink(#[from] SinkError) }
//! source.read(&mut |boards| -> Result<bool, Failed> { sink.write(boards)?; Ok(true) })?;
//! let written = sink.finish(&mut std::io::sink())?;
//! assert_eq!(written.files[0].boards, 1);
//! assert!(std::fs::read_to_string(dir.path().join("one.pbn"))?.contains("[Deal \"N:"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod sink;
mod source;

pub use sink::{DealSink, OpenSink, SinkError, Written};
pub use source::{
    DealSource, FileSource, OpenSource, STDIN, STORED_PIECE, SourceError, SourceFacts,
    SourceOptions, SourceRead,
};
