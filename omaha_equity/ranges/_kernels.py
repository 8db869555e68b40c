"""Compiled range kernels: walk every hand that can be dealt and keep those a program matches.

A compiled range (see :mod:`omaha_equity.ranges.program`) is a postfix program of operations
over per-hand predicates:

- ``OP_PATTERN p``: the hand holds pattern ``p``: there is a one-to-one assignment of the
  pattern's cards to distinct hand cards, with every card in its allowed set and the rank and
  suit variables bound consistently (same letter same value, different letters different
  values, values from the pattern's variable domains). Found by depth-first search over the
  hand's cards; identical pattern cards take hand cards in increasing position only, so a
  pair ``xx`` is not tried twice in swapped order.
- ``OP_MACRO m``: a shape test on the suit and rank counts (``$ds``, ``$ss``, ``$r``, ``$np``).
- ``OP_SET s``: membership in a precomputed set (a percent range), a byte per hand of the deck,
  indexed by the hand's position in the canonical order.
- ``OP_OR``, ``OP_AND``, ``OP_AND_NOT``: ``,``, ``:`` and ``!``; ``OP_WEIGHT w``: ``@N``.

Each entry of the evaluation stack is (in range, weight); the weight is NaN while no ``@N``
applies, which lets ``:`` ignore an unweighted side (rules in the package docstring).

The hands walked are the ``free``-card subsets of ``deck`` (cards not excluded and not
required), each joined with the ``required`` cards every match must hold, in descending colex
order of the subset. Because required and excluded cards are the same for every hand, this is
the canonical order of whole hands: descending by the bit mask ``sum(1 << card)``, that is
lexicographically descending rows of descending cards (``AsAhAdAc`` first).

Work is cut into chunks of consecutive positions, each with its own count (no atomics):
the first kernel marks matches and counts them per chunk, the second writes each chunk's hands
at the offset of its preceding counts, so the output does not depend on the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

OP_PATTERN, OP_MACRO, OP_SET, OP_OR, OP_AND, OP_AND_NOT, OP_WEIGHT = range(7)
MACRO_DOUBLE_SUITED, MACRO_SINGLE_SUITED, MACRO_RAINBOW, MACRO_NO_PAIR = range(4)

# card_info columns
INFO_RANK_VARIABLE, INFO_SUIT_VARIABLE, INFO_SAME_AS_PREVIOUS = range(3)
# pattern_info columns
PATTERN_START, PATTERN_CARD_COUNT, PATTERN_RANK_DOMAIN, PATTERN_SUIT_DOMAIN, PATTERN_RANK_VARIABLES, PATTERN_SUIT_VARIABLES = range(6)
PATTERN_INFO_WIDTH = 6
MAX_HOLE_COUNT = 6


@njit(cache=True, nogil=True)
def _match_pattern(hand, hole_count, pattern, card_allowed, card_info, pattern_info,
                   assigned, bound, rank_values, suit_values):
    """True when ``hand`` (``hole_count`` card ints) holds pattern number ``pattern``.

    ``assigned``, ``bound`` (per pattern card) and ``rank_values`` (13), ``suit_values`` (4) are
    scratch arrays; variables are bound in order and unbound on backtracking.
    """
    start = pattern_info[pattern, PATTERN_START]
    count = pattern_info[pattern, PATTERN_CARD_COUNT]
    if count == 0:
        return True
    rank_domain = pattern_info[pattern, PATTERN_RANK_DOMAIN]
    suit_domain = pattern_info[pattern, PATTERN_SUIT_DOMAIN]
    for variable in range(pattern_info[pattern, PATTERN_RANK_VARIABLES]):
        rank_values[variable] = -1
    for variable in range(pattern_info[pattern, PATTERN_SUIT_VARIABLES]):
        suit_values[variable] = -1
    used = 0
    ranks_taken = 0
    suits_taken = 0
    index = 0
    assigned[0] = -1
    while True:
        card_index = start + index
        previous = assigned[index]
        if previous >= 0:  # undo this card's assignment, then try the next hand card
            used &= ~(1 << previous)
            if bound[index] & 1:
                variable = card_info[card_index, INFO_RANK_VARIABLE]
                ranks_taken &= ~(1 << rank_values[variable])
                rank_values[variable] = -1
            if bound[index] & 2:
                variable = card_info[card_index, INFO_SUIT_VARIABLE]
                suits_taken &= ~(1 << suit_values[variable])
                suit_values[variable] = -1
            bound[index] = 0
            position = previous + 1
        elif index > 0 and card_info[card_index, INFO_SAME_AS_PREVIOUS]:
            position = assigned[index - 1] + 1
        else:
            position = 0
        allowed = card_allowed[card_index]
        rank_variable = card_info[card_index, INFO_RANK_VARIABLE]
        suit_variable = card_info[card_index, INFO_SUIT_VARIABLE]
        found = False
        while position < hole_count:
            if not (used >> position) & 1:
                card = hand[position]
                if (allowed >> card) & 1:
                    rank = card >> 2
                    suit = card & 3
                    binding = 0
                    fits = True
                    if rank_variable >= 0:
                        value = rank_values[rank_variable]
                        if value >= 0:
                            fits = value == rank
                        elif (rank_domain >> rank) & 1 and not (ranks_taken >> rank) & 1:
                            binding |= 1
                        else:
                            fits = False
                    if fits and suit_variable >= 0:
                        value = suit_values[suit_variable]
                        if value >= 0:
                            fits = value == suit
                        elif (suit_domain >> suit) & 1 and not (suits_taken >> suit) & 1:
                            binding |= 2
                        else:
                            fits = False
                    if fits:
                        if binding & 1:
                            rank_values[rank_variable] = rank
                            ranks_taken |= 1 << rank
                        if binding & 2:
                            suit_values[suit_variable] = suit
                            suits_taken |= 1 << suit
                        bound[index] = binding
                        assigned[index] = position
                        used |= 1 << position
                        found = True
                        break
            position += 1
        if found:
            index += 1
            if index == count:
                return True
            assigned[index] = -1
            bound[index] = 0
        else:
            assigned[index] = -1
            index -= 1
            if index < 0:
                return False


@njit(cache=True, nogil=True)
def _match_macro(hand, hole_count, macro):
    """The shape macros on the suit counts (``$ds``, ``$ss``, ``$r``) or rank counts (``$np``)."""
    if macro == MACRO_NO_PAIR:
        seen = 0
        for position in range(hole_count):
            bit = 1 << (hand[position] >> 2)
            if seen & bit:
                return False
            seen |= bit
        return True
    counts = 0  # four 4-bit suit counts, no allocation in the hot loop
    for position in range(hole_count):
        counts += 1 << (4 * (hand[position] & 3))
    pairs = 0
    for suit in range(4):
        count = (counts >> (4 * suit)) & 15
        if count > 2:
            return False
        if count == 2:
            pairs += 1
    if macro == MACRO_DOUBLE_SUITED:
        return pairs == 2
    if macro == MACRO_SINGLE_SUITED:
        return pairs == 1
    return pairs == 0  # rainbow: every suit count is 0 or 1


@njit(cache=True, nogil=True)
def _evaluate(hand, hole_count, set_index, operations, weight_values, card_allowed, card_info,
              pattern_info, sets, assigned, bound, rank_values, suit_values, in_range, weights):
    """Run the program on one hand: its weight (1.0 when unweighted), or 0.0 when out of range."""
    depth = 0
    for step in range(operations.shape[0]):
        operation = operations[step, 0]
        argument = operations[step, 1]
        if operation == OP_PATTERN:
            in_range[depth] = _match_pattern(hand, hole_count, argument, card_allowed, card_info,
                                             pattern_info, assigned, bound, rank_values, suit_values)
            weights[depth] = np.nan
            depth += 1
        elif operation == OP_MACRO:
            in_range[depth] = _match_macro(hand, hole_count, argument)
            weights[depth] = np.nan
            depth += 1
        elif operation == OP_SET:
            in_range[depth] = sets[argument, set_index] != 0
            weights[depth] = np.nan
            depth += 1
        elif operation == OP_WEIGHT:
            factor = weight_values[argument]
            top = weights[depth - 1]
            weights[depth - 1] = factor if np.isnan(top) else top * factor
        else:
            depth -= 1
            left_in = in_range[depth - 1]
            right_in = in_range[depth]
            left = weights[depth - 1]
            right = weights[depth]
            if operation == OP_OR:
                if left_in and right_in:
                    if not (np.isnan(left) and np.isnan(right)):
                        left = 1.0 if np.isnan(left) else left
                        right = 1.0 if np.isnan(right) else right
                        weights[depth - 1] = left if left >= right else right
                elif right_in:
                    weights[depth - 1] = right
                in_range[depth - 1] = left_in or right_in
            elif operation == OP_AND:
                if np.isnan(left) or (not np.isnan(right) and right > left):
                    weights[depth - 1] = right
                in_range[depth - 1] = left_in and right_in
            else:  # OP_AND_NOT keeps the left weight
                in_range[depth - 1] = left_in and not right_in
    if not in_range[0]:
        return 0.0
    return 1.0 if np.isnan(weights[0]) else weights[0]


@njit(cache=True, nogil=True)
def _unrank_colex(rank, size, binomials, indexes):
    """``indexes[0] < ... < indexes[size - 1]``: the subset with this colex rank."""
    remaining = rank
    for position in range(size - 1, -1, -1):
        value = position
        while binomials[value + 1, position + 1] <= remaining:
            value += 1
        indexes[position] = value
        remaining -= binomials[value, position + 1]


@njit(cache=True, nogil=True)
def _previous_colex(indexes, size):
    """Step ``indexes`` to the subset just before it in colex order (it must not be the first)."""
    position = 0
    while indexes[position] == position:
        position += 1
    indexes[position] -= 1
    for lower in range(position):
        indexes[lower] = indexes[position] - (position - lower)


@njit(cache=True, nogil=True)
def _assemble(deck, indexes, free_count, required, hand):
    """The hand, descending: the chosen deck cards merged with the required cards."""
    chosen = free_count - 1
    taken = 0
    for position in range(free_count + required.shape[0]):
        if chosen >= 0 and (taken >= required.shape[0] or deck[indexes[chosen]] > required[taken]):
            hand[position] = deck[indexes[chosen]]
            chosen -= 1
        else:
            hand[position] = required[taken]
            taken += 1


@njit(cache=True, nogil=True)
def _deck_index(hand, hole_count, binomials):
    """Position of a descending hand in the canonical order of all hands of the 52-card deck."""
    colex = 0
    for position in range(hole_count):
        colex += binomials[hand[hole_count - 1 - position], position + 1]
    return binomials[52, hole_count] - 1 - colex


@njit(parallel=True, cache=True)
def match_hands(deck, required, hole_count, operations, weight_values, card_allowed, card_info,
                pattern_info, sets, binomials, chunk_count, matched, chunk_counts):
    """Mark the hands the program matches.

    Parameters
    ----------
    deck : (deck_count,) int64, ascending
        Cards the hands may use besides ``required`` (excluded cards removed).
    required : (required_count,) int64, descending
        Cards every matching hand holds.
    operations : (operation_count, 2) int64; weight_values : (weight_count,) float64
    card_allowed : (card_count,) int64
        52-bit masks of the cards each pattern card may take.
    card_info : (card_count, 3) int64
        Rank variable, suit variable (-1 for none) and "same as the previous card" flag.
    pattern_info : (pattern_count, 6) int64
        Start, card count, rank-variable domain (13 bits), suit-variable domain (4 bits), rank
        and suit variable counts.
    sets : (set_count, C(52, hole_count)) uint8, or (0, 0)
        Membership of every hand of the deck in each percent range, by canonical position.
    binomials : (53, 8) int64
        ``binomials[n, k] = C(n, k)``.
    matched : (C(deck_count, hole_count - required_count),) uint8, output
        1 where the hand at that position matches.
    chunk_counts : (chunk_count,) int64, output
        Matches per chunk of consecutive positions.
    """
    free_count = hole_count - required.shape[0]
    total = binomials[deck.shape[0], free_count]
    uses_sets = sets.shape[0] > 0
    for chunk in prange(chunk_count):
        begin = total * chunk // chunk_count
        end = total * (chunk + 1) // chunk_count
        indexes = np.empty(MAX_HOLE_COUNT + 1, np.int64)
        hand = np.empty(MAX_HOLE_COUNT, np.int64)
        assigned = np.empty(MAX_HOLE_COUNT, np.int64)
        bound = np.zeros(MAX_HOLE_COUNT, np.int64)
        rank_values = np.empty(13, np.int64)
        suit_values = np.empty(4, np.int64)
        in_range = np.empty(operations.shape[0] + 1, np.bool_)
        weights = np.empty(operations.shape[0] + 1, np.float64)
        count = 0
        if begin < end:
            _unrank_colex(total - 1 - begin, free_count, binomials, indexes)
        for position in range(begin, end):
            _assemble(deck, indexes, free_count, required, hand)
            set_index = _deck_index(hand, hole_count, binomials) if uses_sets else 0
            weight = _evaluate(hand, hole_count, set_index, operations, weight_values, card_allowed,
                               card_info, pattern_info, sets, assigned, bound, rank_values,
                               suit_values, in_range, weights)
            if weight > 0.0:
                matched[position] = 1
                count += 1
            else:
                matched[position] = 0
            if position + 1 < end:
                _previous_colex(indexes, free_count)
        chunk_counts[chunk] = count


@njit(parallel=True, cache=True)
def collect_hands(deck, required, hole_count, operations, weight_values, card_allowed, card_info,
                  pattern_info, sets, binomials, chunk_count, matched, chunk_offsets, weighted,
                  hands, hand_weights):
    """Write the matched hands (and, when ``weighted``, their weights) in canonical order.

    Same inputs as :func:`match_hands`, plus ``chunk_offsets`` (chunk_count,) int64, the first
    output row of each chunk. Outputs ``hands`` (match_count, hole_count) int8, descending
    cards per row, and ``hand_weights`` (match_count,) float64 (1.0 unless ``weighted``).
    """
    free_count = hole_count - required.shape[0]
    total = binomials[deck.shape[0], free_count]
    uses_sets = sets.shape[0] > 0
    for chunk in prange(chunk_count):
        begin = total * chunk // chunk_count
        end = total * (chunk + 1) // chunk_count
        indexes = np.empty(MAX_HOLE_COUNT + 1, np.int64)
        hand = np.empty(MAX_HOLE_COUNT, np.int64)
        assigned = np.empty(MAX_HOLE_COUNT, np.int64)
        bound = np.zeros(MAX_HOLE_COUNT, np.int64)
        rank_values = np.empty(13, np.int64)
        suit_values = np.empty(4, np.int64)
        in_range = np.empty(operations.shape[0] + 1, np.bool_)
        weights = np.empty(operations.shape[0] + 1, np.float64)
        row = chunk_offsets[chunk]
        if begin < end:
            _unrank_colex(total - 1 - begin, free_count, binomials, indexes)
        for position in range(begin, end):
            if matched[position]:
                _assemble(deck, indexes, free_count, required, hand)
                for card in range(hole_count):
                    hands[row, card] = hand[card]
                if weighted:
                    set_index = _deck_index(hand, hole_count, binomials) if uses_sets else 0
                    hand_weights[row] = _evaluate(hand, hole_count, set_index, operations, weight_values,
                                                  card_allowed, card_info, pattern_info, sets, assigned,
                                                  bound, rank_values, suit_values, in_range, weights)
                else:
                    hand_weights[row] = 1.0
                row += 1
            if position + 1 < end:
                _previous_colex(indexes, free_count)
