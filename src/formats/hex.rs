//! hex index lines with -X (FORMATS.md §2). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// hex index lines with -X (FORMATS.md §2).
pub struct Hex;

static INFO: FormatInfo = FormatInfo {
    name: "hex",
    extensions: &["hex", "txt"],
    description: "hex index lines with -X (FORMATS.md §2)",
    board_numbers: false,
    max_board: None,
    streaming: true,
};

impl DealFormat for Hex {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "hex: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "hex: not implemented yet"))
    }
}
