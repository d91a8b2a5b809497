"""A load run over a running `dealdex serve` (issue 52): CLIENTS concurrent clients, each on
its own keep-alive connection, for SECONDS, alternating deal pages (`GET /api/deal/<index>`
of the deals given) and count queries (`GET /api/query?q=EXPR&limit=24`); prints requests a
second and p50/p99/max latency by kind, and the server's RSS (given its pid). With
`--simulate N`, a dealer job drawing N deals (`POST /api/dealer`) is started first and the run
says whether it was still running at the end, so the pages are measured while a long
simulation runs. Standard library only.

    python3 benches/serve_load.py http://127.0.0.1:PORT --pid PID --indices FILE \
        [--clients 200] [--seconds 20] [--query 'hcp(N) >= 20'] [--simulate 100000000]
"""

import argparse
import asyncio
import json
import statistics
import time
import urllib.parse
import urllib.request


async def get(reader, writer, host, path):
    """One GET on a keep-alive connection; the status."""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    await writer.drain()
    status_line = await reader.readline()
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return int(status_line.split()[1])


async def client(n, a, host, port, paths, until, times, errors):
    reader, writer = await asyncio.open_connection(host, port)
    i = n
    while time.monotonic() < until:
        kind, path = paths[i % len(paths)]
        i += 1
        t = time.monotonic()
        status = await get(reader, writer, f"{host}:{port}", path)
        times[kind].append(time.monotonic() - t)
        if status != 200:
            errors.append((status, path))
    writer.close()


def start_simulation(base, deals):
    """Starts a dealer job that draws `deals` deals and keeps none; its id."""
    script = f"generate {deals}\nproduce {deals}\ncondition hcp(north) > 40\n"
    request = urllib.request.Request(
        base + "/api/dealer", data=json.dumps({"script": script, "seed": 1}).encode(),
        headers={"Content-Type": "application/json", "Origin": base}, method="POST")
    with urllib.request.urlopen(request) as r:
        return json.load(r)["id"]


def job_state(base, job):
    with urllib.request.urlopen(f"{base}/api/jobs/{job}") as r:
        s = json.load(r)
    return f"{s['state']} after {s['seconds']:.1f} s, progress {s.get('progress')}"


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--indices", required=True, help="a file of deal indices, one a line")
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--query", default="hcp(N) >= 20")
    ap.add_argument("--simulate", type=int, help="deals a dealer job draws during the run")
    a = ap.parse_args()
    base = a.base.rstrip("/")
    job = start_simulation(base, a.simulate) if a.simulate else None
    u = urllib.parse.urlparse(a.base)
    indices = [l.split()[0] for l in open(a.indices) if l.strip()]
    q = urllib.parse.quote(a.query, safe="")
    paths = []
    for idx in indices:
        paths += [("deal", f"/api/deal/{idx}"), ("query", f"/api/query?q={q}&limit=24")]
    times = {"deal": [], "query": []}
    errors = []
    rss = [rss_mib(a.pid)]
    until = time.monotonic() + a.seconds
    start = time.monotonic()
    tasks = [asyncio.create_task(client(n, a, u.hostname, u.port, paths, until, times, errors))
             for n in range(a.clients)]
    while time.monotonic() < until:
        await asyncio.sleep(1)
        rss.append(rss_mib(a.pid))
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - start
    total = sum(len(t) for t in times.values())
    print(f"{a.clients} clients, {elapsed:.1f} s: {total} requests, {total / elapsed:.0f} a second, {len(errors)} not 200")
    for kind, t in times.items():
        if not t:
            continue
        t = sorted(t)
        p = lambda x: t[min(len(t) - 1, int(x * len(t)))] * 1000
        print(f"  {kind:5} {len(t):6} requests: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {t[-1] * 1000:.1f} ms, mean {statistics.mean(t) * 1000:.1f} ms")
    print(f"  server RSS: {rss[0]:.0f} MiB before, {max(rss):.0f} MiB at most, {rss[-1]:.0f} MiB at the end")
    if job is not None:
        print(f"  the simulation (job {job}) at the end: {job_state(base, job)}")


asyncio.run(main())
