"""The query plan (issue 19 §1): what a query runs, on which kernels, with which seed, trials,
threads and work; shared by equity, all-in and the next-card study."""

from fractions import Fraction
from math import comb

import numba
import pytest

from omaha_equity import calculate_equity
from omaha_equity.cards import _split_tokens, format_cards, parse_card, parse_cards
from omaha_equity.runtime import threads as pieces
from omaha_equity.equity import plan
from omaha_equity.equity.expected_chips import calculate_allin, plan_allin
from omaha_equity.equity.calculate import plan_equity
from omaha_equity.equity.query import RunOptions, seat_query
from omaha_equity.errors import InputError


def _plan(hands, board="", **options):
    game = options.pop("game", "omaha")
    return plan_equity(seat_query(hands, board, "", game, None), RunOptions.checked(**options))[0]


def test_heads_up_preflop_is_exact_on_the_fixed_hand_rows_with_every_board():
    query = _plan(["AsAhKsKh", "JdTd9c8c"], threads=2)
    assert query.method == plan.Method.EXACT and query.exact
    assert query.family == plan.Family.FIXED_HANDS
    assert query.kernels == ("enumerate_boards",)
    assert query.exact_work == comb(44, 5) * 2 == 2_172_016 == query.work
    assert query.seed is None
    assert not query.small and query.kernel_threads == 2


def test_a_river_is_small_work_on_one_thread_whatever_was_asked():
    query = _plan(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c3c", threads=2)
    assert (query.method, query.exact_work, query.small, query.kernel_threads) == (plan.Method.EXACT, 2, True, 1)


def test_ranges_beyond_the_budget_sample_on_the_hand_lists_with_a_drawn_seed():
    query = _plan(["AA", "KK"])
    assert query.method == plan.Method.MONTE_CARLO and query.family == plan.Family.HAND_LISTS
    assert query.kernels == ("sample_ranges",)
    assert query.exact_work > plan.EXACT_WORK_CEILING
    assert query.trials == plan.DEFAULT_TRIALS and query.work == plan.DEFAULT_TRIALS * 2
    assert 0 <= query.seed < 2**63
    assert _plan(["AA", "KK"], seed=7).seed == 7
    assert _plan(["AA", "KK"], precision=0.5).trials == plan.DEFAULT_PRECISION_TRIAL_CAP


def test_an_exact_query_has_no_seed_even_when_one_was_given():
    assert _plan(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", method=plan.Method.EXACT, seed=5).seed is None
    assert calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", seed=5).seed is None


def test_forced_exact_beyond_the_ceiling_is_refused_with_the_estimate():
    with pytest.raises(InputError, match=r"about 1\.1e\+14 player-boards"):
        _plan(["AA", "KK"], method=plan.Method.EXACT)


def test_sums_that_do_not_fit_fall_back_to_monte_carlo_or_refuse_exact():
    assert plan.exact_or_fallback(plan.Method.AUTO, "too big") == plan.Method.MONTE_CARLO
    with pytest.raises(InputError, match="^too big$"):
        plan.exact_or_fallback(plan.Method.EXACT, "too big")
    sampled = plan.plan_query(plan.Method.MONTE_CARLO, 10, 2, family=plan.Family.FIXED_HANDS, kernels=("k",), seed=3)
    assert (sampled.method, sampled.seed, sampled.kernels) == (plan.Method.MONTE_CARLO, 3, ("k",))
    exact = plan.plan_query(plan.Method.EXACT, 10, 2, family=plan.Family.HAND_LISTS, kernels=(), seed=3)
    assert (exact.method, exact.family, exact.seed) == (plan.Method.EXACT, plan.Family.HAND_LISTS, None)


def test_allin_plans_like_equity_and_takes_the_list_kernel_on_a_flop():
    seated = seat_query(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", "", "omaha", None)
    equity_query = plan_equity(seated)[0]
    allin_query, weights = plan_allin(seated, 200)
    assert equity_query.method == allin_query.method == plan.Method.EXACT
    assert equity_query.exact_work == allin_query.exact_work == comb(41, 2) * 2 == 1640
    assert (equity_query.family, allin_query.family) == (plan.Family.FIXED_HANDS, plan.Family.HAND_LISTS)
    assert allin_query.kernels == ("enumerate_allin_ranges",)
    assert len(weights) == 2
    preflop = plan_allin(seat_query(["AsAhKsKh", "JdTd9c8c"], "", "", "omaha", None), 200)[0]
    assert (preflop.family, preflop.kernels) == (plan.Family.FIXED_HANDS, ("enumerate_allin_boards",))


@pytest.mark.parametrize("hands, board", [
    (["AsAhKsKh", "JdTd9c8c"], "Qd7h2s"),
    (["AsAhKsKh", "JdTd9c8c", "8h8d7c6c"], "Qd7h2s5c"),
    (["AsAhKsKh", "KK:$ds"], "Qd7h2s5c"),
])
def test_equity_and_allin_with_equal_stacks_give_the_same_exact_numbers(hands, board):
    equity = calculate_equity(hands, board)
    allin = calculate_allin(hands, [100] * len(hands), board)
    pot = 100 * len(hands)
    assert equity.method == allin.method == plan.Method.EXACT
    assert equity.sample_count == allin.sample_count
    assert [player.equity_fraction * pot for player in equity.players] == [
        player.expected_exact for player in allin.players]


def test_the_same_seed_gives_the_same_numbers_through_the_plan_for_any_thread_count():
    options = dict(trials=70_000, seed=12)
    one = calculate_equity(["AsAhKsKh", "JdTd9c8c"], **options, threads=1)
    two = calculate_equity(["AsAhKsKh", "JdTd9c8c"], **options, threads=2)
    assert one.seed == two.seed == 12
    assert [player.equity for player in one.players] == [player.equity for player in two.players]
    allin_one = calculate_allin(["AsAhKsKh", "QQ"], [100, 100], **options, threads=1)
    allin_two = calculate_allin(["AsAhKsKh", "QQ"], [100, 100], **options, threads=2)
    assert allin_one.expected == allin_two.expected


def test_a_fixed_hand_query_leaves_numbas_thread_setting_alone(monkeypatch):
    before = numba.get_num_threads()

    def refuse(count):
        raise AssertionError("numba.set_num_threads called")

    monkeypatch.setattr(numba, "set_num_threads", refuse)
    result = calculate_equity(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c3c", threads=2)
    assert result.players[0].equity_fraction == Fraction(1)
    assert calculate_equity(["AsAhKsKh", "JdTd9c8c"], trials=70_000, seed=1, threads=1).sample_count == 70_000
    assert numba.get_num_threads() == before


def test_use_threads_sets_and_restores_numbas_setting_and_checks_the_count():
    before = numba.get_num_threads()
    with pieces.use_threads(1):
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    with pieces.use_threads(10_000):
        assert numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS
    with pieces.use_threads(None):
        assert numba.get_num_threads() == before
    with pytest.raises(InputError, match="bad threads 0"):
        with pieces.use_threads(0):
            pass
    assert pieces.threads_to_run(10_000) == numba.config.NUMBA_NUM_THREADS
    assert pieces.threads_to_run(1) == 1


def _slow_parse(text):
    """The general way of ``parse_cards``: tokens, then one card each."""
    return tuple(parse_card(token) for token in _split_tokens(text))


@pytest.mark.parametrize("text", ["AsKsQhJh", "asksqhjh", "ASKSQHJH", "A♠K♠Q♥J♥", "As Ks Qh Jh", "As,Ks,Qh,Jh",
                                  "10sTd", "Ts10d", "A♠\ufe0fK♠\ufe0f", "2c3d4h5s6c7d8h9sTcJdQhKsAc", ""])
def test_cards_written_back_to_back_parse_as_the_general_way_does(text):
    assert parse_cards(text) == _slow_parse(text)


def test_every_card_parses_back_from_its_text():
    texts = [format_cards([card]) for card in range(52)]
    assert [parse_cards(text) for text in texts] == [(card,) for card in range(52)]
    assert parse_cards("".join(texts)) == tuple(range(52))
    assert format_cards(range(52), sort=True) == "".join(reversed(texts))


@pytest.mark.parametrize("text, message", [
    ("AsKx", r"unknown card 'Kx' in 'AsKx'"),
    ("Ax", r"unknown card 'Ax': expected a rank"),
    ("AsAs1", r"unknown card '1' in 'AsAs1'"),
])
def test_bad_cards_are_still_named(text, message):
    with pytest.raises(InputError, match=message):
        parse_cards(text)
