//! dealer's grammar exactly (issue 37, item 2) and the parser side of DealerV2's additions
//! (item 5): the scripts of `tests/fixtures/dealer/grammar/` run through `dealdex dealer`,
//! refused with their line where Debian's dealer (20211121) refuses them, and printing dealer's
//! bytes (`NAME.dealer-out`) where its output does not depend on the random deals.

use std::path::PathBuf;
use std::process::Output;

use dealdex::dealer::{Action, ErrorKind, EsItem, Expr, MAX_FREQUENCY_CELLS, Script, ShapeSet};
use dealdex::{Seat, Suit};

use crate::common::dealer::{fixtures, run_fixture};

fn dir() -> PathBuf {
    fixtures("grammar")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

/// `dealdex dealer NAME.dei -s 1 -v ARGS…`.
fn dealdex(name: &str, args: &[&str]) -> Output {
    let args: Vec<&str> = std::iter::once("-v").chain(args.iter().copied()).collect();
    run_fixture("grammar", name, &args)
}

/// The standard output of a run that must succeed.
fn runs(name: &str, args: &[&str]) -> String {
    let out = dealdex(name, args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// The refusal of a script: exit 2, nothing dealt, and the message (`line N: …`).
fn refused(name: &str) -> String {
    let out = dealdex(name, &[]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{name}: {err}");
    assert!(out.stdout.is_empty(), "{name}: nothing is dealt");
    err
}

/// The script's error, by kind (a script's kind holds the line, column and message).
fn error(text: &str) -> ErrorKind {
    Script::parse(text).unwrap_err().into_kind()
}

fn shape_count(set: &ShapeSet) -> u32 {
    set.0.iter().map(|w| w.count_ones()).sum()
}

#[test]
fn a_word_with_parentheses_on_a_later_line_is_a_variable_then_a_condition() {
    // Issue 37's report: `levelTheDeal = c1 or levPre` then `(hcp(north) > 10)` two lines
    // below was read as a call of `levPre`. dealer prints 1 twenty times: the parenthesised
    // condition holds on every produced deal.
    let out = runs("call_after_definition", &[]);
    assert_eq!(out, read("call_after_definition.dealer-out"));
    assert_eq!(out, "1\n".repeat(20));
    let s = Script::parse(&read("call_after_definition.dei")).unwrap();
    assert_eq!(s.definitions.len(), 3);
    assert!(matches!(s.condition, Some(Expr::Bin(..))));
    // A word that is no function of dealer is never a call: an undefined one is an unknown
    // variable (not an unknown function), at its place.
    let e = error("x = 1\ncondition x and\n  foo(north)");
    assert!(
        matches!(&e, ErrorKind::UnknownIdentifier { line: 3, column: 3, message }
            if message.contains("unknown variable `foo`")),
        "{e}"
    );
    // A function name before `(` is still a call, on any line.
    let s = Script::parse("condition hcp\n(north) > 10").unwrap();
    assert!(
        matches!(s.condition, Some(Expr::Bin(_, ref a, _)) if matches!(**a, Expr::Hcp(Seat::North, None)))
    );
}

#[test]
fn a_redefined_variable_is_refused_with_its_line() {
    // dealer: `line 3: redefined variable` (it reports the line of the token after the
    // definition); dealdex names the definition's line and the variable.
    assert_eq!(read("redefined.dealer-out"), "line 3: redefined variable\n");
    let err = refused("redefined");
    assert!(
        err.contains("line 2: redefined variable `a` (defined on line 1)"),
        "{err}"
    );
    let e = error("a = 1\n  a = 0\n");
    assert!(
        matches!(
            e,
            ErrorKind::RedefinedIdentifier {
                line: 2,
                column: 3,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_reserved_word_cannot_name_a_variable() {
    // dealer's lexer makes these keywords, holdings, cards, contracts or shapes: `all = 1` is
    // a syntax error there.
    for (text, word) in [
        ("all = 1", "all"),
        ("hcp = 1", "hcp"),
        ("not = 1", "not"),
        ("spade = 1", "spade"),
        ("SAK = 1", "SAK"),
        ("AS = 1", "AS"),
        ("x3N = 1", "x3N"),
        ("x5xx = 1", "x5xx"),
    ] {
        let e = error(&format!("produce 1\n{text}"));
        assert!(
            matches!(&e, ErrorKind::Syntax { line: 2, column: 1, message }
                if message.contains(&format!("`{word}`"))),
            "{text}: {e}"
        );
    }
    // Identifiers of real collections stay identifiers.
    for text in [
        "s = spades(south)",
        "c = 1",
        "oS = 1",
        "P1 = 1",
        "levPre = 1",
        "dds = 1",
    ] {
        Script::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

#[test]
fn shapes_need_thirteen_cards_as_in_dealer() {
    // dealer: `line 2: wrong number of cards in shape`, `line 3: too many cards in
    // ambiguous shape`; these scripts ran silently and produced nothing.
    for (name, line, message) in [
        ("shape_3333", 2, "wrong number of cards in shape `3333`"),
        ("shape_555x", 3, "too many cards in ambiguous shape `555x`"),
        ("shape_bad_term", 2, "wrong number of cards in shape `3333`"),
    ] {
        let dealer = read(&format!("{name}.dealer-out"));
        assert!(dealer.starts_with(&format!("line {line}: ")), "{dealer}");
        let err = refused(name);
        assert!(err.contains(&format!("line {line}: {message}")), "{err}");
    }
    // The column is the shape's.
    let e = error("condition shape(north, 4441 + 3333)");
    assert!(
        matches!(
            e,
            ErrorKind::BadValue {
                line: 1,
                column: 31,
                ..
            }
        ),
        "{e}"
    );
    // x stands for any number of cards: 13 known cards at most.
    for ok in ["xxxx", "5xxx", "13xxx", "661x", "4x9x"] {
        let text = format!("condition shape(north, {ok})");
        assert_eq!(Script::parse(&text).is_ok(), ok != "13xxx", "{ok}");
    }
    assert!(Script::parse("condition shape(north, 67xx)").is_ok());
    assert!(Script::parse("condition shape(north, 67x1)").is_err());
    // dealer's shape list also takes elements side by side and a sign before the first.
    let s = Script::parse("condition shape(north, 4333 any 5332 - 5xxx)").unwrap();
    let Some(Expr::Shape(_, set)) = &s.condition else {
        panic!("a shape")
    };
    // 4333 and the 12 placings of 5332 but the 3 with five spades.
    assert_eq!(shape_count(set), 10);
}

#[test]
fn a_suit_length_predealt_twice_or_against_the_cards_is_refused() {
    // dealer: `North's Spade suit has length already set to 3`, in one statement or two.
    for (name, line) in [
        ("predeal_length_twice", 2),
        ("predeal_length_twice_statements", 3),
    ] {
        let want = format!("line {line}: North's Spade suit has length already set to 3\n");
        assert_eq!(read(&format!("{name}.dealer-out")), want);
        let err = refused(name);
        assert!(err.contains(want.trim_end()), "{err}");
    }
    let e = error("predeal spades(north)==3, spades(north)==4");
    assert!(
        matches!(e, ErrorKind::SuitLengthPredealtTwice { .. }),
        "{e}"
    );
    // A card predealt twice (dealer: `line 3: Card predealt twice`), as before.
    assert_eq!(
        read("predeal_card_twice.dealer-out"),
        "line 3: Card predealt twice\n"
    );
    assert!(refused("predeal_card_twice").contains("line 3: Card predealt twice"));
    // More predealt cards than the predealt length: dealer runs it (it does not enforce
    // lengths); dealdex, which does, refuses the conflict.
    let err = refused("predeal_cards_over_length");
    assert!(
        err.contains("line 3: Suit lengths too long for North"),
        "{err}"
    );
    for (text, line) in [
        ("predeal north SAK\npredeal spades(north)==1", 2),
        ("predeal spades(north)==13\npredeal north HA", 2),
        ("predeal spades(north)==7\npredeal south S8765432", 2),
        (
            "predeal hearts(west)==12 spades(west)==1\npredeal west DA",
            2,
        ),
    ] {
        let e = error(text);
        assert!(
            matches!(e, ErrorKind::TooManyCards { line: l, .. } if l == line),
            "{text}: {e}"
        );
    }
    // Lengths and cards that fit are kept.
    let s =
        Script::parse("predeal north SA, HK\npredeal spades(north)==5 hearts(south)==4").unwrap();
    assert_eq!(s.predeal_lengths.len(), 2);
}

#[test]
fn evalcontract_takes_no_arguments_or_dealer_v2s() {
    // Debian's dealer: `evalcontract` has no arguments; `(foo bar)` after it is the next
    // statement, refused (`line 2: unknown variable`). It was accepted and ignored.
    assert_eq!(
        read("evalcontract_junk.dealer-out"),
        "line 2: unknown variable\n"
    );
    let err = refused("evalcontract_junk");
    assert!(
        err.contains("line 2: unknown variable `foo` (after evalcontract"),
        "{err}"
    );
    for bad in [
        "action evalcontract (south, 3n, nv)",
        "action evalcontract (NS, 3N, nv)",
        "action evalcontract (NS, x3N)",
        "action evalcontract (EW, x8N, vul)",
        "action evalcontract (NS, x3N, vul, 1)",
    ] {
        let e = Script::parse(&format!("produce 1\n{bad}")).unwrap_err();
        assert_eq!(e.position().and_then(|p| p.line), Some(2), "{bad}: {e}");
    }
    // DealerV2's form: a side, a contract (x or z, doubled or not) and nv or vul.
    for ok in [
        "action evalcontract",
        "action evalcontract, printoneline",
        "action evalcontract (NS, x3N, vul)",
        "action evalcontract ( EW , z4Hxx , nv ), average hcp(north)",
        // Debian: a condition in parentheses after it.
        "action evalcontract\n(hcp(north) > 10)",
    ] {
        let s = Script::parse(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
        assert!(matches!(s.actions[0], Action::EvalContract), "{ok}");
    }
    let s = Script::parse("action evalcontract\n(hcp(north) > 10)").unwrap();
    assert!(s.condition.is_some());
}

#[test]
fn a_two_way_frequency_too_big_for_memory_is_refused_before_dealing() {
    // dealer prints `Out of memory`; dealdex allocated some 80 GB and aborted.
    assert_eq!(read("frequency_huge.dealer-out"), "Out of memory\n");
    let err = refused("frequency_huge");
    assert!(
        err.contains("line 2: frequency: a table of 100000 × 100000 values"),
        "{err}"
    );
    // (rows + 2) × (columns + 2) cells at most.
    let side = |n: i64| format!("action frequency (hcp(north), 1, {n}, hcp(south), 1, {n})");
    let fits = (MAX_FREQUENCY_CELLS as f64).sqrt() as i64 - 2;
    assert!(Script::parse(&side(fits)).is_ok());
    assert!(
        matches!(error(&side(fits + 1)), ErrorKind::BadValue { .. }),
        "{fits}"
    );
    // And all the tables of a script together.
    let many = vec!["frequency (hcp(north), 0, 99990)"; 120].join(", ");
    let e = error(&format!("produce 1\naction {many}"));
    assert!(matches!(e, ErrorKind::BadValue { line: 2, .. }), "{e}");
}

#[test]
fn each_action_statement_replaces_the_actions_before_it() {
    // dealer prints the printes lines only (`h=7 h=5 h=7`): the first statement's printoneline
    // is dropped.
    assert!(
        read("two_actions.dealer-out")
            .lines()
            .all(|l| l.starts_with("h="))
    );
    let out = runs("two_actions", &[]);
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.lines().all(|l| l.starts_with("h=")), "{out}");
    let s = Script::parse(&read("two_actions.dei")).unwrap();
    assert!(s.actions_given);
    assert!(matches!(s.actions[..], [Action::PrintEs(_)]));
    // `action` alone: no action at all in dealer (it prints nothing).
    assert_eq!(read("empty_action.dealer-out"), "");
    let s = Script::parse(&read("empty_action.dei")).unwrap();
    assert!(s.actions_given && s.actions.is_empty());
    let s = Script::parse("produce 1").unwrap();
    assert!(!s.actions_given && s.actions.is_empty());
    // After a comma, a word that starts no action ends the list (dealer's `action ','` then
    // an empty list): here it is the condition.
    let s = Script::parse("action printoneline,\nhcp(north) > 20").unwrap();
    assert!(matches!(s.actions[..], [Action::PrintOneLine(None)]));
    assert!(s.condition.is_some());
}

#[test]
fn the_first_produce_and_generate_count_the_last_condition() {
    // dealer prints two deals for `produce 2` then `produce 3`.
    assert_eq!(read("first_produce.dealer-out").lines().count(), 2);
    assert_eq!(runs("first_produce", &[]).lines().count(), 2);
    let s = Script::parse(&read("first_produce.dei")).unwrap();
    assert_eq!((s.produce, s.generate), (Some(2), Some(100)));
    // The last condition: every North has fewer than 5 points (dealer: 2 4 4 4 4).
    assert!(
        read("two_conditions.dealer-out")
            .lines()
            .all(|l| l.parse::<i64>().unwrap() < 5)
    );
    let out = runs("two_conditions", &[]);
    assert_eq!(out.lines().count(), 5);
    assert!(out.lines().all(|l| l.parse::<i64>().unwrap() < 5), "{out}");
}

#[test]
fn keywords_are_lower_case() {
    // dealer: `line 1: unknown variable` (`Produce` is an identifier).
    assert_eq!(
        read("keyword_case.dealer-out"),
        "line 1: unknown variable\n"
    );
    let err = refused("keyword_case");
    assert!(err.contains("line 1: unknown variable `Produce`"), "{err}");
    for text in ["Condition hcp(north) > 3", "condition HCP(north) > 3"] {
        assert!(
            matches!(error(text), ErrorKind::UnknownIdentifier { .. }),
            "{text}"
        );
    }
    assert!(matches!(
        error("condition hcp(North) > 3"),
        ErrorKind::Syntax { .. }
    ));
}

#[test]
fn printoneline_and_printcompact_take_only_a_parenthesised_expression() {
    // dealer reads `printoneline` then a condition on the next line (every North printed has
    // more than 15 points); dealdex took the condition as printoneline's expression.
    let dealer = read("printoneline_then_condition.dealer-out");
    let points = |out: &str| -> Vec<i64> {
        out.lines()
            .filter(|l| !l.starts_with("n "))
            .map(|l| l.parse().unwrap())
            .collect()
    };
    assert!(points(&dealer).iter().all(|&p| p > 15));
    let out = runs("printoneline_then_condition", &[]);
    assert_eq!(points(&out).len(), 5, "{out}");
    assert!(points(&out).iter().all(|&p| p > 15), "{out}");
    let s = Script::parse("action printcompact (hcp(north)), printoneline(1)").unwrap();
    assert!(matches!(
        s.actions[..],
        [Action::PrintCompact(Some(_)), Action::PrintOneLine(Some(_))]
    ));
    // Without parentheses it is a syntax error in dealer (`line 2: syntax error`): the
    // expression is a condition and the comma after it has no place.
    assert!(matches!(
        error("produce 1\naction printoneline hcp(north) > 15, printall"),
        ErrorKind::Syntax { .. }
    ));
}

#[test]
fn operators_comments_and_lines_print_dealers_bytes() {
    // `?:` (right to left), comparisons in a row, not/!, unary minus, C's / and %, comments of
    // every kind and expressions over several lines: dealer's output exactly.
    for name in ["operators", "comments", "top3", "pbs_style"] {
        assert_eq!(
            runs(name, &[]),
            read(&format!("{name}.dealer-out")),
            "{name}"
        );
    }
}

#[test]
fn a_practice_bidding_scenarios_style_script_runs() {
    let text = read("pbs_style.dei");
    let s = Script::parse(&text).unwrap();
    assert_eq!(s.definitions.len(), 120);
    assert_eq!(s.dealer, Some(Seat::South));
    let Some(Action::PrintEs(items)) = s.actions.first() else {
        panic!("printes")
    };
    assert_eq!(
        items
            .iter()
            .filter(|i| matches!(i, EsItem::Expr(_)))
            .count(),
        120
    );
}

#[test]
fn dealer_v2_dds_is_tricks_and_title_is_kept() {
    let s = Script::parse("condition dds(north, spades) > 5 || dds(west, notrump) > 8").unwrap();
    let Some(Expr::Bin(_, a, b)) = &s.condition else {
        panic!("or")
    };
    assert!(
        matches!(&**a, Expr::Bin(_, t, _) if matches!(**t, Expr::Tricks(Seat::North, Some(Suit::Spades))))
    );
    assert!(matches!(&**b, Expr::Bin(_, t, _) if matches!(**t, Expr::Tricks(Seat::West, None))));
    // Debian's dealer knows no dds: there it is an identifier, and stays one when defined.
    let s = Script::parse("dds = 3\ncondition dds\n(hcp(north) > 1)").unwrap();
    assert_eq!(s.definitions[0].0, "dds");
    // title "…": the last one.
    let s = Script::parse("title \"Weak NT\"\ntitle\n\"Strong NT\"\nproduce 1").unwrap();
    assert_eq!(s.title.as_deref(), Some("Strong NT"));
    assert_eq!(Script::parse("produce 1").unwrap().title, None);
    // A `title` without a string is an identifier, as in Debian's dealer.
    let s = Script::parse("title = 4\ncondition title > 3").unwrap();
    assert_eq!((s.title, s.definitions.len()), (None, 1));
}

#[test]
fn dealer_v2_decimals_are_hundredths() {
    // DealerV2 reads 12.5 as 1250 (`cccc(north) >= 13.25` is `cccc(north) >= 1325`).
    let s = Script::parse("condition cccc(north) >= 13.25 && .5 < 12. && 0.05 == 5").unwrap();
    let mut nums = Vec::new();
    let mut stack = vec![s.condition.as_ref().unwrap()];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Num(v) => nums.push(*v),
            Expr::Bin(_, a, b) => stack.extend([&**b, &**a]),
            _ => {}
        }
    }
    assert_eq!(nums, [1325, 50, 1200, 5, 5]);
    let s = Script::parse("pointcount 4.5 3.0 1.5 0.75 .25\naltcount 9 13 9 5 2 1").unwrap();
    assert_eq!(&s.pointcount[..6], [450, 300, 150, 75, 25, 0]);
    assert_eq!(&s.altcount[9][..6], [13, 9, 5, 2, 1, 0]);
    let s = Script::parse("action frequency (cccc(north), 10.0, 20.5)").unwrap();
    assert!(matches!(s.actions[0], Action::Frequency(_, _, 1000, 2050)));
    for bad in [
        "condition hcp(north) > 123.5",
        "condition hcp(north) > 1.234",
        "produce 1.5",
        "predeal spades(north)==5.0",
    ] {
        let e = error(bad);
        assert!(
            matches!(e, ErrorKind::BadValue { line: 1, .. }),
            "{bad}: {e}"
        );
    }
}

#[test]
fn dealer_v2_script_parameters_are_substituted() {
    let mut params: [Option<String>; 10] = Default::default();
    params[0] = Some("west".into());
    params[1] = Some("12".into());
    params[4] = Some("5xxx + x5xx".into());
    params[9] = Some("hcp".into());
    let text = "NTshape = shape($0, any 4333 + any 4432 + any 5332 - 5xxx - x5xx)\n\
                condition NTshape && $9($0) >= $1 && shape(east, $4)\n\
                action printes(\"$1 \", $1, \\n)";
    let s = Script::parse_with_params(text, &params).unwrap();
    let same = Script::parse(
        "NTshape = shape(west, any 4333 + any 4432 + any 5332 - 5xxx - x5xx)\n\
         condition NTshape && hcp(west) >= 12 && shape(east, 5xxx + x5xx)\n\
         action printes(\"$1 \", 12, \\n)",
    )
    .unwrap();
    assert_eq!(format!("{s:?}"), format!("{same:?}"));
    // Inside a string or a comment `$1` stays as it is.
    let Action::PrintEs(items) = &s.actions[0] else {
        panic!("printes")
    };
    assert!(matches!(&items[0], EsItem::Str(t) if t == "$1 "));
    assert!(Script::parse_with_params("# $7\n/* $8 */ produce 1", &params).is_ok());
    // An unset one is an error naming it, where it stands.
    let e = Script::parse_with_params("produce 1\ncondition hcp(north) > $2", &params).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::UnsetParameter { line: 2, column: 24, message }
            if message.contains("$2")),
        "{e}"
    );
    let e = Script::parse("condition hcp($0) > 1").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnsetParameter { .. }), "{e}");
    // An error inside a parameter's text is reported at its `$N`.
    params[3] = Some("12.345".into());
    let e = Script::parse_with_params("\ncondition $3", &params).unwrap_err();
    let at = e.position().unwrap();
    assert_eq!((at.line, at.column), (Some(2), Some(11)), "{e}");
    assert!(e.to_string().contains("$3"), "{e}");
}

#[test]
fn dealer_v2_constructs_dealdex_does_not_run_are_refused_by_name() {
    for (text, name) in [
        ("condition opc(NS) > 26", "opc"),
        ("condition usereval(10, NS, 0) > 26", "usereval"),
    ] {
        let e = error(text);
        assert!(
            matches!(&e, ErrorKind::Unsupported { line: 1, message, .. } if message.contains(name)),
            "{text}: {e}"
        );
    }
    // DealerV2's `z` before an undoubled contract is dealer's `x`.
    let s = Script::parse("condition score(nv, z3N, 9) == score(nv, x3N, 9)").unwrap();
    assert!(s.condition.is_some());
    // A variable named par (Debian's dealer has no such function) stays a variable.
    let s = Script::parse("par = 1\ncondition par\n(hcp(north) > 1)").unwrap();
    assert_eq!(s.definitions[0].0, "par");
}

#[test]
fn dealer_v2_francois_shapes_are_what_fdp_makes_of_them() {
    // fdshape.dpp-out: the same file through Debian's dealer.dpp (François Dellacherie's
    // pre-processor, which DealerV2's fdp is): each shape{…} equals its shape(…).
    let fd = Script::parse(&read("fdshape.dei")).unwrap();
    let hvs = Script::parse(&read("fdshape.dpp-out")).unwrap();
    assert_eq!(fd.definitions.len(), 30);
    for ((name, a), (_, b)) in fd.definitions.iter().zip(&hvs.definitions) {
        let (Expr::Shape(sa, a), Expr::Shape(sb, b)) = (a, b) else {
            panic!("{name}: shapes")
        };
        assert_eq!(sa, sb, "{name}");
        assert!(shape_count(a) > 0, "{name}");
        assert_eq!(
            a,
            b,
            "{name}: {} and {} shapes",
            shape_count(a),
            shape_count(b)
        );
    }
    // (The numbers of shapes DealerV2's guide gives for its examples: a unit test of the
    // parser.)
    // x5+xx: at least five hearts, the longest suit (or as long as spades).
    let s = Script::parse("condition shape{north, x5+xx:h>s,h>=d,h>=c or h==s}").unwrap();
    let Some(Expr::Shape(_, set)) = &s.condition else {
        panic!("shape")
    };
    for (sp, h, d) in [(2, 5, 3), (5, 5, 3), (6, 5, 1), (1, 5, 5), (4, 6, 3)] {
        let c = 13 - sp - h - d;
        let want = h >= 5 && ((h > sp && h >= d && h >= c) || h == sp);
        assert_eq!(set.contains(sp, h, d), want, "{sp}{h}{d}{c}");
    }
    // A parameter in shape{}, and refusals with the line.
    let mut params: [Option<String>; 10] = Default::default();
    params[1] = Some("west".into());
    params[2] = Some("(55xx)".into());
    let s = Script::parse_with_params("condition shape{$1, $2}", &params).unwrap();
    assert!(matches!(s.condition, Some(Expr::Shape(Seat::West, _))));
    for (bad, line) in [
        ("produce 1\ncondition shape{north, 5M5M(xx)}", 2),
        ("\n\ncondition shape{north, 5S(431)}", 3),
        ("condition shape{north, 5xxx +}", 1),
        ("condition shape{north, 5xxx:h>s>d}", 1),
        ("condition shape{north, 5xxx:h/3>1}", 1),
        ("condition shape{northeast, 5xxx}", 1),
        ("condition shape{north, 5xxx", 1),
        ("condition shape{north, 5xx}", 1),
    ] {
        let e = Script::parse(bad).unwrap_err();
        assert_eq!(e.position().and_then(|p| p.line), Some(line), "{bad}: {e}");
    }
}

/// Shape elements written without spaces (BBO's After_Partner_Overcalls: `any 75xxany 65xx`;
/// Multi_Landy: `66xx+56xx55xx+45xx`): dealer's lexer reads a shape or `any` at a time, so
/// they are the list of their elements, each added.
#[test]
fn shape_elements_glued_together_are_a_list() {
    let set = |text: &str| {
        let s = Script::parse(&format!("condition shape(north, {text})")).unwrap();
        match s.condition {
            Some(dealdex::dealer::Expr::Shape(_, set)) => set,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(set("any 75xxany 65xx"), set("any 75xx + any 65xx"));
    assert_eq!(set("66xx+56xx55xx+45xx"), set("66xx + 56xx + 55xx + 45xx"));
    assert!(shape_count(&set("any 75xxany 65xx")) > shape_count(&set("any 75xx")));
    for name in ["shape_glued_any", "shape_glued_patterns"] {
        runs(name, &[]);
    }
}
