"""Hands on any street, written once for the query language, the outs and the outs terms of the
category filters (``studies.outs``, ``pql``, :mod:`.filters`): every player's high and low value
on a flop, turn or river; the best and second-best hands two cards not removed make (nut
status); the made-hand category on a street; each player's equity on a street, enumerated
exactly. Wrappers that check and convert their arrays and call the compiled kernels of
``_street_kernels``.

Arrays hold one deal per row: hole cards ``(deal_count, player_count, hole_count) int8``, boards
``(deal_count, 5) int8`` of which the first ``board_count`` are dealt, card sets as 52-bit masks
in ``int64`` (:func:`card_masks`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..evaluate.tables import load_tables


def card_masks(cards: np.ndarray) -> np.ndarray:
    """The set of cards of each row as a 52-bit mask.

    Parameters
    ----------
    cards : (n, k) integer array of cards 0..51 (k may be 0).

    Returns
    -------
    (n,) int64, bit ``card`` set for each card of the row.
    """
    cards = np.asarray(cards, dtype=np.int64)
    if cards.ndim == 1:
        cards = cards[:, None]
    if cards.shape[1] == 0:
        return np.zeros(cards.shape[0], dtype=np.int64)
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), cards), axis=1)


def hand_values_on_street(hands: np.ndarray, boards: np.ndarray, board_count: int,
                          hilo: bool) -> tuple[np.ndarray, np.ndarray]:
    """High and low value of every player of every deal on a flop (3), turn (4) or river (5).

    Parameters
    ----------
    hands : (deal_count, player_count, hole_count) int8
    boards : (deal_count, 5) int8, the first ``board_count`` cards dealt.

    Returns
    -------
    high : (deal_count, player_count) int32, larger is better (``evaluate.tables``).
    low : (deal_count, player_count) int16, 0 without a qualifying low (or not ``hilo``).
    """
    from ._street_kernels import street_values  # lazy: importing numba is slow

    tables = load_tables()
    return street_values(np.ascontiguousarray(hands, dtype=np.int8), np.ascontiguousarray(boards, dtype=np.int8),
                         int(board_count), tables.colex, tables.pair_triple, tables.pair_board, tables.flush,
                         tables.low, bool(hilo))


@dataclass(frozen=True)
class NutValues:
    """The best hands two cards not removed make with each board (:func:`nut_values`).

    Attributes
    ----------
    high : (deal_count,) int32, the nut high value.
    by_type : (deal_count, 9) int32, the best value of each hand type (0: none).
    low : (deal_count,) int16, the nut low value (0: none possible).
    second_high : (deal_count,) int32, the second-nut high, the best value below ``high``
        (0: none).
    second_low : (deal_count,) int16, the second-nut low (0: none).
    """

    high: np.ndarray
    by_type: np.ndarray
    low: np.ndarray
    second_high: np.ndarray
    second_low: np.ndarray


def nut_values(boards: np.ndarray, board_count: int, removed: np.ndarray) -> NutValues:
    """The nuts of each deal's street when the cards of ``removed`` (an ``(deal_count,) int64``
    mask) are out: pass the board's cards, and a player's hole cards and the dead cards for
    PQL's nut tests (module docstring)."""
    from ._street_kernels import available_best  # lazy: importing numba is slow

    tables = load_tables()
    boards = np.ascontiguousarray(boards, dtype=np.int8)
    removed = np.ascontiguousarray(removed, dtype=np.int64) | card_masks(boards[:, :board_count])
    high, second_high, by_type, low, second_low = available_best(
        boards, int(board_count), removed, tables.colex, tables.pair_triple, tables.pair_board, tables.pair_flush,
        tables.low)
    return NutValues(high, by_type, low, second_high, second_low)


def made_hands(hands: np.ndarray, boards: np.ndarray, board_count: int, street_high: np.ndarray) -> np.ndarray:
    """``(deal_count, player_count) int8``: each player's made hand on a street as an index of
    ``categories.names.MADE_HANDS`` (``set``, ``top-two``, ...), the categories' own rule;
    ``street_high`` the players' values on it (:func:`hand_values_on_street`)."""
    from ._street_kernels import made_hands as kernel  # lazy: importing numba is slow

    return kernel(np.ascontiguousarray(hands, dtype=np.int8), np.ascontiguousarray(boards, dtype=np.int8),
                  int(board_count), np.ascontiguousarray(street_high, dtype=np.int32))


def street_equities(hands: np.ndarray, boards: np.ndarray, board_count: int, dead: np.ndarray, hilo: bool,
                    known: dict[bytes, np.ndarray] | None = None) -> np.ndarray:
    """Each player's equity on a street with every hand known (PQL's ``HvHequity``): every
    completion of the first ``board_count`` board cards enumerated, ties split, hi/lo halves.

    Deals that repeat (the same hands, street cards and dead cards) are computed once, and once
    only across calls that share ``known`` (a dict this function fills): a query whose hands
    repeat pays for each distinct flop once.

    Parameters
    ----------
    hands : (deal_count, player_count, hole_count) int8
    boards : (deal_count, 5) int8
    board_count : int, 0 (preflop), 3, 4 or 5.
    dead : (deal_count,) int64 masks of dead cards.
    known : dict, optional, equities already computed, by key.

    Returns
    -------
    (deal_count, player_count) float64 fractions 0..1.
    """
    from ._street_kernels import street_equities as kernel  # lazy: importing numba is slow

    hands = np.ascontiguousarray(hands, dtype=np.int8)
    deal_count, player_count, _ = hands.shape
    # a deal's key: each player's cards, the street's cards (as a set) and the dead cards
    keys = np.empty((deal_count, player_count + 2), dtype=np.int64)
    for player in range(player_count):
        keys[:, player] = card_masks(hands[:, player])
    keys[:, player_count] = card_masks(boards[:, :board_count])
    keys[:, player_count + 1] = dead
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    starts = np.concatenate([[True], np.any(ordered[1:] != ordered[:-1], axis=1)])
    group = np.cumsum(starts) - 1
    inverse = np.empty(deal_count, dtype=np.int64)
    inverse[order] = group
    firsts = order[starts]
    known = {} if known is None else known
    key_bytes = [keys[row].tobytes() for row in firsts]
    missing = np.array([row for row, key in zip(firsts, key_bytes) if key not in known], dtype=np.int64)
    if missing.size:
        tables = load_tables()
        computed = kernel(np.ascontiguousarray(hands[missing]), np.ascontiguousarray(boards[missing], dtype=np.int8),
                          int(board_count), np.ascontiguousarray(keys[missing, player_count + 1]), tables.colex,
                          tables.pair_board, tables.flush, tables.low, bool(hilo))
        for row, equities in zip(missing.tolist(), computed):
            known[keys[row].tobytes()] = equities
    unique = np.array([known[key] for key in key_bytes]).reshape(-1, player_count)
    return unique[inverse]
