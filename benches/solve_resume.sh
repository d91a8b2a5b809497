#!/usr/bin/env bash
# Issue 11's resumable-solve measurement: N stored deals (default 10,000), `solve --all`
# killed with SIGKILL after KILL_AFTER seconds, the database checked, then the same command
# run again to the end. Prints what each step left in the database, the wall time and the
# peak resident memory of each run (GNU time), and samples RSS every 30 s into rss-*.log.
#
#   cargo build --release && benches/solve_resume.sh [DIR]     # N=10000 KILL_AFTER=900
#
# Takes about N / (tables per second) seconds: 10,000 deals are 30-40 min on 2 idle cores.
set -u
BIN=$(cd "$(dirname "$0")/.." && pwd)/target/release/dealdex
DIR=${1:-solve-resume}
N=${N:-10000}
mkdir -p "$DIR" && cd "$DIR" || exit 1
log() { echo "$(date +%T) $*" | tee -a demo.log; }
count() { "$BIN" sql --db dd.db "$1" | tail -n 1; }
sample() { while kill -0 "$1" 2>/dev/null; do ps -o rss= -p "$1" >>"rss-$2.log"; sleep 30; done; }
rm -f dd.db dd.db-* rss-*.log demo.log
"$BIN" generate --count "$N" --seed "$(printf '1%.0s' {1..64})" --db dd.db -q
log "stored deals: $(count 'SELECT count(*) FROM deals')"
start=$(date +%s)
/usr/bin/time -v "$BIN" solve --all --db dd.db -q 2>time-1.log &
P=$!; sleep 1; S=$(pgrep -P $P dealdex || echo $P); sample "$S" 1 &
sleep "${KILL_AFTER:-900}"
kill -9 "$S"; wait $P
log "killed after $(($(date +%s) - start)) s"
log "integrity_check: $(count 'PRAGMA integrity_check')"
log "tables stored at the kill: $(count 'SELECT count(*) FROM dd') (whole batches of 64)"
again=$(date +%s)
/usr/bin/time -v "$BIN" solve --all --db dd.db -q 2>time-2.log &
P=$!; sleep 1; S=$(pgrep -P $P dealdex || echo $P); sample "$S" 2 &
wait $P; code=$?
log "rerun: exit $code after $(($(date +%s) - again)) s, peak RSS $(grep -o 'Maximum resident.*' time-2.log)"
log "integrity_check: $(count 'PRAGMA integrity_check')"
log "tables stored: $(count 'SELECT count(*) FROM dd') of $N"
