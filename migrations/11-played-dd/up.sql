-- dealdex schema, version 11: every played card judged double dummy (issue 53), one row a
-- played board with play (`played`, migration 10), written by `dealdex judge`.
--   played   the played board (played.id); its row goes with it
--   tricks   the tricks declarer's side can take, counting those already won, double dummy:
--            one byte (0..13) before the opening lead, then one after each card of
--            played.cards, so length(cards) + 1 bytes (DDS's AnalysePlay values); NULL when
--            the board cannot be judged (then `fault` says why)
--   fault    why not: the contract names no strain, or a card that cannot be played there
--            (`card 14 (W D2): …`); NULL when judged
-- A board judged is never judged again: the row is the judgement, stored once.
CREATE TABLE played_dd (
    played INTEGER PRIMARY KEY REFERENCES played(id) ON DELETE CASCADE,
    tricks BLOB CHECK (tricks IS NULL OR (typeof(tricks) = 'blob' AND length(tricks) BETWEEN 2 AND 53)),
    fault  TEXT,
    CHECK ((tricks IS NULL) <> (fault IS NULL))
);
