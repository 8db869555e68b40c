"""What the settlement and the history text read of a hand: :class:`HandState`; and what the
parts of a hand read and call of each other: :class:`HandCore`.

:func:`~omaha_equity.rules.payout.settle_hand` and :func:`~omaha_equity.rules.history.hand_history`
are written against this protocol, not against :class:`~omaha_equity.rules.Hand`, so that
``hand.py`` imports them and nothing below it imports ``hand.py`` (the engine's
imports run one way). A :class:`~omaha_equity.rules.Hand` is a ``HandState``.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..games import Game
from .actions import Action, ActionKind
from .settings import HandSettings
from .settlement import Settlement
from .streets import Phase, Street
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



class HandCore(HandState):
    """The whole state of a hand, and the helpers its parts call of each other: declarations
    only, for the type checker.

    :class:`~omaha_equity.rules.dealing.DealingMixin` and
    :class:`~omaha_equity.rules.showdown.ShowdownMixin` read and write what
    :class:`~omaha_equity.rules.Hand` sets up; for the type checker they derive from this class
    (at run time from ``object``), so that each part is checked alone against the attributes and
    methods declared here, and ``Hand`` against the same declarations. A plain class, not a
    protocol: the parts assign these attributes, and an assignment in an explicit subclass of a
    protocol would declare the attribute anew.
    """

    shown: list[bool]
    hole_cards: list[tuple[int, ...] | None]
    street: Street
    phase: Phase
    actor: int | None
    run_count: int
    _hole_dealt: list[bool]
    _boards: list[list[int]]
    _aggressors: list[int | None]
    _running_out: bool
    _board_target: int
    _all_in_board_size: int | None
    _showdown_queue: list[int]
    _readings: dict[tuple[int, int], tuple[int, int]]
    _given_hole: list[tuple[int, ...] | None] | None
    _given_boards: list[tuple[int, ...]] | None
    _deck: list[int] | None
    _rng: random.Random | None

    @abstractmethod
    def _record(self, kind: ActionKind, seat: int | None, *, text: str, **fields: Any) -> Action:
        """Append an action of this street to the history and return it."""

    @abstractmethod
    def _advance(self) -> None:
        """Move the hand on (deal, open a round, show down, settle) as far as it goes alone."""

    @abstractmethod
    def _check_seat(self, seat: int) -> None:
        """Raise IllegalActionError unless ``seat`` is a seat of the table."""

    @staticmethod
    @abstractmethod
    def _can(verify: Callable[..., object], *args: Any) -> bool:
        """True when ``verify(*args)`` raises no IllegalActionError."""

    @abstractmethod
    def _check_new_cards(self, label: str, cards: Sequence[int]) -> None:
        """Raise IllegalActionError when one of ``cards`` is already dealt."""
