//! Verifying an event as a third party: KH, the keys, the published copy and hand records
//! (SQUAREDEAL.md §4, docs/event-protocol.md §6).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{EventFiles, EventKind, MAX_RUN_BOARDS, blamed, read_event};
use crate::event::{self, Event, FileMatch, Keys, NameMatch, Protocol, SessionId};
use crate::formats::{self, Board};
use crate::workflow::pipeline::{DealSource, FileSource, ReadAs, SourceOptions};
use crate::{Deal, Result};

/// What to verify (with the `clap` feature, the arguments but `read`: the binary resolves
/// `--from` itself).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct VerifyJob {
    /// The event's final description file (with DV) and its key file.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub event: EventFiles,
    /// The description file as published before the event: TN, DI, SN and KH (and, dealdex
    /// protocol, PV, VF and SH) must be the same.
    #[cfg_attr(feature = "clap", arg(long, value_name = "ORIGINAL.sqd"))]
    pub published: Option<PathBuf>,
    /// Hand records (deal files of any format dealdex reads) and directories of them.
    #[cfg_attr(feature = "clap", arg(required = true, value_name = "FILES_OR_DIR"))]
    pub files: Vec<PathBuf>,
    /// How the hand records are read: the default tells each file's format by its
    /// extension, else by its content.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub read: ReadAs,
    /// dealdex protocol: the key file holds only the sessions revealed so far; each key
    /// given must match its commitment (SH), and sessions without a key are not checked
    /// (docs/event-protocol.md §6).
    #[cfg_attr(feature = "clap", arg(long))]
    pub partial: bool,
}

/// The check of KH against the keys (SQUAREDEAL.md §4 step 3, docs/event-protocol.md §6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum KeyHashCheck {
    /// The description file has no KH: nothing commits to the keys (a problem).
    Missing,
    /// Dealdex protocol: KH is the manifest's SHA-256 and every key given matches its SH line.
    Committed {
        /// KH, 64 lowercase hex digits.
        key_hash: String,
    },
    /// SquareDeal: KH is SHA-256 of the key file.
    KeyFile {
        /// KH, 64 lowercase hex digits.
        key_hash: String,
        /// The file's line ends are not CRLF: the hash is over its CRLF form, as SquareDeal
        /// allows.
        crlf_form: bool,
    },
    /// KH does not match (the problem says what, naming the file at fault or the session).
    Failed {
        /// The problem, as in [`VerifyReport::problems`].
        problem: String,
    },
}

/// Which sessions have keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeysCheck {
    /// [`VerifyJob::partial`].
    pub partial: bool,
    /// Keys in the key file.
    pub given: usize,
    /// Keys for sessions of the event.
    pub revealed: usize,
    /// Sessions (and variable phases) the event has keys for.
    pub sessions: usize,
    /// Sessions without a key (`P,S`); a problem unless partial.
    pub missing: Vec<String>,
    /// Keys for sessions the event does not have (`P,S`).
    pub extra: Vec<String>,
}

/// The comparison with the published copy (SQUAREDEAL.md §4 steps 1–2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublishedCheck {
    /// The published copy.
    pub path: PathBuf,
    /// One line per difference (each also a problem); empty: unchanged.
    pub differences: Vec<String>,
}

/// The session or sessions a hand-record file holds, by its name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileSession {
    /// Phase, 1-based.
    pub phase: u32,
    /// First session held.
    pub first: u32,
    /// Last session held (greater than `first` for a joined file such as `SWISS01-03`).
    pub last: u32,
    /// A reserve set.
    pub reserve: bool,
    /// The session's (or joined) file name.
    pub name: String,
}

impl FileSession {
    /// `P,S`, or `P,A-B` for a joined file.
    pub fn label(&self) -> String {
        if self.first == self.last {
            format!("{},{}", self.phase, self.first)
        } else {
            format!("{},{}-{}", self.phase, self.first, self.last)
        }
    }
}

/// What became of one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum FileOutcome {
    /// Its name is no session of the event: not checked, not a failure.
    NotASession,
    /// A session's file that could not be checked (no DV, boards of a `?` session unknown,
    /// too many boards): a failure.
    NotChecked {
        /// Why.
        reason: String,
    },
    /// Every board matches, and the count.
    Verified,
    /// The file differs from the event.
    Differs {
        /// Boards the event makes for the file's sessions.
        expected_boards: usize,
        /// The first difference.
        mismatch: event::Mismatch,
    },
}

/// One hand-record file checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileCheck {
    /// The file.
    pub path: PathBuf,
    /// The sessions it holds; `None`: its name is no session of the event.
    pub session: Option<FileSession>,
    /// Boards in the file, when compared.
    pub boards: Option<usize>,
    /// Boards that match the event's, position by position, when compared.
    pub matches: Option<usize>,
    /// The outcome.
    #[serde(flatten)]
    pub outcome: FileOutcome,
}

impl FileCheck {
    /// False for a file that is a session's and was not verified.
    pub fn ok(&self) -> bool {
        matches!(
            self.outcome,
            FileOutcome::NotASession | FileOutcome::Verified
        )
    }
}

/// What `verify` found. The event verifies when [`VerifyReport::problems`] is empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// The description file.
    pub file: PathBuf,
    /// TN.
    pub name: Option<String>,
    /// The protocol's name.
    pub protocol: &'static str,
    /// The key file.
    pub keys_file: PathBuf,
    /// KH against the keys.
    pub key_hash: KeyHashCheck,
    /// Which sessions have keys.
    pub keys: KeysCheck,
    /// The comparison with the published copy, when one was given (else TN, DI, SN and KH
    /// are taken on trust).
    pub published: Option<PublishedCheck>,
    /// DV (a problem when missing: no deal can be checked).
    pub delayed_value: Option<String>,
    /// VF (dealdex protocol).
    pub value_format: Option<String>,
    /// base64(DV), which SquareDeal feeds its entropy (SquareDeal protocol, with DV).
    pub value_base64: Option<String>,
    /// DI, which DV must render faithfully (a check for a person).
    pub delayed_info: Option<String>,
    /// Every file given (directories replaced by their deal files, by name), in order.
    pub files: Vec<FileCheck>,
    /// Files that are sessions' (joined ones included).
    pub session_files: usize,
    /// Joined files (`SWISS01-03`).
    pub joined_files: usize,
    /// Boards compared.
    pub boards_compared: usize,
    /// Boards were compared and not one matches (another DV or other keys?).
    pub no_board_matches: bool,
    /// Sessions of the event's fixed phases.
    pub sessions: u64,
    /// Of those, sessions whose own or joined file verified.
    pub sessions_verified: u64,
    /// Of those, sessions without a file that verified.
    pub sessions_without_file: u64,
    /// Everything that failed, one line each, in order (the first ones are about KH, the
    /// keys, the published copy and DV; then the files).
    pub problems: Vec<String>,
}

impl VerifyReport {
    /// True when nothing failed.
    pub fn verified(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The hand-record files named: files as given, directories replaced by the deal files in
/// them (by extension), sorted by name.
/// The files to verify: each argument that is a file (`true`: named, so it must match a
/// session), and the deal files of each directory argument, sorted (`false`).
///
/// # Errors
/// [`EventKind::Read`] for an argument that does not exist or cannot be read, or a
/// directory that cannot be listed.
fn collect_files(args: &[PathBuf]) -> Result<Vec<(PathBuf, bool)>> {
    let mut out = Vec::new();
    for p in args {
        if let Err(error) = std::fs::metadata(p) {
            return Err(EventKind::Read {
                path: p.clone(),
                error,
            }
            .into());
        }
        if p.is_dir() {
            let mut here: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|error| EventKind::Read {
                    path: p.clone(),
                    error,
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && formats::by_path(f).is_some())
                .collect();
            here.sort();
            out.extend(here.into_iter().map(|f| (f, false)));
        } else {
            out.push((p.clone(), true));
        }
    }
    Ok(out)
}

/// Compares the published copy's TN, DI, SN and KH (and PV, VF, SH) with the final file's
/// (SQUAREDEAL.md §4, steps 1–2); returns one line per difference.
fn compare_published(ev: &Event, orig: &Event) -> Vec<String> {
    let mut out = Vec::new();
    let field = |what: &str, a: &Option<String>, b: &Option<String>, out: &mut Vec<String>| {
        if a != b {
            out.push(format!(
                "{what} differs from the published copy: published {b:?}, now {a:?}"
            ));
        }
    };
    if ev.protocol != orig.protocol {
        out.push(format!(
            "the protocol differs from the published copy: published {}, now {}",
            orig.protocol, ev.protocol
        ));
    }
    if ev.value_format != orig.value_format {
        out.push(format!(
            "VF differs from the published copy: published {:?}, now {:?}",
            orig.value_format.map(|f| f.to_string()),
            ev.value_format.map(|f| f.to_string())
        ));
    }
    if ev.key_commitments != orig.key_commitments {
        out.push("SH lines differ from the published copy".into());
    }
    field("TN", &ev.name, &orig.name, &mut out);
    field("DI", &ev.delayed_info, &orig.delayed_info, &mut out);
    let sn = |e: &Event| e.phases.iter().map(|p| p.text.clone()).collect::<Vec<_>>();
    let (now, then) = (sn(ev), sn(orig));
    if now != then {
        let first = (0..now.len().max(then.len()))
            .find(|&i| now.get(i) != then.get(i))
            .unwrap_or(0);
        out.push(format!(
            "SN lines differ from the published copy: phase {}: published {:?}, now {:?}",
            first + 1,
            then.get(first).map(|s| format!("SN {s}")),
            now.get(first).map(|s| format!("SN {s}"))
        ));
    }
    match (orig.key_hash, ev.key_hash) {
        (None, _) => out.push("the published copy has no KH: it commits to nothing".into()),
        (Some(a), Some(b)) if a == b => {}
        (Some(a), b) => out.push(format!(
            "KH differs from the published copy: published {}, now {}",
            hex::encode(a),
            b.map_or("none".to_string(), hex::encode)
        )),
    }
    out
}

/// A hand record read, with the sessions its name says it holds.
type Input<'p> = (&'p Path, Option<FileMatch>, Option<Vec<Board>>);

/// A session of a phase, main or reserve set: `(phase, session, reserve)`.
type SessionKey = (u32, u32, bool);

/// Verifies an event as a third party (SQUAREDEAL.md §4; docs/event-protocol.md §6): KH
/// against the key file (SquareDeal) or the manifest and each key against its SH line
/// (dealdex protocol), that every session has a key (unless partial), the published copy's
/// committed lines, DV against VF, and each hand record — matched to its session or
/// joined sessions by name (`<prefix>.<ext>`, `<prefix>reserve.<ext>`, `SWISS01-03.pbn`) —
/// board by board in file order against the deals the event makes. A `?` phase takes each
/// session's board count from its own file.
///
/// Failed checks are the report's [`VerifyReport::problems`], not errors.
///
/// # Errors
/// Unreadable input only: [`EventKind::Read`]/[`EventKind::Malformed`] (the
/// description file, the key file, the published copy or a directory),
/// the deal pipeline's read errors for a hand record whose name matches a session,
/// [`EventKind::PartialNeedsDealdex`]. Every matched file is read before anything is
/// compared.
pub fn verify(job: &VerifyJob) -> Result<VerifyReport> {
    let (ev, keys, keys_path) = job.event.read()?;
    let published = match &job.published {
        Some(p) => Some(read_event(p)?.1),
        None => None,
    };
    let paths = collect_files(&job.files)?;
    let mut problems: Vec<String> = Vec::new();
    let inputs = read_inputs(&ev, &paths, job.read, &mut problems)?;
    if job.partial && ev.protocol != Protocol::Dealdex {
        return Err(EventKind::PartialNeedsDealdex {
            path: job.event.file.clone(),
        }
        .into());
    }

    let key_hash = check_key_hash(&ev, &keys, &job.event.file, &keys_path, &mut problems);
    let keys_check = check_keys(&ev, &keys, job.partial, &mut problems);
    let published = match (&published, &job.published) {
        (Some(orig), Some(path)) => Some(check_published(&ev, orig, path, &mut problems)),
        _ => None,
    };
    check_value(&ev, &job.event.file, &mut problems);

    let checked = check_files(&ev, &keys, &inputs);
    let files = checked.files;
    let bad_files = files.iter().filter(|f| !f.ok()).count();
    let session_files = files.iter().filter(|f| f.session.is_some()).count();
    let joined_files = files
        .iter()
        .filter(|f| f.session.as_ref().is_some_and(|s| s.first != s.last))
        .count();
    let no_board_matches =
        checked.boards > 0 && files.iter().all(|f| f.matches.is_none_or(|m| m == 0));
    let without = sessions_without_file(&ev, &checked.covered);
    let sessions: u64 = ev.phases.iter().map(|p| u64::from(p.sessions)).sum();
    if bad_files > 0 {
        problems.push(format!(
            "{bad_files} of {session_files} files do not match the event"
        ));
    }
    if session_files == 0 {
        problems.push("no hand record given matches a session of the event".into());
    }
    let squaredeal = ev.protocol != Protocol::Dealdex;
    Ok(VerifyReport {
        file: job.event.file.clone(),
        name: ev.name.clone(),
        protocol: ev.protocol.name(),
        keys_file: keys_path,
        key_hash,
        keys: keys_check,
        published,
        value_base64: ev
            .delayed_value
            .as_deref()
            .filter(|_| squaredeal)
            .map(|dv| event::base64(dv.as_bytes())),
        delayed_value: ev.delayed_value,
        value_format: ev.value_format.map(|f| f.to_string()),
        delayed_info: ev.delayed_info,
        files,
        session_files,
        joined_files,
        boards_compared: checked.boards,
        no_board_matches,
        sessions,
        sessions_verified: sessions - without,
        sessions_without_file: without,
        problems,
    })
}

/// Matches each file to its session by name and reads the boards of those that match, all
/// before anything is compared: an unreadable hand record is bad input, not a failed check.
/// A file named on the command line that matches no session is a problem.
///
/// # Errors
/// The deal pipeline's read errors for a matched file.
fn read_inputs<'p>(
    ev: &Event,
    paths: &'p [(PathBuf, bool)],
    read: ReadAs,
    problems: &mut Vec<String>,
) -> Result<Vec<Input<'p>>> {
    let mut inputs: Vec<Input> = Vec::new();
    for (p, named) in paths {
        let stem = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let m = ev.match_file(&stem);
        if *named && m.is_none() {
            problems.push(format!(
                "{}: not a file of any session of the event (its name matches no session)",
                p.display()
            ));
        }
        let boards = match m {
            Some(_) => Some(read_hand_record(p, read)?),
            None => None,
        };
        inputs.push((p, m, boards));
    }
    Ok(inputs)
}

/// A hand record's boards, read through the pipeline's file source as `read` says (by
/// default the format from the extension, else from the content).
///
/// # Errors
/// The deal pipeline's read errors: unreadable, no format recognised, or refused by its
/// format.
fn read_hand_record(path: &Path, read: ReadAs) -> Result<Vec<Board>> {
    let source = DealSource::File(FileSource::new(path.to_owned(), read));
    source
        .open(None, &SourceOptions::default())
        .and_then(|s| s.read_all())
        .map(|(boards, _)| boards)
}

/// Checks KH against the keys: the manifest and SH lines (dealdex protocol) or the key file's
/// hash (SquareDeal); a failure is also pushed to `problems`.
fn check_key_hash(
    ev: &Event,
    keys: &Keys,
    sqd: &Path,
    keys_path: &Path,
    problems: &mut Vec<String>,
) -> KeyHashCheck {
    match ev.key_hash {
        None => {
            problems.push(format!(
                "{} has no KH line: nothing commits to the keys",
                sqd.display()
            ));
            KeyHashCheck::Missing
        }
        Some(kh) if ev.protocol == Protocol::Dealdex => match ev.check_commitments(keys) {
            Ok(()) => KeyHashCheck::Committed {
                key_hash: hex::encode(kh),
            },
            Err(e) => {
                let problem = format!("{}: {e}", blamed(&e, sqd, keys_path).display());
                problems.push(problem.clone());
                KeyHashCheck::Failed { problem }
            }
        },
        Some(kh) if kh == keys.hash() => KeyHashCheck::KeyFile {
            key_hash: hex::encode(kh),
            crlf_form: !keys.is_canonical(),
        },
        Some(kh) => {
            let lf = if keys.is_canonical() {
                ""
            } else {
                " (over its CRLF form: the file's line ends differ, as SquareDeal allows)"
            };
            let problem = format!(
                "KH: SHA-256 of {} is {}{lf}, but KH is {}: these are not the published keys",
                keys_path.display(),
                hex::encode(keys.hash()),
                hex::encode(kh)
            );
            problems.push(problem.clone());
            KeyHashCheck::Failed { problem }
        }
    }
}

/// Compares the description file with its published copy `orig` (read from `path`); each
/// difference is also pushed to `problems`.
fn check_published(
    ev: &Event,
    orig: &Event,
    path: &Path,
    problems: &mut Vec<String>,
) -> PublishedCheck {
    let differences = compare_published(ev, orig);
    problems.extend(differences.iter().cloned());
    PublishedCheck {
        path: path.to_owned(),
        differences,
    }
}

/// Checks that the description file `sqd` has DV, and that DV reads as VF says.
fn check_value(ev: &Event, sqd: &Path, problems: &mut Vec<String>) {
    let sqd = sqd.display();
    if let (Some(_), Err(e)) = (&ev.delayed_value, ev.checked_value()) {
        problems.push(format!("{sqd}: {e}"));
    }
    if ev.delayed_value.is_none() {
        problems.push(format!("{sqd} has no DV line: the deals cannot be made"));
    }
}

/// Which sessions have keys; sessions without one are a problem unless `partial`.
fn check_keys(ev: &Event, keys: &Keys, partial: bool, problems: &mut Vec<String>) -> KeysCheck {
    let missing = ev.missing_keys(keys);
    let extra = ev.extra_keys(keys);
    if !partial && !missing.is_empty() {
        let list: Vec<String> = missing.iter().take(10).map(|s| s.to_string()).collect();
        problems.push(format!(
            "keys: {} sessions have no key: {}{}",
            missing.len(),
            list.join(" "),
            if missing.len() > 10 { " …" } else { "" }
        ));
    }
    KeysCheck {
        partial,
        given: keys.len(),
        revealed: keys.len() - extra.len(),
        sessions: ev.key_sessions().len(),
        missing: missing.iter().map(|s| s.to_string()).collect(),
        extra: extra.iter().map(|s| s.to_string()).collect(),
    }
}

/// The hand records checked, with what they verified.
struct FileChecks {
    /// Each file's check, in input order.
    files: Vec<FileCheck>,
    /// The sessions (and reserve sets) whose own or joined file verified.
    covered: HashSet<SessionKey>,
    /// Boards compared, all files together.
    boards: usize,
}

/// Compares every hand record with the deals the event makes for its sessions.
fn check_files(ev: &Event, keys: &Keys, inputs: &[Input]) -> FileChecks {
    // Board counts of `?` sessions, from their own files.
    let mut counts: HashMap<SessionKey, u64> = HashMap::new();
    for (_, m, boards) in inputs {
        if let (Some(m), Some(b)) = (m, boards)
            && let NameMatch::Session(s) = m.name
        {
            counts
                .entry((m.phase, s, m.reserve))
                .or_insert(b.len() as u64);
        }
    }
    let mut out = FileChecks {
        files: Vec::new(),
        covered: HashSet::new(),
        boards: 0,
    };
    for (path, m, boards) in inputs {
        let (Some(m), Some(boards)) = (m, boards) else {
            out.files.push(FileCheck {
                path: path.to_path_buf(),
                session: None,
                boards: None,
                matches: None,
                outcome: FileOutcome::NotASession,
            });
            continue;
        };
        let check = check_file(ev, keys, &counts, path, m, boards);
        out.boards += check.boards.unwrap_or(0);
        if check.outcome == FileOutcome::Verified {
            for s in m.sessions() {
                out.covered.insert((m.phase, s, m.reserve));
            }
        }
        out.files.push(check);
    }
    out
}

/// Compares one hand record, whose name matched `m`, board by board with the deals the
/// event makes for its sessions.
fn check_file(
    ev: &Event,
    keys: &Keys,
    counts: &HashMap<SessionKey, u64>,
    path: &Path,
    m: &FileMatch,
    boards: &[Board],
) -> FileCheck {
    let sessions: Vec<u32> = m.sessions().collect();
    let mut check = FileCheck {
        path: path.to_path_buf(),
        session: Some(file_session(ev, m, &sessions)),
        boards: None,
        matches: None,
        outcome: FileOutcome::Verified,
    };
    if ev.delayed_value.is_none() {
        check.outcome = FileOutcome::NotChecked {
            reason: "not checked: no DV".into(),
        };
        return check;
    }
    let expected = match expected_deals(ev, keys, counts, m, &sessions, boards.len()) {
        Ok(expected) => expected,
        Err(reason) => {
            check.outcome = FileOutcome::NotChecked { reason };
            return check;
        }
    };
    let c = event::compare(&expected, boards);
    check.boards = Some(c.found);
    check.matches = Some(c.matches);
    if let Some(x) = c.first_mismatch {
        check.outcome = FileOutcome::Differs {
            expected_boards: c.expected,
            mismatch: x,
        }
    }
    check
}

/// The sessions `m` names (`sessions`, in order), with the file name the event gives them.
fn file_session(ev: &Event, m: &FileMatch, sessions: &[u32]) -> FileSession {
    let name = match m.name {
        NameMatch::Session(s) => ev
            .session_name(
                SessionId {
                    phase: m.phase,
                    session: s,
                },
                m.reserve,
            )
            .unwrap_or_default(),
        NameMatch::Joined(x, y) => ev.phases[m.phase as usize - 1].joined_name(x, y),
    };
    FileSession {
        phase: m.phase,
        first: sessions[0],
        last: *sessions.last().expect("one session at least"),
        reserve: m.reserve,
        name,
    }
}

/// The deals the event makes for the sessions of a file of `found` boards, in order. A `?`
/// session takes its board count from its own file (`counts`), else an equal share of this
/// one's.
///
/// # Errors
/// Why the file cannot be checked: a `?` session's boards unknown, too many boards, or the
/// event's error making a session.
fn expected_deals(
    ev: &Event,
    keys: &Keys,
    counts: &HashMap<SessionKey, u64>,
    m: &FileMatch,
    sessions: &[u32],
    found: usize,
) -> Result<Vec<Deal>, String> {
    let phase = &ev.phases[m.phase as usize - 1];
    let mut expected = Vec::new();
    let mut total = 0u64;
    for &s in sessions {
        let n = match phase.boards.range(s) {
            Some((x, y)) => y - x + 1,
            None => match counts.get(&(m.phase, s, m.reserve)) {
                Some(&n) => n,
                None if found.is_multiple_of(sessions.len()) => (found / sessions.len()) as u64,
                None => {
                    return Err(format!(
                        "boards of session {},{s} unknown (? phase, no file of its own)",
                        m.phase
                    ));
                }
            },
        };
        total += n;
        if total > MAX_RUN_BOARDS {
            return Err(format!(
                "the event has more than {MAX_RUN_BOARDS} boards for these sessions, more than one file is compared with"
            ));
        }
        let id = SessionId {
            phase: m.phase,
            session: s,
        };
        expected.extend(
            ev.session_deals(keys, id, m.reserve, n)
                .map_err(|e| e.to_string())?,
        );
    }
    Ok(expected)
}

/// Sessions of the fixed phases without a file that verified (their reserve sets aside).
fn sessions_without_file(ev: &Event, covered: &HashSet<SessionKey>) -> u64 {
    ev.phases
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (1..=p.sessions)
                .filter(|&s| !covered.contains(&(i as u32 + 1, s, false)))
                .count() as u64
        })
        .sum()
}
