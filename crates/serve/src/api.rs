//! The reading endpoints of the JSON API: a query's count and a page of its deals, one deal
//! with everything known of it, the stored sets, a set's export. Each reads the database
//! through one of the server's open read-only connections ([`crate::pool`]) on the blocking
//! pool.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use dealdex::dd::TablePar;
use dealdex::features::{Shape, hcp};
use dealdex::solve::{SolveItem, SolveJob, SolveSource};
use dealdex::workflow::export::{ExportJob, ExportReport};
use dealdex::workflow::lookup::{DdView, LookupJob, LookupReport};
use dealdex::workflow::output::Writing;
use dealdex::workflow::query::{QueryJob, QueryMode, QueryReport};
use dealdex::{Deal, DealIndex, Scheme, Seat, StoreError};
use serde::{Deserialize, Serialize};

use crate::extract::{DealAt, Params};
use crate::pool::Lane;
use crate::{App, Error, blocking};

/// The most deals one query page holds.
pub const MAX_PAGE: u64 = 100;

/// The deepest page offset: a page past it is refused (walking that many matches a request
/// is slow; narrow the query instead).
pub const MAX_OFFSET: u64 = 1_000_000;

/// `GET /api/query`'s parameters.
#[derive(Debug, Deserialize)]
pub struct QueryParams {
    /// The expression of the query language (docs/query.md).
    q: String,
    /// Deals on the page (default 20, at most [`MAX_PAGE`]).
    limit: Option<u64>,
    /// Matches skipped before the page (default 0, at most [`MAX_OFFSET`]).
    offset: Option<u64>,
    /// Only the boards of this stored set (in board order, with their numbers).
    set: Option<String>,
}

/// `GET /api/query`'s answer: the count as `dealdex query --count --json` reports it, and a
/// page of the matching deals in the order `dealdex query` lists them.
#[derive(Debug, Serialize)]
pub struct QueryPage {
    /// The query workflow's report (mode `count`; `count` is every match's).
    pub report: QueryReport,
    /// Matches skipped before the page.
    pub offset: u64,
    /// The page's size asked for.
    pub limit: u64,
    /// The page's deals.
    pub deals: Vec<DealSummary>,
}

/// A deal as a page lists it: index, board (in a set), the PBN deal string and each hand.
#[derive(Debug, Serialize)]
pub struct DealSummary {
    /// The 13-byte index, 26 hex digits.
    pub index: String,
    /// The board number, for a set's board.
    pub board: Option<u64>,
    /// The PBN deal string, North first.
    pub deal: String,
    /// The hands, North, East, South, West.
    pub hands: Vec<HandSummary>,
}

/// One hand of a [`DealSummary`].
#[derive(Debug, Serialize)]
pub struct HandSummary {
    /// The seat: `N`, `E`, `S` or `W`.
    pub seat: char,
    /// The cards in PBN's `S.H.D.C` notation, ranks descending.
    pub cards: String,
    /// High-card points (A 4, K 3, Q 2, J 1).
    pub hcp: u8,
    /// The sorted shape, longest first (`5-3-3-2`).
    pub shape: String,
    /// The lengths in suit order ♠ ♥ ♦ ♣ (`5332`: five spades …).
    pub pattern: String,
}

impl DealSummary {
    /// The summary of `deal` (at `board`).
    pub fn of(deal: &Deal, board: Option<u64>) -> DealSummary {
        DealSummary {
            index: DealIndex::from_deal(deal).to_string(),
            board,
            deal: deal.to_string(),
            hands: hands(deal),
        }
    }
}

/// The four hands of `deal`, North first.
fn hands(deal: &Deal) -> Vec<HandSummary> {
    Seat::ALL
        .iter()
        .map(|&seat| {
            let hand = deal.hand(seat);
            let shape = Shape::of(hand);
            HandSummary {
                seat: seat.letter(),
                cards: hand.to_string(),
                hcp: hcp(hand),
                shape: shape.to_string(),
                pattern: shape.pattern(),
            }
        })
        .collect()
}

/// `GET /api/query?q=EXPR&limit=N&offset=K&set=NAME`: [`QueryPage`].
pub async fn query(
    State(app): State<App>,
    Params(p): Params<QueryParams>,
) -> Result<Json<QueryPage>, Error> {
    let limit = p.limit.unwrap_or(20);
    let offset = p.offset.unwrap_or(0);
    if limit > MAX_PAGE {
        return Err(Error::bad_request(format!(
            "limit {limit}: a page holds at most {MAX_PAGE} deals"
        )));
    }
    if offset > MAX_OFFSET {
        return Err(Error::bad_request(format!(
            "offset {offset}: pages go at most {MAX_OFFSET} matches deep (narrow the query)"
        )));
    }
    let mut job = QueryJob::new(&p.q, QueryMode::Count).map_err(Error::engine)?;
    job.set = p.set;
    app.stores
        .read(Lane::Scan, move |store| {
            let report = dealdex::workflow::query::run(&job, Some(store), &mut std::io::sink())
                .map_err(Error::engine)?;
            let mut found = Vec::new();
            let mut seen = 0u64;
            let filter = job.query.to_sql();
            store
                .for_each_match(
                    &filter,
                    job.set.as_deref(),
                    Some(offset + limit),
                    |key, b| {
                        if seen >= offset {
                            found.push((key, b));
                        }
                        seen += 1;
                        Ok::<(), StoreError>(())
                    },
                )
                .map_err(Error::engine)?;
            let deals = found
                .into_iter()
                .map(|(key, board)| {
                    Ok(DealSummary::of(
                        &key.to_deal().map_err(Error::engine)?,
                        board,
                    ))
                })
                .collect::<Result<_, Error>>()?;
            Ok(Json(QueryPage {
                report,
                offset,
                limit,
                deals,
            }))
        })
        .await
}

/// `GET /api/deal/<index>`'s answer: `dealdex lookup --json`'s report (its table and par
/// solved now when none is stored), the three hand-record numbers and the hands.
#[derive(Debug, Serialize)]
pub struct DealPage {
    /// What `dealdex lookup` reports (its number in Pavlicek's scheme).
    #[serde(flatten)]
    pub lookup: LookupReport,
    /// The hand-record number in each scheme, as decimal strings (they reach 2^96).
    pub numbers: Numbers,
    /// The hands, North first.
    pub hands: Vec<HandSummary>,
    /// True when the table was solved for this request (no table is stored for the deal).
    pub solved_now: bool,
}

/// A deal's hand-record numbers (FORMATS.md §1).
#[derive(Debug, Serialize)]
pub struct Numbers {
    /// Pavlicek's (§1a).
    pub pavlicek: String,
    /// Andrews' (§1b).
    pub andrews: String,
    /// Big Deal's Gödel number, 0-based (§1c).
    pub bigdeal: String,
}

/// `GET /api/deal/<index>`: [`DealPage`]. Par is for the first board the deal is stored at,
/// else dealer North, nobody vulnerable (as `dealdex lookup` and `dealdex solve` give it).
pub async fn deal(State(app): State<App>, DealAt(deal): DealAt) -> Result<Json<DealPage>, Error> {
    let job = LookupJob {
        deal,
        scheme: Scheme::Pavlicek,
        database: app.settings.db.clone(),
    };
    let mut lookup = match app.settings.db.exists() {
        true => {
            app.stores
                .read(Lane::Quick, move |store| {
                    dealdex::workflow::lookup::run(&job, Some(store)).map_err(Error::engine)
                })
                .await?
        }
        false => dealdex::workflow::lookup::run(&job, None).map_err(Error::engine)?,
    };
    let solved_now = lookup.dd.is_none();
    if solved_now {
        // Solved without holding a connection: a solve takes far longer than a read.
        let board = lookup.boards.first().map(|b| b.board);
        lookup.dd = Some(blocking(move || solve(deal, board)).await?);
    }
    Ok(Json(DealPage {
        numbers: Numbers {
            pavlicek: deal.number(Scheme::Pavlicek).to_string(),
            andrews: deal.number(Scheme::Andrews).to_string(),
            bigdeal: deal.number(Scheme::BigDeal).to_string(),
        },
        hands: hands(&deal),
        lookup,
        solved_now,
    }))
}

/// `deal`'s table and par (for `board`'s dealer and vulnerability, else North and none),
/// solved by the solve workflow without a database (nothing is stored).
fn solve(deal: Deal, board: Option<u64>) -> Result<DdView, Error> {
    let job = SolveJob {
        source: SolveSource::Items(vec![SolveItem::single(deal, board, None, None)]),
        batch: 1,
    };
    let mut view = None;
    dealdex::solve::run(&job, None, &mut |_| {}, &mut |item, tricks| {
        view = Some(DdView {
            tricks: *tricks,
            board,
            dealer: item.dealer,
            vul: item.vul,
            par: tricks.par(item.dealer, item.vul),
        });
        Ok::<(), dealdex::Error>(())
    })
    .map_err(Error::engine)?;
    view.ok_or_else(|| Error::bad_request("the deal was not solved"))
}

/// `GET /api/sets`' answer: the stored sets, oldest first, and the formats a set exports to.
#[derive(Debug, Serialize)]
pub struct SetsPage {
    /// The stored sets.
    pub sets: Vec<SetView>,
    /// Every format of the registry (`export?to=NAME`).
    pub formats: Vec<FormatView>,
    /// Whether this server writes to its database (`--write`: `POST /api/generate` and the
    /// jobs' `store` are allowed).
    pub writes: bool,
}

/// A stored set.
#[derive(Debug, Serialize)]
pub struct SetView {
    /// Its name.
    pub name: String,
    /// Its first board number.
    pub first_board: u64,
    /// Its last board number.
    pub last_board: u64,
    /// The numbering scheme of its boards' numbers.
    pub scheme: String,
    /// What made it (name and version).
    pub generator: String,
    /// When it was stored (UTC, `YYYY-MM-DDTHH:MM:SSZ`).
    pub created_at: String,
    /// The SHA-256 of its seed in hex, when one was recorded (the seed itself never is).
    pub seed_sha256: Option<String>,
}

/// A deal-file format.
#[derive(Debug, Serialize)]
pub struct FormatView {
    /// Its registry name (`pbn`, `dup`, …).
    pub name: &'static str,
    /// Its files' extension.
    pub extension: &'static str,
    /// One line saying what it is.
    pub description: &'static str,
}

/// `GET /api/sets`: [`SetsPage`].
pub async fn sets(State(app): State<App>) -> Result<Json<SetsPage>, Error> {
    let writes = app.settings.write;
    app.stores
        .read(Lane::Quick, move |store| {
            let mut sets = Vec::new();
            for name in store.set_names().map_err(Error::engine)? {
                let Some(info) = store.set(&name).map_err(Error::engine)? else {
                    continue;
                };
                sets.push(SetView {
                    name: info.name,
                    first_board: info.first_board,
                    last_board: info.last_board,
                    scheme: info.scheme.to_string(),
                    generator: info.generator,
                    created_at: info.created_at,
                    seed_sha256: info
                        .seed_sha256
                        .map(|h| h.iter().map(|b| format!("{b:02x}")).collect()),
                });
            }
            let formats = dealdex::formats::registry()
                .iter()
                .map(|f| {
                    let info = f.info();
                    FormatView {
                        name: info.name,
                        extension: info.extensions.first().copied().unwrap_or(info.name),
                        description: info.description,
                    }
                })
                .collect();
            Ok(Json(SetsPage {
                sets,
                formats,
                writes,
            }))
        })
        .await
}

/// `GET /api/sets/<name>/export`'s parameters.
#[derive(Debug, Deserialize)]
pub struct ExportParams {
    /// The format's registry name (default `pbn`).
    to: Option<String>,
    /// The event name, for the formats that carry one (default: the set's name).
    event: Option<String>,
    /// Hide the cards from dealing machines' displays where the format can.
    #[serde(default)]
    blind: bool,
}

/// `GET /api/sets/<name>/export?to=FORMAT`: the bytes `dealdex export --set NAME --to FORMAT`
/// writes to standard output, as a download named `NAME.EXT` (the export's report in the
/// `X-Dealdex-Report` header, as JSON).
pub async fn export(
    State(app): State<App>,
    Path(name): Path<String>,
    Params(p): Params<ExportParams>,
) -> Result<Response, Error> {
    let (bytes, report, extension) = app
        .stores
        .read(Lane::Scan, move |store| {
            let outputs = dealdex::workflow::output::plan_outputs(&[], p.to.as_deref(), "pbn")
                .map_err(Error::engine)?;
            let extension = outputs[0]
                .format
                .info()
                .extensions
                .first()
                .copied()
                .unwrap_or("txt");
            if store.set(&name).map_err(Error::engine)?.is_none() {
                return Err(Error::not_found(format!("no set named {name:?}")));
            }
            let job = ExportJob {
                writing: Writing {
                    event: p.event,
                    blind: p.blind,
                    split: false,
                },
                ..ExportJob::new(&name, outputs)
            };
            let mut bytes = Vec::new();
            let report: ExportReport = dealdex::workflow::export::export(&job, store, &mut bytes)
                .map_err(Error::engine)?;
            Ok((bytes, report, extension))
        })
        .await?;
    let file = format!("{}.{extension}", safe_file_name(&report.set));
    Ok(download(bytes, &file, &report))
}

/// A download: `bytes` as the file `file` (a safe name), with `report` (the workflow's, as
/// JSON) in the `X-Dealdex-Report` header.
pub(crate) fn download(bytes: Vec<u8>, file: &str, report: &impl Serialize) -> Response {
    let report = serde_json::to_string(report).unwrap_or_default();
    (
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
            (
                header::HeaderName::from_static("x-dealdex-report"),
                ascii(&report),
            ),
        ],
        bytes,
    )
        .into_response()
}

/// The most deals a query's download holds (its default limit).
pub const MAX_DOWNLOAD: u64 = 100_000;

/// `GET /api/query/export`'s parameters.
#[derive(Debug, Deserialize)]
pub struct QueryExportParams {
    /// The expression.
    q: String,
    /// The format's registry name (default `pbn`).
    to: Option<String>,
    /// At most this many deals (default and at most [`MAX_DOWNLOAD`]).
    limit: Option<u64>,
    /// Only the boards of this stored set.
    set: Option<String>,
}

/// `GET /api/query/export?q=EXPR&to=FORMAT`: the bytes `dealdex query EXPR --to FORMAT
/// --limit N` writes, as a download named `query.EXT` (the query's report in the
/// `X-Dealdex-Report` header: `count` is the deals written).
pub async fn query_export(
    State(app): State<App>,
    Params(p): Params<QueryExportParams>,
) -> Result<Response, Error> {
    let limit = p.limit.unwrap_or(MAX_DOWNLOAD);
    if limit > MAX_DOWNLOAD {
        return Err(Error::bad_request(format!(
            "limit {limit}: a download holds at most {MAX_DOWNLOAD} deals"
        )));
    }
    let format =
        dealdex::formats::named(p.to.as_deref().unwrap_or("pbn")).map_err(Error::engine)?;
    let mode = QueryMode::Find {
        format,
        limit: Some(limit),
    };
    let mut job = QueryJob::new(&p.q, mode).map_err(Error::engine)?;
    job.set = p.set;
    app.stores
        .read(Lane::Scan, move |store| {
            let mut bytes = Vec::new();
            let report = dealdex::workflow::query::run(&job, Some(store), &mut bytes)
                .map_err(Error::engine)?;
            let extension = format.info().extensions.first().copied().unwrap_or("txt");
            Ok(download(bytes, &format!("query.{extension}"), &report))
        })
        .await
}

/// A set's name as a download's file name: letters, digits, `-`, `_` and `.` kept, anything
/// else `_` (a header cannot carry every character, and a name is no path).
pub(crate) fn safe_file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() || "-_.".contains(c) {
            true => c,
            false => '_',
        })
        .collect();
    match safe.trim_start_matches('.') {
        "" => "set".to_owned(),
        s => s.to_owned(),
    }
}

/// `text` with every character outside printable ASCII escaped as JSON does (`\uXXXX`), so
/// that it fits in a header.
fn ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ' '..='~' => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    out
}

/// A path that names no page and no endpoint: 404, as JSON.
pub async fn not_found() -> Error {
    Error::not_found("no such page or endpoint (docs/GUIDE.md lists them)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe() {
        assert_eq!(safe_file_name("club-2026.11"), "club-2026.11");
        assert_eq!(safe_file_name("../etc/passwd"), "_etc_passwd");
        assert_eq!(safe_file_name("<script>"), "_script_");
        assert_eq!(safe_file_name(""), "set");
    }

    #[test]
    fn headers_get_ascii() {
        assert_eq!(ascii("a\"b"), "a\"b");
        assert_eq!(ascii("é♠"), "\\u00e9\\u2660");
    }
}
