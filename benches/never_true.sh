#!/usr/bin/env bash
# Issue 49: the simulation stream's speed alone, as a dealer script whose condition is never
# true (`generate N`, `condition hcp(north) > 40`, nothing printed), side by side in one run:
#   dealdex-1core            `dealdex dealer`, this CPU's select path (pdep where it is fast)
#   dealdex-portable-1core   the same with DEALDEX_PORTABLE=1 (what ARM machines run)
#   dealdex-2cores, dealdex-portable-2cores   both on every core
#   suokko-1core             suokko's dealer (only with SUOKKO=path to its binary, built beside
#                            the project from its public source)
#   debian-1core             Debian's dealer 20211121 (/usr/games/dealer)
# One core is `taskset -c 0` and RAYON_NUM_THREADS=1; whole commands under /usr/bin/time,
# ROUNDS rounds with the order turned each round; medians of wall and user (CPU) time, and the
# ratio of suokko's CPU time to each contestant's (above 1: faster than suokko).
# Prints the processor and dealdex's paths on it (`dealdex --version`).
#
#   SUOKKO=/path/to/dealer benches/never_true.sh     # N=10000000 ROUNDS=5 OUT=dir
# DEALDEX_BIN times another build (default: target/release/dealdex, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
n="${N:-10000000}"
rounds="${ROUNDS:-5}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
bin="${DEALDEX_BIN:-target/release/dealdex}"
[ -x "$bin" ] || cargo build --release -q --bin dealdex
printf 'generate %s\ncondition hcp(north) > 40\naction printall\n' "$n" > "$out/never.dlr"

echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$("$bin" --version | tr '\n' ' ')"
echo "portable: $(DEALDEX_PORTABLE=1 "$bin" --version | sed -n 's/^cpu: //p')"

source benches/rounds.sh
one="env RAYON_NUM_THREADS=1 taskset -c 0"
add dealdex-1core "env -u DEALDEX_PORTABLE $one $bin dealer -s 1 $out/never.dlr"
add dealdex-portable-1core "env DEALDEX_PORTABLE=1 $one $bin dealer -s 1 $out/never.dlr"
add dealdex-2cores "env -u DEALDEX_PORTABLE $bin dealer -s 1 $out/never.dlr"
add dealdex-portable-2cores "env DEALDEX_PORTABLE=1 $bin dealer -s 1 $out/never.dlr"
[ -n "${SUOKKO:-}" ] && add suokko-1core "taskset -c 0 $SUOKKO -s 1 $out/never.dlr"
[ -x /usr/games/dealer ] && add debian-1core "taskset -c 0 /usr/games/dealer -s 1 $out/never.dlr"

run_rounds "$out" "$rounds" >&2

python3 - "$out" "$n" "${names[@]}" <<'PY'
import statistics, sys
out, n, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rows = [l.split() for l in open(f"{out}/times")]
med = lambda name, col: statistics.median(float(r[col]) for r in rows if r[0] == name)
suokko = med("suokko-1core", 2) if "suokko-1core" in names else None
print()
print("| contestant | wall s (median) | CPU s (median) | ns a deal (wall) | suokko's CPU time ÷ this wall time |")
print("|---|---|---|---|---|")
for name in names:
    wall, user = med(name, 1), med(name, 2)
    ratio = f"{suokko / wall:.2f}×" if suokko else "–"
    print(f"| {name} | {wall:.3f} | {user:.3f} | {wall * 1e9 / n:.1f} | {ratio} |")
PY
