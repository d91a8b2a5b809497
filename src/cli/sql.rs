//! `dealdex sql`: raw read-only SQL over the database, with dealdex's SQL functions.

use std::cell::RefCell;
use std::io::Write;

use clap::Args;
use dealdex::ReadOnlyStore;
use dealdex::workflow::sql::SqlValue;

use super::{DbArgs, open_output};

#[derive(Args, Debug)]
#[command(
    after_help = "The connection is read-only: the file is opened read-only, and writes, ATTACH/DETACH,
VACUUM and pragmas that change a setting are refused (reporting pragmas such as table_info,
integrity_check or journal_mode without a value work). Tables: deals(key), sets,
set_boards; view deal_features(key, hcp_n … hcp_w, len_n_s … len_w_c, lens_n … lens_w). Functions: hcp(key, seat),
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

pub fn run(a: SqlArgs, json: bool) -> anyhow::Result<()> {
    let store = ReadOnlyStore::open(&a.db.db)?;
    let out = RefCell::new(open_output(None)?);
    let mut rows: Vec<Vec<SqlValue>> = Vec::new();
    let mut line = String::new();
    let report = dealdex::workflow::sql::run(
        &a.sql,
        &store,
        &mut |names| match json || names.is_empty() {
            true => Ok(()),
            false => writeln!(out.borrow_mut(), "{}", names.join("\t")),
        },
        &mut |values| {
            if json {
                rows.push(values.to_vec());
                return Ok(());
            }
            line.clear();
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    line.push('\t');
                }
                line.push_str(&v.to_string());
            }
            writeln!(out.borrow_mut(), "{line}")
        },
    )?;
    let mut out = out.into_inner();
    if json {
        let j = serde_json::json!({"columns": report.columns, "rows": rows});
        writeln!(out, "{j}")?;
    }
    Ok(out.flush()?)
}
