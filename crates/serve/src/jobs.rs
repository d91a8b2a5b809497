//! Long work as jobs: a dealer run, a lead problem, a contract comparison runs on the blocking
//! pool with the engine's stop switch and progress callback, at most [`MAX_JOBS`] at a time,
//! each stopped after [`Settings::job_time`](crate::Settings::job_time). Its status (progress,
//! then the report or the error) is read whole (`GET /api/jobs/<id>`) or streamed as
//! server-sent events (`GET /api/jobs/<id>/events`); `DELETE /api/jobs/<id>` stops it.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio::sync::{Semaphore, watch};

use crate::{App, Error, ErrorKind, Settings};

/// The most jobs running at once: each uses every core while it runs.
pub const MAX_JOBS: usize = 2;

/// The most jobs remembered (finished ones beyond it are forgotten, oldest first).
const KEPT_JOBS: usize = 64;

/// The least time between two events of a job's stream.
const EVENT_INTERVAL: Duration = Duration::from_millis(100);

/// A job's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum JobState {
    /// Running.
    Running,
    /// Finished: [`JobStatus::result`] holds the report.
    Done,
    /// Failed: [`JobStatus::error`] says why.
    Failed,
    /// Stopped (cancelled, or past its time) before it finished.
    Stopped,
}

/// What a job is doing or did: `GET /api/jobs/<id>`'s answer and each event of its stream.
#[derive(Clone, Debug, Serialize)]
pub struct JobStatus {
    /// The job's id.
    pub id: u64,
    /// What it runs: `dealer`, `lead` or `contracts`.
    pub kind: &'static str,
    /// Its state.
    pub state: JobState,
    /// The last progress the workflow reported (its counts), if any.
    pub progress: Option<serde_json::Value>,
    /// The report, when done (the same JSON as the command's `--json`).
    pub result: Option<serde_json::Value>,
    /// The error, when failed or stopped (as the API sends errors).
    pub error: Option<serde_json::Value>,
    /// Seconds since it started (at its end, how long it ran).
    pub seconds: f64,
    /// The HTTP status of its error.
    #[serde(skip)]
    status: u16,
}

impl JobStatus {
    /// True once the job has ended.
    pub fn ended(&self) -> bool {
        self.state != JobState::Running
    }
}

/// A running or finished job.
#[derive(Debug)]
struct Job {
    stop: Arc<AtomicBool>,
    status: watch::Sender<JobStatus>,
    started: Instant,
}

impl Job {
    /// Records the work's outcome (the first one only).
    /// An error's message is cleared of the database's path ([`Settings::redact`]).
    fn finish(&self, outcome: Result<serde_json::Value, Error>, settings: &Settings) {
        let seconds = self.started.elapsed().as_secs_f64();
        let stopped = self.stop.load(Ordering::Relaxed);
        self.status.send_if_modified(|s| {
            if s.ended() {
                return false;
            }
            s.seconds = seconds;
            match outcome {
                Ok(v) => {
                    s.state = JobState::Done;
                    s.result = Some(v);
                }
                Err(e) => {
                    let e = match stopped {
                        true => Error::from(ErrorKind::Stopped(format!(
                            "the job was stopped after {seconds:.1} s (cancelled, or past the server's time bound for a job): {e}"
                        ))),
                        false => e,
                    };
                    s.state = if stopped { JobState::Stopped } else { JobState::Failed };
                    s.status = e.status().as_u16();
                    s.error = serde_json::from_str(&settings.redact(&e.body().to_string())).ok();
                }
            }
            true
        });
    }
}

/// What a job's work gets: the stop switch to hand to the workflow, and a way to report
/// progress.
pub struct Context {
    job: Arc<Job>,
}

impl Context {
    /// The switch the workflow checks between its pieces of work.
    pub fn stop(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.job.stop)
    }

    /// Reports progress (the workflow's counts as JSON).
    pub fn progress(&self, value: serde_json::Value) {
        let seconds = self.job.started.elapsed().as_secs_f64();
        self.job.status.send_modify(|s| {
            s.progress = Some(value);
            s.seconds = seconds;
        });
    }
}

/// A report as JSON (a report that does not serialize is a bug: internal).
pub fn to_json(report: &impl Serialize) -> Result<serde_json::Value, Error> {
    serde_json::to_value(report)
        .map_err(|e| ErrorKind::Internal(format!("the report does not serialize: {e}")).into())
}

/// A job's work: runs on the blocking pool, returns the report as JSON.
pub type Work = Box<dyn FnOnce(&Context) -> Result<serde_json::Value, Error> + Send>;

/// The jobs of a server: the slots and the table of jobs by id.
#[derive(Debug)]
pub struct Jobs {
    slots: Arc<Semaphore>,
    table: Mutex<(u64, BTreeMap<u64, Arc<Job>>)>,
}

impl Default for Jobs {
    fn default() -> Jobs {
        Jobs {
            slots: Arc::new(Semaphore::new(MAX_JOBS)),
            table: Mutex::new((0, BTreeMap::new())),
        }
    }
}

impl Jobs {
    fn get(&self, id: u64) -> Result<Arc<Job>, Error> {
        let table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        table
            .1
            .get(&id)
            .cloned()
            .ok_or_else(|| Error::not_found(format!("no job {id}")))
    }

    /// A new running job of `kind`, in the table (the oldest ended jobs forgotten past
    /// [`KEPT_JOBS`]).
    fn insert(&self, kind: &'static str) -> Arc<Job> {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        table.0 += 1;
        let id = table.0;
        let (status, _) = watch::channel(JobStatus {
            id,
            kind,
            state: JobState::Running,
            progress: None,
            result: None,
            error: None,
            seconds: 0.0,
            status: 200,
        });
        let job = Arc::new(Job {
            stop: Arc::new(AtomicBool::new(false)),
            status,
            started: Instant::now(),
        });
        let ended: Vec<u64> = table
            .1
            .iter()
            .filter(|(_, j)| j.status.borrow().ended())
            .map(|(&id, _)| id)
            .collect();
        for id in ended
            .iter()
            .take((table.1.len() + 1).saturating_sub(KEPT_JOBS))
        {
            table.1.remove(id);
        }
        table.1.insert(id, Arc::clone(&job));
        job
    }
}

impl App {
    /// Starts `work` as a job of `kind`, when a slot is free: answers 202 with its status at
    /// once, or with `wait`, when it ends, with its report (200) or its error (the error's
    /// status); a client that goes away while waiting stops the job.
    ///
    /// # Errors
    /// [`ErrorKind::Busy`] when [`MAX_JOBS`] jobs are running.
    pub(crate) async fn start_job(
        &self,
        kind: &'static str,
        work: Work,
        wait: bool,
    ) -> Result<Response, Error> {
        let permit = Arc::clone(&self.jobs.slots)
            .try_acquire_owned()
            .map_err(|_| {
                ErrorKind::Busy(format!(
                    "{MAX_JOBS} jobs are running, the most this server runs at once: stop one or try again when one ends"
                ))
            })?;
        let job = self.jobs.insert(kind);
        let stop = Arc::clone(&job.stop);
        let limit = self.settings.job_time;
        let timer = tokio::spawn(async move {
            tokio::time::sleep(limit).await;
            stop.store(true, Ordering::Relaxed);
        });
        let runner = Arc::clone(&job);
        let settings = Arc::clone(&self.settings);
        let watcher_settings = Arc::clone(&self.settings);
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let context = Context {
                job: Arc::clone(&runner),
            };
            let result = match job_pool() {
                Some(pool) => pool.install(|| work(&context)),
                None => work(&context),
            };
            runner.finish(result, &settings);
        });
        let watcher = Arc::clone(&job);
        tokio::spawn(async move {
            if let Err(e) = handle.await {
                watcher.finish(
                    Err(ErrorKind::Internal(format!("the job failed: {e}")).into()),
                    &watcher_settings,
                );
            }
            timer.abort();
        });
        let mut status = job.status.subscribe();
        if !wait {
            let now = status.borrow().clone();
            return Ok((StatusCode::ACCEPTED, Json(now)).into_response());
        }
        let _stop_if_gone = StopOnDrop(Arc::clone(&job.stop));
        let ended = status
            .wait_for(JobStatus::ended)
            .await
            .map(|s| s.clone())
            .map_err(|_| ErrorKind::Internal("the job's status was lost".into()))?;
        Ok(match (ended.result, ended.error) {
            (Some(report), _) => Json(report).into_response(),
            (None, error) => {
                let status =
                    StatusCode::from_u16(ended.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                (status, Json(error.unwrap_or_default())).into_response()
            }
        })
    }
}

/// The thread pool jobs run on (their work and the engine's parallel steps inside it, which use
/// the current rayon pool): a thread a core, each at a lower scheduling priority (nice 10, on
/// Linux, where a thread's nice value is its own), so that a simulation drawing deals on every
/// core leaves the cores to the requests' work: a count's scan over 10 M deals, on rayon's
/// global pool, took 0.50–0.55 s beside a simulation on both cores of a 2-core machine where it
/// takes 0.25 s alone. `None` (jobs then run on the global pool) when no thread can be made.
fn job_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("dealdex-job-{i}"))
            .start_handler(|_| lower_this_threads_priority())
            .build()
            .ok()
    })
    .as_ref()
}

/// Lowers the calling thread's scheduling priority to nice 10; a refusal leaves it as it is
/// (the job runs, only without yielding to requests).
#[cfg(target_os = "linux")]
fn lower_this_threads_priority() {
    // SAFETY: gettid and setpriority take and return plain integers; on Linux, PRIO_PROCESS
    // with a thread id sets that one thread's nice value (man 2 setpriority, "BUGS").
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

/// Elsewhere a thread has no nice value of its own: jobs run at the server's priority.
#[cfg(not(target_os = "linux"))]
fn lower_this_threads_priority() {}

/// Turns a job's stop switch on when dropped unless disarmed by the job's end (a waiting
/// client gone: its request's future is dropped).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `GET /api/jobs`: every job remembered, oldest first.
pub async fn list(State(app): State<App>) -> Json<Vec<JobStatus>> {
    let table = app.jobs.table.lock().unwrap_or_else(|e| e.into_inner());
    Json(
        table
            .1
            .values()
            .map(|j| j.status.borrow().clone())
            .collect(),
    )
}

/// `GET /api/jobs/<id>`: [`JobStatus`].
pub async fn status(State(app): State<App>, Path(id): Path<u64>) -> Result<Json<JobStatus>, Error> {
    Ok(Json(app.jobs.get(id)?.status.borrow().clone()))
}

/// `DELETE /api/jobs/<id>`: turns the job's stop switch on (the workflow stops before its
/// next piece of work); answers 202 with its status.
pub async fn cancel(State(app): State<App>, Path(id): Path<u64>) -> Result<Response, Error> {
    let job = app.jobs.get(id)?;
    job.stop.store(true, Ordering::Relaxed);
    let now = job.status.borrow().clone();
    Ok((StatusCode::ACCEPTED, Json(now)).into_response())
}

/// `GET /api/jobs/<id>/events`: the job's status as server-sent events (`event: status`, the
/// [`JobStatus`] as JSON), at most one each [`EVENT_INTERVAL`], the last when it ends; then the
/// stream closes.
pub async fn events(State(app): State<App>, Path(id): Path<u64>) -> Result<Response, Error> {
    let receiver = app.jobs.get(id)?.status.subscribe();
    let stream = futures_util::stream::unfold(Some(receiver), |receiver| async move {
        let mut receiver = receiver?;
        let now = receiver.borrow_and_update().clone();
        let event = Event::default().event("status").json_data(&now);
        let next = match now.ended() {
            true => None,
            false => {
                tokio::time::sleep(EVENT_INTERVAL).await;
                // A job that ends while nobody listens still sends its last status.
                let _ = receiver.changed().await;
                Some(receiver)
            }
        };
        Some((
            event
                .map_err(|e| e.to_string())
                .or_else(|_| Ok::<_, Infallible>(Event::default())),
            next,
        ))
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}
