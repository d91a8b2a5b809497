//! endplay's JSON (endplay 0.5.12 on PyPI, `endplay.parsers.json.dump` of a list of
//! `Board`s): one JSON array of board objects, each card an object:
//!
//! ```text
//! [{"deal": {"north": [{"suit": "spades", "rank": "A"}, …], "east": […], "south": […],
//!   "west": […], "first": "north", "trump": "nt", "curtrick": []}, "auction": [],
//!   "play": [], "board_num": 1, "info": {}, "vul": "none", "dealer": "north",
//!   "claimed": false}, …]
//! ```

use serde::Deserialize;

use super::{
    Board, DealFormat, Error, FileBoards, FormatInfo, InputPosition, WriteOptions, complete_hands,
};
use crate::model::board::Vulnerability;
use crate::model::card::{RANK_LETTERS, Seat, Suit};
use crate::model::deal::Hand;

/// endplay's JSON boards (endplay 0.5.12, `endplay.parsers.json.dump(boards, fp)`, with or
/// without `indent`).
///
/// # Reading
/// - The file is an array of board objects (or one board object). Of each board: `deal`
///   (`north`, `east`, `south`, `west`: lists of cards `{"suit": "spades", "rank": "A"}`,
///   suits `spades`, `hearts`, `diamonds`, `clubs`, ranks `A K Q J T 9 … 2`; `first` and
///   `curtrick`: the cards already played to the current trick, given back to their
///   players, `first` leading), `board_num` (or `null`), `vul` (`none`, `both`, `ns`, `ew`)
///   and `dealer` (`north` …) when present. The auction, play, contract and `info` are not
///   read.
/// - A deal with two or more empty hands is skipped and reported
///   ([`FileBoards::skipped`], [`NO_COMPLETE_DEAL`](super::NO_COMPLETE_DEAL)); one empty
///   hand is completed.
///
/// # Writing
/// `json.dump`'s bytes for boards without auction or play: `[` the objects joined by `, `
/// `]`, no newline, each board's `vul` and `dealer` written (its own or its number's).
///
/// # Errors
/// `LineColumn` for JSON that is not this shape (serde_json's line and column), a board
/// number 0, a card twice in a hand; for a board that is not a deal, the line and column
/// where its object starts ([`super::ErrorKind::NotADeal`]).
pub struct EndplayJson;

static INFO: FormatInfo = FormatInfo::new(
    "endplay-json",
    &["epjson"],
    "endplay's json.dump of boards (endplay 0.5.12)",
)
.numbered()
.whole();

#[derive(Deserialize)]
struct EpBoard {
    deal: EpDeal,
    #[serde(default)]
    board_num: Option<u64>,
    #[serde(default)]
    vul: Option<EpVul>,
    #[serde(default)]
    dealer: Option<EpSeat>,
}

#[derive(Deserialize)]
struct EpDeal {
    north: Vec<EpCard>,
    east: Vec<EpCard>,
    south: Vec<EpCard>,
    west: Vec<EpCard>,
    #[serde(default)]
    first: Option<EpSeat>,
    #[serde(default)]
    curtrick: Vec<EpCard>,
}

#[derive(Deserialize, Clone, Copy)]
struct EpCard {
    suit: EpSuit,
    rank: EpRank,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum EpSuit {
    Spades,
    Hearts,
    Diamonds,
    Clubs,
}

/// endplay's rank names (`Rank.name[1]`), ace first as [`RANK_LETTERS`].
#[derive(Deserialize, Clone, Copy)]
enum EpRank {
    A,
    K,
    Q,
    J,
    T,
    #[serde(rename = "9")]
    R9,
    #[serde(rename = "8")]
    R8,
    #[serde(rename = "7")]
    R7,
    #[serde(rename = "6")]
    R6,
    #[serde(rename = "5")]
    R5,
    #[serde(rename = "4")]
    R4,
    #[serde(rename = "3")]
    R3,
    #[serde(rename = "2")]
    R2,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum EpSeat {
    North,
    East,
    South,
    West,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum EpVul {
    None,
    Both,
    Ns,
    Ew,
}

impl EpSeat {
    fn seat(self) -> Seat {
        Seat::from_index(self as usize)
    }
}

impl EpCard {
    /// The card's bit in a hand's mask.
    fn bit(self) -> u64 {
        1u64 << (self.suit as usize * 13 + self.rank as usize)
    }
}

/// The 0-based offsets where the elements of the top-level JSON array `data` start (none
/// when it is not an array), for the positions of errors found after parsing.
fn element_starts(data: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut expect = false;
    for (i, &c) in data.iter().enumerate() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if expect && !c.is_ascii_whitespace() {
            if c != b']' {
                out.push(i);
            }
            expect = false;
        }
        match c {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                expect = depth == 1 && c == b'[';
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => expect = true,
            _ => {}
        }
    }
    out
}

/// The 1-based line and column (in characters) of byte `off` of `data`.
fn line_column(data: &[u8], off: usize) -> InputPosition {
    let before = &data[..off.min(data.len())];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    InputPosition::at_line_column(
        line,
        crate::model::text::column(&data[start..], off - start),
    )
}

impl DealFormat for EndplayJson {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    /// Reads every board; those with two or more empty hands are skipped.
    ///
    /// # Errors
    /// See [`EndplayJson`].
    fn read_all(&self, data: &[u8]) -> Result<FileBoards, Error> {
        let serde_error = |e: serde_json::Error| {
            Error::malformed(
                InputPosition::at_line_column(e.line().max(1), e.column().max(1)),
                format!("not endplay's JSON boards: {e}"),
            )
        };
        let single = data.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'{');
        let (boards, starts): (Vec<EpBoard>, Vec<usize>) = if single {
            let b = serde_json::from_slice(data).map_err(serde_error)?;
            let at = data.iter().position(|&c| c == b'{').unwrap_or(0);
            (vec![b], vec![at])
        } else {
            let b = serde_json::from_slice(data).map_err(serde_error)?;
            (b, element_starts(data))
        };
        let mut read = FileBoards::default();
        for (k, b) in boards.into_iter().enumerate() {
            let at = line_column(data, starts.get(k).copied().unwrap_or(0));
            let line = at.line.map(|l| l as usize);
            if b.board_num == Some(0) {
                return Err(Error::malformed(
                    at,
                    "board_num 0 (boards are numbered from 1)",
                ));
            }
            let mut masks = [0u64; 4];
            for (seat, cards) in [b.deal.north, b.deal.east, b.deal.south, b.deal.west]
                .iter()
                .enumerate()
            {
                for c in cards {
                    if masks[seat] & c.bit() != 0 {
                        return Err(Error::not_a_deal(
                            at,
                            format!("{} holds a card twice", Seat::from_index(seat)),
                        ));
                    }
                    masks[seat] |= c.bit();
                }
            }
            // The cards of the trick in progress left their hands: give them back.
            let leader = b.deal.first.map_or(Seat::North, EpSeat::seat);
            for (j, c) in b.deal.curtrick.iter().enumerate().take(4) {
                masks[leader.rotate(j).index()] |= c.bit();
            }
            let hands = masks.map(|m| (m != 0).then_some(Hand::from_mask(m)));
            match complete_hands(hands) {
                Ok(Some(deal)) => read.boards.push(Board {
                    number: b.board_num,
                    dealer: b.dealer.map(EpSeat::seat),
                    vulnerability: b.vul.map(|v| match v {
                        EpVul::None => Vulnerability::None,
                        EpVul::Both => Vulnerability::All,
                        EpVul::Ns => Vulnerability::NorthSouth,
                        EpVul::Ew => Vulnerability::EastWest,
                    }),
                    ..Board::unnumbered(deal)
                }),
                Ok(None) => read.skip_incomplete(b.board_num, line),
                Err(e) => return Err(Error::not_a_deal(at, e.to_string())),
            }
        }
        Ok(read)
    }

    /// Writes endplay's array of the boards (see [`EndplayJson`]).
    fn write_checked(&self, boards: &[Board], opts: &WriteOptions, out: &mut Vec<u8>) {
        out.push(b'[');
        for (k, b) in boards.iter().enumerate() {
            if k > 0 {
                out.extend_from_slice(b", ");
            }
            self.write_board(b, opts, out);
        }
        out.push(b']');
    }

    /// Writes one board object as `json.dump` does (an element of the array).
    fn write_board(&self, b: &Board, _opts: &WriteOptions, out: &mut Vec<u8>) {
        const SEATS: [&str; 4] = ["north", "east", "south", "west"];
        out.extend_from_slice(b"{\"deal\": {");
        for seat in Seat::ALL {
            out.push(b'"');
            out.extend_from_slice(SEATS[seat.index()].as_bytes());
            out.extend_from_slice(b"\": [");
            let hand = b.deal.hand(seat);
            let mut first = true;
            for suit in Suit::ALL {
                let mut m = hand.suit_mask(suit);
                while m != 0 {
                    if !first {
                        out.extend_from_slice(b", ");
                    }
                    first = false;
                    out.extend_from_slice(b"{\"suit\": \"");
                    out.extend_from_slice(suit.name().as_bytes());
                    out.extend_from_slice(b"\", \"rank\": \"");
                    out.push(RANK_LETTERS[m.trailing_zeros() as usize]);
                    out.extend_from_slice(b"\"}");
                    m &= m - 1;
                }
            }
            out.extend_from_slice(b"], ");
        }
        out.extend_from_slice(
            b"\"first\": \"north\", \"trump\": \"nt\", \"curtrick\": []}, \"auction\": [], \
              \"play\": [], \"board_num\": ",
        );
        super::text::push_u64(out, b.number.unwrap_or(0));
        let vul = b
            .vulnerability_or_default()
            .spelled(["none", "ns", "ew", "both"]);
        out.extend_from_slice(b", \"info\": {}, \"vul\": \"");
        out.extend_from_slice(vul.as_bytes());
        out.extend_from_slice(b"\", \"dealer\": \"");
        out.extend_from_slice(SEATS[b.dealer_or_default().index()].as_bytes());
        out.extend_from_slice(b"\", \"claimed\": false}");
    }
}
