"""Per-player lookup rows of fully known hole hands, built by numpy table lookups.

The fixed-hand kernels (``equity.fixed._kernels``, ``equity.fixed._allin_kernels``) read a board's values
from these rows, one read per player and board. Building them is a handful of whole-row
operations on the tables (``tables.Tables``), so it is plain numpy rather than a compiled kernel: a
compiled one cost about 2 s of compiling on a first run and, in each warm command, a tenth of a
second for numba to load it (measured on a warm command), for work that takes well under a
millisecond.

The rows of many boards (a preflop or one-card board: 6,188 or 1,820 rank multisets) are read
from :func:`pair_board_by_pair`, ``pair_board`` turned round once per process, so that a hole
pair's values on every board are one contiguous row and a player's high row is the maximum of
whole rows; gathering them from ``pair_board`` itself read one cache line per value (six players
of five cards: 371,280 scattered reads, about 1.3 ms, against 0.1 ms).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .tables import LOW_RANK_BITS, RANK_COUNT

SUIT_MASKS = 1 << RANK_COUNT  # rank masks of one suit's board cards
# Rows of at least this many dealt-rank multisets (a board with at most one known card: 1,820 or
# 6,188) are read from pair_board_by_pair. Turning the table round costs about 2 ms once per
# process; a flop's 91 or a turn's 13 multisets gather a few thousand values at most.
WHOLE_ROW_BOARDS = 1_820


# pair_board_by_pair's tables: id of the pair_board given -> (that array, turned round). The
# array is kept so that its id is not reused while it is remembered.
_turned_tables: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def pair_board_by_pair(pair_board: np.ndarray) -> np.ndarray:
    """``pair_board`` turned round: ``(91, 6188) int32``, row ``pair`` holding that hole-rank
    pair's best unsuited value on every five-rank board multiset, C-contiguous; made once per
    table object (read-only, shared)."""
    known = _turned_tables.get(id(pair_board))
    if known is not None and known[0] is pair_board:
        return known[1]
    by_pair = np.ascontiguousarray(pair_board.T)
    by_pair.setflags(write=False)
    _turned_tables[id(pair_board)] = (pair_board, by_pair)
    return by_pair


@functools.cache
def _hole_pairs(hole_count: int) -> tuple[tuple[int, int], ...]:
    """The positions of every pair of ``hole_count`` hole cards, in the kernels' order."""
    return tuple(itertools.combinations(range(hole_count), 2))


@functools.lru_cache(maxsize=4096)
def reachable_flush_masks(known_mask: int, dealt_count: int) -> np.ndarray | None:
    """The rank masks of one suit that a completed board can hold whose flush value is not 0:
    the known board's mask of the suit plus up to ``dealt_count`` more ranks, with three ranks
    or more. ``(n,) intp`` ascending (read-only, shared), empty when the suit cannot reach three
    cards; None when ``dealt_count`` is 3 or more (nearly every mask: the whole row is built)."""
    if dealt_count >= 3:
        return None
    free = [1 << rank for rank in range(RANK_COUNT) if not known_mask >> rank & 1]
    masks = {known_mask}
    for count in range(1, dealt_count + 1):
        masks.update(known_mask | sum(bits) for bits in itertools.combinations(free, count))
    masks = np.array(sorted(mask for mask in masks if mask.bit_count() >= 3), dtype=np.intp)
    masks.setflags(write=False)
    return masks


@functools.lru_cache(maxsize=4096)
def _hand_features(hand: tuple[int, ...], colex_terms: tuple[tuple[int, ...], tuple[int, ...]]):
    """One hand's features in plain Python (a few dozen integers, where numpy's per-call cost
    would dominate), kept per hand: a batch or the shell meets the same hands again.
    ``(pair indexes, low mask, suited pairs)``: each hole pair's rank-multiset index (``colex``
    rows 0 and 1 as ``colex_terms``), the hand's low-rank mask, and ``(suit,
    tables.suited_pair_index)`` of each suited pair."""
    low_terms, high_terms = colex_terms
    ranks = [card >> 2 for card in hand]
    pair_indexes = []
    suited = []
    for first, second in _hole_pairs(len(hand)):
        low_rank, high_rank = sorted((ranks[first], ranks[second]))
        pair_indexes.append(low_terms[low_rank] + high_terms[high_rank])
        suit = hand[first] & 3
        if hand[second] & 3 == suit:  # one suit: two distinct ranks
            suited.append((suit, high_rank * (high_rank - 1) // 2 + low_rank))
    low_mask = 0
    for rank in ranks:
        low_mask |= LOW_RANK_BITS[rank]
    return tuple(pair_indexes), low_mask, tuple(suited)


def build_player_rows(hole_cards: np.ndarray, board_indexes: np.ndarray, colex: np.ndarray, pair_board: np.ndarray,
                      pair_flush: np.ndarray, low: np.ndarray,
                      known_board: tuple[int, ...] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    known_board : tuple of int, optional
        The known board cards (0..5) when the rows serve only completions of that board (the
        fixed-hand kernels): with 3 or more known cards, each flush row is filled only at the
        masks a completion can give its suit with three ranks or more
        (:func:`reachable_flush_masks`), the only entries the kernels read that are not 0, and
        left 0 elsewhere. A river query then touches none or one suit's entry instead of
        maximising whole 8,192-entry rows (the river query's main cost). None: whole rows.

    Returns
    -------
    high_rows : (player_count, row_size) int32
        Best unsuited high value per dealt-rank multiset: the best over the hand's hole-rank
        pairs of ``pair_board[board index, pair index]``.
    flush_rows : (player_count, 4, 8192) int32
        Best flush value per suit and board-suit rank mask (0 when the board has fewer than
        three cards of the suit, or the player fewer than two; with ``known_board``, also 0 at
        masks no completion of it has).
    low_rows : (player_count, 256) int16
        Best low value per board low-rank mask (``NO_LOW`` = 0: none).

    All three are new C-contiguous, writeable arrays (the kernels' compiled signatures).
    """
    player_count, hole_count = hole_cards.shape
    colex_terms = (tuple(colex[0].tolist()), tuple(colex[1].tolist()))
    pair_indexes = []  # (player, hole pair): the pair's rank-multiset index
    hole_low_masks = []
    suited_pairs = []  # (player, suit, tables.suited_pair_index)
    for player, hand in enumerate(hole_cards.tolist()):
        hand_pairs, low_mask, hand_suited = _hand_features(tuple(hand), colex_terms)
        pair_indexes.append(hand_pairs)
        hole_low_masks.append(low_mask)
        suited_pairs.extend((player, suit, row) for suit, row in hand_suited)
    if len(board_indexes) == 1:
        # one dealt-rank multiset (a river): a few Python reads of one row of pair_board
        board_row = pair_board[int(board_indexes[0])].tolist()
        high_rows = np.array([[max(board_row[pair] for pair in hand_pairs)] for hand_pairs in pair_indexes],
                             dtype=np.int32)
    elif len(board_indexes) >= WHOLE_ROW_BOARDS:
        # each hole pair's values on every board are a contiguous row of the turned table: a
        # player's row is the maximum of its pairs' rows (of their values at board_indexes when
        # a known card makes the mapping other than the identity)
        by_pair = pair_board_by_pair(pair_board)
        identity = len(board_indexes) == by_pair.shape[1]
        high_rows = np.empty((player_count, len(board_indexes)), dtype=np.int32)
        for player, hand_pairs in enumerate(pair_indexes):
            row = high_rows[player]
            distinct = sorted(set(hand_pairs))  # pairs of the same two ranks have one row
            for position, pair in enumerate(distinct):
                values = by_pair[pair] if identity else by_pair[pair].take(board_indexes)
                if position == 0:
                    row[:] = values
                else:
                    np.maximum(row, values, out=row)
    else:
        # pair_board[board, pair] of every hole pair and dealt multiset, (player, pair, board): the
        # best over the pairs is a maximum of whole contiguous rows
        board_offsets = board_indexes.astype(np.intp) * pair_board.shape[1]
        flat = np.array(pair_indexes, dtype=np.intp)[:, :, None] + board_offsets
        high_rows = pair_board.reshape(-1).take(flat).max(axis=1)
    low_rows = low.take(hole_low_masks, axis=0)  # a new (players, 256) array; take costs a third of [ ]
    # 0 wherever nothing is written: the kernels read suit 0's row at a mask of fewer than three
    # ranks when no suit makes a flush
    flush_rows = np.zeros((player_count, 4, SUIT_MASKS), dtype=np.int32)
    if known_board is None or len(known_board) < 3:
        # the best of each (player, suit)'s suited-pair rows: a maximum over whole rows of
        # pair_flush, reduced at once where a suit holds several pairs
        suited_pairs.sort()
        first = 0
        for index, (player, suit, row) in enumerate(suited_pairs):
            if index + 1 < len(suited_pairs) and suited_pairs[index + 1][:2] == (player, suit):
                continue
            if index == first:
                flush_rows[player, suit] = pair_flush[row]
            else:
                np.maximum.reduce(pair_flush.take([row for _, _, row in suited_pairs[first:index + 1]], axis=0),
                                  axis=0, out=flush_rows[player, suit])
            first = index + 1
        return high_rows, flush_rows, low_rows
    known_masks = [0, 0, 0, 0]
    for card in known_board:
        known_masks[card & 3] |= 1 << (card >> 2)
    dealt_count = 5 - len(known_board)
    suit_reach = [reachable_flush_masks(mask, dealt_count) for mask in known_masks]
    # each (player, suit) with suited pairs in a suit that can make a flush: the best of its
    # pairs' values at the reachable masks (gathers of at most 79 values, not 8,192)
    pair_rows: dict[tuple[int, int], list[int]] = {}
    for player, suit, row in suited_pairs:
        if len(suit_reach[suit]):
            pair_rows.setdefault((player, suit), []).append(row)
    for (player, suit), rows in pair_rows.items():
        masks = suit_reach[suit]
        values = pair_flush[rows[0]].take(masks)
        for row in rows[1:]:
            np.maximum(values, pair_flush[row].take(masks), out=values)
        flush_rows[player, suit].put(masks, values)
    return high_rows, flush_rows, low_rows
