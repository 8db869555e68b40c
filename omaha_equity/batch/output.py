"""Where a batch's rows go, so that no run destroys or fakes an output.

- Standard output, or ``-o`` naming something that is not a regular file (a pipe, a terminal,
  ``/dev/null``): written in place.
- ``-o FILE``: the rows go to ``FILE.part`` in the same folder, renamed to ``FILE`` when every
  query has been written. A run that is stopped (Ctrl-C, a lost cluster, a full disk,
  ``kill -9``) leaves ``FILE`` as it was and its finished rows in ``FILE.part``: an output
  under its own name is always complete.
- ``--resume -o FILE`` goes on in ``FILE.part`` if there is one (the stopped run), else in
  ``FILE`` (renamed to ``FILE.part`` while the run appends to it). The file is only read until
  every check has passed (:meth:`BatchOutput.check_resume`); then the last query is cut off
  (it runs again: its rows may have been cut short) and the rest appended.

Nothing is opened for writing before :meth:`BatchOutput.open`, which the command calls once the
input, the earlier output and the cluster have been checked. ``FILE`` follows the rule of every
output (``runtime.output_files``): a symbolic link at ``FILE`` is replaced by the finished file,
never written through, and one of another user in a shared sticky folder is refused; a symbolic
link at ``FILE.part`` is removed, never followed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

from ..errors import InputError, OutputError
from ..runtime.output_files import check_link_target, is_regular_or_missing, publish
from .files import ResumePoint, scan_output
from .ids import QueryIds

PART_SUFFIX = ".part"


class BatchOutput:
    """The output of one batch run (see the module docstring).

    Parameters
    ----------
    path : str
        ``-o``: a file name, or ``-`` for standard output.
    output_format : str
        ``csv`` or ``jsonl``.
    """

    def __init__(self, path: str, output_format: str):
        self.path = path
        self.output_format = output_format
        self.in_place = path == "-" or not is_regular_or_missing(path)
        self.name = "standard output" if path == "-" else repr(path)
        # the name given is renamed over: a symbolic link there is replaced, its target untouched
        self._final = path
        self._part = self._final + PART_SUFFIX
        self.part_name = repr(path + PART_SUFFIX)
        self._resume_from: str | None = None
        self._resume_point = ResumePoint(0, 0)
        self._stream: IO[str] | None = None

    def check_resume(self, ids: QueryIds) -> int:
        """Read the earlier output for ``--resume`` (``FILE.part``, else ``FILE``), counting its
        queries in ``ids``; changes nothing. Returns the number of queries kept.

        Raises
        ------
        InputError
            Standard output or not a regular file, or not a batch output (see
            :func:`files.scan_output`).
        """
        if self.in_place:
            raise InputError("--resume needs the output file of the earlier run: -o FILE (a regular file)")
        for candidate, name in ((self._part, self.path + PART_SUFFIX), (self._final, self.path)):
            if os.path.exists(candidate):
                self._resume_from = candidate
                self._resume_point = scan_output(candidate, self.output_format, ids, name)
                return self._resume_point.query_count
        return 0

    def open(self) -> tuple[IO[str], bool]:
        """Open for writing; returns the stream and whether a CSV header is still to be written.

        Raises
        ------
        InputError
            The file or its folder cannot be written.
        """
        if self.path == "-":
            self._stream = sys.stdout
            return self._stream, True
        check_link_target(self.path)
        try:
            if self.in_place:
                self._stream = open(self.path, "w", newline="", encoding="utf-8")
                return self._stream, True
            if self._resume_from is None:
                self._stream = self._open_part(os.O_TRUNC)
                return self._stream, True
            if self._resume_from == self._final:
                os.replace(self._final, self._part)
            self._stream = self._open_part(os.O_APPEND)
            self._stream.buffer.raw.truncate(self._resume_point.cut)
        except OSError as error:
            raise OutputError(self.name, error) from None
        return self._stream, self._resume_point.cut == 0

    def _open_part(self, how: int) -> IO[str]:
        return open_part(self._part, how)

    def finish(self) -> None:
        """Every query is written: close, and give the file its name.

        Raises
        ------
        OSError
            Closing (flushing) or renaming failed (a full disk).
        """
        if self._stream is None or self._stream is sys.stdout:
            return
        stream, self._stream = self._stream, None
        if not self.in_place:
            stream.flush()
            os.fsync(stream.fileno())  # on disk before it takes the name that says "complete"
        stream.close()
        if not self.in_place:
            publish(self._part, Path(self._final))

    def abandon(self) -> None:
        """The run stopped: close what is open, keeping the rows written so far where they are."""
        stream, self._stream = self._stream, None
        if stream is None or stream is sys.stdout:
            return
        try:
            stream.close()
        except OSError:  # what could not be flushed is lost; the rows before it are whole
            pass


def open_part(part: str, how: int) -> IO[str]:
    """``part`` (a ``FILE.part``) opened for writing as UTF-8 text (``how``: ``os.O_TRUNC`` or
    ``os.O_APPEND``), never through a symbolic link: one there is removed first (``flops -o``
    keeps its finished flops in one too).

    Raises
    ------
    OSError
        The file or its folder cannot be written.
    """
    if os.path.islink(part):
        os.unlink(part)
    descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | how | getattr(os, "O_NOFOLLOW", 0), 0o666)
    return open(descriptor, "a" if how == os.O_APPEND else "w", newline="", encoding="utf-8")
