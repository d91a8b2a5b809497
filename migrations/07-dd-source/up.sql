-- dealdex schema, version 7: where each stored double-dummy table came from (issue 27,
-- defect 12). A Parquet archive carries no checksum of its own, and a PBN file's tables are
-- the file's word: a table read from a file is stored as the file gives it, so the store
-- records its source, and `dealdex solve --verify` re-solves those that were not solved here.
--   dd_sources  one row a source:
--     kind        'solved'  solved by dealdex (solver names the solver and its version),
--                 'file'    read from a deal file by `import`,
--                 'unknown' stored before this migration (solved here or imported: the
--                           schema did not say); row id 1, the default of dd.source
--     solver      kind 'solved': e.g. 'pons-dds 0.2.0'; else NULL
--     file        kind 'file': the file's name as given to `import`; else NULL
--     format      kind 'file': the format it was read as ('parquet', 'pbn', …); else NULL
--     sha256      kind 'file': SHA-256 of the file's bytes as read (32 bytes); else NULL
--     recorded_at UTC, ISO 8601 to the second: when the source was first used
--   dd.source   the dd_sources row of the table (1 = unknown for rows stored before)
-- One 'solved' row a solver version is shared by every table it solved; an import adds one
-- 'file' row a file whose tables were stored (none when all were already stored).
-- dd.source has no REFERENCES clause: SQLite refuses to add a column with a foreign key and
-- a non-NULL default while foreign keys are on. Adding it rewrites no row (the default lives
-- in the schema), so the migration is instant on a large file.
CREATE TABLE dd_sources (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('unknown', 'solved', 'file')),
    solver      TEXT,
    file        TEXT,
    format      TEXT,
    sha256      BLOB CHECK (sha256 IS NULL OR (typeof(sha256) = 'blob' AND length(sha256) = 32)),
    recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO dd_sources(id, kind) VALUES (1, 'unknown');
ALTER TABLE dd ADD COLUMN source INTEGER NOT NULL DEFAULT 1;
