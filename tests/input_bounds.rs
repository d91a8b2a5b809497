//! Issue 27 defect 8: deal files are read piece by piece, so memory stays flat in the file's
//! size; an endless or foreign input is refused within its first window; a file stored piece
//! by piece is stored whole or not at all.

mod common;

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::fixture;

/// A finished run: exit code, standard error and peak resident memory (KiB).
struct Run {
    code: i32,
    stderr: String,
    max_rss_kib: i64,
}

/// Runs dealdex in `dir` with `args`, standard input from `input` (written by a thread, so a
/// pipe of any size), and measures the child's own peak memory (`wait4`). A run past 120 s
/// is killed and fails the test: reading without bound is the defect.
// The child is reaped by `wait4` (which gives its own peak memory), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run(dir: &Path, args: &[&str], input: Option<Vec<u8>>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(args)
        .current_dir(dir)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let writer = input.map(|data| {
        let mut stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data); // a refused input closes the pipe early
        })
    });
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let pid = child.id() as libc::pid_t;
    let started = Instant::now();
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our child, not yet waited for; the pointers are valid.
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if got == pid {
            break (status, usage);
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?}: still running after 120 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if let Some(w) = writer {
        w.join().unwrap();
    }
    assert!(libc::WIFEXITED(status), "{args:?}: killed by a signal");
    Run {
        code: libc::WEXITSTATUS(status),
        stderr: reader.join().unwrap(),
        max_rss_kib: usage.ru_maxrss,
    }
}

/// The bytes of `count` deals generated in `format` from a fixed seed (in `dir`).
fn generated(dir: &Path, count: u64, format: &str) -> Vec<u8> {
    let out = format!("generated.{format}");
    let made = common::dealdex(dir)
        .args([
            "generate",
            "--count",
            &count.to_string(),
            "--seed",
            &"5eed".repeat(16),
        ])
        .args(["--format", format, "--out", &out, "--db", "generated.db"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", common::stderr(&made));
    std::fs::read(dir.join(out)).unwrap()
}

/// The number of deals stored in `db`.
fn deals(dir: &Path, db: &str) -> u64 {
    let (report, _) = common::json_report(
        dir,
        &["sql", "--db", db, "--json", "SELECT count(*) FROM deals"],
    );
    report["rows"][0][0]
        .as_u64()
        .or_else(|| report["rows"][0][0].as_str().and_then(|s| s.parse().ok()))
        .unwrap_or_else(|| panic!("{report}"))
}

#[test]
fn endless_input_is_refused_within_its_first_window_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Text formats: no record within the first 4 MiB; before, each read /dev/zero until
    // memory ran out (24 GB in 20 s).
    let text: [&[&str]; 5] = [
        &["import", "--from", "pbn", "/dev/zero", "--db", "z.db"],
        &["import", "--from", "hex", "/dev/zero", "--db", "z.db"],
        &["import", "--from", "json", "/dev/zero", "--db", "z.db"],
        &["convert", "--from", "pbn", "/dev/zero", "out.hex"],
        &["convert", "--from", "csv", "/dev/zero", "out.pbn"],
    ];
    for args in text {
        let r = run(d, args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("/dev/zero"), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("within 4 MiB"), "{args:?}: {}", r.stderr);
        assert!(r.max_rss_kib < 64 << 10, "{args:?}: {} KiB", r.max_rss_kib);
    }
    // A format read whole: refused past 256 MiB.
    let r = run(
        d,
        &["import", "--from", "dup", "/dev/zero", "--db", "z.db"],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("larger than 256 MiB"), "{}", r.stderr);
    assert!(r.max_rss_kib < 400 << 10, "{} KiB", r.max_rss_kib);
    assert!(!d.join("out.hex").exists() && !d.join("out.pbn").exists());
}

#[test]
fn memory_stays_flat_in_the_size_of_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let all = generated(d, 2_000_000, "hex");
    let half = all[..all.len() / 2].to_vec(); // 1,000,000 lines
    // Keys are stored in sorted passes of `--batch` boards (13 bytes each): a fixed batch.
    let import = [
        "import",
        "--batch",
        "200000",
        "--from",
        "hex",
        "/dev/stdin",
        "--db",
    ];
    let a = run(d, &[&import[..], &["half.db"]].concat(), Some(half));
    let b = run(d, &[&import[..], &["all.db"]].concat(), Some(all));
    assert_eq!((a.code, b.code), (0, 0), "{} {}", a.stderr, b.stderr);
    assert_eq!(
        (deals(d, "half.db"), deals(d, "all.db")),
        (1_000_000, 2_000_000)
    );
    // Twice the input, 29 MB more of it: the peak grows by less than 16 MiB (before, the
    // bytes and then the boards were held whole: some 100 MB more).
    assert!(
        b.max_rss_kib < a.max_rss_kib + (16 << 10),
        "1,000,000 boards: {} KiB; 2,000,000: {} KiB",
        a.max_rss_kib,
        b.max_rss_kib
    );
}

#[test]
fn a_file_stored_piece_by_piece_is_stored_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 40,000 boards of PBN: some 10 MB, three pieces of 4 MiB.
    let good = generated(d, 40_000, "pbn");
    assert!(good.len() > 9 << 20, "{} bytes", good.len());
    // The last game is not a deal (a card twice): the file is rejected, and the first piece,
    // stored before the second was read, is rolled back.
    let mut bad = good.clone();
    bad.extend_from_slice(
        b"\n[Board \"40001\"]\n[Deal \"N:AKQJ.AKQJ.AKQ.AA T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432\"]\n",
    );
    let import = ["import", "--from", "pbn", "/dev/stdin", "--db", "p.db"];
    let r = run(d, &import, Some(bad));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("line 640005"), "{}", r.stderr);
    // Nothing stored: the database the import created is removed again (issue 50).
    assert!(!d.join("p.db").exists());
    let r = run(d, &import, Some(good));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(deals(d, "p.db"), 40_000);
}

#[test]
fn a_pipe_reads_as_the_file_does() {
    // A PBN file with commentary, an auction and a play, read through a pipe (piece by
    // piece) and as a file (whole): the same deals and plays stored.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pbn = fixture("pbn-spec-example.pbn");
    let (file, _) = common::json_report(
        d,
        &["import", pbn.to_str().unwrap(), "--db", "f.db", "--json"],
    );
    let data = std::fs::read(&pbn).unwrap();
    let r = run(
        d,
        &["import", "--from", "pbn", "/dev/stdin", "--db", "s.db"],
        Some(data),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(deals(d, "s.db"), file["new_deals"].as_u64().unwrap());
    let plays = |db: &str| {
        let (r, _) = common::json_report(
            d,
            &["sql", "--db", db, "--json", "SELECT count(*) FROM plays"],
        );
        r["rows"][0][0].clone()
    };
    assert_eq!(plays("s.db"), plays("f.db"));
}
