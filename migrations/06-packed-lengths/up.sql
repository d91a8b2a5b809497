-- dealdex schema, version 6: each seat's four suit lengths as one packed number in the
-- deal_features view (issue 16), for shape conditions a full scan can test in one comparison.
--   lens_n lens_e lens_s lens_w = the seat's lengths packed as ♠ + 16·♥ + 256·♦ + 4096·♣
--                                 (16 bits of the stored lens column, read, not stored)
-- Why: `balanced(N)` compiled to the key-decoding SQL function cost about 220 ns a row over
-- 100 M deals; `lens_n IN (…28 packed balanced shapes…)` costs a few ns more than reading the
-- column. Only the view changes: no row is rewritten.
DROP VIEW deal_features;
CREATE VIEW deal_features AS
SELECT key,
       hcp_n,
       hcp_e,
       hcp_s,
       hcp_w,
       (lens >> 0) & 15 AS len_n_s,
       (lens >> 4) & 15 AS len_n_h,
       (lens >> 8) & 15 AS len_n_d,
       (lens >> 12) & 15 AS len_n_c,
       (lens >> 16) & 15 AS len_e_s,
       (lens >> 20) & 15 AS len_e_h,
       (lens >> 24) & 15 AS len_e_d,
       (lens >> 28) & 15 AS len_e_c,
       (lens >> 32) & 15 AS len_s_s,
       (lens >> 36) & 15 AS len_s_h,
       (lens >> 40) & 15 AS len_s_d,
       (lens >> 44) & 15 AS len_s_c,
       (lens >> 48) & 15 AS len_w_s,
       (lens >> 52) & 15 AS len_w_h,
       (lens >> 56) & 15 AS len_w_d,
       (lens >> 60) & 15 AS len_w_c,
       lens & 65535 AS lens_n,
       (lens >> 16) & 65535 AS lens_e,
       (lens >> 32) & 65535 AS lens_s,
       (lens >> 48) & 65535 AS lens_w
FROM deals;
