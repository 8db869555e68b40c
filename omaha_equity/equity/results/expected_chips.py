"""The typed result of an all-in query: expected chips per pot and player.

Chips are integers in the smallest chip unit; expected chips are means over the deals
(floats, and exact fractions when every deal was enumerated). Players are numbered in the
order given, which is the seat order starting left of the button (it decides odd chips).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .header import QueryHeader, result_header
from ...pots import Pot


@dataclass(frozen=True)
class AllinPlayer:
    """One player's expected chips.

    Attributes
    ----------
    hand : str
        The hole cards (canonical text) or the range expression as written.
    committed : int
        Chips the player put in (all in).
    pot_chips : tuple of float
        Expected chips won from each pot (main pot first), one entry per pot of
        :attr:`AllinResult.pots` (0.0 for pots the player is not eligible for).
    pot_chips_exact : tuple of Fraction or None
        The same as exact fractions (exact enumeration only).
    pot_standard_errors : tuple of float or None
        Standard error of each ``pot_chips`` entry, in chips; zeros for exact enumeration;
        None when undefined (Monte Carlo with fewer than 2 samples).
    expected : float
        Expected chips won in all: the sum of ``pot_chips``.
    expected_exact : Fraction or None
        The same, exact (exact enumeration only).
    standard_error : float or None
        Standard error of ``expected`` in chips (of the per-deal total, not a sum of the per-pot
        errors); 0.0 for exact enumeration; None when undefined (fewer than 2 samples).
    random_card_count : int
        Hole cards dealt at random in every deal: 0 for a fixed hand or a range, some for a
        partial hand (marked ``+N`` in ``hand``), all for ``*`` (as ``PlayerEquity``).
    """

    hand: str
    committed: int
    pot_chips: tuple[float, ...]
    pot_chips_exact: tuple[Fraction, ...] | None
    pot_standard_errors: tuple[float | None, ...]
    expected: float
    expected_exact: Fraction | None
    standard_error: float | None
    random_card_count: int = 0

    @property
    def net(self) -> float:
        """Net expected value in chips: expected chips won minus chips committed."""
        return self.expected - self.committed

    @property
    def net_exact(self) -> Fraction | None:
        """``net`` as an exact fraction (exact enumeration only)."""
        return None if self.expected_exact is None else self.expected_exact - self.committed


@dataclass(frozen=True)
class AllinResult(QueryHeader):
    """Everything an all-in query produced.

    Attributes
    ----------
    game : Game
    hands : tuple of str
        Each player's hole cards (canonical text) or range expression, in seat order from the
        first seat left of the button.
    board, dead : str
        Known board cards (dealing order) and dead cards, canonical text.
    method : str
        ``"exact"`` or ``"monte-carlo"``.
    sample_count : int
        Deals enumerated or sampled (boards when every hand is known; with ranges,
        combinations of hands x boards).
    hand_combinations : int or None
        Combinations of hands enumerated: 1 when every hand is known, None for Monte Carlo over
        ranges (as ``EquityResult.hand_combinations``).
    board_count : int
        Boards completing each combination of hands.
    seed : int or None
        The Monte Carlo seed (None for exact).
    pots : tuple of Pot
        The main pot and the side pots (``pots.side_pots``), dead money included; ``eligible``
        holds player indexes from 0.
    folded : tuple of int
        Chips of players who folded (dead money in the pots they reach).
    dead_money : int
        Extra chips added to the main pot.
    players : tuple of AllinPlayer
    """

    hand_combinations: int | None
    board_count: int
    seed: int | None
    pots: tuple[Pot, ...]
    folded: tuple[int, ...]
    dead_money: int
    players: tuple[AllinPlayer, ...]

    @property
    def total_chips(self) -> int:
        """Chips in all the pots."""
        return sum(pot.amount for pot in self.pots)

    @property
    def expected(self) -> tuple[float, ...]:
        """Each player's expected chips won."""
        return tuple(player.expected for player in self.players)

    @property
    def net(self) -> tuple[float, ...]:
        """Each player's net expected value in chips."""
        return tuple(player.net for player in self.players)

    def to_dict(self) -> dict[str, Any]:
        """The whole result as JSON-ready data (players numbered from 1; keys in the README)."""

        def exact(value):
            return None if value is None else str(value)

        players = []
        for player in self.players:
            pots = []
            for index, chips in enumerate(player.pot_chips):
                pots.append({
                    "pot": pot_name(index),
                    "expected": chips,
                    "expected_exact": exact(player.pot_chips_exact[index] if player.pot_chips_exact else None),
                    "standard_error": player.pot_standard_errors[index],
                })
            players.append({
                "hand": player.hand,
                "committed": player.committed,
                "pots": pots,
                "expected": player.expected,
                "expected_exact": exact(player.expected_exact),
                "standard_error": player.standard_error,
                "net": player.net,
                "net_exact": exact(player.net_exact),
                "random_cards": player.random_card_count,
            })
        return {
            **result_header(self, self.hand_combinations, self.board_count, self.seed),
            "folded": list(self.folded),
            "dead_money": self.dead_money,
            "pots": [{"pot": pot_name(index), "amount": pot.amount, "eligible": [player + 1 for player in pot.eligible]}
                     for index, pot in enumerate(self.pots)],
            "players": players,
        }


def pot_name(index: int) -> str:
    """``main`` for the first pot, ``side 1``, ``side 2``, ... for the others."""
    return "main" if index == 0 else f"side {index}"
