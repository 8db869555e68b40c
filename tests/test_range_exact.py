"""Exact enumeration over ranges combination by combination on the fixed-hand kernel
(``lists.exact._enumerate_by_combination``), the choice of kernel and the work budget and
ceiling sized from the rate of the kernel that runs, and the CLI's progress lines."""

import io

import pytest

import naive
from omaha_equity import InputError, calculate_equity
from omaha_equity.cli.progress import ProgressBar
from omaha_equity.equity import plan
from omaha_equity.equity.lists import exact as range_equity
from omaha_equity.equity.players import seat_players
from omaha_equity.games import get_game
from test_range_equity import brute_force, hands_of

OMAHA = get_game("omaha")


def by_lists(monkeypatch):
    """Run every range enumeration on the list kernel (the reference: it evaluates each hand on
    each board)."""
    monkeypatch.setattr(range_equity, "BY_COMBINATION_MAX_BOARD", -1)


def test_flop_range_by_combination_matches_the_brute_force():
    board = naive.cards("Qd7h2s")
    villain = "AsAhKdKc@3,QsQhJdJc,9s8s7c6c@2,AdKsQcJh"
    result = calculate_equity(["JhTh9d8d", villain], board="Qd7h2s", method="exact")
    assert range_equity.by_combination(2, board, get_game("omaha"))
    expected = brute_force([hands_of("JhTh9d8d"), hands_of(villain)], board)
    assert [player.equity_fraction for player in result.players] == expected
    # AdKsQcJh shares the Jh: three combinations of 820 boards each
    assert result.hand_combinations == 3 and result.sample_count == 3 * 820


@pytest.mark.parametrize("hands, board, dead, game", [
    (["AsAhKsKh", "AA:$ds", "9c8c7d6d"], "Qd7h2s", "", "omaha"),
    (["As2sKdQd", "Ad2d3c4c,Ac2c5d6d@3,Ad2c7s7d", "Ah3h8c"], "Qc7h4s", "Td", "omaha8"),
    (["AsAhKsKh@2,JdTd9c8c@5,QsQdJhTs", "AcKc"], "8h7h2c", "", "omaha"),
    (["AsAhKsKhQd", "KdKcJd", "JsJcTs9s7s,JhJcTh9h7h@2"], "9h8h2c", "", "omaha5-8"),
])
def test_by_combination_gives_the_list_kernels_numbers(monkeypatch, hands, board, dead, game):
    fast = calculate_equity(hands, board, dead, game, method="exact")
    assert range_equity.by_combination(len(hands), naive.cards(board), get_game(game))
    by_lists(monkeypatch)
    reference = calculate_equity(hands, board, dead, game, method="exact")
    assert fast == reference
    assert fast.weight_total > 0 and fast.low_board_count == reference.low_board_count


def test_preflop_range_against_a_hand_counts_every_compatible_combination():
    # AsAhKsKh against the 16 combinations of AdAc with a ten and a nine: each runs the fixed-hand
    # kernel over the 1,086,008 boards of its remaining 44 cards
    result = calculate_equity(["AsAhKsKh", "AdAcT9"], method="exact")
    assert result.hand_combinations == 16 and result.sample_count == 16 * 1_086_008
    fixed = [calculate_equity(["AsAhKsKh", f"AdAcT{ten}9{nine}"]).players[0].equity_fraction
             for ten in "shdc" for nine in "shdc"]
    assert result.players[0].equity_fraction == sum(fixed) / 16


def test_slices_calls_and_threads_do_not_change_the_numbers(monkeypatch):
    query = (["AsAhKsKh@3,JdTd9c8c", "QsQcJcTc,QdQcJsTh@2", "KdKh8s"], "6s7h2c")
    reference = calculate_equity(*query, method="exact", threads=1)
    # tiny slices (a few boards each) and calls of a few units, cut across two threads
    monkeypatch.setattr(range_equity, "SLICE_WORK", 300)
    monkeypatch.setattr(range_equity, "FIRST_CALL_WORK", 2_000)
    for threads in (1, 2):
        assert calculate_equity(*query, method="exact", threads=threads) == reference


def test_turn_river_and_big_hi_lo_deals_stay_on_the_list_kernel():
    omaha, omaha8 = get_game("omaha"), get_game("omaha8")
    assert range_equity.by_combination(2, (), omaha) and range_equity.by_combination(6, (1, 2, 3), omaha8)
    assert not range_equity.by_combination(2, (1, 2, 3, 4), omaha)
    assert not range_equity.by_combination(2, (1, 2, 3, 4, 5), omaha)
    # hi/lo outcome keys of 7 players do not fit the fixed-hand kernel's tally
    assert not range_equity.by_combination(7, (), omaha8) and range_equity.by_combination(11, (), omaha)
    seats_of_two = [None, None]
    assert range_equity.exact_rate(seats_of_two, (), omaha) == plan.EXACT_RATE
    assert range_equity.exact_rate(seats_of_two, (1, 2, 3, 4), omaha) == plan.LIST_EXACT_RATE
    assert range_equity.exact_rate(seats_of_two, (1, 2, 3, 4, 5), omaha) == plan.RIVER_LIST_EXACT_RATE


def test_budget_and_ceiling_follow_the_rate_of_the_kernel():
    assert plan.EXACT_WORK_BUDGET == plan.AUTO_EXACT_SECONDS * plan.EXACT_RATE == 50_000_000
    assert plan.EXACT_WORK_CEILING == plan.EXACT_CEILING_SECONDS * plan.EXACT_RATE == 30_000_000_000
    list_budget = plan.AUTO_EXACT_SECONDS * plan.LIST_EXACT_RATE
    assert plan.choose_method("auto", list_budget, rate=plan.LIST_EXACT_RATE) == "exact"
    assert plan.choose_method("auto", list_budget + 1, rate=plan.LIST_EXACT_RATE) == "monte-carlo"
    assert plan.choose_method("auto", list_budget + 1) == "exact"
    list_ceiling = plan.EXACT_CEILING_SECONDS * plan.LIST_EXACT_RATE
    assert plan.choose_method("exact", list_ceiling, rate=plan.LIST_EXACT_RATE) == "exact"
    with pytest.raises(InputError, match=r"about 2\.4e\+10 player-boards.*ceiling of 2e\+10 \(about 10 minutes\)"):
        plan.choose_method("exact", list_ceiling + 1, rate=plan.LIST_EXACT_RATE)


def test_the_automatic_choice_uses_the_rate_of_the_kernel_that_would_run():
    # on the river a random hand and a partial hand, 91,390 x 40 hands x 3 players (one board
    # each): over the river list kernel's second, under the fixed-hand kernel's budget
    river_hands, river = ["AsAhKsKh", "*", "QsQdJh"], naive.cards("Qc7h2s3c9d")
    work = range_equity.exact_work(seat_players(river_hands, river, (), OMAHA), river, (), OMAHA)
    assert work == 91_390 * 40 * 3
    assert plan.AUTO_EXACT_SECONDS * plan.RIVER_LIST_EXACT_RATE < work < plan.EXACT_WORK_BUDGET
    assert calculate_equity(river_hands, board="Qc7h2s3c9d", seed=1).method == "monte-carlo"
    assert plan.choose_method("auto", work) == "exact"


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_progress_lines_when_stderr_is_not_a_terminal(monkeypatch):
    stderr = io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    clock = FakeClock()
    progress = ProgressBar(enabled=True, terminal=False, clock=clock)
    total = 2_250_000_000
    clock.now += 0.5
    progress(total // 100, total)  # the first call: under a second, nothing
    assert stderr.getvalue() == ""
    clock.now += 0.7
    progress(total // 10, total)
    clock.now += 2.0
    progress(total // 5, total)  # within the few seconds after a line: nothing more
    clock.now += 4.0
    progress(41 * total // 100, total)
    progress(total, total)  # done: nothing
    progress.close()
    # 9% in 0.7 s after the first call, then 40% in 6.7 s
    assert stderr.getvalue().splitlines() == [
        "progress: 10% of 2,250,000,000 deals, 0:07 left",
        "progress: 41% of 2,250,000,000 deals, 0:10 left",
    ]


def test_no_progress_when_quiet_or_done_at_once(monkeypatch):
    stderr = io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    clock = FakeClock()
    quiet = ProgressBar(enabled=False, terminal=False, clock=clock)
    one_call = ProgressBar(enabled=True, terminal=False, clock=clock)
    clock.now += 30
    quiet(1, 10)
    one_call(10, 10)
    assert stderr.getvalue() == ""
