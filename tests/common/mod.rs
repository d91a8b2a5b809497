//! Helpers shared by the integration tests (each test binary uses a part of them, hence
//! `dead_code`).
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

/// Runs dealdex in `dir` with `args`, expects success, and parses the last line of stdout
/// as the command's `--json` report; returns it with stdout's other lines.
pub fn json_report(dir: &Path, args: &[&str]) -> (serde_json::Value, Vec<String>) {
    let out = dealdex(dir).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<String> = stdout.lines().map(str::to_owned).collect();
    let last = lines.pop().expect("a report line");
    let report = serde_json::from_str(&last).unwrap_or_else(|e| panic!("{last:?}: {e}"));
    (report, lines)
}

/// A finished command's standard error, as text.
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The directory's entries, sorted. SQLite's WAL side files (`*.db-wal`, `*.db-shm`) are left
/// out: they come and go with the database's readers (a read-only reader leaves them) and are
/// the database's, not an output's.
pub fn entries(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".db-wal") && !n.ends_with(".db-shm"))
        .collect();
    v.sort();
    v
}

/// True when `DEALDEX_FULL_TESTS=1` (`.ci/run` sets it): tests with a quick default subset
/// run in full.
pub fn full_tests() -> bool {
    std::env::var_os("DEALDEX_FULL_TESTS").is_some_and(|v| v == "1")
}
