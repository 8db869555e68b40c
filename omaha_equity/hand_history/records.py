"""A hand read from a file, before replay, and a hand read twice: the records the readers hand on.

:class:`SessionHand` carries a PHH :class:`~omaha_equity.hand_history.phh.HandHistory` (a
PokerStars hand converted by :mod:`.pokerstars_phh`) with where it was found, so the replay
can name the file, the hand and the line of anything wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DuplicateHand:
    """A hand read a second time (same site and hand number; for a PHH hand without a ``hand``
    number, the same record): it counts once. ``source``/``line_number`` locate this copy,
    ``first_source``/``first_line`` the copy that counts."""

    source: str
    hand_id: str
    line_number: int | None
    first_source: str
    first_line: int | None

    def __str__(self) -> str:
        here = self.source + (f", line {self.line_number}" if self.line_number is not None else "")
        first = self.first_source + (f", line {self.first_line}" if self.first_line is not None else "")
        return f"{here}, hand {self.hand_id}: the same hand as {first}, counted once"


@dataclass(frozen=True)
class SessionHand:
    """One hand read from a file, before replay.

    ``history`` is its PHH :class:`~omaha_equity.hand_history.phh.HandHistory` (a PokerStars
    hand converted); ``format`` is ``pokerstars`` or ``phh``; ``action_lines`` the file line of
    each action when known (PokerStars); ``record_lines`` the line of each player's record
    (the "collected" line, else the summary's seat line), players as in ``history``;
    ``last_line`` the hand's last line.
    """

    source: str
    hand_id: str
    line_number: int | None
    format: str
    history: Any
    action_lines: tuple[int | None, ...] | None = None
    record_lines: tuple[int | None, ...] | None = None
    last_line: int | None = None
