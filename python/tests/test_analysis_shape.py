"""lead() and contracts() take a sample the same way and return results of one shape:
dicts with ``to_pandas()``, the sample's deals and the tricks on each (issue 51 item 6)."""

import numpy as np
import pytest

import dealdex

SEED = "5c" * 32
HAND = "AQ4.J.KJ6543.632"


def test_lead_keeps_the_sample_and_each_deals_tricks():
    result = dealdex.lead(HAND, "3NT", "S", count=6, seed=SEED, threads=1)
    assert isinstance(result, dealdex.LeadResult)
    assert len(result.sample) == 6 and result.deal_tricks.shape == (6, 13)
    # The per-card means are the per-deal tricks' means, column by column.
    assert np.allclose(result.deal_tricks.mean(axis=0), result["mean_tricks"])
    # deals=N is the count, as before.
    again = dealdex.lead(HAND, "3NT", "S", deals=6, seed=SEED)
    assert again.sample.indices() == result.sample.indices()
    # The sample given back as deals= is solved to the same figures.
    given = dealdex.lead(None, "3NT", "S", deals=result.sample)
    assert np.allclose(given["mean_tricks"], result["mean_tricks"])
    assert np.array_equal(given.deal_tricks, result.deal_tricks)


def test_contracts_takes_the_same_sample_arguments():
    dealt = dealdex.contracts(["3NT:S", "4S:S"], count=5, seed=SEED, vul="None", threads=1)
    assert isinstance(dealt, dealdex.ContractsResult)
    assert dealt.deal_tricks.shape == (5, 2) and len(dealt.sample) == 5
    # Declarer's tricks on each deal add up to the trick distribution.
    for i in range(2):
        counts = np.bincount(dealt.deal_tricks[:, i], minlength=14)
        assert np.array_equal(counts, dealt["tricks"][i])
    given = dealdex.contracts(["3NT:S", "4S:S"], deals=dealt.sample, vul="None")
    assert np.allclose(given["mean_score"], dealt["mean_score"])


def test_results_become_data_frames():
    pd = pytest.importorskip("pandas")
    result = dealdex.lead(HAND, "3NT", "S", count=4, seed=SEED)
    frame = result.to_pandas()
    assert list(frame.index) == result["cards"]
    assert np.allclose(frame["defeat_percent"], result["defeat_percent"])
    per_deal = result.to_pandas(per_deal=True)
    assert per_deal.shape == (4, 13)
    assert list(per_deal.index) == result.sample.indices()
    choice = dealdex.contracts(["3NT:S", "4S:S"], count=4, seed=SEED)
    assert list(choice.to_pandas().index) == ["3NT:S", "4S:S"]
    assert isinstance(choice.to_pandas(per_deal=True), pd.DataFrame)
    assert "<table" in choice._repr_html_()


def test_deals_show_as_an_html_table():
    ds = dealdex.generate_boards(range(1, 13), seed=SEED)
    html = ds._repr_html_()
    assert html.count("<tr>") == 11  # the header and ten boards
    assert "10 of 12 deals" in html


def test_two_samples_at_once_are_refused():
    ds = dealdex.generate(3, seed=SEED)
    with pytest.raises(dealdex.InputError, match="one sample"):
        dealdex.contracts(["3NT:S"], deals=ds, count=3)
    with pytest.raises(dealdex.InputError, match="give the hand"):
        dealdex.lead(None, "3NT", "S", count=3)
    with pytest.raises(dealdex.InputError, match="no sample"):
        dealdex.contracts(["3NT:S"])
