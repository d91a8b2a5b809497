//! Helpers shared by the integration tests (each test file is its own crate and uses a part
//! of them, hence `dead_code`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The dealdex binary built for these tests, run in `dir`.
pub fn dealdex(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dealdex"));
    c.current_dir(dir);
    c
}

/// A file under `tests/fixtures/`.
pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}
