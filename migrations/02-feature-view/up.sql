-- dealdex schema, version 2: hand features of every stored deal as a view (issue 4), so
-- that the query language and plain SQL can filter on them. The columns are computed from the
-- 13-byte key by dealdex's SQL functions (hcp, len: src/sqlfn.rs), which every dealdex
-- connection registers; other SQLite clients can read the tables but not this view.
-- Columns: hcp_<seat> and len_<seat>_<suit>, seats n e s w, suits s h d c.
-- Stored, indexed feature columns are the next step; measured here, 20 stored columns with
-- four HCP indexes cut bulk ingest from 1.6 M to 0.15 M deals/s, so they wait for a design
-- that keeps ingest fast.
CREATE VIEW deal_features AS
SELECT key,
       hcp(key, 'N') AS hcp_n,
       hcp(key, 'E') AS hcp_e,
       hcp(key, 'S') AS hcp_s,
       hcp(key, 'W') AS hcp_w,
       len(key, 'N', 'S') AS len_n_s,
       len(key, 'N', 'H') AS len_n_h,
       len(key, 'N', 'D') AS len_n_d,
       len(key, 'N', 'C') AS len_n_c,
       len(key, 'E', 'S') AS len_e_s,
       len(key, 'E', 'H') AS len_e_h,
       len(key, 'E', 'D') AS len_e_d,
       len(key, 'E', 'C') AS len_e_c,
       len(key, 'S', 'S') AS len_s_s,
       len(key, 'S', 'H') AS len_s_h,
       len(key, 'S', 'D') AS len_s_d,
       len(key, 'S', 'C') AS len_s_c,
       len(key, 'W', 'S') AS len_w_s,
       len(key, 'W', 'H') AS len_w_h,
       len(key, 'W', 'D') AS len_w_d,
       len(key, 'W', 'C') AS len_w_c
FROM deals;
