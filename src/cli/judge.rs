//! `dealdex judge`: every card of the stored played boards judged double dummy and stored
//! once, through the library's [`dealdex::judge`] workflow.

use clap::Args;
use dealdex::Store;
use dealdex::judge::{JudgeJob, judge};

use super::{StoreArgs, Text, print};

#[derive(Args, Debug)]
#[command(
    after_help = "Judges the played boards imported (LIN vugraph files, PBN with [Play])
that are not judged yet: for each card, the tricks declarer's side can take before and after
it (DDS's AnalysePlay), stored once (table `played_dd`). A killed run loses at most one batch;
running it again judges the rest.

Examples:
  dealdex import matches/*.lin && dealdex judge
  dealdex judge --db vugraph.db --json"
)]
pub struct JudgeArgs {
    #[command(flatten)]
    job: JudgeJob,
    #[command(flatten)]
    db: StoreArgs,
}

pub fn run(a: JudgeArgs, json: bool) -> anyhow::Result<()> {
    let mut store = Store::open(&a.db.path()).map_err(dealdex::StoreError::explain_busy)?;
    // Drawn on a terminal only: the boards to judge are not counted first, so no length.
    let bar = super::progress_bar(false, "judged {human_pos} played boards, {msg} [{elapsed}]");
    let report = judge(&a.job, &mut store, &mut |r| {
        bar.set_message(format!("{} cards", r.cards));
        bar.set_position(r.boards + r.faults);
    });
    bar.finish_and_clear();
    print(&report?, json, Text::Summary)
}
