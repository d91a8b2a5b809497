"""Do redeal's OpeningLeadSim and `dealdex lead` give each card the same results?

    python3 benches/lead_agree.py redeal.json dealdex.json

redeal.json from `benches/lead_redeal.py DEALS.pbn 3NS --json redeal.json`, dealdex.json from
`dealdex lead --file DEALS.pbn --contract 3NT --declarer S --json`, both on the same deals.
For every card redeal lists, the distribution of the defence's tricks over the deals and
their mean must be dealdex's, and so must the mean IMPs of each pair of those cards (taken
deal by deal, so a pair agrees only if the per-deal results agree); the set percentage is
compared too (the contract is set when the defence takes 8 - level tricks or more). The
leader's cards redeal leaves out (equal to a higher card of the same run) are listed, with
whether dealdex gives them the same figures as that higher card. Standard library only; exit
status 1 on any disagreement.
"""
import json
import sys

redeal = json.load(open(sys.argv[1], encoding="utf-8"))
dealdex = json.load(open(sys.argv[2], encoding="utf-8"))
if redeal["deals"] != dealdex["deals"]:
    sys.exit(f"not the same sample: {redeal['deals']} deals against {dealdex['deals']}")
n = redeal["deals"]
level = int(redeal["contract"][0])
needed = 8 - level
dd_cards = {c["card"]: c for c in dealdex["cards"]}
bad = []


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


for card, tricks in redeal["tricks"].items():
    d = dd_cards.get(card)
    if d is None:
        bad.append(f"{card}: redeal lists it, dealdex does not")
        continue
    hist = [0] * 14
    for t in tricks:
        hist[t] += 1
    if hist != d["tricks"]:
        bad.append(f"{card}: tricks {hist} (redeal) against {d['tricks']} (dealdex)")
    mean = sum(tricks) / n
    if not close(mean, d["mean_tricks"]):
        bad.append(f"{card}: mean tricks {mean:.4f} (redeal) against {d['mean_tricks']:.4f}")
    set_pc = 100.0 * sum(t >= needed for t in tricks) / n
    if not close(set_pc, d["defeat_percent"]):
        bad.append(f"{card}: set {set_pc:.1f}% (redeal's tricks, defence >= {needed}) against "
                   f"{d['defeat_percent']:.1f}% (dealdex)")
dd_pairs = {(p["a"], p["b"]): p["imps"] for p in dealdex["pairs"]}
for p in redeal["pairs"]:
    theirs = dd_pairs.get((p["a"], p["b"]))
    if theirs is None or not close(p["imps"], theirs):
        bad.append(f"{p['a']} against {p['b']}: {p['imps']:+.4f} IMPs (redeal) against "
                   f"{theirs} (dealdex)")

suits = "SHDC"
ranks = "23456789TJQKA"


def above(card, listed):
    """The card redeal lists for CARD: the lowest listed card above it in its suit."""
    higher = [c for c in listed if c[0] == card[0] and ranks.index(c[1]) > ranks.index(card[1])]
    return min(higher, key=lambda c: ranks.index(c[1]), default=None)


equal_text = []
for card in redeal["missing"]:
    top = above(card, redeal["tricks"])
    d, t = dd_cards.get(card), dd_cards.get(top)
    same = d is not None and t is not None and d["tricks"] == t["tricks"]
    equal_text.append(f"{card} (= {top}: {'same figures in dealdex' if same else 'DIFFERENT'})")
    if not same:
        bad.append(f"{card}: left out by redeal as equal to {top}, but dealdex differs")

print(f"{n} deals, {len(redeal['tricks'])} cards in redeal, {len(dd_cards)} in dealdex; "
      f"{len(redeal['pairs'])} pairs compared")
if equal_text:
    print("left out by redeal:", ", ".join(equal_text))
for line in bad:
    print("DISAGREE", line)
print("agree" if not bad else f"{len(bad)} disagreements")
sys.exit(1 if bad else 0)
