//! `dealdex serve` (issue 52): the deal database, simulations and analyses behind a local web
//! page and its JSON API, over the engine's workflows.
//!
//! A job goes in ([`ServeJob`]: the database, the address, whether it writes), [`serve`] binds
//! the address, says where it listens ([`Served`]) and answers until the process ends. Every
//! answer of the API is one of the engine's reports, serialized as `dealdex … --json` prints
//! it (docs/GUIDE.md "dealdex serve" lists the endpoints); the pages use the API.
//!
//! Safe by default: bound to the loopback, answering only to its own host names; on another
//! address only to requests with a token made at start ([`Served::token`]); the database
//! opened read-only unless the job writes, and then written only by requests from the
//! server's own pages; bodies at most [`MAX_BODY_BYTES`]; no request names a file.
//!
//! [`App::router`] is the whole server as a `tower` service, for tests that drive it in
//! process:
//!
//! ```no_run
//! let app = dealdex_serve::App::new(dealdex_serve::Settings::new("dealdex.db".into()));
//! let router: axum::Router = app.router();
//! ```

mod analyses;
mod api;
mod error;
mod explore;
mod extract;
mod generate;
mod guard;
mod jobs;
mod leads;
mod pages;
mod played;
mod pool;
mod sets;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

pub use api::{MAX_DOWNLOAD, MAX_OFFSET, MAX_PAGE};
pub use explore::{MAX_FACET_LIMIT, MAX_SQL_ROWS, SQL_TIMEOUT};
pub use generate::MAX_GENERATE_BOARDS;
pub use jobs::{JobState, JobStatus, MAX_JOBS};

pub use error::{Error, ErrorKind};
pub use guard::TOKEN_HEADER;

/// The largest request body taken, in bytes (1 MiB: a dealer script is a few KB); a larger
/// one is refused with 413 before it is read whole.
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// What `dealdex serve` is asked to do.
#[derive(Clone, Debug)]
pub struct ServeJob {
    /// The database file (it need not exist when the server does not write: the pages that
    /// read it then say so).
    pub db: PathBuf,
    /// The address to listen on: the loopback (127.0.0.1) unless another is asked for, which
    /// makes the server require a token.
    pub host: IpAddr,
    /// The TCP port; 0 for one the system picks (then [`Served::address`] says which).
    pub port: u16,
    /// Whether requests may write to the database (store a set); else it is opened read-only.
    pub write: bool,
    /// Open the server's first page in the system's browser once it listens.
    pub open: bool,
}

/// Where a started server listens, for the caller to say.
#[derive(Clone, Debug)]
pub struct Served {
    /// The address bound (with the port the system picked for port 0).
    pub address: SocketAddr,
    /// The first page's address, with the token when there is one (`?token=…`).
    pub url: String,
    /// The token every API request must carry ([`TOKEN_HEADER`]): 64 hex digits made at
    /// start from the operating system's randomness; `None` on the loopback.
    pub token: Option<String>,
    /// Why the browser could not be opened, when [`ServeJob::open`] asked for it.
    pub browser_error: Option<String>,
}

/// The server's settings, which every request reads.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The database file.
    pub db: PathBuf,
    /// Whether requests may write to the database ([`Settings::check_write`]).
    pub write: bool,
    /// The token an API request must carry; `None`: none needed.
    pub token: Option<String>,
    /// The `Host` header values answered (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`
    /// on the loopback); `None`: any.
    pub hosts: Option<Vec<String>>,
    /// How long a job may run before its stop switch is turned on ([`JOB_TIME`] by default).
    pub job_time: Duration,
}

/// How long a job (a dealer run, a lead problem, a contract comparison) runs at most by
/// default: 10 minutes, then it is stopped as if cancelled.
pub const JOB_TIME: Duration = Duration::from_secs(600);

impl Settings {
    /// Read-only settings over `db`: no token, any host (a test's, or a caller that checks
    /// hosts itself).
    pub fn new(db: PathBuf) -> Settings {
        Settings {
            db,
            write: false,
            token: None,
            hosts: None,
            job_time: JOB_TIME,
        }
    }

    /// The database's file name, as the pages and the API name it: never its directory
    /// (with `--host`, a page is another machine's).
    pub fn db_name(&self) -> String {
        self.db.file_name().map_or_else(
            || "the database".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// `text` (an error's message or its JSON) with every mention of the database's path, as
    /// given, absolute, or escaped as in a JSON string, replaced by [`Settings::db_name`]: an
    /// engine's error names the file it read (SQLite's refusals in the SQL box do).
    pub fn redact(&self, text: &str) -> String {
        let name = self.db_name();
        let given = self.db.display().to_string();
        let mut forms = vec![given.clone()];
        if let Ok(absolute) = std::path::absolute(&self.db) {
            forms.push(absolute.display().to_string());
        }
        if let Ok(real) = self.db.canonicalize() {
            forms.push(real.display().to_string());
        }
        for form in forms.clone() {
            let quoted = serde_json::to_string(&form).unwrap_or_default();
            forms.push(quoted.trim_matches('"').to_owned());
        }
        // Longest first, so that an absolute path is replaced whole before the path as given
        // (its tail) is looked for.
        forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
        forms
            .iter()
            .filter(|f| !f.is_empty() && **f != name)
            .fold(text.to_owned(), |t, f| t.replace(f.as_str(), &name))
    }

    /// The host names a server bound to the loopback at `port` answers to.
    pub fn loopback_hosts(port: u16) -> Vec<String> {
        ["127.0.0.1", "localhost", "[::1]"]
            .iter()
            .map(|h| format!("{h}:{port}"))
            .collect()
    }
}

/// The server: its settings, shared by every request (cheap to clone).
#[derive(Clone, Debug)]
pub struct App {
    settings: Arc<Settings>,
    jobs: Arc<jobs::Jobs>,
    /// The open read-only connections to the database, shared by the reading endpoints.
    stores: Arc<pool::Stores>,
}

impl App {
    /// The server over `settings`.
    pub fn new(settings: Settings) -> App {
        App {
            stores: Arc::new(pool::Stores::new(settings.db.clone())),
            settings: Arc::new(settings),
            jobs: Arc::default(),
        }
    }

    /// Every route, behind the guard (`guard::check`) and the body limit
    /// ([`MAX_BODY_BYTES`]).
    pub fn router(&self) -> Router {
        let api = Router::new()
            .route("/api/query", get(api::query))
            .route("/api/query/export", get(api::query_export))
            .route("/api/facets", get(explore::facets))
            .route("/api/sql", get(explore::sql))
            .route("/api/deal/{index}", get(api::deal))
            .route("/api/deal/{index}/leads", get(leads::leads))
            .route("/api/deal/{index}/play", get(leads::play))
            .route("/api/played", get(played::list))
            .route("/api/played/{id}", get(played::board))
            .route("/api/sets", get(api::sets))
            .route("/api/sets/{name}/export", get(api::export))
            .route("/api/sets/{name}/records.pdf", get(sets::records))
            .route("/api/sets/{name}/stats", get(sets::stats))
            .route("/api/sets/{name}/stats.svg", get(sets::stats_svg))
            .route("/api/dealer", post(analyses::dealer))
            .route("/api/dealer/check", post(analyses::check))
            .route("/api/lead", post(analyses::lead))
            .route("/api/generate", post(generate::generate))
            .route("/api/contracts", post(analyses::contracts))
            .route("/api/jobs", get(jobs::list))
            .route("/api/jobs/{id}", get(jobs::status).delete(jobs::cancel))
            .route("/api/jobs/{id}/events", get(jobs::events));
        let pages = pages::PAGES.iter().fold(
            Router::new().route("/assets/{name}", get(pages::asset)),
            |router, path| router.route(path, get(pages::page)),
        );
        api.merge(pages)
            .fallback(api::not_found)
            .layer(axum::middleware::from_fn_with_state(
                self.clone(),
                guard::check,
            ))
            .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
            .with_state(self.clone())
    }
}

/// Runs the server: checks the database (a file that is there must be a dealdex database;
/// with [`ServeJob::write`] it is created or upgraded as every writing command does), binds
/// the address, makes the token for an address other than the loopback, calls `ready` with
/// where it listens (and opens the browser when asked), then answers requests until the
/// process ends.
///
/// # Errors
/// The engine's error when the database does not open; [`ErrorKind::Bind`] when the address
/// cannot be bound; [`ErrorKind::Internal`] when the listener fails.
pub fn serve(job: &ServeJob, ready: impl FnOnce(&Served)) -> Result<(), Error> {
    if job.write {
        dealdex::Store::open(&job.db).map_err(Error::engine)?;
    } else if job.db.exists() {
        dealdex::ReadOnlyStore::open(&job.db).map_err(Error::engine)?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // The blocking pool runs the workflows and the reads. The reads are bounded by the
        // connection pools (a request waits for a connection without a thread), the jobs by
        // MAX_JOBS; this bounds the rest (solving a deal not stored, its leads, a play).
        .max_blocking_threads(64)
        .build()
        .map_err(|e| ErrorKind::Internal(format!("cannot start the server's threads: {e}")))?;
    runtime.block_on(async {
        let address = SocketAddr::new(job.host, job.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|error| ErrorKind::Bind { address, error })?;
        let address = listener
            .local_addr()
            .map_err(|error| ErrorKind::Bind { address, error })?;
        let loopback = job.host.is_loopback();
        let token = match loopback {
            true => None,
            // 256 bits of the operating system's randomness, as hex (a seed is exactly that).
            false => Some(dealdex::Seed::from_os().map_err(Error::engine)?.to_string()),
        };
        let url = match &token {
            None => format!("http://{address}/"),
            Some(t) => format!("http://{address}/?token={t}"),
        };
        let settings = Settings {
            db: job.db.clone(),
            write: job.write,
            token: token.clone(),
            hosts: loopback.then(|| Settings::loopback_hosts(address.port())),
            job_time: JOB_TIME,
        };
        let browser_error = match job.open {
            true => open_browser(&url).err().map(|e| e.to_string()),
            false => None,
        };
        ready(&Served {
            address,
            url,
            token,
            browser_error,
        });
        axum::serve(listener, App::new(settings).router())
            .await
            .map_err(|e| ErrorKind::Internal(format!("the server stopped: {e}")).into())
    })
}

/// Opens `url` in the system's browser (`xdg-open` on Linux and the BSDs, `open` on macOS,
/// `start` on Windows), without waiting for it.
fn open_browser(url: &str) -> std::io::Result<()> {
    let mut command = match std::env::consts::OS {
        "macos" => std::process::Command::new("open"),
        "windows" => {
            let mut c = std::process::Command::new("cmd");
            c.args(["/C", "start", ""]);
            c
        }
        _ => std::process::Command::new("xdg-open"),
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
}

/// Runs `work` (a workflow: blocking, on SQLite and the solver's threads) on the blocking
/// pool, so that the server's own threads keep answering.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ErrorKind::Internal(format!("a worker failed: {e}")))?
}
