//! PBN double-dummy tags (`[DoubleDummyTricks]`, `[OptimumResultTable]`, `[OptimumScore]`,
//! `[ParContract]`): read from files in other programs' layout, written for solved boards,
//! and refused with the line (and column) when they are wrong. Expected tables and par come
//! from DDS (tests/fixtures/dd/dd-reference.jsonl), not from dealdex.

use dealdex::InputPosition;
use dealdex::formats::{Board, DealFormat, Pbn, WriteOptions};
use dealdex::{Deal, Seat, Vulnerability};

use crate::common::{Refused, dd_reference, dd_reference_table, refused};

fn board(r: &serde_json::Value) -> Board {
    let deal: Deal = r["deal"].as_str().unwrap().parse().unwrap();
    Board {
        dealer: Seat::from_char(r["dealer"].as_str().unwrap().chars().next().unwrap()),
        vulnerability: Some(r["vul"].as_str().unwrap().parse::<Vulnerability>().unwrap()),
        dd: Some(dd_reference_table(r)),
        ..Board::new(r["board"].as_u64().unwrap(), deal)
    }
}

fn write(boards: &[Board]) -> String {
    let mut out = Vec::new();
    Pbn.write_header(&WriteOptions::default(), &mut out)
        .unwrap();
    Pbn.write_boards(boards, &WriteOptions::default(), &mut out)
        .unwrap();
    String::from_utf8(out).unwrap()
}

fn read_err(text: &str) -> Refused {
    refused(Pbn.read(text.as_bytes()).unwrap_err())
}

#[test]
fn tables_in_another_programs_layout_read_as_dds_computed_them() {
    // 200 boards with DDS's tables in Bridge Composer's tags, par score from the gaining
    // side ("EW 620"), CRLF line ends and N E S W row order on boards 1-20.
    let boards = Pbn
        .read(include_bytes!("../fixtures/dd/composer-style.pbn"))
        .unwrap();
    let refs = dd_reference();
    assert_eq!(boards.len(), refs.len());
    for (b, r) in boards.iter().zip(&refs) {
        assert_eq!(b.number, r["board"].as_u64());
        assert_eq!(b.dd, Some(dd_reference_table(r)), "board {:?}", b.number);
        let tags = &b.game.as_ref().unwrap().tags;
        assert!(
            !tags.iter().any(|(n, _)| n.contains("Optimum")
                || n == "DoubleDummyTricks"
                || n == "ParContract"),
            "the table's tags are held by Board::dd, not kept as tags: {tags:?}"
        );
    }
}

#[test]
fn written_tags_carry_dds_par_and_read_back_byte_for_byte() {
    let refs = dd_reference();
    let boards: Vec<Board> = refs.iter().map(board).collect();
    let text = write(&boards);
    for (r, game) in refs.iter().zip(text.split("\n[Event").skip(1)) {
        let t = &r["tricks"];
        // DoubleDummyTricks: declarers N, S, E, W; strains NT S H D C; hex digits.
        let hex: String = ["N", "S", "E", "W"]
            .iter()
            .flat_map(|s| ["NT", "S", "H", "D", "C"].map(|st| t[s][st].as_u64().unwrap()))
            .map(|n| char::from_digit(n as u32, 16).unwrap())
            .collect();
        assert!(
            game.contains(&format!("[DoubleDummyTricks \"{hex}\"]\n")),
            "{game}"
        );
        let score = r["par"]["score"].as_i64().unwrap();
        assert!(
            game.contains(&format!("[OptimumScore \"NS {score}\"]\n")),
            "board {}: {game}",
            r["board"]
        );
        assert!(game.contains(&format!(
            "[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT {:>2}\n",
            t["N"]["NT"].as_u64().unwrap()
        )));
        assert!(
            game.ends_with(&format!("W  C {:>2}\n", t["W"]["C"].as_u64().unwrap())),
            "{game}"
        );
    }
    let read = Pbn.read(text.as_bytes()).unwrap();
    for (b, r) in read.iter().zip(&refs) {
        assert_eq!(b.dd, Some(dd_reference_table(r)));
    }
    assert_eq!(write(&read), text, "read and written again: the same bytes");
}

#[test]
fn par_contracts_are_written_by_side() {
    let refs = dd_reference();
    // Board 1: 7♠ by North or South, DDS's "7SN", "7SS".
    let text = write(&[board(&refs[0])]);
    assert!(text.contains("[ParContract \"NS 7S\"]\n"), "{text}");
    // A board whose par is a doubled sacrifice, as DDS gives it.
    let sac = refs
        .iter()
        .find(|r| {
            r["par"]["contracts"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c.as_str().unwrap().contains('x'))
        })
        .expect("the fixture has a sacrifice");
    let text = write(&[board(sac)]);
    let line = text
        .lines()
        .find(|l| l.starts_with("[ParContract"))
        .unwrap();
    assert!(line.contains('x'), "{line} for {:?}", sac["par"]);
}

/// One game of `text` with `from` replaced by `to` (checked to occur).
fn tampered(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in {text}");
    text.replacen(from, to, 1)
}

#[test]
fn wrong_tags_are_errors_naming_line_and_column() {
    let r = &dd_reference()[24];
    let text = write(&[board(r)]);
    let line_of = |needle: &str| text.lines().position(|l| l.starts_with(needle)).unwrap() + 1;

    // A digit that is no trick count: the column of the digit.
    let hex_line = line_of("[DoubleDummyTricks");
    let e = read_err(&tampered(
        &text,
        "[DoubleDummyTricks \"",
        "[DoubleDummyTricks \"e",
    ));
    assert_eq!(
        e.position,
        InputPosition::at_line_column(hex_line, 21),
        "{e}"
    );
    assert!(e.to_string().contains("20 hex digits"), "{e}");
    let hex = text.lines().nth(hex_line - 1).unwrap()[20..40].to_owned();
    let bad_hex = format!("{}e", &hex[..19]);
    let e = read_err(&tampered(&text, &hex, &bad_hex));
    assert_eq!(
        e.position,
        InputPosition::at_line_column(hex_line, 40),
        "{e}"
    );

    // The table and the hex disagree: the table's line.
    let table_line = line_of("[OptimumResultTable");
    let first_row = text.lines().nth(table_line).unwrap().to_owned(); // "N NT  8"
    let n: u8 = first_row[5..].trim().parse().unwrap();
    let other = format!("N NT {:>2}", (n + 1) % 14);
    let e = read_err(&tampered(&text, &first_row, &other));
    assert_eq!(e.position, InputPosition::at_line(table_line), "{e}");
    assert!(e.to_string().contains("disagrees"), "{e}");

    // A row missing: the table is ignored with a warning naming the line and the result
    // (issue 15: some programs write part of it); the deal is read, and its table comes
    // from [DoubleDummyTricks].
    let read = Pbn
        .read_all(tampered(&text, &format!("{first_row}\n"), "").as_bytes())
        .unwrap();
    assert_eq!(read.boards.len(), 1);
    assert_eq!(read.boards[0].dd, Some(dd_reference_table(r)));
    let [w] = &read.warnings[..] else {
        panic!("{:?}", read.warnings)
    };
    assert!(
        w.starts_with(&format!("line {table_line}: "))
            && w.contains("19 of the 20")
            && w.contains("N in NT"),
        "{w}"
    );

    // A strain that is none: its column.
    let e = read_err(&tampered(&text, &first_row, "N XT  8"));
    assert_eq!(
        e.position,
        InputPosition::at_line_column(table_line + 1, 3),
        "{e}"
    );

    // A par score that is not the table's.
    let score_line = line_of("[OptimumScore");
    let score = r["par"]["score"].as_i64().unwrap();
    let e = read_err(&tampered(
        &text,
        &format!("[OptimumScore \"NS {score}\"]"),
        &format!("[OptimumScore \"NS {}\"]", score + 10),
    ));
    assert_eq!(
        e.position,
        InputPosition::at_line_column(score_line, 16),
        "{e}"
    );
    assert!(e.to_string().contains(&format!("is NS {score}")), "{e}");
    let e = read_err(&tampered(
        &text,
        &format!("[OptimumScore \"NS {score}\"]"),
        "[OptimumScore \"lots\"]",
    ));
    assert_eq!(
        e.position,
        InputPosition::at_line_column(score_line, 16),
        "{e}"
    );
}

#[test]
fn par_tags_without_a_table_stay_ordinary_tags() {
    let r = &dd_reference()[3];
    let plain = Board {
        dd: None,
        ..board(r)
    };
    let text = write(&[plain]);
    let with_par = text.replace(
        "[Result \"?\"]\n",
        "[Result \"?\"]\n[ParContract \"NS 4S\"]\n[OptimumScore \"NS 420\"]\n",
    );
    let read = Pbn.read(with_par.as_bytes()).unwrap();
    assert_eq!(read[0].dd, None);
    assert_eq!(write(&read), with_par, "kept and written back as they were");
}
