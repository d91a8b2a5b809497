-- dealdex schema: double-dummy tables (issue 11). One row per solved deal, so a deal is
-- solved at most once per database.
--   deal    the deal (13-byte index, FORMATS.md §2; named as in set_boards and plays, so a
--           query over deals can reach its table with a subquery on dd.deal = key)
--   tricks  its double-dummy table in 10 bytes: 20 trick counts of 4 bits, declarer-major
--           (N, E, S, W), strains NT, S, H, D, C within a declarer, the first count in the
--           high nibble of the first byte (dealdex::dd::TrickTable::to_bytes)
-- Par is not stored: it is a pure function of the table, the dealer and the vulnerability
-- (DDS DealerParBin), computed when asked for (SQL function par_score, the query language's
-- par(NS)), so one row serves the deal in every set and board it appears at.
CREATE TABLE dd (
    deal   BLOB PRIMARY KEY REFERENCES deals(key),
    tricks BLOB NOT NULL CHECK (typeof(tricks) = 'blob' AND length(tricks) = 10)
) WITHOUT ROWID;
