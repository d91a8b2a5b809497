"""Ctrl-C stops long work: a SIGINT to a Python process inside `generate` or `dealer` (a
search no deal passes), `solve`, `lead` or `contracts` (solving a large sample) raises
KeyboardInterrupt there within a second or so."""

import signal
import subprocess
import sys
import time

import pytest

SEED = "42" * 32

CASES = {
    "generate": f"dealdex.generate(5, seed='{SEED}', where='hcp(N) >= 37 and hcp(S) >= 3', max_draws=0)",
    "solve": f"dealdex.solve(dealdex.generate(2000, seed='{SEED}'), threads=1)",
    # Issue 50: both solved their whole sample first (minutes here).
    "lead": f"dealdex.lead('AQ4.J.KJ6543.632', '3NT', 'S', deals=20000, seed='{SEED}')",
    "contracts": f"dealdex.contracts(['3NT:S', '4H:N'], count=200000, seed='{SEED}')",
    "dealer": (
        "dealdex.dealer('produce 1\\ncondition hcp(north) > 37 && hcp(south) > 2\\n',"
        " generate=10**15, seed=1)"
    ),
}


@pytest.mark.parametrize("work", sorted(CASES))
def test_ctrl_c_stops_the_work(work):
    code = (
        "import sys, dealdex\n"
        "print('started', flush=True)\n"
        "try:\n"
        f"    {CASES[work]}\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(1.0)
        sent = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=30)
        took = time.perf_counter() - sent
    finally:
        p.kill()
    assert p.returncode == 3 and "interrupted" in out
    assert took < 10
