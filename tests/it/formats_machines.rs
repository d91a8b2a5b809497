//! The dealing-machine formats: Duplimate DUP (FORMATS.md §5), BRI and DGE (§6) and DLM (§7).
//! Published examples byte-exact (vectors.json), write→read identity, agreement between the
//! four formats, readers that never panic, and the documented errors.

use dealdex::InputPosition;
use dealdex::formats::{Board, Bri, DealFormat, Dge, Dlm, Dup, WriteOptions, write_set};
use dealdex::{DEALS, Deal, FormatError, Scheme};
use proptest::prelude::*;

use crate::common::{Refused, check_read_outcome, refused};

fn vectors() -> serde_json::Value {
    serde_json::from_str(include_str!("../fixtures/vectors.json")).unwrap()
}

fn deal(s: &str) -> Deal {
    s.parse().unwrap()
}

/// The published DUP/BRI example (FORMATS.md §5): BRI part and deal.
fn bri_example() -> (String, Deal) {
    let v = vectors();
    let e = &v["dup_bri_example"];
    (
        e["bri"].as_str().unwrap().to_string(),
        deal(e["deal"].as_str().unwrap()),
    )
}

/// The DGE part of a deal written by hand: N, E, S, W; 0x06 ♠, 0x03 ♥, 0x04 ♦, 0x05 ♣.
fn dge_of(d: &Deal) -> Vec<u8> {
    let text = d.to_string(); // "N:S.H.D.C S.H.D.C …"
    let mut out = Vec::new();
    for hand in text[2..].split(' ') {
        for (suit, holding) in hand.split('.').enumerate() {
            out.push([0x06, 0x03, 0x04, 0x05][suit]);
            out.extend_from_slice(holding.as_bytes());
        }
    }
    assert_eq!(out.len(), 68);
    out
}

/// The BRI part of a deal written by hand (FORMATS.md §5): N's, E's and S's 13 cards as
/// two-digit numbers ♠A = 01 … ♠2 = 13, ♥A = 14 … ♣2 = 52, ascending within each hand.
fn bri_of(d: &Deal) -> Vec<u8> {
    let text = d.to_string(); // "N:S.H.D.C S.H.D.C …"
    let mut out = Vec::new();
    for hand in text[2..].split(' ').take(3) {
        let mut numbers: Vec<usize> = hand
            .split('.')
            .enumerate()
            .flat_map(|(suit, holding)| {
                holding
                    .chars()
                    .map(move |r| suit * 13 + "AKQJT98765432".find(r).unwrap() + 1)
            })
            .collect();
        numbers.sort_unstable();
        assert_eq!(numbers.len(), 13);
        for n in numbers {
            out.extend_from_slice(format!("{n:02}").as_bytes());
        }
    }
    assert_eq!(out.len(), 78);
    out
}

/// The hand-built parts are what others write: the published BRI part (FORMATS.md §5, each
/// hand's numbers in any order) and Big Deal's DUP records of its own PBN's deals.
#[test]
fn hand_built_parts_are_the_published_and_big_deals() {
    fn hands(part: &[u8]) -> Vec<Vec<&[u8]>> {
        part.chunks(26)
            .map(|h| {
                let mut cards: Vec<&[u8]> = h.chunks(2).collect();
                cards.sort_unstable();
                cards
            })
            .collect()
    }
    let (bri, d) = bri_example();
    assert_eq!(hands(&bri_of(&d)), hands(bri.as_bytes()));
    for prefix in ["bd1-10", "bd11-20", "bd29-56"] {
        let fixture = |ext: &str| {
            std::fs::read(crate::common::fixture(&format!(
                "bigdeal-ranges/{prefix}.{ext}"
            )))
            .unwrap()
        };
        let pbn = dealdex::formats::Pbn.read(&fixture("pbn")).unwrap();
        let dup = fixture("dup");
        assert_eq!(dup.len(), 156 * pbn.len());
        for (rec, b) in dup.chunks(156).zip(&pbn) {
            assert_eq!(&rec[..78], bri_of(&b.deal).as_slice(), "{prefix}");
            assert_eq!(&rec[78..146], dge_of(&b.deal).as_slice(), "{prefix}");
        }
    }
}

fn boards(first: u64, deals: &[Deal]) -> Vec<Board> {
    deals
        .iter()
        .enumerate()
        .map(|(i, d)| Board::new(first + i as u64, *d))
        .collect()
}

fn opts(first: u64, last: u64) -> WriteOptions {
    WriteOptions {
        first_board: first,
        last_board: last,
        ..WriteOptions::default()
    }
}

fn deals_of(boards: &[Board]) -> Vec<Deal> {
    boards.iter().map(|b| b.deal).collect()
}

fn numbers_of(boards: &[Board]) -> Vec<Option<u64>> {
    boards.iter().map(|b| b.number).collect()
}

// ---------------------------------------------------------------------------------------------
// Published examples

#[test]
fn published_bri_part_decodes_in_bri_and_dup_files() {
    let (bri, d) = bri_example();
    // A BRI file record: the part, 32 spaces, 18 NULs.
    let mut rec = bri.clone().into_bytes();
    rec.extend_from_slice(&[b' '; 32]);
    rec.extend_from_slice(&[0; 18]);
    assert_eq!(rec.len(), 128);
    let read = Bri.read(&rec).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].deal, d);
    assert_eq!(read[0].number, None);
    assert_eq!(read[0].dealer, None);
    assert_eq!(read[0].vulnerability, None);

    // A DUP record with the published 32-board trailer (copies 1).
    let mut dup = bri.into_bytes();
    dup.extend_from_slice(&dge_of(&d));
    dup.extend_from_slice(b"YN1  1 32 ");
    assert_eq!(dup.len(), 156);
    let read = Dup.read(&dup).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].deal, d);
    assert_eq!(read[0].number, Some(1));
}

#[test]
fn published_trailer_parses_for_every_record() {
    let (bri, d) = bri_example();
    let mut file = Vec::new();
    for _ in 0..3 {
        file.extend_from_slice(bri.as_bytes());
        file.extend_from_slice(&dge_of(&d));
        file.extend_from_slice(b"YN1  1 32 ");
    }
    let read = Dup.read(&file).unwrap();
    assert_eq!(numbers_of(&read), [Some(1), Some(2), Some(3)]);
    // Lowest 17, right-aligned: still read.
    for r in 0..3 {
        file[r * 156 + 148..r * 156 + 151].copy_from_slice(b" 17");
    }
    assert_eq!(
        numbers_of(&Dup.read(&file).unwrap()),
        [Some(17), Some(18), Some(19)]
    );
    // No lowest board: no numbers.
    for r in 0..3 {
        file[r * 156 + 148..r * 156 + 151].copy_from_slice(b"   ");
    }
    assert_eq!(numbers_of(&Dup.read(&file).unwrap()), [None, None, None]);
}

/// The published example's BRI part with each hand's numbers sorted: what dealdex writes.
fn sorted_bri(bri: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for hand in bri.as_bytes().chunks(26) {
        let mut nums: Vec<&[u8]> = hand.chunks(2).collect();
        nums.sort();
        for n in nums {
            out.extend_from_slice(n);
        }
    }
    out
}

#[test]
fn dup_writer_is_byte_exact_for_a_32_board_set() {
    let (bri, d) = bri_example();
    let deals: Vec<Deal> = (1..=32u128)
        .map(|n| Deal::from_number(n * 1_000_003, Scheme::Pavlicek).unwrap())
        .chain(std::iter::once(d))
        .collect();
    // The example deal as board 32 of a 32-board set.
    let mut set = boards(1, &deals[..31]);
    set.push(Board::new(32, d));
    let out = write_set(&Dup, &set, &WriteOptions::default()).unwrap();
    assert_eq!(out.len(), 32 * 156);
    let last = &out[31 * 156..];
    assert_eq!(&last[..78], sorted_bri(&bri).as_slice());
    assert_eq!(&last[78..146], dge_of(&d).as_slice());
    // dealdex writes copies 0 like Big Deal; the published example has copies 1.
    assert_eq!(&last[146..], b"YN1  0 32 ");
    for r in 0..32 {
        assert_eq!(&out[r * 156 + 146..r * 156 + 156], b"YN1  0 32 ");
    }
    let back = Dup.read(&out).unwrap();
    assert_eq!(deals_of(&back), deals_of(&set));
    assert_eq!(numbers_of(&back), numbers_of(&set));
}

#[test]
fn dup_trailer_fields_are_left_aligned() {
    let d = bri_example().1;
    // Big Deal's trailer (output.c print_dup_common): start 1, copies 0, the number of boards
    // as two digits, whatever boards the set holds.
    let out = write_set(&Dup, &[Board::new(7, d), Board::new(8, d)], &opts(7, 8)).unwrap();
    assert_eq!(&out[146..156], b"YN1  0 02 ");
    let mut buf = Vec::new();
    Dup.write_boards(&[Board::new(10, d)], &opts(10, 99), &mut buf)
        .unwrap();
    assert_eq!(&buf[146..156], b"YN1  0 90 ");
    // Both trailers are read: Big Deal's from board 1 unless told, dealdex's earlier
    // `YN7  0 8  ` from its start.
    let told = dealdex::formats::ReadOptions {
        first_board: Some(7),
    };
    let numbers = |r: Vec<Board>| r.iter().map(|b| b.number).collect::<Vec<_>>();
    assert_eq!(numbers(Dup.read(&out).unwrap()), [Some(1), Some(2)]);
    assert_eq!(
        numbers(Dup.read_numbered(&out, &told).unwrap().boards),
        [Some(7), Some(8)]
    );
    let mut old = out.clone();
    for r in 0..2 {
        old[r * 156 + 146..r * 156 + 156].copy_from_slice(b"YN7  0 8  ");
    }
    assert_eq!(numbers(Dup.read(&old).unwrap()), [Some(7), Some(8)]);
}

#[test]
fn bri_and_dge_writers_are_byte_exact() {
    let (bri, d) = bri_example();
    let out = write_set(&Bri, &[Board::new(1, d)], &WriteOptions::default()).unwrap();
    let mut expected = sorted_bri(&bri);
    expected.extend_from_slice(&[b' '; 32]);
    expected.extend_from_slice(&[0; 18]);
    assert_eq!(out, expected);

    let out = write_set(&Dge, &[Board::new(1, d)], &WriteOptions::default()).unwrap();
    let mut expected = dge_of(&d);
    expected.extend_from_slice(&[0; 60]);
    assert_eq!(out, expected);
    assert_eq!(
        &out[..17],
        b"\x06J987\x03JT7643\x04A4\x05Q".as_slice(),
        "North as in FORMATS.md §5"
    );
    assert_eq!(Dge.read(&out).unwrap()[0].deal, d);
}

#[test]
fn dup_blind_blanks_the_dge_part_of_board_1_only() {
    let deals: Vec<Deal> = (1..=3u128)
        .map(|n| Deal::from_number(n * 77_777, Scheme::Pavlicek).unwrap())
        .collect();
    let o = WriteOptions {
        blind: true,
        ..WriteOptions::default()
    };
    let out = write_set(&Dup, &boards(1, &deals), &o).unwrap();
    assert_eq!(&out[78..146], &[b' '; 68][..]);
    assert_eq!(&out[156 + 78..156 + 146], dge_of(&deals[1]).as_slice());
    assert_eq!(&out[146..156], b"YN1  0 03 ");
    let back = Dup.read(&out).unwrap();
    assert_eq!(deals_of(&back), deals);
    assert_eq!(numbers_of(&back), [Some(1), Some(2), Some(3)]);
}

/// The DLM file dealdex writes for `deals` as boards `from..`, built from FORMATS.md §7 by
/// hand: a line per key, all 99 boards, the filler outside From..To.
fn expected_dlm(headline: &str, show: bool, from: u64, lines: &[&str]) -> String {
    let to = from + lines.len() as u64 - 1;
    let mut s = format!(
        "[Document]\nHeadline={headline}\nStatus={}\nDuplicates=0\nFrom board={from}\n\
         To board={to}\nNext board to duplimate=0\nPrintOuts=0\nCrypto key=0\nChecksum={}\n",
        if show { "Show" } else { "Sealed" },
        from ^ to ^ u64::from(show)
    );
    for n in 1..=99u64 {
        s.push_str(&format!("Duplicates {n:02}=0\n"));
        if (from..=to).contains(&n) {
            s.push_str(&format!("Board {n:02}={}\n", lines[(n - from) as usize]));
        } else {
            s.push_str(&format!(
                "Board {n:02}=aaaaaabffffffkkkkkklpppppp{:03}\n",
                n ^ 14
            ));
        }
    }
    s
}

#[test]
fn published_dlm_line_both_ways() {
    let v = vectors();
    let line = v["dlm_line_example"]["line"].as_str().unwrap();
    let d = deal(v["dlm_line_example"]["deal"].as_str().unwrap());
    let letters = line.strip_prefix("Board 01=").unwrap();

    // Write: the line appears byte-exact, in a file that is byte-exact as a whole.
    let out = write_set(&Dlm, &[Board::new(1, d)], &WriteOptions::default()).unwrap();
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(text.contains(&format!("\n{line}\n")));
    assert_eq!(
        text,
        expected_dlm("Generated by dealdex", true, 1, &[letters])
    );

    // Read: the line alone with its header.
    let read = Dlm.read(&out).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].deal, d);
    assert_eq!(read[0].number, Some(1));
}

#[test]
fn dlm_header_options_and_range() {
    let v = vectors();
    let line = v["dlm_line_example"]["line"].as_str().unwrap();
    let d = deal(v["dlm_line_example"]["deal"].as_str().unwrap());
    let letters = line.strip_prefix("Board 01=").unwrap();
    // The same deal as board 5 of 5..6: letters equal, checksum 5 ^ (23 ^ 1).
    let o = WriteOptions {
        event: "Club night".into(),
        blind: true,
        first_board: 5,
        last_board: 6,
        ..WriteOptions::default()
    };
    let out = write_set(&Dlm, &[Board::new(5, d), Board::new(6, d)], &o).unwrap();
    let l5 = format!("{}{:03}", &letters[..26], 5 ^ 23 ^ 1);
    let l6 = format!("{}{:03}", &letters[..26], 6 ^ 23 ^ 1);
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        expected_dlm("Club night", false, 5, &[&l5, &l6])
    );
    let back = Dlm.read(&out).unwrap();
    assert_eq!(numbers_of(&back), [Some(5), Some(6)]);
    assert_eq!(deals_of(&back), [d, d]);
}

#[test]
fn dlm_reader_takes_crlf_and_any_key_order() {
    let v = vectors();
    let line = v["dlm_line_example"]["line"].as_str().unwrap();
    let d = deal(v["dlm_line_example"]["deal"].as_str().unwrap());
    let text = format!(
        "\u{feff}; written by hand\r\n[Other]\r\nFrom board=7\r\n\r\n[Document]\r\n{line}\r\n\
         Checksum=1\r\nto board=1\r\nStatus=Show\r\nHeadline=x=y\r\nFrom board = 1\r\n\
         Board 02=aaaaaabffffffkkkkkklpppppp012\r\n"
    );
    let read = Dlm.read(text.as_bytes()).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].deal, d);
    assert_eq!(read[0].number, Some(1));
}

// ---------------------------------------------------------------------------------------------
// Errors

fn err(r: Result<Vec<Board>, FormatError>) -> Refused {
    refused(r.expect_err("expected an error"))
}

#[test]
fn truncated_dup_record() {
    let d = bri_example().1;
    let mut out = write_set(&Dup, &[Board::new(1, d), Board::new(2, d)], &opts(1, 2)).unwrap();
    out.truncate(256);
    let e = err(Dup.read(&out));
    assert_eq!(e.position, InputPosition::at_record(2, 156));
    assert_eq!(e.message, "truncated record: 100 of 156 bytes");
    assert_eq!(
        e.to_string(),
        "record 2 (byte 156): truncated record: 100 of 156 bytes"
    );
    let e = err(Bri.read(&[b' '; 130]));
    assert_eq!(e.position, InputPosition::at_record(2, 128));
    assert_eq!(e.message, "truncated record: 2 of 128 bytes");
    assert!(err(Dge.read(&[0; 5])).message.contains("5 of 128"));
}

#[test]
fn bri_card_errors_name_record_offset_and_expectation() {
    let (bri, _) = bri_example();
    let mut file = Vec::new();
    for _ in 0..2 {
        file.extend_from_slice(bri.as_bytes());
        file.extend_from_slice(&[b' '; 50]);
    }
    // Card 53 in record 2, East's third card (field 15, offset 30).
    let mut bad = file.clone();
    bad[128 + 30..128 + 32].copy_from_slice(b"53");
    let e = err(Bri.read(&bad));
    assert_eq!(e.position, InputPosition::at_record(2, 158));
    assert_eq!(
        e.message,
        "East's card 3 of 13: card 53 is not a card number (expected 01..52)"
    );
    // 00 too.
    bad[128 + 30..128 + 32].copy_from_slice(b"00");
    assert!(err(Bri.read(&bad)).message.contains("card 00 is not"));
    // A non-digit.
    let mut bad = file.clone();
    bad[5] = b'x';
    let e = err(Bri.read(&bad));
    assert_eq!(e.position, InputPosition::at_record(1, 4));
    assert!(e.message.contains("\"3x\" is not a card number"), "{e}");
    // A card given twice: South's first card repeats North's first (18 = ♥T).
    let mut bad = file.clone();
    bad[52..54].copy_from_slice(b"18");
    let e = err(Bri.read(&bad));
    assert_eq!(e.position, InputPosition::at_record(1, 52));
    assert_eq!(
        e.message,
        "South's card 1 of 13: card 18 (HT) is given twice (expected 39 different cards)"
    );
    // The same in a DUP record.
    let mut dup = bad[..78].to_vec();
    dup.extend_from_slice(&[b' '; 68]);
    dup.extend_from_slice(b"YN1  0 1  ");
    let e = err(Dup.read(&dup));
    assert_eq!(e.position, InputPosition::at_record(1, 52));
}

#[test]
fn dge_errors() {
    let d = bri_example().1;
    let good = write_set(&Dge, &[Board::new(1, d)], &WriteOptions::default()).unwrap();
    // A lowercase rank.
    let mut bad = good.clone();
    bad[1] = b'j';
    let e = err(Dge.read(&bad));
    assert_eq!(e.position, InputPosition::at_record(1, 1));
    assert!(e.message.contains("found 'j' (0x6A)"), "{e}");
    // `10` for the ten.
    let mut bad = good.clone();
    bad[7..9].copy_from_slice(b"10"); // North's hearts "JT7643": T at 7
    assert!(Dge.read(&bad).is_err());
    // A card given twice: North's ♠J written twice instead of ♠9.
    let mut bad = good.clone();
    bad[2] = b'J';
    let e = err(Dge.read(&bad));
    assert_eq!(e.position, InputPosition::at_record(1, 2));
    assert!(e.message.contains("SJ is given twice"), "{e}");
    // A symbol missing.
    let mut bad = good.clone();
    bad[0] = b'A';
    let e = err(Dge.read(&bad));
    assert_eq!(e.position, InputPosition::at_record(1, 0));
    assert!(e.message.contains("expected 0x06"), "{e}");
}

#[test]
fn dup_dge_part_must_match_the_bri_part() {
    let deals: Vec<Deal> = (1..=2u128)
        .map(|n| Deal::from_number(n * 12_345, Scheme::Pavlicek).unwrap())
        .collect();
    let mut out = write_set(&Dup, &boards(1, &deals), &opts(1, 2)).unwrap();
    let other = dge_of(&deals[0]);
    out[156 + 78..156 + 146].copy_from_slice(&other);
    let e = err(Dup.read(&out));
    assert_eq!(e.position, InputPosition::at_record(2, 156 + 78));
    assert!(e.message.starts_with("the DGE part shows N:"), "{e}");
    assert!(
        e.message
            .ends_with("(expected the same deal, or 68 spaces)"),
        "{e}"
    );
    // A broken DGE part is an error too, at its byte.
    out[156 + 78..156 + 146].copy_from_slice(&dge_of(&deals[1]));
    out[156 + 80] = b'X';
    assert_eq!(
        err(Dup.read(&out)).position,
        InputPosition::at_record(2, 236)
    );
}

#[test]
fn dlm_wrong_checksum() {
    let v = vectors();
    let line = v["dlm_line_example"]["line"].as_str().unwrap();
    let d = deal(v["dlm_line_example"]["deal"].as_str().unwrap());
    let out = write_set(&Dlm, &[Board::new(1, d)], &WriteOptions::default()).unwrap();
    let text = String::from_utf8(out).unwrap();
    let bad = text.replace(line, "Board 01=jlifaelnecgmoldfjmcflinlap024");
    let e = err(Dlm.read(bad.as_bytes()));
    assert_eq!(e.position, InputPosition::at_line(12));
    assert_eq!(e.message, "checksum 024 does not match (expected 023)");
    assert_eq!(
        e.to_string(),
        "line 12: checksum 024 does not match (expected 023)"
    );
    // A board outside From..To is checked too.
    let bad = text.replace(
        "Board 50=aaaaaabffffffkkkkkklpppppp060",
        "Board 50=aaaaaabffffffkkkkkklpppppp061",
    );
    assert_ne!(bad, text);
    assert_eq!(
        err(Dlm.read(bad.as_bytes())).position,
        InputPosition::at_line(110)
    );
    // The header checksum.
    let bad = text.replace("Checksum=1\n", "Checksum=0\n");
    let e = err(Dlm.read(bad.as_bytes()));
    assert_eq!(e.position, InputPosition::at_line(10));
    assert!(
        e.message.contains("header checksum 0 does not match"),
        "{e}"
    );
}

#[test]
fn dlm_bad_letters_and_deals() {
    let v = vectors();
    let line = v["dlm_line_example"]["line"].as_str().unwrap();
    let d = deal(v["dlm_line_example"]["deal"].as_str().unwrap());
    let text =
        String::from_utf8(write_set(&Dlm, &[Board::new(1, d)], &WriteOptions::default()).unwrap())
            .unwrap();
    // 'q' at letter 3 (column 12 of the line).
    let bad = text.replace(line, "Board 01=jlqfaelnecgmoldfjmcflinlap023");
    let e = err(Dlm.read(bad.as_bytes()));
    assert_eq!(e.position, InputPosition::at_line_column(12, 12));
    assert!(e.message.contains("found 'q'"), "{e}");
    // Too short.
    let bad = text.replace(line, "Board 01=jlifaelnecgmoldfjmcflinl023");
    assert!(matches!(
        err(Dlm.read(bad.as_bytes())).position,
        InputPosition {
            line: Some(12),
            column: Some(_),
            ..
        }
    ));
    // Not 13/13/13/13: first letter 'a' (N, N) instead of 'j' (S, W), checksum fixed up.
    let sum = 23 ^ u32::from(b'j') ^ u32::from(b'a');
    let bad = text.replace(
        line,
        &format!("Board 01=alifaelnecgmoldfjmcflinlap{sum:03}"),
    );
    let e = err(Dlm.read(bad.as_bytes()));
    assert_eq!(e.position, InputPosition::at_line(12));
    assert!(e.message.contains("cards"), "{e}");
    // No [Document].
    assert_eq!(
        err(Dlm.read(b"Board 01=x")).position,
        InputPosition::at_line(1)
    );
    // Missing board line within From..To.
    let bad = text.replace(&format!("{line}\n"), "");
    assert!(err(Dlm.read(bad.as_bytes())).message.contains("Board 01"));
}

#[test]
fn board_100_is_refused_on_write_and_nothing_is_appended() {
    let d = bri_example().1;
    for format in [&Dup as &dyn DealFormat, &Dlm] {
        let set = [Board::new(99, d), Board::new(100, d)];
        assert!(write_set(format, &set, &WriteOptions::default()).is_err());
        let mut out = b"keep".to_vec();
        let e = refused(
            format
                .write_boards(&set, &opts(99, 100), &mut out)
                .unwrap_err(),
        );
        assert!(e.message.contains("board 100 does not fit"), "{e}");
        assert_eq!(out, b"keep");
        let mut out = Vec::new();
        let e = refused(
            format
                .write_boards(&[Board::new(100, d)], &opts(1, 99), &mut out)
                .unwrap_err(),
        );
        assert!(e.message.contains("100"), "{e}");
        assert!(out.is_empty());
        assert!(
            format
                .write_boards(&[Board::new(0, d)], &opts(1, 1), &mut out)
                .is_err()
        );
        assert!(out.is_empty());
    }
}

#[test]
fn dlm_writer_refuses_gaps_and_duplicates() {
    let d = bri_example().1;
    let mut out = Vec::new();
    assert!(
        refused(
            Dlm.write_boards(&[Board::new(1, d), Board::new(3, d)], &opts(1, 3), &mut out)
                .unwrap_err()
        )
        .message
        .contains("board 2 is missing")
    );
    assert!(
        refused(
            Dlm.write_boards(&[Board::new(1, d), Board::new(1, d)], &opts(1, 1), &mut out)
                .unwrap_err()
        )
        .message
        .contains("twice")
    );
    assert!(
        Dlm.write_boards(&[Board::new(4, d)], &opts(1, 3), &mut out)
            .is_err()
    );
    assert!(out.is_empty());
}

#[test]
fn empty_binary_files_have_no_boards() {
    for format in [&Dup as &dyn DealFormat, &Bri, &Dge] {
        assert_eq!(format.read(b"").unwrap(), []);
    }
}

// ---------------------------------------------------------------------------------------------
// Properties

/// A board range within 1..99 and a random deal for each board.
fn board_set() -> impl Strategy<Value = (u64, Vec<Deal>)> {
    (1u64..=99).prop_flat_map(|first| {
        (
            Just(first),
            prop::collection::vec(1..=DEALS, 1..=(100 - first) as usize).prop_map(|ns| {
                ns.into_iter()
                    .map(|n| Deal::from_number(n, Scheme::Pavlicek).unwrap())
                    .collect::<Vec<_>>()
            }),
        )
    })
}

fn machine_formats() -> [&'static dyn DealFormat; 4] {
    [&Dup, &Bri, &Dge, &Dlm]
}

/// The record size of the fixed-size formats (DUP 156, BRI and DGE 128 bytes), else `None`.
fn record_len(format: &dyn DealFormat) -> Option<usize> {
    match format.info().name {
        "dup" => Some(156),
        "bri" | "dge" => Some(128),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn write_read_identity((first, deals) in board_set(), blind: bool) {
        let set = boards(first, &deals);
        let o = WriteOptions { blind, ..WriteOptions::default() };
        let last = first + deals.len() as u64 - 1;
        for format in machine_formats() {
            let name = format.info().name;
            let out = write_set(format, &set, &o).unwrap();
            // DUP's trailer holds the count, not the first board: the reader is told it.
            let told = dealdex::formats::ReadOptions { first_board: Some(first) };
            let back = format.read_numbered(&out, &told).unwrap().boards;
            prop_assert_eq!(deals_of(&back), deals.clone(), "{}", name);
            let expected: Vec<Option<u64>> = (first..=last).map(Some).collect();
            prop_assert_eq!(numbers_of(&back), expected, "{}", name);
            match name {
                "bri" | "dge" => prop_assert_eq!(out.len(), 128 * deals.len()),
                "dup" => prop_assert_eq!(out.len(), 156 * deals.len()),
                _ => prop_assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 10 + 2 * 99),
            }
        }
    }

    #[test]
    fn the_four_formats_agree((first, deals) in board_set()) {
        let set = boards(first, &deals);
        let read: Vec<Vec<Deal>> = machine_formats()
            .iter()
            .map(|f| deals_of(&f.read(&write_set(*f, &set, &WriteOptions::default()).unwrap()).unwrap()))
            .collect();
        for r in &read[1..] {
            prop_assert_eq!(r, &read[0]);
        }
        // And byte for byte as FORMATS.md §5 and §6 lay them out, each record built here from
        // the deal string (bri_of, dge_of), not from another dealdex writer.
        let dup = write_set(&Dup, &set, &WriteOptions::default()).unwrap();
        let bri = write_set(&Bri, &set, &WriteOptions::default()).unwrap();
        let dge = write_set(&Dge, &set, &WriteOptions::default()).unwrap();
        prop_assert_eq!(dup.len(), 156 * deals.len());
        prop_assert_eq!(bri.len(), 128 * deals.len());
        prop_assert_eq!(dge.len(), 128 * deals.len());
        // Big Deal's trailer (its .dup files, e.g. bd2-9.dup `YN1  0 08 `): random hands,
        // not backwards, "lowest" 1, copies 0, the count of boards as two digits.
        let trailer = format!("YN1  0 {:02} ", deals.len());
        for (i, d) in deals.iter().enumerate() {
            let bri_part = bri_of(d);
            let dge_part = dge_of(d);
            let rec = &dup[i * 156..(i + 1) * 156];
            prop_assert_eq!(&rec[..78], bri_part.as_slice(), "board {}", i);
            prop_assert_eq!(&rec[78..146], dge_part.as_slice(), "board {}", i);
            prop_assert_eq!(&rec[146..], trailer.as_bytes());
            let rec = &bri[i * 128..(i + 1) * 128];
            prop_assert_eq!(&rec[..78], bri_part.as_slice());
            prop_assert_eq!(&rec[78..110], &[b' '; 32][..]);
            prop_assert_eq!(&rec[110..], &[0u8; 18][..]);
            let rec = &dge[i * 128..(i + 1) * 128];
            prop_assert_eq!(&rec[..68], dge_part.as_slice());
            prop_assert_eq!(&rec[68..], &[0u8; 60][..]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn readers_never_panic_on_arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..700)) {
        for format in machine_formats() {
            let checked = check_read_outcome(format, &data);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
            // The fixed-size formats: a file that is not whole records is truncated, at the
            // first byte of the incomplete record (§5, §6).
            if let Some(len) = record_len(format) {
                let whole = data.len() / len;
                match format.read(&data) {
                    Ok(b) => {
                        prop_assert_eq!(data.len() % len, 0);
                        prop_assert_eq!(b.len(), whole);
                    }
                    Err(e) if data.len() % len != 0 => {
                        let e = refused(e);
                        prop_assert_eq!(e.kind, "truncated");
                        prop_assert_eq!(e.position, InputPosition::at_record(whole + 1, (whole * len) as u64));
                    }
                    Err(e) => prop_assert_ne!(refused(e).kind, "truncated"),
                }
            }
        }
    }

    #[test]
    fn readers_never_panic_on_arbitrary_dlm_like_text(
        lines in prop::collection::vec("[\\[\\]A-Za-z =0-9a-p\r]{0,40}", 0..40)
    ) {
        let mut text = String::from("[Document]\n");
        for l in lines {
            text.push_str(&l);
            text.push('\n');
        }
        let checked = check_read_outcome(&Dlm, text.as_bytes());
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        // Nothing but `[Document]` and such lines is never a whole DLM file: the checksum
        // line and the 99 board lines cannot all be there.
        if let Err(e) = Dlm.read(text.as_bytes()) {
            let e = refused(e);
            prop_assert!(e.position.record.is_none() && e.position.byte.is_none(), "{:?}", e);
        }
    }

    #[test]
    fn readers_never_panic_on_damaged_files(
        n in 1..=DEALS,
        count in 1usize..6,
        cut in any::<prop::sample::Index>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..4),
    ) {
        let deals: Vec<Deal> = (0..count as u128)
            .map(|j| Deal::from_number((n - 1 + j) % DEALS + 1, Scheme::Pavlicek).unwrap())
            .collect();
        let set = boards(1, &deals);
        for format in machine_formats() {
            let good = write_set(format, &set, &WriteOptions::default()).unwrap();
            let at = cut.index(good.len() + 1);
            let truncated = &good[..at];
            let checked = check_read_outcome(format, truncated);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
            match (record_len(format), format.read(truncated)) {
                // Whole records: the boards before the cut, exactly.
                (Some(len), Ok(b)) => {
                    prop_assert_eq!(at % len, 0);
                    prop_assert_eq!(deals_of(&b), deals[..at / len].to_vec());
                }
                // Else the record the cut falls in is named, as truncated.
                (Some(len), Err(e)) => {
                    prop_assert_ne!(at % len, 0);
                    let e = refused(e);
                    prop_assert_eq!(e.kind, "truncated");
                    prop_assert_eq!(e.position, InputPosition::at_record(at / len + 1, (at / len * len) as u64));
                }
                // DLM: the boards From..To must all be there, so a file cut short either
                // still holds every one of them whole (the cut falls after them) or is refused.
                (None, Ok(b)) => prop_assert_eq!(deals_of(&b), deals.clone(), "cut at {}", at),
                (None, Err(e)) => prop_assert!(at < good.len(), "{}", e),
            }
            let mut flipped = good.clone();
            for (at, x) in &flips {
                let i = at.index(flipped.len());
                flipped[i] ^= x;
            }
            let checked = check_read_outcome(format, &flipped);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
            match format.read(&flipped) {
                Ok(b) => prop_assert!(b.len() <= count.max(99)),
                // A flipped byte never makes the file truncated, nor points past its end.
                Err(e) => {
                    let e = refused(e);
                    prop_assert_ne!(e.kind, "truncated", "{}", e);
                }
            }
        }
    }
}
