"""Compiled equity kernels for ranges: players holding any hand of a weighted list, or fixed
cards plus cards dealt at random (partial and random hands).

The joint deal is the one a user means (issue 3): every player's hand is drawn from their list
by weight, independently, and deals with a shared card are thrown away; players with dealt
cards and the board are then completed from the rest of the deck. (The number of ways to
complete them is the same for every compatible deal, so dealing them afterwards keeps every
joint deal equally likely.) Monte Carlo either redraws colliding deals or deals the lists one
after another from the compatible hands with an importance weight (:func:`sample_ranges`).
Exact enumeration walks every compatible combination of list hands, each weighted by the
product of its weights, and every completion of the board, a bounded piece per call
(:func:`enumerate_ranges`), so the caller can serve Ctrl-C and show progress between calls.

Hands are evaluated with ``evaluate._kernels.hole_features`` + ``hand_values``; card sets are
int64 bit masks (bit ``card``).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ...runtime.numba import helper, threaded_kernel
from ...evaluate._kernels import (
    board_features, build_player_rows, hand_values, hands_values, hole_features, next_combination,
)
from ...runtime.random_state import chunk_start, splitmix64
from ..kernel_parameters import kernel_parameters
from .hand_walk import first_combination, next_combination_after, unit_hands
from ..fixed._kernels import (
    STAT_COUNT, draw_card, enumerate_boards, enumerated_board, flush_suit_of, known_board_masks,
    score_board,
)

# A Monte Carlo deal that keeps colliding this many times in a row means the ranges leave
# (almost) no compatible deal; the kernel stops and reports it rather than spin.
MAX_REJECTIONS_IN_A_ROW = 100_000

@helper
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


@helper
def draw_unused(state, deck, dealt, deck_size, used):
    """Draw the next card of a partial Fisher-Yates shuffle of ``deck``, passing over cards in
    the ``used`` mask. Returns ``(state, card, dealt)``."""
    while True:
        state, card = draw_card(state, deck, dealt, deck_size)
        dealt += 1
        if not (used >> card) & 1:
            return state, card, dealt


@intrinsic
def _popcount(typing_context, word):
    """Number of set bits of a uint64 word (one CPU instruction)."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, arguments):
        return builder.ctpop(arguments[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _trailing_zeros(typing_context, word):
    """Index of the lowest set bit of a nonzero uint64 word."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, arguments):
        return builder.cttz(arguments[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@helper
def _uniform(state):
    """A uniform float in [0, 1) from 53 random bits. Returns ``(state, uniform)``."""
    state, bits = splitmix64(state)
    return state, (bits >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@helper
def draw_hands_once(state, used, hand_groups, cumulative, offsets, masks, chosen):
    """One rejection-sampling attempt: for each position, a hand of group ``hand_groups[position]``
    drawn by weight (``cumulative`` over ``offsets[group]:offsets[group + 1]``) into ``chosen``,
    stopping at the first hand that shares a card with ``used`` (a card bit mask).
    Returns ``(state, used, compatible)``."""
    for position in range(hand_groups.shape[0]):
        group = hand_groups[position]
        state, uniform = _uniform(state)
        hand = _pick_weighted(cumulative, offsets[group], offsets[group + 1], uniform)
        if used & masks[hand]:
            return state, used, False
        used |= masks[hand]
        chosen[position] = hand
    return state, used, True


@helper
def draw_compatible_hands(state, base_used_mask, hand_groups, cumulative, offsets, masks, chosen):
    """:func:`draw_hands_once` from ``base_used_mask`` again until the hands share no card.
    Returns ``(state, used, redraws, gave_up)``: ``gave_up`` after ``MAX_REJECTIONS_IN_A_ROW``
    draws in a row that collided (``chosen`` is then not a deal)."""
    redraws = 0
    while True:
        state, used, compatible = draw_hands_once(state, base_used_mask, hand_groups, cumulative, offsets, masks,
                                                  chosen)
        if compatible:
            return state, used, redraws, False
        redraws += 1
        if redraws >= MAX_REJECTIONS_IN_A_ROW:
            return state, used, redraws, True


@helper
def _compatible_mass(group, list_cards, card_total, applied, excluded, word_counts, class_counts, card_words,
                     word_valid, group_word_offsets, class_word_offsets, class_weights, group_class_offsets):
    """Weight of the hands of ``group`` that share no card with the first ``card_total`` cards
    of ``list_cards`` (the list hands dealt so far), as a fraction of the group's whole weight.

    ``excluded[w]`` holds the group's hands (bits of word ``w``) holding a card already
    accounted for; ``applied[group]`` cards of ``list_cards`` are in it (-1: none yet in this
    deal). The cards dealt since are OR-ed in, then every word's compatible hands are counted
    into ``word_counts`` and every weight class's into ``class_counts`` (for
    :func:`_pick_compatible`).
    """
    first_word = group_word_offsets[group]
    last_word = group_word_offsets[group + 1]
    # views from 0: loops over them vectorize (no negative-index checks)
    group_excluded = excluded[first_word:last_word]
    position = applied[group]
    if position < 0:
        group_excluded[:] = card_words[list_cards[0], first_word:last_word]
        position = 1
    # four cards a pass where possible (one read and write of ``excluded`` for a whole hand)
    while card_total - position >= 4:
        row_0 = card_words[list_cards[position], first_word:last_word]
        row_1 = card_words[list_cards[position + 1], first_word:last_word]
        row_2 = card_words[list_cards[position + 2], first_word:last_word]
        row_3 = card_words[list_cards[position + 3], first_word:last_word]
        for word in range(group_excluded.shape[0]):
            group_excluded[word] |= row_0[word] | row_1[word] | row_2[word] | row_3[word]
        position += 4
    for card_position in range(position, card_total):
        row = card_words[list_cards[card_position], first_word:last_word]
        for word in range(group_excluded.shape[0]):
            group_excluded[word] |= row[word]
    applied[group] = card_total
    mass = 0.0
    for weight_class in range(group_class_offsets[group], group_class_offsets[group + 1]):
        class_start = class_word_offsets[weight_class]
        class_stop = class_word_offsets[weight_class + 1]
        class_excluded = excluded[class_start:class_stop]
        class_valid = word_valid[class_start:class_stop]
        class_word_counts = word_counts[class_start:class_stop]
        count = 0
        for word in range(class_excluded.shape[0]):
            word_count = np.int64(_popcount(~class_excluded[word] & class_valid[word]))
            class_word_counts[word] = word_count
            count += word_count
        class_counts[weight_class] = count
        mass += count * class_weights[weight_class]
    return mass


@helper
def _pick_compatible(group, target, excluded, word_counts, class_counts, word_valid, bit_hands, class_word_offsets,
                     class_weights, group_class_offsets):
    """The hand (row of the group hands) at weight ``target`` (0 <= target < compatible mass)
    along the group's compatible hands, after :func:`_compatible_mass`: a hand is picked with
    probability proportional to its weight."""
    chosen_class = -1
    rank = 0
    for weight_class in range(group_class_offsets[group], group_class_offsets[group + 1]):
        count = class_counts[weight_class]
        if count == 0:
            continue
        chosen_class = weight_class
        part = count * class_weights[weight_class]
        rank = count - 1  # the last compatible hand if rounding carries the target past the end
        if target < part:
            rank = min(np.int64(target / class_weights[weight_class]), count - 1)
            break
        target -= part
    for word in range(class_word_offsets[chosen_class], class_word_offsets[chosen_class + 1]):
        word_count = word_counts[word]
        if rank < word_count:
            bits = ~excluded[word] & word_valid[word]
            for _ in range(rank):
                bits &= bits - np.uint64(1)
            return bit_hands[word * 64 + np.int64(_trailing_zeros(bits))]
        rank -= word_count
    return -1  # unreachable: the class holds ``count`` compatible hands


@helper
def undealt_deck(used_mask, deck):
    """Write the cards outside ``used_mask`` (bit ``c`` for card ``c``), ascending, into
    ``deck``; returns how many there are."""
    deck_size = 0
    for card in range(52):
        if not (used_mask >> card) & 1:
            deck[deck_size] = card
            deck_size += 1
    return deck_size


@helper
def combination_features(index, list_hands, list_weights, colex, pair_indexes, hole_suit_masks, hole_low_masks):
    """What the evaluation needs of each hand of one combination of list hands (``index[i]``
    = the row of list ``i``'s hand: ``evaluate._kernels.hole_features`` into row ``i`` of the
    outputs); returns the combination's weight, the product of its hands' weights."""
    weight = 1
    for position in range(index.shape[0]):
        weight *= list_weights[index[position]]
        hole_low_masks[position] = hole_features(list_hands[index[position]], colex, pair_indexes[position],
                                                 hole_suit_masks[position])
    return weight


@helper
def combination_deal(index, used_mask, list_hands, list_weights, colex, pair_indexes, hole_suit_masks,
                     hole_low_masks, deck):
    """One combination of list hands ready to deal boards to: its hands' features and weight
    (:func:`combination_features`) and the cards left undealt around ``used_mask`` in ``deck``
    (:func:`undealt_deck`). Returns ``(weight, deck_size)``."""
    weight = combination_features(index, list_hands, list_weights, colex, pair_indexes, hole_suit_masks,
                                  hole_low_masks)
    return weight, undealt_deck(used_mask, deck)


@helper
def dealt_hand_values(board, hole, known_in_full, colex, board_ranks, board_suit_masks, pair_indexes,
                      hole_suit_masks, hole_low_masks, pair_board, flush, low, hilo, high_values, low_values):
    """Every player's high and low value (``high_values``, ``low_values``: (player_count,)
    int32, filled) on a dealt ``board`` (5,) int8 with the dealt ``hole`` cards
    (player_count, hole_count) int8; the features of a hand known in full
    (``known_in_full[player]``) are those already in ``pair_indexes``, ``hole_suit_masks`` and
    ``hole_low_masks``, the others' are computed here. ``board_ranks`` and
    ``board_suit_masks`` are work arrays."""
    board_index, flush_suit, board_low_mask = board_features(board, colex, board_ranks, board_suit_masks)
    board_suit_mask = board_suit_masks[flush_suit] if flush_suit >= 0 else 0
    for player in range(high_values.shape[0]):
        if not known_in_full[player]:
            hole_low_masks[player] = hole_features(hole[player], colex, pair_indexes[player],
                                                   hole_suit_masks[player])
        high_values[player], low_values[player] = hand_values(
            pair_indexes[player], hole_suit_masks[player], hole_low_masks[player], board_index, flush_suit,
            board_suit_mask, board_low_mask, pair_board, flush, low, hilo,
        )


@helper
def walk_scratch(player_count, pair_count, dealt_count):
    """The work arrays of a walk over hand lists, made once per slab: the walk's rows and cards
    used (``index``, ``used_stack``: (player_count,) int64), the hands' features
    (``pair_indexes`` (player_count, pair_count) int32, ``hole_suit_masks`` (player_count, 4)
    int32, ``hole_low_masks`` (player_count,) int64), the undealt ``deck`` (52,) int8, a board's
    ``combination`` (max(dealt_count, 1),) int64 and its ``suit_masks`` (4,) int32."""
    return (np.empty(player_count, dtype=np.int64), np.empty(player_count, dtype=np.int64),
            np.empty((player_count, pair_count), dtype=np.int32), np.empty((player_count, 4), dtype=np.int32),
            np.empty(player_count, dtype=np.int64), np.empty(52, dtype=np.int8),
            np.empty(max(dealt_count, 1), dtype=np.int64), np.empty(4, dtype=np.int32))


@helper
def combination_values(board_index, suit_masks, board_low_mask, pair_indexes, hole_suit_masks, hole_low_masks,
                       pair_board, flush, low, hilo, high_values, low_values):
    """Each hand's high and low value (in list order) on one complete board, given as
    ``fixed._kernels.enumerated_board`` leaves it: its rank-multiset index, ``suit_masks`` and low
    mask; the hands' features from :func:`combination_features`."""
    flush_suit = flush_suit_of(suit_masks)
    board_suit_mask = suit_masks[flush_suit] if flush_suit >= 0 else 0
    hands_values(pair_indexes, hole_suit_masks, hole_low_masks, board_index, flush_suit, board_suit_mask,
                 board_low_mask, pair_board, flush, low, hilo, high_values, low_values)


@helper
def known_hand_features(dealt_known, dealt_known_counts, dealt_players, colex, pair_indexes, hole_suit_masks,
                        hole_low_masks, known_in_full):
    """The features (``evaluate._kernels.hole_features``, into the player's rows) of the players
    with dealt cards whose cards are all known, worked out once; marks them in ``known_in_full``
    ((player_count,) bool, the others left as they are)."""
    hole_count = dealt_known.shape[1]
    for dealt_index in range(dealt_players.shape[0]):
        if dealt_known_counts[dealt_index] == hole_count:
            player = dealt_players[dealt_index]
            known_in_full[player] = True
            hole_low_masks[player] = hole_features(dealt_known[dealt_index], colex, pair_indexes[player],
                                                   hole_suit_masks[player])


@helper
def deal_unknown_cards(state, deck, deck_size, used, dealt_known, dealt_known_counts, dealt_players, known_in_full,
                       hole, board, board_known_count):
    """Complete the dealt players' hands (their known cards first) into their rows of ``hole``
    and the board after its ``board_known_count`` known cards: a partial Fisher-Yates shuffle
    of ``deck[:deck_size]`` (every card not known beforehand), passing over the cards in
    ``used`` (the list hands of this deal). Skipping items of a uniformly random sequence
    leaves a uniformly random sequence of the others, and the deck needs no rebuilding.
    Returns the generator state."""
    dealt = 0
    for dealt_index in range(dealt_players.shape[0]):
        player = dealt_players[dealt_index]
        if known_in_full[player]:
            continue
        for position in range(hole.shape[1]):
            if position < dealt_known_counts[dealt_index]:
                hole[player, position] = dealt_known[dealt_index, position]
                continue
            state, card, dealt = draw_unused(state, deck, dealt, deck_size, used)
            hole[player, position] = card
    for position in range(board_known_count, 5):
        state, card, dealt = draw_unused(state, deck, dealt, deck_size, used)
        board[position] = card
    return state


@helper
def place_hands(hands, chosen, players, hole):
    """List hand ``i`` (row ``chosen[i]`` of ``hands``) into player ``players[i]``'s row of ``hole``."""
    for position in range(players.shape[0]):
        player = players[position]
        for card_position in range(hole.shape[1]):
            hole[player, card_position] = hands[chosen[position], card_position]


@threaded_kernel
def sample_ranges(group_hands, group_masks, group_offsets, group_cumulative, card_words, word_valid, bit_hands,
                  group_word_offsets, class_word_offsets, class_weights, group_class_offsets, deal_groups,
                  deal_players, dealt_known, dealt_known_counts, dealt_players, base_used_mask, board_known,
                  player_count, colex, pair_board, flush, low, hilo, units, rejection, seed, first_chunk,
                  chunk_count, chunk_size, sample_count):
    """Monte Carlo over ranges, a range of chunks at a time (chunking and seeding as in
    ``fixed._kernels.sample_boards``), each deal with an importance weight.

    The list players are dealt one after another (``deal_groups`` order). With ``rejection``
    each takes a hand from their whole list by weight and a deal with a shared card is drawn
    again (weight 1). Otherwise (sequential importance sampling) each next player takes a hand
    by weight among the hands that share no card with those already dealt, and the deal's
    weight is the product over players of that compatible weight as a fraction of the list's
    whole weight: the chance that independent draws would have been compatible. The deal
    ``h`` is then drawn with probability ``prod w(h_i) / m_i`` (``m_i`` the compatible weight
    left for player ``i``), so weight x probability is ``prod w(h_i) / W_i``, proportional to
    the target: weighted averages are exact in expectation. A player left with no compatible
    hand gives weight 0. Compatible hands are found with one bit per hand: ``card_words[c]``
    marks the hands holding card ``c``, so excluding a dealt card is an OR over the list's
    words and the compatible weight a popcount per word.

    Parameters
    ----------
    group_hands : (hand_count, hole_count) int8, the distinct lists' hands, concatenated; each
        list sorted by weight class. group_masks : (hand_count,) int64 card masks.
    group_offsets : (group_count + 1,) int64, list ``g`` is rows ``group_offsets[g]:[g+1]``.
    group_cumulative : (hand_count,) float64, cumulative weights within each list, ending at 1.
    card_words : (52, word_count) uint64, bit ``b`` of word ``w`` set when hand
        ``bit_hands[64 w + b]`` holds the card. word_valid : (word_count,) uint64, bits of
        real hands. bit_hands : (64 word_count,) int64, group hand row of each bit (-1: none).
    group_word_offsets : (group_count + 1,) int64; class_word_offsets : (class_count + 1,)
        int64, the words of each weight class (a class starts a word); class_weights :
        (class_count,) float64, each hand's weight over its list's total;
        group_class_offsets : (group_count + 1,) int64.
    deal_groups, deal_players : (list_count,) int64, list and player of each list hand, in
        dealing order.
    dealt_known, dealt_known_counts, dealt_players : fixed, partial and random hands' known
        cards (padded), their count, and their players.
    base_used_mask : int64 mask of the known board, dead cards and known hand cards.
    board_known : (b,) int8; player_count : int; colex, pair_board, flush, low : tables;
    hilo : bool; units : pot units; rejection : bool; seed : uint64; first_chunk,
    chunk_count, chunk_size, sample_count : as in ``sample_boards``.

    Returns
    -------
    weights : (chunk_count, 2) float64, sum of deal weights and of their squares.
    stats : (chunk_count, player_count, STAT_COUNT) float64, weighted counts (EQUITY in pot
        units x weight).
    squares : (chunk_count, player_count, 3) float64, sums of w s^2, w^2 s and w^2 s^2 for the
        share ``s`` in pot units (standard errors).
    low_weights : (chunk_count,) float64, weight of deals where some player has a low.
    rejections : (chunk_count,) int64, deals redrawn for a shared card; -1 in a chunk that gave
        up after ``MAX_REJECTIONS_IN_A_ROW``.
    """
    hole_count = group_hands.shape[1]
    pair_count = hole_count * (hole_count - 1) // 2
    list_count = deal_groups.shape[0]
    group_count = group_offsets.shape[0] - 1
    board_known_count = board_known.shape[0]
    word_count = word_valid.shape[0]
    class_count = class_weights.shape[0]
    weights = np.zeros((chunk_count, 2), dtype=np.float64)
    stats = np.zeros((chunk_count, player_count, STAT_COUNT), dtype=np.float64)
    squares = np.zeros((chunk_count, player_count, 3), dtype=np.float64)
    low_weights = np.zeros(chunk_count, dtype=np.float64)
    rejections = np.zeros(chunk_count, dtype=np.int64)
    for slab in range(chunk_count):
        start, stop, state = chunk_start(seed, first_chunk + slab, chunk_size, sample_count)
        if start >= stop:
            continue
        chosen = np.empty(list_count, dtype=np.int64)
        list_cards = np.empty(list_count * hole_count, dtype=np.int8)
        applied = np.empty(group_count, dtype=np.int64)
        excluded = np.empty(word_count, dtype=np.uint64)
        word_counts = np.empty(word_count, dtype=np.int64)
        class_counts = np.empty(class_count, dtype=np.int64)
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
        known_hand_features(dealt_known, dealt_known_counts, dealt_players, colex, pair_indexes, hole_suit_masks,
                            hole_low_masks, known_in_full)
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        shares = np.empty(player_count, dtype=np.int64)
        slab_stats = stats[slab]
        for position in range(board_known_count):
            board[position] = board_known[position]
        deck_size = undealt_deck(base_used_mask, deck)
        weight_sum = 0.0
        square_weight_sum = 0.0
        low_weight = 0.0
        redrawn = 0
        gave_up = False
        for _ in range(stop - start):
            weight = 1.0
            used = base_used_mask
            if rejection:
                state, used, redraws, gave_up = draw_compatible_hands(
                    state, base_used_mask, deal_groups, group_cumulative, group_offsets, group_masks, chosen)
                redrawn += redraws
                if gave_up:
                    break
            else:
                for group in range(group_count):
                    applied[group] = -1
                for position in range(list_count):
                    group = deal_groups[position]
                    state, uniform = _uniform(state)
                    if position == 0:
                        hand = _pick_weighted(group_cumulative, group_offsets[group], group_offsets[group + 1],
                                              uniform)
                    else:
                        mass = _compatible_mass(group, list_cards, position * hole_count, applied, excluded,
                                                word_counts, class_counts, card_words, word_valid,
                                                group_word_offsets, class_word_offsets, class_weights,
                                                group_class_offsets)
                        if mass <= 0.0:
                            weight = 0.0
                            break
                        weight *= mass
                        hand = _pick_compatible(group, uniform * mass, excluded, word_counts, class_counts,
                                                word_valid, bit_hands, class_word_offsets, class_weights,
                                                group_class_offsets)
                    chosen[position] = hand
                    used |= group_masks[hand]
                    for card_position in range(hole_count):
                        list_cards[position * hole_count + card_position] = group_hands[hand, card_position]
            weight_sum += weight
            square_weight_sum += weight * weight
            if weight == 0.0:
                continue  # a dead end scores nothing
            # dealt players' unknown cards and the board, skipping cards a list hand holds
            state = deal_unknown_cards(state, deck, deck_size, used, dealt_known, dealt_known_counts, dealt_players,
                                       known_in_full, hole, board, board_known_count)
            place_hands(group_hands, chosen, deal_players, hole)
            dealt_hand_values(board, hole, known_in_full, colex, board_ranks, board_suit_masks, pair_indexes,
                              hole_suit_masks, hole_low_masks, pair_board, flush, low, hilo, high_values, low_values)
            low_weight += score_board(high_values, low_values, hilo, units, weight, shares, slab_stats)
            for player in range(player_count):
                share = float(shares[player])
                squares[slab, player, 0] += weight * share * share
                squares[slab, player, 1] += weight * weight * share
                squares[slab, player, 2] += weight * weight * share * share
        weights[slab, 0] = weight_sum
        weights[slab, 1] = square_weight_sum
        low_weights[slab] = low_weight
        rejections[slab] = -1 if gave_up else redrawn
    return weights, stats, squares, low_weights, rejections


@threaded_kernel
def _score_combination(index, used, list_hands, list_weights, board_known_count, colex, pair_board, flush, low,
                       dealt_board_indexes, binomials, hilo, units, fixed_suit_masks, fixed_low_mask, pair_indexes,
                       hole_suit_masks, hole_low_masks, deck, combination, suit_masks, high_values, low_values,
                       shares, slab_counts):
    """Score every completion of the board for one compatible combination of list hands
    (``index[player]`` = row of each player's hand, ``used`` their cards and the known ones).

    Returns ``(weight x completions, completions, weighted low boards)``."""
    dealt_count = 5 - board_known_count
    weight, deck_size = combination_deal(index, used, list_hands, list_weights, colex, pair_indexes, hole_suit_masks,
                                         hole_low_masks, deck)
    for position in range(dealt_count):
        combination[position] = position
    completions = binomials[deck_size, dealt_count]
    low_boards = 0
    for _ in range(completions):
        dealt_ranks_index, board_low_mask = enumerated_board(
            deck, combination, dealt_count, colex, fixed_suit_masks, fixed_low_mask, suit_masks)
        combination_values(dealt_board_indexes[dealt_ranks_index], suit_masks, board_low_mask, pair_indexes,
                           hole_suit_masks, hole_low_masks, pair_board, flush, low, hilo, high_values, low_values)
        low_boards += score_board(high_values, low_values, hilo, units, weight, shares, slab_counts)
        next_combination(combination, deck_size, dealt_count)
    return weight * completions, completions, low_boards


@threaded_kernel
@kernel_parameters
def enumerate_ranges(list_hands, list_masks, list_offsets, list_weights, base_used_mask, board_known,
                     dealt_board_indexes, colex, pair_board, flush, low, hilo, binomials, units, prefix_count,
                     first_unit, unit_count, chunk_count):
    """Exact enumeration over every compatible combination of list hands and every completion
    of the board, each combination weighted by the product of its hands' weights, a bounded
    piece of the work at a time.

    Every player is a list here (a fixed hand is a list of one). The work is cut into *units*:
    one unit is one choice of hands for the first ``prefix_count`` lists (numbered in mixed
    radix, list 0 the most significant digit), with every combination of the other lists and
    every board completion under it. A call scores units ``first_unit`` ..
    ``first_unit + unit_count - 1``, split into ``chunk_count`` slabs (the rows of the outputs;
    threads run calls side by side, see ``threads.across_threads``).

    Parameters
    ----------
    {exact_lists, score_tables, binomials, units}
    prefix_count : int
        Lists fixed per unit, 1..player_count.
    {first_unit, unit_count}
    chunk_count : int
        Slabs the call's units are split into (the outputs' rows).

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
    fixed_suit_masks = np.empty(4, dtype=np.int32)
    fixed_low_mask = known_board_masks(board_known, fixed_suit_masks)
    counts = np.zeros((chunk_count, player_count, STAT_COUNT), dtype=np.int64)
    low_boards = np.zeros(chunk_count, dtype=np.int64)
    weight_totals = np.zeros(chunk_count, dtype=np.int64)
    deal_totals = np.zeros(chunk_count, dtype=np.int64)
    for slab in range(chunk_count):
        unit_start = first_unit + unit_count * slab // chunk_count
        unit_stop = first_unit + unit_count * (slab + 1) // chunk_count
        index, used_stack, pair_indexes, hole_suit_masks, hole_low_masks, deck, combination, suit_masks = \
            walk_scratch(player_count, pair_count, dealt_count)
        high_values = np.empty(player_count, dtype=np.int32)
        low_values = np.zeros(player_count, dtype=np.int32)
        shares = np.empty(player_count, dtype=np.int64)
        slab_counts = counts[slab]
        for unit in range(unit_start, unit_stop):
            # the unit's hands for the first prefix_count lists, skipped if they share a card
            used = unit_hands(unit, prefix_count, list_offsets, list_masks, base_used_mask, index, used_stack)
            if used < 0:
                continue
            if prefix_count == player_count:
                weight, deals, lows = _score_combination(
                    index, used, list_hands, list_weights, board_known_count, colex, pair_board, flush, low,
                    dealt_board_indexes, binomials, hilo, units, fixed_suit_masks, np.int64(fixed_low_mask),
                    pair_indexes, hole_suit_masks, hole_low_masks, deck, combination, suit_masks, high_values,
                    low_values, shares, slab_counts)
                weight_totals[slab] += weight
                deal_totals[slab] += deals
                low_boards[slab] += lows
                continue
            # depth-first walk over the other players' lists, skipping shared cards
            level = first_combination(prefix_count, index, used_stack, list_offsets, list_masks)
            while level >= prefix_count:
                weight, deals, lows = _score_combination(
                    index, used_stack[level], list_hands, list_weights, board_known_count, colex, pair_board, flush,
                    low, dealt_board_indexes, binomials, hilo, units, fixed_suit_masks, np.int64(fixed_low_mask),
                    pair_indexes, hole_suit_masks, hole_low_masks, deck, combination, suit_masks, high_values,
                    low_values, shares, slab_counts)
                weight_totals[slab] += weight
                deal_totals[slab] += deals
                low_boards[slab] += lows
                level = next_combination_after(level, prefix_count, index, used_stack, list_offsets, list_masks)
    return counts, low_boards, weight_totals, deal_totals


@threaded_kernel
@kernel_parameters
def enumerate_combination_boards(list_hands, list_masks, list_offsets, list_weights, base_used_mask, board_known,
                                 dealt_board_indexes, colex, pair_board, pair_flush, low, hilo, binomials,
                                 slice_count, first_unit, unit_count):
    """Exact enumeration over ranges with the fixed-hand machinery: for each combination of list
    hands that share no card, the players' rows (``evaluate._kernels.build_player_rows``) and
    the fixed-hand enumeration of the rest of the deck (``fixed._kernels.enumerate_boards``), its
    outcome tallies added ``weight`` times (the product of the hands' weights).

    The work is cut into *units*: unit ``u`` is board slice ``u % slice_count`` (of
    ``slice_count`` equal slices of the completions, as ``enumerate_boards`` cuts them) of
    combination ``u // slice_count``, combinations numbered in mixed radix over the lists (list
    0 the most significant digit); a combination with a shared card is skipped. Consecutive
    units of one combination reuse its rows. A call scores units ``first_unit`` ..
    ``first_unit + unit_count - 1`` into one row of each output (threads run calls side by
    side, ``threads.across_threads``); every output is an integer sum, so the totals do not
    depend on how the units are cut.

    Parameters
    ----------
    {exact_lists, colex, pair_board}
    pair_flush : (78, 8192) int32
        Flush value by hole pair of one suit and rank mask of that suit on the board
        (``Tables.pair_flush``, the flush table of the fixed-hand rows).
    {low, hilo, binomials}
    slice_count : int64
        Board slices per combination.
    {first_unit, unit_count}

    Returns
    -------
    outcomes : (1, 2 ** outcome_key_bits) int64, weighted boards per outcome key (players in
        list order; score with ``fixed._kernels.score_outcomes``).
    has_low : (1, player_count) int64, weighted boards where each player has a qualifying low.
    weight_totals : (1,) int64, total weight (combination weight x boards).
    deal_totals : (1,) int64, deals scored (combinations x boards).
    """
    player_count = list_offsets.shape[0] - 1
    hole_count = list_hands.shape[1]
    dealt_count = 5 - board_known.shape[0]
    key_bits = 2 * player_count if hilo else player_count
    fixed_suit_masks = np.empty(4, dtype=np.int32)
    fixed_low_mask = known_board_masks(board_known, fixed_suit_masks)
    outcomes = np.zeros((1, 1 << key_bits), dtype=np.int64)
    has_low = np.zeros((1, player_count), dtype=np.int64)
    weight_totals = np.zeros(1, dtype=np.int64)
    deal_totals = np.zeros(1, dtype=np.int64)
    index = np.empty(player_count, dtype=np.int64)
    used_stack = np.empty(player_count, dtype=np.int64)
    rows_index = np.full(player_count, -1, dtype=np.int64)
    hole = np.empty((player_count, hole_count), dtype=np.int8)
    deck = np.empty(52, dtype=np.int8)
    high_rows, flush_rows, low_rows = build_player_rows(hole[:0], dealt_board_indexes, colex, pair_board,
                                                        pair_flush, low)
    for unit in range(first_unit, first_unit + unit_count):
        board_slice = unit % slice_count
        used = unit_hands(unit // slice_count, player_count, list_offsets, list_masks, base_used_mask, index,
                          used_stack)
        if used < 0:  # two of the hands share a card
            continue
        weight = np.int64(1)
        same_hands = True
        for level in range(player_count):
            weight *= list_weights[index[level]]
            same_hands = same_hands and rows_index[level] == index[level]
        if not same_hands:
            for level in range(player_count):
                rows_index[level] = index[level]
                for position in range(hole_count):
                    hole[level, position] = list_hands[index[level], position]
            high_rows, flush_rows, low_rows = build_player_rows(hole, dealt_board_indexes, colex, pair_board,
                                                                pair_flush, low)
        deck_size = undealt_deck(used, deck)
        slice_outcomes, slice_has_low = enumerate_boards(
            deck[:deck_size], dealt_count, fixed_suit_masks, np.int64(fixed_low_mask), high_rows, flush_rows, low_rows,
            colex, binomials, hilo, board_slice, np.int64(1), slice_count)  # int64s: the signature Python calls use
        completions = binomials[deck_size, dealt_count]
        boards = (completions * (board_slice + 1) // slice_count) - (completions * board_slice // slice_count)
        for key in range(slice_outcomes.shape[1]):
            outcomes[0, key] += weight * slice_outcomes[0, key]
        for level in range(player_count):
            has_low[0, level] += weight * slice_has_low[0, level]
        weight_totals[0] += weight * boards
        deal_totals[0] += boards
    return outcomes, has_low, weight_totals, deal_totals
