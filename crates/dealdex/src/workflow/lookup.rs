//! The lookup workflow (`dealdex lookup`): everything known about one deal — its index and
//! number, where it is stored (sets and boards), its double-dummy table and par when solved,
//! and its stored plays trick by trick with each trick's winner.
//!
//! ```
//! use dealdex::workflow::lookup::{LookupJob, run};
//! use dealdex::{Deal, DealIndex, Scheme, Store};
//!
//! let deal: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432".parse()?;
//! let mut store = Store::open_in_memory()?;
//! store.insert_deals(&[DealIndex::from_deal(&deal)])?;
//! let job = LookupJob { deal, scheme: Scheme::Pavlicek, database: "d.db".into() };
//! let report = run(&job, Some(&store))?;
//! assert!(report.stored);
//! assert_eq!(report.number, "1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use crate::dd::{Par, TablePar, TrickTable};
use crate::{Card, Deal, DealIndex, Result, Scheme, Seat, StoreReader, Strain, Vulnerability};

/// The deal to look up and the numbering scheme to show its number in.
#[derive(Clone, Debug)]
pub struct LookupJob {
    /// The deal.
    pub deal: Deal,
    /// The scheme of the number shown.
    pub scheme: Scheme,
    /// The database file looked in, as the text names it (the store given to [`run`], or
    /// `None` there when the file does not exist).
    pub database: std::path::PathBuf,
}

/// `dealdex lookup`'s options as typed. With the `clap` feature they derive `clap::Args`,
/// their doc comments the help; [`LookupOptions::job`] parses the deal.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct LookupOptions {
    /// The deal: hex index, hand-record number or PBN deal string.
    pub deal: String,
    /// Scheme of a number argument and of the number shown.
    #[cfg_attr(feature = "clap", arg(long, default_value = "pavlicek"))]
    pub scheme: Scheme,
}

impl LookupOptions {
    /// The job looking in `database`: the deal by its index or deal string
    /// ([`crate::parse_deal_argument`]), else by its number in the scheme.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Deal`] for an index or deal string that does not parse; the
    /// number's errors ([`crate::parse_scheme_number`], [`Deal::from_number`]).
    pub fn job(&self, database: std::path::PathBuf) -> Result<LookupJob> {
        let deal = match crate::parse_deal_argument(&self.deal) {
            Some(d) => d.map_err(crate::ErrorKind::Deal)?.0,
            None => Deal::from_number(
                crate::parse_scheme_number(&self.deal, self.scheme)?,
                self.scheme,
            )?,
        };
        Ok(LookupJob {
            deal,
            scheme: self.scheme,
            database,
        })
    }
}

/// Everything stored about one deal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LookupReport {
    /// The database file looked in ([`LookupJob::database`]; not in the JSON report).
    #[serde(skip)]
    pub database: std::path::PathBuf,
    /// Whether there was a database to search (not in the JSON report).
    #[serde(skip)]
    pub searched: bool,
    /// The deal (PBN deal string, North first).
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub deal: Deal,
    /// The 13-byte index as 26 hex digits.
    pub index: String,
    /// The hand-record number in `scheme` (decimal, as a string: numbers reach 2^96).
    pub number: String,
    /// The scheme of `number`.
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub scheme: Scheme,
    /// True when the database holds the deal (false also when there is no database).
    pub stored: bool,
    /// Every set board the deal is dealt at.
    pub boards: Vec<StoredAt>,
    /// The double-dummy table and par, when the deal is solved.
    pub dd: Option<DdView>,
    /// The stored plays of the deal.
    pub plays: Vec<PlayView>,
}

/// A set board that holds the deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoredAt {
    /// The set's name.
    pub set: String,
    /// The board number (1-based).
    pub board: u64,
}

/// A solved deal's table, with par for the first board it is stored at (else dealer North,
/// nobody vulnerable).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DdView {
    /// Tricks by declarer and strain (JSON: `{"N": {"NT": 9, "S": …}, …}`).
    pub tricks: TrickTable,
    /// The board par is computed for, if the deal is in a set.
    pub board: Option<u64>,
    /// Dealer for par.
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub dealer: Seat,
    /// Vulnerability for par.
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub vul: Vulnerability,
    /// Par (score from North-South's view, contracts).
    pub par: Par,
}

/// A stored play, trick by trick.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayView {
    /// The set it was imported into, if any.
    pub set: Option<String>,
    /// The board number, if known.
    pub board: Option<u64>,
    /// The contract's strain, `None` when unknown.
    #[serde(serialize_with = "crate::model::text::option_as_text")]
    pub strain: Option<Strain>,
    /// Declarer, `None` when unknown.
    #[serde(serialize_with = "crate::model::text::option_as_text")]
    pub declarer: Option<Seat>,
    /// The tricks in play order (the last may be incomplete).
    pub tricks: Vec<TrickView>,
    /// Tricks won by North-South and by East-West among the complete tricks with a known
    /// winner.
    pub won: [usize; 2],
}

/// One trick of a [`PlayView`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrickView {
    /// The seat that led.
    #[serde(serialize_with = "crate::model::text::as_text")]
    pub leader: Seat,
    /// The cards in play order (1 to 4), as suit symbol and rank letter, e.g. `♠K`.
    pub cards: Vec<String>,
    /// The winner: under the stored strain, or (strain unknown) the next trick's leader;
    /// `None` for an incomplete trick or the last trick when the strain is unknown.
    #[serde(serialize_with = "crate::model::text::option_as_text")]
    pub winner: Option<Seat>,
    /// False when the play stopped within this trick.
    pub complete: bool,
}

/// [`LookupReport`]'s text.
impl std::fmt::Display for LookupReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

impl LookupReport {
    /// The report as `dealdex lookup` prints it (its `Display`): deal, index, number, where
    /// it is stored in the database (or that there was none to search), the diagram, the
    /// double-dummy table and par when solved, and each stored play ([`PlayView`]'s text).
    /// Every line ends with a newline.
    fn text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let db = self.database.display();
        let searched = self.searched;
        let _ = writeln!(out, "deal    {}", self.deal);
        let _ = writeln!(out, "index   {}", self.index);
        let _ = writeln!(out, "number  {} ({})", self.number, self.scheme);
        let _ = match (searched, self.stored) {
            (false, _) => writeln!(out, "stored  no (no database at {db})"),
            (true, false) => writeln!(out, "stored  no (not in {db})"),
            (true, true) if self.boards.is_empty() => {
                writeln!(out, "stored  yes, in {db} (in no set)")
            }
            (true, true) => {
                let list: Vec<String> = self
                    .boards
                    .iter()
                    .map(|b| format!("set {:?} board {}", b.set, b.board))
                    .collect();
                writeln!(out, "stored  yes, in {db}: {}", list.join(", "))
            }
        };
        let _ = write!(out, "\n{}", self.deal.diagram());
        if let Some(dd) = &self.dd {
            let at = dd.board.map_or(String::new(), |b| format!("board {b}, "));
            let _ = writeln!(
                out,
                "\ndouble dummy (tricks by declarer and strain)\n{}\npar     {} ({at}dealer {}, vul {})",
                dd.tricks, dd.par, dd.dealer, dd.vul
            );
        }
        for p in &self.plays {
            let _ = writeln!(out, "\n{p}");
        }
        out
    }
}

/// A stored play as `dealdex lookup` shows it: a heading (set, board, strain, declarer),
/// one line per trick with its leader, cards and winner, and the tricks won by each side.
/// No final newline.
impl std::fmt::Display for PlayView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("play    ")?;
        match (&self.set, self.board) {
            (Some(set), Some(b)) => write!(f, "set {set:?} board {b}: ")?,
            (Some(set), None) => write!(f, "set {set:?}: ")?,
            (None, Some(b)) => write!(f, "board {b}: ")?,
            (None, None) => {}
        }
        let strain = self.strain.map_or("unknown".into(), |s| s.to_string());
        let declarer = self.declarer.map_or("unknown".into(), |d| d.to_string());
        writeln!(f, "strain {strain}, declarer {declarer}")?;
        for (t, tr) in self.tricks.iter().enumerate() {
            let result = match (tr.complete, tr.winner) {
                (true, Some(w)) => format!("won by {w}"),
                (true, None) => "won by ?".to_string(),
                (false, _) => "(play stopped)".to_string(),
            };
            writeln!(
                f,
                "trick {}: lead {}  {}  {result}",
                t + 1,
                tr.leader,
                tr.cards.join(" ")
            )?;
        }
        write!(f, "tricks  N-S {}, E-W {}", self.won[0], self.won[1])
    }
}

/// Looks the deal up ([`run`]) in the database file [`LookupJob::database`], opened
/// read-only when it exists (when it does not, nothing is stored).
///
/// # Errors
/// [`ErrorKind::Store`](crate::ErrorKind::Store): a file that is no dealdex database, then
/// as [`run`].
pub fn run_in(job: &LookupJob) -> Result<LookupReport> {
    let store = match job.database.exists() {
        true => Some(crate::ReadOnlyStore::open(&job.database)?),
        false => None,
    };
    run(job, store.as_deref())
}

/// Looks the deal up in `store` (`None`: no database, so nothing is stored).
///
/// # Errors
/// [`ErrorKind::Store`](crate::ErrorKind::Store): a failed read, or a corrupt row (key,
/// table or play).
pub fn run(job: &LookupJob, store: Option<&StoreReader>) -> Result<LookupReport> {
    let key = DealIndex::from_deal(&job.deal);
    let mut report = LookupReport {
        database: job.database.clone(),
        searched: store.is_some(),
        deal: job.deal,
        index: key.to_string(),
        number: job.deal.number(job.scheme).to_string(),
        scheme: job.scheme,
        stored: false,
        boards: Vec::new(),
        dd: None,
        plays: Vec::new(),
    };
    let Some(store) = store else {
        return Ok(report);
    };
    if !store.contains(&key)? {
        return Ok(report);
    }
    report.stored = true;
    report.boards = store
        .boards_of(&key)?
        .into_iter()
        .map(|b| StoredAt {
            set: b.set_name,
            board: b.board,
        })
        .collect();
    if let Some(tricks) = store.dd_table(&key)? {
        let board = report.boards.first().map(|b| b.board);
        let (dealer, vul) = match board {
            Some(b) => (crate::board_dealer(b), crate::board_vulnerability(b)),
            None => (Seat::North, Vulnerability::None),
        };
        report.dd = Some(DdView {
            tricks,
            board,
            dealer,
            vul,
            par: tricks.par(dealer, vul),
        });
    }
    report.plays = store.plays_of(&key)?.iter().map(play_view).collect();
    Ok(report)
}

/// A card as lookup shows it: suit symbol and rank letter, e.g. `♠K`.
fn show_card(c: Card) -> String {
    format!("{}{}", c.suit().symbol(), c.rank().letter())
}

/// The tricks of a stored play with their winners.
fn play_view(p: &crate::StoredPlay) -> PlayView {
    let tricks = p.play.record.tricks();
    let mut won = [0usize; 2];
    let views = tricks
        .iter()
        .enumerate()
        .map(|(t, tr)| {
            let winner = match (&tr.cards[..], p.play.strain) {
                (&[a, b, c, d], Some(strain)) => {
                    Some(tr.leader.rotate(crate::trick_winner(&[a, b, c, d], strain)))
                }
                (&[_, _, _, _], None) => tricks.get(t + 1).map(|next| next.leader),
                _ => None,
            };
            let complete = tr.cards.len() == 4;
            if let (true, Some(w)) = (complete, winner) {
                won[w.index() % 2] += 1;
            }
            TrickView {
                leader: tr.leader,
                cards: tr.cards.iter().map(|&c| show_card(c)).collect(),
                winner,
                complete,
            }
        })
        .collect();
    PlayView {
        set: p.set_name.clone(),
        board: p.board,
        strain: p.play.strain,
        declarer: p.play.declarer,
        tricks: views,
        won,
    }
}
