//! Double-dummy analysis: how many tricks each declarer takes in each strain with every
//! card in view (the *DD table*), and *par*, the contract and score both sides reach when
//! each bids its best against the other's best.
//!
//! The solver is `pons-dds`, a pure-Rust port of Bo Haglund and Soren Hein's DDS 2.9
//! (no C++ compiler needed); par is DDS's `DealerParBin` as pons-dds ports it. Both are
//! checked number for number against DDS itself (through PyPI's `endplay`) on the 200
//! boards of `tests/fixtures/dd/dd-reference.jsonl`.
#![deny(missing_docs)]

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use dealdex_model::board::Vulnerability;
use dealdex_model::card::{Card, Rank, Seat, Suit};
use dealdex_model::contract::{Contract, Doubling, Strain};
use dealdex_model::deal::Deal;
use dealdex_model::features::Side;

pub use dealdex_model::tricks::{DD_STRAINS, PACKED_LEN, TrickTable};

// A position during the play: each legal card's tricks (the deal page's play-through).
mod position;
pub use position::{PlayPosition, play_tricks};

// Every played card judged double dummy (issue 53): DDS's AnalysePlay over boards' plays.
mod analysis;
pub use analysis::{CardCost, PlayAnalysis, PlayFault, PlayedBoard, analyse_play, analyse_plays};

/// A double-dummy solver built outside this crate: DDS itself, which the `dealdex-dds` crate
/// (crates/dds) gives to [`install_dds`]. Its answers are the ones pons-dds gives (tested on
/// DDS's 200 boards and 300 lead positions); only its speed and its build differ.
pub trait DdsBackend: Send + Sync {
    /// The deal's table as `tricks[strain][declarer]`: strains in [`DD_STRAINS`] order,
    /// declarers N E S W, each 0..=13.
    fn solve_deal(&self, deal: &Deal) -> [[u8; 4]; 5];
    /// Every card the leader holds with the defence's tricks after leading it, 0..=13: 13
    /// `(card, tricks)` in card order ([`lead_tricks`] for one position).
    fn lead_tricks(&self, deal: &Deal, strain: Strain, leader: Seat) -> Vec<(Card, u8)>;
    /// DDS's `AnalysePlayBin` of a legal play from the full deal, `leader` on lead: declarer's
    /// side's tricks (0..=13) before the lead and after each card, for at most the first 48
    /// cards (DDS does not analyse the last trick): `min(cards.len(), 48) + 1` values.
    fn analyse_play(&self, deal: &Deal, strain: Strain, leader: Seat, cards: &[Card]) -> Vec<u8>;
}

/// The back-end of [`Solver::Dds`], once installed.
static DDS: std::sync::OnceLock<&'static dyn DdsBackend> = std::sync::OnceLock::new();

/// Makes `backend` the solver [`Solver::Dds`] runs (once per process: a second call changes
/// nothing). The `dealdex-dds` crate's `install()` calls it; a binary built without that crate
/// has no DDS ([`Solver::is_built`]).
pub fn install_dds(backend: &'static dyn DdsBackend) {
    let _ = DDS.set(backend);
}

/// The installed DDS back-end, if any.
fn dds() -> Option<&'static dyn DdsBackend> {
    DDS.get().copied()
}

/// A double-dummy solver behind [`solve`], [`solve_all`], [`solve_on`] and [`lead_tricks`]:
/// the process uses the one [`Solver::select`] chose (the CLI's `--solver`), or a thread the
/// one [`Solver::with`] runs, and the tables it solves are recorded as solved by it
/// ([`Solver::name`], migration 07's sources).
///
/// Both give the same tricks (tested on DDS's own 200 boards and 300 lead positions); they
/// differ in speed and in what builds them (benches/RESULTS.md, "Double-dummy solvers").
///
/// ```
/// use dealdex::dd::Solver;
/// assert_eq!(Solver::current(), Solver::Pons);
/// assert_eq!("dds".parse::<Solver>()?, Solver::Dds);
/// assert_eq!(Solver::Pons.name(), "pons-dds 0.2.0");
/// # Ok::<(), dealdex::dd::DdError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Solver {
    /// pons-dds, a pure-Rust port of DDS 2.9: the default, always built.
    #[default]
    Pons,
    /// DDS itself (3.1, C++, through the `dds-bridge-sys` crate): only in a build with the
    /// `dds` cargo feature.
    Dds,
}

/// The selected solver, as `Solver as u8`.
static SELECTED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

thread_local! {
    /// The solver [`Solver::with`] runs on this thread.
    static THREAD_SOLVER: std::cell::Cell<Option<Solver>> = const { std::cell::Cell::new(None) };
}

impl Solver {
    /// Every solver, built or not.
    pub const ALL: [Solver; 2] = [Solver::Pons, Solver::Dds];

    /// The solver and its version as recorded beside the tables it solves, e.g.
    /// `pons-dds 0.2.0`, `DDS 3.1.0 (dds-bridge-sys 3.4.0)`.
    pub fn name(self) -> &'static str {
        match self {
            Solver::Pons => "pons-dds 0.2.0",
            Solver::Dds => "DDS 3.1.0 (dds-bridge-sys 3.4.0)",
        }
    }

    /// Whether this process has the solver: DDS once its back-end is installed
    /// ([`install_dds`]; a `dealdex` built with the `dds` feature does so at start).
    pub fn is_built(self) -> bool {
        match self {
            Solver::Pons => true,
            Solver::Dds => dds().is_some(),
        }
    }

    /// The solver in use on this thread: the one [`Solver::with`] runs, else the one
    /// [`Solver::select`] chose, else [`Solver::Pons`].
    pub fn current() -> Solver {
        THREAD_SOLVER
            .get()
            .unwrap_or(match SELECTED.load(Ordering::Relaxed) {
                1 => Solver::Dds,
                _ => Solver::Pons,
            })
    }

    /// Runs `f` with this solver for the solves it starts on this thread (whatever threads
    /// they then use), and gives back what `f` returns; the selection is restored after.
    ///
    /// ```
    /// use dealdex::dd::Solver;
    /// let pons = Solver::Pons.with(|| Solver::current())?;
    /// assert_eq!(pons, Solver::Pons);
    /// # Ok::<(), dealdex::dd::DdError>(())
    /// ```
    ///
    /// # Errors
    /// [`DdErrorKind::SolverNotBuilt`] when this build lacks it (`f` is not run).
    pub fn with<T>(self, f: impl FnOnce() -> T) -> Result<T, DdError> {
        if !self.is_built() {
            return Err(DdErrorKind::SolverNotBuilt(self).into());
        }
        /// Puts back the thread's previous choice, also when `f` panics.
        struct Restore(Option<Solver>);
        impl Drop for Restore {
            fn drop(&mut self) {
                THREAD_SOLVER.set(self.0);
            }
        }
        let _restore = Restore(THREAD_SOLVER.replace(Some(self)));
        Ok(f())
    }

    /// Makes this the solver of every later solve in the process.
    ///
    /// # Errors
    /// [`DdErrorKind::SolverNotBuilt`] when this build lacks it; the selection is then unchanged.
    pub fn select(self) -> Result<(), DdError> {
        if !self.is_built() {
            return Err(DdErrorKind::SolverNotBuilt(self).into());
        }
        SELECTED.store(self as u8, Ordering::Relaxed);
        Ok(())
    }
}

impl std::str::FromStr for Solver {
    type Err = DdError;

    /// `pons` or `dds`, in any case.
    ///
    /// # Errors
    /// [`DdErrorKind::UnknownSolver`] for any other name.
    fn from_str(s: &str) -> Result<Solver, DdError> {
        match s.to_ascii_lowercase().as_str() {
            "pons" => Ok(Solver::Pons),
            "dds" => Ok(Solver::Dds),
            _ => Err(DdErrorKind::UnknownSolver(s.to_owned()).into()),
        }
    }
}

impl fmt::Display for Solver {
    /// The name `--solver` takes: `pons`, `dds`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Solver::Pons => "pons",
            Solver::Dds => "dds",
        })
    }
}

dealdex_model::classified! {
    /// The crate's one error type, in rust-csv's style ([`DdError::kind`]): a solver refused
    /// (a name that is none, or one this build does not have), a play that cannot be
    /// played, or a batch solve stopped by its watcher. No kind is about a place in a text:
    /// [`DdError::position`] is `None` (an illegal card's place in the play is its kind's
    /// `position`).
    ///
    /// ```
    /// use dealdex::dd::{DdErrorKind, Solver};
    /// let e = "dd5".parse::<Solver>().unwrap_err();
    /// assert!(matches!(e.kind(), DdErrorKind::UnknownSolver(name) if name == "dd5"));
    /// assert_eq!(e.position(), None);
    /// ```
    #[derive(Clone, PartialEq, Eq)]
    pub struct DdError(Box<DdErrorKind>), with position
}

/// The kinds of [`DdError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DdErrorKind {
    /// A solver name other than `pons` and `dds`.
    #[error("no solver is called {0:?}: the solvers are pons and dds")]
    UnknownSolver(String),
    /// A solver this build does not have.
    #[error(
        "this dealdex was built without the {0} solver: build it with `--features dds` (a C++ compiler and libclang are needed)"
    )]
    SolverNotBuilt(Solver),
    /// A card of a board's play that cannot be played where it is ([`analyse_plays`]).
    #[error("card {position} of the play, {card} by {}: {fault}", seat.name())]
    IllegalCard {
        /// Its position in the play, 1 = the opening lead.
        position: usize,
        /// The card.
        card: Card,
        /// The seat whose turn it was.
        seat: Seat,
        /// Why it cannot be played.
        fault: PlayFault,
    },
    /// A batch solve ([`solve_on`]) ended by [`SolveWatch::stop`] before every deal was
    /// solved (the tables solved are dropped).
    #[error("the solve was stopped after {solved} of {total} deals")]
    Stopped {
        /// Deals solved before the stop.
        solved: usize,
        /// Deals in the batch.
        total: usize,
    },
}

dealdex_model::classified!(DdErrorKind);
impl dealdex_model::Classify for DdErrorKind {
    /// [`Interrupted`](dealdex_model::ErrorClass::Interrupted) for a stopped solve (its
    /// watcher asked); else [`BadInput`](dealdex_model::ErrorClass::BadInput): the solver
    /// named and the play given are the caller's.
    fn class(&self) -> dealdex_model::ErrorClass {
        match self {
            DdErrorKind::Stopped { .. } => dealdex_model::ErrorClass::Interrupted,
            _ => dealdex_model::ErrorClass::BadInput,
        }
    }
}

/// Par from a double-dummy table: the model's [`TrickTable`] with the solver's par (DDS's
/// `DealerParBin`, as pons-dds ports it).
pub trait TablePar {
    /// Par for this table when `dealer` deals at `vulnerability`: DDS's `DealerParBin`
    /// (the dealer's side may bid a contract first, which decides par when both sides can
    /// make the same level).
    ///
    /// ```
    /// use dealdex::dd::TablePar;
    /// use dealdex::{Seat, Vulnerability};
    /// let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    ///     .parse::<dealdex::Deal>()?;
    /// let par = dealdex::dd::solve(&deal).par(Seat::North, Vulnerability::None);
    /// assert_eq!(par.score, 1510);
    /// assert_eq!(par.to_string(), "+1510 7SN 7SS");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn par(&self, dealer: Seat, vulnerability: Vulnerability) -> Par;
}

impl TablePar for TrickTable {
    fn par(&self, dealer: Seat, vulnerability: Vulnerability) -> Par {
        let vul = match vulnerability {
            Vulnerability::None => pons_dds::Vulnerability::NONE,
            Vulnerability::NorthSouth => pons_dds::Vulnerability::NS,
            Vulnerability::EastWest => pons_dds::Vulnerability::EW,
            Vulnerability::All => pons_dds::Vulnerability::ALL,
        };
        let p = pons_dds::calculate_par(to_pons(self), vul, to_pons_seat(dealer));
        let contracts = p
            .contracts
            .iter()
            .map(|c| ParContract {
                contract: Contract {
                    level: c.contract.bid.level.get(),
                    strain: from_pons_strain(c.contract.bid.strain),
                    doubling: from_pons_doubling(c.contract.penalty),
                    declarer: from_pons_seat(c.declarer),
                },
                result: c.overtricks,
            })
            .collect();
        Par {
            score: p.score,
            contracts,
        }
    }
}

/// The table as pons-dds holds it: rows in strain order ♣ ♦ ♥ ♠ NT, each holding N, E, S, W.
fn to_pons(table: &TrickTable) -> pons_dds::TrickCountTable {
    let tricks = table.rows();
    let order = [4, 3, 2, 1, 0];
    pons_dds::TrickCountTable(order.map(|s| {
        let [n, e, so, w] = [0, 1, 2, 3].map(|d| tricks[d][s]);
        pons_dds::TrickCountRow::new(n, e, so, w)
    }))
}

/// A par contract and its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParContract {
    /// The contract: DDS doubles exactly the sacrifices, the contracts that go down, and
    /// never redoubles.
    pub contract: Contract,
    /// The result: tricks over the contract (positive) or under it (negative: down, as a
    /// sacrifice goes); 0 when it makes exactly.
    pub result: i8,
}

/// `<level><strain><x?><declarer><result?>`, e.g. `4SN`, `3NTS+1`, `5CxE-2`
/// (tests/fixtures/dd/README.md; the [`Contract`] and the result).
impl fmt::Display for ParContract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.contract)?;
        match self.result {
            0 => Ok(()),
            k => write!(f, "{k:+}"),
        }
    }
}

/// Par: the score from North-South's view (negative when East-West gain; 0 when the deal
/// is passed out) and the contracts that reach it (none when passed out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Par {
    /// The score for North-South, e.g. `620`, `-100`.
    pub score: i32,
    /// The par contracts in DDS's order, each declarer separately.
    pub contracts: Vec<ParContract>,
}

/// JSON form: `{"score": 420, "contracts": ["4SN", "4SS"]}` (score from North-South's view,
/// contracts as [`ParContract`] displays them).
impl serde::Serialize for Par {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let contracts: Vec<String> = self.contracts.iter().map(|c| c.to_string()).collect();
        let mut st = s.serialize_struct("Par", 2)?;
        st.serialize_field("score", &self.score)?;
        st.serialize_field("contracts", &contracts)?;
        st.end()
    }
}

impl Par {
    /// The score from `side`'s view.
    pub fn score_for(&self, side: Side) -> i32 {
        match side {
            Side::NorthSouth => self.score,
            Side::EastWest => -self.score,
        }
    }
}

/// `+620 4SN 4SS`, or `0 passed out`.
impl fmt::Display for Par {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.contracts.is_empty() {
            return write!(f, "{} passed out", self.score);
        }
        write!(f, "{:+}", self.score)?;
        for c in &self.contracts {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}

fn to_pons_seat(s: Seat) -> contract_bridge::Seat {
    match s {
        Seat::North => contract_bridge::Seat::North,
        Seat::East => contract_bridge::Seat::East,
        Seat::South => contract_bridge::Seat::South,
        Seat::West => contract_bridge::Seat::West,
    }
}

fn from_pons_seat(s: contract_bridge::Seat) -> Seat {
    match s {
        contract_bridge::Seat::North => Seat::North,
        contract_bridge::Seat::East => Seat::East,
        contract_bridge::Seat::South => Seat::South,
        contract_bridge::Seat::West => Seat::West,
    }
}

fn from_pons_doubling(p: contract_bridge::Penalty) -> Doubling {
    match p {
        contract_bridge::Penalty::Undoubled => Doubling::Undoubled,
        contract_bridge::Penalty::Doubled => Doubling::Doubled,
        contract_bridge::Penalty::Redoubled => Doubling::Redoubled,
    }
}

fn to_pons_strain(s: Strain) -> contract_bridge::Strain {
    match s {
        Strain::NoTrump => contract_bridge::Strain::Notrump,
        Strain::Trumps(Suit::Spades) => contract_bridge::Strain::Spades,
        Strain::Trumps(Suit::Hearts) => contract_bridge::Strain::Hearts,
        Strain::Trumps(Suit::Diamonds) => contract_bridge::Strain::Diamonds,
        Strain::Trumps(Suit::Clubs) => contract_bridge::Strain::Clubs,
    }
}

fn from_pons_strain(s: contract_bridge::Strain) -> Strain {
    match s {
        contract_bridge::Strain::Notrump => Strain::NoTrump,
        contract_bridge::Strain::Spades => Strain::Trumps(Suit::Spades),
        contract_bridge::Strain::Hearts => Strain::Trumps(Suit::Hearts),
        contract_bridge::Strain::Diamonds => Strain::Trumps(Suit::Diamonds),
        contract_bridge::Strain::Clubs => Strain::Trumps(Suit::Clubs),
    }
}

/// The deal as pons-dds takes it (through its PBN deal string, which both crates read).
fn to_pons_deal(deal: &Deal) -> contract_bridge::FullDeal {
    deal.to_string()
        .parse()
        .expect("a checked 13/13/13/13 deal is a full deal in PBN")
}

/// Solves one deal: its full table (20 results), the five strains spread over the solver
/// threads ([`solve_all`] of one deal: as many threads as the current rayon pool has). About
/// 0.1–0.2 s of one core for a typical deal.
pub fn solve(deal: &Deal) -> TrickTable {
    let tables = solve_all(std::slice::from_ref(deal));
    tables[0]
}

/// Solves many deals on every thread of the current rayon pool (all cores, or the pool a
/// caller installed for `--threads`); the tables come back in the order of `deals`.
///
/// The same as [`solve_on`] with `rayon::current_num_threads()` threads and nobody to stop
/// it.
pub fn solve_all(deals: &[Deal]) -> Vec<TrickTable> {
    let watch = SolveWatch::new();
    solve_each(deals, rayon::current_num_threads(), &watch)
        .unwrap_or_else(|| unreachable!("an unwatched solve is never stopped"))
}

/// One opening-lead position: `leader` on lead against a contract in `strain` (declarer is
/// the leader's right-hand opponent), before any card is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeadPosition {
    /// The deal.
    pub deal: Deal,
    /// The contract's strain.
    pub strain: Strain,
    /// The opening leader (declarer's left-hand opponent).
    pub leader: Seat,
}

/// Every card the opening leader holds with the tricks the defence takes, double dummy,
/// after leading it: 13 `(card, tricks)`, tricks 0..=13 for the leader's side, cards in
/// suit order (spades, hearts, diamonds, clubs) and from the highest rank down. What DDS's
/// `SolveBoard` gives with solutions = 3, its equal cards expanded: every card has its
/// result.
///
/// ```
/// use dealdex::dd::{LeadPosition, lead_tricks};
/// use dealdex::{Seat, Strain};
/// let deal: dealdex::Deal = "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432".parse()?;
/// let leads = lead_tricks(&[LeadPosition { deal, strain: Strain::NoTrump, leader: Seat::East }]);
/// assert_eq!(leads[0].len(), 13);
/// assert!(leads[0].iter().all(|&(_, tricks)| tricks == 0)); // North holds every top card
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lead_tricks(positions: &[LeadPosition]) -> Vec<Vec<(Card, u8)>> {
    if Solver::current() == Solver::Dds
        && let Some(dds) = dds()
    {
        use rayon::prelude::*;
        let solve = || {
            positions
                .par_iter()
                .map(|p| dds.lead_tricks(&p.deal, p.strain, p.leader))
                .collect()
        };
        return match solver_pool(rayon::current_num_threads()) {
            Some(pool) => pool.install(solve),
            None => solve(),
        };
    }
    let objectives: Vec<pons_dds::Objective> = positions
        .iter()
        .map(|p| {
            let remaining = contract_bridge::PartialDeal::from(to_pons_deal(&p.deal));
            let trick =
                pons_dds::CurrentTrick::new(to_pons_strain(p.strain), to_pons_seat(p.leader));
            pons_dds::Objective {
                board: pons_dds::Board::try_new(remaining, trick)
                    .expect("a full deal before the first card is a board"),
                target: pons_dds::Target::Legal,
            }
        })
        .collect();
    pons_dds::solve_boards(&objectives)
        .iter()
        .map(card_results)
        .collect()
}

/// Every card of a solved position with its tricks, the equal cards pons-dds groups
/// expanded; in suit order (spades first), highest rank first.
fn card_results(found: &pons_dds::FoundPlays) -> Vec<(Card, u8)> {
    let mut cards: Vec<(Card, u8)> = found
        .plays
        .iter()
        .flat_map(|play| {
            let tricks = play.score.get();
            let suit = play.card.suit;
            std::iter::once(play.card.rank)
                .chain(play.equals)
                .map(move |rank| (from_pons_card(suit, rank), tricks))
        })
        .collect();
    cards.sort_unstable_by_key(|&(c, _)| c);
    cards
}

/// The entry of a [`lead_table`] for a card the leader does not hold.
pub const NOT_HELD: u8 = 0xFF;

/// One position's [`lead_tricks`] as a table indexed by card ([`Card::index`], ♠A = 0 …
/// ♣2 = 51): the defence's tricks, 0..=13, after each card the leader holds, [`NOT_HELD`]
/// for the 39 others. The layout the store keeps (migration 08's `leads.tricks`) and the
/// query language's `lead(SEAT, strain, CARD)` reads.
///
/// ```
/// use dealdex::dd::{LeadPosition, NOT_HELD, lead_table, lead_tricks};
/// use dealdex::{Card, Seat, Strain};
/// let deal: dealdex::Deal = "N:AKQJ.AKQJ.AKQ.AK T987.T987.T98.T9 6543.6543.765.87 2.2.J432.QJ65432".parse()?;
/// let leads = lead_tricks(&[LeadPosition { deal, strain: Strain::NoTrump, leader: Seat::East }]);
/// let table = lead_table(&leads[0]);
/// assert_eq!(table[Card::from_index(0).unwrap().index()], NOT_HELD); // ♠A is North's
/// assert_eq!(table.iter().filter(|&&t| t != NOT_HELD).count(), 13);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lead_table(leads: &[(Card, u8)]) -> [u8; 52] {
    let mut table = [NOT_HELD; 52];
    for &(card, tricks) in leads {
        table[card.index()] = tricks;
    }
    table
}

/// A pons-dds card as the model's.
fn from_pons_card(suit: contract_bridge::Suit, rank: contract_bridge::hand::Rank) -> Card {
    let suit = match suit {
        contract_bridge::Suit::Spades => Suit::Spades,
        contract_bridge::Suit::Hearts => Suit::Hearts,
        contract_bridge::Suit::Diamonds => Suit::Diamonds,
        contract_bridge::Suit::Clubs => Suit::Clubs,
    };
    Card::new(
        suit,
        Rank::new(rank.get()).expect("a card's rank is 2..=14"),
    )
}

/// What a batch solve ([`solve_on`]) shares with the thread that watches it: the count of
/// deals solved so far, for progress, and a switch that stops the solve after the strains in
/// hand (a strain of a deal takes a few hundredths of a second of one core, rarely a second).
///
/// ```
/// let watch = dealdex::dd::SolveWatch::new();
/// watch.stop();
/// let deal = dealdex::Deal::from_number(1, dealdex::Scheme::Pavlicek)?;
/// assert!(dealdex::dd::solve_on(&[deal], 1, &watch).is_err());
/// assert_eq!(watch.solved(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct SolveWatch {
    /// Strains solved (five a deal).
    strains: AtomicUsize,
    stop: AtomicBool,
}

impl SolveWatch {
    /// A watch with nothing solved and the switch off.
    pub fn new() -> Self {
        Self::default()
    }

    /// Deals' worth of work done so far by the solve this watch is given to, 0..=the
    /// batch's length (the strains solved, divided by five).
    pub fn solved(&self) -> usize {
        self.strains.load(Ordering::Relaxed) / 5
    }

    /// Asks the solve to stop: each thread finishes the strain it is solving and takes no
    /// other.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`Self::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Solves `deals` on `threads` threads (at least 1). Work is handed out one strain of one
/// deal at a time, deal by deal and notrump first, so a slow deal never leaves the other
/// threads idle until the end of a batch; each thread keeps its solver warm across tasks
/// and calls (its transposition table, 160 MiB, and the rank tables of the deal it last
/// solved). `watch` counts the deals solved and can stop the solve.
///
/// The threads belong to a pool kept per thread count, with 16 MiB stacks (the search
/// recurses through up to 52 plies); they are not the rayon pool of the caller, so a
/// solve run from inside a rayon worker does not wait on its own pool.
///
/// # Errors
/// [`DdErrorKind::Stopped`] when `watch` was stopped before the last deal was solved.
///
/// ```
/// use dealdex::dd::{SolveWatch, solve_on};
/// let deals: Vec<dealdex::Deal> = (1..=3u128)
///     .map(|n| dealdex::Deal::from_number(n, dealdex::Scheme::Pavlicek))
///     .collect::<Result<_, _>>()?;
/// let watch = SolveWatch::new();
/// let tables = solve_on(&deals, 2, &watch)?;
/// assert_eq!(watch.solved(), 3);
/// assert_eq!(tables[0], dealdex::dd::solve(&deals[0]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_on(
    deals: &[Deal],
    threads: usize,
    watch: &SolveWatch,
) -> Result<Vec<TrickTable>, DdError> {
    solve_each(deals, threads, watch).ok_or_else(|| {
        DdErrorKind::Stopped {
            solved: watch.solved(),
            total: deals.len(),
        }
        .into()
    })
}

/// Stack of a solver thread: pons-dds's search can want several MiB, more than rayon's
/// default worker stack.
const SOLVER_STACK: usize = 16 << 20;

/// The solver pool for `threads` threads, built on first use and kept for the process;
/// `None` when the system gives no more threads.
fn solver_pool(threads: usize) -> Option<std::sync::Arc<rayon::ThreadPool>> {
    static POOLS: Mutex<Vec<std::sync::Arc<rayon::ThreadPool>>> = Mutex::new(Vec::new());
    let mut pools = POOLS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(p) = pools.iter().find(|p| p.current_num_threads() == threads) {
        return Some(p.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(SOLVER_STACK)
        .thread_name(|i| format!("dealdex-dd-{i}"))
        .build()
        .ok()
        .map(std::sync::Arc::new);
    if let Some(p) = &pool {
        pools.push(p.clone());
    }
    pool.or_else(|| pools.first().cloned())
}

thread_local! {
    /// Each solver thread's solver, kept warm across deals and calls.
    static WARM_SOLVER: std::cell::RefCell<Option<pons_dds::Solver>> =
        const { std::cell::RefCell::new(None) };
}

/// The tables of `deals` in order, or `None` when `watch` was stopped before the last.
///
/// A deal given more than once is solved once (its repeats count as solved when the batch
/// ends). With pons-dds the unit of work is one strain of one deal (its four declarers, which
/// share the transposition table), taken deal by deal, notrump first: a thread mostly takes
/// the next strain of the deal it holds (so the deal's rank tables are reused), and a hard
/// notrump deal at the end of a batch is shared out strain by strain instead of being left
/// to one thread. With DDS the unit is a deal (its `CalcDDtable`).
fn solve_each(deals: &[Deal], threads: usize, watch: &SolveWatch) -> Option<Vec<TrickTable>> {
    const STRAINS: usize = 5;
    if deals.is_empty() {
        return Some(Vec::new());
    }
    let (distinct, of) = distinct_deals(deals);
    let solver = Solver::current();
    // Units of work: strains with pons-dds, deals with DDS.
    let per_deal = if solver == Solver::Dds { 1 } else { STRAINS };
    let units = distinct.len() * per_deal;
    let full: Vec<contract_bridge::FullDeal> = match solver {
        Solver::Pons => distinct.iter().map(to_pons_deal).collect(),
        Solver::Dds => Vec::new(),
    };
    // (distinct deal, column of DD_STRAINS, tricks of N E S W)
    let work = |next: &AtomicUsize| -> Vec<(usize, usize, [u8; 4])> {
        let mut rows = Vec::new();
        match solver {
            Solver::Pons => WARM_SOLVER.with(|cell| {
                let mut slot = cell.borrow_mut();
                let solver = slot
                    .get_or_insert_with(|| pons_dds::Solver::new(contract_bridge::Strain::Notrump));
                while !watch.stopped() {
                    let task = next.fetch_add(1, Ordering::Relaxed);
                    let Some(deal) = full.get(task / STRAINS) else {
                        break;
                    };
                    // Task 0 of a deal is notrump (DD_STRAINS order).
                    solver.set_strain(to_pons_strain(DD_STRAINS[task % STRAINS]));
                    let row = solver.solve(*deal);
                    let tricks = Seat::ALL.map(|seat| row.get(to_pons_seat(seat)).get());
                    rows.push((task / STRAINS, task % STRAINS, tricks));
                    watch.strains.fetch_add(1, Ordering::Relaxed);
                }
            }),
            Solver::Dds => {
                let dds = dds().expect("Solver::select refuses a solver not installed");
                while !watch.stopped() {
                    let task = next.fetch_add(1, Ordering::Relaxed);
                    let Some(deal) = distinct.get(task) else {
                        break;
                    };
                    for (column, tricks) in dds.solve_deal(deal).into_iter().enumerate() {
                        rows.push((task, column, tricks));
                    }
                    watch.strains.fetch_add(STRAINS, Ordering::Relaxed);
                }
            }
        }
        rows
    };
    let next = AtomicUsize::new(0);
    let parts = match solver_pool(threads.clamp(1, units)) {
        Some(pool) => pool.broadcast(|_| work(&next)),
        // No thread of our own to be had: this one.
        None => vec![work(&next)],
    };
    let mut tables = vec![([[0u8; STRAINS]; 4], 0); distinct.len()];
    for (deal, column, tricks) in parts.into_iter().flatten() {
        for (d, t) in tricks.into_iter().enumerate() {
            tables[deal].0[d][column] = t;
        }
        tables[deal].1 += 1;
    }
    if tables.iter().any(|&(_, columns)| columns != STRAINS) {
        return None;
    }
    watch
        .strains
        .fetch_add((deals.len() - distinct.len()) * STRAINS, Ordering::Relaxed);
    // A solver's counts are 0..=13; one that is not is no table (as an incomplete one).
    of.iter()
        .map(|&k| TrickTable::new(tables[k].0).ok())
        .collect()
}

/// The distinct deals of `deals` in order of first appearance, and for each given deal the
/// position of its deal among them.
fn distinct_deals(deals: &[Deal]) -> (Vec<Deal>, Vec<usize>) {
    let mut first: std::collections::HashMap<&Deal, usize> =
        std::collections::HashMap::with_capacity(deals.len());
    let mut distinct = Vec::with_capacity(deals.len());
    let of = deals
        .iter()
        .map(|deal| {
            *first.entry(deal).or_insert_with(|| {
                distinct.push(*deal);
                distinct.len() - 1
            })
        })
        .collect();
    (distinct, of)
}
