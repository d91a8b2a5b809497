//! The Python module `dealdex._dealdex` (issue 30), re-exported by the package `dealdex`
//! (python/dealdex/__init__.py): a thin layer over the root crate. Every operation is one of
//! the library's functions (the seeded stream, the query language, the formats' registry, the
//! solver, the store, the dealer workflow); this file only converts between Python's values
//! and the library's, releases the GIL around long work and turns the library's errors into
//! the exceptions of python/dealdex/errors.py.
//!
//! No Rust panic crosses into Python: PyO3 turns one into `pyo3_runtime.PanicException`, and
//! nothing here unwraps what the caller gave.

use std::error::Error as StdError;
use std::path::PathBuf;

use dealdex::dd::TablePar;
use dealdex::dd::{self, TrickTable};
use dealdex::formats::{self, Board, WriteOptions};
use dealdex::query::Query;
use dealdex::workflow::generate::{DrawNames, GenerateKind, Mode};
use dealdex::{
    Classify, DealIndex, ErrorClass, Predeal, Scheme, Seat, Seed, Suit, Vulnerability, features,
};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyRange, PySlice, PyString};

mod database;

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

/// The exception of python/dealdex/errors.py for a library error: its class
/// ([`dealdex::classify`]) picks the exception (`InputError`, `FormatError` when a reader or
/// writer refused a file: a cause with a [`Classify::format_kind`], `CorruptStoreError`, `BusyError`, `DealdexIOError`, else
/// `DealdexError`; Ctrl-C's `Interrupted` is `KeyboardInterrupt`), and the first position
/// found along the error's causes fills `path`, `line`, `column`, `byte` and `record`. An
/// I/O error among the causes makes it an `OSError` with its `errno` (`FileNotFoundError`
/// for a missing file).
pub(crate) fn error_of(e: &(dyn StdError + 'static)) -> PyErr {
    error_about(e, None, None)
}

/// [`error_of`], with the file the error is about and the I/O error behind it when the error
/// does not hold them (`StoreErrorKind::NoDatabase`, a written file's error).
pub(crate) fn error_about(
    e: &(dyn StdError + 'static),
    file: Option<&std::path::Path>,
    io: Option<&std::io::Error>,
) -> PyErr {
    Python::attach(|py| build_error(py, e, file, io).unwrap_or_else(|failed| failed))
}

/// [`error_of`] for an error value.
pub(crate) fn err<E: StdError + 'static>(e: E) -> PyErr {
    error_of(&e)
}

/// The exception `name` of python/dealdex/errors.py with `message`, of `kind`, and no position.
pub(crate) fn plain_error(name: &str, kind: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let make = || -> PyResult<PyErr> {
            let kwargs = PyDict::new(py);
            kwargs.set_item("kind", kind)?;
            make_error(py, name, message.clone(), &kwargs)
        };
        make().unwrap_or_else(|failed| failed)
    })
}

/// `InputError`: an argument's value is wrong.
pub(crate) fn input_error(message: impl Into<String>) -> PyErr {
    plain_error("InputError", "bad-input", message.into())
}

/// `InputTypeError` (a `TypeError` too): an argument's type is wrong.
pub(crate) fn input_type_error(message: impl Into<String>) -> PyErr {
    plain_error("InputTypeError", "bad-input", message.into())
}

/// `DealdexError` of kind `internal`: a failure that is not the caller's.
pub(crate) fn internal_error(message: impl Into<String>) -> PyErr {
    plain_error("DealdexError", "internal", message.into())
}

/// Calls python/dealdex/errors.py's `_make`, which picks an I/O error's subclass.
fn make_error(
    py: Python<'_>,
    name: &str,
    message: String,
    kwargs: &Bound<'_, PyDict>,
) -> PyResult<PyErr> {
    let made = py
        .import("dealdex.errors")?
        .getattr("_make")?
        .call((name, message), Some(kwargs))?;
    Ok(PyErr::from_value(made))
}

/// The arguments `e` (or an error it holds, [`dealdex::causes`]) is about, named as Python's
/// keywords: the library's messages name no parameter's spelling (the CLI adds its flags).
fn keywords(e: &(dyn StdError + 'static)) -> Option<&'static str> {
    use dealdex::{ErrorKind, FormatError, FormatErrorKind};
    dealdex::causes(e).into_iter().find_map(|x| {
        let format = matches!(
            x.downcast_ref::<FormatError>().map(FormatError::kind),
            Some(
                FormatErrorKind::UnknownExtension { .. }
                    | FormatErrorKind::AmbiguousContent { .. }
                    | FormatErrorKind::UnknownContent { .. }
            )
        );
        let first_board = matches!(
            x.downcast_ref::<dealdex::Error>().map(dealdex::Error::kind),
            Some(ErrorKind::FirstBoard { .. })
        );
        match (format, first_board) {
            (true, _) => Some("format="),
            (_, true) => Some("first_board="),
            _ => None,
        }
    })
}

fn build_error(
    py: Python<'_>,
    e: &(dyn StdError + 'static),
    file: Option<&std::path::Path>,
    io: Option<&std::io::Error>,
) -> PyResult<PyErr> {
    let class = dealdex::classify(e);
    if class == Some(ErrorClass::Interrupted) {
        return Ok(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            e.to_string(),
        ));
    }
    let mut position = None;
    let mut format_kind = None;
    let mut io = io;
    for x in dealdex::causes(e) {
        if position.is_none() {
            position = dealdex::as_classify(x).and_then(Classify::position);
        }
        // Python's FormatError is a format's refusal, with its kind as `format_kind`.
        if format_kind.is_none() {
            format_kind = dealdex::as_classify(x).and_then(Classify::format_kind);
        }
        io = io.or_else(|| x.downcast_ref::<std::io::Error>());
    }
    let class = class.unwrap_or(if io.is_some() {
        ErrorClass::Io
    } else {
        ErrorClass::Internal
    });
    let name = match (class, format_kind) {
        (ErrorClass::BadInput, Some(_)) => "FormatError",
        // A file that cannot be opened or read is the caller's (the CLI exits 2) but, as for
        // Python's own open(), an OSError.
        (ErrorClass::BadInput, None) if io.is_some() => "DealdexIOError",
        (ErrorClass::BadInput, None) => "InputError",
        (ErrorClass::CorruptStore, _) => "CorruptStoreError",
        (ErrorClass::Busy, _) => "BusyError",
        (ErrorClass::Io, _) => "DealdexIOError",
        _ => "DealdexError",
    };
    let kebab = |v: serde_json::Value| v.as_str().unwrap_or("").to_owned();
    let kwargs = PyDict::new(py);
    kwargs.set_item(
        "kind",
        kebab(serde_json::to_value(class).unwrap_or_default()),
    )?;
    if let Some(k) = format_kind {
        kwargs.set_item("format_kind", k)?;
    }
    if let Some(p) = position {
        kwargs.set_item("path", p.file.map(|f| f.display().to_string()))?;
        kwargs.set_item("line", p.line)?;
        kwargs.set_item("column", p.column)?;
        kwargs.set_item("byte", p.byte)?;
        kwargs.set_item("record", p.record)?;
    }
    if let Some(io) = io.filter(|_| name == "DealdexIOError") {
        kwargs.set_item("errno", io.raw_os_error())?;
        kwargs.set_item("io_kind", io_kind(io.kind()))?;
        if let Some(f) = file {
            kwargs.set_item("filename", f.display().to_string())?;
        }
    }
    let message = match keywords(e) {
        Some(k) => format!("{e} [{k}]"),
        None => e.to_string(),
    };
    make_error(py, name, message, &kwargs)
}

/// The kinds of I/O error that python/dealdex/errors.py gives an errno when the operating
/// system gave none.
fn io_kind(kind: std::io::ErrorKind) -> Option<&'static str> {
    match kind {
        std::io::ErrorKind::NotFound => Some("not-found"),
        std::io::ErrorKind::PermissionDenied => Some("permission-denied"),
        std::io::ErrorKind::IsADirectory => Some("is-a-directory"),
        _ => None,
    }
}

/// Raises Python's pending `KeyboardInterrupt` (Ctrl-C) from a thread that released the GIL.
pub(crate) fn check_signals() -> PyResult<()> {
    Python::attach(|py| py.check_signals())
}

// ---------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------

/// A seat from `"N"`, `"north"` (any case) or 0..=3 (N, E, S, W).
fn seat_arg(seat: &Bound<'_, PyAny>) -> PyResult<Seat> {
    if let Ok(i) = seat.extract::<usize>() {
        if i < 4 {
            return Ok(Seat::from_index(i));
        }
    } else if let Ok(s) = seat.extract::<String>() {
        let t = s.trim();
        let known = Seat::ALL
            .into_iter()
            .find(|x| t.eq_ignore_ascii_case(x.name()) || t.eq_ignore_ascii_case(&x.to_string()));
        if let Some(x) = known {
            return Ok(x);
        }
    }
    Err(input_error(format!(
        "not a seat: {seat} (expected N, E, S, W, their names, or 0..3)"
    )))
}

/// A numbering scheme by name (`pavlicek`, `andrews`, `bigdeal`).
fn scheme_arg(scheme: Option<&str>) -> PyResult<Scheme> {
    scheme.map_or(Ok(Scheme::Pavlicek), |s| s.parse::<Scheme>().map_err(err))
}

/// A seed from 64 hex digits, or a fresh one from the operating system.
fn seed_arg(seed: Option<&str>) -> PyResult<Seed> {
    match seed {
        Some(s) => s.parse().map_err(err),
        None => Seed::from_os().map_err(err),
    }
}

/// The int argument `name=`, 0 or more: `InputError` for a negative int or one past
/// 2⁶⁴ - 1, `InputTypeError` for another type (PyO3's own conversion would raise Python's
/// `OverflowError` or `TypeError`).
pub(crate) fn uint_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if let Ok(n) = obj.extract::<u64>() {
        return Ok(n);
    }
    if obj.is_instance_of::<PyInt>() || obj.hasattr("__index__")? {
        return Err(input_error(format!(
            "{name}={obj}: expected an int from 0 to {}",
            u64::MAX
        )));
    }
    Err(input_type_error(format!(
        "{name}: expected an int, got {}",
        obj.get_type().name()?
    )))
}

/// [`uint_arg`] of an optional argument (`None` stays `None`).
pub(crate) fn opt_uint_arg(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<u64>> {
    obj.map(|o| uint_arg(o, name)).transpose()
}

/// A `threads=` argument: how many threads, `None` for all cores; 0 is refused.
pub(crate) fn threads_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match opt_uint_arg(obj, "threads")? {
        Some(0) => Err(input_error("threads=0: expected at least 1 thread")),
        Some(n) => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
        None => Ok(None),
    }
}

/// How many threads `threads` ([`threads_arg`]) asks for, all cores for `None`.
fn thread_count(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(rayon::current_num_threads)
}

/// A rayon pool of `threads` threads, or `None` for rayon's global pool (all cores).
pub(crate) fn pool(threads: Option<usize>) -> PyResult<Option<rayon::ThreadPool>> {
    let Some(n) = threads else { return Ok(None) };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map(Some)
        .map_err(|e| internal_error(format!("cannot start {n} threads: {e}")))
}

/// Runs `f` in `pool` when there is one.
pub(crate) fn in_pool<T: Send>(
    pool: &Option<rayon::ThreadPool>,
    f: impl FnOnce() -> T + Send,
) -> T {
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}

// ---------------------------------------------------------------------------------------
// Deal
// ---------------------------------------------------------------------------------------

/// One deal: four hands of 13 cards.
///
/// `Deal(text)` reads a PBN deal string (`"N:AKQ.… …"`), a hex index (26 hex digits, FORMATS.md
/// §2) or a hand-record number (an `int`, or a decimal string) in `scheme` (`"pavlicek"`, the
/// default, `"andrews"` or `"bigdeal"`); `Deal(hands=[n, e, s, w])` takes four PBN hands
/// (`"AKQ.T9.8765.432"`). Bad input raises `InputError` with the column of the problem.
/// Deals are equal, and hash alike, when their indices are equal.
#[pyclass(frozen, module = "dealdex", name = "Deal")]
#[derive(Clone)]
pub struct PyDeal {
    pub(crate) deal: dealdex::Deal,
}

impl PyDeal {
    pub(crate) fn from_key(key: &DealIndex) -> PyResult<PyDeal> {
        Ok(PyDeal {
            deal: key.to_deal().map_err(err)?,
        })
    }
}

#[pymethods]
impl PyDeal {
    #[new]
    #[pyo3(signature = (text=None, *, scheme=None, hands=None))]
    fn new(
        text: Option<&Bound<'_, PyAny>>,
        scheme: Option<&str>,
        hands: Option<Vec<String>>,
    ) -> PyResult<PyDeal> {
        let deal = match (text, hands) {
            (Some(_), Some(_)) => {
                return Err(input_type_error("Deal() takes a text or hands=, not both"));
            }
            (None, None) => return Err(input_type_error("Deal() needs a text or hands=")),
            (None, Some(h)) => {
                let [n, e, s, w] = <[String; 4]>::try_from(h).map_err(|h| {
                    input_error(format!(
                        "hands= needs 4 hands (N, E, S, W), got {}",
                        h.len()
                    ))
                })?;
                dealdex::parse_deal(&format!("N:{n} {e} {s} {w}")).map_err(err)?
            }
            (Some(t), None) => {
                let scheme_given = scheme.is_some();
                let scheme = scheme_arg(scheme)?;
                if let Ok(n) = t.extract::<u128>() {
                    dealdex::Deal::from_number(n, scheme).map_err(err)?
                } else if t.is_instance_of::<pyo3::types::PyInt>() {
                    return Err(input_error(format!(
                        "not a {scheme} number: {t} (numbers run from {} to {})",
                        scheme.first_number(),
                        scheme.last_number()
                    )));
                } else {
                    let s: String = t.extract().map_err(|_| {
                        input_type_error(
                            "Deal() takes a str (PBN deal, hex index, number) or an int",
                        )
                    })?;
                    let digits =
                        !s.trim().is_empty() && s.trim().bytes().all(|b| b.is_ascii_digit());
                    if scheme_given || (digits && s.trim().len() != 26) {
                        let n = dealdex::parse_scheme_number(&s, scheme).map_err(err)?;
                        dealdex::Deal::from_number(n, scheme).map_err(err)?
                    } else {
                        match dealdex::parse_deal_argument(&s) {
                            Some(r) => r.map_err(err)?.0,
                            None => {
                                return Err(plain_error(
                                    "InputError",
                                    "bad-input",
                                    format!(
                                        "not a deal: {s:?} (expected a PBN deal string such as \
                                         \"N:AKQ.… …\", a 26-digit hex index or a number)"
                                    ),
                                ));
                            }
                        }
                    }
                }
            }
        };
        Ok(PyDeal { deal })
    }

    /// The four hands in PBN notation (`"AKQ.T9.8765.432"`: ♠.♥.♦.♣), as a tuple N, E, S, W.
    #[getter]
    fn hands(&self) -> (String, String, String, String) {
        let h = self.deal.hands();
        (
            h[0].to_string(),
            h[1].to_string(),
            h[2].to_string(),
            h[3].to_string(),
        )
    }

    /// High-card points of `seat` (`"N"`, `"north"` or 0..3): A 4, K 3, Q 2, J 1; 0..=37.
    fn hcp(&self, seat: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(features::hcp(self.deal.hand(seat_arg(seat)?)))
    }

    /// Suit lengths of `seat` as a tuple (♠, ♥, ♦, ♣), summing to 13.
    fn shape(&self, seat: &Bound<'_, PyAny>) -> PyResult<(u8, u8, u8, u8)> {
        let [s, h, d, c] = features::suit_lengths(self.deal.hand(seat_arg(seat)?));
        Ok((s, h, d, c))
    }

    /// The PBN deal string, starting with `first` (default North): `"N:AKQ.… … … …"`.
    #[pyo3(signature = (first="N"))]
    fn pbn(&self, first: &str) -> PyResult<String> {
        let seat = Python::attach(|py| seat_arg(PyString::new(py, first).as_any()))?;
        Ok(dealdex::format_deal(&self.deal, seat))
    }

    /// The deal's index: 26 upper-case hex digits (13 bytes, FORMATS.md §2), its key in a
    /// database.
    #[getter]
    fn index(&self) -> String {
        DealIndex::from_deal(&self.deal).to_string()
    }

    /// The index's 13 bytes.
    #[getter]
    fn key<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        pyo3::types::PyBytes::new(py, &DealIndex::from_deal(&self.deal).0)
    }

    /// The hand-record number in `scheme` (`"pavlicek"`, the default, `"andrews"`,
    /// `"bigdeal"`): 1..=D (0..=D-1 for Big Deal), D = 53,644,737,765,488,792,839,237,440,000.
    #[pyo3(signature = (scheme="pavlicek"))]
    fn number(&self, scheme: &str) -> PyResult<u128> {
        Ok(self.deal.number(scheme_arg(Some(scheme))?))
    }

    /// The deal as a hand diagram (text).
    fn __str__(&self) -> String {
        self.deal.diagram()
    }

    fn __repr__(&self) -> String {
        format!("Deal('{}')", dealdex::format_deal(&self.deal, Seat::North))
    }

    /// The deal as an HTML hand diagram (Jupyter shows it), with each hand's HCP.
    fn _repr_html_(&self) -> String {
        let hand = |seat: Seat| {
            let h = self.deal.hand(seat);
            let mut s = format!("<div><b>{}</b> ({} HCP)", seat.name(), features::hcp(h));
            for suit in Suit::ALL {
                let color = if matches!(suit, Suit::Hearts | Suit::Diamonds) {
                    "#c00"
                } else {
                    "inherit"
                };
                let holding = h.holding_string(suit);
                s += &format!(
                    "<br><span style=\"color:{color}\">{}</span>&nbsp;{}",
                    suit.symbol(),
                    if holding.is_empty() {
                        "—".into()
                    } else {
                        holding
                    }
                );
            }
            s + "</div>"
        };
        format!(
            "<table class=\"dealdex-deal\" style=\"font-family:monospace\">\
             <tr><td></td><td>{n}</td><td></td></tr>\
             <tr><td>{w}</td><td></td><td>{e}</td></tr>\
             <tr><td></td><td>{s}</td><td></td></tr></table>",
            n = hand(Seat::North),
            e = hand(Seat::East),
            s = hand(Seat::South),
            w = hand(Seat::West)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyDeal>>()
            .is_ok_and(|o| DealIndex::from_deal(&o.deal) == DealIndex::from_deal(&self.deal))
    }

    fn __hash__(&self) -> u64 {
        let k = DealIndex::from_deal(&self.deal).0;
        u64::from_le_bytes([k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]])
    }
}

// ---------------------------------------------------------------------------------------
// Deals
// ---------------------------------------------------------------------------------------

/// The part of a file's board that is neither the deal nor its number, dealer and
/// vulnerability ([`Board::game`], [`Board::dd`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct BoardExtras {
    game: Option<Box<dealdex::formats::GameRecord>>,
    dd: Option<TrickTable>,
}

/// What a board of a set or a file adds to its deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoardInfo {
    pub number: u64,
    pub dealer: Seat,
    pub vulnerability: Vulnerability,
}

/// A batch of deals, kept as their 13-byte indices, with board numbers, dealers and
/// vulnerabilities when they came from a tournament set or a file.
///
/// `len()`, indexing (an int gives a `Deal`, a slice a `Deals`) and iteration; numpy views
/// `keys` (`uint8[n, 13]`), `hcp` (`int8[n, 4]`) and `lengths` (`int8[n, 4, 4]`). `Deals(list)`
/// makes one from `Deal`s.
#[pyclass(frozen, module = "dealdex", name = "Deals", sequence)]
pub struct PyDeals {
    pub(crate) keys: Vec<DealIndex>,
    pub(crate) boards: Option<Vec<BoardInfo>>,
    /// What a file gave beside each deal (tags, auction, play, a DD table), kept so that
    /// `write(read(path))` loses nothing the formats carry; `None` when no board had any.
    pub(crate) extras: Option<Vec<BoardExtras>>,
    /// The seed the deals were generated from, as 64 hex digits.
    pub(crate) seed: Option<String>,
}

impl PyDeals {
    pub(crate) fn new(keys: Vec<DealIndex>) -> PyDeals {
        PyDeals {
            keys,
            boards: None,
            extras: None,
            seed: None,
        }
    }

    /// The deals themselves (the indices were made from deals, so they decode).
    pub(crate) fn deals(&self) -> PyResult<Vec<dealdex::Deal>> {
        self.keys.iter().map(|k| k.to_deal().map_err(err)).collect()
    }

    /// The batch as boards: its own numbers, dealers and vulnerabilities, else boards 1, 2, ….
    pub(crate) fn to_boards(&self) -> PyResult<Vec<Board>> {
        let deals = self.deals()?;
        Ok(deals
            .into_iter()
            .enumerate()
            .map(|(i, deal)| {
                let mut board = match &self.boards {
                    Some(b) => Board {
                        dealer: Some(b[i].dealer),
                        vulnerability: Some(b[i].vulnerability),
                        ..Board::new(b[i].number, deal)
                    },
                    None => Board::new(i as u64 + 1, deal),
                };
                if let Some(x) = self.extras.as_ref().map(|x| &x[i]) {
                    board.game = x.game.clone();
                    board.dd = x.dd;
                }
                board
            })
            .collect())
    }

    pub(crate) fn from_boards(boards: &[Board]) -> PyDeals {
        PyDeals {
            keys: boards
                .iter()
                .map(|b| DealIndex::from_deal(&b.deal))
                .collect(),
            boards: Some(
                boards
                    .iter()
                    .enumerate()
                    .map(|(i, b)| BoardInfo {
                        number: b.number.unwrap_or(i as u64 + 1),
                        dealer: b.dealer_or_default(),
                        vulnerability: b.vulnerability_or_default(),
                    })
                    .collect(),
            ),
            extras: boards
                .iter()
                .any(|b| b.game.is_some() || b.dd.is_some())
                .then(|| {
                    boards
                        .iter()
                        .map(|b| BoardExtras {
                            game: b.game.clone(),
                            dd: b.dd,
                        })
                        .collect()
                }),
            seed: None,
        }
    }

    /// The deals at `picks` (in range), with their boards, file extras and seed.
    fn pick(&self, picks: &[usize]) -> PyDeals {
        PyDeals {
            keys: picks.iter().map(|&j| self.keys[j]).collect(),
            boards: self
                .boards
                .as_ref()
                .map(|b| picks.iter().map(|&j| b[j]).collect()),
            extras: self
                .extras
                .as_ref()
                .map(|x| picks.iter().map(|&j| x[j].clone()).collect()),
            seed: self.seed.clone(),
        }
    }

    /// The batches one after the other. Board numbers are kept when any batch has them (a
    /// batch without gets boards 1, 2, … with their dealers and vulnerabilities, what `write`
    /// gives it alone), file extras (DD tables, auctions) when any has them, the seed when
    /// all share it.
    fn concat_of(parts: &[&PyDeals]) -> PyDeals {
        let boards = parts.iter().any(|p| p.boards.is_some()).then(|| {
            parts
                .iter()
                .flat_map(|p| match &p.boards {
                    Some(b) => b.clone(),
                    None => (1..=p.keys.len() as u64)
                        .map(|number| BoardInfo {
                            number,
                            dealer: dealdex::board_dealer(number),
                            vulnerability: dealdex::board_vulnerability(number),
                        })
                        .collect(),
                })
                .collect()
        });
        let extras = parts.iter().any(|p| p.extras.is_some()).then(|| {
            parts
                .iter()
                .flat_map(|p| match &p.extras {
                    Some(x) => x.clone(),
                    None => vec![BoardExtras::default(); p.keys.len()],
                })
                .collect()
        });
        let seed = parts.first().and_then(|p| p.seed.clone());
        PyDeals {
            keys: parts.iter().flat_map(|p| p.keys.iter().copied()).collect(),
            boards,
            extras,
            seed: seed.filter(|s| parts.iter().all(|p| p.seed.as_ref() == Some(s))),
        }
    }

    /// `f` over every deal on all cores, flattened into an array of `width` values a deal.
    fn per_deal<const W: usize>(
        &self,
        f: impl Fn(&dealdex::Deal) -> [i8; W] + Sync,
    ) -> PyResult<Vec<i8>> {
        use rayon::prelude::*;
        let mut out = vec![0i8; self.keys.len() * W];
        let bad = std::sync::atomic::AtomicBool::new(false);
        out.par_chunks_mut(W * 4096)
            .zip(self.keys.par_chunks(4096))
            .for_each(|(o, keys)| {
                for (o, k) in o.chunks_exact_mut(W).zip(keys) {
                    match k.to_deal() {
                        Ok(d) => o.copy_from_slice(&f(&d)),
                        Err(_) => bad.store(true, std::sync::atomic::Ordering::Relaxed),
                    }
                }
            });
        if bad.into_inner() {
            return Err(internal_error("a key of the batch is not a deal"));
        }
        Ok(out)
    }
}

/// The deal at index `j` (negative from the end) of a batch of `n`: `InputIndexError` (an
/// `IndexError`) outside it.
fn position_in(j: i64, n: usize) -> PyResult<usize> {
    let k = if j < 0 { j + n as i64 } else { j };
    if (0..n as i64).contains(&k) {
        Ok(k as usize)
    } else {
        Err(plain_error(
            "InputIndexError",
            "bad-input",
            format!("deal {j} of {n}: out of range"),
        ))
    }
}

/// The positions a numpy-style index picks in a batch of `n`: a boolean mask of length `n`
/// (`ds[ds.hcp[:, 0] >= 15]`), or ints (negative from the end) as a list or an integer array.
fn index_picks(i: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<usize>> {
    let not_an_index = || {
        input_type_error(format!(
            "Deals indices: expected an int, a slice, a boolean mask or a list or array of \
             ints, got {}",
            i.get_type()
        ))
    };
    let np = i.py().import("numpy")?;
    let Ok(arr) = np.call_method1("asarray", (i,)) else {
        return Err(not_an_index());
    };
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    let size: usize = arr.getattr("size")?.extract()?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if size == 0 {
        // `[]` is a float array to numpy: no deal either way.
        return Ok(Vec::new());
    }
    if ndim != 1 || !matches!(kind.as_str(), "b" | "i" | "u") {
        return Err(not_an_index());
    }
    let ints = if kind == "b" {
        if size != n {
            return Err(plain_error(
                "InputIndexError",
                "bad-input",
                format!("a boolean mask of {size} values for {n} deals"),
            ));
        }
        np.call_method1("flatnonzero", (arr,))?
    } else {
        arr
    };
    // Unsigned ints past i64's range would wrap to negative positions: refused as such.
    let ints = ints.call_method1("astype", ("int64",))?;
    if kind == "u"
        && ints
            .call_method1("__lt__", (0,))?
            .call_method0("any")?
            .is_truthy()?
    {
        return Err(plain_error(
            "InputIndexError",
            "bad-input",
            "an index past 2**63 - 1: out of range".into(),
        ));
    }
    let ints: Vec<i64> = ints.call_method0("tolist")?.extract()?;
    ints.into_iter().map(|j| position_in(j, n)).collect()
}

/// The deals of `obj`: a `Deals`, one `Deal`, or an iterable of `Deal`s.
pub(crate) fn deals_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<DealIndex>> {
    if let Ok(d) = obj.extract::<PyRef<'_, PyDeals>>() {
        return Ok(d.keys.clone());
    }
    if let Ok(d) = obj.extract::<PyRef<'_, PyDeal>>() {
        return Ok(vec![DealIndex::from_deal(&d.deal)]);
    }
    let mut keys = Vec::new();
    for item in obj
        .try_iter()
        .map_err(|_| input_type_error("expected a Deals batch, a Deal or an iterable of Deals"))?
    {
        let item = item?;
        let d = item.extract::<PyRef<'_, PyDeal>>().map_err(|_| {
            input_type_error(format!("expected Deal items, got {}", item.get_type()))
        })?;
        keys.push(DealIndex::from_deal(&d.deal));
    }
    Ok(keys)
}

#[pymethods]
impl PyDeals {
    #[new]
    #[pyo3(signature = (deals=None))]
    fn py_new(deals: Option<&Bound<'_, PyAny>>) -> PyResult<PyDeals> {
        Ok(PyDeals::new(match deals {
            Some(d) => deals_arg(d)?,
            None => Vec::new(),
        }))
    }

    /// A batch from an array of indices: anything numpy reads as `uint8[n, 13]` (or bytes of
    /// 13·n). Raises `InputError` naming the first row that is not a deal.
    #[staticmethod]
    fn from_keys(keys: &Bound<'_, PyAny>) -> PyResult<PyDeals> {
        let bytes: Vec<u8> = if let Ok(b) = keys.extract::<Vec<u8>>() {
            b
        } else {
            let np = keys.py().import("numpy")?;
            let arr = np.call_method1("ascontiguousarray", (keys, "uint8"))?;
            arr.call_method0("tobytes")?.extract()?
        };
        if !bytes.len().is_multiple_of(13) {
            return Err(input_error(format!(
                "keys: {} bytes is not a whole number of 13-byte indices",
                bytes.len()
            )));
        }
        let mut out = Vec::with_capacity(bytes.len() / 13);
        for (row, c) in bytes.chunks_exact(13).enumerate() {
            let mut k = [0u8; 13];
            k.copy_from_slice(c);
            let key = DealIndex(k);
            key.to_deal().map_err(|e| {
                plain_error("InputError", "bad-input", format!("keys row {row}: {e}"))
            })?;
            out.push(key);
        }
        Ok(PyDeals::new(out))
    }

    fn __len__(&self) -> usize {
        self.keys.len()
    }

    fn __getitem__(&self, py: Python<'_>, i: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let n = self.keys.len();
        if let Ok(slice) = i.cast::<PySlice>() {
            let ind = slice.indices(n as isize)?;
            let picks: Vec<usize> = (0..ind.slicelength)
                .map(|j| (ind.start + j as isize * ind.step) as usize)
                .collect();
            return Ok(Py::new(py, self.pick(&picks))?.into_any());
        }
        if let Ok(j) = i.extract::<i64>() {
            let k = position_in(j, n)?;
            return Ok(Py::new(py, PyDeal::from_key(&self.keys[k])?)?.into_any());
        }
        let picks = index_picks(i, n)?;
        Ok(Py::new(py, self.pick(&picks))?.into_any())
    }

    /// The batch followed by `other` (a `Deals`), as `concat([self, other])`.
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        match other.cast::<PyDeals>() {
            Ok(o) => Ok(Py::new(py, PyDeals::concat_of(&[self, o.get()]))?.into_any()),
            // Python then tries `other.__radd__`, and raises its TypeError.
            Err(_) => Ok(py.NotImplemented()),
        }
    }

    /// The DD tables the file gave (PBN's `DoubleDummyTricks` or `OptimumResultTable`, the
    /// formats that carry one), as `solve` gives them: `int8[n, 4, 5]`, `[deal, declarer N E
    /// S W, strain NT ♠ ♥ ♦ ♣]`, with -1 throughout for a board without a table; `None` when
    /// no board has one (a generated batch). `par(deals, tricks=deals.tricks)` uses them.
    #[getter]
    fn tricks<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(extras) = self
            .extras
            .as_ref()
            .filter(|x| x.iter().any(|b| b.dd.is_some()))
        else {
            return Ok(None);
        };
        let flat: Vec<i8> = extras
            .iter()
            .flat_map(|b| match &b.dd {
                Some(t) => t.rows().into_iter().flatten().map(|x| x as i8).collect(),
                None => vec![-1i8; 20],
            })
            .collect();
        Ok(Some(
            PyArray1::from_vec(py, flat)
                .reshape([extras.len(), 4, 5])?
                .into_any(),
        ))
    }

    fn __iter__(slf: Bound<'_, PyDeals>) -> DealsIter {
        DealsIter {
            deals: slf.unbind(),
            next: 0,
        }
    }

    fn __repr__(&self) -> String {
        format!("<Deals: {} deals>", self.keys.len())
    }

    /// The indices as `uint8[n, 13]` (a copy: 13 bytes a deal).
    #[getter]
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat: Vec<u8> = self.keys.iter().flat_map(|k| k.0).collect();
        Ok(PyArray1::from_vec(py, flat)
            .reshape([self.keys.len(), 13])?
            .into_any())
    }

    /// High-card points as `int8[n, 4]`, columns N, E, S, W (A 4, K 3, Q 2, J 1), computed on
    /// all cores.
    #[getter]
    fn hcp<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat = py
            .detach(|| self.per_deal::<4>(|d| Seat::ALL.map(|s| features::hcp(d.hand(s)) as i8)))?;
        Ok(PyArray1::from_vec(py, flat)
            .reshape([self.keys.len(), 4])?
            .into_any())
    }

    /// Suit lengths as `int8[n, 4, 4]`: `[deal, seat N E S W, suit ♠ ♥ ♦ ♣]`.
    #[getter]
    fn lengths<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat = py.detach(|| {
            self.per_deal::<16>(|d| {
                let mut o = [0i8; 16];
                for s in Seat::ALL {
                    let l = features::suit_lengths(d.hand(s));
                    for (j, x) in l.into_iter().enumerate() {
                        o[s.index() * 4 + j] = x as i8;
                    }
                }
                o
            })
        })?;
        Ok(PyArray1::from_vec(py, flat)
            .reshape([self.keys.len(), 4, 4])?
            .into_any())
    }

    /// Board numbers as `uint64[n]`, or `None` for a batch that is not a set or a file's.
    #[getter]
    fn boards<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.boards.as_ref().map(|b| {
            PyArray1::from_vec(py, b.iter().map(|x| x.number).collect::<Vec<u64>>()).into_any()
        })
    }

    /// Dealers (`"N"` … `"W"`), one a board, or `None` for a batch without boards.
    #[getter]
    fn dealers(&self) -> Option<Vec<String>> {
        self.boards
            .as_ref()
            .map(|b| b.iter().map(|x| x.dealer.to_string()).collect())
    }

    /// Vulnerabilities (`"None"`, `"NS"`, `"EW"`, `"All"`), one a board, or `None`.
    #[getter]
    fn vulnerabilities(&self) -> Option<Vec<String>> {
        self.boards
            .as_ref()
            .map(|b| b.iter().map(|x| x.vulnerability.to_string()).collect())
    }

    /// The seed the batch was generated from (64 hex digits), else `None`.
    #[getter]
    fn seed(&self) -> Option<String> {
        self.seed.clone()
    }

    /// The indices as hex strings (26 digits each).
    fn indices(&self) -> Vec<String> {
        self.keys.iter().map(|k| k.to_string()).collect()
    }

    /// The PBN deal strings (`"N:…"`).
    fn pbn(&self) -> PyResult<Vec<String>> {
        Ok(self
            .deals()?
            .iter()
            .map(|d| dealdex::format_deal(d, Seat::North))
            .collect())
    }

    /// Hand-record numbers in `scheme`, as Python ints.
    #[pyo3(signature = (scheme="pavlicek"))]
    fn numbers(&self, scheme: &str) -> PyResult<Vec<u128>> {
        let scheme = scheme_arg(Some(scheme))?;
        Ok(self.deals()?.iter().map(|d| d.number(scheme)).collect())
    }
}

/// An iterator over a `Deals` batch.
#[pyclass(module = "dealdex")]
pub struct DealsIter {
    deals: Py<PyDeals>,
    next: usize,
}

#[pymethods]
impl DealsIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> PyResult<Option<PyDeal>> {
        match self.deals.get().keys.get(self.next) {
            Some(k) => {
                self.next += 1;
                Ok(Some(PyDeal::from_key(k)?))
            }
            None => Ok(None),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------

/// `count` deals of dealdex's seeded stream (FORMATS.md §3): the deals `dealdex generate
/// --count COUNT --seed SEED [--where QUERY] [--predeal PREDEAL]` gives, in its order.
///
/// `seed`: 64 hex digits (a fresh one from the OS when `None`, kept in `Deals.seed`);
/// `where`: a query (`"hcp(N) in 15..17 and balanced(N)"`) that the deals must match;
/// `predeal`: fixed cards (`"N:AKQ.. E:..."`, as `--predeal`); `threads`: cores to use (all by
/// default); `max_draws`: with `where` (with or without `predeal`), the most deals drawn
/// before `InputError` saying how many matched (10⁹ by default, the CLI's `--max-draws`: some
/// minutes, about three times longer with a predeal; 0 for no bound). A query that no deal
/// can match, as far as its terms' ranges tell (with the predealt cards when there are some),
/// raises `InputError` before any draw. The GIL is released while deals are drawn; Ctrl-C
/// stops the work.
#[pyfunction]
#[pyo3(signature = (count, *, seed=None, r#where=None, predeal=None, threads=None, max_draws=None))]
fn generate(
    py: Python<'_>,
    count: &Bound<'_, PyAny>,
    seed: Option<&str>,
    r#where: Option<&str>,
    predeal: Option<&str>,
    threads: Option<&Bound<'_, PyAny>>,
    max_draws: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDeals> {
    let count = uint_arg(count, "count")?;
    let threads = threads_arg(threads)?;
    let max_draws = opt_uint_arg(max_draws, "max_draws")?;
    let seed = seed_arg(seed)?;
    let query = r#where.map(Query::parse).transpose().map_err(err)?;
    let predeal = predeal.map(Predeal::parse).transpose().map_err(err)?;
    // As the CLI's check: a query no deal can match, with the predealt cards when there are
    // some, is refused before any draw.
    let never = query.as_ref().and_then(|q| match &predeal {
        Some(p) => q.never_matches_given(&p.fixed()),
        None => q.never_matches(),
    });
    if let Some(never) = never {
        return Err(err(never));
    }
    let pool = pool(threads)?;
    // As `--max-draws`: 0 is no bound.
    let max_draws = match max_draws.unwrap_or(dealdex::workflow::generate::DEFAULT_MAX_DRAWS) {
        0 => u64::MAX,
        n => n,
    };
    let keys = py.detach(|| {
        in_pool(&pool, || {
            draw(
                &seed,
                predeal.as_ref(),
                query.as_ref(),
                (1, count),
                max_draws,
            )
        })
    })?;
    Ok(PyDeals {
        keys,
        boards: None,
        extras: None,
        seed: Some(seed.to_string()),
    })
}

/// Deals `first ..` of the stream: the first `count` that match `query` (all when `None`),
/// drawing at most `max_draws` deals, checking for Ctrl-C between windows of deals.
fn draw(
    seed: &Seed,
    predeal: Option<&Predeal>,
    query: Option<&Query>,
    (first, count): (u64, u64),
    max_draws: u64,
) -> PyResult<Vec<DealIndex>> {
    use dealdex::workflow::pipeline::{DealSource, DealStream, StreamFilter, StreamSource};
    /// Why a draw ended early: the source failed, or Python was interrupted.
    enum Halt {
        Source(dealdex::Error),
        Python(PyErr),
    }
    impl From<dealdex::Error> for Halt {
        fn from(e: dealdex::Error) -> Halt {
            Halt::Source(e)
        }
    }
    let stream = StreamSource {
        stream: DealStream::Seeded(*seed),
        first,
        count,
        predeal: predeal.cloned(),
        filter: query.map(|q| StreamFilter {
            query: q.clone(),
            max_draws: Some(max_draws),
        }),
    };
    if stream.filter.is_none() {
        // The stream's pieces as they are made, Ctrl-C looked at after each.
        let mut keys = Vec::with_capacity(count.min(1 << 24) as usize);
        let read = DealSource::Stream(stream)
            .open(None, &Default::default())
            .map_err(err)?
            .read(&mut |boards| -> Result<bool, Halt> {
                keys.extend(boards.iter().map(|b| DealIndex::from_deal(&b.deal)));
                check_signals().map_err(Halt::Python)?;
                Ok(true)
            });
        return match read {
            Ok(_) => Ok(keys),
            Err(Halt::Source(e)) => Err(err(e)),
            Err(Halt::Python(e)) => Err(e),
        };
    }
    // The search, Ctrl-C looked at between its windows of draws.
    let mut interrupted = None;
    let found = stream
        .find(&mut |_| match check_signals() {
            Ok(()) => true,
            Err(e) => {
                interrupted.get_or_insert(e);
                false
            }
        })
        .map_err(err)?;
    if let Some(e) = interrupted {
        return Err(e);
    }
    let matched = found.deals.len() as u64;
    if matched < count {
        // The CLI's error (`--max-draws`), in Python's terms.
        return Err(err(dealdex::Error::from(GenerateKind::DrawLimit {
            drawn: found.drawn,
            matched,
            max_draws,
            mode: Mode::Bulk,
            first_missing: first + matched,
            last: first + (count - 1),
            predeal: predeal.is_some(),
            names: DrawNames::Python,
        })));
    }
    Ok(found.deals.iter().map(DealIndex::from_deal).collect())
}

/// The tournament set of boards `boards` (a `range`, e.g. `range(1, 33)` for boards 1..32):
/// board k is deal k of the seeded stream, as `dealdex generate --boards A-B --seed SEED`
/// makes it, with its dealer and vulnerability (`Deals.boards`, `.dealers`,
/// `.vulnerabilities`). `seed` and `predeal` as in `generate`.
#[pyfunction]
#[pyo3(signature = (boards, *, seed=None, predeal=None, threads=None))]
fn generate_boards(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    seed: Option<&str>,
    predeal: Option<&str>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDeals> {
    let threads = threads_arg(threads)?;
    let Ok(range) = boards.cast::<PyRange>() else {
        return Err(input_type_error(format!(
            "boards: expected a range of board numbers such as range(1, 33), got {}",
            boards.repr()?
        )));
    };
    // Board numbers are u64 and a range's bounds any int: i128 holds both.
    let (start, stop, step): (i128, i128, i128) = (
        range.getattr("start")?.extract()?,
        range.getattr("stop")?.extract()?,
        range.getattr("step")?.extract()?,
    );
    if step != 1 || start < 1 || stop <= start || stop - 1 > i128::from(u64::MAX) {
        return Err(input_error(format!(
            "boards: expected a range of board numbers such as range(1, 33), got {boards}"
        )));
    }
    let (first, count) = (start as u64, (stop - start) as u64);
    if count > dealdex::workflow::generate::MAX_SET_BOARDS {
        return Err(input_error(format!(
            "boards: at most {} boards a set",
            dealdex::workflow::generate::MAX_SET_BOARDS
        )));
    }
    let seed = seed_arg(seed)?;
    let predeal = predeal.map(Predeal::parse).transpose().map_err(err)?;
    let pool = pool(threads)?;
    let keys = py.detach(|| {
        in_pool(&pool, || {
            draw(&seed, predeal.as_ref(), None, (first, count), 0)
        })
    })?;
    let infos = (first..first + count)
        .map(|n| BoardInfo {
            number: n,
            dealer: dealdex::board_dealer(n),
            vulnerability: dealdex::board_vulnerability(n),
        })
        .collect();
    Ok(PyDeals {
        keys,
        boards: Some(infos),
        extras: None,
        seed: Some(seed.to_string()),
    })
}

// ---------------------------------------------------------------------------------------
// Double dummy
// ---------------------------------------------------------------------------------------

/// Runs `work` on a thread of its own with the GIL released, while the calling thread
/// watches: every 100 ms it checks for Ctrl-C and calls `tick` (which may call back into
/// Python). On Ctrl-C, or an error from `tick`, it calls `stop` once and, when `work` has
/// returned, raises that error.
pub(crate) fn watched<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send,
    stop: impl FnOnce() + Send,
    mut tick: impl FnMut() -> PyResult<()> + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            let watcher = std::thread::current();
            let job = scope.spawn(move || {
                let out = work();
                watcher.unpark();
                out
            });
            let mut failure: Option<PyErr> = None;
            let mut stop = Some(stop);
            while !job.is_finished() {
                std::thread::park_timeout(std::time::Duration::from_millis(100));
                if failure.is_none()
                    && let Err(e) = check_signals().and_then(|()| tick())
                {
                    if let Some(f) = stop.take() {
                        f();
                    }
                    failure = Some(e);
                }
            }
            let out = job.join().map_err(|_| {
                plain_error("DealdexError", "panic", "a worker thread panicked".into())
            })?;
            failure.map_or(Ok(out), Err)
        })
    })
}

/// Solves `deals` with the GIL released on `threads` solver threads (all cores by default),
/// work handed out a strain of a deal at a time ([`dd::solve_on`]). Ctrl-C stops the solve
/// after the strains in hand; `progress`, when given, is called with `(done, total)` at most
/// twice a second and once at the end.
pub(crate) fn solve_keys(
    py: Python<'_>,
    keys: &[DealIndex],
    threads: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<TrickTable>> {
    let threads = thread_count(threads);
    let deals: Vec<dealdex::Deal> = keys
        .iter()
        .map(|k| k.to_deal().map_err(err))
        .collect::<PyResult<_>>()?;
    let progress = progress.map(|p| p.clone().unbind());
    let total = deals.len();
    let watch = dd::SolveWatch::new();
    let mut reported = (0, std::time::Instant::now());
    let tables = watched(
        py,
        || dd::solve_on(&deals, threads, &watch),
        || watch.stop(),
        || {
            let done = watch.solved();
            match &progress {
                Some(p) if done > reported.0 && reported.1.elapsed().as_millis() >= 500 => {
                    reported = (done, std::time::Instant::now());
                    Python::attach(|py| p.call1(py, (done, total)).map(drop))
                }
                _ => Ok(()),
            }
        },
    )?
    .map_err(err)?;
    if let Some(p) = &progress
        && reported.0 < total
    {
        p.call1(py, (total, total))?;
    }
    Ok(tables)
}

/// A `progress=` argument: `True` prints `solved k/n` lines to stderr, a callable is called
/// with `(done, total)`.
fn progress_arg<'py>(
    py: Python<'py>,
    progress: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if progress.is_callable() {
        return Ok(Some(progress.clone()));
    }
    if progress.is_truthy()? {
        let f = py.import("dealdex.errors")?.getattr("_print_progress")?;
        return Ok(Some(f));
    }
    Ok(None)
}

/// Double-dummy tricks of `deals` (a `Deals`, a `Deal` or an iterable of `Deal`s) as
/// `int8[n, 4, 5]`: `[deal, declarer N E S W, strain NT ♠ ♥ ♦ ♣]`, tricks 0..13 that the
/// declarer's side takes. Solved by the selected solver (`select_solver`) on `threads` cores (all by
/// default), the GIL released; Ctrl-C stops it within a strain's solve. `progress`: `True`
/// for a line on stderr, or a callable taking `(done, total)`, at most twice a second.
#[pyfunction]
#[pyo3(signature = (deals, *, threads=None, progress=None))]
fn solve<'py>(
    py: Python<'py>,
    deals: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = threads_arg(threads)?;
    let keys = deals_arg(deals)?;
    let progress = match progress {
        Some(p) => progress_arg(py, p)?,
        None => None,
    };
    let tables = solve_keys(py, &keys, threads, progress.as_ref())?;
    tricks_array(py, &tables)
}

/// Chooses the double-dummy solver of every later solve in the process (`solve`, `par`,
/// `lead`, `contracts`, a database's solves): `"pons"` (pons-dds, the default) or `"dds"`
/// (DDS itself, in a package built with the `dds` feature). Returns the solver's name and
/// version as recorded beside the tables it solves, e.g. `"pons-dds 0.2.0"`. An unknown
/// name, or a solver the package lacks, raises `InputError`.
#[pyfunction]
fn select_solver(name: &str) -> PyResult<&'static str> {
    let solver: dd::Solver = name.parse().map_err(|e| error_of(&e))?;
    solver.select().map_err(|e| error_of(&e))?;
    Ok(solver.name())
}

/// Tables as `int8[n, 4, 5]`.
pub(crate) fn tricks_array<'py>(
    py: Python<'py>,
    tables: &[TrickTable],
) -> PyResult<Bound<'py, PyAny>> {
    let flat: Vec<i8> = tables
        .iter()
        .flat_map(|t| t.rows().into_iter().flatten().map(|x| x as i8))
        .collect();
    Ok(PyArray1::from_vec(py, flat)
        .reshape([tables.len(), 4, 5])?
        .into_any())
}

/// Par of each deal: a list of `{"score": int, "contracts": [str]}` (score from North-South's
/// view, contracts as `"4SN"`, `"3NTS+1"`, `"5CxE-2"`: the JSON `dealdex solve` prints). The
/// dealer and vulnerability are `dealer`/`vul` when given (one for all deals), else each
/// board's (a set or a file), else North and None. `tricks`: the tables of `solve` for the
/// same deals (`int8[n, 4, 5]`), else they are solved here.
#[pyfunction]
#[pyo3(signature = (deals, *, dealer=None, vul=None, tricks=None, threads=None))]
fn par<'py>(
    py: Python<'py>,
    deals: &Bound<'py, PyAny>,
    dealer: Option<&Bound<'py, PyAny>>,
    vul: Option<&str>,
    tricks: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let threads = threads_arg(threads)?;
    let keys = deals_arg(deals)?;
    let infos = deals
        .extract::<PyRef<'_, PyDeals>>()
        .ok()
        .and_then(|d| d.boards.clone());
    let dealer = dealer.map(seat_arg).transpose()?;
    let vul = vul
        .map(|v| v.parse::<Vulnerability>())
        .transpose()
        .map_err(err)?;
    let tables = match tricks {
        Some(t) => {
            let np = py.import("numpy")?;
            let arr = np.call_method1("ascontiguousarray", (t, "uint8"))?;
            let bytes: Vec<u8> = arr.call_method0("tobytes")?.extract()?;
            if bytes.len() != keys.len() * 20 {
                return Err(input_error(format!(
                    "tricks: expected {} x 4 x 5 values, got {}",
                    keys.len(),
                    bytes.len()
                )));
            }
            bytes
                .chunks_exact(20)
                .map(|c| {
                    let mut rows = [[0u8; 5]; 4];
                    for (i, r) in rows.iter_mut().enumerate() {
                        r.copy_from_slice(&c[i * 5..i * 5 + 5]);
                    }
                    TrickTable::new(rows).map_err(err)
                })
                .collect::<PyResult<Vec<_>>>()?
        }
        None => solve_keys(py, &keys, threads, None)?,
    };
    let out = PyList::empty(py);
    for (i, t) in tables.iter().enumerate() {
        let info = infos.as_ref().map(|b| b[i]);
        let p = t.par(
            dealer.or(info.map(|b| b.dealer)).unwrap_or(Seat::North),
            vul.or(info.map(|b| b.vulnerability))
                .unwrap_or(Vulnerability::None),
        );
        let d = PyDict::new(py);
        d.set_item("score", p.score)?;
        d.set_item(
            "contracts",
            p.contracts
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>(),
        )?;
        out.append(d)?;
    }
    Ok(out)
}

/// Where a sample of deals comes from, one rule for every function that takes one (`lead`,
/// `contracts`): `deals=` (a `Deals` batch, a `Deal` or an iterable of them), else `path=` (a
/// deal file), else `count=` deals dealt now from `seed`'s stream (a fresh seed when `None`)
/// around `predeal`'s cards, those `where` accepts (at most `max_draws` drawn: 10⁹ when
/// `None`, 0 for no bound), else the deals stored in `db`: its set `set`, those `where`
/// matches.
struct SampleArgs<'a, 'py> {
    deals: Option<&'a Bound<'py, PyAny>>,
    path: Option<PathBuf>,
    db: Option<&'a PathBuf>,
    set: Option<String>,
    r#where: Option<&'a str>,
    count: Option<u64>,
    seed: Option<&'a str>,
    predeal: Option<&'a str>,
    max_draws: Option<u64>,
}

impl SampleArgs<'_, '_> {
    /// The source these arguments name.
    fn source(self, what: &str) -> PyResult<dealdex::workflow::pipeline::DealSource> {
        use dealdex::workflow::pipeline::{DealSource, StreamFilter};
        let query = self.r#where.map(Query::parse).transpose().map_err(err)?;
        let given = [
            self.deals.is_some(),
            self.path.is_some(),
            self.count.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() > 1 {
            return Err(input_error(format!(
                "{what}: give one sample: deals=, path= or count= (or db= for stored deals)"
            )));
        }
        let stored_only = || {
            if self.set.is_some() {
                return Err(input_error(format!(
                    "{what}: set= names a stored set: give db= and no deals=, path= or count="
                )));
            }
            if query.is_some() {
                return Err(input_error(format!(
                    "{what}: where= filters deals dealt now (count=) or stored ones (db=), not given ones"
                )));
            }
            Ok(())
        };
        if let Some(deals) = self.deals {
            stored_only()?;
            return Ok(DealSource::Boards(boards_arg(deals)?.into()));
        }
        if let Some(path) = self.path {
            stored_only()?;
            return Ok(DealSource::file(path));
        }
        if let Some(count) = self.count {
            if self.set.is_some() {
                return Err(input_error(format!(
                    "{what}: set= names a stored set; count= deals a new sample"
                )));
            }
            return Ok(DealSource::dealt(
                seed_arg(self.seed)?,
                count,
                self.predeal.map(Predeal::parse).transpose().map_err(err)?,
                query.map(|query| StreamFilter {
                    query,
                    max_draws: dealdex::workflow::generate::max_draws(self.max_draws),
                }),
            ));
        }
        if self.db.is_none() {
            return Err(input_error(format!(
                "{what}: no sample: give deals=, path=, count= or db="
            )));
        }
        Ok(match (query, self.set) {
            (Some(query), set) => DealSource::Matching {
                query,
                set,
                limit: None,
            },
            (None, Some(name)) => DealSource::Set(name),
            (None, None) => DealSource::Store,
        })
    }
}

/// The boards of `obj`: a `Deals` batch with its board numbers and the tables it carries, or
/// a `Deal` or an iterable of them, numbered 1, 2, ….
fn boards_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Board>> {
    match obj.extract::<PyRef<'_, PyDeals>>() {
        Ok(d) => d.to_boards(),
        Err(_) => PyDeals::new(deals_arg(obj)?).to_boards(),
    }
}

/// `values` (row after row) as a numpy array of `rows` x `columns`.
fn matrix_of<'py, T: numpy::Element>(
    py: Python<'py>,
    values: Vec<T>,
    rows: usize,
    columns: usize,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_vec(py, values)
        .reshape([rows, columns])?
        .into_any())
}

/// An opening-lead problem, as `dealdex lead` solves it: every lead of the leader (declarer's
/// left-hand opponent) solved double dummy against `contract` (`"3NT"`, `"4SX"`) by
/// `declarer`, scored at `vul`, over a sample. The sample: `count` deals (1000 when `None`;
/// `deals=N` is the same) of `seed`'s stream dealt around the leader's `hand`
/// (`"AQ4.J.KJ6543.632"` or `"S:AQ4 H:J D:KJ6543 C:632"`), those `where` accepts (at most
/// `max_draws` drawn); or, with `hand=None`, a sample dealt earlier as every function takes
/// one ([`SampleArgs`]: `deals=` a `Deals`, `path=`, or `db=` with `set=`/`where=`), every
/// deal giving the leader the same hand. With `store` (a new set name) and `db` (created when
/// missing) the sample is stored as that set with every deal's per-card tricks, as `lead
/// --store` does; with `db`, leads stored there are read instead of solved. `threads`: the
/// solver's threads (all cores when `None`).
///
/// Returns a dict (Python wraps it as `LeadResult`): `cards` (the leader's 13, in suit order
/// from the highest), float64[13] `mean_tricks`, `tricks_se`, `defeat_percent`,
/// `mean_score`, `score_se`; int64[13, 14] `tricks` (deals on which the defence takes 0..13);
/// float64[13, 13] `a_better_percent`, `imps`, `imps_se`, `matchpoints` (row card against
/// column card); `sample` (the deals, a `Deals`) and int8[deals, 13] `deal_tricks` (the
/// defence's tricks on each deal after each card); `deals`, `drawn`, `seed`, `leader`,
/// `contract`, `solved`, `looked_up`, `stored`. The GIL is released while deals are drawn
/// and solved.
#[pyfunction]
#[pyo3(signature = (hand, contract, declarer, *, vul="None", deals=None, path=None, db=None, set=None, r#where=None, count=None, seed=None, max_draws=None, store=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn lead<'py>(
    py: Python<'py>,
    hand: Option<&str>,
    contract: &str,
    declarer: &Bound<'py, PyAny>,
    vul: &str,
    deals: Option<&Bound<'py, PyAny>>,
    path: Option<PathBuf>,
    db: Option<PathBuf>,
    set: Option<String>,
    r#where: Option<&str>,
    count: Option<&Bound<'py, PyAny>>,
    seed: Option<&str>,
    max_draws: Option<&Bound<'py, PyAny>>,
    store: Option<String>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    use dealdex::workflow::lead::{self as wf, LeadJob, LeadSample};
    if store.is_some() && db.is_none() {
        return Err(input_error("store= needs db=, the database to store in"));
    }
    let declarer = seat_arg(declarer)?;
    let contract = dealdex::Contract::from_pbn(contract, declarer).ok_or_else(|| {
        input_error(format!(
            "contract={contract:?}: not a contract (3NT, 4S, 5DX)"
        ))
    })?;
    // `deals=N` is the count, as it always was; `deals=` a batch is the sample.
    let (count, deals) = match deals {
        Some(d) if d.extract::<u64>().is_ok() || d.extract::<i64>().is_ok() => {
            (Some(uint_arg(d, "deals")?), None)
        }
        d => (opt_uint_arg(count, "count")?, d),
    };
    let max_draws = opt_uint_arg(max_draws, "max_draws")?;
    let pool = pool(threads_arg(threads)?)?;
    let sample = match hand {
        Some(hand) => {
            if deals.is_some() || path.is_some() || set.is_some() {
                return Err(input_error(
                    "lead: a hand is dealt around (count=); deals=, path= and set= are samples dealt earlier: give hand=None with them",
                ));
            }
            LeadSample::Dealt {
                hand: hand
                    .parse()
                    .map_err(|e| input_error(format!("hand={hand:?}: {e}")))?,
                seed: seed_arg(seed)?,
                deals: count.unwrap_or(1000),
                filter: r#where.map(Query::parse).transpose().map_err(err)?,
                // As generate's and `--max-draws`: 10⁹ when left out, 0 no bound.
                max_draws: dealdex::workflow::generate::max_draws(max_draws),
            }
        }
        None if count.is_some() => {
            return Err(input_error(
                "lead: count= deals around the leader's hand: give the hand",
            ));
        }
        None => LeadSample::Deals(
            SampleArgs {
                deals,
                path,
                db: db.as_ref(),
                set,
                r#where,
                count: None,
                seed: None,
                predeal: None,
                max_draws,
            }
            .source("lead")?,
        ),
    };
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let job = LeadJob {
        contract,
        vulnerability: vul.parse::<Vulnerability>().map_err(err)?,
        sample,
        store,
        stop: Some(stop.clone()),
    };
    // Ctrl-C stops the job between two batches of deals solved.
    let report = watched(
        py,
        || {
            in_pool(&pool, || match &db {
                Some(db) => {
                    let mut store = dealdex::Store::open(db)?;
                    wf::run_storing(&job, &mut store, &mut |_| {})
                }
                None => wf::run(&job, None, &mut |_| {}),
            })
        },
        || stop.store(true, std::sync::atomic::Ordering::Relaxed),
        || Ok(()),
    )?
    .map_err(err)?;
    lead_result(py, report)
}

/// The dict of a lead report ([`lead`]'s).
fn lead_result<'py>(
    py: Python<'py>,
    report: dealdex::workflow::lead::LeadReport,
) -> PyResult<Bound<'py, PyDict>> {
    use dealdex::workflow::lead as wf;
    let n = report.cards.len();
    let column =
        |f: &dyn Fn(&wf::LeadCard) -> f64| -> Vec<f64> { report.cards.iter().map(f).collect() };
    let d = PyDict::new(py);
    let cards: Vec<String> = report.cards.iter().map(|c| c.card.to_string()).collect();
    d.set_item("cards", cards)?;
    d.set_item(
        "mean_tricks",
        PyArray1::from_vec(py, column(&|c| c.mean_tricks)),
    )?;
    d.set_item(
        "tricks_se",
        PyArray1::from_vec(py, column(&|c| c.tricks_se)),
    )?;
    d.set_item(
        "defeat_percent",
        PyArray1::from_vec(py, column(&|c| c.defeat_percent)),
    )?;
    d.set_item(
        "mean_score",
        PyArray1::from_vec(py, column(&|c| c.mean_score)),
    )?;
    d.set_item("score_se", PyArray1::from_vec(py, column(&|c| c.score_se)))?;
    let distribution: Vec<i64> = report
        .cards
        .iter()
        .flat_map(|c| c.tricks.map(|t| t as i64))
        .collect();
    d.set_item("tricks", matrix_of(py, distribution, n, 14)?)?;
    // The pairs come in row order without the diagonal: a 13 x 13 matrix each.
    let matrix = |f: &dyn Fn(&wf::LeadPair) -> f64, diagonal: f64| -> PyResult<Bound<'py, PyAny>> {
        let mut m = vec![diagonal; n * n];
        for (k, p) in report.pairs.iter().enumerate() {
            let (i, j) = (k / (n - 1), k % (n - 1));
            let j = if j >= i { j + 1 } else { j };
            m[i * n + j] = f(p);
        }
        matrix_of(py, m, n, n)
    };
    d.set_item("a_better_percent", matrix(&|p| p.a_better_percent, 0.0)?)?;
    d.set_item("imps", matrix(&|p| p.imps, 0.0)?)?;
    d.set_item("imps_se", matrix(&|p| p.imps_se, 0.0)?)?;
    d.set_item("matchpoints", matrix(&|p| p.matchpoints, 0.5)?)?;
    let per_deal: Vec<i8> = report
        .deal_tricks
        .iter()
        .flat_map(|row| row[..n].iter().map(|&t| t as i8))
        .collect();
    d.set_item(
        "deal_tricks",
        matrix_of(py, per_deal, report.deal_tricks.len(), n)?,
    )?;
    let keys = report.sample.iter().map(DealIndex::from_deal).collect();
    d.set_item("sample", PyDeals::new(keys))?;
    d.set_item("deals", report.deals)?;
    d.set_item("drawn", report.drawn)?;
    d.set_item("seed", report.seed)?;
    d.set_item("leader", report.leader.to_string())?;
    d.set_item("contract", report.contract)?;
    d.set_item("solved", report.solved)?;
    d.set_item("looked_up", report.looked_up)?;
    match &report.stored {
        Some(s) => {
            let stored = PyDict::new(py);
            stored.set_item("set", &s.set)?;
            stored.set_item("boards", s.boards)?;
            stored.set_item("new_deals", s.new_deals)?;
            stored.set_item("new_leads", s.new_leads)?;
            d.set_item("stored", stored)?;
        }
        None => d.set_item("stored", py.None())?,
    }
    Ok(d)
}

/// Contract choice, as `dealdex contracts` gives it: `contracts` (`["3NT:S", "4H:S"]`: level,
/// strain, `X`/`XX`, then the declarer) played double dummy on a sample, taken as every
/// function takes one ([`SampleArgs`]): `deals=` (a `Deals` batch), `path=` (a deal file, a
/// GIB or RP library too), `count=` deals dealt now (`seed`, `predeal`, `where`,
/// `max_draws`), or the deals stored in `db` (its set `set`, those `where` matches). Tables:
/// the sample's own or the stored ones, the deals without one solved (on `threads` threads,
/// all cores when `None`). Each deal is scored at its board's vulnerability or at `vul`.
///
/// Returns a dict (Python wraps it as `ContractsResult`): `contracts` (the names),
/// float64[k] `make_percent`, `mean_score`, `score_se` (the declaring side's score),
/// int64[k, 14] `tricks` (deals on which declarer takes 0..13 tricks), the float64[k, k]
/// `imps`, `imps_se`, `matchpoints` of row against column (the declaring side's view,
/// North-South's between contracts of different sides); `sample` (the deals, a `Deals`) and
/// int8[deals, k] `deal_tricks` (declarer's tricks on each deal in each contract); `deals`,
/// `solved`, and for a dealt sample `seed` and `drawn`. The GIL is released while deals are
/// read and solved.
#[pyfunction]
#[pyo3(signature = (contracts, *, vul=None, deals=None, path=None, db=None, set=None, r#where=None, count=None, seed=None, predeal=None, max_draws=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn contracts<'py>(
    py: Python<'py>,
    contracts: Vec<String>,
    vul: Option<&str>,
    deals: Option<&Bound<'py, PyAny>>,
    path: Option<PathBuf>,
    db: Option<PathBuf>,
    set: Option<String>,
    r#where: Option<&str>,
    count: Option<&Bound<'py, PyAny>>,
    seed: Option<&str>,
    predeal: Option<&str>,
    max_draws: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    use dealdex::workflow::contracts::{self as wf, ContractsJob, Vulnerable};
    let pool = pool(threads_arg(threads)?)?;
    let source = SampleArgs {
        deals,
        path,
        db: db.as_ref(),
        set,
        r#where,
        // A negative count or bound is an InputError naming the argument.
        count: opt_uint_arg(count, "count")?,
        seed,
        predeal,
        max_draws: opt_uint_arg(max_draws, "max_draws")?,
    }
    .source("contracts")?;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let job = ContractsJob {
        source,
        contracts: contracts
            .iter()
            .map(|c| c.parse::<dealdex::Contract>())
            .collect::<Result<_, _>>()
            .map_err(err)?,
        vulnerable: match vul {
            Some(v) => Vulnerable::Forced(v.parse::<Vulnerability>().map_err(err)?),
            None => Vulnerable::Board,
        },
        stop: Some(stop.clone()),
        keep_deals: true,
    };
    // Without `db` nothing is read from a database (stored deals need one).
    // Ctrl-C stops the job before the next piece of deals.
    let report = watched(
        py,
        || {
            in_pool(&pool, || match &db {
                Some(db) => wf::run_in(&job, db, &mut |_| {}),
                None => wf::run(&job, None, &mut |_| {}),
            })
        },
        || stop.store(true, std::sync::atomic::Ordering::Relaxed),
        || Ok(()),
    )?
    .map_err(err)?;
    contracts_result(py, report)
}

/// The dict of a contracts report ([`contracts`]'s).
fn contracts_result<'py>(
    py: Python<'py>,
    report: dealdex::workflow::contracts::ContractsReport,
) -> PyResult<Bound<'py, PyDict>> {
    use dealdex::stats::Estimate;
    use dealdex::workflow::contracts as wf;
    let mean = |e: &Estimate| e.mean.unwrap_or(f64::NAN);
    let k = report.contracts.len();
    let d = PyDict::new(py);
    let column = |f: &dyn Fn(&wf::ContractResult) -> f64| -> Vec<f64> {
        report.contracts.iter().map(f).collect()
    };
    let names: Vec<String> = report
        .contracts
        .iter()
        .map(|c| c.contract.clone())
        .collect();
    d.set_item("contracts", names)?;
    d.set_item(
        "make_percent",
        PyArray1::from_vec(py, column(&|c| c.make_percent)),
    )?;
    d.set_item(
        "mean_score",
        PyArray1::from_vec(py, column(&|c| mean(&c.score))),
    )?;
    d.set_item(
        "score_se",
        PyArray1::from_vec(py, column(&|c| c.score.standard_error.unwrap_or(f64::NAN))),
    )?;
    let tricks: Vec<i64> = report
        .contracts
        .iter()
        .flat_map(|c| c.tricks.map(|t| t as i64))
        .collect();
    d.set_item("tricks", matrix_of(py, tricks, k, 14)?)?;
    let matrix = |m: &[Vec<Estimate>], f: &dyn Fn(&Estimate) -> f64| {
        let flat: Vec<f64> = m.iter().flat_map(|row| row.iter().map(f)).collect();
        matrix_of(py, flat, k, k)
    };
    d.set_item("imps", matrix(&report.imps, &mean)?)?;
    d.set_item(
        "imps_se",
        matrix(&report.imps, &|e| e.standard_error.unwrap_or(f64::NAN))?,
    )?;
    d.set_item("matchpoints", matrix(&report.matchpoints, &mean)?)?;
    let per_deal: Vec<i8> = report.deal_tricks.iter().map(|&t| t as i8).collect();
    d.set_item(
        "deal_tricks",
        matrix_of(py, per_deal, report.sample.len(), k)?,
    )?;
    let keys = report.sample.iter().map(DealIndex::from_deal).collect();
    d.set_item("sample", PyDeals::new(keys))?;
    d.set_item("deals", report.deals)?;
    d.set_item("solved", report.solved)?;
    d.set_item("seed", report.seed)?;
    d.set_item("drawn", report.drawn)?;
    Ok(d)
}

// ---------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------

/// The deals of the file `path` as a `Deals` batch with their board numbers, dealers and
/// vulnerabilities; the batch keeps the rest of each board (tags, auction, play, a DD table)
/// for `write`, so `write(read(a), b)` writes what `dealdex convert a b` does. `format`: a format's name (`formats()` lists them), else the one the
/// extension names, else the one the content shows. `first_board`: the first board of the
/// formats without numbers. Raises `FormatError` with `path`, `line`, `column` (or `byte`,
/// `record` for binary formats). The GIL is released while the file is read.
#[pyfunction]
#[pyo3(signature = (path, format=None, *, first_board=None))]
fn read(
    py: Python<'_>,
    path: PathBuf,
    format: Option<&str>,
    first_board: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDeals> {
    let first_board = opt_uint_arg(first_board, "first_board")?;
    use dealdex::workflow::pipeline::{DealSource, ReadAs};
    let read = ReadAs::named(format, first_board).map_err(err)?;
    let source = DealSource::file_or_stored(Some(path), read, None);
    let (boards, _) = py
        .detach(|| source.open(None, &Default::default())?.read_all())
        .map_err(err)?;
    Ok(PyDeals::from_boards(&boards))
}

/// Writes `deals` (a `Deals`, `Deal`s) to `path` in `format` (default: the extension's), with
/// their board numbers, dealers and vulnerabilities (boards 1, 2, … for a batch without).
/// `event`: the event name of the formats that carry one. The file is replaced whole: written
/// beside it and renamed when complete, so a failed write leaves an old file as it was. Raises
/// `FormatError` for boards the format cannot hold (`format_kind == "unwritable"`),
/// `DealdexIOError` when the file cannot be written.
#[pyfunction]
#[pyo3(signature = (deals, path, format=None, *, event=None))]
fn write(
    py: Python<'_>,
    deals: &Bound<'_, PyAny>,
    path: PathBuf,
    format: Option<&str>,
    event: Option<String>,
) -> PyResult<()> {
    let boards = boards_arg(deals)?;
    let fmt = formats::choose(&path, format).map_err(err)?;
    let opts = WriteOptions {
        event: event.unwrap_or_default(),
        ..WriteOptions::default()
    };
    // Through the pipeline's sink: written to a temporary file renamed onto `path` when
    // whole (a failed write leaves an old file as it was), a set's bounds from its boards.
    use dealdex::ErrorKind;
    use dealdex::workflow::pipeline::{DealFiles, DealSink};
    let sink = DealFiles::new(
        vec![dealdex::workflow::output::Output {
            path: Some(path.clone()),
            format: fmt,
        }],
        opts,
    );
    py.detach(|| {
        let mut stdout = std::io::sink();
        let written = sink.open(&mut stdout).and_then(|mut open| {
            open.write(boards)?;
            open.finish()
        });
        written.map(drop).map_err(|e| match e.kind() {
            ErrorKind::Write { .. } => error_about(&e, Some(&path), None),
            _ => match e.into_kind() {
                ErrorKind::Render { error, .. } => err(error),
                ErrorKind::Store(e) => err(e),
                kind => err(dealdex::Error::from(kind)),
            },
        })
    })
}

/// The batches `batches` (an iterable of `Deals`) one after the other, as `+` does: board
/// numbers, dealers and vulnerabilities are kept (a batch without gets boards 1, 2, …, as
/// `write` would number it), and so are DD tables and the rest of a file's boards.
#[pyfunction]
fn concat(batches: &Bound<'_, PyAny>) -> PyResult<PyDeals> {
    let mut parts = Vec::new();
    let items = batches
        .try_iter()
        .map_err(|_| input_type_error("concat: expected an iterable of Deals"))?;
    for item in items {
        let item = item?;
        let d = item.cast::<PyDeals>().map_err(|_| {
            input_type_error(format!(
                "concat: expected Deals items, got {}",
                item.get_type()
            ))
        })?;
        parts.push(d.clone().unbind());
    }
    let refs: Vec<&PyDeals> = parts.iter().map(|p| p.get()).collect();
    Ok(PyDeals::concat_of(&refs))
}

/// The formats dealdex reads and writes: a list of `(name, extensions)`.
#[pyfunction]
fn formats_list() -> Vec<(String, Vec<String>)> {
    formats::registry()
        .iter()
        .map(|f| {
            let i = f.info();
            (
                i.name.to_owned(),
                i.extensions.iter().map(|e| (*e).to_owned()).collect(),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// The module
// ---------------------------------------------------------------------------------------

/// dealdex's Rust core; use the package `dealdex`, which re-exports it.
#[pymodule]
fn _dealdex(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // DDS itself, in a package built with the `dds` feature.
    #[cfg(feature = "dds")]
    dealdex_dds::install();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SOLVER", dd::Solver::current().name())?;
    m.add("DEALS_TOTAL", dealdex::DEALS)?;
    m.add_class::<PyDeal>()?;
    m.add_class::<PyDeals>()?;
    m.add_class::<DealsIter>()?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(generate_boards, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(select_solver, m)?)?;
    m.add_function(wrap_pyfunction!(par, m)?)?;
    m.add_function(wrap_pyfunction!(lead, m)?)?;
    m.add_function(wrap_pyfunction!(contracts, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(write, m)?)?;
    m.add_function(wrap_pyfunction!(formats_list, m)?)?;
    m.add_function(wrap_pyfunction!(concat, m)?)?;
    database::register(m)?;
    Ok(())
}
