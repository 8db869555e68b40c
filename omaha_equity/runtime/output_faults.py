"""Standard output and error that cannot be written: the program ends with one line, not a traceback.

Every command writes its results through ``sys.stdout`` (``click.echo``, the batch writer), so
the program's entry point (``cli.errors.OneLineErrors``) wraps the two standard streams in
:class:`GuardedStream` for the run: a write or flush that fails raises
:class:`~omaha_equity.errors.OutputError` naming ``stdout`` (or ``stderr``), which the entry point
reports as ``no space left writing stdout`` (a full disk) or ``cannot write stdout: REASON``,
exit code 1; a reader that went away (``omaha-equity ... | head``) raises
:class:`~omaha_equity.errors.ClosedPipeError`, and the program ends quietly with exit code 141
(128 + SIGPIPE, what a shell reports for any program a closed pipe stopped). Both are ordinary
exceptions, not ``OSError``: code that catches ``OSError`` for its own files does not swallow them.

After such a fault, :func:`discard_pending_output` points the stream's file descriptor at the null
device, so the output still buffered cannot fail again when the interpreter flushes it on exit
(which would print "Exception ignored ..." after our one line).
"""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import writing

# What the message calls each stream.
STREAM_NAMES = {"stdout": "stdout", "stderr": "stderr"}


class GuardedStream:
    """A text stream whose ``write``, ``writelines`` and ``flush`` raise ``OutputError`` or
    ``ClosedPipeError`` naming ``name`` instead of ``OSError``; everything else (``isatty``,
    ``encoding``, ``buffer``, ``fileno``...) is the wrapped stream's."""

    def __init__(self, stream, name: str):
        self.wrapped = stream
        self.name = name

    def write(self, text):
        with writing(self.name):
            return self.wrapped.write(text)

    def writelines(self, lines):
        with writing(self.name):
            return self.wrapped.writelines(lines)

    def flush(self):
        with writing(self.name):
            return self.wrapped.flush()

    def __getattr__(self, attribute):
        return getattr(self.wrapped, attribute)


@contextmanager
def guarded_standard_streams() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` wrapped in :class:`GuardedStream` inside the block
    (a missing stream, such as ``sys.stdout`` None after ``>&-``, stays None)."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None:
        sys.stdout = GuardedStream(sys.stdout, STREAM_NAMES["stdout"])
    if sys.stderr is not None:
        sys.stderr = GuardedStream(sys.stderr, STREAM_NAMES["stderr"])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def discard_pending_output(name: str) -> None:
    """Send what is still buffered for the standard stream ``name`` (and anything written to
    it later) to the null device. Streams without a file descriptor (a test runner's) are left
    alone: they cannot fail again."""
    stream = getattr(sys, name, None)
    stream = getattr(stream, "wrapped", stream)
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)


class _ClosedOutput(io.RawIOBase):
    """The raw file under a standard output the program was started without (``>&-``): the
    first write fails with ``EBADF`` (one line, exit code 1: output was lost), later ones (the
    interpreter's own flush at exit) are dropped, so the failure is reported once."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name
        self.failed = False

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        if not self.failed:
            self.failed = True
            raise OSError(errno.EBADF, f"{self.name} is closed")
        return len(data)


def reserve_standard_descriptors() -> None:
    """Make the program work when started with a standard stream closed (``<&-``, ``>&-``,
    ``2>&-``).

    The descriptors 0, 1 and 2 are pointed at the null device, so that no file the program
    opens takes their number (a later write "to stderr" would land in it). Then standard error
    reads and writes as the null device (messages are dropped, the command works); standard
    output fails at its first write (:class:`_ClosedOutput`: lost output is an error);
    standard input stays None (``batch -`` says it is closed).
    """
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != descriptor:  # the lowest free number is this one, unless it was taken meanwhile
                os.dup2(null, descriptor)
                os.close(null)
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedOutput("standard output")), encoding="utf-8")
