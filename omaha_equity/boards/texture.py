"""Flop textures: how the suits fall (monotone, two-tone, rainbow), whether a rank repeats
(paired, trips), whether a straight is possible (connected) and whether a low is (low board).

Each test takes flops as an ``(n, 3)`` array of card ints and returns an ``(n,)`` bool array,
so the board-range macros (``$mono``, ``$paired``, ...) and the texture groups of ``flops --by
texture`` are the same functions. The ``board_*`` counts and :func:`straight_possible` take boards
of any length (an ``(n, k)`` array, k = 3 to 5): the flop tests are built on them, and the query
language's board functions (``pairedBoard``, ``straightPossible``, ...) call them on any street.
"""

from __future__ import annotations

import numpy as np

# The texture groups of ``flops --by texture``, in the order they are shown.
SUIT_TEXTURES = ("monotone", "two-tone", "rainbow")
PAIRINGS = ("unpaired", "paired", "trips")
TEXTURE_GROUPS = tuple(
    f"{suits}, {pairing}" + (f", {link}" if pairing == "unpaired" else "")
    for suits in SUIT_TEXTURES for pairing in PAIRINGS for link in (("connected", "disconnected")
                                                                     if pairing == "unpaired" else ("",))
    if not (suits == "monotone" and pairing != "unpaired") and not (suits == "two-tone" and pairing == "trips")
)
# The ranks of a low: A, 2..8.
_LOW_RANKS = (12, 0, 1, 2, 3, 4, 5, 6)


def _ranks_suits(flops) -> tuple[np.ndarray, np.ndarray]:
    cards = np.asarray(flops, dtype=np.int64).reshape(-1, 3)
    return cards >> 2, cards & 3


def board_suit_count(boards) -> np.ndarray:
    """(n,) int64: the distinct suits of each board, an ``(n, k)`` array of card ints."""
    suits = np.asarray(boards, dtype=np.int64) & 3
    return sum((suits == suit).any(axis=1).astype(np.int64) for suit in range(4))


def board_most_of_one_suit(boards) -> np.ndarray:
    """(n,) int64: the most cards of one suit on each board (3 or more: a flush is possible)."""
    suits = np.asarray(boards, dtype=np.int64) & 3
    return np.max([(suits == suit).sum(axis=1) for suit in range(4)], axis=0)


def board_paired(boards) -> np.ndarray:
    """(n,) bool: two cards of a board share a rank."""
    ranks = np.sort(np.asarray(boards, dtype=np.int64) >> 2, axis=1)
    return (ranks[:, 1:] == ranks[:, :-1]).any(axis=1)


def board_low_rank_count(boards) -> np.ndarray:
    """(n,) int64: the distinct ranks of eight or lower (the ace low) on each board; three or
    more make a low possible."""
    ranks = np.asarray(boards, dtype=np.int64) >> 2
    return sum((ranks == rank).any(axis=1).astype(np.int64) for rank in _LOW_RANKS)


def straight_possible(boards) -> np.ndarray:
    """(n,) bool: three distinct ranks of a board lie within five consecutive ranks (the ace
    both high and low), so two hole cards can make a straight."""
    ranks = np.asarray(boards, dtype=np.int64) >> 2
    present = np.zeros((ranks.shape[0], 14), dtype=bool)  # column 0: the ace as the lowest rank
    for rank in range(13):
        present[:, rank + 1] = (ranks == rank).any(axis=1)
    present[:, 0] = present[:, 13]
    possible = np.zeros(ranks.shape[0], dtype=bool)
    for low_end in range(10):  # A-2-3-4-5 up to T-J-Q-K-A
        possible |= present[:, low_end:low_end + 5].sum(axis=1) >= 3
    return possible


def suit_count(flops) -> np.ndarray:
    """(n,) int64: the distinct suits of each flop (1 monotone, 2 two-tone, 3 rainbow)."""
    return board_suit_count(np.asarray(flops, dtype=np.int64).reshape(-1, 3))


def rank_count(flops) -> np.ndarray:
    """(n,) int64: the distinct ranks of each flop (3 unpaired, 2 paired, 1 trips)."""
    ranks, _ = _ranks_suits(flops)
    return 1 + (ranks[:, 1] != ranks[:, 0]) + ((ranks[:, 2] != ranks[:, 0]) & (ranks[:, 2] != ranks[:, 1]))


def is_monotone(flops) -> np.ndarray:
    """Three cards of one suit."""
    return suit_count(flops) == 1


def is_two_tone(flops) -> np.ndarray:
    """Exactly two suits (a flush draw is possible, a flush is not)."""
    return suit_count(flops) == 2


def is_rainbow(flops) -> np.ndarray:
    """Three suits."""
    return suit_count(flops) == 3


def is_paired(flops) -> np.ndarray:
    """Two or three cards of one rank (trips count as paired)."""
    return rank_count(flops) < 3


def is_trips(flops) -> np.ndarray:
    """Three cards of one rank."""
    return rank_count(flops) == 1


def is_connected(flops) -> np.ndarray:
    """Three distinct ranks within five consecutive ranks (the ace both high and low): a
    straight is possible with two hole cards (``9h8d5c``, ``As3d2c``, ``KdQh9s``)."""
    return straight_possible(np.asarray(flops, dtype=np.int64).reshape(-1, 3))


def is_low(flops) -> np.ndarray:
    """Three distinct ranks of eight or lower (the ace low): a low is possible."""
    return board_low_rank_count(np.asarray(flops, dtype=np.int64).reshape(-1, 3)) == 3


def texture_groups(flops) -> list[str]:
    """Each flop's group of :data:`TEXTURE_GROUPS`: suits, pairing and, unpaired, whether it is
    connected (``"two-tone, unpaired, connected"``)."""
    suits = suit_count(flops)
    ranks = rank_count(flops)
    connected = is_connected(flops)
    names = []
    for suit, rank, link in zip(suits.tolist(), ranks.tolist(), connected.tolist()):
        name = f"{SUIT_TEXTURES[suit - 1]}, {PAIRINGS[3 - rank]}"
        if rank == 3:
            name += ", connected" if link else ", disconnected"
        names.append(name)
    return names


# The board-range macros: name -> test.
MACROS = {
    "mono": is_monotone, "monotone": is_monotone, "twotone": is_two_tone, "rainbow": is_rainbow,
    "paired": is_paired, "unpaired": lambda flops: ~is_paired(flops), "trips": is_trips,
    "connected": is_connected, "lowboard": is_low, "low": is_low,
}
