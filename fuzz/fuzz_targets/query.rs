//! The query language: what the parser accepts must print (Display) as a query that parses
//! back equal, compile to SQL, and evaluate on a deal.
#![no_main]

use dealdex::query::Query;
use dealdex::{Deal, Scheme};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(q) = Query::parse(text) else {
        return;
    };
    let printed = q.to_string();
    assert_eq!(Query::parse(&printed).as_ref(), Ok(&q), "{printed:?}");
    let _ = q.to_sql();
    let deal = Deal::from_number(1 + u128::from(data.len() as u64), Scheme::Pavlicek).unwrap();
    let _ = q.matches(&deal);
});
