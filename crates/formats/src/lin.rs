//! BBO LIN, one line a board (FORMATS.md §8; the writer follows Big Deal's output.c).
//!
//! The auction and contract rules it applies (declarer, trick winners) are in
//! `crate::model::contract`; the text helpers it shares with the other letter formats are in
//! `super::text` and `crate::model::text`.

use super::played::{Inconsistency, InconsistencyKind, Room, contract_text, result_tag};
use super::text::{parse_letter_hand, push_letter_hand, push_u64, show_byte, suit_index, trim};
use super::{
    Auction, Board, DealFormat, Error, FileBoards, FormatInfo, GameRecord, InputPosition,
    NO_COMPLETE_DEAL, Play, SkippedBoard, SourceText, WriteOptions,
};
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Rank, Seat, Suit};
use crate::model::contract::{
    Contract, Doubling, Strain, auction_contract, bid_strain, strain_of, trick_winner,
};
use crate::model::deal::{Deal, Hand};
use crate::model::text::rank_index;

/// BBO LIN, one line a board (FORMATS.md §8; the writer follows Big Deal's output.c), and
/// BBO's vugraph match files (both rooms of a team match, with players, auctions, play,
/// claims and results; the sample in tests/fixtures/vugraph).
///
/// LIN is unpublished; dealdex reads this subset of it:
/// - The file is a sequence of `key|value|` pairs (keys are ASCII letters or digits, white
///   space and line ends between pairs are ignored; a last value may lack its closing `|`).
/// - Records: one a line as a rule. When a line holds several records (lines joined), a record
///   starts at each `qx|` pair, or at each `md|` pair when the file has no `qx|` at all; pairs
///   before the first such pair of a line belong to the record that starts on that line, and
///   lines without one continue the previous record (records spread over several lines).
///   A file of header pairs only (`vg|`, `rs|`, `pn|`: a match with no board recorded) has
///   no board and no error.
/// - `md|<d><S>,<W>,<N>[,<E>]|`: dealer digit 1 = S, 2 = W, 3 = N, 4 = E, then the hands of
///   South, West, North and East as `S…H…D…C…` (ranks in any order, either case, `10` for the
///   ten). One hand may be empty or missing (East usually is): it gets the remaining cards
///   from the other three. A record with two or more hands empty or missing (an
///   auction-only board) has no complete deal and is skipped ([`super::FileBoards::skipped`],
///   docs/GUIDE.md "Deal files"); so is a record whose hands make no deal (a hand not of 13
///   cards, a card twice), whose `sv|` or dealer digit is malformed, or that has no `md|` or
///   two: one bad record never rejects its file.
/// - Board number: `ah|Board N|`, else `qx|oN|` / `qx|cN|`; `o` and `c` are the open and
///   closed room, the [`GameRecord`] tag `Room` (`Open`, `Closed`).
/// - `sv|`: `0`/`o` None, `n` NS, `e` EW, `b` Both (either case) — explicit vulnerability; the
///   dealer digit gives an explicit dealer.
/// - `vg|<event>,<segment>,<scoring>,<first board>,<last board>,<team>,<score>,<team>,<score>|`
///   (the match header): tags `Event`, `Stage`, `Scoring` (`I` → `IMP`, `P` → `MP`, `B` →
///   `BAM`), `HomeTeam`, `HomeScore`, `VisitTeam`, `VisitScore` on every record after it.
/// - `pn|` (or `pw|`): the names in LIN's seat order S, W, N, E, applying to the records after
///   it: the first four to the open room (and to records without a room), the next four to
///   the closed room; they become the tags `South`, `West`, `North`, `East` (empty names are
///   left out).
/// - `mb|<call>|`: the auction from the dealer, mapped to PBN tokens (`p` → `Pass`, `d` → `X`,
///   `r` → `XX`, `1n` → `1NT`, `1s` → `1S`, …). An alert (`mb|2D!|`) and an explanation
///   (`an|<text>|` after a call) become a note: a `=k=` token after the call and note `k` in
///   [`Auction::notes`], its text the explanation (empty for an alert without one; a line
///   break inside it is dropped: `an|majo⏎rs|` explains `majors`).
/// - `pc|<card>|` (e.g. `pc|C5|`): the play, in play order. It is stored in PBN's layout:
///   `Play.tricks[t][j]` is the card of seat `leader.rotate(j)` in trick `t`, where `leader`
///   sits on declarer's left and each trick's winner leads the next (highest trump if any was
///   played, else the highest card of the suit led; trumps and declarer from the final
///   contract of the auction, declarer being the first player of the declaring side to bid its
///   strain). Without a contract in the auction each trick's leader is whoever holds the
///   trick's first card.
/// - The contract: the auction's (tags `Contract`, e.g. `4HX`, and `Declarer`; `Contract`
///   `Pass` for four passes), else, for a record without an auction, the `rs|` entry of its
///   table. `rs|<entry>,…|` holds two entries a board from `vg|`'s first board, open room
///   then closed room, each `<level><strain><declarer>[x|xx](=|+n|-n)` or `P`/`PASS`.
/// - The result (tag `Result`, declarer's tricks): the claim `mc|<tricks>|`, else the tricks
///   declarer's side won in a play of 13 tricks, else the `rs|` entry's.
/// - Everything else (`st`, `rh`, `pg`, `nt`, `ob`, `sk`, …) is ignored.
///
/// Inconsistent records are kept with what is consistent in them and reported in
/// [`super::FileBoards::inconsistencies`] ([`super::played`]): a card not held by the seat
/// to play or played twice (the play is kept up to the card before it), a value that is no
/// card (likewise) or no call (left out), a claim without a count, an `rs|` entry whose
/// contract, declarer or result differs from the auction's or the claim's (those are kept).
///
/// The writer writes, for a board read from a LIN file that still says what was read, the
/// record's own bytes ([`super::SourceText`]): a file read and written again is the same file
/// byte for byte, header and commentary included. For any other board it writes Big Deal's
/// line `qx|o<b>|md|<d><S>,<W>,<N>|rh||ah|Board <b>|sv|<v>|pg||` (hands ranks descending,
/// East left out, `v` in `0`, `n`, `e`, `b`; `c` for a board of the closed room), with
/// `pn|…|` after `qx|`, `mb|…|` calls before `pg||`, `pc|…|` cards after it (a `pg||` after
/// each trick) and the result as a claim `mc|<tricks>|pg||` after a play of fewer than 13
/// tricks, when the board has a [`GameRecord`] with players, an auction, play or a result.
///
/// Of a [`GameRecord`] that writer keeps the room, the players, the auction (PBN `AP` becomes
/// three passes, a note `=k=` becomes `!` on the call before it and `an|<note k>|` when the
/// note has text; other tokens are left out), the play (trick leaders from the strain of the
/// contract, as [`contract_of`](dealdex_model::contract::contract_of) reads it, else of the
/// `Contract` tag alone, else notrump; a trick with a missing card ends the play) and the result;
/// other tags (the contract and declarer follow from the auction) and comments have no place in its
/// line.
///
/// # Errors
/// Reading: `LineColumn` for a malformed pair; for a file none of whose records reads, the
/// first record's error (`LineColumn` for a dealer digit other than 1..4, a bad hand or
/// `sv|`, `Line` for a record without `md|`, `line N: no md| (deal) field`, or with two).
/// Writing: a board without a number or numbered 0.
pub struct Lin;

static INFO: FormatInfo =
    FormatInfo::new("lin", &["lin"], "BBO LIN, one line a board (FORMATS.md §8)").numbered();

impl DealFormat for Lin {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads every record; a record without a complete deal, or whose deal, vulnerability or
    /// record keys are malformed, is skipped (see the module documentation).
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        let pairs = Pairs::new(data).collect::<Result<Vec<Pair>, Error>>()?;
        let mut read = FileBoards {
            boards: Vec::with_capacity(data.len() / 80),
            ..FileBoards::default()
        };
        let has = |k: &[u8]| pairs.iter().any(|p| p.is(k));
        if !has(b"md") {
            // A match file whose header (vg|, rs|, pn|) records no board yet.
            if pairs.iter().all(|p| HEADER_KEYS.iter().any(|k| p.is(k))) {
                return Ok(read);
            }
            return Err(Error::malformed(
                InputPosition::at_line(pairs.first().map_or(1, |p| p.line)),
                "no md| (deal) field",
            ));
        }
        // Records start at `qx|` when the file has any, else at `md|` (the "record key"):
        // where each record's pairs and bytes start.
        let k: &[u8] = if has(b"qx") { b"qx" } else { b"md" };
        let mut starts: Vec<(usize, usize)> = vec![(0, 0)];
        let mut has_k = false; // a record key seen
        let mut line_first = 0; // the first pair of the current line
        let mut k_on_line = false; // a record key seen on the current line
        let mut last_line = 0;
        for (i, p) in pairs.iter().enumerate() {
            if p.line != last_line {
                last_line = p.line;
                line_first = i;
                k_on_line = false;
            }
            if p.is(k) {
                if has_k {
                    // A new record: at this key when the line already had one (records
                    // joined on a line), else with the first pair of its line.
                    starts.push(if k_on_line {
                        (i, p.start)
                    } else {
                        (line_first, pairs[line_first].line_start)
                    });
                }
                has_k = true;
                k_on_line = true;
            }
        }
        let mut file = MatchFile::default();
        // The bytes of records that gave no board, kept with the next board's.
        let mut pending: Vec<u8> = Vec::new();
        let mut first_error = None;
        for (r, &(at, byte)) in starts.iter().enumerate() {
            let (end, end_byte) = starts
                .get(r + 1)
                .copied()
                .unwrap_or((pairs.len(), data.len()));
            let (rec, bytes) = (&pairs[at..end], &data[byte..end_byte]);
            let record = read.boards.len() + read.skipped.len() + 1;
            match read_record(rec, &mut file, &mut read.inconsistencies) {
                Ok(mut board) => {
                    let digest = digest(&board);
                    if let Some(g) = board.game.as_deref_mut() {
                        let mut kept = std::mem::take(&mut pending);
                        kept.extend_from_slice(bytes);
                        g.source = Some(Box::new(SourceText {
                            format: INFO.name,
                            bytes: kept,
                            digest,
                        }));
                    }
                    read.boards.push(board);
                }
                Err(skip) => {
                    if first_error.is_none() {
                        first_error = skip.error;
                    }
                    read.skipped.push(SkippedBoard {
                        board: skip.board,
                        record,
                        line: rec.first().map(|p| p.line),
                        reason: skip.reason,
                    });
                    pending.extend_from_slice(bytes);
                }
            }
        }
        if let Some(src) = read
            .boards
            .last_mut()
            .and_then(|b| b.game.as_deref_mut())
            .and_then(|g| g.source.as_deref_mut())
        {
            src.bytes.extend_from_slice(&pending);
        }
        // A file none of whose records reads is no LIN deal file: its first error.
        if let Some(e) = first_error.filter(|_| read.boards.is_empty()) {
            return Err(e);
        }
        Ok(read)
    }

    /// Writes one line per board (see the module documentation), or the board's own bytes
    /// when it was read from a LIN file and still says what was read.
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        if let Some(src) = b.game.as_deref().and_then(|g| g.source.as_deref())
            && src.format == INFO.name
            && src.digest == digest(b)
        {
            out.extend_from_slice(&src.bytes);
            return;
        }
        write_line(b, out);
    }
}

// ---------------------------------------------------------------------------------------------
// Contracts and tricks, shared by the reader and the writer (the rules are in
// `crate::model::contract`).

/// True for a PBN note reference token `=n=`.
fn is_note(token: &str) -> bool {
    token.len() >= 3 && token.starts_with('=') && token.ends_with('=')
}

// ---------------------------------------------------------------------------------------------
// Reader.

/// One `key|value|` pair with where it is.
struct Pair<'a> {
    key: &'a [u8],
    value: &'a [u8],
    /// 1-based line of the key.
    line: usize,
    /// 1-based line and column of the value's first byte.
    vline: usize,
    vcol: usize,
    /// Byte offsets of the key and of the start of the key's line.
    start: usize,
    line_start: usize,
}

impl Pair<'_> {
    fn is(&self, key: &[u8]) -> bool {
        self.key.eq_ignore_ascii_case(key)
    }

    /// The position of byte `off` of the value: on the value's own line, or, for a value
    /// that a damaged file breaks over lines, on the line that byte is on.
    fn at(&self, off: usize) -> InputPosition {
        let before = &self.value[..off.min(self.value.len())];
        match before.iter().rposition(|&c| c == b'\n') {
            None => InputPosition::at_line_column(self.vline, self.vcol.saturating_add(off)),
            Some(last) => {
                let breaks = before.iter().filter(|&&c| c == b'\n').count();
                InputPosition::at_line_column(self.vline + breaks, off - last)
            }
        }
    }

    fn err(&self, off: usize, message: impl Into<String>) -> Error {
        Error::malformed(self.at(off), message)
    }
}

/// The `key|value|` pairs of a file, in order.
struct Pairs<'a> {
    data: &'a [u8],
    i: usize,
    line: usize,
    line_start: usize,
    failed: bool,
}

impl<'a> Pairs<'a> {
    fn new(data: &'a [u8]) -> Pairs<'a> {
        Pairs {
            data,
            i: 0,
            line: 1,
            line_start: 0,
            failed: false,
        }
    }
}

impl<'a> Iterator for Pairs<'a> {
    type Item = Result<Pair<'a>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let data = self.data;
        let mut i = self.i;
        while let Some(&c) = data.get(i) {
            if !c.is_ascii_whitespace() {
                break;
            }
            if c == b'\n' {
                self.line += 1;
                self.line_start = i + 1;
            }
            i += 1;
        }
        if i >= data.len() {
            self.i = i;
            return None;
        }
        let key_start = i;
        while data.get(i).is_some_and(|c| c.is_ascii_alphanumeric()) && i - key_start < 8 {
            i += 1;
        }
        if i == key_start || data.get(i) != Some(&b'|') {
            self.failed = true;
            let found = data
                .get(i)
                .map_or("the end of the file".into(), |&c| show_byte(c));
            return Some(Err(Error::malformed(
                InputPosition::at_line_column(self.line, i - self.line_start + 1),
                format!("found {found}, expected a LIN key such as md, mb or pc followed by |"),
            )));
        }
        let key = &data[key_start..i];
        let (key_line, line_start) = (self.line, self.line_start);
        i += 1;
        let (vline, vcol, vstart) = (self.line, i - self.line_start + 1, i);
        while let Some(&c) = data.get(i) {
            if c == b'|' {
                break;
            }
            if c == b'\n' {
                self.line += 1;
                self.line_start = i + 1;
            }
            i += 1;
        }
        let value = &data[vstart..i];
        self.i = i + 1; // past the closing '|' (or past the end)
        Some(Ok(Pair {
            key,
            value,
            line: key_line,
            vline,
            vcol,
            start: key_start,
            line_start,
        }))
    }
}

/// LIN's hand order in `md|` and `pn|`: S, W, N, E (digit 1..4).
const LIN_SEATS: [Seat; 4] = [Seat::South, Seat::West, Seat::North, Seat::East];

/// The LIN digit (1 = S, 2 = W, 3 = N, 4 = E) of a seat.
fn lin_digit(seat: Seat) -> u8 {
    [b'3', b'4', b'1', b'2'][seat.index()]
}

/// Parses `md|<d><S>,<W>,<N>[,<E>]`; no deal when the hands make no complete deal
/// ([`super::complete_hands`]).
fn parse_md(p: &Pair) -> Result<(Seat, Option<Deal>), Error> {
    let (v, lead) = trim(p.value);
    let Some(&d) = v.first() else {
        return Err(p.err(
            lead,
            "empty md| field (expected a dealer digit 1..4, then the hands)",
        ));
    };
    let dealer = match d {
        b'1'..=b'4' => LIN_SEATS[(d - b'1') as usize],
        _ => {
            return Err(p.err(
                lead,
                format!(
                    "dealer digit {} is not 1..4 (1 = S, 2 = W, 3 = N, 4 = E)",
                    show_byte(d)
                ),
            ));
        }
    };
    let mut hands = [Hand::EMPTY; 4];
    let mut field = 1usize;
    let mut k = 0usize;
    loop {
        let end = v
            .get(field..)
            .and_then(|r| r.iter().position(|&c| c == b','))
            .map_or(v.len(), |q| field + q);
        if k >= 4 {
            return Err(p.err(
                lead + field,
                "a fifth hand in md| (expected S, W, N and optionally E)",
            ));
        }
        let (body, blead) = trim(v.get(field..end).unwrap_or(&[]));
        let (hand, stop) = parse_letter_hand(body, 0, false)
            .map_err(|e| p.err(lead + field + blead + e.offset, e.message))?;
        if let Some(&c) = body.get(stop) {
            return Err(p.err(
                lead + field + blead + stop,
                format!(
                    "found {} in {}'s hand (expected suit letters S, H, D, C and ranks)",
                    show_byte(c),
                    LIN_SEATS[k].name()
                ),
            ));
        }
        hands[LIN_SEATS[k].index()] = hand;
        k += 1;
        if end >= v.len() {
            break;
        }
        field = end + 1;
    }
    let deal = super::complete_hands(hands.map(Some))
        .map_err(|e| Error::not_a_deal(p.at(lead), format!("md| is not a deal: {e}")))?;
    Ok((dealer, deal))
}

/// A LIN call as a PBN token, `None` when it is not one.
fn lin_call(v: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(v)
        .ok()?
        .trim()
        .trim_end_matches('!')
        .trim();
    let u = s.to_ascii_uppercase();
    match u.as_str() {
        "P" | "PASS" => return Some("Pass".into()),
        "D" | "X" | "DBL" => return Some("X".into()),
        "R" | "XX" | "RDBL" => return Some("XX".into()),
        _ => {}
    }
    match bid_strain(&u)? {
        Strain::Trumps(suit) => Some(format!("{}{}", &u[..1], suit.letter())),
        Strain::NoTrump => Some(format!("{}NT", &u[..1])),
    }
}

/// A LIN card `C5`, `SA`, `HT` (either case, `10` accepted).
fn lin_card(v: &[u8]) -> Option<Card> {
    let (v, _) = trim(v);
    let s = suit_index(*v.first()?)?;
    let r = match v.get(1..)? {
        [c] => rank_index(*c)?,
        [b'1', b'0'] => 4,
        _ => return None,
    };
    Card::new(Suit::from_index(s), Rank::new(14 - r as u8)?).into()
}

/// A board number from `ah|Board N|`.
fn ah_board(v: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(v).ok()?.trim();
    let rest = s.get(..5).filter(|p| p.eq_ignore_ascii_case("board"))?;
    let n = s[rest.len()..].trim().parse::<u64>().ok()?;
    (n > 0).then_some(n)
}

/// A board number from `qx|oN|` or `qx|cN|` (digits up to the first non-digit).
fn qx_board(v: &[u8]) -> Option<u64> {
    let (v, _) = trim(v);
    if !matches!(v.first()?.to_ascii_lowercase(), b'o' | b'c') {
        return None;
    }
    let digits = &v[1..];
    let len = digits.iter().take_while(|c| c.is_ascii_digit()).count();
    let n = std::str::from_utf8(&digits[..len])
        .ok()?
        .parse::<u64>()
        .ok()?;
    (n > 0).then_some(n)
}

/// A played card with where its `pc|` value is.
struct Played {
    card: Card,
    line: usize,
    col: usize,
}

/// A record's play as [`build_play`] makes it.
struct BuiltPlay {
    /// The play in PBN's layout, `None` without a card.
    play: Option<Play>,
    /// Tricks won by declarer's side in the complete tricks, when the contract is known.
    declarer_tricks: Option<u8>,
    /// Complete tricks.
    tricks: usize,
    /// The first illegal card: its line and why (the play stops before it).
    illegal: Option<(usize, String)>,
}

/// Converts the play-order cards into PBN's layout (see the module documentation), up to the
/// first card that is not the player's to play (held by another seat, or played before).
fn build_play(deal: &Deal, contract: Option<Contract>, played: &[Played]) -> BuiltPlay {
    let mut built = BuiltPlay {
        play: None,
        declarer_tricks: contract.map(|_| 0),
        tricks: 0,
        illegal: None,
    };
    let Some(first) = played.first() else {
        return built;
    };
    let opening = match contract {
        Some(c) => c.declarer.next(),
        None => deal.seat_of(first.card),
    };
    let mut leader = opening;
    let mut seen = 0u64;
    let mut tricks = Vec::with_capacity(played.len().div_ceil(4));
    'tricks: for (t, chunk) in played.chunks(4).enumerate() {
        if contract.is_none()
            && let Some(c) = chunk.first()
        {
            leader = deal.seat_of(c.card);
        }
        let mut row = [None; 4];
        let mut in_order = [first.card; 4];
        for (i, p) in chunk.iter().enumerate() {
            let bit = 1u64 << p.card.index();
            let seat = leader.rotate(i);
            let holder = deal.seat_of(p.card);
            let why = if seen & bit != 0 {
                Some(format!("pc|{}| is played a second time", p.card))
            } else if holder != seat {
                Some(format!(
                    "pc|{}| is {}'s card, but in trick {} it is {}'s turn",
                    p.card,
                    holder.name(),
                    t + 1,
                    seat.name()
                ))
            } else {
                None
            };
            if let Some(why) = why {
                let kept = crate::played::play_kept(t, i);
                built.illegal = Some((p.line, format!("{why} (column {}); {kept}", p.col)));
                if i > 0 {
                    tricks.push(row);
                }
                break 'tricks;
            }
            seen |= bit;
            row[(seat.index() + 4 - opening.index()) % 4] = Some(p.card);
            if let Some(slot) = in_order.get_mut(i) {
                *slot = p.card;
            }
        }
        tricks.push(row);
        if chunk.len() == 4 {
            built.tricks += 1;
            if let Some(c) = contract {
                let winner = leader.rotate(trick_winner(&in_order, c.strain));
                if winner.index() % 2 == c.declarer.index() % 2
                    && let Some(n) = built.declarer_tricks.as_mut()
                {
                    *n += 1;
                }
                leader = winner;
            }
        }
    }
    if !tricks.is_empty() {
        built.play = Some(Play {
            leader: opening,
            tricks,
        });
    }
    built
}

/// An `sv|` field's vulnerability (`0` or `o`, `n`, `e`, `b`, any case); `None` when empty.
fn sv_vulnerability(p: &Pair) -> Result<Option<Vulnerability>, Error> {
    let (v, lead) = trim(p.value);
    let vulnerability = match v {
        [] => None,
        [c] => match c.to_ascii_lowercase() {
            b'0' | b'o' => Some(Vulnerability::None),
            b'n' => Some(Vulnerability::NorthSouth),
            b'e' => Some(Vulnerability::EastWest),
            b'b' => Some(Vulnerability::All),
            _ => None,
        },
        _ => None,
    };
    if vulnerability.is_none() && !v.is_empty() {
        return Err(p.err(
            lead,
            format!(
                "sv|{}| is not a vulnerability (expected 0 or o, n, e, b)",
                String::from_utf8_lossy(v)
            ),
        ));
    }
    Ok(vulnerability)
}

/// LIN's header keys: a file of these alone is a match file with no board recorded.
const HEADER_KEYS: [&[u8]; 5] = [b"vg", b"rs", b"pn", b"pw", b"pg"];

/// What a vugraph file's header (and any later `pn|`) says for the records after it.
#[derive(Default)]
struct MatchFile {
    /// The tags of `vg|`: Event, Stage, Scoring, HomeTeam, HomeScore, VisitTeam, VisitScore.
    header: Vec<(String, String)>,
    /// `vg|`'s first board, where `rs|` starts.
    first_board: Option<u64>,
    /// `rs|`'s entries: two a board, open room then closed room.
    results: Vec<String>,
    /// `pn|`'s names: S, W, N, E of the open room, then of the closed room.
    names: Vec<String>,
}

impl MatchFile {
    /// `vg|<event>,<segment>,<scoring>,<first>,<last>,<home>,<score>,<visit>,<score>`.
    fn set_vg(&mut self, value: &[u8]) {
        let text = String::from_utf8_lossy(value);
        let f: Vec<&str> = text.split(',').map(str::trim).collect();
        let field = |i: usize| f.get(i).copied().unwrap_or("");
        let scoring = match field(2) {
            "I" | "i" => "IMP",
            "P" | "p" => "MP",
            "B" | "b" => "BAM",
            other => other,
        };
        self.header = [
            ("Event", field(0)),
            ("Stage", field(1)),
            ("Scoring", scoring),
            ("HomeTeam", field(5)),
            ("HomeScore", field(6)),
            ("VisitTeam", field(7)),
            ("VisitScore", field(8)),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
        self.first_board = field(3).parse().ok();
    }

    /// The `rs|` entry of a board at a table, when the file has a non-empty one.
    fn result(&self, board: u64, room: Option<Room>) -> Option<&str> {
        let first = self.first_board.unwrap_or(1);
        let k = board.checked_sub(first)?.checked_mul(2)? + u64::from(room == Some(Room::Closed));
        let entry = self.results.get(usize::try_from(k).ok()?)?.trim();
        (!entry.is_empty()).then_some(entry)
    }

    /// The players of a table as PBN tags (seat name, player), in LIN's seat order S, W, N,
    /// E, empty names left out: `pn|`'s first four names, its next four for the closed room.
    fn players(&self, room: Option<Room>) -> Vec<(String, String)> {
        let from = if room == Some(Room::Closed) && self.names.len() >= 8 {
            4
        } else {
            0
        };
        let mut tags = Vec::new();
        for (k, name) in self.names.iter().skip(from).take(4).enumerate() {
            if !name.is_empty() {
                tags.push((LIN_SEATS[k].name().to_string(), name.clone()));
            }
        }
        tags
    }
}

/// An `rs|` entry: `4HN=`, `3NW+1`, `5CEx-2`, `2DNxx=`, `P` or `PASS` (passed out).
struct RsEntry {
    /// The contract, `None` when passed out.
    contract: Option<Contract>,
    /// Declarer's tricks.
    tricks: Option<u8>,
}

fn parse_rs(entry: &str) -> Option<RsEntry> {
    if entry.eq_ignore_ascii_case("p") || entry.eq_ignore_ascii_case("pass") {
        return Some(RsEntry {
            contract: None,
            tricks: None,
        });
    }
    let b = entry.as_bytes();
    let level = match b.first()? {
        d @ b'1'..=b'7' => d - b'0',
        _ => return None,
    };
    let strain = match b.get(1)?.to_ascii_uppercase() {
        b'N' => Strain::NoTrump,
        c => Strain::Trumps(Suit::from_index(suit_index(c)?)),
    };
    let declarer = Seat::from_char(char::from(*b.get(2)?).to_ascii_uppercase())?;
    let rest = &entry[3..];
    let after = rest.trim_start_matches(['x', 'X']);
    let doubling = match rest.len() - after.len() {
        0 => Doubling::Undoubled,
        1 => Doubling::Doubled,
        2 => Doubling::Redoubled,
        _ => return None,
    };
    let made = i16::from(level) + 6;
    let tricks = match after {
        "=" => Some(made),
        _ => after
            .strip_prefix('+')
            .map(|n| n.parse::<i16>().ok().map(|n| made + n))
            .or_else(|| {
                after
                    .strip_prefix('-')
                    .map(|n| n.parse::<i16>().ok().map(|n| made - n))
            })
            .flatten(),
    };
    Some(RsEntry {
        contract: Some(Contract {
            level,
            strain,
            doubling,
            declarer,
        }),
        tricks: tricks
            .and_then(|t| u8::try_from(t).ok())
            .filter(|&t| t <= 13),
    })
}

/// The room of a `qx|` value (`o…` open, `c…` closed).
fn qx_room(v: &[u8]) -> Option<Room> {
    match trim(v).0.first()?.to_ascii_lowercase() {
        b'o' => Some(Room::Open),
        b'c' => Some(Room::Closed),
        _ => None,
    }
}

/// The names of a `pn|` value, trimmed, in order (empty ones kept: they hold their seat).
fn pn_names(value: &[u8]) -> Vec<String> {
    value
        .split(|&c| c == b',')
        .map(|name| String::from_utf8_lossy(trim(name).0).into_owned())
        .collect()
}

/// A `pc|` field's card, with where its value starts; `None` when it is no card.
fn pc_played(p: &Pair) -> Option<Played> {
    Some(Played {
        card: lin_card(p.value)?,
        line: p.vline,
        col: p.vcol,
    })
}

/// A record that gives no board: its number, when known, why, and the reader's error when
/// it is malformed (rather than without a complete deal).
struct Skip {
    board: Option<u64>,
    reason: String,
    error: Option<Error>,
}

/// An inconsistency of a record: its kind, its line and what is wrong.
type Issue = (InconsistencyKind, usize, String);

/// What the fields of one record say ([`Fields::scan`]).
#[derive(Default)]
struct Fields<'p> {
    md: Option<&'p Pair<'p>>,
    md_twice: bool,
    ah: Option<u64>,
    qx: Option<u64>,
    room: Option<Room>,
    vulnerability: Option<Vulnerability>,
    sv_error: Option<Error>,
    calls: Vec<String>,
    notes: Vec<(u32, String)>,
    /// The note of the last call when it was alerted (`!`) and not yet explained.
    alert_note: Option<usize>,
    played: Vec<Played>,
    play_stopped: bool,
    claim: Option<(Option<u8>, &'p Pair<'p>)>,
    issues: Vec<Issue>,
}

impl<'p> Fields<'p> {
    /// Reads a record's fields; those of the whole match (`vg`, `rs`, `pn`) go to `file`.
    fn scan(pairs: &'p [Pair<'p>], file: &mut MatchFile) -> Fields<'p> {
        let mut f = Fields::default();
        for p in pairs {
            let key = match p.key {
                [a, b] => [a.to_ascii_lowercase(), b.to_ascii_lowercase()],
                _ => continue, // every key read is two letters
            };
            match &key {
                b"md" => {
                    f.md_twice |= f.md.is_some();
                    f.md = f.md.or(Some(p));
                }
                b"ah" => f.ah = f.ah.or(ah_board(p.value)),
                b"qx" if f.qx.is_none() => {
                    f.qx = qx_board(p.value);
                    f.room = qx_room(p.value);
                }
                b"sv" => match sv_vulnerability(p) {
                    Ok(v) => f.vulnerability = v,
                    Err(e) => f.sv_error = Some(e),
                },
                b"vg" => file.set_vg(p.value),
                b"rs" => {
                    file.results = String::from_utf8_lossy(p.value)
                        .split(',')
                        .map(str::to_owned)
                        .collect();
                }
                b"pn" | b"pw" => file.names = pn_names(p.value),
                b"mb" => f.call(p),
                b"an" if !f.calls.is_empty() => f.explanation(p),
                b"pc" if !f.play_stopped => f.card(p),
                b"mc" => {
                    let v = String::from_utf8_lossy(trim(p.value).0).into_owned();
                    f.claim = Some((v.parse::<u8>().ok().filter(|&n| n <= 13), p));
                }
                _ => {}
            }
        }
        f
    }

    /// An `mb|` field: a call (with a note when alerted), else an inconsistency.
    fn call(&mut self, p: &Pair) {
        let Some(call) = lin_call(p.value) else {
            self.issues.push((
                InconsistencyKind::BadCall,
                p.vline,
                format!(
                    "mb|{}| is not a call (expected p, d, r or a bid such as 1C or 3N); it is left out",
                    String::from_utf8_lossy(p.value)
                ),
            ));
            return;
        };
        self.calls.push(call);
        self.alert_note = None;
        if p.value.contains(&b'!') {
            let k = self.notes.len() as u32 + 1;
            self.calls.push(format!("={k}="));
            self.notes.push((k, String::new()));
            self.alert_note = Some(self.notes.len() - 1);
        }
    }

    /// An `an|` field after a call: the alerted call's explanation, else a note of its own.
    fn explanation(&mut self, p: &Pair) {
        // A line break inside the text is the file's, not the explanation's.
        let text: String = String::from_utf8_lossy(p.value)
            .split(['\r', '\n'])
            .collect::<String>()
            .trim()
            .to_string();
        match self.alert_note.take().and_then(|i| self.notes.get_mut(i)) {
            Some(note) => note.1 = text,
            None => {
                let k = self.notes.len() as u32 + 1;
                self.calls.push(format!("={k}="));
                self.notes.push((k, text));
            }
        }
    }

    /// A `pc|` field: a card of the play, else the play stops (an inconsistency).
    fn card(&mut self, p: &Pair) {
        match pc_played(p) {
            Some(c) => self.played.push(c),
            None => {
                self.play_stopped = true;
                self.issues.push((
                    InconsistencyKind::BadCard,
                    p.vline,
                    format!(
                        "pc|{}| is not a card (expected suit and rank, e.g. C5 or SA); the play is kept up to the card before it",
                        String::from_utf8_lossy(p.value)
                    ),
                ));
            }
        }
    }

    /// The record's dealer and deal (its one `md|` field, which deals all 52 cards), and its
    /// vulnerability's error; else why the record gives no board (`number`, from `line`).
    fn deal(&mut self, number: Option<u64>, line: usize) -> Result<(Seat, Deal), Skip> {
        let skip = |error: Error| Skip {
            board: number,
            reason: error.to_string(),
            error: Some(error),
        };
        if self.md_twice {
            return Err(skip(Error::malformed(
                InputPosition::at_line(line),
                "a second md| field in one record (expected one deal a record)",
            )));
        }
        let Some(md) = self.md else {
            return Err(skip(Error::malformed(
                InputPosition::at_line(line),
                "no md| (deal) field",
            )));
        };
        let (dealer, deal) = parse_md(md).map_err(skip)?;
        let Some(deal) = deal else {
            return Err(Skip {
                board: number,
                reason: NO_COMPLETE_DEAL.to_string(),
                error: None,
            });
        };
        match self.sv_error.take() {
            Some(e) => Err(skip(e)),
            None => Ok((dealer, deal)),
        }
    }
}

/// Whether the file's result `rs` for the table (read as `entry`) agrees with the auction's
/// `contract` (`auctioned`: there is an auction); a contract or declarer that differs is an
/// inconsistency (the record's `line`).
fn rs_agrees(
    contract: Option<Contract>,
    auctioned: bool,
    rs: Option<&str>,
    entry: Option<&RsEntry>,
    line: usize,
    issues: &mut Vec<Issue>,
) -> bool {
    let Some(e) = entry else {
        return false;
    };
    let Some(c) = contract else {
        return !(auctioned && e.contract.is_some());
    };
    let Some(r) = e.contract else {
        return false;
    };
    let (kind, detail) = if (r.level, r.strain, r.doubling) != (c.level, c.strain, c.doubling) {
        let (r, a) = (rs.unwrap_or(""), contract_text(&c));
        let detail = format!("rs| says {r}, the auction {a}; the auction's is kept");
        (InconsistencyKind::ContractMismatch, detail)
    } else if r.declarer != c.declarer {
        let detail = format!(
            "rs| says {} (declarer {}), the auction has {} declare; the auction's is kept",
            rs.unwrap_or(""),
            r.declarer.name(),
            c.declarer.name()
        );
        (InconsistencyKind::WrongDeclarer, detail)
    } else {
        return true;
    };
    issues.push((kind, line, detail));
    false
}

/// Declarer's tricks a claim gives (`mc|`), an inconsistency when it gives no count or the
/// file's result `rs` says another (`rs_tricks`).
fn claimed(
    claim: Option<(Option<u8>, &Pair)>,
    rs: Option<&str>,
    rs_tricks: Option<u8>,
    line: usize,
    issues: &mut Vec<Issue>,
) -> Option<u8> {
    match claim? {
        (Some(n), _) => {
            if let Some(t) = rs_tricks.filter(|&t| t != n) {
                let rs = rs.unwrap_or("");
                let detail =
                    format!("rs| says {rs} ({t} tricks), the claim mc|{n}|; the claim is kept");
                issues.push((InconsistencyKind::ResultMismatch, line, detail));
            }
            Some(n)
        }
        (None, p) => {
            let value = String::from_utf8_lossy(p.value);
            let detail = format!("mc|{value}| gives no trick count 0..13");
            issues.push((InconsistencyKind::ClaimWithoutCount, p.vline, detail));
            None
        }
    }
}

/// The tags of the contract `stated` (the auction's, else the file's result): `Contract` and
/// `Declarer`; for a board `passed_out`, PBN's "not applicable" (no declarer, and no result
/// unless a claim gives one).
fn contract_tags(
    stated: Option<Contract>,
    passed_out: bool,
    claimed: bool,
    tags: &mut Vec<(String, String)>,
) {
    match stated {
        Some(c) => {
            tags.push(("Contract".into(), contract_text(&c)));
            tags.push(("Declarer".into(), c.declarer.letter().to_string()));
        }
        None if passed_out => {
            tags.push(("Contract".into(), "Pass".into()));
            tags.push(("Declarer".into(), String::new()));
            if !claimed {
                tags.push(("Result".into(), String::new()));
            }
        }
        None => {}
    }
}

/// Reads one record (see the module documentation): its board, or why it gives none. What
/// is inconsistent in it is pushed on `found` and left out of the board.
fn read_record(
    pairs: &[Pair],
    file: &mut MatchFile,
    found: &mut Vec<Inconsistency>,
) -> Result<Board, Skip> {
    let line = pairs.first().map_or(1, |p| p.line);
    let mut f = Fields::scan(pairs, file);
    let number = f.ah.or(f.qx);
    let (dealer, deal) = f.deal(number, line)?;
    let Fields {
        room,
        vulnerability,
        calls,
        notes,
        played,
        claim,
        mut issues,
        ..
    } = f;
    let auction = (!calls.is_empty()).then_some(Auction {
        first: dealer,
        calls,
        notes,
    });
    let contract = auction.as_ref().and_then(auction_contract);
    let built = build_play(&deal, contract, &played);
    if let Some((l, why)) = built.illegal {
        issues.push((InconsistencyKind::IllegalCard, l, why));
    }
    let mut tags = file.header.clone();
    // The room of a board played at a table (a match file, a closed room, a record with a
    // game): Big Deal's `qx|o1|` on a bare deal is no open room.
    let in_match = !file.header.is_empty() || !file.results.is_empty() || !file.names.is_empty();
    let game_here = auction.is_some() || !played.is_empty() || claim.is_some();
    if let Some(r) = room.filter(|&r| r == Room::Closed || in_match || game_here) {
        tags.push(("Room".into(), r.pbn().into()));
    }
    tags.extend(file.players(room));
    // The contract: the auction's, else the file's result for the table.
    let rs = number.and_then(|n| file.result(n, room));
    let rs_entry = rs.and_then(parse_rs);
    let passed_out = auction.as_ref().is_some_and(|a| {
        contract.is_none() && a.calls.iter().filter(|c| c.as_str() == "Pass").count() >= 4
    });
    let auctioned = auction.is_some();
    let rs_agrees = rs_agrees(
        contract,
        auctioned,
        rs,
        rs_entry.as_ref(),
        line,
        &mut issues,
    );
    let stated = contract.or_else(|| {
        rs_entry
            .as_ref()
            .filter(|_| auction.is_none())
            .and_then(|e| e.contract)
    });
    let passed_out = passed_out || rs_entry.as_ref().is_some_and(|e| e.contract.is_none());
    contract_tags(stated, passed_out, claim.is_some(), &mut tags);
    // The result: the claim, else a play of 13 tricks, else the file's result.
    let rs_tricks = rs_entry
        .as_ref()
        .filter(|_| rs_agrees)
        .and_then(|e| e.tricks);
    let mut result = claimed(claim, rs, rs_tricks, line, &mut issues);
    if result.is_none() && stated.is_some() {
        result = match built.declarer_tricks {
            Some(n) if built.tricks == 13 => Some(n),
            _ => rs_tricks,
        };
    }
    if let Some(n) = result.filter(|_| stated.is_some() || claim.is_some()) {
        tags.push(("Result".into(), n.to_string()));
    }
    found.extend(issues.into_iter().map(|(kind, l, detail)| Inconsistency {
        kind,
        board: number,
        room,
        line: Some(l),
        detail,
    }));
    let game = (!tags.is_empty() || auction.is_some() || built.play.is_some()).then(|| {
        Box::new(GameRecord {
            tags,
            auction,
            play: built.play,
            ..GameRecord::default()
        })
    });
    Ok(Board {
        number,
        dealer: Some(dealer),
        vulnerability,
        deal,
        game,
        dd: None,
    })
}

/// The digest a record's [`SourceText`] keeps: FNV-1a of the board's contents (everything
/// but the source itself), stable within a build.
fn digest(b: &Board) -> u64 {
    let g = b.game.as_deref();
    let text = format!(
        "{:?}",
        (
            b.number,
            b.dealer,
            b.vulnerability,
            &b.deal,
            &b.dd,
            g.map(|g| (&g.tags, &g.auction, &g.play, &g.comments))
        )
    );
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, c| {
        (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3)
    })
}

// ---------------------------------------------------------------------------------------------
// Writer.

/// A name or note for a LIN value: `|` (and `,` in names) would end it early.
fn push_clean(out: &mut Vec<u8>, s: &str, comma: bool) {
    out.extend(s.bytes().map(|c| {
        if c == b'|' || (comma && c == b',') {
            b' '
        } else {
            c
        }
    }));
}

/// A PBN call token in LIN (`Pass` → `p`, `X` → `d`, `XX` → `r`, `1NT` → `1N`, bids as they
/// are); `None` for tokens LIN has no call for.
fn lin_call_token(t: &str) -> Option<String> {
    let u = t.to_ascii_uppercase();
    match u.as_str() {
        "PASS" | "P" => Some("p".into()),
        "X" => Some("d".into()),
        "XX" => Some("r".into()),
        _ => match bid_strain(&u)? {
            Strain::Trumps(s) => Some(format!("{}{}", &u[..1], s.letter())),
            Strain::NoTrump => Some(format!("{}N", &u[..1])),
        },
    }
}

fn write_auction(a: &Auction, out: &mut Vec<u8>) {
    // Calls with the note attached to each (a `=k=` token refers to the call before it).
    let mut calls: Vec<(String, Option<&str>)> = Vec::new();
    for t in &a.calls {
        if is_note(t) {
            let k: Option<u32> = t[1..t.len() - 1].parse().ok();
            let text = a
                .notes
                .iter()
                .find(|(n, _)| Some(*n) == k)
                .map_or("", |(_, s)| s.as_str());
            if let Some(last) = calls.last_mut() {
                last.1 = Some(text);
            }
        } else if t.eq_ignore_ascii_case("AP") {
            for _ in 0..3 {
                calls.push(("p".into(), None));
            }
        } else if let Some(c) = lin_call_token(t) {
            calls.push((c, None));
        }
    }
    for (call, note) in calls {
        out.extend_from_slice(b"mb|");
        out.extend_from_slice(call.as_bytes());
        match note {
            Some(text) => {
                out.extend_from_slice(b"!|");
                if !text.is_empty() {
                    out.extend_from_slice(b"an|");
                    push_clean(out, text, false);
                    out.push(b'|');
                }
            }
            None => out.push(b'|'),
        }
    }
}

/// Writes the play; true when it has 13 complete tricks.
fn write_play(game: &GameRecord, play: &Play, out: &mut Vec<u8>) -> bool {
    let strain = strain_of(game).unwrap_or(Strain::NoTrump);
    let opening = play.leader;
    let mut leader = opening;
    let mut complete = 0;
    for row in &play.tricks {
        let mut in_order = [None; 4];
        for (i, slot) in in_order.iter_mut().enumerate() {
            let seat = leader.rotate(i);
            *slot = row[(seat.index() + 4 - opening.index()) % 4];
        }
        // A trick cut short (claim, unrecorded cards) ends at its first missing card.
        for c in in_order.iter().map_while(|c| c.as_ref()) {
            out.extend_from_slice(b"pc|");
            out.push(c.suit().letter() as u8);
            out.push(c.rank().letter() as u8);
            out.push(b'|');
        }
        out.extend_from_slice(b"pg||");
        match in_order {
            [Some(a), Some(b), Some(c), Some(d)] => {
                leader = leader.rotate(trick_winner(&[a, b, c, d], strain));
                complete += 1;
            }
            _ => break,
        }
    }
    complete == 13
}

fn write_line(b: &Board, out: &mut Vec<u8>) {
    let n = b.number.unwrap_or(0);
    let game = b.game.as_deref();
    out.extend_from_slice(b"qx|");
    out.push(game.and_then(Room::of).unwrap_or(Room::Open).lin());
    push_u64(out, n);
    out.push(b'|');
    if let Some(g) = game {
        let name = |seat: Seat| {
            g.tags
                .iter()
                .find(|(t, v)| t == seat.name() && v != "?")
                .map(|(_, v)| v.as_str())
        };
        if LIN_SEATS
            .iter()
            .any(|&s| name(s).is_some_and(|v| !v.is_empty()))
        {
            out.extend_from_slice(b"pn|");
            for (k, &s) in LIN_SEATS.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                push_clean(out, name(s).unwrap_or(""), true);
            }
            out.push(b'|');
        }
    }
    out.extend_from_slice(b"md|");
    out.push(lin_digit(b.dealer_or_default()));
    for (k, seat) in [Seat::South, Seat::West, Seat::North]
        .into_iter()
        .enumerate()
    {
        if k > 0 {
            out.push(b',');
        }
        push_letter_hand(out, b.deal.hand(seat));
    }
    out.extend_from_slice(b"|rh||ah|Board ");
    push_u64(out, n);
    out.extend_from_slice(b"|sv|");
    out.push(
        b.vulnerability_or_default()
            .spelled([b'0', b'n', b'e', b'b']),
    );
    out.push(b'|');
    if let Some(a) = game.and_then(|g| g.auction.as_ref()) {
        write_auction(a, out);
    }
    out.extend_from_slice(b"pg||");
    let mut complete = false;
    if let Some(g) = game
        && let Some(p) = &g.play
    {
        complete = write_play(g, p, out);
    }
    // The result of a play cut short (or not recorded) is a claim.
    if let Some(r) = game.and_then(result_tag)
        && !complete
    {
        out.extend_from_slice(b"mc|");
        push_u64(out, u64::from(r));
        out.extend_from_slice(b"|pg||");
    }
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_map_to_pbn_tokens() {
        for (lin, pbn) in [
            ("p", "Pass"),
            ("d", "X"),
            ("R", "XX"),
            ("1n", "1NT"),
            ("3NT", "3NT"),
            ("1s", "1S"),
            ("1C!", "1C"),
        ] {
            assert_eq!(lin_call(lin.as_bytes()).as_deref(), Some(pbn), "{lin}");
        }
        assert_eq!(lin_call(b"8C"), None);
        assert_eq!(lin_call(b"1Z"), None);
    }
}
