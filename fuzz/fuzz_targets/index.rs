//! Deal indices: 26 hex digits with an optional `-X` suffix or `X-` prefix. What the parser
//! accepts must print back equal; a valid deal must index to the same bytes.
#![no_main]

use dealdex::{DealIndex, BoardIndex};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = DealIndex::parse_hex(text);
    let Ok(h) = text.parse::<BoardIndex>() else {
        return;
    };
    assert_eq!(h.to_string().parse::<BoardIndex>(), Ok(h));
    let _ = (h.dealer(), h.vulnerability());
    if let Ok(deal) = h.index.to_deal() {
        assert_eq!(DealIndex::from_deal(&deal), h.index);
    }
});
