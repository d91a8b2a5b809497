//! Library errors say where the problem is (`kind()`, `position()`, as in rust-csv): a bad
//! deal file read from disk names the file, the line and the column.

use dealdex::Classify;
use dealdex::ReadKind;
use dealdex::formats;

use crate::common::read_file;

fn read_error(name: &str, content: &[u8]) -> (std::path::PathBuf, dealdex::Error) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    let format = formats::choose(&path, None).unwrap();
    let e = read_file(&path, format).unwrap_err();
    (path, e)
}

#[test]
fn a_bad_pbn_file_names_file_line_and_column() {
    // Line 3's deal gives the ace of spades to North and to East.
    let text = "% a comment\n[Board \"1\"]\n[Deal \"N:AKQJ.AKQJ.AKQ.AK A987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432\"]\n";
    let (path, e) = read_error("bad.pbn", text.as_bytes());
    assert_eq!(e.read_kind(), Some(ReadKind::Format("not-a-deal")), "{e}");
    let p = e.position().expect("a position");
    assert_eq!(p.file.as_deref(), Some(path.as_path()));
    assert_eq!(p.line, Some(3), "{e}");
    // The second ace of spades: `[Deal "` is 7 bytes, `N:AKQJ.AKQJ.AKQ.AK ` 19 more.
    assert_eq!(p.column, Some(27), "{e}");
    assert!(e.to_string().contains("line 3, column 27"), "{e}");

    let (_, e) = read_error("syntax.pbn", b"[Board \"1\"]\n[Deal \"N:AKQ.x\"]\n");
    assert_eq!(e.read_kind(), Some(ReadKind::Format("malformed")));
    let p = e.position().unwrap();
    assert_eq!((p.line, p.column), (Some(2), Some(14)), "{e}");
}

#[test]
fn a_bad_lin_file_names_file_line_and_column() {
    let text = "qx|o1|\nmd|3SAKQJHAKQJDAKQCAK,SAT98HT987DT98CT9,S6543H6543D765C87|\n";
    let (path, e) = read_error("bad.lin", text.as_bytes());
    assert_eq!(e.read_kind(), Some(ReadKind::Format("not-a-deal")), "{e}");
    let p = e.position().expect("a position");
    assert_eq!(p.file.as_deref(), Some(path.as_path()));
    assert_eq!(p.line, Some(2), "{e}");
    // The md| value, from its first byte.
    assert_eq!(p.column, Some(4), "{e}");
    assert_eq!(p.byte, None);
}

#[test]
fn a_truncated_binary_file_names_record_and_byte() {
    // One whole BER record (52 bytes) and 10 bytes of a second.
    let mut data: Vec<u8> = (0..52).map(|i| b'1' + (i % 4) as u8).collect();
    data.extend_from_slice(&[b'1'; 10]);
    let (path, e) = read_error("short.ber", &data);
    assert_eq!(e.read_kind(), Some(ReadKind::Format("truncated")), "{e}");
    let p = e.position().unwrap();
    assert_eq!(p.file.as_deref(), Some(path.as_path()));
    assert_eq!((p.record, p.byte, p.line), (Some(2), Some(52), None), "{e}");
}

#[test]
fn a_missing_file_names_only_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.pbn");
    let e = read_file(&path, formats::by_name("pbn").unwrap()).unwrap_err();
    assert_eq!(e.read_kind(), Some(ReadKind::Io));
    let p = e.position().unwrap();
    assert_eq!(p.file.as_deref(), Some(path.as_path()));
    assert_eq!(
        (p.line, p.column, p.byte, p.record),
        (None, None, None, None)
    );
}

#[test]
fn a_malformed_description_file_names_file_and_line() {
    use dealdex::event::ErrorKind;
    use dealdex::workflow::event::{PublishJob, publish};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cup.sqd");
    std::fs::write(&file, "TN Cup\r\nDI x\r\nSN 2:1?:A#:a\r\n").unwrap();
    let e = publish(&PublishJob {
        file: file.clone(),
        keys: None,
    })
    .unwrap_err();
    let p = e.position().expect("a position");
    assert_eq!(p.file.as_deref(), Some(file.as_path()));
    assert_eq!(p.line, Some(3), "{e}");
    match e.kind() {
        dealdex::ErrorKind::Event(dealdex::workflow::event::EventKind::Malformed {
            error, ..
        }) => {
            assert!(
                matches!(error.kind(), ErrorKind::Sqd { line: 3, .. }),
                "{error}"
            )
        }
        other => panic!("{other}"),
    }
}

#[test]
fn event_requests_say_what_was_asked() {
    use dealdex::event::{ErrorKind, Event, SessionId};
    let ev = Event::parse("TN x\nSN 2:16:A#:a\n").unwrap();
    let e = ev.phase(3).unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::NoSuchPhase {
            phase: 3,
            phases: 1
        }
    );
    assert_eq!(
        e.to_string(),
        "there is no phase 3: the event has phases 1..1"
    );
    assert_eq!(e.position(), None);
    let id = SessionId {
        phase: 1,
        session: 5,
    };
    let mut ev = ev;
    ev.delayed_value = Some("1".into());
    let e = ev.derivation(id, "k", false).unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::NoSuchSession {
            session: id,
            sessions: 2
        }
    );
    assert_eq!(
        e.to_string(),
        "phase 1 has no session 5 (it has sessions 1..2)"
    );
    let e = "bridge".parse::<dealdex::event::Protocol>().unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnknownProtocol { .. }));
    assert_eq!(
        e.to_string(),
        "unknown protocol \"bridge\" (known: dealdex, squaredeal)"
    );
}

#[test]
fn an_import_keeps_the_readers_kind_and_position_of_a_rejected_file() {
    use dealdex::import::{FileResult, ImportJob, import};
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pbn");
    std::fs::write(&bad, "[Board \"1\"]\n[Deal \"N:AKQ.x\"]\n").unwrap();
    let missing = dir.path().join("none.pbn");
    let pbn = formats::by_name("pbn").unwrap();
    let job = ImportJob::new(vec![(bad.clone(), pbn), (missing.clone(), pbn)]);
    let mut store = dealdex::Store::open_in_memory().unwrap();
    let report = import(&job, &mut store, &mut |_| {}).unwrap();
    let reasons: Vec<_> = report
        .files
        .iter()
        .map(|o| match &o.result {
            FileResult::Rejected { reason } => reason,
            other => panic!("{other:?}"),
        })
        .collect();
    // The message as before (the file named by the outcome, not the reason)...
    assert_eq!(reasons[0].to_string(), reasons[0].reason());
    assert!(
        reasons[0].reason().starts_with("line 2, column 14: "),
        "{}",
        reasons[0]
    );
    // ...and the reader's kind and position, with the file.
    assert_eq!(reasons[0].kind(), Some(ReadKind::Format("malformed")));
    let p = reasons[0].position().unwrap();
    assert_eq!(
        (p.file.as_deref(), p.line, p.column),
        (Some(bad.as_path()), Some(2), Some(14))
    );
    assert_eq!(reasons[1].kind(), Some(ReadKind::Io));
    assert_eq!(
        reasons[1].position().unwrap().file.as_deref(),
        Some(missing.as_path())
    );
    let read = reasons[0].read_error().unwrap();
    assert_eq!(read.class(), dealdex::ErrorClass::BadInput);
    // The JSON report keeps the reason a string.
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["files"][0]["reason"], reasons[0].reason());
}
