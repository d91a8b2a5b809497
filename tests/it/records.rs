//! `dealdex records`: the HTML sheet's structure against the database (every board, the 52
//! cards of each diagram, HCP, double-dummy tables and par), options, deal files, bad input.

use std::path::Path;

use dealdex::dd::TablePar;
use dealdex::records::par_label;
use dealdex::{Deal, Seat, Store, Strain, Suit, board_dealer, board_vulnerability, features};
use scraper::{ElementRef, Html, Selector};

use crate::common::{dealdex, fixture, json_report};

const SEED: &str = "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e";

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

fn text(e: ElementRef) -> String {
    e.text().collect::<String>()
}

/// A set "club" of `boards` boards in `dir`/dealdex.db, solved when `solve`.
fn club(dir: &Path, boards: u64, solve: bool) {
    dealdex(dir)
        .args([
            "generate",
            "--boards",
            &format!("1-{boards}"),
            "--seed",
            SEED,
            "--name",
            "club",
        ])
        .args(["--out", "club.pbn", "-q"])
        .assert()
        .success();
    if solve {
        dealdex(dir)
            .args(["solve", "--set", "club", "-q"])
            .assert()
            .success();
    }
}

/// The deal a board's diagram shows, read back from its holdings (`10` → `T`, `—` → void).
fn diagram_deal(board: ElementRef) -> Deal {
    let mut hands = Vec::new();
    for seat in Seat::ALL {
        let hand = board
            .select(&sel(&format!(".hand[data-seat=\"{}\"]", seat.letter())))
            .next()
            .unwrap_or_else(|| panic!("no hand for {seat:?}"));
        let holdings: Vec<String> = Suit::ALL
            .iter()
            .map(|s| {
                let h = hand
                    .select(&sel(&format!(".suit[data-suit=\"{}\"] .cards", s.letter())))
                    .next()
                    .unwrap();
                text(h).replace("10", "T").replace('\u{2014}', "")
            })
            .collect();
        hands.push(holdings.join("."));
    }
    format!("N:{}", hands.join(" ")).parse().unwrap()
}

#[test]
fn html_sheet_matches_the_database() {
    let dir = tempfile::tempdir().unwrap();
    club(dir.path(), 9, true);
    let (report, _) = json_report(
        dir.path(),
        &["records", "--set", "club", "--out", "club.html", "--json"],
    );
    assert_eq!(report["boards"], 9);
    assert_eq!(report["pages"], 3);
    assert_eq!(report["analysed"], 9);
    assert_eq!(report["format"], "html");
    assert_eq!(report["header"]["set"], "club");

    let page = std::fs::read_to_string(dir.path().join("club.html")).unwrap();
    assert!(!page.contains("<script"), "no scripts");
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "no fetches"
    );
    assert!(page.contains("@page { size: A4 portrait"));
    let html = Html::parse_document(&page);
    assert_eq!(html.select(&sel("div.page")).count(), 3);
    assert_eq!(
        text(html.select(&sel("footer")).nth(2).unwrap()),
        "Page 3 of 3"
    );

    let store = Store::open(&dir.path().join("dealdex.db")).unwrap();
    let stored = store.set_boards("club").unwrap();
    let boards: Vec<ElementRef> = html.select(&sel("section.board")).collect();
    assert_eq!(boards.len(), stored.len());
    for (b, (n, key)) in boards.iter().zip(&stored) {
        let deal = key.to_deal().unwrap();
        assert_eq!(b.value().attr("data-board"), Some(n.to_string().as_str()));
        assert_eq!(diagram_deal(*b), deal, "board {n}'s diagram");
        let dealer = board_dealer(*n);
        let vul = board_vulnerability(*n);
        assert_eq!(
            b.value().attr("data-dealer"),
            Some(dealer.letter().to_string().as_str())
        );
        assert_eq!(b.value().attr("data-vul"), Some(vul.pbn()));
        for seat in Seat::ALL {
            let hcp = b
                .select(&sel(&format!(".hcp span[data-seat=\"{}\"]", seat.letter())))
                .next()
                .unwrap();
            assert_eq!(text(hcp), features::hcp(deal.hand(seat)).to_string());
        }
        let table = store.dd_table(key).unwrap().expect("solved");
        let cells: Vec<ElementRef> = b.select(&sel("table.dd td")).collect();
        assert_eq!(cells.len(), 20);
        for td in cells {
            let seat = Seat::from_char(
                td.value()
                    .attr("data-declarer")
                    .unwrap()
                    .chars()
                    .next()
                    .unwrap(),
            )
            .unwrap();
            let strain: Strain = td.value().attr("data-strain").unwrap().parse().unwrap();
            assert_eq!(
                text(td),
                table.tricks(seat, strain).to_string(),
                "board {n}"
            );
        }
        let par = text(b.select(&sel(".par")).next().unwrap());
        assert_eq!(par, format!("Par: {}", par_label(&table.par(dealer, vul))));
    }
}

#[test]
fn options_shape_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    club(dir.path(), 7, false);
    let d = dir.path();
    // Unsolved: no analysis, whatever the options.
    let (r, _) = json_report(
        d,
        &[
            "records",
            "--set",
            "club",
            "--out",
            "a.html",
            "--per-page",
            "6",
            "--paper",
            "letter",
            "--ten",
            "T",
            "--json",
        ],
    );
    assert_eq!(
        (r["pages"].as_u64(), r["analysed"].as_u64()),
        (Some(2), Some(0))
    );
    assert_eq!(r["options"]["per_page"], 6);
    let page = std::fs::read_to_string(d.join("a.html")).unwrap();
    assert!(page.contains("@page { size: letter portrait"));
    let html = Html::parse_document(&page);
    assert_eq!(html.select(&sel("table.dd")).count(), 0);
    let cards: String = html.select(&sel(".cards")).map(text).collect();
    assert!(cards.contains('T') && !cards.contains("10"), "--ten T");

    // Solve two boards' deals only: those two show analysis; --hide-analysis shows none.
    dealdex(d)
        .args(["solve", "--set", "club", "-q"])
        .assert()
        .success();
    let (r, _) = json_report(
        d,
        &[
            "records",
            "--set",
            "club",
            "--out",
            "b.html",
            "--per-page",
            "1",
            "--json",
        ],
    );
    assert_eq!(
        (r["pages"].as_u64(), r["analysed"].as_u64()),
        (Some(7), Some(7))
    );
    let (r, _) = json_report(
        d,
        &[
            "records",
            "--set",
            "club",
            "--out",
            "c.html",
            "--hide-analysis",
            "--event",
            "Tuesday <pairs>",
            "--date",
            "2026-11-24",
            "--json",
        ],
    );
    assert_eq!(r["analysed"], 0);
    let page = std::fs::read_to_string(d.join("c.html")).unwrap();
    assert!(!page.contains("class=\"dd\"") && !page.contains("class=\"par\""));
    assert!(
        page.contains("<h1>Tuesday &lt;pairs&gt;</h1>"),
        "event escaped"
    );
    assert!(page.contains("2026-11-24 \u{b7} set club"));
    let cards: String = Html::parse_document(&page)
        .select(&sel(".cards"))
        .map(text)
        .collect();
    assert!(
        cards.contains("10") && !cards.contains('T'),
        "default ten is 10"
    );
}

#[test]
fn a_deal_file_prints_with_its_tags_and_solves_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (r, _) = json_report(
        d,
        &[
            "records",
            fixture("records/worst.pbn").to_str().unwrap(),
            "--out",
            "w.html",
            "--json",
        ],
    );
    assert_eq!(
        (r["boards"].as_u64(), r["analysed"].as_u64()),
        (Some(2), Some(0))
    );
    assert_eq!(r["header"]["event"], "Worst case");
    assert!(
        !d.join("dealdex.db").exists(),
        "a file alone needs no database"
    );
    let html = Html::parse_document(&std::fs::read_to_string(d.join("w.html")).unwrap());
    let b1 = html.select(&sel("section.board")).next().unwrap();
    assert_eq!(b1.value().attr("data-vul"), Some("All"));
    let n_spades = b1
        .select(&sel(".hand[data-seat=\"N\"] .suit[data-suit=\"S\"] .cards"))
        .next()
        .unwrap();
    assert_eq!(text(n_spades), "AKQJ1098765432");
    let n_hearts = b1
        .select(&sel(".hand[data-seat=\"N\"] .suit[data-suit=\"H\"] .cards"))
        .next()
        .unwrap();
    assert_eq!(text(n_hearts), "\u{2014}");
    assert_eq!(
        b1.select(&sel(".seat.vul")).count(),
        4,
        "all four seats vulnerable"
    );

    std::fs::copy(fixture("records/worst.pbn"), d.join("worst.pbn")).unwrap();
    let args = [
        "records",
        "worst.pbn",
        "--solve",
        "--db",
        "x.db",
        "--out",
        "w.html",
        "--json",
    ];
    // No x.db yet: solved without storing.
    let (r, _) = json_report(d, &args);
    assert_eq!(
        (r["analysed"].as_u64(), r["solved_now"].as_u64()),
        (Some(2), Some(2))
    );
    Store::open(&d.join("x.db")).unwrap();
    let (r, _) = json_report(d, &args);
    assert_eq!(r["solved_now"], 2, "stored now");
    let (r, _) = json_report(d, &args);
    assert_eq!(
        (r["analysed"].as_u64(), r["solved_now"].as_u64()),
        (Some(2), Some(0)),
        "read back"
    );
    let page = std::fs::read_to_string(d.join("w.html")).unwrap();
    assert!(
        page.contains("Par: NS +2210: 7\u{2660} N, 7\u{2660} S"),
        "grand slam par"
    );
}

#[test]
fn bad_requests_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    club(d, 2, false);
    for (args, says) in [
        (
            vec!["records", "--set", "club", "--out", "x.txt"],
            "html or .pdf",
        ),
        (
            vec![
                "records",
                "--set",
                "club",
                "--out",
                "x.html",
                "--per-page",
                "3",
            ],
            "1, 2, 4 or 6",
        ),
        (
            vec![
                "records", "--set", "club", "--out", "x.html", "--paper", "a5",
            ],
            "a4 or letter",
        ),
        (
            vec!["records", "--set", "nope", "--out", "x.html"],
            "no set named \"nope\"",
        ),
        (
            vec![
                "records", "--set", "club", "--db", "none.db", "--out", "x.html",
            ],
            "no database",
        ),
        (
            vec!["records", "missing.pbn", "--out", "x.html"],
            "missing.pbn",
        ),
        (vec!["records", "--out", "x.html"], "<DEAL_FILE>"),
    ] {
        let out = dealdex(d).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!d.join("x.html").exists() && !d.join("x.txt").exists());
    }
}

/// Hostile or huge event names: PBN's `\"` is shown as `"`, bidirectional controls are
/// removed, and each page's header shows at most `HEADER_CHARS` characters with `…` while the
/// whole name is given once (the HTML title, the PDF's title), so a huge name no longer
/// repeats on every page.
#[test]
fn hostile_and_huge_event_names_are_shown_safely_and_once() {
    let dir = tempfile::TempDir::new().unwrap();
    let d = dir.path();
    let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    let pbn = |event: &str, boards: u64| {
        (1..=boards)
            .map(|n| format!("[Event \"{event}\"]\n[Board \"{n}\"]\n[Deal \"{deal}\"]\n\n"))
            .collect::<String>()
    };
    std::fs::write(
        d.join("q.pbn"),
        pbn("Club \\\"Tuesday\\\" \u{202E}pairs", 2),
    )
    .unwrap();
    dealdex(d)
        .args(["records", "q.pbn", "--out", "q.html", "--db", "none.db"])
        .assert()
        .success();
    let page = std::fs::read_to_string(d.join("q.html")).unwrap();
    let html = Html::parse_document(&page);
    let h1 = html.select(&sel("h1")).next().map(text).unwrap();
    assert_eq!(h1, "Club \"Tuesday\" pairs");
    assert!(
        !page.contains('\u{202E}') && !page.contains("\\\""),
        "{page}"
    );

    let name = "Long name ".repeat(20_000); // 200,000 characters
    std::fs::write(d.join("long.pbn"), pbn(&name, 24)).unwrap();
    for out in ["long.html", "long.pdf"] {
        dealdex(d)
            .args(["records", "long.pbn", "--out", out, "--db", "none.db"])
            .assert()
            .success();
    }
    let page = std::fs::read_to_string(d.join("long.html")).unwrap();
    let html = Html::parse_document(&page);
    let headers: Vec<String> = html.select(&sel("h1")).map(text).collect();
    assert_eq!(headers.len(), 6, "24 boards, 4 a page");
    for h in &headers {
        assert_eq!(h.chars().count(), dealdex::records::HEADER_CHARS + 1);
        assert!(h.ends_with('…'));
    }
    assert_eq!(
        page.matches(name.trim_end()).count(),
        1,
        "the whole name once"
    );
    // The title (UTF-16, in the info dictionary and the XMP metadata) holds the name twice;
    // before, each of the 6 pages showed it too (over 3 MB).
    let pdf = std::fs::metadata(d.join("long.pdf")).unwrap().len();
    assert!(pdf < 5 * name.len() as u64, "{pdf} bytes");
    assert!(!d.join("none.db").exists());
}
