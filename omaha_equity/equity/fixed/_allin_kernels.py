"""Compiled all-in kernels for fixed hands: deal the rest of the board, pay every pot in chips
with ``pots.settle_pots``, and add up the chips.

They walk the boards exactly as the equity kernels do, with the same helpers (board enumeration
and sampling in ``fixed._kernels``, evaluation in ``evaluate._kernels``); only the scoring of a
board differs: chips per pot per player instead of shares of one pot. Chunks, seeds and slabs as
in ``fixed._kernels``: the sums are integers (the Monte Carlo sums of squares are float64 added
in a fixed order), so the results do not depend on the thread count. The hand-list kernels
(``lists._allin_kernels``) add up chips with the same helpers (:func:`add_payouts`,
:func:`add_squares`).

Player order matters here (odd chips go to the first tied players): every kernel fills hand
values in the caller's player order, index 0 the first seat left of the button.
"""

from __future__ import annotations

import numpy as np

from ...evaluate._kernels import next_combination
from ...pots import settle_pots
from ...runtime.numba import helper, kernel, threaded_kernel
from ...runtime.random_state import chunk_random_state
from ..kernel_parameters import kernel_parameters
from ._kernels import (
    board_values, deal_board_levels, evaluate_board, flush_suit_of, new_board_levels, sampled_board, slice_bounds,
    unrank_combination,
)


@helper
def add_payouts(payouts, weight, payout_sums):
    """``payout_sums[pot, player] += weight * payouts[pot, player]``."""
    for pot in range(payouts.shape[0]):
        for player in range(payouts.shape[1]):
            payout_sums[pot, player] += weight * payouts[pot, player]


@helper
def add_squares(payouts, square_sums):
    """Sums of squared chips per pot and player, and (last row) of each player's total."""
    pot_count = payouts.shape[0]
    for player in range(payouts.shape[1]):
        total = 0
        for pot in range(pot_count):
            chips = payouts[pot, player]
            total += chips
            square_sums[pot, player] += float(chips) * float(chips)
        square_sums[pot_count, player] += float(total) * float(total)


@threaded_kernel
@kernel_parameters
def enumerate_allin_boards(deck, dealt_count, fixed_suit_masks, fixed_low_mask, high_rows, flush_rows, low_rows,
                           colex, binomials, hilo, pot_amounts, eligible_masks, first_chunk, chunk_count,
                           total_chunks):
    """Pay every completion of the board, a range of chunks at a time (fixed hands).

    Parameters
    ----------
    {fixed_hands, binomials, hilo, pot_arrays, chunk_slices}

    Returns
    -------
    payout_sums : (chunk_count, pot_count, player_count) int64, chips won summed over boards.
    """
    card_count = deck.shape[0]
    player_count = high_rows.shape[0]
    pot_count = pot_amounts.shape[0]
    total = binomials[card_count, dealt_count]
    payout_sums = np.zeros((chunk_count, pot_count, player_count), dtype=np.int64)
    for slab in range(chunk_count):
        start, stop = slice_bounds(first_chunk + slab, total, total_chunks)
        if start >= stop:
            continue
        combination = np.empty(max(dealt_count, 1), dtype=np.int64)
        unrank_combination(start, card_count, dealt_count, binomials, combination)
        level_index, level_suits, level_suit_counts, level_top_suit, level_low = new_board_levels(
            dealt_count, fixed_suit_masks, fixed_low_mask)
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        payouts = np.empty((pot_count, player_count), dtype=np.int64)
        slab_sums = payout_sums[slab]
        board_suits = level_suits[dealt_count]
        changed = 0  # the first board deals every level
        for _ in range(stop - start):
            deal_board_levels(changed, deck, combination, dealt_count, colex, level_index, level_suits,
                              level_suit_counts, level_top_suit, level_low)
            board_values(level_index[dealt_count], board_suits, level_top_suit[dealt_count], level_low[dealt_count],
                          high_rows, flush_rows, low_rows, hilo, high_values, low_values)
            settle_pots(pot_amounts, eligible_masks, high_values, low_values, hilo, payouts)
            add_payouts(payouts, 1, slab_sums)
            changed = next_combination(combination, card_count, dealt_count)
    return payout_sums


@kernel(nogil=False)
def chunk_random_states(seed, first_chunk, chunk_count):
    """``random_state.chunk_random_state`` of chunks ``first_chunk ..``: (chunk_count,) uint64."""
    states = np.empty(chunk_count, dtype=np.uint64)
    for slab in range(chunk_count):
        states[slab] = chunk_random_state(seed, first_chunk + slab)
    return states


@threaded_kernel
@kernel_parameters
def sample_allin_boards(deck, dealt_count, fixed_suit_masks, fixed_low_mask, high_rows, flush_rows, low_rows,
                        colex, hilo, pot_amounts, eligible_masks, first_chunk, chunk_size, sample_count, budget,
                        states, decks, positions, payout_sums, square_sums):
    """Pay random completions of the board (Monte Carlo, fixed hands): up to ``budget`` more
    samples of each chunk ``first_chunk + slab``, resuming where the last call stopped. Streams
    and draws are exactly those of ``fixed._kernels.sample_boards``: the chunk's generator state, its
    shuffled deck, its sample count and its sums are carried from call to call in the arrays
    below (updated in place), so the results do not depend on how a chunk is cut into calls.

    Only the size of ``deck`` is read: each chunk deals from its copy in ``decks``.

    Parameters
    ----------
    {fixed_hands, hilo, pot_arrays, first_chunk, chunk_plan, budget, resumable_chunks}
    """
    card_count = deck.shape[0]
    player_count = high_rows.shape[0]
    pot_count = pot_amounts.shape[0]
    for slab in range(states.shape[0]):
        chunk = first_chunk + slab
        start = chunk * chunk_size + positions[slab]
        stop = min(chunk * chunk_size + chunk_size, sample_count, start + budget)
        if start >= stop:
            continue
        state = states[slab]
        cards = decks[slab]
        dealt_ranks = np.empty(max(dealt_count, 1), dtype=np.int32)
        suit_masks = np.empty(4, dtype=np.int32)
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        payouts = np.empty((pot_count, player_count), dtype=np.int64)
        slab_sums = payout_sums[slab]
        slab_squares = square_sums[slab]
        for _ in range(stop - start):
            state, dealt_ranks_index, low_mask = sampled_board(state, cards, dealt_count, card_count, colex,
                                                               fixed_suit_masks, fixed_low_mask, dealt_ranks,
                                                               suit_masks)
            evaluate_board(dealt_ranks_index, suit_masks, flush_suit_of(suit_masks), low_mask,
                            high_rows, flush_rows, low_rows, hilo, high_values, low_values)
            settle_pots(pot_amounts, eligible_masks, high_values, low_values, hilo, payouts)
            add_payouts(payouts, 1, slab_sums)
            add_squares(payouts, slab_squares)
        states[slab] = state
        positions[slab] += stop - start
