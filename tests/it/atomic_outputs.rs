//! Issue 27, defect 4: streamed outputs are atomic. `generate --count --out`, `deal A..B
//! --out` and `query --out` write a temporary file beside the target and rename it when
//! whole: a write that fails (a full disk, simulated by a small `RLIMIT_FSIZE`, or
//! `/dev/full`) exits 1 naming the file, keeps the old target byte for byte, and leaves no
//! temporary file. `export --split` writes all its parts or none.

use std::path::Path;
use std::process::Output;

use tempfile::TempDir;

use crate::common::{entries, stderr};

const BIN: &str = env!("CARGO_BIN_EXE_dealdex");

fn dealdex(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Runs dealdex in `dir` with files limited to `blocks` 512-byte blocks (`ulimit -f`, with
/// SIGXFSZ ignored so that a write past the limit fails with EFBIG, as a full disk fails
/// with ENOSPC, instead of killing the process).
fn limited(dir: &Path, blocks: u32, args: &[&str]) -> Output {
    let script = format!("trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\"");
    std::process::Command::new("sh")
        .current_dir(dir)
        .args(["-c", &script, BIN])
        .args(args)
        .output()
        .unwrap()
}

/// Asserts a failed write: exit 1, the error names `file`, the old target is unchanged and
/// no temporary file is left beside it.
fn assert_kept(d: &Path, out: &Output, file: &str, old: &[u8], before: &[String]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{file}: {err}");
    assert!(err.contains(&format!("error: {file}: ")), "{err}");
    assert!(
        std::fs::read(d.join(file)).unwrap() == old,
        "{file} was changed"
    );
    assert_eq!(entries(d), before, "a temporary file was left behind");
}

#[cfg(unix)]
#[test]
fn a_failed_streamed_write_keeps_the_old_file_and_leaves_no_temporary_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let seed = "42".repeat(32);
    // Good targets from small runs.
    let ok = dealdex(d, &["deal", "1..10", "--format", "hex", "--out", "d.hex"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    let gen_small = [
        "generate", "--count", "10", "--seed", &seed, "--format", "hex",
    ];
    let ok = dealdex(d, &[&gen_small[..], &["--out", "g.hex"]].concat());
    assert!(ok.status.success(), "{}", stderr(&ok));
    let ok = dealdex(d, &[&gen_small[..], &["--out", "g.parquet"]].concat());
    assert!(ok.status.success(), "{}", stderr(&ok));
    let ok = dealdex(
        d,
        &[
            "generate", "--count", "20000", "--seed", &seed, "--db", "q.db",
        ],
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    let ok = dealdex(d, &["query", "hcp(N) >= 0", "--limit", "3", "--db", "q.db"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    std::fs::write(d.join("q.hex"), &ok.stdout).unwrap();
    let before = entries(d);

    // Each run writes far more than 64 blocks (32 KiB): 100,000 hex lines are 2.7 MB.
    let runs: [(&str, Vec<&str>); 4] = [
        (
            "d.hex",
            vec!["deal", "1..100000", "--format", "hex", "--out", "d.hex"],
        ),
        (
            "g.hex",
            vec![
                "generate", "--count", "100000", "--seed", &seed, "--format", "hex", "--out",
                "g.hex",
            ],
        ),
        (
            "g.parquet",
            vec![
                "generate",
                "--count",
                "200000",
                "--seed",
                &seed,
                "--out",
                "g.parquet",
            ],
        ),
        (
            "q.hex",
            vec!["query", "hcp(N) >= 0", "--db", "q.db", "--out", "q.hex"],
        ),
    ];
    for (file, args) in &runs {
        let old = std::fs::read(d.join(file)).unwrap();
        let out = limited(d, 64, args);
        assert_kept(d, &out, file, &old, &before);
    }
}

#[test]
fn a_write_to_a_full_device_names_it() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let seed = "42".repeat(32);
    let ok = dealdex(
        d,
        &[
            "generate", "--count", "1000", "--seed", &seed, "--db", "q.db",
        ],
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    for args in [
        &["deal", "1..10", "--out", "/dev/full"][..],
        &[
            "generate",
            "--count",
            "1000",
            "--seed",
            &seed,
            "--format",
            "hex",
            "--out",
            "/dev/full",
        ][..],
        &["query", "hcp(N) >= 0", "--db", "q.db", "--out", "/dev/full"][..],
    ] {
        let out = dealdex(d, args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("error: /dev/full: "), "{args:?}: {err}");
    }
}

#[test]
fn query_refuses_an_output_that_is_its_database() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let seed = "42".repeat(32);
    let ok = dealdex(
        d,
        &[
            "generate", "--count", "100", "--seed", &seed, "--db", "q.db",
        ],
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    let db = std::fs::read(d.join("q.db")).unwrap();
    let out = dealdex(
        d,
        &[
            "query",
            "hcp(N) >= 0",
            "--db",
            "q.db",
            "--out",
            "./q.db",
            "-f",
            "hex",
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("output and database name the same file"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("q.db")).unwrap(), db);
}

#[test]
fn export_split_writes_all_parts_or_none() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let seed = "42".repeat(32);
    let ok = dealdex(
        d,
        &[
            "generate", "--boards", "1-300", "--seed", &seed, "--name", "big", "--out", "big.pbn",
        ],
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    // Part 1 exists (and must be kept), part 2 does not (and must not appear), part 3
    // cannot be written (a directory is in its place).
    std::fs::write(d.join("x-1.dup"), "old part 1\n").unwrap();
    std::fs::create_dir(d.join("x-3.dup")).unwrap();
    let before = entries(d);
    let out = dealdex(d, &["export", "--set", "big", "--out", "x.dup", "--split"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("x-3.dup"), "{err}");
    assert!(
        std::fs::read(d.join("x-1.dup")).unwrap() == b"old part 1\n",
        "x-1.dup was replaced"
    );
    assert_eq!(entries(d), before, "a part or a temporary file was left");
    // Once part 3 can be written, all four parts are.
    std::fs::remove_dir(d.join("x-3.dup")).unwrap();
    let out = dealdex(d, &["export", "--set", "big", "--out", "x.dup", "--split"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for k in 1..=4 {
        let part = std::fs::read(d.join(format!("x-{k}.dup"))).unwrap();
        assert!(part.len() > 100, "part {k}");
    }
}

/// `stats --plot` is written whole or not at all, by the library (it was a plain write in the
/// command): a plot that would fill the disk keeps the old plot, one that names the deal
/// file read or the database is refused (exit 2) before anything is read or written.
#[test]
fn stats_plot_is_atomic_and_never_the_input() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let seed = "42".repeat(32);
    let ok = dealdex(
        d,
        &[
            "generate", "--count", "2000", "--seed", &seed, "--out", "s.hex", "--no-db",
        ],
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    let hex = std::fs::read(d.join("s.hex")).unwrap();
    let out = dealdex(d, &["stats", "s.hex", "--plot", "./s.hex"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("plot and input file name the same file") && err.contains("[--plot, FILE]"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("s.hex")).unwrap(), hex);
    let out = dealdex(d, &["stats", "s.hex", "--plot", "s.db", "--db", "s.db"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!d.join("s.db").exists());
    // An old plot is kept when the new one cannot be written.
    std::fs::write(d.join("old.svg"), b"<svg/>").unwrap();
    let before = entries(d);
    let out = limited(d, 1, &["stats", "s.hex", "--plot", "old.svg"]);
    assert_kept(d, &out, "old.svg", b"<svg/>", &before);
    let ok = dealdex(d, &["stats", "s.hex", "--plot", "new.svg"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(
        std::fs::read_to_string(d.join("new.svg"))
            .unwrap()
            .starts_with("<svg")
    );
}

/// `lead --csv -` and `--json` would both write standard output: refused (exit 2) before a
/// deal is dealt, naming both flags.
#[test]
fn lead_csv_on_standard_output_with_json_is_refused() {
    let dir = TempDir::new().unwrap();
    let args = "lead --hand AQ4.J.KJ6543.632 --contract 3NT --declarer S --deals 2 --csv - --json";
    let out = dealdex(dir.path(), &args.split(' ').collect::<Vec<_>>());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("[--csv, --json]"), "{err}");
    assert!(out.stdout.is_empty());
}
