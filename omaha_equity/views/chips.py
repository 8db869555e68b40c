"""What the ``allin`` command shows: an :class:`AllinResult` as table, CSV or JSON text.

Players are numbered from 1 in seat order (player 1 sits left of the button). Chips in CSV and
JSON are numbers (exact fractions as text, e.g. ``"118100/333"``); the table rounds to two
decimals.
"""

from __future__ import annotations

from typing import Any

from ..cards import NO_CARDS
from ..equity.results.expected_chips import AllinResult, pot_name
from ..equity.plan import Method
from .render import render
from .equity import method_text, partial_hands_line


def _column(index: int) -> str:
    return pot_name(index).replace(" ", "_")


def _exact_text(value) -> str:
    return "" if value is None else str(value)


def allin_rows(result: AllinResult) -> list[dict[str, Any]]:
    """One row per player (the CSV columns): chips expected from each pot (``main``,
    ``side_1``, ...), with ``_exact`` and ``_standard_error`` companions, the total
    (``expected``) and ``net`` (expected minus committed)."""
    rows = []
    for number, player in enumerate(result.players, start=1):
        row: dict[str, Any] = {"player": number, "hand": player.hand, "committed": player.committed}
        for index, chips in enumerate(player.pot_chips):
            column = _column(index)
            row[column] = chips
            row[f"{column}_exact"] = _exact_text(player.pot_chips_exact[index] if player.pot_chips_exact else None)
            row[f"{column}_standard_error"] = player.pot_standard_errors[index]
        row.update(
            expected=player.expected, expected_exact=_exact_text(player.expected_exact),
            standard_error=player.standard_error, net=player.net, net_exact=_exact_text(player.net_exact),
            game=result.game.name, board=result.board or NO_CARDS, dead=result.dead or NO_CARDS, method=result.method,
            sample_count=result.sample_count,
        )
        rows.append(row)
    return rows


def pots_text(result: AllinResult) -> str:
    """``main pot 303: players 1, 2, 3; side pot 1 400: players 1, 2``."""
    parts = []
    for index, pot in enumerate(result.pots):
        numbers = ", ".join(str(player + 1) for player in pot.eligible)
        noun = "player" if len(pot.eligible) == 1 else "players"
        name = "main pot" if index == 0 else f"side pot {index}"
        parts.append(f"{name} {pot.amount:,}: {noun} {numbers}")
    return "; ".join(parts)


def allin_report(result: AllinResult, format_name: str = "table", style: str = "simple") -> str:
    """The result as ``table``, ``csv`` or ``json`` text."""
    if format_name != "table":
        return render(format_name, allin_rows(result), result.to_dict())
    exact = result.method == Method.EXACT
    table_rows = []
    for number, player in enumerate(result.players, start=1):
        shown: dict[str, Any] = {"player": number, "hand": player.hand, "committed": f"{player.committed:,}"}
        for index, chips in enumerate(player.pot_chips):
            shown[pot_name(index)] = f"{chips:,.2f}"
        shown["expected"] = f"{player.expected:,.2f}"
        shown["net EV"] = f"{player.net:+,.2f}"
        if exact:
            shown["net exact"] = _exact_text(player.net_exact)
        else:
            shown["± s.e."] = "n/a" if player.standard_error is None else f"{player.standard_error:,.2f}"
        table_rows.append(shown)
    board = result.board or "(none)"
    dead = f" | dead: {result.dead}" if result.dead else ""
    title = f"{result.game.title} all in | board: {board}{dead} | {method_text(result)}" + partial_hands_line(
        result.game, [player.hand for player in result.players],
        [player.random_card_count for player in result.players])
    extras = []
    if result.folded:
        extras.append(f"folded chips {', '.join(f'{chips:,}' for chips in result.folded)}")
    if result.dead_money:
        extras.append(f"dead money {result.dead_money:,} in the main pot")
    footer = "pots: " + pots_text(result) + (f" ({'; '.join(extras)})" if extras else "")
    footer += "\nchips expected back from each pot; net EV = expected - committed; player 1 sits left of the button"
    return render("table", table_rows, None, title=title, footer=footer, style=style)
