//! Every deal-file format's reader: the first byte picks the format (in registry order,
//! modulo 14), the rest is the file. What a reader accepts must survive its own writer:
//! written back and read again, the same deals and board numbers.
#![no_main]

use dealdex::formats::{self, WriteOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let registry = formats::registry();
    let f = registry[usize::from(pick) % registry.len()];
    let Ok(mut boards) = f.read(file) else {
        return;
    };
    formats::number_boards(&mut boards, 1);
    // A writer may refuse a board the reader took (a number above its limit): an error, fine.
    let Ok(out) = formats::write_set(f, &boards, &WriteOptions::default()) else {
        return;
    };
    let again = f.read(&out).expect("a format's own output reads back");
    assert_eq!(again.len(), boards.len());
    for (a, b) in again.iter().zip(&boards) {
        assert_eq!(a.deal, b.deal);
        if f.info().board_numbers {
            assert_eq!(a.number, b.number);
        }
    }
});
