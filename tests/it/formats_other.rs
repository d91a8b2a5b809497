//! The LIN, CSV, BER, Borel, KOPS, CDS, Gödel, HRF, hex and JSON formats (FORMATS.md §2, §8–§10):
//! published examples byte for byte, the LIN fixture with auction and play, write→read
//! identity over random deals and board numbers, errors, and readers that never panic.

use dealdex::InputPosition;
use dealdex::formats::{
    Auction, Ber, Board, Borel, Cds, Csv, DealFormat, GameRecord, Goedel, Hex, Hrf,
    InconsistencyKind, Json, Kops, Lin, OneLine, Play, ReadOptions, WriteOptions, write_set,
};
use dealdex::{Card, DEALS, Deal, Scheme, Seat, Suit, Vulnerability};
use proptest::prelude::*;

use crate::common::{check_read_outcome, refused};

/// The deal of FORMATS.md §2, §5 and §10.
const DUP_DEAL: &str = "N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76";

fn deal(s: &str) -> Deal {
    s.parse().unwrap()
}

fn write(f: &dyn DealFormat, boards: &[Board]) -> Vec<u8> {
    write_set(f, boards, &WriteOptions::default()).unwrap()
}

fn vectors() -> serde_json::Value {
    serde_json::from_str(include_str!("../fixtures/vectors.json")).unwrap()
}

// ---------------------------------------------------------------------------------------------
// LIN (FORMATS.md §8)

#[test]
fn lin_big_deal_line_is_byte_exact() {
    // FORMATS.md §8: qx|o<b>|md|<d><S>,<W>,<N>|rh||ah|Board <b>|sv|<v>|pg||, East left out.
    let out = write(&Lin, &[Board::new(1, deal(DUP_DEAL))]);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "qx|o1|md|3SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4CQ|rh||ah|Board 1|sv|0|pg||\n"
    );
}

#[test]
fn lin_published_example_both_ways() {
    let v = vectors();
    let ex = &v["lin_example"];
    let record = ex["record"].as_str().unwrap();
    let boards = Lin.read(record.as_bytes()).unwrap();
    assert_eq!(boards.len(), 1);
    let b = &boards[0];
    assert_eq!(b.number, Some(ex["board"].as_u64().unwrap()));
    assert_eq!(
        b.dealer.unwrap().to_string(),
        ex["dealer"].as_str().unwrap()
    );
    assert_eq!(
        b.vulnerability.unwrap().to_string(),
        ex["vulnerable"].as_str().unwrap()
    );
    assert_eq!(b.deal, deal(ex["deal"].as_str().unwrap()));
    assert!(b.game.is_none());
    // Written back, it is the same record with Big Deal's `ah|Board 2|` (the published record
    // leaves `ah` empty).
    let expected = record.replace("ah||", "ah|Board 2|") + "\n";
    assert_eq!(String::from_utf8(write(&Lin, &boards)).unwrap(), expected);
    let fresh = Board::new(2, b.deal);
    assert_eq!(String::from_utf8(write(&Lin, &[fresh])).unwrap(), expected);
}

const FIXTURE_LIN: &[u8] = include_bytes!("../fixtures/lin-with-play.lin");

/// The deal of [`FIXTURE_LIN`].
const FIXTURE_LIN_DEAL: &str =
    "N:Q854.KQJ7.Q3.K93 AT962.2.KJ875.AT J.T864.T62.QJ754 K73.A953.A94.862";

fn card(s: &str) -> Card {
    let b = s.as_bytes();
    Card::new(
        Suit::from_char(b[0] as char).unwrap(),
        dealdex::Rank::from_char(b[1] as char).unwrap(),
    )
}

/// The winner of a trick given in play order, trumps `trump` (independent of the crate's).
fn winner(cards: [Card; 4], trump: Suit) -> usize {
    let led = cards[0].suit();
    let key = |c: Card| {
        let class = if c.suit() == trump {
            2
        } else if c.suit() == led {
            1
        } else {
            0
        };
        (class, c.rank())
    };
    (0..4).max_by_key(|&i| key(cards[i])).unwrap()
}

#[test]
fn lin_fixture_with_auction_and_play() {
    let boards = Lin.read(FIXTURE_LIN).unwrap();
    assert_eq!(boards.len(), 1);
    let b = &boards[0];
    assert_eq!(
        b.deal,
        deal("N:Q854.KQJ7.Q3.K93 AT962.2.KJ875.AT J.T864.T62.QJ754 K73.A953.A94.862")
    );
    assert_eq!(b.dealer, Some(Seat::North)); // md|3
    assert_eq!(b.number, Some(1));
    assert_eq!(b.vulnerability, Some(Vulnerability::None));
    let g = b.game.as_deref().unwrap();
    let tags: Vec<(&str, &str)> = g
        .tags
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("South", "PearyCook"),
            ("West", "zetanot"),
            ("North", "krackistan"),
            ("East", "silentfree"),
            // The contract of the auction, and declarer's tricks (issue 53).
            ("Contract", "4S"),
            ("Declarer", "E"),
            ("Result", "12")
        ]
    );
    let a = g.auction.as_ref().unwrap();
    assert_eq!(a.first, Seat::North);
    assert_eq!(
        a.calls.join(" "),
        "1C 1S Pass 2S Pass 3D Pass 4S Pass Pass Pass"
    );
    assert!(a.notes.is_empty());

    // 4S by East (first of E-W to bid spades): South leads.
    let p = g.play.as_ref().unwrap();
    assert_eq!(p.leader, Seat::South);
    assert_eq!(p.tricks.len(), 13);
    // The LIN play order, four cards a trick.
    let text = std::str::from_utf8(FIXTURE_LIN).unwrap();
    let lin_order: Vec<Card> = text.split("pc|").skip(1).map(|s| card(&s[..2])).collect();
    assert_eq!(lin_order.len(), 52);
    let mut leader = p.leader;
    for (t, row) in p.tricks.iter().enumerate() {
        // PBN layout: row[j] is the card of p.leader.rotate(j), and that seat holds it.
        for (j, c) in row.iter().enumerate() {
            let c = c.unwrap();
            assert_eq!(b.deal.seat_of(c), p.leader.rotate(j), "trick {}", t + 1);
        }
        // In play order from this trick's leader, the cards are LIN's.
        let in_order: [Card; 4] = std::array::from_fn(|i| {
            let seat = leader.rotate(i);
            row[(seat.index() + 4 - p.leader.index()) % 4].unwrap()
        });
        assert_eq!(in_order[..], lin_order[4 * t..4 * t + 4], "trick {}", t + 1);
        let w = leader.rotate(winner(in_order, Suit::Spades));
        if t + 1 < 13 {
            // The computed winner leads the next trick: LIN's next card is the winner's.
            assert_eq!(b.deal.seat_of(lin_order[4 * t + 4]), w, "trick {}", t + 2);
        }
        leader = w;
    }
    assert_eq!(
        p.tricks[0],
        [card("C5"), card("C2"), card("CK"), card("CA")].map(Some)
    );

    // Written back unchanged: the file's own bytes (issue 53).
    assert_eq!(write(&Lin, &boards), FIXTURE_LIN);
    // Written anew: the same record (players, auction, play) reads back identically.
    let mut anew = boards.clone();
    anew[0].game.as_deref_mut().unwrap().source = None;
    let out = write(&Lin, &anew);
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(text.starts_with(
        "qx|o1|pn|PearyCook,zetanot,krackistan,silentfree|md|3SJH\
         T864DT62CQJ754,SK73HA953DA94C862,SQ854HKQJ7DQ3CK93|rh||ah|Board 1|sv|0|mb|1C|mb|1S|mb|p|"
    ));
    assert!(text.contains("mb|p|mb|p|mb|p|pg||pc|C5|pc|C2|pc|CK|pc|CA|pg||pc|S2|"));
    assert!(text.ends_with("pc|HT|pc|H9|pc|HJ|pc|S6|pg||\n"));
    // Read back, it is the same board, from the open room of its qx|o1| (issue 53).
    let mut back = Lin.read(&out).unwrap();
    let tags = &mut back[0].game.as_deref_mut().unwrap().tags;
    assert_eq!(tags.remove(0), ("Room".to_string(), "Open".to_string()));
    assert_eq!(back, boards);
}

#[test]
fn lin_joined_and_multi_line_records() {
    let one =
        "qx|o3|md|1SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4CQ,|rh||ah|Board 3|sv|B|pg||";
    let two = "qx|o4|md|2SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4CQ|sv|e|pg||";
    let joined = format!("{one}{two}\r\n");
    let b = Lin.read(joined.as_bytes()).unwrap();
    assert_eq!(b.len(), 2);
    assert_eq!(
        (b[0].number, b[0].dealer, b[0].vulnerability),
        (Some(3), Some(Seat::South), Some(Vulnerability::All))
    );
    assert_eq!(
        (b[1].number, b[1].dealer, b[1].vulnerability),
        (Some(4), Some(Seat::West), Some(Vulnerability::EastWest))
    );
    assert_eq!(b[0].deal, deal(DUP_DEAL));
    // A record spread over lines: lines without qx| continue it.
    let spread = "qx|o5|md|3SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4CQ|\n\
                  mb|1s|\nmb|p|\nmb|p|\nmb|p|\npg||\n\
                  qx|o6|md|4SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4CQ|pg||\n";
    let b = Lin.read(spread.as_bytes()).unwrap();
    assert_eq!(b.len(), 2);
    let a = b[0].game.as_deref().unwrap().auction.as_ref().unwrap();
    assert_eq!(a.calls, ["1S", "Pass", "Pass", "Pass"]);
    assert_eq!((b[1].number, b[1].game.is_none()), (Some(6), true));
    // Without qx: records split at md|, the pairs before md| on a line belong to its record.
    let text = "pn|a,b,c,d|md|3SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4CQ|\n\
                pn|e,f,g,h|md|3S24AQH8AD267JKC2J,,SJ987HJT7643DA4CQ,SHKQ2DQT9CAK98543|\n\
                mb|1N!|an|15-17|mb|P|\n";
    let b = Lin.read(text.as_bytes()).unwrap();
    assert_eq!(b.len(), 2);
    assert_eq!(b[1].deal, deal(DUP_DEAL));
    let g = b[1].game.as_deref().unwrap();
    assert_eq!(g.tags[0], ("South".to_string(), "e".to_string()));
    let a = g.auction.as_ref().unwrap();
    assert_eq!(a.calls, ["1NT", "=1=", "Pass"]);
    assert_eq!(a.notes, [(1, "15-17".to_string())]);
    // The note survives a round trip.
    let out = write(&Lin, &b[1..]);
    assert!(
        String::from_utf8(out.clone())
            .unwrap()
            .contains("mb|1N!|an|15-17|mb|p|pg||")
    );
    // LIN's qx|o… says "open room": a board written in it comes back from the open room.
    let mut back = *Lin.read(&out).unwrap()[0].game.clone().unwrap();
    assert_eq!(
        back.tags.remove(0),
        ("Room".to_string(), "Open".to_string())
    );
    assert_eq!(&back, b[1].game.as_deref().unwrap());
}

#[test]
fn lin_errors_name_line_and_column() {
    let e = refused(Lin.read(b"qx|o1|rh||ah|Board 1|sv|0|pg||\n").unwrap_err());
    assert_eq!(e.position, InputPosition::at_line(1));
    assert_eq!(e.to_string(), "line 1: no md| (deal) field");
    let good = "qx|o1|md|3SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4CQ|pg||\n";
    let bad = "qx|o2|md|5SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4CQ|pg||\n";
    // Alone, a bad record is the file's error; after a good one it is skipped (issue 53: one
    // bad board never rejects its file), its reason naming line and column.
    let e = refused(Lin.read(bad.as_bytes()).unwrap_err());
    assert_eq!(e.position, InputPosition::at_line_column(1, 10));
    assert!(e.message.contains("dealer digit '5' is not 1..4"), "{e}");
    let read = Lin.read_all(format!("{good}{bad}").as_bytes()).unwrap();
    assert_eq!((read.boards.len(), read.skipped.len()), (1, 1));
    let s = &read.skipped[0];
    assert_eq!((s.board, s.line), (Some(2), Some(2)));
    assert!(
        s.reason.contains("line 2, column 10") || s.reason.contains("2:10"),
        "{}",
        s.reason
    );
    assert!(
        s.reason.contains("dealer digit '5' is not 1..4"),
        "{}",
        s.reason
    );
    let e = refused(
        Lin.read(b"md|3SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4C|")
            .unwrap_err(),
    );
    assert!(e.message.contains("not a deal"), "{e}");
    let e = refused(
        Lin.read(b"md|3SAQ42HA8DKJ762CJ2,SKT653H95D853CT76,SJ987HJT7643DA4CX|")
            .unwrap_err(),
    );
    assert_eq!(e.position, InputPosition::at_line_column(1, 57));
    // A value that is no call, a card out of turn: the record is kept without them and the
    // inconsistency reported with its line.
    let read = Lin.read_all(format!("{good}mb|9Z|").as_bytes()).unwrap();
    assert_eq!(read.boards.len(), 1);
    let i = &read.inconsistencies[0];
    assert_eq!((i.kind, i.line), (InconsistencyKind::BadCall, Some(2)));
    // After 1S by West, North leads; the ♠K is West's.
    let read = Lin
        .read_all(format!("{good}mb|p|mb|p|mb|p|mb|1S|mb|p|mb|p|mb|p|pc|SK|").as_bytes())
        .unwrap();
    let i = &read.inconsistencies[0];
    assert_eq!(i.kind, InconsistencyKind::IllegalCard);
    assert!(i.detail.contains("it is North's turn"), "{i}");
    assert!(read.boards[0].game.as_deref().unwrap().play.is_none());
}

// ---------------------------------------------------------------------------------------------
// CSV, BER, Borel, KOPS, CDS, HRF, hex, JSON: published shapes

#[test]
fn csv_big_deal_line_and_tolerant_reader() {
    let out = write(&Csv, &[Board::new(2, deal(DUP_DEAL))]);
    let line = "\"J987\",\"JT7643\",\"A4\",\"Q\",\"\",\"KQ2\",\"QT9\",\"AK98543\",\"AQ42\",\"A8\",\
                \"KJ762\",\"J2\",\"KT653\",\"95\",\"853\",\"T76\",\"2\",\"E/NS\"\n";
    assert_eq!(String::from_utf8(out.clone()).unwrap(), line);
    let b = Csv.read(&out).unwrap();
    assert_eq!(b[0].number, Some(2));
    assert_eq!(b[0].dealer, Some(Seat::East));
    assert_eq!(b[0].vulnerability, Some(Vulnerability::NorthSouth));
    let loose = " 789j ,JT7643, \"a4\" ,Q,-,KQ2,QT9,AK98543,AQ42,A8,KJ762,J2,K10653,95,853,T76, 7 ,\"w/both\"\r\n\r\n";
    let b = Csv.read(loose.as_bytes()).unwrap();
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].deal, deal(DUP_DEAL));
    assert_eq!(
        (b[0].number, b[0].dealer, b[0].vulnerability),
        (Some(7), Some(Seat::West), Some(Vulnerability::All))
    );
    let fifteen = "\"J987\",\"JT7643\",\"A4\",\"Q\",\"\",\"KQ2\",\"QT9\",\"AK98543\",\"AQ42\",\"A8\",\
                   \"KJ762\",\"J2\",\"KT653\",\"95\",\"853\"\n";
    let e = refused(Csv.read(format!("\n{fifteen}").as_bytes()).unwrap_err());
    assert!(
        (e.position.line, e.position.column.is_some()) == (Some(2), true),
        "{e}"
    );
    assert!(e.message.contains("found 15 fields, expected 18"), "{e}");
    let e = refused(
        Csv.read(line.replace("AK98543", "AK98X43").as_bytes())
            .unwrap_err(),
    );
    assert_eq!(e.position, InputPosition::at_line_column(1, 46));
}

#[test]
fn ber_records_and_errors() {
    let d1 = Deal::from_number(1, Scheme::Pavlicek).unwrap();
    let out = write(&Ber, &[Board::new(1, d1), Board::new(2, deal(DUP_DEAL))]);
    assert_eq!(out.len(), 104);
    let expected: Vec<u8> = [b'1', b'2', b'3', b'4']
        .iter()
        .flat_map(|&c| [c; 13])
        .collect();
    assert_eq!(out[..52], expected[..]);
    let b = Ber.read(&out).unwrap();
    assert_eq!((b[0].deal, b[1].deal), (d1, deal(DUP_DEAL)));
    assert!(b.iter().all(|b| b.number.is_none() && b.dealer.is_none()));
    // A newline (or CR LF) after each record is accepted.
    let mut lines = out[..52].to_vec();
    lines.extend_from_slice(b"\r\n");
    lines.extend_from_slice(&out[52..]);
    lines.push(b'\n');
    assert_eq!(Ber.read(&lines).unwrap(), b);
    let mut bad = out.clone();
    bad[60] = b'5';
    let e = refused(Ber.read(&bad).unwrap_err());
    assert_eq!(e.position, InputPosition::at_record(2, 60));
    assert!(e.message.contains("'5' is not a seat"), "{e}");
    let e = refused(Ber.read(&out[..100]).unwrap_err());
    assert_eq!(e.position, InputPosition::at_record(2, 52));
    assert!(
        e.message.contains("truncated record: 48 of 52 bytes"),
        "{e}"
    );
}

#[test]
fn borel_lines_start_with_the_dealer() {
    let d = deal(DUP_DEAL);
    let out = write(&Borel, &[Board::new(1, d), Board::new(2, d)]);
    let text = String::from_utf8(out.clone()).unwrap();
    let lines: Vec<&str> = text.split('\n').collect();
    assert_eq!(lines[0], "");
    // Board 1: N first. N holds ♠J987 (card numbers 4, 6, 7, 8 → DFGH), ♥JT7643 (17, 18,
    // 21, 22, 24, 25 → QRUVXY), ♦A4 (27, 37 → a, k), ♣Q (42 → p).
    assert_eq!(&lines[1][..13], "DFGHQRUVXYakp");
    assert_eq!(lines[1].len(), 52);
    // Board 2: E first, then S, W, N.
    assert_eq!(&lines[2][39..], "DFGHQRUVXYakp");
    assert_eq!(lines.len(), 4);
    let b = Borel.read(&out).unwrap();
    assert_eq!((b[0].deal, b[1].deal), (d, d));
    assert_eq!(b[0].number, None);
    let e = refused(Borel.read(b"\nABC\n").unwrap_err());
    assert_eq!(e.position, InputPosition::at_line_column(2, 1));
    let dup = text.replacen("DFGH", "DFGD", 1);
    let e = refused(Borel.read(dup.as_bytes()).unwrap_err());
    assert_eq!(e.position, InputPosition::at_line_column(2, 4));
}

#[test]
fn kops_header_count_and_records() {
    let d1 = Deal::from_number(1, Scheme::Pavlicek).unwrap();
    let out = write(&Kops, &[Board::new(1, d1), Board::new(2, deal(DUP_DEAL))]);
    assert_eq!(out.len(), 13 * 3);
    assert_eq!(out[..13], *b"\x02\x00           ");
    // Board 1 of Pavlicek: N all spades, E hearts, S diamonds, W clubs: 00 01 10 11.
    assert!(out[13..26].iter().all(|&b| b == 0b00_01_10_11));
    let b = Kops.read(&out).unwrap();
    assert_eq!((b[0].deal, b[1].deal), (d1, deal(DUP_DEAL)));
    let mut bad = out.clone();
    bad[0] = 3;
    let e = refused(Kops.read(&bad).unwrap_err());
    assert_eq!(e.position, InputPosition::at_byte(0));
    assert!(
        e.message
            .contains("the header gives 3 boards but the file holds 2 records"),
        "{e}"
    );
    assert!(Kops.read(&out[..30]).is_err());
    assert!(Kops.info().max_board.is_none() && !Kops.info().streaming);
}

#[test]
fn cds_board_byte_and_limit() {
    let d = deal(DUP_DEAL);
    let out = write(&Cds, &[Board::new(7, d), Board::new(255, d)]);
    assert_eq!(out.len(), 28);
    assert_eq!((out[0], out[14]), (7, 255));
    // Rank A: ♠A S (3), ♥A S (3), ♦A N (1), ♣A E (2).
    assert_eq!(out[1], 0b11_11_01_10);
    let b = Cds.read(&out).unwrap();
    assert_eq!((b[0].number, b[1].number), (Some(7), Some(255)));
    assert_eq!(b[1].deal, d);
    // Past board 255 the byte is the number mod 256, as Big Deal writes it, and the reader
    // counts on across 256 (boards ascend in a file).
    let out = write(
        &Cds,
        &[Board::new(255, d), Board::new(256, d), Board::new(258, d)],
    );
    assert_eq!((out[0], out[14], out[28]), (255, 0, 2));
    let numbers: Vec<_> = Cds.read(&out).unwrap().iter().map(|b| b.number).collect();
    assert_eq!(numbers, [Some(255), Some(256), Some(258)]);
    assert_eq!(Cds.info().max_board, None);
    // The first board from --first-board: it must agree with the first byte.
    let told = |n| ReadOptions {
        first_board: Some(n),
    };
    let back = Cds.read_numbered(&out, &told(511)).unwrap().boards;
    assert_eq!(back[2].number, Some(514));
    let e = Cds.read_numbered(&out, &told(254)).unwrap_err();
    assert!(e.to_string().contains("first board byte is 255"), "{e}");
}

#[test]
fn hrf_published_example_is_the_record_prefix() {
    let example = "1SJ987HJT7643DA4CQSHKQ2DQT9CAK98543SAQ42HA8DKJ762CJ2SKT653H95D853CT76";
    let out = write(&Hrf, &[Board::new(1, deal(DUP_DEAL))]);
    assert_eq!(out.len(), 128);
    assert_eq!(&out[..example.len()], example.as_bytes());
    assert!(out[example.len()..].iter().all(|&c| c == b' '));
    let b = Hrf.read(&out).unwrap();
    assert_eq!((b[0].number, b[0].deal), (Some(1), deal(DUP_DEAL)));
    let mut bad = out.clone();
    bad[0] = b' ';
    assert_eq!(
        refused(Hrf.read(&bad).unwrap_err()).position,
        InputPosition::at_record(1, 0)
    );
    assert!(Hrf.read(&out[..127]).is_err());
}

#[test]
fn hex_lines_with_suffix() {
    let d = deal(DUP_DEAL);
    let out = write(&Hex, &[Board::new(16, d), Board::new(17, d)]);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "0EDCCBA0976F2DA4945D8E9DC0-0\n0EDCCBA0976F2DA4945D8E9DC0-1\n"
    );
    let text = "# a comment\n\n0edccba0976f2da4945d8e9dc0-5  # board 5\r\n\
                0EDCCBA0976F2DA4945D8E9DC0\n3-0EDCCBA0976F2DA4945D8E9DC0\n";
    let b = Hex.read(text.as_bytes()).unwrap();
    assert_eq!(b.len(), 3);
    assert!(b.iter().all(|b| b.deal == d && b.number.is_none()));
    assert_eq!(
        (b[0].dealer, b[0].vulnerability),
        (Some(Seat::North), Some(Vulnerability::NorthSouth))
    );
    assert_eq!((b[1].dealer, b[1].vulnerability), (None, None));
    assert_eq!(b[2].dealer, Some(Seat::South));
    // An explicit dealer/vulnerability is written as the cycle digit that has them.
    let mut odd = Board::new(1, d);
    odd.dealer = Some(Seat::West);
    odd.vulnerability = Some(Vulnerability::None);
    assert!(write(&Hex, &[odd]).ends_with(b"-8\n"));
    let e = refused(Hex.read(b"\n0EDCCBA0976F2DA4945D8E9DCG\n").unwrap_err());
    assert_eq!(e.position, InputPosition::at_line_column(2, 26));
    let e = refused(Hex.read(b"00000000000000000000000000\n").unwrap_err());
    assert_eq!(e.position, InputPosition::at_line(1));
}

/// Four deals with published Pavlicek numbers (FORMATS.md §1a, tests/fixtures/vectors.json):
/// (number, the deal from North).
const PUBLISHED: [(&str, &str); 4] = [
    (
        "10",
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.6 ..2.AKQJT9875432",
    ),
    (
        "84478098072866400",
        "N:AKQJT98765432... ...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432..",
    ),
    (
        "1",
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    ),
    (
        "53644737765488792839237440000",
        "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432...",
    ),
];

/// The hex indices of [`PUBLISHED`], by hand from FORMATS.md §2 (byte r = (S | H<<2) << 4 |
/// (D | C<<2), seat codes S=0 W=1 N=2 E=3, r = 0 for the aces … 12 for the deuces):
/// - 10: ♠ all N (2), ♥ all E (3): high nibble 2 | 3<<2 = E. ♦A..3 S (0), ♦2 W (1); ♣ W but
///   ♣6 (r = 8) S: low nibble 0 | 1<<2 = 4, at r = 8 0 | 0 = 0, at r = 12 1 | 1<<2 = 5.
/// - 84478098072866400: ♠ N, ♥ W: 2 | 1<<2 = 6; ♦ S, ♣ E: 0 | 3<<2 = C; every rank.
/// - 1 and D: FORMATS.md §2's own vectors (E4…, 1B…).
const PUBLISHED_HEX: [&str; 4] = [
    "E4E4E4E4E4E4E4E4E0E4E4E4E5",
    "6C6C6C6C6C6C6C6C6C6C6C6C6C",
    "E4E4E4E4E4E4E4E4E4E4E4E4E4",
    "1B1B1B1B1B1B1B1B1B1B1B1B1B",
];

#[test]
fn json_lines_are_byte_exact() {
    // README's JSON line, `{"board","dealer","vulnerable","deal","number","scheme","index"}`,
    // written out by hand: boards 3, 4, 5 and 16 (dealer and vulnerability by FORMATS.md §3:
    // S EW, W All, N NS, W EW), the deal from the dealer (§4), the number a string (§1a), the
    // index as 26 hex digits (§2).
    let deals: Vec<Deal> = PUBLISHED.iter().map(|(_, d)| deal(d)).collect();
    for ((number, _), d) in PUBLISHED.iter().zip(&deals) {
        assert_eq!(d.number(Scheme::Pavlicek).to_string(), *number);
    }
    let boards: Vec<Board> = [3, 4, 5, 16]
        .iter()
        .zip(&deals)
        .map(|(&n, &d)| Board::new(n, d))
        .collect();
    let out = write(&Json, &boards);
    let expected = "\
{\"board\":3,\"dealer\":\"S\",\"vulnerable\":\"EW\",\
\"deal\":\"S:..AKQJT9876543.6 ..2.AKQJT9875432 AKQJT98765432... .AKQJT98765432..\",\
\"number\":\"10\",\"scheme\":\"pavlicek\",\"index\":\"E4E4E4E4E4E4E4E4E0E4E4E4E5\"}
{\"board\":4,\"dealer\":\"W\",\"vulnerable\":\"All\",\
\"deal\":\"W:.AKQJT98765432.. AKQJT98765432... ...AKQJT98765432 ..AKQJT98765432.\",\
\"number\":\"84478098072866400\",\"scheme\":\"pavlicek\",\"index\":\"6C6C6C6C6C6C6C6C6C6C6C6C6C\"}
{\"board\":5,\"dealer\":\"N\",\"vulnerable\":\"NS\",\
\"deal\":\"N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\",\
\"number\":\"1\",\"scheme\":\"pavlicek\",\"index\":\"E4E4E4E4E4E4E4E4E4E4E4E4E4\"}
{\"board\":16,\"dealer\":\"W\",\"vulnerable\":\"EW\",\
\"deal\":\"W:AKQJT98765432... ...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432..\",\
\"number\":\"53644737765488792839237440000\",\"scheme\":\"pavlicek\",\"index\":\"1B1B1B1B1B1B1B1B1B1B1B1B1B\"}
";
    assert_eq!(String::from_utf8(out).unwrap(), expected);
    // Read back from the literal, not from the writer's output.
    let back = Json.read(expected.as_bytes()).unwrap();
    for (b, r) in boards.iter().zip(&back) {
        assert_eq!(r.number, b.number);
        assert_eq!(r.deal, b.deal);
        assert_eq!(r.dealer, Some(b.dealer_or_default()));
        assert_eq!(r.vulnerability, Some(b.vulnerability_or_default()));
    }
    // The other schemes' numbers, in Andrews' scheme: its published vector n = 10 (§1b).
    let andrews = deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJ98765432.A ..T.KQJT98765432");
    let opts = WriteOptions {
        scheme: Scheme::Andrews,
        ..WriteOptions::default()
    };
    let out = write_set(&Json, &[Board::new(1, andrews)], &opts).unwrap();
    let line = String::from_utf8(out).unwrap();
    assert!(
        line.contains(",\"number\":\"10\",\"scheme\":\"andrews\","),
        "{line}"
    );
    // index alone; deal and index that disagree.
    let idx = PUBLISHED_HEX[0];
    let b = Json
        .read(format!("{{\"index\":\"{idx}\"}}\n").as_bytes())
        .unwrap();
    assert_eq!((b[0].deal, b[0].number), (deals[0], None));
    let e = refused(
        Json.read(format!("\n{{\"deal\":\"{}\",\"index\":\"{idx}\"}}", deals[1]).as_bytes())
            .unwrap_err(),
    );
    assert_eq!(e.position, InputPosition::at_line(2));
    let e = refused(Json.read(b"{\"board\":1,").unwrap_err());
    assert!(
        (e.position.line, e.position.column.is_some()) == (Some(1), true),
        "{e}"
    );
    // A board whose explicit dealer differs from its number's keeps it.
    let mut odd = Board::new(1, deals[0]);
    odd.dealer = Some(Seat::South);
    let line = "{\"board\":1,\"dealer\":\"S\",\"vulnerable\":\"None\",\
        \"deal\":\"S:..AKQJT9876543.6 ..2.AKQJT9875432 AKQJT98765432... .AKQJT98765432..\",\
        \"number\":\"10\",\"scheme\":\"pavlicek\",\"index\":\"E4E4E4E4E4E4E4E4E0E4E4E4E5\"}\n";
    assert_eq!(
        String::from_utf8(write(&Json, std::slice::from_ref(&odd))).unwrap(),
        line
    );
    let back = Json.read(line.as_bytes()).unwrap();
    assert_eq!(back[0].dealer, Some(Seat::South));
    assert_eq!(back[0].deal, odd.deal);
}

#[test]
fn hex_lines_derived_by_hand_from_the_bit_layout() {
    // PUBLISHED_HEX was written out by hand from FORMATS.md §2 (see there), boards 1, 2, 3, 16
    // with §2's `-X` digit: the board mod 16, 0 for board 16.
    let deals: Vec<Deal> = PUBLISHED.iter().map(|(_, d)| deal(d)).collect();
    let boards: Vec<Board> = [1, 2, 3, 16]
        .iter()
        .zip(&deals)
        .map(|(&n, &d)| Board::new(n, d))
        .collect();
    let expected = "E4E4E4E4E4E4E4E4E0E4E4E4E5-1\n6C6C6C6C6C6C6C6C6C6C6C6C6C-2\n\
                    E4E4E4E4E4E4E4E4E4E4E4E4E4-3\n1B1B1B1B1B1B1B1B1B1B1B1B1B-0\n";
    assert_eq!(String::from_utf8(write(&Hex, &boards)).unwrap(), expected);
    let back = Hex.read(expected.as_bytes()).unwrap();
    assert_eq!(back.iter().map(|b| b.deal).collect::<Vec<_>>(), deals);
    let dealers: Vec<Option<Seat>> = back.iter().map(|b| b.dealer).collect();
    assert_eq!(
        dealers,
        [Seat::North, Seat::East, Seat::South, Seat::West].map(Some)
    );
    let vuls: Vec<Option<Vulnerability>> = back.iter().map(|b| b.vulnerability).collect();
    assert_eq!(
        vuls,
        [
            Vulnerability::None,
            Vulnerability::NorthSouth,
            Vulnerability::EastWest,
            Vulnerability::EastWest
        ]
        .map(Some)
    );
    // Lowercase is read too (§2: write uppercase, accept lowercase), and the leading `X-`.
    let lower = Hex.read(b"1-e4e4e4e4e4e4e4e4e0e4e4e4e5\n").unwrap();
    assert_eq!(
        (lower[0].deal, lower[0].dealer),
        (deals[0], Some(Seat::North))
    );
}

// ---------------------------------------------------------------------------------------------
// Write → read identity and readers that never panic

fn formats() -> [&'static dyn DealFormat; 11] {
    [
        &Lin, &Csv, &Ber, &Borel, &Kops, &Cds, &Goedel, &Hrf, &Hex, &Json, &OneLine,
    ]
}

/// Random boards: Pavlicek deals and increasing board numbers (with gaps), within `max`.
fn boards_strategy(max: u64) -> impl Strategy<Value = Vec<Board>> {
    (
        prop::collection::vec((1u128..=DEALS, 1u64..4), 1..12),
        1u64..200,
    )
        .prop_map(move |(v, first)| {
            let mut n = first;
            v.into_iter()
                .map(|(number, gap)| {
                    let b = Board::new(
                        (n - 1) % max + 1,
                        Deal::from_number(number, Scheme::Pavlicek).unwrap(),
                    );
                    n += gap;
                    b
                })
                .collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn write_read_identity(boards in boards_strategy(1_000_000)) {
        let first = boards[0].number;
        // Borel turns each line by its board's dealer: its boards are consecutive.
        let consecutive: Vec<Board> = boards
            .iter()
            .zip(first.unwrap()..)
            .map(|(b, n)| Board::new(n, b.deal))
            .collect();
        for f in formats() {
            let name = f.info().name;
            let boards = if name == "borel" { &consecutive } else { &boards };
            let out = write(f, boards);
            // Read as `--first-board` would say it: CDS holds the number mod 256, Borel's
            // rotation follows the board.
            let back = f.read_numbered(&out, &ReadOptions { first_board: first }).unwrap();
            prop_assert!(back.skipped.is_empty());
            let back = back.boards;
            prop_assert_eq!(back.len(), boards.len(), "{}", name);
            for (b, r) in boards.iter().zip(&back) {
                prop_assert_eq!(r.deal, b.deal, "{}", name);
                if f.info().board_numbers || name == "borel" {
                    prop_assert_eq!(r.number, b.number, "{}", name);
                }
                if r.dealer.is_some() || r.vulnerability.is_some() {
                    prop_assert_eq!(r.dealer_or_default(), b.dealer_or_default());
                    prop_assert_eq!(r.vulnerability_or_default(), b.vulnerability_or_default());
                }
            }
            // Read alone, the formats without board numbers number nothing.
            if !f.info().board_numbers && name != "borel" {
                let alone = f.read(&out).unwrap();
                prop_assert!(alone.iter().all(|r| r.number.is_none()), "{}", name);
                prop_assert_eq!(alone.iter().map(|r| r.deal).collect::<Vec<_>>(),
                    back.iter().map(|r| r.deal).collect::<Vec<_>>(), "{}", name);
            }
        }
    }

    #[test]
    fn explicit_dealer_and_vulnerability_survive(
        n in 1u128..=DEALS, board in 1u64..255, d in 0usize..4, v in 0usize..4,
    ) {
        let vul = [Vulnerability::None, Vulnerability::NorthSouth, Vulnerability::EastWest,
                   Vulnerability::All][v];
        let mut b = Board::new(board, Deal::from_number(n, Scheme::Pavlicek).unwrap());
        b.dealer = Some(Seat::from_index(d));
        b.vulnerability = Some(vul);
        for f in [&Lin as &dyn DealFormat, &Csv, &Hex, &Json] {
            let r = f.read(&write(f, std::slice::from_ref(&b))).unwrap();
            prop_assert_eq!(r[0].dealer, b.dealer, "{}", f.info().name);
            prop_assert_eq!(r[0].vulnerability, b.vulnerability, "{}", f.info().name);
            prop_assert_eq!(r[0].deal, b.deal);
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn readers_take_arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..400)) {
        for f in formats() {
            let checked = check_read_outcome(f, &data);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        }
    }

    #[test]
    fn readers_take_damaged_files(
        boards in boards_strategy(255),
        cut in any::<prop::sample::Index>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        for f in formats() {
            let name = f.info().name;
            let out = write(f, &boards);
            let truncated = &out[..cut.index(out.len() + 1)];
            let checked = check_read_outcome(f, truncated);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
            // A file cut short reads, if at all, as the boards before the cut: every one but
            // the last (which the cut may have changed, e.g. a Gödel number cut to a shorter
            // one) is the board written. Borel's lines turn by the board, which boards_strategy
            // does not number consecutively: its deals are compared in write_read_identity.
            if let (Ok(back), true) = (f.read(truncated), name != "borel") {
                prop_assert!(back.len() <= boards.len(), "{}", name);
                let keep = back.len().saturating_sub(1);
                for (b, r) in boards.iter().zip(&back).take(keep) {
                    prop_assert_eq!(r.deal, b.deal, "{}", name);
                }
            }
            let mut bad = out.clone();
            for (i, v) in &flips {
                let k = i.index(bad.len());
                bad[k] = *v;
            }
            let checked = check_read_outcome(f, &bad);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        }
    }

    #[test]
    fn lin_reader_takes_damaged_play_records(
        cut in any::<prop::sample::Index>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let truncated = &FIXTURE_LIN[..cut.index(FIXTURE_LIN.len() + 1)];
        let checked = check_read_outcome(&Lin, truncated);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        // Cut short, the record gives its own deal (East, and anything after North's hand,
        // may be missing) or, with two hands or more cut away, none (skipped).
        if let Ok(back) = Lin.read(truncated) {
            prop_assert!(back.len() <= 1);
            if let Some(b) = back.first() {
                prop_assert_eq!(b.deal, deal(FIXTURE_LIN_DEAL));
            }
        }
        let mut bad = FIXTURE_LIN.to_vec();
        for (i, v) in &flips {
            let k = i.index(bad.len());
            bad[k] = *v;
        }
        let checked = check_read_outcome(&Lin, &bad);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        // Flips into LIN's own alphabet (suits, ranks, digits, separators) reach deeper.
        let alphabet = b"SHDCAKQJT98765432|,pnmbc!";
        let mut bad = FIXTURE_LIN.to_vec();
        for (i, p) in picks.iter().zip(&flips) {
            let k = i.index(bad.len());
            bad[k] = alphabet[p.0.index(alphabet.len())];
        }
        let checked = check_read_outcome(&Lin, &bad);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

#[test]
fn lin_game_record_round_trip_from_parts() {
    // A game built by hand (as the PBN reader would give it): auction with AP, partial play.
    let d = deal("N:Q854.KQJ7.Q3.K93 AT962.2.KJ875.AT J.T864.T62.QJ754 K73.A953.A94.862");
    let mut b = Board::new(1, d);
    let tricks = vec![
        [card("C5"), card("C2"), card("CK"), card("CA")].map(Some),
        [Some(card("SJ")), None, None, Some(card("S2"))],
    ];
    b.game = Some(Box::new(GameRecord {
        tags: vec![("North".into(), "n".into())],
        auction: Some(Auction {
            first: Seat::North,
            calls: ["1C", "1S", "Pass", "2S", "Pass", "3D", "Pass", "4S", "AP"]
                .map(String::from)
                .to_vec(),
            notes: vec![],
        }),
        play: Some(Play {
            leader: Seat::South,
            tricks,
        }),
        comments: vec![],
        source: None,
    }));
    let out = write(&Lin, &[b]);
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(text.contains("pn|,,n,|"), "{text}");
    // Trick 2 is led by East (♣A wins trick 1): in play order E, S, then W's card is missing,
    // so the trick stops there.
    assert!(
        text.contains("mb|4S|mb|p|mb|p|mb|p|pg||pc|C5|pc|C2|pc|CK|pc|CA|pg||pc|S2|pc|SJ|pg||"),
        "{text}"
    );
    let back = Lin.read(&out).unwrap();
    let g = back[0].game.as_deref().unwrap();
    assert_eq!(
        g.play.as_ref().unwrap().tricks[0],
        [card("C5"), card("C2"), card("CK"), card("CA")].map(Some)
    );
    assert_eq!(
        g.play.as_ref().unwrap().tricks[1],
        [Some(card("SJ")), None, None, Some(card("S2"))]
    );
}

/// The skip rule (issue 15) in LIN and JSON lines: records with two or more hands missing
/// are skipped and reported; numbering keeps their places.
#[test]
fn lin_and_json_skip_records_without_a_complete_deal() {
    use dealdex::formats::{FileBoards, number_records};
    let lin = "qx|o1|md|3SAKQHAKQDAKQCAKQJ,,,|ah|Board 1|mb|2c|mb|p|pg||\n\
               qx|o2|md|4SAQ6HJ73D83CAT872,SJT53HDKQJT72CK53,S842HQ654D964CJ94|ah|Board 2|pg||\n\
               qx|o3|md|1|pg||\n";
    let read = Lin.read_all(lin.as_bytes()).unwrap();
    assert_eq!(read.boards.len(), 1);
    assert_eq!(read.boards[0].number, Some(2));
    let skipped: Vec<_> = read
        .skipped
        .iter()
        .map(|s| (s.board, s.record, s.line))
        .collect();
    assert_eq!(skipped, [(Some(1), 1, Some(1)), (Some(3), 3, Some(3))]);
    // A hand of 14 cards, or three hands that are not 13 each: errors, as before.
    for md in [
        "md|3SAKQHAKQDAKQCAKQJT,,,|",
        "md|4SAQ6HJ73D83CAT872,SJT53HDKQJT72CK53,S842HQ654D964CJ9|",
    ] {
        let e = refused(Lin.read(md.as_bytes()).unwrap_err());
        assert!(e.message.starts_with("md| is not a deal"), "{md}: {e}");
    }

    let full = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    let json = format!(
        "{{\"deal\":\"{full}\"}}\n{{\"deal\":\"\"}}\n{{\"board\":9,\"deal\":\"N:AKQ.AKQ.AKQ.AKQJ - - -\"}}\n\
         {{\"deal\":\"N:AKQJT98765432... - ..AKQJT98765432. ...AKQJT98765432\"}}\n"
    );
    let mut read: FileBoards = Json.read_all(json.as_bytes()).unwrap();
    assert_eq!(read.boards.len(), 2, "one hand missing: completed");
    assert_eq!(read.boards[1].deal, read.boards[0].deal);
    number_records(&mut read, 1);
    let numbers: Vec<_> = read.boards.iter().map(|b| b.number).collect();
    assert_eq!(
        numbers,
        [Some(1), Some(10)],
        "skipped lines keep their places"
    );
    let skipped: Vec<_> = read.skipped.iter().map(|s| (s.board, s.line)).collect();
    assert_eq!(skipped, [(Some(2), Some(2)), (Some(9), Some(3))]);
    let e = refused(
        Json.read(b"{\"deal\":\"N:AKQ.AKQ.AKQ.AKQJT - - -\"}\n")
            .unwrap_err(),
    );
    assert!(e.message.contains("N holds 14 cards"), "{e}");
}

/// A JSON line's `number` must be its deal's, in its `scheme` (Pavlicek when absent), as the
/// `index` must: a wrong or non-numeric number is an error naming the line.
#[test]
fn json_numbers_are_checked_against_the_deal() {
    let d = deal(DUP_DEAL);
    let line = |number: &str, scheme: &str| {
        format!(
            "\n{{\"board\":1,\"deal\":\"{}\",\"number\":\"{number}\"{scheme}}}\n",
            dealdex::format_deal(&d, Seat::North)
        )
    };
    let pavlicek = d.number(Scheme::Pavlicek).to_string();
    let big_deal = d.number(Scheme::BigDeal).to_string();
    assert!(Json.read(line(&pavlicek, "").as_bytes()).is_ok());
    assert!(
        Json.read(line(&big_deal, ",\"scheme\":\"bigdeal\"").as_bytes())
            .is_ok()
    );
    for (number, scheme) in [
        (big_deal.as_str(), ""),
        ("1", ""),
        ("banana", ""),
        (pavlicek.as_str(), ",\"scheme\":\"bigdeal\""),
        (pavlicek.as_str(), ",\"scheme\":\"nosuch\""),
    ] {
        let e = refused(Json.read(line(number, scheme).as_bytes()).unwrap_err());
        assert_eq!(
            e.position,
            InputPosition::at_line(2),
            "{number} {scheme}: {e}"
        );
    }
}

/// A LIN value broken over two lines (a damaged file) is an error at the byte that is wrong,
/// named by its own line and column (the reader once counted the column from the value's
/// start across the line break: `line 1, column 11`, a column line 1 does not have).
#[test]
fn lin_errors_inside_a_value_spread_over_lines_name_the_right_line() {
    let text = b"qx|o1|md|\nSHDAKQJT98765432C,SHDCAKQJT98765432,SAKQJT98765432HDC|rh||\n";
    let e = refused(Lin.read(text).unwrap_err());
    assert_eq!(e.position, InputPosition::at_line_column(2, 1), "{e}");
}
