"""Starting hands up to suit isomorphism ("classes"), in one fixed order.

Two hands are in the same class when a relabelling of the suits turns one into the other
(``AsAhKsKh`` and ``AdAcKdKc``): they have the same equity against random opponents. A class
is the multiset of its four per-suit rank masks (bit ``r`` for rank ``r``, 0..12 for 2..A), so
its *key* is those masks sorted descending and packed into an ``int64``
(``m0 << 39 | m1 << 26 | m2 << 13 | m3``). The class order used by the ranking files is
ascending key order, which :func:`class_keys` regenerates from the rules alone; the files store
a digest of it (:func:`class_keys_digest`) to detect a mismatch.

Counts (checked by ``tests/test_rankings.py`` and by the generator): 16,432 classes of 4 cards,
134,459 of 5 and 962,988 of 6, covering C(52, k) = 270,725, 2,598,960 and 20,358,520 hands.

The *representative* of a class gives mask ``m0`` to clubs, ``m1`` to diamonds, ``m2`` to
hearts and ``m3`` to spades.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from math import comb, factorial

import numpy as np

CLASS_COUNTS = {4: 16_432, 5: 134_459, 6: 962_988}
HOLE_COUNTS = (4, 5, 6)
DECK_SIZE = 52
MASK_BITS = 13
MASK_ALL = (1 << MASK_BITS) - 1
SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # (24, 4)
_SHIFTS = np.array([39, 26, 13, 0], dtype=np.int64)


def _check_hole_count(hole_count: int) -> None:
    if hole_count not in HOLE_COUNTS:
        raise ValueError(f"classes are listed for {HOLE_COUNTS} hole cards, not {hole_count!r}")


@functools.cache
def class_keys(hole_count: int) -> np.ndarray:
    """Every class key of ``hole_count`` cards, ascending: ``(class_count,) int64``, read-only.

    The class index used everywhere in :mod:`omaha_equity.rankings` is the position in this
    array.
    """
    _check_hole_count(hole_count)
    from ._class_kernels import enumerate_class_keys  # lazy: numba

    masks = np.arange(1 << MASK_BITS, dtype=np.int64)
    popcounts = np.array([bin(mask).count("1") for mask in range(1 << MASK_BITS)])
    keep = popcounts <= hole_count
    order = np.lexsort((masks[keep], popcounts[keep]))
    masks_by_popcount = np.ascontiguousarray(masks[keep][order])
    popcount_starts = np.searchsorted(popcounts[keep][order], np.arange(hole_count + 2)).astype(np.int64)
    empty = np.zeros(0, dtype=np.int64)
    count = enumerate_class_keys(masks_by_popcount, popcount_starts, hole_count, empty)
    keys = np.empty(count, dtype=np.int64)
    enumerate_class_keys(masks_by_popcount, popcount_starts, hole_count, keys)
    keys.sort()
    keys.flags.writeable = False
    return keys


def class_keys_digest(hole_count: int) -> str:
    """SHA-256 (hex, first 16 digits) of :func:`class_keys` as little-endian int64 bytes."""
    return hashlib.sha256(class_keys(hole_count).astype("<i8").tobytes()).hexdigest()[:16]


def key_masks(keys: np.ndarray) -> np.ndarray:
    """The four rank masks of each key, descending: ``(n, 4) int64``."""
    keys = np.asarray(keys, dtype=np.int64)
    return (keys[:, None] >> _SHIFTS[None, :]) & MASK_ALL


@functools.cache
def class_sizes(hole_count: int) -> np.ndarray:
    """Concrete hands in each class: ``(class_count,) int64``, read-only, 24 divided by the number
    of suit permutations that only swap equal masks (e.g. 6 for ``AsKsAhKh``: 2 x 2 swaps).
    Worked out a mask at a time (963k 6-card classes: no (n, 4) copy of the masks)."""
    keys = class_keys(hole_count)
    stabilizer = np.ones(len(keys), dtype=np.int64)
    run = np.ones(len(keys), dtype=np.int64)
    previous = (keys >> _SHIFTS[0]) & MASK_ALL
    for shift in _SHIFTS[1:]:
        current = (keys >> shift) & MASK_ALL
        # masks are sorted, so equal ones are adjacent; multiplying 1, 2, 3, 4 along a run of
        # equal masks gives the run length factorial
        run = np.where(current == previous, run + 1, 1)
        stabilizer *= run
        previous = current
    sizes = factorial(4) // stabilizer
    sizes.flags.writeable = False
    return sizes


def representatives(hole_count: int) -> np.ndarray:
    """One hand per class: ``(class_count, hole_count) int8``, rows descending; mask ``m0`` in
    clubs, ``m1`` in diamonds, ``m2`` in hearts, ``m3`` in spades."""
    masks = key_masks(class_keys(hole_count))
    # held[c, rank, suit]: card rank*4+suit is in the hand; flattening gives card order.
    held = np.empty((len(masks), MASK_BITS, 4), dtype=bool)
    for rank in range(MASK_BITS):
        held[:, rank, :] = (masks >> rank) & 1
    flat = held.reshape(len(masks), DECK_SIZE)
    cards = np.nonzero(flat)[1].reshape(len(masks), hole_count)
    return np.ascontiguousarray(cards[:, ::-1]).astype(np.int8)


def hand_class_keys(hands: np.ndarray) -> np.ndarray:
    """Class key of each hand: ``hands`` ``(n, hole_count)`` card ints -> ``(n,) int64``."""
    hands = np.asarray(hands, dtype=np.int64)
    rows = np.arange(hands.shape[0])
    suit_masks = np.zeros((hands.shape[0], 4), dtype=np.int64)
    for column in range(hands.shape[1]):  # one card per row at a time: no row is hit twice
        suit_masks[rows, hands[:, column] & 3] |= np.int64(1) << (hands[:, column] >> 2)
    suit_masks = -np.sort(-suit_masks, axis=1)
    return (suit_masks << _SHIFTS[None, :]).sum(axis=1)


def class_indexes(hands: np.ndarray) -> np.ndarray:
    """Class index (position in :func:`class_keys`) of each hand: ``(n,) int64``.

    Raises ``ValueError`` for a row that is not a hand of distinct cards."""
    hands = np.asarray(hands, dtype=np.int64)
    keys = class_keys(hands.shape[1])
    wanted = hand_class_keys(hands)
    indexes = np.searchsorted(keys, wanted)
    if np.any(indexes >= len(keys)) or np.any(keys[np.minimum(indexes, len(keys) - 1)] != wanted):
        raise ValueError("not a hand of distinct cards")
    return indexes


def expand(hole_count: int, order: np.ndarray) -> np.ndarray:
    """Every hand of the classes ``order`` (class indexes), class after class:
    ``(sum of their sizes, hole_count) int8``, rows descending."""
    from ..runtime.cache import read_only
    from ._class_kernels import expand_classes  # lazy: numba

    order = np.ascontiguousarray(order, dtype=np.int64)
    total = int(class_sizes(hole_count)[order].sum())
    hands = np.empty((total, hole_count), dtype=np.int8)
    written = expand_classes(class_keys(hole_count), read_only(order), SUIT_PERMUTATIONS, hands)
    assert written == total, (written, total)
    return hands


def check_counts(hole_count: int) -> None:
    """Assert the class count and that the class sizes add up to C(52, hole_count)."""
    keys = class_keys(hole_count)
    assert len(keys) == CLASS_COUNTS[hole_count], (hole_count, len(keys))
    assert int(class_sizes(hole_count).sum()) == comb(DECK_SIZE, hole_count)
