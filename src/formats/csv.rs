//! CSV holdings with board and dealer/vul (FORMATS.md §9). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// CSV holdings with board and dealer/vul (FORMATS.md §9).
pub struct Csv;

static INFO: FormatInfo = FormatInfo {
    name: "csv",
    extensions: &["csv"],
    description: "CSV holdings with board and dealer/vul (FORMATS.md §9)",
    board_numbers: true,
    max_board: None,
    streaming: true,
};

impl DealFormat for Csv {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "csv: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "csv: not implemented yet"))
    }
}
