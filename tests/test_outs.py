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


PAIRS_PER_GAME = 30
_DESCENDING = range(51, -1, -1)


def _nut_status(value, board, low=False):
    """``"nuts"``, ``"second nuts"`` or ``""``: how many distinct values that two cards off the
    board make (high, or with ``low`` qualifying low) beat ``value``, listing every two cards.

    Two cards' value depends only on their ranks and, when both are of a suit with three board
    cards, that suit (the low on their ranks alone), so each such key is scored once; the cards
    go best first, and the listing stops at the second better value."""
    triples = [list(triple) for triple in combinations(board, 3)]
    flush_suits = {suit for suit in range(4) if sum(card % 4 == suit for card in board) >= 3}
    scored, better = set(), set()
    for first, second in combinations([card for card in _DESCENDING if card not in board], 2):
        suited = first % 4 == second % 4 and first % 4 in flush_suits and not low
        key = (first // 4, second // 4, first % 4 if suited else None)
        if key in scored:
            continue
        scored.add(key)
        if low:
            made = [low_value for low_value in (naive.remembered_low_value([first, second] + triple)
                                                for triple in triples) if low_value is not None]
            best = max(made) if made else None
        else:
            best = max(naive.remembered_high_value([first, second] + triple) for triple in triples)
        if best is not None and best > value:
            better.add(best)
            if len(better) == 2:
                return ""
    return ("nuts", "second nuts")[len(better)]


@pytest.mark.parametrize("game_name", GAMES)
def test_outs_of_random_hands_match_a_listing_of_every_card(game_name):
    """Thirty random hands and flops or turns per game: every next card's hand type, nut status
    (board only out, as the categories) and low, and the totals, against plain Python."""
    game = get_game(game_name)
    generator = random.Random(f"outs {game_name}")
    for pair in range(PAIRS_PER_GAME):
        deck = list(range(52))
        generator.shuffle(deck)
        board_count = 3 + pair % 2
        hand, board = deck[:game.hole_count], deck[game.hole_count:game.hole_count + board_count]
        hand_text = "".join(naive.card_text(card) for card in hand)
        board_text = "".join(naive.card_text(card) for card in board)
        outs = hand_outs(hand_text, board_text, game)
        now = naive.best_high(hand, board)[0]
        expected = {}
        for card in (card for card in range(52) if card not in {*hand, *board}):
            after = board + [card]
            high = naive.best_high(hand, after)
            low = naive.best_low(hand, after) if game.hilo else None
            expected[naive.card_text(card)] = (HAND_TYPES[high[0]], _nut_status(high, after), low is not None,
                                               _nut_status(low, after, low=True) if low is not None else "",
                                               high[0] > now)
        found = {out.card: (out.hand_type, out.high_status, out.low is not None, out.low_status, out.improves)
                 for out in outs.cards}
        assert found == expected, (hand_text, board_text)
        assert outs.type_counts == {name: sum(row[0] == name for row in expected.values()) for name in HAND_TYPES}
        assert (outs.nut_count, outs.second_nut_count, outs.low_nut_count, outs.improving_count) == (
            sum(row[1] == "nuts" for row in expected.values()), sum(row[1] == "second nuts" for row in expected.values()),
            sum(row[3] == "nuts" for row in expected.values()), sum(row[4] for row in expected.values()))
        if pair == 0:  # the made-hand category after a card is the categories' own
            for out in outs.cards[:3]:
                assert out.category == categorize(hand_text, board_text + out.card, game).made


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
