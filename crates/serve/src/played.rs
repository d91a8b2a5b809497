//! Played boards (issue 53): `GET /api/played/<id>`, one table's record with each card's
//! double-dummy value and cost, and `GET /api/played?deal=<index>` / `?set=<name>`, the
//! tables that played a deal or a set's boards ([`dealdex::workflow::played`]).

use axum::Json;
use axum::extract::{Path, State};
use dealdex::workflow::played::{PlayedReport, PlayedView, judge_unjudged, read};
use dealdex::{DealIndex, PlayedSelection};
use serde::Deserialize;

use crate::extract::Params;
use crate::pool::Lane;
use crate::{App, Error, blocking};

/// `GET /api/played/<id>`: the played board at row `id` as the played workflow reports it
/// ([`PlayedView`]), judged now when `dealdex judge` has not stored its judgement
/// (`judged_now`; nothing is stored). 404 for a row that is not there.
pub async fn board(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<PlayedView>, Error> {
    let id: i64 = id
        .parse()
        .map_err(|_| Error::bad_request(format!("{id:?} is not a played board's number")))?;
    let mut report = app
        .stores
        .read(Lane::Quick, move |store| {
            read(&PlayedSelection::Id(id), store).map_err(Error::engine)
        })
        .await?;
    // Judged without holding a connection: the solver takes far longer than the read.
    if report.boards.iter().any(|b| b.analysis.is_none()) {
        report = blocking(move || {
            judge_unjudged(&mut report);
            Ok(report)
        })
        .await?;
    }
    report
        .boards
        .pop()
        .map(Json)
        .ok_or_else(|| Error::not_found(format!("no played board {id}")))
}

/// `GET /api/played`'s parameters: exactly one of them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// The tables that played this deal (26 hex digits).
    deal: Option<String>,
    /// The played boards of this set.
    set: Option<String>,
}

/// `GET /api/played?deal=<index>` or `?set=<name>`: the played workflow's report of those
/// boards, with the judgements stored (none judged now).
pub async fn list(
    State(app): State<App>,
    Params(p): Params<ListParams>,
) -> Result<Json<PlayedReport>, Error> {
    let selection = match (p.deal, p.set) {
        (Some(index), None) => {
            PlayedSelection::Deal(DealIndex::parse_hex(&index).map_err(Error::engine)?)
        }
        (None, Some(set)) => PlayedSelection::Set(set),
        _ => return Err(Error::bad_request("give one of deal= and set=")),
    };
    app.stores
        .read(Lane::Quick, move |store| {
            read(&selection, store).map(Json).map_err(Error::engine)
        })
        .await
}
