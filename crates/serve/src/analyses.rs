//! The endpoints that start long work ([`crate::jobs`]): `POST /api/dealer` (a dealer script),
//! `POST /api/lead` (which card to lead), `POST /api/contracts` (contracts compared). Each
//! reads a JSON body, builds the engine's job from it (a bad value answered at once, 400) and
//! runs the engine's workflow as a job; its report is the JSON `dealdex … --json` prints.
//!
//! No value of a request names a file: scripts come as text, samples are dealt or stored
//! sets. Storing a set needs a server that writes and a request from its own page
//! ([`Settings::check_write`](crate::Settings::check_write)).

use std::collections::BTreeMap;
use std::io::Write;

use axum::Json;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::HeaderMap;
use axum::response::Response;
use dealdex::dealer::{DealerJob, Script, Swapping};
use dealdex::workflow::contracts::{ContractsJob, Vulnerable};
use dealdex::workflow::dealer::DealerRunJob;
use dealdex::workflow::lead::{LeadJob, LeadProgress, LeadSample};
use dealdex::workflow::pipeline::DealSource;
use dealdex::workflow::samples::{self, ContractsSample, LeadAround};
use dealdex::{Contract, Seat, Vulnerability};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::extract::Params;
use crate::jobs::{Context, Work};
use crate::{App, Error, ErrorKind};

/// The most bytes of a dealer script's printed deals a job keeps (past it the output is cut,
/// and the answer says so).
pub const MAX_OUTPUT_BYTES: usize = 8 << 20;

/// The query string of a POST: `?wait=true` answers with the report when the job ends,
/// instead of at once with the job's status.
#[derive(Debug, Default, Deserialize)]
pub struct Wait {
    #[serde(default)]
    wait: bool,
}

/// A POST's JSON body `T` and its query string's `wait`, read.
///
/// # Errors
/// A body larger than [`crate::MAX_BODY_BYTES`] is [`ErrorKind::TooLarge`]; a body that is
/// not `T` as JSON, then a query string that is not [`Wait`]'s, a bad request with axum's
/// reason.
pub struct Post<T> {
    body: T,
    wait: bool,
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Post<T> {
    type Rejection = Error;

    async fn from_request(request: Request, state: &S) -> Result<Self, Error> {
        let (mut parts, body) = request.into_parts();
        // The body's error is the one answered when both are bad.
        let wait = Params::<Wait>::from_request_parts(&mut parts, state).await;
        let Json(body) = Json::from_request(Request::from_parts(parts, body), state)
            .await
            .map_err(|e| match e.status() {
                axum::http::StatusCode::PAYLOAD_TOO_LARGE => ErrorKind::TooLarge(format!(
                    "the request's body is larger than {} bytes",
                    crate::MAX_BODY_BYTES
                ))
                .into(),
                _ => Error::bad_request(e.body_text()),
            })?;
        let Params(Wait { wait }) = wait?;
        Ok(Post { body, wait })
    }
}

/// `POST /api/dealer`'s body: a dealer script and dealer's settings.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealerRequest {
    /// The script (dealer's input language).
    script: String,
    /// The seed (dealer's `-s`); none: a fresh one, in the report.
    seed: Option<u64>,
    /// The most deals to produce (`-p`; default the script's `produce`).
    produce: Option<u64>,
    /// The most deals to generate (`-g`; default the script's `generate`).
    generate: Option<u64>,
    /// The script's parameters `$0` … `$9` (DealerV2's `-0` … `-9`), by digit.
    #[serde(default)]
    params: BTreeMap<String, String>,
    /// Swapping: 0 (none), 2 or 3 (dealer's `-2`, `-3`).
    #[serde(default)]
    swap: u8,
    /// Leave out `printpbn`'s output (`-q`).
    #[serde(default)]
    quiet: bool,
    /// Run over the boards of this stored set instead of generated deals (the tables the
    /// run solves are stored: needs a server that writes).
    set: Option<String>,
    /// Store the produced deals as this new set (needs a server that writes).
    store: Option<String>,
}

/// A job's answer: `{"report": …, "text": "…"}`, the report as the command's `--json` prints
/// it and as its text (the command's tables).
fn answer(
    report: &(impl serde::Serialize + std::fmt::Display),
) -> Result<serde_json::Value, Error> {
    Ok(json!({ "report": crate::jobs::to_json(report)?, "text": report.to_string() }))
}

/// `POST /api/dealer[?wait=true]`: runs the script ([`dealdex::workflow::dealer::run`]) as a
/// job; progress `{"generated": N, "produced": N}`; the answer
/// `{"report": …, "text": "…", "output": "…", "output_truncated": false}`: the report as
/// `dealdex dealer --json` prints it, its text, and what the script's actions printed.
pub async fn dealer(
    State(app): State<App>,
    headers: HeaderMap,
    Post { body: r, wait }: Post<DealerRequest>,
) -> Result<Response, Error> {
    let stored = r.set.is_some() || r.store.is_some();
    if stored {
        app.settings.check_write(&headers)?;
    }
    let script = parse_script(&r.script, r.params)?;
    let swapping = match r.swap {
        0 => Swapping::None,
        2 => Swapping::TwoWay,
        3 => Swapping::ThreeWay,
        n => return Err(Error::bad_request(format!("swap {n}: 0, 2 or 3"))),
    };
    let run = DealerJob {
        generate: r.generate,
        produce: r.produce,
        seed: r.seed,
        quiet: r.quiet,
        script_name: Some("dealdex serve".into()),
        swapping,
        ..DealerJob::default()
    };
    let job = DealerRunJob {
        source: r.set.map(DealSource::Set),
        database: stored.then(|| app.settings.db.clone()),
        store_set: r.store,
        ..DealerRunJob::new(script, run)
    };
    let work: Work = Box::new(move |cx: &Context| {
        let mut job = job;
        job.run.stop = Some(cx.stop());
        let mut out = Capped::default();
        let mut report = dealdex::workflow::dealer::run(&job, &mut out, &mut |p| {
            cx.progress(json!({ "generated": p.generated, "produced": p.produced }));
        })
        .map_err(Error::engine)?;
        // The closing lines (generated, produced, seed, time), as `dealdex dealer` prints them.
        report.run.verbose = true;
        let mut answer = answer(&report)?;
        answer["output"] = String::from_utf8_lossy(&out.bytes).into();
        answer["output_truncated"] = out.truncated.into();
        Ok(answer)
    });
    app.start_job("dealer", work, wait).await
}

/// A dealer script with its parameters `$0` … `$9` (by digit), parsed by dealdex's dealer
/// parser.
fn parse_script(script: &str, params: BTreeMap<String, String>) -> Result<Script, Error> {
    let mut values: [Option<String>; 10] = Default::default();
    for (n, text) in params {
        match n.parse::<usize>() {
            Ok(i) if i < 10 => values[i] = Some(text),
            _ => {
                return Err(Error::bad_request(format!(
                    "parameter {n:?}: a digit 0 to 9"
                )));
            }
        }
    }
    Script::parse_with_params(script, &values).map_err(Error::engine)
}

/// `POST /api/dealer/check`'s body: a script and its parameters, only to be parsed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The script.
    script: String,
    /// Its parameters `$0` … `$9`, by digit.
    #[serde(default)]
    params: BTreeMap<String, String>,
}

/// `POST /api/dealer/check`: parses the script with dealdex's dealer parser and runs
/// nothing (the simulate page's diagnostics as one types); `{"ok": true}`, or `{"ok": false,
/// "error": {"error": message, "class", "position": {"line", "column"}}}` (the error as
/// `POST /api/dealer` would answer it, with 200: a script being typed is no failed request).
pub async fn check(
    Post { body: r, .. }: Post<CheckRequest>,
) -> Result<Json<serde_json::Value>, Error> {
    Ok(Json(match parse_script(&r.script, r.params) {
        Ok(_) => json!({ "ok": true }),
        Err(e) => json!({ "ok": false, "error": e.body() }),
    }))
}

/// A writer that keeps the first [`MAX_OUTPUT_BYTES`] bytes and drops the rest, noting it.
#[derive(Default)]
struct Capped {
    bytes: Vec<u8>,
    truncated: bool,
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = MAX_OUTPUT_BYTES.saturating_sub(self.bytes.len());
        self.bytes.extend_from_slice(&buf[..buf.len().min(room)]);
        self.truncated |= buf.len() > room;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `POST /api/lead`'s body: the contract and the sample (as `dealdex lead`'s options).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeadRequest {
    /// The leader's hand (`AQ4.J.KJ6543.632` or `S:AQ4 H:J D:KJ6543 C:632`); none with `set`.
    hand: Option<String>,
    /// The contract: level, strain, `X` or `XX` (`3NT`, `4SX`).
    contract: String,
    /// The declarer: `N`, `E`, `S` or `W` (the leader is on declarer's left).
    declarer: String,
    /// The vulnerability the scores are counted at (`None`, `NS`, `EW`, `All`; default None).
    vul: Option<String>,
    /// How many deals to deal around the hand (default 1000).
    deals: Option<u64>,
    /// Only deals this query-language expression accepts (the other hands' constraints).
    #[serde(rename = "where")]
    filter: Option<String>,
    /// Only deals this dealer script's condition accepts (its predeal too).
    script: Option<String>,
    /// The seed: 64 hex digits, or with a script dealer's seed number; none: a fresh one.
    seed: Option<String>,
    /// The most deals drawn (the CLI's defaults when none).
    max_draws: Option<u64>,
    /// A sample dealt earlier: a stored set (instead of a hand).
    set: Option<String>,
    /// Store the sample as this new set with its leads (needs a server that writes).
    store: Option<String>,
}

/// The sample a lead request names: dealt around the hand (by the seed, or by the script),
/// or a stored set.
fn lead_sample(r: &LeadRequest) -> Result<LeadSample, Error> {
    match (&r.hand, &r.set) {
        (Some(hand), None) => {
            let script = r
                .script
                .as_deref()
                .map(Script::parse)
                .transpose()
                .map_err(Error::engine)?;
            let spec = LeadAround {
                hand,
                deals: r.deals.unwrap_or(1000),
                seed: r.seed.as_deref(),
                filter: r.filter.as_deref(),
                script,
                max_draws: r.max_draws,
            };
            samples::lead_sample(spec).map_err(Error::engine)
        }
        (None, Some(set)) if r.script.is_none() => {
            Ok(LeadSample::Deals(DealSource::Set(set.clone())))
        }
        _ => Err(Error::bad_request(
            "give a hand (with a seed, a query or a script) or a stored set, not both",
        )),
    }
}

/// `POST /api/lead[?wait=true]`: the lead problem ([`dealdex::workflow::lead::run_in`]) as a
/// job; progress `{"dealt": N}` then `{"solved": N}`; the answer `{"report": …, "text": "…"}`,
/// `dealdex lead --json`'s report and its table.
pub async fn lead(
    State(app): State<App>,
    headers: HeaderMap,
    Post { body: r, wait }: Post<LeadRequest>,
) -> Result<Response, Error> {
    if r.store.is_some() {
        app.settings.check_write(&headers)?;
    }
    let contract = contract(&r.contract, &r.declarer)?;
    let vulnerability = vulnerability(r.vul.as_deref())?.unwrap_or(Vulnerability::None);
    let job = LeadJob {
        contract,
        vulnerability,
        sample: lead_sample(&r)?,
        store: r.store,
        stop: None,
    };
    let db = app.settings.db.clone();
    let work: Work = Box::new(move |cx: &Context| {
        let mut job = job;
        job.stop = Some(cx.stop());
        let report = dealdex::workflow::lead::run_in(&job, &db, &mut |p| match p {
            LeadProgress::Dealt(n) => cx.progress(json!({ "dealt": n })),
            LeadProgress::Solved(n) => cx.progress(json!({ "solved": n })),
        })
        .map_err(Error::engine)?;
        answer(&report)
    });
    app.start_job("lead", work, wait).await
}

/// A contract (`3NT`, `4SX`) and its declarer (`N`, `E`, `S`, `W`), read.
pub(crate) fn contract(text: &str, declarer: &str) -> Result<Contract, Error> {
    let declarer: Seat = declarer.parse().map_err(Error::engine)?;
    Contract::from_pbn(text, declarer).ok_or_else(|| {
        Error::bad_request(format!(
            "contract {text:?}: not a contract (a level 1 to 7, a strain C, D, H, S or NT, then X or XX: 3NT, 4S, 5DX)"
        ))
    })
}

/// A vulnerability's text (`None`, `NS`, `EW`, `All`), parsed by the engine.
fn vulnerability(text: Option<&str>) -> Result<Option<Vulnerability>, Error> {
    text.map(|v| v.parse().map_err(Error::engine)).transpose()
}

/// `POST /api/contracts`' body: the contracts and the deals (as `dealdex contracts`'
/// options).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContractsRequest {
    /// The contracts with their declarers (`3NT:S`, `4HX:N`).
    contracts: Vec<String>,
    /// Only the deals of this stored set.
    set: Option<String>,
    /// Only the deals this query matches (stored ones, or with `count` the dealt ones).
    #[serde(rename = "where")]
    filter: Option<String>,
    /// Deal this many deals instead of reading stored ones.
    count: Option<u64>,
    /// With `count`: the fixed cards (`S:AQ4.KJ52.K83.Q72 N:.Q987..`).
    predeal: Option<String>,
    /// With `count`: the seed, 64 hex digits (none: a fresh one, in the report).
    seed: Option<String>,
    /// With `count` and `where`: the most deals drawn (the CLI's default when none).
    max_draws: Option<u64>,
    /// Score every deal at this vulnerability, not each board's.
    vul: Option<String>,
}

/// The deals a contracts request names: dealt (with `count`), the stored ones a query
/// matches, a stored set, or every stored deal.
fn contracts_source(r: &ContractsRequest) -> Result<DealSource, Error> {
    let spec = ContractsSample {
        count: r.count,
        filter: r.filter.as_deref(),
        predeal: r.predeal.as_deref(),
        seed: r.seed.as_deref(),
        max_draws: r.max_draws,
        set: r.set.clone(),
    };
    samples::contracts_source(&spec, || {
        Ok::<_, dealdex::Error>(DealSource::file_or_stored(
            None,
            Default::default(),
            r.set.clone(),
        ))
    })
    .map_err(Error::engine)
}

/// `POST /api/contracts[?wait=true]`: the comparison
/// ([`dealdex::workflow::contracts::run_in`]) as a job; progress `{"deals": N, "solved": N}`;
/// the answer `{"report": …, "text": "…"}`, `dealdex contracts --json`'s report and its tables.
pub async fn contracts(
    State(app): State<App>,
    Post { body: r, wait }: Post<ContractsRequest>,
) -> Result<Response, Error> {
    let contracts = r
        .contracts
        .iter()
        .map(|c| c.parse::<Contract>().map_err(Error::engine))
        .collect::<Result<Vec<_>, _>>()?;
    let job = ContractsJob {
        source: contracts_source(&r)?,
        contracts,
        vulnerable: vulnerability(r.vul.as_deref())?.map_or(Vulnerable::Board, Vulnerable::Forced),
        stop: None,
        keep_deals: false,
    };
    let db = app.settings.db.clone();
    let work: Work = Box::new(move |cx: &Context| {
        let mut job = job;
        job.stop = Some(cx.stop());
        let report = dealdex::workflow::contracts::run_in(&job, &db, &mut |p| {
            cx.progress(json!({ "deals": p.deals, "solved": p.solved }));
        })
        .map_err(Error::engine)?;
        answer(&report)
    });
    app.start_job("contracts", work, wait).await
}
