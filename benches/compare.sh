#!/usr/bin/env bash
# Issue 16's side-by-side comparison: Debian's `dealer` and dealdex on the same workloads, in
# one run on this machine, best wall time of RUNS (default 3), with ratios. Installs Debian's
# `dealer` package and GNU time when missing. Prints a Markdown table (date and machine first)
# for benches/RESULTS.md.
#
#   cargo build --release && benches/compare.sh [DIR]        # RUNS=3 N=10000000
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/target/release/dealdex
DIR=${1:-$(mktemp -d)}
RUNS=${RUNS:-3}
N=${N:-10000000}
DEALER=/usr/games/dealer
mkdir -p "$DIR" && cd "$DIR"

if [ ! -x "$DEALER" ] || [ ! -x /usr/bin/time ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dealer time
fi
[ -x "$BIN" ] || (cd "$ROOT" && cargo build --release)
SEED=$(printf '5a%.0s' {1..32})

# best WALL PEAK: the best wall seconds of RUNS runs of the command, and that run's peak MiB.
best() {
    local b="" m=""
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %M" -o t.txt "$@" >/dev/null 2>err.txt || { cat err.txt >&2; exit 1; }
        read -r w k <t.txt
        if [ -z "$b" ] || awk "BEGIN{exit !($w < $b)}"; then b=$w; m=$((k / 1024)); fi
    done
    echo "$b $m"
}
ratio() { awk "BEGIN{ if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }
rate() { awk "BEGIN{ if ($2 > 0) printf \"%.2f M/s\", $1 / $2 / 1e6; else print \"-\" }"; }

# dealer's scripts: generate N and keep none (a condition no deal meets); 50,000 deals with
# 20+ HCP in North as one-line deals; 1 M deals as PBN.
printf 'generate %s\ncondition hcp(north) > 40\naction printoneline\n' "$N" >gen.dl
printf 'produce 50000\ncondition hcp(north) >= 20\naction printoneline\n' >where.dl
printf 'produce 1000000\naction printpbn\n' >pbn.dl

cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($cpu), $(free -g | awk '/Mem:/ {print $2}') GiB; best wall time of $RUNS runs."
echo
echo "| work | dealer (Debian) | dealdex, one core | dealdex, $(nproc) cores | dealer ÷ dealdex one core | target |"
echo "|---|---|---|---|---|---|"

read -r d _ < <(best "$DEALER" -s 1 gen.dl)
read -r o1 _ < <(best env RAYON_NUM_THREADS=1 "$BIN" generate --count "$N" --seed "$SEED" --format hex --out /dev/null -q)
read -r o2 _ < <(best "$BIN" generate --count "$N" --seed "$SEED" --format hex --out /dev/null -q)
echo "| generate $N deals, none kept (dealdex writes hex to /dev/null) | ${d} s = $(rate "$N" "$d") | ${o1} s = $(rate "$N" "$o1") | ${o2} s = $(rate "$N" "$o2") | $(ratio "$d" "$o1") | ≥ 9 M/s a core, ≥ 16 M/s on 2 |"

read -r d _ < <(best "$DEALER" -s 1 where.dl)
read -r o1 _ < <(best env RAYON_NUM_THREADS=1 "$BIN" generate --count 50000 --seed "$SEED" --where 'hcp(N) >= 20' --format oneline --out /dev/null -q)
read -r o2 _ < <(best "$BIN" generate --count 50000 --seed "$SEED" --where 'hcp(N) >= 20' --format oneline --out /dev/null -q)
echo "| 50,000 deals with hcp(N) >= 20, one line each | ${d} s | ${o1} s | ${o2} s | $(ratio "$d" "$o1") | ≥ 2 (twice dealer a core) |"

read -r d _ < <(best "$DEALER" -s 1 pbn.dl)
read -r o1 _ < <(best env RAYON_NUM_THREADS=1 "$BIN" generate --count 1000000 --seed "$SEED" --format pbn --out /dev/null -q)
read -r o2 _ < <(best "$BIN" generate --count 1000000 --seed "$SEED" --format pbn --out /dev/null -q)
echo "| 1,000,000 deals as PBN | ${d} s | ${o1} s | ${o2} s | $(ratio "$d" "$o1") | |"

# dealdex alone: ingest with stored features into a new database, and a function query.
rm -f ingest.db ingest.db-*
/usr/bin/time -f "%e %M" -o t.txt "$BIN" generate --count 3000000 --seed "$SEED" --db ingest.db -q
read -r w k <t.txt
echo "| ingest 3,000,000 new deals with features (new db) | — | | ${w} s = $(rate 3000000 "$w"), $((k / 1024)) MiB peak | | ≥ 2 M/s, < 200 MB |"
read -r q _ < <(best "$BIN" query 'balanced(N) and hcp(N) in 15..17' --count --db ingest.db)
echo "| \`query 'balanced(N) and hcp(N) in 15..17' --count\` over those 3 M | — | | ${q} s | | < 3 s over 60 M |"

# A 1,000,000-board set as PBN, imported as a set into a new database.
"$BIN" generate --boards 1-1000000 --seed "$SEED" --format pbn --out set.pbn --no-db -q
best_import() {
    local b=""
    for _ in $(seq "$RUNS"); do
        rm -f import.db import.db-*
        /usr/bin/time -f "%e" -o t.txt "$BIN" import set.pbn --set big --db import.db >/dev/null
        read -r w <t.txt
        if [ -z "$b" ] || awk "BEGIN{exit !($w < $b)}"; then b=$w; fi
    done
    echo "$b"
}
i=$(best_import)
echo "| \`import --set\` of that set as a 1,000,000-board PBN file (new db) | — | | ${i} s | | < 2 s |"
