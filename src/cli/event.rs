//! `dealdex event`: verifiable championship events in SquareDeal's files (SQUAREDEAL.md
//! §2–§4): describe, publish (commit to the keys), record the delayed value, make the deals,
//! verify them.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use dealdex::event::{self, Protocol, SessionId};
use dealdex::workflow::event::{
    self as flow, FileOutcome, KeyHashCheck, MakeJob, NewJob, PublishJob, SetValueJob, VerifyJob,
};

use super::outputs;

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
    /// kops, cds, hrf, hex, json, oneline.
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

/// Runs `dealdex event …`: the workflows of [`dealdex::workflow::event`], their reports
/// rendered as text or, with `--json`, as one JSON object on stdout.
pub fn run(a: EventArgs, json: bool) -> anyhow::Result<()> {
    match a.command {
        EventCommand::New(a) => new(a, json),
        EventCommand::Publish(a) => publish(a, json),
        EventCommand::SetValue(a) => set_value(a, json),
        EventCommand::Make(a) => make(a, json),
        EventCommand::Verify(a) => verify(a, json),
    }
}

/// Prints a report as one JSON object on stdout.
fn print_json(report: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{}", serde_json::to_string(report)?)?;
    stdout.flush()?;
    Ok(())
}

fn new(a: NewArgs, json: bool) -> anyhow::Result<()> {
    let job = NewJob {
        file: a.file,
        name: a.name,
        delayed_info: a.delayed_info,
        phases: a.phases,
        protocol: a.protocol,
        value_format: a.value_format,
    };
    let r = flow::new_event(&job)?;
    if json {
        return print_json(&r);
    }
    for n in &r.notes {
        eprintln!("note: {n}");
    }
    let variable = if r.variable_phases > 0 {
        format!(
            " (and {} phases of a variable number of sessions)",
            r.variable_phases
        )
    } else {
        String::new()
    };
    let file = r.file.display();
    eprintln!(
        "{file}: event {:?}, protocol {}, {} phases, {} sessions{variable}; next: dealdex event publish {file}",
        r.name, r.protocol, r.phases, r.sessions
    );
    Ok(())
}

fn publish(a: PublishArgs, json: bool) -> anyhow::Result<()> {
    let r = flow::publish(&PublishJob {
        file: a.file,
        keys: a.keys,
    })?;
    if json {
        return print_json(&r);
    }
    let sqd = r.file.display();
    eprintln!(
        "{sqd}: published: KH {}\n{}: keys of {} sessions (mode 0600): keep it secret until after the event\n\
         now publish {sqd} as it is; after the delayed information is known: dealdex event set-value {sqd} VALUE",
        r.key_hash,
        r.keys_file.display(),
        r.sessions
    );
    Ok(())
}

fn set_value(a: SetValueArgs, json: bool) -> anyhow::Result<()> {
    let r = flow::set_value(&SetValueJob {
        file: a.file,
        value: a.value,
        replace: a.replace,
    })?;
    if json {
        return print_json(&r);
    }
    let sqd = r.file.display();
    if !r.recorded {
        eprintln!("{sqd}: DV is already {:?}", r.value);
        return Ok(());
    }
    let bytes: Vec<String> = r.value.bytes().map(|b| format!("{b:02x}")).collect();
    println!("DV {:?} recorded in {sqd}", r.value);
    println!(
        "the deals are fed these {} bytes: {}",
        r.value.len(),
        bytes.join(" ")
    );
    match &r.value_base64 {
        None => println!(
            "each session's seed: SHA-256 of dealdex-event/1, KH, these bytes, phase, session, kind and key (docs/event-protocol.md §5)"
        ),
        Some(b64) => println!(
            "base64(DV) = {b64} (each session's entropy: second half of its key, then {b64}, then original)"
        ),
    }
    if r.spelling_matters {
        println!(
            "note: only this exact spelling makes these deals (SQUAREDEAL.md §5): another rendering of the same value gives other deals"
        );
    }
    if let Some(di) = &r.delayed_info {
        println!("check that it is a faithful rendering of DI: {di}");
    }
    Ok(())
}

fn make(a: MakeArgs, json: bool) -> anyhow::Result<()> {
    let formats = if a.format.is_empty() {
        vec![outputs::format_by_name("pbn")?]
    } else {
        a.format
            .iter()
            .map(|f| outputs::format_by_name(f))
            .collect::<anyhow::Result<_>>()?
    };
    let job = MakeJob {
        keys: a.keys,
        phase: a.phase,
        sessions: a.session.as_deref().map(flow::parse_sessions).transpose()?,
        reserve: a.reserve,
        boards: a.boards.as_deref().map(flow::parse_boards).transpose()?,
        out: a.out,
        formats,
        db: (!a.no_db).then(|| a.db.unwrap_or_else(|| dealdex::DEFAULT_DATABASE.into())),
        file: a.file,
    };
    let r = flow::make(&job)?;
    if json {
        return print_json(&r);
    }
    if a.quiet {
        return Ok(());
    }
    for n in &r.notes {
        eprintln!("note: {n}");
    }
    for m in &r.sessions {
        let id = SessionId {
            phase: m.phase,
            session: m.session,
        };
        eprintln!(
            "{:<6} {:<16} boards {}-{}",
            id.to_string(),
            m.name,
            m.first_board,
            m.last_board
        );
    }
    let mut msg = format!(
        "{}: keys verified (KH), DV {:?}; made {} sessions, {} boards, {} files in {}",
        r.file.display(),
        r.delayed_value,
        r.sessions.len(),
        r.boards,
        r.files.len(),
        r.out.display()
    );
    if let Some(p) = &r.db {
        msg += &format!(
            "; {} sets stored in {} ({} new deals), {} already there",
            r.sets_stored,
            p.display(),
            r.new_deals,
            r.sets_already_stored
        );
    }
    eprintln!("{msg}");
    Ok(())
}

fn verify(a: VerifyArgs, json: bool) -> anyhow::Result<()> {
    let r = flow::verify(&VerifyJob {
        file: a.file,
        keys: a.keys,
        published: a.published,
        files: a.files,
        partial: a.partial,
    })?;
    if json {
        print_json(&r)?;
    } else {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(verify_text(&r).as_bytes())?;
        stdout.flush()?;
    }
    if r.verified() {
        Ok(())
    } else {
        Err(anyhow::anyhow!(
            "verification failed: {}",
            r.problems.join("; ")
        ))
    }
}

/// The verification report as text: the checks, the table of files, the first difference
/// of each file that differs, the counts, and FAILED lines (or `verified`).
fn verify_text(r: &flow::VerifyReport) -> String {
    let mut out = String::new();
    let sqd = r.file.display();
    let _ = writeln!(
        out,
        "event {:?} ({sqd}), protocol {}",
        r.name.as_deref().unwrap_or(""),
        r.protocol
    );
    match &r.key_hash {
        KeyHashCheck::Committed { key_hash } => {
            let _ = writeln!(
                out,
                "KH: ok, SHA-256 of the manifest (PV TN DI VF SN SH) is {key_hash}; every key given matches its SH line"
            );
        }
        KeyHashCheck::KeyFile {
            key_hash,
            crlf_form,
        } => {
            let lf = if *crlf_form {
                " (over its CRLF form: the file's line ends differ, as SquareDeal allows)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "KH: ok, SHA-256 of {} is {key_hash}{lf}",
                r.keys_file.display()
            );
        }
        _ => {}
    }
    let k = &r.keys;
    if k.partial {
        let _ = writeln!(
            out,
            "keys: {} of {} sessions revealed (--partial: only those are checked)",
            k.revealed, k.sessions
        );
    } else if k.missing.is_empty() {
        let _ = writeln!(out, "keys: {} sessions, every one has a key", k.given);
    }
    if let Some(first) = k.extra.first() {
        let _ = writeln!(
            out,
            "note: {} keys are for sessions the event does not have (first: {first})",
            k.extra.len()
        );
    }
    match &r.published {
        Some(p) if p.differences.is_empty() => {
            let _ = writeln!(
                out,
                "published copy: TN, DI, SN and KH unchanged ({})",
                p.path.display()
            );
        }
        Some(_) => {}
        None => {
            let _ = writeln!(
                out,
                "note: no --published copy: TN, DI, SN and KH are taken on trust (SQUAREDEAL.md §4)"
            );
        }
    }
    let di = r.delayed_info.as_deref().unwrap_or("");
    match (&r.delayed_value, &r.value_base64) {
        (Some(dv), None) => {
            let _ = writeln!(
                out,
                "DV {dv:?} (format {}): check that it is the value DI names: {di:?}",
                r.value_format.as_deref().unwrap_or("?")
            );
        }
        (Some(dv), Some(b64)) => {
            let _ = writeln!(
                out,
                "DV {dv:?} (base64 {b64}): check by eye that it renders DI {di:?} faithfully"
            );
        }
        (None, _) => {}
    }

    // The table: one row per file, then each differing file's first difference.
    let rows: Vec<(String, String)> = r
        .files
        .iter()
        .map(|f| {
            let session = f
                .session
                .as_ref()
                .map_or(String::new(), |s| format!("{} {}", s.label(), s.name));
            (session, f.path.display().to_string())
        })
        .collect();
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(7);
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(4);
    let _ = writeln!(
        out,
        "\n{:<w0$}  {:<w1$}  {:>6}  {:>7}  first mismatch",
        "session", "file", "boards", "matches"
    );
    let mut details = Vec::new();
    for (f, (session, file)) in r.files.iter().zip(&rows) {
        let (n, m) = match (f.boards, f.matches) {
            (Some(n), Some(m)) => (n.to_string(), m.to_string()),
            _ => ("-".to_string(), "-".to_string()),
        };
        let mismatch = match &f.outcome {
            FileOutcome::NotASession => "not a session of this event".to_string(),
            FileOutcome::NotChecked { reason } => reason.clone(),
            FileOutcome::Verified => "-".to_string(),
            FileOutcome::Differs {
                expected_boards,
                mismatch: x,
            } => {
                let show = |d: &Option<String>| d.clone().unwrap_or_else(|| "no board".into());
                details.push(format!(
                    "{file}: {}: the file has {}, the event makes {}",
                    x.at(),
                    show(&x.found),
                    show(&x.expected)
                ));
                match f.boards {
                    Some(found) if found != *expected_boards => {
                        format!("{found} boards, the event has {expected_boards}")
                    }
                    _ => x.at(),
                }
            }
        };
        let session = if session.is_empty() { "-" } else { session };
        let _ = writeln!(
            out,
            "{session:<w0$}  {file:<w1$}  {n:>6}  {m:>7}  {mismatch}"
        );
    }
    for d in &details {
        let _ = writeln!(out, "{d}");
    }
    if r.no_board_matches {
        let _ = writeln!(
            out,
            "note: not one board matches: were the deals made with another DV or other keys?"
        );
    }
    let _ = writeln!(
        out,
        "\n{} files ({} of sessions, {} joined), {} boards compared; {} of {} sessions verified, {} without a matching file here",
        r.session_files,
        r.session_files - r.joined_files,
        r.joined_files,
        r.boards_compared,
        r.sessions_verified,
        r.sessions,
        r.sessions_without_file
    );
    for p in &r.problems {
        let _ = writeln!(out, "FAILED: {p}");
    }
    if r.verified() {
        let _ = writeln!(out, "verified: every file given matches the event");
    }
    out
}
