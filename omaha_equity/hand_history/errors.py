"""The errors of reading and replaying hand histories, located in their file.

Every reader (:mod:`.phh`, :mod:`.pokerstars`, :mod:`.sessions`) and the checked replay
(:mod:`.file_replay`) raise or return these; they sit at the bottom of the package so that
each layer can use them without importing the layers above it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from ..errors import InputError

# What __reduce__ returns: the function that rebuilds the error, and its arguments
_Reduced: TypeAlias = "tuple[Callable[[str, str, str, int | None], HandHistoryError], tuple[str, str, str, int | None]]"


def _restore_error(reason: str, source: str, hand_id: str, line_number: int | None) -> HandHistoryError:
    return HandHistoryError(reason, source=source, hand_id=hand_id, line_number=line_number)


class HandHistoryError(InputError):
    """A hand that cannot be read or replayed, located in its file.

    Attributes
    ----------
    reason : str
        What is wrong and what was expected.
    source : str
        The file.
    hand_id : str
        The hand's id (PokerStars hand number, PHH ``hand`` or the hand's index in a ``.phhs``
        file); ``"?"`` when not known yet.
    line_number : int or None
        1-based line of the file, when known.
    """

    def __init__(self, reason: str, *, source: str = "<text>", hand_id: str = "?",
                 line_number: int | None = None):
        self.reason = reason
        self.source = source
        self.hand_id = hand_id
        self.line_number = line_number
        where = f"{source}" + (f", line {line_number}" if line_number is not None else "")
        super().__init__(f"{where}, hand {hand_id}: {reason}")

    def __reduce__(self) -> _Reduced:
        # keyword arguments do not survive Exception's default pickling (worker processes)
        return _restore_error, (self.reason, self.source, self.hand_id, self.line_number)


class NotOmahaError(HandHistoryError):
    """A well-formed hand of a game we do not analyse (Hold'em in a mixed-game file): skipped
    and counted, not a failure."""

    def __reduce__(self) -> _Reduced:
        return _restore_not_omaha, (self.reason, self.source, self.hand_id, self.line_number)


def _restore_not_omaha(reason: str, source: str, hand_id: str, line_number: int | None) -> NotOmahaError:
    return NotOmahaError(reason, source=source, hand_id=hand_id, line_number=line_number)


class CancelledHandError(HandHistoryError):
    """A hand the site cancelled (PokerStars' ``Hand cancelled`` line): no chips moved. Counted as
    cancelled, not as a failure."""

    def __reduce__(self) -> _Reduced:
        return _restore_cancelled, (self.reason, self.source, self.hand_id, self.line_number)


def _restore_cancelled(reason: str, source: str, hand_id: str, line_number: int | None) -> CancelledHandError:
    return CancelledHandError(reason, source=source, hand_id=hand_id, line_number=line_number)
