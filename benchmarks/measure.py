"""What several benchmark sections measure: clocks, fresh processes, and the workloads that more
than one of them times (``bench.py``'s sections and ``limits.py``'s table of issue 18).

Each function measures and returns figures; printing is the caller's.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from omaha_equity.equity.calculate import calculate_equity

HI = ("omaha", ["AsAhKsKh", "JdTd9c8c"])


HILO = ("omaha8", ["As2sKdQd", "Ah3h9c9d"])


# Children of the start-up figures write and use .pyc files, as an installed package has them
# (a PYTHONDONTWRITEBYTECODE=1 environment would compile every module's source in every run).
BYTECODE_ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


CLI_QUERY = [sys.executable, "-m", "omaha_equity", "calc", "AsAhKsKh", "JdTd9c8c"]


NUMBA_IMPORT = [sys.executable, "-c", "import numba"]


PEER_QUERY = "import poker_equity; print(poker_equity.exact_from_text('omaha', ['AsAhKsKh', 'JdTd9c8c']))"


WARM_MARGIN_GOAL = 0.15  # issue 18: the whole warm command at most this much above importing numba


def best_of(function, repeats: int, clock=time.perf_counter) -> float:
    """Fewest seconds of ``repeats`` calls of ``function``, read from ``clock`` (the wall clock;
    ``time.process_time`` for the CPU time of this process, all its threads)."""
    times = []
    for _ in range(repeats):
        start = clock()
        function()
        times.append(clock() - start)
    return min(times)


def process_seconds(command: list[str], environment: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its threads) of one run of ``command``."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=environment)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def best_process_seconds(command: list[str], repeats: int) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``repeats`` runs (on a busy machine the CPU seconds
    are the steadier figure)."""
    runs = [process_seconds(command) for _ in range(repeats)]
    return min(wall for wall, _ in runs), min(cpu for _, cpu in runs)


def medians_in_turn(commands: list[tuple[list[str], dict[str, str] | None]], rounds: int) -> list[tuple[float, float]]:
    """Median (wall, CPU) seconds of each ``(command, environment)`` over ``rounds`` fresh
    processes, the commands run in turn (so all see the same load), after one run of each that
    writes the .pyc files (not counted). On a busy machine the CPU seconds are the steadier figure."""
    for command, environment in commands:
        process_seconds(command, environment)
    runs: list[list[tuple[float, float]]] = [[] for _ in commands]
    for _ in range(rounds):
        for times, (command, environment) in zip(runs, commands):
            times.append(process_seconds(command, environment))
    return [(statistics.median(wall for wall, _ in times), statistics.median(cpu for _, cpu in times))
            for times in runs]


def cli_seconds(environment: dict[str, str] | None = None) -> float:
    return process_seconds(CLI_QUERY, environment)[0]


def warm_command_over_numba(rounds: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median (wall, CPU) seconds of the whole warm command and of ``python -c "import numba"``,
    fresh processes run in turn (:func:`medians_in_turn`)."""
    command, numba_import = medians_in_turn([(CLI_QUERY, BYTECODE_ENVIRONMENT), (NUMBA_IMPORT, BYTECODE_ENVIRONMENT)],
                                            rounds)
    return command, numba_import


def cold_cli_seconds() -> float:
    """The CLI with empty table and kernel caches (a temporary cache folder)."""
    folder = tempfile.mkdtemp(prefix="omaha-equity-cold-")
    try:
        environment = dict(os.environ, OMAHA_EQUITY_CACHE=folder)
        return cli_seconds(environment)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def shell_query_seconds(repeats: int) -> dict[str, float]:
    """Median seconds of a heads-up river and flop query typed into ``omaha-equity shell``: the
    line run through the command group, the table printed (into a buffer), in process, warm."""
    import contextlib
    import io
    import statistics

    from omaha_equity.cli import main as command_group

    figures = {}
    for street, board in (("river", "Qd7h2s5c3c"), ("flop", "Qd7h2s")):
        words = ["calc", "AsAhKsKh", "JdTd9c8c", "-b", board]
        times = []
        for _ in range(1 + 20 * repeats):
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                assert command_group.run_words(words, "omaha-equity", None) == 0
            times.append(time.perf_counter() - start)
        figures[street] = statistics.median(times[1:])
    return figures


RIVER_QUERY = (["AsAhKsKh", "JdTd9c8c"], "Qd7h2s5c3c")


def per_query_fixed_cost(repeats: int) -> float:
    """Seconds of one heads-up river query (one board: all fixed cost), one thread, in-process."""
    hands, board = RIVER_QUERY
    calculate_equity(hands, board, threads=1)
    return best_of(lambda: [calculate_equity(hands, board, threads=1) for _ in range(200)], repeats) / 200


def peer_river_seconds(repeats: int) -> float | None:
    """Seconds of poker-equity's exact answer to :func:`per_query_fixed_cost`'s river query, in
    process (best of ``repeats`` loops of 200), or None when ``poker_equity`` cannot be imported."""
    try:
        import poker_equity
    except ImportError:
        return None
    hands, board = RIVER_QUERY
    poker_equity.exact_from_text("omaha", hands, board=board)
    loop = lambda: [poker_equity.exact_from_text("omaha", hands, board=board) for _ in range(200)]  # noqa: E731
    return best_of(loop, repeats) / 200


RANGE_EXACT = ["AsAhKsKh", "AdAcT9"]


def range_exact_rates(repeats: int, threads: int | None = None) -> tuple[float, float]:
    """Player-boards per second of exact ``calculate_equity``: AsAhKsKh against the range AdAcT9
    (16 combinations x 1,086,008 boards, combination by combination on the fixed-hand kernel;
    issue 18, goal within 1.5x) and against the fixed hand JdTd9c8c, on ``threads`` kernel threads
    (None: the library's default)."""
    calculate_equity(RANGE_EXACT, method="exact", threads=threads)
    range_seconds = best_of(lambda: calculate_equity(RANGE_EXACT, method="exact", threads=threads), repeats)
    fixed_seconds = best_of(lambda: calculate_equity(HI[1], method="exact", threads=threads), repeats)
    return 16 * 1_086_008 * 2 / range_seconds, 1_086_008 * 2 / fixed_seconds


def percent_ranges_seconds() -> float:
    """1,000 different 5% ranges of 4-card Omaha parsed and expanded (issue 3)."""
    from omaha_equity.ranges import parse_range

    parse_range("0%-5%")  # load the ranking once
    expressions = [f"{start * 0.095:.3f}%-{start * 0.095 + 5:.3f}%" for start in range(1000)]
    start_time = time.perf_counter()
    sizes = [parse_range(expression).size for expression in expressions]
    assert min(sizes) > 0
    return time.perf_counter() - start_time


MULTIWAY_TRIALS = 1_000_000


SIX_RANGES = ["15%"] * 6


def six_ranges_rate(repeats: int, threads: int | None = None) -> float:
    """Deals per second of six 15% ranges preflop, Monte Carlo (weighted sequential deals; issue
    9, and issue 18's goal: at least 300,000 on 2 threads), best of ``repeats`` runs of
    MULTIWAY_TRIALS deals on ``threads`` kernel threads (None: the library's default)."""
    calculate_equity(SIX_RANGES, trials=20_000, seed=1, threads=threads)
    seconds = best_of(lambda: calculate_equity(SIX_RANGES, trials=MULTIWAY_TRIALS, seed=1, threads=threads), repeats)
    return MULTIWAY_TRIALS / seconds
