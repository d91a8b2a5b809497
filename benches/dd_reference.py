"""Yardstick for `dealdex solve`: the same deals' DD tables and par through DDS itself.

Runs DDS (PyPI's endplay, which bundles libdds) on every [Deal] of a PBN file, one table
and par per board, on one or all cores as DDS chooses. Used by benches/RESULTS.md:
    /usr/bin/time -v dealdex solve club32.pbn --no-db -q
    /usr/bin/time -v python benches/dd_reference.py club32.pbn
"""
import re
import sys

from endplay.dds import calc_all_tables, par
from endplay.types import Deal, Player, Vul

text = open(sys.argv[1], encoding="utf-8").read()
deals = [Deal(d) for d in re.findall(r'\[Deal "([^"]+)"\]', text)]
tables = calc_all_tables(deals)
for t in tables:
    par(t, Vul.none, Player.north)
print(len(tables), "tables")
