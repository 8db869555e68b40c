"""What each command shows: results turned into rows, titles and JSON data for ``render``.

Kept apart from the CLI so the Python API can produce the same CSV/JSON/table text
(``equity_report(result, "csv")``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from math import comb
from typing import Any

import numpy as np

from ..cards import RANKS, SUITS, format_cards
from ..equity.results.expected_chips import AllinResult
from ..equity.plan import Method
from ..equity.results.equity import EquityResult
from ..equity.results.table_rows import equity_rows
from ..errors import InputError
from ..validate import is_whole_number
from ..evaluate.showdown import Showdown
from .render import percent, render

# What the hi/lo table shows: ``win`` is the same number as ``scoop`` (the whole pot alone), so
# the table names it as hi/lo players do; ``has_low`` is left to CSV and JSON for width.
_HILO_TABLE_COLUMNS = ("equity", "equity_high", "equity_low", "scoop", "split", "tie", "hi_win", "hi_tie", "lo_win",
                       "lo_tie", "quartered")
_TABLE_HEADERS = {"equity_high": "eq. high", "equity_low": "eq. low"}


def _count(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def method_text(result: EquityResult | AllinResult) -> str:
    """``exact enumeration of 44 boards``; with ranges, deals and boards apart:
    ``exact enumeration of 15,912,240 deals (361,641 hand combinations x 44 boards)``."""
    if result.method == Method.EXACT:
        if result.hand_combinations in (None, 1):
            return f"exact enumeration of {_count(result.sample_count, 'board')}"
        return (f"exact enumeration of {_count(result.sample_count, 'deal')} "
                f"({_count(result.hand_combinations, 'hand combination')} x {_count(result.board_count, 'board')})")
    if result.hand_combinations == 1:
        return f"Monte Carlo, {_count(result.sample_count, 'board')}, seed {result.seed}"
    return f"Monte Carlo, {_count(result.sample_count, 'deal')} of hands and board, seed {result.seed}"


def equity_title(result: EquityResult) -> str:
    """The header line: game, board, dead cards, method and counts, and any partial hands."""
    board = result.board or "(none)"
    dead = f" | dead: {result.dead}" if result.dead else ""
    title = f"{result.game.title} | board: {board}{dead} | {method_text(result)}"
    return title + partial_hands_line(result.game, [player.hand for player in result.players],
                                      [player.random_card_count for player in result.players])


def partial_hands_line(game, hands: list[str], random_card_counts: list[int]) -> str:
    """``"\npartial hands completed at random: AsKdQd2s+1 (1 card dealt at random)"`` for the
    hands with some but not all cards dealt at random, or "" when there are none."""
    partial = [f"{hand} ({_count(count, 'card')} dealt at random)"
               for hand, count in zip(hands, random_card_counts) if 0 < count < game.hole_count]
    return "\npartial hands completed at random: " + ", ".join(partial) if partial else ""


def _standard_error_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.3f}"


def _table_rows(rows: list[dict[str, Any]], columns: tuple[str, ...], exact: bool) -> list[dict[str, Any]]:
    """The players' rows as a table shows them: player, hand, ``columns`` (headers renamed by
    ``_TABLE_HEADERS``), then the exact fraction or the standard error."""
    table_rows = []
    for row in rows:
        shown = {"player": row["player"], "hand": row["hand"]}
        shown.update((_TABLE_HEADERS.get(key, key), row[key]) for key in columns)
        if exact:
            shown["exact"] = row["equity_exact"]
        else:
            shown["± s.e."] = _standard_error_text(row["standard_error"])
        table_rows.append(shown)
    return table_rows


def equity_report(result: EquityResult, format_name: str = "table", style: str = "simple") -> str:
    """The result as ``table``, ``csv`` or ``json`` text."""
    rows = equity_rows(result)
    if format_name == "table":
        exact = result.method == Method.EXACT
        columns = _HILO_TABLE_COLUMNS if result.game.hilo else ("equity", "win", "tie")
        table_rows = _table_rows(rows, columns, exact)
        footer = None
        if result.game.hilo:
            footer = (f"low possible: {percent(result.low_possible)} of boards; no low (the high takes the whole "
                      f"pot): {percent(result.no_low)}")
        if not exact and not result.standard_errors_defined:
            note = "s.e. n/a: a standard error needs at least 2 samples"
            footer = f"{footer}\n{note}" if footer else note
        percent_columns = [_TABLE_HEADERS.get(key, key) for key in columns]
        return render("table", table_rows, None, percent_columns=percent_columns,
                      title=equity_title(result), footer=footer, style=style)
    return render(format_name, rows, result.to_dict())


def _players_text(indexes) -> str:
    if not indexes:
        return "nobody"
    numbers = [str(index + 1) for index in indexes]
    return ("player " if len(numbers) == 1 else "players ") + ", ".join(numbers)


def showdown_rows(showdown: Showdown) -> list[dict[str, Any]]:
    """One row per player: hands read, cards used and share of the pot (exact fraction)."""
    rows = []
    for number, (reading, share) in enumerate(zip(showdown.readings, showdown.shares), start=1):
        row: dict[str, Any] = {
            "player": number,
            "hand": format_cards(reading.hole_cards, sort=True),
            "high": reading.high.description,
            "high_cards": reading.high.cards_text,
        }
        if showdown.game.hilo:
            row["low"] = reading.low.description if reading.low else "no low"
            row["low_cards"] = reading.low.cards_text if reading.low else ""
        row["share"] = str(share)
        rows.append(row)
    return rows


def showdown_data(showdown: Showdown) -> dict[str, Any]:
    players = []
    for reading, share in zip(showdown.readings, showdown.shares):
        entry: dict[str, Any] = {
            "hand": format_cards(reading.hole_cards, sort=True),
            "high": {
                "category": reading.high.category,
                "description": reading.high.description,
                "cards": format_cards(reading.high.cards),
                "hole_cards": format_cards(reading.high.hole_cards),
                "board_cards": format_cards(reading.high.board_cards),
            },
            "share": str(share),
        }
        if showdown.game.hilo:
            entry["low"] = None if reading.low is None else {
                "category": reading.low.category,
                "description": reading.low.description,
                "cards": format_cards(reading.low.cards),
                "hole_cards": format_cards(reading.low.hole_cards),
                "board_cards": format_cards(reading.low.board_cards),
            }
        players.append(entry)
    return {
        "game": showdown.game.name,
        "board": format_cards(showdown.board),
        "high_winners": [index + 1 for index in showdown.high_winners],
        "low_winners": [index + 1 for index in showdown.low_winners],
        "players": players,
    }


def showdown_report(showdown: Showdown, format_name: str = "table", style: str = "simple") -> str:
    """The showdown as ``table``, ``csv`` or ``json`` text (players numbered from 1)."""
    title = f"{showdown.game.title} | board: {format_cards(showdown.board)}"
    footer = f"high: {_players_text(showdown.high_winners)}"
    if showdown.game.hilo:
        footer += f"; low: {_players_text(showdown.low_winners) if showdown.low_winners else 'no qualifying low'}"
    return render(format_name, showdown_rows(showdown), showdown_data(showdown),
                  title=title, footer=footer, style=style)


# ``range -f csv/json`` lists every hand (omaha6 '*' has 20,358,520): written in pieces of this
# many hands, so memory stays flat whatever the range's size.
RANGE_PIECE_HANDS = 1 << 16
# The table prints a sample of the range (``--sample``), built in memory: at most this many.
MAX_TABLE_SAMPLE = 10_000
# Each card's two ASCII characters, by card number (``As`` for 51).
_CARD_BYTES = np.array([[ord(RANKS[card >> 2]), ord(SUITS[card & 3])] for card in range(52)], dtype=np.uint8)


def range_report(hand_range, game, excluded_text: str, format_name: str = "table", sample_size: int = 20,
                 style: str = "simple") -> str:
    """A range's size and hands as one text: the table shows ``sample_size`` hands spread
    evenly over the range (canonical order); CSV and JSON list every hand with its weight
    (:func:`range_pieces` joined; the command line writes the pieces as they come).

    Raises
    ------
    InputError
        A table ``sample_size`` outside 1..``MAX_TABLE_SAMPLE``.
    """
    if format_name != "table":
        return "".join(range_pieces(hand_range, game, excluded_text, format_name)).rstrip("\n")
    if not is_whole_number(sample_size) or not 1 <= sample_size <= MAX_TABLE_SAMPLE:
        raise InputError(f"bad sample size {sample_size!r}: expected 1..{MAX_TABLE_SAMPLE:,} hands (-f csv or "
                         "-f json lists every hand)")
    sample_size = int(sample_size)
    total = comb(52, game.hole_count)
    step = max(1, hand_range.size // sample_size)
    indexes = range(0, hand_range.size, step)[:sample_size]
    shown = [{"hand": format_cards(hand_range.hands[index], sort=True), "weight": f"{hand_range.weights[index]:g}"}
             for index in indexes]
    removed = f" after removing {excluded_text}" if excluded_text else ""
    noun = "hand" if hand_range.size == 1 else "hands"
    title = (f"{hand_range.expression!r} in {game.title}: {hand_range.size:,} {noun} of {total:,} "
             f"({hand_range.size / total:.2%}){removed}")
    footer = (f"showing {len(shown)} of {hand_range.size:,} (one in every {step:,}); -f csv or -f json lists "
              "them all" if len(shown) < hand_range.size else None)
    return render("table", shown, None, title=title, footer=footer, style=style)


def _rows_text(hands: np.ndarray, weights: np.ndarray, prefix: bytes, middle: bytes, suffix: bytes) -> str:
    """``prefix + hand + middle + weight + suffix`` for each hand, as one text.

    Hands are (n, hole_count) int8, cards descending (``HandRange`` order); weights print as
    Python prints a float (``1.0``), as the csv and json modules do. A piece whose weights are
    all equal (the usual case) is laid out as one byte array, without a Python loop."""
    count, hole_count = hands.shape
    hand_bytes = _CARD_BYTES[hands.astype(np.intp)].reshape(count, 2 * hole_count)
    if count and (weights == weights[0]).all():
        parts = [np.frombuffer(prefix, np.uint8), None, np.frombuffer(middle, np.uint8),
                 np.frombuffer(repr(float(weights[0])).encode(), np.uint8), np.frombuffer(suffix, np.uint8)]
        width = sum(len(part) for part in parts if part is not None) + 2 * hole_count
        layout = np.empty((count, width), dtype=np.uint8)
        column = 0
        for part in parts:
            if part is None:
                layout[:, column:column + 2 * hole_count] = hand_bytes
                column += 2 * hole_count
            else:
                layout[:, column:column + len(part)] = part
                column += len(part)
        return layout.tobytes().decode("ascii")
    texts = hand_bytes.view(f"S{2 * hole_count}").ravel().tolist()
    start, between, end = prefix.decode(), middle.decode(), suffix.decode()
    return "".join(f"{start}{text.decode()}{between}{weight!r}{end}" for text, weight in zip(texts, weights.tolist()))


def range_pieces(hand_range, game, excluded_text: str, format_name: str) -> Iterator[str]:
    """The CSV (``hand,weight``) or JSON text of every hand of a range, in pieces of
    ``RANGE_PIECE_HANDS`` hands, ending with a newline: write each as it comes.

    The JSON is the object of the README ("Output formats"), one hand per line."""
    size = hand_range.size
    if format_name == "json":
        head = json.dumps({"expression": hand_range.expression, "game": game.name, "excluded": excluded_text,
                           "size": size, "of": comb(52, game.hole_count)}, indent=2)
        yield head[:-2] + ',\n  "hands": [' + ("\n" if size else "")
        prefix, middle, suffix = b'    {"hand": "', b'", "weight": ', b'},\n'
    else:
        yield "hand,weight\n"
        prefix, middle, suffix = b"", b",", b"\n"
    for start in range(0, size, RANGE_PIECE_HANDS):
        stop = min(start + RANGE_PIECE_HANDS, size)
        text = _rows_text(hand_range.hands[start:stop], hand_range.weights[start:stop], prefix, middle, suffix)
        if format_name == "json" and stop == size:
            text = text[:-2] + "\n"  # no comma after the last hand
        yield text
    if format_name == "json":
        yield "  ]\n}\n"


def rank_report(ranking, game, format_name: str = "table", style: str = "simple") -> str:
    """A hand's place in the starting-hand ranking (``rankings.HandRanking``)."""
    info = ranking.info
    row = {
        "hand": ranking.hand,
        "top_percent": ranking.percentile,
        "better_percent": ranking.better_percent,
        "class_rank": ranking.class_rank,
        "class_count": ranking.class_count,
        "class_size": ranking.class_size,
        "equity": ranking.equity,
        "ranking": f"{info.game} {info.table}",
        "opponents": info.opponent_count,
        "samples_per_class": info.sample_count,
    }
    if format_name != "table":
        return render(format_name, [row], row)
    title = (f"{game.title} | ranking {info.game} {info.table}: equity against {info.opponent_count} random hands "
             f"on a random board")
    shown = [{
        "hand": ranking.hand,
        "top": f"{ranking.percentile:.3f}%",
        "class": f"{ranking.class_rank:,} of {ranking.class_count:,}",
        "equity": percent(ranking.equity),
        "opponents": info.opponent_count,
    }]
    footer = (f"top: share of all hands ranked at least as good; {info.sample_count:,} Monte Carlo deals per class "
              f"(hands up to suit relabelling), seed {info.seed}; percent ranges such as '15%' use this ranking")
    return render("table", shown, None, title=title, footer=footer, style=style)


def board_range_rows(result) -> list[dict[str, Any]]:
    """``calc -b BOARDRANGE``: one row per player (the CSV columns) of a
    :class:`~omaha_equity.studies.board_ranges.BoardRangeEquity`: ``board_range`` and ``flops``
    (the concrete flops covered) and ``runs``."""
    from ..studies.board_ranges import board_range_equity_rows

    rows = []
    for row in board_range_equity_rows(result):
        row = dict(row)
        row["board_range"] = row.pop("board")
        row["flops"] = row.pop("sample_count")
        seed = row.pop("seed")
        row.update(runs=result.runs, seed=seed)
        rows.append(row)
    return rows


def board_range_data(result) -> dict[str, Any]:
    """``calc -b BOARDRANGE`` as JSON-ready data."""
    return {
        "game": result.game.name, "game_title": result.game.title, "board_range": result.board_range,
        "dead": result.dead, "method": result.method, "flops": result.flops, "runs": result.runs,
        "seed": result.seed,
        "players": [{key: value for key, value in row.items()
                     if key not in ("player", "game", "board_range", "dead", "method", "flops", "runs", "seed")}
                    for row in board_range_rows(result)],
    }


def board_range_report(result, format_name: str = "table", style: str = "simple") -> str:
    """``calc -b BOARDRANGE`` (a :class:`~omaha_equity.studies.board_ranges.BoardRangeEquity`)
    as ``table``, ``csv`` or ``json`` text: each player's equity on a flop dealt at random from
    the board range, and the flops it covered."""
    from .board_ranges import coverage_text

    rows = board_range_rows(result)
    if format_name != "table":
        return render(format_name, rows, board_range_data(result))
    exact = result.method == Method.EXACT
    columns = ("equity", "equity_high", "equity_low", "scoop", "tie") if result.game.hilo else ("equity", "win", "tie")
    table_rows = _table_rows(rows, columns, exact)
    dead = f" | dead: {result.dead}" if result.dead else ""
    method = "exact enumeration" if exact else f"Monte Carlo, seed {result.seed}"
    title = (f"{result.game.title} | board range: {result.board_range}{dead} | "
             f"{coverage_text(result.flops, result.runs)} | {method}")
    footer = "each concrete flop of the board range that the hands leave weighs the same"
    return render("table", table_rows, None, percent_columns=[_TABLE_HEADERS.get(key, key) for key in columns],
                  title=title, footer=footer, style=style)
