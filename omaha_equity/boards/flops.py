"""Every flop, and the flops as suit-isomorphic classes.

A flop is three distinct cards; there are C(52, 3) = 22,100. Renaming the suits (24 ways)
changes nothing a hand range without written suits can see, so the flops fall into 1,755
classes ("strategically different flops"); a class's weight is the number of concrete flops
it stands for, and the weights sum to 22,100. A query whose ranges or cards name some suits
is symmetric only under the renamings that keep those suits: :func:`suit_group` gives that
group and :func:`orbits` the flops' classes under it.

Flops are ``(n, 3) int8`` arrays of card ints (``rank * 4 + suit``), each row descending.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..cards import DECK_SIZE, format_cards

FLOP_COUNT = 22_100
FLOP_CLASS_COUNT = 1_755


@functools.lru_cache(maxsize=1)
def all_flops() -> np.ndarray:
    """(22100, 3) int8, read-only: every flop, each row descending, rows in lexicographic order
    of their descending cards (``AsAhAd`` last)."""
    flops = np.array([sorted(triple, reverse=True) for triple in itertools.combinations(range(DECK_SIZE), 3)],
                     dtype=np.int8)
    flops = flops[np.lexsort(flops.T[::-1])]
    flops.flags.writeable = False
    return flops


@functools.lru_cache(maxsize=1)
def suit_permutations() -> np.ndarray:
    """(24, 4) int64: every renaming of the suits, ``permutation[old suit] = new suit``; the
    first is the identity."""
    return np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def suit_group(fixed_suits: Iterable[int] = ()) -> np.ndarray:
    """(k, 4) int64: the renamings that keep every suit of ``fixed_suits`` (0..3) as it is:
    all 24 when none is fixed, 1 (the identity) when three or four are."""
    fixed = sorted(set(fixed_suits))
    permutations = suit_permutations()
    keep = np.all(permutations[:, fixed] == np.array(fixed, dtype=np.int64), axis=1) if fixed else \
        np.ones(len(permutations), dtype=bool)
    return permutations[keep]


def flop_keys(flops: np.ndarray) -> np.ndarray:
    """(n,) int64: one number per flop, whatever the order of its cards (its cards sorted
    descending, read as base-52 digits)."""
    cards = -np.sort(-np.asarray(flops, dtype=np.int64), axis=1)
    return (cards[:, 0] * DECK_SIZE + cards[:, 1]) * DECK_SIZE + cards[:, 2]


def canonical_keys(flops: np.ndarray, group: np.ndarray | None = None) -> np.ndarray:
    """(n,) int64: the largest key of each flop's images under ``group`` (default: all 24
    renamings): two flops have the same canonical key exactly when a renaming of the group maps
    one onto the other."""
    group = suit_permutations() if group is None else group
    cards = np.asarray(flops, dtype=np.int64)
    ranks, suits = cards >> 2, cards & 3
    best = np.full(cards.shape[0], -1, dtype=np.int64)
    for permutation in group:
        best = np.maximum(best, flop_keys(ranks * 4 + permutation[suits]))
    return best


def key_cards(key: int) -> tuple[int, int, int]:
    """The flop (cards descending) of a key of :func:`flop_keys`."""
    return key // (DECK_SIZE * DECK_SIZE), key // DECK_SIZE % DECK_SIZE, key % DECK_SIZE


@dataclass(frozen=True)
class FlopClass:
    """One class of suit-isomorphic flops.

    Attributes
    ----------
    index : int
        0..1754, the classes ordered from ``AsAhAd``... down by their canonical flop.
    cards : tuple of int
        The canonical flop, cards descending: the highest card a spade, then hearts, diamonds,
        clubs as new suits appear (``AsKsQh``, ``Qs7h2d``).
    weight : int
        The concrete flops of the class (24, 12, 6, 4 or 1... : 24 / the renamings that keep it).
    """

    index: int
    cards: tuple[int, int, int]
    weight: int

    @property
    def text(self) -> str:
        return format_cards(self.cards)


@functools.lru_cache(maxsize=1)
def _class_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    keys = canonical_keys(all_flops())
    unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    order = np.argsort(-unique, kind="stable")  # best flop first
    rank_of = np.empty_like(order)
    rank_of[order] = np.arange(order.size)
    class_of_flop = rank_of[inverse]
    class_of_flop.flags.writeable = False
    return unique[order], counts[order], class_of_flop


@functools.lru_cache(maxsize=1)
def flop_classes() -> tuple[FlopClass, ...]:
    """The 1,755 classes of suit-isomorphic flops, each with its weight (the weights sum to
    22,100), best canonical flop first."""
    keys, counts, _ = _class_table()
    return tuple(FlopClass(index, key_cards(int(key)), int(count))
                 for index, (key, count) in enumerate(zip(keys.tolist(), counts.tolist())))


def class_of_flops() -> np.ndarray:
    """(22100,) int64, read-only: the class index of each flop of :func:`all_flops`."""
    return _class_table()[2]


@dataclass(frozen=True)
class Orbit:
    """Flops that a group of suit renamings maps onto each other (within a set of flops).

    Attributes
    ----------
    cards : tuple of int
        One member (the first of the set), cards descending: the flop a query runs on.
    flop_indexes : numpy.ndarray
        (count,) int64: the members, as rows of :func:`all_flops`.
    flop_class : int
        The members' class among the 1,755 (:func:`flop_classes`).
    """

    cards: tuple[int, int, int]
    flop_indexes: np.ndarray
    flop_class: int

    @property
    def weight(self) -> int:
        return int(self.flop_indexes.size)


def orbits(flop_indexes: np.ndarray, group: np.ndarray) -> list[Orbit]:
    """The flops ``flop_indexes`` (rows of :func:`all_flops`) split into orbits of ``group``
    (:func:`suit_group`), ordered by class, then by first member. A query invariant under the
    group gives the same answer on every member of an orbit: it runs once per orbit, weighted by
    the orbit's size."""
    flop_indexes = np.asarray(flop_indexes, dtype=np.int64)
    flops = all_flops()[flop_indexes]
    keys = canonical_keys(flops, group)
    classes = class_of_flops()[flop_indexes]
    result = []
    order = np.lexsort((flop_indexes, classes))
    keys, flop_indexes, classes = keys[order], flop_indexes[order], classes[order]
    seen: dict[int, list[int]] = {}
    for position, key in enumerate(keys.tolist()):
        seen.setdefault(key, []).append(position)
    for positions in seen.values():
        members = flop_indexes[positions]
        first = int(members[0])
        result.append(Orbit(tuple(int(card) for card in all_flops()[first]), members, int(classes[positions[0]])))
    result.sort(key=lambda orbit: (orbit.flop_class, int(orbit.flop_indexes[0])))
    return result
