//! The slow integration tests, apart from the fast ones of `tests/it/`: double-dummy solving
//! (the DDS comparison of `dd`, `dealdex solve` in `cli_solve`, every played card's in
//! `play_analysis`), the Spark jobs (`spark`) and
//! the rendering check of printable hand records (`records_render`), Debian's dealer run live
//! beside `dealdex dealer` (`dealer_live`). `cargo test --test slow`
//! runs them. `dd`'s comparison with DDS solves 20 of its 200 boards unless
//! `DEALDEX_FULL_TESTS=1` (`.ci/run` sets it).

#[path = "../common/mod.rs"]
mod common;

mod cli_solve;
mod dd;
mod dealer_live;
mod leads;
mod play_analysis;
mod records_render;
mod spark;
