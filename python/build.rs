//! Empty: it exists so that `[build-dependencies]` (see Cargo.toml) are part of the build.
fn main() {}
