//! The play of the cards: the seed 000 seat array, play records, and a game's play replayed.
//!
//! - [`CardLayout`] is seed 000 §1's internal format: 52 slots in suited order (slot =
//!   `suit * 13 + (14 - rank)`, suits ♠ ♥ ♦ ♣, which is dealdex's [`Card`] number), each holding
//!   the seat of its card, `0` = not in play (played), `1..=4` = W, N, E, S. It describes the
//!   layout of the cards at any point of the play.
//! - [`PlayRecord`] is seed 000's play record: up to 13 tricks of `[leader, four cards in play
//!   order]` (FORMATS.md §11); only the last trick may be short (a claim).
//!
//! The tricks themselves, strains and who wins a trick ([`Trick`], [`Strain`],
//! [`trick_winner`]) are the model's bridge vocabulary (`crate::contract`).
//!
//! Replaying a record ([`PlayRecord::check`], [`PlayRecord::replay`], [`board_play`]) checks
//! each card against the layout: it must be held by the seat whose turn it is, and a seat
//! that holds a card of the suit led must follow suit. Errors name the trick (1-based) and the
//! card.

use crate::card::{Card, Seat};
use crate::contract::{Strain, Trick, declarer_of, strain_of, trick_winner};
use crate::deal::{Deal, Hand};
use crate::error::{Error, ErrorKind};
use crate::game::{GameRecord, Play};

/// The seed 000 seat value of a seat: W = 1, N = 2, E = 3, S = 4.
pub const fn seed000_seat(seat: Seat) -> u8 {
    (seat.index() as u8 + 1) % 4 + 1
}

/// The seat of a seed 000 seat value 1..=4 (W, N, E, S); `None` for 0 and above 4.
pub const fn seat_of_seed000(value: u8) -> Option<Seat> {
    match value {
        1..=4 => Some(Seat::from_index(value as usize + 2)),
        _ => None,
    }
}

/// The layout of the cards at a point of the play: seed 000 §1's 52-slot array. Slot `i` is card `i` in suited
/// order (♠A = 0 … ♣2 = 51, `suit * 13 + (14 - rank)`); its value is the seat holding the
/// card, 1 = West, 2 = North, 3 = East, 4 = South, or 0 when the card is no longer in play.
///
/// ```
/// use dealdex::{Card, CardLayout, Seat};
/// let deal: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
///     .parse()
///     .unwrap();
/// let mut p = CardLayout::from_deal(&deal);
/// assert_eq!(p.slots()[0], 2); // ♠A: North
/// assert_eq!(p.slots()[51], 1); // ♣2: West
/// let lead = Card::from_index(12).unwrap(); // ♠2
/// p.play_trick(1, Seat::North, &[lead]).unwrap();
/// assert_eq!(p.slots()[12], 0);
/// assert_eq!(p.holder(lead), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CardLayout {
    slots: [u8; 52],
}

impl CardLayout {
    /// The layout before the opening lead: every card with its seat.
    pub fn from_deal(deal: &Deal) -> CardLayout {
        let mut slots = [0u8; 52];
        for seat in Seat::ALL {
            for c in deal.hand(seat).cards() {
                slots[c.index()] = seed000_seat(seat);
            }
        }
        CardLayout { slots }
    }

    /// A layout from its seed 000 slots (any number of cards in play, any number a seat).
    ///
    /// # Errors
    /// [`ErrorKind::BadSlot`] naming the first slot whose value is above 4.
    pub fn from_slots(slots: [u8; 52]) -> Result<CardLayout, Error> {
        match slots.iter().position(|&v| v > 4) {
            Some(slot) => Err(ErrorKind::BadSlot {
                slot,
                value: slots[slot],
            }
            .into()),
            None => Ok(CardLayout { slots }),
        }
    }

    /// The 52 seed 000 slot values (0 = played, 1..=4 = W, N, E, S).
    pub const fn slots(&self) -> &[u8; 52] {
        &self.slots
    }

    /// The seat holding `card`, or `None` when it has been played.
    pub fn holder(&self, card: Card) -> Option<Seat> {
        seat_of_seed000(self.slots[card.index()])
    }

    /// The cards `seat` still holds.
    pub fn hand(&self, seat: Seat) -> Hand {
        let code = seed000_seat(seat);
        let mut mask = 0u64;
        for (i, &v) in self.slots.iter().enumerate() {
            if v == code {
                mask |= 1 << i;
            }
        }
        Hand::from_mask(mask)
    }

    /// The cards no longer in play (slot value 0).
    pub fn played(&self) -> Hand {
        let mut mask = 0u64;
        for (i, &v) in self.slots.iter().enumerate() {
            if v == 0 {
                mask |= 1 << i;
            }
        }
        Hand::from_mask(mask)
    }

    /// Plays the cards of trick `number` (1-based, for error messages) in play order, led by
    /// `leader`: `cards[i]` is played by `leader.rotate(i)`. Each card must be held by its
    /// seat, and a seat holding a card of the suit led (`cards[0]`'s) must play one. The
    /// played slots become 0. Up to four cards (fewer for a trick cut short by a claim).
    ///
    /// # Errors
    /// [`ErrorKind::TrickSize`] for no card or more than four, [`ErrorKind::NotHeld`],
    /// [`ErrorKind::Revoke`]; the layout is unchanged then.
    pub fn play_trick(&mut self, number: usize, leader: Seat, cards: &[Card]) -> Result<(), Error> {
        if cards.is_empty() || cards.len() > 4 {
            return Err(ErrorKind::TrickSize {
                trick: number,
                count: cards.len(),
            }
            .into());
        }
        let mut next = *self;
        let led = cards[0].suit();
        for (i, &card) in cards.iter().enumerate() {
            let seat = leader.rotate(i);
            if next.slots[card.index()] != seed000_seat(seat) {
                return Err(ErrorKind::NotHeld {
                    trick: number,
                    place: i + 1,
                    card,
                    seat,
                    holder: next.holder(card),
                }
                .into());
            }
            if card.suit() != led {
                let holding = next.hand(seat).suit_mask(led);
                if holding != 0 {
                    let held =
                        Card::from_index(led.index() * 13 + holding.trailing_zeros() as usize)
                            .expect("slot below 52");
                    return Err(ErrorKind::Revoke {
                        trick: number,
                        place: i + 1,
                        card,
                        seat,
                        led,
                        held,
                    }
                    .into());
                }
            }
            next.slots[card.index()] = 0;
        }
        *self = next;
        Ok(())
    }

    /// Plays a complete trick (see [`CardLayout::play_trick`]) and returns it with its winner
    /// under `strain`.
    ///
    /// # Errors
    /// As [`CardLayout::play_trick`]; the layout is unchanged then.
    pub fn apply_trick(
        &mut self,
        number: usize,
        leader: Seat,
        cards: [Card; 4],
        strain: Strain,
    ) -> Result<Trick, Error> {
        self.play_trick(number, leader, &cards)?;
        Ok(Trick::new(leader, cards, strain))
    }
}

/// One trick of a [`PlayRecord`]: seed 000's `[leader, cards…]`, the cards in play order
/// (`cards[i]` played by `leader.rotate(i)`), four of them except in a last trick cut short.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TrickRecord {
    /// The seat that led.
    pub leader: Seat,
    /// The cards in play order, 1 to 4.
    pub cards: Vec<Card>,
}

/// A play record (seed 000 §1, FORMATS.md §11): up to 13 tricks, each its leader and its
/// cards in play order. Only the last trick may have fewer than four cards (the play
/// stopped, e.g. on a claim). The constructors check this shape, not the cards against a
/// deal: that is [`PlayRecord::check`] and [`PlayRecord::replay`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlayRecord {
    tricks: Vec<TrickRecord>,
}

impl PlayRecord {
    /// A record of the given tricks.
    ///
    /// # Errors
    /// [`ErrorKind::TooManyTricks`] above 13; [`ErrorKind::TrickSize`] for a trick with no
    /// card or more than four, or with fewer than four before the last.
    pub fn new(tricks: Vec<TrickRecord>) -> Result<PlayRecord, Error> {
        if tricks.len() > 13 {
            return Err(ErrorKind::TooManyTricks {
                count: tricks.len(),
            }
            .into());
        }
        for (t, tr) in tricks.iter().enumerate() {
            let last = t + 1 == tricks.len();
            let n = tr.cards.len();
            if n == 0 || n > 4 || (n < 4 && !last) {
                return Err(ErrorKind::TrickSize {
                    trick: t + 1,
                    count: n,
                }
                .into());
            }
        }
        Ok(PlayRecord { tricks })
    }

    /// The record of cards in play order (up to 52), cut into tricks of four; each trick's
    /// leader is the seat of `deal` holding its first card (what a legal play implies: the
    /// winner of a trick leads the next).
    ///
    /// # Errors
    /// [`ErrorKind::TooManyTricks`] for more than 52 cards.
    pub fn from_play_order(deal: &Deal, cards: &[Card]) -> Result<PlayRecord, Error> {
        PlayRecord::new(
            cards
                .chunks(4)
                .map(|c| TrickRecord {
                    leader: deal.seat_of(c[0]),
                    cards: c.to_vec(),
                })
                .collect(),
        )
    }

    /// Converts PBN's `[Play]` layout (FORMATS.md §4; [`Play`]: `tricks[t][j]` is the card of
    /// seat `play.leader.rotate(j)`) into play order. Trick 1 is led by `play.leader`; each
    /// later trick by the winner of the one before under `strain`. A trick's missing cards
    /// (`-`) must come after its recorded ones in play order, and only the last recorded
    /// trick may miss cards; trailing tricks with no card at all are dropped.
    ///
    /// ```
    /// use dealdex::formats::Play;
    /// use dealdex::{Card, PlayRecord, Seat, Strain};
    /// let c = |s: &str| Card::all().find(|c| c.to_string() == s);
    /// // Columns W N E S; North ruffs trick 1 with a heart and leads trick 2.
    /// let play = Play {
    ///     leader: Seat::West,
    ///     tricks: vec![
    ///         [c("SK"), c("H3"), c("S4"), c("S3")],
    ///         [c("C5"), c("C2"), c("C6"), c("CK")],
    ///     ],
    /// };
    /// let r = PlayRecord::from_pbn_play(&play, Strain::from_bid("5H").unwrap())?;
    /// assert_eq!(r.tricks()[1].leader, Seat::North);
    /// assert_eq!(r.tricks()[1].cards, vec![c("C2").unwrap(), c("C6").unwrap(), c("CK").unwrap(), c("C5").unwrap()]);
    /// assert_eq!(r.to_pbn_play(), Some(play));
    /// # Ok::<(), dealdex::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::Gap`] for a missing card before a recorded one (in its trick or a later
    /// one); [`ErrorKind::TooManyTricks`] above 13.
    pub fn from_pbn_play(play: &Play, strain: Strain) -> Result<PlayRecord, Error> {
        let opening = play.leader;
        let used = play
            .tricks
            .iter()
            .rposition(|row| row.iter().any(Option::is_some))
            .map_or(0, |t| t + 1);
        if used > 13 {
            return Err(ErrorKind::TooManyTricks { count: used }.into());
        }
        let mut leader = opening;
        let mut tricks = Vec::with_capacity(used);
        for (t, row) in play.tricks[..used].iter().enumerate() {
            let in_order: Vec<Option<Card>> = (0..4)
                .map(|i| row[(leader.rotate(i).index() + 4 - opening.index()) % 4])
                .collect();
            let n = in_order.iter().take_while(|c| c.is_some()).count();
            // A missing card before a recorded one, in this trick or (for a short trick) in
            // a later one.
            if in_order[n..].iter().any(Option::is_some) || n == 0 || (n < 4 && t + 1 < used) {
                return Err(ErrorKind::Gap {
                    trick: t + 1,
                    seat: leader.rotate(n),
                }
                .into());
            }
            let cards: Vec<Card> = in_order.into_iter().flatten().collect();
            let this = leader;
            if let [a, b, c, d] = cards[..] {
                leader = leader.rotate(trick_winner(&[a, b, c, d], strain));
            }
            tricks.push(TrickRecord {
                leader: this,
                cards,
            });
        }
        PlayRecord::new(tricks)
    }

    /// The record in PBN's `[Play]` layout: the opening leader and, per trick, the card of
    /// each seat clockwise from the opening leader (`None` where the trick stopped). `None`
    /// for an empty record.
    pub fn to_pbn_play(&self) -> Option<Play> {
        let opening = self.tricks.first()?.leader;
        let tricks = self
            .tricks
            .iter()
            .map(|tr| {
                let mut row = [None; 4];
                for (i, &c) in tr.cards.iter().enumerate() {
                    row[(tr.leader.rotate(i).index() + 4 - opening.index()) % 4] = Some(c);
                }
                row
            })
            .collect();
        Some(Play {
            leader: opening,
            tricks,
        })
    }

    /// The tricks, in order.
    pub fn tricks(&self) -> &[TrickRecord] {
        &self.tricks
    }

    /// The seat that led to the first trick; `None` for an empty record.
    pub fn opening_leader(&self) -> Option<Seat> {
        self.tricks.first().map(|t| t.leader)
    }

    /// Every card with the seat that played it, in play order.
    pub fn seated_cards(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        self.tricks.iter().flat_map(|t| {
            t.cards
                .iter()
                .enumerate()
                .map(move |(i, &c)| (t.leader.rotate(i), c))
        })
    }

    /// The cards in play order (up to 52).
    pub fn cards(&self) -> Vec<Card> {
        self.tricks
            .iter()
            .flat_map(|t| t.cards.iter().copied())
            .collect()
    }

    /// Replays the record on `deal` without a strain: every card held by the seat whose turn
    /// it is and suit followed when possible. Each trick's leader is taken from the record.
    /// Returns the layout after the last card.
    ///
    /// # Errors
    /// [`ErrorKind::NotHeld`] or [`ErrorKind::Revoke`] naming the trick and card.
    pub fn check(&self, deal: &Deal) -> Result<CardLayout, Error> {
        let mut p = CardLayout::from_deal(deal);
        for (t, tr) in self.tricks.iter().enumerate() {
            p.play_trick(t + 1, tr.leader, &tr.cards)?;
        }
        Ok(p)
    }

    /// Replays the record on `deal` under `strain` (see [`PlayRecord::check`]), also checking
    /// that the winner of each trick leads the next, and returns the complete tricks with
    /// their winners (a last trick cut short is not among them).
    ///
    /// # Errors
    /// [`ErrorKind::NotHeld`], [`ErrorKind::Revoke`] or [`ErrorKind::WrongLeader`] naming the
    /// trick (and card).
    pub fn replay(&self, deal: &Deal, strain: Strain) -> Result<Vec<Trick>, Error> {
        let mut p = CardLayout::from_deal(deal);
        let mut out: Vec<Trick> = Vec::with_capacity(self.tricks.len());
        for (t, tr) in self.tricks.iter().enumerate() {
            if let Some(prev) = out.last()
                && prev.winner != tr.leader
            {
                return Err(ErrorKind::WrongLeader {
                    trick: t + 1,
                    expected: prev.winner,
                    found: tr.leader,
                }
                .into());
            }
            p.play_trick(t + 1, tr.leader, &tr.cards)?;
            if let [a, b, c, d] = tr.cards[..] {
                out.push(Trick::new(tr.leader, [a, b, c, d], strain));
            }
        }
        Ok(out)
    }

    /// The cards of this record before the card `error` names (trick `t`, place `p`, both
    /// 1-based: the first `t - 1` tricks and the first `p - 1` cards of trick `t`); `None`
    /// when `error` names no card of a trick, or no card would be left.
    fn before(&self, error: &Error) -> Option<PlayRecord> {
        let (trick, place) = match *error.kind() {
            ErrorKind::NotHeld { trick, place, .. } | ErrorKind::Revoke { trick, place, .. } => {
                (trick, place)
            }
            ErrorKind::WrongLeader { trick, .. } => (trick, 1),
            _ => return None,
        };
        let mut tricks: Vec<TrickRecord> = self.tricks.iter().take(trick - 1).cloned().collect();
        if place > 1 {
            let tr = self.tricks.get(trick - 1)?;
            tricks.push(TrickRecord {
                leader: tr.leader,
                cards: tr.cards[..place - 1].to_vec(),
            });
        }
        if tricks.is_empty() {
            return None;
        }
        PlayRecord::new(tricks).ok()
    }
}

/// A board's play made into a validated record by [`board_play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardPlay {
    /// The contract's strain, `None` when the game does not say.
    pub strain: Option<Strain>,
    /// Declarer, `None` when the game does not say.
    pub declarer: Option<Seat>,
    /// The play in play order: the whole play, or the legal cards before the one that
    /// [`BoardPlay::cut_by`] names.
    pub record: PlayRecord,
    /// Why the play was cut short: the first card that does not replay (a card not held,
    /// a revoke, a trick led by the wrong seat); `None` when the whole play replays.
    pub cut_by: Option<Error>,
}

/// Replays a game's play (PBN `[Play]` or LIN `pc|`, as [`GameRecord::play`]) on its deal.
///
/// The strain and declarer are what the game says of its contract:
/// [`contract_of`](crate::contract::contract_of)'s, else its `Contract` tag's strain or its
/// `Declarer` tag's seat. With declarer known, the opening lead
/// must be declarer's left-hand opponent's. With the strain known, the PBN layout is put in
/// play order under it and replayed ([`PlayRecord::replay`]: cards held, suit followed, each
/// winner leading the next trick). With the strain unknown, the strains are tried in the
/// order of [`Strain::ALL`] (notrump first) and the first under which the play replays
/// legally ([`PlayRecord::check`]) gives the play order; [`BoardPlay::strain`] stays `None`.
/// `Ok(None)` when the game has no play or no card of it is recorded.
///
/// With the strain known, a play that stops replaying (a card not held, a revoke, a trick
/// led by the wrong seat) is kept up to the card before: [`BoardPlay::cut_by`] says why, as
/// LIN's reader keeps a `pc|` sequence up to its first illegal card.
///
/// # Errors
/// A play's kind ([`ErrorKind::NotHeld`], …) naming the trick and card when no card of the
/// play can be kept: the opening lead by the wrong seat, a gap in the PBN layout, an illegal
/// first card; with the strain unknown, a play that replays under no strain (the error under
/// notrump).
pub fn board_play(deal: &Deal, game: &GameRecord) -> Result<Option<BoardPlay>, Error> {
    let Some(play) = &game.play else {
        return Ok(None);
    };
    if !play.tricks.iter().flatten().any(Option::is_some) {
        return Ok(None);
    }
    let (strain, declarer) = (strain_of(game), declarer_of(game));
    if let Some(d) = declarer
        && play.leader != d.next()
    {
        return Err(ErrorKind::WrongOpeningLeader {
            declarer: d,
            found: play.leader,
        }
        .into());
    }
    let mut cut_by = None;
    let record = match strain {
        Some(s) => {
            let r = PlayRecord::from_pbn_play(play, s)?;
            match r.replay(deal, s) {
                Ok(_) => r,
                Err(e) => {
                    let kept = r.before(&e).ok_or_else(|| e.clone())?;
                    cut_by = Some(e);
                    kept
                }
            }
        }
        None => {
            let mut first_err = None;
            let mut found = None;
            for s in Strain::ALL {
                match PlayRecord::from_pbn_play(play, s).and_then(|r| r.check(deal).map(|_| r)) {
                    Ok(r) => {
                        found = Some(r);
                        break;
                    }
                    Err(e) => {
                        first_err.get_or_insert(e);
                    }
                }
            }
            match found {
                Some(r) => r,
                None => return Err(first_err.expect("five strains tried")),
            }
        }
    };
    Ok(Some(BoardPlay {
        strain,
        declarer,
        record,
        cut_by,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed000_seat_values() {
        assert_eq!(seed000_seat(Seat::West), 1);
        assert_eq!(seed000_seat(Seat::North), 2);
        assert_eq!(seed000_seat(Seat::East), 3);
        assert_eq!(seed000_seat(Seat::South), 4);
        for s in Seat::ALL {
            assert_eq!(seat_of_seed000(seed000_seat(s)), Some(s));
        }
        assert_eq!(seat_of_seed000(0), None);
        assert_eq!(seat_of_seed000(5), None);
    }
}
