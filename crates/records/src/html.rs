//! The hand-record sheet as one self-contained HTML file: inline CSS, no scripts, no
//! fetches, laid out for a browser's print on the sheet's paper (`@page` size and margins).
//!
//! Every page is one `<div class="page">` of exactly the printable height, so a browser
//! prints page for page what [`RecordSheet::pages`] says; each board is one
//! `<section class="board">` with `break-inside: avoid`. The markup carries the data as
//! attributes (`data-board`, `data-seat`, `data-suit`, `data-declarer`, `data-strain`) so
//! that tools and tests can read a sheet back.

use std::fmt::Write as _;

use crate::model::card::{Seat, Suit};
use crate::{
    MARGIN_MM, RecordBoard, RecordSheet, TABLE_DECLARERS, TABLE_STRAINS, par_label, strain_label,
};

/// Height of the header band, in millimetres.
const HEADER_MM: f32 = 16.0;
/// Height of the footer band, in millimetres.
const FOOTER_MM: f32 = 7.0;
/// Space between boards, in millimetres.
const GAP_MM: f32 = 4.0;

/// The boxes' layout: the cell size and base font size from the paper and boards per page.
struct Geometry {
    /// A board box's width, in millimetres.
    cell_w: f32,
    /// A board box's height, in millimetres.
    cell_h: f32,
    /// The base font size, in points.
    font_pt: f32,
}

impl Geometry {
    fn of(sheet: &RecordSheet) -> Geometry {
        let (w, h) = sheet.options.paper.size_mm();
        let (cols, rows) = sheet.options.per_page.grid();
        let inner_w = w - 2.0 * MARGIN_MM;
        let inner_h = h - 2.0 * MARGIN_MM - 0.5;
        let cell_h = (inner_h - HEADER_MM - FOOTER_MM - GAP_MM * (rows as f32 - 1.0)) / rows as f32;
        let cell_w = (inner_w - GAP_MM * (cols as f32 - 1.0)) / cols as f32;
        // About 21 lines of text (hands, table, a two-line par, padding) must fit a box's
        // height, and three columns of about 13 characters its width.
        let font_pt = (cell_h / 21.0 / 1.25 * PT_PER_MM)
            .min(cell_w / 40.0 * PT_PER_MM / 0.6)
            .clamp(7.0, 15.0);
        Geometry {
            cell_w,
            cell_h,
            font_pt,
        }
    }

    /// The font size for board `b`: the base size, or smaller when its longest holdings
    /// would not fit the box's three columns (a 13-card suit is 14 characters wide).
    fn board_font_pt(&self, sheet: &RecordSheet, b: &RecordBoard) -> f32 {
        // Widths in em: a rank about 0.66 em in DejaVu Sans, a suit symbol and its space 1.1.
        let width = |seat: Seat| {
            Suit::ALL
                .iter()
                .map(|&s| b.holding(seat, s, sheet.options.ten).chars().count())
                .max()
                .unwrap_or(0) as f32
                * 0.66
                + 1.1
        };
        let left = width(Seat::West).max(8.0);
        let centre = width(Seat::North).max(width(Seat::South)).max(6.0);
        let right = width(Seat::East).max(8.0);
        // Padding 6 mm, border 0.6 mm, two column gaps of 2 mm.
        let room_mm = self.cell_w - 10.6;
        let fit_pt = room_mm / (left + centre + right) * PT_PER_MM;
        self.font_pt.min(fit_pt)
    }
}

/// Points per millimetre.
const PT_PER_MM: f32 = 72.0 / 25.4;

/// Renders `sheet` as HTML (UTF-8), page by page.
///
/// ```
/// use dealdex::records::{RecordBoard, RecordSheet, html};
/// let seed: dealdex::Seed = "42".repeat(32).parse()?;
/// let boards = (1..=5).map(|n| RecordBoard::new(n, seed.board_deal(n))).collect();
/// let sheet = RecordSheet { header: Default::default(), boards, options: Default::default() };
/// let page = html::render(&sheet);
/// assert_eq!(page.matches("<section class=\"board\"").count(), 5);
/// assert_eq!(page.matches("<div class=\"page\"").count(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(sheet: &RecordSheet) -> String {
    let mut out = String::with_capacity(4096 + 4096 * sheet.boards.len());
    // The whole name once (the document's title), each page's header cut short.
    let title = escape(&super::clean_text(&sheet.header.event));
    let header = escape(&super::header_text(&sheet.header.event));
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"dealdex {}\">\n\
         <title>{}Hand records</title>\n<style>\n{}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        if title.is_empty() {
            String::new()
        } else {
            format!("{title} \u{2014} ")
        },
        style(sheet)
    );
    let geometry = Geometry::of(sheet);
    let pages: Vec<&[RecordBoard]> = sheet.pages().collect();
    let pages = if pages.is_empty() {
        vec![&[][..]]
    } else {
        pages
    };
    for (k, boards) in pages.iter().enumerate() {
        out.push_str("<div class=\"page\">\n<header>\n");
        let _ = writeln!(out, "<h1>{header}</h1>");
        let sub = sheet.subtitle();
        if !sub.is_empty() {
            let _ = writeln!(out, "<p class=\"sub\">{}</p>", escape(&sub));
        }
        out.push_str("</header>\n<main class=\"grid\">\n");
        for b in *boards {
            board(&mut out, sheet, &geometry, b);
        }
        let _ = writeln!(out, "</main>\n<footer>{}</footer>\n</div>", sheet.footer(k));
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The style sheet: page size and margins from the paper, the grid from boards per page,
/// font sizes from the cell's size.
fn style(sheet: &RecordSheet) -> String {
    let (w, h) = sheet.options.paper.size_mm();
    let (cols, rows) = sheet.options.per_page.grid();
    let inner_w = w - 2.0 * MARGIN_MM;
    // A hair under the printable height, so rounding never spills a page onto the next.
    let inner_h = h - 2.0 * MARGIN_MM - 0.5;
    let Geometry {
        cell_h, font_pt, ..
    } = Geometry::of(sheet);
    format!(
        "@page {{ size: {paper} portrait; margin: {m}mm; }}\n\
         * {{ box-sizing: border-box; }}\n\
         html, body {{ margin: 0; padding: 0; }}\n\
         body {{ font-family: \"DejaVu Sans\", \"Liberation Sans\", Arial, Helvetica, sans-serif; color: #000; \
         -webkit-print-color-adjust: exact; print-color-adjust: exact; }}\n\
         .page {{ width: {inner_w:.1}mm; height: {inner_h:.1}mm; display: flex; flex-direction: column; \
         overflow: hidden; break-after: page; page-break-after: always; }}\n\
         .page:last-child {{ break-after: auto; page-break-after: auto; }}\n\
         @media screen {{ body {{ background: #ddd; }} .page {{ background: #fff; margin: 8mm auto; \
         padding: {m}mm; width: {w:.1}mm; height: {screen_h:.1}mm; box-shadow: 0 0 2mm #888; }} }}\n\
         header {{ height: {HEADER_MM}mm; border-bottom: 0.4mm solid #000; margin-bottom: 2mm; }}\n\
         h1 {{ font-size: 15pt; margin: 0; padding-top: 1mm; white-space: nowrap; overflow: hidden; }}\n\
         .sub {{ font-size: 10pt; margin: 1mm 0 0 0; }}\n\
         .grid {{ flex: 1; min-height: 0; display: grid; gap: {GAP_MM}mm; \
         grid-template-columns: repeat({cols}, minmax(0, 1fr)); \
         grid-template-rows: repeat({rows}, {cell_h:.2}mm); align-content: start; }}\n\
         footer {{ height: {FOOTER_MM}mm; padding-top: 2mm; text-align: center; font-size: 9pt; }}\n\
         .board {{ break-inside: avoid; page-break-inside: avoid; overflow: hidden; \
         border: 0.3mm solid #444; border-radius: 2mm; padding: 2mm 3mm; font-size: {font_pt:.1}pt; \
         line-height: 1.25; display: grid; grid-template-columns: 1fr auto 1fr; \
         grid-template-rows: auto auto auto auto; gap: 1mm 2mm; align-items: center; }}\n\
         .info {{ grid-column: 1; grid-row: 1; align-self: start; white-space: nowrap; }}\n\
         .info .no {{ font-weight: bold; font-size: 1.25em; }}\n\
         .n {{ grid-column: 2; grid-row: 1; }}\n\
         .w {{ grid-column: 1; grid-row: 2; }}\n\
         .hcp {{ grid-column: 2; grid-row: 2; justify-self: center; display: grid; \
         grid-template-columns: 1.8em 1.8em 1.8em; grid-template-rows: 1.3em 1.3em 1.3em; \
         border: 0.3mm solid #888; text-align: center; font-size: 0.9em; }}\n\
         .hcp span[data-seat=\"N\"] {{ grid-column: 2; grid-row: 1; }}\n\
         .hcp span[data-seat=\"W\"] {{ grid-column: 1; grid-row: 2; }}\n\
         .hcp span[data-seat=\"E\"] {{ grid-column: 3; grid-row: 2; }}\n\
         .hcp span[data-seat=\"S\"] {{ grid-column: 2; grid-row: 3; }}\n\
         .e {{ grid-column: 3; grid-row: 2; }}\n\
         .s {{ grid-column: 2; grid-row: 3; }}\n\
         .dd {{ grid-column: 3; grid-row: 3; justify-self: end; align-self: end; }}\n\
         .par {{ grid-column: 1 / 4; grid-row: 4; margin: 0; }}\n\
         .seat {{ font-size: 0.85em; font-weight: bold; padding: 0 0.3em; border-radius: 0.5mm; }}\n\
         .seat.vul {{ background: #c00; color: #fff; }}\n\
         .suit {{ white-space: nowrap; }}\n\
         .sym {{ display: inline-block; width: 1.1em; }}\n\
         .red {{ color: #c00; }}\n\
         table.dd {{ border-collapse: collapse; font-size: 0.8em; line-height: 1.15; }}\n\
         table.dd th, table.dd td {{ border: 0.2mm solid #888; padding: 0 0.2em; min-width: 1.5em; text-align: center; }}\n",
        paper = sheet.options.paper.css(),
        // On screen the page has the printed geometry (content box as printed).
        screen_h = inner_h + 2.0 * MARGIN_MM,
        m = MARGIN_MM,
    )
}

/// Appends one board's box.
fn board(out: &mut String, sheet: &RecordSheet, geometry: &Geometry, b: &RecordBoard) {
    let font = geometry.board_font_pt(sheet, b);
    let _ = writeln!(
        out,
        "<section class=\"board\" data-board=\"{}\" data-dealer=\"{}\" data-vul=\"{}\"{}>",
        b.number,
        b.dealer.letter(),
        b.vulnerability.pbn(),
        if font < geometry.font_pt {
            format!(" style=\"font-size: {font:.1}pt\"")
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        out,
        "<div class=\"info\"><div class=\"no\">Board {}</div><div>Dealer: {}</div><div>Vul: {}</div></div>",
        b.number,
        b.dealer.name(),
        crate::vul_label(b.vulnerability)
    );
    for (seat, class) in [
        (Seat::North, "n"),
        (Seat::West, "w"),
        (Seat::East, "e"),
        (Seat::South, "s"),
    ] {
        hand(out, sheet, b, seat, class);
    }
    out.push_str("<div class=\"hcp\" title=\"HCP\">");
    for seat in [Seat::North, Seat::West, Seat::East, Seat::South] {
        let _ = write!(
            out,
            "<span data-seat=\"{}\">{}</span>",
            seat.letter(),
            b.hcp(seat)
        );
    }
    out.push_str("</div>\n");
    if sheet.shows_analysis(b)
        && let Some(table) = &b.dd
    {
        // Strains down, declarers across: five narrow columns fit a third of the box.
        out.push_str("<table class=\"dd\">\n<tr><th></th>");
        for declarer in TABLE_DECLARERS {
            let _ = write!(out, "<th>{}</th>", declarer.letter());
        }
        out.push_str("</tr>\n");
        for strain in TABLE_STRAINS {
            let label = strain_label(strain);
            let red = matches!(label.as_str(), "\u{2665}" | "\u{2666}");
            let _ = write!(
                out,
                "<tr><th{}>{label}</th>",
                if red { " class=\"red\"" } else { "" }
            );
            for declarer in TABLE_DECLARERS {
                let _ = write!(
                    out,
                    "<td data-declarer=\"{}\" data-strain=\"{}\">{}</td>",
                    declarer.letter(),
                    strain.as_str(),
                    table.tricks(declarer, strain)
                );
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
        if let Some(par) = b.par() {
            let _ = writeln!(out, "<p class=\"par\">Par: {}</p>", par_label(&par));
        }
    }
    out.push_str("</section>\n");
}

/// Appends one hand: the seat label (marked when vulnerable) and its four holdings.
fn hand(out: &mut String, sheet: &RecordSheet, b: &RecordBoard, seat: Seat, class: &str) {
    let vul = b.is_vulnerable(seat);
    let _ = write!(
        out,
        "<div class=\"hand {class}\" data-seat=\"{}\"><span class=\"seat{}\"{}>{}</span>",
        seat.letter(),
        if vul { " vul" } else { "" },
        if vul { " title=\"vulnerable\"" } else { "" },
        seat.name()
    );
    for suit in Suit::ALL {
        let red = matches!(suit, Suit::Hearts | Suit::Diamonds);
        let _ = write!(
            out,
            "<div class=\"suit\" data-suit=\"{}\"><span class=\"sym{}\">{}</span><span class=\"cards\">{}</span></div>",
            suit.letter(),
            if red { " red" } else { "" },
            suit.symbol(),
            b.holding(seat, suit, sheet.options.ten)
        );
    }
    out.push_str("</div>\n");
}

/// Escapes text for HTML or XML (an SVG's) element content and attribute values: `&`,
/// `<`, `>`, `"` and `'` as character references (`&#39;`, which both languages read).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
