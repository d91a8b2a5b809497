//! Predealt cards: fixed cards or hands for some seats, the rest dealt uniformly among the
//! deals consistent with them (as dealer's `predeal` and redeal's `Deal.prepare`).
//!
//! Text form: seat-prefixed partial hands in PBN hand notation, separated by white space,
//! e.g. `N:AKQ.A.. S:.KQJT9.2.` (North holds ♠AKQ ♥A, South ♥KQJT9 ♦2). Each seat at most
//! once and at most 13 cards; no card twice.

use crate::error::{Error, ErrorKind};
use crate::model::card::{Card, Rank, Seat, Suit};
use crate::model::deal::{Deal, Hand};

/// Fixed cards per seat and the number of deals consistent with them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predeal {
    fixed: [Hand; 4],
    need: [u8; 4],
    count: u128,
}

impl Predeal {
    /// Parses the text form (module docs).
    ///
    /// # Errors
    /// [`Error`] with the column of a bad seat, rank or suit separator, a seat given
    /// twice, a seat with more than 13 cards, or a card fixed twice.
    ///
    /// ```
    /// let p = dealdex::Predeal::parse("N:AKQ.A..").unwrap();
    /// assert_eq!(p.completions(), dealdex::Predeal::parse("N:AKQ.A..").unwrap().completions());
    /// assert!(dealdex::Predeal::parse("N:AA...").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Predeal, Error> {
        let err = |column, message: String| Error::from(ErrorKind::Predeal { column, message });
        let chars: Vec<char> = text.chars().collect();
        let mut fixed = [Hand::EMPTY; 4];
        let mut seen = [false; 4];
        let mut all = Hand::EMPTY;
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_whitespace() {
                i += 1;
                continue;
            }
            let seat = Seat::from_char(chars[i])
                .filter(|_| chars.get(i + 1) == Some(&':'))
                .ok_or_else(|| {
                    err(
                        i + 1,
                        format!(
                            "expected a seat and ':' (N:, E:, S:, W:), found {:?}",
                            chars[i]
                        ),
                    )
                })?;
            if seen[seat.index()] {
                return Err(err(i + 1, format!("{seat} is given twice")));
            }
            seen[seat.index()] = true;
            i += 2;
            let mut suit = 0usize;
            while i < chars.len() && !chars[i].is_whitespace() {
                let c = chars[i];
                if c == '.' {
                    suit += 1;
                    if suit > 3 {
                        return Err(err(i + 1, "a fifth suit (expected S.H.D.C)".into()));
                    }
                } else {
                    let rank = if c == '1' && chars.get(i + 1) == Some(&'0') {
                        i += 1;
                        Rank::TEN
                    } else {
                        Rank::from_char(c).ok_or_else(|| {
                            err(
                                i + 1,
                                format!("{c:?} is not a rank (expected AKQJT98765432)"),
                            )
                        })?
                    };
                    let card = Card::new(Suit::from_index(suit), rank);
                    if !all.insert(card) {
                        return Err(err(i + 1, format!("{card} is fixed twice")));
                    }
                    fixed[seat.index()].insert(card);
                    if fixed[seat.index()].len() > 13 {
                        return Err(err(i + 1, format!("{seat} would hold more than 13 cards")));
                    }
                }
                i += 1;
            }
        }
        Ok(Predeal::checked(fixed))
    }

    /// The predeal of the fixed hands `fixed` (N, E, S, W), as the model holds them (a
    /// dealer script's `predeal`): `None` when a card is in two hands or a hand holds more
    /// than 13 cards ([`Predeal::parse`] says where, in its text form).
    ///
    /// ```
    /// use dealdex::{Hand, Predeal};
    /// let parsed = Predeal::parse("N:AKQ.A..")?;
    /// let north = parsed.fixed()[0];
    /// let p = Predeal::from_hands([north, Hand::EMPTY, Hand::EMPTY, Hand::EMPTY]).unwrap();
    /// assert_eq!(p, parsed);
    /// assert!(Predeal::from_hands([north, north, Hand::EMPTY, Hand::EMPTY]).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_hands(fixed: [Hand; 4]) -> Option<Predeal> {
        let mut all = 0u64;
        for h in fixed {
            if h.len() > 13 || all & h.mask() != 0 {
                return None;
            }
            all |= h.mask();
        }
        Some(Predeal::checked(fixed))
    }

    /// The predeal of hands known to be disjoint and of at most 13 cards each.
    fn checked(fixed: [Hand; 4]) -> Predeal {
        let need = fixed.map(|h| 13 - h.len() as u8);
        let count = multinomial(&need);
        Predeal { fixed, need, count }
    }

    /// The fixed cards of each seat, N, E, S, W.
    pub fn fixed(&self) -> [Hand; 4] {
        self.fixed
    }

    /// The number of deals consistent with the fixed cards, 1..=D.
    pub fn completions(&self) -> u128 {
        self.count
    }

    /// The deal of rank `i` (0-based, below [`Predeal::completions`]) among the completions:
    /// the undealt cards in suited order go to seats by the Pavlicek rule (FORMATS.md §1a)
    /// with the seats' remaining counts. With nothing fixed it is exactly the Pavlicek unrank.
    pub fn complete(&self, mut i: u128) -> Deal {
        debug_assert!(i < self.count);
        let taken = self.fixed.iter().fold(0u64, |m, h| m | h.mask());
        let mut left = self.need.map(u128::from);
        let mut c: u128 = left.iter().sum();
        let mut k = self.count;
        let mut masks = self.fixed.map(|h| h.mask());
        for card in 0..52 {
            if taken >> card & 1 == 1 {
                continue;
            }
            for seat in 0..4 {
                if left[seat] == 0 {
                    continue;
                }
                let x = k * left[seat] / c;
                if i < x || seat == 3 {
                    masks[seat] |= 1 << card;
                    left[seat] -= 1;
                    k = x;
                    break;
                }
                i -= x;
            }
            c -= 1;
        }
        Deal::new(masks.map(Hand::from_mask)).expect("13 cards a seat")
    }
}

/// (Σn)! / Π n! for four counts of at most 13.
fn multinomial(n: &[u8; 4]) -> u128 {
    let mut total = 0u128;
    let mut result = 1u128;
    for &k in n {
        for j in 1..=k as u128 {
            total += 1;
            result = result * total / j;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_fixed_is_the_pavlicek_unrank() {
        let p = Predeal::parse("").unwrap();
        assert_eq!(p.completions(), crate::model::number::DEALS);
        for i in [
            0u128,
            9,
            123_456_789_012_345,
            crate::model::number::DEALS - 1,
        ] {
            assert_eq!(
                p.complete(i),
                Deal::from_number(i + 1, crate::model::number::Scheme::Pavlicek).unwrap()
            );
        }
    }

    #[test]
    fn completions_keep_the_fixed_cards_and_are_distinct() {
        let p = Predeal::parse("N:AKQ.A.. S:.KQJT9.2.").unwrap();
        // 42 cards left: N needs 9, E 13, S 7, W 13.
        assert_eq!(p.completions(), multinomial(&[9, 13, 7, 13]));
        let mut seen = std::collections::HashSet::new();
        for i in [0, 1, 2, p.completions() / 2, p.completions() - 1] {
            let d = p.complete(i);
            for seat in Seat::ALL {
                let fixed = p.fixed[seat.index()].mask();
                assert_eq!(
                    d.hand(seat).mask() & fixed,
                    fixed,
                    "{seat} keeps its fixed cards"
                );
            }
            assert!(seen.insert(d));
        }
        // A full predeal has exactly one completion.
        let full =
            Predeal::parse("N:AKQJT98765432... E:.AKQJT98765432.. S:..AKQJT98765432.").unwrap();
        assert_eq!(full.completions(), 1);
        assert_eq!(
            full.complete(0).to_string(),
            "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
        );
    }

    #[test]
    fn errors_name_the_column() {
        use crate::model::Classify;
        let column = |text: &str| {
            let e = Predeal::parse(text).unwrap_err();
            let ErrorKind::Predeal { column, .. } = *e.kind() else {
                panic!("{e:?}")
            };
            assert_eq!(e.position().and_then(|p| p.column), Some(column as u64));
            column
        };
        assert_eq!(column("N:AA..."), 4);
        assert_eq!(column("X:A..."), 1);
        assert_eq!(column("N:A... N:K..."), 8);
        assert_eq!(column("N:AX..."), 4);
        let twice = Predeal::parse("N:A... S:A...").unwrap_err();
        assert!(twice.to_string().contains("twice"), "{twice}");
    }
}
