//! The double-dummy tags of PBN games, as Bridge Composer, DealMaster Pro and bridge-wrangler
//! write them (PBN 2.1 §5.7 supplemental section `OptimumResultTable`; the other three are
//! de-facto tags of those programs):
//!
//! ```text
//! [DoubleDummyTricks "8a6778a67745564556ab"]
//! [OptimumScore "NS 420"]
//! [ParContract "NS 4S"]
//! [OptimumResultTable "Declarer;Denomination\2R;Result\2R"]
//! N NT  8
//! N  S 10
//! …                      (20 lines: declarers N S E W, strains NT S H D C in each)
//! ```
//!
//! - `DoubleDummyTricks`: 20 hex digits (`0`–`d`, either case), the tricks of declarers
//!   N, S, E, W (in that order), five strains each in the order NT ♠ ♥ ♦ ♣.
//! - `OptimumResultTable`: a header naming the columns, then one `declarer strain tricks`
//!   line per cell (any order, whitespace-separated).
//! - `OptimumScore`: par from a side's view, `NS 420` or `EW 100` (dealdex writes `NS`'s view,
//!   e.g. `NS -100`); read as either side.
//! - `ParContract`: the par contracts by side, e.g. `NS 4S`, `EW 5Dx`, `S 3NT+1`, several
//!   joined by `, `, or `Pass`. It is written, not read: par follows from the table, dealer and
//!   vulnerability (the reader checks `OptimumScore` against it instead).

use crate::dd::{DD_STRAINS, Par, TrickTable};
use crate::model::card::Seat;
use crate::model::contract::Contract;

/// The header of dealdex's `OptimumResultTable`, as PBN 2.1 §5.7 spells it.
pub(super) const TABLE_HEADER: &str = "Declarer;Denomination\\2R;Result\\2R";

/// The declarer order of `DoubleDummyTricks` and of the written `OptimumResultTable`.
const PBN_DECLARERS: [Seat; 4] = [Seat::North, Seat::South, Seat::East, Seat::West];

/// Parses a `DoubleDummyTricks` value; the error gives the byte offset in `v` and why.
pub(super) fn parse_tricks_hex(v: &[u8]) -> Result<TrickTable, (usize, String)> {
    if v.len() != 20 {
        return Err((
            0,
            format!(
                "[DoubleDummyTricks] has {} characters (expected 20 hex digits: N, S, E, W \
                 declaring NT, S, H, D, C)",
                v.len()
            ),
        ));
    }
    let mut tricks = [[0u8; 5]; 4];
    for (i, &c) in v.iter().enumerate() {
        let t = match (c as char).to_digit(16) {
            Some(t) if t <= 13 => t as u8,
            _ => {
                return Err((
                    i,
                    format!(
                        "[DoubleDummyTricks]: {:?} is not a trick count (expected 0-9 or a-d)",
                        c as char
                    ),
                ));
            }
        };
        tricks[PBN_DECLARERS[i / 5].index()][i % 5] = t;
    }
    TrickTable::new(tricks).map_err(|e| (0, format!("[DoubleDummyTricks]: {e}")))
}

/// The `DoubleDummyTricks` value of a table: 20 lower-case hex digits.
pub(super) fn tricks_hex(table: &TrickTable) -> String {
    let mut s = String::with_capacity(20);
    for seat in PBN_DECLARERS {
        for strain in DD_STRAINS {
            let t = table.tricks(seat, strain);
            s.push(char::from_digit(u32::from(t), 16).unwrap_or('?'));
        }
    }
    s
}

/// True when an `OptimumResultTable` header names the three columns dealdex reads, in
/// order (`Declarer;Denomination;Result`, each with or without a `\…` alignment suffix).
pub(super) fn is_table_header(v: &[u8]) -> bool {
    let names: Vec<&[u8]> = v
        .split(|&b| b == b';')
        .map(|c| {
            let end = c.iter().position(|&b| b == b'\\').unwrap_or(c.len());
            c[..end].trim_ascii()
        })
        .collect();
    names.len() == 3
        && names[0].eq_ignore_ascii_case(b"Declarer")
        && names[1].eq_ignore_ascii_case(b"Denomination")
        && names[2].eq_ignore_ascii_case(b"Result")
}

/// The cells of an `OptimumResultTable` section, filled token by token.
#[derive(Clone, Debug, Default)]
pub(super) struct TableCells {
    cells: [[Option<u8>; 5]; 4],
    /// The declarer and strain read of the cell in progress.
    seat: Option<Seat>,
    strain: Option<usize>,
    filled: usize,
}

impl TableCells {
    /// Takes the next token of the section; the error says why it is wrong.
    pub(super) fn token(&mut self, tok: &[u8]) -> Result<(), String> {
        let t = String::from_utf8_lossy(tok);
        match (self.seat, self.strain) {
            (None, _) => {
                let seat = match tok {
                    [c] => Seat::from_char(c.to_ascii_uppercase() as char),
                    _ => None,
                };
                self.seat = Some(seat.ok_or_else(|| {
                    format!("[OptimumResultTable]: {t:?} is not a declarer (expected N, E, S or W)")
                })?);
            }
            (Some(_), None) => {
                let strain = DD_STRAINS
                    .iter()
                    .position(|s| s.as_str().as_bytes().eq_ignore_ascii_case(tok))
                    .or_else(|| tok.eq_ignore_ascii_case(b"N").then_some(0));
                self.strain = Some(strain.ok_or_else(|| {
                    format!(
                        "[OptimumResultTable]: {t:?} is not a strain (expected NT, S, H, D or C)"
                    )
                })?);
            }
            (Some(seat), Some(strain)) => {
                let tricks = match std::str::from_utf8(tok).ok().map(str::parse::<u8>) {
                    Some(Ok(n)) if n <= 13 => n,
                    _ => {
                        return Err(format!(
                            "[OptimumResultTable]: {t:?} is not a trick count (expected 0 to 13)"
                        ));
                    }
                };
                let cell = &mut self.cells[seat.index()][strain];
                if cell.is_some_and(|c| c != tricks) {
                    return Err(format!(
                        "[OptimumResultTable]: {seat} in {} given twice",
                        DD_STRAINS[strain].as_str()
                    ));
                }
                if cell.replace(tricks).is_none() {
                    self.filled += 1;
                }
                self.seat = None;
                self.strain = None;
            }
        }
        Ok(())
    }

    /// True when results are missing (fewer than 20, or a row cut short): the reader then
    /// ignores the table with a warning.
    pub(super) fn incomplete(&self) -> bool {
        self.seat.is_some() || self.cells.iter().flatten().any(Option::is_none)
    }

    /// The whole table; the error names what is missing.
    pub(super) fn finish(&self) -> Result<TrickTable, String> {
        if let Some(seat) = self.seat {
            return Err(format!(
                "[OptimumResultTable]: the line of declarer {seat} has no {}",
                if self.strain.is_some() {
                    "trick count"
                } else {
                    "strain and trick count"
                }
            ));
        }
        let mut tricks = [[0u8; 5]; 4];
        for (d, row) in self.cells.iter().enumerate() {
            for (s, cell) in row.iter().enumerate() {
                tricks[d][s] = cell.ok_or_else(|| {
                    format!(
                        "[OptimumResultTable] has {} of the 20 results; {} in {} is missing",
                        self.filled,
                        Seat::ALL[d],
                        DD_STRAINS[s].as_str()
                    )
                })?;
            }
        }
        TrickTable::new(tricks).map_err(|e| format!("[OptimumResultTable]: {e}"))
    }
}

/// Appends the `OptimumResultTable` section lines of `table` (after its tag): declarers
/// N, S, E, W, strains NT S H D C, as `N NT  8` / `N  S 10`.
pub(super) fn push_table_lines(out: &mut Vec<u8>, table: &TrickTable) {
    for seat in PBN_DECLARERS {
        for strain in DD_STRAINS {
            let line = format!(
                "{} {:>2} {:>2}\n",
                seat.letter(),
                strain.as_str(),
                table.tricks(seat, strain)
            );
            out.extend_from_slice(line.as_bytes());
        }
    }
}

/// Parses an `OptimumScore` value (`NS 420`, `EW -100`, `NS: 420`) as North-South's score.
pub(super) fn parse_optimum_score(v: &[u8]) -> Option<i32> {
    let s = std::str::from_utf8(v).ok()?.trim();
    let (side, rest) = s.split_at(s.len().min(2));
    let score: i32 = rest.trim_start_matches(':').trim().parse().ok()?;
    match side.to_ascii_uppercase().as_str() {
        "NS" => Some(score),
        "EW" => score.checked_neg(),
        _ => None,
    }
}

/// The `OptimumScore` value dealdex writes: `NS <score>`, North-South's view.
pub(super) fn optimum_score(par: &Par) -> String {
    format!("NS {}", par.score)
}

/// The `ParContract` value: contracts by side (`NS 4S` when both partners make it with the
/// same result, else the declarer: `S 3NT+1`), joined by `, `; `Pass` when passed out.
pub(super) fn par_contract(par: &Par) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut done = vec![false; par.contracts.len()];
    for (i, c) in par.contracts.iter().enumerate() {
        if done[i] {
            continue;
        }
        let partner = par.contracts.iter().enumerate().skip(i + 1).find(|(_, o)| {
            o.result == c.result
                && o.contract
                    == Contract {
                        declarer: c.contract.declarer.rotate(2),
                        ..c.contract
                    }
        });
        let who = match partner {
            Some((j, _)) => {
                done[j] = true;
                match c.contract.declarer {
                    Seat::North | Seat::South => "NS".to_owned(),
                    Seat::East | Seat::West => "EW".to_owned(),
                }
            }
            None => c.contract.declarer.letter().to_string(),
        };
        let Contract {
            level,
            strain,
            doubling,
            ..
        } = c.contract;
        let mut text = format!("{who} {level}{}{}", strain.as_str(), doubling.suffix());
        if c.result != 0 {
            text.push_str(&format!("{:+}", c.result));
        }
        parts.push(text);
    }
    if parts.is_empty() {
        return "Pass".to_owned();
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::ParContract;
    use crate::model::contract::{Doubling, Strain};

    fn table() -> TrickTable {
        // Rows N E S W, columns NT S H D C.
        TrickTable::new([
            [8, 10, 6, 7, 7],
            [4, 3, 6, 5, 5],
            [8, 10, 7, 7, 7],
            [5, 3, 6, 6, 6],
        ])
        .unwrap()
    }

    #[test]
    fn tricks_hex_orders_declarers_n_s_e_w() {
        let hex = tricks_hex(&table());
        assert_eq!(hex, "8a6778a7774365553666");
        assert_eq!(parse_tricks_hex(hex.as_bytes()).unwrap(), table());
        assert_eq!(
            parse_tricks_hex(hex.to_uppercase().as_bytes()).unwrap(),
            table()
        );
    }

    #[test]
    fn bad_tricks_hex_names_the_character() {
        assert_eq!(parse_tricks_hex(b"8a6778a777436555366e").unwrap_err().0, 19);
        assert_eq!(parse_tricks_hex(b"8a67").unwrap_err().0, 0);
    }

    #[test]
    fn table_lines_read_back() {
        let mut out = Vec::new();
        push_table_lines(&mut out, &table());
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("N NT  8\nN  S 10\n"), "{text}");
        assert_eq!(text.lines().count(), 20);
        let mut cells = TableCells::default();
        for tok in text.split_ascii_whitespace() {
            cells.token(tok.as_bytes()).unwrap();
        }
        assert_eq!(cells.finish().unwrap(), table());
        let mut partial = TableCells::default();
        for tok in text.split_ascii_whitespace().take(57) {
            partial.token(tok.as_bytes()).unwrap();
        }
        let e = partial.finish().unwrap_err();
        assert!(e.contains("19 of the 20") && e.contains("W in C"), "{e}");
    }

    #[test]
    fn headers_and_scores() {
        assert!(is_table_header(TABLE_HEADER.as_bytes()));
        assert!(is_table_header(b"Declarer;Denomination\\1R;Result\\1R"));
        assert!(!is_table_header(b"Denomination;Declarer;Result"));
        assert_eq!(parse_optimum_score(b"NS 420"), Some(420));
        assert_eq!(parse_optimum_score(b"EW 100"), Some(-100));
        assert_eq!(parse_optimum_score(b"NS -100"), Some(-100));
        assert_eq!(parse_optimum_score(b"ns: 0"), Some(0));
        assert_eq!(parse_optimum_score(b"420"), None);
    }

    #[test]
    fn par_contracts_group_partners() {
        let c = |level, strain, doubled, declarer, result| ParContract {
            contract: Contract {
                level,
                strain,
                doubling: if doubled {
                    Doubling::Doubled
                } else {
                    Doubling::Undoubled
                },
                declarer,
            },
            result,
        };
        let spades = Strain::Trumps(crate::model::card::Suit::Spades);
        let par = Par {
            score: 420,
            contracts: vec![
                c(4, spades, false, Seat::North, 0),
                c(4, spades, false, Seat::South, 0),
                c(3, Strain::NoTrump, false, Seat::South, 1),
            ],
        };
        assert_eq!(par_contract(&par), "NS 4S, S 3NT+1");
        assert_eq!(optimum_score(&par), "NS 420");
        let sac = Par {
            score: 100,
            contracts: vec![c(7, Strain::NoTrump, true, Seat::East, -1)],
        };
        assert_eq!(par_contract(&sac), "E 7NTx-1");
        let passed = Par {
            score: 0,
            contracts: vec![],
        };
        assert_eq!(par_contract(&passed), "Pass");
    }
}
