//! Seed 004's compact game state: a state is a fixed sequence of groups, each a group byte
//! `1 NNNNNNN` (N = how many cards follow, 0..=127) followed by that many card bytes
//! `0 F SS RRRR` (F = face up; suit ♠ = 00, ♦ = 01, ♣ = 10, ♥ = 11; rank A = 0, 2..10 = 1..9,
//! J = 0xA, knight = 0xB, Q = 0xC, K = 0xD; FORMATS.md §11, seed `004_…`).
//!
//! [`encode_groups`] and [`decode_groups`] handle any game's groups; [`PlayState`] uses them
//! for a bridge position during the play. The seed's invariants, checked on decode, are the
//! order and number of groups, the number of cards and so the number of bytes per state.

use crate::card::{Card, Seat};
use crate::deal::{Deal, Hand};
use crate::error::{Error, ErrorKind};
use crate::play::record::{CardLayout, PlayRecord, seat_of_seed000, seed000_seat};

/// Encodes groups of card bytes: for each group its group byte `0x80 | count`, then its bytes.
///
/// ```
/// let bytes = dealdex::encode_groups(&[&[0x41, 0x3D], &[]])?;
/// assert_eq!(bytes, [0x82, 0x41, 0x3D, 0x80]);
/// # Ok::<(), dealdex::ModelError>(())
/// ```
///
/// # Errors
/// [`ErrorKind::StateGroupTooLarge`] for a group of more than 127 cards,
/// [`ErrorKind::StateNotACardByte`] for a byte with the top bit set.
pub fn encode_groups(groups: &[&[u8]]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(groups.len() + groups.iter().map(|g| g.len()).sum::<usize>());
    for (g, cards) in groups.iter().enumerate() {
        if cards.len() > 127 {
            return Err(ErrorKind::StateGroupTooLarge {
                group: g,
                count: cards.len(),
            }
            .into());
        }
        if let Some(card) = cards.iter().position(|&b| b & 0x80 != 0) {
            return Err(ErrorKind::StateNotACardByte {
                group: g,
                card,
                byte: cards[card],
            }
            .into());
        }
        out.push(0x80 | cards.len() as u8);
        out.extend_from_slice(cards);
    }
    Ok(out)
}

/// One decoded group: where its group byte is and its card bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group<'a> {
    /// Offset of the group byte.
    pub offset: usize,
    /// The card bytes (offset `offset + 1 + i` for card `i`).
    pub cards: &'a [u8],
}

/// Splits a state into its groups, checking that each group byte's count matches the card
/// bytes that follow it. An empty input has no group.
///
/// ```
/// let groups = dealdex::decode_groups(&[0x82, 0x41, 0x3D, 0x80])?;
/// assert_eq!(groups.len(), 2);
/// assert_eq!(groups[0].cards, [0x41, 0x3D]);
/// assert_eq!(groups[1].offset, 3);
/// # Ok::<(), dealdex::ModelError>(())
/// ```
///
/// # Errors
/// [`ErrorKind::StateGroupExpected`] when a card byte starts the state or follows a full
/// group; [`ErrorKind::StateCountMismatch`] for a group byte before a group's count is
/// reached; [`ErrorKind::StateTruncated`] when the state ends inside a group.
pub fn decode_groups(bytes: &[u8]) -> Result<Vec<Group<'_>>, Error> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b & 0x80 == 0 {
            return Err(ErrorKind::StateGroupExpected {
                offset: i,
                byte: b,
                group: out.len(),
            }
            .into());
        }
        let count = (b & 0x7F) as usize;
        let start = i;
        let avail = &bytes[i + 1..];
        let found = avail
            .iter()
            .take(count)
            .take_while(|&&c| c & 0x80 == 0)
            .count();
        if found < count {
            return Err(match avail.get(found) {
                Some(&byte) => ErrorKind::StateCountMismatch {
                    offset: i + 1 + found,
                    group: out.len(),
                    start,
                    count,
                    found,
                    byte,
                },
                None => ErrorKind::StateTruncated {
                    offset: bytes.len(),
                    group: out.len(),
                    start,
                    count,
                    found,
                },
            }
            .into());
        }
        out.push(Group {
            offset: start,
            cards: &avail[..count],
        });
        i += 1 + count;
    }
    Ok(out)
}

/// The seed 004 card byte of a bridge card ([`crate::play::encoding::card_byte`]).
fn card_byte(card: Card, face_up: bool) -> u8 {
    crate::play::encoding::card_byte(card, face_up)
}

/// The bridge card of a seed 004 card byte (face-up bit ignored); `None` for the knight and
/// the reserved ranks ([`crate::play::encoding::card_from_card_byte`]).
fn byte_card(byte: u8) -> Option<Card> {
    crate::play::encoding::card_from_card_byte(byte)
        .ok()
        .map(|c| c.card)
}

/// The seats in seed 000 order (1 = W, 2 = N, 3 = E, 4 = S): the order of [`PlayState`]'s
/// groups.
const SEED000_SEATS: [Seat; 4] = [Seat::West, Seat::North, Seat::East, Seat::South];

/// A bridge position during the play as a seed 004 game state: the seed 000 [`CardLayout`]
/// (the cards still held) and, for each seat, the cards it has played in trick order.
///
/// Its bytes are 8 groups, 60 bytes in all (52 cards and 8 group bytes): the hands of West,
/// North, East and South (seed 000 seat order; cards face down, in suited order ♠A first),
/// then the cards played by West, North, East and South (face up, card `k` of a group being
/// the seat's card to trick `k + 1`).
///
/// ```
/// let deal: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
///     .parse()
///     .unwrap();
/// let state = dealdex::PlayState::new(&deal);
/// let bytes = state.encode();
/// assert_eq!(bytes.len(), 60);
/// assert_eq!(&bytes[..2], [0x8D, 0x20]); // West's 13 cards, the ♣A first
/// assert_eq!(dealdex::PlayState::decode(&bytes)?, state);
/// # Ok::<(), dealdex::ModelError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayState {
    /// The cards still held (seed 000 array).
    pub layout: CardLayout,
    /// The cards each seat has played, in trick order, indexed by [`Seat::index`] (N, E, S, W).
    pub played: [Vec<Card>; 4],
}

impl PlayState {
    /// Groups in a state: four hands and four played piles.
    pub const GROUPS: usize = 8;
    /// Bytes in a state: 52 card bytes and [`PlayState::GROUPS`] group bytes.
    pub const BYTES: usize = 52 + PlayState::GROUPS;

    /// The state before the opening lead.
    pub fn new(deal: &Deal) -> PlayState {
        PlayState {
            layout: CardLayout::from_deal(deal),
            played: Default::default(),
        }
    }

    /// The state after the first `cards` cards of `record` (all of them when `cards` is larger).
    ///
    /// # Errors
    /// A play's kind ([`ErrorKind::NotHeld`], …) when the record does not replay on `deal`
    /// ([`PlayRecord::check`]'s errors).
    pub fn during(deal: &Deal, record: &PlayRecord, cards: usize) -> Result<PlayState, Error> {
        let mut state = PlayState::new(deal);
        let mut left = cards;
        for (t, tr) in record.tricks().iter().enumerate() {
            if left == 0 {
                break;
            }
            let n = tr.cards.len().min(left);
            state.layout.play_trick(t + 1, tr.leader, &tr.cards[..n])?;
            for (i, &c) in tr.cards[..n].iter().enumerate() {
                state.played[tr.leader.rotate(i).index()].push(c);
            }
            left -= n;
        }
        Ok(state)
    }

    /// The deal the play started from: each seat's hand and played cards together.
    ///
    /// # Errors
    /// [`ErrorKind::WrongCount`] or [`ErrorKind::DuplicateCard`] when they are not a deal (a
    /// state built by hand).
    pub fn deal(&self) -> Result<Deal, Error> {
        let hands = Seat::ALL.map(|s| {
            let mut h = self.layout.hand(s);
            for &c in &self.played[s.index()] {
                h.insert(c);
            }
            h
        });
        Deal::new(hands)
    }

    /// The state's 60 bytes (see [`PlayState`]).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(PlayState::BYTES);
        for seat in SEED000_SEATS {
            let hand = self.layout.hand(seat);
            out.push(0x80 | hand.len() as u8);
            out.extend(hand.cards().map(|c| card_byte(c, false)));
        }
        for seat in SEED000_SEATS {
            let pile = &self.played[seat.index()];
            out.push(0x80 | pile.len() as u8);
            out.extend(pile.iter().map(|&c| card_byte(c, true)));
        }
        out
    }

    /// Reads a state written by [`PlayState::encode`]. The face-up bits are not checked; the
    /// cards of a hand may come in any order.
    ///
    /// ```
    /// use dealdex::{ModelErrorKind, PlayState};
    /// let deal: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    ///     .parse()
    ///     .unwrap();
    /// let mut bytes = PlayState::new(&deal).encode();
    /// bytes[5] = 0x2B; // a knight
    /// let e = PlayState::decode(&bytes).unwrap_err();
    /// assert!(matches!(e.kind(), ModelErrorKind::StateBadCard { offset: 5, .. }));
    /// assert_eq!(e.position().unwrap().byte, Some(5));
    /// ```
    ///
    /// # Errors
    /// Each names the byte offset: [`decode_groups`]'s errors, then
    /// [`ErrorKind::StateGroupCount`] unless there are 8 groups,
    /// [`ErrorKind::StateCardCount`] unless they hold 52 cards (60 bytes),
    /// [`ErrorKind::StateBadCard`], [`ErrorKind::StateDuplicateCard`], and
    /// [`ErrorKind::StateSeatCards`] when a seat's hand and played cards are not 13 or its
    /// played cards differ from another seat's by more than one.
    pub fn decode(bytes: &[u8]) -> Result<PlayState, Error> {
        const WHAT: &str = "bridge play";
        let groups = decode_groups(bytes)?;
        if groups.len() != PlayState::GROUPS {
            return Err(ErrorKind::StateGroupCount {
                offset: groups
                    .get(PlayState::GROUPS)
                    .map_or(bytes.len(), |g| g.offset),
                found: groups.len(),
                expected: PlayState::GROUPS,
                what: WHAT,
            }
            .into());
        }
        let cards: usize = groups.iter().map(|g| g.cards.len()).sum();
        if cards != 52 {
            return Err(ErrorKind::StateCardCount {
                offset: bytes.len(),
                cards,
                bytes: bytes.len(),
                expected_cards: 52,
                expected_bytes: PlayState::BYTES,
                what: WHAT,
            }
            .into());
        }
        let mut seen = [usize::MAX; 52];
        let mut slots = [0u8; 52];
        let mut played: [Vec<Card>; 4] = Default::default();
        for (g, group) in groups.iter().enumerate() {
            let seat = SEED000_SEATS[g % 4];
            for (i, &byte) in group.cards.iter().enumerate() {
                let offset = group.offset + 1 + i;
                let card = byte_card(byte).ok_or(ErrorKind::StateBadCard { offset, byte })?;
                if seen[card.index()] != usize::MAX {
                    return Err(ErrorKind::StateDuplicateCard {
                        offset,
                        first: seen[card.index()],
                        card,
                    }
                    .into());
                }
                seen[card.index()] = offset;
                if g < 4 {
                    slots[card.index()] = seed000_seat(seat);
                } else {
                    played[seat.index()].push(card);
                }
            }
        }
        let layout = CardLayout::from_slots(slots).expect("slots are seed 000 seat values");
        let counts = played.iter().map(Vec::len);
        let (lo, hi) = (counts.clone().min().unwrap_or(0), counts.max().unwrap_or(0));
        for (g, group) in groups.iter().take(4).enumerate() {
            let seat = SEED000_SEATS[g];
            let held = group.cards.len();
            let p = played[seat.index()].len();
            let why = if held + p != 13 {
                "a seat has 13 cards in all"
            } else if hi - lo > 1 && (p == lo || p == hi) {
                "every seat plays to each trick in turn, so the seats' played cards differ by at most one"
            } else {
                continue;
            };
            return Err(ErrorKind::StateSeatCards {
                offset: group.offset,
                seat,
                held,
                played: p,
                why,
            }
            .into());
        }
        debug_assert!(
            slots
                .iter()
                .all(|&v| seat_of_seed000(v).is_some() || v == 0)
        );
        Ok(PlayState { layout, played })
    }

    /// The cards `seat` still holds.
    pub fn hand(&self, seat: Seat) -> Hand {
        self.layout.hand(seat)
    }
}
