"""Reading a session: hand-history files or folders of them, in any format we read.

PokerStars text files (``.txt``) and PHH files (``.phh``, ``.phhs``) are recognised by their
suffix (a file of another suffix by its first line); a folder reads every such file in it, in
name order, recursively. A bad hand is reported as a :class:`HandHistoryError` naming the file,
the hand and the line, and the other hands go on.

Reading streams: a PokerStars file is read line by line and each hand handed on as soon as its
last line is read, so a session of any size holds one hand at a time (a PHH file is TOML and is
read whole). The same hand read twice (the same site and hand number, in two files or twice in
one) is handed on once; each later copy comes as a :class:`DuplicateHand` naming both places.
The copy that counts is the first one that can be read: a damaged copy (a truncated hand, a
line the reader refuses) is reported as the error it is and does not hide a later good copy,
which is why PokerStars hands are parsed here, as they are read (parsing is about a twentieth of
a hand's replay and all-in EV, which worker processes share).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputError
from .errors import CancelledHandError, HandHistoryError, NotOmahaError
from .phh import PhhError, dumps, load_each
from .pokerstars import PokerStarsBlock, header_hand_id, parse_block, read_pokerstars_items
from .pokerstars_phh import to_session_hand
from .records import DuplicateHand, SessionHand
from .sites import detect_site, read_site_items
from .text_files import first_text_line

HAND_HISTORY_SUFFIXES = (".txt", ".phh", ".phhs")


SessionItem = SessionHand | HandHistoryError | DuplicateHand


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


def read_file_items(path: Path, site: str | None = None) -> Iterator[PokerStarsBlock | SessionHand | HandHistoryError]:
    """The hands of one file as they are read: PokerStars blocks (parsed by
    :func:`session_hand`), PHH hands, other sites' hands, or the error of a file or hand that
    cannot be read. The site is told from the file's first line unless ``site`` names it
    (:data:`.sites.SITES`)."""
    if site is None and path.suffix.lower() in (".phh", ".phhs"):
        yield from _read_phh(path)
        return
    if site is None and path.is_file():  # a pipe's first line is read once, by its reader
        try:
            first_line = first_text_line(path)
        except OSError:
            first_line = None  # the PokerStars reader says why the file cannot be read
        site = detect_site(first_line) if first_line is not None else None
    if site is None or site == "pokerstars":
        yield from read_pokerstars_items(path)
        return
    yield from read_site_items(path, site)


def hand_key(item: PokerStarsBlock | SessionHand) -> tuple[str, ...] | None:
    """What makes two records the same hand: the site and its hand number (a PokerStars hand,
    or a PHH hand converted from one), a PHH hand's venue and ``hand`` number, else (a PHH
    hand without a number) the whole record."""
    if isinstance(item, PokerStarsBlock):
        hand_id = header_hand_id(item.lines[0])
        return None if hand_id is None else ("PokerStars", hand_id)
    history = item.history
    if history.custom("_source") == "pokerstars" and history.hand is not None:
        return "PokerStars", str(history.hand)
    if item.format not in ("phh", "pokerstars") and history.hand is not None:
        return item.format, str(history.hand)
    if history.hand is not None:
        return ("phh", str(history.venue or ""), str(history.event or ""), str(history.table or ""),
                str(history.hand))
    return "phh-record", hashlib.sha256(dumps(history).encode()).hexdigest()


def _item_hand_id(item: PokerStarsBlock | SessionHand) -> str:
    if isinstance(item, PokerStarsBlock):
        return header_hand_id(item.lines[0]) or "?"
    return item.hand_id


def read_session_items(paths: Iterable[str | Path], site: str | None = None) -> Iterator[SessionItem]:
    """Every hand of the files and folders in reading order, streamed, each hand once and
    parsed (a :class:`SessionHand`, or the :class:`HandHistoryError` of a hand that cannot be
    read): a later copy of a hand already read whole comes as a :class:`DuplicateHand`.

    Raises
    ------
    InputError
        A path that does not exist, a folder with no hand-history file (before any hand).
    """
    seen: dict[tuple[str, ...], tuple[str, int | None]] = {}
    for path in hand_history_files(paths):
        for item in read_file_items(path, site):
            if isinstance(item, HandHistoryError):
                yield item
                continue
            key = hand_key(item)
            line = item.first_line if isinstance(item, PokerStarsBlock) else item.line_number
            if key is not None and key in seen:
                first_source, first_line = seen[key]
                yield DuplicateHand(item.source, _item_hand_id(item), line, first_source, first_line)
                continue
            hand = session_hand(item)
            if key is not None and _is_a_copy_that_counts(hand):
                seen[key] = (item.source, line)
            yield hand


def _is_a_copy_that_counts(hand: SessionHand | HandHistoryError) -> bool:
    """A hand read whole (a hand of another game, or cancelled by the site, was read whole too);
    a damaged copy is not the copy of its hand that counts."""
    return not isinstance(hand, HandHistoryError) or isinstance(hand, (NotOmahaError, CancelledHandError))


def session_hand(item: PokerStarsBlock | SessionHand | HandHistoryError) -> SessionHand | HandHistoryError:
    """A read item as a :class:`SessionHand` (a PokerStars block parsed and converted to PHH),
    or the error of a hand that cannot be read."""
    if not isinstance(item, PokerStarsBlock):
        return item
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
            yield item


def read_hand_history_file(path: str | Path) -> list[SessionHand | HandHistoryError]:
    """Every hand of one file: PHH for ``.phh``/``.phhs``, PokerStars text otherwise."""
    return [session_hand(item) for item in read_file_items(Path(path))]


def _read_phh(path: Path) -> list[SessionHand | HandHistoryError]:
    """Hands of a PHH file (one in ``.phh``, many in ``.phhs``); a hand that breaks the
    specification is reported and the others go on. A hand's id is its ``hand`` field, else
    its table name in a ``.phhs`` file, else its number in the file."""
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
