"""Unites deal archives into one, each deal once, and counts the duplicates.

Sources are numbered in the order given, and a row is a duplicate when its key occurs in
an earlier row of the same source, or in any row of an earlier source: exactly what
`dealdex import A B ...` counts when it imports the same files in that order. For each
source the summary gives `rows`, `new` (distinct keys not in any earlier source),
`seen_earlier` (rows whose key is in an earlier source), `repeated_within` (rows whose
key is new here but already occurred in this source) and `duplicates` (the two together,
rows − new). The output keeps every column of the first source holding each key; where
copies of a deal disagree (another board number, a table in one copy only) that one wins.
"""

from pyspark.sql import functions as F
from pyspark.sql.window import Window

import dealdex_spark as dx


def tagged(spark, archives):
    """The archives' rows, each with `_src`, its source's number."""
    frames = [dx.read(spark, [a]).withColumn("_src", F.lit(i)) for i, a in enumerate(archives)]
    df = frames[0]
    for f in frames[1:]:
        df = df.unionByName(f, allowMissingColumns=True)
    return df


def per_key_and_source(df):
    """One row per (key, source): the source's row count for the key, one of its rows,
    and `_first`, the first source holding the key. Partitioned by key once: both
    aggregations and the window reuse that partitioning."""
    columns = [c for c in df.columns if c != "_src"]
    grouped = (df.repartition("key")
               .groupBy("key", "_src")
               .agg(F.count(F.lit(1)).alias("_n"), F.first(F.struct(*columns)).alias("_row")))
    return grouped.withColumn("_first", F.min("_src").over(Window.partitionBy("key")))


def source_counts(pairs):
    """Per source: rows, new, seen_earlier, repeated_within."""
    first = F.col("_src") == F.col("_first")
    stats = pairs.groupBy("_src").agg(
        F.sum("_n").alias("rows"),
        F.sum(F.when(first, 1).otherwise(0)).alias("new"),
        F.sum(F.when(first, 0).otherwise(F.col("_n"))).alias("seen_earlier"),
        F.sum(F.when(first, F.col("_n") - 1).otherwise(0)).alias("repeated_within"))
    return {r["_src"]: r.asDict() for r in stats.collect()}


def main():
    p = dx.parser(__doc__.splitlines()[0])
    p.add_argument("--out", required=True, metavar="DIR", help="new directory of part files")
    p.add_argument("archives", nargs="+", metavar="ARCHIVE",
                   help="a directory of Parquet files or one file")
    a = p.parse_args()
    spark = dx.session("dedup", a.master)
    clock = dx.Clock()
    pairs = per_key_and_source(tagged(spark, a.archives)).cache()
    counts = source_counts(pairs)
    dx.write(pairs.filter(F.col("_src") == F.col("_first")).select("_row.*"), a.out)
    sources = []
    for i, archive in enumerate(a.archives):
        c = counts.get(i, {"rows": 0, "new": 0, "seen_earlier": 0, "repeated_within": 0})
        sources.append({"archive": archive, "rows": c["rows"], "new": c["new"],
                        "seen_earlier": c["seen_earlier"],
                        "repeated_within": c["repeated_within"],
                        "duplicates": c["seen_earlier"] + c["repeated_within"]})
    dx.summary({"job": "dedup", "out": a.out, "sources": sources,
                "rows": sum(s["rows"] for s in sources),
                "distinct": sum(s["new"] for s in sources), "seconds": clock.seconds()})
    pairs.unpersist()
    spark.stop()


if __name__ == "__main__":
    main()
