"""``omaha-equity outs`` and the outs functions against a listing of every card (tests/naive.py)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from click.testing import CliRunner

import naive
from omaha_equity.categories import categorize
from omaha_equity.cli import main
from omaha_equity.games import get_game
from omaha_equity.studies.outs import HAND_TYPES, hand_outs

GAMES = ["omaha", "omaha8", "omaha5", "omaha6", "courchevel8"]


def _nut_rank(value, board, removed):
    """How many distinct values of two cards (not on the board nor removed) beat ``value``."""
    deck = [card for card in range(52) if card not in set(board) | set(removed)]
    values = {max(naive.high_value_5(list(pair) + list(triple)) for triple in combinations(board, 3))
              for pair in combinations(deck, 2)}
    return sum(other > value for other in values)


@pytest.mark.parametrize("game_name", GAMES)
def test_each_card_matches_a_listing_of_every_card(game_name):
    game = get_game(game_name)
    generator = random.Random(game_name)
    deck = list(range(52))
    generator.shuffle(deck)
    hand, board = deck[:game.hole_count], deck[game.hole_count:game.hole_count + 4]
    hand_text = "".join(naive.card_text(card) for card in hand)
    board_text = "".join(naive.card_text(card) for card in board)
    outs = hand_outs(hand_text, board_text, game)
    unseen = [card for card in range(52) if card not in set(hand) | set(board)]
    assert sorted(out.card for out in outs.cards) == sorted(naive.card_text(card) for card in unseen)
    counts = dict.fromkeys(HAND_TYPES, 0)
    for card in unseen:
        counts[HAND_TYPES[naive.best_high(hand, board + [card])[0]]] += 1
    assert outs.type_counts == counts
    by_card = {out.card: out for out in outs.cards}
    for card in unseen[:3]:  # nut status (board only out, as the categories) and the category, by listing
        out = by_card[naive.card_text(card)]
        value = naive.best_high(hand, board + [card])
        rank = _nut_rank(value, board + [card], [])
        assert out.high_status == ("nuts", "second nuts")[rank] if rank < 2 else out.high_status == ""
        assert out.category == categorize(hand_text, board_text + naive.card_text(card), game).made
        if game.hilo:
            low = naive.best_low(hand, board + [card])
            assert (out.low is None) == (low is None)


def test_blockers_take_the_hand_out_of_the_nut_test_and_equity_after_each_card():
    plain = hand_outs("AsKsQdJh", "Ts9s2c")
    blocked = hand_outs("AsKsQdJh", "Ts9s2c", blockers=True)
    assert (plain.nut_count, plain.type_counts["flush"], plain.improving_count) == (13, 9, 30)
    # the As and Ks in the hand: with them out the hand's ace-high flushes are the nuts more often
    assert blocked.nut_count >= plain.nut_count
    versus = hand_outs("AsKsQdJh", "Ts9s2c5d", vs="JdJc8h7h")
    assert len(versus.cards) == 52 - 4 - 4 - 4
    assert all(out.equity in (0.0, 0.5, 1.0) for out in versus.cards)


def test_command_line():
    runner = CliRunner()
    table = runner.invoke(main, ["outs", "AsKsQdJh", "-b", "Ts9s2c"])
    assert table.exit_code == 0 and "nut outs: 13" in table.output
    refused = runner.invoke(main, ["outs", "AsKsQdJh", "-b", "Ts9s2c5d7h"])
    assert refused.exit_code == 2 and "outs need a flop or a turn" in refused.output
