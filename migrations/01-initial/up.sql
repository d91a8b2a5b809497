-- dealdex schema, version 1. Applied once by rusqlite_migration, which records the
-- version in PRAGMA user_version; never edit this file once released: add 02-… instead.

-- Every distinct deal ever stored, once. The 13-byte index (FORMATS.md §2) is itself a
-- full-information key, so it is the primary key and WITHOUT ROWID keeps one B-tree,
-- not a rowid table plus an index. Its BLOB order equals the hex order of the external
-- form. The CHECK keeps text or odd-length keys from slipping in through raw SQL.
CREATE TABLE deals (
    key BLOB PRIMARY KEY CHECK (typeof(key) = 'blob' AND length(key) = 13)
) WITHOUT ROWID;

-- A named, numbered collection of boards (one generation run or one import).
-- Boards are u64 in Rust but stored as SQLite's signed 64-bit INTEGER; the store
-- refuses numbers above i64::MAX rather than wrap them.
-- Only the SHA-256 of the seed is kept: the seed itself is a secret until the
-- deals are played, while the hash lets anyone check a revealed seed later.
CREATE TABLE sets (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    first_board INTEGER NOT NULL,
    last_board  INTEGER NOT NULL,
    scheme      TEXT    NOT NULL,
    generator   TEXT    NOT NULL,
    -- UTC, ISO 8601 to the second, so text order is time order.
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    seed_sha256 BLOB
);

-- Which deal sits at which board of a set. Deals are shared between sets (dedup), so
-- this is the only place a board number lives. The composite key clusters a set's
-- boards in board order; deleting a set takes its boards with it (the deals stay).
CREATE TABLE set_boards (
    set_id INTEGER NOT NULL REFERENCES sets(id) ON DELETE CASCADE,
    board  INTEGER NOT NULL,
    deal   BLOB    NOT NULL REFERENCES deals(key),
    PRIMARY KEY (set_id, board)
) WITHOUT ROWID;

-- "Where was this deal played?" lookups, and the foreign-key check that a deal is
-- unreferenced before it can be deleted, both search by deal.
CREATE INDEX set_boards_deal ON set_boards(deal);
