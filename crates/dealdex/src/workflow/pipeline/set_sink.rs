//! A stored set as a sink: boards in, one set of the store out, in one transaction.

use super::DealSink;
use crate::formats::Board;
use crate::store::{NewSet, SetOutcome, SetWriter, Store};
use crate::{DealIndex, Result};

/// A new set of the store written a piece at a time ([`SetWriter`] under it): each board's
/// deal (stored when new) under its number, its double-dummy table when it carries one
/// (stored when the deal has none), all in one transaction that [`DealSink::finish`]
/// commits; dropped unfinished, nothing is stored. Boards without a number are numbered on
/// from the board before them, the first from the set's first board. The set's last board
/// is the last board written.
///
/// ```
/// use dealdex::formats::Board;
/// use dealdex::workflow::pipeline::{DealSink, SetSink};
/// let dir = tempfile::tempdir()?;
/// let mut store = dealdex::Store::open(&dir.path().join("d.db"))?;
/// let set = dealdex::NewSet {
///     name: "two".into(), first_board: 1, last_board: 1, scheme: dealdex::Scheme::Pavlicek,
///     generator: "a test".into(), seed_sha256: None,
/// };
/// let mut sink = SetSink::begin(&mut store, &set)?;
/// let deal = dealdex::Deal::from_number(1u128.into(), dealdex::Scheme::Pavlicek)?;
/// sink.write(vec![Board::unnumbered(deal), Board::unnumbered(deal)])?;
/// assert_eq!(sink.finish()?.map(|set| set.new_deals), Some(1));
/// assert_eq!(store.set_boards("two")?.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SetSink<'s> {
    writer: SetWriter<'s>,
    /// The number the next unnumbered board gets.
    next: u64,
    /// The last board written.
    last: Option<u64>,
}

impl<'s> SetSink<'s> {
    /// Begins the set `set` in `store` (its range's end is set by the boards written).
    ///
    /// # Errors
    /// [`ErrorKind::Store`](crate::ErrorKind::Store): [`StoreErrorKind::SetExists`] for a taken
    /// name, [`StoreErrorKind::Sqlite`] when SQLite fails.
    ///
    /// [`StoreErrorKind::SetExists`]: crate::StoreErrorKind::SetExists
    /// [`StoreErrorKind::Sqlite`]: crate::StoreErrorKind::Sqlite
    pub fn begin(store: &'s mut Store, set: &NewSet) -> Result<SetSink<'s>> {
        Ok(SetSink {
            writer: store.begin_set(set)?,
            next: set.first_board,
            last: None,
        })
    }

    /// The writer under the sink, for what a set holds beside its boards (leads, tables of
    /// deals that are not boards of the set).
    pub fn writer(&mut self) -> &mut SetWriter<'s> {
        &mut self.writer
    }

    /// Boards written so far.
    pub fn boards(&self) -> u64 {
        self.writer.boards()
    }
}

impl DealSink for SetSink<'_> {
    type Written = Option<SetOutcome>;
    type Error = crate::Error;

    /// Adds the boards and the tables they carry.
    ///
    /// # Errors
    /// The store's [`DuplicateBoard`](crate::StoreErrorKind::DuplicateBoard) for a board not
    /// above the one before it, [`Sqlite`](crate::StoreErrorKind::Sqlite) when SQLite fails.
    fn write(&mut self, mut boards: Vec<Board>) -> Result<()> {
        crate::formats::number_boards(&mut boards, self.next);
        let numbered: Vec<(u64, DealIndex)> = boards
            .iter()
            .map(|b| (b.number.expect("numbered"), DealIndex::from_deal(&b.deal)))
            .collect();
        self.writer.add(&numbered)?;
        let tables: Vec<_> = boards
            .iter()
            .filter_map(|b| Some((DealIndex::from_deal(&b.deal), b.dd?)))
            .collect();
        if !tables.is_empty() {
            self.writer.add_tables(&tables)?;
        }
        if let Some(&(last, _)) = numbered.last() {
            self.last = Some(last);
            self.next = last.saturating_add(1);
        }
        Ok(())
    }

    /// Commits the set, ending at the last board written; `None` when no board was written
    /// (no set is stored then, the tables added are).
    ///
    /// # Errors
    /// The store's [`Sqlite`](crate::StoreErrorKind::Sqlite) when SQLite fails (nothing is
    /// stored then).
    fn finish(self) -> Result<Option<SetOutcome>> {
        Ok(match self.last {
            Some(last) => Some(self.writer.finish(last)?),
            None => {
                self.writer.finish_without_set()?;
                None
            }
        })
    }
}
