"""Yardstick for `dealdex lead`: every opening lead of the same deals through DDS itself.

Runs DDS's SolveBoard (PyPI's endplay `solve_board`, solutions = 3, equal cards expanded)
on every [Deal] of a PBN file with the given leader and strain, one call a deal in a loop,
as a script answering a lead problem with endplay would. Used by benches/lead_compare.sh:
    python benches/lead_reference.py leads1000.pbn W N
"""
import re
import sys

from endplay.dds import solve_board
from endplay.types import Deal, Denom, Player

LEADER = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
DENOM = {"N": Denom.nt, "S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs}

text = open(sys.argv[1], encoding="utf-8").read()
leader, strain = LEADER[sys.argv[2]], DENOM[sys.argv[3]]
total = 0.0
deals = re.findall(r'\[Deal "([^"]+)"\]', text)
for d in deals:
    deal = Deal(d)
    deal.first = leader
    deal.trump = strain
    total += sum(tricks for _, tricks in solve_board(deal))
print(len(deals), "deals, mean defence tricks a lead", round(total / len(deals) / 13, 3))
