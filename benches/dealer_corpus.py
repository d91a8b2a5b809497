#!/usr/bin/env python3
"""Issue 37: `dealdex dealer` against Debian's dealer on a collection of real dealer scripts.

Called by benches/dealer_corpus.sh (which checks the tools first); python3's standard library
only. For every script in DIR (*.dlr, *.dl, *.txt; the script itself is never changed):

1. the timing run: the script as it is, with `-s 1 -g G -p P` for both programs (the command
   line overrides the script's own generate/produce), each pinned to one core
   (`taskset -c 0`, RAYON_NUM_THREADS=1) under a per-script timeout; wall time, exit status,
   the first stderr line of a refusal, the `Generated`/`Produced` counts;
2. the statistics run: a temporary copy whose action block is replaced by (or, without one,
   given) averages and frequency tables of HCP and suit lengths, with `-s 1 -g STATS_G
   -p STATS_P`; the two samples are compared as tests/common/dealer.rs does: every average
   within 4 standard errors (each sample's variance from its own frequency table of the same
   quantity), every frequency table homogeneous by a chi-square test at 0.1 % (bins pooled
   below 10, critical value by Wilson-Hilferty).

Writes the per-script table as CSV to OUT and prints a Markdown summary on stdout.
With SUOKKO=PATH, suokko's dealer is timed on the timing run too.
"""
import csv
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

STATS_ACTION = """action
average "hcpN" hcp(north),
average "hcpS" hcp(south),
frequency "hcpN" (hcp(north), 0, 37),
frequency "hcpS" (hcp(south), 0, 37),
frequency "spadesN" (spades(north), 0, 13),
frequency "heartsS" (hearts(south), 0, 13)
"""
# The frequency table that gives each average's variance.
VARIANCE_FROM = {"hcpN": "hcpN", "hcpS": "hcpS"}

DECL = re.compile(
    r"^\s*(generate|produce|dealer|vulnerable|predeal|pointcount|altcount|condition|seed)\b"
    r"|^\s*[A-Za-z_]\w*\s*=[^=]"
)


def env_int(name, default):
    v = os.environ.get(name, "")
    return int(v) if v.strip() else default


def strip_block_comments(text):
    """The script with /* ... */ comments blanked (newlines kept), for finding keywords."""
    return re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def with_stats_action(text):
    """The script with its action block replaced by STATS_ACTION (appended if it has none)."""
    lines = text.split("\n")
    bare = strip_block_comments(text).split("\n")
    code = [re.sub(r"(#|//).*", "", ln) for ln in bare]
    start = None
    for i, ln in enumerate(code):
        if re.match(r"^\s*action\b", ln):
            start = i
    if start is None:
        return text.rstrip("\n") + "\n\n" + STATS_ACTION
    end = len(lines)
    for j in range(start + 1, len(lines)):
        if DECL.match(code[j]):
            end = j
            break
    return "\n".join(lines[:start] + STATS_ACTION.rstrip("\n").split("\n") + lines[end:]) + "\n"


def run(cmd, timeout, cores="0", threads="1", extra_env=None):
    """Runs cmd pinned to `cores`; returns (exit, stdout, stderr, seconds, timed_out)."""
    env = dict(os.environ, RAYON_NUM_THREADS=threads, **(extra_env or {}))
    full = ["taskset", "-c", cores] + cmd
    t0 = time.monotonic()
    try:
        p = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                           timeout=timeout)
        dt = time.monotonic() - t0
        return p.returncode, p.stdout.decode("utf-8", "replace"), \
            p.stderr.decode("utf-8", "replace"), dt, False
    except subprocess.TimeoutExpired as e:
        dt = time.monotonic() - t0
        out = (e.stdout or b"").decode("utf-8", "replace")
        err = (e.stderr or b"").decode("utf-8", "replace")
        return None, out, err, dt, True


def count(out, word):
    m = re.findall(word + r" (\d+) hands", out)
    return int(m[-1]) if m else None


def first_line(s):
    for ln in s.splitlines():
        if ln.strip():
            return ln.strip()[:200]
    return ""


def summaries(out):
    """Averages [(label, mean)] in order and frequency tables {label: {value: count}} of a text
    report."""
    avgs, freqs = [], {}
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        if ln.startswith("Frequency "):
            label = ln[len("Frequency "):].rstrip(":").strip()
            rows = {}
            while i < len(lines) and "\t" in lines[i]:
                v, c = lines[i].split("\t", 1)
                v = v.strip()
                if v not in ("Low", "High"):
                    rows[int(v)] = float(c)
                elif float(c) != 0:
                    rows[v] = float(c)
                i += 1
            freqs[label] = rows
        elif ": " in ln and not ln.startswith(("Generated", "Produced", "Initial", "Time")):
            label, v = ln.rsplit(": ", 1)
            try:
                avgs.append((label.strip(), float(v)))
            except ValueError:
                pass
    return avgs, freqs


def chi2_critical(df):
    z = 3.090232
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi2_homogeneity(a, b):
    na, nb = sum(a), sum(b)
    bins, cur = [], [0.0, 0.0]
    for x, y in zip(a, b):
        cur = [cur[0] + x, cur[1] + y]
        if cur[0] + cur[1] >= 10:
            bins.append(cur)
            cur = [0.0, 0.0]
    if bins:
        bins[-1] = [bins[-1][0] + cur[0], bins[-1][1] + cur[1]]
    chi = 0.0
    for x, y in bins:
        pooled = x + y
        ea, eb = pooled * na / (na + nb), pooled * nb / (na + nb)
        chi += (x - ea) ** 2 / ea + (y - eb) ** 2 / eb
    return chi, max(len(bins) - 1, 0)


def variance(table):
    n = sum(c for v, c in table.items() if isinstance(v, int))
    if n == 0:
        return 0.0, 0
    m = sum(v * c for v, c in table.items() if isinstance(v, int)) / n
    return sum(c * (v - m) ** 2 for v, c in table.items() if isinstance(v, int)) / n, n


def compare(ref_out, got_out):
    """'agree', 'disagree: …', 'too few deals …' or 'no comparison: …' for two statistics-run
    reports. Averages are matched by position (STATS_ACTION's order), not by label: Debian's
    dealer sometimes prints stray bytes before a label."""
    ra, rf = summaries(ref_out)
    ga, gf = summaries(got_out)
    if not rf and not ra:
        return "no comparison: dealer printed no statistics"
    if not gf and not ga:
        return "no comparison: dealdex printed no statistics"
    n_r = sum(c for v, c in rf.get("hcpN", {}).items() if isinstance(v, int))
    n_g = sum(c for v, c in gf.get("hcpN", {}).items() if isinstance(v, int))
    if n_r < 30 or n_g < 30:
        return f"too few deals ({n_r:.0f} / {n_g:.0f})"
    problems = []
    if len(ra) != len(ga):
        problems.append(f"{len(ga)} averages against {len(ra)}")
    for (lr, vr), (lg, vg) in zip(ra, ga):
        var_r, n1 = variance(rf.get(VARIANCE_FROM.get(lg, ""), {}))
        var_g, n2 = variance(gf.get(VARIANCE_FROM.get(lg, ""), {}))
        if n1 == 0 or n2 == 0:
            continue
        se = math.sqrt(max(var_r, 1e-12) / n1 + max(var_g, 1e-12) / n2)
        if abs(vg - vr) > 4 * se + 1e-6:
            problems.append(f"average {lg} {vg:.4f} vs {vr:.4f} (se {se:.4f})")
    for label in sorted(set(rf) | set(gf)):
        if label not in rf or label not in gf:
            problems.append(f"frequency {label} missing")
            continue
        r, g = rf[label], gf[label]
        if set(r) != set(g):
            problems.append(f"frequency {label}: rows differ")
            continue
        keys = sorted(k for k in r if isinstance(k, int))
        chi, df = chi2_homogeneity([g[k] for k in keys], [r[k] for k in keys])
        if df > 0 and chi >= chi2_critical(df):
            problems.append(f"frequency {label}: chi-square {chi:.1f} on {df} df")
    if problems:
        return "disagree: " + "; ".join(problems)
    note = ""
    if [l for l, _ in ra] != [l for l, _ in ga]:
        note = " (dealer's average labels: " + ", ".join(repr(l) for l, _ in ra) + ")"
    return "agree" + note


def fmt(x, nd=2):
    return "" if x is None else (f"{x:.{nd}f}" if isinstance(x, float) else str(x))


def per_gen_us(secs, gen):
    return secs / gen * 1e6 if secs is not None and gen else None


def main():
    d = sys.argv[1]
    out_csv = sys.argv[2] if len(sys.argv) > 2 else os.path.join(d, "corpus.csv")
    dealer = os.environ.get("DEALER", "/usr/games/dealer")
    dealdex = os.environ["DEALDEX_BIN"]
    suokko = os.environ.get("SUOKKO", "")
    timeout = env_int("TIMEOUT", 60)
    g, p = env_int("G", 1_000_000), env_int("P", 100)
    sg, sp = env_int("STATS_G", g), env_int("STATS_P", 2000)
    stats = os.environ.get("STATS", "1") != "0"
    only = os.environ.get("ONLY", "")
    # PORTABLE=1: dealdex timed twice, on this CPU's path and with DEALDEX_PORTABLE=1.
    portable = os.environ.get("PORTABLE", "0") == "1"
    scripts = sorted(f for f in os.listdir(d)
                     if f.endswith((".dlr", ".dl", ".txt")) and (not only or re.search(only, f)))
    flags = ["-s", "1", "-g", str(g), "-p", str(p)]
    sflags = ["-s", "1", "-g", str(sg), "-p", str(sp)]
    rows = []
    tmp = tempfile.mkdtemp(prefix="dealer_corpus.")
    t_start = time.monotonic()
    for k, name in enumerate(scripts, 1):
        path = os.path.join(d, name)
        r = {"script": name}
        for who, cmd in (("dealer", [dealer] + flags + [path]),
                         ("dealdex", [dealdex, "dealer"] + flags + [path])):
            rc, out, err, secs, to = run(cmd, timeout)
            r[f"{who}_exit"] = "timeout" if to else rc
            r[f"{who}_error"] = (f"timed out after {timeout} s" if to else
                                 first_line(err) if rc != 0 else "")
            r[f"{who}_generated"] = count(out, "Generated")
            r[f"{who}_produced"] = count(out, "Produced")
            r[f"{who}_s"] = round(secs, 3)
            r[f"{who}_us_per_gen"] = per_gen_us(secs, r[f"{who}_generated"]) if rc == 0 else None
            m = re.findall(r"Time needed\s+([0-9.]+) sec", out)
            r[f"{who}_time_needed"] = float(m[-1]) if m else None
        a, b = r["dealdex_us_per_gen"], r["dealer_us_per_gen"]
        r["ratio"] = a / b if a and b else None
        if portable:
            rc, out, err, secs, to = run([dealdex, "dealer"] + flags + [path], timeout,
                                         extra_env={"DEALDEX_PORTABLE": "1"})
            r["portable_s"] = round(secs, 3)
            gen = count(out, "Generated")
            r["portable_us_per_gen"] = per_gen_us(secs, gen) if rc == 0 else None
            ap = r["portable_us_per_gen"]
            r["portable_ratio"] = ap / b if ap and b else None
        if suokko:
            rc, out, err, secs, to = run([suokko] + flags + [path], timeout)
            r["suokko_exit"] = "timeout" if to else rc
            r["suokko_error"] = (f"timed out after {timeout} s" if to else
                                 first_line(err) if rc != 0 else "")
            r["suokko_generated"] = count(out, "Generated")
            r["suokko_s"] = round(secs, 3)
            r["suokko_us_per_gen"] = per_gen_us(secs, r["suokko_generated"]) if rc == 0 else None
            c = r["suokko_us_per_gen"]
            r["dealdex_vs_suokko"] = a / c if a and c else None
            if portable:
                ap = r["portable_us_per_gen"]
                r["portable_vs_suokko"] = ap / c if ap and c else None
        verdict = ""
        if stats:
            sfile = os.path.join(tmp, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            with open(sfile, "w", encoding="utf-8") as f:
                f.write(with_stats_action(text))
            rc1, o1, e1, s1, to1 = run([dealer] + sflags + [sfile], timeout)
            rc2, o2, e2, s2, to2 = run([dealdex, "dealer"] + sflags + [sfile], timeout)
            r["dealer_stats_produced"] = count(o1, "Produced")
            r["dealdex_stats_produced"] = count(o2, "Produced")
            if to1 or rc1 != 0:
                verdict = "no comparison: dealer " + ("timed out" if to1 else f"exit {rc1}")
            elif to2 or rc2 != 0:
                verdict = "no comparison: dealdex " + ("timed out" if to2 else f"exit {rc2}")
                if not to2 and r["dealdex_exit"] == 0:
                    verdict += ": " + first_line(e2)
            else:
                verdict = compare(o1, o2)
        r["stats"] = verdict
        rows.append(r)
        print(f"[{k}/{len(scripts)} {time.monotonic() - t_start:.0f}s] {name}: dealer "
              f"{r['dealer_exit']} {r['dealer_s']}s, dealdex {r['dealdex_exit']} "
              f"{r['dealdex_s']}s, ratio {fmt(r['ratio'])}, {verdict}", file=sys.stderr)

    cols = ["script", "dealer_exit", "dealer_error", "dealdex_exit", "dealdex_error",
            "dealer_generated", "dealer_produced", "dealdex_generated", "dealdex_produced",
            "dealer_s", "dealdex_s", "dealer_time_needed", "dealdex_time_needed",
            "dealer_us_per_gen", "dealdex_us_per_gen", "ratio"]
    if suokko:
        cols += ["suokko_exit", "suokko_error", "suokko_generated", "suokko_s",
                 "suokko_us_per_gen", "dealdex_vs_suokko"]
    if portable:
        cols += ["portable_s", "portable_us_per_gen", "portable_ratio"]
        if suokko:
            cols += ["portable_vs_suokko"]
    cols += ["dealer_stats_produced", "dealdex_stats_produced", "stats"]
    with open(out_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([fmt(r.get(c), 3) if isinstance(r.get(c), float) else
                        ("" if r.get(c) is None else r.get(c)) for c in cols])

    # The Markdown summary.
    n = len(rows)
    dealer_ok = [r for r in rows if r["dealer_exit"] == 0]
    dealdex_ok = [r for r in rows if r["dealdex_exit"] == 0]
    timed_out = [r for r in rows if r["dealer_exit"] == 0 and r["dealdex_exit"] == "timeout"]
    refused = [r for r in rows if r["dealer_exit"] == 0 and r["dealdex_exit"] not in (0, "timeout")]
    both_refuse = [r for r in rows if r["dealer_exit"] != 0 and r["dealdex_exit"] != 0]
    only_dealdex = [r for r in rows if r["dealer_exit"] != 0 and r["dealdex_exit"] == 0]
    ratios = [r for r in rows if r["ratio"] is not None]
    # A timed-out dealdex run generated at most G deals in TIMEOUT seconds: a lower bound.
    for r in timed_out:
        b = r["dealer_us_per_gen"]
        r["ratio_at_least"] = (timeout / g * 1e6) / b if b else None
    print(f"Scripts: {n} in `{d}`; `-s 1 -g {g} -p {p}` for both, one core each, "
          f"timeout {timeout} s; statistics runs `-s 1 -g {sg} -p {sp}`.")
    print()
    print(f"- Debian's dealer ran {len(dealer_ok)} of {n} "
          f"(refused or failed {n - len(dealer_ok)}); dealdex ran {len(dealdex_ok)} of {n}.")
    print(f"- of the scripts Debian's dealer runs: dealdex refused {len(refused)}, timed out on "
          f"{len(timed_out)}; refused by both: {len(both_refuse)}; run by dealdex only: "
          f"{len(only_dealdex)}.")
    verdicts = [r["stats"] for r in rows if r["stats"]]
    agree = sum(v.startswith("agree") for v in verdicts)
    dis = [r for r in rows if r["stats"].startswith("disagree")]
    few = sum(v.startswith("too few") for v in verdicts)
    print(f"- statistics: {agree} agree, {len(dis)} disagree, {few} with too few deals (< 30) "
          f"to compare, {len(verdicts) - agree - len(dis) - few} not compared (a refusal or a "
          f"timeout).")
    slower = sorted([r for r in ratios if r["ratio"] > 1], key=lambda r: -r["ratio"])
    if ratios:
        med = statistics.median(r["ratio"] for r in ratios)
        print(f"- time per generated deal, dealdex ÷ Debian's dealer: median {med:.2f} over "
              f"{len(ratios)} scripts; dealdex slower on {len(slower)} of them and on the "
              f"{len(timed_out)} it timed out on.")
    if suokko:
        sr = [r for r in rows if r.get("dealdex_vs_suokko") is not None]
        sok = [r for r in rows if r.get("suokko_exit") == 0]
        if sr:
            print(f"- suokko's dealer ran {len(sok)} of {n} in "
                  f"{sum(r['suokko_s'] for r in sok):.1f} s; dealdex ÷ suokko per generated "
                  f"deal: median {statistics.median(r['dealdex_vs_suokko'] for r in sr):.2f} "
                  f"over {len(sr)} scripts.")
    # The slowest ratio of each path against each peer (the targets: at most 1
    # against Debian's dealer on every script, at most 0.5 against suokko's on the median).
    paths = [("this CPU's path", "ratio", "dealdex_vs_suokko")]
    if portable:
        paths.append(("the portable path (DEALDEX_PORTABLE=1)", "portable_ratio",
                      "portable_vs_suokko"))
    for label, deb, suo in paths:
        rd = [r for r in rows if r.get(deb) is not None]
        rs = [r for r in rows if r.get(suo) is not None]
        parts = []
        if rd:
            worst = max(rd, key=lambda r: r[deb])
            parts.append(f"÷ Debian's dealer median {statistics.median(r[deb] for r in rd):.2f}, "
                         f"slowest {worst[deb]:.2f} ({worst['script']}), slower on "
                         f"{sum(r[deb] > 1 for r in rd)} of {len(rd)}")
        if rs:
            worst = max(rs, key=lambda r: r[suo])
            parts.append(f"÷ suokko's median {statistics.median(r[suo] for r in rs):.2f} "
                         f"({1 / statistics.median(r[suo] for r in rs):.2f}× its speed), slowest "
                         f"{worst[suo]:.2f} ({worst['script']})")
        if parts:
            print(f"- {label}, time per generated deal: " + "; ".join(parts) + ".")
    print(f"- wall time of the timing runs: Debian's dealer {sum(r['dealer_s'] for r in rows):.1f} "
          f"s, dealdex {sum(r['dealdex_s'] for r in rows):.1f} s.")
    print()
    if refused:
        print("Refused by dealdex (Debian's dealer runs them):")
        print()
        print("| script | dealdex exit | dealdex's message |")
        print("|---|---|---|")
        for r in refused:
            print(f"| {r['script']} | {r['dealdex_exit']} | {r['dealdex_error']} |")
        print()
        msgs = {}
        for r in refused:
            key = re.sub(r"line \d+", "line N", r["dealdex_error"])
            msgs.setdefault(key, []).append(r["script"])
        print("Distinct refusals:")
        print()
        for m, ss in sorted(msgs.items(), key=lambda x: -len(x[1])):
            print(f"- {len(ss)}× {m}")
        print()
    if timed_out:
        print(f"Timed out in dealdex after {timeout} s (Debian's dealer's time; the ratio is a "
              f"lower bound): " + ", ".join(
                  f"{r['script']} ({r['dealer_s']:.2f} s, ≥ {r['ratio_at_least']:.0f}×)"
                  if r.get("ratio_at_least") else r["script"] for r in timed_out))
        print()
    if both_refuse:
        print("Refused by both: " + ", ".join(
            f"{r['script']} (dealer: {r['dealer_error'] or 'exit ' + str(r['dealer_exit'])}; "
            f"dealdex: {r['dealdex_error']})" for r in both_refuse))
        print()
    if only_dealdex:
        print("Run by dealdex only: " + ", ".join(
            f"{r['script']} (dealer: {r['dealer_error'] or 'exit ' + str(r['dealer_exit'])})"
            for r in only_dealdex))
        print()
    if dis:
        print("Statistics disagree:")
        print()
        for r in dis:
            print(f"- {r['script']}: {r['stats'][len('disagree: '):]}")
        print()
    if ratios:
        print("The 10 slowest ratios (dealdex time per generated deal ÷ Debian's dealer's):")
        print()
        print("| script | generated (dealer / dealdex) | dealer s | dealdex s | ratio |")
        print("|---|---|---|---|---|")
        for r in sorted(ratios, key=lambda r: -r["ratio"])[:10]:
            print(f"| {r['script']} | {r['dealer_generated']} / {r['dealdex_generated']} | "
                  f"{r['dealer_s']:.2f} | {r['dealdex_s']:.2f} | {r['ratio']:.2f} |")
        print()
    if slower:
        print("Every script dealdex runs slower than Debian's dealer (ratio): " + ", ".join(
            f"{r['script'].rsplit('.', 1)[0]} {r['ratio']:.2f}" for r in slower) + ".")
        print()
    print(f"Per-script table: {out_csv}")


if __name__ == "__main__":
    main()
