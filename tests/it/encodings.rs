//! The card encodings of `dealdex::encoding` against the values printed in the seed
//! documents (000, 001, 003, 004) and the Unicode character database: all 52 cards in both
//! directions, and every value that is not one of the 52 rejected.

use std::collections::HashMap;

use dealdex::encoding::{
    self, Encoding, card_byte, card_from_card_byte, card_from_hsdc_number,
    card_from_seat_array_slot, card_from_standard_card, card_from_symbol_text, card_from_unicode,
    card_from_unicode_char, hsdc_number, seat_array_slot, standard_card, symbol_text, unicode,
    unicode_char,
};
use dealdex::{Card, ModelError, ModelErrorKind, Rank, Suit, parse_card};
use proptest::prelude::*;

/// `r` with its error's kind, to match against the kinds.
fn kind<T>(r: Result<T, ModelError>) -> Result<T, ModelErrorKind> {
    r.map_err(ModelError::into_kind)
}

/// `S`/`H`/`D`/`C` then a rank letter, as `Card`'s Display writes it.
fn card(text: &str) -> Card {
    let b = text.as_bytes();
    Card::new(
        Suit::from_char(b[0] as char).unwrap(),
        Rank::from_char(b[1] as char).unwrap(),
    )
}

/// Seed 001's table of the 52 values, transcribed row by row (clubs, diamonds, hearts, spades;
/// columns 2, 3, …, 10, J, Q, K, A).
const SEED001_TABLE: [(char, [u32; 13]); 4] = [
    (
        'C',
        [
            98306, 164099, 295429, 557831, 1082379, 2131213, 4228625, 8423187, 16812055, 33589533,
            67144223, 134253349, 268471337,
        ],
    ),
    (
        'D',
        [
            81986, 147779, 279109, 541511, 1066059, 2114893, 4212305, 8406867, 16795735, 33573213,
            67127903, 134237029, 268455017,
        ],
    ),
    (
        'H',
        [
            73858, 139651, 270981, 533383, 1057931, 2106765, 4204177, 8398739, 16787607, 33565085,
            67119775, 134228901, 268446889,
        ],
    ),
    (
        'S',
        [
            69826, 135619, 266949, 529351, 1053899, 2102733, 4200145, 8394707, 16783575, 33561053,
            67115743, 134224869, 268442857,
        ],
    ),
];

const RANKS_2_TO_A: &str = "23456789TJQKA";

/// The 52 cards with their seed 001 values, from the table.
fn seed001_oracle() -> Vec<(Card, u32)> {
    let mut v = Vec::new();
    for (suit, row) in SEED001_TABLE {
        for (r, value) in RANKS_2_TO_A.chars().zip(row) {
            v.push((card(&format!("{suit}{r}")), value));
        }
    }
    v
}

/// Seed 000 §1: slots 0..51 in order, suits S H D C, ranks A..2 ("slot 0 represents the SA,
/// slot 51 the C2, and for example, slot 20 represents the H7").
const SEED000_SLOTS: &str = "SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 S2 \
                             HA HK HQ HJ HT H9 H8 H7 H6 H5 H4 H3 H2 \
                             DA DK DQ DJ DT D9 D8 D7 D6 D5 D4 D3 D2 \
                             CA CK CQ CJ CT C9 C8 C7 C6 C5 C4 C3 C2";

/// Seed 003: numbers 0..51 in order, "starting with 2♥ all the way to A♣", hearts, spades,
/// diamonds, clubs, each 2..A; written as its display values (RANKS then SUITES).
const SEED003_DISPLAY: &str = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ \
                               2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ \
                               2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦ \
                               2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣";

/// Seed 004: the face-up card bytes `0 1 SS RRRR` by suit (♠ 00, ♦ 01, ♣ 10, ♥ 11) and rank
/// (A 0x0, Two 0x1 … Ten 0x9, Jack 0xA, Queen 0xC, King 0xD), read off the seed's tables.
const SEED004_BYTES: [(char, [u8; 13]); 4] = [
    (
        'S',
        [
            0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4C, 0x4D,
        ],
    ),
    (
        'D',
        [
            0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x5C, 0x5D,
        ],
    ),
    (
        'C',
        [
            0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6C, 0x6D,
        ],
    ),
    (
        'H',
        [
            0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x7C, 0x7D,
        ],
    ),
];
const RANKS_A_TO_K: &str = "A23456789TJQK";

/// Every standard playing card of Unicode's Playing Cards block with its character name (the
/// Unicode character database; the knights U+1F0xC are not bridge cards and are absent).
const UNICODE_CARDS: [(u32, &str); 52] = [
    (0x1F0A1, "SA"), // PLAYING CARD ACE OF SPADES
    (0x1F0A2, "S2"), // PLAYING CARD TWO OF SPADES
    (0x1F0A3, "S3"), // PLAYING CARD THREE OF SPADES
    (0x1F0A4, "S4"), // PLAYING CARD FOUR OF SPADES
    (0x1F0A5, "S5"), // PLAYING CARD FIVE OF SPADES
    (0x1F0A6, "S6"), // PLAYING CARD SIX OF SPADES
    (0x1F0A7, "S7"), // PLAYING CARD SEVEN OF SPADES
    (0x1F0A8, "S8"), // PLAYING CARD EIGHT OF SPADES
    (0x1F0A9, "S9"), // PLAYING CARD NINE OF SPADES
    (0x1F0AA, "ST"), // PLAYING CARD TEN OF SPADES
    (0x1F0AB, "SJ"), // PLAYING CARD JACK OF SPADES
    (0x1F0AD, "SQ"), // PLAYING CARD QUEEN OF SPADES
    (0x1F0AE, "SK"), // PLAYING CARD KING OF SPADES
    (0x1F0B1, "HA"), // PLAYING CARD ACE OF HEARTS
    (0x1F0B2, "H2"), // PLAYING CARD TWO OF HEARTS
    (0x1F0B3, "H3"), // PLAYING CARD THREE OF HEARTS
    (0x1F0B4, "H4"), // PLAYING CARD FOUR OF HEARTS
    (0x1F0B5, "H5"), // PLAYING CARD FIVE OF HEARTS
    (0x1F0B6, "H6"), // PLAYING CARD SIX OF HEARTS
    (0x1F0B7, "H7"), // PLAYING CARD SEVEN OF HEARTS
    (0x1F0B8, "H8"), // PLAYING CARD EIGHT OF HEARTS
    (0x1F0B9, "H9"), // PLAYING CARD NINE OF HEARTS
    (0x1F0BA, "HT"), // PLAYING CARD TEN OF HEARTS
    (0x1F0BB, "HJ"), // PLAYING CARD JACK OF HEARTS
    (0x1F0BD, "HQ"), // PLAYING CARD QUEEN OF HEARTS
    (0x1F0BE, "HK"), // PLAYING CARD KING OF HEARTS
    (0x1F0C1, "DA"), // PLAYING CARD ACE OF DIAMONDS
    (0x1F0C2, "D2"), // PLAYING CARD TWO OF DIAMONDS
    (0x1F0C3, "D3"), // PLAYING CARD THREE OF DIAMONDS
    (0x1F0C4, "D4"), // PLAYING CARD FOUR OF DIAMONDS
    (0x1F0C5, "D5"), // PLAYING CARD FIVE OF DIAMONDS
    (0x1F0C6, "D6"), // PLAYING CARD SIX OF DIAMONDS
    (0x1F0C7, "D7"), // PLAYING CARD SEVEN OF DIAMONDS
    (0x1F0C8, "D8"), // PLAYING CARD EIGHT OF DIAMONDS
    (0x1F0C9, "D9"), // PLAYING CARD NINE OF DIAMONDS
    (0x1F0CA, "DT"), // PLAYING CARD TEN OF DIAMONDS
    (0x1F0CB, "DJ"), // PLAYING CARD JACK OF DIAMONDS
    (0x1F0CD, "DQ"), // PLAYING CARD QUEEN OF DIAMONDS
    (0x1F0CE, "DK"), // PLAYING CARD KING OF DIAMONDS
    (0x1F0D1, "CA"), // PLAYING CARD ACE OF CLUBS
    (0x1F0D2, "C2"), // PLAYING CARD TWO OF CLUBS
    (0x1F0D3, "C3"), // PLAYING CARD THREE OF CLUBS
    (0x1F0D4, "C4"), // PLAYING CARD FOUR OF CLUBS
    (0x1F0D5, "C5"), // PLAYING CARD FIVE OF CLUBS
    (0x1F0D6, "C6"), // PLAYING CARD SIX OF CLUBS
    (0x1F0D7, "C7"), // PLAYING CARD SEVEN OF CLUBS
    (0x1F0D8, "C8"), // PLAYING CARD EIGHT OF CLUBS
    (0x1F0D9, "C9"), // PLAYING CARD NINE OF CLUBS
    (0x1F0DA, "CT"), // PLAYING CARD TEN OF CLUBS
    (0x1F0DB, "CJ"), // PLAYING CARD JACK OF CLUBS
    (0x1F0DD, "CQ"), // PLAYING CARD QUEEN OF CLUBS
    (0x1F0DE, "CK"), // PLAYING CARD KING OF CLUBS
];

#[test]
fn seed000_slots_both_ways() {
    let slots: Vec<&str> = SEED000_SLOTS.split_whitespace().collect();
    assert_eq!(slots.len(), 52);
    for (slot, text) in slots.iter().enumerate() {
        let c = card(text);
        assert_eq!(seat_array_slot(c) as usize, slot, "{text}");
        assert_eq!(card_from_seat_array_slot(slot as u32), Ok(c));
        assert_eq!(Encoding::SeatArraySlot.decode(slot as u64), Ok(c));
        assert_eq!(Encoding::SeatArraySlot.encode(c) as usize, slot);
    }
    // The seed's worked examples.
    assert_eq!(card_from_seat_array_slot(0), Ok(card("SA")));
    assert_eq!(card_from_seat_array_slot(20), Ok(card("H7")));
    assert_eq!(card_from_seat_array_slot(51), Ok(card("C2")));
}

#[test]
fn seed001_table_both_ways() {
    let oracle = seed001_oracle();
    assert_eq!(oracle.len(), 52);
    for &(c, value) in &oracle {
        assert_eq!(standard_card(c), value, "{c}");
        assert_eq!(card_from_standard_card(value), Ok(c), "{value}");
        assert_eq!(Encoding::StandardCard.decode(value.into()), Ok(c));
    }
    // The seed's ♥5 in the table: 533383 = 0x00082387.
    assert_eq!(standard_card(card("H5")), 0x0008_2387);
}

#[test]
fn seed001_worked_example_is_rejected_for_its_ss_bits() {
    // The seed's worked example 0x00082347 (= 533319) for 5♥ has ss = 01 (diamonds) while its
    // cdhs bit says hearts; the table's value is 0x00082387. They differ in the two ss bits.
    assert_eq!(0x0008_2347u32, 533319);
    assert_eq!(0x0008_2347u32 ^ 0x0008_2387, 0b1100_0000);
    let e = card_from_standard_card(0x0008_2347).unwrap_err();
    assert_eq!(
        e.to_string(),
        "32-bit card 0x00082347 (533319) is inconsistent: suit bit says hearts, ss bits (01) say \
         diamonds"
    );
}

#[test]
fn seed001_each_inconsistency_is_named() {
    let q_clubs = standard_card(card("CQ"));
    // Rank nibble of a 5 under the queen's rank bit.
    let v = (q_clubs & !0xF00) | (3 << 8);
    assert_eq!(
        card_from_standard_card(v).unwrap_err().to_string(),
        format!("32-bit card 0x{v:08X} ({v}) is inconsistent: rank bit says Q, rank nibble says 5")
    );
    let cases: [(u32, &str); 7] = [
        (
            q_clubs | 1 << 29,
            "bits 29-31 (xxx) are 0b001; they must be 0",
        ),
        (q_clubs & !(1 << 26), "no rank bit (bits 16-28) is set"),
        (
            q_clubs | 1 << 16,
            "2 rank bits are set (2, Q); exactly one must be",
        ),
        (
            q_clubs & !(1 << 15),
            "no suit bit (cdhs, bits 12-15) is set",
        ),
        (
            q_clubs | 1 << 12,
            "2 suit bits are set (spades, clubs); exactly one must be",
        ),
        (
            (q_clubs & !0xF00) | 0xD00,
            "rank nibble is 13; ranks are 0 (2) ..= 12 (A), and the rank bit says Q",
        ),
        (q_clubs & !0x3F | 7, "prime is 7, but the Q's prime is 31"),
    ];
    for (v, reason) in cases {
        match kind(card_from_standard_card(v)) {
            Err(ModelErrorKind::StandardCard { value, reason: r }) => {
                assert_eq!(value, v);
                assert_eq!(r, reason, "0x{v:08X}");
            }
            other => panic!("0x{v:08X}: {other:?}"),
        }
    }
}

#[test]
fn seed001_every_single_bit_flip_is_rejected() {
    for (c, value) in seed001_oracle() {
        for bit in 0..32 {
            let v = value ^ (1 << bit);
            assert!(
                card_from_standard_card(v).is_err(),
                "{c} bit {bit}: 0x{v:08X}"
            );
        }
    }
}

#[test]
fn seed001_low_half_exhaustively() {
    // Under each single rank bit and zero xxx bits, exactly the 4 values of that rank (one per
    // suit) of all 65,536 low halves decode.
    let oracle: HashMap<u32, Card> = seed001_oracle().into_iter().map(|(c, v)| (v, c)).collect();
    for r in 0..13 {
        let high = 1u32 << (16 + r);
        let mut valid = 0;
        for low in 0..=0xFFFFu32 {
            let v = high | low;
            match card_from_standard_card(v) {
                Ok(c) => {
                    assert_eq!(oracle.get(&v), Some(&c), "0x{v:08X}");
                    valid += 1;
                }
                Err(_) => assert!(!oracle.contains_key(&v), "0x{v:08X}"),
            }
        }
        assert_eq!(valid, 4, "rank bit {r}");
    }
}

proptest! {
    #[test]
    fn seed001_random_values_decode_only_if_in_the_table(v in any::<u32>()) {
        let oracle: HashMap<u32, Card> =
            seed001_oracle().into_iter().map(|(c, v)| (v, c)).collect();
        match card_from_standard_card(v) {
            Ok(c) => prop_assert_eq!(oracle.get(&v), Some(&c)),
            Err(e) => {
                prop_assert!(!oracle.contains_key(&v));
                prop_assert!(e.to_string().starts_with(&format!("32-bit card 0x{v:08X}")), "{}", e);
            }
        }
    }

    #[test]
    fn seed001_near_misses_are_rejected(i in 0usize..52, mask in 1u32..=u32::MAX) {
        // A valid value with any nonzero set of bits flipped is never a valid value of the same
        // card, and it decodes to another card only when it is in the table.
        let (c, value) = seed001_oracle()[i];
        let v = value ^ mask;
        match card_from_standard_card(v) {
            Ok(d) => {
                prop_assert_ne!(d, c);
                prop_assert_eq!(standard_card(d), v);
            }
            Err(_) => prop_assert!(seed001_oracle().iter().all(|&(_, w)| w != v)),
        }
    }
}

#[test]
fn seed001_out_of_u32_range() {
    let e = Encoding::StandardCard.decode(1 << 32).unwrap_err();
    assert!(
        matches!(e.kind(), ModelErrorKind::EncodingOutOfRange { value, .. } if *value == 1 << 32)
    );
}

#[test]
fn seed003_numbers_and_display_both_ways() {
    let shown: Vec<&str> = SEED003_DISPLAY.split_whitespace().collect();
    assert_eq!(shown.len(), 52);
    for (n, text) in shown.iter().enumerate() {
        // The display text is also card text the tolerant parser reads (rank then symbol).
        let c = parse_card(text).unwrap();
        assert_eq!(hsdc_number(c) as usize, n, "{text}");
        assert_eq!(symbol_text(c), *text);
        assert_eq!(card_from_hsdc_number(n as u32), Ok(c));
        assert_eq!(card_from_symbol_text(text), Ok(c));
        assert_eq!(Encoding::HsdcNumber.decode(n as u64), Ok(c));
    }
    // The seed's examples: 14 is the 3 of spades, 49 the queen of clubs.
    assert_eq!(card_from_hsdc_number(14), Ok(card("S3")));
    assert_eq!(card_from_hsdc_number(49), Ok(card("CQ")));
    assert_eq!(card_from_hsdc_number(0), Ok(card("H2")));
    assert_eq!(card_from_hsdc_number(51), Ok(card("CA")));
}

#[test]
fn seed003_display_is_strict() {
    for bad in ["TH", "T♥", "Q", "♥", "11♥", "♥10", "q♣", "Q♣♣", ""] {
        assert!(
            matches!(
                kind(card_from_symbol_text(bad)),
                Err(ModelErrorKind::SymbolText { .. })
            ),
            "{bad:?}"
        );
    }
    // An emoji presentation selector after the suit is not part of the value.
    assert_eq!(card_from_symbol_text("Q♣\u{FE0F}"), Ok(card("CQ")));
}

#[test]
fn slots_and_numbers_out_of_range() {
    for v in [52u64, 53, 255, 1 << 40, u64::MAX] {
        for enc in [Encoding::SeatArraySlot, Encoding::HsdcNumber] {
            assert!(
                matches!(kind(enc.decode(v)), Err(ModelErrorKind::EncodingOutOfRange { encoding, value, .. }) if encoding == enc && value == v),
                "{enc} {v}"
            );
        }
    }
    assert_eq!(
        card_from_seat_array_slot(53).unwrap_err().to_string(),
        "seed000-slot 53 is out of range: seed 000 slots are 0..=51"
    );
    assert_eq!(
        card_from_hsdc_number(52).unwrap_err().to_string(),
        "seed003-number 52 is out of range: seed 003 card numbers are 0..=51"
    );
}

fn seed004_oracle() -> Vec<(Card, u8)> {
    let mut v = Vec::new();
    for (suit, row) in SEED004_BYTES {
        for (r, byte) in RANKS_A_TO_K.chars().zip(row) {
            v.push((card(&format!("{suit}{r}")), byte));
        }
    }
    v
}

#[test]
fn seed004_bytes_both_ways() {
    let oracle = seed004_oracle();
    assert_eq!(oracle.len(), 52);
    for (c, up) in oracle {
        let down = up & !0x40;
        assert_eq!(card_byte(c, true), up, "{c}");
        assert_eq!(card_byte(c, false), down, "{c}");
        let d = card_from_card_byte(up).unwrap();
        assert_eq!((d.card, d.face_up), (c, true));
        let d = card_from_card_byte(down).unwrap();
        assert_eq!((d.card, d.face_up), (c, false), "face-down 0x{down:02X}");
        assert_eq!(Encoding::CardByte.decode(down.into()), Ok(c));
        assert_eq!(Encoding::CardByte.encode(c), u32::from(up));
    }
}

#[test]
fn seed004_every_other_byte_is_rejected() {
    let oracle: HashMap<u8, Card> = seed004_oracle()
        .into_iter()
        .flat_map(|(c, b)| [(b, c), (b & !0x40, c)])
        .collect();
    assert_eq!(oracle.len(), 104);
    for b in 0..=255u8 {
        match kind(card_from_card_byte(b)) {
            Ok(d) => assert_eq!(oracle.get(&b), Some(&d.card), "0x{b:02X}"),
            Err(ModelErrorKind::CardByte { byte, reason }) => {
                assert_eq!(byte, b);
                assert!(!oracle.contains_key(&b), "0x{b:02X}");
                let want = if b >= 0x80 {
                    "group byte"
                } else {
                    match b & 0xF {
                        0xB => "Knight/Cavalier",
                        0xE => "reserved-R",
                        0xF => "reserved-S",
                        _ => panic!("0x{b:02X} rejected: {reason}"),
                    }
                };
                assert!(reason.contains(want), "0x{b:02X}: {reason}");
            }
            Err(e) => panic!("0x{b:02X}: {e:?}"),
        }
    }
    assert_eq!(
        card_from_card_byte(0x4B).unwrap_err().to_string(),
        "seed004 card byte 0x4B (0b01001011) is not a bridge card: rank 0xB is the \
         Knight/Cavalier, and a bridge deck has no knight"
    );
    assert!(matches!(
        kind(Encoding::CardByte.decode(256)),
        Err(ModelErrorKind::EncodingOutOfRange { value: 256, .. })
    ));
}

#[test]
fn unicode_both_ways() {
    for (code, text) in UNICODE_CARDS {
        let c = card(text);
        assert_eq!(unicode(c), code, "{text}");
        assert_eq!(u32::from(unicode_char(c)), code);
        assert_eq!(card_from_unicode(code), Ok(c), "U+{code:X}");
        assert_eq!(card_from_unicode_char(char::from_u32(code).unwrap()), Ok(c));
        assert_eq!(Encoding::Unicode.decode(code.into()), Ok(c));
    }
    // The seed's formula, U = 0x1F001 + ({A,C,D,B}[S] << 4) + R, on the seed 004 byte.
    for (c, byte) in seed004_oracle() {
        let s = usize::from(byte >> 4 & 3);
        let r = u32::from(byte & 0xF);
        assert_eq!(
            unicode(c),
            0x1F001 + ([0xA, 0xC, 0xD, 0xB][s] << 4) + r,
            "{c}"
        );
    }
    assert_eq!(unicode_char(card("SA")), '🂡');
    assert_eq!(unicode_char(card("CQ")), '🃝');
}

#[test]
fn unicode_knights_jokers_and_the_rest_are_rejected() {
    let oracle: HashMap<u32, Card> = UNICODE_CARDS.iter().map(|&(u, t)| (u, card(t))).collect();
    let mut valid = 0;
    for code in (0x1F000..0x1F200).chain([0, 0x41, 0x2660, 0x10FFFF, u32::MAX]) {
        match kind(card_from_unicode(code)) {
            Ok(c) => {
                assert_eq!(oracle.get(&code), Some(&c), "U+{code:X}");
                valid += 1;
            }
            Err(ModelErrorKind::Unicode { code: got, reason }) => {
                assert_eq!(got, code);
                assert!(!oracle.contains_key(&code), "U+{code:X}: {reason}");
            }
            Err(e) => panic!("U+{code:X}: {e:?}"),
        }
    }
    assert_eq!(valid, 52);
    for (code, why) in [
        (
            0x1F0AC,
            "it is the knight of spades (seed 004 rank 0xB), and a bridge deck has no knight",
        ),
        (
            0x1F0BC,
            "it is the knight of hearts (seed 004 rank 0xB), and a bridge deck has no knight",
        ),
        (
            0x1F0CC,
            "it is the knight of diamonds (seed 004 rank 0xB), and a bridge deck has no knight",
        ),
        (
            0x1F0DC,
            "it is the knight of clubs (seed 004 rank 0xB), and a bridge deck has no knight",
        ),
        (
            0x1F0BF,
            "it is the red joker; in seed 004 rank 0xE is reserved (reserved-R)",
        ),
        (
            0x1F0AF,
            "it is unassigned; in seed 004 rank 0xE is reserved (reserved-R)",
        ),
        (0x1F0A0, "it is the playing card back"),
        (
            0x1F0E1,
            "U+1F0E0..U+1F0FF are the tarot trumps, not suited cards",
        ),
        (
            0x2663,
            "it is outside the playing cards block U+1F0A0..U+1F0FF",
        ),
    ] {
        assert_eq!(
            card_from_unicode(code).unwrap_err().to_string(),
            format!("U+{code:04X} is not a bridge card: {why}")
        );
    }
    assert!(matches!(
        kind(Encoding::Unicode.decode(1 << 33)),
        Err(ModelErrorKind::EncodingOutOfRange { .. })
    ));
}

#[test]
fn every_encoding_round_trips_every_card() {
    for c in Card::all() {
        assert_eq!(card_from_seat_array_slot(seat_array_slot(c).into()), Ok(c));
        assert_eq!(card_from_standard_card(standard_card(c)), Ok(c));
        assert_eq!(card_from_hsdc_number(hsdc_number(c).into()), Ok(c));
        assert_eq!(card_from_symbol_text(&symbol_text(c)), Ok(c));
        for up in [true, false] {
            let d = card_from_card_byte(card_byte(c, up)).unwrap();
            assert_eq!((d.card, d.face_up), (c, up));
        }
        assert_eq!(card_from_unicode(unicode(c)), Ok(c));
        assert_eq!(card_from_unicode_char(unicode_char(c)), Ok(c));
        for enc in Encoding::ALL {
            assert_eq!(enc.decode(enc.encode(c).into()), Ok(c), "{enc} {c}");
        }
        assert_eq!(parse_card(&c.to_string()), Ok(c));
    }
    // Distinct cards have distinct values in every encoding.
    for enc in Encoding::ALL {
        let mut values: Vec<u32> = Card::all().map(|c| enc.encode(c)).collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values.len(), 52, "{enc}");
    }
}

#[test]
fn encoding_names() {
    let names: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
    assert_eq!(
        names,
        [
            "seed000-slot",
            "standard-card",
            "seed003-number",
            "seed004-byte",
            "unicode"
        ]
    );
    for e in Encoding::ALL {
        assert_eq!(e.name().parse::<Encoding>(), Ok(e));
        assert_eq!(e.to_string(), e.name());
    }
    assert!(matches!(
        kind("seed002".parse::<Encoding>()),
        Err(ModelErrorKind::UnknownEncoding { .. })
    ));
}

#[test]
fn card_text_in_every_form() {
    let suits = [
        ('S', '♠', '♤'),
        ('H', '♥', '♡'),
        ('D', '♦', '♢'),
        ('C', '♣', '♧'),
    ];
    for c in Card::all() {
        let (letter, black, white) = suits[c.suit().index()];
        let ranks: Vec<String> = match c.rank().letter() {
            'T' => vec!["T".into(), "t".into(), "10".into()],
            r => vec![r.to_string(), r.to_ascii_lowercase().to_string()],
        };
        for r in &ranks {
            for s in [
                letter.to_string(),
                letter.to_ascii_lowercase().to_string(),
                black.to_string(),
                white.to_string(),
                format!("{black}\u{FE0F}"),
            ] {
                for text in [format!("{r}{s}"), format!("{s}{r}"), format!(" {s}{r}\n")] {
                    assert_eq!(parse_card(&text), Ok(c), "{text:?}");
                    assert_eq!(text.parse::<Card>(), Ok(c), "{text:?}");
                }
            }
        }
    }
    // The forms in the issue.
    for (text, want) in [
        ("QC", "CQ"),
        ("CQ", "CQ"),
        ("♣Q", "CQ"),
        ("Q♣", "CQ"),
        ("10H", "HT"),
        ("TH", "HT"),
        ("h10", "HT"),
        ("qc", "CQ"),
    ] {
        assert_eq!(parse_card(text), Ok(card(want)), "{text}");
    }
}

#[test]
fn bad_card_text_is_rejected_with_the_reason() {
    for (text, reason) in [
        ("", "it is empty"),
        ("  ", "it is empty"),
        ("X1", "no suit (S H D C or ♠ ♥ ♦ ♣) at its start or end"),
        ("Q", "no suit (S H D C or ♠ ♥ ♦ ♣) at its start or end"),
        ("10", "no suit (S H D C or ♠ ♥ ♦ ♣) at its start or end"),
        ("C", "it has a suit but no rank"),
        ("♣", "it has a suit but no rank"),
        (
            "CC",
            "the rank is not one of A K Q J T 9 8 7 6 5 4 3 2 or 10",
        ),
        (
            "1C",
            "the rank is not one of A K Q J T 9 8 7 6 5 4 3 2 or 10",
        ),
        (
            "11H",
            "the rank is not one of A K Q J T 9 8 7 6 5 4 3 2 or 10",
        ),
        (
            "QQC",
            "the rank is not one of A K Q J T 9 8 7 6 5 4 3 2 or 10",
        ),
        (
            "C Q",
            "the rank is not one of A K Q J T 9 8 7 6 5 4 3 2 or 10",
        ),
        (
            "Q♣♣",
            "the rank is not one of A K Q J T 9 8 7 6 5 4 3 2 or 10",
        ),
        (
            "0H",
            "the rank is not one of A K Q J T 9 8 7 6 5 4 3 2 or 10",
        ),
    ] {
        match kind(parse_card(text)) {
            Err(ModelErrorKind::CardText { text: t, reason: r }) => {
                assert_eq!((t.as_str(), r), (text, reason), "{text:?}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    assert_eq!(
        parse_card("X1").unwrap_err().to_string(),
        "'X1' is not a card: no suit (S H D C or ♠ ♥ ♦ ♣) at its start or end (write a rank and \
         a suit, e.g. QC, CQ, ♣Q, 10H, TH, h10)"
    );
}

#[test]
fn card_names() {
    assert_eq!(encoding::card_name(card("CQ")), "queen of clubs");
    assert_eq!(encoding::card_name(card("HT")), "ten of hearts");
    assert_eq!(encoding::card_name(card("S2")), "two of spades");
    assert_eq!(encoding::card_name(card("DA")), "ace of diamonds");
}
