"""The table of an exact high-only equity result, written without the general renderer.

``views.equity.equity_report`` builds a dict per player with every CSV column, then checks each
cell before laying the table out (``views.render.simple_table``). For a result whose shape is
fixed (exact enumeration, a high-only game: columns player, hand, equity, win, tie, exact; no
footer) the cells are known to be plain, so :func:`exact_high_table` writes the same text from
the players directly: the shell answers thousands of such queries a second
(``cli.quick_calc``). ``tests/test_quick_calc.py`` compares the two on random spots.
"""

from __future__ import annotations

from ..equity.plan import Method
from ..equity.results.equity import EquityResult
from .equity import equity_title
from .render import percent, plain_table_text

_HEADERS = ("player", "hand", "equity", "win", "tie", "exact")


def exact_high_table(result: EquityResult) -> str | None:
    """``equity_report(result, "table", "simple")`` for an exact result of a high-only game
    whose every hand is written in full; None for any other result."""
    if result.method != Method.EXACT or result.game.hilo:
        return None
    rows = []
    for number, player in enumerate(result.players, start=1):
        if player.random_card_count or player.equity_fraction is None:
            return None
        rows.append((str(number), player.hand, percent(player.equity), percent(player.win), percent(player.tie),
                     str(player.equity_fraction)))
    return f"{equity_title(result)}\n{plain_table_text(_HEADERS, rows)}"
