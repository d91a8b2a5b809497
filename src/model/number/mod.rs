//! Hand-record numbers: the bijections between deals and 1..=D (FORMATS.md §1).
//!
//! D = 52!/(13!)⁴ = 53,644,737,765,488,792,839,237,440,000 (< 2⁹⁶). Three published schemes:
//! Pavlicek (the default, §1a), Andrews (§1b) and Big Deal's Gödel number (§1c). The fast
//! paths here use native integers and tables; [`reference`] holds the step-by-step num-bigint
//! versions they are tested against.

mod combi;
mod pavlicek;
pub mod reference;

use std::fmt;

use crate::model::deal::Deal;

/// D, the number of deals: 52!/(13!)⁴ = 53,644,737,765,488,792,839,237,440,000 (FORMATS.md §1).
pub const DEALS: u128 = 53_644_737_765_488_792_839_237_440_000;

/// A numbering scheme for deals (FORMATS.md §1).
///
/// ```
/// use dealdex::Scheme;
/// assert_eq!("andrews".parse::<Scheme>().unwrap(), Scheme::Andrews);
/// assert_eq!(Scheme::default(), Scheme::Pavlicek);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// R. Pavlicek's "Mapping Bridge Deals" (§1a): cards in suited order, seats N, E, S, W.
    #[default]
    Pavlicek,
    /// T. Andrews' "Encoding Bridge Deals" (§1b): colex ranks of N, E, S in mixed radix.
    Andrews,
    /// Big Deal's Gödel number (§1c): lex ranks of N, E, S in mixed radix.
    BigDeal,
}

impl Scheme {
    /// All schemes.
    pub const ALL: [Scheme; 3] = [Scheme::Pavlicek, Scheme::Andrews, Scheme::BigDeal];

    /// The scheme's name on the command line and in the store: `pavlicek`, `andrews`, `bigdeal`.
    pub const fn name(self) -> &'static str {
        match self {
            Scheme::Pavlicek => "pavlicek",
            Scheme::Andrews => "andrews",
            Scheme::BigDeal => "bigdeal",
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Scheme {
    type Err = NumberError;

    /// Parses `pavlicek`, `andrews` or `bigdeal` (either case; `big-deal` also).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "pavlicek" => Ok(Scheme::Pavlicek),
            "andrews" => Ok(Scheme::Andrews),
            "bigdeal" | "big-deal" => Ok(Scheme::BigDeal),
            _ => Err(NumberError::UnknownScheme(s.to_string())),
        }
    }
}

/// What is wrong with a hand-record number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    /// The number is 0 or above D.
    #[error(
        "hand-record number {0} is out of range: valid numbers are 1..=53644737765488792839237440000"
    )]
    OutOfRange(String),
    /// The text is not a decimal or `0x` hex number.
    #[error("{input:?} is not a number: column {column} ({message})")]
    Syntax {
        /// The text given.
        input: String,
        /// 1-based column of the first bad character.
        column: usize,
        /// What was expected.
        message: &'static str,
    },
    /// An unknown scheme name.
    #[error("unknown numbering scheme {0:?} (expected pavlicek, andrews or bigdeal)")]
    UnknownScheme(String),
}

/// Parses a hand-record number in decimal (`_` and `,` group separators allowed) or `0x` hex,
/// and checks it is in 1..=D.
///
/// # Errors
/// [`NumberError::Syntax`] with the column of the first bad character (also for values that
/// do not fit 128 bits); [`NumberError::OutOfRange`] for 0 and numbers above D.
///
/// ```
/// assert_eq!(dealdex::parse_number("1,000").unwrap(), 1000);
/// assert_eq!(dealdex::parse_number("0xff").unwrap(), 255);
/// assert!(dealdex::parse_number("0").is_err());
/// ```
pub fn parse_number(text: &str) -> Result<u128, NumberError> {
    let t = text.trim();
    let lead = text.len() - text.trim_start().len();
    let (digits, radix, offset) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(rest) => (rest, 16, 2),
        None => (t, 10, 0),
    };
    let err = |column, message| NumberError::Syntax {
        input: text.to_string(),
        column,
        message,
    };
    if digits.is_empty() {
        return Err(err(lead + offset + 1, "expected digits"));
    }
    let mut v: u128 = 0;
    let mut any = false;
    for (i, c) in digits.chars().enumerate() {
        let column = lead + offset + i + 1;
        if c == '_' || c == ',' && radix == 10 {
            continue;
        }
        let d = c.to_digit(radix).ok_or(err(
            column,
            if radix == 10 {
                "expected a decimal digit"
            } else {
                "expected a hex digit"
            },
        ))?;
        v = v
            .checked_mul(radix as u128)
            .and_then(|v| v.checked_add(d as u128))
            .ok_or(err(column, "number too large"))?;
        any = true;
    }
    if !any {
        return Err(err(lead + offset + 1, "expected digits"));
    }
    check_range(v)
}

fn check_range(n: u128) -> Result<u128, NumberError> {
    if n == 0 || n > DEALS {
        Err(NumberError::OutOfRange(n.to_string()))
    } else {
        Ok(n)
    }
}

/// The Pavlicek hand-record number of `deal`, in 1..=D (FORMATS.md §1a).
///
/// ```
/// let deal: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
///     .parse().unwrap();
/// assert_eq!(dealdex::number(&deal), 1);
/// ```
pub fn number(deal: &Deal) -> u128 {
    deal.number(Scheme::Pavlicek)
}

impl Deal {
    /// The hand-record number of this deal in `scheme`, in 1..=D (FORMATS.md §1).
    ///
    /// ```
    /// use dealdex::{Deal, Scheme, DEALS};
    /// let d: Deal = "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432...".parse().unwrap();
    /// for s in Scheme::ALL { assert_eq!(d.number(s), DEALS); }
    /// ```
    pub fn number(&self, scheme: Scheme) -> u128 {
        1 + match scheme {
            Scheme::Pavlicek => pavlicek::rank(self),
            Scheme::Andrews => combi::rank(self, combi::Order::Colex),
            Scheme::BigDeal => combi::rank(self, combi::Order::Lex),
        }
    }

    /// The deal with hand-record number `n` (1..=D) in `scheme`.
    ///
    /// # Errors
    /// [`NumberError::OutOfRange`] for 0 and numbers above D.
    ///
    /// ```
    /// use dealdex::{Deal, Scheme};
    /// let d = Deal::from_number(10, Scheme::Pavlicek).unwrap();
    /// assert_eq!(d.to_string(), "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.6 ..2.AKQJT9875432");
    /// assert!(Deal::from_number(0, Scheme::Pavlicek).is_err());
    /// ```
    pub fn from_number(n: u128, scheme: Scheme) -> Result<Deal, NumberError> {
        let i = check_range(n)? - 1;
        Ok(match scheme {
            Scheme::Pavlicek => pavlicek::unrank(i),
            Scheme::Andrews => combi::unrank(i, combi::Order::Colex),
            Scheme::BigDeal => combi::unrank(i, combi::Order::Lex),
        })
    }

    /// The deal with 0-based index `i` (hand-record number − 1, below D) in `scheme`.
    ///
    /// # Errors
    /// [`NumberError::OutOfRange`] when `i ≥ D`.
    pub fn from_index_number(i: u128, scheme: Scheme) -> Result<Deal, NumberError> {
        Deal::from_number(i.saturating_add(1), scheme)
    }
}

/// Unranks hand-record numbers in bulk: `out[j]` becomes the deal numbered `first + j`.
/// For Pavlicek several deals are unranked at once, interleaved, which is several times faster
/// than calling [`Deal::from_number`] in a loop.
///
/// # Errors
/// [`NumberError::OutOfRange`] when the range leaves 1..=D; `out` is then untouched.
///
/// ```
/// use dealdex::{Deal, Scheme};
/// let mut out = vec![Deal::from_number(1, Scheme::Pavlicek).unwrap(); 5];
/// dealdex::unrank_range(8, Scheme::Pavlicek, &mut out).unwrap();
/// assert_eq!(out[2], Deal::from_number(10, Scheme::Pavlicek).unwrap());
/// ```
pub fn unrank_range(first: u128, scheme: Scheme, out: &mut [Deal]) -> Result<(), NumberError> {
    check_range(first)?;
    check_range(first.saturating_add(out.len().max(1) as u128 - 1))?;
    let idx: Vec<u128> = (0..out.len() as u128).map(|j| first - 1 + j).collect();
    unrank_indices(&idx, scheme, out);
    Ok(())
}

/// Unranks 0-based indices (each below D, checked by the caller) into `out`.
pub(crate) fn unrank_indices(idx: &[u128], scheme: Scheme, out: &mut [Deal]) {
    match scheme {
        Scheme::Pavlicek => pavlicek::unrank_many(idx, out),
        _ => {
            let order = match scheme {
                Scheme::Andrews => combi::Order::Colex,
                _ => combi::Order::Lex,
            };
            for (o, &i) in out.iter_mut().zip(idx) {
                *o = combi::unrank(i, order);
            }
        }
    }
}

/// Builds the numbering tables now, so that the first timed call does not pay for them.
pub fn warm_up() {
    pavlicek::warm_up();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d_matches_the_reference() {
        assert_eq!(reference::deals(), num_bigint::BigUint::from(DEALS));
        assert_eq!(DEALS, 0xAD55E315634DDA658BF49200);
    }

    #[test]
    fn parse_errors() {
        assert_eq!(parse_number("0x10").unwrap(), 16);
        assert_eq!(parse_number(" 12_345 ").unwrap(), 12345);
        assert!(matches!(
            parse_number("12a"),
            Err(NumberError::Syntax { column: 3, .. })
        ));
        assert!(matches!(parse_number("0"), Err(NumberError::OutOfRange(_))));
        assert!(matches!(
            parse_number("53644737765488792839237440001"),
            Err(NumberError::OutOfRange(_))
        ));
        assert_eq!(
            parse_number("53644737765488792839237440000").unwrap(),
            DEALS
        );
        assert!(matches!(
            parse_number("0x"),
            Err(NumberError::Syntax { column: 3, .. })
        ));
        assert!(matches!(
            parse_number("999999999999999999999999999999999999999999"),
            Err(NumberError::Syntax { .. })
        ));
        let e = parse_number("0").unwrap_err().to_string();
        assert!(e.contains("1..=53644737765488792839237440000"), "{e}");
    }
}
