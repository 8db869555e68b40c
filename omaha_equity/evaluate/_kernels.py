"""Compiled evaluation kernels: arrays in, arrays out, no globals but integer constants.

The Omaha structure does the work (README, "How it works"):
- without a flush, the best high hand depends only on the hole ranks and the board's rank
  multiset: ``tables.pair_board[board_index, pair_index]`` holds the best unsuited value of one
  hole-rank pair on one board-rank multiset, so a hand costs one read per hole pair;
- a flush needs three board cards of one suit and two hole cards of that suit, so it is looked
  at only then (at most one suit can have three cards on a five-card board);
- the low depends only on the hole and board low-rank masks: ``tables.low[hole_mask, board_mask]``.

Every compiled path evaluates a hand with :func:`hole_features` + :func:`hand_values`: the batch
:func:`evaluate_deals` that the tests compare with the slow reference, the range kernels, and
:func:`build_player_rows` inside them; the fixed-hand queries read per-player rows built from
the same tables by numpy (``rows.py``: no compiling on a first run).
"""

from __future__ import annotations

import numpy as np

from ..runtime.numba import helper, kernel

BOARD_MULTISETS = 6188
SUIT_MASKS = 8192
LOW_MASKS = 256

@helper
def low_rank_bit(rank):
    """Bit of a rank in a low mask: ace -> bit 0, deuce -> bit 1, ... eight -> bit 7, else 0."""
    # without a branch: Monte Carlo deals the ranks at random, and a branch on each dealt card's
    # rank was mispredicted about half the time (a tenth of a Monte Carlo sample's time). Ranks
    # 0..6 give bits 1..7, 7..11 shift out of the byte, 12 (the ace) gives bit 0.
    return ((1 << (rank + 1)) & 0xFF) | (rank == 12)


@helper
def bit_count(mask):
    """Number of set bits."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@helper
def hole_features(hole_cards, colex, pair_indexes, suit_masks):
    """Everything about a hole hand that the evaluation needs, computed once per hand.

    Parameters
    ----------
    hole_cards : (hole_count,) int8
    colex : (5, 13) int32
    pair_indexes : (C(hole_count, 2),) int32, output: rank-multiset index of every hole pair.
    suit_masks : (4,) int32, output: rank mask of the hole cards of each suit.

    Returns
    -------
    int : the hole cards' low-rank mask (bit 0 ace .. bit 7 eight).
    """
    hole_count = hole_cards.shape[0]
    position = 0
    low_mask = 0
    for suit in range(4):
        suit_masks[suit] = 0
    for first in range(hole_count):
        first_rank = hole_cards[first] >> 2
        suit_masks[hole_cards[first] & 3] |= 1 << first_rank
        low_mask |= low_rank_bit(first_rank)
        for second in range(first + 1, hole_count):
            second_rank = hole_cards[second] >> 2
            if first_rank <= second_rank:
                pair_indexes[position] = colex[0, first_rank] + colex[1, second_rank]
            else:
                pair_indexes[position] = colex[0, second_rank] + colex[1, first_rank]
            position += 1
    return low_mask


@helper
def best_flush_high(hole_suit_mask, board_suit_mask, flush):
    """Best flush/straight flush from exactly two hole and three board ranks of one suit, or 0.

    Walks the set bits directly (no arrays), so it allocates nothing. The five nested loops are
    the fastest form measured: walking the subsets of each mask instead (two loops, a popcount
    per subset) made queries 1-16% slower in an interleaved A/B (median of 4 rounds: exact
    heads-up preflop, whose players' rows it builds, 8%; range Monte Carlo 4%)."""
    best = 0
    if bit_count(hole_suit_mask) < 2 or bit_count(board_suit_mask) < 3:
        return best
    first_board = board_suit_mask
    while first_board:
        a = first_board & -first_board
        first_board ^= a
        second_board = first_board
        while second_board:
            b = second_board & -second_board
            second_board ^= b
            third_board = second_board
            while third_board:
                c = third_board & -third_board
                third_board ^= c
                first_hole = hole_suit_mask
                while first_hole:
                    d = first_hole & -first_hole
                    first_hole ^= d
                    second_hole = first_hole
                    while second_hole:
                        e = second_hole & -second_hole
                        second_hole ^= e
                        value = flush[a | b | c | d | e]
                        if value > best:
                            best = value
    return best


@helper
def best_unsuited_high(pair_indexes, board_index, pair_board):
    """Best high value without a flush: the best of the hole pairs on the board's rank multiset."""
    best = 0
    for position in range(pair_indexes.shape[0]):
        value = pair_board[board_index, pair_indexes[position]]
        if value > best:
            best = value
    return best


@helper
def hand_values(pair_indexes, hole_suit_masks, hole_low_mask, board_index, flush_suit, board_suit_mask,
                board_low_mask, pair_board, flush, low, hilo):
    """High and low value of one hand (given by :func:`hole_features`) on one complete board.

    Parameters
    ----------
    board_index : int, the board's rank-multiset index (0..6187).
    flush_suit : int, the suit with three or more board cards, or -1.
    board_suit_mask : int, rank mask of the board cards of ``flush_suit`` (ignored if -1).
    board_low_mask : int, low-rank mask of the board.
    pair_board, flush, low : tables (``tables.Tables``).

    Returns
    -------
    (high, low) : high value (larger is better); low value, 0 when none or not ``hilo``.
    """
    best = best_unsuited_high(pair_indexes, board_index, pair_board)
    if flush_suit >= 0:
        value = best_flush_high(hole_suit_masks[flush_suit], board_suit_mask, flush)
        if value > best:
            best = value
    low_value = low[hole_low_mask, board_low_mask] if hilo else 0
    return best, low_value


@helper
def hands_values(pair_indexes, hole_suit_masks, hole_low_masks, board_index, flush_suit, board_suit_mask,
                 board_low_mask, pair_board, flush, low, hilo, high_values, low_values):
    """:func:`hand_values` of every hand whose features are in row ``i`` of ``pair_indexes``,
    ``hole_suit_masks`` and ``hole_low_masks`` (:func:`hole_features`), into ``high_values[i]``
    and ``low_values[i]``; the board as in :func:`hand_values`."""
    for hand in range(pair_indexes.shape[0]):
        high_values[hand], low_values[hand] = hand_values(
            pair_indexes[hand], hole_suit_masks[hand], hole_low_masks[hand], board_index, flush_suit, board_suit_mask,
            board_low_mask, pair_board, flush, low, hilo,
        )


@helper
def next_combination(combination, item_count, choose_count):
    """Step ``combination`` (ascending item indexes) to the next in lexicographic order.
    Returns the first position that changed (every later one changed too), or -1 after the
    last combination (left as it was)."""
    position = choose_count - 1
    while position >= 0 and combination[position] == item_count - choose_count + position:
        position -= 1
    if position >= 0:
        combination[position] += 1
        for later in range(position + 1, choose_count):
            combination[later] = combination[later - 1] + 1
    return position


@helper
def insert_rank(ranks, count, rank):
    """Insert ``rank`` into the ascending ``ranks[:count]`` (insertion sort, one step)."""
    insert_at = count
    while insert_at > 0 and ranks[insert_at - 1] > rank:
        ranks[insert_at] = ranks[insert_at - 1]
        insert_at -= 1
    ranks[insert_at] = rank


@helper
def board_features(board_cards, colex, ranks, suit_masks):
    """Rank-multiset index, flush suit (-1 if none) and low mask of five board cards.

    ``ranks`` (5,) int32 and ``suit_masks`` (4,) int32 are scratch/output arrays.
    Returns ``(board_index, flush_suit, board_low_mask)``."""
    for suit in range(4):
        suit_masks[suit] = 0
    low_mask = 0
    for position in range(5):
        card = board_cards[position]
        rank = card >> 2
        suit_masks[card & 3] |= 1 << rank
        low_mask |= low_rank_bit(rank)
        insert_rank(ranks, position, rank)
    board_index = 0
    for position in range(5):
        board_index += colex[position, ranks[position]]
    flush_suit = -1
    for suit in range(4):
        if bit_count(suit_masks[suit]) >= 3:
            flush_suit = suit
    return board_index, flush_suit, low_mask


@kernel
def build_player_rows(hole_cards, board_indexes, colex, pair_board, pair_flush, low):
    """Per-player lookup rows for a set of fully known hole hands, for compiled callers (the
    range kernels' combination-by-combination enumeration builds them inside a kernel).
    Python callers use ``rows.build_player_rows``, the same rows by numpy lookups, which needs
    no compiling (``tests/test_rows.py`` checks that both agree).

    A query with ``dealt_count`` board cards still to come visits only the board rank
    multisets made of its known ranks plus ``dealt_count`` more (1 on the river, 13 on the
    turn, 91 on the flop, 6,188 preflop): the high rows hold just those, so a small query's
    fixed cost stays in microseconds. A flush row is a player's best suited pair's row of
    ``pair_flush`` (a copy of 8,192 values per suited pair, microseconds too).

    Parameters
    ----------
    hole_cards : (player_count, hole_count) int8
    board_indexes : (row_size,) int32
        The five-rank board multiset index of each dealt-rank multiset
        (``tables.dealt_board_indexes``).
    colex, pair_board, pair_flush, low : the arrays of ``tables.Tables``.

    Returns
    -------
    high_rows : (player_count, row_size) int32
        Best unsuited high value per dealt-rank multiset.
    flush_rows : (player_count, 4, 8192) int32
        Best flush value per suit and board-suit rank mask (0 when the board has fewer than
        three cards of the suit, or the player fewer than two).
    low_rows : (player_count, 256) int16
        Best low value per board low-rank mask (``NO_LOW`` = 0: none).
    """
    player_count, hole_count = hole_cards.shape
    row_size = board_indexes.shape[0]
    high_rows = np.empty((player_count, row_size), dtype=np.int32)
    flush_rows = np.zeros((player_count, 4, SUIT_MASKS), dtype=np.int32)
    low_rows = np.empty((player_count, LOW_MASKS), dtype=np.int16)
    pair_indexes = np.empty(hole_count * (hole_count - 1) // 2, dtype=np.int32)
    suit_masks = np.empty(4, dtype=np.int32)
    for player in range(player_count):
        hole_low_mask = hole_features(hole_cards[player], colex, pair_indexes, suit_masks)
        for dealt_index in range(row_size):
            high_rows[player, dealt_index] = best_unsuited_high(pair_indexes, board_indexes[dealt_index], pair_board)
        for board_low_mask in range(LOW_MASKS):
            low_rows[player, board_low_mask] = low[hole_low_mask, board_low_mask]
        for first in range(hole_count):
            for second in range(first + 1, hole_count):
                suit = hole_cards[player, first] & 3
                if hole_cards[player, second] & 3 != suit:
                    continue
                low_rank = min(hole_cards[player, first] >> 2, hole_cards[player, second] >> 2)
                high_rank = max(hole_cards[player, first] >> 2, hole_cards[player, second] >> 2)
                pair_row = pair_flush[high_rank * (high_rank - 1) // 2 + low_rank]  # tables.suited_pair_index
                suit_row = flush_rows[player, suit]
                for mask in range(SUIT_MASKS):
                    suit_row[mask] = max(suit_row[mask], pair_row[mask])
    return high_rows, flush_rows, low_rows


@kernel(nogil=False)
def evaluate_deals(hole_cards, board_cards, colex, pair_board, flush, low):
    """Best high and low value of many independent deals.

    Parameters
    ----------
    hole_cards : (deal_count, hole_count) int8
    board_cards : (deal_count, 5) int8

    Returns
    -------
    high_values : (deal_count,) int32
    low_values : (deal_count,) int16  (``NO_LOW`` = 0 when no 8-or-better low)
    """
    deal_count, hole_count = hole_cards.shape
    high_values = np.empty(deal_count, dtype=np.int32)
    low_values = np.empty(deal_count, dtype=np.int16)
    pair_indexes = np.empty(hole_count * (hole_count - 1) // 2, dtype=np.int32)
    hole_suit_masks = np.empty(4, dtype=np.int32)
    board_ranks = np.empty(5, dtype=np.int32)
    board_suit_masks = np.empty(4, dtype=np.int32)
    for deal in range(deal_count):
        hole_low_mask = hole_features(hole_cards[deal], colex, pair_indexes, hole_suit_masks)
        board_index, flush_suit, board_low_mask = board_features(board_cards[deal], colex, board_ranks,
                                                                 board_suit_masks)
        board_suit_mask = board_suit_masks[flush_suit] if flush_suit >= 0 else 0
        high_values[deal], low_values[deal] = hand_values(
            pair_indexes, hole_suit_masks, hole_low_mask, board_index, flush_suit, board_suit_mask, board_low_mask,
            pair_board, flush, low, True,
        )
    return high_values, low_values
