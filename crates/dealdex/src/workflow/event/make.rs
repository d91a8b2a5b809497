//! Making an event's deals: sessions into hand-record files and stored sets
//! (SQUAREDEAL.md §3, docs/event-protocol.md §5).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{EventFiles, EventKind, blamed};
use crate::event::{self, Boards, ErrorKind, Event, Keys, Protocol, SessionId};
use crate::formats::{self, Board, DealFormat, WriteOptions};
use crate::workflow::output::Output;
use crate::workflow::pipeline::{DealFiles, DealSink, PreparedFiles, Written, commit_all};
use crate::{DealIndex, Error, NewSet, Result, Scheme, Store};

/// The most boards one `make` run makes: they are all made and rendered in memory before
/// anything is written or stored.
pub const MAX_RUN_BOARDS: u64 = 1_000_000;

/// Which sessions to make, into which files and which database. With the `clap` feature,
/// the arguments but the sessions, boards, formats and database ([`MakeOptions`] holds
/// those as typed).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct MakeJob {
    /// The description file and the key file.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub event: EventFiles,
    /// Only this phase (1-based, in SN order); default: every phase (those that need boards
    /// or sessions given are skipped with a note).
    #[cfg_attr(feature = "clap", arg(long, value_name = "P"))]
    pub phase: Option<u32>,
    /// Only sessions `A..=B` of [`MakeJob::phase`] (required for a variable phase); see
    /// [`parse_sessions`].
    #[cfg_attr(feature = "clap", arg(skip))]
    pub sessions: Option<(u32, u32)>,
    /// Make the sessions' reserve sets (files `<name>reserve.*`) instead.
    #[cfg_attr(feature = "clap", arg(long))]
    pub reserve: bool,
    /// The boards of a phase whose SN line says `?`; see [`parse_boards`].
    #[cfg_attr(feature = "clap", arg(skip))]
    pub boards: Option<Boards>,
    /// Directory for the files (created if missing): `<session name>.<extension>` for each
    /// format.
    #[cfg_attr(feature = "clap", arg(long, short, value_name = "DIR"))]
    pub out: PathBuf,
    /// The formats to write, in order (at least one).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub formats: Vec<&'static dyn DealFormat>,
    /// The database to store each session in as a set `<description file stem>/<session
    /// name>`; `None`: store nothing. It is opened (and created) only once every session is
    /// made and every file rendered.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub db: Option<PathBuf>,
}

/// `dealdex event make`'s options as typed: the job's own, and the sessions, boards and
/// formats as given. With the `clap` feature they derive `clap::Args`, their doc comments the
/// help; [`MakeOptions::job`] parses them.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct MakeOptions {
    /// The description and key files, the phase, the reserve sets, the directory.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub job: MakeJob,
    /// Only these sessions of --phase: S or A-B (required for a variable phase).
    #[cfg_attr(feature = "clap", arg(long, value_name = "S", requires = "phase"))]
    pub session: Option<String>,
    /// Boards of a phase whose SN line says ?: N, a-b or a list cycled over the sessions.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub boards: Option<String>,
    /// The formats' registry names (default: pbn).
    #[cfg_attr(feature = "clap", arg(long = "to", short = 'f', visible_alias = "format",
        value_name = "FORMAT", help = crate::workflow::output::to_help(Some("pbn; repeatable"))))]
    pub format: Vec<String>,
}

impl MakeOptions {
    /// The job storing in `db` (`None`: nothing stored): the sessions ([`parse_sessions`]),
    /// the boards ([`parse_boards`]) and the formats (by name; none: pbn) parsed.
    ///
    /// # Errors
    /// [`parse_sessions`]', [`parse_boards`]' errors; an unknown format name.
    pub fn job(&self, db: Option<PathBuf>) -> Result<MakeJob> {
        let pbn = ["pbn".to_owned()];
        let names = if self.format.is_empty() {
            &pbn[..]
        } else {
            &self.format[..]
        };
        Ok(MakeJob {
            sessions: self.session.as_deref().map(parse_sessions).transpose()?,
            boards: self.boards.as_deref().map(parse_boards).transpose()?,
            formats: names
                .iter()
                .map(|f| formats::named(f))
                .collect::<std::result::Result<_, _>>()?,
            db,
            ..self.job.clone()
        })
    }
}

/// One session made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MadeSession {
    /// Phase, 1-based.
    pub phase: u32,
    /// Session, 1-based.
    pub session: u32,
    /// Its file name without extension (`OPRR01`, `R162reserve`).
    pub name: String,
    /// Its first board number.
    pub first_board: u64,
    /// Its last board number.
    pub last_board: u64,
    /// SHA-256 of the seed its deals come from, 64 lowercase hex digits (stored with the
    /// set).
    pub seed_sha256: String,
    /// The set it was stored as, when a database was given.
    pub set: Option<StoredSet>,
}

/// A session's set in the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoredSet {
    /// The set's name, `<description file stem>/<session name>`.
    pub name: String,
    /// True when the same set (same deals) was already stored: nothing changed.
    pub already_stored: bool,
    /// Deals new to the database.
    pub new_deals: u64,
}

/// One file written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MadeFile {
    /// The file.
    pub path: PathBuf,
    /// The format's registry name (`pbn`, `dup`, …).
    pub format: &'static str,
    /// Boards in it.
    pub boards: u64,
    /// Its size in bytes.
    pub bytes: u64,
}

/// What `make` did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MakeReport {
    /// The description file.
    pub file: PathBuf,
    /// DV the deals were made with.
    pub delayed_value: String,
    /// Phases skipped (no `--phase` given) and why.
    pub notes: Vec<String>,
    /// The sessions made, in order.
    pub sessions: Vec<MadeSession>,
    /// Boards made, all sessions together.
    pub boards: u64,
    /// The output directory.
    pub out: PathBuf,
    /// The files written, session by session, format by format.
    pub files: Vec<MadeFile>,
    /// The database, when one was given.
    pub db: Option<PathBuf>,
    /// Sets stored new.
    pub sets_stored: u64,
    /// Sets that were already stored with the same deals.
    pub sets_already_stored: u64,
    /// Deals new to the database.
    pub new_deals: u64,
}

/// Parses `--session`: `S` or `A-B` with 1 ≤ A ≤ B.
///
/// # Errors
/// [`EventKind::Sessions`] naming the part that is wrong.
pub fn parse_sessions(s: &str) -> Result<(u32, u32)> {
    let fail = |problem: String| EventKind::Sessions {
        spec: s.to_owned(),
        problem,
    };
    let num = |t: &str| {
        t.parse::<u32>()
            .map_err(|_| fail(format!("{t:?} is not a session number")))
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if a == 0 || b < a {
        return Err(fail("expected S or A-B with 1 <= A <= B".into()).into());
    }
    Ok((a, b))
}

/// Parses `--boards` for a `?` phase: `N`, `a-b` or a list cycled over the sessions
/// (SQUAREDEAL.md §2); `?` itself is refused.
///
/// # Errors
/// [`EventKind::BoardsUnknown`] for `?`, [`EventKind::Boards`] for anything else
/// that is no board list.
pub fn parse_boards(s: &str) -> Result<Boards> {
    match s {
        "?" => Err(EventKind::BoardsUnknown.into()),
        t => Ok(Boards::parse(t).map_err(EventKind::Boards)?),
    }
}

/// Sessions to make, each with its first and last board.
type Plan = Vec<(SessionId, (u64, u64))>;

/// The sessions the job asks for, with each one's boards; phases it cannot make without
/// more options are skipped with a note when no phase was given.
fn plan_sessions(job: &MakeJob, ev: &Event, notes: &mut Vec<String>) -> Result<Plan> {
    if job.boards == Some(Boards::Unknown) {
        return Err(EventKind::BoardsUnknown.into());
    }
    let phases: Vec<u32> = match job.phase {
        Some(p) => {
            ev.phase(p).map_err(EventKind::Request)?;
            vec![p]
        }
        None => (1..=ev.phases.len() as u32).collect(),
    };
    let mut out = Vec::new();
    let mut total = 0u64;
    for p in phases {
        let phase = &ev.phases[p as usize - 1];
        let prefix = || phase.prefix.clone();
        let explicit = job.phase.is_some();
        let boards = match (&phase.boards, &job.boards) {
            (Boards::Unknown, Some(b)) => b.clone(),
            (Boards::Unknown, None) if explicit => {
                return Err(EventKind::PhaseNeedsBoards {
                    phase: p,
                    prefix: prefix(),
                }
                .into());
            }
            (Boards::Unknown, None) => {
                notes.push(format!(
                    "phase {p} ({}) skipped: its boards are ?, make it on its own with its number of boards",
                    phase.prefix
                ));
                continue;
            }
            (b, Some(_)) if explicit => {
                return Err(EventKind::PhaseBoardsFixed {
                    phase: p,
                    prefix: prefix(),
                    boards: b.to_string(),
                }
                .into());
            }
            (b, _) => b.clone(),
        };
        let (s0, s1) = match job.sessions {
            Some(s) => s,
            None if phase.is_variable() && explicit => {
                return Err(EventKind::PhaseNeedsSessions {
                    phase: p,
                    prefix: prefix(),
                }
                .into());
            }
            None if phase.is_variable() => {
                notes.push(format!(
                    "phase {p} ({}) skipped: it has a variable number of sessions, make it on its own, a session or a range at a time",
                    phase.prefix
                ));
                continue;
            }
            None => (1, phase.sessions),
        };
        if !phase.has_session(s1) {
            return Err(EventKind::NoSuchSession {
                phase: p,
                prefix: prefix(),
                sessions: phase.sessions,
                session: s1,
            }
            .into());
        }
        for s in s0..=s1 {
            let range = boards.range(s).expect("ranges");
            total += range.1 - range.0 + 1;
            if total > MAX_RUN_BOARDS {
                return Err(EventKind::TooManyBoards {
                    phase: p,
                    prefix: prefix(),
                    first: s0,
                    last: s1,
                }
                .into());
            }
            out.push((
                SessionId {
                    phase: p,
                    session: s,
                },
                range,
            ));
        }
    }
    if out.is_empty() {
        return Err(EventKind::NothingToMake {
            notes: notes.clone(),
        }
        .into());
    }
    Ok(out)
}

/// One session made in memory: its id, file name, boards and seed.
struct Made {
    id: SessionId,
    name: String,
    first: u64,
    last: u64,
    boards: Vec<Board>,
    seed_sha256: [u8; 32],
}

/// Makes the deals of the job's sessions (SQUAREDEAL.md §3; docs/event-protocol.md §5)
/// after checking the keys against KH (and, dealdex protocol, each key against its SH
/// line), writes each session in every format to `<out>/<session name>.<extension>` (each
/// file replaced whole) and stores it as a set `<stem>/<session name>` (scheme `bigdeal`
/// for SquareDeal, `pavlicek` for the dealdex protocol, with the seed's SHA-256). Every
/// session is made and rendered, and every stored set of the same name compared, before
/// anything is written or stored; making the same sessions again stores nothing new.
///
/// # Errors
/// Before anything is written: [`EventKind::Read`]/[`EventKind::Malformed`] (the
/// description or key file), [`EventKind::Event`] (no KH, no DV, a session it cannot
/// make), [`EventKind::Keys`] (keys that do not match, naming the file at fault and
/// the session), the planning variants ([`EventKind::Request`],
/// [`EventKind::PhaseNeedsBoards`], [`EventKind::PhaseBoardsFixed`],
/// [`EventKind::PhaseNeedsSessions`], [`EventKind::NoSuchSession`],
/// [`EventKind::TooManyBoards`], [`EventKind::NothingToMake`]),
/// [`EventKind::Render`], [`EventKind::SetConflict`],
/// [`EventKind::OutNotDirectory`], [`EventKind::NotAFile`]. After: [`EventKind::Write`]
/// (files before it are written) and [`ErrorKind::Store`](crate::ErrorKind::Store).
pub fn make(job: &MakeJob) -> Result<MakeReport> {
    let (ev, keys, keys_path) = job.event.read()?;
    if ev.key_hash.is_none() {
        return Err(event_error(job, ErrorKind::NotPublished.into()).into());
    }
    if ev.delayed_value.is_none() {
        return Err(event_error(job, ErrorKind::NoValue.into()).into());
    }
    ev.check_keys(&keys).map_err(|error| EventKind::Keys {
        path: blamed(&error, &job.event.file, &keys_path).to_owned(),
        error,
    })?;
    let mut notes = Vec::new();
    let plan = plan_sessions(job, &ev, &mut notes)?;
    let stem = (job.event.file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();

    // Make and render everything before anything is written or stored.
    let made = make_sessions(job, &ev, &keys, plan)?;
    let mut outs: Vec<std::io::Sink> = made.iter().map(|_| std::io::sink()).collect();
    let prepared = prepare_files(job, &ev, &made, &mut outs)?;
    let sets = new_sets(&ev, &stem, &made);

    let mut store = match &job.db {
        Some(p) => Some(Store::open(p)?),
        None => None,
    };
    if let (Some(p), Some(store)) = (&job.db, &store) {
        check_stored_sets(store, p, &sets)?;
    }
    let written = write_files(job, &made, prepared)?;
    let mut report = MakeReport {
        file: job.event.file.clone(),
        delayed_value: ev.delayed_value.clone().unwrap_or_default(),
        notes,
        sessions: Vec::new(),
        boards: made.iter().map(|m| m.boards.len() as u64).sum(),
        out: job.out.clone(),
        files: written
            .iter()
            .flat_map(|w| &w.files)
            .map(|f| MadeFile {
                path: f.path.clone().unwrap_or_default(),
                format: f.format,
                boards: f.boards,
                bytes: f.bytes,
            })
            .collect(),
        db: job.db.clone(),
        sets_stored: 0,
        sets_already_stored: 0,
        new_deals: 0,
    };
    for (m, (set, boards)) in made.iter().zip(&sets) {
        let stored = match &mut store {
            Some(store) => Some(store_set(store, set, boards, &mut report)?),
            None => None,
        };
        report.sessions.push(MadeSession {
            phase: m.id.phase,
            session: m.id.session,
            name: m.name.clone(),
            first_board: m.first,
            last_board: m.last,
            seed_sha256: hex::encode(m.seed_sha256),
            set: stored,
        });
    }
    Ok(report)
}

/// The description file's `error`.
fn event_error(job: &MakeJob, error: event::Error) -> EventKind {
    EventKind::Event {
        path: job.event.file.clone(),
        error,
    }
}

/// Makes the deals of every session of `plan`, in memory, with each one's seed.
///
/// # Errors
/// [`EventKind::Request`] and [`EventKind::Event`] for a session the event cannot
/// make.
fn make_sessions(job: &MakeJob, ev: &Event, keys: &Keys, plan: Plan) -> Result<Vec<Made>> {
    let mut made = Vec::new();
    for (id, (first, last)) in plan {
        let name = ev
            .session_name(id, job.reserve)
            .map_err(EventKind::Request)?;
        let deals = ev
            .session_deals(keys, id, job.reserve, last - first + 1)
            .map_err(|error| event_error(job, error))?;
        let phase = ev.phase(id.phase).map_err(EventKind::Request)?;
        let key = keys
            .get(SessionId {
                phase: id.phase,
                session: phase.key_session(id.session),
            })
            .expect("checked by session_deals");
        let seed_sha256 = ev
            .derivation(id, key, job.reserve)
            .map_err(EventKind::Request)?
            .seed_sha256();
        made.push(Made {
            id,
            name,
            first,
            last,
            boards: deals
                .iter()
                .enumerate()
                .map(|(j, d)| Board::new(first + j as u64, *d))
                .collect(),
            seed_sha256,
        });
    }
    Ok(made)
}

/// The file of session `m` in format `f`: `<out>/<session name>.<extension>`.
fn session_path(job: &MakeJob, m: &Made, f: &dyn DealFormat) -> PathBuf {
    job.out
        .join(format!("{}.{}", m.name, f.info().extensions[0]))
}

/// Every session made, written in every format of the job through a file sink each (the
/// session's own event name and boards) and prepared: rendered, nothing written yet.
///
/// # Errors
/// [`EventKind::Render`] naming the file a format cannot write.
fn prepare_files<'o>(
    job: &MakeJob,
    ev: &Event,
    made: &[Made],
    outs: &'o mut [std::io::Sink],
) -> Result<Vec<PreparedFiles<'o>>> {
    let mut prepared = Vec::with_capacity(made.len());
    for (m, out) in made.iter().zip(outs) {
        let phase = &ev.phases[m.id.phase as usize - 1];
        let options = WriteOptions {
            event: format!(
                "{}: {}",
                ev.name.as_deref().unwrap_or(""),
                phase.session_description(m.id.session)
            ),
            blind: false,
            first_board: m.first,
            last_board: m.last,
            scheme: scheme_of(ev.protocol),
            boards: None,
        };
        let outputs = job
            .formats
            .iter()
            .map(|&format| Output {
                path: Some(session_path(job, m, format)),
                format,
            })
            .collect();
        let files = DealFiles {
            bounds_given: true,
            whole: true,
            ..DealFiles::new(outputs, options)
        };
        let rendered = files.open(out).and_then(|mut sink| {
            sink.write(m.boards.clone())?;
            sink.prepare()
        });
        prepared.push(rendered.map_err(|e| sink_error(e, &job.out))?);
    }
    Ok(prepared)
}

/// A session's set to store, with its boards' numbers and keys.
type SessionSet = (NewSet, Vec<(u64, DealIndex)>);

/// The sets the sessions made are stored as, `<stem>/<session name>`.
fn new_sets(ev: &Event, stem: &str, made: &[Made]) -> Vec<SessionSet> {
    made.iter()
        .map(|m| {
            (
                NewSet {
                    name: format!("{stem}/{}", m.name),
                    first_board: m.first,
                    last_board: m.last,
                    scheme: scheme_of(ev.protocol),
                    generator: format!(
                        "dealdex {} ({} event)",
                        env!("CARGO_PKG_VERSION"),
                        ev.protocol
                    ),
                    seed_sha256: Some(m.seed_sha256),
                },
                m.boards
                    .iter()
                    .map(|b| (b.number.expect("numbered"), DealIndex::from_deal(&b.deal)))
                    .collect(),
            )
        })
        .collect()
}

/// Checks that no set of the same name is stored with other deals (another DV, other
/// keys): that stops everything before anything is stored.
///
/// # Errors
/// [`EventKind::SetConflict`], or the store's error.
fn check_stored_sets(store: &Store, db: &Path, sets: &[SessionSet]) -> Result<()> {
    for (set, boards) in sets {
        if let Some(info) = store.set(&set.name)? {
            let mut ours = boards.clone();
            ours.sort_unstable();
            if info.seed_sha256 != set.seed_sha256 || store.set_boards(&set.name)? != ours {
                return Err(EventKind::SetConflict {
                    db: db.to_owned(),
                    set: set.name.clone(),
                }
                .into());
            }
        }
    }
    Ok(())
}

/// Writes the prepared files into the job's directory (created if missing), all or none
/// ([`commit_all`]: each staged beside its target, all renamed once all are written).
///
/// # Errors
/// Before anything is written: [`EventKind::OutNotDirectory`],
/// [`EventKind::NotAFile`]. After: [`EventKind::Write`] (no file replaced; the
/// directory stays created).
fn write_files(
    job: &MakeJob,
    made: &[Made],
    prepared: Vec<PreparedFiles<'_>>,
) -> Result<Vec<Written>> {
    // Something other than a file in the way stops everything before anything is written
    // or stored.
    if job.out.exists() && !job.out.is_dir() {
        return Err(EventKind::OutNotDirectory {
            path: job.out.clone(),
        }
        .into());
    }
    let paths = made
        .iter()
        .flat_map(|m| job.formats.iter().map(move |&f| session_path(job, m, f)));
    if let Some(path) = paths.into_iter().find(|p| p.exists() && !p.is_file()) {
        return Err(EventKind::NotAFile { path }.into());
    }
    std::fs::create_dir_all(&job.out).map_err(|error| EventKind::Write {
        path: job.out.clone(),
        error,
    })?;
    commit_all(prepared).map_err(|e| sink_error(e, &job.out))
}

/// A sink's error as the event's: a render naming its file, a write naming its file (`out`
/// for standard output); the other kinds as they are.
fn sink_error(e: Error, out: &std::path::Path) -> Error {
    match e.into_kind() {
        crate::ErrorKind::Render { output, error, .. } => EventKind::Render {
            path: PathBuf::from(output),
            error,
        }
        .into(),
        crate::ErrorKind::Write { path, error } => EventKind::Write {
            path: path.unwrap_or_else(|| out.to_owned()),
            error,
        }
        .into(),
        kind => kind.into(),
    }
}

/// Stores one session's set (nothing new when the same set is already stored) and counts it
/// in `report`.
///
/// # Errors
/// The store's error.
fn store_set(
    store: &mut Store,
    set: &NewSet,
    boards: &[(u64, DealIndex)],
    report: &mut MakeReport,
) -> Result<StoredSet> {
    let o = store.store_set(set, boards)?;
    let new_deals = if o.already_stored { 0 } else { o.new_deals };
    if o.already_stored {
        report.sets_already_stored += 1;
    } else {
        report.sets_stored += 1;
        report.new_deals += new_deals;
    }
    Ok(StoredSet {
        name: set.name.clone(),
        already_stored: o.already_stored,
        new_deals,
    })
}

impl MakeJob {
    /// A job making every session of `file` (keys beside it) into `out` as PBN, storing
    /// nothing.
    pub fn new(file: &Path, out: &Path) -> MakeJob {
        MakeJob {
            event: EventFiles::new(file),
            phase: None,
            sessions: None,
            reserve: false,
            boards: None,
            out: out.to_owned(),
            formats: vec![formats::by_name("pbn").expect("pbn is registered")],
            db: None,
        }
    }
}

/// The numbering scheme of an event's sets: Big Deal's for SquareDeal events (their deals are
/// bigdealx's), Pavlicek's otherwise.
fn scheme_of(protocol: Protocol) -> Scheme {
    match protocol {
        Protocol::SquareDeal => Scheme::BigDeal,
        _ => Scheme::Pavlicek,
    }
}
