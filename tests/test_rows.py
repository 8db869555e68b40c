"""The per-player rows (evaluate/rows.py) give every hand the value the evaluator gives it.

A hand's value on a board read from its rows (the best of its high row at the board's dealt-rank
multiset and its flush row at the board's suit mask; its low row at the board's low mask) must
equal ``evaluate_deals``, which tests/test_evaluator.py checks against the slow reference.
Deals are seeded; skewed decks (two suits, low ranks) make flushes, several suited pairs per
suit and lows common.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from omaha_equity.evaluate._kernels import evaluate_deals
from omaha_equity.evaluate.rows import build_player_rows
from omaha_equity.evaluate.tables import dealt_board_indexes, load_tables, multiset_index

LOW_BITS = {12: 1, **{rank: 1 << (rank + 1) for rank in range(7)}}


def deals(hole_count: int, player_count: int, known_count: int, count: int, seed: int):
    """``count`` deals of ``player_count`` hands and five board cards, the first ``known_count``
    of them known; every third deal from a two-suited deck, every third from the low ranks."""
    generator = random.Random(seed)
    for number in range(count):
        deck = list(range(52))
        if number % 3 == 1:
            deck = [card for card in deck if card & 3 in (0, 3)]
        elif number % 3 == 2:
            deck = [card for card in deck if card >> 2 in LOW_BITS or card >> 2 == 7]
        cards = generator.sample(deck, player_count * hole_count + 5)
        hands = [cards[player * hole_count:(player + 1) * hole_count] for player in range(player_count)]
        board = cards[-5:]
        yield hands, board[:known_count], board[known_count:]


@pytest.mark.parametrize("hole_count", [4, 5, 6])
@pytest.mark.parametrize("known_count", [0, 1, 3, 4, 5])
def test_rows_give_the_evaluator_s_values(hole_count, known_count):
    tables = load_tables()
    player_count = 3
    checked_flushes = checked_lows = 0
    for hands, known, dealt in deals(hole_count, player_count, known_count, 60, seed=hole_count * 10 + known_count):
        fixed_ranks = tuple(sorted(card >> 2 for card in known))
        board_indexes = dealt_board_indexes(fixed_ranks, 5 - known_count, tables.colex)
        hole_cards = np.array(hands, dtype=np.int8)
        high_rows, flush_rows, low_rows = build_player_rows(hole_cards, board_indexes, tables.colex,
                                                            tables.pair_board, tables.pair_flush, tables.low)
        assert high_rows.shape == (player_count, len(board_indexes)) and high_rows.dtype == np.int32
        assert flush_rows.shape == (player_count, 4, 8192) and flush_rows.dtype == np.int32
        assert low_rows.shape == (player_count, 256) and low_rows.dtype == np.int16
        assert all(row.flags.c_contiguous and row.flags.writeable for row in (high_rows, flush_rows, low_rows))
        board = known + dealt
        expected_high, expected_low = evaluate_deals(
            hole_cards, np.array([board] * player_count, dtype=np.int8), tables.colex, tables.pair_board,
            tables.flush, tables.low)
        dealt_index = multiset_index(sorted(card >> 2 for card in dealt))
        suit_masks = [sum(1 << (card >> 2) for card in board if card & 3 == suit) for suit in range(4)]
        low_mask = 0
        for card in board:
            low_mask |= LOW_BITS.get(card >> 2, 0)
        for player in range(player_count):
            flush_value = max(int(flush_rows[player, suit, suit_masks[suit]]) for suit in range(4))
            checked_flushes += flush_value > 0
            assert max(int(high_rows[player, dealt_index]), flush_value) == expected_high[player]
            assert low_rows[player, low_mask] == expected_low[player]
            checked_lows += int(expected_low[player]) > 0
    assert checked_flushes >= 5 and checked_lows >= 5  # the skewed decks did their job


def test_a_flush_row_is_the_best_of_the_hand_s_suited_pairs():
    # As Ks Qs 2s: six spade pairs; on a board of 4s 6s 8s the best flush is ace-king high (no
    # straight flush: A-2 with 4-6-8 is a flush too, a lower one)
    tables = load_tables()
    hole_cards = np.array([[51, 47, 43, 3], [50, 46, 42, 2]], dtype=np.int8)  # spades, then hearts
    _, flush_rows, _ = build_player_rows(hole_cards, dealt_board_indexes((), 5, tables.colex), tables.colex,
                                         tables.pair_board, tables.pair_flush, tables.low)
    three_low = (1 << 2) | (1 << 4) | (1 << 6)  # 4, 6, 8 of the suit
    assert flush_rows[0, 3, three_low] == tables.flush[three_low | (1 << 12) | (1 << 11)]
    assert flush_rows[1, 2, three_low] == flush_rows[0, 3, three_low]
    assert not flush_rows[0, :3].any() and not flush_rows[1, [0, 1, 3]].any()


@pytest.mark.parametrize("hole_count", [4, 6])
@pytest.mark.parametrize("known_count", [0, 1, 3])
def test_the_compiled_rows_equal_the_numpy_rows(hole_count, known_count):
    # The range kernels build rows inside a kernel (evaluate._kernels.build_player_rows); the
    # fixed-hand queries build them with numpy (rows.build_player_rows): the same arrays.
    from omaha_equity.evaluate._kernels import build_player_rows as compiled_rows

    tables = load_tables()
    for hands, known, _ in deals(hole_count, 3, known_count, 12, seed=hole_count + 100 * known_count):
        board_indexes = dealt_board_indexes(tuple(sorted(card >> 2 for card in known)), 5 - known_count, tables.colex)
        hole_cards = np.array(hands, dtype=np.int8)
        arguments = (hole_cards, board_indexes, tables.colex, tables.pair_board, tables.pair_flush, tables.low)
        for numpy_row, compiled_row in zip(build_player_rows(*arguments), compiled_rows(*arguments)):
            assert numpy_row.dtype == compiled_row.dtype
            assert np.array_equal(numpy_row, compiled_row)


def test_the_low_bit_table_is_the_kernels_low_rank_bit():
    from omaha_equity.evaluate._kernels import low_rank_bit
    from omaha_equity.evaluate.tables import LOW_RANK_BITS

    assert LOW_RANK_BITS == tuple(low_rank_bit.py_func(rank) for rank in range(13))
    assert LOW_RANK_BITS[12] == 1 and LOW_RANK_BITS[0] == 2 and LOW_RANK_BITS[6] == 128 and LOW_RANK_BITS[7] == 0
