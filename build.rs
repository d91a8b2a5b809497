//! Links the `dealdex` binary as a position-dependent executable: a PIE's 13,000 relative
//! relocations are applied at every start, about 50 page faults and a fifth of a millisecond,
//! a tenth of a short dealer script's whole run (issue 37). The library, its tests and the
//! Python module are unchanged.
//!
//! It also exists so that `[build-dependencies]` (see Cargo.toml) are part of the build.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
