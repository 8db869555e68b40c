"""The keys every result's JSON opens with (README "Output formats"): what was asked and how
it was answered, the same for equity and all-in results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...games import Game


@dataclass(frozen=True)
class QueryHeader:
    """The first fields of every result (``EquityResult``, ``AllinResult``): what was asked and
    how it was answered. The results' docstrings describe each field."""

    game: Game
    hands: tuple[str, ...]
    board: str
    dead: str
    method: str
    sample_count: int


def result_header(result: QueryHeader, hand_combinations: int | None, board_count: int | None,
                  seed: int | None) -> dict[str, Any]:
    """The game, hands, board, dead cards, method, deals, hand combinations, boards and seed of
    a result, as JSON-ready values in the order the JSON gives them."""
    return {
        "game": result.game.name,
        "game_title": result.game.title,
        "hands": list(result.hands),
        "board": result.board,
        "dead": result.dead,
        "method": result.method,
        "sample_count": result.sample_count,
        "hand_combinations": hand_combinations,
        "board_count": board_count,
        "seed": seed,
    }
