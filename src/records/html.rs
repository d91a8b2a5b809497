//! The hand-record sheet as one self-contained HTML file (placeholder).

use crate::records::RecordSheet;

/// Renders `sheet` as HTML.
pub fn render(sheet: &RecordSheet) -> String {
    let _ = sheet;
    String::new()
}
