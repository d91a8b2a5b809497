#!/usr/bin/env bash
# Issue 11's 100,000-deal resumable solve, spread over as many runs as it takes: the first call
# stores N deals (default 100,000) in DIR/dd.db, and every call runs `solve --all` on it until
# it ends or is killed (a working session's end kills it; the next call resumes, skipping the
# deals already solved). Each run appends its start, the tables stored each minute, its exit,
# `integrity_check` and peak RSS (GNU time) to DIR/demo.log, and its RSS every minute to
# DIR/rss-<run>.log. The binary is copied into DIR on the first call, so every run solves with
# the same build.
#
#   cargo build --profile ci && benches/solve_sessions.sh [DIR]     # N=100000, ~3 h at 9.6 tables/s
set -u
BIN=$(cd "$(dirname "$0")/.." && pwd)/target/ci/dealdex
DIR=${1:-solve-sessions}
N=${N:-100000}
mkdir -p "$DIR" && cd "$DIR" || exit 1
[ -x dealdex ] || cp "$BIN" dealdex || exit 1
log() { echo "$(date -u +%FT%TZ) $*" >>demo.log; }
count() { ./dealdex sql --db dd.db "$1" | tail -n 1; }
if [ ! -e dd.db ]; then
    ./dealdex generate --count "$N" --seed "$(printf '1%.0s' {1..64})" --db dd.db -q
fi
run=$(date -u +%Y%m%dT%H%M%S)
log "run $run: start, tables stored: $(count 'SELECT count(*) FROM dd') of $(count 'SELECT count(*) FROM deals')"
nice -n 19 /usr/bin/time -v ./dealdex solve --all --db dd.db -q 2>"time-$run.log" &
P=$!
sleep 2
S=$(pgrep -P $P dealdex || echo $P)
while kill -0 "$S" 2>/dev/null; do
    echo "$(date -u +%T) $(ps -o rss= -p "$S")" >>"rss-$run.log"
    log "run $run: tables stored: $(count 'SELECT count(*) FROM dd')"
    sleep 60
done
wait $P
code=$?
log "run $run: exit $code, tables stored: $(count 'SELECT count(*) FROM dd'), integrity: $(count 'PRAGMA integrity_check'), $(grep -o 'Maximum resident.*' "time-$run.log")"
