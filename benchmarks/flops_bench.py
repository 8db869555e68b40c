"""Every flop's speed figures (docs/flops.md): ``flops '15%'`` (the range's composition on the
1,755 flop classes; goal 60 s on two cores) and ``flops '15%' --vs AsKsQdJh`` (with equity;
goal 3 minutes), each as a whole command in a fresh process, after a small warm-up run that
compiles and caches the kernels: wall seconds, CPU seconds (user and system, every thread) and
peak resident memory (goal 500 MB each), beside the goals, with the machine's load.

Run: python benchmarks/flops_bench.py (a few minutes: each command once)."""

from __future__ import annotations

import os
import sys

from small_studies import child_figures

# (arguments, wall-seconds goal) of each figure; memory goal for each.
WORKLOADS = (
    (["flops", "15%"], 60.0),
    (["flops", "15%", "--vs", "AsKsQdJh", "--seed", "1"], 180.0),
)
MEMORY_GOAL_MEGABYTES = 500


def run_command(arguments: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak resident MB) of ``omaha-equity ARGUMENTS -f csv`` in a
    fresh process, its output discarded (``small_studies.child_figures``: the child's own
    ``rusage``, started from a small launcher so that the peak is its own)."""
    return child_figures([sys.executable, "-m", "omaha_equity", *arguments, "-f", "csv"])


def main() -> None:
    run_command(["flops", "AA", "-b", "AK*", "--vs", "KK", "--trials", "100"])  # compile and cache the kernels
    for arguments, goal in WORKLOADS:
        load = os.getloadavg()[0]
        wall, cpu, megabytes = run_command(arguments)
        verdict = "within" if wall <= goal and megabytes <= MEMORY_GOAL_MEGABYTES else "over"
        print(f"{' '.join(arguments):<36} {wall:6.1f} s wall (goal {goal:.0f} s), {cpu:6.1f} s CPU, "
              f"{megabytes:4.0f} MB peak (goal {MEMORY_GOAL_MEGABYTES} MB): {verdict}; load {load:.1f} "
              f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
