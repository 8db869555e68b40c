"""What the ``pot-limit`` command shows: the call and the raise-to range as rows for ``render``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .render import render
from ..rules.sizing import table_raise_limits
from ..rules.streets import Street
from ..rules.structures import BettingStructure, FixedLimit


def sizing_row(structure: BettingStructure, *, pot: int, bets: Sequence[int], player_bet: int = 0,
               stack: int | None = None, street: Street | int = 0, blind_given: bool = True) -> dict[str, Any]:
    """The player to act's options as one row: ``call``, ``action`` (bet, raise, complete or
    ``none``), ``min_raise_to`` and ``max_raise_to`` (None when no raise is possible;
    ``max_raise_to`` None in no limit without a stack: all-in). ``blind_given`` False: the
    structure's minimum bet is a placeholder, not shown."""
    street = Street.of(street)
    call, limits = table_raise_limits(structure, pot=pot, bets=bets, player_bet=player_bet, stack=stack, street=street)
    row: dict[str, Any] = {
        "structure": structure.kind.value,
        "pot": pot,
        "bets": ",".join(str(bet) for bet in bets),
        "own_bet": player_bet,
        "stack": stack,
        "big_blind": structure.min_bet if blind_given and not isinstance(structure, FixedLimit) else None,
    }
    if isinstance(structure, FixedLimit):
        row.update(small_bet=structure.small_bet, big_bet=structure.big_bet, round=street.value)
    row.update(call=call, action=limits.kind.value if limits else "none",
               min_raise_to=limits.minimum if limits else None,
               max_raise_to=limits.maximum if limits else None)
    return row


def sizing_report(row: dict[str, Any], format_name: str = "table", style: str = "simple") -> str:
    """The row of :func:`sizing_row` as ``table``, ``csv`` or ``json`` text."""
    if format_name != "table":
        return render(format_name, [row], row)
    bets = row["bets"] or "none"
    structure = row["structure"] if "round" not in row else f"{row['structure']} {row['small_bet']}/{row['big_bet']}"
    title = f"{structure} | pot {row['pot']} | bets on the table: {bets} | own bet {row['own_bet']}"
    if row["stack"] is not None:
        title += f" | stack {row['stack']}"
    if row["big_blind"] is not None and "round" not in row:
        title += f" | big blind {row['big_blind']}"
    if "round" in row:
        title += f" | {row['round']}"
    maximum = row["max_raise_to"]
    shown = {
        "call": row["call"],
        "action": row["action"],
        "min_to": "-" if row["min_raise_to"] is None else row["min_raise_to"],
        "max_to": "-" if row["min_raise_to"] is None else ("all-in" if maximum is None else maximum),
    }
    footer = None
    if row["action"] == "none":
        footer = "no raise possible: the betting is capped, or the stack does not cover more than the call"
    elif row["big_blind"] is None and "round" not in row:  # fixed limit sizes need no blind
        footer = ("the minimum raise takes the largest step between the bets as the last full raise; "
                  "give --blind for the big blind (pre-flop, it is the minimum raise)")
    return render("table", [shown], None, title=title, footer=footer, style=style)
