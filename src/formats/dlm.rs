//! DLM text file with checksums (FORMATS.md §7). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// DLM text file with checksums (FORMATS.md §7).
pub struct Dlm;

static INFO: FormatInfo = FormatInfo {
    name: "dlm",
    extensions: &["dlm"],
    description: "DLM text file with checksums (FORMATS.md §7)",
    board_numbers: true,
    max_board: Some(99),
    streaming: false,
};

impl DealFormat for Dlm {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "dlm: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "dlm: not implemented yet"))
    }
}
