//! Double-dummy tables and par against DDS itself: the 200 boards of
//! `tests/fixtures/dd/dd-reference.jsonl` (DDS 2.9 through PyPI's endplay; random deals,
//! 13-card suits, void-rich hands, an all-equal table, deals whose par depends on the
//! dealer), every one of the 20 numbers and par for the board's dealer and vulnerability.
//! The solver runs on all 200 when `DEALDEX_FULL_TESTS=1` (`.ci/run` sets it), on every
//! tenth board (20) otherwise; DDS itself (`--solver dds`, its own search behind a binding)
//! on every fourth (50) when full. Par is checked on all 200 either way.

use dealdex::Classify;
use dealdex::dd::TablePar;
use dealdex::dd::{PACKED_LEN, SolveWatch, Solver, TrickTable};
use dealdex::{Deal, Seat, Strain, Suit, Vulnerability};

use crate::common::full_tests;

struct Reference {
    board: u64,
    deal: Deal,
    dealer: Seat,
    vul: Vulnerability,
    tricks: [[u8; 5]; 4],
    score: i32,
    contracts: Vec<String>,
}

fn reference() -> Vec<Reference> {
    let text = include_str!("../fixtures/dd/dd-reference.jsonl");
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let seat = |s: &str| Seat::from_char(s.chars().next().unwrap()).unwrap();
            let mut tricks = [[0u8; 5]; 4];
            for (d, who) in ["N", "E", "S", "W"].iter().enumerate() {
                for (s, strain) in ["NT", "S", "H", "D", "C"].iter().enumerate() {
                    tricks[d][s] = v["tricks"][who][strain].as_u64().unwrap() as u8;
                }
            }
            Reference {
                board: v["board"].as_u64().unwrap(),
                deal: v["deal"].as_str().unwrap().parse().unwrap(),
                dealer: seat(v["dealer"].as_str().unwrap()),
                vul: v["vul"].as_str().unwrap().parse().unwrap(),
                tricks,
                score: v["par"]["score"].as_i64().unwrap() as i32,
                contracts: v["par"]["contracts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_owned())
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn every_table_and_par_matches_dds() {
    tables_and_par_match_dds(Solver::Pons);
}

/// The same boards solved by DDS itself (3.1, through dds-bridge-sys) against DDS 2.9's
/// tables through endplay.
#[cfg(feature = "dds")]
#[test]
fn dds_itself_gives_every_table_and_par_of_the_reference() {
    dealdex_dds::install();
    tables_and_par_match_dds(Solver::Dds);
}

/// Every `step`-th reference item is solved: 2 for dealdex's own solver in full (100 boards,
/// 150 lead positions, the quick subset among them: all 200 took a minute of CI's CPU, and
/// the solver is the locked pons-dds, `the_recorded_solver_is_the_locked_pons_dds`), 4 for
/// DDS itself in full (its binding is what is tested: the search is DDS's), 10 in the quick
/// run.
pub(crate) fn subset_step(solver: Solver) -> usize {
    match (full_tests(), solver) {
        (false, _) => 10,
        (true, Solver::Pons) => 2,
        (true, _) => 4,
    }
}

fn tables_and_par_match_dds(solver: Solver) {
    let boards = reference();
    assert_eq!(boards.len(), 200);
    // The quick subset: boards 1, 11, …, 191 (three hand-made deals, 17 random ones). DDS
    // itself, whose search is not dealdex's, checks its binding on a quarter even in full.
    let step = subset_step(solver);
    if step > 1 {
        eprintln!("{} of the 200 boards solved", 200_usize.div_ceil(step));
    }
    let solved: Vec<&Reference> = boards.iter().step_by(step).collect();
    let deals: Vec<Deal> = solved.iter().map(|b| b.deal).collect();
    let tables = solver.with(|| dealdex::dd::solve_all(&deals)).unwrap();
    let mut wrong = Vec::new();
    for (b, t) in solved.iter().zip(&tables) {
        if t.rows() != b.tricks {
            wrong.push(format!(
                "board {}: tricks {:?}, DDS {:?}",
                b.board,
                t.rows(),
                b.tricks
            ));
        }
    }
    for b in &boards {
        // Par from DDS's own table, so a trick mismatch is not counted twice.
        let par = TrickTable::new(b.tricks).unwrap().par(b.dealer, b.vul);
        let got: Vec<String> = par.contracts.iter().map(|c| c.to_string()).collect();
        if par.score != b.score || got != b.contracts {
            wrong.push(format!(
                "board {}: par {} {:?}, DDS {} {:?}",
                b.board, par.score, got, b.score, b.contracts
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} mismatches:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Par depends on the dealer when both sides can make the same level: board 8 (dealer W)
/// and board 17 (dealer N) are the same deal with opposite par.
#[test]
fn par_depends_on_the_dealer() {
    let boards = reference();
    let (b8, b17) = (&boards[7], &boards[16]);
    assert_eq!(b8.deal, b17.deal);
    let t = TrickTable::new(b8.tricks).unwrap();
    let west = t.par(Seat::West, Vulnerability::None);
    let north = t.par(Seat::North, Vulnerability::None);
    assert_eq!((west.score, north.score), (-90, 90));
    assert_eq!(west.to_string(), "-90 1NTE 1NTW");
    assert_eq!(north.to_string(), "+90 1NTN 1NTS");
}

#[test]
fn packed_tables_round_trip_and_reject_bad_bytes() {
    for b in reference() {
        let t = TrickTable::new(b.tricks).unwrap();
        let bytes = t.to_bytes();
        assert_eq!(bytes.len(), PACKED_LEN);
        assert_eq!(TrickTable::from_bytes(&bytes).unwrap(), t);
    }
    // Declarer-major, NT first, high nibble first.
    let mut rows = [[0u8; 5]; 4];
    rows[0][0] = 13;
    rows[3][4] = 1;
    let t = TrickTable::new(rows).unwrap();
    assert_eq!(t.to_bytes(), [0xD0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01]);
    assert_eq!(t.tricks(Seat::North, Strain::NoTrump), 13);
    assert_eq!(t.tricks(Seat::West, Strain::Trumps(Suit::Clubs)), 1);
    assert!(TrickTable::from_bytes(&[0xE0; 10]).is_err());
    assert!(TrickTable::from_bytes(&[0; 9]).is_err());
    assert!(TrickTable::new([[14, 0, 0, 0, 0]; 4]).is_err());
}

/// The solver recorded as the source of solved tables (migration 07) names the pons-dds
/// version this build links (Cargo.lock), so a stored `solved by pons-dds X` is true.
#[test]
fn the_recorded_solver_is_the_locked_pons_dds() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    let at = lock.find("name = \"pons-dds\"\nversion = \"").unwrap();
    let rest = &lock[at + "name = \"pons-dds\"\nversion = \"".len()..];
    let version = &rest[..rest.find('"').unwrap()];
    assert_eq!(
        dealdex::dd::Solver::Pons.name(),
        format!("pons-dds {version}")
    );
}

/// A deal given more than once in a batch is solved once and its table given at every place,
/// by both solvers; the watch counts every deal given.
#[test]
fn repeated_deals_get_their_table_at_every_place() {
    let boards = reference();
    let (a, b) = (boards[20].deal, boards[21].deal);
    let batch = [a, b, a, a, b];
    let want = [boards[20].tricks, boards[21].tricks];
    for solver in Solver::ALL.into_iter().filter(|s| s.is_built()) {
        let watch = SolveWatch::new();
        let tables = solver
            .with(|| dealdex::dd::solve_on(&batch, 2, &watch))
            .unwrap()
            .unwrap();
        let got: Vec<[[u8; 5]; 4]> = tables.iter().map(TrickTable::rows).collect();
        assert_eq!(
            got,
            [want[0], want[1], want[0], want[0], want[1]],
            "{solver}"
        );
        assert_eq!(watch.solved(), 5, "{solver}");
    }
}

/// The name recorded for DDS's tables names the dds-bridge-sys version this build links.
#[cfg(feature = "dds")]
#[test]
fn the_recorded_dds_is_the_locked_dds_bridge_sys() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    let key = "name = \"dds-bridge-sys\"\nversion = \"";
    let rest = &lock[lock.find(key).unwrap() + key.len()..];
    let version = &rest[..rest.find('"').unwrap()];
    assert!(
        Solver::Dds
            .name()
            .ends_with(&format!("(dds-bridge-sys {version})")),
        "{} against Cargo.lock's {version}",
        Solver::Dds.name()
    );
}

/// `solve_on` on one thread and on three gives DDS's tables in the order given, and a
/// stop part-way ends it with `DdErrorKind::Stopped` counting what was done.
#[test]
fn solve_on_any_thread_count_matches_dds_and_stops_when_asked() {
    use dealdex::dd::{DdErrorKind, SolveWatch, solve_on};
    let boards = reference();
    // Eight random boards, in reverse so that order is not the fixture's by accident.
    let picked: Vec<&Reference> = boards.iter().skip(20).step_by(23).rev().collect();
    let deals: Vec<Deal> = picked.iter().map(|b| b.deal).collect();
    for threads in [1, 3] {
        let watch = SolveWatch::new();
        let tables = solve_on(&deals, threads, &watch).unwrap();
        assert_eq!(watch.solved(), deals.len());
        for (b, t) in picked.iter().zip(&tables) {
            assert_eq!(
                t.rows(),
                b.tricks,
                "board {} on {threads} thread(s)",
                b.board
            );
        }
    }
    let many: Vec<Deal> = boards.iter().skip(3).take(60).map(|b| b.deal).collect();
    let watch = SolveWatch::new();
    let stopped = std::thread::scope(|s| {
        let job = s.spawn(|| solve_on(&many, 1, &watch));
        while watch.solved() < 1 && !job.is_finished() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        watch.stop();
        job.join().unwrap()
    });
    let error = stopped.unwrap_err();
    assert_eq!(error.class(), dealdex::ErrorClass::Interrupted);
    let DdErrorKind::Stopped { solved, total } = *error.kind() else {
        panic!("{error}")
    };
    assert_eq!(total, 60);
    assert!((1..60).contains(&solved), "stopped after {solved}");
    assert!(watch.stopped());
}
