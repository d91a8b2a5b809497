//! Secrets are never lost: a fresh seed or event key goes only to a new file (created with
//! O_EXCL, mode 0600, never through a symbolic link). The default seed file name gives way
//! to the next free one; an explicit `--key-file`/`--keys` that exists is refused (exit 2).

use std::path::Path;

use assert_cmd::Command;
use dealdex::{Seed, Store};
use tempfile::TempDir;

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

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Runs `generate --boards 1-4 --out s.pbn` and returns its stderr line.
fn generate_s(dir: &Path, extra: &[&str]) -> (i32, String) {
    let out = dealdex(dir)
        .args(["generate", "--boards", "1-4", "--out", "s.pbn"])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_second_run_keeps_the_first_seed_and_saves_its_own_to_the_next_free_name() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let (code, err) = generate_s(d, &[]);
    assert_eq!(code, 0, "{err}");
    let first = std::fs::read(d.join("s.pbn.seed")).unwrap();
    let (code, err) = generate_s(d, &[]);
    assert_eq!(code, 0, "{err}");
    // The first key file is byte for byte what the first run wrote.
    assert_eq!(std::fs::read(d.join("s.pbn.seed")).unwrap(), first);
    assert!(
        err.contains("seed saved to s.pbn-2.seed (s.pbn.seed exists and is kept)"),
        "{err}"
    );
    let (code, err) = generate_s(d, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("seed saved to s.pbn-3.seed"), "{err}");
    #[cfg(unix)]
    for f in ["s.pbn.seed", "s.pbn-2.seed", "s.pbn-3.seed"] {
        assert_eq!(mode(&d.join(f)), 0o600, "{f}");
    }
    // Each stored set is proven by its own key file: the SHA-256 the set records.
    let store = Store::open(&d.join("dealdex.db")).unwrap();
    for (set, key) in [
        ("s", "s.pbn.seed"),
        ("s-2", "s.pbn-2.seed"),
        ("s-3", "s.pbn-3.seed"),
    ] {
        let info = store.set(set).unwrap().unwrap();
        assert_eq!(
            info.seed_sha256,
            Some(seed_in(&d.join(key)).sha256()),
            "{set}"
        );
    }
    // And regenerates it: the key file names itself in its usage line.
    let text = std::fs::read_to_string(d.join("s.pbn-2.seed")).unwrap();
    assert!(text.contains("--seed-file s.pbn-2.seed"), "{text}");
}

#[test]
fn an_existing_key_file_is_refused_and_nothing_is_stored_or_written() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::write(d.join("k.seed"), "old secret\n").unwrap();
    let (code, err) = generate_s(d, &["--key-file", "k.seed"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("key file k.seed: the file exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(d.join("k.seed")).unwrap(),
        "old secret\n"
    );
    assert!(!d.join("s.pbn").exists());
    assert!(!d.join("dealdex.db").exists() || set_count(d) == 0);

    // The bulk path too.
    let out = dealdex(d)
        .args([
            "generate", "--count", "100", "--format", "hex", "--out", "h.txt",
        ])
        .args(["--key-file", "k.seed", "--db", "bulk.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(d.join("k.seed")).unwrap(),
        "old secret\n"
    );
    assert!(!d.join("h.txt").exists() || std::fs::read(d.join("h.txt")).unwrap().is_empty());
    assert!(!d.join("bulk.db").exists() || deal_count(&d.join("bulk.db")) == 0);

    // A new --key-file is written, 0600.
    let (code, err) = generate_s(d, &["--key-file", "new.seed"]);
    assert_eq!(code, 0, "{err}");
    #[cfg(unix)]
    assert_eq!(mode(&d.join("new.seed")), 0o600);
}

fn set_count(d: &Path) -> i64 {
    let store = Store::open(&d.join("dealdex.db")).unwrap();
    store
        .connection()
        .query_row("SELECT count(*) FROM sets", [], |r| r.get(0))
        .unwrap()
}

fn deal_count(db: &Path) -> u64 {
    Store::open(db).unwrap().deal_count().unwrap()
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_never_followed() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // A link to a file the user can write: it must stay as it is.
    std::fs::write(d.join("victim.txt"), "precious\n").unwrap();
    std::os::unix::fs::symlink(d.join("victim.txt"), d.join("link.seed")).unwrap();
    let (code, err) = generate_s(d, &["--key-file", "link.seed"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("link.seed: a symbolic link exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(d.join("victim.txt")).unwrap(),
        "precious\n"
    );

    // A dangling link must not create its target.
    std::os::unix::fs::symlink(d.join("made.txt"), d.join("dangling.seed")).unwrap();
    let (code, _) = generate_s(d, &["--key-file", "dangling.seed"]);
    assert_eq!(code, 2);
    assert!(!d.join("made.txt").exists());

    // At the default name, the link is passed over like any taken name.
    std::os::unix::fs::symlink(d.join("victim.txt"), d.join("s.pbn.seed")).unwrap();
    let (code, err) = generate_s(d, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("seed saved to s.pbn-2.seed"), "{err}");
    assert_eq!(
        std::fs::read_to_string(d.join("victim.txt")).unwrap(),
        "precious\n"
    );
    assert_eq!(mode(&d.join("s.pbn-2.seed")), 0o600);
}

/// `event new` then `event publish --keys KEYS`; returns publish's exit code and stderr.
fn publish(d: &Path, keys: &str) -> (i32, String) {
    dealdex(d)
        .args([
            "event",
            "new",
            "T.sqd",
            "--name",
            "Cup",
            "--delayed-info",
            "DJI",
        ])
        .args([
            "--phase",
            "1:1-8:RR:Round robin",
            "--protocol",
            "squaredeal",
        ])
        .assert()
        .success();
    let out = dealdex(d)
        .args(["event", "publish", "T.sqd", "--keys", keys])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn event_keys_go_only_to_a_new_private_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let (code, err) = publish(d, "T.sqk");
    assert_eq!(code, 0, "{err}");
    #[cfg(unix)]
    assert_eq!(mode(&d.join("T.sqk")), 0o600);
    // A second event may not reuse the key file.
    let dir2 = TempDir::new().unwrap();
    let d2 = dir2.path();
    std::fs::write(d2.join("T.sqk"), "old keys").unwrap();
    let (code, err) = publish(d2, "T.sqk");
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        std::fs::read_to_string(d2.join("T.sqk")).unwrap(),
        "old keys"
    );
    #[cfg(unix)]
    {
        let dir3 = TempDir::new().unwrap();
        let d3 = dir3.path();
        std::os::unix::fs::symlink(d3.join("elsewhere.txt"), d3.join("K.sqk")).unwrap();
        let (code, err) = publish(d3, "K.sqk");
        assert_eq!(code, 2, "{err}");
        assert!(!d3.join("elsewhere.txt").exists());
        // The description is not marked published when its keys could not be saved.
        let sqd = std::fs::read_to_string(d3.join("T.sqd")).unwrap();
        assert!(!sqd.contains("KH "), "{sqd}");
    }
}
