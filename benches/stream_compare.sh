#!/usr/bin/env bash
# The numbered stream side by side (issue 40 item 1): 10^7 deals each, whole commands under
# /usr/bin/time, ROUNDS rounds with the order turned each round, medians:
#   dealdex-2cores   dealdex generate --count N --format hex --out /dev/null (every core)
#   dealdex-1core    the same with RAYON_NUM_THREADS=1 under taskset -c 0
#   naive-1core      benches/naive_stream.rs: ChaCha20 + Fisher–Yates, hex lines, one thread
#   suokko-1core     suokko's dealer (pcg32 + Fisher–Yates, no output), only with SUOKKO=path
#                    to its binary (built beside the project from its public source)
# Run on an idle machine from the repository's root: benches/stream_compare.sh
# Settings (environment): COUNT (default 10000000), ROUNDS (default 5), SUOKKO, OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${COUNT:-10000000}"
rounds="${ROUNDS:-5}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
cargo build --release -q -p dealdex -p dealdex-benches --bin dealdex --bin naive_stream
seed=$(printf '5a%.0s' {1..32})

source benches/rounds.sh
add dealdex-2cores "target/release/dealdex generate --count $count --seed $seed --no-db --format hex --out /dev/null -q"
add dealdex-1core "env RAYON_NUM_THREADS=1 taskset -c 0 target/release/dealdex generate --count $count --seed $seed --no-db --format hex --out /dev/null -q"
add naive-1core "taskset -c 0 target/release/naive_stream $count"
if [ -n "${SUOKKO:-}" ]; then
    printf 'generate %s\nproduce %s\ncondition 0\n' "$count" "$count" > "$out/none.dei"
    add suokko-1core "taskset -c 0 $SUOKKO $out/none.dei"
fi

run_rounds "$out" "$rounds"

python3 - "$out" "$count" "${names[@]}" <<'PY'
import statistics, sys
out, count, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rows = [l.split() for l in open(f"{out}/times")]
naive = statistics.median(float(r[1]) for r in rows if r[0] == "naive-1core")
print(f"{'contestant':<16} {'wall':>7} {'M deals/s':>10} {'vs naive':>9} {'peak MB':>8}  rounds")
for n in names:
    walls = [float(r[1]) for r in rows if r[0] == n]
    w = statistics.median(walls)
    peak = statistics.median(float(r[3]) for r in rows if r[0] == n) / 1024
    print(f"{n:<16} {w:7.2f} {count / w / 1e6:10.2f} {naive / w:8.2f}x {peak:8.0f}  "
          + ", ".join(f"{x:.2f}" for x in walls))
PY
