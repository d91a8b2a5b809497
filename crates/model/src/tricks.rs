//! A deal's double-dummy table, the model's: the tricks each declarer takes in each strain
//! with every card in view. The solvers (`dealdex-solver`) make tables and compute par from
//! them; a [`crate::board::Board`] carries one, files and the store keep them.

use std::fmt;

use crate::card::{Seat, Suit};
use crate::contract::Strain;
use crate::features::Side;
use crate::{Error, ErrorKind};

/// The five strains in DD-table order: notrump, then ♠ ♥ ♦ ♣ (the columns of a printed
/// table; [`Strain::ALL`]).
pub const DD_STRAINS: [Strain; 5] = Strain::ALL;

/// Bytes of a packed [`TrickTable`]: 20 trick counts of 4 bits.
pub const PACKED_LEN: usize = 10;

/// A deal's double-dummy table: the tricks declarer's side takes for each declarer (N, E,
/// S, W) and strain (NT, ♠, ♥, ♦, ♣), each 0..=13.
///
/// ```
/// use dealdex::dd::TrickTable;
/// use dealdex::{Seat, Strain, Suit};
/// let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
///     .parse::<dealdex::Deal>()?;
/// let t = dealdex::dd::solve(&deal);
/// assert_eq!(t.tricks(Seat::North, Strain::Trumps(Suit::Spades)), 13);
/// assert_eq!(t.tricks(Seat::North, Strain::NoTrump), 0);
/// assert_eq!(TrickTable::from_bytes(&t.to_bytes())?, t);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrickTable {
    /// `tricks[declarer][strain]`, declarer in [`Seat::ALL`] order, strain in
    /// [`DD_STRAINS`] order.
    tricks: [[u8; 5]; 4],
}

/// Index of a strain in [`DD_STRAINS`].
fn strain_index(strain: Strain) -> usize {
    match strain {
        Strain::NoTrump => 0,
        Strain::Trumps(Suit::Spades) => 1,
        Strain::Trumps(Suit::Hearts) => 2,
        Strain::Trumps(Suit::Diamonds) => 3,
        Strain::Trumps(Suit::Clubs) => 4,
    }
}

impl TrickTable {
    /// A table from `tricks[declarer][strain]` (declarers N, E, S, W; strains NT, ♠, ♥, ♦,
    /// ♣).
    ///
    /// # Errors
    /// [`ErrorKind::TableTricks`] for a count above 13.
    pub fn new(tricks: [[u8; 5]; 4]) -> Result<TrickTable, Error> {
        for (d, row) in tricks.iter().enumerate() {
            for (s, &t) in row.iter().enumerate() {
                if t > 13 {
                    return Err(ErrorKind::TableTricks {
                        declarer: Seat::ALL[d],
                        strain: DD_STRAINS[s],
                        tricks: t,
                    }
                    .into());
                }
            }
        }
        Ok(TrickTable { tricks })
    }

    /// Tricks taken by `declarer`'s side when `declarer` plays in `strain` (0..=13).
    pub fn tricks(&self, declarer: Seat, strain: Strain) -> u8 {
        self.tricks[declarer as usize][strain_index(strain)]
    }

    /// The better of the side's two declarers in `strain` (0..=13).
    pub fn side_tricks(&self, side: Side, strain: Strain) -> u8 {
        let [a, b] = side.seats();
        self.tricks(a, strain).max(self.tricks(b, strain))
    }

    /// `tricks[declarer][strain]` as [`TrickTable::new`] takes it.
    pub fn rows(&self) -> [[u8; 5]; 4] {
        self.tricks
    }

    /// The table in 10 bytes: 20 counts of 4 bits, declarer-major (N, E, S, W) and strain
    /// order NT, ♠, ♥, ♦, ♣ within a declarer, the first count in the high nibble of byte 0.
    /// This is how the database stores it (migration 05).
    pub fn to_bytes(&self) -> [u8; PACKED_LEN] {
        let mut out = [0u8; PACKED_LEN];
        for (i, t) in self.tricks.iter().flatten().enumerate() {
            out[i / 2] |= t << if i % 2 == 0 { 4 } else { 0 };
        }
        out
    }

    /// The table from [`TrickTable::to_bytes`].
    ///
    /// # Errors
    /// [`ErrorKind::TableLength`] unless `bytes` has 10 bytes; [`ErrorKind::TableTricks`] for
    /// a nibble above 13.
    pub fn from_bytes(bytes: &[u8]) -> Result<TrickTable, Error> {
        if bytes.len() != PACKED_LEN {
            return Err(ErrorKind::TableLength { found: bytes.len() }.into());
        }
        let mut tricks = [[0u8; 5]; 4];
        for i in 0..20 {
            let b = bytes[i / 2];
            tricks[i / 5][i % 5] = if i % 2 == 0 { b >> 4 } else { b & 0xF };
        }
        TrickTable::new(tricks)
    }
}

/// Prints the table as declarer rows `N E S W` and strain columns `NT S H D C`, one line a
/// declarer: `N  9 10  8  7  6`.
impl fmt::Display for TrickTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "    NT  S  H  D  C")?;
        for (d, seat) in Seat::ALL.iter().enumerate() {
            write!(f, "{}", seat.letter())?;
            for t in self.tricks[d] {
                write!(f, " {t:>2}")?;
            }
            if d < 3 {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

/// JSON form: declarer → strain → tricks, `{"N": {"NT": 9, "S": 10, "H": 8, "D": 7, "C": 6},
/// "E": …}` (the `tricks` object of `dealdex solve --format json`).
impl serde::Serialize for TrickTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        struct Row([u8; 5]);
        impl serde::Serialize for Row {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(5))?;
                for (strain, t) in DD_STRAINS.iter().zip(self.0) {
                    m.serialize_entry(strain.as_str(), &t)?;
                }
                m.end()
            }
        }
        let mut m = s.serialize_map(Some(4))?;
        for (seat, row) in Seat::ALL.iter().zip(self.tricks) {
            m.serialize_entry(&seat.letter(), &Row(row))?;
        }
        m.end()
    }
}
