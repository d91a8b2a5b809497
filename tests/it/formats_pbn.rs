//! PBN 2.1 reader and writer (FORMATS.md §4): the public fixtures, byte-exact export, round
//! trips, error locations and robustness against damaged input.

use dealdex::InputPosition;
use dealdex::formats::{Auction, Board, DealFormat, GameRecord, Pbn, Play, WriteOptions};
use dealdex::{Card, DEALS, Deal, Rank, Scheme, Seat, Suit, Vulnerability};
use proptest::prelude::*;

use crate::common::{check_read_outcome, refused};

const SPEC: &str = include_str!("../fixtures/pbn-spec-example.pbn");
const QUIRKS: &str = include_str!("../fixtures/pbn-import-quirks.pbn");

fn read(text: &str) -> Vec<Board> {
    Pbn.read(text.as_bytes()).unwrap()
}

fn write(boards: &[Board], event: &str) -> String {
    let opts = WriteOptions {
        event: event.into(),
        ..WriteOptions::default()
    };
    let bytes = dealdex::formats::write_set(&Pbn, boards, &opts).unwrap();
    String::from_utf8(bytes).unwrap()
}

fn card(s: &str) -> Card {
    let mut c = s.chars();
    let suit = Suit::from_char(c.next().unwrap()).unwrap();
    let rank = Rank::from_char(c.next().unwrap()).unwrap();
    Card::new(suit, rank)
}

fn trick(cards: [&str; 4]) -> [Option<Card>; 4] {
    cards.map(|c| (c != "-").then(|| card(c)))
}

fn tag<'a>(rec: &'a GameRecord, name: &str) -> Option<&'a str> {
    rec.tags
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn err(text: &str) -> InputPosition {
    refused(Pbn.read(text.as_bytes()).unwrap_err()).position
}

#[test]
fn spec_example() {
    let boards = read(SPEC);
    assert_eq!(boards.len(), 1);
    let b = &boards[0];
    assert_eq!(b.number, Some(1));
    assert_eq!(b.dealer, Some(Seat::North));
    assert_eq!(b.vulnerability, Some(Vulnerability::All));
    // The deal tag, hand by hand.
    let hands = [
        (Seat::North, ["", "63", "AKQ987", "A9732"]),
        (Seat::East, ["A8654", "KQ5", "T", "QJT6"]),
        (Seat::South, ["J973", "J98742", "3", "K4"]),
        (Seat::West, ["KQT2", "AT", "J6542", "85"]),
    ];
    for (seat, suits) in hands {
        for (suit, holding) in Suit::ALL.into_iter().zip(suits) {
            assert_eq!(
                b.deal.hand(seat).holding_string(suit),
                holding,
                "{seat} {suit}"
            );
        }
    }
    let rec = b.game.as_deref().expect("a full game has a record");
    let names: Vec<&str> = rec.tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
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
            "Auction",
            "Note",
            "Note",
            "Play"
        ]
    );
    assert_eq!(
        tag(rec, "Event"),
        Some("International Amsterdam Airport Schiphol Bridgetournament")
    );
    assert_eq!(tag(rec, "Vulnerable"), Some("Both"));
    assert_eq!(tag(rec, "Contract"), Some("5HX"));
    assert_eq!(rec.comments.len(), 1);
    let c = &rec.comments[0];
    assert!(
        c.starts_with("\n                S\n                H 6 3\n"),
        "{c:?}"
    );
    assert!(c.ends_with("                C K 4   \n"), "{c:?}");
    assert_eq!(
        c.lines().count(),
        13,
        "an empty first line and the 12 diagram lines"
    );

    let a = rec.auction.as_ref().expect("auction");
    assert_eq!(a.first, Seat::North);
    assert_eq!(
        a.calls,
        [
            "1D", "1S", "3H", "=1=", "4S", "4NT", "=2=", "X", "Pass", "Pass", "5C", "X", "5H", "X",
            "Pass", "Pass", "Pass"
        ]
    );
    assert_eq!(a.notes.len(), 2);
    assert_eq!(
        a.notes[0],
        (1, "non-forcing 6-9 points, 6-card".to_string())
    );
    assert_eq!(
        a.notes[1],
        (2, "two colors: clubs and diamonds".to_string())
    );

    let p = rec.play.as_ref().expect("play");
    assert_eq!(p.leader, Seat::West);
    assert_eq!(p.tricks.len(), 7);
    assert_eq!(p.tricks[0], trick(["SK", "H3", "S4", "S3"]));
    assert_eq!(p.tricks[1], trick(["C5", "C2", "C6", "CK"]));
    assert_eq!(p.tricks[6], trick(["-", "-", "-", "H2"]));
    // PBN's layout: column j is seat leader.rotate(j), whoever led the trick.
    for t in &p.tricks {
        for (j, c) in t.iter().enumerate() {
            if let Some(c) = c {
                assert_eq!(b.deal.seat_of(*c), p.leader.rotate(j), "{c}");
            }
        }
    }
}

#[test]
fn spec_example_survives_write_and_read() {
    let first = read(SPEC);
    let text = write(&first, "");
    let second = read(&text);
    assert_eq!(second.len(), 1);
    let (a, b) = (&first[0], &second[0]);
    assert_eq!(b.deal, a.deal);
    assert_eq!(b.number, a.number);
    assert_eq!(b.dealer, a.dealer);
    assert_eq!(b.vulnerability, a.vulnerability);
    let (ra, rb) = (a.game.as_deref().unwrap(), b.game.as_deref().unwrap());
    assert_eq!(rb.auction, ra.auction);
    assert_eq!(rb.play, ra.play);
    assert_eq!(rb.comments, ra.comments);
    // Same tags in the same order; only Vulnerable is written in its export spelling.
    assert_eq!(rb.tags.len(), ra.tags.len());
    for ((na, va), (nb, vb)) in ra.tags.iter().zip(&rb.tags) {
        assert_eq!(nb, na);
        if na == "Vulnerable" {
            assert_eq!((va.as_str(), vb.as_str()), ("Both", "All"));
        } else {
            assert_eq!(vb, va, "{na}");
        }
    }
    // From then on the text is stable.
    assert_eq!(write(&second, ""), text);
    assert!(text.starts_with("% PBN 2.1\n% EXPORT\n\n[Event \"International"));
    assert!(text.contains("[Auction \"N\"]\n1D 1S 3H =1= 4S\n4NT =2= X Pass Pass\n"));
    assert!(text.contains("[Play \"W\"]\nSK H3 S4 S3\nC5 C2 C6 CK\n"));
    assert!(text.contains("- - - H2\n*\n"));
}

#[test]
fn notes_after_the_play_are_written_back() {
    // The spec's own example ends with a note on the play.
    let text = format!("{SPEC}[Note \"1:highest of series\"]\n");
    let boards = read(&text);
    let rec = boards[0].game.as_deref().unwrap();
    assert_eq!(
        rec.auction.as_ref().unwrap().notes.len(),
        2,
        "not an auction note"
    );
    assert_eq!(
        rec.tags.last().unwrap(),
        &("Note".to_string(), "1:highest of series".to_string())
    );
    let out = write(&boards, "");
    assert!(
        out.ends_with("- - - H2\n*\n[Note \"1:highest of series\"]\n"),
        "{out}"
    );
    assert_eq!(
        read(&out),
        boards
            .iter()
            .map(|b| {
                let mut b = b.clone();
                let g = b.game.as_mut().unwrap();
                for (n, v) in &mut g.tags {
                    if n == "Vulnerable" {
                        *v = "All".into();
                    }
                }
                b
            })
            .collect::<Vec<_>>()
    );
}

#[test]
fn import_quirks() {
    let boards = read(QUIRKS);
    assert_eq!(boards.len(), 1);
    let b = &boards[0];
    assert_eq!(b.number, None, "the file has no Board tag");
    assert_eq!(b.dealer, Some(Seat::East));
    assert_eq!(b.vulnerability, Some(Vulnerability::NorthSouth));
    // W: first and ranks ascending; worked out by hand from the file.
    assert_eq!(
        dealdex::format_deal(&b.deal, Seat::North),
        "N:AK6.AK2.432.KJT8 J92.3.KQT865.965 Q73.9876.AJ9.742 T854.QJT54.7.AQ3"
    );
    let rec = b.game.as_deref().unwrap();
    assert_eq!(tag(rec, "Event"), Some("Board 2"));
    assert_eq!(tag(rec, "Score"), Some("EW 700"));
    assert_eq!(rec.tags[0].0, "Event");
    let a = rec.auction.as_ref().unwrap();
    assert_eq!(a.first, Seat::East);
    assert_eq!(
        a.calls,
        ["Pass", "Pass", "1H", "1NT", "Pass", "Pass", "Pass"]
    );
    assert!(a.notes.is_empty());
    let p = rec.play.as_ref().unwrap();
    assert_eq!(p.leader, Seat::East);
    assert_eq!(p.tricks.len(), 13);
    assert_eq!(p.tricks[0], trick(["DK", "D9", "D7", "D2"]));
    assert_eq!(p.tricks[12], trick(["DQ", "H9", "HJ", "H2"]));
    // 52 distinct cards, each in its seat's column.
    let mut seen = 0u64;
    for t in &p.tricks {
        for (j, c) in t.iter().enumerate() {
            let c = c.unwrap();
            assert_eq!(b.deal.seat_of(c), p.leader.rotate(j));
            seen |= 1 << c.index();
        }
    }
    assert_eq!(seen.count_ones(), 52);

    // Export: dealer first, canonical ranks, the mandatory tags added.
    let text = write(&boards, "");
    assert!(text.contains(
        "[Board \"1\"]\n[West \"Mietek11\"]\n[North \"tonieponie\"]\n[East \"kozyrek\"]\n\
         [South \"Kierep\"]\n[Dealer \"E\"]\n[Vulnerable \"NS\"]\n\
         [Deal \"E:J92.3.KQT865.965 Q73.9876.AJ9.742 T854.QJT54.7.AQ3 AK6.AK2.432.KJT8\"]\n\
         [Scoring \"?\"]\n[Declarer \"N\"]\n[Contract \"1NT\"]\n[Result \"?\"]\n[Score \"EW 700\"]\n\
         [Auction \"E\"]\nPass Pass 1H 1NT\nPass Pass Pass\n[Play \"E\"]\nDK D9 D7 D2\n"
    ));
    assert!(!text.contains('*'), "13 tricks: no end marker");
    let again = read(&text);
    assert_eq!(again[0].deal, b.deal);
    assert_eq!(again[0].number, Some(1));
    let r2 = again[0].game.as_deref().unwrap();
    assert_eq!(r2.auction, rec.auction);
    assert_eq!(r2.play, rec.play);
    for (n, v) in &rec.tags {
        if !["Deal", "Board", "Auction", "Play"].contains(&n.as_str()) {
            assert_eq!(tag(r2, n), Some(v.as_str()), "{n}");
        }
    }
    assert_eq!(write(&again, ""), text);
}

fn sorted_deal() -> Deal {
    "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
        .parse()
        .unwrap()
}

#[test]
fn writer_byte_exact_without_record() {
    let text = write(&[Board::new(2, sorted_deal())], "Club \"pairs\"");
    assert_eq!(
        text,
        "% PBN 2.1\n% EXPORT\n\n\
         [Event \"Club 'pairs'\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"2\"]\n\
         [West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n\
         [Dealer \"E\"]\n[Vulnerable \"NS\"]\n\
         [Deal \"E:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432...\"]\n\
         [Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n[Result \"?\"]\n"
    );
    // Several games, written out by hand from PBN 2.1 (FORMATS.md §4): one empty line between
    // games and none after the last, `?` for the unknown event, the deal from the dealer, the
    // dealer and vulnerability of the 16-board cycle (§3: board 7 S All, 16 W EW, 17 N None).
    // The deals: FORMATS.md §2's, and Pavlicek's published numbers 10 and D (§1a).
    let deals = [
        "N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76",
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.6 ..2.AKQJT9875432",
        "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432...",
    ];
    let boards: Vec<Board> = [7, 16, 17]
        .iter()
        .zip(deals)
        .map(|(&n, d)| Board::new(n, d.parse().unwrap()))
        .collect();
    let game = |board: u64, dealer: &str, vul: &str, deal: &str| {
        format!(
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"{board}\"]\n\
             [West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n\
             [Dealer \"{dealer}\"]\n[Vulnerable \"{vul}\"]\n[Deal \"{deal}\"]\n\
             [Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n[Result \"?\"]\n"
        )
    };
    let expected = [
        "% PBN 2.1\n% EXPORT\n".to_string(),
        game(
            7,
            "S",
            "All",
            "S:AQ42.A8.KJ762.J2 KT653.95.853.T76 J987.JT7643.A4.Q .KQ2.QT9.AK98543",
        ),
        game(
            16,
            "W",
            "EW",
            "W:..2.AKQJT9875432 AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.6",
        ),
        game(
            17,
            "N",
            "None",
            "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432...",
        ),
    ]
    .join("\n");
    assert_eq!(write(&boards, ""), expected);
    // And read back from the literal.
    let back = read(&expected);
    assert_eq!(
        back.iter().map(|b| (b.number, b.deal)).collect::<Vec<_>>(),
        boards
            .iter()
            .map(|b| (b.number, b.deal))
            .collect::<Vec<_>>()
    );
}

fn record_board() -> Board {
    let deal: Deal = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
        .parse()
        .unwrap();
    let s = |x: &str| x.to_string();
    Board {
        number: Some(5),
        dealer: Some(Seat::South),
        vulnerability: Some(Vulnerability::EastWest),
        deal,
        dd: None,
        game: Some(Box::new(GameRecord {
            tags: vec![
                (s("Event"), s("Final")),
                (s("Generator"), s("dealdex")),
                (s("West"), s("Ann")),
                (s("Board"), s("99")),
                (s("Deal"), s("ignored")),
                (s("Note"), s("7:not an auction note")),
                (s("Room"), s("Open")),
            ],
            auction: Some(Auction {
                first: Seat::South,
                calls: [
                    "1NT", "=1=", "Pass", "2C", "Pass", "2D", "Pass", "3NT", "AP",
                ]
                .map(s)
                .to_vec(),
                notes: vec![(1, s("15-17"))],
            }),
            play: Some(Play {
                leader: Seat::West,
                tricks: vec![
                    trick(["SK", "S3", "SA", "S2"]),
                    trick(["H4", "-", "-", "-"]),
                ],
            }),
            comments: vec![s("two\nlines"), s("has } brace")],
            source: None,
        })),
    }
}

#[test]
fn writer_byte_exact_with_record() {
    let mut out = Vec::new();
    Pbn.write_boards(&[record_board()], &WriteOptions::default(), &mut out)
        .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "\n[Event \"Final\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"5\"]\n\
         [West \"Ann\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n\
         [Dealer \"S\"]\n[Vulnerable \"EW\"]\n\
         [Deal \"S:J973.J98742.3.K4 KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6\"]\n\
         [Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n[Result \"?\"]\n\
         [Generator \"dealdex\"]\n[Room \"Open\"]\n\
         {two\nlines}\n;has } brace\n\
         [Auction \"S\"]\n1NT =1= Pass 2C Pass\n2D Pass 3NT AP\n[Note \"1:15-17\"]\n\
         [Play \"W\"]\nSK S3 SA S2\nH4 - - -\n*\n"
    );
}

#[test]
fn record_reads_back() {
    let b = record_board();
    let back = read(&write(std::slice::from_ref(&b), ""));
    assert_eq!(back.len(), 1);
    let r = &back[0];
    assert_eq!(
        (r.number, r.dealer, r.vulnerability),
        (Some(5), Some(Seat::South), Some(Vulnerability::EastWest))
    );
    assert_eq!(r.deal, b.deal);
    let (orig, rec) = (b.game.as_deref().unwrap(), r.game.as_deref().unwrap());
    assert_eq!(rec.auction, orig.auction);
    assert_eq!(rec.play, orig.play);
    assert_eq!(rec.comments, orig.comments);
    assert_eq!(tag(rec, "Generator"), Some("dealdex"));
    assert_eq!(tag(rec, "Board"), Some("5"));
}

#[test]
fn template_games_have_no_record() {
    let boards = [Board::new(3, sorted_deal()), Board::new(17, sorted_deal())];
    let back = read(&write(&boards, ""));
    assert_eq!(back.len(), 2);
    for (b, r) in boards.iter().zip(&back) {
        assert_eq!(r.number, b.number);
        assert_eq!(r.deal, b.deal);
        assert_eq!(r.dealer, Some(b.dealer_or_default()));
        assert_eq!(r.vulnerability, Some(b.vulnerability_or_default()));
        assert_eq!(r.game, None);
    }
    // An event is kept: the record holds just the Event tag, and the text comes back.
    let text = write(&boards, "Club");
    let back = read(&text);
    let rec = back[1].game.as_deref().unwrap();
    assert_eq!(rec.tags, [("Event".to_string(), "Club".to_string())]);
    assert_eq!(
        (&rec.auction, &rec.play, rec.comments.len()),
        (&None, &None, 0)
    );
    assert_eq!(write(&back, ""), text);
    // Anything beyond the template gives the full record with every tag.
    for (from, to) in [
        ("[Site \"?\"]", "[Site \"Here\"]"),
        ("[Result \"?\"]\n", "[Result \"?\"]\n{note}\n"),
        ("[Result \"?\"]\n", "[Result \"?\"]\n[Room \"Open\"]\n"),
        ("[Site \"?\"]\n[Date \"?\"]", "[Date \"?\"]\n[Site \"?\"]"),
    ] {
        let changed = text.replacen(from, to, 1);
        assert_ne!(changed, text);
        let back = read(&changed);
        assert!(back[0].game.as_deref().unwrap().tags.len() >= 15, "{to}");
        assert_eq!(back[1].game.as_deref().unwrap().tags.len(), 1, "{to}");
        assert_eq!(
            write(&back, ""),
            changed.replacen(
                "[Date \"?\"]\n[Site \"?\"]",
                "[Site \"?\"]\n[Date \"?\"]",
                1
            )
        );
    }
}

#[test]
fn tolerant_import() {
    let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    // CRLF, tags in any order, no empty line between games, '#' inheritance, Latin-1 and
    // UTF-8 values, comments on tag lines, `;` lines, games without a deal skipped.
    let text = format!(
        "\u{feff}% PBN 2.1\r\n%Creator: test\r\n\r\n[Event \"Caf\u{e9}\"]\r\n[Deal \"{deal}\"] {{inline}}\r\n\
         [Board \" 12 \"]\r\n[Site \"Here\"] trailing words\r\n[Vulnerable \"love\"]\r\n[Dealer \"w\"]\r\n; a remark\r\n\
         [Event \"#\"]\r\n[Board \"?\"]\r\n[Deal \"S:..AKQJT98765432. ...23456789TJQKA - .AKQJT98765432..\"]\r\n\
         [Vulnerable \"?\"][Dealer \"\"]\r\n\r\n[Event \"no deal\"]\r\n\r\n\
         [Title \"say \"hi\"\"]\n[Deal \"{deal}\"]\n"
    );
    let mut bytes = text.into_bytes();
    // A Latin-1 é in a fourth game.
    bytes.extend_from_slice(b"\n[Event \"Caf\xe9\"]\n[Deal \"");
    bytes.extend_from_slice(deal.as_bytes());
    bytes.extend_from_slice(b"\"]\n");
    let boards = Pbn.read(&bytes).unwrap();
    assert_eq!(boards.len(), 4);
    let d = sorted_deal();
    assert!(boards.iter().all(|b| b.deal == d));
    assert_eq!(boards[0].number, Some(12));
    assert_eq!(boards[0].dealer, Some(Seat::West));
    assert_eq!(boards[0].vulnerability, Some(Vulnerability::None));
    let r0 = boards[0].game.as_deref().unwrap();
    assert_eq!(tag(r0, "Event"), Some("Café"));
    assert_eq!(r0.comments, ["inline", " a remark"]);
    assert_eq!(tag(r0, "Site"), Some("Here"));
    assert_eq!(
        (boards[1].number, boards[1].dealer, boards[1].vulnerability),
        (None, None, None)
    );
    assert_eq!(
        tag(boards[1].game.as_deref().unwrap(), "Event"),
        Some("Café")
    );
    assert_eq!(
        tag(boards[2].game.as_deref().unwrap(), "Title"),
        Some("say \"hi\"")
    );
    assert_eq!(
        tag(boards[3].game.as_deref().unwrap(), "Event"),
        Some("Café")
    );
}

#[test]
fn errors_name_line_and_column() {
    let good = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    let game = |deal: &str| format!("% PBN 2.1\n\n[Event \"?\"]\n[Deal \"{deal}\"]\n");
    // 51 cards: North's hand (column 10) holds 12.
    let e = refused(
        Pbn.read(
            game("N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432").as_bytes(),
        )
        .unwrap_err(),
    );
    assert_eq!(e.position, InputPosition::at_line_column(4, 10));
    assert!(e.message.contains("N holds 12 cards"), "{e}");
    // ♠A twice: the second one (West's) is the error.
    let dup = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. A...KQJT98765432";
    let line = format!("[Deal \"{dup}\"]");
    assert_eq!(line.find("A...K").unwrap() + 1, 61);
    let e = refused(Pbn.read(game(dup).as_bytes()).unwrap_err());
    assert_eq!(e.position, InputPosition::at_line_column(4, 61));
    assert!(e.message.contains("SA is held by both N and W"), "{e}");
    // Unknown rank symbol, unknown seat.
    assert_eq!(
        err(&game(
            "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543X"
        )),
        InputPosition::at_line_column(4, 76)
    );
    assert_eq!(
        err(&game(&good.replacen('N', "Q", 1))),
        InputPosition::at_line_column(4, 8)
    );
    // Unknown suit symbol in a play card, bad call, bad seat.
    let full = |extra: &str| format!("{}{extra}", game(good));
    assert_eq!(
        err(&full("[Play \"N\"]\nSA S2 ZK S3\n")),
        InputPosition::at_line_column(6, 7)
    );
    assert_eq!(
        err(&full("[Auction \"N\"]\nPass 1Z\n")),
        InputPosition::at_line_column(6, 6)
    );
    assert_eq!(
        err(&full("[Auction \"Q\"]\n")),
        InputPosition::at_line_column(5, 11)
    );
    assert_eq!(
        err(&full("[Dealer \"NE\"]\n")),
        InputPosition::at_line_column(5, 10)
    );
    assert_eq!(
        err(&full("[Vulnerable \"Red\"]\n")),
        InputPosition::at_line_column(5, 14)
    );
    // Board 0.
    let e = refused(Pbn.read(full("[Board \"0\"]\n").as_bytes()).unwrap_err());
    assert_eq!(e.position, InputPosition::at_line_column(5, 9));
    assert!(e.message.contains("board number 0"), "{e}");
    // Unterminated tag and comment.
    assert!(matches!(
        err(&full("[Event \"abc\n")),
        InputPosition {
            line: Some(5),
            column: Some(_),
            ..
        }
    ));
    assert!(matches!(
        err(&full("[Event abc]\n")),
        InputPosition {
            line: Some(5),
            column: Some(_),
            ..
        }
    ));
    assert_eq!(err(&full("\n{ never\nclosed\n")), InputPosition::at_line(6));
    // A deal that is not UTF-8: the column counts the bytes before it.
    let mut bad = b"[Deal \"N:\xe9".to_vec();
    bad.extend_from_slice(&good.as_bytes()[3..]);
    bad.extend_from_slice(b"\"]\n");
    assert_eq!(
        refused(Pbn.read(&bad).unwrap_err()).position,
        InputPosition::at_line_column(1, 10)
    );
}

#[test]
fn writer_rejects_board_zero_and_appends_nothing() {
    let mut b = Board::new(0, sorted_deal());
    let mut out = b"x".to_vec();
    assert!(
        Pbn.write_boards(
            &[Board::new(1, sorted_deal()), b.clone()],
            &WriteOptions::default(),
            &mut out
        )
        .is_err()
    );
    assert_eq!(out, b"x");
    b.number = None;
    assert!(
        Pbn.write_boards(&[b], &WriteOptions::default(), &mut out)
            .is_err()
    );
    assert_eq!(out, b"x");
}

fn seat() -> impl Strategy<Value = Seat> {
    (0usize..4).prop_map(Seat::from_index)
}

fn vul() -> impl Strategy<Value = Vulnerability> {
    prop_oneof![
        Just(Vulnerability::None),
        Just(Vulnerability::NorthSouth),
        Just(Vulnerability::EastWest),
        Just(Vulnerability::All)
    ]
}

fn value() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 '\"é?.,:-]{0,20}".prop_filter("# inherits", |v| v != "#")
}

fn record() -> impl Strategy<Value = GameRecord> {
    let name = prop_oneof![
        Just("Site"),
        Just("West"),
        Just("Generator"),
        Just("Room"),
        Just("Score"),
        Just("Annotator"),
        Just("Event")
    ];
    let call = prop_oneof![
        Just("1D"),
        Just("3NT"),
        Just("Pass"),
        Just("X"),
        Just("XX"),
        Just("AP"),
        Just("=1="),
        Just("$2"),
        Just("-"),
        Just("*"),
        Just("2S!")
    ];
    let card = proptest::option::of((0usize..52).prop_map(|i| Card::from_index(i).unwrap()));
    (
        proptest::collection::vec((name, value()), 0..6),
        proptest::option::of((
            seat(),
            proptest::collection::vec(call, 0..20),
            proptest::collection::vec((1u32..100_000, value()), 0..3),
        )),
        proptest::option::of((
            seat(),
            proptest::collection::vec([card.clone(), card.clone(), card.clone(), card], 0..=13),
        )),
        proptest::collection::vec("[a-zA-Z0-9 ;%\n\\[\\]\"é{]{0,30}", 0..3),
    )
        .prop_map(|(tags, auction, play, comments)| GameRecord {
            tags: tags.into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
            auction: auction.map(|(first, calls, notes)| Auction {
                first,
                calls: calls.into_iter().map(String::from).collect(),
                notes,
            }),
            play: play.map(|(leader, tricks)| Play { leader, tricks }),
            comments,
            source: None,
        })
}

fn board() -> impl Strategy<Value = Board> {
    (
        1u128..=DEALS,
        1u64..1_000_000,
        proptest::option::of(seat()),
        proptest::option::of(vul()),
        proptest::option::of(record()),
    )
        .prop_map(|(n, number, dealer, vulnerability, game)| Board {
            number: Some(number),
            dealer,
            vulnerability,
            deal: Deal::from_number(n, Scheme::Pavlicek).unwrap(),
            game: game.map(Box::new),
            dd: None,
        })
}

proptest! {
    #[test]
    fn write_read_identity(deals in proptest::collection::vec((1u128..=DEALS, 1u64..100_000), 1..20)) {
        let boards: Vec<Board> = deals
            .iter()
            .map(|&(n, b)| Board::new(b, Deal::from_number(n, Scheme::Pavlicek).unwrap()))
            .collect();
        let text = write(&boards, "");
        let back = read(&text);
        prop_assert_eq!(back.len(), boards.len());
        for (b, r) in boards.iter().zip(&back) {
            prop_assert_eq!(r.number, b.number);
            prop_assert_eq!(r.deal, b.deal);
            prop_assert_eq!(r.dealer, Some(b.dealer_or_default()));
            prop_assert_eq!(r.vulnerability, Some(b.vulnerability_or_default()));
            prop_assert_eq!(&r.game, &None);
        }
        prop_assert_eq!(write(&back, ""), text);
    }

    #[test]
    fn records_round_trip(boards in proptest::collection::vec(board(), 1..6), event in value()) {
        let text = write(&boards, &event);
        let back = read(&text);
        prop_assert_eq!(back.len(), boards.len());
        for (b, r) in boards.iter().zip(&back) {
            prop_assert_eq!(r.number, b.number);
            prop_assert_eq!(r.deal, b.deal);
            prop_assert_eq!(r.dealer, Some(b.dealer_or_default()));
            prop_assert_eq!(r.vulnerability, Some(b.vulnerability_or_default()));
            let empty = GameRecord::default();
            let orig = b.game.as_deref().unwrap_or(&empty);
            let rec = r.game.as_deref().unwrap_or(&empty);
            prop_assert_eq!(&rec.auction, &orig.auction);
            prop_assert_eq!(&rec.play, &orig.play);
            let comments: Vec<String> = orig
                .comments
                .iter()
                .map(|c| if c.contains('}') && c.contains('\n') { c.replace('}', ")") } else { c.clone() })
                .collect();
            prop_assert_eq!(&rec.comments, &comments);
            // The record's own tags come back in order, after the mandatory ones.
            let others = |g: &GameRecord| -> Vec<(String, String)> {
                g.tags
                    .iter()
                    .filter(|(n, _)| !["Event", "Site", "West", "Board", "Deal", "Dealer", "Vulnerable",
                        "Date", "North", "East", "South", "Scoring", "Declarer", "Contract", "Result",
                        "Auction", "Play", "Note"].contains(&n.as_str()))
                    .cloned()
                    .collect()
            };
            prop_assert_eq!(others(rec), others(orig));
            for name in ["Event", "Site", "West"] {
                let want = orig.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
                let want = match (name, want) {
                    (_, Some(v)) => v.to_string(),
                    ("Event", None) if !event.is_empty() => event.replace('"', "'"),
                    _ => "?".to_string(),
                };
                let got = tag(rec, name).unwrap_or("?");
                prop_assert_eq!(got, want.as_str(), "{}", name);
            }
        }
        // Written again, the text does not change.
        prop_assert_eq!(write(&back, &event), text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
        let checked = check_read_outcome(&Pbn, &bytes);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }

    #[test]
    fn damaged_files_never_panic(
        which in 0usize..3,
        cut in any::<prop::sample::Index>(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
    ) {
        let generated = write(&[record_board(), Board::new(9, sorted_deal())], "Ev");
        let base: &[u8] = match which {
            0 => SPEC.as_bytes(),
            1 => QUIRKS.as_bytes(),
            _ => generated.as_bytes(),
        };
        let mut data = base[..cut.index(base.len() + 1)].to_vec();
        // Only cut short, the file reads, if at all, as the games before the cut: a game's
        // deal is whole or the game is refused or skipped.
        if let Ok(back) = Pbn.read(&data) {
            let whole = Pbn.read(base).unwrap();
            prop_assert!(back.len() <= whole.len());
            for r in &back {
                prop_assert!(whole.iter().any(|b| b.deal == r.deal && r.number.is_none_or(|n| b.number == Some(n))), "{:?}", r);
            }
        }
        let checked = check_read_outcome(&Pbn, &data);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        if !data.is_empty() {
            for (at, b) in flips {
                let i = at.index(data.len());
                data[i] = b;
            }
        }
        let checked = check_read_outcome(&Pbn, &data);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }

    #[test]
    fn deal_values_as_parse_deal(
        n in 1u128..=DEALS,
        first in seat(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..4, prop::sample::select(
            vec!['A', 'K', 'T', '1', '0', '2', '.', ' ', '-', ':', 'N', 'x'])), 0..3),
    ) {
        let mut s: Vec<char> = dealdex::format_deal(&Deal::from_number(n, Scheme::Pavlicek).unwrap(), first)
            .chars()
            .collect();
        for (at, op, c) in edits {
            let i = at.index(s.len());
            match op {
                0 => { s.remove(i); }
                1 => s.insert(i, c),
                2 => s[i] = c,
                _ => { let j = (i + 1) % s.len(); s.swap(i, j); }
            }
        }
        let s: String = s.into_iter().collect();
        prop_assume!(!s.trim().is_empty() && s.trim() != "?");
        let text = format!("[Deal \"{s}\"]\n");
        let ours = Pbn.read(text.as_bytes()).map(|b| b[0].deal);
        let reference = dealdex::parse_deal(&s);
        prop_assert_eq!(ours.is_ok(), reference.is_ok(), "{} {:?}", s, ours);
        if let (Ok(a), Ok(b)) = (ours, reference) {
            prop_assert_eq!(a, b);
        }
    }
}

/// The skip rule (issue 15, README "Deal files"): a game whose deal is empty, a placeholder
/// or partial (two or more hands unknown or empty) is skipped and reported; one missing hand
/// is completed; a malformed deal is an error.
#[test]
fn boards_without_a_complete_deal_are_skipped_and_reported() {
    let full = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    let game = |board: u64, deal: &str| format!("[Board \"{board}\"]\n[Deal \"{deal}\"]\n\n");
    let skipped = [
        "",
        "?",
        "N:",
        "N:... ... ... ...",
        "N:AKQ.AKQ.AKQ.AKQJ - - -",
        "E:- AKQ.AKQ.AKQ.AKQJ - ...",
        "N:AKQJT98765432... .AKQJT98765432.. - -",
        // Two missing beside a short hand: partial, not a miscount.
        "S:AK... - QJ... -",
    ];
    for deal in skipped {
        let text = format!("{}{}{}", game(1, full), game(2, deal), game(3, full));
        let read = Pbn
            .read_all(text.as_bytes())
            .unwrap_or_else(|e| panic!("{deal:?}: {e}"));
        let numbers: Vec<_> = read.boards.iter().map(|b| b.number).collect();
        assert_eq!(numbers, [Some(1), Some(3)], "{deal:?}");
        assert_eq!(read.skipped.len(), 1, "{deal:?}");
        let s = &read.skipped[0];
        assert_eq!(
            (s.board, s.record, s.line),
            (Some(2), 2, Some(4)),
            "{deal:?}"
        );
        assert_eq!(s.to_string(), "board 2: no complete deal");
        assert_eq!(Pbn.read(text.as_bytes()).unwrap().len(), 2);
    }
    // One hand missing (`-` or empty) with the other three full: completed.
    let d: Deal = full.parse().unwrap();
    for deal in [
        "N:AKQJT98765432... - ..AKQJT98765432. ...AKQJT98765432",
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...",
        "N:... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    ] {
        let read = Pbn.read_all(game(1, deal).as_bytes()).unwrap();
        assert_eq!(read.boards[0].deal, d, "{deal}");
        assert!(read.skipped.is_empty());
    }
    // Malformed: errors naming line and column, as before.
    for (deal, message) in [
        ("N:AKQ.AKQ.AKQ.AKQJT - - -", "N holds 14 cards"),
        ("N:AKQ.AKQ.AKQ.AKQJ A... - -", "SA is held by both N and E"),
        ("N:AKQ.AKQ.AKQ.AKQX - - -", "not a rank"),
        (
            "N:AKQJT98765432... - ..AKQJT98765432. ...AKQJT9876543",
            "W holds 12 cards",
        ),
        ("N:AKQJT98765432...", "found 1 hands"),
    ] {
        let e = refused(Pbn.read(game(1, deal).as_bytes()).unwrap_err());
        assert!(
            (e.position.line, e.position.column.is_some()) == (Some(2), true),
            "{deal}: {e}"
        );
        assert!(e.message.contains(message), "{deal}: {e}");
    }
    // A game with neither [Deal] nor [Board] is no board: nothing reported.
    let read = Pbn
        .read_all(format!("[Event \"header\"]\n\n{}", game(1, full)).as_bytes())
        .unwrap();
    assert_eq!((read.boards.len(), read.skipped.len()), (1, 0));
}

/// A board number is ASCII digits (or PBN's unknown `?`): anything else is an error naming
/// the line, not a board numbered by its place.
#[test]
fn board_numbers_that_are_not_ascii_digits_are_refused() {
    let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    for bad in ["-1", "1e5", "0x10", "", "+3", "3.0", "٣"] {
        let text =
            format!("[Board \"1\"]\n[Deal \"{deal}\"]\n\n[Board \"{bad}\"]\n[Deal \"{deal}\"]\n");
        let e = refused(Pbn.read_all(text.as_bytes()).unwrap_err());
        assert!(
            (e.position.line, e.position.column.is_some()) == (Some(4), true),
            "{bad:?}: {e}"
        );
        assert!(e.message.contains("not a number"), "{bad:?}: {e}");
    }
    let text = format!("[Board \"7\"]\n[Deal \"{deal}\"]\n\n[Board \"?\"]\n[Deal \"{deal}\"]\n");
    let boards = Pbn.read_all(text.as_bytes()).unwrap().boards;
    assert_eq!((boards[0].number, boards[1].number), (Some(7), None));
}
