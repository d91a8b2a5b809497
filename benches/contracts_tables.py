#!/usr/bin/env python3
"""10,000 deals with true double-dummy tables for timing `dealdex contracts` (issue 39),
without solving 10,000 deals: each solved deal gives 16 distinct deals, its seats rotated
(0-3 places) and its suits permuted (4 permutations), the table rotated and permuted alike
(a rotation moves each declarer's row; a suit permutation moves the strain columns, notrump
stays). `dealdex solve --verify --sample N` re-solves a sample of them.

Usage, in a directory with DB holding some solved deals (>= 625):
  sqlite3 DB "select hex(deal)||' '||hex(tricks) from dd" > solved.txt
  cut -d' ' -f1 solved.txt > keys.hex && dealdex convert keys.hex keys.deals
  python3 benches/contracts_tables.py            # writes big.pbn, 10,000 boards
  dealdex import big.pbn --db z.db
  dealdex contracts 3NT:S 4H:N 5D:N 6H:N --db z.db --json -q
"""

deals = [line.strip() for line in open("keys.deals")]
tables = [line.split()[1] for line in open("solved.txt")]  # stored: rows N E S W, NT S H D C
PERMS = [(0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0)]
out = []
for d, t in zip(deals, tables):
    hands = d[2:].split(" ")  # N E S W, each S.H.D.C
    nib = [int(c, 16) for c in t]
    tricks = [nib[5 * i : 5 * i + 5] for i in range(4)]
    for r in range(4):
        for p in PERMS:
            new_hands, new_rows = [None] * 4, [None] * 4
            for s in range(4):
                suits = hands[s].split(".")
                moved, row = [None] * 4, [tricks[s][0], 0, 0, 0, 0]
                for x in range(4):
                    moved[p[x]] = suits[x]
                    row[1 + p[x]] = tricks[s][1 + x]
                new_hands[(s + r) % 4], new_rows[(s + r) % 4] = ".".join(moved), row
            # PBN DoubleDummyTricks: declarers N S E W.
            ddt = "".join("%x" % v for s in (0, 2, 1, 3) for v in new_rows[s])
            n = len(out) + 1
            out.append(f'[Board "{n}"]\n[Deal "N:{" ".join(new_hands)}"]\n[DoubleDummyTricks "{ddt}"]\n')
open("big.pbn", "w").write("\n".join(out[:10000]))
print(min(len(out), 10000), "boards in big.pbn")
