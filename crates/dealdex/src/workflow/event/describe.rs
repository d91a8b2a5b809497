//! Describing an event: `new` (the description file), `publish` (keys and KH) and
//! `set-value` (DV) — SQUAREDEAL.md §2–§3, docs/event-protocol.md §1–§4.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{
    EventKind, PhaseSpecProblem, check_field, create_new, default_keys, read_event, replace_file,
};
use crate::Result;
use crate::event::protocol::ValueFormat;
use crate::event::{self, Event, Keys, Phase, Protocol};

/// A new event's description: what `dealdex event new` writes to a new `.sqd` file (with
/// the `clap` feature, its arguments).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct NewJob {
    /// The description file to create (`.sqd`); an existing file is never overwritten.
    pub file: PathBuf,
    /// Tournament name (TN): one line, no white space at either end.
    #[cfg_attr(feature = "clap", arg(long))]
    pub name: String,
    /// What the delayed information will be, precisely (DI, one line), e.g. 'DJI close of 19
    /// Oct 2024'.
    #[cfg_attr(feature = "clap", arg(long, value_name = "TEXT"))]
    pub delayed_info: String,
    /// A phase, repeatable, in order: 'nsessions:boards:fileprefix:description', e.g.
    /// '17:1-16,17-32:OPRR##:Open Round Robin #/17'. boards: N, a-b, a list cycled over the
    /// sessions, NxM (N sessions of M boards) or ? (chosen when the deals are made);
    /// nsessions 0: a variable number of sessions; a run of # in the prefix becomes the
    /// session number (a prefix without # for several sessions gets one # per digit of
    /// their count).
    #[cfg_attr(
        feature = "clap",
        arg(long = "phase", value_name = "SPEC", required = true)
    )]
    pub phases: Vec<String>,
    /// How sessions become deals: dealdex (dealdex-event/1, docs/event-protocol.md: KH
    /// commits to the whole event, one commitment per key, a declared value format) or
    /// squaredeal (SquareDeal 2.x, SQUAREDEAL.md §3).
    #[cfg_attr(feature = "clap", arg(long, default_value = "dealdex"))]
    pub protocol: Protocol,
    /// The exact format of the delayed value (VF; dealdex protocol, required there,
    /// docs/event-protocol.md §3; refused by SquareDeal's): decimal:D (e.g. decimal:2 for
    /// 44882.13), integer, or hex:N.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FORMAT"))]
    pub value_format: Option<String>,
}

impl NewJob {
    /// A job for a dealdex-protocol event without a value format (set
    /// [`NewJob::value_format`] before running it).
    pub fn new(file: &Path, name: &str, delayed_info: &str, phases: Vec<String>) -> NewJob {
        NewJob {
            file: file.to_owned(),
            name: name.to_owned(),
            delayed_info: delayed_info.to_owned(),
            phases,
            protocol: Protocol::Dealdex,
            value_format: None,
        }
    }
}

/// What `new` wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NewReport {
    /// The description file written.
    pub file: PathBuf,
    /// TN.
    pub name: String,
    /// The protocol's name (`dealdex`, `squaredeal`).
    pub protocol: &'static str,
    /// Number of phases (SN lines).
    pub phases: usize,
    /// Sessions of the phases with a fixed number of sessions.
    pub sessions: u64,
    /// Phases with a variable number of sessions.
    pub variable_phases: usize,
    /// What was changed on the way (a file prefix that got its `#`s).
    pub notes: Vec<String>,
}

/// Parses a `--phase` spec as SquareDeal's phase dialogue does: `NxM` boards become the
/// list `1-M,M+1-2M,…`, and a prefix without `#` for several sessions gets one `#` per digit
/// of the session count. Returns the phase and a note when the prefix was changed.
fn phase_from_spec(spec: &str) -> Result<(Phase, Option<String>), PhaseSpecProblem> {
    let parts: Vec<&str> = spec.splitn(4, ':').collect();
    if parts.len() != 4 {
        return Err(PhaseSpecProblem::Shape);
    }
    let (n, mut boards, mut prefix, description) = (
        parts[0],
        parts[1].to_string(),
        parts[2].to_string(),
        parts[3],
    );
    if description.contains(':') {
        return Err(PhaseSpecProblem::Colon);
    }
    check_field("the description", description).map_err(PhaseSpecProblem::Description)?;
    if let Some((k, m)) = boards.split_once('x')
        && let (Ok(k), Ok(m)) = (k.parse::<u64>(), m.parse::<u64>())
        && k >= 1
        && m >= 1
    {
        // The list has k entries and its last board is k*m: bound both before writing it
        // (99999999999x1 used to abort allocating terabytes).
        if k > u64::from(event::MAX_SESSIONS) || k.checked_mul(m).is_none() {
            return Err(PhaseSpecProblem::TooLarge {
                boards,
                sessions: k,
                per_session: m,
            });
        }
        boards = (0..k)
            .map(|j| format!("{}-{}", j * m + 1, (j + 1) * m))
            .collect::<Vec<_>>()
            .join(",");
    }
    let mut note = None;
    if n != "1" && !prefix.contains('#') && n.bytes().all(|b| b.is_ascii_digit()) {
        let width = n.trim_start_matches('0').len().max(1);
        prefix.push_str(&"#".repeat(width));
        note = Some(format!("file prefix {:?} became {prefix:?}", parts[2]));
    }
    let text = format!("{n}:{boards}:{prefix}:{description}");
    let phase = Phase::parse(&text).map_err(PhaseSpecProblem::Invalid)?;
    Ok((phase, note))
}

/// Writes a new event's description file (SQUAREDEAL.md §2; with the dealdex protocol, PV
/// and VF too, docs/event-protocol.md §1): TN, DI and the phases, no KH and no DV yet.
///
/// # Errors
/// [`EventKind::Field`] (TN or DI the file cannot keep), the value-format variants
/// ([`EventKind::ValueFormatMissing`], [`EventKind::ValueFormatNotUsed`],
/// [`EventKind::ValueFormat`]), [`EventKind::Phase`] (a spec, naming it),
/// [`EventKind::SameSessionName`], [`EventKind::Exists`] (the file exists) or
/// [`EventKind::Write`]. Nothing is written unless every check passed.
pub fn new_event(job: &NewJob) -> Result<NewReport> {
    check_field("the name", &job.name).map_err(EventKind::Field)?;
    check_field("the delayed information", &job.delayed_info).map_err(EventKind::Field)?;
    let value_format = match (job.protocol, &job.value_format) {
        (Protocol::SquareDeal, Some(_)) => return Err(EventKind::ValueFormatNotUsed.into()),
        (Protocol::SquareDeal, None) => None,
        (_, None) => return Err(EventKind::ValueFormatMissing.into()),
        (_, Some(vf)) => Some(vf.parse::<ValueFormat>().map_err(EventKind::ValueFormat)?),
    };
    let mut ev = Event {
        protocol: job.protocol,
        name: Some(job.name.clone()),
        delayed_info: Some(job.delayed_info.clone()),
        value_format,
        ..Event::default()
    };
    let mut notes = Vec::new();
    for spec in &job.phases {
        let fail = |problem| EventKind::Phase {
            spec: spec.clone(),
            problem,
        };
        let (phase, note) = phase_from_spec(spec).map_err(fail)?;
        notes.extend(note);
        if job.protocol == Protocol::Dealdex && phase.is_variable() {
            return Err(fail(PhaseSpecProblem::Variable).into());
        }
        if let Some(j) = ev.phases.iter().position(|p| p.prefix == phase.prefix) {
            return Err(fail(PhaseSpecProblem::PrefixUsed {
                prefix: phase.prefix,
                phase: j + 1,
            })
            .into());
        }
        ev.phases.push(phase);
    }
    // Two phases must not make files of the same name.
    let mut names = HashMap::new();
    for (i, p) in ev.phases.iter().enumerate() {
        for s in 1..=p.sessions.min(10_000) {
            if let Some(j) = names.insert(p.session_name(s), i) {
                return Err(EventKind::SameSessionName {
                    first: j + 1,
                    second: i + 1,
                    name: p.session_name(s),
                }
                .into());
            }
        }
    }
    create_new(&job.file, ev.to_sqd(false).as_bytes(), false)?;
    Ok(NewReport {
        file: job.file.clone(),
        name: job.name.clone(),
        protocol: ev.protocol.name(),
        phases: ev.phases.len(),
        sessions: ev.phases.iter().map(|p| u64::from(p.sessions)).sum(),
        variable_phases: ev.phases.iter().filter(|p| p.is_variable()).count(),
        notes,
    })
}

/// Publishing an event: draw its keys and commit to them (with the `clap` feature, its
/// arguments).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct PublishJob {
    /// The event's description file (`.sqd`), without KH and DV.
    pub file: PathBuf,
    /// Where to write the keys (default: the description file with extension `.sqk`); an
    /// existing file is never overwritten.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub keys: Option<PathBuf>,
}

/// What `publish` wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublishReport {
    /// The description file, now with KH (and, dealdex protocol, PV and SH lines).
    pub file: PathBuf,
    /// The new secret key file (mode 0600): to be kept secret until after the event.
    pub keys_file: PathBuf,
    /// KH, 64 lowercase hex digits: SHA-256 of the key file (SquareDeal, SQUAREDEAL.md §2)
    /// or of the manifest (docs/event-protocol.md §4).
    pub key_hash: String,
    /// Keys drawn: one per session, one per variable phase.
    pub sessions: usize,
    /// The protocol's name.
    pub protocol: &'static str,
}

/// Draws every session's key from the operating system's CSPRNG into a new secret key file
/// ([`crate::secret::write_new`]) and writes KH into the description file — SHA-256 of the
/// key file (SQUAREDEAL.md §2) or, dealdex protocol, the SH commitments and the manifest's
/// hash (docs/event-protocol.md §2, §4). The description file is replaced whole; if that
/// fails, the new key file is removed again.
///
/// # Errors
/// [`EventKind::Read`]/[`EventKind::Malformed`] (the description file),
/// [`EventKind::AlreadyPublished`], [`EventKind::ValueBeforeKeys`],
/// [`EventKind::Incomplete`], [`EventKind::Random`], [`EventKind::Event`]
/// (keys that cannot be committed), [`EventKind::Exists`] (the key file exists),
/// [`ErrorKind::Secret`](crate::ErrorKind::Secret) or [`EventKind::Write`].
pub fn publish(job: &PublishJob) -> Result<PublishReport> {
    let (text, ev) = read_event(&job.file)?;
    let path = || job.file.clone();
    if let Some(kh) = ev.key_hash {
        return Err(EventKind::AlreadyPublished {
            path: path(),
            key_hash: hex::encode(kh),
        }
        .into());
    }
    if ev.delayed_value.is_some() {
        return Err(EventKind::ValueBeforeKeys { path: path() }.into());
    }
    let missing = if ev.name.as_deref().unwrap_or("").is_empty() {
        Some("no tournament name (TN)")
    } else if ev.delayed_info.as_deref().unwrap_or("").is_empty() {
        Some("no delayed-information description (DI)")
    } else if ev.phases.is_empty() {
        Some("no phases (SN lines)")
    } else {
        None
    };
    if let Some(missing) = missing {
        return Err(EventKind::Incomplete {
            path: path(),
            missing,
        }
        .into());
    }
    let keys_path = job.keys.clone().unwrap_or_else(|| default_keys(&job.file));
    let keys = Keys::generate(&ev).map_err(EventKind::Random)?;
    let (kh, new_text) = match ev.protocol {
        Protocol::SquareDeal => {
            let kh = hex::encode(keys.hash());
            let new_text = event::set_sqd_line(&text, "KH", &kh);
            (kh, new_text)
        }
        _ => {
            let mut ev = ev.clone();
            ev.commit_keys(&keys).map_err(|error| EventKind::Event {
                path: path(),
                error,
            })?;
            let kh = hex::encode(ev.key_hash.expect("set by commit_keys"));
            (kh, ev.to_sqd(text.contains("\r\n")))
        }
    };
    create_new(&keys_path, &keys.to_bytes(), true)?;
    if let Err(e) = replace_file(&job.file, new_text.as_bytes()) {
        let _ = std::fs::remove_file(&keys_path);
        return Err(e);
    }
    Ok(PublishReport {
        file: path(),
        keys_file: keys_path,
        key_hash: kh,
        sessions: keys.len(),
        protocol: ev.protocol.name(),
    })
}

/// Recording the delayed value once it is public (with the `clap` feature, its arguments).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SetValueJob {
    /// The event's description file (`.sqd`), published (KH).
    pub file: PathBuf,
    /// The delayed-information value (DV, one line), exactly as it will feed the deals (e.g.
    /// 43275.91).
    pub value: String,
    /// Replace a DV that is already recorded.
    #[cfg_attr(feature = "clap", arg(long))]
    pub replace: bool,
}

/// What `set-value` did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SetValueReport {
    /// The description file.
    pub file: PathBuf,
    /// DV as recorded (its UTF-8 bytes feed the deals).
    pub value: String,
    /// False when the file already held exactly this DV (nothing was written).
    pub recorded: bool,
    /// The DV it held before, when one was replaced.
    pub replaced: Option<String>,
    /// The protocol's name.
    pub protocol: &'static str,
    /// base64(DV), which SquareDeal feeds its entropy (SQUAREDEAL.md §3); `None` for the
    /// dealdex protocol, which hashes the bytes (docs/event-protocol.md §5).
    pub value_base64: Option<String>,
    /// SquareDeal only: the value is not plain digits and dots, so another spelling of the
    /// same value would make other deals (SQUAREDEAL.md §5).
    pub spelling_matters: bool,
    /// DI, which the value must render faithfully.
    pub delayed_info: Option<String>,
}

/// Records DV in a published description file (SQUAREDEAL.md §2; dealdex protocol: the
/// value must match VF, docs/event-protocol.md §3). The file is replaced whole; the same
/// DV again changes nothing ([`SetValueReport::recorded`] false).
///
/// # Errors
/// [`EventKind::Read`]/[`EventKind::Malformed`], [`EventKind::Field`] (a value
/// the file cannot keep), [`EventKind::NotPublishedYet`],
/// [`EventKind::ValueAlreadySet`] (another DV, no `replace`), [`EventKind::Event`]
/// (not in the declared format), [`EventKind::ValueNotKept`] or
/// [`EventKind::Write`].
pub fn set_value(job: &SetValueJob) -> Result<SetValueReport> {
    let (text, ev) = read_event(&job.file)?;
    let path = || job.file.clone();
    check_field("the value", &job.value).map_err(EventKind::Field)?;
    if ev.key_hash.is_none() {
        return Err(EventKind::NotPublishedYet { path: path() }.into());
    }
    let squaredeal = ev.protocol == Protocol::SquareDeal;
    let mut report = SetValueReport {
        file: path(),
        value: job.value.clone(),
        recorded: false,
        replaced: ev.delayed_value.clone(),
        protocol: ev.protocol.name(),
        value_base64: squaredeal.then(|| event::base64(job.value.as_bytes())),
        spelling_matters: squaredeal && !job.value.bytes().all(|b| b.is_ascii_digit() || b == b'.'),
        delayed_info: ev.delayed_info.clone(),
    };
    if let Some(old) = &ev.delayed_value
        && !job.replace
    {
        if *old == job.value {
            report.replaced = None;
            return Ok(report);
        }
        return Err(EventKind::ValueAlreadySet {
            path: path(),
            value: old.clone(),
        }
        .into());
    }
    let event_error = |error| EventKind::Event {
        path: path(),
        error,
    };
    if ev.protocol == Protocol::Dealdex {
        let vf = ev.manifest().map_err(event_error)?.value_format;
        vf.check(&job.value).map_err(event_error)?;
    }
    let new_text = event::set_sqd_line(&text, "DV", &job.value);
    let check = Event::parse(&new_text).map_err(event_error)?;
    if check.delayed_value.as_deref() != Some(job.value.as_str()) {
        return Err(EventKind::ValueNotKept {
            path: path(),
            value: job.value.clone(),
        }
        .into());
    }
    replace_file(&job.file, new_text.as_bytes())?;
    report.recorded = true;
    Ok(report)
}
