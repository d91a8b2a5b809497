"""Type stubs of dealdex (the Rust extension dealdex._dealdex and its Python helpers)."""

from os import PathLike
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union, final, overload

import numpy as np
import numpy.typing as npt

from .errors import (
    BusyError as BusyError,
    CorruptStoreError as CorruptStoreError,
    DealdexError as DealdexError,
    DealdexFileNotFoundError as DealdexFileNotFoundError,
    DealdexIOError as DealdexIOError,
    DealdexIsADirectoryError as DealdexIsADirectoryError,
    DealdexPermissionError as DealdexPermissionError,
    FormatError as FormatError,
    InputError as InputError,
    InputIndexError as InputIndexError,
    InputTypeError as InputTypeError,
)

__version__: str
SOLVER: str
DEALS_TOTAL: int
STRAINS: tuple[str, str, str, str, str]
SEATS: tuple[str, str, str, str]
SUITS: tuple[str, str, str, str]

# The argument types below are the stubs' own names (private: the module has no such names at
# runtime, so `from dealdex import ...` of them would fail).
_SeatLike = Union[str, int]
"""A seat: "N", "E", "S", "W", their names in any case, or 0..3."""

_DealsLike = Union["Deals", "Deal", Iterable["Deal"]]
_StrPath = Union[str, PathLike[str]]

# Deal, Deals and Database are Rust classes (PyO3): they take their arguments in __new__ and
# cannot be subclassed.
@final
class Deal:
    """One deal. ``Deal(text)``: PBN deal string, 26-digit hex index, or hand-record number
    (int or decimal string, in ``scheme``); ``Deal(hands=[n, e, s, w])``. Equal and hashed by index."""

    def __new__(
        cls,
        text: Union[str, int, None] = None,
        *,
        scheme: Optional[str] = None,
        hands: Optional[list[str]] = None,
    ) -> "Deal": ...
    @property
    def hands(self) -> tuple[str, str, str, str]:
        """PBN hands N, E, S, W: "AKQ.T9.8765.432" (spades.hearts.diamonds.clubs)."""
    @property
    def index(self) -> str:
        """26 upper-case hex digits: the 13-byte index (FORMATS.md §2)."""
    @property
    def key(self) -> bytes:
        """The index's 13 bytes."""
    def hcp(self, seat: _SeatLike) -> int:
        """High-card points of ``seat`` (A 4, K 3, Q 2, J 1), 0..37."""
    def shape(self, seat: _SeatLike) -> tuple[int, int, int, int]:
        """Suit lengths (spades, hearts, diamonds, clubs) of ``seat``."""
    def pbn(self, first: str = "N") -> str:
        """The PBN deal string starting with ``first``."""
    def number(self, scheme: str = "pavlicek") -> int:
        """The hand-record number: "pavlicek" or "andrews" 1..D, "bigdeal" 0..D-1."""
    def _repr_html_(self) -> str: ...
    @staticmethod
    def from_endplay(deal: Any) -> "Deal":
        """From an endplay.types.Deal."""
    def to_endplay(self) -> Any:
        """As an endplay.types.Deal (needs endplay)."""
    @staticmethod
    def from_redeal(deal: Any) -> "Deal":
        """From a redeal Deal."""
    def to_redeal(self) -> Any:
        """As a redeal Deal (needs redeal importable)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Deals:
    """A batch of deals (13 bytes a deal), with board numbers for a set or a file."""

    def __new__(cls, deals: Optional[Iterable[Deal]] = None) -> "Deals": ...
    @staticmethod
    def from_keys(keys: Union[npt.ArrayLike, bytes]) -> "Deals":
        """A batch from uint8[n, 13] indices."""
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, key: int, /) -> Deal: ...
    @overload
    def __getitem__(self, key: Union[slice, Sequence[int], npt.NDArray[Any]], /) -> "Deals":
        """A slice, a boolean mask (``ds[ds.hcp[:, 0] >= 15]``), or ints as a list or an
        integer array (``ds[[0, 5, 7]]``): a ``Deals`` with their boards and DD tables."""
    def __iter__(self) -> Iterator[Deal]: ...
    def __add__(self, other: "Deals", /) -> "Deals":
        """The two batches one after the other, as ``concat([self, other])``."""
    def __radd__(self, other: "Deals", /) -> "Deals": ...
    @property
    def keys(self) -> npt.NDArray[np.uint8]:
        """uint8[n, 13]: the indices."""
    @property
    def hcp(self) -> npt.NDArray[np.int8]:
        """int8[n, 4]: HCP by seat N, E, S, W."""
    @property
    def lengths(self) -> npt.NDArray[np.int8]:
        """int8[n, 4, 4]: suit lengths [deal, seat N E S W, suit S H D C]."""
    @property
    def boards(self) -> Optional[npt.NDArray[np.uint64]]:
        """uint64[n]: board numbers, or None."""
    @property
    def dealers(self) -> Optional[list[str]]: ...
    @property
    def vulnerabilities(self) -> Optional[list[str]]: ...
    @property
    def seed(self) -> Optional[str]:
        """The seed (64 hex digits) the batch was generated from, else None."""
    @property
    def tricks(self) -> Optional[npt.NDArray[np.int8]]:
        """int8[n, 4, 5]: the DD tables a file gave, as ``solve``'s (-1 for a board
        without one), or None when no board has one."""
    def indices(self) -> list[str]: ...
    def pbn(self) -> list[str]: ...
    def numbers(self, scheme: str = "pavlicek") -> list[int]: ...
    def to_pandas(self) -> Any:
        """A pandas DataFrame (needs pandas)."""
    def to_arrow(self) -> Any:
        """A pyarrow Table (needs pyarrow)."""
    def _repr_html_(self, rows: int = 10) -> str:
        """The first ``rows`` deals as an HTML table (how Jupyter shows a batch)."""

def generate(
    count: int,
    *,
    seed: Optional[str] = None,
    where: Optional[str] = None,
    predeal: Optional[str] = None,
    threads: Optional[int] = None,
    max_draws: Optional[int] = None,
) -> Deals:
    """``count`` deals of the seeded stream, as ``dealdex generate --count`` gives them.

    With ``where``, with or without ``predeal``: at most ``max_draws`` deals are drawn (10**9
    by default, as ``--max-draws``; 0 for no bound), then ``InputError`` names the bound."""

def generate_boards(
    boards: range,
    *,
    seed: Optional[str] = None,
    predeal: Optional[str] = None,
    threads: Optional[int] = None,
) -> Deals:
    """A tournament set: boards ``range(first, last + 1)`` with dealers and vulnerabilities."""

def select_solver(name: str) -> str: ...
def solve(
    deals: _DealsLike,
    *,
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int, int], Any], None] = None,
) -> npt.NDArray[np.int8]:
    """int8[n, 4, 5]: DD tricks [deal, declarer N E S W, strain NT S H D C], on `threads` solver threads."""

class _Analysis(dict[str, Any]):
    """A result over a sample of deals: a dict of numpy arrays over its items."""

    @property
    def labels(self) -> list[str]:
        """The items the per-item arrays are over (cards or contracts), in order."""
    @property
    def sample(self) -> Deals:
        """The deals of the sample, in order."""
    @property
    def deal_tricks(self) -> npt.NDArray[np.int8]:
        """int8[deals, items]: the tricks on each deal of ``sample`` for each item."""
    def to_pandas(self, per_deal: bool = False) -> Any:
        """A DataFrame: a row an item (means, standard errors, percentages), or with
        ``per_deal`` a row a deal (its hex index) and a column an item. Needs pandas."""
    def _repr_html_(self) -> str: ...

class LeadResult(_Analysis):
    """``lead()``'s result: ``cards``; float64[13] ``mean_tricks``, ``tricks_se``,
    ``defeat_percent``, ``mean_score``, ``score_se``; int64[13, 14] ``tricks``; float64[13, 13]
    ``a_better_percent``, ``imps``, ``imps_se``, ``matchpoints``; ``sample``, int8[deals, 13]
    ``deal_tricks`` (the defence's); ``deals``, ``drawn``, ``seed``, ``leader``, ``contract``,
    ``solved``, ``looked_up``, ``stored``."""

class ContractsResult(_Analysis):
    """``contracts()``'s result: ``contracts``; float64[k] ``make_percent``, ``mean_score``,
    ``score_se``; int64[k, 14] ``tricks``; float64[k, k] ``imps``, ``imps_se``,
    ``matchpoints``; ``sample``, int8[deals, k] ``deal_tricks`` (declarer's); ``deals``,
    ``solved``, ``seed``, ``drawn``."""

def lead(
    hand: Optional[str],
    contract: str,
    declarer: _SeatLike,
    *,
    vul: str = "None",
    deals: Union[int, _DealsLike, None] = None,
    path: Optional[_StrPath] = None,
    db: Optional[_StrPath] = None,
    set: Optional[str] = None,
    where: Optional[str] = None,
    count: Optional[int] = None,
    seed: Optional[str] = None,
    max_draws: Optional[int] = None,
    store: Optional[str] = None,
    threads: Optional[int] = None,
) -> LeadResult:
    """Every opening lead solved double dummy over a sample: ``count`` deals (``deals=N``
    too) dealt around ``hand`` (with ``seed``, ``where``, ``max_draws``), or with
    ``hand=None`` a sample as ``contracts`` takes one (``deals=`` a batch, ``path=``, or
    ``db=`` with ``set=``/``where=``). With ``store`` and ``db`` the sample is stored as that
    set with its per-card tricks (``lead --store``); with ``db`` stored leads are read, not
    solved."""

def contracts(
    contracts: list[str],
    *,
    vul: Optional[str] = None,
    deals: Optional[_DealsLike] = None,
    path: Optional[_StrPath] = None,
    db: Optional[_StrPath] = None,
    set: Optional[str] = None,
    where: Optional[str] = None,
    count: Optional[int] = None,
    seed: Optional[str] = None,
    predeal: Optional[str] = None,
    max_draws: Optional[int] = None,
    threads: Optional[int] = None,
) -> ContractsResult:
    """Contracts (``"3NT:S"``) compared double dummy over a sample: ``deals=`` (a batch),
    ``path=`` (a deal file), ``count=`` deals dealt now (``seed``, ``predeal``, ``where``,
    ``max_draws``), or the deals stored in ``db`` (``set``, ``where``)."""

def par(
    deals: _DealsLike,
    *,
    dealer: Optional[_SeatLike] = None,
    vul: Optional[str] = None,
    tricks: Optional[npt.ArrayLike] = None,
    threads: Optional[int] = None,
) -> list[dict[str, Any]]:
    """Par a deal: {"score": NS score, "contracts": ["4SN", ...]}."""

def read(path: _StrPath, format: Optional[str] = None, *, first_board: Optional[int] = None) -> Deals:
    """The deals of a file in any format dealdex reads (auctions, play and DD tables kept for write)."""

def write(deals: _DealsLike, path: _StrPath, format: Optional[str] = None, *, event: Optional[str] = None) -> None:
    """Writes deals to a file in any format dealdex writes."""

def concat(batches: Iterable[Deals]) -> Deals:
    """The batches one after the other, with their board numbers and DD tables."""

def formats() -> dict[str, list[str]]:
    """Format names -> file extensions."""

# Deals.to_pandas and Deals.to_arrow as functions (the same Python functions, hence `self`).
def to_pandas(self: Deals) -> Any: ...
def to_arrow(self: Deals) -> Any: ...

@final
class Database:
    """A dealdex database (SQLite); reads are read-only, as the CLI's."""

    def __new__(cls, path: _StrPath) -> "Database": ...
    @property
    def path(self) -> str: ...
    def query(self, expr: str, *, set: Optional[str] = None, limit: Optional[int] = None) -> Deals:
        """Stored deals matching a query-language expression."""
    def count(self, expr: str, *, set: Optional[str] = None) -> int: ...
    def sql(self, sql: str, *, columns: bool = False) -> Any:
        """Rows of a read-only SQL statement (tuples), or (column names, rows)."""
    def sets(self) -> list[dict[str, Any]]: ...
    def import_files(
        self,
        paths: list[_StrPath],
        *,
        format: Optional[str] = None,
        set: Optional[str] = None,
        first_board: Optional[int] = None,
    ) -> dict[str, Any]: ...
    def export(self, set: str, path: _StrPath, *, format: Optional[str] = None) -> dict[str, Any]: ...
    def played(self, *, set: Optional[str] = None, judge: bool = False) -> "PlayedBoards":
        """Played boards (a set's or all) with each card's double-dummy value and cost."""
    def solve(
        self, *, set: Optional[str] = None, threads: Optional[int] = None
    ) -> tuple[npt.NDArray[np.int8], dict[str, Any]]:
        """DD tables of a set (or every unsolved deal), stored; int8[n, 4, 5] and the report."""

class PlayedBoards(list[dict[str, Any]]):
    """``Database.played()``'s boards: dicts, one a table's record and its judgement."""

    _BOARD: tuple[str, ...]
    def columns(self) -> dict[str, list[Any]]:
        """A row a board: the record, the auction, the lead and the judgement's totals."""
    def card_columns(self) -> dict[str, list[Any]]:
        """A row a card: ``id``, ``position``, ``trick``, ``card``, ``seat``, ``dd``, ``cost``."""
    def to_pandas(self, per_card: bool = False) -> Any:
        """``columns()`` (or ``card_columns()``) as a DataFrame. Needs pandas."""

class DealerReport(dict[str, Any]):
    """dealer()'s report: a dict, with the text the CLI prints as ``text`` and ``str()``."""

    @property
    def text(self) -> str: ...

def dealer(
    script: str,
    *,
    produce: Optional[int] = None,
    generate: Optional[int] = None,
    seed: Optional[int] = None,
) -> DealerReport:
    """Runs a dealer script; frequency counts as numpy arrays, produced deals as Deals."""
