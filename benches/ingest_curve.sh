#!/usr/bin/env bash
# Issue 16's ingest curve: grows one database by STEP new deals at a time up to TOTAL (default
# 10 M steps to 100 M) with `generate --start K --count STEP --db`, and prints for each step
# its rate, the peak memory of the process, the file size, the bytes a stored deal, and the
# time of the function query `balanced(N) and hcp(N) in 15..17 --count` over the database.
#
#   cargo build --release && benches/ingest_curve.sh [DIR]       # STEP=10000000 TOTAL=100000000
# Extra arguments for every generate (e.g. BATCH=8388608 for --batch) come from the environment.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/target/release/dealdex
DIR=${1:-$(mktemp -d)}
STEP=${STEP:-10000000}
TOTAL=${TOTAL:-100000000}
mkdir -p "$DIR" && cd "$DIR"
rm -f curve.db curve.db-*
SEED=$(printf '5a%.0s' {1..32})
extra=()
[ -n "${BATCH:-}" ] && extra+=(--batch "$BATCH")

echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; steps of $STEP new deals."
echo
echo "| deals before → after | seconds | new deals/s | peak MiB | file MiB | bytes a deal | query s |"
echo "|---|---|---|---|---|---|---|"
have=0
while [ "$have" -lt "$TOTAL" ]; do
    /usr/bin/time -f "%e %M" -o t.txt "$BIN" generate --start $((have + 1)) --count "$STEP" \
        --seed "$SEED" --db curve.db -q "${extra[@]}"
    read -r w k <t.txt
    next=$((have + STEP))
    bytes=$(stat -c %s curve.db)
    /usr/bin/time -f "%e" -o q.txt "$BIN" query 'balanced(N) and hcp(N) in 15..17' --count \
        --db curve.db >/dev/null
    read -r q <q.txt
    awk -v a="$have" -v b="$next" -v w="$w" -v k="$k" -v s="$bytes" -v n="$STEP" -v q="$q" 'BEGIN {
        printf "| %d M → %d M | %.1f | %.2f M | %d | %d | %.1f | %.2f |\n", a / 1e6, b / 1e6, w, n / w / 1e6, k / 1024, s / 1048576, s / b, q }'
    have=$next
done
