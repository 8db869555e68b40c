"""Many small queries at kernel speed: every workload of the issue "Many small queries" beside
its peer or its limit and its goal, measured in one run, printed as one Markdown table (the rows
of the README's and docs/speed.md's speed tables are pasted from it).

Rows, in the issue's order:

1. ``omaha-equity batch`` of 10,000 heads-up river spots, CSV in and CSV out: the work after
   start-up in process (``run_batch_command``, CPU seconds) and the whole command with 1 and 2
   workers (wall, best of fresh processes), beside poker-equity (PyPI ``poker-equity``, Rust)
   answering the same spots in a plain Python loop; goal at most 0.25 s of work, 2 workers
   faster than 1;
2. ``omaha-equity shell`` fed the same spots as 10,000 ``calc`` lines on standard input (a fresh
   process, start-up included) beside the same loop; goal at most 1 s;
3. a heads-up river query in process (``calculate_equity``, 1 thread) beside poker-equity's;
   goal at most poker-equity's time;
4. 1,000 different 5% ranges parsed and expanded, median of three fresh processes; goal at most
   0.25 s;
5. ``hits '15%' -g omaha6 -b Qh7d2c --vs AsKsQdJh9c8c`` as a whole command: goal at most 3 s
   and 300 MB (peak resident memory);
6. ``omaha-equity ev`` over the 19 shared hand-history files (``tests/data``: PokerStars,
   GGPoker, Bovada) with 1 and 2 workers (wall, best of fresh processes); goal: 2 workers
   faster than 1 when there is enough work (else 1 is chosen: the default);
7. exact 6 players x 5 hole cards (Omaha 5 hi, preflop): the whole ``calculate_equity`` call
   and our enumeration (``calculate._enumerate``: kernel and scoring) beside the C program of
   the same algorithm (``c_limit.py``, built ``-O3 -march=native``, checked first to compute
   our outcome tallies and equity), CPU time on 1 thread, best of interleaved rounds; goal: the
   whole call within 1.5x of C;
8. Monte Carlo with 3, 4, 5 and 6 fixed Omaha hands, 1 thread, ns per player-board beside the
   C program (checked first: the same equity for the same seed); goal within 1.2x of C.

Without poker-equity its cells say "not installed"; without a C compiler the C cells say so.
Run alone: ``python benchmarks/small_studies.py [--repeats N]``; ``bench.py`` prints it in its
full run (one of its sections).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

SPOT_COUNT = 10_000
BATCH_WORK_GOAL_SECONDS = 0.25
SHELL_GOAL_SECONDS = 1.0
RANGES_GOAL_SECONDS = 0.25
HITS_COMMAND = ["hits", "15%", "-g", "omaha6", "-b", "Qh7d2c", "--vs", "AsKsQdJh9c8c"]
HITS_GOAL_SECONDS = 3.0
HITS_GOAL_MEGABYTES = 300
WHOLE_CALL_GOAL = 1.5  # the whole exact call of 6 players x 5 cards, within this of C's enumeration
MONTE_CARLO_GOAL = 1.2
MULTIWAY_PLAYER_COUNTS = (3, 4, 5, 6)
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data")
# The shared real hand histories ev reads (19 files): each site's folder of tests/data.
EV_FOLDERS = ("pokerstars", "ggpoker", "bovada")
NOT_INSTALLED = "not installed"

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


def river_spots(count: int, seed: int = 1) -> list[tuple[str, str, str]]:
    """``count`` random heads-up Omaha river spots ``(hand, hand, board)`` (the spots of
    bench.py's batch figures: 13 cards drawn per spot from ``random.Random(seed)``)."""
    from omaha_equity.cards import format_cards

    rng = random.Random(seed)
    spots = []
    for _ in range(count):
        deck = rng.sample(range(52), 13)
        spots.append((format_cards(deck[0:4]), format_cards(deck[4:8]), format_cards(deck[8:])))
    return spots


def river_calc_lines(count: int, seed: int = 1) -> str:
    """``count`` heads-up Omaha river spots as ``calc`` lines (:func:`river_spots`)."""
    return "".join(f"calc {first} {second} -b {board}\n" for first, second, board in river_spots(count, seed))


# Runs one command and prints its wall seconds, CPU seconds, peak resident KB and exit status as
# JSON. Linux counts into a child's peak memory the pages of the process it was forked from, so a
# command started straight from this (large) benchmark process would report at least this
# process's size; started from this small launcher, it reports its own.
LAUNCHER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
error = child.stderr.read().decode(errors="replace")
_, status, usage = os.wait4(child.pid, 0)
print(json.dumps([time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
                  os.waitstatus_to_exitcode(status), error]))
"""


def child_figures(command: list[str], stdin_path: str | None = None) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak resident megabytes) of one run of ``command`` (CPU and
    memory of the process, not of its own children), started from a small launcher process
    (:data:`LAUNCHER`) so that the peak is the command's own."""
    with open(stdin_path or os.devnull, "rb") as stdin:
        launched = subprocess.run([sys.executable, "-c", LAUNCHER, *command], stdin=stdin, capture_output=True,
                                  check=True)
    wall, cpu, kilobytes, returncode, error = json.loads(launched.stdout)
    if returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {returncode}: {error}")
    return wall, cpu, kilobytes / 1024


def best_children(command: list[str], repeats: int, stdin_path: str | None = None) -> tuple[float, float, float]:
    """Best wall, best CPU and largest peak memory of ``repeats`` runs, after one run that is
    not counted (compiled kernels and .pyc files in place)."""
    child_figures(command, stdin_path)
    runs = [child_figures(command, stdin_path) for _ in range(repeats)]
    return min(run[0] for run in runs), min(run[1] for run in runs), max(run[2] for run in runs)


def command(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "omaha_equity", *arguments]


def peer_module():
    """poker_equity, or None when it cannot be imported (``make bench`` installs it)."""
    try:
        import poker_equity
    except ImportError:
        return None
    return poker_equity


def peer_loop_seconds(peer, spots: list[tuple[str, str, str]], repeats: int) -> float:
    """Best seconds of poker-equity answering every spot exactly in a plain Python loop."""
    def loop() -> None:
        for first, second, board in spots:
            peer.exact_from_text("omaha", [first, second], board=board)

    loop()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        loop()
        times.append(time.perf_counter() - start)
    return min(times)


def batch_figures(folder: str, spots: list[tuple[str, str, str]], repeats: int) -> tuple[float, float, float]:
    """(CPU seconds of the work after start-up in process, best wall seconds of the whole command
    with 1 worker, with 2 workers) of ``batch`` over ``spots`` written as a CSV."""
    from omaha_equity.batch.command import BatchOptions, run_batch_command

    spots_path, output = os.path.join(folder, "spots.csv"), os.path.join(folder, "out.csv")
    with open(spots_path, "w") as file:
        file.write("hand1,hand2,board\n")
        file.writelines(f"{first},{second},{board}\n" for first, second, board in spots)
    options = BatchOptions(input_file=spots_path, output=output, workers=1, seed=1, quiet=True)
    run_batch_command(options, report=print)  # the kernels loaded
    work = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        run_batch_command(options, report=print)
        work = min(work, time.process_time() - start)
    walls = [best_children(command("batch", spots_path, "-o", output, "--seed", "1", "-q", "--workers", str(workers)),
                           repeats)[0] for workers in (1, 2)]
    return work, walls[0], walls[1]



def shell_figures(folder: str, repeats: int) -> tuple[float, float]:
    """Best (wall, CPU) seconds of ``omaha-equity shell`` over SPOT_COUNT river lines (at most 2
    counted runs)."""
    script = os.path.join(folder, "calc-lines.txt")
    with open(script, "w") as file:
        file.write(river_calc_lines(SPOT_COUNT))
    wall, cpu, _ = best_children(command("shell"), min(repeats, 2), script)  # 7-10 s a run today
    return wall, cpu


def percent_ranges_in_fresh_processes(processes: int = 3) -> float:
    """Median seconds of 1,000 5% ranges parsed and expanded, each run in a fresh process."""
    times = [float(subprocess.run([sys.executable, "-c", RANGES_CHILD], check=True, capture_output=True,
                                  text=True).stdout) for _ in range(processes)]
    return statistics.median(times)


def hits_figures(repeats: int) -> tuple[float, float, float]:
    """Best wall seconds, best CPU seconds and the largest peak megabytes of the 6-card hits
    (one counted run: it takes 18-23 s today, and the bench must stay within minutes)."""
    return best_children(command(*HITS_COMMAND), 1)


def ev_files() -> list[str]:
    """The shared hand-history files ``ev`` reads (:data:`EV_FOLDERS`), sorted."""
    return sorted(os.path.join(DATA, folder, name) for folder in EV_FOLDERS
                  for name in os.listdir(os.path.join(DATA, folder)) if name.endswith(".txt"))


def ev_figures(repeats: int) -> tuple[int, float, float]:
    """(files, best wall seconds with 1 worker, with 2 workers) of ``ev`` over :func:`ev_files`."""
    files = ev_files()
    walls = [best_children(command("ev", *files, "--workers", str(workers)), repeats)[0] for workers in (1, 2)]
    return len(files), walls[0], walls[1]


def c_limit_figures(repeats: int) -> tuple[str, tuple[float, float, float] | None, list[tuple[int, float, float]]]:
    """(the C build's note, the exact 6 x 5 figures ``(whole call, enumeration, C)`` in ms, the
    Monte Carlo figures ``(players, ours, C)`` in ns per player-board), or the note and nothing
    when no C program builds."""
    from c_limit import HANDS, build, compared_monte_carlo, compared_whole_call

    with tempfile.TemporaryDirectory(prefix="omaha-small-queries-") as directory:
        binary, _, note = build(directory)
        if binary is None:
            return note, None, []
        rows_path = os.path.join(directory, "rows.bin")
        exact = compared_whole_call(binary, rows_path, "omaha5", HANDS[5][:6], repeats)
        monte_carlo = []
        for players in MULTIWAY_PLAYER_COUNTS:
            (ours, theirs), = compared_monte_carlo(binary, rows_path, [1], min(repeats, 3), HANDS[4][:players])
            monte_carlo.append((players, ours, theirs))
        return note, exact, monte_carlo


def _met(met: bool | None) -> str:
    return "—" if met is None else "yes" if met else "no"


def _ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}x"


def small_studies_table(repeats: int = 3) -> str:
    """Every row (see the module docstring) as a Markdown table, with the machine's load before
    and after and the time the whole took."""
    from measure import peer_river_seconds, per_query_fixed_cost

    started = time.perf_counter()
    load_before = os.getloadavg()
    peer = peer_module()
    spots = river_spots(SPOT_COUNT)
    rows: list[tuple[str, str, str, str, str, bool | None]] = []

    def measured(what: str) -> None:
        # a line on stderr per row (the table is stdout's): the whole takes minutes
        print(f"small queries: {what} measured ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)

    peer_loop = peer_loop_seconds(peer, spots, repeats) if peer is not None else None
    peer_text = (f"poker-equity Python loop {peer_loop:.2f} s" if peer_loop is not None
                 else f"poker-equity: {NOT_INSTALLED}")
    with tempfile.TemporaryDirectory(prefix="omaha-small-queries-") as folder:
        work, one, two = batch_figures(folder, spots, repeats)
        rows.append((f"`batch` of {SPOT_COUNT:,} heads-up river spots (CSV in, CSV out)",
                     f"work {work:.2f} s CPU in process; whole command {one:.2f} s (1 worker), {two:.2f} s (2 workers)",
                     peer_text, _ratio(work, peer_loop) if peer_loop else "",
                     f"work at most {BATCH_WORK_GOAL_SECONDS} s; 2 workers faster than 1",
                     work <= BATCH_WORK_GOAL_SECONDS and two < one))
        measured("batch")
        wall, cpu = shell_figures(folder, repeats)
        rows.append((f"`omaha-equity shell` fed the same {SPOT_COUNT:,} `calc` lines on stdin",
                     f"{wall:.2f} s wall ({cpu / SPOT_COUNT * 1e3:.3f} ms CPU a line, start-up included)", peer_text,
                     _ratio(wall, peer_loop) if peer_loop else "", f"at most {SHELL_GOAL_SECONDS:g} s",
                     wall <= SHELL_GOAL_SECONDS))
        measured("shell")
    river = per_query_fixed_cost(repeats)
    peer_river = peer_river_seconds(repeats) if peer is not None else None
    rows.append(("heads-up river query in process (`calculate_equity`, 1 thread)", f"{river * 1e3:.3f} ms",
                 f"poker-equity {peer_river * 1e3:.3f} ms" if peer_river else f"poker-equity: {NOT_INSTALLED}",
                 _ratio(river, peer_river) if peer_river else "", "at most poker-equity's",
                 river <= peer_river if peer_river else None))
    measured("river query")
    seconds = percent_ranges_in_fresh_processes()
    rows.append(("1,000 different 5% ranges parsed and expanded (median of 3 fresh processes)", f"{seconds:.2f} s", "",
                 "", f"at most {RANGES_GOAL_SECONDS} s", seconds <= RANGES_GOAL_SECONDS))
    measured("ranges")
    wall, cpu, peak = hits_figures(repeats)
    rows.append((f"`{' '.join(HITS_COMMAND)}`", f"{wall:.2f} s wall, {cpu:.2f} s CPU, {peak:.0f} MB peak", "", "",
                 f"at most {HITS_GOAL_SECONDS:g} s and {HITS_GOAL_MEGABYTES} MB",
                 wall <= HITS_GOAL_SECONDS and peak <= HITS_GOAL_MEGABYTES))
    measured("hits")
    file_count, one, two = ev_figures(repeats)
    rows.append((f"`ev` over the {file_count} shared files", f"{one:.2f} s (1 worker), {two:.2f} s (`--workers 2`)", "",
                 "", "2 workers faster than 1 when there is enough work, else 1 chosen", two < one))
    measured("ev")
    note, exact, monte_carlo = c_limit_figures(max(repeats, 5))
    if exact is None:
        rows.append(("exact 6 players x 5 hole cards, whole call vs kernel", "", f"C: {note}", "",
                     f"whole call within {WHOLE_CALL_GOAL}x of C", None))
        rows.append(("Monte Carlo 3-6 players, 1 thread", "", f"C: {note}", "", f"within {MONTE_CARLO_GOAL}x of C",
                     None))
    else:
        whole, enumeration, limit = exact
        rows.append(("exact 6 players x 5 hole cards (omaha5 preflop, 26,334 boards), 1 thread, CPU",
                     f"whole call {whole:.3f} ms; kernel {enumeration:.3f} ms ({enumeration / limit:.2f}x C)",
                     f"C {limit:.3f} ms ({note})", _ratio(whole, limit), f"whole call within {WHOLE_CALL_GOAL}x of C",
                     whole / limit <= WHOLE_CALL_GOAL))
        ratios = [ours / theirs for _, ours, theirs in monte_carlo]
        rows.append(("Monte Carlo 3-6 players (omaha, fixed hands), 1 thread, ns per player-board",
                     " / ".join(f"{players}p {ours:.1f}" for players, ours, _ in monte_carlo),
                     "C " + " / ".join(f"{theirs:.1f}" for _, _, theirs in monte_carlo),
                     f"{min(ratios):.2f}-{max(ratios):.2f}x", f"within {MONTE_CARLO_GOAL}x of C",
                     max(ratios) <= MONTE_CARLO_GOAL))
    measured("C limit")
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["| workload | ours | peer / limit | ratio | goal | met? |", "|---|---|---|---|---|---|",
             *(f"| {workload} | {ours} | {limit} | {ratio} | {goal} | {_met(met)} |"
               for workload, ours, limit, ratio, goal, met in rows), "",
             f"Measured {when} with `python benchmarks/small_studies.py` (or `make bench`) in "
             f"{time.perf_counter() - started:.0f} s on {os.cpu_count()} cores; best of {repeats} "
             f"(kernels: best of interleaved rounds); load average {load_before[0]:.2f} before, "
             f"{os.getloadavg()[0]:.2f} after."]
    return "\n".join(lines)


def small_studies_figures(repeats: int = 3) -> None:
    """Print the table (bench.py's section)."""
    print("many small queries (issue 'Many small queries at kernel speed'):")
    print(small_studies_table(repeats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    small_studies_figures(parser.parse_args().repeats)


if __name__ == "__main__":
    main()
