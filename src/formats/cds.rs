//! CDS, board byte + 13 KOPS bytes (FORMATS.md §9). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// CDS, board byte + 13 KOPS bytes (FORMATS.md §9).
pub struct Cds;

static INFO: FormatInfo = FormatInfo {
    name: "cds",
    extensions: &["cds"],
    description: "CDS, board byte + 13 KOPS bytes (FORMATS.md §9)",
    board_numbers: true,
    max_board: None,
    streaming: true,
};

impl DealFormat for Cds {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(Location::File, "cds: not implemented yet"))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(Location::File, "cds: not implemented yet"))
    }
}
