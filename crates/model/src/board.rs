//! Board numbers, dealers and vulnerability: the 16-board cycle of FORMATS.md §3.

use std::fmt;

use crate::card::Seat;
use crate::deal::Deal;
use crate::error::{Error, ErrorKind};
use crate::game::GameRecord;
use crate::tricks::TrickTable;

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
        self.spelled(["None", "NS", "EW", "All"])
    }

    /// This vulnerability's entry in `spellings`, which a format or a report gives in the
    /// order None, NS, EW, All (the order of the variants).
    ///
    /// ```
    /// use dealdex::Vulnerability;
    /// assert_eq!(Vulnerability::EastWest.spelled(["-", "NS", "EW", "All"]), "EW");
    /// assert_eq!(Vulnerability::All.spelled([b'0', b'n', b'e', b'b']), b'b');
    /// ```
    pub const fn spelled<T: Copy>(self, spellings: [T; 4]) -> T {
        spellings[self as usize]
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

/// One board: a deal plus whatever is known about it beside (its number, dealer and
/// vulnerability, the game a file records, its double-dummy table) — a board as a file
/// carries it, as the store keeps it, as the pipeline hands it on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Board number, 1-based, when the format carries one (or once numbered, as the
    /// formats' `number_boards` numbers a file's boards).
    pub number: Option<u64>,
    /// Dealer, when the format carries it explicitly (else it follows from the number).
    pub dealer: Option<Seat>,
    /// Vulnerability, when the format carries it explicitly (else from the number).
    pub vulnerability: Option<Vulnerability>,
    /// The deal.
    pub deal: Deal,
    /// The rest of a PBN game or LIN record (tags, auction, play), when the file has any.
    pub game: Option<Box<GameRecord>>,
    /// The double-dummy table the file gives for the deal (PBN `[DoubleDummyTricks]` or
    /// `[OptimumResultTable]`), or the one to write with it; formats without such a field
    /// ignore it.
    pub dd: Option<TrickTable>,
}

impl Board {
    /// A board with just a number and a deal; dealer and vulnerability follow the number.
    pub fn new(number: u64, deal: Deal) -> Board {
        Board {
            number: Some(number),
            dealer: None,
            vulnerability: None,
            deal,
            game: None,
            dd: None,
        }
    }

    /// A board as formats without board numbers, dealer or vulnerability read it: just the deal.
    pub fn unnumbered(deal: Deal) -> Board {
        Board {
            number: None,
            dealer: None,
            vulnerability: None,
            deal,
            game: None,
            dd: None,
        }
    }

    /// The dealer: the explicit one, else the board number's (FORMATS.md §3), else North.
    pub fn dealer_or_default(&self) -> Seat {
        self.dealer
            .or(self.number.map(board_dealer))
            .unwrap_or(Seat::North)
    }

    /// The vulnerability: the explicit one, else the board number's, else None.
    pub fn vulnerability_or_default(&self) -> Vulnerability {
        self.vulnerability
            .or(self.number.map(board_vulnerability))
            .unwrap_or(Vulnerability::None)
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
