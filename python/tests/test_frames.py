"""Deals.to_pandas / to_arrow, where pandas / pyarrow are installed (optional extras; not in
the CI venv)."""

import pytest

import dealdex

SEED = "42" * 32


def test_to_pandas():
    pytest.importorskip("pandas")
    boards = dealdex.generate_boards(range(1, 17), seed=SEED)
    df = boards.to_pandas()
    assert list(df.columns) == ["index", "hcp_N", "hcp_E", "hcp_S", "hcp_W", "board", "dealer", "vul"]
    assert list(df["index"]) == boards.indices()
    assert (df[["hcp_N", "hcp_E", "hcp_S", "hcp_W"]].sum(axis=1) == 40).all()
    assert list(df["dealer"]) == boards.dealers


def test_to_arrow():
    pa = pytest.importorskip("pyarrow")
    deals = dealdex.generate(100, seed=SEED)
    table = deals.to_arrow()
    assert table.num_rows == 100
    assert table.schema.field("key").type == pa.binary(13)
    assert [k.hex().upper() for k in table.column("key").to_pylist()] == deals.indices()
    assert "board" not in table.column_names
