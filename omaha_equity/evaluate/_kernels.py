"""Compiled evaluation kernels: arrays in, arrays out, no globals but integer constants.

The Omaha structure does the work (DESIGN.md, "Evaluation: fast and checked"):
- without a flush, the best high hand depends only on the hole ranks and the board's rank
  multiset, so a hole hand gets a *row* of 6,188 values, one per board-rank multiset, filled
  once from the pair x triple table and then read with one lookup per board;
- a flush needs three board cards of one suit and two hole cards of that suit, so a hole hand
  gets, per suit, a row over the 8,192 board-suit rank masks (zero unless it holds two cards of
  the suit);
- the low depends only on the hole and board low-rank masks: ``tables.low[hole_mask, board_mask]``.

The batch functions evaluate individual (hole, board) deals with the same per-board functions
the rows are built from, so the tests of one are tests of the other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cache import redirect_numba_cache, restore_numba_cache

BOARD_MULTISETS = 6188
SUIT_MASKS = 8192
LOW_MASKS = 256


# Compiled code is cached in a folder keyed by every kernel source (see cache.py).
_previous_numba_cache = redirect_numba_cache()

@njit(cache=True, nogil=True)
def low_rank_bit(rank):
    """Bit of a rank in a low mask: ace -> bit 0, deuce -> bit 1, ... eight -> bit 7, else 0."""
    if rank == 12:
        return 1
    if rank <= 6:
        return 1 << (rank + 1)
    return 0


@njit(cache=True, nogil=True)
def hole_pair_indexes(hole_cards, colex):
    """Multiset index of the ranks of every pair of hole cards: ``(C(H, 2),) int32``."""
    hole_count = hole_cards.shape[0]
    indexes = np.empty(hole_count * (hole_count - 1) // 2, dtype=np.int32)
    position = 0
    for first in range(hole_count):
        for second in range(first + 1, hole_count):
            low_rank = min(hole_cards[first] >> 2, hole_cards[second] >> 2)
            high_rank = max(hole_cards[first] >> 2, hole_cards[second] >> 2)
            indexes[position] = colex[0, low_rank] + colex[1, high_rank]
            position += 1
    return indexes


@njit(cache=True, nogil=True)
def best_unsuited_high(pair_indexes, board_index, pair_triple, board_triples):
    """Best high value ignoring flushes: hole pairs x the ten triples of one board multiset."""
    best = 0
    for triple_position in range(10):
        triple = board_triples[board_index, triple_position]
        for pair_position in range(pair_indexes.shape[0]):
            value = pair_triple[pair_indexes[pair_position], triple]
            if value > best:
                best = value
    return best


@njit(cache=True, nogil=True)
def best_flush_high(hole_suit_mask, board_suit_mask, flush):
    """Best flush/straight flush from exactly two hole and three board ranks of one suit, or 0."""
    hole_ranks = np.empty(6, dtype=np.int32)
    board_ranks = np.empty(5, dtype=np.int32)
    hole_count = 0
    board_count = 0
    for rank in range(13):
        if hole_suit_mask >> rank & 1:
            hole_ranks[hole_count] = rank
            hole_count += 1
        if board_suit_mask >> rank & 1:
            board_ranks[board_count] = rank
            board_count += 1
    best = 0
    if hole_count < 2 or board_count < 3:
        return best
    for a in range(board_count):
        for b in range(a + 1, board_count):
            for c in range(b + 1, board_count):
                triple_mask = (1 << board_ranks[a]) | (1 << board_ranks[b]) | (1 << board_ranks[c])
                for d in range(hole_count):
                    for e in range(d + 1, hole_count):
                        value = flush[triple_mask | (1 << hole_ranks[d]) | (1 << hole_ranks[e])]
                        if value > best:
                            best = value
    return best


@njit(cache=True, nogil=True)
def board_multiset_index(board_cards, colex):
    """Multiset index (0..6187) of the ranks of five board cards, in any order."""
    ranks = np.empty(5, dtype=np.int32)
    for position in range(5):
        rank = board_cards[position] >> 2
        insert_at = position
        while insert_at > 0 and ranks[insert_at - 1] > rank:
            ranks[insert_at] = ranks[insert_at - 1]
            insert_at -= 1
        ranks[insert_at] = rank
    index = 0
    for position in range(5):
        index += colex[position, ranks[position]]
    return index


@njit(cache=True)
def build_player_rows(hole_cards, colex, pair_triple, board_triples, flush, low):
    """Per-player lookup rows for a set of fully known hole hands.

    Parameters
    ----------
    hole_cards : (player_count, hole_count) int8
    colex, pair_triple, board_triples, flush, low : the arrays of ``tables.Tables``.

    Returns
    -------
    high_rows : (player_count, 6188) int32
        Best unsuited high value per five-rank board multiset.
    flush_rows : (player_count, 4, 8192) int32
        Best flush value per suit and board-suit rank mask (0: no flush).
    low_rows : (player_count, 256) int16
        Best low value per board low-rank mask (``NO_LOW`` = 0: none).
    """
    player_count, hole_count = hole_cards.shape
    high_rows = np.empty((player_count, BOARD_MULTISETS), dtype=np.int32)
    flush_rows = np.zeros((player_count, 4, SUIT_MASKS), dtype=np.int32)
    low_rows = np.empty((player_count, LOW_MASKS), dtype=np.int16)
    for player in range(player_count):
        pair_indexes = hole_pair_indexes(hole_cards[player], colex)
        for board_index in range(BOARD_MULTISETS):
            high_rows[player, board_index] = best_unsuited_high(pair_indexes, board_index, pair_triple, board_triples)
        low_mask = 0
        suit_masks = np.zeros(4, dtype=np.int32)
        for position in range(hole_count):
            card = hole_cards[player, position]
            suit_masks[card & 3] |= 1 << (card >> 2)
            low_mask |= low_rank_bit(card >> 2)
        for board_low_mask in range(LOW_MASKS):
            low_rows[player, board_low_mask] = low[low_mask, board_low_mask]
        for suit in range(4):
            hole_suit_mask = suit_masks[suit]
            if _bit_count(hole_suit_mask) < 2:
                continue
            for board_suit_mask in range(SUIT_MASKS):
                if _bit_count(board_suit_mask) >= 3 and (board_suit_mask & hole_suit_mask) == 0:
                    flush_rows[player, suit, board_suit_mask] = best_flush_high(hole_suit_mask, board_suit_mask, flush)
    return high_rows, flush_rows, low_rows


@njit(cache=True, nogil=True)
def _bit_count(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def evaluate_deals(hole_cards, board_cards, colex, pair_triple, board_triples, flush, low):
    """Best high and low value of many independent deals.

    Parameters
    ----------
    hole_cards : (deal_count, hole_count) int8
    board_cards : (deal_count, 5) int8

    Returns
    -------
    high_values : (deal_count,) int32
    low_values : (deal_count,) int16  (``NO_LOW`` = 0 when no 8-or-better low)
    """
    deal_count, hole_count = hole_cards.shape
    high_values = np.empty(deal_count, dtype=np.int32)
    low_values = np.empty(deal_count, dtype=np.int16)
    for deal in range(deal_count):
        pair_indexes = hole_pair_indexes(hole_cards[deal], colex)
        board_index = board_multiset_index(board_cards[deal], colex)
        best = best_unsuited_high(pair_indexes, board_index, pair_triple, board_triples)
        hole_low_mask = 0
        board_low_mask = 0
        for suit in range(4):
            hole_suit_mask = 0
            board_suit_mask = 0
            for position in range(hole_count):
                card = hole_cards[deal, position]
                if card & 3 == suit:
                    hole_suit_mask |= 1 << (card >> 2)
            for position in range(5):
                card = board_cards[deal, position]
                if card & 3 == suit:
                    board_suit_mask |= 1 << (card >> 2)
            value = best_flush_high(hole_suit_mask, board_suit_mask, flush)
            if value > best:
                best = value
        for position in range(hole_count):
            hole_low_mask |= low_rank_bit(hole_cards[deal, position] >> 2)
        for position in range(5):
            board_low_mask |= low_rank_bit(board_cards[deal, position] >> 2)
        high_values[deal] = best
        low_values[deal] = low[hole_low_mask, board_low_mask]
    return high_values, low_values


restore_numba_cache(_previous_numba_cache)
