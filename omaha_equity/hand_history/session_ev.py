"""The all-in EV of a whole session: read every hand of the files, replay, check, evaluate.

:func:`analyze_session` is what ``omaha-equity ev FILE...`` runs. A hand that cannot be read,
that the rules engine refuses, or whose replay pays other amounts than the file says is
reported (file, hand, line, reason) and left out; the other hands go on. Counts say what
happened to every hand, so nothing is dropped silently.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..errors import InputError
from .allin_ev import HandEV, PlayedHand, PlayerSummary, evaluate_hand, summarize
from .sessions import HandHistoryError, NotOmahaError, ReadTask, SessionHand, read_task, read_tasks


@dataclass
class SessionEV:
    """The result of :func:`analyze_session`.

    Attributes
    ----------
    hands : list of HandEV
        Every hand replayed, in file order.
    failures : list of HandHistoryError
        Every hand that failed (read or replay), with file, hand id, line and reason.
    skipped : list of NotOmahaError
        Hands of other games (Hold'em in a mixed-game file): counted, not failures.
    read_count : int
        Hands found in the files (including those that failed to parse).
    replayed_count : int
        Hands replayed by the engine with the file's payouts reproduced exactly.
    all_in_count : int
        Replayed hands all in before the river; ``evaluated_count`` of them had every hand in
        the pot shown, and got their all-in EV.
    players : list of PlayerSummary
        Per player and chip unit.
    """

    hands: list[HandEV] = field(default_factory=list)
    failures: list[HandHistoryError] = field(default_factory=list)
    skipped: list[NotOmahaError] = field(default_factory=list)
    read_count: int = 0
    replayed_count: int = 0
    all_in_count: int = 0
    evaluated_count: int = 0
    players: list[PlayerSummary] = field(default_factory=list)

    @property
    def failed_count(self) -> int:
        return len(self.failures)


def replay_session_hand(hand: SessionHand) -> PlayedHand:
    """Replay one hand read from a file (PokerStars or PHH) and check it against the file.

    Raises
    ------
    HandHistoryError
        The hand is inconsistent: the engine's reason, with the file, hand and line.
    """
    from .ev_replay import replay_for_ev

    return replay_for_ev(hand.history, source=hand.source, hand_id=hand.hand_id, line_number=hand.line_number,
                         action_lines=hand.action_lines)


def evaluate_session_hand(item: SessionHand | HandHistoryError) -> HandEV | HandHistoryError:
    """Replay, check and evaluate one hand read from a file; a bad hand comes back as its
    error."""
    if isinstance(item, HandHistoryError):
        return item
    try:
        return evaluate_hand(replay_session_hand(item))
    except HandHistoryError as error:
        return error
    except InputError as error:  # cards the EV cannot use (a duplicate card)
        return HandHistoryError(str(error), source=item.source, hand_id=item.hand_id, line_number=item.line_number)


def _run_task(task: ReadTask) -> list[HandEV | HandHistoryError]:
    return [evaluate_session_hand(item) for item in read_task(task)]


def _collect(results: Iterable[HandEV | HandHistoryError]) -> SessionEV:
    session = SessionEV()
    for result in results:
        session.read_count += 1
        if isinstance(result, NotOmahaError):
            session.skipped.append(result)
            continue
        if isinstance(result, HandHistoryError):
            session.failures.append(result)
            continue
        session.replayed_count += 1
        session.all_in_count += result.all_in_street is not None
        session.evaluated_count += result.evaluated
        session.hands.append(result)
    session.players = summarize(session.hands)
    return session


def analyze_hands(items: Iterable[SessionHand | HandHistoryError]) -> SessionEV:
    """Replay and evaluate hands already read (see :func:`analyze_session`)."""
    return _collect(evaluate_session_hand(item) for item in items)


def analyze_session(paths: Iterable[str | Path], *, jobs: int = 1) -> SessionEV:
    """All-in EV and luck of every hand in the files and folders.

    Parameters
    ----------
    paths : iterable of str or Path
        PokerStars text files (``.txt``), PHH files (``.phh``, ``.phhs``), or folders of them.
    jobs : int
        Worker processes (default 1: none). The hands are cut into pieces of 200 handed out
        in order and gathered in order, so the result is the same for any ``jobs``.

    Returns
    -------
    SessionEV

    Raises
    ------
    InputError
        A path that does not exist, a folder without hand-history files, ``jobs`` below 1
        (bad hands do not raise: they are in ``failures``).
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"bad jobs {jobs!r}: expected a whole number of processes, 1 or more")
    tasks = read_tasks(paths)
    if jobs == 1 or len(tasks) == 1:
        return _collect(result for task in tasks for result in _run_task(task))
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Fresh worker processes ("spawn"): forking a process whose compiled kernels started
    # OpenMP threads is unsafe.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=context) as pool:
        return _collect(result for results in pool.map(_run_task, tasks) for result in results)


def format_amount(value: Fraction | int | None, unit: str) -> str:
    """An amount in its unit: two decimals for a currency (``1916.50``), whole chips for
    ``chips`` (two decimals when not whole, as an EV)."""
    if value is None:
        return ""
    value = Fraction(value)
    if unit == "chips" and value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}"


def _money(hand: HandEV, chips: int | Fraction | None) -> str:
    return format_amount(None if chips is None else chips * hand.chip_value, hand.unit)


def hand_rows(session: SessionEV, *, all_hands: bool = False, with_file: bool = True) -> list[dict[str, str]]:
    """One row per player with chips in the pot, for every all-in hand (every hand with
    ``all_hands``): file, hand, game, all-in street and board, player, committed, won, all-in
    EV, luck, and a note when the all-in could not be evaluated (``with_file=False`` leaves the
    file out, for a narrower table)."""
    rows = []
    for hand in session.hands:
        if not all_hands and hand.all_in_street is None:
            continue
        for player in hand.players:
            if player.committed == 0 and player.won == 0:
                continue
            row = {"file": Path(hand.source).name} if with_file else {}
            rows.append(row | {
                "hand": hand.hand_id, "game": hand.game,
                "all_in": hand.all_in_street or "", "board": hand.all_in_board,
                "player": player.name, "unit": hand.unit,
                "committed": _money(hand, player.committed),
                "won": _money(hand, player.won),
                "all_in_ev": _money(hand, player.all_in_ev),
                "luck": _money(hand, player.luck),
                "note": hand.note,
            })
    return rows


def player_rows(session: SessionEV) -> list[dict[str, str | int]]:
    """One row per player and chip unit: hands, all-in hands, net won, net all-in EV, luck."""
    return [{
        "player": summary.name, "unit": summary.unit, "hands": summary.hand_count,
        "all_in_hands": summary.all_in_hand_count,
        "net_won": format_amount(summary.net_won, summary.unit),
        "net_all_in_ev": format_amount(summary.net_all_in_ev, summary.unit),
        "luck": format_amount(summary.luck, summary.unit),
    } for summary in session.players]


def _exact(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def session_json(session: SessionEV) -> dict:
    """Everything as JSON-ready data. Per hand, amounts in chips of the hand's smallest unit
    (``chip_value`` gives one chip's value in ``unit``: ``"1/100"`` for cents), EVs and luck as
    floats and as exact fractions (``"39288250/247"``); per player, amounts in ``unit``."""
    return {
        "counts": counts(session),
        "hands": [{
            "source": hand.source, "hand_id": hand.hand_id, "game": hand.game, "unit": hand.unit,
            "chip_value": str(hand.chip_value),
            "all_in_street": hand.all_in_street, "all_in_board": hand.all_in_board,
            "evaluated": hand.evaluated, "note": hand.note,
            "players": [{
                "name": player.name, "committed": player.committed, "won": player.won,
                "all_in_ev": None if player.all_in_ev is None else float(player.all_in_ev),
                "all_in_ev_exact": _exact(player.all_in_ev),
                "luck": None if player.luck is None else float(player.luck),
                "luck_exact": _exact(player.luck),
            } for player in hand.players],
        } for hand in session.hands],
        "players": [{
            "name": summary.name, "unit": summary.unit, "hands": summary.hand_count,
            "all_in_hands": summary.all_in_hand_count,
            "net_won": float(summary.net_won), "net_won_exact": str(summary.net_won),
            "net_all_in_ev": float(summary.net_all_in_ev), "net_all_in_ev_exact": str(summary.net_all_in_ev),
            "luck": float(summary.luck), "luck_exact": str(summary.luck),
        } for summary in session.players],
        "failures": [{"source": error.source, "hand_id": error.hand_id, "line": error.line_number,
                      "reason": error.reason} for error in session.failures],
        "skipped": [{"source": error.source, "hand_id": error.hand_id, "line": error.line_number,
                     "reason": error.reason} for error in session.skipped],
    }


def counts(session: SessionEV) -> dict[str, int]:
    """Hands read, replayed, all in before the river, evaluated, failed (and skipped: other
    games)."""
    return {"read": session.read_count, "replayed": session.replayed_count, "all_in": session.all_in_count,
            "evaluated": session.evaluated_count, "failed": session.failed_count,
            "skipped": len(session.skipped)}


def counts_line(session: SessionEV) -> str:
    """``hands read 23, replayed 23, all in before the river 5, evaluated 4, failed 0`` (and
    ``, skipped 3 (not Omaha)`` when some hands are of other games)."""
    skipped = f", skipped {len(session.skipped)} (not Omaha)" if session.skipped else ""
    return (f"hands read {session.read_count}, replayed {session.replayed_count}, all in before the river "
            f"{session.all_in_count}, evaluated {session.evaluated_count}, failed {session.failed_count}{skipped}")
