//! SquareDeal events through the library (SQUAREDEAL.md §2–§4): the published World Bridge
//! Games 2024 and Winter Championships 2025 files parse, their keys hash to KH, and every
//! session regenerates to the published deals.

use std::path::{Path, PathBuf};

use dealdex::Deal;
use dealdex::event::{Boards, Derivation, ErrorKind, Event, FileMatch, Keys, NameMatch, SessionId};
use dealdex::formats::{self, Board};

use crate::common::fixture;

fn event(rel: &str) -> Event {
    Event::parse(&std::fs::read_to_string(fixture(rel)).unwrap()).unwrap()
}

fn keys(rel: &str) -> Keys {
    Keys::parse(&std::fs::read(fixture(rel)).unwrap()).unwrap()
}

fn read_boards(path: &Path) -> Vec<Board> {
    formats::by_path(path)
        .unwrap()
        .read(&std::fs::read(path).unwrap())
        .unwrap()
}

/// Every session of every phase, as (file name, deals), made with the event's DV.
fn all_sessions(ev: &Event, keys: &Keys) -> Vec<(String, Vec<Deal>)> {
    let mut all = Vec::new();
    for (i, p) in ev.phases.iter().enumerate() {
        for s in 1..=p.sessions {
            let (a, b) = p.boards.range(s).unwrap();
            let id = SessionId {
                phase: i as u32 + 1,
                session: s,
            };
            all.push((
                p.session_name(s),
                ev.session_deals(keys, id, false, b - a + 1).unwrap(),
            ));
        }
    }
    all
}

/// Deals one a line, hands N E S W as `S.H.D.C` (the Big Deal repository's `allpbn` files).
fn deal_lines(path: &Path) -> Vec<Deal> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| format!("N:{l}").parse().unwrap())
        .collect()
}

#[test]
fn wbg2024_parses_and_its_keys_hash_to_kh() {
    let ev = event("squaredeal-wbg2024/WBG2024.sqd");
    assert_eq!(ev.name.as_deref(), Some("World Bridge Games 2024"));
    assert_eq!(ev.delayed_info.as_deref(), Some("DJI1910"));
    assert_eq!(ev.delayed_value.as_deref(), Some("43275.91"));
    assert_eq!(ev.phases.len(), 7);
    assert_eq!(ev.phases[3].boards, Boards::Ranges(vec![(1, 20)]));
    assert_eq!(
        ev.phases[0].text,
        "17:1-16,17-32:OPRR##:Open Round Robin #/17"
    );
    assert_eq!(
        hex::encode(ev.key_hash.unwrap()),
        "bd4a46bea10ad8d20abd580f6be8869ef7772191ee9f6851cb1ab25df52a573e"
    );
    let k = keys("squaredeal-wbg2024/WBG2024.sqk");
    assert!(k.is_canonical());
    assert_eq!(k.len(), 90);
    ev.check_keys(&k).unwrap();
    assert!(ev.missing_keys(&k).is_empty() && ev.extra_keys(&k).is_empty());
}

/// SQUAREDEAL.md §3: the derivation of session 1,1.
#[test]
fn wbg2024_session_1_1_derivation() {
    let ev = event("squaredeal-wbg2024/WBG2024.sqd");
    let k = keys("squaredeal-wbg2024/WBG2024.sqk");
    let id = SessionId {
        phase: 1,
        session: 1,
    };
    let d = ev.derivation(id, k.get(id).unwrap(), false).unwrap();
    let Derivation::BigDeal { wizard, entropy } = &d else {
        panic!("a SquareDeal event derives through Big Deal: {d:?}")
    };
    assert_eq!(wizard, b"hrzkVbQb9F0QhgIYEwfBUwKjNHDoGZ");
    assert_eq!(
        entropy.concat(),
        b"XMYxVBbJZaWXnJf233CI5MJo7buhPRNDMyNzUuOTE=original"
    );
    let s = d.stream().unwrap();
    assert_eq!(
        hex::encode_upper(s.seed_random()),
        "648CC374641E68A57C20772F6ACF5D4565033E8F"
    );
    let reserve = ev.derivation(id, k.get(id).unwrap(), true).unwrap();
    let Derivation::BigDeal { entropy, .. } = reserve else {
        panic!("Big Deal")
    };
    assert!(entropy.concat().ends_with(b"=reserve"));
}

#[test]
fn wbg2024_published_sessions_regenerate() {
    let ev = event("squaredeal-wbg2024/WBG2024.sqd");
    let k = keys("squaredeal-wbg2024/WBG2024.sqk");
    for (name, first_board) in [
        ("OPRR01", 1),
        ("OPRR02", 17),
        ("MXRR03", 21),
        ("R161", 1),
        ("FIN6", 17),
    ] {
        let published = read_boards(&fixture(&format!("squaredeal-wbg2024/{name}.pbn")));
        let m = ev.match_file(name).unwrap();
        let NameMatch::Session(s) = m.name else {
            panic!("{name}: {m:?}")
        };
        let id = SessionId {
            phase: m.phase,
            session: s,
        };
        let (a, b) = ev.phase(m.phase).unwrap().boards.range(s).unwrap();
        assert_eq!(a, first_board, "{name}");
        assert_eq!(published[0].number, Some(a), "{name}");
        let deals = ev.session_deals(&k, id, false, b - a + 1).unwrap();
        let got: Vec<Deal> = published.iter().map(|b| b.deal).collect();
        assert_eq!(got, deals, "{name}");
    }
}

#[test]
fn wbg2024_whole_event_in_file_name_order() {
    let ev = event("squaredeal-wbg2024/WBG2024.sqd");
    let k = keys("squaredeal-wbg2024/WBG2024.sqk");
    let mut all = all_sessions(&ev, &k);
    assert_eq!(all.len(), 90);
    all.sort_by(|x, y| x.0.cmp(&y.0));
    let deals: Vec<Deal> = all.into_iter().flat_map(|(_, d)| d).collect();
    assert_eq!(deals.len(), 1186);
    assert_eq!(deals, deal_lines(&fixture("bigdeal-wbg2024-deals.txt")));
}

/// The same event with DV `43275.90`: the Big Deal repository's negative case.
#[test]
fn wbg2024_with_a_wrong_value_is_allpbn_minusone() {
    let mut ev = event("squaredeal-wbg2024/WBG2024.sqd");
    ev.delayed_value = Some("43275.90".into());
    let k = keys("squaredeal-wbg2024/WBG2024.sqk");
    ev.check_keys(&k).unwrap(); // KH covers only the keys (SQUAREDEAL.md §5)
    let mut all = all_sessions(&ev, &k);
    all.sort_by(|x, y| x.0.cmp(&y.0));
    let deals: Vec<Deal> = all.into_iter().flat_map(|(_, d)| d).collect();
    let minusone = deal_lines(&fixture("squaredeal-wbg2024/allpbn.minusone"));
    assert_eq!(deals, minusone);
    let actual = deal_lines(&fixture("bigdeal-wbg2024-deals.txt"));
    assert_eq!(deals.iter().zip(&actual).filter(|(a, b)| a == b).count(), 0);
}

/// WC 2025: LF `.sqd`, DV with a thousands separator used verbatim, a `?` phase; every
/// session file and every joined file regenerates.
#[test]
fn wc2025_every_file_regenerates() {
    let ev = event("squaredeal-wc2025/WC2025.sqd");
    assert_eq!(ev.delayed_value.as_deref(), Some("44,882.13"));
    assert_eq!(ev.phases[8].boards, Boards::Unknown);
    let k = keys("squaredeal-wc2025/WC2025.sqk");
    ev.check_keys(&k).unwrap();
    let mut sessions = 0;
    let mut joined = 0;
    let mut boards = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture("squaredeal-wc2025"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pbn"))
        .collect();
    files.sort();
    for path in files {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let published = read_boards(&path);
        let m: FileMatch = ev.match_file(stem).unwrap();
        let phase = ev.phase(m.phase).unwrap();
        let mut deals = Vec::new();
        for s in m.sessions() {
            let n = match phase.boards.range(s) {
                Some((a, b)) => b - a + 1,
                // `?`: every BAMFIN session has the file's count.
                None => published.len() as u64,
            };
            let id = SessionId {
                phase: m.phase,
                session: s,
            };
            deals.extend(ev.session_deals(&k, id, false, n).unwrap());
        }
        let got: Vec<Deal> = published.iter().map(|b| b.deal).collect();
        assert_eq!(got, deals, "{stem}");
        match m.name {
            NameMatch::Session(_) => {
                sessions += 1;
                boards += got.len();
            }
            NameMatch::Joined(..) => joined += 1,
        }
    }
    assert_eq!((sessions, boards, joined), (45, 617, 18));
}

#[test]
fn a_key_file_with_lf_line_ends_still_verifies() {
    let ev = event("squaredeal-wbg2024/WBG2024.sqd");
    let crlf = std::fs::read(fixture("squaredeal-wbg2024/WBG2024.sqk")).unwrap();
    let lf: Vec<u8> = String::from_utf8(crlf)
        .unwrap()
        .replace("\r\n", "\n")
        .into_bytes();
    let k = Keys::parse(&lf).unwrap();
    assert!(!k.is_canonical());
    ev.check_keys(&k).unwrap();
}

#[test]
fn missing_and_wrong_keys_are_named() {
    let ev = event("squaredeal-wbg2024/WBG2024.sqd");
    let text = std::fs::read_to_string(fixture("squaredeal-wbg2024/WBG2024.sqk")).unwrap();
    let without: String = text
        .split_inclusive("\r\n")
        .filter(|l| !l.starts_with("4,2:"))
        .collect();
    let k = Keys::parse(without.as_bytes()).unwrap();
    // The hash no longer matches, and the missing session is named.
    assert!(matches!(
        ev.check_keys(&k).map_err(|e| e.into_kind()),
        Err(ErrorKind::KeyHash { .. })
    ));
    assert_eq!(
        ev.missing_keys(&k),
        [SessionId {
            phase: 4,
            session: 2
        }]
    );
    let mut unpublished = ev.clone();
    unpublished.key_hash = Some(k.hash());
    assert_eq!(
        unpublished.check_keys(&k).unwrap_err().to_string(),
        "the key file has no key for session 4,2 (R162)"
    );
    let e = ev
        .session_deals(
            &k,
            SessionId {
                phase: 4,
                session: 2,
            },
            false,
            20,
        )
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::MissingKey { .. }));
}

#[test]
fn file_names_match_sessions_joins_and_reserves() {
    let ev = event("squaredeal-wc2025/WC2025.sqd");
    let m = |s: &str| ev.match_file(s);
    assert_eq!(
        m("SWISS01-03"),
        Some(FileMatch {
            phase: 1,
            name: NameMatch::Joined(1, 3),
            reserve: false
        })
    );
    assert_eq!(
        m("R163-4"),
        Some(FileMatch {
            phase: 3,
            name: NameMatch::Joined(3, 4),
            reserve: false
        })
    );
    assert_eq!(
        m("BAMFIN2reserve"),
        Some(FileMatch {
            phase: 9,
            name: NameMatch::Session(2),
            reserve: true
        })
    );
    assert_eq!(m("SWISS11"), None);
    assert_eq!(m("R165"), None);
    assert_eq!(m("WC2025"), None);
}
