"""A seated query re-seated on a longer board (``SeatedQuery.on_board``: the next card, the next
street) holds exactly what seating from the text on that board gives: the same seats, hands in
the same order, the same weights, the same errors."""

import numpy as np
import pytest

from omaha_equity.cards import parse_cards
from omaha_equity.equity.query import seat_query
from omaha_equity.errors import InputError

CASES = [
    (["AsAhKsKh", "JdTd9c8c"], "", "Qd7h2s"),
    (["AsAh", "*", "15%"], "Qd", "Qd7h2s5c"),
    (["AA:$ds, KK@0.5", "KsQs", "25%!AA"], "", "Qd7h2s"),
    (["KsQsJsTs", "*!As"], "", "As7h2d"),          # a range that becomes every hand: dealt at random
    (["AsKsQsJs", "100%"], "Qd7h2s", "Qd7h2s5c"),  # every hand stays every hand
]


@pytest.mark.parametrize(("hands", "first", "board"), CASES)
def test_on_board_seats_as_parsing_again_would(hands, first, board):
    narrowed = seat_query(hands, first, "3c", "omaha", None).on_board(parse_cards(board))
    parsed = seat_query(hands, board, "3c", "omaha", None)
    assert (narrowed.board, narrowed.dead, narrowed.deal) == (parsed.board, parsed.dead, parsed.deal)
    for mine, theirs in zip(narrowed.seats, parsed.seats, strict=True):
        assert (mine.expression, mine.kind, mine.known_cards, mine.source) == (
            theirs.expression, theirs.kind, theirs.known_cards, theirs.source)
        if theirs.hands is not None:
            assert np.array_equal(mine.hands, theirs.hands) and np.array_equal(mine.weights, theirs.weights)


@pytest.mark.parametrize(("hands", "board"), [
    (["AsAhKsKh", "JdTd9c8c"], "Qd7h2sKs"),  # a card written in a hand
    (["AsAhKsKh", "AdAc"], "Qd7h2sAd"),       # a partial hand's card
    (["KsQsJsTs", "Ad"], "Qd7h2sAd"),
])
def test_on_board_refuses_what_parsing_again_refuses(hands, board):
    with pytest.raises(InputError) as parsed:
        seat_query(hands, board, "", "omaha", None)
    with pytest.raises(InputError) as narrowed:
        seat_query(hands, "Qd7h2s", "", "omaha", None).on_board(parse_cards(board))
    assert str(narrowed.value) == str(parsed.value)


def test_a_range_with_no_hand_left_names_every_known_card():
    range_hands = ["KsQsJsTs", "AsAhAd[2-9]"]
    with pytest.raises(InputError) as parsed:
        seat_query(range_hands, "Qd7h2sAd", "", "omaha", None)
    with pytest.raises(InputError) as narrowed:
        seat_query(range_hands, "Qd7h2s", "", "omaha", None).on_board(parse_cards("Qd7h2sAd"))
    assert str(narrowed.value) == str(parsed.value)
