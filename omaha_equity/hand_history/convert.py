"""Hand histories to PHH: what ``omaha-equity convert FILE... -o OUT`` does.

Every hand of the files (PokerStars text or PHH, read as ``ev`` reads them, streamed) is
replayed through the rules engine and checked against its file (:mod:`.file_replay`: each
player's chips back, rake included); a hand that passes is written as PHH, one that cannot be
read, replayed or checked is reported in one line and the others go on. A PokerStars hand is
written with its record (``finishing_stacks``, ``winnings``, ``_rake``, ``_stated_pots``,
``_returned``, names and seats: docs/hand-histories.md); a PHH hand as it was read. The same
hand read twice is written once.

``OUT`` ending ``.phh`` holds one hand, ``.phhs`` any number (tables ``[1]``, ``[2]``, ...). The
hands go to a temporary file next to ``OUT``, renamed to ``OUT`` only when every file has been
read (:func:`output_file`): ``OUT`` is never left half-written, and is not created when no hand
converts or the disk fills up (one line, ``no space left writing 'OUT'``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..runtime.output_files import output_file
from .errors import CancelledHandError, HandHistoryError, NotOmahaError
from .file_replay import replay_checked
from .phh import HandHistory, dumps
from .records import DuplicateHand
from .sessions import hand_history_files, read_session_items

OUTPUT_SUFFIXES = (".phh", ".phhs")


@dataclass
class ConvertCounts:
    """Hands written, and hands not written: failed (could not be read, replayed or checked),
    skipped (other games, cancelled by the site) and duplicates (written once)."""

    written: int = 0
    failed: int = 0
    skipped: int = 0
    duplicates: int = 0

    def line(self, out: str) -> str:
        return (f"hands written {self.written} to {out}, failed {self.failed}, skipped {self.skipped} "
                f"(not Omaha or cancelled), duplicates {self.duplicates}")


def check_output_path(out: str | Path) -> Path:
    """``OUT`` must end ``.phh`` or ``.phhs`` and be in a folder that exists.

    Raises
    ------
    InputError
        Another suffix, or no such folder.
    """
    path = Path(out)
    if path.suffix.lower() not in OUTPUT_SUFFIXES:
        raise InputError(f"bad output {str(out)!r}: expected a name ending .phh (one hand) or .phhs (many hands)")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"bad output {str(out)!r}: no such folder {str(folder)!r}")
    if path.is_dir():
        raise InputError(f"bad output {str(out)!r}: a folder, expected a file name")
    return path


def live_posts(history: HandHistory) -> list[str]:
    """The players (``pN``) of a hand of three or more whose entry in ``blinds_or_straddles``
    after the big blind is no more than the big blind: a live big blind posted by a player
    joining the table, not a straddle (a straddle is at least twice the big blind). PHH has no
    other place for it, and reads every entry there as a straddle."""
    blinds = history.blinds_or_straddles
    if len(blinds) < 3 or not blinds[1]:
        return []
    return [f"p{index + 1}" for index, amount in enumerate(blinds) if index >= 2 and 0 < amount <= blinds[1]]


def convert(paths: Iterable[str | Path], out: str | Path, *,
            report: Callable[[str], None] = lambda line: None, site: str | None = None) -> ConvertCounts:
    """Convert every hand of ``paths`` to PHH in ``out`` (see the module notes).

    ``report`` receives one line per hand not written (``error: FILE, line N, hand ID:
    reason``, ``skipped: ...``, ``duplicate: ...``), as it happens, and a ``note: ...`` line for
    a hand written that pokerkit cannot replay (a live big blind posted out of the blinds). ``site`` reads every text
    file as that site's (``sites.SITES``); by default each file's first line tells.

    Returns
    -------
    ConvertCounts

    Raises
    ------
    InputError
        Before anything is written: a bad ``out``, a missing input path. After reading: a
        ``.phh`` output and more than one hand, or no hand converted (``out`` untouched).
    OutputError
        ``out`` could not be written (``no space left writing 'OUT'``): ``out`` untouched.
    """
    path = check_output_path(out)
    files = hand_history_files(paths)
    counts = ConvertCounts()
    single = path.suffix.lower() == ".phh"
    with output_file(out) as stream:
        for hand in read_session_items(files, site):  # parsed hands, their errors, duplicates
            if isinstance(hand, DuplicateHand):
                counts.duplicates += 1
                report(f"duplicate: {hand}")
                continue
            if isinstance(hand, (NotOmahaError, CancelledHandError)):
                counts.skipped += 1
                report(f"skipped: {hand}")
                continue
            if not isinstance(hand, HandHistoryError):
                played = replay_checked(hand)
                hand = played if isinstance(played, HandHistoryError) else hand
            if isinstance(hand, HandHistoryError):
                counts.failed += 1
                report(f"error: {hand}")
                continue
            if single and counts.written:
                raise InputError(f"bad output {str(out)!r}: a .phh file holds one hand and these files have "
                                 "more: name the output .phhs")
            counts.written += 1
            if live := live_posts(hand.history):
                report(f"note: {hand.source}" + (f", line {hand.line_number}" if hand.line_number else "")
                       + f", hand {hand.hand_id}: written, but {', '.join(live)} posted a big blind out of the blinds "
                       "(a live post by a player joining the table, acting in turn); PHH can only list it in "
                       "blinds_or_straddles, which the specification and pokerkit read as a straddle acting last: "
                       "the hand replays in omaha-equity play, not in pokerkit")
            text = dumps(hand.history)
            stream.write(text if single else ("\n" if counts.written > 1 else "") + f"[{counts.written}]\n{text}")
        if not counts.written:  # raised inside: the temporary file is removed, OUT not created
            raise InputError(f"no hand converted: {str(out)!r} not written")
    return counts
