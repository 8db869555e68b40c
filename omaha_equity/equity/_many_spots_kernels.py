"""The compiled kernel of many small exact queries of fixed hands at once (``many_spots``).

One call takes arrays of spots of one shape (players, hole cards, known board cards, dead
cards) and returns each spot's counts: every completion of its board is dealt and scored board
by board, each hand evaluated from the evaluator's tables directly (``evaluate._kernels``:
:func:`hole_features` once per hand, :func:`hand_values` per board) and the pot split with the
fixed-hand kernels' own scoring (``fixed._kernels.score_board``). No per-player rows are built: for
the boards of a river, turn or flop they cost more than the boards themselves (a river query
spent most of its time building them).

The counts are exact integers, the same as ``fixed._kernels.enumerate_boards`` followed by
``fixed._kernels.score_outcomes`` gives for the same spot (``tests/test_small_queries.py`` compares
them), whatever spots share the call.
"""

from __future__ import annotations

import numpy as np

from ..evaluate._kernels import board_features, hands_values, hole_features, next_combination
from ..runtime.numba import helper, kernel, threaded_kernel
from .fixed._kernels import STAT_COUNT, score_board
from .lists._kernels import undealt_deck

DECK_SIZE = 52
BOARD_SIZE = 5


@helper
def score_spot(hole_cards, board_cards, dead_cards, colex, pair_board, flush, low, hilo, units, counts):
    """Every completion of one spot's board, scored into ``counts``.

    Parameters
    ----------
    hole_cards : (player_count, hole_count) int8
        The spot's hands, cards 0..51 (``rank * 4 + suit``).
    board_cards : (known_count,) int8
        Its known board cards (0..5).
    dead_cards : (dead_count,) int8
        Its dead cards (possibly none).
    colex, pair_board, flush, low : the arrays of ``evaluate.tables.Tables``.
    hilo : bool
    units : int, pot units (``pots.pot_units``).
    counts : (player_count, STAT_COUNT) int64
        Added to, in ``counters`` layout (equity in pot units, the rest in boards).

    Returns
    -------
    int
        Boards on which some player has a qualifying low.
    """
    player_count, hole_count = hole_cards.shape
    known_count = board_cards.shape[0]
    dealt_count = BOARD_SIZE - known_count
    pair_indexes = np.empty((player_count, hole_count * (hole_count - 1) // 2), dtype=np.int32)
    hole_suit_masks = np.empty((player_count, 4), dtype=np.int32)
    hole_low_masks = np.empty(player_count, dtype=np.int32)
    high_values = np.empty(player_count, dtype=np.int32)
    low_values = np.zeros(player_count, dtype=np.int32)
    shares = np.empty(player_count, dtype=np.int64)
    board = np.empty(BOARD_SIZE, dtype=np.int8)
    used_mask = np.int64(0)  # bit c: card c is known
    for player in range(player_count):
        hole_low_masks[player] = hole_features(hole_cards[player], colex, pair_indexes[player],
                                               hole_suit_masks[player])
        for position in range(hole_count):
            used_mask |= np.int64(1) << np.int64(hole_cards[player, position])
    for position in range(known_count):
        board[position] = board_cards[position]
        used_mask |= np.int64(1) << np.int64(board_cards[position])
    for position in range(dead_cards.shape[0]):
        used_mask |= np.int64(1) << np.int64(dead_cards[position])
    deck = np.empty(DECK_SIZE, dtype=np.int8)
    deck_count = undealt_deck(used_mask, deck)
    combination = np.zeros(BOARD_SIZE, dtype=np.int64)
    board_ranks = np.empty(BOARD_SIZE, dtype=np.int32)
    board_suit_masks = np.empty(4, dtype=np.int32)
    for position in range(dealt_count):
        combination[position] = position
    low_boards = 0
    while True:
        for position in range(dealt_count):
            board[known_count + position] = deck[combination[position]]
        board_index, flush_suit, board_low_mask = board_features(board, colex, board_ranks, board_suit_masks)
        board_suit_mask = board_suit_masks[flush_suit] if flush_suit >= 0 else 0
        hands_values(pair_indexes, hole_suit_masks, hole_low_masks, board_index, flush_suit, board_suit_mask,
                     board_low_mask, pair_board, flush, low, hilo, high_values, low_values)
        low_boards += score_board(high_values, low_values, hilo, units, 1, shares, counts)
        if dealt_count == 0 or next_combination(combination, deck_count, dealt_count) < 0:
            break
    return low_boards


@threaded_kernel
def enumerate_spots(hole_cards, board_cards, dead_cards, colex, pair_board, flush, low, hilo, units):
    """Every completion of each spot's board, scored: the counts of many exact queries.

    Parameters
    ----------
    hole_cards : (spot_count, player_count, hole_count) int8
        Each spot's hands, cards 0..51 (``rank * 4 + suit``).
    board_cards : (spot_count, known_count) int8
        Each spot's known board cards (0..5 of them, the same number in every spot).
    dead_cards : (spot_count, dead_count) int8
        Each spot's dead cards (possibly none).
    colex, pair_board, flush, low : the arrays of ``evaluate.tables.Tables``.
    hilo : bool
    units : int, pot units (``pots.pot_units``).

    Returns
    -------
    counts : (spot_count, player_count, STAT_COUNT) int64
        Each spot's counts in ``counters`` layout (equity in pot units, the rest in boards).
    low_boards : (spot_count,) int64
        Boards on which some player has a qualifying low.
    """
    spot_count, player_count, _ = hole_cards.shape
    counts = np.zeros((spot_count, player_count, STAT_COUNT), dtype=np.int64)
    low_boards = np.zeros(spot_count, dtype=np.int64)
    for spot in range(spot_count):
        low_boards[spot] = score_spot(hole_cards[spot], board_cards[spot], dead_cards[spot], colex, pair_board,
                                      flush, low, hilo, units, counts[spot])
    return counts, low_boards


@kernel
def one_spot(cards, player_count, hole_count, known_count, colex, pair_board, flush, low, hilo, units):
    """One spot's counts from its cards in one array: the fused kernel of a single small query
    (one array in, one out, so that a call costs little more than numba's dispatch).

    Parameters
    ----------
    cards : (player_count * hole_count + known_count + dead_count,) int8
        The hands one after another, then the known board cards, then the dead cards.
    player_count, hole_count, known_count : int
    colex, pair_board, flush, low, hilo, units : as :func:`enumerate_spots`.

    Returns
    -------
    (player_count * STAT_COUNT + 1,) int64
        The counts row after row (``counters`` layout), then the boards with a qualifying low.
    """
    hole_total = player_count * hole_count
    result = np.zeros(player_count * STAT_COUNT + 1, dtype=np.int64)
    result[-1] = score_spot(cards[:hole_total].reshape((player_count, hole_count)),
                            cards[hole_total:hole_total + known_count], cards[hole_total + known_count:],
                            colex, pair_board, flush, low, hilo, units,
                            result[:-1].reshape((player_count, STAT_COUNT)))
    return result
