//! BBO LIN, one line a board (FORMATS.md §8; the writer follows Big Deal's output.c).
//!
//! The auction and contract rules it applies (declarer, trick winners) are in
//! `crate::model::contract`; the text helpers it shares with the other letter formats are in
//! `super::text` and `crate::model::text`.

use super::text::{parse_letter_hand, push_letter_hand, push_u64, show_byte, suit_index, trim};
use super::{
    Auction, Board, DealFormat, Error, FileBoards, FormatInfo, GameRecord, InputPosition,
    NO_COMPLETE_DEAL, Play, SkippedBoard, WriteOptions,
};
use crate::model::board::Vulnerability;
use crate::model::card::{Card, Rank, Seat, Suit};
use crate::model::contract::{
    Contract, Strain, auction_contract, bid_strain, strain_of, trick_winner,
};
use crate::model::deal::{Deal, Hand};
use crate::model::text::rank_index;

/// BBO LIN, one line a board (FORMATS.md §8; the writer follows Big Deal's output.c).
///
/// LIN is unpublished; dealdex reads this subset of it:
/// - The file is a sequence of `key|value|` pairs (keys are ASCII letters or digits, white
///   space and line ends between pairs are ignored; a last value may lack its closing `|`).
/// - Records: one a line as a rule. When a line holds several records (lines joined), a record
///   starts at each `qx|` pair, or at each `md|` pair when the file has no `qx|` at all; pairs
///   before the first such pair of a line belong to the record that starts on that line, and
///   lines without one continue the previous record (records spread over several lines).
/// - `md|<d><S>,<W>,<N>[,<E>]|`: dealer digit 1 = S, 2 = W, 3 = N, 4 = E, then the hands of
///   South, West, North and East as `S…H…D…C…` (ranks in any order, either case, `10` for the
///   ten). One hand may be empty or missing (East usually is): it gets the remaining cards
///   from the other three. A record with two or more hands empty or missing (an
///   auction-only board) has no complete deal and is skipped ([`super::FileBoards::skipped`],
///   docs/GUIDE.md "Deal files"); three or four hands that do not make a deal (a hand not of 13
///   cards, a card twice) are an error.
/// - Board number: `ah|Board N|`, else `qx|oN|` / `qx|cN|` (open or closed room).
/// - `sv|`: `0`/`o` None, `n` NS, `e` EW, `b` Both (either case) — explicit vulnerability; the
///   dealer digit gives an explicit dealer.
/// - `pn|S,W,N,E|`: the first four names become the [`GameRecord`] tags `South`, `West`,
///   `North`, `East` (in that order; empty names are left out).
/// - `mb|<call>|`: the auction from the dealer, mapped to PBN tokens (`p` → `Pass`, `d` → `X`,
///   `r` → `XX`, `1n` → `1NT`, `1s` → `1S`, …; an alert mark `!` is dropped). `an|<text>|`
///   after a call becomes a note: a `=k=` token after the call and note `k` in
///   [`Auction::notes`].
/// - `pc|<card>|` (e.g. `pc|C5|`): the play, in play order. It is stored in PBN's layout:
///   `Play.tricks[t][j]` is the card of seat `leader.rotate(j)` in trick `t`, where `leader`
///   sits on declarer's left and each trick's winner leads the next (highest trump if any was
///   played, else the highest card of the suit led; trumps and declarer from the final
///   contract of the auction, declarer being the first player of the declaring side to bid its
///   strain). Without a contract in the auction each trick's leader is whoever holds the
///   trick's first card. Every card must be held by the seat whose turn it is.
/// - Everything else (`st`, `rh`, `pg`, `nt`, `mc`, `sk`, …) is ignored.
///
/// The writer writes Big Deal's line
/// `qx|o<b>|md|<d><S>,<W>,<N>|rh||ah|Board <b>|sv|<v>|pg||` (hands ranks descending, East
/// left out, `v` in `0`, `n`, `e`, `b`), with `pn|…|` after `qx|` and `mb|…|` calls before
/// `pg||` and `pc|…|` cards after it (a `pg||` after each trick) when the board has a
/// [`GameRecord`] with players, an auction or play.
///
/// Of a [`GameRecord`] the writer keeps the players, the auction (PBN `AP` becomes three
/// passes, a note `=k=` becomes `!` on the call before it and `an|<note k>|`; other tokens are
/// left out) and the play (trick leaders from the strain of the contract, as
/// [`crate::contract_of`] reads it, else of the `Contract` tag alone, else notrump; a trick
/// with a missing card ends the play);
/// other tags and comments have no place in LIN and are dropped.
///
/// # Errors
/// Reading: `LineColumn` for a malformed pair, a dealer digit other than 1..4, a bad hand,
/// call or card, a card played twice or out of turn; `Line` for a record without `md|`
/// (`line N: no md| (deal) field`) or with two. Writing: a board without a number or numbered 0.
pub struct Lin;

static INFO: FormatInfo =
    FormatInfo::new("lin", &["lin"], "BBO LIN, one line a board (FORMATS.md §8)").numbered();

impl DealFormat for Lin {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads every record; a record whose `md|` has no complete deal is skipped (see the
    /// module documentation).
    ///
    /// # Errors
    /// `LineColumn` for a malformed pair, a dealer digit other than 1..4, a bad hand, call or
    /// card, a card played out of turn; `Line` for a record without `md|`
    /// ("line N: no md| (deal) field").
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        // Records start at `qx|` when the file has any, else at `md|` (the "record key").
        let mut has_qx = false;
        for p in Pairs::new(data) {
            if p?.is(b"qx") {
                has_qx = true;
                break;
            }
        }
        let k: &[u8] = if has_qx { b"qx" } else { b"md" };
        let mut read = FileBoards {
            boards: Vec::with_capacity(data.len() / 80),
            ..FileBoards::default()
        };
        let mut cur: Vec<Pair> = Vec::with_capacity(64); // the record being gathered
        let mut has_k = false; // `cur` holds a record key
        let mut line_first = 0; // where the current line's pairs start in `cur`
        let mut k_on_line = false; // a record key seen on the current line
        let mut last_line = 0;
        for p in Pairs::new(data) {
            let p = p?;
            if p.line != last_line {
                last_line = p.line;
                line_first = cur.len();
                k_on_line = false;
            }
            if p.is(k) {
                if has_k {
                    // A new record: at this key when the line already had one (records
                    // joined on a line), else with the first pair of its line.
                    let split = if k_on_line { cur.len() } else { line_first };
                    push_record(&mut read, &cur[..split])?;
                    cur.drain(..split);
                    line_first = 0;
                }
                has_k = true;
                k_on_line = true;
            }
            cur.push(p);
        }
        if !cur.is_empty() {
            push_record(&mut read, &cur)?;
        }
        Ok(read)
    }

    /// Writes one line per board (see the module documentation).
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
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
        let key_line = self.line;
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
        }))
    }
}

/// LIN's hand order in `md|` and `pn|`: S, W, N, E (digit 1..4).
const LIN_SEATS: [Seat; 4] = [Seat::South, Seat::West, Seat::North, Seat::East];

/// The LIN digit (1 = S, 2 = W, 3 = N, 4 = E) of a seat.
fn lin_digit(seat: Seat) -> u8 {
    [b'3', b'4', b'1', b'2'][seat.index()]
}

/// Reads one record into `read`: a board, or a skipped board without a complete deal.
fn push_record(read: &mut FileBoards, pairs: &[Pair]) -> Result<(), Error> {
    let record = read.boards.len() + read.skipped.len() + 1;
    match read_record(pairs)? {
        Ok(board) => read.boards.push(board),
        Err(board) => read.skipped.push(SkippedBoard {
            board,
            record,
            line: pairs.first().map(|p| p.line),
            reason: NO_COMPLETE_DEAL.to_string(),
        }),
    }
    Ok(())
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

/// Converts the play-order cards into PBN's layout (see the module documentation).
fn build_play(
    deal: &Deal,
    contract: Option<Contract>,
    played: &[Played],
) -> Result<Option<Play>, Error> {
    let Some(first) = played.first() else {
        return Ok(None);
    };
    let opening = match contract {
        Some(c) => c.declarer.next(),
        None => deal.seat_of(first.card),
    };
    let mut leader = opening;
    let mut seen = 0u64;
    let mut tricks = Vec::with_capacity(played.len().div_ceil(4));
    for (t, chunk) in played.chunks(4).enumerate() {
        if contract.is_none()
            && let Some(c) = chunk.first()
        {
            leader = deal.seat_of(c.card);
        }
        let mut row = [None; 4];
        let mut in_order = [first.card; 4];
        for (i, p) in chunk.iter().enumerate() {
            let at = InputPosition::at_line_column(p.line, p.col);
            let bit = 1u64 << p.card.index();
            if seen & bit != 0 {
                return Err(Error::malformed(
                    at,
                    format!("pc|{}| is played a second time", p.card),
                ));
            }
            seen |= bit;
            let seat = leader.rotate(i);
            let holder = deal.seat_of(p.card);
            if holder != seat {
                return Err(Error::malformed(
                    at,
                    format!(
                        "pc|{}| is {}'s card, but in trick {} it is {}'s turn",
                        p.card,
                        holder.name(),
                        t + 1,
                        seat.name()
                    ),
                ));
            }
            row[(seat.index() + 4 - opening.index()) % 4] = Some(p.card);
            if let Some(slot) = in_order.get_mut(i) {
                *slot = p.card;
            }
        }
        tricks.push(row);
        if chunk.len() == 4
            && let Some(c) = contract
        {
            leader = leader.rotate(trick_winner(&in_order, c.strain));
        }
    }
    Ok(Some(Play {
        leader: opening,
        tricks,
    }))
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

/// A `pn|` field's player names as PBN tags (seat name, player), in LIN's seat order,
/// empty names left out.
fn pn_names(value: &[u8]) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    for (k, name) in value.split(|&c| c == b',').take(4).enumerate() {
        let name = String::from_utf8_lossy(trim(name).0).into_owned();
        if !name.is_empty() {
            tags.push((LIN_SEATS[k].name().to_string(), name));
        }
    }
    tags
}

/// An `mb|` field's call, as PBN writes it.
fn mb_call(p: &Pair) -> Result<String, Error> {
    lin_call(p.value).ok_or_else(|| {
        p.err(
            0,
            format!(
                "mb|{}| is not a call (expected p, d, r or a bid such as 1C or 3N)",
                String::from_utf8_lossy(p.value)
            ),
        )
    })
}

/// A `pc|` field's card, with where its value starts.
fn pc_played(p: &Pair) -> Result<Played, Error> {
    let card = lin_card(p.value).ok_or_else(|| {
        p.err(
            0,
            format!(
                "pc|{}| is not a card (expected suit and rank, e.g. C5 or SA)",
                String::from_utf8_lossy(p.value)
            ),
        )
    })?;
    Ok(Played {
        card,
        line: p.vline,
        col: p.vcol,
    })
}

/// Reads one record: its board, or (inner `Err`) the board number of a record without a
/// complete deal.
fn read_record(pairs: &[Pair]) -> Result<Result<Board, Option<u64>>, Error> {
    let line = pairs.first().map_or(1, |p| p.line);
    let mut md: Option<&Pair> = None;
    let (mut ah, mut qx) = (None, None);
    let mut vulnerability = None;
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut calls: Vec<String> = Vec::new();
    let mut notes: Vec<(u32, String)> = Vec::new();
    let mut played: Vec<Played> = Vec::new();
    for p in pairs {
        let key = match p.key {
            [a, b] => [a.to_ascii_lowercase(), b.to_ascii_lowercase()],
            _ => continue, // every key read is two letters
        };
        match &key {
            b"md" => {
                if md.is_some() {
                    return Err(Error::malformed(
                        InputPosition::at_line(p.line),
                        "a second md| field in one record (expected one deal a record)",
                    ));
                }
                md = Some(p);
            }
            b"ah" => ah = ah.or(ah_board(p.value)),
            b"qx" => qx = qx.or(qx_board(p.value)),
            b"sv" => vulnerability = sv_vulnerability(p)?,
            b"pn" => tags = pn_names(p.value),
            b"mb" => calls.push(mb_call(p)?),
            b"an" if !calls.is_empty() => {
                let k = notes.len() as u32 + 1;
                calls.push(format!("={k}="));
                notes.push((k, String::from_utf8_lossy(p.value).trim().to_string()));
            }
            b"pc" => played.push(pc_played(p)?),
            _ => {}
        }
    }
    let Some(md) = md else {
        return Err(Error::malformed(
            InputPosition::at_line(line),
            "no md| (deal) field",
        ));
    };
    let (dealer, deal) = parse_md(md)?;
    let Some(deal) = deal else {
        return Ok(Err(ah.or(qx)));
    };
    let auction = (!calls.is_empty()).then_some(Auction {
        first: dealer,
        calls,
        notes,
    });
    let play = build_play(&deal, auction.as_ref().and_then(auction_contract), &played)?;
    let game = (!tags.is_empty() || auction.is_some() || play.is_some()).then(|| {
        Box::new(GameRecord {
            tags,
            auction,
            play,
            comments: Vec::new(),
        })
    });
    Ok(Ok(Board {
        number: ah.or(qx),
        dealer: Some(dealer),
        vulnerability,
        deal,
        game,
        dd: None,
    }))
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

fn write_play(game: &GameRecord, play: &Play, out: &mut Vec<u8>) {
    let strain = strain_of(game).unwrap_or(Strain::NoTrump);
    let opening = play.leader;
    let mut leader = opening;
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
            }
            _ => break,
        }
    }
}

fn write_line(b: &Board, out: &mut Vec<u8>) {
    let n = b.number.unwrap_or(0);
    out.extend_from_slice(b"qx|o");
    push_u64(out, n);
    out.push(b'|');
    let game = b.game.as_deref();
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
    if let Some(g) = game
        && let Some(p) = &g.play
    {
        write_play(g, p, out);
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
