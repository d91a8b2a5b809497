//! Issue 37, item 1: a script's definitions are a graph, each computed at most once a deal.
//! Shared definitions cost what they cost once, however deep their sharing (before, each use
//! re-walked the definition: a chain `d1 = d0 + d0` … `d26` took 3.9 GB and aborted), and the
//! levelled scripts of BBO's practice collections give the same statistics whichever way
//! their condition is tested.

use dealdex::dealer::{DealerJob, Script, Summary, run};

fn averages(text: &str, generate: u64) -> Vec<f64> {
    let script = Script::parse(text).unwrap();
    let job = DealerJob {
        seed: Some(37),
        generate: Some(generate),
        ..DealerJob::default()
    };
    let report = run(&script, &job, &mut Vec::new(), &mut |_| {}).unwrap();
    report
        .summaries
        .iter()
        .map(|s| match s {
            Summary::Average(a) => a.mean,
            other => panic!("{other:?}"),
        })
        .collect()
}

/// `d{i} = d{i-1} + d{i-1} - d{i-1}` sixty times: 3^60 uses of `d0` when definitions are
/// pasted in, 61 values a deal when they are shared. Its value is `d0`'s on every deal.
#[test]
fn a_chain_of_sixty_shared_definitions_runs_at_once() {
    let mut text = String::from("d0 = hcp(north) * 2 + spades(south)\n");
    for i in 1..=60 {
        text.push_str(&format!("d{i} = d{j} + d{j} - d{j}\n", j = i - 1));
    }
    text.push_str(
        "condition d60 > 10 and d59 < 40\n\
         action average d60, average hcp(north) * 2 + spades(south)",
    );
    let start = std::time::Instant::now();
    let means = averages(&text, 200_000);
    assert_eq!(means[0], means[1], "{means:?}");
    assert!(means[0] > 10.0, "{means:?}");
    // Generous: it takes about 0.1 s; pasted-in definitions never finish.
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
}

/// BBO's levelling (a condition true on a share of the deals, built from `hascard`s and
/// shared through `keepNN` definitions) and a hand's classification as one of several
/// exclusive cases (each refers to those before it): the condition is tested a piece at a
/// time with `and`/`or`/`?:` taken only where needed, and the statistics equal those of the
/// same condition kept apart from the definitions (the evaluator, deal by deal, because of
/// `rnd(1)`, which is always 0 and draws nothing that matters).
#[test]
fn levelled_definitions_give_the_same_statistics_tested_either_way() {
    let defs = "c1 = hascard(west, 2C)\nc2 = hascard(east, 2D)\nc3 = hascard(west, 3C)\n\
                keep06 = c1 and c2\nkeep44 = c3 or c2\nkeep015 = keep06 and c3\n\
                keep47 = keep44 or keep06\nkeep53 = not keep47\n\
                oS = spades(east) > 4 and spades(east) >= hearts(east)\n\
                oH = not oS and hearts(east) > 4\n\
                oM = not (oS or oH) and hcp(east) > 11\n\
                rank = oS ? 4 : oH ? 3 : oM ? 2 : 0\n\
                lev = (oS and keep015) or (oH and keep53) or (oM and keep47)\n";
    let actions = "action average hcp(east), average rank, average spades(east), \
                   average keep47 + 2 * keep015";
    let compiled = format!("{defs}condition lev and hcp(east) < 16\n{actions}");
    let evaluated = format!("{defs}condition lev and hcp(east) < 16 + rnd(1)\n{actions}");
    let (a, b) = (averages(&compiled, 300_000), averages(&evaluated, 300_000));
    assert_eq!(a, b);
    assert!(a[1] > 2.0 && a[1] < 4.0, "{a:?}");
}
