//! SQL functions registered on every dealdex connection, so that any query (dealdex's own,
//! `dealdex sql`, the query language) can compute hand features from a stored key.
//!
//! | function | result |
//! |---|---|
//! | `hcp(key, seat)` | HCP of the seat's hand, 0..=37 |
//! | `len(key, seat, suit)` | length of the suit, 0..=13 |
//! | `shape(key, seat)` | sorted shape, text `5-4-3-1` |
//! | `pattern(key, seat)` | exact lengths in suit order ♠♥♦♣, text `5431` |
//! | `controls(key, seat)` | A=2 K=1, 0..=12 |
//! | `ltc(key, seat)` | losing-trick count, 0..=12 |
//! | `balanced(key, seat)`, `semibalanced(key, seat)` | 1 or 0 |
//! | `longest(key, seat)` | length of the longest suit |
//! | `pbn(key)` | the PBN deal string, North first |
//! | `number(key [, scheme])` | the hand-record number as decimal text (Pavlicek by default) |
//! | `board_dealer(n)`, `board_vul(n)` | `N`…`W`, `None`/`NS`/`EW`/`All` for board `n` |
//! | `dd_tricks(tricks, who, strain)` | double-dummy tricks, 0..=13, of declarer `who` (a seat, or `NS`/`EW` for the side's better declarer) in `strain` (`NT`, `S`, `H`, `D`, `C`) |
//! | `dd_par(tricks, dealer, vul)` | the par score from North-South's view (negative when East-West gain, 0 passed out) when `dealer` deals at `vul` (`None`, `NS`, `EW`, `All`, also `Love`, `Both`, `-`; any case): [`crate::dd::TablePar::par`] |
//!
//! | `lead_card(tricks, card)` | the defence's double-dummy tricks, 0..=13, after the opening lead of `card` (`SA`, `HT`, `h10`, `QC`: [`Card`](crate::model::card::Card)'s text) from a stored `leads.tricks` (migration 08); NULL when the leader does not hold the card or `tricks` is NULL |
//!
//! `tricks` is a stored double-dummy table, the 10-byte BLOB `dd.tricks` (migration 05);
//! both `dd_…` functions give NULL for a NULL table (the `LEFT JOIN dd` row of an unsolved
//! deal; a subquery over `dd` is NULL for one anyway). The dealer matters to par only when
//! both sides can make a contract at the same level.
//!
//! For example, in `dealdex sql`, the deals whose par at love all, North dealing, is a
//! plus score for East-West:
//!
//! ```sql
//! SELECT pbn(deal), dd_par(tricks, 'N', 'None') FROM dd WHERE dd_par(tricks, 'N', 'None') < 0
//! ```
//!
//! `key` is the 13-byte index BLOB (or its 26-hex-digit text); `seat` is `N`, `E`, `S` or `W`;
//! `suit` is `S`, `H`, `D` or `C` (or a suit name). A malformed argument is an SQL error
//! naming the function and the argument, never a panic.

use rusqlite::Connection;
use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::ValueRef;

use crate::dd::TablePar;
use crate::model::card::{Seat, Suit};
use crate::model::deal::{Deal, Hand};
use crate::model::features::{self, Shape};
use crate::model::index::DealIndex;

fn err(name: &str, msg: impl std::fmt::Display) -> rusqlite::Error {
    rusqlite::Error::UserFunctionError(format!("{name}(): {msg}").into())
}

/// Argument `i` as a deal: a 13-byte BLOB or 26 hex digits.
fn deal_arg(ctx: &Context<'_>, i: usize, name: &str) -> rusqlite::Result<Deal> {
    let key = match ctx.get_raw(i) {
        ValueRef::Blob(b) => DealIndex(
            b.try_into()
                .map_err(|_| err(name, format!("key has {} bytes, expected 13", b.len())))?,
        ),
        ValueRef::Text(t) => {
            let t = std::str::from_utf8(t).map_err(|e| err(name, e))?;
            DealIndex::parse_hex(t).map_err(|e| err(name, e))?
        }
        _ => return Err(err(name, "key must be a 13-byte BLOB or 26 hex digits")),
    };
    key.to_deal().map_err(|e| err(name, e))
}

/// Argument `i` as a seat letter.
fn seat_arg(ctx: &Context<'_>, i: usize, name: &str) -> rusqlite::Result<Seat> {
    let s: String = ctx.get(i)?;
    let mut cs = s.trim().chars();
    match (cs.next().and_then(Seat::from_char), cs.next()) {
        (Some(seat), None) => Ok(seat),
        _ => Err(err(name, format!("seat {s:?} is not N, E, S or W"))),
    }
}

/// Argument `i` as a suit letter or name.
fn suit_arg(ctx: &Context<'_>, i: usize, name: &str) -> rusqlite::Result<Suit> {
    let s: String = ctx.get(i)?;
    let t = s.trim().to_ascii_lowercase();
    let suit = match t.as_str() {
        "spades" | "spade" => Some(Suit::Spades),
        "hearts" | "heart" => Some(Suit::Hearts),
        "diamonds" | "diamond" => Some(Suit::Diamonds),
        "clubs" | "club" => Some(Suit::Clubs),
        _ => {
            let mut cs = t.chars();
            match (cs.next().and_then(Suit::from_char), cs.next()) {
                (Some(s), None) => Some(s),
                _ => None,
            }
        }
    };
    suit.ok_or_else(|| err(name, format!("suit {s:?} is not S, H, D, C or a suit name")))
}

/// Registers a `fn(key, seat) -> i64` hand function.
fn hand_fn(conn: &Connection, name: &'static str, f: fn(Hand) -> i64) -> rusqlite::Result<()> {
    conn.create_scalar_function(name, 2, flags(), move |ctx| {
        let deal = deal_arg(ctx, 0, name)?;
        let seat = seat_arg(ctx, 1, name)?;
        Ok(f(deal.hand(seat)))
    })
}

fn flags() -> FunctionFlags {
    FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC
}

/// Registers every dealdex SQL function on `conn`.
///
/// # Errors
/// SQLite's error if a function cannot be registered.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    dd_tricks(conn)?;
    dd_par(conn)?;
    lead_card(conn)?;
    hand_fn(conn, "hcp", |h| features::hcp(h) as i64)?;
    hand_fn(conn, "controls", |h| features::controls(h) as i64)?;
    hand_fn(conn, "ltc", |h| features::losing_trick_count(h) as i64)?;
    hand_fn(conn, "balanced", |h| Shape::of(h).is_balanced() as i64)?;
    hand_fn(conn, "semibalanced", |h| {
        Shape::of(h).is_semi_balanced() as i64
    })?;
    hand_fn(conn, "longest", |h| features::longest_suit(h).1 as i64)?;
    conn.create_scalar_function("len", 3, flags(), |ctx| {
        let deal = deal_arg(ctx, 0, "len")?;
        let seat = seat_arg(ctx, 1, "len")?;
        let suit = suit_arg(ctx, 2, "len")?;
        Ok(deal.hand(seat).suit_len(suit) as i64)
    })?;
    conn.create_scalar_function("shape", 2, flags(), |ctx| {
        let deal = deal_arg(ctx, 0, "shape")?;
        Ok(Shape::of(deal.hand(seat_arg(ctx, 1, "shape")?)).to_string())
    })?;
    conn.create_scalar_function("pattern", 2, flags(), |ctx| {
        let deal = deal_arg(ctx, 0, "pattern")?;
        Ok(Shape::of(deal.hand(seat_arg(ctx, 1, "pattern")?)).pattern())
    })?;
    conn.create_scalar_function("pbn", 1, flags(), |ctx| {
        Ok(deal_arg(ctx, 0, "pbn")?.to_string())
    })?;
    for argc in [1, 2] {
        conn.create_scalar_function("number", argc, flags(), move |ctx| {
            let deal = deal_arg(ctx, 0, "number")?;
            let scheme = if argc == 2 {
                let s: String = ctx.get(1)?;
                s.parse().map_err(|e| err("number", e))?
            } else {
                crate::model::number::Scheme::Pavlicek
            };
            Ok(deal.number(scheme).to_string())
        })?;
    }
    conn.create_scalar_function("board_dealer", 1, flags(), |ctx| {
        let n: i64 = ctx.get(0)?;
        let n = u64::try_from(n).map_err(|_| err("board_dealer", "board must be ≥ 1"))?;
        Ok(crate::model::board::board_dealer(n).to_string())
    })?;
    conn.create_scalar_function("board_vul", 1, flags(), |ctx| {
        let n: i64 = ctx.get(0)?;
        let n = u64::try_from(n).map_err(|_| err("board_vul", "board must be ≥ 1"))?;
        Ok(crate::model::board::board_vulnerability(n).to_string())
    })?;
    Ok(())
}

/// Argument 0 as a stored DD table: `None` for NULL (an unsolved deal), an error unless a
/// 10-byte BLOB that decodes.
fn table_arg(ctx: &Context<'_>, name: &str) -> rusqlite::Result<Option<crate::dd::TrickTable>> {
    match ctx.get_raw(0) {
        ValueRef::Null => Ok(None),
        ValueRef::Blob(b) => crate::dd::TrickTable::from_bytes(b)
            .map(Some)
            .map_err(|e| err(name, e)),
        _ => Err(err(name, "the table must be a 10-byte BLOB (dd.tricks)")),
    }
}

/// `dd_par(tricks, dealer, vul)`: the par score, from North-South's view (negative when
/// East-West gain, 0 when passed out), of a stored DD table (`dd.tricks`, migration 05;
/// [`crate::dd::TablePar::par`], DDS's `DealerParBin`) when `dealer` (`N`, `E`, `S`, `W`)
/// deals at vulnerability `vul` (`None`, `NS`, `EW`, `All`, also `Love`, `Both`, `-`;
/// case-insensitive). The dealer matters only when both sides can make a contract at the
/// same level. NULL for a NULL table (an unsolved deal); an SQL error naming `dd_par` for a
/// table that is not a valid 10-byte BLOB, a bad seat or a bad vulnerability.
///
/// The query language's `par(EW, all, W)` compiles to
/// `(SELECT -dd_par(tricks, 'W', 'All') FROM dd WHERE dd.deal = key)`.
fn dd_par(conn: &Connection) -> rusqlite::Result<()> {
    const NAME: &str = "dd_par";
    conn.create_scalar_function(NAME, 3, flags(), |ctx| {
        let Some(table) = table_arg(ctx, NAME)? else {
            return Ok(None);
        };
        let dealer = seat_arg(ctx, 1, NAME)?;
        let vul: String = ctx.get(2)?;
        let vul: crate::model::board::Vulnerability = vul.parse().map_err(|_| {
            err(
                NAME,
                format!("vulnerability {vul:?} is not None, NS, EW, All, Love, Both or -"),
            )
        })?;
        Ok(Some(i64::from(table.par(dealer, vul).score)))
    })
}

/// `lead_card(tricks, card)`: the defence's tricks after the opening lead of `card` (text
/// as [`Card`](crate::model::card::Card)'s `FromStr` reads it: `SA`, `HT`, `h10`, `QC`) from a stored
/// `leads.tricks` (migration 08: 52 bytes, one a card, 255 for a card not held). NULL for a
/// NULL `tricks` (no row: leads not stored) and for a card the leader does not hold; an SQL
/// error naming `lead_card` for a `tricks` that is not a 52-byte BLOB, a byte above 13 other
/// than 255, or a bad card.
///
/// The query language's `lead(W, nt, SA)` compiles to `(SELECT lead_card(leads.tricks,
/// 'SA') FROM leads WHERE leads.deal = key AND leads.leader = 'W' AND leads.strain = 'NT')`.
fn lead_card(conn: &Connection) -> rusqlite::Result<()> {
    const NAME: &str = "lead_card";
    conn.create_scalar_function(NAME, 2, flags(), |ctx| {
        let table: [u8; 52] = match ctx.get_raw(0) {
            ValueRef::Null => return Ok(None),
            ValueRef::Blob(b) => b
                .try_into()
                .map_err(|_| err(NAME, format!("tricks has {} bytes, expected 52", b.len())))?,
            _ => return Err(err(NAME, "tricks must be a 52-byte BLOB (leads.tricks)")),
        };
        let text: String = ctx.get(1)?;
        let card: crate::model::card::Card = text.parse().map_err(|e| err(NAME, e))?;
        match table[card.index()] {
            crate::dd::NOT_HELD => Ok(None),
            t @ 0..=13 => Ok(Some(i64::from(t))),
            t => Err(err(NAME, format!("the count {t} of {card} is above 13"))),
        }
    })
}

/// `dd_tricks(tricks, who, strain)`: tricks from a stored DD table (`dd.tricks`, migration
/// 05) for declarer `who` (`N`, `E`, `S`, `W`; a side `NS`/`EW` gives its better declarer)
/// in `strain` (`NT`, `S`, `H`, `D`, `C`); NULL for a NULL table (an unsolved deal).
fn dd_tricks(conn: &Connection) -> rusqlite::Result<()> {
    const NAME: &str = "dd_tricks";
    conn.create_scalar_function(NAME, 3, flags(), |ctx| {
        let Some(table) = table_arg(ctx, NAME)? else {
            return Ok(None);
        };
        let who: String = ctx.get(1)?;
        let strain: String = ctx.get(2)?;
        let strain = match strain.trim().to_ascii_uppercase().as_str() {
            "NT" | "N" => crate::model::contract::Strain::NoTrump,
            t => crate::model::contract::Strain::from_bid(&format!("1{t}"))
                .ok_or_else(|| err(NAME, format!("strain {strain:?} is not NT, S, H, D or C")))?,
        };
        let tricks = match who.trim().to_ascii_uppercase().as_str() {
            "NS" => table.side_tricks(features::Side::NorthSouth, strain),
            "EW" => table.side_tricks(features::Side::EastWest, strain),
            w => {
                let mut cs = w.chars();
                match (cs.next().and_then(Seat::from_char), cs.next()) {
                    (Some(seat), None) => table.tricks(seat, strain),
                    _ => {
                        return Err(err(
                            NAME,
                            format!("declarer {who:?} is not N, E, S, W, NS or EW"),
                        ));
                    }
                }
            }
        };
        Ok(Some(i64::from(tricks)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An in-memory database with dealdex's SQL functions.
    fn connection() -> Connection {
        crate::heap::install();
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn
    }

    /// The message of the error that `sql`, a query of one value, gives on `conn`.
    fn sql_error(conn: &Connection, sql: &str) -> String {
        conn.query_row(sql, [], |r| r.get::<_, rusqlite::types::Value>(0))
            .expect_err(sql)
            .to_string()
    }

    #[test]
    fn functions_compute_features_from_keys() {
        let conn = connection();
        let d: Deal = "N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76"
            .parse()
            .unwrap();
        let key = DealIndex::from_deal(&d).0.to_vec();
        let q = |sql: &str| -> String {
            conn.query_row(sql, [&key], |r| {
                Ok(match r.get_ref(0)? {
                    ValueRef::Integer(i) => i.to_string(),
                    ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                    other => format!("{other:?}"),
                })
            })
            .unwrap()
        };
        // North J987.JT7643.A4.Q: J+J+A+Q = 1+1+4+2 = 8 HCP; shape 6-4-2-1, pattern 4621.
        assert_eq!(q("SELECT hcp(?1, 'N')"), "8");
        assert_eq!(q("SELECT len(?1, 'N', 'hearts')"), "6");
        assert_eq!(q("SELECT shape(?1, 'N')"), "6-4-2-1");
        assert_eq!(q("SELECT pattern(?1, 'N')"), "4621");
        assert_eq!(q("SELECT controls(?1, 'E')"), "4"); // ♥K, ♣A, ♣K = 1+2+1
        assert_eq!(q("SELECT pbn(?1)"), d.to_string());
        assert_eq!(
            q("SELECT number(?1, 'andrews')"),
            d.number(crate::model::number::Scheme::Andrews).to_string()
        );
        // South AQ42.A8.KJ762.J2 as hex text: A+Q + A + K+J + J = 6+4+4+1 = 15.
        assert_eq!(q("SELECT hcp(hex(?1), 'S')"), "15");
    }

    #[test]
    fn bad_arguments_are_sql_errors() {
        let conn = connection();
        for sql in [
            "SELECT hcp(x'00', 'N')",
            "SELECT hcp('0EDCCBA0976F2DA4945D8E9DC0', 'Q')",
            "SELECT len('0EDCCBA0976F2DA4945D8E9DC0', 'N', 'stars')",
            "SELECT hcp(42, 'N')",
            "SELECT board_dealer(-1)",
        ] {
            sql_error(&conn, sql);
        }
        let dealer: String = conn
            .query_row("SELECT board_dealer(16)", [], |r| r.get(0))
            .unwrap();
        assert_eq!(dealer, "W");
    }

    #[test]
    fn dd_par_scores_a_stored_table() {
        let conn = connection();
        // 13 spades in North, 13 hearts in East, 13 diamonds in South, 13 clubs in West:
        // N-S's 7♠ makes, 1510 not vulnerable and 2210 vulnerable.
        let d: Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
            .parse()
            .unwrap();
        let tricks = crate::dd::solve(&d).to_bytes().to_vec();
        let par = |dealer: &str, vul: &str| -> rusqlite::Result<Option<i64>> {
            conn.query_row(
                "SELECT dd_par(?1, ?2, ?3)",
                rusqlite::params![&tricks, dealer, vul],
                |r| r.get(0),
            )
        };
        assert_eq!(par("N", "None").unwrap(), Some(1510));
        assert_eq!(par("w", "love").unwrap(), Some(1510));
        assert_eq!(par("E", "all").unwrap(), Some(2210));
        assert_eq!(par("S", "NS").unwrap(), Some(2210));
        assert_eq!(par("N", "ew").unwrap(), Some(1510));
        let null: Option<i64> = conn
            .query_row("SELECT dd_par(NULL, 'N', 'None')", [], |r| r.get(0))
            .unwrap();
        assert_eq!(null, None);
        for (dealer, vul, what) in [("N", "red", "vulnerability"), ("Q", "None", "seat")] {
            let e = par(dealer, vul).unwrap_err().to_string();
            assert!(e.contains("dd_par()") && e.contains(what), "{e}");
        }
        for sql in [
            "SELECT dd_par(x'00', 'N', 'None')",
            "SELECT dd_par(x'FFFFFFFFFFFFFFFFFFFF', 'N', 'None')",
            "SELECT dd_par(42, 'N', 'None')",
        ] {
            let e = sql_error(&conn, sql);
            assert!(e.contains("dd_par()"), "{sql}: {e}");
        }
    }

    #[test]
    fn lead_card_reads_a_stored_lead_table() {
        let conn = connection();
        let mut table = [crate::dd::NOT_HELD; 52];
        table[0] = 7; // SA
        table[10] = 0; // S4
        let q = |card: &str| -> rusqlite::Result<Option<i64>> {
            conn.query_row(
                "SELECT lead_card(?1, ?2)",
                rusqlite::params![&table[..], card],
                |r| r.get(0),
            )
        };
        assert_eq!(q("SA").unwrap(), Some(7));
        assert_eq!(q("as").unwrap(), Some(7));
        assert_eq!(q("S4").unwrap(), Some(0));
        assert_eq!(q("HK").unwrap(), None);
        assert!(q("XX").unwrap_err().to_string().contains("lead_card()"));
        let null: Option<i64> = conn
            .query_row("SELECT lead_card(NULL, 'SA')", [], |r| r.get(0))
            .unwrap();
        assert_eq!(null, None);
        for sql in [
            "SELECT lead_card(x'00', 'SA')",
            "SELECT lead_card(42, 'SA')",
        ] {
            let e = sql_error(&conn, sql);
            assert!(e.contains("lead_card()"), "{sql}: {e}");
        }
    }
}
