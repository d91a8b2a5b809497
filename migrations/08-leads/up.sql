-- dealdex schema, version 8: opening-lead tricks (issue 39). One row per deal, opening
-- leader and strain: what `dealdex lead --store` solved, so a stored sample's leads are
-- solved once, looked up by a later `lead --set`, and queried (the query language's
-- lead(SEAT, strain, CARD)).
--   deal    the deal (13-byte index, FORMATS.md §2; named as in dd, set_boards and plays,
--           so a query over deals reaches its leads with a subquery on leads.deal = key)
--   leader  the opening leader: 'N', 'E', 'S' or 'W' (declarer is the leader's right-hand
--           opponent)
--   strain  the contract's strain: 'NT', 'S', 'H', 'D' or 'C'
--   tricks  52 bytes, one a card in suited order (byte 0 the ♠A … byte 12 the ♠2, byte 13
--           the ♥A, … byte 51 the ♣2: dealdex::Card::index): the defence's double-dummy
--           tricks, 0..=13, after the leader leads that card; 255 (0xFF) for the 39 cards
--           the leader does not hold (dealdex::dd::lead_table)
-- The level and the doubling change the score, not the tricks, so one row serves every
-- contract of its strain declared by the leader's right-hand opponent.
-- Why 52 bytes, not the 13 results of the leader's cards packed in 7 (4 bits each, in the
-- leader's card order): a card's result is then one byte at a fixed place, read by the SQL
-- function lead_card(tricks, 'SA') without decoding the deal to learn which 13 cards the
-- leader holds, and a card not held is told by the row alone. A row costs some 75 bytes
-- with its key against some 30; a lead problem stores one row a deal of its sample (1,000
-- deals: 75 KB).
CREATE TABLE leads (
    deal   BLOB NOT NULL REFERENCES deals(key),
    leader TEXT NOT NULL CHECK (leader IN ('N', 'E', 'S', 'W')),
    strain TEXT NOT NULL CHECK (strain IN ('NT', 'S', 'H', 'D', 'C')),
    tricks BLOB NOT NULL CHECK (typeof(tricks) = 'blob' AND length(tricks) = 52),
    PRIMARY KEY (deal, leader, strain)
) WITHOUT ROWID;
