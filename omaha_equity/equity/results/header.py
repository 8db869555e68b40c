"""The keys every result's JSON opens with (README "Output formats"): what was asked and how
it was answered, the same for equity and all-in results."""

from __future__ import annotations

from typing import Any, Protocol

from ...games import Game


class QueryRecord(Protocol):
    """What a result reports of its query (``EquityResult``, ``AllinResult``)."""

    game: Game
    hands: tuple[str, ...]
    board: str
    dead: str
    method: str
    sample_count: int
    hand_combinations: int | None
    board_count: int | None
    seed: int | None


def result_header(result: QueryRecord) -> dict[str, Any]:
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
        "hand_combinations": result.hand_combinations,
        "board_count": result.board_count,
        "seed": result.seed,
    }
