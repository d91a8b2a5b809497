//! DGE, 128 bytes a board (FORMATS.md §6). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// DGE, 128 bytes a board (FORMATS.md §6).
pub struct Dge;

static INFO: FormatInfo = FormatInfo {
    name: "dge",
    extensions: &["dge"],
    description: "DGE, 128 bytes a board (FORMATS.md §6)",
    board_numbers: false,
    max_board: None,
    streaming: true,
};

impl DealFormat for Dge {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "dge: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "dge: not implemented yet"))
    }
}
