//! The request's parts read as the handlers take them: a malformed query string or deal
//! index is the crate's [`Error`] (a bad request, as JSON like every other error) rather
//! than axum's own plain-text rejection.

use axum::extract::{FromRequestParts, Path, Query};
use axum::http::request::Parts;
use dealdex::{Deal, DealIndex};
use serde::de::DeserializeOwned;

use crate::Error;

/// A query string read into `T` (`?contract=3NT&declarer=S`, serde's field names).
///
/// # Errors
/// A query string that does not read as `T` (a missing field, a value of the wrong type) is
/// [`ErrorKind::BadRequest`](crate::ErrorKind::BadRequest) with axum's reason.
#[derive(Debug)]
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Error> {
        let Query(params) = Query::from_request_parts(parts, state)
            .await
            .map_err(|e| Error::bad_request(e.body_text()))?;
        Ok(Params(params))
    }
}

/// The deal a route's `{index}` (26 hex digits, [`DealIndex::parse_hex`]) indexes:
/// `/api/deal/{index}` and its analyses.
///
/// # Errors
/// An index that is not 26 hex digits, or not a deal's, is the engine's bad-input error.
#[derive(Debug)]
pub struct DealAt(pub Deal);

impl<S: Send + Sync> FromRequestParts<S> for DealAt {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Error> {
        let Path(index) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| Error::bad_request(e.body_text()))?;
        let deal = DealIndex::parse_hex(&index)
            .and_then(|key| key.to_deal())
            .map_err(Error::engine)?;
        Ok(DealAt(deal))
    }
}
