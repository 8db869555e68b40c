"""The one exception type for bad input, so callers (and the CLI) catch a single class, and
the one way an error message quotes what the user wrote (:func:`quoted`)."""

#: Characters of user text an error message shows before it shortens the quote.
QUOTE_LIMIT = 60


class InputError(ValueError):
    """Raised for any input the library cannot accept: an unknown card, a duplicate card,
    a wrong hole-card count, an unknown game, an impossible option value, ...

    The message quotes the offending token and says what was expected, e.g.
    ``duplicate card Ah in player 2 and board``. The CLI turns it into a one-line usage
    error (exit code 2); Python callers may catch it as ``ValueError``.
    """


def quoted(value, position: int | None = None) -> str:
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
