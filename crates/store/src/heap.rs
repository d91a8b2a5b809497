//! SQLite's heap counted per thread: SQLite's own allocator wrapped (`SQLITE_CONFIG_MALLOC`)
//! so that every allocation and free adds to a counter of the calling thread.
//!
//! Why: `dealdex sql` bounds a statement's memory (issue 27), and SQLite's own bounds are
//! process-wide (`sqlite3_hard_heap_limit64`, `sqlite3_memory_used`): a statement on one
//! thread (a Python thread, say) would stop for another's memory, or fail an allocation that
//! the other made impossible (issue 38, item 5). A statement runs on the thread that steps it,
//! so the bytes SQLite allocated on that thread since the statement began are its own.
//!
//! SQLite takes an allocator only before it initialises: [`install`] runs once, before this
//! crate opens its first connection. If SQLite was initialised before (a program that opened
//! a connection through rusqlite first), the counters stay unavailable and [`thread_bytes`]
//! says so.

use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::sync::OnceLock;

use rusqlite::ffi;

thread_local! {
    /// Bytes SQLite allocated on this thread minus the bytes it freed here (negative when the
    /// thread freed what another allocated). No destructor: readable until the thread ends.
    static BYTES: Cell<i64> = const { Cell::new(0) };
    /// The most [`BYTES`] may reach: an allocation past it fails (SQLite reports
    /// `SQLITE_NOMEM`), so a bound holds at every allocation, not only when a progress handler
    /// next looks ([`limit_thread`]).
    static LIMIT: Cell<i64> = const { Cell::new(i64::MAX) };
    /// Set when an allocation was refused for [`LIMIT`] since [`limit_thread`]: SQLite may
    /// carry on without it (a `group_concat` stops growing its string), so the statement's
    /// watcher must see it ([`limit_refused`]).
    static REFUSED: Cell<bool> = const { Cell::new(false) };
    /// The highest [`BYTES`] has been (for the tests of the bound).
    static PEAK: Cell<i64> = const { Cell::new(i64::MIN) };
}

/// A bound on SQLite's heap on the calling thread, from [`limit_thread`]; dropping it puts
/// back the bound before.
pub struct ThreadLimit {
    previous: i64,
}

impl Drop for ThreadLimit {
    fn drop(&mut self) {
        let _ = LIMIT.try_with(|l| l.set(self.previous));
    }
}

/// Bounds what SQLite may allocate on the calling thread to `bytes` more than it holds now,
/// until the guard is dropped: an allocation that would pass it fails. Without the counters
/// ([`thread_bytes`] `None`) nothing is bounded.
pub fn limit_thread(bytes: i64) -> ThreadLimit {
    let now = BYTES.with(Cell::get);
    let previous = LIMIT.with(|l| l.replace(now.saturating_add(bytes)));
    REFUSED.with(|r| r.set(false));
    ThreadLimit { previous }
}

/// Whether an allocation on the calling thread was refused for its [`limit_thread`] bound
/// since the bound was set.
pub fn limit_refused() -> bool {
    REFUSED.try_with(Cell::get).unwrap_or(false)
}

/// The most SQLite has held on the calling thread since [`reset_peak`] (net bytes, as
/// [`thread_bytes`] counts them): what a test of a memory bound reads.
pub fn peak() -> i64 {
    PEAK.with(Cell::get)
}

/// Starts [`peak`] again from what the thread holds now.
pub fn reset_peak() {
    PEAK.with(|p| p.set(BYTES.with(Cell::get)));
}

/// Whether `more` bytes would pass the calling thread's [`LIMIT`].
fn over_limit(more: i64) -> bool {
    let held = BYTES.try_with(Cell::get).unwrap_or(0);
    let limit = LIMIT.try_with(Cell::get).unwrap_or(i64::MAX);
    let over = held.saturating_add(more) > limit;
    if over {
        let _ = REFUSED.try_with(|r| r.set(true));
    }
    over
}

/// SQLite's default allocator, which ours wraps.
struct Default(ffi::sqlite3_mem_methods);

// SAFETY: the methods are SQLite's own functions, callable from any thread (SQLite serialises
// what needs it); `pAppData` is SQLite's, passed back to it unchanged.
unsafe impl Sync for Default {}
unsafe impl Send for Default {}

static DEFAULT: OnceLock<Default> = OnceLock::new();
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// Installs the counting allocator if SQLite is not initialised yet (once per process; every
/// later call returns the first answer). Returns whether the counters work.
pub fn install() -> bool {
    *INSTALLED.get_or_init(|| {
        let mut default = ffi::sqlite3_mem_methods {
            xMalloc: None,
            xFree: None,
            xRealloc: None,
            xSize: None,
            xRoundup: None,
            xInit: None,
            xShutdown: None,
            pAppData: std::ptr::null_mut(),
        };
        // SAFETY: SQLITE_CONFIG_GETMALLOC takes one pointer to a `sqlite3_mem_methods`, which
        // it fills; it fails (SQLITE_MISUSE) once SQLite is initialised.
        let rc = unsafe {
            ffi::sqlite3_config(
                ffi::SQLITE_CONFIG_GETMALLOC,
                &mut default as *mut ffi::sqlite3_mem_methods,
            )
        };
        let complete = default.xMalloc.is_some()
            && default.xFree.is_some()
            && default.xRealloc.is_some()
            && default.xSize.is_some();
        if rc != ffi::SQLITE_OK || !complete || DEFAULT.set(Default(default)).is_err() {
            return false;
        }
        let counting = ffi::sqlite3_mem_methods {
            xMalloc: Some(count_malloc),
            xFree: Some(count_free),
            xRealloc: Some(count_realloc),
            ..default
        };
        // SAFETY: SQLITE_CONFIG_MALLOC takes one pointer to a `sqlite3_mem_methods`, which it
        // copies; the functions only call the default ones, set above, and count.
        let rc = unsafe {
            ffi::sqlite3_config(
                ffi::SQLITE_CONFIG_MALLOC,
                &counting as *const ffi::sqlite3_mem_methods,
            )
        };
        rc == ffi::SQLITE_OK
    })
}

/// The bytes SQLite allocated on the calling thread, net of those freed on it, since the
/// thread began; `None` when the counters are unavailable (see the module's note). Units:
/// bytes, as SQLite's allocator sizes them (`xSize`).
pub fn thread_bytes() -> Option<i64> {
    if *INSTALLED.get()? {
        Some(BYTES.with(Cell::get))
    } else {
        None
    }
}

fn default() -> &'static ffi::sqlite3_mem_methods {
    // Set before the counting functions are given to SQLite, so before any of them runs.
    &DEFAULT.get().expect("installed before use").0
}

fn add(bytes: c_int) {
    let _ = BYTES.try_with(|b| {
        let now = b.get() + i64::from(bytes);
        b.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

/// The size SQLite's allocator gives the block at `p` (not null).
unsafe fn size_of(p: *mut c_void) -> c_int {
    // SAFETY: `p` is a live block of the default allocator (the caller's promise).
    unsafe { (default().xSize.expect("checked in install"))(p) }
}

unsafe extern "C" fn count_malloc(n: c_int) -> *mut c_void {
    if over_limit(i64::from(n)) {
        return std::ptr::null_mut();
    }
    // SAFETY: SQLite's default allocator, called as SQLite would.
    let p = unsafe { (default().xMalloc.expect("checked in install"))(n) };
    if !p.is_null() {
        // SAFETY: `p` was just allocated.
        add(unsafe { size_of(p) });
    }
    p
}

unsafe extern "C" fn count_free(p: *mut c_void) {
    if !p.is_null() {
        // SAFETY: SQLite frees only live blocks of its allocator.
        add(-unsafe { size_of(p) });
    }
    // SAFETY: as SQLite calls it.
    unsafe { (default().xFree.expect("checked in install"))(p) }
}

unsafe extern "C" fn count_realloc(p: *mut c_void, n: c_int) -> *mut c_void {
    // SQLite never reallocates a null pointer through xRealloc, but count it as one if so.
    // SAFETY: a live block (SQLite's promise) or null.
    let before = if p.is_null() {
        0
    } else {
        unsafe { size_of(p) }
    };
    if n > before && over_limit(i64::from(n - before)) {
        // SQLite keeps `p` as it was, as after any failed realloc.
        return std::ptr::null_mut();
    }
    // SAFETY: as SQLite calls it.
    let q = unsafe { (default().xRealloc.expect("checked in install"))(p, n) };
    if !q.is_null() {
        // SAFETY: `q` was just (re)allocated; on failure `p` is unchanged and uncounted.
        add(unsafe { size_of(q) } - before);
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What SQLite holds while a statement runs counts on the thread stepping it: 10 MB
    /// while a 10 MB blob's row is read, about nothing once it is freed, and nothing on
    /// another thread meanwhile.
    #[test]
    fn sqlite_allocations_count_on_their_own_thread() {
        assert!(
            install(),
            "installed before any connection of this test binary"
        );
        let here = thread_bytes().unwrap();
        let there = std::thread::spawn(|| {
            let conn = rusqlite::Connection::open_in_memory().unwrap();
            let before = thread_bytes().unwrap();
            let held = conn
                .query_row("SELECT randomblob(10000000)", [], |_| {
                    Ok(thread_bytes().unwrap() - before)
                })
                .unwrap();
            (held, thread_bytes().unwrap() - before)
        })
        .join()
        .unwrap();
        assert!(there.0 >= 10_000_000, "held while read: {}", there.0);
        assert!(there.1 < 1 << 20, "freed once read: {}", there.1);
        assert_eq!(thread_bytes().unwrap(), here, "another thread's heap");
    }
}
