//! The peers' everyday text outputs (issue 26 item 6): Debian dealer's `printall`,
//! `printew`, `printcompact` and `printoneline`, redeal's short, long and PBN output (with
//! `-o`), endplay's `json.dump` and endplay-dealer's `printpbn` and `printoneline`. Every
//! fixture in `tests/fixtures/peers/` is real peer output (README there gives the commands):
//! each is read with its reader and through [`detect`], and compared board by board with the
//! same run's PBN written by the peer itself, read by dealdex's PBN reader. The writers are
//! compared byte for byte with the peers' files.

use dealdex::formats::{
    self, Board, DealFormat, DealLines, DealerAll, DealerCompact, DealerEw, EndplayJson,
    FileBoards, Json, NO_COMPLETE_DEAL, OneLine, Pbn, Redeal, RedealLong, WriteOptions, detect,
};
use dealdex::{FormatError, FormatErrorKind, Seat, Vulnerability};

use crate::common::{self, fixture};

fn peer(name: &str) -> Vec<u8> {
    std::fs::read(fixture(&format!("peers/{name}"))).unwrap_or_else(|e| panic!("peers/{name}: {e}"))
}

/// The peer's own PBN of a run, read by dealdex's PBN reader.
fn truth(name: &str) -> FileBoards {
    Pbn.read_all(&peer(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn read_all(f: &dyn DealFormat, name: &str) -> FileBoards {
    f.read_all(&peer(name))
        .unwrap_or_else(|e| panic!("{name} as {}: {e}", f.info().name))
}

/// What a board says: number, dealer, vulnerability (those a format does not carry follow
/// the number, as dealdex numbers boards in file order) and the deal.
fn facts(b: &Board) -> (Option<u64>, Seat, Vulnerability, String) {
    (
        b.number,
        b.dealer_or_default(),
        b.vulnerability_or_default(),
        b.deal.to_string(),
    )
}

/// Asserts that `got` (read from `name`) holds the truth's boards in order; unnumbered boards
/// are numbered from 1 first, as an import numbers them.
fn assert_same(name: &str, got: &[Board], truth: &[Board]) {
    assert_eq!(got.len(), truth.len(), "{name}: board count");
    let mut got = got.to_vec();
    formats::number_boards(&mut got, 1);
    let mut truth = truth.to_vec();
    formats::number_boards(&mut truth, 1);
    for (g, t) in got.iter().zip(&truth) {
        assert_eq!(facts(g), facts(t), "{name}: board {:?}", t.number);
    }
}

/// The file without the statistics lines dealer (and endplay-dealer's `-v`) print at the end.
fn without_trailer(data: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(data).unwrap();
    let end = text.find("Generated ").unwrap_or(text.len());
    text.as_bytes()[..end].to_vec()
}

/// The file without redeal's closing empty line and `Tries: N`.
fn without_tries(data: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(data).unwrap();
    let end = text.rfind("\nTries: ").expect("redeal's Tries line");
    text.as_bytes()[..end].to_vec()
}

fn detected(name: &str) -> &'static str {
    detect(&peer(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .info()
        .name
}

fn write(f: &dyn DealFormat, boards: &[Board]) -> Vec<u8> {
    formats::write_set(f, boards, &WriteOptions::default()).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Debian dealer 20211121

const DEALER_RUNS: [&str; 2] = ["voids-s7", "long-s5"];

#[test]
fn dealer_runs_agree_with_their_printpbn() {
    for run in DEALER_RUNS {
        let t = truth(&format!("dealer-{run}.pbn"));
        assert_eq!(t.boards.len(), 8, "{run}");
        assert!(t.skipped.is_empty());
        // printall carries the board numbers (the ones printpbn gives).
        let name = format!("dealer-{run}.all");
        let all = read_all(&DealerAll, &name);
        assert!(all.boards.iter().all(|b| b.number.is_some()), "{name}");
        assert_same(&name, &all.boards, &t.boards);
        assert_eq!(detected(&name), "dealer-all");
        for ext in ["compact", "compact-hcp"] {
            let name = format!("dealer-{run}.{ext}");
            assert_same(&name, &read_all(&DealerCompact, &name).boards, &t.boards);
            assert_eq!(detected(&name), "dealer-compact");
        }
        let name = format!("dealer-{run}.oneline");
        assert_same(&name, &read_all(&OneLine, &name).boards, &t.boards);
        assert_eq!(detected(&name), "oneline");
    }
}

#[test]
fn dealer_printew_is_skipped_and_its_two_hands_are_right() {
    for run in DEALER_RUNS {
        let t = truth(&format!("dealer-{run}.pbn"));
        let name = format!("dealer-{run}.ew");
        let read = read_all(&DealerEw, &name);
        assert!(read.boards.is_empty(), "{name}: two hands are no deal");
        assert_eq!(read.skipped.len(), 8, "{name}");
        assert!(read.skipped.iter().all(|s| s.reason == NO_COMPLETE_DEAL));
        assert_eq!(
            read.skipped[1].line,
            Some(6),
            "{name}: deal 2 starts on line 6"
        );
        let hands = DealerEw.read_hands(&peer(&name)).unwrap();
        assert_eq!(hands.len(), 8);
        for ((_, h), b) in hands.iter().zip(&t.boards) {
            assert_eq!(h[Seat::North.index()], None);
            assert_eq!(h[Seat::South.index()], None);
            assert_eq!(
                h[Seat::West.index()],
                Some(b.deal.hand(Seat::West)),
                "{name}"
            );
            assert_eq!(
                h[Seat::East.index()],
                Some(b.deal.hand(Seat::East)),
                "{name}"
            );
        }
        assert_eq!(detected(&name), "dealer-ew");
    }
}

#[test]
fn dealer_long_suits_run_into_the_next_column_and_are_split_right() {
    // The fixture was made with South holding 11 spades and West 10 hearts: some suit lines
    // have a column of 10 cards or more that the next one follows without a gap.
    let all = std::str::from_utf8(&peer("dealer-long-s5.all"))
        .unwrap()
        .to_owned();
    assert!(
        all.contains("A K Q J T 9 8 7 6 5 3 \n"),
        "a 10-card column then West's 3"
    );
    let ew = std::str::from_utf8(&peer("dealer-long-s5.ew"))
        .unwrap()
        .to_owned();
    assert!(
        ew.contains("A K Q J T 9 8 7 6 4 3 2 \n"),
        "West's 11 hearts then East's 2"
    );
    let t = truth("dealer-long-s5.pbn");
    assert_eq!(
        t.boards[1]
            .deal
            .hand(Seat::West)
            .suit_len(dealdex::Suit::Spades),
        1
    );
}

#[test]
fn dealer_writers_reproduce_dealers_bytes() {
    for run in DEALER_RUNS {
        let t = truth(&format!("dealer-{run}.pbn"));
        for (f, ext) in [
            (&DealerAll as &dyn DealFormat, "all"),
            (&DealerEw, "ew"),
            (&DealerCompact, "compact"),
            (&OneLine, "oneline"),
        ] {
            let name = format!("dealer-{run}.{ext}");
            let expected = without_trailer(&peer(&name));
            assert_eq!(
                String::from_utf8(write(f, &t.boards)).unwrap(),
                String::from_utf8(expected).unwrap(),
                "{name}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// redeal 5709783

const REDEAL_RUNS: [(&str, usize); 2] = [("s7", 8), ("s3-west-spades", 4)];

#[test]
fn redeal_runs_agree_with_their_pbn() {
    for (run, n) in REDEAL_RUNS {
        // redeal's -f pbn: `[Deal "N:…"]` lines only, then `Tries: N`.
        let t = truth(&format!("redeal-{run}.pbn"));
        assert_eq!(t.boards.len(), n, "{run}");
        assert_eq!(detected(&format!("redeal-{run}.pbn")), "pbn");
        for (f, ext, name) in [
            (&Redeal as &dyn DealFormat, "short", "redeal"),
            (&Redeal, "ascii.short", "redeal"),
            (&RedealLong, "long", "redeal-long"),
            (&RedealLong, "ascii.long", "redeal-long"),
            // -o NES: West left out, completed from the other three.
            (&RedealLong, "nes.long", "redeal-long"),
        ] {
            let file = if ext.contains('.') {
                format!("redeal-{run}-{ext}")
            } else {
                format!("redeal-{run}.{ext}")
            };
            let read = read_all(f, &file);
            assert!(read.skipped.is_empty(), "{file}");
            assert_same(&file, &read.boards, &t.boards);
            assert_eq!(detected(&file), name, "{file}");
        }
    }
}

#[test]
fn redeal_two_hands_are_skipped_and_reported() {
    for (run, n) in REDEAL_RUNS {
        let t = truth(&format!("redeal-{run}.pbn"));
        // -f pbn -o NS: `[Deal "N:<north> - <south> -"]`, the PBN reader's skip rule.
        let name = format!("redeal-{run}-ns.pbn");
        let pbn = read_all(&Pbn, &name);
        assert!(pbn.boards.is_empty(), "{name}");
        assert_eq!(pbn.skipped.len(), n, "{name}");
        assert!(pbn.skipped.iter().all(|s| s.reason == NO_COMPLETE_DEAL));
        // Short -o NS: two hands without seats.
        let name = format!("redeal-{run}-ns.short");
        let short = read_all(&Redeal, &name);
        assert!(short.boards.is_empty(), "{name}");
        assert_eq!(short.skipped.len(), n, "{name}");
        assert_eq!(short.warnings.len(), 1, "{name}: {:?}", short.warnings);
        assert_eq!(detected(&name), "redeal");
        // Long -o NS: the seats are known; two missing, skipped; the hands shown are right.
        let name = format!("redeal-{run}-ns.long");
        let long = read_all(&RedealLong, &name);
        assert!(long.boards.is_empty(), "{name}");
        assert_eq!(long.skipped.len(), n, "{name}");
        let hands = RedealLong.read_hands(&peer(&name)).unwrap();
        for ((_, h), b) in hands.iter().zip(&t.boards) {
            assert_eq!(h[0], Some(b.deal.hand(Seat::North)), "{name}");
            assert_eq!(h[2], Some(b.deal.hand(Seat::South)), "{name}");
            assert_eq!((h[1], h[3]), (None, None), "{name}");
        }
        assert_eq!(detected(&name), "redeal-long");
    }
}

#[test]
fn redeal_writers_reproduce_redeals_bytes() {
    for (run, _) in REDEAL_RUNS {
        let t = truth(&format!("redeal-{run}.pbn"));
        for (f, ext) in [(&Redeal as &dyn DealFormat, "short"), (&RedealLong, "long")] {
            let name = format!("redeal-{run}.{ext}");
            // redeal prints an empty line before `Tries:`, not part of the deals' layout.
            let expected = without_tries(&peer(&name));
            assert_eq!(
                String::from_utf8(write(f, &t.boards)).unwrap(),
                String::from_utf8(expected).unwrap(),
                "{name}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// endplay 0.5.12

#[test]
fn endplay_json_agrees_with_endplays_pbn() {
    let t = truth("endplay-boards.pbn");
    assert_eq!(t.boards.len(), 8);
    assert_eq!(t.skipped.len(), 1, "board 9 holds two hands");
    for name in ["endplay-boards.json", "endplay-boards-indent.json"] {
        for f in [&EndplayJson as &dyn DealFormat, &Json] {
            let read = read_all(f, name);
            assert!(
                read.boards
                    .iter()
                    .all(|b| b.number.is_some() && b.dealer.is_some() && b.vulnerability.is_some())
            );
            assert_same(name, &read.boards, &t.boards);
            assert_eq!(read.skipped.len(), 1, "{name}");
            assert_eq!(read.skipped[0].board, Some(9));
            assert_eq!(read.skipped[0].reason, NO_COMPLETE_DEAL);
        }
        assert_eq!(detected(name), "endplay-json");
    }
    // Board 3's dealer and vulnerability are not its number's: they are read as given.
    assert_eq!(
        (t.boards[2].dealer, t.boards[2].vulnerability),
        (Some(Seat::West), Some(Vulnerability::All))
    );
}

#[test]
fn endplay_json_writer_reproduces_json_dump() {
    let t = truth("endplay-boards.pbn");
    assert_eq!(
        String::from_utf8(write(&EndplayJson, &t.boards[4..8])).unwrap(),
        String::from_utf8(peer("endplay-plain.json")).unwrap()
    );
}

#[test]
fn endplay_dealer_lines_agree_with_endplays_pbn() {
    let t = truth("endplay-boards.pbn");
    for (f, name, numbered, format) in [
        (
            &DealLines as &dyn DealFormat,
            "endplay-dealer-s7.deals",
            false,
            "deal-lines",
        ),
        (&DealLines, "endplay-dealer-s7-b.deals", true, "deal-lines"),
        (&OneLine, "endplay-dealer-s7.oneline", false, "oneline"),
        (&OneLine, "endplay-dealer-s7-b.oneline", true, "oneline"),
        (&OneLine, "endplay-dealer-s7-hcp.oneline", false, "oneline"),
        (&OneLine, "endplay-dealer-s7-v.oneline", false, "oneline"),
    ] {
        let read = read_all(f, name);
        assert!(
            read.boards.iter().all(|b| b.number.is_some() == numbered),
            "{name}"
        );
        // The truth's explicit dealer and vulnerability are its numbers' here.
        let deals: Vec<Board> = t
            .boards
            .iter()
            .map(|b| Board::new(b.number.unwrap(), b.deal))
            .collect();
        assert_same(name, &read.boards, &deals);
        assert_eq!(detected(name), format, "{name}");
    }
    let voids = truth("endplay-voids-s11.pbn");
    assert_eq!(voids.boards.len(), 6);
    for (f, name) in [
        (
            &DealLines as &dyn DealFormat,
            "endplay-dealer-s11-voids.deals",
        ),
        (&OneLine, "endplay-dealer-s11-voids.oneline"),
    ] {
        assert_same(name, &read_all(f, name).boards, &voids.boards);
    }
    assert_eq!(detected("endplay-dealer-s11-voids.oneline"), "oneline");
}

#[test]
fn deal_lines_writer_reproduces_endplay_dealers_printpbn() {
    let t = truth("endplay-boards.pbn");
    assert_eq!(
        String::from_utf8(write(&DealLines, &t.boards)).unwrap(),
        String::from_utf8(peer("endplay-dealer-s7.deals")).unwrap()
    );
}

// ---------------------------------------------------------------------------------------------
// Detection and misreads

#[test]
fn endplay_dealers_diagrams_are_refused_by_name() {
    for name in [
        "endplay-dealer-s7.all",
        "endplay-dealer-s7.ew",
        "endplay-dealer-s7.compact",
    ] {
        match detect(&peer(name)) {
            Err(e) if matches!(e.kind(), FormatErrorKind::UnknownContent { .. }) => {
                let m = e.to_string();
                assert!(m.contains("endplay-dealer"), "{name}: {m}");
                assert!(m.contains("line "), "{name}: {m}");
            }
            other => panic!("{name}: {:?}", other.map(|f| f.info().name)),
        }
    }
}

#[test]
fn a_run_without_deals_is_ambiguous() {
    // dealer's statistics lines alone (a run that produced no deal): any of its layouts.
    let all = peer("dealer-voids-s7.all");
    let text = std::str::from_utf8(&all).unwrap();
    let stats = &text[text.find("Generated ").unwrap()..];
    match detect(stats.as_bytes()) {
        Err(e) if matches!(e.kind(), FormatErrorKind::AmbiguousContent { .. }) => {
            let m = e.to_string();
            for name in ["dealer-all", "dealer-ew", "dealer-compact", "oneline"] {
                assert!(m.contains(name), "{m}");
            }
            assert!(m.starts_with("line 1: "), "{m}");
        }
        other => panic!("{:?}", other.map(|f| f.info().name)),
    }
    assert!(matches!(
        detect(b"\nTries: 0\n").map_err(FormatError::into_kind),
        Err(FormatErrorKind::AmbiguousContent { line: Some(2), .. })
    ));
    assert!(matches!(
        detect(b"").map_err(FormatError::into_kind),
        Err(FormatErrorKind::UnknownContent { .. })
    ));
}

/// Every peer fixture with the truth of its run (`None`: the deals are not all there).
fn fixtures_with_truth() -> Vec<(String, Option<Vec<Board>>)> {
    let mut out = Vec::new();
    let dir = fixture("peers");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".sh") || name.ends_with(".py") || name.ends_with(".md") {
            continue;
        }
        let truth_name = if let Some(run) = name.strip_prefix("dealer-") {
            Some(format!("dealer-{}.pbn", run.split('.').next().unwrap()))
        } else if let Some(run) = name.strip_prefix("redeal-") {
            let run = run.split('.').next().unwrap();
            let run = run
                .strip_suffix("-ascii")
                .or(run.strip_suffix("-nes"))
                .or(run.strip_suffix("-ns"))
                .unwrap_or(run);
            Some(format!("redeal-{run}.pbn"))
        } else if name.contains("s11") {
            Some("endplay-voids-s11.pbn".to_string())
        } else {
            Some("endplay-boards.pbn".to_string())
        };
        let partial = name.contains("-ns.") || name.ends_with(".ew");
        let boards = truth_name.and_then(|t| {
            let mut b = truth(&t).boards;
            if name == "endplay-plain.json" {
                b = b[4..8].to_vec();
            }
            (!partial).then_some(b)
        });
        out.push((name, boards));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 40, "{} fixtures", out.len());
    out
}

#[test]
fn no_reader_reads_a_peer_fixture_wrong() {
    // Any reader, asked to read any peer file: it refuses, or it gives the run's deals (or,
    // for files that show two hands, none).
    for (name, boards) in fixtures_with_truth() {
        let data = peer(&name);
        for f in formats::registry() {
            let Ok(read) = f.read_all(&data) else {
                continue;
            };
            if read.boards.is_empty() {
                continue;
            }
            let Some(truth) = &boards else {
                panic!(
                    "{name}: {} found deals in a file of two hands",
                    f.info().name
                );
            };
            let got: Vec<String> = read.boards.iter().map(|b| b.deal.to_string()).collect();
            let want: Vec<String> = truth.iter().map(|b| b.deal.to_string()).collect();
            assert_eq!(got, want, "{name} read as {}", f.info().name);
        }
    }
}

#[test]
fn every_peer_fixture_is_detected_or_refused_with_a_reason() {
    for (name, _) in fixtures_with_truth() {
        match detect(&peer(&name)) {
            Ok(f) => {
                let read = f.read_all(&peer(&name));
                assert!(
                    read.is_ok(),
                    "{name}: detected as {} but: {:?}",
                    f.info().name,
                    read
                );
            }
            Err(e) => assert!(
                name.starts_with("endplay-dealer-s7.")
                    && !name.ends_with(".deals")
                    && !name.ends_with(".oneline"),
                "{name}: {e}"
            ),
        }
    }
}

/// The CLI tells a peer's output from its content when the extension does not say (`.txt`,
/// none): `import` stores the run's deals, and a file that fits no format, or several, is
/// refused with exit 2 naming it.
#[test]
fn import_tells_peer_outputs_from_their_content() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("dealer-voids-s7.all", "a.txt"),
        ("dealer-long-s5.compact", "b"),
        ("redeal-s7.short", "c.txt"),
        ("endplay-dealer-s7.deals", "d.out"),
    ];
    for (fixture_name, copy) in cases {
        std::fs::copy(
            fixture(&format!("peers/{fixture_name}")),
            dir.path().join(copy),
        )
        .unwrap();
    }
    for (fixture_name, copy) in cases {
        let want = truth_for(fixture_name);
        let out = common::dealdex(dir.path())
            .args(["import", copy, "--json", "--db", "p.db"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{copy}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value =
            serde_json::from_slice(out.stdout.trim_ascii_end()).unwrap();
        let file = &report["files"][0];
        assert_eq!(
            file["boards"].as_u64(),
            Some(want as u64),
            "{copy}: {report}"
        );
        assert_eq!(file["format"], detected(fixture_name), "{copy}");
    }
    std::fs::write(
        dir.path().join("e.txt"),
        "Generated 0 hands\nProduced 0 hands\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("f"), "hello, world\n").unwrap();
    for bad in ["e.txt", "f"] {
        let out = common::dealdex(dir.path())
            .args(["import", bad, "--db", "p.db"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(bad) && err.contains("name its format"),
            "{bad}: {err}"
        );
    }
}

/// The number of boards with a complete deal in a peer fixture (its reader is checked against
/// the run's PBN above).
fn truth_for(name: &str) -> usize {
    read_all(formats::detect(&peer(name)).unwrap(), name)
        .boards
        .len()
}
