//! Hand-record numbers (decimal with `_`/`,` separators, or `0x` hex) and scheme names: an
//! accepted number must be a deal's number in every scheme.
#![no_main]

use dealdex::{Deal, Scheme, parse_number};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = text.parse::<Scheme>();
    let Ok(n) = parse_number(text) else {
        return;
    };
    for scheme in [Scheme::Pavlicek, Scheme::Andrews, Scheme::BigDeal] {
        let deal = Deal::from_number(n, scheme).expect("an accepted number has a deal");
        assert_eq!(deal.number(scheme), n);
    }
});
