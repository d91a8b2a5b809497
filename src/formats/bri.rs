//! BRI, 128 bytes a board (FORMATS.md §6). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// BRI, 128 bytes a board (FORMATS.md §6).
pub struct Bri;

static INFO: FormatInfo = FormatInfo {
    name: "bri",
    extensions: &["bri"],
    description: "BRI, 128 bytes a board (FORMATS.md §6)",
    board_numbers: false,
    max_board: None,
    streaming: true,
};

impl DealFormat for Bri {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "bri: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "bri: not implemented yet"))
    }
}
