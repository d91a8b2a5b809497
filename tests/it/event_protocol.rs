//! dealdex's stricter event protocol, `dealdex-event/1` (docs/event-protocol.md): golden
//! values computed independently from the specification (Python's hashlib over the documented
//! byte layouts), parsing errors, and the whole CLI round trip new → publish → set-value →
//! make → verify with every kind of tampering detected and named.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use dealdex::event::{Derivation, ErrorKind, Event, Keys, Protocol, SessionId};
use dealdex::formats;
use tempfile::TempDir;

// ---------------------------------------------------------------------------------------
// Library: golden values.

const GOLDEN_SQD: &str = "PV dealdex-event/1\nTN Golden Cup\nDI DJIA close 2026-03-20\n\
VF decimal:2\nDV 44882.13\nSN 2:8:RR#:Round robin\nSN 1:12:FIN:Final\n";

fn golden_keys() -> Keys {
    let text = format!(
        "1,1:{}\r\n1,2:{}\r\n2,1:{}\r\n",
        "A".repeat(60),
        "B".repeat(60),
        "C".repeat(60)
    );
    Keys::parse(text.as_bytes()).unwrap()
}

fn id(phase: u32, session: u32) -> SessionId {
    SessionId { phase, session }
}

#[test]
fn golden_manifest_hash_and_session_seeds() {
    let mut ev = Event::parse(GOLDEN_SQD).unwrap();
    assert_eq!(ev.protocol, Protocol::Dealdex);
    let keys = golden_keys();
    ev.commit_keys(&keys).unwrap();
    assert_eq!(
        hex::encode(ev.key_hash.unwrap()),
        "bfe6cb87a6f42dc0f595302a929d763d408efd3ef7a3a322ccf09b2f0ae84440"
    );
    ev.check_keys(&keys).unwrap();
    for (reserve, want) in [
        (
            false,
            "933f76f236b6630e5f9b6eea8a9ff2df5ad455f674135411e0e431ea3b6992e2",
        ),
        (
            true,
            "2a1588c22cc5b837b508ead88eac9c1db152b2c0e923cde3291ad69c0db32586",
        ),
    ] {
        let d = ev
            .derivation(id(1, 2), keys.get(id(1, 2)).unwrap(), reserve)
            .unwrap();
        let Derivation::Seeded(seed) = d else {
            panic!("a dealdex event derives a seed: {d:?}")
        };
        assert_eq!(seed.to_string(), want);
        let deals = ev.session_deals(&keys, id(1, 2), reserve, 8).unwrap();
        let by_seed: Vec<_> = (0..8).map(|k| seed.board_deal(k)).collect();
        assert_eq!(deals, by_seed);
    }
    // The .sqd dealdex writes reads back to the same event, and its KH still verifies.
    let again = Event::parse(&ev.to_sqd(true)).unwrap();
    assert_eq!(again, ev);
    again.check_keys(&keys).unwrap();
}

#[test]
fn sessions_and_reserve_sets_never_share_deals_and_a_count_only_cuts_short() {
    let mut ev = Event::parse(GOLDEN_SQD).unwrap();
    let keys = golden_keys();
    ev.commit_keys(&keys).unwrap();
    let a = ev.session_deals(&keys, id(1, 1), false, 8).unwrap();
    let b = ev.session_deals(&keys, id(1, 2), false, 8).unwrap();
    let r = ev.session_deals(&keys, id(1, 1), true, 8).unwrap();
    assert!(a.iter().all(|d| !b.contains(d) && !r.contains(d)));
    let longer = ev.session_deals(&keys, id(1, 1), false, 20).unwrap();
    assert_eq!(&longer[..8], &a[..]);
}

#[test]
fn every_committed_field_changes_kh_and_is_caught() {
    let keys = golden_keys();
    let mut ev = Event::parse(GOLDEN_SQD).unwrap();
    ev.commit_keys(&keys).unwrap();
    let published = ev.to_sqd(false);
    for (from, to) in [
        ("TN Golden Cup", "TN Golden Cup 2"),
        ("DI DJIA close 2026-03-20", "DI DJIA close 2026-03-21"),
        ("VF decimal:2", "VF decimal:3"),
        ("SN 2:8:RR#:Round robin", "SN 2:9:RR#:Round robin"),
        ("SN 1:12:FIN:Final", "SN 1:12:FINAL:Final"),
    ] {
        assert!(published.contains(from), "{from}");
        let changed = Event::parse(&published.replace(from, to)).unwrap();
        let err = changed.check_keys(&keys).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::ManifestHash { .. }),
            "{to}: {err}"
        );
    }
    // A changed key is named by its session.
    let text = format!(
        "1,1:{}\r\n1,2:{}\r\n2,1:{}\r\n",
        "A".repeat(60),
        "b".repeat(60),
        "C".repeat(60)
    );
    let err = ev
        .check_keys(&Keys::parse(text.as_bytes()).unwrap())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the key of session 1,2 does not match its SH line (not the committed key)"
    );
    // A value in another spelling is refused before any deal is made.
    let mut other = ev.clone();
    other.delayed_value = Some("44,882.13".into());
    let err = other.session_deals(&keys, id(1, 1), false, 1).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ValueMismatch { .. }),
        "{err}"
    );
}

#[test]
fn malformed_dealdex_lines_name_the_line() {
    for (text, line, want) in [
        ("TN x\nPV dealdex-event/2\n", 2, "unknown protocol version"),
        (
            "PV dealdex-event/1\nVF decimal\n",
            2,
            "unknown value format",
        ),
        (
            "PV dealdex-event/1\nSN 0:8:R#:x\n",
            2,
            "needs a number of sessions",
        ),
        (
            "PV dealdex-event/1\nSH 1,1:abc\n",
            2,
            "expected P,S: and 64 hex digits",
        ),
        ("TN x\nVF integer\n", 2, "has no PV line"),
        // Limits that keep a typo from drawing billions of keys or boards.
        (
            "TN x\nSN 4000000000:1:R#:x\n",
            2,
            "too large (at most 10000)",
        ),
        (
            "TN x\nSN 1:1-4000000000:R:x\n",
            2,
            "boards in a session; at most 1000000",
        ),
        (
            &format!(
                "PV dealdex-event/1\nSH 1,1:{0}\nSH 1,1:{0}\n",
                "0".repeat(64)
            ),
            3,
            "a second SH line for session 1,1 (the first is line 2)",
        ),
        // The duplicate's own line, not the first SH line's (which was reported before).
        (
            &format!(
                "PV dealdex-event/1\nSH 1,1:{0}\nSH 1,2:{0}\nTN x\nSH 1,1:{0}\n",
                "0".repeat(64)
            ),
            5,
            "a second SH line for session 1,1 (the first is line 2)",
        ),
    ] {
        match Event::parse(text).map_err(|e| e.into_kind()) {
            Err(ErrorKind::Sqd { line: l, message }) => {
                assert_eq!(l, line, "{text}: {message}");
                assert!(message.contains(want), "{text}: {message}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

/// A `.sqd` that is not UTF-8 is refused naming the line, byte offset and column of the first
/// bad byte (the CLI used to say only "stream did not contain valid UTF-8").
#[test]
fn a_description_file_that_is_not_utf8_names_line_and_byte() {
    let bytes = b"PV dealdex-event/1\r\nTN Caf\xE9 Cup\r\n";
    match Event::parse_bytes(bytes) {
        Err(e) if matches!(e.kind(), ErrorKind::Sqd { .. }) => assert_eq!(
            e.to_string(),
            "line 2: byte offset 26, column 7: byte 0xE9 is not UTF-8 text"
        ),
        other => panic!("{other:?}"),
    }
    let first = Event::parse_bytes(b"\xFF").unwrap_err().to_string();
    assert_eq!(
        first,
        "line 1: byte offset 0, column 1: byte 0xFF is not UTF-8 text"
    );
    let good = "PV dealdex-event/1\nTN Café Cup\n";
    assert_eq!(
        Event::parse_bytes(good.as_bytes()).unwrap(),
        Event::parse(good).unwrap()
    );
}

// ---------------------------------------------------------------------------------------
// CLI round trip.

fn dealdex(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = dealdex(dir, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out + &err
}

/// new → publish → set-value → make (both phases) in `dir`; returns the published copy.
fn made_event(dir: &Path) -> PathBuf {
    ok(
        dir,
        &[
            "event",
            "new",
            "CUP.sqd",
            "--name",
            "Cup 2026",
            "--delayed-info",
            "DJIA close 2026-03-20, two decimals",
            "--value-format",
            "decimal:2",
            "--phase",
            "2:8:RR#:Round robin",
            "--phase",
            "1:?:FIN:Final",
        ],
    );
    ok(dir, &["event", "publish", "CUP.sqd"]);
    let published = dir.join("CUP-published.sqd");
    std::fs::copy(dir.join("CUP.sqd"), &published).unwrap();
    ok(dir, &["event", "set-value", "CUP.sqd", "44882.13"]);
    ok(
        dir,
        &[
            "event", "make", "CUP.sqd", "--out", "boards", "--db", "ev.db",
        ],
    );
    ok(
        dir,
        &[
            "event", "make", "CUP.sqd", "--phase", "2", "--boards", "12", "--out", "boards",
            "--db", "ev.db",
        ],
    );
    published
}

fn verify(dir: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "event",
        "verify",
        "CUP.sqd",
        "--published",
        "CUP-published.sqd",
    ];
    args.extend(extra);
    if !extra.iter().any(|a| a.starts_with("boards")) {
        args.push("boards");
    }
    let (code, out, err) = dealdex(dir, &args);
    (code, out + &err)
}

#[test]
fn round_trip_passes_and_the_files_say_dealdex() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    made_event(d);
    let sqd = std::fs::read_to_string(d.join("CUP.sqd")).unwrap();
    assert!(sqd.contains("\nPV dealdex-event/1\n"), "{sqd}");
    assert_eq!(sqd.matches("\nSH ").count(), 3, "{sqd}");
    let (code, out) = verify(d, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("3 of 3 sessions verified"), "{out}");
    assert!(out.contains("KH: ok, SHA-256 of the manifest"), "{out}");
    let fin = formats::by_path(&d.join("boards/FIN.pbn")).unwrap();
    assert_eq!(
        fin.read(&std::fs::read(d.join("boards/FIN.pbn")).unwrap())
            .unwrap()
            .len(),
        12
    );
    // The key file converted to LF line ends still verifies.
    let keys = std::fs::read_to_string(d.join("CUP.sqk")).unwrap();
    std::fs::write(d.join("CUP.sqk"), keys.replace("\r\n", "\n")).unwrap();
    assert_eq!(verify(d, &[]).0, 0);
    // ... and with a byte-order mark an editor added.
    std::fs::write(d.join("CUP.sqk"), format!("\u{feff}{keys}")).unwrap();
    assert_eq!(verify(d, &[]).0, 0);
}

#[test]
fn a_changed_phase_line_fails_verify_and_says_what() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    made_event(d);
    let sqd = std::fs::read_to_string(d.join("CUP.sqd")).unwrap();
    std::fs::write(
        d.join("CUP.sqd"),
        sqd.replace("SN 1:?:FIN:Final", "SN 1:12:FIN:Final"),
    )
    .unwrap();
    let (code, out) = verify(d, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("a committed line (PV, TN, DI, VF, SN or SH) changed"),
        "{out}"
    );
    assert!(
        out.contains("SN lines differ from the published copy: phase 2"),
        "{out}"
    );
    // The changed line is in the description file, and the message says so (it used to
    // name the key file).
    assert!(
        out.contains("CUP.sqd: the event's manifest hashes to "),
        "{out}"
    );
    let (code, _, err) = dealdex(d, &["event", "make", "CUP.sqd", "--out", "again"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with("dealdex: error: CUP.sqd: the event's manifest hashes to "),
        "{err}"
    );
    assert!(!d.join("again").exists());
}

#[test]
fn a_changed_key_fails_verify_and_names_the_session() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    made_event(d);
    let keys = std::fs::read_to_string(d.join("CUP.sqk")).unwrap();
    let line = keys.lines().find(|l| l.starts_with("1,2:")).unwrap();
    let mut changed = line.to_string();
    let last = changed.pop().unwrap();
    changed.push(if last == 'a' { 'b' } else { 'a' });
    std::fs::write(d.join("CUP.sqk"), keys.replace(line, &changed)).unwrap();
    let (code, out) = verify(d, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("CUP.sqk: the key of session 1,2 does not match its SH line"),
        "{out}"
    );
    let (code, _, err) = dealdex(d, &["event", "make", "CUP.sqd", "--out", "again"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with("dealdex: error: CUP.sqk: the key of session 1,2 does not match"),
        "{err}"
    );
}

#[test]
fn a_changed_value_or_deal_fails_verify_at_the_board() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    made_event(d);
    // Another value (in the declared format) makes other deals.
    ok(
        d,
        &["event", "set-value", "CUP.sqd", "44882.14", "--replace"],
    );
    let (code, out) = verify(d, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("0 of 3 sessions verified") || out.contains("mismatch"),
        "{out}"
    );
    ok(
        d,
        &["event", "set-value", "CUP.sqd", "44882.13", "--replace"],
    );
    assert_eq!(verify(d, &[]).0, 0);
    // One deal changed in a hand record: North and South swap hands on board 3 of RR2.
    let path = d.join("boards/RR2.pbn");
    let f = formats::by_path(&path).unwrap();
    let mut boards = f.read(&std::fs::read(&path).unwrap()).unwrap();
    let h = *boards[2].deal.hands();
    boards[2].deal = dealdex::Deal::new([h[2], h[1], h[0], h[3]]).unwrap();
    let bytes = formats::write_set(f, &boards, &Default::default()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    let (code, out) = verify(d, &[]);
    assert_eq!(code, 1, "{out}");
    let row = out.lines().find(|l| l.contains("RR2.pbn")).unwrap();
    assert!(row.contains("board 3"), "{row}");
}

#[test]
fn keys_revealed_session_by_session_verify_with_partial() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    made_event(d);
    let keys = std::fs::read_to_string(d.join("CUP.sqk")).unwrap();
    let first = keys.lines().next().unwrap();
    assert!(first.starts_with("1,1:"));
    std::fs::write(d.join("CUP.sqk"), format!("{first}\r\n")).unwrap();
    let (code, out) = verify(d, &["--partial", "boards/RR1.pbn"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 of 3 sessions revealed"), "{out}");
    // Without --partial the missing keys are a failure.
    let (code, out) = verify(d, &["boards/RR1.pbn"]);
    assert_eq!(code, 1, "{out}");
}

#[test]
fn bad_protocol_inputs_exit_2_and_write_nothing() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let new = |extra: &[&str]| {
        let mut a = vec![
            "event",
            "new",
            "X.sqd",
            "--name",
            "x",
            "--delayed-info",
            "y",
        ];
        a.extend(extra);
        dealdex(d, &a)
    };
    let (code, _, err) = new(&["--phase", "1:8:R:x"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs a value format"), "{err}");
    let (code, _, err) = new(&["--phase", "0:8:R#:x", "--value-format", "integer"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs a number of sessions"), "{err}");
    let (code, _, err) = new(&["--phase", "1:8:R:x", "--value-format", "decimal:x"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown value format"), "{err}");
    assert!(!d.join("X.sqd").exists());

    ok(
        d,
        &[
            "event",
            "new",
            "X.sqd",
            "--name",
            "x",
            "--delayed-info",
            "y",
            "--phase",
            "1:8:R:x",
            "--value-format",
            "integer",
        ],
    );
    ok(d, &["event", "publish", "X.sqd"]);
    let before = std::fs::read(d.join("X.sqd")).unwrap();
    let (code, _, err) = dealdex(d, &["event", "set-value", "X.sqd", "4,170"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("does not match the declared format integer"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("X.sqd")).unwrap(), before);
}
