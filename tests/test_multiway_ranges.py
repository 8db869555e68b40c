"""Monte Carlo over ranges with weighted sequential deals (issue 9, section 1), exact range
enumeration in bounded pieces, and Ctrl-C inside the range kernels.

The weighted deals deal each range player from the hands left compatible with the cards already
dealt and weight the deal by the compatible weight left: the answers must agree with exact
enumeration (within a few standard errors), the weighting must matter where a plain sequential
deal would be wrong, and the standard errors must be the spread the estimates really have.
"""

import os
import signal
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from omaha_equity import InputError, calculate_equity
from omaha_equity.equity.lists import exact as range_equity, sampling as range_sampling
from omaha_equity.equity.players import seat_players
from omaha_equity.games import get_game
from omaha_equity.pots import pot_units
from omaha_equity.runtime import threads as kernel_threads

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def weighted_deals(monkeypatch):
    """Deal by weighted sequential draws whatever the pilot would pick."""
    monkeypatch.setattr(range_sampling, "prefer_rejection", lambda *arguments: False)


@pytest.fixture
def redrawn_deals(monkeypatch):
    """Deal by rejection of colliding deals whatever the pilot would pick."""
    monkeypatch.setattr(range_sampling, "prefer_rejection", lambda *arguments: True)


# Player 1 holds AsAhQcQd or 6c6d5c5d; player 2 AsKhKcTd (weight 3) or 9c9d8c8d. On this river
# aces beat nines, and sixes lose to both (trip kings, nines). The deals without a shared card
# are (aces, nines) of weight 1, (sixes, kings) 3, (sixes, nines) 1: player 1 wins 1/5 of the
# weight. Dealing player 1 first and player 2 from what is left *without* weights would give
# aces half the time (player 2 then always holds nines): 1/2.
COLLIDING = ["AsAhQcQd,6c6d5c5d", "AsKhKcTd@3,9c9d8c8d"]
COLLIDING_BOARD = "KsJd7c4h2s"


def test_the_colliding_lists_are_worth_a_fifth_exactly():
    exact = calculate_equity(COLLIDING, board=COLLIDING_BOARD)
    assert exact.method == "exact"
    assert exact.players[0].equity_fraction == Fraction(1, 5)


@pytest.mark.parametrize("deals", ["weighted_deals", "redrawn_deals"])
def test_weighted_and_redrawn_deals_give_the_deals_their_true_weight(deals, request):
    request.getfixturevalue(deals)
    result = calculate_equity(COLLIDING, board=COLLIDING_BOARD, method="monte-carlo", trials=20_000, seed=3)
    first = result.players[0]
    assert abs(first.equity - 0.2) < 4 * first.standard_error
    assert abs(first.equity - 0.5) > 20 * first.standard_error  # an unweighted sequential deal
    assert first.win_count + result.players[1].win_count == result.sample_count  # a river: no ties
    assert first.standard_error > 0


NARROW = ["AAJT:ds", "AQQT:ds", "KTT9:ds"]


def test_three_narrow_colliding_ranges_on_the_turn_match_exact_enumeration(weighted_deals):
    # all four tens are held between the three lists, and two or three aces: most independent
    # draws collide
    players = NARROW
    exact = calculate_equity(players, board="Jc7h2d3s")
    assert exact.method == "exact"
    estimate = calculate_equity(players, board="Jc7h2d3s", method="monte-carlo", trials=60_000, seed=11)
    for guess, truth in zip(estimate.players, exact.players):
        assert abs(guess.equity - truth.equity) < 4 * guess.standard_error
        assert abs(guess.win - truth.win) < 0.02
    assert sum(player.equity for player in estimate.players) == pytest.approx(1.0, abs=1e-9)


def test_three_narrow_colliding_ranges_hi_lo_match_exact_enumeration(weighted_deals):
    players = ["A2KK:ds", "A3QQ:ds", "23JJ:ds"]  # the aces, deuces and threes collide
    exact = calculate_equity(players, board="Tc8h9d5s", game="omaha8")
    assert exact.method == "exact" and 0.3 < exact.low_possible < 0.7  # a low needs one more low card
    estimate = calculate_equity(players, board="Tc8h9d5s", game="omaha8", method="monte-carlo", trials=60_000,
                                seed=4)
    for guess, truth in zip(estimate.players, exact.players):
        assert abs(guess.equity - truth.equity) < 4 * guess.standard_error
        assert abs(guess.lo_win - truth.lo_win) < 0.02 and abs(guess.has_low - truth.has_low) < 0.02
    assert abs(estimate.low_possible - exact.low_possible) < 0.02


def test_six_narrow_ranges_use_weighted_deals_and_are_fair_by_symmetry():
    result = calculate_equity(["15%"] * 6, seed=1, trials=20_000)
    assert result.method == "monte-carlo" and result.sample_count == 20_000
    for player in result.players:  # identical ranges: exactly 1/6 each
        assert abs(player.equity - 1 / 6) < 4 * player.standard_error
    assert sum(player.equity for player in result.players) == pytest.approx(1.0, abs=1e-9)


def test_the_pilot_picks_weighted_deals_for_six_narrow_ranges_and_redraws_for_two_wide_ones():
    picks = {}
    original = range_sampling.prefer_rejection

    def spy(deals, *arguments):
        picks[len(deals.lists.deal_groups)] = original(deals, *arguments)
        return picks[len(deals.lists.deal_groups)]

    range_sampling.prefer_rejection = spy
    try:
        calculate_equity(["15%"] * 6, seed=1, trials=3_000)
        calculate_equity(["50%", "50%"], seed=1, trials=3_000)
    finally:
        range_sampling.prefer_rejection = original
    assert picks == {6: False, 2: True}


def test_standard_errors_are_the_spread_of_the_estimates(weighted_deals):
    # 30 seeds of six 15% ranges (the weights' spread halves the deals' worth): the estimates'
    # spread around 1/6 (exact by symmetry) must match the reported standard errors (errors
    # that ignored the weights would be about 1.4 times too small)
    game = get_game("omaha")
    seats = seat_players(["15%"] * 6, (), (), game)
    units = pot_units(6, False)
    deviations, errors = [], []
    for seed in range(30):
        run = range_sampling.sample_range_equity(seats, (), (), game, units, seed, 6_000)
        assert run.effective_samples < 0.7 * run.deals
        for player, error in enumerate(run.standard_errors(units)):
            deviations.append(run.stats[player, 0] / run.weight_sum / units - 1 / 6)
            errors.append(error)
    spread = np.sqrt(np.mean(np.square(deviations)))
    assert 0.8 < spread / statistics.mean(errors) < 1.25


def test_same_seed_same_numbers_for_any_thread_count():
    players = ["15%"] * 6
    one = calculate_equity(players, seed=7, trials=30_000, threads=1)
    two = calculate_equity(players, seed=7, trials=30_000, threads=2)
    assert one == two
    # a precision target stops at the same deal whatever the threads
    one = calculate_equity(NARROW, board="Jc7h2d3s", precision=0.5, seed=2, threads=1)
    two = calculate_equity(NARROW, board="Jc7h2d3s", precision=0.5, seed=2, threads=2)
    assert one == two and one.sample_count < range_sampling.RANGE_DEALS_PER_CHUNK * range_sampling.CHECK_CHUNKS * 4


def test_ranges_with_no_deal_left_are_an_error_with_weighted_deals(weighted_deals):
    every_pair_collides = ["AsAhKsKh,AsAhKdKc", "AsAdQsQh,AhAcQdQc"]
    with pytest.raises(InputError, match="no deal is possible: every combination of the players' hands shares a card"):
        calculate_equity(every_pair_collides, method="monte-carlo", trials=5_000, seed=1)


def test_progress_is_reported_after_every_call_of_a_monte_carlo_run():
    calls = []
    calculate_equity(["15%"] * 4, seed=1, trials=20_000, progress=lambda done, total: calls.append((done, total)))
    assert len(calls) >= 2
    assert [total for _, total in calls] == [20_000] * len(calls)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls) and calls[-1][0] == 20_000


@pytest.mark.parametrize("unit_work, calls_made", [(1, 16), (300, 8), (500, 4), (40_000, 1)])
def test_exact_enumeration_in_small_pieces_gives_the_same_answer(monkeypatch, unit_work, calls_made):
    # lists of 2, 2 (QdQcJdJc holds the board's Jc) and 4 hands, 36 rivers: units of one
    # combination of hands (2 x 2 x 4 = 16), of hands for the two first lists (4 x 2: the
    # longest list comes first), of one hand of the first list (4), one call for everything
    players = ["AsAhKsKh,AdAcKdKc", "AsQsQhJh,QdQcJdJc,9s9h8s8h@2", "KdKc7s6s,Tc9c8d7d,5s5h4s4h,AhTsTh9d"]
    whole = calculate_equity(players, board="Jc7h2d3s")
    calls = []
    monkeypatch.setattr(range_equity, "UNIT_WORK", unit_work)
    monkeypatch.setattr(kernel_threads, "LIST_CALL_SECONDS", 0.0)  # one unit per call
    pieces = calculate_equity(players, board="Jc7h2d3s", progress=lambda done, total: calls.append((done, total)))
    assert pieces == whole and whole.method == "exact"
    assert calls[-1][0] == calls[-1][1] == 16 * 36 and len(calls) == calls_made
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


INTERRUPTED = """
import sys
from omaha_equity import calculate_equity
started = []
def progress(done, total):
    if not started:
        started.append(done)
        print("running", flush=True)
try:
    calculate_equity({hands!r}, board={board!r}, method={method!r}, seed=1, progress=progress)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
print("finished", flush=True)
"""


@pytest.mark.parametrize("hands, board, method", [
    (["15%"] * 5, "", "monte-carlo"),
    (["AA", "KK"], "2c3d4h5s", "exact"),
])
def test_ctrl_c_in_a_range_kernel_raises_keyboard_interrupt_at_once(hands, board, method):
    script = INTERRUPTED.format(hands=hands, board=board, method=method)
    process = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert process.stdout.readline().strip() == "running"  # inside the kernels now
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        stdout, stderr = process.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert stdout.strip() == "interrupted" and "SystemError" not in stderr
    assert waited < 10  # minutes of work left: the interrupt was served between calls


def test_ctrl_c_in_the_cli_says_aborted():
    # the CLI with a progress hook telling the test when the kernels run
    script = (
        "import sys\n"
        "from omaha_equity.equity import calculate\n"
        "original = calculate.calculate_equity\n"
        "def traced(*arguments, progress=None, **options):\n"
        "    def report(done, total):\n"
        "        print('running', flush=True)\n"
        "    return original(*arguments, progress=report, **options)\n"
        "calculate.calculate_equity = traced\n"
        "from omaha_equity.cli import main\n"
        "sys.argv = ['omaha-equity', 'calc', 'AA', 'KK', '--exact', '-b', '2c3d4h5s', '-q']\n"
        "main()\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert process.stdout.readline().strip() == "running"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130  # not a segfault (-11), not a traceback (1)
    assert "Traceback" not in stderr and "Aborted!" in stderr
