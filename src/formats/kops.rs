//! KOPS .rzd (FORMATS.md §9). (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// KOPS .rzd (FORMATS.md §9).
pub struct Kops;

static INFO: FormatInfo = FormatInfo {
    name: "kops",
    extensions: &["rzd"],
    description: "KOPS .rzd (FORMATS.md §9)",
    board_numbers: false,
    max_board: None,
    streaming: false,
};

impl DealFormat for Kops {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(
            Location::File,
            "kops: not implemented yet",
        ))
    }

    fn write_boards(
        &self,
        _boards: &[Board],
        _opts: &WriteOptions,
        _out: &mut Vec<u8>,
    ) -> Result<(), FormatError> {
        Err(FormatError::new(
            Location::File,
            "kops: not implemented yet",
        ))
    }
}
