"""``make bench-gpu``: our equity on a CUDA GPU against our equity on the CPU with all its cores.

One row per workload: 2 and 6 players, 4, 5 and 6 hole cards, exact enumeration and Monte Carlo
of fixed hands, and Monte Carlo of six 15% ranges. Each cell is a warm run (the kernels compiled
and the tables copied by a first run that is not timed): seconds, the rate (player-boards a
second; deals a second for ranges) and GPU over CPU.

On a machine without a CUDA GPU it prints the one line ``calc --device gpu`` prints and exits
with status 2 (nothing measured). ``--quick`` runs smaller workloads.
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


def main(arguments: list[str]) -> int:
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
