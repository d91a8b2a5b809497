"""Contract choice from Python (issue 39): dealdex.contracts gives the CLI's answer over a
deal file, as numpy arrays whose matrices are antisymmetric."""

import json
import subprocess

import numpy as np

import dealdex
from conftest import cli_path

SEED = "42" * 32


def test_contracts_over_a_file_as_the_cli(tmp_path):
    path = tmp_path / "deals.pbn"
    dealdex.write(dealdex.generate_boards(range(1, 9), seed=SEED), path)
    result = dealdex.contracts(["3NT:S", "4H:N", "2SX:E"], path=path)
    assert result["contracts"] == ["3NT:S", "4H:N", "2SX:E"]
    assert result["deals"] == 8
    assert result["tricks"].shape == (3, 14)
    assert (result["tricks"].sum(axis=1) == 8).all()
    assert np.allclose(result["imps"], -result["imps"].T)
    assert np.allclose(result["matchpoints"] + result["matchpoints"].T, 1.0)
    out = subprocess.run(
        [cli_path(), "contracts", "3NT:S", "4H:N", "2SX:E", "--deals", str(path), "--json", "-q"],
        capture_output=True, check=True, text=True,
    )
    report = json.loads(out.stdout)
    assert np.allclose([c["make_percent"] for c in report["contracts"]], result["make_percent"])
    assert np.allclose([c["score"]["mean"] for c in report["contracts"]], result["mean_score"])


def test_a_bad_contract_is_an_input_error(tmp_path):
    path = tmp_path / "deals.pbn"
    dealdex.write(dealdex.generate_boards(range(1, 3), seed=SEED), path)
    try:
        dealdex.contracts(["3ZZ:S"], path=path)
    except dealdex.InputError:
        return
    raise AssertionError("expected InputError")


def test_contracts_over_a_dealt_sample_and_a_stored_set_as_the_cli(tmp_path):
    """A sample dealt now (seed, predeal, where) gives the CLI's figures and reports its
    seed; the same deals stored as a set give them again from the database."""
    dealt = ["--count", "4", "--seed", SEED, "--predeal", "S:AQ4.KJ52.K83.Q72",
             "--where", "hcp(N) >= 10"]
    result = dealdex.contracts(["3NT:S", "4H:S"], vul="None", count=4, seed=SEED,
                               predeal="S:AQ4.KJ52.K83.Q72", where="hcp(N) >= 10")
    assert (result["deals"], result["seed"]) == (4, SEED)
    assert result["drawn"] >= 4
    out = subprocess.run(
        [cli_path(), "contracts", "3NT:S", "4H:S", "--vul", "None", "--json", "-q", *dealt],
        capture_output=True, check=True, text=True,
    )
    report = json.loads(out.stdout)
    assert np.allclose([c["score"]["mean"] for c in report["contracts"]], result["mean_score"])
    db = tmp_path / "s.db"
    pbn = str(tmp_path / "s.pbn")
    for args in (["generate", "--no-db", "-q", "--out", pbn, *dealt],
                 ["import", pbn, "--set", "s", "--db", str(db)]):
        subprocess.run([cli_path(), *args], capture_output=True, check=True, text=True)
    stored = dealdex.contracts(["3NT:S", "4H:S"], vul="None", db=db, set="s")
    assert stored["deals"] == 4 and stored["seed"] is None
    assert np.allclose(stored["mean_score"], result["mean_score"])
    assert np.allclose(stored["imps"], result["imps"])
