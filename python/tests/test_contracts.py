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
    result = dealdex.contracts(["3NT:S", "4H:N", "2SX:E"], path)
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
        dealdex.contracts(["3ZZ:S"], path)
    except dealdex.InputError:
        return
    raise AssertionError("expected InputError")
