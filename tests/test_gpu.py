"""The GPU backend in numba's CUDA simulator (no GPU needed): exact enumeration gives the CPU's
results exactly, Monte Carlo agrees within 4 standard errors, is reproducible with a seed and
does not depend on the launch shape; ``--device gpu`` without a GPU is one line, exit 2.

The simulator runs every GPU thread as a Python thread, so the spots are tiny (a turn or a river,
a few hundred trials). It must be chosen before ``numba.cuda`` is first imported in the process:
this module sets numba's setting at import (no other test imports ``numba.cuda``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from numba.core import config

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


def test_the_simulator_stands_in_for_a_gpu():
    assert gpu_kind() == GpuKind.SIMULATOR
    assert runs_on_gpu("gpu", 1)
    assert not runs_on_gpu("auto", 10**12)  # auto never picks the simulator
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
