//! `dealdex dealer -l FILE` / `-L FILE` (issue 39, item 3): a script runs over a library of
//! solved deals (GIB's `library.dat`, Pavlicek's `.zrd`) as dealer's `-l` and DealerV2's
//! `-L` do, and `tricks()`, `evalcontract` and `par` look the tricks up in the library's
//! tables: nothing is solved. Fixtures: `tests/fixtures/libraries/README.md`.

use dealdex::formats::{Board, DealFormat, GibLibrary, RpLibrary};
use dealdex::{Seat, Strain, Suit};

use crate::common::{dealdex, fixture, json_report, stderr};

/// The seats and strains in the order the script prints them.
const SEATS: [(&str, Seat); 4] = [
    ("north", Seat::North),
    ("east", Seat::East),
    ("south", Seat::South),
    ("west", Seat::West),
];
const STRAINS: [(&str, Strain); 5] = [
    ("clubs", Strain::Trumps(Suit::Clubs)),
    ("diamonds", Strain::Trumps(Suit::Diamonds)),
    ("hearts", Strain::Trumps(Suit::Hearts)),
    ("spades", Strain::Trumps(Suit::Spades)),
    ("notrump", Strain::NoTrump),
];

/// A script printing each deal (printoneline) and then its 20 `tricks()`, seat by seat,
/// strain by strain, on one line.
fn tricks_script() -> String {
    let calls: Vec<String> = SEATS
        .iter()
        .flat_map(|(seat, _)| {
            STRAINS
                .iter()
                .map(move |(strain, _)| format!("tricks({seat}, {strain})"))
        })
        .collect();
    format!(
        "produce 1000\naction printoneline, printes({}, \\n)\n",
        calls.join(", \" \", ")
    )
}

/// What the script prints for `board`: its printoneline line and its tricks line.
fn expected(board: &Board) -> [String; 2] {
    let deal = board.deal.to_string();
    let hands: Vec<&str> = deal.trim_start_matches("N:").split(' ').collect();
    let line = format!(
        "n {} e {} s {} w {} ",
        hands[0], hands[1], hands[2], hands[3]
    );
    let table = board.dd.expect("a library deal has its table");
    let tricks: Vec<String> = SEATS
        .iter()
        .flat_map(|&(_, seat)| {
            STRAINS
                .iter()
                .map(move |&(_, strain)| table.tricks(seat, strain).to_string())
        })
        .collect();
    [line, tricks.join(" ")]
}

/// Runs the tricks script with `flag FILE` (`-l`, `-L`) over the library `name` and checks
/// that every deal of the library is produced in order with its own table's tricks, and that
/// nothing is solved.
fn check_library(flag: &str, name: &str, boards: &[Board]) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let script = dir.join("t.dei");
    std::fs::write(&script, tricks_script()).unwrap();
    let file = fixture(&format!("libraries/{name}"));
    let (r, lines) = json_report(
        dir,
        &[
            "dealer",
            script.to_str().unwrap(),
            flag,
            file.to_str().unwrap(),
            "--json",
        ],
    );
    let n = boards.len() as u64;
    // The run ends with the library: `produce 1000` is not reached.
    assert_eq!(r["generated"].as_u64(), Some(n), "{r}");
    assert_eq!(r["produced"].as_u64(), Some(n), "{r}");
    assert_eq!(r["solved"].as_u64(), Some(0), "{r}");
    assert_eq!(r["already_solved"].as_u64(), Some(n), "{r}");
    assert_eq!(r["source"].as_str(), Some("file"), "{r}");
    assert_eq!(r["tables_stored"].as_u64(), Some(0), "{r}");
    let want: Vec<String> = boards.iter().flat_map(expected).collect();
    assert_eq!(lines, want);
}

#[test]
fn l_reads_gib_library_dat_and_tricks_are_its_tables() {
    let boards = GibLibrary
        .read(&std::fs::read(fixture("libraries/library.dat")).unwrap())
        .unwrap();
    assert_eq!(boards.len(), 100);
    check_library("-l", "library.dat", &boards);
}

#[test]
fn capital_l_reads_a_zrd_library_and_tricks_are_its_tables() {
    let boards = RpLibrary
        .read(&std::fs::read(fixture("libraries/rpdd_10First.zrd")).unwrap())
        .unwrap();
    assert_eq!(boards.len(), 10);
    check_library("-L", "rpdd_10First.zrd", &boards);
}

#[test]
fn evalcontract_and_par_over_a_library_solve_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let script = dir.join("e.dei");
    std::fs::write(
        &script,
        "condition par(NS) > -100000\naction evalcontract, average \"par\" par(NS)\n",
    )
    .unwrap();
    for (flag, name, n) in [("-l", "library.dat", 100), ("-L", "rpdd_10First.zrd", 10)] {
        let file = fixture(&format!("libraries/{name}"));
        let args = [
            "dealer",
            script.to_str().unwrap(),
            flag,
            file.to_str().unwrap(),
            "--json",
        ];
        let (r, _) = json_report(dir, &args);
        assert_eq!(
            (
                r["produced"].as_u64(),
                r["solved"].as_u64(),
                r["already_solved"].as_u64()
            ),
            (Some(n), Some(0), Some(n)),
            "{flag}: {r}"
        );
    }
    // -p and -g stop a library run early, as they stop a file's.
    let file = fixture("libraries/library.dat");
    let file = file.to_str().unwrap();
    let (r, _) = json_report(
        dir,
        &[
            "dealer",
            script.to_str().unwrap(),
            "-l",
            file,
            "-p",
            "7",
            "--json",
        ],
    );
    assert_eq!(
        (r["produced"].as_u64(), r["solved"].as_u64()),
        (Some(7), Some(0))
    );
}

#[test]
fn bad_library_flags_exit_2_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let script = dir.join("s.dei");
    std::fs::write(&script, "action printoneline\n").unwrap();
    let run = |args: &[&str]| {
        let o = dealdex(dir)
            .arg("dealer")
            .arg(&script)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
        stderr(&o)
    };
    for flag in ["-l", "-L"] {
        let e = run(&[flag, "missing-library.dat"]);
        assert!(e.contains("missing-library.dat"), "{flag}: {e}");
    }
    // A file of the other layout is refused at its first record, named.
    let gib = fixture("libraries/library.dat");
    let e = run(&["-L", gib.to_str().unwrap()]);
    assert!(e.contains("library.dat: record 1"), "{e}");
    // One source at a time.
    for other in [
        &["-L", "b.zrd"][..],
        &["--deals", "b.pbn"],
        &["--set", "s"],
        &["--all"],
    ] {
        let mut args = vec!["-l", "a.dat"];
        args.extend_from_slice(other);
        let e = run(&args);
        assert!(e.contains("cannot be used with"), "{args:?}: {e}");
    }
}
