//! The Spark dialect (`Query::to_spark_sql`) without Spark: its predicates are also SQLite
//! (given Spark's `greatest`), so they run here over an in-memory table with exactly the
//! Parquet archive's columns, filled from seeded deals, half of them with a random
//! double-dummy table and half unsolved (every `dd_*` NULL). For each of many queries the
//! rows kept must be exactly the deals the store's own SQLite clause (`Query::to_sql`) keeps
//! with the same tables stored, and, deal by deal, what `Query::matches_with_dd` says for a
//! solved deal and `Query::matches` for an unsolved one when the query has no `dd`.

use std::collections::BTreeSet;

use dealdex::dd::{DD_STRAINS, TrickTable};
use dealdex::features::{self, Shape};
use dealdex::query::Query;
use dealdex::{Deal, DealIndex, Seat, Seed, Store, StoreError, Vulnerability};
use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;

const SEED: &str = "7d1c0e5a9b3f2468ace013579bdf02468ace13579bdf02468ace13579bdf0246";
const DEALS: u64 = 3000;

/// splitmix64: a fixed stream of pseudo-random words for the trick tables.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct Fixture {
    store: Store,
    deals: Vec<Deal>,
    keys: Vec<DealIndex>,
    /// The deal's stored table; `None`: unsolved.
    tables: Vec<Option<TrickTable>>,
}

/// The seeded deals in a store (with the tables of the solved half) and, on the same
/// connection, the table `archive` with the Parquet archive's columns.
fn fixture() -> Fixture {
    let seed: Seed = SEED.parse().unwrap();
    let deals: Vec<Deal> = (1..=DEALS).map(|k| seed.board_deal(k)).collect();
    let keys: Vec<DealIndex> = deals.iter().map(DealIndex::from_deal).collect();
    let mut rng = 14;
    let tables: Vec<Option<TrickTable>> = (0..deals.len())
        .map(|i| {
            (i % 2 == 0).then(|| {
                let rows = [[0u8; 5]; 4].map(|r| r.map(|_| (next(&mut rng) % 14) as u8));
                TrickTable::new(rows).unwrap()
            })
        })
        .collect();
    let mut store = Store::open_in_memory().unwrap();
    store.insert_deals(&keys).unwrap();
    let solved: Vec<(DealIndex, TrickTable)> = keys
        .iter()
        .zip(&tables)
        .filter_map(|(k, t)| Some((*k, (*t)?)))
        .collect();
    store.store_dd(&solved).unwrap();

    let conn = store.connection();
    let seats = ['n', 'e', 's', 'w'];
    let mut cols = vec![
        "key BLOB NOT NULL".to_owned(),
        "board INTEGER NOT NULL".to_owned(),
        "dealer INTEGER NOT NULL".to_owned(),
        "vul INTEGER NOT NULL".to_owned(),
    ];
    cols.extend(seats.map(|s| format!("hcp_{s} INTEGER NOT NULL")));
    for s in seats {
        cols.extend(['s', 'h', 'd', 'c'].map(|suit| format!("len_{s}_{suit} INTEGER NOT NULL")));
    }
    cols.extend(seats.map(|s| format!("controls_{s} INTEGER NOT NULL")));
    cols.extend(seats.map(|s| format!("ltc_{s} INTEGER NOT NULL")));
    for s in seats {
        cols.extend(["nt", "s", "h", "d", "c"].map(|st| format!("dd_{s}_{st} INTEGER")));
    }
    assert_eq!(cols.len(), 4 + 4 + 16 + 4 + 4 + 20);
    conn.execute_batch(&format!("CREATE TABLE archive ({})", cols.join(", ")))
        .unwrap();
    register_greatest(conn);
    let insert = format!(
        "INSERT INTO archive VALUES ({})",
        vec!["?"; cols.len()].join(", ")
    );
    let mut stmt = conn.prepare(&insert).unwrap();
    for (i, deal) in deals.iter().enumerate() {
        use rusqlite::types::Value;
        let board = i as u64 + 1;
        let vul = match dealdex::board_vulnerability(board) {
            Vulnerability::None => 0,
            Vulnerability::NorthSouth => 1,
            Vulnerability::EastWest => 2,
            Vulnerability::All => 3,
        };
        let mut row: Vec<Value> = vec![
            keys[i].0.to_vec().into(),
            (board as i64).into(),
            (dealdex::board_dealer(board) as i64).into(),
            Value::Integer(vul),
        ];
        let per_seat = |f: &dyn Fn(Seat) -> u8| Seat::ALL.map(|s| Value::Integer(i64::from(f(s))));
        row.extend(per_seat(&|s| features::hcp(deal.hand(s))));
        for s in Seat::ALL {
            row.extend(features::suit_lengths(deal.hand(s)).map(|l| Value::Integer(l.into())));
        }
        row.extend(per_seat(&|s| features::controls(deal.hand(s))));
        row.extend(per_seat(&|s| features::losing_trick_count(deal.hand(s))));
        for s in Seat::ALL {
            for strain in DD_STRAINS {
                row.push(match &tables[i] {
                    Some(t) => Value::Integer(t.tricks(s, strain).into()),
                    None => Value::Null,
                });
            }
        }
        stmt.execute(rusqlite::params_from_iter(row)).unwrap();
    }
    drop(stmt);
    Fixture {
        store,
        deals,
        keys,
        tables,
    }
}

/// Spark's `greatest`: the largest non-NULL argument, NULL when every one is NULL.
fn register_greatest(conn: &Connection) {
    conn.create_scalar_function(
        "greatest",
        -1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let mut best: Option<i64> = None;
            for i in 0..ctx.len() {
                if let Some(v) = ctx.get::<Option<i64>>(i)? {
                    best = Some(best.map_or(v, |b| b.max(v)));
                }
            }
            Ok(best)
        },
    )
    .unwrap();
}

/// Every construct, seats and sides, sums, `not`/`or` nesting, `=` and `!=` of shapes and
/// patterns, `dd` comparisons under `not` and `or` (where NULL matters).
const QUERIES: &[&str] = &[
    "hcp(N) >= 15",
    "hcp(N) = 10",
    "hcp(W) != 10",
    "hcp(N) < hcp(S)",
    "hcp(EW) in 18..22",
    "hcp(NS) + hcp(E) > 30",
    "hcp(N) - hcp(S) + hcp(E) - hcp(W) > 5",
    "hcp(N) >= 20 and len(N, spades) >= 5",
    "9223372036854775800 - hcp(N) > 9223372036854775790",
    "2147483647 + hcp(NS) > 2147483670",
    "0 - 5 < hcp(N) - 10",
    "len(S, spades) >= 5",
    "len(NS, hearts) >= 8",
    "len(EW, clubs) - len(EW, diamonds) >= 2",
    "controls(N) >= 4",
    "controls(EW) <= 5",
    "controls(NS) + hcp(NS) > 30",
    "ltc(W) <= 6",
    "ltc(N) + ltc(S) <= 14",
    "ltc(E) in 5..7 and controls(E) >= 3",
    "longest(E) >= 6",
    "longest(S) = 4",
    "longest(N) + longest(S) >= 11",
    "balanced(N)",
    "semibalanced(W) and not balanced(W)",
    "not balanced(E) or hcp(E) < 10",
    "(balanced(N) or balanced(S)) and hcp(NS) >= 24",
    "shape(E) = 4432",
    "4432 = shape(N)",
    "shape(S) != 4333",
    "shape(W) = 5431 or shape(W) = 5422",
    "shape(N) = 7222 or pattern(S) = 0-4-4-5 or longest(W) >= 8",
    "pattern(N) = 4-3-3-3",
    "pattern(E) != 4432 and len(E, spades) = 4",
    "not (shape(E) = 5332 or dd(EW, nt) < 4)",
    "dd(N, nt) >= 7",
    "dd(N, nt) != 7",
    "dd(EW, spades) >= 10",
    "dd(S, hearts) < 5",
    "not dd(W, clubs) > 6",
    "dd(NS, nt) in 6..8",
    "dd(N, nt) + 1 >= dd(E, spades)",
    "dd(NS, hearts) - dd(EW, hearts) > 0",
    "hcp(N) >= 12 or dd(N, diamonds) >= 10",
    "not (hcp(S) < 10 and dd(S, clubs) = 0)",
    "semibalanced(N) and dd(N, nt) >= 8",
    "not not hcp(E) > 12",
    "not (hcp(N) > 12 or not (dd(NS, clubs) >= 7 and shape(S) != 4432))",
];

#[test]
fn spark_predicates_keep_the_deals_sqlite_and_the_evaluator_keep() {
    assert!(QUERIES.len() >= 40);
    let fx = fixture();
    let conn = fx.store.connection();
    let index: std::collections::HashMap<DealIndex, usize> =
        fx.keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    for text in QUERIES {
        let q = Query::parse(text).unwrap();
        let pred = q.to_spark_sql().unwrap();

        let mut stmt = conn
            .prepare(&format!("SELECT key FROM archive WHERE {pred}"))
            .unwrap_or_else(|e| panic!("{text}: {pred}: {e}"));
        let spark: BTreeSet<usize> = stmt
            .query_map([], |r| r.get::<_, Vec<u8>>(0))
            .unwrap()
            .map(|k| index[&DealIndex(k.unwrap().try_into().unwrap())])
            .collect();

        let mut sqlite = BTreeSet::new();
        fx.store
            .for_each_match(&q.to_sql(), None, None, |key, _| {
                sqlite.insert(index[&key]);
                Ok::<_, StoreError>(())
            })
            .unwrap();
        let only_spark: Vec<_> = spark.difference(&sqlite).take(5).collect();
        let only_sqlite: Vec<_> = sqlite.difference(&spark).take(5).collect();
        assert!(
            only_spark.is_empty() && only_sqlite.is_empty(),
            "{text}\n{pred}\ndeals only Spark keeps: {only_spark:?}; only SQLite: {only_sqlite:?}"
        );

        for (i, deal) in fx.deals.iter().enumerate() {
            let want = match &fx.tables[i] {
                Some(t) => q.matches_with_dd(deal, t),
                // Unsolved: the NULL semantics are SQLite's, checked above.
                None if q.uses_dd() => continue,
                None => q.matches(deal),
            };
            assert_eq!(spark.contains(&i), want, "{text} on deal {i}: {deal}");
        }
        // Each query tells deals apart.
        assert!(
            !spark.is_empty() && spark.len() < fx.deals.len(),
            "{text} kept {} deals",
            spark.len()
        );
    }
}

/// The fixture is what the test means it to be: half solved, and the shapes and NULLs
/// reach the archive as the features give them.
#[test]
fn the_archive_table_holds_the_features() {
    let fx = fixture();
    let conn = fx.store.connection();
    let unsolved: i64 = conn
        .query_row(
            "SELECT count(*) FROM archive WHERE dd_n_nt IS NULL AND dd_w_c IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(unsolved as u64, DEALS / 2);
    let balanced_n = fx
        .deals
        .iter()
        .filter(|d| Shape::of(d.hand(Seat::North)).is_balanced())
        .count() as i64;
    let sql_balanced: i64 = conn
        .query_row(
            &format!(
                "SELECT count(*) FROM archive WHERE {}",
                Query::parse("balanced(N)").unwrap().to_spark_sql().unwrap()
            ),
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(sql_balanced, balanced_n);
}
