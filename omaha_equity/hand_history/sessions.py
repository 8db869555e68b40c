"""Reading a session: hand-history files or folders of them, in any format we read.

PokerStars text files (``.txt``) and PHH files (``.phh``, ``.phhs``) are recognised by their
suffix (a file of another suffix by its first line); a folder reads every such file in it, in
name order, recursively. A bad hand is reported as a :class:`HandHistoryError` naming the file,
the hand and the line, and the other hands go on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError

HAND_HISTORY_SUFFIXES = (".txt", ".phh", ".phhs")


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


@dataclass(frozen=True)
class SessionHand:
    """One hand read from a file, before replay.

    ``history`` is its PHH :class:`~omaha_equity.hand_history.phh.HandHistory` (a PokerStars
    hand converted); ``format`` is ``pokerstars`` or ``phh``; ``action_lines`` the file line of
    each action when known (PokerStars).
    """

    source: str
    hand_id: str
    line_number: int | None
    format: str
    history: Any
    action_lines: tuple[int | None, ...] | None = None


def hand_history_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files to read: each file as given, each folder's hand-history files in name order.

    Raises
    ------
    InputError
        A path that does not exist, or a folder with no hand-history file.
    """
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(file for file in path.rglob("*")
                           if file.is_file() and file.suffix.lower() in HAND_HISTORY_SUFFIXES)
            if not found:
                raise InputError(f"no hand-history file in folder {str(path)!r}: expected "
                                 f"files ending {', '.join(HAND_HISTORY_SUFFIXES)}")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise InputError(f"no such file or folder: {str(path)!r}")
    return files


def read_session(paths: Iterable[str | Path]) -> Iterator[SessionHand | HandHistoryError]:
    """Every hand of the files and folders, in order, or the error each bad hand raised."""
    for path in hand_history_files(paths):
        yield from read_hand_history_file(path)


def read_hand_history_file(path: str | Path) -> list[SessionHand | HandHistoryError]:
    """Every hand of one file: PHH for ``.phh``/``.phhs``, PokerStars text otherwise."""
    from .pokerstars import looks_like_pokerstars, read_pokerstars

    path = Path(path)
    if path.suffix.lower() in (".phh", ".phhs"):
        return _read_phh(path)
    try:
        head = path.read_bytes()[:4096].decode("utf-8-sig", errors="replace")
    except OSError as error:
        return [HandHistoryError(f"cannot read the file: {error.strerror}", source=str(path))]
    if not looks_like_pokerstars(head):
        return [HandHistoryError("not a hand history we read: expected a PokerStars text file "
                                 "('PokerStars Hand #...') or a .phh/.phhs file", source=str(path),
                                 line_number=1)]
    from .pokerstars_phh import to_hand_history

    results: list[SessionHand | HandHistoryError] = []
    for hand in read_pokerstars(path):
        if isinstance(hand, HandHistoryError):
            results.append(hand)
            continue
        try:
            history, lines = to_hand_history(hand)
        except InputError as error:
            results.append(HandHistoryError(str(error), source=str(path), hand_id=hand.hand_id,
                                            line_number=hand.line_number))
            continue
        results.append(SessionHand(str(path), hand.hand_id, hand.line_number, "pokerstars", history,
                                   tuple(lines)))
    return results


def _read_phh(path: Path) -> list[SessionHand | HandHistoryError]:
    """Hands of a PHH file (one in ``.phh``, many in ``.phhs``); a hand that breaks the
    specification is reported and the others go on. A hand's id is its ``hand`` field, else
    its table name in a ``.phhs`` file, else its number in the file."""
    from .phh import PhhError, load_each

    try:
        hands = load_each(path)
    except PhhError as error:
        return [HandHistoryError(str(error), source=str(path))]
    results: list[SessionHand | HandHistoryError] = []
    for number, (label, history) in enumerate(hands, start=1):
        if isinstance(history, PhhError):
            results.append(HandHistoryError(str(history), source=str(path), hand_id=label or str(number)))
            continue
        hand_id = str(history.hand) if history.hand is not None else (label or str(number))
        results.append(SessionHand(str(path), hand_id, None, "phh", history))
    return results
