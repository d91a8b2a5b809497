//! Telling a deal file's format from its first lines, for files whose extension selects no
//! format (or `.txt`): the peers' everyday outputs (Debian dealer, redeal, endplay) and
//! dealdex's own text formats.

use super::{DealFormat, Error, ErrorKind, by_name};
use crate::model::text::rank_index;

/// The format of a deal file, told from its first lines (at most the first 64 KiB are looked
/// at). Each rule and the layout it recognises:
///
/// | format | first significant line |
/// | --- | --- |
/// | `pbn` | `%` or `[` and a tag name (`[Event "…"]`; redeal's `-f pbn` `[Deal "…"]`) |
/// | `dlm` | `[Document]` |
/// | `json` | `{` (JSON lines) |
/// | `endplay-json` | `[` then `{` or `]` (endplay 0.5.12 `json.dump`) |
/// | `lin` | two letters and `\|` (`qx\|o1\|…`) |
/// | `hex` | 26 hex digits, `-X` after or `X-` before |
/// | `borel` | 52 letters |
/// | `ber` | 52 digits `1`–`4` |
/// | `csv` | a quoted field and a comma |
/// | `hrf` | a board number then `S…H…D…C…` |
/// | `dealer-all` | `%4d.` (Debian dealer 20211121 `printall`) |
/// | `dealer-ew` | single ranks and `-` in columns (dealer `printew`) |
/// | `dealer-compact` | `n <hand>` alone (dealer `printcompact`) |
/// | `oneline` | `n <hand> e <hand> …` (dealer `printoneline`), or four hands `S.H.D.C` after an optional board number (endplay-dealer `printoneline`) |
/// | `deal-lines` | `N:` and a deal, after an optional board number (endplay-dealer `printpbn`) |
/// | `redeal` | hands `♠…♥…♦…♣…`, or ` S… H… D… C…` (redeal 5709783, default output) |
/// | `redeal-long` | a line of 7 or 14 spaces, then a suit line (redeal `-f long`) |
/// | `parquet` | the bytes `PAR1` |
///
/// Empty lines are skipped; binary formats other than Parquet (DUP, BRI, DGE, KOPS, CDS) are
/// not told.
///
/// ```
/// use dealdex::FormatErrorKind;
/// use dealdex::formats::detect;
/// let f = detect(b"   1.\nA Q T 6 5 4 2       K 7                 9 8 3               J \n")?;
/// assert_eq!(f.info().name, "dealer-all");
/// let Err(e) = detect(b"Generated 0 hands\nProduced 0 hands\n") else { panic!() };
/// assert!(matches!(e.kind(), FormatErrorKind::AmbiguousContent { .. }), "{e}");
/// # Ok::<(), dealdex::FormatError>(())
/// ```
///
/// # Errors
/// [`ErrorKind::AmbiguousContent`] listing the candidates when the first lines fit several
/// formats (only dealer's statistics or redeal's `Tries:` line: no deal to tell by);
/// [`ErrorKind::UnknownContent`] when they fit none, naming the line and, for the peers' layouts
/// dealdex does not read (endplay-dealer's `printall`, `printew`, `printcompact`), which.
pub fn detect(data: &[u8]) -> Result<&'static dyn DealFormat, Error> {
    let names = candidates(data)?;
    match names[..] {
        [one] => by_name(one).ok_or_else(|| {
            ErrorKind::UnknownContent {
                path: None,
                line: None,
                reason: format!("no format named {one}"),
            }
            .into()
        }),
        _ => Err(ErrorKind::AmbiguousContent {
            path: None,
            line: names_line(data),
            candidates: names,
        }
        .into()),
    }
}

/// The first line that is not white space, 1-based, for [`ErrorKind::AmbiguousContent`].
fn names_line(data: &[u8]) -> Option<usize> {
    lines(data)
        .position(|l| !l.iter().all(u8::is_ascii_whitespace))
        .map(|i| i + 1)
}

/// The lines of the first 64 KiB, without `\r`.
fn lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    data[..data.len().min(64 << 10)]
        .split(|&c| c == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
}

/// The names of the formats the first lines fit (one, or several when they cannot tell).
fn candidates(data: &[u8]) -> Result<Vec<&'static str>, Error> {
    if data.starts_with(b"PAR1") {
        return Ok(vec!["parquet"]);
    }
    let all: Vec<&[u8]> = lines(data).take(64).collect();
    if starts_redeal_long(&all) {
        return Ok(vec!["redeal-long"]);
    }
    let Some((i, line)) = all
        .iter()
        .enumerate()
        .find(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
    else {
        return Err(ErrorKind::UnknownContent {
            path: None,
            line: None,
            reason: "an empty file".into(),
        }
        .into());
    };
    let unknown = |reason: &str| {
        Error::from(ErrorKind::UnknownContent {
            path: None,
            line: Some(i + 1),
            reason: reason.to_string(),
        })
    };
    if line.contains(&0) {
        return Err(unknown(
            "binary data: DUP, BRI, DGE, KOPS and CDS are not told",
        ));
    }
    if super::dealer_all::is_trailer(line) {
        return Ok(vec![
            "dealer-all",
            "dealer-ew",
            "dealer-compact",
            "oneline",
            "deal-lines",
        ]);
    }
    if line.starts_with(b"Tries:") {
        return Ok(vec!["redeal", "redeal-long", "pbn"]);
    }
    let t = line.trim_ascii();
    let found = match marked_format(data, t) {
        Some(found) => found,
        None => hand_layout(line, t),
    }
    .map_err(unknown)?;
    Ok(vec![found])
}

/// True when the first lines (`all`, without `\r`) start redeal's long diagram: its first
/// line that is not empty is 7 or 14 spaces, then a suit line. (Looks before blank lines
/// are skipped.)
fn starts_redeal_long(all: &[&[u8]]) -> bool {
    for w in all.windows(2) {
        let (head, next) = (w[0], w[1]);
        if head.is_empty() {
            continue;
        }
        return (head.len() == 7 || head.len() == 14)
            && head.iter().all(|&c| c == b' ')
            && redeal_suit_line(next);
    }
    false
}

/// The format that the first line that is not white space (`t`, trimmed) names by its
/// marks: a tag, a bracket, a brace, `xx|`, hex, Borel, BER, or CSV's quote; `None` when it
/// has none of them, `Err` with the reason when a `[` starts nothing dealdex reads. `data`
/// is the whole input, for the character after a `[`.
fn marked_format(data: &[u8], t: &[u8]) -> Option<Result<&'static str, &'static str>> {
    Some(Ok(if t.starts_with(b"[Document]") {
        "dlm"
    } else if t.starts_with(b"%")
        || t.starts_with(b"[") && t.get(1).is_some_and(u8::is_ascii_alphabetic)
    {
        "pbn"
    } else if t.starts_with(b"[") {
        let after = data
            .iter()
            .skip_while(|c| c.is_ascii_whitespace())
            .skip(1)
            .find(|c| !c.is_ascii_whitespace());
        match after {
            Some(b'{' | b']') => "endplay-json",
            _ => {
                return Some(Err(
                    "a `[` that starts neither a PBN tag nor a JSON array of boards",
                ));
            }
        }
    } else if t.starts_with(b"{") {
        "json"
    } else if t.len() > 3 && t[..2].iter().all(u8::is_ascii_alphabetic) && t[2] == b'|' {
        "lin"
    } else if is_hex_line(t) {
        "hex"
    } else if t.len() == 52 && t.iter().all(u8::is_ascii_alphabetic) {
        "borel"
    } else if t.len() >= 52 && t[..52].iter().all(|c| (b'1'..=b'4').contains(c)) {
        "ber"
    } else if t.starts_with(b"\"") && t.contains(&b',') {
        "csv"
    } else {
        return None;
    }))
}

/// The format of a first line of hands as text (`line`; `t`, trimmed) that
/// [`marked_format`] does not tell: dealer's, oneline's, deal lines, HRF or redeal's; `Err`
/// with the reason when no layout dealdex reads starts so.
fn hand_layout(line: &[u8], t: &[u8]) -> Result<&'static str, &'static str> {
    let words: Vec<&[u8]> = t
        .split(|c| c.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let is_hand = |w: &[u8]| {
        w.iter().filter(|&&c| c == b'.').count() == 3
            && w.iter()
                .all(|&c| c == b'.' || rank_index(c).is_some() || c == b'1' || c == b'0')
    };
    let digits = |w: &[u8]| !w.is_empty() && w.iter().all(u8::is_ascii_digit);
    let seat_letter =
        |w: &[u8]| matches!(w, [b'n' | b'e' | b's' | b'w' | b'N' | b'E' | b'S' | b'W']);

    // The words after a leading board number (endplay-dealer's `-b`).
    let after_number = if words.first().is_some_and(|w| digits(w)) {
        &words[1..]
    } else {
        &words[..]
    };
    Ok(if t.strip_suffix(b".").is_some_and(digits) {
        "dealer-all"
    } else if words.len() == 2 && seat_letter(words[0]) && is_hand(words[1]) {
        "dealer-compact"
    } else if words.len() >= 8 && seat_letter(words[0]) && is_hand(words[1])
        || after_number.len() >= 4 && after_number[..4].iter().all(|w| is_hand(w))
    {
        "oneline"
    } else if after_number.first().is_some_and(|w| {
        w.len() > 2 && seat_letter(&w[..1]) && w[1] == b':' && is_hand_start(&w[2..])
    }) {
        "deal-lines"
    } else if is_hrf(t) {
        "hrf"
    } else if line.windows(3).any(|w| w == "♠".as_bytes())
        || (line.starts_with(b" S") && redeal_short_ascii(line))
    {
        "redeal"
    } else if line
        .iter()
        .all(|&c| c == b' ' || c == b'-' || rank_index(c).is_some())
    {
        if line.first() != Some(&b' ') && words.iter().all(|w| w.len() == 1) {
            "dealer-ew"
        } else {
            return Err(
                "hands as rank strings in a diagram: endplay-dealer's printall or printew, which \
                 dealdex does not read (use its printpbn or printoneline)",
            );
        }
    } else if words.first().is_some_and(|w| *w == b"north") {
        return Err(
            "endplay-dealer's printcompact, which dealdex does not read (use its printpbn or \
             printoneline)",
        );
    } else {
        return Err("no known layout starts so");
    })
}

/// True when `w` starts like a hand `S.H.D.C` (a rank, a dot, or `-` for an unknown hand).
fn is_hand_start(w: &[u8]) -> bool {
    w.first()
        .is_some_and(|&c| c == b'.' || c == b'-' || rank_index(c).is_some())
}

/// True for a hex index line (26 hex digits, `-X` after or `X-` before, a `#` comment after).
fn is_hex_line(t: &[u8]) -> bool {
    let t = t
        .iter()
        .position(|&c| c == b'#')
        .map_or(t, |p| &t[..p])
        .trim_ascii();
    let core = match t.len() {
        26 => t,
        28 if t[26] == b'-' => &t[..26],
        28 if t[1] == b'-' => &t[2..],
        _ => return false,
    };
    core.iter().all(u8::is_ascii_hexdigit)
}

/// True for an HRF record's start: a board number, then `S` and a hand through `C`.
fn is_hrf(t: &[u8]) -> bool {
    let d = t.iter().take_while(|c| c.is_ascii_digit()).count();
    d > 0
        && t.get(d) == Some(&b'S')
        && t[d..]
            .iter()
            .take_while(|c| !c.is_ascii_whitespace())
            .all(|&c| matches!(c, b'S' | b'H' | b'D' | b'C') || rank_index(c).is_some())
}

/// True when `line` is one of redeal's `-f long` suit lines (after the spaces, a suit symbol).
fn redeal_suit_line(line: &[u8]) -> bool {
    let t = line.trim_ascii_start();
    t.starts_with("♠".as_bytes())
        || t.starts_with("♥".as_bytes())
        || t.starts_with("♦".as_bytes())
        || t.starts_with("♣".as_bytes())
        || (t.first() == Some(&b'S') && super::redeal::segments(line).is_ok())
}

/// True when `line` is redeal's short line written without UTF-8 (` S… H… D… C…` hands).
fn redeal_short_ascii(line: &[u8]) -> bool {
    super::redeal::segments(line).is_ok_and(|s| {
        !s.is_empty() && s.len() % 4 == 0 && s.iter().enumerate().all(|(k, g)| g.suit == k % 4)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_garbage_are_unknown() {
        assert!(matches!(
            detect(b"").map_err(Error::into_kind),
            Err(ErrorKind::UnknownContent { line: None, .. })
        ));
        assert!(matches!(
            detect(b"\n\nhello world\n").map_err(Error::into_kind),
            Err(ErrorKind::UnknownContent { line: Some(3), .. })
        ));
    }

    #[test]
    fn dealdex_text_formats() {
        let name = |d: &[u8]| detect(d).ok().map(|f| f.info().name);
        assert_eq!(name(b"[Event \"x\"]\n"), Some("pbn"));
        assert_eq!(name(b"{\"board\":1}\n"), Some("json"));
        assert_eq!(name(b"qx|o1|md|3S...\n"), Some("lin"));
        assert_eq!(name(b"0123456789ABCDEF0123456789-1\n"), Some("hex"));
        assert_eq!(name(b"\"AKQ\",\"\"\n"), Some("csv"));
        assert_eq!(name(b"[Document]\r\n"), Some("dlm"));
        assert_eq!(name(b"PAR1xxxx"), Some("parquet"));
    }
}
