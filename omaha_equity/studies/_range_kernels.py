"""Compiled kernels of a range's equity hand by hand against another range
(``studies.range_by_hand``), heads-up, with card removal per hand.

On one complete board, every hand of both ranges is evaluated once. The opponent's hands are
sorted by value, so the weight of the opponent hands that a hand beats (or ties) is a prefix
sum. Card removal is done by inclusion-exclusion over the hand's cards. Let ``k`` be the
number of cards an opponent hand shares with the hand. The lists of opponent hands holding one
given card, and those holding two given cards, are filled in sorted order and read the same
way (by cursors, the hands visited in ascending value). Subtracting the one-card sums and
adding back the two-card sums counts an opponent hand ``k - C(k, 2)`` times, which is 1 for
``k`` = 1 or 2. The few opponent hands sharing three or more cards are walked one by one from
their three-card lists and corrected by ``C(k - 1, 2)``. This is how
``k - C(k, 2) + C(k - 1, 2) = 1`` for every colliding hand. Every colliding hand is then removed
exactly once, and the hand's wins, ties and the weight it faces come from whole-number sums:
no pair of hands is ever scored one by one.

Hi/lo is the same three times over: high values against every opponent hand, high values
against the opponent hands with a low, and low values (no low ranks lowest). A hand with a low
wins ``h + l`` quarter pots against an opponent hand (``h``, ``l``: 2 for a win, 1 for a tie, 0
for a loss in each half). A hand with no low wins ``2h`` quarters against a hand with no low
(the high takes the whole pot) and ``h`` quarters against one with a low. These are
``pots.split_pot``'s shares heads-up, in its units (2 a pot, 4 for hi/lo).

A turn or flop is every river (or turn and river) completion, each scored as above; a hand's
sums add over the completions that do not hold its cards. Monte Carlo scores sampled
completions the same way, each exactly against the whole opponent range.
"""

from __future__ import annotations

import numpy as np

from ..evaluate._kernels import bit_count, board_features, hand_values, hole_features
from ..runtime.numba import kernel, threaded_kernel

DECK_CARDS = 52
# Keys of the card-subset lists: a card; two cards ``high * 52 + low``; three cards likewise.
PAIR_KEYS = DECK_CARDS * DECK_CARDS
TRIPLE_KEYS = DECK_CARDS * DECK_CARDS * DECK_CARDS


@kernel
def hole_feature_arrays(hands, colex):
    """``evaluate._kernels.hole_features`` of every hand of a list.

    Parameters
    ----------
    hands : (hand_count, hole_count) int8
    colex : (5, 13) int32, ``evaluate.tables.Tables.colex``.

    Returns
    -------
    pair_indexes : (hand_count, C(hole_count, 2)) int32
    suit_masks : (hand_count, 4) int32
    low_masks : (hand_count,) int64
    """
    hand_count, hole_count = hands.shape
    pair_indexes = np.empty((hand_count, hole_count * (hole_count - 1) // 2), dtype=np.int32)
    suit_masks = np.empty((hand_count, 4), dtype=np.int32)
    low_masks = np.empty(hand_count, dtype=np.int64)
    for hand in range(hand_count):
        low_masks[hand] = hole_features(hands[hand], colex, pair_indexes[hand], suit_masks[hand])
    return pair_indexes, suit_masks, low_masks


@kernel
def subset_lists(hands):
    """Where each card subset's list of hands starts, and the hands of every three-card list.

    Parameters
    ----------
    hands : (hand_count, hole_count) int8, cards descending within a hand.

    Returns
    -------
    single_offsets : (53,) int64, the hands holding card ``c`` take list places
        ``single_offsets[c]:single_offsets[c + 1]``.
    pair_offsets : (PAIR_KEYS + 1,) int64, likewise for two cards (key ``high * 52 + low``).
    triple_offsets : (TRIPLE_KEYS + 1,) int64, likewise for three cards.
    triple_hands : (hand_count * C(hole_count, 3),) int32, the hands of each three-card list.
    """
    hand_count, hole_count = hands.shape
    single_counts = np.zeros(DECK_CARDS + 1, dtype=np.int64)
    pair_counts = np.zeros(PAIR_KEYS + 1, dtype=np.int64)
    triple_counts = np.zeros(TRIPLE_KEYS + 1, dtype=np.int64)
    for hand in range(hand_count):
        for first in range(hole_count):
            high = np.int64(hands[hand, first])
            single_counts[high + 1] += 1
            for second in range(first + 1, hole_count):
                pair = high * DECK_CARDS + np.int64(hands[hand, second])
                pair_counts[pair + 1] += 1
                for third in range(second + 1, hole_count):
                    triple_counts[pair * DECK_CARDS + np.int64(hands[hand, third]) + 1] += 1
    single_offsets = np.cumsum(single_counts)
    pair_offsets = np.cumsum(pair_counts)
    triple_offsets = np.cumsum(triple_counts)
    triple_hands = np.empty(triple_offsets[TRIPLE_KEYS], dtype=np.int32)
    fill = triple_offsets[:TRIPLE_KEYS].copy()
    for hand in range(hand_count):
        for first in range(hole_count):
            for second in range(first + 1, hole_count):
                for third in range(second + 1, hole_count):
                    key = ((np.int64(hands[hand, first]) * DECK_CARDS + np.int64(hands[hand, second])) * DECK_CARDS
                           + np.int64(hands[hand, third]))
                    triple_hands[fill[key]] = hand
                    fill[key] += 1
    return single_offsets, pair_offsets, triple_offsets, triple_hands


@threaded_kernel
def _listed_weights(positions, cumulative, start, stop, key, lower_places, upper_places, lower, upper):
    """In one sorted list (places ``start:stop``): the weight of its hands sorted before
    ``lower``, before ``upper``, and in all. The list's two cursors (``lower_places[key]``,
    ``upper_places[key]``) only move forward: the hands are visited in ascending value, so
    ``lower`` and ``upper`` never decrease, and a list is walked once per pass in all."""
    if stop == start:
        return 0, 0, 0
    place = lower_places[key]
    while place < stop and positions[place] < lower:
        place += 1
    lower_places[key] = place
    weight_lower = cumulative[place - 1] if place > start else 0
    place = max(upper_places[key], place)
    while place < stop and positions[place] < upper:
        place += 1
    upper_places[key] = place
    weight_upper = cumulative[place - 1] if place > start else 0
    return weight_lower, weight_upper, cumulative[stop - 1]


@threaded_kernel
def tally_against(values, weights, order, lists, hand_values_now, live, faced, scores, scratch):
    """Each live hand's wins and ties against the opponent hands that share no card with it.

    The hands are visited in ascending value, so that every sorted list is read by cursors that
    only move forward (:func:`_listed_weights`): a pass walks each list once (on 15% ranges this
    measured the same as a binary search per hand and list, within the noise of a busy machine).

    Parameters
    ----------
    values : (opponent_count,) int32, each opponent hand's value on the board (larger wins).
    weights : (opponent_count,) int64, each opponent hand's whole weight (0: not faced).
    order : (opponent_count,) int64, ``values`` ascending (``np.argsort``).
    lists : tuple of ``(opponent_hands, opponent_masks, single_offsets, pair_offsets,
        triple_offsets, triple_hands, hands, hand_masks)``: the opponent hands,
        (opponent_count, hole_count) int8, cards descending within a hand, and their
        (opponent_count,) int64 card bit masks; :func:`subset_lists` of ``opponent_hands``; the
        hands, (hand_count, hole_count) int8, cards descending, and their (hand_count,) int64 masks.
        One tuple, since every pass of a board reads the same lists.
    hand_values_now : (hand_count,) int32, each hand's value on the board.
    live : (hand_count,) bool, the hands scored (the others are left alone).
    faced : (hand_count,) int64, output: weight of the opponent hands sharing no card.
    scores : (hand_count,) int64, output: their weight times 2 for a win, 1 for a tie, 0 for a loss.
    scratch : tuple of ``(sorted_values, prefix, single_positions, single_cumulative,
        single_fill, pair_positions, pair_cumulative, pair_fill, single_cursors, pair_cursors)``,
        sized ``opponent_count``, ``opponent_count + 1``,
        ``opponent_count * hole_count`` (twice), 52, ``opponent_count * C(hole_count, 2)``
        (twice), ``PAIR_KEYS``, then ``(2, 52)`` and ``(2, PAIR_KEYS)`` int64.
    """
    opponent_hands, opponent_masks, single_offsets, pair_offsets, triple_offsets, triple_hands, hands, hand_masks = \
        lists
    (sorted_values, prefix, single_positions, single_cumulative, single_fill, pair_positions, pair_cumulative,
     pair_fill, single_cursors, pair_cursors) = scratch
    opponent_count, hole_count = opponent_hands.shape
    prefix[0] = 0
    for key in range(DECK_CARDS):
        single_fill[key] = single_offsets[key]
    for key in range(PAIR_KEYS):
        pair_fill[key] = pair_offsets[key]
    for place in range(opponent_count):
        opponent = order[place]
        weight = weights[opponent]
        sorted_values[place] = values[opponent]
        prefix[place + 1] = prefix[place] + weight
        for first in range(hole_count):
            high = np.int64(opponent_hands[opponent, first])
            entry = single_fill[high]
            single_fill[high] += 1
            single_positions[entry] = place
            single_cumulative[entry] = weight + (single_cumulative[entry - 1] if entry > single_offsets[high] else 0)
            for second in range(first + 1, hole_count):
                pair = high * DECK_CARDS + np.int64(opponent_hands[opponent, second])
                entry = pair_fill[pair]
                pair_fill[pair] += 1
                pair_positions[entry] = place
                pair_cumulative[entry] = weight + (pair_cumulative[entry - 1] if entry > pair_offsets[pair] else 0)
    total = prefix[opponent_count]
    for key in range(DECK_CARDS):
        single_cursors[0, key] = single_offsets[key]
        single_cursors[1, key] = single_offsets[key]
    for key in range(PAIR_KEYS):
        pair_cursors[0, key] = pair_offsets[key]
        pair_cursors[1, key] = pair_offsets[key]
    lower = 0
    upper = 0
    for hand in np.argsort(hand_values_now):
        if not live[hand]:
            continue
        value = hand_values_now[hand]
        while lower < opponent_count and sorted_values[lower] < value:
            lower += 1
        upper = max(upper, lower)
        while upper < opponent_count and sorted_values[upper] <= value:
            upper += 1
        below = prefix[lower]
        level = prefix[upper]
        whole = total
        for first in range(hole_count):
            high = np.int64(hands[hand, first])
            weight_lower, weight_upper, weight_all = _listed_weights(
                single_positions, single_cumulative, single_offsets[high], single_offsets[high + 1], high,
                single_cursors[0], single_cursors[1], lower, upper)
            below -= weight_lower
            level -= weight_upper
            whole -= weight_all
            for second in range(first + 1, hole_count):
                pair = high * DECK_CARDS + np.int64(hands[hand, second])
                weight_lower, weight_upper, weight_all = _listed_weights(
                    pair_positions, pair_cumulative, pair_offsets[pair], pair_offsets[pair + 1], pair,
                    pair_cursors[0], pair_cursors[1], lower, upper)
                below += weight_lower
                level += weight_upper
                whole += weight_all
                for third in range(second + 1, hole_count):
                    lowest = np.int64(hands[hand, third])
                    triple = pair * DECK_CARDS + lowest
                    for entry in range(triple_offsets[triple], triple_offsets[triple + 1]):
                        opponent = triple_hands[entry]
                        weight = weights[opponent]
                        if weight == 0:
                            continue
                        shared = opponent_masks[opponent] & hand_masks[hand]
                        # walked once, from the list of its three highest shared cards
                        if bit_count(shared >> lowest) != 3:
                            continue
                        shared_count = bit_count(shared)
                        correction = weight * ((shared_count - 1) * (shared_count - 2) // 2)
                        whole -= correction
                        opponent_value = values[opponent]
                        if opponent_value <= value:
                            level -= correction
                            if opponent_value < value:
                                below -= correction
        faced[hand] = whole
        scores[hand] = below + level  # 2 x wins + ties: below counted twice, ties once
    return 0


@threaded_kernel
def score_completions(completions, chunk_bounds, board_known, hands, hand_masks, hand_pairs, hand_suits, hand_lows,
                      opponent_hands, opponent_masks, opponent_weights, opponent_pairs, opponent_suits,
                      opponent_lows, single_offsets, pair_offsets, triple_offsets, triple_hands, colex, pair_board,
                      flush, low, hilo):
    """Every hand's equity sums against the opponent range over some board completions.

    Parameters
    ----------
    completions : (completion_count, 5 - b) int8, the dealt cards of each completion (all of
        them, or Monte Carlo samples).
    chunk_bounds : (chunk_count + 1,) int64, chunk ``i`` is completions
        ``chunk_bounds[i]:chunk_bounds[i + 1]`` (a call takes ``chunk_bounds[first:first + count + 1]``).
    board_known : (b,) int8, the known board, 0..5 cards.
    hands : (hand_count, hole_count) int8, the range's hands, cards descending, none holding a
        known card; hand_masks : (hand_count,) int64; hand_pairs, hand_suits, hand_lows :
        :func:`hole_feature_arrays` of them.
    opponent_hands ... opponent_lows : the same for the opponent's range, with
        ``opponent_weights`` (opponent_count,) int64, whole weights.
    single_offsets ... triple_hands : :func:`subset_lists` of ``opponent_hands``.
    colex, pair_board, flush, low : ``evaluate.tables.Tables``; hilo : bool.

    Returns
    -------
    share_sums : (chunk_count, hand_count) int64, weighted pot shares in ``pots.pot_units``
        (2 a pot, 4 hi/lo) over the chunk's completions.
    faced_sums : (chunk_count, hand_count) int64, weight of the opponent hands faced, summed.
    board_counts : (chunk_count, hand_count) int64, completions that hold none of the hand's cards.
    moments : (chunk_count, hand_count, 3) float64, sums over those completions of the share
        sum squared, the faced weight squared and their product (the Monte Carlo error).
    """
    chunk_count = chunk_bounds.shape[0] - 1
    hand_count, hole_count = hands.shape
    opponent_count = opponent_hands.shape[0]
    known_count = board_known.shape[0]
    dealt_count = completions.shape[1]
    pair_count = hole_count * (hole_count - 1) // 2
    share_sums = np.zeros((chunk_count, hand_count), dtype=np.int64)
    faced_sums = np.zeros((chunk_count, hand_count), dtype=np.int64)
    board_counts = np.zeros((chunk_count, hand_count), dtype=np.int64)
    moments = np.zeros((chunk_count, hand_count, 3), dtype=np.float64)
    board = np.empty(5, dtype=np.int8)
    for position in range(known_count):
        board[position] = board_known[position]
    ranks = np.empty(5, dtype=np.int32)
    suit_masks = np.empty(4, dtype=np.int32)
    opponent_high = np.empty(opponent_count, dtype=np.int32)
    opponent_low = np.empty(opponent_count, dtype=np.int32)
    live_weights = np.empty(opponent_count, dtype=np.int64)
    low_weights = np.empty(opponent_count, dtype=np.int64)
    hand_high = np.empty(hand_count, dtype=np.int32)
    hand_low = np.empty(hand_count, dtype=np.int32)
    live = np.empty(hand_count, dtype=np.bool_)
    faced = np.empty(hand_count, dtype=np.int64)
    high_scores = np.empty(hand_count, dtype=np.int64)
    low_scores = np.empty(hand_count, dtype=np.int64)
    high_low_scores = np.empty(hand_count, dtype=np.int64)
    unused = np.empty(hand_count, dtype=np.int64)
    sorted_values = np.empty(opponent_count, dtype=np.int32)
    prefix = np.empty(opponent_count + 1, dtype=np.int64)
    single_positions = np.empty(opponent_count * hole_count, dtype=np.int64)
    single_cumulative = np.empty(opponent_count * hole_count, dtype=np.int64)
    single_fill = np.empty(DECK_CARDS, dtype=np.int64)
    pair_positions = np.empty(opponent_count * pair_count, dtype=np.int64)
    pair_cumulative = np.empty(opponent_count * pair_count, dtype=np.int64)
    pair_fill = np.empty(PAIR_KEYS, dtype=np.int64)
    single_cursors = np.empty((2, DECK_CARDS), dtype=np.int64)
    pair_cursors = np.empty((2, PAIR_KEYS), dtype=np.int64)
    lists = (opponent_hands, opponent_masks, single_offsets, pair_offsets, triple_offsets, triple_hands, hands,
             hand_masks)
    scratch = (sorted_values, prefix, single_positions, single_cumulative, single_fill, pair_positions,
               pair_cumulative, pair_fill, single_cursors, pair_cursors)
    for chunk in range(chunk_count):
        for completion in range(chunk_bounds[chunk], chunk_bounds[chunk + 1]):
            dealt_mask = np.int64(0)
            for position in range(dealt_count):
                card = completions[completion, position]
                board[known_count + position] = card
                dealt_mask |= np.int64(1) << np.int64(card)
            board_index, flush_suit, board_low_mask = board_features(board, colex, ranks, suit_masks)
            board_suit_mask = suit_masks[flush_suit] if flush_suit >= 0 else 0
            for opponent in range(opponent_count):
                if opponent_masks[opponent] & dealt_mask:
                    live_weights[opponent] = 0
                    opponent_high[opponent] = 0
                    opponent_low[opponent] = 0
                else:
                    live_weights[opponent] = opponent_weights[opponent]
                    opponent_high[opponent], opponent_low[opponent] = hand_values(
                        opponent_pairs[opponent], opponent_suits[opponent], opponent_lows[opponent], board_index,
                        flush_suit, board_suit_mask, board_low_mask, pair_board, flush, low, hilo)
            for hand in range(hand_count):
                live[hand] = (hand_masks[hand] & dealt_mask) == 0
                if live[hand]:
                    hand_high[hand], hand_low[hand] = hand_values(
                        hand_pairs[hand], hand_suits[hand], hand_lows[hand], board_index, flush_suit,
                        board_suit_mask, board_low_mask, pair_board, flush, low, hilo)
            order = np.argsort(opponent_high)
            tally_against(opponent_high, live_weights, order, lists, hand_high, live, faced, high_scores, scratch)
            if hilo:
                for opponent in range(opponent_count):
                    low_weights[opponent] = live_weights[opponent] if opponent_low[opponent] > 0 else 0
                tally_against(opponent_high, low_weights, order, lists, hand_high, live, unused, high_low_scores,
                              scratch)
                low_order = np.argsort(opponent_low)
                tally_against(opponent_low, live_weights, low_order, lists, hand_low, live, unused, low_scores, scratch)
            for hand in range(hand_count):
                if not live[hand]:
                    continue
                if not hilo:
                    share = high_scores[hand]
                elif hand_low[hand] > 0:
                    share = high_scores[hand] + low_scores[hand]
                else:
                    share = 2 * high_scores[hand] - high_low_scores[hand]
                share_sums[chunk, hand] += share
                faced_sums[chunk, hand] += faced[hand]
                board_counts[chunk, hand] += 1
                share_float = np.float64(share)
                faced_float = np.float64(faced[hand])
                moments[chunk, hand, 0] += share_float * share_float
                moments[chunk, hand, 1] += faced_float * faced_float
                moments[chunk, hand, 2] += share_float * faced_float
    return share_sums, faced_sums, board_counts, moments
