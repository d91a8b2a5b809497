//! Played boards (issue 53): BBO vugraph match files (tests/fixtures/vugraph, from Hammond's
//! archive) imported, exported and converted without losing the rooms, players, contracts,
//! declarers and results.

use assert_cmd::Command;
use tempfile::TempDir;

use crate::common::{dealdex, fixture};
use dealdex::formats::{self, PlayedBoard, played_board};
use dealdex::{DealIndex, Seat, Strain, Suit, Vulnerability};

fn stderr(cmd: &mut Command) -> String {
    String::from_utf8(cmd.assert().success().get_output().stderr.clone()).unwrap()
}

/// The played boards of a file, in file order.
fn played(path: &std::path::Path) -> Vec<PlayedBoard> {
    let data = std::fs::read(path).unwrap();
    let f = formats::by_path(path).unwrap();
    f.read_all(&data)
        .unwrap()
        .boards
        .iter()
        .map(|b| played_board(b).expect("a played board"))
        .collect()
}

#[test]
fn import_then_export_keeps_contract_declarer_result_and_players() {
    let dir = TempDir::new().unwrap();
    let lin = fixture("vugraph/05000.lin");
    let out = stderr(
        dealdex(dir.path())
            .arg("import")
            .arg(&lin)
            .args(["--set", "jpd"]),
    );
    // 16 boards at two tables, both stored: one deal a board.
    assert!(
        out.contains("05000.lin: 32 boards read (lin), 16 new, 16 duplicates"),
        "{out}"
    );
    assert!(out.contains("; 32 boards played (32 new)"), "{out}");
    for to in ["jpd.pbn", "jpd.lin"] {
        dealdex(dir.path())
            .args(["export", "--set", "jpd", "--out", to])
            .assert()
            .success();
        let back = played(&dir.path().join(to));
        let want = played(&lin);
        assert_eq!(back.len(), want.len(), "{to}");
        for (got, want) in back.iter().zip(&want) {
            let b = want.number.unwrap();
            assert_eq!(got.number, want.number, "{to} board {b}");
            assert_eq!(got.room, want.room, "{to} board {b}");
            assert_eq!(got.players, want.players, "{to} board {b}");
            assert_eq!(got.contract, want.contract, "{to} board {b}");
            assert_eq!(got.result, want.result, "{to} board {b}");
            assert_eq!(got.auction, want.auction, "{to} board {b}");
            assert_eq!(got.play, want.play, "{to} board {b}");
        }
    }
    // No more "?" for the players, contract, declarer and result.
    let pbn = std::fs::read_to_string(dir.path().join("jpd.pbn")).unwrap();
    assert!(pbn.contains("[South \"Liu HT\"]\n[Dealer \"N\"]"), "{pbn}");
    assert!(
        pbn.contains("[Declarer \"N\"]\n[Contract \"2S\"]\n[Result \"9\"]"),
        "{pbn}"
    );
    assert!(pbn.contains("[Room \"Closed\"]"), "{pbn}");
    assert!(!pbn.contains("[Declarer \"?\"]"), "{pbn}");
    // The match's event (LIN's vg header), not the set's name.
    assert_eq!(
        pbn.matches("[Event \"China JPD Cup 2006\"]").count(),
        32,
        "{pbn}"
    );
}

#[test]
fn convert_lin_to_pbn_keeps_the_tables_and_lin_to_lin_is_byte_for_byte() {
    let dir = TempDir::new().unwrap();
    let lin = fixture("vugraph/04056.lin");
    dealdex(dir.path())
        .arg("convert")
        .arg(&lin)
        .arg("m.pbn")
        .assert()
        .success();
    dealdex(dir.path())
        .arg("convert")
        .arg(&lin)
        .arg("m.lin")
        .assert()
        .success();
    assert_eq!(
        std::fs::read(dir.path().join("m.lin")).unwrap(),
        std::fs::read(&lin).unwrap()
    );
    let pbn = std::fs::read_to_string(dir.path().join("m.pbn")).unwrap();
    assert!(
        pbn.contains("[Event \"Norwegian Premier League\"]"),
        "{pbn}"
    );
    assert!(pbn.contains("[South \"Helgemo\"]"), "{pbn}");
    assert!(
        pbn.contains("[Declarer \"S\"]\n[Contract \"3NT\"]\n[Result \"11\"]"),
        "{pbn}"
    );
    let (a, b) = (played(&lin), played(&dir.path().join("m.pbn")));
    assert_eq!(a, b);
}

#[test]
fn an_inconsistent_vugraph_file_imports_with_its_inconsistencies_listed() {
    let dir = TempDir::new().unwrap();
    let out = stderr(
        dealdex(dir.path())
            .arg("import")
            .arg(fixture("vugraph/04020.lin"))
            .args(["--set", "bb"]),
    );
    assert!(
        out.contains("; 7 inconsistent records kept (7 illegal-card)"),
        "{out}"
    );
    assert!(
        out.contains("; inconsistent: board 3, closed room (line 54): illegal-card: pc|D2| is played a second time"),
        "{out}"
    );
}

#[test]
fn a_header_only_vugraph_file_is_reported_and_the_import_goes_on() {
    let dir = TempDir::new().unwrap();
    let out = stderr(
        dealdex(dir.path())
            .arg("import")
            .arg(fixture("vugraph/26000.lin"))
            .arg(fixture("vugraph/30000.lin"))
            .arg(fixture("vugraph/05000.lin")),
    );
    assert!(
        out.contains("26000.lin: no boards: header only (lin)"),
        "{out}"
    );
    assert!(
        out.contains("30000.lin: no boards: header only (lin)"),
        "{out}"
    );
    assert!(out.contains("05000.lin: 32 boards read (lin)"), "{out}");
    assert!(out.contains("0 files rejected"), "{out}");
    // A LIN file without a board that is no vugraph header is still refused.
    std::fs::write(dir.path().join("empty.lin"), "\n").unwrap();
    dealdex(dir.path())
        .args(["import", "empty.lin"])
        .assert()
        .code(2);
}

/// `judge` over four matches of the vugraph sample (109 table records: `judge` solves each
/// deal's table for par, about 0.3 s of CPU a deal, so not all 14 files): every stored
/// judgement equals `analyse_play` run on the board directly, the report's totals are the sum
/// of each board's [`PlayAnalysis`], and a second run judges nothing.
#[test]
fn judge_stores_every_played_card_once_as_analyse_play_gives_it() {
    use dealdex::dd::{PlayAnalysis, PlayedBoard, analyse_play};
    let dir = TempDir::new().unwrap();
    let mut import = dealdex(dir.path());
    import.arg("import");
    for f in ["05000", "02000", "04056", "23000"] {
        import.arg(fixture(&format!("vugraph/{f}.lin")));
    }
    import.assert().success();
    let db = dir.path().join("dealdex.db");
    let todo = dealdex::Store::open(&db)
        .unwrap()
        .played_to_judge(0, usize::MAX)
        .unwrap();
    assert!(todo.len() > 100, "{}", todo.len());
    let out = dealdex(dir.path())
        .args(["judge", "--batch", "50", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let judged = dealdex::Store::open(&db).unwrap().judged_played().unwrap();
    assert_eq!(judged.len(), todo.len());
    let (mut declarer_lost, mut defence_lost, mut cards, mut boards) = (0u64, 0u64, 0u64, 0u64);
    for (k, (p, j)) in todo.iter().zip(&judged).enumerate() {
        assert_eq!(p.id, j.id);
        let strain = match p.contract.as_bytes().get(1) {
            Some(b'C') => Some(Strain::Trumps(Suit::Clubs)),
            Some(b'D') => Some(Strain::Trumps(Suit::Diamonds)),
            Some(b'H') => Some(Strain::Trumps(Suit::Hearts)),
            Some(b'S') => Some(Strain::Trumps(Suit::Spades)),
            Some(b'N') => Some(Strain::NoTrump),
            _ => None,
        };
        let (Some(strain), Ok(tricks)) = (strain, &j.tricks) else {
            continue;
        };
        let board = PlayedBoard {
            deal: p.deal.to_deal().unwrap(),
            strain,
            declarer: p.declarer,
            cards: p.cards.clone(),
        };
        let seats = board.seats().unwrap();
        let played: Vec<_> = seats.into_iter().zip(board.cards.iter().copied()).collect();
        let a = PlayAnalysis::from_tricks(p.declarer, &played, tricks.clone());
        // Migration 12's summary is the analysis's.
        let summary = j.summary.expect("a judged board has its summary");
        assert_eq!(
            (
                summary.declarer_lost,
                summary.defence_lost,
                Some(summary.lead_cost)
            ),
            (a.declarer_lost, a.defence_lost, a.lead_cost),
            "played row {}",
            p.id
        );
        // Every fifth board solved again directly.
        if k % 5 == 0 {
            assert_eq!(analyse_play(&board).unwrap(), a, "played row {}", p.id);
        }
        declarer_lost += u64::from(a.declarer_lost);
        defence_lost += u64::from(a.defence_lost);
        cards += board.cards.len() as u64;
        boards += 1;
    }
    assert_eq!(report["boards"], boards);
    assert_eq!(report["cards"], cards);
    assert_eq!(report["declarer_lost"], declarer_lost);
    assert_eq!(report["defence_lost"], defence_lost);
    assert_eq!(
        report["boards"].as_u64().unwrap() + report["faults"].as_u64().unwrap(),
        todo.len() as u64
    );
    // A rerun judges nothing new.
    let again = dealdex(dir.path())
        .args(["judge", "--json"])
        .output()
        .unwrap();
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        (again["boards"].as_u64(), again["faults"].as_u64()),
        (Some(0), Some(0))
    );
    played_queries_and_reports(dir.path(), &db);
}

/// `query --played` over the judged sample: each query's records are the stored rows a
/// filter written here in Rust keeps, and the report's figures are recomputed here from
/// those rows.
fn played_queries_and_reports(dir: &std::path::Path, db: &std::path::Path) {
    let judged = Judged::read(dir, db);
    judged.par_and_a_known_board();
    judged.queries_keep_what_rust_filters_keep();
    judged.report_by_players();
    // The text listing: a line a record, the contract and its declarer apart.
    let out = dealdex(dir)
        .args(["query", "--played"])
        .arg("event = \"China JPD Cup 2006\" and board = 9 and room = open")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "China JPD Cup 2006  - 9 Open  3NT by S 8 tricks  NS -50  par 920  lost: declarer 1 defence 0 lead 0\n1 played boards\n"
    );
    // Played terms are refused where deals are searched, naming the term.
    let out = dealdex(dir)
        .args(["query", "contract = 3NT", "--count"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("contract = 3NT is about a played board"),
        "{err}"
    );
    assert!(err.contains("[--played]"), "{err}");
}

/// `dealdex query --played EXPR --json [EXTRA…]` in `dir`, its report.
fn played_query(dir: &std::path::Path, expr: &str, extra: &[&str]) -> serde_json::Value {
    let out = dealdex(dir)
        .args(["query", "--played", expr, "--json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{expr}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A query report's record ids, sorted.
fn ids(v: &serde_json::Value) -> Vec<i64> {
    let mut ids: Vec<i64> = v["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    ids
}

fn int(r: &serde_json::Value, k: &str) -> Option<i64> {
    r[k].as_i64()
}

fn text(r: &serde_json::Value, k: &str) -> Option<String> {
    r[k].as_str().map(str::to_owned)
}

/// The player at seat `k` (0 = North … 3 = West), trimmed: a row names them by seat.
fn player(r: &serde_json::Value, k: usize) -> Option<&str> {
    r[["north", "east", "south", "west"][k]]
        .as_str()
        .map(str::trim)
}

fn contract(r: &serde_json::Value) -> String {
    text(r, "contract").unwrap_or_default().to_ascii_uppercase()
}

fn level(r: &serde_json::Value) -> Option<i64> {
    contract(r)
        .bytes()
        .next()
        .filter(u8::is_ascii_digit)
        .map(|b| i64::from(b - b'0'))
}

fn strain(r: &serde_json::Value) -> Option<Strain> {
    Strain::from_bid(&contract(r))
}

fn seat(r: &serde_json::Value, k: &str) -> Option<Seat> {
    text(r, k)
        .and_then(|s| s.chars().next())
        .and_then(Seat::from_char)
}

/// The judged sample as `query --played` lists it, with each record's deal, dealer and
/// vulnerability read from the store itself.
struct Judged<'d> {
    dir: &'d std::path::Path,
    rows: Vec<serde_json::Value>,
    deals: std::collections::HashMap<i64, (DealIndex, String, String)>,
    store: dealdex::Store,
    /// The first record's first player, and its event.
    name: String,
    event: String,
}

impl<'d> Judged<'d> {
    fn read(dir: &'d std::path::Path, db: &std::path::Path) -> Judged<'d> {
        // Every stored record (a deal term true of every deal).
        let all = played_query(dir, "hcp(N) >= 0", &[]);
        let rows = all["boards"].as_array().unwrap().clone();
        assert_eq!(rows.len(), 109, "every record of the four matches");
        let store = dealdex::Store::open(db).unwrap();
        let mut deals = std::collections::HashMap::new();
        {
            let mut stmt = store
                .connection()
                .prepare("SELECT id, deal, dealer, vulnerable FROM played")
                .unwrap();
            let mut q = stmt.query([]).unwrap();
            while let Some(r) = q.next().unwrap() {
                let key: Vec<u8> = r.get(1).unwrap();
                let dealer: String = r.get(2).unwrap();
                let vul: String = r.get(3).unwrap();
                deals.insert(
                    r.get::<_, i64>(0).unwrap(),
                    (DealIndex(key.try_into().unwrap()), dealer, vul),
                );
            }
        }
        let name = player(&rows[0], 0).unwrap().to_owned();
        let event = text(&rows[0], "event").unwrap();
        Judged {
            dir,
            rows,
            deals,
            store,
            name,
            event,
        }
    }

    /// The tricks `who` takes in `strain` double dummy on record `r`'s deal (its stored table).
    fn dd(&self, r: &serde_json::Value, who: Seat, strain: Strain) -> Option<i64> {
        let (key, ..) = &self.deals[&r["id"].as_i64().unwrap()];
        self.store
            .dd_table(key)
            .unwrap()
            .map(|t| i64::from(t.tricks(who, strain)))
    }

    /// Par against the stored (solved) table, every row, a few tables solved again; and a
    /// board checked by hand.
    fn par_and_a_known_board(&self) {
        use dealdex::dd::TablePar;
        for (k, r) in self.rows.iter().enumerate() {
            let (key, dealer, vul) = &self.deals[&r["id"].as_i64().unwrap()];
            let table = self
                .store
                .dd_table(key)
                .unwrap()
                .expect("judge solved every deal");
            if k % 60 == 0 {
                assert_eq!(table, dealdex::dd::solve(&key.to_deal().unwrap()));
            }
            let dealer = Seat::from_char(dealer.chars().next().unwrap()).unwrap();
            let vul: Vulnerability = vul.parse().unwrap();
            assert_eq!(
                int(r, "par_ns"),
                Some(i64::from(table.par(dealer, vul).score))
            );
        }
        // China JPD Cup 2006, board 9, open room: 3NT by South, 8 tricks (down one,
        // North-South not vulnerable: -50), 9 tricks double dummy before the lead, the
        // defence never erred.
        let jpd = self
            .rows
            .iter()
            .find(|r| {
                text(r, "event").as_deref() == Some("China JPD Cup 2006")
                    && int(r, "board") == Some(9)
                    && text(r, "room").as_deref() == Some("Open")
            })
            .unwrap();
        assert_eq!(
            (
                contract(jpd),
                text(jpd, "declarer"),
                int(jpd, "tricks"),
                int(jpd, "score_ns")
            ),
            ("3NT".to_owned(), Some("S".to_owned()), Some(8), Some(-50))
        );
        assert_eq!(
            (int(jpd, "declarer_lost"), int(jpd, "defence_lost")),
            (Some(1), Some(0))
        );
        assert_eq!(self.dd(jpd, Seat::South, Strain::NoTrump), Some(9));
    }

    /// Six queries: each one's records are the rows its filter written here keeps.
    fn queries_keep_what_rust_filters_keep(&self) {
        type Filter<'a> = Box<dyn Fn(&serde_json::Value) -> bool + 'a>;
        let (name, event) = (&self.name, &self.event);
        let ns = |s: Option<Seat>| matches!(s, Some(Seat::North | Seat::South));
        let cases: Vec<(String, Filter)> = vec![
            (
                "contract = 3NT and result < 0 and dd(declarer, strain) >= 9".into(),
                Box::new(|r| {
                    level(r) == Some(3)
                        && strain(r) == Some(Strain::NoTrump)
                        && int(r, "tricks").is_some_and(|t| t < 9)
                        && seat(r, "declarer").and_then(|d| self.dd(r, d, Strain::NoTrump))
                            >= Some(9)
                }),
            ),
            (
                "lost(defence) >= 1 and room = open".into(),
                Box::new(|r| {
                    int(r, "defence_lost") >= Some(1) && text(r, "room").as_deref() == Some("Open")
                }),
            ),
            (
                format!("player = \"{}\"", name.to_ascii_uppercase()),
                Box::new(|r| {
                    (0..4).any(|k| player(r, k).is_some_and(|p| p.eq_ignore_ascii_case(name)))
                }),
            ),
            (
                "score - par < 0 and declarer = NS".into(),
                Box::new(|r| {
                    matches!((int(r, "score_ns"), int(r, "par_ns")), (Some(s), Some(p)) if s < p)
                        && ns(seat(r, "declarer"))
                }),
            ),
            (
                "lead_cost >= 1 or contract = 4HX or contract = 4SX".into(),
                Box::new(|r| {
                    int(r, "lead_cost") >= Some(1) || ["4HX", "4SX"].contains(&contract(r).as_str())
                }),
            ),
            (
                format!("event = \"{event}\" and strain = hearts and not declarer = W"),
                Box::new(|r| {
                    text(r, "event").as_deref() == Some(event.as_str())
                        && strain(r) == Some(Strain::Trumps(Suit::Hearts))
                        && seat(r, "declarer") != Some(Seat::West)
                }),
            ),
        ];
        for (expr, keep) in &cases {
            let mut want: Vec<i64> = self
                .rows
                .iter()
                .filter(|r| keep(r))
                .map(|r| r["id"].as_i64().unwrap())
                .collect();
            want.sort_unstable();
            let got = played_query(self.dir, expr, &[]);
            assert_eq!(ids(&got), want, "{expr}");
            assert_eq!(got["count"].as_u64(), Some(want.len() as u64), "{expr}");
        }
        assert!(
            !ids(&played_query(self.dir, &cases[0].0, &[])).is_empty(),
            "the issue's example finds boards"
        );
    }

    /// The report over one event, by players, recomputed from its rows: the first player's
    /// lead errors, defence and declarer tricks lost; par against the result.
    fn report_by_players(&self) {
        let (name, event) = (&self.name, &self.event);
        let expr = format!("event = \"{event}\"");
        let report = played_query(self.dir, &expr, &["--report", "players"]);
        let selected: Vec<&serde_json::Value> = self
            .rows
            .iter()
            .filter(|r| text(r, "event").as_deref() == Some(event.as_str()))
            .collect();
        assert_eq!(report["boards"].as_u64(), Some(selected.len() as u64));
        let seat_of = |r: &serde_json::Value| (0..4).find(|&k| player(r, k) == Some(name.as_str()));
        let (mut boards, mut leads, mut errors, mut defence, mut declaring) =
            (0u64, 0u64, 0u64, Vec::new(), Vec::new());
        for r in &selected {
            let Some(k) = seat_of(r) else { continue };
            boards += 1;
            let me = [Seat::North, Seat::East, Seat::South, Seat::West][k];
            if seat(r, "leader") == Some(me)
                && let Some(c) = int(r, "lead_cost")
            {
                leads += 1;
                errors += u64::from(c >= 1);
            }
            if let Some(d) = seat(r, "declarer") {
                if d == me
                    && let Some(l) = int(r, "declarer_lost")
                {
                    declaring.push(l as f64);
                }
                if d != me
                    && d != me.rotate(2)
                    && let Some(l) = int(r, "defence_lost")
                {
                    defence.push(l as f64);
                }
            }
        }
        let figures = report["people"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name.as_str())
            .unwrap();
        assert_eq!(figures["boards"].as_u64(), Some(boards));
        assert!(
            leads > 0 && defence.len() > 1 && declaring.len() > 1,
            "{name}: too few boards"
        );
        let p = errors as f64 / leads as f64;
        assert_eq!(figures["lead_errors"]["n"].as_u64(), Some(leads));
        close(&figures["lead_errors"]["mean"], p);
        close(
            &figures["lead_errors"]["standard_error"],
            (p * (1.0 - p) / leads as f64).sqrt(),
        );
        for (v, got) in [
            (&defence, &figures["defence_lost"]),
            (&declaring, &figures["declarer_lost"]),
        ] {
            let n = v.len() as f64;
            let mean = v.iter().sum::<f64>() / n;
            let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            assert_eq!(got["n"].as_u64(), Some(v.len() as u64));
            close(&got["mean"], mean);
            close(&got["standard_error"], sd / n.sqrt());
        }
        par_against_result(&report, &selected);
    }
}

/// `v` is `want` to 1e-9.
fn close(v: &serde_json::Value, want: f64) {
    assert!((v.as_f64().unwrap() - want).abs() < 1e-9, "{v} {want}");
}

/// The report's par against the result for its one event (the share at par, the IMP
/// buckets), recomputed from the event's rows.
fn par_against_result(report: &serde_json::Value, selected: &[&serde_json::Value]) {
    let scored: Vec<(i64, i64)> = selected
        .iter()
        .filter_map(|r| Some((int(r, "score_ns")?, int(r, "par_ns")?)))
        .collect();
    let events = report["events"].as_array().unwrap();
    assert_eq!(events.len(), 1);
    let at_par = scored.iter().filter(|(s, p)| s == p).count();
    assert_eq!(events[0]["boards"].as_u64(), Some(scored.len() as u64));
    close(
        &events[0]["at_par"]["mean"],
        at_par as f64 / scored.len() as f64,
    );
    let imps = events[0]["imps"].as_array().unwrap();
    let buckets: u64 = imps.iter().map(|b| b[1].as_u64().unwrap()).sum();
    assert_eq!(buckets, scored.len() as u64);
    let zero = imps
        .iter()
        .find(|b| b[0] == 0)
        .map_or(0, |b| b[1].as_u64().unwrap());
    assert!(zero >= at_par as u64);
}
