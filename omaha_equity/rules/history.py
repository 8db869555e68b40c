"""A hand as readable text: the table, every action in order, and the settlement."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import format_cards
from .state import HandState


def _seats_text(hand: HandState, seats: Sequence[int]) -> str:
    return ", ".join(hand.names[seat] for seat in seats) if seats else "nobody"


def settlement_lines(hand: HandState) -> list[str]:
    """The settlement: each pot (amount, rake, eligible players, winners of each half on each
    run) and each player's account (stack before, put in, won from each pot, stack after)."""
    settlement = hand.settlement
    if settlement is None:
        return ["(hand not finished)"]
    lines = ["*** SUMMARY ***"]
    for pot in settlement.pots:
        rake = f", rake {pot.rake}" if pot.rake else ""
        lines.append(f"{pot.name.capitalize()} {pot.amount}{rake}; eligible: {_seats_text(hand, pot.eligible)}")
        for run in pot.runs:
            prefix = (f"  run {run.run_index + 1} [{format_cards(run.board, separator=' ')}]: "
                      if len(pot.runs) > 1 else "  ")
            if not settlement.showdown:
                lines.append(f"{prefix}{run.amount} to {_seats_text(hand, run.high_winners)} (no showdown)")
                continue
            text = f"high {_seats_text(hand, run.high_winners)}"
            if hand.game.hilo:
                text += f"; low {_seats_text(hand, run.low_winners) if run.low_winners else 'none (no qualifying low)'}"
            lines.append(f"{prefix}{run.amount}: {text}")
    if settlement.rake:
        lines.append(f"Rake {settlement.rake}")
    for player in settlement.players:
        won = " + ".join(str(chips) for chips in player.won) if len(player.won) > 1 else str(sum(player.won))
        lines.append(f"{hand.names[player.seat]}: stack {player.starting_stack}, put in {player.contributed}, "
                     f"won {won}, stack after {player.final_stack} ({player.net:+d})")
    return lines


def hand_history(hand: HandState) -> str:
    """Header, every action's line, and the settlement."""
    lines = [f"{hand.game.title}, {hand.structure.describe()}; button: {hand.names[hand.button]}"]
    for seat in range(hand.seat_count):
        lines.append(f"{hand.names[seat]}: {hand.starting_stacks[seat]} in chips")
    lines.extend(action.text for action in hand.actions)
    if hand.is_complete:
        lines.extend(settlement_lines(hand))
    return "\n".join(lines)
