"""Yardstick for `dealdex solve`: the same deals' DD tables and par through DDS itself.

Runs DDS (PyPI's endplay, which bundles libdds) on every [Deal] of a PBN file, one table
and par per board, on one or all cores as DDS chooses. Used by benches/RESULTS.md:
    /usr/bin/time -v dealdex solve club32.pbn --no-db -q
    /usr/bin/time -v python benches/dd_reference.py club32.pbn
"""
import os
import re
import sys

from endplay._dds import SetMaxThreads
from endplay.dds import calc_all_tables, par
from endplay.types import Deal, Player, Vul

# DDS_THREADS=1: DDS's own thread count (SetMaxThreads), for one core; default: as many as
# the machine's cores.
if os.environ.get("DDS_THREADS"):
    SetMaxThreads(int(os.environ["DDS_THREADS"]))

text = open(sys.argv[1], encoding="utf-8").read()
deals = [Deal(d) for d in re.findall(r'\[Deal "([^"]+)"\]', text)]
# DDS's CalcAllTables takes at most 40 deals with all five strains (MAXNOOFTABLES): call it
# a batch of 32 deals at a time.
tables = [t for k in range(0, len(deals), 32) for t in calc_all_tables(deals[k:k + 32])]
for t in tables:
    par(t, Vul.none, Player.north)
# DDS_TABLES=path: the tables as JSON, one list a deal (strains S H D C NT, each N E S W: the
# TABLE lines of DDS's list files), for benches/dd_candidates.sh to compare with.
if os.environ.get("DDS_TABLES"):
    import json
    with open(os.environ["DDS_TABLES"], "w") as f:
        json.dump([[x for row in t.to_list() for x in row] for t in tables], f)
print(len(tables), "tables")
