//! `dealdex sql`: raw read-only SQL over the database, with dealdex's SQL functions.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use dealdex::ReadOnlyStore;
use dealdex::workflow::sql::{SqlOptions, write_result};

use super::{StoreArgs, stdout};

#[derive(Args, Debug)]
#[command(
    after_help = "The connection is read-only: the file is opened read-only, and writes, ATTACH/DETACH,
VACUUM and pragmas that change a setting are refused (reporting pragmas such as table_info,
integrity_check or journal_mode without a value work). Tables: deals(key), sets,
set_boards; view deal_features(key, hcp_n … hcp_w, len_n_s … len_w_c, lens_n … lens_w). Functions: hcp(key, seat),
len(key, seat, suit), shape, pattern, controls, ltc, balanced, semibalanced, longest (key, seat),
pbn(key), number(key [, scheme]), board_dealer(n), board_vul(n).

A statement past --timeout or --memory-limit stops with exit 2 naming the limit; Ctrl-C stops
it with exit 130.

Examples:
  dealdex sql \"SELECT count(*) FROM deal_features WHERE hcp_n >= 20\"
  dealdex sql \"SELECT board, pbn(deal) FROM set_boards JOIN sets ON sets.id = set_id WHERE name = 'club'\""
)]
pub struct SqlArgs {
    #[command(flatten)]
    options: SqlOptions,
    #[command(flatten)]
    db: StoreArgs,
}

/// Set by the SIGINT handler; read by the running statement's progress handler.
static INTERRUPTED: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();

/// The SIGINT handler: only an atomic store (async-signal-safe). The handler is installed
/// with `SA_RESETHAND`, so a second Ctrl-C ends the process the default way.
extern "C" fn on_sigint(_: libc::c_int) {
    if let Some(flag) = INTERRUPTED.get() {
        flag.store(true, Ordering::Relaxed);
    }
}

/// A flag that Ctrl-C (SIGINT) sets, for [`dealdex::workflow::sql::SqlJob::interrupt`]; `None` when the handler
/// cannot be installed (then Ctrl-C ends the process as before).
fn interrupt_flag() -> Option<Arc<AtomicBool>> {
    let flag = Arc::clone(INTERRUPTED.get_or_init(|| Arc::new(AtomicBool::new(false))));
    // SAFETY: `sigaction` gets a zeroed (valid) struct with a handler that only does an
    // atomic store on a value initialised above, before the handler is installed.
    let installed = unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESETHAND;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut()) == 0
    };
    installed.then_some(flag)
}

pub fn run(a: SqlArgs, json: bool) -> anyhow::Result<()> {
    let store = ReadOnlyStore::open(&a.db.path())?;
    let job = a.options.job(interrupt_flag());
    let mut out = stdout();
    write_result(&job, &store, json, &mut out)?;
    Ok(out.flush()?)
}
