//! The query page's side panels: the facets of a query's matches
//! ([`dealdex::workflow::facets`]) and one read-only SQL statement
//! ([`dealdex::workflow::sql`], with `dealdex sql`'s guards: a read-only connection that
//! refuses writes, ATTACH and setting pragmas, and the statement bounded in time and memory).

use axum::Json;
use axum::extract::State;
use dealdex::workflow::facets::{DEFAULT_FACET_LIMIT, FacetJob, FacetReport};
use dealdex::workflow::sql::{SqlJob, SqlValue};
use serde::{Deserialize, Serialize};

use crate::extract::Params;
use crate::pool::Lane;
use crate::{App, Error};

/// The most matches facets count (a larger `limit` is refused).
pub const MAX_FACET_LIMIT: u64 = 1_000_000;

/// `GET /api/facets`' parameters.
#[derive(Debug, Deserialize)]
pub struct FacetParams {
    /// The expression of the query language.
    q: String,
    /// Only the boards of this stored set.
    set: Option<String>,
    /// Count at most this many matches (default 100,000, at most [`MAX_FACET_LIMIT`]).
    limit: Option<u64>,
}

/// `GET /api/facets?q=EXPR[&set=NAME][&limit=N]`: the facets workflow's report (HCP and
/// shape by seat, North-South's notrump tricks, par; each value with its count and the term
/// narrowing the query to it).
pub async fn facets(
    State(app): State<App>,
    Params(p): Params<FacetParams>,
) -> Result<Json<FacetReport>, Error> {
    let limit = p.limit.unwrap_or(DEFAULT_FACET_LIMIT);
    if limit > MAX_FACET_LIMIT {
        return Err(Error::bad_request(format!(
            "limit {limit}: facets count at most {MAX_FACET_LIMIT} matches"
        )));
    }
    let query = dealdex::query::Query::parse(&p.q).map_err(Error::engine)?;
    app.stores
        .read(Lane::Scan, move |store| {
            let job = FacetJob {
                set: p.set,
                limit,
                ..FacetJob::new(query)
            };
            dealdex::workflow::facets::run(&job, store)
                .map(Json)
                .map_err(Error::engine)
        })
        .await
}

/// The most rows `GET /api/sql` answers (past them the answer is cut and says so).
pub const MAX_SQL_ROWS: usize = 1000;

/// How long a statement of `GET /api/sql` may run: 10 s (a page waits for it).
pub const SQL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// `GET /api/sql`'s parameters.
#[derive(Debug, Deserialize)]
pub struct SqlParams {
    /// One SQL statement.
    sql: String,
}

/// `GET /api/sql`'s answer: `dealdex sql --json`'s (`columns`, `rows`), and whether rows
/// past [`MAX_SQL_ROWS`] were left out.
#[derive(Debug, Serialize)]
pub struct SqlAnswer {
    /// The result's column names.
    pub columns: Vec<String>,
    /// The rows, values as `dealdex sql --json` writes them.
    pub rows: Vec<Vec<SqlValue>>,
    /// True when the statement had more than [`MAX_SQL_ROWS`] rows (it was stopped there).
    pub truncated: bool,
}

/// `GET /api/sql?sql=STATEMENT`: [`SqlAnswer`]. A statement that would write, attach or
/// change a setting is refused by the read-only connection (400, SQLite's reason), as one
/// past [`SQL_TIMEOUT`] or `dealdex sql`'s memory limit.
pub async fn sql(
    State(app): State<App>,
    Params(p): Params<SqlParams>,
) -> Result<Json<SqlAnswer>, Error> {
    app.stores
        .read(Lane::Scan, move |store| {
            let job = SqlJob {
                timeout: Some(SQL_TIMEOUT),
                ..SqlJob::new(p.sql)
            };
            let (mut columns, mut rows, mut truncated) = (Vec::new(), Vec::new(), false);
            let mut names = |c: &[String]| {
                columns = c.to_vec();
                Ok(())
            };
            let result = dealdex::workflow::sql::run_job(&job, store, &mut names, &mut |r| {
                if rows.len() == MAX_SQL_ROWS {
                    truncated = true;
                    return Err(std::io::Error::other("row limit"));
                }
                rows.push(r.to_vec());
                Ok(())
            });
            match result {
                // Stopped by the row limit: what came is the answer.
                Err(e) if truncated && matches!(e.kind(), dealdex::ErrorKind::SqlOutput(_)) => {}
                Err(e) => return Err(Error::engine(e)),
                Ok(_) => {}
            }
            Ok(Json(SqlAnswer {
                columns,
                rows,
                truncated,
            }))
        })
        .await
}
