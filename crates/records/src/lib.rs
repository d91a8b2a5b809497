//! Printable hand records: the sheet a director hands out after a session.
//!
//! A [`RecordSheet`] holds what goes on the sheet — a header (event, date, set) and per board
//! its number, dealer, vulnerability, deal, HCP and, when solved, the double-dummy table and
//! par — and the layout options ([`RecordOptions`]: paper, boards per page, how a ten is
//! written, analysis shown or not). Both renderers read the same sheet and place the boards
//! on the same grid: [`html`] writes one self-contained HTML file for printing, [`pdf`]
//! writes the PDF directly (with an embedded font that has the suit symbols).
//!
//! Pages hold `per_page` boards each, in board order; a board is never split across pages.
//!
//! Depends on the model and the solver (par of a board's table) only; the engine re-exports
//! it as `dealdex::records`. Every failure is the crate's one [`Error`], in rust-csv's style:
//! its [`ErrorKind`] is a layout option refused or the PDF that could not be made.

#![deny(missing_docs)]

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

// The model and the solver under their names in the engine (`crate::model::…`, `crate::dd::…`).
use dealdex_model as model;
use dealdex_model::classified;
use dealdex_solver as dd;

use crate::dd::{Par, ParContract, TablePar, TrickTable};
use crate::model::board::{Vulnerability, board_dealer, board_vulnerability};
use crate::model::card::{Seat, Suit};
use crate::model::contract::Strain;
use crate::model::deal::Deal;
use crate::model::features::hcp;

mod error;
pub mod html;
pub mod pdf;

pub use error::{Error, ErrorKind};

/// How a ten is written in a holding: `10` (club hand records) or `T` (PBN style).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TenStyle {
    /// `AK105`.
    #[default]
    Ten,
    /// `AKT5`.
    T,
}

/// Boards per printed page: 1, 2, 4 or 6, on a grid of columns × rows ([`PerPage::grid`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "u8")]
pub struct PerPage(u8);

impl PerPage {
    /// Four boards a page (2 × 2): the default on A4 portrait.
    pub const FOUR: PerPage = PerPage(4);

    /// `n` boards a page; `None` unless `n` is 1, 2, 4 or 6.
    pub const fn new(n: u8) -> Option<PerPage> {
        match n {
            1 | 2 | 4 | 6 => Some(PerPage(n)),
            _ => None,
        }
    }

    /// Boards a page: 1, 2, 4 or 6.
    pub const fn get(self) -> usize {
        self.0 as usize
    }

    /// The grid the boards of a page fill, row by row: (columns, rows) — 1 → 1 × 1,
    /// 2 → 1 × 2, 4 → 2 × 2, 6 → 2 × 3.
    pub const fn grid(self) -> (usize, usize) {
        match self.0 {
            1 => (1, 1),
            2 => (1, 2),
            4 => (2, 2),
            _ => (2, 3),
        }
    }
}

impl Default for PerPage {
    fn default() -> PerPage {
        PerPage::FOUR
    }
}

impl From<PerPage> for u8 {
    fn from(p: PerPage) -> u8 {
        p.0
    }
}

impl FromStr for PerPage {
    type Err = Error;
    /// 1, 2, 4 or 6 (spaces around allowed).
    ///
    /// # Errors
    /// [`ErrorKind::PerPage`] for any other value.
    fn from_str(s: &str) -> Result<PerPage, Error> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(PerPage::new)
            .ok_or_else(|| Error::refused(|found| ErrorKind::PerPage { found }, s))
    }
}

/// Paper size, portrait.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in (215.9 × 279.4 mm).
    Letter,
}

impl Paper {
    /// (width, height) in millimetres, portrait.
    pub const fn size_mm(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// The CSS `@page` size keyword: `A4` or `letter`.
    pub const fn css(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

impl FromStr for Paper {
    type Err = Error;
    /// `a4`, `letter` or `us-letter`, in any case.
    ///
    /// # Errors
    /// [`ErrorKind::Paper`] for any other name.
    fn from_str(s: &str) -> Result<Paper, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" | "us-letter" => Ok(Paper::Letter),
            _ => Err(Error::refused(|found| ErrorKind::Paper { found }, s)),
        }
    }
}

/// Page margin on every side, in millimetres (both renderers).
pub const MARGIN_MM: f32 = 12.0;

/// How the sheet is laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RecordOptions {
    /// Paper size (default A4).
    pub paper: Paper,
    /// Boards per page (default 4).
    pub per_page: PerPage,
    /// How a ten is written (default `10`).
    pub ten: TenStyle,
    /// Leave out the double-dummy table and par even for solved boards: a plain sheet.
    pub hide_analysis: bool,
}

/// The sheet's header: event name, date and set, each printed when given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SheetHeader {
    /// The event's name (e.g. the set's name, or a PBN `[Event]`).
    pub event: String,
    /// The date as printed, e.g. `2026-11-24` (PBN `[Date]` or today).
    pub date: Option<String>,
    /// The set's name in the store, when the sheet comes from one.
    pub set: Option<String>,
}

/// One board of the sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordBoard {
    /// Board number, 1-based.
    pub number: u64,
    /// The dealer.
    pub dealer: Seat,
    /// The vulnerability.
    pub vulnerability: Vulnerability,
    /// The deal.
    pub deal: Deal,
    /// The double-dummy table, when the deal is solved.
    pub dd: Option<TrickTable>,
}

impl RecordBoard {
    /// Board `number` with the dealer and vulnerability that follow from it (FORMATS.md,
    /// board numbering: the cycle of 16), unsolved.
    pub fn new(number: u64, deal: Deal) -> RecordBoard {
        RecordBoard {
            number,
            dealer: board_dealer(number),
            vulnerability: board_vulnerability(number),
            deal,
            dd: None,
        }
    }

    /// High-card points of `seat`'s hand (A 4, K 3, Q 2, J 1), 0..=37.
    pub fn hcp(&self, seat: Seat) -> u8 {
        hcp(self.deal.hand(seat))
    }

    /// True when `seat`'s side is vulnerable.
    pub fn is_vulnerable(&self, seat: Seat) -> bool {
        self.vulnerability.is_vulnerable(seat)
    }

    /// `seat`'s holding in `suit` as printed: ranks from the ace down, the ten as `ten` says,
    /// `—` (U+2014) for a void.
    pub fn holding(&self, seat: Seat, suit: Suit, ten: TenStyle) -> String {
        let s = self.deal.hand(seat).holding_string(suit);
        if s.is_empty() {
            return "\u{2014}".to_owned();
        }
        match ten {
            TenStyle::T => s,
            TenStyle::Ten => s.replace('T', "10"),
        }
    }

    /// Par for the board's dealer and vulnerability, when the deal is solved.
    pub fn par(&self) -> Option<Par> {
        self.dd.map(|t| t.par(self.dealer, self.vulnerability))
    }
}

/// The declarers of a printed double-dummy table, in hand-record order: N, S, E, W.
pub const TABLE_DECLARERS: [Seat; 4] = [Seat::North, Seat::South, Seat::East, Seat::West];

/// The strains of a printed double-dummy table: NT, ♠, ♥, ♦, ♣.
pub const TABLE_STRAINS: [Strain; 5] = Strain::ALL;

/// A strain as printed: `NT` or the suit symbol (♠ ♥ ♦ ♣).
pub fn strain_label(strain: Strain) -> String {
    match strain {
        Strain::NoTrump => "NT".to_owned(),
        Strain::Trumps(s) => s.symbol().to_string(),
    }
}

/// A par contract as printed: `4♠ N`, `3NT S +1`, `5♣x E −2` (U+2212 minus).
pub fn contract_label(c: &ParContract) -> String {
    let contract = c.contract;
    let mut s = format!(
        "{}{}{}",
        contract.level,
        strain_label(contract.strain),
        contract.doubling.suffix()
    );
    s.push(' ');
    s.push(contract.declarer.letter());
    match c.result {
        0 => {}
        k if k > 0 => s.push_str(&format!(" +{k}")),
        k => s.push_str(&format!(" \u{2212}{}", -k)),
    }
    s
}

/// The vulnerability as both renderers print it: `None`, `N-S`, `E-W`, `All`.
pub(crate) fn vul_label(vulnerability: Vulnerability) -> &'static str {
    vulnerability.spelled(["None", "N-S", "E-W", "All"])
}

/// Par as printed: `NS +620: 4♠ N, 4♠ S`, `EW +100: 5♣x N −1`, or `Passed out`.
pub fn par_label(par: &Par) -> String {
    if par.contracts.is_empty() {
        return "Passed out".to_owned();
    }
    let (side, score) = if par.score >= 0 {
        ("NS", par.score)
    } else {
        ("EW", -par.score)
    };
    let contracts: Vec<String> = par.contracts.iter().map(contract_label).collect();
    format!("{side} +{score}: {}", contracts.join(", "))
}

/// A full sheet: header, boards in print order, layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordSheet {
    /// The header printed on every page.
    pub header: SheetHeader,
    /// The boards, in print order.
    pub boards: Vec<RecordBoard>,
    /// The layout.
    pub options: RecordOptions,
}

impl RecordSheet {
    /// The boards page by page: `per_page` at a time, the last page holding the rest.
    pub fn pages(&self) -> impl Iterator<Item = &[RecordBoard]> {
        self.boards.chunks(self.options.per_page.get())
    }

    /// The number of pages: boards ÷ boards per page, rounded up (at least 1, an empty sheet
    /// still prints its header).
    pub fn page_count(&self) -> usize {
        self.boards
            .len()
            .div_ceil(self.options.per_page.get())
            .max(1)
    }

    /// True when `board`'s analysis (table and par) is printed: it is solved and the sheet
    /// does not hide analysis.
    pub fn shows_analysis(&self, board: &RecordBoard) -> bool {
        board.dd.is_some() && !self.options.hide_analysis
    }

    /// The page footer: `Page k of n` (k 1-based).
    pub fn footer(&self, page: usize) -> String {
        format!("Page {} of {}", page + 1, self.page_count())
    }

    /// The header line under the event name: date and set, as given, joined by ` · `.
    pub fn subtitle(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = &self.header.date {
            parts.push(d.clone());
        }
        if let Some(s) = &self.header.set {
            parts.push(format!("set {s}"));
        }
        parts.join(" \u{b7} ")
    }
}

impl fmt::Display for TenStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TenStyle::Ten => "10",
            TenStyle::T => "T",
        })
    }
}

impl FromStr for TenStyle {
    type Err = Error;
    /// `10`, `T` or `t`.
    ///
    /// # Errors
    /// [`ErrorKind::TenStyle`] for any other value.
    fn from_str(s: &str) -> Result<TenStyle, Error> {
        match s.trim() {
            "10" => Ok(TenStyle::Ten),
            "T" | "t" => Ok(TenStyle::T),
            _ => Err(Error::refused(|found| ErrorKind::TenStyle { found }, s)),
        }
    }
}

/// The most characters of an event name a page's header shows; a longer name is cut there
/// with `…` (the whole name is given once per document: the HTML `<title>`, the PDF's title).
pub const HEADER_CHARS: usize = 120;

/// True for the Unicode bidirectional controls (embeddings, overrides, isolates and marks):
/// in an event name they would turn the rest of the page's text around (U+202E shows
/// "gnirts" for "string").
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// An event name as a document shows it whole (once): bidirectional controls removed, other
/// control characters (line breaks, tabs) made spaces.
///
/// ```
/// assert_eq!(dealdex::records::clean_text("Club\u{202E}pairs\tnight"), "Clubpairs night");
/// ```
pub fn clean_text(s: &str) -> String {
    s.chars()
        .filter(|&c| !is_bidi_control(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// An event name as each page's header shows it: [`clean_text`], cut at [`HEADER_CHARS`]
/// characters with `…`.
///
/// ```
/// let long = "x".repeat(500);
/// let shown = dealdex::records::header_text(&long);
/// assert_eq!(shown.chars().count(), dealdex::records::HEADER_CHARS + 1);
/// assert!(shown.ends_with('…'));
/// ```
pub fn header_text(s: &str) -> String {
    let clean = clean_text(s);
    match clean.char_indices().nth(HEADER_CHARS) {
        Some((cut, _)) => format!("{}…", &clean[..cut]),
        None => clean,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::contract::{Contract, Doubling};

    #[test]
    fn per_page_grids_hold_their_boards() {
        for n in [1u8, 2, 4, 6] {
            let p = PerPage::new(n).unwrap();
            let (c, r) = p.grid();
            assert_eq!(c * r, p.get());
        }
        assert_eq!(PerPage::new(3), None);
        assert!("5".parse::<PerPage>().is_err());
    }

    #[test]
    fn refused_options_are_the_callers_with_their_messages() {
        use crate::model::{Classify, ErrorClass};
        let per_page = "5".parse::<PerPage>().unwrap_err();
        let paper = "A3".parse::<Paper>().unwrap_err();
        let ten = "x".parse::<TenStyle>().unwrap_err();
        assert_eq!(
            per_page.to_string(),
            r#"boards per page "5": expected 1, 2, 4 or 6"#
        );
        assert_eq!(paper.to_string(), r#"paper "A3": expected a4 or letter"#);
        assert_eq!(ten.to_string(), r#"ten style "x": expected 10 or T"#);
        assert_eq!(
            ten.clone().into_kind(),
            ErrorKind::TenStyle {
                found: "x".to_owned()
            }
        );
        for e in [per_page, paper, ten] {
            assert_eq!(e.class(), ErrorClass::BadInput);
            assert_eq!(e.position(), None);
            assert_eq!(crate::model::classify(&e), Some(ErrorClass::BadInput));
        }
        let pdf = Error::from(ErrorKind::PdfWrite {
            message: "x".to_owned(),
        });
        assert_eq!(pdf.to_string(), "PDF writer: x");
        assert_eq!(pdf.class(), ErrorClass::Internal);
    }

    #[test]
    fn par_labels_read_like_a_hand_record() {
        let c = ParContract {
            contract: Contract {
                level: 5,
                strain: Strain::Trumps(Suit::Clubs),
                doubling: Doubling::Doubled,
                declarer: Seat::East,
            },
            result: -2,
        };
        assert_eq!(contract_label(&c), "5\u{2663}x E \u{2212}2");
        let par = Par {
            score: -300,
            contracts: vec![c],
        };
        assert_eq!(par_label(&par), "EW +300: 5\u{2663}x E \u{2212}2");
    }
}
