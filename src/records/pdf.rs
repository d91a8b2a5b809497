//! The hand-record sheet as PDF (placeholder: the renderer lands next).

use crate::records::RecordSheet;

/// Why a PDF could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// Not written yet.
    #[error("PDF output is not available yet")]
    Unavailable,
}

/// Renders `sheet` as a PDF document.
///
/// # Errors
/// [`PdfError`].
pub fn render(sheet: &RecordSheet) -> Result<Vec<u8>, PdfError> {
    let _ = sheet;
    Err(PdfError::Unavailable)
}
