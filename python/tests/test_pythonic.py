"""Python at the edges (issue 38 item 7): every error a dealdex.errors exception that is also
the built-in one Python code expects, messages in Python's words, numpy-style indexing and
concatenation of Deals, a file's DD tables, dealer's text, and the wheel's release profile."""

import errno
import os
import re
import subprocess

import numpy as np
import pytest

import dealdex
from conftest import REPO, cli_path

SEED = "42" * 32


@pytest.fixture(scope="module")
def deals():
    return dealdex.generate(20, seed=SEED)


# (call, the dealdex class, the built-in class it also is, words the message has)
ARGUMENT_ERRORS = [
    (lambda d: dealdex.Deal(-5), dealdex.InputError, ValueError, "-5"),
    (lambda d: dealdex.Deal(1.5), dealdex.InputTypeError, TypeError, "Deal()"),
    (lambda d: dealdex.Deal(), dealdex.InputTypeError, TypeError, "hands="),
    (lambda d: dealdex.Deal(hands=["AKQ.."]), dealdex.InputError, ValueError, "hands="),
    (lambda d: d[0].hcp("X"), dealdex.InputError, ValueError, "not a seat"),
    (lambda d: d[0].pbn("X"), dealdex.InputError, ValueError, "not a seat"),
    (lambda d: dealdex.par(d[0], dealer="X"), dealdex.InputError, ValueError, "not a seat"),
    (lambda d: dealdex.par(d[:1], tricks=np.zeros((2, 4, 5))), dealdex.InputError, ValueError, "tricks"),
    (lambda d: dealdex.generate(10, threads=0), dealdex.InputError, ValueError, "threads=0"),
    (lambda d: dealdex.generate(10, threads=-1), dealdex.InputError, ValueError, "threads=-1"),
    (lambda d: dealdex.generate(-1), dealdex.InputError, ValueError, "count=-1"),
    (lambda d: dealdex.generate(2**70), dealdex.InputError, ValueError, "count="),
    (lambda d: dealdex.generate(2.0), dealdex.InputTypeError, TypeError, "count"),
    (lambda d: dealdex.generate(1, where="hcp(N) > 5", max_draws=-1), dealdex.InputError, ValueError, "max_draws=-1"),
    (lambda d: dealdex.generate_boards((1, 4)), dealdex.InputTypeError, TypeError, "range(1, 33)"),
    (lambda d: dealdex.generate_boards(range(0, 3)), dealdex.InputError, ValueError, "range(0, 3)"),
    (lambda d: dealdex.solve(5), dealdex.InputTypeError, TypeError, "Deals"),
    (lambda d: dealdex.solve([5]), dealdex.InputTypeError, TypeError, "Deal items"),
    (lambda d: dealdex.solve(d[:1], threads=0), dealdex.InputError, ValueError, "threads=0"),
    (lambda d: dealdex.Deals.from_keys(b"\0" * 5), dealdex.InputError, ValueError, "13-byte"),
    (lambda d: d[20], dealdex.InputIndexError, IndexError, "out of range"),
    (lambda d: d[-21], dealdex.InputIndexError, IndexError, "out of range"),
    (lambda d: d["a"], dealdex.InputTypeError, TypeError, "Deals indices"),
    (lambda d: d[[0, 20]], dealdex.InputIndexError, IndexError, "out of range"),
    (lambda d: d[np.ones(3, dtype=bool)], dealdex.InputIndexError, IndexError, "mask"),
    (lambda d: d[np.zeros((2, 2), dtype=int)], dealdex.InputTypeError, TypeError, "Deals indices"),
    (lambda d: dealdex.concat([d, 5]), dealdex.InputTypeError, TypeError, "Deals items"),
    (lambda d: dealdex.read("x.pbn", first_board=-1), dealdex.InputError, ValueError, "first_board=-1"),
    (lambda d: dealdex.dealer("produce 1\n", produce=-1), dealdex.InputError, ValueError, "produce=-1"),
    (lambda d: dealdex.Database("x.db").query("hcp(N) > 5", limit=-1), dealdex.InputError, ValueError, "limit=-1"),
    (lambda d: dealdex.Database("x.db").solve(threads=0), dealdex.InputError, ValueError, "threads=0"),
]


@pytest.mark.parametrize("case", range(len(ARGUMENT_ERRORS)))
def test_every_argument_error_is_a_dealdex_error(deals, case):
    call, dealdex_class, builtin, words = ARGUMENT_ERRORS[case]
    with pytest.raises(dealdex_class) as e:
        call(deals)
    assert isinstance(e.value, builtin) and isinstance(e.value, dealdex.DealdexError)
    assert e.value.kind == "bad-input"
    assert words in str(e.value)


def test_a_missing_file_is_a_file_not_found_error(tmp_path):
    missing = tmp_path / "none.pbn"
    with pytest.raises(FileNotFoundError) as e:
        dealdex.read(missing)
    err = e.value
    assert isinstance(err, dealdex.DealdexFileNotFoundError) and isinstance(err, dealdex.DealdexIOError)
    assert (err.errno, err.strerror) == (errno.ENOENT, os.strerror(errno.ENOENT))
    assert err.filename == err.path == str(missing)
    assert str(err).startswith(str(missing))  # dealdex's message, not OSError's "[Errno 2]"
    assert err.kind == "bad-input"
    # A database that does not exist, too.
    with pytest.raises(FileNotFoundError) as e:
        dealdex.Database(tmp_path / "none.db").sets()
    assert isinstance(e.value, dealdex.DealdexError)
    assert (e.value.errno, e.value.filename) == (errno.ENOENT, str(tmp_path / "none.db"))
    # A file written into a directory that does not exist.
    with pytest.raises(FileNotFoundError) as e:
        dealdex.write(dealdex.generate(1, seed=SEED), tmp_path / "no" / "out.pbn")
    assert isinstance(e.value, dealdex.DealdexIOError)
    assert (e.value.errno, e.value.filename, e.value.kind) == (errno.ENOENT, str(tmp_path / "no" / "out.pbn"), "io")


def test_a_directory_is_an_is_a_directory_error(tmp_path):
    with pytest.raises(IsADirectoryError) as e:
        dealdex.read(tmp_path, format="pbn")
    assert isinstance(e.value, dealdex.DealdexIOError) and e.value.errno == errno.EISDIR


CLI_FLAG = re.compile(r"--[a-z]")


def test_messages_name_python_arguments(deals, tmp_path):
    unknown = tmp_path / "deals.zzz"
    unknown.write_text("nothing")
    with pytest.raises(dealdex.InputError) as e:
        dealdex.read(unknown)
    assert "format=" in str(e.value) and not CLI_FLAG.search(str(e.value))
    with pytest.raises(dealdex.InputError) as e:
        dealdex.write(deals, tmp_path / "out.zzz")
    assert "format=" in str(e.value) and not CLI_FLAG.search(str(e.value))
    # A .txt whose content shows no format.
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    with pytest.raises(dealdex.InputError) as e:
        dealdex.read(text)
    assert "format=" in str(e.value) and not CLI_FLAG.search(str(e.value))
    # CDS holds board numbers mod 256: a first_board that disagrees with the first byte.
    cds = tmp_path / "deals.cds"
    dealdex.write(deals[:2], cds)
    with pytest.raises(dealdex.FormatError) as e:
        dealdex.read(cds, first_board=7)
    assert "the first board given, 7," in str(e.value) and not CLI_FLAG.search(str(e.value))


def test_masks_lists_and_integer_arrays_pick_deals(deals):
    hcp = deals.hcp
    strong = deals[hcp[:, 2] >= 10]
    assert strong.indices() == [k for k, h in zip(deals.indices(), hcp[:, 2]) if h >= 10]
    assert 0 < len(strong) < len(deals)
    assert deals[[0, 5, 7]].indices() == [deals[0].index, deals[5].index, deals[7].index]
    assert deals[np.array([19, -20, 3])].indices() == [deals[19].index, deals[0].index, deals[3].index]
    assert deals[np.array([3], dtype=np.uint8)].indices() == [deals[3].index]
    assert len(deals[[]]) == 0
    assert deals[np.int64(4)] == deals[4]
    assert strong.seed == deals.seed


def test_picks_keep_board_numbers_and_dd_tables():
    path = REPO / "tests" / "fixtures" / "dd" / "composer-style.pbn"
    boards = dealdex.read(path)
    picked = boards[[4, 1]]
    assert list(picked.boards) == [5, 2]
    assert picked.dealers == [boards.dealers[4], boards.dealers[1]]
    assert (picked.tricks == boards.tricks[[4, 1]]).all()
    masked = boards[boards.boards % 2 == 0]
    assert list(masked.boards) == list(range(2, 201, 2))


def test_concat_and_add_keep_boards_and_tables(deals):
    path = REPO / "tests" / "fixtures" / "dd" / "composer-style.pbn"
    boards = dealdex.read(path)
    both = boards[:3] + boards[10:12]
    assert list(both.boards) == [1, 2, 3, 11, 12]
    assert (both.tricks == np.concatenate([boards.tricks[:3], boards.tricks[10:12]])).all()
    assert dealdex.concat([boards[:3], boards[10:12]]).indices() == both.indices()
    # A generated batch has no boards: it is numbered 1, 2, … as write() would, no table.
    mixed = dealdex.concat([deals[:2], boards[:1]])
    assert mixed.indices() == deals[:2].indices() + boards[:1].indices()
    assert list(mixed.boards) == [1, 2, 1]
    assert mixed.dealers == ["N", "E", "N"]
    assert (mixed.tricks[:2] == -1).all() and (mixed.tricks[2] == boards.tricks[0]).all()
    plain = deals[:3] + deals[3:5]
    assert plain.indices() == deals[:5].indices()
    assert plain.boards is None and plain.tricks is None and plain.seed == deals.seed
    assert len(dealdex.concat([])) == 0
    with pytest.raises(TypeError):
        deals + [deals[0]]


def test_a_files_dd_tables_are_reachable(dd_reference):
    path = REPO / "tests" / "fixtures" / "dd" / "composer-style.pbn"
    boards = dealdex.read(path)
    expected = np.array(
        [[[b["tricks"][seat][strain] for strain in dealdex.STRAINS] for seat in dealdex.SEATS] for b in dd_reference],
        dtype=np.int8,
    )
    assert boards.tricks.dtype == np.int8 and boards.tricks.shape == (200, 4, 5)
    assert (boards.tricks == expected).all()
    # Par from the file's tables, without solving: DDS's par.
    assert dealdex.par(boards[:20], tricks=boards[:20].tricks) == [b["par"] for b in dd_reference[:20]]
    assert dealdex.generate(3, seed=SEED).tricks is None


SCRIPT = """generate 20000
produce 50
condition hcp(north) >= 15
action average "south hcp" hcp(south), frequency "north hcp" (hcp(north), 15, 20)
"""


def test_dealer_report_has_the_cli_text(tmp_path):
    script = tmp_path / "s.dl"
    script.write_text(SCRIPT)
    report = dealdex.dealer(SCRIPT, seed=3)
    assert isinstance(report, dict) and report["produced"] == 50
    cli = subprocess.run([str(cli_path()), "dealer", "-s", "3", str(script)], capture_output=True, text=True, check=True)
    # The time line is the run's own.
    timeless = lambda t: re.sub(r"Time needed.*", "", t)  # noqa: E731
    assert timeless(report["output"] + report.text) == timeless(cli.stdout)
    assert report.text == str(report) == report["text"]
    assert "Generated" in report.text and "Frequency north hcp" in report.text


def test_a_file_that_is_not_sqlite_is_a_corrupt_store(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("not a database\n" * 300)
    base = dealdex.Database(path)
    for call in (lambda: base.sets(), lambda: base.count("hcp(N) > 5"), lambda: base.import_files([])):
        with pytest.raises(dealdex.CorruptStoreError) as e:
            call()
        assert e.value.kind == "corrupt-store"
        assert str(path) in str(e.value)


def test_the_wheel_pip_builds_is_a_release_build():
    # `pip install ./python` builds the dist profile: release with fat LTO in one codegen unit
    # (the solver's speed), not the faster-building release profile of README's first command.
    import tomllib

    maturin = tomllib.loads((REPO / "python" / "pyproject.toml").read_text())["tool"]["maturin"]
    assert maturin["profile"] == "dist"
    dist = tomllib.loads((REPO / "Cargo.toml").read_text())["profile"]["dist"]
    assert (dist["inherits"], dist["lto"], dist["codegen-units"]) == ("release", "fat", 1)
    # CI builds its wheel with the ci profile explicitly, sharing the tests' build.
    assert "maturin\" build --profile ci" in (REPO / ".ci" / "run").read_text()
