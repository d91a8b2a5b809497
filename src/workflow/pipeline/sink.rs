//! Where a command's deals go: a [`DealSink`] is a list of outputs (each a file or standard
//! output with its registry format, [`Output`]) written so that a failed write loses
//! nothing. Opened ([`DealSink::open`]), it takes boards a piece at a time
//! ([`OpenSink::write`]) and puts every file in place at the end ([`OpenSink::finish`]).
//!
//! Outputs that are all files of streaming formats, not split, are written as the pieces
//! come, into temporary files renamed onto their targets only when everything is written
//! (memory: a piece). Other outputs (standard output, a format that needs the whole set in
//! one call, a set cut for a machine's board limit) keep the boards and render them at the
//! end, when the whole set's first and last boards are known ([`render_set`],
//! [`write_rendered`]); nothing is written unless every output rendered.
//!
//! ```
//! use dealdex::formats::{self, Board, WriteOptions};
//! use dealdex::workflow::output::Output;
//! use dealdex::workflow::pipeline::DealSink;
//! let deal = dealdex::parse_deal("N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432")?;
//! let hex = Output { path: None, format: formats::by_name("hex").unwrap() };
//! let mut sink = DealSink::new(vec![hex], WriteOptions::default()).open()?;
//! sink.write(vec![Board::new(1, deal)])?;
//! let mut stdout = Vec::new();
//! let written = sink.finish(&mut stdout)?;
//! assert_eq!(written.files[0].boards, 1);
//! assert_eq!(String::from_utf8(stdout)?, "AAAAA6A5FFFFF3F00404050555-1\n"); // the index, board 1
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;

use crate::Classify;
use serde::Serialize;

use crate::formats::{Board, WriteOptions};
use crate::workflow::output::{
    ExportedFile, Output, RenderError, StagedFile, WriteError, render_set, write_rendered,
};

/// Deal files to write: the outputs, the options they are written with, and how.
#[derive(Clone)]
pub struct DealSink {
    /// The outputs, each a file or standard output with its format.
    pub outputs: Vec<Output>,
    /// Event, blind, scheme; the first and last boards of the set (see `bounds_given`).
    pub options: WriteOptions,
    /// True when `options` gives the set's first and last boards (a stored set's range);
    /// false: they are those of the boards written, known at the end.
    pub bounds_given: bool,
    /// Cut outputs for formats with a board limit into files of 96 boards ([`render_set`]).
    pub split: bool,
}

impl DealSink {
    /// A sink writing `outputs` with `options`, the set's bounds those of the boards
    /// written, not split.
    pub fn new(outputs: Vec<Output>, options: WriteOptions) -> DealSink {
        DealSink {
            outputs,
            options,
            bounds_given: false,
            split: false,
        }
    }

    /// True when the sink writes each piece as it comes (every output a file of a
    /// streaming format without a board limit, not split): its memory is a piece's. A format
    /// with a limit (DUP: boards 1..99) writes the whole set's size in its records (DUP's
    /// trailer, FORMATS.md §5), known only at the end; such a set is small and is rendered
    /// whole.
    pub fn streams(&self) -> bool {
        !self.split
            && self.outputs.iter().all(|o| {
                let info = o.format.info();
                o.path.is_some() && info.streaming && info.max_board.is_none()
            })
    }

    /// Opens the sink: a streaming sink creates its temporary files and writes each
    /// format's header; another keeps the boards for the end.
    ///
    /// # Errors
    /// [`SinkError::Write`] for a file that cannot be created, [`SinkError::Render`] for a
    /// header the format refuses.
    pub fn open(self) -> Result<OpenSink, SinkError> {
        if !self.streams() {
            return Ok(OpenSink {
                sink: self,
                state: State::Whole(Vec::new()),
                numbering: Numbering::default(),
            });
        }
        let mut files = Vec::with_capacity(self.outputs.len());
        let mut buf = Vec::new();
        for output in &self.outputs {
            let path = output
                .path
                .as_deref()
                .expect("a streaming sink writes files");
            let mut file = StagedFile::create(path)?;
            buf.clear();
            output
                .format
                .write_header(&self.options, &mut buf)
                .map_err(|e| render(output, e))?;
            file.write_all(&buf)
                .map_err(|e| WriteError::of(Some(path), e))?;
            files.push(Streamed {
                file,
                bytes: buf.len() as u64,
            });
        }
        Ok(OpenSink {
            sink: self,
            state: State::Streamed {
                files,
                buf,
                boards: 0,
            },
            numbering: Numbering::default(),
        })
    }
}

/// The error of `output`'s format refusing the boards.
fn render(output: &Output, error: crate::formats::FormatError) -> RenderError {
    RenderError {
        output: output.label(),
        error,
        over_limit: false,
    }
}

/// A streamed output's temporary file and the bytes written to it.
struct Streamed {
    file: StagedFile,
    bytes: u64,
}

enum State {
    /// Every output a streaming file: written piece by piece.
    Streamed {
        files: Vec<Streamed>,
        buf: Vec<u8>,
        boards: u64,
    },
    /// The boards kept until the end.
    Whole(Vec<Board>),
}

/// An open [`DealSink`]: boards in, files out at [`OpenSink::finish`]. Dropped unfinished,
/// it removes its temporary files: no output is touched.
pub struct OpenSink {
    sink: DealSink,
    state: State,
    numbering: Numbering,
}

impl OpenSink {
    /// Writes a piece of boards (a streaming sink to every file at once; another keeps them).
    ///
    /// # Errors
    /// [`SinkError::Render`] when a format refuses a board, [`SinkError::Write`] when a file
    /// cannot be written.
    pub fn write(&mut self, boards: Vec<Board>) -> Result<(), SinkError> {
        self.numbering.add(&boards);
        match &mut self.state {
            State::Whole(kept) => kept.extend(boards),
            State::Streamed {
                files,
                buf,
                boards: count,
            } => {
                for (o, f) in self.sink.outputs.iter().zip(files.iter_mut()) {
                    buf.clear();
                    o.format
                        .write_boards(&boards, &self.sink.options, buf)
                        .map_err(|e| render(o, e))?;
                    f.file
                        .write_all(buf)
                        .map_err(|e| WriteError::of(Some(f.file.path()), e))?;
                    f.bytes += buf.len() as u64;
                }
                *count += boards.len() as u64;
            }
        }
        Ok(())
    }

    /// Finishes every output: a streaming sink writes the footers and puts the files in
    /// place; another renders every output with the whole set's bounds (the boards' first and
    /// last numbers unless given), then writes them all or none, standard-output files to
    /// `stdout`.
    ///
    /// # Errors
    /// [`SinkError::Render`] when a format cannot hold the set (nothing written),
    /// [`SinkError::Write`] when a file cannot be written.
    pub fn finish(self, stdout: &mut dyn Write) -> Result<Written, SinkError> {
        let OpenSink {
            sink,
            state,
            numbering,
        } = self;
        let warnings = numbering_warnings(&sink.outputs, &numbering);
        let files = match state {
            State::Whole(boards) => {
                let mut options = sink.options.clone();
                if !sink.bounds_given {
                    options.first_board = boards.first().and_then(|b| b.number).unwrap_or(1);
                    options.last_board = boards.last().and_then(|b| b.number).unwrap_or(1);
                }
                let files = render_set(&sink.outputs, &boards, &options, sink.split)?;
                write_rendered(&files, stdout)?;
                files.iter().map(ExportedFile::from).collect()
            }
            State::Streamed {
                mut files,
                mut buf,
                boards,
            } => {
                let mut written = Vec::with_capacity(files.len());
                for (o, f) in sink.outputs.iter().zip(files.iter_mut()) {
                    buf.clear();
                    o.format
                        .write_footer(&sink.options, &mut buf)
                        .map_err(|e| render(o, e))?;
                    f.file
                        .write_all(&buf)
                        .map_err(|e| WriteError::of(Some(f.file.path()), e))?;
                    written.push(ExportedFile {
                        path: Some(f.file.path().to_owned()),
                        format: o.format.info().name,
                        boards,
                        bytes: f.bytes + buf.len() as u64,
                    });
                }
                // Every output complete: put them in place.
                for f in files {
                    f.file.commit()?;
                }
                written
            }
        };
        Ok(Written { files, warnings })
    }
}

/// What a sink wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Written {
    /// The files written, in order (standard output with `path` null).
    pub files: Vec<ExportedFile>,
    /// What an output cannot keep, each naming the output: the board numbers of a set that
    /// is not boards 1..n, written to a format without board numbers (hex, oneline, DUP, …;
    /// [`crate::formats::FormatInfo::board_numbers`]), which reads back as boards 1, 2, …
    /// unless read with `--first-board` ([`numbering_warnings`]).
    pub warnings: Vec<String>,
}

/// The board numbers of the boards written, as far as [`numbering_warnings`] needs them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Numbering {
    /// The first board's number and the last one's; `None` before any board.
    range: Option<(u64, u64)>,
    /// Every board numbered one more than the board before it.
    consecutive: bool,
}

impl Numbering {
    /// Adds `boards`, which follow the boards added before (a board without a number counts
    /// as not consecutive).
    fn add(&mut self, boards: &[Board]) {
        for b in boards {
            let number = b.number;
            self.range = match (self.range, number) {
                (None, Some(n)) => {
                    self.consecutive = true;
                    Some((n, n))
                }
                (None, None) => {
                    self.consecutive = false;
                    Some((1, 1))
                }
                (Some((first, last)), n) => {
                    let next = n.unwrap_or(0);
                    self.consecutive &= n.is_some() && last.checked_add(1) == Some(next);
                    Some((first, next.max(last)))
                }
            };
        }
    }
}

/// A warning for each output whose format carries no board numbers
/// ([`crate::formats::FormatInfo::board_numbers`] false: hex, oneline, DUP, BRI, …) when the
/// boards are not numbered 1, 2, … n: read back without `--first-board`, such a file's boards
/// are 1, 2, … with those boards' dealers and vulnerabilities. Each names the output, its
/// format and the first board, and says to give `--first-board` with it when reading the file
/// (which gives the numbers back when they were consecutive).
fn numbering_warnings(outputs: &[Output], numbering: &Numbering) -> Vec<String> {
    let Some((first, last)) = numbering.range else {
        return Vec::new();
    };
    if first == 1 && numbering.consecutive {
        return Vec::new();
    }
    let what = if numbering.consecutive {
        format!(
            "read it back with --first-board {first} (its first board is board {first}; \
             without the flag boards {first}–{last} read as 1–{})",
            last - first + 1
        )
    } else {
        format!(
            "its first board is board {first} and the boards are not numbered one after \
             another, so their numbers are lost: read back with --first-board {first} they \
             are {first}, {}, …",
            first.saturating_add(1)
        )
    };
    outputs
        .iter()
        .filter(|o| !o.format.info().board_numbers)
        .map(|o| {
            format!(
                "{}: {} files carry no board numbers: {what}",
                o.label(),
                o.format.info().name
            )
        })
        .collect()
}

/// Why a sink could not write. Nothing is put in place unless every output is written.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// An output format cannot hold the boards.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// An output could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
}

crate::classified!(SinkError);

impl Classify for SinkError {
    /// A format that cannot hold the boards is bad input; a failed write is I/O.
    fn class(&self) -> crate::ErrorClass {
        match self {
            SinkError::Render(e) => e.class(),
            SinkError::Write(e) => e.class(),
        }
    }

    /// The render or write error the message shows.
    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SinkError::Render(e) => Some(e),
            SinkError::Write(e) => Some(e),
        }
    }
}
