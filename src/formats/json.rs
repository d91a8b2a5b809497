//! JSON lines, numbers as strings. (Stub: to be implemented.)

use super::{Board, DealFormat, FormatError, FormatInfo, Location, WriteOptions};

/// JSON lines, numbers as strings.
pub struct Json;

static INFO: FormatInfo = FormatInfo {
    name: "json",
    extensions: &["json", "jsonl", "ndjson"],
    description: "JSON lines, numbers as strings",
    board_numbers: true,
    max_board: None,
    streaming: true,
};

impl DealFormat for Json {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, _data: &[u8]) -> Result<Vec<Board>, FormatError> {
        Err(FormatError::new(
            Location::File,
            "json: not implemented yet",
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
            "json: not implemented yet",
        ))
    }
}
