//! The tests that kill dealdex at measured moments (`crash`) or time its lock waits
//! (`concurrency`), in a binary of their own so that other tests running alongside do not
//! distort their timing. `cargo test --test crash` runs them.

mod concurrency;
mod crash;
