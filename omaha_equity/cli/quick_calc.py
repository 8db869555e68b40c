"""The shell's quick way for the plainest ``calc`` line: written hands on a flop, turn or river.

A script fed to ``omaha-equity shell`` is often thousands of lines such as
``calc AsAhKsKh JdTd9c8c -b Qd7h2s5c``. Through the command group each pays for click's
contexts, the option defaults, the run options and the general table renderer, several times
what the query itself costs (one fused kernel call, ``equity.many_spots.spot_equity``).
:func:`quick_calc` answers such a line directly: the words are ``calc``, then hands and at
most one ``-b``/``--board`` and one ``-d``/``--dead`` each with its value and ``-q``, every other option
at its default, and the query is a spot (``equity.many_spots.query_spot``: every card
written, nothing doubtful). For any other line it returns None and the line goes through the
command group as usual, so what is printed, every error and every exit code stay the command's
(``tests/test_fast_parse.py`` runs 1,000 lines both ways).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

CALC = "calc"
# The options a quick line may hold (each once, with its value), by the keyword they set.
_VALUE_OPTIONS = {"-b": "board", "--board": "board", "-d": "dead", "--dead": "dead"}
# Flags a quick line may hold (once each): no progress for a spot's few boards either way.
_FLAGS = {"-q": "quiet", "--quiet": "quiet"}
# Words that stand between hands ("AsAhKsKh vs JdTd9c8c"): left to the command's callback.
_SEPARATORS = frozenset({"vs", "vs.", "v", "v.", "versus"})


def quick_calc(words: list[str]) -> str | None:
    """The text ``calc`` prints for ``words`` (a line's words, the command name first) when the
    line is a plain query of a spot with every option but the board and dead cards at its
    default; None for any other line.

    The board and dead cards are read as the command reads them (``-`` is no cards), the game
    is Omaha, the table is tabulate's simple style (``views.spot_table.spot_high_table``, the
    text ``views.equity.equity_report`` writes)."""
    if not words or words[0] != CALC:
        return None
    hands: list[str] = []
    values = {"board": "", "dead": ""}
    given: set[str] = set()
    index, count = 1, len(words)
    while index < count:
        word = words[index]
        if word[:1] == "-" and len(word) > 1:
            flag = _FLAGS.get(word)
            if flag is not None and flag not in given:
                given.add(flag)
                index += 1
                continue
            keyword = _VALUE_OPTIONS.get(word)
            if keyword is None or keyword in given or index + 1 == count:
                return None
            value = words[index + 1]
            if value[:1] == "-" and len(value) > 1:
                return None
            given.add(keyword)
            values[keyword] = value
            index += 2
            continue
        if word.strip().lower() in _SEPARATORS:
            return None
        hands.append(word)
        index += 1
    query_spot, one_spot_counts, spot_high_table = _spot_functions()
    spot = query_spot(hands, values["board"], values["dead"], "omaha")
    if spot is None:
        return None
    text = spot_high_table(spot, one_spot_counts(spot))
    if text is not None:
        return text
    from ..equity.many_spots import spot_equity
    from ..views.equity import equity_report

    return equity_report(spot_equity(spot))


@functools.cache
def _spot_functions() -> tuple[Callable, Callable, Callable]:
    """``query_spot``, ``one_spot_counts`` and ``spot_high_table``, imported on the first quick
    line (numpy and numba load then, not when the shell starts) and kept: a relative import run
    again costs several microseconds, a tenth of a river line."""
    from ..equity.many_spots import one_spot_counts, query_spot
    from ..views.spot_table import spot_high_table

    return query_spot, one_spot_counts, spot_high_table
