"""Small queries (issue 18 §3): the rows built for a known board of 3 or more cards are
filled only where a completion of that board can read them, and give the same results as the
whole rows on random river, turn and flop deals of 2-6 players, hi and hi/lo."""

from __future__ import annotations

import random

import numpy as np
import pytest

from omaha_equity import calculate_equity
from omaha_equity.equity import plan
from omaha_equity.equity.fixed import _kernels
from omaha_equity.equity.fixed.hands import prepare
from omaha_equity.deal import make_deal
from omaha_equity.evaluate.rows import build_player_rows, reachable_flush_masks
from omaha_equity.evaluate.tables import dealt_board_indexes, load_tables


def random_deal(generator: random.Random, player_count: int, known_count: int):
    cards = generator.sample(range(52), player_count * 4 + known_count)
    hands = [cards[player * 4:(player + 1) * 4] for player in range(player_count)]
    return hands, cards[player_count * 4:]


def test_reachable_flush_masks():
    spades = (1 << 12) | (1 << 11)  # two known cards of the suit
    assert reachable_flush_masks(spades, 0).tolist() == []
    assert reachable_flush_masks(spades, 1).tolist() == sorted(spades | 1 << rank for rank in range(11))
    assert len(reachable_flush_masks(1, 2)) == 66  # one known rank: three only with both dealt
    assert reachable_flush_masks(0b111, 0).tolist() == [0b111]
    assert reachable_flush_masks(0, 3) is None


@pytest.mark.parametrize("known_count", [3, 4, 5])
def test_known_board_rows_equal_whole_rows_where_a_completion_reads_them(known_count):
    tables = load_tables()
    generator = random.Random(known_count)
    for _ in range(40):
        hands, board = random_deal(generator, generator.randint(2, 6), known_count)
        indexes = dealt_board_indexes(tuple(sorted(card >> 2 for card in board)), 5 - known_count, tables.colex)
        arguments = (np.array(hands, dtype=np.int8), indexes, tables.colex, tables.pair_board, tables.pair_flush,
                     tables.low)
        whole = build_player_rows(*arguments)
        known = build_player_rows(*arguments, tuple(board))
        assert np.array_equal(whole[0], known[0]) and np.array_equal(whole[2], known[2])
        for suit in range(4):
            known_mask = sum(1 << (card >> 2) for card in board if card & 3 == suit)
            masks = reachable_flush_masks(known_mask, 5 - known_count)
            assert np.array_equal(whole[1][:, suit, masks], known[1][:, suit, masks])
            # every other mask a completion can give the suit has fewer than three ranks: 0
            others = np.ones(8192, dtype=bool)
            others[masks] = False
            assert not known[1][:, suit, others].any()
            assert not whole[1][:, suit, [m for m in range(8192) if others[m] and m.bit_count() >= 3
                                          and m & known_mask == known_mask
                                          and (m & ~known_mask).bit_count() <= 5 - known_count]].any()


@pytest.mark.parametrize("game", ["omaha", "omaha8"])
@pytest.mark.parametrize("known_count", [3, 4, 5])
def test_small_query_results_equal_the_whole_rows_results(game, known_count):
    tables = load_tables()
    generator = random.Random(known_count * 7 + len(game))
    for _ in range(8):
        player_count = generator.randint(2, 6)
        hands, board = random_deal(generator, player_count, known_count)
        deal = make_deal(hands, board, game=game)
        prepared = prepare(deal)
        indexes = dealt_board_indexes(tuple(sorted(card >> 2 for card in board)), 5 - known_count, tables.colex)
        whole = build_player_rows(np.array(hands, dtype=np.int8), indexes, tables.colex, tables.pair_board,
                                  tables.pair_flush, tables.low)
        results = []
        for high_rows, flush_rows, low_rows in ((prepared.high_rows, prepared.flush_rows, prepared.low_rows), whole):
            outcomes, has_low = _kernels.enumerate_boards(
                prepared.deck, prepared.dealt_count, prepared.fixed_suit_masks, prepared.fixed_low_mask, high_rows,
                flush_rows, low_rows, prepared.colex, plan.BINOMIALS, prepared.hilo, 0, 1, 1)
            results.append((outcomes.tolist(), has_low.tolist()))
        assert results[0] == results[1]
        assert sum(results[0][0][0]) > 0


def test_a_river_flush_is_seen():
    # three spades on the board: As Ks in hand make the nut flush and win the whole pot
    result = calculate_equity(["AsKs2h3h", "QdQc9h9c"], board="Js8s4s9d2c")
    assert result.players[0].equity == 1 and result.players[1].equity == 0
