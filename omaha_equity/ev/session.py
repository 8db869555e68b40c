"""The all-in EV of a whole session: read every hand of the files, replay, check, evaluate.

:func:`iter_session` is what ``omaha-equity ev FILE...`` runs: it streams, giving each hand's
result as soon as the hand is replayed (the first results come before the last file is read)
and holding one hand at a time, so memory stays flat whatever the size of the input. A hand
that cannot be read, that the rules engine refuses, or whose replay pays other amounts than
the file says comes as its :class:`HandHistoryError` (file, hand, line, reason) and the other
hands go on; a hand read twice comes once, the later copy as a :class:`DuplicateHand`.
:class:`SessionTotals` counts what happened to every hand, so nothing is dropped silently.
:func:`analyze_session` gathers everything in a :class:`SessionEV` (for the API).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError
from ..runtime.executor import MAX_WORKERS, local_core_count, make_executor
from ..hand_history.errors import CancelledHandError, HandHistoryError, NotOmahaError
from ..hand_history.file_replay import UNEXPECTED_ERRORS, replay_checked, unexpected_reason
from ..hand_history.records import DuplicateHand
from ..hand_history.sessions import SessionItem, hand_history_files, read_session_items
from ..validate import is_whole_number
from .hand_ev import HandEV, PlayerSummaries, PlayerSummary, evaluate_hand

if TYPE_CHECKING:
    from ..batch.workers import MeasuredWorkers

SessionResult = HandEV | HandHistoryError | DuplicateHand

# Hands per piece of work handed to a worker process (``executor.ITEMS_IN_FLIGHT_PER_WORKER``
# pieces in flight per worker): small enough that results come soon and memory stays flat, big
# enough to keep the workers busy.
_HANDS_PER_PIECE = 50


def evaluate_item(item: SessionItem) -> SessionResult:
    """Replay, check and evaluate one hand read from a file; a bad hand comes back as its
    error, never raised: one bad hand never stops a session."""
    if isinstance(item, (HandHistoryError, DuplicateHand)):
        return item  # read_session_items parsed the hand: a hand that cannot be read is its error
    hand = item
    played = replay_checked(hand)
    if isinstance(played, HandHistoryError):
        return played
    try:
        return evaluate_hand(played)
    except InputError as error:  # cards the EV cannot use (a duplicate card)
        reason = str(error)
    except UNEXPECTED_ERRORS as error:
        reason = unexpected_reason(error)
    return HandHistoryError(reason, source=hand.source, hand_id=hand.hand_id, line_number=hand.line_number)


def _evaluate_piece(items: list[SessionItem]) -> list[SessionResult]:
    return [evaluate_item(item) for item in items]


def _pieces(items: Iterable[SessionItem], size: int | Callable[[], int]) -> Iterator[list[SessionItem]]:
    """The items in lists of ``size`` (or of what ``size()`` says as each list fills: one hand
    at a time while the hands run here, so each result comes out as soon as it is known)."""
    piece: list[SessionItem] = []
    for item in items:
        piece.append(item)
        if len(piece) >= (size if isinstance(size, int) else size()):
            yield piece
            piece = []
    if piece:
        yield piece


def iter_session(paths: Iterable[str | Path], *, workers: int | None = 1,
                 site: str | None = None) -> SessionRun:
    """Each hand's result in file order, as soon as it is known (see the module notes).

    Parameters
    ----------
    paths : iterable of str or Path
        PokerStars text files (``.txt``), PHH files (``.phh``, ``.phhs``), or folders of them.
    workers : int or None
        Worker processes (default 1: none), 1 to ``executor.MAX_WORKERS``, as in
        ``run_batch``; None: chosen from the work measured, as ``batch`` chooses
        (``batch.workers.MeasuredWorkers``: the hands run here first, and one worker process
        per core starts only once the work done here says they pay). The hands go out in
        pieces of 50, a few pieces per worker ahead (``executor.make_executor``), and come back
        in order, so the results are the same for any ``workers``.
    site : str, optional
        Read every text file as this site's (``hand_history.sites.SITES``); by default each
        file's site is told from its first line.

    Returns
    -------
    SessionRun
        An iterator of the results; its ``choice`` says where they ran when chosen.

    Raises
    ------
    InputError
        At once (before any result): a path that does not exist, a folder without
        hand-history files, ``workers`` not None nor a whole number 1..``MAX_WORKERS``.
    """
    if workers is not None and (not is_whole_number(workers) or not 1 <= workers <= MAX_WORKERS):
        raise InputError(f"bad workers {workers!r}: expected a whole number of processes, 1 to {MAX_WORKERS}")
    files = hand_history_files(paths)
    return SessionRun(files, None if workers is None else int(workers), site)


class SessionRun(Iterator[SessionResult]):
    """The results of :func:`iter_session`, in file order.

    Attributes
    ----------
    choice : str or None
        Where the hands ran when the worker count was chosen from the work measured
        (``1 worker (measured work)``, or the worker processes started), for the counts line;
        None when the caller gave the count.
    """

    def __init__(self, files: list[Path], workers: int | None, site: str | None = None):
        self._executor: MeasuredWorkers | None = None
        if workers is None:
            from ..batch.workers import MeasuredWorkers  # the batch's choice, on the session's pieces

            self._executor = MeasuredWorkers(local_core_count(), None)
        self._results = _results(files, workers, site, self._executor)

    @property
    def choice(self) -> str | None:
        return None if self._executor is None else self._executor.choice

    def __next__(self) -> SessionResult:
        return next(self._results)


def _results(files: list[Path], workers: int | None, site: str | None,
             measured: MeasuredWorkers | None) -> Iterator[SessionResult]:
    items = read_session_items(files, site)
    if measured is not None:
        try:
            pieces = _pieces(items, lambda: 1 if measured.worker_count == 1 else _HANDS_PER_PIECE)
            for results in measured.map(_evaluate_piece, pieces):
                yield from results
        finally:
            measured.close()
        return
    if workers == 1:
        yield from map(evaluate_item, items)
        return
    # the executor's worker processes start from a fork server that has run no kernel (forking
    # a process whose compiled kernels started threads is unsafe), and a dead one is replaced
    with make_executor(workers) as executor:
        for results in executor.map(_evaluate_piece, _pieces(items, _HANDS_PER_PIECE)):
            yield from results


@dataclass
class SessionTotals:
    """What happened to every hand of a session, counted as the results stream by.

    ``read_count`` counts distinct hands (a duplicate is counted in ``duplicate_count``
    only); ``replayed_count`` hands replayed with the file's payouts reproduced exactly;
    ``all_in_count`` of them were all in before the river, ``evaluated_count`` of those had
    every hand in the pot shown and got their all-in EV; ``failed_count`` hands could not be
    read or replayed; ``skipped_count`` hands are of other games (Hold'em in a mixed-game
    file), ``cancelled_count`` hands the site cancelled. ``players`` holds the per-player
    totals.
    """

    read_count: int = 0
    replayed_count: int = 0
    all_in_count: int = 0
    evaluated_count: int = 0
    failed_count: int = 0
    skipped_count: int = 0
    cancelled_count: int = 0
    duplicate_count: int = 0
    players: PlayerSummaries = field(default_factory=PlayerSummaries)
    # where the hands ran, when chosen from the work measured (``SessionRun.choice``)
    where: str | None = None

    def add(self, result: SessionResult) -> None:
        if isinstance(result, DuplicateHand):
            self.duplicate_count += 1
            return
        self.read_count += 1
        if isinstance(result, NotOmahaError):
            self.skipped_count += 1
        elif isinstance(result, CancelledHandError):
            self.cancelled_count += 1
        elif isinstance(result, HandHistoryError):
            self.failed_count += 1
        else:
            self.replayed_count += 1
            self.all_in_count += result.all_in_street is not None
            self.evaluated_count += result.evaluated
            self.players.add(result)

    def counts(self) -> dict[str, int]:
        """Hands read, replayed, all in before the river, evaluated, failed, skipped (other
        games), cancelled and duplicates."""
        return {"read": self.read_count, "replayed": self.replayed_count, "all_in": self.all_in_count,
                "evaluated": self.evaluated_count, "failed": self.failed_count, "skipped": self.skipped_count,
                "cancelled": self.cancelled_count, "duplicates": self.duplicate_count}

    def counts_line(self) -> str:
        """``hands read 23, replayed 23, all in before the river 5, evaluated 4, failed 0``
        (then skipped, cancelled and duplicate hands when there are any, and where the hands
        ran when that was chosen from the work: ``; 1 worker (measured work)``)."""
        extra = ""
        if self.skipped_count:
            extra += f", skipped {self.skipped_count} (not Omaha)"
        if self.cancelled_count:
            extra += f", cancelled {self.cancelled_count}"
        if self.duplicate_count:
            extra += f", duplicates {self.duplicate_count} (counted once)"
        if self.where:
            extra += f"; {self.where}"
        return (f"hands read {self.read_count}, replayed {self.replayed_count}, all in before the river "
                f"{self.all_in_count}, evaluated {self.evaluated_count}, failed {self.failed_count}{extra}")


@dataclass
class SessionEV:
    """Everything of a session at once (:func:`analyze_session`).

    Attributes
    ----------
    hands : list of HandEV
        Every hand replayed, in file order.
    failures : list of HandHistoryError
        Every hand that failed (read or replay), with file, hand id, line and reason.
    skipped : list of NotOmahaError
        Hands of other games (Hold'em in a mixed-game file): counted, not failures.
    cancelled : list of CancelledHandError
        Hands the site cancelled: counted, not failures.
    duplicates : list of DuplicateHand
        Later copies of hands already read: counted once.
    totals : SessionTotals
        The counts and the per-player summary.
    """

    hands: list[HandEV] = field(default_factory=list)
    failures: list[HandHistoryError] = field(default_factory=list)
    skipped: list[NotOmahaError] = field(default_factory=list)
    cancelled: list[CancelledHandError] = field(default_factory=list)
    duplicates: list[DuplicateHand] = field(default_factory=list)
    totals: SessionTotals = field(default_factory=SessionTotals)

    @property
    def read_count(self) -> int:
        return self.totals.read_count

    @property
    def replayed_count(self) -> int:
        return self.totals.replayed_count

    @property
    def all_in_count(self) -> int:
        return self.totals.all_in_count

    @property
    def evaluated_count(self) -> int:
        return self.totals.evaluated_count

    @property
    def failed_count(self) -> int:
        return self.totals.failed_count

    @property
    def players(self) -> list[PlayerSummary]:
        return self.totals.players.summaries()


def analyze_session(paths: Iterable[str | Path], *, workers: int = 1) -> SessionEV:
    """All-in EV and luck of every hand in the files and folders, gathered (see
    :func:`iter_session`, which streams the same results).

    Raises
    ------
    InputError
        A path that does not exist, a folder without hand-history files, bad ``workers``
        (bad hands do not raise: they are in ``failures``).
    """
    return _gather(iter_session(paths, workers=workers))


def _gather(results: Iterable[SessionResult]) -> SessionEV:
    session = SessionEV()
    for result in results:
        session.totals.add(result)
        if isinstance(result, DuplicateHand):
            session.duplicates.append(result)
        elif isinstance(result, NotOmahaError):
            session.skipped.append(result)
        elif isinstance(result, CancelledHandError):
            session.cancelled.append(result)
        elif isinstance(result, HandHistoryError):
            session.failures.append(result)
        else:
            session.hands.append(result)
    return session


def format_amount(value: Fraction | int | None, unit: str) -> str:
    """An amount in its unit: two decimals for a currency (``1916.50``), whole chips for
    ``chips`` (two decimals when not whole, as an EV)."""
    if value is None:
        return ""
    value = Fraction(value)
    if unit == "chips" and value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}"
