//! Reading a deal file piece by piece, in memory bounded by a window rather than by the
//! file's size ([`read_stream`]).
//!
//! Formats whose records are lines ([`Chunking::Lines`]: hex, one-line, JSON lines, CSV,
//! deal lines) and PBN ([`Chunking::PbnGames`]: games cut where an empty line is followed by
//! a tag) and the solved-deal libraries ([`Chunking::Records`]: fixed-size records) are cut
//! into windows of about [`WINDOW_BYTES`] at a record boundary, each read as
//! the whole file would be, with line, byte and record positions counted from the file's
//! start and PBN's `#` values copied across the cut. The other formats are read whole
//! ([`Chunking::Whole`]: binary sets of a tournament, DLM, LIN, Parquet, …) and refused
//! beyond [`MAX_WHOLE_BYTES`].

use std::io::Read;

use super::{DealFormat, Error, FileBoards, InputPosition, ReadOptions};

/// Bytes read before a file is cut into a piece (4 MiB): the memory a streamed file needs,
/// besides the boards of a piece or two.
pub const WINDOW_BYTES: usize = 4 << 20;

/// A piece that its reader refuses is grown (doubling, up to this many bytes: 64 MiB) and
/// read again before the error is reported, for a record that continues past the cut (a PBN
/// `{` commentary holding an empty line).
pub const MAX_PIECE_BYTES: usize = 64 << 20;

/// The largest file of a format read whole ([`Chunking::Whole`]): 256 MiB, far above any
/// tournament set or DLM, LIN or Parquet file dealdex reads.
pub const MAX_WHOLE_BYTES: u64 = 256 << 20;

/// The most records a file may have skipped (boards without a complete deal) and warnings
/// ([`FileBoards`]) together (100,000): every one is kept for the report, so a file of nothing
/// else (`/dev/zero` as a solved-deal library, PBN games of `[Deal ""]` piped without end) is
/// refused here, not read until memory runs out.
pub const MAX_SKIPPED_RECORDS: usize = 100_000;

/// How [`read_stream`] may cut a format's file ([`DealFormat::chunking`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunking {
    /// Read whole (at most [`MAX_WHOLE_BYTES`]).
    Whole,
    /// Every line is read without the others: cut after any line end.
    Lines,
    /// PBN: cut before a `[` that starts a line after an empty line (a new game); the tags
    /// of the game before the cut are carried for `#` values.
    PbnGames,
    /// Records of this many bytes (the solved-deal libraries): cut after any whole record.
    Records(usize),
}

/// Where a piece starts in its file, and what it carries over from the pieces before
/// ([`DealFormat::read_chunk`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChunkState {
    /// Lines before the piece (0 for the first).
    pub line_base: usize,
    /// Bytes before the piece.
    pub byte_base: u64,
    /// Records (boards read and skipped) before the piece.
    pub record_base: usize,
    /// PBN: the tags (name, value) of the last game before the piece, which a `#` value
    /// copies.
    pub carried_tags: Vec<(Vec<u8>, Vec<u8>)>,
}

impl ChunkState {
    /// True for the file's first piece.
    pub fn is_first(&self) -> bool {
        self.byte_base == 0
    }

    /// `position` in a piece as a place in the file: its line, byte and record counted from
    /// the file's start (a column stays as it is).
    pub fn file_position(&self, position: &InputPosition) -> InputPosition {
        let mut p = position.clone();
        p.line = p.line.map(|l| l + self.line_base as u64);
        p.byte = p.byte.map(|b| b + self.byte_base);
        p.record = p.record.map(|r| r + self.record_base as u64);
        p
    }

    /// A piece's boards with the positions of its skipped boards counted from the file's
    /// start (the readers of [`Chunking::Lines`], which give no warnings).
    pub fn in_file(&self, mut read: FileBoards) -> FileBoards {
        for s in &mut read.skipped {
            s.record += self.record_base;
            s.line = s.line.map(|l| l + self.line_base);
        }
        read
    }
}

/// Why [`read_stream`] stopped.
#[derive(Debug)]
pub enum StreamError<E> {
    /// Reading the input failed.
    Io(std::io::Error),
    /// The format refused the file (position counted from the file's start).
    Format(Error),
    /// The consumer of the pieces stopped the read.
    Consumer(E),
}

/// Reads `input` through `format` piece by piece (see the module documentation) and hands
/// each piece's boards, numbered as [`DealFormat::read_numbered`] numbers a whole file, to
/// `on_piece`. Memory: one window of [`WINDOW_BYTES`] (a piece refused is grown up to
/// [`MAX_PIECE_BYTES`]) and one piece's boards; formats read whole, up to
/// [`MAX_WHOLE_BYTES`]. Returns the number of boards read. Never panics on any input.
///
/// ```
/// use dealdex::formats::{self, ReadOptions, stream::read_stream};
/// let hex = formats::by_name("hex").unwrap();
/// let data = b"0EDCCBA0976F2DA4945D8E9DC0\n0EDCCBA0976F2DA4945D8E9DC0\n";
/// let mut numbers = Vec::new();
/// let n = read_stream::<()>(hex, &mut &data[..], &ReadOptions { first_board: Some(5) }, &mut |p| {
///     numbers.extend(p.boards.iter().map(|b| b.number.unwrap()));
///     Ok(())
/// }).unwrap();
/// assert_eq!((n, numbers), (2, vec![5, 6]));
/// ```
///
/// # Errors
/// [`StreamError::Io`] when `input` fails; [`StreamError::Format`] as the format's reader
/// says, for a record longer than [`WINDOW_BYTES`] (no record boundary within it: not a
/// file of that format), or for a whole-read file above [`MAX_WHOLE_BYTES`];
/// [`StreamError::Consumer`] with `on_piece`'s error. Pieces handed over before an error
/// stay handed over: a caller that must take a file whole or not at all (import) undoes them.
pub fn read_stream<E>(
    format: &dyn DealFormat,
    input: &mut dyn Read,
    opts: &ReadOptions,
    on_piece: &mut dyn FnMut(FileBoards) -> Result<(), E>,
) -> Result<u64, StreamError<E>> {
    read_stream_in_pieces(format, input, opts, WINDOW_BYTES, on_piece)
}

/// [`read_stream`] cutting pieces of about `piece_bytes` (at least 1) instead of
/// [`WINDOW_BYTES`]: the boards, skipped boards, warnings and errors are the same whatever the
/// size (what the tests check with small pieces). A record longer than [`WINDOW_BYTES`] is
/// still refused.
///
/// # Errors
/// As [`read_stream`].
pub fn read_stream_in_pieces<E>(
    format: &dyn DealFormat,
    input: &mut dyn Read,
    opts: &ReadOptions,
    piece_bytes: usize,
    on_piece: &mut dyn FnMut(FileBoards) -> Result<(), E>,
) -> Result<u64, StreamError<E>> {
    let piece_bytes = piece_bytes.clamp(1, WINDOW_BYTES);
    let mut buf: Vec<u8> = Vec::new();
    let mut eof = fill(input, &mut buf, WINDOW_BYTES).map_err(StreamError::Io)?;
    let chunking = match format.chunking(&buf) {
        Chunking::Whole => None,
        c => Some(c),
    };
    let Some(chunking) = chunking else {
        let limit = MAX_WHOLE_BYTES as usize;
        if !eof {
            eof = fill(input, &mut buf, limit + 1).map_err(StreamError::Io)?;
        }
        if !eof || buf.len() > limit {
            return Err(StreamError::Format(Error::malformed(
                InputPosition::at_byte(MAX_WHOLE_BYTES),
                format!(
                    "the file is larger than {} MiB, the most dealdex reads of a {} file (read \
                     whole)",
                    MAX_WHOLE_BYTES >> 20,
                    format.info().name
                ),
            )));
        }
        let read = format
            .read_numbered(&buf, opts)
            .map_err(StreamError::Format)?;
        too_many_skipped(format, &read, 0).map_err(StreamError::Format)?;
        let n = read.boards.len() as u64;
        on_piece(read).map_err(StreamError::Consumer)?;
        return Ok(n);
    };
    let mut state = ChunkState::default();
    let mut next_number = opts.first_board.unwrap_or(1);
    let mut boards = 0u64;
    // Skipped records and warnings handed over so far.
    let mut reported = 0usize;
    let mut want = piece_bytes;
    loop {
        if !eof && buf.len() < want {
            eof = fill(input, &mut buf, want).map_err(StreamError::Io)?;
        }
        if buf.is_empty() {
            break;
        }
        let window = want.min(buf.len());
        let cut = match eof && buf.len() <= want {
            true => Some(buf.len()),
            false => last_boundary(&buf[..window], chunking),
        };
        let Some(cut) = cut else {
            if window >= WINDOW_BYTES {
                return Err(StreamError::Format(no_boundary(format, chunking, &state)));
            }
            want = window.saturating_mul(2).clamp(piece_bytes, WINDOW_BYTES);
            continue;
        };
        let more = cut < buf.len() || !eof;
        let mut read = match format.read_chunk(&buf[..cut], &mut state) {
            Ok(read) => read,
            Err(_) if more && want < MAX_PIECE_BYTES => {
                // The record may go on past the cut: read a larger piece again.
                want = want.max(cut).saturating_mul(2).min(MAX_PIECE_BYTES);
                continue;
            }
            Err(e) => return Err(StreamError::Format(e)),
        };
        next_number = super::number_records_from(&mut read, next_number, state.record_base);
        too_many_skipped(format, &read, reported).map_err(StreamError::Format)?;
        reported += read.skipped.len() + read.warnings.len();
        state.record_base += read.boards.len() + read.skipped.len();
        state.line_base += buf[..cut].iter().filter(|&&b| b == b'\n').count();
        state.byte_base += cut as u64;
        boards += read.boards.len() as u64;
        buf.drain(..cut);
        want = piece_bytes;
        on_piece(read).map_err(StreamError::Consumer)?;
    }
    Ok(boards)
}

/// The error when `read`'s skipped records and warnings, after `before` of earlier pieces,
/// pass [`MAX_SKIPPED_RECORDS`], placed at the record that passes it.
fn too_many_skipped(
    format: &dyn DealFormat,
    read: &FileBoards,
    before: usize,
) -> Result<(), Error> {
    let here = read.skipped.len() + read.warnings.len();
    if before + here <= MAX_SKIPPED_RECORDS {
        return Ok(());
    }
    // The skipped record that passes the bound, when skips pass it (warnings name their line
    // in their text).
    let index = MAX_SKIPPED_RECORDS.saturating_sub(before);
    let position = match read
        .skipped
        .get(index.min(read.skipped.len().saturating_sub(1)))
    {
        Some(s) => {
            let at = InputPosition::new().with_record(s.record as u64);
            match s.line {
                Some(l) => at.with_line(l as u64),
                None => at,
            }
        }
        None => InputPosition::default(),
    };
    Err(Error::malformed(
        position,
        format!(
            "more than {MAX_SKIPPED_RECORDS} boards skipped or warned of (the first: {}): not a \
             {} file dealdex reads",
            read.skipped
                .first()
                .map(|s| s.reason.clone())
                .or_else(|| read.warnings.first().cloned())
                .unwrap_or_default(),
            format.info().name
        ),
    ))
}

/// Reads from `input` until `buf` holds `want` bytes or the input ends; true at the end.
fn fill(input: &mut dyn Read, buf: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
    let missing = want.saturating_sub(buf.len()) as u64;
    let got = Read::take(&mut *input, missing).read_to_end(buf)? as u64;
    Ok(got < missing)
}

/// Where the last whole record of `buf` ends (a cut that keeps every record whole), if any.
fn last_boundary(buf: &[u8], chunking: Chunking) -> Option<usize> {
    match chunking {
        Chunking::Whole => None,
        Chunking::Lines => buf.iter().rposition(|&b| b == b'\n').map(|p| p + 1),
        Chunking::Records(n) => Some(buf.len() / n.max(1) * n.max(1)).filter(|&p| p > 0),
        Chunking::PbnGames => {
            // The `[` of a line after an empty line ("\n\n[" or "\n\r\n[").
            let mut end = buf.len();
            while let Some(p) = buf[..end].iter().rposition(|&b| b == b'[') {
                let before = &buf[..p];
                if before.ends_with(b"\n\n") || before.ends_with(b"\n\r\n") {
                    return Some(p).filter(|&p| p > 0);
                }
                end = p;
            }
            None
        }
    }
}

/// The error for a window without a record boundary.
fn no_boundary(format: &dyn DealFormat, chunking: Chunking, state: &ChunkState) -> Error {
    let what = match chunking {
        Chunking::PbnGames => "no game starts (an empty line, then a tag)",
        Chunking::Records(_) => "no whole record",
        _ => "no line ends",
    };
    Error::malformed(
        InputPosition::at_line(state.line_base + 1),
        format!(
            "{what} within {} MiB: not a {} file",
            WINDOW_BYTES >> 20,
            format.info().name
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{self as formats, FileBoards};

    /// Reads `data` in pieces of `piece` bytes, gathering the pieces.
    fn in_pieces(name: &str, data: &[u8], piece: usize) -> Result<FileBoards, StreamError<()>> {
        let f = formats::by_name(name).unwrap();
        let mut all = FileBoards::default();
        read_stream_in_pieces(
            f,
            &mut &data[..],
            &ReadOptions::default(),
            piece,
            &mut |p| {
                all.boards.extend(p.boards);
                all.skipped.extend(p.skipped);
                all.warnings.extend(p.warnings);
                all.inconsistencies.extend(p.inconsistencies);
                Ok(())
            },
        )?;
        Ok(all)
    }

    /// A PBN file whose pieces depend on each other: `#` copies the game before, a
    /// commentary holds an empty line and a tag, a board without a deal is skipped, boards
    /// without `[Board]` are numbered on from the one before.
    const PBN: &str = "\u{feff}% PBN 2.1\n\n\
        [Event \"Cup\"]\n[Board \"7\"]\n[Dealer \"S\"]\n\
        [Deal \"N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432\"]\n\n\
        [Event \"#\"]\n[Board \"8\"]\n[Deal \"\"]\n\n\
        [Event \"#\"]\n{a note\n\n[Board \"99\"] is not a tag here}\n\
        [Deal \"E:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432\"]\n\n\
        [Event \"Other\"]\n\
        [Deal \"W:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432\"]\n";

    #[test]
    fn pbn_pieces_of_any_size_read_as_the_whole_file() {
        let whole = formats::Pbn
            .read_numbered(PBN.as_bytes(), &ReadOptions::default())
            .unwrap();
        let numbers: Vec<_> = whole.boards.iter().map(|b| b.number).collect();
        assert_eq!(numbers, [Some(7), Some(9), Some(10)]);
        assert_eq!(whole.skipped.len(), 1);
        let events: Vec<_> = whole
            .boards
            .iter()
            .map(|b| {
                let tags = b.game.as_ref().map(|g| g.tags.clone()).unwrap_or_default();
                let event = tags.into_iter().find(|(n, _)| n == "Event");
                event.map(|(_, v)| v).unwrap_or_default()
            })
            .collect();
        assert_eq!(events, ["Cup", "Cup", "Other"]);
        for piece in 1..=PBN.len() {
            assert_eq!(
                in_pieces("pbn", PBN.as_bytes(), piece).unwrap(),
                whole,
                "{piece}"
            );
        }
    }

    #[test]
    fn errors_name_the_files_line_whatever_the_piece() {
        let good = "0EDCCBA0976F2DA4945D8E9DC0\n";
        let data = format!("{}0EDCCBA0976F2DA4945D8E9DCZ\n{good}", good.repeat(6));
        let whole = formats::Hex.read_all(data.as_bytes()).unwrap_err();
        assert_eq!(
            whole.position().unwrap(),
            InputPosition::at_line_column(7, 26)
        );
        for piece in 1..=data.len() {
            match in_pieces("hex", data.as_bytes(), piece) {
                Err(StreamError::Format(e)) => assert_eq!(
                    (e.position(), e.to_string()),
                    (whole.position(), whole.to_string()),
                    "{piece}"
                ),
                other => panic!("{piece}: {other:?}"),
            }
        }
    }

    #[test]
    fn endless_input_without_a_record_is_refused_within_a_window() {
        for name in ["pbn", "hex", "json", "csv", "oneline", "deal-lines"] {
            let f = formats::by_name(name).unwrap();
            let mut zeros = std::io::repeat(0);
            let e = read_stream::<()>(f, &mut zeros, &ReadOptions::default(), &mut |_| Ok(()));
            match e {
                Err(StreamError::Format(e)) => {
                    assert_eq!(e.position().unwrap(), InputPosition::at_line(1), "{name}");
                    assert!(e.to_string().contains("within 4 MiB"), "{name}: {e}");
                }
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}
