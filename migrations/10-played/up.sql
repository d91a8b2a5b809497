-- dealdex schema, version 10: boards as played at a table (issue 53), one row a table's
-- record: what a PBN game or a LIN vugraph record says beside the deal, so that `export` and
-- `convert` write it back. A sibling of `plays` (migration 04), which needs cards and keeps
-- one row per distinct play: a played board may have an auction and a result but no card
-- recorded, and two rooms may play the same cards.
--   deal       the deal played (13-byte index, FORMATS.md §2), deduplicated as deals are
--   set_id     the set the board was imported into (import --set), else NULL
--   board      the board number in the file it came from, NULL when the file has none
--   room       'Open' or 'Closed' (PBN Room tag, LIN qx|o…| / qx|c…|), NULL when not told
--   north, east, south, west   the players' names, NULL when not told
--   dealer     'N', 'E', 'S' or 'W'
--   vulnerable 'None', 'NS', 'EW' or 'All'
--   auction    the calls from the dealer as PBN tokens separated by one space (`1NT`, `Pass`,
--              `X`, `XX`, note references `=k=` after the call they explain), NULL without one
--   notes      the notes those references name, one `k:text` a line (PBN's Note tag), NULL
--              without any
--   contract   the PBN Contract tag: `4HX`, `3NT`, `Pass`; NULL when not told
--   declarer   'N', 'E', 'S' or 'W'; NULL when not told or passed out
--   result     the tricks declarer took, claimed or played out (PBN Result, LIN mc|), 0..13
--   score      the score as the file gives it (PBN Score tag, e.g. 'NS 620'), NULL without one
--   leader     the seat of the opening lead, NULL without play
--   cards      the cards in play order as `plays.cards` (one byte each, the card's seed 000
--              slot 0..51), NULL without play; fewer than 52 after a claim
-- The same table's record of the same board of the same set is stored once (the unique index,
-- NULLs compared as equal).
CREATE TABLE played (
    id         INTEGER PRIMARY KEY,
    deal       BLOB    NOT NULL REFERENCES deals(key),
    set_id     INTEGER REFERENCES sets(id) ON DELETE CASCADE,
    board      INTEGER,
    room       TEXT CHECK (room IN ('Open', 'Closed')),
    north      TEXT,
    east       TEXT,
    south      TEXT,
    west       TEXT,
    dealer     TEXT    NOT NULL CHECK (dealer IN ('N', 'E', 'S', 'W')),
    vulnerable TEXT    NOT NULL CHECK (vulnerable IN ('None', 'NS', 'EW', 'All')),
    auction    TEXT,
    notes      TEXT,
    contract   TEXT,
    declarer   TEXT CHECK (declarer IN ('N', 'E', 'S', 'W')),
    result     INTEGER CHECK (result BETWEEN 0 AND 13),
    score      TEXT,
    leader     TEXT CHECK (leader IN ('N', 'E', 'S', 'W')),
    cards      BLOB CHECK (cards IS NULL OR (typeof(cards) = 'blob' AND length(cards) BETWEEN 1 AND 52))
);
CREATE UNIQUE INDEX played_unique
    ON played(deal, ifnull(set_id, -1), ifnull(board, -1), ifnull(room, ''));
CREATE INDEX played_set_board ON played(set_id, board);
