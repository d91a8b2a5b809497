//! Board numbers, dealers and vulnerability: the 16-board cycle of FORMATS.md §3.

use std::fmt;

use crate::card::Seat;
use crate::error::{Error, ErrorKind};

/// Which sides are vulnerable.
///
/// ```
/// use dealdex::Vulnerability;
/// assert_eq!("Both".parse::<Vulnerability>().unwrap(), Vulnerability::All);
/// assert_eq!(Vulnerability::NorthSouth.to_string(), "NS");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vulnerability {
    /// Neither side (PBN `None`; also `Love`, `-` on import).
    None,
    /// North–South (PBN `NS`).
    NorthSouth,
    /// East–West (PBN `EW`).
    EastWest,
    /// Both sides (PBN `All`; also `Both` on import).
    All,
}

impl Vulnerability {
    /// The PBN 2.1 export spelling: `None`, `NS`, `EW` or `All`.
    pub const fn pbn(self) -> &'static str {
        match self {
            Vulnerability::None => "None",
            Vulnerability::NorthSouth => "NS",
            Vulnerability::EastWest => "EW",
            Vulnerability::All => "All",
        }
    }

    /// True when `seat`'s side is vulnerable.
    ///
    /// ```
    /// use dealdex::{Seat, Vulnerability};
    /// assert!(Vulnerability::EastWest.is_vulnerable(Seat::West));
    /// assert!(!Vulnerability::EastWest.is_vulnerable(Seat::North));
    /// ```
    pub const fn is_vulnerable(self, seat: Seat) -> bool {
        let ns = matches!(seat, Seat::North | Seat::South);
        match self {
            Vulnerability::None => false,
            Vulnerability::All => true,
            Vulnerability::NorthSouth => ns,
            Vulnerability::EastWest => !ns,
        }
    }
}

impl fmt::Display for Vulnerability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pbn())
    }
}

impl std::str::FromStr for Vulnerability {
    type Err = Error;

    /// Accepts the PBN import spellings (FORMATS.md §4), case-insensitively:
    /// `None`/`Love`/`-`, `NS`, `EW`, `All`/`Both`.
    ///
    /// # Errors
    /// [`ErrorKind::UnknownVulnerability`], naming the text, for any other.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "love" | "-" => Ok(Vulnerability::None),
            "ns" => Ok(Vulnerability::NorthSouth),
            "ew" => Ok(Vulnerability::EastWest),
            "all" | "both" => Ok(Vulnerability::All),
            _ => Err(ErrorKind::UnknownVulnerability {
                text: s.to_string(),
            }
            .into()),
        }
    }
}

/// The dealer of board `board` (1-based): board mod 4 = 1 N, 2 E, 3 S, 0 W (FORMATS.md §3).
///
/// ```
/// use dealdex::{board_dealer, Seat};
/// assert_eq!(board_dealer(1), Seat::North);
/// assert_eq!(board_dealer(16), Seat::West);
/// ```
pub const fn board_dealer(board: u64) -> Seat {
    // board − 1 modulo 4, without overflow at u64::MAX (a board number read from a file).
    Seat::from_index((board % 4 + 3) as usize % 4)
}

/// The vulnerability of board `board` (1-based), repeating every 16 boards (FORMATS.md §3):
/// `[None, NS, EW, All][((b−1) + (b−1) div 4) mod 4]`.
///
/// ```
/// use dealdex::{board_vulnerability, Vulnerability};
/// assert_eq!(board_vulnerability(1), Vulnerability::None);
/// assert_eq!(board_vulnerability(16), Vulnerability::EastWest);
/// ```
pub const fn board_vulnerability(board: u64) -> Vulnerability {
    let b = (board % 16 + 15) % 16; // b − 1 modulo 16 (also right for board 0 ≡ 16)
    match (b + b / 4) % 4 {
        0 => Vulnerability::None,
        1 => Vulnerability::NorthSouth,
        2 => Vulnerability::EastWest,
        _ => Vulnerability::All,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_cycle() {
        // FORMATS.md §3 table, boards 1..16.
        let dealers = "NESWNESWNESWNESW";
        let vuls = [
            "None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All",
            "None", "NS", "EW",
        ];
        for b in 1..=16u64 {
            for board in [b, b + 16, b + 160] {
                assert_eq!(
                    board_dealer(board).letter(),
                    dealers.as_bytes()[b as usize - 1] as char
                );
                assert_eq!(board_vulnerability(board).pbn(), vuls[b as usize - 1]);
            }
        }
    }

    #[test]
    fn import_spellings() {
        for (s, v) in [
            ("Love", Vulnerability::None),
            ("-", Vulnerability::None),
            ("both", Vulnerability::All),
            ("NS", Vulnerability::NorthSouth),
            ("ew", Vulnerability::EastWest),
        ] {
            assert_eq!(s.parse::<Vulnerability>().unwrap(), v);
        }
        assert!("NE".parse::<Vulnerability>().is_err());
    }
}
