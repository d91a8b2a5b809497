"""dealdex's exceptions: every error of the Rust library arrives as one of these.

Each carries ``kind`` (the library's error class: ``"bad-input"``, ``"corrupt-store"``,
``"busy"``, ``"io"``, ``"internal"``) and, when the error is about a place in the input,
``path``, ``line``, ``column`` (1-based), ``byte`` (0-based offset) and ``record`` (1-based);
unknown parts are ``None``.
"""

import sys
from typing import Optional

__all__ = [
    "DealdexError",
    "InputError",
    "FormatError",
    "CorruptStoreError",
    "BusyError",
    "DealdexIOError",
]


class DealdexError(Exception):
    """Any error of dealdex's library; ``str(e)`` is its message (with the place it names)."""

    def __init__(
        self,
        message: str,
        *,
        kind: str = "internal",
        path: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        byte: Optional[int] = None,
        record: Optional[int] = None,
        format_kind: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.path = path
        self.line = line
        self.column = column
        self.byte = byte
        self.record = record
        self.format_kind = format_kind


class InputError(DealdexError, ValueError):
    """The caller's input is wrong: an argument, a query, a deal string, a file's content."""


class FormatError(InputError):
    """A file that its format's reader refuses, or boards the format cannot hold.

    ``format_kind`` says which: ``"malformed"``, ``"truncated"``, ``"not-a-deal"`` or
    ``"unwritable"``; ``path``, ``line``, ``column`` (text formats) or ``record``, ``byte``
    (binary formats) say where.
    """


class CorruptStoreError(DealdexError):
    """A database file holds something dealdex never writes, or a schema it does not read."""


class BusyError(DealdexError):
    """Another process held the database's write lock too long; the same call may succeed later."""


class DealdexIOError(DealdexError, OSError):
    """Reading or writing a file failed (missing file, permissions, disk full).

    An OSError, as Python's own ``open()`` raises; ``kind`` is ``"bad-input"`` for an input
    file that cannot be read (the CLI exits 2 for it) and ``"io"`` otherwise.
    """


def _print_progress(done: int, total: int) -> None:
    """``progress=True``'s report: one line on stderr a step."""
    print(f"solved {done}/{total}", file=sys.stderr, flush=True)
