"""What the categorizer needs to know about one board, computed once per board (milliseconds).

Everything here depends on the board alone, so a whole range shares it: the best unsuited value
of each hole-rank pair now, after each next rank and (on a flop) after each turn-and-river rank
pair; whether such a pair makes a straight; the distinct high and low values that any two cards
of the rest of the deck make with the board (for the nut status); and, per hole low-rank mask,
the low after each next rank and how many distinct lows beat it then.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np

from ..cards import DECK_SIZE
from ..evaluate.tables import CATEGORY_SHIFT, NO_LOW, PAIR_MULTISETS, RANK_COUNT, STRAIGHT, load_tables, low_bit, \
    suited_pair_index

LOW_MASKS = 256


@dataclass(frozen=True)
class BoardTables:
    """The per-board arrays of :func:`board_tables` (kernel inputs; see ``_kernels.categorize_hands``).

    Attributes
    ----------
    board : (board_count,) int8
    rank_counts : (13,) int32, board cards of each rank.
    suit_masks : (4,) int32, rank mask of the board cards of each suit.
    ranks_info : (5,) int32: top rank, second-highest distinct rank (-1 if none), lowest rank,
        highest rank not on the board (the top kicker), board low mask.
    current : (91,) int32, best unsuited value of each hole-rank pair (multiset index) now.
    next_values : (91, 13) int32, the same after one more card of each rank (zeros on the river).
    next_straight : (91, 13) uint8, 1 when the pair makes a straight with three of the board
        cards and that rank.
    runout_ranks : (k, 2) int32, the turn-and-river rank pairs (91 on a flop, none otherwise).
    runout_straight : (91, k) uint8, 1 when the hole pair makes a straight on that runout.
    high_values : (m,) int32 ascending, the distinct high values of every two cards of the deck
        (less the board) with the board.
    low_values : (l,) int16 ascending, the same for qualifying lows.
    low_after : (256, 13) int16, the low of a hole low mask after one more card of each rank.
    low_beaten_after : (256, 13) int16, distinct lows that beat it then (-1 without a low).
    """

    board: np.ndarray
    rank_counts: np.ndarray
    suit_masks: np.ndarray
    ranks_info: np.ndarray
    current: np.ndarray
    next_values: np.ndarray
    next_straight: np.ndarray
    runout_ranks: np.ndarray
    runout_straight: np.ndarray
    high_values: np.ndarray
    low_values: np.ndarray
    low_after: np.ndarray
    low_beaten_after: np.ndarray

    def kernel_arguments(self) -> tuple:
        return (self.board, self.rank_counts, self.suit_masks, self.ranks_info, self.current, self.next_values,
                self.next_straight, self.runout_ranks, self.runout_straight, self.high_values, self.low_values,
                self.low_after, self.low_beaten_after)


def _pair_values(board_ranks, colex, pair_triple) -> tuple[np.ndarray, np.ndarray]:
    """(91,) best unsuited value and (91,) straight flag of every hole-rank pair with three of
    ``board_ranks`` (3 to 5 ranks)."""
    triples = sorted({tuple(sorted(triple)) for triple in itertools.combinations(board_ranks, 3)})
    indexes = [sum(int(colex[position, rank]) for position, rank in enumerate(triple)) for triple in triples]
    values = pair_triple[:, indexes]
    straight = ((values >> CATEGORY_SHIFT) == STRAIGHT).any(axis=1)
    return values.max(axis=1), straight


def _pair_values_many(rank_rows: np.ndarray, colex, pair_triple) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_pair_values` of many boards at once: ``rank_rows`` (k, n) int, n = 3 to 5 ranks
    a board; returns (91, k) best values and (91, k) straight flags (a triple of ranks that two
    boards' subsets repeat changes neither a max nor an any)."""
    picks = np.array(list(itertools.combinations(range(rank_rows.shape[1]), 3)))
    triples = np.sort(rank_rows[:, picks], axis=2)  # (k, C(n, 3), 3) ascending, as colex reads them
    indexes = colex[0, triples[..., 0]] + colex[1, triples[..., 1]] + colex[2, triples[..., 2]]
    values = pair_triple[:, indexes]  # (91, k, C(n, 3))
    return values.max(axis=2), ((values >> CATEGORY_SHIFT) == STRAIGHT).any(axis=2)


def _distinct_lows(board_low_mask: int, rank_left, low) -> np.ndarray:
    """Ascending distinct qualifying lows of every two cards of distinct low ranks still in the deck."""
    values = set()
    for first, second in itertools.combinations([rank for rank in range(RANK_COUNT) if low_bit(rank)], 2):
        if rank_left[first] > 0 and rank_left[second] > 0:
            value = int(low[low_bit(first) | low_bit(second), board_low_mask])
            if value != NO_LOW:
                values.add(value)
    return np.array(sorted(values), dtype=np.int16)


def _high_values(board: tuple[int, ...], current: np.ndarray, suit_masks: np.ndarray, colex, pair_flush) -> np.ndarray:
    """Ascending distinct high values of every two cards of the deck (less the board) with the
    board: the best unsuited value of their rank pair, or their flush when suited."""
    deck = np.setdiff1d(np.arange(DECK_SIZE), board)
    first, second = np.triu_indices(deck.shape[0], 1)
    first, second = deck[first], deck[second]
    low_rank, high_rank = np.minimum(first >> 2, second >> 2), np.maximum(first >> 2, second >> 2)
    values = current[colex[0, low_rank] + colex[1, high_rank]].astype(np.int64)
    suited = ((first & 3) == (second & 3)) & (low_rank != high_rank)
    flush = pair_flush[suited_pair_index(low_rank[suited], high_rank[suited]), suit_masks[first[suited] & 3]]
    values[suited] = np.maximum(values[suited], flush)
    return np.unique(values).astype(np.int32)


@functools.lru_cache(maxsize=64)
def board_tables(board: tuple[int, ...], draws: bool = True) -> BoardTables:
    """The tables of a board of 3 to 5 cards (as card ints, in any order); without ``draws``, the
    tables only the draws read (``next_values``, ``next_straight``, the runouts) are left
    empty: a flop's tables then cost a fraction of the time."""
    tables = load_tables()
    colex, pair_triple = tables.colex, tables.pair_triple
    ranks = [card >> 2 for card in board]
    rank_counts = np.bincount(ranks, minlength=RANK_COUNT).astype(np.int32)
    suit_masks = np.zeros(4, dtype=np.int32)
    board_low_mask = 0
    for card in board:
        suit_masks[card & 3] |= 1 << (card >> 2)
        board_low_mask |= low_bit(card >> 2)
    distinct = sorted(set(ranks), reverse=True)
    top_kicker = max(rank for rank in range(RANK_COUNT) if rank_counts[rank] == 0)
    ranks_info = np.array([distinct[0], distinct[1] if len(distinct) > 1 else -1, distinct[-1], top_kicker,
                           board_low_mask], dtype=np.int32)
    current, _ = _pair_values(ranks, colex, pair_triple)
    next_values = np.zeros((PAIR_MULTISETS, RANK_COUNT), dtype=np.int32)
    next_straight = np.zeros((PAIR_MULTISETS, RANK_COUNT), dtype=np.uint8)
    low_after = np.zeros((LOW_MASKS, RANK_COUNT), dtype=np.int16)
    low_beaten_after = np.full((LOW_MASKS, RANK_COUNT), -1, dtype=np.int16)
    rank_left = 4 - rank_counts
    if len(board) < 5:
        for rank in range(RANK_COUNT):
            if rank_left[rank] == 0:
                continue
            after_mask = board_low_mask | low_bit(rank)
            lows = tables.low[:, after_mask]
            left = rank_left.copy()
            left[rank] -= 1
            distinct_lows = _distinct_lows(after_mask, left, tables.low)
            low_after[:, rank] = lows
            beaten = distinct_lows.shape[0] - np.searchsorted(distinct_lows, lows, side="right")
            low_beaten_after[:, rank] = np.where(lows != NO_LOW, beaten, -1)
    if draws and len(board) < 5:
        dealt = np.flatnonzero(rank_left > 0)
        values, straight = _pair_values_many(np.array([ranks + [rank] for rank in dealt]), colex, pair_triple)
        next_values[:, dealt], next_straight[:, dealt] = values, straight
    runouts = list(itertools.combinations_with_replacement(range(RANK_COUNT), 2)) \
        if len(board) == 3 and draws else []
    runout_straight = np.zeros((PAIR_MULTISETS, len(runouts)), dtype=np.uint8)
    if runouts:
        runout_straight[:] = _pair_values_many(np.array([ranks + [first, second] for first, second in runouts]),
                                               colex, pair_triple)[1]
    return BoardTables(
        board=np.array(board, dtype=np.int8), rank_counts=rank_counts, suit_masks=suit_masks, ranks_info=ranks_info,
        current=current.astype(np.int32), next_values=next_values, next_straight=next_straight,
        runout_ranks=np.array(runouts, dtype=np.int32).reshape(len(runouts), 2), runout_straight=runout_straight,
        high_values=_high_values(board, current, suit_masks, colex, tables.pair_flush),
        low_values=_distinct_lows(board_low_mask, rank_left, tables.low),
        low_after=low_after, low_beaten_after=low_beaten_after,
    )
