"""Pieces the studies share: hand lists for the kernels, and results from kernel counts.

Seeds, thread counts and the choice of method come from the equity query plan
(``equity.plan``: ``plan_query``, ``draw_seed``; ``threads.use_threads``)."""

from __future__ import annotations

import itertools

import numpy as np

from ..cards import DECK_SIZE, RANKS, SUITS
from ..equity.players import DEALT, FIXED, Seat
from ..equity.results.equity import EquityResult, PlayerEquity
from ..equity.range_equity import all_known_cards
from ..games import Game


_CARD_TEXT = np.array([RANKS[card >> 2] + SUITS[card & 3] for card in range(DECK_SIZE)])


def hand_labels(hands: np.ndarray) -> list[str]:
    """Canonical text of many hands at once ((n, hole_count) int8 -> n strings, as
    ``cards.format_cards(hand, sort=True)``: cards descending)."""
    ordered = -np.sort(-np.asarray(hands, dtype=np.int16), axis=1)
    return ["".join(row) for row in _CARD_TEXT[ordered].tolist()]


def seat_hand_list(seat: Seat, available: list[int], hole_count: int) -> np.ndarray:
    """Every hand a seat may hold, (n, hole_count) int8, cards descending within a hand: a fixed
    hand, every completion of a partial or random hand from ``available``, or a range's hands."""
    if seat.kind == FIXED:
        return np.array([sorted(seat.known_cards, reverse=True)], dtype=np.int8)
    if seat.kind == DEALT:
        missing = hole_count - len(seat.known_cards)
        hands = [sorted(seat.known_cards + rest, reverse=True) for rest in itertools.combinations(available, missing)]
        return np.array(hands, dtype=np.int8).reshape(-1, hole_count)
    return np.asarray(seat.hands, dtype=np.int8)


def available_cards(seats: list[Seat], board, dead) -> list[int]:
    """Cards not known to anyone, ascending."""
    known = set(all_known_cards(seats, board, dead))
    return [card for card in range(DECK_SIZE) if card not in known]


def player_equity(hand: str, counts_row, units: int, sample_count: int, weight_total: int,
                  square_sum: int | None = None) -> PlayerEquity:
    """A :class:`PlayerEquity` from one player's kernel counts (``equity._kernels`` STATS
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

