#!/usr/bin/env bash
# The figures of spark/README.md's "Measured here": dealdex's own Parquet rates, then the
# Spark jobs in local[2]. Usage: spark/measure.sh [WORKDIR] (default /tmp/dealdex-measure),
# from the repository's root, with the venv activated and target/release/dealdex built.
set -euo pipefail
work="${1:-/tmp/dealdex-measure}"
bin="$PWD/target/release/dealdex"
seed=0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b
rm -rf "$work" && mkdir -p "$work"
export SPARK_LOCAL_IP=127.0.0.1
submit=(spark-submit --master 'local[2]' --conf spark.ui.enabled=false
        --conf spark.log.level=WARN --files "$bin" --py-files spark/dealdex_spark.py)
# Runs a command, its time on stdout after its own output.
timed() {
    /usr/bin/time -o "$work/time" -f "  %e s wall, %U s user, %M KB max RSS" "$@"
    cat "$work/time"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "dealdex generate --count 4000000 --out x.parquet"
timed "$bin" generate --count 4000000 --seed "$seed" --no-db -q --out "$work/x.parquet"
echo "  $(stat -c %s "$work/x.parquet") bytes"
echo "dealdex convert x.parquet x.hex"
timed "$bin" convert "$work/x.parquet" "$work/x.hex"
echo "dealdex import x.parquet --db x.db"
timed "$bin" import "$work/x.parquet" --db "$work/x.db" 2>/dev/null

echo "spark generate.py --count 4000000 --shards 4"
timed "${submit[@]}" spark/generate.py --seed "$seed" --count 4000000 --shards 4 \
    --out "$work/shards"
echo "spark query.py (one expression, then six) over the 4000000"
timed "${submit[@]}" spark/query.py --expr 'balanced(N) and hcp(N) in 15..17' "$work/shards"
timed "${submit[@]}" spark/query.py --expr 'hcp(N) >= 15' \
    --expr 'balanced(N) and hcp(N) in 15..17' --expr 'len(S, spades) >= 6 or len(N, hearts) >= 6' \
    --expr 'shape(E) = 4432' --expr 'not semibalanced(W) and controls(NS) >= 6' \
    --expr 'longest(S) >= 7' "$work/shards"
echo "dealdex query --count, the same expression, on x.db"
timed "$bin" query 'balanced(N) and hcp(N) in 15..17' --count --db "$work/x.db"

echo "spark solve.py over 100 deals; dealdex solve of the same 100"
"$bin" generate --count 100 --seed "$seed" --no-db -q --out "$work/h.parquet"
"$bin" generate --count 100 --seed "$seed" --no-db -q --out "$work/h.hex"
timed "${submit[@]}" spark/solve.py --out "$work/solved" "$work/h.parquet"
timed bash -c '"$0" solve - --from hex --no-db --to json -q < "$1" > /dev/null' \
    "$bin" "$work/h.hex"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
