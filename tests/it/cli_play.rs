//! `dealdex import` of plays (PBN `[Play]`, LIN `pc|`) and `dealdex lookup` showing them.

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

use crate::common::{dealdex, fixture};

const SPEC_DEAL: &str = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85";
const LIN_DEAL: &str = "N:Q854.KQJ7.Q3.K93 AT962.2.KJ875.AT J.T864.T62.QJ754 K73.A953.A94.862";

fn stdout(cmd: &mut Command) -> String {
    String::from_utf8(cmd.assert().success().get_output().stdout.clone()).unwrap()
}

fn stderr(cmd: &mut Command) -> String {
    String::from_utf8(cmd.assert().success().get_output().stderr.clone()).unwrap()
}

#[test]
fn import_then_lookup_shows_tricks_with_winners() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .arg("import")
        .arg(fixture("pbn-spec-example.pbn"))
        .args(["--set", "schiphol"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "1 boards read (pbn), 1 new, 0 duplicates; 1 play (1 new)",
        ));
    let out = stdout(dealdex(dir.path()).args(["lookup", SPEC_DEAL]));
    let play: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("play "))
        .collect();
    assert_eq!(
        play,
        [
            "play    set \"schiphol\" board 1: strain H, declarer S",
            "trick 1: lead W  ♠K ♥3 ♠4 ♠3  won by N",
            "trick 2: lead N  ♣2 ♣6 ♣K ♣5  won by S",
            "trick 3: lead S  ♠7 ♠2 ♥6 ♠5  won by N",
            "trick 4: lead N  ♣A ♣T ♣4 ♣8  won by N",
            "trick 5: lead N  ♦A ♦T ♦3 ♦2  won by N",
            "trick 6: lead N  ♦K ♥5 ♥7 ♦4  won by S",
            "trick 7: lead S  ♥2  (play stopped)",
            "tricks  N-S 6, E-W 0",
        ]
    );
    // Importing again (deals only this time) stores the play once more without a set; the
    // same import twice stores nothing new.
    for new in [1, 0] {
        dealdex(dir.path())
            .arg("import")
            .arg(fixture("pbn-spec-example.pbn"))
            .assert()
            .success()
            .stderr(predicate::str::contains(format!("; 1 play ({new} new)")));
    }
    let out = stdout(dealdex(dir.path()).args([
        "sql",
        "SELECT set_id IS NULL, board, strain, declarer, leader, length(cards), hex(substr(cards, 1, 4)) FROM plays ORDER BY id",
    ]));
    // Trick 1 in play order: ♠K (slot 1), ♥3 (13 + 11 = 24), ♠4 (10), ♠3 (11).
    assert_eq!(
        out.lines().skip(1).collect::<Vec<_>>(),
        ["0\t1\tH\tS\tW\t25\t01180A0B", "1\t1\tH\tS\tW\t25\t01180A0B"]
    );
}

#[test]
fn lin_play_is_stored_and_shown() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .arg("import")
        .arg(fixture("lin-with-play.lin"))
        .assert()
        .success();
    let out = stdout(dealdex(dir.path()).args(["lookup", LIN_DEAL]));
    assert!(
        out.contains(
            "play    board 1: strain S, declarer E\ntrick 1: lead S  ♣5 ♣2 ♣K ♣A  won by E\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("trick 12: lead E  ♣T ♣Q ♥5 ♥Q  won by S\ntrick 13: lead S  ♥T ♥9 ♥J ♠6  won by E\ntricks  N-S 1, E-W 12\n"),
        "{out}"
    );
}

#[test]
fn a_play_without_a_contract_shows_winners_from_its_order() {
    let dir = TempDir::new().unwrap();
    let text = std::fs::read_to_string(fixture("pbn-spec-example.pbn"))
        .unwrap()
        .replace("[Declarer \"S\"]", "[Declarer \"?\"]")
        .replace("[Contract \"5HX\"]", "[Contract \"?\"]")
        .replace("[Auction \"N\"]", "[Auction \"?\"]");
    std::fs::write(dir.path().join("open.pbn"), text).unwrap();
    dealdex(dir.path())
        .args(["import", "open.pbn"])
        .assert()
        .success();
    let out = stdout(dealdex(dir.path()).args(["lookup", SPEC_DEAL]));
    assert!(
        out.contains("play    board 1: strain unknown, declarer unknown\ntrick 1: lead W  ♠K ♥3 ♠4 ♠3  won by N\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "trick 6: lead N  ♦K ♥5 ♥7 ♦4  won by S\ntrick 7: lead S  ♥2  (play stopped)\n"
        ),
        "{out}"
    );
}

#[test]
fn a_revoking_play_is_kept_up_to_the_revoke_and_reported_naming_file_board_and_trick() {
    let dir = TempDir::new().unwrap();
    // East discards the ♥5 on the club lead of trick 2 while holding ♣QJT6, and follows with
    // the ♣6 in trick 6 instead.
    let text = std::fs::read_to_string(fixture("pbn-spec-example.pbn"))
        .unwrap()
        .replace("C5 C2 C6 CK", "C5 C2 H5 CK")
        .replace("D4 DK H5 H7", "D4 DK C6 H7");
    std::fs::write(dir.path().join("revoke.pbn"), text).unwrap();
    // An inconsistent record never rejects its file (issue 53): the board is stored with
    // what is consistent in it, the play up to the card before the revoke (as LIN's `pc|`
    // are kept), and the report names file, board and trick.
    let out = stderr(dealdex(dir.path()).args(["import", "revoke.pbn", "--set", "r"]));
    assert!(
        out.contains("revoke.pbn: 1 boards read (pbn), 1 new, 0 duplicates; 1 play (1 new); 1 board played (1 new); 1 inconsistent record kept (1 illegal-card); inconsistent: board 1: illegal-card: trick 2, card 2 (H5): E revokes: C was led and E holds CQ; the play is kept up to card 1 of trick 2"),
        "{out}"
    );
    let shown = stdout(dealdex(dir.path()).args(["lookup", SPEC_DEAL]));
    assert!(
        shown.contains("trick 1: lead W  ♠K ♥3 ♠4 ♠3  won by N\n"),
        "{shown}"
    );
    assert!(
        shown.contains("trick 2: lead N  ♣2  (play stopped)\n"),
        "{shown}"
    );
    assert!(!shown.contains("trick 3:"), "{shown}");
    // Deals-only import reports it too.
    let out = stderr(dealdex(dir.path()).args(["import", "revoke.pbn"]));
    assert!(out.contains("trick 2, card 2 (H5): E revokes"), "{out}");
}

/// `lookup` over a `plays` row changed outside dealdex (CHECK constraints ignored) names the
/// row and what is wrong with it, with exit code 2; a column of another type used to be
/// reported without its row, an empty record was shown as a play, and every case exited 1.
#[test]
fn lookup_of_a_corrupt_play_row_is_bad_input_naming_the_row() {
    let dir = TempDir::new().unwrap();
    dealdex(dir.path())
        .arg("import")
        .arg(fixture("pbn-spec-example.pbn"))
        .assert()
        .success();
    let db = dir.path().join("dealdex.db");
    let good = std::fs::read(&db).unwrap();
    for (update, why) in [
        ("cards = X''", "cards is empty"),
        ("cards = X'FF'", "card byte 255 is not 0..51"),
        ("cards = 'SK'", "cards is not a BLOB"),
        (
            "cards = X'0101'",
            "trick 1, card 2 (SK): it is N's turn but SK was played before",
        ),
        ("declarer = X'00'", "declarer is Blob, not TEXT"),
        ("declarer = 'NN'", "declarer \"NN\" is not a seat"),
        ("strain = X'4E54'", "strain is Blob, not TEXT"),
        (
            "strain = 'Z'",
            "strain: \"Z\" is not a strain (expected S, H, D, C or NT)",
        ),
        ("board = 'one'", "board is Text, not INTEGER"),
        ("board = -5", "board -5 is negative"),
    ] {
        std::fs::write(&db, &good).unwrap();
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(&format!(
            "PRAGMA ignore_check_constraints = ON; UPDATE plays SET {update};"
        ))
        .unwrap();
        drop(conn);
        let out = dealdex(dir.path())
            .args(["lookup", SPEC_DEAL])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{update}");
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("dealdex: error: stored play 1: {why}\n"),
            "{update}"
        );
    }
}

/// A board number SQLite cannot hold rejects its file before anything of it is stored: the
/// deals used to be stored and then the play refused, with exit code 1.
#[test]
fn a_board_number_too_large_to_store_rejects_the_file_whole() {
    let dir = TempDir::new().unwrap();
    let text = std::fs::read_to_string(fixture("pbn-spec-example.pbn"))
        .unwrap()
        .replace("[Board \"1\"]", "[Board \"9223372036854775808\"]");
    std::fs::write(dir.path().join("big.pbn"), text).unwrap();
    for set in [&[][..], &["--set", "big"]] {
        dealdex(dir.path())
            .args(["import", "big.pbn"])
            .args(set)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "big.pbn: rejected: board number 9223372036854775808 is too large to store (maximum 9223372036854775807)\n",
            ))
            .stderr(predicate::str::contains("1 of 1 files rejected"));
        // Nothing stored: the database the import created is removed again (issue 50).
        assert!(!dir.path().join("dealdex.db").exists(), "{set:?}");
    }
}
