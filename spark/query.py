"""Counts (and optionally writes) the deals of archives that match dealdex queries.

Each EXPR is dealdex's query language (`hcp(N) >= 15 and balanced(N)`); the driver turns
it into a Spark SQL predicate with `dealdex query EXPR --explain --dialect spark`, so
Spark selects exactly the deals `dealdex query EXPR --count` counts on a database holding
the same deals (`par(...)` has no column in an archive and is refused).
"""

import dealdex_spark as dx


def predicate(binary, expr):
    """The Spark SQL predicate dealdex compiles `expr` to."""
    return dx.run([binary, "query", expr, "--explain", "--dialect", "spark"]).strip()


def main():
    p = dx.parser(__doc__.splitlines()[0])
    p.add_argument("--expr", required=True, action="append", metavar="EXPR",
                   help="a dealdex query; repeat for several counts over one read")
    p.add_argument("--out", metavar="DIR",
                   help="write the matching deals here (one --expr only)")
    p.add_argument("archives", nargs="+", metavar="ARCHIVE",
                   help="a directory of Parquet files or one file")
    a = p.parse_args()
    if a.out and len(a.expr) > 1:
        p.error("--out takes one --expr")
    spark = dx.session("query", a.master)
    clock = dx.Clock()
    binary = dx.dealdex_binary(dx.dealdex_spec(a.dealdex))
    predicates = [predicate(binary, e) for e in a.expr]
    df = dx.read(spark, a.archives)
    if a.out:
        dx.write(df.filter(predicates[0]), a.out)
        # Counted from the files written (their footers), not by filtering again.
        counts = [spark.read.parquet(a.out).count()]
    else:
        # One pass over the archives for all the counts.
        counts = df.selectExpr(*[f"count_if({q}) AS c{i}" for i, q in enumerate(predicates)]) \
                   .first()
    results = [{"expr": e, "predicate": q, "matched": int(n)}
               for e, q, n in zip(a.expr, predicates, counts)]
    fields = {"job": "query", "rows": df.count(), "queries": results,
              "seconds": clock.seconds()}
    if a.out:
        fields["out"] = a.out
    dx.summary(fields)
    spark.stop()


if __name__ == "__main__":
    main()
