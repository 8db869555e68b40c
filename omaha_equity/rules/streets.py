"""The four betting rounds and the phases of a hand (``docs/rules.md``, "Betting rounds")."""

from __future__ import annotations

from enum import StrEnum

from ..validate import is_whole_number


class Street(StrEnum):
    """A betting round, named by the cards dealt before it."""

    PREFLOP = "pre-flop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"

    @property
    def index(self) -> int:  # type: ignore[override]  # deliberately shadows str.index: a street's place
        """0 pre-flop, 1 flop, 2 turn, 3 river."""
        return _ORDER.index(self)

    @property
    def board_count(self) -> int:
        """Board cards on the table once this street is dealt: 0, 3, 4, 5."""
        return (0, 3, 4, 5)[self.index]

    @classmethod
    def of(cls, value: Street | int | str) -> Street:
        """A street from itself, its index 0..3 or its name."""
        if isinstance(value, Street):
            return value
        if is_whole_number(value) and 0 <= value < 4:
            return _ORDER[value]
        if isinstance(value, str):
            key = value.strip().lower().replace("preflop", "pre-flop")
            for street in _ORDER:
                if street.value == key:
                    return street
        from ..errors import InputError

        raise InputError(f"unknown street {value!r}: expected 0..3 or pre-flop, flop, turn, river")


_ORDER = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)
STREETS = _ORDER


class Phase(StrEnum):
    """What the hand waits for next."""

    DEALING_HOLE_CARDS = "dealing hole cards"
    DEALING_BOARD = "dealing board"
    BETTING = "betting"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"
