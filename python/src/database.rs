//! `dealdex.Database` (the SQLite store, through the library's query, sql, import, export and
//! solve workflows) and `dealdex.dealer` (dealer's script language, through
//! `dealdex::dealer::run`).

use std::path::PathBuf;

use dealdex::dealer::{DealerJob, Script};
use dealdex::workflow::export::{ExportJob, export};
use dealdex::workflow::import::{ImportJob, import};
use dealdex::workflow::output::plan_outputs;
use dealdex::workflow::pipeline::ReadAs;
use dealdex::workflow::played::{judge_unjudged, read as read_played};
use dealdex::workflow::query::{QueryJob, QueryMode, run as run_query};
use dealdex::workflow::solve::{DEFAULT_SOLVE_BATCH, SolveJob, SolveSource, set_items};
use dealdex::workflow::sql::{SqlJob, SqlValue, run_job};
use dealdex::{DealIndex, PlayedSelection, ReadOnlyStore, Store, StoreError, StoreErrorKind};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use crate::{
    PyDeals, err, error_about, error_of, internal_error, opt_uint_arg, threads_arg, tricks_array,
};

/// A report (any serde value) as Python values, through JSON.
fn to_python<'py, T: serde::Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| internal_error(format!("report: {e}")))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// [`ReadOnlyStore::open`], with a missing file raised as Python's `FileNotFoundError`
/// (dealdex's `DealdexFileNotFoundError`) naming it, as `open()` would.
fn open_read_only(path: &std::path::Path) -> PyResult<ReadOnlyStore> {
    ReadOnlyStore::open(path).map_err(|e| match e.kind() {
        StoreErrorKind::NoDatabase { .. } => {
            error_about(&e, Some(path), Some(&std::io::ErrorKind::NotFound.into()))
        }
        _ => err(e),
    })
}

/// A dealdex database (SQLite file): deals keyed by index, named sets, double-dummy tables.
///
/// `Database(path)` names the file; each call opens it. Reading calls (`query`, `count`,
/// `sql`, `sets`, `export`) open it read-only, as the CLI does, and need it to exist;
/// `import_files` and `solve` create it when missing. Errors: `InputError` (a bad query, a
/// missing set, a refused statement), `CorruptStoreError`, `BusyError`, `DealdexIOError`.
#[pyclass(frozen, module = "dealdex", name = "Database")]
pub struct PyDatabase {
    path: PathBuf,
}

#[pymethods]
impl PyDatabase {
    #[new]
    fn new(path: PathBuf) -> PyDatabase {
        PyDatabase { path }
    }

    /// The database file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    fn __repr__(&self) -> String {
        format!("Database({:?})", self.path.display().to_string())
    }

    /// The stored deals matching the query-language expression `expr` (`"hcp(N) >= 20 and
    /// len(N, spades) >= 5"`), as `dealdex query --find` gives them: with `set`, that set's
    /// boards in board order (with their numbers, dealers and vulnerabilities), else every
    /// stored deal in key order; at most `limit`.
    #[pyo3(signature = (expr, *, set=None, limit=None))]
    fn query(
        &self,
        py: Python<'_>,
        expr: &str,
        set: Option<String>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyDeals> {
        let limit = opt_uint_arg(limit, "limit")?;
        let mut job = QueryJob::new(expr, QueryMode::Count).map_err(err)?;
        job.set = set;
        let path = self.path.clone();
        // The boards themselves, not a deal format's text read back.
        let boards = py.detach(|| {
            let store = open_read_only(&path)?;
            dealdex::workflow::query::find_boards(&job, &store, limit).map_err(err)
        })?;
        let mut deals = PyDeals::from_boards(&boards);
        if job.set.is_none() {
            deals.boards = None;
        }
        deals.extras = None;
        Ok(deals)
    }

    /// How many stored deals match `expr` (in `set` only, when given).
    #[pyo3(signature = (expr, *, set=None))]
    fn count(&self, py: Python<'_>, expr: &str, set: Option<String>) -> PyResult<u64> {
        let mut job = QueryJob::new(expr, QueryMode::Count).map_err(err)?;
        job.set = set;
        let path = self.path.clone();
        py.detach(|| {
            let store = open_read_only(&path)?;
            let report = run_query(&job, Some(&store), &mut std::io::sink()).map_err(err)?;
            Ok(report.count)
        })
    }

    /// Runs one read-only SQL statement (dealdex's SQL functions included, as `dealdex sql`)
    /// and returns its rows as tuples (`None`, `int`, `float`, `str`, `bytes`); with
    /// `columns=True`, `(column_names, rows)`. A statement that would write is refused
    /// (`InputError`). Bounded as the CLI bounds it (time and memory).
    #[pyo3(signature = (sql, *, columns=false))]
    fn sql<'py>(&self, py: Python<'py>, sql: &str, columns: bool) -> PyResult<Bound<'py, PyAny>> {
        let path = self.path.clone();
        let (names, rows) = py.detach(|| {
            let store = open_read_only(&path)?;
            let mut names = Vec::new();
            let mut rows: Vec<Vec<SqlValue>> = Vec::new();
            run_job(
                &SqlJob::new(sql),
                &store,
                &mut |c| {
                    names = c.to_vec();
                    Ok(())
                },
                &mut |r| {
                    rows.push(r.to_vec());
                    Ok(())
                },
            )
            .map_err(err)?;
            Ok::<_, PyErr>((names, rows))
        })?;
        let out = PyList::empty(py);
        for row in rows {
            let values: Vec<Bound<'py, PyAny>> = row
                .into_iter()
                .map(|v| -> PyResult<Bound<'py, PyAny>> {
                    Ok(match v {
                        SqlValue::Null => py.None().into_bound(py),
                        SqlValue::Integer(i) => i.into_pyobject(py)?.into_any(),
                        SqlValue::Real(r) => r.into_pyobject(py)?.into_any(),
                        SqlValue::Text(t) => t.into_pyobject(py)?.into_any(),
                        SqlValue::Blob(b) => PyBytes::new(py, &b).into_any(),
                    })
                })
                .collect::<PyResult<_>>()?;
            out.append(PyTuple::new(py, values)?)?;
        }
        if columns {
            Ok(PyTuple::new(py, [names.into_pyobject(py)?.into_any(), out.into_any()])?.into_any())
        } else {
            Ok(out.into_any())
        }
    }

    /// The stored sets, oldest first: a list of dicts with `name`, `first_board`,
    /// `last_board`, `scheme`, `generator`, `created_at`.
    fn sets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let path = self.path.clone();
        let infos = py.detach(|| {
            let store = open_read_only(&path)?;
            store
                .set_names()
                .and_then(|names| {
                    names
                        .iter()
                        .filter_map(|n| store.set(n).transpose())
                        .collect::<Result<Vec<_>, StoreError>>()
                })
                .map_err(err)
        })?;
        let out = PyList::empty(py);
        for i in infos {
            let d = PyDict::new(py);
            d.set_item("name", i.name)?;
            d.set_item("first_board", i.first_board)?;
            d.set_item("last_board", i.last_board)?;
            d.set_item("scheme", i.scheme.to_string())?;
            d.set_item("generator", i.generator)?;
            d.set_item("created_at", i.created_at)?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// Imports deal files (any format; `format` for all of them, else each file's extension
    /// or content), as `dealdex import`: every deal stored by its index, and with `set` each
    /// file as a set of that name (`NAME-1`, `NAME-2`, … for several files). Returns the
    /// import's report (`dealdex import --json`'s dict). A file that does not read is
    /// rejected whole and named in the report (`files`). The GIL is released meanwhile;
    /// Ctrl-C stops it before its next transaction (what was stored stays) and raises
    /// `KeyboardInterrupt`.
    #[pyo3(signature = (paths, *, format=None, set=None, first_board=None))]
    fn import_files<'py>(
        &self,
        py: Python<'py>,
        paths: Vec<PathBuf>,
        format: Option<&str>,
        set: Option<String>,
        first_board: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let first_board = opt_uint_arg(first_board, "first_board")?;
        // The format resolved before anything is stored, as `dealdex import` does.
        let read = ReadAs::named(format, first_board).map_err(err)?;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let job = ImportJob {
            set,
            stop: Some(stop.clone()),
            ..ImportJob::for_paths(&paths, read)
        };
        let path = self.path.clone();
        let report = crate::watched(
            py,
            || {
                let mut store = Store::open(&path).map_err(err)?;
                import(&job, &mut store, &mut |_| {}).map_err(err)
            },
            || stop.store(true, std::sync::atomic::Ordering::Relaxed),
            || Ok(()),
        )??;
        to_python(py, &report)
    }

    /// The played boards (imported match files: LIN vugraph, PBN with auction and play) of
    /// `set`, or of the whole database, as the played workflow reports them: a list of dicts
    /// (`id`, `set`, `board`, `room`, `event`, `north` … `west`, `contract`, `declarer`,
    /// `tricks`, `index`, `deal`, `dealer`, `vulnerability`, `auction` (calls with their
    /// notes), `score`, `cards` (each with its `seat`, its double-dummy value `dd` and `cost`),
    /// `analysis`, `judged_now`, `fault`), in set, board and room order. Judgements are those
    /// `dealdex judge` stored; with `judge`, the boards without one are judged now (not
    /// stored; the GIL released). `dealdex.Database.played` wraps it as `PlayedBoards`.
    #[pyo3(signature = (*, set=None, judge=false))]
    fn _played<'py>(
        &self,
        py: Python<'py>,
        set: Option<String>,
        judge: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let selection = set.map_or(PlayedSelection::All, PlayedSelection::Set);
        let path = self.path.clone();
        let report = py.detach(|| {
            let mut report = {
                let store = open_read_only(&path)?;
                read_played(&selection, &store).map_err(err)?
            };
            if judge {
                judge_unjudged(&mut report);
            }
            Ok::<_, PyErr>(report)
        })?;
        to_python(py, &report.boards)
    }

    /// Writes the stored set `set` to `path` (format from `format` or the extension), with
    /// each solved deal's table where the format holds one, as `dealdex export`; returns the
    /// export's report.
    #[pyo3(signature = (set, path, *, format=None))]
    fn export<'py>(
        &self,
        py: Python<'py>,
        set: &str,
        path: PathBuf,
        format: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let outputs = plan_outputs(&[path], format, "pbn").map_err(err)?;
        let job = ExportJob::new(set, outputs);
        let db = self.path.clone();
        let report = py.detach(|| {
            let store = open_read_only(&db)?;
            export(&job, &store, &mut std::io::sink()).map_err(err)
        })?;
        to_python(py, &report)
    }

    /// Solves double dummy and stores the tables, as `dealdex solve`: the boards of `set`
    /// (tables already stored are read, not solved again), or with `set=None` every stored
    /// deal without a table. Returns `(tricks, report)`: `int8[n, 4, 5]` (declarer N E S W ×
    /// strain NT ♠ ♥ ♦ ♣) for the deals in order, and the solve report. Solved on `threads`
    /// cores (all by default), the GIL released; Ctrl-C stops after the batch in flight
    /// (stored batches stay). For par, give the tables to `dealdex.par(..., tricks=)`.
    #[pyo3(signature = (*, set=None, threads=None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        set: Option<String>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let path = self.path.clone();
        let pool = crate::pool(threads_arg(threads)?)?;
        let (tables, report) = py.detach(|| {
            crate::in_pool(&pool, || {
                let mut store = Store::open(&path).map_err(err)?;
                let source = match &set {
                    Some(name) => {
                        SolveSource::Items(set_items(&store, name, None, None).map_err(err)?)
                    }
                    None => SolveSource::Unsolved {
                        dealer: None,
                        vul: None,
                    },
                };
                let job = SolveJob {
                    source,
                    batch: DEFAULT_SOLVE_BATCH,
                };
                let mut tables = Vec::new();
                let report = dealdex::workflow::solve::run::<SolveStop>(
                    &job,
                    Some(&mut store),
                    &mut |_| {},
                    &mut |_, t| {
                        tables.push(*t);
                        crate::check_signals().map_err(SolveStop::Python)
                    },
                )?;
                Ok::<_, PyErr>((tables, report))
            })
        })?;
        Ok((tricks_array(py, &tables)?, to_python(py, &report)?))
    }
}

/// Why a stored solve stopped: the store failed, or Python's side did (Ctrl-C).
/// ([`dealdex::workflow::solve::run`] wants an error type made from [`dealdex::Error`].)
enum SolveStop {
    Engine(dealdex::Error),
    Python(PyErr),
}

impl From<dealdex::Error> for SolveStop {
    fn from(e: dealdex::Error) -> SolveStop {
        SolveStop::Engine(e)
    }
}

impl From<SolveStop> for PyErr {
    fn from(e: SolveStop) -> PyErr {
        match e {
            SolveStop::Engine(e) => error_of(&e),
            SolveStop::Python(e) => e,
        }
    }
}

/// Runs a script of dealer's language (dealer's manual; `dealdex dealer`): `generate`,
/// `produce`, `condition`, `predeal`, `action` with `average`, `frequency`, `printall` … over
/// the simulation stream of `seed` (an int, as dealer's `-s`; the OS's when `None`).
/// `produce`/`generate` override the script's. The GIL is released while it runs; Ctrl-C
/// stops it (within a block of 32,768 deals) and raises `KeyboardInterrupt`.
///
/// Returns a dict: `generated`, `produced`, `seed`, `seconds`, `solved`, `summaries` (one per
/// action, in order: `{"kind": "average", "mean": …}`, `{"kind": "frequency", "low", "high",
/// "counts": int64[high - low + 1], "below", "above"}`, `{"kind": "frequency2", "counts":
/// int64[rows, cols]}` …), `output` (what the actions printed while running, as dealer
/// prints it), `text` (the report as `dealdex dealer` prints it after `output`: the
/// summaries and the closing lines) and `deals` (the produced deals, a `Deals`).
#[pyfunction]
#[pyo3(signature = (script, *, produce=None, generate=None, seed=None))]
pub(crate) fn dealer<'py>(
    py: Python<'py>,
    script: &str,
    produce: Option<&Bound<'py, PyAny>>,
    generate: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let produce = opt_uint_arg(produce, "produce")?;
    let generate = opt_uint_arg(generate, "generate")?;
    let seed = opt_uint_arg(seed, "seed")?;
    let script = Script::parse(script).map_err(err)?;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let job = DealerJob {
        produce,
        generate,
        seed,
        quiet: false,
        keep_produced: true,
        stop: Some(stop.clone()),
        ..DealerJob::default()
    };
    let mut out = Vec::new();
    let mut report = crate::watched(
        py,
        || dealdex::dealer::run(&script, &job, &mut out, &mut |_| {}),
        || stop.store(true, std::sync::atomic::Ordering::Relaxed),
        || Ok(()),
    )?
    .map_err(err)?;
    let dict = to_python(py, &report)?;
    dict.set_item("output", String::from_utf8_lossy(&out).into_owned())?;
    // The closing lines too (`Generated …`), as `dealdex dealer` prints them without -v.
    report.verbose = true;
    dict.set_item("text", report.to_string())?;
    let keys: Vec<DealIndex> = report.kept.iter().map(DealIndex::from_deal).collect();
    dict.set_item("deals", Py::new(py, PyDeals::new(keys))?)?;
    Ok(dict)
}

/// Adds the store's class and `dealer` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDatabase>()?;
    m.add_function(wrap_pyfunction!(dealer, m)?)?;
    Ok(())
}
