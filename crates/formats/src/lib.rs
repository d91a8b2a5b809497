//! dealdex's deal-file formats: the registry of every format dealdex reads and writes
//! (FORMATS.md §4–§10), their readers, writers and detection. Depends on the model and the
//! solver's tables only.
//!
//! Each format is one module with a unit struct implementing [`DealFormat`]: its name, file
//! extensions, whether it carries board numbers, its limits, a reader and a writer. The CLI's
//! `generate --out`, `convert`, `import` and `export` all go through [`registry`], so adding a
//! format touches one module (plus one line in [`registry`]) and its tests.
//!
//! Every failure is the crate's one [`Error`], in rust-csv's style: its [`ErrorKind`] is a
//! reader's or writer's refusal (with the place in the bytes), a writer's destination that
//! fails, or a format that cannot be chosen (by name, extension or content).

#![deny(missing_docs)]

use std::fmt;
use std::path::Path;

// The model and the solver under their names in the engine (`crate::model::…`, `crate::dd::…`).
use dealdex_model as model;
use dealdex_model::classified;
use dealdex_solver as dd;

use crate::model::InputPosition;

use crate::model::card::Seat;
use crate::model::deal::Deal;

mod ber;
mod borel;
mod bri;
mod cds;
mod csv;
mod deal_lines;
mod dealer_all;
mod dealer_compact;
mod dealer_ew;
pub mod detect;
mod dge;
mod dlm;
mod dup;
mod endplay_json;
mod error;
mod gib_library;
mod goedel;
pub(crate) mod hex;
mod hrf;
mod json;
mod kops;
mod lin;
mod oneline;
pub(crate) mod parquet;
pub mod pbn;
mod pbn_dd;
pub mod played;
mod redeal;
mod redeal_long;
mod rp_library;
pub mod stream;
pub(crate) mod text;

pub use ber::Ber;
pub use borel::Borel;
pub use bri::Bri;
pub use cds::Cds;
pub use csv::Csv;
pub use deal_lines::DealLines;
pub use dealer_all::DealerAll;
pub use dealer_compact::DealerCompact;
pub use dealer_ew::{DealerEw, ShownHands};
pub use detect::detect;
pub use dge::Dge;
pub use dlm::Dlm;
pub use dup::Dup;
pub use endplay_json::EndplayJson;
pub use error::{Error, ErrorKind};
pub use gib_library::GibLibrary;
pub use goedel::Goedel;
pub use hex::Hex;
pub use hrf::Hrf;
pub use json::Json;
pub use kops::Kops;
pub use lin::Lin;
pub use oneline::OneLine;
pub use parquet::{Parquet, ParquetWriter};
pub use pbn::Pbn;
pub use redeal::Redeal;
pub use redeal_long::RedealLong;
pub use rp_library::RpLibrary;

// The game a file records beside the deal: the bridge vocabulary of `crate::model::game`,
// public here, where the formats that carry it are; and the board that carries both.
pub use crate::model::board::Board;
pub use crate::model::game::{Auction, GameRecord, Play, SourceText};
pub use played::{Inconsistency, InconsistencyKind, PlayedBoard, Room, check_board, played_board};

/// A board a reader skipped because the file gives no complete deal for it (docs/GUIDE.md "Deal
/// files": an empty or placeholder deal such as `[Deal ""]` or `N:... ... ... ...`, or a
/// partial one such as `N:AKQ.AKQ.AKQ.AKQJ - - -`, as teaching and bidding files carry for
/// auction-only boards). A deal that is malformed (a hand of 14 cards, a card twice, a bad
/// rank) is an error instead, and rejects the file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SkippedBoard {
    /// Its board number when the file gives one (or after [`number_records`]).
    pub board: Option<u64>,
    /// Its 1-based place among the file's records (boards read and skipped).
    pub record: usize,
    /// The 1-based line where the record starts, for the formats with lines.
    pub line: Option<usize>,
    /// Why it was skipped, e.g. `no complete deal`.
    pub reason: String,
}

/// The reason given for every [`SkippedBoard`] of the skip rule.
pub const NO_COMPLETE_DEAL: &str = "no complete deal";

impl fmt::Display for SkippedBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.board {
            Some(n) => write!(f, "board {n}: {}", self.reason),
            None => write!(f, "record {}: {}", self.record, self.reason),
        }
    }
}

/// Everything a reader gets from a file ([`DealFormat::read_all`]): the boards, the boards it
/// skipped, and warnings about what it ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileBoards {
    /// The boards with a complete deal, in file order.
    pub boards: Vec<Board>,
    /// The boards without one (see [`SkippedBoard`]), in file order.
    pub skipped: Vec<SkippedBoard>,
    /// What the reader ignored and the user should know, each naming its line, e.g. an
    /// incomplete PBN `[OptimumResultTable]` (the board is kept without the table).
    pub warnings: Vec<String>,
    /// Records kept with what is consistent in them, and what was not (LIN vugraph files:
    /// an illegal card, a claim without a count, a result or contract the file contradicts;
    /// [`played`]). The boards' own records are checked by [`check_board`].
    pub inconsistencies: Vec<Inconsistency>,
}

impl FileBoards {
    /// The 1-based place among the file's records of the record after those read so far
    /// (the boards and the skipped boards).
    pub(crate) fn next_record(&self) -> usize {
        self.boards.len() + self.skipped.len() + 1
    }

    /// Skips the file's next record ([`FileBoards::next_record`]) for `reason`: its board
    /// number when the file gives one, its 1-based line for the formats with lines.
    pub(crate) fn skip(&mut self, board: Option<u64>, line: Option<usize>, reason: &str) {
        self.skipped.push(SkippedBoard {
            board,
            record: self.next_record(),
            line,
            reason: reason.to_owned(),
        });
    }

    /// Skips the file's next record for want of a complete deal ([`NO_COMPLETE_DEAL`]), as
    /// [`FileBoards::skip`].
    pub(crate) fn skip_incomplete(&mut self, board: Option<u64>, line: Option<usize>) {
        self.skip(board, line, NO_COMPLETE_DEAL);
    }
}

/// What the four hands of a file's record make, for the readers that allow partial hands
/// ([`SkippedBoard`]): `hands[i]` is seat `i`'s hand (N, E, S, W), `None` when unknown; a
/// hand with no card counts as missing. Two or more hands missing: `Ok(None)` (no complete
/// deal); else the deal, one missing hand completed from the other three.
///
/// # Errors
/// A card in two hands, a hand of more than 13 cards, or (at most one hand missing) a hand
/// that does not hold 13.
pub(crate) fn complete_hands(
    hands: [Option<crate::model::deal::Hand>; 4],
) -> Result<Option<Deal>, crate::model::Error> {
    use crate::model::ErrorKind;
    use crate::model::deal::Hand;
    let masks = hands.map(|h| h.map_or(0, |h| h.mask()));
    // Cards twice first (Deal::new's error), as with four complete hands.
    for a in 0..4 {
        for b in a + 1..4 {
            let both = masks[a] & masks[b];
            if both != 0 {
                let card = crate::model::card::Card::from_index(both.trailing_zeros() as usize);
                if let Some(card) = card {
                    return Err(ErrorKind::DuplicateCard {
                        card,
                        first: Seat::from_index(a),
                        second: Seat::from_index(b),
                        column: None,
                    }
                    .into());
                }
            }
        }
    }
    let missing: Vec<usize> = (0..4).filter(|&i| masks[i] == 0).collect();
    for (i, m) in masks.iter().enumerate() {
        let count = m.count_ones() as usize;
        if count > 13 || (missing.len() < 2 && count != 13 && !missing.contains(&i)) {
            return Err(ErrorKind::WrongCount {
                seat: Seat::from_index(i),
                count,
                column: None,
            }
            .into());
        }
    }
    let mut masks = masks;
    match missing[..] {
        [] => {}
        [m] => {
            let all = masks.iter().fold(0u64, |a, m| a | m);
            masks[m] = !all & ((1u64 << 52) - 1);
        }
        _ => return Ok(None),
    }
    Deal::new(masks.map(Hand::from_mask)).map(Some)
}

/// The boards of the deals a file shows hand by hand ([`ShownHands`], in file order): each
/// completed by [`complete_hands`], or skipped ([`NO_COMPLETE_DEAL`]) when two or more hands
/// are not shown.
///
/// # Errors
/// [`ErrorKind::NotADeal`] at the deal's line for hands that are no part of a deal (a
/// card twice, a hand of the wrong size).
pub(crate) fn boards_of_shown_hands(shown: Vec<ShownHands>) -> Result<FileBoards, Error> {
    let mut read = FileBoards::default();
    for (line, hands) in shown {
        match complete_hands(hands) {
            Ok(Some(deal)) => read.boards.push(Board::unnumbered(deal)),
            Ok(None) => read.skip_incomplete(None, Some(line)),
            Err(e) => {
                return Err(Error::not_a_deal(
                    InputPosition::at_line(line),
                    e.to_string(),
                ));
            }
        }
    }
    Ok(read)
}

/// Numbers a file's boards and skipped boards together, in file order, as
/// [`number_boards`] numbers boards: a record without a number gets the one after the
/// previous record's (the first one `first`), so a skipped board keeps its place and the
/// boards after it keep theirs.
pub fn number_records(read: &mut FileBoards, first: u64) {
    number_records_from(read, first, 0);
}

/// [`number_records`] for a piece of a file whose records (as [`SkippedBoard::record`]
/// counts them) start after `record_base`; returns the number after the last record's.
pub(crate) fn number_records_from(read: &mut FileBoards, first: u64, record_base: usize) -> u64 {
    let mut next = first;
    let mut boards = read.boards.iter_mut();
    let mut skipped = read.skipped.iter_mut().peekable();
    let mut record = record_base + 1;
    loop {
        let n = if skipped.peek().is_some_and(|s| s.record <= record) {
            skipped.next().map(|s| *s.board.get_or_insert(next))
        } else {
            match boards.next() {
                Some(b) => Some(*b.number.get_or_insert(next)),
                None => skipped.next().map(|s| *s.board.get_or_insert(next)),
            }
        };
        let Some(n) = n else {
            break;
        };
        next = n.saturating_add(1);
        record += 1;
    }
    next
}

/// A format's fixed facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    /// The name used by `--format`, e.g. `dup`.
    pub name: &'static str,
    /// File extensions (lowercase, without the dot) that select it; the first is the default.
    pub extensions: &'static [&'static str],
    /// One line saying what it is and where it is specified.
    pub description: &'static str,
    /// True when each record carries its board number (else boards run from a start).
    pub board_numbers: bool,
    /// The highest board number the format can hold (DUP and DLM: 99), if limited.
    pub max_board: Option<u64>,
    /// True when boards can be written in chunks between [`DealFormat::write_header`] and
    /// [`DealFormat::write_footer`]; false when the writer needs the whole set in one call.
    pub streaming: bool,
    /// True for the formats of tournament sets for dealing machines (DUP, BRI, DGE, BER,
    /// Borel, KOPS, Gödel numbers) that carry no board numbers: their boards' dealers and
    /// vulnerabilities depend on where the set starts, which only `--first-board` says, so
    /// [`DealFormat::read_numbered`] warns when it is not given.
    pub board_set: bool,
    /// How [`stream::read_stream`] may cut any file of the format ([`DealFormat::chunking`]'s
    /// default); a format whose cut depends on the file's first bytes decides there.
    pub chunking: stream::Chunking,
}

/// A format's facts are written as what sets it apart from most: [`FormatInfo::new`], then
/// the changes (`FormatInfo::new("dup", &["dup"], "…").board_set().max_board(99)`).
impl FormatInfo {
    /// The facts of the format `name`, selected by `extensions`, said by `description`, as
    /// most formats are: no board numbers, no board limit, streaming, not a board set, read
    /// whole.
    pub const fn new(
        name: &'static str,
        extensions: &'static [&'static str],
        description: &'static str,
    ) -> FormatInfo {
        FormatInfo {
            name,
            extensions,
            description,
            board_numbers: false,
            max_board: None,
            streaming: true,
            board_set: false,
            chunking: stream::Chunking::Whole,
        }
    }

    /// These facts for a format whose records carry their board numbers
    /// ([`FormatInfo::board_numbers`]).
    pub const fn numbered(self) -> FormatInfo {
        FormatInfo {
            board_numbers: true,
            ..self
        }
    }

    /// These facts for a dealing machine's board set ([`FormatInfo::board_set`]).
    pub const fn board_set(self) -> FormatInfo {
        FormatInfo {
            board_set: true,
            ..self
        }
    }

    /// These facts for a format that holds boards 1..=`max` ([`FormatInfo::max_board`]).
    pub const fn max_board(self, max: u64) -> FormatInfo {
        FormatInfo {
            max_board: Some(max),
            ..self
        }
    }

    /// These facts for a format whose files may be cut as `chunking` says
    /// ([`FormatInfo::chunking`]).
    pub const fn cut(self, chunking: stream::Chunking) -> FormatInfo {
        FormatInfo { chunking, ..self }
    }

    /// These facts for a format written whole, not in chunks ([`FormatInfo::streaming`]
    /// false).
    pub const fn whole(self) -> FormatInfo {
        FormatInfo {
            streaming: false,
            ..self
        }
    }
}

/// Options for reading a file ([`DealFormat::read_numbered`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// The number of the file's first board (1-based) as the user gave it (`--first-board`),
    /// or `None` when not given. For the formats without board numbers it numbers the boards
    /// (from 1 when `None`) and, for Borel, fixes each line's rotation; it overrides DUP's
    /// trailer, and picks the block of 256 boards a CDS file's board bytes lie in. Board
    /// numbers a record carries (PBN, LIN, CSV, DLM, JSON, …) are kept.
    pub first_board: Option<u64>,
}

/// The highest board number dealdex takes: what the store holds (SQLite's signed 64-bit
/// INTEGER, `i64::MAX` = 9,223,372,036,854,775,807), and so the largest `--first-board` of
/// `convert` and `import` ([`check_first_board`]) and the most a Parquet file holds.
pub const MAX_BOARD_NUMBER: u64 = i64::MAX as u64;

/// Checks a first board number given by the user (`--first-board`, [`ReadOptions::first_board`])
/// against 1..=[`MAX_BOARD_NUMBER`]: the one check of `convert` and `import` (their
/// `--first-board` flags through [`parse_first_board`], and
/// `dealdex::workflow::convert::run`). Beyond it, numbering the boards would saturate at
/// `u64::MAX` or give numbers the store cannot hold.
///
/// ```
/// use dealdex::formats::{MAX_BOARD_NUMBER, check_first_board};
/// assert_eq!(check_first_board(11), Ok(11));
/// assert_eq!(check_first_board(MAX_BOARD_NUMBER), Ok(MAX_BOARD_NUMBER));
/// let e = check_first_board(18446744073709551600).unwrap_err();
/// assert!(e.contains("9223372036854775807"), "{e}");
/// assert!(check_first_board(0).is_err());
/// ```
///
/// # Errors
/// For 0 and above [`MAX_BOARD_NUMBER`]: what is expected (the caller names the flag and the
/// value).
pub fn check_first_board(first: u64) -> Result<u64, String> {
    if (1..=MAX_BOARD_NUMBER).contains(&first) {
        Ok(first)
    } else {
        Err(format!(
            "expected 1..={MAX_BOARD_NUMBER}, the largest board number a database holds"
        ))
    }
}

/// Parses a `--first-board` value: a decimal number checked by [`check_first_board`] (clap's
/// value parser for the flag of `convert` and `import`).
///
/// # Errors
/// Not a decimal number, or [`check_first_board`]'s error.
pub fn parse_first_board(text: &str) -> Result<u64, String> {
    let n: u64 = text
        .parse()
        .map_err(|_| format!("not a board number (expected 1..={MAX_BOARD_NUMBER})"))?;
    check_first_board(n)
}

/// The warning of a [`FormatInfo::board_set`] file read without its first board.
pub(crate) fn untold_first_board(format: &str) -> String {
    format!(
        "read as boards 1, 2, …: a {format} file carries no board numbers, so the dealers and \
         vulnerabilities are boards 1, 2, …'s; give the first board if the set starts at \
         another board"
    )
}

/// Options for writing a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The event name (PBN `[Event]`, DLM `Headline`, …); empty for none.
    pub event: String,
    /// Hide the cards from a dealing machine's display where the format can (DUP without the
    /// DGE part on board 1, DLM `Status=Sealed`).
    pub blind: bool,
    /// The first board number of the whole set (DUP trailer, DLM `From board`).
    pub first_board: u64,
    /// The last board number of the whole set (DUP trailer, DLM `To board`).
    pub last_board: u64,
    /// The numbering scheme of the set (FORMATS.md §1): the hand-record numbers a format
    /// writes (JSON lines' `number`, with its `scheme`) are in it.
    pub scheme: crate::model::number::Scheme,
    /// How many boards the whole set holds (DUP trailer), when known: [`write_set`] and the
    /// sinks that render a whole set give it; `None` takes `last_board − first_board + 1`, a
    /// set without gaps (what a piece written alone can know).
    pub boards: Option<u64>,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            event: String::new(),
            blind: false,
            first_board: 1,
            last_board: 1,
            scheme: crate::model::number::Scheme::Pavlicek,
            boards: None,
        }
    }
}

/// A format shows as its registry name (`pbn`, `hex`, …), so that jobs holding one derive
/// `Debug`.
impl fmt::Debug for dyn DealFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().name)
    }
}

/// A deal-file format: reader and writer.
pub trait DealFormat: Send + Sync {
    /// The format's fixed facts.
    fn info(&self) -> &'static FormatInfo;

    /// Reads every board of a file. Never panics on any input. Default: the boards of
    /// [`DealFormat::read_all`]. A format implements at least one of the two (each one's
    /// default calls the other).
    ///
    /// # Errors
    /// [`Error`] naming the line, column, byte offset or record of the first problem.
    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        Ok(self.read_all(data)?.boards)
    }

    /// Reads every board of a file, with the boards skipped for want of a complete deal and
    /// the reader's warnings ([`FileBoards`]); [`DealFormat::read`] gives its boards. The
    /// formats whose records can hold partial hands (PBN, LIN, JSON) skip such boards;
    /// default: [`DealFormat::read`], nothing skipped. Never panics on any input.
    ///
    /// # Errors
    /// As [`DealFormat::read`].
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        Ok(FileBoards {
            boards: self.read(data)?,
            ..FileBoards::default()
        })
    }

    /// Reads every board of a file as [`DealFormat::read_all`] does and numbers every record:
    /// the numbers the file carries, else from [`ReadOptions::first_board`] on (1 when not
    /// given) in file order ([`number_records`]: a skipped board keeps its place). The formats
    /// whose records depend on a number they do not carry (Borel turns each line to its
    /// board's dealer) or carry one only in part (DUP's trailer, CDS's board byte mod 256)
    /// read it from the options here; docs/formats.md says what `--first-board` does
    /// for each. Never panics on any input.
    ///
    /// ```
    /// use dealdex::formats::{self, ReadOptions};
    /// let lin = formats::by_name("lin").unwrap();
    /// let line = b"qx|o7|md|3SAKQJT98765432H,HAKQJT98765432,DAKQJT98765432|\n";
    /// let told = ReadOptions { first_board: Some(30) };
    /// // LIN carries its board numbers: `--first-board` does not change them.
    /// assert_eq!(lin.read_numbered(line, &told)?.boards[0].number, Some(7));
    /// let bri = formats::by_name("bri").unwrap();
    /// let file = formats::write_set(bri, &lin.read_all(line)?.boards, &Default::default())?;
    /// assert_eq!(bri.read_numbered(&file, &told)?.boards[0].number, Some(30));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`DealFormat::read`], and where the options contradict the file (CDS: a first board
    /// whose number mod 256 is not the first record's board byte).
    fn read_numbered(&self, data: &[u8], opts: &ReadOptions) -> Result<FileBoards, Error> {
        let mut read = self.read_all(data)?;
        number_records(&mut read, opts.first_board.unwrap_or(1));
        if self.info().board_set && opts.first_board.is_none() && !read.boards.is_empty() {
            read.warnings.push(untold_first_board(self.info().name));
        }
        Ok(read)
    }

    /// How [`stream::read_stream`] may cut a file of this format that starts with `head` (up
    /// to [`stream::WINDOW_BYTES`] of it). Default: [`FormatInfo::chunking`].
    fn chunking(&self, _head: &[u8]) -> stream::Chunking {
        self.info().chunking
    }

    /// Reads one piece of a file cut as [`DealFormat::chunking`] says, `state` saying where
    /// it starts: the boards as [`DealFormat::read_all`] gives them, every position (errors,
    /// skipped boards, warnings) counted from the file's start. `state` changes only on
    /// success, and only in what it carries to the next piece. Default: [`DealFormat::read_all`]
    /// with the positions moved ([`stream::ChunkState::in_file`]), right for the formats whose
    /// lines are read one by one and give no warnings.
    ///
    /// # Errors
    /// As [`DealFormat::read_all`].
    fn read_chunk(&self, data: &[u8], state: &mut stream::ChunkState) -> Result<FileBoards, Error> {
        match self.read_all(data) {
            Ok(read) => Ok(state.in_file(read)),
            Err(e) => Err(e.moved(|p| state.file_position(p))),
        }
    }

    /// Writes what comes before the boards (file headers). Default: nothing.
    ///
    /// # Errors
    /// [`Error`] when the options break the format's limits.
    fn write_header(&self, _opts: &WriteOptions, _out: &mut Vec<u8>) -> Result<(), Error> {
        Ok(())
    }

    /// Checks the boards of one [`DealFormat::write_boards`] call before anything is written.
    /// Default: every board has a number within the format's limits ([`check_numbers`]).
    ///
    /// # Errors
    /// [`Error`] naming the first board (or option) that breaks the format's limits.
    fn check_boards(&self, boards: &[Board], _opts: &WriteOptions) -> Result<(), Error> {
        check_numbers(self.info(), boards)
    }

    /// Appends one board's record. It does not check the board: [`DealFormat::write_checked`]
    /// calls it for each board once [`DealFormat::check_boards`] has passed. For a
    /// non-streaming format this is one record of the set; its `write_checked` adds what the
    /// set needs around the records.
    fn write_board(&self, board: &Board, opts: &WriteOptions, out: &mut Vec<u8>);

    /// Appends boards that [`DealFormat::check_boards`] has passed (so it cannot fail): for a
    /// non-streaming format the whole set, with what the set needs around its records (a
    /// header with the count, brackets, the boards a file holds besides them). Default:
    /// [`DealFormat::write_board`] for each board.
    fn write_checked(&self, boards: &[Board], opts: &WriteOptions, out: &mut Vec<u8>) {
        write_each(self, boards, opts, out);
    }

    /// Writes boards, which all have numbers (see [`number_boards`]). For a non-streaming
    /// format this is the whole set. Default: [`DealFormat::check_boards`], then
    /// [`DealFormat::write_checked`]; a format changes those two, not this.
    ///
    /// # Errors
    /// [`Error`] naming the board when one breaks the format's limits (see
    /// [`check_board_limit`]); nothing is appended then.
    fn write_boards(
        &self,
        boards: &[Board],
        opts: &WriteOptions,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        self.check_boards(boards, opts)?;
        self.write_checked(boards, opts, out);
        Ok(())
    }

    /// A writer that takes a set chunk by chunk and writes it to `out` as it goes, for the
    /// formats whose file cannot be cut into independent chunks of bytes
    /// ([`FormatInfo::streaming`] false) yet can be written in bounded memory: Parquet (row
    /// groups, then a footer listing them). Bulk generation uses it instead of collecting the
    /// whole run. Default: `None` (the byte writers above serve).
    ///
    /// The `Option` is `Some(Err(..))` when the writer cannot start on `out`.
    fn open_writer(
        &self,
        _out: Box<dyn std::io::Write + Send>,
        _opts: &WriteOptions,
    ) -> Option<Result<Box<dyn BoardWriter>, Error>> {
        None
    }

    /// Writes what comes after the boards. Default: nothing.
    ///
    /// # Errors
    /// [`Error`] when the options break the format's limits.
    fn write_footer(&self, _opts: &WriteOptions, _out: &mut Vec<u8>) -> Result<(), Error> {
        Ok(())
    }
}

/// A stateful writer of one file ([`DealFormat::open_writer`]): boards in chunks, then
/// [`BoardWriter::finish`].
pub trait BoardWriter: Send {
    /// Adds boards, which all have numbers (see [`number_boards`]).
    ///
    /// # Errors
    /// [`ErrorKind::Unwritable`] naming a board the format cannot hold (nothing of this call
    /// is added then), [`ErrorKind::Io`] when the destination fails.
    fn write_boards(&mut self, boards: &[Board]) -> Result<(), Error>;

    /// Writes what the file still needs (the last rows, a footer), flushes, and gives the
    /// file's size in bytes.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] when the destination fails.
    fn finish(self: Box<Self>) -> Result<u64, Error>;
}

/// Gives every board without a number the number after the previous board's (the first one
/// `first`), so that writers can rely on numbers. After a board numbered `u64::MAX` the next
/// number stays `u64::MAX` (a reader may take such a number from a file; it never wraps to 0).
pub fn number_boards(boards: &mut [Board], first: u64) {
    let mut next = first;
    for b in boards.iter_mut() {
        let n = *b.number.get_or_insert(next);
        next = n.saturating_add(1);
    }
}

/// Writes a whole set: header, boards and footer, with the set's board range taken from the
/// boards when `opts` does not give a wider one.
///
/// # Errors
/// The format's [`Error`]; nothing usable is produced then.
pub fn write_set(
    format: &dyn DealFormat,
    boards: &[Board],
    opts: &WriteOptions,
) -> Result<Vec<u8>, Error> {
    let mut numbered = boards.to_vec();
    number_boards(&mut numbered, opts.first_board);
    let mut o = opts.clone();
    if let (Some(lo), Some(hi)) = (
        numbered.iter().filter_map(|b| b.number).min(),
        numbered.iter().filter_map(|b| b.number).max(),
    ) {
        o.first_board = lo;
        o.last_board = hi;
    }
    o.boards = Some(numbered.len() as u64);
    let mut out = Vec::new();
    format.write_header(&o, &mut out)?;
    format.write_boards(&numbered, &o, &mut out)?;
    format.write_footer(&o, &mut out)?;
    Ok(out)
}

/// Every format dealdex knows, in the order `--help` lists them.
pub fn registry() -> &'static [&'static dyn DealFormat] {
    REGISTRY
}

static REGISTRY: &[&dyn DealFormat] = &[
    &pbn::Pbn,
    &dup::Dup,
    &bri::Bri,
    &dge::Dge,
    &dlm::Dlm,
    &lin::Lin,
    &csv::Csv,
    &ber::Ber,
    &borel::Borel,
    &kops::Kops,
    &cds::Cds,
    &goedel::Goedel,
    &hrf::Hrf,
    &hex::Hex,
    &json::Json,
    &oneline::OneLine,
    &parquet::Parquet,
    &dealer_all::DealerAll,
    &dealer_ew::DealerEw,
    &dealer_compact::DealerCompact,
    &deal_lines::DealLines,
    &redeal::Redeal,
    &redeal_long::RedealLong,
    &endplay_json::EndplayJson,
    &gib_library::GibLibrary,
    &rp_library::RpLibrary,
];

/// The format named `name` (case-insensitive), or `None`.
pub fn by_name(name: &str) -> Option<&'static dyn DealFormat> {
    registry()
        .iter()
        .copied()
        .find(|f| f.info().name.eq_ignore_ascii_case(name))
}

/// The format a file name's extension selects, or `None`.
pub fn by_path(path: &Path) -> Option<&'static dyn DealFormat> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    registry()
        .iter()
        .copied()
        .find(|f| f.info().extensions.contains(&ext.as_str()))
}

/// The names of every registered format, comma-separated, for messages.
pub fn names() -> String {
    registry()
        .iter()
        .map(|f| f.info().name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every format's name with its default extension where that differs from the name, in
/// registry order, e.g. `pbn, dup, …, borel (.bhg), …`: the list help texts show.
///
/// ```
/// let list = dealdex::formats::names_with_extensions();
/// assert!(list.starts_with("pbn, dup, ") && list.contains("borel (.bhg)"));
/// assert!(list.contains("parquet"));
/// ```
pub fn names_with_extensions() -> String {
    registry()
        .iter()
        .map(|f| {
            let info = f.info();
            match info.extensions.first() {
                Some(ext) if *ext != info.name => format!("{} (.{ext})", info.name),
                _ => info.name.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The format named `name` (case-insensitive, as [`by_name`]).
///
/// ```
/// assert_eq!(dealdex::formats::named("DUP")?.info().name, "dup");
/// assert!(dealdex::formats::named("doc").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::UnknownName`], listing the known names.
pub fn named(name: &str) -> Result<&'static dyn DealFormat, Error> {
    by_name(name).ok_or_else(|| {
        ErrorKind::UnknownName {
            name: name.to_owned(),
        }
        .into()
    })
}

/// The format of the file `path`: the one `name`d when given ([`named`]), else the one its
/// extension selects ([`by_path`]).
///
/// ```
/// use std::path::Path;
/// use dealdex::formats::choose;
/// assert_eq!(choose(Path::new("a.lin"), None)?.info().name, "lin");
/// assert_eq!(choose(Path::new("a.txt"), Some("pbn"))?.info().name, "pbn");
/// assert!(choose(Path::new("a.doc"), None).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ErrorKind::UnknownName`] or [`ErrorKind::UnknownExtension`].
pub fn choose(path: &Path, name: Option<&str>) -> Result<&'static dyn DealFormat, Error> {
    match name {
        Some(n) => named(n),
        None => by_path(path).ok_or_else(|| {
            ErrorKind::UnknownExtension {
                path: path.to_owned(),
            }
            .into()
        }),
    }
}

/// The format of the input file `path` as far as its name tells: the format `name`d (when
/// given), else the one the extension selects, except `.txt`'s (which hex lines and the
/// peers' text outputs share); `None` when the content must tell ([`choose_by_content`];
/// `dealdex::workflow::pipeline::open_deal_file` opens a file once and does both).
///
/// ```
/// use dealdex::formats::choose_by_name;
/// assert_eq!(choose_by_name("a.pbn".as_ref(), None)?.unwrap().info().name, "pbn");
/// assert_eq!(choose_by_name("a.txt".as_ref(), Some("hex"))?.unwrap().info().name, "hex");
/// assert!(choose_by_name("a.txt".as_ref(), None)?.is_none());
/// # Ok::<(), dealdex::FormatError>(())
/// ```
///
/// # Errors
/// [`ErrorKind::UnknownName`] for a name no format has.
pub fn choose_by_name(
    path: &Path,
    name: Option<&str>,
) -> Result<Option<&'static dyn DealFormat>, Error> {
    if let Some(n) = name {
        return named(n).map(Some);
    }
    let shared = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
    Ok(by_path(path).filter(|_| !shared))
}

/// The format the first bytes of `path` show ([`detect()`]; a deal file's first 64 KiB).
///
/// # Errors
/// [`ErrorKind::UnknownContent`] or [`ErrorKind::AmbiguousContent`] naming the file when
/// they show no format or several.
pub fn choose_by_content(path: &Path, head: &[u8]) -> Result<&'static dyn DealFormat, Error> {
    detect(head).map_err(|error| {
        let mut kind = error.into_kind();
        if let ErrorKind::UnknownContent { path: p, .. }
        | ErrorKind::AmbiguousContent { path: p, .. } = &mut kind
        {
            *p = Some(path.to_owned());
        }
        kind.into()
    })
}

/// Appends every board with [`DealFormat::write_board`], reserving room for the rest after the
/// first (so the caller's buffer grows once a call).
pub(crate) fn write_each<F: DealFormat + ?Sized>(
    format: &F,
    boards: &[Board],
    opts: &WriteOptions,
    out: &mut Vec<u8>,
) {
    let mut rest = boards.iter();
    let Some(first) = rest.next() else {
        return;
    };
    let start = out.len();
    format.write_board(first, opts, out);
    out.reserve((out.len() - start).saturating_mul(rest.len()));
    for b in rest {
        format.write_board(b, opts, out);
    }
}

/// Checks that every board has a number within the format's limits
/// ([`check_board_limit`]); writers call it first so nothing is appended on error.
///
/// # Errors
/// A board without a number, numbered 0, or above `info.max_board`.
pub fn check_numbers(info: &FormatInfo, boards: &[Board]) -> Result<(), Error> {
    for b in boards {
        match b.number {
            Some(n) => check_board_limit(info, n)?,
            None => {
                return Err(Error::unwritable(format!(
                    "a board without a number: the {} writer needs numbered boards",
                    info.name
                )));
            }
        }
    }
    Ok(())
}

/// Checks that every board carries a double-dummy table ([`Board::dd`]), for the formats of
/// solved-deal libraries, whose records hold one; writers call it first so nothing is
/// appended on error.
///
/// # Errors
/// [`ErrorKind::Unwritable`] naming the first board without a table (its number, else
/// its place).
pub(crate) fn check_tables(info: &FormatInfo, boards: &[Board]) -> Result<(), Error> {
    match boards.iter().enumerate().find(|(_, b)| b.dd.is_none()) {
        None => Ok(()),
        Some((i, b)) => {
            let which = match b.number {
                Some(n) => format!("board {n}"),
                None => format!("the board in place {}", i + 1),
            };
            Err(Error::unwritable(format!(
                "{which} has no double-dummy table: a {} record holds the deal's 20 trick \
                 counts (solve the deals first, e.g. `dealdex solve`, or import them into a \
                 database and export them with their tables)",
                info.name
            )))
        }
    }
}

/// Checks a board number against a format's limit before writing.
///
/// # Errors
/// [`Error`] naming the board when `number` is 0 or above the format's limit.
pub fn check_board_limit(info: &FormatInfo, number: u64) -> Result<(), Error> {
    if number == 0 {
        return Err(Error::unwritable(format!(
            "board number 0: {} boards are numbered from 1",
            info.name
        )));
    }
    if let Some(max) = info.max_board
        && number > max
    {
        return Err(Error::unwritable(format!(
            "board {number} does not fit: {} holds boards 1..{max}",
            info.name
        )));
    }
    Ok(())
}

/// The error `format` gives reading `data`, and its place (for the readers' tests: it panics
/// when `data` reads, or when the error has no place).
#[cfg(test)]
pub(crate) fn read_error(
    format: &dyn DealFormat,
    data: impl AsRef<[u8]>,
) -> (Error, InputPosition) {
    let e = format.read(data.as_ref()).unwrap_err();
    let at = e.position().unwrap();
    (e, at)
}
