"""Double dummy (against DDS's own tables), the GIL released while solving, and every
format's writer and reader."""

import json
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import dealdex
from conftest import REPO

SEED = "42" * 32


def reference_array(boards):
    return np.array(
        [[[b["tricks"][seat][strain] for strain in dealdex.STRAINS] for seat in dealdex.SEATS] for b in boards],
        dtype=np.int8,
    )


def test_solve_equals_dds(dd_reference):
    boards = dd_reference[:12]
    deals = dealdex.Deals([dealdex.Deal(b["deal"]) for b in boards])
    tricks = dealdex.solve(deals, threads=2)
    assert (tricks.shape, tricks.dtype) == ((12, 4, 5), np.int8)
    assert (tricks == reference_array(boards)).all()
    pars = dealdex.par(deals, tricks=tricks)  # North deals, nobody vulnerable
    for b, p in zip(boards, dealdex.par(deals[:0], tricks=tricks[:0]) or pars):
        assert isinstance(p["score"], int)
    for i, b in enumerate(boards):
        p = dealdex.par(deals[i], dealer=b["dealer"], vul=b["vul"], tricks=tricks[i : i + 1])
        assert p == [b["par"]]


def test_select_solver_dds_gives_the_same_tables(dd_reference):
    boards = dd_reference[20:22]
    deals = dealdex.Deals([dealdex.Deal(b["deal"]) for b in boards])
    try:
        assert dealdex.select_solver("dds").startswith("DDS 3.1.0 (dds-bridge-sys ")
        assert (dealdex.solve(deals, threads=2) == reference_array(boards)).all()
    finally:
        assert dealdex.select_solver("pons") == dealdex.SOLVER == "pons-dds 0.2.0"
    with pytest.raises(dealdex.InputError, match="the solvers are pons and dds"):
        dealdex.select_solver("bo")


def test_solve_one_deal_and_progress(dd_reference):
    b = dd_reference[3]
    calls = []
    t = dealdex.solve(dealdex.Deal(b["deal"]), threads=1, progress=lambda done, total: calls.append((done, total)))
    assert (t[0] == reference_array([b])[0]).all()
    assert calls == [(1, 1)]


def test_par_uses_the_boards_dealer_and_vulnerability(dd_reference):
    boards = dd_reference[1:5]  # dealers E, S, W, N; vulnerabilities NS, EW, All, NS
    path_deals = dealdex.generate_boards(range(2, 6), seed=SEED)
    assert path_deals.dealers == [b["dealer"] for b in boards]
    assert path_deals.vulnerabilities == [b["vul"] for b in boards]


def test_solve_releases_the_gil():
    deals = dealdex.generate(4, seed=SEED)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.005)

    t = threading.Thread(target=count)
    t.start()
    start = time.perf_counter()
    dealdex.solve(deals, threads=1)
    end = time.perf_counter()
    stop.set()
    t.join()
    during = [x for x in ticks if start < x < end]
    # A thread blocked on the GIL would not tick at all during the solve.
    assert end - start > 0.1
    assert len(during) >= 0.3 * (end - start) / 0.005


# dealer's `printew` shows East and West only: its files give no complete deal back.
PARTIAL = {"dealer-ew"}
# Solved-deal libraries hold a double-dummy table with every deal: written from deals that
# carry one (below).
LIBRARIES = {"gib-library": "library.dat", "rp-library": "rpdd_10First.zrd"}


def test_every_format_round_trips(tmp_path):
    boards = dealdex.generate_boards(range(1, 17), seed=SEED)
    formats = dealdex.formats()
    assert len(formats) == 26
    for name, extensions in formats.items():
        path = tmp_path / f"set.{extensions[0] if extensions else name}"
        if name in LIBRARIES:
            with pytest.raises(dealdex.FormatError):
                dealdex.write(boards, path, name)
            continue
        dealdex.write(boards, path, name)
        if name in PARTIAL:
            continue
        back = dealdex.read(path, name)
        assert back.indices() == boards.indices(), name
        assert list(back.boards) == list(range(1, 17)), name


def test_libraries_read_with_their_tables_and_write_back_byte_for_byte(tmp_path):
    for name, fixture in LIBRARIES.items():
        original = REPO / "tests" / "fixtures" / "libraries" / fixture
        deals = dealdex.read(original, name)
        assert deals.tricks is not None and len(deals.tricks) == len(deals), name
        copy = tmp_path / fixture
        dealdex.write(deals, copy, name)
        assert copy.read_bytes() == original.read_bytes(), name


def test_write_refuses_what_the_format_cannot_hold(tmp_path):
    deals = dealdex.generate_boards(range(1, 101), seed=SEED)
    with pytest.raises(dealdex.FormatError) as e:
        dealdex.write(deals, tmp_path / "big.dup")
    assert e.value.format_kind == "unwritable"


def test_a_missing_file_is_an_os_error_of_bad_input(tmp_path):
    """As Python's open() does, a file that is not there raises an OSError
    (DealdexIOError), of the library's kind "bad-input" (the CLI exits 2 for it)."""
    missing = tmp_path / "none.pbn"
    with pytest.raises(OSError) as e:
        dealdex.read(missing)
    assert isinstance(e.value, dealdex.DealdexIOError)
    assert e.value.kind == "bad-input" and str(missing) in str(e.value)


def test_file_errors_name_the_record(tmp_path):
    path = tmp_path / "cut.bri"
    dealdex.write(dealdex.generate_boards(range(1, 3), seed=SEED), path)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(dealdex.FormatError) as e:
        dealdex.read(path)
    assert e.value.path == str(path)
    assert e.value.record is not None or e.value.byte is not None


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux's /proc")
@pytest.mark.parametrize("threads", [1, 3])
def test_threads_is_the_number_of_solver_threads(dd_reference, threads):
    """`threads=` sizes the pool the solver runs on (its threads are named dealdex-dd-K; a
    fresh process has none before), and the tables are DDS's on any count."""
    boards = dd_reference[20:22]
    code = (
        "import json, os, sys, dealdex\n"
        "deals = [dealdex.Deal(d) for d in json.loads(sys.argv[1])]\n"
        f"t = dealdex.solve(deals, threads={threads})\n"
        "names = [open(f'/proc/self/task/{k}/comm').read().strip() for k in os.listdir('/proc/self/task')]\n"
        "print(json.dumps([sorted(n for n in names if n.startswith('dealdex-dd-')), t.tolist()]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps([b["deal"] for b in boards])],
        capture_output=True, text=True, check=True,
    ).stdout
    names, tricks = json.loads(out)
    assert names == [f"dealdex-dd-{k}" for k in range(threads)]
    assert (np.array(tricks) == reference_array(boards)).all()


def test_threads_must_be_positive():
    with pytest.raises(dealdex.InputError, match="threads=0: expected at least 1 thread"):
        dealdex.solve(dealdex.generate(1, seed=SEED), threads=0)


@pytest.mark.parametrize(
    "source, target",
    [("field/teaching.pbn", "pbn"), ("lin-with-play.lin", "pbn"), ("field/teaching.lin", "lin")],
)
def test_read_then_write_keeps_what_the_cli_keeps(cli, tmp_path, source, target):
    """Auctions, play, tags and DD tables survive `write(read(path))`, byte for byte as
    `dealdex convert` writes the same file (and a slice keeps them for its boards)."""
    path = REPO / "tests" / "fixtures" / source
    ours = tmp_path / f"ours.{target}"
    theirs = tmp_path / f"theirs.{target}"
    deals = dealdex.read(path)
    dealdex.write(deals, ours)
    cli("convert", str(path), str(theirs))
    assert ours.read_bytes() == theirs.read_bytes()
    text = ours.read_text()
    assert ("[Auction" in text) if target == "pbn" else ("mb|" in text)
    if len(deals) > 1:
        mark = "mb|" if target == "lin" else "[Auction"
        dealdex.write(deals[1:], tmp_path / f"tail.{target}")
        assert (tmp_path / f"tail.{target}").read_text().count(mark) == text.count(mark) - 1


def test_a_set_not_starting_at_board_1_is_written_as_big_deal_writes_it(tmp_path):
    """write() knows the whole set's bounds: boards 11-20 to DUP carry Big Deal's trailer
    for ten boards (`YN1  0 10`, FORMATS.md §5), byte for byte Big Deal's own file."""
    fixtures = REPO / "tests" / "fixtures" / "bigdeal-ranges"
    deals = dealdex.read(fixtures / "bd11-20.pbn")
    ours = tmp_path / "ours.dup"
    dealdex.write(deals, ours)
    assert ours.read_bytes() == (fixtures / "bd11-20.dup").read_bytes()
