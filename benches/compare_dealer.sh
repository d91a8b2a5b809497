#!/usr/bin/env bash
# Issue 29's side-by-side timing of `dealdex dealer` and Debian's dealer (20211121,
# /usr/games/dealer) on dealer's own scripts, in one run on this machine: Debian's example
# scripts (tests/fixtures/dealer/Descr.*, with the same -p/-g for both where a script alone
# would run too long) and two workloads of issue 16 as dealer scripts. Each is timed on one
# core (RAYON_NUM_THREADS=1 and `taskset -c 0`, for both programs) and dealdex again on two
# cores (`taskset -c 0,1`); best wall time of RUNS runs (default 3). Prints a Markdown table
# for benches/RESULTS.md. (benches/compare.sh is issue 16's comparison of `generate`.)
#
#   benches/compare_dealer.sh [DIR]        # RUNS=3 N=10000000 P=50000
#   QUICK=1 benches/compare_dealer.sh      # one run each, every script capped at -g 100000
#
# Installs Debian's `dealer` package and GNU time when missing, and builds dealdex with
# `cargo build --release` when target/release/dealdex is missing (BUILD=1: always;
# DEALDEX_BIN=PATH times another build instead).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${DEALDEX_BIN:-$ROOT/target/release/dealdex}
EXAMPLES=$ROOT/tests/fixtures/dealer
DIR=${1:-$(mktemp -d)}
QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then
    RUNS=${RUNS:-1} N=${N:-200000} P=${P:-2000}
else
    RUNS=${RUNS:-3} N=${N:-10000000} P=${P:-50000}
fi
DEALER=/usr/games/dealer
mkdir -p "$DIR" && cd "$DIR"

if [ ! -x "$DEALER" ] || [ ! -x /usr/bin/time ] || ! command -v taskset >/dev/null; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dealer time util-linux
fi
if [ ! -x "$BIN" ] || [ "${BUILD:-0}" = 1 ]; then
    (cd "$ROOT" && cargo build --release)
fi

# best OUT CMD…: the best wall seconds of RUNS runs of CMD; its standard output (of the last
# run) goes to OUT.
best() {
    local out=$1 b=""
    shift
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e" -o t.txt "$@" >"$out" 2>err.txt || {
            echo "failed: $*" >&2
            cat err.txt >&2
            exit 1
        }
        read -r w <t.txt
        if [ -z "$b" ] || awk "BEGIN{exit !($w < $b)}"; then b=$w; fi
    done
    echo "$b"
}
ratio() { awk "BEGIN{ if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }
# The `Generated N hands` count of a run's output.
# (print(seats)'s output ends in a form feed, on the same line.)
generated() { grep -ao 'Generated [0-9]* hands' "$1" | awk '{print $2}'; }

# The workloads: name, script file, flags for both programs. The statistical examples run
# as they are (Descr.hm1dr2d to 20,000 deals produced, Descr.test_dealer to 1,000,000
# generated: dealer takes 9 s and 52 s for them whole); the printing ones produce their few
# deals; dealer's version of issue 16's workloads: 10 M deals of which none is kept, and
# 50,000 deals with 20+ HCP in North printed on one line each.
printf 'generate %s\ncondition hcp(north) > 37\naction printoneline\n' "$N" >gen.dei
printf 'produce %s\ncondition hcp(north) >= 20\naction printoneline\n' "$P" >hcp20.dei
WORK=(
    "Descr.1c|$EXAMPLES/Descr.1c|"
    "Descr.6c|$EXAMPLES/Descr.6c|"
    "Descr.controls|$EXAMPLES/Descr.controls|"
    "Descr.vvga2|$EXAMPLES/Descr.vvga2|"
    "Descr.weaktwo|$EXAMPLES/Descr.weaktwo|"
    "Descr.stayman|$EXAMPLES/Descr.stayman|"
    "Descr.junkstayman|$EXAMPLES/Descr.junkstayman|"
    "Descr.hm1dr2d|$EXAMPLES/Descr.hm1dr2d|-p 20000"
    "Descr.test_dealer|$EXAMPLES/Descr.test_dealer|-g 1000000"
    "Descr.2nt|$EXAMPLES/Descr.2nt|"
    "Descr.notrump|$EXAMPLES/Descr.notrump|"
    "Descr.blue_team|$EXAMPLES/Descr.blue_team|"
    "Descr.yarb|$EXAMPLES/Descr.yarb|"
    "Descr.you_hold|$EXAMPLES/Descr.you_hold|"
    "Descr.pbn|$EXAMPLES/Descr.pbn|"
    "Descr.evaluation|$EXAMPLES/Descr.evaluation|"
    "generate $N, hcp(north) > 37|gen.dei|"
    "produce $P, hcp(north) >= 20|hcp20.dei|"
)

cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($cpu); best wall time of $RUNS runs; seed 1 for both."
[ "$QUICK" = 1 ] && echo "QUICK=1: every example capped at -g 100000 (not for the record)."
echo
echo "| script | generated (dealer / dealdex) | dealer s | dealdex 1-core s | dealdex 2-core s | ratio per core | ratio 2 cores |"
echo "|---|---|---|---|---|---|---|"
for w in "${WORK[@]}"; do
    IFS='|' read -r name script flags <<<"$w"
    [ "$QUICK" = 1 ] && case $name in Descr.*) flags="-g 100000" ;; esac
    # shellcheck disable=SC2086 # flags are words
    d=$(best dealer.out env RAYON_NUM_THREADS=1 taskset -c 0 "$DEALER" -s 1 $flags "$script")
    # shellcheck disable=SC2086
    o1=$(best dealdex1.out env RAYON_NUM_THREADS=1 taskset -c 0 "$BIN" dealer -s 1 $flags "$script")
    # shellcheck disable=SC2086
    o2=$(best dealdex2.out env RAYON_NUM_THREADS=2 taskset -c 0,1 "$BIN" dealer -s 1 $flags "$script")
    label=$name
    [ -n "$flags" ] && label="$name \`$flags\`"
    echo "| $label | $(generated dealer.out) / $(generated dealdex1.out) | $d | $o1 | $o2 | $(ratio "$d" "$o1") | $(ratio "$d" "$o2") |"
done
