"""The equity calculator: exact enumeration against the reference evaluator, Monte Carlo
reproducibility and accuracy, the exact-or-Monte-Carlo rule, and input errors."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from math import comb

import numba
import pytest

import naive
from omaha_equity.cards import format_card, format_cards
from omaha_equity.equity import plan
from omaha_equity.equity.calculate import calculate_equity
from omaha_equity.errors import InputError
from omaha_equity.evaluate.showdown import read_showdown
from omaha_equity.games import GAMES, get_game

GAME_BY_FAMILY = {
    (4, False): "omaha", (4, True): "omaha8",
    (5, False): "omaha5", (5, True): "omaha5-8",
    (6, False): "omaha6", (6, True): "omaha6-8",
}
TURN_SPOTS = 30
FLOP_SPOTS = 10
LOW_RANKS = {12, 0, 1, 2, 3, 4, 5, 6}

# ---------------------------------------------------------------------------------------------
# (a) exact enumeration agrees with naive.enumerate_equity
# ---------------------------------------------------------------------------------------------


def skewed_order(rng: random.Random, mode: str) -> list[int]:
    """The deck in a random order that deals some kinds of cards first (weighted sampling
    without replacement): uniform, few ranks (pairs, full houses, ties), two suits (flushes),
    or low cards (lows, low ties, quartered pots)."""
    if mode == "few-ranks":
        ranks = set(rng.sample(range(13), 6))
        weight = {card: 15.0 if card // 4 in ranks else 1.0 for card in range(52)}
    elif mode == "two-suits":
        suits = set(rng.sample(range(4), 2))
        weight = {card: 10.0 if card % 4 in suits else 1.0 for card in range(52)}
    elif mode == "low":
        weight = {card: 8.0 if card // 4 in LOW_RANKS else 1.0 for card in range(52)}
    else:
        weight = {card: 1.0 for card in range(52)}
    return sorted(range(52), key=lambda card: rng.random() ** (1.0 / weight[card]), reverse=True)


def make_spot(seed: int, hole_count: int, hilo: bool, board_count: int):
    """A seeded random spot: 2-4 players' hands, the known board and some dead cards.

    Flop spots get dead cards until 16-24 cards are left to deal from (120-276 boards), which
    keeps the reference evaluator quick and exercises dead cards; turn spots get 0-3."""
    rng = random.Random(seed)
    player_count = rng.randint(2, 4)
    mode = rng.choice(("uniform", "uniform", "few-ranks", "two-suits", "low" if hilo else "uniform"))
    deck = skewed_order(rng, mode)
    # the skew decides which cards are dealt, not who gets them
    dealt = deck[:player_count * hole_count + board_count]
    rng.shuffle(dealt)
    hands = [dealt[player * hole_count:(player + 1) * hole_count] for player in range(player_count)]
    board = dealt[player_count * hole_count:]
    rest = deck[len(dealt):]
    rng.shuffle(rest)
    if board_count == 3:
        dead_count = max(0, len(rest) - rng.randint(16, 24))
    else:
        dead_count = rng.randint(0, 3)
    return hands, board, rest[:dead_count]


def spot_params():
    params = []
    for (hole_count, hilo), game in GAME_BY_FAMILY.items():
        for street, board_count, count in (("turn", 4, TURN_SPOTS), ("flop", 3, FLOP_SPOTS)):
            for index in range(count):
                seed = hole_count * 10_000 + hilo * 1000 + board_count * 100 + index
                params.append(pytest.param(seed, hole_count, hilo, board_count, id=f"{game}-{street}-{index}"))
    return params


@pytest.mark.parametrize("seed, hole_count, hilo, board_count", spot_params())
def test_exact_equity_agrees_with_naive_enumeration(seed, hole_count, hilo, board_count):
    hands, board, dead = make_spot(seed, hole_count, hilo, board_count)
    game = GAME_BY_FAMILY[hole_count, hilo]
    result = calculate_equity([format_cards(hand) for hand in hands], format_cards(board),
                              format_cards(dead), game)
    expected = naive.enumerate_equity(hands, board, dead, hilo=hilo)
    assert result.method == "exact"
    assert result.sample_count == expected["boards"] == comb(52 - len(hands) * hole_count - len(board) - len(dead),
                                                             5 - len(board))
    for index, player in enumerate(result.players):
        assert player.equity_fraction == expected["equity"][index], index
        assert player.equity == pytest.approx(float(expected["equity"][index]), abs=1e-12)
        assert player.sample_count == expected["boards"]
        assert player.hi_win_count == expected["win_hi"][index], index
        assert player.hi_tie_count == expected["tie_hi"][index], index
        assert player.lo_win_count == expected["win_lo"][index], index
        assert player.lo_tie_count == expected["tie_lo"][index], index
        assert player.scoop_count == player.win_count == expected["scoop"][index], index
        assert player.quartered_count == expected["quartered"][index], index
        assert player.has_low_count == expected["has_low"][index], index
        assert player.tie_count == expected["tie"][index] and player.split_count == expected["split"][index], index
        assert player.equity_low_fraction == expected["equity_low"][index], index
        assert player.equity_high_fraction + player.equity_low_fraction == player.equity_fraction, index
    assert result.low_board_count == expected["low_boards"]
    assert sum(player.equity_fraction for player in result.players) == 1


@pytest.mark.parametrize("player_count", [6, 7, 11])
def test_many_players_agree_with_naive_enumeration_whichever_kernel_serves_them(player_count):
    """Fixed hands are tallied by outcome (who wins each half) when the outcome key fits
    (hi/lo up to 6 players); 7 or more hi/lo players go to the list kernel, each hand a list
    of one. Both must give the reference's numbers; 11 players is the high-only limit."""
    hilo = player_count < 11
    rng = random.Random(player_count)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[4 * player:4 * player + 4] for player in range(player_count)]
    board = deck[4 * player_count:4 * player_count + 3]
    dead = deck[4 * player_count + 3:4 * player_count + 3 + max(0, 49 - 4 * player_count - 3 - 14)]
    result = calculate_equity([format_cards(hand) for hand in hands], format_cards(board), format_cards(dead),
                              "omaha8" if hilo else "omaha")
    expected = naive.enumerate_equity(hands, board, dead, hilo=hilo)
    assert result.method == "exact" and result.sample_count == expected["boards"] and result.hand_combinations == 1
    for index, player in enumerate(result.players):
        assert player.equity_fraction == expected["equity"][index], index
        assert (player.hi_win_count, player.hi_tie_count, player.lo_win_count, player.lo_tie_count) == (
            expected["win_hi"][index], expected["tie_hi"][index], expected["win_lo"][index], expected["tie_lo"][index])
        assert (player.scoop_count, player.tie_count, player.split_count, player.quartered_count) == (
            expected["scoop"][index], expected["tie"][index], expected["split"][index], expected["quartered"][index])
        assert player.has_low_count == expected["has_low"][index]
    assert result.low_board_count == expected["low_boards"]


@pytest.mark.parametrize("street, board_count", [("turn", 4), ("flop", 3)])
def test_naive_spots_cover_ties_lows_and_quartered_pots(street, board_count):
    """Guard on the random spots: they hold high ties, low ties, quartered pots, dead cards and
    boards with and without a low, so the comparison above tests those paths. (Counted with
    the kernel, which the comparison shows equal to the reference.)"""
    seen = {"tie_hi": 0, "tie_lo": 0, "quartered": 0, "low_board": 0, "no_low_board": 0, "dead": 0,
            "players-2": 0, "players-3": 0, "players-4": 0}
    for param in spot_params():
        seed, hole_count, hilo, spot_board_count = param.values
        if spot_board_count != board_count:
            continue
        hands, board, dead = make_spot(seed, hole_count, hilo, board_count)
        result = calculate_equity(hands, board, dead, GAME_BY_FAMILY[hole_count, hilo])
        seen["tie_hi"] += sum(player.hi_tie_count for player in result.players)
        seen["tie_lo"] += sum(player.lo_tie_count for player in result.players)
        seen["quartered"] += sum(player.quartered_count for player in result.players)
        seen["dead"] += len(dead)
        seen[f"players-{len(hands)}"] += 1
        if hilo:
            seen["low_board"] += result.low_board_count
            seen["no_low_board"] += result.sample_count - result.low_board_count
    assert all(count > 0 for count in seen.values()), seen


# ---------------------------------------------------------------------------------------------
# (b) Monte Carlo
# ---------------------------------------------------------------------------------------------

HI_LO_FLOP = (["As2sKdQd", "Ah3h9c9d"], "4c5d8h", "omaha8", [Fraction(423, 656), Fraction(233, 656)])
THREE_WAY_FLOP = (["AsAhKsKh", "JdTd9c8c", "6h5h4c3c"], "Qd7h2s", "omaha",
                  [Fraction(151, 222), Fraction(68, 333), Fraction(77, 666)])


def monte_carlo(spot, **options):
    hands, board, game, _ = spot
    return calculate_equity(hands, board, game=game, method="monte-carlo", **options)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two numba threads")
def test_monte_carlo_same_seed_same_result_for_any_thread_count():
    one = monte_carlo(HI_LO_FLOP, seed=12345, trials=300_000, threads=1)
    two = monte_carlo(HI_LO_FLOP, seed=12345, trials=300_000, threads=2)
    assert one.method == two.method == "monte-carlo"
    assert one.seed == two.seed == 12345
    assert one.sample_count == two.sample_count == 300_000
    assert one.players == two.players
    assert one.low_board_count == two.low_board_count
    assert monte_carlo(HI_LO_FLOP, seed=12345, trials=300_000).players == one.players  # default threads


def test_monte_carlo_different_seeds_give_different_numbers():
    first = monte_carlo(THREE_WAY_FLOP, seed=1, trials=50_000)
    second = monte_carlo(THREE_WAY_FLOP, seed=2, trials=50_000)
    assert [p.equity for p in first.players] != [p.equity for p in second.players]
    assert [p.hi_win_count for p in first.players] != [p.hi_win_count for p in second.players]


def test_monte_carlo_without_seed_reports_the_seed_it_drew():
    result = monte_carlo(THREE_WAY_FLOP, trials=20_000)
    assert isinstance(result.seed, int) and 0 <= result.seed < 2**64
    again = monte_carlo(THREE_WAY_FLOP, trials=20_000, seed=result.seed)
    assert again.players == result.players


@pytest.mark.parametrize("spot", [HI_LO_FLOP, THREE_WAY_FLOP], ids=["omaha8-flop", "omaha-3way-flop"])
def test_monte_carlo_is_within_four_standard_errors_of_exact(spot):
    exact = calculate_equity(spot[0], spot[1], game=spot[2])
    assert [p.equity_fraction for p in exact.players] == spot[3]
    estimate = monte_carlo(spot, seed=2024, trials=400_000)
    assert estimate.sample_count == 400_000
    for exact_player, player in zip(exact.players, estimate.players):
        assert player.equity_fraction is None
        # the standard error of a share in [0, 1] is at most 0.5 / sqrt(n), and not zero here
        assert 0 < player.standard_error <= 0.5 / 400_000 ** 0.5
        assert abs(player.equity - float(exact_player.equity_fraction)) < 4 * player.standard_error
        assert abs(player.hi_win - exact_player.hi_win) < 0.01
    assert sum(p.equity for p in estimate.players) == pytest.approx(1.0, abs=1e-12)


def test_monte_carlo_on_a_complete_board_is_the_showdown():
    hands, board = ["Ah 2c Kd 9d", "Ac 2d Th 8h"], "7d 4c 3h Ks Jh"  # OM-13: 3/4 and 1/4
    result = calculate_equity(hands, board, game="omaha8", method="monte-carlo", seed=5, trials=1000)
    assert [p.equity for p in result.players] == [0.75, 0.25]
    assert [p.quartered_count for p in result.players] == [0, 1000]
    assert [float(share) for share in read_showdown(hands, board, "omaha8").shares] == [0.75, 0.25]


def test_precision_stops_early_below_the_target():
    cap = 30_000_000
    result = monte_carlo(HI_LO_FLOP, seed=7, trials=cap, precision=0.25)
    assert result.sample_count < cap
    assert all(player.standard_error * 100 < 0.25 for player in result.players)
    assert all(player.sample_count == result.sample_count for player in result.players)


def test_precision_out_of_reach_samples_up_to_the_cap():
    result = monte_carlo(HI_LO_FLOP, seed=7, trials=100_000, precision=0.001)
    assert result.sample_count == 100_000
    assert all(player.standard_error * 100 > 0.001 for player in result.players)


# ---------------------------------------------------------------------------------------------
# (c) exact or Monte Carlo
# ---------------------------------------------------------------------------------------------


def test_choose_method_work_budget_rule():
    budget = plan.EXACT_WORK_BUDGET
    assert plan.choose_method("auto", budget) == "exact"
    assert plan.choose_method("auto", budget + 1) == "monte-carlo"
    assert plan.choose_method("exact", 10 * budget) == "exact"
    assert plan.choose_method("monte-carlo", 1) == "monte-carlo"
    assert plan.choose_method("auto", 1, sampling_asked=True) == "monte-carlo"
    with pytest.raises(InputError, match="apply to Monte Carlo"):
        plan.choose_method("exact", 1, sampling_asked=True)
    with pytest.raises(InputError, match="unknown method 'fast'"):
        plan.choose_method("fast", 1)


def test_board_completions():
    assert plan.board_completions(44, 0) == 1_086_008
    assert plan.board_completions(41, 3) == 820
    assert plan.board_completions(40, 4) == 40
    assert plan.board_completions(36, 5) == 1


def test_auto_is_exact_for_every_query_with_fixed_hands():
    """Known hole cards: every game, player count and board size fits the exact budget."""
    games = list(GAMES.values()) + [get_game("binglao", die) for die in range(1, 7)]
    for game in games:
        for player_count in range(2, game.max_players + 1):
            for board_count in range(6):
                undealt = 52 - player_count * game.hole_count - board_count
                completions = plan.board_completions(undealt, board_count)
                assert plan.choose_method("auto", completions * player_count) == "exact", (game.name, player_count)
    # the largest such query, heads-up preflop, really runs exact by default
    result = calculate_equity(["AsAhKsKh", "JdTd9c8c"])
    assert result.method == "exact" and result.sample_count == 1_086_008 and result.seed is None


# ---------------------------------------------------------------------------------------------
# (d) bad input
# ---------------------------------------------------------------------------------------------

TWO = ["AsKsQsJs", "2c3c4c5c"]
TWELVE = ["".join(format_card(card) for card in range(4 * player, 4 * player + 4)) for player in range(12)]

BAD_INPUTS = [
    ("unknown-card-Ax", dict(hands=TWO, board="AxKdQd"), "unknown card 'Ax' in 'AxKdQd'"),
    ("unknown-rank-1", dict(hands=["1sKsQsJs", "2c3c4c5c"]), "unknown rank '1' at position 0 in '1sKsQsJs'"),
    ("unknown-card-Zz", dict(hands=TWO, board="Zz7d8h"), "unknown card 'Zz' in 'Zz7d8h'"),
    ("unknown-dead-card", dict(hands=TWO, dead="Qq"), "unknown card 'Qq'"),
    ("duplicate-in-hand", dict(hands=["AsAsQsJs", "2c3c4c5c"]), "duplicate card As in player 1"),
    ("duplicate-between-hands", dict(hands=["AsKsQsJs", "2c3c4cAs"]), "duplicate card As in player 1 and player 2"),
    ("duplicate-hand-board", dict(hands=["AsKsQsJs", "Ah3c4c5c"], board="2h7dAh"),
     "duplicate card Ah in player 2 and board"),
    ("duplicate-board-dead", dict(hands=TWO, board="2h7d8h", dead="7d"), "duplicate card 7d in board and dead cards"),
    ("duplicate-hand-dead", dict(hands=TWO, dead="Ks"), "duplicate card Ks in player 1 and dead cards"),
    ("duplicate-in-board", dict(hands=TWO, board="2h7d2h"), "duplicate card 2h in board"),
    ("five-hole-cards", dict(hands=["AsKsQsJs", "2c3c4c5c6c"]),
     "expected 4 hole cards for omaha, got 5 in '2c3c4c5c6c' (player 2)"),
    ("six-cards-in-omaha5", dict(hands=["AsKsQsJsTs9s", "2c3c4c5c6c"], game="omaha5"),
     "expected 5 hole cards for omaha5, got 6"),
    ("six-board-cards", dict(hands=TWO, board="2h7d8h9hTh6h"), "expected at most 5 board cards, got 6"),
    ("one-player", dict(hands=["AsKsQsJs"]), "expected at least 2 players, got 1"),
    ("twelve-players-omaha", dict(hands=TWELVE), "too many players: 12 players x 4 hole cards"),
    ("unknown-game", dict(hands=TWO, game="omaha9"), "unknown game 'omaha9'"),
    ("binglao-without-die", dict(hands=TWO, game="binglao"), "binglao needs the die roll"),
    ("binglao-bad-die", dict(hands=TWO, game="binglao", die=7), "bad die roll 7 for binglao"),
    ("trials-zero", dict(hands=TWO, method="monte-carlo", trials=0), "bad trials 0"),
    ("negative-precision", dict(hands=TWO, method="monte-carlo", precision=-1.0), "bad precision -1.0"),
    ("zero-precision", dict(hands=TWO, method="monte-carlo", precision=0), "bad precision 0"),
    ("unknown-method", dict(hands=TWO, method="bogus"), "unknown method 'bogus'"),
    ("negative-seed", dict(hands=TWO, method="monte-carlo", seed=-1), "bad seed -1"),
    ("no-threads", dict(hands=TWO, threads=0), "bad threads 0"),
    ("one-string-for-all-hands", dict(hands="AsAhKsKh JdTd9c8c"), "expected a list of hands, one per player"),
    ("a-hand-that-is-none", dict(hands=["AsAhKsKh", None]), "expected a list of hands"),
    ("seed-not-a-number", dict(hands=TWO, method="monte-carlo", seed="abc"), "bad seed 'abc'"),
    ("fractional-trials", dict(hands=TWO, trials=2.5), "bad trials 2.5"),
    ("infinite-precision", dict(hands=TWO, precision=float("inf")), "bad precision inf"),
]


@pytest.mark.parametrize("options, message", [pytest.param(o, m, id=i) for i, o, m in BAD_INPUTS])
def test_bad_input_raises_input_error_naming_the_token(options, message):
    with pytest.raises(InputError, match=re.escape(message)):
        calculate_equity(**options)


def test_duplicate_messages_are_exact():
    with pytest.raises(InputError) as error:
        calculate_equity(["AsKsQsJs", "Ah3c4c5c"], "2h7dAh")
    assert str(error.value) == "duplicate card Ah in player 2 and board"
    with pytest.raises(InputError) as error:
        calculate_equity(["AsAsQsJs", "2c3c4c5c"])
    assert str(error.value) == "duplicate card As in player 1"


def test_input_error_is_a_value_error():
    assert issubclass(InputError, ValueError)
    with pytest.raises(ValueError):
        calculate_equity(["AsKsQsJs"])
