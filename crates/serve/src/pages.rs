//! The pages: one HTML shell for every page (`/`, `/deal/<index>`, `/played/<id>`, `/sets`,
//! `/sets/<name>`, `/simulate`, `/lead`, `/contracts`), its style sheet and its scripts (vanilla JavaScript
//! modules), all compiled into the binary with `include_str!` (no file is read, no build
//! step, nothing fetched from elsewhere: the pages work offline). The scripts fill the page
//! from the JSON API, inserting every string of the data as text, never as HTML; the
//! Content-Security-Policy allows this server's own scripts only.

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::Error;

/// The pages' routes: each answers the shell, whose script draws the page the address names.
pub const PAGES: &[&str] = &[
    "/",
    "/deal/{index}",
    "/played/{id}",
    "/sets",
    "/sets/{name}",
    "/simulate",
    "/lead",
    "/contracts",
];

/// The page shell.
const SHELL: &str = include_str!("../assets/page.html");

/// The assets by name: name, content type, bytes.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("../assets/app.css"),
    ),
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/common.js"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "query.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/query.js"),
    ),
    (
        "deal.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/deal.js"),
    ),
    (
        "played.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/played.js"),
    ),
    (
        "sets.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/sets.js"),
    ),
    (
        "jobs.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/jobs.js"),
    ),
];

/// What every page and asset is sent with: only this server's scripts, styles and data; no
/// framing; no referrer (a token in the address stays here); types as declared.
const SECURITY_HEADERS: [(header::HeaderName, &str); 4] = [
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; \
         form-action 'self'",
    ),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::X_FRAME_OPTIONS, "DENY"),
];

/// `response` with [`SECURITY_HEADERS`].
fn secured(mut response: Response) -> Response {
    for (name, value) in SECURITY_HEADERS {
        response
            .headers_mut()
            .insert(name, HeaderValue::from_static(value));
    }
    response
}

/// Every page: the shell, which loads `app.js`; it draws the page the address names.
pub async fn page() -> Response {
    secured(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], SHELL).into_response())
}

/// `/assets/<name>`: one of [`ASSETS`] (any other name: 404).
pub async fn asset(Path(name): Path<String>) -> Result<Response, Error> {
    let (_, kind, body) = ASSETS
        .iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| Error::not_found(format!("no asset {name:?}")))?;
    Ok(secured(
        (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response(),
    ))
}
