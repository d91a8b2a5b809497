"""dealdex: contract-bridge deals for Python.

Deals from dealdex's seeded stream (the same deals the ``dealdex`` command gives for the same
seed), hand-record numbers, 13-byte indices, every file format dealdex has, double-dummy
tables and par, the SQLite store, and dealer's script language. Batches of deals are
``Deals`` objects with numpy views (``keys``, ``hcp``, ``lengths``).

See python/README.md for a tour.
"""

from typing import Any

from ._dealdex import (  # noqa: F401
    DEALS_TOTAL,
    SOLVER,
    Database,
    Deal,
    Deals,
    __version__,
    concat,
    generate,
    generate_boards,
    par,
    read,
    select_solver,
    solve,
    write,
)
from ._dealdex import contracts as _contracts
from ._dealdex import dealer as _dealer
from ._dealdex import lead as _lead
from ._dealdex import formats_list as _formats_list
from .errors import (  # noqa: F401
    BusyError,
    CorruptStoreError,
    DealdexError,
    DealdexFileNotFoundError,
    DealdexIOError,
    DealdexIsADirectoryError,
    DealdexPermissionError,
    FormatError,
    InputError,
    InputIndexError,
    InputTypeError,
)

STRAINS = ("NT", "S", "H", "D", "C")
"""The strain axis of ``solve``'s tables: notrump, then spades, hearts, diamonds, clubs."""

SEATS = ("N", "E", "S", "W")
"""The seat axis of ``hcp``, ``lengths`` and ``solve``'s tables."""

SUITS = ("S", "H", "D", "C")
"""The suit axis of ``lengths`` and ``Deal.shape``."""


def formats() -> "dict[str, list[str]]":
    """The formats ``read`` and ``write`` know: name -> file extensions."""
    return {name: exts for name, exts in _formats_list()}


class DealerReport(dict):  # type: ignore[type-arg]
    """``dealer()``'s report: a dict of its values, with ``text``, the report as ``dealdex
    dealer`` prints it, which is also ``str(report)``."""

    @property
    def text(self) -> str:
        """The summaries and the closing lines (``Generated N hands`` …), as ``dealdex
        dealer`` prints them after what the actions printed (``report["output"]``)."""
        text: str = self["text"]
        return text

    def __str__(self) -> str:
        return self.text


def dealer(
    script: str,
    *,
    produce: "int | None" = None,
    generate: "int | None" = None,
    seed: "int | None" = None,
) -> DealerReport:
    """Runs a script of dealer's language (``generate``, ``produce``, ``condition``,
    ``action average/frequency/printall`` …) as ``dealdex dealer -s SEED`` does, over the
    simulation stream of ``seed`` (dealer's ``-s``; the OS's when ``None``).

    Returns a ``DealerReport``, a dict: ``generated``, ``produced``, ``seed``, ``seconds``,
    ``solved``; ``summaries``, one a summary action in order, where a ``frequency``'s
    ``counts`` is an ``int64[high - low + 1]`` numpy array (values ``low..high``;
    ``below``/``above`` count the rest), a two-way ``frequency2``'s an ``int64[rows, cols]``
    array (a row and a column for below and above each range), an ``average``'s ``mean`` a
    float; ``output``, the text the actions printed; ``text`` (also ``report.text`` and
    ``str(report)``), the report's text as the CLI prints it after ``output``; ``deals``, the
    produced deals as ``Deals``.
    """
    import numpy as np

    report = DealerReport(_dealer(script, produce=produce, generate=generate, seed=seed))
    for s in report["summaries"]:
        if s.get("kind") in ("frequency", "frequency2"):
            s["counts"] = np.asarray(s["counts"], dtype=np.int64)
    return report


def _pandas():  # type: ignore[no-untyped-def]
    """pandas, or an ImportError that says how to get it."""
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas: pip install pandas") from e
    return pd


class _Analysis(dict):  # type: ignore[type-arg]
    """A result over a sample of deals: a dict of its values (numpy arrays over the
    ``_axis`` items: ``cards`` or ``contracts``), with ``to_pandas()``."""

    _axis = ""
    _columns: "tuple[str, ...]" = ()

    @property
    def labels(self) -> "list[str]":
        """The items the per-item arrays are over, in their order."""
        labels: "list[str]" = self[self._axis]
        return labels

    @property
    def sample(self) -> Deals:
        """The deals of the sample, in order."""
        sample: Deals = self["sample"]
        return sample

    @property
    def deal_tricks(self):  # type: ignore[no-untyped-def]
        """int8[deals, items]: the tricks on each deal of ``sample`` for each item."""
        return self["deal_tricks"]

    def to_pandas(self, per_deal: bool = False):  # type: ignore[no-untyped-def]
        """A pandas DataFrame: one row an item (``labels``) with its means, standard errors
        and percentages; with ``per_deal``, one row a deal of ``sample`` (indexed by its hex
        index) and one column an item, the tricks. Needs pandas."""
        pd = _pandas()
        if per_deal:
            return pd.DataFrame(
                self.deal_tricks,
                index=pd.Index(self.sample.indices(), name="index"),
                columns=pd.Index(self.labels, name=self._axis),
            )
        data = {c: self[c] for c in self._columns}
        return pd.DataFrame(data, index=pd.Index(self.labels, name=self._axis))

    def _repr_html_(self) -> str:
        return str(self.to_pandas()._repr_html_())


class LeadResult(_Analysis):
    """``lead()``'s result: a dict (``cards``, ``mean_tricks``, ``defeat_percent``, ``imps``
    …, see ``lead``) with ``to_pandas()`` (a row a card) and ``to_pandas(per_deal=True)`` (a
    row a deal, a column a card: the defence's tricks)."""

    _axis = "cards"
    _columns = ("mean_tricks", "tricks_se", "defeat_percent", "mean_score", "score_se")


class ContractsResult(_Analysis):
    """``contracts()``'s result: a dict (``contracts``, ``make_percent``, ``mean_score``,
    ``imps`` …, see ``contracts``) with ``to_pandas()`` (a row a contract) and
    ``to_pandas(per_deal=True)`` (a row a deal, a column a contract: declarer's tricks)."""

    _axis = "contracts"
    _columns = ("make_percent", "mean_score", "score_se")


def lead(hand, contract, declarer, **kwargs) -> LeadResult:  # type: ignore[no-untyped-def]
    return LeadResult(_lead(hand, contract, declarer, **kwargs))


def contracts(contracts, **kwargs) -> ContractsResult:  # type: ignore[no-untyped-def]
    return ContractsResult(_contracts(contracts, **kwargs))


lead.__doc__ = _lead.__doc__
contracts.__doc__ = _contracts.__doc__


class PlayedBoards(list):  # type: ignore[type-arg]
    """``Database.played()``'s boards: a list of dicts, one a table's record (the played
    workflow's report, as ``/api/played/<id>`` of ``dealdex serve`` gives it), with
    ``columns()`` (a row a board) and ``card_columns()`` (a row a card) as dicts of equal-length
    lists, which ``pandas.DataFrame`` takes as they are, and ``to_pandas()``."""

    _BOARD = (
        "id", "index", "set", "board", "room", "event", "north", "east", "south", "west",
        "dealer", "vulnerability", "contract", "declarer", "tricks", "score",
    )

    def columns(self) -> "dict[str, list[Any]]":
        """A row a board: the record's fields (``id`` … ``score``, see ``Database.played``),
        ``auction`` (the calls separated by spaces, ``None`` without one), ``cards`` (how many
        were played), ``lead`` (the opening lead, ``SQ``), and the judgement (``None`` where
        not judged): ``dd_tricks`` (declarer's side's tricks double dummy before the lead),
        ``declarer_lost``, ``defence_lost``, ``lead_cost``; ``judged_now``, ``fault``."""
        out: "dict[str, list[Any]]" = {name: [b[name] for b in self] for name in self._BOARD}
        out["auction"] = [
            None if b["auction"] is None else " ".join(c["call"] for c in b["auction"]) for b in self
        ]
        out["cards"] = [len(b["cards"]) for b in self]
        out["lead"] = [b["cards"][0]["card"] if b["cards"] else None for b in self]
        judged = [b["analysis"] for b in self]
        out["dd_tricks"] = [a and a["tricks"][0] for a in judged]
        for name in ("declarer_lost", "defence_lost", "lead_cost"):
            out[name] = [a and a[name] for a in judged]
        out["judged_now"] = [b["judged_now"] for b in self]
        out["fault"] = [b["fault"] for b in self]
        return out

    def card_columns(self) -> "dict[str, list[Any]]":
        """A row a card played: ``id`` (the board's), ``position`` (1 = the opening lead),
        ``trick`` (1..13), ``card``, ``seat``, ``dd`` (declarer's side's tricks after it,
        double dummy) and ``cost`` (what it cost its side), ``None`` where not judged."""
        out: "dict[str, list[Any]]" = {
            k: [] for k in ("id", "position", "trick", "card", "seat", "dd", "cost")
        }
        for b in self:
            for k, c in enumerate(b["cards"]):
                out["id"].append(b["id"])
                out["position"].append(k + 1)
                out["trick"].append(k // 4 + 1)
                for name in ("card", "seat", "dd", "cost"):
                    out[name].append(c[name])
        return out

    def to_pandas(self, per_card: bool = False):  # type: ignore[no-untyped-def]
        """``columns()`` as a pandas DataFrame (``card_columns()`` with ``per_card``). Needs
        pandas."""
        return _pandas().DataFrame(self.card_columns() if per_card else self.columns())


def _played(self, *, set=None, judge=False) -> PlayedBoards:  # type: ignore[no-untyped-def]
    """The played boards (imported match files: LIN vugraph, PBN with auction and play) of
    ``set``, or of the whole database, in set, board and room order, as ``PlayedBoards``:
    each a dict (``id``, ``set``, ``board``, ``room``, ``event``, ``north`` … ``west``,
    ``contract``, ``declarer``, ``tricks`` (declarer's, the PBN ``Result``), as ``query
    --played --json`` gives them; ``index``, ``deal``, ``dealer``, ``vulnerability``,
    ``auction`` (calls with their notes), ``score``, ``cards`` (each with its ``seat``, its
    double-dummy value ``dd`` and ``cost``), ``analysis`` (``tricks``, ``declarer_lost``,
    ``defence_lost``, ``costs``, ``lead_cost``), ``judged_now``, ``fault``). Judgements are
    those ``dealdex judge`` stored; with ``judge``, the boards without one are judged now (not
    stored). ``InputError`` for a set that is not stored."""
    return PlayedBoards(self._played(set=set, judge=judge))


def _to_pandas(self):  # type: ignore[no-untyped-def]
    """The batch as a pandas DataFrame: ``index`` (hex), ``hcp_N`` … ``hcp_W``, and
    ``board``/``dealer``/``vul`` for a set or a file. Needs pandas (``pip install pandas``)."""
    pd = _pandas()
    columns = {"index": self.indices()}
    hcp = self.hcp
    for i, seat in enumerate(SEATS):
        columns[f"hcp_{seat}"] = hcp[:, i]
    if self.boards is not None:
        columns["board"] = self.boards
        columns["dealer"] = self.dealers
        columns["vul"] = self.vulnerabilities
    return pd.DataFrame(columns)


def _to_arrow(self):  # type: ignore[no-untyped-def]
    """The batch as a pyarrow Table with the columns of ``to_pandas`` and ``key``
    (fixed-size binary of 13 bytes). Needs pyarrow (``pip install pyarrow``)."""
    try:
        import pyarrow as pa
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("Deals.to_arrow() needs pyarrow: pip install pyarrow") from e
    keys = self.keys
    columns = {"key": pa.array([bytes(k) for k in keys], type=pa.binary(13))}
    hcp = self.hcp
    for i, seat in enumerate(SEATS):
        columns[f"hcp_{seat}"] = pa.array(hcp[:, i])
    if self.boards is not None:
        columns["board"] = pa.array(self.boards)
        columns["dealer"] = pa.array(self.dealers)
        columns["vul"] = pa.array(self.vulnerabilities)
    return pa.table(columns)


def _from_endplay(deal) -> Deal:  # type: ignore[no-untyped-def]
    """The dealdex ``Deal`` of an endplay ``endplay.types.Deal`` (all 52 cards dealt)."""
    return Deal(deal.to_pbn())


def _to_endplay(self):  # type: ignore[no-untyped-def]
    """This deal as an ``endplay.types.Deal`` (needs endplay: ``pip install endplay``)."""
    try:
        from endplay.types import Deal as EndplayDeal
    except ImportError as e:
        raise ImportError("Deal.to_endplay() needs endplay: pip install endplay") from e
    return EndplayDeal(self.pbn())


def _from_redeal(deal) -> Deal:  # type: ignore[no-untyped-def]
    """The dealdex ``Deal`` of a redeal ``Deal`` (a tuple of hands N, E, S, W)."""
    hands = [hand.to_str().replace("-", "").replace(" ", ".") for hand in deal]
    return Deal(hands=hands)


def _to_redeal(self):  # type: ignore[no-untyped-def]
    """This deal as a redeal ``Deal`` (needs redeal importable)."""
    try:
        import redeal
    except ImportError as e:
        raise ImportError("Deal.to_redeal() needs redeal on the import path") from e
    spaced = [h.replace(".", " ").split(" ") for h in self.hands]
    predeal = {
        seat: " ".join(holding or "-" for holding in suits)
        for seat, suits in zip(SEATS, spaced)
    }
    return redeal.Deal.prepare(predeal)()


def _deals_html(self, rows: int = 10) -> str:  # type: ignore[no-untyped-def]
    """The first ``rows`` deals as an HTML table (Jupyter shows a ``Deals`` so): board,
    dealer and vulnerability when known, the four hands and their HCP."""
    from html import escape

    head = ["#", "board", "dealer", "vul"] if self.boards is not None else ["#"]
    head += [f"{s} (HCP)" for s in SEATS]
    lines = ["<table>", "<tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    shown = min(rows, len(self))
    hcp = self.hcp
    for i in range(shown):
        deal = self[i]
        cells = [str(i)]
        if self.boards is not None:
            cells += [str(self.boards[i]), self.dealers[i], self.vulnerabilities[i]]
        cells += [f"{h} ({hcp[i, j]})" for j, h in enumerate(deal.hands)]
        lines.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    lines.append("</table>")
    if shown < len(self):
        lines.append(f"<p>{shown} of {len(self)} deals</p>")
    return "\n".join(lines)


def _install_helpers() -> None:
    # Deal and Deals are Rust classes: the helpers that need optional packages are attached
    # from Python.
    setattr(Deals, "to_pandas", _to_pandas)
    setattr(Deals, "to_arrow", _to_arrow)
    setattr(Deals, "_repr_html_", _deals_html)
    setattr(Deal, "from_endplay", staticmethod(_from_endplay))
    setattr(Deal, "to_endplay", _to_endplay)
    setattr(Deal, "from_redeal", staticmethod(_from_redeal))
    setattr(Deal, "to_redeal", _to_redeal)
    setattr(Database, "played", _played)


_install_helpers()
to_pandas = _to_pandas
to_arrow = _to_arrow
