//! Apache Parquet deal archives (issue 14): one row a deal, for Spark, DuckDB, Polars and
//! pyarrow, and for archives too large for one SQLite file.
//!
//! # Schema (dealdex writes)
//! | column | Parquet type | meaning |
//! |---|---|---|
//! | `key` | `FIXED_LEN_BYTE_ARRAY(13)` | the deal's 13-byte index (FORMATS.md §2) |
//! | `board` | `INT64` | the board number, 1-based (bulk runs: the deal's place in the stream) |
//! | `dealer` | `INT32` as `INT(8)` | 0 = N, 1 = E, 2 = S, 3 = W |
//! | `vul` | `INT32` as `INT(8)` | 0 = None, 1 = NS, 2 = EW, 3 = All |
//! | `hcp_<seat>` | `INT32` as `INT(8)` | HCP (4-3-2-1) of seat n, e, s, w |
//! | `len_<seat>_<suit>` | `INT32` as `INT(8)` | length of suit s, h, d, c in the seat's hand |
//! | `controls_<seat>` | `INT32` as `INT(8)` | controls (A = 2, K = 1) |
//! | `ltc_<seat>` | `INT32` as `INT(8)` | losing-trick count |
//! | `dd_<declarer>_<strain>` | optional `INT32` as `INT(8)` | double-dummy tricks (strains nt, s, h, d, c); null when unsolved |
//!
//! Every integer is signed (Spark reads unsigned 64-bit integers as decimals). The feature
//! columns are those the query language names (`hcp(N)` is `hcp_n`), so `dealdex query EXPR
//! --explain --dialect spark` compiles to a predicate over them.
//!
//! The bytes are a function of the boards alone: no timestamps, `created_by` pinned to
//! dealdex's name and version, row groups of [`ROW_GROUP_ROWS`] rows, zstd level
//! [`ZSTD_LEVEL`], and dictionary encoding for every column but the (incompressible) key. So
//! the same shard written twice is the same file.
//!
//! # What dealdex reads
//! Any Parquet file with a `key` column of 13-byte values (fixed-length or variable-length
//! binary, as Spark writes it), and optionally `board`, `dealer`, `vul` (any integer width)
//! and the 20 `dd_*` columns (a row with all 20 present carries a table); other columns are
//! ignored and the features are recomputed from the key. Compression: none, zstd or snappy
//! (Spark's default); the codec set is kept minimal, and dealdex's Spark jobs write zstd.

use std::io::Write;
use std::sync::Arc;

use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{
    ByteArray, DataType, FixedLenByteArray, FixedLenByteArrayType, Int32Type,
};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::reader::{FileReader, RowGroupReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;

use super::{
    Board, BoardWriter, DealFormat, Error, FormatInfo, InputPosition, WriteOptions, check_numbers,
};
use crate::dd::TrickTable;
use crate::model::board::Vulnerability;
use crate::model::card::{Seat, Suit};
use crate::model::features;
use crate::model::index::DealIndex;

/// Rows a row group holds (the last one of a file fewer): about a million, so a row group is
/// about 20 MB and a reader's unit of work.
pub const ROW_GROUP_ROWS: usize = 1 << 20;

/// The zstd level of every column chunk.
pub const ZSTD_LEVEL: i32 = 3;

/// The Parquet format (issue 14): one row a board with the 13-byte key (FORMATS.md §2), the
/// board number, dealer, vulnerability, HCP, suit lengths, controls, losing-trick count and the
/// 20 nullable double-dummy trick counts; row groups of 2^20 rows, zstd level 3.
#[derive(Clone, Copy, Debug, Default)]
pub struct Parquet;

static INFO: FormatInfo = FormatInfo::new("parquet", &["parquet"], "Apache Parquet deal archive: one row a deal (13-byte key, board, dealer, \
                  vulnerability, hand features, double-dummy tricks), zstd (docs/formats.md \"Parquet \
                  archives and Spark\")").numbered().max_board(super::MAX_BOARD_NUMBER).whole();

/// The strains of the `dd_*` columns, in [`TrickTable::rows`] order.
const STRAINS: [&str; 5] = ["nt", "s", "h", "d", "c"];

/// The small-integer columns after `key` and `board`, in file order.
fn small_columns() -> Vec<String> {
    let seat = |s: Seat| s.letter().to_ascii_lowercase();
    let suit = |s: Suit| s.letter().to_ascii_lowercase();
    let mut names = vec!["dealer".to_owned(), "vul".to_owned()];
    names.extend(Seat::ALL.map(|s| format!("hcp_{}", seat(s))));
    for s in Seat::ALL {
        names.extend(Suit::ALL.map(|u| format!("len_{}_{}", seat(s), suit(u))));
    }
    names.extend(Seat::ALL.map(|s| format!("controls_{}", seat(s))));
    names.extend(Seat::ALL.map(|s| format!("ltc_{}", seat(s))));
    for s in Seat::ALL {
        names.extend(STRAINS.map(|t| format!("dd_{}_{t}", seat(s))));
    }
    names
}

/// Small columns: dealer, vul, 4 HCP, 16 lengths, 4 controls, 4 LTC, then 20 tricks.
const SMALL: usize = 2 + 4 + 16 + 4 + 4 + 20;
/// The first `dd_*` column among the small ones.
const FIRST_DD: usize = SMALL - 20;

/// The Parquet schema dealdex writes, as a message type.
fn schema_text() -> String {
    let mut s = String::from(
        "message deal {\n  required fixed_len_byte_array(13) key;\n  required int64 board;\n",
    );
    for (i, name) in small_columns().iter().enumerate() {
        let repetition = if i >= FIRST_DD {
            "optional"
        } else {
            "required"
        };
        s.push_str(&format!("  {repetition} int32 {name} (INTEGER(8,true));\n"));
    }
    s.push('}');
    s
}

/// The writer's properties: pinned so that the bytes depend on the rows alone.
fn properties() -> WriterProperties {
    let level = ZstdLevel::try_new(ZSTD_LEVEL).unwrap_or_default();
    WriterProperties::builder()
        .set_created_by(format!("dealdex version {}", env!("CARGO_PKG_VERSION")))
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_compression(Compression::ZSTD(level))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_column_dictionary_enabled(ColumnPath::from("key"), false)
        .set_column_encoding(ColumnPath::from("key"), Encoding::PLAIN)
        .build()
}

/// One buffered row.
struct Row {
    key: [u8; 13],
    board: i64,
    small: [i8; SMALL],
    solved: bool,
}

impl Row {
    fn of(board: &Board) -> Row {
        let deal = &board.deal;
        let mut small = [0i8; SMALL];
        small[0] = board.dealer_or_default().index() as i8;
        small[1] = vulnerability_code(board.vulnerability_or_default());
        for s in Seat::ALL {
            let hand = deal.hand(s);
            let i = s.index();
            small[2 + i] = features::hcp(hand) as i8;
            for (u, len) in features::suit_lengths(hand).into_iter().enumerate() {
                small[6 + 4 * i + u] = len as i8;
            }
            small[22 + i] = features::controls(hand) as i8;
            small[26 + i] = features::losing_trick_count(hand) as i8;
        }
        if let Some(table) = board.dd {
            for (d, row) in table.rows().iter().enumerate() {
                for (t, tricks) in row.iter().enumerate() {
                    small[FIRST_DD + 5 * d + t] = *tricks as i8;
                }
            }
        }
        Row {
            key: *DealIndex::from_deal(deal).as_bytes(),
            // check_boards has refused numbers above i64::MAX.
            board: board.number.unwrap_or(1) as i64,
            small,
            solved: board.dd.is_some(),
        }
    }
}

/// The `vul` column's code: 0 = None, 1 = NS, 2 = EW, 3 = All.
fn vulnerability_code(v: Vulnerability) -> i8 {
    match v {
        Vulnerability::None => 0,
        Vulnerability::NorthSouth => 1,
        Vulnerability::EastWest => 2,
        Vulnerability::All => 3,
    }
}

/// The vulnerability of a `vul` code, `None` outside 0..=3.
fn vulnerability_of(code: i64) -> Option<Vulnerability> {
    Some(match code {
        0 => Vulnerability::None,
        1 => Vulnerability::NorthSouth,
        2 => Vulnerability::EastWest,
        3 => Vulnerability::All,
        _ => return None,
    })
}

/// A sink that counts the bytes written and keeps the first I/O error, so that a failed write
/// is reported as the I/O error it was (the Parquet writer wraps it in its own).
struct Tracked<W> {
    inner: W,
    bytes: u64,
    error: Option<std::io::Error>,
}

impl<W: Write> Write for Tracked<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.inner.write(buf) {
            Ok(n) => {
                self.bytes += n as u64;
                Ok(n)
            }
            Err(e) => {
                let copy = std::io::Error::new(e.kind(), e.to_string());
                self.error.get_or_insert(e);
                Err(copy)
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|e| {
            if self.error.is_none() {
                self.error = Some(std::io::Error::new(e.kind(), e.to_string()));
            }
        })
    }
}

/// Writes a Parquet archive row group by row group: memory holds at most one row group's rows
/// (about 64 bytes a row) whatever the number of boards.
///
/// ```
/// use dealdex::formats::{Board, ParquetWriter};
/// let deal: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse()?;
/// let mut w = ParquetWriter::new(Vec::new())?;
/// w.write(&[Board::new(1, deal)])?;
/// let bytes = w.finish()?;
/// assert_eq!(&bytes[..4], b"PAR1");
/// let back = dealdex::formats::by_name("parquet").unwrap().read(&bytes)?;
/// assert_eq!(back[0].deal, deal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ParquetWriter<W: Write + Send> {
    writer: SerializedFileWriter<Tracked<W>>,
    rows: Vec<Row>,
}

impl<W: Write + Send> ParquetWriter<W> {
    /// Starts an archive on `out` (nothing is written before the first row group but the
    /// 4-byte magic).
    ///
    /// # Errors
    /// [`ErrorKind::Io`](super::ErrorKind::Io) when `out` refuses the magic.
    pub fn new(out: W) -> Result<ParquetWriter<W>, Error> {
        let schema = parquet::schema::parser::parse_message_type(&schema_text())
            .map_err(|e| writer_error(&e))?;
        let sink = Tracked {
            inner: out,
            bytes: 0,
            error: None,
        };
        let writer = SerializedFileWriter::new(sink, Arc::new(schema), Arc::new(properties()))
            .map_err(|e| writer_error(&e))?;
        let mut w = ParquetWriter {
            writer,
            rows: Vec::new(),
        };
        w.io_error()?;
        Ok(w)
    }

    /// Adds boards (each with a number ≤ 2⁶³ − 1); a full row group is written out.
    ///
    /// # Errors
    /// [`ErrorKind::Unwritable`](super::ErrorKind::Unwritable) naming a board without a
    /// number or above the limit (nothing of this call is added then);
    /// [`ErrorKind::Io`](super::ErrorKind::Io) when the destination fails.
    pub fn write(&mut self, boards: &[Board]) -> Result<(), Error> {
        check_numbers(&INFO, boards)?;
        for b in boards {
            if self.rows.is_empty() {
                self.rows
                    .reserve(ROW_GROUP_ROWS.min(boards.len().max(1 << 16)));
            }
            self.rows.push(Row::of(b));
            if self.rows.len() == ROW_GROUP_ROWS {
                self.flush_row_group()?;
            }
        }
        Ok(())
    }

    /// Writes the last row group and the footer, and gives the destination back.
    ///
    /// # Errors
    /// [`ErrorKind::Io`](super::ErrorKind::Io) when the destination fails.
    pub fn finish(self) -> Result<W, Error> {
        self.close().map(|(w, _)| w)
    }

    /// [`ParquetWriter::finish`], with the file's size in bytes.
    fn close(mut self) -> Result<(W, u64), Error> {
        self.flush_row_group()?;
        // into_inner writes the footer and gives back our sink, which still holds the first
        // I/O error if the footer failed.
        let result = self.writer.into_inner();
        let mut sink = match result {
            Ok(sink) => sink,
            Err(e) => return Err(writer_error(&e)),
        };
        if let Some(e) = sink.error.take() {
            return Err(e.into());
        }
        sink.flush()?;
        Ok((sink.inner, sink.bytes))
    }

    /// The bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.writer.inner().bytes
    }

    /// The destination's first error, if any.
    fn io_error(&mut self) -> Result<(), Error> {
        match self.writer.inner_mut().error.take() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    /// Writes the buffered rows as one row group (nothing when there are none).
    fn flush_row_group(&mut self) -> Result<(), Error> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.rows);
        let result = write_row_group(&mut self.writer, &rows);
        self.io_error()?;
        result.map_err(|e| writer_error(&e))
    }
}

/// Writes `rows` as one row group.
fn write_row_group<W: Write + Send>(
    writer: &mut SerializedFileWriter<W>,
    rows: &[Row],
) -> parquet::errors::Result<()> {
    let mut group = writer.next_row_group()?;
    let mut column = 0usize;
    let mut ints: Vec<i32> = Vec::with_capacity(rows.len());
    let mut levels: Vec<i16> = Vec::with_capacity(rows.len());
    while let Some(mut col) = group.next_column()? {
        match column {
            0 => {
                let mut all = Vec::with_capacity(rows.len() * 13);
                for r in rows {
                    all.extend_from_slice(&r.key);
                }
                let all = bytes::Bytes::from(all);
                let keys: Vec<FixedLenByteArray> = (0..rows.len())
                    .map(|i| {
                        FixedLenByteArray::from(ByteArray::from(all.slice(13 * i..13 * i + 13)))
                    })
                    .collect();
                col.typed::<FixedLenByteArrayType>()
                    .write_batch(&keys, None, None)?;
            }
            1 => {
                let boards: Vec<i64> = rows.iter().map(|r| r.board).collect();
                col.typed::<parquet::data_type::Int64Type>()
                    .write_batch(&boards, None, None)?;
            }
            c => {
                let j = c - 2;
                ints.clear();
                if j >= FIRST_DD {
                    levels.clear();
                    for r in rows {
                        levels.push(i16::from(r.solved));
                        if r.solved {
                            ints.push(i32::from(r.small[j]));
                        }
                    }
                    col.typed::<Int32Type>()
                        .write_batch(&ints, Some(&levels), None)?;
                } else {
                    ints.extend(rows.iter().map(|r| i32::from(r.small[j])));
                    col.typed::<Int32Type>().write_batch(&ints, None, None)?;
                }
            }
        }
        col.close()?;
        column += 1;
    }
    group.close()?;
    Ok(())
}

/// A Parquet writer error (not an I/O one) as an
/// [`ErrorKind::Unwritable`](super::ErrorKind::Unwritable).
fn writer_error(e: &parquet::errors::ParquetError) -> Error {
    Error::unwritable(format!("Parquet writer: {e}"))
}

impl<W: Write + Send> BoardWriter for ParquetWriter<W> {
    fn write_boards(&mut self, boards: &[Board]) -> Result<(), Error> {
        self.write(boards)
    }

    fn finish(self: Box<Self>) -> Result<u64, Error> {
        (*self).close().map(|(_, bytes)| bytes)
    }
}

impl DealFormat for Parquet {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn read(&self, data: &[u8]) -> Result<Vec<Board>, Error> {
        // A reader must never panic on any input, and the Parquet crate (60.1) can on some
        // damaged pages (a dictionary-encoded page in a chunk without a dictionary, found by
        // tests/fuzz_readers.rs): such a panic becomes an error at the footer. Its message
        // still reaches standard error through the default panic hook.
        std::panic::catch_unwind(|| read_archive(data)).unwrap_or_else(|_| {
            Err(Error::malformed(
                footer(data),
                "not a readable Parquet file (its metadata is inconsistent)",
            ))
        })
    }

    /// A whole one-row archive ([`DealFormat::write_checked`] of the one board): Parquet has
    /// no record outside a file.
    fn write_board(&self, board: &Board, opts: &WriteOptions, out: &mut Vec<u8>) {
        self.write_checked(std::slice::from_ref(board), opts, out);
    }

    /// The whole set as one archive. What the archive refuses of the boards, a number it
    /// cannot hold, [`DealFormat::check_boards`] has refused first (both are
    /// [`check_numbers`]); its other errors would come from the destination, here memory, or
    /// from the schema and rows this file builds, and neither fails. So nothing is appended
    /// only for a board passed without the check (a [`DealFormat::write_board`] of one
    /// without a number).
    fn write_checked(&self, boards: &[Board], _opts: &WriteOptions, out: &mut Vec<u8>) {
        if let Ok(bytes) = archive(boards) {
            out.extend_from_slice(&bytes);
        }
    }

    fn open_writer(
        &self,
        out: Box<dyn Write + Send>,
        _opts: &WriteOptions,
    ) -> Option<Result<Box<dyn BoardWriter>, Error>> {
        Some(ParquetWriter::new(out).map(|w| Box::new(w) as Box<dyn BoardWriter>))
    }
}

/// The whole archive of `boards`, in memory.
fn archive(boards: &[Board]) -> Result<Vec<u8>, Error> {
    let mut w = ParquetWriter::new(Vec::new())?;
    w.write(boards)?;
    w.finish()
}

/// Where a file's footer (its metadata) starts: the place of errors about the file as a
/// whole.
fn footer(data: &[u8]) -> InputPosition {
    let n = data.len();
    let len = match data.get(n.saturating_sub(8)..n.saturating_sub(4)) {
        Some(b) if n >= 8 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
        _ => 0,
    };
    InputPosition::at_byte(n.saturating_sub(8).saturating_sub(len) as u64)
}

/// The reader's error for a Parquet crate error at `at`.
fn read_error(e: parquet::errors::ParquetError, at: InputPosition) -> Error {
    let text = e.to_string();
    let text = text.strip_prefix("Parquet error: ").unwrap_or(&text);
    Error::malformed(at, format!("Parquet: {text}"))
}

/// Where the columns dealdex reads are in a file's schema.
struct Columns {
    key: usize,
    board: Option<usize>,
    dealer: Option<usize>,
    vul: Option<usize>,
    dd: Option<[usize; 20]>,
}

impl Columns {
    fn find(
        schema: &parquet::schema::types::SchemaDescriptor,
        at: InputPosition,
    ) -> Result<Columns, Error> {
        let by_name = |name: &str| -> Option<usize> {
            (0..schema.num_columns()).find(|&i| {
                let c = schema.column(i);
                c.path().parts().len() == 1 && c.name() == name
            })
        };
        let key = by_name("key").ok_or_else(|| {
            Error::malformed(
                at.clone(),
                "Parquet: no `key` column (a deal archive has the 13-byte deal index in `key`)",
            )
        })?;
        let names = small_columns();
        let dd: Vec<Option<usize>> = names[FIRST_DD..].iter().map(|n| by_name(n)).collect();
        let dd = match dd.iter().filter(|c| c.is_some()).count() {
            0 => None,
            20 => {
                let mut all = [0usize; 20];
                for (a, c) in all.iter_mut().zip(&dd) {
                    *a = c.unwrap_or_default();
                }
                Some(all)
            }
            n => {
                return Err(Error::malformed(
                    at.clone(),
                    format!(
                        "Parquet: {n} of the 20 dd_<declarer>_<strain> columns; a table needs all 20"
                    ),
                ));
            }
        };
        Ok(Columns {
            key,
            board: by_name("board"),
            dealer: by_name("dealer"),
            vul: by_name("vul"),
            dd,
        })
    }
}

/// Reads every row of an archive.
fn read_archive(data: &[u8]) -> Result<Vec<Board>, Error> {
    if data.len() < 12 || &data[..4] != b"PAR1" {
        return Err(Error::malformed(
            InputPosition::at_byte(0),
            "not a Parquet file (it does not start with PAR1)",
        ));
    }
    let at = footer(data);
    let reader = SerializedFileReader::new(bytes::Bytes::copy_from_slice(data))
        .map_err(|e| read_error(e, at.clone()))?;
    let meta = reader.metadata();
    let columns = Columns::find(meta.file_metadata().schema_descr(), at.clone())?;
    for g in meta.row_groups() {
        for c in g.columns() {
            if !matches!(
                c.compression(),
                Compression::UNCOMPRESSED | Compression::ZSTD(_) | Compression::SNAPPY
            ) {
                return Err(Error::malformed(
                    at.clone(),
                    format!(
                        "Parquet: column `{}` is compressed with {}; dealdex reads zstd, snappy or \
                         uncompressed files (write them with compression=\"zstd\")",
                        c.column_descr().name(),
                        c.compression()
                    ),
                ));
            }
        }
    }
    // Rows claimed beyond what the bytes could hold (13 key bytes a row, even as a
    // dictionary) are a damaged footer: refuse before allocating for them.
    let claimed: i64 = meta.row_groups().iter().map(|g| g.num_rows().max(0)).sum();
    if claimed as u128 > data.len() as u128 * 8 {
        return Err(Error::malformed(
            at.clone(),
            format!(
                "Parquet: the footer claims {claimed} rows in {} bytes",
                data.len()
            ),
        ));
    }
    let mut boards = Vec::with_capacity(claimed as usize);
    for g in 0..reader.num_row_groups() {
        let group = reader
            .get_row_group(g)
            .map_err(|e| read_error(e, at.clone()))?;
        read_row_group(group.as_ref(), &columns, boards.len(), &mut boards)?;
    }
    Ok(boards)
}

/// Reads one row group's boards; `before` rows came in earlier groups (for error positions).
fn read_row_group(
    group: &dyn RowGroupReader,
    columns: &Columns,
    before: usize,
    out: &mut Vec<Board>,
) -> Result<(), Error> {
    let rows = usize::try_from(group.metadata().num_rows().max(0)).unwrap_or(0);
    let start = |c: usize| chunk_start(group, c);
    let at = |row: usize, c: usize| InputPosition::at_record(before + row + 1, start(c));
    let keys = read_keys(group, columns.key, rows)?;
    let ints = |c: Option<usize>| -> Result<Option<Vec<Option<i64>>>, Error> {
        c.map(|c| read_ints(group, c, rows)).transpose()
    };
    let board = ints(columns.board)?;
    let dealer = ints(columns.dealer)?;
    let vul = ints(columns.vul)?;
    let dd = match columns.dd {
        Some(cols) => Some(
            cols.iter()
                .map(|&c| read_ints(group, c, rows))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        None => None,
    };
    for (i, key) in keys.iter().enumerate() {
        let Some(key) = key else {
            return Err(Error::malformed(at(i, columns.key), "`key` is null"));
        };
        let deal = DealIndex(*key)
            .to_deal()
            .map_err(|e| Error::not_a_deal(at(i, columns.key), format!("`key`: {e}")))?;
        let refused =
            |column: Option<usize>, why: String| Error::malformed(at(i, column.unwrap_or(0)), why);
        let number = optional_cell(
            board.as_deref(),
            i,
            |n| u64::try_from(n).ok().filter(|&n| n >= 1),
            |n| {
                refused(
                    columns.board,
                    format!("`board` {n}: board numbers start at 1"),
                )
            },
        )?;
        let dealer = optional_cell(
            dealer.as_deref(),
            i,
            |d| (0..=3).contains(&d).then(|| Seat::from_index(d as usize)),
            |d| {
                let why = format!("`dealer` {d}: expected 0 (N), 1 (E), 2 (S) or 3 (W)");
                refused(columns.dealer, why)
            },
        )?;
        let vulnerability = optional_cell(vul.as_deref(), i, vulnerability_of, |v| {
            let why = format!("`vul` {v}: expected 0 (None), 1 (NS), 2 (EW) or 3 (All)");
            refused(columns.vul, why)
        })?;
        let table = match &dd {
            Some(cols) if cols.iter().all(|c| c[i].is_some()) => {
                let mut rows = [[0u8; 5]; 4];
                for (k, c) in cols.iter().enumerate() {
                    let t = c[i].unwrap_or_default();
                    rows[k / 5][k % 5] = u8::try_from(t).unwrap_or(u8::MAX);
                }
                Some(TrickTable::new(rows).map_err(|e| {
                    Error::malformed(at(i, columns.key), format!("double-dummy columns: {e}"))
                })?)
            }
            _ => None,
        };
        out.push(Board {
            number,
            dealer,
            vulnerability,
            deal,
            game: None,
            dd: table,
        });
    }
    Ok(())
}

/// Where column `c` of a row group starts in the file: the place of errors in its values.
fn chunk(group: &dyn RowGroupReader, c: usize) -> InputPosition {
    InputPosition::at_byte(chunk_start(group, c))
}

/// The file offset of column `c`'s first page (0 when the metadata gives a negative one:
/// `ColumnChunkMetaData::byte_range` would panic on it).
fn chunk_start(group: &dyn RowGroupReader, c: usize) -> u64 {
    let m = group.metadata().column(c);
    let start = m.dictionary_page_offset().unwrap_or(m.data_page_offset());
    u64::try_from(start).unwrap_or(0)
}

/// The definition levels a column needs (`None` for a required column); nested columns are
/// refused.
fn levels(group: &dyn RowGroupReader, c: usize) -> Result<Option<Vec<i16>>, Error> {
    let descr = group.metadata().column(c).column_descr_ptr();
    if descr.max_rep_level() > 0 {
        return Err(Error::malformed(
            chunk(group, c),
            format!(
                "Parquet: column `{}` is repeated; dealdex reads flat columns",
                descr.name()
            ),
        ));
    }
    Ok((descr.max_def_level() > 0).then(Vec::new))
}

/// Spreads `values` (the non-null ones, in order) over `rows` by definition levels.
fn spread<T: Clone>(values: Vec<T>, defs: Option<Vec<i16>>, rows: usize) -> Vec<Option<T>> {
    match defs {
        None => values.into_iter().map(Some).collect(),
        Some(defs) => {
            let mut it = values.into_iter();
            let mut out = Vec::with_capacity(rows);
            for d in defs {
                out.push(if d > 0 { it.next() } else { None });
            }
            out
        }
    }
}

/// Checks that a column gave `rows` rows.
fn check_rows(name: &str, got: usize, rows: usize, at: InputPosition) -> Result<(), Error> {
    if got == rows {
        Ok(())
    } else {
        Err(Error::truncated(
            at,
            format!("Parquet: column `{name}` has {got} of its row group's {rows} rows"),
        ))
    }
}

/// The `rows` values of column `c` (`name`) of `group`, read by `r`, its definition levels
/// into `defs` (when it has them); nulls take no value.
///
/// # Errors
/// The column failing to read; fewer than `rows` rows.
fn read_column<T: DataType>(
    r: &mut ColumnReaderImpl<T>,
    defs: &mut Option<Vec<i16>>,
    (group, c): (&dyn RowGroupReader, usize),
    name: &str,
    rows: usize,
) -> Result<Vec<T::T>, Error> {
    let mut values = Vec::new();
    let (got, _, _) = r
        .read_records(rows, defs.as_mut(), None, &mut values)
        .map_err(|e| read_error(e, chunk(group, c)))?;
    check_rows(name, got, rows, chunk(group, c))?;
    Ok(values)
}

/// The 13-byte keys of a row group (fixed- or variable-length binary).
fn read_keys(
    group: &dyn RowGroupReader,
    c: usize,
    rows: usize,
) -> Result<Vec<Option<[u8; 13]>>, Error> {
    let mut defs = levels(group, c)?;
    let reader = group
        .get_column_reader(c)
        .map_err(|e| read_error(e, chunk(group, c)))?;
    let bad_width = |n: usize| {
        Error::malformed(
            chunk(group, c),
            format!("Parquet: `key` holds {n}-byte values; a deal index is 13 bytes"),
        )
    };
    let raw: Vec<Vec<u8>> = match reader {
        ColumnReader::FixedLenByteArrayColumnReader(mut r) => {
            let values = read_column(&mut r, &mut defs, (group, c), "key", rows)?;
            values.iter().map(|v| v.data().to_vec()).collect()
        }
        ColumnReader::ByteArrayColumnReader(mut r) => {
            let values = read_column(&mut r, &mut defs, (group, c), "key", rows)?;
            values.iter().map(|v| v.data().to_vec()).collect()
        }
        _ => {
            return Err(Error::malformed(
                chunk(group, c),
                "Parquet: `key` is not binary (a deal archive has the 13-byte deal index in `key`)",
            ));
        }
    };
    let mut keys = Vec::with_capacity(raw.len());
    for v in &raw {
        keys.push(<[u8; 13]>::try_from(v.as_slice()).map_err(|_| bad_width(v.len()))?);
    }
    Ok(spread(keys, defs, rows))
}

/// Row `i` of the optional integer column `values` as `convert` takes it: `None` for a null
/// or a column the file does not have.
///
/// # Errors
/// `refused(value)` for a value `convert` does not take.
fn optional_cell<T>(
    values: Option<&[Option<i64>]>,
    i: usize,
    convert: impl FnOnce(i64) -> Option<T>,
    refused: impl FnOnce(i64) -> Error,
) -> Result<Option<T>, Error> {
    values
        .and_then(|v| v[i])
        .map(|v| convert(v).ok_or_else(|| refused(v)))
        .transpose()
}

/// An integer column of a row group (any integer width), nulls as `None`.
fn read_ints(group: &dyn RowGroupReader, c: usize, rows: usize) -> Result<Vec<Option<i64>>, Error> {
    let mut defs = levels(group, c)?;
    let name = group.metadata().column(c).column_descr().name().to_owned();
    let reader = group
        .get_column_reader(c)
        .map_err(|e| read_error(e, chunk(group, c)))?;
    let values: Vec<i64> = match reader {
        ColumnReader::Int32ColumnReader(mut r) => {
            let values = read_column(&mut r, &mut defs, (group, c), &name, rows)?;
            values.into_iter().map(i64::from).collect()
        }
        ColumnReader::Int64ColumnReader(mut r) => {
            read_column(&mut r, &mut defs, (group, c), &name, rows)?
        }
        _ => {
            return Err(Error::malformed(
                chunk(group, c),
                format!("Parquet: column `{name}` is not an integer column"),
            ));
        }
    };
    Ok(spread(values, defs, rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::deal::Deal;

    fn deals(n: usize) -> Vec<Deal> {
        let seed = dealdex::Seed([0xab; 32]);
        (1..=n as u64).map(|k| seed.board_deal(k)).collect()
    }

    #[test]
    fn round_trip_keeps_deal_board_dealer_vulnerability_and_table() {
        let mut boards: Vec<Board> = deals(50)
            .into_iter()
            .enumerate()
            .map(|(i, d)| Board::new(i as u64 + 7, d))
            .collect();
        boards[3].dd = Some(
            TrickTable::new([
                [7, 6, 5, 4, 3],
                [6, 7, 8, 9, 10],
                [7, 6, 5, 4, 3],
                [6, 7, 8, 9, 10],
            ])
            .unwrap(),
        );
        boards[4].dealer = Some(Seat::West);
        let bytes = crate::write_set(&Parquet, &boards, &WriteOptions::default()).unwrap();
        let back = Parquet.read(&bytes).unwrap();
        assert_eq!(back.len(), 50);
        for (a, b) in boards.iter().zip(&back) {
            assert_eq!(a.deal, b.deal);
            assert_eq!(a.number, b.number);
            assert_eq!(a.dd, b.dd);
            assert_eq!(Some(a.dealer_or_default()), b.dealer);
            assert_eq!(Some(a.vulnerability_or_default()), b.vulnerability);
        }
    }

    #[test]
    fn same_boards_same_bytes() {
        let boards: Vec<Board> = deals(1000)
            .into_iter()
            .enumerate()
            .map(|(i, d)| Board::new(i as u64 + 1, d))
            .collect();
        let a = archive(&boards).unwrap();
        let b = archive(&boards).unwrap();
        assert_eq!(a, b);
        assert!(
            a.windows(7).any(|w| w == b"dealdex"),
            "created_by is dealdex's"
        );
    }

    #[test]
    fn a_board_is_a_one_row_archive_and_a_refused_one_nothing() {
        let opts = WriteOptions::default();
        let board = Board::new(9, deals(1)[0]);
        let mut one = Vec::new();
        Parquet.write_board(&board, &opts, &mut one);
        let mut set = Vec::new();
        Parquet
            .write_boards(std::slice::from_ref(&board), &opts, &mut set)
            .unwrap();
        assert_eq!(one, set);
        let unnumbered = Board::unnumbered(board.deal);
        let mut out = b"kept".to_vec();
        Parquet.write_board(&unnumbered, &opts, &mut out);
        assert_eq!(out, b"kept");
        let e = Parquet
            .write_boards(&[unnumbered], &opts, &mut out)
            .unwrap_err();
        assert!(e.to_string().contains("without a number"), "{e}");
        assert_eq!(out, b"kept");
    }

    #[test]
    fn schema_has_the_documented_columns() {
        let names = small_columns();
        assert_eq!(names.len(), SMALL);
        assert_eq!(names[2], "hcp_n");
        assert_eq!(names[6], "len_n_s");
        assert_eq!(names[21], "len_w_c");
        assert_eq!(names[22], "controls_n");
        assert_eq!(names[26], "ltc_n");
        assert_eq!(names[FIRST_DD], "dd_n_nt");
        assert_eq!(names[SMALL - 1], "dd_w_c");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(Parquet.read(b"").is_err());
        assert!(Parquet.read(b"PAR1PAR1PAR1PAR1").is_err());
        let boards = vec![Board::new(1, deals(1)[0])];
        let good = archive(&boards).unwrap();
        for cut in [good.len() - 1, good.len() / 2, 20] {
            assert!(Parquet.read(&good[..cut]).is_err(), "cut at {cut}");
        }
    }
}
