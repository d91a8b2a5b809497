//! Deal files in: reading a file of any format (piece by piece, [`formats::stream`]) into
//! its boards, skipped boards and warnings, the error that names the file and the place in
//! it ([`crate::Error`]), and the notes a command prints about what was skipped. Every
//! command reads deal files through the pipeline's file source
//! ([`crate::workflow::pipeline::FileSource`]), which reads them here.

use std::path::Path;

use crate::formats::{self, Board, DealFormat, FileBoards, SkippedBoard, stream};
use crate::{Error, ErrorKind};

/// `; N boards skipped (board 5: no complete deal, …)`, or nothing.
pub(crate) fn skipped_note(skipped: &[SkippedBoard]) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    format!("; {}", skipped_summary(skipped))
}

/// `1 board skipped (board 5: no complete deal)`: the skipped boards of a file, the first
/// few named ([`skipped_names`]).
pub fn skipped_summary(skipped: &[SkippedBoard]) -> String {
    format!(
        "{} board{} skipped ({})",
        skipped.len(),
        if skipped.len() == 1 { "" } else { "s" },
        skipped_names(skipped)
    )
}

/// `board 5: no complete deal, board 7: no complete deal`: the first five skipped boards,
/// then how many more.
pub fn skipped_names(skipped: &[SkippedBoard]) -> String {
    const SHOWN: usize = 5;
    let mut names: Vec<String> = skipped.iter().take(SHOWN).map(|s| s.to_string()).collect();
    if skipped.len() > SHOWN {
        names.push(format!("{} more", skipped.len() - SHOWN));
    }
    names.join(", ")
}

/// Reads a deal input piece by piece ([`stream::read_stream`]: the bytes are never held
/// whole; the formats it cannot cut are read whole), handing each piece's boards to
/// `on_boards`, and returns the skipped boards and warnings, with no boards. Boards are
/// numbered as [`DealFormat::read_numbered`] numbers a whole file: boards without a
/// complete deal skipped, the records without a number numbered from `first_board` on (1
/// when `None`; [`formats::number_records`]: a skipped board keeps its place); the formats
/// that depend on the first board (Borel's rotation, DUP's trailer, CDS's board byte) read
/// it as [`formats::ReadOptions::first_board`] says. When `on_boards` returns false the read
/// ends there, the rest of the input unread (not even checked: a fault further on goes
/// unseen): how a consumer that needs only the first deals of a large file (`dealer` with
/// `produce`) reads no further. The pipeline's file source reads every file through it
/// ([`crate::workflow::pipeline::FileSource`]); `path` names the input in errors.
///
/// # Errors
/// [`Error`]: the input cannot be read, the format refuses it, or it holds no board with a
/// complete deal (a read stopped before its end is never [`ErrorKind::Empty`]).
pub(crate) fn read_deal_pieces_until(
    input: &mut dyn std::io::Read,
    path: &Path,
    format: &'static dyn DealFormat,
    first_board: Option<u64>,
    on_boards: &mut dyn FnMut(Vec<Board>) -> bool,
) -> Result<FileBoards, Error> {
    /// `on_boards` asked to stop.
    struct Stop;
    let mut read = FileBoards::default();
    let mut boards = 0usize;
    let opts = formats::ReadOptions { first_board };
    let outcome = stream::read_stream::<Stop>(format, input, &opts, &mut |piece| {
        boards += piece.boards.len();
        let go_on = on_boards(piece.boards);
        read.skipped.extend(piece.skipped);
        read.warnings.extend(piece.warnings);
        read.inconsistencies.extend(piece.inconsistencies);
        if go_on { Ok(()) } else { Err(Stop) }
    });
    match outcome.map_err(|e| read_failure(e, path)) {
        Ok(_) => {}
        Err(Err(Stop)) => return Ok(read),
        Err(Ok(e)) => return Err(e),
    }
    if boards == 0 {
        return Err(ErrorKind::Empty {
            path: path.to_owned(),
            format: format.info().name,
            skipped: read.skipped,
        }
        .into());
    }
    Ok(read)
}

/// A [`stream::StreamError`] of the file `path` split in two: the consumer's own error
/// (`Err`), or reading the file failed (`Ok`: its I/O error or the format's, as a
/// [`Error`] naming `path`). The one conversion every streaming reader uses.
pub(crate) fn read_failure<E>(e: stream::StreamError<E>, path: &Path) -> Result<Error, E> {
    match e {
        stream::StreamError::Io(error) => Ok(ErrorKind::Read {
            path: path.to_owned(),
            error,
        }
        .into()),
        stream::StreamError::Format(error) => Ok(ErrorKind::Refused {
            path: path.to_owned(),
            error,
        }
        .into()),
        stream::StreamError::Consumer(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 200,000 good lines (5.4 MB), then a line no hex reader takes: a consumer that stops
    /// after the first piece (4 MiB) gets it, and the rest is never read (no error).
    #[test]
    fn a_stopped_read_reads_no_further() {
        let mut data = "0EDCCBA0976F2DA4945D8E9DC0\n".repeat(200_000);
        data.push_str("not a deal\n");
        let hex = formats::by_name("hex").unwrap();
        let mut n = 0;
        let path = Path::new("in.hex");
        read_deal_pieces_until(&mut data.as_bytes(), path, hex, None, &mut |b| {
            n += b.len();
            false
        })
        .unwrap();
        assert!(n > 0 && n < 200_000, "{n}");
        // Read to the end, the bad line is found.
        let e = read_deal_pieces_until(&mut data.as_bytes(), path, hex, None, &mut |_| true);
        assert!(e.is_err());
    }
}
