-- dealdex schema, version 9: which solver solved each stored opening lead (issue 40, with a
-- second solver selectable). Leads are only ever solved by dealdex, so a lead's source is a
-- 'solved' row of dd_sources (migration 07), the same row a table solved by that solver
-- shares:
--   leads.source  the dd_sources row of the lead's tricks (1 = unknown, for rows stored
--                 before this migration: the solver was pons-dds then, its version unrecorded)
-- As dd.source: no REFERENCES clause (SQLite refuses to add a column with a foreign key and a
-- non-NULL default while foreign keys are on), and adding it rewrites no row.
ALTER TABLE leads ADD COLUMN source INTEGER NOT NULL DEFAULT 1;
