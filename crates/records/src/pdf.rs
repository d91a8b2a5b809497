//! The hand-record sheet as PDF.
//!
//! Same layout as the HTML sheet: pages of `per_page` boards on the [`PerPage::grid`] inside the
//! page less [`MARGIN_MM`] on every side, under a header band (event name, subtitle) and above a
//! centred `Page k of n` footer. Each board is a rounded box holding the board number, dealer and
//! vulnerability, the compass diagram (North top, West left, East right, South bottom, a small
//! centre box with the four HCP) and, when [`RecordSheet::shows_analysis`], the double-dummy
//! table and the par line. One layout is made at unit size and scaled to the largest font that
//! fits the cell (capped), so the same code serves 1, 2, 4 and 6 boards a page on A4 and
//! Letter; of three arrangements of the table (in the bottom-left corner, below the diagram,
//! beside it) the one that allows the largest font is used.
//!
//! Text is DejaVu Sans (regular and bold, shipped in `assets/fonts` with its licence), embedded
//! as a subset of the characters the sheet uses, so the suit symbols render and all text can be
//! extracted (`pdftotext`). The output is deterministic: fixed font resource names, the epoch as
//! creation date, and a document `/ID` derived from the content.
//!
//! [`PerPage::grid`]: crate::PerPage::grid
//! [`MARGIN_MM`]: crate::MARGIN_MM

use std::collections::BTreeSet;

use printpdf::{
    Color, FontId, Line, LinePoint, Op, PaintMode, ParsedFont, PdfDocument, PdfFont, PdfFontHandle,
    PdfPage, PdfParseErrorSeverity, PdfSaveOptions, Point, Pt, Rect, Rgb, TextItem, TextMatrix,
};
use sha2::{Digest, Sha256};

use crate::model::card::{Seat, Suit};
use crate::model::contract::Strain;
use crate::{
    Error, ErrorKind, MARGIN_MM, RecordBoard, RecordSheet, TABLE_DECLARERS, TABLE_STRAINS,
    par_label, strain_label,
};

static REGULAR_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");

/// Renders `sheet` as a PDF document: one page per [`RecordSheet::pages`] (at least one).
///
/// # Errors
/// [`Error`]: the embedded fonts fail to parse ([`ErrorKind::FontParse`]) or subset
/// ([`ErrorKind::FontSubset`]), or the writer reports an error ([`ErrorKind::PdfWrite`]).
pub fn render(sheet: &RecordSheet) -> Result<Vec<u8>, Error> {
    let regular = Face::parse(REGULAR_TTF, "DejaVuSans.ttf")?;
    let bold = Face::parse(BOLD_TTF, "DejaVuSans-Bold.ttf")?;
    let fonts = Fonts { regular, bold };

    let pages = layout_pages(sheet, &fonts);

    // Embed each face cut down to the characters it shows.
    let mut used: [BTreeSet<char>; 2] = [BTreeSet::new(), BTreeSet::new()];
    for page in &pages {
        for item in &page.items {
            if let Item::Text(t) = item {
                used[t.weight as usize].extend(t.text.chars());
                if let Some((_, then)) = &t.then {
                    used[t.weight as usize].extend(then.chars());
                }
            }
        }
    }
    // The whole name once, as the document's title; each page's header shows it cut short.
    let title = sanitize(&fonts.regular, &super::clean_text(&sheet.header.event));
    let mut doc = PdfDocument::new(&title);
    doc.metadata.info.creator = "dealdex".to_owned();
    doc.metadata.info.producer = "dealdex (printpdf)".to_owned();
    for (weight, face) in [
        (Weight::Regular, &fonts.regular),
        (Weight::Bold, &fonts.bold),
    ] {
        if used[weight as usize].is_empty() {
            continue;
        }
        let subset = face.subset(&used[weight as usize], weight.font_name())?;
        doc.resources
            .fonts
            .map
            .insert(weight.font_id(), PdfFont::new(subset));
    }

    let (w_mm, h_mm) = sheet.options.paper.size_mm();
    let page_h = mm(h_mm);
    let pdf_pages: Vec<PdfPage> = pages
        .iter()
        .map(|p| PdfPage::new(printpdf::Mm(w_mm), printpdf::Mm(h_mm), p.ops(page_h)))
        .collect();
    doc.with_pages(pdf_pages);

    let options = PdfSaveOptions {
        optimize: true,
        subset_fonts: false,
        secure: true,
        image_optimization: None,
    };
    let mut warnings = Vec::new();
    let bytes = doc.save(&options, &mut warnings);
    if let Some(w) = warnings
        .iter()
        .find(|w| w.severity == PdfParseErrorSeverity::Error)
    {
        return Err(ErrorKind::PdfWrite {
            message: w.msg.clone(),
        }
        .into());
    }
    Ok(pin_document_id(bytes))
}

// ---------------------------------------------------------------------------------------------
// Fonts and text measurement.

/// Millimetres to points.
fn mm(v: f32) -> f32 {
    v * 72.0 / 25.4
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Weight {
    Regular = 0,
    Bold = 1,
}

impl Weight {
    fn font_id(self) -> FontId {
        FontId(match self {
            Weight::Regular => "F1".to_owned(),
            Weight::Bold => "F2".to_owned(),
        })
    }

    /// The embedded font's name, with a fixed subset tag (ISO 32000-1 §9.6.4).
    fn font_name(self) -> &'static str {
        match self {
            Weight::Regular => "DDXAAA+DejaVuSans",
            Weight::Bold => "DDXAAB+DejaVuSans-Bold",
        }
    }
}

/// One face: its bytes, glyph map and advances (for measuring text before it is placed).
struct Face {
    bytes: &'static [u8],
    file: &'static str,
    parsed: ParsedFont,
}

impl Face {
    fn parse(bytes: &'static [u8], file: &'static str) -> Result<Face, Error> {
        let unparsed = || Error::from(ErrorKind::FontParse { font: file });
        let parsed = ParsedFont::from_bytes(bytes, 0, &mut Vec::new()).ok_or_else(unparsed)?;
        if parsed.codepoint_to_glyph.is_empty() || parsed.units_per_em == 0 {
            return Err(unparsed());
        }
        Ok(Face {
            bytes,
            file,
            parsed,
        })
    }

    fn has(&self, c: char) -> bool {
        self.parsed.codepoint_to_glyph.contains_key(&(c as u32))
    }

    /// Width of `text` at `size` points, in points (advances, no kerning: as it is written).
    fn width(&self, text: &str, size: f32) -> f32 {
        let units: u32 = text
            .chars()
            .map(|c| {
                let gid = self.parsed.lookup_glyph_index(c as u32).unwrap_or(0);
                u32::from(self.parsed.get_glyph_width(gid).unwrap_or(0))
            })
            .sum();
        units as f32 * size / f32::from(self.parsed.units_per_em)
    }

    /// The face cut down to `chars` (plus `.notdef`), parsed again for embedding.
    fn subset(&self, chars: &BTreeSet<char>, name: &str) -> Result<ParsedFont, Error> {
        use allsorts::binary::read::ReadScope;
        use allsorts::font_data::FontData;
        use allsorts::subset::{CmapTarget, SubsetProfile, subset};

        let err = |message: String| {
            Error::from(ErrorKind::FontSubset {
                font: self.file,
                message,
            })
        };
        let gids: BTreeSet<u16> = chars
            .iter()
            .filter_map(|&c| self.parsed.lookup_glyph_index(c as u32))
            .filter(|&g| g != 0)
            .collect();
        let ids: Vec<u16> = std::iter::once(0).chain(gids).collect();
        let data = ReadScope::new(self.bytes)
            .read::<FontData<'_>>()
            .map_err(|e| err(e.to_string()))?;
        let provider = data.table_provider(0).map_err(|e| err(e.to_string()))?;
        let bytes = subset(&provider, &ids, &SubsetProfile::Pdf, CmapTarget::Unicode)
            .map_err(|e| err(e.to_string()))?;
        let mut parsed = ParsedFont::from_bytes(&bytes, 0, &mut Vec::new())
            .ok_or_else(|| err("the subset does not parse".to_owned()))?;
        parsed.font_name = Some(name.to_owned());
        Ok(parsed)
    }
}

struct Fonts {
    regular: Face,
    bold: Face,
}

impl Fonts {
    fn face(&self, weight: Weight) -> &Face {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        }
    }

    fn width(&self, weight: Weight, text: &str, size: f32) -> f32 {
        self.face(weight).width(text, size)
    }
}

/// `text` with every character the font lacks (and control characters) replaced by `?`.
fn sanitize(face: &Face, text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || !face.has(c) {
                '?'
            } else {
                c
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Drawing items: page coordinates in points, y growing downwards from the page's top edge.

type Colour = (f32, f32, f32);
const BLACK: Colour = (0.0, 0.0, 0.0);
const RED: Colour = (0.8, 0.0, 0.0);
const WHITE: Colour = (1.0, 1.0, 1.0);
const GREY: Colour = (0.4, 0.4, 0.4);
const RULE: Colour = (0.6, 0.6, 0.6);

fn rgb(c: Colour) -> Color {
    Color::Rgb(Rgb::new(c.0, c.1, c.2, None))
}

fn suit_colour(suit: Suit) -> Colour {
    match suit {
        Suit::Hearts | Suit::Diamonds => RED,
        Suit::Spades | Suit::Clubs => BLACK,
    }
}

#[derive(Clone, Debug)]
struct Text {
    x: f32,
    /// Baseline.
    y: f32,
    size: f32,
    weight: Weight,
    colour: Colour,
    text: String,
    /// Black text that continues the run in the same text object, after a move right by the
    /// given thousandths of an em (a holding after its red suit symbol: one run, so text
    /// extraction keeps `♦ J` together).
    then: Option<(f32, String)>,
}

/// A stroked line from (`x1`, `y1`) to (`x2`, `y2`), `width` points wide.
#[derive(Clone, Copy, Debug)]
struct Segment {
    x1: f32,
    y1: f32,
    x2: f32,
    y2: f32,
    width: f32,
    colour: Colour,
}

#[derive(Clone, Debug)]
enum Item {
    Text(Text),
    /// A stroked line.
    Line(Segment),
    /// A filled rectangle.
    Fill {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        colour: Colour,
    },
    /// A stroked rectangle, corners rounded by `radius` (0 for square).
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        radius: f32,
        width: f32,
        colour: Colour,
    },
}

impl Item {
    /// The item scaled by `s` about the origin, then moved by (`dx`, `dy`).
    fn placed(&self, s: f32, dx: f32, dy: f32) -> Item {
        match self {
            Item::Text(t) => Item::Text(Text {
                x: dx + s * t.x,
                y: dy + s * t.y,
                size: s * t.size,
                ..t.clone()
            }),
            Item::Line(l) => Item::Line(Segment {
                x1: dx + s * l.x1,
                y1: dy + s * l.y1,
                x2: dx + s * l.x2,
                y2: dy + s * l.y2,
                width: s * l.width,
                colour: l.colour,
            }),
            Item::Fill { x, y, w, h, colour } => Item::Fill {
                x: dx + s * x,
                y: dy + s * y,
                w: s * w,
                h: s * h,
                colour: *colour,
            },
            Item::Rect {
                x,
                y,
                w,
                h,
                radius,
                width,
                colour,
            } => Item::Rect {
                x: dx + s * x,
                y: dy + s * y,
                w: s * w,
                h: s * h,
                radius: s * radius,
                width: s * width,
                colour: *colour,
            },
        }
    }
}

/// One page's items.
#[derive(Default)]
struct Page {
    items: Vec<Item>,
}

impl Page {
    /// The page as printpdf operations (flipping y: PDF's origin is the bottom-left corner).
    fn ops(&self, page_h: f32) -> Vec<Op> {
        let mut ops = Vec::new();
        let pt = |x: f32, y: f32| Point {
            x: Pt(x),
            y: Pt(page_h - y),
        };
        for item in &self.items {
            match item {
                Item::Text(t) => {
                    ops.push(Op::StartTextSection);
                    ops.push(Op::SetFont {
                        font: PdfFontHandle::External(t.weight.font_id()),
                        size: Pt(t.size),
                    });
                    ops.push(Op::SetFillColor { col: rgb(t.colour) });
                    ops.push(Op::SetTextMatrix {
                        matrix: TextMatrix::Translate(Pt(t.x), Pt(page_h - t.y)),
                    });
                    ops.push(Op::ShowText {
                        items: vec![TextItem::Text(t.text.clone())],
                    });
                    if let Some((move_right, then)) = &t.then {
                        ops.push(Op::SetFillColor { col: rgb(BLACK) });
                        ops.push(Op::ShowText {
                            items: vec![
                                TextItem::Offset(-move_right),
                                TextItem::Text(then.clone()),
                            ],
                        });
                    }
                    ops.push(Op::EndTextSection);
                }
                Item::Line(l) => {
                    outline(&mut ops, l.colour, l.width);
                    let ends = [(pt(l.x1, l.y1), false), (pt(l.x2, l.y2), false)];
                    ops.push(path(ends, false));
                }
                Item::Fill { x, y, w, h, colour } => {
                    ops.push(Op::SetFillColor { col: rgb(*colour) });
                    ops.push(rectangle(*x, page_h - y - h, *w, *h, PaintMode::Fill));
                }
                Item::Rect {
                    x,
                    y,
                    w,
                    h,
                    radius,
                    width,
                    colour,
                } => {
                    outline(&mut ops, *colour, *width);
                    if *radius <= 0.0 {
                        ops.push(rectangle(*x, page_h - y - h, *w, *h, PaintMode::Stroke));
                    } else {
                        let corners = rounded_rect(*x, *y, *w, *h, *radius).into_iter();
                        ops.push(path(corners.map(|(x, y, b)| (pt(x, y), b)), true));
                    }
                }
            }
        }
        ops
    }
}

/// Sets the colour and width of the lines drawn next.
fn outline(ops: &mut Vec<Op>, colour: Colour, width: f32) {
    ops.push(Op::SetOutlineColor { col: rgb(colour) });
    ops.push(Op::SetOutlineThickness { pt: Pt(width) });
}

/// A path through `points` (`true`: a Bézier control point), closed or not, stroked.
fn path(points: impl IntoIterator<Item = (Point, bool)>, is_closed: bool) -> Op {
    let points = points
        .into_iter()
        .map(|(p, bezier)| LinePoint { p, bezier });
    Op::DrawLine {
        line: Line {
            points: points.collect(),
            is_closed,
        },
    }
}

/// The outline of a rounded rectangle: points, `true` for Bézier control points.
fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Vec<(f32, f32, bool)> {
    let r = r.min(w / 2.0).min(h / 2.0);
    let k = r * 0.552_284_8; // control distance for a quarter circle
    let (x2, y2) = (x + w, y + h);
    vec![
        (x + r, y, false),
        (x2 - r, y, false),
        (x2 - r + k, y, true),
        (x2, y + r - k, true),
        (x2, y + r, false),
        (x2, y2 - r, false),
        (x2, y2 - r + k, true),
        (x2 - r + k, y2, true),
        (x2 - r, y2, false),
        (x + r, y2, false),
        (x + r - k, y2, true),
        (x, y2 - r + k, true),
        (x, y2 - r, false),
        (x, y + r, false),
        (x, y + r - k, true),
        (x + r - k, y, true),
        (x + r, y, false),
    ]
}

// ---------------------------------------------------------------------------------------------
// The page: header band, grid of board cells, footer.

/// Header band height: event name and subtitle, and a rule under them (mm).
const HEADER_MM: f32 = 14.0;
/// Footer band height: the page number (mm).
const FOOTER_MM: f32 = 7.0;
/// Gap between board cells (mm).
const GAP_MM: f32 = 4.0;
/// Padding inside a board's box (mm).
const CELL_PAD_MM: f32 = 2.5;
/// The largest body (holding) font size, points.
const MAX_BODY_PT: f32 = 16.0;
const EVENT_PT: f32 = 16.0;
const SUBTITLE_PT: f32 = 10.0;
const FOOTER_PT: f32 = 9.0;

/// A board cell on the page, in points from the page's top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
}

/// The cells of a page, row by row, for `sheet`'s paper and boards per page.
fn cells(sheet: &RecordSheet) -> Vec<Cell> {
    let (pw, ph) = sheet.options.paper.size_mm();
    let (cols, rows) = sheet.options.per_page.grid();
    let x0 = mm(MARGIN_MM);
    let top = mm(MARGIN_MM + HEADER_MM);
    let bottom = mm(ph - MARGIN_MM - FOOTER_MM);
    let w = (mm(pw - 2.0 * MARGIN_MM) - (cols - 1) as f32 * mm(GAP_MM)) / cols as f32;
    let h = (bottom - top - (rows - 1) as f32 * mm(GAP_MM)) / rows as f32;
    let mut out = Vec::with_capacity(cols * rows);
    for r in 0..rows {
        for c in 0..cols {
            out.push(Cell {
                x: x0 + c as f32 * (w + mm(GAP_MM)),
                y: top + r as f32 * (h + mm(GAP_MM)),
                w,
                h,
            });
        }
    }
    out
}

fn layout_pages(sheet: &RecordSheet, fonts: &Fonts) -> Vec<Page> {
    let grid = cells(sheet);
    let plan = plan(sheet, fonts);
    let mut boards: Vec<&[RecordBoard]> = sheet.pages().collect();
    if boards.is_empty() {
        boards.push(&[]);
    }
    boards
        .iter()
        .enumerate()
        .map(|(k, page_boards)| {
            let mut page = Page::default();
            header(&mut page, sheet, fonts);
            for (board, cell) in page_boards.iter().zip(&grid) {
                page.items
                    .extend(board_items(sheet, fonts, plan, board, *cell));
            }
            footer(&mut page, sheet, fonts, k);
            page
        })
        .collect()
}

/// A text size at most `size` that makes `text` at most `max_w` wide.
fn fit_size(fonts: &Fonts, weight: Weight, text: &str, size: f32, max_w: f32) -> f32 {
    let w = fonts.width(weight, text, size);
    if w > max_w && w > 0.0 {
        size * max_w / w
    } else {
        size
    }
}

fn header(page: &mut Page, sheet: &RecordSheet, fonts: &Fonts) {
    let (pw, _) = sheet.options.paper.size_mm();
    let x = mm(MARGIN_MM);
    let width = mm(pw - 2.0 * MARGIN_MM);
    let top = mm(MARGIN_MM);
    let event = sanitize(&fonts.bold, &super::header_text(&sheet.header.event));
    let event_pt = fit_size(fonts, Weight::Bold, &event, EVENT_PT, width);
    if !event.is_empty() {
        page.items.push(Item::Text(Text {
            x,
            y: top + EVENT_PT * 0.95,
            size: event_pt,
            weight: Weight::Bold,
            colour: BLACK,
            text: event,
            then: None,
        }));
    }
    let subtitle = sanitize(&fonts.regular, &sheet.subtitle());
    if !subtitle.is_empty() {
        let size = fit_size(fonts, Weight::Regular, &subtitle, SUBTITLE_PT, width);
        page.items.push(Item::Text(Text {
            x,
            y: top + EVENT_PT * 1.2 + SUBTITLE_PT * 1.05,
            size,
            weight: Weight::Regular,
            colour: GREY,
            text: subtitle,
            then: None,
        }));
    }
    let rule_y = top + mm(HEADER_MM) - mm(3.0);
    page.items.push(Item::Line(Segment {
        x1: x,
        y1: rule_y,
        x2: x + width,
        y2: rule_y,
        width: 0.6,
        colour: GREY,
    }));
}

fn footer(page: &mut Page, sheet: &RecordSheet, fonts: &Fonts, k: usize) {
    let (pw, ph) = sheet.options.paper.size_mm();
    let text = sheet.footer(k);
    let w = fonts.width(Weight::Regular, &text, FOOTER_PT);
    page.items.push(Item::Text(Text {
        x: (mm(pw) - w) / 2.0,
        y: mm(ph - MARGIN_MM) - FOOTER_PT * 0.25,
        size: FOOTER_PT,
        weight: Weight::Regular,
        colour: GREY,
        text,
        then: None,
    }));
}

// ---------------------------------------------------------------------------------------------
// A board cell: laid out at unit body size (1 pt), then scaled to fit the cell.

/// Sizes relative to the body (holding) size.
const SEAT_SIZE: f32 = 0.85;
const TITLE_SIZE: f32 = 1.2;
const INFO_SIZE: f32 = 0.9;
const HCP_SIZE: f32 = 0.85;
const TABLE_SIZE: f32 = 0.85;
const PAR_SIZE: f32 = 0.9;
/// Line pitch of a holding line, a seat label line, a table row.
const HOLDING_PITCH: f32 = 1.22;
const SEAT_PITCH: f32 = 1.15;
const TABLE_PITCH: f32 = 1.2;
/// Baseline below the top of a line box, as a fraction of the font size.
const ASCENT: f32 = 0.82;

/// Where the double-dummy table goes relative to the diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arrangement {
    /// In the bottom-right corner, beside South; par under the diagram.
    Corner,
    /// Under the diagram, par beside the table.
    Below,
    /// Right of the diagram, par under the table.
    Beside,
}

/// A laid-out block at unit size: items relative to its top-left corner, and its extent.
struct Block {
    items: Vec<Item>,
    w: f32,
    h: f32,
}

impl Block {
    fn text(&mut self, x: f32, top: f32, size: f32, weight: Weight, colour: Colour, text: String) {
        self.items.push(Item::Text(Text {
            x,
            y: top + ASCENT * size,
            size,
            weight,
            colour,
            text,
            then: None,
        }));
    }
}

/// Padding either side of a vulnerable seat's name on its red label, at unit size.
const LABEL_PAD: f32 = 0.2;

fn seat_label(seat: Seat) -> String {
    seat.name().to_owned()
}

/// A hand's extent at unit size: width, and the x offset of the holdings after the symbols.
fn hand_metrics(fonts: &Fonts, sheet: &RecordSheet, board: &RecordBoard, seat: Seat) -> f32 {
    let symbols = symbol_column(fonts);
    let mut label = fonts.width(Weight::Bold, &seat_label(seat), SEAT_SIZE);
    if board.is_vulnerable(seat) {
        label += 2.0 * LABEL_PAD;
    }
    Suit::ALL
        .iter()
        .map(|&s| {
            symbols
                + fonts.width(
                    Weight::Regular,
                    &board.holding(seat, s, sheet.options.ten),
                    1.0,
                )
        })
        .fold(label, f32::max)
}

/// Width of the suit-symbol column of a hand, at unit size (widest symbol and a space).
fn symbol_column(fonts: &Fonts) -> f32 {
    Suit::ALL
        .iter()
        .map(|s| fonts.width(Weight::Regular, &s.symbol().to_string(), 1.0))
        .fold(0.0, f32::max)
        + fonts.width(Weight::Regular, " ", 1.0)
}

const HAND_H: f32 = SEAT_PITCH * SEAT_SIZE / 0.85 + 4.0 * HOLDING_PITCH;

fn draw_hand(
    block: &mut Block,
    fonts: &Fonts,
    sheet: &RecordSheet,
    board: &RecordBoard,
    seat: Seat,
    x: f32,
    y: f32,
) {
    // A vulnerable side's seats have their names white on a red label (as in the HTML).
    let vul = board.is_vulnerable(seat);
    let label = seat_label(seat);
    if vul {
        let w = fonts.width(Weight::Bold, &label, SEAT_SIZE);
        block.items.push(Item::Fill {
            x,
            y: y - 0.02,
            w: w + 2.0 * LABEL_PAD,
            h: SEAT_SIZE * 1.12,
            colour: RED,
        });
        block.text(x + LABEL_PAD, y, SEAT_SIZE, Weight::Bold, WHITE, label);
    } else {
        block.text(x, y, SEAT_SIZE, Weight::Bold, BLACK, label);
    }
    let symbols = symbol_column(fonts);
    let mut top = y + SEAT_PITCH * SEAT_SIZE / 0.85;
    for suit in Suit::ALL {
        // The symbol and a space in the suit's colour, then the holding in black at the
        // symbol column (the space keeps them apart in extracted text).
        let symbol = format!("{} ", suit.symbol());
        let move_right = (symbols - fonts.width(Weight::Regular, &symbol, 1.0)) * 1000.0;
        block.items.push(Item::Text(Text {
            x,
            y: top + ASCENT,
            size: 1.0,
            weight: Weight::Regular,
            colour: suit_colour(suit),
            text: symbol,
            then: Some((move_right, board.holding(seat, suit, sheet.options.ten))),
        }));
        top += HOLDING_PITCH;
    }
}

/// The double-dummy table's extent at unit size: (width, height, first column, column).
/// Strains down (NT ♠ ♥ ♦ ♣), declarers across (N S E W), as in the HTML sheet.
fn table_extent(fonts: &Fonts) -> (f32, f32, f32, f32) {
    let s = TABLE_SIZE;
    let first = TABLE_STRAINS
        .iter()
        .map(|&st| fonts.width(Weight::Bold, &strain_label(st), s))
        .fold(0.0, f32::max)
        + 0.6 * s;
    let col = TABLE_DECLARERS
        .iter()
        .map(|d| fonts.width(Weight::Bold, &d.letter().to_string(), s))
        .fold(fonts.width(Weight::Regular, "13", s), f32::max)
        + 0.6 * s;
    let w = first + 4.0 * col;
    let h = 6.0 * TABLE_PITCH * s + 0.25 * s;
    (w, h, first, col)
}

/// Draws the double-dummy table at unit size, its top-left corner at (`x`, `y`).
fn draw_table(block: &mut Block, fonts: &Fonts, board: &RecordBoard, x: f32, y: f32) {
    let Some(dd) = board.dd else { return };
    let s = TABLE_SIZE;
    let (w, h, first, col) = table_extent(fonts);
    let pitch = TABLE_PITCH * s;
    let centred =
        |block: &mut Block, cx: f32, top: f32, weight: Weight, colour: Colour, text: String| {
            let tw = fonts.width(weight, &text, s);
            block.text(cx - tw / 2.0, top, s, weight, colour, text);
        };
    for (i, &declarer) in TABLE_DECLARERS.iter().enumerate() {
        centred(
            block,
            x + first + (i as f32 + 0.5) * col,
            y + 0.1 * s,
            Weight::Bold,
            BLACK,
            declarer.letter().to_string(),
        );
    }
    for (r, &strain) in TABLE_STRAINS.iter().enumerate() {
        let top = y + 0.1 * s + (r as f32 + 1.0) * pitch + 0.15 * s;
        let colour = match strain {
            Strain::Trumps(suit) => suit_colour(suit),
            Strain::NoTrump => BLACK,
        };
        centred(
            block,
            x + first / 2.0,
            top,
            Weight::Bold,
            colour,
            strain_label(strain),
        );
        for (i, &declarer) in TABLE_DECLARERS.iter().enumerate() {
            centred(
                block,
                x + first + (i as f32 + 0.5) * col,
                top,
                Weight::Regular,
                BLACK,
                dd.tricks(declarer, strain).to_string(),
            );
        }
    }
    let rule = 0.05;
    block.items.push(Item::Rect {
        x,
        y,
        w,
        h,
        radius: 0.0,
        width: rule,
        colour: RULE,
    });
    let header_rule = y + pitch + 0.12 * s;
    block.items.push(Item::Line(Segment {
        x1: x,
        y1: header_rule,
        x2: x + w,
        y2: header_rule,
        width: rule,
        colour: RULE,
    }));
    block.items.push(Item::Line(Segment {
        x1: x + first,
        y1: y,
        x2: x + first,
        y2: y + h,
        width: rule,
        colour: RULE,
    }));
}

/// The board's block at unit size in `arrangement` (ignored when no analysis is shown).
fn board_block(
    fonts: &Fonts,
    sheet: &RecordSheet,
    board: &RecordBoard,
    arrangement: Arrangement,
) -> Block {
    let mut b = Block {
        items: Vec::new(),
        w: 0.0,
        h: 0.0,
    };
    let diagram = Diagram::new(fonts, sheet, board);
    diagram.draw(&mut b, fonts, sheet, board);
    if sheet.shows_analysis(board) {
        draw_analysis(&mut b, fonts, board, arrangement, &diagram);
    }
    b
}

/// Space between the diagram's columns, at unit size.
const DIAGRAM_GAP: f32 = 0.9;

/// Space between the diagram's rows (North; West and East; South), at unit size.
const DIAGRAM_VGAP: f32 = 0.35;

/// Where a board's diagram puts its parts, at unit size: the board information top left,
/// North above the HCP box, West and East either side of it, South below.
struct Diagram {
    /// `Board N`, `Dealer: …` and `Vul: …`.
    info: [String; 3],
    /// South's hand's width.
    hw_s: f32,
    /// Left edge of the middle column (North, the HCP box, South).
    x_c: f32,
    /// Left edge of East.
    x_e: f32,
    /// Left edge of West.
    x_w: f32,
    /// Top of the middle row (West, East).
    y_m: f32,
    /// Top of South.
    y_s: f32,
    /// The HCP box's side.
    sq: f32,
    /// The diagram's width.
    w: f32,
    /// The diagram's height.
    h: f32,
}

impl Diagram {
    /// Lays out `board`'s diagram: West and the board information share the left column.
    fn new(fonts: &Fonts, sheet: &RecordSheet, board: &RecordBoard) -> Diagram {
        let hw = |seat| hand_metrics(fonts, sheet, board, seat);
        let (hw_n, hw_e, hw_s, hw_w) = (
            hw(Seat::North),
            hw(Seat::East),
            hw(Seat::South),
            hw(Seat::West),
        );

        let title = format!("Board {}", board.number);
        let dealer = format!("Dealer: {}", board.dealer.name());
        let vul = format!("Vul: {}", crate::vul_label(board.vulnerability));
        let info_w = fonts
            .width(Weight::Bold, &title, TITLE_SIZE)
            .max(fonts.width(Weight::Regular, &dealer, INFO_SIZE))
            .max(fonts.width(Weight::Regular, &vul, INFO_SIZE));

        // HCP box: big enough for two-digit numbers on all four sides.
        let num_w = fonts.width(Weight::Regular, "00", HCP_SIZE);
        let sq = (2.0 * num_w + 1.4).max(3.4);

        let left = hw_w.max(info_w + 0.6);
        let x_c = left + DIAGRAM_GAP;
        let x_e = x_c + sq + DIAGRAM_GAP;
        let y_m = HAND_H + DIAGRAM_VGAP;
        let y_s = y_m + HAND_H + DIAGRAM_VGAP;
        Diagram {
            info: [title, dealer, vul],
            hw_s,
            x_c,
            x_e,
            x_w: left - hw_w,
            y_m,
            y_s,
            sq,
            w: (x_e + hw_e).max(x_c + hw_n.max(hw_s).max(sq)),
            h: y_s + HAND_H,
        }
    }

    /// Draws the board information, the four hands and the HCP box into `b`, and makes `b`
    /// the diagram's size.
    fn draw(&self, b: &mut Block, fonts: &Fonts, sheet: &RecordSheet, board: &RecordBoard) {
        let [title, dealer, vul] = self.info.clone();
        // Board information, top left.
        b.text(0.0, 0.0, TITLE_SIZE, Weight::Bold, BLACK, title);
        b.text(
            0.0,
            TITLE_SIZE * 1.3,
            INFO_SIZE,
            Weight::Regular,
            BLACK,
            dealer,
        );
        b.text(
            0.0,
            TITLE_SIZE * 1.3 + INFO_SIZE * 1.25,
            INFO_SIZE,
            Weight::Regular,
            BLACK,
            vul,
        );

        draw_hand(b, fonts, sheet, board, Seat::North, self.x_c, 0.0);
        draw_hand(b, fonts, sheet, board, Seat::West, self.x_w, self.y_m);
        draw_hand(b, fonts, sheet, board, Seat::East, self.x_e, self.y_m);
        draw_hand(b, fonts, sheet, board, Seat::South, self.x_c, self.y_s);
        self.draw_hcp_box(b, fonts, board);
        b.w = self.w;
        b.h = self.h;
    }

    /// Draws the HCP box, centred on the holdings of West and East, with each seat's HCP
    /// on its side.
    fn draw_hcp_box(&self, b: &mut Block, fonts: &Fonts, board: &RecordBoard) {
        let (x_c, sq) = (self.x_c, self.sq);
        let y_box = self.y_m + SEAT_PITCH + 2.0 * HOLDING_PITCH - sq / 2.0 - 0.3;
        b.items.push(Item::Rect {
            x: x_c,
            y: y_box,
            w: sq,
            h: sq,
            radius: 0.25,
            width: 0.06,
            colour: GREY,
        });
        let hcp = |seat| board.hcp(seat).to_string();
        let n = hcp(Seat::North);
        let nw = fonts.width(Weight::Regular, &n, HCP_SIZE);
        b.text(
            x_c + (sq - nw) / 2.0,
            y_box + 0.2,
            HCP_SIZE,
            Weight::Regular,
            BLACK,
            n,
        );
        let s = hcp(Seat::South);
        let sw = fonts.width(Weight::Regular, &s, HCP_SIZE);
        b.text(
            x_c + (sq - sw) / 2.0,
            y_box + sq - 0.2 - HCP_SIZE * 1.0,
            HCP_SIZE,
            Weight::Regular,
            BLACK,
            s,
        );
        let mid = y_box + sq / 2.0 - HCP_SIZE * 0.5;
        b.text(
            x_c + 0.3,
            mid,
            HCP_SIZE,
            Weight::Regular,
            BLACK,
            hcp(Seat::West),
        );
        let e = hcp(Seat::East);
        let ew = fonts.width(Weight::Regular, &e, HCP_SIZE);
        b.text(
            x_c + sq - 0.3 - ew,
            mid,
            HCP_SIZE,
            Weight::Regular,
            BLACK,
            e,
        );
    }
}

/// Adds the double-dummy table and the par line to a board's block, placed around its
/// diagram `d` in `arrangement`, and makes the block their size.
fn draw_analysis(
    b: &mut Block,
    fonts: &Fonts,
    board: &RecordBoard,
    arrangement: Arrangement,
    d: &Diagram,
) {
    let (tw, th, _, _) = table_extent(fonts);
    let par = board.par().map(|p| format!("Par: {}", par_label(&p)));
    let par_w = par
        .as_deref()
        .map_or(0.0, |p| fonts.width(Weight::Regular, p, PAR_SIZE));
    let par = par.unwrap_or_default();
    let par_line = PAR_SIZE * 1.3;
    // The par line never widens the block: a long one is set smaller.
    let par_text = |b: &mut Block, x: f32, top: f32, max_w: f32, centre: bool| {
        let size = if par_w > max_w {
            PAR_SIZE * max_w / par_w
        } else {
            PAR_SIZE
        };
        let w = fonts.width(Weight::Regular, &par, size);
        let x = if centre { x + (max_w - w) / 2.0 } else { x };
        b.text(x, top, size, Weight::Regular, BLACK, par.clone());
    };
    match arrangement {
        Arrangement::Corner => {
            // Bottom right, beside South and under East, flush with the block's right edge.
            let x_t = (d.x_e).max(d.x_c + d.hw_s + DIAGRAM_GAP);
            let w = d.w.max(x_t + tw);
            let y_t = (d.y_s + HAND_H - th).max(d.y_m + HAND_H + DIAGRAM_VGAP);
            draw_table(b, fonts, board, w - tw, y_t);
            let y_p = (y_t + th).max(d.h) + 0.45;
            par_text(b, 0.0, y_p, w, false);
            b.w = w;
            b.h = y_p + par_line;
        }
        Arrangement::Below => {
            let w = d.w.max(tw);
            let y_t = d.h + 0.7;
            draw_table(b, fonts, board, (w - tw) / 2.0, y_t);
            par_text(b, 0.0, y_t + th + 0.45, w, true);
            b.w = w;
            b.h = y_t + th + 0.45 + par_line;
        }
        Arrangement::Beside => {
            let x_t = d.w + 1.8;
            let y_t = d.y_m;
            draw_table(b, fonts, board, x_t, y_t);
            let w = tw.max(par_w.min(d.w));
            par_text(b, x_t, y_t + th + 0.45, w, false);
            b.w = x_t + w;
            b.h = d.h.max(y_t + th + 0.45 + par_line);
        }
    }
}

/// How the boards of a sheet are set: one arrangement and one scale (body size, points) for
/// all of them, so every board looks the same; the arrangement is the one that allows the
/// largest body size for the board that needs most room.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Plan {
    arrangement: Arrangement,
    scale: f32,
    /// The widest and the tallest board's block, at unit size: every block is placed as if it
    /// were that big, so the board numbers line up from cell to cell.
    w: f32,
    h: f32,
}

/// The room for a board's block inside a cell: (width, height).
fn room(cell: Cell) -> (f32, f32) {
    let pad = mm(CELL_PAD_MM);
    (cell.w - 2.0 * pad, cell.h - 2.0 * pad)
}

fn plan(sheet: &RecordSheet, fonts: &Fonts) -> Plan {
    let (aw, ah) = cells(sheet).first().map_or((1.0, 1.0), |c| room(*c));
    let max = MAX_BODY_PT;
    let any_analysis = sheet.boards.iter().any(|b| sheet.shows_analysis(b));
    let arrangements: &[Arrangement] = if any_analysis {
        &[Arrangement::Corner, Arrangement::Below, Arrangement::Beside]
    } else {
        &[Arrangement::Corner]
    };
    let mut best = Plan {
        arrangement: Arrangement::Corner,
        scale: 0.0,
        w: 0.0,
        h: 0.0,
    };
    for &arrangement in arrangements {
        let (w, h) = sheet
            .boards
            .iter()
            .map(|b| {
                let block = board_block(fonts, sheet, b, arrangement);
                (block.w, block.h)
            })
            .fold((0.0, 0.0), |(w, h), (bw, bh)| {
                (f32::max(w, bw), f32::max(h, bh))
            });
        let scale = if w > 0.0 && h > 0.0 {
            (aw / w).min(ah / h).min(max)
        } else {
            max
        };
        if scale > best.scale * 1.02 {
            best = Plan {
                arrangement,
                scale,
                w,
                h,
            };
        }
    }
    best
}

/// A board's items in `cell`: the box, and the block at the plan's scale, placed where the
/// plan's largest block would be centred in the cell.
fn board_items(
    sheet: &RecordSheet,
    fonts: &Fonts,
    plan: Plan,
    board: &RecordBoard,
    cell: Cell,
) -> Vec<Item> {
    let mut items = vec![Item::Rect {
        x: cell.x,
        y: cell.y,
        w: cell.w,
        h: cell.h,
        radius: mm(2.0),
        width: 0.7,
        colour: GREY,
    }];
    let pad = mm(CELL_PAD_MM);
    let (aw, ah) = room(cell);
    let block = board_block(fonts, sheet, board, plan.arrangement);
    // The plan's scale fits every board; guard anyway.
    let scale = plan.scale.min(aw / block.w).min(ah / block.h);
    let dx = cell.x + pad + ((aw - scale * plan.w.max(block.w)) / 2.0).max(0.0);
    let dy = cell.y + pad + ((ah - scale * plan.h.max(block.h)) / 2.0).max(0.0);
    items.extend(block.items.iter().map(|i| i.placed(scale, dx, dy)));
    items
}

// ---------------------------------------------------------------------------------------------
// Determinism: the writer puts two random strings in the trailer's /ID; replace them with a hash
// of the document before the trailer (same length, so no offset moves).

fn pin_document_id(mut bytes: Vec<u8>) -> Vec<u8> {
    let Some(trailer) = rfind(&bytes, b"trailer") else {
        return bytes;
    };
    let Some(id) = find(&bytes[trailer..], b"/ID").map(|i| i + trailer) else {
        return bytes;
    };
    let digest = Sha256::digest(&bytes[..trailer]);
    let hex = hex::encode(digest);
    let mut pos = id;
    for _ in 0..2 {
        let Some(open) = find(&bytes[pos..], b"(").map(|i| i + pos) else {
            return bytes;
        };
        let Some(close) = find(&bytes[open..], b")").map(|i| i + open) else {
            return bytes;
        };
        let len = close - open - 1;
        if len > hex.len()
            || bytes[open + 1..close]
                .iter()
                .any(|b| !b.is_ascii_alphanumeric())
        {
            return bytes;
        }
        bytes[open + 1..close].copy_from_slice(&hex.as_bytes()[..len]);
        pos = close + 1;
    }
    bytes
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// A rectangle drawn with `mode`, from its lower-left corner (PDF coordinates, points).
fn rectangle(x: f32, y: f32, w: f32, h: f32, mode: PaintMode) -> Op {
    Op::DrawRectangle {
        rectangle: Rect {
            x: Pt(x),
            y: Pt(y),
            width: Pt(w),
            height: Pt(h),
            mode: Some(mode),
            winding_order: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::TrickTable;
    use crate::{Paper, PerPage, RecordOptions, SheetHeader, TenStyle};
    use dealdex::Seed;
    use std::path::Path;
    use std::process::Command;

    /// Boards 1..=n dealt from a fixed seed; board 1 solved for real, boards 2 and 5 given a
    /// plausible table (solving all of them would take seconds).
    fn sheet(n: u64, per_page: u8, paper: Paper) -> RecordSheet {
        let seed: Seed = "42".repeat(32).parse().unwrap();
        let boards = (1..=n)
            .map(|k| {
                let mut b = RecordBoard::new(k, seed.board_deal(k));
                b.dd = match k {
                    1 => Some(solved(&b.deal)),
                    2 | 5 => Some(
                        TrickTable::new([
                            [9, 10, 6, 7, 8],
                            [9, 10, 6, 7, 8],
                            [4, 3, 7, 6, 5],
                            [4, 3, 7, 6, 5],
                        ])
                        .unwrap(),
                    ),
                    _ => None,
                };
                b
            })
            .collect();
        RecordSheet {
            header: SheetHeader {
                event: "Club pairs \u{2014} Tuesday evening".to_owned(),
                date: Some("2026-11-24".to_owned()),
                set: Some("club".to_owned()),
            },
            boards,
            options: RecordOptions {
                paper,
                per_page: PerPage::new(per_page).unwrap(),
                ten: TenStyle::Ten,
                hide_analysis: false,
            },
        }
    }

    /// Board 1's table, solved once for all the tests.
    fn solved(deal: &crate::model::deal::Deal) -> TrickTable {
        static TABLE: std::sync::OnceLock<TrickTable> = std::sync::OnceLock::new();
        *TABLE.get_or_init(|| crate::dd::solve(deal))
    }

    fn page_objects(pdf: &[u8]) -> usize {
        // `/Type /Page` objects, not `/Type /Pages`.
        let s = String::from_utf8_lossy(pdf);
        s.matches("/Type/Page").count() + s.matches("/Type /Page").count()
            - s.matches("/Type/Pages").count()
            - s.matches("/Type /Pages").count()
    }

    fn tool(name: &str) -> Option<std::path::PathBuf> {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
    }

    /// Whether `name` is on PATH for a test that needs it. When it is not, the test fails if
    /// `DEALDEX_RENDER_TESTS=required` (as `.ci/run` sets it, having installed
    /// poppler-utils), and otherwise skips with a printed note.
    fn tool_or_skip(name: &str) -> bool {
        if tool(name).is_some() {
            return true;
        }
        assert_ne!(
            std::env::var("DEALDEX_RENDER_TESTS").as_deref(),
            Ok("required"),
            "{name} is not on PATH, and DEALDEX_RENDER_TESTS=required (.ci/run installs \
             poppler-utils)"
        );
        eprintln!(
            "note: {name} is not on PATH: skipped (DEALDEX_RENDER_TESTS=required fails instead)"
        );
        false
    }

    fn write_temp(pdf: &[u8], name: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(name), pdf).unwrap();
        dir
    }

    fn pdftotext(path: &Path, page: usize) -> String {
        let out = Command::new("pdftotext")
            .args(["-f", &page.to_string(), "-l", &page.to_string()])
            .arg(path)
            .arg("-")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn nine_boards_four_a_page_make_three_pages() {
        let sheet = sheet(9, 4, Paper::A4);
        let pdf = render(&sheet).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        assert_eq!(page_objects(&pdf), 3);
        assert_eq!(sheet.page_count(), 3);
    }

    #[test]
    fn same_sheet_same_bytes() {
        let sheet = sheet(3, 4, Paper::Letter);
        assert_eq!(render(&sheet).unwrap(), render(&sheet).unwrap());
    }

    #[test]
    fn fonts_are_embedded_as_small_subsets() {
        let pdf = render(&sheet(4, 4, Paper::A4)).unwrap();
        let s = String::from_utf8_lossy(&pdf);
        assert!(s.contains("DejaVuSans"));
        assert!(s.contains("FontFile2"));
        // The two full faces are 1.4 MB; a page's worth of their glyphs is a few dozen KB.
        assert!(pdf.len() < 120_000, "{} bytes", pdf.len());
    }

    #[test]
    fn empty_sheet_is_one_page() {
        let mut sheet = sheet(0, 4, Paper::A4);
        sheet.header.event = String::new();
        let pdf = render(&sheet).unwrap();
        assert_eq!(page_objects(&pdf), 1);
    }

    #[test]
    fn every_layout_fits_its_cell() {
        // Every item of every board lies inside its cell, for all papers and grids, with the
        // analysis shown and hidden.
        let regular = Face::parse(REGULAR_TTF, "r").unwrap();
        let bold = Face::parse(BOLD_TTF, "b").unwrap();
        let fonts = Fonts { regular, bold };
        for paper in [Paper::A4, Paper::Letter] {
            for per_page in [1u8, 2, 4, 6] {
                for hide in [false, true] {
                    let mut sheet = sheet(6, per_page, paper);
                    sheet.options.hide_analysis = hide;
                    let plan = plan(&sheet, &fonts);
                    let grid = cells(&sheet);
                    for (board, &cell) in sheet.boards.iter().zip(grid.iter().cycle()) {
                        let items = board_items(&sheet, &fonts, plan, board, cell);
                        let (x0, y0, x1, y1) = (cell.x, cell.y, cell.x + cell.w, cell.y + cell.h);
                        for item in &items[1..] {
                            let (a, b, c, d) = extent(&fonts, item);
                            assert!(
                                a >= x0 && b >= y0 && c <= x1 && d <= y1,
                                "{paper:?} {per_page}/page board {}: {item:?} outside {cell:?}",
                                board.number
                            );
                        }
                    }
                }
            }
        }
    }

    fn extent(fonts: &Fonts, item: &Item) -> (f32, f32, f32, f32) {
        match item {
            Item::Text(t) => {
                let mut w = fonts.width(t.weight, &t.text, t.size);
                if let Some((move_right, then)) = &t.then {
                    w += move_right / 1000.0 * t.size + fonts.width(t.weight, then, t.size);
                }
                (t.x, t.y - t.size, t.x + w, t.y + 0.25 * t.size)
            }
            Item::Line(Segment { x1, y1, x2, y2, .. }) => {
                (x1.min(*x2), y1.min(*y2), x1.max(*x2), y1.max(*y2))
            }
            Item::Rect { x, y, w, h, .. } | Item::Fill { x, y, w, h, .. } => (*x, *y, x + w, y + h),
        }
    }

    #[test]
    fn text_is_extractable() {
        if !tool_or_skip("pdftotext") {
            return;
        }
        let sheet = sheet(9, 4, Paper::A4);
        let pdf = render(&sheet).unwrap();
        let dir = write_temp(&pdf, "sheet.pdf");
        let path = dir.path().join("sheet.pdf");
        let page1 = pdftotext(&path, 1);
        for n in 1..=4 {
            assert!(page1.contains(&format!("Board {n}")), "{page1}");
        }
        assert!(!page1.contains("Board 5"));
        assert!(page1.contains("Club pairs"));
        assert!(page1.contains("Page 1 of 3"));
        let b1 = &sheet.boards[0];
        for seat in Seat::ALL {
            for suit in Suit::ALL {
                let h = b1.holding(seat, suit, TenStyle::Ten);
                assert!(page1.contains(&h), "{h} missing from {page1}");
            }
        }
        for suit in Suit::ALL {
            let line = format!(
                "{} {}",
                suit.symbol(),
                b1.holding(Seat::North, suit, TenStyle::Ten)
            );
            assert!(page1.contains(&line), "{line} missing from {page1}");
        }
        let par = format!("Par: {}", par_label(&b1.par().unwrap()));
        assert!(page1.contains(&par), "{par} missing from {page1}");
        let page3 = pdftotext(&path, 3);
        assert!(page3.contains("Board 9") && page3.contains("Page 3 of 3"));
        if tool_or_skip("pdfinfo") {
            let out = Command::new("pdfinfo").arg(&path).output().unwrap();
            let info = String::from_utf8_lossy(&out.stdout);
            assert!(
                info.lines()
                    .any(|l| l.starts_with("Pages:") && l.ends_with(" 3")),
                "{info}"
            );
            assert!(info.contains("A4"), "{info}");
        }
    }

    /// Writes sample sheets to /tmp for looking at (`cargo test --release -p dealdex-records
    /// --lib pdf::tests::write_samples -- --ignored`).
    #[test]
    #[ignore]
    fn write_samples() {
        for (name, per_page, paper) in [
            ("records-sample", 4, Paper::A4),
            ("records-sample-6", 6, Paper::A4),
            ("records-sample-1", 1, Paper::A4),
            ("records-sample-2", 2, Paper::Letter),
            ("records-sample-letter", 4, Paper::Letter),
            ("records-sample-letter6", 6, Paper::Letter),
        ] {
            let sheet = sheet(9, per_page, paper);
            std::fs::write(format!("/tmp/{name}.pdf"), render(&sheet).unwrap()).unwrap();
        }
    }
}
