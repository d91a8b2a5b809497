//! PBN 2.1 files (FORMATS.md §4; Portable Bridge Notation 2.1, tistis.nl/pbn): a tolerant
//! reader and a canonical writer.
//!
//! # Reading (FORMATS.md §4 import)
//! The file is read as bytes, line by line (`\n` or `\r\n`), without allocating per line:
//! - `%` lines (header and directives) are skipped; an empty (or blank) line ends a game.
//! - Tags `[Name "value"]`, one or more a line, in any order. The value ends at the first `"]`
//!   that is followed by the end of the line or by another tag or comment, so a value may
//!   hold `"` (escapes like `\"` are kept as written). Values may be UTF-8 or Latin-1; a value
//!   `#` takes the previous game's value of that tag (PBN tag value inheritance). Every tag
//!   is kept in [`GameRecord::tags`] in file order.
//! - `[Deal]` (any first seat, ranks in any order, `10` for the ten, one unknown hand `-`: the
//!   deals [`parse_deal`](dealdex_model::deal_string::parse_deal) accepts, read by the same codec
//!   on bytes, the first problem from the left being the error) is required. A game with a `[Deal]`
//!   or `[Board]` tag but no complete deal is skipped and reported in
//!   [`super::FileBoards::skipped`] (docs/GUIDE.md "Deal files"): a deal `?` or empty, `N:` alone,
//!   or partial — hands unknown (`-`) or empty (`...`) as teaching and bidding files write
//!   auction-only boards (`N:AKQ.AKQ.AKQ.AKQJ - - -`, `N:... ... ... ...`): two or more hands
//!   missing. One missing hand is completed from the other three. Three or four hands that are not
//!   13 cards each, a hand of 14 or more, a card twice and a bad rank or seat are errors. `[Board]`
//!   gives [`Board::number`] (`0` and numbers above `u64` are errors, `?` or text gives `None`),
//!   `[Dealer]` and `[Vulnerable]` (`None`/`Love`/`-`, `NS`, `EW`, `All`/`Both`) the explicit
//!   dealer and vulnerability (`?` or empty: `None`).
//! - `{…}` commentary (also over several lines) and `;` comments (to the end of the line) are
//!   kept in [`GameRecord::comments`] without their delimiters (`\r\n` inside becomes `\n`).
//! - `[Auction "<seat>"]` is followed by call tokens (`1D`, `1NT`, `Pass`, `X`, `XX`, `AP`,
//!   `-`, `*`, with `!`/`?` suffixes, note references `=1=` and NAGs `$1` as their own tokens)
//!   up to the next tag or empty line; the `[Note "n:text"]` tags that follow become
//!   [`Auction::notes`]. `[Play "<seat>"]` is followed by tricks of four tokens (cards `SK`,
//!   `HT`, `C10`, either case; `-` for a card not recorded; `*` ends the play; `=1=` and `$1`
//!   are skipped). `tricks[t][j]` is the card of seat `leader.rotate(j)` in trick `t`: PBN's
//!   own column layout, not play order. A section tag whose value is `?` or empty has no
//!   section. Notes after the play are kept in the tags only (and written back after the
//!   play); the data lines of other sections are not kept.
//! - Double-dummy tags (`crates/formats/src/pbn_dd.rs`): `[DoubleDummyTricks]` (20 hex digits) and
//!   `[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]` with its 20 data lines give
//!   [`Board::dd`] (both present: they must agree); `[OptimumScore]` must then be the table's
//!   par for the board's dealer and vulnerability. These tags and `[ParContract]` are not
//!   kept in the record when a table is read (the writer makes them from the table); a bad
//!   hex digit, trick count, declarer or strain, or a wrong par score is an error naming the
//!   line (and column). A table with fewer than 20 results (some programs write one row) is
//!   ignored with a warning in [`super::FileBoards::warnings`]: the deal is read without it.
//! - A second `[Deal]`, `[Board]`, … (any of the mandatory tags, `[Auction]`, `[Play]`) in one
//!   game starts a new game, for files without empty lines between games.
//! - A game that is exactly dealdex's own export template (the 15 mandatory tags in export
//!   order, everything but Event, Board, Dealer, Vulnerable and Deal `?`, nothing else) is
//!   read without a [`GameRecord`] (`game: None`) when its Event is `?`, else with a record
//!   holding only the Event tag: the other tags are unknown or in the board's fields, and
//!   writing the board gives the same text back. This is the fast path for dealdex's own
//!   exports (a full record costs some 30 allocations a game). A file of 1 MiB or more made of
//!   such games alone (with `%` and empty lines) is cut at game starts and read on rayon's
//!   threads: 1,000,000 boards converted in 1.5 s instead of 1.7 s on 2 cores. Anything else
//!   in it (a comment, an auction, a `#` value, `\r\n` line ends) and the file is read line
//!   by line as above, so the boards are the same either way.
//!
//! Errors name the line, and the column (1-based, in characters) where one is known: a
//! malformed deal (the bad character, the hand with a wrong count, the card held twice), a bad
//! `[Board]`, `[Dealer]`, `[Vulnerable]`, `[Auction]` or `[Play]` value, a bad call or card
//! token, a tag without a closing `"]`, a `{` comment that is never closed.
//!
//! # Writing (FORMATS.md §4 export)
//! [`DealFormat::write_header`] writes `% PBN 2.1` and `% EXPORT`. Each game is preceded by one
//! empty line and starts with the 15 mandatory tags in export order: Board, Dealer and
//! Vulnerable from the board ([`Board::dealer_or_default`], [`Board::vulnerability_or_default`]),
//! the deal canonical with the dealer first (`crate::push_deal`), Event from the record, else
//! [`WriteOptions::event`] (a `"` becomes `'`), else `?`, the rest from the record or `?`. A
//! board without a record whose dealer and vulnerability are its number's gives the same text
//! as `crate::push_game`. Then come the record's
//! other tags in their order, each commentary as `{text}` (as `;text` when the text holds `}`
//! and is one line; a `}` inside a multi-line text becomes `)`), the auction (`[Auction]`, the
//! calls four a line with their note references and NAGs after them, then its `[Note]` tags)
//! and the play (`[Play]`, one line of four tokens a trick, `-` for a card not recorded, `*`
//! after fewer than 13 tricks, then the notes that followed the `[Play]` tag). A board with a
//! double-dummy table ([`Board::dd`]) gets `[DoubleDummyTricks]`, `[OptimumScore]` and
//! `[ParContract]` (par for its dealer and vulnerability) and the `[OptimumResultTable]`
//! section after its tags. Line breaks inside values become spaces. `dealdex dealer`'s
//! `printpbn` writes its games through the same writer in Debian dealer's layout
//! (`GameLayout::Dealer`: the tags it gives, no `[Scoring]`, the deal from North, the empty
//! line after the game).

use std::borrow::Cow;
use std::io::BufRead as _;

use super::pbn_dd::{self, TableCells};
use super::stream::{ChunkState, Chunking};
use super::text::{push_u64, suit_index};
use super::{
    Auction, Board, DealFormat, Error, FileBoards, FormatInfo, GameRecord, InputPosition,
    NO_COMPLETE_DEAL, Play, SkippedBoard, WriteOptions, check_board_limit,
};
use crate::dd::{TablePar, TrickTable};
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Seat};
use crate::model::deal::Deal;
use crate::model::deal_string::{parse_deal_bytes, push_deal_bytes};
use crate::model::text::{column, rank_index};

/// PBN 2.1 files (FORMATS.md §4): tolerant import of any PBN file, canonical export with the
/// mandatory tags in export order, keeping tags, commentary, auction and play (see the module
/// documentation for the details and the errors).
pub struct Pbn;

/// Cut into games where a tag starts a line after an empty line.
static INFO: FormatInfo = FormatInfo::new("pbn", &["pbn"], "PBN 2.1 files (FORMATS.md §4)")
    .numbered()
    .cut(Chunking::PbnGames);

/// The export template's text before each of the five values a game of it has (Event,
/// Board, Dealer, Vulnerable, Deal), the other tags' `?` included; [`TEMPLATE_END`] follows
/// the last.
const TEMPLATE_BEFORE: [&[u8]; 5] = [
    b"[Event \"",
    b"[Site \"?\"]\n[Date \"?\"]\n[Board \"",
    b"[West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n[Dealer \"",
    b"[Vulnerable \"",
    b"[Deal \"",
];

/// The export template's tags after the Deal.
const TEMPLATE_END: &[u8] =
    b"[Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n[Result \"?\"]\n";

/// The first lines of a PBN export file.
pub(crate) const HEADER: &str = "% PBN 2.1\n% EXPORT\n";

/// The mandatory tags in export order (FORMATS.md §4).
const MANDATORY: [&str; 15] = [
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
];
const EVENT: usize = 0;
const BOARD: usize = 3;
const DEALER: usize = 8;
const VULNERABLE: usize = 9;
const DEAL: usize = 10;
/// Tag indexes beyond the mandatory ones, for [`tag_index`].
const AUCTION: usize = 15;
const PLAY: usize = 16;

/// The index of a mandatory tag (0..15), `[Auction]` (15) or `[Play]` (16).
fn tag_index(name: &[u8]) -> Option<usize> {
    Some(match name {
        b"Event" => 0,
        b"Site" => 1,
        b"Date" => 2,
        b"Board" => 3,
        b"West" => 4,
        b"North" => 5,
        b"East" => 6,
        b"South" => 7,
        b"Dealer" => 8,
        b"Vulnerable" => 9,
        b"Deal" => 10,
        b"Scoring" => 11,
        b"Declarer" => 12,
        b"Contract" => 13,
        b"Result" => 14,
        b"Auction" => AUCTION,
        b"Play" => PLAY,
        _ => return None,
    })
}

impl DealFormat for Pbn {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        Ok(read_pbn(data)?.boards)
    }

    /// Reads every game; a game with a `[Deal]` or `[Board]` tag but no complete deal is
    /// skipped, and an incomplete `[OptimumResultTable]` is ignored with a warning (see the
    /// module documentation).
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        read_pbn(data)
    }

    /// Reads a piece with its line numbers and records counted from the file's start, a `#`
    /// value of its first game copying the carried tags.
    fn read_chunk(&self, data: &[u8], state: &mut ChunkState) -> Result<FileBoards, Error> {
        read_pbn_piece(data, state)
    }

    fn write_header(&self, _opts: &WriteOptions, out: &mut Vec<u8>) -> Result<(), Error> {
        out.extend_from_slice(HEADER.as_bytes());
        Ok(())
    }

    /// Checks every board's number (a board without one counts as 0).
    fn check_boards(&self, boards: &[Board], _opts: &WriteOptions) -> Result<(), Error> {
        for b in boards {
            check_board_limit(&INFO, b.number.unwrap_or(0))?;
        }
        Ok(())
    }

    fn write_board(&self, b: &Board, opts: &WriteOptions, out: &mut Vec<u8>) {
        write_game(out, b, &event_value(&opts.event, true), GameLayout::Export);
    }
}

// ---------------------------------------------------------------------------------------------
// Reader
// ---------------------------------------------------------------------------------------------

/// Where the tokens of the current line go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    /// No auction or play: tokens (e.g. supplemental section data) are skipped.
    Other,
    /// Call tokens of `[Auction]`.
    Auction,
    /// Card tokens of `[Play]`.
    Play,
    /// `declarer strain tricks` tokens of `[OptimumResultTable]`.
    DdTable,
}

/// Which section `[Note]` tags belong to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NoteTarget {
    None,
    Auction,
    Play,
}

/// The game being read, borrowing from the file; reused from game to game.
struct Game<'a> {
    tags: Vec<(&'a [u8], &'a [u8])>,
    /// Bit i: tag index i (see [`tag_index`]) seen in this game.
    seen: u32,
    /// How many tags so far follow dealdex's export template; `usize::MAX` once one does not.
    template: usize,
    deal: Option<Deal>,
    number: Option<u64>,
    dealer: Option<Seat>,
    vulnerability: Option<Vulnerability>,
    comments: Vec<String>,
    auction: Option<Seat>,
    calls: Vec<&'a [u8]>,
    notes: Vec<(u32, &'a [u8])>,
    play: Option<Seat>,
    tricks: Vec<[Option<Card>; 4]>,
    trick: [Option<Card>; 4],
    in_trick: usize,
    play_done: bool,
    notes_to: NoteTarget,
    /// `[DoubleDummyTricks]`: the table and the tag's line.
    dd_hex: Option<(TrickTable, usize)>,
    /// `[OptimumResultTable]`: the cells so far and the tag's line.
    dd_cells: Option<(TableCells, usize)>,
    /// `[OptimumScore]`: North-South's score, the line and the column of the value.
    optimum_score: Option<(i32, usize, usize)>,
    /// The game's double-dummy table, settled when the game ends.
    dd: Option<TrickTable>,
    /// The line of the game's first tag (0: none yet).
    first_line: usize,
}

impl<'a> Game<'a> {
    fn new() -> Game<'a> {
        Game {
            tags: Vec::with_capacity(20),
            seen: 0,
            template: 0,
            deal: None,
            number: None,
            dealer: None,
            vulnerability: None,
            comments: Vec::new(),
            auction: None,
            calls: Vec::new(),
            notes: Vec::new(),
            play: None,
            tricks: Vec::new(),
            trick: [None; 4],
            in_trick: 0,
            play_done: false,
            notes_to: NoteTarget::None,
            dd_hex: None,
            dd_cells: None,
            optimum_score: None,
            dd: None,
            first_line: 0,
        }
    }

    fn clear(&mut self) {
        self.tags.clear();
        self.seen = 0;
        self.template = 0;
        self.deal = None;
        self.number = None;
        self.dealer = None;
        self.vulnerability = None;
        self.comments.clear();
        self.auction = None;
        self.calls.clear();
        self.notes.clear();
        self.play = None;
        self.tricks.clear();
        self.trick = [None; 4];
        self.in_trick = 0;
        self.play_done = false;
        self.notes_to = NoteTarget::None;
        self.dd_hex = None;
        self.dd_cells = None;
        self.optimum_score = None;
        self.dd = None;
        self.first_line = 0;
    }

    /// Closes an incomplete trick of the play section.
    fn end_trick(&mut self) {
        if self.in_trick > 0 {
            self.tricks.push(self.trick);
            self.trick = [None; 4];
            self.in_trick = 0;
        }
    }

    /// Follows the tags against dealdex's export template: the mandatory tags in export
    /// order, all `?` but Event, Board, Dealer, Vulnerable and Deal.
    fn track_template(&mut self, idx: Option<usize>, value: &[u8]) {
        let i = self.template;
        self.template = if idx == Some(i)
            && (matches!(i, EVENT | BOARD | DEALER | VULNERABLE | DEAL) || value == b"?")
        {
            i + 1
        } else {
            usize::MAX
        };
    }

    /// The game's record (see the module docs for dealdex's export template).
    fn record(&self) -> Option<Box<GameRecord>> {
        if self.template == MANDATORY.len()
            && self.comments.is_empty()
            && self.auction.is_none()
            && self.play.is_none()
        {
            let event = self.tags.first().map_or(&b"?"[..], |t| t.1);
            return (event != b"?").then(|| {
                Box::new(GameRecord {
                    tags: vec![("Event".to_string(), text(event))],
                    ..GameRecord::default()
                })
            });
        }
        Some(Box::new(GameRecord {
            tags: self.tags.iter().map(|&(n, v)| (text(n), text(v))).collect(),
            auction: self.auction.map(|first| Auction {
                first,
                calls: self.calls.iter().map(|&c| text(c)).collect(),
                notes: self.notes.iter().map(|&(n, t)| (n, text(t))).collect(),
            }),
            play: self.play.map(|leader| Play {
                leader,
                tricks: self.tricks.clone(),
            }),
            comments: self.comments.clone(),
            source: None,
        }))
    }
}

/// Bytes as text: UTF-8 when they are, else Latin-1 (every byte one character).
fn text(b: &[u8]) -> String {
    match std::str::from_utf8(b) {
        Ok(s) => s.to_owned(),
        Err(_) => b.iter().map(|&c| c as char).collect(),
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

fn skip_ws(line: &[u8], mut p: usize) -> usize {
    while p < line.len() && is_ws(line[p]) {
        p += 1;
    }
    p
}

fn trim(v: &[u8]) -> &[u8] {
    let s = skip_ws(v, 0);
    let mut e = v.len();
    while e > s && is_ws(v[e - 1]) {
        e -= 1;
    }
    &v[s..e]
}

/// The reader's state over the whole file.
struct Reader<'a> {
    boards: Vec<Board>,
    /// Games with a `[Deal]` or `[Board]` tag but no complete deal.
    skipped: Vec<SkippedBoard>,
    warnings: Vec<String>,
    game: Game<'a>,
    prev_tags: Vec<(&'a [u8], &'a [u8])>,
    section: Section,
    /// An open `{` comment: its line and the text so far.
    comment: Option<(usize, Vec<u8>)>,
    line_no: usize,
    line: &'a [u8],
    /// Records (boards and skipped boards) before the piece being read (see
    /// [`Pbn::read_chunk`]).
    record_base: usize,
}

/// Files at least this long are first tried in parallel chunks ([`read_template_chunks`]).
const PARALLEL_BYTES: usize = 1 << 20;

fn read_pbn(data: &[u8]) -> Result<FileBoards, Error> {
    let body = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    if body.len() >= PARALLEL_BYTES
        && rayon::current_num_threads() > 1
        && let Some(boards) = read_template_chunks(body, 4 * rayon::current_num_threads())
    {
        return Ok(FileBoards {
            boards,
            ..FileBoards::default()
        });
    }
    read_pbn_serial(body, &mut Reader::new())
}

/// A piece of a file for [`Pbn::read_chunk`]: [`read_pbn`] with the positions and the
/// tags carried in `state`, which gets the piece's last game's tags.
fn read_pbn_piece(data: &[u8], state: &mut ChunkState) -> Result<FileBoards, Error> {
    let body = match state.is_first() {
        true => data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data),
        false => data,
    };
    if body.len() >= PARALLEL_BYTES
        && rayon::current_num_threads() > 1
        && let Some(boards) = read_template_chunks(body, 4 * rayon::current_num_threads())
    {
        // The next piece's `#` values copy the tags of this piece's last game.
        let last = body
            .windows(3)
            .rposition(|w| w == b"\n\n[")
            .map_or(0, |p| p + 2);
        let mut r = Reader::new();
        if read_pbn_serial(&body[last..], &mut r).is_ok() {
            state.carried_tags = owned_tags(&r.prev_tags);
        }
        return Ok(FileBoards {
            boards,
            ..FileBoards::default()
        });
    }
    let carried = std::mem::take(&mut state.carried_tags);
    let mut r = Reader::new();
    r.line_no = state.line_base;
    r.record_base = state.record_base;
    r.prev_tags = carried.iter().map(|(n, v)| (&n[..], &v[..])).collect();
    let read = read_pbn_serial(body, &mut r);
    let next = owned_tags(&r.prev_tags);
    drop(r);
    state.carried_tags = match read {
        Ok(_) => next,
        Err(_) => carried,
    };
    read
}

/// Tags borrowed from a file, owned.
fn owned_tags(tags: &[(&[u8], &[u8])]) -> Vec<(Vec<u8>, Vec<u8>)> {
    tags.iter().map(|(n, v)| (n.to_vec(), v.to_vec())).collect()
}

/// Reads a file made only of games in dealdex's export template (the fast path of
/// [`Reader::template_game`]), `%` lines and empty lines, cut into about `pieces` chunks at
/// game starts (`[` after an empty line) that are read on rayon's threads. `None` as soon as a
/// chunk holds anything else (a comment, an auction, a `#` value, `\r\n` line ends, …): the
/// caller then reads the file serially, so the boards are always those of
/// [`read_pbn_serial`]. Such a file has no skipped board and no warning, and a game in the
/// template reads the same whatever came before it.
fn read_template_chunks(data: &[u8], pieces: usize) -> Option<Vec<Board>> {
    use rayon::prelude::*;
    let step = (data.len() / pieces.max(1)).max(1);
    let mut starts = vec![0];
    while let Some(&last) = starts.last() {
        let from = last + step;
        let Some(at) = data
            .get(from..)
            .and_then(|d| d.windows(3).position(|w| w == b"\n\n["))
        else {
            break;
        };
        starts.push(from + at + 2);
    }
    starts.push(data.len());
    let chunks: Vec<&[u8]> = starts.windows(2).map(|w| &data[w[0]..w[1]]).collect();
    let parts: Vec<Option<Vec<Board>>> = chunks.par_iter().map(|c| read_template_only(c)).collect();
    let mut boards = Vec::with_capacity(parts.iter().flatten().map(Vec::len).sum());
    for part in parts {
        boards.extend(part?);
    }
    Some(boards)
}

/// One chunk of [`read_template_chunks`]: its boards, or `None` at the first line that is not
/// empty, a `%` line or the start of a game in the export template.
fn read_template_only(chunk: &[u8]) -> Option<Vec<Board>> {
    let mut r = Reader::new();
    r.boards.reserve(chunk.len() / 250);
    let mut rest = chunk;
    while let Some(&first) = rest.first() {
        rest = match first {
            b'\n' => &rest[1..],
            b'%' => rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(&[][..], |n| &rest[n + 1..]),
            b'[' => &rest[r.template_game(rest)?.min(rest.len())..],
            _ => return None,
        };
    }
    Some(r.boards)
}

/// Reads the file line by line (`data` without its byte-order mark) with `r`, which is new
/// or set up to continue a file ([`read_pbn_piece`]); the boards are taken out of `r`, its
/// last game's tags stay.
fn read_pbn_serial<'a>(data: &'a [u8], r: &mut Reader<'a>) -> Result<FileBoards, Error> {
    let mut rest = data;
    r.boards.reserve(rest.len() / 400);
    while !rest.is_empty() {
        if rest.first() == Some(&b'[')
            && r.at_game_start()
            && let Some(used) = r.template_game(rest)
        {
            rest = &rest[used.min(rest.len())..];
            continue;
        }
        let before = rest;
        // `skip_until` on a byte slice finds the newline with std's memchr, without copying.
        let n = rest.skip_until(b'\n').unwrap_or(before.len()).max(1);
        let mut line = &before[..n.min(before.len())];
        if let Some(l) = line.strip_suffix(b"\n") {
            line = l;
        }
        if let Some(l) = line.strip_suffix(b"\r") {
            line = l;
        }
        r.line_no += 1;
        r.line = line;
        r.process_line()?;
    }
    if let Some((at, _)) = r.comment {
        return Err(Error::malformed(
            InputPosition::at_line(at),
            "commentary `{` is never closed (expected `}`)",
        ));
    }
    r.flush()?;
    Ok(FileBoards {
        boards: std::mem::take(&mut r.boards),
        skipped: std::mem::take(&mut r.skipped),
        warnings: std::mem::take(&mut r.warnings),
        inconsistencies: Vec::new(),
    })
}

impl<'a> Reader<'a> {
    fn new() -> Reader<'a> {
        Reader {
            boards: Vec::new(),
            skipped: Vec::new(),
            warnings: Vec::new(),
            game: Game::new(),
            prev_tags: Vec::with_capacity(20),
            section: Section::Other,
            comment: None,
            line_no: 0,
            line: &[],
            record_base: 0,
        }
    }

    /// The place of byte `off` of the current line.
    fn place(&self, off: usize) -> InputPosition {
        InputPosition::at_line_column(self.line_no, column(self.line, off))
    }

    /// A [`Malformed`](crate::ErrorKind::Malformed) error at byte `off` of the current line.
    fn err_at(&self, off: usize, message: impl Into<String>) -> Error {
        Error::malformed(self.place(off), message)
    }

    /// Ends the current game: a board when it has a deal, else a skipped board when it has a
    /// `[Deal]` or `[Board]` tag (a game with neither is no board).
    ///
    /// # Errors
    /// An incomplete `[OptimumResultTable]`, one that disagrees with `[DoubleDummyTricks]`,
    /// or an `[OptimumScore]` that is not the table's par.
    fn flush(&mut self) -> Result<(), Error> {
        self.end_section();
        self.settle_dd()?;
        if let Some(deal) = self.game.deal {
            self.boards.push(Board {
                number: self.game.number,
                dealer: self.game.dealer,
                vulnerability: self.game.vulnerability,
                deal,
                game: self.game.record(),
                dd: self.game.dd,
            });
        } else if self.game.seen & (1 << DEAL | 1 << BOARD) != 0 {
            self.skipped.push(SkippedBoard {
                board: self.game.number,
                record: self.record_base + self.boards.len() + self.skipped.len() + 1,
                line: Some(self.game.first_line).filter(|&l| l > 0),
                reason: NO_COMPLETE_DEAL.to_string(),
            });
        }
        if !self.game.tags.is_empty() {
            std::mem::swap(&mut self.prev_tags, &mut self.game.tags);
        }
        self.game.clear();
        Ok(())
    }

    /// Settles the game's double-dummy table from its tags (see [`super::pbn_dd`]): the
    /// tags are then dropped from the record (the writer makes them from the table); without
    /// a table they stay ordinary tags.
    fn settle_dd(&mut self) -> Result<(), Error> {
        let g = &mut self.game;
        let from_cells = match &g.dd_cells {
            // An incomplete table (as some programs write one row of it) is ignored, with a
            // warning: the deal still counts.
            Some((cells, line)) if cells.incomplete() => {
                let why = cells.finish().err().unwrap_or_default();
                self.warnings
                    .push(format!("line {line}: {why}: the table is ignored"));
                g.tags.retain(|(n, _)| *n != b"OptimumResultTable");
                g.template = usize::MAX;
                None
            }
            Some((cells, line)) => Some((
                cells
                    .finish()
                    .map_err(|e| Error::malformed(InputPosition::at_line(*line), e))?,
                *line,
            )),
            None => None,
        };
        let table = match (from_cells, g.dd_hex) {
            (Some((a, line)), Some((b, hex_line))) if a != b => {
                return Err(Error::malformed(
                    InputPosition::at_line(line),
                    format!(
                        "[OptimumResultTable] disagrees with [DoubleDummyTricks] of line {hex_line}"
                    ),
                ));
            }
            (Some((t, _)), _) | (None, Some((t, _))) => t,
            (None, None) => {
                if g.tags.iter().any(|(n, _)| is_dd_tag(n)) {
                    g.template = usize::MAX;
                }
                return Ok(());
            }
        };
        if let Some((score, line, column)) = g.optimum_score
            && (g.dealer.is_some() || g.number.is_some())
            && (g.vulnerability.is_some() || g.number.is_some())
        {
            let dealer = g.dealer.or(g.number.map(crate::model::board::board_dealer));
            let vul = g
                .vulnerability
                .or(g.number.map(crate::model::board::board_vulnerability));
            if let (Some(dealer), Some(vul)) = (dealer, vul) {
                let par = table.par(dealer, vul);
                if par.score != score {
                    return Err(Error::malformed(
                        InputPosition::at_line_column(line, column),
                        format!(
                            "[OptimumScore] says NS {score}, but the double-dummy table's par \
                             with dealer {dealer} and vulnerability {vul} is NS {} ({par})",
                            par.score
                        ),
                    ));
                }
            }
        }
        g.tags.retain(|(n, _)| !is_dd_tag(n));
        g.dd = Some(table);
        Ok(())
    }

    /// True when nothing of a game has been read yet (the fast path may start).
    fn at_game_start(&self) -> bool {
        self.comment.is_none() && self.game.tags.is_empty() && self.game.comments.is_empty()
    }

    /// The fast path: when `d` starts with a whole game in dealdex's export template (`\n`
    /// line ends, Board a number, Dealer and Vulnerable in export spelling, a valid deal,
    /// then an empty line or the end), reads it and returns the bytes used; else `None` and
    /// nothing changes (the general path then reads it, errors included).
    fn template_game(&mut self, d: &'a [u8]) -> Option<usize> {
        let mut p = 0;
        let lit = |p: &mut usize, s: &[u8]| {
            let ok = d.get(*p..*p + s.len()) == Some(s);
            *p += s.len();
            ok.then_some(())
        };
        let value = |p: &mut usize| {
            let start = *p;
            let len = d
                .get(start..)?
                .iter()
                .position(|&b| b == b'"' || b == b'\n')?;
            let end = start + len;
            if d.get(end..end + 3) != Some(b"\"]\n") {
                return None;
            }
            *p = end + 3;
            Some(&d[start..end])
        };
        let mut values: [&'a [u8]; 5] = [b""; 5];
        for (text, value_at) in values.iter_mut().zip(TEMPLATE_BEFORE) {
            lit(&mut p, value_at)?;
            *text = value(&mut p)?;
        }
        lit(&mut p, TEMPLATE_END)?;
        let [event, board, dealer_text, vulnerable, deal_text] = values;
        if !(p == d.len() || d[p] == b'\n' || d[p..].starts_with(b"\r\n")) || event == b"#" {
            return None;
        }
        let number = match board.len() {
            1..=18 if board.iter().all(u8::is_ascii_digit) => board
                .iter()
                .fold(0u64, |n, &c| n * 10 + u64::from(c - b'0')),
            _ => return None,
        };
        let dealer = match dealer_text {
            b"N" => Seat::North,
            b"E" => Seat::East,
            b"S" => Seat::South,
            b"W" => Seat::West,
            _ => return None,
        };
        let vulnerability = match vulnerable {
            b"None" => Vulnerability::None,
            b"NS" => Vulnerability::NorthSouth,
            b"EW" => Vulnerability::EastWest,
            b"All" => Vulnerability::All,
            _ => return None,
        };
        if number == 0 {
            return None;
        }
        let deal = parse_deal_bytes(deal_text).ok()??;
        let q: &'a [u8] = b"?";
        let g = &mut self.game;
        g.tags.extend_from_slice(&[
            (b"Event", event),
            (b"Site", q),
            (b"Date", q),
            (b"Board", board),
            (b"West", q),
            (b"North", q),
            (b"East", q),
            (b"South", q),
            (b"Dealer", dealer_text),
            (b"Vulnerable", vulnerable),
            (b"Deal", deal_text),
            (b"Scoring", q),
            (b"Declarer", q),
            (b"Contract", q),
            (b"Result", q),
        ]);
        g.template = MANDATORY.len();
        g.number = Some(number);
        g.dealer = Some(dealer);
        g.vulnerability = Some(vulnerability);
        g.deal = Some(deal);
        g.first_line = self.line_no + 1;
        self.line_no += MANDATORY.len();
        // A template game has no double-dummy tags, so settling them cannot fail.
        self.flush().ok()?;
        Some(p)
    }

    fn end_section(&mut self) {
        if self.section == Section::Play {
            self.game.end_trick();
        }

        self.section = Section::Other;
    }

    fn process_line(&mut self) -> Result<(), Error> {
        let line = self.line;
        let mut p;
        if let Some((_, buf)) = &mut self.comment {
            match line.iter().position(|&b| b == b'}') {
                Some(end) => {
                    buf.extend_from_slice(&line[..end]);
                    let t = text(buf);
                    self.comment = None;
                    self.game.comments.push(t);
                    p = end + 1;
                }
                None => {
                    buf.extend_from_slice(line);
                    buf.push(b'\n');
                    return Ok(());
                }
            }
        } else {
            p = skip_ws(line, 0);
            if p == line.len() {
                self.flush()?;
                return Ok(());
            }
            if line[p] == b'%' {
                return Ok(());
            }
        }
        loop {
            p = skip_ws(line, p);
            let Some(&c) = line.get(p) else {
                return Ok(());
            };
            match c {
                b'[' => p = self.tag(p)?,
                b'{' => match line[p + 1..].iter().position(|&b| b == b'}') {
                    Some(len) => {
                        self.game.comments.push(text(&line[p + 1..p + 1 + len]));
                        p += len + 2;
                    }
                    None => {
                        let mut buf = line[p + 1..].to_vec();
                        buf.push(b'\n');
                        self.comment = Some((self.line_no, buf));
                        return Ok(());
                    }
                },
                b';' => {
                    self.game.comments.push(text(&line[p + 1..]));
                    return Ok(());
                }
                _ => {
                    let start = p;
                    while p < line.len() && !is_ws(line[p]) && !matches!(line[p], b'{' | b';') {
                        p += 1;
                    }
                    self.token(start, &line[start..p])?;
                }
            }
        }
    }

    /// Parses the tag starting at `line[p] == '['`; returns the offset after its `]`.
    fn tag(&mut self, p: usize) -> Result<usize, Error> {
        let line = self.line;
        let mut q = skip_ws(line, p + 1);
        let name_start = q;
        while q < line.len() && !is_ws(line[q]) && !matches!(line[q], b'"' | b']' | b'[') {
            q += 1;
        }
        let name = &line[name_start..q];
        if name.is_empty() {
            return Err(self.err_at(name_start, "tag without a name (expected [Name \"value\"])"));
        }
        q = skip_ws(line, q);
        if line.get(q) != Some(&b'"') {
            return Err(self.err_at(
                q,
                format!(
                    "tag [{}] has no quoted value (expected [Name \"value\"])",
                    text(name)
                ),
            ));
        }
        let value_start = q + 1;
        // The value ends at the first `"]` followed by the end of the line, a tag or a
        // comment; failing that, at the first `"]` (the rest of the line is then skipped).
        let mut r = value_start;
        let mut first_close = None;
        let (value_end, after) = loop {
            let Some(k) = line[r..].iter().position(|&b| b == b'"') else {
                match first_close {
                    Some(close) => break close,
                    None => {
                        return Err(self.err_at(
                            line.len(),
                            format!(
                                "tag [{}] has no closing \"] (expected [Name \"value\"])",
                                text(name)
                            ),
                        ));
                    }
                }
            };
            let quote = r + k;
            let s = skip_ws(line, quote + 1);
            if line.get(s) == Some(&b']') {
                let t = skip_ws(line, s + 1);
                if t == line.len() || matches!(line[t], b'[' | b'{' | b';') {
                    break (quote, s + 1);
                }
                first_close.get_or_insert((quote, s + 1));
            }
            r = quote + 1;
        };
        let idx = tag_index(name);
        if let Some(i) = idx {
            if self.game.seen & (1 << i) != 0 {
                self.flush()?;
            }
            self.game.seen |= 1 << i;
        }
        if self.game.first_line == 0 {
            self.game.first_line = self.line_no;
        }
        let mut value = &line[value_start..value_end];
        if value == b"#"
            && let Some(&(_, v)) = self.prev_tags.iter().find(|(n, _)| *n == name)
        {
            value = v;
        }
        self.tag_value(idx, name, value, value_start)?;
        Ok(after)
    }

    /// Handles one tag of [`tag_index`] `idx`; `at` is the byte offset of its value in the
    /// line (for errors).
    fn tag_value(
        &mut self,
        idx: Option<usize>,
        name: &'a [u8],
        value: &'a [u8],
        at: usize,
    ) -> Result<(), Error> {
        self.end_section();
        let v = trim(value);
        let unknown = v.is_empty() || v == b"?";
        // Double-dummy tags are settled when the game ends (`settle_dd`): a dealdex export
        // with them is still the template.
        if is_dd_tag(name) && !unknown {
            return self.dd_tag(name, value, at);
        }
        self.game.track_template(idx, value);
        self.game.tags.push((name, value));
        match idx {
            Some(DEAL) => {
                if !unknown {
                    // A partial deal gives none: the game is skipped (module docs).
                    self.game.deal = parse_deal_bytes(value).map_err(|(off, error)| {
                        let message = format!("deal: {error}");
                        match error.kind() {
                            crate::model::ErrorKind::PbnSyntax { .. } => {
                                self.err_at(at + off, message)
                            }
                            _ => Error::not_a_deal(self.place(at + off), message),
                        }
                    })?;
                }
            }
            Some(BOARD) => self.game.number = self.board_number(v, value, at)?,
            Some(DEALER) => {
                self.game.dealer = if unknown {
                    None
                } else {
                    Some(self.seat(v, at, "dealer")?)
                };
            }
            Some(VULNERABLE) => {
                self.game.vulnerability = if unknown {
                    None
                } else {
                    Some(parse_vulnerability(v).ok_or_else(|| {
                        self.err_at(
                            at,
                            crate::model::ErrorKind::UnknownVulnerability { text: text(v) }
                                .to_string(),
                        )
                    })?)
                };
            }
            Some(AUCTION) => {
                self.game.notes_to = NoteTarget::Auction;
                if !unknown {
                    self.game.auction = Some(self.seat(v, at, "auction")?);
                    self.section = Section::Auction;
                }
            }
            Some(PLAY) => {
                self.game.notes_to = NoteTarget::Play;
                if !unknown {
                    self.game.play = Some(self.seat(v, at, "play")?);
                    self.section = Section::Play;
                }
            }
            Some(_) => {}
            None => {
                if name == b"Note"
                    && self.game.notes_to == NoteTarget::Auction
                    && let Some(colon) = value.iter().position(|&b| b == b':')
                    && let Some(n) = parse_u32(trim(&value[..colon]))
                {
                    self.game.notes.push((n, &value[colon + 1..]));
                }
            }
        }
        Ok(())
    }

    /// The `Board` tag's number (`v` its trimmed value, `value` as written, at byte `at`);
    /// `None` for `?`, PBN's unknown value: the board is numbered by its place.
    fn board_number(&self, v: &[u8], value: &[u8], at: usize) -> Result<Option<u64>, Error> {
        if v == b"?" {
            return Ok(None);
        }
        // Anything but ASCII digits (`-1`, `1e5`, `0x10`, `+3`, `3.0`, `٣`, an empty value)
        // is no board number, and guessing one would store the deal under a wrong board.
        if v.is_empty() || !v.iter().all(u8::is_ascii_digit) {
            return Err(self.err_at(
                at,
                format!(
                    "board number {:?} is not a number (expected ASCII digits 1, 2, …, or \"?\")",
                    text(value)
                ),
            ));
        }
        let n = v.iter().try_fold(0u64, |n, &d| {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        });
        match n {
            Some(0) => Err(self.err_at(at, "board number 0 (PBN boards are numbered from 1)")),
            Some(n) => Ok(Some(n)),
            None => Err(self.err_at(at, format!("board number {} is too large", text(v)))),
        }
    }

    /// One of the double-dummy tags (see [`super::pbn_dd`]), its value at byte `at`.
    fn dd_tag(&mut self, name: &'a [u8], value: &'a [u8], at: usize) -> Result<(), Error> {
        self.game.tags.push((name, value));
        let v = trim(value);
        let lead = value.len() - value.trim_ascii_start().len();
        match name {
            b"DoubleDummyTricks" => {
                let table = pbn_dd::parse_tricks_hex(v)
                    .map_err(|(off, msg)| self.err_at(at + lead + off, msg))?;
                self.game.dd_hex = Some((table, self.line_no));
            }
            b"OptimumResultTable" => {
                if pbn_dd::is_table_header(v) {
                    self.game.dd_cells = Some((TableCells::default(), self.line_no));
                    self.section = Section::DdTable;
                } else {
                    // Columns dealdex does not read: an ordinary tag, its data skipped.
                    self.game.template = usize::MAX;
                }
            }
            b"OptimumScore" => {
                let score = pbn_dd::parse_optimum_score(v).ok_or_else(|| {
                    self.err_at(
                        at + lead,
                        format!(
                            "[OptimumScore] {:?} is not a par score (expected e.g. NS 420 or EW 100)",
                            text(v)
                        ),
                    )
                })?;
                self.game.optimum_score = Some((score, self.line_no, column(self.line, at + lead)));
            }
            _ => {}
        }
        Ok(())
    }

    /// A one-letter seat value (either case).
    fn seat(&self, v: &[u8], at: usize, what: &str) -> Result<Seat, Error> {
        match v {
            [c] => Seat::from_char(*c as char),
            _ => None,
        }
        .ok_or_else(|| {
            self.err_at(
                at,
                format!(
                    "{what} {:?} is not a seat (expected N, E, S, W or ? for unknown)",
                    text(v)
                ),
            )
        })
    }

    /// One token outside tags and comments, at byte `at` of the line.
    fn token(&mut self, at: usize, tok: &'a [u8]) -> Result<(), Error> {
        match self.section {
            Section::Other => {}
            Section::DdTable => {
                if let Some((cells, _)) = &mut self.game.dd_cells
                    && let Err(msg) = cells.token(tok)
                {
                    return Err(self.err_at(at, msg));
                }
            }
            Section::Auction => {
                if !is_call_token(tok) {
                    return Err(self.err_at(
                        at,
                        format!(
                            "{:?} is not a call (expected e.g. 1D, 3NT, Pass, X, XX, AP, -, *, =1=)",
                            text(tok)
                        ),
                    ));
                }
                self.game.calls.push(tok);
            }
            Section::Play => {
                let g = &mut self.game;
                if g.play_done || tok.first() == Some(&b'$') || is_note_ref(tok) {
                    return Ok(());
                }
                if tok == b"*" {
                    g.end_trick();
                    g.play_done = true;
                    return Ok(());
                }
                let card = parse_card(tok).ok_or_else(|| {
                    self.err_at(
                        at,
                        format!(
                            "{:?} is not a card (expected suit and rank like SK, HT, C10, or -)",
                            text(tok)
                        ),
                    )
                })?;
                let g = &mut self.game;
                if let Some(slot) = g.trick.get_mut(g.in_trick) {
                    *slot = card;
                }
                g.in_trick += 1;
                if g.in_trick == 4 {
                    g.tricks.push(g.trick);
                    g.trick = [None; 4];
                    g.in_trick = 0;
                }
            }
        }
        Ok(())
    }
}

/// The double-dummy tags of [`super::pbn_dd`], which the reader settles into [`Board::dd`].
fn is_dd_tag(name: &[u8]) -> bool {
    matches!(
        name,
        b"DoubleDummyTricks" | b"OptimumResultTable" | b"OptimumScore" | b"ParContract"
    )
}

/// A `[Vulnerable]` value as `Vulnerability::from_str` reads it (FORMATS.md §4 import,
/// either case): `None`/`Love`/`-`, `NS`, `EW`, `All`/`Both`.
fn parse_vulnerability(v: &[u8]) -> Option<Vulnerability> {
    let is = |w: &[u8]| v.eq_ignore_ascii_case(w);
    if is(b"None") || is(b"Love") || is(b"-") {
        Some(Vulnerability::None)
    } else if is(b"NS") {
        Some(Vulnerability::NorthSouth)
    } else if is(b"EW") {
        Some(Vulnerability::EastWest)
    } else if is(b"All") || is(b"Both") {
        Some(Vulnerability::All)
    } else {
        None
    }
}

/// A decimal number that fits in `u32`.
fn parse_u32(d: &[u8]) -> Option<u32> {
    if d.is_empty() || !d.iter().all(u8::is_ascii_digit) {
        return None;
    }
    d.iter().try_fold(0u32, |n, &c| {
        n.checked_mul(10)?.checked_add(u32::from(c - b'0'))
    })
}

/// `=n=`: a note reference.
fn is_note_ref(t: &[u8]) -> bool {
    t.len() >= 3
        && t[0] == b'='
        && t[t.len() - 1] == b'='
        && t[1..t.len() - 1].iter().all(u8::is_ascii_digit)
}

/// A PBN auction token (FORMATS.md §4; PBN 2.1 §3.5, either case): a call with optional `!`
/// / `?` suffixes, `-`, `*`, `AP`, a note reference `=n=` or a NAG `$n`.
fn is_call_token(t: &[u8]) -> bool {
    if is_note_ref(t) {
        return true;
    }
    if let [b'$', digits @ ..] = t {
        return !digits.is_empty() && digits.iter().all(u8::is_ascii_digit);
    }
    let mut end = t.len();
    while end > 0 && matches!(t[end - 1], b'!' | b'?') {
        end -= 1;
    }
    let call = &t[..end];
    if call.is_empty() {
        return false;
    }
    if matches!(call, b"-" | b"*") {
        return true;
    }
    let up = |i: usize| call.get(i).map(u8::to_ascii_uppercase);
    match call.len() {
        1 => matches!(up(0), Some(b'X' | b'P')),
        2 if matches!(up(0), Some(b'1'..=b'7')) => {
            matches!(up(1), Some(b'C' | b'D' | b'H' | b'S' | b'N'))
        }
        2 => call.eq_ignore_ascii_case(b"XX") || call.eq_ignore_ascii_case(b"AP"),
        3 => matches!(up(0), Some(b'1'..=b'7')) && call[1..].eq_ignore_ascii_case(b"NT"),
        4 => call.eq_ignore_ascii_case(b"Pass"),
        _ => false,
    }
}

/// A play token: `-` (`Some(None)`), a card such as `SK`, `h10` (`Some(Some(card))`), with
/// optional `!`/`?` suffixes; `None` when it is neither.
fn parse_card(t: &[u8]) -> Option<Option<Card>> {
    let mut end = t.len();
    while end > 0 && matches!(t[end - 1], b'!' | b'?') {
        end -= 1;
    }
    let t = &t[..end];
    if t == b"-" {
        return Some(None);
    }
    let suit = suit_index(*t.first()?)?;
    let rank = match &t[1..] {
        [r] => rank_index(*r)?,
        b"10" => 4,
        _ => return None,
    };
    Some(Card::from_index(suit * 13 + rank))
}

// ---------------------------------------------------------------------------------------------
// Writer
// ---------------------------------------------------------------------------------------------

/// A PBN tag value with its escapes undone: `\"` is `"`, `\\` is `\` (PBN 2.1 §2.4: a
/// string's quote and backslash are escaped with a backslash); any other backslash is kept.
///
/// ```text
/// Club \"Tuesday\" pairs  →  Club "Tuesday" pairs
/// ```
pub fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&next)) if next == '"' || next == '\\' => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// An event name as the `[Event]` value of a game without one: `"` becomes `'`, `?` when
/// empty; with `spaces` (the [`Pbn`] writer, for [`WriteOptions::event`]) line breaks become
/// spaces, without (`crate::push_game`) they are kept.
pub(crate) fn event_value(event: &str, spaces: bool) -> Cow<'_, [u8]> {
    if event.is_empty() {
        return Cow::Borrowed(b"?");
    }
    let breaks = |b: u8| spaces && matches!(b, b'\n' | b'\r');
    if !event.bytes().any(|b| b == b'"' || breaks(b)) {
        return Cow::Borrowed(event.as_bytes());
    }
    event
        .bytes()
        .map(|b| match b {
            b'"' => b'\'',
            b if breaks(b) => b' ',
            b => b,
        })
        .collect()
}
/// Appends a value with line breaks made spaces.
fn push_value(out: &mut Vec<u8>, v: &[u8]) {
    if v.iter().any(|&b| b == b'\n' || b == b'\r') {
        out.extend(
            v.iter()
                .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }),
        );
    } else {
        out.extend_from_slice(v);
    }
}

fn push_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    push_value(out, value);
    out.extend_from_slice(b"\"]\n");
}

/// Appends the double-dummy tags of a board with a table ([`Board::dd`]): the table as
/// `[DoubleDummyTricks]`, par for the board's dealer and vulnerability as `[OptimumScore]`
/// and `[ParContract]`, then the `[OptimumResultTable]` section (see [`super::pbn_dd`]).
fn push_dd_tags(out: &mut Vec<u8>, b: &Board) {
    let Some(table) = &b.dd else {
        return;
    };
    let par = table.par(b.dealer_or_default(), b.vulnerability_or_default());
    push_tag(
        out,
        b"DoubleDummyTricks",
        pbn_dd::tricks_hex(table).as_bytes(),
    );
    push_tag(out, b"OptimumScore", pbn_dd::optimum_score(&par).as_bytes());
    push_tag(out, b"ParContract", pbn_dd::par_contract(&par).as_bytes());
    push_tag(out, b"OptimumResultTable", pbn_dd::TABLE_HEADER.as_bytes());
    pbn_dd::push_table_lines(out, table);
}

/// How [`write_game`] lays out a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameLayout {
    /// PBN export (FORMATS.md §4, the [`Pbn`] writer): an empty line, then the 15 mandatory
    /// tags (`?` for those the record and the board do not give), the deal with the dealer
    /// first.
    Export,
    /// Debian dealer's `printpbn` (dealer 20211121, `dealdex dealer`): the mandatory tags the
    /// record gives (and Event, Board, Dealer, Vulnerable and Deal, which the board gives), in
    /// export order, the deal with North first, then an empty line.
    Dealer,
}

/// Appends one game laid out as `layout` says (see the module docs); `event` is the `[Event]`
/// value when the board's record has none, written as given (`event_value`).
pub fn write_game(out: &mut Vec<u8>, b: &Board, event: &[u8], layout: GameLayout) {
    if layout == GameLayout::Export {
        out.push(b'\n');
    }
    write_game_text(out, b, event, layout);
    if layout == GameLayout::Dealer {
        out.push(b'\n');
    }
}

/// [`write_game`]'s game without the empty line around it.
fn write_game_text(out: &mut Vec<u8>, b: &Board, event: &[u8], layout: GameLayout) {
    let mut vals: [Option<&[u8]>; 15] = [None; 15];
    if let Some(rec) = &b.game {
        for (name, value) in &rec.tags {
            if let Some(i) = tag_index(name.as_bytes()).filter(|&i| i < 15)
                && vals[i].is_none()
            {
                vals[i] = Some(value.as_bytes());
            }
        }
    }
    let dealer = b.dealer_or_default();
    out.extend_from_slice(b"[Event \"");
    match vals[EVENT] {
        Some(v) => push_value(out, v),
        None => out.extend_from_slice(event),
    }
    out.extend_from_slice(b"\"]\n");
    for i in 1..15 {
        let name = MANDATORY[i];
        match i {
            BOARD => {
                out.extend_from_slice(b"[Board \"");
                push_u64(out, b.number.unwrap_or(0));
                out.extend_from_slice(b"\"]\n");
            }
            DEALER => {
                out.extend_from_slice(b"[Dealer \"");
                out.push(dealer.letter() as u8);
                out.extend_from_slice(b"\"]\n");
            }
            VULNERABLE => {
                out.extend_from_slice(b"[Vulnerable \"");
                out.extend_from_slice(b.vulnerability_or_default().pbn().as_bytes());
                out.extend_from_slice(b"\"]\n");
            }
            DEAL => {
                out.extend_from_slice(b"[Deal \"");
                let first = match layout {
                    GameLayout::Export => dealer,
                    GameLayout::Dealer => Seat::North,
                };
                push_deal_bytes(out, &b.deal, first);
                out.extend_from_slice(b"\"]\n");
            }
            _ if layout == GameLayout::Dealer && vals[i].is_none() => {}
            _ => push_tag(out, name.as_bytes(), vals[i].unwrap_or(b"?")),
        }
    }
    let Some(rec) = &b.game else {
        push_dd_tags(out, b);
        return;
    };
    push_other_tags(out, &rec.tags);
    push_dd_tags(out, b);
    push_comments(out, &rec.comments);
    if let Some(a) = &rec.auction {
        push_auction(out, a);
    }
    if let Some(p) = &rec.play {
        push_play(out, p);
    }
    // Notes after the play (kept in the tags only) follow it again.
    if let Some(at) = rec.tags.iter().position(|(n, _)| n == "Play") {
        for (_, v) in rec.tags[at..].iter().filter(|(n, _)| n == "Note") {
            push_tag(out, b"Note", v.as_bytes());
        }
    }
}

/// A record's tags other than the mandatory ones and `Note`, in order; white space,
/// quotes, brackets and line breaks in a name become `_` (a name left empty is dropped).
fn push_other_tags(out: &mut Vec<u8>, tags: &[(String, String)]) {
    for (name, value) in tags {
        if tag_index(name.as_bytes()).is_some() || name == "Note" {
            continue;
        }
        let clean: Vec<u8> = name
            .bytes()
            .map(|c| {
                if is_ws(c) || matches!(c, b'"' | b'[' | b']' | b'\n') {
                    b'_'
                } else {
                    c
                }
            })
            .collect();
        if !clean.is_empty() {
            push_tag(out, &clean, value.as_bytes());
        }
    }
}

/// `[Play "<leader>"]` and its tricks, a line of four tokens each (`-` for a card not
/// recorded), `*` after fewer than 13 tricks.
fn push_play(out: &mut Vec<u8>, p: &Play) {
    out.extend_from_slice(b"[Play \"");
    out.push(p.leader.letter() as u8);
    out.extend_from_slice(b"\"]\n");
    for trick in &p.tricks {
        for (j, c) in trick.iter().enumerate() {
            if j > 0 {
                out.push(b' ');
            }
            match c {
                Some(c) => {
                    out.push(c.suit().letter() as u8);
                    out.push(c.rank().letter() as u8);
                }
                None => out.push(b'-'),
            }
        }
        out.push(b'\n');
    }
    if p.tricks.len() < 13 {
        out.extend_from_slice(b"*\n");
    }
}

/// A game's comments: `{…}`, or `;…` for a one-line comment holding a `}` (a comment of
/// several lines holding one gets `)` for it).
fn push_comments(out: &mut Vec<u8>, comments: &[String]) {
    for c in comments {
        if !c.contains('}') {
            out.push(b'{');
            out.extend_from_slice(c.as_bytes());
            out.extend_from_slice(b"}\n");
        } else if !c.contains('\n') {
            out.push(b';');
            out.extend_from_slice(c.as_bytes());
            out.push(b'\n');
        } else {
            out.push(b'{');
            out.extend(c.bytes().map(|b| if b == b'}' { b')' } else { b }));
            out.extend_from_slice(b"}\n");
        }
    }
}

/// The `[Auction]` section: four calls a line (annotations and note references beside
/// their call), then its `[Note]` tags.
fn push_auction(out: &mut Vec<u8>, a: &Auction) {
    out.extend_from_slice(b"[Auction \"");
    out.push(a.first.letter() as u8);
    out.extend_from_slice(b"\"]\n");
    let (mut tokens, mut calls) = (0, 0);
    for call in &a.calls {
        let t = call.as_bytes();
        if t.is_empty() {
            continue;
        }
        let annotation = is_note_ref(t) || t[0] == b'$';
        if !annotation && calls == 4 {
            out.push(b'\n');
            tokens = 0;
            calls = 0;
        }
        if tokens > 0 {
            out.push(b' ');
        }
        push_value(out, t);
        tokens += 1;
        calls += usize::from(!annotation);
    }
    if tokens > 0 {
        out.push(b'\n');
    }
    for (n, t) in &a.notes {
        out.extend_from_slice(b"[Note \"");
        push_u64(out, u64::from(*n));
        out.push(b':');
        push_value(out, t.as_bytes());
        out.extend_from_slice(b"\"]\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_tokens() {
        for t in [
            "1D", "1nt", "7N", "Pass", "pass", "P", "X", "xx", "AP", "-", "*", "=12=", "$3", "1S!",
            "X?",
        ] {
            assert!(is_call_token(t.as_bytes()), "{t}");
        }
        for t in [
            "8C", "1Z", "0NT", "XXX", "Pas", "=a=", "$", "!", "1NTT", "é",
        ] {
            assert!(!is_call_token(t.as_bytes()), "{t}");
        }
    }

    /// A PBN file of `n` boards in dealdex's export template, over 1 MiB from about 4,000.
    fn template_file(n: u64) -> Vec<u8> {
        let mut out = HEADER.as_bytes().to_vec();
        for k in 1..=n {
            let deal = Deal::from_number(
                u128::from(k) * 1_000_003_001,
                crate::model::number::Scheme::Pavlicek,
            )
            .expect("a number below D");
            out.push(b'\n');
            write_game(&mut out, &Board::new(k, deal), b"club", GameLayout::Export);
        }
        out
    }

    #[test]
    fn template_files_read_in_chunks_give_the_serial_boards() {
        let data = template_file(5_000);
        assert!(data.len() >= PARALLEL_BYTES);
        let serial = read_pbn_serial(&data, &mut Reader::new()).unwrap();
        assert_eq!(serial.boards.len(), 5_000);
        for pieces in [1, 2, 7, 64] {
            let chunked = read_template_chunks(&data, pieces).expect("every game in the template");
            assert_eq!(chunked, serial.boards, "{pieces} pieces");
        }
        assert_eq!(read_pbn(&data).unwrap().boards, serial.boards);
    }

    #[test]
    fn a_game_outside_the_template_reads_the_whole_file_serially() {
        let data = template_file(3_000);
        let at = |board: &str| {
            let tag = format!("[Board \"{board}\"]");
            data.windows(tag.len())
                .position(|w| w == tag.as_bytes())
                .unwrap()
        };
        // An auction, an inherited `#` value, a multi-line comment whose lines look like
        // games, and `\r\n` line ends, each in the middle of the file.
        let auction = [
            &data[..at("1501") - 1],
            b"[Auction \"N\"]\nPass Pass Pass Pass\n",
            &data[at("1501") - 1..],
        ]
        .concat();
        let inherited = String::from_utf8(data.clone()).unwrap().replacen(
            "[Event \"club\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"1502\"]",
            "[Event \"#\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"1502\"]",
            1,
        );
        let comment = [
            &data[..at("1000") - 1],
            b"{\n\n",
            &data[at("1000") - 1..at("2000") - 1],
            b"}\n",
            &data[at("2000") - 1..],
        ]
        .concat();
        let crlf = String::from_utf8(data.clone())
            .unwrap()
            .replace("\n", "\r\n");
        for (what, file) in [
            ("auction", auction),
            ("inherited", inherited.into_bytes()),
            ("comment", comment),
            ("crlf", crlf.into_bytes()),
        ] {
            assert_eq!(read_template_chunks(&file, 8), None, "{what}");
            let boards = read_pbn(&file).unwrap().boards;
            assert_eq!(
                boards,
                read_pbn_serial(&file, &mut Reader::new()).unwrap().boards,
                "{what}"
            );
            assert!(boards.len() >= 2_000, "{what}: {}", boards.len());
        }
    }

    #[test]
    fn card_tokens() {
        assert_eq!(parse_card(b"SK"), Some(Card::from_index(1)));
        assert_eq!(parse_card(b"c10"), Some(Card::from_index(43)));
        assert_eq!(parse_card(b"-"), Some(None));
        assert_eq!(parse_card(b"S1"), None);
        assert_eq!(parse_card(b"SKK"), None);
        assert_eq!(parse_card(b"K"), None);
    }
}
