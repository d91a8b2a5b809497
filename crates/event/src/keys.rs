//! The key file (`.sqk`, SQUAREDEAL.md §2): one line `P,S:KEY` + CRLF per session, secret
//! until after the event; KH is the SHA-256 of its exact bytes.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use crate::{Error, ErrorKind, Event, SessionId};

/// The characters of a session key, in SquareDeal's order: `a-z`, `A-Z`, `0-9`.
pub const KEY_ALPHABET: &[u8; 62] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// Characters in a session key: 60, about 357 bits (SQUAREDEAL.md §2).
pub const KEY_LENGTH: usize = 60;

/// The session keys of an event, as a key file holds them.
///
/// ```
/// use dealdex::event::{Keys, SessionId};
/// let crlf = Keys::parse(b"1,1:abc\r\n1,2:def\r\n")?;
/// let lf = Keys::parse(b"1,1:abc\n1,2:def\n")?;
/// assert_eq!(crlf.hash(), lf.hash()); // KH is taken over the CRLF form, as SquareDeal does
/// assert!(crlf.is_canonical() && !lf.is_canonical());
/// assert_eq!(lf.get(SessionId { phase: 1, session: 2 }), Some("def"));
/// # Ok::<(), dealdex::event::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keys {
    /// The keys in file order.
    entries: Vec<(SessionId, String)>,
    /// Session → index in `entries`.
    index: BTreeMap<SessionId, usize>,
    /// SHA-256 of the CRLF form.
    hash: [u8; 32],
    /// The bytes read were exactly the CRLF form.
    canonical: bool,
}

impl Keys {
    /// Parses a key file. As SquareDeal reads it, line ends may be CRLF or LF (a file
    /// converted to LF still verifies): the hash is taken over the lines each followed by
    /// CRLF, a last line without a line end included; a leading UTF-8 byte-order mark is skipped.
    ///
    /// # Errors
    /// [`ErrorKind::Sqk`] with the line number: a line not of the form `P,S:KEY` (P ≥ 1, S ≥
    /// 0, decimal without padding), an empty key or one with a character that is not
    /// printable ASCII, a second key for the same session.
    pub fn parse(bytes: &[u8]) -> Result<Keys, Error> {
        // An editor's byte-order mark is not part of the keys (like LF line ends, it does
        // not change the canonical CRLF form KH is computed over).
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let mut canonical_form = Vec::with_capacity(bytes.len() + 64);
        let mut entries = Vec::new();
        let mut index = BTreeMap::new();
        let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        if lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        for (i, raw) in lines.into_iter().enumerate() {
            let line_no = i + 1;
            let line = raw.strip_suffix(b"\r").unwrap_or(raw);
            canonical_form.extend_from_slice(line);
            canonical_form.extend_from_slice(b"\r\n");
            let err = |message: String| {
                Error::from(ErrorKind::Sqk {
                    line: line_no,
                    message,
                })
            };
            let text = std::str::from_utf8(line)
                .map_err(|_| err("not ASCII text (expected P,S:KEY)".into()))?;
            let (ident, key) = text.split_once(':').ok_or_else(|| {
                err(format!(
                    "{text:?} is not of the form P,S:KEY (phase,session:key)"
                ))
            })?;
            let id = parse_ident(ident).ok_or_else(|| {
                err(format!(
                    "{ident:?} is not a session P,S (phase and session numbers, no padding)"
                ))
            })?;
            if key.is_empty() {
                return Err(err(format!("session {id} has an empty key")));
            }
            if let Some((j, c)) = key.char_indices().find(|(_, c)| !c.is_ascii_graphic()) {
                return Err(err(format!(
                    "key of session {id}: {c:?} at column {} is not a printable ASCII character",
                    ident.len() + 1 + j + 1
                )));
            }
            if let Some(&first) = index.get(&id) {
                return Err(err(format!(
                    "a second key for session {id} (the first is on line {})",
                    first + 1
                )));
            }
            index.insert(id, entries.len());
            entries.push((id, key.to_string()));
        }
        Ok(Keys {
            hash: Sha256::digest(&canonical_form).into(),
            canonical: canonical_form == bytes,
            entries,
            index,
        })
    }

    /// Fresh keys for every session of `event` ([`Event::key_sessions`]): [`KEY_LENGTH`]
    /// characters from [`KEY_ALPHABET`] drawn from the operating system's CSPRNG.
    ///
    /// # Errors
    /// [`ErrorKind::OsRandom`] when the OS random source fails.
    pub fn generate(event: &Event) -> Result<Keys, Error> {
        let mut bytes = Vec::new();
        for id in event.key_sessions() {
            bytes.extend_from_slice(format!("{id}:{}\r\n", random_key()?).as_bytes());
        }
        Keys::parse(&bytes)
    }

    /// The key of session `id` (`P,0` for a variable phase).
    pub fn get(&self, id: SessionId) -> Option<&str> {
        self.index.get(&id).map(|&i| self.entries[i].1.as_str())
    }

    /// The sessions that have keys, in file order.
    pub fn sessions(&self) -> impl Iterator<Item = SessionId> + '_ {
        self.entries.iter().map(|(id, _)| *id)
    }

    /// How many keys there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The key file's bytes in SquareDeal's form: `P,S:KEY\r\n` per key, in order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (id, key) in &self.entries {
            out.extend_from_slice(format!("{id}:{key}\r\n").as_bytes());
        }
        out
    }

    /// SHA-256 of the CRLF form of the file: what KH must equal.
    pub fn hash(&self) -> [u8; 32] {
        self.hash
    }

    /// True when the bytes parsed were exactly the CRLF form (no LF-only line ends, a line end
    /// after the last line).
    pub fn is_canonical(&self) -> bool {
        self.canonical
    }
}

/// Parses `P,S` with P ≥ 1 and S ≥ 0 written without padding.
fn parse_ident(t: &str) -> Option<SessionId> {
    let (p, s) = t.split_once(',')?;
    let num = |x: &str| -> Option<u32> {
        let n: u32 = x.parse().ok()?;
        (n.to_string() == x).then_some(n)
    };
    let phase = num(p)?;
    (phase >= 1).then_some(SessionId {
        phase,
        session: num(s)?,
    })
}

/// One fresh session key: [`KEY_LENGTH`] characters from [`KEY_ALPHABET`], each uniform
/// (rejection of OS random bytes ≥ 248), from the operating system's CSPRNG.
///
/// # Errors
/// [`ErrorKind::OsRandom`] when the OS random source fails.
pub fn random_key() -> Result<String, Error> {
    use rand::TryRng;
    let mut key = String::with_capacity(KEY_LENGTH);
    let mut buf = [0u8; 96];
    while key.len() < KEY_LENGTH {
        rand::rngs::SysRng
            .try_fill_bytes(&mut buf)
            .map_err(|e| ErrorKind::OsRandom(e.to_string()))?;
        for &b in &buf {
            // 248 = 4 × 62: bytes below it map uniformly onto the alphabet.
            if b < 248 && key.len() < KEY_LENGTH {
                key.push(KEY_ALPHABET[(b % 62) as usize] as char);
            }
        }
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_key_lines_say_where() {
        for (text, want) in [
            (
                &b"1,1:abc\r\n1,1abc\r\n"[..],
                "line 2: \"1,1abc\" is not of the form",
            ),
            (b"01,1:abc\r\n", "line 1: \"01,1\" is not a session"),
            (b"0,1:abc\r\n", "line 1: \"0,1\" is not a session"),
            (b"1,1:\r\n", "line 1: session 1,1 has an empty key"),
            (
                b"1,1:ab c\r\n",
                "line 1: key of session 1,1: ' ' at column 7",
            ),
            (
                b"1,1:a\r\n1,2:b\r\n1,1:c\r\n",
                "line 3: a second key for session 1,1 (the first is on line 1)",
            ),
            (b"1,1:a\r\n\r\n", "line 2: \"\" is not of the form"),
        ] {
            let e = Keys::parse(text).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
    }

    #[test]
    fn hash_is_over_the_crlf_form() {
        let a = Keys::parse(b"1,1:abc\r\n").unwrap();
        let expected: [u8; 32] = Sha256::digest(b"1,1:abc\r\n").into();
        assert_eq!(a.hash(), expected);
        // No line end after the last line: SquareDeal still hashes one.
        assert_eq!(Keys::parse(b"1,1:abc").unwrap().hash(), expected);
        assert!(!Keys::parse(b"1,1:abc").unwrap().is_canonical());
        assert_eq!(a.to_bytes(), b"1,1:abc\r\n");
    }

    #[test]
    fn random_keys_have_the_alphabet_and_length() {
        let a = random_key().unwrap();
        let b = random_key().unwrap();
        assert_eq!(a.len(), KEY_LENGTH);
        assert!(a.bytes().all(|c| KEY_ALPHABET.contains(&c)));
        assert_ne!(a, b);
    }
}
