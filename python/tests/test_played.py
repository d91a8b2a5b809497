"""Database.played: the played boards of vugraph matches (tests/fixtures/vugraph) as the CLI
stores, exports and judges them."""

import json
import re

import pytest

import dealdex
from conftest import REPO

VUGRAPH = REPO / "tests" / "fixtures" / "vugraph"
# 04020.lin: both rooms, a passed-out board, an illegal card; 00050.lin: explanations, boards
# with no auction.
FILES = ("04020.lin", "00050.lin")


@pytest.fixture(scope="module")
def matches(cli, tmp_path_factory):
    """A database of the two matches as sets `m-1` and `m-2`, not judged yet."""
    db = tmp_path_factory.mktemp("played") / "d.db"
    cli("import", "--db", str(db), "--set", "m", *(str(VUGRAPH / f) for f in FILES))
    return db


def pbn_games(text):
    """The PBN games of an export: each a dict of its tags."""
    games = []
    for block in re.split(r"\n\s*\n", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        if "Deal" in tags:
            games.append(tags)
    return games


def test_the_record_is_what_export_writes(cli, matches, tmp_path):
    db = dealdex.Database(matches)
    for set_name in ("m-1", "m-2"):
        boards = db.played(set=set_name)
        out = tmp_path / f"{set_name}.pbn"
        cli("export", "--db", str(matches), "--set", set_name, "--out", str(out))
        games = [g for g in pbn_games(out.read_text()) if "Contract" in g or "North" in g]
        columns = boards.columns()
        assert len(boards) == len(games) > 10
        for k, g in enumerate(games):
            assert str(columns["board"][k]) == g["Board"]
            tags = ("Event", "North", "East", "South", "West", "Contract", "Declarer", "Result")
            for tag in tags:
                value = columns["tricks" if tag == "Result" else tag.lower()][k]
                want = g.get(tag, "?")
                if value is None:
                    assert want in ("?", ""), (k, tag, want)
                else:
                    assert str(value) == want, (k, tag)
            assert columns["dealer"][k] == g["Dealer"]
            assert columns["vulnerability"][k] == g["Vulnerable"]
            if columns["room"][k] is not None:
                assert columns["room"][k] == g["Room"]
        # Every card's seat holds it in the deal.
        for b in boards:
            hands = dict(zip(dealdex.SEATS, dealdex.Deal(b["deal"]).hands))
            for c in b["cards"]:
                suit = dealdex.SUITS.index(c["card"][0])
                assert c["card"][1] in hands[c["seat"]].split(".")[suit]
    with pytest.raises(dealdex.InputError, match="no set"):
        db.played(set="nope")


def test_judged_now_then_stored_by_judge_agree_with_its_report(cli, matches):
    db = dealdex.Database(matches)
    before = db.played()
    assert all(b["analysis"] is None for b in before)
    now = db.played(judge=True)
    report = json.loads(cli("--json", "judge", "--db", str(matches)))
    stored = db.played()
    assert [b["id"] for b in stored] == [b["id"] for b in now]
    judged = [b for b in stored if b["analysis"] is not None]
    assert len(judged) == report["boards"] > 20
    assert sum(1 for b in stored if b["fault"] is not None) == report["faults"]
    assert sum(len(b["cards"]) for b in judged) == report["cards"]
    columns = stored.columns()
    assert sum(x for x in columns["declarer_lost"] if x is not None) == report["declarer_lost"]
    assert sum(x for x in columns["defence_lost"] if x is not None) == report["defence_lost"]
    for a, b in zip(now, stored):
        assert a["analysis"] == b["analysis"]
        assert a["cards"] == b["cards"]
        assert a["judged_now"] == (b["analysis"] is not None)
        assert not b["judged_now"]
    # A row a card: each card's cost, summed per board, is what the board's sides lost.
    cards = stored.card_columns()
    assert len(cards["id"]) == sum(columns["cards"])
    lost = {}
    for i, cost in zip(cards["id"], cards["cost"]):
        lost[i] = lost.get(i, 0) + (cost or 0)
    for b in judged:
        a = b["analysis"]
        assert lost[b["id"]] == a["declarer_lost"] + a["defence_lost"]
        assert b["cards"][0]["cost"] == a["lead_cost"]


def test_to_pandas(matches):
    pd = pytest.importorskip("pandas")
    boards = dealdex.Database(matches).played(set="m-1")
    df = boards.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(boards)
    assert list(df["id"]) == [b["id"] for b in boards]
    assert len(boards.to_pandas(per_card=True)) == sum(len(b["cards"]) for b in boards)
