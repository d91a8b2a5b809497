//! PBN 2.1 files (FORMATS.md §4). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// PBN 2.1 files (FORMATS.md §4).
pub struct Pbn;

static INFO: FormatInfo = FormatInfo {
    name: "pbn",
    extensions: &["pbn"],
    description: "PBN 2.1 files (FORMATS.md §4)",
    board_numbers: true,
    max_board: None,
    streaming: true,
};

impl DealFormat for Pbn {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "pbn: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "pbn: not implemented yet"))
    }
}
