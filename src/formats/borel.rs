//! Borel .bhg letters (FORMATS.md §9). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// Borel .bhg letters (FORMATS.md §9).
pub struct Borel;

static INFO: FormatInfo = FormatInfo {
    name: "borel",
    extensions: &["bhg"],
    description: "Borel .bhg letters (FORMATS.md §9)",
    board_numbers: false,
    max_board: None,
    streaming: true,
};

impl DealFormat for Borel {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(
            Location::File,
            "borel: not implemented yet",
        ))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(
            Location::File,
            "borel: not implemented yet",
        ))
    }
}
