"""All-in expected chips with side pots (``calculate_allin``, ``omaha-equity allin``).

The reference is brute force: every deal of the ranges and every completion of the board,
evaluated by the slow oracle (``tests/naive.py``), paid with ``pots.settle`` (itself pinned by
``test_side_pots.py``: docs/rules.md "All-ins and side pots" and "Showdown", cases OM-15 and
OM-17), averaged with exact fractions.
"""

import itertools
import json
from fractions import Fraction

import numba
import pytest
from click.testing import CliRunner

import naive
from omaha_equity import InputError, calculate_allin
from omaha_equity.cli import main
from omaha_equity.equity.expected_chips import committed_from_stacks
from omaha_equity.pots import Pot, settle, side_pots


def ranks(values):
    """Oracle values (tuples, None for no low) as ints with the same order: larger is better,
    0 for None (the evaluator's encoding, which ``settle`` reads)."""
    present = sorted({value for value in values if value is not None})
    return [0 if value is None else present.index(value) + 1 for value in values]


def brute_force(hand_lists, committed, board, dead=(), hilo=False, folded=(), pot=0):
    """Exact expected chips per pot and player: ``(pots, [[Fraction per player] per pot])``.

    ``hand_lists`` holds, per player, ``[(hand cards, weight), ...]``."""
    board = naive.cards(board) if isinstance(board, str) else list(board)
    dead = set(dead)
    pots = side_pots(list(committed) + list(folded), [False] * len(committed) + [True] * len(folded))
    pots[0] = Pot(pots[0].amount + pot, pots[0].eligible)
    player_count = len(hand_lists)
    totals = [[Fraction(0)] * player_count for _ in pots]
    weight_total = 0
    for combination in itertools.product(*hand_lists):
        cards = [card for hand, _ in combination for card in hand]
        if len(set(cards)) != len(cards) or set(cards) & (set(board) | dead):
            continue
        weight = 1
        for _, hand_weight in combination:
            weight *= hand_weight
        hands = [list(hand) for hand, _ in combination]
        remaining = [card for card in range(52) if card not in set(cards) | set(board) | dead]
        for completion in itertools.combinations(remaining, 5 - len(board)):
            full_board = board + list(completion)
            highs = ranks([naive.best_high(hand, full_board) for hand in hands])
            lows = ranks([naive.best_low(hand, full_board) for hand in hands]) if hilo else None
            for index, row in enumerate(settle(pots, highs, lows, hilo)):
                for player, chips in enumerate(row):
                    totals[index][player] += weight * chips
            weight_total += weight
    return pots, [[total / weight_total for total in row] for row in totals]


def fixed(*hands):
    return [[(tuple(naive.cards(hand)), 1)] for hand in hands]


def pot_fractions(result):
    """The result's exact chips as ``[[per player] per pot]`` (the brute force's layout)."""
    return [[player.pot_chips_exact[index] for player in result.players] for index in range(len(result.pots))]


def test_complete_board_gives_exactly_the_settlement_short_stack_with_the_only_low():
    # P2 all in for 101 holds the only low; main pot 303: high half 152 (odd chip high) to P0's
    # trip kings, low half 151 to P2; side pot 400 (P0, P1): no low there, high takes it all
    result = calculate_allin(["KsKd9h9c", "QsQhThTc", "As3sJhJc"], [301, 301, 101], board="2c5d7hKcQd",
                             game="omaha8")
    assert result.method == "exact" and result.sample_count == 1
    assert result.pots == (Pot(303, (0, 1, 2)), Pot(400, (0, 1)))
    assert pot_fractions(result) == [[152, 0, 151], [400, 0, 0]]
    assert [player.expected_exact for player in result.players] == [552, 0, 151]
    assert [player.net_exact for player in result.players] == [251, -301, 50]


def test_om_17_on_the_river_main_pot_to_the_short_stack_side_pot_to_the_best_of_the_others():
    result = calculate_allin(["9c9dKsQd", "7c7hAsKd", "JcJd5h6h"], [300, 300, 100], board="9s7d2cJh4s")
    assert result.pots == (Pot(300, (0, 1, 2)), Pot(400, (0, 1)))
    assert result.expected == (400.0, 0.0, 300.0)
    assert result.net == (100.0, -300.0, 200.0)


def test_om_15_tie_of_both_halves_on_the_river_is_33_33():
    result = calculate_allin(["2s3s9h9c", "2d3hTcTs"], [33, 33], board="4c5d6hKcQd", game="omaha8")
    assert [player.expected_exact for player in result.players] == [33, 33]


def test_flop_three_players_hi_lo_uneven_stacks_against_brute_force():
    # dead cards keep the slow oracle quick: 406 flops
    hands = ["As2sKdQd", "Ah3h9c9d", "5c4c8h8s"]
    board = "Kh7s2d"
    dead = "JsJhTsTh6s6h3s3c"
    result = calculate_allin(hands, [500, 350, 120], board=board, dead=dead, game="omaha8")
    pots, expected = brute_force(fixed(*hands), [500, 350, 120], board, naive.cards(dead), hilo=True)
    assert result.method == "exact" and result.sample_count == 406
    assert list(result.pots) == pots == [Pot(360, (0, 1, 2)), Pot(460, (0, 1)), Pot(150, (0,))]
    assert pot_fractions(result) == expected
    assert sum(player.expected_exact for player in result.players) == 970  # every chip paid


def test_flop_four_players_high_with_folded_money_and_dead_money_against_brute_force():
    hands = ["AsAhKsKh", "JdTd9c8c", "QcQdJcTh", "7s6s5d4d"]
    board = "Qs9h2c"
    committed = [800, 200, 450, 450]
    dead = "2s3s4s5s2h3h4h5h"
    result = calculate_allin(hands, committed, board=board, dead=dead, folded=(300, 50), pot=15)
    pots, expected = brute_force(fixed(*hands), committed, board, naive.cards(dead), folded=(300, 50), pot=15)
    assert result.sample_count == 300
    assert list(result.pots) == pots
    assert pots[0] == Pot(200 * 4 + 200 + 50 + 15, (0, 1, 2, 3))
    assert pot_fractions(result) == expected


def test_turn_four_players_hi_lo_odd_chips_against_brute_force():
    # odd pot sizes: the high half takes the odd chip, tied players the remainders in seat order
    hands = ["As2sKdQd", "Ah3h9c9d", "Ac2c8h8s", "Ad3dJcJs"]
    board = "4c5h7dKs"
    committed = [333, 101, 257, 257]
    result = calculate_allin(hands, committed, board=board, game="omaha8")
    pots, expected = brute_force(fixed(*hands), committed, board, hilo=True)
    assert result.sample_count == 32
    assert pot_fractions(result) == expected


def test_turn_three_players_five_card_omaha_hi_lo_against_brute_force():
    hands = ["As2sKdQd3c", "Ah3h9c9dTd", "5c4c8h8sJh"]
    board = "Kh7s2d6c"
    result = calculate_allin(hands, [90, 250, 40], board=board, game="omaha5-8")
    pots, expected = brute_force(fixed(*hands), [90, 250, 40], board, hilo=True)
    assert pot_fractions(result) == expected


def test_ranges_and_partial_hands_on_the_river_against_brute_force():
    board = "3d4s8cKs9c"
    villain = "AhAdKdKc@3,QsQhJdJc,9s8s7c6c@2"
    hero = "As2cKhJh"
    result = calculate_allin([hero, villain, "Ad2h5d"], [400, 250, 100], board=board, game="omaha8")
    known = naive.cards(hero) + naive.cards(board) + naive.cards("Ad2h5d")
    partial = [(tuple(naive.cards("Ad2h5d")) + (card,), 1) for card in range(52) if card not in known]
    villain_hands = [(tuple(naive.cards(hand.split("@")[0])), int(hand.split("@")[1]) if "@" in hand else 1)
                     for hand in villain.split(",")]
    pots, expected = brute_force([[(tuple(naive.cards(hero)), 1)], villain_hands, partial], [400, 250, 100], board,
                                 hilo=True)
    assert result.method == "exact"
    assert pot_fractions(result) == expected


def test_monte_carlo_agrees_with_exact_within_a_few_standard_errors():
    hands = ["As2sKdQd", "Ah3h9c9d", "5c4c8h8s"]
    exact = calculate_allin(hands, [500, 350, 120], board="Kh7s", game="omaha8")
    sampled = calculate_allin(hands, [500, 350, 120], board="Kh7s", game="omaha8", trials=200_000, seed=11)
    assert sampled.method == "monte-carlo" and sampled.sample_count == 200_000
    for exact_player, sampled_player in zip(exact.players, sampled.players):
        assert sampled_player.standard_error > 0
        assert abs(sampled_player.expected - exact_player.expected) < 4 * sampled_player.standard_error
        for index in range(len(exact.pots)):
            error = sampled_player.pot_standard_errors[index]
            assert abs(sampled_player.pot_chips[index] - exact_player.pot_chips[index]) <= 4 * error


def test_monte_carlo_over_ranges_agrees_with_exact():
    hands = ["AsAhKd", "JdTd9c8c", "KcKh2c2d,QcQh3c3d@2,JcJh4c4d"]
    exact = calculate_allin(hands, [300, 200, 100], board="Qd7h2s5c")
    sampled = calculate_allin(hands, [300, 200, 100], board="Qd7h2s5c", trials=100_000, seed=5)
    assert exact.method == "exact" and sampled.method == "monte-carlo"
    for exact_player, sampled_player in zip(exact.players, sampled.players):
        assert abs(sampled_player.expected - exact_player.expected) < 4 * sampled_player.standard_error


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two threads")
def test_monte_carlo_is_the_same_for_any_thread_count():
    arguments = (["As2sKdQd", "Ah3h9c9d", "*"], [500, 350, 120])
    one = calculate_allin(*arguments, game="omaha8", trials=150_000, seed=3, threads=1)
    two = calculate_allin(*arguments, game="omaha8", trials=150_000, seed=3, threads=2)
    assert one == two


def test_stacks_are_capped_at_the_largest_other_stack():
    assert committed_from_stacks([500, 200, 1000]) == (500, 200, 500)
    assert committed_from_stacks([100, 100]) == (100, 100)


@pytest.mark.parametrize("committed, message", [
    ([100], "one committed amount per player"),
    ([100, -5], "-5"),
    ([100, 0], "bad committed amount 0"),
    ([100, 2.5], "2.5"),
    ("100,200", "list of committed amounts"),
])
def test_bad_committed_amounts_name_the_token(committed, message):
    with pytest.raises(InputError, match=message):
        calculate_allin(["AsAhKsKh", "JdTd9c8c"], committed)


def test_bad_folded_and_dead_money():
    with pytest.raises(InputError, match="-1"):
        calculate_allin(["AsAhKsKh", "JdTd9c8c"], [10, 10], folded=(-1,))
    with pytest.raises(InputError, match="dead money -3"):
        calculate_allin(["AsAhKsKh", "JdTd9c8c"], [10, 10], pot=-3)


# --- the command line -----------------------------------------------------------------------

def run(*arguments):
    return CliRunner().invoke(main, list(arguments))


def test_cli_table_shows_pots_expected_chips_and_net():
    result = run("allin", "9c9dKsQd", "7c7hAsKd", "JcJd5h6h", "--committed", "300,300,100", "-b", "9s7d2cJh4s")
    assert result.exit_code == 0, result.output
    assert "main pot 300: players 1, 2, 3; side pot 1 400: players 1, 2" in result.output
    assert "+200.00" in result.output and "-300.00" in result.output


def test_header_says_boards_for_known_hands_and_deals_with_ranges_as_calc_does():
    def header(*arguments):
        result = run("allin", *arguments)
        assert result.exit_code == 0, result.output
        return result.stdout.splitlines()[0]

    assert header("AsAhKsKh", "JdTd9c8c", "--stacks", "600,250", "-b", "Qd7h2s").endswith(
        "exact enumeration of 820 boards")
    assert header("AsAhKsKh", "JdTd9c8c", "--stacks", "600,250", "--trials", "1000", "--seed", "1").endswith(
        "Monte Carlo, 1,000 boards, seed 1")
    assert header("AsAhKsKh", "KK", "--stacks", "600,250", "-b", "2c3d4h").endswith(
        "exact enumeration of 740,460 deals (903 hand combinations x 820 boards)")
    assert header("AsAhKsKh", "*", "--stacks", "600,250", "--trials", "1000", "--seed", "1").endswith(
        "Monte Carlo, 1,000 deals of hands and board, seed 1")
    data = json.loads(run("allin", "AsAhKsKh", "KK", "--stacks", "600,250", "-b", "2c3d4h", "-f", "json").stdout)
    assert (data["sample_count"], data["hand_combinations"], data["board_count"]) == (740_460, 903, 820)
    # a partial hand is named under the header and counted in JSON, as calc does
    partial = run("allin", "AsAhKs", "JdTd9c8c", "--stacks", "100,100", "--trials", "1000", "--seed", "1")
    assert partial.stdout.splitlines()[1] == "partial hands completed at random: AsAhKs+1 (1 card dealt at random)"
    data = json.loads(run("allin", "AsAhKs", "JdTd9c8c", "--stacks", "100,100", "--trials", "1000", "--seed", "1",
                          "-f", "json").stdout)
    assert [player["random_cards"] for player in data["players"]] == [1, 0]


def test_cli_stacks_json_exact():
    result = run("allin", "KsKd9h9c", "QsQhThTc", "As3sJhJc", "--stacks", "1000,301,101", "-b", "2c5d7hKcQd",
                 "-g", "omaha8", "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [pot["amount"] for pot in data["pots"]] == [303, 400]
    assert [player["committed"] for player in data["players"]] == [301, 301, 101]
    assert [player["expected_exact"] for player in data["players"]] == ["552", "0", "151"]
    assert data["pots"][1]["eligible"] == [1, 2]


def test_cli_csv_monte_carlo_has_standard_errors():
    result = run("allin", "AsAhKsKh", "JdTd9c8c", "*", "--stacks", "300,200,100", "--mc", "--trials", "20000",
                 "--seed", "1", "-f", "csv")
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.startswith("player,hand,committed,main,main_exact,main_standard_error,side_1,")
    assert len(rows) == 3 and "monte-carlo" in rows[0]


@pytest.mark.parametrize("arguments, token", [
    (["--stacks", "300,200"], "3 hands"),
    (["--stacks", ",".join(["1"] * 30_000)], "got 30000: '1,1,1,1,"),  # the list itself is shortened
    (["--stacks", "300,-5,100"], "'-5'"),
    (["--stacks", "300,abc,100"], "'abc'"),
    (["--committed", "300,0,100"], "'0'"),
    (["--stacks", "300,200,100", "--committed", "1,2,3"], "either --stacks or --committed"),
    ([], "either --stacks or --committed"),
    (["--stacks", "300,200,100", "--pot", "-4"], "-4"),
    (["--stacks", "300,200,100", "--folded", "x"], "'x'"),
    (["--stacks", "300,200,100", "-b", "AsQd7h"], "As"),
])
def test_cli_bad_input_is_a_one_line_error(arguments, token):
    result = run("allin", "AsAhKsKh", "JdTd9c8c", "2c3d4h5s", *arguments)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and token in lines[0], result.output
    assert len(lines[0]) < 200
