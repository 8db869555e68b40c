"""Compiled all-in kernels for hand lists (ranges, partial and random hands): deal the players'
hands and the rest of the board, pay every pot in chips with ``pots.settle_pots``, and add up
the chips.

They walk the deals exactly as the equity kernels over hand lists do, with the same helpers
(the walk in ``lists.hand_walk``, hand drawing in ``lists._kernels``, board enumeration and
sampling in ``fixed._kernels``, evaluation in ``evaluate._kernels``); only the scoring of a
board differs: chips per pot per player instead of shares of one pot, added up as the
fixed-hand all-in kernels do (``fixed._allin_kernels``). Chunks, seeds and slabs as in
``fixed._kernels``: the sums are integers (the Monte Carlo sums of squares are float64 added in
a fixed order), so the results do not depend on the thread count.

Player order matters here (odd chips go to the first tied players): every kernel fills hand
values in the caller's player order, index 0 the first seat left of the button.
"""

from __future__ import annotations

import numpy as np

from ...evaluate._kernels import hole_features, next_combination
from ...pots import settle_pots
from ...runtime.numba import threaded_kernel
from ..fixed._allin_kernels import add_payouts, add_squares
from ..fixed._kernels import enumerated_board, known_board_masks
from ..kernel_parameters import kernel_parameters
from ._kernels import (
    combination_deal, combination_values, dealt_hand_values, draw_compatible_hands, draw_unused, walk_scratch,
)
from .hand_walk import next_combination_after, walk_from_first_hand


@threaded_kernel
@kernel_parameters
def enumerate_allin_ranges(list_hands, list_masks, list_offsets, list_weights, base_used_mask, board_known,
                           dealt_board_indexes, list_players, colex, pair_board, flush, low, hilo, binomials,
                           pot_amounts, eligible_masks, first_slab, slab_count, total_slabs):
    """Pay every compatible combination of list hands on every completion of the board, each
    combination weighted by the product of its hands' weights (the walk of
    ``lists._kernels.enumerate_ranges``).

    The lists are those of ``lists._kernels.enumerate_ranges``, one per player, the longest
    first; list ``i`` belongs to player ``list_players[i]``.

    Parameters
    ----------
    {exact_lists, list_players, score_tables, binomials, pot_arrays, list_slices}

    Returns
    -------
    payout_sums : (slab_count, pot_count, player_count) int64, weighted, by player index.
    weight_totals : (slab_count,) int64, total weight (combination weight x completions).
    deal_totals : (slab_count,) int64, deals scored (combinations x completions).
    """
    player_count = list_offsets.shape[0] - 1
    pot_count = pot_amounts.shape[0]
    hole_count = list_hands.shape[1]
    pair_count = hole_count * (hole_count - 1) // 2
    board_known_count = board_known.shape[0]
    dealt_count = 5 - board_known_count
    first_list_size = list_offsets[1] - list_offsets[0]
    fixed_suit_masks = np.empty(4, dtype=np.int32)
    fixed_low_mask = known_board_masks(board_known, fixed_suit_masks)
    payout_sums = np.zeros((slab_count, pot_count, player_count), dtype=np.int64)
    weight_totals = np.zeros(slab_count, dtype=np.int64)
    deal_totals = np.zeros(slab_count, dtype=np.int64)
    for slab in range(slab_count):
        first_hand_start = list_offsets[0] + first_list_size * (first_slab + slab) // total_slabs
        first_hand_stop = list_offsets[0] + first_list_size * (first_slab + slab + 1) // total_slabs
        index, used_stack, pair_indexes, hole_suit_masks, hole_low_masks, deck, combination, suit_masks = \
            walk_scratch(player_count, pair_count, dealt_count)
        list_high_values = np.empty(player_count, dtype=np.int32)
        list_low_values = np.zeros(player_count, dtype=np.int32)
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        payouts = np.empty((pot_count, player_count), dtype=np.int64)
        slab_sums = payout_sums[slab]
        for first_hand in range(first_hand_start, first_hand_stop):
            # depth-first walk over the other lists, skipping shared cards
            level = walk_from_first_hand(first_hand, base_used_mask, list_masks, list_offsets, index, used_stack)
            while level >= 1:
                weight, deck_size = combination_deal(index, used_stack[level], list_hands, list_weights, colex,
                                                     pair_indexes, hole_suit_masks, hole_low_masks, deck)
                for position in range(dealt_count):
                    combination[position] = position
                completions = binomials[deck_size, dealt_count]
                for _ in range(completions):
                    dealt_ranks_index, board_low_mask = enumerated_board(
                        deck, combination, dealt_count, colex, fixed_suit_masks, fixed_low_mask, suit_masks)
                    combination_values(dealt_board_indexes[dealt_ranks_index], suit_masks, board_low_mask,
                                       pair_indexes, hole_suit_masks, hole_low_masks, pair_board, flush, low, hilo,
                                       list_high_values, list_low_values)
                    for position in range(player_count):  # list order -> player order (odd chips)
                        high_values[list_players[position]] = list_high_values[position]
                        low_values[list_players[position]] = list_low_values[position]
                    settle_pots(pot_amounts, eligible_masks, high_values, low_values, hilo, payouts)
                    add_payouts(payouts, weight, slab_sums)
                    next_combination(combination, deck_size, dealt_count)
                weight_totals[slab] += weight * completions
                deal_totals[slab] += completions
                level = next_combination_after(level, 1, index, used_stack, list_offsets, list_masks)
    return payout_sums, weight_totals, deal_totals


@threaded_kernel
@kernel_parameters
def sample_allin_ranges(list_hands, list_masks, list_offsets, list_cumulative, list_players,
                        dealt_known, dealt_known_counts, dealt_players, base_used_mask, board_known, player_count,
                        colex, pair_board, flush, low, hilo, pot_amounts, eligible_masks, first_chunk, chunk_size,
                        sample_count, budget, states, decks, positions, payout_sums, square_sums, rejections):
    """Monte Carlo over ranges, partial and random hands: the deals of
    ``_kernels.sample_ranges``, paid in chips, up to ``budget`` more deals of each chunk per
    call, resuming as ``fixed._allin_kernels.sample_allin_boards`` does. The parameters up to
    ``hilo`` are what ``lists.inputs.ListDeals.kernel_arguments()`` gives: each range player's
    own list, ungrouped, and the players dealt at random. ``decks`` starts as the cards outside
    ``base_used_mask``, ascending, padded to 52.

    Parameters
    ----------
    {player_lists, dealt_cards, score_tables, pot_arrays, first_chunk, chunk_plan, budget, resumable_chunks}
    rejections : (chunk_count,) int64
        Deals redrawn for a shared card, added to; set to -1 (and the chunk ended) when a chunk
        gives up after ``MAX_REJECTIONS_IN_A_ROW``.
    """
    hole_count = list_hands.shape[1] if list_hands.shape[0] > 0 else dealt_known.shape[1]
    pair_count = hole_count * (hole_count - 1) // 2
    list_count = list_players.shape[0]
    dealt_player_count = dealt_players.shape[0]
    board_known_count = board_known.shape[0]
    pot_count = pot_amounts.shape[0]
    deck_size = 0
    for card in range(52):
        if not (base_used_mask >> card) & 1:
            deck_size += 1
    for slab in range(states.shape[0]):
        chunk = first_chunk + slab
        start = chunk * chunk_size + positions[slab]
        chunk_stop = min(chunk * chunk_size + chunk_size, sample_count)
        stop = min(chunk_stop, start + budget)
        if start >= stop or rejections[slab] < 0:
            continue
        state = states[slab]
        deck = decks[slab]
        chosen = np.empty(max(list_count, 1), dtype=np.int64)
        list_order = np.arange(list_count)  # each player's own list, in seat order
        hole = np.empty((player_count, hole_count), dtype=np.int8)
        board = np.empty(5, dtype=np.int8)
        board_ranks = np.empty(5, dtype=np.int32)
        board_suit_masks = np.empty(4, dtype=np.int32)
        pair_indexes = np.empty((player_count, pair_count), dtype=np.int32)
        hole_suit_masks = np.empty((player_count, 4), dtype=np.int32)
        hole_low_masks = np.empty(player_count, dtype=np.int64)
        known_in_full = np.zeros(player_count, dtype=np.bool_)
        for dealt_index in range(dealt_player_count):
            if dealt_known_counts[dealt_index] == hole_count:
                player = dealt_players[dealt_index]
                known_in_full[player] = True
                hole_low_masks[player] = hole_features(dealt_known[dealt_index], colex, pair_indexes[player],
                                                       hole_suit_masks[player])
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        payouts = np.empty((pot_count, player_count), dtype=np.int64)
        slab_sums = payout_sums[slab]
        slab_squares = square_sums[slab]
        for position in range(board_known_count):
            board[position] = board_known[position]
        redrawn = 0
        gave_up = False
        done = 0
        for _ in range(stop - start):
            state, used, redraws, gave_up = draw_compatible_hands(
                state, base_used_mask, list_order, list_cumulative, list_offsets, list_masks, chosen)
            redrawn += redraws
            if gave_up:
                break
            # the deal of ``_kernels.deal_unknown_cards``, written out: through the shared helper
            # this kernel ran 20% slower (interleaved A/B), sample_ranges did not
            dealt = 0
            for dealt_index in range(dealt_player_count):
                player = dealt_players[dealt_index]
                if known_in_full[player]:
                    continue
                for position in range(hole_count):
                    if position < dealt_known_counts[dealt_index]:
                        hole[player, position] = dealt_known[dealt_index, position]
                        continue
                    state, card, dealt = draw_unused(state, deck, dealt, deck_size, used)
                    hole[player, position] = card
            for position in range(board_known_count, 5):
                state, card, dealt = draw_unused(state, deck, dealt, deck_size, used)
                board[position] = card
            for list_index in range(list_count):
                player = list_players[list_index]
                for position in range(hole_count):
                    hole[player, position] = list_hands[chosen[list_index], position]
            dealt_hand_values(board, hole, known_in_full, colex, board_ranks, board_suit_masks, pair_indexes,
                              hole_suit_masks, hole_low_masks, pair_board, flush, low, hilo, high_values, low_values)
            settle_pots(pot_amounts, eligible_masks, high_values, low_values, hilo, payouts)
            add_payouts(payouts, 1, slab_sums)
            add_squares(payouts, slab_squares)
            done += 1
        states[slab] = state
        if gave_up:
            rejections[slab] = -1
            positions[slab] = chunk_stop - chunk * chunk_size
        else:
            rejections[slab] += redrawn
            positions[slab] += done
