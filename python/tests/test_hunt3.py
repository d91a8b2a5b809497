"""Issue 50, the third fault hunt, from Python as a new user would call it: each defect's
call raises the exception a Python user expects, at once, with a message naming the input."""

import time

import pytest

import dealdex

HAND = "AQ4.J.KJ6543.632"


def test_a_missing_deal_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        dealdex.lead(None, "3NT", "S", path=str(tmp_path / "nope.pbn"))
    assert "nope.pbn" in str(e.value)
    with pytest.raises(FileNotFoundError):
        dealdex.contracts(["3NT:S"], path=str(tmp_path / "nope.pbn"))


def test_a_leaders_hand_of_fourteen_cards_is_blamed_on_the_hand():
    with pytest.raises(dealdex.InputError) as e:
        dealdex.lead("AQ4.J.KJ6543.6325", "3NT", "S", deals=2, seed="11" * 32)
    message = str(e.value)
    assert "14 cards" in message and "N would" not in message, message


def test_a_negative_count_is_an_input_error_naming_it():
    for kwargs in ({"count": -1}, {"count": 2, "where": "hcp(N) >= 0", "max_draws": -5}):
        with pytest.raises(dealdex.InputError) as e:
            dealdex.contracts(["3NT:S"], seed="22" * 32, **kwargs)
        name = "max_draws" if "max_draws" in kwargs else "count"
        assert name in str(e.value)
        assert isinstance(e.value, ValueError)


def test_a_sample_past_the_bound_is_refused_at_once():
    started = time.monotonic()
    with pytest.raises(dealdex.InputError) as e:
        dealdex.lead(HAND, "3NT", "S", deals=10**12, seed="33" * 32)
    assert "1000000" in str(e.value)
    assert time.monotonic() - started < 5
