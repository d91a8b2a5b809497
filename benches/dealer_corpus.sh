#!/usr/bin/env bash
# Issue 37: `dealdex dealer` against Debian's dealer (20211121, /usr/games/dealer) on a
# collection of real dealer scripts, e.g. the ~400 `.dlr` scripts of BBO's
# Practice-Bidding-Scenarios, kept outside the repo (their licence does not let them in).
#
#   benches/dealer_corpus.sh DIR [OUT]
#
# Runs every *.dlr, *.dl and *.txt script in DIR, unchanged, with both programs: each pinned
# to one core (`taskset -c 0`, RAYON_NUM_THREADS=1), seed `-s 1`, the same `-g G -p P` caps
# on the command line (they override the script's generate/produce), a per-script timeout.
# Then once more each with the script's action block replaced by averages and frequency
# tables of HCP and suit lengths (`-g STATS_G -p STATS_P`), and compares the two samples as
# tests/common/dealer.rs does (averages within 4 standard errors, frequency tables by a
# chi-square test of homogeneity at 0.1 %). Writes the per-script table as CSV to OUT
# (default DIR/corpus.csv) and prints a Markdown summary: how many scripts ran, dealdex's
# refusals with their messages, disagreements, the 10 slowest ratios and the median ratio of
# time per generated deal (dealdex ÷ Debian's dealer). The work is in dealer_corpus.py.
#
# Environment (defaults): DEALDEX_BIN (target/release/dealdex, built with `cargo build
# --release` when missing), DEALER (/usr/games/dealer), TIMEOUT (60 s per run), G (1000000),
# P (1000), STATS_G (G), STATS_P (2000), STATS=0 (no statistics runs), ONLY=REGEX (only the
# scripts whose name matches), SUOKKO=PATH (time suokko's dealer too; also its median ratio),
# PORTABLE=1 (time dealdex twice: this CPU's select path and DEALDEX_PORTABLE=1's; each path's
# median and slowest ratio against each peer).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:?usage: benches/dealer_corpus.sh DIR [OUT]}
OUT=${2:-$DIR/corpus.csv}
export DEALDEX_BIN=${DEALDEX_BIN:-$ROOT/target/release/dealdex}
export DEALER=${DEALER:-/usr/games/dealer}
export TIMEOUT=${TIMEOUT:-60} G=${G:-1000000} P=${P:-1000}

if [ ! -x "$DEALER" ] || ! command -v taskset >/dev/null || ! command -v python3 >/dev/null; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dealer util-linux python3
fi
if [ ! -x "$DEALDEX_BIN" ]; then
    (cd "$ROOT" && cargo build --release)
fi
if [ -n "${SUOKKO:-}" ] && [ ! -x "$SUOKKO" ]; then
    echo "SUOKKO=$SUOKKO is not an executable" >&2
    exit 2
fi
n=$(find "$DIR" -maxdepth 1 -type f \( -name '*.dlr' -o -name '*.dl' -o -name '*.txt' \) | wc -l)
[ "$n" -gt 0 ] || { echo "no *.dlr, *.dl or *.txt scripts in $DIR" >&2; exit 2; }

cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
head=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')
dver=$(dpkg-query -W -f '${Version}' dealer 2>/dev/null || echo '?')
xver=$("$DEALDEX_BIN" --version 2>/dev/null | head -1)
# The processor and the paths dealdex takes on it (DEALDEX_PORTABLE=1 forces the portable ones).
xcpu=$("$DEALDEX_BIN" --version 2>/dev/null | sed -n 's/^cpu: //p')
extra=""
[ -n "${SUOKKO:-}" ] && extra="; suokko's dealer: $SUOKKO"
echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($cpu; dealdex's paths: $xcpu), load average $(cut -d' ' -f1-3 /proc/loadavg); dealdex: $DEALDEX_BIN ($xver; the repo is at $head); Debian's dealer $dver$extra."
echo
exec python3 "$ROOT/benches/dealer_corpus.py" "$DIR" "$OUT"
