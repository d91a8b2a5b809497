//! Real deal files from the field (issue 15): `tests/fixtures/field/` holds files in the shapes
//! real programs write — a bidding analyser's PBN (notes, `[Play "W"]` then `*`, a one-row
//! `[OptimumResultTable]`, `%` lines between tags), a teaching PBN and a BBO LIN with
//! auction-only boards, and the Debian `dealer` package's `printpbn` and `printoneline`
//! output (commands in the folder's README). Each is imported through the CLI: boards with a
//! complete deal stored, the others skipped and named in the report.

use std::path::Path;

use dealdex::Deal;
use dealdex::formats::{self, DealFormat, OneLine, Pbn};
use tempfile::TempDir;

use crate::common::{dealdex, fixture};

/// `dealdex --json import FILE` into a fresh database in `dir`: the exit code and the report.
fn import_json(dir: &Path, file: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let path = fixture(&format!("field/{file}"));
    let out = dealdex(dir)
        .arg("--json")
        .arg("import")
        .arg(&path)
        .args(["--db", "field.db"])
        .args(extra)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{file}: {e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report)
}

/// The board numbers of a file report's skipped boards.
fn skipped_boards(file: &serde_json::Value) -> Vec<u64> {
    file["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["board"].as_u64().unwrap())
        .collect()
}

#[test]
fn field_files_import_with_their_counts_of_stored_and_skipped_boards() {
    // (file, boards stored, skipped board numbers, warnings)
    let cases: [(&str, u64, &[u64], usize); 6] = [
        ("bidding-analyser.pbn", 2, &[], 2),
        ("teaching.pbn", 3, &[2, 3, 4], 0),
        ("teaching.lin", 1, &[1], 0),
        ("dealer-seed15.pbn", 6, &[], 0),
        ("dealer-seed15.oneline", 20, &[], 0),
        ("dealer-seed3-hcp.oneline", 5, &[], 0),
    ];
    for (file, stored, skipped, warnings) in cases {
        let dir = TempDir::new().unwrap();
        let (code, report) = import_json(dir.path(), file, &[]);
        assert_eq!(code, Some(0), "{file}: {report}");
        let f = &report["files"][0];
        assert_eq!(f["status"], "imported", "{file}: {report}");
        assert_eq!(f["boards"], stored, "{file}: boards stored");
        assert_eq!(f["new_deals"], stored, "{file}: new deals");
        assert_eq!(skipped_boards(f), skipped, "{file}: skipped boards");
        for s in f["skipped"].as_array().unwrap() {
            assert_eq!(s["reason"], "no complete deal", "{file}");
        }
        assert_eq!(
            f["warnings"].as_array().unwrap().len(),
            warnings,
            "{file}: {report}"
        );
        assert_eq!(report["boards_read"], stored);
        assert_eq!(report["boards_skipped"], skipped.len() as u64);
        assert_eq!(report["rejected"], 0);
    }
}

#[test]
fn teaching_file_report_names_the_skipped_boards_and_lines() {
    let dir = TempDir::new().unwrap();
    let (_, report) = import_json(dir.path(), "teaching.pbn", &["--set", "lesson4"]);
    let f = &report["files"][0];
    assert_eq!(f["set"], "lesson4");
    let lines: Vec<u64> = f["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["line"].as_u64().unwrap())
        .collect();
    // The line of each skipped game's first tag.
    let text = std::fs::read_to_string(fixture("field/teaching.pbn")).unwrap();
    for (board, line) in [2, 3, 4].iter().zip(&lines) {
        let board_line = text
            .lines()
            .position(|l| l == format!("[Board \"{board}\"]"))
            .unwrap() as u64
            + 1;
        assert_eq!(
            board_line,
            line + 3,
            "board {board}: [Event] three lines up"
        );
    }
    // The set holds boards 1, 5 and 6 with their own numbers (skipped boards keep their
    // places), board 5's West completed from the other three hands.
    let out = dealdex(dir.path())
        .args([
            "export", "--set", "lesson4", "--out", "-", "--format", "pbn", "--db", "field.db",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let boards = Pbn.read(&out.stdout).unwrap();
    let numbers: Vec<u64> = boards.iter().map(|b| b.number.unwrap()).collect();
    assert_eq!(numbers, [1, 5, 6]);
    assert_eq!(
        boards[1].deal,
        "N:86.AKQT9.K64.A64 KT753..Q75.QT985 A42.543.AJT93.K7 QJ9.J8762.82.J32"
            .parse::<Deal>()
            .unwrap()
    );
}

/// Imports a fixture into `field.db` in `dir` with the text report, expects success and
/// returns stderr.
fn import_text(dir: &Path, file: &str) -> String {
    let out = dealdex(dir)
        .arg("import")
        .arg(fixture(file))
        .args(["--db", "field.db"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn text_report_says_read_stored_and_skipped() {
    let dir = TempDir::new().unwrap();
    let err = import_text(dir.path(), "field/teaching.pbn");
    assert!(
        err.contains(
            "6 boards read (pbn), 3 stored, 3 skipped (board 2: no complete deal, \
             board 3: no complete deal, board 4: no complete deal), 3 new, 0 duplicates"
        ),
        "{err}"
    );
    assert!(
        err.contains("6 boards read, 3 stored, 3 skipped (no complete deal)"),
        "{err}"
    );
    // The analyser's one-row double-dummy tables: a warning each, the deals stored.
    let err = import_text(dir.path(), "field/bidding-analyser.pbn");
    assert!(
        err.contains("2 boards read (pbn), 2 new")
            && err.contains("warning: line 28: [OptimumResultTable] has 1 of the 20 results"),
        "{err}"
    );
}

#[test]
fn a_malformed_deal_still_rejects_the_file_whole() {
    let dir = TempDir::new().unwrap();
    let text = std::fs::read_to_string(fixture("field/teaching.pbn")).unwrap();
    // Board 2's one known hand with a 14th card (the ♣T).
    let bad = text.replace("N:AKQ.AKQ.AKQ.AKQJ - - -", "N:AKQ.AKQ.AKQ.AKQJT - - -");
    assert_ne!(bad, text);
    std::fs::write(dir.path().join("bad.pbn"), bad).unwrap();
    let out = dealdex(dir.path())
        .args(["--json", "import", "bad.pbn", "--db", "field.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reason = report["files"][0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("line 22, column ") && reason.contains("N holds 14 cards"),
        "{reason}"
    );
    assert_eq!(report["new_deals"], 0);
    // A card in two hands, with the others unknown: also an error.
    let twice = text.replace("N:AKQ.AKQ.AKQ.AKQJ - - -", "N:AKQ.AKQ.AKQ.AKQJ A... - -");
    std::fs::write(dir.path().join("twice.pbn"), twice).unwrap();
    let out = dealdex(dir.path())
        .args(["import", "twice.pbn", "--db", "field.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("SA is held by both N and E"),
        "{out:?}"
    );
}

#[test]
fn convert_and_stats_follow_the_skip_rule() {
    let dir = TempDir::new().unwrap();
    let out = dealdex(dir.path())
        .arg("convert")
        .arg(fixture("field/teaching.pbn"))
        .arg("lesson.oneline")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("teaching.pbn: 3 boards skipped (board 2: no complete deal"),
        "{err}"
    );
    let written = std::fs::read_to_string(dir.path().join("lesson.oneline")).unwrap();
    assert_eq!(written.lines().count(), 3, "{written}");
    let out = dealdex(dir.path())
        .arg("--json")
        .arg("stats")
        .arg(fixture("field/teaching.lin"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("teaching.lin: 1 board skipped (board 1: no complete deal)"),
        "{err}"
    );
    // A file whose every board is skipped holds no boards: an error naming the skips.
    std::fs::write(
        dir.path().join("none.pbn"),
        "[Board \"7\"]\n[Deal \"N:AKQ.AKQ.AKQ.AKQJ - - -\"]\n",
    )
    .unwrap();
    let out = dealdex(dir.path())
        .args(["convert", "none.pbn", "-", "--to", "oneline"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no boards found (read as pbn); 1 board skipped (board 7: no complete deal)"),
        "{out:?}"
    );
}

#[test]
fn dealers_oneline_and_pbn_output_agree_and_oneline_writes_dealers_line() {
    // The same seed gives the same deals in dealer's printoneline and printpbn output.
    let oneline = std::fs::read(fixture("field/dealer-seed15.oneline")).unwrap();
    let pbn = std::fs::read(fixture("field/dealer-seed15.pbn")).unwrap();
    let a = OneLine.read(&oneline).unwrap();
    let b = Pbn.read(&pbn).unwrap();
    assert_eq!((a.len(), b.len()), (20, 6));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.deal, y.deal);
    }
    // Written back: dealer's own lines, byte for byte (its statistics trailer left out).
    let out = formats::write_set(&OneLine, &a, &formats::WriteOptions::default()).unwrap();
    let text = String::from_utf8(oneline).unwrap();
    let deals: String = text
        .lines()
        .take_while(|l| l.starts_with("n "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(String::from_utf8(out).unwrap(), deals);
    // printoneline with an expression: its value after the hands is ignored.
    let hcp = std::fs::read(fixture("field/dealer-seed3-hcp.oneline")).unwrap();
    let boards = OneLine.read(&hcp).unwrap();
    let text = String::from_utf8(hcp).unwrap();
    for (b, line) in boards.iter().zip(text.lines()) {
        let value: u32 = line.rsplit(' ').next().unwrap().parse().unwrap();
        let north = b.deal.hand(dealdex::Seat::North);
        assert_eq!(u32::from(dealdex::features::hcp(north)), value, "{line}");
    }
}
