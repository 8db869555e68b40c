"""docs/rules.md, rule by rule: "Cards and hands", "The low hand", "Worked examples" and the
"Game variants" tables. Each test is named after the rule it pins down and checks real values
through ``read_hand`` / ``read_showdown`` (the readable evaluator); hands on complete boards
are also checked against the compiled kernel (``evaluate_deals``), so both evaluation paths
follow every rule.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from omaha_equity.cards import RANKS, SUITS, format_card, parse_card, parse_cards
from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.errors import InputError
from omaha_equity.evaluate._kernels import evaluate_deals
from omaha_equity.evaluate.showdown import high_value, low_hand_value, read_hand, read_showdown
from omaha_equity.evaluate.tables import CATEGORY_SHIFT, FLUSH, NO_LOW, STRAIGHT_FLUSH, load_tables
from omaha_equity.games import BINGLAO_DIE, GAME_ALIASES, GAMES, get_game
from omaha_equity.pots import showdown_shares

HALF, QUARTER, THIRD = Fraction(1, 2), Fraction(1, 4), Fraction(1, 3)


def cards(text: str) -> set[int]:
    return set(parse_cards(text))


def kernel(hole, board):
    """(high, low) of one deal from the compiled kernel."""
    tables = load_tables()
    high, low = evaluate_deals(np.array([hole], dtype=np.int8), np.array([board], dtype=np.int8),
                               tables.colex, tables.pair_board, tables.flush, tables.low)
    return int(high[0]), int(low[0])


def read(hole: str, board: str, hilo: bool = True):
    """read_hand on card text; on a complete board also checks the kernel gives the same values."""
    hole_cards, board_cards = parse_cards(hole), parse_cards(board)
    reading = read_hand(hole_cards, board_cards, hilo)
    assert len(reading.high.hole_cards) == 2 and len(reading.high.board_cards) == 3
    assert set(reading.high.hole_cards) <= set(hole_cards) and set(reading.high.board_cards) <= set(board_cards)
    if len(board_cards) == 5:
        kernel_high, kernel_low = kernel(hole_cards, board_cards)
        assert reading.high.value == kernel_high
        if hilo:
            assert (reading.low.value if reading.low else NO_LOW) == kernel_low
    return reading


def five(text: str) -> int:
    return high_value(parse_cards(text))


def low5(text: str) -> int:
    return low_hand_value(parse_cards(text))


# ---------------------------------------------------------------------------------------------
# Cards and hands
# ---------------------------------------------------------------------------------------------


def test_one_standard_52_card_deck_no_jokers():
    deck = [parse_card(rank + suit) for rank in RANKS for suit in SUITS]
    assert sorted(deck) == list(range(52))
    assert [format_card(card) for card in deck] == [rank + suit for rank in RANKS for suit in SUITS]
    assert RANKS == "23456789TJQKA" and SUITS == "cdhs"
    for joker in ("Jk", "Xx", "Joker", "1s", "Ae"):
        with pytest.raises(InputError, match="unknown card"):
            parse_card(joker)


def test_five_community_cards_make_the_board():
    hands = ["AsAhKsKh", "JdTd9c8c"]
    with pytest.raises(InputError, match="complete board of 5"):
        read_showdown(hands, "Qd7h2s3c")
    with pytest.raises(InputError, match="at most 5 board cards"):
        read_showdown(hands, "Qd7h2s3c4c5c")
    # the calculator deals the rest of the board: five cards in all
    result = calculate_equity(hands, "Qd7h2s3c")
    assert result.sample_count == 52 - 8 - 4  # one river card
    assert calculate_equity(hands, "Qd7h2s").sample_count == comb(52 - 8 - 3, 2)


def test_omaha_rule_exactly_two_hole_cards_and_three_board_cards():
    # four hearts in the hand, three on the board: the royal flush would need three hole cards
    reading = read("AhKhQhJh", "Th9h8h3d4s")
    assert reading.high.category == "straight flush"
    assert reading.high.description == "straight flush, queen high"
    assert set(reading.high.cards) == cards("Qh Jh Th 9h 8h")
    assert set(reading.high.hole_cards) == cards("Qh Jh")
    # a royal flush on the board plays for nobody: Q-high straight beats A-K-Q-3-2 / ace high
    showdown = read_showdown(["2c3d4h5h", "9s8d7c6h"], "AsKsQsJsTs")
    assert showdown.readings[1].high.description == "straight, queen high"
    assert showdown.readings[0].high.category == "high card"
    assert showdown.shares == (0, 1)


def test_standard_high_ranking_order():
    ladder = [
        ("high card", "7s 5d 4h 3c 2s"),
        ("pair", "2s 2d 3h 4c 5s"),
        ("two pair", "3s 3d 2h 2c 4s"),
        ("three of a kind", "2s 2d 2h 3c 4s"),
        ("straight", "As 2d 3h 4c 5s"),
        ("flush", "2h 3h 4h 5h 7h"),
        ("full house", "2s 2d 2h 3c 3s"),
        ("four of a kind", "2s 2d 2h 2c 3s"),
        ("straight flush", "Ah 2h 3h 4h 5h"),
    ]
    values = [five(text) for _, text in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    # the weakest hand of each category beats the strongest of the category below
    strongest = ["Ah Kd Qh Jc 9s", "As Ad Kh Qc Js", "As Ad Kh Kc Qs", "As Ad Ah Kc Qs", "As Kd Qh Jc Ts",
                 "Ah Kh Qh Jh 9h", "As Ad Ah Kc Ks", "As Ad Ah Ac Ks"]
    for (_, weakest_above), best_below in zip(ladder[1:], strongest):
        assert five(weakest_above) > five(best_below)
    assert five("As Ks Qs Js Ts") > five("Ks Qs Js Ts 9s") > max(values)


def test_ace_to_five_is_the_lowest_straight():
    wheel = five("As 2d 3h 4c 5s")
    assert wheel >> CATEGORY_SHIFT == 4  # straight
    assert wheel < five("2s 3d 4h 5c 6s") < five("Ts Jd Qh Kc As")
    assert wheel > five("As Ad Ah Kc Qs")  # beats any three of a kind
    assert five("Ks As 2d 3h 4c") >> CATEGORY_SHIFT == 0  # no wrap-around straight
    assert read("Ac2c7h8h", "3h4d5sKcKd").high.description == "straight, five high"


def test_kickers_break_ties():
    showdown = read_showdown(["AcKdTh7h", "AsQdJh8h"], "9c9d5h3s2c")  # both: pair of nines
    assert [r.high.description for r in showdown.readings] == [
        "pair of nines, A-K-5 kickers", "pair of nines, A-Q-5 kickers"]
    assert showdown.high_winners == (0,) and showdown.shares == (1, 0)


def test_identical_five_card_ranks_split():
    showdown = read_showdown(["9s8d2c2d", "9h8c3c3d"], "TcJdQh3s4s")  # both Q-high straights
    assert showdown.high_winners == (0, 1)
    assert showdown.shares == (HALF, HALF)


def test_unused_cards_never_play():
    # both play A-K with 9-9-5; the Q-J of player 2 and the 3-4 of player 1 never play
    showdown = read_showdown(["AcKd3h4h", "AsKhQcJd"], "9c9d5h5s2c")
    assert [r.high.description for r in showdown.readings] == ["pair of nines, A-K-5 kickers"] * 2
    assert showdown.shares == (HALF, HALF)


def test_four_flush_on_board_plus_one_suited_hole_card_is_not_a_flush():
    showdown = read_showdown(["Ah Qs Qd Jc", "7h 7c 8d 3s"], "Kh 9h 6h 2h 5c")  # OM-22
    assert showdown.readings[0].high.category == "pair"
    assert showdown.readings[0].high.description == "pair of queens, K-9-6 kickers"
    assert showdown.readings[1].high.description == "straight, nine high"
    assert showdown.shares == (0, 1)


def test_three_suited_hole_cards_with_two_of_that_suit_on_board_is_not_a_flush():
    reading = read("AhKhQh2c", "Jh7h3s4d9c")
    assert reading.high.category == "high card"
    assert reading.high.description == "ace high, K-J-9-7"


def test_board_with_only_two_cards_of_a_suit_never_makes_a_flush():
    reading = read("AhKhQhJh", "Th9h2c3d4s")
    assert reading.high.category == "high card"
    # and never for any hand: random deals on boards with at most two cards of each suit
    rng = random.Random(7)
    checked = 0
    while checked < 3000:
        hole_count = rng.choice((4, 5, 6))
        dealt = rng.sample(range(52), hole_count + 5)
        hole, board = dealt[:hole_count], dealt[hole_count:]
        if max(sum(card % 4 == suit for card in board) for suit in range(4)) > 2:
            continue
        value, _ = kernel(hole, board)
        assert value >> CATEGORY_SHIFT not in (FLUSH, STRAIGHT_FLUSH), (hole, board)
        checked += 1


def test_trips_in_the_hand_never_play_as_trips():
    reading = read("6s6h6d2c", "Ks9d4c3hJc")
    assert reading.high.category == "pair"
    assert reading.high.description == "pair of sixes, K-J-9 kickers"


def test_pair_in_hand_plus_pair_on_board_is_not_a_full_house():
    reading = read("KdKhKs2c", "Qc7d7h5s3c")  # OM-04: K-K + Q-7-7, not K-K-K-7-7
    assert reading.high.category == "two pair"
    assert reading.high.description == "kings and sevens, queen kicker"
    # unless three board cards make it: Q-Q in the hand with Q-7-7 on the board
    full = read("QhQdJcTc", "Qc7d7h5s3c")
    assert full.high.description == "queens full of sevens"
    assert set(full.high.board_cards) == cards("Qc 7d 7h")


def test_four_of_a_kind_on_the_board_plays_for_nobody_as_quads():
    showdown = read_showdown(["AcKdQhJs", "2d2hTc8d"], "9c9d9h9s2c")
    descriptions = [r.high.description for r in showdown.readings]
    assert descriptions == ["three nines, A-K kickers", "nines full of deuces"]
    assert all(r.high.category != "four of a kind" for r in showdown.readings)
    assert showdown.shares == (0, 1)


def test_cards_speak():
    """The winner follows from the cards alone, whatever their order or spelling."""
    hands = ["9s8d2c2d", "AcAh7d7s"]  # player 1 holds a straight he may read as a pair
    showdown = read_showdown(hands, "TcJdQh3s4s")
    assert showdown.readings[0].high.description == "straight, queen high"
    assert showdown.shares == (1, 0)
    reordered = read_showdown(["7s 7d ah ac", "2D,2C,8D,9S"], "Qh Jd Tc 4s 3s")
    assert reordered.shares == (0, 1)
    assert reordered.readings[1].high.value == showdown.readings[0].high.value


# ---------------------------------------------------------------------------------------------
# The low hand (8-or-better)
# ---------------------------------------------------------------------------------------------


def test_high_and_low_are_made_separately_and_may_use_different_hole_cards():
    reading = read("As Ks 5d 7c", "Ts 7d 8h 4s 2c")  # OM-02
    assert reading.high.description == "pair of sevens, A-T-8 kickers"
    assert set(reading.high.hole_cards) == cards("As 7c")
    assert reading.low.description == "7-5-4-2-A low"
    assert set(reading.low.hole_cards) == cards("As 5d")


def test_qualifying_low_is_five_different_ranks_eight_or_lower():
    assert low5("8s 7d 6h 5c 4s") != NO_LOW
    assert low5("9s 7d 6h 5c 4s") == NO_LOW  # a nine
    assert low5("As Ad 2h 3c 4s") == NO_LOW  # only four different ranks
    assert low5("Ks 2d 3h 4c 5s") == NO_LOW  # a king
    # rule_eight_or_better_qualifier: A-9 would make 9-8-3-2-A, which does not qualify
    assert read("Ah9sQdQc", "2c3d8hTcKs").low is None
    assert read("JcJd7h6h", "2c3d8hTcKs").low.description == "8-7-6-3-2 low"


def test_ace_counts_low():
    assert read("Ac2c9h9s", "3h4d5sKcKd").low.description == "5-4-3-2-A low"
    assert low5("6s 4d 3h 2c As") > low5("6s 5d 4h 3c 2s")  # A-low beats 2-low
    assert low5("8s 7d 6h 5c As") > low5("8s 7d 6h 5c 2s")


def test_straights_and_flushes_do_not_count_against_a_low():
    # rule_wheel_and_straight_flush_scoop: the wheel is a straight flush for high and the best low
    reading = read("Ah2h9c9d", "3h4h5hKcQd")
    assert reading.high.description == "straight flush, five high"
    assert reading.low.description == "5-4-3-2-A low"
    assert set(reading.low.cards) == set(reading.high.cards) == cards("Ah 2h 3h 4h 5h")
    # a flush is a low too: the same five hearts make both hands
    flush = read("8h6hKcKd", "3h5h7hQcJd")
    assert flush.high.description == "flush, 8-7-6-5-3"
    assert flush.low.description == "8-7-6-5-3 low"
    assert set(flush.low.cards) == set(flush.high.cards)
    assert low5("Ah 2h 3h 4h 5h") == low5("As 2d 3h 4c 5s")


def test_pairs_disqualify_only_by_needing_five_different_ranks():
    reading = read("AcAd2c9s", "3h4d7sKcQd")  # a pair of aces in the hand still makes a low
    assert reading.low.description == "7-4-3-2-A low"
    assert reading.high.description == "pair of aces, K-Q-7 kickers"
    # a pair on the board too: the low uses one of each rank
    assert read("Ac2d9h9s", "3h3d7s5cKd").low.description == "7-5-3-2-A low"


def test_seven_five_four_three_two_beats_seven_six_three_two_ace():
    assert low5("7s 5d 4h 3c 2s") > low5("7s 6d 3h 2c As")
    showdown = read_showdown(["5c4cKdQd", "Ah6hJcJs"], "7h3s2dTc9c", "omaha8")
    assert [r.low.description for r in showdown.readings] == ["7-5-4-3-2 low", "7-6-3-2-A low"]
    assert showdown.low_winners == (0,)
    assert showdown.high_winners == (1,)  # pair of jacks
    assert showdown.shares == (HALF, HALF)


def test_wheel_is_the_best_low_and_eight_seven_six_five_four_the_worst():
    low_ranks = "A2345678"
    lows = {}
    for ranks in itertools.combinations(low_ranks, 5):
        suits = itertools.cycle("cdhs")
        lows[ranks] = low5(" ".join(rank + next(suits) for rank in ranks))
    assert len(set(lows.values())) == comb(8, 5) == 56
    assert NO_LOW not in lows.values()
    assert max(lows, key=lows.get) == tuple("A2345")
    assert min(lows, key=lows.get) == tuple("45678")
    assert read("Ac2c9h9s", "3h4d5sKcKd").low.description == "5-4-3-2-A low"
    assert read("8c4c9h9s", "5h6d7sKcKd").low.description == "8-7-6-5-4 low"


def test_low_needs_three_different_board_ranks_eight_or_lower():
    # rule_low_needs_three_low_board_cards: only 5 and 6 on the board, A-2-3-4 in the hand
    assert read("Ac2d3h4s", "5d6cKhQsJd").low is None
    # OM-12: 3-3-7 is only two different low ranks
    assert read("Ah2c4d5s", "3c3d7hKsQs").low is None
    # with a third low rank on the board the same hand makes a low
    assert read("Ah2c4d5s", "3c3d7h6sQs").low.description == "7-6-3-2-A low"
    # and no hand ever makes a low on boards with fewer than three low ranks
    rng = random.Random(11)
    checked = 0
    while checked < 2000:
        dealt = rng.sample(range(52), 9)
        board = dealt[4:]
        low_ranks = {card // 4 for card in board if card // 4 == 12 or card // 4 <= 6}
        if len(low_ranks) >= 3:
            continue
        assert kernel(dealt[:4], board)[1] == NO_LOW
        checked += 1


def test_ties_in_the_high_half_split_that_half_equally():
    # both play 9-8 + 7-6-5 for the same straight; the low goes to the A-3
    showdown = read_showdown(["9s8dKcQc", "9h8cKdQd", "Ac3dJcJs"], "5c6d7hKs2s", "omaha8")
    assert [r.high.description for r in showdown.readings[:2]] == ["straight, nine high"] * 2
    assert showdown.readings[2].low.description == "6-5-3-2-A low"
    assert showdown.readings[0].low is None and showdown.readings[1].low is None
    assert showdown.high_winners == (0, 1)
    assert showdown.low_winners == (2,)
    assert showdown.shares == (QUARTER, QUARTER, HALF)
    # high only: a three-way tie splits the pot in thirds
    assert showdown_shares([700, 700, 700], None, False) == [THIRD, THIRD, THIRD]


def test_ties_in_the_low_half_split_that_half_equally():
    # three players hold A-2 for the same 8-4-3-2-A low; three kings take the high half
    showdown = read_showdown(["Ac2cTdTs", "Ad2dJhJs", "Ah2hQcQd", "KcKdKh9s"], "3s4c8h9dKs", "omaha8")
    assert [r.low.description for r in showdown.readings[:3]] == ["8-4-3-2-A low"] * 3
    assert showdown.readings[3].low is None
    assert showdown.low_winners == (0, 1, 2)
    assert showdown.high_winners == (3,)
    assert showdown.shares == (Fraction(1, 6), Fraction(1, 6), Fraction(1, 6), HALF)


def test_no_qualifying_low_the_high_hands_take_the_whole_pot():
    showdown = read_showdown(["Ah2h3c4c", "AsKdTc7h"], "KsQsJh9d9c", "omaha8")
    assert showdown.low_winners == ()
    assert showdown.shares == (0, 1)
    # a tied high with no low splits the whole pot, not half of it
    tied = read_showdown(["9s8d3cKc", "9h8cKdKs"], "TcJdQh3s3h", "omaha8")
    assert tied.low_winners == () and tied.shares == (HALF, HALF)
    assert showdown_shares([10, 9], [NO_LOW, NO_LOW], True) == [1, 0]


def test_the_same_player_can_scoop_both_halves():
    showdown = read_showdown(["Ah2h9c9d", "6s7s8cTc"], "3h4h5hKcQd", "omaha8")
    assert showdown.high_winners == (0,) and showdown.low_winners == (0,)
    assert showdown.shares == (1, 0)
    # OM-06, Big O: the fifth hole card 2s makes both the straight and the wheel
    big_o = read_showdown(["3h Kc Qs Jd 2s", "Ac 6d 7s 8c 8d"], "Ad 4c 5h 9s Tc", "omaha5-8")
    assert big_o.shares == (1, 0)


def test_win_one_half_and_tie_the_other_gets_three_quarters():
    showdown = read_showdown(["Ah 2c Kd 9d", "Ac 2d Th 8h"], "7d 4c 3h Ks Jh", "omaha8")  # OM-13
    assert showdown.high_winners == (0,) and showdown.low_winners == (0, 1)
    assert showdown.shares == (Fraction(3, 4), QUARTER)
    assert showdown_shares([9, 5], [100, 100], True) == [Fraction(3, 4), QUARTER]


def test_half_split_two_ways_gives_each_a_quarter():
    # plo8_river_quartered: P1 quad kings, P1 and P2 tie the low, P3 nothing
    showdown = read_showdown(["As2cKhKd", "Ad2h7c7s", "QcJcTc9c"], "3d4s8cKsKc", "omaha8")
    assert showdown.shares == (Fraction(3, 4), QUARTER, 0)
    # two-way tie on both sides: each player gets a quarter from each half
    assert showdown_shares([9, 9, 5, 5], [0, 0, 100, 100], True) == [QUARTER] * 4


# ---------------------------------------------------------------------------------------------
# Worked examples
# ---------------------------------------------------------------------------------------------


def test_worked_example_three_sixes_no_flush_and_six_four_low():
    reading = read("6h 6c 4h 2c", "8c 6s 4s 3h Ac")
    assert reading.high.category == "three of a kind"  # not a flush, not 6-6-6-4-4
    assert reading.high.description == "three sixes, A-8 kickers"
    assert set(reading.high.cards) == cards("6h 6c 6s Ac 8c")
    assert set(reading.high.hole_cards) == cards("6h 6c")
    assert reading.low.description == "6-4-3-2-A low"
    assert set(reading.low.hole_cards) in (cards("2c 4h"), cards("2c 6h"), cards("2c 6c"))
    assert low5("2c 4h 6s 3h Ac") == low5("2c 6h 4s 3h Ac") == reading.low.value


def test_worked_example_ace_high_flush_and_wheel_wins_three_quarters():
    reading = read("Ad Kd 3s 2s", "Jd 4d 3c Qd 5h")
    assert reading.high.category == "flush"
    assert reading.high.description == "flush, A-K-Q-J-4"
    assert set(reading.high.cards) == cards("Ad Kd Qd Jd 4d")
    assert reading.low.description == "5-4-3-2-A low"
    assert set(reading.low.cards) == cards("Ad 2s 5h 4d 3c")
    showdown = read_showdown(["Ad Kd 3s 2s", "Ac 2c 9h 9s"], "Jd 4d 3c Qd 5h", "omaha8")
    assert showdown.high_winners == (0,) and showdown.low_winners == (0, 1)
    assert showdown.shares == (Fraction(3, 4), QUARTER)


# ---------------------------------------------------------------------------------------------
# Game variants
# ---------------------------------------------------------------------------------------------

VARIANTS = {
    # name: (hole cards, hi/lo, first flop card exposed)
    "omaha": (4, False, False),
    "omaha8": (4, True, False),
    "omaha5": (5, False, False),
    "omaha5-8": (5, True, False),
    "omaha6": (6, False, False),
    "omaha6-8": (6, True, False),
    "courchevel": (5, False, True),
    "courchevel8": (5, True, True),
}

ALIASES = {
    "plo": "omaha", "omaha-hi": "omaha", "omaha-high": "omaha",
    "o8": "omaha8", "omaha-hi-lo": "omaha8", "plo8": "omaha8", "omaha-8": "omaha8",
    "omaha-hilo": "omaha8", "omaha/8": "omaha8",
    "plo5": "omaha5", "5-card-omaha": "omaha5",
    "big-o": "omaha5-8", "bigo": "omaha5-8", "o5-8": "omaha5-8", "plo5-8": "omaha5-8",
    "plo6": "omaha6", "6-card-omaha": "omaha6",
    "o6-8": "omaha6-8", "plo6-8": "omaha6-8",
    "omaha-h/l": "omaha8", "omaha-hilo8": "omaha8", "omaha5-hilo8": "omaha5-8", "omaha6-hilo8": "omaha6-8",
    "courchevel-hi-lo": "courchevel8", "courchevel-8": "courchevel8",
}


def test_variant_table_lists_every_game():
    assert set(GAMES) == set(VARIANTS)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_hole_cards_and_split(name):
    hole_count, hilo, exposed = VARIANTS[name]
    game = get_game(name)
    assert (game.name, game.hole_count, game.hilo, game.exposed_first_flop_card) == (name, hole_count, hilo, exposed)
    assert game.max_players == (52 - 5) // hole_count
    assert get_game(name.upper()) is game


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_needs_exactly_two_hole_and_three_board_cards(name):
    """All hole cards hearts, two hearts on the board: nobody has a flush in any variant."""
    game = get_game(name)
    hearts = "AhKhQhJhTh9h"[: 2 * game.hole_count]
    others = "2c3c4c5c6c9c"[: 2 * game.hole_count]
    showdown = read_showdown([hearts, others], "8h7h2d3sKd", name)
    assert showdown.readings[0].high.description == "pair of kings, A-8-7 kickers"
    assert showdown.readings[1].high.description == "threes and deuces, king kicker"
    assert showdown.high_winners == (1,)
    result = calculate_equity([hearts, others], "8h7h2d3sKd", game=name)
    assert result.players[1].hi_win_count == 1 and result.players[0].equity_fraction == 0


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_variant_alias(alias):
    assert get_game(alias) is GAMES[ALIASES[alias]]
    assert get_game(alias.upper()) is GAMES[ALIASES[alias]]


def test_alias_table_is_the_documented_one():
    assert GAME_ALIASES == ALIASES
    # names from the rules table that the alias list spells as one token
    assert get_game("PLO").name == "omaha"
    assert get_game("O8").name == "omaha8"
    assert get_game("Omaha/8").name == "omaha8"
    assert get_game("Big-O").name == "omaha5-8"


@pytest.mark.parametrize(
    "name, canonical",
    [("Omaha 8", "omaha8"), ("Omaha H/L", "omaha8"), ("Big O", "omaha5-8"), ("omaha_hilo8", "omaha8"),
     ("omaha5-hilo8", "omaha5-8"), ("  PLO  ", "omaha")],
)
def test_game_names_as_the_rules_table_and_case_files_write_them(name, canonical):
    assert get_game(name).name == canonical


@pytest.mark.parametrize("die, hole_count, hilo", [
    (1, 4, True), (2, 5, True), (3, 6, True), (4, 4, False), (5, 5, False), (6, 6, False),
])
def test_binglao_die_roll_picks_the_game(die, hole_count, hilo):
    assert BINGLAO_DIE[die] == (hole_count, hilo)
    game = get_game("binglao", die)
    assert (game.hole_count, game.hilo) == (hole_count, hilo)
    assert game.name == f"binglao-{die}"
    hands = ["AhKhQhJhTh9h"[: 2 * hole_count], "2c3c4c5c6c7c"[: 2 * hole_count]]
    result = calculate_equity(hands, "8h7h2d3sAd", game="binglao", die=die)
    assert result.game.hilo == hilo
    # the low player (2c-3c with A-2/3-7-8 on board) wins the low half only in the hi/lo games
    assert result.players[1].lo_win_count == (1 if hilo else 0)


def test_binglao_die_must_be_one_to_six_and_only_for_binglao():
    assert set(BINGLAO_DIE) == {1, 2, 3, 4, 5, 6}
    with pytest.raises(InputError, match="binglao needs the die roll"):
        get_game("binglao")
    for bad in (0, 7):
        with pytest.raises(InputError, match=f"bad die roll {bad}"):
            get_game("binglao", bad)
    with pytest.raises(InputError, match="only used in binglao"):
        get_game("omaha", 3)


def test_calculator_allows_as_many_players_as_the_deck_supports():
    assert [get_game(name).max_players for name in ("omaha", "omaha5", "omaha6")] == [11, 9, 7]
    deck = [format_card(card) for card in range(52)]
    eleven = ["".join(deck[4 * player: 4 * player + 4]) for player in range(11)]
    result = calculate_equity(eleven)  # 44 hole cards, 8 left for the board
    assert result.sample_count == comb(8, 5)
    assert sum(player.equity_fraction for player in result.players) == 1
    with pytest.raises(InputError, match="too many players"):
        calculate_equity(eleven + ["".join(deck[44:48])])


def test_courchevel_deals_five_cards_and_exposes_the_first_flop_card():
    result = calculate_equity(["AsAhKsKhQc", "JdTd9c8c7d"], "Qd", game="courchevel")
    assert result.game.exposed_first_flop_card and result.game.hole_count == 5
    assert result.sample_count == comb(52 - 10 - 1, 4)
    assert sum(player.equity_fraction for player in result.players) == 1
    with pytest.raises(InputError, match="expected 5 hole cards for courchevel"):
        read_showdown(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s3c4c", game="courchevel")
