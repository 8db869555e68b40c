"""Output files written whole or not at all (``convert -o``, ``ev --summary``, ``batch -o``).

A regular file is written as a temporary file in the same folder and renamed over its name only
when complete, so nothing half-written looks complete; what is not a regular file (a device such
as ``/dev/full``, a named pipe) is written in place, never renamed over. Every write failure is
the one-line :class:`~omaha_equity.errors.OutputError` (issue 15).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from ..errors import writing
from .output_faults import GuardedStream


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (:func:`output_file`).

    Raises
    ------
    OutputError
        ``path`` could not be written (``no space left writing 'FILE'`` on a full disk).
    """
    with output_file(path) as stream:
        stream.write(text)


def is_regular_or_missing(path: str | Path) -> bool:
    """Whether ``path`` is a regular file, or nothing yet: what a finished file may be renamed over
    (a device such as ``/dev/full``, a pipe or a terminal is written in place, never replaced)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True


@contextmanager
def output_file(path: str | Path) -> Iterator[TextIO]:
    """A text stream (UTF-8, ``\\n`` line ends) for the output file ``path``, written whole or
    not at all: a temporary file in the same folder, renamed over ``path`` when the block ends
    without an exception, removed otherwise. What is not a regular file (``/dev/null``, a named
    pipe, a terminal) cannot be renamed over: it is written in place.

    Only the writing is guarded: an ``OSError`` raised by the block's other work (reading an
    input file) goes through unchanged.

    Raises
    ------
    OutputError
        ``path`` could not be written: ``no space left writing 'FILE'`` (a full disk, a quota,
        a file size limit) or ``cannot write 'FILE': REASON``.
    ClosedPipeError
        ``path`` is a pipe whose reader has gone.
    """
    target = Path(path)
    name = repr(str(path))
    temporary = None
    with writing(name):
        if is_regular_or_missing(target):
            handle, temporary = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".",
                                                 prefix=f".{target.name}.", suffix=".tmp")
            raw = os.fdopen(handle, "w", encoding="utf-8", newline="\n")
        else:
            raw = open(target, "w", encoding="utf-8", newline="\n")
    try:
        yield GuardedStream(raw, name)
        with writing(name):
            raw.flush()  # a full disk shows here, before the rename, not after
            if temporary is not None:
                os.fsync(raw.fileno())
            raw.close()
            if temporary is not None:
                publish(temporary, target)
    except BaseException:
        _close_quietly(raw)
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        raise


def _close_quietly(stream: TextIO) -> None:
    """Close ``stream`` after a failure: what is still buffered cannot be written either, and
    the first error is the one to report."""
    try:
        stream.close()
    except OSError:
        pass


def publish(temporary: str, target: Path) -> None:
    """Rename the finished temporary file to ``target``, with the permissions a new file gets
    (a temporary file is private to its owner)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)
    os.replace(temporary, target)
