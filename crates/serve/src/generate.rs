//! `POST /api/generate` (only on a server started with `--write`): a tournament set dealt
//! from a fresh seed and stored, as `dealdex generate --boards N --name NAME --db DB` does;
//! the seed is saved to a new key file beside the database (mode 0600, `<db stem>-<sha>.seed`,
//! the next free name when taken), as `generate` saves it, and never sent to a page: the
//! answer leaves out the key file's path too.

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::HeaderMap;
use dealdex::Store;
use dealdex::workflow::generate::{GenerateJob, GenerateReport, Source};
use serde::Deserialize;

use crate::{App, Error, ErrorKind, blocking};

/// The most boards a set made from a page holds.
pub const MAX_GENERATE_BOARDS: u64 = 999;

/// `POST /api/generate`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// Boards 1 to `boards` (at most [`MAX_GENERATE_BOARDS`]).
    boards: u64,
    /// The set's name (default `boards-1-N`, made unique as `generate` makes it).
    name: Option<String>,
}

/// `POST /api/generate` `{"boards": N, "name": "club"}`: `dealdex generate --json`'s report
/// (`seed_file` and `seed_file_taken` left out: the key file stays beside the database).
/// A server without `--write`, or a request from another origin, is refused (403).
pub async fn generate(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Json<GenerateRequest>, JsonRejection>,
) -> Result<Json<GenerateReport>, Error> {
    app.settings.check_write(&headers)?;
    let Json(r) = body.map_err(|e| match e.status() {
        axum::http::StatusCode::PAYLOAD_TOO_LARGE => ErrorKind::TooLarge(e.body_text()).into(),
        _ => Error::bad_request(e.body_text()),
    })?;
    if !(1..=MAX_GENERATE_BOARDS).contains(&r.boards) {
        return Err(Error::bad_request(format!(
            "boards {}: 1 to {MAX_GENERATE_BOARDS}",
            r.boards
        )));
    }
    let db = app.settings.db.clone();
    blocking(move || {
        let job = GenerateJob {
            name: r.name,
            db: Some(db.clone()),
            ..GenerateJob::set(1, r.boards, Source::Fresh { key_file: None }, Vec::new())
        };
        let mut store = Store::open(&db).map_err(Error::engine)?;
        let mut report = dealdex::workflow::generate::run(
            &job,
            Some(&mut store),
            &mut std::io::sink(),
            &mut |_| {},
        )
        .map_err(Error::engine)?;
        report.seed_file = None;
        report.seed_file_taken = None;
        Ok(Json(report))
    })
    .await
}
