"""The typed result of an equity query.

All statistics are fractions 0..1 of the boards scored (the table renderer shows percent).
Definitions (also in the README):

- ``equity``: the player's expected share of the pot.
- ``win``: the player takes the whole pot alone; ``tie``: takes a part of it but not all.
- ``hi_win`` / ``hi_tie``: has the best high hand alone / shares the best high hand.
- ``lo_win`` / ``lo_tie``: has the best qualifying low alone / shares it (hi/lo games).
- ``scoop``: takes the whole pot (in a hi/lo game: both halves, or high when no low qualifies);
  equal to ``win``, named as hi/lo players say it.
- ``quartered``: receives exactly a quarter of the pot.
- ``has_low``: the player's own low qualifies (hi/lo games).
- ``low_possible`` (per query): some player has a qualifying low.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..games import Game
from .plan import EXACT, MONTE_CARLO  # noqa: F401  (the method names a result carries)


@dataclass(frozen=True)
class PlayerEquity:
    """One player's statistics.

    Attributes
    ----------
    hand : str
        The hole cards, canonical text (``AsAhKsKh``).
    equity : float
        Expected share of the pot, fraction 0..1.
    equity_fraction : Fraction or None
        The exact equity (exact enumeration only).
    standard_error : float
        Standard error of ``equity`` (fraction 0..1); 0.0 for exact enumeration.
    sample_count : int
        Deals scored (boards; with ranges, combinations of hands x boards).
    weight_total : int
        The denominator of the fractions: ``sample_count``, or with weighted ranges enumerated
        exactly, the sum of the deals' weights.
    win_count, tie_count, hi_win_count, hi_tie_count, lo_win_count, lo_tie_count,
    quartered_count, has_low_count : int
        (Weighted) deals on which each outcome happened; the fractions are properties of the
        same name without ``_count``.
    """

    hand: str
    equity: float
    equity_fraction: Fraction | None
    standard_error: float
    sample_count: int
    weight_total: int
    win_count: int
    tie_count: int
    hi_win_count: int
    hi_tie_count: int
    lo_win_count: int
    lo_tie_count: int
    quartered_count: int
    has_low_count: int

    def _fraction(self, count: int) -> float:
        return count / self.weight_total

    @property
    def win(self) -> float:
        return self._fraction(self.win_count)

    @property
    def tie(self) -> float:
        return self._fraction(self.tie_count)

    @property
    def hi_win(self) -> float:
        return self._fraction(self.hi_win_count)

    @property
    def hi_tie(self) -> float:
        return self._fraction(self.hi_tie_count)

    @property
    def lo_win(self) -> float:
        return self._fraction(self.lo_win_count)

    @property
    def lo_tie(self) -> float:
        return self._fraction(self.lo_tie_count)

    @property
    def scoop(self) -> float:
        return self.win

    @property
    def scoop_count(self) -> int:
        return self.win_count

    @property
    def quartered(self) -> float:
        return self._fraction(self.quartered_count)

    @property
    def has_low(self) -> float:
        return self._fraction(self.has_low_count)


@dataclass(frozen=True)
class EquityResult:
    """Everything an equity query produced.

    Attributes
    ----------
    game : Game
    hands : tuple of str
        Each player's hole cards (canonical text) or range expression (as written).
    board, dead : str
        Known board cards (dealing order) and dead cards, canonical text.
    method : str
        ``"exact"`` (every completion enumerated) or ``"monte-carlo"``.
    sample_count : int
        Boards enumerated or sampled.
    seed : int or None
        The Monte Carlo seed (None for exact).
    players : tuple of PlayerEquity
    low_board_count : int
        (Weighted) deals on which some player has a qualifying low (hi/lo games; 0 otherwise).
    weight_total : int
        Denominator of ``low_possible`` (see :class:`PlayerEquity`).
    """

    game: Game
    hands: tuple[str, ...]
    board: str
    dead: str
    method: str
    sample_count: int
    seed: int | None
    players: tuple[PlayerEquity, ...]
    low_board_count: int
    weight_total: int

    @property
    def low_possible(self) -> float | None:
        """Fraction of boards on which some player has a qualifying low; None if not hi/lo."""
        return self.low_board_count / self.weight_total if self.game.hilo else None

    @property
    def equities(self) -> tuple[float, ...]:
        return tuple(player.equity for player in self.players)

    def to_dict(self) -> dict[str, Any]:
        """The whole result as JSON-ready data (the keys are documented in the README)."""
        players = []
        for player in self.players:
            row: dict[str, Any] = {
                "hand": player.hand,
                "equity": player.equity,
                "equity_exact": str(player.equity_fraction) if player.equity_fraction is not None else None,
                "standard_error": player.standard_error,
                "win": player.win,
                "tie": player.tie,
            }
            if self.game.hilo:
                row.update(
                    hi_win=player.hi_win, hi_tie=player.hi_tie, lo_win=player.lo_win, lo_tie=player.lo_tie,
                    scoop=player.scoop, quartered=player.quartered, has_low=player.has_low,
                )
            row["counts"] = {
                name: getattr(player, f"{name}_count")
                for name in ("win", "tie", "hi_win", "hi_tie", "lo_win", "lo_tie", "scoop", "quartered", "has_low")
            }
            players.append(row)
        return {
            "game": self.game.name,
            "game_title": self.game.title,
            "hands": list(self.hands),
            "board": self.board,
            "dead": self.dead,
            "method": self.method,
            "sample_count": self.sample_count,
            "seed": self.seed,
            "low_possible": self.low_possible,
            "low_board_count": self.low_board_count if self.game.hilo else None,
            "players": players,
        }


def standard_error(share_sum: int, square_sum: int, sample_count: int, units: int) -> float:
    """Standard error of a mean share from its sum and sum of squares (both in pot units)."""
    if sample_count < 2:
        return 0.0
    mean = share_sum / units / sample_count
    mean_square = square_sum / (units * units) / sample_count
    variance = max(mean_square - mean * mean, 0.0) * sample_count / (sample_count - 1)
    return math.sqrt(variance / sample_count)
