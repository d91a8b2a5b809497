//! Integration tests of the SQLite store (src/store.rs).

use std::path::Path;
use std::time::Duration;

use dealdex::{
    Card, Classify, Deal, DealIndex, NewSet, Scheme, Seat, SetBoard, Store, StoreError,
    StoreErrorKind,
};
use rusqlite::Connection;

/// A tiny xorshift64 generator: deterministic keys without the rest of the library.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// 52 two-bit seat codes (FORMATS.md §2: 0 = South, 1 = West, 2 = North, 3 = East), 13 of
/// each, shuffled: the seat of each card in suited order (card `suit * 13 + r`, r = 0 for
/// the ace).
fn random_codes(rng: &mut XorShift) -> [u8; 52] {
    let mut codes = [0u8; 52];
    for (i, c) in codes.iter_mut().enumerate() {
        *c = (i / 13) as u8;
    }
    for i in (1..52).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        codes.swap(i, j);
    }
    codes
}

/// Seat codes packed as FORMATS.md §2 (byte r = (S | H<<2)<<4 | (D | C<<2) for the rank-r
/// cards, suit order S, H, D, C).
fn pack(codes: &[u8; 52]) -> DealIndex {
    let mut out = [0u8; 13];
    for (r, byte) in out.iter_mut().enumerate() {
        let [s, h, d, c] = [0, 1, 2, 3].map(|suit| codes[suit * 13 + r]);
        *byte = (s | h << 2) << 4 | (d | c << 2);
    }
    DealIndex(out)
}

/// A random valid deal index.
fn random_key(rng: &mut XorShift) -> DealIndex {
    pack(&random_codes(rng))
}

fn random_keys(seed: u64, n: usize) -> Vec<DealIndex> {
    let mut rng = XorShift(seed);
    (0..n).map(|_| random_key(&mut rng)).collect()
}

fn new_set(name: &str, seed: Option<[u8; 32]>) -> NewSet {
    NewSet {
        name: name.to_owned(),
        first_board: 1,
        last_board: 32,
        scheme: Scheme::Andrews,
        generator: "tests/store.rs".to_owned(),
        seed_sha256: seed,
    }
}

fn boards(keys: &[DealIndex]) -> Vec<(u64, DealIndex)> {
    keys.iter()
        .enumerate()
        .map(|(i, &k)| (i as u64 + 1, k))
        .collect()
}

/// Every row of every table, for before/after comparisons.
fn dump(store: &Store) -> Vec<String> {
    let conn = store.connection();
    let mut out = Vec::new();
    for sql in [
        "SELECT hex(key) FROM deals ORDER BY key",
        "SELECT id || '|' || name || '|' || first_board || '|' || last_board || '|' || scheme
                || '|' || generator || '|' || created_at || '|' || ifnull(hex(seed_sha256), '-')
         FROM sets ORDER BY id",
        "SELECT set_id || '|' || board || '|' || hex(deal) FROM set_boards ORDER BY set_id, board",
    ] {
        let mut stmt = conn.prepare(sql).unwrap();
        let rows = stmt.query_map([], |r| r.get::<_, String>(0)).unwrap();
        out.extend(rows.map(Result::unwrap));
        out.push("--".to_owned());
    }
    out
}

fn count(store: &Store, table: &str) -> i64 {
    store
        .connection()
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

fn temp_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dealdex.db");
    (dir, path)
}

#[test]
fn generated_keys_are_valid_deals() {
    // Each key decodes to the deal its seat codes say: every card with the seat the test
    // drew for it, 13 cards a hand, 52 different cards; and encodes back to the same key.
    let seat_of_code = [Seat::South, Seat::West, Seat::North, Seat::East];
    let mut rng = XorShift(1);
    for _ in 0..100 {
        let codes = random_codes(&mut rng);
        let key = pack(&codes);
        let deal = key.to_deal().unwrap();
        for (i, &code) in codes.iter().enumerate() {
            let card = Card::from_index(i).unwrap();
            assert_eq!(
                deal.seat_of(card),
                seat_of_code[code as usize],
                "{key} {card}"
            );
        }
        let mut all = 0u64;
        for seat in Seat::ALL {
            let mask = deal.hand(seat).mask();
            assert_eq!(mask.count_ones(), 13, "{key} {seat:?}");
            assert_eq!(all & mask, 0, "{key}: a card in two hands");
            all |= mask;
        }
        assert_eq!(all, (1u64 << 52) - 1, "{key}");
        assert_eq!(DealIndex::from_deal(&deal), key);
        assert_eq!(DealIndex::parse_hex(&key.to_string()).unwrap(), key);
    }
    // The published keys (FORMATS.md §2, tests/fixtures/vectors.json) are their deals.
    for (hex, deal) in [
        (
            "E4E4E4E4E4E4E4E4E4E4E4E4E4",
            "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
        ),
        (
            "1B1B1B1B1B1B1B1B1B1B1B1B1B",
            "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432...",
        ),
        (
            "0EDCCBA0976F2DA4945D8E9DC0",
            "N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76",
        ),
    ] {
        let key = DealIndex::parse_hex(hex).unwrap();
        assert_eq!(
            key.to_deal().unwrap(),
            deal.parse::<Deal>().unwrap(),
            "{hex}"
        );
    }
}

#[test]
fn inserting_the_same_keys_twice_adds_nothing_the_second_time() {
    let mut store = Store::open_in_memory().unwrap();
    let keys = random_keys(2, 1000);
    assert_eq!(store.insert_deals(&keys).unwrap(), 1000);
    assert_eq!(store.deal_count().unwrap(), 1000);
    assert_eq!(store.insert_deals(&keys).unwrap(), 0);
    assert_eq!(store.deal_count().unwrap(), 1000);
    for key in &keys {
        assert!(store.contains(key).unwrap());
    }
    assert!(!store.contains(&random_keys(3, 1)[0]).unwrap());
}

#[test]
fn duplicates_inside_one_batch_count_once() {
    let mut store = Store::open_in_memory().unwrap();
    let keys = random_keys(4, 300);
    assert_eq!(store.insert_deals(&keys[..100]).unwrap(), 100);
    // 300 distinct keys, each given three times, 100 of them already stored.
    let mut batch: Vec<DealIndex> = keys.iter().chain(&keys).chain(&keys).copied().collect();
    batch.reverse();
    assert_eq!(store.insert_deals(&batch).unwrap(), 200);
    assert_eq!(store.deal_count().unwrap(), 300);
    assert_eq!(store.insert_deals(&[]).unwrap(), 0);
}

#[test]
fn batch_sizes_around_the_statement_chunk_all_count_right() {
    let mut store = Store::open_in_memory().unwrap();
    let keys = random_keys(5, 63 + 64 + 65 + 128 + 1);
    let mut total = 0;
    let mut start = 0;
    for n in [63, 64, 65, 128, 1] {
        let batch = &keys[start..start + n];
        // Half of each batch again, so chunks mix new and old keys.
        let mut with_old: Vec<DealIndex> = batch.to_vec();
        with_old.extend_from_slice(&keys[..start / 2]);
        assert_eq!(
            store.insert_deals(&with_old).unwrap(),
            n as u64,
            "batch of {n}"
        );
        total += n as u64;
        start += n;
        assert_eq!(store.deal_count().unwrap(), total);
    }
}

#[test]
fn keys_are_stored_as_13_byte_blobs_in_index_order() {
    let mut store = Store::open_in_memory().unwrap();
    let mut keys = random_keys(6, 500);
    store.insert_deals(&keys).unwrap();
    keys.sort();
    let mut stmt = store
        .connection()
        .prepare("SELECT key, hex(key) FROM deals ORDER BY key")
        .unwrap();
    let stored: Vec<(Vec<u8>, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(stored.len(), keys.len());
    for ((bytes, hex), key) in stored.iter().zip(&keys) {
        assert_eq!(bytes.as_slice(), key.as_bytes());
        assert_eq!(*hex, key.to_string());
    }
}

#[test]
fn store_set_then_query_boards_sets_and_contains() {
    let mut store = Store::open_in_memory().unwrap();
    let keys = random_keys(7, 32);
    // One deal stored beforehand, and one deal played at two boards of the set.
    store.insert_deals(&keys[..1]).unwrap();
    let mut rows = boards(&keys);
    rows[31].1 = keys[0];
    let seed = [0xAB; 32];
    let outcome = store
        .store_set(&new_set("club-night", Some(seed)), &rows)
        .unwrap();
    assert!(!outcome.already_stored);
    assert_eq!(outcome.new_deals, 30); // 31 distinct deals, one already stored
    assert_eq!(store.deal_count().unwrap(), 31);
    assert!(keys.iter().take(31).all(|k| store.contains(k).unwrap()));
    assert!(!store.contains(&keys[31]).unwrap());

    assert_eq!(store.set_boards("club-night").unwrap(), rows);
    assert_eq!(store.set_boards("no-such-set").unwrap(), vec![]);
    assert_eq!(
        store.boards_of(&keys[0]).unwrap(),
        vec![
            SetBoard {
                set_name: "club-night".into(),
                board: 1
            },
            SetBoard {
                set_name: "club-night".into(),
                board: 32
            },
        ]
    );
    assert_eq!(store.boards_of(&keys[31]).unwrap(), vec![]);

    let info = store.set("club-night").unwrap().unwrap();
    assert_eq!(info.id, outcome.set_id);
    assert_eq!(info.name, "club-night");
    assert_eq!((info.first_board, info.last_board), (1, 32));
    assert_eq!(info.scheme, Scheme::Andrews);
    assert_eq!(info.generator, "tests/store.rs");
    assert_eq!(info.seed_sha256, Some(seed));
    let c = info.created_at.as_bytes();
    assert_eq!(c.len(), 20, "{}", info.created_at);
    assert_eq!(
        (c[4], c[7], c[10], c[13], c[16], c[19]),
        (b'-', b'-', b'T', b':', b':', b'Z')
    );
    assert!(store.set("no-such-set").unwrap().is_none());
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn boards_of_orders_by_set_name_then_board() {
    let mut store = Store::open_in_memory().unwrap();
    let keys = random_keys(8, 3);
    let k = keys[0];
    store
        .store_set(&new_set("zeta", None), &[(7, k), (2, k), (3, keys[1])])
        .unwrap();
    store
        .store_set(&new_set("alpha", None), &[(9, k), (4, keys[2])])
        .unwrap();
    let found: Vec<(String, u64)> = store
        .boards_of(&k)
        .unwrap()
        .into_iter()
        .map(|b| (b.set_name, b.board))
        .collect();
    assert_eq!(
        found,
        vec![("alpha".into(), 9), ("zeta".into(), 2), ("zeta".into(), 7)]
    );
}

#[test]
fn identical_store_set_twice_is_already_stored_and_changes_nothing() {
    let mut store = Store::open_in_memory().unwrap();
    let rows = boards(&random_keys(9, 200));
    let set = new_set("weekly", Some([7; 32]));
    let first = store.store_set(&set, &rows).unwrap();
    assert_eq!(first.new_deals, 200);
    let before = dump(&store);

    // Same content, boards in another order and one given twice.
    let mut shuffled: Vec<_> = rows.iter().rev().copied().collect();
    shuffled.push(rows[5]);
    let again = store.store_set(&set, &shuffled).unwrap();
    assert_eq!(
        (again.set_id, again.new_deals, again.already_stored),
        (first.set_id, 0, true)
    );
    assert_eq!(dump(&store), before);
    assert_eq!(count(&store, "sets"), 1);
}

#[test]
fn same_name_with_other_content_is_set_exists_and_changes_nothing() {
    let mut store = Store::open_in_memory().unwrap();
    let keys = random_keys(10, 40);
    let rows = boards(&keys[..20]);
    let set = new_set("final", Some([1; 32]));
    store.store_set(&set, &rows).unwrap();
    let before = dump(&store);

    let mut other_deal = rows.clone();
    other_deal[3].1 = keys[30]; // a deal not stored yet
    let mut extra_board = rows.clone();
    extra_board.push((21, keys[21]));
    let fewer_boards = rows[..19].to_vec();
    let renumbered: Vec<_> = rows.iter().map(|&(b, k)| (b + 1, k)).collect();
    let cases: Vec<(NewSet, Vec<(u64, DealIndex)>)> = vec![
        (new_set("final", Some([2; 32])), rows.clone()),
        (new_set("final", None), rows.clone()),
        (set.clone(), other_deal),
        (set.clone(), extra_board),
        (set.clone(), fewer_boards),
        (set.clone(), renumbered),
        (set.clone(), vec![]),
    ];
    for (i, (candidate, candidate_rows)) in cases.iter().enumerate() {
        match store
            .store_set(candidate, candidate_rows)
            .map_err(StoreError::into_kind)
        {
            Err(StoreErrorKind::SetExists { name }) => assert_eq!(name, "final", "case {i}"),
            other => panic!("case {i}: expected SetExists, got {other:?}"),
        }
        assert_eq!(dump(&store), before, "case {i} changed the database");
    }
    assert!(!store.contains(&keys[30]).unwrap());
    assert_eq!(store.deal_count().unwrap(), 20);
}

#[test]
fn store_set_rejects_bad_boards_without_writing() {
    let mut store = Store::open_in_memory().unwrap();
    let keys = random_keys(11, 3);
    let err = store
        .store_set(
            &new_set("dup", None),
            &[(1, keys[0]), (2, keys[1]), (1, keys[2])],
        )
        .unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::DuplicateBoard { board: 1 }),
        "{err:?}"
    );

    let big = u64::MAX;
    let err = store
        .store_set(&new_set("big", None), &[(big, keys[0])])
        .unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::BoardOutOfRange { board } if *board == big),
        "{err:?}"
    );
    let mut huge_range = new_set("big", None);
    huge_range.last_board = 1 << 63;
    let err = store.store_set(&huge_range, &[]).unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::BoardOutOfRange { .. }),
        "{err:?}"
    );

    // i64::MAX itself fits.
    let mut max = new_set("max", None);
    max.last_board = i64::MAX as u64;
    store
        .store_set(&max, &[(i64::MAX as u64, keys[0])])
        .unwrap();
    assert_eq!(
        store.set_boards("max").unwrap(),
        vec![(i64::MAX as u64, keys[0])]
    );
    assert_eq!(count(&store, "sets"), 1);
    assert_eq!(store.deal_count().unwrap(), 1);
}

#[test]
fn unused_set_name_counts_up_from_2() {
    let mut store = Store::open_in_memory().unwrap();
    assert_eq!(store.unused_set_name("club").unwrap(), "club");
    let key = random_keys(12, 1)[0];
    for expected in ["club", "club-2", "club-3"] {
        let name = store.unused_set_name("club").unwrap();
        assert_eq!(name, expected);
        store.store_set(&new_set(&name, None), &[(1, key)]).unwrap();
    }
    assert_eq!(store.unused_set_name("club").unwrap(), "club-4");
    assert_eq!(store.unused_set_name("club-2").unwrap(), "club-2-2");
}

/// The connection enforces CHECK constraints: the pragma reads 0 and a 2-byte key is refused.
fn assert_checks_are_on(store: &Store) {
    let conn = store.connection();
    let ignored: i64 = conn
        .query_row("PRAGMA ignore_check_constraints", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ignored, 0);
    let err = conn
        .execute("INSERT INTO deals(key) VALUES (X'0011')", [])
        .unwrap_err();
    assert!(err.to_string().contains("CHECK constraint failed"), "{err}");
}

#[test]
fn bulk_inserts_leave_the_check_constraints_on() {
    let (_dir, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let keys = random_keys(29, 300);
    assert_eq!(store.insert_deals(&keys[..100]).unwrap(), 100);
    assert_checks_are_on(&store);
    // One group goes through the multi-row statements, several through one-row ones.
    let one = [keys[100..120].to_vec()];
    assert_eq!(
        new_counts(store.insert_deal_groups(&one, &[]).unwrap()),
        vec![20]
    );
    assert_checks_are_on(&store);
    let groups = [keys[120..160].to_vec(), keys[160..200].to_vec()];
    assert_eq!(
        new_counts(store.insert_deal_groups(&groups, &[]).unwrap()),
        vec![40, 40]
    );
    assert_checks_are_on(&store);
    let outcome = store
        .store_set(&new_set("s", None), &boards(&keys[200..]))
        .unwrap();
    assert_eq!(outcome.new_deals, 100);
    assert_checks_are_on(&store);
    assert_eq!(store.deal_count().unwrap(), 300);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn an_error_mid_batch_rolls_back_that_batch_only() {
    let (_dir, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let keys = random_keys(13, 3000);
    assert_eq!(store.insert_deals(&keys[..1000]).unwrap(), 1000);
    assert_eq!(store.insert_deals(&keys[1000..2000]).unwrap(), 1000);

    // Make SQLite fail on one key that sorts into the middle of the third batch, after
    // hundreds of its rows have been inserted.
    let mut third: Vec<DealIndex> = keys[2000..].to_vec();
    third.sort();
    let poison = third[500];
    store
        .connection()
        .execute_batch(&format!(
            "CREATE TEMP TRIGGER poison BEFORE INSERT ON main.deals
             WHEN NEW.key = X'{poison}' BEGIN SELECT RAISE(ABORT, 'poisoned key'); END;"
        ))
        .unwrap();
    let err = store.insert_deals(&keys[2000..]).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("poisoned key"), "{message}");
    assert!(
        message.starts_with(&path.display().to_string()),
        "{message}"
    );
    assert_eq!(store.deal_count().unwrap(), 2000);
    assert!(!store.contains(&third[0]).unwrap());
    assert!(keys[..2000].iter().all(|k| store.contains(k).unwrap()));
    assert_eq!(store.integrity_check().unwrap(), "ok");

    // store_set fails the same way when one of its deals is poisoned.
    let before = dump(&store);
    let err = store
        .store_set(&new_set("poisoned", None), &boards(&third[490..510]))
        .unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::Sqlite { .. }),
        "{err:?}"
    );
    assert_eq!(dump(&store), before);
    // The CHECK constraints the failed inserts switched off are on again.
    assert_checks_are_on(&store);

    // The store is still usable, and after a reopen everything committed is there.
    store
        .connection()
        .execute_batch("DROP TRIGGER poison")
        .unwrap();
    assert_eq!(store.insert_deals(&keys[2000..]).unwrap(), 1000);
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.deal_count().unwrap(), 3000);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_writer_holding_the_lock_makes_a_batch_fail_cleanly() {
    let (_dir, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let keys = random_keys(14, 200);
    store.insert_deals(&keys[..100]).unwrap();
    store
        .connection()
        .busy_timeout(Duration::from_millis(0))
        .unwrap();

    let other = Connection::open(&path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let err = store.insert_deals(&keys[100..]).unwrap_err();
    // SQLite's busy error, said plainly (issue 50): the file, nothing stored.
    let StoreErrorKind::Busy { path: p, .. } = err.kind() else {
        panic!("expected the busy error, got {err:?}");
    };
    assert_eq!(p, &path.display().to_string());
    assert!(err.is_busy());
    assert!(
        err.to_string().starts_with(&format!(
            "database is busy: another process is writing {}",
            path.display()
        )),
        "{err}"
    );
    let err = store
        .store_set(&new_set("locked", None), &boards(&keys[150..]))
        .unwrap_err();
    assert!(err.to_string().contains("stored nothing"), "{err}");
    // Reads still work while another connection writes (WAL).
    assert_eq!(store.deal_count().unwrap(), 100);
    other.execute_batch("ROLLBACK").unwrap();

    assert_eq!(store.insert_deals(&keys).unwrap(), 100);
    assert_eq!(store.deal_count().unwrap(), 200);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn data_persists_across_reopen_and_migrations_run_once() {
    let (_dir, path) = temp_db();
    let keys = random_keys(15, 100);
    {
        let mut store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), Store::SCHEMA_VERSION);
        store.insert_deals(&keys[..50]).unwrap();
        store
            .store_set(&new_set("kept", Some([9; 32])), &boards(&keys[40..60]))
            .unwrap();
    }
    for _ in 0..2 {
        // A second run of 01-initial would fail on CREATE TABLE.
        let mut store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), Store::SCHEMA_VERSION);
        assert_eq!(store.deal_count().unwrap(), 60);
        assert_eq!(store.set_boards("kept").unwrap(), boards(&keys[40..60]));
        assert_eq!(
            store.set("kept").unwrap().unwrap().seed_sha256,
            Some([9; 32])
        );
        assert!(
            store
                .store_set(&new_set("kept", Some([9; 32])), &boards(&keys[40..60]))
                .unwrap()
                .already_stored
        );
        let objects: Vec<String> = store
            .connection()
            .prepare("SELECT type || ' ' || name FROM sqlite_schema ORDER BY name")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            objects,
            [
                "table dd",
                "table dd_sources",
                "view deal_features",
                "table deals",
                "index deals_strong_e",
                "index deals_strong_n",
                "index deals_strong_s",
                "index deals_strong_w",
                "table leads",
                "table played",
                "table played_dd",
                "index played_event",
                "index played_set_board",
                "index played_unique",
                "table plays",
                "index plays_unique",
                "table set_boards",
                "index set_boards_deal",
                "table sets",
                "index sqlite_autoindex_sets_1",
            ]
        );
        let mode: String = store
            .connection()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let page_size: i64 = store
            .connection()
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap();
        assert_eq!(page_size, 32768);
        let fk: i64 = store
            .connection()
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
        assert_eq!(store.integrity_check().unwrap(), "ok");
    }
}

#[test]
fn deleting_a_set_cascades_to_its_boards_and_keeps_the_deals() {
    let mut store = Store::open_in_memory().unwrap();
    let keys = random_keys(16, 10);
    store
        .store_set(&new_set("gone", None), &boards(&keys))
        .unwrap();
    store
        .connection()
        .execute("DELETE FROM sets WHERE name = 'gone'", [])
        .unwrap();
    assert_eq!(count(&store, "set_boards"), 0);
    assert_eq!(store.deal_count().unwrap(), 10);
    // A deal still referenced by a set cannot be deleted.
    store
        .store_set(&new_set("kept", None), &boards(&keys[..1]))
        .unwrap();
    let err = store
        .connection()
        .execute("DELETE FROM deals WHERE key = ?1", [keys[0].as_bytes()])
        .unwrap_err();
    assert!(err.to_string().contains("FOREIGN KEY"), "{err}");
}

#[test]
fn bad_keys_are_refused_on_write_and_reported_on_read() {
    let mut store = Store::open_in_memory().unwrap();
    for bad in ["X'00'", "'0EDCCBA0976F2DA4945D8E9DC0'", "NULL", "42"] {
        let err = store
            .connection()
            .execute(&format!("INSERT INTO deals(key) VALUES ({bad})"), [])
            .unwrap_err();
        assert!(
            err.to_string().contains("constraint failed"),
            "{bad}: {err}"
        );
    }
    let key = random_keys(17, 1)[0];
    store.store_set(&new_set("ok", None), &[(1, key)]).unwrap();

    // A file altered outside dealdex: a 12-byte key, negative boards, a short hash.
    let conn = store.connection();
    conn.execute_batch(
        "PRAGMA ignore_check_constraints = ON;
         INSERT INTO deals(key) VALUES (X'000102030405060708090A0B');
         INSERT INTO sets(name, first_board, last_board, scheme, generator, seed_sha256)
             VALUES ('bad', -1, 2, 's', 'g', X'01');
         INSERT INTO set_boards(set_id, board, deal)
             SELECT id, 1, X'000102030405060708090A0B' FROM sets WHERE name = 'bad';
         PRAGMA ignore_check_constraints = OFF;",
    )
    .unwrap();
    conn.execute(
        "INSERT INTO set_boards(set_id, board, deal)
         SELECT id, -5, ?1 FROM sets WHERE name = 'bad'",
        [key.as_bytes()],
    )
    .unwrap();
    let err = store.set_boards("bad").unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::CorruptBoard { value: -5 }),
        "{err:?}"
    );
    let err = store.boards_of(&key).unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::CorruptBoard { value: -5 }),
        "{err:?}"
    );
    conn.execute("DELETE FROM set_boards WHERE board = -5", [])
        .unwrap();
    let err = store.set_boards("bad").unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::CorruptKey { len: 12 }),
        "{err:?}"
    );
    let err = store.set("bad").unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::CorruptBoard { value: -1 }),
        "{err:?}"
    );
    conn.execute("UPDATE sets SET first_board = 1 WHERE name = 'bad'", [])
        .unwrap();
    let err = store.set("bad").unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::CorruptSeedHash { len: 1 }),
        "{err:?}"
    );
    let err = store
        .store_set(&new_set("bad", None), &[(1, key)])
        .unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::CorruptSeedHash { len: 1 }),
        "{err:?}"
    );
    // A scheme name dealdex never writes.
    store
        .connection()
        .execute("UPDATE sets SET seed_sha256 = NULL WHERE name = 'bad'", [])
        .unwrap();
    let err = store.set("bad").unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::CorruptScheme { value } if value == "s"),
        "{err:?}"
    );
    assert_eq!(err.class(), dealdex::ErrorClass::CorruptStore);
    // The good set is still readable.
    assert_eq!(store.set_boards("ok").unwrap(), vec![(1, key)]);
    // SQLite's integrity_check re-checks CHECK constraints.
    assert_eq!(
        store.integrity_check().unwrap(),
        "CHECK constraint failed in deals"
    );

    // A board whose deal is missing (foreign keys were off) shows too.
    let conn = store.connection();
    conn.execute_batch(
        "PRAGMA foreign_keys = OFF;
         DELETE FROM deals WHERE key = X'000102030405060708090A0B';
         PRAGMA foreign_keys = ON;",
    )
    .unwrap();
    assert_eq!(
        store.integrity_check().unwrap(),
        "foreign key violation: a row of set_boards references a missing row of deals"
    );
}

#[test]
fn opening_a_file_that_is_not_a_database_names_the_file() {
    let (_dir, path) = temp_db();
    std::fs::write(&path, vec![b'x'; 4096]).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::Sqlite { .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        format!("{}: file is not a database", path.display())
    );
}

#[test]
fn a_database_from_a_newer_schema_is_refused() {
    let (_dir, path) = temp_db();
    drop(Store::open(&path).unwrap());
    Connection::open(&path)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(
        matches!(err.kind(), StoreErrorKind::Migration { .. }),
        "{err:?}"
    );
    let message = err.to_string();
    assert!(
        message
            == format!(
                "{}: cannot migrate the schema: the file's schema version is newer than this dealdex knows",
                path.display()
            ),
        "{message}"
    );
}

#[test]
fn a_missing_directory_is_an_open_error() {
    let (_dir, path) = temp_db();
    let missing = path.join("no/such/dir.db");
    let err = Store::open(Path::new(&missing)).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("{}: ", missing.display())),
        "{err}"
    );
}

#[test]
fn deal_groups_count_each_key_for_the_first_group_that_holds_it() {
    let (_dir, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let keys = random_keys(77, 300);
    store.insert_deals(&keys[..50]).unwrap();
    let groups = vec![
        keys[..100].to_vec(),                        // 50 stored already, 50 new
        keys[80..200].to_vec(),                      // 80..100 counted in group 0: 100 new
        [&keys[150..160], &keys[150..160]].concat(), // all seen before: 0 new
        keys[200..300].to_vec(),                     // 100 new
    ];
    assert_eq!(
        new_counts(store.insert_deal_groups(&groups, &[]).unwrap()),
        vec![50, 100, 0, 100]
    );
    assert_eq!(store.deal_count().unwrap(), 300);
    assert_eq!(
        new_counts(store.insert_deal_groups(&groups, &[]).unwrap()),
        vec![0, 0, 0, 0]
    );
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn the_feature_view_computes_every_column_from_the_key() {
    let (_dir, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let keys = random_keys(31, 50);
    store.insert_deals(&keys).unwrap();
    for k in &keys {
        let deal = k.to_deal().unwrap();
        let (hcp_n, hcp_w, len_e_h, len_s_c): (i64, i64, i64, i64) = store
            .connection()
            .query_row(
                "SELECT hcp_n, hcp_w, len_e_h, len_s_c FROM deal_features WHERE key = ?1",
                [&k.0],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        assert_eq!(
            hcp_n,
            dealdex::features::hcp(deal.hand(dealdex::Seat::North)) as i64
        );
        assert_eq!(
            hcp_w,
            dealdex::features::hcp(deal.hand(dealdex::Seat::West)) as i64
        );
        assert_eq!(
            len_e_h,
            deal.hand(dealdex::Seat::East)
                .suit_len(dealdex::Suit::Hearts) as i64
        );
        assert_eq!(
            len_s_c,
            deal.hand(dealdex::Seat::South)
                .suit_len(dealdex::Suit::Clubs) as i64
        );
    }
    let total: i64 = store
        .connection()
        .query_row(
            "SELECT sum(hcp_n + hcp_e + hcp_s + hcp_w) FROM deal_features",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(total, 40 * 50);
}

#[test]
fn a_version_1_database_gets_its_features_backfilled() {
    let (_dir, path) = temp_db();
    let keys = random_keys(21, 40);
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(include_str!("../../migrations/01-initial/up.sql"))
            .unwrap();
        conn.execute_batch("PRAGMA user_version = 1").unwrap();
        for k in &keys {
            conn.execute("INSERT INTO deals(key) VALUES (?1)", [&k.0])
                .unwrap();
        }
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), Store::SCHEMA_VERSION);
    for k in &keys {
        let deal = k.to_deal().unwrap();
        let (hcp_n, hcp_w, len_e_h): (i64, i64, i64) = store
            .connection()
            .query_row(
                "SELECT hcp_n, hcp_w, len_e_h FROM deal_features WHERE key = ?1",
                [&k.0],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            hcp_n,
            dealdex::features::hcp(deal.hand(dealdex::Seat::North)) as i64
        );
        assert_eq!(
            hcp_w,
            dealdex::features::hcp(deal.hand(dealdex::Seat::West)) as i64
        );
        assert_eq!(
            len_e_h,
            deal.hand(dealdex::Seat::East)
                .suit_len(dealdex::Suit::Hearts) as i64
        );
    }
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

/// Issue 27, defect 12: tables stored before migration 07 recorded no source. They read as
/// of unknown source, and `solve --verify` checks them as it checks files' (they may have
/// been imported); a table solved after the upgrade is recorded as solved here.
#[test]
fn tables_stored_before_sources_were_recorded_are_of_unknown_source() {
    use dealdex::DdSource;
    let (_dir, path) = temp_db();
    let deals: Vec<dealdex::Deal> = random_keys(7, 2)
        .iter()
        .map(|k| k.to_deal().unwrap())
        .collect();
    let keys: Vec<DealIndex> = deals.iter().map(DealIndex::from_deal).collect();
    let tables = dealdex::dd::solve_all(&deals);
    {
        let (conn, version) = database_before(&path, "07");
        assert_eq!(version, 6);
        conn.execute("INSERT INTO deals(key) VALUES (?1)", [&keys[0].0])
            .unwrap();
        conn.execute(
            "INSERT INTO dd(deal, tricks) VALUES (?1, ?2)",
            rusqlite::params![&keys[0].0, &tables[0].to_bytes()],
        )
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), Store::SCHEMA_VERSION);
    assert_eq!(store.dd_source(&keys[0]).unwrap(), Some(DdSource::Unknown));
    store.store_dd(&[(keys[1], tables[1])]).unwrap();
    assert_eq!(
        store.dd_source(&keys[1]).unwrap(),
        Some(DdSource::solved_here())
    );
    let to_verify = store.dd_tables_to_verify(None, None, 10).unwrap();
    assert_eq!(to_verify.len(), 1);
    assert_eq!((to_verify[0].key, to_verify[0].table), (keys[0], tables[0]));
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

/// The migrations whose folder name sorts before `before`, in order, read from `migrations/`.
fn migrations_before(before: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.as_str() < before)
        .collect();
    names.sort();
    names
        .iter()
        .map(|n| std::fs::read_to_string(dir.join(n).join("up.sql")).unwrap())
        .collect()
}

/// A database at `path` as an older dealdex left it: the migrations sorting before `before`
/// applied and counted in `user_version`. Returns the connection and that version.
fn database_before(path: &Path, before: &str) -> (Connection, usize) {
    let conn = Connection::open(path).unwrap();
    let sqls = migrations_before(before);
    for sql in &sqls {
        conn.execute_batch(sql).unwrap();
    }
    conn.execute_batch(&format!("PRAGMA user_version = {}", sqls.len()))
        .unwrap();
    (conn, sqls.len())
}

#[test]
fn an_older_database_gets_the_plays_table() {
    use dealdex::formats::{DealFormat, Pbn};
    let (_dir, path) = temp_db();
    let keys = random_keys(33, 10);
    let before = {
        let (conn, before) = database_before(&path, "04");
        assert!(before >= 2, "01-initial and 02-features at least");
        for k in &keys {
            conn.execute("INSERT INTO deals(key) VALUES (?1)", [&k.0])
                .unwrap();
        }
        let err = conn
            .query_row("SELECT count(*) FROM plays", [], |r| r.get::<_, i64>(0))
            .unwrap_err();
        assert!(err.to_string().contains("no such table: plays"), "{err}");
        before
    };
    let mut store = Store::open(&path).unwrap();
    // Every later migration ran: 04-play, 05-dd, 06-packed-lengths, 07-dd-source, 08-leads,
    // 09-lead-source, 10-played, 11-played-dd and 12-played-judged.
    assert_eq!(store.schema_version().unwrap(), before + 9);
    assert_eq!(store.deal_count().unwrap(), 10);
    // The upgraded file stores and returns plays.
    let data = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pbn-spec-example.pbn"),
    )
    .unwrap();
    let board = Pbn.read(&data).unwrap().remove(0);
    let play = dealdex::board_play(&board.deal, board.game.as_deref().unwrap())
        .unwrap()
        .unwrap();
    let key = DealIndex::from_deal(&board.deal);
    let new = dealdex::NewPlay {
        deal: key,
        board: Some(1),
        play: play.clone(),
    };
    assert_eq!(
        store.store_plays(None, std::slice::from_ref(&new)).unwrap(),
        1
    );
    assert_eq!(store.store_plays(None, &[new]).unwrap(), 0);
    assert_eq!(store.deal_count().unwrap(), 11);
    let stored = store.plays_of(&key).unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(
        (stored[0].set_name.as_deref(), stored[0].board),
        (None, Some(1))
    );
    assert_eq!(stored[0].play, play);
    assert_eq!(store.integrity_check().unwrap(), "ok");
    drop(store);
    // Opening it again runs no migration twice.
    assert_eq!(
        Store::open(&path).unwrap().schema_version().unwrap(),
        before + 9
    );
}

#[test]
fn plays_belong_to_their_set_and_bad_rows_are_reported() {
    use dealdex::formats::{DealFormat, Pbn};
    let mut store = Store::open_in_memory().unwrap();
    let data = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pbn-spec-example.pbn"),
    )
    .unwrap();
    let board = Pbn.read(&data).unwrap().remove(0);
    let play = dealdex::board_play(&board.deal, board.game.as_deref().unwrap())
        .unwrap()
        .unwrap();
    let key = DealIndex::from_deal(&board.deal);
    let set = store
        .store_set(&new_set("schiphol", None), &[(1, key)])
        .unwrap();
    let new = dealdex::NewPlay {
        deal: key,
        board: Some(1),
        play,
    };
    assert_eq!(store.store_plays(Some(set.set_id), &[new]).unwrap(), 1);
    let stored = store.plays_of(&key).unwrap();
    assert_eq!(stored[0].set_name.as_deref(), Some("schiphol"));
    // A set that does not exist is a foreign-key error and stores nothing.
    let again = dealdex::NewPlay {
        deal: key,
        board: Some(2),
        play: stored[0].play.clone(),
    };
    assert!(matches!(
        store
            .store_plays(Some(999), &[again])
            .map_err(StoreError::into_kind),
        Err(StoreErrorKind::Sqlite { .. })
    ));
    assert_eq!(store.plays_of(&key).unwrap().len(), 1);
    // A row changed outside dealdex: East's ♠4 (slot 10) played first is not West's lead.
    store
        .connection()
        .execute("UPDATE plays SET cards = X'0A01180B'", [])
        .unwrap();
    let err = store.plays_of(&key).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("stored play 1: trick 1, card 2 (SK): it is S's turn but W holds SK"),
        "{err}"
    );
    // Deleting the set takes its plays with it.
    store
        .connection()
        .execute("DELETE FROM sets WHERE name = 'schiphol'", [])
        .unwrap();
    assert!(store.plays_of(&key).unwrap().is_empty());
}

/// Leads stored before migration 09 recorded no solver: they read as of unknown source; a
/// lead stored after the upgrade records the solver that solved it, each solver its own
/// `dd_sources` row (shared with the tables it solves).
#[test]
fn leads_record_the_solver_that_solved_them() {
    use dealdex::dd::{LeadPosition, Solver, lead_table, lead_tricks};
    use dealdex::{DdSource, Seat, Strain};
    let (_dir, path) = temp_db();
    let keys = random_keys(9, 3);
    let (leader, strain) = (Seat::West, Strain::Trumps(dealdex::Suit::Spades));
    let tables: Vec<[u8; 52]> = keys
        .iter()
        .map(|k| {
            let deal = k.to_deal().unwrap();
            lead_table(
                &lead_tricks(&[LeadPosition {
                    deal,
                    strain,
                    leader,
                }])[0],
            )
        })
        .collect();
    {
        let (conn, version) = database_before(&path, "09");
        assert_eq!(version, 8);
        conn.execute("INSERT INTO deals(key) VALUES (?1)", [&keys[0].0])
            .unwrap();
        conn.execute(
            "INSERT INTO leads(deal, leader, strain, tricks) VALUES (?1, 'W', 'S', ?2)",
            rusqlite::params![&keys[0].0, &tables[0][..]],
        )
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), Store::SCHEMA_VERSION);
    assert_eq!(
        store.lead_source(&keys[0], leader, strain).unwrap(),
        Some(DdSource::Unknown)
    );
    assert_eq!(
        store.stored_leads(&keys[..1], leader, strain).unwrap(),
        [Some(tables[0])]
    );
    let solvers: Vec<Solver> = Solver::ALL.into_iter().filter(|s| s.is_built()).collect();
    for (k, solver) in solvers.iter().enumerate() {
        let key = keys[1 + k % 2];
        let name = solver
            .with(|| {
                store
                    .store_leads(leader, strain, &[(key, tables[1 + k % 2])])
                    .unwrap();
                solver.name()
            })
            .unwrap();
        assert_eq!(
            store.lead_source(&key, leader, strain).unwrap(),
            Some(DdSource::Solved {
                solver: name.to_owned()
            }),
            "{solver}"
        );
    }
    assert_eq!(
        store.lead_source(&keys[1], Seat::North, strain).unwrap(),
        None
    );
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

/// A set of 50,000 boards or more, stored into a table holding no more boards than it brings,
/// is written with the `set_boards(deal)` index dropped and built again: afterwards the index
/// is there with migration 01's definition, SQLite uses it, and every lookup answers right.
#[test]
fn large_sets_rebuild_the_deal_index_and_it_answers_lookups() {
    let (_dir, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let first = random_keys(71, 60_000);
    let second = random_keys(72, 60_000);
    // Into an empty table, then into one holding as many boards as the set brings.
    store
        .store_set(&new_set("first", None), &boards(&first))
        .unwrap();
    store
        .store_set(&new_set("second", None), &boards(&second))
        .unwrap();
    let index_sql: String = store
        .connection()
        .query_row(
            "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'set_boards_deal'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        index_sql,
        "CREATE INDEX set_boards_deal ON set_boards(deal)"
    );
    let plan: String = store
        .connection()
        .query_row(
            "EXPLAIN QUERY PLAN SELECT board FROM set_boards WHERE deal = ?1",
            [&first[0].0],
            |r| r.get(3),
        )
        .unwrap();
    assert!(plan.contains("set_boards_deal"), "{plan}");
    for (keys, name) in [(&first, "first"), (&second, "second")] {
        for i in [0, 1, 29_999, 59_999] {
            let found = store.boards_of(&keys[i]).unwrap();
            assert_eq!(found.len(), 1, "{name} board {}", i + 1);
            assert_eq!(found[0].set_name, name);
            assert_eq!(found[0].board, i as u64 + 1);
        }
    }
    assert_eq!(count(&store, "set_boards"), 120_000);
    // Every board, 64 rows a statement and the remainder one a statement.
    assert_eq!(store.set_boards("first").unwrap(), boards(&first));
    assert_eq!(store.set_boards("second").unwrap(), boards(&second));
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

/// The new-deal count of each group of [`Store::insert_deal_groups`].
fn new_counts(counts: Vec<(u64, dealdex::PlaysAndTablesStored)>) -> Vec<u64> {
    counts.into_iter().map(|(new, _)| new).collect()
}

/// `ImportJob::stop`: turned on while the first of three files is reported, the import
/// stores no file after it, says it stopped, and keeps the first file's set.
#[test]
fn an_import_stops_before_its_next_transaction_when_asked() {
    use dealdex::import::{ImportJob, import};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let pbn = dealdex::formats::by_name("pbn").unwrap();
    let files = [
        "field/teaching.pbn",
        "pbn-spec-example.pbn",
        "peers/endplay-boards.pbn",
    ]
    .map(|f| (root.join(f), pbn))
    .to_vec();
    let stop = Arc::new(AtomicBool::new(false));
    let job = ImportJob {
        set: Some("club".into()),
        stop: Some(stop.clone()),
        ..ImportJob::new(files)
    };
    let mut store = Store::open_in_memory().unwrap();
    let report = import(&job, &mut store, &mut |_| {
        stop.store(true, Ordering::Relaxed)
    })
    .unwrap();
    assert!(report.stopped);
    assert_eq!(report.files.len(), 1);
    assert_eq!(store.set_names().unwrap(), ["club-1"]);

    // Without the switch the same job stores all three.
    let job = ImportJob { stop: None, ..job };
    let mut store = Store::open_in_memory().unwrap();
    let report = import(&job, &mut store, &mut |_| {}).unwrap();
    assert!(!report.stopped);
    assert_eq!(store.set_names().unwrap().len(), 3);
}

/// Migration 12 on a database judged by an older dealdex (schema 11): its hook fills each
/// played board's level, strain, doubling and North-South score (worked out by hand from
/// Law 77), and `judge` then sums the old judgement from its stored tricks and writes the
/// par of the board from the deal's table, which equals the solver's.
#[test]
fn migration_12_fills_the_played_boards_judged_before_it() {
    use dealdex::dd::TablePar;
    use dealdex::judge::{JudgeJob, judge};
    let (_dir, path) = temp_db();
    let deal = Deal::from_number(123_456_789, Scheme::Pavlicek).unwrap();
    let key = DealIndex::from_deal(&deal);
    // South declares: West leads the first card West holds.
    let lead = deal.hand(Seat::West).cards().next().unwrap();
    {
        let (conn, before) = database_before(&path, "12");
        assert_eq!(before, 11);
        conn.execute("INSERT INTO deals(key) VALUES (?1)", [&key.0])
            .unwrap();
        // 4HX by East, 8 tricks, East-West vulnerable: down 2 doubled vulnerable, 500 to NS.
        // 3NT by South, 10 tricks, nobody vulnerable: 430 to NS. A passed-out board: 0.
        for (id, contract, declarer, result, vul, cards) in [
            (1, "4HX", Some("E"), Some(8), "EW", None),
            (
                2,
                "3NT",
                Some("S"),
                Some(10),
                "None",
                Some(vec![lead.index() as u8]),
            ),
            (3, "Pass", None, None, "All", None),
        ] {
            conn.execute(
                "INSERT INTO played(id, deal, board, room, dealer, vulnerable, contract, declarer, \
                 result, cards) VALUES (?1, ?2, ?1, ?3, 'N', ?4, ?5, ?6, ?7, ?8)",
                rusqlite::params![
                    id,
                    &key.0,
                    ["Open", "Closed", "Open"][id as usize - 1],
                    vul,
                    contract,
                    declarer,
                    result,
                    cards
                ],
            )
            .unwrap();
        }
        // Judged then: 9 tricks before the lead, 10 after it (the lead gave one away).
        conn.execute(
            "INSERT INTO played_dd(played, tricks) VALUES (2, ?1)",
            [vec![9u8, 10]],
        )
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), Store::SCHEMA_VERSION);
    // level, strain, doubled, score_ns
    type Columns = (Option<i64>, Option<String>, Option<i64>, Option<i64>);
    let columns = |store: &Store| -> Vec<Columns> {
        let mut stmt = store
            .connection()
            .prepare("SELECT level, strain, doubled, score_ns FROM played ORDER BY id")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(
        columns(&store),
        [
            (Some(4), Some("H".to_owned()), Some(1), Some(500)),
            (Some(3), Some("NT".to_owned()), Some(0), Some(430)),
            (None, None, None, Some(0)),
        ]
    );
    let report = judge(&JudgeJob::default(), &mut store, &mut |_| {}).unwrap();
    assert_eq!((report.boards, report.summarised), (0, 1));
    assert_eq!((report.par_boards, report.solved), (3, 1));
    let judged = store.judged_played().unwrap();
    let summary = judged[0].summary.unwrap();
    assert_eq!(
        (
            summary.declarer_lost,
            summary.defence_lost,
            summary.lead_cost
        ),
        (0, 1, 1)
    );
    let table = store.dd_table(&key).unwrap().unwrap();
    assert_eq!(table, dealdex::dd::solve(&deal));
    let pars: Vec<i64> = store
        .connection()
        .prepare("SELECT par_ns FROM played ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let want: Vec<i64> = [
        dealdex::Vulnerability::EastWest,
        dealdex::Vulnerability::None,
        dealdex::Vulnerability::All,
    ]
    .map(|v| i64::from(table.par(Seat::North, v).score))
    .to_vec();
    assert_eq!(pars, want);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}
