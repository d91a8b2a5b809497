//! Card encodings: card text (`QC`, `♣Q`, `10H`, …), seed 003's display text, Unicode card
//! characters, encoding names, and the first eight bytes as a value in each numeric encoding.
//! Whatever is accepted must encode back to the same card.
#![no_main]

use dealdex::encoding::{self, Encoding};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut word = [0u8; 8];
    let n = data.len().min(8);
    word[..n].copy_from_slice(&data[..n]);
    let value = u64::from_le_bytes(word);
    for e in Encoding::ALL {
        if let Ok(c) = e.decode(value) {
            assert_eq!(e.decode(e.encode(c).into()), Ok(c));
        }
    }
    let _ = encoding::card_from_card_byte(data.first().copied().unwrap_or(0));
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = text.parse::<Encoding>();
    if let Ok(c) = encoding::card_from_symbol_text(text) {
        assert_eq!(
            encoding::card_from_symbol_text(&encoding::symbol_text(c)),
            Ok(c)
        );
    }
    for ch in text.chars().take(8) {
        if let Ok(c) = encoding::card_from_unicode_char(ch) {
            assert_eq!(encoding::unicode_char(c), ch);
        }
    }
    if let Ok(c) = encoding::parse_card(text) {
        assert_eq!(encoding::parse_card(&c.to_string()), Ok(c));
    }
});
