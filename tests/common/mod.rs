//! Helpers shared by the integration tests (each test binary uses a part of them, hence
//! `dead_code`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub mod dealer;

/// Every board of the deal file `path` read as `format` through the pipeline's file source,
/// as every command reads one; a fault of the file itself is its read error (a
/// [`dealdex::Error`] with a [`dealdex::Error::read_kind`]; other source errors panic: a
/// test's own mistake).
pub fn read_file(
    path: &Path,
    format: &'static dyn dealdex::formats::DealFormat,
) -> Result<Vec<dealdex::formats::Board>, dealdex::Error> {
    use dealdex::workflow::pipeline::{DealSource, FileSource, SourceOptions};
    let source = DealSource::File(FileSource {
        path: path.to_owned(),
        format: Some(format),
        first_board: None,
    });
    match source
        .open(None, &SourceOptions::default())
        .and_then(|s| s.read_all())
    {
        Ok((boards, _)) => Ok(boards),
        Err(e) if e.read_kind().is_some() => Err(e),
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

/// A format's refusal of bytes or boards as the tests read it (its reading and writing
/// kinds, [`dealdex::FormatErrorKind`]): the kind's name, where (nowhere for a writer's
/// refusal or a whole file's problem) and the message without the place; it displays as the
/// error does.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    /// The kind's name ([`dealdex::Classify::format_kind`]): `malformed`, `truncated`,
    /// `not-a-deal` or `unwritable`.
    pub kind: &'static str,
    /// Where, in the bytes the reader was given.
    pub position: dealdex::InputPosition,
    /// What was wrong.
    pub message: String,
    /// The error's message, with its place.
    shown: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

/// `e` as a format's refusal; an error of another kind (a format's choice, I/O) fails the
/// test.
pub fn refused(e: dealdex::FormatError) -> Refused {
    use dealdex::FormatErrorKind as K;
    let shown = e.to_string();
    let (kind, position, message) = match e.into_kind() {
        K::Malformed { position, message } => ("malformed", position, message),
        K::Truncated { position, message } => ("truncated", position, message),
        K::NotADeal { position, message } => ("not-a-deal", position, message),
        K::Unwritable { message } => ("unwritable", dealdex::InputPosition::new(), message),
        other => panic!("not a format's refusal: {other}"),
    };
    Refused {
        kind,
        position,
        message,
        shown,
    }
}

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

/// One board of `tests/fixtures/seed-stream/expected.txt`: the deal stream as `derive.py`
/// derives it from the specification alone (see that folder's README).
#[derive(Clone, Debug)]
pub struct DerivedBoard {
    /// The board number.
    pub board: u64,
    /// 2 when the board's own block gave the rank, 3 when the nonce-`board` stream did.
    pub step: u8,
    /// The 13-byte index as 26 hex digits and the board's `-X` digit (`--format hex`).
    pub hex_line: String,
    /// The Pavlicek hand-record number (rank + 1), decimal.
    pub number: String,
    /// The deal string from the board's dealer.
    pub deal: String,
}

/// What `tests/fixtures/seed-stream/expected.txt` holds: the boards of seed `000102…1e1f`
/// (1..=32, then the boards of 33..=2000 derived by step 3) and the SHA-256 of the rows of
/// the Parquet shard of seed `5d…5d`, boards 1..=1200, as text.
pub fn derived_stream() -> (Vec<DerivedBoard>, String) {
    let text = std::fs::read_to_string(fixture("seed-stream/expected.txt")).unwrap();
    let mut boards = Vec::new();
    let mut rows_sha256 = None;
    for line in text.lines() {
        let f: Vec<&str> = line.splitn(6, ' ').collect();
        match f[0] {
            "board" => boards.push(DerivedBoard {
                board: f[1].parse().unwrap(),
                step: f[2].parse().unwrap(),
                hex_line: f[3].to_owned(),
                number: f[4].to_owned(),
                deal: f[5].to_owned(),
            }),
            "parquet-rows-sha256" => rows_sha256 = Some(f[1].to_owned()),
            _ => {}
        }
    }
    (boards, rows_sha256.expect("a parquet-rows-sha256 line"))
}

/// What a reader's answer to arbitrary or damaged bytes must be, whichever it is (the fuzzing
/// proptests' check, so that they assert more than "no panic"):
/// - `Ok(boards)`: the boards survive a round trip: written in the same format (numbered as
///   read) and read again, they are the same deals in the same order. A writer may refuse
///   boards the format cannot hold, but only as [`FormatErrorKind::Unwritable`].
/// - `Err(e)`: a reading kind (not `Unwritable`), a message, and a location inside `data`
///   (a line that exists, a column within it or just past its end, a byte offset not past
///   the end, records counted from 1).
///
/// Returns the reason when the answer breaks one of these.
///
/// [`FormatErrorKind::Unwritable`]: dealdex::FormatErrorKind::Unwritable
pub fn check_read_outcome(
    format: &dyn dealdex::formats::DealFormat,
    data: &[u8],
) -> Result<(), String> {
    use dealdex::FormatErrorKind;
    use dealdex::formats::{ReadOptions, WriteOptions};
    let name = format.info().name;
    match format.read_numbered(data, &ReadOptions::default()) {
        Ok(read) => {
            let boards = read.boards;
            if boards.is_empty() {
                return Ok(());
            }
            let numbers = boards.iter().filter_map(|b| b.number);
            let first = numbers.clone().min().unwrap_or(1);
            let opts = WriteOptions {
                first_board: first,
                last_board: numbers.max().unwrap_or(1),
                ..WriteOptions::default()
            };
            let out = match dealdex::formats::write_set(format, &boards, &opts) {
                Ok(out) => out,
                Err(e) if matches!(e.kind(), FormatErrorKind::Unwritable { .. }) => return Ok(()),
                Err(e) => return Err(format!("{name}: writing what was read: {e} ({e:?})")),
            };
            let again = format
                .read_numbered(
                    &out,
                    &ReadOptions {
                        first_board: Some(first),
                    },
                )
                .map_err(|e| format!("{name}: reading what was written: {e}"))?;
            let deals =
                |b: &[dealdex::formats::Board]| b.iter().map(|b| b.deal).collect::<Vec<_>>();
            if deals(&again.boards) != deals(&boards) {
                return Err(format!(
                    "{name}: the deals read differ after a round trip: {:?} then {:?}",
                    deals(&boards),
                    deals(&again.boards)
                ));
            }
            Ok(())
        }
        Err(e) => {
            let e = refused(e);
            if e.kind == "unwritable" {
                return Err(format!("{name}: a reader gave a writer's error: {e}"));
            }
            if e.message.is_empty() {
                return Err(format!("{name}: an error without a message: {e:?}"));
            }
            // Lines as most readers count them (ended by `\n`), and as the readers that also
            // take a lone `\r` as a line end do (oneline): a position must be in the file by
            // one of the two.
            let lines: Vec<&[u8]> = data.split(|&c| c == b'\n').collect();
            let any_end: Vec<&[u8]> = data
                .split(|&c| c == b'\n')
                .flat_map(|l| {
                    let l = l.strip_suffix(b"\r").unwrap_or(l);
                    l.split(|&c| c == b'\r')
                })
                .collect();
            let p = &e.position;
            let at = |x: Option<u64>| x.map(|x| x as usize);
            let within = |lines: &[&[u8]]| {
                let line_ok = |l: usize| l >= 1 && l <= lines.len();
                match (at(p.record), at(p.line), at(p.column), p.byte) {
                    (Some(r), _, _, b) => r >= 1 && b.is_none_or(|b| b <= data.len() as u64),
                    (None, Some(l), Some(c), _) => {
                        line_ok(l) && c >= 1 && c <= lines[l - 1].len() + 1
                    }
                    (None, Some(l), None, _) => line_ok(l),
                    (None, None, _, Some(b)) => b <= data.len() as u64,
                    _ => p.is_nowhere(),
                }
            };
            let ok = within(&lines) || within(&any_end);
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "{name}: error outside the {} bytes ({} lines): {e} ({e:?})",
                    data.len(),
                    lines.len()
                ))
            }
        }
    }
}

/// The 200 lines of tests/fixtures/dd/dd-reference.jsonl (DDS's tables and par), as JSON.
pub fn dd_reference() -> Vec<serde_json::Value> {
    include_str!("../fixtures/dd/dd-reference.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The table of a [`dd_reference`] line, rows N E S W, columns NT S H D C.
pub fn dd_reference_table(r: &serde_json::Value) -> dealdex::dd::TrickTable {
    let mut t = [[0u8; 5]; 4];
    for (d, seat) in ["N", "E", "S", "W"].iter().enumerate() {
        for (s, strain) in ["NT", "S", "H", "D", "C"].iter().enumerate() {
            t[d][s] = r["tricks"][seat][strain].as_u64().unwrap() as u8;
        }
    }
    dealdex::dd::TrickTable::new(t).unwrap()
}
