//! Big Deal 2.0's own files for board ranges that do not start at 1 (issue 26): every file
//! reads back as the same run's PBN says (board, dealer, vulnerability, the four hands), and
//! dealdex writes each range byte for byte as Big Deal does (but DLM's Headline and PBN's
//! header). The fixtures and the commands that made them: `tests/fixtures/bigdeal-ranges/`.

use std::path::PathBuf;

use dealdex::formats::{self, ReadOptions};
use dealdex::{Board, Deal, Scheme, WriteOptions};

use crate::common;

/// The ranges Big Deal dealt, as (file prefix, first board, last board).
const RANGES: &[(&str, u64, u64)] = &[
    ("bd1-10", 1, 10),
    ("bd2-9", 2, 9),
    ("bd3-10", 3, 10),
    ("bd11-20", 11, 20),
    ("bd29-56", 29, 56),
    ("bd250-264", 250, 264),
    ("bd257-270", 257, 270),
];

/// Big Deal's extension of each format it writes, and dealdex's name for it.
const FORMATS: &[(&str, &str)] = &[
    ("dup", "dup"),
    ("dlm", "dlm"),
    ("bri", "bri"),
    ("dge", "dge"),
    ("lin", "lin"),
    ("csv", "csv"),
    ("ber", "ber"),
    ("bhg", "borel"),
    ("rzd", "kops"),
    ("cds", "cds"),
    ("goe", "goedel"),
];

fn path(prefix: &str, ext: &str) -> PathBuf {
    common::fixture(&format!("bigdeal-ranges/{prefix}.{ext}"))
}

/// The boards of a range's PBN, with dealer and vulnerability made explicit.
fn truth(prefix: &str) -> Vec<Board> {
    let data = std::fs::read(path(prefix, "pbn")).unwrap();
    let pbn = formats::by_name("pbn").unwrap();
    pbn.read_numbered(&data, &ReadOptions::default())
        .unwrap()
        .boards
}

/// (board, dealer, vulnerability, deal) of each board, as the comparisons see them.
fn facts(boards: &[Board]) -> Vec<(u64, dealdex::Seat, dealdex::Vulnerability, Deal)> {
    boards
        .iter()
        .map(|b| {
            (
                b.number.expect("numbered"),
                b.dealer_or_default(),
                b.vulnerability_or_default(),
                b.deal,
            )
        })
        .collect()
}

#[test]
fn the_pbn_files_are_the_ranges_big_deal_was_asked_for() {
    for &(prefix, first, last) in RANGES {
        let t = truth(prefix);
        let numbers: Vec<u64> = t.iter().map(|b| b.number.unwrap()).collect();
        assert_eq!(numbers, (first..=last).collect::<Vec<_>>(), "{prefix}");
        // Big Deal's PBN gives the dealer and vulnerability of each board explicitly: they are
        // the 16-board cycle's (FORMATS.md §3).
        for b in &t {
            let n = b.number.unwrap();
            assert_eq!(
                b.dealer,
                Some(dealdex::board_dealer(n)),
                "{prefix} board {n}"
            );
            assert_eq!(
                b.vulnerability,
                Some(dealdex::board_vulnerability(n)),
                "{prefix} board {n}"
            );
        }
    }
}

/// Every file of every range, read with `--first-board` set to the range's first board,
/// gives the PBN's boards; the formats that carry board numbers give them without it too.
#[test]
fn every_file_reads_back_as_the_pbn_of_the_same_run() {
    let mut read_files = 0;
    for &(prefix, first, _) in RANGES {
        let want = facts(&truth(prefix));
        for &(ext, name) in FORMATS {
            let p = path(prefix, ext);
            if !p.exists() {
                // Big Deal writes no DUP or DLM past board 99.
                assert!(
                    first > 99 && matches!(ext, "dup" | "dlm"),
                    "{}",
                    p.display()
                );
                continue;
            }
            let format = formats::by_name(name).unwrap();
            let data = std::fs::read(&p).unwrap();
            let told = ReadOptions {
                first_board: Some(first),
            };
            let got = format
                .read_numbered(&data, &told)
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert!(got.skipped.is_empty(), "{}", p.display());
            assert_eq!(
                facts(&got.boards),
                want,
                "{} --first-board {first}",
                p.display()
            );
            // CDS holds the board number mod 256: past board 256 only `--first-board` tells.
            if format.info().board_numbers && !(name == "cds" && first > 256) {
                let got = format
                    .read_numbered(&data, &ReadOptions::default())
                    .unwrap();
                assert_eq!(facts(&got.boards), want, "{} alone", p.display());
            }
            read_files += 1;
        }
    }
    assert!(read_files >= 70, "{read_files} files read");
}

#[test]
fn the_blind_variants_read_back_too() {
    for (file, prefix, first) in [
        ("bd1-10-blind.dup", "bd1-10", 1),
        ("bd1-10-blind.dlm", "bd1-10", 1),
        ("bd11-20-blind.dlm", "bd11-20", 11),
        ("bd2-9-blind.dlm", "bd2-9", 2),
    ] {
        let p = common::fixture(&format!("bigdeal-ranges/{file}"));
        let format = formats::by_path(&p).unwrap();
        let got = format
            .read_numbered(
                &std::fs::read(&p).unwrap(),
                &ReadOptions {
                    first_board: Some(first),
                },
            )
            .unwrap();
        assert_eq!(facts(&got.boards), facts(&truth(prefix)), "{file}");
    }
}

/// The line of `text` that starts with `key`, removed (DLM's Headline names the program).
fn without_line(text: &[u8], key: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(text);
    text.split_inclusive('\n')
        .filter(|l| !l.starts_with(key))
        .collect::<String>()
        .into_bytes()
}

/// Everything from the first `[Event` on (PBN's header names the program).
fn without_pbn_header(text: &[u8]) -> Vec<u8> {
    let at = text
        .windows(6)
        .position(|w| w == b"[Event")
        .expect("an [Event] tag");
    text[at..].to_vec()
}

/// Every `[Deal "…"]` line written again from North (Big Deal always starts the deal with
/// North; dealdex, as PBN 2.1's export format asks, with the dealer).
fn deals_from_north(text: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(text);
    text.split_inclusive('\n')
        .map(|l| match l.strip_prefix("[Deal \"") {
            Some(rest) => {
                let deal: Deal = rest.trim_end().trim_end_matches("\"]").parse().unwrap();
                format!(
                    "[Deal \"{}\"]\n",
                    dealdex::format_deal(&deal, dealdex::Seat::North)
                )
            }
            None => l.to_owned(),
        })
        .collect::<String>()
        .into_bytes()
}

/// Each range written by dealdex in each of Big Deal's formats is Big Deal's file, byte for
/// byte (DLM without the Headline line; PBN from the first game on, the `[Deal]` tags
/// compared from North, without Big Deal's empty line after the last game).
#[test]
fn dealdex_writes_every_range_as_big_deal_does() {
    let mut compared = 0;
    for &(prefix, first, last) in RANGES {
        // The deals with their numbers, dealers and vulnerabilities only, as a set dealdex
        // generated or stored holds them (the PBN tags Big Deal wrote are not carried over).
        let boards: Vec<Board> = truth(prefix)
            .into_iter()
            .map(|b| Board { game: None, ..b })
            .collect();
        let mut formats_written: Vec<(&str, &str, bool)> =
            FORMATS.iter().map(|&(e, n)| (e, n, false)).collect();
        formats_written.push(("pbn", "pbn", false));
        let blind: Vec<(&str, &str, bool)> = vec![("dup", "dup", true), ("dlm", "dlm", true)];
        for (ext, name, is_blind) in formats_written.into_iter().chain(blind) {
            let file = if is_blind {
                format!("{prefix}-blind.{ext}")
            } else {
                format!("{prefix}.{ext}")
            };
            let p = common::fixture(&format!("bigdeal-ranges/{file}"));
            if !p.exists() {
                continue;
            }
            let format = formats::by_name(name).unwrap();
            let opts = WriteOptions {
                event: String::new(),
                blind: is_blind,
                first_board: first,
                last_board: last,
                ..WriteOptions::default()
            };
            let ours = formats::write_set(format, &boards, &opts)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            let theirs = std::fs::read(&p).unwrap();
            let (ours, theirs) = match name {
                "dlm" => (
                    without_line(&ours, "Headline="),
                    without_line(&theirs, "Headline="),
                ),
                "pbn" => {
                    // The deal strings differ only in their first seat: a dealdex file states
                    // the same deal from the dealer.
                    let theirs_from_north = deals_from_north(&theirs);
                    assert_eq!(
                        theirs_from_north, theirs,
                        "{file}: Big Deal writes N: first"
                    );
                    // Big Deal ends every game with an empty line, the last one too; dealdex
                    // separates games by one.
                    let mut theirs = without_pbn_header(&theirs);
                    assert!(theirs.ends_with(b"\n\n"), "{file}");
                    theirs.pop();
                    (deals_from_north(&without_pbn_header(&ours)), theirs)
                }
                _ => (ours, theirs),
            };
            if ours != theirs {
                let at = ours
                    .iter()
                    .zip(&theirs)
                    .position(|(a, b)| a != b)
                    .unwrap_or(ours.len().min(theirs.len()));
                panic!(
                    "{file}: dealdex's {name} differs from Big Deal's at byte {at} \
                     (lengths {} and {}): ours {:?}, theirs {:?}",
                    ours.len(),
                    theirs.len(),
                    String::from_utf8_lossy(&ours[at.saturating_sub(8)..(at + 24).min(ours.len())]),
                    String::from_utf8_lossy(
                        &theirs[at.saturating_sub(8)..(at + 24).min(theirs.len())]
                    ),
                );
            }
            compared += 1;
        }
    }
    assert!(compared >= 80, "{compared} files compared");
}

/// Big Deal's Gödel numbers are 0-based as its `.goe` files print them: `--scheme bigdeal`
/// gives exactly those values and takes them back.
#[test]
fn big_deal_numbers_round_trip_every_goe_value() {
    let mut values = 0;
    for &(prefix, _, _) in RANGES {
        let goe = std::fs::read_to_string(path(prefix, "goe")).unwrap();
        for (line, board) in goe.lines().zip(truth(prefix)) {
            let printed = line.trim();
            let n = dealdex::parse_scheme_number(printed, Scheme::BigDeal).unwrap();
            assert_eq!(board.deal.number(Scheme::BigDeal), n, "{prefix}: {printed}");
            assert_eq!(Deal::from_number(n, Scheme::BigDeal).unwrap(), board.deal);
            values += 1;
        }
    }
    assert!(values >= 90, "{values}");
    // The ends of the range: 0 and D − 1 in Big Deal's scheme, 1 and D in the others.
    assert!(Deal::from_number(0, Scheme::BigDeal).is_ok());
    assert!(Deal::from_number(dealdex::DEALS, Scheme::BigDeal).is_err());
    assert!(Deal::from_number(0, Scheme::Pavlicek).is_err());
    assert!(Deal::from_number(dealdex::DEALS, Scheme::Andrews).is_ok());
}

/// The CLI: `number` and `deal` in Big Deal's scheme print and take the `.goe` values, and
/// `import` of Big Deal's 11–20 files with `--first-board 11` stores the PBN's boards.
#[test]
fn cli_number_deal_and_import_agree_with_big_deal() {
    let dir = tempfile::tempdir().unwrap();
    let goe = std::fs::read_to_string(path("bd11-20", "goe")).unwrap();
    let first = goe.lines().next().unwrap().trim().to_owned();
    let pbn_deal = {
        let t = truth("bd11-20");
        dealdex::format_deal(&t[0].deal, dealdex::Seat::North)
    };
    let out = common::dealdex(dir.path())
        .args(["deal", &first, "--scheme", "bigdeal"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&pbn_deal[2..]),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = common::dealdex(dir.path())
        .args(["number", &pbn_deal, "--scheme", "bigdeal"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let digits: String = first.chars().filter(char::is_ascii_digit).collect();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&digits),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Import the Borel, DUP and Gödel files as sets and export them as PBN: Big Deal's boards.
    for ext in ["bhg", "dup", "goe"] {
        let set = format!("s-{ext}");
        let p = path("bd11-20", ext);
        let p = p.to_str().unwrap();
        common::dealdex(dir.path())
            .args(["import", p, "--set", &set, "--first-board", "11"])
            .assert()
            .success();
        let out = dir.path().join(format!("{set}.pbn"));
        common::dealdex(dir.path())
            .args(["export", "--set", &set, "--out", out.to_str().unwrap()])
            .assert()
            .success();
        let data = std::fs::read(&out).unwrap();
        let got = formats::by_name("pbn")
            .unwrap()
            .read_numbered(&data, &ReadOptions::default())
            .unwrap();
        assert_eq!(facts(&got.boards), facts(&truth("bd11-20")), "{ext}");
    }
}

/// JSON lines say which scheme their number is in, and a Big Deal set's lines carry Big Deal's
/// number: from `generate --bigdeal-wizard … --format json` and from `export` of that set.
#[test]
fn json_lines_of_a_big_deal_set_carry_big_deal_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::dealdex(dir.path())
        .args([
            "generate",
            "--bigdeal-wizard",
            "wizard-devA",
            "--bigdeal-entropy",
            "issue 26",
            "--boards",
            "1-4",
            "--format",
            "json",
            "--name",
            "bd",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let generated = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = generated.lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(lines.len(), 4, "{generated}");
    for l in &lines {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let deal: Deal = v["deal"].as_str().unwrap().parse().unwrap();
        assert_eq!(v["scheme"], "bigdeal", "{l}");
        assert_eq!(v["number"], deal.number(Scheme::BigDeal).to_string(), "{l}");
        assert_ne!(
            v["number"],
            deal.number(Scheme::Pavlicek).to_string(),
            "{l}"
        );
    }
    common::dealdex(dir.path())
        .args(["export", "--set", "bd", "--out", "bd.json"])
        .assert()
        .success();
    let exported = std::fs::read_to_string(dir.path().join("bd.json")).unwrap();
    assert_eq!(exported.lines().collect::<Vec<_>>(), lines);
}

/// A file of a tournament set that carries no board numbers (DUP, BRI, DGE, BER, Borel, KOPS,
/// Gödel) read without `--first-board` cannot tell which boards it holds: it is read from
/// board 1 and says so, rather than silently (dealers and vulnerabilities, and Borel's seats,
/// depend on it). The formats that carry board numbers do not warn.
#[test]
fn files_that_cannot_tell_their_first_board_say_so() {
    let mut warned = Vec::new();
    for &(ext, name) in FORMATS {
        let data = std::fs::read(path("bd11-20", ext)).unwrap();
        let format = formats::by_name(name).unwrap();
        let untold = format
            .read_numbered(&data, &ReadOptions::default())
            .unwrap();
        if !untold.warnings.is_empty() {
            warned.push(name);
        }
    }
    assert_eq!(
        warned,
        ["dup", "bri", "dge", "ber", "borel", "kops", "goedel"],
        "the formats without board numbers, and only they"
    );
    for (ext, name) in [("bhg", "borel"), ("dup", "dup")] {
        let data = std::fs::read(path("bd11-20", ext)).unwrap();
        let format = formats::by_name(name).unwrap();
        let untold = format
            .read_numbered(&data, &ReadOptions::default())
            .unwrap();
        assert_eq!(untold.boards[0].number, Some(1), "{name}");
        assert_eq!(untold.warnings.len(), 1, "{name}");
        assert!(untold.warnings[0].contains("the first board"), "{name}");
        let told = format
            .read_numbered(
                &data,
                &ReadOptions {
                    first_board: Some(11),
                },
            )
            .unwrap();
        assert!(told.warnings.is_empty(), "{name}");
    }
    // Turned 180°: the untold Borel reading has North's and South's hands swapped.
    let data = std::fs::read(path("bd11-20", "bhg")).unwrap();
    let untold = formats::by_name("borel")
        .unwrap()
        .read_numbered(&data, &ReadOptions::default())
        .unwrap();
    let want = truth("bd11-20");
    assert_eq!(
        untold.boards[0].deal.hand(dealdex::Seat::North),
        want[0].deal.hand(dealdex::Seat::South)
    );
}

/// The database numbers a stored deal in Big Deal's scheme as its `.goe` file does.
#[test]
fn sql_number_in_big_deals_scheme_is_the_goe_value() {
    let dir = tempfile::tempdir().unwrap();
    let goe = path("bd29-56", "goe");
    common::dealdex(dir.path())
        .args([
            "import",
            goe.to_str().unwrap(),
            "--set",
            "g",
            "--first-board",
            "29",
        ])
        .assert()
        .success();
    let out = common::dealdex(dir.path())
        .args([
            "sql",
            "SELECT number(deal, 'bigdeal') FROM set_boards ORDER BY board",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim().to_owned())
        .filter(|l| l.chars().all(|c| c.is_ascii_digit()) && !l.is_empty())
        .collect();
    let want: Vec<String> = std::fs::read_to_string(&goe)
        .unwrap()
        .lines()
        .map(|l| l.trim().replace(',', ""))
        .collect();
    assert_eq!(got, want);
}
