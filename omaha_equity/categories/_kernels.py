"""The compiled categorizer: every hand of a list on one board, arrays in, arrays out.

The board's share of the work is done once (:mod:`.board`); per hand the kernel reads the
hand's hole-rank pairs in the board tables, counts outs rank by rank (the cards of a rank
left in the deck are ``4 - on the board - in the hand``) and suit by suit, and writes one
row of small integers (the fields of :mod:`.names`). The rules are in docs/categories.md.
"""

from __future__ import annotations

import numpy as np

from ..runtime.numba import helper, kernel
from ..evaluate._kernels import bit_count, low_rank_bit, next_combination

# Constants repeated from names.py and tables.py as plain ints (numba freezes globals).
_FIELD_COUNT = 13
_MAX_FIELD = 32_000
_STRAIGHT, _FLUSH, _FULL_HOUSE = 4, 5, 6

@helper
def _beaten(values, value):
    """How many of the ascending ``values`` are above ``value``."""
    low, high = 0, values.shape[0]
    while low < high:
        middle = (low + high) // 2
        if values[middle] <= value:
            low = middle + 1
        else:
            high = middle
    return values.shape[0] - low


@kernel
def made_hand(value, hole_counts, rank_counts, ranks_info):
    """Index in ``names.MADE_HANDS`` of a best high value, from the hole cards' role."""
    category = value >> 20
    if category >= 4:
        return 8 - category  # straight flush 0, quads 1, full house 2, flush 3, straight 4
    first = (value >> 16) & 15
    if category == 3:
        on_board = rank_counts[first]
        return 5 if on_board == 1 else (6 if on_board == 2 else 17)  # set, trips, board trips: nothing
    top, second, lowest, top_kicker = ranks_info[0], ranks_info[1], ranks_info[2], ranks_info[3]
    if category == 2:
        pair_two = (value >> 8) & 15
        if rank_counts[first] == 1 and rank_counts[pair_two] == 1:
            if first == top and pair_two == second:
                return 7
            return 8 if first == top and pair_two == lowest else 9
        return 10
    if category == 1:
        on_board = rank_counts[first]
        if on_board == 0:
            return 11 if first > top else 15  # overpair, underpair
        if on_board == 2:
            return 17
        if first == top:
            kicker = -1
            for rank in range(12, -1, -1):
                if rank != first and hole_counts[rank] > 0:
                    kicker = rank
                    break
            return 12 if kicker == top_kicker else 13
        return 14 if first == second else 16
    return 17


@kernel
def categorize_hands(hands, board, rank_counts, suit_masks, ranks_info, current, next_values, next_straight,
                     runout_ranks, runout_straight, high_values, low_values, low_after, low_beaten_after, colex,
                     pair_flush, low, hilo, draws, fields):
    """Fill ``fields`` (n, 13) int16 with the categories of ``hands`` (n, hole_count) int8 on one
    board; the board arrays are :class:`.board.BoardTables`, ``colex``, ``pair_flush`` and
    ``low`` the evaluator's tables; ``hilo`` fills the low fields (-1 otherwise); without
    ``draws`` the draw fields (straight, clean, flush and boat outs, flush class, backdoors) are
    not counted: they stay 0 (the flush class -1), and the board's draw tables may be empty."""
    hand_count, hole_count = hands.shape
    board_count = board.shape[0]
    pair_count = hole_count * (hole_count - 1) // 2
    pair_indexes = np.empty(pair_count, dtype=np.int64)
    hole_counts = np.zeros(13, dtype=np.int64)
    hole_suits = np.zeros(4, dtype=np.int64)
    left = np.zeros(13, dtype=np.int64)
    board_suit_counts = np.zeros(4, dtype=np.int64)
    for suit in range(4):
        board_suit_counts[suit] = bit_count(suit_masks[suit])
    board_low_mask = ranks_info[4]
    for hand in range(hand_count):
        row = fields[hand]
        for rank in range(13):
            hole_counts[rank] = 0
        for suit in range(4):
            hole_suits[suit] = 0
        low_mask = 0
        position = 0
        value = 0
        for first in range(hole_count):
            card = hands[hand, first]
            first_rank = card >> 2
            hole_counts[first_rank] += 1
            hole_suits[card & 3] |= 1 << first_rank
            low_mask |= low_rank_bit(first_rank)
            for second in range(first + 1, hole_count):
                other = hands[hand, second]
                second_rank = other >> 2
                low_rank, high_rank = min(first_rank, second_rank), max(first_rank, second_rank)
                pair_indexes[position] = colex[0, low_rank] + colex[1, high_rank]
                value = max(value, current[pair_indexes[position]])
                if card & 3 == other & 3 and board_suit_counts[card & 3] >= 3:
                    value = max(value, pair_flush[high_rank * (high_rank - 1) // 2 + low_rank, suit_masks[card & 3]])
                position += 1
        category = value >> 20
        row[0] = made_hand(np.int64(value), hole_counts, rank_counts, ranks_info)  # int64: one signature
        row[1] = min(_beaten(high_values, value), _MAX_FIELD)
        for rank in range(13):
            left[rank] = 4 - rank_counts[rank] - hole_counts[rank]
        straight_outs = clean_outs = flush_outs = boat_outs = 0
        flush_class = -1
        backdoor_flush = backdoor_straight = 0
        if draws and board_count < 5:
            for rank in range(13):
                if left[rank] == 0:
                    continue
                makes_straight = False
                best = 0
                for position in range(pair_count):
                    best = max(best, next_values[pair_indexes[position], rank])
                    if next_straight[pair_indexes[position], rank]:
                        makes_straight = True
                if makes_straight and category < _STRAIGHT:
                    straight_outs += left[rank]
                    if rank_counts[rank] == 0:
                        for suit in range(4):
                            if board_suit_counts[suit] <= 1 and not (hole_suits[suit] >> rank) & 1:
                                clean_outs += 1
                if category < _FULL_HOUSE and best >> 20 >= _FULL_HOUSE:
                    boat_outs += left[rank]
            if category < _FLUSH:
                for suit in range(4):
                    held = bit_count(hole_suits[suit])
                    if board_suit_counts[suit] != 2 or held < 2:
                        continue
                    flush_outs += 13 - 2 - held
                    top = 0
                    for rank in range(13):
                        if (hole_suits[suit] >> rank) & 1:
                            top = rank
                    higher = 0
                    for rank in range(top + 1, 13):
                        if not (suit_masks[suit] >> rank) & 1:
                            higher += 1
                    # the worst out for the draw is one below the top card, which leaves every
                    # higher card out; only when every out is higher does one of them come
                    lower_out = False
                    for rank in range(top):
                        if not (suit_masks[suit] >> rank) & 1 and not (hole_suits[suit] >> rank) & 1:
                            lower_out = True
                    worst = higher if lower_out else higher - 1
                    if flush_class < 0 or worst < flush_class:
                        flush_class = worst
            if board_count == 3:
                if category < _FLUSH and flush_outs == 0:
                    for suit in range(4):
                        held = bit_count(hole_suits[suit])
                        if board_suit_counts[suit] == 1 and held >= 2 and 13 - 1 - held >= 2:
                            backdoor_flush = 1
                if category < _STRAIGHT and straight_outs == 0:
                    for runout in range(runout_ranks.shape[0]):
                        first_rank, second_rank = runout_ranks[runout, 0], runout_ranks[runout, 1]
                        if left[first_rank] < 1 + (first_rank == second_rank) or left[second_rank] < 1:
                            continue
                        for position in range(pair_count):
                            if runout_straight[pair_indexes[position], runout]:
                                backdoor_straight = 1
                                break
                        if backdoor_straight:
                            break
        row[2] = straight_outs
        row[3] = clean_outs
        row[4] = flush_outs
        row[5] = flush_class
        row[6] = boat_outs
        row[7] = backdoor_flush
        row[8] = backdoor_straight
        if not hilo:
            row[9] = row[10] = row[11] = -1
            row[12] = 0
            continue
        now = low[low_mask, board_low_mask]
        low_outs = 0
        counterfeit = 0
        low_beaten = -1
        if now > 0:
            low_beaten = _beaten(low_values, now)
            low_class = 0 if low_beaten == 0 else (1 if low_beaten == 1 else 2)
            if board_count < 5:
                for rank in range(13):
                    if left[rank] > 0 and low_beaten_after[low_mask, rank] > low_beaten:
                        counterfeit = 1
        else:
            low_class = 6
            if board_count < 5:
                always_nut = True
                for rank in range(13):
                    if left[rank] > 0 and low_after[low_mask, rank] > 0:
                        low_outs += left[rank]
                        if low_beaten_after[low_mask, rank] != 0:
                            always_nut = False
                if low_outs > 0:
                    low_class = 3 if always_nut else 4
                elif board_count == 3:
                    for first_rank in range(13):
                        if low_rank_bit(first_rank) == 0 or left[first_rank] == 0:
                            continue
                        for second_rank in range(first_rank, 13):
                            if low_rank_bit(second_rank) == 0 or left[second_rank] < 1 + (first_rank == second_rank):
                                continue
                            if low[low_mask, board_low_mask | low_rank_bit(first_rank) | low_rank_bit(second_rank)] > 0:
                                low_class = 5
        row[9] = low_class
        row[10] = low_outs
        row[11] = low_beaten
        row[12] = counterfeit


@kernel
def fill_combinations(deck, state, out):
    """Write the next ``out.shape[0]`` combinations of ``out.shape[1]`` cards of ``deck`` in
    lexicographic order of positions, from ``state`` (ascending positions, advanced in place):
    a whole deck's hands a chunk at a time, never all in memory."""
    size = state.shape[0]
    deck_size = deck.shape[0]
    for row in range(out.shape[0]):
        for position in range(size):
            out[row, position] = deck[state[position]]
        if next_combination(state, deck_size, size) < 0:
            break
