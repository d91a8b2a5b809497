//! Verifiable championship events: SquareDeal's description (`.sqd`) and key (`.sqk`) files
//! and the deals they make (SQUAREDEAL.md §2–§4).
//!
//! An [`Event`] is what a `.sqd` file describes: the tournament name (TN), the description of
//! the delayed information (DI) and, once known, its value (DV), the phases (SN lines) and,
//! from publication on, the SHA-256 of the key file (KH). [`Keys`] holds the secret key of
//! every session. [`Event::session_deals`] turns an event, its keys and a session into the
//! session's deals through Big Deal's stream ([`generation::bigdeal`]); the per-session
//! derivation sits behind [`Event::derivation`], which dispatches on the event's [`Protocol`]:
//! SquareDeal's, or dealdex's stricter `dealdex-event/1` ([`protocol`]). [`Event::match_file`]
//! and [`compare`] tell which session a hand-record file is and whether it holds the event's
//! deals. Every failure is an [`Error`] ([`ErrorKind`]).
//!
//! The engine re-exports this crate as `dealdex::event`; its workflows (`dealdex event new |
//! publish | set-value | make | verify`) read and write the files. Depends on the model and
//! generation only.
//!
//! ```
//! use dealdex::event::{Event, Keys, SessionId};
//! let sqd = "TN Club\nDI DJI1910\nDV 43275.91\nSN 2:1-16,17-32:RR#:Round robin\n";
//! let event = Event::parse(sqd)?;
//! assert_eq!(event.phases[0].session_name(2), "RR2");
//! assert_eq!(event.phases[0].boards.range(2), Some((17, 32)));
//! let keys = Keys::parse(b"1,1:hrzkVbQb9F0QhgIYEwfBUwKjNHDoGZXMYxVBbJZaWXnJf233CI5MJo7buhPR\r\n1,2:x\r\n")?;
//! let deals = event.session_deals(&keys, SessionId { phase: 1, session: 1 }, false, 16)?;
//! assert_eq!(
//!     deals[0].to_string(),
//!     "N:AJ65.K82.AK8.J75 8.AQT75.QJT4.Q64 KT2..96532.KT983 Q9743.J9643.7.A2"
//! );
//! # Ok::<(), dealdex::event::Error>(())
//! ```

#![deny(missing_docs)]

// The model and generation under their names in the engine (`crate::model::…`).
use dealdex_generation as generation;
use dealdex_model as model;
use dealdex_model::classified;

mod error;
mod keys;
pub mod protocol;
mod verify;

use std::fmt;

pub use error::{Error, ErrorKind};
pub use keys::{KEY_ALPHABET, KEY_LENGTH, Keys, random_key};
pub use verify::{Comparison, FileMatch, Mismatch, NameMatch, compare};

use crate::generation::bigdeal::BigDealStream;
use crate::generation::stream::Seed;
use crate::model::deal::Deal;
use crate::protocol::{Manifest, PROTOCOL_VERSION, ValueFormat, key_commitment, session_seed};

/// How an event's sessions are turned into deals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Protocol {
    /// SquareDeal 2.x (SQUAREDEAL.md §3): the session key's first half is Big Deal's wizard,
    /// its second half, base64(DV) and `original`/`reserve` (and `ses<S>` in a variable
    /// phase) its entropy.
    #[default]
    SquareDeal,
    /// dealdex's stricter protocol `dealdex-event/1` (docs/event-protocol.md): KH commits
    /// to a canonical manifest of the whole event and one commitment per session key; the
    /// value must match a declared format; each session's seed mixes in KH, DV, phase,
    /// session and kind, and drives dealdex's ChaCha20 generation.
    Dealdex,
}

impl Protocol {
    /// The protocol's name on the command line: `squaredeal` or `dealdex`.
    pub const fn name(self) -> &'static str {
        match self {
            Protocol::SquareDeal => "squaredeal",
            Protocol::Dealdex => "dealdex",
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Protocol {
    type Err = Error;

    /// Parses `squaredeal` or `dealdex` (also `dealdex-event/1`), any case.
    fn from_str(s: &str) -> Result<Protocol, Error> {
        match s.to_ascii_lowercase().as_str() {
            "squaredeal" => Ok(Protocol::SquareDeal),
            "dealdex" | "dealdex-event/1" => Ok(Protocol::Dealdex),
            _ => Err(ErrorKind::UnknownProtocol { name: s.to_owned() }.into()),
        }
    }
}

/// A session: phase P (1-based, in SN order) and session S (1-based; 0 names the single key
/// of a variable phase). Written `P,S` as in the key file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SessionId {
    /// Phase number, 1-based.
    pub phase: u32,
    /// Session number, 1-based (0: a variable phase's key).
    pub session: u32,
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.phase, self.session)
    }
}

/// The boards of a phase's sessions (the `boards` field of an SN line, SQUAREDEAL.md §2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Boards {
    /// Inclusive board ranges `(a, b)`, cycled over the sessions: session s uses entry
    /// (s − 1) mod len. `N` is written for `(1, N)`.
    Ranges(Vec<(u64, u64)>),
    /// `?`: the count is chosen when the deals are made.
    Unknown,
}

/// The most sessions a phase may have: far above any championship, low enough that a typo
/// cannot make `event publish` draw billions of keys.
pub const MAX_SESSIONS: u32 = 10_000;

/// The most boards one session may have (a `?` count included).
pub const MAX_SESSION_BOARDS: u64 = 1_000_000;

impl Boards {
    /// Parses `?`, `N` (1..N), `a-b`, or a comma list of those (`1-16,17-32`).
    ///
    /// # Errors
    /// An [`Error`] naming the entry (or the number in it) that is wrong:
    /// [`ErrorKind::NotABoardNumber`], [`ErrorKind::BoardNumberTooLarge`], not a range with
    /// 1 ≤ a ≤ b ([`ErrorKind::NotABoardRange`]), beyond `i64::MAX`
    /// ([`ErrorKind::BoardsBeyondLast`]), or more than [`MAX_SESSION_BOARDS`] boards
    /// ([`ErrorKind::TooManySessionBoards`]).
    pub fn parse(text: &str) -> Result<Boards, Error> {
        if text == "?" {
            return Ok(Boards::Unknown);
        }
        let num = |t: &str| -> Result<u64, ErrorKind> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ErrorKind::NotABoardNumber {
                    text: t.to_owned(),
                    in_sn: false,
                });
            }
            t.parse::<u64>()
                .map_err(|_| ErrorKind::BoardNumberTooLarge {
                    text: t.to_owned(),
                    in_sn: false,
                })
        };
        let mut ranges = Vec::new();
        for entry in text.split(',') {
            let (a, b) = match entry.split_once('-') {
                Some((a, b)) => (num(a)?, num(b)?),
                None => (1, num(entry)?),
            };
            let entry = entry.to_owned();
            if a == 0 || b < a {
                return Err(ErrorKind::NotABoardRange {
                    entry,
                    in_sn: false,
                }
                .into());
            }
            if b > i64::MAX as u64 {
                return Err(ErrorKind::BoardsBeyondLast {
                    entry,
                    in_sn: false,
                }
                .into());
            }
            if b - a >= MAX_SESSION_BOARDS {
                let boards = b - a + 1;
                return Err(ErrorKind::TooManySessionBoards {
                    entry,
                    boards,
                    in_sn: false,
                }
                .into());
            }
            ranges.push((a, b));
        }
        Ok(Boards::Ranges(ranges))
    }

    /// The board range of session `s` (≥ 1): entry (s − 1) mod len; `None` for `?`.
    pub fn range(&self, s: u32) -> Option<(u64, u64)> {
        match self {
            Boards::Ranges(r) => Some(r[(s.max(1) as usize - 1) % r.len()]),
            Boards::Unknown => None,
        }
    }
}

impl fmt::Display for Boards {
    /// As in an SN line: `?`, or the ranges (`N` for 1-N).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Boards::Unknown => f.write_str("?"),
            Boards::Ranges(r) => {
                for (j, &(a, b)) in r.iter().enumerate() {
                    if j > 0 {
                        f.write_str(",")?;
                    }
                    if a == 1 {
                        write!(f, "{b}")?;
                    } else {
                        write!(f, "{a}-{b}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// One phase of an event: an SN line `nsessions:boards:fileprefix:description`
/// (SQUAREDEAL.md §2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// Number of sessions; 0 for a variable number (one key `P,0`).
    pub sessions: u32,
    /// The boards of each session.
    pub boards: Boards,
    /// File prefix: `^[A-Za-z][A-Za-z0-9#_-]*$`, one run of `#` for the session number.
    pub prefix: String,
    /// Free-text description (a `#` in it stands for the session number).
    pub description: String,
    /// The SN line's text after `SN `, as read: what a published copy is compared with.
    pub text: String,
}

impl Phase {
    /// Parses the text of an SN line after `SN `.
    ///
    /// # Errors
    /// An [`Error`] naming the field that is wrong: fewer than three `:`-separated
    /// fields, `nsessions` not a number or above [`MAX_SESSIONS`], bad `boards` (see
    /// [`Boards::parse`]), a file prefix outside `^[A-Za-z][A-Za-z0-9#_-]*$` or with two runs
    /// of `#`, or one without `#` for a phase of several (or a variable number of) sessions.
    pub fn parse(text: &str) -> Result<Phase, Error> {
        let mut f = text.splitn(4, ':');
        let (Some(n), Some(boards), Some(prefix)) = (f.next(), f.next(), f.next()) else {
            return Err(ErrorKind::PhaseShape {
                text: text.to_owned(),
            }
            .into());
        };
        let description = f.next().unwrap_or("").to_string();
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ErrorKind::SessionsNotANumber {
                value: n.to_owned(),
            }
            .into());
        }
        let sessions: u32 = n
            .parse()
            .ok()
            .filter(|&s| s <= MAX_SESSIONS)
            .ok_or_else(|| ErrorKind::TooManySessions {
                value: n.to_owned(),
            })?;
        let boards = Boards::parse(boards).map_err(Error::in_sn_line)?;
        check_prefix(prefix, sessions)?;
        Ok(Phase {
            sessions,
            boards,
            prefix: prefix.to_string(),
            description,
            text: text.to_string(),
        })
    }

    /// True when the number of sessions is variable (`nsessions` = 0).
    pub fn is_variable(&self) -> bool {
        self.sessions == 0
    }

    /// The session number under which session `s`'s key is filed: `s`, or 0 in a variable
    /// phase.
    pub fn key_session(&self, s: u32) -> u32 {
        if self.is_variable() { 0 } else { s }
    }

    /// The prefix split around its run of `#`: (before, width of the run, after); width 0
    /// when there is no `#`.
    fn split_prefix(&self) -> (&str, usize, &str) {
        match self.prefix.find('#') {
            None => (&self.prefix, 0, ""),
            Some(i) => {
                let w = self.prefix[i..].bytes().take_while(|&b| b == b'#').count();
                (&self.prefix[..i], w, &self.prefix[i + w..])
            }
        }
    }

    /// Session `s`'s file name without extension: the run of `#` replaced by `s` zero-padded
    /// to the run's width (`OPRR##` → `OPRR01`, `R16#` → `R161`).
    pub fn session_name(&self, s: u32) -> String {
        let (pre, w, post) = self.split_prefix();
        if w == 0 {
            return self.prefix.clone();
        }
        format!("{pre}{s:0w$}{post}")
    }

    /// The name SquareDeal gives the joined file of sessions `a..=b` (`SWISS01-03`, `R161-2`).
    pub fn joined_name(&self, a: u32, b: u32) -> String {
        let (pre, w, post) = self.split_prefix();
        if w == 0 {
            return self.prefix.clone();
        }
        format!("{pre}{a:0w$}-{b:0w$}{post}")
    }

    /// The description of session `s` (`#` runs replaced as in the file prefix).
    pub fn session_description(&self, s: u32) -> String {
        match self.description.find('#') {
            None => self.description.clone(),
            Some(i) => {
                let w = self.description[i..]
                    .bytes()
                    .take_while(|&b| b == b'#')
                    .count();
                format!(
                    "{}{s:0w$}{}",
                    &self.description[..i],
                    &self.description[i + w..]
                )
            }
        }
    }

    /// Does this session number exist in the phase? (1..=nsessions, any ≥ 1 when variable.)
    pub fn has_session(&self, s: u32) -> bool {
        s >= 1 && (self.is_variable() || s <= self.sessions)
    }

    /// Reads a file name (without extension) as one of this phase's session names or joined
    /// names; `None` when it is neither. A joined name joins at most [`MAX_SESSIONS`]
    /// sessions (a variable phase has no last session to bound it).
    pub fn parse_name(&self, stem: &str) -> Option<NameMatch> {
        let (pre, w, post) = self.split_prefix();
        if w == 0 {
            return (stem == self.prefix).then_some(NameMatch::Session(1));
        }
        let middle = stem.strip_prefix(pre)?.strip_suffix(post)?;
        let number = |t: &str| -> Option<u32> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let n: u32 = t.parse().ok()?;
            (format!("{n:0w$}") == t && self.has_session(n)).then_some(n)
        };
        if let Some(n) = number(middle) {
            return Some(NameMatch::Session(n));
        }
        let (a, b) = middle.split_once('-')?;
        let (a, b) = (number(a)?, number(b)?);
        (a < b && b - a < MAX_SESSIONS).then_some(NameMatch::Joined(a, b))
    }
}

/// Checks a file prefix: `^[A-Za-z][A-Za-z0-9#_-]*$`, at most one run of `#`, and a run of `#`
/// when the phase has several (or a variable number of) sessions.
fn check_prefix(prefix: &str, sessions: u32) -> Result<(), Error> {
    let ok = prefix
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic())
        && prefix
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"#_-".contains(&b));
    if !ok {
        return Err(ErrorKind::PrefixChars {
            prefix: prefix.to_owned(),
        }
        .into());
    }
    let runs = prefix
        .as_bytes()
        .windows(2)
        .filter(|w| w[0] != b'#' && w[1] == b'#')
        .count();
    if runs > 1 {
        return Err(ErrorKind::PrefixTwoRuns {
            prefix: prefix.to_owned(),
        }
        .into());
    }
    if sessions != 1 && !prefix.contains('#') {
        return Err(ErrorKind::PrefixNoRun {
            prefix: prefix.to_owned(),
            sessions,
        }
        .into());
    }
    Ok(())
}

/// How one session's deals are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Derivation {
    /// SquareDeal: Big Deal's stream (SQUAREDEAL.md §1) with these inputs.
    BigDeal {
        /// The wizard string (bigdealx `-W`).
        wizard: Vec<u8>,
        /// The entropy strings (bigdealx `-e`), hashed as one concatenation.
        entropy: Vec<Vec<u8>>,
    },
    /// dealdex protocol: dealdex's seeded generation (docs/GUIDE.md "Generation"); board `b`
    /// (1-based) is `seed.board_deal(b − 1)` (docs/event-protocol.md §5).
    Seeded(Seed),
}

impl Derivation {
    /// The session's Big Deal stream; `None` for a seeded derivation.
    pub fn stream(&self) -> Option<BigDealStream> {
        match self {
            Derivation::BigDeal { wizard, entropy } => {
                let e: Vec<&[u8]> = entropy.iter().map(Vec::as_slice).collect();
                Some(BigDealStream::new(wizard, &e))
            }
            Derivation::Seeded(_) => None,
        }
    }

    /// What the store records for the session's set: SHA-256 of its secret (the Big Deal
    /// stream's seeds, or the 32-byte seed).
    pub fn seed_sha256(&self) -> [u8; 32] {
        match self {
            Derivation::BigDeal { .. } => self.stream().expect("Big Deal").sha256(),
            Derivation::Seeded(seed) => seed.sha256(),
        }
    }

    /// The first `count` deals (boards 1..=count).
    ///
    /// # Errors
    /// [`ErrorKind::TooManyBoards`] when `count` does not fit memory,
    /// [`ErrorKind::CounterExhausted`] when it exhausts Big Deal's 32-bit counter.
    pub fn deals(&self, count: u64) -> Result<Vec<Deal>, Error> {
        let n = usize::try_from(count).map_err(|_| ErrorKind::TooManyBoards { count })?;
        match self {
            Derivation::BigDeal { .. } => {
                let deals = self.stream().expect("Big Deal").take_deals(n);
                if deals.len() != n {
                    return Err(ErrorKind::CounterExhausted { count }.into());
                }
                Ok(deals)
            }
            Derivation::Seeded(seed) => {
                let mut out = vec![
                    Deal::from_number(1, crate::model::number::Scheme::Pavlicek)
                        .expect("1");
                    n
                ];
                seed.fill_deals(0, &mut out);
                Ok(out)
            }
        }
    }
}

/// A championship event as its description file holds it (SQUAREDEAL.md §2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Event {
    /// How sessions become deals.
    pub protocol: Protocol,
    /// TN: the tournament name.
    pub name: Option<String>,
    /// DI: what the delayed information will be (e.g. `DJI1910`).
    pub delayed_info: Option<String>,
    /// DV: the delayed-information value, exactly as stored (its bytes feed the deals).
    pub delayed_value: Option<String>,
    /// The phases, in SN order (phase P is `phases[P − 1]`).
    pub phases: Vec<Phase>,
    /// KH, once published: SHA-256 of the key file (SquareDeal) or of the manifest
    /// (dealdex protocol, [`Event::manifest`]).
    pub key_hash: Option<[u8; 32]>,
    /// VF (dealdex protocol): the format the delayed value must have.
    pub value_format: Option<ValueFormat>,
    /// SH lines (dealdex protocol): the commitment to each session's key, in file order.
    pub key_commitments: Vec<(SessionId, [u8; 32])>,
}

/// The version comment dealdex writes at the top of a `.sqd` file: SquareDeal reads the
/// version from it (SQUAREDEAL.md §2).
pub const SQD_VERSION_COMMENT: &str = "# Description file of tournament for program SquareDeal 2.7";

impl Event {
    /// Parses a `.sqd` file (SQUAREDEAL.md §2): CRLF or LF (a leading byte-order mark is
    /// skipped); on each line `\r` and trailing white space are stripped; `#` lines are
    /// comments and unknown lines are ignored. The protocol is [`Protocol::SquareDeal`], the
    /// only one so far (another protocol will be told apart by a line of its own).
    ///
    /// # Errors
    /// [`ErrorKind::Sqd`] with the line number: a malformed SN line (see [`Phase::parse`]), a
    /// KH that is not 64 hex digits, a second TN, DI, DV, KH, PV or VF line, a second SH line
    /// for a session.
    pub fn parse(text: &str) -> Result<Event, Error> {
        let mut ev = Event::default();
        let mut seen: [Option<usize>; 6] = [None; 6];
        let mut sn_lines = Vec::new();
        let mut sh_line = None;
        let mut sh_lines: Vec<(SessionId, usize)> = Vec::new();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in text.split('\n').enumerate() {
            let line_no = i + 1;
            let line = raw.trim_end_matches('\r').trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((tag, value)) = tag_of(line) else {
                continue;
            };
            let err = |message: String| {
                Error::from(ErrorKind::Sqd {
                    line: line_no,
                    message,
                })
            };
            let slot = match tag {
                "TN" => Some(0),
                "DI" => Some(1),
                "DV" => Some(2),
                "KH" => Some(3),
                "PV" => Some(4),
                "VF" => Some(5),
                _ => None,
            };
            if let Some(k) = slot {
                if let Some(first) = seen[k] {
                    return Err(err(format!(
                        "a second {tag} line (the first is line {first})"
                    )));
                }
                seen[k] = Some(line_no);
            }
            match tag {
                "TN" => ev.name = Some(value.to_string()),
                "DI" => ev.delayed_info = Some(value.to_string()),
                "DV" => ev.delayed_value = Some(value.to_string()),
                "KH" => {
                    let col0 = line.len() - value.len();
                    ev.key_hash = Some(parse_key_hash(value, col0).map_err(err)?);
                }
                "SN" => {
                    ev.phases
                        .push(Phase::parse(value).map_err(|e| err(e.to_string()))?);
                    sn_lines.push(line_no);
                }
                "PV" => {
                    if value != PROTOCOL_VERSION {
                        return Err(err(format!(
                            "PV {value:?}: unknown protocol version (this dealdex knows {PROTOCOL_VERSION})"
                        )));
                    }
                    ev.protocol = Protocol::Dealdex;
                }
                "VF" => ev.value_format = Some(value.parse().map_err(|e| err(format!("VF: {e}")))?),
                "SH" => {
                    let (id, c) = parse_commitment(value).map_err(err)?;
                    if let Some(&(_, first)) = sh_lines.iter().find(|(s, _)| *s == id) {
                        return Err(err(format!(
                            "a second SH line for session {id} (the first is line {first})"
                        )));
                    }
                    sh_lines.push((id, line_no));
                    ev.key_commitments.push((id, c));
                    sh_line.get_or_insert(line_no);
                }
                _ => unreachable!("tag_of returns known tags"),
            }
        }
        if ev.protocol == Protocol::SquareDeal {
            if let Some(line) = seen[5].or(sh_line) {
                return Err(ErrorKind::Sqd {
                    line,
                    message: "VF and SH lines belong to the dealdex protocol, but the file has no PV line".into(),
                }.into());
            }
        } else {
            if let Some(i) = ev.phases.iter().position(Phase::is_variable) {
                return Err(ErrorKind::Sqd {
                    line: sn_lines[i],
                    message: "the dealdex protocol needs a number of sessions: declare the most the phase may need (unused keys are revealed and ignored)".into(),
                }.into());
            }
        }
        Ok(ev)
    }

    /// Parses a `.sqd` file's bytes: [`Event::parse`] of its text, which must be UTF-8.
    ///
    /// # Errors
    /// [`ErrorKind::Sqd`] naming the line, byte offset (0-based, in the file) and column
    /// (1-based, in bytes) of the first byte that is not UTF-8; else as [`Event::parse`].
    pub fn parse_bytes(bytes: &[u8]) -> Result<Event, Error> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Event::parse(text),
            Err(e) => {
                let at = e.valid_up_to();
                let before = &bytes[..at];
                let line_start = before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                Err(ErrorKind::Sqd {
                    line: before.iter().filter(|&&b| b == b'\n').count() + 1,
                    message: format!(
                        "byte offset {at}, column {}: byte 0x{:02X} is not UTF-8 text",
                        at - line_start + 1,
                        bytes[at]
                    ),
                }
                .into())
            }
        }
    }

    /// The `.sqd` text of this event in SquareDeal's layout (version comment, TN, DI, DV if
    /// set, the SN lines, KH if set), with `\r\n` line ends when `crlf`.
    pub fn to_sqd(&self, crlf: bool) -> String {
        if self.protocol == Protocol::Dealdex {
            return self.to_dealdex_sqd(crlf);
        }
        let mut lines = vec![
            SQD_VERSION_COMMENT.to_string(),
            "#".to_string(),
            format!("TN {}", self.name.as_deref().unwrap_or("")),
            format!("DI {}", self.delayed_info.as_deref().unwrap_or("")),
        ];
        if let Some(v) = &self.delayed_value {
            lines.push(format!("DV {v}"));
        }
        lines.push("# Description of phases of tournament".into());
        lines.push("# Per phase a line with SN nessions:nboards:filename:description".into());
        for p in &self.phases {
            lines.push(format!("SN {}", p.text));
        }
        if let Some(kh) = &self.key_hash {
            lines.push(format!("KH {}", hex::encode(kh)));
        }
        join_lines(&lines, crlf)
    }

    /// The `.sqd` text of a dealdex-protocol event (docs/event-protocol.md §1): a comment, PV,
    /// TN, DI, VF, DV if set, the SN lines, the SH lines and KH if set.
    fn to_dealdex_sqd(&self, crlf: bool) -> String {
        let mut lines = vec![
            "# Description file of tournament for dealdex event protocol 1 (docs/event-protocol.md)"
                .to_string(),
            format!("PV {PROTOCOL_VERSION}"),
            format!("TN {}", self.name.as_deref().unwrap_or("")),
            format!("DI {}", self.delayed_info.as_deref().unwrap_or("")),
        ];
        if let Some(vf) = self.value_format {
            lines.push(format!("VF {vf}"));
        }
        if let Some(v) = &self.delayed_value {
            lines.push(format!("DV {v}"));
        }
        for p in &self.phases {
            lines.push(format!("SN {}", p.text));
        }
        let mut sh = self.key_commitments.clone();
        sh.sort_unstable();
        for (id, c) in sh {
            lines.push(format!("SH {id}:{}", hex::encode(c)));
        }
        if let Some(kh) = &self.key_hash {
            lines.push(format!("KH {}", hex::encode(kh)));
        }
        join_lines(&lines, crlf)
    }

    /// The dealdex protocol's manifest of this event (docs/event-protocol.md §4): PV, TN,
    /// DI, VF, the SN lines and the SH lines; its [`Manifest::hash`] is KH.
    ///
    /// # Errors
    /// [`ErrorKind::NoValueFormat`] when VF is missing.
    pub fn manifest(&self) -> Result<Manifest<'_>, Error> {
        Ok(Manifest {
            name: self.name.as_deref().unwrap_or(""),
            delayed_info: self.delayed_info.as_deref().unwrap_or(""),
            value_format: self.value_format.ok_or(ErrorKind::NoValueFormat)?,
            phases: self.phases.iter().map(|p| p.text.as_str()).collect(),
            key_commitments: self
                .key_commitments
                .iter()
                .map(|(id, c)| (id.phase, id.session, *c))
                .collect(),
        })
    }

    /// Publishes a dealdex-protocol event with `keys`: sets one SH line per session and KH =
    /// SHA-256 of the manifest (docs/event-protocol.md §2, §4).
    ///
    /// # Errors
    /// [`ErrorKind::CommitNeedsDealdex`] for a SquareDeal event,
    /// [`ErrorKind::NoValueFormat`] without VF, [`ErrorKind::NoKeyFor`] when `keys` lacks a
    /// session.
    pub fn commit_keys(&mut self, keys: &Keys) -> Result<(), Error> {
        if self.protocol != Protocol::Dealdex {
            return Err(ErrorKind::CommitNeedsDealdex.into());
        }
        let mut sh = Vec::new();
        for id in self.key_sessions() {
            let key = keys.get(id).ok_or(ErrorKind::NoKeyFor { session: id })?;
            sh.push((id, key_commitment(id.phase, id.session, key)));
        }
        self.key_commitments = sh;
        self.key_hash = Some(self.manifest()?.hash());
        Ok(())
    }

    /// The value a dealdex-protocol event's deals are made with: DV, checked against VF.
    /// For SquareDeal, DV as it is.
    ///
    /// # Errors
    /// [`ErrorKind::NoValue`] without DV; [`ErrorKind::ValueMismatch`] when DV does not match VF;
    /// [`ErrorKind::NoValueFormat`] for a dealdex event without VF.
    pub fn checked_value(&self) -> Result<&str, Error> {
        let dv = self.delayed_value.as_deref().ok_or(ErrorKind::NoValue)?;
        if self.protocol == Protocol::Dealdex {
            self.manifest()?.value_format.check(dv)?;
        }
        Ok(dv)
    }

    /// Phase `p` (1-based).
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchPhase`] when there is no such phase.
    pub fn phase(&self, p: u32) -> Result<&Phase, Error> {
        (p as usize)
            .checked_sub(1)
            .and_then(|i| self.phases.get(i))
            .ok_or_else(|| {
                ErrorKind::NoSuchPhase {
                    phase: p,
                    phases: self.phases.len(),
                }
                .into()
            })
    }

    /// The file name (without extension) of a session, with `reserve` appended for a reserve
    /// set (SQUAREDEAL.md §2).
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchPhase`] when there is no such phase.
    pub fn session_name(&self, id: SessionId, reserve: bool) -> Result<String, Error> {
        let mut n = self.phase(id.phase)?.session_name(id.session);
        if reserve {
            n.push_str("reserve");
        }
        Ok(n)
    }

    /// The sessions whose keys the key file must hold: `P,1..P,n` for a fixed phase, `P,0` for
    /// a variable one, in order.
    pub fn key_sessions(&self) -> Vec<SessionId> {
        let mut out = Vec::new();
        for (i, p) in self.phases.iter().enumerate() {
            let phase = i as u32 + 1;
            if p.is_variable() {
                out.push(SessionId { phase, session: 0 });
            } else {
                out.extend((1..=p.sessions).map(|session| SessionId { phase, session }));
            }
        }
        out
    }

    /// The sessions of [`Event::key_sessions`] that `keys` has no key for.
    pub fn missing_keys(&self, keys: &Keys) -> Vec<SessionId> {
        self.key_sessions()
            .into_iter()
            .filter(|s| keys.get(*s).is_none())
            .collect()
    }

    /// The keys in `keys` for sessions the event does not have.
    pub fn extra_keys(&self, keys: &Keys) -> Vec<SessionId> {
        let wanted = self.key_sessions();
        keys.sessions().filter(|s| !wanted.contains(s)).collect()
    }

    /// dealdex protocol: checks that KH is the SHA-256 of the event's manifest, that every
    /// session has an SH line, and that each key `keys` holds for a session of the event
    /// matches its SH line (docs/event-protocol.md §6, steps 2 and 4). Keys may be missing:
    /// this is what checks keys revealed session by session.
    ///
    /// # Errors
    /// [`ErrorKind::CommitmentsNeedDealdex`] (not a dealdex event),
    /// [`ErrorKind::NotPublished`], [`ErrorKind::ManifestHash`],
    /// [`ErrorKind::NoValueFormat`], or [`ErrorKind::KeyCommitment`] for the first session
    /// without an SH line or whose key does not match it.
    pub fn check_commitments(&self, keys: &Keys) -> Result<(), Error> {
        if self.protocol != Protocol::Dealdex {
            return Err(ErrorKind::CommitmentsNeedDealdex.into());
        }
        let kh = self.key_hash.ok_or(ErrorKind::NotPublished)?;
        let found = self.manifest()?.hash();
        if found != kh {
            return Err(ErrorKind::ManifestHash {
                expected: hex::encode(kh),
                found: hex::encode(found),
            }
            .into());
        }
        for id in self.key_sessions() {
            let Some(&(_, c)) = self.key_commitments.iter().find(|(s, _)| *s == id) else {
                return Err(ErrorKind::KeyCommitment {
                    session: id,
                    why: "has no SH line".into(),
                }
                .into());
            };
            if let Some(key) = keys.get(id)
                && key_commitment(id.phase, id.session, key) != c
            {
                return Err(ErrorKind::KeyCommitment {
                    session: id,
                    why: "does not match its SH line (not the committed key)".into(),
                }
                .into());
            }
        }
        Ok(())
    }

    /// Checks the key file against the event (SQUAREDEAL.md §4, step 2): KH is set, the keys
    /// hash to it, and every session of every phase has a key.
    ///
    /// # Errors
    /// [`ErrorKind::NotPublished`], [`ErrorKind::KeyHash`], or [`ErrorKind::MissingKey`]
    /// for the first session without a key.
    pub fn check_keys(&self, keys: &Keys) -> Result<(), Error> {
        let kh = self.key_hash.ok_or(ErrorKind::NotPublished)?;
        match self.protocol {
            Protocol::SquareDeal => {
                if keys.hash() != kh {
                    return Err(ErrorKind::KeyHash {
                        expected: hex::encode(kh),
                        found: hex::encode(keys.hash()),
                    }
                    .into());
                }
            }
            Protocol::Dealdex => self.check_commitments(keys)?,
        }
        if let Some(&session) = self.missing_keys(keys).first() {
            let p = self.phase(session.phase)?;
            let name = if session.session == 0 {
                p.prefix.clone()
            } else {
                p.session_name(session.session)
            };
            return Err(ErrorKind::MissingKey { session, name }.into());
        }
        Ok(())
    }

    /// The Big Deal inputs of session `id` (its real session number, ≥ 1) made with `key`
    /// (SQUAREDEAL.md §3 for [`Protocol::SquareDeal`]):
    /// `W = K[..len/2]`, `E = K[len/2..] || base64(DV) || ("original" | "reserve") ||
    /// ("ses<S>" only in a variable phase)`.
    ///
    /// # Errors
    /// [`ErrorKind::NoValue`] without DV; [`ErrorKind::NoSuchPhase`] or
    /// [`ErrorKind::NoSuchSession`].
    pub fn derivation(&self, id: SessionId, key: &str, reserve: bool) -> Result<Derivation, Error> {
        let phase = self.phase(id.phase)?;
        if !phase.has_session(id.session) {
            return Err(ErrorKind::NoSuchSession {
                session: id,
                sessions: phase.sessions,
            }
            .into());
        }
        let dv = self.checked_value()?;
        match self.protocol {
            Protocol::Dealdex => {
                let kh = self.key_hash.ok_or(ErrorKind::NotPublished)?;
                Ok(Derivation::Seeded(session_seed(
                    &kh, dv, id.phase, id.session, reserve, key,
                )))
            }
            Protocol::SquareDeal => {
                let k = key.as_bytes();
                let half = k.len() / 2;
                let mut entropy = vec![
                    k[half..].to_vec(),
                    base64(dv.as_bytes()).into_bytes(),
                    if reserve {
                        &b"reserve"[..]
                    } else {
                        b"original"
                    }
                    .to_vec(),
                ];
                if phase.is_variable() {
                    entropy.push(format!("ses{}", id.session).into_bytes());
                }
                Ok(Derivation::BigDeal {
                    wizard: k[..half].to_vec(),
                    entropy,
                })
            }
        }
    }

    /// The deals of session `id` (real session number ≥ 1), `count` boards, with the key
    /// `keys` holds for it; `reserve` for the session's reserve set.
    ///
    /// # Errors
    /// [`ErrorKind::MissingKey`] when `keys` has no key for the session; the errors of
    /// [`Event::derivation`].
    pub fn session_deals(
        &self,
        keys: &Keys,
        id: SessionId,
        reserve: bool,
        count: u64,
    ) -> Result<Vec<Deal>, Error> {
        let phase = self.phase(id.phase)?;
        let key_id = SessionId {
            phase: id.phase,
            session: phase.key_session(id.session),
        };
        let key = keys.get(key_id).ok_or_else(|| ErrorKind::MissingKey {
            session: key_id,
            name: phase.session_name(id.session),
        })?;
        self.derivation(id, key, reserve)?.deals(count)
    }

    /// Reads a file name (without extension) as a session's hand record: a session, the joined
    /// file of consecutive sessions (`SWISS01-03`), or a session's reserve set
    /// (`OPRR01reserve`). The first phase (in SN order) that claims the name wins.
    pub fn match_file(&self, stem: &str) -> Option<FileMatch> {
        let find = |stem: &str, reserve: bool| {
            self.phases.iter().enumerate().find_map(|(i, p)| {
                p.parse_name(stem).map(|name| FileMatch {
                    phase: i as u32 + 1,
                    name,
                    reserve,
                })
            })
        };
        find(stem, false).or_else(|| {
            stem.strip_suffix("reserve")
                .and_then(|s| find(s, true))
                .filter(|m| matches!(m.name, NameMatch::Session(_)))
        })
    }
}

/// Splits a `.sqd` line into a known tag (`TN DI DV SN KH`) and its value (after the spaces
/// that follow the tag); `None` for an unknown line.
fn tag_of(line: &str) -> Option<(&str, &str)> {
    let tag = line.get(..2)?;
    if !["TN", "DI", "DV", "SN", "KH", "PV", "VF", "SH"].contains(&tag) {
        return None;
    }
    let rest = &line[2..];
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some((tag, rest.trim_start_matches(' ')))
}

/// Parses KH: 64 hex digits (SHA-256). `col0` is the value's 0-based column in its line.
/// The lines each ended by `\r\n` (when `crlf`) or `\n`.
fn join_lines(lines: &[String], crlf: bool) -> String {
    let end = if crlf { "\r\n" } else { "\n" };
    let mut out = lines.join(end);
    out.push_str(end);
    out
}

/// Parses an SH value `P,S:<64 hex>` (docs/event-protocol.md §2).
fn parse_commitment(value: &str) -> Result<(SessionId, [u8; 32]), String> {
    let bad = || format!("SH {value:?}: expected P,S: and 64 hex digits (a session key's SHA-256)");
    let (id, h) = value.split_once(':').ok_or_else(bad)?;
    let (p, s) = id.split_once(',').ok_or_else(bad)?;
    let digits = |t: &str| !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(p) || !digits(s) || h.len() != 64 {
        return Err(bad());
    }
    let (phase, session) = (p.parse().map_err(|_| bad())?, s.parse().map_err(|_| bad())?);
    let mut out = [0u8; 32];
    hex::decode_to_slice(h, &mut out).map_err(|_| bad())?;
    Ok((SessionId { phase, session }, out))
}

fn parse_key_hash(value: &str, col0: usize) -> Result<[u8; 32], String> {
    if let Some((i, c)) = value.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(format!(
            "KH: {c:?} at column {} is not a hex digit (KH is the SHA-256 of the key file, 64 hex digits)",
            col0 + i + 1
        ));
    }
    if value.len() != 64 {
        return Err(format!(
            "KH has {} hex digits, expected 64 (the SHA-256 of the key file)",
            value.len()
        ));
    }
    let mut out = [0u8; 32];
    hex::decode_to_slice(value, &mut out).map_err(|e| format!("KH: {e}"))?;
    Ok(out)
}

/// Base64 of `bytes` (RFC 4648 alphabet, `=` padding, no line breaks), as SquareDeal encodes
/// the delayed-information value (SQUAREDEAL.md §3).
///
/// ```
/// assert_eq!(dealdex::event::base64(b"43275.91"), "NDMyNzUuOTE=");
/// assert_eq!(dealdex::event::base64(b"44,882.13"), "NDQsODgyLjEz");
/// ```
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for j in 0..4 {
            if j <= c.len() {
                out.push(A[(n >> (18 - 6 * j) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Sets a tag line of a `.sqd` text, keeping every other line as it is: replaces the first
/// `tag` line, or inserts one — DV after the VF or DI line (else after TN, else before the first SN
/// line), KH at the end. The text's line ends (CRLF or LF) are kept.
///
/// ```
/// let t = dealdex::event::set_sqd_line("TN A\nDI B\nSN 1:16:X:x\n", "DV", "1.5");
/// assert_eq!(t, "TN A\nDI B\nDV 1.5\nSN 1:16:X:x\n");
/// ```
pub fn set_sqd_line(text: &str, tag: &str, value: &str) -> String {
    let end = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut lines: Vec<String> = text
        .split('\n')
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let new = format!("{tag} {value}");
    let is = |l: &str, t: &str| tag_of(l.trim_end()).is_some_and(|(x, _)| x == t);
    if let Some(i) = lines.iter().position(|l| is(l, tag)) {
        lines[i] = new;
    } else {
        let at = match tag {
            "KH" => None,
            _ => lines
                .iter()
                .position(|l| is(l, "VF"))
                .or_else(|| lines.iter().position(|l| is(l, "DI")))
                .or_else(|| lines.iter().position(|l| is(l, "TN")))
                .map(|i| i + 1)
                .or_else(|| lines.iter().position(|l| is(l, "SN"))),
        };
        match at {
            Some(i) => lines.insert(i, new),
            None => lines.push(new),
        }
    }
    let mut out = lines.join(end);
    out.push_str(end);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Classify, ErrorClass};

    #[test]
    fn base64_rfc4648_vectors() {
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(i.as_bytes()), o);
        }
    }

    #[test]
    fn boards_parse_and_cycle() {
        let b = Boards::parse("1-10,11-20,21-30").unwrap();
        assert_eq!(b.range(1), Some((1, 10)));
        assert_eq!(b.range(3), Some((21, 30)));
        assert_eq!(b.range(4), Some((1, 10)));
        assert_eq!(Boards::parse("20").unwrap().range(7), Some((1, 20)));
        assert_eq!(Boards::parse("?").unwrap(), Boards::Unknown);
        assert_eq!(Boards::parse("16,17-32").unwrap().to_string(), "16,17-32");
        for bad in ["", "0", "5-3", "x", "1-", "1-16,", "0-4"] {
            assert!(Boards::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn session_and_joined_names() {
        let p = Phase::parse("10:1-10,11-20,21-30:SWISS##:Swiss #/10").unwrap();
        assert_eq!(p.session_name(1), "SWISS01");
        assert_eq!(p.session_name(10), "SWISS10");
        assert_eq!(p.joined_name(1, 3), "SWISS01-03");
        assert_eq!(p.session_description(2), "Swiss 2/10");
        assert_eq!(p.parse_name("SWISS07"), Some(NameMatch::Session(7)));
        assert_eq!(p.parse_name("SWISS07-09"), Some(NameMatch::Joined(7, 9)));
        assert_eq!(p.parse_name("SWISS7"), None);
        assert_eq!(p.parse_name("SWISS11"), None);
        assert_eq!(p.parse_name("SWISS00"), None);
        assert_eq!(p.parse_name("SWISS03-01"), None);
        let q = Phase::parse("3:20:R16#:Round of 16 #/3").unwrap();
        assert_eq!(q.session_name(1), "R161");
        assert_eq!(q.parse_name("R161-2"), Some(NameMatch::Joined(1, 2)));
        assert_eq!(q.parse_name("R16"), None);
        let v = Phase::parse("0:16:TEAM#:Teams").unwrap();
        assert!(v.is_variable());
        assert_eq!(v.parse_name("TEAM12"), Some(NameMatch::Session(12)));
        // A variable phase has no last session: a joined name joins at most MAX_SESSIONS
        // (TEAM1-4294967295 used to make `verify` list four billion sessions).
        assert_eq!(
            v.parse_name("TEAM1-10000"),
            Some(NameMatch::Joined(1, 10000))
        );
        assert_eq!(v.parse_name("TEAM1-10001"), None);
        assert_eq!(v.parse_name("TEAM1-4294967295"), None);
        let one = Phase::parse("1:32:FINAL:Final").unwrap();
        assert_eq!(one.session_name(1), "FINAL");
        assert_eq!(one.parse_name("FINAL"), Some(NameMatch::Session(1)));
    }

    #[test]
    fn bad_phases_say_what_is_wrong() {
        for (text, want) in [
            (
                "17:1-16",
                "expected nsessions:boards:fileprefix:description",
            ),
            ("x:16:A#:a", "nsessions \"x\" is not a number"),
            ("2:16-1:A#:a", "boards: \"16-1\""),
            ("2:16:1A#:a", "must match"),
            ("2:16:A#B#:a", "two runs"),
            ("2:16:AB:a", "no '#'"),
            ("0:16:AB:a", "variable number of"),
        ] {
            let e = Phase::parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn a_boards_field_is_named_by_its_place() {
        let alone = Boards::parse("1-x").unwrap_err();
        assert_eq!(alone.to_string(), "\"x\" is not a board number");
        let in_sn = Phase::parse("2:1-x:A#:a").unwrap_err();
        assert_eq!(in_sn.to_string(), "SN: boards: \"x\" is not a board number");
        assert_eq!(
            in_sn.into_kind(),
            ErrorKind::NotABoardNumber {
                text: "x".into(),
                in_sn: true
            }
        );
        let e = Boards::parse("5-2000004").unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"5-2000004\": 2000000 boards in a session; at most 1000000"
        );
        assert_eq!((e.class(), e.position()), (ErrorClass::BadInput, None));
        let os = Error::from(ErrorKind::OsRandom("gone".into()));
        assert_eq!(os.class(), ErrorClass::Internal);
    }

    #[test]
    fn sqd_errors_carry_the_line() {
        let e = Event::parse("TN x\r\nDI y\r\nSN 2:16:A#:a\r\nSN 2:1?:B#:b\r\n").unwrap_err();
        assert_eq!(
            e.into_kind(),
            ErrorKind::Sqd {
                line: 4,
                message: "SN: boards: \"1?\" is not a board number".into()
            }
        );
        let e = Event::parse(&format!("TN x\nKH {}g\n", "a".repeat(63))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: KH: 'g' at column 67 is not a hex digit (KH is the SHA-256 of the key file, 64 hex digits)"
        );
        let e = Event::parse("TN x\nKH abc\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2: KH has 3 hex digits"));
        let e = Event::parse("DV 1\nTN x\nDV 2\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: a second DV line (the first is line 1)"
        );
    }

    #[test]
    fn sqd_round_trip_and_line_edits() {
        let ev = Event::parse(
            "# c\nTN World  \nDI DJI1910\nUNKNOWN stuff\nSN 2:16:A#:a:b\nSN 0:?:V#:v\n",
        )
        .unwrap();
        assert_eq!(ev.name.as_deref(), Some("World"));
        assert_eq!(ev.phases[0].description, "a:b");
        assert_eq!(ev.phases[1].boards, Boards::Unknown);
        let again = Event::parse(&ev.to_sqd(true)).unwrap();
        assert_eq!(again, ev);
        let bom = Event::parse(&format!("\u{feff}{}", ev.to_sqd(false))).unwrap();
        assert_eq!(bom, ev);
        let t = set_sqd_line("TN A\r\nDI B\r\nSN 1:16:X:x\r\n", "KH", &"0".repeat(64));
        assert!(t.ends_with(&format!("SN 1:16:X:x\r\nKH {}\r\n", "0".repeat(64))));
        let t = set_sqd_line("TN A\nDI B\nDV 1\nSN 1:16:X:x\n", "DV", "2");
        assert_eq!(t, "TN A\nDI B\nDV 2\nSN 1:16:X:x\n");
    }
}
