//! `evalcontract`: the double-dummy tricks of North and of South declaring in each strain,
//! tallied over the produced deals, and dealer's table of the average score of every
//! contract.

use std::fmt;

use super::eval::score;
use crate::dd::TrickTable;
use crate::model::card::{Seat, Suit};
use crate::model::contract::Strain;

/// The strains in the order of dealer's table (and of [`EvalContract::tricks`]): clubs,
/// diamonds, hearts, spades, notrump (None).
pub const STRAINS: [Option<Suit>; 5] = [
    Some(Suit::Clubs),
    Some(Suit::Diamonds),
    Some(Suit::Hearts),
    Some(Suit::Spades),
    None,
];

/// `evalcontract`'s tallies: for each produced deal, the double-dummy tricks of North and of
/// South declaring in each strain.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct EvalContract {
    /// The deals tallied (the produced deals).
    pub deals: u64,
    /// `tricks[side][strain][t]`: the deals on which the side (0 North, 1 South) declaring in
    /// the strain (♣ ♦ ♥ ♠ notrump, [`STRAINS`]) takes `t` tricks (0..=13).
    pub tricks: [[[u64; 14]; 5]; 2],
}

impl EvalContract {
    /// Tallies one deal's double-dummy table.
    pub fn add(&mut self, table: &TrickTable) {
        self.deals += 1;
        for (side, seat) in [Seat::North, Seat::South].into_iter().enumerate() {
            for (i, strain) in STRAINS.into_iter().enumerate() {
                let t = table.tricks(seat, strain.map_or(Strain::NoTrump, Strain::Trumps));
                self.tricks[side][i][usize::from(t.min(13))] += 1;
            }
        }
    }

    /// The average undoubled score of the contract `level` in `STRAINS[strain]` by the side
    /// (0 North, 1 South), as dealer prints it: the sum of the scores over the deals divided
    /// by the deals, truncated toward zero (0 without deals, where dealer divides by zero).
    pub fn average(&self, vulnerable: bool, side: usize, strain: usize, level: u8) -> i64 {
        if self.deals == 0 {
            return 0;
        }
        let total: i64 = self.tricks[side][strain]
            .iter()
            .enumerate()
            .map(|(t, &n)| n as i64 * score(vulnerable, level, STRAINS[strain], t as i64))
            .sum();
        total / self.deals as i64
    }
}

impl fmt::Display for EvalContract {
    /// dealer's table: for not vulnerable then vulnerable, a heading line, the levels 1–7,
    /// a row per strain (`c: ` … `n: `) of `North/South` averages, `%4d/%4d ` each, and an
    /// empty line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for vulnerable in [false, true] {
            writeln!(
                f,
                "{}",
                if vulnerable {
                    "Vulnerable"
                } else {
                    "Not Vulnerable"
                }
            )?;
            write!(f, "   ")?;
            for level in 1..=7 {
                write!(f, "  {level}       ")?;
            }
            writeln!(f)?;
            for (strain, letter) in ['c', 'd', 'h', 's', 'n'].into_iter().enumerate() {
                write!(f, "{letter}: ")?;
                for level in 1..=7 {
                    write!(
                        f,
                        "{:4}/{:4} ",
                        self.average(vulnerable, 0, strain, level),
                        self.average(vulnerable, 1, strain, level)
                    )?;
                }
                writeln!(f)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
