//! Workflows: what each `dealdex` command does, as library functions.
//!
//! Each workflow takes a job struct (paths and options, already validated), runs it against a
//! [`Store`](crate::Store) and writers, reports progress through a callback, and returns a
//! report that derives `serde::Serialize`. The binary only parses arguments into jobs and
//! renders the reports as text or JSON; it never holds workflow logic.

// One card in every encoding of the seed documents.
pub mod card;
// Contract choice: contracts compared over deals played double dummy.
pub mod contracts;
// The convert workflow: a deal file read through one format, written through others.
pub mod convert;
// Which database a command uses: the --db option groups.
pub mod database;
// The dealer workflow: a dealer script over generated, stored or file deals.
pub mod dealer;
// The event workflows: new, publish, set-value, make, verify.
pub mod event;
// The export workflow: a stored set to files.
pub mod export;
// Deal files out: output planning, rendering, split sets, atomic writes.
pub mod output;
// The generate workflow: tournament sets and bulk runs from a seed or Big Deal.
pub mod generate;
// The import workflow: deal files with their plays and tables into the store.
pub mod import;
// Every played card judged double dummy, stored once.
pub mod judge;
// Played boards read back whole: the record, each card's double-dummy cost.
pub mod played;
// Deal files in: reading any format piece by piece, the read errors, the notes.
pub mod input;
// The deal pipeline: where deals come from (DealSource) and where they go (DealSink).
pub mod pipeline;
// The solve workflow: tables for deals or a database, batched and resumable.
pub mod solve;
pub mod verify_dd;
// Deal strings, indices and files to hand-record numbers, and numbers to deals.
pub mod number;
// Count, list or explain the stored deals matching a query.
pub mod query;
// The stored played boards matching a query, listed or reported.
pub mod played_query;
// Printable hand records of a set or a deal file, HTML or PDF.
pub mod records;
// A report as a command shows it: JSON, or its text as the answer or a summary.
pub mod report;
// Everything stored about one deal: sets, table and par, plays.
pub mod lookup;
// Randomness statistics of a file, a set or the database.
pub mod stats;
// Which card to lead against a contract, double dummy over a sample.
pub mod lead;
// One read-only SQL statement with dealdex's functions.
pub mod sql;
// Facet counts of a query's matches (dealdex serve's query page).
pub mod facets;
// A play-through: each legal card's double-dummy result at a point of the play.
pub mod play;
// The samples contracts and lead analyse, from their options' texts.
pub mod samples;

/// Whether a job's stop switch (`ImportJob::stop`, `LeadJob::stop`, `ContractsJob::stop`: set by
/// another thread, e.g. on Ctrl-C in a program hosting dealdex) is on; `None`, no switch, is off.
pub(crate) fn stop_requested(stop: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>) -> bool {
    stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
}
