//! `dealdex card`: the card in every encoding, `--from` each encoding, `--json`, bad values.

use assert_cmd::Command;
use dealdex::Card;
use dealdex::encoding::{card_byte, standard_card, symbol_text, unicode_char};
use predicates::prelude::*;

fn dealdex() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dealdex"))
}

fn card_out(args: &[&str]) -> String {
    let out = dealdex().arg("card").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const QC: &str = "card: CQ (queen of clubs)
seed000-slot: 41
standard-card: 67144223 (0x04008A1F)
seed003-number: 49
seed003-display: Q♣
seed004-byte: 0x6C (0b01101100, face up)
unicode: U+1F0DD 🃝
";

#[test]
fn queen_of_clubs_in_every_encoding() {
    for text in ["QC", "CQ", "♣Q", "Q♣", "qc", "cq", "♧q"] {
        assert_eq!(card_out(&[text]), QC, "{text}");
    }
}

#[test]
fn ten_of_hearts_and_the_seed_001_example() {
    let want = "card: HT (ten of hearts)
seed000-slot: 17
standard-card: 16787607 (0x01002897)
seed003-number: 8
seed003-display: 10♥
seed004-byte: 0x79 (0b01111001, face up)
unicode: U+1F0BA 🂺
";
    for text in ["10H", "TH", "h10", "♥10", "10♥"] {
        assert_eq!(card_out(&[text]), want, "{text}");
    }
    // Seed 001's table value for the five of hearts.
    let h5 = card_out(&["5H"]);
    assert!(
        h5.contains("\nstandard-card: 533383 (0x00082387)\n"),
        "{h5}"
    );
}

#[test]
fn from_each_encoding_gives_the_same_block_for_all_52_cards() {
    for c in Card::all() {
        let text = c.to_string();
        let block = card_out(&[&text]);
        let j: serde_json::Value = serde_json::from_str(&card_out(&[&text, "--json"])).unwrap();
        let num = |k: &str| j[k].as_u64().unwrap().to_string();
        let std = standard_card(c);
        let inputs: Vec<(&str, String)> = vec![
            ("seed000-slot", num("seed000-slot")),
            (
                "seed000-slot",
                format!("{:#x}", j["seed000-slot"].as_u64().unwrap()),
            ),
            ("standard-card", num("standard-card")),
            ("standard-card", format!("0x{std:08X}")),
            ("seed003-number", num("seed003-number")),
            (
                "seed003-display",
                j["seed003-display"].as_str().unwrap().to_string(),
            ),
            ("seed004-byte", num("seed004-byte")),
            ("seed004-byte", format!("0x{:02x}", card_byte(c, true))),
            ("seed004-byte", format!("0b{:08b}", card_byte(c, true))),
            ("unicode", j["unicode"].as_str().unwrap().to_string()),
            ("unicode", unicode_char(c).to_string()),
        ];
        for (enc, value) in inputs {
            assert_eq!(card_out(&["--from", enc, &value]), block, "{enc} {value}");
        }
        assert_eq!(j["seed003-display"], symbol_text(c));
    }
}

#[test]
fn unicode_accepts_every_spelling() {
    let sa = card_out(&["SA"]);
    assert!(sa.ends_with("unicode: U+1F0A1 🂡\n"), "{sa}");
    for v in ["U+1F0A1", "u+1f0a1", "0x1F0A1", "1F0A1", "🂡"] {
        assert_eq!(card_out(&["--from", "unicode", v]), sa, "{v}");
    }
}

#[test]
fn face_down_byte_is_shown_face_down() {
    let out = card_out(&["--from", "seed004-byte", "0x2C"]);
    assert_eq!(
        out,
        QC.replace("0x6C (0b01101100, face up)", "0x2C (0b00101100, face down)")
    );
    let j: serde_json::Value =
        serde_json::from_str(&card_out(&["--from", "seed004-byte", "0x2C", "--json"])).unwrap();
    assert_eq!(j["seed004-byte"], 0x2C);
    assert_eq!(j["seed004-face-up"], false);
}

#[test]
fn json_is_one_object_with_the_encoding_names() {
    let out = card_out(&["QC", "--json"]);
    assert_eq!(out.lines().count(), 1);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        j,
        serde_json::json!({
            "card": "CQ",
            "name": "queen of clubs",
            "seed000-slot": 41,
            "standard-card": 67144223,
            "seed003-number": 49,
            "seed003-display": "Q♣",
            "seed004-byte": 0x6C,
            "seed004-face-up": true,
            "unicode": "U+1F0DD",
            "unicode-glyph": "🃝",
        })
    );
}

#[test]
fn bad_values_exit_2_with_the_reason() {
    let cases: [(&[&str], &str); 14] = [
        (
            &["--from", "seed000-slot", "53"],
            "seed000-slot 53 is out of range: seed 000 slots are 0..=51",
        ),
        (
            &["--from", "seed000-slot", "-1"],
            "seed000-slot: '-1' is not a number",
        ),
        (
            &["--from", "seed003-number", "52"],
            "seed003-number 52 is out of range",
        ),
        (
            &["--from", "seed003-display", "TH"],
            "'TH' is not a seed 003 display value",
        ),
        (
            &["--from", "standard-card", "0x00082347"],
            "32-bit card 0x00082347 (533319) is inconsistent: suit bit says hearts, ss bits (01) say diamonds",
        ),
        (
            &["--from", "standard-card", "0x100000000"],
            "standard-card 4294967296 is out of range",
        ),
        (&["--from", "standard-card", "twelve"], "is not a number"),
        (
            &["--from", "seed004-byte", "0x4B"],
            "rank 0xB is the Knight/Cavalier, and a bridge deck has no knight",
        ),
        (&["--from", "seed004-byte", "0x4E"], "rank 0xE is reserved"),
        (
            &["--from", "seed004-byte", "0x8D"],
            "bit 7 is set, so it is a group byte",
        ),
        (
            &["--from", "seed004-byte", "300"],
            "seed004-byte 300 is out of range: a card byte is 0..=255",
        ),
        (
            &["--from", "unicode", "U+1F0AC"],
            "U+1F0AC is not a bridge card: it is the knight of spades",
        ),
        (
            &["--from", "unicode", "🂿"],
            "U+1F0BF is not a bridge card: it is the red joker",
        ),
        (&["X1"], "'X1' is not a card: no suit"),
    ];
    for (args, msg) in cases {
        dealdex()
            .arg("card")
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with("dealdex: error: "))
            .stderr(predicate::str::contains(msg))
            .stderr(predicate::function(|s: &str| s.lines().count() == 1));
    }
    // An unknown encoding name is a usage error (clap), also exit 2.
    dealdex()
        .args(["card", "--from", "seed002", "1"])
        .assert()
        .code(2);
}
