//! Unit tests of sums (`+`, `-`) and `par(…)`: parsing, canonical text, errors with their
//! columns, the overflow rule, SQL and evaluation. tests/it/query.rs checks the rest and
//! compares Rust with SQL on random queries.

use super::*;

fn parse(text: &str) -> Query {
    Query::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
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

fn err(text: &str) -> Refused {
    match Query::parse(text).map_err(Error::into_kind) {
        Ok(q) => panic!("{text:?} parsed as {q}"),
        Err(ErrorKind::Syntax { column, message }) => Refused { column, message },
        Err(other) => panic!("{text:?}: {other}"),
    }
}

/// Each `(text, column, part)`: `text` does not parse, the error is at `column` and its
/// message contains `part`.
fn errors_at(cases: &[(&str, usize, &str)]) {
    for &(text, column, part) in cases {
        let e = err(text);
        assert_eq!(e.column, column, "{text:?}: {e}");
        assert!(e.message.contains(part), "{text:?}: {e} (wanted {part:?})");
    }
}

/// `text` prints as `canonical`, which parses back to the same query.
fn canonical(text: &str, canonical: &str) {
    let q = parse(text);
    assert_eq!(q.to_string(), canonical, "{text}");
    assert_eq!(parse(canonical), q, "{canonical}");
}

/// North 13 spades, East 13 hearts, South 13 diamonds, West 13 clubs.
fn solid() -> Deal {
    "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
        .parse()
        .unwrap()
}

/// North J987.JT7643.A4.Q (8 HCP), East -.KQ2.QT9.AK98543 (14), South AQ42.A8.KJ762.J2
/// (15), West KT653.95.853.T76 (3).
fn sample() -> Deal {
    "N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76"
        .parse()
        .unwrap()
}

#[test]
fn sums_print_canonically_and_flatten() {
    canonical("hcp(N)+hcp(S)<=22", "hcp(N) + hcp(S) <= 22");
    canonical(
        "len(n, S) - LEN(n, ♥) >= 2",
        "len(N, spades) - len(N, hearts) >= 2",
    );
    canonical(
        "dd(N, NT) + 1 >= dd(E, s)",
        "dd(N, notrump) + 1 >= dd(E, spades)",
    );
    canonical("hcp(N) + hcp(S) in 20..24", "hcp(N) + hcp(S) in 20..24");
    canonical("(hcp(N) + hcp(S)) >= (20)", "hcp(N) + hcp(S) >= 20");
    // Parenthesised sums are flattened; after `-` their signs flip.
    canonical(
        "hcp(N) - (hcp(S) - hcp(E) + 1) > 0",
        "hcp(N) - hcp(S) + hcp(E) - 1 > 0",
    );
    canonical("(1 + hcp(N)) - ((hcp(E))) > 0", "1 + hcp(N) - hcp(E) > 0");
    canonical("0 - 1 < hcp(W) - 2", "0 - 1 < hcp(W) - 2");
    canonical("1 + 2 = 3", "1 + 2 = 3");
    assert_eq!(
        parse("hcp(N) - (hcp(S) - 1) > 0"),
        parse("hcp(N) - hcp(S) + 1 > 0")
    );
    // `-` between digits is a shape literal; with spaces (or after a term) a difference.
    assert!(Query::parse("shape(E) = 4-4-3-2 and hcp(N)-1 > 3-2").is_err());
    canonical(
        "shape(E) = 4-4-3-2 and hcp(N)-1 > 3 - 2",
        "shape(E) = 4-4-3-2 and hcp(N) - 1 > 3 - 2",
    );
    canonical("pattern(W)=5-4-3-1", "pattern(W) = 5-4-3-1");
    // Comparisons bind looser than sums, `not` looser than comparisons.
    canonical(
        "not hcp(N) + 1 > 5 or balanced(N)",
        "not hcp(N) + 1 > 5 or balanced(N)",
    );
}

#[test]
fn sum_errors_have_columns() {
    let cases: &[(&str, usize, &str)] = &[
        ("balanced(N) + 1 > 2", 1, "balanced(N) is a condition"),
        ("hcp(N) + balanced(S) > 2", 10, "balanced(S) is a condition"),
        ("hcp(N) - (hcp(S) > 1) > 0", 10, "is a condition"),
        ("shape(N) + 1 > 2", 1, "shape(N) is a shape"),
        ("hcp(N) + shape(S) = 4432", 10, "shape(S) is a shape"),
        (
            "hcp(N) - 4-4-3-2 > 0",
            10,
            "4-4-3-2 is a shape, not a number",
        ),
        ("hcp(N) > 10-2", 10, "put spaces around -"),
        ("4-4-3-2 + 1 > 0", 1, "is a shape"),
        (
            "shape(E) = 4432 + 0",
            12,
            "can only be compared with a shape literal",
        ),
        ("hcp(N) + 1", 1, "is a number, not a condition"),
        ("hcp(N) + > 1", 10, "expected a condition, a number or '('"),
        ("hcp(N) > -1", 10, "negative numbers"),
        ("hcp(N) - - 1 > 0", 10, "negative numbers"),
        ("hcp(N) +", 9, "unexpected end of query"),
        ("hcp(N) + 1 2", 12, "unexpected '2' after hcp(N) + 1"),
        ("hcp(N) in 1 + 1..5", 13, "expected '..'"),
        ("hcp(N) + 1 < 2 + 3 < 4", 20, "cannot be chained"),
    ];
    errors_at(cases);
}

#[test]
fn sums_that_could_overflow_are_refused_at_the_operator() {
    const MAX: i64 = i64::MAX;
    // hcp(N) is 0..=37, so this could reach MAX + 37.
    let e = err(&format!("hcp(N) + {MAX} > 0"));
    assert_eq!(e.column, 8, "{e}");
    assert_eq!(
        e.message,
        format!(
            "number out of range: hcp(N) + {MAX} could be as large as {} on some deal (the limit is {MAX}; each term's range is in docs/query.md)",
            i128::from(MAX) + 37
        )
    );
    // The exact edges are fine: MAX - 37 + 37 = MAX, 0 - MAX - 1 = i64::MIN.
    parse(&format!("{} + hcp(N) > 0", MAX - 37));
    parse(&format!("0 - {MAX} - 1 < hcp(N)"));
    // Each term's range counts on its own, even for the same term twice.
    assert_eq!(err(&format!("{MAX} - hcp(S) + hcp(S) >= 0")).column, 30);
    parse(&format!("{MAX} - hcp(S) - hcp(S) >= 0"));
    let e = err(&format!("{} + hcp(N) > 0", MAX - 36));
    assert_eq!(e.column, 21, "{e}");
    let e = err(&format!("0 - {MAX} - 1 - hcp(N) < 0"));
    assert_eq!(e.column, 29, "{e}");
    assert!(
        e.message.contains("as small as -9223372036854775845"),
        "{e}"
    );
    // A side's HCP reaches 40; longest() 4..=13; par ±7600.
    parse(&format!("{} + hcp(NS) > 0", MAX - 40));
    assert_eq!(err(&format!("{} + hcp(NS) > 0", MAX - 39)).column, 21);
    parse(&format!("0 - {} - longest(N) > 0", MAX - 12));
    parse(&format!("{} + par(NS, none) > 0", MAX - 7600));
    assert_eq!(
        err(&format!("{} - par(EW, all) > 0", MAX - 7599)).column,
        21
    );
    // Inside parentheses, the check is on the flattened sum, at the outer operator.
    let e = err(&format!("{MAX} - (0 - hcp(N)) > 0"));
    assert_eq!(e.column, 21, "{e}");
    parse(&format!("{MAX} - ({MAX} - hcp(N)) > 0"));
    // A parenthesised sum is checked as written too, though only the flat form is computed.
    let e = err(&format!("{MAX} - ({MAX} + {MAX}) > 0"));
    assert_eq!(e.column, 44, "{e}");
    // Literals alone and comparisons of huge values are fine.
    parse(&format!("{MAX} > hcp(N) and hcp(N) in 0..{MAX}"));
}

#[test]
fn par_parses_prints_and_checks_its_arguments() {
    canonical("PAR(ns, NONE) > 0", "par(NS, none) > 0");
    canonical("par(EW, Both, west) >= 100", "par(EW, all, W) >= 100");
    canonical("par(ew, love, N) = 0", "par(EW, none) = 0");
    canonical(
        "par(NS, NS, s) < par(NS, EW, e)",
        "par(NS, ns, S) < par(NS, ew, E)",
    );
    canonical(
        "par(NS, all) - par(EW, all) in 0..100",
        "par(NS, all) - par(EW, all) in 0..100",
    );
    let cases: &[(&str, usize, &str)] = &[
        (
            "par(NS, red) > 0",
            9,
            "unknown vulnerability 'red' (vulnerabilities: none, ns, ew, all, both, love)",
        ),
        ("par(NS, ♠) > 0", 9, "unknown vulnerability '♠'"),
        (
            "par(N, none) > 0",
            5,
            "type error: par takes a side (NS or EW), not the seat N",
        ),
        ("par(XY, none) > 0", 5, "unknown seat 'XY'"),
        (
            "par(NS, none, EW) > 0",
            15,
            "the dealer (par's third argument) is a single seat",
        ),
        ("par(NS, none, Q) > 0", 15, "unknown seat 'Q'"),
        (
            "par(NS) > 0",
            7,
            "missing argument: par takes a side, a vulnerability and optionally the dealer",
        ),
        ("par(NS, none, N, E) > 0", 18, "too many arguments"),
        (
            "par(NS, -) > 0",
            9,
            "expected a side, vulnerability or seat as argument of par",
        ),
        ("par(NS, none)", 1, "is a number, not a condition"),
    ];
    errors_at(cases);
}

#[test]
fn sql_of_sums_and_par() {
    let f = parse("hcp(N) + hcp(S) <= 22").to_sql();
    assert_eq!(f.clause, "(hcp_n + hcp_s) <= ?1");
    assert_eq!(f.params, [22]);
    let f = parse("len(NS, spades) - 1 - controls(E) in 3..5").to_sql();
    assert_eq!(
        f.clause,
        "((len_n_s + len_s_s) - ?1 - controls(key, 'E')) BETWEEN ?2 AND ?3"
    );
    assert_eq!(f.params, [1, 3, 5]);
    let f = parse("par(NS, none) > 0 and par(EW, all, W) >= 100 - dd(N, nt)").to_sql();
    assert_eq!(
        f.clause,
        "((SELECT dd_par(tricks, 'N', 'None') FROM dd WHERE dd.deal = key) > ?1 AND \
         (SELECT -dd_par(tricks, 'W', 'All') FROM dd WHERE dd.deal = key) >= \
         (?2 - (SELECT dd_tricks(tricks, 'N', 'NT') FROM dd WHERE dd.deal = key)))"
    );
    assert_eq!(f.params, [0, 100]);
    let f = parse("par(EW, ns, E) = par(NS, ew, S)").to_sql();
    assert_eq!(
        f.clause,
        "(SELECT -dd_par(tricks, 'E', 'NS') FROM dd WHERE dd.deal = key) = \
         (SELECT dd_par(tricks, 'S', 'EW') FROM dd WHERE dd.deal = key)"
    );
    // A sum with an HCP bound is no index condition; a lone term still is.
    assert_eq!(
        parse("hcp(N) + 0 >= 25").to_sql().clause,
        "(hcp_n + ?1) >= ?2"
    );
    assert_eq!(
        parse("hcp(N) >= 25 and hcp(N) - hcp(S) > 3")
            .to_sql()
            .clause,
        "(hcp_n >= ?1 AND (hcp_n - hcp_s) > ?2) AND hcp_n >= 20"
    );
}

#[test]
fn sums_evaluate_left_to_right() {
    let d = sample();
    for (text, want) in [
        ("hcp(N) + hcp(S) = 23", true),
        ("hcp(N) - hcp(E) = 0 - 6", true),
        ("hcp(W) - hcp(E) + hcp(S) = 4", true),
        ("hcp(W) - (hcp(E) + hcp(S)) = 0 - 26", true),
        ("len(N, hearts) - len(N, spades) >= 2", true),
        ("len(N, hearts) - len(N, spades) >= 3", false),
        ("hcp(N) + hcp(S) in 20..24", true),
        ("hcp(N) + hcp(S) in 24..30", false),
        ("controls(EW) - controls(NS) + 2 = 0", true),
        (&format!("{} - hcp(S) = {}", i64::MAX, i64::MAX - 15), true),
        (
            &format!("0 - {} - 1 + hcp(S) = 0 - {}", i64::MAX, i64::MAX - 14),
            true,
        ),
    ] {
        assert_eq!(parse(text).matches(&d), want, "{text}");
    }
}

#[test]
fn par_evaluates_from_the_sides_view() {
    // 13 tricks for N-S in spades and diamonds, for E-W in hearts and clubs, none in
    // notrump for anyone: N-S's 7♠ outranks E-W's 7♥, and a 7NT sacrifice is 13 down.
    let d = solid();
    let table = crate::dd::solve(&d);
    for (text, want) in [
        // 7♠ making: 210 + 300 game + 1000 grand slam not vulnerable, 210 + 500 + 1500
        // vulnerable; E-W's 7NT doubled, 13 down, would cost them 3500 or more.
        ("par(NS, none) = 1510 and par(EW, none) = 0 - 1510", true),
        (
            "par(NS, all) = 2210 and par(NS, ns, E) = 2210 and par(NS, ew, W) = 1510",
            true,
        ),
        ("par(EW, both) < 0", true),
        ("par(EW, none) > 0", false),
        ("par(NS, none) - par(NS, all) = 0 - 700", true),
    ] {
        let q = parse(text);
        assert_eq!(q.matches_with_dd(&d, &table), want, "{text}");
        assert_eq!(q.matches(&d), want, "{text}");
    }
}

#[test]
fn dd_and_par_sums_count_as_expensive() {
    assert!(parse("hcp(N) + dd(N, nt) > 10").uses_dd());
    assert!(parse("not (hcp(N) > 1 or 1 - par(NS, none) > 0)").uses_dd());
    assert!(!parse("hcp(N) + hcp(S) > 10 and shape(E) = 4432").uses_dd());
}

// ---------------------------------------------------------------------------------------
// The Spark dialect.

fn spark(text: &str) -> String {
    parse(text)
        .to_spark_sql()
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn spark_terms_are_columns() {
    for (q, want) in [
        ("hcp(N) >= 20", "hcp_n >= 20"),
        ("hcp(NS) >= 20", "(hcp_n + hcp_s) >= 20"),
        ("len(W, diamonds) < 3", "len_w_d < 3"),
        ("len(EW, hearts) >= 8", "(len_e_h + len_w_h) >= 8"),
        ("controls(E) > 4", "controls_e > 4"),
        ("controls(NS) > 6", "(controls_n + controls_s) > 6"),
        ("ltc(W) <= 7", "ltc_w <= 7"),
        (
            "longest(S) >= 6",
            "greatest(len_s_s, len_s_h, len_s_d, len_s_c) >= 6",
        ),
        ("dd(N, nt) >= 9", "dd_n_nt >= 9"),
        ("dd(E, spades) = 10", "dd_e_s = 10"),
        ("dd(W, clubs) = 10", "dd_w_c = 10"),
        ("dd(EW, hearts) > 7", "greatest(dd_e_h, dd_w_h) > 7"),
        ("dd(NS, diamonds) > 7", "greatest(dd_n_d, dd_s_d) > 7"),
        (
            "hcp(N) = 9223372036854775807",
            "hcp_n = 9223372036854775807",
        ),
        ("3 < hcp(N)", "3 < hcp_n"),
    ] {
        assert_eq!(spark(q), want, "{q}");
    }
}

#[test]
fn spark_operators_ranges_and_sums() {
    for (q, want) in [
        ("hcp(N) = 1", "hcp_n = 1"),
        ("hcp(N) == 1", "hcp_n = 1"),
        ("hcp(N) != 1", "hcp_n <> 1"),
        ("hcp(N) <> 1", "hcp_n <> 1"),
        ("hcp(N) < 1", "hcp_n < 1"),
        ("hcp(N) <= 1", "hcp_n <= 1"),
        ("hcp(N) > 1", "hcp_n > 1"),
        ("hcp(N) >= 1", "hcp_n >= 1"),
        ("hcp(S) in 15..17", "hcp_s BETWEEN 15 AND 17"),
        (
            "hcp(N) + hcp(S) in 20..24",
            "(CAST(hcp_n AS BIGINT) + hcp_s) BETWEEN 20 AND 24",
        ),
        (
            "hcp(N) - (hcp(S) - 1) > 0",
            "(CAST(hcp_n AS BIGINT) - hcp_s + 1) > 0",
        ),
        (
            "hcp(NS) + 2147483647 > len(N, S) - len(N, H)",
            "(CAST((hcp_n + hcp_s) AS BIGINT) + 2147483647) > (CAST(len_n_s AS BIGINT) - len_n_h)",
        ),
        (
            "0 - 1 < dd(N, nt) + 1 - dd(NS, spades)",
            "(CAST(0 AS BIGINT) - 1) < (CAST(dd_n_nt AS BIGINT) + 1 - greatest(dd_n_s, dd_s_s))",
        ),
    ] {
        assert_eq!(spark(q), want, "{q}");
    }
}

#[test]
fn spark_conditions() {
    assert_eq!(
        spark("balanced(E)"),
        "(len_e_s BETWEEN 2 AND 5 AND len_e_h BETWEEN 2 AND 5 AND len_e_d BETWEEN 2 AND 5 AND \
         len_e_c BETWEEN 2 AND 5 AND (CASE WHEN len_e_s = 2 THEN 1 ELSE 0 END + CASE WHEN \
         len_e_h = 2 THEN 1 ELSE 0 END + CASE WHEN len_e_d = 2 THEN 1 ELSE 0 END + CASE WHEN \
         len_e_c = 2 THEN 1 ELSE 0 END) <= 1)"
    );
    assert_eq!(
        spark("semibalanced(W)"),
        "(len_w_s BETWEEN 2 AND 6 AND len_w_h BETWEEN 2 AND 6 AND len_w_d BETWEEN 2 AND 6 AND \
         len_w_c BETWEEN 2 AND 6)"
    );
    assert_eq!(
        spark("pattern(N) = 5431"),
        "(len_n_s = 5 AND len_n_h = 4 AND len_n_d = 3 AND len_n_c = 1)"
    );
    assert_eq!(
        spark("pattern(N) != 10-1-1-1"),
        "NOT (len_n_s = 10 AND len_n_h = 1 AND len_n_d = 1 AND len_n_c = 1)"
    );
    let quads = "(len_s_s = 4 AND len_s_h = 3 AND len_s_d = 3 AND len_s_c = 3) OR \
                 (len_s_s = 3 AND len_s_h = 4 AND len_s_d = 3 AND len_s_c = 3) OR \
                 (len_s_s = 3 AND len_s_h = 3 AND len_s_d = 4 AND len_s_c = 3) OR \
                 (len_s_s = 3 AND len_s_h = 3 AND len_s_d = 3 AND len_s_c = 4)";
    assert_eq!(spark("shape(S) = 3334"), format!("({quads})"));
    assert_eq!(spark("4-3-3-3 != shape(S)"), format!("NOT ({quads})"));
    // One group per distinct suit order: 12 for 4-4-3-2, 24 for 5-4-3-1.
    assert_eq!(spark("shape(N) = 4432").matches(" OR ").count(), 11);
    assert_eq!(spark("shape(N) = 5431").matches(" OR ").count(), 23);
    assert_eq!(spark("not hcp(N) > 3"), "NOT (hcp_n > 3)");
    assert_eq!(
        spark("not (hcp(N) > 3 or balanced(S) and ltc(S) < 7) && !!(dd(N, s) = 1 || 1 = 1)"),
        format!(
            "(NOT ((hcp_n > 3 OR ({} AND ltc_s < 7))) AND NOT (NOT ((dd_n_s = 1 OR 1 = 1))))",
            spark("balanced(S)")
        )
    );
}

#[test]
fn spark_refuses_par_naming_it() {
    for (q, term) in [
        ("par(NS, none) > 0", "par(NS, none)"),
        ("par(EW, all, W) >= 100", "par(EW, all, W)"),
        (
            "hcp(N) > 3 or not (dd(N, nt) - par(NS, ns, E) in 0..5)",
            "par(NS, ns, E)",
        ),
        ("1 < par(EW, ew) and par(NS, none) > 0", "par(EW, ew)"),
    ] {
        let e = parse(q).to_spark_sql().unwrap_err();
        let ErrorKind::Dialect {
            dialect, term: t, ..
        } = e.kind()
        else {
            panic!("{e}")
        };
        assert_eq!(*dialect, Dialect::Spark);
        assert_eq!(t, term, "{q}");
        assert_eq!(
            e.to_string(),
            format!(
                "{term} is not available in the Spark dialect: the Parquet archive has \
                 double-dummy tricks (dd(X, strain)) but no par scores"
            )
        );
        assert_eq!(
            crate::model::Classify::class(&e),
            crate::model::ErrorClass::BadInput
        );
    }
}

#[test]
fn dialects_by_name() {
    assert_eq!(Dialect::from_name("SPARK"), Some(Dialect::Spark));
    assert_eq!(Dialect::from_name("sqlite"), Some(Dialect::Sqlite));
    assert_eq!(Dialect::from_name("postgres"), None);
    assert_eq!(Dialect::Sqlite.to_string(), "SQLite");
    assert_eq!(Dialect::Spark.name(), "spark");
}

/// Every suit-length vector of a 13-card hand, ♠ ♥ ♦ ♣ (560 of them).
fn all_length_vectors() -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    for s in 0..=13u8 {
        for h in 0..=13 - s {
            for d in 0..=13 - s - h {
                out.push([s, h, d, 13 - s - h - d]);
            }
        }
    }
    out
}

/// The shape conditions' Spark text, run by SQLite over every length vector of North (with
/// `greatest` as Spark has it), against [`Shape`]: the balanced and semi-balanced rules,
/// every shape and every pattern with `=` and `!=`, and `longest`.
#[test]
fn spark_shape_conditions_hold_exactly_on_every_shape() {
    use crate::model::features::Shape;
    let vectors = all_length_vectors();
    assert_eq!(vectors.len(), 560);
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE TABLE t (len_n_s INTEGER, len_n_h INTEGER, len_n_d INTEGER, len_n_c INTEGER)",
    )
    .unwrap();
    register_greatest(&conn);
    for v in &vectors {
        conn.execute("INSERT INTO t VALUES (?1, ?2, ?3, ?4)", v.map(i64::from))
            .unwrap();
    }
    // Whether the query's predicate holds (is true, not false or NULL) for each vector.
    let run = |q: &str| -> Vec<bool> {
        let sql = format!(
            "SELECT CASE WHEN {} THEN 1 ELSE 0 END FROM t ORDER BY rowid",
            spark(q)
        );
        let mut stmt = conn.prepare(&sql).unwrap();
        stmt.query_map([], |r| r.get::<_, i64>(0))
            .unwrap()
            .map(|r| r.unwrap() == 1)
            .collect()
    };
    let check = |q: &str, want: &dyn Fn(Shape) -> bool| {
        let got = run(q);
        for (v, g) in vectors.iter().zip(got) {
            assert_eq!(g, want(Shape(*v)), "{q} on {v:?}");
        }
    };
    check("balanced(N)", &|s| s.is_balanced());
    check("semibalanced(N)", &|s| s.is_semi_balanced());
    check("not balanced(N)", &|s| !s.is_balanced());
    let mut sorted: Vec<[u8; 4]> = vectors.iter().map(|v| Shape(*v).sorted()).collect();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 39);
    for p in &sorted {
        let lit = format!("{}-{}-{}-{}", p[0], p[1], p[2], p[3]);
        check(&format!("shape(N) = {lit}"), &|s| s.sorted() == *p);
        check(&format!("shape(N) != {lit}"), &|s| s.sorted() != *p);
    }
    for p in &vectors {
        let lit = format!("{}-{}-{}-{}", p[0], p[1], p[2], p[3]);
        check(&format!("pattern(N) = {lit}"), &|s| s.0 == *p);
        check(&format!("pattern(N) != {lit}"), &|s| s.0 != *p);
    }
    for k in 4..=13u8 {
        check(&format!("longest(N) = {k}"), &|s| s.sorted()[0] == k);
    }
}

/// Spark's `greatest` for SQLite: the largest non-NULL argument, NULL when all are NULL.
fn register_greatest(conn: &rusqlite::Connection) {
    use rusqlite::functions::FunctionFlags;
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

/// The fixture deal of tests/it/lead.rs: against 3NT by North, DDS gives East's leads CA,
/// CK, CQ, DA and D7 11 tricks, the others 10; East holds no ♠2 (West does).
fn lead_deal() -> Deal {
    "N:KT73.KT6.Q93.JT2 AJ6.975.A7.AKQ75 954.J8432.JT862. Q82.AQ.K54.98643"
        .parse()
        .unwrap()
}

#[test]
fn lead_parses_prints_and_checks_its_arguments() {
    canonical("LEAD(east, NT, sa) > 3", "lead(E, notrump, SA) > 3");
    canonical(
        "lead(W, ♥, h10) >= lead(W, hearts, H2)",
        "lead(W, hearts, HT) >= lead(W, hearts, H2)",
    );
    canonical(
        "lead(N, spades, AS) in 0..13",
        "lead(N, spades, SA) in 0..13",
    );
    errors_at(&[
        ("lead(NS, nt, SA) > 0", 6, "takes a single seat"),
        (
            "lead(W, nt) > 0",
            11,
            "missing argument: lead takes the leader",
        ),
        ("lead(W, nt, SA, SK) > 0", 17, "too many arguments"),
        ("lead(W, stars, SA) > 0", 9, "unknown strain"),
        ("lead(W, nt, SX) > 0", 13, "unknown card 'SX'"),
        ("lead(W, nt, 10) > 0", 13, "expected a seat, strain or card"),
    ]);
    assert!(parse("lead(W, nt, SA) > 0").uses_leads());
    assert!(!parse("lead(W, nt, SA) > 0").uses_dd());
    assert_eq!(
        parse("hcp(N) > 3 and lead(W, nt, SA) > 0").search_chunk(),
        4
    );
}

#[test]
fn lead_never_matches_beyond_its_range() {
    let e = parse("lead(W, nt, SA) > 13").never_matches().unwrap();
    assert!(
        e.to_string().contains("the defence takes 0 to 13 tricks"),
        "{e}"
    );
    assert!(parse("lead(W, nt, SA) >= 13").never_matches().is_none());
}

#[test]
fn sql_of_lead_is_a_subquery_on_the_leads_table() {
    let sql = parse("lead(W, nt, SA) > lead(W, notrump, H2) and hcp(N) > 3").to_sql();
    assert_eq!(
        sql.clause,
        "(hcp_n > ?1 AND (SELECT lead_card(leads.tricks, 'SA') FROM leads WHERE \
         leads.deal = key AND leads.leader = 'W' AND leads.strain = 'NT') > \
         (SELECT lead_card(leads.tricks, 'H2') FROM leads WHERE leads.deal = key AND \
         leads.leader = 'W' AND leads.strain = 'NT'))"
    );
    assert_eq!(sql.params, [3]);
    let e = parse("hcp(N) > 3 or lead(E, spades, CT) = 2")
        .to_spark_sql()
        .unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Dialect { term, .. } if term == "lead(E, spades, CT)"),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("the Parquet archive has no opening-lead tricks"),
        "{e}"
    );
}

#[test]
fn lead_evaluates_and_a_card_not_held_is_unknown() {
    let d = lead_deal();
    let yes = |q: &str| assert!(parse(q).matches(&d), "{q}");
    let no = |q: &str| assert!(!parse(q).matches(&d), "{q}");
    yes("lead(E, nt, CA) = 11 and lead(E, nt, S6) = 10");
    yes("lead(E, nt, CA) - lead(E, nt, S6) = 1");
    yes("lead(E, nt, D7) > lead(E, nt, H9)");
    // East holds no ♠2: the comparison and its negation are both unknown.
    no("lead(E, nt, S2) >= 0");
    no("not lead(E, nt, S2) >= 0");
    no("lead(E, nt, S2) + 1 > 0");
    // Unknown and false is false, unknown or true is true; the rest stays unknown.
    yes("not (lead(E, nt, S2) >= 0 and hcp(E) > 30)");
    no("not (lead(E, nt, S2) >= 0 and hcp(E) < 30)");
    yes("lead(E, nt, S2) >= 0 or hcp(E) < 30");
    no("lead(E, nt, S2) >= 0 or hcp(E) > 30");
    no("not (lead(E, nt, S2) >= 0 or hcp(E) > 30)");
    let (matched, solved) =
        parse("hcp(E) > 30 and lead(E, nt, CA) = 11").matches_counting_solves(&d);
    assert_eq!((matched, solved), (false, false));
    let (matched, solved) =
        parse("hcp(E) < 30 and lead(E, nt, CA) = 11").matches_counting_solves(&d);
    assert_eq!((matched, solved), (true, true));
}

/// The one-pass columns of a query's comparisons, in any order, are each counted alone, past
/// multi-byte suit symbols.
#[test]
fn columns_in_one_pass_equal_columns_counted_alone() {
    let src = "hcp(N) >= 12 and length(N, ♠) >= 5 or losers(S) <= 7";
    let bytes: Vec<usize> = src.char_indices().map(|(b, _)| b).rev().collect();
    let one_pass = lexer::columns(src, &bytes);
    let alone: Vec<usize> = bytes.iter().map(|&b| lexer::column(src, b)).collect();
    assert_eq!(one_pass, alone);
    assert_eq!(one_pass[0], src.chars().count());
}

/// A played board's terms (issue 53): canonical text that reads back, the SQL over the
/// `played` row with every literal bound, and clear refusals elsewhere.
#[test]
fn played_terms_parse_print_and_compile() {
    for (text, want) in [
        (
            "contract = 3NT and result < 0 and dd(declarer, strain) >= 9",
            "contract = 3NT and result < 0 and dd(declarer, strain) >= 9",
        ),
        ("CONTRACT != 4sx", "contract != 4SX"),
        ("contract = pass", "contract = pass"),
        (
            "strain = ♥ or declarer = ns",
            "strain = hearts or declarer = NS",
        ),
        (
            "room = Closed and board in 1..8",
            "room = closed and board in 1..8",
        ),
        (
            r#"player = "Fantoni" and North = "x y""#,
            r#"player = "Fantoni" and north = "x y""#,
        ),
        (r#"event != "Bermuda Bowl""#, r#"event != "Bermuda Bowl""#),
        (
            "score - par < 0 and lost(defense) + lost(declarer) >= 2 and lead_cost > 0",
            "score - par < 0 and lost(defence) + lost(declarer) >= 2 and lead_cost > 0",
        ),
        (
            "dd(N, strain) > tricks and dd(declarer, hearts) = 10",
            "dd(N, strain) > tricks and dd(declarer, hearts) = 10",
        ),
        ("level >= 6 and doubled = 1", "level >= 6 and doubled = 1"),
    ] {
        canonical(text, want);
        assert!(parse(text).uses_played(), "{text}");
    }
    let sql =
        parse(r#"contract = 3NTX and player = "Fantoni" and event = "Vanderbilt" and result < 0"#)
            .to_sql();
    // The cheap comparison of stored columns first; each text one placeholder after the numbers.
    assert_eq!(
        sql.clause,
        "((played.result - played.level - 6) < ?1 AND (ifnull(played.level, 0) = ?2 AND \
         ifnull(played.strain, '') = 'NT' AND ifnull(played.doubled, 0) = ?3) AND \
         (trim(ifnull(played.north, '')) = trim(?4) COLLATE NOCASE OR trim(ifnull(played.east, '')) = trim(?4) COLLATE NOCASE OR \
         trim(ifnull(played.south, '')) = trim(?4) COLLATE NOCASE OR trim(ifnull(played.west, '')) = trim(?4) COLLATE NOCASE) AND \
         trim(ifnull(played.event, '')) = trim(?5) COLLATE NOCASE)"
    );
    assert_eq!(sql.params, [0, 3, 1]);
    assert_eq!(sql.texts, ["Fantoni", "Vanderbilt"]);
    // No text of the query in the clause.
    assert!(!sql.clause.contains("Fantoni"));
    // Refused where only deals are searched, and by Spark, naming the term.
    let q = parse("hcp(N) > 10 and contract = 3NT");
    let e = q.deal_only("a search of deals").unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::PlayedOnly { term, .. } if term == "contract = 3NT"),
        "{e}"
    );
    let e = q.to_spark_sql().unwrap_err();
    assert!(
        e.to_string()
            .starts_with("contract = 3NT is about a played board: the Spark dialect"),
        "{e}"
    );
    assert!(parse("hcp(N) > 10").deal_only("x").is_ok());
    // In memory a deal has no played board: no value, no match, no panic.
    let d = solid();
    assert!(!parse("result < 0 or not result < 0").matches(&d));
    assert!(!parse("contract = 3NT or not contract = 3NT").matches(&d));
    // Refusals with their columns.
    errors_at(&[
        ("contract > 3NT", 10, "compared with = or != only"),
        ("contract = 8NT", 12, "expected a contract"),
        ("contract = 3", 12, "expected a contract"),
        ("player = Fantoni", 10, "a player's name in double quotes"),
        ("room = kitchen", 8, "open or closed"),
        ("lost(dummy) > 0", 6, "unknown side of the play"),
        ("dd(declarer, strain, N) > 0", 22, "too many arguments"),
        (r#"event = "x"#, 9, "unclosed"),
        ("declarer = ♠", 12, "expected a seat or side"),
    ]);
}
