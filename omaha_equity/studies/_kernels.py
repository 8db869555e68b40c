"""Compiled kernels of the studies: the next card, and player 1's equity hand by hand.

- :func:`enumerate_by_next_card` is ``equity.lists._kernels.enumerate_ranges`` with one more
  output dimension: every scored board is credited to each of its dealt cards, so one pass
  over the completions of a flop (turn + river) gives the equity after every possible turn
  card (a board of the flop, turn ``a`` and river ``b`` is exactly one of the boards that
  complete the flop plus ``a``, and one of those of the flop plus ``b``).
- :func:`enumerate_hand_by_hand` and :func:`sample_hand_by_hand` score one fixed hand against
  each hand of a list, separately: every board completion (or ``trials`` random ones) per
  hand, with the list split over threads. Each hand's row of counts is its own, so the
  results do not depend on the thread count.

Arrays in, arrays out; hands are evaluated with ``evaluate._kernels.hole_features`` +
``hand_values`` and pots split by ``pots.split_pot`` (through ``equity.fixed._kernels.score_board``),
the same code as every other equity path.
"""

from __future__ import annotations

import numpy as np

from ..runtime.numba import kernel, threaded_kernel
from ..equity.fixed._kernels import (  # EQUITY: the counter layout the study wrappers read
    EQUITY, STAT_COUNT, draw_card, enumerated_board, flush_suit_of, known_board_masks, score_board,
)
from ..equity.kernel_parameters import kernel_parameters
from ..equity.lists._kernels import combination_deal, combination_values, undealt_deck
from ..equity.lists.hand_walk import next_combination_after, walk_from_first_hand
from ..evaluate._kernels import (
    best_flush_high, best_unsuited_high, board_features, hand_values, hole_features, next_combination,
)
from ..runtime.random_state import chunk_random_state

DECK_CARDS = 52

@threaded_kernel
@kernel_parameters
def enumerate_by_next_card(list_hands, list_masks, list_offsets, list_weights, base_used_mask, board_known,
                           dealt_board_indexes, colex, pair_board, flush, low, hilo, binomials, units, first_slab,
                           slab_count, total_slabs):
    """Exact enumeration over every compatible combination of list hands and every completion
    of the board, each board credited to each of its dealt cards.

    The lists are one per player, the known board has 3 or 4 cards, and the work is split over
    player 0's list, so the caller puts the longest first.

    Parameters
    ----------
    {exact_lists, score_tables, binomials, units, list_slices}

    Returns
    -------
    counts : (slab_count, 52, player_count, STAT_COUNT) int64
        Per next card: the weighted statistics of the boards holding that card.
    low_boards : (slab_count, 52) int64, weighted boards holding the card with a qualifying low.
    weight_totals : (slab_count, 52) int64, total weight of the boards holding the card.
    deal_totals : (slab_count, 52) int64, deals (hand combinations x boards) holding the card.
    """
    player_count = list_offsets.shape[0] - 1
    hole_count = list_hands.shape[1]
    pair_count = hole_count * (hole_count - 1) // 2
    dealt_count = 5 - board_known.shape[0]
    first_list_size = list_offsets[1] - list_offsets[0]
    fixed_suit_masks = np.zeros(4, dtype=np.int32)
    fixed_low_mask = known_board_masks(board_known, fixed_suit_masks)
    counts = np.zeros((slab_count, DECK_CARDS, player_count, STAT_COUNT), dtype=np.int64)
    low_boards = np.zeros((slab_count, DECK_CARDS), dtype=np.int64)
    weight_totals = np.zeros((slab_count, DECK_CARDS), dtype=np.int64)
    deal_totals = np.zeros((slab_count, DECK_CARDS), dtype=np.int64)
    for slab in range(slab_count):
        first_hand_start = list_offsets[0] + first_list_size * (first_slab + slab) // total_slabs
        first_hand_stop = list_offsets[0] + first_list_size * (first_slab + slab + 1) // total_slabs
        index = np.empty(player_count, dtype=np.int64)
        used_stack = np.empty(player_count, dtype=np.int64)
        pair_indexes = np.empty((player_count, pair_count), dtype=np.int32)
        hole_suit_masks = np.empty((player_count, 4), dtype=np.int32)
        hole_low_masks = np.empty(player_count, dtype=np.int64)
        deck = np.empty(DECK_CARDS, dtype=np.int8)
        combination = np.empty(dealt_count, dtype=np.int64)
        suit_masks = np.empty(4, dtype=np.int32)
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        shares = np.empty(player_count, dtype=np.int64)
        for first_hand in range(first_hand_start, first_hand_stop):
            # depth-first walk over the other players' lists, skipping shared cards
            level = walk_from_first_hand(first_hand, base_used_mask, list_masks, list_offsets, index, used_stack)
            while level >= 1:
                weight, deck_size = combination_deal(index, used_stack[level], list_hands, list_weights, colex,
                                                     pair_indexes, hole_suit_masks, hole_low_masks, deck)
                # every undealt card is dealt in C(deck_size - 1, dealt_count - 1) completions
                holding = binomials[deck_size - 1, dealt_count - 1]
                for position in range(deck_size):
                    weight_totals[slab, deck[position]] += weight * holding
                    deal_totals[slab, deck[position]] += holding
                for position in range(dealt_count):
                    combination[position] = position
                for _ in range(binomials[deck_size, dealt_count]):
                    dealt_ranks_index, board_low_mask = enumerated_board(
                        deck, combination, dealt_count, colex, fixed_suit_masks, fixed_low_mask, suit_masks)
                    combination_values(dealt_board_indexes[dealt_ranks_index], suit_masks, board_low_mask,
                                       pair_indexes, hole_suit_masks, hole_low_masks, pair_board, flush, low, hilo,
                                       high_values, low_values)
                    for position in range(dealt_count):
                        card = deck[combination[position]]
                        low_boards[slab, card] += score_board(high_values, low_values, hilo, units, weight, shares,
                                                              counts[slab, card])
                    next_combination(combination, deck_size, dealt_count)
                level = next_combination_after(level, 1, index, used_stack, list_offsets, list_masks)
    return counts, low_boards, weight_totals, deal_totals


@kernel(nogil=False)
def completion_table(hero_hand, base_used_mask, board_known, dealt_board_indexes, colex, pair_board, flush, low,
                     binomials, hilo):
    """Every completion of the board from the cards nobody is known to hold, with what the
    scoring needs of it and player 1's hand values on it (worked out once for all opponents).

    Returns ``(card_masks int64, dealt_indexes int32, flush_suits int32, flush_masks int32,
    low_masks int32, hero_high int32, hero_low int32)``, one entry per completion;
    ``dealt_indexes`` is the multiset index of the dealt ranks (``dealt_board_indexes`` maps it
    to the board's)."""
    hole_count = hero_hand.shape[0]
    dealt_count = 5 - board_known.shape[0]
    fixed_suit_masks = np.zeros(4, dtype=np.int32)
    fixed_low_mask = known_board_masks(board_known, fixed_suit_masks)
    deck = np.empty(DECK_CARDS, dtype=np.int8)
    deck_size = undealt_deck(base_used_mask, deck)
    completion_count = binomials[deck_size, dealt_count]
    card_masks = np.empty(completion_count, dtype=np.int64)
    dealt_indexes = np.empty(completion_count, dtype=np.int32)
    flush_suits = np.empty(completion_count, dtype=np.int32)
    flush_masks = np.empty(completion_count, dtype=np.int32)
    low_masks = np.empty(completion_count, dtype=np.int32)
    hero_high = np.empty(completion_count, dtype=np.int32)
    hero_low = np.empty(completion_count, dtype=np.int32)
    pair_indexes = np.empty(hole_count * (hole_count - 1) // 2, dtype=np.int32)
    hole_suit_masks = np.empty(4, dtype=np.int32)
    hero_low_mask = hole_features(hero_hand, colex, pair_indexes, hole_suit_masks)
    combination = np.empty(max(dealt_count, 1), dtype=np.int64)
    for position in range(dealt_count):
        combination[position] = position
    suit_masks = np.empty(4, dtype=np.int32)
    for completion in range(completion_count):
        dealt_ranks_index, board_low_mask = enumerated_board(
            deck, combination, dealt_count, colex, fixed_suit_masks, fixed_low_mask, suit_masks)
        mask = np.int64(0)
        for position in range(dealt_count):
            mask |= np.int64(1) << np.int64(deck[combination[position]])
        flush_suit = flush_suit_of(suit_masks)
        card_masks[completion] = mask
        dealt_indexes[completion] = dealt_ranks_index
        flush_suits[completion] = flush_suit
        flush_masks[completion] = suit_masks[flush_suit] if flush_suit >= 0 else 0
        low_masks[completion] = board_low_mask
        hero_high[completion], hero_low[completion] = hand_values(
            pair_indexes, hole_suit_masks, hero_low_mask, dealt_board_indexes[dealt_ranks_index], flush_suit,
            flush_masks[completion], board_low_mask, pair_board, flush, low, hilo)
        next_combination(combination, deck_size, dealt_count)
    return card_masks, dealt_indexes, flush_suits, flush_masks, low_masks, hero_high, hero_low


@threaded_kernel
def enumerate_hand_by_hand(opponent_hands, card_masks, dealt_indexes, flush_suits, flush_masks, low_masks, hero_high,
                           hero_low, dealt_board_indexes, colex, pair_board, flush, low, hilo, units):
    """Exact equity of one hand against each hand of a list, heads-up, hand by hand.

    The board completions are listed once, with player 1's values on each
    (:func:`completion_table`, whose outputs are ``card_masks`` .. ``hero_low``); each
    opponent hand then scores the completions that do not hold its cards. Its best unsuited
    value depends only on the dealt ranks, so it is worked out once per dealt-rank multiset
    (91 on a flop, 13 on a turn) and each completion reads it from that row.

    Parameters
    ----------
    opponent_hands : (hand_count, hole_count) int8, none sharing a card with the known cards
        or player 1's.
    card_masks ... hero_low : :func:`completion_table`'s outputs.
    dealt_board_indexes : the board multiset index of each dealt-rank multiset
        (``tables.dealt_board_indexes``), as given to :func:`completion_table`.
    colex, pair_board, flush, low, hilo, units : as in :func:`enumerate_by_next_card`.

    Returns
    -------
    counts : (hand_count, 2, STAT_COUNT) int64, player 1 then the opponent, per opponent hand.
    low_boards : (hand_count,) int64, boards with a qualifying low.
    board_counts : (hand_count,) int64, boards scored per opponent hand.
    """
    hand_count, hole_count = opponent_hands.shape
    pair_count = hole_count * (hole_count - 1) // 2
    completion_count = card_masks.shape[0]
    row_size = dealt_board_indexes.shape[0]
    counts = np.zeros((hand_count, 2, STAT_COUNT), dtype=np.int64)
    low_boards = np.zeros(hand_count, dtype=np.int64)
    board_counts = np.zeros(hand_count, dtype=np.int64)
    pair_indexes = np.empty(pair_count, dtype=np.int32)
    hole_suit_masks = np.empty(4, dtype=np.int32)
    unsuited_row = np.empty(row_size, dtype=np.int32)
    high_values = np.empty(2, dtype=np.int32)
    low_values = np.zeros(2, dtype=np.int32)
    shares = np.empty(2, dtype=np.int64)
    for hand in range(hand_count):
        hole_low_mask = hole_features(opponent_hands[hand], colex, pair_indexes, hole_suit_masks)
        for dealt in range(row_size):
            unsuited_row[dealt] = best_unsuited_high(pair_indexes, dealt_board_indexes[dealt], pair_board)
        hand_mask = np.int64(0)
        for position in range(hole_count):
            hand_mask |= np.int64(1) << np.int64(opponent_hands[hand, position])
        scored = 0
        for completion in range(completion_count):
            if card_masks[completion] & hand_mask:
                continue
            high_values[0] = hero_high[completion]
            low_values[0] = hero_low[completion]
            value = unsuited_row[dealt_indexes[completion]]
            flush_suit = flush_suits[completion]
            if flush_suit >= 0:
                suited = best_flush_high(hole_suit_masks[flush_suit], flush_masks[completion], flush)
                if suited > value:
                    value = suited
            high_values[1] = value
            low_values[1] = low[hole_low_mask, low_masks[completion]] if hilo else 0
            low_boards[hand] += score_board(high_values, low_values, hilo, units, 1, shares, counts[hand])
            scored += 1
        board_counts[hand] = scored
    return counts, low_boards, board_counts


@threaded_kernel
def sample_hand_by_hand(hero_hand, opponent_hands, first_hand, base_used_mask, board_known, colex, pair_board, flush,
                        low, hilo, units, seed, trials):
    """Monte Carlo equity of one hand against each hand of a list, ``trials`` random board
    completions per opponent hand; hand ``i`` of the whole list (``opponent_hands`` is its
    hands from ``first_hand`` on) draws from its own SplitMix64 stream seeded from
    ``(seed, i)`` (``random_state.chunk_random_state``), so the numbers depend only on the
    seed and the list.

    Parameters
    ----------
    hero_hand : (hole_count,) int8, player 1's hole cards.
    opponent_hands : (hand_count, hole_count) int8, none sharing a card with the known cards
        or player 1's; first_hand : int, the first one's place in the whole list.
    base_used_mask : int64 mask of player 1's cards, the known board and the dead cards.
    board_known : (b,) int8, 0..5 known board cards.
    colex, pair_board, flush, low, hilo, units : as in :func:`enumerate_by_next_card`;
    seed : uint64; trials : int, boards per opponent hand.

    Returns
    -------
    counts : (hand_count, 2, STAT_COUNT) int64
    low_boards : (hand_count,) int64
    square_sums : (hand_count,) int64, sum of player 1's squared shares in pot units (for the
        standard error of its equity).
    """
    hand_count, hole_count = opponent_hands.shape
    pair_count = hole_count * (hole_count - 1) // 2
    board_known_count = board_known.shape[0]
    counts = np.zeros((hand_count, 2, STAT_COUNT), dtype=np.int64)
    low_boards = np.zeros(hand_count, dtype=np.int64)
    square_sums = np.zeros(hand_count, dtype=np.int64)
    for hand in range(hand_count):
        state = chunk_random_state(seed, first_hand + hand)
        pair_indexes = np.empty((2, pair_count), dtype=np.int32)
        hole_suit_masks = np.empty((2, 4), dtype=np.int32)
        hole_low_masks = np.empty(2, dtype=np.int64)
        hole_low_masks[0] = hole_features(hero_hand, colex, pair_indexes[0], hole_suit_masks[0])
        hole_low_masks[1] = hole_features(opponent_hands[hand], colex, pair_indexes[1], hole_suit_masks[1])
        used = base_used_mask
        for position in range(hole_count):
            used |= np.int64(1) << np.int64(opponent_hands[hand, position])
        deck = np.empty(DECK_CARDS, dtype=np.int8)
        deck_size = undealt_deck(used, deck)
        board = np.empty(5, dtype=np.int8)
        for position in range(board_known_count):
            board[position] = board_known[position]
        board_ranks = np.empty(5, dtype=np.int32)
        board_suit_masks = np.empty(4, dtype=np.int32)
        high_values = np.empty(2, dtype=np.int32)
        low_values = np.zeros(2, dtype=np.int32)
        shares = np.empty(2, dtype=np.int64)
        for _ in range(trials):
            for position in range(board_known_count, 5):
                state, card = draw_card(state, deck, position - board_known_count, deck_size)
                board[position] = card
            board_index, flush_suit, board_low_mask = board_features(board, colex, board_ranks, board_suit_masks)
            board_suit_mask = board_suit_masks[flush_suit] if flush_suit >= 0 else 0
            for player in range(2):
                high_values[player], low_values[player] = hand_values(
                    pair_indexes[player], hole_suit_masks[player], hole_low_masks[player], board_index,
                    flush_suit, board_suit_mask, board_low_mask, pair_board, flush, low, hilo,
                )
            low_boards[hand] += score_board(high_values, low_values, hilo, units, 1, shares, counts[hand])
            square_sums[hand] += shares[0] * shares[0]
    return counts, low_boards, square_sums
