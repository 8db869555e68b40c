"""The one exception type for bad input, so callers (and the CLI) catch a single class, the
one way an error message quotes what the user wrote (:func:`quoted`), and the exception for an
output that cannot be written (:class:`OutputError`)."""

from __future__ import annotations

import errno
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

#: Characters of user text an error message shows before it shortens the quote.
QUOTE_LIMIT = 60


class InputError(ValueError):
    """Raised for any input the library cannot accept: an unknown card, a duplicate card,
    a wrong hole-card count, an unknown game, an impossible option value, ...

    The message quotes the offending token and says what was expected, e.g.
    ``duplicate card Ah in player 2 and board``. The CLI turns it into a one-line usage
    error (exit code 2); Python callers may catch it as ``ValueError``.

    However it was written, the message is kept short (:func:`bounded`): a 400-digit number or
    a whole file pasted in is echoed in part, never whole.
    """

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            args = (bounded(args[0]),)
        super().__init__(*args)


def quoted(value: object, position: int | None = None) -> str:
    """``repr(value)`` for an error message, shortened when long so a 100 KB argument does not
    come back whole: at most :data:`QUOTE_LIMIT` characters of it, ``…`` where text was left
    out, and the full length.

    Parameters
    ----------
    value : str or any
        What the user wrote (anything else is quoted through its ``repr``).
    position : int, optional
        0-based position the message points at: the shown window starts a little before it,
        so the offending character stays in view.

    Examples
    --------
    >>> quoted("AA")
    "'AA'"
    >>> quoted("A" * 100)
    "'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'… (100 characters)"
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= QUOTE_LIMIT:
        return repr(value)
    start = 0
    if position is not None and position > QUOTE_LIMIT - 10:
        start = min(position - 20, len(text) - QUOTE_LIMIT)
    shown = repr(text[start:start + QUOTE_LIMIT]) if isinstance(value, str) else text[start:start + QUOTE_LIMIT]
    before = "…" if start > 0 else ""
    after = "…" if start + QUOTE_LIMIT < len(text) else ""
    return f"{before}{shown}{after} ({len(text):,} characters)"


def caused_by_interrupt(error: BaseException | None) -> bool:
    """Whether ``error`` is, or wraps anywhere in its chain of causes and contexts, a
    KeyboardInterrupt. Ctrl-C landing in numba's calls back into Python comes out as a
    SystemError chained, several levels deep, to the interrupt; callers turn it back into an
    interrupt (exit 130 at the command line) instead of reporting an error."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


class InterruptReported(KeyboardInterrupt):
    """Ctrl-C after the command has already said, in its one line, what the interrupt left
    (the batch's summary: how many queries are done, where the finished rows are). The CLI
    exits with code 130 and adds no line of its own; any other caller sees a KeyboardInterrupt."""


# A write that failed for want of room: a full disk, a quota, a file size limit.
_NO_SPACE_ERRNOS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG") if hasattr(errno, name))


def out_of_space(error: OSError) -> bool:
    """Whether ``error`` says there is no room left to write (disk full, quota, file too large)."""
    return error.errno in _NO_SPACE_ERRNOS


class OutputError(Exception):
    """An output (standard output, or a file the user named) could not be written: ``target``
    names it (``stdout`` or the file) and ``error`` is the ``OSError``. The message is
    ``no space left writing FILE`` for a full disk, ``cannot write FILE: REASON`` otherwise.
    The CLI reports it in one line with exit code 1.

    Deliberately not an ``OSError``: code that catches ``OSError`` for its own files (a cache,
    a temporary file) must not swallow it.
    """

    def __init__(self, target: str, error: OSError):
        self.target = target
        self.error = error
        reason = "no space left writing" if out_of_space(error) else "cannot write"
        detail = "" if out_of_space(error) else f": {error.strerror or error}"
        super().__init__(bounded(f"{reason} {target}{detail}"))


class ClosedPipeError(Exception):
    """Standard output (or error) is a pipe whose reader has gone (``omaha-equity ... | head``):
    not an error of the program, which ends quietly."""


@contextmanager
def writing(target: str) -> Iterator[None]:
    """Turn an ``OSError`` raised in the ``with`` block into :class:`OutputError` naming
    ``target`` (a closed pipe into :class:`ClosedPipeError`)."""
    try:
        yield
    except BrokenPipeError as error:
        raise ClosedPipeError(target) from error
    except OSError as error:
        raise OutputError(target, error) from error


#: Longest run of characters without a space an error message keeps whole (see :func:`bounded`).
WORD_LIMIT = 200
#: Longest error message kept whole (see :func:`bounded`).
MESSAGE_LIMIT = 500


def bounded(message: str) -> str:
    """``message`` kept short whatever it echoes: every run of more than :data:`WORD_LIMIT`
    characters without a space is cut in its middle (``…`` and the run's length), and a message
    still longer than :data:`MESSAGE_LIMIT` keeps its start and its end. The last guard behind
    :func:`quoted`, applied to every :class:`InputError` and every error the CLI prints.

    Examples
    --------
    >>> bounded("bad stack " + "9" * 400)
    'bad stack 999999999999999999999999999999999999999999999999999999999999…99999999999999999999 (400 characters)'
    """
    words = message.split(" ")
    for index, word in enumerate(words):
        if len(word) > WORD_LIMIT:
            words[index] = f"{word[:60]}…{word[-20:]} ({len(word):,} characters)"
    message = " ".join(words)
    if len(message) > MESSAGE_LIMIT:
        message = f"{message[:MESSAGE_LIMIT - 100]} … {message[-80:]}"
    return message


def bounded_message(message: str, typed: Iterable[object] = ()) -> str:
    """``message`` echoing at most a bounded piece of what was typed: each of the ``typed``
    texts longer than :data:`WORD_LIMIT` (a file name of ordinary length stays whole) that the
    message repeats whole (as click's own messages do: ``No such command 'xxx...'``,
    ``'xxx...' is not one of ...``) becomes its :func:`quoted` form; then :func:`bounded`."""
    for text in sorted({str(item) for item in typed}, key=len, reverse=True):
        if len(text) > WORD_LIMIT:
            message = message.replace(repr(text), quoted(text)).replace(text, quoted(text))
    return bounded(message)
