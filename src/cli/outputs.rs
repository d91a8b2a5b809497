//! The writing options of the commands that write deal files; the files themselves are
//! planned and checked by [`dealdex::workflow::output::plan_outputs`].

/// The writing options shared by `generate`, `convert` and `export`.
#[derive(clap::Args, Debug, Clone)]
pub struct WriteArgs {
    /// Hide the cards from dealing machines' displays (DUP without the DGE part on board 1,
    /// DLM Status=Sealed).
    #[arg(long)]
    pub blind: bool,
    /// Cut sets that exceed a format's board limit (DUP, DLM: 99) into files
    /// `<name>-1.dup`, `<name>-2.dup`, … of 96 boards renumbered from 1.
    #[arg(long)]
    pub split: bool,
    /// Event name for the formats that carry one (PBN [Event], DLM Headline; default: the
    /// set's name where there is one).
    #[arg(long)]
    pub event: Option<String>,
}
