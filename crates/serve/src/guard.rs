//! What every request passes before a handler sees it ([`check`]): the host it names, the
//! token, the origin of a request that changes something; and the check of a request that
//! writes to the database ([`Settings::check_write`]).

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::{App, Error, Settings};

/// The header a page or API client sends the token in (also accepted as the query parameter
/// `token`, for links and the job events a browser's `EventSource` opens, which cannot set
/// headers).
pub const TOKEN_HEADER: &str = "x-dealdex-token";

/// The guard of every request, before its handler:
/// - a `Host` the server does not answer to is refused (403) when the server lists its
///   hosts ([`Settings::hosts`]: a server on the loopback answers to `127.0.0.1:PORT`,
///   `localhost:PORT` and `[::1]:PORT` only, so that a web page whose domain is made to point
///   at 127.0.0.1, DNS rebinding, reads nothing);
/// - with a token ([`Settings::token`]), an API request (`/api/…`) without it is refused (403);
///   pages and their assets hold no data and are served without it;
/// - a request other than GET or HEAD from another origin (its `Origin` header is not
///   `http://` and its `Host`) is refused (403): a page elsewhere cannot start work here.
///
/// After the handler, an error's answer is cleared of the database's path
/// ([`Settings::redact`]).
pub async fn check(State(app): State<App>, request: Request, next: Next) -> Response {
    match admit(&app.settings, &request) {
        Ok(()) => redacted(&app.settings, next.run(request).await).await,
        Err(e) => e.into_response(),
    }
}

/// The most bytes of an error's answer read to clear it of paths: errors are a few hundred
/// bytes; a longer one is cut to its status.
const MAX_ERROR_BYTES: usize = 1 << 16;

/// `response`, when it is an error's, with its body cleared of the database's path.
async fn redacted(settings: &Settings, response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, MAX_ERROR_BYTES).await {
        Ok(bytes) => settings.redact(&String::from_utf8_lossy(&bytes)),
        Err(_) => String::new(),
    };
    // The length changed: the server counts it again.
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(text))
}

/// [`check`]'s verdict.
fn admit(settings: &Settings, request: &Request) -> Result<(), Error> {
    let headers = request.headers();
    let host = header_text(headers, header::HOST.as_str()).unwrap_or_default();
    if let Some(hosts) = &settings.hosts
        && !hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
    {
        return Err(Error::forbidden(format!(
            "host {host:?} is not this server's (open it as http://{})",
            hosts.first().map_or("", String::as_str)
        )));
    }
    if let Some(token) = &settings.token
        && request.uri().path().starts_with("/api/")
    {
        let given = header_text(headers, TOKEN_HEADER)
            .or_else(|| query_token(request.uri().query().unwrap_or_default()));
        if !given.is_some_and(|g| same_secret(g, token)) {
            return Err(Error::forbidden(
                "this server needs its token (the one printed when it started)",
            ));
        }
    }
    if !matches!(*request.method(), Method::GET | Method::HEAD) && !same_origin(headers, false) {
        return Err(Error::forbidden(
            "a request from another origin is refused (this server takes work from its own pages only)",
        ));
    }
    Ok(())
}

impl Settings {
    /// Checks that a request may write to the database (store a set): the server writes
    /// ([`Settings::write`]) and the request comes from the server's own origin (its `Origin`
    /// header present and `http://` and its `Host`).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Forbidden`], saying which.
    pub fn check_write(&self, headers: &HeaderMap) -> Result<(), Error> {
        if !self.write {
            return Err(Error::forbidden(
                "this server does not write to its database (it was started read-only)",
            ));
        }
        if !same_origin(headers, true) {
            return Err(Error::forbidden(
                "a write must come from this server's own page (its Origin header)",
            ));
        }
        Ok(())
    }
}

/// Whether the request's `Origin` is `http://HOST` for its own `Host` header; a request
/// without `Origin` (not a browser's cross-origin request: browsers send it with every
/// cross-origin request and every POST) passes unless `required`.
fn same_origin(headers: &HeaderMap, required: bool) -> bool {
    let host = header_text(headers, header::HOST.as_str()).unwrap_or_default();
    match header_text(headers, header::ORIGIN.as_str()) {
        None => !required,
        Some(origin) => origin
            .strip_prefix("http://")
            .is_some_and(|o| !host.is_empty() && o.eq_ignore_ascii_case(host)),
    }
}

/// A header's value as text (`None`: absent or not visible ASCII).
fn header_text<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The `token` parameter of a query string (the token is hex: no escapes to undo).
fn query_token(query: &str) -> Option<&str> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
}

/// `a == b` in a time that does not depend on where they first differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_lose_the_databases_path() {
        let settings = Settings::new("/srv/private/club.db".into());
        assert_eq!(
            settings.redact(r#"{"error":"sql: /srv/private/club.db: read-only: DELETE"}"#),
            r#"{"error":"sql: club.db: read-only: DELETE"}"#
        );
        let relative = Settings::new("data/club.db".into());
        let absolute = std::path::absolute("data/club.db").unwrap();
        let text = format!("{} and data/club.db", absolute.display());
        assert_eq!(relative.redact(&text), "club.db and club.db");
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same_secret("ab12", "ab12"));
        assert!(!same_secret("ab12", "ab13"));
        assert!(!same_secret("ab1", "ab12"));
        assert_eq!(query_token("q=x&token=ff00&limit=2"), Some("ff00"));
        assert_eq!(query_token("q=token%3Dff"), None);
    }

    #[test]
    fn an_origin_must_be_the_host() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
        assert!(same_origin(&h, false));
        assert!(!same_origin(&h, true));
        h.insert(header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(same_origin(&h, true));
        h.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert!(!same_origin(&h, false));
    }
}
