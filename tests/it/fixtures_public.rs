//! Every public fixture (copied from shared/fixtures into tests/fixtures) read through the
//! registry: Big Deal's PBN session files and the 1,186-deal WBG 2024 list.

use std::path::{Path, PathBuf};

use dealdex::formats::{self, DealFormat, WriteOptions};
use dealdex::{Deal, Seat};

fn pbn_fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    for dir in [
        root.clone(),
        root.join("squaredeal-wbg2024"),
        root.join("squaredeal-wc2025"),
    ] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "pbn") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The games of a PBN text, without `%` lines and Big Deal's `[Generator]` tag, with the
/// Deal tag rewritten North first: Big Deal always starts at North, PBN export (and dealdex)
/// at the dealer; everything else must agree byte for byte.
fn games(text: &str) -> Vec<String> {
    text.replace("\r\n", "\n")
        .split("\n\n")
        .map(|g| {
            g.lines()
                .filter(|l| !l.starts_with('%') && !l.starts_with("[Generator "))
                .map(|l| {
                    match l
                        .strip_prefix("[Deal \"")
                        .and_then(|r| r.strip_suffix("\"]"))
                    {
                        Some(d) => format!("[Deal \"{}\"]", d.parse::<Deal>().unwrap()),
                        None => l.to_string(),
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .filter(|g| !g.trim().is_empty())
        .collect()
}

#[test]
fn big_deal_pbn_files_are_read_and_written_back_game_for_game() {
    let files = pbn_fixtures();
    assert!(files.len() >= 70, "{}", files.len());
    let mut big_deal = 0;
    for path in files {
        let data = std::fs::read(&path).unwrap();
        let boards = formats::Pbn
            .read(&data)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!boards.is_empty(), "{}", path.display());
        let text = String::from_utf8_lossy(&data);
        // Big Deal's session files and SquareDeal's joined files share the layout.
        if !text.contains("[Generator \"Big Deal") && !text.contains("[Generator \"SquareDeal") {
            continue;
        }
        big_deal += 1;
        // Big Deal writes dealdex's export layout: the same games, byte for byte.
        let opts = WriteOptions {
            first_board: 1,
            last_board: boards.len() as u64,
            ..WriteOptions::default()
        };
        let written = formats::write_set(&formats::Pbn, &boards, &opts).unwrap();
        assert_eq!(
            games(&String::from_utf8(written).unwrap()),
            games(&text),
            "{}",
            path.display()
        );
    }
    assert_eq!(
        big_deal, 68,
        "Big Deal and SquareDeal files among the fixtures"
    );
}

#[test]
fn wbg2024_sessions_are_in_the_deal_list() {
    let list: Vec<Deal> = include_str!("../fixtures/bigdeal-wbg2024-deals.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("N:{l}").parse().unwrap())
        .collect();
    assert_eq!(list.len(), 1186);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/squaredeal-wbg2024");
    for s in ["OPRR01", "OPRR02", "MXRR03", "R161", "FIN6"] {
        let data = std::fs::read(root.join(format!("{s}.pbn"))).unwrap();
        let boards = formats::Pbn.read(&data).unwrap();
        for b in &boards {
            assert!(list.contains(&b.deal), "{s} board {:?}", b.number);
            assert_eq!(b.dealer, Some(dealdex::board_dealer(b.number.unwrap())));
        }
    }
    // SQUAREDEAL.md §3: session 1,1 board 1.
    let data = std::fs::read(root.join("OPRR01.pbn")).unwrap();
    let first = &formats::Pbn.read(&data).unwrap()[0];
    assert_eq!(
        dealdex::format_deal(&first.deal, Seat::North),
        "N:AJ65.K82.AK8.J75 8.AQT75.QJT4.Q64 KT2..96532.KT983 Q9743.J9643.7.A2"
    );
}
