//! dealdex's stricter event protocol, `dealdex-event/1` (docs/event-protocol.md): the
//! delayed value's declared format, the per-session key commitments, the canonical manifest
//! whose SHA-256 is `KH`, and the derivation of a session's generation seed.
//!
//! These are the primitives; reading and writing the `.sqd`/`.sqk` files and making and
//! verifying sessions live with the SquareDeal support in the `event` commands.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

use crate::generation::stream::Seed;
use crate::{Error, ErrorKind};

/// The protocol's version string, the value of the `PV` line (docs/event-protocol.md §1).
pub const PROTOCOL_VERSION: &str = "dealdex-event/1";

/// The exact format a delayed value must have, declared before the event in the `VF` line
/// (docs/event-protocol.md §3).
///
/// ```
/// use dealdex::event::protocol::ValueFormat;
/// let vf: ValueFormat = "decimal:2".parse()?;
/// assert!(vf.check("44882.13").is_ok());
/// assert!(vf.check("44,882.13").is_err());
/// assert_eq!(vf.to_string(), "decimal:2");
/// # Ok::<(), dealdex::event::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueFormat {
    /// `decimal:D`: digits, a point and exactly `D` decimals (no point when `D` = 0); no
    /// sign, no separators, no leading zeros. `D` is 0‥9.
    Decimal(u8),
    /// `integer`: digits without sign, separators or leading zeros.
    Integer,
    /// `hex:N`: exactly `N` lowercase hex digits, `N` = 1‥128.
    Hex(u8),
}

impl FromStr for ValueFormat {
    type Err = Error;

    /// Parses `decimal:D`, `integer` or `hex:N`.
    ///
    /// # Errors
    /// [`ErrorKind::UnknownValueFormat`] for anything else.
    fn from_str(s: &str) -> Result<ValueFormat, Error> {
        let unknown = || {
            Error::from(ErrorKind::UnknownValueFormat {
                text: s.to_string(),
            })
        };
        let number = |t: &str, max: u8, min: u8| -> Result<u8, Error> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || t.len() > 3 {
                return Err(unknown());
            }
            let n: u8 = t.parse().map_err(|_| unknown())?;
            if (min..=max).contains(&n) {
                Ok(n)
            } else {
                Err(unknown())
            }
        };
        if s == "integer" {
            Ok(ValueFormat::Integer)
        } else if let Some(d) = s.strip_prefix("decimal:") {
            Ok(ValueFormat::Decimal(number(d, 9, 0)?))
        } else if let Some(n) = s.strip_prefix("hex:") {
            Ok(ValueFormat::Hex(number(n, 128, 1)?))
        } else {
            Err(unknown())
        }
    }
}

impl fmt::Display for ValueFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueFormat::Decimal(d) => write!(f, "decimal:{d}"),
            ValueFormat::Integer => f.write_str("integer"),
            ValueFormat::Hex(n) => write!(f, "hex:{n}"),
        }
    }
}

impl ValueFormat {
    /// Checks that `value` has exactly this format.
    ///
    /// # Errors
    /// [`ErrorKind::ValueMismatch`] saying what is wrong (a separator, a sign, the
    /// number of decimals, a leading zero, upper-case hex, the length).
    pub fn check(&self, value: &str) -> Result<(), Error> {
        let fail = |why: String| {
            Error::from(ErrorKind::ValueMismatch {
                value: value.to_string(),
                format: *self,
                why,
            })
        };
        let integer_part = |t: &str| -> Result<(), Error> {
            if t.is_empty() {
                return Err(fail("no digits before the decimal point".into()));
            }
            if let Some((i, c)) = t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
                return Err(fail(format!(
                    "{c:?} at column {} is not a digit (no signs, separators or spaces)",
                    i + 1
                )));
            }
            if t.len() > 1 && t.starts_with('0') {
                return Err(fail("leading zero".into()));
            }
            Ok(())
        };
        match *self {
            ValueFormat::Integer => integer_part(value),
            ValueFormat::Decimal(0) => integer_part(value),
            ValueFormat::Decimal(d) => {
                let Some((int, frac)) = value.split_once('.') else {
                    return Err(fail(format!("no decimal point (expected {d} decimals)")));
                };
                integer_part(int)?;
                if frac.len() != d as usize || !frac.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(fail(format!(
                        "{:?} after the point is not exactly {d} digits",
                        frac
                    )));
                }
                Ok(())
            }
            ValueFormat::Hex(n) => {
                if value.len() != n as usize {
                    return Err(fail(format!(
                        "{} characters, expected {n} hex digits",
                        value.chars().count()
                    )));
                }
                if let Some((i, c)) = value
                    .char_indices()
                    .find(|(_, c)| !matches!(c, '0'..='9' | 'a'..='f'))
                {
                    return Err(fail(format!(
                        "{c:?} at column {} is not a lowercase hex digit",
                        i + 1
                    )));
                }
                Ok(())
            }
        }
    }
}

/// The commitment to one session key: SHA-256 of the key-file line `P,S:KEY` without its
/// line end (docs/event-protocol.md §2). 32 bytes.
///
/// ```
/// use dealdex::event::protocol::key_commitment;
/// let c = key_commitment(1, 2, "k".repeat(60).as_str());
/// assert_eq!(c.len(), 32);
/// assert_ne!(c, key_commitment(1, 3, "k".repeat(60).as_str()));
/// ```
pub fn key_commitment(phase: u32, session: u32, key: &str) -> [u8; 32] {
    Sha256::digest(format!("{phase},{session}:{key}").as_bytes()).into()
}

/// The fields committed before the event, in the manifest's order (docs/event-protocol.md
/// §4). Values are given without their tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest<'a> {
    /// `TN`: the tournament name.
    pub name: &'a str,
    /// `DI`: what the delayed value is.
    pub delayed_info: &'a str,
    /// `VF`: the delayed value's format.
    pub value_format: ValueFormat,
    /// The `SN` values, in phase order (`nsessions:boards:prefix:description`).
    pub phases: Vec<&'a str>,
    /// `SH`: `(phase, session, commitment)` for every session key, in any order.
    pub key_commitments: Vec<(u32, u32, [u8; 32])>,
}

impl Manifest<'_> {
    /// The canonical manifest bytes: `PV`, `TN`, `DI`, `VF`, the `SN` lines in phase order,
    /// then the `SH` lines sorted by phase and session; each `TAG value` with trailing white
    /// space removed and ended by LF.
    pub fn canonical(&self) -> String {
        let mut out = String::new();
        let mut line = |tag: &str, value: &str| {
            out.push_str(tag);
            out.push(' ');
            out.push_str(value.trim_end());
            out.push('\n');
        };
        line("PV", PROTOCOL_VERSION);
        line("TN", self.name);
        line("DI", self.delayed_info);
        line("VF", &self.value_format.to_string());
        for p in &self.phases {
            line("SN", p);
        }
        let mut sh = self.key_commitments.clone();
        sh.sort_unstable();
        for (p, s, c) in sh {
            line("SH", &format!("{p},{s}:{}", hex::encode(c)));
        }
        out
    }

    /// `KH`: SHA-256 of [`Manifest::canonical`]. 32 bytes.
    pub fn hash(&self) -> [u8; 32] {
        Sha256::digest(self.canonical().as_bytes()).into()
    }
}

/// The generation seed of one session (docs/event-protocol.md §5): SHA-256 over the
/// protocol label, `KH`, the delayed value (length-prefixed), phase, session, the kind
/// (`reserve` or `original`) and the key. Board `b` (1-based) of the session is then
/// `Seed::board_deal(b - 1)`.
///
/// `value` must already have been checked against the declared format.
pub fn session_seed(
    kh: &[u8; 32],
    value: &str,
    phase: u32,
    session: u32,
    reserve: bool,
    key: &str,
) -> Seed {
    let mut h = Sha256::new();
    h.update(PROTOCOL_VERSION.as_bytes());
    h.update([0]);
    h.update(kh);
    h.update((value.len() as u32).to_le_bytes());
    h.update(value.as_bytes());
    h.update(phase.to_le_bytes());
    h.update(session.to_le_bytes());
    h.update(if reserve { "reserve" } else { "original" }.as_bytes());
    h.update([0]);
    h.update(key.as_bytes());
    Seed(h.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_formats_parse_and_print() {
        for s in [
            "decimal:0",
            "decimal:2",
            "decimal:9",
            "integer",
            "hex:1",
            "hex:64",
            "hex:128",
        ] {
            assert_eq!(s.parse::<ValueFormat>().unwrap().to_string(), s);
        }
        for s in [
            "decimal:10",
            "decimal:",
            "hex:0",
            "hex:129",
            "text",
            "Decimal:2",
            "hex:+5",
        ] {
            assert!(s.parse::<ValueFormat>().is_err(), "{s}");
        }
    }

    #[test]
    fn values_are_checked_exactly() {
        let d2 = ValueFormat::Decimal(2);
        assert!(d2.check("44882.13").is_ok());
        assert!(d2.check("0.50").is_ok());
        for bad in [
            "44,882.13",
            "44882.1",
            "44882.130",
            "+44882.13",
            "044882.13",
            "44882",
            " 1.00",
            ".50",
        ] {
            assert!(d2.check(bad).is_err(), "{bad}");
        }
        let e = d2.check("44,882.13").unwrap_err().to_string();
        assert!(e.contains("',' at column 3"), "{e}");
        assert!(ValueFormat::Integer.check("19").is_ok());
        assert!(ValueFormat::Integer.check("1.0").is_err());
        assert!(ValueFormat::Decimal(0).check("7").is_ok());
        let h = ValueFormat::Hex(4);
        assert!(h.check("0fa9").is_ok());
        assert!(h.check("0FA9").is_err());
        assert!(h.check("0fa").is_err());
    }

    #[test]
    fn manifest_is_canonical() {
        let c = [0xab; 32];
        let m = Manifest {
            name: "Club  ",
            delayed_info: "DJIA close 2026-03-20",
            value_format: ValueFormat::Decimal(2),
            phases: vec!["2:8:RR#:Round robin"],
            key_commitments: vec![(1, 2, c), (1, 1, [0; 32])],
        };
        let text = m.canonical();
        assert_eq!(
            text,
            format!(
                "PV dealdex-event/1\nTN Club\nDI DJIA close 2026-03-20\nVF decimal:2\n\
                 SN 2:8:RR#:Round robin\nSH 1,1:{}\nSH 1,2:{}\n",
                "00".repeat(32),
                "ab".repeat(32)
            )
        );
        assert_eq!(m.hash(), <[u8; 32]>::from(Sha256::digest(text.as_bytes())));
    }

    #[test]
    fn every_input_changes_the_session_seed() {
        let key = "a".repeat(60);
        let base = session_seed(&[1; 32], "1.00", 1, 1, false, &key);
        assert_ne!(base, session_seed(&[2; 32], "1.00", 1, 1, false, &key));
        assert_ne!(base, session_seed(&[1; 32], "1.01", 1, 1, false, &key));
        assert_ne!(base, session_seed(&[1; 32], "1.00", 2, 1, false, &key));
        assert_ne!(base, session_seed(&[1; 32], "1.00", 1, 2, false, &key));
        assert_ne!(base, session_seed(&[1; 32], "1.00", 1, 1, true, &key));
        assert_ne!(
            base,
            session_seed(&[1; 32], "1.00", 1, 1, false, &"b".repeat(60))
        );
        // Golden value, computed independently (Python hashlib over the byte layout of
        // docs/event-protocol.md §5): the derivation must never change.
        assert_eq!(
            base.to_string(),
            "a3d2973b7e5253d4a2a6a73fe49047b90d91d75c4431a45171f12981fbcd02b0"
        );
    }
}
