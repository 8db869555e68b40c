"""Compiled kernel of ``calc --hand-types`` over many hands (``studies.hand_types``): every hand
of a list against every board completion that holds none of its cards, counting the final high
hand types and, for hi/lo, the made, nut and counterfeited lows.

One hand per iteration of the parallel loop: its features (``evaluate._kernels.hole_features``)
are computed once and each completion's board features are read from arrays built once per
completion, so a hand on a board costs one ``hand_values`` call. Every count is a whole number
in the hand's own row, so the result does not depend on the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..evaluate._kernels import board_features, hand_values, hole_features, low_rank_bit
from ..runtime.numba import helper, kernel, parallel_kernel

# Hand types (high card .. straight flush) and the value's category shift (evaluate.tables).
TYPE_COUNT = 9
_CATEGORY_SHIFT = 20
# Columns of the counts after the hand types.
MADE_LOW, NUT_LOW, COUNTERFEITED_LOW, BOARDS = TYPE_COUNT, TYPE_COUNT + 1, TYPE_COUNT + 2, TYPE_COUNT + 3
COLUMN_COUNT = TYPE_COUNT + 4


@helper
def _street_low_mask(board, street):
    """Low-rank mask of the first ``street`` cards of ``board`` (a low needs no more: the best
    low of two hole cards and three board cards is the ``low`` table's entry for the masks)."""
    mask = 0
    for position in range(street):
        mask |= low_rank_bit(board[position] >> 2)
    return mask


@kernel
def completion_features(boards, colex):
    """Board features of every complete board, computed once for all hands.

    Parameters
    ----------
    boards : (m, 5) int8
    colex : (5, 13) int32

    Returns
    -------
    features : (m, 4) int32
        Rank-multiset index, flush suit (-1: none), rank mask of that suit's board cards and
        the board's low-rank mask.
    masks : (m,) int64
        The board's cards as a 52-bit mask.
    """
    count = boards.shape[0]
    features = np.zeros((count, 4), dtype=np.int32)
    masks = np.zeros(count, dtype=np.int64)
    ranks = np.empty(5, dtype=np.int32)
    suit_masks = np.empty(4, dtype=np.int32)
    for row in range(count):
        board_index, flush_suit, low_mask = board_features(boards[row], colex, ranks, suit_masks)
        features[row, 0] = board_index
        features[row, 1] = flush_suit
        features[row, 2] = suit_masks[flush_suit] if flush_suit >= 0 else 0
        features[row, 3] = low_mask
        mask = 0
        for position in range(5):
            mask |= np.int64(1) << np.int64(boards[row, position])
        masks[row] = mask
    return features, masks


@parallel_kernel
def hand_type_counts(hands, boards, given_count, features, masks, nut_lows, colex, pair_board, flush,
                     low, hilo):
    """Each hand's final hand types and lows over the complete boards that hold none of its cards.

    Parameters
    ----------
    hands : (n, hole_count) int8
    boards : (m, 5) int8
        The complete boards, the ``given_count`` (3 or 4) given cards first, then the cards
        dealt in the order of the street they come on.
    features, masks : :func:`completion_features` of ``boards``.
    nut_lows : (m, 3) int16
        The nut low of each board's flop, turn and river (0: none possible); read for hi/lo.
    colex, pair_board, flush, low : the evaluator's tables (``tables.Tables``).
    hilo : bool

    Returns
    -------
    (n, COLUMN_COUNT) int64
        Per hand: the boards ending with each hand type (``TYPE_COUNT`` columns, high card
        first), then boards with a made low, with the nut low, with a counterfeited low
        (``studies.hand_types``' rule), and the boards counted.
    """
    hand_count, hole_count = hands.shape
    board_count = boards.shape[0]
    counts = np.zeros((hand_count, COLUMN_COUNT), dtype=np.int64)
    for hand in prange(hand_count):
        pair_indexes = np.empty(hole_count * (hole_count - 1) // 2, dtype=np.int32)
        hole_suit_masks = np.empty(4, dtype=np.int32)
        hole = hands[hand]
        hand_mask = 0
        for position in range(hole_count):
            hand_mask |= np.int64(1) << np.int64(hole[position])
        hole_low_mask = hole_features(hole, colex, pair_indexes, hole_suit_masks)
        given_low = 0
        if hilo:
            given_low = low[hole_low_mask, _street_low_mask(boards[0], given_count)]
        for row in range(board_count):
            if masks[row] & hand_mask:
                continue
            high_value, low_value = hand_values(pair_indexes, hole_suit_masks, hole_low_mask, features[row, 0],
                                                features[row, 1], features[row, 2], features[row, 3], pair_board,
                                                flush, low, hilo)
            counts[hand, high_value >> _CATEGORY_SHIFT] += 1
            counts[hand, BOARDS] += 1
            if not hilo or hole_low_mask == 0:
                continue
            river_nut = low_value > 0 and low_value == nut_lows[row, 2]
            if low_value > 0:
                counts[hand, MADE_LOW] += 1
            if river_nut:
                counts[hand, NUT_LOW] += 1
                continue
            counterfeited = False
            for street in range(given_count, 5):
                if street == given_count:
                    street_low = given_low
                else:
                    street_low = low[hole_low_mask, _street_low_mask(boards[row], street)]
                if street_low == 0 or street_low != nut_lows[row, street - 3]:
                    continue
                for position in range(street, 5):
                    if low_rank_bit(boards[row, position] >> 2) & hole_low_mask:
                        counterfeited = True
            if counterfeited:
                counts[hand, COUNTERFEITED_LOW] += 1
    return counts
