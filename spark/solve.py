"""Solves the deals of archives double-dummy, resumably, into Parquet part files.

Keys already in DIR's Parquet files are skipped; the rest are spread over partitions, and
each partition pipes its keys into ONE `dealdex solve - --from hex --no-db
--to json -q` process and reads its JSON lines back as they come. Each key goes with
the `-X` suffix of its `board` column when the archive has one, so par is for that
board's dealer and vulnerability (as the board carries them); without one, dealer North
and nobody vulnerable. Each run appends a new set of part files to DIR: `key`, the 20
`dd_<declarer>_<strain>` tricks, `par_score` (North-South's view) and `par_contracts`
(space-separated, as `4SN 4HS`; empty when passed out), which `dealdex import
DIR/*.parquet` loads back (tables only: par is recomputed from them).
"""

import json
import subprocess
import tempfile
import threading

from pyspark.sql import functions as F
from pyspark.sql import types as T

import dealdex_spark as dx

SCHEMA = T.StructType(
    [T.StructField("key", T.BinaryType(), False)]
    + [T.StructField(c, T.ByteType(), False) for c in dx.DD_COLUMNS]
    + [T.StructField("par_score", T.IntegerType(), False),
       T.StructField("par_contracts", T.StringType(), False)])


def hex_line(key, board):
    """The key as dealdex's hex line: 26 hex digits, `-X` (board mod 16) when known."""
    line = bytes(key).hex().upper()
    return line if board is None else f"{line}-{board % 16:X}"


def feed(stdin, lines):
    """Writes the lines to dealdex's stdin and closes it: run in a thread while the task
    reads stdout, so neither side blocks on a full pipe."""
    try:
        for line in lines:
            stdin.write(line + "\n")
    except BrokenPipeError:  # dealdex failed; its exit status and stderr say why
        pass
    finally:
        try:
            stdin.close()
        except BrokenPipeError:
            pass


def row(solved):
    """One output row from a `solve --to json` line."""
    tricks = solved["tricks"]
    dd = [tricks[seat.upper()][strain.upper()] for seat in dx.SEATS for strain in dx.STRAINS]
    par = solved["par"]
    return (bytearray.fromhex(solved["index"]), *dd, par["score"], " ".join(par["contracts"]))


def solve_partition(spec, batch):
    """The mapPartitions function: one dealdex process for the partition's (key, board)
    rows, its results yielded as dealdex flushes them (one batch at a time)."""
    def solve(rows):
        keys = [(bytes(r[0]), r[1]) for r in rows]
        if not keys:
            return
        args = [dx.dealdex_binary(spec), "solve", "-", "--from", "hex", "--no-db",
                "--to", "json", "-q", "--batch", str(batch)]
        with tempfile.TemporaryFile() as err, subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
                env=dx.task_env()) as proc:
            writer = threading.Thread(target=feed, daemon=True,
                                      args=(proc.stdin, [hex_line(k, b) for k, b in keys]))
            writer.start()
            n = 0
            for line in proc.stdout:
                out = row(json.loads(line))
                # dealdex answers in input order: a mismatch is a broken pipe or a bug.
                if n >= len(keys) or bytes(out[0]) != keys[n][0]:
                    raise RuntimeError(f"dealdex solve answered {out[0].hex()} out of order")
                n += 1
                yield out
            writer.join()
            if proc.wait() != 0 or n != len(keys):
                err.seek(0)
                raise RuntimeError(f"dealdex solve: exit {proc.returncode} after {n} of "
                                   f"{len(keys)} deals: {err.read().decode().strip()}")
    return solve


def main():
    p = dx.parser(__doc__.splitlines()[0])
    p.add_argument("--out", required=True, metavar="DIR",
                   help="directory of solved part files, appended to")
    p.add_argument("--partitions", type=int,
                   help="dealdex processes in all (default: Spark's default parallelism)")
    p.add_argument("--batch", type=int, default=16,
                   help="deals dealdex solves and hands back at a time")
    p.add_argument("archives", nargs="+", metavar="ARCHIVE",
                   help="a directory of Parquet files or one file")
    a = p.parse_args()
    spark = dx.session("solve", a.master)
    clock = dx.Clock()
    spec = dx.dealdex_spec(a.dealdex)
    deals = dx.read(spark, a.archives)
    board = F.col("board") if "board" in deals.columns else F.lit(None).cast("long")
    keys = deals.select("key", board.alias("board")).dropDuplicates(["key"])
    distinct = keys.count()
    done = dx.read_existing(spark, a.out)
    if done is not None:
        keys = keys.join(done.select("key"), "key", "left_anti")
    # Cut from DIR's files as they are now, before this run appends to DIR.
    keys = keys.localCheckpoint(eager=True)
    todo = keys.count()
    partitions = a.partitions or spark.sparkContext.defaultParallelism
    if todo:
        rows = keys.repartition(partitions).rdd.mapPartitions(solve_partition(spec, a.batch))
        dx.write(spark.createDataFrame(rows, SCHEMA), a.out, mode="append")
    seconds = clock.seconds()
    dx.summary({"job": "solve", "out": a.out, "deals": distinct, "solved": todo,
                "already_solved": distinct - todo, "partitions": partitions,
                "seconds": seconds, "deals_per_s": round(todo / seconds, 2)})
    spark.stop()


if __name__ == "__main__":
    main()
