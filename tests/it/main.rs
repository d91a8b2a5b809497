//! The integration tests that run in seconds, one module a former test file, in one binary
//! (issue 28, item 8: one link instead of one a file). `cargo test --test it` runs them,
//! `cargo test --test it cli_query::` one module. The slow ones (double-dummy solving, Spark,
//! rendering) are in `tests/slow/`, the kill and lock-timing ones in `tests/crash/`. Two test
//! files that measure their own process stay binaries of their own: `tests/fuzz_readers.rs`,
//! whose counting global allocator must not count the other tests, and
//! `tests/input_bounds.rs`, whose children's peak memory (`wait4`'s `ru_maxrss`) counts the
//! test process's resident set too (a spawned child starts in the parent's memory).

#[path = "../common/mod.rs"]
mod common;

mod atomic_outputs;
mod bigdeal_ranges;
mod bigdeal_stream;
mod cli;
mod cli_card;
mod cli_event;
mod cli_field;
mod cli_files;
mod cli_json;
mod cli_json_event;
mod cli_json_generate;
mod cli_play;
mod cli_query;
mod cli_serve;
mod cli_sql;
mod cli_vugraph;
mod contracts;
mod dealer;
mod dealer_dialects;
mod dealer_flags;
mod dealer_grammar;
mod dealer_graph;
mod dealer_leadtricks;
mod dealer_lengths;
mod dealer_libraries;
mod dealer_stored;
mod dealer_v2;
mod docs;
mod encodings;
mod error_positions;
mod event_protocol;
mod features;
mod fixtures_public;
mod formats_machines;
mod formats_other;
mod formats_pbn;
mod formats_peers;
mod generate_names;
mod hunt3;
mod lead;
mod libraries;
mod numbering;
mod parquet;
mod pbn_dd;
mod pipeline;
mod play;
mod query;
mod query_spark;
mod records;
mod secrets;
mod squaredeal_events;
mod stats;
mod store;
mod store_search;
