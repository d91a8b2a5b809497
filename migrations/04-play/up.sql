-- dealdex schema: the play of the cards (issue 5), stored with its deal. One row per play
-- record imported from a PBN [Play] section or LIN pc| records, after it was replayed on the
-- deal and found legal (cards held by the seat to play, suit followed, each trick's winner
-- leading the next).
--   deal     the deal played (13-byte index, FORMATS.md §2)
--   set_id   the set the board was imported into (import --set), else NULL
--   board    the board number in the file it came from, NULL when the file has none
--   strain   the contract's strain 'S', 'H', 'D', 'C' or 'NT'; NULL when the game does not say
--            (PBN Contract tag, else the auction) and the tricks' winners are then those the
--            order of the record implies
--   declarer 'N', 'E', 'S' or 'W'; NULL when unknown
--   leader   the seat of the opening lead
--   cards    the cards in play order, one byte each: the card's seed 000 slot 0..51
--            (suit * 13 + 14 - rank, suits S H D C: 0 = SA, 51 = C2); tricks are consecutive
--            groups of four, each led by the seat holding its first card; a last trick cut short
--            (a claim) has fewer
-- The same play of the same board of the same set is stored once (the unique index, with
-- NULLs compared as equal).
CREATE TABLE plays (
    id       INTEGER PRIMARY KEY,
    deal     BLOB    NOT NULL REFERENCES deals(key),
    set_id   INTEGER REFERENCES sets(id) ON DELETE CASCADE,
    board    INTEGER,
    strain   TEXT CHECK (strain IN ('S', 'H', 'D', 'C', 'NT')),
    declarer TEXT CHECK (declarer IN ('N', 'E', 'S', 'W')),
    leader   TEXT    NOT NULL CHECK (leader IN ('N', 'E', 'S', 'W')),
    cards    BLOB    NOT NULL CHECK (typeof(cards) = 'blob' AND length(cards) BETWEEN 1 AND 52)
);
CREATE UNIQUE INDEX plays_unique ON plays(deal, ifnull(set_id, -1), ifnull(board, -1), cards);
