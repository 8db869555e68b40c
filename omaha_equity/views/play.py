"""What ``omaha-equity play`` shows: each replayed hand's history and settlement, as a table or
JSON (amounts in the file's unit).

JSON of one hand: ``players`` (each ``player`` ``p1``.., ``name``, ``starting_stack``,
``contributed``, ``pots_won`` (one amount per pot, main pot first), ``finishing_stack``),
``pots`` (amount, rake, eligible players, winners of each half), ``finishing_stacks`` (p1
first), and whether they match the file's ``finishing_stacks``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ..cards import format_cards
from .render import render_json, render_table
from ..hand_history.notation import Amount
from ..hand_history.replay import Replay


def _number(value: Amount) -> int | float:
    """JSON has no decimals: whole amounts as ints, fractional ones as floats."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _label(player_index: int) -> str:
    return f"p{player_index + 1}"


def hand_data(replay: Replay, label: str | None = None) -> dict[str, Any]:
    """One replayed hand as a JSON-ready dict (see the module docstring)."""
    hand = replay.hand
    hand_history = replay.hand_history
    amount = replay.to_amount
    names = hand_history.players or ("",) * hand.seat_count
    data: dict[str, Any] = {"hand": label, "variant": hand_history.variant, "game": hand.game.name,
                            "complete": replay.complete}
    if replay.incomplete_reason:
        data["incomplete_reason"] = replay.incomplete_reason
    settlement = replay.settlement
    players = []
    for seat in range(hand.seat_count):
        won = settlement.players[seat].won if settlement else ()
        players.append({
            "player": _label(seat), "name": names[seat],
            "starting_stack": _number(amount(hand.starting_stacks[seat])),
            "contributed": _number(amount(hand.contributed[seat])),
            "pots_won": [_number(amount(chips)) for chips in won],
            "finishing_stack": _number(amount(hand.stacks[seat])),
        })
    data["players"] = players
    data["pots"] = [{
        "pot": pot.name, "amount": _number(amount(pot.amount)), "rake": _number(amount(pot.rake)),
        "eligible": [_label(seat) for seat in pot.eligible],
        "runs": [{"board": format_cards(run.board), "high_winners": [_label(seat) for seat in run.high_winners],
                  "low_winners": [_label(seat) for seat in run.low_winners]} for run in pot.runs],
    } for pot in (settlement.pots if settlement else ())]
    data["finishing_stacks"] = [_number(value) for value in replay.finishing_stacks]
    data["finishing_stacks_match"] = replay.finishing_stacks_match
    return data


def settlement_rows(replay: Replay) -> list[dict[str, Any]]:
    """One row per player: stack before, put in, won from each pot, stack after."""
    data = hand_data(replay)
    pot_names = [pot["pot"] for pot in data["pots"]]
    rows = []
    for player in data["players"]:
        row: dict[str, Any] = {"player": player["player"]}
        if player["name"]:
            row["name"] = player["name"]
        row["stack before"] = player["starting_stack"]
        row["put in"] = player["contributed"]
        for pot_name, won in zip(pot_names, player["pots_won"]):
            row[pot_name] = won
        row["stack after"] = player["finishing_stack"]
        rows.append(row)
    return rows


def _check_line(replay: Replay) -> str | None:
    match = replay.finishing_stacks_match
    if match is None:
        return None
    if match:
        return "finishing stacks: as in the file"
    expected = ", ".join(str(value) for value in replay.hand_history.finishing_stacks)
    return f"finishing stacks differ from the file's: [{expected}]"


def hand_text(replay: Replay, label: str | None = None, style: str = "simple") -> str:
    """The engine's history (every post, card, action and payout, the pots) and the settlement
    table."""
    lines = []
    if label is not None:
        lines.append(f"=== hand [{label}] ===")
    if replay.chip_scale != 1:
        lines.append(f"(the history counts in 1/{replay.chip_scale} of the file's unit)")
    lines.append(replay.history)
    if replay.incomplete_reason:
        lines.append(f"(hand not finished: {replay.incomplete_reason})")
    lines.append("")
    lines.append(render_table(settlement_rows(replay), style=style))
    check = _check_line(replay)
    if check:
        lines.append(check)
    return "\n".join(lines)


def play_report(replays: list[tuple[str | None, Replay | Exception]], format_name: str = "table",
                style: str = "simple") -> str:
    """Every hand of a file: tables one after the other, or JSON (one hand: its object; a
    ``.phhs`` file: ``{"hands": [...]}``, a hand that failed as ``{"hand", "error"}``)."""
    if format_name == "json":
        items = [{"hand": label, "error": str(result)} if isinstance(result, Exception) else hand_data(result, label)
                 for label, result in replays]
        if len(items) == 1 and replays[0][0] is None:
            return render_json(items[0])
        return render_json({"hands": items})
    blocks = [hand_text(result, label, style) for label, result in replays if not isinstance(result, Exception)]
    return "\n\n".join(blocks)
