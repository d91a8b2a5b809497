//! `dealdex event … --json` reports, and the event workflows called as library functions
//! (`dealdex::workflow::event`): the reports say what was written, stored and found.

use std::path::Path;

use dealdex::event::{ErrorKind, Protocol};
use dealdex::formats;
use dealdex::workflow::event::{
    self as flow, EventKind, FileOutcome, KeyHashCheck, MakeJob, NewJob, PublishJob, SetValueJob,
    VerifyJob,
};
use dealdex::{Classify, DealFormat, ErrorClass, Scheme, Store};
use serde_json::Value;
use tempfile::TempDir;

use crate::common::{dealdex, fixture};

/// Runs dealdex in `dir` and returns (exit code, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = dealdex(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs a command that must succeed with `--json` and returns its one JSON object; nothing
/// may go to stderr.
fn json_ok(dir: &Path, args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.push("--json");
    let (code, out, err) = run(dir, &args);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert_eq!(err, "", "{args:?}");
    assert_eq!(out.lines().count(), 1, "{out}");
    serde_json::from_str(&out).unwrap()
}

/// A SquareDeal event `T.sqd`: two round-robin sessions of 4 boards, one final of 2.
fn new_squaredeal(d: &Path) -> Value {
    json_ok(
        d,
        &[
            "event",
            "new",
            "T.sqd",
            "--protocol",
            "squaredeal",
            "--name",
            "Test Cup",
            "--delayed-info",
            "DJI close",
            "--phase",
            "2:4:RR:Round robin #",
            "--phase",
            "1:2:FIN:Final",
        ],
    )
}

/// A writable copy of a fixture event's .sqd and .sqk in `dir`.
fn copy_event(dir: &Path, fixture_dir: &str, stem: &str) {
    for ext in ["sqd", "sqk"] {
        let name = format!("{stem}.{ext}");
        let bytes = std::fs::read(fixture(&format!("{fixture_dir}/{name}"))).unwrap();
        std::fs::write(dir.join(&name), bytes).unwrap();
    }
}

#[test]
fn new_publish_set_value_json_reports() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let r = new_squaredeal(d);
    assert_eq!(r["file"], "T.sqd");
    assert_eq!(r["name"], "Test Cup");
    assert_eq!(r["protocol"], "squaredeal");
    assert_eq!(
        (r["phases"].as_u64(), r["sessions"].as_u64()),
        (Some(2), Some(3))
    );
    assert_eq!(r["variable_phases"], 0);
    assert_eq!(r["notes"][0], "file prefix \"RR\" became \"RR#\"");
    assert!(d.join("T.sqd").is_file());

    let r = json_ok(d, &["event", "publish", "T.sqd"]);
    assert_eq!(r["keys_file"], "T.sqk");
    assert_eq!(r["sessions"], 3);
    let kh = r["key_hash"].as_str().unwrap();
    assert_eq!(kh.len(), 64);
    let sqd = std::fs::read_to_string(d.join("T.sqd")).unwrap();
    assert!(sqd.contains(&format!("\nKH {kh}\n")), "{sqd}");

    let r = json_ok(d, &["event", "set-value", "T.sqd", "44,882.13"]);
    assert_eq!(r["recorded"], true);
    assert_eq!(r["value"], "44,882.13");
    assert_eq!(r["value_base64"], "NDQsODgyLjEz");
    assert_eq!(r["spelling_matters"], true);
    assert_eq!(r["replaced"], Value::Null);
    assert_eq!(r["delayed_info"], "DJI close");
    // The same value again records nothing.
    let r = json_ok(d, &["event", "set-value", "T.sqd", "44,882.13"]);
    assert_eq!(r["recorded"], false);
    // Bad input is still an error line and exit code 2 with --json, and no JSON.
    let (code, out, err) = run(d, &["event", "set-value", "T.sqd", "1", "--json"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("; it is replaced only when asked to [--replace]"),
        "{err}"
    );
}

#[test]
fn make_json_reports_files_and_sets() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    new_squaredeal(d);
    json_ok(d, &["event", "publish", "T.sqd"]);
    json_ok(d, &["event", "set-value", "T.sqd", "12"]);
    let r = json_ok(
        d,
        &[
            "event", "make", "T.sqd", "--out", "o", "--format", "pbn", "--format", "dup", "--db",
            "e.db",
        ],
    );
    assert_eq!(r["delayed_value"], "12");
    assert_eq!(r["boards"], 10);
    let sessions = r["sessions"].as_array().unwrap();
    let names: Vec<&str> = sessions
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["RR1", "RR2", "FIN"]);
    assert_eq!(sessions[1]["first_board"], 1);
    assert_eq!(sessions[1]["last_board"], 4);
    assert_eq!(sessions[1]["set"]["name"], "T/RR2");
    assert_eq!(sessions[1]["set"]["already_stored"], false);
    let files = r["files"].as_array().unwrap();
    assert_eq!(files.len(), 6);
    for f in files {
        let path = d.join(f["path"].as_str().unwrap());
        assert_eq!(
            f["bytes"].as_u64().unwrap(),
            std::fs::metadata(&path).unwrap().len()
        );
    }
    assert_eq!(
        (files[0]["format"].as_str(), files[0]["boards"].as_u64()),
        (Some("pbn"), Some(4))
    );
    assert_eq!(files[5]["format"], "dup");
    assert_eq!(r["db"], "e.db");
    assert_eq!(
        (r["sets_stored"].as_u64(), r["new_deals"].as_u64()),
        (Some(3), Some(10))
    );
    // Again: nothing new.
    let r = json_ok(d, &["event", "make", "T.sqd", "--out", "o", "--db", "e.db"]);
    assert_eq!(
        (r["sets_stored"].as_u64(), r["sets_already_stored"].as_u64()),
        (Some(0), Some(3))
    );
    assert_eq!(r["sessions"][0]["set"]["already_stored"], true);
}

#[test]
fn verify_json_reports_sessions_and_the_tampered_board() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    copy_event(d, "squaredeal-wbg2024", "WBG2024");
    let src = fixture("squaredeal-wbg2024");
    for name in ["OPRR01.pbn", "OPRR02.pbn"] {
        std::fs::write(d.join(name), std::fs::read(src.join(name)).unwrap()).unwrap();
    }
    let r = json_ok(
        d,
        &["event", "verify", "WBG2024.sqd", "OPRR01.pbn", "OPRR02.pbn"],
    );
    assert_eq!(r["protocol"], "squaredeal");
    assert_eq!(r["key_hash"]["status"], "key_file");
    assert_eq!(
        r["key_hash"]["key_hash"],
        "bd4a46bea10ad8d20abd580f6be8869ef7772191ee9f6851cb1ab25df52a573e"
    );
    assert_eq!(r["problems"].as_array().unwrap().len(), 0);
    assert_eq!(r["files"][0]["status"], "verified");
    assert_eq!(r["files"][0]["session"]["name"], "OPRR01");
    assert_eq!(
        (
            r["files"][1]["boards"].as_u64(),
            r["files"][1]["matches"].as_u64()
        ),
        (Some(16), Some(16))
    );
    assert_eq!(
        (
            r["boards_compared"].as_u64(),
            r["sessions_verified"].as_u64()
        ),
        (Some(32), Some(2))
    );
    assert_eq!(r["sessions"], 90);

    // Board 20 of OPRR02 (its 4th) gets board 19's deal: exit 1, the report says where.
    let path = d.join("OPRR02.pbn");
    let mut boards = formats::Pbn.read(&std::fs::read(&path).unwrap()).unwrap();
    boards[3].deal = boards[2].deal;
    std::fs::write(
        &path,
        formats::write_set(&formats::Pbn, &boards, &Default::default()).unwrap(),
    )
    .unwrap();
    let (code, out, err) = run(
        d,
        &[
            "event",
            "verify",
            "WBG2024.sqd",
            "OPRR01.pbn",
            "OPRR02.pbn",
            "--json",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        "dealdex: error: verification failed: 1 of 2 files do not match the event\n"
    );
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["problems"][0], "1 of 2 files do not match the event");
    let f = &r["files"][1];
    assert_eq!(f["status"], "differs");
    assert_eq!(f["session"]["phase"], 1);
    assert_eq!(f["session"]["first"], 2);
    assert_eq!(
        (f["boards"].as_u64(), f["matches"].as_u64()),
        (Some(16), Some(15))
    );
    assert_eq!(f["mismatch"]["board"], 20);
    assert_eq!(f["mismatch"]["position"], 4);
    assert_eq!(f["mismatch"]["found"], boards[2].deal.to_string());
    assert_ne!(f["mismatch"]["expected"], f["mismatch"]["found"]);
}

/// new → publish → set-value → make through the library, dealdex protocol: the reports say
/// what was written and stored, and the store holds it.
#[test]
fn library_make_reports_the_files_and_sets_it_wrote() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let sqd = d.join("CUP.sqd");
    let mut job = NewJob::new(
        &sqd,
        "Cup",
        "DJIA close, two decimals",
        vec!["2:8:RR#:Round robin".into(), "1:?:FIN:Final".into()],
    );
    // The dealdex protocol commits to the value's format.
    let e = flow::new_event(&job).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            dealdex::ErrorKind::Event(EventKind::ValueFormatMissing)
        ),
        "{e}"
    );
    assert_eq!(e.class(), ErrorClass::BadInput);
    job.value_format = Some("decimal:2".into());
    let r = flow::new_event(&job).unwrap();
    assert_eq!((r.protocol, r.sessions), (Protocol::Dealdex.name(), 3));

    // Not published: make names the file and the reason, and writes nothing.
    let mut make = MakeJob::new(&sqd, &d.join("boards"));
    make.db = Some(d.join("ev.db"));
    std::fs::write(d.join("CUP.sqk"), "1,1:x\r\n").unwrap();
    match flow::make(&make).unwrap_err().into_kind() {
        dealdex::ErrorKind::Event(EventKind::Event { path, error }) => {
            assert_eq!(
                (path, error.into_kind()),
                (sqd.clone(), ErrorKind::NotPublished)
            );
        }
        e => panic!("{e}"),
    }
    assert!(!d.join("ev.db").exists() && !d.join("boards").exists());
    std::fs::remove_file(d.join("CUP.sqk")).unwrap();

    let p = flow::publish(&PublishJob {
        file: sqd.clone(),
        keys: None,
    })
    .unwrap();
    assert_eq!((p.sessions, p.keys_file.clone()), (3, d.join("CUP.sqk")));
    let v = flow::set_value(&SetValueJob {
        file: sqd.clone(),
        value: "44882.13".into(),
        replace: false,
    })
    .unwrap();
    assert!(v.recorded && v.value_base64.is_none());

    make.formats = ["pbn", "lin"].map(|n| formats::by_name(n).unwrap()).into();
    let r = flow::make(&make).unwrap();
    assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
    assert!(
        r.notes[0].starts_with("phase 2 (FIN) skipped"),
        "{:?}",
        r.notes
    );
    let names: Vec<&str> = r.sessions.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["RR1", "RR2"]);
    assert_eq!((r.boards, r.sets_stored, r.new_deals), (16, 2, 16));
    let files: Vec<(String, &str, u64)> = r
        .files
        .iter()
        .map(|f| {
            assert_eq!(f.bytes, std::fs::metadata(&f.path).unwrap().len());
            (
                f.path.file_name().unwrap().to_string_lossy().into_owned(),
                f.format,
                f.boards,
            )
        })
        .collect();
    assert_eq!(
        files,
        [
            ("RR1.pbn".to_string(), "pbn", 8),
            ("RR1.lin".to_string(), "lin", 8),
            ("RR2.pbn".to_string(), "pbn", 8),
            ("RR2.lin".to_string(), "lin", 8),
        ]
    );
    let store = Store::open(&d.join("ev.db")).unwrap();
    for s in &r.sessions {
        let set = s.set.as_ref().unwrap();
        let info = store.set(&set.name).unwrap().unwrap();
        assert_eq!(
            (info.first_board, info.last_board),
            (s.first_board, s.last_board)
        );
        assert_eq!(hex::encode(info.seed_sha256.unwrap()), s.seed_sha256);
        assert_eq!(info.scheme, Scheme::Pavlicek);
    }

    // The `?` phase with its boards.
    make.phase = Some(2);
    make.boards = Some(flow::parse_boards("12").unwrap());
    let r = flow::make(&make).unwrap();
    assert_eq!((r.sessions.len(), r.boards, r.files.len()), (1, 12, 2));
    assert!(matches!(
        flow::parse_sessions("3-2").map_err(dealdex::Error::into_kind),
        Err(dealdex::ErrorKind::Event(EventKind::Sessions { .. }))
    ));
}

/// verify through the library: a tampered deal is reported with its session and board, the
/// rest verified.
#[test]
fn library_verify_reports_a_tampered_deal_with_its_session_and_board() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    new_squaredeal(d);
    json_ok(d, &["event", "publish", "T.sqd"]);
    std::fs::copy(d.join("T.sqd"), d.join("published.sqd")).unwrap();
    json_ok(d, &["event", "set-value", "T.sqd", "12"]);
    json_ok(d, &["event", "make", "T.sqd", "--out", "o", "--no-db"]);
    let job = VerifyJob {
        event: flow::EventFiles::new(&d.join("T.sqd")),
        published: Some(d.join("published.sqd")),
        files: vec![d.join("o")],
        read: dealdex::workflow::pipeline::ReadAs::default(),
        partial: false,
    };
    let r = flow::verify(&job).unwrap();
    assert!(r.verified(), "{:?}", r.problems);
    assert!(matches!(
        r.key_hash,
        KeyHashCheck::KeyFile {
            crlf_form: false,
            ..
        }
    ));
    assert_eq!(
        (r.session_files, r.sessions_verified, r.boards_compared),
        (3, 3, 10)
    );
    assert!(r.published.as_ref().unwrap().differences.is_empty());

    // Board 3 of RR2: North and South swap hands.
    let path = d.join("o/RR2.pbn");
    let mut boards = formats::Pbn.read(&std::fs::read(&path).unwrap()).unwrap();
    let h = *boards[2].deal.hands();
    let made = boards[2].deal;
    boards[2].deal = dealdex::Deal::new([h[2], h[1], h[0], h[3]]).unwrap();
    std::fs::write(
        &path,
        formats::write_set(&formats::Pbn, &boards, &Default::default()).unwrap(),
    )
    .unwrap();
    let r = flow::verify(&job).unwrap();
    assert!(!r.verified());
    assert_eq!(r.problems, ["1 of 3 files do not match the event"]);
    assert_eq!((r.sessions_verified, r.sessions_without_file), (2, 1));
    let bad: Vec<_> = r.files.iter().filter(|f| !f.ok()).collect();
    assert_eq!(bad.len(), 1);
    let f = bad[0];
    assert_eq!(f.path, path);
    let s = f.session.as_ref().unwrap();
    assert_eq!((s.label(), s.name.as_str()), ("1,2".to_string(), "RR2"));
    assert_eq!((f.boards, f.matches), (Some(4), Some(3)));
    match &f.outcome {
        FileOutcome::Differs {
            expected_boards,
            mismatch,
        } => {
            assert_eq!(*expected_boards, 4);
            assert_eq!((mismatch.position, mismatch.board), (3, Some(3)));
            assert_eq!(mismatch.at(), "board 3");
            assert_eq!(mismatch.expected, Some(made));
            assert_eq!(mismatch.found, Some(boards[2].deal));
        }
        o => panic!("{o:?}"),
    }

    // A changed TN: the published copy's difference is a problem, named.
    let sqd = std::fs::read_to_string(d.join("T.sqd")).unwrap();
    std::fs::write(d.join("T.sqd"), sqd.replace("TN Test Cup", "TN Test Cup 2")).unwrap();
    let r = flow::verify(&job).unwrap();
    let diffs = &r.published.as_ref().unwrap().differences;
    assert_eq!(
        diffs,
        &[
            "TN differs from the published copy: published Some(\"Test Cup\"), now Some(\"Test Cup 2\")"
        ]
    );
    assert_eq!(r.problems[0], diffs[0]);

    // Unreadable input is an error, not a report: a key file that is not there.
    let mut missing = job.clone();
    missing.event.keys = Some(d.join("none.sqk"));
    let e = flow::verify(&missing).unwrap_err();
    assert!(
        matches!(e.kind(), dealdex::ErrorKind::Event(EventKind::Read { path, .. }) if path == &d.join("none.sqk"))
    );
    assert_eq!(e.class(), ErrorClass::BadInput);
}
