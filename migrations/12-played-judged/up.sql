-- dealdex schema, version 12: played boards judged, queried and reported (issue 53, items 3
-- and 4). What a query or report over played boards compares, stored once so that "how often
-- did the field reach par" or "what does this pair's defence cost" is a plain SQL question.
-- On `played` (migration 10):
--   event     the event the board was played in: a LIN file's `vg|` first field, a PBN
--             Event tag; NULL when not told
--   level     the contract's level 1..7; NULL when passed out or not told
--   strain    the contract's strain 'NT', 'S', 'H', 'D' or 'C'; NULL likewise
--   doubled   0 undoubled, 1 doubled, 2 redoubled; NULL likewise
--   score_ns  the table's score from North-South's view (Law 77, the board's vulnerability):
--             0 passed out, NULL when contract, declarer or result is not told
--   par_ns    the board's par score from North-South's view at its dealer and vulnerability
--             (DDS DealerParBin over the deal's `dd` table, migration 05), written by
--             `dealdex judge`, which solves a deal without a table; NULL until then
-- level, strain, doubled and score_ns follow from contract, declarer, result and vulnerable:
-- written with the row, and for the rows stored before this migration by its hook.
-- On `played_dd` (migration 11), for a judged board (tricks not NULL), written by `judge`
-- (also for boards judged before this migration):
--   declarer_lost  tricks declarer's side gave away double dummy, 0..13
--   defence_lost   tricks the defence gave away, 0..13
--   lead_cost      the tricks the opening lead gave away, 0..13
ALTER TABLE played ADD COLUMN event TEXT;
ALTER TABLE played ADD COLUMN level INTEGER CHECK (level BETWEEN 1 AND 7);
ALTER TABLE played ADD COLUMN strain TEXT CHECK (strain IN ('NT', 'S', 'H', 'D', 'C'));
ALTER TABLE played ADD COLUMN doubled INTEGER CHECK (doubled BETWEEN 0 AND 2);
ALTER TABLE played ADD COLUMN score_ns INTEGER;
ALTER TABLE played ADD COLUMN par_ns INTEGER;
ALTER TABLE played_dd ADD COLUMN declarer_lost INTEGER CHECK (declarer_lost BETWEEN 0 AND 13);
ALTER TABLE played_dd ADD COLUMN defence_lost INTEGER CHECK (defence_lost BETWEEN 0 AND 13);
ALTER TABLE played_dd ADD COLUMN lead_cost INTEGER CHECK (lead_cost BETWEEN 0 AND 13);
CREATE INDEX played_event ON played(event);
