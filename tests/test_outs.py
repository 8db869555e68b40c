"""``omaha-equity outs`` and the outs functions against a listing of every card (tests/naive.py)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from click.testing import CliRunner

import naive
from omaha_equity.cards import format_cards
from omaha_equity.categories import categorize
from omaha_equity.errors import InputError
from omaha_equity.cli import main
from omaha_equity.games import get_game
from omaha_equity.ranges import parse_range
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


def _nut_high(board):
    """The best high value two cards off the board make with it, listing every two cards (each
    rank-and-suit key once, as :func:`_nut_status`)."""
    triples = [list(triple) for triple in combinations(board, 3)]
    flush_suits = {suit for suit in range(4) if sum(card % 4 == suit for card in board) >= 3}
    scored = {}
    for first, second in combinations([card for card in range(52) if card not in board], 2):
        suited = first % 4 == second % 4 and first % 4 in flush_suits
        key = (first // 4, second // 4, first % 4 if suited else None)
        if key not in scored:
            scored[key] = max(naive.remembered_high_value([first, second] + triple) for triple in triples)
    return max(scored.values())


@pytest.mark.parametrize("game_name, board_text", [("omaha", "Ts9s2c"), ("omaha5", "Ts9s2c5d")])
def test_outs_terms_keep_the_hands_a_listing_of_every_card_keeps(game_name, board_text):
    """{nut-outsN+}, {nut-outsN} and {outs-flushN+} in a range, against plain Python: for each hand
    the next cards (off the board and the hand) after which it holds the nut high (board only out)
    or a flush or better."""
    game = get_game(game_name)
    board = naive.cards(board_text)
    generator = random.Random(f"outs terms {game_name}")
    deck = [card for card in range(52) if card not in board]
    hands = {tuple(sorted(generator.sample(deck, game.hole_count), reverse=True)) for _ in range(40)}
    hands.add(tuple(sorted(naive.cards("AsKsQdJh" + "8s7d"[:2 * (game.hole_count - 4)]), reverse=True)))
    nuts = {card: _nut_high(board + [card]) for card in deck}
    nut_outs, flush_outs = {}, {}
    for hand in hands:
        values = {card: naive.best_high(list(hand), board + [card]) for card in deck if card not in hand}
        nut_outs[hand] = sum(value == nuts[card] for card, value in values.items())
        flush_outs[hand] = sum(value[0] >= naive.FLUSH for value in values.values())
    listed = ", ".join("".join(naive.card_text(card) for card in hand) for hand in hands)
    board_cards = tuple(board)
    drawing = sorted(count for count in nut_outs.values() if count)
    middle = drawing[len(drawing) // 2]
    for term, expected in ((f"nut-outs{middle}+", {hand for hand in hands if nut_outs[hand] >= middle}),
                           (f"nut-outs{middle}", {hand for hand in hands if nut_outs[hand] == middle}),
                           ("outs-flush9+", {hand for hand in hands if flush_outs[hand] >= 9})):
        kept = parse_range(f"({listed}):{{{term}}}", game, board=board_cards)
        assert {tuple(hand) for hand in kept.hands.tolist()} == expected, term
    assert 0 < len({hand for hand in hands if nut_outs[hand] >= middle}) < len(hands)


def test_outs_terms_need_a_flop_or_turn_and_agree_with_the_outs_command():
    with pytest.raises(InputError, match="need a flop or a turn"):
        parse_range("AsKsQdJh:{nut-outs8+}", board=tuple(naive.cards("Ts9s2c5d7h")))
    with pytest.raises(InputError, match=r"unknown category 'nut-out8\+'.*closest: nut-outsN"):
        parse_range("{nut-out8+}", board=tuple(naive.cards("Ts9s2c")))
    # the hands with 13 nut outs or more: the outs command counts as many for each, and fewer for the others
    every = parse_range("AsKs**", board=tuple(naive.cards("Ts9s2c")))
    kept = {format_cards(hand) for hand in parse_range("AsKs**:{nut-outs13+}", board=tuple(naive.cards("Ts9s2c"))).hands}
    assert "AsKsQdJh" in kept
    for hand in every.hands[::40]:
        text = format_cards(hand)
        assert (hand_outs(text, "Ts9s2c").nut_count >= 13) == (text in kept)
