//! Seed 004's compact game state: a state is a fixed sequence of groups, each a group byte
//! `1 NNNNNNN` (N = how many cards follow, 0..=127) followed by that many card bytes
//! `0 F SS RRRR` (F = face up; suit ♠ = 00, ♦ = 01, ♣ = 10, ♥ = 11; rank A = 0, 2..10 = 1..9,
//! J = 0xA, knight = 0xB, Q = 0xC, K = 0xD; FORMATS.md §11, seed `004_…`).
//!
//! [`encode_groups`] and [`decode_groups`] handle any game's groups; [`PlayState`] uses them
//! for a bridge position during the play. The seed's invariants, checked on decode, are the
//! order and number of groups, the number of cards and so the number of bytes per state.

use crate::card::{Card, Seat};
use crate::deal::{Deal, DealError, Hand};
use crate::play::record::{CardLayout, PlayError, PlayRecord, seat_of_seed000, seed000_seat};

/// Why bytes are not a game state, with the 0-based byte offset of the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameStateError {
    /// A card byte (top bit 0) where a group byte (top bit 1) must start the next group.
    #[error(
        "byte {offset}: 0x{byte:02X} is a card byte where a group byte (1NNNNNNN) must start group {group}"
    )]
    GroupExpected {
        /// Offset of the byte.
        offset: usize,
        /// The byte.
        byte: u8,
        /// 0-based number of the group it should start.
        group: usize,
    },
    /// A group byte inside a group: the group holds fewer cards than its count says.
    #[error(
        "byte {offset}: group {group} (byte {start}) announces {count} cards but holds {found}: 0x{byte:02X} is a group byte"
    )]
    CountMismatch {
        /// Offset of the unexpected group byte.
        offset: usize,
        /// 0-based number of the group.
        group: usize,
        /// Offset of the group's group byte.
        start: usize,
        /// The card count the group byte announces.
        count: usize,
        /// How many card bytes follow before the next group byte.
        found: usize,
        /// The group byte found.
        byte: u8,
    },
    /// The state ends inside a group.
    #[error(
        "byte {offset}: the state ends, but group {group} (byte {start}) announces {count} cards and holds {found}"
    )]
    Truncated {
        /// Offset of the end (the state's length).
        offset: usize,
        /// 0-based number of the group.
        group: usize,
        /// Offset of the group's group byte.
        start: usize,
        /// The card count the group byte announces.
        count: usize,
        /// How many card bytes there are.
        found: usize,
    },
    /// Encoding: a group of more than 127 cards.
    #[error("group {group} has {count} cards; a group byte holds at most 127")]
    GroupTooLarge {
        /// 0-based number of the group.
        group: usize,
        /// Its number of cards.
        count: usize,
    },
    /// Encoding: a card byte with its top bit set.
    #[error("group {group}, card {card}: 0x{byte:02X} is not a card byte (top bit must be 0)")]
    NotACardByte {
        /// 0-based number of the group.
        group: usize,
        /// 0-based place of the card in the group.
        card: usize,
        /// The byte.
        byte: u8,
    },
    /// A state with the wrong number of groups.
    #[error("byte {offset}: {found} groups, a {what} state has {expected}")]
    GroupCount {
        /// Offset of the first surplus group byte, or the state's length when groups are missing.
        offset: usize,
        /// Groups found.
        found: usize,
        /// Groups expected.
        expected: usize,
        /// The kind of state.
        what: &'static str,
    },
    /// A state with the wrong number of cards (and so of bytes).
    #[error(
        "byte {offset}: {cards} cards in {bytes} bytes; a {what} state has {expected_cards} cards in {expected_bytes} bytes"
    )]
    CardCount {
        /// Offset of the state's end.
        offset: usize,
        /// Cards found.
        cards: usize,
        /// Bytes found.
        bytes: usize,
        /// Cards expected.
        expected_cards: usize,
        /// Bytes expected.
        expected_bytes: usize,
        /// The kind of state.
        what: &'static str,
    },
    /// A card byte naming no card of a bridge deck (the knight 0xB or a reserved rank 0xE, 0xF).
    #[error("byte {offset}: card byte 0x{byte:02X} has rank 0x{:X}, which a bridge deck does not have", byte & 0xF)]
    BadCard {
        /// Offset of the byte.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// A card that appears twice.
    #[error("byte {offset}: {card} appears a second time (first at byte {first})")]
    DuplicateCard {
        /// Offset of the second occurrence.
        offset: usize,
        /// Offset of the first.
        first: usize,
        /// The card.
        card: Card,
    },
    /// A seat whose hand and played cards do not add up to 13, or whose played cards are
    /// not within one of every other seat's.
    #[error("byte {offset}: {seat} holds {held} cards and played {played}: {why}")]
    SeatCards {
        /// Offset of the group byte of the seat's hand.
        offset: usize,
        /// The seat.
        seat: Seat,
        /// Cards in hand.
        held: usize,
        /// Cards played.
        played: usize,
        /// What is wrong.
        why: &'static str,
    },
}

// The game state is the caller's.
crate::classified!(GameStateError => BadInput);

/// Encodes groups of card bytes: for each group its group byte `0x80 | count`, then its bytes.
///
/// ```
/// let bytes = dealdex::encode_groups(&[&[0x41, 0x3D], &[]])?;
/// assert_eq!(bytes, [0x82, 0x41, 0x3D, 0x80]);
/// # Ok::<(), dealdex::GameStateError>(())
/// ```
///
/// # Errors
/// [`GameStateError::GroupTooLarge`] for a group of more than 127 cards,
/// [`GameStateError::NotACardByte`] for a byte with the top bit set.
pub fn encode_groups(groups: &[&[u8]]) -> Result<Vec<u8>, GameStateError> {
    let mut out = Vec::with_capacity(groups.len() + groups.iter().map(|g| g.len()).sum::<usize>());
    for (g, cards) in groups.iter().enumerate() {
        if cards.len() > 127 {
            return Err(GameStateError::GroupTooLarge {
                group: g,
                count: cards.len(),
            });
        }
        if let Some(card) = cards.iter().position(|&b| b & 0x80 != 0) {
            return Err(GameStateError::NotACardByte {
                group: g,
                card,
                byte: cards[card],
            });
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
/// # Ok::<(), dealdex::GameStateError>(())
/// ```
///
/// # Errors
/// [`GameStateError::GroupExpected`] when a card byte starts the state or follows a full
/// group; [`GameStateError::CountMismatch`] for a group byte before a group's count is
/// reached; [`GameStateError::Truncated`] when the state ends inside a group.
pub fn decode_groups(bytes: &[u8]) -> Result<Vec<Group<'_>>, GameStateError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b & 0x80 == 0 {
            return Err(GameStateError::GroupExpected {
                offset: i,
                byte: b,
                group: out.len(),
            });
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
                Some(&byte) => GameStateError::CountMismatch {
                    offset: i + 1 + found,
                    group: out.len(),
                    start,
                    count,
                    found,
                    byte,
                },
                None => GameStateError::Truncated {
                    offset: bytes.len(),
                    group: out.len(),
                    start,
                    count,
                    found,
                },
            });
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
/// # Ok::<(), dealdex::GameStateError>(())
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
    /// [`PlayError`] when the record does not replay on `deal` ([`PlayRecord::check`]'s errors).
    pub fn during(deal: &Deal, record: &PlayRecord, cards: usize) -> Result<PlayState, PlayError> {
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
    /// [`DealError`] when they are not a deal (a state built by hand).
    pub fn deal(&self) -> Result<Deal, DealError> {
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
    /// use dealdex::{GameStateError, PlayState};
    /// let deal: dealdex::Deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    ///     .parse()
    ///     .unwrap();
    /// let mut bytes = PlayState::new(&deal).encode();
    /// bytes[5] = 0x2B; // a knight
    /// assert!(matches!(PlayState::decode(&bytes), Err(GameStateError::BadCard { offset: 5, .. })));
    /// ```
    ///
    /// # Errors
    /// Each names the byte offset: [`decode_groups`]'s errors, then
    /// [`GameStateError::GroupCount`] unless there are 8 groups,
    /// [`GameStateError::CardCount`] unless they hold 52 cards (60 bytes),
    /// [`GameStateError::BadCard`], [`GameStateError::DuplicateCard`], and
    /// [`GameStateError::SeatCards`] when a seat's hand and played cards are not 13 or its
    /// played cards differ from another seat's by more than one.
    pub fn decode(bytes: &[u8]) -> Result<PlayState, GameStateError> {
        const WHAT: &str = "bridge play";
        let groups = decode_groups(bytes)?;
        if groups.len() != PlayState::GROUPS {
            return Err(GameStateError::GroupCount {
                offset: groups
                    .get(PlayState::GROUPS)
                    .map_or(bytes.len(), |g| g.offset),
                found: groups.len(),
                expected: PlayState::GROUPS,
                what: WHAT,
            });
        }
        let cards: usize = groups.iter().map(|g| g.cards.len()).sum();
        if cards != 52 {
            return Err(GameStateError::CardCount {
                offset: bytes.len(),
                cards,
                bytes: bytes.len(),
                expected_cards: 52,
                expected_bytes: PlayState::BYTES,
                what: WHAT,
            });
        }
        let mut seen = [usize::MAX; 52];
        let mut slots = [0u8; 52];
        let mut played: [Vec<Card>; 4] = Default::default();
        for (g, group) in groups.iter().enumerate() {
            let seat = SEED000_SEATS[g % 4];
            for (i, &byte) in group.cards.iter().enumerate() {
                let offset = group.offset + 1 + i;
                let card = byte_card(byte).ok_or(GameStateError::BadCard { offset, byte })?;
                if seen[card.index()] != usize::MAX {
                    return Err(GameStateError::DuplicateCard {
                        offset,
                        first: seen[card.index()],
                        card,
                    });
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
            return Err(GameStateError::SeatCards {
                offset: group.offset,
                seat,
                held,
                played: p,
                why,
            });
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
