"""``make bench-gpu``: our equity on a CUDA GPU against our equity on the CPU with all its cores.

One row per workload: 2 and 6 players, 4, 5 and 6 hole cards, exact enumeration and Monte Carlo
of fixed hands, and Monte Carlo of six 15% ranges. Each cell is a warm run (the kernels compiled
and the tables copied by a first run that is not timed): seconds, the rate (player-boards a
second; deals a second for ranges) and GPU over CPU.

On a machine without a CUDA GPU it prints the one line ``calc --device gpu`` prints and exits
with status 2 (nothing measured). ``--quick`` runs smaller workloads.

``--ptx`` needs no GPU (numba-cuda only, ``pip install 'omaha-equity[gpu]'``): it compiles both
kernels to PTX for compute capability 9.0 with the argument types the host passes, the check
that they type and lower on the real CUDA target, not only in the simulator.
"""

from __future__ import annotations

import random
import sys
import time

from tabulate import tabulate

from omaha_equity import calculate_equity
from omaha_equity.cards import format_cards
from omaha_equity.gpu.device import NO_GPU_MESSAGE, GpuKind, describe, gpu_kind

GAMES = {4: "omaha", 5: "omaha5", 6: "omaha6"}


def fixed_hands(player_count: int, hole_count: int) -> list[str]:
    """The same hands every run (a shuffled deck, seed 2026)."""
    deck = list(range(52))
    random.Random(2026).shuffle(deck)
    return [format_cards(deck[player * hole_count:(player + 1) * hole_count]) for player in range(player_count)]


def timed(device: str, hands, game: str, **options) -> tuple[float, object]:
    """Seconds of a warm run (a first, untimed run compiles and copies), and its result."""
    calculate_equity(hands, game=game, device=device, **options)
    started = time.perf_counter()
    result = calculate_equity(hands, game=game, device=device, **options)
    return time.perf_counter() - started, result


def rows(quick: bool):
    trials = 1_000_000 if quick else 100_000_000
    cpu_trials = 1_000_000 if quick else 10_000_000
    for player_count in (2, 6):
        for hole_count in (4, 5, 6):
            hands = fixed_hands(player_count, hole_count)
            game = GAMES[hole_count]
            gpu_seconds, result = timed("gpu", hands, game, method="exact")
            cpu_seconds, _ = timed("cpu", hands, game, method="exact")
            work = result.sample_count * player_count
            yield (f"exact, {player_count} players, {hole_count} cards", f"{result.sample_count:,} boards",
                   gpu_seconds, work / gpu_seconds, cpu_seconds, work / cpu_seconds)
            gpu_seconds, _ = timed("gpu", hands, game, trials=trials, seed=1)
            cpu_seconds, _ = timed("cpu", hands, game, trials=cpu_trials, seed=1)
            yield (f"Monte Carlo, {player_count} players, {hole_count} cards", f"{trials:,} / {cpu_trials:,} boards",
                   gpu_seconds, trials * player_count / gpu_seconds, cpu_seconds,
                   cpu_trials * player_count / cpu_seconds)
    range_trials = 100_000 if quick else 10_000_000
    cpu_range_trials = 100_000 if quick else 1_000_000
    ranges = ["15%"] * 6
    gpu_seconds, _ = timed("gpu", ranges, "omaha", trials=range_trials, seed=1)
    cpu_seconds, _ = timed("cpu", ranges, "omaha", trials=cpu_range_trials, seed=1)
    yield ("Monte Carlo, six 15% ranges (deals/s)", f"{range_trials:,} / {cpu_range_trials:,} deals",
           gpu_seconds, range_trials / gpu_seconds, cpu_seconds, cpu_range_trials / cpu_seconds)


def compile_to_ptx(capability: tuple[int, int] = (9, 0)) -> None:
    """Compile both kernels to PTX for ``capability`` without a GPU, printing their sizes."""
    from numba import types

    from omaha_equity.gpu.device import cuda_module

    cuda = cuda_module()
    import numba.cuda.dispatcher as dispatcher_module

    class TargetDevice:  # device functions are compiled for the current device: this stands in
        compute_capability = capability

    dispatcher_module.get_current_device = lambda: TargetDevice()
    from omaha_equity.gpu import _kernels

    def array(dtype, dimensions):
        return types.Array(dtype, dimensions, "C")

    tables = (array(types.int32, 2),) * 4  # colex, pair_board, pair_flush, low (as int32)
    keys = (array(types.int64, 1), array(types.int64, 2))  # level_masks, level_strides
    outputs = (array(types.int64, 1),) * 3
    exact = (array(types.int8, 2), array(types.int64, 1), array(types.int64, 1), array(types.int64, 1), types.int64,
             array(types.int8, 1), *tables, types.boolean, *keys, array(types.int64, 2), types.int64, types.int64,
             types.int64, types.int64, types.uint64, types.int64, types.int64, *outputs)
    sampled = (array(types.int8, 2), array(types.int64, 1), array(types.int64, 1), array(types.float64, 1),
               array(types.int64, 1), array(types.int8, 2), array(types.int64, 1), array(types.int64, 1), types.int64,
               array(types.int8, 1), *tables, types.boolean, *keys, types.uint64, types.int64, types.int64, *outputs)
    for kernel, signature in ((_kernels.enumerate_lists, exact), (_kernels.sample_deals, sampled)):
        ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=capability)
        print(f"{kernel.py_func.__name__}: {len(ptx):,} characters of PTX for compute capability "
              f"{capability[0]}.{capability[1]}")


def main(arguments: list[str]) -> int:
    if "--ptx" in arguments:
        compile_to_ptx()
        return 0
    if gpu_kind() != GpuKind.DEVICE:
        print(NO_GPU_MESSAGE if gpu_kind() == GpuKind.NONE else "the CUDA simulator is no GPU to measure: "
              "unset NUMBA_ENABLE_CUDASIM")
        return 2
    quick = "--quick" in arguments
    print(f"GPU: {describe()}")
    table = [(name, size, f"{gpu_seconds:.4f}", f"{gpu_rate / 1e6:,.1f} M", f"{cpu_seconds:.4f}",
              f"{cpu_rate / 1e6:,.1f} M", f"{gpu_rate / cpu_rate:.1f}x")
             for name, size, gpu_seconds, gpu_rate, cpu_seconds, cpu_rate in rows(quick)]
    print(tabulate(table, headers=["workload", "size (GPU / CPU)", "GPU s", "GPU player-boards/s", "CPU s",
                                   "CPU player-boards/s", "GPU / CPU"], disable_numparse=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
