"""Runs the Spark jobs of spark/ one after another in one Spark driver (tests/slow/spark.rs).

Started with plain python (PySpark starts the JVM with PYSPARK_SUBMIT_ARGS), so that standard
input is the test's. A spark-submit costs about 15 s of CPU before a job does anything (the JVM and Spark's start);
a job run in a JVM that is already up costs under one. Each line on standard input is a request,
{"job": PATH, "args": [...], "dir": DIR}: the job runs as `__main__` with those arguments and
DIR as the working directory (its paths are absolute: Spark resolves relative ones against the
JVM's directory, which does not change). Each answer is one line on standard output,
MARK + {"ok": true, "stdout": ...} or {"ok": false, "error": ...}; the test skips other lines
(tasks' processes share the output). At end of input the scratch directory (argv[1], Spark's
spark.local.dir) is removed and the driver exits.
"""

import contextlib
import io
import json
import os
import runpy
import shutil
import sys
import traceback

MARK = "@@dealdex-spark-driver "


def answer(reply):
    sys.__stdout__.write(MARK + json.dumps(reply) + "\n")
    sys.__stdout__.flush()


def main():
    scratch = sys.argv[1]
    for line in sys.stdin:
        request = json.loads(line)
        out = io.StringIO()
        try:
            os.chdir(request["dir"])
            sys.argv = [request["job"]] + request["args"]
            with contextlib.redirect_stdout(out):
                runpy.run_path(request["job"], run_name="__main__")
            answer({"ok": True, "stdout": out.getvalue()})
        except BaseException:  # noqa: BLE001 - argparse's and sys.exit's SystemExit too
            answer({"ok": False, "error": out.getvalue() + traceback.format_exc()})
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
