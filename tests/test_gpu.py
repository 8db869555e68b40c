"""The GPU backend in numba's CUDA simulator (no GPU needed): exact enumeration gives the CPU's
results exactly, Monte Carlo agrees within 4 standard errors, is reproducible with a seed and
does not depend on the launch shape; ``--device gpu`` without a GPU is one line, exit 2.

The simulator runs every GPU thread as a Python thread, so the spots are tiny (a turn or a river,
a few hundred trials). With ``OMAHA_EQUITY_GPU_TESTS=device`` the same tests run on a real CUDA
GPU (``scripts/gpu_check.sh``), and are skipped where none is found. It must be chosen before ``numba.cuda`` is first imported in the process:
this module sets numba's setting at import (no other test imports ``numba.cuda``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from numba.core import config

# OMAHA_EQUITY_GPU_TESTS=device runs these tests on a real CUDA GPU instead (scripts/gpu_check.sh)
ON_DEVICE = os.environ.get("OMAHA_EQUITY_GPU_TESTS") == "device"
if not ON_DEVICE:
    if "numba.cuda" in sys.modules and not config.ENABLE_CUDASIM:
        pytest.skip("numba.cuda was imported without the simulator in this process", allow_module_level=True)
    config.ENABLE_CUDASIM = 1  # numba's setting only: the commands other tests start are not changed

from omaha_equity.equity.calculate import equity_result, plan_equity, run_equity  # noqa: E402
from omaha_equity.equity.query import RunOptions, seat_query  # noqa: E402
from omaha_equity.errors import InputError  # noqa: E402
from omaha_equity.gpu.device import NO_GPU_MESSAGE, GpuKind, gpu_kind, runs_on_gpu  # noqa: E402
from omaha_equity.gpu.equity import LaunchShape, run_equity_on_gpu  # noqa: E402
from omaha_equity.pots import pot_units  # noqa: E402

# SplitMix64's wrapping arithmetic, run by the simulator on numpy scalars, warns of overflow
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")


DEFAULT_LAUNCH = LaunchShape()


def on_gpu(hands, board, game="omaha", die=None, launch=DEFAULT_LAUNCH, **options):
    """The result of a query run on the (simulated) GPU, and the seated query."""
    seated = seat_query(hands, board, "", game, die)
    run = RunOptions.checked(options.pop("method", "auto"), **options)
    units = pot_units(seated.player_count, seated.game.hilo)
    query, weights = plan_equity(seated, run, units)
    outputs = run_equity_on_gpu(seated, query, units, weights, run.precision, launch=launch)
    return equity_result(seated, query, units, *outputs), seated


if ON_DEVICE and gpu_kind() != GpuKind.DEVICE:
    pytest.skip("OMAHA_EQUITY_GPU_TESTS=device and no CUDA GPU found", allow_module_level=True)


def test_the_simulator_stands_in_for_a_gpu():
    assert gpu_kind() == (GpuKind.DEVICE if ON_DEVICE else GpuKind.SIMULATOR)
    assert runs_on_gpu("gpu", 1)
    assert runs_on_gpu("auto", 10**12) == ON_DEVICE  # auto never picks the simulator
    assert not runs_on_gpu("cpu", 10**12)


@pytest.mark.parametrize("hands, board, game, die", [
    (["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c", "omaha", None),
    (["AsAh2cKh", "Jd2d3c8c", "6h5h4h4d"], "Qd7h2s5c", "omaha8", None),
    (["AsAh2cKhQc", "Jd2d3c8c9c"], "Qd7h2s5c9h", "omaha5-8", None),
    (["AsAh2cKhQcJs", "Jd2d3c8c9cTd"], "Qd7h2s5c", "omaha6", None),
    (["AsAh2cKhQc", "Jd2d3c8c9c"], "Qd7h2s5c", "courchevel8", None),
    (["AsAh2cKh", "Jd2d3c8c"], "Qd7h2s5c", "binglao", 1),
    (["AsAhKd", "JdTd9c8c"], "Qd7h2s5c9s", "omaha", None),  # a partial hand: 39 hands on the river
])
def test_exact_enumeration_gives_the_cpu_result_exactly(hands, board, game, die):
    gpu, seated = on_gpu(hands, board, game, die, method="exact")
    cpu = run_equity(seated, RunOptions.checked("exact"))
    assert gpu.to_dict() == cpu.to_dict()
    assert [player.equity_fraction for player in gpu.players] == [player.equity_fraction for player in cpu.players]


def test_a_scoop_and_quartered_pots_are_counted_as_on_the_cpu():
    # two players with the same low: each low half quartered
    gpu, seated = on_gpu(["As2dKsKh", "Ac2hQdJh"], "3c4d8s9h", "omaha8", method="exact")
    cpu = run_equity(seated, RunOptions.checked("exact"))
    assert gpu.to_dict() == cpu.to_dict()
    assert gpu.players[0].quartered > 0


def test_monte_carlo_agrees_within_four_standard_errors_and_repeats_with_a_seed():
    exact = on_gpu(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", method="exact")[0]
    sampled = on_gpu(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", trials=400, seed=7)[0]
    assert sampled.sample_count == 400 and sampled.seed == 7
    for exact_player, player in zip(exact.players, sampled.players):
        assert abs(player.equity - exact_player.equity) < 4 * player.standard_error
    again = on_gpu(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", trials=400, seed=7, launch=LaunchShape(3, 5))[0]
    assert again.to_dict() == sampled.to_dict()
    other = on_gpu(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", trials=400, seed=8)[0]
    assert other.equities != sampled.equities


def test_monte_carlo_of_a_range_against_a_hand_agrees_with_exact():
    hands = ["AsAhKsKh", "JsJhTsTh,9s9h8s8h,JdTd9c8c"]
    exact = on_gpu(hands, "Qd7h2s5c", method="exact")[0]
    sampled = on_gpu(hands, "Qd7h2s5c", trials=300, seed=3)[0]
    assert abs(sampled.players[0].equity - exact.players[0].equity) < 4 * sampled.players[0].standard_error
    assert sampled.hand_combinations is None


def test_exact_enumeration_does_not_depend_on_the_launch_shape():
    first = on_gpu(["AsAhKd", "JdTd9c8c"], "Qd7h2s5c", method="exact", launch=LaunchShape(1, 3))[0]
    second = on_gpu(["AsAhKd", "JdTd9c8c"], "Qd7h2s5c", method="exact", launch=LaunchShape(4, 7))[0]
    assert first.to_dict() == second.to_dict()


def test_an_unknown_device_is_refused():
    with pytest.raises(InputError, match="unknown device 'tpu': expected one of cpu, gpu, auto"):
        RunOptions.checked(device="tpu")


def test_device_gpu_without_a_gpu_is_one_line_and_exit_2():
    # a fresh process: numba.cuda here is the simulator; there it is the real one, which finds no GPU
    environment = {name: value for name, value in os.environ.items() if name != "NUMBA_ENABLE_CUDASIM"}
    completed = subprocess.run(
        [sys.executable, "-m", "omaha_equity", "calc", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s5c", "--device", "gpu"],
        capture_output=True, text=True, env=environment)
    if completed.returncode == 0:
        pytest.skip("this machine has a CUDA GPU")
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == f"Error: {NO_GPU_MESSAGE}\n"


def test_long_runs_launch_in_pieces_with_progress_and_stop_on_ctrl_c(monkeypatch):
    from omaha_equity.gpu import equity as gpu_equity

    monkeypatch.setattr(gpu_equity, "FIRST_TRIALS", 50)
    seated = seat_query(["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", "", "omaha", None)
    run = RunOptions.checked(trials=200, seed=5)
    units = pot_units(2, False)
    query, weights = plan_equity(seated, run, units)
    reports = []
    outputs = run_equity_on_gpu(seated, query, units, weights, None, lambda done, total: reports.append((done, total)))
    assert reports[0] == (50, 200) and reports[-1] == (200, 200) and len(reports) >= 2
    assert equity_result(seated, query, units, *outputs).to_dict() == on_gpu(
        ["AsAhKsKh", "JdTd9c8c"], "Qd7h2s", trials=200, seed=5)[0].to_dict()  # pieces change nothing

    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_equity_on_gpu(seated, query, units, weights, None, interrupt)


def test_a_batch_runs_its_queries_on_the_gpu():
    from omaha_equity.batch import run_batch

    rows = [{"hands": "AsAhKsKh|JdTd9c8c", "board": "Qd7h2s5c"}, {"hands": "AsAhKd|JdTd9c8c", "board": "Qd7h2s5c9s"}]
    on_gpu_rows = [outcome.result.to_dict() for outcome in run_batch(rows, workers=1, seed=1, device="gpu")]
    on_cpu_rows = [outcome.result.to_dict() for outcome in run_batch(rows, workers=1, seed=1)]
    assert on_gpu_rows == on_cpu_rows
    with pytest.raises(InputError, match="unknown device 'tpu'"):
        next(run_batch(rows, workers=1, device="tpu"))


# --- all-in chips: who wins each pot tallied on the GPU, paid by the CPU's settlement ---

@pytest.mark.parametrize("hands, committed, board, game, stakes", [
    (["9c9dKsQd", "7c7hAsKd", "JcJd5h6h"], [300, 300, 100], "9s7d2cJh", "omaha", {}),
    (["As2dKsKh", "Ac2hQdJh", "7c7h8d9d"], [500, 200, 350], "3c4d8s9h", "omaha8", {"folded": [100], "pot": 7}),
    (["As2dKsKh", "Ac2hQdJh"], [500, 200], "3c4d8s9h", "omaha8", {"dead_chips": [3, 0]}),
    # five levels of side pots, hi/lo, a dead-chip pot every player may win
    (["As2dKsKh", "Ac2hQdJh", "7c7h8d9d", "3h5h6c6d", "TcTsJcJs"], [100, 200, 300, 400, 500], "3c4d8sKd2s",
     "omaha8", {"dead_chips": [0, 5, 0, 0, 1]}),
    (["AsAhKd", "JdTd9c8c", "KsKcQsQc,KhKcJhJc,8s8h6s6h"], [100, 200, 300], "Qd7h2s5c", "omaha", {}),
])
def test_allin_exact_gives_the_cpu_fractions(hands, committed, board, game, stakes):
    from omaha_equity.equity.expected_chips import calculate_allin

    gpu = calculate_allin(hands, committed, board, game=game, method="exact", device="gpu", **stakes)
    cpu = calculate_allin(hands, committed, board, game=game, method="exact", **stakes)
    assert gpu.to_dict() == cpu.to_dict()
    assert [player.pot_chips_exact for player in gpu.players] == [player.pot_chips_exact for player in cpu.players]


def test_allin_monte_carlo_agrees_within_four_standard_errors_and_repeats_with_a_seed():
    from omaha_equity.equity.expected_chips import AllinStakes, calculate_allin, make_pots, plan_allin
    from omaha_equity.gpu.allin import run_allin_on_gpu

    hands, committed, board = ["As2dKsKh", "Ac2hQdJh", "7c7h8d9d"], [500, 200, 350], "3c4d8s"
    exact = calculate_allin(hands, committed, board, game="omaha8", folded=[100], method="exact")
    sampled = calculate_allin(hands, committed, board, game="omaha8", folded=[100], trials=300, seed=4, device="gpu")
    assert sampled.sample_count == 300 and sampled.seed == 4
    for exact_player, player in zip(exact.players, sampled.players):
        assert abs(player.expected - exact_player.expected) < 4 * player.standard_error
        for chips, exact_chips, error in zip(player.pot_chips, exact_player.pot_chips, player.pot_standard_errors):
            assert abs(chips - exact_chips) <= 4 * error
    # the same numbers on another launch shape; another seed, other numbers
    seated = seat_query(hands, board, "", "omaha8", None)
    pots = make_pots(committed, [100])
    query, weights = plan_allin(seated, sum(pot.amount for pot in pots), RunOptions.checked(trials=300, seed=4))
    deals, _, sums, squares = run_allin_on_gpu(seated, query, pots, weights, launch=LaunchShape(3, 5))
    assert deals == 300
    assert [[chips / 300 for chips in row] for row in sums.T.tolist()] == [list(p.pot_chips) for p in sampled.players]
    assert AllinStakes(tuple(committed), (100,), 0, pots).total_chips == 1150
    other = calculate_allin(hands, committed, board, game="omaha8", folded=[100], trials=300, seed=5, device="gpu")
    assert [p.expected for p in other.players] != [p.expected for p in sampled.players]


def test_allin_pots_the_gpu_cannot_tally_are_refused_or_left_to_the_cpu():
    from omaha_equity.gpu.allin import allin_keys, fits_gpu
    from omaha_equity.gpu.outcome_keys import OutcomeKeys
    from omaha_equity.pots import Pot

    with pytest.raises(InputError, match="not nested"):
        OutcomeKeys.of_pots([0b011, 0b110], False)
    # eleven players, eleven different stacks, hi/lo: billions of outcomes a deal
    pots = [Pot(10, tuple(range(level, 11))) for level in range(10)]
    assert not fits_gpu(pots, True, 11) and fits_gpu(pots, False, 11)
    with pytest.raises(InputError, match="use --device cpu"):
        allin_keys(pots, True, range(11))


def test_outcome_keys_of_one_pot_are_the_equity_keys():
    from omaha_equity.gpu.outcome_keys import OutcomeKeys

    keys = OutcomeKeys.one_pot(3, True)
    assert keys.key_count == 64 and keys.strides().tolist() == [[1], [8]]
    assert keys.winners(0b101_011) == [(0b011, 0b101)]
    # nested: seats {0,1,2} > {1,2} > {2}; a tie of seats 1 and 2 in the middle level's pot
    nested = OutcomeKeys.of_pots([0b111, 0b110, 0b100], False)
    assert nested.level_players == (0b001, 0b010, 0b100) and nested.key_count == 3 * 3 * 2
    middle_ties = 1 * nested.strides()[0, 2] + 2 * nested.strides()[0, 1]  # seat 2 best deepest, seat 1 ties it
    assert nested.winners(int(middle_ties)) == [(0b110, 0), (0b110, 0), (0b100, 0)]


# --- the distribution study by hand: one outcome tally per opponent hand ---

DISTRIBUTION_HANDS = ("AsAhKsKh", "JsJhTsTh,9s9h8s8h,JdTd9c8c")


@pytest.mark.parametrize("by", ["hand", "category"])
def test_distribution_exact_is_the_cpu_result(by):
    from omaha_equity.studies import equity_distribution

    gpu = equity_distribution(*DISTRIBUTION_HANDS, "Qd7h2s5c", method="exact", by=by, device="gpu")
    assert gpu == equity_distribution(*DISTRIBUTION_HANDS, "Qd7h2s5c", method="exact", by=by)
    hilo = equity_distribution("As2dKsKh", "Ac2hQdJh,3h4h5c6c,KdKcQc9c", "3c4d8s9h", game="omaha8", method="exact",
                               device="gpu")
    assert hilo == equity_distribution("As2dKsKh", "Ac2hQdJh,3h4h5c6c,KdKcQc9c", "3c4d8s9h", game="omaha8",
                                       method="exact")


def test_distribution_monte_carlo_agrees_and_repeats_with_a_seed(monkeypatch):
    from omaha_equity.gpu import distribution as gpu_distribution
    from omaha_equity.studies import equity_distribution

    exact = equity_distribution(*DISTRIBUTION_HANDS, "Qd7h2s", method="exact")
    sampled = equity_distribution(*DISTRIBUTION_HANDS, "Qd7h2s", trials=100, seed=3, device="gpu")
    assert sampled.seed == 3 and sampled.trials == 100
    by_label = {item.label: item for item in sampled.items}
    for item in exact.items:
        assert abs(by_label[item.label].equity - item.equity) < 4 * by_label[item.label].standard_error
    monkeypatch.setattr(gpu_distribution, "GPU_HAND_BLOCK", 2)  # hands cut in other blocks: the same boards
    assert equity_distribution(*DISTRIBUTION_HANDS, "Qd7h2s", trials=100, seed=3, device="gpu") == sampled


def test_allin_and_distribution_with_device_gpu_without_a_gpu_are_one_line_and_exit_2():
    environment = {name: value for name, value in os.environ.items() if name != "NUMBA_ENABLE_CUDASIM"}
    for command in (["allin", "AsAhKsKh", "JdTd9c8c", "--stacks", "100,200", "-b", "Qd7h2s5c", "--device", "gpu"],
                    ["distribution", "AsAhKsKh", "JdTd9c8c", "-b", "Qd7h2s5c", "--device", "gpu"]):
        completed = subprocess.run([sys.executable, "-m", "omaha_equity", *command], capture_output=True, text=True,
                                   env=environment)
        if completed.returncode == 0:
            pytest.skip("this machine has a CUDA GPU")
        assert (completed.returncode, completed.stdout, completed.stderr) == (2, "", f"Error: {NO_GPU_MESSAGE}\n")


def test_allin_monte_carlo_of_ranges_and_its_precision_target(monkeypatch):
    from omaha_equity.equity.expected_chips import calculate_allin
    from omaha_equity.gpu import equity as gpu_equity

    hands, committed, board = ["AsAhKd", "JdTd9c8c", "KsKcQsQc,KhKcJhJc"], [100, 200, 300], "Qd7h2s5c"
    exact = calculate_allin(hands, committed, board, method="exact")
    sampled = calculate_allin(hands, committed, board, trials=200, seed=9, device="gpu")
    for exact_player, player in zip(exact.players, sampled.players):
        assert abs(player.expected - exact_player.expected) <= 4 * player.standard_error
    # the target checked every CHECK_TRIALS trials: a loose one stops at the first check
    monkeypatch.setattr(gpu_equity, "CHECK_TRIALS", 64)
    monkeypatch.setattr(gpu_equity, "FIRST_TRIALS", 64)
    loose = calculate_allin(hands, committed, board, trials=640, precision=20, seed=9, device="gpu")
    assert loose.sample_count == 64


def test_the_commands_run_on_the_gpu_and_refuse_it_for_a_board_range():
    from click.testing import CliRunner

    from omaha_equity.cli import main

    for command in (["allin", "AsAhKd", "JdTd9c8c", "--stacks", "100,200", "-b", "Qd7h2s5c", "--exact", "-q"],
                    ["distribution", "AsAhKsKh", "JsJhTsTh,JdTd9c8c", "-b", "Qd7h2s5c", "--exact"]):
        on_cpu = CliRunner().invoke(main, command)
        on_gpu = CliRunner().invoke(main, [*command, "--device", "gpu"])
        assert (on_gpu.exit_code, on_gpu.output) == (0, on_cpu.output)
        board_range = CliRunner().invoke(main, [*command[:command.index("-b") + 1], "AK*", "--device", "gpu"])
        assert board_range.exit_code == 2
        assert "--device applies to a board, not to a board range" in board_range.output
    calc_board_range = CliRunner().invoke(main, ["calc", "AsAhKsKh", "JdTd9c8c", "-b", "AK*", "--device", "gpu"])
    assert calc_board_range.exit_code == 2
    assert "--device applies to a board, not to a board range" in calc_board_range.output
