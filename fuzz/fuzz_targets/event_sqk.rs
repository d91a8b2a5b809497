//! SquareDeal's key file (`.sqk`): what the reader accepts must be written back (`to_bytes`,
//! the CRLF form) as the same keys with the same hash (KH is taken over that form).
#![no_main]

use dealdex::event::Keys;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(keys) = Keys::parse(data) else {
        return;
    };
    let back = Keys::parse(&keys.to_bytes()).expect("to_bytes reads back");
    assert_eq!(back.hash(), keys.hash());
    assert!(back.is_canonical());
    for id in keys.sessions() {
        assert_eq!(back.get(id), keys.get(id));
    }
});
