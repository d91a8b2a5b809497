//! The JSON API driven in process (tower's `oneshot`) over a small database made by the
//! engine: each answer equals the engine workflow's own report, and the guard refuses what it
//! must.

use std::path::{Path, PathBuf};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use dealdex::workflow::export::ExportJob;
use dealdex::workflow::lookup::LookupJob;
use dealdex::workflow::output::plan_outputs;
use dealdex::workflow::query::{QueryJob, QueryMode};
use dealdex::{Deal, DealIndex, NewSet, ReadOnlyStore, Scheme, Seed, Store};
use dealdex_serve::{App, Settings};
use serde_json::{Value, json};
use tower::ServiceExt;

const HOST: &str = "127.0.0.1:8052";

/// The seed of [`database`]'s deals: board `n` of set `club` is its deal `n + 100`.
fn seed() -> Seed {
    "42".repeat(32).parse().unwrap()
}

/// Board `board` of [`database`]'s set `club`, and its index.
fn club_board(board: u64) -> (Deal, DealIndex) {
    let deal = seed().board_deal(board + 100);
    (deal, DealIndex::from_deal(&deal))
}

/// A database with the set `club` (boards 1..=16 of a fixed seed; boards 1 and 2 solved) and
/// an `<script>`-named set of 4 boards.
fn database() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("d.db");
    let seed = seed();
    let mut store = Store::open(&db).unwrap();
    for (name, boards) in [("club", 16u64), ("<script>", 4)] {
        let keys: Vec<(u64, DealIndex)> = (1..=boards)
            .map(|n| {
                (
                    n,
                    DealIndex::from_deal(&seed.board_deal(n + 100 * (boards % 5))),
                )
            })
            .collect();
        let set = NewSet {
            name: name.into(),
            first_board: 1,
            last_board: boards,
            scheme: Scheme::Pavlicek,
            generator: "test".into(),
            seed_sha256: None,
        };
        store.store_set(&set, &keys).unwrap();
    }
    let tables: Vec<_> = (1..=2)
        .map(|board| {
            let (deal, index) = club_board(board);
            (index, dealdex::dd::solve(&deal))
        })
        .collect();
    store.store_dd(&tables).unwrap();
    (dir, db)
}

fn router(db: &Path, change: impl FnOnce(&mut Settings)) -> Router {
    let mut settings = Settings::new(db.to_owned());
    settings.hosts = Some(Settings::loopback_hosts(8052));
    change(&mut settings);
    App::new(settings).router()
}

/// A GET from the server's own page.
fn get(uri: &str) -> Request<Body> {
    Request::get(uri)
        .header(header::HOST, HOST)
        .body(Body::empty())
        .unwrap()
}

/// A POST of `body` as JSON from the server's own page.
fn post(uri: &str, body: &Value) -> Request<Body> {
    Request::post(uri)
        .header(header::HOST, HOST)
        .header(header::ORIGIN, format!("http://{HOST}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

async fn send(app: &Router, request: Request<Body>) -> (StatusCode, Vec<u8>) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, body.to_vec())
}

async fn send_json(app: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let (status, body) = send(app, request).await;
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&body)));
    (status, value)
}

/// [`database`] and a router on it with the default settings.
fn served() -> (tempfile::TempDir, PathBuf, Router) {
    let (dir, db) = database();
    let app = router(&db, |_| {});
    (dir, db, app)
}

/// The value of `key` in each object of the JSON array `list`, in order.
fn column(list: &Value, key: &str) -> Vec<Value> {
    let list = list
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"));
    list.iter().map(|item| item[key].clone()).collect()
}

/// Asserts that the answer to `request` has status `want` (and a JSON body, as every answer
/// of the API).
async fn expect_status(app: &Router, request: Request<Body>, want: StatusCode) {
    let (status, body) = send_json(app, request).await;
    assert_eq!(status, want, "{body}");
}

#[tokio::test]
async fn a_query_counts_as_the_workflow_and_pages_in_its_order() {
    let (_dir, db, app) = served();
    let expr = "hcp(N) >= 10";
    let job = QueryJob::new(expr, QueryMode::Count).unwrap();
    let store = ReadOnlyStore::open(&db).unwrap();
    let count = dealdex::workflow::query::run(&job, Some(&store), &mut Vec::new())
        .unwrap()
        .count;
    assert!(count > 2, "{count}");
    let all = store.find_deals(&job.query.to_sql(), None, None).unwrap();
    let (status, page) = send_json(
        &app,
        get("/api/query?q=hcp(N)%20%3E%3D%2010&limit=2&offset=1"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["report"]["count"], count);
    assert_eq!(page["report"]["mode"], "count");
    assert_eq!(
        column(&page["deals"], "index"),
        [all[1].0.to_string(), all[2].0.to_string()]
    );
    let north = &page["deals"][0]["hands"][0];
    let deal = all[1].0.to_deal().unwrap();
    let hand = deal.hand(dealdex::Seat::North);
    assert_eq!(north["hcp"], dealdex::features::hcp(hand));
    assert_eq!(north["cards"], hand.to_string());
    assert!(north["hcp"].as_u64().unwrap() >= 10);
}

#[tokio::test]
async fn a_set_scoped_query_lists_boards_with_their_numbers() {
    let (_dir, _, app) = served();
    let (status, page) =
        send_json(&app, get("/api/query?q=hcp(N)%3E%3D0&set=club&limit=100")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["report"]["count"], 16);
    assert_eq!(
        column(&page["deals"], "board"),
        (1..=16).collect::<Vec<u64>>()
    );
}

#[tokio::test]
async fn bad_queries_are_refused_with_their_column() {
    let (_dir, _, app) = served();
    let (status, e) = send_json(&app, get("/api/query?q=hcp(N)%20%3E%3D%3D%201")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["class"], "bad-input");
    assert!(e["position"]["column"].as_u64().is_some(), "{e}");
    expect_status(
        &app,
        get("/api/query?q=hcp(N)%3E1&limit=101"),
        StatusCode::BAD_REQUEST,
    )
    .await;
    expect_status(&app, get("/api/query?limit=1"), StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn a_deal_is_lookups_report_with_its_table_solved_on_demand() {
    let (_dir, db, app) = served();
    for (board, stored) in [(1, true), (5, false)] {
        let (deal, index) = club_board(board);
        let (status, page) = send_json(&app, get(&format!("/api/deal/{index}"))).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let job = LookupJob {
            deal,
            scheme: Scheme::Pavlicek,
            database: db.clone(),
        };
        let mut lookup = dealdex::workflow::lookup::run_in(&job).unwrap();
        assert_eq!(lookup.dd.is_some(), stored);
        assert_eq!(page["solved_now"], !stored);
        let tricks = dealdex::dd::solve(&deal);
        assert_eq!(page["dd"]["tricks"], serde_json::to_value(tricks).unwrap());
        lookup.dd = None;
        let mut expected = serde_json::to_value(&lookup).unwrap();
        let mut got = page.clone();
        expected.as_object_mut().unwrap().remove("dd");
        for k in ["dd", "numbers", "hands", "solved_now"] {
            got.as_object_mut().unwrap().remove(k);
        }
        assert_eq!(got, expected);
        assert_eq!(
            page["numbers"]["andrews"],
            deal.number(Scheme::Andrews).to_string()
        );
        assert_eq!(page["boards"][0]["set"], "club");
    }
    expect_status(&app, get("/api/deal/not-hex"), StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn sets_are_listed_and_exported_as_export_writes_them() {
    let (_dir, db, app) = served();
    let (status, sets) = send_json(&app, get("/api/sets")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(column(&sets["sets"], "name"), ["club", "<script>"]);
    assert!(column(&sets["formats"], "name").contains(&json!("dup")));
    let store = ReadOnlyStore::open(&db).unwrap();
    for (set, to) in [("club", "pbn"), ("club", "dup"), ("<script>", "lin")] {
        let job = ExportJob::new(set, plan_outputs(&[], Some(to), "pbn").unwrap());
        let mut expected = Vec::new();
        dealdex::workflow::export::export(&job, &store, &mut expected).unwrap();
        let uri = format!(
            "/api/sets/{}/export?to={to}",
            set.replace('<', "%3C").replace('>', "%3E")
        );
        let (status, bytes) = send(&app, get(&uri)).await;
        assert_eq!(
            status,
            StatusCode::OK,
            "{}",
            String::from_utf8_lossy(&bytes)
        );
        assert_eq!(bytes, expected, "{set} {to}");
    }
    let (status, e) = send_json(&app, get("/api/sets/nope/export?to=pbn")).await;
    assert_eq!(
        (status, e["class"].as_str()),
        (StatusCode::NOT_FOUND, Some("bad-input"))
    );
    expect_status(
        &app,
        get("/api/sets/club/export?to=nope"),
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn a_dealer_run_reports_as_the_workflow() {
    let (_dir, _, app) = served();
    let script = "produce 5\ncondition hcp(north) >= 15\naction printoneline";
    let body = json!({ "script": script, "seed": 7 });
    let (status, answer) = send_json(&app, post("/api/dealer?wait=true", &body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let job = dealdex::workflow::dealer::DealerRunJob::new(
        dealdex::dealer::Script::parse(script).unwrap(),
        dealdex::dealer::DealerJob {
            seed: Some(7),
            script_name: Some("dealdex serve".into()),
            ..Default::default()
        },
    );
    let mut out = Vec::new();
    let report = dealdex::workflow::dealer::run(&job, &mut out, &mut |_| {}).unwrap();
    assert_eq!(answer["report"]["produced"], 5);
    assert_eq!(answer["report"]["generated"], report.run.generated);
    assert_eq!(answer["output"], String::from_utf8(out).unwrap());
    // A script error names its line and column.
    let body = json!({ "script": "produce 5\ncondition hcp(north) >= \n" });
    let (status, e) = send_json(&app, post("/api/dealer?wait=true", &body)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    assert!(e["position"]["line"].as_u64().is_some(), "{e}");
}

#[tokio::test]
async fn a_lead_problem_reports_as_the_workflow() {
    let (_dir, _, app) = served();
    let seed = "5a".repeat(32);
    let body = json!({ "hand": "AQ4.J.KJ6543.632", "contract": "3NT", "declarer": "S",
                       "deals": 8, "seed": seed });
    let (status, answer) = send_json(&app, post("/api/lead?wait=true", &body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let job = dealdex::workflow::lead::LeadJob {
        contract: dealdex::Contract::from_pbn("3NT", dealdex::Seat::South).unwrap(),
        vulnerability: dealdex::Vulnerability::None,
        sample: dealdex::workflow::lead::LeadSample::Dealt {
            hand: "AQ4.J.KJ6543.632".parse().unwrap(),
            seed: seed.parse().unwrap(),
            deals: 8,
            filter: None,
            max_draws: dealdex::workflow::generate::max_draws(None),
        },
        store: None,
        stop: None,
    };
    let report = dealdex::workflow::lead::run(&job, None, &mut |_| {}).unwrap();
    assert_eq!(
        answer["report"]["cards"],
        serde_json::to_value(&report.cards).unwrap()
    );
    assert_eq!(answer["report"]["deals"], 8);
    let text = answer["text"].as_str().unwrap();
    assert_eq!(text, report.to_string());
    let bad = json!({ "hand": "AQ4.J.KJ6543.632", "contract": "8NT", "declarer": "S" });
    expect_status(
        &app,
        post("/api/lead?wait=true", &bad),
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn contracts_over_a_set_report_as_the_workflow() {
    let (_dir, db, app) = served();
    let body = json!({ "contracts": ["3NT:S", "4H:N"], "set": "club" });
    let (status, answer) = send_json(&app, post("/api/contracts?wait=true", &body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let job = dealdex::workflow::contracts::ContractsJob {
        source: dealdex::workflow::pipeline::DealSource::Set("club".into()),
        contracts: vec!["3NT:S".parse().unwrap(), "4H:N".parse().unwrap()],
        vulnerable: dealdex::workflow::contracts::Vulnerable::Board,
        stop: None,
        keep_deals: false,
    };
    let report = dealdex::workflow::contracts::run_in(&job, &db, &mut |_| {}).unwrap();
    let mut expected = serde_json::to_value(&report).unwrap();
    let mut got = answer["report"].clone();
    for v in [&mut expected, &mut got] {
        v.as_object_mut().unwrap().remove("seconds");
    }
    assert!(answer["text"].as_str().unwrap().contains("3NT"));
    // The standard errors' last bits depend on the order the deals' sums are added in.
    assert!(close(&got, &expected), "{got}\n{expected}");
}

/// `a` and `b` are the same JSON but for numbers that differ in their last bits.
fn close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
        }
        _ => a == b,
    }
}

#[tokio::test]
async fn jobs_stream_their_status_and_stop_when_cancelled() {
    let (_dir, _, app) = served();
    // A condition no deal meets: runs until stopped.
    let body = json!({ "script": "generate 100000000000\ncondition hcp(north) > 37", "seed": 1 });
    let (status, started) = send_json(&app, post("/api/dealer", &body)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{started}");
    assert_eq!(started["state"], "running");
    let id = started["id"].as_u64().unwrap();
    let (status, second) = send_json(&app, post("/api/dealer", &body)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{second}");
    // Two run: a third waits for a slot.
    let (status, e) = send_json(&app, post("/api/dealer", &body)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{e}");
    assert_eq!(e["class"], "busy");
    // Let it report progress, then stop both.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let delete = |id: u64| {
        Request::delete(format!("/api/jobs/{id}"))
            .header(header::HOST, HOST)
            .body(Body::empty())
            .unwrap()
    };
    for id in [id, second["id"].as_u64().unwrap()] {
        expect_status(&app, delete(id), StatusCode::ACCEPTED).await;
    }
    // The stream ends with the last status: stopped.
    let (status, events) = send(&app, get(&format!("/api/jobs/{id}/events"))).await;
    assert_eq!(status, StatusCode::OK);
    let events = String::from_utf8(events).unwrap();
    let last = events
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .next_back()
        .unwrap();
    let last: Value = serde_json::from_str(last).unwrap();
    assert_eq!(last["state"], "stopped", "{events}");
    assert!(last["progress"]["generated"].as_u64().is_some(), "{events}");
    let (status, job) = send_json(&app, get(&format!("/api/jobs/{id}"))).await;
    assert_eq!((status, &job["state"]), (StatusCode::OK, &json!("stopped")));
    expect_status(&app, get("/api/jobs/999"), StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn a_job_past_its_time_is_stopped() {
    let (_dir, db) = database();
    let app = router(&db, |s| s.job_time = Duration::from_millis(300));
    let body = json!({ "script": "generate 100000000000\ncondition hcp(north) > 37", "seed": 1 });
    let (status, e) = send_json(&app, post("/api/dealer?wait=true", &body)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{e}");
    assert_eq!(e["class"], "interrupted");
}

#[tokio::test]
async fn the_guard_refuses_other_hosts_origins_tokens_and_writes() {
    let (_dir, db, app) = served();
    // DNS rebinding: a host name the server does not answer to.
    let rebound = Request::get("/api/sets")
        .header(header::HOST, "evil.example:8052")
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, rebound).await.0, StatusCode::FORBIDDEN);
    // A POST from another origin.
    let mut cross = post("/api/dealer", &json!({ "script": "produce 1" }));
    cross
        .headers_mut()
        .insert(header::ORIGIN, "http://evil.example".parse().unwrap());
    assert_eq!(send(&app, cross).await.0, StatusCode::FORBIDDEN);
    // Storing, on a server that does not write.
    let store = json!({ "script": "produce 1", "store": "mine" });
    let (status, e) = send_json(&app, post("/api/dealer?wait=true", &store)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    // Malformed bodies, a body too large, an unknown field, an unknown endpoint.
    let mut bad = post("/api/lead", &json!({}));
    *bad.body_mut() = Body::from("{not json");
    assert_eq!(send(&app, bad).await.0, StatusCode::BAD_REQUEST);
    let huge = json!({ "script": "x".repeat(dealdex_serve::MAX_BODY_BYTES) });
    assert_eq!(
        send(&app, post("/api/dealer", &huge)).await.0,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    let unknown = json!({ "script": "produce 1", "file": "/etc/passwd" });
    assert_eq!(
        send(&app, post("/api/dealer", &unknown)).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        send(&app, get("/api/../etc/passwd")).await.0,
        StatusCode::NOT_FOUND
    );
    // A token: needed by the API, by header or parameter.
    let app = router(&db, |s| s.token = Some("ab".repeat(32)));
    assert_eq!(send(&app, get("/api/sets")).await.0, StatusCode::FORBIDDEN);
    let with = format!("/api/sets?token={}", "ab".repeat(32));
    assert_eq!(send(&app, get(&with)).await.0, StatusCode::OK);
    let mut with = get("/api/sets");
    with.headers_mut().insert(
        dealdex_serve::TOKEN_HEADER,
        "ab".repeat(32).parse().unwrap(),
    );
    assert_eq!(send(&app, with).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_writing_server_stores_a_dealer_run_from_its_own_page() {
    let (_dir, db) = database();
    let app = router(&db, |s| s.write = true);
    let body =
        json!({ "script": "produce 3\ncondition hcp(north) >= 12", "seed": 3, "store": "mine" });
    let mut no_origin = post("/api/dealer?wait=true", &body);
    no_origin.headers_mut().remove(header::ORIGIN);
    assert_eq!(send(&app, no_origin).await.0, StatusCode::FORBIDDEN);
    let (status, answer) = send_json(&app, post("/api/dealer?wait=true", &body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["report"]["stored_set"]["boards"], 3);
    let store = ReadOnlyStore::open(&db).unwrap();
    assert_eq!(store.set("mine").unwrap().unwrap().last_board, 3);
}

#[tokio::test]
async fn pages_are_the_shell_and_assets_are_embedded() {
    let (_dir, _, app) = served();
    for path in [
        "/",
        "/deal/0EDCCBA0976F2DA4945D8E9DC0",
        "/sets",
        "/sets/%3Cscript%3E",
        "/simulate",
        "/lead",
        "/contracts",
    ] {
        let response = app.clone().oneshot(get(path)).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let policy = response.headers()[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap();
        assert!(policy.contains("script-src 'self'"), "{policy}");
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        assert!(
            String::from_utf8_lossy(&body).contains("/assets/app.js"),
            "{path}"
        );
    }
    let response = app.clone().oneshot(get("/assets/common.js")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
    for missing in ["/assets/nope.js", "/assets/..%2FCargo.toml", "/nope"] {
        assert_eq!(
            send(&app, get(missing)).await.0,
            StatusCode::NOT_FOUND,
            "{missing}"
        );
    }
}

#[tokio::test]
async fn a_query_downloads_as_query_writes_it() {
    let (_dir, db, app) = served();
    let job = QueryJob::new(
        "hcp(N) >= 10",
        QueryMode::Find {
            format: dealdex::formats::named("pbn").unwrap(),
            limit: Some(dealdex_serve::MAX_DOWNLOAD),
        },
    )
    .unwrap();
    let store = ReadOnlyStore::open(&db).unwrap();
    let mut expected = Vec::new();
    dealdex::workflow::query::run(&job, Some(&store), &mut expected).unwrap();
    let (status, bytes) = send(&app, get("/api/query/export?q=hcp(N)%20%3E%3D%2010&to=pbn")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!expected.is_empty());
    assert_eq!(bytes, expected);
}

/// A query string's value, percent-encoded (every byte but letters and digits).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b.is_ascii_alphanumeric() {
            true => (b as char).to_string(),
            false => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn facets_count_the_matches_and_their_terms_narrow_the_count() {
    let (_dir, _, app) = served();
    let expr = "hcp(N) >= 0";
    let (status, report) = send_json(
        &app,
        get(&format!("/api/facets?q={}&set=club", encode(expr))),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(
        (report["counted"].as_u64(), report["complete"].as_bool()),
        (Some(16), Some(true))
    );
    let facets = report["facets"].as_array().unwrap();
    let hcp_s = facets.iter().find(|f| f["name"] == "hcp(S)").unwrap();
    let value = &hcp_s["values"][0];
    // The term narrows the query to the count the facet gave.
    let narrowed = format!("{expr} and {}", value["term"].as_str().unwrap());
    let (_, page) = send_json(
        &app,
        get(&format!("/api/query?q={}&set=club", encode(&narrowed))),
    )
    .await;
    assert_eq!(page["report"]["count"], value["count"]);
    // Two boards are solved: North-South's notrump tricks of two, 14 "not solved".
    let dd = facets.iter().find(|f| f["name"] == "dd(NS, nt)").unwrap();
    let unsolved = dd["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["term"].is_null());
    assert_eq!(unsolved.unwrap()["count"], 14);
    let (status, e) = send_json(&app, get("/api/facets?q=hcp(N)%3E%3D0&limit=1000001")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
}

#[tokio::test]
async fn sql_answers_as_sql_json_and_keeps_its_guards() {
    let (_dir, db, app) = served();
    let sql = "SELECT board, pbn(deal) AS deal FROM set_boards JOIN sets ON sets.id = set_id \
               WHERE name = 'club' ORDER BY board LIMIT 3";
    let (status, answer) = send_json(&app, get(&format!("/api/sql?sql={}", encode(sql)))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let store = ReadOnlyStore::open(&db).unwrap();
    let mut cli = Vec::new();
    let job = dealdex::workflow::sql::SqlJob::new(sql);
    dealdex::workflow::sql::write_result(&job, &store, true, &mut cli).unwrap();
    let cli: Value = serde_json::from_slice(&cli).unwrap();
    assert_eq!(answer["columns"], cli["columns"]);
    assert_eq!(answer["rows"], cli["rows"]);
    assert_eq!(answer["truncated"], false);
    for refused in [
        "DELETE FROM deals",
        "ATTACH DATABASE '/tmp/x.db' AS x",
        "PRAGMA journal_mode = DELETE",
        "DROP TABLE sets",
    ] {
        let (status, e) = send_json(&app, get(&format!("/api/sql?sql={}", encode(refused)))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}: {e}");
        assert_eq!(e["class"], "bad-input");
    }
    // A long result is cut at the row limit, and says so.
    let many = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5000) SELECT x FROM c";
    let (status, answer) = send_json(&app, get(&format!("/api/sql?sql={}", encode(many)))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer["rows"].as_array().unwrap().len(),
        dealdex_serve::MAX_SQL_ROWS
    );
    assert_eq!(
        (answer["truncated"].as_bool(), answer["columns"][0].as_str()),
        (Some(true), Some("x"))
    );
}

#[tokio::test]
async fn errors_name_the_database_by_its_file_name_only() {
    let (dir, db) = database();
    let app = router(&db, |_| {});
    let (status, e) = send(
        &app,
        get(&format!("/api/sql?sql={}", encode("DELETE FROM deals"))),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let e = String::from_utf8(e).unwrap();
    assert!(
        e.contains("d.db: read-only: DELETE from deals is refused"),
        "{e}"
    );
    let folder = dir.path().display().to_string();
    assert!(!e.contains(&folder), "{e}");
    // Straight from the engine, the message names the whole path.
    let store = ReadOnlyStore::open(&db).unwrap();
    let engine = store.prepare("DELETE FROM deals").unwrap_err().to_string();
    assert!(engine.contains(&folder), "{engine}");
}

#[tokio::test]
async fn a_transaction_the_sql_box_leaves_open_is_not_reused() {
    let (_dir, db, app) = served();
    let count = "SELECT count(*) FROM deals";
    let counted = |app: Router| async move {
        let (status, a) = send_json(&app, get(&format!("/api/sql?sql={}", encode(count)))).await;
        assert_eq!(status, StatusCode::OK, "{a}");
        a["rows"][0][0].as_u64().unwrap()
    };
    let before = counted(app.clone()).await;
    // BEGIN, then reads: without the pool's check, a connection would keep this snapshot.
    let (status, a) = send_json(&app, get(&format!("/api/sql?sql={}", encode("BEGIN")))).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    for _ in 0..4 {
        assert_eq!(counted(app.clone()).await, before);
    }
    let key = DealIndex::from_deal(&"9f".repeat(32).parse::<Seed>().unwrap().board_deal(1));
    Store::open(&db).unwrap().insert_deals(&[key]).unwrap();
    for _ in 0..8 {
        assert_eq!(counted(app.clone()).await, before + 1);
    }
}

#[tokio::test]
async fn a_deals_leads_agree_with_its_table() {
    let (_dir, _, app) = served();
    let (deal, index) = club_board(3);
    let uri = format!("/api/deal/{index}/leads?contract=4H&declarer=E");
    let (status, answer) = send_json(&app, get(&uri)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        (answer["leader"].as_str(), answer["to_set"].as_u64()),
        (Some("S"), Some(4))
    );
    let leads = answer["leads"].as_array().unwrap();
    let south = deal.hand(dealdex::Seat::South).to_string();
    assert_eq!(leads.len(), 13, "{south}");
    // The best lead holds declarer to the table's tricks: the defence takes 13 minus them.
    let table = dealdex::dd::solve(&deal);
    let best = leads
        .iter()
        .map(|l| l["tricks"].as_u64().unwrap())
        .max()
        .unwrap();
    let hearts_by_east = table.tricks(
        dealdex::Seat::East,
        dealdex::Strain::Trumps(dealdex::Suit::Hearts),
    );
    assert_eq!(best, 13 - u64::from(hearts_by_east));
    let bad = format!("/api/deal/{index}/leads?contract=8NT&declarer=S");
    expect_status(&app, get(&bad), StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn a_play_through_follows_the_cards_and_refuses_a_revoke() {
    let (_dir, _, app) = served();
    let (deal, index) = club_board(3);
    let table = dealdex::dd::solve(&deal);
    let uri =
        |played: &str| format!("/api/deal/{index}/play?contract=3NT&declarer=N&played={played}");
    let (status, start) = send_json(&app, get(&uri(""))).await;
    assert_eq!(status, StatusCode::OK, "{start}");
    assert_eq!(start["next"], "E");
    let cards = start["cards"].as_array().unwrap();
    let tricks = |c: &Value| c["tricks"].as_u64().unwrap();
    // The defence's best lead holds declarer's side to the table's tricks.
    let best = cards.iter().map(tricks).min().unwrap();
    assert_eq!(
        best,
        u64::from(table.tricks(dealdex::Seat::North, dealdex::Strain::NoTrump))
    );
    let lead = cards[0]["card"].as_str().unwrap();
    let (_, after) = send_json(&app, get(&uri(lead))).await;
    assert_eq!(
        (after["next"].as_str(), after["trick"][0].as_str()),
        (Some("S"), Some(lead))
    );
    let (status, e) = send_json(&app, get(&uri(&format!("{lead},{lead}")))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    assert!(e["error"].as_str().unwrap().contains("card 2"), "{e}");
}

#[tokio::test]
async fn a_sets_records_and_statistics_are_the_workflows() {
    use dealdex::workflow::pipeline::DealSource;
    use dealdex::workflow::records::{RecordsJob, SheetFormat};
    let (dir, db) = database();
    let app = router(&db, |_| {});
    let (status, pdf) = send(&app, get("/api/sets/club/records.pdf")).await;
    assert_eq!(status, StatusCode::OK);
    let out = dir.path().join("club.pdf");
    let job = RecordsJob::new(
        DealSource::Set("club".into()),
        out.clone(),
        SheetFormat::Pdf,
    );
    dealdex::workflow::records::run_in(&job, &db, &mut |_| {}).unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    assert_eq!(pdf, std::fs::read(&out).unwrap());
    let (status, e) = send_json(&app, get("/api/sets/club/records.pdf?per_page=5")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    let (status, e) = send_json(&app, get("/api/sets/nosuch/records.pdf")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");

    let job = dealdex::workflow::stats::StatsJob::new(DealSource::Set("club".into()));
    let report = dealdex::workflow::stats::run_in(&job, &db).unwrap().report;
    let (status, stats) = send_json(&app, get("/api/sets/club/stats")).await;
    assert_eq!(status, StatusCode::OK, "{stats}");
    // Both through JSON text (a float read back from text may differ in its last bit).
    let want: Value = serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
    assert_eq!(stats["report"], want);
    assert_eq!(stats["text"], report.to_string());
    let (status, svg) = send(&app, get("/api/sets/club/stats.svg")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(String::from_utf8(svg).unwrap(), report.to_svg());
}

#[tokio::test]
async fn a_script_is_checked_without_running() {
    let (_dir, _, app) = served();
    let check = |script: &str| post("/api/dealer/check", &json!({ "script": script }));
    let (status, ok) = send_json(&app, check("produce 3\ncondition hcp(north) >= 20\n")).await;
    assert_eq!(
        (status, ok["ok"].as_bool()),
        (StatusCode::OK, Some(true)),
        "{ok}"
    );
    let (status, bad) = send_json(&app, check("produce 3\ncondition hcp(north) >= )\n")).await;
    assert_eq!(
        (status, bad["ok"].as_bool()),
        (StatusCode::OK, Some(false)),
        "{bad}"
    );
    assert_eq!(bad["error"]["position"]["line"], 2, "{bad}");
    assert!(
        bad["error"]["position"]["column"].as_u64().is_some(),
        "{bad}"
    );
    // The same error as a run of the script gives, at once.
    let run = post(
        "/api/dealer",
        &json!({ "script": "produce 3\ncondition hcp(north) >= )\n" }),
    );
    let (status, e) = send_json(&app, run).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(e, bad["error"]);
    // Nothing ran.
    let (_, jobs) = send_json(&app, get("/api/jobs")).await;
    assert_eq!(jobs.as_array().map(Vec::len), Some(0), "{jobs}");
}

#[tokio::test]
async fn a_writing_server_generates_a_set_and_keeps_its_seed_beside_the_database() {
    let (dir, db) = database();
    let body = json!({ "boards": 8, "name": "fresh" });
    // A read-only server, and a request from another origin, are refused.
    let read_only = router(&db, |_| {});
    assert_eq!(
        send(&read_only, post("/api/generate", &body)).await.0,
        StatusCode::FORBIDDEN
    );
    let app = router(&db, |s| s.write = true);
    let mut elsewhere = post("/api/generate", &body);
    elsewhere
        .headers_mut()
        .insert(header::ORIGIN, "http://evil.example".parse().unwrap());
    assert_eq!(send(&app, elsewhere).await.0, StatusCode::FORBIDDEN);
    let (status, e) = send_json(&app, post("/api/generate", &json!({ "boards": 1000 }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");

    let (status, report) = send_json(&app, post("/api/generate", &body)).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report["set"]["name"], "fresh", "{report}");
    assert!(report["seed_file"].is_null(), "{report}");
    let store = ReadOnlyStore::open(&db).unwrap();
    let info = store.set("fresh").unwrap().unwrap();
    assert_eq!((info.first_board, info.last_board), (1, 8));
    // The key file: beside the database, private, and it regenerates the set's deals.
    let keys: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "seed"))
        .collect();
    assert_eq!(keys.len(), 1, "{keys:?}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&keys[0]).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let seed = dealdex::workflow::generate::read_seed_file(&keys[0]).unwrap();
    let board_3 = store
        .find_deals(
            &dealdex::query::Query::parse("hcp(N) >= 0")
                .unwrap()
                .to_sql(),
            Some("fresh"),
            None,
        )
        .unwrap()[2]
        .0;
    assert_eq!(board_3, DealIndex::from_deal(&seed.board_deal(3)));
    // The seed is in no answer.
    let seed_hex = seed.to_string();
    assert!(!report.to_string().contains(&seed_hex));
}

/// A database of two vugraph matches (tests/fixtures/vugraph) as sets `m-1` and `m-2`, the
/// first judged (`dealdex judge`'s workflow), the second not.
fn played_database() -> (tempfile::TempDir, PathBuf) {
    use dealdex::workflow::import::{ImportJob, import};
    use dealdex::workflow::pipeline::ReadAs;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("played.db");
    let vugraph = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/vugraph");
    let mut store = Store::open(&db).unwrap();
    for (set, file) in [("m-1", "04020.lin"), ("m-2", "00050.lin")] {
        let job = ImportJob {
            set: Some(set.into()),
            ..ImportJob::for_paths(&[vugraph.join(file)], ReadAs::named(None, None).unwrap())
        };
        import(&job, &mut store, &mut |_| {}).unwrap();
        if set == "m-1" {
            dealdex::judge::judge(&Default::default(), &mut store, &mut |_| {}).unwrap();
        }
    }
    (dir, db)
}

/// The played boards: a set's and a deal's lists are the played workflow's reports, a board
/// is its report judged now when not stored, and a judgement made now equals the solver's
/// analysis of the board's play.
#[tokio::test]
async fn played_boards_are_the_played_workflows_reports() {
    use dealdex::PlayedSelection;
    use dealdex::dd::{PlayedBoard, analyse_play};
    use dealdex::workflow::played::{PlayedJob, read, run};
    let (_dir, db) = played_database();
    let app = router(&db, |_| {});
    let store = ReadOnlyStore::open(&db).unwrap();
    let mut seen = (0, 0, 0);
    for set in ["m-1", "m-2"] {
        let (status, list) = send_json(&app, get(&format!("/api/played?set={set}"))).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        let report = read(&PlayedSelection::Set(set.into()), &store).unwrap();
        assert_eq!(list, serde_json::to_value(&report).unwrap());
        assert!(report.boards.len() > 10, "{set}: {}", report.boards.len());
        for b in &report.boards {
            let (status, page) = send_json(&app, get(&format!("/api/played/{}", b.table.id))).await;
            assert_eq!(status, StatusCode::OK, "{page}");
            let job = PlayedJob {
                selection: PlayedSelection::Id(b.table.id),
                judge_now: true,
            };
            let expected = run(&job, &store).unwrap().boards.pop().unwrap();
            assert_eq!(page, serde_json::to_value(&expected).unwrap());
            assert_eq!(page["set"], set);
            // Stored in m-1, judged now in m-2, for every board with play and a contract.
            assert_eq!(
                page["judged_now"],
                set == "m-2" && expected.analysis.is_some()
            );
            if let Some(a) = &expected.analysis {
                let costs: u64 = expected.cards.iter().map(|c| c.cost.unwrap() as u64).sum();
                assert_eq!(costs, u64::from(a.declarer_lost + a.defence_lost));
                assert_eq!(expected.cards.len() + 1, a.tricks.len());
                let deal: dealdex::Deal = expected.deal.parse().unwrap();
                let declarer = expected.table.declarer.unwrap();
                let contract = dealdex::Contract::from_pbn(
                    expected.table.contract.as_deref().unwrap(),
                    declarer,
                )
                .unwrap();
                let board = PlayedBoard {
                    deal,
                    strain: contract.strain,
                    declarer,
                    cards: expected
                        .cards
                        .iter()
                        .map(|c| c.card.parse().unwrap())
                        .collect(),
                };
                if set == "m-2" {
                    assert_eq!(
                        &analyse_play(&board).unwrap(),
                        a,
                        "played board {}",
                        b.table.id
                    );
                }
                seen.0 += 1;
            } else if expected.fault.is_some() {
                seen.1 += 1;
            } else {
                seen.2 += 1;
            }
        }
        // Each explanation (LIN's `an|`) with the call it explains, as 00050.lin has them.
        let mut notes: Vec<(String, String)> = report
            .boards
            .iter()
            .flat_map(|b| b.auction.iter().flatten())
            .filter_map(|c| Some((c.call.clone(), c.note.clone()?)))
            .collect();
        notes.sort();
        if set == "m-2" {
            let want = [("2S", "Ace M"), ("3H", "!s"), ("3S", "6 !h + 5 !s")];
            let want: Vec<(String, String)> = want
                .iter()
                .map(|(c, n)| (c.to_string(), n.to_string()))
                .collect();
            assert_eq!(notes, want);
        }
        // The tables that played a board's deal: both rooms of the match where both played.
        let index = &report.boards[0].index;
        let (status, tables) = send_json(&app, get(&format!("/api/played?deal={index}"))).await;
        assert_eq!(status, StatusCode::OK);
        let expected = read(
            &PlayedSelection::Deal(DealIndex::parse_hex(index).unwrap()),
            &store,
        )
        .unwrap();
        assert_eq!(tables, serde_json::to_value(&expected).unwrap());
        assert!(expected.boards.iter().all(|b| &b.index == index));
    }
    // Judged boards in both sets, and boards without play (no fault: an illegal card's play
    // is kept up to the trick before it).
    assert!(seen.0 > 20 && seen.2 >= 1, "{seen:?}");
    for (uri, status) in [
        ("/api/played/999999", StatusCode::NOT_FOUND),
        ("/api/played/x", StatusCode::BAD_REQUEST),
        ("/api/played", StatusCode::BAD_REQUEST),
        ("/api/played?deal=00&set=m-1", StatusCode::BAD_REQUEST),
    ] {
        assert_eq!(send(&app, get(uri)).await.0, status, "{uri}");
    }
    assert_eq!(send(&app, get("/played/1")).await.0, StatusCode::OK);
}
