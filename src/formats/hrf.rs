//! HRF, 128 bytes a board (FORMATS.md §10). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// HRF, 128 bytes a board (FORMATS.md §10).
pub struct Hrf;

static INFO: FormatInfo = FormatInfo {
    name: "hrf",
    extensions: &["hrf"],
    description: "HRF, 128 bytes a board (FORMATS.md §10)",
    board_numbers: true,
    max_board: None,
    streaming: true,
};

impl DealFormat for Hrf {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "hrf: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "hrf: not implemented yet"))
    }
}
