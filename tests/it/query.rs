//! Tests of the deal query language (crates/query/src/): exact SQL for representative queries,
//! error columns for every error kind, hand-checked evaluation, and the property that the
//! compiled SQL selects exactly the deals `matches` accepts, which in turn are exactly
//! those an independent brute-force oracle accepts (sums, `dd(…)` and `par(…)` included:
//! the latter over deals with double-dummy tables, DDS's from
//! tests/fixtures/dd/dd-reference.jsonl and some solved here).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use dealdex::dd::TablePar;
use dealdex::dd::{DD_STRAINS, TrickTable};
use dealdex::features::{self, Shape};
use dealdex::query::{Error, ErrorKind, MAX_DEPTH, Query, SqlFilter};
use dealdex::{DEALS, Deal, DealIndex, Scheme, Seat, Vulnerability};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;

// ---------------------------------------------------------------------------------------
// A database shaped like the store's `deals` table after the features migration.

/// Creates an in-memory `deals` table with the feature columns and registers the SQL
/// functions the compiled clauses call.
fn database(deals: &[Deal]) -> Connection {
    let conn = Connection::open_in_memory().unwrap();
    let mut cols = String::from("key BLOB PRIMARY KEY");
    for s in ['n', 'e', 's', 'w'] {
        cols.push_str(&format!(", hcp_{s} INTEGER NOT NULL"));
        for suit in ['s', 'h', 'd', 'c'] {
            cols.push_str(&format!(", len_{s}_{suit} INTEGER NOT NULL"));
        }
        cols.push_str(&format!(", lens_{s} INTEGER NOT NULL"));
    }
    conn.execute_batch(&format!(
        "CREATE TABLE deals ({cols}) WITHOUT ROWID;
         CREATE INDEX deals_strong_n ON deals(hcp_n) WHERE hcp_n >= 20;
         CREATE INDEX deals_len_s_s ON deals(len_s_s);"
    ))
    .unwrap();
    register_functions(&conn);
    let tx = conn.unchecked_transaction().unwrap();
    {
        let placeholders = vec!["?"; 25].join(", ");
        let mut stmt = tx
            .prepare(&format!(
                "INSERT OR IGNORE INTO deals VALUES ({placeholders})"
            ))
            .unwrap();
        for d in deals {
            let mut row: Vec<rusqlite::types::Value> =
                vec![DealIndex::from_deal(d).0.to_vec().into()];
            for seat in Seat::ALL {
                let hand = d.hand(seat);
                row.push(i64::from(features::hcp(hand)).into());
                let lengths = features::suit_lengths(hand);
                for l in lengths {
                    row.push(i64::from(l).into());
                }
                // Migration 06's packed lengths: ♠ + 16·♥ + 256·♦ + 4096·♣.
                let packed = (0..4)
                    .map(|u| i64::from(lengths[u]) << (4 * u))
                    .sum::<i64>();
                row.push(packed.into());
            }
            stmt.execute(rusqlite::params_from_iter(row)).unwrap();
        }
    }
    tx.commit().unwrap();
    conn
}

/// `controls`, `ltc`, `longest`, `balanced`, `semibalanced` over `(key BLOB, seat TEXT)`.
fn register_functions(conn: &Connection) {
    type F = fn(&Deal, Seat) -> i64;
    let functions: [(&str, F); 5] = [
        ("controls", |d, s| i64::from(features::controls(d.hand(s)))),
        ("ltc", |d, s| {
            i64::from(features::losing_trick_count(d.hand(s)))
        }),
        ("longest", |d, s| {
            i64::from(features::longest_suit(d.hand(s)).1)
        }),
        ("balanced", |d, s| {
            i64::from(Shape::of(d.hand(s)).is_balanced())
        }),
        ("semibalanced", |d, s| {
            i64::from(Shape::of(d.hand(s)).is_semi_balanced())
        }),
    ];
    for (name, f) in functions {
        conn.create_scalar_function(
            name,
            2,
            FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
            move |ctx| {
                let bad = |m: &str| rusqlite::Error::UserFunctionError(m.to_string().into());
                let key: Vec<u8> = ctx.get(0)?;
                let key: [u8; 13] = key.try_into().map_err(|_| bad("key is not 13 bytes"))?;
                let deal = DealIndex(key)
                    .to_deal()
                    .map_err(|e| rusqlite::Error::UserFunctionError(Box::new(e)))?;
                let seat: String = ctx.get(1)?;
                let seat = seat
                    .chars()
                    .next()
                    .and_then(Seat::from_char)
                    .ok_or_else(|| bad("bad seat"))?;
                Ok(f(&deal, seat))
            },
        )
        .unwrap();
    }
}

/// [`database`] plus the store's `dd` table (migration 05) holding `tables[i]` for
/// `deals[i]`, and the crate's `dd_tricks` / `dd_par` SQL functions (the feature functions
/// stay this file's own).
fn dd_database(deals: &[Deal], tables: &[TrickTable]) -> Connection {
    let conn = database(deals);
    dealdex::sqlfn::register(&conn).unwrap();
    register_functions(&conn);
    conn.execute_batch(
        "CREATE TABLE dd (deal BLOB PRIMARY KEY, tricks BLOB NOT NULL) WITHOUT ROWID",
    )
    .unwrap();
    for (d, t) in deals.iter().zip(tables) {
        conn.execute(
            "INSERT OR IGNORE INTO dd VALUES (?1, ?2)",
            (DealIndex::from_deal(d).0.to_vec(), t.to_bytes().to_vec()),
        )
        .unwrap();
    }
    conn
}

/// The keys the SQL filter selects.
fn sql_keys(conn: &Connection, sql: &SqlFilter) -> BTreeSet<[u8; 13]> {
    let mut stmt = conn
        .prepare(&format!("SELECT key FROM deals WHERE {}", sql.clause))
        .unwrap_or_else(|e| panic!("{e}: {}", sql.clause));
    stmt.query_map(rusqlite::params_from_iter(&sql.params), |r| {
        r.get::<_, [u8; 13]>(0)
    })
    .unwrap()
    .map(|k| k.unwrap())
    .collect()
}

fn sql(text: &str) -> (String, Vec<i64>) {
    let f = Query::parse(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .to_sql();
    (f.clause, f.params)
}

/// A refused text's column and message ([`ErrorKind::Syntax`]), as the tests read them.
struct Refused {
    column: usize,
    message: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

/// `e` as a text's problem (a dialect's fails the test).
fn refused(e: Error) -> Refused {
    match e.into_kind() {
        ErrorKind::Syntax { column, message } => Refused { column, message },
        other => panic!("not a problem of the text: {other}"),
    }
}

fn err(text: &str) -> Refused {
    match Query::parse(text) {
        Ok(q) => panic!("{text:?} parsed as {q}"),
        Err(e) => refused(e),
    }
}

/// North J987.JT7643.A4.Q (8 HCP, 4-6-2-1), East -.KQ2.QT9.AK98543 (14, 0-3-3-7),
/// South AQ42.A8.KJ762.J2 (15, 4-2-5-2), West KT653.95.853.T76 (3, 5-2-3-3).
fn sample() -> Deal {
    "N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76"
        .parse()
        .unwrap()
}

// ---------------------------------------------------------------------------------------
// Exact SQL.

#[test]
fn sql_of_representative_hcp_and_length_queries() {
    assert_eq!(
        sql("hcp(N) >= 20"),
        ("hcp_n >= ?1 AND hcp_n >= 20".into(), vec![20])
    );
    assert_eq!(sql("hcp(N) >= 19"), ("hcp_n >= ?1".into(), vec![19]));
    assert_eq!(
        sql("hcp(N) >= 20 and len(S, spades) >= 5"),
        (
            "(hcp_n >= ?1 AND len_s_s >= ?2) AND hcp_n >= 20".into(),
            vec![20, 5]
        )
    );
    // Every form that bounds a seat's HCP at 20 or more names the partial index's condition;
    // a side's HCP, an `or` and a bound below 20 do not.
    assert_eq!(
        sql("22 <= hcp(W) and hcp(E) > 19").0,
        "(?1 <= hcp_w AND hcp_e > ?2) AND hcp_e >= 20 AND hcp_w >= 20"
    );
    assert_eq!(sql("hcp(S) = 21").0, "hcp_s = ?1 AND hcp_s >= 20");
    assert_eq!(sql("hcp(S) > 18").0, "hcp_s > ?1");
    assert_eq!(sql("hcp(NS) >= 30").0, "(hcp_n + hcp_s) >= ?1");
    assert_eq!(
        sql("hcp(N) >= 22 or hcp(S) >= 22").0,
        "(hcp_n >= ?1 OR hcp_s >= ?2)"
    );
    assert_eq!(
        sql("hcp(NS) in 20..25"),
        ("(hcp_n + hcp_s) BETWEEN ?1 AND ?2".into(), vec![20, 25])
    );
    assert_eq!(
        sql("len(EW, ♥) >= 8"),
        ("(len_e_h + len_w_h) >= ?1".into(), vec![8])
    );
    assert_eq!(sql("len(S, S) = 5"), ("len_s_s = ?1".into(), vec![5]));
    assert_eq!(
        sql("LEN(west, Clubs) != 0"),
        ("len_w_c <> ?1".into(), vec![0])
    );
}

#[test]
fn sql_of_shape_tests_and_functions_puts_cheapest_operands_first() {
    assert_eq!(
        sql("not balanced(N) or ltc(S) <= 7"),
        (
            format!(
                "(NOT ({}) OR ltc(key, 'S') <= ?29)",
                packed_list('n', 1, 28)
            ),
            [BALANCED_CODES.as_slice(), &[7]].concat()
        )
    );
    assert_eq!(
        sql("controls(EW) > longest(W)"),
        (
            "(controls(key, 'E') + controls(key, 'W')) > longest(key, 'W')".into(),
            vec![]
        )
    );
    assert_eq!(
        sql("12 <= hcp(E) && semibalanced(E)").0,
        format!("(?1 <= hcp_e AND {})", packed_list('e', 2, 52))
    );
    // Cheapest operands first: stored columns, shape tests, then function calls (the
    // query's order kept among equals).
    assert_eq!(
        sql("semibalanced(E) and (hcp(E) = 12 or hcp(E) == 13) and not (hcp(W) < 3 || ltc(W) > 9)")
            .0,
        format!(
            "((hcp_e = ?1 OR hcp_e = ?2) AND {} AND NOT ((hcp_w < ?55 OR ltc(key, 'W') > ?56)))",
            packed_list('e', 3, 52)
        )
    );
    assert_eq!(
        sql("ltc(N) < 7 and balanced(S) and hcp(N) > 12"),
        (
            format!(
                "(hcp_n > ?1 AND {} AND ltc(key, 'N') < ?30)",
                packed_list('s', 2, 28)
            ),
            [&[12], BALANCED_CODES.as_slice(), &[7]].concat()
        )
    );
    // `and` binds tighter than `or`; nested groups of the same operator are flattened.
    assert_eq!(
        sql("hcp(N) > 1 or hcp(E) > 2 and hcp(S) > 3 or (hcp(W) > 4 or hcp(N) > 5)"),
        (
            "(hcp_n > ?1 OR (hcp_e > ?2 AND hcp_s > ?3) OR hcp_w > ?4 OR hcp_n > ?5)".into(),
            vec![1, 2, 3, 4, 5]
        )
    );
}

#[test]
fn sql_of_patterns_and_shapes() {
    assert_eq!(
        sql("pattern(W) != 5-4-3-1"),
        ("lens_w <> ?1".into(), vec![5 + 16 * 4 + 256 * 3 + 4096])
    );
    assert_eq!(
        sql("pattern(n) = 0-13-0-0"),
        ("lens_n = ?1".into(), vec![16 * 13])
    );
    assert_eq!(
        sql("shape(E) = 3343"),
        (
            "lens_e IN (?1, ?2, ?3, ?4)".into(),
            vec![
                packed([4, 3, 3, 3]),
                packed([3, 4, 3, 3]),
                packed([3, 3, 4, 3]),
                packed([3, 3, 3, 4])
            ]
        )
    );
    assert_eq!(
        sql("4-3-3-3 != shape(S)"),
        (
            "lens_s NOT IN (?1, ?2, ?3, ?4)".into(),
            vec![13108, 13123, 13363, 17203]
        )
    );
    assert_eq!(
        sql("shape(N) = 13-0-0-0").1,
        [13, 13 * 16, 13 * 256, 13 * 4096]
    );
}

#[test]
fn sql_of_the_issue_example() {
    let (clause, params) = sql("hcp(N) >= 20 and len(S, spades) >= 5 and shape(E) = 4432");
    // The 12 distinct suit orders of 4-4-3-2, in decreasing lexicographic order.
    let rows = [
        [4, 4, 3, 2],
        [4, 4, 2, 3],
        [4, 3, 4, 2],
        [4, 3, 2, 4],
        [4, 2, 4, 3],
        [4, 2, 3, 4],
        [3, 4, 4, 2],
        [3, 4, 2, 4],
        [3, 2, 4, 4],
        [2, 4, 4, 3],
        [2, 4, 3, 4],
        [2, 3, 4, 4],
    ];
    assert_eq!(
        clause,
        format!(
            "(hcp_n >= ?1 AND len_s_s >= ?2 AND {}) AND hcp_n >= 20",
            packed_list('e', 3, 12)
        )
    );
    let mut expected = vec![20, 5];
    expected.extend(rows.map(packed));
    assert_eq!(params, expected);
    // The issue's generate example.
    assert_eq!(
        sql("hcp(N) in 20..21 and balanced(N)"),
        (
            format!(
                "(hcp_n BETWEEN ?1 AND ?2 AND {}) AND hcp_n >= 20",
                packed_list('n', 3, 28)
            ),
            [&[20, 21], BALANCED_CODES.as_slice()].concat()
        )
    );
}

/// Four suit lengths (♠ ♥ ♦ ♣) packed as migration 06's `lens_<seat>`: ♠ + 16·♥ + 256·♦ +
/// 4096·♣.
fn packed(lengths: [i64; 4]) -> i64 {
    lengths[0] + 16 * lengths[1] + 256 * lengths[2] + 4096 * lengths[3]
}

/// The 28 suit orders of 4-3-3-3, 4-4-3-2 and 5-3-3-2 packed, in increasing order (e.g.
/// 4-3-3-3 with four spades is 4 + 48 + 768 + 12,288 = 13,108); checked against
/// `Shape::is_balanced` by `balanced_codes_are_the_balanced_shapes`.
const BALANCED_CODES: [i64; 28] = [
    9013, 9028, 9043, 9268, 9283, 9523, 12853, 12868, 12883, 13093, 13108, 13123, 13138, 13348,
    13363, 13378, 13603, 13618, 16948, 16963, 17188, 17203, 17218, 17443, 17458, 21043, 21283,
    21298,
];

#[test]
fn balanced_codes_are_the_balanced_shapes() {
    let mut codes = Vec::new();
    for s in 0..=13 {
        for h in 0..=13 - s {
            for d in 0..=13 - s - h {
                let c = 13 - s - h - d;
                if Shape([s, h, d, c]).is_balanced() {
                    codes.push(packed([s, h, d, c].map(i64::from)));
                }
            }
        }
    }
    codes.sort_unstable();
    assert_eq!(codes, BALANCED_CODES);
}

/// `lens_<seat> IN (?first, …)` with `n` placeholders.
fn packed_list(seat: char, first: usize, n: usize) -> String {
    let list: Vec<String> = (first..first + n).map(|k| format!("?{k}")).collect();
    format!("lens_{seat} IN ({})", list.join(", "))
}

/// SQLite can use the index on a bare feature column.
#[test]
fn sqlite_uses_the_feature_indexes() {
    let conn = database(&[sample()]);
    let f = Query::parse("hcp(N) >= 25").unwrap().to_sql();
    let plan: Vec<String> = conn
        .prepare(&format!(
            "EXPLAIN QUERY PLAN SELECT key FROM deals WHERE {}",
            f.clause
        ))
        .unwrap()
        .query_map(rusqlite::params_from_iter(&f.params), |r| r.get(3))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert!(
        plan.iter().any(|p| p.contains("deals_strong_n")),
        "plan: {plan:?}"
    );
}

/// In the store itself, through the `deal_features` view: each seat's strong-hand query
/// uses that seat's partial index (migration 03) and counts what a direct count counts.
#[test]
fn the_store_answers_strong_hand_queries_from_its_partial_indexes() {
    let mut store = dealdex::Store::open_in_memory().unwrap();
    let deals = random_deals(3000);
    let keys: Vec<DealIndex> = deals.iter().map(DealIndex::from_deal).collect();
    store.insert_deals(&keys).unwrap();
    for (seat, col) in Seat::ALL.into_iter().zip(['n', 'e', 's', 'w']) {
        let f = Query::parse(&format!("hcp({}) >= 21", seat.letter()))
            .unwrap()
            .to_sql();
        let conn = store.connection();
        let plan: Vec<String> = conn
            .prepare(&format!(
                "EXPLAIN QUERY PLAN SELECT count(*) FROM deal_features WHERE {}",
                f.clause
            ))
            .unwrap()
            .query_map(rusqlite::params_from_iter(&f.params), |r| r.get(3))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        assert!(
            plan.iter()
                .any(|p| p.contains(&format!("deals_strong_{col}"))),
            "plan: {plan:?}"
        );
        let count: i64 = conn
            .query_row(
                &format!("SELECT count(*) FROM deal_features WHERE {}", f.clause),
                rusqlite::params_from_iter(&f.params),
                |r| r.get(0),
            )
            .unwrap();
        let direct = deals
            .iter()
            .filter(|d| features::hcp(d.hand(seat)) >= 21)
            .count();
        assert!(direct > 0, "seat {seat:?}: no strong hand in the sample");
        assert_eq!(count as usize, direct, "seat {seat:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Evaluation on a hand-checked deal.

#[test]
fn matches_hand_checked_features() {
    let d = sample();
    let yes = [
        "hcp(N) = 8 and hcp(E) = 14 and hcp(S) = 15 and hcp(W) = 3",
        "hcp(NS) = 23 and hcp(EW) = 17",
        "len(N, hearts) = 6 and len(E, ♠) = 0 and len(S, D) = 5 and len(W, clubs) = 3",
        "len(NS, spades) = 8 and len(NS, H) = 8 and len(EW, clubs) = 10",
        "controls(N) = 2 and controls(E) = 4 and controls(S) = 5 and controls(W) = 1",
        "controls(NS) = 7 and controls(EW) = 5",
        "ltc(N) = 8 and ltc(E) = 4 and ltc(S) = 6 and ltc(W) = 10",
        "longest(N) = 6 and longest(E) = 7 and longest(S) = 5 and longest(W) = 5",
        "balanced(W) and not balanced(S) and semibalanced(S) and !semibalanced(N)",
        "shape(N) = 6421 and shape(N) = 1-2-4-6 and pattern(N) = 4621 and pattern(N) != 6421",
        "shape(E) = 7-3-3-0 and pattern(E) = 0-3-3-7",
        "shape(S) = 5422 and pattern(S) = 4252 and shape(W) = 5332 and pattern(W) = 5233",
        "hcp(S) in 15..15 and hcp(S) in 0..37 and not hcp(S) in 16..20",
        "hcp(S) > hcp(E) and ltc(E) < ltc(S) and 3 <= hcp(W)",
        "hcp(N) > 100 or len(E, spades) = 0",
    ];
    for q in yes {
        assert!(Query::parse(q).unwrap().matches(&d), "{q}");
    }
    let no = [
        "hcp(N) = 9",
        "balanced(N)",
        "semibalanced(E)",
        "shape(S) = 4432",
        "pattern(N) = 6421",
        "hcp(S) in 16..20",
        "hcp(N) > 7 and not hcp(E) > 13",
        "hcp(N) != 8 or ltc(E) >= 5",
    ];
    for q in no {
        assert!(!Query::parse(q).unwrap().matches(&d), "{q}");
    }
    // The same answers from SQL over the one-deal table.
    let conn = database(&[d]);
    for (q, want) in yes.iter().map(|q| (q, 1)).chain(no.iter().map(|q| (q, 0))) {
        let f = Query::parse(q).unwrap().to_sql();
        assert_eq!(sql_keys(&conn, &f).len(), want, "{q}: {}", f.clause);
    }
}

#[test]
fn spellings_and_case() {
    let same = [
        "hcp(N) >= 12 and len(S, spades) >= 5",
        "HCP(north) >= 12 AND Len(South, Spades) >= 5",
        "hcp(n)>=12&&len(s,s)>=5",
        "hcp(N) >= 12 and len(S, ♠) >= 5",
        "hcp(N) >= 12 and len(S, ♤) >= 5",
        "(hcp(N) >= 12) and (len(S, spade) >= 5)",
        "((hcp(N)) >= 12 and ((len(S, S)) >= (5)))",
    ];
    let first = Query::parse(same[0]).unwrap();
    for q in same {
        assert_eq!(Query::parse(q).unwrap(), first, "{q}");
    }
    assert_eq!(first.to_string(), "hcp(N) >= 12 and len(S, spades) >= 5");
    let q: Query = "not (balanced(E) || shape(e) == 3-4-4-2) or hcp(ew) <> 20"
        .parse()
        .unwrap();
    assert_eq!(
        q.to_string(),
        "not (balanced(E) or shape(E) = 4-4-3-2) or hcp(EW) != 20"
    );
    assert_eq!(Query::parse(&q.to_string()).unwrap(), q);
    // `not` binds tighter than `and`, `and` tighter than `or`.
    let q = Query::parse("not balanced(N) and balanced(S) or balanced(E)").unwrap();
    assert_eq!(
        q.to_sql().clause,
        format!(
            "((NOT ({}) AND {}) OR {})",
            packed_list('n', 1, 28),
            packed_list('s', 29, 28),
            packed_list('e', 57, 28)
        )
    );
    // Long flat chains are fine (no recursion per operand).
    let long = vec!["hcp(N) >= 0"; 5000].join(" and ");
    assert!(Query::parse(&long).unwrap().matches(&sample()));
}

// ---------------------------------------------------------------------------------------
// Errors: exact columns.

/// Each case's query is refused with an error at the case's 1-based column whose message
/// holds the case's text; the error prints as `column N: message`.
fn assert_error_columns(cases: &[(&str, usize, &str)]) {
    for &(text, column, part) in cases {
        let e = err(text);
        assert_eq!(e.column, column, "{text:?}: {e}");
        assert!(e.message.contains(part), "{text:?}: {e} (wanted {part:?})");
        assert_eq!(e.to_string(), format!("column {column}: {}", e.message));
    }
}

#[test]
fn error_columns() {
    assert_error_columns(&[
        ("", 1, "empty query"),
        ("   ", 1, "empty query"),
        // unknown seat / side / suit
        ("hcp(X) > 3", 5, "unknown seat 'X'"),
        (
            "hcp(N) >= 20 and len(Q, spades) > 1",
            22,
            "unknown seat 'Q'",
        ),
        ("len(spades, N) > 1", 5, "the seat comes first"),
        ("len(N, ♠) >= 5 and hcp(Q) > 1", 24, "unknown seat 'Q'"),
        ("len(N, X) > 2", 8, "unknown suit 'X'"),
        ("len(♠, N) > 2", 5, "found the suit ♠"),
        // unknown function / name
        (
            "hcp(N) >= 20 and foo(N) > 1",
            18,
            "unknown function 'foo' (known functions: hcp, len, controls, ltc, longest, balanced, semibalanced, shape, pattern, dd, par, lead, lost; on a played board also contract, strain, declarer, room, player, north, east, south, west, event, level, doubled, result, tricks, score, par, board, lead_cost)",
        ),
        ("N > 3", 1, "unknown name 'N'"),
        ("hcp N", 5, "expected '(' after hcp"),
        // arguments
        ("len(N) > 2", 6, "missing argument"),
        ("hcp() > 2", 5, "missing argument"),
        ("hcp(N, S) > 2", 8, "too many arguments"),
        ("hcp(N S) > 2", 7, "expected ',' or ')'"),
        ("hcp(3) > 2", 5, "expected a seat, side or suit"),
    ]);
}

#[test]
fn error_columns_of_type_errors_and_bad_shapes() {
    assert_error_columns(&[
        // type errors
        (
            "hcp(N) and 3",
            1,
            "type error: hcp(N) is a number, not a condition",
        ),
        ("balanced(N) and 3", 17, "type error: 3 is a number"),
        (
            "balanced(N) > 2",
            1,
            "type error: balanced(N) is a condition",
        ),
        (
            "hcp(N) > balanced(S)",
            10,
            "type error: balanced(S) is a condition",
        ),
        ("ltc(NS) < 7", 5, "type error: ltc takes a single seat"),
        (
            "balanced(EW)",
            10,
            "type error: balanced takes a single seat",
        ),
        ("longest(ns) > 5", 9, "type error"),
        ("not hcp(N)", 5, "type error: hcp(N) is a number"),
        ("hcp(N)", 1, "type error: hcp(N) is a number"),
        ("shape(N)", 1, "must be compared with a shape"),
        ("shape(N) > 4432", 10, "only be compared with = or !="),
        ("shape(N) = hcp(S)", 12, "shape literal"),
        ("hcp(N) = 4-4-3-2", 10, "is a shape, not a number"),
        ("4-4-3-2", 1, "is not a condition"),
        (
            "balanced(N) in 1..2",
            1,
            "type error: balanced(N) is a condition",
        ),
        // bad shape literals
        ("shape(E) = 4431", 12, "add up to 12, not 13"),
        ("shape(E) = 44320", 12, "four suit lengths"),
        ("pattern(E) = 4-4-5", 14, "four suit lengths"),
        ("shape(E) = 14-0-0-0", 12, "at most 13"),
        (
            "(shape(E)) = (4333) and pattern(W) = 5-5-5-5",
            38,
            "add up to 20",
        ),
    ]);
}

#[test]
fn error_columns_of_parentheses_and_trailing_or_missing_input() {
    assert_error_columns(&[
        // parentheses
        ("(hcp(N) > 3", 1, "unclosed '('"),
        (
            "hcp(N) > 3 and ((ltc(S) < 7 or balanced(S))",
            16,
            "unclosed '('",
        ),
        ("hcp(N) > 3)", 11, "unmatched ')'"),
        ("(hcp(N) > 3))", 13, "unmatched ')'"),
        ("()", 2, "unmatched ')'"),
        ("hcp(N", 4, "unclosed '(' of hcp"),
        (
            "(hcp(N) > 3 4)",
            13,
            "expected ')' to close the '(' at column 1, found '4'",
        ),
        // trailing input
        (
            "hcp(N) > 3 4",
            12,
            "unexpected '4' after a complete condition",
        ),
        ("balanced(N) balanced(S)", 13, "after a complete condition"),
        (
            "hcp(N) 12",
            8,
            "unexpected '12' after hcp(N) (expected a comparison operator",
        ),
        // incomplete / misc
        ("hcp(N) >", 9, "unexpected end of query"),
        ("hcp(N) >= 12 and", 17, "unexpected end of query"),
        ("not", 4, "unexpected end of query"),
        ("and balanced(N)", 1, "unexpected keyword 'and'"),
        ("hcp(N) > 3 $", 12, "unexpected character '$'"),
        ("hcp(N) & 3", 8, "did you mean &&"),
        ("hcp(N) > -1", 10, "negative numbers"),
        ("1 < hcp(N) < 5", 12, "cannot be chained"),
        ("hcp(N) in 5..3", 11, "empty range 5..3"),
        ("hcp(N) in 5 3", 13, "expected '..'"),
        ("hcp(N) in ..3", 11, "expected a whole number after 'in'"),
        ("99999999999999999999 > 1", 1, "too large"),
        ("hcp(♥) > 1", 5, "found the suit ♥"),
        ("hcp(♥N) > 1", 6, "expected ',' or ')'"),
    ]);
}

/// The error table of docs/query.md shows what `Query::parse` says (up to a `…`).
#[test]
fn documented_errors_are_accurate() {
    let doc = include_str!("../../docs/query.md");
    let section = doc
        .split("## Errors")
        .nth(1)
        .and_then(|s| s.split("## SQL").next())
        .unwrap();
    let mut rows = 0;
    for line in section.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let query = match cells[0].trim_start_matches("| ") {
            "*(empty or blank)*" => "",
            q if q.starts_with('`') => q.trim_matches('`'),
            _ => continue, // the header
        };
        let want = cells[1].trim_end_matches(" |").trim_matches('`');
        let got = err(query).to_string();
        match want.split_once('…') {
            Some((prefix, _)) => assert!(got.starts_with(prefix), "{query}: {got}"),
            None => assert_eq!(got, want, "{query}"),
        }
        rows += 1;
    }
    assert_eq!(rows, 24);
}

/// The example queries of docs/query.md (the opening block and those of Arithmetic and
/// Par, each a query and maybe a comment after two spaces) parse and print back.
#[test]
fn documented_examples_parse() {
    let doc = include_str!("../../docs/query.md");
    let blocks = [
        doc.split("```text\n").nth(1).unwrap(),
        doc.split("### Arithmetic")
            .nth(1)
            .unwrap()
            .split("```text\n")
            .nth(1)
            .unwrap(),
        doc.split("### Par")
            .nth(1)
            .unwrap()
            .split("```text\n")
            .nth(1)
            .unwrap(),
    ];
    let mut n = 0;
    for block in blocks {
        for line in block.split("```").next().unwrap().lines() {
            let query = line.split("  ").next().unwrap();
            let q = Query::parse(query).unwrap_or_else(|e| panic!("{query}: {e}"));
            assert_eq!(Query::parse(&q.to_string()).unwrap(), q);
            n += 1;
        }
    }
    assert_eq!(n, 15);
}

/// The SQL examples of docs/query.md are what `to_sql` gives.
#[test]
fn documented_sql_examples_are_accurate() {
    let doc = include_str!("../../docs/query.md");
    let block = doc
        .split("## SQL")
        .nth(1)
        .and_then(|s| s.split("Examples:\n\n```text\n").nth(1))
        .and_then(|s| s.split("```").next())
        .unwrap();
    let mut examples = 0;
    let mut lines = block.lines().peekable();
    while let Some(query) = lines.next() {
        let arrow = lines.next().unwrap();
        let rest = arrow.strip_prefix("  → ").unwrap();
        let (clause, params) = match rest.split_once("      params ") {
            Some((c, p)) => (c.trim_end(), p.to_string()),
            None => {
                let p = lines
                    .next()
                    .unwrap()
                    .trim()
                    .strip_prefix("params ")
                    .unwrap();
                (rest, p.to_string())
            }
        };
        let params: Vec<i64> = params
            .trim_matches(['[', ']'])
            .split([',', ' '])
            .filter(|p| !p.is_empty())
            .map(|p| p.parse().unwrap())
            .collect();
        assert_eq!(sql(query), (clause.to_string(), params), "{query}");
        examples += 1;
    }
    assert_eq!(examples, 5);
}

#[test]
fn nesting_is_bounded_not_a_stack_overflow() {
    let ok = format!(
        "{}balanced(N){}",
        "(".repeat(MAX_DEPTH),
        ")".repeat(MAX_DEPTH)
    );
    assert!(Query::parse(&ok).is_ok());
    let deep = format!(
        "{}balanced(N){}",
        "(".repeat(MAX_DEPTH + 1),
        ")".repeat(MAX_DEPTH + 1)
    );
    let e = err(&deep);
    assert_eq!(e.column, MAX_DEPTH + 1);
    assert!(e.message.contains("nested too deeply"), "{e}");
    for huge in [
        "(".repeat(1_000_000),
        "not ".repeat(1_000_000),
        "!".repeat(1_000_000),
        "(not ".repeat(100_000),
    ] {
        let e = err(&huge);
        assert!(e.message.contains("nested too deeply"), "{e}");
    }
}

// ---------------------------------------------------------------------------------------
// Random queries: SQL == matches == an independent oracle.

/// A seat or a side, as the oracle sees it.
#[derive(Clone, Copy, Debug)]
enum W {
    Seat(usize),
    Side(usize),
}

/// A number term as the oracle sees it.
#[derive(Clone, Copy, Debug)]
enum T {
    Lit(i64),
    Hcp(W),
    Len(W, usize),
    Controls(W),
    Ltc(usize),
    Longest(usize),
    /// Declarer and strain (an index of [`DD_STRAINS`]: notrump, ♠, ♥, ♦, ♣).
    Dd(W, usize),
    /// Side (0 N-S, 1 E-W), vulnerability (an index of [`VULS`]) and dealer seat.
    Par(usize, usize, usize),
}

/// A number as written: a term, or `a + b` / `a - b` (`true`: minus), `b` in
/// parentheses when it is itself a sum.
#[derive(Clone, Debug)]
enum N {
    T(T),
    Sum(Box<N>, bool, Box<N>),
}

/// A generated condition: its text and its meaning.
#[derive(Clone, Debug)]
enum G {
    Cmp(String, N, u8, N),
    Range(String, N, i64, i64),
    Balanced(String, usize, bool),
    Shape(String, usize, [u8; 4], bool, bool),
    Not(String, Box<G>),
    And(Vec<(G, bool)>, usize),
    Or(Vec<(G, bool)>, usize),
}

fn seats_of(w: W) -> Vec<Seat> {
    match w {
        W::Seat(i) => vec![Seat::ALL[i]],
        W::Side(0) => vec![Seat::North, Seat::South],
        W::Side(_) => vec![Seat::East, Seat::West],
    }
}

/// The vulnerabilities of `T::Par`, in the order of [`VUL_NAMES`].
const VULS: [Vulnerability; 4] = [
    Vulnerability::None,
    Vulnerability::NorthSouth,
    Vulnerability::EastWest,
    Vulnerability::All,
];

/// The value of `t` on `d` (`table`: `d`'s double-dummy table, for `dd` and `par`), exact.
fn oracle_term(t: T, d: &Deal, table: Option<&TrickTable>) -> i128 {
    let sum = |w: W, f: &dyn Fn(Seat) -> i128| seats_of(w).into_iter().map(f).sum::<i128>();
    let table = || table.expect("a dd or par term needs the deal's table");
    match t {
        T::Lit(v) => i128::from(v),
        T::Hcp(w) => sum(w, &|s| i128::from(features::hcp(d.hand(s)))),
        T::Len(w, suit) => sum(w, &|s| i128::from(features::suit_lengths(d.hand(s))[suit])),
        T::Controls(w) => sum(w, &|s| i128::from(features::controls(d.hand(s)))),
        T::Ltc(i) => i128::from(features::losing_trick_count(d.hand(Seat::ALL[i]))),
        T::Longest(i) => i128::from(
            *features::suit_lengths(d.hand(Seat::ALL[i]))
                .iter()
                .max()
                .unwrap(),
        ),
        // A side: the better of its two declarers.
        T::Dd(w, strain) => seats_of(w)
            .into_iter()
            .map(|s| i128::from(table().tricks(s, DD_STRAINS[strain])))
            .max()
            .unwrap(),
        // `Par::score` is N-S's view.
        T::Par(side, vul, dealer) => {
            let score = i128::from(table().par(Seat::ALL[dealer], VULS[vul]).score);
            if side == 0 { score } else { -score }
        }
    }
}

/// The value of `n` on `d`, exact (in `i128`, so an overflow in the tested code shows).
fn oracle_num(n: &N, d: &Deal, table: Option<&TrickTable>) -> i128 {
    match n {
        N::T(t) => oracle_term(*t, d, table),
        N::Sum(a, minus, b) => {
            let (a, b) = (oracle_num(a, d, table), oracle_num(b, d, table));
            if *minus { a - b } else { a + b }
        }
    }
}

fn oracle(g: &G, d: &Deal, table: Option<&TrickTable>) -> bool {
    match g {
        G::Cmp(_, l, op, r) => {
            let (a, b) = (oracle_num(l, d, table), oracle_num(r, d, table));
            [a == b, a != b, a < b, a <= b, a > b, a >= b][*op as usize]
        }
        G::Range(_, n, lo, hi) => {
            let v = oracle_num(n, d, table);
            i128::from(*lo) <= v && v <= i128::from(*hi)
        }
        G::Balanced(_, seat, semi) => {
            let mut l = features::suit_lengths(d.hand(Seat::ALL[*seat]));
            l.sort_unstable();
            let bal = matches!(l, [3, 3, 3, 4] | [2, 3, 4, 4] | [2, 3, 3, 5]);
            bal || (*semi && matches!(l, [2, 2, 4, 5] | [2, 2, 3, 6]))
        }
        G::Shape(_, seat, lengths, exact, equal) => {
            let mut got = features::suit_lengths(d.hand(Seat::ALL[*seat]));
            let mut want = *lengths;
            if !exact {
                got.sort_unstable();
                want.sort_unstable();
            }
            (got == want) == *equal
        }
        G::Not(_, inner) => !oracle(inner, d, table),
        G::And(parts, _) => parts.iter().all(|(p, _)| oracle(p, d, table)),
        G::Or(parts, _) => parts.iter().any(|(p, _)| oracle(p, d, table)),
    }
}

/// The query text of `g`: parentheses where precedence needs them, and where the
/// generator asked for extra ones.
fn text(g: &G) -> String {
    let group = |p: &G, needed: bool, extra: bool| {
        if needed || extra {
            format!("({})", text(p))
        } else {
            text(p)
        }
    };
    match g {
        G::Cmp(s, ..) | G::Range(s, ..) | G::Balanced(s, ..) | G::Shape(s, ..) => s.clone(),
        G::Not(kw, inner) => {
            let needed = matches!(**inner, G::And(..) | G::Or(..));
            format!("{kw}{}", group(inner, needed, false))
        }
        G::And(parts, spelling) => parts
            .iter()
            .map(|(p, extra)| group(p, matches!(p, G::Or(..)), *extra))
            .collect::<Vec<_>>()
            .join([" and ", " && ", " AND ", "&&"][*spelling]),
        G::Or(parts, spelling) => parts
            .iter()
            .map(|(p, extra)| group(p, false, *extra))
            .collect::<Vec<_>>()
            .join([" or ", " || ", " OR ", "||"][*spelling]),
    }
}

const SEAT_NAMES: [[&str; 4]; 4] = [
    ["N", "n", "north", "North"],
    ["E", "e", "east", "EAST"],
    ["S", "s", "south", "South"],
    ["W", "w", "west", "West"],
];
const SIDE_NAMES: [[&str; 2]; 2] = [["NS", "ns"], ["EW", "Ew"]];
const SUIT_NAMES: [[&str; 4]; 4] = [
    ["spades", "S", "♠", "Spade"],
    ["hearts", "h", "♥", "HEARTS"],
    ["diamonds", "D", "♦", "diamond"],
    ["clubs", "c", "♣", "Clubs"],
];
const STRAIN_NAMES: [[&str; 3]; 5] = [
    ["notrump", "NT", "nt"],
    ["spades", "S", "♠"],
    ["hearts", "h", "Hearts"],
    ["diamonds", "D", "♦"],
    ["clubs", "c", "♣"],
];
const VUL_NAMES: [[&str; 3]; 4] = [
    ["none", "Love", "NONE"],
    ["ns", "NS", "Ns"],
    ["ew", "EW", "eW"],
    ["all", "Both", "ALL"],
];
const OPS: [[&str; 2]; 6] = [
    ["=", "=="],
    ["!=", "<>"],
    ["<", "<"],
    ["<=", "<="],
    [">", ">"],
    [">=", ">="],
];
/// Sorted shapes that are common enough to be hit by a few dozen deals, plus rare ones.
const SHAPES: [[u8; 4]; 12] = [
    [4, 4, 3, 2],
    [5, 3, 3, 2],
    [5, 4, 3, 1],
    [5, 4, 2, 2],
    [4, 3, 3, 3],
    [6, 3, 2, 2],
    [6, 4, 2, 1],
    [6, 3, 3, 1],
    [5, 5, 2, 1],
    [4, 4, 4, 1],
    [7, 3, 2, 1],
    [10, 1, 1, 1],
];

fn seat() -> impl Strategy<Value = (usize, String)> {
    (0..4usize, 0..4usize).prop_map(|(i, sp)| (i, SEAT_NAMES[i][sp].to_string()))
}

fn who() -> impl Strategy<Value = (W, String)> {
    prop_oneof![
        3 => seat().prop_map(|(i, s)| (W::Seat(i), s)),
        1 => (0..2usize, 0..2usize).prop_map(|(i, sp)| (W::Side(i), SIDE_NAMES[i][sp].to_string())),
    ]
}

/// A number term, its text, and a range its values usually fall in; with `dd`, also
/// `dd(…)` and `par(…)` terms.
fn term(dd: bool) -> BoxedStrategy<(T, String, (i64, i64))> {
    let side_scale = |w: W, lo: i64, hi: i64| match w {
        W::Seat(_) => (lo, hi),
        W::Side(_) => (2 * lo, 2 * hi),
    };
    let base = prop_oneof![
        (who(), prop::bool::ANY).prop_map(move |((w, s), up)| {
            let name = if up { "HCP" } else { "hcp" };
            (T::Hcp(w), format!("{name}({s})"), side_scale(w, 4, 17))
        }),
        (who(), 0..4usize, 0..4usize).prop_map(move |((w, s), suit, sp)| {
            (
                T::Len(w, suit),
                format!("len({s}, {})", SUIT_NAMES[suit][sp]),
                side_scale(w, 1, 5),
            )
        }),
        who().prop_map(move |(w, s)| (
            T::Controls(w),
            format!("controls({s})"),
            side_scale(w, 1, 5)
        )),
        seat().prop_map(|(i, s)| (T::Ltc(i), format!("ltc({s})"), (5, 10))),
        seat().prop_map(|(i, s)| (T::Longest(i), format!("Longest({s})"), (4, 7))),
    ];
    if !dd {
        return base.boxed();
    }
    let dd_terms = prop_oneof![
        (who(), 0..5usize, 0..3usize, prop::bool::ANY).prop_map(|((w, s), strain, sp, up)| {
            let name = if up { "DD" } else { "dd" };
            let text = format!("{name}({s}, {})", STRAIN_NAMES[strain][sp]);
            let range = match w {
                W::Seat(_) => (4, 10),
                W::Side(_) => (6, 11),
            };
            (T::Dd(w, strain), text, range)
        }),
        (
            0..2usize,
            0..2usize,
            0..4usize,
            0..3usize,
            prop::option::of(seat())
        )
            .prop_map(|(side, sp, vul, vsp, dealer)| {
                let who = SIDE_NAMES[side][sp];
                let v = VUL_NAMES[vul][vsp];
                let (text, d) = match dealer {
                    None => (format!("par({who}, {v})"), 0),
                    Some((d, s)) => (format!("Par({who}, {v}, {s})"), d),
                };
                (T::Par(side, vul, d), text, (-700, 700))
            }),
    ];
    prop_oneof![3 => base, 2 => dd_terms].boxed()
}

/// A literal of value `v`: the number, or `0 - x` for a negative one.
fn literal(v: i64) -> (N, String) {
    if v >= 0 {
        (N::T(T::Lit(v)), v.to_string())
    } else {
        let n = N::Sum(Box::new(N::T(T::Lit(0))), true, Box::new(N::T(T::Lit(-v))));
        (n, format!("0 - {}", -v))
    }
}

/// A number (a term, a small literal, or sums and differences of them, with parentheses
/// where needed and now and then where not; spaces around `+`/`-` or none, except between
/// two digits, which would make a shape literal), its text and its usual range.
fn num(dd: bool) -> BoxedStrategy<(N, String, (i64, i64))> {
    let leaf = prop_oneof![
        6 => term(dd).prop_map(|(t, s, r)| (N::T(t), s, r)),
        1 => (0..20i64).prop_map(|v| (N::T(T::Lit(v)), v.to_string(), (v, v))),
    ];
    leaf.prop_recursive(3, 6, 2, |inner| {
        (inner.clone(), prop::bool::ANY, inner, 0..4u8).prop_map(
            |((a, sa, ra), minus, (b, sb, rb), style)| {
                let sb = if matches!(b, N::Sum(..)) && (minus || style == 1) {
                    format!("({sb})")
                } else {
                    sb
                };
                let sa = if matches!(a, N::Sum(..)) && style == 2 {
                    format!("({sa})")
                } else {
                    sa
                };
                let op = if minus { "-" } else { "+" };
                let digits = sa.ends_with(|c: char| c.is_ascii_digit())
                    && sb.starts_with(|c: char| c.is_ascii_digit());
                let text = if style == 3 && !digits {
                    format!("{sa}{op}{sb}")
                } else {
                    format!("{sa} {op} {sb}")
                };
                let range = if minus {
                    (ra.0 - rb.1, ra.1 - rb.0)
                } else {
                    (ra.0 + rb.0, ra.1 + rb.1)
                };
                (N::Sum(Box::new(a), minus, Box::new(b)), text, range)
            },
        )
    })
    .boxed()
}

fn leaf(dd: bool) -> BoxedStrategy<G> {
    prop_oneof![
        // number OP literal, either way round
        (num(dd), 0..6u8, 0..2usize, any::<u32>(), prop::bool::ANY).prop_map(
            |((n, s, (lo, hi)), op, sp, r, flip)| {
                let v = lo + (i64::from(r) % (hi - lo + 1));
                let (lit, ls) = literal(v);
                let o = OPS[op as usize][sp];
                if flip {
                    G::Cmp(format!("{ls} {o} {s}"), lit, op, n)
                } else {
                    G::Cmp(format!("{s} {o} {ls}"), n, op, lit)
                }
            }
        ),
        // number OP number
        (num(dd), 0..6u8, num(dd)).prop_map(|((a, sa, _), op, (b, sb, _))| {
            G::Cmp(format!("{sa} {} {sb}", OPS[op as usize][0]), a, op, b)
        }),
        // number in lo..hi
        (num(dd), any::<u32>(), 0..4i64, prop::bool::ANY).prop_map(
            |((n, s, (lo, hi)), r, w, spaced)| {
                let lo = lo.max(0);
                let hi = hi.max(lo);
                let a = lo + i64::from(r) % (hi - lo + 1);
                let dots = if spaced { " .. " } else { ".." };
                G::Range(format!("{s} in {a}{dots}{}", a + w), n, a, a + w)
            }
        ),
        (seat(), prop::bool::ANY, prop::bool::ANY).prop_map(|((i, s), semi, up)| {
            let name = match (semi, up) {
                (false, false) => "balanced",
                (false, true) => "Balanced",
                (true, false) => "semibalanced",
                (true, true) => "SEMIBALANCED",
            };
            G::Balanced(format!("{name}({s})"), i, semi)
        }),
        // shape / pattern (=|!=) literal, any digit order, compact or dashed
        (
            seat(),
            0..SHAPES.len(),
            Just(vec![0usize, 1, 2, 3]).prop_shuffle(),
            prop::bool::ANY,
            prop::bool::ANY,
            prop::bool::ANY,
            prop::bool::ANY,
        )
            .prop_map(|((i, s), k, perm, exact, equal, dashed, lit_first)| {
                let l = [0, 1, 2, 3].map(|j| SHAPES[k][perm[j]]);
                let lit = if dashed || l.iter().any(|&x| x > 9) {
                    format!("{}-{}-{}-{}", l[0], l[1], l[2], l[3])
                } else {
                    format!("{}{}{}{}", l[0], l[1], l[2], l[3])
                };
                let func = if exact { "pattern" } else { "shape" };
                let op = if equal { "=" } else { "!=" };
                let text = if lit_first {
                    format!("{lit} {op} {func}({s})")
                } else {
                    format!("{func}({s}) {op} {lit}")
                };
                G::Shape(text, i, l, exact, equal)
            }),
    ]
    .boxed()
}

/// A random condition; with `dd`, with `dd(…)` and `par(…)` terms too.
fn condition(dd: bool) -> BoxedStrategy<G> {
    leaf(dd)
        .prop_recursive(5, 48, 4, |inner| {
            prop_oneof![
                (inner.clone(), 0..3usize)
                    .prop_map(|(g, sp)| G::Not(["not ", "!", "NOT "][sp].into(), Box::new(g))),
                (
                    prop::collection::vec((inner.clone(), prop::bool::weighted(0.2)), 2..4),
                    0..4usize
                )
                    .prop_map(|(parts, sp)| G::And(parts, sp)),
                (
                    prop::collection::vec((inner, prop::bool::weighted(0.2)), 2..4),
                    0..4usize
                )
                    .prop_map(|(parts, sp)| G::Or(parts, sp)),
            ]
        })
        .boxed()
}

fn random_deal() -> impl Strategy<Value = Deal> {
    (1..=DEALS).prop_map(|n| Deal::from_number(n, Scheme::Pavlicek).unwrap())
}

/// Checks the whole chain for one generated query over `deals`: it parses, prints back
/// to an equal query, `matches` agrees with the oracle on each deal, and the SQL selects
/// exactly the matching deals. With `tables` (`tables[i]` is `deals[i]`'s double-dummy
/// table, stored in `conn`'s `dd` table), `matches_with_dd` reads them instead of
/// solving. Returns how many deals matched.
fn check(
    g: &G,
    deals: &[Deal],
    tables: Option<&[TrickTable]>,
    conn: &Connection,
) -> Result<usize, TestCaseError> {
    let src = text(g);
    let q = Query::parse(&src).map_err(|e| TestCaseError::fail(format!("{src}: {e}")))?;
    let again =
        Query::parse(&q.to_string()).map_err(|e| TestCaseError::fail(format!("{q}: {e}")))?;
    prop_assert_eq!(&again, &q, "canonical text {} of {}", q, src);
    let table = |i: usize| tables.map(|t| &t[i]);
    let rust = |i: usize| match table(i) {
        Some(t) => q.matches_with_dd(&deals[i], t),
        None => q.matches(&deals[i]),
    };
    let mut want = BTreeSet::new();
    for (i, d) in deals.iter().enumerate() {
        let yes = rust(i);
        prop_assert_eq!(yes, oracle(g, d, table(i)), "{} on {}", src, d);
        if yes {
            want.insert(DealIndex::from_deal(d).0);
        }
    }
    let f = q.to_sql();
    check_placeholders(&f);
    let got = sql_keys(conn, &f);
    prop_assert_eq!(&got, &want, "{} → {} {:?}", src, f.clause, f.params);
    Ok(want.len())
}

/// The clause holds no number but its placeholders `?1`, `?2`, … in order, one per
/// parameter, and the compiler's own implied index terms ` AND hcp_<seat> >= 20` at its end
/// (migration 03's partial indexes), and no quoted text but the compiler's own seat, side
/// and strain letters and vulnerability names.
fn check_placeholders(f: &SqlFilter) {
    let mut body = f.clause.as_str();
    while let Some(head) = ["n", "e", "s", "w"]
        .iter()
        .find_map(|s| body.strip_suffix(&format!(" AND hcp_{s} >= 20")))
    {
        body = head;
    }
    let mut rest = String::new();
    let mut next = 1;
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' {
            let mut k = String::new();
            while let Some(d) = chars.next_if(|d| d.is_ascii_digit()) {
                k.push(d);
            }
            assert_eq!(k.parse::<usize>().unwrap(), next, "{}", f.clause);
            next += 1;
        } else {
            rest.push(c);
        }
    }
    assert_eq!(next - 1, f.params.len(), "{}", f.clause);
    assert!(!rest.chars().any(|c| c.is_ascii_digit()), "{}", f.clause);
    for (i, part) in rest.split('\'').enumerate() {
        if i % 2 == 1 {
            assert!(
                [
                    "N", "E", "S", "W", "NS", "EW", "NT", "H", "D", "C", "None", "All"
                ]
                .contains(&part),
                "{}",
                f.clause
            );
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 300, ..Config::default() })]

    /// Random queries over random deals (a fresh table per case).
    #[test]
    fn sql_equals_matches_equals_oracle(
        g in condition(false),
        deals in prop::collection::vec(random_deal(), 1..40),
    ) {
        let conn = database(&deals);
        check(&g, &deals, None, &conn)?;
    }
}

/// `n` deterministic pseudo-random deals (a 128-bit LCG's high bits → hand-record numbers).
fn random_deals(n: usize) -> Vec<Deal> {
    let mut x: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645)
                .wrapping_add(1);
            Deal::from_number((x >> 32) % DEALS + 1, Scheme::Pavlicek).unwrap()
        })
        .collect()
}

/// Random queries over one table of 3000 random deals; also checks that the generator
/// produces selective queries (some but not all deals), not just trivial ones.
#[test]
fn sql_equals_matches_on_a_big_table() {
    let mut runner = TestRunner::new(Config {
        cases: 200,
        ..Config::default()
    });
    let deals = random_deals(3000);
    let conn = database(&deals);
    let counts = std::cell::RefCell::new(Vec::new());
    runner
        .run(&condition(false), |g| {
            let n = check(&g, &deals, None, &conn)?;
            counts.borrow_mut().push(n);
            Ok(())
        })
        .unwrap();
    let counts = counts.into_inner();
    let selective = counts.iter().filter(|&&n| n > 0 && n < deals.len()).count();
    assert!(
        selective * 2 > counts.len(),
        "{selective} of {}",
        counts.len()
    );
}

// ---------------------------------------------------------------------------------------
// Fuzz: nothing panics.

/// Checks an arbitrary text: parse never panics; an error's column lies within the text
/// (or just past it); a query compiles, evaluates and prints back.
fn no_panic(src: &str) {
    match Query::parse(src) {
        Ok(q) => {
            let f = q.to_sql();
            check_placeholders(&f);
            // The sample's table is solved once: `matches` would solve it per call.
            let _ = if q.uses_dd() {
                q.matches_with_dd(&sample(), sample_table())
            } else {
                q.matches(&sample())
            };
            assert_eq!(Query::parse(&q.to_string()).as_ref(), Ok(&q), "{src}");
        }
        Err(e) => {
            let e = refused(e);
            assert!(
                e.column >= 1 && e.column <= src.chars().count() + 1,
                "{src:?}: {e}"
            );
            assert!(!e.message.is_empty());
        }
    }
}

/// The double-dummy table of [`sample`], solved once.
fn sample_table() -> &'static TrickTable {
    static TABLE: OnceLock<TrickTable> = OnceLock::new();
    TABLE.get_or_init(|| dealdex::dd::solve(&sample()))
}

/// Strings made of the language's pieces (and some wrong ones), so the fuzzing reaches
/// deep into the parser rather than stopping at the first character.
fn token_soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "hcp",
        "len",
        "controls",
        "ltc",
        "longest",
        "balanced",
        "semibalanced",
        "shape",
        "pattern",
        "foo",
        "N",
        "e",
        "S",
        "west",
        "NS",
        "ew",
        "spades",
        "H",
        "♦",
        "♣",
        "(",
        ")",
        ",",
        "=",
        "==",
        "!=",
        "<>",
        "<",
        "<=",
        ">",
        ">=",
        "in",
        "..",
        ".",
        "and",
        "or",
        "not",
        "&&",
        "||",
        "!",
        "&",
        "|",
        "0",
        "5",
        "13",
        "20",
        "4432",
        "4-4-3-2",
        "5-4-3-1",
        "10-1-1-1",
        "99999999999999999999",
        "9223372036854775807",
        "-",
        "+",
        " - ",
        " + ",
        "dd",
        "par",
        "nt",
        "none",
        "Both",
        "all",
        " ",
        "  ",
        "\t",
        "é",
        "💥",
        "\u{0}",
        "x",
    ]);
    prop::collection::vec(pieces, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(Config { cases: 3000, ..Config::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        no_panic(&s);
    }

    #[test]
    fn token_soup_never_panics(s in token_soup()) {
        no_panic(&s);
    }

    #[test]
    fn mutated_valid_queries_never_panic(g in condition(true), cut in any::<prop::sample::Index>(), junk in token_soup()) {
        let t = text(&g);
        let chars: Vec<char> = t.chars().collect();
        let at = cut.index(chars.len() + 1);
        let mut s: String = chars[..at].iter().collect();
        s.push_str(&junk);
        s.extend(&chars[at..]);
        no_panic(&s);
        let truncated: String = chars[..at].iter().collect();
        no_panic(&truncated);
    }
}

// ---------------------------------------------------------------------------------------
// Timing (release): cargo test --release --test it query:: -- --ignored --nocapture

/// `dd(declarer, strain)`: parsed, printed back, compiled to a subquery on the stored
/// table (migration 05) with fixed letters only, and evaluated in Rust by solving.
#[test]
fn dd_terms_parse_print_compile_and_evaluate() {
    let q = Query::parse("dd(N, notrump) >= 9 and DD(ns, ♠) < dd(EW, h)").unwrap();
    assert_eq!(
        q.to_string(),
        "dd(N, notrump) >= 9 and dd(NS, spades) < dd(EW, hearts)"
    );
    let f = q.to_sql();
    assert_eq!(
        f.clause,
        "((SELECT dd_tricks(tricks, 'N', 'NT') FROM dd WHERE dd.deal = key) >= ?1 AND \
         (SELECT dd_tricks(tricks, 'NS', 'S') FROM dd WHERE dd.deal = key) < \
         (SELECT dd_tricks(tricks, 'EW', 'H') FROM dd WHERE dd.deal = key))"
    );
    check_placeholders(&f);
    let e = err("dd(N, trumps) > 3");
    assert_eq!(e.column, 7, "{e}");
    assert!(e.message.contains("unknown strain 'trumps'"), "{e}");
    assert!(err("dd(N) > 3").message.contains("dd takes"));
    // 13 spades in North: 13 tricks for N-S in spades, none in notrump (East leads hearts).
    let deal: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
        .parse()
        .unwrap();
    assert!(
        Query::parse("dd(NS, spades) = 13 and dd(N, nt) = 0")
            .unwrap()
            .matches(&deal)
    );
    assert!(!Query::parse("dd(E, spades) > 0").unwrap().matches(&deal));
    // A cheap operand that fails decides an `and` before the solver runs: no deal is solved
    // (Query::matches_counting_solves says whether one was).
    let no = Query::parse("dd(N, nt) >= 0 and hcp(N) > 37").unwrap();
    let random = random_deals(200);
    let solved = random
        .iter()
        .filter(|d| {
            let (matched, solved) = no.matches_counting_solves(d);
            assert!(!matched, "{d}");
            solved
        })
        .count();
    assert_eq!(solved, 0, "the solver ran for deals hcp() decided");
    // The count can say yes: where the cheap operand passes, the deal is solved, once.
    let yes = Query::parse("dd(N, nt) >= 0 and hcp(N) >= 0").unwrap();
    let solved = random[..3]
        .iter()
        .filter(|d| {
            let (matched, solved) = yes.matches_counting_solves(d);
            assert!(matched, "{d}");
            solved
        })
        .count();
    assert_eq!(solved, 3);
}

/// A compiled clause with the implied index term still passes the placeholder check (a
/// random query that bounded a seat's HCP at 20 or more used to fail it, now and then).
#[test]
fn implied_index_terms_are_fixed_text() {
    let f = Query::parse("longest(N) < 7 and hcp(W) >= 25 and hcp(E) = 20")
        .unwrap()
        .to_sql();
    assert!(
        f.clause.ends_with(" AND hcp_e >= 20 AND hcp_w >= 20"),
        "{}",
        f.clause
    );
    check_placeholders(&f);
}

// ---------------------------------------------------------------------------------------
// Sums and par: over deals with double-dummy tables, and at the edges of i64.

/// One board of tests/fixtures/dd/dd-reference.jsonl: DDS's table and par.
struct Reference {
    deal: Deal,
    dealer: Seat,
    vul: Vulnerability,
    table: TrickTable,
    par: i64,
}

fn reference() -> &'static [Reference] {
    static BOARDS: OnceLock<Vec<Reference>> = OnceLock::new();
    BOARDS.get_or_init(|| {
        include_str!("../fixtures/dd/dd-reference.jsonl")
            .lines()
            .map(|line| {
                let r: serde_json::Value = serde_json::from_str(line).unwrap();
                let mut rows = [[0u8; 5]; 4];
                for (d, seat) in ["N", "E", "S", "W"].iter().enumerate() {
                    for (s, strain) in ["NT", "S", "H", "D", "C"].iter().enumerate() {
                        rows[d][s] = r["tricks"][seat][strain].as_u64().unwrap() as u8;
                    }
                }
                let letter = r["dealer"].as_str().unwrap().chars().next().unwrap();
                Reference {
                    deal: r["deal"].as_str().unwrap().parse().unwrap(),
                    dealer: Seat::from_char(letter).unwrap(),
                    vul: r["vul"].as_str().unwrap().parse().unwrap(),
                    table: TrickTable::new(rows).unwrap(),
                    par: r["par"]["score"].as_i64().unwrap(),
                }
            })
            .collect()
    })
}

/// Deals with their double-dummy tables: the 200 reference boards (DDS's tables) and 12
/// random deals solved here (a few seconds).
fn solved_deals() -> &'static (Vec<Deal>, Vec<TrickTable>) {
    static SOLVED: OnceLock<(Vec<Deal>, Vec<TrickTable>)> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let random = random_deals(12);
        let solved = dealdex::dd::solve_all(&random);
        let mut deals: Vec<Deal> = reference().iter().map(|r| r.deal).collect();
        let mut tables: Vec<TrickTable> = reference().iter().map(|r| r.table).collect();
        deals.extend(random);
        tables.extend(solved);
        (deals, tables)
    })
}

/// Random queries with sums, `dd(…)` and `par(…)` over the solved deals: SQL over the
/// stored tables = `matches_with_dd` = the oracle.
#[test]
fn sql_equals_matches_with_dd_and_par() {
    let (deals, tables) = solved_deals();
    let conn = dd_database(deals, tables);
    let mut runner = TestRunner::new(Config {
        cases: 250,
        ..Config::default()
    });
    let counts = std::cell::RefCell::new(Vec::new());
    let uses = std::cell::Cell::new(0);
    runner
        .run(&condition(true), |g| {
            let n = check(&g, deals, Some(tables), &conn)?;
            counts.borrow_mut().push(n);
            let q = Query::parse(&text(&g)).unwrap();
            uses.set(uses.get() + usize::from(q.uses_dd()));
            Ok(())
        })
        .unwrap();
    let counts = counts.into_inner();
    let selective = counts.iter().filter(|&&n| n > 0 && n < deals.len()).count();
    assert!(
        selective * 2 > counts.len(),
        "{selective} of {}",
        counts.len()
    );
    assert!(
        uses.get() * 2 > counts.len(),
        "{} of {}",
        uses.get(),
        counts.len()
    );
}

/// `matches` (which solves) agrees with `matches_with_dd` on the stored table, and the
/// solver gives DDS's tables for reference boards.
#[test]
fn matches_solves_to_the_stored_table() {
    let (deals, tables) = solved_deals();
    for i in [0, 1, 24, 34] {
        assert_eq!(dealdex::dd::solve(&deals[i]), tables[i], "board {}", i + 1);
    }
    let q = Query::parse(
        "par(NS, none) + dd(N, nt) > par(EW, all, W) - dd(EW, spades) or dd(S, hearts) - 6 >= hcp(S) - 12",
    )
    .unwrap();
    let n = deals.len();
    for i in [0, 24, n - 3, n - 2, n - 1] {
        assert_eq!(
            q.matches(&deals[i]),
            q.matches_with_dd(&deals[i], &tables[i]),
            "{}",
            deals[i]
        );
    }
}

/// `par(side, vul, dealer)` is DDS's par for all 200 reference boards, in Rust and in the
/// store's SQL; a deal without a table matches no `par` condition in SQL, not even a
/// negated one.
#[test]
fn par_is_the_reference_par_in_rust_and_in_the_store() {
    let boards = reference();
    // Board 1 by hand: 13 spades in North, 13 hearts in East: N-S's 7♠ makes, outranking
    // E-W's 7♥; not vulnerable, 210 + 300 + 1000.
    assert_eq!(
        (boards[0].dealer, boards[0].vul, boards[0].par),
        (Seat::North, Vulnerability::None, 1510)
    );
    let mut store = dealdex::Store::open_in_memory().unwrap();
    let solved: Vec<(DealIndex, TrickTable)> = boards
        .iter()
        .map(|r| (DealIndex::from_deal(&r.deal), r.table))
        .collect();
    store.store_dd(&solved).unwrap();
    let unsolved = random_deals(1)[0];
    store
        .insert_deals(&[DealIndex::from_deal(&unsolved)])
        .unwrap();
    let conn = store.connection();
    let select = |q: &Query| -> BTreeSet<[u8; 13]> {
        let f = q.to_sql();
        conn.prepare(&format!("SELECT key FROM deal_features WHERE {}", f.clause))
            .unwrap()
            .query_map(rusqlite::params_from_iter(&f.params), |r| r.get(0))
            .unwrap()
            .map(|k| k.unwrap())
            .collect()
    };
    let vul_name = |v: Vulnerability| match v {
        Vulnerability::None => "love",
        Vulnerability::NorthSouth => "NS",
        Vulnerability::EastWest => "ew",
        Vulnerability::All => "Both",
    };
    let number = |v: i64| {
        if v < 0 {
            format!("0 - {}", -v)
        } else {
            v.to_string()
        }
    };
    let mut negative = 0;
    for (i, r) in boards.iter().enumerate() {
        let key = DealIndex::from_deal(&r.deal).0;
        let (v, d) = (vul_name(r.vul), r.dealer.letter());
        let text = format!(
            "par(NS, {v}, {d}) = {} and par(EW, {v}, {d}) = {}",
            number(r.par),
            number(-r.par)
        );
        let q = Query::parse(&text).unwrap();
        assert!(
            q.matches_with_dd(&r.deal, &r.table),
            "board {}: {text}",
            i + 1
        );
        assert!(select(&q).contains(&key), "board {}: {text}", i + 1);
        negative += usize::from(r.par < 0);
    }
    assert!(negative > 20, "{negative}");
    let all_solved: BTreeSet<[u8; 13]> = solved.iter().map(|(k, _)| k.0).collect();
    for text in [
        "par(NS, none) >= 0 or par(NS, none) < 0",
        "not par(EW, all, W) = 0 or par(EW, all, W) = 0",
        "not (par(NS, ns) + dd(N, nt) > 1000000)",
    ] {
        let q = Query::parse(text).unwrap();
        assert_eq!(select(&q), all_solved, "{text}");
    }
    // Sums through the real view and its SQL functions: every deal has 40 HCP.
    let q = Query::parse("hcp(N) + hcp(E) + (hcp(S) + hcp(W)) - controls(NS) = 40 - controls(NS)")
        .unwrap();
    assert_eq!(select(&q).len(), all_solved.len() + 1);
}

/// Par depends on the dealer only on some boards (when both sides can make the same
/// level); the dealer argument reaches both ends.
#[test]
fn par_depends_on_the_dealer_on_some_boards() {
    let (deals, tables) = solved_deals();
    let q = Query::parse("par(NS, none) != par(NS, none, E) or par(NS, all, S) != par(NS, all, W)")
        .unwrap();
    let conn = dd_database(deals, tables);
    let mut want = BTreeSet::new();
    for (d, t) in deals.iter().zip(tables) {
        let par = |dealer, vul| t.par(dealer, vul).score;
        let differs = par(Seat::North, Vulnerability::None) != par(Seat::East, Vulnerability::None)
            || par(Seat::South, Vulnerability::All) != par(Seat::West, Vulnerability::All);
        assert_eq!(q.matches_with_dd(d, t), differs, "{d}");
        if differs {
            want.insert(DealIndex::from_deal(d).0);
        }
    }
    assert!(
        !want.is_empty() && want.len() * 2 < deals.len(),
        "{}",
        want.len()
    );
    assert_eq!(sql_keys(&conn, &q.to_sql()), want);
}

/// A cheap operand of `and` decides before a `par` sum solves the deal.
#[test]
fn par_sums_wait_for_cheaper_operands() {
    let q = Query::parse("par(NS, none) + dd(N, nt) >= 0 and hcp(N) + hcp(S) > 40").unwrap();
    let deals = random_deals(200);
    let solved = deals
        .iter()
        .filter(|d| {
            let (matched, solved) = q.matches_counting_solves(d);
            assert!(!matched, "{d}");
            solved
        })
        .count();
    assert_eq!(solved, 0, "the solver ran");
    // With the cheap operand first or last, and passing, the sum solves each deal once.
    for text in [
        "par(NS, none) + dd(N, nt) + 8000 > 0 and hcp(N) + hcp(S) <= 40",
        "hcp(N) + hcp(S) <= 40 and par(NS, none) + dd(N, nt) + 8000 > 0",
    ] {
        let q = Query::parse(text).unwrap();
        for d in &deals[..2] {
            assert_eq!(q.matches_counting_solves(d), (true, true), "{text}: {d}");
        }
    }
}

/// The bounds docs/query.md gives for each term, which decide the overflow check.
fn bounds(t: T) -> (i128, i128) {
    let side = |w: W, seat: i128, side: i128| match w {
        W::Seat(_) => (0, seat),
        W::Side(_) => (0, side),
    };
    match t {
        T::Lit(v) => (i128::from(v), i128::from(v)),
        T::Hcp(w) => side(w, 37, 40),
        T::Len(..) | T::Dd(..) => (0, 13),
        T::Controls(_) | T::Ltc(_) => (0, 12),
        T::Longest(_) => (4, 13),
        T::Par(..) => (-7600, 7600),
    }
}

/// `n`'s terms with their signs, as a flat left-to-right sum (`a - (b - c)` is
/// `a - b + c`).
fn flatten(n: &N, minus: bool, out: &mut Vec<(bool, T)>) {
    match n {
        N::T(t) => out.push((minus, *t)),
        N::Sum(a, m, b) => {
            flatten(a, minus, out);
            flatten(b, minus != *m, out);
        }
    }
}

/// Whether some partial sum of `n`, left to right, could leave `i64`: of its flat form
/// (what is computed) or of a parenthesised sum in it (what is written). In
/// [`huge_num`]'s texts exactly the right operands that are sums have parentheses.
fn could_overflow(n: &N) -> bool {
    let mut flat = Vec::new();
    flatten(n, false, &mut flat);
    let (mut lo, mut hi) = (0i128, 0i128);
    let computed = flat.iter().any(|&(minus, t)| {
        let (a, b) = bounds(t);
        (lo, hi) = if minus {
            (lo - b, hi - a)
        } else {
            (lo + a, hi + b)
        };
        lo < i128::from(i64::MIN) || hi > i128::from(i64::MAX)
    });
    fn groups(n: &N) -> bool {
        match n {
            N::T(_) => false,
            N::Sum(a, _, b) => groups(a) || matches!(**b, N::Sum(..)) && could_overflow(b),
        }
    }
    computed || groups(n)
}

fn huge_literal() -> impl Strategy<Value = i64> {
    prop_oneof![
        0..50i64,
        (i64::MAX - 50)..=i64::MAX,
        (i64::MAX / 2 - 50)..(i64::MAX / 2 + 50),
    ]
}

/// Sums of terms and literals near 0, `i64::MAX / 2` and `i64::MAX`.
fn huge_num() -> impl Strategy<Value = (N, String)> {
    let leaf = prop_oneof![
        term(false).prop_map(|(t, s, _)| (N::T(t), s)),
        huge_literal().prop_map(|v| (N::T(T::Lit(v)), v.to_string())),
    ];
    leaf.prop_recursive(3, 6, 2, |inner| {
        (inner.clone(), prop::bool::ANY, inner).prop_map(|((a, sa), minus, (b, sb))| {
            let sb = if matches!(b, N::Sum(..)) {
                format!("({sb})")
            } else {
                sb
            };
            let text = format!("{sa} {} {sb}", if minus { "-" } else { "+" });
            (N::Sum(Box::new(a), minus, Box::new(b)), text)
        })
    })
}

proptest! {
    #![proptest_config(Config { cases: 400, ..Config::default() })]

    /// A sum is refused exactly when a partial sum could overflow (by the documented
    /// bounds); otherwise Rust and SQL compute it exactly (the oracle works in i128).
    #[test]
    fn huge_sums_are_refused_or_exact(
        (n, s) in huge_num(),
        op in 0..6u8,
        rhs in huge_literal(),
        deals in prop::collection::vec(random_deal(), 1..8),
    ) {
        let text = format!("{s} {} {rhs}", OPS[op as usize][0]);
        match Query::parse(&text) {
            Ok(_) => {
                prop_assert!(!could_overflow(&n), "{} was accepted", text);
                let g = G::Cmp(text, n, op, N::T(T::Lit(rhs)));
                check(&g, &deals, None, &database(&deals))?;
            }
            Err(e) => {
                let e = refused(e);
                prop_assert!(could_overflow(&n), "{}: {}", text, e);
                prop_assert!(e.message.starts_with("number out of range: "), "{}: {}", text, e);
            }
        }
    }
}

/// Sums that reach exactly `i64::MAX` and `i64::MIN` are computed exactly by both ends.
#[test]
fn sums_at_the_edges_of_i64_agree() {
    const MAX: i64 = i64::MAX;
    let deals = random_deals(500);
    let conn = database(&deals);
    let direct = |f: &dyn Fn(&Deal) -> bool| -> BTreeSet<[u8; 13]> {
        deals
            .iter()
            .filter(|d| f(d))
            .map(|d| DealIndex::from_deal(d).0)
            .collect()
    };
    fn hcp(d: &Deal, s: Seat) -> i64 {
        i64::from(features::hcp(d.hand(s)))
    }
    type Expected = fn(&Deal) -> bool;
    let cases: Vec<(String, Expected)> = vec![
        (format!("{} + hcp(N) = {MAX}", MAX - 37), |d| {
            hcp(d, Seat::North) == 37
        }),
        (format!("{MAX} - hcp(N) >= {}", MAX - 10), |d| {
            hcp(d, Seat::North) <= 10
        }),
        (
            format!("0 - {MAX} - 1 + hcp(S) <= 0 - {MAX} - 1 + 12"),
            |d| hcp(d, Seat::South) <= 12,
        ),
        (
            format!("hcp(E) - {MAX} - 1 < 0 - {MAX} + 9 or hcp(W) - 1 - {MAX} in 0..{MAX}"),
            |d| hcp(d, Seat::East) < 10,
        ),
        (format!("{MAX} - 40 + hcp(EW) > {MAX} - 20"), |d| {
            hcp(d, Seat::East) + hcp(d, Seat::West) > 20
        }),
    ];
    for (text, f) in &cases {
        let q = Query::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let want = direct(&|d| f(d));
        assert!(!want.is_empty() || text.contains("= 9223"), "{text}");
        let rust = direct(&|d| q.matches(d));
        assert_eq!(rust, want, "{text}");
        assert_eq!(sql_keys(&conn, &q.to_sql()), want, "{text}");
    }
}

// ---------------------------------------------------------------------------------------
// Issue 27, defect 7: long chains and deep queries.

/// A chain of `n` conditions joined by `op`, cycling through `kinds`.
fn chain(kinds: &[&str], n: usize, op: &str) -> String {
    let parts: Vec<&str> = (0..n).map(|i| kinds[i % kinds.len()]).collect();
    parts.join(&format!(" {op} "))
}

/// 2,000 `and`ed (or `or`ed) conditions compile to SQL SQLite accepts (before: "Expression
/// tree is too large"), and the SQL and Rust answers agree on 300 deals, for chains that
/// hold, fail at the last operand, or hold by the last operand only.
#[test]
fn long_chains_compile_balanced_and_agree_with_rust() {
    let seed: dealdex::Seed = "27".repeat(32).parse().unwrap();
    let deals: Vec<Deal> = (1..=300).map(|k| seed.board_deal(k)).collect();
    let conn = database(&deals);
    let kinds = [
        "hcp(N) >= 0",
        "len(S, spades) <= 13",
        "(balanced(E) or not balanced(E))",
        "controls(W) >= 0 and ltc(S) <= 12",
        "hcp(NS) + hcp(EW) = 40",
        "shape(N) != 13-0-0-0",
    ];
    let all = chain(&kinds, 2000, "and");
    let no = chain(&["hcp(N) > 37", "len(W, hearts) = 14 - 1 + 1"], 2000, "or");
    for (text, want) in [
        (all.clone(), deals.len()),
        (format!("{all} and hcp(S) > 37"), 0),
        (format!("{no} or hcp(E) >= 0"), deals.len()),
        (format!("({all}) and hcp(N) >= 12 or {no}"), usize::MAX),
    ] {
        let q = Query::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let rust: BTreeSet<[u8; 13]> = deals
            .iter()
            .filter(|d| q.matches(d))
            .map(|d| DealIndex::from_deal(d).0)
            .collect();
        if want != usize::MAX {
            assert_eq!(rust.len(), want);
        }
        assert_eq!(sql_keys(&conn, &q.to_sql()), rust);
    }
    // The chain is balanced: its first operands are nested some log2(2000) levels deep.
    let clause = Query::parse(&all).unwrap().to_sql().clause;
    let opening = clause.chars().take_while(|&c| c == '(').count();
    assert!((8..=12).contains(&opening), "{opening}: {}", &clause[..80]);
}

/// Past the documented limits a query is refused with its column: a sum of more than
/// MAX_SUM_TERMS terms at the operator, a group whose SQL would be too deep or need too
/// many parameters at the group; below them, SQLite accepts the SQL.
#[test]
fn deep_and_large_queries_are_refused_at_a_column_or_accepted_by_sqlite() {
    use dealdex::query::{MAX_SQL_PARAMS, MAX_SUM_TERMS};
    let conn = dd_database(&[sample()], &[dealdex::dd::solve(&sample())]);
    let sum = |n: usize| vec!["controls(NS)"; n].join(" + ") + " >= 0";
    assert!(Query::parse(&sum(MAX_SUM_TERMS)).is_ok());
    let e = err(&sum(MAX_SUM_TERMS + 1));
    assert!(e.message.starts_with("sum too long"), "{e}");
    assert_eq!(e.column, "controls(NS) + ".len() * MAX_SUM_TERMS - 1);
    let params = MAX_SQL_PARAMS / 28 + 1;
    let e = err(&format!(
        "hcp(N) >= 0 or ({})",
        chain(&["balanced(N)"], params, "and")
    ));
    assert!(e.message.starts_with("query too large"), "{e}");
    assert_eq!(e.column, "hcp(N) >= 0 or (".len() + 1);
    // Nest wide chains in parentheses around a long sum, alternating and / or: every query
    // either parses and prepares in SQLite, or is refused as too deep at its first column
    // (the group that crossed the limit: the inner groups were accepted a level before).
    let (mut accepted, mut refused) = (0, 0);
    let prepare = |clause: &str| {
        conn.prepare(&format!("SELECT key FROM deals WHERE {clause}"))
            .map(drop)
    };
    for width in [2usize, 40, 150] {
        for sum_terms in [1usize, 200] {
            let mut text = format!("{} >= 0", vec!["dd(NS, nt)"; sum_terms].join(" + "));
            // The deepest accepted so far: SQLite takes its time over thousands of terms,
            // so it prepares that one, and every tenth level.
            let mut deepest = String::new();
            for level in 0..MAX_DEPTH - 1 {
                let op = if level % 2 == 0 { "and" } else { "or" };
                let inner = format!("({text})");
                let mut parts = vec!["hcp(N) >= 0"; width - 1];
                parts.push(&inner);
                text = parts.join(&format!(" {op} "));
                match Query::parse(&text) {
                    Ok(q) => {
                        deepest = q.to_sql().clause;
                        if level % 10 == 0 {
                            prepare(&deepest)
                                .unwrap_or_else(|e| panic!("{width} {sum_terms} {level}: {e}"));
                        }
                        accepted += 1;
                    }
                    Err(e) => {
                        let e = self::refused(e);
                        assert!(e.message.starts_with("query too deep"), "{e}");
                        assert_eq!(e.column, 1, "{e}");
                        refused += 1;
                        break;
                    }
                }
            }
            prepare(&deepest).unwrap_or_else(|e| panic!("{width} {sum_terms}: {e}"));
        }
    }
    assert!(accepted > 300 && refused > 0, "{accepted} {refused}");
}

/// `generate --where` with a huge query tests few deals past the last match: its chunks of
/// work shrink with the query's size (before: a window of 8 × 16,384 deals on 2 cores, 3.5 s
/// for 2 deals with 1,000 conditions). Counted in deals tested, not in time.
#[test]
fn first_matching_with_a_huge_query_tests_few_deals() {
    let seed: dealdex::Seed = "27".repeat(32).parse().unwrap();
    let q = Query::parse(&chain(
        &["hcp(N) >= 0", "len(S, spades) <= 13"],
        2000,
        "and",
    ))
    .unwrap();
    // The first 5 matches, tested in chunks of the query's size (as `generate --where` does).
    let first_five = |q: &Query| {
        let chunk = q.search_chunk();
        dealdex::first_matching(&seed, None, (1, 5), chunk, |d| q.matches(d), &mut |_| {})
    };
    let found = first_five(&q);
    assert_eq!(found.deals.len(), 5);
    assert_eq!(found.drawn, 5);
    let threads = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u64));
    // At most a few windows of 4 chunks a thread, of at most 64 deals each for this size.
    assert!(
        found.tested <= 3 * 4 * threads * 64,
        "{} on {threads} threads",
        found.tested
    );
    // A small query keeps the big chunks (its throughput is unchanged).
    let small = first_five(&Query::parse("hcp(N) >= 0").unwrap());
    assert!(small.tested >= 16_384, "{}", small.tested);
}

// ---------------------------------------------------------------------------------------
// Issue 27, defect 6: `Query::never_matches`, the range analysis `generate --where` uses to
// refuse queries no deal can match, is sound: it never refuses a query some deal matches.

/// Deals at the ends of the features' ranges (37 HCP and 0 HCP hands, 13-card suits,
/// voids), each seen from every seat, and 3000 random deals.
fn edge_deals() -> Vec<Deal> {
    let mut deals = random_deals(3000);
    for d in [
        "AKQJ.AKQ.AKQ.AKQ T98765432.JT98.. .765432.JT9876.J ..5432.T98765432",
        "AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
        "AKQJ.AKQ.AKQ.AKQ T98765432.T987.. .J65432.J5432.J2 ..T9876.T9876543",
    ] {
        for seat in ["N", "E", "S", "W"] {
            let deal: Deal = format!("{seat}:{d}").parse().unwrap();
            deals.push(deal);
        }
    }
    deals
}

/// Literals near the ends of the features' ranges.
const EDGE_LITERALS: [i64; 17] = [
    0, 1, 3, 4, 5, 11, 12, 13, 14, 20, 36, 37, 38, 40, 41, 74, 75,
];

fn edge_literal() -> impl Strategy<Value = String> {
    (
        prop::sample::select(EDGE_LITERALS.to_vec()),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(v, negative)| match negative && v > 0 {
            true => format!("(0 - {v})"),
            false => v.to_string(),
        })
}

fn edge_term() -> impl Strategy<Value = String> {
    let seat = prop::sample::select(vec!["N", "E", "S", "W"]);
    let who = prop::sample::select(vec!["N", "E", "S", "W", "NS", "EW"]);
    let suit = prop::sample::select(vec!["spades", "hearts", "diamonds", "clubs"]);
    prop_oneof![
        who.clone().prop_map(|w| format!("hcp({w})")),
        (who.clone(), suit).prop_map(|(w, s)| format!("len({w}, {s})")),
        who.prop_map(|w| format!("controls({w})")),
        seat.clone().prop_map(|s| format!("ltc({s})")),
        seat.prop_map(|s| format!("longest({s})")),
    ]
}

fn edge_number() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => edge_term(),
        2 => edge_literal(),
        1 => (edge_term(), edge_term()).prop_map(|(a, b)| format!("{a} + {b}")),
        1 => (edge_term(), edge_literal()).prop_map(|(a, b)| format!("{a} - {b}")),
    ]
}

fn edge_condition() -> impl Strategy<Value = String> {
    let ops = prop::sample::select(vec!["=", "!=", "<", "<=", ">", ">="]);
    let leaf = prop_oneof![
        4 => (edge_number(), ops, edge_number()).prop_map(|(a, o, b)| format!("{a} {o} {b}")),
        2 => (
            edge_number(),
            prop::sample::select(EDGE_LITERALS.to_vec()),
            prop::sample::select(EDGE_LITERALS.to_vec())
        )
            .prop_map(|(a, x, y)| format!("{a} in {}..{}", x.min(y), x.max(y))),
        1 => prop::sample::select(vec!["balanced(N)", "semibalanced(E)", "shape(S) = 4432"])
            .prop_map(str::to_owned),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|c| format!("not ({c})")),
            prop::collection::vec(inner.clone(), 2..4)
                .prop_map(|v| format!("({})", v.join(" and "))),
            prop::collection::vec(inner, 2..4).prop_map(|v| format!("({})", v.join(" or "))),
        ]
    })
}

/// Whenever the analysis says a query can never match, no deal of 3000 random ones and
/// the extreme ones matches it; its error has a column inside the query. And the generator
/// does make such queries (a fair share are refused), so the check is not idle.
#[test]
fn never_matches_never_refuses_a_query_some_deal_matches() {
    let deals = edge_deals();
    let mut runner = TestRunner::new(Config {
        cases: 600,
        ..Config::default()
    });
    let refused = std::cell::Cell::new(0usize);
    runner
        .run(&edge_condition(), |src| {
            let q = Query::parse(&src).map_err(|e| TestCaseError::fail(format!("{src}: {e}")))?;
            if let Some(e) = q.never_matches() {
                let e = self::refused(e);
                refused.set(refused.get() + 1);
                prop_assert!(
                    e.column >= 1 && e.column <= src.chars().count(),
                    "{src}: {e}"
                );
                prop_assert!(e.message.ends_with("so no deal can match the query"), "{e}");
                if let Some(d) = deals.iter().find(|d| q.matches(d)) {
                    return Err(TestCaseError::fail(format!(
                        "{src}: refused ({e}), yet {d} matches"
                    )));
                }
            }
            Ok(())
        })
        .unwrap();
    assert!(refused.get() >= 30, "only {} of 600 refused", refused.get());
}

/// Issue 37: with predealt cards the range analysis narrows HCP, suit lengths and controls
/// to what the seats' cards allow (`Query::never_matches_given`). Sound: whenever it refuses
/// a query, no deal holding those cards matches it — checked on the deal the predeal was cut
/// from and 64 of its completions — and it refuses more than the analysis without a
/// predeal, so the narrowing is not idle.
#[test]
fn never_matches_given_a_predeal_never_refuses_a_deal_that_holds_it() {
    use dealdex::shuffle::Shuffler;
    use dealdex::{Hand, Seed};
    let deals = random_deals(64);
    let mut runner = TestRunner::new(Config {
        cases: 600,
        ..Config::default()
    });
    let (refused, refused_alone) = (std::cell::Cell::new(0usize), std::cell::Cell::new(0usize));
    runner
        .run(
            &(edge_condition(), 0..deals.len(), any::<u64>()),
            |(src, i, keep)| {
                let q =
                    Query::parse(&src).map_err(|e| TestCaseError::fail(format!("{src}: {e}")))?;
                // Each seat keeps a pseudo-random share of its cards of deal i.
                let d = deals[i];
                let mut bits = keep | 1;
                let fixed = Seat::ALL.map(|seat| {
                    let mut h = Hand::EMPTY;
                    for c in d.hand(seat).cards() {
                        bits ^= bits << 13;
                        bits ^= bits >> 7;
                        bits ^= bits << 17;
                        if bits % 4 != 0 {
                            h.insert(c);
                        }
                    }
                    h
                });
                let Some(e) = q.never_matches_given(&fixed).map(self::refused) else {
                    return Ok(());
                };
                refused.set(refused.get() + 1);
                refused_alone.set(refused_alone.get() + usize::from(q.never_matches().is_some()));
                prop_assert!(e.message.ends_with("so no deal can match the query"), "{e}");
                let text = Seat::ALL
                    .iter()
                    .map(|&s| format!("{}:{}", s.letter(), fixed[s.index()]))
                    .collect::<Vec<_>>()
                    .join(" ");
                let predeal = dealdex::Predeal::parse(&text)
                    .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
                let mut completions = [d; 64];
                Shuffler::new(&Seed([7; 32]), Some(&predeal)).fill(0, &mut completions);
                if let Some(m) = std::iter::once(&d)
                    .chain(&completions)
                    .find(|m| q.matches(m))
                {
                    return Err(TestCaseError::fail(format!(
                        "{src} with {text}: refused ({e}), yet {m} matches"
                    )));
                }
                Ok(())
            },
        )
        .unwrap();
    assert!(
        refused.get() >= refused_alone.get() + 30,
        "{} refused with the predeal, {} without",
        refused.get(),
        refused_alone.get()
    );
}

/// A lone term compared with a literal is refused exactly when no value the feature can
/// take satisfies the comparison (each feature takes every value of its range, from its
/// definition): the analysis is as sharp as the ranges allow, and no sharper.
#[test]
fn never_matches_is_exact_for_a_term_against_a_literal() {
    let terms: [(&str, i64, i64); 10] = [
        ("hcp(W)", 0, 37),
        ("hcp(EW)", 0, 40),
        ("len(N, clubs)", 0, 13),
        ("len(NS, hearts)", 0, 13),
        ("controls(S)", 0, 12),
        ("controls(NS)", 0, 12),
        ("ltc(E)", 0, 12),
        ("longest(N)", 4, 13),
        ("dd(S, nt)", 0, 13),
        ("dd(EW, spades)", 0, 13),
    ];
    type Op = fn(i64, i64) -> bool;
    let ops: [(&str, Op); 6] = [
        ("=", |a, b| a == b),
        ("!=", |a, b| a != b),
        ("<", |a, b| a < b),
        ("<=", |a, b| a <= b),
        (">", |a, b| a > b),
        (">=", |a, b| a >= b),
    ];
    for (term, lo, hi) in terms {
        for (op, holds) in ops {
            for k in 0..=45i64 {
                let possible = (lo..=hi).any(|v| holds(v, k));
                let src = format!("{term} {op} {k}");
                let q = Query::parse(&src).unwrap();
                assert_eq!(q.never_matches().is_none(), possible, "{src}");
                let src = format!("not {term} {op} {k}");
                let q = Query::parse(&src).unwrap();
                let possible = (lo..=hi).any(|v| !holds(v, k));
                assert_eq!(q.never_matches().is_none(), possible, "{src}");
                if let Some(e) = q.never_matches() {
                    assert_eq!(e.column(), Some(5), "{src}");
                }
            }
            for (a, b) in [(0, 3), (lo, lo), (hi, hi), (hi + 1, 50), (38, 41)] {
                let src = format!("{term} in {a}..{b}");
                let possible = (lo..=hi).any(|v| (a..=b).contains(&v));
                let q = Query::parse(&src).unwrap();
                assert_eq!(q.never_matches().is_none(), possible, "{src}");
            }
        }
    }
}
