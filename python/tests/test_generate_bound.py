"""Every generate is bounded (issue 37, item 4): with `where`, with or without `predeal`, at
most `max_draws` deals are drawn (10**9 by default, the CLI's `--max-draws`), and the error
names the bound and how to raise it, in Python's terms here and in the flags' on the command
line."""

import subprocess
import time

import pytest

import dealdex
from conftest import cli_path

SEED = "42" * 32

# North holds 37 HCP, so South holds at most 3: no deal matches, and the range check sees it
# with the predealt cards (issue 37: this spun for ever, then until the bound).
WHERE = "hcp(S) >= 10"
PREDEAL = "N:AKQJ.AKQ.AKQ.AKQ"
# Impossible too (East and South share 3 HCP), but each term alone could reach 3: the range
# check adds the terms' ranges (0 to 6), so only the bound stops the search.
WHERE_SUM = "hcp(S) + hcp(E) >= 4"


def test_where_impossible_with_the_predeal_is_refused_at_once():
    start = time.monotonic()
    with pytest.raises(dealdex.InputError) as e:
        dealdex.generate(3, seed=SEED, where=WHERE, predeal=PREDEAL)
    assert time.monotonic() - start < 5
    assert e.value.kind == "bad-input"
    assert e.value.column == 1
    assert "hcp(S) >= 10 can never hold: with the predealt cards, hcp(S) is 0 to 3" in str(
        e.value
    ), str(e.value)


def test_where_impossible_with_the_predeal_stops_at_max_draws():
    start = time.monotonic()
    with pytest.raises(dealdex.InputError) as e:
        dealdex.generate(3, seed=SEED, where=WHERE_SUM, predeal=PREDEAL, max_draws=200_000)
    assert time.monotonic() - start < 60
    message = str(e.value)
    assert e.value.kind == "bad-input"
    assert message.startswith(
        "where matched none of the 200,000 deals drawn; stopped at max_draws=200000 with "
        "matching deals 1-3 not made; no deals were returned (raise max_draws, 0 for no bound, "
        "or loosen the query); with predeal, check that the query can hold at all with the "
        "predealt cards"
    ), message


def test_the_bound_without_a_predeal_names_max_draws():
    with pytest.raises(dealdex.InputError) as e:
        dealdex.generate(3, seed=SEED, where="hcp(N) >= 36", max_draws=1000)
    message = str(e.value)
    assert "stopped at max_draws=1000 " in message
    assert "(raise max_draws, 0 for no bound, or loosen the query)" in message
    assert "predeal" not in message


def test_a_possible_where_with_a_predeal_is_not_cut_short():
    # With North's 37 HCP predealt South cannot hold 10; with 17 predealt it can, and the
    # deals are found well within the default bound.
    deals = dealdex.generate(3, seed=SEED, where=WHERE, predeal="N:AKQJ.AK..")
    assert len(deals) == 3
    assert all(d.hcp("S") >= 10 for d in deals)


def test_the_cli_stops_at_max_draws_with_a_predeal(tmp_path):
    start = time.monotonic()
    out = subprocess.run(
        [
            str(cli_path()), "generate", "--count", "3", "--seed", SEED, "--where", WHERE_SUM,
            "--predeal", PREDEAL, "--max-draws", "200000", "--no-db", "--to", "hex", "-o", "-",
        ],
        capture_output=True, text=True, cwd=tmp_path, check=False,
    )
    assert time.monotonic() - start < 60
    assert out.returncode == 2, out.stderr
    assert out.stdout == ""
    assert out.stderr.startswith(
        "dealdex: error: --where matched none of the 200,000 deals drawn; stopped at "
        "--max-draws 200000 with matching deals 1-3 not made; nothing was stored or written "
        "(raise --max-draws, 0 for no bound, or loosen the query); with --predeal, check that "
        "the query can hold at all with the predealt cards"
    ), out.stderr
