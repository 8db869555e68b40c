"""Many small queries and 6-card studies without Python in the way: each figure beside its goal.

- ``omaha-equity shell`` fed 10,000 heads-up river ``calc`` lines on standard input (a fresh
  process, start-up included): goal at most 1 s;
- 1,000 different 5% ranges parsed and expanded, in three fresh processes (the median): goal at
  most 0.25 s;
- ``hits '15%' -g omaha6 -b Qh7d2c --vs AsKsQdJh9c8c`` as a whole command: goal at most 3 s and
  300 MB (peak resident memory).

Run alone: ``python benchmarks/small_studies.py``; ``bench.py`` prints it in its full run.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

SHELL_LINES = 10_000
SHELL_GOAL_SECONDS = 1.0
RANGES_GOAL_SECONDS = 0.25
HITS_COMMAND = ["hits", "15%", "-g", "omaha6", "-b", "Qh7d2c", "--vs", "AsKsQdJh9c8c"]
HITS_GOAL_SECONDS = 3.0
HITS_GOAL_MEGABYTES = 300

# 1,000 different 5% ranges (benchmarks/measure.py's percent_ranges_seconds), in a child
RANGES_CHILD = """
import time
from omaha_equity.ranges import parse_range
parse_range("0%-5%")
expressions = [f"{start * 0.095:.3f}%-{start * 0.095 + 5:.3f}%" for start in range(1000)]
start_time = time.perf_counter()
sizes = [parse_range(expression).size for expression in expressions]
assert min(sizes) > 0
print(time.perf_counter() - start_time)
"""


def river_calc_lines(count: int, seed: int = 1) -> str:
    """``count`` heads-up Omaha river spots as ``calc`` lines (the spots of bench.py's batch)."""
    from omaha_equity.cards import format_cards

    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        deck = rng.sample(range(52), 13)
        lines.append(f"calc {format_cards(deck[0:4])} {format_cards(deck[4:8])} -b {format_cards(deck[8:])}\n")
    return "".join(lines)


def child_figures(command: list[str], stdin_path: str | None = None) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak resident megabytes) of one run of ``command``."""
    with open(stdin_path or os.devnull, "rb") as stdin:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {child.returncode}: {child.stderr.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def shell_figures(repeats: int) -> tuple[float, float]:
    """Best (wall, CPU) seconds of ``omaha-equity shell`` over SHELL_LINES river lines."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as script:
        script.write(river_calc_lines(SHELL_LINES))
    try:
        command = [sys.executable, "-m", "omaha_equity", "shell"]
        child_figures(command, script.name)  # compiled kernels and .pyc files in place
        runs = [child_figures(command, script.name) for _ in range(repeats)]
    finally:
        os.unlink(script.name)
    return min(wall for wall, _, _ in runs), min(cpu for _, cpu, _ in runs)


def percent_ranges_in_fresh_processes(processes: int = 3) -> float:
    """Median seconds of 1,000 5% ranges parsed and expanded, each run in a fresh process."""
    times = [float(subprocess.run([sys.executable, "-c", RANGES_CHILD], check=True, capture_output=True,
                                  text=True).stdout) for _ in range(processes)]
    return statistics.median(times)


def hits_figures(repeats: int) -> tuple[float, float, float]:
    """Best wall seconds, best CPU seconds and the largest peak megabytes of the 6-card hits."""
    command = [sys.executable, "-m", "omaha_equity", *HITS_COMMAND]
    child_figures(command)
    runs = [child_figures(command) for _ in range(repeats)]
    return (min(wall for wall, _, _ in runs), min(cpu for _, cpu, _ in runs),
            max(peak for _, _, peak in runs))


def _verdict(met: bool) -> str:
    return "met" if met else "not met"


def small_studies_figures(repeats: int = 3) -> None:
    """Print each figure with its goal."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"many small queries and 6-card studies (load {load:.2f}):")
    wall, cpu = shell_figures(repeats)
    print(f"  shell fed {SHELL_LINES:,} river calc lines: {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"({cpu / SHELL_LINES * 1e3:.3f} ms CPU a line, start-up included); goal at most {SHELL_GOAL_SECONDS:g} s: "
          f"{_verdict(wall <= SHELL_GOAL_SECONDS)}")
    seconds = percent_ranges_in_fresh_processes()
    print(f"  1,000 different 5% ranges parsed and expanded (median of 3 fresh processes): {seconds:.2f} s; goal at "
          f"most {RANGES_GOAL_SECONDS:g} s: {_verdict(seconds <= RANGES_GOAL_SECONDS)}")
    wall, cpu, peak = hits_figures(repeats)
    print(f"  {' '.join(HITS_COMMAND)}: {wall:.2f} s wall, {cpu:.2f} s CPU, {peak:.0f} MB peak; goal at most "
          f"{HITS_GOAL_SECONDS:g} s and {HITS_GOAL_MEGABYTES} MB: "
          f"{_verdict(wall <= HITS_GOAL_SECONDS and peak <= HITS_GOAL_MEGABYTES)}")


if __name__ == "__main__":
    small_studies_figures()
