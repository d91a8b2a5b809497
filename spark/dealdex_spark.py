"""Helpers shared by dealdex's Spark jobs (ship with `spark-submit --py-files`).

The jobs run dealdex itself, as a subprocess, wherever work is done: the binary is the one
named by `--dealdex PATH` (the same path on every node), else the one shipped with
`spark-submit --files .../dealdex` (found on each node through SparkFiles), else `dealdex`
on PATH.
"""

import argparse
import glob
import json
import os
import shutil
import stat
import subprocess
import sys
import time

from pyspark import SparkFiles, TaskContext
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession

# How the driver tells the tasks to look the binary up in SparkFiles on their own node.
SHIPPED = "sparkfiles:dealdex"

SEATS = "nesw"
STRAINS = ("nt", "s", "h", "d", "c")
# The 20 double-dummy columns of dealdex's Parquet schema, declarer-major.
DD_COLUMNS = [f"dd_{seat}_{strain}" for seat in SEATS for strain in STRAINS]


def parser(description):
    """An argument parser with the options every job has."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--dealdex", metavar="PATH",
                   help="dealdex binary (the same path on every node); default: the one "
                        "shipped with spark-submit --files, else dealdex on PATH")
    p.add_argument("--master", help="Spark master when run with plain python "
                                    "(spark-submit --master sets it otherwise)")
    return p


def session(name, master=None):
    """The Spark session; the master comes from spark-submit unless `master` is given, and
    so does everything else (`--conf spark.log.level=WARN` for a quieter log)."""
    builder = SparkSession.builder.appName(f"dealdex {name}")
    if master:
        builder = builder.master(master)
    return builder.getOrCreate()


def dealdex_spec(path):
    """Where tasks find dealdex: `path` as given, SHIPPED when it was shipped with
    --files (looked up on each node, where SparkFiles differ), else dealdex on PATH."""
    if path:
        return os.path.abspath(path) if os.path.exists(path) else path
    if os.path.exists(SparkFiles.get("dealdex")):
        return SHIPPED
    found = shutil.which("dealdex")
    if not found:
        sys.exit("dealdex not found: give --dealdex PATH, ship it with "
                 "spark-submit --files, or put it on PATH")
    return found


def dealdex_binary(spec):
    """The binary `spec` names, on the node this runs on (driver or task)."""
    if spec != SHIPPED:
        return spec
    path = SparkFiles.get("dealdex")
    mode = os.stat(path).st_mode
    if not mode & stat.S_IXUSR:  # a fetched file may lose its execute bit
        os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def task_env():
    """The environment of a dealdex run inside a task: dealdex's solver and generator
    threads limited to the cores Spark gave the task (spark.task.cpus), so that the
    tasks of an executor do not fight over its cores."""
    env = dict(os.environ)
    ctx = TaskContext.get()
    if ctx is not None:
        env["RAYON_NUM_THREADS"] = str(max(1, ctx.cpus()))
    return env


def run(args, env=None):
    """Runs dealdex (`args[0]` is the binary) and returns its stdout; fails with its
    stderr."""
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def parquet_paths(archives):
    """Spark paths of archives: a local directory stands for its *.parquet files (dealdex's
    shards, Spark's part files; not key files or _SUCCESS), anything else (a file, a glob,
    a remote URI) is passed as given."""
    paths = []
    for a in archives:
        if os.path.isdir(a):
            found = sorted(glob.glob(os.path.join(a, "*.parquet")))
            if not found:
                sys.exit(f"{a}: no .parquet files")
            paths.extend(found)
        else:
            paths.append(a)
    return paths


def read_existing(spark, path):
    """The rows of the Parquet files under `path`, or None when there are none (yet)."""
    if "://" not in path:
        if not glob.glob(os.path.join(path, "*.parquet")):
            return None
        return read(spark, [path])
    try:
        return spark.read.parquet(path)
    except AnalysisException:  # no such path, or nothing to read there
        return None


def read(spark, archives):
    """The rows of one or more archives as one DataFrame."""
    return spark.read.parquet(*parquet_paths(archives))


def write(df, out, mode="errorifexists"):
    """Writes `df` as zstd Parquet part files under `out`: the one codec, with
    uncompressed, that dealdex's reader takes."""
    df.write.mode(mode).option("compression", "zstd").parquet(out)


class Clock:
    """Wall-clock seconds since the clock started: the jobs start it once the session is
    up, so their rates leave out the JVM's start."""

    def __init__(self):
        self.start = time.monotonic()

    def seconds(self):
        return round(time.monotonic() - self.start, 3)


def summary(fields):
    """Prints the job's one-line JSON summary on stdout."""
    print(json.dumps(fields, sort_keys=True), flush=True)
