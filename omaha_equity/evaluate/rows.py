"""Per-player lookup rows of fully known hole hands, built by numpy table lookups.

The fixed-hand kernels (``equity._kernels``, ``equity._allin_kernels``) read a board's values
from these rows, one read per player and board. Building them is a handful of gathers from the
tables (``tables.Tables``), so it is plain numpy rather than a compiled kernel: a compiled one
cost about 2 s of compiling on a first run and, in each warm command, a tenth of a second for
numba to load it (issue 18), for work that takes well under a millisecond.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .tables import ACE, RANK_COUNT

SUIT_MASKS = 1 << RANK_COUNT  # rank masks of one suit's board cards

# The low-mask bit of each rank (the kernels' ``_kernels.low_rank_bit``, as a table; tests/test_rows.py
# checks they agree): ace -> bit 0, deuce -> bit 1, ...
# eight -> bit 7, nine and up -> none.
LOW_RANK_BITS = tuple(1 << (rank + 1) if rank <= 6 else 1 if rank == ACE else 0 for rank in range(RANK_COUNT))


@functools.cache
def _hole_pairs(hole_count: int) -> tuple[tuple[int, int], ...]:
    """The positions of every pair of ``hole_count`` hole cards, in the kernels' order."""
    return tuple(itertools.combinations(range(hole_count), 2))


def build_player_rows(hole_cards: np.ndarray, board_indexes: np.ndarray, colex: np.ndarray, pair_board: np.ndarray,
                      pair_flush: np.ndarray, low: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-player lookup rows for a set of fully known hole hands.

    A query with ``dealt_count`` board cards still to come visits only the board rank
    multisets made of its known ranks plus ``dealt_count`` more (1 on the river, 13 on the
    turn, 91 on the flop, 6,188 preflop): the high rows hold just those. A flush row is the
    best, mask by mask, of the player's suited pairs' rows of ``pair_flush``.

    Parameters
    ----------
    hole_cards : (player_count, hole_count) int8
        Cards 0..51 (``rank * 4 + suit``).
    board_indexes : (row_size,) int32
        The five-rank board multiset index of each dealt-rank multiset
        (``tables.dealt_board_indexes``).
    colex, pair_board, pair_flush, low : the arrays of ``tables.Tables``.

    Returns
    -------
    high_rows : (player_count, row_size) int32
        Best unsuited high value per dealt-rank multiset: the best over the hand's hole-rank
        pairs of ``pair_board[board index, pair index]``.
    flush_rows : (player_count, 4, 8192) int32
        Best flush value per suit and board-suit rank mask (0 when the board has fewer than
        three cards of the suit, or the player fewer than two).
    low_rows : (player_count, 256) int16
        Best low value per board low-rank mask (``NO_LOW`` = 0: none).

    All three are new C-contiguous, writeable arrays (the kernels' compiled signatures).
    """
    player_count, hole_count = hole_cards.shape
    # The per-hand features in plain Python: a few dozen integers, where numpy's per-call cost
    # would dominate (a river query builds its rows in microseconds).
    low_terms, high_terms = colex[0].tolist(), colex[1].tolist()
    pair_indexes = []  # (player, hole pair): the pair's rank-multiset index
    hole_low_masks = []
    suited_pairs = []  # (player, suit, tables.suited_pair_index)
    for player, hand in enumerate(hole_cards.tolist()):
        ranks = [card >> 2 for card in hand]
        hand_pairs = []
        for first, second in _hole_pairs(hole_count):
            low_rank, high_rank = sorted((ranks[first], ranks[second]))
            hand_pairs.append(low_terms[low_rank] + high_terms[high_rank])
            suit = hand[first] & 3
            if hand[second] & 3 == suit:  # one suit: two distinct ranks
                suited_pairs.append((player, suit, high_rank * (high_rank - 1) // 2 + low_rank))
        pair_indexes.append(hand_pairs)
        low_mask = 0
        for rank in ranks:
            low_mask |= LOW_RANK_BITS[rank]
        hole_low_masks.append(low_mask)
    # pair_board[board, pair] of every hole pair and dealt multiset, (player, pair, board): the
    # best over the pairs is a maximum of whole contiguous rows
    board_offsets = board_indexes.astype(np.intp) * pair_board.shape[1]
    flat = np.array(pair_indexes, dtype=np.intp)[:, :, None] + board_offsets
    high_rows = pair_board.reshape(-1).take(flat).max(axis=1)
    low_rows = low[hole_low_masks]
    flush_rows = np.zeros((player_count, 4, SUIT_MASKS), dtype=np.int32)
    for player, suit, row in suited_pairs:
        np.maximum(flush_rows[player, suit], pair_flush[row], out=flush_rows[player, suit])
    return high_rows, flush_rows, low_rows
