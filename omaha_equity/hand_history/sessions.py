"""Reading a session: hand-history files or folders of them, in any format we read.

PokerStars text files (``.txt``) and PHH files (``.phh``, ``.phhs``) are recognised by their
suffix (a file of another suffix by its first line); a folder reads every such file in it, in
name order, recursively. A bad hand is reported as a :class:`HandHistoryError` naming the file,
the hand and the line, and the other hands go on.

Reading streams: a PokerStars file is read line by line and each hand handed on as soon as its
last line is read, so a session of any size holds one hand at a time (a PHH file is TOML and is
read whole). The same hand read twice (the same site and hand number, in two files or twice in
one) is handed on once; each later copy comes as a :class:`DuplicateHand` naming both places.
"""

from __future__ import annotations

import hashlib
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


class CancelledHandError(HandHistoryError):
    """A hand the site cancelled (PokerStars' ``Hand cancelled`` line): no chips moved. Counted as
    cancelled, not as a failure."""

    def __reduce__(self):
        return _restore_cancelled, (self.reason, self.source, self.hand_id, self.line_number)


def _restore_cancelled(reason: str, source: str, hand_id: str, line_number: int | None) -> CancelledHandError:
    return CancelledHandError(reason, source=source, hand_id=hand_id, line_number=line_number)


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


@dataclass(frozen=True)
class PokerStarsBlock:
    """The lines of one PokerStars hand, not parsed yet (small enough to hand to another
    process): ``first_line`` is the 1-based line of ``lines[0]`` in ``source``."""

    source: str
    first_line: int
    lines: tuple[str, ...]


SessionItem = SessionHand | PokerStarsBlock | HandHistoryError | DuplicateHand


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
        elif path.exists():
            files.append(path)  # a file, or a pipe (read as it is written)
        else:
            raise InputError(f"no such file or folder: {str(path)!r}")
    return files


def _decode(raw: bytes) -> str:
    """PokerStars writes UTF-8 (older files Latin-1): a line that is not UTF-8 is Latin-1."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def pokerstars_blocks(lines: Iterable[str], source: str = "<text>") -> Iterator[PokerStarsBlock]:
    """The hands of a PokerStars file's lines, one block each, as soon as each is read.

    A hand starts at a ``PokerStars ... #`` header line and ends at a blank line or the next
    header. Non-blank lines outside any hand come back as a block of their own (its first line
    is not a header), so the reader reports them instead of dropping them silently.
    """
    from .pokerstars import is_header

    current: list[str] = []
    first = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line:
            if current:
                yield PokerStarsBlock(source, first, tuple(current))
            current = []
        elif current and not is_header(line):
            current.append(line)
        else:
            if current:
                yield PokerStarsBlock(source, first, tuple(current))
            current, first = [line], number
    if current:
        yield PokerStarsBlock(source, first, tuple(current))


def _file_lines(path: Path) -> Iterator[str]:
    with path.open("rb") as stream:
        for raw in stream:
            yield _decode(raw)


def read_file_items(path: Path) -> Iterator[PokerStarsBlock | SessionHand | HandHistoryError]:
    """The hands of one file as they are read: PokerStars blocks (parsed later, possibly in
    another process), PHH hands, or the error of a file or hand that cannot be read."""
    source = str(path)
    if path.suffix.lower() in (".phh", ".phhs"):
        yield from _read_phh(path)
        return
    blocks = pokerstars_blocks(_file_lines(path), source)
    try:
        first_block = next(blocks, None)
    except OSError as error:
        yield HandHistoryError(f"cannot read the file: {error.strerror}", source=source)
        return
    from .pokerstars import is_header

    if first_block is None or not is_header(first_block.lines[0]):
        yield HandHistoryError("not a hand history we read: expected a PokerStars text file ('PokerStars Hand "
                               "#...') or a .phh/.phhs file", source=source,
                               line_number=first_block.first_line if first_block else 1)
        return
    yield first_block
    try:
        yield from blocks
    except OSError as error:
        yield HandHistoryError(f"cannot read the rest of the file: {error.strerror}", source=source)


def hand_key(item: PokerStarsBlock | SessionHand) -> tuple[str, ...] | None:
    """What makes two records the same hand: the site and its hand number (a PokerStars hand,
    or a PHH hand converted from one), a PHH hand's venue and ``hand`` number, else (a PHH
    hand without a number) the whole record."""
    if isinstance(item, PokerStarsBlock):
        from .pokerstars import header_hand_id

        hand_id = header_hand_id(item.lines[0])
        return None if hand_id is None else ("PokerStars", hand_id)
    history = item.history
    if history.custom("_source") == "pokerstars" and history.hand is not None:
        return "PokerStars", str(history.hand)
    if history.hand is not None:
        return ("phh", str(history.venue or ""), str(history.event or ""), str(history.table or ""),
                str(history.hand))
    from .phh import dumps

    return "phh-record", hashlib.sha256(dumps(history).encode()).hexdigest()


def _item_hand_id(item: PokerStarsBlock | SessionHand) -> str:
    if isinstance(item, PokerStarsBlock):
        from .pokerstars import header_hand_id

        return header_hand_id(item.lines[0]) or "?"
    return item.hand_id


def read_session_items(paths: Iterable[str | Path]) -> Iterator[SessionItem]:
    """Every hand of the files and folders in reading order, streamed, each hand once: a later
    copy of a hand already read comes as a :class:`DuplicateHand`.

    Raises
    ------
    InputError
        A path that does not exist, a folder with no hand-history file (before any hand).
    """
    seen: dict[tuple[str, ...], tuple[str, int | None]] = {}
    for path in hand_history_files(paths):
        for item in read_file_items(path):
            if isinstance(item, HandHistoryError):
                yield item
                continue
            key = hand_key(item)
            line = item.first_line if isinstance(item, PokerStarsBlock) else item.line_number
            if key is not None:
                if key in seen:
                    first_source, first_line = seen[key]
                    yield DuplicateHand(item.source, _item_hand_id(item), line, first_source, first_line)
                    continue
                seen[key] = (item.source, line)
            yield item


def session_hand(item: PokerStarsBlock | SessionHand | HandHistoryError) -> SessionHand | HandHistoryError:
    """A read item as a :class:`SessionHand` (a PokerStars block parsed and converted to PHH),
    or the error of a hand that cannot be read."""
    if not isinstance(item, PokerStarsBlock):
        return item
    from .pokerstars import parse_block
    from .pokerstars_phh import to_session_hand

    hand = parse_block(item)
    if isinstance(hand, HandHistoryError):
        return hand
    try:
        return to_session_hand(hand)
    except InputError as error:
        return HandHistoryError(str(error), source=item.source, hand_id=hand.hand_id, line_number=hand.line_number)


def read_session(paths: Iterable[str | Path]) -> Iterator[SessionHand | HandHistoryError]:
    """Every hand of the files and folders, in order, or the error each bad hand raised
    (duplicates left out)."""
    for item in read_session_items(paths):
        if not isinstance(item, DuplicateHand):
            yield session_hand(item)


def read_hand_history_file(path: str | Path) -> list[SessionHand | HandHistoryError]:
    """Every hand of one file: PHH for ``.phh``/``.phhs``, PokerStars text otherwise."""
    return [session_hand(item) for item in read_file_items(Path(path))]


def _read_phh(path: Path) -> list[SessionHand | HandHistoryError]:
    """Hands of a PHH file (one in ``.phh``, many in ``.phhs``); a hand that breaks the
    specification is reported and the others go on. A hand's id is its ``hand`` field, else
    its table name in a ``.phhs`` file, else its number in the file."""
    from .phh import PhhError, load_each

    try:
        hands = load_each(path)
    except PhhError as error:
        return [HandHistoryError(_phh_reason(error, str(path), None), source=str(path))]
    results: list[SessionHand | HandHistoryError] = []
    for number, (label, history) in enumerate(hands, start=1):
        if isinstance(history, PhhError):
            results.append(HandHistoryError(_phh_reason(history, str(path), label), source=str(path),
                                            hand_id=label or str(number)))
            continue
        hand_id = str(history.hand) if history.hand is not None else (label or str(number))
        results.append(SessionHand(str(path), hand_id, None, "phh", history))
    return results


def _phh_reason(error: Exception, source: str, label: str | None) -> str:
    """A PHH error's reason without the file and hand it starts with (our error says them)."""
    text = str(error)
    for prefix in (f"{source}, hand [{label}]: ", f"{source}: "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text
