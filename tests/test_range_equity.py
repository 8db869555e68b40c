"""Equity with ranges, partial and random hands, against brute force over every joint deal.

The brute force is the definition in issue 3: deal each player a hand from their list (weight
w), reject deals that share a card, complete the board every possible way, and average the
showdown shares (``tests/naive.py``) weighted by the product of the weights.
"""

import itertools
from fractions import Fraction

import pytest

import naive
from omaha_equity import InputError, calculate_equity


def brute_force(hand_lists, board, dead=(), hilo=False):
    """Exact equities of players holding weighted lists of hands: [(hand cards, weight), ...]."""
    board = list(board)
    dead = set(dead)
    totals = [Fraction(0)] * len(hand_lists)
    weight_total = 0
    for combination in itertools.product(*hand_lists):
        cards = [card for hand, _ in combination for card in hand]
        if len(set(cards)) != len(cards) or set(cards) & (set(board) | dead):
            continue
        weight = 1
        for _, hand_weight in combination:
            weight *= hand_weight
        remaining = [card for card in range(52) if card not in set(cards) | set(board) | dead]
        for completion in itertools.combinations(remaining, 5 - len(board)):
            shares = naive.showdown_shares([list(hand) for hand, _ in combination], board + list(completion), hilo)
            totals = [total + weight * share for total, share in zip(totals, shares)]
            weight_total += weight
    return [total / weight_total for total in totals]


def hands_of(text):
    return [(tuple(naive.cards(hand.split("@")[0])), int(hand.split("@")[1]) if "@" in hand else 1)
            for hand in text.split(",")]


def completions_of(partial, hole_count, excluded):
    known = naive.cards(partial)
    rest = [card for card in range(52) if card not in set(known) | set(excluded)]
    return [(tuple(known) + extra, 1) for extra in itertools.combinations(rest, hole_count - len(known))]


def test_weighted_range_against_a_fixed_hand_on_the_turn():
    board = naive.cards("Qd7h2s5c")
    villain = "AsAhKdKc@3,QsQhJdJc,9s8s7c6c@2"
    result = calculate_equity(["JhTh9d8d", villain], board="Qd7h2s5c")
    expected = brute_force([hands_of("JhTh9d8d"), hands_of(villain)], board)
    assert result.method == "exact"
    assert [player.equity_fraction for player in result.players] == expected


def test_ranges_with_shared_cards_reject_those_deals():
    board = naive.cards("Qd7h2s5cKh")
    first = "AsAhKdKc,AsQhQcJc,JsJhJdJc"
    second = "AsKsTdTc,9s9h9d9c@2,AhAdTsTh"
    result = calculate_equity([first, second], board="Qd7h2s5cKh")
    expected = brute_force([hands_of(first), hands_of(second)], board)
    assert [player.equity_fraction for player in result.players] == expected
    # 9 combinations, of which AsAhKdKc/AsKsTdTc, AsQhQcJc/AsKsTdTc and AsAhKdKc/AhAdTsTh share
    # a card: 6 deals remain on the river, of weight 1+2+1 (JsJhJdJc) + 2 + 2 + 1 = 9
    assert result.sample_count == 6 and result.weight_total == 9


def test_partial_hand_is_every_completion_hi_lo():
    board = naive.cards("3d4s8cKs9c")
    result = calculate_equity(["As2cKhKd", "Ad2h"], board="3d4s8cKs9c", game="omaha8")
    expected = brute_force([hands_of("As2cKhKd"), completions_of("Ad2h", 4, naive.cards("As2cKhKd") + board)],
                           board, hilo=True)
    assert result.method == "exact"
    assert [player.equity_fraction for player in result.players] == expected
    assert result.sample_count == 820  # C(41, 2) completions of the partial hand


def test_three_players_ranges_partial_hand_and_dead_cards_hi_lo():
    board = naive.cards("Ac4d6h8sKd")
    dead = naive.cards("2c")
    players = ["AhKhQc3c", "2d3dKsQs,2h3hJsJd@4", "5c7d"]
    # the partial hand may hold any card not written anywhere, player 2's range cards included
    lists = [hands_of(players[0]), hands_of(players[1]),
             completions_of("5c7d", 4, naive.cards("AhKhQc3c") + board + dead)]
    result = calculate_equity(players, board="Ac4d6h8sKd", dead="2c", game="omaha8")
    expected = brute_force(lists, board, dead, hilo=True)
    assert result.method == "exact"
    assert [player.equity_fraction for player in result.players] == expected


def test_monte_carlo_over_ranges_matches_exact_and_is_thread_independent():
    players = ["AA:xxyy", "KK:xxyy", "QsQh9s9h"]
    exact = calculate_equity(players, board="Jc7h2d3s")
    one = calculate_equity(players, board="Jc7h2d3s", method="monte-carlo", seed=5, trials=300_000, threads=1)
    two = calculate_equity(players, board="Jc7h2d3s", method="monte-carlo", seed=5, trials=300_000, threads=2)
    assert exact.method == "exact"
    assert one == two
    for estimate, truth in zip(one.players, exact.players):
        assert abs(estimate.equity - truth.equity) < 4 * estimate.standard_error


def test_weights_change_the_answer_like_repeating_hands():
    weighted = calculate_equity(["AsKsQhJh", "AdAc9h9c@3,KdKc8h8c"], board="Qd7h2s5c")
    repeated = brute_force([hands_of("AsKsQhJh"), hands_of("AdAc9h9c@3,KdKc8h8c")], naive.cards("Qd7h2s5c"))
    assert [player.equity_fraction for player in weighted.players] == repeated


def test_hand_against_a_random_hand_on_the_flop_uses_monte_carlo_and_is_sensible():
    result = calculate_equity(["AsKsQhJh", "*"], board="Qd7h2s", seed=1)
    assert result.method == "monte-carlo" and result.hands == ("AsKsQhJh", "*")
    assert 0.70 < result.players[0].equity < 0.74  # top pair top kicker with a straight draw
    assert result.players[0].equity + result.players[1].equity == pytest.approx(1.0)


def test_random_hand_on_the_turn_is_exact():
    result = calculate_equity(["AsKsQhJh", "*"], board="Qd7h2sTc")
    assert result.method == "exact"
    assert result.sample_count == 135_751 * 40  # C(44, 4) hands x 40 rivers


def test_ranges_that_cannot_be_dealt_together_are_an_error():
    with pytest.raises(InputError, match="no hand in range 'AA'"):
        calculate_equity(["AsAhAdKc", "AA"])
    with pytest.raises(InputError, match="is possible with the known cards AsAh6c5c4c3c2c"):
        calculate_equity(["AsAh", "AsAh**,AhAs"], board="2c3c4c5c6c")
    every_pair_collides = ["AsAhKsKh,AsAhKdKc", "AsAdQsQh,AhAcQdQc"]
    with pytest.raises(InputError, match="every combination of the players' hands shares a card"):
        calculate_equity(every_pair_collides)
    with pytest.raises(InputError, match="every combination of the players' hands shares a card"):
        calculate_equity(every_pair_collides, method="monte-carlo", trials=1000, seed=1)  # not "almost no deal"


def test_weights_are_relative_however_small_or_large():
    plain = calculate_equity(["AA", "QsQdJdJc"], board="2c3d9dTc8h")
    tiny = calculate_equity(["AA@0.0000001", "QsQdJdJc"], board="2c3d9dTc8h")
    huge = calculate_equity(["AA@1e19", "QsQdJdJc"], board="2c3d9dTc8h")
    assert tiny.method == huge.method == "exact"
    assert [p.equity_fraction for p in tiny.players] == [p.equity_fraction for p in plain.players]
    assert [p.equity_fraction for p in huge.players] == [p.equity_fraction for p in plain.players]
    mixed = calculate_equity(["AsAhKsKh@1e-7,QsQhJsJh@3.3", "9c9d8c8d"], board="2c3d4h5s7c")
    expected = brute_force([[(tuple(naive.cards("AsAhKsKh")), Fraction(1, 10**7)),
                             (tuple(naive.cards("QsQhJsJh")), Fraction(33, 10))], hands_of("9c9d8c8d")],
                           naive.cards("2c3d4h5s7c"))
    assert [p.equity_fraction for p in mixed.players] == expected


def test_weights_too_far_apart_for_64_bits_fall_back_to_monte_carlo():
    # lists of written hands: the work is small (under the exact ceiling), the weights are not
    players = ["AsAhKsKh@0.123456789,AdAcKdKc@0.000000001", "QsQhJsJh@0.654321987,QdQcJdJc@0.000000003",
               "TsTh9s9h@0.777777777,TdTc9d9c@0.000000007"]
    result = calculate_equity(players, board="2c3d4h5s", seed=1, trials=20_000)
    assert result.method == "monte-carlo"
    with pytest.raises(InputError, match="too far apart for exact enumeration"):
        calculate_equity(players, board="2c3d4h5s", method="exact")


def test_a_range_of_every_hand_is_dealt_like_a_random_hand_multiway():
    result = calculate_equity(["AsAhKsKh"] + ["100%"] * 8, seed=2, trials=20_000)
    assert result.method == "monte-carlo" and result.hands[1] == "100%"
    assert 0.2 < result.players[0].equity < 0.4  # aces double suited against eight random hands


def test_a_list_of_a_thousand_hands_parses():
    hands = [f"AsAh{first}{second}" for first, second in itertools.combinations(
        [rank + suit for rank in "23456789TJQK" for suit in "cdhs"], 2)][:1000]
    result = calculate_equity([",".join(hands), "KsKhQdJc"], board="2c7d9h3s4s")
    assert result.method == "exact"
    assert result.sample_count == sum(1 for hand in hands if not {"Ks", "Kh", "Qd", "Jc", "2c", "7d", "9h", "3s", "4s"}
                                      & {hand[4:6], hand[6:8]})
