"""Opening leads from Python (issue 39): dealdex.lead gives the CLI's answer for the same
seed as numpy arrays over the leader's cards, with pairwise matrices that add up."""

import json
import subprocess

import numpy as np
import pytest

import dealdex
from conftest import cli_path

SEED = "42" * 32
HAND = "AQ4.J.KJ6543.632"


@pytest.fixture(scope="module")
def result():
    return dealdex.lead(HAND, "3NT", "S", vul="NS", deals=24, seed=SEED)


def test_arrays_over_the_leaders_cards(result):
    assert result["leader"] == "W"
    assert len(result["cards"]) == 13
    assert sorted(result["cards"]) == sorted(
        ["SA", "SQ", "S4", "HJ", "DK", "DJ", "D6", "D5", "D4", "D3", "C6", "C3", "C2"]
    )
    assert result["mean_tricks"].shape == (13,)
    assert result["tricks"].shape == (13, 14)
    assert (result["tricks"].sum(axis=1) == 24).all()
    mp = result["matchpoints"]
    assert mp.shape == (13, 13)
    assert np.allclose(np.diag(mp), 0.5)
    # A against B and B against A share the deals: their matchpoints add up to 1 and
    # their IMPs cancel.
    assert np.allclose(mp + mp.T, 1.0)
    assert np.allclose(result["imps"], -result["imps"].T)


def test_the_same_as_the_cli(result):
    out = subprocess.run(
        [cli_path(), "lead", "--hand", HAND, "--contract", "3NT", "--declarer", "S",
         "--vul", "NS", "--deals", "24", "--seed", SEED, "--json"],
        capture_output=True, check=True, text=True,
    )
    report = json.loads(out.stdout)
    assert [c["card"] for c in report["cards"]] == result["cards"]
    assert np.allclose([c["mean_tricks"] for c in report["cards"]], result["mean_tricks"])
    assert np.allclose([c["mean_score"] for c in report["cards"]], result["mean_score"])


def test_bad_arguments_are_dealdex_errors():
    # Python's parameter is named, not the CLI's flag.
    with pytest.raises(dealdex.InputError, match=r'^hand="AQ4\.J": column 6: hand has 2 suits'):
        dealdex.lead("AQ4.J", "3NT", "S", deals=2, seed=SEED)
    with pytest.raises(dealdex.InputError, match="12 cards, not 13"):
        dealdex.lead("AQ4.J.KJ6543.63", "3NT", "S", deals=2, seed=SEED)
    with pytest.raises(dealdex.InputError):
        dealdex.lead(HAND, "3ZZ", "S", deals=2, seed=SEED)


def test_store_then_query_and_reuse(tmp_path):
    db = tmp_path / "d.db"
    first = dealdex.lead(HAND, "3NT", "S", deals=5, seed=SEED, store="w", db=db)
    assert (first["solved"], first["looked_up"]) == (5, 0)
    assert first["stored"] == {"set": "w", "boards": 5, "new_deals": 5, "new_leads": 5}
    # The query term reads the stored tricks: the deals on which the SA gives 4 or more.
    sa = first["cards"].index("SA")
    want = int(first["tricks"][sa, 4:].sum())
    assert dealdex.Database(db).count("lead(W, nt, SA) >= 4", set="w") == want
    # The same deals again (another level): read, not solved.
    again = dealdex.lead(HAND, "6NT", "S", deals=5, seed=SEED, db=db)
    assert (again["solved"], again["looked_up"], again["stored"]) == (0, 5, None)
    assert np.allclose(again["mean_tricks"], first["mean_tricks"])
    with pytest.raises(dealdex.InputError, match="already exists"):
        dealdex.lead(HAND, "3NT", "S", deals=2, seed=SEED, store="w", db=db)
    with pytest.raises(dealdex.InputError, match="needs db"):
        dealdex.lead(HAND, "3NT", "S", deals=2, seed=SEED, store="x")


def test_a_sample_dealt_earlier_from_a_file(result, tmp_path):
    """The same 24 deals written by `generate --predeal`, read back with path=: the same
    per-card figures; neither or both of hand and path is an error."""
    pbn = tmp_path / "w.pbn"
    subprocess.run(
        [cli_path(), "generate", "--no-db", "-q", "--count", "24", "--seed", SEED,
         "--predeal", f"W:{HAND}", "--out", str(pbn)],
        check=True, capture_output=True,
    )
    again = dealdex.lead(None, "3NT", "S", vul="NS", path=pbn)
    assert again["deals"] == 24 and again["seed"] is None
    assert again["cards"] == result["cards"]
    assert np.allclose(again["mean_tricks"], result["mean_tricks"])
    assert np.allclose(again["imps"], result["imps"])
    with pytest.raises(dealdex.InputError):
        dealdex.lead(None, "3NT", "S")
    with pytest.raises(dealdex.InputError):
        dealdex.lead(HAND, "3NT", "S", path=pbn)
