//! Where a command's deals come from: a [`DealSource`] (a deal file or standard input with
//! its format, a stored set, the whole store, a generated stream) is opened once
//! ([`DealSource::open`]: the file opened, its format told from its first bytes, the set
//! found) and then read a bounded piece of boards at a time ([`OpenSource::read`]), whatever
//! its size. A generated stream makes its pieces on every core; [`OpenSource::read_with`]
//! lets the step's own work on a piece run there too.
//!
//! ```
//! use dealdex::workflow::pipeline::{DealSource, SourceOptions};
//! use dealdex::{DealIndex, NewSet, Seed, Store};
//!
//! let seed: Seed = "42".repeat(32).parse()?;
//! let keys: Vec<(u64, DealIndex)> =
//!     (11..=20).map(|n| (n, DealIndex::from_deal(&seed.board_deal(n)))).collect();
//! let mut store = Store::open_in_memory()?;
//! let set = NewSet { name: "club".into(), first_board: 11, last_board: 20,
//!                    scheme: dealdex::Scheme::Pavlicek, generator: "doc".into(), seed_sha256: None };
//! store.store_set(&set, &keys)?;
//! let source = DealSource::Set("club".into()).open(Some(&store), &SourceOptions::default())?;
//! assert!(source.facts().numbered);
//! let (boards, read) = source.read_all()?;
//! assert_eq!((boards[0].number, read.boards), (Some(11), 10));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Read;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::dealer::Script;
use crate::formats::{self, Board, DealFormat, SkippedBoard};
use crate::generation::bigdeal::BigDealStream;
use crate::query::{Query, SqlFilter};
use crate::workflow::input::read_deal_pieces_until;
use crate::{
    CHUNK, Deal, DealIndex, DrawProgress, FormatError, FormatErrorKind, Predeal, Scheme, Seed,
    Store, StoreError, StoreErrorKind, StoreReader,
};
use crate::{Error, ErrorKind};

/// Boards a stored source hands over at a time (13 bytes a key read, a [`Board`] each
/// handed over: about 2 MB a piece).
pub const STORED_PIECE: usize = 1 << 14;

/// Bytes at the start of a file looked at to tell its format ([`formats::detect`]).
const HEAD_BYTES: u64 = 64 << 10;

/// The path that means standard input.
pub const STDIN: &str = "-";

/// Where deals come from.
#[derive(Clone, Debug)]
pub enum DealSource {
    /// A deal file, or standard input ([`STDIN`]).
    File(FileSource),
    /// The boards of a stored set, in board order, numbered as stored.
    Set(String),
    /// Every stored deal, in key order, without board numbers.
    Store,
    /// A generated stream: deals `first..` of a seed's numbered stream or of Big Deal's.
    Stream(StreamSource),
    /// The stored deals an expression of the query language matches (`dealdex query`):
    /// within a set, its boards in board order with their numbers; else every stored deal in
    /// key order, without numbers; at most `limit`.
    Matching {
        /// The expression.
        query: Query,
        /// Only the boards of this set.
        set: Option<String>,
        /// At most this many deals.
        limit: Option<u64>,
    },
    /// Boards a program holds in memory (Python's `Deals`, a caller's own deals), in order,
    /// numbered as they are (those without a number are counted on from the board before),
    /// with the tables they carry; shared, so the source is cheap to clone.
    Boards(std::sync::Arc<[Board]>),
    /// The deals a dealer script produces ([`ScriptSource`]), numbered 1, 2, … in the order
    /// produced.
    Script(Box<ScriptSource>),
}

/// The first `produce` deals a dealer script's condition accepts, drawn from the script's
/// simulation stream for `seed` (dealt around its predeal and suit lengths; the stream
/// `dealdex dealer -s SEED` runs over, [`crate::dealer::seed_of`]): `dealdex dealer` run as a
/// source, its actions not run. Fewer than `produce` within `generate` draws is
/// [`ErrorKind::TooFewMatches`].
#[derive(Clone, Debug)]
pub struct ScriptSource {
    /// The script.
    pub script: Script,
    /// Dealer's seed number, resolved ([`ScriptSource::new`]).
    pub seed: u64,
    /// The deals wanted (≥ 1).
    pub produce: u64,
    /// At most this many deals drawn; `None`: the script's `generate`, else dealer's
    /// 10,000,000.
    pub generate: Option<u64>,
}

impl ScriptSource {
    /// The source of `script`'s first `produce` deals; `seed` `None` takes the script's own
    /// `seed N` statement, else one drawn from the operating system
    /// ([`crate::dealer::run_seed`]), so that the source is the same deals each time it is
    /// read and its seed can be reported.
    ///
    /// # Errors
    /// [`ErrorKind::Script`] when the operating system's random source fails.
    pub fn new(
        script: Script,
        seed: Option<u64>,
        produce: u64,
        generate: Option<u64>,
    ) -> Result<ScriptSource, Error> {
        Ok(ScriptSource {
            seed: crate::dealer::run_seed(seed, &script).map_err(ErrorKind::Script)?,
            script,
            produce,
            generate,
        })
    }
}

/// Deals `first ..= first + count − 1` of a generated stream, numbered as their place in it
/// (board `n`'s dealer and vulnerability by its number), made in parallel pieces of
/// [`CHUNK`] deals.
#[derive(Clone)]
pub struct StreamSource {
    /// The stream.
    pub stream: DealStream,
    /// The first deal (1-based).
    pub first: u64,
    /// How many deals (≥ 1).
    pub count: u64,
    /// Fixed cards the seeded stream deals around ([`Seed::fill_predealt`]); Big Deal's
    /// stream has none.
    pub predeal: Option<Predeal>,
    /// Only the deals an expression accepts (the seeded stream only): then the source is
    /// the first `count` matching deals drawn from deal `first` on, numbered `first`,
    /// `first + 1`, … in the order drawn ([`crate::first_matching_within`], reproducible
    /// whatever the thread count).
    pub filter: Option<StreamFilter>,
}

/// Draws a filtered search makes between two looks at its caller's progress callback
/// ([`StreamSource::find`]): a stop is seen within one window (a fraction of a second for a
/// fast query); the deals found are the same as one search's.
const FIND_WINDOW: u64 = 1 << 22;

/// What a filtered stream found ([`StreamSource::find`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FoundDeals {
    /// The matching deals in stream order: all asked for, or fewer when the draw bound was
    /// reached or the search was stopped.
    pub deals: Vec<Deal>,
    /// Deals drawn to find them (up to the last match when all were found).
    pub drawn: u64,
    /// For a query with double-dummy or lead terms: the deals tested whose test solved a
    /// table (only those its cheaper conditions left undecided, those tested in parallel
    /// past the last match included); `None` otherwise.
    pub solved: Option<u64>,
    /// True when the progress callback stopped the search.
    pub stopped: bool,
}

impl StreamSource {
    /// The project's one filtered-stream search: the first `count` deals of the seeded
    /// stream from deal `first` on (around the predealt cards) that the filter's query
    /// accepts, drawing at most its `max_draws`, on every core and reproducibly
    /// ([`crate::first_matching_within`], in windows of draws that go on where the last one
    /// stopped). `progress` gets the deals drawn and matched so far once a chunk; when it
    /// returns false the search stops at the end of the window (`stopped`).
    ///
    /// ```
    /// use dealdex::query::Query;
    /// use dealdex::workflow::pipeline::{DealSource, StreamFilter};
    /// let filter = StreamFilter { query: Query::parse("hcp(N) >= 20")?, max_draws: None };
    /// let source = DealSource::dealt("11".repeat(32).parse()?, 3, None, Some(filter));
    /// let DealSource::Stream(stream) = source else { unreachable!() };
    /// let found = stream.find(&mut |_| true)?;
    /// assert_eq!(found.deals.len(), 3);
    /// let query = dealdex::query::Query::parse("hcp(N) >= 20")?;
    /// assert!(found.deals.iter().all(|d| query.matches(d)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::Filter`] for a stream without a filter or not seeded, or a query no
    /// deal can satisfy.
    pub fn find(
        &self,
        progress: &mut dyn FnMut(DrawProgress) -> bool,
    ) -> Result<FoundDeals, Error> {
        check_filter(self)?;
        let (DealStream::Seeded(seed), Some(filter)) = (&self.stream, &self.filter) else {
            return Err(ErrorKind::Filter {
                query: String::new(),
                reason: "only a filtered seeded stream is searched".into(),
            }
            .into());
        };
        let query = &filter.query;
        let max_draws = filter.max_draws.unwrap_or(u64::MAX);
        let solved = AtomicU64::new(0);
        let mut found = FoundDeals::default();
        let mut go_on = true;
        while (found.deals.len() as u64) < self.count && go_on {
            let window = FIND_WINDOW.min(max_draws - found.drawn);
            if window == 0 {
                break;
            }
            let (before, matched) = (found.drawn, found.deals.len() as u64);
            let part = crate::first_matching_within(
                seed,
                self.predeal.as_ref(),
                (self.first.saturating_add(found.drawn), self.count - matched),
                window,
                query.search_chunk(),
                |d| {
                    let (matches, dd) = query.matches_counting_solves(d);
                    if dd {
                        solved.fetch_add(1, Ordering::Relaxed);
                    }
                    matches
                },
                &mut |p| {
                    go_on &= progress(DrawProgress {
                        drawn: before + p.drawn,
                        matched: matched + p.matched,
                    });
                },
            );
            found.deals.extend(part.deals);
            found.drawn += part.drawn;
            // The stream ends before `window` deals: nothing more to draw.
            if part.drawn < window && (found.deals.len() as u64) < self.count {
                break;
            }
        }
        found.stopped = !go_on && (found.deals.len() as u64) < self.count;
        found.solved = (query.uses_dd() || query.uses_leads()).then(|| solved.into_inner());
        Ok(found)
    }
}

/// The constraint of a filtered [`StreamSource`].
#[derive(Clone, Debug)]
pub struct StreamFilter {
    /// The expression the deals must satisfy.
    pub query: Query,
    /// The most deals drawn to find them; `None`: no bound (a query no deal can satisfy is
    /// refused when the source opens).
    pub max_draws: Option<u64>,
}

/// A generated stream of deals.
#[derive(Clone)]
pub enum DealStream {
    /// A seed's numbered stream (FORMATS.md §3): deal `n` is the seed's board `n`, in the
    /// Pavlicek scheme.
    Seeded(Seed),
    /// Big Deal's stream (bigdealx's deals, SQUAREDEAL.md §1), in the Big Deal scheme.
    BigDeal(BigDealStream),
}

impl DealStream {
    /// The numbering scheme of the stream's deals.
    pub fn scheme(&self) -> Scheme {
        match self {
            DealStream::Seeded(_) => Scheme::Pavlicek,
            DealStream::BigDeal(_) => Scheme::BigDeal,
        }
    }
}

impl std::fmt::Debug for StreamSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The seed is secret: not shown.
        f.debug_struct("StreamSource")
            .field("scheme", &self.stream.scheme())
            .field("first", &self.first)
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

/// A deal file and how to read it.
#[derive(Clone, Debug)]
pub struct FileSource {
    /// The file; [`STDIN`] for standard input.
    pub path: PathBuf,
    /// The format to read it as; `None`: the one the extension selects, else the one its
    /// first 64 KiB show ([`formats::choose_by_name`], [`formats::choose_by_content`]).
    pub format: Option<&'static dyn DealFormat>,
    /// The number of the first board for the formats without board numbers (1-based;
    /// [`formats::ReadOptions::first_board`]).
    pub first_board: Option<u64>,
}

/// How deal files are read where neither their name nor their content says it all: the
/// format, and the first board of a format without board numbers. Every command that reads
/// deal files takes this one pair, resolved once where the format's name is given.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadAs {
    /// The format; `None`: the one the extension selects, else the one the first 64 KiB
    /// show ([`formats::choose_by_name`], [`formats::choose_by_content`]).
    pub format: Option<&'static dyn DealFormat>,
    /// The number of the first board for the formats without board numbers (1-based;
    /// [`formats::ReadOptions::first_board`]); `None`: 1, or what the file says (DUP's
    /// trailer).
    pub first_board: Option<u64>,
}

/// The same format (by name) and first board.
impl PartialEq for ReadAs {
    fn eq(&self, other: &ReadAs) -> bool {
        let name = |r: &ReadAs| r.format.map(|f| f.info().name);
        name(self) == name(other) && self.first_board == other.first_board
    }
}

impl Eq for ReadAs {}

impl ReadAs {
    /// The format named `format` (a registry name, [`formats::named`]) and `first_board`.
    ///
    /// ```
    /// use dealdex::workflow::pipeline::ReadAs;
    /// let read = ReadAs::named(Some("hex"), Some(5))?;
    /// assert_eq!(read.format.unwrap().info().name, "hex");
    /// assert!(ReadAs::named(Some("nope"), None).is_err());
    /// # Ok::<(), dealdex::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::Format`] ([`FormatErrorKind::UnknownName`]) for a name no format has.
    pub fn named(format: Option<&str>, first_board: Option<u64>) -> Result<ReadAs, Error> {
        Ok(ReadAs {
            format: format.map(formats::named).transpose()?,
            first_board,
        })
    }
}

/// How deal files are read, as typed (`--from NAME`, `--first-board N`): one declaration
/// for every command that reads deal files. With the `clap` feature it derives `clap::Args`;
/// [`ReadOptions::read_as`] resolves the format's name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct ReadOptions {
    /// The format's registry name; `None`: by the extension, else the content.
    #[cfg_attr(feature = "clap", arg(long = "from", alias = "input-format",
        value_name = "FORMAT", help = from_help()))]
    pub from: Option<String>,
    /// Number of the first board when a file carries no board numbers (default 1, or DUP's
    /// trailer; at most 2^63 - 1); Borel lines are turned by these boards' dealers, CDS
    /// board bytes counted from it.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N",
        value_parser = formats::parse_first_board))]
    pub first_board: Option<u64>,
}

/// `--from`'s help: the registry's formats.
#[cfg(feature = "clap")]
fn from_help() -> String {
    let names = formats::names();
    format!("Input format (default: from the file's extension, else its content): {names}")
}

impl ReadOptions {
    /// The format resolved by its name ([`ReadAs::named`]).
    ///
    /// # Errors
    /// [`ReadAs::named`]'s, for a name no format has.
    pub fn read_as(&self) -> Result<ReadAs, Error> {
        ReadAs::named(self.from.as_deref(), self.first_board)
    }

    /// The deals of `file` read as these options say, else of the stored set `set`, else
    /// every stored deal ([`DealSource::file_or_stored`]).
    ///
    /// # Errors
    /// [`ReadOptions::read_as`]'s.
    pub fn source(&self, file: Option<PathBuf>, set: Option<String>) -> Result<DealSource, Error> {
        Ok(DealSource::file_or_stored(file, self.read_as()?, set))
    }
}

impl FileSource {
    /// The file `path` (or [`STDIN`]) read as `read` says.
    pub fn new(path: PathBuf, read: ReadAs) -> FileSource {
        FileSource {
            path,
            format: read.format,
            first_board: read.first_board,
        }
    }
}

impl DealSource {
    /// The deals of `file` read as `read` says when a file is given, else those of the
    /// stored set `set`, else every stored deal.
    ///
    /// ```
    /// use dealdex::workflow::pipeline::{DealSource, ReadAs};
    /// let read = ReadAs::named(Some("hex"), Some(5))?;
    /// let s = DealSource::file_or_stored(Some("a.txt".into()), read, None);
    /// assert!(matches!(s, DealSource::File(f) if f.first_board == Some(5)));
    /// let all = DealSource::file_or_stored(None, ReadAs::default(), None);
    /// assert!(matches!(all, DealSource::Store));
    /// # Ok::<(), dealdex::Error>(())
    /// ```
    pub fn file_or_stored(file: Option<PathBuf>, read: ReadAs, set: Option<String>) -> DealSource {
        match (file, set) {
            (Some(path), _) => DealSource::File(FileSource::new(path, read)),
            (None, Some(name)) => DealSource::Set(name),
            (None, None) => DealSource::Store,
        }
    }

    /// A sample dealt now: the first `count` deals of `seed`'s numbered stream from deal 1,
    /// around `predeal`; with `filter`, the first `count` that its query accepts, numbered 1,
    /// 2, … in the order drawn. The deals `generate --count --predeal --where` deals with the
    /// same seed (what `lead` and `contracts --count` read).
    ///
    /// ```
    /// use dealdex::workflow::pipeline::{DealSource, SourceOptions};
    /// let seed: dealdex::Seed = "5a".repeat(32).parse()?;
    /// let (boards, _) = DealSource::dealt(seed, 3, None, None)
    ///     .open(None, &SourceOptions::default())?
    ///     .read_all()?;
    /// assert_eq!(boards.len(), 3);
    /// assert_eq!(boards[0].deal, seed.board_deal(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dealt(
        seed: Seed,
        count: u64,
        predeal: Option<Predeal>,
        filter: Option<StreamFilter>,
    ) -> DealSource {
        DealSource::Stream(StreamSource {
            stream: DealStream::Seeded(seed),
            first: 1,
            count,
            predeal,
            filter,
        })
    }

    /// A deal file read through the format its extension selects or its content shows.
    pub fn file(path: impl Into<PathBuf>) -> DealSource {
        DealSource::File(FileSource {
            path: path.into(),
            format: None,
            first_board: None,
        })
    }

    /// True for the sources read from a store (a set, the whole store).
    pub fn is_stored(&self) -> bool {
        matches!(
            self,
            DealSource::Set(_) | DealSource::Store | DealSource::Matching { .. }
        )
    }

    /// Opens the source, checking what can be checked before reading: the file opens and
    /// its format is told (the file is opened once: the bytes looked at to tell the format
    /// are read again from memory), the store is given and holds the set. `store` is the
    /// database the stored sources read and the file's boards take their stored tables from
    /// ([`SourceOptions::tables`]).
    ///
    /// # Errors
    /// [`Error`]: the file cannot be opened or read, its format is not told, there is
    /// no store for a stored source, no such set, the store fails.
    pub fn open<'a>(
        &self,
        store: Option<&'a StoreReader>,
        opts: &SourceOptions,
    ) -> Result<OpenSource<&'a StoreReader>, Error> {
        self.open_on(store, opts)
    }

    /// [`DealSource::open`] on a connection of its own to the database `db` (opened with
    /// [`Store::open_existing`]), for a source read on another thread.
    ///
    /// # Errors
    /// As [`DealSource::open`]; the database missing or not one.
    pub fn open_owned(
        &self,
        db: Option<&Path>,
        opts: &SourceOptions,
    ) -> Result<OpenSource<Store>, Error> {
        let needed = self.is_stored() || opts.tables;
        let conn = match db {
            Some(db) if needed => Some(Store::open_existing(db)?),
            _ => None,
        };
        self.open_on(conn, opts)
    }

    /// [`DealSource::open`] on the connection `conn`, the caller's or the source's own.
    fn open_on<R: Deref<Target = StoreReader>>(
        &self,
        conn: Option<R>,
        opts: &SourceOptions,
    ) -> Result<OpenSource<R>, Error> {
        let tables = opts.tables;
        match self {
            DealSource::File(file) => open_file(file, conn.filter(|_| tables), opts.hash),
            DealSource::Set(name) => open_stored(conn, Some(name), None, tables),
            DealSource::Store => open_stored(conn, None, None, tables),
            DealSource::Matching { query, set, limit } => {
                open_stored(conn, set.as_ref(), Some((query.to_sql(), *limit)), tables)
            }
            DealSource::Script(script) => Ok(OpenSource {
                facts: SourceFacts {
                    name: format!("the dealer script's deals (seed {})", script.seed),
                    format: None,
                    numbered: true,
                    first_board_assumed: false,
                    set: None,
                },
                inner: Inner::Script(script.clone()),
            }),
            DealSource::Boards(boards) => Ok(OpenSource {
                facts: SourceFacts {
                    name: BOARDS_NAME.into(),
                    format: None,
                    numbered: boards.iter().all(|b| b.number.is_some()),
                    first_board_assumed: false,
                    set: None,
                },
                inner: Inner::Boards(boards.clone()),
            }),
            DealSource::Stream(stream) => {
                check_filter(stream)?;
                Ok(OpenSource {
                    facts: SourceFacts {
                        name: match stream.stream {
                            DealStream::Seeded(_) => "the seeded stream".into(),
                            DealStream::BigDeal(_) => "Big Deal's stream".into(),
                        },
                        format: None,
                        numbered: true,
                        first_board_assumed: false,
                        set: None,
                    },
                    inner: Inner::Stream(Box::new(stream.clone())),
                })
            }
        }
    }
}

/// Refuses a filter on Big Deal's stream, and one no deal can satisfy (with the stream's
/// predealt cards): drawing for it would never end.
fn check_filter(stream: &StreamSource) -> Result<(), Error> {
    let Some(filter) = &stream.filter else {
        return Ok(());
    };
    let refuse = |reason: String| -> Error {
        ErrorKind::Filter {
            query: filter.query.to_string(),
            reason,
        }
        .into()
    };
    if let DealStream::BigDeal(_) = stream.stream {
        return Err(refuse(
            "Big Deal's stream cannot be filtered (a seeded stream can)".into(),
        ));
    }
    let fixed = stream
        .predeal
        .as_ref()
        .map_or([crate::Hand::EMPTY; 4], |p| p.fixed());
    match filter.query.never_matches_given(&fixed) {
        Some(e) => Err(refuse(e.to_string())),
        None => Ok(()),
    }
}

/// Opens stored deals on `conn`: the set `set` (in board order, numbered as stored), else
/// every stored deal (key order, no numbers); with `matching`, only those its SQL accepts, at
/// most its limit.
///
/// # Errors
/// [`ErrorKind::NoStore`] without a connection, [`ErrorKind::NoSet`] for a set not stored,
/// the store's error.
fn open_stored<R: Deref<Target = StoreReader>>(
    conn: Option<R>,
    set: Option<&String>,
    matching: Option<(SqlFilter, Option<u64>)>,
    tables: bool,
) -> Result<OpenSource<R>, Error> {
    let conn = conn.ok_or(ErrorKind::NoStore)?;
    let info = match set {
        Some(name) => Some(conn.set(name)?.ok_or_else(|| ErrorKind::NoSet {
            set: name.clone(),
            database: conn.path().to_owned(),
        })?),
        None => None,
    };
    let facts = SourceFacts {
        name: match (set, &matching) {
            (Some(name), None) => format!("set {name:?} of {}", conn.path()),
            _ => conn.path().to_owned(),
        },
        format: None,
        numbered: set.is_some(),
        first_board_assumed: false,
        set: info,
    };
    Ok(OpenSource {
        facts,
        inner: Inner::Stored {
            conn,
            set: set.cloned(),
            matching,
            tables,
        },
    })
}

/// Opens a deal file (or standard input) once: the format named, else the extension's,
/// else the one its first [`HEAD_BYTES`] show, those bytes then read again from memory.
/// With `hash`, its bytes are hashed as they are read.
fn open_file<R>(file: &FileSource, tables: Option<R>, hash: bool) -> Result<OpenSource<R>, Error> {
    let path = &file.path;
    if let Some(first) = file.first_board {
        formats::check_first_board(first)
            .map_err(|reason| ErrorKind::FirstBoard { first, reason })?;
    }
    let stdin = path.as_os_str() == STDIN;
    let (input, format) = open_deal_file(path, file.format)?;
    let info = format.info();
    let facts = SourceFacts {
        name: match stdin {
            true => STDIN_NAME.to_owned(),
            false => path.display().to_string(),
        },
        format: Some(info.name),
        numbered: info.board_numbers,
        first_board_assumed: !info.board_numbers && file.first_board.is_none(),
        set: None,
    };
    Ok(OpenSource {
        facts,
        inner: Inner::File {
            input: HashingRead {
                input,
                hasher: hash.then(Sha256::new),
            },
            path: match stdin {
                true => PathBuf::from(STDIN_NAME),
                false => path.clone(),
            },
            format,
            first_board: file.first_board,
            tables,
        },
    })
}

/// Opens the deal file `path` ([`STDIN`]: standard input) once, with its format: `format`,
/// else the one its extension selects, else the one its first 64 KiB show (those bytes then
/// read again from memory, not from the file).
///
/// # Errors
/// [`ErrorKind::Read`] when the file cannot be opened or read, [`ErrorKind::Format`] when
/// neither its extension nor its content tells its format (a file that is not there, of an
/// extension no format has, is taken for no deal file at all:
/// [`FormatErrorKind::UnknownExtension`]).
fn open_deal_file(
    path: &Path,
    format: Option<&'static dyn DealFormat>,
) -> Result<(Box<dyn Read + Send>, &'static dyn DealFormat), Error> {
    let stdin = path.as_os_str() == STDIN;
    // How errors name the input.
    let shown = match stdin {
        true => Path::new(STDIN_NAME),
        false => path,
    };
    let io = |error| ErrorKind::Read {
        path: shown.to_owned(),
        error,
    };
    let named = match format {
        Some(f) => Some(f),
        None => formats::choose_by_name(path, None)?,
    };
    let mut input: Box<dyn Read + Send> = match stdin {
        true => Box::new(std::io::stdin()),
        false => match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(_) if named.is_none() && formats::by_path(path).is_none() => {
                let kind = FormatErrorKind::UnknownExtension {
                    path: path.to_owned(),
                };
                return Err(FormatError::from(kind).into());
            }
            Err(error) => return Err(io(error).into()),
        },
    };
    let format = match named {
        Some(f) => f,
        None => {
            let mut head = Vec::new();
            (&mut input)
                .take(HEAD_BYTES)
                .read_to_end(&mut head)
                .map_err(io)?;
            let format = formats::choose_by_content(shown, &head)?;
            input = Box::new(std::io::Cursor::new(head).chain(input));
            format
        }
    };
    Ok((input, format))
}

/// A file's reader, hashing (SHA-256) the bytes it passes on when asked.
struct HashingRead {
    input: Box<dyn Read + Send>,
    hasher: Option<Sha256>,
}

impl Read for HashingRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.input.read(buf)?;
        if let Some(h) = &mut self.hasher {
            h.update(&buf[..n]);
        }
        Ok(n)
    }
}

/// How standard input is named in errors and reports.
const STDIN_NAME: &str = "<stdin>";

/// How to read a source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceOptions {
    /// Give each board the double-dummy table stored for its deal when it has none (the
    /// file gives none): a stored source's tables, a file's from the store it was opened
    /// with (if any).
    pub tables: bool,
    /// Hash a file's bytes as they are read ([`SourceRead::sha256`]): `import` records
    /// which file gave the tables it stores.
    pub hash: bool,
}

impl SourceOptions {
    /// Every board with its stored table ([`SourceOptions::tables`]), nothing hashed: what
    /// `export`, `records` and `contracts` read.
    pub const WITH_TABLES: SourceOptions = SourceOptions {
        tables: true,
        hash: false,
    };
}

/// What a source says about its boards before they are read; serde for reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceFacts {
    /// The file (`<stdin>` for standard input), `set "NAME" of DB`, or the database.
    pub name: String,
    /// The format a file is read as (registry name); `None` for a store.
    pub format: Option<&'static str>,
    /// True when the boards carry their own numbers (a stored set, a format whose records
    /// number their boards); false when they are counted from the first board (files of
    /// the other formats) or have none (the whole store).
    pub numbered: bool,
    /// True for a file of a format without board numbers read without a first board: its
    /// boards are counted from 1, and their dealers and vulnerabilities follow from that
    /// guess.
    pub first_board_assumed: bool,
    /// A stored set's row (its name is the event, its range the set's first and last
    /// boards, which may hold boards without a deal); `None` for other sources.
    #[serde(skip)]
    pub set: Option<crate::SetInfo>,
}

/// What reading a deal file left out: its boards without a complete deal and what its
/// reader ignored. The same in every report of a job that reads files (its JSON fields
/// `skipped` and `warnings`, where the report has them: the field is flattened).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReadNotes {
    /// A file's boards without a complete deal, not handed over.
    pub skipped: Vec<SkippedBoard>,
    /// What a file's reader ignored, each naming its line.
    pub warnings: Vec<String>,
}

impl ReadNotes {
    /// The notes of the deal file `name` as lines: `NAME: N boards skipped (…)` when boards
    /// were skipped ([`skipped_summary`](crate::workflow::input::skipped_summary)), then
    /// `NAME: warning: …` per reader warning.
    pub fn lines(&self, name: &dyn std::fmt::Display) -> Vec<String> {
        let summary = crate::workflow::input::skipped_summary;
        let skipped =
            (!self.skipped.is_empty()).then(|| format!("{name}: {}", summary(&self.skipped)));
        (skipped.into_iter())
            .chain(
                self.warnings
                    .iter()
                    .map(|w| format!("{name}: warning: {w}")),
            )
            .collect()
    }
}

/// What reading a source found besides its boards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourceRead {
    /// Boards handed over.
    pub boards: u64,
    /// A file's skipped boards and warnings.
    #[serde(flatten)]
    pub notes: ReadNotes,
    /// A file's records kept with what is consistent in them ([`formats::Inconsistency`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inconsistencies: Vec<formats::Inconsistency>,
    /// False when the consumer stopped the read before the source's end.
    pub complete: bool,
    /// A filtered stream's deals drawn to find its deals ([`StreamSource::filter`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawn: Option<u64>,
    /// The SHA-256 of a file's bytes (32 bytes), with [`SourceOptions::hash`] and the file
    /// read to its end; `None` otherwise.
    #[serde(skip)]
    pub sha256: Option<[u8; 32]>,
}

/// A source opened: its facts known, its boards still to read. `R` is the store connection
/// it reads: the caller's (`&StoreReader`, [`DealSource::open`]) or its own ([`Store`],
/// [`DealSource::open_owned`]: a source that can be read on another thread).
pub struct OpenSource<R> {
    facts: SourceFacts,
    inner: Inner<R>,
}

/// What an [`OpenSource`] reads.
enum Inner<R> {
    File {
        input: HashingRead,
        path: PathBuf,
        format: &'static dyn DealFormat,
        first_board: Option<u64>,
        tables: Option<R>,
    },
    Stored {
        conn: R,
        set: Option<String>,
        /// The expression's SQL and the limit of a [`DealSource::Matching`].
        matching: Option<(SqlFilter, Option<u64>)>,
        tables: bool,
    },
    Stream(Box<StreamSource>),
    Boards(std::sync::Arc<[Board]>),
    Script(Box<ScriptSource>),
}

/// How messages name boards given in memory ([`DealSource::Boards`]).
const BOARDS_NAME: &str = "the deals given";

impl<R> std::fmt::Debug for OpenSource<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenSource")
            .field("facts", &self.facts)
            .finish_non_exhaustive()
    }
}

impl<R: Deref<Target = StoreReader>> OpenSource<R> {
    /// What the source says about its boards.
    pub fn facts(&self) -> &SourceFacts {
        &self.facts
    }

    /// The format a file is read as; `None` for a store.
    pub fn format(&self) -> Option<&'static dyn DealFormat> {
        match &self.inner {
            Inner::File { format, .. } => Some(*format),
            Inner::Stored { .. } | Inner::Stream(_) | Inner::Boards(_) | Inner::Script(_) => None,
        }
    }

    /// Reads the boards a piece at a time (a file's pieces as [`formats::stream`] cuts them,
    /// a store's [`STORED_PIECE`] boards), handing each to `on_piece`, which returns whether
    /// to go on: memory stays that of a piece whatever the source's size. A file's boards
    /// are numbered as `read_deal_pieces_until` numbers them; a set's carry their stored
    /// numbers; the whole store's none.
    ///
    /// # Errors
    /// [`Error`] (through `E`): the file cannot be read or its format refuses it (an
    /// error past where the consumer stopped goes unseen), it holds no board, the store
    /// fails or holds a key that is no deal; `on_piece`'s own error, as it is.
    pub fn read<E: From<Error>>(
        self,
        on_piece: &mut dyn FnMut(Vec<Board>) -> Result<bool, E>,
    ) -> Result<SourceRead, E> {
        match self.inner {
            Inner::File {
                mut input,
                path,
                format,
                first_board,
                tables,
            } => {
                let mut failed = None;
                let mut complete = true;
                let mut boards = 0u64;
                let read = read_deal_pieces_until(
                    &mut input,
                    &path,
                    format,
                    first_board,
                    &mut |mut piece| {
                        boards += piece.len() as u64;
                        let go_on = fill_tables(tables.as_deref(), &mut piece)
                            .map_err(E::from)
                            .and_then(|()| on_piece(piece));
                        match go_on {
                            Ok(true) => true,
                            Ok(false) => {
                                complete = false;
                                false
                            }
                            Err(e) => {
                                failed = Some(e);
                                false
                            }
                        }
                    },
                );
                if let Some(e) = failed {
                    return Err(e);
                }
                let read = read.map_err(|e| E::from(e))?;
                Ok(SourceRead {
                    boards,
                    notes: ReadNotes {
                        skipped: read.skipped,
                        warnings: read.warnings,
                    },
                    inconsistencies: read.inconsistencies,
                    complete,
                    drawn: None,
                    sha256: input
                        .hasher
                        .filter(|_| complete)
                        .map(|h| h.finalize().into()),
                })
            }
            Inner::Stored {
                conn,
                set,
                matching,
                tables,
            } => read_stored(&conn, set.as_deref(), matching.as_ref(), tables, on_piece),
            Inner::Stream(stream) => read_stream(&stream, &|boards| boards, on_piece),
            Inner::Script(script) => read_script(&script, on_piece),
            Inner::Boards(boards) => {
                let mut outcome = Ok(());
                let mut next = 1u64;
                for piece in boards.chunks(CHUNK) {
                    let mut piece = piece.to_vec();
                    formats::number_boards(&mut piece, next);
                    next = piece.last().and_then(|b| b.number).map_or(next, |n| n + 1);
                    match on_piece(piece) {
                        Ok(true) => {}
                        Ok(false) => {
                            outcome = Err(Halt::Stop);
                            break;
                        }
                        Err(e) => {
                            outcome = Err(Halt::Failed(e));
                            break;
                        }
                    }
                }
                halted(outcome, boards.len() as u64)
            }
        }
    }

    /// [`OpenSource::read`] with `make` applied to each piece before `consume` gets it: a
    /// generated stream runs `make` on the thread that made the piece (formatting, keys,
    /// evaluation in parallel), in order for `consume`; other sources run it inline.
    ///
    /// # Errors
    /// As [`OpenSource::read`].
    pub fn read_with<T: Send, E: From<Error>>(
        self,
        make: &(dyn Fn(Vec<Board>) -> T + Sync),
        consume: &mut dyn FnMut(T) -> Result<bool, E>,
    ) -> Result<SourceRead, E> {
        match self.inner {
            Inner::Stream(stream) => read_stream(&stream, make, consume),
            _ => self.read(&mut |boards| consume(make(boards))),
        }
    }

    /// Reads every board into memory ([`OpenSource::read`] kept whole): for the steps that
    /// need the whole set at once (a sheet, a format written in one call).
    ///
    /// # Errors
    /// As [`OpenSource::read`].
    pub fn read_all(self) -> Result<(Vec<Board>, SourceRead), Error> {
        let mut boards = Vec::new();
        let read = self.read(&mut |piece| {
            boards.extend(piece);
            Ok::<bool, Error>(true)
        })?;
        Ok((boards, read))
    }
}

/// Why a read ended before its source's end: the consumer stopped it (not an error), or
/// something failed.
enum Halt<E> {
    Stop,
    Failed(E),
}

/// A store's failure ends a stored read.
impl<E: From<Error>> From<StoreError> for Halt<E> {
    fn from(e: StoreError) -> Halt<E> {
        Halt::Failed(E::from(e.into()))
    }
}

/// What a read of `total` boards that ended with `outcome` found.
fn halted<E>(outcome: Result<(), Halt<E>>, total: u64) -> Result<SourceRead, E> {
    let complete = match outcome {
        Ok(()) => true,
        Err(Halt::Stop) => false,
        Err(Halt::Failed(e)) => return Err(e),
    };
    Ok(SourceRead {
        boards: total,
        complete,
        ..SourceRead::default()
    })
}

/// A stored set's boards, every stored deal, or those an expression matches, in pieces of
/// [`STORED_PIECE`].
fn read_stored<E: From<Error>>(
    conn: &StoreReader,
    set: Option<&str>,
    matching: Option<&(SqlFilter, Option<u64>)>,
    tables: bool,
    on_piece: &mut dyn FnMut(Vec<Board>) -> Result<bool, E>,
) -> Result<SourceRead, E> {
    let mut piece: Vec<Board> = Vec::with_capacity(STORED_PIECE);
    let mut total = 0u64;
    // A set imported from files of played boards gives each board as played at each table.
    let played_set = match set {
        Some(name)
            if conn
                .set_has_played(name)
                .map_err(|e| E::from(Error::from(e)))? =>
        {
            Some(name)
        }
        _ => None,
    };
    let mut send = |piece: &mut Vec<Board>, total: &mut u64| -> Result<(), Halt<E>> {
        if piece.is_empty() {
            return Ok(());
        }
        let mut full = std::mem::replace(piece, Vec::with_capacity(STORED_PIECE));
        if let Some(name) = played_set {
            expand_played(conn, name, &mut full).map_err(|e| Halt::Failed(E::from(e)))?;
        }
        if tables {
            fill_tables(Some(conn), &mut full).map_err(|e| Halt::Failed(E::from(e)))?;
        }
        *total += full.len() as u64;
        match on_piece(full) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Halt::Stop),
            Err(e) => Err(Halt::Failed(e)),
        }
    };
    let mut push = |number: Option<u64>, key: DealIndex| -> Result<(), Halt<E>> {
        let deal = key
            .to_deal()
            .map_err(|error| StoreError::from(StoreErrorKind::CorruptDeal { key, error }))?;
        piece.push(Board {
            number,
            ..Board::unnumbered(deal)
        });
        match piece.len() >= STORED_PIECE {
            true => send(&mut piece, &mut total),
            false => Ok(()),
        }
    };
    let walked = match (matching, set) {
        (Some((filter, limit)), set) => {
            conn.for_each_match(filter, set, *limit, |key, n| push(n, key))
        }
        (None, Some(name)) => conn.for_each_set_board(name, |n, key| push(Some(n), key)),
        (None, None) => conn.for_each_key(None, |key| push(None, key)),
    };
    let outcome = walked.and_then(|()| send(&mut piece, &mut total));
    halted(outcome, total)
}

/// A dealer script's produced deals, a run's block at a time, numbered from 1.
fn read_script<E: From<Error>>(
    source: &ScriptSource,
    on_piece: &mut dyn FnMut(Vec<Board>) -> Result<bool, E>,
) -> Result<SourceRead, E> {
    use crate::dealer::{DealerJob, ErrorKind};
    let job = DealerJob {
        generate: source.generate,
        produce: Some(source.produce),
        seed: Some(source.seed),
        quiet: true,
        keep_produced: true,
        ..DealerJob::default()
    };
    let mut next = 1u64;
    let mut halt = None;
    let run = crate::dealer::run_into(
        &source.script,
        &job,
        &mut std::io::sink(),
        &mut |_| {},
        &mut |deals, _| {
            let boards = (next..)
                .zip(deals)
                .map(|(n, d)| Board::new(n, *d))
                .collect();
            next += deals.len() as u64;
            let outcome = on_piece(boards);
            let stop = !matches!(outcome, Ok(true));
            halt = Some(outcome);
            match stop {
                false => Ok(()),
                true => Err(ErrorKind::Sink("the reader stopped".into()).into()),
            }
        },
    );
    let (complete, drawn) = match (run, halt) {
        (_, Some(Err(e))) => return Err(e),
        (Err(_), Some(Ok(false))) => (false, None),
        (Err(e), _) => return Err(E::from(Error::from(crate::ErrorKind::Script(e)))),
        (Ok(report), _) if report.produced < source.produce => {
            return Err(E::from(Error::from(crate::ErrorKind::TooFewMatches {
                drawn: report.generated,
                matched: report.produced,
                wanted: source.produce,
            })));
        }
        (Ok(report), _) => (true, Some(report.generated)),
    };
    Ok(SourceRead {
        boards: next - 1,
        complete,
        drawn,
        ..SourceRead::default()
    })
}

/// A generated stream's deals in numbered pieces, `make` run on each where it was made.
fn read_stream<T: Send, E: From<Error>>(
    source: &StreamSource,
    make: &(dyn Fn(Vec<Board>) -> T + Sync),
    consume: &mut dyn FnMut(T) -> Result<bool, E>,
) -> Result<SourceRead, E> {
    let numbered = |first: u64, deals: &[Deal]| -> Vec<Board> {
        (first..)
            .zip(deals)
            .map(|(n, d)| Board::new(n, *d))
            .collect()
    };
    let mut total = 0u64;
    let mut take = |piece: T, len: usize| -> Result<(), Halt<E>> {
        total += len as u64;
        match consume(piece) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Halt::Stop),
            Err(e) => Err(Halt::Failed(e)),
        }
    };
    let (first, count) = (source.first, source.count);
    let outcome = match (&source.stream, &source.filter) {
        (DealStream::Seeded(_), Some(_)) => {
            let found = source.find(&mut |_| true).map_err(E::from)?;
            if (found.deals.len() as u64) < count {
                return Err(E::from(Error::from(ErrorKind::TooFewMatches {
                    drawn: found.drawn,
                    matched: found.deals.len() as u64,
                    wanted: count,
                })));
            }
            let mut outcome = Ok(());
            for (k, deals) in found.deals.chunks(CHUNK).enumerate() {
                outcome = take(
                    make(numbered(first + (k * CHUNK) as u64, deals)),
                    deals.len(),
                );
                if outcome.is_err() {
                    break;
                }
            }
            return halted(outcome, total).map(|read| SourceRead {
                drawn: Some(found.drawn),
                ..read
            });
        }
        (DealStream::Seeded(seed), None) => crate::generate_chunks_with(
            seed,
            source.predeal.as_ref(),
            first,
            count,
            |n, deals| (make(numbered(n, deals)), deals.len()),
            |(piece, len)| take(piece, len),
        ),
        (DealStream::BigDeal(stream), _) => {
            let mut stream = stream.clone();
            stream.skip_boards(first - 1);
            let mut done = 0u64;
            let mut outcome = Ok(());
            while done < count && outcome.is_ok() {
                let len = (count - done).min(CHUNK as u64) as usize;
                let deals = stream.take_deals(len);
                if deals.len() < len {
                    let first_missing = first + done + deals.len() as u64;
                    outcome = Err(Halt::Failed(E::from(Error::from(ErrorKind::Exhausted {
                        first_missing,
                    }))));
                    break;
                }
                outcome = take(make(numbered(first + done, &deals)), len);
                done += len as u64;
            }
            outcome
        }
    };
    halted(outcome, total)
}

/// Gives the boards without a table the one `store` holds for their deal (nothing without a
/// store).
/// Replaces each board of set `set` that was played (imported from a file of played boards:
/// the `played` table) by the board as played at each table, open room first, with its game
/// record (room, players, auction, contract, declarer, result, score, play).
fn expand_played(store: &StoreReader, set: &str, boards: &mut Vec<Board>) -> Result<(), Error> {
    let mut out = Vec::with_capacity(boards.len());
    for b in boards.drain(..) {
        let Some(n) = b.number else {
            out.push(b);
            continue;
        };
        let played = store.played_in_set(set, n)?;
        if played.is_empty() {
            out.push(b);
            continue;
        }
        for p in played {
            out.push(Board {
                dealer: Some(p.dealer),
                vulnerability: Some(p.vulnerability),
                game: Some(Box::new(p.game)),
                ..b.clone()
            });
        }
    }
    *boards = out;
    Ok(())
}

fn fill_tables(store: Option<&StoreReader>, boards: &mut [Board]) -> Result<(), Error> {
    let Some(store) = store else {
        return Ok(());
    };
    let keys: Vec<DealIndex> = boards
        .iter()
        .filter(|b| b.dd.is_none())
        .map(|b| DealIndex::from_deal(&b.deal))
        .collect();
    if keys.is_empty() {
        return Ok(());
    }
    let mut stored = store.dd_tables(&keys)?.into_iter();
    for b in boards.iter_mut().filter(|b| b.dd.is_none()) {
        b.dd = stored.next().flatten();
    }
    Ok(())
}
