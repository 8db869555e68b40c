"""The table of an exact high-only equity result, written without the general renderer.

``views.equity.equity_report`` builds a dict per player with every CSV column, then checks each
cell before laying the table out (``views.render.simple_table``). For a result whose shape is
fixed (exact enumeration, a high-only game: columns player, hand, equity, win, tie, exact; no
footer) the cells are known to be plain, so :func:`exact_high_table` writes the same text from
the players directly: the shell answers thousands of such queries a second
(``cli.quick_calc``). :func:`spot_high_table` writes it from a spot's counts alone, without the
result's objects (a player's exact fraction is a gcd, not a ``Fraction``).
``tests/test_quick_calc.py`` compares them with ``equity_report`` on random spots.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd

from ..cards import format_cards
from ..equity.counters import EQUITY, STAT_COUNT, TIE, WIN
from ..equity.many_spots import Spot, spot_units
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


def spot_high_table(spot: Spot, counts: Sequence[int]) -> str | None:
    """The table :func:`exact_high_table` writes for the result of a spot of a high-only game,
    from the spot's counts (``equity.many_spots.one_spot_counts``); None for a hi/lo game.

    Parameters
    ----------
    spot : Spot
    counts : sequence of int, player_count * STAT_COUNT + 1 long
        The players' counts in ``counters`` layout one after another (then the low boards, unused).
    """
    game = spot.game
    if game.hilo:
        return None
    board_count = spot.board_count
    denominator = spot_units(spot) * board_count
    rows = []
    for number, cards in enumerate(spot.hands, start=1):
        start = (number - 1) * STAT_COUNT
        share = counts[start + EQUITY]
        divisor = gcd(share, denominator)  # the text of Fraction(share, denominator)
        numerator, lowest = share // divisor, denominator // divisor
        rows.append((str(number), format_cards(cards, sort=True), percent(share / denominator),
                     percent(counts[start + WIN] / board_count), percent(counts[start + TIE] / board_count),
                     str(numerator) if lowest == 1 else f"{numerator}/{lowest}"))
    dead = f" | dead: {format_cards(spot.dead, sort=True)}" if spot.dead else ""
    boards = f"{board_count:,} board" if board_count == 1 else f"{board_count:,} boards"
    title = f"{game.title} | board: {format_cards(spot.board) or '(none)'}{dead} | exact enumeration of {boards}"
    return f"{title}\n{plain_table_text(_HEADERS, rows)}"
