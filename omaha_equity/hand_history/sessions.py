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

    def __reduce__(self):
        # keyword arguments do not survive Exception's default pickling (worker processes)
        return _restore_error, (self.reason, self.source, self.hand_id, self.line_number)


class NotOmahaError(HandHistoryError):
    """A well-formed hand of a game we do not analyse (Hold'em in a mixed-game file): skipped
    and counted, not a failure."""

    def __reduce__(self):
        return _restore_not_omaha, (self.reason, self.source, self.hand_id, self.line_number)


def _restore_not_omaha(reason: str, source: str, hand_id: str, line_number: int | None) -> NotOmahaError:
    return NotOmahaError(reason, source=source, hand_id=hand_id, line_number=line_number)


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
    for task in read_tasks(paths):
        yield from read_task(task)


def read_hand_history_file(path: str | Path) -> list[SessionHand | HandHistoryError]:
    """Every hand of one file: PHH for ``.phh``/``.phhs``, PokerStars text otherwise."""
    return [hand for task in _file_tasks(Path(path)) for hand in read_task(task)]


@dataclass(frozen=True)
class ReadTask:
    """A piece of reading work, small enough to hand to another process: ``kind`` is
    ``pokerstars`` (``payload``: hands split from the text, ``(first line, lines)``), ``phh``
    (``payload``: the file's path) or ``error`` (``payload``: the HandHistoryError)."""

    source: str
    kind: str
    payload: Any


def read_tasks(paths: Iterable[str | Path], hands_per_task: int = 200) -> list[ReadTask]:
    """The files and folders cut into tasks of at most ``hands_per_task`` PokerStars hands (a
    PHH file is one task), in reading order.

    Raises
    ------
    InputError
        A path that does not exist, a folder with no hand-history file.
    """
    return [task for path in hand_history_files(paths) for task in _file_tasks(path, hands_per_task)]


def _file_tasks(path: Path, hands_per_task: int = 200) -> list[ReadTask]:
    from .pokerstars import looks_like_pokerstars, split_hands

    source = str(path)
    if path.suffix.lower() in (".phh", ".phhs"):
        return [ReadTask(source, "phh", path)]
    try:
        data = path.read_bytes()
    except OSError as error:
        return [ReadTask(source, "error", HandHistoryError(f"cannot read the file: {error.strerror}", source=source))]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if not looks_like_pokerstars(text[:4096]):
        return [ReadTask(source, "error", HandHistoryError(
            "not a hand history we read: expected a PokerStars text file ('PokerStars Hand #...') or a "
            ".phh/.phhs file", source=source, line_number=1))]
    blocks = split_hands(text)
    return [ReadTask(source, "pokerstars", blocks[start:start + hands_per_task])
            for start in range(0, len(blocks), hands_per_task)]


def read_task(task: ReadTask) -> list[SessionHand | HandHistoryError]:
    """The hands of one task, PokerStars hands converted to PHH hand histories."""
    if task.kind == "error":
        return [task.payload]
    if task.kind == "phh":
        return _read_phh(task.payload)
    from .pokerstars import parse_pokerstars_blocks
    from .pokerstars_phh import to_hand_history

    results: list[SessionHand | HandHistoryError] = []
    for hand in parse_pokerstars_blocks(task.payload, task.source):
        if isinstance(hand, HandHistoryError):
            results.append(hand)
            continue
        try:
            history, lines = to_hand_history(hand)
        except InputError as error:
            results.append(HandHistoryError(str(error), source=task.source, hand_id=hand.hand_id,
                                            line_number=hand.line_number))
            continue
        results.append(SessionHand(task.source, hand.hand_id, hand.line_number, "pokerstars", history,
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
