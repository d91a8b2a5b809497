//! Played boards searched and reported (`dealdex query --played`, issue 53): the query
//! language over the stored table records (the played terms `contract = 3NT`, `result < 0`,
//! `dd(declarer, strain)`, `lost(defence)`, `player = "…"`, … and the deal terms alike), each
//! matching record listed, or a report over them: per player or partnership, opening leads
//! and their double-dummy error rate, tricks lost per board in defence and as declarer, each
//! with its standard error; and per event, how far each table's score was from par.
//!
//! A job goes in ([`PlayedQueryJob`]), a typed report comes out ([`PlayedQueryAnswer`], serde); the
//! rows come from the store ([`StoreReader::find_played`]), the statistics are computed
//! here. The losses are those `dealdex judge` stored; a board not judged counts in
//! `boards` but in no rate.
//!
//! ```
//! use dealdex::workflow::played_query::{PlayedQueryJob, PlayedQueryView, run};
//! let store = dealdex::Store::open_in_memory()?;
//! let job = PlayedQueryJob::new("contract = 3NT and result < 0", PlayedQueryView::Boards { limit: None })?;
//! let dealdex::workflow::played_query::PlayedQueryAnswer::Boards(found) = run(&job, &store)? else {
//!     unreachable!()
//! };
//! assert_eq!(found.count, 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::query::Query;
use crate::stats::Estimate;
use crate::store::FoundPlayed;
use crate::{ErrorKind, Result, StoreReader};

/// Whom a report groups the boards by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ReportBy {
    /// Each player by name.
    Players,
    /// Each partnership: the two names of a side, in alphabetical order.
    Pairs,
}

/// What a played job gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayedQueryView {
    /// The matching records, at most `limit` of them.
    Boards {
        /// At most this many records.
        limit: Option<u64>,
    },
    /// The report over every matching record.
    Report(ReportBy),
}

/// A played search or report: the query, the scope and the view.
#[derive(Clone, Debug)]
pub struct PlayedQueryJob {
    /// The expression as written.
    pub expr: String,
    /// The parsed expression.
    pub query: Query,
    /// Only the boards imported into this set.
    pub set: Option<String>,
    /// List or report.
    pub view: PlayedQueryView,
}

impl PlayedQueryJob {
    /// A job over every stored played board.
    ///
    /// # Errors
    /// [`ErrorKind::Query`] when `expr` does not parse (the error gives the column).
    pub fn new(expr: &str, view: PlayedQueryView) -> Result<PlayedQueryJob> {
        Ok(PlayedQueryJob {
            expr: expr.to_owned(),
            query: Query::parse(expr).map_err(ErrorKind::Query)?,
            set: None,
            view,
        })
    }
}

/// The matching records ([`PlayedQueryView::Boards`]). JSON: numbers as numbers, names as text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedQueryBoards {
    /// The expression.
    pub expr: String,
    /// Records listed.
    pub count: u64,
    /// The records, ordered by event, set, board, room.
    pub boards: Vec<FoundPlayed>,
}

/// One player's or partnership's figures over the selected boards.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerFigures {
    /// The player, or the partnership `A & B`.
    pub name: String,
    /// Boards they sat at.
    pub boards: u64,
    /// Their judged opening leads: the share that cost at least one trick double dummy.
    pub lead_errors: Estimate,
    /// Judged boards they defended: the defence's tricks lost a board.
    pub defence_lost: Estimate,
    /// Judged boards they declared (the player as declarer; a partnership as declaring
    /// side): declarer's tricks lost a board.
    pub declarer_lost: Estimate,
}

/// How far an event's tables scored from par.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventPar {
    /// The event, `None` for boards with none.
    pub event: Option<String>,
    /// Boards with a score and a par.
    pub boards: u64,
    /// The share of them that scored exactly par.
    pub at_par: Estimate,
    /// The distribution of `score - par` (North-South's view) in IMPs, ascending: each
    /// `(imps, boards)` with at least one board.
    pub imps: Vec<(i64, u64)>,
}

/// The report ([`PlayedQueryView::Report`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedQueryReport {
    /// The expression.
    pub expr: String,
    /// Players or pairs.
    pub by: ReportBy,
    /// Boards selected.
    pub boards: u64,
    /// Of them, judged (their losses stored).
    pub judged: u64,
    /// Each player or partnership, most boards first, then by name.
    pub people: Vec<PlayerFigures>,
    /// Each event, by name.
    pub events: Vec<EventPar>,
}

/// What a played job gives.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PlayedQueryAnswer {
    /// The matching records.
    Boards(PlayedQueryBoards),
    /// The report.
    Report(PlayedQueryReport),
}

/// The seats in the order of [`PlayedTable::players`](crate::store::PlayedTable::players).
const SEATS: [char; 4] = ['N', 'E', 'S', 'W'];

/// Whether seats `a` and `b` (letters) are partners.
fn partners(a: char, b: char) -> bool {
    let i = |c| SEATS.iter().position(|&s| s == c);
    matches!((i(a), i(b)), (Some(x), Some(y)) if x % 2 == y % 2)
}

#[derive(Default)]
struct Tally {
    boards: u64,
    leads: u64,
    lead_errors: u64,
    defence: Vec<f64>,
    declarer: Vec<f64>,
}

/// The report over `rows`, grouped `by`.
pub fn report(expr: &str, by: ReportBy, rows: &[FoundPlayed]) -> PlayedQueryReport {
    let mut people: BTreeMap<String, Tally> = BTreeMap::new();
    let mut events: BTreeMap<Option<String>, (u64, u64, BTreeMap<i64, u64>)> = BTreeMap::new();
    let mut judged = 0;
    for r in rows {
        let t = &r.table;
        judged += u64::from(r.declarer_lost.is_some());
        if let (Some(score), Some(par)) = (r.score_ns, r.par_ns) {
            let e = events.entry(t.event.clone()).or_default();
            e.0 += 1;
            e.1 += u64::from(score == par);
            *e.2.entry(crate::imps(i64::from(score) - i64::from(par)))
                .or_default() += 1;
        }
        // Each player (or side) at the table, with the seats they held.
        let mut at_table: Vec<(String, Vec<char>)> = Vec::new();
        for (k, seat) in SEATS.into_iter().enumerate() {
            let Some(name) = t.players[k]
                .as_deref()
                .map(str::trim)
                .filter(|n| !n.is_empty())
            else {
                continue;
            };
            let key = match by {
                ReportBy::Players => name.to_owned(),
                ReportBy::Pairs => {
                    let Some(partner) = t.players[(k + 2) % 4]
                        .as_deref()
                        .map(str::trim)
                        .filter(|n| !n.is_empty())
                    else {
                        continue;
                    };
                    let (a, b) = if name <= partner {
                        (name, partner)
                    } else {
                        (partner, name)
                    };
                    format!("{a} & {b}")
                }
            };
            match at_table.iter_mut().find(|(n, _)| *n == key) {
                Some((_, seats)) => seats.push(seat),
                None => at_table.push((key, vec![seat])),
            }
        }
        let (declarer, leader) = (t.declarer.map(|d| d.letter()), r.leader.map(|l| l.letter()));
        for (key, seats) in at_table {
            let t = people.entry(key).or_default();
            t.boards += 1;
            if let (Some(l), Some(cost)) = (leader, r.lead_cost)
                && seats.contains(&l)
            {
                t.leads += 1;
                t.lead_errors += u64::from(cost >= 1);
            }
            let Some(d) = declarer else { continue };
            // A player declares at declarer's seat; a partnership when it is its side.
            let declaring = match by {
                ReportBy::Players => seats.contains(&d),
                ReportBy::Pairs => seats.iter().any(|&s| partners(s, d)),
            };
            let defending = !seats.iter().any(|&s| partners(s, d));
            if let (true, Some(lost)) = (declaring, r.declarer_lost) {
                t.declarer.push(f64::from(lost));
            }
            if let (true, Some(lost)) = (defending, r.defence_lost) {
                t.defence.push(f64::from(lost));
            }
        }
    }
    let mut people: Vec<PlayerFigures> = people
        .into_iter()
        .map(|(name, t)| PlayerFigures {
            name,
            boards: t.boards,
            lead_errors: Estimate::share(t.lead_errors, t.leads),
            defence_lost: Estimate::mean_of(&t.defence),
            declarer_lost: Estimate::mean_of(&t.declarer),
        })
        .collect();
    people.sort_by(|a, b| b.boards.cmp(&a.boards).then_with(|| a.name.cmp(&b.name)));
    PlayedQueryReport {
        expr: expr.to_owned(),
        by,
        boards: rows.len() as u64,
        judged,
        people,
        events: events
            .into_iter()
            .map(|(event, (boards, at_par, imps))| EventPar {
                event,
                boards,
                at_par: Estimate::share(at_par, boards),
                imps: imps.into_iter().collect(),
            })
            .collect(),
    }
}

/// Runs a played job against `store`: the matching records, or the report over them.
///
/// # Errors
/// [`ErrorKind::NoSet`] for a set scope naming no stored set; the store's error.
pub fn run(job: &PlayedQueryJob, store: &StoreReader) -> Result<PlayedQueryAnswer> {
    if let Some(name) = job.set.as_deref()
        && store.set(name)?.is_none()
    {
        return Err(ErrorKind::NoSet {
            set: name.to_owned(),
            database: store.path().to_owned(),
        }
        .into());
    }
    let filter = job.query.to_sql();
    let limit = match job.view {
        PlayedQueryView::Boards { limit } => limit,
        PlayedQueryView::Report(_) => None,
    };
    let rows = store.find_played(&filter, job.set.as_deref(), limit)?;
    Ok(match job.view {
        PlayedQueryView::Boards { .. } => PlayedQueryAnswer::Boards(PlayedQueryBoards {
            expr: job.expr.clone(),
            count: rows.len() as u64,
            boards: rows,
        }),
        PlayedQueryView::Report(by) => PlayedQueryAnswer::Report(report(&job.expr, by, &rows)),
    })
}

/// [`run`] on the database file `db`, opened read-only.
///
/// # Errors
/// [`ErrorKind::Store`] when the database does not open; then as [`run`].
pub fn run_on(job: &PlayedQueryJob, db: &std::path::Path) -> Result<PlayedQueryAnswer> {
    let store = crate::ReadOnlyStore::open(db)?;
    run(job, &store)
}

/// `-` for a value not told.
fn or_dash<T: fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// One line a record: `event  set board room  contract by declarer  tricks  NS score  par
/// lost: declarer defence lead`.
impl fmt::Display for PlayedQueryBoards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.boards {
            let t = &r.table;
            writeln!(
                f,
                "{}  {} {} {}  {}{} {} tricks  NS {}  par {}  lost: declarer {} defence {} lead {}",
                or_dash(t.event.as_deref()),
                or_dash(t.set.as_deref()),
                or_dash(t.board),
                or_dash(t.room.as_deref()),
                or_dash(t.contract.as_deref()),
                t.declarer
                    .map(|d| format!(" by {}", d.letter()))
                    .unwrap_or_default(),
                or_dash(t.tricks),
                or_dash(r.score_ns),
                or_dash(r.par_ns),
                or_dash(r.declarer_lost),
                or_dash(r.defence_lost),
                or_dash(r.lead_cost),
            )?;
        }
        write!(f, "{} played boards", self.count)
    }
}

/// A table a player (or pair), then one a event.
impl fmt::Display for PlayedQueryReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} played boards ({} judged): {}",
            self.boards, self.judged, self.expr
        )?;
        for p in &self.people {
            writeln!(
                f,
                "{}: {} boards; lead errors {}; defence lost a board {}; declarer lost a board {}",
                p.name, p.boards, p.lead_errors, p.defence_lost, p.declarer_lost
            )?;
        }
        for e in &self.events {
            let imps: Vec<String> = e.imps.iter().map(|(i, n)| format!("{i:+}:{n}")).collect();
            writeln!(
                f,
                "event {}: {} boards, at par {}; score - par in IMPs {}",
                or_dash(e.event.as_deref()),
                e.boards,
                e.at_par,
                imps.join(" ")
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for PlayedQueryAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayedQueryAnswer::Boards(b) => b.fmt(f),
            PlayedQueryAnswer::Report(r) => r.fmt(f),
        }
    }
}
