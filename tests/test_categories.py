"""The categorizer against its brute-force definition (tests/categories_reference.py), in every
game, and the pinned reference values of issue 16."""

import random

import numpy as np
import pytest

import categories_reference as reference
from omaha_equity.categories import categorize, categorize_hands
from omaha_equity.categories import names
from omaha_equity.cards import parse_cards
from omaha_equity.errors import InputError
from omaha_equity.games import GAMES
from omaha_equity.ranges import parse_range


def kernel_fields(hands, board, hilo):
    rows = categorize_hands(np.array(hands, dtype=np.int8), tuple(board), hilo)
    result = []
    for row in rows.tolist():
        fields = {name: row[index] for index, name in enumerate(names.FIELDS)}
        fields["made"] = names.MADE_HANDS[fields["made"]]
        if hilo:
            fields["low"] = names.LOW_CLASSES[fields["low"]]
        else:
            for key in ("low", "low_outs", "low_beaten", "counterfeit"):
                del fields[key]
        result.append(fields)
    return result


def random_spots(generator, hole_count, board_size, board_count, hands_per_board):
    for _ in range(board_count):
        deck = list(range(52))
        generator.shuffle(deck)
        board = deck[:board_size]
        rest = deck[board_size:]
        yield board, [generator.sample(rest, hole_count) for _ in range(hands_per_board)]


# (board cards, boards, hands per board) per game: backdoor draws (two-card runouts) are slow to
# enumerate, so the flops carry fewer hands. About 1,200 hands in all, 160 per 4-card game.
SPOTS = ((3, 1, 10), (4, 2, 25), (5, 2, 50))


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_category_matches_its_brute_force_definition(game_name):
    game = GAMES[game_name]
    generator = random.Random(f"categories {game_name}")
    checked = 0
    for board_size, board_count, hand_count in SPOTS:
        hand_count = hand_count * 4 // game.hole_count
        for board, hands in random_spots(generator, game.hole_count, board_size, board_count, hand_count):
            fast = kernel_fields(hands, board, game.hilo)
            for hand, row in zip(hands, fast):
                expected = reference.reference(hand, board, game.hilo)
                assert row == expected, (hand, board)
                checked += 1
    assert checked >= 100


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_made_hands_nut_status_and_lows_on_rivers_match_the_brute_force(game_name):
    # Rivers have no draws, so many more hands are cheap to check: 450 per game (3,600 in all,
    # on top of the 1,200 flops, turns and rivers above).
    game = GAMES[game_name]
    generator = random.Random(f"rivers {game_name}")
    for board, hands in random_spots(generator, game.hole_count, 5, 3, 150):
        for hand, row in zip(hands, kernel_fields(hands, board, game.hilo)):
            assert row == reference.reference(hand, board, game.hilo), (hand, board)


STRUCTURED = [  # hands chosen to hit the rarer categories: wraps, nut draws, sets, boats, lows
    ("omaha", "Tc9d8h7s", "6c5d2h"), ("omaha", "9s8s7d6d", "Ts5h2c"), ("omaha", "AhQh5s4d", "Kh7h2c"),
    ("omaha", "KhJh5s4d", "Qh7h2c"), ("omaha", "QsQc9h8h", "Qh7d2c"), ("omaha", "AsKd7h7c", "Kh7d2s"),
    ("omaha", "AsKdQc9h", "Kh7d2s"), ("omaha", "7c7d5s5h", "7h5c2d"), ("omaha", "AhKh7c7d", "7h5c5dKs"),
    ("omaha", "JhTh9c8c", "QhKh2c3d"), ("omaha8", "As2sKdQd", "3c4h9s"), ("omaha8", "As2s3dKd", "4c5h9sTd"),
    ("omaha8", "Ad2d3cKc", "4s5s8h"), ("omaha8", "Ad3d5c7c", "2s4s9h"), ("omaha5-8", "As2s3dKdQh", "4c5h9s"),
    ("omaha6", "AsKsQsJhTh9h", "8s7s2h"), ("omaha", "Ts9s6c5c", "8h7d2s"), ("omaha", "AcAd2h3h", "KhQh4h"),
]


@pytest.mark.parametrize("game_name, hand, board", STRUCTURED)
def test_chosen_hands_match_the_brute_force(game_name, hand, board):
    game = GAMES[game_name]
    hole, board_cards = parse_cards(hand), parse_cards(board)
    assert kernel_fields([hole], board_cards, game.hilo)[0] == reference.reference(hole, board_cards, game.hilo)


def test_categorize_names_a_hand():
    set_hand = categorize("QsQc9h8h", "Qh7d2c")
    assert (set_hand.made, set_hand.beaten_by, set_hand.boat_outs) == ("set", 0, 7)
    assert set_hand.backdoor_flush and "nuts" in set_hand.names
    wrap = categorize("Tc9d8h7s", "6c5d2h")
    assert (wrap.straight_draw, wrap.straight_outs, wrap.clean_straight_outs) == ("wrap", 13, 13)
    assert "wrap13" in wrap.names and "nothing" in wrap.names
    draw = categorize("AhQh5s4d", "Kh7h2c")
    assert (draw.flush_draw, draw.flush_outs) == ("nfd", 9)
    low = categorize("As2sKdQd", "3c4h9s", "omaha8")
    assert (low.low, low.low_outs) == ("nut-low-draw", 16)
    assert categorize("KhJh5s4d", "Qh7h2c").flush_draw == "second-nfd"


@pytest.mark.parametrize("hand, board, message", [
    ("AsKsQsJs", "Qh7d", "need a board of 3 to 5 cards"),
    ("AsKsQsJs", "", "need a board of 3 to 5 cards"),
    ("AsKsQs", "Qh7d2c", "expected 4 hole cards for omaha, got 3"),
    ("AsKsQsJs", "As7d2c", "duplicate card As"),
])
def test_bad_input_is_one_clear_error(hand, board, message):
    with pytest.raises(InputError, match=message):
        categorize(hand, board)


def brute_force_count(board_text, predicate):
    """How many of the 4-card hands of the deck less the board the reference puts in a category."""
    board = parse_cards(board_text)
    hands = parse_range("*", excluded=board).hands
    return sum(1 for hand in hands.tolist() if predicate(hand, board))


def test_sets_on_qh7d2c_pinned():
    # A set: a pocket pair of a board rank (3 ranks x 3 pairs), the other two cards anything:
    # 9 x C(47, 2) = 9,729 counted with repeats, less 27 hands holding two such pairs (counted
    # twice) and 2 x 138 holding three cards of a board rank (counted three times): 9,426. On an
    # unpaired flop nothing beats a set of these (quads need two board cards of the rank, a
    # full house a board pair; no straight or flush on Qh7d2c), and trips of three hole cards
    # are still three of a kind (exactly two hole cards play).
    board = parse_cards("Qh7d2c")
    hands = parse_range("*", excluded=board).hands
    fields = categorize_hands(hands, board, False)
    fast = int((fields[:, names.MADE] == names.SET).sum())
    # the brute force over the hands holding a pocket pair of a board rank (the only candidates)
    candidates = [hand for hand in hands.tolist()
                  if any(sum(1 for card in hand if card // 4 == rank) >= 2 for rank in (10, 5, 0))]
    slow = sum(1 for hand in candidates if reference.made_hand(hand, board, reference.best_high(hand, board)) == "set")
    assert fast == slow == 9_426


def test_nut_flush_draws_on_kh7h2c_pinned():
    # The ace of hearts and at least one more heart (10 left besides it): C(48, 3) - C(38, 3) =
    # 17,296 - 8,436 = 8,860; no hand makes a flush on this flop, and without the ace some
    # heart out leaves the ace above the hand's top heart.
    board = parse_cards("Kh7h2c")
    hands = parse_range("*", excluded=board).hands
    fields = categorize_hands(hands, board, False)
    fast = int((fields[:, names.FLUSH_CLASS] == 0).sum())
    assert fast == 8_860
    # the brute force on every 20th hand of the deck holding the ace of hearts (865 hands)
    with_ace = [(index, hand) for index, hand in enumerate(hands.tolist()) if 50 in hand][::20]
    for index, hand in with_ace:
        assert (fields[index, names.FLUSH_CLASS] == 0) == (reference.flush_draw_class(hand, board) == 0), hand
