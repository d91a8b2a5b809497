//! The Spark jobs of spark/ run for real, in one Spark driver (`local[2]`), on small archives,
//! each step checked against dealdex's own answers (generate's shards against single-machine
//! runs, dedup's counts against `dealdex import`, query's counts against `dealdex query
//! --count`, solve's tables against `dealdex solve`, and the solved parts loaded back with
//! `dealdex import`). `.ci/run` makes the venv with the pinned PySpark and pyarrow and sets
//! `DEALDEX_SPARK_PYTHON` and `DEALDEX_SPARK_TESTS=required`, so there these tests fail
//! rather than skip when PySpark or Java is missing; elsewhere they skip with a note.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, PoisonError};

use serde_json::{Value, json};
use tempfile::TempDir;

use crate::common::{dealdex, json_report};

const SEED: &str = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";

/// The venv's python when it has PySpark and pyarrow and there is a java; else `None`
/// (skip), or a panic when the tests are required.
fn spark_python() -> Option<PathBuf> {
    let python = std::env::var_os("DEALDEX_SPARK_PYTHON").map(PathBuf::from);
    let runs = |c: &mut Command| c.output().is_ok_and(|o| o.status.success());
    let problem = match &python {
        None => Some("DEALDEX_SPARK_PYTHON (a python with pyspark and pyarrow) is not set"),
        Some(p) if !runs(Command::new(p).args(["-c", "import pyspark, pyarrow"])) => {
            Some("DEALDEX_SPARK_PYTHON cannot import pyspark and pyarrow")
        }
        Some(_) if !runs(Command::new("java").arg("-version")) => Some("no java on PATH"),
        Some(_) => None,
    };
    let Some(problem) = problem else {
        return python;
    };
    if std::env::var("DEALDEX_SPARK_TESTS").as_deref() == Ok("required") {
        panic!("Spark tests required: {problem} (.ci/run installs them)");
    }
    eprintln!("skipped: {problem}");
    None
}

/// A job script of spark/.
fn job(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("spark")
        .join(format!("{name}.py"))
}

/// The one Spark driver all the tests' jobs run in (tests/slow/spark_driver.py): started by the
/// first job, ended by the end of its input when the test process exits. A spark-submit costs
/// about 15 s of CPU before a job starts; a job in a running driver, under 1 s.
struct Driver {
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// The driver's standard error (Spark's log), a file: a failed job's part of it is shown.
    log: PathBuf,
    /// Not waited for: it ends when the test process does (its input closes).
    _process: Child,
}

static DRIVER: Mutex<Option<Driver>> = Mutex::new(None);

impl Driver {
    /// `python spark_driver.py SCRATCH` with the venv's python, PySpark starting its JVM with
    /// spark-submit's arguments in PYSPARK_SUBMIT_ARGS (`--master local[2]`, the dealdex binary
    /// under test shipped as a Spark file, the jobs' helpers as a Python file): a driver run by
    /// spark-submit itself would not get this process's standard input. (PySpark splits the
    /// arguments as a shell would: the paths are quoted.)
    fn start(python: &Path) -> Driver {
        let scratch = std::env::temp_dir().join(format!("dealdex-spark-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).unwrap();
        let log = scratch.join("driver.log");
        let submit_args = [
            "--master local[2]".to_owned(),
            "--conf spark.ui.enabled=false".to_owned(),
            "--conf spark.sql.shuffle.partitions=4".to_owned(),
            "--conf spark.log.level=WARN".to_owned(),
            format!("--conf 'spark.local.dir={}'", scratch.display()),
            // A short-lived JVM: the quick compiler only.
            "--driver-java-options -XX:TieredStopAtLevel=1".to_owned(),
            format!("--files '{}'", env!("CARGO_BIN_EXE_dealdex")),
            format!("--py-files '{}'", job("dealdex_spark").display()),
            "pyspark-shell".to_owned(),
        ];
        let mut child = Command::new(python)
            .env("PYSPARK_SUBMIT_ARGS", submit_args.join(" "))
            // The workers run this python too; the driver imports the helpers from spark/.
            .env("PYSPARK_PYTHON", python)
            .env("PYTHONPATH", job("dealdex_spark").parent().unwrap())
            .env("SPARK_LOCAL_IP", "127.0.0.1")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slow/spark_driver.py"))
            .arg(&scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Driver {
            input: child.stdin.take().unwrap(),
            output: BufReader::new(child.stdout.take().unwrap()),
            log,
            _process: child,
        }
    }

    /// Runs one job; its standard output, or a panic with its error and Spark's log of it.
    fn run(&mut self, dir: &Path, name: &str, args: &[&str]) -> String {
        let request = json!({"job": job(name), "args": args, "dir": dir});
        // Spark's log of this job: what the file gains from here.
        let start = std::fs::metadata(&self.log).map_or(0, |m| m.len() as usize);
        let log = || {
            let text = std::fs::read(&self.log).unwrap_or_default();
            String::from_utf8_lossy(text.get(start..).unwrap_or_default()).into_owned()
        };
        writeln!(self.input, "{request}").unwrap();
        let mut line = String::new();
        let reply: Value = loop {
            line.clear();
            if self.output.read_line(&mut line).unwrap() == 0 {
                panic!("the Spark driver exited during {name} {args:?}: {}", log());
            }
            if let Some(reply) = line.strip_prefix("@@dealdex-spark-driver ") {
                break serde_json::from_str(reply).unwrap();
            }
        };
        match reply["stdout"].as_str() {
            Some(stdout) if reply["ok"] == true => stdout.to_owned(),
            _ => panic!(
                "{name} {args:?}: {}\n{}",
                reply["error"].as_str().unwrap_or_default(),
                log()
            ),
        }
    }
}

/// Runs `spark/<name>.py ARGS` in the tests' Spark driver (local[2]) with `dir` as its working
/// directory (give paths absolute: Spark resolves relative ones against the JVM's), with the
/// dealdex binary under test shipped as a Spark file (unless `args` name one); returns the
/// job's one-line JSON summary.
fn submit(python: &Path, dir: &Path, name: &str, args: &[&str]) -> Value {
    let mut driver = DRIVER.lock().unwrap_or_else(PoisonError::into_inner);
    let stdout = driver
        .get_or_insert_with(|| Driver::start(python))
        .run(dir, name, args);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{name}: {last:?}: {e}"))
}

/// `dir/name` as a string: a job's path argument.
fn at(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

/// `dealdex generate` of deals `start..start+count` of SEED into `out` (any format).
fn generate(dir: &Path, start: u64, count: u64, out: &str) {
    dealdex(dir)
        .args(["generate", "--seed", SEED, "--no-db", "-q"])
        .args(["--start", &start.to_string(), "--count", &count.to_string()])
        .args(["--out", out])
        .assert()
        .success();
}

/// The `.parquet` files of a directory, sorted, as paths relative to `dir`.
fn parquet_files(dir: &Path, sub: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir.join(sub))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".parquet"))
        .map(|n| format!("{sub}/{n}"))
        .collect();
    files.sort();
    files
}

/// `dealdex import FILES --db DB --json`: its report.
fn import(dir: &Path, db: &str, files: &[String]) -> Value {
    let mut args = vec!["import", "--db", db, "--json"];
    args.extend(files.iter().map(String::as_str));
    json_report(dir, &args).0
}

/// `dealdex query EXPR --count --db DB`.
fn query_count(dir: &Path, db: &str, expr: &str) -> u64 {
    let out = dealdex(dir)
        .args(["query", expr, "--count", "--db", db])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn generate_shards_are_the_single_machine_files_of_their_ranges() {
    let Some(python) = spark_python() else { return };
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // 3001 deals from 101 in 4 shards: 751, 750, 750, 750.
    let summary = submit(
        &python,
        d,
        "generate",
        &[
            "--seed",
            SEED,
            "--start",
            "101",
            "--count",
            "3001",
            "--shards",
            "4",
            "--out",
            &at(d, "shards"),
        ],
    );
    assert_eq!(
        (summary["deals"].as_u64(), summary["shards"].as_u64()),
        (Some(3001), Some(4))
    );
    let files = parquet_files(d, "shards");
    assert_eq!(files.len(), 4, "{files:?}");
    let mut start = 101;
    for (i, count) in [751, 750, 750, 750].into_iter().enumerate() {
        let reference = format!("ref-{i}.parquet");
        generate(d, start, count, &reference);
        let shard = d.join(format!("shards/part-{i:05}.parquet"));
        assert!(
            std::fs::read(&shard).unwrap() == std::fs::read(d.join(&reference)).unwrap(),
            "shard {i} differs from dealdex generate --start {start} --count {count}"
        );
        start += count;
    }
}

#[test]
fn dedup_counts_as_import_does_and_query_counts_as_dealdex_query() {
    let Some(python) = spark_python() else { return };
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // Source a: deals 1-3000. Source b, a directory: 2001-3500, 3501-5000 and again
    // 4901-5000 (1000 rows seen in a, 100 repeated within b).
    generate(d, 1, 3000, "a.parquet");
    std::fs::create_dir(d.join("b")).unwrap();
    generate(d, 2001, 1500, "b/p1.parquet");
    generate(d, 3501, 1500, "b/p2.parquet");
    generate(d, 4901, 100, "b/p3.parquet");
    let summary = submit(
        &python,
        d,
        "dedup",
        &["--out", &at(d, "all"), &at(d, "a.parquet"), &at(d, "b")],
    );

    let mut files = vec!["a.parquet".to_owned()];
    files.extend(parquet_files(d, "b"));
    let report = import(d, "both.db", &files);
    assert_eq!(summary["distinct"], report["new_deals"]);
    assert_eq!(summary["distinct"], 5000);
    // Per source: rows − new, as import counts each file's boards and new deals.
    let per_file = |f: &Value| f["boards"].as_u64().unwrap() - f["new_deals"].as_u64().unwrap();
    let import_files = report["files"].as_array().unwrap();
    let dup_a = per_file(&import_files[0]);
    let dup_b: u64 = import_files[1..].iter().map(per_file).sum();
    let sources = summary["sources"].as_array().unwrap();
    assert_eq!(sources[0]["duplicates"].as_u64(), Some(dup_a));
    assert_eq!(sources[1]["duplicates"].as_u64(), Some(dup_b));
    assert_eq!(report["duplicates"].as_u64(), Some(dup_a + dup_b));
    assert_eq!(
        (
            sources[1]["seen_earlier"].as_u64(),
            sources[1]["repeated_within"].as_u64()
        ),
        (Some(1000), Some(100))
    );
    assert_eq!(sources[1]["rows"], 3100);
    // The united archive is the 5000 deals, each once.
    let united = parquet_files(d, "all");
    let again = import(d, "united.db", &united);
    assert_eq!(
        (again["new_deals"].as_u64(), again["duplicates"].as_u64()),
        (Some(5000), Some(0))
    );
    assert_eq!(import(d, "both.db", &united)["new_deals"], 0);

    // Spark's counts over the united archive equal dealdex's over a database of both.
    let exprs = [
        "hcp(N) >= 15",
        "balanced(N) and hcp(N) in 15..17",
        "len(S, spades) >= 6 or len(N, hearts) >= 6",
        "shape(E) = 4432",
        "not semibalanced(W) and controls(NS) >= 6",
        "longest(S) >= 7",
    ];
    let mut args = vec!["--dealdex", env!("CARGO_BIN_EXE_dealdex")];
    for e in &exprs {
        args.extend(["--expr", e]);
    }
    let all = at(d, "all");
    args.push(&all);
    let summary = submit(&python, d, "query", &args);
    assert_eq!(summary["rows"], 5000);
    let queries = summary["queries"].as_array().unwrap();
    assert_eq!(queries.len(), exprs.len());
    for (q, e) in queries.iter().zip(exprs) {
        let want = query_count(d, "both.db", e);
        assert!(
            want > 0,
            "{e}: no deal matches; pick an expression that tests something"
        );
        assert_eq!(q["matched"].as_u64(), Some(want), "{e}: {q}");
    }
    // The matching deals written: exactly those dealdex finds.
    let e = exprs[1];
    let summary = submit(
        &python,
        d,
        "query",
        &["--expr", e, "--out", &at(d, "strong"), &all],
    );
    let strong = parquet_files(d, "strong");
    let report = import(d, "strong.db", &strong);
    let want = query_count(d, "both.db", e);
    assert_eq!(summary["queries"][0]["matched"].as_u64(), Some(want));
    assert_eq!(report["new_deals"].as_u64(), Some(want));
    assert_eq!(query_count(d, "strong.db", e), want);
    assert_eq!(import(d, "both.db", &strong)["new_deals"], 0);
}

/// The rows of Spark's solved part files, one JSON object a row (key as hex) sorted by key:
/// read with the venv's pyarrow.
fn solved_rows(python: &Path, dir: &Path) -> Vec<Value> {
    let script = "import glob, json, sys, pyarrow.parquet as pq\n\
        rows = [r for f in sorted(glob.glob(sys.argv[1] + '/*.parquet')) for r in pq.read_table(f).to_pylist()]\n\
        for r in sorted(rows, key=lambda r: r['key']):\n    r['key'] = r['key'].hex().upper()\n    print(json.dumps(r))\n";
    let out = Command::new(python)
        .args(["-c", script])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `dealdex solve KEYS... --format json -q` plus `extra` args: the JSON lines sorted by index.
fn solve_json(dir: &Path, keys: &[String], extra: &[&str]) -> Vec<Value> {
    let out = dealdex(dir)
        .arg("solve")
        .args(keys)
        .args(["--format", "json", "-q"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines.sort_by(|a, b| a["index"].as_str().cmp(&b["index"].as_str()));
    lines
}

/// A Spark row and dealdex's JSON line for the same deal agree: key, all 20 tricks, par.
fn assert_same(spark: &Value, dealdex: &Value) {
    let index = dealdex["index"].as_str().unwrap();
    assert_eq!(spark["key"], index);
    for (seat, s) in [("N", "n"), ("E", "e"), ("S", "s"), ("W", "w")] {
        for (strain, t) in [("NT", "nt"), ("S", "s"), ("H", "h"), ("D", "d"), ("C", "c")] {
            let column = format!("dd_{s}_{t}");
            assert_eq!(
                spark[&column], dealdex["tricks"][seat][strain],
                "{index} {column}"
            );
        }
    }
    assert_eq!(spark["par_score"], dealdex["par"]["score"], "{index} par");
    let contracts: Vec<&str> = dealdex["par"]["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(spark["par_contracts"], contracts.join(" "), "{index} par");
}

#[test]
fn solve_resumes_matches_dealdex_solve_and_loads_back() {
    let Some(python) = spark_python() else { return };
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    generate(d, 1, 20, "first.parquet");
    generate(d, 11, 20, "more.parquet");
    let s = submit(
        &python,
        d,
        "solve",
        &["--out", &at(d, "solved"), &at(d, "first.parquet")],
    );
    assert_eq!(
        (s["solved"].as_u64(), s["already_solved"].as_u64()),
        (Some(20), Some(0))
    );
    // Resumed: deals 1-20 are in solved/ already, only 21-30 are solved.
    let s = submit(
        &python,
        d,
        "solve",
        &[
            "--out",
            &at(d, "solved"),
            &at(d, "first.parquet"),
            &at(d, "more.parquet"),
        ],
    );
    assert_eq!(
        (
            s["deals"].as_u64(),
            s["solved"].as_u64(),
            s["already_solved"].as_u64()
        ),
        (Some(30), Some(10), Some(20))
    );

    // dealdex solve of the same keys, with the `-X` of their board numbers as the job sends.
    generate(d, 1, 30, "keys.hex");
    let keys: Vec<String> = std::fs::read_to_string(d.join("keys.hex"))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(keys.len(), 30);
    let want = solve_json(d, &keys, &["--no-db"]);
    let rows = solved_rows(&python, &d.join("solved"));
    assert_eq!(rows.len(), 30);
    for (row, want) in rows.iter().zip(&want) {
        assert_same(row, want);
    }

    // Loaded back with dealdex import: the 30 tables are stored, nothing is left to solve,
    // and the stored tables are Spark's.
    let report = import(d, "solved.db", &parquet_files(d, "solved"));
    let tables: u64 = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["new_dd_tables"].as_u64().unwrap())
        .sum();
    assert_eq!((report["new_deals"].as_u64(), tables), (Some(30), 30));
    assert_eq!(query_count(d, "solved.db", "dd(N, NT) >= 0"), 30);
    let (all, _) = json_report(d, &["solve", "--all", "--db", "solved.db", "--json"]);
    assert_eq!(all["solved"], 0);
    let stored = solve_json(d, &keys, &["--db", "solved.db"]);
    for (row, stored) in rows.iter().zip(&stored) {
        assert_same(row, stored);
    }
}
