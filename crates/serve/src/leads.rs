//! The deal page's analyses of the play: `GET /api/deal/<index>/leads`, every opening lead's
//! double-dummy result against a chosen contract (the solver's per-position analysis,
//! [`dealdex::dd::lead_tricks`]), and `GET /api/deal/<index>/play`, a play-through (each
//! legal card's result at a point of the play, [`dealdex::workflow::play`]).

use axum::Json;
use dealdex::dd::{LeadPosition, lead_tricks};
use dealdex::workflow::play::{PlayJob, PlayReport};
use serde::{Deserialize, Serialize};

use crate::analyses::contract;
use crate::extract::{DealAt, Params};
use crate::{Error, blocking};

/// `GET /api/deal/<index>/leads`' parameters.
#[derive(Debug, Deserialize)]
pub struct LeadsParams {
    /// The contract (`3NT`, `4S`, `5DX`).
    contract: String,
    /// Its declarer (`N`, `E`, `S`, `W`); the leader is on declarer's left.
    declarer: String,
}

/// The answer: each card the leader holds with the defence's tricks after leading it.
#[derive(Debug, Serialize)]
pub struct LeadsAnswer {
    /// The contract with its declarer, as [`dealdex::Contract`] displays it (`3NS`).
    pub contract: String,
    /// The opening leader: `N`, `E`, `S` or `W`.
    pub leader: char,
    /// The defence's tricks that set the contract (`8 - level`, e.g. 5 against 3NT).
    pub to_set: u8,
    /// The leader's 13 cards, spades first, ranks descending.
    pub leads: Vec<Lead>,
}

/// One opening lead.
#[derive(Debug, Serialize)]
pub struct Lead {
    /// The card, suit then rank (`SA`, `HT`).
    pub card: String,
    /// The defence's tricks after it, double dummy, 0..=13.
    pub tricks: u8,
}

/// `GET /api/deal/<index>/leads?contract=3NT&declarer=S`: [`LeadsAnswer`].
pub async fn leads(
    DealAt(deal): DealAt,
    Params(p): Params<LeadsParams>,
) -> Result<Json<LeadsAnswer>, Error> {
    let contract = contract(&p.contract, &p.declarer)?;
    let leader = contract.declarer.next();
    blocking(move || {
        let position = LeadPosition {
            deal,
            strain: contract.strain,
            leader,
        };
        let leads = lead_tricks(&[position])
            .pop()
            .unwrap_or_default()
            .into_iter()
            .map(|(card, tricks)| Lead {
                card: card.to_string(),
                tricks,
            })
            .collect();
        Ok(Json(LeadsAnswer {
            contract: contract.to_string(),
            leader: leader.letter(),
            to_set: 8 - contract.level,
            leads,
        }))
    })
    .await
}

/// `GET /api/deal/<index>/play`'s parameters.
#[derive(Debug, Deserialize)]
pub struct PlayParams {
    /// The contract (`3NT`, `4S`).
    contract: String,
    /// Its declarer (`N`, `E`, `S`, `W`).
    declarer: String,
    /// The cards played so far from the opening lead, comma-separated (`SA,S2,S5,SK`);
    /// none or empty before the lead.
    #[serde(default)]
    played: String,
}

/// `GET /api/deal/<index>/play?contract=3NT&declarer=S&played=SA,S2`: the play workflow's
/// report (the seat to play, tricks won, the current trick, the hands left, and each legal
/// card with declarer's side's tricks in all if it is played).
pub async fn play(
    DealAt(deal): DealAt,
    Params(p): Params<PlayParams>,
) -> Result<Json<PlayReport>, Error> {
    let contract = contract(&p.contract, &p.declarer)?;
    let played = p
        .played
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| c.parse::<dealdex::Card>().map_err(Error::engine))
        .collect::<Result<Vec<_>, _>>()?;
    blocking(move || {
        let job = PlayJob {
            deal,
            contract,
            played,
        };
        dealdex::workflow::play::run(&job)
            .map(Json)
            .map_err(Error::engine)
    })
    .await
}
