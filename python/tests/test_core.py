"""Deal, generation and numpy views, checked against the dealdex binary and the published
vectors."""

import numpy as np
import pytest

import dealdex

SEED = "42" * 32


def cli_indices(text: str) -> list:
    """The indices of `generate --to hex` lines (`HEX` or `HEX-N`)."""
    return [line.split("-")[0] for line in text.splitlines() if line.strip()]


def test_generate_is_the_cli_stream(cli):
    deals = dealdex.generate(500, seed=SEED)
    out = cli("generate", "--count", "500", "--seed", SEED, "--no-db", "--to", "hex", "--out", "-")
    assert deals.indices() == cli_indices(out)
    assert deals.seed == SEED.upper() or deals.seed == SEED


def test_generate_where_is_the_cli_stream(cli):
    query = "hcp(N) in 15..17 and balanced(N)"
    deals = dealdex.generate(200, seed=SEED, where=query)
    out = cli(
        "generate", "--count", "200", "--seed", SEED, "--where", query,
        "--no-db", "--to", "hex", "--out", "-",
    )
    assert deals.indices() == cli_indices(out)
    hcp = deals.hcp[:, 0]
    assert ((hcp >= 15) & (hcp <= 17)).all()
    shapes = np.sort(deals.lengths[:, 0, :], axis=1)
    assert (shapes[:, 0] >= 2).all() and (shapes[:, 3] <= 5).all()


def test_generate_predeal_is_the_cli_stream(cli):
    predeal = "N:AKQ2.AKQ.AKQ.AKQ"
    deals = dealdex.generate(100, seed=SEED, predeal=predeal, threads=1)
    out = cli(
        "generate", "--count", "100", "--seed", SEED, "--predeal", predeal,
        "--no-db", "--to", "hex", "--out", "-",
    )
    assert deals.indices() == cli_indices(out)
    assert all(d.hands[0] == "AKQ2.AKQ.AKQ.AKQ" for d in deals)


def test_generate_boards_is_the_cli_set(cli, tmp_path):
    path = tmp_path / "set.pbn"
    cli("generate", "--boards", "5-20", "--seed", SEED, "--no-db", "--out", str(path))
    from_cli = dealdex.read(path)
    ours = dealdex.generate_boards(range(5, 21), seed=SEED)
    assert ours.indices() == from_cli.indices()
    assert list(ours.boards) == list(range(5, 21)) == list(from_cli.boards)
    assert ours.dealers == from_cli.dealers
    assert ours.vulnerabilities == from_cli.vulnerabilities


def test_numbers_are_the_cli_numbers(cli):
    deals = dealdex.generate(20, seed=SEED)
    for scheme in ("pavlicek", "andrews", "bigdeal"):
        for d, n in zip(deals, deals.numbers(scheme)):
            out = cli("number", d.index, "--scheme", scheme)
            assert int(out.split()[-1]) == n == d.number(scheme)
            assert dealdex.Deal(n, scheme=scheme) == d


def test_published_numbers(vectors):
    for v in vectors["numbers"]:
        d = dealdex.Deal(int(v["number"]), scheme=v["scheme"])
        assert d.pbn() == v["deal"]
        assert d.number(v["scheme"]) == int(v["number"])
        assert dealdex.Deal(v["number"], scheme=v["scheme"]) == d
    assert dealdex.DEALS_TOTAL == int(vectors["D"])


def test_published_indices(vectors):
    for v in vectors["hex_index"]:
        d = dealdex.Deal(v["deal"])
        assert d.index == v["hex"]
        assert dealdex.Deal(v["hex"]) == d
        assert d.key == bytes.fromhex(v["hex"])


def test_published_board_cycle(vectors):
    cycle = vectors["board_cycle"]
    boards = dealdex.generate_boards(range(1, len(cycle) + 1), seed=SEED)
    assert boards.dealers == [c["dealer"] for c in cycle]
    assert boards.vulnerabilities == [c["vulnerable"] for c in cycle]


def test_published_lin_record(vectors, tmp_path):
    v = vectors["lin_example"]
    path = tmp_path / "example.lin"
    path.write_text(v["record"] + "\n")
    deals = dealdex.read(path)
    assert deals[0].pbn() == v["deal"]
    assert (list(deals.boards), deals.dealers, deals.vulnerabilities) == (
        [v["board"]], [v["dealer"]], [v["vulnerable"]],
    )


def test_deal_accessors():
    d = dealdex.Deal("N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76")
    assert d.hands == ("J987.JT7643.A4.Q", ".KQ2.QT9.AK98543", "AQ42.A8.KJ762.J2", "KT653.95.853.T76")
    assert [d.hcp(s) for s in "NESW"] == [8, 14, 15, 3]
    assert d.hcp("north") == d.hcp(0) == 8
    assert d.shape("E") == (0, 3, 3, 7)
    assert d.pbn("E") == "E:.KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76 J987.JT7643.A4.Q"
    assert dealdex.Deal(hands=list(d.hands)) == d
    assert hash(dealdex.Deal(d.index)) == hash(d)
    assert len({d, dealdex.Deal(d.pbn())}) == 1
    assert repr(d) == f"Deal('{d.pbn()}')"
    assert "♠" in str(d) and "KQ2" in str(d)
    html = d._repr_html_()
    assert html.startswith("<table") and "North" in html and "14 HCP" in html


def test_numpy_views():
    deals = dealdex.generate(10_000, seed=SEED)
    keys, hcp, lengths = deals.keys, deals.hcp, deals.lengths
    assert (keys.shape, keys.dtype) == ((10_000, 13), np.uint8)
    assert (hcp.shape, hcp.dtype) == ((10_000, 4), np.int8)
    assert (lengths.shape, lengths.dtype) == ((10_000, 4, 4), np.int8)
    assert (hcp.sum(axis=1) == 40).all()
    assert (lengths.sum(axis=2) == 13).all() and (lengths.sum(axis=1) == 13).all()
    for i in (0, 1, 4_999, 9_999):
        d = deals[i]
        assert list(hcp[i]) == [d.hcp(s) for s in "NESW"]
        assert [tuple(row) for row in lengths[i]] == [d.shape(s) for s in "NESW"]
        assert bytes(keys[i]) == d.key
    assert dealdex.Deals.from_keys(keys).indices() == deals.indices()
    # A uniform deal: each seat averages 10 HCP.
    assert abs(hcp.mean() - 10) < 0.1


def test_deals_sequence():
    deals = dealdex.generate(10, seed=SEED)
    assert len(deals) == 10
    assert deals[-1] == deals[9]
    assert deals[2:5].indices() == deals.indices()[2:5]
    assert deals[::-1].indices() == deals.indices()[::-1]
    assert [d.index for d in deals] == deals.indices()
    assert dealdex.Deals(list(deals)).indices() == deals.indices()
    with pytest.raises(IndexError):
        deals[10]


def test_errors_carry_kind_and_position(tmp_path):
    with pytest.raises(dealdex.InputError) as e:
        dealdex.Deal("N:AKQ.x")
    assert (e.value.kind, e.value.column) == ("bad-input", 7)
    assert isinstance(e.value, ValueError)

    bad = tmp_path / "bad.pbn"
    bad.write_text('[Event "x"]\n[Board "1"]\n[Deal "N:AKQ.x"]\n')
    with pytest.raises(dealdex.FormatError) as e:
        dealdex.read(bad)
    assert (e.value.path, e.value.line, e.value.column) == (str(bad), 3, 14)
    assert e.value.format_kind == "malformed"

    with pytest.raises(dealdex.InputError) as e:
        dealdex.generate(3, seed=SEED, where="hcp(N) > 37")
    assert e.value.column is not None

    with pytest.raises(dealdex.InputError) as e:
        dealdex.generate(3, seed="12")
    assert "64" in str(e.value)

    with pytest.raises(dealdex.InputError, match="stopped at max_draws=1000 "):
        dealdex.generate(3, seed=SEED, where="hcp(N) >= 36", max_draws=1000)

    with pytest.raises(dealdex.InputError):
        dealdex.Deal(0, scheme="pavlicek")
    with pytest.raises(ValueError):
        dealdex.Deal("N:AKQ.AKQ.AKQ.AKQJ - - -").hcp("X")
