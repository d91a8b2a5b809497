//! `dealdex serve`: the deal database, simulations and analyses in the browser (issue 52),
//! through the library's [`dealdex_serve`] crate.

use std::net::{IpAddr, Ipv4Addr};

use clap::Args;
use dealdex_serve::ServeJob;

use super::DbArgs;

#[derive(Args, Debug)]
#[command(
    after_help = "The pages and their JSON API (docs/GUIDE.md \"dealdex serve\") answer on \
127.0.0.1 only, unless --host names another address: then every API request must carry the \
token printed at start (the printed address holds it). The database is opened read-only unless \
--write is given; then the pages may store sets in it.

Examples:
  dealdex serve --open
  dealdex serve --db club.db --port 8080
  dealdex serve --db club.db --write"
)]
pub struct ServeArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The TCP port (0: one the system picks).
    #[arg(long, value_name = "N", default_value_t = 8052)]
    port: u16,
    /// The address to listen on; another than the loopback makes the server require a token.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Open the first page in the system's browser.
    #[arg(long)]
    open: bool,
    /// Let the pages write to the database (store sets); without it it is opened read-only.
    #[arg(long)]
    write: bool,
}

pub fn run(a: ServeArgs, json: bool) -> anyhow::Result<()> {
    let job = ServeJob {
        db: a.db.path(),
        host: a.host,
        port: a.port,
        write: a.write,
        open: a.open,
    };
    dealdex_serve::serve(&job, |served| {
        match json {
            true => println!(
                "{}",
                serde_json::json!({ "url": served.url, "address": served.address.to_string(), "token": served.token })
            ),
            false => {
                eprintln!("dealdex: serving {} at {}", job.db.display(), served.url);
                if let Some(token) = &served.token {
                    eprintln!(
                        "dealdex: API requests need the header {}: {token}",
                        dealdex_serve::TOKEN_HEADER
                    );
                }
            }
        }
        if let Some(e) = &served.browser_error {
            eprintln!("dealdex: warning: the browser did not open: {e}");
        }
    })?;
    Ok(())
}
