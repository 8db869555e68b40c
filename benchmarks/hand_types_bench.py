"""``calc RANGE HAND -b FLOP --hand-types`` as a whole command (start-up included): a range's final
hand types over its hands x every turn and river. Goal: a few seconds for ``'15%'`` on a flop
(16,494 hands x 990 boards), hi and hi/lo.

Run alone: ``python benchmarks/hand_types_bench.py``; ``bench.py`` prints it in its full run.
"""

from __future__ import annotations

import os
import sys

from small_studies import child_figures

COMMANDS = (["calc", "15%", "AsKsQdJh", "-b", "Qh7d2c", "--hand-types", "-q"],
            ["calc", "15%", "AsKsQdJh", "-b", "Qh7d2c", "-g", "omaha8", "--hand-types", "-q"])
GOAL_SECONDS = 3.0


def hand_types_figures(repeats: int = 3) -> None:
    """Print the best wall and CPU seconds and the peak memory of each command beside the goal."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for arguments in COMMANDS:
        command = [sys.executable, "-m", "omaha_equity", *arguments]
        child_figures(command)  # compiled kernels in place
        runs = [child_figures(command) for _ in range(repeats)]
        wall, cpu = min(run[0] for run in runs), min(run[1] for run in runs)
        peak = max(run[2] for run in runs)
        print(f"{' '.join(arguments)}: {wall:.2f} s wall, {cpu:.2f} s CPU, {peak:.0f} MB peak (load {load:.2f}); "
              f"goal at most {GOAL_SECONDS:g} s: {'met' if wall <= GOAL_SECONDS else 'not met'}")


if __name__ == "__main__":
    hand_types_figures()
