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

Membership ignores weights (they are positive): the stack of results is a bit stack in one
integer. A weighted range is then weighed in Python: ``atom_signatures`` records which atoms
each matched hand satisfies, and the weight of each distinct signature is computed once
(:func:`omaha_equity.ranges.program.weigh_signature`).

The hands walked are the ``free``-card subsets of ``deck`` (cards not excluded and not
required), each joined with the ``required`` cards every match must hold, in descending colex
order of the subset. Because required and excluded cards are the same for every hand, this is
the canonical order of whole hands: descending by the bit mask ``sum(1 << card)``, that is
lexicographically descending rows of descending cards (``AsAhAdAc`` first).

Work is cut into chunks of consecutive positions, each with its own count (no atomics):
``match_hands`` (parallel) marks matches and counts them per chunk, ``collect_hands`` writes
each chunk's hands at the offset of its preceding counts, so the output does not depend on the
thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..runtime.numba import helper, kernel, parallel_kernel
from ..runtime.threads import quiet_idle_threads

quiet_idle_threads()  # before any parallel kernel runs: idle OpenMP workers sleep, not spin

OP_PATTERN, OP_MACRO, OP_SET, OP_OR, OP_AND, OP_AND_NOT, OP_WEIGHT = range(7)
MACRO_DOUBLE_SUITED, MACRO_SINGLE_SUITED, MACRO_RAINBOW, MACRO_NO_PAIR = range(4)

# card_info columns
INFO_RANK_VARIABLE, INFO_SUIT_VARIABLE, INFO_SAME_AS_PREVIOUS = range(3)
# pattern_info columns
(PATTERN_START, PATTERN_CARD_COUNT, PATTERN_RANK_DOMAIN, PATTERN_SUIT_DOMAIN, PATTERN_RANK_VARIABLES,
 PATTERN_SUIT_VARIABLES, PATTERN_RANK_NEED, PATTERN_SUIT_NEED) = range(8)
PATTERN_INFO_WIDTH = 8
# Nibble-wise "have >= need" on packed counts below 8: no borrow into any nibble's high bit.
_NIBBLE_HIGH_BITS = 0x88888888
MAX_HOLE_COUNT = 6


@helper
def _profiles(hand, hole_count):
    """Packed shape of a hand for the quick pattern filter: nibble ``t - 1`` of the rank
    profile counts the ranks held at least ``t`` times, and likewise for suits."""
    rank_profile = 0
    suit_counts = 0
    run = 1
    for position in range(hole_count):
        suit_counts += 1 << (4 * (hand[position] & 3))
        if position + 1 < hole_count and hand[position + 1] >> 2 == hand[position] >> 2:
            run += 1
        else:  # hand is descending, so equal ranks are adjacent
            rank_profile += 0x111111 >> (24 - 4 * run)  # run ones: nibbles 0..run-1
            run = 1
    suit_profile = 0
    for suit in range(4):
        count = (suit_counts >> (4 * suit)) & 15
        suit_profile += 0x111111 >> (24 - 4 * count)
    return rank_profile, suit_profile


@helper
def _covers(have, need):
    """Every nibble of ``have`` is at least the one of ``need`` (all nibbles below 8)."""
    return ((have | _NIBBLE_HIGH_BITS) - need) & _NIBBLE_HIGH_BITS == _NIBBLE_HIGH_BITS


@helper
def _match_pattern(hand, hole_count, pattern, card_allowed, card_info, pattern_info, rank_profile,
                   suit_profile):
    """True when ``hand`` (``hole_count`` card ints) holds pattern number ``pattern``.

    Depth-first search with its whole state packed in integers (kept in registers, which made
    it several times faster than scratch arrays): ``assigned`` holds 4 bits per pattern card,
    the hand position it took (15: none); ``bound`` 2 bits per card, whether it bound its rank
    (1) or suit (2) variable; ``rank_values`` and ``suit_values`` 4 bits per variable (15:
    unbound).
    """
    start = pattern_info[pattern, PATTERN_START]
    count = pattern_info[pattern, PATTERN_CARD_COUNT]
    if count == 0:
        return True
    # Quick filter: the pattern's groups of one rank (one suit) need as many ranks (suits) of
    # the hand held at least that often.
    if not _covers(rank_profile, pattern_info[pattern, PATTERN_RANK_NEED]):
        return False
    if not _covers(suit_profile, pattern_info[pattern, PATTERN_SUIT_NEED]):
        return False
    rank_domain = pattern_info[pattern, PATTERN_RANK_DOMAIN]
    suit_domain = pattern_info[pattern, PATTERN_SUIT_DOMAIN]
    rank_values = (1 << 52) - 1
    suit_values = (1 << 16) - 1
    assigned = (1 << 24) - 1
    bound = 0
    used = 0
    ranks_taken = 0
    suits_taken = 0
    index = 0
    while True:
        card_index = start + index
        shift = 4 * index
        previous = (assigned >> shift) & 15
        if previous != 15:  # undo this card's assignment, then try the next hand card
            used &= ~(1 << previous)
            binding = (bound >> (2 * index)) & 3
            if binding & 1:
                variable_shift = 4 * card_info[card_index, INFO_RANK_VARIABLE]
                ranks_taken &= ~(1 << ((rank_values >> variable_shift) & 15))
                rank_values |= 15 << variable_shift
            if binding & 2:
                variable_shift = 4 * card_info[card_index, INFO_SUIT_VARIABLE]
                suits_taken &= ~(1 << ((suit_values >> variable_shift) & 15))
                suit_values |= 15 << variable_shift
            bound &= ~(3 << (2 * index))
            position = previous + 1
        elif index > 0 and card_info[card_index, INFO_SAME_AS_PREVIOUS]:
            position = ((assigned >> (shift - 4)) & 15) + 1
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
                        value = (rank_values >> (4 * rank_variable)) & 15
                        if value != 15:
                            fits = value == rank
                        elif (rank_domain >> rank) & 1 and not (ranks_taken >> rank) & 1:
                            binding |= 1
                        else:
                            fits = False
                    if fits and suit_variable >= 0:
                        value = (suit_values >> (4 * suit_variable)) & 15
                        if value != 15:
                            fits = value == suit
                        elif (suit_domain >> suit) & 1 and not (suits_taken >> suit) & 1:
                            binding |= 2
                        else:
                            fits = False
                    if fits:
                        if binding & 1:
                            rank_values &= ~(15 << (4 * rank_variable))
                            rank_values |= rank << (4 * rank_variable)
                            ranks_taken |= 1 << rank
                        if binding & 2:
                            suit_values &= ~(15 << (4 * suit_variable))
                            suit_values |= suit << (4 * suit_variable)
                            suits_taken |= 1 << suit
                        bound |= binding << (2 * index)
                        assigned &= ~(15 << shift)
                        assigned |= position << shift
                        used |= 1 << position
                        found = True
                        break
            position += 1
        if found:
            index += 1
            if index == count:
                return True
        else:
            assigned |= 15 << shift
            index -= 1
            if index < 0:
                return False


@helper
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


@helper
def _match_atom(hand, hole_count, set_index, operation, argument, card_allowed, card_info,
                pattern_info, sets, rank_profile, suit_profile):
    if operation == OP_PATTERN:
        return _match_pattern(hand, hole_count, argument, card_allowed, card_info, pattern_info,
                              rank_profile, suit_profile)
    if operation == OP_MACRO:
        return _match_macro(hand, hole_count, argument)
    return sets[argument, set_index] != 0


@helper
def _in_range(hand, hole_count, set_index, operations, card_allowed, card_info, pattern_info, sets,
              uses_profiles):
    """Run the program on one hand, ignoring weights: True when the hand is in the range.

    The stack of results is a bit stack in one integer (the compiler limits the depth).
    """
    rank_profile = suit_profile = 0
    if uses_profiles:
        rank_profile, suit_profile = _profiles(hand, hole_count)
    stack = 0
    for step in range(operations.shape[0]):
        operation = operations[step, 0]
        if operation <= OP_SET:
            matched = _match_atom(hand, hole_count, set_index, operation, operations[step, 1],
                                  card_allowed, card_info, pattern_info, sets, rank_profile, suit_profile)
            stack = (stack << 1) | (1 if matched else 0)
        elif operation != OP_WEIGHT:
            right = stack & 1
            stack >>= 1
            left = stack & 1
            if operation == OP_OR:
                result = left | right
            elif operation == OP_AND:
                result = left & right
            else:
                result = left & (right ^ 1)
            stack = (stack & ~1) | result
    return (stack & 1) == 1


@kernel
def _unrank_colex(rank, size, binomials, indexes):
    """``indexes[0] < ... < indexes[size - 1]``: the subset with this colex rank."""
    remaining = rank
    for position in range(size - 1, -1, -1):
        value = position
        while binomials[value + 1, position + 1] <= remaining:
            value += 1
        indexes[position] = value
        remaining -= binomials[value, position + 1]


@kernel
def _previous_colex(indexes, size):
    """Step ``indexes`` to the subset just before it in colex order (it must not be the first)."""
    position = 0
    while indexes[position] == position:
        position += 1
    indexes[position] -= 1
    for lower in range(position):
        indexes[lower] = indexes[position] - (position - lower)


@kernel
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


@kernel
def _deck_index(hand, hole_count, binomials):
    """Position of a descending hand in the canonical order of all hands of the 52-card deck."""
    colex = 0
    for position in range(hole_count):
        colex += binomials[hand[hole_count - 1 - position], position + 1]
    return binomials[52, hole_count] - 1 - colex


@parallel_kernel
def match_hands(deck, required, hole_count, operations, card_allowed, card_info, pattern_info,
                sets, binomials, chunk_count, matched, chunk_counts):
    """Mark the hands the program matches.

    Parameters
    ----------
    deck : (deck_count,) int64, ascending
        Cards the hands may use besides ``required`` (excluded cards removed).
    required : (required_count,) int64, descending
        Cards every matching hand holds.
    hole_count : int
    operations : (operation_count, 2) int64
        The postfix program (opcode, argument).
    card_allowed : (card_count,) int64
        52-bit masks of the cards each pattern card may take.
    card_info : (card_count, 3) int64
        Rank variable, suit variable (-1 for none) and "same as the previous card" flag.
    pattern_info : (pattern_count, 8) int64
        First card, card count, rank-variable domain (13 bits), suit-variable domain (4 bits),
        rank and suit variable counts, rank and suit needs (packed counts, see ``_profiles``).
    sets : (set_count, C(52, hole_count)) uint8, or (0, 0)
        Membership of every hand of the deck in each percent range, by canonical position.
    binomials : (53, 8) int64
        ``binomials[n, k] = C(n, k)``.
    chunk_count : int
    matched : (C(deck_count, hole_count - required_count),) uint8, output
        1 where the hand at that position matches.
    chunk_counts : (chunk_count,) int64, output
        Matches per chunk of consecutive positions.
    """
    free_count = hole_count - required.shape[0]
    total = binomials[deck.shape[0], free_count]
    uses_sets = sets.shape[0] > 0
    uses_profiles = False
    for pattern in range(pattern_info.shape[0]):
        if pattern_info[pattern, PATTERN_RANK_NEED] != 0 or pattern_info[pattern, PATTERN_SUIT_NEED] != 0:
            uses_profiles = True
    for chunk in prange(chunk_count):
        begin = total * chunk // chunk_count
        end = total * (chunk + 1) // chunk_count
        indexes = np.empty(MAX_HOLE_COUNT + 1, np.int64)
        hand = np.empty(MAX_HOLE_COUNT, np.int64)
        count = 0
        if begin < end:
            _unrank_colex(total - 1 - begin, free_count, binomials, indexes)
        for position in range(begin, end):
            _assemble(deck, indexes, free_count, required, hand)
            set_index = _deck_index(hand, hole_count, binomials) if uses_sets else 0
            if _in_range(hand, hole_count, set_index, operations, card_allowed, card_info, pattern_info, sets,
                         uses_profiles):
                matched[position] = 1
                count += 1
            else:
                matched[position] = 0
            if position + 1 < end:
                _previous_colex(indexes, free_count)
        chunk_counts[chunk] = count


@kernel
def collect_hands(deck, required, hole_count, binomials, chunk_count, matched, chunk_offsets, hands):
    """Write the matched hands in canonical order.

    ``deck``, ``required``, ``hole_count``, ``binomials``, ``chunk_count`` and ``matched`` as
    for :func:`match_hands`; ``chunk_offsets`` (chunk_count,) int64 is the first output row of
    each chunk; output ``hands`` (match_count, hole_count) int8, cards descending per row.
    """
    free_count = hole_count - required.shape[0]
    total = binomials[deck.shape[0], free_count]
    for chunk in prange(chunk_count):
        begin = total * chunk // chunk_count
        end = total * (chunk + 1) // chunk_count
        indexes = np.empty(MAX_HOLE_COUNT + 1, np.int64)
        hand = np.empty(MAX_HOLE_COUNT, np.int64)
        row = chunk_offsets[chunk]
        if begin < end:
            _unrank_colex(total - 1 - begin, free_count, binomials, indexes)
        for position in range(begin, end):
            if matched[position]:
                _assemble(deck, indexes, free_count, required, hand)
                for card in range(hole_count):
                    hands[row, card] = hand[card]
                row += 1
            if position + 1 < end:
                _previous_colex(indexes, free_count)


@parallel_kernel
def atom_signatures(hands, atoms, card_allowed, card_info, pattern_info, sets, binomials, chunk_count,
                    signatures):
    """Which atoms (patterns, macros, percent sets) each hand matches, for weighing a range.

    Parameters
    ----------
    hands : (hand_count, hole_count) int8
        Hands, cards descending per row.
    atoms : (atom_count, 2) int64
        The program's atom operations (opcode, argument) in program order.
    card_allowed, card_info, pattern_info, sets, binomials, chunk_count
        As for :func:`match_hands`.
    signatures : (hand_count, word_count) int64, output, zeroed
        Bit ``atom % 62`` of word ``atom // 62`` is set when the hand matches that atom.

    Parallel like :func:`match_hands` (chunks of rows), which also matters on one thread:
    numba compiles the body of a parallel loop with plain array pointers, several times faster
    here than a serial loop over the same inlined matcher (measured 5 ms against 60 ms).
    """
    hole_count = hands.shape[1]
    hand_count = hands.shape[0]
    uses_sets = sets.shape[0] > 0
    for chunk in prange(chunk_count):
        begin = hand_count * chunk // chunk_count
        end = hand_count * (chunk + 1) // chunk_count
        hand = np.empty(MAX_HOLE_COUNT, np.int64)
        for row in range(begin, end):
            for card in range(hole_count):
                hand[card] = hands[row, card]
            set_index = _deck_index(hand, hole_count, binomials) if uses_sets else 0
            rank_profile, suit_profile = _profiles(hand, hole_count)
            for atom in range(atoms.shape[0]):
                if _match_atom(hand, hole_count, set_index, atoms[atom, 0], atoms[atom, 1], card_allowed,
                               card_info, pattern_info, sets, rank_profile, suit_profile):
                    signatures[row, atom // 62] |= 1 << (atom % 62)


# Canonical order without a comparison sort (percent ranges, ``hand_range.canonical_rows``):
# cards are 0..51, six bits each, so a row packs into one integer, first card most significant,
# and the integers' order is the rows' order. Sorted by least-significant-digit radix, a byte per
# pass (256 counters stay in the first-level cache): linear time, several times faster than
# numpy's sort (and an argsort) on the thousands of hands of a percent range.
CARD_BITS = 6
_RADIX_BITS = 8


@kernel
def canonical_rows(hands, rows):
    """Write the distinct rows of ``hands`` in canonical order.

    Parameters
    ----------
    hands : (n, hole_count) int8
        Cards 0..51, strictly descending within each row; hole_count at most 10 (60 bits).
    rows : (n, hole_count) int8, output
        ``rows[:m]`` receives the distinct hands, lexicographically descending (``AsAhAdAc``
        first).

    Returns
    -------
    int : ``m``, or -1 (nothing written) when a row is not strictly descending.
    """
    count, hole_count = hands.shape
    keys = np.empty(count, np.int64)
    for row in range(count):
        key = 0
        for position in range(hole_count):
            card = hands[row, position]
            if position > 0 and card >= hands[row, position - 1]:
                return -1
            key = (key << CARD_BITS) | card
        keys[row] = key
    scratch = np.empty(count, np.int64)
    starts = np.empty(1 << _RADIX_BITS, np.int64)
    digit_mask = (1 << _RADIX_BITS) - 1
    for shift in range(0, CARD_BITS * hole_count, _RADIX_BITS):
        starts[:] = 0
        for row in range(count):
            starts[(keys[row] >> shift) & digit_mask] += 1
        total = 0
        for digit in range(1 << _RADIX_BITS):
            digit_count = starts[digit]
            starts[digit] = total
            total += digit_count
        for row in range(count):
            digit = (keys[row] >> shift) & digit_mask
            scratch[starts[digit]] = keys[row]
            starts[digit] += 1
        keys, scratch = scratch, keys
    # ascending keys, read from the largest: descending rows, each once
    written = 0
    card_mask = (1 << CARD_BITS) - 1
    for index in range(count - 1, -1, -1):
        key = keys[index]
        if index < count - 1 and key == keys[index + 1]:
            continue
        for position in range(hole_count - 1, -1, -1):
            rows[written, position] = key & card_mask
            key >>= CARD_BITS
        written += 1
    return written
