//! `dealdex event`: verifiable championship events in SquareDeal's files (SQUAREDEAL.md
//! §2–§4): describe, publish (commit to the keys), record the delayed value, make the deals,
//! verify them.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use dealdex::event::{self, Boards, Event, Keys, Phase, Protocol, SessionId};
use dealdex::formats::{self, Board, DealFormat, WriteOptions};
use dealdex::{DealIndex, NewSet, Scheme, Store};

use super::{bad, files, outputs};

#[derive(Args, Debug)]
#[command(after_help = "The life of an event (SQUAREDEAL.md):
  dealdex event new WBG.sqd --name 'World Bridge Games' --delayed-info 'DJI close of 19 Oct' \\
      --phase '17:1-16,17-32:OPRR##:Open Round Robin #/17' --phase '3:20:R16#:Round of 16 #/3'
  dealdex event publish WBG.sqd            # keys to WBG.sqk (secret), KH into WBG.sqd: publish it
  dealdex event set-value WBG.sqd 43275.91 # once the delayed information is known
  dealdex event make WBG.sqd --keys WBG.sqk --out boards/
  dealdex event verify WBG.sqd --keys WBG.sqk --published WBG-as-published.sqd boards/")]
pub struct EventArgs {
    #[command(subcommand)]
    command: EventCommand,
}

#[derive(Subcommand, Debug)]
enum EventCommand {
    /// Describe a new event: name, delayed information, phases (writes NAME.sqd).
    New(NewArgs),
    /// Draw every session's key (NAME.sqk, secret) and commit to them (KH in NAME.sqd).
    Publish(PublishArgs),
    /// Record the delayed-information value (DV) once it is public.
    SetValue(SetValueArgs),
    /// Make the deals of the event's sessions: files <prefix>.pbn (…) and sets in the db.
    Make(MakeArgs),
    /// Verify an event: KH, every key, the published copy, and every hand record given.
    Verify(VerifyArgs),
}

#[derive(Args, Debug)]
struct NewArgs {
    /// The description file to create (`.sqd`); an existing file is never overwritten.
    file: PathBuf,
    /// Tournament name (TN).
    #[arg(long)]
    name: String,
    /// What the delayed information will be, precisely (DI), e.g. 'DJI close of 19 Oct 2024'.
    #[arg(long, value_name = "TEXT")]
    delayed_info: String,
    /// A phase, repeatable, in order: 'nsessions:boards:fileprefix:description', e.g.
    /// '17:1-16,17-32:OPRR##:Open Round Robin #/17'. boards: N, a-b, a list cycled over the
    /// sessions, NxM (N sessions of M boards) or ? (chosen when the deals are made);
    /// nsessions 0: a variable number of sessions; a run of # in the prefix becomes the
    /// session number.
    #[arg(long = "phase", value_name = "SPEC", required = true)]
    phases: Vec<String>,
    /// How sessions become deals: dealdex (dealdex-event/1, docs/event-protocol.md: KH
    /// commits to the whole event, one commitment per key, a declared value format) or
    /// squaredeal (SquareDeal 2.x, SQUAREDEAL.md §3).
    #[arg(long, default_value = "dealdex", value_parser = parse_protocol)]
    protocol: Protocol,
    /// The exact format of the delayed value (VF; dealdex protocol, required there):
    /// decimal:D (e.g. decimal:2 for 44882.13), integer, or hex:N.
    #[arg(long, value_name = "FORMAT")]
    value_format: Option<String>,
}

#[derive(Args, Debug)]
struct PublishArgs {
    /// The event's description file (`.sqd`).
    file: PathBuf,
    /// Where to write the keys (default: the description file with extension `.sqk`); an
    /// existing file is never overwritten.
    #[arg(long, value_name = "FILE")]
    keys: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct SetValueArgs {
    /// The event's description file (`.sqd`).
    file: PathBuf,
    /// The delayed-information value, exactly as it will feed the deals (e.g. 43275.91).
    value: String,
    /// Replace a DV that is already recorded.
    #[arg(long)]
    replace: bool,
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  dealdex event make WBG.sqd --keys WBG.sqk --out boards/
  dealdex event make WBG.sqd --keys WBG.sqk --phase 1 --session 3-5 --out boards/ --format pbn --format dup
  dealdex event make WC.sqd --phase 9 --boards 15 --out boards/      # a phase with ? boards
  dealdex event make WBG.sqd --phase 4 --session 2 --reserve --out boards/   # R162reserve")]
struct MakeArgs {
    /// The event's description file (`.sqd`), published (KH) and with its value (DV).
    file: PathBuf,
    /// The key file (default: the description file with extension `.sqk`).
    #[arg(long, value_name = "FILE")]
    keys: Option<PathBuf>,
    /// Only this phase (1-based, in SN order); default: every phase.
    #[arg(long, value_name = "P")]
    phase: Option<u32>,
    /// Only these sessions of --phase: S or A-B (required for a variable phase).
    #[arg(long, value_name = "S", requires = "phase")]
    session: Option<String>,
    /// Make the sessions' reserve sets (files <name>reserve.*) instead.
    #[arg(long)]
    reserve: bool,
    /// Boards of a phase whose SN line says ?: N, a-b or a list cycled over the sessions.
    #[arg(long, value_name = "N")]
    boards: Option<String>,
    /// Directory for the files (created if missing).
    #[arg(long, short, value_name = "DIR")]
    out: PathBuf,
    /// Output format, repeatable (default pbn): pbn, dup, dlm, bri, dge, lin, csv, ber, borel,
    /// kops, cds, hrf, hex, json.
    #[arg(long, short, value_name = "FORMAT")]
    format: Vec<String>,
    /// SQLite database to store each session as a set `<event file stem>/<session>`.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Do not store anything in a database.
    #[arg(long, conflicts_with = "db")]
    no_db: bool,
    /// No report.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "SQUAREDEAL.md §4. Files are matched to sessions by name: <prefix>.<ext> is a
session, <prefix>reserve.<ext> its reserve set, and SquareDeal's joined files (SWISS01-03.pbn,
R161-2.pbn) the sessions they join, one after another. Any format dealdex reads will do; a
directory stands for the deal files in it. Boards are compared in file order (board numbers
only label them). A ? phase takes each session's board count from its file.
Exit code 0: everything verified; 1: something does not match; 2: unreadable input.

Examples:
  dealdex event verify WBG2024.sqd --keys WBG2024.sqk boards/
  dealdex event verify WBG2024.sqd --keys WBG2024.sqk --published WBG2024-published.sqd OPRR01.pbn"
)]
struct VerifyArgs {
    /// The event's final description file (`.sqd`, with DV).
    file: PathBuf,
    /// The key file, revealed after the event (default: the .sqd with extension `.sqk`).
    #[arg(long, value_name = "FILE")]
    keys: Option<PathBuf>,
    /// The description file as published before the event: TN, DI, SN and KH must be the same.
    #[arg(long, value_name = "ORIGINAL.sqd")]
    published: Option<PathBuf>,
    /// Hand records (deal files) and directories of them.
    #[arg(required = true, value_name = "FILES_OR_DIR")]
    files: Vec<PathBuf>,
    /// dealdex protocol: the key file holds only the sessions revealed so far; each key
    /// given must match its commitment (SH), and sessions without a key are not checked.
    #[arg(long)]
    partial: bool,
}

fn parse_protocol(s: &str) -> Result<Protocol, String> {
    s.parse().map_err(|e: event::EventError| e.to_string())
}

/// Runs `dealdex event …`.
pub fn run(a: EventArgs, _json: bool) -> anyhow::Result<()> {
    match a.command {
        EventCommand::New(a) => new(a),
        EventCommand::Publish(a) => publish(a),
        EventCommand::SetValue(a) => set_value(a),
        EventCommand::Make(a) => make(a),
        EventCommand::Verify(a) => verify(a),
    }
}

/// Reads and parses a `.sqd` file; errors name the file (and the line).
fn read_event(path: &Path) -> anyhow::Result<(String, Event)> {
    let bytes = std::fs::read(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let ev = Event::parse_bytes(&bytes).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let text = String::from_utf8(bytes).expect("parse_bytes checked UTF-8");
    Ok((text, ev))
}

/// Reads and parses a `.sqk` file; errors name the file and the line.
fn read_keys(path: &Path) -> anyhow::Result<Keys> {
    let bytes = std::fs::read(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    Keys::parse(&bytes).map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// The file a failed key check is about: the description file when its own lines are wrong
/// (KH does not match the manifest, no VF, no KH), else the key file.
fn blamed<'p>(e: &event::EventError, sqd: &'p Path, keys: &'p Path) -> &'p Path {
    use event::EventError as E;
    match e {
        E::ManifestHash { .. } | E::Invalid(_) | E::NotPublished => sqd,
        _ => keys,
    }
}

/// The key file beside a description file: same name, extension `.sqk`.
fn default_keys(sqd: &Path) -> PathBuf {
    sqd.with_extension("sqk")
}

/// Checks a TN/DI/DV text: one line, not empty, no white space at either end (the file
/// could not keep it), no control characters.
fn check_field(what: &str, v: &str) -> anyhow::Result<()> {
    if v.is_empty() {
        return Err(bad(format!("{what} is empty")));
    }
    if let Some(c) = v.chars().find(|c| c.is_control()) {
        return Err(bad(format!(
            "{what} {v:?} contains the control character {c:?}: it must be one line"
        )));
    }
    if v.trim() != v {
        return Err(bad(format!(
            "{what} {v:?} starts or ends with white space, which the .sqd file cannot keep"
        )));
    }
    Ok(())
}

/// Parses a `--phase` spec as SquareDeal's phase dialogue does: `NxM` boards become the
/// list `1-M,M+1-2M,…`, and a prefix without `#` for several sessions gets one `#` per digit
/// of the session count. Returns the phase and a note when the prefix was changed.
fn phase_from_spec(spec: &str) -> anyhow::Result<(Phase, Option<String>)> {
    let parts: Vec<&str> = spec.splitn(4, ':').collect();
    if parts.len() != 4 {
        return Err(bad(format!(
            "--phase {spec:?}: expected nsessions:boards:fileprefix:description"
        )));
    }
    let (n, mut boards, mut prefix, description) = (
        parts[0],
        parts[1].to_string(),
        parts[2].to_string(),
        parts[3],
    );
    if description.contains(':') {
        return Err(bad(format!(
            "--phase {spec:?}: the description may not contain ':' (SquareDeal cuts it there)"
        )));
    }
    check_field("the description", description)
        .map_err(|e| bad(format!("--phase {spec:?}: {e}")))?;
    if let Some((k, m)) = boards.split_once('x')
        && let (Ok(k), Ok(m)) = (k.parse::<u64>(), m.parse::<u64>())
        && k >= 1
        && m >= 1
    {
        // The list has k entries and its last board is k*m: bound both before writing it
        // (99999999999x1 used to abort allocating terabytes).
        if k > u64::from(event::MAX_SESSIONS) || k.checked_mul(m).is_none() {
            return Err(bad(format!(
                "--phase {spec:?}: boards {boards:?}: {k} sessions of {m} boards; at most {} sessions, and board numbers stop at {}",
                event::MAX_SESSIONS,
                i64::MAX
            )));
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
    let phase = Phase::parse(&text).map_err(|e| bad(format!("--phase {spec:?}: {e}")))?;
    Ok((phase, note))
}

/// Writes `bytes` to `path` through a temporary file and a rename, so that a failure leaves
/// the old file whole ([`outputs::write_whole`]: the temporary name is dealdex's own, so no
/// file of the user's is overwritten or removed on the way).
fn replace_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    outputs::write_whole(path, bytes)
}

/// Creates a new file (never overwriting, never following a symbolic link) with `bytes`;
/// `private` makes it a secret file ([`dealdex::secret::write_new`]: mode 0600 from the start).
fn create_new(path: &Path, bytes: &[u8], private: bool) -> anyhow::Result<()> {
    let written = if private {
        dealdex::secret::write_new(path, bytes)
    } else {
        let mut opts = OpenOptions::new();
        opts.write(true).create_new(true);
        match opts.open(path) {
            Ok(mut f) => f.write_all(bytes).map_err(|error| {
                let _ = std::fs::remove_file(path);
                dealdex::secret::SecretFileError::Io {
                    path: path.to_owned(),
                    error,
                }
            }),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                Err(dealdex::secret::SecretFileError::Exists {
                    path: path.to_owned(),
                })
            }
            Err(error) => Err(dealdex::secret::SecretFileError::Io {
                path: path.to_owned(),
                error,
            }),
        }
    };
    written.map_err(|e| match e {
        dealdex::secret::SecretFileError::Exists { path } => bad(format!(
            "{}: the file exists; refusing to overwrite it",
            path.display()
        )),
        e => e.into(),
    })
}

fn new(a: NewArgs) -> anyhow::Result<()> {
    check_field("--name", &a.name)?;
    check_field("--delayed-info", &a.delayed_info)?;
    let value_format = match (a.protocol, &a.value_format) {
        (Protocol::SquareDeal, Some(_)) => {
            return Err(bad(
                "--value-format belongs to the dealdex protocol: SquareDeal's DV is free text",
            ));
        }
        (Protocol::SquareDeal, None) => None,
        (_, None) => {
            return Err(bad(
                "the dealdex protocol needs --value-format (decimal:D, integer or hex:N): the one spelling the delayed value will have, committed before the event",
            ));
        }
        (_, Some(vf)) => Some(
            vf.parse::<dealdex::protocol::ValueFormat>()
                .map_err(|e| bad(format!("--value-format: {e}")))?,
        ),
    };
    let mut ev = Event {
        protocol: a.protocol,
        name: Some(a.name.clone()),
        delayed_info: Some(a.delayed_info.clone()),
        value_format,
        ..Event::default()
    };
    let mut notes = Vec::new();
    for spec in &a.phases {
        let (phase, note) = phase_from_spec(spec)?;
        notes.extend(note);
        if a.protocol == Protocol::Dealdex && phase.is_variable() {
            return Err(bad(format!(
                "--phase {spec:?}: the dealdex protocol needs a number of sessions: declare the most the phase may need (unused keys are revealed and ignored)"
            )));
        }
        if let Some(j) = ev.phases.iter().position(|p| p.prefix == phase.prefix) {
            return Err(bad(format!(
                "--phase {spec:?}: file prefix {:?} is already used by phase {}",
                phase.prefix,
                j + 1
            )));
        }
        ev.phases.push(phase);
    }
    // Two phases must not make files of the same name.
    let mut names = std::collections::HashMap::new();
    for (i, p) in ev.phases.iter().enumerate() {
        for s in 1..=p.sessions.min(10_000) {
            if let Some(j) = names.insert(p.session_name(s), i) {
                return Err(bad(format!(
                    "phases {} and {} both name a session {:?}",
                    j + 1,
                    i + 1,
                    p.session_name(s)
                )));
            }
        }
    }
    create_new(&a.file, ev.to_sqd(false).as_bytes(), false)?;
    for n in notes {
        eprintln!("note: {n}");
    }
    let sessions: u64 = ev.phases.iter().map(|p| p.sessions as u64).sum();
    let variable = ev.phases.iter().filter(|p| p.is_variable()).count();
    let variable = if variable > 0 {
        format!(" (and {variable} phases of a variable number of sessions)")
    } else {
        String::new()
    };
    eprintln!(
        "{}: event {:?}, protocol {}, {} phases, {sessions} sessions{variable}; next: dealdex event publish {}",
        a.file.display(),
        a.name,
        ev.protocol,
        ev.phases.len(),
        a.file.display()
    );
    Ok(())
}

fn publish(a: PublishArgs) -> anyhow::Result<()> {
    let (text, ev) = read_event(&a.file)?;
    let sqd = a.file.display();
    if let Some(kh) = ev.key_hash {
        return Err(bad(format!(
            "{sqd}: already published (KH {}); its keys are not drawn again",
            hex::encode(kh)
        )));
    }
    if ev.delayed_value.is_some() {
        return Err(bad(format!(
            "{sqd}: DV is already set: the delayed value must become known only after the keys are committed (remove the DV line)"
        )));
    }
    if ev.name.as_deref().unwrap_or("").is_empty() {
        return Err(bad(format!("{sqd}: no tournament name (TN)")));
    }
    if ev.delayed_info.as_deref().unwrap_or("").is_empty() {
        return Err(bad(format!(
            "{sqd}: no delayed-information description (DI)"
        )));
    }
    if ev.phases.is_empty() {
        return Err(bad(format!("{sqd}: no phases (SN lines)")));
    }
    let keys_path = a.keys.clone().unwrap_or_else(|| default_keys(&a.file));
    let keys = Keys::generate(&ev).map_err(|e| anyhow::anyhow!("{e}"))?;
    let (kh, new_text) = match ev.protocol {
        Protocol::SquareDeal => {
            let kh = hex::encode(keys.hash());
            let new_text = event::set_sqd_line(&text, "KH", &kh);
            (kh, new_text)
        }
        _ => {
            let mut ev = ev.clone();
            ev.commit_keys(&keys)
                .map_err(|e| bad(format!("{sqd}: {e}")))?;
            let kh = hex::encode(ev.key_hash.expect("set by commit_keys"));
            (kh, ev.to_sqd(text.contains("\r\n")))
        }
    };
    create_new(&keys_path, &keys.to_bytes(), true)?;
    if let Err(e) = replace_file(&a.file, new_text.as_bytes()) {
        let _ = std::fs::remove_file(&keys_path);
        return Err(e);
    }
    eprintln!(
        "{sqd}: published: KH {kh}\n{}: keys of {} sessions (mode 0600): keep it secret until after the event\n\
         now publish {sqd} as it is; after the delayed information is known: dealdex event set-value {sqd} VALUE",
        keys_path.display(),
        keys.len()
    );
    Ok(())
}

fn set_value(a: SetValueArgs) -> anyhow::Result<()> {
    let (text, ev) = read_event(&a.file)?;
    let sqd = a.file.display();
    check_field("the value", &a.value)?;
    if ev.key_hash.is_none() {
        return Err(bad(format!(
            "{sqd}: not published yet (no KH): publish first, so that the keys are committed before the value is known"
        )));
    }
    if let Some(old) = &ev.delayed_value
        && !a.replace
    {
        if *old == a.value {
            eprintln!("{sqd}: DV is already {old:?}");
            return Ok(());
        }
        return Err(bad(format!(
            "{sqd}: DV is already {old:?}; give --replace to change it"
        )));
    }
    if ev.protocol == Protocol::Dealdex {
        let vf = ev
            .manifest()
            .map_err(|e| bad(format!("{sqd}: {e}")))?
            .value_format;
        vf.check(&a.value).map_err(|e| bad(format!("{sqd}: {e}")))?;
    }
    let new_text = event::set_sqd_line(&text, "DV", &a.value);
    let check = Event::parse(&new_text).map_err(|e| bad(format!("{sqd}: {e}")))?;
    if check.delayed_value.as_deref() != Some(a.value.as_str()) {
        return Err(bad(format!(
            "the value {:?} would not be read back exactly from {sqd}",
            a.value
        )));
    }
    replace_file(&a.file, new_text.as_bytes())?;
    let bytes: Vec<String> = a.value.bytes().map(|b| format!("{b:02x}")).collect();
    println!("DV {:?} recorded in {sqd}", a.value);
    println!(
        "the deals are fed these {} bytes: {}",
        a.value.len(),
        bytes.join(" ")
    );
    if ev.protocol == Protocol::Dealdex {
        println!(
            "each session's seed: SHA-256 of dealdex-event/1, KH, these bytes, phase, session, kind and key (docs/event-protocol.md §5)"
        );
    } else {
        println!(
            "base64(DV) = {} (each session's entropy: second half of its key, then {}, then original)",
            event::base64(a.value.as_bytes()),
            event::base64(a.value.as_bytes())
        );
    }
    if ev.protocol == Protocol::SquareDeal
        && !a.value.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        println!(
            "note: only this exact spelling makes these deals (SQUAREDEAL.md §5): another rendering of the same value gives other deals"
        );
    }
    if let Some(di) = &ev.delayed_info {
        println!("check that it is a faithful rendering of DI: {di}");
    }
    Ok(())
}

/// One session to make: its id, file name, boards and deals.
struct Made {
    id: SessionId,
    name: String,
    first: u64,
    last: u64,
    boards: Vec<Board>,
    seed_sha256: [u8; 32],
}

/// The most boards one `event make` run makes: they are all made and rendered in memory
/// before anything is written or stored.
const MAX_RUN_BOARDS: u64 = 1_000_000;

/// Parses `--session`: `S` or `A-B`.
fn parse_sessions(s: &str) -> anyhow::Result<(u32, u32)> {
    let num = |t: &str| {
        t.parse::<u32>()
            .map_err(|_| bad(format!("--session {s:?}: {t:?} is not a session number")))
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if a == 0 || b < a {
        return Err(bad(format!(
            "--session {s:?}: expected S or A-B with 1 <= A <= B"
        )));
    }
    Ok((a, b))
}

/// The sessions `make` is asked for, with each one's boards; phases it cannot make without
/// more options are skipped with a note when no --phase was given.
fn plan_sessions(
    a: &MakeArgs,
    ev: &Event,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<(SessionId, (u64, u64))>> {
    let asked = match a.boards.as_deref() {
        Some("?") => return Err(bad("--boards ?: give the number of boards")),
        Some(t) => Some(Boards::parse(t).map_err(|e| bad(format!("--boards: {e}")))?),
        None => None,
    };
    let phases: Vec<u32> = match a.phase {
        Some(p) => {
            ev.phase(p).map_err(|e| bad(e.to_string()))?;
            vec![p]
        }
        None => (1..=ev.phases.len() as u32).collect(),
    };
    let mut out = Vec::new();
    let mut total = 0u64;
    for p in phases {
        let phase = &ev.phases[p as usize - 1];
        let explicit = a.phase.is_some();
        let boards = match (&phase.boards, &asked) {
            (Boards::Unknown, Some(b)) => b.clone(),
            (Boards::Unknown, None) if explicit => {
                return Err(bad(format!(
                    "phase {p} ({}) has ? boards: give --boards N",
                    phase.prefix
                )));
            }
            (Boards::Unknown, None) => {
                notes.push(format!(
                    "phase {p} ({}) skipped: its boards are ?, make it with --phase {p} --boards N",
                    phase.prefix
                ));
                continue;
            }
            (b, Some(_)) if explicit => {
                return Err(bad(format!(
                    "phase {p} ({}) has its boards fixed in the .sqd ({b}); --boards is for ? phases",
                    phase.prefix
                )));
            }
            (b, _) => b.clone(),
        };
        let (s0, s1) = match &a.session {
            Some(s) => parse_sessions(s)?,
            None if phase.is_variable() && explicit => {
                return Err(bad(format!(
                    "phase {p} ({}) has a variable number of sessions: give --session S",
                    phase.prefix
                )));
            }
            None if phase.is_variable() => {
                notes.push(format!(
                    "phase {p} ({}) skipped: it has a variable number of sessions, make them with --phase {p} --session S",
                    phase.prefix
                ));
                continue;
            }
            None => (1, phase.sessions),
        };
        if !phase.has_session(s1) {
            return Err(bad(format!(
                "phase {p} ({}) has sessions 1..{}, not {s1}",
                phase.prefix, phase.sessions
            )));
        }
        for s in s0..=s1 {
            let range = boards.range(s).expect("ranges");
            total += range.1 - range.0 + 1;
            if total > MAX_RUN_BOARDS {
                return Err(bad(format!(
                    "phase {p} ({}) sessions {s0}-{s1}: this run would make more than {MAX_RUN_BOARDS} boards, which are made in memory before anything is written; make fewer sessions at a time (--phase, --session)",
                    phase.prefix
                )));
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
        return Err(bad("no session to make".to_string()
            + &notes.iter().map(|n| format!("; {n}")).collect::<String>()));
    }
    Ok(out)
}

fn make(a: MakeArgs) -> anyhow::Result<()> {
    let (_, ev) = read_event(&a.file)?;
    let sqd = a.file.display().to_string();
    let keys_path = a.keys.clone().unwrap_or_else(|| default_keys(&a.file));
    let keys = read_keys(&keys_path)?;
    if ev.key_hash.is_none() {
        return Err(bad(format!("{sqd}: {}", event::EventError::NotPublished)));
    }
    if ev.delayed_value.is_none() {
        return Err(bad(format!("{sqd}: {}", event::EventError::NoValue)));
    }
    ev.check_keys(&keys).map_err(|e| {
        bad(format!(
            "{}: {e}",
            blamed(&e, &a.file, &keys_path).display()
        ))
    })?;
    let fmts: Vec<&'static dyn DealFormat> = if a.format.is_empty() {
        vec![outputs::format_by_name("pbn")?]
    } else {
        a.format
            .iter()
            .map(|f| outputs::format_by_name(f))
            .collect::<anyhow::Result<_>>()?
    };
    let mut notes = Vec::new();
    let plan = plan_sessions(&a, &ev, &mut notes)?;
    let stem = a
        .file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();

    // Make and render everything before anything is written or stored.
    let mut made = Vec::new();
    for (id, (first, last)) in plan {
        let name = ev
            .session_name(id, a.reserve)
            .map_err(|e| bad(e.to_string()))?;
        let deals = ev
            .session_deals(&keys, id, a.reserve, last - first + 1)
            .map_err(|e| bad(format!("{sqd}: {e}")))?;
        let phase = ev.phase(id.phase).map_err(|e| bad(e.to_string()))?;
        let key = keys
            .get(SessionId {
                phase: id.phase,
                session: phase.key_session(id.session),
            })
            .expect("checked by session_deals");
        let seed_sha256 = ev
            .derivation(id, key, a.reserve)
            .map_err(|e| bad(e.to_string()))?
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
    let mut files = Vec::new();
    for m in &made {
        let phase = &ev.phases[m.id.phase as usize - 1];
        let opts = WriteOptions {
            event: format!(
                "{}: {}",
                ev.name.as_deref().unwrap_or(""),
                phase.session_description(m.id.session)
            ),
            blind: false,
            first_board: m.first,
            last_board: m.last,
        };
        for f in &fmts {
            let path = a.out.join(format!("{}.{}", m.name, f.info().extensions[0]));
            let bytes = formats::write_set(*f, &m.boards, &opts)
                .map_err(|e| bad(format!("{}: {e}", path.display())))?;
            files.push((path, bytes));
        }
    }
    let sets: Vec<(NewSet, Vec<(u64, DealIndex)>)> = made
        .iter()
        .map(|m| {
            (
                NewSet {
                    name: format!("{stem}/{}", m.name),
                    first_board: m.first,
                    last_board: m.last,
                    scheme: match ev.protocol {
                        Protocol::SquareDeal => Scheme::BigDeal.name().into(),
                        _ => Scheme::Pavlicek.name().into(),
                    },
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
        .collect();

    let db_path = (!a.no_db).then(|| a.db.clone().unwrap_or_else(|| "dealdex.db".into()));
    let mut stored = (0u64, 0u64, 0u64); // sets new, sets already there, new deals
    let mut store = match &db_path {
        Some(p) => Some(Store::open(p)?),
        None => None,
    };
    if let (Some(p), Some(store)) = (&db_path, &store) {
        // A set of the same name with other deals (another DV, other keys) stops everything
        // before anything is stored.
        for (set, boards) in &sets {
            if let Some(info) = store.set(&set.name)? {
                let mut ours = boards.clone();
                ours.sort_unstable();
                if info.seed_sha256 != set.seed_sha256 || store.set_boards(&set.name)? != ours {
                    return Err(bad(format!(
                        "{}: set {:?} already exists with other deals (made with another value or other keys?); nothing was made",
                        p.display(),
                        set.name
                    )));
                }
            }
        }
    }
    // Something other than a file in the way stops everything before anything is written
    // or stored; each file is then replaced whole (a failure leaves the old one).
    if a.out.exists() && !a.out.is_dir() {
        return Err(bad(format!(
            "--out {}: exists and is not a directory; nothing was made",
            a.out.display()
        )));
    }
    if let Some((path, _)) = files.iter().find(|(p, _)| p.exists() && !p.is_file()) {
        return Err(bad(format!(
            "{}: exists and is not a file; nothing was made",
            path.display()
        )));
    }
    std::fs::create_dir_all(&a.out).map_err(|e| anyhow::anyhow!("{}: {e}", a.out.display()))?;
    for (path, bytes) in &files {
        replace_file(path, bytes)?;
    }
    if let Some(store) = &mut store {
        for (set, boards) in &sets {
            let o = store.store_set(set, boards)?;
            if o.already_stored {
                stored.1 += 1;
            } else {
                stored.0 += 1;
                stored.2 += o.new_deals;
            }
        }
    }
    if !a.quiet {
        for n in &notes {
            eprintln!("note: {n}");
        }
        for m in &made {
            eprintln!(
                "{:<6} {:<16} boards {}-{}",
                m.id.to_string(),
                m.name,
                m.first,
                m.last
            );
        }
        let boards: usize = made.iter().map(|m| m.boards.len()).sum();
        let mut msg = format!(
            "{sqd}: keys verified (KH), DV {:?}; made {} sessions, {boards} boards, {} files in {}",
            ev.delayed_value.as_deref().unwrap_or(""),
            made.len(),
            files.len(),
            a.out.display()
        );
        if let Some(p) = &db_path {
            msg += &format!(
                "; {} sets stored in {} ({} new deals), {} already there",
                stored.0,
                p.display(),
                stored.2,
                stored.1
            );
        }
        eprintln!("{msg}");
    }
    Ok(())
}

/// One row of the verification table.
struct Row {
    /// `P,S` or `P,A-B`, and the session (or joined) name; empty for a file that is no session.
    session: String,
    file: String,
    /// Boards in the file, matching boards, and the first difference ("-" when none).
    found: Option<(usize, usize)>,
    mismatch: String,
    ok: bool,
}

/// The hand-record files named on the command line: files as given, directories replaced by
/// the deal files in them (by extension), sorted by name.
fn collect_files(args: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in args {
        if p.is_dir() {
            let mut here: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| bad(format!("{}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && formats::by_path(f).is_some())
                .collect();
            here.sort();
            out.extend(here);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Compares the published copy's TN, DI, SN and KH with the final file's (SQUAREDEAL.md §4,
/// steps 1–2); returns one line per difference.
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

fn verify(a: VerifyArgs) -> anyhow::Result<()> {
    let (_, ev) = read_event(&a.file)?;
    let sqd = a.file.display().to_string();
    let keys_path = a.keys.clone().unwrap_or_else(|| default_keys(&a.file));
    let keys = read_keys(&keys_path)?;
    let published = match &a.published {
        Some(p) => Some(read_event(p)?.1),
        None => None,
    };
    let paths = collect_files(&a.files)?;
    // Read every matched file first: an unreadable hand record is bad input (exit 2).
    let mut inputs = Vec::new();
    for p in &paths {
        let stem = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let m = ev.match_file(&stem);
        let boards = match m {
            Some(_) => {
                let f = outputs::format_for(p, None)?;
                Some(files::read_file(p, f, 1)?)
            }
            None => None,
        };
        inputs.push((p, m, boards));
    }

    let mut problems: Vec<String> = Vec::new();
    let mut out = String::new();
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "event {:?} ({sqd}), protocol {}",
        ev.name.as_deref().unwrap_or(""),
        ev.protocol
    );
    let lf = if keys.is_canonical() {
        ""
    } else {
        " (over its CRLF form: the file's line ends differ, as SquareDeal allows)"
    };
    if a.partial && ev.protocol != Protocol::Dealdex {
        return Err(bad(format!(
            "{sqd}: --partial needs the dealdex protocol: SquareDeal's KH covers the whole key file"
        )));
    }
    match ev.key_hash {
        None => problems.push(format!("{sqd} has no KH line: nothing commits to the keys")),
        Some(kh) if ev.protocol == Protocol::Dealdex => match ev.check_commitments(&keys) {
            Ok(()) => {
                let _ = writeln!(
                    out,
                    "KH: ok, SHA-256 of the manifest (PV TN DI VF SN SH) is {}; every key given matches its SH line",
                    hex::encode(kh)
                );
            }
            Err(e) => problems.push(format!(
                "{}: {e}",
                blamed(&e, &a.file, &keys_path).display()
            )),
        },
        Some(kh) if kh == keys.hash() => {
            let _ = writeln!(
                out,
                "KH: ok, SHA-256 of {} is {}{lf}",
                keys_path.display(),
                hex::encode(kh)
            );
        }
        Some(kh) => problems.push(format!(
            "KH: SHA-256 of {} is {}{lf}, but KH is {}: these are not the published keys",
            keys_path.display(),
            hex::encode(keys.hash()),
            hex::encode(kh)
        )),
    }
    let missing = ev.missing_keys(&keys);
    if a.partial {
        let _ = writeln!(
            out,
            "keys: {} of {} sessions revealed (--partial: only those are checked)",
            keys.len() - ev.extra_keys(&keys).len(),
            ev.key_sessions().len()
        );
    } else if missing.is_empty() {
        let _ = writeln!(out, "keys: {} sessions, every one has a key", keys.len());
    } else {
        let list: Vec<String> = missing.iter().take(10).map(|s| s.to_string()).collect();
        problems.push(format!(
            "keys: {} sessions have no key: {}{}",
            missing.len(),
            list.join(" "),
            if missing.len() > 10 { " …" } else { "" }
        ));
    }
    let extra = ev.extra_keys(&keys);
    if !extra.is_empty() {
        let _ = writeln!(
            out,
            "note: {} keys are for sessions the event does not have (first: {})",
            extra.len(),
            extra[0]
        );
    }
    match &published {
        Some(orig) => {
            let diffs = compare_published(&ev, orig);
            if diffs.is_empty() {
                let _ = writeln!(
                    out,
                    "published copy: TN, DI, SN and KH unchanged ({})",
                    a.published.as_ref().expect("given").display()
                );
            }
            problems.extend(diffs);
        }
        None => {
            let _ = writeln!(
                out,
                "note: no --published copy: TN, DI, SN and KH are taken on trust (SQUAREDEAL.md §4)"
            );
        }
    }
    if let (Some(_), Err(e)) = (&ev.delayed_value, ev.checked_value()) {
        problems.push(format!("{sqd}: {e}"));
    }
    match &ev.delayed_value {
        Some(dv) if ev.protocol == Protocol::Dealdex => {
            let _ = writeln!(
                out,
                "DV {dv:?} (format {}): check that it is the value DI names: {:?}",
                ev.value_format.map_or("?".to_string(), |f| f.to_string()),
                ev.delayed_info.as_deref().unwrap_or("")
            );
        }
        Some(dv) => {
            let _ = writeln!(
                out,
                "DV {dv:?} (base64 {}): check by eye that it renders DI {:?} faithfully",
                event::base64(dv.as_bytes()),
                ev.delayed_info.as_deref().unwrap_or("")
            );
        }
        None => problems.push(format!("{sqd} has no DV line: the deals cannot be made")),
    }

    // Board counts of `?` sessions, from their own files.
    let mut counts: std::collections::HashMap<(u32, u32, bool), u64> = Default::default();
    for (_, m, boards) in &inputs {
        if let (Some(m), Some(b)) = (m, boards)
            && let event::NameMatch::Session(s) = m.name
        {
            counts
                .entry((m.phase, s, m.reserve))
                .or_insert(b.len() as u64);
        }
    }
    let mut rows = Vec::new();
    let mut details = Vec::new();
    let mut covered = std::collections::HashSet::new();
    let mut checked_boards = 0usize;
    for (path, m, boards) in &inputs {
        let file = path.display().to_string();
        let (Some(m), Some(boards)) = (m, boards) else {
            rows.push(Row {
                session: String::new(),
                file,
                found: None,
                mismatch: "not a session of this event".into(),
                ok: true,
            });
            continue;
        };
        let phase = &ev.phases[m.phase as usize - 1];
        let (label, name) = match m.name {
            event::NameMatch::Session(s) => (
                format!("{},{s}", m.phase),
                ev.session_name(
                    SessionId {
                        phase: m.phase,
                        session: s,
                    },
                    m.reserve,
                )
                .unwrap_or_default(),
            ),
            event::NameMatch::Joined(x, y) => {
                (format!("{},{x}-{y}", m.phase), phase.joined_name(x, y))
            }
        };
        let mut row = Row {
            session: format!("{label} {name}"),
            file,
            found: None,
            mismatch: String::new(),
            ok: false,
        };
        if ev.delayed_value.is_none() {
            row.mismatch = "not checked: no DV".into();
            rows.push(row);
            continue;
        }
        let sessions: Vec<u32> = m.sessions().collect();
        let mut expected = Vec::new();
        let mut failed = None;
        let mut total = 0u64;
        for &s in &sessions {
            let n = match phase.boards.range(s) {
                Some((x, y)) => y - x + 1,
                None => match counts.get(&(m.phase, s, m.reserve)) {
                    Some(&n) => n,
                    None if boards.len() % sessions.len() == 0 => {
                        (boards.len() / sessions.len()) as u64
                    }
                    None => {
                        failed = Some(format!(
                            "boards of session {},{s} unknown (? phase, no file of its own)",
                            m.phase
                        ));
                        break;
                    }
                },
            };
            total += n;
            if total > MAX_RUN_BOARDS {
                failed = Some(format!(
                    "the event has more than {MAX_RUN_BOARDS} boards for these sessions, more than one file is compared with"
                ));
                break;
            }
            match ev.session_deals(
                &keys,
                SessionId {
                    phase: m.phase,
                    session: s,
                },
                m.reserve,
                n,
            ) {
                Ok(d) => expected.extend(d),
                Err(e) => {
                    failed = Some(e.to_string());
                    break;
                }
            }
        }
        if let Some(f) = failed {
            row.mismatch = f;
            rows.push(row);
            continue;
        }
        let c = event::compare(&expected, boards);
        checked_boards += c.found;
        row.found = Some((c.found, c.matches));
        row.ok = c.ok();
        if let Some(x) = &c.first_mismatch {
            let at = x.board.map_or(format!("position {}", x.position + 1), |b| {
                format!("board {b}")
            });
            row.mismatch = if c.found != c.expected {
                format!("{} boards, the event has {}", c.found, c.expected)
            } else {
                at.clone()
            };
            let show =
                |d: &Option<dealdex::Deal>| d.map_or("no board".to_string(), |d| d.to_string());
            details.push(format!(
                "{}: {at}: the file has {}, the event makes {}",
                row.file,
                show(&x.found),
                show(&x.expected)
            ));
        } else {
            row.mismatch = "-".into();
            for s in sessions {
                covered.insert((m.phase, s, m.reserve));
            }
        }
        rows.push(row);
    }

    // The table.
    let w0 = rows
        .iter()
        .map(|r| r.session.len())
        .max()
        .unwrap_or(0)
        .max(7);
    let w1 = rows.iter().map(|r| r.file.len()).max().unwrap_or(0).max(4);
    let _ = writeln!(
        out,
        "\n{:<w0$}  {:<w1$}  {:>6}  {:>7}  first mismatch",
        "session", "file", "boards", "matches"
    );
    for r in &rows {
        let (f, m) = r
            .found
            .map_or(("-".to_string(), "-".to_string()), |(f, m)| {
                (f.to_string(), m.to_string())
            });
        let _ = writeln!(
            out,
            "{:<w0$}  {:<w1$}  {f:>6}  {m:>7}  {}",
            if r.session.is_empty() {
                "-"
            } else {
                &r.session
            },
            r.file,
            r.mismatch
        );
    }
    for d in &details {
        let _ = writeln!(out, "{d}");
    }
    let bad_rows = rows.iter().filter(|r| !r.ok).count();
    let session_rows = rows.iter().filter(|r| !r.session.is_empty()).count();
    let joined = inputs
        .iter()
        .filter(|(_, m, _)| m.is_some_and(|m| matches!(m.name, event::NameMatch::Joined(..))))
        .count();
    if checked_boards > 0 && rows.iter().all(|r| r.found.is_none_or(|(_, m)| m == 0)) {
        let _ = writeln!(
            out,
            "note: not one board matches: were the deals made with another DV or other keys?"
        );
    }
    let fixed: usize = ev
        .phases
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (1..=p.sessions)
                .filter(|&s| !covered.contains(&(i as u32 + 1, s, false)))
                .count()
        })
        .sum();
    let total: u64 = ev.phases.iter().map(|p| p.sessions as u64).sum();
    let _ = writeln!(
        out,
        "\n{session_rows} files ({} of sessions, {joined} joined), {checked_boards} boards compared; {} of {total} sessions verified, {fixed} without a matching file here",
        session_rows - joined,
        total - fixed as u64
    );
    if bad_rows > 0 {
        problems.push(format!(
            "{bad_rows} of {session_rows} files do not match the event"
        ));
    }
    if session_rows == 0 {
        problems.push("no hand record given matches a session of the event".into());
    }
    for p in &problems {
        let _ = writeln!(out, "FAILED: {p}");
    }
    if problems.is_empty() {
        let _ = writeln!(out, "verified: every file given matches the event");
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    if problems.is_empty() {
        Ok(())
    } else {
        Err(anyhow::anyhow!(
            "verification failed: {}",
            problems.join("; ")
        ))
    }
}
