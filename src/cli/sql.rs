//! `dealdex sql`: raw read-only SQL over the database, with dealdex's SQL functions.

use std::io::Write;

use clap::Args;
use dealdex::ReadOnlyStore;
use rusqlite::types::ValueRef;

use super::{DbArgs, bad, open_output};

#[derive(Args, Debug)]
#[command(
    after_help = "The connection is read-only: the file is opened read-only, and writes, ATTACH/DETACH,
VACUUM and pragmas that change a setting are refused (reporting pragmas such as table_info,
integrity_check or journal_mode without a value work). Tables: deals(key), sets,
set_boards; view deal_features(key, hcp_n … hcp_w, len_n_s … len_w_c). Functions: hcp(key, seat),
len(key, seat, suit), shape, pattern, controls, ltc, balanced, semibalanced, longest (key, seat),
pbn(key), number(key [, scheme]), board_dealer(n), board_vul(n).

Examples:
  dealdex sql \"SELECT count(*) FROM deal_features WHERE hcp_n >= 20\"
  dealdex sql \"SELECT board, pbn(deal) FROM set_boards JOIN sets ON sets.id = set_id WHERE name = 'club'\""
)]
pub struct SqlArgs {
    /// The SQL statement (one statement; results as tab-separated lines with a header).
    sql: String,
    #[command(flatten)]
    db: DbArgs,
}

pub fn run(a: SqlArgs, _json: bool) -> anyhow::Result<()> {
    let store = ReadOnlyStore::open(&a.db.db)?;
    // The statement is the input: an error in it (or a refusal) is bad input.
    let sql_error = |e: dealdex::StoreError| bad(format!("sql: {e}"));
    let mut query = store.prepare(&a.sql).map_err(sql_error)?;
    let names = query.column_names();
    let mut out = open_output(None)?;
    if !names.is_empty() {
        writeln!(out, "{}", names.join("\t"))?;
    }
    let mut line = String::new();
    query
        .for_each_row(|values| -> anyhow::Result<()> {
            line.clear();
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    line.push('\t');
                }
                match v {
                    ValueRef::Null => line.push_str("NULL"),
                    ValueRef::Integer(v) => line.push_str(&v.to_string()),
                    ValueRef::Real(v) => line.push_str(&v.to_string()),
                    ValueRef::Text(t) => line.push_str(&String::from_utf8_lossy(t)),
                    ValueRef::Blob(b) => {
                        for byte in *b {
                            line.push_str(&format!("{byte:02X}"));
                        }
                    }
                }
            }
            writeln!(out, "{line}")?;
            Ok(())
        })
        .map_err(|e| match e.downcast::<dealdex::StoreError>() {
            Ok(e) => sql_error(e),
            Err(e) => e,
        })?;
    Ok(out.flush()?)
}
