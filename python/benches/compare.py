"""dealdex from Python beside redeal and endplay, measured in one run (issue 30).

    python python/benches/compare.py --redeal /path/to/redeal-source [--quick]

Needs dealdex (pip install ./python), numpy and endplay (PyPI) in the running Python; redeal is
not on PyPI: give the folder that holds its `redeal/` package (a checkout of its public
repository anntzer/redeal; no file of it is kept here). A library that is missing is left out
of the table, not faked.

Three measurements, each printed as a Markdown table row (python/README.md keeps the table):
1. constrained generation, `hcp(N) in 15..17 and balanced(N)`, deals found per second on one
   core, returned to Python (dealdex: a `Deals` batch; redeal, endplay: their `Deal` objects);
2. double-dummy tables of the same deals, dealdex.solve against endplay.dds.calc_all_tables
   (DDS), on 1 and 2 threads (and, with --dd-random N, of N random deals);
3. 1,000,000 deals into numpy HCP arrays (`Deals.hcp`), on all cores.
"""

import argparse
import os
import sys
import time

import dealdex

SEED = "b0a7d" + "0" * 59
QUERY = "hcp(N) in 15..17 and balanced(N)"
DEALER_CONDITION = (
    "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)"
)


def rate(n, seconds):
    return n / seconds if seconds > 0 else float("inf")


def time_it(f):
    start = time.perf_counter()
    out = f()
    return out, time.perf_counter() - start


def bench_generation(want, peers, redeal_path):
    rows = []
    deals, t = time_it(lambda: dealdex.generate(want, seed=SEED, where=QUERY, threads=1))
    assert len(deals) == want
    ours = rate(want, t)
    rows.append(("dealdex.generate(where=…, threads=1)", want, t, ours))
    if redeal_path:
        sys.path.insert(0, redeal_path)
        import redeal

        deal = redeal.Deal.prepare({})
        n = max(want // 20, 50)

        def run_redeal():
            found = []
            while len(found) < n:
                d = deal()
                if 15 <= d.north.hcp <= 17 and redeal.balanced(d.north):
                    found.append(d)
            return found

        _, t = time_it(run_redeal)
        rows.append(("redeal (pure Python)", n, t, rate(n, t)))
    if "endplay" in peers:
        from endplay.dealer import generate_deals

        n = max(want // 20, 50)
        _, t = time_it(
            lambda: list(generate_deals(DEALER_CONDITION, produce=n, seed=1, max_attempts=-1))
        )
        rows.append(("endplay.dealer.generate_deals", n, t, rate(n, t)))
    print("\n| constrained generation, 1 core | deals | seconds | deals/s | dealdex is |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, n, t, r in rows:
        print(f"| {name} | {n:,} | {t:.2f} | {r:,.0f} | {ours / r:,.1f}× |")
    return deals


def bench_dd(deals, peers, what="same"):
    rows = []
    for threads in (1, 2):
        _, t = time_it(lambda: dealdex.solve(deals, threads=threads))
        rows.append((f"dealdex.solve, {threads} thread(s)", threads, t))
    if "endplay" in peers:
        from endplay import _dds
        from endplay.dds import calc_all_tables
        from endplay.types import Deal as EDeal

        ours_e = [EDeal(d.pbn()) for d in deals]
        for threads in (1, 2):
            _dds.SetMaxThreads(threads)

            step = _dds.MAXNOOFTABLES  # the deals DDS takes a call, all five strains

            def run():
                out = []
                for i in range(0, len(ours_e), step):
                    out.extend(calc_all_tables(ours_e[i : i + step]))
                return out

            _, t = time_it(run)
            rows.append((f"endplay.dds.calc_all_tables (DDS), {threads} thread(s)", threads, t))
    n = len(deals)
    base = {th: t for name, th, t in rows if name.startswith("dealdex")}
    print(f"\n| DD tables of the {what} {n:,} deals | seconds | tables/s | dealdex is |")
    print("| --- | ---: | ---: | ---: |")
    for name, th, t in rows:
        print(f"| {name} | {t:.2f} | {rate(n, t):,.1f} | {t / base[th]:.2f}× |")


def bench_hcp(n):
    deals, tg = time_it(lambda: dealdex.generate(n, seed=SEED))
    hcp, th = time_it(lambda: deals.hcp)
    assert hcp.shape == (n, 4) and (hcp.sum(axis=1) == 40).all()
    cores = os.cpu_count()
    print(f"\n| {n:,} deals into numpy, {cores} cores | seconds | deals/s |")
    print("| --- | ---: | ---: |")
    print(f"| dealdex.generate({n:,}) | {tg:.3f} | {rate(n, tg):,.0f} |")
    print(f"| Deals.hcp (int8[n, 4]) | {th:.3f} | {rate(n, th):,.0f} |")
    print(f"| both | {tg + th:.3f} | {rate(n, tg + th):,.0f} |")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--redeal", help="the folder holding redeal's `redeal/` package")
    p.add_argument("--quick", action="store_true", help="smaller counts (a smoke run)")
    p.add_argument("--matches", type=int, default=10_000)
    p.add_argument("--dd", type=int, default=1_000)
    p.add_argument("--hcp", type=int, default=1_000_000)
    p.add_argument(
        "--dd-random",
        type=int,
        default=0,
        help="also solve this many random deals (the solvers' relative speed depends on the deals)",
    )
    a = p.parse_args()
    if a.quick:
        a.matches, a.dd, a.hcp = 1_000, 20, 100_000
    peers = set()
    try:
        import endplay  # noqa: F401

        peers.add("endplay")
    except ImportError:
        print("endplay is not installed: left out", file=sys.stderr)
    print(f"dealdex {dealdex.__version__} ({dealdex.SOLVER}), Python {sys.version.split()[0]}")
    deals = bench_generation(a.matches, peers, a.redeal)
    bench_dd(deals[: a.dd], peers)
    if a.dd_random:
        bench_dd(dealdex.generate(a.dd_random, seed=SEED), peers, "random")
    bench_hcp(a.hcp)


if __name__ == "__main__":
    main()
