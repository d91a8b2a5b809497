//! The event reports as text, the way `dealdex event …` prints them: [`std::fmt::Display`]
//! for [`NewReport`], [`PublishReport`], [`SetValueReport`], [`MakeReport`] and
//! [`VerifyReport`]. A wrapper or server shows the same text as the command line.

use std::fmt::{self, Display, Formatter};

use super::{
    FileCheck, FileOutcome, KeyHashCheck, MakeReport, NewReport, PublishReport, SetValueReport,
    VerifyReport,
};
use crate::event::SessionId;

/// The notes (`note: …` lines), then one line: the file, the event's name, protocol, phases
/// and sessions, and the next step (`dealdex event publish FILE`). No final newline.
impl Display for NewReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for n in &self.notes {
            writeln!(f, "note: {n}")?;
        }
        let variable = if self.variable_phases > 0 {
            format!(
                " (and {} phases of a variable number of sessions)",
                self.variable_phases
            )
        } else {
            String::new()
        };
        let file = self.file.display();
        write!(
            f,
            "{file}: event {:?}, protocol {}, {} phases, {} sessions{variable}; next: dealdex event publish {file}",
            self.name, self.protocol, self.phases, self.sessions
        )
    }
}

/// Three lines: KH as published, the key file to keep secret, and what to do next. No final
/// newline.
impl Display for PublishReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let sqd = self.file.display();
        write!(
            f,
            "{sqd}: published: KH {}\n{}: keys of {} sessions (mode 0600): keep it secret until after the event\n\
             now publish {sqd} as it is; after the delayed information is known: dealdex event set-value {sqd} VALUE",
            self.key_hash,
            self.keys_file.display(),
            self.sessions
        )
    }
}

/// A value recorded: DV, the bytes that feed the deals, how they do, and what to check (the
/// command prints this on stdout). Nothing recorded: one line `FILE: DV is already "…"` (on
/// stderr). No final newline.
///
/// ```
/// use dealdex::workflow::event::SetValueReport;
/// let r = SetValueReport {
///     file: "CUP.sqd".into(),
///     value: "1.5".into(),
///     recorded: false,
///     replaced: None,
///     protocol: "dealdex",
///     value_base64: None,
///     spelling_matters: false,
///     delayed_info: None,
/// };
/// assert_eq!(r.to_string(), r#"CUP.sqd: DV is already "1.5""#);
/// ```
impl Display for SetValueReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let sqd = self.file.display();
        if !self.recorded {
            return write!(f, "{sqd}: DV is already {:?}", self.value);
        }
        let bytes: Vec<String> = self.value.bytes().map(|b| format!("{b:02x}")).collect();
        writeln!(f, "DV {:?} recorded in {sqd}", self.value)?;
        write!(
            f,
            "the deals are fed these {} bytes: {}",
            self.value.len(),
            bytes.join(" ")
        )?;
        match &self.value_base64 {
            None => write!(
                f,
                "\neach session's seed: SHA-256 of dealdex-event/1, KH, these bytes, phase, session, kind and key (docs/event-protocol.md §5)"
            )?,
            Some(b64) => write!(
                f,
                "\nbase64(DV) = {b64} (each session's entropy: second half of its key, then {b64}, then original)"
            )?,
        }
        if self.spelling_matters {
            write!(
                f,
                "\nnote: only this exact spelling makes these deals (SQUAREDEAL.md §5): another rendering of the same value gives other deals"
            )?;
        }
        if let Some(di) = &self.delayed_info {
            write!(f, "\ncheck that it is a faithful rendering of DI: {di}")?;
        }
        Ok(())
    }
}

/// The notes, one line per session made (`1/3    R163             boards 33-48`), then the
/// totals: keys verified, DV, sessions, boards, files and the sets stored. No final newline.
impl Display for MakeReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for n in &self.notes {
            writeln!(f, "note: {n}")?;
        }
        for m in &self.sessions {
            let id = SessionId {
                phase: m.phase,
                session: m.session,
            };
            writeln!(
                f,
                "{:<6} {:<16} boards {}-{}",
                id.to_string(),
                m.name,
                m.first_board,
                m.last_board
            )?;
        }
        write!(
            f,
            "{}: keys verified (KH), DV {:?}; made {} sessions, {} boards, {} files in {}",
            self.file.display(),
            self.delayed_value,
            self.sessions.len(),
            self.boards,
            self.files.len(),
            self.out.display()
        )?;
        if let Some(p) = &self.db {
            write!(
                f,
                "; {} sets stored in {} ({} new deals), {} already there",
                self.sets_stored,
                p.display(),
                self.new_deals,
                self.sets_already_stored
            )?;
        }
        Ok(())
    }
}

/// The verification as text: the checks, the table of files, the first difference of each
/// file that differs, the counts, and `FAILED: …` lines (or `verified: …`). Every line ends
/// with a newline.
impl Display for VerifyReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let r = self;
        writeln!(
            f,
            "event {:?} ({}), protocol {}",
            r.name.as_deref().unwrap_or(""),
            r.file.display(),
            r.protocol
        )?;
        r.fmt_checks(f)?;
        r.fmt_files(f)?;
        if r.no_board_matches {
            writeln!(
                f,
                "note: not one board matches: were the deals made with another DV or other keys?"
            )?;
        }
        writeln!(
            f,
            "\n{} files ({} of sessions, {} joined), {} boards compared; {} of {} sessions verified, {} without a matching file here",
            r.session_files,
            r.session_files - r.joined_files,
            r.joined_files,
            r.boards_compared,
            r.sessions_verified,
            r.sessions,
            r.sessions_without_file
        )?;
        for p in &r.problems {
            writeln!(f, "FAILED: {p}")?;
        }
        if r.verified() {
            writeln!(f, "verified: every file given matches the event")?;
        }
        Ok(())
    }
}

impl VerifyReport {
    /// The lines of the checks that passed or need a person: KH, the keys, the published
    /// copy, DV (failures are the `FAILED:` lines).
    fn fmt_checks(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let r = self;
        match &r.key_hash {
            KeyHashCheck::Committed { key_hash } => writeln!(
                f,
                "KH: ok, SHA-256 of the manifest (PV TN DI VF SN SH) is {key_hash}; every key given matches its SH line"
            )?,
            KeyHashCheck::KeyFile {
                key_hash,
                crlf_form,
            } => {
                let lf = if *crlf_form {
                    " (over its CRLF form: the file's line ends differ, as SquareDeal allows)"
                } else {
                    ""
                };
                writeln!(
                    f,
                    "KH: ok, SHA-256 of {} is {key_hash}{lf}",
                    r.keys_file.display()
                )?;
            }
            _ => {}
        }
        let k = &r.keys;
        if k.partial {
            writeln!(
                f,
                "keys: {} of {} sessions revealed (a partial check: only those are checked)",
                k.revealed, k.sessions
            )?;
        } else if k.missing.is_empty() {
            writeln!(f, "keys: {} sessions, every one has a key", k.given)?;
        }
        if let Some(first) = k.extra.first() {
            writeln!(
                f,
                "note: {} keys are for sessions the event does not have (first: {first})",
                k.extra.len()
            )?;
        }
        match &r.published {
            Some(p) if p.differences.is_empty() => writeln!(
                f,
                "published copy: TN, DI, SN and KH unchanged ({})",
                p.path.display()
            )?,
            Some(_) => {}
            None => writeln!(
                f,
                "note: no published copy given: TN, DI, SN and KH are taken on trust (SQUAREDEAL.md §4)"
            )?,
        }
        let di = r.delayed_info.as_deref().unwrap_or("");
        match (&r.delayed_value, &r.value_base64) {
            (Some(dv), None) => writeln!(
                f,
                "DV {dv:?} (format {}): check that it is the value DI names: {di:?}",
                r.value_format.as_deref().unwrap_or("?")
            )?,
            (Some(dv), Some(b64)) => writeln!(
                f,
                "DV {dv:?} (base64 {b64}): check by eye that it renders DI {di:?} faithfully"
            )?,
            (None, _) => {}
        }
        Ok(())
    }

    /// The table of files, one row per file, then each differing file's first difference.
    fn fmt_files(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let rows: Vec<(String, String)> = self
            .files
            .iter()
            .map(|c| {
                let session = c
                    .session
                    .as_ref()
                    .map_or(String::new(), |s| format!("{} {}", s.label(), s.name));
                (session, c.path.display().to_string())
            })
            .collect();
        let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(7);
        let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(4);
        writeln!(
            f,
            "\n{:<w0$}  {:<w1$}  {:>6}  {:>7}  first mismatch",
            "session", "file", "boards", "matches"
        )?;
        let mut details = Vec::new();
        for (c, (session, file)) in self.files.iter().zip(&rows) {
            let (n, m) = match (c.boards, c.matches) {
                (Some(n), Some(m)) => (n.to_string(), m.to_string()),
                _ => ("-".to_string(), "-".to_string()),
            };
            let mismatch = mismatch_column(c, file, &mut details);
            let session = if session.is_empty() { "-" } else { session };
            writeln!(f, "{session:<w0$}  {file:<w1$}  {n:>6}  {m:>7}  {mismatch}")?;
        }
        for d in &details {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

/// The table's last column for file `c` (named `file`): why it was not compared, or where it
/// first differs, whose boards are then pushed to `details`.
fn mismatch_column(c: &FileCheck, file: &str, details: &mut Vec<String>) -> String {
    match &c.outcome {
        FileOutcome::NotASession => "not a session of this event".to_string(),
        FileOutcome::NotChecked { reason } => reason.clone(),
        FileOutcome::Verified => "-".to_string(),
        FileOutcome::Differs {
            expected_boards,
            mismatch: x,
        } => {
            let show = |d: &Option<crate::Deal>| d.map_or("no board".into(), |d| d.to_string());
            details.push(format!(
                "{file}: {}: the file has {}, the event makes {}",
                x.at(),
                show(&x.found),
                show(&x.expected)
            ));
            match c.boards {
                Some(found) if found != *expected_boards => {
                    format!("{found} boards, the event has {expected_boards}")
                }
                _ => x.at(),
            }
        }
    }
}
