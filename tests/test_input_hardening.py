"""Inputs that were wrong but accepted, or crashed (issue 9, section 2): each is refused with a
one-line error naming it, or read as the grammar says."""

import random

import numpy as np
import pytest
from click.testing import CliRunner

from omaha_equity import (InputError, calculate_allin, calculate_equity, equity_by_street, equity_distribution,
                          get_game, next_card_equity)
from omaha_equity.cards import format_cards, parse_cards
from omaha_equity.cli import main
from omaha_equity.errors import quoted
from omaha_equity.ranges import parse_range
from omaha_equity.validate import check_run_options

TWO = ["AsAhKsKh", "JdTd9c8c"]


def run(*args):
    return CliRunner().invoke(main, list(args))


def usage_error(result) -> str:
    """The one error line of a usage error (exit code 2)."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, result.output
    return lines[0]


EMPTY_HAND = ("empty hand {!r} for player 1: expected cards such as 'AsKsQhJh', a range such as 'AA:$ds', "
              "or '*' for a random hand")


@pytest.mark.parametrize("blank", ["", "   "])
def test_an_empty_or_blank_hand_is_an_error_not_a_random_hand(blank):
    assert usage_error(run("calc", blank, "JdTd9c8c")) == "Error: " + EMPTY_HAND.format(blank)
    assert usage_error(run("allin", blank, "JdTd9c8c", "--stacks", "10,10")) == "Error: " + EMPTY_HAND.format(blank)
    with pytest.raises(InputError) as error:
        calculate_equity([blank, "JdTd9c8c"], board="2c3d4h")
    assert str(error.value) == EMPTY_HAND.format(blank)
    with pytest.raises(InputError, match="empty hand '' for player 1"):
        calculate_allin([blank.strip(), "JdTd9c8c"], [10, 10])
    assert calculate_equity(["*", "JdTd9c8c"], board="2c3d4hKs5s").hands[0] == "*"  # how a random hand is asked


@pytest.mark.parametrize("option, value, message", [
    ("--trials", str(2**64), "Invalid value for '--trials': 18446744073709551616 is not in the range "
                             "1<=x<=4611686018427387904."),
    ("--trials", "0", "Invalid value for '--trials': 0 is not in the range 1<=x<=4611686018427387904."),
    ("--seed", str(2**64), "Invalid value for '--seed': 18446744073709551616 is not in the range "
                           "0<=x<=18446744073709551615."),
    ("--threads", "0", "Invalid value for '--threads': 0 is not in the range 1<=x<=4096."),
    ("--precision", "nan", "Invalid value for '--precision': 'nan' is not a finite number."),
    ("--precision", "inf", "Invalid value for '--precision': 'inf' is not a finite number."),
    ("--precision", "0", "Invalid value for '--precision': 0.0 is not in the range x>0."),
])
def test_every_number_is_range_checked_at_the_command_line(option, value, message):
    assert usage_error(run("calc", *TWO, option, value)) == "Error: " + message
    assert usage_error(run("allin", *TWO, "--stacks", "10,10", option, value)) == "Error: " + message


@pytest.mark.parametrize("options, message", [
    (dict(trials=2**64), "bad trials 18446744073709551616: expected a whole number 1..2**62"),
    (dict(trials=True), "bad trials True: expected a whole number 1..2**62"),
    (dict(seed=2**64), "bad seed 18446744073709551616: expected a whole number 0..2**64-1"),
    (dict(seed=True), "bad seed True: expected a whole number 0..2**64-1"),
    (dict(seed=1.0), "bad seed 1.0: expected a whole number 0..2**64-1"),
    (dict(threads=1.5), "bad threads 1.5: expected a whole number 1..4096"),
    (dict(threads=0), "bad threads 0: expected a whole number 1..4096"),
    (dict(precision=float("nan")), "bad precision nan: expected a positive number of percentage points"),
    (dict(precision=True), "bad precision True: expected a positive number of percentage points"),
])
def test_every_number_is_range_checked_in_the_api(options, message):
    with pytest.raises(InputError) as error:
        calculate_equity(TWO, board="2c3d4h", **options)
    assert str(error.value) == message
    with pytest.raises(InputError) as error:
        calculate_allin(TWO, [10, 10], board="2c3d4h", **options)
    assert str(error.value) == message


def test_thread_counts_above_the_cores_pass_validation():
    # the work is chunked, so any count gives the same numbers: only non-positive or absurd
    # counts are refused, never a count above this machine's cores
    check_run_options(threads=64, trials=2**62, seed=2**64 - 1, precision=1e-9)
    check_run_options(threads=np.int64(3), seed=np.uint64(2**64 - 1))


@pytest.mark.parametrize("expression, message", [
    ("AA@1e308", "weight '1e308' makes a hand weigh 1e+308 at position 3 in 'AA@1e308': expected every "
                 "hand's weight (the product of the weights around it) from 1e-20 to 1e20"),
    ("(AA@1e15)@1e15", "weight '1e15' makes a hand weigh 1e+30 at position 4 in '(AA@1e15)@1e15': expected every "
                       "hand's weight (the product of the weights around it) from 1e-20 to 1e20"),
    ("(AA@1e-15, KK)@1e-15", "weight '1e-15' makes a hand weigh 1e-30 at position 4 in '(AA@1e-15, KK)@1e-15': "
                           "expected every hand's weight (the product of the weights around it) from 1e-20 to 1e20"),
    ("(AA@1e200)@1e200", "weight '1e200' makes a hand weigh 1e+200 at position 11 in '(AA@1e200)@1e200': "
                         "expected every hand's weight (the product of the weights around it) from 1e-20 to 1e20"),
    ("AA@1e-320", "weight '1e-320' makes a hand weigh about 1e-320 at position 3 in 'AA@1e-320': expected every "
                  "hand's weight (the product of the weights around it) from 1e-20 to 1e20"),
])
def test_weights_stay_bounded_or_the_range_is_refused(expression, message):
    with pytest.raises(InputError) as error:
        parse_range(expression)
    assert str(error.value) == message
    # at the bounds, and exact: (AA@0.1)@3 weighs 0.3, not 0.30000000000000004
    assert set(parse_range("(AA@1e10)@1e10, KK@1e-20").weights.tolist()) == {1e20, 1e-20}
    assert set(parse_range("(AA@0.1)@3, KK").weights.tolist()) == {0.3, 1.0}


@pytest.mark.parametrize("expression, message", [
    ("²²", "unknown character '²' at position 0 in '²²'"),
    ("１５%", "unknown character '１' at position 0 in '１５%'"),
    ("AA@１", "unknown character '１' at position 3 in 'AA@１'"),
    ("AAé", "unknown character 'é' at position 2 in 'AAé'"),
    ("٢٢", "unknown character '٢' at position 0 in '٢٢'"),
])
def test_only_the_grammars_ascii_digits_and_letters_are_read(expression, message):
    with pytest.raises(InputError) as error:
        parse_range(expression)
    assert str(error.value).startswith(message + ": expected")
    assert usage_error(run("range", expression)).startswith("Error: " + message)
    # the README grammar's number has an exponent, in percents as in weights
    assert np.array_equal(parse_range("1e1%").hands, parse_range("10%").hands)
    assert np.array_equal(parse_range("5E0%-1e1%").hands, parse_range("5%-10%").hands)
    with pytest.raises(InputError, match="unknown card 'Ａs': expected a rank"):
        parse_cards("Ａs")  # cards too: a fullwidth letter is no ace
    # suit symbols stay, as the README says
    assert parse_range("A♠K♠Q♥J♥").hands.tolist() == [list(parse_cards("AsKsQhJh"))]


def test_long_echoes_are_shortened_in_every_error():
    huge = "A" * 100_000 + ")"
    with pytest.raises(InputError) as error:
        parse_range(huge)
    message = str(error.value)
    assert message == ("unexpected ')' at position 100000 in …'" + "A" * 59 + ")' (100,001 characters): "
                       "it closes no '('")
    result = run("calc", "Zz" * 50_000, "JdTd9c8c")
    line = usage_error(result)
    assert len(line) < 300 and "(100,000 characters)" in line
    with pytest.raises(InputError) as error:
        parse_cards("As" + "x" * 100_000)
    assert len(str(error.value)) < 300 and "(100,002 characters)" in str(error.value)
    with pytest.raises(InputError) as error:
        get_game("omaha" * 10_000)
    assert str(error.value).startswith("unknown game '" + ("omaha" * 12) + "'… (50,000 characters): expected one of")
    assert quoted("short") == "'short'"


def test_ranges_that_cannot_all_be_dealt_are_impossible_not_almost():
    impossible = "Error: no deal is possible: the ranges of players 1, 2 and 3 need at least 6 aces between them, " \
                 "and only 4 are left"
    assert usage_error(run("calc", "AA", "AA", "AA")) == impossible
    assert usage_error(run("allin", "AA", "AA", "AA", "--stacks", "1,2,3")) == impossible
    with pytest.raises(InputError) as error:
        calculate_equity(["ssss", "ssss", "ssss", "ssss"])
    assert str(error.value) == ("no deal is possible: the ranges of players 1, 2, 3 and 4 need at least 16 spades "
                                "between them, and only 13 are left")
    # no count explains this one: every hand of player 2 shares a card with every hand of player 1
    with pytest.raises(InputError) as error:
        calculate_equity(["AsKd2c3c,AsKs2c3c", "AsQh4c5c,KdKs4c5c"])
    assert str(error.value) == "no deal is possible: every combination of the players' hands shares a card"
    # a possible deal, however rare, is not refused
    assert calculate_equity(["AA", "AA", "KK"], trials=1000, seed=1).sample_count == 1000


@pytest.mark.parametrize("call, message", [
    (lambda: calculate_equity(hand for hand in TWO),
     "expected a list of hands, one per player (e.g. ['AsAhKsKh', 'JdTd9c8c']), got a generator"),
    (lambda: calculate_allin((hand for hand in TWO), [10, 10]),
     "expected a list of hands, one per player (e.g. ['AsAhKsKh', 'JdTd9c8c']), got a generator"),
    (lambda: equity_by_street((hand for hand in TWO), board="2c3d4h"),
     "expected a list of hands, one per player (e.g. ['AsAhKsKh', 'JdTd9c8c']), got a generator"),
    (lambda: next_card_equity((hand for hand in TWO), board="2c3d4h"),
     "expected a list of hands, one per player (e.g. ['AsAhKsKh', 'JdTd9c8c']), got a generator"),
    (lambda: calculate_equity(TWO, threads=1.5), "bad threads 1.5: expected a whole number 1..4096"),
    (lambda: next_card_equity(TWO, board="2c3d4h", threads=True), "bad threads True: expected a whole number 1..4096"),
    (lambda: equity_distribution("AsAhKsKh", "AA", board="2c3d4h", threads=0),
     "bad threads 0: expected a whole number 1..4096"),
    (lambda: parse_range(["AA"]), "expected a range expression as text, such as 'AA:$ds', got ['AA']"),
    (lambda: get_game(None), "bad game None: expected a game name such as 'omaha' or 'omaha8', or a Game"),
    (lambda: calculate_equity(TWO, trials=10, seed=True), "bad seed True: expected a whole number 0..2**64-1"),
    (lambda: get_game("binglao", 3.0), "bad die roll 3.0 for binglao: expected a whole number 1..6"),
    (lambda: get_game("binglao", True), "bad die roll True for binglao: expected a whole number 1..6"),
    (lambda: calculate_equity(TWO, game="binglao", die=3.0),
     "bad die roll 3.0 for binglao: expected a whole number 1..6"),
])
def test_python_api_mistakes_are_input_errors(call, message):
    with pytest.raises(InputError) as error:
        call()
    assert str(error.value) == message
    assert get_game("binglao", np.int64(3)).hole_count == 6


def _weighted_list(count: int, seed: int) -> tuple[str, dict]:
    rng = random.Random(seed)
    weights: dict = {}
    while len(weights) < count:
        hand = format_cards(sorted(rng.sample(range(52), 4), reverse=True))
        weights.setdefault(hand, rng.choice(["0.5", "2", "0.25", "3"]))
    return ",".join(f"{hand}@{weight}" for hand, weight in weights.items()), weights


def test_long_lists_and_chains_parse_to_the_right_hands():
    # about 20 KB each; the timing of 100 KB inputs is in benchmarks/bench.py --only-parse
    text, weights = _weighted_list(1_600, seed=9)
    assert len(text) > 19_000
    hand_range = parse_range(text)
    assert hand_range.size == 1_600
    got = {format_cards(hand): weight for hand, weight in zip(hand_range.hands.tolist(), hand_range.weights.tolist())}
    assert got == {hand: float(weight) for hand, weight in weights.items()}
    # a hand listed twice takes the larger weight; an unweighted part of the union counts 1
    both = parse_range(text + ",AsAhKsKh@5,AsAhKsKh@7,KK@0.5")
    assert both.weights[both.hands.tolist().index(list(parse_cards("AsAhKsKh")))] == 7.0
    kings = {tuple(hand) for hand in parse_range("KK").hands.tolist()}
    listed = {parse_cards(hand) for hand in [*weights, "AsAhKsKh"]}
    assert both.size == len(kings | listed)
    chain = "*" + "!AsKsQhJh!AhKhQdJd" * 1_100
    assert len(chain) > 19_000 and parse_range(chain).size == 270_725 - 2
    assert parse_range(":".join(["AA"] * 6_600) + ":$ds").size == parse_range("AA:$ds").size


def test_a_list_of_written_hands_means_what_its_patterns_mean(monkeypatch):
    # the same union read as one list (a set atom) and as separate patterns: same hands, same weights
    # (written hands, partial hands, and patterns of written ranks such as AKQ* or T9s8)
    from omaha_equity.ranges import hand_lists, hand_range

    expression = ("(AsAhKsKh@2, AsAh, KdKc2s@0.5, Qh7d6s5s@3, QhJh@0.25, Tc9c8c7c, 9s8s@2, AsAhKsKh@0.5, "
                  "2c3c4c5c@1.5, AKQ*@1.25, T9s8, 77@0.1):*!JJ, AA@0.75")

    def read(min_items):
        monkeypatch.setattr(hand_lists, "MIN_LIST_ITEMS", min_items)
        hand_range._program.cache_clear()
        return parse_range(expression, excluded="Td")

    listed, separate = read(2), read(10**9)
    hand_range._program.cache_clear()
    assert listed.size == separate.size > 8_000
    assert np.array_equal(listed.hands, separate.hands)
    assert np.array_equal(listed.weights, separate.weights)
    assert set(listed.weights.tolist()) == {0.1, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0}


def test_read_hand_takes_card_text_and_names_a_bad_card():
    from omaha_equity import read_hand

    assert read_hand("2d2h9d9h", "9c2cKd", False).high.description == "three nines, K-2 kickers"
    assert read_hand("2d2h9d9h", "9c2cKd", False) == read_hand(parse_cards("2d2h9d9h"), parse_cards("9c2cKd"), False)
    for hole, board, message in (("2d2h9d9x", "9c2cKd", "unknown card '9x'"),
                                 ("2d2h9d9h", "9c2c2d", "duplicate card 2d in hand and board")):
        with pytest.raises(InputError, match=message):
            read_hand(hole, board, False)
