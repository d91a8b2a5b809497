//! Comparing runs of dealer scripts: dealer's text output parsed into summaries, and checks
//! that two samples agree (averages within 4 standard errors, frequency tables by a
//! chi-square test of homogeneity at 0.1 %). Used by `tests/it/dealer.rs` (Debian's
//! reference outputs) and `tests/slow/dealer_live.rs` (Debian's `/usr/games/dealer` run live).

use dealdex::dealer::Summary;

/// One summary of dealer's text output: an average (label, value) or a frequency table
/// (label, rows).
pub type ReferSummary = Result<(String, f64), (String, Vec<(i64, f64)>)>;

/// The summaries of dealer's text output (a `Refer.*` file or a live run), in order: averages
/// (`label: value` or a bare value) and 1-D frequency tables; and its `Produced` count.
pub fn refer_summaries(refer: &str) -> (Vec<ReferSummary>, f64) {
    let mut out = Vec::new();
    let mut produced = 0.0;
    let lines: Vec<&str> = refer.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        i += 1;
        if let Some(n) = l.strip_prefix("Produced ") {
            produced = n.trim_end_matches(" hands").parse().unwrap();
        } else if let Some(label) = l.strip_prefix("Frequency ") {
            let label = label.trim_end_matches(':').to_owned();
            let mut rows = Vec::new();
            while i < lines.len() {
                let Some((v, c)) = lines[i].split_once('\t') else {
                    break;
                };
                let c: f64 = c.trim().parse().unwrap();
                match v.trim() {
                    "Low" | "High" => assert_eq!(c, 0.0, "no Low/High rows expected"),
                    v => rows.push((v.parse().unwrap(), c)),
                }
                i += 1;
            }
            out.push(Err((label, rows)));
        } else if l.starts_with("Generated") || l.starts_with("Initial") || l.starts_with("Time") {
        } else if let Some((label, v)) = l.rsplit_once(": ") {
            out.push(Ok((label.to_owned(), v.parse().unwrap())));
        } else if let Ok(v) = l.parse::<f64>() {
            out.push(Ok((String::new(), v)));
        }
    }
    (out, produced)
}

/// The chi-square critical value at 0.1 % (Wilson–Hilferty).
pub fn chi2_critical(df: usize) -> f64 {
    let df = df as f64;
    let z = 3.090_232;
    df * (1.0 - 2.0 / (9.0 * df) + z * (2.0 / (9.0 * df)).sqrt()).powi(3)
}

/// Two-sample chi-square (homogeneity) of two count vectors over the same values; bins whose
/// pooled count is below 10 are merged into their neighbour.
pub fn chi2_homogeneity(a: &[f64], b: &[f64]) -> (f64, usize) {
    let (na, nb): (f64, f64) = (a.iter().sum(), b.iter().sum());
    let mut bins: Vec<(f64, f64)> = Vec::new();
    let mut cur = (0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        cur = (cur.0 + x, cur.1 + y);
        if cur.0 + cur.1 >= 10.0 {
            bins.push(cur);
            cur = (0.0, 0.0);
        }
    }
    if let Some(last) = bins.last_mut() {
        last.0 += cur.0;
        last.1 += cur.1;
    }
    let mut chi = 0.0;
    for (x, y) in &bins {
        let pooled = x + y;
        let ea = pooled * na / (na + nb);
        let eb = pooled * nb / (na + nb);
        chi += (x - ea).powi(2) / ea + (y - eb).powi(2) / eb;
    }
    (chi, bins.len().saturating_sub(1))
}

/// Asserts that dealdex's summaries (`got`) agree with dealer's (`want`, from a sample of
/// `n_ref` deals): the same summaries in the same order and labels, every average within 4
/// standard errors (dealdex's sample variance for both samples), every frequency table over
/// the same rows and homogeneous by chi-square at 0.1 %.
pub fn assert_summaries_agree(name: &str, want: &[ReferSummary], n_ref: f64, got: &[Summary]) {
    assert_summaries_agree_within(name, want, n_ref, got, 1.0);
}

/// [`assert_summaries_agree`] for samples of correlated deals (swapping: a deal and its
/// permutations): the variances are multiplied by `effect` (the design effect, at most the
/// number of deals a shuffle gives), the chi-square divided by it.
pub fn assert_summaries_agree_within(
    name: &str,
    want: &[ReferSummary],
    n_ref: f64,
    got: &[Summary],
    effect: f64,
) {
    assert_eq!(want.len(), got.len(), "{name}: the same summaries");
    for (w, got) in want.iter().zip(got) {
        match (w, got) {
            (Ok((label, mean_ref)), Summary::Average(a)) => {
                assert_eq!(label, a.label.as_deref().unwrap_or(""), "{name}");
                let n = a.count as f64;
                let var = (a.sum_squares / n - a.mean * a.mean).max(1e-12);
                let se = (effect * (var / n + var / n_ref)).sqrt();
                assert!(
                    (a.mean - mean_ref).abs() <= 4.0 * se + 1e-6,
                    "{name} {label}: {} vs {mean_ref} (se {se})",
                    a.mean
                );
            }
            (Err((label, rows)), Summary::Frequency(f)) => {
                assert_eq!(label, f.label.as_deref().unwrap_or(""), "{name}");
                let got: Vec<(i64, f64)> = f
                    .counts
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (f.low + i as i64, c as f64))
                    .collect();
                assert_eq!(
                    rows.iter().map(|r| r.0).collect::<Vec<_>>(),
                    got.iter().map(|g| g.0).collect::<Vec<_>>(),
                    "{name} {label}"
                );
                let a: Vec<f64> = got.iter().map(|g| g.1).collect();
                let b: Vec<f64> = rows.iter().map(|r| r.1).collect();
                let (chi, df) = chi2_homogeneity(&a, &b);
                let chi = chi / effect;
                if df > 0 {
                    assert!(
                        chi < chi2_critical(df),
                        "{name} {label}: chi-square {chi} on {df} df"
                    );
                }
            }
            (w, g) => panic!("{name}: {w:?} against {g:?}"),
        }
    }
}

/// The folder of dealer fixtures `sub` under tests/fixtures/dealer (`""`: that folder).
pub fn fixtures(sub: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/dealer")
        .join(sub)
}

/// `dealdex dealer SUB/NAME.dei -s 1 ARGS…` (the fixture folder of [`fixtures`]).
pub fn run_fixture(sub: &str, name: &str, args: &[&str]) -> std::process::Output {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .arg("dealer")
        .arg(fixtures(sub).join(format!("{name}.dei")))
        .args(["-s", "1"])
        .args(args)
        .output()
        .unwrap()
}
