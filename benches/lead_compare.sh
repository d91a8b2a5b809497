#!/usr/bin/env bash
# `dealdex lead` beside a loop of DDS's SolveBoard (endplay) on the same 1,000 deals: all 13
# leads against 3NT by South, West on lead with AQ4.J.KJ6543.632, one core and two.
# Needs a Python with endplay (ENDPLAY_PYTHON, default python3) and farm-bench.
# Usage: benches/lead_compare.sh [DEALS]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-1000}"
py="${ENDPLAY_PYTHON:-python3}"
bin=target/release/dealdex
cargo build --release -q
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
seed=$(printf '42%.0s' {1..32})
"$bin" generate --count "$n" --seed "$seed" --predeal 'W:AQ4.J.KJ6543.632' --to pbn \
    --out "$dir/leads.pbn" --no-db -q
echo "one core:"
farm-bench -n 3 --timeout 600 --vs "taskset -c 0 $py benches/lead_reference.py $dir/leads.pbn W N" \
    -- taskset -c 0 "$bin" lead --file "$dir/leads.pbn" --contract 3NT --declarer S
echo "two cores (dealdex) against one (the endplay loop):"
farm-bench -n 3 --timeout 600 --vs "taskset -c 0 $py benches/lead_reference.py $dir/leads.pbn W N" \
    -- "$bin" lead --file "$dir/leads.pbn" --contract 3NT --declarer S
