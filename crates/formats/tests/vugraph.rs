//! The vugraph sample (tests/fixtures/vugraph, BBO vugraph matches from Hammond's archive):
//! whole match files in, and out again without loss.

use std::path::PathBuf;

use dealdex_formats::{
    Board, DealFormat, FileBoards, InconsistencyKind, Lin, Pbn, PlayedBoard, Room, WriteOptions,
    check_board, played_board, write_set,
};

fn sample_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/vugraph")
}

/// Every LIN file of the sample, by name, with its bytes.
fn sample() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(sample_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "lin"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    assert!(files.len() >= 14, "the sample is missing files");
    files
}

fn write(format: &dyn DealFormat, boards: &[Board]) -> Vec<u8> {
    write_set(format, boards, &WriteOptions::default()).unwrap()
}

fn read(name: &str) -> FileBoards {
    let data = std::fs::read(sample_dir().join(name)).unwrap();
    Lin.read_all(&data).unwrap()
}

/// The played-board view of every board of a file, without what LIN cannot say beside the
/// board itself (the match header's tags).
fn views(read: &FileBoards) -> Vec<(Board, PlayedBoard)> {
    read.boards
        .iter()
        .map(|b| {
            let mut plain = b.clone();
            if let Some(g) = plain.game.as_deref_mut() {
                g.source = None;
            }
            (
                plain,
                played_board(b).expect("every vugraph record has a game"),
            )
        })
        .collect()
}

#[test]
fn every_file_reads_whole_and_writes_back_byte_for_byte() {
    let mut boards = 0;
    for (name, data) in sample() {
        let read = Lin
            .read_all(&data)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(read.skipped.is_empty(), "{name}: {:?}", read.skipped);
        boards += read.boards.len();
        if read.boards.is_empty() {
            continue; // a header-only file: no board to write
        }
        let out = write(&Lin, &read.boards);
        assert!(out == data, "{name}: LIN in, LIN out is not the same file");
    }
    // 24 + 60 + 16 + 32 + 32 + 32 + 32 + 30 + 27 + 31 + 13 + 10 boards played (tables).
    assert_eq!(boards, 339);
}

#[test]
fn header_only_files_have_no_board_and_no_error() {
    for name in ["26000.lin", "30000.lin"] {
        let read = read(name);
        assert!(read.boards.is_empty() && read.skipped.is_empty(), "{name}");
    }
}

#[test]
fn rooms_players_contract_and_result_of_a_match() {
    // 00037: Polish First Division 2003, RELPOL v AZS POL.WR., 8 names in pn|.
    let read = read("00037.lin");
    let v = views(&read);
    let (b, c1) = &v[1];
    assert_eq!(
        b.game.as_deref().unwrap().tag("Event"),
        Some("Polish First Division 2003 - semifinals")
    );
    assert_eq!(b.game.as_deref().unwrap().tag("HomeTeam"), Some("RELPOL"));
    assert_eq!((c1.number, c1.room), (Some(1), Some(Room::Closed)));
    // Closed room: the last four names, S W N E.
    assert_eq!(
        c1.players,
        [
            Some("GOLEBIOWSKI".to_string()),
            Some("CHMURSKI".to_string()),
            Some("KWIECINSKI".to_string()),
            Some("PUCZYNSKI".to_string())
        ]
    );
    // 3NT by West, claimed at 10 tricks: rs| says 3NW+1.
    let c = c1.contract.unwrap();
    assert_eq!(
        (c.level, c.declarer.letter(), c1.result),
        (3, 'W', Some(10))
    );
    // Board 2, open room: no auction, no play; the contract and result come from rs|.
    let (b2, o2) = &v[2];
    assert_eq!(o2.room, Some(Room::Open));
    assert!(o2.auction.is_empty() && o2.play.is_empty());
    assert_eq!(b2.game.as_deref().unwrap().tag("Contract"), Some("4H"));
    assert_eq!(b2.game.as_deref().unwrap().tag("Declarer"), Some("N"));
    assert_eq!(o2.result, Some(10)); // rs| 4HN=
}

#[test]
fn alerts_and_explanations_are_kept() {
    // 01000 board 9, open room: 1N (11-14) p p X p p XX! p 2D p p X (t/o) …
    let v = views(&read("01000.lin"));
    let o9 = &v[0].1;
    let shown: Vec<(&str, Option<&str>)> = o9
        .auction
        .iter()
        .map(|c| (c.call.as_str(), c.explanation.as_deref()))
        .take(8)
        .collect();
    assert_eq!(
        shown,
        [
            ("1NT", Some("11-14")),
            ("Pass", None),
            ("Pass", None),
            ("X", None),
            ("Pass", None),
            ("Pass", None),
            ("XX", Some("")),
            ("Pass", None)
        ]
    );
    // Doubled and redoubled contracts: 2HX by South down 5 (rs| 2HSx-5).
    let c = o9.contract.unwrap();
    assert_eq!((c.to_string(), o9.result), ("2HxS".to_string(), Some(3)));
}

#[test]
fn an_inconsistent_record_is_reported_not_fatal() {
    // 04020 board 3, closed room: the ♦2 is played in tricks 5 and 6.
    let read = read("04020.lin");
    assert_eq!(read.boards.len(), 32);
    let twice = read
        .inconsistencies
        .iter()
        .find(|i| i.board == Some(3) && i.room == Some(Room::Closed))
        .expect("the card played twice is reported");
    assert_eq!(twice.kind, InconsistencyKind::IllegalCard);
    assert!(
        twice.detail.contains("pc|D2| is played a second time"),
        "{twice}"
    );
    assert_eq!(
        twice.to_string().split(':').next(),
        Some("board 3, closed room (line 54)")
    );
    // The play is kept up to the card before it: 5 tricks and the first card of the 6th,
    // and the claim (8 tricks of 1NT by North) stands.
    let c3 = read
        .boards
        .iter()
        .find(|b| b.number == Some(3) && played_board(b).unwrap().room == Some(Room::Closed))
        .unwrap();
    let p = played_board(c3).unwrap();
    assert_eq!((p.play.len(), p.result), (21, Some(8)));
    // 15474 board 32, open room: rs| says 2HN=, the claim 9 tricks: the claim is kept.
    let read = self::read("15474.lin");
    let m = read
        .inconsistencies
        .iter()
        .find(|i| i.kind == InconsistencyKind::ResultMismatch)
        .unwrap();
    assert_eq!((m.board, m.room), (Some(32), Some(Room::Open)));
}

#[test]
fn lin_to_pbn_to_lin_keeps_every_field_both_hold() {
    for (name, data) in sample() {
        let read = Lin.read_all(&data).unwrap();
        if read.boards.is_empty() {
            continue;
        }
        let pbn = write(&Pbn, &read.boards);
        let from_pbn = Pbn.read_all(&pbn).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(from_pbn.boards.len(), read.boards.len(), "{name}");
        let lin = write(&Lin, &from_pbn.boards);
        let back = Lin.read_all(&lin).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (stage, boards) in [("PBN", &from_pbn.boards), ("LIN again", &back.boards)] {
            for ((_, want), got) in views(&read).iter().zip(boards.iter()) {
                let got = played_board(got).unwrap();
                let b = want.number.unwrap();
                assert_eq!(got.number, want.number, "{name} board {b} via {stage}");
                assert_eq!(got.room, want.room, "{name} board {b} via {stage}");
                assert_eq!(got.players, want.players, "{name} board {b} via {stage}");
                assert_eq!(got.dealer, want.dealer, "{name} board {b} via {stage}");
                assert_eq!(
                    got.vulnerability, want.vulnerability,
                    "{name} board {b} via {stage}"
                );
                assert_eq!(got.auction, want.auction, "{name} board {b} via {stage}");
                // A contract without an auction is held by the match header's rs|, which a
                // line written anew has not.
                if stage == "PBN" || !want.auction.is_empty() {
                    assert_eq!(got.contract, want.contract, "{name} board {b} via {stage}");
                }
                assert_eq!(
                    got.passed_out, want.passed_out,
                    "{name} board {b} via {stage}"
                );
                assert_eq!(got.play, want.play, "{name} board {b} via {stage}");
                assert_eq!(got.result, want.result, "{name} board {b} via {stage}");
            }
            for (a, b) in read.boards.iter().zip(boards.iter()) {
                assert_eq!(a.deal, b.deal, "{name} via {stage}");
            }
        }
    }
}

#[test]
fn a_changed_board_is_written_anew() {
    let read = read("00050.lin");
    let mut boards = read.boards.clone();
    // Board 1, open room: 2NT by North made 9 tricks; say 8 instead.
    let g = boards[0].game.as_deref_mut().unwrap();
    let r = g.tags.iter_mut().find(|(n, _)| n == "Result").unwrap();
    r.1 = "8".into();
    let out = write(&Lin, &boards);
    let text = String::from_utf8(out).unwrap();
    // The first board is Big Deal's line with the room, players and claim; the rest as read.
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("qx|o1|pn|D.Halfon,M.Hizer,JC.Quantin,H.Zuccareli|md|3"),
        "{first}"
    );
    assert!(first.ends_with("mc|8|pg||"), "{first}");
    let data = std::fs::read(sample_dir().join("00050.lin")).unwrap();
    let rest = &data[data
        .windows(7)
        .position(|w| {
            w == b"qx|c1|
"
        })
        .unwrap()..];
    assert!(text.as_bytes().ends_with(rest));
}

#[test]
fn inconsistencies_of_the_sample_by_kind() {
    let mut by_kind = std::collections::BTreeMap::<&str, usize>::new();
    for (name, data) in sample() {
        let read = Lin.read_all(&data).unwrap();
        let checked = read.boards.iter().flat_map(check_board);
        for i in read.inconsistencies.iter().cloned().chain(checked) {
            eprintln!("{name}: {i}");
            *by_kind.entry(i.kind.name()).or_default() += 1;
        }
    }
    // Checked by hand against the deals: e.g. 04020 board 3, open room, leads the ♥10 from
    // West to trick 9 after East won trick 8 with the ♥J; 00050 board 12, closed room,
    // repeats board 14's auction and play.
    let want = [
        ("contract-mismatch", 2),
        ("illegal-card", 9),
        ("result-mismatch", 1),
    ];
    assert_eq!(by_kind.into_iter().collect::<Vec<_>>(), want);
}
