//! Text helpers of the deal model, which the letter formats share too: the byte classes of
//! rank and suit letters, and the columns and characters that messages show.

/// Byte classes for the letter parsers: 0..13 a rank letter's index (0 = ace … 12 = deuce,
/// either case), `SUIT + s` a suit letter (0 = S … 3 = C, either case), [`ONE`] the `1` of
/// `10`, `OTHER` anything else.
pub static CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let ranks = b"AKQJT98765432";
    let mut r = 0;
    while r < 13 {
        t[ranks[r] as usize] = r as u8;
        t[ranks[r].to_ascii_lowercase() as usize] = r as u8;
        r += 1;
    }
    let suits = b"SHDC";
    let mut s = 0;
    while s < 4 {
        t[suits[s] as usize] = SUIT + s as u8;
        t[suits[s].to_ascii_lowercase() as usize] = SUIT + s as u8;
        s += 1;
    }
    t[b'1' as usize] = ONE;
    t
};
/// [`CLASS`] of suit letters: `SUIT + suit index`.
pub const SUIT: u8 = 16;
/// [`CLASS`] of `1` (the start of `10`).
pub const ONE: u8 = 32;
/// [`CLASS`] of bytes that are neither ranks nor suits.
const OTHER: u8 = 255;

/// The rank index of a rank letter (0 = ace … 12 = deuce; `AKQJT98765432`, either case).
pub fn rank_index(c: u8) -> Option<usize> {
    let k = CLASS[c as usize];
    (k < 13).then_some(k as usize)
}

/// The 1-based column (in characters) of byte `off` of `line`.
pub fn column(line: &[u8], off: usize) -> usize {
    let prefix = &line[..off.min(line.len())];
    match std::str::from_utf8(prefix) {
        Ok(s) => s.chars().count() + 1,
        Err(_) => prefix.len() + 1,
    }
}

/// The character at byte `off` of `b`, for messages (Latin-1 when not UTF-8).
pub fn char_at(b: &[u8], off: usize) -> char {
    let rest = &b[off.min(b.len())..];
    let end = rest.len().min(4);
    for n in 1..=end {
        if let Ok(s) = std::str::from_utf8(&rest[..n])
            && let Some(c) = s.chars().next()
        {
            return c;
        }
    }
    rest.first().map_or(' ', |&c| c as char)
}

/// `line 3: `, `column 7: `: a message's place when it is known (the word, then the 1-based
/// number), nothing otherwise; for the `#[error]` messages of the crates' error kinds.
///
/// ```
/// use dealdex_model::text::OptionalPlace;
/// assert_eq!(format!("{}bad", OptionalPlace("line", Some(3))), "line 3: bad");
/// assert_eq!(format!("{}bad", OptionalPlace("column", None)), "bad");
/// ```
pub struct OptionalPlace(pub &'static str, pub Option<usize>);

impl std::fmt::Display for OptionalPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Some(n) => write!(f, "{} {n}: ", self.0),
            None => Ok(()),
        }
    }
}

/// Serializes a value as its text (`Display`): a seat as its letter (`"S"`), a deal as its
/// PBN deal string, a strain as `"NT"`. For serde's `serialize_with` in reports whose values
/// are model types.
///
/// # Errors
/// The serializer's.
pub fn as_text<T: std::fmt::Display, S: serde::Serializer>(
    value: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// As [`as_text`], `None` as the serializer's none (`null` in JSON).
///
/// # Errors
/// The serializer's.
pub fn option_as_text<T: std::fmt::Display, S: serde::Serializer>(
    value: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

/// Reads a value from its text (`FromStr`), the reverse of [`as_text`]: for serde's
/// `deserialize_with` where a report is read back (a seat from `"N"`, a card from `"SQ"`).
///
/// # Errors
/// The deserializer's, or a custom error with the value's parse error when the text does not
/// parse.
pub fn from_text<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: std::str::FromStr<Err: std::fmt::Display>,
    D: serde::Deserializer<'de>,
{
    let text = <String as serde::Deserialize>::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}
