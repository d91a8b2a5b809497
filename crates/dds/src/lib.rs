//! The DDS back-end of dealdex's `dd::Solver::Dds`: Bo Haglund and Soren Hein's C++ solver
//! itself, as the `dds-bridge-sys` crate vendors and builds it (DDS 3.1, with its
//! `SolverContext` API: one context, with its transposition table, per thread). [`install`]
//! gives it to the engine. Built only with the `dds` cargo feature of the binary or the Python
//! package (a C++ compiler and libclang at build time).
//!
//! DDS's conventions (its `dll.h`): hands 0..4 are N, E, S, W; suits 0..4 are ♠ ♥ ♦ ♣ and
//! strain 4 is notrump; a holding is a mask with bit `r` for rank `r` (2..=14).

use std::cell::RefCell;

use dds_bridge_sys as sys;

use dealdex_model::card::{Card, Rank, Seat, Suit};
use dealdex_model::contract::Strain;
use dealdex_model::deal::Deal;
use dealdex_solver::{DD_STRAINS, DdsBackend};

/// DDS as [`DdsBackend`].
struct Dds;

impl DdsBackend for Dds {
    fn solve_deal(&self, deal: &Deal) -> [[u8; 4]; 5] {
        solve_deal(deal)
    }

    fn lead_tricks(&self, deal: &Deal, strain: Strain, leader: Seat) -> Vec<(Card, u8)> {
        lead_tricks(deal, strain, leader)
    }

    fn analyse_play(&self, deal: &Deal, strain: Strain, leader: Seat, cards: &[Card]) -> Vec<u8> {
        analyse_play(deal, strain, leader, cards)
    }
}

/// Makes DDS the engine's `dd::Solver::Dds` in this process (`dealdex::dd::install_dds`):
/// the binary and the Python package call it at start when built with their `dds` feature.
pub fn install() {
    dealdex_solver::install_dds(&Dds);
}

/// One solver context per thread, made on the thread's first solve and kept (its
/// transposition table stays warm across deals and calls).
struct Context(*mut sys::DdsSolverContext);

impl Context {
    fn new() -> Context {
        // DDS's defaults (its SolverConfig): the pattern transposition table, memory sizes
        // of its own choosing (0).
        let config = sys::DdsSolverConfig {
            tt_kind: sys::DDS_TT_KIND_PATTERN as i32,
            tt_mem_default_mb: 0,
            tt_mem_maximum_mb: 0,
        };
        // SAFETY: config outlives the call (it is copied); the context is freed on drop.
        let ctx = unsafe { sys::dds_solver_context_new(&config) };
        assert!(!ctx.is_null(), "DDS could not make a solver context");
        Context(ctx)
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: made by dds_solver_context_new and freed once.
        unsafe { sys::dds_solver_context_free(self.0) }
    }
}

thread_local! {
    static CONTEXT: RefCell<Option<Context>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's DDS context.
fn with_context<T>(f: impl FnOnce(*mut sys::DdsSolverContext) -> T) -> T {
    CONTEXT.with(|cell| {
        let mut slot = cell.borrow_mut();
        f(slot.get_or_insert_with(Context::new).0)
    })
}

/// The 16 holdings of `deal` as DDS's `[hand][suit]` rank masks.
fn holdings(deal: &Deal) -> [[u32; 4]; 4] {
    let mut cards = [[0u32; 4]; 4];
    for seat in Seat::ALL {
        for suit in Suit::ALL {
            // suit_mask: bit 0 = ace … bit 12 = deuce; DDS: bit 14 = ace … bit 2 = deuce.
            let mask = deal.hand(seat).suit_mask(suit);
            cards[seat.index()][suit.index()] = (0..13)
                .filter(|b| mask >> b & 1 == 1)
                .map(|b| 1u32 << (14 - b))
                .sum();
        }
    }
    cards
}

/// DDS's strain number: ♠ ♥ ♦ ♣ 0..4, notrump 4.
fn strain_number(strain: Strain) -> i32 {
    match strain {
        Strain::Trumps(suit) => suit.index() as i32,
        Strain::NoTrump => 4,
    }
}

/// The deal's table as `tricks[strain][declarer]` (strains in [`DD_STRAINS`] order,
/// declarers N E S W), on this thread's context: DDS's `CalcDDtable`, which solves the four
/// declarers of a strain with one transposition table.
fn solve_deal(deal: &Deal) -> [[u8; 4]; 5] {
    let given = sys::DdTableDeal {
        cards: holdings(deal),
    };
    let mut found = sys::DdTableResults::default();
    // SAFETY: the context is this thread's and alive; given and found outlive the call.
    let status = with_context(|ctx| unsafe { sys::dds_calc_dd_table(ctx, &given, &mut found) });
    assert_eq!(status, 1, "DDS refused a full deal (status {status})");
    // DDS's rows run ♠ ♥ ♦ ♣ NT.
    DD_STRAINS.map(|strain| found.res_table[strain_number(strain) as usize].map(|t| t as u8))
}

/// `deal` before the opening lead as DDS's position: `leader` to play, no card on the table.
fn before_the_lead(deal: &Deal, strain: Strain, leader: Seat) -> sys::Deal {
    sys::Deal {
        trump: strain_number(strain),
        first: leader.index() as i32,
        currentTrickSuit: [0; 3],
        currentTrickRank: [0; 3],
        remainCards: holdings(deal),
    }
}

/// Every card of the opening leader with the defence's tricks after it (dealdex's
/// `dd::lead_tricks` for one position): DDS's `SolveBoard` with solutions = 3, equal cards expanded, sorted
/// by card.
fn lead_tricks(deal: &Deal, strain: Strain, leader: Seat) -> Vec<(Card, u8)> {
    let position = before_the_lead(deal, strain, leader);
    let mut found = sys::FutureTricks::default();
    // target −1, solutions 3 (every card), mode 1; SAFETY: the context is this thread's and
    // alive; position and found outlive the call.
    let status =
        with_context(|ctx| unsafe { sys::dds_solve_board(ctx, &position, -1, 3, 1, &mut found) });
    assert_eq!(
        status, 1,
        "DDS refused a full deal before the first card (status {status})"
    );
    let mut cards = Vec::with_capacity(13);
    for k in 0..found.cards as usize {
        let suit = Suit::from_index(found.suit[k] as usize);
        let tricks = found.score[k] as u8;
        let equals = found.equals[k] as u32;
        let ranks =
            std::iter::once(found.rank[k] as u8).chain((2..=14u8).filter(|r| equals >> r & 1 == 1));
        for rank in ranks {
            let rank = Rank::new(rank).expect("DDS gives ranks 2..=14");
            cards.push((Card::new(suit, rank), tricks));
        }
    }
    cards.sort_unstable_by_key(|&(c, _)| c);
    cards
}

/// DDS's `AnalysePlayBin` of a play from the full deal, `leader` on lead: declarer's side's
/// tricks (declarer = `leader`'s right-hand opponent) before the lead and after each card, as
/// DDS gives them: `min(cards.len(), 48) + 1` values, DDS not analysing the last trick. The
/// raw values the comparison with dealdex's own analysis reads (dealdex's `dd::analyse_plays`
/// completes the last trick).
///
/// DDS makes a solver context of its own for each call (DDS 3.1's `AnalysePlayBin`), so calls
/// on several threads at once are safe.
///
/// # Panics
/// When DDS refuses the play (a card not held, more than 52 cards): dealdex checks a play
/// before giving it here.
pub fn analyse_play(deal: &Deal, strain: Strain, leader: Seat, cards: &[Card]) -> Vec<u8> {
    assert!(cards.len() <= 52, "a play has at most 52 cards");
    let position = before_the_lead(deal, strain, leader);
    let mut play = sys::PlayTraceBin {
        number: cards.len() as i32,
        suit: [0; 52],
        rank: [0; 52],
    };
    for (k, card) in cards.iter().enumerate() {
        play.suit[k] = card.suit().index() as i32;
        play.rank[k] = i32::from(card.rank().value());
    }
    let mut solved = sys::SolvedPlay::default();
    // SAFETY: position and play are passed by value; solved outlives the call. The thread
    // number is unused by DDS 3.1 (each call owns its context).
    let status = unsafe { sys::AnalysePlayBin(position, play, &mut solved, 0) };
    assert_eq!(
        status, 1,
        "DDS refused a play dealdex checked (status {status})"
    );
    solved.tricks[..solved.number as usize]
        .iter()
        .map(|&t| t as u8)
        .collect()
}
