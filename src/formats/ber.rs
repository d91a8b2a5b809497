//! Bernasconi BER, 52 bytes a board (FORMATS.md §9). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// Bernasconi BER, 52 bytes a board (FORMATS.md §9).
pub struct Ber;

static INFO: FormatInfo = FormatInfo {
    name: "ber",
    extensions: &["ber"],
    description: "Bernasconi BER, 52 bytes a board (FORMATS.md §9)",
    board_numbers: false,
    max_board: None,
    streaming: true,
};

impl DealFormat for Ber {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "ber: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "ber: not implemented yet"))
    }
}
