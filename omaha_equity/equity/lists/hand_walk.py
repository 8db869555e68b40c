"""The walk over the players' hand lists, written once for every kernel that enumerates them:
the hands of a numbered combination of the first lists (:func:`unit_hands`), and the depth-first
walk over the other lists to each combination of hands that share no card
(:func:`first_combination`, then :func:`next_combination_after`).

Compiled helpers (``runtime.numba.helper``): numba pastes them into each kernel that calls
them, so a kernel runs as if the walk were written in it. Public so that the studies' kernels
walk the lists with the equity kernels' code.

The lists are one array of hands with offsets: list ``i`` is rows ``list_offsets[i] ..
list_offsets[i + 1] - 1`` of ``list_masks`` (each hand's card bit mask). A walk fills
``index[i]`` (the row of list ``i``'s hand) and ``used_stack[i]`` (the card mask of the known
cards and of the hands of lists ``0 .. i``).
"""

from __future__ import annotations

from ...runtime.numba import helper


@helper
def unit_hands(combination_number, level_count, list_offsets, list_masks, base_used_mask, index, used_stack):
    """The hands of combination ``combination_number`` of the first ``level_count`` lists
    (numbered in mixed radix over the lists, list 0 the most significant digit): fills
    ``index[level]`` with each list's row and ``used_stack[level]`` with the cards used up to
    that list (with ``base_used_mask``'s). Returns the cards used by them all, or -1 when two of
    the hands share a card (``index`` and ``used_stack`` then partly filled)."""
    rest = combination_number
    for level in range(level_count - 1, -1, -1):
        size = list_offsets[level + 1] - list_offsets[level]
        index[level] = list_offsets[level] + rest % size
        rest //= size
    used = base_used_mask
    for level in range(level_count):
        mask = list_masks[index[level]]
        if used & mask:
            return -1
        used |= mask
        used_stack[level] = used
    return used


@helper
def take_first_hand(first_hand, base_used_mask, list_masks, index, used_stack):
    """Put row ``first_hand`` of list 0 at the walk's root (``index[0]``, ``used_stack[0]``).
    Returns False, and fills nothing, when it shares a card with ``base_used_mask``."""
    if base_used_mask & list_masks[first_hand]:
        return False
    index[0] = first_hand
    used_stack[0] = base_used_mask | list_masks[first_hand]
    return True


@helper
def walk_from_first_hand(first_hand, base_used_mask, list_masks, list_offsets, index, used_stack):
    """Start a walk over the lists with row ``first_hand`` of list 0 at its root
    (:func:`take_first_hand`), then the first combination of the other lists' hands that share
    no card (:func:`first_combination` from list 1). Returns its level, 0 when the first hand
    shares a card with ``base_used_mask`` or no combination is left."""
    if not take_first_hand(first_hand, base_used_mask, list_masks, index, used_stack):
        return 0
    return first_combination(1, index, used_stack, list_offsets, list_masks)


@helper
def next_compatible_combination(level, first_level, index, used_stack, list_offsets, list_masks):
    """Walk depth first over the lists from ``first_level`` on to the next combination of hands
    that share no card, from ``index[level]`` on (``used_stack`` set for the lists before
    ``first_level`` by the caller). Returns the last list's level when ``index`` holds a
    combination, a level below ``first_level`` when there are no more. Called through
    :func:`first_combination` and :func:`next_combination_after`."""
    last_level = list_offsets.shape[0] - 2
    while level >= first_level:
        if index[level] == list_offsets[level + 1]:
            level -= 1
            if level >= first_level:
                index[level] += 1
            continue
        mask = list_masks[index[level]]
        if used_stack[level - 1] & mask:
            index[level] += 1
            continue
        used_stack[level] = used_stack[level - 1] | mask
        if level == last_level:
            break
        level += 1
        index[level] = list_offsets[level]
    return level


@helper
def first_combination(first_level, index, used_stack, list_offsets, list_masks):
    """Start a walk over lists ``first_level ..`` (the hands of the lists before it already in
    ``index`` and ``used_stack``): the first combination that shares no card. Returns the last
    list's level, the cards used then in ``used_stack[level]``; a level below ``first_level``
    when there is none. Usage::

        level = first_combination(first, index, used_stack, list_offsets, list_masks)
        while level >= first:
            ...  # score index[0 .. last], used_stack[level]
            level = next_combination_after(level, first, index, used_stack, list_offsets, list_masks)
    """
    index[first_level] = list_offsets[first_level]
    return next_compatible_combination(first_level, first_level, index, used_stack, list_offsets, list_masks)


@helper
def next_combination_after(level, first_level, index, used_stack, list_offsets, list_masks):
    """The walk's next combination after the one ``index`` holds (``level``: the level
    :func:`first_combination` or this returned); returns as :func:`first_combination` does."""
    index[level] += 1
    return next_compatible_combination(level, first_level, index, used_stack, list_offsets, list_masks)
