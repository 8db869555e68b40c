"""A calculation's result as rows of plain values, one per player: the columns of ``calc -f csv``
and of ``batch`` (README "Output formats"). The views render these rows and the batch writes
them, so they live here, below both.
"""

from __future__ import annotations

from typing import Any

from ...cards import NO_CARDS
from .equity import EquityResult

#: The hi/lo statistics of a player's row, in the CSV's order after ``win`` and ``tie`` (README
#: "Statistics").
HILO_COLUMNS = ("equity_high", "equity_low", "split", "hi_win", "hi_tie", "lo_win", "lo_tie", "scoop", "quartered",
                "has_low")


def equity_rows(result: EquityResult) -> list[dict[str, Any]]:
    """One row per player, fractions 0..1 (the CSV columns, README "Output formats"): an empty
    board or dead list is ``NO_CARDS``; a value that does not apply (hi/lo columns, the seed
    of an exact run, an undefined standard error) is None (an empty CSV cell)."""
    rows = []
    for number, player in enumerate(result.players, start=1):
        row: dict[str, Any] = {
            "player": number,
            "hand": player.hand,
            "equity": player.equity,
            "equity_exact": str(player.equity_fraction) if player.equity_fraction is not None else "",
            "standard_error": player.standard_error,
            "win": player.win,
            "tie": player.tie,
        }
        if result.game.hilo:
            row.update({name: getattr(player, name) for name in HILO_COLUMNS})
        row.update(game=result.game.name, board=result.board or NO_CARDS, dead=result.dead or NO_CARDS,
                   method=result.method, sample_count=result.sample_count, seed=result.seed,
                   low_possible=result.low_possible, no_low=result.no_low)
        rows.append(row)
    return rows
