//! A stored set's hand records and randomness statistics, for the set's page:
//! `GET /api/sets/<name>/records.pdf` (the bytes `dealdex records --set NAME --out F.pdf`
//! writes), `GET /api/sets/<name>/stats` (`dealdex stats --set NAME --json`'s report and its
//! text) and `GET /api/sets/<name>/stats.svg` (the plot `dealdex stats --plot` draws).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use dealdex::records::{Paper, PerPage, RecordOptions, TenStyle};
use dealdex::workflow::pipeline::DealSource;
use dealdex::workflow::records::{RecordsJob, SheetFormat};
use dealdex::workflow::stats::StatsJob;
use serde::Deserialize;
use serde_json::json;

use crate::api::{download, safe_file_name};
use crate::extract::Params;
use crate::{App, Error, ErrorKind, blocking};

/// `GET /api/sets/<name>/records.pdf`'s parameters (as `dealdex records`' options).
#[derive(Debug, Deserialize)]
pub struct RecordsParams {
    /// Boards per page: 1, 2, 4 or 6 (default 4).
    per_page: Option<String>,
    /// Paper: `a4` or `letter` (default a4).
    paper: Option<String>,
    /// A ten as `10` or `T` (default 10).
    ten: Option<String>,
    /// No double-dummy table or par even for solved boards.
    #[serde(default)]
    hide_analysis: bool,
}

/// A layout option's text, read by the engine's parser (`default` when none).
fn option<T: std::str::FromStr>(text: Option<&str>, default: &str) -> Result<T, Error>
where
    T::Err: std::fmt::Display,
{
    let text = text.unwrap_or(default);
    text.parse()
        .map_err(|e| Error::bad_request(format!("{text:?}: {e}")))
}

/// `GET /api/sets/<name>/records.pdf[?per_page=4&paper=a4&ten=10&hide_analysis=false]`:
/// the set's hand records as `dealdex records --set NAME --out NAME.pdf` writes them (the
/// tables stored are shown; nothing is solved), as a download named `NAME.pdf` with the
/// records report in `X-Dealdex-Report`. The sheet is written to a file of the server's own
/// in a fresh temporary directory, read back and deleted.
pub async fn records(
    State(app): State<App>,
    Path(name): Path<String>,
    Params(p): Params<RecordsParams>,
) -> Result<Response, Error> {
    let options = RecordOptions {
        per_page: option::<PerPage>(p.per_page.as_deref(), "4")?,
        paper: option::<Paper>(p.paper.as_deref(), "a4")?,
        ten: option::<TenStyle>(p.ten.as_deref(), "10")?,
        hide_analysis: p.hide_analysis,
    };
    let db = app.settings.db.clone();
    blocking(move || {
        let dir = tempfile::tempdir()
            .map_err(|e| ErrorKind::Internal(format!("no temporary directory: {e}")))?;
        let out = dir.path().join("records.pdf");
        let job = RecordsJob {
            options,
            ..RecordsJob::new(DealSource::Set(name.clone()), out.clone(), SheetFormat::Pdf)
        };
        let report =
            dealdex::workflow::records::run_in(&job, &db, &mut |_| {}).map_err(Error::engine)?;
        let bytes = std::fs::read(&out)
            .map_err(|e| ErrorKind::Internal(format!("the sheet cannot be read back: {e}")))?;
        let file = format!("{}.pdf", safe_file_name(&name));
        Ok(download(bytes, &file, &report))
    })
    .await
}

/// The statistics run of the set `name` (read only).
fn stats_of(
    app: &App,
    name: String,
) -> impl FnOnce() -> Result<dealdex::stats::Report, Error> + use<> {
    let db = app.settings.db.clone();
    move || {
        let job = StatsJob::new(DealSource::Set(name));
        dealdex::workflow::stats::run_in(&job, &db)
            .map(|run| run.report)
            .map_err(Error::engine)
    }
}

/// `GET /api/sets/<name>/stats`: `{"report": …, "text": "…"}`, `dealdex stats --set NAME
/// --json`'s report and the command's text.
pub async fn stats(
    State(app): State<App>,
    Path(name): Path<String>,
) -> Result<Json<serde_json::Value>, Error> {
    let report = blocking(stats_of(&app, name)).await?;
    Ok(Json(json!({
        "report": crate::jobs::to_json(&report)?,
        "text": report.to_string(),
    })))
}

/// `GET /api/sets/<name>/stats.svg`: the plot `dealdex stats --set NAME --plot F.svg`
/// draws (observed against expected suit patterns and HCP), as `image/svg+xml`.
pub async fn stats_svg(
    State(app): State<App>,
    Path(name): Path<String>,
) -> Result<Response, Error> {
    let report = blocking(stats_of(&app, name)).await?;
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        report.to_svg(),
    )
        .into_response())
}
