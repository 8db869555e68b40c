"""What ``omaha-equity ev`` writes, written as the hands stream in.

- **Hand rows**: one row per player with chips in the pot, for every hand all in before the
  river (every hand with ``all_hands``): the same hands in every format.
- **table**: the rows of each file in tables of at most 40 hands, each printed as soon as it is
  full (so the first hands show while the rest are replayed), then the per-player summary.
- **csv**: one table only, the hand rows (a header line, then a row per player and hand, each
  written as soon as its hand is replayed); the per-player summary goes to its own file
  (``--summary FILE``), so that a CSV reader (pandas) reads each file as the table it is.
- **json**: one object: ``hands`` (streamed), then ``players``, ``counts``, ``failures``,
  ``skipped``, ``cancelled`` and ``duplicates``.

Amounts in rows are in the hand's unit (two decimals for money, chips for tournament chips);
per-player summaries are per unit and tournament (chips of different tournaments, and chips
and money, never add up). A cash game's tournament is ``-`` (:data:`NO_TOURNAMENT`).
"""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

from ..errors import InputError
from ..runtime.output_files import write_atomically
from ..hand_history.errors import CancelledHandError, HandHistoryError, NotOmahaError
from ..hand_history.records import DuplicateHand
from .render import render_csv, render_json, render_table
from ..ev.hand_ev import HandEV, PlayerSummary
from ..ev.session import SessionResult, SessionTotals, format_amount

#: The ``tournament`` cell of a cash-game row, as CSV writes ``-`` for no cards: a column of
#: tournament ids and blanks would be read as floats by pandas (447493868.0), one with ``-`` is
#: read as text and every id stays exact.
NO_TOURNAMENT = "-"
HAND_COLUMNS = ("file", "hand", "game", "unit", "tournament", "all_in", "board", "player", "committed", "won",
                "all_in_ev", "luck", "note")
PLAYER_COLUMNS = ("player", "unit", "tournament", "hands", "all_in_hands", "net_won", "net_all_in_ev", "luck")
_TABLE_HANDS = 40


def listed(hand: HandEV, all_hands: bool) -> bool:
    """Whether a hand has rows: every hand with ``all_hands``, else the all-in hands."""
    return all_hands or hand.all_in_street is not None


def _money(hand: HandEV, chips: int | Fraction | None) -> str:
    return format_amount(None if chips is None else chips * hand.chip_value, hand.unit)


def outside_pot_notes(hand: HandEV) -> list[str]:
    """What each player settled with the room outside the pot, in words: ``EV Cashout:
    Hero paid 19.00, received 0.00: took home 65.49, 4.51 below the all-in EV``."""
    notes = []
    for player in hand.players:
        settled = player.outside_pot
        if settled is None:
            continue
        text = (f"{settled.kind}: {player.name} paid {_money(hand, settled.paid)}, received "
                f"{_money(hand, settled.received)} outside the pot: took home {_money(hand, player.took_home)}")
        against = player.outside_pot_against_ev
        if against is not None:
            direction = "above" if against >= 0 else "below"
            text += f", {_money(hand, abs(against))} {direction} the all-in EV"
        notes.append(text)
    return notes


def _note(hand: HandEV) -> str:
    return "; ".join(([hand.note] if hand.note else []) + outside_pot_notes(hand))


def hand_rows(hand: HandEV, *, with_file: bool = True) -> list[dict[str, str]]:
    """One row per player with chips in the pot (see the module notes); the note says what
    was settled outside the pot."""
    rows = []
    note = _note(hand)
    for player in hand.players:
        if player.committed == 0 and player.won == 0:
            continue
        row = {"file": Path(hand.source).name} if with_file else {}
        rows.append(row | {
            "hand": hand.hand_id, "game": hand.game, "unit": hand.unit, "tournament": hand.tournament or NO_TOURNAMENT,
            "all_in": hand.all_in_street or "", "board": hand.all_in_board,
            "player": player.name,
            "committed": _money(hand, player.committed),
            "won": _money(hand, player.won),
            "all_in_ev": _money(hand, player.all_in_ev),
            "luck": _money(hand, player.luck),
            "note": note,
        })
    return rows


def player_rows(summaries: list[PlayerSummary]) -> list[dict[str, str | int]]:
    """One row per player, unit and tournament: hands, all-in hands, net won, net all-in EV,
    luck; and ``outside_pot`` (money settled with the room outside the pot) when a player has
    some."""
    outside = any(summary.outside_pot for summary in summaries)
    return [{
        "player": summary.name, "unit": summary.unit, "tournament": summary.tournament or NO_TOURNAMENT,
        "hands": summary.hand_count, "all_in_hands": summary.all_in_hand_count,
        "net_won": format_amount(summary.net_won, summary.unit),
        "net_all_in_ev": format_amount(summary.net_all_in_ev, summary.unit),
        "luck": format_amount(summary.luck, summary.unit),
    } | ({"outside_pot": format_amount(summary.outside_pot, summary.unit)} if outside else {})
        for summary in summaries]


def _exact(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def hand_json(hand: HandEV) -> dict[str, Any]:
    """One hand as JSON-ready data: amounts in chips of the hand's smallest unit
    (``chip_value`` gives one chip's value in ``unit``: ``"1/100"`` for cents), EVs and luck as
    floats and as exact fractions (``"39288250/247"``); players with chips in the pot."""
    return {
        "source": hand.source, "hand_id": hand.hand_id, "game": hand.game, "unit": hand.unit,
        "tournament": hand.tournament, "chip_value": str(hand.chip_value),
        "all_in_street": hand.all_in_street, "all_in_board": hand.all_in_board,
        "evaluated": hand.evaluated, "note": _note(hand),
        "players": [{
            "name": player.name, "committed": player.committed, "won": player.won,
            "all_in_ev": None if player.all_in_ev is None else float(player.all_in_ev),
            "all_in_ev_exact": _exact(player.all_in_ev),
            "luck": None if player.luck is None else float(player.luck),
            "luck_exact": _exact(player.luck),
        } | ({} if player.outside_pot is None else {
            "outside_pot": {"kind": player.outside_pot.kind, "paid": player.outside_pot.paid,
                            "received": player.outside_pot.received},
            "took_home": player.took_home,
            "outside_pot_against_ev_exact": _exact(player.outside_pot_against_ev),
        }) for player in hand.players if player.committed or player.won],
    }


def players_json(summaries: list[PlayerSummary]) -> list[dict[str, Any]]:
    """The per-player summary as JSON-ready data, amounts in ``unit``."""
    return [{
        "name": summary.name, "unit": summary.unit, "tournament": summary.tournament,
        "hands": summary.hand_count, "all_in_hands": summary.all_in_hand_count,
        "net_won": float(summary.net_won), "net_won_exact": str(summary.net_won),
        "net_all_in_ev": float(summary.net_all_in_ev), "net_all_in_ev_exact": str(summary.net_all_in_ev),
        "luck": float(summary.luck), "luck_exact": str(summary.luck),
        "outside_pot": float(summary.outside_pot), "outside_pot_exact": str(summary.outside_pot),
    } for summary in summaries]


def _error_json(error: HandHistoryError) -> dict[str, Any]:
    return {"source": error.source, "hand_id": error.hand_id, "line": error.line_number, "reason": error.reason}


def _duplicate_json(duplicate: DuplicateHand) -> dict[str, Any]:
    return {"source": duplicate.source, "hand_id": duplicate.hand_id, "line": duplicate.line_number,
            "first_source": duplicate.first_source, "first_line": duplicate.first_line}


class SessionWriter:
    """Writes a session's results to ``out`` as they come (:meth:`add`), the rest at
    :meth:`finish`; bad hands and duplicates go to ``err``, one line each, as they come (a hand
    found many times is named once, its later copies counted in one line at the end).

    ``format_name`` is ``table``, ``csv`` or ``json``; ``style`` the tabulate style.
    """

    def __init__(self, out: TextIO, err: TextIO, format_name: str = "table", *, all_hands: bool = False,
                 style: str = "simple"):
        self.out = out
        self.err = err
        self.format_name = format_name
        self.all_hands = all_hands
        self.style = style
        self.totals = SessionTotals()
        self.problems: dict[str, list[dict[str, Any]]] = {"failures": [], "skipped": [], "cancelled": [],
                                                           "duplicates": []}
        self._table_rows: list[dict[str, str]] = []
        self._table_hands = 0
        self._table_source: str | None = None
        self._listed = 0
        self._csv: csv.DictWriter | None = None
        # duplicates named on stderr: one line per distinct hand, the later copies only counted
        self._duplicates_named: set[tuple] = set()
        self._duplicates_unnamed = 0
        if format_name == "json":
            out.write('{\n"hands": [')

    def add(self, result: SessionResult) -> None:
        self.totals.add(result)
        if isinstance(result, DuplicateHand):
            self._keep("duplicates", _duplicate_json, result)
            key = (result.first_source, result.first_line, result.hand_id)
            if key in self._duplicates_named:
                self._duplicates_unnamed += 1
            else:
                self._duplicates_named.add(key)
                self._say(f"duplicate: {result}")
        elif isinstance(result, NotOmahaError):
            self._keep("skipped", _error_json, result)
        elif isinstance(result, CancelledHandError):
            self._keep("cancelled", _error_json, result)
        elif isinstance(result, HandHistoryError):
            self._keep("failures", _error_json, result)
            self._say(f"error: {result}")
        elif listed(result, self.all_hands):
            self._hand(result)

    def _keep(self, kind: str, as_json, result) -> None:
        # only JSON lists them at the end; the other formats hold nothing per hand
        if self.format_name == "json":
            self.problems[kind].append(as_json(result))

    def _say(self, line: str) -> None:
        self.err.write(line + "\n")
        self.err.flush()

    def _hand(self, hand: HandEV) -> None:
        if self.format_name == "json":
            self.out.write(("," if self._listed else "") + "\n" + json.dumps(hand_json(hand)))
        elif self.format_name == "csv":
            if self._csv is None:
                self._csv = csv.DictWriter(self.out, fieldnames=HAND_COLUMNS, lineterminator="\n")
                self._csv.writeheader()
            self._csv.writerows(hand_rows(hand))
        else:
            if self._table_source is not None and hand.source != self._table_source:
                self._flush_table()
            self._table_source = hand.source
            self._table_rows.extend(hand_rows(hand, with_file=False))
            self._table_hands += 1
            if self._table_hands == _TABLE_HANDS:
                self._flush_table()
        self._listed += 1
        self.out.flush()

    def _flush_table(self) -> None:
        if self._table_rows:
            kind = "every hand" if self.all_hands else "hands all in before the river"
            self.out.write(render_table(self._table_rows, title=f"{self._table_source}: {kind}",
                                        style=self.style) + "\n\n")
        self._table_rows, self._table_hands = [], 0

    def finish(self, summary_file: str | None = None) -> None:
        """The rest: the per-player summary (to ``summary_file`` when given, in the same
        format), JSON's closing fields; then the counts line on ``err``."""
        summaries = self.totals.players.summaries()
        if self.format_name == "json":
            tail = {"players": players_json(summaries), "counts": self.totals.counts()} | self.problems
            body = json.dumps(tail, indent=2)
            self.out.write("\n],\n" + body[2:] + "\n")  # the tail's fields inside the same object
        elif self.format_name == "csv":
            if self._csv is None:
                self.out.write(",".join(HAND_COLUMNS) + "\n")  # no rows: the header still says the table
        else:
            self._flush_table()
            if not self._listed:
                kind = "Every hand" if self.all_hands else "Hands all in before the river"
                self.out.write(f"{kind}: none\n\n")
            if summary_file is None:
                self.out.write(summary_report(summaries, "table", self.style))
        self.out.flush()
        if summary_file is not None:
            write_summary(summary_file, summaries, self.format_name, self.style)
        if self._duplicates_unnamed:
            copies = "copy" if self._duplicates_unnamed == 1 else "copies"
            self._say(f"duplicate: {self._duplicates_unnamed:,} more {copies} of the hands named above, counted once")
        self._say(self.totals.counts_line())


def summary_report(summaries: list[PlayerSummary], format_name: str, style: str = "simple") -> str:
    """The per-player summary alone: a CSV table, a JSON list, or a text table."""
    if format_name == "csv":
        rows = player_rows(summaries)
        return render_csv(rows) + "\n" if rows else ",".join(PLAYER_COLUMNS) + "\n"
    if format_name == "json":
        return render_json(players_json(summaries)) + "\n"
    if not summaries:
        return "Players: none (no hand replayed, or no player names in the files)\n"
    return render_table(player_rows(summaries), title="Players (net won, net all-in EV, luck)", style=style) + "\n"


def write_summary(path: str, summaries: list[PlayerSummary], format_name: str, style: str = "simple") -> None:
    """The per-player summary written to ``path`` whole or not at all (a temporary file
    renamed)."""
    write_atomically(path, summary_report(summaries, format_name, style))


def check_summary_path(path: str | Path) -> None:
    """A summary file must be a file name in a folder that exists.

    Raises
    ------
    InputError
        No such folder, or a folder given as the file.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"bad summary file {str(path)!r}: no such folder {str(folder)!r}")
    if target.is_dir():
        raise InputError(f"bad summary file {str(path)!r}: a folder, expected a file name")
