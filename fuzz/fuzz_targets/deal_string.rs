//! PBN deal strings (`N:AKQ.T9.5432.AK2 …`): what the parser accepts must print as a string
//! that parses back equal, from every first seat.
#![no_main]

use dealdex::{Seat, format_deal, parse_deal};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(deal) = parse_deal(text) else {
        return;
    };
    for first in Seat::ALL {
        assert_eq!(parse_deal(&format_deal(&deal, first)), Ok(deal));
    }
});
