"""redeal's OpeningLeadSim on the deals of a PBN file: the third contestant of the lead benchmark.

redeal (Antony Lee's Python reimplementation of Thomas Andrews' Deal, built from its public
source with its bundled DDS, see benches/lead_compare.sh) answers a lead problem with
`OpeningLeadSim(accept, "3NS", imps)`: `initial(dealer)` lists the leader's cards (DDS's
valid moves on a first deal), `do(deal)` solves every lead of a deal (DDS SolveBoard,
solutions = 3, one call a deal, on one thread) and `final(n)` prints the IMP payoff table of
each lead against each other. redeal's command line deals its own random deals; here the
same loop as redeal's `Main.generate` runs over the deals of a file instead, so that redeal
solves exactly the deals `dealdex lead --file` and benches/lead_reference.py solve: each
[Deal] becomes a redeal dealer with all four hands predealt (`Deal.prepare`), which deals
that one deal. What differs from `redeal opening_lead.py -n 1000`: no random dealing and no
accept function (both cheap next to the solving), and the deals are the file's.

Besides redeal's own table, this prints for every card redeal lists the mean tricks of the
defence, the set percentage and the IMPs against the best card, and it names the leader's
cards that redeal leaves out: redeal keeps only the top card of each run of touching cards in
the leader's hand (DDS's "equals" are not expanded, `Deal.dd_all_tricks`), so 6543 of
diamonds shows as the 6 alone. `--json FILE` writes the same per-card figures and the pair
IMPs for a comparison with `dealdex lead --json`.

    python benches/lead_redeal.py leads1000.pbn 3NS [--json out.json] [--quiet]
"""
import argparse
import json
import re
import statistics
import sys
import time

from redeal import Deal, OpeningLeadSim, imps
from redeal.global_defs import Rank, Seat

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("pbn", help="a PBN file of deals")
parser.add_argument("contract", nargs="?", default="3NS",
                    help="contract and declarer in redeal's form (default 3NS)")
parser.add_argument("--json", metavar="FILE", help="write the per-card results to FILE")
parser.add_argument("--quiet", action="store_true", help="no per-card table, only the summary")
args = parser.parse_args()

t0 = time.perf_counter()
text = open(args.pbn, encoding="utf-8").read()
pbn_deals = re.findall(r'\[Deal "([^"]+)"\]', text)
if not pbn_deals:
    sys.exit(f"no [Deal] in {args.pbn}")


def hands(pbn):
    """A PBN deal ('N:AKQ.x.. ...') as a seat -> redeal hand string ('AKQ x - -') dict."""
    first, rest = pbn[0], pbn[2:].split()
    order = "NESW"
    start = order.index(first)
    return {order[(start + i) % 4]: " ".join(s or "-" for s in hand.split("."))
            for i, hand in enumerate(rest)}


# One dealer a deal, all four hands predealt: calling it deals that deal.
dealers = [Deal.prepare(hands(d)) for d in pbn_deals]

t_solve = time.perf_counter()
sim = OpeningLeadSim(lambda deal: True, args.contract, imps)
sim.initial(dealers[0])
entries = list(sim.payoff.entries)
raw = {card: [] for card in entries}
add_data = sim.payoff.add_data


def recording_add_data(raw_scores):
    for card in entries:
        raw[card].append(raw_scores[card])
    add_data(raw_scores)


sim.payoff.add_data = recording_add_data
# redeal's Main.generate: accept, then do, for every deal; final at the end.
for dealer in dealers:
    deal = dealer()
    if sim.accept(deal):
        sim.do(deal)
if args.quiet:
    elapsed = time.perf_counter() - t_solve
else:
    sim.final(len(dealers))
    elapsed = time.perf_counter() - t_solve


def name(card):
    return card.suit.name + card.rank.name


leader = Seat[sim.leader]
level = int(args.contract[0])
needed = 13 - (level + 6) + 1  # defence tricks that set the contract
leader_cards = sorted(dealers[0]()[leader].cards(), reverse=True)
missing = [name(c) for c in leader_cards if c not in raw]
n = len(dealers)
scoring = sim.scoring
mean = {c: statistics.mean(raw[c]) for c in entries}
best = max(entries, key=lambda c: mean[c])
rows = []
for c in sorted(entries, key=lambda c: -mean[c]):
    rows.append({
        "card": name(c),
        "mean_tricks": mean[c],
        "defeat_percent": 100.0 * sum(t >= needed for t in raw[c]) / n,
        "imps_vs_best": statistics.mean(scoring(a, b) for a, b in zip(raw[c], raw[best])),
    })
print(f"redeal OpeningLeadSim, {args.contract}, leader {leader.name}: {n} deals, "
      f"{len(entries)} cards listed, {elapsed:.2f} s solving ({time.perf_counter() - t0:.2f} s "
      f"with reading and dealing)")
if missing:
    print(f"cards redeal leaves out (equal to a higher card of the same run): {' '.join(missing)}")
if not args.quiet:
    print("lead  tricks  defeat %   IMPs vs " + name(best))
    for r in rows:
        print(f"{r['card']:<4} {r['mean_tricks']:6.2f}  {r['defeat_percent']:5.1f}  "
              f"{r['imps_vs_best']:+7.2f}")
if args.json:
    pairs = [{"a": name(a), "b": name(b),
              "imps": statistics.mean(scoring(x, y) for x, y in zip(raw[a], raw[b]))}
             for a in entries for b in entries if a != b]
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump({"contract": args.contract, "leader": leader.name, "deals": n,
                   "seconds": elapsed, "missing": missing, "cards": rows,
                   "tricks": {name(c): raw[c] for c in entries}, "pairs": pairs}, f)
