"""Pieces the studies share: hand lists for the kernels, and results from kernel counts.

Seeds, thread counts and the choice of method come from the equity query plan
(``equity.plan``: ``plan_query``, ``draw_seed``; ``threads.use_threads``)."""

from __future__ import annotations

import numpy as np

from ..cards import DECK_SIZE, RANKS, SUITS
from ..equity.results.equity import EquityResult, PlayerEquity
from ..games import Game


_CARD_TEXT = np.array([(RANKS[card >> 2] + SUITS[card & 3]).encode("ascii") for card in range(DECK_SIZE)], dtype="S2")


def hand_labels(hands: np.ndarray) -> list[str]:
    """Canonical text of many hands at once ((n, hole_count) int8 -> n strings, as
    ``cards.format_cards(hand, sort=True)``: cards descending): each row's two-byte card texts
    read as one string, without a Python string per card (678,792 6-card hands: 0.7 s, where
    joining the cards' strings took 2.7 s; both measured on a busy machine)."""
    ordered = -np.sort(-np.asarray(hands, dtype=np.int16), axis=1)
    if not ordered.size:
        return [""] * ordered.shape[0]
    width = 2 * ordered.shape[1]
    rows = np.ascontiguousarray(_CARD_TEXT[ordered]).view(f"S{width}").reshape(-1)
    return rows.astype(f"U{width}").tolist()


def player_equity(hand: str, counts_row, units: int, sample_count: int, weight_total: int,
                  square_sum: int | None = None) -> PlayerEquity:
    """A :class:`PlayerEquity` from one player's kernel counts (``equity.counters`` STATS
    order); exact when ``square_sum`` is None, Monte Carlo (with its standard error) otherwise."""
    return PlayerEquity.from_counts(hand, counts_row, units, sample_count, weight_total,
                                    None if square_sum is None else int(square_sum))


def exact_result(game: Game, hands: tuple[str, ...], board: str, dead: str, counts, units: int, sample_count: int,
                 weight_total: int, low_boards: int) -> EquityResult:
    """An exact :class:`EquityResult` from summed kernel counts ``(players, STAT_COUNT)``."""
    players = tuple(player_equity(hand, counts[player], units, sample_count, weight_total)
                    for player, hand in enumerate(hands))
    return EquityResult(game=game, hands=hands, board=board, dead=dead, method="exact", sample_count=sample_count,
                        seed=None, players=players, low_board_count=low_boards, weight_total=weight_total)

