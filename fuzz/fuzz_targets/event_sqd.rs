//! SquareDeal's description file (`.sqd`, also dealdex-protocol events): what the reader
//! accepts must be written back (`to_sqd`) as the same event, and its sessions named.
#![no_main]

use dealdex::event::Event;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(ev) = Event::parse_bytes(data) else {
        return;
    };
    for crlf in [false, true] {
        let back = Event::parse(&ev.to_sqd(crlf)).expect("to_sqd reads back");
        assert_eq!(back.phases, ev.phases);
        assert_eq!(back.delayed_value, ev.delayed_value);
        assert_eq!(back.key_hash, ev.key_hash);
        assert_eq!(back.protocol, ev.protocol);
    }
    // A variable phase's key is filed under session 0, which names no file; every other
    // session's file name must lead back to a session (`event verify` relies on it).
    for id in ev
        .key_sessions()
        .into_iter()
        .filter(|id| id.session > 0)
        .take(64)
    {
        if let Ok(name) = ev.session_name(id, false) {
            assert!(ev.match_file(&name).is_some(), "{name}");
        }
    }
    let _ = ev.manifest();
});
