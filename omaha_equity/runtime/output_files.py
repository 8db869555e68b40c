"""Output files written whole or not at all (``convert -o``, ``ev --summary``, ``batch -o``,
``--plot``), under one rule for every output (docs/errors.md):

- A regular file, or nothing yet, is written as a temporary file in the same folder as the
  name given and renamed over that name only when complete, so nothing half-written looks
  complete. A symbolic link at that name is replaced by the file: the file it points at is
  never opened for writing.
- What is not a regular file (a device such as ``/dev/full``, a named pipe, a terminal) is
  written in place, never renamed over.
- A symbolic link owned by someone else in a folder everyone may write with the sticky bit
  (``/tmp``) is refused, as the kernel's ``protected_symlinks`` refuses to follow it.
- An output that is one of the command's input files (the same device and inode, through
  links too) is refused before anything is written (:func:`check_not_an_input`).
- Temporary files are named ``.NAME.PID.RANDOM.tmp``: those a killed run left (its process is
  gone) are removed by the next run that writes ``NAME`` (:func:`remove_leftovers`).

Every write failure is the one-line :class:`~omaha_equity.errors.OutputError`.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TextIO

from ..errors import InputError, OutputError, quoted, writing
from .output_faults import GuardedStream

TEMPORARY_SUFFIX = ".tmp"


def same_file(first: str | Path | int, second: str | Path | int) -> bool:
    """Whether two names (or open file descriptors) are one file: the same device and inode,
    through symbolic and hard links (False when either does not exist or cannot be looked at)."""
    try:
        one, other = _status(first), _status(second)
    except (OSError, ValueError):
        return False
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def _status(path: str | Path | int) -> os.stat_result:
    return os.fstat(path) if isinstance(path, int) else os.stat(path)


def _is_a_regular_file(path: str | Path | int) -> bool:
    try:
        return stat.S_ISREG(_status(path).st_mode)
    except (OSError, ValueError):
        return False


def check_not_an_input(output: str | Path, inputs: Iterable[str | Path], *, option: str) -> None:
    """Refuse an output that is one of the input files, before anything is written (writing
    it would replace the input with the output).

    Parameters
    ----------
    output : str or Path
        The output's name (``-`` for standard output: then the file standard output is
        redirected to, if it is a regular file, is compared).
    inputs : iterable of str or Path
        The files the command reads (``-`` for standard input: the file it is redirected from).
    option : str
        How the user named the output (``-o``, ``--summary``), for the message.

    Raises
    ------
    InputError
        ``output`` and an input are the same file.
    """
    output_target = _standard_stream_file(1) if str(output) == "-" else output
    if output_target is None or not _is_a_regular_file(output_target):
        return
    for source in inputs:
        source_target = _standard_stream_file(0) if str(source) == "-" else source
        if source_target is not None and same_file(output_target, source_target):
            where = "standard output" if str(output) == "-" else f"{option} {quoted(str(output))}"
            what = "standard input" if str(source) == "-" else quoted(str(source))
            raise InputError(f"{where} is the input file {what}: writing it would destroy the input; nothing "
                             "was written (name another output file)")


def _standard_stream_file(descriptor: int) -> int | None:
    """A standard stream's descriptor, for :func:`same_file` (None when it is closed)."""
    try:
        os.fstat(descriptor)
    except OSError:
        return None
    return descriptor


def check_link_target(path: str | Path, name: str | None = None) -> None:
    """Refuse a symbolic link at ``path`` owned by someone else (neither this user nor the
    folder's owner) in a folder that everyone may write and that has the sticky bit (``/tmp``):
    whoever planted it could point it anywhere (the kernel's ``protected_symlinks`` rule).

    Raises
    ------
    OutputError
        ``cannot write 'PATH': a symbolic link of another user in a shared folder``.
    """
    target = Path(path)
    try:
        link = os.lstat(target)
        if not stat.S_ISLNK(link.st_mode):
            return
        folder = os.stat(target.parent if str(target.parent) else ".")
    except (OSError, ValueError):
        return
    shared = folder.st_mode & stat.S_ISVTX and folder.st_mode & stat.S_IWOTH
    if shared and link.st_uid not in (os.geteuid(), folder.st_uid):
        raise OutputError(name or repr(str(path)), OSError(
            errno.EPERM, "a symbolic link of another user in a shared folder (sticky, writable by everyone): "
                         "refused, as the system refuses to follow it"))


def _leftover_pattern(name: str, suffix: str) -> re.Pattern:
    return re.compile(rf"\.{re.escape(name)}\.(\d+)\.[A-Za-z0-9_]+{re.escape(TEMPORARY_SUFFIX + suffix)}\Z")


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process (or a number no process has): not ours to judge
    return True


def remove_leftovers(path: str | Path, suffix: str = "") -> None:
    """Remove the temporary files a killed run left beside ``path`` (``.NAME.PID.RANDOM.tmp``,
    with ``suffix`` after it): only this user's, and only those whose process is gone."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    pattern = _leftover_pattern(target.name, suffix)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        match = pattern.match(entry.name)
        if match is None or int(match.group(1)) == os.getpid() or _process_alive(int(match.group(1))):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_uid == os.geteuid():
                os.unlink(entry.path)
        except OSError:
            pass


def temporary_beside(path: str | Path, suffix: str = "") -> tuple[int, str]:
    """A new private temporary file in the folder of ``path`` (``.NAME.PID.RANDOM.tmp`` and
    ``suffix``): its descriptor and name. Leftovers of killed runs are removed first."""
    target = Path(path)
    remove_leftovers(target, suffix)
    return tempfile.mkstemp(dir=target.parent if str(target.parent) else ".",
                            prefix=f".{target.name}.{os.getpid()}.", suffix=TEMPORARY_SUFFIX + suffix)


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
    """Whether ``path`` is a regular file, or nothing yet (a dangling symbolic link included):
    what a finished file may be renamed over (a device such as ``/dev/full``, a pipe or a
    terminal is written in place, never replaced)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True


@contextmanager
def output_file(path: str | Path, *, binary: bool = False, name: str | None = None) -> Iterator[IO]:
    """A text stream (UTF-8, ``\\n`` line ends) for the output file ``path``, written whole or
    not at all: a temporary file in the same folder, renamed over ``path`` when the block ends
    without an exception, removed otherwise. What is not a regular file (``/dev/null``, a named
    pipe, a terminal) cannot be renamed over: it is written in place.

    Only the writing is guarded: an ``OSError`` raised by the block's other work (reading an
    input file) goes through unchanged. With ``binary``, the stream takes bytes (a plot);
    ``name`` is the output's name in messages (default: ``repr(str(path))``).

    Raises
    ------
    OutputError
        ``path`` could not be written: ``no space left writing 'FILE'`` (a full disk, a quota,
        a file size limit) or ``cannot write 'FILE': REASON``.
    ClosedPipeError
        ``path`` is a pipe whose reader has gone.
    """
    target = Path(path)
    name = name or repr(str(path))
    temporary = None
    check_link_target(target, name)
    text_options = {} if binary else {"encoding": "utf-8", "newline": "\n"}
    mode = "wb" if binary else "w"
    with writing(name):
        if is_regular_or_missing(target):
            handle, temporary = temporary_beside(target)
            raw = os.fdopen(handle, mode, **text_options)
        else:
            raw = open(target, mode, **text_options)
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
