"""The typed result of an equity query.

All statistics are fractions 0..1 of the boards scored (the table renderer shows percent).
Definitions (also in the README, "Statistics"):

- ``equity``: the player's expected share of the pot; in hi/lo games ``equity_high`` (won from
  the high half, or from the whole pot when no low qualifies) plus ``equity_low`` (won from
  the low half).
- ``win``: takes the whole pot alone. ``tie``: takes a part of the pot but not all of it,
  sharing a half (or a high-only pot) with an equal hand. ``split`` (hi/lo): takes a part of
  the pot without tying anyone: wins one half alone while others win the other half. A player
  wins, ties, splits or gets nothing: the four add up to 1.
- ``hi_win`` / ``hi_tie``: has the best high hand alone / shares the best high hand.
- ``lo_win`` / ``lo_tie``: has the best qualifying low alone / shares it (hi/lo games).
- ``scoop``: takes the whole pot (both halves, or the high when no low qualifies): the same
  boards as ``win``, named as hi/lo players say it.
- ``quartered``: receives exactly a quarter of the pot.
- ``has_low``: the player's own low qualifies (hi/lo games).
- ``low_possible`` / ``no_low`` (per query): some player / no player has a qualifying low.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .header import QueryHeader, result_header
from .. import counters

# Statistics given as a board count and a fraction, in the order of the JSON ``counts``.
COUNTED_STATISTICS = ("win", "tie", "split", "hi_win", "hi_tie", "lo_win", "lo_tie", "scoop", "quartered",
                      "has_low")

_NO_SHARE = Fraction(0)
# Where each counter sits in a row of the kernels' counts: equity, low equity, win, tie, split,
# high win, high tie, low win, low tie, quartered, has low.
_COUNTER_INDEXES = (counters.EQUITY, counters.EQUITY_LOW, counters.WIN, counters.TIE, counters.SPLIT,
                    counters.HI_WIN, counters.HI_TIE, counters.LO_WIN, counters.LO_TIE, counters.QUARTERED,
                    counters.HAS_LOW)


@dataclass(frozen=True)
class PlayerEquity:
    """One player's statistics.

    Attributes
    ----------
    hand : str
        The hole cards, canonical text (``AsAhKsKh``); a partial hand completed at random is
        marked with the number of cards dealt (``AsKdQd2s+1``), a range is as written.
    equity : float
        Expected share of the pot, fraction 0..1.
    equity_fraction : Fraction or None
        The exact equity (exact enumeration only).
    equity_high, equity_low : float
        The parts of ``equity`` won from the high half (the whole pot when no low qualifies)
        and from the low half (0 in high-only games): ``equity_high + equity_low == equity``
        (exactly so for the fractions).
    equity_high_fraction, equity_low_fraction : Fraction or None
        The exact parts (exact enumeration only).
    standard_error : float or None
        Standard error of ``equity`` (fraction 0..1); 0.0 for exact enumeration; None when
        undefined (Monte Carlo with fewer than 2 samples).
    sample_count : int
        Deals scored (boards; with ranges, combinations of hands x boards).
    weight_total : int
        The denominator of the fractions: ``sample_count``, or with weighted ranges enumerated
        exactly, the sum of the deals' weights.
    win_count, tie_count, split_count, hi_win_count, hi_tie_count, lo_win_count, lo_tie_count,
    quartered_count, has_low_count : int
        (Weighted) deals on which each outcome happened; the fractions are properties of the
        same name without ``_count``.
    random_card_count : int
        Hole cards dealt at random: the missing cards of a partial hand (``AsKdQd2s+1``: 1),
        every card of ``*``; 0 for a hand written in full or a range.
    """

    hand: str
    equity: float
    equity_fraction: Fraction | None
    equity_high: float
    equity_low: float
    equity_high_fraction: Fraction | None
    equity_low_fraction: Fraction | None
    standard_error: float | None
    sample_count: int
    weight_total: int
    win_count: int
    tie_count: int
    split_count: int
    hi_win_count: int
    hi_tie_count: int
    lo_win_count: int
    lo_tie_count: int
    quartered_count: int
    has_low_count: int
    random_card_count: int = 0

    @classmethod
    def from_counts(cls, hand: str, counts_row, units: int, sample_count: int, weight_total: int,
                    square_sum: int | None = None, random_card_count: int = 0,
                    error: float | None = None) -> PlayerEquity:
        """One player's statistics from the kernels' counters.

        Parameters
        ----------
        counts_row : (STAT_COUNT,) int64
            The player's counters in ``equity.counters`` order (shares in pot units).
        units : int
            Pot units (``pots.pot_units``).
        square_sum : int, optional
            Sum of squared shares (pot units squared): Monte Carlo. None (and no ``error``):
            exact enumeration.
        error : float, optional
            The standard error of equity (fraction 0..1) when the caller worked it out itself
            (weighted deals of ranges: ``equity.lists.sampling``); the counts are then estimates.
        """
        (equity_index, low_index, win_index, tie_index, split_index, hi_win_index, hi_tie_index, lo_win_index,
         lo_tie_index, quartered_index, has_low_index) = _COUNTER_INDEXES
        row = counts_row if isinstance(counts_row, list) else [int(value) for value in counts_row]
        share_sum, low_sum = row[equity_index], row[low_index]
        exact = square_sum is None and error is None
        denominator = units * weight_total
        equity_fraction = high_fraction = low_fraction = None
        if exact:
            equity_fraction = Fraction(share_sum, denominator)
            # high-only games (no low share): the high part is the whole equity, the low part 0
            high_fraction = Fraction(share_sum - low_sum, denominator) if low_sum else equity_fraction
            low_fraction = Fraction(low_sum, denominator) if low_sum else _NO_SHARE
        return cls(
            hand=hand,
            equity=share_sum / denominator,
            equity_fraction=equity_fraction,
            equity_high=(share_sum - low_sum) / denominator,
            equity_low=low_sum / denominator,
            equity_high_fraction=high_fraction,
            equity_low_fraction=low_fraction,
            standard_error=0.0 if exact else error if error is not None
            else standard_error(share_sum, int(square_sum), sample_count, units),
            sample_count=sample_count,
            weight_total=weight_total,
            win_count=row[win_index],
            tie_count=row[tie_index],
            split_count=row[split_index],
            hi_win_count=row[hi_win_index],
            hi_tie_count=row[hi_tie_index],
            lo_win_count=row[lo_win_index],
            lo_tie_count=row[lo_tie_index],
            quartered_count=row[quartered_index],
            has_low_count=row[has_low_index],
            random_card_count=random_card_count,
        )

    def _fraction(self, count: int) -> float:
        return count / self.weight_total

    @property
    def win(self) -> float:
        return self._fraction(self.win_count)

    @property
    def tie(self) -> float:
        return self._fraction(self.tie_count)

    @property
    def split(self) -> float:
        return self._fraction(self.split_count)

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
class EquityResult(QueryHeader):
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
        Deals enumerated or sampled: boards when every hand is known; with ranges, partial or
        random hands, combinations of hands x boards.
    seed : int or None
        The Monte Carlo seed (None for exact).
    players : tuple of PlayerEquity
    low_board_count : int
        (Weighted) deals on which some player has a qualifying low (hi/lo games; 0 otherwise).
    weight_total : int
        Denominator of ``low_possible`` (see :class:`PlayerEquity`).
    hand_combinations : int or None
        Exact enumeration: the compatible combinations of the players' hands enumerated (1 when
        every hand is known), so ``sample_count == hand_combinations * board_count``. None
        when not stated (Monte Carlo over ranges draws the hands of each deal).
    board_count : int or None
        The completions of the board for one combination of hands (e.g. 44 rivers on a turn);
        None when not stated.
    """

    seed: int | None
    players: tuple[PlayerEquity, ...]
    low_board_count: int
    weight_total: int
    hand_combinations: int | None = None
    board_count: int | None = None

    @property
    def low_possible(self) -> float | None:
        """Fraction of boards on which some player has a qualifying low; None if not hi/lo."""
        return self.low_board_count / self.weight_total if self.game.hilo else None

    @property
    def no_low(self) -> float | None:
        """Fraction of boards on which no player has a qualifying low (the high hand or hands
        take the whole pot), ``1 - low_possible`` counted exactly; None if not hi/lo."""
        return (self.weight_total - self.low_board_count) / self.weight_total if self.game.hilo else None

    @property
    def standard_errors_defined(self) -> bool:
        """False when some player's standard error is undefined (Monte Carlo with fewer than 2
        samples): then no precision target counts as reached."""
        return all(player.standard_error is not None for player in self.players)

    @property
    def equities(self) -> tuple[float, ...]:
        return tuple(player.equity for player in self.players)

    def to_dict(self) -> dict[str, Any]:
        """The whole result as JSON-ready data (the keys are documented in the README)."""
        players = []
        for player in self.players:
            row: dict[str, Any] = {
                "hand": player.hand,
                "random_cards": player.random_card_count,
                "equity": player.equity,
                "equity_exact": _fraction_text(player.equity_fraction),
                "standard_error": player.standard_error,
                "win": player.win,
                "tie": player.tie,
            }
            if self.game.hilo:
                row.update(
                    equity_high=player.equity_high, equity_low=player.equity_low,
                    equity_high_exact=_fraction_text(player.equity_high_fraction),
                    equity_low_exact=_fraction_text(player.equity_low_fraction),
                    split=player.split, hi_win=player.hi_win, hi_tie=player.hi_tie, lo_win=player.lo_win,
                    lo_tie=player.lo_tie, scoop=player.scoop, quartered=player.quartered, has_low=player.has_low,
                )
            row["counts"] = {name: getattr(player, f"{name}_count") for name in COUNTED_STATISTICS}
            players.append(row)
        return {
            **result_header(self, self.hand_combinations, self.board_count, self.seed),
            "low_possible": self.low_possible,
            "no_low": self.no_low,
            "low_board_count": self.low_board_count if self.game.hilo else None,
            "players": players,
        }


def _fraction_text(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def standard_error(share_sum: int, square_sum: int, sample_count: int, units: int) -> float | None:
    """Standard error of a mean share from its sum and sum of squares (both in pot units);
    None (undefined) from fewer than 2 samples: one sample says nothing about its spread."""
    if sample_count < 2:
        return None
    mean = share_sum / units / sample_count
    mean_square = square_sum / (units * units) / sample_count
    variance = max(mean_square - mean * mean, 0.0) * sample_count / (sample_count - 1)
    return math.sqrt(variance / sample_count)
