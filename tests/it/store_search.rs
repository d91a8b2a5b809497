//! The store's queries by filter and scope (`Store::find_deals`, `count_deals`,
//! `for_each_key`, the explain texts) and its read-only opening (`Store::open_read_only`,
//! `ReadOnlyStore::open`), in the library and through `dealdex query`, `stats`, `sql` and
//! `lookup`: readers never create, migrate or write a database file.

use std::path::{Path, PathBuf};

use dealdex::query::Query;
use dealdex::{
    Deal, DealIndex, NewSet, ReadOnlyStore, Scheme, Seed, Store, StoreError, StoreErrorKind,
};
use predicates::prelude::*;
use rusqlite::Connection;
use tempfile::TempDir;

use crate::common::dealdex;

const SEED: &str = "6363636363636363636363636363636363636363636363636363636363636363";

fn deals(n: u64) -> Vec<Deal> {
    let seed: Seed = SEED.parse().unwrap();
    (1..=n).map(|k| seed.board_deal(k)).collect()
}

fn new_set(name: &str, last_board: u64) -> NewSet {
    NewSet {
        name: name.to_owned(),
        first_board: 1,
        last_board,
        scheme: Scheme::Pavlicek,
        generator: "tests/store_search.rs".to_owned(),
        seed_sha256: None,
    }
}

/// Stores the deals `all` (at least 250) and the set "club": boards 1..=150 hold deals
/// 249 down to 100 (board order is not key order), board 151 deal 249 again. Returns the
/// set's `(board, key)` pairs in board order.
fn sample_store(store: &mut Store, all: &[Deal]) -> Vec<(u64, DealIndex)> {
    let keys: Vec<DealIndex> = all.iter().map(DealIndex::from_deal).collect();
    store.insert_deals(&keys).unwrap();
    // Boards in an order unrelated to key order, one deal at two boards.
    let mut boards: Vec<(u64, DealIndex)> = (0..150u64)
        .map(|b| (b + 1, keys[249 - b as usize]))
        .collect();
    boards.push((151, keys[249]));
    store.store_set(&new_set("club", 151), &boards).unwrap();
    boards
}

const QUERIES: &[&str] = &[
    "hcp(N) >= 15",
    "balanced(S) and hcp(NS) in 20..26",
    "shape(E) = 4432 or len(W, hearts) >= 6",
    "hcp(E) >= 20",
    "not semibalanced(W)",
];

#[test]
fn find_and_count_agree_with_the_rust_filter_in_both_scopes() {
    let all = deals(400);
    let mut store = Store::open_in_memory().unwrap();
    let boards = sample_store(&mut store, &all);
    let mut by_key: Vec<DealIndex> = all.iter().map(DealIndex::from_deal).collect();
    by_key.sort_unstable();
    for expr in QUERIES {
        let q = Query::parse(expr).unwrap();
        let filter = q.to_sql();
        let matches = |k: &DealIndex| q.matches(&k.to_deal().unwrap());
        // Every stored deal once, in key order, without board numbers.
        let want: Vec<(DealIndex, Option<u64>)> = by_key
            .iter()
            .filter(|k| matches(k))
            .map(|&k| (k, None))
            .collect();
        assert!(!want.is_empty(), "{expr}");
        assert_eq!(
            store.find_deals(&filter, None, None).unwrap(),
            want,
            "{expr}"
        );
        assert_eq!(
            store.count_deals(&filter, None).unwrap(),
            want.len() as u64,
            "{expr}"
        );
        assert_eq!(
            store.find_deals(&filter, None, Some(3)).unwrap(),
            want[..want.len().min(3)],
            "{expr}"
        );
        // The set's boards in board order, with their numbers; the repeated deal twice.
        let want: Vec<(DealIndex, Option<u64>)> = boards
            .iter()
            .filter(|(_, k)| matches(k))
            .map(|&(b, k)| (k, Some(b)))
            .collect();
        assert_eq!(
            store.find_deals(&filter, Some("club"), None).unwrap(),
            want,
            "{expr}"
        );
        assert_eq!(
            store.count_deals(&filter, Some("club")).unwrap(),
            want.len() as u64,
            "{expr}"
        );
        assert_eq!(
            store.find_deals(&filter, Some("club"), Some(0)).unwrap(),
            []
        );
        // No such set: nothing, not an error.
        assert_eq!(store.count_deals(&filter, Some("clu")).unwrap(), 0);
        assert!(
            store
                .find_deals(&filter, Some("clu"), None)
                .unwrap()
                .is_empty()
        );
    }
    // A limit above SQLite's i64 is no limit.
    let filter = Query::parse("hcp(N) >= 0").unwrap().to_sql();
    assert_eq!(
        store
            .find_deals(&filter, None, Some(u64::MAX))
            .unwrap()
            .len(),
        400
    );
}

#[test]
fn for_each_key_walks_a_scope_in_order_and_stops_at_an_error() {
    let all = deals(300);
    let mut store = Store::open_in_memory().unwrap();
    let boards = sample_store(&mut store, &all);
    let mut want: Vec<DealIndex> = all.iter().map(DealIndex::from_deal).collect();
    want.sort_unstable();
    let mut got = Vec::new();
    store
        .for_each_key(None, |k| {
            got.push(k);
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert_eq!(got, want);
    got.clear();
    store
        .for_each_key(Some("club"), |k| {
            got.push(k);
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert_eq!(got, boards.iter().map(|&(_, k)| k).collect::<Vec<_>>());
    got.clear();
    store
        .for_each_key(Some("nope"), |k| {
            got.push(k);
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert!(got.is_empty());
    // The callback's error ends the walk and comes back as it is.
    let mut seen = 0;
    let err = store
        .for_each_key(None, |_| {
            seen += 1;
            match seen {
                7 => Err(Stop::Enough),
                _ => Ok(()),
            }
        })
        .unwrap_err();
    assert!(matches!(err, Stop::Enough));
    assert_eq!(seen, 7);
}

/// A caller's error type for the callbacks.
#[derive(Debug)]
enum Stop {
    Enough,
    #[allow(dead_code)]
    Store(StoreError),
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Self {
        Stop::Store(e)
    }
}

/// The text `dealdex query --explain` prints, byte for byte as before the store owned it.
#[test]
fn explain_shows_the_statement_and_its_parameters() {
    let filter = Query::parse("hcp(N) >= 15 and ltc(S) < 8")
        .unwrap()
        .to_sql();
    assert_eq!(filter.clause, "(hcp_n >= ?1 AND ltc(key, 'S') < ?2)");
    let set_from = "deal_features JOIN set_boards ON set_boards.deal = deal_features.key \
                    JOIN sets ON sets.id = set_boards.set_id WHERE sets.name = ?3 AND \
                    ((hcp_n >= ?1 AND ltc(key, 'S') < ?2))";
    assert_eq!(
        dealdex::StoreReader::explain_find_deals(&filter, None, None),
        "SELECT deal_features.key, NULL FROM deal_features WHERE \
         (hcp_n >= ?1 AND ltc(key, 'S') < ?2) ORDER BY deal_features.key\n\
         -- ?1 = Integer(15)\n-- ?2 = Integer(8)\n"
    );
    assert_eq!(
        dealdex::StoreReader::explain_find_deals(&filter, Some("club"), Some(10)),
        format!(
            "SELECT deal_features.key, set_boards.board FROM {set_from} \
             ORDER BY set_boards.board LIMIT 10\n-- ?1 = Integer(15)\n-- ?2 = Integer(8)\n-- ?3 = Text(\"club\")\n"
        )
    );
    assert_eq!(
        dealdex::StoreReader::explain_count_deals(&filter, None),
        "SELECT count(*) FROM deal_features WHERE (hcp_n >= ?1 AND ltc(key, 'S') < ?2)\n\
         -- ?1 = Integer(15)\n-- ?2 = Integer(8)\n"
    );
    assert_eq!(
        dealdex::StoreReader::explain_count_deals(&filter, Some("it's")),
        format!(
            "SELECT count(*) FROM {set_from}\n-- ?1 = Integer(15)\n-- ?2 = Integer(8)\n-- ?3 = Text(\"it's\")\n"
        )
    );
}

/// A set name is a bound value: quotes and SQL in it are only text.
#[test]
fn set_names_are_bound_never_spliced() {
    let all = deals(40);
    let keys: Vec<DealIndex> = all.iter().map(DealIndex::from_deal).collect();
    let mut store = Store::open_in_memory().unwrap();
    let name = "x' OR '1'='1";
    let boards: Vec<(u64, DealIndex)> = (1..=10).map(|b| (b, keys[b as usize])).collect();
    store.store_set(&new_set(name, 10), &boards).unwrap();
    store.insert_deals(&keys).unwrap();
    let filter = Query::parse("hcp(N) >= 0").unwrap().to_sql();
    assert_eq!(store.count_deals(&filter, Some(name)).unwrap(), 10);
    assert_eq!(store.count_deals(&filter, Some("x")).unwrap(), 0);
    let mut n = 0;
    store
        .for_each_key(Some("'; DROP TABLE deals; --"), |_| {
            n += 1;
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert_eq!(n, 0);
    assert_eq!(store.deal_count().unwrap(), 40);
}

/// A file written by the current dealdex, closed (checkpointed) and its bytes.
fn current_db(dir: &Path, n: u64) -> (PathBuf, Vec<Deal>) {
    let path = dir.join("d.db");
    let all = deals(n);
    let mut store = Store::open(&path).unwrap();
    sample_store(&mut store, &all);
    // Deal 0 solved, so the read-only connection's dd functions have a table to read.
    store
        .store_dd(&[(DealIndex::from_deal(&all[0]), dealdex::dd::solve(&all[0]))])
        .unwrap();
    drop(store);
    (path, all)
}

#[test]
fn open_read_only_reads_a_current_file_and_never_writes_it() {
    let dir = TempDir::new().unwrap();
    let (path, all) = current_db(dir.path(), 300);
    let before = std::fs::read(&path).unwrap();
    let store = dealdex::ReadOnlyStore::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), Store::SCHEMA_VERSION);
    assert_eq!(store.deal_count().unwrap(), 300);
    // The SQL functions are registered: feature functions and the dd ones.
    let q = Query::parse("balanced(N) and not semibalanced(S)").unwrap();
    let want = all.iter().filter(|d| q.matches(d)).count() as u64;
    assert_eq!(store.count_deals(&q.to_sql(), None).unwrap(), want);
    let table = dealdex::dd::solve(&all[0]);
    let nt = table.tricks(dealdex::Seat::North, dealdex::Strain::NoTrump);
    let q = Query::parse(&format!("dd(N, nt) = {nt}")).unwrap();
    assert_eq!(
        store.find_deals(&q.to_sql(), None, None).unwrap(),
        [(DealIndex::from_deal(&all[0]), None)]
    );
    assert!(store.set("club").unwrap().is_some());
    // The type has no writing method (a compile_fail doctest of `ReadOnlyStore`); beneath
    // it, SQLite refuses a write through the raw connection.
    assert!(
        store
            .connection()
            .execute("DELETE FROM set_boards", [])
            .is_err()
    );
    drop(store);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(
        Store::open(&path).unwrap().deal_count().unwrap(),
        300,
        "nothing was written"
    );
}

#[test]
fn readers_report_a_missing_file_and_create_nothing() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("none.db");
    let err = dealdex::ReadOnlyStore::open(&path).unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::NoDatabase { .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        format!("no database at {}", path.display())
    );
    let err = ReadOnlyStore::open(&path).unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::NoDatabase { .. }),
        "{err:?}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A database as a dealdex of schema version `version` left it (its first `version`
/// migrations, rollback journal as `Connection::open` makes it), holding `keys`.
fn old_db(path: &Path, version: usize, keys: &[DealIndex]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(version < names.len() && version >= 1);
    let conn = Connection::open(path).unwrap();
    for n in &names[..version] {
        conn.execute_batch(&std::fs::read_to_string(dir.join(n).join("up.sql")).unwrap())
            .unwrap();
    }
    conn.execute_batch(&format!("PRAGMA user_version = {version}"))
        .unwrap();
    for k in keys {
        conn.execute("INSERT INTO deals(key) VALUES (?1)", [&k.0])
            .unwrap();
    }
}

fn user_version(path: &Path) -> i64 {
    Connection::open(path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn readers_refuse_an_older_or_newer_schema_and_leave_the_file_as_it_is() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("old.db");
    let keys: Vec<DealIndex> = deals(20).iter().map(DealIndex::from_deal).collect();
    old_db(&path, 3, &keys);
    let before = std::fs::read(&path).unwrap();
    let files = listing(dir.path());
    let err = dealdex::ReadOnlyStore::open(&path).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            StoreErrorKind::SchemaTooOld {
                found: 3,
                expected: Store::SCHEMA_VERSION,
                ..
            }
        ),
        "{err:?}"
    );
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("{}: schema version 3 ", path.display())),
        "{message}"
    );
    assert!(message.contains("dealdex import"), "{message}");
    let err = ReadOnlyStore::open(&path).unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::SchemaTooOld { found: 3, .. }),
        "{err:?}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(listing(dir.path()), files);

    // A newer file: refused too, untouched.
    let newer = dir.path().join("new.db");
    drop(Store::open(&newer).unwrap());
    Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    let before = std::fs::read(&newer).unwrap();
    for err in [
        dealdex::ReadOnlyStore::open(&newer).unwrap_err(),
        ReadOnlyStore::open(&newer).unwrap_err(),
    ] {
        assert!(
            matches!(
                err.kind(),
                StoreErrorKind::SchemaTooNew {
                    found: 99,
                    expected: Store::SCHEMA_VERSION,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .starts_with(&format!("{}: schema version 99 ", newer.display())),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&newer).unwrap(), before);
    assert_eq!(user_version(&newer), 99);
}

/// `dealdex sql`, `query`, `stats` and `lookup` on a file an older dealdex wrote: exit 2
/// naming the file and the way to upgrade it, and not a byte of it changed; after a
/// writing command (`import`) upgraded it, they read it.
#[test]
fn cli_readers_do_not_upgrade_an_older_database() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let all = deals(30);
    let keys: Vec<DealIndex> = all.iter().map(DealIndex::from_deal).collect();
    let path = d.join("old.db");
    // Version 1: keys only; the upgrade backfills their features (migration 02).
    old_db(&path, 1, &keys);
    let before = std::fs::read(&path).unwrap();
    let files = listing(d);
    let key = keys[0].to_string();
    let readers: [&[&str]; 7] = [
        &["sql", "SELECT count(*) FROM deals"],
        &["sql", "PRAGMA user_version"],
        &["query", "hcp(N) >= 10", "--count"],
        &["query", "hcp(N) >= 10"],
        &["stats"],
        &["stats", "--set", "s"],
        &["lookup", &key],
    ];
    for args in readers {
        dealdex(d)
            .args(args)
            .args(["--db", "old.db"])
            .assert()
            .code(2)
            .stdout(predicate::str::contains("stored").not())
            .stderr(predicate::str::contains(
                "old.db: schema version 1 is older than version",
            ))
            .stderr(predicate::str::contains("dealdex import"));
        assert_eq!(std::fs::read(&path).unwrap(), before, "{args:?}");
        assert_eq!(user_version(&path), 1, "{args:?}");
        assert_eq!(listing(d), files, "{args:?}");
    }
    // --explain needs no database at all.
    dealdex(d)
        .args(["query", "hcp(N) >= 10", "--explain", "--db", "old.db"])
        .assert()
        .success()
        .stdout("SELECT deal_features.key, NULL FROM deal_features WHERE hcp_n >= ?1 ORDER BY deal_features.key\n-- ?1 = Integer(10)\n");

    // A writing command upgrades it; then the readers read it.
    dealdex(d)
        .args(["generate", "--boards", "1-4", "--seed", SEED, "--no-db"])
        .args(["--out", "s.pbn", "-q"])
        .assert()
        .success();
    dealdex(d)
        .args(["import", "s.pbn", "--set", "s", "--db", "old.db"])
        .assert()
        .success();
    assert_eq!(user_version(&path), Store::SCHEMA_VERSION as i64);
    let want = all
        .iter()
        .filter(|d| dealdex::features::hcp(d.hand(dealdex::Seat::North)) >= 10)
        .count();
    // The deals of the older file and the 4 boards (deals 1..=4 of the same seed: stored already).
    dealdex(d)
        .args(["query", "hcp(N) >= 10", "--count", "--db", "old.db"])
        .assert()
        .success()
        .stdout(format!("{want}\n"));
    dealdex(d)
        .args(["sql", "SELECT count(*) FROM deals", "--db", "old.db"])
        .assert()
        .success()
        .stdout("count(*)\n30\n");
    dealdex(d)
        .args(["lookup", &key, "--db", "old.db"])
        .assert()
        .success()
        .stdout(predicate::str::contains("stored  yes"));
}

/// Missing database: exit 2 naming it, and no file is made.
#[test]
fn cli_readers_report_a_missing_database_and_create_nothing() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let readers: [&[&str]; 5] = [
        &["sql", "SELECT 1"],
        &["query", "hcp(N) >= 10", "--count"],
        &["query", "hcp(N) >= 10", "--set", "s"],
        &["stats"],
        &["stats", "--set", "s"],
    ];
    for args in readers {
        dealdex(d)
            .args(args)
            .args(["--db", "none.db"])
            .assert()
            .code(2)
            .stderr("dealdex: error: no database at none.db\n");
        assert_eq!(listing(d), Vec::<String>::new(), "{args:?}");
    }
    dealdex(d)
        .args(["lookup", "1", "--db", "none.db"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "stored  no (no database at none.db)",
        ));
    assert_eq!(listing(d), Vec::<String>::new());
}

/// The readers on a current file: same answers as before, and the database file itself is
/// not written (only SQLite's -wal/-shm side files may appear).
#[test]
fn cli_readers_read_a_current_database_without_writing_it() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    dealdex(d)
        .args([
            "generate", "--boards", "1-300", "--seed", SEED, "--name", "club",
        ])
        .args(["--out", "s.pbn", "-q"])
        .assert()
        .success();
    let path = d.join("dealdex.db");
    let before = std::fs::read(&path).unwrap();
    let all = deals(300);
    let q = Query::parse("hcp(N) >= 12 and balanced(N)").unwrap();
    let want: Vec<(u64, &Deal)> = (1..).zip(&all).filter(|(_, d)| q.matches(d)).collect();
    dealdex(d)
        .args([
            "query",
            "hcp(N) >= 12 and balanced(N)",
            "--count",
            "--set",
            "club",
        ])
        .assert()
        .success()
        .stdout(format!("{}\n", want.len()));
    let out = dealdex(d)
        .args([
            "query",
            "hcp(N) >= 12 and balanced(N)",
            "--set",
            "club",
            "--limit",
            "5",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let got: Vec<(DealIndex, Option<u8>)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let h: dealdex::BoardIndex = l.parse().unwrap();
            (h.index, h.cycle)
        })
        .collect();
    let want: Vec<(DealIndex, Option<u8>)> = want
        .iter()
        .take(5)
        .map(|&(b, deal)| (DealIndex::from_deal(deal), Some((b % 16) as u8)))
        .collect();
    assert_eq!(got, want);
    dealdex(d)
        .args(["stats", "--set", "club"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "Set statistics: 300 deals, 1200 hands;",
        ));
    dealdex(d)
        .args(["sql", "SELECT count(*) FROM set_boards"])
        .assert()
        .success()
        .stdout("count(*)\n300\n");
    dealdex(d)
        .args(["lookup", &DealIndex::from_deal(&all[6]).to_string()])
        .assert()
        .success()
        .stdout(predicate::str::contains("set \"club\" board 7"));
    dealdex(d)
        .args(["stats", "--set", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no set named \"nope\""));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// A count over every deal of a file runs one key range a thread (when SQLite would scan the
/// whole table) and sums them: the sum is the number of deals the query matches in Rust, for
/// 1 to 5 threads (ranges of unequal width included), and for queries an index answers.
#[test]
fn counts_over_key_ranges_add_up_to_the_matching_deals() {
    let all = deals(20_000);
    let keys: Vec<DealIndex> = all.iter().map(DealIndex::from_deal).collect();
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("ranges.db");
    let mut store = Some(Store::open(&path).unwrap());
    store.as_mut().unwrap().insert_deals(&keys).unwrap();
    for text in [
        "balanced(N) and hcp(N) in 15..17",
        "hcp(E) >= 20",
        "shape(W) = 5431 or ltc(S) <= 5",
        "not semibalanced(S) and len(NS, spades) >= 8",
        "hcp(N) >= 0",
    ] {
        let query = Query::parse(text).unwrap();
        let want = all.iter().filter(|d| query.matches(d)).count() as u64;
        assert!(want > 0, "{text}");
        for threads in 1..=5 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            // The store moves into the pool and back: a connection is Send, not Sync.
            let s = store.take().unwrap();
            let filter = query.to_sql();
            let (got, s) = pool.install(move || (s.count_deals(&filter, None).unwrap(), s));
            store = Some(s);
            assert_eq!(got, want, "{text} on {threads} threads");
        }
    }
}
