//! Issue 27, defects 1, 5 and 9: `generate`'s files and names. An output that is the key file
//! or the database is refused before anything is created (a seed is never replaced by the
//! PBN writer); a rerun with the same seed and range reuses its set (same name, same file);
//! two runs started together get two sets, each with its own key file named for it, and no
//! orphan key file.

use std::path::Path;
use std::process::{Command, Stdio};

use dealdex::Seed;
use tempfile::TempDir;

use crate::common::{entries, stderr};

/// dealdex run in `dir` as a std command (the concurrency test spawns several at once).
fn dealdex(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dealdex"));
    c.current_dir(dir);
    c
}

/// The seed a key file holds (its one line that is not a comment).
fn seed_in(path: &Path) -> Seed {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .find(|l| !l.starts_with('#'))
        .unwrap()
        .parse()
        .unwrap()
}

/// The sets of a database: (name, seed_sha256).
fn sets(db: &Path) -> Vec<(String, Option<[u8; 32]>)> {
    let store = dealdex::ReadOnlyStore::open(db).unwrap();
    let names: Vec<String> = store
        .connection()
        .prepare("SELECT name FROM sets ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    names
        .into_iter()
        .map(|n| {
            let seed = store.set(&n).unwrap().unwrap().seed_sha256;
            (n, seed)
        })
        .collect()
}

#[test]
fn an_output_that_is_the_key_file_or_the_database_is_refused_before_anything_is_created() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("sub")).unwrap();
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["--out", "same.pbn", "--key-file", "same.pbn"],
            "output and key file",
            "same.pbn",
        ),
        (
            &["--out", "same.pbn", "--key-file", "sub/../same.pbn"],
            "output and key file",
            "same.pbn",
        ),
        (
            &["--out", "./x.db", "--format", "pbn", "--db", "x.db"],
            "output and database",
            "./x.db",
        ),
        (
            &["--out", "a.pbn", "--key-file", "x.db", "--db", "./x.db"],
            "key file and database",
            "x.db",
        ),
    ];
    for (args, flags, path) in cases {
        let out = dealdex(d)
            .args(["generate", "--boards", "1-4"])
            .args(*args)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{flags} name the same file, {path}")),
            "{args:?}: {err}"
        );
        // Nothing was created: no database, no key file, no output, no temporary file.
        assert_eq!(entries(d), ["sub"], "{args:?}");
    }
    // A key file read is not overwritten either.
    std::fs::write(d.join("k.seed"), format!("{}\n", "42".repeat(32))).unwrap();
    let out = dealdex(d)
        .args(["generate", "--boards", "1-4", "--seed-file", "k.seed"])
        .args(["--out", "k.seed", "--format", "pbn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("output and seed file name the same file, k.seed"));
    std::fs::remove_file(d.join("k.seed")).unwrap();
    assert_eq!(entries(d), ["sub"]);
    // The bulk path too.
    let out = dealdex(d)
        .args(["generate", "--count", "100", "--out", "h.hex"])
        .args(["--key-file", "h.hex", "--db", "bulk.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(entries(d), ["sub"]);
}

#[test]
fn a_refused_key_file_creates_no_database() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::write(d.join("k.seed"), "old secret\n").unwrap();
    for args in [
        &["--boards", "1-4", "--out", "s.pbn"][..],
        &["--count", "100", "--out", "h.hex", "--db", "bulk.db"][..],
    ] {
        let out = dealdex(d)
            .arg("generate")
            .args(args)
            .args(["--key-file", "k.seed"])
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("key file k.seed: the file exists"), "{err}");
        assert_eq!(entries(d), ["k.seed"], "{args:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(d.join("k.seed")).unwrap(),
            "old secret\n"
        );
    }
}

#[test]
fn a_rerun_with_the_same_seed_and_range_reuses_its_set_and_rewrites_the_same_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let seed = "42".repeat(32);
    let run = |range: &str, seed: &str| {
        let out = dealdex(d)
            .args([
                "generate", "--boards", range, "--seed", seed, "--out", "x.pbn",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        (stderr(&out), std::fs::read(d.join("x.pbn")).unwrap())
    };
    let (_, first) = run("1-8", &seed);
    for _ in 0..2 {
        let (err, again) = run("1-8", &seed);
        assert!(
            err.contains("set \"x\" already in dealdex.db (unchanged)"),
            "{err}"
        );
        assert_eq!(again, first, "the file is rewritten byte for byte");
    }
    assert!(String::from_utf8(first).unwrap().contains("[Event \"x\"]"));
    let x = sets(&d.join("dealdex.db"));
    assert_eq!(x.len(), 1, "{x:?}");
    // The same seed with another range, or another seed: a new set, as before.
    let (err, other) = run("1-4", &seed);
    assert!(err.contains("set \"x-2\" stored"), "{err}");
    assert!(
        String::from_utf8(other)
            .unwrap()
            .contains("[Event \"x-2\"]")
    );
    let (err, _) = run("1-8", &"43".repeat(32));
    assert!(err.contains("set \"x-3\" stored"), "{err}");
    // And each again is recognised under its own name.
    let (err, _) = run("1-4", &seed);
    assert!(err.contains("set \"x-2\" already in"), "{err}");
    assert_eq!(sets(&d.join("dealdex.db")).len(), 3);
}

#[test]
fn generates_started_together_all_succeed_each_set_with_its_own_key_file() {
    const RUNS: usize = 4;
    for round in 0..6 {
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        let children: Vec<_> = (0..RUNS)
            .map(|_| {
                dealdex(d)
                    .args(["generate", "--boards", "1-4", "--out", "s.pbn"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success(), "round {round}: {}", stderr(&out));
        }
        let stored = sets(&d.join("dealdex.db"));
        let names: Vec<&str> = stored.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["s", "s-2", "s-3", "s-4"], "round {round}");
        // Each set's key file is named for it and holds the seed the set records.
        let mut keys = Vec::new();
        for (name, sha) in &stored {
            let key = match name.strip_prefix("s-") {
                Some(k) => format!("s.pbn-{k}.seed"),
                None => "s.pbn.seed".to_owned(),
            };
            assert_eq!(
                Some(seed_in(&d.join(&key)).sha256()),
                *sha,
                "round {round}: {key} and set {name}"
            );
            keys.push(key);
        }
        // No orphan key file, no temporary file: the output, the database and the keys.
        let mut expected: Vec<String> = keys;
        expected.extend(["dealdex.db", "s.pbn"].map(String::from));
        expected.sort();
        let found: Vec<String> = entries(d)
            .into_iter()
            .filter(|f| !f.starts_with("dealdex.db-"))
            .collect();
        assert_eq!(found, expected, "round {round}");
    }
}
