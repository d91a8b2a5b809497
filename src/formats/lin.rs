//! BBO LIN, one line a board (FORMATS.md §8). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// BBO LIN, one line a board (FORMATS.md §8).
pub struct Lin;

static INFO: FormatInfo = FormatInfo {
    name: "lin",
    extensions: &["lin"],
    description: "BBO LIN, one line a board (FORMATS.md §8)",
    board_numbers: true,
    max_board: None,
    streaming: true,
};

impl DealFormat for Lin {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "lin: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "lin: not implemented yet"))
    }
}
