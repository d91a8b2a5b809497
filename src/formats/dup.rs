//! Duplimate DUP, 156 bytes a board (FORMATS.md §5). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// Duplimate DUP, 156 bytes a board (FORMATS.md §5).
pub struct Dup;

static INFO: FormatInfo = FormatInfo {
    name: "dup",
    extensions: &["dup"],
    description: "Duplimate DUP, 156 bytes a board (FORMATS.md §5)",
    board_numbers: false,
    max_board: Some(99),
    streaming: true,
};

impl DealFormat for Dup {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "dup: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "dup: not implemented yet"))
    }
}
