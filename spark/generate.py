"""Generates a seed's deals as Parquet shards, one Spark task a shard.

Task i runs `dealdex generate --start s_i --count c_i --seed HEX --out DIR/part-<i>.parquet`
for the i-th of K contiguous board ranges, as even as can be. dealdex numbers a bulk run's
deals by their place in the seed's stream, so the shards are byte for byte the files one
machine writes for the same ranges. DIR must be a filesystem every worker sees (local
mode, NFS or another shared mount): each task writes its shard there itself.
"""

import os

import dealdex_spark as dx


def ranges(start, count, shards):
    """The K contiguous (start, count) ranges of `count` deals from `start`: the first
    count % K ranges one deal longer."""
    base, extra = divmod(count, shards)
    out, first = [], start
    for i in range(shards):
        n = base + (1 if i < extra else 0)
        out.append((first, n))
        first += n
    return out


def shard_path(out, i):
    return os.path.join(out, f"part-{i:05d}.parquet")


def generate_shard(spec, seed, out, i, first, count):
    """Writes shard i (nothing for an empty range); a retried task overwrites it. The
    shard is written under a hidden name, then renamed: a killed task leaves no partial
    part file for readers to pick up."""
    if count == 0:
        return {"shard": i, "start": first, "count": 0, "bytes": 0}
    os.makedirs(out, exist_ok=True)
    final = shard_path(out, i)
    partial = os.path.join(out, f".partial-{i:05d}.parquet")
    dx.run([dx.dealdex_binary(spec), "generate", "--seed", seed, "--start", str(first),
            "--count", str(count), "--no-db", "-q", "--out", partial], env=dx.task_env())
    os.replace(partial, final)
    return {"shard": i, "start": first, "count": count, "bytes": os.path.getsize(final)}


def main():
    p = dx.parser(__doc__.splitlines()[0])
    p.add_argument("--seed", required=True, metavar="HEX", help="64 hex digits")
    p.add_argument("--count", required=True, type=int, help="deals in all")
    p.add_argument("--start", type=int, default=1, help="first deal (1-based)")
    p.add_argument("--shards", required=True, type=int, help="K shards, one task each")
    p.add_argument("--out", required=True, metavar="DIR", help="shared directory")
    a = p.parse_args()
    if a.count < 1 or a.shards < 1 or a.start < 1:
        p.error("--count, --shards and --start must be at least 1")
    spark = dx.session("generate", a.master)
    clock = dx.Clock()
    spec = dx.dealdex_spec(a.dealdex)
    plan = ranges(a.start, a.count, a.shards)
    seed, out = a.seed, os.path.abspath(a.out)
    shards = (spark.sparkContext.parallelize(range(a.shards), a.shards)
              .map(lambda i: generate_shard(spec, seed, out, i, *plan[i]))
              .collect())
    seconds = clock.seconds()
    dx.summary({"job": "generate", "out": out, "seed": a.seed, "start": a.start,
                "deals": a.count, "shards": len([s for s in shards if s["count"]]),
                "bytes": sum(s["bytes"] for s in shards), "seconds": seconds,
                "deals_per_s": round(a.count / seconds)})
    spark.stop()


if __name__ == "__main__":
    main()
