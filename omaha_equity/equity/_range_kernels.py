"""Compiled equity kernels for ranges: players holding any hand of a weighted list, or fixed
cards plus cards dealt at random (partial and random hands).

The joint deal is the one a user means (issue 3): every player's hand is drawn from their list
by weight, independently, and deals with a shared card are rejected; players with dealt cards
and the board are then completed from the rest of the deck. (The number of ways to complete
them is the same for every accepted deal, so dealing them afterwards keeps every joint deal
equally likely.) Exact enumeration walks every compatible combination of list hands, each
weighted by the product of its weights, and every completion of the board.

Hands are evaluated with ``evaluate._kernels.hole_features`` + ``hand_values``; card sets are
int64 bit masks (bit ``card``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..cache import redirect_numba_cache, restore_numba_cache
from ..evaluate._kernels import board_features, hand_values, hole_features, low_rank_bit
from ._kernels import (
    STAT_COUNT, chunk_random_state, draw_card, enumerated_board, flush_suit_of, next_combination, score_board,
    splitmix64,
)

# A Monte Carlo deal that keeps colliding this many times in a row means the ranges leave
# (almost) no compatible deal; the kernel stops and reports it rather than spin.
MAX_REJECTIONS_IN_A_ROW = 100_000

# Compiled code is cached in a folder keyed by every kernel source (see cache.py).
_previous_numba_cache = redirect_numba_cache()


@njit(cache=True, nogil=True, inline="always")
def _pick_weighted(cumulative, start, stop, uniform):
    """Index in [start, stop) of the first cumulative weight above ``uniform`` (0 <= u < 1)."""
    low_index = start
    high_index = stop - 1
    while low_index < high_index:
        middle = (low_index + high_index) // 2
        if cumulative[middle] > uniform:
            high_index = middle
        else:
            low_index = middle + 1
    return low_index


@njit(cache=True, nogil=True, inline="always")
def _draw_unused(state, deck, dealt, deck_size, used):
    """Draw the next card of a partial Fisher-Yates shuffle of ``deck``, passing over cards in
    the ``used`` mask. Returns ``(state, card, dealt)``."""
    while True:
        state, card = draw_card(state, deck, dealt, deck_size)
        dealt += 1
        if not (used >> card) & 1:
            return state, card, dealt


@njit(parallel=True, cache=True)
def sample_ranges(list_hands, list_masks, list_offsets, list_cumulative, list_players,
                  dealt_known, dealt_known_counts, dealt_players, base_used_mask, board_known, player_count,
                  colex, pair_board, flush, low, hilo, units, seed, first_chunk, chunk_count, chunk_size,
                  sample_count):
    """Monte Carlo over ranges, a range of chunks at a time (chunking and seeding as in
    ``_kernels.sample_boards``).

    Parameters
    ----------
    list_hands : (hand_count, hole_count) int8, the hands of every list player, concatenated.
    list_masks : (hand_count,) int64, card bit mask of each hand.
    list_offsets : (list_count + 1,) int64, list ``i`` is ``list_offsets[i]:list_offsets[i+1]``.
    list_cumulative : (hand_count,) float64, cumulative weights within each list, ending at 1.
    list_players : (list_count,) int64, the player holding each list.
    dealt_known : (dealt_count, hole_count) int8, known cards of each dealt player (padded).
    dealt_known_counts, dealt_players : (dealt_count,) int64.
    base_used_mask : int64 mask of the known board, dead cards and dealt players' known cards.
    board_known : (b,) int8, the known board cards.
    player_count : int.
    colex, pair_board, flush, low : tables; hilo : bool; units : pot units.
    seed : uint64; first_chunk, chunk_count, chunk_size, sample_count : as in ``sample_boards``.

    Returns
    -------
    counts : (chunk_count, player_count, STAT_COUNT) int64
    low_boards : (chunk_count,) int64
    square_sums : (chunk_count, player_count) int64
    rejections : (chunk_count,) int64, deals redrawn for a shared card; -1 in a chunk that gave
        up after ``MAX_REJECTIONS_IN_A_ROW``.
    """
    hole_count = list_hands.shape[1] if list_hands.shape[0] > 0 else dealt_known.shape[1]
    pair_count = hole_count * (hole_count - 1) // 2
    list_count = list_players.shape[0]
    dealt_player_count = dealt_players.shape[0]
    board_known_count = board_known.shape[0]
    counts = np.zeros((chunk_count, player_count, STAT_COUNT), dtype=np.int64)
    low_boards = np.zeros(chunk_count, dtype=np.int64)
    square_sums = np.zeros((chunk_count, player_count), dtype=np.int64)
    rejections = np.zeros(chunk_count, dtype=np.int64)
    for slab in prange(chunk_count):
        chunk = first_chunk + slab
        start = chunk * chunk_size
        stop = min(start + chunk_size, sample_count)
        if start >= stop:
            continue
        state = chunk_random_state(seed, chunk)
        chosen = np.empty(max(list_count, 1), dtype=np.int64)
        hole = np.empty((player_count, hole_count), dtype=np.int8)
        deck = np.empty(52, dtype=np.int8)
        board = np.empty(5, dtype=np.int8)
        board_ranks = np.empty(5, dtype=np.int32)
        board_suit_masks = np.empty(4, dtype=np.int32)
        pair_indexes = np.empty((player_count, pair_count), dtype=np.int32)
        hole_suit_masks = np.empty((player_count, 4), dtype=np.int32)
        hole_low_masks = np.empty(player_count, dtype=np.int64)
        # players whose cards are all known: their features are worked out once per chunk
        known_in_full = np.zeros(player_count, dtype=np.bool_)
        for dealt_index in range(dealt_player_count):
            if dealt_known_counts[dealt_index] == hole_count:
                player = dealt_players[dealt_index]
                known_in_full[player] = True
                hole_low_masks[player] = hole_features(dealt_known[dealt_index], colex, pair_indexes[player],
                                                       hole_suit_masks[player])
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        shares = np.empty(player_count, dtype=np.int64)
        slab_counts = counts[slab]
        for position in range(board_known_count):
            board[position] = board_known[position]
        deck_size = 0
        for card in range(52):
            if not (base_used_mask >> card) & 1:
                deck[deck_size] = card
                deck_size += 1
        low_board_count = 0
        redrawn = 0
        gave_up = False
        for _ in range(stop - start):
            # hands from the lists, by weight; a shared card rejects the whole deal
            in_a_row = 0
            while True:
                used = base_used_mask
                compatible = True
                for list_index in range(list_count):
                    state, bits = splitmix64(state)
                    uniform = (bits >> np.uint64(11)) * (1.0 / 9007199254740992.0)
                    hand = _pick_weighted(list_cumulative, list_offsets[list_index], list_offsets[list_index + 1], uniform)
                    if used & list_masks[hand]:
                        compatible = False
                        break
                    used |= list_masks[hand]
                    chosen[list_index] = hand
                if compatible:
                    break
                redrawn += 1
                in_a_row += 1
                if in_a_row >= MAX_REJECTIONS_IN_A_ROW:
                    gave_up = True
                    break
            if gave_up:
                break
            # Dealt players' unknown cards and the board: a partial Fisher-Yates shuffle of the
            # chunk's deck (every card not known beforehand), skipping cards that a list hand
            # holds in this deal. Skipping items of a uniformly random sequence leaves a
            # uniformly random sequence of the others, and the deck needs no rebuilding.
            dealt = 0
            for dealt_index in range(dealt_player_count):
                player = dealt_players[dealt_index]
                if known_in_full[player]:
                    continue
                for position in range(hole_count):
                    if position < dealt_known_counts[dealt_index]:
                        hole[player, position] = dealt_known[dealt_index, position]
                        continue
                    state, card, dealt = _draw_unused(state, deck, dealt, deck_size, used)
                    hole[player, position] = card
            for position in range(board_known_count, 5):
                state, card, dealt = _draw_unused(state, deck, dealt, deck_size, used)
                board[position] = card
            for list_index in range(list_count):
                player = list_players[list_index]
                for position in range(hole_count):
                    hole[player, position] = list_hands[chosen[list_index], position]
            board_index, flush_suit, board_low_mask = board_features(board, colex, board_ranks, board_suit_masks)
            board_suit_mask = board_suit_masks[flush_suit] if flush_suit >= 0 else 0
            for player in range(player_count):
                if not known_in_full[player]:
                    hole_low_masks[player] = hole_features(hole[player], colex, pair_indexes[player],
                                                           hole_suit_masks[player])
                high_values[player], low_values[player] = hand_values(
                    pair_indexes[player], hole_suit_masks[player], hole_low_masks[player], board_index, flush_suit,
                    board_suit_mask, board_low_mask, pair_board, flush, low, hilo,
                )
            low_board_count += score_board(high_values, low_values, hilo, units, 1, shares, slab_counts)
            for player in range(player_count):
                square_sums[slab, player] += shares[player] * shares[player]
        low_boards[slab] = low_board_count
        rejections[slab] = -1 if gave_up else redrawn
    return counts, low_boards, square_sums, rejections


@njit(parallel=True, cache=True)
def enumerate_ranges(list_hands, list_masks, list_offsets, list_weights, base_used_mask, board_known,
                     dealt_board_indexes, colex, pair_board, flush, low, binomials, hilo, units, chunk_count):
    """Exact enumeration over every compatible combination of list hands and every completion
    of the board, each combination weighted by the product of its hands' weights.

    Every player is a list here (a fixed hand is a list of one). Work is split over chunks of
    player 0's list (the caller puts the longest list first).

    Parameters
    ----------
    list_hands, list_masks, list_offsets : as in :func:`sample_ranges`; one list per player,
        player ``p`` holding list ``p``.
    list_weights : (hand_count,) int64, whole-number weights.
    base_used_mask : int64 mask of the known board and dead cards.
    board_known : (b,) int8; dealt_board_indexes : (C(12 + 5 - b, 5 - b),) int32 from
        ``_kernels.dealt_board_indexes`` (dealt-rank multiset -> board multiset index).
    binomials : (53, 6) int64.

    Returns
    -------
    counts : (chunk_count, player_count, STAT_COUNT) int64, weighted.
    low_boards : (chunk_count,) int64, weighted.
    weight_totals : (chunk_count,) int64, total weight (combination weight x completions).
    deal_totals : (chunk_count,) int64, deals scored (combinations x completions).
    """
    player_count = list_offsets.shape[0] - 1
    hole_count = list_hands.shape[1]
    pair_count = hole_count * (hole_count - 1) // 2
    board_known_count = board_known.shape[0]
    dealt_count = 5 - board_known_count
    first_list_size = list_offsets[1] - list_offsets[0]
    fixed_suit_masks = np.zeros(4, dtype=np.int32)
    fixed_low_mask = 0
    for position in range(board_known_count):
        card = board_known[position]
        fixed_suit_masks[card & 3] |= 1 << (card >> 2)
        fixed_low_mask |= low_rank_bit(card >> 2)
    counts = np.zeros((chunk_count, player_count, STAT_COUNT), dtype=np.int64)
    low_boards = np.zeros(chunk_count, dtype=np.int64)
    weight_totals = np.zeros(chunk_count, dtype=np.int64)
    deal_totals = np.zeros(chunk_count, dtype=np.int64)
    for slab in prange(chunk_count):
        first_hand_start = list_offsets[0] + first_list_size * slab // chunk_count
        first_hand_stop = list_offsets[0] + first_list_size * (slab + 1) // chunk_count
        index = np.empty(player_count, dtype=np.int64)
        used_stack = np.empty(player_count, dtype=np.int64)
        pair_indexes = np.empty((player_count, pair_count), dtype=np.int32)
        hole_suit_masks = np.empty((player_count, 4), dtype=np.int32)
        hole_low_masks = np.empty(player_count, dtype=np.int64)
        deck = np.empty(52, dtype=np.int8)
        combination = np.empty(max(dealt_count, 1), dtype=np.int64)
        suit_masks = np.empty(4, dtype=np.int32)
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        shares = np.empty(player_count, dtype=np.int64)
        slab_counts = counts[slab]
        for first_hand in range(first_hand_start, first_hand_stop):
            if base_used_mask & list_masks[first_hand]:
                continue
            index[0] = first_hand
            used_stack[0] = base_used_mask | list_masks[first_hand]
            # depth-first walk over the other players' lists, skipping shared cards
            level = 1
            index[1] = list_offsets[1]
            while level >= 1:
                if index[level] == list_offsets[level + 1]:
                    level -= 1
                    if level >= 1:
                        index[level] += 1
                    continue
                mask = list_masks[index[level]]
                if used_stack[level - 1] & mask:
                    index[level] += 1
                    continue
                used_stack[level] = used_stack[level - 1] | mask
                if level < player_count - 1:
                    level += 1
                    index[level] = list_offsets[level]
                    continue
                # a compatible combination: weight, hand features, then every board completion
                weight = 1
                for player in range(player_count):
                    weight *= list_weights[index[player]]
                    hole_low_masks[player] = hole_features(list_hands[index[player]], colex, pair_indexes[player],
                                                           hole_suit_masks[player])
                used = used_stack[level]
                deck_size = 0
                for card in range(52):
                    if not (used >> card) & 1:
                        deck[deck_size] = card
                        deck_size += 1
                for position in range(dealt_count):
                    combination[position] = position
                completions = binomials[deck_size, dealt_count]
                for _ in range(completions):
                    dealt_ranks_index, board_low_mask = enumerated_board(
                        deck, combination, dealt_count, colex, fixed_suit_masks, fixed_low_mask, suit_masks)
                    board_index = dealt_board_indexes[dealt_ranks_index]
                    flush_suit = flush_suit_of(suit_masks)
                    board_suit_mask = suit_masks[flush_suit] if flush_suit >= 0 else 0
                    for player in range(player_count):
                        high_values[player], low_values[player] = hand_values(
                            pair_indexes[player], hole_suit_masks[player], hole_low_masks[player], board_index,
                            flush_suit, board_suit_mask, board_low_mask, pair_board, flush, low, hilo,
                        )
                    low_boards[slab] += score_board(high_values, low_values, hilo, units, weight, shares, slab_counts)
                    next_combination(combination, deck_size, dealt_count)
                weight_totals[slab] += weight * completions
                deal_totals[slab] += completions
                index[level] += 1
    return counts, low_boards, weight_totals, deal_totals


restore_numba_cache(_previous_numba_cache)
