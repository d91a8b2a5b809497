"""dealdex's exceptions: every error dealdex raises is one of these.

Each carries ``kind`` (the library's error class: ``"bad-input"``, ``"corrupt-store"``,
``"busy"``, ``"io"``, ``"internal"``) and, when the error is about a place in the input,
``path``, ``line``, ``column`` (1-based), ``byte`` (0-based offset) and ``record`` (1-based);
unknown parts are ``None``.

They also derive from the built-in exception a Python library would raise, so ``except
ValueError`` (or ``TypeError``, ``IndexError``, ``OSError``, ``FileNotFoundError``) catches
them too.
"""

import errno as _errno
import os
import sys
from typing import Any, Optional

__all__ = [
    "DealdexError",
    "InputError",
    "InputTypeError",
    "InputIndexError",
    "FormatError",
    "CorruptStoreError",
    "BusyError",
    "DealdexIOError",
    "DealdexFileNotFoundError",
    "DealdexPermissionError",
    "DealdexIsADirectoryError",
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

    def __str__(self) -> str:
        # OSError's own __str__ would print "[Errno 2] …" instead of dealdex's message.
        return self.message


class InputError(DealdexError, ValueError):
    """The caller's input is wrong: an argument, a query, a deal string, a file's content."""


class InputTypeError(InputError, TypeError):
    """An argument of a type dealdex does not take (a float for a deal number, a tuple for a
    ``range``); a ``TypeError`` too."""


class InputIndexError(InputError, IndexError):
    """An index outside a ``Deals`` batch; an ``IndexError`` too."""


class FormatError(InputError):
    """A file that its format's reader refuses, or boards the format cannot hold.

    ``format_kind`` says which: ``"malformed"``, ``"truncated"``, ``"not-a-deal"`` or
    ``"unwritable"``; ``path``, ``line``, ``column`` (text formats) or ``record``, ``byte``
    (binary formats) say where.
    """


class CorruptStoreError(DealdexError):
    """A database file holds something dealdex never writes, a schema it does not read, or is
    not an SQLite database at all."""


class BusyError(DealdexError):
    """Another process held the database's write lock too long; the same call may succeed later."""


class DealdexIOError(DealdexError, OSError):
    """Reading or writing a file failed (missing file, permissions, disk full).

    An OSError, as Python's own ``open()`` raises, with ``errno``, ``strerror`` (the operating
    system's code and text, when known) and ``filename`` (the file, when known); ``kind`` is
    ``"bad-input"`` for an input file that cannot be read (the CLI exits 2 for it) and
    ``"io"`` otherwise. A missing file is a ``DealdexFileNotFoundError``, hence a
    ``FileNotFoundError``.
    """

    def __init__(
        self,
        message: str,
        *,
        errno: Optional[int] = None,
        filename: Optional[str] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(message, **kwargs)
        self.errno = errno
        self.strerror = os.strerror(errno) if errno is not None else None
        self.filename = filename if filename is not None else self.path


class DealdexFileNotFoundError(DealdexIOError, FileNotFoundError):
    """A file (or a database) that does not exist; a ``FileNotFoundError`` too."""


class DealdexPermissionError(DealdexIOError, PermissionError):
    """A file the operating system does not let dealdex read or write; a ``PermissionError``."""


class DealdexIsADirectoryError(DealdexIOError, IsADirectoryError):
    """A directory given where a file is wanted; an ``IsADirectoryError`` too."""


# The I/O error's kind (Rust's std::io::ErrorKind, kebab-case) -> its errno when the OS gave
# none (dealdex's own "no such database" check).
_KIND_ERRNO = {
    "not-found": _errno.ENOENT,
    "permission-denied": _errno.EACCES,
    "is-a-directory": _errno.EISDIR,
}

_OS_SUBCLASSES = {
    FileNotFoundError: DealdexFileNotFoundError,
    PermissionError: DealdexPermissionError,
    IsADirectoryError: DealdexIsADirectoryError,
}


def _make(name: str, message: str, io_kind: Optional[str] = None, **kwargs: Any) -> DealdexError:
    """The exception the Rust extension raises: class ``name``; for an I/O error, the subclass
    Python's ``OSError(errno, …)`` would pick (``FileNotFoundError`` for ``ENOENT``)."""
    cls = globals()[name]
    if issubclass(cls, DealdexIOError):
        code = kwargs.get("errno")
        if code is None and io_kind is not None:
            code = _KIND_ERRNO.get(io_kind)
            kwargs["errno"] = code
        if code is not None:
            cls = _OS_SUBCLASSES.get(type(OSError(code, "")), cls)
    error: DealdexError = cls(message, **kwargs)
    return error


def _print_progress(done: int, total: int) -> None:
    """``progress=True``'s report: one line on stderr a step."""
    print(f"solved {done}/{total}", file=sys.stderr, flush=True)
