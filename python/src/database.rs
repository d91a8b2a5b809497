//! `dealdex.Database`: the SQLite store.
use pyo3::prelude::*;

/// Adds the store's classes to the module.
pub(crate) fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
