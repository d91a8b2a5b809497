//! Hand-record numbers (FORMATS.md §1): bijections between deals and 1..=D (Big Deal: 0..=D−1).
//!
//! D = 52!/(13!)⁴ = 53,644,737,765,488,792,839,237,440,000 (< 2⁹⁶). Three published schemes,
//! each numbered as its author publishes it: Pavlicek (the default, §1a) and Andrews (§1b)
//! 1..=D, Big Deal's Gödel number (§1c) 0..=D−1 as Big Deal's `.goe` files print it. The fast
//! paths here use native integers and tables; [`reference`](mod@reference) holds the
//! step-by-step num-bigint versions they are tested against.

pub mod combi;
mod pavlicek;
pub mod reference;

use std::fmt;

use crate::deal::Deal;
use crate::error::{Error, ErrorKind};

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
    /// Big Deal's Gödel number (§1c): lex ranks of N, E, S in mixed radix, **0-based**
    /// (0..=D−1) as Big Deal prints it.
    BigDeal,
}

impl Scheme {
    /// All schemes.
    pub const ALL: [Scheme; 3] = [Scheme::Pavlicek, Scheme::Andrews, Scheme::BigDeal];

    /// The scheme's first number: 1 for Pavlicek and Andrews (numbers 1..=D, as their
    /// authors publish them), 0 for Big Deal (0..=D−1, as its `.goe` files print them).
    ///
    /// ```
    /// use dealdex::{Scheme, DEALS};
    /// assert_eq!(Scheme::Pavlicek.first_number(), 1);
    /// assert_eq!(Scheme::BigDeal.last_number(), DEALS - 1);
    /// ```
    pub const fn first_number(self) -> u128 {
        match self {
            Scheme::Pavlicek | Scheme::Andrews => 1,
            Scheme::BigDeal => 0,
        }
    }

    /// The scheme's last number: D for Pavlicek and Andrews, D − 1 for Big Deal.
    pub const fn last_number(self) -> u128 {
        self.first_number() + DEALS - 1
    }

    /// The 0-based rank (0..D) of the scheme's number `n`.
    ///
    /// # Errors
    /// [`ErrorKind::NumberOutOfRange`] when `n` is not one of the scheme's numbers.
    pub fn rank_of(self, n: u128) -> Result<u128, Error> {
        if n < self.first_number() || n > self.last_number() {
            return Err(ErrorKind::NumberOutOfRange {
                number: n.to_string(),
                scheme: self,
            }
            .into());
        }
        Ok(n - self.first_number())
    }

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
    type Err = Error;

    /// Parses `pavlicek`, `andrews` or `bigdeal` (either case; `big-deal` also).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "pavlicek" => Ok(Scheme::Pavlicek),
            "andrews" => Ok(Scheme::Andrews),
            "bigdeal" | "big-deal" => Ok(Scheme::BigDeal),
            _ => Err(ErrorKind::UnknownScheme {
                name: s.to_string(),
            }
            .into()),
        }
    }
}

/// Parses a Pavlicek or Andrews hand-record number (1..=D): [`parse_scheme_number`] in
/// [`Scheme::Pavlicek`].
///
/// # Errors
/// [`ErrorKind::NumberSyntax`] with the column of the first bad character (also for values that
/// do not fit 128 bits); [`ErrorKind::NumberOutOfRange`] for 0 and numbers above D.
///
/// ```
/// assert_eq!(dealdex::parse_number("1,000").unwrap(), 1000);
/// assert_eq!(dealdex::parse_number("0xff").unwrap(), 255);
/// assert!(dealdex::parse_number("0").is_err());
/// ```
pub fn parse_number(text: &str) -> Result<u128, Error> {
    parse_scheme_number(text, Scheme::Pavlicek)
}

/// Parses a hand-record number of `scheme` in decimal (`_` and `,` group separators allowed,
/// as Big Deal's `.goe` files print them) or `0x` hex, and checks it is one of the scheme's
/// numbers ([`Scheme::first_number`]..=[`Scheme::last_number`]).
///
/// # Errors
/// [`ErrorKind::NumberSyntax`] with the column of the first bad character (also for values that
/// do not fit 128 bits); [`ErrorKind::NumberOutOfRange`] outside the scheme's numbers.
///
/// ```
/// use dealdex::{Scheme, parse_scheme_number};
/// assert_eq!(parse_scheme_number("   839,133,640", Scheme::BigDeal).unwrap(), 839_133_640);
/// assert_eq!(parse_scheme_number("0", Scheme::BigDeal).unwrap(), 0);
/// assert!(parse_scheme_number("0", Scheme::Andrews).is_err());
/// ```
pub fn parse_scheme_number(text: &str, scheme: Scheme) -> Result<u128, Error> {
    let t = text.trim();
    let lead = text.len() - text.trim_start().len();
    let (digits, radix, offset) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(rest) => (rest, 16, 2),
        None => (t, 10, 0),
    };
    let err = |column, message| {
        Error::from(ErrorKind::NumberSyntax {
            input: text.to_string(),
            column,
            message,
        })
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
        let d = c.to_digit(radix).ok_or_else(|| {
            err(
                column,
                if radix == 10 {
                    "expected a decimal digit"
                } else {
                    "expected a hex digit"
                },
            )
        })?;
        v = v
            .checked_mul(radix as u128)
            .and_then(|v| v.checked_add(d as u128))
            .ok_or_else(|| err(column, "number too large"))?;
        any = true;
    }
    if !any {
        return Err(err(lead + offset + 1, "expected digits"));
    }
    scheme.rank_of(v)?;
    Ok(v)
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
    /// The hand-record number of this deal in `scheme` (FORMATS.md §1): 1..=D for Pavlicek and
    /// Andrews, 0..=D−1 for Big Deal ([`Scheme::first_number`]).
    ///
    /// ```
    /// use dealdex::{Deal, Scheme, DEALS};
    /// let d: Deal = "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432...".parse().unwrap();
    /// for s in Scheme::ALL { assert_eq!(d.number(s), s.last_number()); }
    /// assert_eq!(d.number(Scheme::BigDeal), DEALS - 1);
    /// ```
    pub fn number(&self, scheme: Scheme) -> u128 {
        scheme.first_number() + self.rank(scheme)
    }

    /// The 0-based rank of this deal in `scheme` (0..D): its number less the scheme's first.
    pub fn rank(&self, scheme: Scheme) -> u128 {
        match scheme {
            Scheme::Pavlicek => pavlicek::rank(self),
            Scheme::Andrews => combi::rank(self, combi::Order::Colex),
            Scheme::BigDeal => combi::rank(self, combi::Order::Lex),
        }
    }

    /// The deal with hand-record number `n` in `scheme` (1..=D, or 0..=D−1 for Big Deal).
    ///
    /// # Errors
    /// [`ErrorKind::NumberOutOfRange`] outside the scheme's numbers.
    ///
    /// ```
    /// use dealdex::{Deal, Scheme};
    /// let d = Deal::from_number(10, Scheme::Pavlicek).unwrap();
    /// assert_eq!(d.to_string(), "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.6 ..2.AKQJT9875432");
    /// assert!(Deal::from_number(0, Scheme::Pavlicek).is_err());
    /// ```
    pub fn from_number(n: u128, scheme: Scheme) -> Result<Deal, Error> {
        Deal::from_rank(scheme.rank_of(n)?, scheme)
    }

    /// The deal with 0-based rank `rank` (below D) in `scheme`: the inverse of [`Deal::rank`].
    ///
    /// # Errors
    /// [`ErrorKind::NumberOutOfRange`] when `rank ≥ D`.
    pub fn from_rank(rank: u128, scheme: Scheme) -> Result<Deal, Error> {
        if rank >= DEALS {
            // Ranks run 0..D, as Big Deal's numbers do.
            return Err(ErrorKind::NumberOutOfRange {
                number: rank.to_string(),
                scheme: Scheme::BigDeal,
            }
            .into());
        }
        Ok(match scheme {
            Scheme::Pavlicek => pavlicek::unrank(rank),
            Scheme::Andrews => combi::unrank(rank, combi::Order::Colex),
            Scheme::BigDeal => combi::unrank(rank, combi::Order::Lex),
        })
    }
}

/// Unranks hand-record numbers in bulk: `out[j]` becomes the deal numbered `first + j` in
/// `scheme` (1-based, or 0-based for Big Deal).
/// For Pavlicek several deals are unranked at once, interleaved, which is several times faster
/// than calling [`Deal::from_number`] in a loop.
///
/// # Errors
/// [`ErrorKind::NumberOutOfRange`] when the range leaves the scheme's numbers; `out` is then
/// untouched.
///
/// ```
/// use dealdex::{Deal, Scheme};
/// let mut out = vec![Deal::from_number(1, Scheme::Pavlicek).unwrap(); 5];
/// dealdex::unrank_range(8, Scheme::Pavlicek, &mut out).unwrap();
/// assert_eq!(out[2], Deal::from_number(10, Scheme::Pavlicek).unwrap());
/// ```
pub fn unrank_range(first: u128, scheme: Scheme, out: &mut [Deal]) -> Result<(), Error> {
    let first_rank = scheme.rank_of(first)?;
    scheme.rank_of(first.saturating_add(out.len().max(1) as u128 - 1))?;
    let ranks: Vec<u128> = (0..out.len() as u128).map(|j| first_rank + j).collect();
    unrank_many(&ranks, scheme, out);
    Ok(())
}

/// Unranks 0-based ranks (each below D, checked by the caller) into `out` (same length).
pub fn unrank_many(ranks: &[u128], scheme: Scheme, out: &mut [Deal]) {
    match scheme {
        Scheme::Pavlicek => pavlicek::unrank_many(ranks, out),
        _ => {
            let order = match scheme {
                Scheme::Andrews => combi::Order::Colex,
                _ => combi::Order::Lex,
            };
            for (o, &rank) in out.iter_mut().zip(ranks) {
                *o = combi::unrank(rank, order);
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
            parse_number("12a").as_ref().map_err(Error::kind),
            Err(ErrorKind::NumberSyntax { column: 3, .. })
        ));
        assert!(matches!(
            parse_number("0").as_ref().map_err(Error::kind),
            Err(ErrorKind::NumberOutOfRange { .. })
        ));
        assert!(matches!(
            parse_number("53644737765488792839237440001")
                .as_ref()
                .map_err(Error::kind),
            Err(ErrorKind::NumberOutOfRange { .. })
        ));
        assert_eq!(
            parse_scheme_number("53,644,737,765,488,792,839,237,439,999", Scheme::BigDeal),
            Ok(DEALS - 1)
        );
        let e = parse_scheme_number("53644737765488792839237440000", Scheme::BigDeal);
        assert!(
            e.unwrap_err()
                .to_string()
                .contains("bigdeal numbers are 0..=53644737765488792839237439999")
        );
        assert_eq!(
            parse_number("53644737765488792839237440000").unwrap(),
            DEALS
        );
        assert!(matches!(
            parse_number("0x").as_ref().map_err(Error::kind),
            Err(ErrorKind::NumberSyntax { column: 3, .. })
        ));
        assert!(matches!(
            parse_number("999999999999999999999999999999999999999999")
                .as_ref()
                .map_err(Error::kind),
            Err(ErrorKind::NumberSyntax { .. })
        ));
        let e = parse_number("0").unwrap_err().to_string();
        assert!(e.contains("1..=53644737765488792839237440000"), "{e}");
    }
}
