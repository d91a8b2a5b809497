//! The solved-deal libraries (issue 39 item 3): GIB's `library.dat` (`gib-library`) and
//! Pavlicek's RP `.zrd` (`rp-library`). Their public samples read as their own tools print
//! them and write back byte for byte; hand-made byte vectors follow the published layouts;
//! random deals and tables round-trip; the samples' tables agree with dealdex's solver; and
//! `import` stores the tables with the deals. Fixtures and their origin:
//! `tests/fixtures/libraries/README.md`.

use dealdex::dd::{self, DD_STRAINS, TrickTable};
use dealdex::formats::stream::read_stream_in_pieces;
use dealdex::formats::{
    self, Board, DealFormat, FileBoards, GibLibrary, ReadOptions, RpLibrary, WriteOptions,
    write_set,
};
use dealdex::{DEALS, Deal, InputPosition, Scheme, Seat};
use proptest::prelude::*;

use crate::common::{fixture, full_tests, refused};

fn library(name: &str) -> Vec<u8> {
    std::fs::read(fixture(&format!("libraries/{name}"))).unwrap()
}

fn deal(s: &str) -> Deal {
    s.parse().unwrap()
}

/// A table from rows by declarer N, E, S, W, each in dealer's print order C, D, H, S, NT.
fn table_cdhsn(rows: [[u8; 5]; 4]) -> TrickTable {
    TrickTable::new(rows.map(|[c, d, h, s, nt]| [nt, s, h, d, c])).unwrap()
}

/// suokko's dealer prints deals 0, 1 and 99 of its `library.dat` so
/// (`Examples/Refer.test_library`: `-l0`, `-l1`, `-l99`, `printcompact` and
/// `tricks(seat, strain)` for each seat and strain).
#[test]
fn gib_sample_reads_as_dealer_prints_it() {
    let boards = GibLibrary.read(&library("library.dat")).unwrap();
    assert_eq!(boards.len(), 100);
    assert!(boards.iter().all(|b| b.dd.is_some() && b.number.is_none()));
    let printed = [
        (
            0,
            "N:T94.J3.76.AKQJ53 762.K6.KQJT82.72 KQJ5.AQT72.A53.6 A83.9854.94.T984",
            [[12, 7, 11, 11, 11], [1, 6, 2, 1, 1]],
        ),
        (
            1,
            "N:96432.6.KQ74.J43 K.A8743.J852.KQ6 Q85.KQJT952.6.A7 AJT7..AT93.T9852",
            [[4, 3, 7, 5, 4], [9, 10, 6, 7, 6]],
        ),
        (
            99,
            "N:J64.AK754.A3.AQ7 Q82.963.Q8742.43 AK753.QT8.J65.KJ T9.J2.KT9.T98652",
            [[8, 8, 11, 11, 11], [4, 5, 1, 1, 1]],
        ),
    ];
    for (i, d, [ns, ew]) in printed {
        assert_eq!(boards[i].deal, deal(d), "deal {i}");
        // dealer prints North and South alike, East and West alike, for these deals (so its
        // reading of the strain words one seat off, see crates/formats/src/gib_library.rs, does not
        // show here).
        assert_eq!(
            boards[i].dd,
            Some(table_cdhsn([ns, ew, ns, ew])),
            "deal {i}"
        );
    }
}

#[test]
fn gib_sample_writes_back_byte_for_byte() {
    let data = library("library.dat");
    let boards = GibLibrary.read(&data).unwrap();
    assert_eq!(
        write_set(&GibLibrary, &boards, &WriteOptions::default()).unwrap(),
        data
    );
}

/// Show_RP_DB's README shows the library's first record and what `show_rpdd` prints for it
/// (tricks by seat N, E, S, W, each C, D, H, S, NT).
#[test]
fn rp_sample_reads_as_show_rpdd_prints_it_and_writes_back() {
    let data = library("rpdd_10First.zrd");
    let read = RpLibrary.read_all(&data).unwrap();
    assert_eq!((read.boards.len(), read.skipped.len()), (10, 0));
    assert!(read.boards.iter().all(|b| b.dd.is_some()));
    let first = &read.boards[0];
    assert_eq!(
        first.deal,
        deal("N:J873.J42.Q65.KT2 AT652.A976.AJ82. Q4.85.KT9.A87643 K9.KQT3.743.QJ95")
    );
    assert_eq!(
        first.dd,
        Some(table_cdhsn([
            [6, 3, 2, 4, 4],
            [7, 9, 10, 9, 9],
            [6, 3, 2, 4, 4],
            [7, 9, 11, 9, 9]
        ]))
    );
    let written = write_set(&RpLibrary, &read.boards, &WriteOptions::default()).unwrap();
    assert_eq!(written, data);
}

/// Each hand a suit (North ♠, East ♥, South ♦, West ♣) and a table of distinct rows, by hand
/// from the published layouts (GIB: suokko's dealer; RP: rpbridge.net `rsd.txt`).
fn vector_board() -> Board {
    let d = deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432");
    // Rows N, E, S, W; strains NT ♠ ♥ ♦ ♣.
    let t = TrickTable::new([
        [1, 2, 3, 4, 5],
        [6, 7, 8, 9, 10],
        [11, 12, 13, 0, 1],
        [2, 3, 4, 5, 6],
    ])
    .unwrap();
    Board {
        dd: Some(t),
        ..Board::unnumbered(d)
    }
}

#[test]
fn gib_record_by_hand() {
    let want: [u8; 26] = [
        0x03, 0xFF, 0xFF, 0xFF, // ♣: all West (3), 13 × 2 bits
        0x02, 0xAA, 0xAA, 0xAA, // ♦: all South (2)
        0x01, 0x55, 0x55, 0x55, // ♥: all East (1)
        0x00, 0x00, 0x00, 0x00, // ♠: all North (0)
        // East–West's tricks (N, S declaring: 13 − theirs), nibbles from the most
        // significant by leader W, S, E, N: declarer S, E, N, W.
        0x26, 0xC2, // NT: 13−11, 6, 13−1, 2
        0xCA, 0x86, // ♣: 13−1, 10, 13−5, 6
        0xD9, 0x95, // ♦: 13−0, 9, 13−4, 5
        0x08, 0xA4, // ♥: 13−13, 8, 13−3, 4
        0x17, 0xB3, // ♠: 13−12, 7, 13−2, 3
    ];
    let b = vector_board();
    let out = write_set(
        &GibLibrary,
        std::slice::from_ref(&b),
        &WriteOptions::default(),
    )
    .unwrap();
    assert_eq!(out, want);
    assert_eq!(GibLibrary.read(&want).unwrap(), vec![b]);
}

#[test]
fn rp_record_by_hand() {
    let want: [u8; 23] = [
        0x55, 0x55, 0x55, // ♠A..♠3: North (01), first card in the low bits
        0xA9, // ♠2 North, ♥A ♥K ♥Q East (10)
        0xAA, 0xAA, // ♥J..♥4
        0xFA, // ♥3 ♥2 East, ♦A ♦K South (11)
        0xFF, 0xFF, // ♦Q..♦5
        0x3F, // ♦4 ♦3 ♦2 South, ♣A West (00)
        0x00, 0x00, 0x00, // ♣K..♣2 West
        // Tricks, W N in the first byte (low nibble first), E S in the second.
        0x12, 0xB6, // NT: W 2, N 1; E 6, S 11
        0x23, 0xC7, // ♠: W 3, N 2; E 7, S 12
        0x34, 0xD8, // ♥: W 4, N 3; E 8, S 13
        0x45, 0x09, // ♦: W 5, N 4; E 9, S 0
        0x56, 0x1A, // ♣: W 6, N 5; E 10, S 1
    ];
    let b = vector_board();
    let out = write_set(
        &RpLibrary,
        std::slice::from_ref(&b),
        &WriteOptions::default(),
    )
    .unwrap();
    assert_eq!(out, want);
    assert_eq!(RpLibrary.read(&want).unwrap(), vec![b]);
}

#[test]
fn extensions_select_the_libraries() {
    for (path, name) in [("a.dat", "gib-library"), ("A.ZRD", "rp-library")] {
        let f = formats::by_path(path.as_ref()).unwrap();
        assert_eq!(f.info().name, name);
        assert!(f.info().streaming && !f.info().board_numbers);
    }
    // KOPS keeps `.rzd`.
    assert_eq!(
        formats::by_path("a.rzd".as_ref()).unwrap().info().name,
        "kops"
    );
}

#[test]
fn writing_a_board_without_a_table_names_it() {
    let mut boards = vec![vector_board(); 3];
    boards[1].dd = None;
    for f in [&GibLibrary as &dyn DealFormat, &RpLibrary] {
        let opts = WriteOptions {
            first_board: 7,
            ..WriteOptions::default()
        };
        let e = refused(write_set(f, &boards, &opts).unwrap_err());
        assert_eq!(e.kind, "unwritable");
        assert!(
            e.to_string()
                .starts_with("board 8 has no double-dummy table"),
            "{e}"
        );
    }
}

#[test]
fn bad_records_are_refused_at_their_record_and_byte() {
    let data = library("library.dat");
    let name = |f: &dyn DealFormat, d: &[u8]| refused(f.read(d).unwrap_err());
    // A truncated last record.
    let e = name(&GibLibrary, &data[..26 * 3 + 5]);
    assert_eq!(e.position, InputPosition::at_record(4, 78));
    assert_eq!(e.kind, "truncated");
    // A trick count of 14 in record 2's ♠ word (its last nibble: leader N, declarer W).
    let mut bad = data.clone();
    bad[26 + 25] = (bad[26 + 25] & 0xF0) | 14;
    let e = name(&GibLibrary, &bad);
    assert_eq!(e.position, InputPosition::at_record(2, 26 + 25));
    // A card moved from one hand to another: not a deal.
    let mut bad = data.clone();
    bad[3] ^= 1;
    assert_eq!(name(&GibLibrary, &bad).kind, "not-a-deal");
    // RP: a count of 15 (the ♣ row's South nibble of record 3).
    let rp = library("rpdd_10First.zrd");
    let mut bad = rp.clone();
    bad[2 * 23 + 22] |= 0xF0;
    let e = name(&RpLibrary, &bad);
    assert_eq!(e.position, InputPosition::at_record(3, 2 * 23 + 22));
    assert!(e.message.contains("15 tricks for S"), "{e}");
}

/// DealerV2's title records (first 28 bits zero) hold no deal: skipped and reported.
#[test]
fn rp_title_records_are_skipped() {
    let rp = library("rpdd_10First.zrd");
    let mut title = [0u8; 23];
    title[3] = 0x10; // sequence number 1 in the high nibble
    title[4..9].copy_from_slice(b"Title");
    let data = [&rp[..23], &title[..], &rp[23..]].concat();
    let read = RpLibrary.read_all(&data).unwrap();
    assert_eq!(read.boards.len(), 10);
    assert_eq!(read.skipped.len(), 1);
    assert_eq!(read.skipped[0].record, 2);
}

/// Read in pieces of any size (as `import` reads a large file), a library gives what it gives
/// read whole.
#[test]
fn pieces_read_as_the_whole_file() {
    for (f, name) in [
        (&GibLibrary as &dyn DealFormat, "library.dat"),
        (&RpLibrary, "rpdd_10First.zrd"),
    ] {
        let data = library(name);
        let whole = f.read_numbered(&data, &ReadOptions::default()).unwrap();
        for piece in [1, 7, 25, 26, 27, 100, 1000] {
            let mut all = FileBoards::default();
            read_stream_in_pieces::<()>(
                f,
                &mut &data[..],
                &ReadOptions::default(),
                piece,
                &mut |p| {
                    all.boards.extend(p.boards);
                    all.skipped.extend(p.skipped);
                    all.warnings.extend(p.warnings);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(all, whole, "{name} in pieces of {piece}");
        }
    }
}

/// The rows of `board`'s table that the solver gives otherwise, as `deal i: declarer: file
/// [..] solver [..]` (strains NT ♠ ♥ ♦ ♣).
fn disagreements(what: &str, boards: &[(usize, &Board)]) -> Vec<String> {
    let deals: Vec<Deal> = boards.iter().map(|(_, b)| b.deal).collect();
    let solved = dd::solve_all(&deals);
    let mut out = Vec::new();
    for ((i, b), s) in boards.iter().zip(&solved) {
        let file = b.dd.unwrap().rows();
        for seat in Seat::ALL {
            let (f, s) = (file[seat as usize], s.rows()[seat as usize]);
            if f != s {
                out.push(format!(
                    "{what} deal {i} ({}): {seat} declaring {DD_STRAINS:?}: file {f:?}, solver {s:?}",
                    b.deal
                ));
            }
        }
    }
    out
}

/// The samples' tables agree with dealdex's solver (pons-dds): every 10th GIB deal and 5 RP
/// deals by default, all 110 with `DEALDEX_FULL_TESTS=1`. A row that disagrees is listed.
#[test]
fn sample_tables_agree_with_the_solver() {
    let step = if full_tests() { 1 } else { 10 };
    let gib = GibLibrary.read(&library("library.dat")).unwrap();
    let rp = RpLibrary.read(&library("rpdd_10First.zrd")).unwrap();
    let mut wrong = disagreements(
        "library.dat",
        &gib.iter().enumerate().step_by(step).collect::<Vec<_>>(),
    );
    wrong.extend(disagreements(
        "rpdd_10First.zrd",
        &rp.iter()
            .enumerate()
            .step_by(step.min(2))
            .collect::<Vec<_>>(),
    ));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `dealdex import` stores the library's tables with its deals, read from the file (no
/// solving): every deal has its table, from the file, as the file gives it.
#[test]
fn import_stores_the_librarys_tables() {
    use dealdex::{DdSource, DealIndex, Store};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("lib.db");
    for name in ["library.dat", "rpdd_10First.zrd"] {
        let path = fixture(&format!("libraries/{name}"));
        let out = crate::common::dealdex(dir.path())
            .args([
                "import".as_ref(),
                path.as_os_str(),
                "--db".as_ref(),
                db.as_os_str(),
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", crate::common::stderr(&out));
    }
    let store = Store::open(&db).unwrap();
    assert_eq!(store.dd_count().unwrap(), 110);
    assert!(store.unsolved_keys(None, None, 10).unwrap().is_empty());
    for (f, name) in [
        (&GibLibrary as &dyn DealFormat, "library.dat"),
        (&RpLibrary, "rpdd_10First.zrd"),
    ] {
        for b in f.read(&library(name)).unwrap() {
            let key = DealIndex::from_deal(&b.deal);
            assert_eq!(store.dd_table(&key).unwrap(), b.dd);
            match store.dd_source(&key).unwrap() {
                Some(DdSource::File { format, .. }) => assert_eq!(format, f.info().name),
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}

fn table_strategy() -> impl Strategy<Value = TrickTable> {
    prop::array::uniform4(prop::array::uniform5(0u8..=13))
        .prop_map(|rows| TrickTable::new(rows).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_deals_and_tables_round_trip(
        boards in prop::collection::vec((1u128..=DEALS, table_strategy()), 1..20),
    ) {
        let boards: Vec<Board> = boards
            .into_iter()
            .map(|(n, t)| Board {
                dd: Some(t),
                ..Board::unnumbered(Deal::from_number(n, Scheme::Pavlicek).unwrap())
            })
            .collect();
        for f in [&GibLibrary as &dyn DealFormat, &RpLibrary] {
            let out = write_set(f, &boards, &WriteOptions::default()).unwrap();
            prop_assert_eq!(out.len(), boards.len() * if f.info().name == "gib-library" { 26 } else { 23 });
            let back = f.read(&out).unwrap();
            prop_assert_eq!(&back, &boards, "{}", f.info().name);
        }
    }
}

/// `import --verify-tables` solves the tables a library gives before storing them: in the RP
/// sample with one trick count of its third record changed, that table is reported (board
/// number and cell) and not stored, its deal is stored without it, and the nine others are stored.
#[test]
fn import_verify_tables_refuses_a_wrong_row() {
    use dealdex::{DealIndex, Store};
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = library("rpdd_10First.zrd");
    let good = RpLibrary.read(&bytes).unwrap();
    // Record 3's first trick byte (23 bytes a record, 13 of owners first): the high nibble
    // is one count; 13 minus it differs from it for every count.
    let at = 2 * 23 + 13;
    let high = bytes[at] >> 4;
    bytes[at] = ((13 - high) << 4) | (bytes[at] & 0x0f);
    let bad = RpLibrary.read(&bytes).unwrap();
    assert_ne!(bad[2].dd, good[2].dd);
    std::fs::write(dir.path().join("bad.zrd"), &bytes).unwrap();
    let (r, lines) = crate::common::json_report(
        dir.path(),
        &[
            "import",
            "bad.zrd",
            "--verify-tables",
            "--db",
            "lib.db",
            "--json",
        ],
    );
    let file = &r["files"][0];
    assert_eq!(
        (
            file["new_deals"].as_u64(),
            file["dd_tables"].as_u64(),
            file["dd_refused"].as_u64()
        ),
        (Some(10), Some(9), Some(1)),
        "{r} {lines:?}"
    );
    let warnings = file["warnings"].to_string();
    assert!(
        warnings.contains("board 3: its double-dummy table differs from the solver's (N in NT: 3 given, 10 solved)"),
        "{warnings}"
    );
    let store = Store::open(&dir.path().join("lib.db")).unwrap();
    assert_eq!(store.dd_count().unwrap(), 9);
    assert_eq!(
        store
            .dd_table(&DealIndex::from_deal(&good[2].deal))
            .unwrap(),
        None
    );
    assert_eq!(
        store
            .dd_table(&DealIndex::from_deal(&good[3].deal))
            .unwrap(),
        good[3].dd
    );
}
