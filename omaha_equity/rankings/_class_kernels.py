"""Compiled kernels for starting-hand classes: list the classes, expand them into hands.

A class (a hand up to suit isomorphism) is the multiset of its four per-suit rank masks; it is
written as the four 13-bit masks sorted descending and packed into one ``int64`` *class key*
(``m0 << 39 | m1 << 26 | m2 << 13 | m3``, ``m0 >= m1 >= m2 >= m3``). See
:mod:`omaha_equity.rankings.classes` for the Python layer.
"""

from __future__ import annotations

import numpy as np

from ..runtime.numba import kernel

MASK_BITS = 13
MASK_ALL = (1 << MASK_BITS) - 1

@kernel(nogil=False)
def enumerate_class_keys(masks_by_popcount, popcount_starts, hole_count, keys):
    """Every class key of ``hole_count`` cards, in a fixed loop order (sort them afterwards).

    Parameters
    ----------
    masks_by_popcount : (m,) int64
        Every 13-bit rank mask with at most ``hole_count`` bits, sorted by (bit count, value).
    popcount_starts : (hole_count + 2,) int64
        Where the masks of each bit count start in ``masks_by_popcount``.
    hole_count : int
    keys : (n,) int64
        Output, or an empty array to only count.

    Returns
    -------
    int : the number of classes (written to ``keys`` when it is large enough).
    """
    count = 0
    fill = keys.shape[0] > 0
    for first_bits in range(hole_count + 1):
        for first_position in range(popcount_starts[first_bits], popcount_starts[first_bits + 1]):
            first = masks_by_popcount[first_position]
            for second_bits in range(hole_count - first_bits + 1):
                for second_position in range(popcount_starts[second_bits], popcount_starts[second_bits + 1]):
                    second = masks_by_popcount[second_position]
                    if second > first:
                        break
                    for third_bits in range(hole_count - first_bits - second_bits + 1):
                        fourth_bits = hole_count - first_bits - second_bits - third_bits
                        for third_position in range(popcount_starts[third_bits], popcount_starts[third_bits + 1]):
                            third = masks_by_popcount[third_position]
                            if third > second:
                                break
                            for fourth_position in range(popcount_starts[fourth_bits],
                                                         popcount_starts[fourth_bits + 1]):
                                fourth = masks_by_popcount[fourth_position]
                                if fourth > third:
                                    break
                                if fill:
                                    keys[count] = (first << 39) | (second << 26) | (third << 13) | fourth
                                count += 1
    return count


@kernel(nogil=False)
def expand_classes(class_keys, order, permutations, hands):
    """Write every hand of the classes ``class_keys[order]``, class after class.

    Parameters
    ----------
    class_keys : (class_count,) int64
    order : (k,) int64, the classes to expand, in output order.
    permutations : (24, 4) int64, the permutations of the four suits.
    hands : (hand_count, hole_count) int8, output; rows are sorted descending. Within a class
        the hands come in the order of the first permutation giving each (mask ``i`` to suit
        ``permutations[p, i]``; permutations that only swap equal masks are skipped).

    Returns
    -------
    int : the number of hands written.
    """
    row = 0
    masks = np.empty(4, dtype=np.int64)
    suit_masks = np.empty(4, dtype=np.int64)
    for position in range(order.shape[0]):
        key = class_keys[order[position]]
        masks[0] = (key >> 39) & MASK_ALL
        masks[1] = (key >> 26) & MASK_ALL
        masks[2] = (key >> 13) & MASK_ALL
        masks[3] = key & MASK_ALL
        for permutation in range(permutations.shape[0]):
            first_of_its_kind = True
            for first in range(4):
                for second in range(first + 1, 4):
                    if (masks[first] == masks[second]
                            and permutations[permutation, first] > permutations[permutation, second]):
                        first_of_its_kind = False
            if not first_of_its_kind:
                continue
            for index in range(4):
                suit_masks[permutations[permutation, index]] = masks[index]
            column = 0
            for rank in range(MASK_BITS - 1, -1, -1):
                for suit in range(3, -1, -1):
                    if (suit_masks[suit] >> rank) & 1:
                        hands[row, column] = rank * 4 + suit
                        column += 1
            row += 1
    return row


# Digits of a radix sort of positions: 11 bits, so two passes sort any position below 2**22
# (4,194,304; the rankings that keep canonical positions hold at most 2,598,960 hands).
RADIX_BITS = 11


@kernel
def rows_in_position_order(positions, table, rows):
    """``table``'s rows at ``positions``, in increasing order of position: a least-significant
    digit radix sort of the positions (two passes of ``RADIX_BITS``), then a gather. Sorting
    13,534 positions of a 5% range this way takes tens of microseconds; ``numpy.sort`` took
    about 0.2 ms.

    Parameters
    ----------
    positions : (n,) int32
        Distinct positions 0 <= p < min(len(table), 2**(2 * RADIX_BITS)), in any order.
    table : (m, hole_count) int8
    rows : (n, hole_count) int8
        Output.
    """
    count = positions.shape[0]
    buckets = 1 << RADIX_BITS
    digit_mask = buckets - 1
    ordered = positions.copy()
    scratch = np.empty(count, dtype=positions.dtype)
    starts = np.zeros(buckets + 1, dtype=np.int64)
    for shift in (0, RADIX_BITS):
        starts[:] = 0
        for index in range(count):
            starts[((ordered[index] >> shift) & digit_mask) + 1] += 1
        for bucket in range(buckets):
            starts[bucket + 1] += starts[bucket]
        for index in range(count):
            digit = (ordered[index] >> shift) & digit_mask
            scratch[starts[digit]] = ordered[index]
            starts[digit] += 1
        ordered, scratch = scratch, ordered
    for index in range(count):  # card by card: a row slice assignment here took 5x longer
        position = ordered[index]
        for column in range(table.shape[1]):
            rows[index, column] = table[position, column]
