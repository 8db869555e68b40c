"""What the settlement and the history text read of a hand: :class:`HandState`.

:func:`~omaha_equity.rules.payout.settle_hand` and :func:`~omaha_equity.rules.history.hand_history`
are written against this protocol, not against :class:`~omaha_equity.rules.Hand`, so that
``hand.py`` imports them and nothing below it imports ``hand.py`` (issue 17: the engine's
imports run one way). A :class:`~omaha_equity.rules.Hand` is a ``HandState``.
"""

from __future__ import annotations

from typing import Protocol

from ..games import Game
from .actions import Action
from .settings import HandSettings
from .settlement import Settlement
from .structures import BettingStructure


class HandState(Protocol):
    """A hand's table, chips and cards as the settlement and the history need them.

    Seats are 0-based indexes into the per-seat sequences; chips are whole chips.
    """

    game: Game
    structure: BettingStructure
    settings: HandSettings
    names: tuple[str, ...]
    button: int
    seat_count: int
    starting_stacks: tuple[int, ...]
    stacks: list[int]
    contributed: list[int]
    returned: list[int]
    dead: list[int]
    folded: list[bool]
    mucked: list[bool]
    actions: list[Action]
    settlement: Settlement | None

    @property
    def positions(self) -> tuple[int, ...]:
        """Seats in odd-chip order: the first seat left of the button first."""

    @property
    def board(self) -> tuple[int, ...]:
        """The first run's board cards dealt so far."""

    @property
    def boards(self) -> tuple[tuple[int, ...], ...]:
        """Every run's board."""

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded."""

    @property
    def is_complete(self) -> bool:
        """True once the hand is settled."""

    def hand_values(self, seat: int, run_index: int = 0) -> tuple[int, int]:
        """(high value, low value) of ``seat`` on run ``run_index``'s board."""

