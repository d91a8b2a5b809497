//! Played boards (issue 53): BBO vugraph match files (tests/fixtures/vugraph, from Hammond's
//! archive) imported, exported and converted without losing the rooms, players, contracts,
//! declarers and results.

use assert_cmd::Command;
use tempfile::TempDir;

use crate::common::{dealdex, fixture};
use dealdex::formats::{self, PlayedBoard, played_board};

fn stderr(cmd: &mut Command) -> String {
    String::from_utf8(cmd.assert().success().get_output().stderr.clone()).unwrap()
}

/// The played boards of a file, in file order.
fn played(path: &std::path::Path) -> Vec<PlayedBoard> {
    let data = std::fs::read(path).unwrap();
    let f = formats::by_path(path).unwrap();
    f.read_all(&data)
        .unwrap()
        .boards
        .iter()
        .map(|b| played_board(b).expect("a played board"))
        .collect()
}

#[test]
fn import_then_export_keeps_contract_declarer_result_and_players() {
    let dir = TempDir::new().unwrap();
    let lin = fixture("vugraph/05000.lin");
    let out = stderr(
        dealdex(dir.path())
            .arg("import")
            .arg(&lin)
            .args(["--set", "jpd"]),
    );
    // 16 boards at two tables, both stored: one deal a board.
    assert!(
        out.contains("05000.lin: 32 boards read (lin), 16 new, 16 duplicates"),
        "{out}"
    );
    assert!(out.contains("; 32 boards played (32 new)"), "{out}");
    for to in ["jpd.pbn", "jpd.lin"] {
        dealdex(dir.path())
            .args(["export", "--set", "jpd", "--out", to])
            .assert()
            .success();
        let back = played(&dir.path().join(to));
        let want = played(&lin);
        assert_eq!(back.len(), want.len(), "{to}");
        for (got, want) in back.iter().zip(&want) {
            let b = want.number.unwrap();
            assert_eq!(got.number, want.number, "{to} board {b}");
            assert_eq!(got.room, want.room, "{to} board {b}");
            assert_eq!(got.players, want.players, "{to} board {b}");
            assert_eq!(got.contract, want.contract, "{to} board {b}");
            assert_eq!(got.result, want.result, "{to} board {b}");
            assert_eq!(got.auction, want.auction, "{to} board {b}");
            assert_eq!(got.play, want.play, "{to} board {b}");
        }
    }
    // No more "?" for the players, contract, declarer and result.
    let pbn = std::fs::read_to_string(dir.path().join("jpd.pbn")).unwrap();
    assert!(pbn.contains("[South \"Liu HT\"]\n[Dealer \"N\"]"), "{pbn}");
    assert!(
        pbn.contains("[Declarer \"N\"]\n[Contract \"2S\"]\n[Result \"9\"]"),
        "{pbn}"
    );
    assert!(pbn.contains("[Room \"Closed\"]"), "{pbn}");
    assert!(!pbn.contains("[Declarer \"?\"]"), "{pbn}");
}

#[test]
fn convert_lin_to_pbn_keeps_the_tables_and_lin_to_lin_is_byte_for_byte() {
    let dir = TempDir::new().unwrap();
    let lin = fixture("vugraph/04056.lin");
    dealdex(dir.path())
        .arg("convert")
        .arg(&lin)
        .arg("m.pbn")
        .assert()
        .success();
    dealdex(dir.path())
        .arg("convert")
        .arg(&lin)
        .arg("m.lin")
        .assert()
        .success();
    assert_eq!(
        std::fs::read(dir.path().join("m.lin")).unwrap(),
        std::fs::read(&lin).unwrap()
    );
    let pbn = std::fs::read_to_string(dir.path().join("m.pbn")).unwrap();
    assert!(
        pbn.contains("[Event \"Norwegian Premier League\"]"),
        "{pbn}"
    );
    assert!(pbn.contains("[South \"Helgemo\"]"), "{pbn}");
    assert!(
        pbn.contains("[Declarer \"S\"]\n[Contract \"3NT\"]\n[Result \"11\"]"),
        "{pbn}"
    );
    let (a, b) = (played(&lin), played(&dir.path().join("m.pbn")));
    assert_eq!(a, b);
}

#[test]
fn an_inconsistent_vugraph_file_imports_with_its_inconsistencies_listed() {
    let dir = TempDir::new().unwrap();
    let out = stderr(
        dealdex(dir.path())
            .arg("import")
            .arg(fixture("vugraph/04020.lin"))
            .args(["--set", "bb"]),
    );
    assert!(
        out.contains("; 7 inconsistent records kept (7 illegal-card)"),
        "{out}"
    );
    assert!(
        out.contains("; inconsistent: board 3, closed room (line 54): illegal-card: pc|D2| is played a second time"),
        "{out}"
    );
}

#[test]
fn a_header_only_vugraph_file_is_reported_and_the_import_goes_on() {
    let dir = TempDir::new().unwrap();
    let out = stderr(
        dealdex(dir.path())
            .arg("import")
            .arg(fixture("vugraph/26000.lin"))
            .arg(fixture("vugraph/30000.lin"))
            .arg(fixture("vugraph/05000.lin")),
    );
    assert!(
        out.contains("26000.lin: no boards: header only (lin)"),
        "{out}"
    );
    assert!(
        out.contains("30000.lin: no boards: header only (lin)"),
        "{out}"
    );
    assert!(out.contains("05000.lin: 32 boards read (lin)"), "{out}");
    assert!(out.contains("0 files rejected"), "{out}");
    // A LIN file without a board that is no vugraph header is still refused.
    std::fs::write(dir.path().join("empty.lin"), "\n").unwrap();
    dealdex(dir.path())
        .args(["import", "empty.lin"])
        .assert()
        .code(2);
}

/// `judge` over the whole vugraph sample: every stored judgement equals `analyse_play` run on
/// the board directly, the report's totals are the sum of each board's [`PlayAnalysis`], and
/// a second run judges nothing.
#[test]
fn judge_stores_every_played_card_once_as_analyse_play_gives_it() {
    use dealdex::dd::{PlayAnalysis, PlayedBoard, analyse_play};
    use dealdex::{Strain, Suit};
    let dir = TempDir::new().unwrap();
    let mut import = dealdex(dir.path());
    import.arg("import");
    for f in std::fs::read_dir(fixture("vugraph")).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "lin") {
            import.arg(f);
        }
    }
    import.assert().success();
    let db = dir.path().join("dealdex.db");
    let todo = dealdex::Store::open(&db)
        .unwrap()
        .played_to_judge(0, usize::MAX)
        .unwrap();
    assert!(todo.len() > 100, "{}", todo.len());
    let out = dealdex(dir.path())
        .args(["judge", "--batch", "50", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let judged = dealdex::Store::open(&db).unwrap().judged_played().unwrap();
    assert_eq!(judged.len(), todo.len());
    let (mut declarer_lost, mut defence_lost, mut cards, mut boards) = (0u64, 0u64, 0u64, 0u64);
    for (k, (p, j)) in todo.iter().zip(&judged).enumerate() {
        assert_eq!(p.id, j.id);
        let strain = match p.contract.as_bytes().get(1) {
            Some(b'C') => Some(Strain::Trumps(Suit::Clubs)),
            Some(b'D') => Some(Strain::Trumps(Suit::Diamonds)),
            Some(b'H') => Some(Strain::Trumps(Suit::Hearts)),
            Some(b'S') => Some(Strain::Trumps(Suit::Spades)),
            Some(b'N') => Some(Strain::NoTrump),
            _ => None,
        };
        let (Some(strain), Ok(tricks)) = (strain, &j.tricks) else {
            continue;
        };
        let board = PlayedBoard {
            deal: p.deal.to_deal().unwrap(),
            strain,
            declarer: p.declarer,
            cards: p.cards.clone(),
        };
        let seats = board.seats().unwrap();
        let played: Vec<_> = seats.into_iter().zip(board.cards.iter().copied()).collect();
        let a = PlayAnalysis::from_tricks(p.declarer, &played, tricks.clone());
        // Migration 12's summary is the analysis's.
        let summary = j.summary.expect("a judged board has its summary");
        assert_eq!(
            (summary.declarer_lost, summary.defence_lost, Some(summary.lead_cost)),
            (a.declarer_lost, a.defence_lost, a.lead_cost),
            "played row {}",
            p.id
        );
        // Every fifth board solved again directly.
        if k % 5 == 0 {
            assert_eq!(analyse_play(&board).unwrap(), a, "played row {}", p.id);
        }
        declarer_lost += u64::from(a.declarer_lost);
        defence_lost += u64::from(a.defence_lost);
        cards += board.cards.len() as u64;
        boards += 1;
    }
    assert_eq!(report["boards"], boards);
    assert_eq!(report["cards"], cards);
    assert_eq!(report["declarer_lost"], declarer_lost);
    assert_eq!(report["defence_lost"], defence_lost);
    assert_eq!(
        report["boards"].as_u64().unwrap() + report["faults"].as_u64().unwrap(),
        todo.len() as u64
    );
    // A rerun judges nothing new.
    let again = dealdex(dir.path())
        .args(["judge", "--json"])
        .output()
        .unwrap();
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        (again["boards"].as_u64(), again["faults"].as_u64()),
        (Some(0), Some(0))
    );
}
