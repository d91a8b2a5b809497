//! The crate's one error, rust-csv style: [`Error`] boxes an [`ErrorKind`]; its class (the
//! engine's [`ErrorClass`]) decides the HTTP status of a failed request and the binary's
//! exit code of a failed start.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use dealdex::{Classify, ErrorClass, InputPosition};

/// Why a request (or the server's start) failed: see [`ErrorKind`].
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Error(Box<ErrorKind>);

dealdex_model::classified!(Error => boxed ErrorKind);

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum ErrorKind {
    /// An engine workflow (or the engine's parsing of a request's value) failed: its error as
    /// it is, classified by the engine ([`dealdex::classify`]).
    #[error(transparent)]
    Engine(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// The request is malformed: a parameter missing or of the wrong type, a body that is not
    /// the JSON object asked for, a value out of the server's bounds (the text says which).
    #[error("{0}")]
    BadRequest(String),
    /// The request's body is larger than [`crate::MAX_BODY_BYTES`].
    #[error("{0}")]
    TooLarge(String),
    /// Nothing at that address: no stored set of that name, no job of that id, no page.
    #[error("{0}")]
    NotFound(String),
    /// Refused: the server does not write (started without write permission), a write from
    /// another origin, a missing or wrong token, a host name the server does not answer to.
    #[error("{0}")]
    Forbidden(String),
    /// Too many jobs are running; the same request may succeed later.
    #[error("{0}")]
    Busy(String),
    /// The job was stopped (cancelled, or past its time bound) before it finished.
    #[error("{0}")]
    Stopped(String),
    /// The address could not be bound (in use, not this machine's, no permission).
    #[error("cannot listen on {address}: {error}")]
    Bind {
        /// The address asked for.
        address: std::net::SocketAddr,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// Serving failed (the listener's I/O), or a worker thread did not finish its task.
    #[error("{0}")]
    Internal(String),
}

impl Error {
    /// An engine error, as it is (its class and position are the engine's).
    pub fn engine(e: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Error {
        ErrorKind::Engine(e.into()).into()
    }

    /// [`ErrorKind::BadRequest`] with `message`.
    pub fn bad_request(message: impl Into<String>) -> Error {
        ErrorKind::BadRequest(message.into()).into()
    }

    /// [`ErrorKind::NotFound`] with `message`.
    pub fn not_found(message: impl Into<String>) -> Error {
        ErrorKind::NotFound(message.into()).into()
    }

    /// [`ErrorKind::Forbidden`] with `message`.
    pub fn forbidden(message: impl Into<String>) -> Error {
        ErrorKind::Forbidden(message.into()).into()
    }

    /// The HTTP status a request failing with this error gets: by kind, and an engine error by
    /// its class (bad input and a request's fault: 400; busy: 503; the rest: 500).
    pub fn status(&self) -> StatusCode {
        match self.kind() {
            ErrorKind::BadRequest(_) => StatusCode::BAD_REQUEST,
            ErrorKind::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorKind::NotFound(_) => StatusCode::NOT_FOUND,
            ErrorKind::Forbidden(_) => StatusCode::FORBIDDEN,
            ErrorKind::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::Stopped(_) => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::Engine(_) => match self.class() {
                ErrorClass::BadInput => StatusCode::BAD_REQUEST,
                ErrorClass::Busy | ErrorClass::Interrupted => StatusCode::SERVICE_UNAVAILABLE,
                _ => StatusCode::INTERNAL_SERVER_ERROR,
            },
            ErrorKind::Bind { .. } | ErrorKind::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The error as the API sends it: `{"error": message, "class": "bad-input", "position":
    /// {"line": 3, "column": 7, …}}` (position only where the engine knows one).
    pub fn body(&self) -> serde_json::Value {
        let mut body = serde_json::json!({ "error": self.to_string(), "class": self.class() });
        if let Some(p) = self.position() {
            body["position"] = serde_json::to_value(p).unwrap_or_default();
        }
        body
    }
}

dealdex_model::classified!(ErrorKind);
impl Classify for ErrorKind {
    /// An engine error's class is the engine's; a request's fault is bad input; a
    /// full job queue is busy; a stopped job interrupted; the rest I/O or internal.
    fn class(&self) -> ErrorClass {
        match self {
            ErrorKind::Engine(e) => dealdex::classify(&**e).unwrap_or(ErrorClass::Internal),
            ErrorKind::BadRequest(_)
            | ErrorKind::TooLarge(_)
            | ErrorKind::NotFound(_)
            | ErrorKind::Forbidden(_) => ErrorClass::BadInput,
            ErrorKind::Busy(_) => ErrorClass::Busy,
            ErrorKind::Stopped(_) => ErrorClass::Interrupted,
            ErrorKind::Bind { .. } => ErrorClass::Io,
            ErrorKind::Internal(_) => ErrorClass::Internal,
        }
    }

    /// Where in the request's text (a query, a script, a deal) the engine found the
    /// problem: the first position among the error and those it holds.
    fn position(&self) -> Option<InputPosition> {
        match self {
            ErrorKind::Engine(e) => dealdex::causes(&**e)
                .into_iter()
                .find_map(|c| dealdex::as_classify(c).and_then(Classify::position)),
            _ => None,
        }
    }

    /// The engine's error, or the socket's.
    fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ErrorKind::Engine(e) => Some(&**e),
            ErrorKind::Bind { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A failed request: its [`Error::status`] and [`Error::body`] as JSON.
impl IntoResponse for Error {
    fn into_response(self) -> Response {
        (self.status(), axum::Json(self.body())).into_response()
    }
}
