"""Database and dealer, checked against the dealdex binary on the same files and seeds."""

import json

import numpy as np
import pytest

import dealdex

SEED = "42" * 32


@pytest.fixture()
def db(cli, tmp_path):
    """A database holding set `s` (boards 1..64 of SEED), made by the CLI."""
    path = tmp_path / "d.db"
    cli("generate", "--boards", "1-64", "--seed", SEED, "--db", str(path), "--out", str(tmp_path / "s.pbn"))
    return path


def cli_indices(text):
    return [line.split("-")[0] for line in text.splitlines() if line.strip()]


def test_query_is_the_cli_query(cli, db):
    base = dealdex.Database(db)
    expr = "hcp(N) >= 12 and len(S, spades) >= 4"
    found = base.query(expr)
    assert found.indices() == cli_indices(cli("query", "--db", str(db), expr))
    in_set = base.query(expr, set="s")
    assert in_set.indices() == cli_indices(cli("query", "--db", str(db), "--set", "s", expr))
    assert list(in_set.boards) == sorted(in_set.boards)
    assert base.count(expr) == len(found) > 0
    assert len(base.query(expr, limit=2)) == 2
    assert all(d.hcp("N") >= 12 for d in found)


def test_sets_and_sql(db):
    base = dealdex.Database(db)
    sets = base.sets()
    assert [(s["name"], s["first_board"], s["last_board"]) for s in sets] == [("s", 1, 64)]
    assert base.sql("SELECT count(*) FROM deals") == [(64,)]
    names, rows = base.sql("SELECT key FROM deals ORDER BY key LIMIT 3", columns=True)
    assert names == ["key"] and all(isinstance(r[0], bytes) and len(r[0]) == 13 for r in rows)
    with pytest.raises(dealdex.InputError):
        base.sql("DELETE FROM deals")
    with pytest.raises(dealdex.InputError) as e:
        base.query("hcp(N) >=")
    assert e.value.column is not None


def test_import_export_solve(cli, tmp_path):
    path = tmp_path / "in.pbn"
    boards = dealdex.generate_boards(range(1, 5), seed=SEED)
    dealdex.write(boards, path)
    base = dealdex.Database(tmp_path / "new.db")
    report = base.import_files([path], set="mine")
    assert report["files"][0]["boards"] == 4 or json.dumps(report).count("mine")
    assert base.query("hcp(N) >= 0", set="mine").indices() == boards.indices()
    tricks, solved = base.solve(set="mine")
    assert tricks.shape == (4, 4, 5) and solved["solved"] == 4
    assert (tricks == dealdex.solve(boards)).all()
    again, second = base.solve(set="mine")
    assert (again == tricks).all() and second["already_solved"] == 4
    out = tmp_path / "out.pbn"
    base.export("mine", out)
    assert dealdex.read(out).indices() == boards.indices()
    # The CLI reads what Python stored.
    assert cli_indices(cli("query", "--db", str(tmp_path / "new.db"), "--set", "mine", "hcp(N) >= 0")) == boards.indices()


def test_missing_set_and_file(tmp_path):
    base = dealdex.Database(tmp_path / "none.db")
    with pytest.raises(dealdex.DealdexError):
        base.sets()


SCRIPT = """generate 100000
produce 300
condition hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)
action average "south hcp" hcp(south), frequency "north hcp" (hcp(north), 14, 18)
"""


def test_dealer_is_the_cli_dealer(cli, tmp_path):
    script = tmp_path / "nt.dl"
    script.write_text(SCRIPT)
    ours = dealdex.dealer(SCRIPT, seed=7)
    out = cli("--json", "dealer", "-s", "7", str(script))
    theirs = json.loads(out.strip().splitlines()[-1])
    run = theirs.get("run", theirs)
    assert (ours["generated"], ours["produced"]) == (run["generated"], run["produced"])
    assert ours["produced"] == 300 == len(ours["deals"])
    hcp = ours["deals"].hcp[:, 0]
    assert ((hcp >= 15) & (hcp <= 17)).all()
    average, freq = ours["summaries"]
    assert average["mean"] == pytest.approx(run["summaries"][0]["mean"])
    assert average["mean"] == pytest.approx(ours["deals"].hcp[:, 2].mean())
    assert isinstance(freq["counts"], np.ndarray) and freq["counts"].dtype == np.int64
    assert list(freq["counts"]) == run["summaries"][1]["counts"]
    assert list(freq["counts"]) == [0] + [int((hcp == v).sum()) for v in (15, 16, 17)] + [0]


def test_dealer_errors_name_the_place():
    with pytest.raises(dealdex.InputError) as e:
        dealdex.dealer("produce 10\ncondition hcp(north) >>> 3\n", seed=1)
    assert e.value.line == 2
