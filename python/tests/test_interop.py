"""Deal.from_endplay/to_endplay and from_redeal/to_redeal, when those packages import
(neither is in the CI venv; python/benches/compare.py's venv has endplay, and
DEALDEX_REDEAL_PATH may name a folder holding redeal's package)."""

import os
import sys

import pytest

import dealdex

PBN = "N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76"


def test_endplay_round_trip():
    types = pytest.importorskip("endplay.types")
    d = dealdex.Deal(PBN)
    e = d.to_endplay()
    assert isinstance(e, types.Deal)
    assert str(e.north) == "J987.JT7643.A4.Q"
    assert dealdex.Deal.from_endplay(e) == d
    assert dealdex.Deal.from_endplay(types.Deal(PBN)) == d


def test_redeal_round_trip():
    path = os.environ.get("DEALDEX_REDEAL_PATH")
    if path:
        sys.path.insert(0, path)
    redeal = pytest.importorskip("redeal")
    d = dealdex.Deal(PBN)
    r = d.to_redeal()
    assert isinstance(r, redeal.Deal)
    assert r.north.hcp == d.hcp("N") and r.east.hcp == d.hcp("E")
    assert dealdex.Deal.from_redeal(r) == d
