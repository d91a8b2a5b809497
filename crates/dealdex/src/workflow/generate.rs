//! The `generate` workflow: a tournament set (boards `A..=B` with dealer and vulnerability by
//! board, stored as a named set) or a bulk run (millions of deals streamed in bounded memory,
//! stored in committed batches), from a seed (FORMATS.md §3), a fresh seed saved to a key
//! file, or Big Deal's stream (SQUAREDEAL.md §1); optionally completing a predeal and keeping
//! only deals that match a query.
//!
//! A job goes in ([`GenerateJob`]), a report comes out ([`GenerateReport`], serde), progress
//! goes through a callback ([`Progress`]); standard-output files go to the writer the caller
//! passes, so the library never prints.
//!
//! ```
//! use dealdex::workflow::generate::{GenerateJob, Source, run};
//! use dealdex::{Seed, Store};
//! let seed: Seed = "42".repeat(32).parse()?;
//! let job = GenerateJob::set(1, 16, Source::Seed(seed), Vec::new());
//! let mut store = Store::open_in_memory()?;
//! let first = run(&job, Some(&mut store), &mut std::io::sink(), &mut |_| {})?;
//! assert_eq!((first.deals, first.new_deals, first.duplicates), (16, Some(16), Some(0)));
//! // The same set again: already stored, nothing new.
//! let again = GenerateJob { name: Some(first.set.unwrap().name), ..job };
//! let second = run(&again, Some(&mut store), &mut std::io::sink(), &mut |_| {})?;
//! assert_eq!(second.new_deals, Some(0));
//! assert!(second.set.unwrap().already_stored);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::formats::{Board, WriteOptions};
use crate::generation::bigdeal::BigDealStream;
use crate::generation::predeal::Predeal;
use crate::model::deal::Deal;
use crate::model::index::DealIndex;
use crate::model::number::Scheme;
use crate::query::{self, Query};
use crate::secret::{self, PendingSecret, SecretFile};
use crate::store::{NewSet, SetOutcome, Store};
use crate::workflow::output::{
    ExportedFile, FileRole, Output, OutputFiles, Writing, check_distinct, check_output_paths,
    plan_outputs, same_file,
};
use crate::workflow::pipeline::{
    DealFiles, DealSink, DealSource, DealStream, FoundDeals, OpenSource, PreparedFiles,
    RenderedPiece, SourceOptions, StreamFilter, StreamSource,
};
use crate::{CHUNK, Error, ErrorClass, ErrorKind, GenerationError, InputPosition, Result, Seed};

/// Deals inserted per store transaction in a bulk run by default. Random keys dirty most of
/// the B-tree's leaf pages in every transaction, so fewer, larger batches write far less WAL:
/// 4 Mi keys ran 10 M deals 25 % faster than 1 Mi keys, and once the database outgrows
/// the page cache a batch costs about a rewrite of the whole table, so the rate is about
/// proportional to the batch. 8 Mi keys are 109 MB, held once (sorted in place).
pub const DEFAULT_BATCH: u64 = 1 << 23;

/// The smallest bulk batch: below it the per-transaction cost dominates (each commit
/// rewrites every B-tree page its random keys touch).
pub const MIN_BATCH: u64 = 1000;

/// The largest bulk batch: 218 MB of keys, held once (sorted in place).
pub const MAX_BATCH: u64 = 1 << 24;

/// The most boards a tournament set may have: the set is made, rendered and stored in
/// memory whole.
pub const MAX_SET_BOARDS: u64 = 1 << 20;

/// Boards an output that is not streamed (a format written in one piece, or one cut with
/// `split`) may collect in memory in a bulk run.
pub const MAX_COLLECTED: u64 = 1 << 20;

/// How many deals a `--where` run draws by default before it gives up
/// ([`GenerateJob::max_draws`], Python's `max_draws=`), with or without a predeal: 10⁹, some
/// minutes of work (a simple query tests about 3.5 million deals a second on 2 busy cores:
/// about 5 minutes; dealing around predealt cards is about three times slower, so about 15
/// minutes with a predeal).
pub const DEFAULT_MAX_DRAWS: u64 = 1_000_000_000;

/// The draw bound ([`GenerateJob::max_draws`]) of a bound given as a number
/// (`--max-draws N`): [`DEFAULT_MAX_DRAWS`] when none is given, no bound for 0.
///
/// ```
/// use dealdex::workflow::generate::{DEFAULT_MAX_DRAWS, max_draws};
/// assert_eq!(max_draws(None), Some(DEFAULT_MAX_DRAWS));
/// assert_eq!((max_draws(Some(0)), max_draws(Some(5))), (None, Some(5)));
/// ```
pub fn max_draws(bound: Option<u64>) -> Option<u64> {
    match bound.unwrap_or(DEFAULT_MAX_DRAWS) {
        0 => None,
        n => Some(n),
    }
}

/// Where the deals come from.
#[derive(Clone)]
pub enum Source {
    /// A seed the caller has (given, or read from a key file with [`read_seed_file`]): the
    /// Pavlicek-numbered stream of FORMATS.md §3; nothing is saved.
    Seed(Seed),
    /// A seed read from the key file `path` ([`read_seed_file`], `--seed-file`): the deals of
    /// [`Source::Seed`]; no output may be the key file ([`check`]), which would destroy the
    /// seed it regenerates.
    KeyFile {
        /// The seed the file holds.
        seed: Seed,
        /// The key file.
        path: PathBuf,
    },
    /// A fresh 256-bit seed from the operating system, saved to a new key file (mode 0600)
    /// before any output is written: `key_file` (which must not exist), or by default
    /// `<first output>.seed`, else `<db stem>-<sha>.seed` beside the database, else
    /// `dealdex-<sha>.seed` in the working directory (the next free name when taken). A
    /// set's key file is named for the set the store names (`s.pbn-2.seed` for set `s-2`):
    /// until the set is stored the seed waits in a private temporary file beside it
    /// ([`PendingSecret`]), removed when storing fails.
    Fresh {
        /// The key file to write; `None` for the default name.
        key_file: Option<PathBuf>,
    },
    /// Big Deal's stream (bigdealx's deals, SQUAREDEAL.md §1), numbered in the Big Deal
    /// scheme. Cannot be combined with a predeal or a filter.
    BigDeal(BigDealStream),
}

impl Source {
    /// The source `dealdex generate`'s flags name: Big Deal's stream for a wizard string
    /// `bigdeal` with its entropy strings (all hashed in order as one); else the seed `seed`
    /// (64 hex digits); else the one the key file `seed_file` holds ([`Source::KeyFile`]);
    /// else a fresh seed, saved to `key_file` (`None`: the default name, [`Source::Fresh`]).
    ///
    /// ```
    /// use dealdex::workflow::generate::Source;
    /// let seed = "42".repeat(32);
    /// assert!(matches!(Source::from_flags(None, Some(&seed), None, None)?, Source::Seed(_)));
    /// let fresh = Source::from_flags(None, None, None, None)?;
    /// assert!(matches!(fresh, Source::Fresh { key_file: None }));
    /// let e = Source::from_flags(None, Some("42"), None, None).err().unwrap();
    /// assert!(e.to_string().starts_with("seed has 2 characters"), "{e}");
    /// # Ok::<(), dealdex::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`GenerateKind::BadSeed`] for a seed that is not 64 hex digits; for the key file,
    /// the errors of [`read_seed_file`].
    pub fn from_flags(
        bigdeal: Option<(&str, &[String])>,
        seed: Option<&str>,
        seed_file: Option<&Path>,
        key_file: Option<PathBuf>,
    ) -> Result<Source> {
        if let Some((wizard, entropy)) = bigdeal {
            let entropy: Vec<&[u8]> = entropy.iter().map(|e| e.as_bytes()).collect();
            return Ok(Source::BigDeal(BigDealStream::new(
                wizard.as_bytes(),
                &entropy,
            )));
        }
        Ok(match (seed, seed_file) {
            (Some(s), _) => Source::Seed(s.parse().map_err(GenerateKind::BadSeed)?),
            (None, Some(path)) => Source::KeyFile {
                seed: read_seed_file(path)?,
                path: path.to_owned(),
            },
            (None, None) => Source::Fresh { key_file },
        })
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Boards {
    /// A tournament set: boards `first..=last` (1-based, at most [`MAX_SET_BOARDS`]),
    /// rendered whole and stored as one named set.
    Set {
        /// The first board (≥ 1).
        first: u64,
        /// The last board (≥ `first`).
        last: u64,
    },
    /// A bulk run: deals `start..=start + count − 1` of the stream, streamed in bounded
    /// memory; with a store, committed every `batch` deals in stream order (a kill loses at
    /// most the batch in flight).
    Bulk {
        /// The first deal (1-based); shards of one seed concatenate to the whole.
        start: u64,
        /// How many deals (≥ 1).
        count: u64,
        /// Deals per store transaction, [`MIN_BATCH`]`..=`[`MAX_BATCH`].
        batch: u64,
    },
}

impl Boards {
    /// What `dealdex generate`'s flags ask for: the set of the board range `range`
    /// ([`parse_board_range`]) when given, else a bulk run of `count` deals from deal `start`
    /// in batches of `batch` ([`DEFAULT_BATCH`] when `None`); without a count, 0 deals, which
    /// [`check`] refuses.
    ///
    /// ```
    /// use dealdex::workflow::generate::Boards;
    /// assert_eq!(Boards::from_flags(Some("5"), 1, None, None)?, Boards::Set { first: 1, last: 5 });
    /// let bulk = Boards::from_flags(None, 11, Some(10), Some(1000))?;
    /// assert_eq!(bulk, Boards::Bulk { start: 11, count: 10, batch: 1000 });
    /// # Ok::<(), dealdex::Error>(())
    /// ```
    ///
    /// # Errors
    /// The errors of [`parse_board_range`].
    pub fn from_flags(
        range: Option<&str>,
        start: u64,
        count: Option<u64>,
        batch: Option<u64>,
    ) -> Result<Boards> {
        Ok(match range {
            Some(r) => {
                let (first, last) = parse_board_range(r)?;
                Boards::Set { first, last }
            }
            None => Boards::Bulk {
                start,
                count: count.unwrap_or(0),
                batch: batch.unwrap_or(DEFAULT_BATCH),
            },
        })
    }

    /// The format of an output that names none (standard output, `-`, `/dev/null`): PBN for
    /// a tournament set, hex index lines for a bulk run.
    pub fn default_format(&self) -> &'static str {
        match self {
            Boards::Set { .. } => "pbn",
            Boards::Bulk { .. } => "hex",
        }
    }

    /// The outputs of `paths` and the format named `format` ([`plan_outputs`]), with
    /// [`Boards::default_format`]: no path is standard output for a set, and no output at
    /// all for a bulk run (which then only stores).
    ///
    /// ```
    /// use dealdex::workflow::generate::Boards;
    /// let set = Boards::Set { first: 1, last: 32 };
    /// assert_eq!(set.outputs(&[], None)?[0].format.info().name, "pbn");
    /// let bulk = Boards::Bulk { start: 1, count: 1000, batch: 1000 };
    /// assert!(bulk.outputs(&[], None)?.is_empty());
    /// assert_eq!(bulk.outputs(&["-".into()], None)?[0].format.info().name, "hex");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::OutputFormat`] for an unknown format or an extension that names none,
    /// [`ErrorKind::FormatWithSeveral`] for a format given with several files.
    pub fn outputs(&self, paths: &[PathBuf], format: Option<&str>) -> Result<Vec<Output>> {
        match (self, paths.is_empty()) {
            (Boards::Bulk { .. }, true) => Ok(Vec::new()),
            _ => plan_outputs(paths, format, self.default_format()),
        }
    }

    /// The database a run stores in, as asked (`generate --db`/`--no-db`): none when
    /// `database` is [`StoreChoice::Never`]; a set is stored (in [`crate::DEFAULT_DATABASE`]
    /// unless a file is given); a bulk run only when a file is given or when it writes no
    /// output file (`writes_files` false), so that `--count N --out deals.hex` leaves no
    /// database behind.
    ///
    /// ```
    /// use std::path::PathBuf;
    /// use dealdex::workflow::generate::{Boards, StoreChoice};
    /// let bulk = Boards::Bulk { start: 1, count: 1000, batch: 1000 };
    /// assert_eq!(bulk.database(&StoreChoice::Default, true), None);
    /// assert_eq!(bulk.database(&StoreChoice::Default, false), Some(PathBuf::from("dealdex.db")));
    /// let set = Boards::Set { first: 1, last: 32 };
    /// assert_eq!(set.database(&StoreChoice::Never, false), None);
    /// ```
    pub fn database(&self, database: &StoreChoice, writes_files: bool) -> Option<PathBuf> {
        match (database, self) {
            (StoreChoice::Never, _) => None,
            (StoreChoice::File(path), _) => Some(path.clone()),
            (StoreChoice::Default, Boards::Bulk { .. }) if writes_files => None,
            (StoreChoice::Default, _) => Some(crate::DEFAULT_DATABASE.into()),
        }
    }
}

/// Whether and where a generate run stores its deals, as asked ([`Boards::database`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreChoice {
    /// Nothing asked: the default policy of [`Boards::database`].
    Default,
    /// Store in this database file (`--db FILE`).
    File(PathBuf),
    /// Store nothing (`--no-db`).
    Never,
}

/// A query-language filter (`generate --where`): the parsed query and its text (which the
/// key file of a fresh seed records).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// The query.
    pub query: Query,
    /// Its text as given.
    pub text: String,
}

impl Filter {
    /// Parses a query-language expression (see [`crate::query`]).
    ///
    /// # Errors
    /// The query's [`query::Error`], with its column; a played board's term
    /// ([`query::ErrorKind::PlayedOnly`]: a generated deal has no table's record).
    pub fn parse(text: &str) -> Result<Filter, query::Error> {
        let query = Query::parse(text)?;
        query.deal_only("a filter of generated deals")?;
        Ok(Filter {
            query,
            text: text.to_owned(),
        })
    }
}

/// `dealdex generate`'s options as typed, but where the deals are written (the outputs,
/// [`Writing`], the database: the caller's). With the `clap` feature they derive
/// `clap::Args`, their doc comments the help; [`GenerateOptions::job`] parses them.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct GenerateOptions {
    /// Tournament set: board range A-B (or N for 1-N), with dealer and vulnerability by board.
    #[cfg_attr(feature = "clap", arg(long, value_name = "RANGE"))]
    pub boards: Option<String>,
    /// Bulk generation: this many deals, streamed in bounded memory.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub count: Option<u64>,
    /// First deal of a bulk run (1-based); shards of one seed concatenate to the whole.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "K", default_value_t = 1, requires = "count")
    )]
    pub start: u64,
    /// Bulk runs: commit to the database every N deals, in stream order; a kill or crash
    /// loses at most the batch in flight, and rerunning the command stores the rest
    /// [default: 8388608].
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", conflicts_with = "boards",
        value_parser = clap::value_parser!(u64).range(MIN_BATCH..=MAX_BATCH)))]
    pub batch: Option<u64>,
    /// 256-bit seed as 64 hex digits; without it a seed comes from the OS and is saved to a
    /// key file (mode 0600).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "HEX", conflicts_with = "seed_file")
    )]
    pub seed: Option<String>,
    /// Read the seed from a key file written by an earlier run.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub seed_file: Option<PathBuf>,
    /// Big Deal instead of a seed: the wizard string (bigdealx -W). With --bigdeal-entropy
    /// the deals are exactly bigdealx's (SQUAREDEAL.md §1), numbered in the Big Deal scheme.
    #[cfg_attr(feature = "clap", arg(long, value_name = "W", requires = "bigdeal_entropy",
        conflicts_with_all = ["seed", "seed_file", "key_file", "predeal", "filter"]))]
    pub bigdeal_wizard: Option<String>,
    /// Big Deal entropy string (bigdealx -e), repeatable: all are hashed in order as one.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "E", requires = "bigdeal_wizard")
    )]
    pub bigdeal_entropy: Vec<String>,
    /// Where to write a new seed (default: next to the output, `<out>.seed`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub key_file: Option<PathBuf>,
    /// Name of the tournament set in the database (default: from the output file's name).
    #[cfg_attr(feature = "clap", arg(long, requires = "boards"))]
    pub name: Option<String>,
    /// Fixed cards, the rest dealt uniformly among the consistent deals, e.g.
    /// 'N:AKQ.A.. S:.KQJT9.2.' (seat-prefixed partial hands in PBN notation).
    #[cfg_attr(feature = "clap", arg(long, value_name = "HANDS"))]
    pub predeal: Option<String>,
    /// Keep only deals matching this query-language expression (see `dealdex query --help`),
    /// drawing until enough match: e.g. 'hcp(N) in 20..21 and balanced(N)'. A query no deal
    /// can match by its terms' ranges ('hcp(N) > 37') is refused at once (exit 2, naming the
    /// column); a terminal shows deals drawn a second and matches so far.
    #[cfg_attr(feature = "clap", arg(long = "where", value_name = "EXPR"))]
    pub filter: Option<String>,
    /// With --where (and with or without --predeal): give up after drawing N deals without
    /// finding enough matches (exit 2, saying how many matched; nothing stored or written); 0
    /// for no bound [default: 1000000000, some minutes; about three times longer with
    /// --predeal, whose cards the check of impossible queries does not see].
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", requires = "filter"))]
    pub max_draws: Option<u64>,
}

impl GenerateOptions {
    /// The job these options describe, written to `outputs` (in their format, else by
    /// extension) as `writing` says, stored as `store` says; checked ([`check`]).
    ///
    /// # Errors
    /// [`Boards::from_flags`]', [`Boards::outputs`]', [`Source::from_flags`]' and [`check`]'s
    /// errors; [`ErrorKind::Sample`] ([`crate::SampleOption::Where`]) for a filter that does not
    /// parse; the predeal's.
    pub fn job(
        &self,
        outputs: &OutputFiles,
        writing: Writing,
        store: &StoreChoice,
    ) -> Result<GenerateJob> {
        let boards =
            Boards::from_flags(self.boards.as_deref(), self.start, self.count, self.batch)?;
        let db = boards.database(store, !outputs.out.is_empty());
        let storing = db.is_some();
        let outputs = boards.outputs(&outputs.out, outputs.to.to.as_deref())?;
        let filter = (self.filter.as_deref().map(Filter::parse).transpose())
            .map_err(|e| crate::workflow::samples::refused(crate::SampleOption::Where, e))?;
        let predeal = self.predeal.as_deref().map(Predeal::parse).transpose();
        let predeal = predeal.map_err(ErrorKind::Predeal)?;
        let bigdeal = (self.bigdeal_wizard.as_deref()).map(|w| (w, &*self.bigdeal_entropy));
        let seed_file = self.seed_file.as_deref();
        let source = Source::from_flags(
            bigdeal,
            self.seed.as_deref(),
            seed_file,
            self.key_file.clone(),
        )?;
        let job = GenerateJob {
            boards,
            source,
            predeal,
            filter,
            max_draws: max_draws(self.max_draws),
            outputs,
            name: self.name.clone(),
            writing,
            db,
        };
        check(&job, storing)?;
        Ok(job)
    }
}

/// A generate job: what to make, from what, written where.
#[derive(Clone)]
pub struct GenerateJob {
    /// A tournament set or a bulk run.
    pub boards: Boards,
    /// The deals' source.
    pub source: Source,
    /// Fixed cards: the rest is dealt uniformly among the consistent deals.
    pub predeal: Option<Predeal>,
    /// Keep only matching deals, drawing until enough match. A query whose terms' ranges
    /// show that no deal can match, with the predeal when there is one
    /// ([`Query::never_matches_given`]), is refused before any deal is
    /// drawn ([`GenerateKind::NeverMatches`]); a rare one is bounded by `max_draws`.
    pub filter: Option<Filter>,
    /// With a filter: the most deals drawn from the stream to find the matching ones
    /// ([`DEFAULT_MAX_DRAWS`] by default; `None`: no bound, the stream's 2⁶⁴ deals). Past
    /// it the job fails with [`GenerateKind::DrawLimit`], having stored and written
    /// nothing (a fresh seed's key file of a bulk run, saved before drawing, stays).
    pub max_draws: Option<u64>,
    /// The outputs, each a file or standard output with its format. A set is rendered for
    /// all of them before anything is written; a bulk run streams the formats that stream
    /// and collects the boards for the others (at most [`MAX_COLLECTED`]).
    pub outputs: Vec<Output>,
    /// Set name (tournament sets only): stored as given (a different set of that name is an
    /// error); `None`: the first output file's stem, else `boards-A-B`, made unique in the
    /// store's transaction ([`Store::store_set_unique`]: the first of `name`, `name-2`, …
    /// that is free or already holds this very set, so a rerun with the same seed and
    /// range reuses its set).
    pub name: Option<String>,
    /// Event (default: the set's name; none in bulk runs), blind, split.
    pub writing: Writing,
    /// The database file the store was opened from, for the default key file of a fresh
    /// seed (beside it) and the report; `None` for no store or one in memory.
    pub db: Option<PathBuf>,
}

impl GenerateJob {
    /// A tournament set `first..=last` from `source` to `outputs`, with the defaults: no
    /// predeal, no filter, the default name, cards shown, not split, no database path.
    pub fn set(first: u64, last: u64, source: Source, outputs: Vec<Output>) -> GenerateJob {
        GenerateJob::new(Boards::Set { first, last }, source, outputs)
    }

    /// A bulk run of `count` deals from deal `start` on, committed in batches of
    /// [`DEFAULT_BATCH`], with the other defaults of [`GenerateJob::set`].
    pub fn bulk(start: u64, count: u64, source: Source, outputs: Vec<Output>) -> GenerateJob {
        let batch = DEFAULT_BATCH;
        GenerateJob::new(
            Boards::Bulk {
                start,
                count,
                batch,
            },
            source,
            outputs,
        )
    }

    /// A job with the defaults of [`GenerateJob::set`].
    fn new(boards: Boards, source: Source, outputs: Vec<Output>) -> GenerateJob {
        GenerateJob {
            boards,
            source,
            predeal: None,
            filter: None,
            max_draws: Some(DEFAULT_MAX_DRAWS),
            outputs,
            name: None,
            writing: Writing::default(),
            db: None,
        }
    }
}

/// A tournament set's name and whether it was stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SetReport {
    /// The set's name.
    pub name: String,
    /// Stored in the database (false without a store).
    pub stored: bool,
    /// The identical set was already stored: nothing was written to the database.
    pub already_stored: bool,
}

/// Whether a job made a tournament set or ran in bulk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A tournament set (`--boards`).
    Set,
    /// A bulk run (`--count`).
    Bulk,
}

/// What a generate job did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GenerateReport {
    /// A set or a bulk run.
    pub mode: Mode,
    /// The numbering scheme of the deals' source: `pavlicek` (seeds) or `bigdeal`.
    pub scheme: &'static str,
    /// The first board (bulk: the first deal's ordinal).
    pub first_board: u64,
    /// The last board.
    pub last_board: u64,
    /// Deals generated (kept, with a filter).
    pub deals: u64,
    /// The tournament set; `None` in bulk runs.
    pub set: Option<SetReport>,
    /// The database path of the job ([`GenerateJob::db`]), when a store was given.
    pub database: Option<PathBuf>,
    /// Deals new to the database; `None` without a store.
    pub new_deals: Option<u64>,
    /// Deals that were already stored (or came earlier in the run); `None` without a store.
    pub duplicates: Option<u64>,
    /// With a filter: deals drawn from the stream to find them.
    pub drawn: Option<u64>,
    /// With a filter that has `dd`/`par` terms: deals solved double dummy (those its
    /// cheaper conditions left undecided).
    pub solved: Option<u64>,
    /// The key file a fresh seed was saved to (secret: it regenerates the deals).
    pub seed_file: Option<PathBuf>,
    /// The default key file name that was taken (kept as it was), when the seed went to
    /// the next free name instead.
    pub seed_file_taken: Option<PathBuf>,
    /// The files written, in order (standard output with `path` null).
    pub files: Vec<ExportedFile>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// `seed saved to PATH (keep it secret)`, with ` (DEFAULT exists and is kept)` after the
/// path when a fresh seed went to the next free name ([`Progress::SeedSaved`]).
///
/// ```
/// use std::path::Path;
/// use dealdex::workflow::generate::seed_saved_text;
/// assert_eq!(
///     seed_saved_text(Path::new("b-1.seed"), Some(Path::new("b.seed"))),
///     "seed saved to b-1.seed (b.seed exists and is kept) (keep it secret)"
/// );
/// ```
pub fn seed_saved_text(path: &Path, default_taken: Option<&Path>) -> String {
    let taken = default_taken.map_or(String::new(), |d| {
        format!(" ({} exists and is kept)", d.display())
    });
    format!("seed saved to {}{taken} (keep it secret)", path.display())
}

/// `, solved K double dummy` for a filter with `dd`/`par` terms, else nothing.
fn solved_note(solved: Option<u64>) -> String {
    solved.map_or(String::new(), |k| format!(", solved {k} double dummy"))
}

/// The one-line summary `dealdex generate` prints on stderr: a set's boards, what was
/// drawn, stored and written, and the seed file; or a bulk run's deals, rate and what was
/// new in the database.
impl std::fmt::Display for GenerateReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = self;
        let db = r.database.as_deref().unwrap_or(Path::new("")).display();
        let (new, dups) = (r.new_deals.unwrap_or(0), r.duplicates.unwrap_or(0));
        match (r.mode, r.drawn) {
            (Mode::Set, _) => {
                write!(
                    f,
                    "boards {}-{}: {} deals",
                    r.first_board, r.last_board, r.deals
                )?;
                if let Some(n) = r.drawn {
                    write!(f, " (drew {n} to find them{})", solved_note(r.solved))?;
                }
                if let Some(set) = r.set.as_ref().filter(|s| s.stored) {
                    if set.already_stored {
                        write!(f, "; set {:?} already in {db} (unchanged)", set.name)?;
                    } else {
                        write!(
                            f,
                            "; set {:?} stored in {db} ({new} new deals, {dups} already there)",
                            set.name
                        )?;
                    }
                }
                for p in r.files.iter().filter_map(|x| x.path.as_ref()) {
                    write!(f, "; written to {}", p.display())?;
                }
                if let Some(k) = &r.seed_file {
                    write!(f, "; {}", seed_saved_text(k, r.seed_file_taken.as_deref()))?;
                }
                return Ok(());
            }
            (Mode::Bulk, Some(drawn)) => write!(
                f,
                "{} matching deals in {:.2} s ({:.0} matching deals/s); drew {drawn} deals ({:.3} % matched{})",
                r.deals,
                r.seconds,
                r.deals as f64 / r.seconds.max(1e-9),
                100.0 * r.deals as f64 / drawn.max(1) as f64,
                solved_note(r.solved)
            )?,
            (Mode::Bulk, None) => write!(
                f,
                "generated {} deals in {:.2} s ({:.0} deals/s)",
                r.deals,
                r.seconds,
                r.deals as f64 / r.seconds.max(1e-9)
            )?,
        }
        if r.new_deals.is_some() {
            write!(f, "; {new} new in {db}, {dups} duplicates")?;
        }
        Ok(())
    }
}

/// Progress of a running job, reported on the calling thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress<'a> {
    /// A fresh seed was saved to its key file: before any output is written (a bulk run:
    /// before any deal is made; a set: once the store has named it, the seed having waited
    /// in a private temporary file).
    SeedSaved {
        /// The key file written.
        path: &'a Path,
        /// The default name, when it was taken and the seed went to `path` instead.
        default_taken: Option<&'a Path>,
    },
    /// A bulk run, or the search of a set's deals with a filter, started: `total` deals to
    /// make (`matching`: deals that match the filter).
    Started {
        /// Deals to make.
        total: u64,
        /// True when counting deals that match a filter.
        matching: bool,
    },
    /// Deals made (or matching deals found) so far, once a chunk.
    Done(u64),
    /// With a filter: deals drawn from the stream and how many of them matched so far, once
    /// a chunk (after [`Progress::Done`]); the caller's clock gives the rate.
    Drawn {
        /// Deals drawn (and tested) so far.
        drawn: u64,
        /// Of those, deals that matched.
        matched: u64,
    },
    /// The bulk run's deals are all made and written.
    Finished,
}

/// `generate`'s own kinds of error ([`ErrorKind::Generate`]): board ranges, counts, key
/// files, filters. Bad input is found before anything is written or stored.
#[derive(Debug, derive_more::Display)]
#[non_exhaustive]
pub enum GenerateKind {
    /// A board range with something that is not a number.
    #[display("boards {range:?}: {token:?} is not a board number")]
    NotABoardNumber {
        /// The range as given.
        range: String,
        /// The part that is no number.
        token: String,
    },
    /// A board range that is empty or starts at 0.
    #[display("boards {range:?}: expected A-B with 1 <= A <= B (boards are numbered from 1)")]
    BadBoardRange {
        /// The range as given (`A-B`).
        range: String,
    },
    /// A set of more than [`MAX_SET_BOARDS`] boards.
    #[display(
        "boards {range:?}: {boards} boards; a set has at most {MAX_SET_BOARDS} (a bulk run counts deals instead)"
    )]
    TooManyBoards {
        /// The range as given.
        range: String,
        /// Boards in it.
        boards: u128,
    },
    /// A bulk run of 0 deals.
    #[display("the count of deals must be at least 1")]
    ZeroCount,
    /// A bulk run starting at deal 0.
    #[display("the start is 1-based: the first deal is 1")]
    ZeroStart,
    /// A bulk run past the 64-bit deal counter.
    #[display("start + count overflows the 64-bit deal counter")]
    CounterOverflow,
    /// A batch outside [`MIN_BATCH`]`..=`[`MAX_BATCH`].
    #[display("batch {batch}: expected {MIN_BATCH}..={MAX_BATCH} deals")]
    BadBatch {
        /// The batch asked for.
        batch: u64,
    },
    /// A bulk run with no output and no store.
    #[display("nothing to do: no output file, and no database to store the deals in")]
    NothingToDo,
    /// A bulk run past a format's board limit, without `split`.
    #[display(
        "{output}: {format} holds boards 1..{max}, this run ends at {last} (split the set into files)"
    )]
    BoardLimit {
        /// The output's label (path or `stdout`).
        output: String,
        /// The format's name.
        format: &'static str,
        /// Its last board.
        max: u64,
        /// The run's last deal.
        last: u64,
    },
    /// A bulk run too long for an output that is written in one piece.
    #[display("{output}: {format} is written in one piece; at most {MAX_COLLECTED} boards")]
    TooManyToCollect {
        /// The output's label.
        output: String,
        /// The format's name.
        format: &'static str,
    },
    /// A key file (`--seed-file`) could not be read.
    #[display("{}: {error}", path.display())]
    SeedFile {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// A key file without a seed line (only blank lines and `#` comments).
    #[display("{}: no seed line", path.display())]
    NoSeedLine {
        /// The file.
        path: PathBuf,
    },
    /// A key file whose seed line is no seed.
    #[display("{}: line {line}: {error}", path.display())]
    BadSeedLine {
        /// The file.
        path: PathBuf,
        /// The line (1-based).
        line: usize,
        /// What is wrong with it.
        error: GenerationError,
    },
    /// The operating system's random source failed.
    #[display("{_0}")]
    Random(GenerationError),
    /// A seed given ([`Source::from_flags`]) that is not 64 hex digits.
    #[display("{_0}")]
    BadSeed(GenerationError),
    /// The key file asked for exists: a secret is never overwritten.
    #[display(
        "key file {error} (it may hold the seed of an earlier set: name another key file, or reuse that seed as the seed file)"
    )]
    KeyFileExists {
        /// The secret file's error, naming the path.
        error: SecretFile,
    },
    /// A fresh seed's key file could not be written after the set was stored under the
    /// name it is named for: the seed is kept in the private temporary file `kept`.
    #[display("{error}; the seed is kept in {} (mode 0600): rename it, never delete it", kept.display())]
    SeedKept {
        /// Why the key file was not written.
        error: SecretFile,
        /// The temporary file that holds the seed.
        kept: PathBuf,
    },
    /// Big Deal's 32-bit counter runs out before the set's last board.
    #[display("boards {first}-{last}: the Big Deal stream's 32-bit counter runs out first")]
    BigDealSetExhausted {
        /// The set's first board.
        first: u64,
        /// Its last board.
        last: u64,
    },
    /// The filter can match no deal, as its terms' ranges show ([`Query::never_matches`]):
    /// refused before any deal is drawn.
    #[display("where: {error}")]
    NeverMatches {
        /// Why, with the column of the comparison that decides it.
        error: query::Error,
    },
    /// Fewer deals than asked matched the filter within [`GenerateJob::max_draws`] draws:
    /// nothing was stored or written. The message names the bound and how to raise it (in
    /// the caller's terms, `names`), and with a predeal says that its cards may be what
    /// leaves no deal matching.
    #[display("{}", draw_limit_text((*drawn, *matched, *max_draws), (*mode, *first_missing, *last), *predeal, *names))]
    DrawLimit {
        /// Deals drawn: the bound.
        drawn: u64,
        /// Of those, deals that matched (fewer than asked).
        matched: u64,
        /// The bound ([`GenerateJob::max_draws`]).
        max_draws: u64,
        /// A set's boards or a bulk run's deals.
        mode: Mode,
        /// The first board (deal of a bulk run) not made.
        first_missing: u64,
        /// The last board (deal) asked for.
        last: u64,
        /// A predeal was given: its cards may be what leaves no deal matching, in a way the
        /// check of impossible queries ([`Query::never_matches_given`]) does not see (it
        /// bounds each term alone: `hcp(S) + hcp(E) >= 4` with North's 37 HCP predealt).
        predeal: bool,
        /// How the caller names the filter, the bound and the predeal.
        names: DrawNames,
    },
    /// Big Deal's 32-bit counter ran out before the bulk run's last deal.
    #[display("the Big Deal stream's 32-bit counter ran out before the last board")]
    BigDealExhausted,
}

impl GenerateKind {
    /// A key file or a kept seed that could not be written, and a failing random source,
    /// are I/O; everything else (ranges, counts, key files given, a filter that can never
    /// match or matched too few deals within [`GenerateJob::max_draws`], like a `dealdex sql`
    /// statement past its time limit) is bad input.
    pub(crate) fn class(&self) -> ErrorClass {
        match self {
            GenerateKind::SeedKept { .. } | GenerateKind::Random(_) => ErrorClass::Io,
            _ => ErrorClass::BadInput,
        }
    }

    /// The key file (and the line of a bad seed line) for a key file given that does not
    /// hold a seed, the column of a seed given or of the filter's comparison that can never
    /// match; `None` for the other kinds.
    pub(crate) fn position(&self) -> Option<InputPosition> {
        match self {
            GenerateKind::SeedFile { path, .. } | GenerateKind::NoSeedLine { path } => {
                Some(InputPosition::new().with_file(path))
            }
            GenerateKind::BadSeedLine { path, line, .. } => {
                Some(InputPosition::new().with_file(path).with_line(*line as u64))
            }
            GenerateKind::NeverMatches { error } => crate::Classify::position(error),
            GenerateKind::BadSeed(error) => crate::Classify::position(error),
            _ => None,
        }
    }

    /// The error the message shows: a key file's I/O error, a seed's or the random
    /// source's, the filter's.
    pub(crate) fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GenerateKind::SeedFile { error, .. } => Some(error),
            GenerateKind::BadSeedLine { error, .. }
            | GenerateKind::Random(error)
            | GenerateKind::BadSeed(error) => Some(error),
            GenerateKind::NeverMatches { error } => Some(error),
            GenerateKind::KeyFileExists { error } | GenerateKind::SeedKept { error, .. } => {
                error.wrapped()
            }
            _ => None,
        }
    }
}

/// `n` with a comma between each group of three digits: `1,000,000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How a caller of generate names the filter, the draw bound and the predeal in
/// [`GenerateKind::DrawLimit`]'s message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawNames {
    /// `dealdex generate`'s flags: `--where`, `--max-draws N`, `--predeal`.
    Cli,
    /// Python's keyword arguments: `where`, `max_draws=N`, `predeal`.
    Python,
}

impl DrawNames {
    /// The filter, the bound, what joins the bound to its value, the predeal, and what the
    /// failure left.
    fn terms(self) -> [&'static str; 5] {
        match self {
            DrawNames::Cli => [
                "--where",
                "--max-draws",
                " ",
                "--predeal",
                "nothing was stored or written",
            ],
            DrawNames::Python => [
                "where",
                "max_draws",
                "=",
                "predeal",
                "no deals were returned",
            ],
        }
    }
}

/// The message of [`GenerateKind::DrawLimit`]: `--where matched 3 of the 1,000,000,000
/// deals drawn (1 in 333 million); stopped at --max-draws 1000000000 with boards 4-4 not
/// made; nothing was stored or written (raise --max-draws, 0 for no bound, or loosen the
/// query)`, then with a predeal a word on its cards.
///
/// ```
/// use dealdex::workflow::generate::{DrawNames, GenerateKind, Mode};
/// let e = GenerateKind::DrawLimit {
///     drawn: 1_000_000_000, matched: 3, max_draws: 1_000_000_000,
///     mode: Mode::Set, first_missing: 4, last: 4, predeal: false, names: DrawNames::Cli,
/// };
/// assert_eq!(e.to_string(),
///     "--where matched 3 of the 1,000,000,000 deals drawn (1 in 333 million); \
///      stopped at --max-draws 1000000000 with boards 4-4 not made; nothing was stored or \
///      written (raise --max-draws, 0 for no bound, or loosen the query)"
/// );
/// let python = GenerateKind::DrawLimit {
///     drawn: 1_000_000_000, matched: 0, max_draws: 1_000_000_000,
///     mode: Mode::Bulk, first_missing: 1, last: 4, predeal: true, names: DrawNames::Python,
/// };
/// assert!(python.to_string().starts_with(
///     "where matched none of the 1,000,000,000 deals drawn; stopped at max_draws=1000000000 \
///      with matching deals 1-4 not made; no deals were returned (raise max_draws, 0 for no \
///      bound, or loosen the query); with predeal, check that the query can hold"
/// ));
/// ```
fn draw_limit_text(
    (drawn, matched, max_draws): (u64, u64, u64),
    (mode, first_missing, last): (Mode, u64, u64),
    predeal: bool,
    names: DrawNames,
) -> String {
    let [filter, bound, equals, predeal_name, nothing] = names.terms();
    let rate = match matched {
        0 => format!(
            "{filter} matched none of the {} deals drawn",
            grouped(drawn)
        ),
        _ => {
            let one_in = drawn as f64 / matched as f64;
            let one_in = if one_in >= 1e9 {
                format!("{:.0} billion", one_in / 1e9)
            } else if one_in >= 1e6 {
                format!("{:.0} million", one_in / 1e6)
            } else {
                grouped(one_in.round() as u64)
            };
            format!(
                "{filter} matched {} of the {} deals drawn (1 in {one_in})",
                grouped(matched),
                grouped(drawn)
            )
        }
    };
    let what = match mode {
        Mode::Set => "boards",
        Mode::Bulk => "matching deals",
    };
    let mut text = format!(
        "{rate}; stopped at {bound}{equals}{max_draws} with {what} {first_missing}-{last} not \
         made; {nothing} (raise {bound}, 0 for no bound, or loosen the query)"
    );
    if predeal {
        text.push_str(&format!(
            "; with {predeal_name}, check that the query can hold at all with the predealt \
             cards: the check that refuses an impossible query at once bounds each term alone"
        ));
    }
    text
}

/// Parses a board range `A-B`, or `N` for `1-N`, into `(A, B)` with 1 ≤ A ≤ B and at most
/// [`MAX_SET_BOARDS`] boards.
///
/// ```
/// use dealdex::workflow::generate::parse_board_range;
/// assert_eq!(parse_board_range("1-32")?, (1, 32));
/// assert_eq!(parse_board_range("16")?, (1, 16));
/// assert!(parse_board_range("0-5").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`GenerateKind::NotABoardNumber`], [`GenerateKind::BadBoardRange`] or
/// [`GenerateKind::TooManyBoards`].
pub fn parse_board_range(text: &str) -> Result<(u64, u64)> {
    let num = |t: &str| -> Result<u64> {
        t.trim().parse::<u64>().map_err(|_| {
            GenerateKind::NotABoardNumber {
                range: text.to_owned(),
                token: t.to_owned(),
            }
            .into()
        })
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (1, num(text)?),
    };
    check_set(text, a, b)?;
    Ok((a, b))
}

/// Checks a set's range `a..=b`; `text` names it in errors.
fn check_set(text: &str, a: u64, b: u64) -> Result<()> {
    if a == 0 || b < a {
        return Err(GenerateKind::BadBoardRange {
            range: text.to_owned(),
        }
        .into());
    }
    if b - a >= MAX_SET_BOARDS {
        return Err(GenerateKind::TooManyBoards {
            range: text.to_owned(),
            boards: u128::from(b - a) + 1,
        }
        .into());
    }
    Ok(())
}

/// Reads the seed of a key file written by an earlier run: the first line that is neither
/// blank nor a `#` comment, 64 hex digits.
///
/// # Errors
/// [`GenerateKind::SeedFile`] (unreadable), [`GenerateKind::NoSeedLine`] or
/// [`GenerateKind::BadSeedLine`] (naming the line).
pub fn read_seed_file(path: &Path) -> Result<Seed> {
    let text = std::fs::read_to_string(path).map_err(|error| GenerateKind::SeedFile {
        path: path.to_owned(),
        error,
    })?;
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .ok_or_else(|| GenerateKind::NoSeedLine {
            path: path.to_owned(),
        })?;
    line.parse().map_err(|error| {
        GenerateKind::BadSeedLine {
            path: path.to_owned(),
            line: n + 1,
            error,
        }
        .into()
    })
}

/// Checks a job without touching anything: its files (an output that is a directory or in
/// a missing one, or that is the key file written or read or the database; a key file given
/// that exists), the set's range, a bulk run's count, start and batch, that it has
/// something to do (`storing`: a store will be given), that every output's format can hold
/// the run, and that the filter can match some deal as far as its
/// terms' ranges tell, over the deals with the predealt cards when there is a predeal
/// ([`Query::never_matches_given`]). [`run`] checks the same; call this first
/// to refuse bad input before opening (and creating) a database.
///
/// # Errors
/// The bad-input kinds of [`GenerateKind`], and the deal pipeline's for the output paths.
pub fn check(job: &GenerateJob, storing: bool) -> Result<()> {
    check_paths(job)?;
    let never = |f: &Filter| match &job.predeal {
        Some(p) => f.query.never_matches_given(&p.fixed()),
        None => f.query.never_matches(),
    };
    if let Some(error) = job.filter.as_ref().and_then(never) {
        return Err(GenerateKind::NeverMatches { error }.into());
    }
    let (start, count, batch) = match job.boards {
        Boards::Set { first, last } => return check_set(&format!("{first}-{last}"), first, last),
        Boards::Bulk {
            start,
            count,
            batch,
        } => (start, count, batch),
    };
    if count == 0 {
        return Err(GenerateKind::ZeroCount.into());
    }
    if start == 0 {
        return Err(GenerateKind::ZeroStart.into());
    }
    let last = start
        .checked_add(count - 1)
        .ok_or(GenerateKind::CounterOverflow)?;
    if !(MIN_BATCH..=MAX_BATCH).contains(&batch) {
        return Err(GenerateKind::BadBatch { batch }.into());
    }
    if !storing && job.outputs.is_empty() {
        return Err(GenerateKind::NothingToDo.into());
    }
    for o in &job.outputs {
        let info = o.format.info();
        if let Some(max) = info.max_board
            && last > max
            && !job.writing.split
        {
            return Err(GenerateKind::BoardLimit {
                output: o.label(),
                format: info.name,
                max,
                last,
            }
            .into());
        }
    }
    if let Boards::Bulk { .. } = job.boards {
        let sink = DealFiles {
            split: job.writing.split,
            ..DealFiles::new(job.outputs.clone(), WriteOptions::default())
        };
        if let Some(o) = sink
            .whole_outputs()
            .next()
            .filter(|_| count > MAX_COLLECTED)
        {
            return Err(GenerateKind::TooManyToCollect {
                output: o.label(),
                format: o.format.info().name,
            }
            .into());
        }
    }
    Ok(())
}

/// Refuses a job whose files cannot be written ([`check_output_paths`]: a directory, or a
/// file in a missing directory) or collide: an output file that is the key file (written, or
/// read with [`Source::KeyFile`]) or the database (writing it would destroy the seed or the
/// store), or a key file that is the database; and an explicit key file that exists (a
/// secret is never overwritten). Nothing is created before this check.
///
/// # Errors
/// [`ErrorKind::SameFile`] (naming both files and the path), the error of
/// [`check_output_paths`], or [`GenerateKind::KeyFileExists`].
fn check_paths(job: &GenerateJob) -> Result<()> {
    let outputs: Vec<PathBuf> = job.outputs.iter().filter_map(|o| o.path.clone()).collect();
    check_output_paths(&outputs)?;
    let key_file = match &job.source {
        Source::Fresh { key_file } => key_file.as_deref(),
        _ => None,
    };
    let mut files: Vec<(FileRole, &Path)> = job
        .outputs
        .iter()
        .filter_map(|o| o.path.as_deref())
        .map(|p| (FileRole::Output, p))
        .collect();
    if let Source::KeyFile { path, .. } = &job.source {
        files.push((FileRole::SeedFile, path));
    }
    files.extend(key_file.map(|k| (FileRole::KeyFile, k)));
    files.extend(job.db.as_deref().map(|d| (FileRole::Database, d)));
    check_distinct(&files)?;
    if let Some(k) = key_file
        && std::fs::symlink_metadata(k).is_ok()
    {
        return Err(GenerateKind::KeyFileExists {
            error: SecretFile::Exists { path: k.to_owned() },
        }
        .into());
    }
    Ok(())
}

/// Runs `job`: checks it ([`check`]), makes the deals, writes every output (standard-output
/// files to `stdout`) and stores them in `store` when given: a set as one named set
/// ([`Store::store_set`]), a bulk run's deals in batches ([`Store::insert_deals`]). A fresh
/// seed is saved first ([`Source::Fresh`]). A set is rendered for every output before
/// anything is written or stored, so a format's limit leaves no trace.
///
/// # Errors
/// Bad input (found before anything is written: [`check`]), a key file or output that
/// cannot be written, or the store failing (a bulk run keeps the batches committed before
/// it).
pub fn run(
    job: &GenerateJob,
    mut store: Option<&mut Store>,
    stdout: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> Result<GenerateReport> {
    check(job, store.is_some())?;
    let mut started = Instant::now();
    let source = resolve(&job.source)?;
    let mut report = match job.boards {
        Boards::Set { first, last } => {
            run_set(job, &source, (first, last), store, stdout, progress)?
        }
        Boards::Bulk {
            start,
            count,
            batch,
        } => {
            let last = start + (count - 1);
            let mut report = GenerateReport {
                mode: Mode::Bulk,
                scheme: source.scheme.name(),
                first_board: start,
                last_board: last,
                deals: count,
                set: None,
                database: store.as_ref().and(job.db.clone()),
                new_deals: None,
                duplicates: None,
                drawn: None,
                solved: None,
                seed_file: None,
                seed_file_taken: None,
                files: Vec::new(),
                seconds: 0.0,
            };
            if source.fresh {
                let what = match &job.filter {
                    Some(f) => format!("{count} deals matching {:?}", f.text),
                    None => format!("deals {start}..{last}"),
                };
                let (path, taken) = save_seed(job, &source.seed, &what, progress)?;
                report.seed_file = Some(path);
                report.seed_file_taken = taken;
            }
            // A bulk run's time is the deals' (its rate is deals a second), not the key file's.
            started = Instant::now();
            let bulk = Bulk {
                start,
                count,
                batch: batch as usize,
            };
            match &job.filter {
                Some(f) => run_filtered(job, &source, &bulk, f, &mut store, stdout, progress)?
                    .fill(&mut report),
                None => {
                    run_bulk(job, &source, &bulk, &mut store, stdout, progress)?.fill(&mut report)
                }
            }
            report
        }
    };
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The source resolved: the seed (a fresh one drawn), and the Big Deal stream if that is it.
struct Resolved {
    seed: Seed,
    fresh: bool,
    bigdeal: Option<BigDealStream>,
    scheme: Scheme,
}

impl Resolved {
    /// Deals `first ..= first + count − 1` of the source's stream, completing the job's
    /// predeal, as a [`DealSource`].
    fn source(&self, predeal: Option<&Predeal>, first: u64, count: u64) -> DealSource {
        let stream = match &self.bigdeal {
            Some(b) => DealStream::BigDeal(b.clone()),
            None => DealStream::Seeded(self.seed),
        };
        DealSource::Stream(StreamSource {
            stream,
            first,
            count,
            predeal: predeal.cloned(),
            filter: None,
        })
    }
}

/// Draws a fresh seed, or takes the one given.
fn resolve(source: &Source) -> Result<Resolved> {
    Ok(match source {
        Source::Seed(seed) | Source::KeyFile { seed, .. } => Resolved {
            seed: *seed,
            fresh: false,
            bigdeal: None,
            scheme: Scheme::Pavlicek,
        },
        Source::Fresh { .. } => Resolved {
            seed: Seed::from_os().map_err(GenerateKind::Random)?,
            fresh: true,
            bigdeal: None,
            scheme: Scheme::Pavlicek,
        },
        Source::BigDeal(stream) => Resolved {
            // Not used: the stream is the source.
            seed: Seed([0; 32]),
            fresh: false,
            bigdeal: Some(stream.clone()),
            scheme: Scheme::BigDeal,
        },
    })
}

/// What a set records about its source in the store: generator and the SHA-256 of the
/// seed (of bigdealx's two seeds for a Big Deal run).
fn set_source(source: &Resolved) -> (String, [u8; 32]) {
    let version = concat!("dealdex ", env!("CARGO_PKG_VERSION"));
    match &source.bigdeal {
        Some(b) => (format!("{version} (bigdealx stream)"), b.sha256()),
        None => (version.into(), source.seed.sha256()),
    }
}

/// The text of a key file at `path` holding `seed`, which regenerates `what`.
fn seed_text(what: &str, seed: &Seed, path: &Path) -> Vec<u8> {
    format!(
        "# dealdex generation seed: secret; it regenerates {what}\n# use: dealdex generate --seed-file {} …\n{seed}\n",
        path.display()
    )
    .into_bytes()
}

/// The key file given ([`Source::Fresh`]'s `key_file`), if any.
fn given_key_file(job: &GenerateJob) -> Option<&Path> {
    match &job.source {
        Source::Fresh { key_file } => key_file.as_deref(),
        _ => None,
    }
}

/// The key file a fresh seed goes to: the one given, else the default name.
fn seed_key_path(job: &GenerateJob, seed: &Seed) -> PathBuf {
    given_key_file(job).map_or_else(|| default_key_path(job, seed), Path::to_owned)
}

/// Writes a fresh seed to a new file only ([`secret`]): [`Source::Fresh`]'s `key_file`,
/// which must not exist; else the `k`-th name of the default (1: the default itself), or
/// the next free one when that is taken (never a name one of the job's outputs will be
/// written to). Returns the file written and the default name when another one was used
/// and the default exists.
fn write_seed(
    job: &GenerateJob,
    seed: &Seed,
    what: &str,
    k: u32,
) -> Result<(PathBuf, Option<PathBuf>)> {
    let text = |path: &Path| seed_text(what, seed, path);
    if let Some(p) = given_key_file(job) {
        secret::write_new(p, &text(p))?;
        return Ok((p.to_owned(), None));
    }
    let default = default_key_path(job, seed);
    let is_output = |p: &Path| {
        job.outputs
            .iter()
            .filter_map(|o| o.path.as_deref())
            .any(|o| same_file(o, p))
    };
    let written = secret::write_next_free_from(&default, k, is_output, text)?;
    let taken =
        (written != default && std::fs::symlink_metadata(&default).is_ok()).then_some(default);
    Ok((written, taken))
}

/// The error of writing a key file: an explicit one that exists is refused as such.
fn key_file_error(e: Error) -> Error {
    match SecretFile::of(e) {
        Ok(error @ SecretFile::Exists { .. }) => GenerateKind::KeyFileExists { error }.into(),
        Ok(problem) => problem.into(),
        Err(e) => e,
    }
}

/// Writes a fresh seed held in `pending` to its key file ([`write_seed`]) and removes the
/// temporary file; when the key file cannot be written, the temporary file is kept and the
/// error names it.
fn settle_seed(
    job: &GenerateJob,
    seed: &Seed,
    what: &str,
    k: u32,
    pending: PendingSecret,
) -> Result<(PathBuf, Option<PathBuf>)> {
    let kept = pending.path().to_owned();
    pending
        .settle(|| write_seed(job, seed, what, k))
        .map_err(|e| match SecretFile::of(e) {
            Ok(error) => GenerateKind::SeedKept { error, kept }.into(),
            Err(e) => e,
        })
}

/// Saves a fresh seed of a bulk run to a new file only, before any deal is made
/// ([`write_seed`]); reports it.
fn save_seed(
    job: &GenerateJob,
    seed: &Seed,
    what: &str,
    progress: &mut dyn FnMut(Progress),
) -> Result<(PathBuf, Option<PathBuf>)> {
    let (written, taken) = write_seed(job, seed, what, 1).map_err(key_file_error)?;
    progress(Progress::SeedSaved {
        path: &written,
        default_taken: taken.as_deref(),
    });
    Ok((written, taken))
}

/// The default key file for a fresh seed: `<out>.seed` when the first output is a regular
/// file (or a new one), else `<db stem>-<sha>.seed` beside the database, else
/// `dealdex-<sha>.seed` here.
fn default_key_path(job: &GenerateJob, seed: &Seed) -> PathBuf {
    let tag: String = seed.sha256()[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if let Some(out) = job.outputs.first().and_then(|o| o.path.as_ref())
        && std::fs::metadata(out).map(|m| m.is_file()).unwrap_or(true)
    {
        let mut s = out.clone().into_os_string();
        s.push(".seed");
        return s.into();
    }
    if let Some(db) = &job.db {
        let stem = db
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        return db.with_file_name(format!("{stem}-{tag}.seed"));
    }
    PathBuf::from(format!("dealdex-{tag}.seed"))
}

/// Boards numbered from `first`.
fn numbered(first: u64, deals: &[Deal]) -> Vec<Board> {
    deals
        .iter()
        .enumerate()
        .map(|(j, d)| Board::new(first + j as u64, *d))
        .collect()
}

/// A tournament set's boards and what making them took.
struct SetBoards {
    /// The set's boards, numbered `first..=last`.
    boards: Vec<Board>,
    /// With a filter, the deals drawn to find them ([`FoundDeals::drawn`]).
    drawn: Option<u64>,
    /// With a filter, the deals solved to find them ([`FoundDeals::solved`]).
    solved: Option<u64>,
}

/// Makes the boards `first..=last` of a tournament set: the stream's matching deals with a
/// filter, else the stream's (or Big Deal's first) boards.
fn make_set_boards(
    job: &GenerateJob,
    source: &Resolved,
    (first, last): (u64, u64),
    progress: &mut dyn FnMut(Progress),
) -> Result<SetBoards> {
    let count = last - first + 1;
    let boards = match (&source.bigdeal, &job.filter) {
        (None, Some(f)) => {
            let found = find_matching(job, &source.seed, (first, count), f, Mode::Set, progress)?;
            return Ok(SetBoards {
                boards: numbered(first, &found.deals),
                drawn: Some(found.drawn),
                solved: found.solved,
            });
        }
        // Big Deal's set is its stream's first boards, whatever its range's numbers.
        (Some(_), _) => read_set(source.source(None, 1, count), first, last)?
            .into_iter()
            .zip(first..)
            .map(|(b, n)| Board::new(n, b.deal))
            .collect(),
        (None, None) => read_set(
            source.source(job.predeal.as_ref(), first, count),
            first,
            last,
        )?,
    };
    Ok(SetBoards {
        boards,
        drawn: None,
        solved: None,
    })
}

/// Stores the made set `boards` (`first..=last`) in `store`: under the name given, else
/// under the first of `base`, `base-2`, … that is free or holds this very set. Returns the
/// name stored under and the outcome.
///
/// # Errors
/// The store failing; a name given that another set holds.
fn store_made_set(
    store: &mut Store,
    job: &GenerateJob,
    source: &Resolved,
    base: &str,
    (first, last): (u64, u64),
    boards: &[Board],
) -> Result<(String, SetOutcome)> {
    let keyed: Vec<(u64, DealIndex)> = boards
        .iter()
        .map(|b| (b.number.expect("numbered"), DealIndex::from_deal(&b.deal)))
        .collect();
    let (generator, sha) = set_source(source);
    let set = NewSet {
        name: base.to_owned(),
        first_board: first,
        last_board: last,
        scheme: source.scheme,
        generator,
        seed_sha256: Some(sha),
    };
    // A name given is stored as such (another set of that name is an error); the default is
    // chosen in the set's transaction (two runs at once get two names).
    Ok(match &job.name {
        Some(_) => (base.to_owned(), store.store_set(&set, &keyed)?),
        None => store.store_set_unique(&set, &keyed)?,
    })
}

/// A tournament set's default name: the job's, else the first output file's stem, else
/// `boards-A-B`.
fn set_name(job: &GenerateJob, (first, last): (u64, u64)) -> String {
    job.name.clone().unwrap_or_else(|| {
        job.outputs
            .first()
            .and_then(|o| o.path.as_ref())
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("boards-{first}-{last}"))
    })
}

/// A set's fresh seed moved from its temporary file to the key file named for the set as
/// stored (`name`, `base-k` when the store made the default `base` unique: the key file is
/// then the k-th name of the default, `s.pbn-2.seed` for set `s-2`); the key file and the
/// default name taken, as [`settle_seed`].
fn settle_set_seed(
    job: &GenerateJob,
    source: &Resolved,
    (base, name): (&str, &str),
    what: &str,
    pending: PendingSecret,
) -> Result<(PathBuf, Option<PathBuf>)> {
    let k = name
        .strip_prefix(base)
        .and_then(|t| t.strip_prefix('-'))
        .and_then(|t| t.parse::<u32>().ok())
        .filter(|_| job.name.is_none())
        .unwrap_or(1);
    settle_seed(job, &source.seed, what, k, pending)
}

/// A tournament set: made, rendered for every output, its seed saved, stored, written.
fn run_set(
    job: &GenerateJob,
    source: &Resolved,
    (first, last): (u64, u64),
    store: Option<&mut Store>,
    stdout: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> Result<GenerateReport> {
    let base = set_name(job, (first, last));
    let count = last - first + 1;
    let SetBoards {
        boards,
        drawn,
        solved,
    } = make_set_boards(job, source, (first, last), progress)?;
    // Every output rendered first, through a file sink that keeps the whole set: a
    // format's limit error must leave no trace. The event is the set's name, which the
    // store may yet make unique: rendered again if it does.
    let files = |name: &str| DealFiles {
        whole: true,
        ..job.writing.files(
            job.outputs.clone(),
            name,
            WriteOptions {
                first_board: first,
                last_board: last,
                scheme: source.scheme,
                boards: None,
                ..WriteOptions::default()
            },
            true,
        )
    };
    let prepared = prepare_set(files(&base), &boards, &mut *stdout)?;
    // A fresh seed waits in a private temporary file until the set has its name: then it
    // goes to the key file named for the set, and the temporary file is removed (it is
    // removed too when storing fails; it is kept when the key file cannot be written).
    let what = |name: &str| format!("set {name:?}, boards {first}-{last}");
    let pending = match source.fresh {
        true => {
            let at = seed_key_path(job, &source.seed);
            let text = seed_text(&what(&base), &source.seed, &at);
            Some(PendingSecret::write(&at, &text)?)
        }
        false => None,
    };
    let mut name = base.clone();
    let mut outcome = None;
    if let Some(store) = store {
        let (stored_as, o) = store_made_set(store, job, source, &base, (first, last), &boards)?;
        name = stored_as;
        outcome = Some(o);
    }
    let (seed_file, seed_file_taken) = match pending {
        Some(pending) => {
            let (path, taken) =
                settle_set_seed(job, source, (&base, &name), &what(&name), pending)?;
            progress(Progress::SeedSaved {
                path: &path,
                default_taken: taken.as_deref(),
            });
            (Some(path), taken)
        }
        None => (None, None),
    };
    let written = match name != base && job.writing.event.is_none() {
        true => {
            drop(prepared);
            prepare_set(files(&name), &boards, &mut *stdout)?.commit()?
        }
        false => prepared.commit()?,
    };
    Ok(GenerateReport {
        mode: Mode::Set,
        scheme: source.scheme.name(),
        first_board: first,
        last_board: last,
        deals: count,
        set: Some(SetReport {
            name,
            stored: outcome.is_some(),
            already_stored: outcome.as_ref().is_some_and(|o| o.already_stored),
        }),
        database: outcome.as_ref().and(job.db.clone()),
        new_deals: outcome.as_ref().map(|o| o.new_deals),
        duplicates: outcome.as_ref().map(|o| count - o.new_deals),
        drawn,
        solved,
        seed_file,
        seed_file_taken,
        files: written.files,
        seconds: 0.0,
    })
}

/// `boards` written to `files` and prepared, nothing in place yet
/// ([`FileSink::prepare`](crate::workflow::pipeline::FileSink::prepare)).
fn prepare_set<'o>(
    files: DealFiles,
    boards: &[Board],
    stdout: &'o mut dyn Write,
) -> Result<PreparedFiles<'o>> {
    let mut sink = files.open(stdout)?;
    sink.write(boards.to_vec())?;
    sink.prepare()
}

/// Every board of `source`, a set's `first..=last`.
fn read_set(source: DealSource, first: u64, last: u64) -> Result<Vec<Board>> {
    let read = source.open(None, &SourceOptions::default());
    match read.and_then(OpenSource::read_all) {
        Ok((boards, _)) => Ok(boards),
        Err(e) if matches!(e.kind(), ErrorKind::Exhausted { .. }) => {
            Err(GenerateKind::BigDealSetExhausted { first, last }.into())
        }
        Err(e) => Err(e),
    }
}

/// A bulk run's range and batch.
struct Bulk {
    start: u64,
    count: u64,
    batch: usize,
}

/// A bulk run's error: Big Deal's stream ending is [`GenerateKind::BigDealExhausted`].
fn bulk_error(e: Error) -> Error {
    match e.kind() {
        ErrorKind::Exhausted { .. } => GenerateKind::BigDealExhausted.into(),
        _ => e,
    }
}

/// What a bulk run adds to the report.
struct BulkDone {
    new_deals: Option<u64>,
    drawn: Option<u64>,
    solved: Option<u64>,
    files: Vec<ExportedFile>,
}

impl BulkDone {
    /// Moves the run's counts and files into the report.
    fn fill(self, report: &mut GenerateReport) {
        report.duplicates = self.new_deals.map(|n| report.deals - n);
        report.new_deals = self.new_deals;
        report.drawn = self.drawn;
        report.solved = self.solved;
        report.files = self.files;
    }
}

/// A bulk run without a filter: the stream ([`DealSource::Stream`]) into the outputs
/// ([`DealSink`], each piece formatted where it was made) and the store in batches of exactly
/// `batch` deals committed in stream order (after a kill the database holds deals
/// `start .. start + k·batch − 1` for some k).
fn run_bulk(
    job: &GenerateJob,
    source: &Resolved,
    run: &Bulk,
    store: &mut Option<&mut Store>,
    stdout: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> Result<BulkDone> {
    let last = run.start + (run.count - 1);
    let mut sink = bulk_sink(job, source.scheme, run.start, last).open(stdout)?;
    let renderer = sink.renderer();
    progress(Progress::Started {
        total: run.count,
        matching: false,
    });
    let want_keys = store.is_some();
    let mut batches = KeyBatches::new(run, want_keys);
    let mut generated = 0u64;
    let deals = source.source(job.predeal.as_ref(), run.start, run.count);
    let make = |boards: Vec<Board>| -> Result<(RenderedPiece, Vec<DealIndex>)> {
        let keys = match want_keys {
            true => boards
                .iter()
                .map(|b| DealIndex::from_deal(&b.deal))
                .collect(),
            false => Vec::new(),
        };
        Ok((renderer.render(boards)?, keys))
    };
    let mut take = |piece: Result<(RenderedPiece, Vec<DealIndex>)>| -> Result<bool> {
        let (piece, keys) = piece?;
        generated += piece.len as u64;
        sink.write_rendered(piece)?;
        if let Some(s) = store.as_deref_mut() {
            batches.add(s, &keys)?;
        }
        progress(Progress::Done(generated));
        Ok(true)
    };
    deals
        .open(None, &SourceOptions::default())
        .and_then(|d| d.read_with(&make, &mut take))
        .map_err(bulk_error)?;
    if let Some(s) = store.as_deref_mut() {
        batches.finish(s)?;
    }
    let files = sink.finish()?.files;
    progress(Progress::Finished);
    Ok(BulkDone {
        new_deals: store.is_some().then_some(batches.new_deals),
        drawn: None,
        solved: None,
        files,
    })
}

/// The keys of a bulk run on their way to the store, committed in batches of exactly
/// [`Bulk::batch`] deals in stream order.
struct KeyBatches {
    /// Keys not yet committed, in stream order.
    pending: Vec<DealIndex>,
    /// Deals a batch commits.
    batch: usize,
    /// Deals new to the database so far.
    new_deals: u64,
}

impl KeyBatches {
    /// No keys yet; room for a batch and a chunk when `storing`.
    fn new(run: &Bulk, storing: bool) -> KeyBatches {
        let pending = match storing {
            true => Vec::with_capacity(
                run.batch
                    .min(usize::try_from(run.count).unwrap_or(usize::MAX))
                    + CHUNK,
            ),
            false => Vec::new(),
        };
        KeyBatches {
            pending,
            batch: run.batch,
            new_deals: 0,
        }
    }

    /// Adds a chunk's keys and commits each whole batch they make.
    fn add(&mut self, store: &mut Store, keys: &[DealIndex]) -> Result<()> {
        self.pending.extend_from_slice(keys);
        while self.pending.len() >= self.batch {
            // The batch leaves `pending` without a copy, and the next one is collected in a
            // buffer of its final size (no doubling): memory holds about one batch of keys.
            let mut next = Vec::with_capacity(self.batch + CHUNK);
            next.extend_from_slice(&self.pending[self.batch..]);
            self.pending.truncate(self.batch);
            self.new_deals += store.insert_deals(std::mem::replace(&mut self.pending, next))?;
        }
        Ok(())
    }

    /// Commits the last batch, short of a whole one.
    fn finish(&mut self, store: &mut Store) -> Result<()> {
        if !self.pending.is_empty() {
            self.new_deals += store.insert_deals(std::mem::take(&mut self.pending))?;
        }
        Ok(())
    }
}

/// The outputs of a bulk run of deals `first..=last`: no event unless asked for.
fn bulk_sink(job: &GenerateJob, scheme: Scheme, first: u64, last: u64) -> DealFiles {
    let options = WriteOptions {
        first_board: first,
        last_board: last,
        scheme,
        ..WriteOptions::default()
    };
    job.writing.files(job.outputs.clone(), "", options, true)
}

/// A bulk run with a filter: the first `count` matching deals of the stream, numbered from
/// `start`, kept in memory (32 bytes a deal), then written and stored in batches.
fn run_filtered(
    job: &GenerateJob,
    source: &Resolved,
    run: &Bulk,
    filter: &Filter,
    store: &mut Option<&mut Store>,
    stdout: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> Result<BulkDone> {
    let found = find_matching(
        job,
        &source.seed,
        (run.start, run.count),
        filter,
        Mode::Bulk,
        progress,
    )?;
    let boards = numbered(run.start, &found.deals);
    let last = run.start + (run.count - 1);
    // Rendered before anything is stored: a format's limit leaves no trace.
    let mut sink = bulk_sink(job, source.scheme, run.start, last).open(stdout)?;
    sink.write(boards)?;
    let mut new_deals = None;
    if let Some(s) = store.as_deref_mut() {
        let keys: Vec<DealIndex> = found.deals.iter().map(DealIndex::from_deal).collect();
        let mut n = 0;
        for batch in keys.chunks(run.batch) {
            n += s.insert_deals(batch)?;
        }
        new_deals = Some(n);
    }
    let files = sink.finish()?.files;
    Ok(BulkDone {
        new_deals,
        drawn: Some(found.drawn),
        solved: found.solved,
        files,
    })
}

/// The first `count` deals of the stream from `first` on that match `filter`, drawing at most
/// [`GenerateJob::max_draws`] deals; reports [`Progress::Started`], then [`Progress::Done`]
/// and [`Progress::Drawn`] once a chunk, then [`Progress::Finished`] (also when the bound
/// is reached).
///
/// # Errors
/// [`GenerateKind::DrawLimit`] when fewer than `count` matched within the bound.
fn find_matching(
    job: &GenerateJob,
    seed: &Seed,
    (first, count): (u64, u64),
    filter: &Filter,
    mode: Mode,
    progress: &mut dyn FnMut(Progress),
) -> Result<FoundDeals> {
    progress(Progress::Started {
        total: count,
        matching: true,
    });
    let max_draws = job.max_draws.unwrap_or(u64::MAX);
    let stream = StreamSource {
        stream: DealStream::Seeded(*seed),
        first,
        count,
        predeal: job.predeal.clone(),
        filter: Some(StreamFilter {
            query: filter.query.clone(),
            max_draws: job.max_draws,
        }),
    };
    let found = stream.find(&mut |p| {
        progress(Progress::Done(p.matched));
        progress(Progress::Drawn {
            drawn: p.drawn,
            matched: p.matched,
        });
        true
    })?;
    progress(Progress::Finished);
    let matched = found.deals.len() as u64;
    if matched < count {
        return Err(GenerateKind::DrawLimit {
            drawn: found.drawn,
            matched,
            max_draws,
            mode,
            first_missing: first + matched,
            last: first + (count - 1),
            predeal: job.predeal.is_some(),
            names: DrawNames::Cli,
        }
        .into());
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 37, item 4: a `--where` that the predealt cards make impossible in a way the
    /// check of impossible queries does not see (North's 37 HCP leave East and South 3
    /// between them; each alone may hold 3, so the sum's range reaches 6) is stopped by the
    /// draw bound, and its error says to look at the predeal; one the check does see
    /// (`hcp(S) >= 10`) is refused before any draw. The default bound is the one without a
    /// predeal.
    #[test]
    fn where_impossible_with_the_predeal_stops_at_the_bound_naming_the_predeal() {
        let seed = Seed([7; 32]);
        let boards = Boards::Bulk {
            start: 1,
            count: 3,
            batch: DEFAULT_BATCH,
        };
        let outputs = boards
            .outputs(&[PathBuf::from("-")], Some("hex"))
            .expect("stdout as hex");
        let mut job = GenerateJob::bulk(1, 3, Source::Seed(seed), outputs);
        assert_eq!(job.max_draws, Some(DEFAULT_MAX_DRAWS));
        job.predeal = Some(Predeal::parse("N:AKQJ.AKQ.AKQ.AKQ").expect("a predeal"));
        job.filter = Some(Filter::parse("hcp(S) >= 10").expect("a query"));
        let e = run(&job, None, &mut Vec::new(), &mut |_| {}).expect_err("refused");
        assert!(
            matches!(
                e.kind(),
                ErrorKind::Generate(GenerateKind::NeverMatches { .. })
            ),
            "{e}"
        );
        job.filter = Some(Filter::parse("hcp(S) + hcp(E) >= 4").expect("a query"));
        job.max_draws = Some(50_000);
        let mut out = Vec::new();
        let e = run(&job, None, &mut out, &mut |_| {}).expect_err("no deal matches");
        assert!(out.is_empty());
        assert!(
            matches!(
                e.kind(),
                ErrorKind::Generate(GenerateKind::DrawLimit {
                    drawn: 50_000,
                    matched: 0,
                    predeal: true,
                    ..
                })
            ),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "--where matched none of the 50,000 deals drawn; stopped at --max-draws 50000 with \
             matching deals 1-3 not made; nothing was stored or written (raise --max-draws, 0 \
             for no bound, or loosen the query); with --predeal, check that the query can hold \
             at all with the predealt cards: the check that refuses an impossible query at \
             once bounds each term alone"
        );
        assert_eq!(crate::Classify::class(&e), ErrorClass::BadInput);
    }
}
