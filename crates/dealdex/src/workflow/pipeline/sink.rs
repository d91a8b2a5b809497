//! Deal files as a sink: [`DealFiles`] is a list of outputs (each a file or standard output
//! with its registry format, [`Output`]) written so that a failed write loses nothing.
//! Opened ([`DealFiles::open`]), it is a [`FileSink`], a [`DealSink`] that takes boards a
//! piece at a time and puts every file in place at the end ([`DealSink::finish`]).
//!
//! Each output is written the cheapest way its format allows:
//! - a streaming format without a board limit gets each piece as it comes: a file through
//!   a temporary file beside it, renamed onto the target only when everything is written;
//!   standard output directly;
//! - a file of a format with a stateful writer (Parquet's row groups,
//!   [`DealFormat::open_writer`](crate::formats::DealFormat::open_writer)) likewise;
//! - the rest (a format written in one call, a format with a board limit whose records
//!   carry the set's size, a set cut with `split`) keeps the boards and renders them at the
//!   end, when the whole set's first and last boards are known ([`render_set`]).
//!
//! Memory is a piece's unless an output of the last kind needs the whole set. Nothing is
//! put in place unless every output is written (standard output, written as it comes, is
//! the exception). Pieces can be rendered on other threads first ([`FileSink::renderer`],
//! [`FileSink::write_rendered`]): a parallel source formats its pieces where it makes them.
//!
//! ```
//! use dealdex::formats::{self, Board, WriteOptions};
//! use dealdex::workflow::output::Output;
//! use dealdex::workflow::pipeline::{DealFiles, DealSink};
//! let deal = dealdex::parse_deal("N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432")?;
//! let hex = Output { path: None, format: formats::by_name("hex").unwrap() };
//! let mut stdout = Vec::new();
//! let mut sink = DealFiles::new(vec![hex], WriteOptions::default()).open(&mut stdout)?;
//! sink.write(vec![Board::new(1, deal)])?;
//! let written = sink.finish()?;
//! assert_eq!(written.files[0].boards, 1);
//! assert_eq!(String::from_utf8(stdout)?, "AAAAA6A5FFFFF3F00404050555-1\n"); // the index, board 1
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{BufWriter, Write};

use serde::Serialize;

use super::DealSink;
use crate::formats::{Board, BoardWriter, DealFormat, WriteOptions};
use crate::workflow::output::{
    ExportedFile, Output, RenderedFile, Staged, StagedFile, render_set, stage_file, write_rendered,
};
use crate::{Error, ErrorKind};
use crate::{FormatError, FormatErrorKind};

/// Bytes buffered before a stateful writer's output reaches its file.
const WRITER_BUFFER: usize = 1 << 20;

/// Deal files to write: the outputs, the options they are written with, and how.
#[derive(Clone)]
pub struct DealFiles {
    /// The outputs, each a file or standard output with its format.
    pub outputs: Vec<Output>,
    /// Event, blind, scheme; the first and last boards of the set (see `bounds_given`).
    pub options: WriteOptions,
    /// True when `options` gives the set's first and last boards (a stored set's range, a
    /// generated run's); false: the outputs rendered at the end take those of the boards
    /// written.
    pub bounds_given: bool,
    /// Cut outputs for formats with a board limit into files of 96 boards ([`render_set`]).
    pub split: bool,
    /// Keep every board and render every output at the end: nothing reaches a file or
    /// standard output before [`FileSink::prepare`] (a set made in memory, whose files must
    /// wait for the store).
    pub whole: bool,
}

/// How one output is written ([`DealFiles`]'s module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    /// Each piece's bytes as they come.
    Bytes,
    /// Through the format's stateful writer on a file.
    Writer,
    /// Rendered at the end from the boards kept.
    Whole,
}

impl DealFiles {
    /// A sink writing `outputs` with `options`, the set's bounds those of the boards
    /// written, not split.
    pub fn new(outputs: Vec<Output>, options: WriteOptions) -> DealFiles {
        DealFiles {
            outputs,
            options,
            bounds_given: false,
            split: false,
            whole: false,
        }
    }

    /// How `o` is written. A format with a limit (DUP: boards 1..99) writes the whole set's
    /// size in its records (DUP's trailer, FORMATS.md §5), known only at the end; such a set
    /// is small and is rendered whole.
    fn way(&self, o: &Output) -> Way {
        let info = o.format.info();
        let file = o.path.as_deref().is_some_and(|p| p.as_os_str() != "-");
        if self.whole || (self.split && info.max_board.is_some()) {
            Way::Whole
        } else if info.streaming && info.max_board.is_none() {
            Way::Bytes
        } else if file && has_writer(o.format) {
            Way::Writer
        } else {
            Way::Whole
        }
    }

    /// True when the sink writes each piece as it comes (no output needs the whole set): its
    /// memory is a piece's.
    pub fn streams(&self) -> bool {
        self.whole_outputs().next().is_none()
    }

    /// The outputs that keep the boards and are rendered at the end (a format written in one
    /// call, a format with a board limit, an output cut with `split`).
    pub fn whole_outputs(&self) -> impl Iterator<Item = &Output> {
        self.outputs.iter().filter(|o| self.way(o) == Way::Whole)
    }

    /// Opens the sink: creates the temporary files of the outputs written as they come and
    /// writes their formats' headers (standard-output files to `stdout`, which the sink
    /// keeps until [`FileSink::finish`]).
    ///
    /// # Errors
    /// [`ErrorKind::Write`] for a file that cannot be created, [`ErrorKind::Render`] for a
    /// header the format refuses.
    pub fn open(self, stdout: &mut dyn Write) -> Result<FileSink<'_>, Error> {
        let mut outs = Vec::with_capacity(self.outputs.len());
        let mut buf = Vec::new();
        for o in &self.outputs {
            let file = o.path.as_deref().filter(|p| p.as_os_str() != "-");
            outs.push(match self.way(o) {
                Way::Whole => Out::Whole,
                Way::Bytes => {
                    let mut dest = match file {
                        Some(p) => Dest::File(StagedFile::create(p)?),
                        None => Dest::Stdout,
                    };
                    buf.clear();
                    o.format
                        .write_header(&self.options, &mut buf)
                        .map_err(|e| render(o, e))?;
                    dest.write(&buf, stdout)?;
                    Out::Bytes {
                        dest,
                        bytes: buf.len() as u64,
                    }
                }
                Way::Writer => {
                    let path = file.expect("a stateful writer writes a file");
                    let (staged, f) = stage_file(path)?;
                    let out = Box::new(BufWriter::with_capacity(WRITER_BUFFER, f));
                    let writer = o
                        .format
                        .open_writer(out, &self.options)
                        .expect("the format has a stateful writer")
                        .map_err(|e| board_write_error(o, e))?;
                    Out::Writer { writer, staged }
                }
            });
        }
        let next = self.options.first_board;
        Ok(FileSink {
            renderer: PieceRenderer {
                outputs: self.outputs.iter().map(|o| (o.format, o.label())).collect(),
                options: self.options.clone(),
                bytes: outs
                    .iter()
                    .map(|o| matches!(o, Out::Bytes { .. }))
                    .collect(),
                keep_boards: outs.iter().any(|o| !matches!(o, Out::Bytes { .. })),
            },
            sink: self,
            outs,
            kept: Vec::new(),
            boards: 0,
            next,
            numbering: Numbering::default(),
            stdout,
        })
    }
}

/// True when `format` writes through a stateful writer ([`DealFormat::open_writer`]).
fn has_writer(format: &dyn DealFormat) -> bool {
    format
        .open_writer(Box::new(std::io::sink()), &WriteOptions::default())
        .is_some()
}

/// The error of `output`'s format refusing the boards.
fn render(output: &Output, error: FormatError) -> Error {
    ErrorKind::Render {
        output: output.label(),
        error,
        over_limit: false,
    }
    .into()
}

/// A stateful writer's error, naming the output.
fn board_write_error(o: &Output, e: FormatError) -> Error {
    match e.into_kind() {
        FormatErrorKind::Io(error) => Error::write(o.path.as_deref(), error),
        kind => render(o, kind.into()),
    }
}

/// Where an output's bytes go as they come.
enum Dest {
    /// A file, through a temporary file beside it.
    File(StagedFile),
    /// The caller's standard output.
    Stdout,
}

impl Dest {
    /// Writes `bytes`; the error names the file.
    fn write(&mut self, bytes: &[u8], stdout: &mut dyn Write) -> Result<(), Error> {
        match self {
            Dest::File(f) => f
                .write_all(bytes)
                .map_err(|e| Error::write(Some(f.path()), e)),
            Dest::Stdout => stdout.write_all(bytes).map_err(|e| Error::write(None, e)),
        }
    }
}

/// An open output.
enum Out {
    /// Written a piece at a time: its destination and the bytes written so far.
    Bytes { dest: Dest, bytes: u64 },
    /// A stateful writer and its file's guard.
    Writer {
        writer: Box<dyn BoardWriter>,
        staged: Staged,
    },
    /// Rendered at the end.
    Whole,
}

/// Renders pieces of boards for a sink's outputs written as they come, on any thread
/// ([`FileSink::renderer`]); [`FileSink::write_rendered`] then writes them in order.
#[derive(Clone)]
pub struct PieceRenderer {
    /// Every output's format and label, in the sink's order.
    outputs: Vec<(&'static dyn DealFormat, String)>,
    options: WriteOptions,
    /// Which outputs take bytes.
    bytes: Vec<bool>,
    /// True when some output needs the boards themselves.
    keep_boards: bool,
}

/// A piece rendered by a [`PieceRenderer`]: its bytes for each output written as it comes,
/// and the boards when another output needs them.
#[derive(Debug, Default)]
pub struct RenderedPiece {
    /// Boards in the piece.
    pub len: usize,
    /// Bytes per output (empty for the outputs that take boards).
    bytes: Vec<Vec<u8>>,
    /// The boards, when an output takes boards.
    boards: Vec<Board>,
    /// The piece's board numbers.
    numbering: Numbering,
}

impl PieceRenderer {
    /// Renders `boards`, which are numbered (a piece of a [`DealSource`](super::DealSource)
    /// read with numbers, e.g. a generated run's).
    ///
    /// # Errors
    /// [`ErrorKind::Render`] when a format refuses a board.
    pub fn render(&self, boards: Vec<Board>) -> Result<RenderedPiece, Error> {
        let mut bytes = Vec::with_capacity(self.outputs.len());
        for ((format, label), &b) in self.outputs.iter().zip(&self.bytes) {
            let mut buf = Vec::new();
            if b {
                format
                    .write_boards(&boards, &self.options, &mut buf)
                    .map_err(|error| -> Error {
                        ErrorKind::Render {
                            output: label.clone(),
                            error,
                            over_limit: false,
                        }
                        .into()
                    })?;
            }
            bytes.push(buf);
        }
        let mut numbering = Numbering::default();
        numbering.add(&boards);
        Ok(RenderedPiece {
            len: boards.len(),
            numbering,
            bytes,
            boards: if self.keep_boards { boards } else { Vec::new() },
        })
    }
}

/// An open [`DealFiles`]: boards in, files out at [`FileSink::finish`]. Dropped unfinished,
/// it removes its temporary files: no output file is touched.
pub struct FileSink<'o> {
    sink: DealFiles,
    outs: Vec<Out>,
    renderer: PieceRenderer,
    /// The boards kept for the outputs rendered at the end.
    kept: Vec<Board>,
    /// Boards written.
    boards: u64,
    /// The number an unnumbered board gets: one more than the board before it.
    next: u64,
    numbering: Numbering,
    stdout: &'o mut dyn Write,
}

impl FileSink<'_> {
    /// A renderer of this sink's pieces, to render them on other threads
    /// ([`PieceRenderer::render`]) before [`FileSink::write_rendered`].
    pub fn renderer(&self) -> PieceRenderer {
        self.renderer.clone()
    }

    /// Writes a piece rendered by [`FileSink::renderer`], in the order of the boards.
    ///
    /// # Errors
    /// [`ErrorKind::Render`] when a stateful writer refuses a board, [`ErrorKind::Write`]
    /// when a file cannot be written.
    pub fn write_rendered(&mut self, piece: RenderedPiece) -> Result<(), Error> {
        self.numbering.append(&piece.numbering);
        if let Some((_, last)) = piece.numbering.range {
            self.next = last.saturating_add(1);
        }
        let mut whole = false;
        for ((o, out), bytes) in self
            .sink
            .outputs
            .iter()
            .zip(&mut self.outs)
            .zip(&piece.bytes)
        {
            match out {
                Out::Bytes { dest, bytes: n } => {
                    dest.write(bytes, &mut *self.stdout)?;
                    *n += bytes.len() as u64;
                }
                Out::Writer { writer, .. } => writer
                    .write_boards(&piece.boards)
                    .map_err(|e| board_write_error(o, e))?,
                Out::Whole => whole = true,
            }
        }
        self.boards += piece.len as u64;
        if whole {
            self.kept.extend(piece.boards);
        }
        Ok(())
    }
}

impl DealSink for FileSink<'_> {
    type Written = Written;
    type Error = Error;

    /// Writes a piece of boards (numbering those without a number on from the board before
    /// them, the first from the options' first board).
    ///
    /// # Errors
    /// [`ErrorKind::Render`] when a format refuses a board, [`ErrorKind::Write`] when a file
    /// cannot be written.
    fn write(&mut self, mut boards: Vec<Board>) -> Result<(), Error> {
        crate::formats::number_boards(&mut boards, self.next);
        let piece = self.renderer.render(boards)?;
        self.write_rendered(piece)
    }

    /// Finishes every output ([`FileSink::prepare`]) and puts every file in place
    /// ([`PreparedFiles::commit`]), all or none.
    ///
    /// # Errors
    /// [`ErrorKind::Render`] when a format cannot hold the set (no file written),
    /// [`ErrorKind::Write`] when a file cannot be written.
    fn finish(self) -> Result<Written, Error> {
        self.prepare()?.commit()
    }
}

impl<'o> FileSink<'o> {
    /// Finishes every output but puts none in place: renders those that need the whole set,
    /// with its bounds (the boards' first and last numbers unless given), writes the
    /// footers. What can still fail after this is the files' writing and renaming: a caller
    /// with its own all-or-nothing step (storing the set) runs it between the two.
    ///
    /// # Errors
    /// [`ErrorKind::Render`] when a format cannot hold the set, [`ErrorKind::Write`] when a
    /// streamed file cannot be written; no output file is touched.
    pub fn prepare(self) -> Result<PreparedFiles<'o>, Error> {
        let FileSink {
            sink,
            outs,
            kept,
            boards,
            numbering,
            stdout,
            ..
        } = self;
        let warnings = numbering_warnings(&sink.outputs, &numbering);
        let mut options = sink.options.clone();
        if let Some((first, last)) = numbering.range.filter(|_| !sink.bounds_given) {
            (options.first_board, options.last_board) = (first, last);
        }
        // Everything rendered before anything is put in place.
        let mut whole = Vec::new();
        for (o, out) in sink.outputs.iter().zip(&outs) {
            if matches!(out, Out::Whole) {
                whole.push(render_set(
                    std::slice::from_ref(o),
                    &kept,
                    &options,
                    sink.split,
                )?);
            }
        }
        let mut whole = whole.into_iter();
        let mut files = Vec::with_capacity(sink.outputs.len());
        let (mut streamed, mut staged_writers) = (Vec::new(), Vec::new());
        let mut rendered = Vec::new();
        let mut buf = Vec::new();
        for (o, out) in sink.outputs.iter().zip(outs) {
            let (path, format) = (o.path.clone(), o.format.info().name);
            match out {
                Out::Bytes { mut dest, bytes } => {
                    buf.clear();
                    o.format
                        .write_footer(&sink.options, &mut buf)
                        .map_err(|e| render(o, e))?;
                    dest.write(&buf, &mut *stdout)?;
                    let bytes = bytes + buf.len() as u64;
                    files.push(ExportedFile {
                        path,
                        format,
                        boards,
                        bytes,
                    });
                    if let Dest::File(f) = dest {
                        streamed.push(f);
                    }
                }
                Out::Writer { writer, staged } => {
                    let bytes = writer.finish().map_err(|e| board_write_error(o, e))?;
                    files.push(ExportedFile {
                        path,
                        format,
                        boards,
                        bytes,
                    });
                    staged_writers.push(staged);
                }
                Out::Whole => {
                    let parts = whole.next().expect("rendered above");
                    files.extend(parts.iter().map(ExportedFile::from));
                    rendered.extend(parts);
                }
            }
        }
        Ok(PreparedFiles {
            rendered,
            streamed,
            staged_writers,
            written: Written { files, warnings },
            stdout,
        })
    }
}

/// A [`FileSink`] finished but not yet in place ([`FileSink::prepare`]). Dropped, it
/// removes its temporary files: no output file is touched.
pub struct PreparedFiles<'o> {
    /// The outputs rendered whole, written at [`PreparedFiles::commit`].
    rendered: Vec<RenderedFile>,
    /// The streamed outputs' temporary files.
    streamed: Vec<StagedFile>,
    /// The stateful writers' temporary files.
    staged_writers: Vec<Staged>,
    /// What will have been written.
    written: Written,
    stdout: &'o mut dyn Write,
}

impl PreparedFiles<'_> {
    /// Writes the whole-set files (each staged, all renamed once all are written) and the
    /// standard-output ones, then puts the streamed ones in place.
    ///
    /// # Errors
    /// [`ErrorKind::Write`] when a file cannot be written or renamed.
    pub fn commit(self) -> Result<Written, Error> {
        let PreparedFiles {
            rendered,
            streamed,
            staged_writers,
            written,
            stdout,
        } = self;
        // The whole-set files are written (each staged, all renamed once all are written),
        // then the streamed ones put in place.
        write_rendered(&rendered, &mut *stdout)?;
        for f in streamed {
            f.commit()?;
        }
        for staged in staged_writers {
            let path = staged.path().to_owned();
            staged.commit().map_err(|e| Error::write(Some(&path), e))?;
        }
        stdout.flush().map_err(|e| Error::write(None, e))?;
        Ok(written)
    }
}

/// Puts the files of several prepared sinks in place together ([`PreparedFiles::commit`] for
/// each, but the whole-set files of all of them staged first and renamed once all are
/// written: none is replaced unless every one could be written). A whole championship event's
/// sessions, each a sink with its own options, are written so.
///
/// # Errors
/// [`ErrorKind::Write`] when a file cannot be written or renamed.
pub fn commit_all(prepared: Vec<PreparedFiles<'_>>) -> Result<Vec<Written>, Error> {
    let (mut files, mut rest) = (Vec::new(), Vec::new());
    for mut p in prepared {
        let (to_files, to_stdout): (Vec<_>, Vec<_>) = std::mem::take(&mut p.rendered)
            .into_iter()
            .partition(|f| f.path.as_deref().is_some_and(|p| p.as_os_str() != "-"));
        files.extend(to_files);
        p.rendered = to_stdout;
        rest.push(p);
    }
    write_rendered(&files, &mut std::io::sink())?;
    rest.into_iter().map(PreparedFiles::commit).collect()
}

/// What a sink wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Written {
    /// The files written, in order (standard output with `path` null).
    pub files: Vec<ExportedFile>,
    /// What an output cannot keep, each naming the output: the board numbers of a set that
    /// is not boards 1..n, written to a format without board numbers (hex, oneline, DUP, …;
    /// [`crate::formats::FormatInfo::board_numbers`]), which reads back as boards 1, 2, …
    /// unless read with `--first-board` (`numbering_warnings`).
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

impl Numbering {
    /// Adds the numbers of a later piece.
    fn append(&mut self, later: &Numbering) {
        let Some((first, last)) = later.range else {
            return;
        };
        self.range = match self.range {
            None => {
                self.consecutive = later.consecutive;
                Some((first, last))
            }
            Some((f, l)) => {
                self.consecutive &= later.consecutive && l.checked_add(1) == Some(first);
                Some((f, l.max(last)))
            }
        };
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
            "read it back with the first board given as {first} (its first board is board {first}; \
             without it boards {first}–{last} read as 1–{})",
            last - first + 1
        )
    } else {
        format!(
            "its first board is board {first} and the boards are not numbered one after \
             another, so their numbers are lost: read back with the first board given as {first} they \
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
